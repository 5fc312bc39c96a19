// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The escape battery: ./escape (tests/escape/escape.c) attempts each attack
 * for real inside the sandbox, as root and as the unprivileged user, and
 * prints the kernel's answer.  Every attack must fail closed.  Where the
 * filter is what stops an attack, the errno it chose (EPERM, ENOSYS,
 * EAFNOSUPPORT) is checked too, so that a test cannot pass merely because the
 * attack was never really attempted; where only the kernel stops it (no
 * capability, non-dumpable init, an empty /dev), any failure will do.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "harness.h"

#define SECRET	    "hunter2-nsbox-escape"
#define SECRET_ENV  "NSB_SECRET=" SECRET
#define ZERO_CAPS   "0000000000000000"
#define MAX_ATTACKS 32

/*
 * Field ("RESULT" or "ERRNO") of the line "ATTACK=<name> ..." in out, in a
 * static ring; "(missing)" when the attack printed no line.
 */
static const char *attack_field(const char *out, const char *name, const char *field)
{
	static char ring[8][64];
	static unsigned next;
	char *buf = ring[next++ % 8];
	char head[96], key[32];
	size_t hlen;

	snprintf(head, sizeof(head), "ATTACK=%s ", name);
	snprintf(key, sizeof(key), " %s=", field);
	hlen = strlen(head);
	for (const char *line = out; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);

		if (len > hlen && strncmp(line, head, hlen) == 0) {
			char copy[256];
			const char *v;

			snprintf(copy, sizeof(copy), "%.*s", (int)len, line);
			v = strstr(copy, key);
			if (!v)
				break;
			v += strlen(key);
			snprintf(buf, 64, "%.*s", (int)strcspn(v, " "), v);
			return buf;
		}
		line = eol ? eol + 1 : NULL;
	}
	return "(missing)";
}

/* The attack ran and was blocked, with errno want when want is not NULL. */
static void expect_blocked(const struct itest_run *r, const char *name, const char *want)
{
	const char *res = attack_field(r->out, name, "RESULT");

	cr_expect(itest_streq(res, "blocked"), "attack %s: RESULT=%s%s", name, res, itest_ctx(r));
	if (want) {
		const char *got = attack_field(r->out, name, "ERRNO");
		cr_expect(itest_streq(got, want), "attack %s: ERRNO=%s, expected %s%s", name, got,
			  want, itest_ctx(r));
	}
}

/*
 * Run ./escape with the given attack arguments under profile (NULL: the
 * embedded default, no --seccomp option at all).
 */
static void run_escape(struct itest_run *r, const struct itest_opts *o, const char *profile,
		       const char *const *attacks)
{
	const char *argv[MAX_ATTACKS + 8];
	size_t n = 0;

	if (profile) {
		argv[n++] = "--seccomp";
		argv[n++] = profile;
	}
	argv[n++] = "--";
	argv[n++] = "./escape";
	for (size_t i = 0; attacks[i]; i++) {
		cr_assert(n < MAX_ATTACKS + 6);
		argv[n++] = attacks[i];
	}
	argv[n] = NULL;
	itest_run(&itest_cur, o, argv, r);
}

/* Each {name, errno-or-NULL} pair must be blocked, and escape must say so. */
struct expect {
	const char *name, *err;
};

static void expect_all_blocked(const struct itest_run *r, const struct expect *e, size_t n)
{
	/* Exit 0 from escape: every attack it ran was blocked. */
	ITEST_EXPECT_EXIT(r, 0);
	for (size_t i = 0; i < n; i++)
		expect_blocked(r, e[i].name, e[i].err);
}

#define EXPECT_ALL_BLOCKED(r, ...)                                       \
	do {                                                             \
		static const struct expect e_[] = {__VA_ARGS__};         \
		expect_all_blocked((r), e_, sizeof(e_) / sizeof(e_[0])); \
	} while (0)

/* ---- tty injection ---- */

static void tty_battery(const char *profile, bool strict)
{
	struct itest_opts o = {.pty = true};
	struct itest_run r;

	run_escape(&r, &o, profile, ITEST_ARGV("tiocsti", "tiocsti-high", "tioclinux"));
	if (strict)
		EXPECT_ALL_BLOCKED(&r, {"tiocsti", NULL}, {"tiocsti-high", NULL},
				   {"tioclinux", NULL});
	else
		/* The filter's answer: without it TIOCLINUX on a pty says ENOTTY. */
		EXPECT_ALL_BLOCKED(&r, {"tiocsti", "EPERM"}, {"tiocsti-high", "EPERM"},
				   {"tioclinux", "EPERM"});
	itest_run_close(&r);
}

NSB_ITEST(escape, tty_injection_is_refused)
{
	tty_battery(NULL, false);
}

NSB_ITEST(escape, tty_injection_is_refused_without_a_filter_too)
{
	struct itest_opts o = {.pty = true};
	struct itest_run r;

	/*
	 * Defence in depth: the payload runs in a session of its own, so the
	 * caller's terminal is not its controlling tty and the kernel refuses
	 * TIOCSTI (this host has dev.tty.legacy_tiocsti=1) even with no filter.
	 */
	run_escape(&r, &o, "none", ITEST_ARGV("tiocsti", "tiocsti-high"));
	EXPECT_ALL_BLOCKED(&r, {"tiocsti", NULL}, {"tiocsti-high", NULL});
	itest_run_close(&r);
}

NSB_ITEST(escape_strict, tty_injection_is_refused)
{
	tty_battery("strict", true);
}

NSB_ITEST(escape, pty_terminal_is_the_sandboxs_own_and_injection_stays_inside)
{
	struct itest_opts o = {.pty = true};
	struct itest_run r;
	int pending = -1, slave;

	/*
	 * With --pty the payload's terminal comes from the sandbox's devpts;
	 * even with no filter and dev.tty.legacy_tiocsti=1, TIOCSTI on it only
	 * feeds the payload's own input, never the caller's terminal.
	 */
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--pty", "--seccomp", "none", "--", "./escape", "pty-terminal"), &r);
	EXPECT_ALL_BLOCKED(&r, {"pty-foreign-terminal", NULL}, {"pty-tiocsti-stays-inside", NULL});
	ITEST_EXPECT_CONTAINS(&r, r.out, "tiocsti_rc=0 read_back=90");
	/* Nothing waits in the caller's terminal for its shell to read. */
	slave = open(ptsname(r.pty_master), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	cr_assert(slave >= 0, "open the caller's terminal: %s", strerror(errno));
	cr_expect(ioctl(slave, FIONREAD, &pending) == 0 && pending == 0,
		  "%d bytes pending on the caller's terminal%s", pending, itest_ctx(&r));
	close(slave);
	itest_run_close(&r);
}

/* ---- the caller's stdio files ---- */

NSB_ITEST(escape, stdin_file_cannot_be_reopened_for_writing)
{
	struct itest_opts o = {.stdin_path = "input.txt"};
	const char *path = itest_path(&itest_cur, "input.txt");
	struct itest_run r;
	struct stat before, after;
	char *content;

	/* The caller's own file, writable by its owner, handed in read-only. */
	itest_write(&itest_cur, "input.txt", "original\n");
	cr_assert(chmod(path, 0644) == 0 && stat(path, &before) == 0);
	run_escape(&r, &o, NULL, ITEST_ARGV("stdin-reopen", "stdio-inodes"));
	EXPECT_ALL_BLOCKED(&r, {"stdin-reopen-write", NULL}, {"stdio-host-inode", NULL});
	content = itest_slurp(path);
	cr_assert(content != NULL);
	ITEST_EXPECT_STR(&r, content, "original\n");
	cr_assert(stat(path, &after) == 0);
	cr_expect(eq(u32, after.st_mode, before.st_mode));
	free(content);
	itest_run_close(&r);
}

NSB_ITEST(escape, stdout_and_stderr_files_keep_their_mode_and_times)
{
	struct itest_opts o = {.stdout_path = "out.log", .stderr_path = "err.log"};
	const char *names[] = {"out.log", "err.log"};
	struct itest_run r;

	for (int i = 0; i < 2; i++) {
		itest_write(&itest_cur, names[i], "");
		cr_assert(chmod(itest_path(&itest_cur, names[i]), 0640) == 0);
	}
	run_escape(&r, &o, NULL, ITEST_ARGV("stdout-fchmod", "stdio-inodes"));
	/* The output still lands in the file, intact. */
	free(r.out);
	r.out = itest_slurp(itest_path(&itest_cur, "out.log"));
	cr_assert(r.out != NULL);
	EXPECT_ALL_BLOCKED(&r, {"stdout-fchmod", NULL}, {"stdio-host-inode", NULL});
	for (int i = 0; i < 2; i++) {
		struct stat st;

		cr_assert(stat(itest_path(&itest_cur, names[i]), &st) == 0);
		/* fchmod(0777), fchmod(04755) and futimens(epoch) reached no host inode. */
		cr_expect(eq(u32, st.st_mode & 07777, 0640), "%s mode%s", names[i], itest_ctx(&r));
		cr_expect(st.st_mtime > 1000000000 && st.st_atime > 1000000000,
			  "%s times set to %ld/%ld%s", names[i], (long)st.st_mtime,
			  (long)st.st_atime, itest_ctx(&r));
	}
	itest_run_close(&r);
}

NSB_ITEST(escape, directory_as_stdin_never_reaches_the_payload)
{
	struct itest_opts o = {.stdin_path = "."};
	struct itest_run r;

	/* openat(0, "../x") would walk the host tree: nothing runs at all. */
	run_escape(&r, &o, NULL, ITEST_ARGV("stdio-inodes"));
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_LACKS(&r, r.out, "ATTACK=");
	itest_run_close(&r);
}

/* ---- namespaces ---- */

static void userns_battery(const char *profile, bool strict)
{
	struct itest_run r;

	run_escape(&r, NULL, profile,
		   ITEST_ARGV("unshare-user", "clone-user", "clone-user-high", "clone3-user"));
	EXPECT_ALL_BLOCKED(&r, {"unshare-user", "EPERM"}, {"clone-user", "EPERM"},
			   {"clone-user-high", "EPERM"},
			   /* clone3 answers ENOSYS so that libc falls back to clone. */
			   {"clone3-user", "ENOSYS"});
	(void)strict;
	itest_run_close(&r);
}

NSB_ITEST(escape, nested_user_namespaces_are_refused)
{
	struct itest_run r;

	userns_battery(NULL, false);

	/* The attack is real: without the filter the kernel allows it here. */
	run_escape(&r, NULL, "none", ITEST_ARGV("unshare-user"));
	ITEST_EXPECT_STR(&r, attack_field(r.out, "unshare-user", "RESULT"), "open");
	itest_run_close(&r);
}

NSB_ITEST(escape_strict, nested_user_namespaces_are_refused)
{
	userns_battery("strict", true);
}

/* ---- mounts, roots, setns ---- */

static void mount_battery(const char *profile, bool strict)
{
	static const char *const ns[] = {"user", "mnt", "pid", "net", "ipc", "uts", "cgroup"};
	struct itest_run r;
	char name[32];

	run_escape(&r, NULL, profile,
		   ITEST_ARGV("mount-tmpfs", "umount-project", "remount-root", "pivot-root",
			      "chroot", "new-mount-api", "setns"));
	EXPECT_ALL_BLOCKED(&r, {"mount-tmpfs", "EPERM"}, {"umount-project", "EPERM"},
			   {"remount-root", "EPERM"}, {"mount-setattr-rw", "EPERM"},
			   {"pivot-root", "EPERM"}, {"chroot", "EPERM"}, {"open-tree", "EPERM"},
			   {"fsopen", "EPERM"}, {"move-mount", "EPERM"});
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		/* init is non-dumpable: its namespace files do not even open. */
		snprintf(name, sizeof(name), "setns-1-%s", ns[i]);
		expect_blocked(&r, name, NULL);
		/* Our own namespaces open; setns itself must be refused. */
		snprintf(name, sizeof(name), "setns-self-%s", ns[i]);
		expect_blocked(&r, name, "EPERM");
	}
	(void)strict;
	itest_run_close(&r);

	/* The project bind is still in place after the umount attempt. */
	ITEST_RUN(&r, "--", "./probe", "cwd");
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
}

NSB_ITEST(escape, mounts_roots_and_namespaces_cannot_be_rearranged)
{
	mount_battery(NULL, false);
}

NSB_ITEST(escape_strict, mounts_roots_and_namespaces_cannot_be_rearranged)
{
	mount_battery("strict", true);
}

/* ---- kernel attack surface ---- */

static void surface_battery(const char *profile, bool strict)
{
	struct itest_run r;

	run_escape(&r, NULL, profile,
		   ITEST_ARGV("keyring", "bpf", "perf", "userfaultfd", "io-uring"));
	EXPECT_ALL_BLOCKED(&r, {"keyctl", "EPERM"}, {"add-key", "EPERM"}, {"request-key", "EPERM"},
			   {"bpf", "EPERM"}, {"perf-event-open", "EPERM"},
			   {"userfaultfd", "EPERM"});
	/* io_uring answers as if absent under default; strict's default is EPERM. */
	expect_blocked(&r, "io-uring-setup", strict ? "EPERM" : "ENOSYS");
	itest_run_close(&r);
}

NSB_ITEST(escape, keyrings_bpf_perf_userfaultfd_and_io_uring_are_refused)
{
	surface_battery(NULL, false);
}

NSB_ITEST(escape_strict, keyrings_bpf_perf_userfaultfd_and_io_uring_are_refused)
{
	surface_battery("strict", true);
}

/* ---- other processes ---- */

NSB_ITEST(escape, init_cannot_be_traced_read_or_overwritten)
{
	static const char *const env[] = {SECRET_ENV, NULL};
	struct itest_opts o = {.env = env};
	struct itest_run r;

	run_escape(&r, &o, NULL,
		   ITEST_ARGV("ptrace", "process-vm", "pid1-exe", "pid1-environ:" SECRET));
	EXPECT_ALL_BLOCKED(&r, {"ptrace-attach", "EPERM"}, {"ptrace-seize", "EPERM"},
			   {"process-vm-readv", "EPERM"}, {"pid1-exe-write", NULL},
			   /* Whether or not it opens, the secret must not be in it. */
			   {"pid1-environ", NULL});
	itest_run_close(&r);
}

/* ---- host kernel files and devices ---- */

NSB_ITEST(escape, host_kernel_files_do_not_open_for_writing)
{
	struct itest_run r;

	run_escape(&r, NULL, NULL, ITEST_ARGV("sysfiles"));
	EXPECT_ALL_BLOCKED(&r, {"core-pattern", NULL}, {"sysrq-trigger", NULL},
			   {"proc-sys-hostname", NULL}, {"sys-uevent-helper", NULL},
			   {"sys-kexec", NULL}, {"sys-mm-thp", NULL});
	itest_run_close(&r);
}

NSB_ITEST(escape, host_devices_are_absent)
{
	struct itest_run r;

	run_escape(&r, NULL, NULL, ITEST_ARGV("devices"));
	EXPECT_ALL_BLOCKED(&r, {"dev-sda", NULL}, {"dev-vda", NULL}, {"dev-nvme0n1", NULL},
			   {"dev-mem", NULL}, {"dev-kmem", NULL}, {"dev-port", NULL},
			   {"dev-kmsg", NULL}, {"dev-vsock", NULL});
	itest_run_close(&r);
}

NSB_ITEST(escape, host_device_nodes_cannot_be_changed)
{
	static const char *const nodes[] = {"null", "zero", "full", "random", "urandom", "tty"};
	struct itest_run r;
	struct stat before, after;
	char name[32];

	cr_assert(stat("/dev/null", &before) == 0);
	run_escape(&r, NULL, NULL, ITEST_ARGV("dev-chmod"));
	ITEST_EXPECT_EXIT(&r, 0);
	/* The read-only bind answers, before any permission check. */
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		snprintf(name, sizeof(name), "chmod-dev-%s", nodes[i]);
		expect_blocked(&r, name, "EROFS");
	}
	itest_run_close(&r);
	cr_assert(stat("/dev/null", &after) == 0);
	cr_expect(eq(u32, after.st_mode, before.st_mode), "the host's /dev/null changed mode");
}

/* Keep in step with src/mount.c. */
static const char *const masked[] = {
	"kcore",	"keys",		 "key-users",  "timer_list", "sched_debug",
	"slabinfo",	"vmallocinfo",	 "kpageflags", "kpagecount", "kpagecgroup",
	"pagetypeinfo", "latency_stats", "config.gz",  "acpi",	     "scsi",
};

static bool host_has(const char *name)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%s", name);
	return lstat(path, &st) == 0;
}

static void masked_battery(const char *profile)
{
	struct itest_run r;
	char name[64];
	bool none = profile && strcmp(profile, "none") == 0;

	run_escape(&r, NULL, profile, ITEST_ARGV("proc-read", "proc-umount"));
	ITEST_EXPECT_EXIT(&r, 0);
	for (size_t i = 0; i < sizeof(masked) / sizeof(masked[0]); i++) {
		bool has = host_has(masked[i]);

		/* Read whole: nothing comes out of a present entry. */
		snprintf(name, sizeof(name), "read-proc-%s", masked[i]);
		expect_blocked(&r, name, has ? "none" : "ENOENT");
		if (!has)
			continue;
		snprintf(name, sizeof(name), "umount-proc-%s", masked[i]);
		expect_blocked(&r, name, "EPERM");
		if (none) {
			/* All capabilities in a nested user namespace: locked. */
			snprintf(name, sizeof(name), "umount-proc-userns-%s", masked[i]);
			expect_blocked(&r, name, "EINVAL");
		}
	}
	if (!none)
		expect_blocked(&r, "umount-proc-userns", "EPERM");
	/* A fresh procfs is refused: the covers make /proc not fully visible. */
	expect_blocked(&r, "proc-remount", "EPERM");
	itest_run_close(&r);
}

NSB_ITEST(escape, root_only_kernel_files_read_empty_and_stay_covered)
{
	masked_battery(NULL);
}

NSB_ITEST(escape, root_only_kernel_files_stay_covered_without_a_filter_too)
{
	masked_battery("none");
}

NSB_ITEST(escape, private_keys_are_not_in_the_system_view)
{
	struct itest_run r;

	run_escape(&r, NULL, NULL, ITEST_ARGV("ssl-private"));
	EXPECT_ALL_BLOCKED(&r, {"ssl-private", "ENOENT"});
	itest_run_close(&r);
}

NSB_ITEST(escape, init_command_line_shows_no_argument)
{
	char src[300], bind[320], needles[600];
	struct itest_run r;

	itest_mkdir(&itest_cur, "hidden-src");
	snprintf(src, sizeof(src), "%s", itest_path(&itest_cur, "hidden-src"));
	snprintf(bind, sizeof(bind), "%s:/data", src);
	/* A secret --env value, a host path that SRC:DEST hides, gate flags. */
	snprintf(needles, sizeof(needles), "pid1-cmdline:%s:%s:--allow-inline-code:--env", SECRET,
		 src);
	itest_run(&itest_cur, NULL,
		  ITEST_ARGV("--env", SECRET_ENV, "--ro", bind, "--", "./escape", needles), &r);
	EXPECT_ALL_BLOCKED(&r, {"pid1-cmdline", NULL});
	itest_run_close(&r);

	/* What it shows instead: "nsbox" alone. */
	itest_run(&itest_cur, NULL,
		  ITEST_ARGV("--env", SECRET_ENV, "--ro", bind, "--", "./probe", "cmdline", "1"),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "argc"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "arg.0"), "nsbox");
	itest_run_close(&r);

	/* The payload's own command line is its argv, whole. */
	itest_run(&itest_cur, NULL,
		  ITEST_ARGV("--env", SECRET_ENV, "--ro", bind, "--", "./probe", "cmdline", "self",
			     "", "two words", SECRET),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "argc"), "6");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "arg.0"), "./probe");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "arg.1"), "cmdline");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "arg.2"), "self");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "arg.3"), "");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "arg.4"), "two words");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "arg.5"), SECRET);
	itest_run_close(&r);
}

/* ---- other ABIs ---- */

/* Copy a shipped profile into the project, where an include finds it. */
static void copy_profile(const char *name)
{
	char src[PATH_MAX], dst[64];
	const char *dir = getenv("NSBOX_SRCDIR");
	char *text;

	cr_assert(dir && *dir, "NSBOX_SRCDIR is not set");
	snprintf(src, sizeof(src), "%s/seccomp-profiles/%s.profile", dir, name);
	snprintf(dst, sizeof(dst), "%s.profile", name);
	text = itest_slurp(src);
	cr_assert(text != NULL, "read '%s': %s", src, strerror(errno));
	itest_write(&itest_cur, dst, text);
	free(text);
}

NSB_ITEST(escape, x32_and_int80_syscalls_do_not_run)
{
	struct itest_run r;

	/*
	 * This host's kernel has no x32 ABI, and its int 0x80 entry faults
	 * (SIGSEGV) even without a filter, so "blocked" alone proves little:
	 * escape reports blocked only when the syscall did not return our pid.
	 * An accepted answer is a signal (SEGV: the entry refused; SYS: the
	 * filter killed it) or an errno.
	 */
	run_escape(&r, NULL, NULL, ITEST_ARGV("x32", "int80"));
	EXPECT_ALL_BLOCKED(&r, {"x32", "ENOSYS"}, {"int80", NULL});
	itest_run_close(&r);

	/*
	 * The filter itself sees x32 numbers, before the kernel's table does: a
	 * profile that kills on a foreign ABI kills the x32 call.
	 */
	copy_profile("default");
	copy_profile("groups");
	itest_write(&itest_cur, "badarch-kill.profile",
		    "include default\n"
		    "badarch kill\n");
	run_escape(&r, NULL, "./badarch-kill.profile", ITEST_ARGV("x32"));
	EXPECT_ALL_BLOCKED(&r, {"x32", "SYS"});
	itest_run_close(&r);
}

/* ---- the network ---- */

static int tcp_listener(int *ret_port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	cr_assert(fd >= 0);
	cr_assert(bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0, "bind: %s", strerror(errno));
	cr_assert(listen(fd, 8) == 0);
	cr_assert(getsockname(fd, (struct sockaddr *)&sa, &len) == 0);
	*ret_port = ntohs(sa.sin_port);
	return fd;
}

static socklen_t abstract_addr(struct sockaddr_un *sa, const char *name)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path + 1, name, strlen(name));
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name));
}

static int abstract_listener(const char *name)
{
	struct sockaddr_un sa;
	socklen_t len = abstract_addr(&sa, name);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	cr_assert(fd >= 0);
	cr_assert(bind(fd, (struct sockaddr *)&sa, len) == 0, "bind @%s: %s", name,
		  strerror(errno));
	cr_assert(listen(fd, 8) == 0);
	return fd;
}

/* Connect from the host and accept: the listener really is reachable. */
static void host_can_connect(int listener, const struct sockaddr *sa, socklen_t len)
{
	int c = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0), a;

	cr_assert(c >= 0);
	cr_assert(connect(c, sa, len) == 0, "control connect: %s", strerror(errno));
	a = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
	cr_assert(a >= 0, "control accept: %s", strerror(errno));
	close(a);
	close(c);
}

NSB_ITEST(escape, host_loopback_and_abstract_sockets_are_unreachable)
{
	struct sockaddr_in tcp = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	struct sockaddr_un un;
	struct itest_run r;
	char name[64], tcp_arg[32], un_arg[96];
	int port, tl, ul;
	socklen_t un_len;

	snprintf(name, sizeof(name), "nsbox-escape-%d-%d", getpid(), as_user);
	tl = tcp_listener(&port);
	ul = abstract_listener(name);
	tcp.sin_port = htons((uint16_t)port);
	un_len = abstract_addr(&un, name);
	host_can_connect(tl, (struct sockaddr *)&tcp, sizeof(tcp));
	host_can_connect(ul, (struct sockaddr *)&un, un_len);

	snprintf(tcp_arg, sizeof(tcp_arg), "tcp:%d", port);
	snprintf(un_arg, sizeof(un_arg), "abstract:%s", name);
	run_escape(&r, NULL, NULL, ITEST_ARGV(tcp_arg, un_arg));
	/* The sandbox's own lo has nothing listening; its abstract names are its own. */
	EXPECT_ALL_BLOCKED(&r, {"host-tcp", "ECONNREFUSED"}, {"host-abstract", "ECONNREFUSED"});
	itest_run_close(&r);

	/* And nothing arrived at either listener from inside. */
	cr_expect(accept4(tl, NULL, NULL, SOCK_CLOEXEC) < 0 && errno == EAGAIN,
		  "a connection reached the host's TCP listener");
	cr_expect(accept4(ul, NULL, NULL, SOCK_CLOEXEC) < 0 && errno == EAGAIN,
		  "a connection reached the host's abstract socket");
	close(tl);
	close(ul);
}

static void socket_battery(const char *profile, bool strict)
{
	struct itest_run r;
	const char *err = strict ? "EPERM" : "EAFNOSUPPORT";

	run_escape(&r, NULL, profile, ITEST_ARGV("sockets"));
	ITEST_EXPECT_EXIT(&r, 0);
	expect_blocked(&r, "af-packet", err);
	expect_blocked(&r, "af-packet-dgram", err);
	expect_blocked(&r, "netlink-audit", err);
	expect_blocked(&r, "netlink-uevent", err);
	expect_blocked(&r, "af-vsock", err);
	itest_run_close(&r);
}

NSB_ITEST(escape, packet_netlink_and_vsock_sockets_are_refused)
{
	socket_battery(NULL, false);
}

NSB_ITEST(escape_strict, packet_netlink_and_vsock_sockets_are_refused)
{
	socket_battery("strict", true);
}

/* ---- what the payload inherits ---- */

NSB_ITEST(escape, no_fd_and_no_secret_is_inherited)
{
	static const char *const env[] = {SECRET_ENV, NULL};
	struct itest_opts o = {.env = env, .leak_fd = 5};
	struct itest_run r;

	run_escape(&r, &o, NULL, ITEST_ARGV("fds", "env:" SECRET));
	EXPECT_ALL_BLOCKED(&r, {"inherited-fds", NULL}, {"env-secret", NULL},
			   {"self-environ", NULL});
	ITEST_EXPECT_LACKS(&r, r.out, "leaked_fd=");
	itest_run_close(&r);
}

static void personality_battery(const char *profile)
{
	struct itest_run r;

	run_escape(&r, NULL, profile, ITEST_ARGV("personality"));
	EXPECT_ALL_BLOCKED(&r, {"personality-linux32", "EPERM"}, {"personality-no-aslr", "EPERM"},
			   {"personality-high-bits", "EPERM"});
	itest_run_close(&r);
}

NSB_ITEST(escape, personality_cannot_change)
{
	personality_battery(NULL);
}

NSB_ITEST(escape_strict, personality_cannot_change)
{
	personality_battery("strict");
}

/* ---- privileges, as the kernel reports them ---- */

static void expect_privileges(const struct itest_run *r, const char *seccomp)
{
	static const char *const sets[] = {"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"};
	static const char *const who[] = {"self", "pid1"};
	char key[32];

	for (size_t w = 0; w < 2; w++) {
		for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
			snprintf(key, sizeof(key), "%s.%s", who[w], sets[i]);
			ITEST_EXPECT_STR(r, itest_kv(r->out, key), ZERO_CAPS);
		}
		snprintf(key, sizeof(key), "%s.NoNewPrivs", who[w]);
		ITEST_EXPECT_STR(r, itest_kv(r->out, key), "1");
		snprintf(key, sizeof(key), "%s.Seccomp", who[w]);
		ITEST_EXPECT_STR(r, itest_kv(r->out, key), seccomp);
	}
}

NSB_ITEST(escape, payload_and_init_hold_no_privilege_and_are_filtered)
{
	struct itest_run r;

	run_escape(&r, NULL, NULL, ITEST_ARGV("caps"));
	EXPECT_ALL_BLOCKED(&r, {"privileges", NULL});
	expect_privileges(&r, "2");
	itest_run_close(&r);
}

NSB_ITEST(escape_strict, payload_and_init_hold_no_privilege_and_are_filtered)
{
	struct itest_run r;

	run_escape(&r, NULL, "strict", ITEST_ARGV("caps"));
	EXPECT_ALL_BLOCKED(&r, {"privileges", NULL});
	expect_privileges(&r, "2");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.seccomp.profile"), "strict");
	itest_run_close(&r);
}

NSB_ITEST(escape, setuid_binary_gains_nothing)
{
	struct itest_run r;
	struct stat st;
	struct passwd *pw = getpwnam(ITEST_USER);
	const char *path = itest_path(&itest_cur, "escape-suid");
	char want[32], cmd[1024];
	/* Owned by someone else than the caller: root for the user, the user for root. */
	uid_t owner;

	cr_assert(pw != NULL, "user '" ITEST_USER "' missing");
	owner = as_user ? 0 : pw->pw_uid;
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", itest_path(&itest_cur, "escape"), path);
	cr_assert(eq(int, system(cmd), 0), "%s", cmd);
	cr_assert(chown(path, owner, owner) == 0);
	cr_assert(chmod(path, 04755) == 0);
	cr_assert(stat(path, &st) == 0 && (st.st_mode & S_ISUID), "setuid bit not set on host");

	/* no_new_privs and the nosuid project bind each keep the caller's uid. */
	ITEST_RUN(&r, "--", "./escape-suid", "setuid");
	EXPECT_ALL_BLOCKED(&r, {"setuid-exec", NULL});
	snprintf(want, sizeof(want), "euid=%u ", itest_cur.uid);
	ITEST_EXPECT_CONTAINS(&r, r.out, want);
	itest_run_close(&r);
}

/* ---- choosing, refusing and exporting profiles ---- */

NSB_ITEST(escape, seccomp_none_is_recorded_and_no_filter_is_loaded)
{
	struct itest_run r;

	run_escape(&r, NULL, "none", ITEST_ARGV("caps"));
	/* "privileges" is open here by design: Seccomp is 0.  Check the facts. */
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.seccomp.profile"), "none");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.Seccomp"), "0");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "pid1.Seccomp"), "0");
	/* Capabilities and no_new_privs do not depend on the filter. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.CapEff"), ZERO_CAPS);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.NoNewPrivs"), "1");
	itest_run_close(&r);

	/* Without --seccomp the default profile is loaded and recorded. */
	run_escape(&r, NULL, NULL, ITEST_ARGV("caps"));
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.seccomp.profile"), "default");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.Seccomp"), "2");
	itest_run_close(&r);
}

NSB_ITEST(escape, unknown_profile_is_a_usage_error_naming_it)
{
	struct itest_run r;

	ITEST_RUN(&r, "--seccomp", "no-such-profile-xyz", "--", "./escape", "caps");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "reason"), "no-such-profile-xyz");
	ITEST_EXPECT_CONTAINS(&r, r.err, "no-such-profile-xyz");
	/* Nothing ran. */
	ITEST_EXPECT_LACKS(&r, r.out, "ATTACK=");
	itest_run_close(&r);
}

/* ---- a binary copied alone runs its defaults ---- */

/*
 * Hide every place a profile file could come from, in a mount namespace of
 * this test's worker alone (every nsbox it starts inherits it): an empty
 * read-only tmpfs over the installed directory and over the source tree's
 * seccomp-profiles, the two directories nsbox looks in (profile_find.c; it
 * reads no environment variable).  The harness already runs a copy of the
 * binary from a fresh directory with nothing beside it.
 */
static void hide_profile_dirs(void)
{
	static const char *const dirs[] = {NSB_PROFILEDIR, NSB_SRCDIR "/seccomp-profiles"};
	char probe[PATH_MAX];

	cr_assert(unshare(CLONE_NEWNS) == 0, "unshare: %s", strerror(errno));
	cr_assert(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (access(dirs[i], F_OK) == 0)
			cr_assert(mount("nsbox-itest", dirs[i], "tmpfs", MS_RDONLY, "size=4k") == 0,
				  "hide '%s': %s", dirs[i], strerror(errno));
		snprintf(probe, sizeof(probe), "%s/default.profile", dirs[i]);
		cr_assert(access(probe, F_OK) != 0, "'%s' is still there", probe);
	}
}

NSB_ITEST(escape, a_binary_copied_alone_runs_its_builtin_profiles)
{
	struct itest_run r;
	char file[PATH_MAX];

	snprintf(file, sizeof(file), "%s/seccomp-profiles/default.profile", NSB_SRCDIR);
	char *text = itest_slurp(file);
	cr_assert(text != NULL);
	hide_profile_dirs();
	/* nsbox sees the hiding: a profile only found as a file is gone. */
	ITEST_RUN(&r, "--seccomp", "groups", "--", "/bin/true");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_CONTAINS(&r, r.err, "seccomp profile 'groups' not found");
	itest_run_close(&r);

	/* The defaults: the built-in default profile, no file read. */
	ITEST_RUN(&r, "--", "/bin/true");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.seccomp.profile"), "default");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.seccomp.default_action"), "allow");
	itest_run_close(&r);

	/* The filter is really loaded, and answers with the profile's errno. */
	run_escape(&r, NULL, NULL, ITEST_ARGV("caps", "io-uring", "unshare-user"));
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.Seccomp"), "2");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "pid1.Seccomp"), "2");
	expect_blocked(&r, "io-uring-setup", "ENOSYS");
	expect_blocked(&r, "unshare-user", "EPERM");
	itest_run_close(&r);

	/* strict is built in too, with its own answer. */
	run_escape(&r, NULL, "strict", ITEST_ARGV("caps", "io-uring"));
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.seccomp.profile"), "strict");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.Seccomp"), "2");
	expect_blocked(&r, "io-uring-setup", "EPERM");
	itest_run_close(&r);

	/* Its text comes along, byte for byte. */
	itest_run(&itest_cur, &(struct itest_opts){.raw_argv = true, .no_record = true},
		  ITEST_ARGV("--print-profile", "default"), &r);
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, text);
	itest_run_close(&r);
	free(text);
}

NSB_ITEST(escape, print_profile_prints_the_shipped_text)
{
	static const char *const names[] = {"default", "strict", "groups"};
	char file[PATH_MAX];
	struct itest_run r;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(file, sizeof(file), "%s/seccomp-profiles/%s.profile", NSB_SRCDIR,
			 names[i]);
		char *text = itest_slurp(file);
		cr_assert(text != NULL, "%s", file);
		itest_run(&itest_cur, &(struct itest_opts){.raw_argv = true, .no_record = true},
			  ITEST_ARGV("--print-profile", names[i]), &r);
		ITEST_EXPECT_EXIT(&r, 0);
		cr_expect(r.out_len == strlen(text), "%s: %zu bytes, want %zu", names[i], r.out_len,
			  strlen(text));
		ITEST_EXPECT_STR(&r, r.out, text);
		ITEST_EXPECT_STR(&r, r.err, "");
		itest_run_close(&r);
		free(text);
	}

	/* An unknown name is a usage error that lists the built-in ones. */
	ITEST_RUN(&r, "--print-profile", "no-such-profile");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, r.out, "");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.stage"), "usage");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.message"),
			 "--print-profile 'no-such-profile': no built-in profile of that name");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.hint"),
			 "the built-in profiles are default, strict, groups");
	ITEST_EXPECT_CONTAINS(&r, r.err,
			      "nsbox: --print-profile 'no-such-profile': no built-in profile");
	itest_run_close(&r);
	/* A path is not a built-in name: nothing is read from it. */
	ITEST_RUN(&r, "--print-profile", "./default.profile");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	itest_run_close(&r);
}

/* The built-in program is the bytes a run compiles from the shipped file,
 * and the record says the same of both (the name as given aside). */
static void builtin_equals_file(const char *name)
{
	char file[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
	struct itest_run r1, r2;

	snprintf(file, sizeof(file), "%s/seccomp-profiles/%s.profile", NSB_SRCDIR, name);
	snprintf(a, sizeof(a), "%s/builtin.bpf", itest_cur.dir);
	snprintf(b, sizeof(b), "%s/file.bpf", itest_cur.dir);
	ITEST_RUN(&r1, "--seccomp", name, "--seccomp-export", a, "--", "/bin/true");
	ITEST_EXPECT_EXIT(&r1, 0);
	ITEST_RUN(&r2, "--seccomp", file, "--seccomp-export", b, "--", "/bin/true");
	ITEST_EXPECT_EXIT(&r2, 0);
	ITEST_EXPECT_STR(&r1, itest_rec(&r1, "enforced.seccomp.profile"), name);
	ITEST_EXPECT_STR(&r2, itest_rec(&r2, "enforced.seccomp.profile"), file);
	ITEST_EXPECT_STR(&r1, itest_rec(&r1, "enforced.seccomp.sha256"),
			 itest_rec(&r2, "enforced.seccomp.sha256"));
	ITEST_EXPECT_STR(&r1, itest_rec(&r1, "enforced.seccomp.default_action"),
			 itest_rec(&r2, "enforced.seccomp.default_action"));
	ITEST_EXPECT_STR(&r1, itest_rec(&r1, "enforced.seccomp.unmapped_ids"),
			 itest_rec(&r2, "enforced.seccomp.unmapped_ids"));
	char *pa = itest_slurp(a), *pb = itest_slurp(b);
	struct stat sa, sb;
	cr_assert(pa && pb, "%s: no exported program", name);
	cr_assert(stat(a, &sa) == 0 && stat(b, &sb) == 0);
	cr_expect(sa.st_size > 0 && sa.st_size == sb.st_size, "%s: %lld vs %lld bytes", name,
		  (long long)sa.st_size, (long long)sb.st_size);
	cr_expect(memcmp(pa, pb, (size_t)sa.st_size) == 0, "%s: the programs differ", name);
	free(pa);
	free(pb);
	itest_run_close(&r1);
	itest_run_close(&r2);
}

NSB_ITEST(escape, builtin_profiles_export_the_program_compiled_from_their_files)
{
	builtin_equals_file("default");
	builtin_equals_file("strict");
}

static void export_and_run_under_bwrap(const char *profile)
{
	char file[512], cmd[1400];
	struct itest_run r;
	struct stat st;

	if (access("/usr/bin/bwrap", X_OK) != 0)
		cr_skip_test("bwrap is not installed");
	snprintf(file, sizeof(file), "%s/%s.bpf", itest_cur.top, profile);
	itest_run(&itest_cur, &(struct itest_opts){.raw_argv = true, .no_record = true},
		  ITEST_ARGV("--seccomp", profile, "--seccomp-export", file), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
	cr_assert(stat(file, &st) == 0, "export wrote nothing: %s", strerror(errno));
	/* A classic BPF program: an array of 8-byte sock_filter instructions. */
	cr_assert(st.st_size > 0 && st.st_size % 8 == 0, "size %lld", (long long)st.st_size);

	/* bwrap loads it and a program runs under it... */
	snprintf(cmd, sizeof(cmd), "bwrap --ro-bind / / --dev /dev --seccomp 9 9<'%s' -- /bin/true",
		 file);
	cr_expect(eq(int, system(cmd), 0), "%s", cmd);
	/* ...and the filter really is the one that refuses user namespaces. */
	snprintf(cmd, sizeof(cmd),
		 "bwrap --ro-bind / / --dev /dev --seccomp 9 9<'%s' -- unshare -U true 2>/dev/null",
		 file);
	cr_expect(system(cmd) != 0, "%s succeeded", cmd);
	/* Control: without the filter the same command works on this host. */
	cr_expect(eq(int, system("bwrap --ro-bind / / --dev /dev -- unshare -U true"), 0));
}

Test(escape, exported_default_filter_works_under_bwrap, .timeout = 60, .fini = itest_project_fini)
{
	itest_project_setup(&itest_cur, false);
	export_and_run_under_bwrap("default");
}

Test(escape, exported_strict_filter_works_under_bwrap, .timeout = 60, .fini = itest_project_fini)
{
	itest_project_setup(&itest_cur, false);
	export_and_run_under_bwrap("strict");
}

/* ---- setuid bits, leases, SOCK_PACKET, unmapped ids (issue 9) ---- */

/* Run ./escape with "--rw <project>/out" (created here) under profile. */
static void run_escape_rw(struct itest_run *r, const char *profile, const char *const *attacks)
{
	const char *argv[MAX_ATTACKS + 10];
	char out[PATH_MAX];
	size_t n = 0;

	snprintf(out, sizeof(out), "%s", itest_path(&itest_cur, "out"));
	if (access(out, F_OK) != 0)
		itest_mkdir(&itest_cur, "out");
	if (profile) {
		argv[n++] = "--seccomp";
		argv[n++] = profile;
	}
	argv[n++] = "--rw";
	argv[n++] = out;
	argv[n++] = "--";
	argv[n++] = "./escape";
	for (size_t i = 0; attacks[i]; i++) {
		cr_assert(n < MAX_ATTACKS + 8);
		argv[n++] = attacks[i];
	}
	argv[n] = NULL;
	itest_run(&itest_cur, NULL, argv, r);
}

/* "<attack>:<project>/out", in a static ring. */
static const char *out_arg(const char *attack)
{
	static char ring[4][PATH_MAX + 32];
	static unsigned next;
	char *buf = ring[next++ % 4];

	snprintf(buf, PATH_MAX + 32, "%s:%s", attack, itest_path(&itest_cur, "out"));
	return buf;
}

/* Judged on the host: nothing under <project>/out has a setuid or setgid bit. */
static void expect_no_setid_bits_on_host(const struct itest_run *r)
{
	char dir[PATH_MAX], path[PATH_MAX + 256];
	struct dirent *de;
	struct stat st;
	int seen = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s", itest_path(&itest_cur, "out"));
	d = opendir(dir);
	cr_assert(d != NULL, "opendir '%s': %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		cr_assert(lstat(path, &st) == 0, "stat '%s': %s", path, strerror(errno));
		unsigned bits = (unsigned)st.st_mode & (S_ISUID | S_ISGID);
		cr_expect(bits == 0, "'%s' has mode %o on the host%s", path,
			  (unsigned)st.st_mode & 07777, itest_ctx(r));
		seen++;
	}
	closedir(d);
	/* At least the target file and the stdout file exist: the attacks ran. */
	cr_expect(seen >= 2, "only %d files in '%s'%s", seen, dir, itest_ctx(r));
}

static void setid_bits_battery(const char *profile)
{
	static const char *const eperm[] = {
		"fchmod-stdout",   "fchmod-fd1",     "fchmod-suid",   "chmod-suid",
		"chmod-sgid",	   "fchmodat2-suid", "fchmodat-suid", "mkdir-sgid",
		"open-creat-suid", "creat-sgid",     "tmpfile-suid",  "mknod-suid",
	};
	struct itest_run r;
	struct stat st;

	run_escape_rw(&r, profile, ITEST_ARGV(out_arg("suid")));
	ITEST_EXPECT_EXIT(&r, 0);
	for (size_t i = 0; i < sizeof(eperm) / sizeof(eperm[0]); i++)
		expect_blocked(&r, eperm[i], "EPERM");
	/* openat2's mode is out of the filter's sight: the call answers ENOSYS. */
	expect_blocked(&r, "openat2-suid", "ENOSYS");
	/* No false refusal: plain modes still work, and the host sees them. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "fchmod-plain"), "ok");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "chmod-plain"), "ok");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "mkdir-plain"), "ok");
	cr_assert(stat(itest_path(&itest_cur, "out/suid-file"), &st) == 0);
	unsigned mode = (unsigned)st.st_mode & 07777;
	cr_expect(mode == 0755, "suid-file mode %o on the host%s", mode, itest_ctx(&r));
	expect_no_setid_bits_on_host(&r);
	itest_run_close(&r);
}

NSB_ITEST(escape, setuid_and_setgid_bits_cannot_be_set)
{
	struct itest_run r;

	setid_bits_battery(NULL);

	/* The attack is real: without a filter the bit reaches the host's inode. */
	run_escape_rw(&r, "none", ITEST_ARGV(out_arg("suid")));
	ITEST_EXPECT_STR(&r, attack_field(r.out, "chmod-suid", "RESULT"), "open");
	ITEST_EXPECT_STR(&r, attack_field(r.out, "open-creat-suid", "RESULT"), "open");
	itest_run_close(&r);
}

NSB_ITEST(escape_strict, setuid_and_setgid_bits_cannot_be_set)
{
	setid_bits_battery("strict");
}

static void lease_battery(const char *profile)
{
	struct itest_run r;

	/* A file of the caller's, in the read-only project bind. */
	itest_write(&itest_cur, "lease-target", "data\n");
	run_escape(&r, NULL, profile, ITEST_ARGV("lease:lease-target"));
	EXPECT_ALL_BLOCKED(&r, {"lease", "EPERM"}, {"dnotify", "EPERM"});
	itest_run_close(&r);
}

NSB_ITEST(escape, leases_and_dnotify_are_refused)
{
	struct itest_run r;

	lease_battery(NULL);

	/* The attack is real: the owner may lease its file through a read-only bind. */
	run_escape(&r, NULL, "none", ITEST_ARGV("lease:lease-target"));
	ITEST_EXPECT_STR(&r, attack_field(r.out, "lease", "RESULT"), "open");
	ITEST_EXPECT_STR(&r, attack_field(r.out, "dnotify", "RESULT"), "open");
	itest_run_close(&r);
}

NSB_ITEST(escape_strict, leases_and_dnotify_are_refused)
{
	lease_battery("strict");
}

NSB_ITEST(escape, sock_packet_is_refused_by_the_filter)
{
	struct itest_run r;

	run_escape(&r, NULL, NULL, ITEST_ARGV("sock-packet"));
	/* EAFNOSUPPORT is the filter's answer: the kernel alone says EPERM
	 * (no CAP_NET_RAW), as the run without a filter shows. */
	EXPECT_ALL_BLOCKED(&r, {"sock-packet", "EAFNOSUPPORT"},
			   {"sock-packet-flags", "EAFNOSUPPORT"},
			   {"sock-packet-inet6", "EAFNOSUPPORT"});
	itest_run_close(&r);

	run_escape(&r, NULL, "none", ITEST_ARGV("sock-packet"));
	EXPECT_ALL_BLOCKED(&r, {"sock-packet", "EPERM"}, {"sock-packet-flags", "EPERM"});
	itest_run_close(&r);
}

NSB_ITEST(escape_strict, sock_packet_is_refused_by_the_filter)
{
	struct itest_run r;

	run_escape(&r, NULL, "strict", ITEST_ARGV("sock-packet"));
	EXPECT_ALL_BLOCKED(&r, {"sock-packet", "EPERM"}, {"sock-packet-flags", "EPERM"},
			   {"sock-packet-inet6", "EPERM"});
	itest_run_close(&r);
}

static void ids_battery(const char *profile)
{
	static const char *const eperm[] = {
		"chown-other-uid",    "chown-other-gid", "lchown-other-uid", "fchown-other-gid",
		"fchownat-other-uid", "setuid-other",	 "setgid-other",     "setreuid-other",
		"setresuid-other",    "setresgid-other",
	};
	static const char *const ok[] = {"chown-own",		"chown-unchanged", "fchown-own",
					 "setresuid-unchanged", "setuid-own",	   "setgid-own"};
	struct itest_run r;

	run_escape_rw(&r, profile, ITEST_ARGV(out_arg("ids")));
	ITEST_EXPECT_EXIT(&r, 0);
	for (size_t i = 0; i < sizeof(eperm) / sizeof(eperm[0]); i++)
		expect_blocked(&r, eperm[i], "EPERM");
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		ITEST_EXPECT_STR(&r, itest_kv(r.out, ok[i]), "ok");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.seccomp.unmapped_ids"), "errno EPERM");
	itest_run_close(&r);
}

NSB_ITEST(escape, other_ids_answer_eperm_like_outside)
{
	struct itest_run r;

	ids_battery(NULL);

	/* Without the filter the user namespace answers EINVAL (unmapped id). */
	run_escape_rw(&r, "none", ITEST_ARGV(out_arg("ids")));
	expect_blocked(&r, "chown-other-uid", "EINVAL");
	expect_blocked(&r, "setuid-other", "EINVAL");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "chown-own"), "ok");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.seccomp.unmapped_ids"), "null");
	itest_run_close(&r);
}

NSB_ITEST(escape_strict, other_ids_answer_eperm_like_outside)
{
	ids_battery("strict");
}

NSB_ITEST(escape, check_document_names_the_unmapped_ids_filter)
{
	struct itest_run r;

	ITEST_RUN(&r, "--check", "--", "./escape", "caps");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "\"unmapped_ids\":\"errno EPERM\"");
	itest_run_close(&r);

	ITEST_RUN(&r, "--check", "--seccomp", "none", "--", "./escape", "caps");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "\"unmapped_ids\":null");
	itest_run_close(&r);
}
