// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe: runs inside the sandbox and reports what the kernel says, as
 * "key=value" lines on stdout.  The integration tests compare these facts with
 * what the launcher promised; they never take the launcher's word for them.
 *
 * Exit codes: 0 the probe did its job (and the tried operation succeeded),
 * 1 the tried operation failed (the errno name is printed), 2 usage error,
 * 3 the probe itself could not work (cannot read /proc, ...).
 *
 * Linked statically: inside the sandbox only the read-only system view exists,
 * and the probe must not depend on what it is probing.
 */
#include <arpa/inet.h>
#include <linux/nsfs.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "refuse.h"

#define EXIT_FAILED 1
#define EXIT_USAGE  2
#define EXIT_BROKEN 3

extern char **environ;

/* Symbolic errno names for the values the tests look for; numbers otherwise. */
static const char *errname(int e)
{
	static char buf[16];

	switch (e) {
	case EPERM:
		return "EPERM";
	case ENOENT:
		return "ENOENT";
	case EIO:
		return "EIO";
	case ENXIO:
		return "ENXIO";
	case EBADF:
		return "EBADF";
	case EACCES:
		return "EACCES";
	case EEXIST:
		return "EEXIST";
	case ENOTDIR:
		return "ENOTDIR";
	case EISDIR:
		return "EISDIR";
	case EINVAL:
		return "EINVAL";
	case ENOSPC:
		return "ENOSPC";
	case EROFS:
		return "EROFS";
	case ENETUNREACH:
		return "ENETUNREACH";
	case ECONNREFUSED:
		return "ECONNREFUSED";
	case ETIMEDOUT:
		return "ETIMEDOUT";
	case EADDRNOTAVAIL:
		return "EADDRNOTAVAIL";
	case ESRCH:
		return "ESRCH";
	case ENODEV:
		return "ENODEV";
	case EAGAIN:
		return "EAGAIN";
	case ENOMEM:
		return "ENOMEM";
	case EAFNOSUPPORT:
		return "EAFNOSUPPORT";
	default:
		snprintf(buf, sizeof(buf), "E%d", e);
		return buf;
	}
}

/* Print a key and a value with every tab and newline folded to one space. */
static void print_kv(const char *prefix, const char *key, const char *val)
{
	printf("%s%s=", prefix, key);
	bool space = false, any = false;
	for (const char *p = val; *p; p++) {
		if (*p == '\t' || *p == ' ' || *p == '\n') {
			space = true;
			continue;
		}
		if (space && any)
			putchar(' ');
		any = true;
		space = false;
		putchar(*p);
	}
	putchar('\n');
}

/* Print selected "Key:\tvalue" lines of a /proc status file as prefix.Key=value. */
static int print_status(const char *path, const char *prefix)
{
	static const char *const keys[] = {
		"Name",	  "Pid",	"PPid",	   "Uid",     "Gid",
		"Groups", "CapInh",	"CapPrm",  "CapEff",  "CapBnd",
		"CapAmb", "NoNewPrivs", "Seccomp", "Threads", "Cpus_allowed_list"};
	char line[512];
	FILE *f = fopen(path, "re");

	if (!f) {
		printf("%serror=%s\n", prefix, errname(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strcmp(line, keys[i]) == 0)
				print_kv(prefix, line, colon + 1);
	}
	fclose(f);
	return 0;
}

static int cmd_status(void)
{
	printf("uid=%u\ngid=%u\neuid=%u\negid=%u\npid=%d\nppid=%d\n", getuid(), getgid(), geteuid(),
	       getegid(), getpid(), getppid());
	if (print_status("/proc/self/status", "self.") < 0)
		return EXIT_BROKEN;
	/* pid 1 is the launcher's init: it must be as powerless as the payload. */
	if (print_status("/proc/1/status", "pid1.") < 0)
		return EXIT_BROKEN;
	return 0;
}

/* Print a small file's whole content, whitespace folded, as key=value. */
static int print_file(const char *key, const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		printf("%s.error=%s\n", key, errname(errno));
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0) {
		printf("%s.error=%s\n", key, errname(errno));
		return -1;
	}
	buf[n] = '\0';
	print_kv("", key, buf);
	return 0;
}

static int cmd_maps(void)
{
	int r = 0;

	r |= print_file("uid_map", "/proc/self/uid_map");
	r |= print_file("gid_map", "/proc/self/gid_map");
	r |= print_file("setgroups", "/proc/self/setgroups");
	return r < 0 ? EXIT_BROKEN : 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int cmd_pids(void)
{
	int pids[4096];
	size_t n = 0;
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d)
		return EXIT_BROKEN;
	while ((de = readdir(d)) && n < sizeof(pids) / sizeof(pids[0])) {
		char *end;
		long v = strtol(de->d_name, &end, 10);
		if (*end == '\0' && v > 0)
			pids[n++] = (int)v;
	}
	closedir(d);
	qsort(pids, n, sizeof(pids[0]), cmp_int);
	printf("count=%zu\npids=", n);
	for (size_t i = 0; i < n; i++)
		printf("%s%d", i ? " " : "", pids[i]);
	putchar('\n');
	for (size_t i = 0; i < n; i++) {
		char path[64], key[64];
		snprintf(path, sizeof(path), "/proc/%d/comm", pids[i]);
		snprintf(key, sizeof(key), "comm.%d", pids[i]);
		print_file(key, path);
	}
	return 0;
}

static int cmd_hostname(void)
{
	struct utsname u;

	if (uname(&u) < 0)
		return EXIT_BROKEN;
	printf("hostname=%s\n", u.nodename);
	return 0;
}

/* Interfaces of this network namespace (/proc/net/dev follows the reader's
 * namespace) with their IFF_UP state from SIOCGIFFLAGS. */
/* Whether this network namespace belongs to our own user namespace (a
 * namespace made by the sandbox) or to another (the host's). */
static void print_netns_owner(void)
{
	struct stat own, owner;
	int ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	int uns = ns >= 0 ? ioctl(ns, NS_GET_USERNS) : -1;

	if (uns < 0 || fstat(uns, &owner) < 0 || stat("/proc/self/ns/user", &own) < 0)
		printf("netns.owner=%s\n", errname(errno));
	else
		printf("netns.owner=%s\n", owner.st_ino == own.st_ino ? "own" : "other");
	if (uns >= 0)
		close(uns);
	if (ns >= 0)
		close(ns);
}

static int cmd_ifaces(void)
{
	print_netns_owner();
	char line[512], names[4096] = "";
	FILE *f = fopen("/proc/net/dev", "re");
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	size_t count = 0;

	if (!f || sock < 0)
		return EXIT_BROKEN;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *name = line;
		struct ifreq ifr;
		if (!colon)
			continue; /* the two header lines */
		*colon = '\0';
		while (*name == ' ')
			name++;
		if (strlen(name) >= sizeof(ifr.ifr_name))
			continue;
		memset(&ifr, 0, sizeof(ifr));
		memcpy(ifr.ifr_name, name, strlen(name));
		if (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0)
			printf("iface.%s=%s\n", name, errname(errno));
		else
			printf("iface.%s=%s\n", name, (ifr.ifr_flags & IFF_UP) ? "up" : "down");
		if (strlen(names) + strlen(name) + 2 < sizeof(names)) {
			if (count)
				strcat(names, " ");
			strcat(names, name);
		}
		count++;
	}
	fclose(f);
	close(sock);
	printf("count=%zu\nifaces=%s\n", count, names);
	return 0;
}

static int cmd_write(const char *path, const char *data)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t len = strlen(data);

	if (fd < 0) {
		printf("write=%s\n", errname(errno));
		return EXIT_FAILED;
	}
	if (write(fd, data, len) != (ssize_t)len || close(fd) < 0) {
		printf("write=%s\n", errname(errno));
		return EXIT_FAILED;
	}
	printf("write=ok\n");
	return 0;
}

static int cmd_read(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		printf("read=%s\n", errname(errno));
		return EXIT_FAILED;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0) {
		printf("read=%s\n", errname(errno));
		return EXIT_FAILED;
	}
	buf[n] = '\0';
	printf("read=ok\nbytes=%zd\n", n);
	print_kv("", "data", buf);
	return 0;
}

static int cmd_stat(const char *path)
{
	struct stat st;
	const char *type;

	if (lstat(path, &st) < 0) {
		printf("stat=%s\n", errname(errno));
		return EXIT_FAILED;
	}
	if (S_ISDIR(st.st_mode))
		type = "dir";
	else if (S_ISREG(st.st_mode))
		type = "file";
	else if (S_ISLNK(st.st_mode))
		type = "symlink";
	else if (S_ISCHR(st.st_mode))
		type = "chr";
	else
		type = "other";
	printf("stat=ok\ntype=%s\nmode=%04o\nuid=%u\ngid=%u\n", type, st.st_mode & 07777, st.st_uid,
	       st.st_gid);
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		if (n >= 0) {
			target[n] = '\0';
			printf("target=%s\n", target);
		}
	}
	return 0;
}

static int cmd_statfs(const char *path)
{
	struct statfs sf;
	struct statvfs sv;

	if (statfs(path, &sf) < 0 || statvfs(path, &sv) < 0) {
		printf("statfs=%s\n", errname(errno));
		return EXIT_FAILED;
	}
	printf("statfs=ok\nf_type=0x%lx\nsize=%llu\nro=%d\nnosuid=%d\nnodev=%d\nnoexec=%d\n",
	       (unsigned long)sf.f_type, (unsigned long long)sf.f_bsize * sf.f_blocks,
	       !!(sv.f_flag & ST_RDONLY), !!(sv.f_flag & ST_NOSUID), !!(sv.f_flag & ST_NODEV),
	       !!(sv.f_flag & ST_NOEXEC));
	return 0;
}

static int cmd_fds(void)
{
	char list[4096] = "";
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	size_t count = 0;

	if (!d)
		return EXIT_BROKEN;
	while ((de = readdir(d))) {
		char path[300], target[PATH_MAX];
		ssize_t n;
		if (de->d_name[0] == '.' || atoi(de->d_name) == dirfd(d))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		target[n < 0 ? 0 : n] = '\0';
		printf("fd.%s=%s\n", de->d_name, target);
		if (strlen(list) + strlen(de->d_name) + 2 < sizeof(list)) {
			if (count)
				strcat(list, " ");
			strcat(list, de->d_name);
		}
		count++;
	}
	closedir(d);
	printf("count=%zu\nfds=%s\n", count, list);
	return 0;
}

static int cmd_env(void)
{
	for (char **e = environ; *e; e++)
		printf("%s\n", *e);
	return 0;
}

static int cmd_kill(const char *arg)
{
	int sig = atoi(arg);
	sigset_t set;

	if (sig <= 0 || sig >= NSIG)
		return EXIT_USAGE;
	/* Make sure the signal is deliverable and fatal, whatever we inherited. */
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	fflush(stdout);
	kill(getpid(), sig);
	printf("kill=survived\n");
	return EXIT_BROKEN;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Rewrite FILE with an increasing counter every 50 ms, forever. */
_Noreturn static void heartbeat(const char *file, int ready_fd)
{
	for (unsigned long n = 1;; n++) {
		char buf[32];
		int len = snprintf(buf, sizeof(buf), "%lu\n", n);
		int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0) {
			if (write(fd, buf, len) < 0) {
				/* keep beating: a full disk must not end the test early */
			}
			close(fd);
		}
		if (ready_fd >= 0) {
			/* Tell the parent the first beat is on disk. */
			if (write(ready_fd, "x", 1) < 0) {
			}
			close(ready_fd);
			ready_fd = -1;
		}
		sleep_ms(50);
	}
}

/*
 * Leave a daemon behind: a grandchild in its own session, stdio on /dev/null,
 * ignoring SIGHUP and SIGTERM, that beats FILE until something kills it.
 * Only the PID namespace's teardown (or SIGKILL) can stop it.  The caller
 * then sleeps SECS (default 0) and exits 0.
 */
static int cmd_spawn_bg(const char *file, const char *secs)
{
	int p[2], status;
	pid_t child;
	char c;

	if (pipe2(p, O_CLOEXEC) < 0)
		return EXIT_BROKEN;
	fflush(stdout);
	child = fork();
	if (child < 0)
		return EXIT_BROKEN;
	if (child == 0) {
		close(p[0]);
		if (setsid() < 0 || fork() != 0)
			_exit(0);
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		signal(SIGHUP, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGINT, SIG_IGN);
		heartbeat(file, p[1]);
	}
	close(p[1]);
	waitpid(child, &status, 0);
	if (read(p[0], &c, 1) != 1) {
		printf("spawn=failed\n");
		return EXIT_FAILED;
	}
	close(p[0]);
	printf("spawn=ok\n");
	fflush(stdout);
	if (secs)
		sleep_ms(atol(secs) * 1000);
	return 0;
}

static int cmd_sid(void)
{
	int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
	int tty_errno = fd < 0 ? errno : 0;

	printf("pid=%d\nsid=%d\npgrp=%d\nsession_leader=%d\n", getpid(), getsid(0), getpgrp(),
	       getsid(0) == getpid());
	printf("tty=%s\n", fd < 0 ? errname(tty_errno) : "open");
	if (fd >= 0)
		close(fd);
	return 0;
}

/* The mountinfo entry for exactly PATH (the last one: the visible mount). */
static int cmd_mountopts(const char *path)
{
	char line[4096], found[4096] = "";
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return EXIT_BROKEN;
	while (fgets(line, sizeof(line), f)) {
		char copy[4096], *save, *tok;
		int i = 0;
		snprintf(copy, sizeof(copy), "%s", line);
		for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save), i++)
			if (i == 4) {
				if (strcmp(tok, path) == 0)
					snprintf(found, sizeof(found), "%s", line);
				break;
			}
	}
	fclose(f);
	if (!found[0]) {
		printf("mount=none\n");
		return EXIT_FAILED;
	}
	/* fields: id parent maj:min root mountpoint options [optional...] - fstype source super */
	char *save, *tok = strtok_r(found, " \n", &save);
	for (int i = 0; tok; tok = strtok_r(NULL, " \n", &save), i++) {
		if (i == 5)
			printf("mount=ok\nopts=%s\n", tok);
		if (strcmp(tok, "-") == 0) {
			char *fstype = strtok_r(NULL, " \n", &save);
			char *source = fstype ? strtok_r(NULL, " \n", &save) : NULL;
			char *super = source ? strtok_r(NULL, " \n", &save) : NULL;
			printf("fstype=%s\nsource=%s\nsuper=%s\n", fstype ? fstype : "",
			       source ? source : "", super ? super : "");
			break;
		}
	}
	return 0;
}

static int cmd_cat(const char *path)
{
	char buf[8192];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		printf("cat=%s\n", errname(errno));
		return EXIT_FAILED;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	close(fd);
	return 0;
}

static int cmd_ls(const char *path)
{
	char *names[512];
	size_t n = 0;
	struct dirent *de;
	DIR *d = opendir(path);

	if (!d) {
		printf("ls=%s\n", errname(errno));
		return EXIT_FAILED;
	}
	while ((de = readdir(d)) && n < 512)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			names[n++] = strdup(de->d_name);
	closedir(d);
	/* Insertion sort: a few hundred names at most. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	printf("ls=ok\nentries=");
	for (size_t i = 0; i < n; i++) {
		printf("%s%s", i ? " " : "", names[i]);
		free(names[i]);
	}
	putchar('\n');
	return 0;
}

/*
 * Things only a capability would allow; each must fail inside.  Every attempt
 * is harmless if it succeeds (run as root on the host by mistake): it changes
 * nothing but this process, or rewrites a value with itself.
 */
static int cmd_priv(void)
{
	struct utsname u;
	int fd;

	if (uname(&u) < 0)
		return EXIT_BROKEN;
	/* CAP_SYS_ADMIN over the UTS namespace; same name, so a no-op. */
	printf("sethostname=%s\n",
	       sethostname(u.nodename, strlen(u.nodename)) < 0 ? errname(errno) : "ok");
	/* CAP_SYS_ADMIN: a private mount namespace affects only this process. */
	printf("unshare_mnt=%s\n", unshare(CLONE_NEWNS) < 0 ? errname(errno) : "ok");
	/* CAP_SYS_CHROOT: chroot to where we are. */
	printf("chroot=%s\n", chroot(".") < 0 ? errname(errno) : "ok");
	/* CAP_NET_RAW */
	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
	printf("raw_socket=%s\n", fd < 0 ? errname(errno) : "ok");
	if (fd >= 0)
		close(fd);
	return 0;
}

static int cmd_connect(const char *ip, const char *port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(atoi(port))};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || inet_pton(AF_INET, ip, &sa.sin_addr) != 1)
		return EXIT_USAGE;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		printf("connect=%s\n", errname(errno));
		close(fd);
		return EXIT_FAILED;
	}
	printf("connect=ok\n");
	close(fd);
	return 0;
}

/* Can a socket of FAMILY (inet, inet6, unix, netlink, packet) be made? */
static int cmd_socket(const char *family)
{
	static const struct {
		const char *name;
		int af;
	} fams[] = {{"inet", AF_INET},
		    {"inet6", AF_INET6},
		    {"unix", AF_UNIX},
		    {"netlink", AF_NETLINK},
		    {"packet", AF_PACKET}};

	for (size_t i = 0; i < sizeof(fams) / sizeof(fams[0]); i++) {
		if (strcmp(family, fams[i].name) != 0)
			continue;
		int fd =
			socket(fams[i].af,
			       (fams[i].af == AF_PACKET ? SOCK_RAW : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
		printf("socket=%s\n", fd < 0 ? errname(errno) : "ok");
		if (fd >= 0)
			close(fd);
		return fd < 0 ? EXIT_FAILED : 0;
	}
	return EXIT_USAGE;
}

/* Signal 0 to a process outside: may we reach it at all? */
static int cmd_signal(const char *pid)
{
	int r = kill((pid_t)atol(pid), 0);

	printf("signal=%s\n", r < 0 ? errname(errno) : "ok");
	return r < 0 ? EXIT_FAILED : 0;
}

static int cmd_cwd(void)
{
	char buf[PATH_MAX];

	if (!getcwd(buf, sizeof(buf))) {
		printf("cwd=%s\n", errname(errno));
		return EXIT_FAILED;
	}
	printf("cwd=%s\n", buf);
	return 0;
}

/*
 * A bounded fork bomb: fork up to max children that only wait to be killed,
 * stop at the first refusal, report how many the kernel allowed, then kill
 * and reap them all.  Exit 0 when all max were allowed, 1 otherwise.
 */
static int cmd_fork(const char *arg)
{
	long max = atol(arg), n = 0;
	pid_t *kids = calloc(max > 0 ? (size_t)max : 1, sizeof(*kids));
	int err = 0;

	if (max <= 0 || !kids)
		return EXIT_USAGE;
	for (; n < max; n++) {
		pid_t p = fork();
		if (p < 0) {
			err = errno;
			break;
		}
		if (p == 0) {
			pause();
			_exit(0);
		}
		kids[n] = p;
	}
	printf("forked=%ld\nfork_error=%s\n", n, err ? errname(err) : "none");
	for (long i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	for (long i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
	free(kids);
	return n == max ? 0 : EXIT_FAILED;
}

/*
 * What a process may change on a device node's inode (all but fchmod by
 * path, fchmod through an fd opened for reading).  Every attempt rewrites a
 * value with itself, so nothing changes even where it succeeds: the mode
 * as it is, no owner change, and times set to now.
 */
static int cmd_devattrs(const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0) {
		printf("stat=%s\n", errname(errno));
		return EXIT_FAILED;
	}
	printf("chmod=%s\n", chmod(path, st.st_mode & 07777) < 0 ? errname(errno) : "ok");
	printf("chown=%s\n", chown(path, (uid_t)-1, (gid_t)-1) < 0 ? errname(errno) : "ok");
	printf("utimensat=%s\n", utimensat(AT_FDCWD, path, NULL, 0) < 0 ? errname(errno) : "ok");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		printf("fchmod=open-%s\n", errname(errno));
		return 0;
	}
	printf("fchmod=%s\n", fchmod(fd, st.st_mode & 07777) < 0 ? errname(errno) : "ok");
	printf("fchown=%s\n", fchown(fd, (uid_t)-1, (gid_t)-1) < 0 ? errname(errno) : "ok");
	close(fd);
	return 0;
}

/*
 * For each path: absent, or what reading it gives (bytes of a file, entries
 * of a directory), whether it opens for writing, and whether its mount can
 * be taken away.  Keys are "<path>.<fact>".
 */
static void masked_one(const char *path)
{
	char buf[8192];
	struct stat st;
	long long total = 0;
	ssize_t n;
	int fd;

	if (lstat(path, &st) < 0) {
		printf("%s.state=%s\n", path, errname(errno));
		return;
	}
	printf("%s.state=%s\n", path, S_ISDIR(st.st_mode) ? "dir" : "file");
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *de;
		long entries = 0;
		char child[PATH_MAX];

		if (!d) {
			printf("%s.read=%s\n", path, errname(errno));
		} else {
			while ((de = readdir(d)))
				entries += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
			closedir(d);
			printf("%s.read=ok\n%s.entries=%ld\n", path, path, entries);
		}
		snprintf(child, sizeof(child), "%s/probe-new", path);
		fd = open(child, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0) {
			printf("%s.read=%s\n", path, errname(errno));
		} else {
			while ((n = read(fd, buf, sizeof(buf))) > 0 && total < (1 << 20))
				total += n;
			printf("%s.read=%s\n%s.bytes=%lld\n", path, n < 0 ? errname(errno) : "ok",
			       path, total);
			close(fd);
		}
		/* Opened for writing only, never written. */
		fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
	}
	printf("%s.write=%s\n", path, fd < 0 ? errname(errno) : "ok");
	if (fd >= 0)
		close(fd);
	printf("%s.umount=%s\n", path, umount2(path, MNT_DETACH) < 0 ? errname(errno) : "ok");
}

static int cmd_masked(char **paths, int n)
{
	for (int i = 0; i < n; i++)
		masked_one(paths[i]);
	return 0;
}

/*
 * The same, from a nested user and mount namespace of our own, where we
 * hold every capability over a copy of the mounts: what the sandbox set up
 * there is locked to what lies beneath and must still not come off.
 */
static int cmd_masked_userns(char **paths, int n)
{
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0) {
		printf("unshare=%s\n", errname(errno));
		return EXIT_FAILED;
	}
	printf("unshare=ok\n");
	for (int i = 0; i < n; i++)
		printf("%s.umount=%s\n", paths[i],
		       umount2(paths[i], MNT_DETACH) < 0 ? errname(errno) : "ok");
	return 0;
}

/* /proc/PID/cmdline as argc=N and arg.I=... lines. */
static int cmd_cmdline(const char *pid)
{
	char path[64], buf[65536];
	size_t len = 0;
	ssize_t n;
	int fd, argc = 0;

	snprintf(path, sizeof(path), "/proc/%s/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("cmdline=%s\n", errname(errno));
		return EXIT_FAILED;
	}
	while (len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	printf("cmdline=ok\nbytes=%zu\n", len);
	for (size_t off = 0; off < len; off += strlen(buf + off) + 1)
		printf("arg.%d=%s\n", argc++, buf + off);
	printf("argc=%d\n", argc);
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: probe status|maps|pids|hostname|ifaces|fds|env|sid|priv|cwd|mounts\n"
		"       probe write PATH [DATA] | read PATH | stat PATH | statfs PATH | ls DIR\n"
		"       probe mountopts PATH | cat PATH | connect IP PORT | exit N | kill SIG\n"
		"       probe sleep SECS | spawn-bg FILE [SECS] | heartbeat FILE | fork N\n"
		"       probe devattrs PATH | masked PATH... | masked-userns PATH... | cmdline PID\n"
		"       probe refuse N | refuse-threads T N | refuse-procs P N | refuse-exit T | refuse-futex N\n"
		"       probe personality HEX\n"
		"       probe socket inet|inet6|unix|netlink|packet | signal PID\n");
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	const char *a1 = argc > 2 ? argv[2] : NULL;
	const char *a2 = argc > 3 ? argv[3] : NULL;
	int r = 0;

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (!strncmp(cmd, "refuse", 6) || !strcmp(cmd, "personality"))
		return nsb_probe_refuse(argc - 1, argv + 1);
	if (!strcmp(cmd, "status"))
		r = cmd_status();
	else if (!strcmp(cmd, "maps"))
		r = cmd_maps();
	else if (!strcmp(cmd, "pids"))
		r = cmd_pids();
	else if (!strcmp(cmd, "hostname"))
		r = cmd_hostname();
	else if (!strcmp(cmd, "ifaces"))
		r = cmd_ifaces();
	else if (!strcmp(cmd, "fds"))
		r = cmd_fds();
	else if (!strcmp(cmd, "env"))
		r = cmd_env();
	else if (!strcmp(cmd, "sid"))
		r = cmd_sid();
	else if (!strcmp(cmd, "priv"))
		r = cmd_priv();
	else if (!strcmp(cmd, "cwd"))
		r = cmd_cwd();
	else if (!strcmp(cmd, "mounts"))
		r = cmd_cat("/proc/self/mountinfo");
	else if (!strcmp(cmd, "write") && a1)
		r = cmd_write(a1, a2 ? a2 : "probe\n");
	else if (!strcmp(cmd, "read") && a1)
		r = cmd_read(a1);
	else if (!strcmp(cmd, "stat") && a1)
		r = cmd_stat(a1);
	else if (!strcmp(cmd, "statfs") && a1)
		r = cmd_statfs(a1);
	else if (!strcmp(cmd, "ls") && a1)
		r = cmd_ls(a1);
	else if (!strcmp(cmd, "mountopts") && a1)
		r = cmd_mountopts(a1);
	else if (!strcmp(cmd, "cat") && a1)
		r = cmd_cat(a1);
	else if (!strcmp(cmd, "connect") && a1 && a2)
		r = cmd_connect(a1, a2);
	else if (!strcmp(cmd, "exit") && a1)
		r = atoi(a1);
	else if (!strcmp(cmd, "kill") && a1)
		r = cmd_kill(a1);
	else if (!strcmp(cmd, "sleep") && a1)
		sleep_ms(atol(a1) * 1000);
	else if (!strcmp(cmd, "spawn-bg") && a1)
		r = cmd_spawn_bg(a1, a2);
	else if (!strcmp(cmd, "fork") && a1)
		r = cmd_fork(a1);
	else if (!strcmp(cmd, "heartbeat") && a1)
		heartbeat(a1, -1);
	else if (!strcmp(cmd, "devattrs") && a1)
		r = cmd_devattrs(a1);
	else if (!strcmp(cmd, "masked") && a1)
		r = cmd_masked(argv + 2, argc - 2);
	else if (!strcmp(cmd, "masked-userns") && a1)
		r = cmd_masked_userns(argv + 2, argc - 2);
	else if (!strcmp(cmd, "cmdline") && a1)
		r = cmd_cmdline(a1);
	else if (!strcmp(cmd, "socket") && a1)
		r = cmd_socket(a1);
	else if (!strcmp(cmd, "signal") && a1)
		r = cmd_signal(a1);
	else
		r = usage();
	fflush(stdout);
	return r;
}
