// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What this machine charges for the steps every launcher repeats: a system
 * call, a first touch of an anonymous page (and the same page populated
 * ahead with MADV_POPULATE_WRITE), a fork (in the parent, and until the child
 * runs: its new address space's first switch), an exit until the parent's
 * waitpid returns, a child that shares its parent's memory (vfork), an exec
 * of a static program, and a wake-up of a process blocked on a pipe, on the
 * waker's CPU and on another.  Launch ratios move with these from machine
 * to machine; bench/guest.sh puts them in the report beside the ratios.
 *
 * usage: guestcost ROUNDS     CSV on stdout: measure,unit,median,p10,p90
 *        guestcost noop       exits 0 at once (the exec measure's program)
 *
 * Built static by bench/guest.sh, so that its own exec has no loader.
 * Exit 0, or 1 with a message naming the call that failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define MAX_ROUNDS 100000
#define LOOP_CALLS 20000 /* system calls per round of the loop */
#define PAGES	   64	 /* pages per round of the fault measures */

static char *self_exe;

static void die(const char *what)
{
	fprintf(stderr, "guestcost: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int64_t now_ns(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_MONOTONIC, &t) < 0)
		die("clock_gettime");
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank on the sorted samples. */
static double rank(const double *v, int n, double q)
{
	int i = (int)(q * (n - 1) + 0.5);

	return v[i];
}

static void report(const char *measure, const char *unit, double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	printf("%s,%s,%.3f,%.3f,%.3f\n", measure, unit, rank(v, n, 0.5), rank(v, n, 0.1),
	       rank(v, n, 0.9));
}

static pid_t wait_child(pid_t pid, const char *what)
{
	int status;
	pid_t r;

	do
		r = waitpid(pid, &status, 0);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		die(what);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "guestcost: %s: the child failed (status %#x)\n", what, status);
		exit(1);
	}
	return r;
}

static void *map_anon(size_t len, int shared)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

/* ns per getppid(2), raw (no C library cache in between). */
static void m_syscall(double *v, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		int64_t t = now_ns();
		for (int i = 0; i < LOOP_CALLS; i++)
			syscall(SYS_getppid);
		v[r] = (double)(now_ns() - t) / LOOP_CALLS;
	}
	report("syscall", "ns", v, rounds);
}

/* us per page: a first write to each of PAGES fresh pages, after one
 * populate of them all with @populate.  Returns 0, or -1 when the kernel
 * has no populate (skipped). */
static int m_pages(double *v, int rounds, int populate)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)pg * PAGES;

	for (int r = 0; r < rounds; r++) {
		char *p = map_anon(len, 0);
		int64_t t = now_ns();
		if (populate) {
			if (madvise(p, len, MADV_POPULATE_WRITE) < 0) {
				if (errno != EINVAL)
					die("madvise(MADV_POPULATE_WRITE)");
				munmap(p, len);
				return -1;
			}
		}
		/* Populated or not, each page is then written, as a launch
		 * would: a populated page may still cost its first touch on a
		 * guest whose page tables the host shadows. */
		for (int i = 0; i < PAGES; i++)
			p[(size_t)i * (size_t)pg] = 1;
		v[r] = (double)(now_ns() - t) / 1e3 / PAGES;
		if (munmap(p, len) < 0)
			die("munmap");
	}
	report(populate ? "populate_write" : "fault_anon", "us per page", v, rounds);
	return 0;
}

/* fork: until it returns in the parent, until the child runs, and from the
 * child's _exit to the parent's waitpid. */
static void m_fork(double *parent, double *child, double *reap, int rounds)
{
	volatile int64_t *sh = map_anon(4096, 1);

	for (int r = 0; r < rounds; r++) {
		sh[0] = sh[1] = 0;
		int64_t t = now_ns();
		pid_t pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			int64_t c = now_ns();
			sh[0] = c;
			sh[1] = now_ns();
			_exit(0);
		}
		int64_t back = now_ns();
		wait_child(pid, "waitpid (fork)");
		int64_t done = now_ns();
		parent[r] = (double)(back - t) / 1e3;
		child[r] = (double)(sh[0] - t) / 1e3;
		reap[r] = (double)(done - sh[1]) / 1e3;
	}
	report("fork_parent", "us", parent, rounds);
	report("fork_child_runs", "us", child, rounds);
	report("exit_reaped", "us", reap, rounds);
	munmap((void *)sh, 4096);
}

/* vfork: a child on its parent's memory, from the call to its reaping. */
static void m_vfork(double *v, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		int64_t t = now_ns();
		pid_t pid = vfork();
		if (pid < 0)
			die("vfork");
		if (pid == 0)
			_exit(0);
		wait_child(pid, "waitpid (vfork)");
		v[r] = (double)(now_ns() - t) / 1e3;
	}
	report("vfork_reaped", "us", v, rounds);
}

/* fork, exec of this static program with "noop", exit, reaped. */
static void m_exec(double *v, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		int64_t t = now_ns();
		pid_t pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			char *argv[] = {self_exe, "noop", NULL};
			execv(self_exe, argv);
			_exit(127);
		}
		wait_child(pid, "waitpid (exec)");
		v[r] = (double)(now_ns() - t) / 1e3;
	}
	report("fork_exec_static", "us", v, rounds);
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof(s), &s) < 0)
		die("sched_setaffinity");
}

/* Until *flag is @want, a millisecond at a time; the child @pid ending
 * first (it failed) fails the run instead of a wait forever. */
static void wait_flag(pid_t pid, volatile int64_t *flag, int64_t want)
{
	struct timespec ms = {0, 1000000};
	int status;

	while (*flag != want) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r < 0 && errno != EINTR)
			die("waitpid (wake)");
		if (r == pid) {
			fprintf(stderr, "guestcost: the wake-up's reader ended (status %#x)\n",
				status);
			exit(1);
		}
		nanosleep(&ms, NULL);
	}
}

/* A child blocked in read(2) on CPU @b, woken by a write from CPU @a after
 * 1 ms of sleep (so that @b has gone idle): from the write to the read's
 * return. */
static void m_wake(double *v, int rounds, int a, int b, const char *name)
{
	int p[2];
	volatile int64_t *sh = map_anon(4096, 1);

	if (pipe(p) < 0)
		die("pipe");
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		int64_t t;
		pin(b);
		sh[510] = 1; /* pinned: from now on it waits in read */
		for (int r = 0; r < rounds; r++) {
			if (read(p[0], &t, sizeof(t)) != (ssize_t)sizeof(t))
				_exit(1);
			sh[r % 500] = now_ns() - t;
			sh[511] = r + 1;
		}
		_exit(0);
	}
	pin(a);
	wait_flag(pid, &sh[510], 1);
	for (int r = 0; r < rounds; r++) {
		struct timespec ms = {0, 1000000};
		nanosleep(&ms, NULL);
		int64_t t = now_ns();
		if (write(p[1], &t, sizeof(t)) != (ssize_t)sizeof(t))
			die("write");
		wait_flag(pid, &sh[511], r + 1);
		v[r] = (double)sh[r % 500] / 1e3;
	}
	wait_child(pid, "waitpid (wake)");
	close(p[0]);
	close(p[1]);
	munmap((void *)sh, 4096);
	report(name, "us", v, rounds);
}

/* The first two CPUs this process may run on; *second is -1 with one. */
static void two_cpus(int *first, int *second)
{
	cpu_set_t s;

	if (sched_getaffinity(0, sizeof(s), &s) < 0)
		die("sched_getaffinity");
	*first = *second = -1;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &s))
			continue;
		if (*first < 0) {
			*first = c;
		} else {
			*second = c;
			break;
		}
	}
}

int main(int argc, char **argv)
{
	char *end;
	long rounds;
	double *a, *b, *c;
	int c0, c1;
	cpu_set_t all;

	if (argc == 2 && strcmp(argv[1], "noop") == 0)
		return 0;
	if (argc != 2) {
		fprintf(stderr, "usage: guestcost ROUNDS\n");
		return 2;
	}
	errno = 0;
	rounds = strtol(argv[1], &end, 10);
	if (errno || *end || end == argv[1] || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "guestcost: ROUNDS must be a number from 1 to %d, not '%s'\n",
			MAX_ROUNDS, argv[1]);
		return 2;
	}
	self_exe = realpath("/proc/self/exe", NULL);
	if (!self_exe)
		die("realpath /proc/self/exe");
	a = calloc((size_t)rounds, sizeof(*a));
	b = calloc((size_t)rounds, sizeof(*b));
	c = calloc((size_t)rounds, sizeof(*c));
	if (!a || !b || !c)
		die("calloc");
	if (sched_getaffinity(0, sizeof(all), &all) < 0)
		die("sched_getaffinity");

	printf("measure,unit,median,p10,p90\n");
	/* A round of the loop is long: a tenth of the rounds (at least 3,
	 * never more than asked). */
	int loops = (int)(rounds / 10);
	if (loops < 3)
		loops = rounds < 3 ? (int)rounds : 3;
	m_syscall(a, loops);
	m_pages(a, (int)rounds, 0);
	if (m_pages(a, (int)rounds, 1) < 0)
		printf("populate_write,us per page,-,-,-\n");
	m_fork(a, b, c, (int)rounds);
	m_vfork(a, (int)rounds);
	m_exec(a, (int)rounds);
	two_cpus(&c0, &c1);
	m_wake(a, (int)rounds, c0, c0, "wake_same_cpu");
	if (c1 >= 0)
		m_wake(a, (int)rounds, c0, c1, "wake_other_cpu");
	else
		printf("wake_other_cpu,us,-,-,-\n");
	if (sched_setaffinity(0, sizeof(all), &all) < 0)
		die("sched_setaffinity");
	return 0;
}
