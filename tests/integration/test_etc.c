// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The /etc snapshot (supervisor/etc_snapshot.c), through the real binary:
 * the files a run sees in /etc are the host's as they are when it starts,
 * served by one read-only mount of a copy in the caller's cache (the
 * sandbox's own mountinfo says so) once the files have settled, and by one
 * bind each otherwise; a changed file names a new snapshot and the old one
 * goes; a copy that is not the caller's alone is never used; no payload
 * writes a snapshot.  The host's /etc/hosts is replaced for each test by a
 * file of the test's own, bound over it in a mount namespace of the test
 * process (Criterion runs each test in a process of its own), which nsbox
 * inherits.  As root and as the unprivileged user, with HOME in the project.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

/* Under /var/tmp: inside, /tmp is the sandbox's own tmpfs (see test_gate.c). */
__attribute__((constructor)) static void etc_tmpdir(void)
{
	setenv("NSBOX_ITEST_TMPDIR", "/var/tmp", 1);
}

static char home[PATH_MAX];

/* HOME in the project, and the test's own /etc/hosts (HOSTS) in view. */
static void setup(const char *hosts)
{
	itest_mkdir(&itest_cur, "home");
	snprintf(home, sizeof(home), "%s", itest_path(&itest_cur, "home"));
	itest_write(&itest_cur, "hosts", hosts);
	cr_assert(unshare(CLONE_NEWNS) == 0, "unshare: %s", strerror(errno));
	cr_assert(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0);
	cr_assert(mount(itest_path(&itest_cur, "hosts"), "/etc/hosts", NULL, MS_BIND, NULL) == 0,
		  "bind over /etc/hosts: %s", strerror(errno));
}

/* A file just written may be copied only after a second (etc_snapshot.h). */
static void settle(void)
{
	itest_sleep_ms(1200);
}

/* The snapshots in the cache, as "name," entries, and their count. */
static void snapshots(char *out, size_t outsz, int *count)
{
	*count = itest_cache_entries(home, "etc-", out, outsz);
}

/* The path of the one snapshot there must be, with rel after it. */
static void the_snapshot(const char *rel, char *path, size_t size)
{
	char list[1024];
	int n;

	snapshots(list, sizeof(list), &n);
	cr_assert(n == 1, "snapshots: %s", list);
	list[strlen(list) - 1] = '\0';
	snprintf(path, size, "%s/.cache/nsbox/%s%s", home, list, rel);
}

/* What a run shows: /etc/hosts, and the mounts at and under /etc. */
static const char show_sh[] = "cat /etc/hosts; echo ---;"
			      " awk '$5 == \"/etc\" || $5 ~ /^\\/etc\\// { print $5, $4 }'"
			      " /proc/self/mountinfo";

static void run_show(const struct itest_opts *o, struct itest_run *r)
{
	itest_run(&itest_cur, o, ITEST_ARGV("--", "/bin/sh", "-c", show_sh), r);
	ITEST_ASSERT_EXIT(r, 0);
}

/*
 * A caller without a home (HOME names no directory) keeps its cache in
 * /var/tmp/nsbox-UID, made for it with mode 0700, and its /etc comes from a
 * snapshot there as from ~/.cache/nsbox (before, each file was bound).
 */
NSB_ITEST(etc, a_caller_without_a_home_keeps_its_cache_in_var_tmp)
{
	struct itest_run r;
	char dir[64], where[64];
	struct stat st;
	(void)as_user;

	setup("10.0.0.2 two\n");
	settle();
	snprintf(dir, sizeof(dir), "/var/tmp/nsbox-%u", itest_cur.uid);
	snprintf(where, sizeof(where), "/nsbox-%u/etc-", itest_cur.uid);
	const struct itest_opts o = {.home = "/nonexistent"};
	for (int i = 0; i < 2; i++) {
		run_show(&o, &r);
		ITEST_EXPECT_CONTAINS(&r, r.out, "10.0.0.2 two\n---\n");
		if (i == 1) {
			/* The second run at the latest is served from the copy. */
			ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "snapshot");
			ITEST_EXPECT_CONTAINS(&r, r.out, "\n/etc /");
			ITEST_EXPECT_CONTAINS(&r, r.out, where);
		}
		itest_run_close(&r);
	}
	cr_assert(lstat(dir, &st) == 0, "%s: %s", dir, strerror(errno));
	bool is_dir = S_ISDIR(st.st_mode);
	unsigned mode = (unsigned)(st.st_mode & 07777);
	cr_expect(is_dir, "%s is not a directory", dir);
	cr_expect(st.st_uid == itest_cur.uid, "%s is uid %u's", dir, (unsigned)st.st_uid);
	cr_expect(mode == 0700, "%s has mode %o", dir, mode);
}

NSB_ITEST(etc, a_snapshot_serves_settled_files_and_follows_a_change)
{
	struct itest_run r;
	char list[1024], first[1024];
	int n;
	(void)as_user;

	setup("10.0.0.1 one\n");
	const struct itest_opts o = {.home = home};

	/* Written a moment ago: bound, as before, and no snapshot made. */
	run_show(&o, &r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "binds");
	ITEST_EXPECT_CONTAINS(&r, r.out, "10.0.0.1 one\n---\n");
	ITEST_EXPECT_CONTAINS(&r, r.out, "/etc/hosts /");
	itest_run_close(&r);
	snapshots(list, sizeof(list), &n);
	cr_expect(n == 0, "a snapshot of unsettled files: %s", list);

	/* Settled: one mount of the copy at /etc, none for a file. */
	settle();
	run_show(&o, &r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "snapshot");
	ITEST_EXPECT_CONTAINS(&r, r.out, "10.0.0.1 one\n---\n");
	ITEST_EXPECT_CONTAINS(&r, r.out, "\n/etc /");
	ITEST_EXPECT_CONTAINS(&r, r.out, "/.cache/nsbox/etc-");
	bool alone = strstr(r.out, "/etc/hosts ") || strstr(r.out, "/etc/passwd ");
	cr_expect(alone == false, "a file of /etc still bound on its own:\n%s", r.out);
	itest_run_close(&r);
	snapshots(first, sizeof(first), &n);
	cr_expect(n == 1, "snapshots after the first: %s", first);

	/* The same files: the same snapshot. */
	run_show(&o, &r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "snapshot");
	itest_run_close(&r);
	snapshots(list, sizeof(list), &n);
	cr_expect(n == 1 && strcmp(list, first) == 0, "%s then %s", first, list);

	/* Changed in place: bound until it settles, then a new snapshot,
	 * and the old one, held by no run, is gone, with a temporary a crash
	 * left (only the run that holds the cache's lock makes one). */
	itest_mkdir(&itest_cur, "home/.cache/nsbox/etc-0.tmp.crashed");
	itest_mkdir(&itest_cur, "home/.cache/nsbox/etc-0.tmp.crashed/ssl");
	itest_write(&itest_cur, "home/.cache/nsbox/etc-0.tmp.crashed/ssl/openssl.cnf", "x\n");
	itest_write(&itest_cur, "hosts", "10.0.0.1 one\n10.0.0.2 two\n");
	run_show(&o, &r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "binds");
	ITEST_EXPECT_CONTAINS(&r, r.out, "10.0.0.2 two\n---\n");
	itest_run_close(&r);
	settle();
	run_show(&o, &r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "snapshot");
	ITEST_EXPECT_CONTAINS(&r, r.out, "10.0.0.1 one\n10.0.0.2 two\n---\n");
	itest_run_close(&r);
	snapshots(list, sizeof(list), &n);
	cr_expect(n == 1 && strcmp(list, first) != 0, "%s then %s", first, list);
	cr_expect(access(itest_path(&itest_cur, "home/.cache/nsbox/etc-0.tmp.crashed"), F_OK) != 0);

	/* The cache off: every file bound. */
	const char *const off[] = {"NSBOX_NO_CACHE=1", NULL};
	const struct itest_opts o2 = {.home = home, .env = off};
	run_show(&o2, &r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "binds");
	ITEST_EXPECT_CONTAINS(&r, r.out, "/etc/passwd /");
	itest_run_close(&r);
}

/* Every route to a snapshot, tried by a payload: the mount is read-only
 * inside, and the copy in the cache is covered where a writable bind
 * reaches it (cache_guard.h). */
static const char write_py[] = "import errno, glob, os, sys\n" ITEST_PY_ATTEMPT
			       "snap = glob.glob(sys.argv[1] + '/.cache/nsbox/etc-*')[0]\n"
			       "def write(p):\n"
			       "    with open(p, 'a') as f:\n"
			       "        f.write('10.6.6.6 evil\\n')\n"
			       "attempt('etc_hosts', lambda: write('/etc/hosts'))\n"
			       "attempt('etc_chmod', lambda: os.chmod('/etc/passwd', 0o666))\n"
			       "attempt('snap_hosts', lambda: write(snap + '/hosts'))\n"
			       "attempt('snap_new', lambda: write(snap + '/ld.so.preload'))\n"
			       "attempt('snap_rename', lambda: os.rename(snap, snap + '.x'))\n";

NSB_ITEST(etc, a_payload_cannot_write_a_snapshot)
{
	struct itest_run r;
	char path[PATH_MAX + 1100];
	(void)as_user;

	setup("10.0.0.1 one\n");
	settle();
	itest_write(&itest_cur, "write.py", write_py);
	const struct itest_opts o = {.home = home};
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--rw", "home", "--", "/usr/bin/python3", "write.py", home), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "snapshot");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "etc_hosts"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "etc_chmod"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "snap_hosts"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "snap_new"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "snap_rename"), "EROFS");
	itest_run_close(&r);
	the_snapshot("/hosts", path, sizeof(path));
	char *text = itest_slurp(path);
	cr_expect(text && strcmp(text, "10.0.0.1 one\n") == 0, "the snapshot's hosts: %s", text);
	free(text);
}

NSB_ITEST(etc, a_snapshot_others_may_write_is_not_used)
{
	struct itest_run r;
	char path[PATH_MAX + 1100];
	(void)as_user;

	setup("10.0.0.1 one\n");
	settle();
	const struct itest_opts o = {.home = home};
	run_show(&o, &r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "snapshot");
	itest_run_close(&r);
	the_snapshot("", path, sizeof(path));
	cr_assert(chmod(path, 0775) == 0, "chmod %s: %s", path, strerror(errno));
	run_show(&o, &r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "binds");
	ITEST_EXPECT_CONTAINS(&r, r.out, "10.0.0.1 one\n---\n");
	itest_run_close(&r);
}

NSB_ITEST(etc, a_mount_of_the_callers_under_etc_keeps_the_binds)
{
	struct itest_run r;
	(void)as_user;

	setup("10.0.0.1 one\n");
	settle();
	itest_write(&itest_cur, "extra.conf", "extra=1\n");
	const struct itest_opts o = {.home = home};
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--ro", "extra.conf:/etc/extra.conf", "--", "/bin/cat",
			     "/etc/extra.conf", "/etc/hosts"),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "binds");
	ITEST_EXPECT_STR(&r, r.out, "extra=1\n10.0.0.1 one\n");
	itest_run_close(&r);
}

/* One run at a time makes a snapshot: while another holds the cache
 * directory's lock, a run binds the files; runs started together on a new
 * /etc all succeed, and one snapshot comes of them. */
NSB_ITEST(etc, one_run_at_a_time_makes_a_snapshot)
{
	struct itest_run r, many[8];
	char list[1024], dir[PATH_MAX + 32];
	int n, fd;
	(void)as_user;

	setup("10.0.0.1 one\n");
	settle();
	itest_mkdir(&itest_cur, "home/.cache");
	itest_mkdir(&itest_cur, "home/.cache/nsbox");
	snprintf(dir, sizeof(dir), "%s/.cache/nsbox", home);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert(fd >= 0 && flock(fd, LOCK_EX) == 0, "lock %s: %s", dir, strerror(errno));
	const struct itest_opts o = {.home = home};
	run_show(&o, &r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "binds");
	itest_run_close(&r);
	snapshots(list, sizeof(list), &n);
	cr_expect(n == 0, "made while another run made one: %s", list);
	close(fd);

	for (size_t i = 0; i < sizeof(many) / sizeof(many[0]); i++)
		itest_start(&itest_cur, &o, ITEST_ARGV("--", "/bin/sh", "-c", show_sh), &many[i]);
	for (size_t i = 0; i < sizeof(many) / sizeof(many[0]); i++) {
		itest_wait(&many[i]);
		ITEST_ASSERT_EXIT(&many[i], 0);
		ITEST_EXPECT_CONTAINS(&many[i], many[i].out, "10.0.0.1 one\n---\n");
		itest_run_close(&many[i]);
	}
	snapshots(list, sizeof(list), &n);
	cr_expect(n == 1, "snapshots: %s", list);
	run_show(&o, &r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "snapshot");
	itest_run_close(&r);
}

/* A file the caller may not read (mode 0600, the host's root's) is never
 * copied: the run binds, the file stays unreadable inside, and no run tries
 * a copy (the cache directory is left as it was: no temporary made and
 * removed).  A root caller, its owner, gets the snapshot, and sees no more
 * than with binds. */
NSB_ITEST(etc, a_file_the_caller_may_not_read_keeps_the_binds)
{
	struct itest_run r;
	struct stat before, after;
	char dir[PATH_MAX + 32];

	setup("10.0.0.1 one\n");
	cr_assert(chown(itest_path(&itest_cur, "hosts"), 0, 0) == 0);
	cr_assert(chmod(itest_path(&itest_cur, "hosts"), 0600) == 0);
	settle();
	snprintf(dir, sizeof(dir), "%s/.cache/nsbox", home);
	const struct itest_opts o = {.home = home};
	for (int i = 0; i < 2; i++) {
		itest_run(&itest_cur, &o,
			  ITEST_ARGV("--", "/bin/sh", "-c", "cat /etc/hosts || echo unreadable"),
			  &r);
		ITEST_ASSERT_EXIT(&r, 0);
		ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), as_user ? "binds" : "snapshot");
		ITEST_EXPECT_CONTAINS(&r, r.out, as_user ? "unreadable" : "10.0.0.1 one");
		itest_run_close(&r);
		cr_assert(stat(dir, i ? &after : &before) == 0, "stat %s", dir);
	}
	cr_expect(before.st_ctim.tv_sec == after.st_ctim.tv_sec &&
			  before.st_ctim.tv_nsec == after.st_ctim.tv_nsec,
		  "the second run changed %s", dir);
}

/*
 * A home the caller cannot use for its cache leaves the cache to
 * /var/tmp/nsbox-UID too, as no home does: a ~/.cache/nsbox another user
 * owns (as root and as the user) and, as the user, a home it may not enter
 * (a HOME inherited from root, as setpriv or a harness's setuid leaves it).
 * Before, such a caller had no cache at all: every run listed the command's
 * directory and bound the files of /etc one by one.  Root may enter that
 * home, and its cache is made and used there.
 */
NSB_ITEST(etc, a_home_the_caller_cannot_use_leaves_the_cache_to_var_tmp)
{
	struct itest_run r;
	char where[64], theirs[PATH_MAX + 32], shut[PATH_MAX], list[1024];

	setup("10.0.0.3 three\n");
	settle();
	snprintf(where, sizeof(where), "/nsbox-%u/etc-", itest_cur.uid);
	/* Another user's cache directory in the home. */
	itest_mkdir(&itest_cur, "home/.cache");
	snprintf(theirs, sizeof(theirs), "%s/.cache/nsbox", home);
	cr_assert(mkdir(theirs, 0755) == 0 && chown(theirs, 54321, 54321) == 0, "%s: %s", theirs,
		  strerror(errno));
	const struct itest_opts o = {.home = home};
	for (int i = 0; i < 2; i++) {
		run_show(&o, &r);
		ITEST_EXPECT_CONTAINS(&r, r.out, "10.0.0.3 three\n---\n");
		if (i == 1) {
			ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "snapshot");
			ITEST_EXPECT_CONTAINS(&r, r.out, where);
		}
		itest_run_close(&r);
	}
	cr_expect(itest_cache_entries(home, "etc-", list, sizeof(list)) == 0 &&
			  itest_cache_entries(home, "deny-", list + 512, 512) == 0,
		  "written into another user's cache directory: %s %s", list, list + 512);

	/* A home of root's, mode 0700. */
	snprintf(shut, sizeof(shut), "%s", itest_path(&itest_cur, "shut"));
	cr_assert(mkdir(shut, 0700) == 0, "%s: %s", shut, strerror(errno));
	const struct itest_opts o2 = {.home = shut};
	for (int i = 0; i < 2; i++) {
		run_show(&o2, &r);
		if (i == 1) {
			ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.etc"), "snapshot");
			if (as_user)
				ITEST_EXPECT_CONTAINS(&r, r.out, where);
			else
				ITEST_EXPECT_CONTAINS(&r, r.out, "/shut/.cache/nsbox/etc-");
		}
		itest_run_close(&r);
	}
}
