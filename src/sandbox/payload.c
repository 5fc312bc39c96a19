// SPDX-License-Identifier: GPL-2.0-or-later
/* payload: run by the payload process after init starts it, before execve: its terminal, stdio, descriptors, command, rlimits. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "base/macro.h"
#include "sandbox/init.h"
#include "sandbox/payload.h"
#include "sandbox/rlimits.h"
#include "base/path_search.h"
#include "base/sigforward.h"
#include "base/util.h"

/*
 * Find the command in the sandbox's view with the sandbox's PATH, like
 * execvp, but tell "not found" (127) from "found, not executable" (126).
 */
/* A candidate of the PATH search, judged in the sandbox's view (relative
 * ones from the working directory) by the rule the gate uses too. */
static int probe_executable(void *ud, const char *candidate)
{
	struct stat st;

	(void)ud;
	if (stat(candidate, &st) < 0)
		return nsb_path_kind(NULL, false);
	return nsb_path_kind(&st, access(candidate, X_OK) == 0);
}

static int resolve_command(const struct nsb_plan *p, char *out, size_t out_size,
			   struct nsb_error *e)
{
	const char *name = p->argv[0];
	const char *path = nsb_env_get(p->envp, "PATH", 4);
	struct stat st;
	int r;

	if (strchr(name, '/')) {
		if (stat(name, &st) < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_RESOLVE,
					     "command '%s' not found inside the sandbox", name);
		if (nsb_snprintf(out, out_size, "%s", name) < 0)
			return nsb_error_setx(e, -ENAMETOOLONG, NSB_STAGE_RESOLVE,
					      "command name too long");
		return 0;
	}
	if (strlen(name) > NAME_MAX)
		return nsb_error_setx(e, -ENAMETOOLONG, NSB_STAGE_RESOLVE,
				      "command name '%.64s...' is too long", name);

	r = nsb_path_search(path, name, probe_executable, NULL, out, out_size);
	if (r == 0)
		return 0;
	if (r == -EACCES)
		return nsb_error_setx(e, -EACCES, NSB_STAGE_EXEC,
				      "command '%s' found inside the sandbox but not executable",
				      name);
	return nsb_error_setx(e, -ENOENT, NSB_STAGE_RESOLVE,
			      "command '%s' not found inside the sandbox (PATH=%s)", name,
			      path ? path : "");
}

/* Put the payload's stdio in place: pumped pipes, the pty, reopened nodes. */
static int setup_stdio(const struct nsb_init_args *a, int slave, struct nsb_error *e)
{
	const struct nsb_stdio *st = a->stdio;
	int pumped[3] = {a->stdin_rd, a->stdout_wr, a->stderr_wr};

	for (int fd = 0; fd < 3; fd++) {
		int src = -1;
		_cleanup_close_ int opened = -1;

		if (st->how[fd] == NSB_STDIO_CLOSED)
			close(fd); /* the caller's closed fd, held by /dev/null until here */
		else if (st->how[fd] == NSB_STDIO_PTY)
			src = slave;
		else if (st->how[fd] == NSB_STDIO_PIPE)
			src = pumped[fd];
		else if (st->how[fd] == NSB_STDIO_REOPEN) {
			opened = open(st->reopen[fd], st->reopen_flags[fd] | O_NOCTTY | O_CLOEXEC);
			if (opened < 0)
				return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_FDS,
						     "open '%s' as fd %d", st->reopen[fd], fd);
			src = opened;
		}
		if (src >= 0 && dup2(src, fd) < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_FDS,
					     "connect fd %d to the supervisor", fd);
	}
	return 0;
}

_noreturn_ static void payload_main(const struct nsb_init_args *a, int slave)
{
	const struct nsb_plan *p = a->plan;
	struct nsb_error e = {0};
	char path[NSB_MAX_PATH + 1];
	sigset_t none;
	int r;

	if (slave >= 0) {
		/* The payload leads the pty's foreground process group, in
		 * init's session: ^C and ^Z on the terminal reach it, and a
		 * shell inside does job control as usual.  SIGTTOU is blocked
		 * for the switch (we are not in the foreground yet). */
		sigset_t ttou;
		sigemptyset(&ttou);
		sigaddset(&ttou, SIGTTOU);
		sigprocmask(SIG_BLOCK, &ttou, NULL);
		if (setpgid(0, 0) < 0 || tcsetpgrp(slave, getpid()) < 0) {
			nsb_error_set(&e, nsb_negerrno(), NSB_STAGE_SESSION,
				      "make the payload the terminal's foreground");
			nsb_init_fail(a, &e, NSB_EXIT_NSBOX);
		}
	}

	/* Restore what init changed: default dispositions, nothing blocked. */
	for (size_t i = 0; i < ARRAY_SIZE(nsb_forwarded_signals); i++)
		signal(nsb_forwarded_signals[i], SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	/* A new session: no controlling terminal to inject keystrokes into
	 * (with a pty: the sandbox's own terminal, set up above). */
	if (slave < 0 && setsid() < 0) {
		nsb_error_set(&e, nsb_negerrno(), NSB_STAGE_SESSION, "start a new session");
		nsb_init_fail(a, &e, NSB_EXIT_NSBOX);
	}

	/* stdio through the supervisor's pumps or the pty (never a host inode). */
	r = setup_stdio(a, slave, &e);
	if (r < 0)
		nsb_init_fail(a, &e, NSB_EXIT_NSBOX);

	/* Only stdin, stdout, stderr and the (CLOEXEC) error pipe survive. */
	r = nsb_init_close_all_except(&a->err_wr, 1);
	if (r < 0) {
		nsb_error_set(&e, r, NSB_STAGE_FDS, "close inherited file descriptors");
		nsb_init_fail(a, &e, NSB_EXIT_NSBOX);
	}

	r = resolve_command(p, path, sizeof(path), &e);
	if (r < 0)
		nsb_init_fail(a, &e,
			      e.stage == NSB_STAGE_RESOLVE ? NSB_EXIT_NOTFOUND : NSB_EXIT_NOEXEC);

	/* Fallback limits: nothing above may trip over them. */
	r = nsb_limits_apply_rlimits(&p->limits, &e);
	if (r < 0)
		nsb_init_fail(a, &e, NSB_EXIT_NSBOX);

	execve(path, p->argv, p->envp);
	r = nsb_negerrno();
	nsb_error_set(&e, r, NSB_STAGE_EXEC, "execute '%s'", path);
	if (r == -ENOENT)
		nsb_error_hint(
			&e,
			"the file exists but its interpreter or dynamic loader is missing inside the sandbox; bind it with --ro");
	nsb_init_fail(a, &e, r == -ENOENT ? NSB_EXIT_NOTFOUND : NSB_EXIT_NOEXEC);
}

struct payload_start {
	const struct nsb_init_args *a;
	int sfd, slave;
};

/* The payload's first steps: init's signalfd and status pipe stay with init. */
_noreturn_ static int payload_enter(void *arg)
{
	const struct payload_start *ps = arg;

	close(ps->sfd);
	close(ps->a->status_wr);
	payload_main(ps->a, ps->slave);
}

/* The payload's stack while it shares init's memory (payload_main and the
 * PATH search need a few KiB), above one guard page. */
#define PAYLOAD_STACK (256 * 1024)

/* AddressSanitizer cannot follow the switch to that stack (it warns on the
 * payload's stderr at every noreturn call): sanitized builds fork. */
#define PAYLOAD_VFORK (!NSB_ASAN)

/*
 * Start the payload vfork-style: clone(CLONE_VM | CLONE_VFORK) on a stack of
 * its own, so that init's memory (a copy of the supervisor's) is neither
 * copied once more nor faulted in again copy-on-write by both processes;
 * init sleeps until the payload's execve or _exit.  The payload changes
 * only its own stack and what is its own without CLONE_FILES and
 * CLONE_SIGHAND (descriptors, dispositions, mask, session, rlimits); the
 * filter already on init covers it from its first instruction, as after
 * fork.  A profile that refuses clone with CLONE_VM gets a plain fork.
 * Returns the payload's pid or -errno.
 */
pid_t nsb_payload_start(const struct nsb_init_args *a, int sfd, int slave)
{
	struct payload_start ps = {.a = a, .sfd = sfd, .slave = slave};
	/* getpagesize: sysconf is a 64 KiB window of libc's text of its own. */
	int page = getpagesize();
	size_t guard = page > 0 ? (size_t)page : 4096;
	pid_t pid;

	char *stack = PAYLOAD_VFORK
			      ? mmap(NULL, PAYLOAD_STACK + guard, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE, -1, 0)
			      : MAP_FAILED;
	if (stack != MAP_FAILED && mprotect(stack, guard, PROT_NONE) == 0) {
		pid = clone(payload_enter, stack + guard + PAYLOAD_STACK,
			    CLONE_VM | CLONE_VFORK | SIGCHLD, &ps);
		/* Back from the payload's execve or exit: its stack is free. */
		munmap(stack, PAYLOAD_STACK + guard);
		if (pid > 0)
			return pid;
	} else if (stack != MAP_FAILED) {
		munmap(stack, PAYLOAD_STACK + guard);
	}

	pid = fork();
	if (pid < 0)
		return nsb_negerrno();
	if (pid == 0)
		payload_enter(&ps);
	return pid;
}
