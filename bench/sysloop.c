// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The seccomp benchmark's payload (bench/seccomp.sh): make COUNT raw system
 * calls of one kind in a loop and print the mean cost of one, in
 * nanoseconds, timed with CLOCK_MONOTONIC around the loop.
 *
 *   getppid  a call every profile allows outright, so the kernel's cache of
 *            always-allowed calls can skip the filter;
 *   fcntl    fcntl(0, F_GETFD), a call the default profile filters on its
 *            argument, so the filter runs on each call.
 *
 * usage: sysloop getppid|fcntl COUNT
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
		perror("sysloop: clock_gettime");
		exit(1);
	}
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long count, i;
	int fcntl_mode;
	double t0, t1;

	if (argc != 3 || (strcmp(argv[1], "getppid") != 0 && strcmp(argv[1], "fcntl") != 0)) {
		fprintf(stderr, "usage: sysloop getppid|fcntl COUNT\n");
		return 2;
	}
	count = strtol(argv[2], NULL, 10);
	if (count < 1) {
		fprintf(stderr, "sysloop: COUNT must be at least 1\n");
		return 2;
	}
	fcntl_mode = strcmp(argv[1], "fcntl") == 0;
	/* one call outside the timing: it must work at all */
	if (fcntl_mode ? syscall(SYS_fcntl, 0, F_GETFD) < 0 : syscall(SYS_getppid) < 0) {
		perror("sysloop: the first call failed");
		return 1;
	}
	t0 = now_ns();
	if (fcntl_mode) {
		for (i = 0; i < count; i++)
			syscall(SYS_fcntl, 0, F_GETFD);
	} else {
		for (i = 0; i < count; i++)
			syscall(SYS_getppid);
	}
	t1 = now_ns();
	printf("%.2f\n", (t1 - t0) / (double)count);
	return 0;
}
