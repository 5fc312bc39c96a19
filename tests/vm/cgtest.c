// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * VM test driver for src/cgroup.c on a real cgroup v2 kernel.  Runs inside
 * the test VM (as root, and as the delegated user through /bin/as-user) and
 * prints one "VMTEST PASS|FAIL <who>-<check>[: why]" line per check.
 *
 * usage: cgtest WHO
 *
 * Every payload is started with clone3(CLONE_INTO_CGROUP), as the launcher
 * will, and reports its own /proc/self/cgroup as its first act.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "supervisor/cgroup.h"

static const char *who = "?";
static int failures;

static void result(const char *check, int ok, const char *fmt, ...) _printf_(3, 4);
static void result(const char *check, int ok, const char *fmt, ...)
{
	char why[1024] = "";
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (ok) {
		printf("VMTEST PASS %s-%s%s%s\n", who, check, why[0] ? "  # " : "", why);
	} else {
		printf("VMTEST FAIL %s-%s: %s\n", who, check, why);
		failures++;
	}
	fflush(stdout);
}

static pid_t clone_into(int cgfd)
{
	struct clone_args a = {0};
	a.flags = CLONE_INTO_CGROUP;
	a.exit_signal = SIGCHLD;
	a.cgroup = (uint64_t)cgfd;
	return (pid_t)syscall(SYS_clone3, &a, sizeof(a));
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int read_small(const char *dir, const char *file, char *buf, size_t size)
{
	char p[8192];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int gone(const char *path)
{
	struct stat st;
	return stat(path, &st) < 0 && errno == ENOENT;
}

static int create(const struct nsb_cgroup_limits *l, struct nsb_cgroup *cg, const char *check)
{
	struct nsb_cgroup_opts o = {.clean_stale = true};
	const char *names[4];
	size_t n = 0;
	struct nsb_cgroup_place where;
	struct nsb_error e = {0};
	/* Placed for what the limits need, as the launcher does. */
	if (l && l->memory_max)
		names[n++] = "memory";
	if (l && l->pids_max)
		names[n++] = "pids";
	if (l && l->cpu_quota_us)
		names[n++] = "cpu";
	names[n] = NULL;
	int r = nsb_cgroup_place(&o, names, &where, &e);
	if (r >= 0)
		r = nsb_cgroup_create(&where, l, cg, &e);
	if (r < 0)
		result(check, 0, "create: %s (%s)", e.message, e.hint);
	return r;
}

static int destroy(struct nsb_cgroup *cg, const char *check)
{
	char path[sizeof(cg->path)];
	struct nsb_error e = {0};
	snprintf(path, sizeof(path), "%s", cg->path);
	int r = nsb_cgroup_destroy(cg, &e);
	if (r < 0) {
		result(check, 0, "destroy: %s", e.message);
		return r;
	}
	if (!gone(path)) {
		result(check, 0, "'%s' still exists after destroy", path);
		return -EEXIST;
	}
	return 0;
}

static void t_usable(void)
{
	const char *names[] = {"memory", "pids", "cpu", NULL};
	struct nsb_error e = {0};
	struct nsb_cgroup_place where;
	int r = nsb_cgroup_place(NULL, names, &where, &e);
	result("usable", r == 0, "%s", r == 0 ? "memory pids cpu" : e.message);
}

/* Limits are in place before the payload exists, and the payload's first
 * act already sees the leaf. */
static void t_placement(void)
{
	struct nsb_cgroup_limits l = {.memory_max = 64 << 20,
				      .pids_max = 32,
				      .cpu_quota_us = 50000,
				      .cpu_period_us = 100000};
	struct nsb_cgroup cg = NSB_CGROUP_INIT;
	char buf[256], want[8192], got[8192] = "";
	int p[2];

	if (create(&l, &cg, "placement") < 0)
		return;
	struct {
		const char *file, *want;
	} files[] = {{"memory.max", "67108864"},
		     {"memory.swap.max", "0"},
		     {"memory.oom.group", "1"},
		     {"pids.max", "32"},
		     {"cpu.max", "50000 100000"}};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (read_small(cg.path, files[i].file, buf, sizeof(buf)) < 0 ||
		    strcmp(buf, files[i].want)) {
			result("limits", 0, "%s is '%s', want '%s'", files[i].file, buf,
			       files[i].want);
			goto out;
		}
	}
	result("limits", 1, "memory.max memory.swap.max memory.oom.group pids.max cpu.max");

	if (pipe2(p, O_CLOEXEC) < 0)
		goto out;
	pid_t pid = clone_into(cg.fd);
	if (pid == 0) {
		/* First act: where am I? */
		int fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, got, sizeof(got) - 1) : -1;
		if (n > 0 && write(p[1], got, (size_t)n) != n)
			_exit(2);
		_exit(n > 0 ? 0 : 1);
	}
	close(p[1]);
	if (pid < 0) {
		result("placement", 0, "clone3(CLONE_INTO_CGROUP): %s", strerror(errno));
		close(p[0]);
		goto out;
	}
	ssize_t n = read(p[0], got, sizeof(got) - 1);
	got[n > 0 ? n : 0] = '\0';
	got[strcspn(got, "\n")] = '\0';
	close(p[0]);
	waitpid(pid, NULL, 0);
	snprintf(want, sizeof(want), "0::%s", cg.leaf + strlen("/sys/fs/cgroup"));
	result("placement", !strcmp(got, want), "child saw '%s', want '%s'", got, want);
out:
	if (destroy(&cg, "placement-destroy") == 0)
		result("placement-destroy", 1, "%s", "cgroup removed");
}

static void t_oom(void)
{
	struct nsb_cgroup_limits l = {.memory_max = 64 << 20};
	struct nsb_cgroup cg = NSB_CGROUP_INIT;
	struct nsb_cgroup_stats s;
	int status = 0;

	if (create(&l, &cg, "oom") < 0)
		return;
	pid_t pid = clone_into(cg.fd);
	if (pid == 0) {
		size_t sz = 256u << 20;
		char *m =
			mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			_exit(3);
		for (size_t i = 0; i < sz; i += 4096)
			m[i] = 1;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (nsb_cgroup_read_stats(&cg, &s, NULL) < 0) {
		result("oom", 0, "read stats");
	} else {
		uint64_t lim = 64u << 20;
		int killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
		int ok = killed && s.oom_kill >= 1 && s.memory_peak <= lim &&
			 s.memory_peak >= lim / 10 * 9;
		result("oom", ok, "status=0x%x oom_kill=%llu memory_peak=%llu max_events=%llu",
		       status, (unsigned long long)s.oom_kill, (unsigned long long)s.memory_peak,
		       (unsigned long long)s.memory_max_events);
	}
	destroy(&cg, "oom-destroy");
}

static void t_pids(void)
{
	struct nsb_cgroup_limits l = {.pids_max = 32};
	struct nsb_cgroup cg = NSB_CGROUP_INIT;
	struct nsb_cgroup_stats s;
	int p[2], status = 0, forked = -1;

	if (create(&l, &cg, "pids") < 0 || pipe2(p, O_CLOEXEC) < 0)
		return;
	pid_t pid = clone_into(cg.fd);
	if (pid == 0) {
		int ok = 0;
		for (int i = 0; i < 200; i++) {
			pid_t c = fork();
			if (c == 0) {
				pause();
				_exit(0);
			}
			if (c > 0)
				ok++;
		}
		if (write(p[1], &ok, sizeof(ok)) != sizeof(ok))
			_exit(2);
		pause();
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &forked, sizeof(forked)) != sizeof(forked))
		forked = -1;
	close(p[0]);
	struct nsb_error e = {0};
	int kr = nsb_cgroup_kill(&cg, &e);
	waitpid(pid, &status, 0);
	if (nsb_cgroup_read_stats(&cg, &s, NULL) < 0) {
		result("pids", 0, "read stats");
	} else {
		int ok = kr == 0 && forked == 31 && s.pids_peak <= 32 && s.pids_max_events > 0;
		result("pids", ok, "forked=%d pids_peak=%llu pids.events max=%llu kill=%d", forked,
		       (unsigned long long)s.pids_peak, (unsigned long long)s.pids_max_events, kr);
	}
	result("kill", kr == 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	       "cgroup.kill: %s, payload status 0x%x", kr ? e.message : "ok", status);
	if (destroy(&cg, "kill-destroy") == 0)
		result("kill-destroy", 1, "cgroup removed while 31 killed tasks exited");
}

static void t_cpu(void)
{
	struct nsb_cgroup_limits l = {.cpu_quota_us = 0};
	struct nsb_cgroup cg = NSB_CGROUP_INIT;
	struct nsb_cgroup_stats s;
	int status;

	if (nsb_cgroup_cpus_to_quota("0.5", NSB_CGROUP_PERIOD_US_DEFAULT, &l.cpu_quota_us) < 0 ||
	    create(&l, &cg, "cpu") < 0)
		return;
	double t0 = now();
	pid_t pid = clone_into(cg.fd);
	if (pid == 0) {
		volatile unsigned long x = 0;
		while (now() - t0 < 2.0)
			x++;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	double wall = now() - t0;
	if (nsb_cgroup_read_stats(&cg, &s, NULL) < 0) {
		result("cpu", 0, "read stats");
	} else {
		double cpu = (double)s.cpu_usage_usec / 1e6;
		int ok = cpu >= 0.7 && cpu <= 1.3 && s.cpu_nr_throttled > 0;
		result("cpu", ok,
		       "--cpus 0.5 for %.2fs wall: usage=%.3fs user=%.3fs system=%.3fs "
		       "throttled=%llu",
		       wall, cpu, (double)s.cpu_user_usec / 1e6, (double)s.cpu_system_usec / 1e6,
		       (unsigned long long)s.cpu_nr_throttled);
	}
	destroy(&cg, "cpu-destroy");
}

/* A supervisor that died between create and destroy: its cgroup, still
 * holding a process, must go on the next start. */
static void t_stale(void)
{
	struct nsb_cgroup cg = NSB_CGROUP_INIT;
	char parent[4096], stale[8192];
	int status;

	if (create(NULL, &cg, "stale") < 0)
		return;
	snprintf(parent, sizeof(parent), "%s", cg.path);
	*strrchr(parent, '/') = '\0';
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, &status, 0);
	snprintf(stale, sizeof(stale), "%s/nsbox-%d-deadbeef", parent, (int)dead);
	if (mkdir(stale, 0755) < 0) {
		result("stale", 0, "mkdir '%s': %s", stale, strerror(errno));
		destroy(&cg, "stale");
		return;
	}
	int sfd = open(stale, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	pid_t orphan = clone_into(sfd);
	if (orphan == 0) {
		pause();
		_exit(0);
	}
	int cerr = errno;
	close(sfd);
	if (orphan < 0) {
		result("stale", 0, "clone3 into '%s' (fd %d): %s", stale, sfd, strerror(cerr));
		rmdir(stale);
		destroy(&cg, "stale-destroy");
		return;
	}
	struct nsb_error e = {0};
	int n = nsb_cgroup_clean_stale(parent, &e);
	waitpid(orphan, &status, 0);
	int ok = n == 1 && gone(stale) && WIFSIGNALED(status) && !gone(cg.path);
	result("stale", ok, "removed=%d (%s), orphan status 0x%x, own run kept=%d", n,
	       n < 0 ? e.message : "ok", status, !gone(cg.path));
	destroy(&cg, "stale-destroy");
}

int main(int argc, char **argv)
{
	who = argc > 1 ? argv[1] : "cgtest";
	t_usable();
	t_placement();
	t_oom();
	t_pids();
	t_cpu();
	t_stale();
	return failures ? 1 : 0;
}
