// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hotstep: which instructions of a static nsbox a launch executes, found by
 * single-stepping it (make hot-functions; never installed).  The static
 * libraries' code (glibc, libmnl) is compiled without -ffunction-sections
 * and without the -finstrument-functions hook of tools/hotprof.c, so the
 * only way to see which of it a launch runs is to watch the instructions
 * themselves.
 *
 *   hotstep OUT PROGRAM ARGS...
 *
 * Runs PROGRAM under ptrace(2), follows every clone and fork, and steps each
 * traced process one instruction at a time from PROGRAM's exec on; a process
 * that execs anything else (the payload) is let go.  Writes to OUT one line
 * "ROLE OFFSET" per distinct instruction inside PROGRAM's image: OFFSET in
 * hex from the image's start (as nm prints addresses), ROLE 0 for the first
 * process (the supervisor), 1 for its first child (init), 2 for any later
 * process.  A launch takes some 700,000 steps, about half a minute.
 * Exits with PROGRAM's exit status, or 1 with a message when tracing fails.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#define IMAGE_MAX (8u << 20) /* bytes of the image tracked */
#define ROLES	  3
#define PIDS	  64 /* processes tracked at once */

static uint64_t seen[ROLES][IMAGE_MAX / 64];

struct tracee {
	pid_t pid;
	int role;
};

static struct tracee tracees[PIDS];

static int role_of(pid_t pid)
{
	for (size_t i = 0; i < PIDS; i++)
		if (tracees[i].pid == pid)
			return tracees[i].role;
	return 2;
}

static void add(pid_t pid, int role)
{
	for (size_t i = 0; i < PIDS; i++)
		if (tracees[i].pid == 0 || tracees[i].pid == pid) {
			tracees[i] = (struct tracee){.pid = pid, .role = role};
			return;
		}
}

static void forget(pid_t pid)
{
	for (size_t i = 0; i < PIDS; i++)
		if (tracees[i].pid == pid)
			tracees[i].pid = 0;
}

/* The start of the mapping of pid's executable at file offset 0. */
static uintptr_t image_base(pid_t pid, const char *path)
{
	char maps[64], line[4096], real[4096];
	uintptr_t lo = 0;
	unsigned long long off;
	FILE *f;

	if (!realpath(path, real))
		return 0;
	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	f = fopen(maps, "r");
	while (f && fgets(line, sizeof(line), f)) {
		uintptr_t a;
		char name[4096] = "";
		if (sscanf(line, "%lx-%*x %*s %llx %*s %*s %4095s", &a, &off, name) >= 2 &&
		    off == 0 && strcmp(name, real) == 0) {
			lo = a;
			break;
		}
	}
	if (f)
		fclose(f);
	return lo;
}

int main(int argc, char **argv)
{
	uintptr_t base = 0;
	int status = 1, st;
	long steps = 0;
	pid_t first;

	if (argc < 3) {
		fprintf(stderr, "usage: hotstep OUT PROGRAM ARGS...\n");
		return 1;
	}
	first = fork();
	if (first < 0) {
		perror("hotstep: fork");
		return 1;
	}
	if (first == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0 || raise(SIGSTOP) < 0)
			_exit(127);
		execv(argv[2], argv + 2);
		_exit(127);
	}
	if (waitpid(first, &st, 0) != first ||
	    ptrace(PTRACE_SETOPTIONS, first, 0,
		   PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
			   PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL) < 0 ||
	    ptrace(PTRACE_CONT, first, 0, 0) < 0) {
		perror("hotstep: ptrace");
		return 1;
	}
	add(first, 0);
	int next_role = 1;
	for (;;) {
		pid_t w = waitpid(-1, &st, __WALL);
		if (w < 0)
			break;
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (w == first)
				status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			forget(w);
			continue;
		}
		int sig = WSTOPSIG(st), event = st >> 16, pass = 0;
		if (event == PTRACE_EVENT_EXEC) {
			if (w != first || base) {
				ptrace(PTRACE_DETACH, w, 0, 0); /* the payload */
				forget(w);
				continue;
			}
			base = image_base(w, argv[2]);
			if (!base) {
				fprintf(stderr, "hotstep: %s: no mapping of the image found\n",
					argv[2]);
				kill(first, SIGKILL);
				return 1;
			}
		} else if (event == PTRACE_EVENT_CLONE || event == PTRACE_EVENT_FORK ||
			   event == PTRACE_EVENT_VFORK) {
			unsigned long child;
			if (ptrace(PTRACE_GETEVENTMSG, w, 0, &child) == 0) {
				add((pid_t)child, next_role);
				next_role = 2;
			}
		} else if (sig != SIGTRAP && sig != SIGSTOP) {
			pass = sig;
		}
		struct user_regs_struct regs;
		if (base && ptrace(PTRACE_GETREGS, w, 0, &regs) == 0) {
			uintptr_t off = (uintptr_t)regs.rip - base;
			if (off < IMAGE_MAX)
				seen[role_of(w)][off / 64] |= UINT64_C(1) << (off % 64);
			steps++;
		}
		ptrace(base ? PTRACE_SINGLESTEP : PTRACE_CONT, w, 0, (void *)(long)pass);
	}
	FILE *out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	for (int r = 0; r < ROLES; r++)
		for (size_t i = 0; i < IMAGE_MAX; i++)
			if (seen[r][i / 64] & (UINT64_C(1) << (i % 64)))
				fprintf(out, "%d %016zx\n", r, i);
	if (fclose(out) != 0) {
		perror(argv[1]);
		return 1;
	}
	fprintf(stderr, "hotstep: %ld steps\n", steps);
	return status;
}
