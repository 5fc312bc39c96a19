// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * escape: a hostile payload for the integration tests.  Each argument names
 * one attack, which is attempted for real against the kernel from inside the
 * sandbox; the kernel's answer is printed as one line
 *
 *     ATTACK=<name> RESULT=blocked|open ERRNO=<errno name, signal name or none>
 *
 * "blocked" means the attack did not take effect; "open" means it did (the
 * harness then fails the test).  Some attacks take an argument after a
 * colon: "tcp:PORT", "abstract:NAME", "env:SECRET", "pid1-environ:SECRET".
 *
 * Nothing here ever writes to a host kernel interface: files under /proc/sys,
 * /proc/sysrq-trigger and /sys are opened for writing and closed at once, and
 * a successful open alone is reported as "open".
 *
 * Exit codes: 0 every attack was blocked, 1 at least one was open, 2 usage.
 * Linked statically, like the probe, so it depends on nothing inside.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <linux/mount.h>
#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/userfaultfd.h>
#include <linux/vm_sockets.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define EXIT_BLOCKED 0
#define EXIT_OPEN    1
#define EXIT_USAGE   2

/* x32 syscalls are x86_64 numbers with this bit set (asm/unistd.h). */
#define X32_SYSCALL_BIT 0x40000000UL
/* i386 getpid, reached through the int 0x80 entry. */
#define I386_NR_getpid 20

extern char **environ;

static bool any_open;

static const char *errname(int e)
{
	static char buf[16];
	const char *n;

	if (e == 0)
		return "none";
	n = strerrorname_np(e);
	if (n)
		return n;
	snprintf(buf, sizeof(buf), "%d", e);
	return buf;
}

/* One result line.  err is the errno (0 when nothing failed). */
static void report(const char *name, bool open_, int err)
{
	printf("ATTACK=%s RESULT=%s ERRNO=%s\n", name, open_ ? "open" : "blocked", errname(err));
	fflush(stdout);
	if (open_)
		any_open = true;
}

/* A raw syscall's outcome: blocked when it failed, with its errno. */
static void report_rc(const char *name, long rc)
{
	report(name, rc >= 0, rc < 0 ? errno : 0);
}

/* ---- terminals ---- */

/*
 * TIOCSTI pushes a byte into the terminal's input queue: if the sandbox
 * shared the caller's terminal, the caller's shell would read it as typed.
 * The byte chosen is a NUL so that even a success injects nothing runnable.
 * The request goes through the raw syscall so the high bits reach the kernel
 * unchanged: the kernel compares only the low 32 bits of the request.
 */
static void attack_tiocsti(const char *name, unsigned long req)
{
	char c = '\0';

	if (!isatty(0)) {
		/* Without a terminal the attack says nothing: refuse to judge. */
		printf("ATTACK=%s RESULT=untested ERRNO=ENOTTY\n", name);
		any_open = true;
		return;
	}
	report_rc(name, syscall(SYS_ioctl, 0, req, &c));
}

static void attack_tioclinux(void)
{
	/* Subcode 6: get the shift state: harmless, but it reaches the ioctl. */
	char sub = 6;

	if (!isatty(0)) {
		printf("ATTACK=tioclinux RESULT=untested ERRNO=ENOTTY\n");
		any_open = true;
		return;
	}
	report_rc("tioclinux", syscall(SYS_ioctl, 0, (unsigned long)TIOCLINUX, &sub));
}

/*
 * With --pty every terminal the payload holds must come from the sandbox's
 * own devpts (the same filesystem as /dev/pts/ptmx inside), never the
 * caller's; and TIOCSTI on it must land in its own input queue.
 */
static void attack_pty_terminal(void)
{
	struct stat ptmx, st;
	bool foreign = false;
	char got = 0;

	if (stat("/dev/pts/ptmx", &ptmx) < 0) {
		report("pty-foreign-terminal", true, errno);
		return;
	}
	for (int fd = 0; fd < 3; fd++)
		if (isatty(fd) && fstat(fd, &st) == 0 && st.st_dev != ptmx.st_dev) {
			printf("foreign_tty_fd=%d\n", fd);
			foreign = true;
		}
	report("pty-foreign-terminal", foreign || !isatty(0), 0);

	/* Non-canonical, no echo: an injected byte is readable at once. */
	struct termios t;
	if (tcgetattr(0, &t) == 0) {
		t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		t.c_cc[VMIN] = 0;
		t.c_cc[VTIME] = 5; /* 0.5 s */
		tcsetattr(0, TCSANOW, &t);
	}
	char c = 'Z';
	long rc = syscall(SYS_ioctl, 0, (unsigned long)TIOCSTI, &c);
	int err = rc < 0 ? errno : 0;
	if (rc == 0 && read(0, &got, 1) != 1)
		got = 0;
	printf("tiocsti_rc=%ld read_back=%d\n", rc, got);
	/* Injected and read back from its own terminal: it stayed inside. */
	report("pty-tiocsti-stays-inside", rc == 0 && got != 'Z', err);
}

/* ---- the caller's stdio files ---- */

static bool host_inode(int fd)
{
	struct statfs sfs;
	struct stat st;

	if (fstat(fd, &st) < 0)
		return false;
	if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode))
		return true;
	/* A named FIFO is a node on some filesystem; a pipe lives in pipefs. */
	return S_ISFIFO(st.st_mode) && fstatfs(fd, &sfs) == 0 && sfs.f_type != 0x50495045;
}

/* Reopen stdin for writing through /proc: with a host file behind fd 0 this
 * would write to a file the caller handed in read-only. */
static void attack_stdin_reopen(void)
{
	int fd = open("/proc/self/fd/0", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	int err = fd < 0 ? errno : 0;
	bool hit = fd >= 0 && host_inode(fd);

	if (hit && write(fd, "escape-was-here\n", 16) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	report("stdin-reopen-write", hit, err);
}

/* Change mode and times of whatever stdout and stderr are. */
static void attack_stdout_fchmod(void)
{
	static const struct timespec epoch[2] = {{0, 0}, {0, 0}};
	bool hit = false;

	for (int fd = 1; fd <= 2; fd++) {
		bool host = host_inode(fd);
		int a = fchmod(fd, 0777), b = fchmod(fd, 04755), c = futimens(fd, epoch);

		printf("fd=%d host_inode=%d fchmod0777=%d fchmod4755=%d futimens=%d\n", fd, host, a,
		       b, c);
		if (host && (a == 0 || b == 0 || c == 0))
			hit = true;
	}
	report("stdout-fchmod", hit, 0);
}

/* No stdio descriptor leads to a host inode at all. */
static void attack_stdio_inodes(void)
{
	bool hit = false;

	for (int fd = 0; fd < 3; fd++)
		if (host_inode(fd)) {
			printf("host_inode_fd=%d\n", fd);
			hit = true;
		}
	report("stdio-host-inode", hit, 0);
}

/* ---- namespaces ---- */

static void attack_unshare_user(void)
{
	report_rc("unshare-user", unshare(CLONE_NEWUSER));
}

/* Fork-style clone with flags; the child exits at once. */
static void attack_clone(const char *name, unsigned long flags)
{
	long pid = syscall(SYS_clone, flags | SIGCHLD, 0, NULL, NULL, 0);

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	report_rc(name, pid);
}

static void attack_clone3_user(void)
{
	struct clone_args args = {.flags = CLONE_NEWUSER, .exit_signal = SIGCHLD};
	long pid = syscall(SYS_clone3, &args, sizeof(args));

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	report_rc("clone3-user", pid);
}

/*
 * setns into init's namespaces (init is non-dumpable, so even the open
 * should fail) and into our own (the open works: only the filter or the
 * missing capability stands in the way of the syscall itself).
 */
static void attack_setns(const char *who)
{
	static const char *const ns[] = {"user", "mnt", "pid", "net", "ipc", "uts", "cgroup"};
	char path[64], name[32];

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		int fd;

		snprintf(path, sizeof(path), "/proc/%s/ns/%s", who, ns[i]);
		snprintf(name, sizeof(name), "setns-%s-%s", who, ns[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			report(name, false, errno);
			continue;
		}
		report_rc(name, setns(fd, 0));
		close(fd);
	}
}

/* ---- mounts ---- */

static bool root_is_readonly(void)
{
	struct statvfs sv;

	return statvfs("/", &sv) == 0 && (sv.f_flag & ST_RDONLY);
}

static void attack_mount_tmpfs(void)
{
	report_rc("mount-tmpfs", mount("none", "/tmp", "tmpfs", 0, "size=1m"));
}

/* The project dir is a bind mount; detaching it would expose what is below. */
static void attack_umount_cwd(void)
{
	char cwd[PATH_MAX];

	if (!getcwd(cwd, sizeof(cwd))) {
		report("umount-project", false, errno);
		return;
	}
	report_rc("umount-project", umount2(cwd, MNT_DETACH));
}

static void attack_remount_root(void)
{
	struct mount_attr attr = {.attr_clr = MOUNT_ATTR_RDONLY};
	long rc;

	if (!root_is_readonly()) {
		/* Nothing to attack: say so rather than pass. */
		printf("ATTACK=remount-root RESULT=untested ERRNO=none\n");
		any_open = true;
		return;
	}
	rc = mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND, NULL);
	/* Judge by the effect too: a call that "fails" after changing state is open. */
	report("remount-root", rc == 0 || !root_is_readonly(), rc < 0 ? errno : 0);
	rc = syscall(SYS_mount_setattr, AT_FDCWD, "/", 0, &attr, sizeof(attr));
	report("mount-setattr-rw", rc == 0 || !root_is_readonly(), rc < 0 ? errno : 0);
}

static void attack_pivot_root(void)
{
	report_rc("pivot-root", syscall(SYS_pivot_root, ".", "."));
}

static void attack_chroot(void)
{
	report_rc("chroot", chroot("/tmp"));
}

static void attack_new_mount_api(void)
{
	long tree = syscall(SYS_open_tree, AT_FDCWD, "/", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	long fs;

	report_rc("open-tree", tree);
	if (tree >= 0)
		close((int)tree);
	fs = syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	report_rc("fsopen", fs);
	if (fs >= 0)
		close((int)fs);
	/* move_mount of "/" onto /tmp: the old-style detached-tree move. */
	report_rc("move-mount", syscall(SYS_move_mount, AT_FDCWD, "/", AT_FDCWD, "/tmp", 0));
}

/* ---- kernel surfaces ---- */

static void attack_keyring(void)
{
	report_rc("keyctl", syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0));
	report_rc("add-key",
		  syscall(SYS_add_key, "user", "nsbox-escape", "x", 1, KEY_SPEC_PROCESS_KEYRING));
	report_rc("request-key",
		  syscall(SYS_request_key, "user", "nsbox-escape", NULL, KEY_SPEC_PROCESS_KEYRING));
}

static void attack_bpf(void)
{
	union bpf_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	fd = syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof(attr));
	report_rc("bpf", fd);
	if (fd >= 0)
		close((int)fd);
}

static void attack_perf(void)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	report_rc("perf-event-open", fd);
	if (fd >= 0)
		close((int)fd);
}

static void attack_userfaultfd(void)
{
	long fd = syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);

	report_rc("userfaultfd", fd);
	if (fd >= 0)
		close((int)fd);
}

static void attack_io_uring(void)
{
	struct io_uring_params p;
	long fd;

	memset(&p, 0, sizeof(p));
	fd = syscall(SYS_io_uring_setup, 4, &p);
	report_rc("io-uring-setup", fd);
	if (fd >= 0)
		close((int)fd);
}

/* ---- other processes: pid 1 is nsbox's init ---- */

static void attack_ptrace(void)
{
	long rc = ptrace(PTRACE_ATTACH, 1, NULL, NULL);

	report_rc("ptrace-attach", rc);
	if (rc == 0)
		ptrace(PTRACE_DETACH, 1, NULL, NULL);
	rc = ptrace(PTRACE_SEIZE, 1, NULL, NULL);
	report_rc("ptrace-seize", rc);
	if (rc == 0)
		ptrace(PTRACE_DETACH, 1, NULL, NULL);
}

static void attack_process_vm(void)
{
	/* Any address will do: the permission check comes before the copy. */
	char buf[16];
	struct iovec local = {buf, sizeof(buf)};
	struct iovec remote = {(void *)0x400000, sizeof(buf)};

	report_rc("process-vm-readv", syscall(SYS_process_vm_readv, 1, &local, 1, &remote, 1, 0));
}

static void attack_pid1_exe(void)
{
	int fd = open("/proc/1/exe", O_WRONLY | O_CLOEXEC);

	report("pid1-exe-write", fd >= 0, fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
}

/* Does the NUL-separated environment block contain needle? */
static bool block_has(const char *buf, size_t len, const char *needle)
{
	return memmem(buf, len, needle, strlen(needle)) != NULL;
}

/*
 * /proc/PID/environ of init: init is a clone of the supervisor and would show
 * the caller's environment unless it was cleared or made unreadable.  Open
 * when the secret is readable, whether or not the open itself succeeded.
 */
static void attack_environ_file(const char *name, const char *path, const char *secret)
{
	char buf[1 << 16];
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		report(name, false, errno);
		return;
	}
	while (len < sizeof(buf) && (n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += (size_t)n;
	n = n < 0 ? errno : 0;
	close(fd);
	report(name, block_has(buf, len, secret), (int)n);
}

static void attack_env(const char *secret)
{
	bool found = false;

	for (char **e = environ; *e; e++)
		if (strstr(*e, secret))
			found = true;
	report("env-secret", found, 0);
	attack_environ_file("self-environ", "/proc/self/environ", secret);
}

/* ---- host kernel tunables: open for writing only, never write ---- */

static void attack_open_write(const char *name, const char *path)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);

	report(name, fd >= 0, fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
}

static void attack_sysfiles(void)
{
	attack_open_write("core-pattern", "/proc/sys/kernel/core_pattern");
	attack_open_write("sysrq-trigger", "/proc/sysrq-trigger");
	attack_open_write("proc-sys-hostname", "/proc/sys/kernel/hostname");
	attack_open_write("sys-uevent-helper", "/sys/kernel/uevent_helper");
	attack_open_write("sys-kexec", "/sys/kernel/kexec_loaded");
	attack_open_write("sys-mm-thp", "/sys/kernel/mm/transparent_hugepage/enabled");
}

static void attack_devices(void)
{
	static const char *const devs[] = {"/dev/sda",	"/dev/vda",  "/dev/nvme0n1", "/dev/mem",
					   "/dev/kmem", "/dev/port", "/dev/kmsg",    "/dev/vsock"};
	char name[32];

	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		int fd = open(devs[i], O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

		snprintf(name, sizeof(name), "dev-%s", devs[i] + 5);
		report(name, fd >= 0, fd < 0 ? errno : 0);
		if (fd >= 0)
			close(fd);
	}
}

/* ---- host device nodes, root-only kernel files, private keys ---- */

static const char *const dev_nodes[] = {"null", "zero", "full", "random", "urandom", "tty"};

/* What nsbox covers in /proc (src/mount.c); absent entries are skipped. */
static const char *const proc_masked[] = {
	"kcore",	"keys",		 "key-users",  "timer_list", "sched_debug",
	"slabinfo",	"vmallocinfo",	 "kpageflags", "kpagecount", "kpagecgroup",
	"pagetypeinfo", "latency_stats", "config.gz",  "acpi",	     "scsi",
};

/*
 * The device nodes are the host's own inodes: a chmod that went through
 * would change the host's /dev/null.  The mode is rewritten with itself, so
 * even an open attack changes nothing.
 */
static void attack_dev_chmod(void)
{
	char path[32], name[32];
	struct stat st;

	for (size_t i = 0; i < sizeof(dev_nodes) / sizeof(dev_nodes[0]); i++) {
		snprintf(path, sizeof(path), "/dev/%s", dev_nodes[i]);
		snprintf(name, sizeof(name), "chmod-dev-%s", dev_nodes[i]);
		if (stat(path, &st) < 0) {
			report(name, false, errno);
			continue;
		}
		report_rc(name, chmod(path, st.st_mode & 07777));
	}
}

/* Open when a masked file reads anything, or a masked directory lists anything. */
static void attack_proc_read(void)
{
	char path[64], name[64], buf[8192];

	for (size_t i = 0; i < sizeof(proc_masked) / sizeof(proc_masked[0]); i++) {
		struct stat st;
		long long got = 0;
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "/proc/%s", proc_masked[i]);
		snprintf(name, sizeof(name), "read-proc-%s", proc_masked[i]);
		if (lstat(path, &st) < 0) {
			report(name, false, errno);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(path);
			struct dirent *de;

			if (!d) {
				report(name, false, errno);
				continue;
			}
			while ((de = readdir(d)))
				got += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
			closedir(d);
			report(name, got > 0, 0);
			continue;
		}
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0) {
			report(name, false, errno);
			continue;
		}
		while (got < (1 << 20) && (n = read(fd, buf, sizeof(buf))) > 0)
			got += n;
		close(fd);
		report(name, got > 0, 0);
	}
}

/* umount2 every present cover; the child variant first gains every
 * capability over a copy of the mounts in a nested user namespace. */
static bool umount_masks(const char *prefix)
{
	char path[64], name[64];
	bool open_ = false;

	for (size_t i = 0; i < sizeof(proc_masked) / sizeof(proc_masked[0]); i++) {
		struct stat st;
		long rc;

		snprintf(path, sizeof(path), "/proc/%s", proc_masked[i]);
		if (lstat(path, &st) < 0)
			continue;
		snprintf(name, sizeof(name), "%s-%s", prefix, proc_masked[i]);
		rc = umount2(path, MNT_DETACH);
		report_rc(name, rc);
		open_ |= rc == 0;
	}
	return open_;
}

/* Run fn in a forked child that reports its own lines; its exit status 1 means open. */
static void in_reporting_child(const char *name, bool (*fn)(void))
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		report(name, false, errno);
		return;
	}
	if (pid == 0)
		_exit(fn() ? EXIT_OPEN : EXIT_BLOCKED);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		any_open = true;
}

static bool umount_masks_nested(void)
{
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0) {
		report("umount-proc-userns", false, errno);
		return false;
	}
	return umount_masks("umount-proc-userns");
}

/*
 * A fresh procfs would show every masked file again: in a nested user, mount
 * and PID namespace the payload holds CAP_SYS_ADMIN over its own PID
 * namespace, and only the kernel's "not fully visible" rule stands between
 * it and a new proc mount.
 */
static bool mount_fresh_proc(void)
{
	int status;
	pid_t pid;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID) < 0) {
		report("proc-remount", false, errno);
		return false;
	}
	pid = fork(); /* the first child is pid 1 of the new PID namespace */
	if (pid < 0) {
		report("proc-remount", false, errno);
		return false;
	}
	if (pid == 0) {
		long rc = mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
		report_rc("proc-remount", rc);
		_exit(rc == 0 ? EXIT_OPEN : EXIT_BLOCKED);
	}
	return waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

static void attack_proc_umount(void)
{
	umount_masks("umount-proc");
	in_reporting_child("umount-proc-userns", umount_masks_nested);
	in_reporting_child("proc-remount", mount_fresh_proc);
}

static void attack_ssl_private(void)
{
	DIR *d = opendir("/etc/ssl/private");

	report("ssl-private", d != NULL, d ? 0 : errno);
	if (d)
		closedir(d);
}

/*
 * /proc/1/cmdline: init is a clone of the supervisor and shows nsbox's
 * command line unless it was scrubbed.  needles: ':'-separated strings that
 * must not appear there (a secret --env value, a host path, a gate flag).
 */
static void attack_pid1_cmdline(const char *needles)
{
	char buf[1 << 16], needle[PATH_MAX];
	size_t len = 0;
	ssize_t n = 0;
	bool found = false;
	int fd = open("/proc/1/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		report("pid1-cmdline", false, errno);
		return;
	}
	while (len < sizeof(buf) && (n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += (size_t)n;
	close(fd);
	for (const char *p = needles; *p;) {
		size_t l = strcspn(p, ":");

		snprintf(needle, sizeof(needle), "%.*s", (int)l, p);
		if (l && memmem(buf, len, needle, l)) {
			printf("pid1-cmdline-shows=%s\n", needle);
			found = true;
		}
		p += l + (p[l] == ':');
	}
	report("pid1-cmdline", found, n < 0 ? errno : 0);
}

/* ---- other ABIs ---- */

/*
 * Run fn in a child and classify: the child exits 0 when the syscall ran
 * (it returned our pid), 1 when it returned an error (errno in the pipe).
 * Death by a signal means the syscall never ran: SIGSYS is seccomp killing
 * it, SIGSEGV is the kernel refusing the entry (int 0x80 with the ia32
 * entry disabled or unreachable in this VM gives #GP, seen as SIGSEGV).
 */
static void in_child(const char *name, long (*fn)(void))
{
	int pfd[2], status = 0, err = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0) {
		report(name, true, errno);
		return;
	}
	pid = fork();
	if (pid == 0) {
		long rc = fn();
		int e = errno;

		if (rc == getpid())
			_exit(0);
		if (write(pfd[1], &e, sizeof(e)) != sizeof(e))
			_exit(3);
		_exit(1);
	}
	close(pfd[1]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		report(name, true, errno);
		close(pfd[0]);
		return;
	}
	if (read(pfd[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(pfd[0]);
	if (WIFSIGNALED(status)) {
		printf("ATTACK=%s RESULT=blocked ERRNO=%s\n", name, sigabbrev_np(WTERMSIG(status)));
		fflush(stdout);
		return;
	}
	report(name, WEXITSTATUS(status) == 0, err);
}

static long x32_getpid(void)
{
	return syscall(X32_SYSCALL_BIT | SYS_getpid);
}

/* i386 getpid through int 0x80; returns the kernel's raw answer (-errno). */
static long int80_getpid(void)
{
	long ret = I386_NR_getpid;

	__asm__ volatile("int $0x80" : "+a"(ret) : : "memory", "rcx", "r11");
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

/* ---- the network: the sandbox must not reach the host's ---- */

static void attack_tcp(const char *port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons((uint16_t)atoi(port)),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int rc;

	if (fd < 0) {
		report("host-tcp", false, errno);
		return;
	}
	rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	report("host-tcp", rc == 0, rc < 0 ? errno : 0);
	close(fd);
}

static void attack_abstract(const char *name)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t len = strlen(name);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int rc;

	if (fd < 0 || len + 1 > sizeof(sa.sun_path)) {
		report("host-abstract", false, fd < 0 ? errno : ENAMETOOLONG);
		return;
	}
	/* Abstract names start with a NUL and belong to a network namespace. */
	memcpy(sa.sun_path + 1, name, len);
	rc = connect(fd, (struct sockaddr *)&sa,
		     (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len));
	report("host-abstract", rc == 0, rc < 0 ? errno : 0);
	close(fd);
}

static void attack_socket(const char *name, int domain, int type, int proto)
{
	int fd = socket(domain, type | SOCK_CLOEXEC, proto);

	report(name, fd >= 0, fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
}

static void attack_sockets(void)
{
	attack_socket("af-packet", AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	attack_socket("af-packet-dgram", AF_PACKET, SOCK_DGRAM, htons(ETH_P_ALL));
	attack_socket("netlink-audit", AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);
	attack_socket("netlink-uevent", AF_NETLINK, SOCK_DGRAM, NETLINK_KOBJECT_UEVENT);
	attack_socket("af-vsock", AF_VSOCK, SOCK_STREAM, 0);
}

/* ---- inherited state ---- */

/* Every fd above 2 except the one reading the directory is a leak. */
static void attack_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int leaked = -1;

	if (!d) {
		/* Unreadable means unknown, never "no leak". */
		report("inherited-fds", true, errno);
		return;
	}
	while ((de = readdir(d))) {
		int fd = atoi(de->d_name);

		if (de->d_name[0] == '.' || fd <= 2 || fd == dirfd(d))
			continue;
		leaked = fd;
		printf("leaked_fd=%d\n", fd);
	}
	closedir(d);
	report("inherited-fds", leaked >= 0, 0);
}

static void attack_personality(void)
{
	unsigned long before = (unsigned long)personality(0xffffffff);
	static const struct {
		const char *name;
		unsigned long persona;
	} tries[] = {{"personality-linux32", PER_LINUX32},
		     {"personality-no-aslr", PER_LINUX | ADDR_NO_RANDOMIZE},
		     {"personality-high-bits", 0xffffffff00000000UL | ADDR_NO_RANDOMIZE}};

	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		long rc = syscall(SYS_personality, tries[i].persona);
		int e = errno;
		unsigned long now = (unsigned long)personality(0xffffffff);

		/* Open when the persona changed, whatever the call returned. */
		report(tries[i].name, now != before, rc < 0 ? e : 0);
		if (now != before)
			personality(before);
	}
}

/* ---- privileges, as the kernel states them ---- */

static bool status_fields(const char *who, const char *path)
{
	static const char *const keys[] = {"CapInh", "CapPrm",	   "CapEff", "CapBnd",
					   "CapAmb", "NoNewPrivs", "Seccomp"};
	char line[256];
	bool ok = true;
	int found = 0;
	FILE *f = fopen(path, "re");

	if (!f) {
		printf("%s.error=%s\n", who, errname(errno));
		return false;
	}
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *v;

		if (!colon)
			continue;
		*colon = '\0';
		v = colon + 1 + strspn(colon + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (strcmp(line, keys[i]) != 0)
				continue;
			found++;
			printf("%s.%s=%s\n", who, keys[i], v);
			if (i < 5)
				ok = ok && strcmp(v, "0000000000000000") == 0;
			else if (i == 5)
				ok = ok && strcmp(v, "1") == 0;
			else
				ok = ok && strcmp(v, "2") == 0;
		}
	}
	fclose(f);
	return ok && found == (int)(sizeof(keys) / sizeof(keys[0]));
}

static void attack_caps(void)
{
	bool self_ok = status_fields("self", "/proc/self/status");
	bool pid1_ok = status_fields("pid1", "/proc/1/status");

	report("privileges", !(self_ok && pid1_ok), 0);
}

/* A setuid copy of this binary: did exec give us another effective uid? */
static void attack_setuid(void)
{
	uid_t r, e, s;

	getresuid(&r, &e, &s);
	printf("ruid=%u euid=%u suid=%u\n", r, e, s);
	report("setuid-exec", e != r || s != r, 0);
}

/* ---- setuid bits, leases, SOCK_PACKET, unmapped ids (issue 9) ---- */

#define SUID_BITS (S_ISUID | S_ISGID)

/* Open when path now carries a setuid or setgid bit, whatever rc said. */
static void report_bits(const char *name, const char *path, long rc, int err)
{
	struct stat st;
	bool bits = stat(path, &st) == 0 && (st.st_mode & SUID_BITS);

	report(name, bits || rc >= 0, rc < 0 ? err : 0);
}

static void path_in(char *buf, size_t size, const char *dir, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

/*
 * Every way to put S_ISUID/S_ISGID on a file in dir (an --rw bind: the bits
 * would land on the host's inode), then a plain chmod that must still work.
 */
static void attack_suid(const char *dir)
{
	char file[PATH_MAX], p[PATH_MAX];
	long rc;
	int fd, e;

	path_in(file, sizeof(file), dir, "suid-file");
	fd = open(file, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0) {
		/* No file, no test: refuse to judge. */
		printf("ATTACK=suid RESULT=untested ERRNO=%s\n", errname(errno));
		any_open = true;
		return;
	}

	/* Stdout as a regular file of the caller's: fchmod(1) is the attack. */
	path_in(p, sizeof(p), dir, "stdout-file");
	int out = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644), saved = dup(1);
	if (out >= 0 && saved >= 0 && dup2(out, 1) == 1) {
		rc = fchmod(1, 04755);
		e = errno;
		dup2(saved, 1);
		report_bits("fchmod-stdout", p, rc, e);
	} else {
		printf("ATTACK=fchmod-stdout RESULT=untested ERRNO=%s\n", errname(errno));
		any_open = true;
	}
	if (out >= 0)
		close(out);
	if (saved >= 0)
		close(saved);
	/* Whatever stdout is here (a pipe, the caller's file), the call is refused. */
	rc = fchmod(1, 04755);
	e = errno;
	{
		/* A pipe's mode changes nothing on the host: open only for a file. */
		struct stat st;
		bool bits = fstat(1, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & SUID_BITS);
		report("fchmod-fd1", bits, rc < 0 ? e : 0);
	}

	rc = fchmod(fd, 04755);
	report_bits("fchmod-suid", file, rc, errno);
	rc = chmod(file, 04755);
	report_bits("chmod-suid", file, rc, errno);
	rc = chmod(file, 02755);
	report_bits("chmod-sgid", file, rc, errno);
	rc = syscall(452 /* fchmodat2 */, AT_FDCWD, file, 06755, 0);
	report_bits("fchmodat2-suid", file, rc, errno);
	rc = syscall(SYS_fchmodat, AT_FDCWD, file, 04755);
	report_bits("fchmodat-suid", file, rc, errno);

	path_in(p, sizeof(p), dir, "sgid-dir");
	rc = mkdir(p, 02775);
	report_bits("mkdir-sgid", p, rc, errno);
	path_in(p, sizeof(p), dir, "open-suid");
	rc = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 04755);
	e = errno;
	if (rc >= 0)
		close((int)rc);
	report_bits("open-creat-suid", p, rc, e);
	path_in(p, sizeof(p), dir, "creat-suid");
	rc = syscall(SYS_creat, p, 02755);
	e = errno;
	if (rc >= 0)
		close((int)rc);
	report_bits("creat-sgid", p, rc, e);
	rc = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 04755);
	e = errno;
	if (rc >= 0) {
		struct stat st;
		bool bits = fstat((int)rc, &st) == 0 && (st.st_mode & SUID_BITS);
		close((int)rc);
		report("tmpfile-suid", bits, 0);
	} else {
		report("tmpfile-suid", false, e);
	}
	path_in(p, sizeof(p), dir, "mknod-suid");
	rc = mknod(p, S_IFREG | 04755, 0);
	report_bits("mknod-suid", p, rc, errno);
	{
		/* openat2's mode sits in memory the filter cannot read. */
		struct {
			uint64_t flags, mode, resolve;
		} how = {O_CREAT | O_WRONLY | O_CLOEXEC, 04755, 0};
		path_in(p, sizeof(p), dir, "openat2-suid");
		rc = syscall(SYS_openat2, AT_FDCWD, p, &how, sizeof(how));
		e = errno;
		if (rc >= 0)
			close((int)rc);
		report_bits("openat2-suid", p, rc, e);
	}

	/* No false refusal: an ordinary chmod still works. */
	rc = fchmod(fd, 0600);
	printf("fchmod-plain=%s\n", rc == 0 ? "ok" : errname(errno));
	rc = chmod(file, 0755);
	printf("chmod-plain=%s\n", rc == 0 ? "ok" : errname(errno));
	path_in(p, sizeof(p), dir, "plain-dir");
	rc = mkdir(p, 0775);
	printf("mkdir-plain=%s\n", rc == 0 ? "ok" : errname(errno));
	close(fd);
}

/* A read lease stalls the host's writers of a file bound in; dnotify
 * watches a host directory. */
static void attack_lease(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), dfd;
	long rc;

	if (fd < 0) {
		printf("ATTACK=lease RESULT=untested ERRNO=%s\n", errname(errno));
		any_open = true;
		return;
	}
	rc = fcntl(fd, F_SETLEASE, F_RDLCK);
	report_rc("lease", rc);
	if (rc == 0)
		fcntl(fd, F_SETLEASE, F_UNLCK);
	close(fd);
	dfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	rc = dfd < 0 ? -1 : fcntl(dfd, F_NOTIFY, DN_MODIFY | DN_CREATE);
	report_rc("dnotify", rc);
	if (dfd >= 0)
		close(dfd);
}

/* SOCK_PACKET: the legacy way to a packet socket (the kernel turns
 * AF_INET+SOCK_PACKET into AF_PACKET). */
static void attack_sock_packet(void)
{
	attack_socket("sock-packet", AF_INET, SOCK_PACKET, htons(ETH_P_ALL));
	attack_socket("sock-packet-flags", AF_INET, SOCK_PACKET | SOCK_NONBLOCK, htons(ETH_P_ALL));
	attack_socket("sock-packet-inet6", AF_INET6, SOCK_PACKET, htons(ETH_P_ALL));
}

/* Print NAME=ok or NAME=<errno>: calls that must keep working. */
static void control(const char *name, long rc)
{
	printf("%s=%s\n", name, rc == 0 ? "ok" : errname(errno));
}

/*
 * Ids other than the caller's own: outside, an unprivileged caller gets
 * EPERM; inside, the user namespace would say EINVAL (unmapped).  Blocked
 * means the call failed; the errno is the point.
 */
static void attack_ids(const char *dir)
{
	uid_t uid = getuid(), other_u = uid == 0 ? 1 : 0;
	gid_t gid = getgid(), other_g = gid == 0 ? 1 : 0;
	char file[PATH_MAX];
	int fd;

	path_in(file, sizeof(file), dir, "ids-file");
	fd = open(file, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0) {
		printf("ATTACK=ids RESULT=untested ERRNO=%s\n", errname(errno));
		any_open = true;
		return;
	}
	report_rc("chown-other-uid", chown(file, other_u, (gid_t)-1));
	report_rc("chown-other-gid", chown(file, (uid_t)-1, other_g));
	report_rc("lchown-other-uid", lchown(file, other_u, (gid_t)-1));
	report_rc("fchown-other-gid", fchown(fd, (uid_t)-1, other_g));
	report_rc("fchownat-other-uid", fchownat(AT_FDCWD, file, other_u, (gid_t)-1, 0));
	report_rc("setuid-other", syscall(SYS_setuid, other_u));
	report_rc("setgid-other", syscall(SYS_setgid, other_g));
	report_rc("setreuid-other", syscall(SYS_setreuid, -1, other_u));
	report_rc("setresuid-other", syscall(SYS_setresuid, -1, -1, other_u));
	report_rc("setresgid-other", syscall(SYS_setresgid, other_g, -1, -1));

	control("chown-own", chown(file, uid, gid));
	control("chown-unchanged", chown(file, (uid_t)-1, (gid_t)-1));
	control("fchown-own", fchown(fd, uid, (gid_t)-1));
	control("setresuid-unchanged", syscall(SYS_setresuid, -1, -1, -1));
	control("setuid-own", syscall(SYS_setuid, uid));
	control("setgid-own", syscall(SYS_setgid, gid));
	close(fd);
}

static int usage(void)
{
	fprintf(stderr, "usage: escape ATTACK...\n"
			"  tiocsti tiocsti-high tioclinux unshare-user clone-user clone-user-high\n"
			"  clone3-user setns mount-tmpfs umount-project remount-root pivot-root\n"
			"  chroot new-mount-api keyring bpf perf userfaultfd io-uring ptrace\n"
			"  process-vm pid1-exe sysfiles devices x32 int80 sockets fds\n"
			"  personality caps setuid tcp:PORT abstract:NAME env:SECRET\n"
			"  pid1-environ:SECRET dev-chmod proc-read proc-umount ssl-private\n"
			"  pid1-cmdline:NEEDLE[:NEEDLE...] pty-terminal stdin-reopen\n"
			"  stdout-fchmod stdio-inodes suid:DIR lease:FILE sock-packet ids:DIR\n");
	return EXIT_USAGE;
}

static bool run_one(const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	const char *val = colon ? colon + 1 : NULL;
	char cmd[32];

	if (len >= sizeof(cmd))
		return false;
	memcpy(cmd, arg, len);
	cmd[len] = '\0';

	if (!strcmp(cmd, "tiocsti"))
		attack_tiocsti("tiocsti", TIOCSTI);
	else if (!strcmp(cmd, "tiocsti-high"))
		attack_tiocsti("tiocsti-high", 0xffffffff00000000UL | TIOCSTI);
	else if (!strcmp(cmd, "pty-terminal"))
		attack_pty_terminal();
	else if (!strcmp(cmd, "stdin-reopen"))
		attack_stdin_reopen();
	else if (!strcmp(cmd, "stdout-fchmod"))
		attack_stdout_fchmod();
	else if (!strcmp(cmd, "stdio-inodes"))
		attack_stdio_inodes();
	else if (!strcmp(cmd, "tioclinux"))
		attack_tioclinux();
	else if (!strcmp(cmd, "unshare-user"))
		attack_unshare_user();
	else if (!strcmp(cmd, "clone-user"))
		attack_clone("clone-user", CLONE_NEWUSER);
	else if (!strcmp(cmd, "clone-user-high"))
		/* The kernel reads clone's flags as 32 bits: high garbage must not help. */
		attack_clone("clone-user-high", 0xffffffff00000000UL | CLONE_NEWUSER);
	else if (!strcmp(cmd, "clone3-user"))
		attack_clone3_user();
	else if (!strcmp(cmd, "setns")) {
		attack_setns("1");
		attack_setns("self");
	} else if (!strcmp(cmd, "mount-tmpfs"))
		attack_mount_tmpfs();
	else if (!strcmp(cmd, "umount-project"))
		attack_umount_cwd();
	else if (!strcmp(cmd, "remount-root"))
		attack_remount_root();
	else if (!strcmp(cmd, "pivot-root"))
		attack_pivot_root();
	else if (!strcmp(cmd, "chroot"))
		attack_chroot();
	else if (!strcmp(cmd, "new-mount-api"))
		attack_new_mount_api();
	else if (!strcmp(cmd, "keyring"))
		attack_keyring();
	else if (!strcmp(cmd, "bpf"))
		attack_bpf();
	else if (!strcmp(cmd, "perf"))
		attack_perf();
	else if (!strcmp(cmd, "userfaultfd"))
		attack_userfaultfd();
	else if (!strcmp(cmd, "io-uring"))
		attack_io_uring();
	else if (!strcmp(cmd, "ptrace"))
		attack_ptrace();
	else if (!strcmp(cmd, "process-vm"))
		attack_process_vm();
	else if (!strcmp(cmd, "pid1-exe"))
		attack_pid1_exe();
	else if (!strcmp(cmd, "sysfiles"))
		attack_sysfiles();
	else if (!strcmp(cmd, "devices"))
		attack_devices();
	else if (!strcmp(cmd, "dev-chmod"))
		attack_dev_chmod();
	else if (!strcmp(cmd, "proc-read"))
		attack_proc_read();
	else if (!strcmp(cmd, "proc-umount"))
		attack_proc_umount();
	else if (!strcmp(cmd, "ssl-private"))
		attack_ssl_private();
	else if (!strcmp(cmd, "pid1-cmdline") && val)
		attack_pid1_cmdline(val);
	else if (!strcmp(cmd, "x32"))
		in_child("x32", x32_getpid);
	else if (!strcmp(cmd, "int80"))
		in_child("int80", int80_getpid);
	else if (!strcmp(cmd, "sockets"))
		attack_sockets();
	else if (!strcmp(cmd, "fds"))
		attack_fds();
	else if (!strcmp(cmd, "personality"))
		attack_personality();
	else if (!strcmp(cmd, "caps"))
		attack_caps();
	else if (!strcmp(cmd, "setuid"))
		attack_setuid();
	else if (!strcmp(cmd, "suid") && val)
		attack_suid(val);
	else if (!strcmp(cmd, "lease") && val)
		attack_lease(val);
	else if (!strcmp(cmd, "sock-packet"))
		attack_sock_packet();
	else if (!strcmp(cmd, "ids") && val)
		attack_ids(val);
	else if (!strcmp(cmd, "tcp") && val)
		attack_tcp(val);
	else if (!strcmp(cmd, "abstract") && val)
		attack_abstract(val);
	else if (!strcmp(cmd, "env") && val)
		attack_env(val);
	else if (!strcmp(cmd, "pid1-environ") && val)
		attack_environ_file("pid1-environ", "/proc/1/environ", val);
	else
		return false;
	return true;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	for (int i = 1; i < argc; i++)
		if (!run_one(argv[i])) {
			fprintf(stderr, "escape: unknown attack '%s'\n", argv[i]);
			return usage();
		}
	return any_open ? EXIT_OPEN : EXIT_BLOCKED;
}
