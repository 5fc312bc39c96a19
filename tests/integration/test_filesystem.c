// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The filesystem view: what the probe can read, write and stat inside, and
 * what lands on the host.  Every claim is a syscall's answer inside the
 * sandbox or a file's state on the host afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#define TMPFS_MAGIC "0x1021994"
#define MiB	    (1024ULL * 1024ULL)

static unsigned long long kv_ull(const struct itest_run *r, const char *key)
{
	return strtoull(itest_kv(r->out, key), NULL, 0);
}

NSB_ITEST(filesystem, ro_bind_refuses_writes_with_erofs)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "input");
	itest_write(&itest_cur, "input/data.txt", "hello\n");
	ITEST_RUN(&r, "--ro", "input", "--", "./probe", "read", "input/data.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "data"), "hello");
	itest_run_close(&r);

	ITEST_RUN(&r, "--ro", "input", "--", "./probe", "write", "input/new.txt");
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EROFS");
	itest_run_close(&r);
	/* Overwriting an existing file is refused the same way. */
	ITEST_RUN(&r, "--ro", "input", "--", "./probe", "write", "input/data.txt");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EROFS");
	itest_run_close(&r);
	cr_expect(access(itest_path(&itest_cur, "input/new.txt"), F_OK) != 0);
	char *data = itest_slurp(itest_path(&itest_cur, "input/data.txt"));
	cr_expect(itest_streq(data, "hello\n"), "input/data.txt changed to '%s'", data);
	free(data);
}

NSB_ITEST(filesystem, ro_bind_makes_submounts_read_only_too)
{
	struct itest_run r;

	/* A tmpfs mounted below input/ in a private mount namespace of this test
	 * worker (inherited by nsbox, invisible to the rest of the host). */
	itest_mkdir(&itest_cur, "input");
	itest_mkdir(&itest_cur, "input/sub");
	cr_assert(unshare(CLONE_NEWNS) == 0, "unshare: %s", strerror(errno));
	cr_assert(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0);
	cr_assert(mount("itest", itest_path(&itest_cur, "input/sub"), "tmpfs", 0, "mode=0777") == 0,
		  "mount: %s", strerror(errno));

	ITEST_RUN(&r, "--ro", "input", "--", "./probe", "statfs", "input/sub");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "f_type"), TMPFS_MAGIC);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ro"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "nosuid"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "nodev"), "1");
	itest_run_close(&r);

	ITEST_RUN(&r, "--ro", "input", "--", "./probe", "write", "input/sub/x");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EROFS");
	itest_run_close(&r);

	/* --rw keeps the submount (recursive bind) and leaves it writable. */
	ITEST_RUN(&r, "--rw", "input", "--", "./probe", "write", "input/sub/x");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
	itest_run_close(&r);
	cr_expect(access(itest_path(&itest_cur, "input/sub/x"), F_OK) == 0,
		  "the write did not reach the submount");
}

NSB_ITEST(filesystem, rw_bind_writes_land_on_the_host)
{
	struct itest_run r;
	struct stat st;

	itest_mkdir(&itest_cur, "out");
	ITEST_RUN(&r, "--rw", "out", "--", "./probe", "write", "out/result.txt", "from-inside\n");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
	itest_run_close(&r);

	char *data = itest_slurp(itest_path(&itest_cur, "out/result.txt"));
	cr_assert(data != NULL, "out/result.txt missing on the host");
	cr_expect(itest_streq(data, "from-inside\n"), "host file holds '%s'", data);
	free(data);
	/* Written with the caller's identity, not some mapped stranger's. */
	cr_assert(stat(itest_path(&itest_cur, "out/result.txt"), &st) == 0);
	cr_expect(eq(u32, st.st_uid, itest_cur.uid));
	cr_expect(eq(u32, st.st_gid, itest_cur.gid));

	/* The bind is nosuid,nodev. */
	ITEST_RUN(&r, "--rw", "out", "--", "./probe", "statfs", "out");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ro"), "0");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "nosuid"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "nodev"), "1");
	itest_run_close(&r);
}

NSB_ITEST(filesystem, bind_destination_can_differ_from_the_source)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "input");
	itest_write(&itest_cur, "input/data.txt", "moved\n");
	itest_mkdir(&itest_cur, "out");
	ITEST_RUN(&r, "--ro", "input:/data", "--", "./probe", "read", "/data/data.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "data"), "moved");
	itest_run_close(&r);

	ITEST_RUN(&r, "--rw", "out:/results", "--", "./probe", "write", "/results/r.txt", "x\n");
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
	cr_expect(access(itest_path(&itest_cur, "out/r.txt"), F_OK) == 0);
}

/* Binds side by side in a directory the new root makes (/srv): each one
 * the host's, read-only or writable as asked (the first walks to /srv, the
 * others are made there directly). */
NSB_ITEST(filesystem, binds_side_by_side_are_each_their_own)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "a");
	itest_mkdir(&itest_cur, "b");
	itest_mkdir(&itest_cur, "c");
	itest_mkdir(&itest_cur, "out");
	itest_write(&itest_cur, "a/data.txt", "from-a\n");
	itest_write(&itest_cur, "b/data.txt", "from-b\n");
	itest_write(&itest_cur, "c/data.txt", "from-c\n");
	static const char *const binds[] = {"--ro", "a:/srv/a", "--ro", "b:/srv/b",
					    "--ro", "c:/srv/c", "--rw", "out:/srv/out"};
#define SRV_RUN(r, ...)                                                                    \
	ITEST_RUN(r, binds[0], binds[1], binds[2], binds[3], binds[4], binds[5], binds[6], \
		  binds[7], "--", "./probe", __VA_ARGS__)
	static const char *const names[] = {"a", "b", "c"};
	for (int i = 0; i < 3; i++) {
		char path[32], want[16];
		snprintf(path, sizeof(path), "/srv/%s/data.txt", names[i]);
		snprintf(want, sizeof(want), "from-%s", names[i]);
		SRV_RUN(&r, "read", path);
		ITEST_ASSERT_EXIT(&r, 0);
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "data"), want);
		itest_run_close(&r);

		snprintf(path, sizeof(path), "/srv/%s/new.txt", names[i]);
		SRV_RUN(&r, "write", path);
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EROFS");
		itest_run_close(&r);

		snprintf(path, sizeof(path), "/srv/%s", names[i]);
		SRV_RUN(&r, "statfs", path);
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "ro"), "1");
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "nosuid"), "1");
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "nodev"), "1");
		itest_run_close(&r);
	}
	SRV_RUN(&r, "write", "/srv/out/r.txt", "side\n");
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
	char *data = itest_slurp(itest_path(&itest_cur, "out/r.txt"));
	cr_expect(itest_streq(data, "side\n"), "out/r.txt holds '%s'", data);
	free(data);
	/* The mount points are the sandbox's: nothing was made on the host. */
	cr_expect(access(itest_path(&itest_cur, "a/a"), F_OK) != 0);
#undef SRV_RUN
}

NSB_ITEST(filesystem, root_and_usr_are_read_only)
{
	struct itest_run r;

	ITEST_RUN(&r, "--", "./probe", "write", "/nsbox-itest-root");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EROFS");
	itest_run_close(&r);

	ITEST_RUN(&r, "--", "./probe", "write", "/usr/nsbox-itest-usr");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EROFS");
	itest_run_close(&r);
	/* If it had worked as root it would have landed in the host's /usr. */
	if (unlink("/usr/nsbox-itest-usr") == 0)
		cr_fail("the sandbox wrote into the host's /usr");

	ITEST_RUN(&r, "--", "./probe", "statfs", "/");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ro"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "f_type"), TMPFS_MAGIC);
	itest_run_close(&r);
	ITEST_RUN(&r, "--", "./probe", "statfs", "/usr");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ro"), "1");
	itest_run_close(&r);
}

NSB_ITEST(filesystem, merged_usr_links_resolve_into_usr)
{
	static const char *const links[][2] = {
		{"/bin", "usr/bin"}, {"/sbin", "usr/sbin"}, {"/lib", "usr/lib"}};
	struct itest_run r;

	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		char host[256];
		ssize_t n = readlink(links[i][0], host, sizeof(host) - 1);
		if (n < 0)
			continue; /* not a merged-/usr host */
		host[n] = '\0';
		ITEST_RUN(&r, "--", "./probe", "stat", links[i][0]);
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "type"), "symlink");
		itest_run_close(&r);
	}
	/* And a program runs through them. */
	ITEST_RUN(&r, "--", "/bin/sh", "-c", "exit 7");
	ITEST_EXPECT_EXIT(&r, 7);
	itest_run_close(&r);
}

NSB_ITEST(filesystem, tmp_is_a_private_writable_bounded_tmpfs)
{
	struct itest_run r;
	char name[64], host[128];

	snprintf(name, sizeof(name), "/tmp/nsbox-itest-private-%d", getpid());
	ITEST_RUN(&r, "--", "./probe", "write", name);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
	itest_run_close(&r);
	/* The host's /tmp never saw it. */
	snprintf(host, sizeof(host), "%s", name);
	if (unlink(host) == 0)
		cr_fail("a write to the sandbox's /tmp landed in the host's /tmp");

	ITEST_RUN(&r, "--", "./probe", "statfs", "/tmp");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "f_type"), TMPFS_MAGIC);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "nosuid"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "nodev"), "1");
	cr_expect(kv_ull(&r, "size") > 0 && kv_ull(&r, "size") <= 256 * MiB,
		  "/tmp size %llu is not bounded to 256 MiB%s", kv_ull(&r, "size"), itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(filesystem, tmpfs_option_mounts_a_sized_tmpfs)
{
	struct itest_run r;

	ITEST_RUN(&r, "--tmpfs", "/scratch:4M", "--", "./probe", "statfs", "/scratch");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "f_type"), TMPFS_MAGIC);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ro"), "0");
	cr_expect(eq(u64, kv_ull(&r, "size"), 4 * MiB), "%s", itest_ctx(&r));
	itest_run_close(&r);

	ITEST_RUN(&r, "--tmpfs", "/scratch:4M", "--", "./probe", "write", "/scratch/f");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
	itest_run_close(&r);
}

NSB_ITEST(filesystem, proc_is_private_and_its_sensitive_parts_read_only)
{
	static const char *const ro_paths[] = {"/proc/sys", "/proc/sysrq-trigger", "/proc/irq",
					       "/proc/bus"};
	struct itest_run r;

	ITEST_RUN(&r, "--", "./probe", "mountopts", "/proc");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "fstype"), "proc");
	itest_run_close(&r);

	/* Harmless if it went through: the sandbox's own UTS namespace, and the
	 * default name rewritten with itself. */
	ITEST_RUN(&r, "--", "./probe", "write", "/proc/sys/kernel/hostname", "nsbox");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EROFS");
	itest_run_close(&r);

	for (size_t i = 0; i < sizeof(ro_paths) / sizeof(ro_paths[0]); i++) {
		/* statvfs, not a write: a write to sysrq-trigger would act. */
		ITEST_RUN(&r, "--", "./probe", "statfs", ro_paths[i]);
		if (itest_streq(itest_kv(r.out, "statfs"), "ENOENT")) {
			itest_run_close(&r); /* masked entirely: fine */
			continue;
		}
		cr_expect(itest_streq(itest_kv(r.out, "ro"), "1"), "%s is writable%s", ro_paths[i],
			  itest_ctx(&r));
		itest_run_close(&r);
	}
}

NSB_ITEST(filesystem, dev_holds_only_the_minimal_nodes)
{
	static const char *const allowed[] = {"null",  "zero",	 "full",  "random", "urandom",
					      "tty",   "pts",	 "ptmx",  "shm",    "fd",
					      "stdin", "stdout", "stderr"};
	static const char *const required[] = {"null", "zero", "full", "random", "urandom",
					       "tty",  "pts",  "ptmx", "shm"};
	struct itest_run r;
	char *entries, *tok, *save;

	ITEST_RUN(&r, "--", "./probe", "ls", "/dev");
	ITEST_ASSERT_EXIT(&r, 0);
	entries = itest_kv(r.out, "entries");
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		cr_expect(itest_has_word(entries, required[i]), "/dev/%s missing%s", required[i],
			  itest_ctx(&r));
	for (tok = strtok_r(entries, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		bool ok = false;
		for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
			ok |= itest_streq(tok, allowed[i]);
		cr_expect(ok, "unexpected /dev/%s%s", tok, itest_ctx(&r));
	}
	itest_run_close(&r);

	ITEST_RUN(&r, "--", "./probe", "write", "/dev/null");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
	itest_run_close(&r);
	ITEST_RUN(&r, "--", "./probe", "write", "/dev/shm/seg");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
	itest_run_close(&r);
	ITEST_RUN(&r, "--", "./probe", "statfs", "/dev/shm");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "f_type"), TMPFS_MAGIC);
	cr_expect(kv_ull(&r, "size") > 0 && kv_ull(&r, "size") < 64ULL * 1024 * MiB,
		  "/dev/shm unbounded%s", itest_ctx(&r));
	itest_run_close(&r);
	/* A private devpts: a new instance, not the host's. */
	ITEST_RUN(&r, "--", "./probe", "ls", "/dev/pts");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "entries"), "ptmx");
	itest_run_close(&r);
}

NSB_ITEST(filesystem, host_home_and_secrets_are_invisible)
{
	static const char *const hidden[] = {"/root",	     "/home", "/etc/shadow", "/etc/gshadow",
					     "/etc/sudoers", "/var",  "/boot"};
	struct itest_run r;

	for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++) {
		ITEST_RUN(&r, "--", "./probe", "stat", hidden[i]);
		cr_expect(itest_streq(itest_kv(r.out, "stat"), "ENOENT"), "%s is visible%s",
			  hidden[i], itest_ctx(&r));
		itest_run_close(&r);
	}
	/* What programs need to start is there, read-only. */
	ITEST_RUN(&r, "--", "./probe", "read", "/etc/passwd");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "read"), "ok");
	itest_run_close(&r);
	ITEST_RUN(&r, "--", "./probe", "write", "/etc/passwd");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EROFS");
	itest_run_close(&r);
}

NSB_ITEST(filesystem, project_root_is_read_only_and_the_working_directory)
{
	struct itest_run r;

	ITEST_RUN(&r, "--", "./probe", "cwd");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "cwd"), itest_cur.dir);
	itest_run_close(&r);

	ITEST_RUN(&r, "--", "./probe", "write", "new-file");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EROFS");
	itest_run_close(&r);
	cr_expect(access(itest_path(&itest_cur, "new-file"), F_OK) != 0);

	/* Nothing of the project's parent comes along. */
	ITEST_RUN(&r, "--", "./probe", "stat", itest_cur.nsbox);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "stat"), "ENOENT");
	itest_run_close(&r);
}

NSB_ITEST(filesystem, chdir_sets_the_working_directory)
{
	struct itest_run r;

	ITEST_RUN(&r, "--chdir", "/tmp", "--", itest_path(&itest_cur, "probe"), "cwd");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "cwd"), "/tmp");
	itest_run_close(&r);
}

NSB_ITEST(filesystem, project_option_and_no_project_work_from_the_root_directory)
{
	struct itest_run r;
	struct itest_opts o = {.cwd = "/"};

	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--project", itest_cur.dir, "--", itest_path(&itest_cur, "probe"),
			     "cwd"),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "cwd"), itest_cur.dir);
	itest_run_close(&r);

	itest_run(&itest_cur, &o, ITEST_ARGV("--no-project", "--", "/bin/sh", "-c", "exit 5"), &r);
	ITEST_EXPECT_EXIT(&r, 5);
	itest_run_close(&r);
}

/* Is word one of the comma-separated mount options in opts? */
static bool opts_have(const char *opts, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = opts; *p;) {
		size_t l = strcspn(p, ",");
		if (l == n && strncmp(p, word, n) == 0)
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

NSB_ITEST(filesystem, dev_nodes_are_read_only_binds_that_still_work)
{
	static const char *const nodes[] = {"/dev/null",   "/dev/zero",	   "/dev/full",
					    "/dev/random", "/dev/urandom", "/dev/tty"};
	struct itest_run r;
	struct stat before, after;

	cr_assert(stat("/dev/null", &before) == 0);
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		const char *opts;

		ITEST_RUN(&r, "--", "./probe", "mountopts", nodes[i]);
		ITEST_ASSERT_EXIT(&r, 0);
		opts = itest_kv(r.out, "opts");
		cr_expect(opts_have(opts, "ro") && opts_have(opts, "nosuid") &&
				  opts_have(opts, "noexec") && !opts_have(opts, "nodev"),
			  "%s is mounted %s%s", nodes[i], opts, itest_ctx(&r));
		itest_run_close(&r);

		/* The host's inode: its mode, owner and times stay as they are. */
		ITEST_RUN(&r, "--", "./probe", "devattrs", nodes[i]);
		ITEST_ASSERT_EXIT(&r, 0);
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "chmod"), "EROFS");
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "chown"), "EROFS");
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "utimensat"), "EROFS");
		if (strcmp(nodes[i], "/dev/tty") == 0) {
			/* No controlling terminal inside: /dev/tty does not open. */
			ITEST_EXPECT_STR(&r, itest_kv(r.out, "fchmod"), "open-ENXIO");
		} else {
			ITEST_EXPECT_STR(&r, itest_kv(r.out, "fchmod"), "EROFS");
			ITEST_EXPECT_STR(&r, itest_kv(r.out, "fchown"), "EROFS");
		}
		itest_run_close(&r);
	}

	/* And the devices work as devices. */
	ITEST_RUN(&r, "--", "./probe", "write", "/dev/null", "gone\n");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
	itest_run_close(&r);
	ITEST_RUN(&r, "--", "./probe", "read", "/dev/zero");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "read"), "ok");
	cr_expect(kv_ull(&r, "bytes") > 0, "/dev/zero read nothing%s", itest_ctx(&r));
	itest_run_close(&r);
	ITEST_RUN(&r, "--", "./probe", "read", "/dev/urandom");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "read"), "ok");
	cr_expect(kv_ull(&r, "bytes") > 0, "/dev/urandom read nothing%s", itest_ctx(&r));
	itest_run_close(&r);

	cr_assert(stat("/dev/null", &after) == 0);
	cr_expect(eq(u32, after.st_mode, before.st_mode), "the host's /dev/null changed mode");
	cr_expect(eq(u32, after.st_uid, before.st_uid));
	cr_expect(eq(i64, after.st_mtim.tv_sec, before.st_mtim.tv_sec));
}

/* Keep in step with src/mount.c. */
static const char *const proc_masked[] = {
	"/proc/kcore",	     "/proc/keys",	  "/proc/key-users",	"/proc/timer_list",
	"/proc/sched_debug", "/proc/slabinfo",	  "/proc/vmallocinfo",	"/proc/kpageflags",
	"/proc/kpagecount",  "/proc/kpagecgroup", "/proc/pagetypeinfo", "/proc/latency_stats",
	"/proc/config.gz",   "/proc/acpi",	  "/proc/scsi",
};
#define N_MASKED (sizeof(proc_masked) / sizeof(proc_masked[0]))

/* "./probe" VERB followed by every masked path. */
static void run_masked(struct itest_run *r, const char *seccomp, const char *verb)
{
	const char *argv[N_MASKED + 8];
	size_t n = 0;

	if (seccomp) {
		argv[n++] = "--seccomp";
		argv[n++] = seccomp;
	}
	argv[n++] = "--";
	argv[n++] = "./probe";
	argv[n++] = verb;
	for (size_t i = 0; i < N_MASKED; i++)
		argv[n++] = proc_masked[i];
	argv[n] = NULL;
	itest_run(&itest_cur, NULL, argv, r);
}

static char *fact(const struct itest_run *r, const char *path, const char *what)
{
	char key[96];

	snprintf(key, sizeof(key), "%s.%s", path, what);
	return itest_kv(r->out, key);
}

NSB_ITEST(filesystem, root_only_proc_files_are_masked)
{
	struct itest_run r;
	bool host_has[N_MASKED];
	const char *covered = NULL;
	size_t present = 0;

	for (size_t i = 0; i < N_MASKED; i++) {
		struct stat st;
		host_has[i] = lstat(proc_masked[i], &st) == 0;
		present += host_has[i];
	}
	/* With few present entries this test would prove little. */
	cr_assert(present >= 5, "this host's /proc has only %zu of the masked entries", present);

	run_masked(&r, NULL, "masked");
	ITEST_ASSERT_EXIT(&r, 0);
	for (size_t i = 0; i < N_MASKED; i++) {
		const char *p = proc_masked[i], *state = fact(&r, p, "state");

		if (!host_has[i]) {
			/* Nothing to leak, nothing to cover. */
			ITEST_EXPECT_STR(&r, state, "ENOENT");
			continue;
		}
		covered = p;
		ITEST_EXPECT_STR(&r, fact(&r, p, "read"), "ok");
		if (itest_streq(state, "dir"))
			ITEST_EXPECT_STR(&r, fact(&r, p, "entries"), "0");
		else
			ITEST_EXPECT_STR(&r, fact(&r, p, "bytes"), "0");
		cr_expect(not(itest_streq(fact(&r, p, "write"), "ok")), "%s opens for writing%s", p,
			  itest_ctx(&r));
		/* No capability: the cover stays. */
		ITEST_EXPECT_STR(&r, fact(&r, p, "umount"), "EPERM");
	}
	itest_run_close(&r);

	cr_assert(covered != NULL);
	ITEST_RUN(&r, "--", "./probe", "mountopts", covered);
	cr_expect(opts_have(itest_kv(r.out, "opts"), "ro"), "%s is not read-only%s", covered,
		  itest_ctx(&r));
	itest_run_close(&r);

	/*
	 * Without a filter the payload can make a user namespace of its own
	 * and hold every capability over a copy of the mounts: the covers are
	 * locked to /proc there (EINVAL), so they cannot be lifted either.
	 */
	run_masked(&r, "none", "masked-userns");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_ASSERT_STR(&r, itest_kv(r.out, "unshare"), "ok");
	for (size_t i = 0; i < N_MASKED; i++)
		if (host_has[i])
			ITEST_EXPECT_STR(&r, fact(&r, proc_masked[i], "umount"), "EINVAL");
	itest_run_close(&r);
}

NSB_ITEST(filesystem, etc_ssl_holds_certificates_and_no_private_keys)
{
	static const char *const allowed[] = {"certs", "openssl.cnf", "cert.pem"};
	struct itest_run r;
	char *entries, *tok, *save;

	/* Debian's ssl-cert package puts root's keys here (mode 0710 root:ssl-cert). */
	ITEST_RUN(&r, "--", "./probe", "stat", "/etc/ssl/private");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "stat"), "ENOENT");
	itest_run_close(&r);

	ITEST_RUN(&r, "--", "./probe", "ls", "/etc/ssl");
	ITEST_ASSERT_EXIT(&r, 0);
	entries = itest_kv(r.out, "entries");
	cr_expect(itest_has_word(entries, "certs"), "/etc/ssl/certs missing%s", itest_ctx(&r));
	for (tok = strtok_r(entries, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		bool ok = false;
		for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
			ok |= itest_streq(tok, allowed[i]);
		cr_expect(ok, "unexpected /etc/ssl/%s%s", tok, itest_ctx(&r));
	}
	itest_run_close(&r);

	/* Python's ssl finds and loads the CA certificates. */
	ITEST_RUN(&r, "--", "python3", "-c",
		  "import ssl\n"
		  "c = ssl.create_default_context()\n"
		  "print('ca=%d' % c.cert_store_stats()['x509_ca'])\n");
	ITEST_ASSERT_EXIT(&r, 0);
	cr_expect(kv_ull(&r, "ca") > 0, "no CA certificate loaded%s", itest_ctx(&r));
	itest_run_close(&r);
}
