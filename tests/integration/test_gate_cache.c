// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The deny list's reach, remembered across runs (gate/gate_fs_cache.c),
 * through the real binary: a denied file's other name is refused on the
 * run that lists its directory and on the next, answered from the cache;
 * and no payload can write the cache later runs believe: where a writable
 * bind reaches it, the kernel refuses every write, rename and removal
 * inside, and a writable bind of the cache directory itself is refused.
 * As root and as the unprivileged user, with HOME in the project.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* Under /var/tmp: inside, /tmp is the sandbox's own tmpfs (see test_gate.c). */
__attribute__((constructor)) static void gate_cache_tmpdir(void)
{
	setenv("NSBOX_ITEST_TMPDIR", "/var/tmp", 1);
}

static char home[PATH_MAX];

static void make_home(void)
{
	itest_mkdir(&itest_cur, "home");
	itest_mkdir(&itest_cur, "out");
	snprintf(home, sizeof(home), "%s", itest_path(&itest_cur, "home"));
}

NSB_ITEST(gate_cache, an_alias_is_refused_from_the_listing_and_from_the_cache)
{
	struct itest_run r;
	char real[PATH_MAX], files[1024];
	(void)as_user;

	if (!realpath("/usr/sbin/mkfs.ext4", real) || strcmp(real, "/usr/sbin/mke2fs") != 0)
		cr_skip_test("this host has no mkfs.ext4 -> mke2fs link");
	make_home();
	const struct itest_opts o = {.gate = true, .home = home};
	for (int i = 0; i < 2; i++) {
		itest_run(&itest_cur, &o, ITEST_ARGV("--rw", "out", "--", "mke2fs", "out/img"), &r);
		ITEST_ASSERT_EXIT(&r, 123);
		ITEST_EXPECT_STR(&r, itest_rec(&r, "denial.rule"), "exec.denylist");
		ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "reason"), "mkfs.");
		itest_run_close(&r);
		itest_cache_entries(home, "deny-", files, sizeof(files));
		cr_expect(strlen(files) > 0, "run %d left no cache file under %s", i + 1, home);
	}
	/* The cache off: the same verdict from the listing alone. */
	const char *const off[] = {"NSBOX_NO_CACHE=1", NULL};
	const struct itest_opts o2 = {.gate = true, .home = home, .env = off};
	itest_run(&itest_cur, &o2, ITEST_ARGV("--rw", "out", "--", "mke2fs", "out/img"), &r);
	ITEST_ASSERT_EXIT(&r, 123);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "reason"), "mkfs.");
	itest_run_close(&r);
}

/* Every route to the cache, tried by a Python payload. */
static const char routes_py[] =
	"import errno, os, sys\n"
	"home = sys.argv[1]\n"
	"c = home + '/.cache/nsbox'\n" ITEST_PY_ATTEMPT "def write(p):\n"
	"    with open(p, 'w') as f:\n"
	"        f.write('nsbox dircache 1\\n')\n"
	"attempt('write_file', lambda: write(c + '/deny-0123456789abcdef0123456789abcdef'))\n"
	"attempt('rename_cache', lambda: os.rename(c, home + '/.cache/old'))\n"
	"attempt('rename_parent', lambda: os.rename(home + '/.cache', home + '/old'))\n"
	"attempt('rmdir_cache', lambda: os.rmdir(c))\n"
	"attempt('ordinary_write', lambda: write(home + '/notes'))\n";

NSB_ITEST(gate_cache, a_payload_cannot_write_the_cache)
{
	struct itest_run r;
	char cache[PATH_MAX + 64];
	(void)as_user;

	make_home();
	itest_write(&itest_cur, "routes.py", routes_py);
	const struct itest_opts o = {.home = home};
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--rw", "home", "--", "/usr/bin/python3", "routes.py", home), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write_file"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "rename_cache"), "EBUSY");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "rename_parent"), "EBUSY");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "rmdir_cache"), "EBUSY");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ordinary_write"), "ok");
	snprintf(cache, sizeof(cache), "%s/.cache/nsbox", home);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "enforced.protected.paths"), cache);
	itest_run_close(&r);
	snprintf(cache, sizeof(cache), "%s/.cache/nsbox/deny-0123456789abcdef0123456789abcdef",
		 home);
	cr_expect(access(cache, F_OK) != 0, "the payload's file reached the host");
}

NSB_ITEST(gate_cache, the_guard_holds_without_a_cache_and_without_protect)
{
	struct itest_run r;
	(void)as_user;

	make_home();
	itest_write(&itest_cur, "routes.py", routes_py);
	const char *const off[] = {"NSBOX_NO_CACHE=1", NULL};
	const struct itest_opts o = {.home = home, .env = off};
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--no-protect", "--rw", "home", "--", "/usr/bin/python3", "routes.py",
			     home),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write_file"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "rename_parent"), "EBUSY");
	itest_run_close(&r);
}

/* The cache of a caller without a home, tried by a payload that may write
 * all of /var/tmp (its project is there). */
static const char var_tmp_py[] =
	"import errno, os, sys\n"
	"c = sys.argv[1]\n" ITEST_PY_ATTEMPT "def write(p):\n"
	"    with open(p, 'w') as f:\n"
	"        f.write('nsbox dircache 1\\n')\n"
	"attempt('write_file', lambda: write(c + '/deny-0123456789abcdef0123456789abcdef'))\n"
	"attempt('rename_cache', lambda: os.rename(c, c + '.old'))\n"
	"attempt('rmdir_cache', lambda: os.rmdir(c))\n"
	"attempt('ordinary_write', lambda: write(sys.argv[2]))\n";

/*
 * /var/tmp/nsbox-UID, where a caller without a home keeps its cache, is
 * guarded like ~/.cache/nsbox wherever a writable bind reaches it, also in
 * a run that uses its home's cache: a payload that wrote it would feed the
 * caller's later runs without a home.
 */
NSB_ITEST(gate_cache, the_cache_in_var_tmp_is_guarded_too)
{
	struct itest_run r;
	char dir[64], planted[128], notes[PATH_MAX + 16];
	(void)as_user;

	make_home();
	itest_write(&itest_cur, "var_tmp.py", var_tmp_py);
	snprintf(dir, sizeof(dir), "/var/tmp/nsbox-%u", itest_cur.uid);
	/* In /var/tmp itself: the project is bound read-only over its place. */
	snprintf(notes, sizeof(notes), "%s-notes", itest_cur.top);
	const struct itest_opts o = {.home = home};
	itest_run(
		&itest_cur, &o,
		ITEST_ARGV("--rw", "/var/tmp", "--", "/usr/bin/python3", "var_tmp.py", dir, notes),
		&r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write_file"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "rename_cache"), "EBUSY");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "rmdir_cache"), "EBUSY");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ordinary_write"), "ok");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "enforced.protected.paths"), dir);
	itest_run_close(&r);
	snprintf(planted, sizeof(planted), "%s/deny-0123456789abcdef0123456789abcdef", dir);
	cr_expect(access(planted, F_OK) != 0, "the payload's file reached the host");
	cr_expect(unlink(notes) == 0, "the ordinary write did not reach the host: %s", notes);

	/* Bound writable itself: refused, with the fix that works for it (no
	 * XDG_CACHE_HOME takes the guard off this place). */
	itest_run(&itest_cur, &o, ITEST_ARGV("--rw", dir, "--", "/bin/true"), &r);
	ITEST_ASSERT_EXIT(&r, 125);
	ITEST_EXPECT_CONTAINS(&r, r.err, "is nsbox's cache directory");
	ITEST_EXPECT_CONTAINS(&r, r.err, "bind it with --ro");
	cr_expect(strstr(r.err, "XDG_CACHE_HOME") == NULL, "a hint that does not help: %s", r.err);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.stage"), "plan");
	itest_run_close(&r);
}

NSB_ITEST(gate_cache, a_writable_bind_of_the_cache_itself_is_refused)
{
	struct itest_run r;
	(void)as_user;

	make_home();
	itest_mkdir(&itest_cur, "home/.cache");
	itest_mkdir(&itest_cur, "home/.cache/nsbox");
	const struct itest_opts o = {.home = home};
	itest_run(&itest_cur, &o, ITEST_ARGV("--rw", "home/.cache/nsbox", "--", "/bin/true"), &r);
	ITEST_ASSERT_EXIT(&r, 125);
	ITEST_EXPECT_CONTAINS(&r, r.err, "cache directory");
	ITEST_EXPECT_CONTAINS(&r, r.err, "XDG_CACHE_HOME");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.stage"), "plan");
	itest_run_close(&r);
	/* Read-only, it is an ordinary bind. */
	itest_run(&itest_cur, &o, ITEST_ARGV("--ro", "home/.cache/nsbox", "--", "/bin/true"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
}

/* Without a mount namespace the cache cannot be covered: a Landlock run
 * whose writable bind reaches it is refused, switches or not. */
NSB_ITEST(gate_cache, a_landlock_run_cannot_guard_the_cache_and_is_refused)
{
	struct itest_run r;
	(void)as_user;

	make_home();
	const struct itest_opts o = {.home = home};
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--isolation", "landlock", "--no-protect", "--no-mask", "--rw", "home",
			     "--", "/bin/true"),
		  &r);
	ITEST_ASSERT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.stage"), "landlock");
	ITEST_EXPECT_CONTAINS(&r, r.err, "nsbox's cache");
	itest_run_close(&r);
}
