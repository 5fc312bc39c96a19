// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net, caps and userns against the real kernel.  Every case forks a child
 * that enters its own user namespace (a Criterion worker has threads, and
 * unshare(CLONE_NEWUSER) refuses multithreaded callers), so the tests need
 * no host privileges and pass the same as root and as an ordinary user.
 *
 * A child reports one line through a pipe: "ok", "SKIP: why", or what went
 * wrong; the parent turns it into the assertion, so a failure says why.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "sandbox/caps.h"
#include "sandbox/idmap.h"
#include "sandbox/net.h"
#include "supervisor/userns.h"

/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

#define REPORT_MAX 8192

static int report_fd = -1;

static void report(const char *fmt, ...) _printf_(1, 2);
static void report(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && write(report_fd, buf, strnlen(buf, sizeof(buf))) < 0)
		_exit(3);
}

#define FAIL(...)                    \
	do {                         \
		report(__VA_ARGS__); \
		_exit(1);            \
	} while (0)

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		FAIL("open %s: %m", path);
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		FAIL("write '%s' to %s: %m", text, path);
	close(fd);
}

/*
 * Enter a new user namespace (plus extra namespaces) and map inner ids to
 * the ids we had outside, written by the test itself so that the code under
 * test is not used to set up its own test.
 */
static void enter_userns(int extra, uid_t inner_uid, gid_t inner_gid)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	char map[64];

	if (unshare(CLONE_NEWUSER | extra) < 0) {
		struct nsb_error e = {};
		nsb_userns_diagnose(errno, "/proc", &e);
		report("SKIP: %s", e.message);
		_exit(2);
	}
	write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "%u %u 1", inner_uid, uid);
	write_file("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "%u %u 1", inner_gid, gid);
	write_file("/proc/self/gid_map", map);
}

/* Run fn in a child; return everything it reported (NUL-terminated). */
static void run_child(void (*fn)(void), char *out, size_t size)
{
	int p[2];
	size_t len = 0;
	ssize_t n;
	int status;

	cr_assert(pipe2(p, O_CLOEXEC) == 0);
	pid_t pid = fork();
	cr_assert(pid >= 0, "fork: %m");
	if (pid == 0) {
		close(p[0]);
		report_fd = p[1];
		fn();
		_exit(0);
	}
	close(p[1]);
	while (len + 1 < size && (n = read(p[0], out + len, size - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(p[0]);
	cr_assert(waitpid(pid, &status, 0) == pid);
	if (strncmp(out, "SKIP: ", 6) == 0)
		cr_skip_test("%s", out + 6);
	bool exited = WIFEXITED(status);
	cr_assert(exited, "child died: status 0x%x, report: %s", status, out);
}

static void expect_ok(void (*fn)(void))
{
	char out[REPORT_MAX];

	run_child(fn, out, sizeof(out));
	cr_assert(eq(str, out, "ok"));
}

/* ---- net ---------------------------------------------------------------- */

static short lo_flags(void)
{
	struct ifreq ifr = {};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		FAIL("socket: %m");
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		FAIL("SIOCGIFFLAGS lo: %m");
	close(fd);
	return ifr.ifr_flags;
}

/* Send one datagram to ourselves over 127.0.0.1; 0 or -errno of sendto. */
static int udp_loopback_roundtrip(void)
{
	struct sockaddr_in addr = {.sin_family = AF_INET};
	socklen_t alen = sizeof(addr);
	struct timeval tv = {.tv_sec = 2};
	char buf[16] = {};

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (rx < 0 || tx < 0)
		FAIL("socket: %m");
	if (bind(rx, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		return -errno;
	if (getsockname(rx, (struct sockaddr *)&addr, &alen) < 0)
		FAIL("getsockname: %m");
	if (setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		FAIL("SO_RCVTIMEO: %m");
	if (sendto(tx, "nsbox", 5, 0, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		return -errno;
	if (recv(rx, buf, sizeof(buf), 0) != 5 || memcmp(buf, "nsbox", 5) != 0)
		FAIL("datagram over 127.0.0.1 not received: %m");
	close(rx);
	close(tx);
	return 0;
}

static void child_lo_up(void)
{
	struct nsb_error e = {};

	enter_userns(CLONE_NEWNET, getuid(), getgid());
	/* A fresh namespace's lo is down: the call below must change that. */
	if (lo_flags() & IFF_UP)
		FAIL("lo already up in a fresh network namespace");
	if (udp_loopback_roundtrip() == 0)
		FAIL("127.0.0.1 reachable before lo was brought up");

	int r = nsb_net_lo_up(&e);
	if (r != 0)
		FAIL("nsb_net_lo_up: %d [%s] %s", r, nsb_stage_name(e.stage), e.message);
	short f = lo_flags();
	if ((f & (IFF_UP | IFF_RUNNING)) != (IFF_UP | IFF_RUNNING))
		FAIL("lo flags 0x%x lack IFF_UP|IFF_RUNNING", (unsigned int)f);
	r = udp_loopback_roundtrip();
	if (r < 0)
		FAIL("UDP to 127.0.0.1 after lo up: %s", strerror(-r));
	/* Bringing up an up device is not an error (init may be re-run). */
	if (nsb_net_lo_up(&e) != 0)
		FAIL("second nsb_net_lo_up: %s", e.message);
	report("ok");
}

Test(net, lo_up_in_fresh_netns, .timeout = 10)
{
	expect_ok(child_lo_up);
}

/*
 * A user namespace without its own network namespace has no power over the
 * host's: the kernel refuses in its netlink acknowledgement, and that errno
 * is the one reported.  Same outcome for root and for an ordinary user.
 */
static void child_lo_up_refused(void)
{
	struct nsb_error e = {};

	enter_userns(0, getuid(), getgid());
	int r = nsb_net_lo_up(&e);
	report("%d|%s|%d|%s", r, nsb_stage_name(e.stage), e.err, e.message);
}

Test(net, lo_up_reports_kernel_errno, .timeout = 10)
{
	char out[REPORT_MAX];

	run_child(child_lo_up_refused, out, sizeof(out));
	cr_assert(eq(str, out, "-1|net|1|bring up loopback 'lo': Operation not permitted"));
}

/* ---- caps --------------------------------------------------------------- */

/* Value of "Field:\t..." in a /proc/PID/status text; -1 when absent. */
static long long status_field(const char *status, const char *field, int base)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), "\n%s:", field);
	p = strstr(status, key);
	if (!p)
		return -1;
	return strtoll(p + strlen(key), NULL, base);
}

static const char *const cap_fields[] = {"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"};

/* "" when every capability set is 0 and NoNewPrivs is 1, else what is not. */
static const char *check_locked_down(const char *status)
{
	static char why[256];

	for (size_t i = 0; i < sizeof(cap_fields) / sizeof(cap_fields[0]); i++) {
		long long v = status_field(status, cap_fields[i], 16);
		if (v != 0) {
			snprintf(why, sizeof(why), "%s is %llx", cap_fields[i], v);
			return why;
		}
	}
	if (status_field(status, "NoNewPrivs", 10) != 1)
		return "NoNewPrivs is not 1";
	return "";
}

static void read_self_status(char *buf, size_t size)
{
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	/* Leading newline so every field, the first one too, follows "\n". */
	buf[0] = '\n';
	if (fd < 0 || (n = read(fd, buf + 1, size - 2)) <= 0)
		FAIL("read /proc/self/status: %m");
	buf[n + 1] = '\0';
	close(fd);
}

static void child_drop_all(void)
{
	struct nsb_error e = {};
	char status[REPORT_MAX];
	int r;

	enter_userns(0, 0, 0);
	if (getuid() != 0 || getgid() != 0)
		FAIL("not uid/gid 0 inside");
	read_self_status(status, sizeof(status));
	/* Full capabilities first, or emptiness afterwards would prove nothing. */
	if (status_field(status, "CapEff", 16) <= 0 || status_field(status, "CapBnd", 16) <= 0)
		FAIL("no capabilities to drop in a fresh user namespace");
	/*
	 * Put something in the inheritable and ambient sets, which must be
	 * emptied too (ambient needs the bit in inheritable first).
	 */
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2] = {};
	if (syscall(SYS_capget, &hdr, data) < 0)
		FAIL("capget: %m");
	data[CAP_NET_ADMIN / 32].inheritable |= 1u << (CAP_NET_ADMIN % 32);
	if (syscall(SYS_capset, &hdr, data) < 0)
		FAIL("capset: %m");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_ADMIN, 0, 0) < 0)
		FAIL("raise ambient: %m");
	read_self_status(status, sizeof(status));
	if (status_field(status, "CapAmb", 16) <= 0 || status_field(status, "CapInh", 16) <= 0)
		FAIL("ambient/inheritable not raised");

	r = nsb_caps_drop_all(&e);
	if (r != 0)
		FAIL("nsb_caps_drop_all: %d [%s] %s", r, nsb_stage_name(e.stage), e.message);
	r = nsb_no_new_privs(&e);
	if (r != 0)
		FAIL("nsb_no_new_privs: %d [%s] %s", r, nsb_stage_name(e.stage), e.message);

	read_self_status(status, sizeof(status));
	const char *why = check_locked_down(status);
	if (*why)
		FAIL("before execve: %s", why);

	/* Locked securebits: set, and impossible to clear. */
	int bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	int want = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
		   SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED;
	if (bits < 0 || (bits & want) != want)
		FAIL("securebits 0x%x lack 0x%x", bits, want);
	if (prctl(PR_SET_SECUREBITS, 0, 0, 0, 0) == 0 || errno != EPERM)
		FAIL("securebits could be cleared again");

	/* The payload's view: cat, running as uid 0, prints its own status. */
	if (dup2(report_fd, STDOUT_FILENO) < 0)
		FAIL("dup2: %m");
	char *argv[] = {"/bin/cat", "/proc/self/status", NULL};
	char *envp[] = {NULL};
	execve(argv[0], argv, envp);
	FAIL("execve %s: %m", argv[0]);
}

Test(caps, drop_all_survives_execve_as_root, .timeout = 10)
{
	char out[REPORT_MAX + 1];

	out[0] = '\n';
	run_child(child_drop_all, out + 1, sizeof(out) - 1);
	cr_assert(strstr(out, "\nName:\tcat\n") != NULL, "child failed: %s", out + 1);
	const char *why = check_locked_down(out);
	cr_expect(why[0] == '\0', "after execve: %s", why);
	cr_expect(eq(i64, status_field(out, "Uid", 10), 0), "payload ran as uid 0");
	cr_expect(eq(i64, status_field(out, "Gid", 10), 0), "payload ran as gid 0");
}

/*
 * Without CAP_SETPCAP nothing can be locked: the error says which step
 * failed instead of dropping what it can and claiming success.
 */
static void child_drop_without_setpcap(void)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2] = {};
	struct nsb_error e = {};

	enter_userns(0, 0, 0);
	if (syscall(SYS_capget, &hdr, data) < 0)
		FAIL("capget: %m");
	data[CAP_SETPCAP / 32].effective &= ~(1u << (CAP_SETPCAP % 32));
	if (syscall(SYS_capset, &hdr, data) < 0)
		FAIL("capset: %m");
	int r = nsb_caps_drop_all(&e);
	report("%d|%s|%.15s|%s", r, nsb_stage_name(e.stage), e.message, e.hint);
}

Test(caps, drop_all_without_setpcap_names_the_step, .timeout = 10)
{
	char out[REPORT_MAX];

	run_child(child_drop_without_setpcap, out, sizeof(out));
	cr_assert(eq(str, out,
		     "-1|caps|lock securebits|this needs CAP_SETPCAP in the sandbox's user "
		     "namespace"));
}

/* ---- userns ------------------------------------------------------------- */

/* First line of a /proc file, without its newline. */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	cr_assert_not_null(f, "open %s: %m", path);
	cr_assert_not_null(fgets(buf, (int)size, f), "read %s", path);
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static void expect_identity_map(pid_t pid, const char *file, unsigned int id)
{
	char path[64], line[128];
	unsigned int inside, outside, count;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	read_line(path, line, sizeof(line));
	cr_assert(eq(int, sscanf(line, "%u %u %u", &inside, &outside, &count), 3), "%s", line);
	cr_expect(eq(u32, inside, id), "%s: %s", file, line);
	cr_expect(eq(u32, outside, id), "%s: %s", file, line);
	cr_expect(eq(u32, count, 1), "%s: %s", file, line);
}

/*
 * The supervisor's way: the child unshares and waits; the parent writes the
 * maps and reads them back; then the child checks who it is.
 */
Test(userns, write_maps_from_parent, .timeout = 10)
{
	int ready[2], go[2], rep[2];
	uid_t uid = getuid();
	gid_t gid = getgid();
	char out[REPORT_MAX] = {}, c;
	struct nsb_error e = {};
	int status;

	cr_assert(pipe2(ready, O_CLOEXEC) == 0 && pipe2(go, O_CLOEXEC) == 0 &&
		  pipe2(rep, O_CLOEXEC) == 0);
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		report_fd = rep[1];
		if (unshare(CLONE_NEWUSER) < 0)
			_exit(2); /* parent sees EOF on ready */
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(3);
		if (getuid() != uid || getgid() != gid)
			FAIL("inside: uid %u gid %u, expected %u %u", getuid(), getgid(), uid, gid);
		report("ok");
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	close(rep[1]);
	if (read(ready[0], &c, 1) != 1) {
		waitpid(pid, &status, 0);
		cr_skip_test("unshare(CLONE_NEWUSER) is not available here");
	}

	int r = nsb_userns_write_maps(pid, uid, gid, &e);
	cr_assert(eq(int, r, 0), "[%s] %s", nsb_stage_name(e.stage), e.message);
	expect_identity_map(pid, "uid_map", uid);
	expect_identity_map(pid, "gid_map", gid);
	char path[64], line[64];
	snprintf(path, sizeof(path), "/proc/%d/setgroups", (int)pid);
	read_line(path, line, sizeof(line));
	cr_expect(eq(str, line, "deny"));

	/* A map is written once; a second attempt fails and names the file. */
	r = nsb_userns_write_maps(pid, uid, gid, &e);
	cr_expect(eq(int, r, -EPERM));
	cr_expect(eq(str, nsb_stage_name(e.stage), "userns"));
	char want[128];
	snprintf(want, sizeof(want),
		 "write 'deny' to '/proc/%d/setgroups': Operation not permitted", (int)pid);
	cr_expect(eq(str, e.message, want));

	cr_assert(write(go[1], "g", 1) == 1);
	close(go[1]);
	ssize_t n = read(rep[0], out, sizeof(out) - 1);
	cr_assert(waitpid(pid, &status, 0) == pid);
	cr_assert(n > 0, "no report from child (status 0x%x)", status);
	cr_expect(eq(str, out, "ok"));
}

/* pid 0: a process that unshared maps itself (its own ids only). */
static void child_map_self(void)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	struct nsb_error e = {};
	char line[128];
	unsigned int in, out, count;

	if (unshare(CLONE_NEWUSER) < 0) {
		report("SKIP: unshare(CLONE_NEWUSER): %m");
		_exit(2);
	}
	int r = nsb_userns_write_maps(0, uid, gid, &e);
	if (r != 0)
		FAIL("nsb_userns_write_maps(0): %d %s", r, e.message);
	if (getuid() != uid || getgid() != gid)
		FAIL("inside: uid %u gid %u", getuid(), getgid());
	FILE *f = fopen("/proc/self/uid_map", "re");
	if (!f || !fgets(line, sizeof(line), f) ||
	    sscanf(line, "%u %u %u", &in, &out, &count) != 3 || in != uid || out != uid ||
	    count != 1)
		FAIL("uid_map reads back as '%s'", line);
	fclose(f);
	report("ok");
}

Test(userns, write_maps_self, .timeout = 10)
{
	expect_ok(child_map_self);
}

Test(userns, write_maps_names_missing_process, .timeout = 10)
{
	struct nsb_error e = {};
	char want[128];
	int status;

	/* A pid that existed and has been reaped. */
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0)
		_exit(0);
	cr_assert(waitpid(pid, &status, 0) == pid);

	cr_assert(eq(int, nsb_userns_write_maps(pid, getuid(), getgid(), &e), -ENOENT));
	snprintf(want, sizeof(want), "open '/proc/%d/setgroups': No such file or directory",
		 (int)pid);
	cr_expect(eq(str, e.message, want));
	cr_expect(eq(int, nsb_userns_write_maps(-1, 0, 0, &e), -EINVAL));
}
