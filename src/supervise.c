// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "init.h"
#include "supervise.h"

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void nsb_supervise_sigset(sigset_t *ret)
{
	sigemptyset(ret);
	sigaddset(ret, SIGCHLD);
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaddset(ret, forwarded[i]);
}

static void signal_init(struct nsb_sandbox *sb, int sig)
{
	/* A pidfd cannot hit a recycled pid. */
	if (sb->pidfd >= 0 && syscall(SYS_pidfd_send_signal, sb->pidfd, sig, NULL, 0) == 0)
		return;
	kill(sb->pid, sig);
}

static int64_t tv_ms(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000 + tv->tv_usec / 1000;
}

int nsb_supervise(struct nsb_sandbox *sb, struct nsb_result *res, struct nsb_error *e)
{
	struct nsb_error child_err;
	size_t got = 0;
	bool err_open = true, reaped = false;
	struct rusage ru;
	sigset_t mask;
	int status = 0, sfd, r;

	nsb_supervise_sigset(&mask);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		r = nsb_error_set(e, nsb_negerrno(), "supervise", "create signalfd");
		signal_init(sb, SIGKILL);
		waitpid(sb->pid, NULL, 0);
		return r;
	}

	memset(&child_err, 0, sizeof(child_err));
	while (!reaped) {
		struct pollfd pfd[3] = {
			{.fd = sfd, .events = POLLIN},
			{.fd = err_open ? sb->err_rd : -1, .events = POLLIN},
			{.fd = sb->pidfd, .events = POLLIN},
		};

		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			r = nsb_error_set(e, nsb_negerrno(), "supervise", "wait for the sandbox");
			signal_init(sb, SIGKILL);
			waitpid(sb->pid, NULL, 0);
			close(sfd);
			return r;
		}

		if (pfd[1].revents) {
			ssize_t n = read(sb->err_rd, (char *)&child_err + got, sizeof(child_err) - got);
			if (n > 0)
				got += (size_t)n;
			else if (n == 0 || (errno != EINTR && errno != EAGAIN))
				err_open = false;
			if (got == sizeof(child_err))
				err_open = false;
		}

		if (pfd[0].revents) {
			struct signalfd_siginfo si;
			while (read(sfd, &si, sizeof(si)) == sizeof(si))
				if (si.ssi_signo != SIGCHLD)
					signal_init(sb, (int)si.ssi_signo);
		}

		/* SIGCHLD or the pidfd: try to reap init. */
		pid_t p = wait4(sb->pid, &status, WNOHANG, &ru);
		if (p == sb->pid)
			reaped = true;
		else if (p < 0 && errno != EINTR) {
			r = nsb_error_set(e, nsb_negerrno(), "supervise", "reap the sandbox");
			close(sfd);
			return r;
		}
	}
	close(sfd);

	/* Anything init managed to send before dying is in the pipe now. */
	while (err_open) {
		ssize_t n = read(sb->err_rd, (char *)&child_err + got, sizeof(child_err) - got);
		if (n > 0)
			got += (size_t)n;
		if (n <= 0 || got == sizeof(child_err))
			break;
	}

	res->cpu_user_ms = tv_ms(&ru.ru_utime);
	res->cpu_sys_ms = tv_ms(&ru.ru_stime);

	if (got == sizeof(child_err)) {
		child_err.stage[sizeof(child_err.stage) - 1] = '\0';
		child_err.message[sizeof(child_err.message) - 1] = '\0';
		child_err.hint[sizeof(child_err.hint) - 1] = '\0';
		res->has_setup_error = true;
		res->setup_error = child_err;
		if (strcmp(child_err.stage, NSB_STAGE_RESOLVE) == 0) {
			res->status = NSB_STATUS_EXEC_FAILED;
			res->exit_code_set = false;
		} else if (strcmp(child_err.stage, NSB_STAGE_EXEC) == 0) {
			res->status = NSB_STATUS_EXEC_FAILED;
		} else {
			res->status = NSB_STATUS_SETUP_FAILED;
		}
		return 0;
	}

	/* The payload's own wait status, if init lived to send it. */
	int pstatus;
	ssize_t n = read(sb->status_rd, &pstatus, sizeof(pstatus));
	if (n == sizeof(pstatus)) {
		if (WIFEXITED(pstatus)) {
			res->status = NSB_STATUS_EXITED;
			res->exit_code_set = true;
			res->exit_code = WEXITSTATUS(pstatus);
		} else {
			res->status = NSB_STATUS_SIGNALED;
			res->signal = WTERMSIG(pstatus);
		}
		return 0;
	}

	/* init died without a word: killed from outside, or a bug. */
	if (WIFSIGNALED(status)) {
		res->status = NSB_STATUS_SIGNALED;
		res->signal = WTERMSIG(status);
		res->reason = "the sandbox's init was killed; every process inside died with it";
	} else {
		res->status = NSB_STATUS_SETUP_FAILED;
		res->has_setup_error = true;
		nsb_error_setx(&res->setup_error, EPROTO, "init",
			       "the sandbox's init exited with status %d before reporting",
			       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	return 0;
}
