// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe refuse ...: syscalls the default profile refuses, made on purpose so
 * that a test can compare the record's seccomp counts with what was done.
 * Each call's errno is checked here; the output is "NAME ERRNO COUNT".
 *
 *   refuse N            mount, unshare(CLONE_NEWUSER), keyctl, ptrace, bpf, N times each
 *   refuse-threads T N  T threads, each calling keyctl N times
 *   refuse-procs P N    P processes, each calling ptrace N times
 *   refuse-exit T       T threads calling keyctl without end; exit 7 after 100 ms
 *   refuse-futex N      futex(FUTEX_WAKE) of a word of its own, N times
 *   personality X       personality(X) once (hexadecimal X)
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "refuse.h"

/* How many of n calls of nr failed with EPERM. */
static long refused(long nr, long n, long a0)
{
	long eperm = 0;

	for (long i = 0; i < n; i++) {
		errno = 0;
		if (syscall(nr, a0, 0, 0, 0, 0, 0) < 0 && errno == EPERM)
			eperm++;
	}
	return eperm;
}

static int refuse_each(long n)
{
	static const struct {
		const char *name;
		long nr, a0;
	} calls[] = {
		{"mount", SYS_mount, 0},   {"unshare", SYS_unshare, CLONE_NEWUSER},
		{"keyctl", SYS_keyctl, 0}, {"ptrace", SYS_ptrace, 0},
		{"bpf", SYS_bpf, 0},
	};

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		printf("%s EPERM %ld\n", calls[i].name, refused(calls[i].nr, n, calls[i].a0));
	return 0;
}

static long per_thread;

static void *keyctl_thread(void *arg)
{
	return (void *)refused(SYS_keyctl, per_thread, 0);
}

static int refuse_threads(long t, long n)
{
	pthread_t th[64];
	long total = 0;

	if (t < 1 || t > 64)
		return 2;
	per_thread = n;
	for (long i = 0; i < t; i++)
		if (pthread_create(&th[i], NULL, keyctl_thread, NULL) != 0)
			return 1;
	for (long i = 0; i < t; i++) {
		void *got;
		pthread_join(th[i], &got);
		total += (long)got;
	}
	printf("keyctl EPERM %ld\n", total);
	return 0;
}

static int refuse_procs(long p, long n)
{
	long total = 0;

	for (long i = 0; i < p; i++) {
		pid_t pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0)
			_exit(refused(SYS_ptrace, n, 0) == n ? 0 : 1);
	}
	for (long i = 0; i < p; i++) {
		int st;
		if (wait(&st) > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
			total += n;
	}
	printf("ptrace EPERM %ld\n", total);
	return 0;
}

static void *forever(void *arg)
{
	for (;;)
		syscall(SYS_keyctl, 0, 0, 0, 0, 0, 0);
	return NULL;
}

static int refuse_exit(long t)
{
	struct timespec ts = {0, 100 * 1000 * 1000};
	pthread_t th;

	for (long i = 0; i < t; i++)
		if (pthread_create(&th, NULL, forever, NULL) != 0)
			return 1;
	nanosleep(&ts, NULL);
	fflush(stdout);
	/* Every thread dies with its call pending, or about to be. */
	_exit(7);
}

int nsb_probe_refuse(int argc, char **argv)
{
	const char *cmd = argv[0];
	long a1 = argc > 1 ? strtol(argv[1], NULL, 0) : 1;
	long a2 = argc > 2 ? strtol(argv[2], NULL, 0) : 1;

	if (!strcmp(cmd, "refuse"))
		return refuse_each(a1);
	if (!strcmp(cmd, "refuse-threads"))
		return refuse_threads(a1, a2);
	if (!strcmp(cmd, "refuse-procs"))
		return refuse_procs(a1, a2);
	if (!strcmp(cmd, "refuse-exit"))
		return refuse_exit(a1);
	if (!strcmp(cmd, "refuse-futex")) {
		static int word;
		long eperm = 0;
		for (long i = 0; i < a1; i++) {
			errno = 0;
			if (syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) < 0 &&
			    errno == EPERM)
				eperm++;
		}
		printf("futex EPERM %ld\n", eperm);
		return 0;
	}
	if (!strcmp(cmd, "personality")) {
		errno = 0;
		long r = syscall(SYS_personality, strtoul(argc > 1 ? argv[1] : "0", NULL, 16));
		printf("personality %ld %s\n", r, r < 0 ? strerrorname_np(errno) : "ok");
		return 0;
	}
	return 2;
}
