// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "init.h"
#include "supervise.h"

#define PUMP_BUF (128u << 10)

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void nsb_supervise_sigset(sigset_t *ret)
{
	sigemptyset(ret);
	sigaddset(ret, SIGCHLD);
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaddset(ret, forwarded[i]);
}

struct stream {
	int fd;	  /* read end, -1 once at EOF */
	int dest; /* the caller's fd (1 or 2) */
	const char *name;
	uint64_t total;	 /* everything the payload produced */
	uint64_t passed; /* what went on (or was kept) */
	bool truncated;
	bool dest_broken; /* the caller closed its end: keep draining */
	char last;	  /* last byte passed on, for the marker's newline */
	struct nsb_captured *cap;
};

struct sv {
	struct nsb_sandbox *sb;
	const struct nsb_supervise_opts *o;
	struct stream st[2];
	char *buf;
};

static void signal_init(struct nsb_sandbox *sb, int sig)
{
	/* A pidfd cannot hit a recycled pid. */
	if (sb->pidfd >= 0 && syscall(SYS_pidfd_send_signal, sb->pidfd, sig, NULL, 0) == 0)
		return;
	kill(sb->pid, sig);
}

static void kill_all(struct sv *v)
{
	if (v->o->kill_all)
		v->o->kill_all(v->o->kill_ud);
	/* init's death takes the whole PID namespace with it. */
	signal_init(v->sb, SIGKILL);
}

static int64_t tv_ms(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000 + tv->tv_usec / 1000;
}

static void write_all(struct stream *s, const char *p, size_t n)
{
	while (n > 0 && !s->dest_broken) {
		ssize_t w = write(s->dest, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			s->dest_broken = true;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

static int keep(struct stream *s, const char *p, size_t n)
{
	struct nsb_captured *c = s->cap;
	char *d = realloc(c->data, c->len + n + 1);
	if (!d)
		return -ENOMEM;
	memcpy(d + c->len, p, n);
	c->len += n;
	d[c->len] = '\0';
	c->data = d;
	return 0;
}

/* Read what is there; pass or keep up to the limit, count the rest. */
static int pump(struct sv *v, struct stream *s)
{
	ssize_t n = read(s->fd, v->buf, PUMP_BUF);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		nsb_closep(&s->fd);
		return 0;
	}
	s->total += (uint64_t)n;

	uint64_t room = v->o->max_output > s->passed ? v->o->max_output - s->passed : 0;
	size_t take = (uint64_t)n < room ? (size_t)n : (size_t)room;
	if (take > 0) {
		if (v->o->capture) {
			if (keep(s, v->buf, take) < 0)
				return -ENOMEM;
		} else {
			write_all(s, v->buf, take);
		}
		s->passed += take;
		s->last = v->buf[take - 1];
	}
	if (take < (size_t)n && !s->truncated) {
		s->truncated = true;
		if (!v->o->capture) {
			char marker[128];
			int m = snprintf(marker, sizeof(marker),
					 "%s[nsbox: %s truncated after %llu bytes]\n",
					 s->passed && s->last != '\n' ? "\n" : "", s->name,
					 (unsigned long long)v->o->max_output);
			write_all(s, marker, (size_t)m);
		}
	}
	return 0;
}

static int arm(int tfd, uint64_t ms)
{
	struct itimerspec its = {0};
	its.it_value.tv_sec = (time_t)(ms / 1000);
	its.it_value.tv_nsec = (long)(ms % 1000) * 1000000;
	if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
		its.it_value.tv_nsec = 1; /* 0 would disarm */
	return timerfd_settime(tfd, 0, &its, NULL);
}

static void read_setup_error(int fd, struct nsb_error *ce, size_t *got, bool *open_)
{
	ssize_t n = read(fd, (char *)ce + *got, sizeof(*ce) - *got);
	if (n > 0)
		*got += (size_t)n;
	else if (n == 0 || (errno != EINTR && errno != EAGAIN))
		*open_ = false;
	if (*got == sizeof(*ce))
		*open_ = false;
}

int nsb_supervise(struct nsb_sandbox *sb, const struct nsb_supervise_opts *o,
		  struct nsb_result *res, struct nsb_captured *out, struct nsb_captured *err,
		  struct nsb_error *e)
{
	struct sv v = {.sb = sb, .o = o};
	struct nsb_error child_err;
	size_t got = 0;
	bool err_open = true, reaped = false, timed_out = false, killed = false;
	struct rusage ru;
	sigset_t mask;
	int status = 0, r = 0;
	_cleanup_close_ int sfd = -1, tfd = -1;

	memset(&child_err, 0, sizeof(child_err));
	memset(&ru, 0, sizeof(ru));
	v.st[0] = (struct stream){
		.fd = o->pipe_output ? sb->stdout_rd : -1, .dest = 1, .name = "stdout", .cap = out};
	v.st[1] = (struct stream){
		.fd = o->pipe_output ? sb->stderr_rd : -1, .dest = 2, .name = "stderr", .cap = err};
	/* The pump owns the read ends from here on. */
	sb->stdout_rd = sb->stderr_rd = -1;

	nsb_supervise_sigset(&mask);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		r = nsb_error_set(e, nsb_negerrno(), "supervise", "create signalfd");
		goto fatal;
	}
	if (o->pipe_output) {
		v.buf = malloc(PUMP_BUF);
		if (!v.buf) {
			r = nsb_error_set(e, ENOMEM, "supervise", "allocate the output buffer");
			goto fatal;
		}
	}
	if (o->timeout_ms) {
		tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (tfd < 0 || arm(tfd, o->timeout_ms) < 0) {
			r = nsb_error_set(e, nsb_negerrno(), "supervise", "arm the timeout");
			goto fatal;
		}
	}

	/* Until init is reaped and both output pipes are drained. */
	while (!reaped || v.st[0].fd >= 0 || v.st[1].fd >= 0) {
		struct pollfd pfd[6] = {
			{.fd = sfd, .events = POLLIN},
			{.fd = err_open ? sb->err_rd : -1, .events = POLLIN},
			{.fd = reaped ? -1 : sb->pidfd, .events = POLLIN},
			{.fd = tfd, .events = POLLIN},
			{.fd = v.st[0].fd, .events = POLLIN},
			{.fd = v.st[1].fd, .events = POLLIN},
		};

		if (poll(pfd, ARRAY_SIZE(pfd), -1) < 0) {
			if (errno == EINTR)
				continue;
			r = nsb_error_set(e, nsb_negerrno(), "supervise", "wait for the sandbox");
			goto fatal;
		}

		if (pfd[1].revents)
			read_setup_error(sb->err_rd, &child_err, &got, &err_open);

		if (pfd[0].revents) {
			struct signalfd_siginfo si;
			while (read(sfd, &si, sizeof(si)) == sizeof(si))
				if (si.ssi_signo != SIGCHLD && !reaped)
					signal_init(sb, (int)si.ssi_signo);
		}

		if (pfd[3].revents) {
			uint64_t ticks;
			if (read(tfd, &ticks, sizeof(ticks)) == sizeof(ticks) && !reaped) {
				if (!timed_out) {
					/* The deadline: SIGTERM to the payload (init
					 * forwards it), SIGKILL after the grace. */
					timed_out = true;
					signal_init(sb, SIGTERM);
					if (arm(tfd, o->kill_after_ms) < 0)
						kill_all(&v);
				} else if (!killed) {
					killed = true;
					kill_all(&v);
				}
			}
		}

		for (int i = 0; i < 2; i++)
			if (pfd[4 + i].revents && v.st[i].fd >= 0) {
				r = pump(&v, &v.st[i]);
				if (r < 0) {
					nsb_error_set(e, r, "supervise", "keep the %s output",
						      v.st[i].name);
					goto fatal;
				}
			}

		if (!reaped) {
			pid_t p = wait4(sb->pid, &status, WNOHANG, &ru);
			if (p == sb->pid)
				reaped = true;
			else if (p < 0 && errno != EINTR) {
				r = nsb_error_set(e, nsb_negerrno(), "supervise",
						  "reap the sandbox");
				goto fatal;
			}
		}
	}

	/* Anything init managed to send before dying is in the pipe now. */
	while (err_open)
		read_setup_error(sb->err_rd, &child_err, &got, &err_open);

	res->cpu_user_ms = tv_ms(&ru.ru_utime);
	res->cpu_sys_ms = tv_ms(&ru.ru_stime);
	if (o->pipe_output) {
		res->stdout_bytes = (int64_t)v.st[0].total;
		res->stderr_bytes = (int64_t)v.st[1].total;
		res->stdout_truncated = v.st[0].truncated;
		res->stderr_truncated = v.st[1].truncated;
	}
	free(v.buf);

	if (got == sizeof(child_err)) {
		child_err.stage[sizeof(child_err.stage) - 1] = '\0';
		child_err.message[sizeof(child_err.message) - 1] = '\0';
		child_err.hint[sizeof(child_err.hint) - 1] = '\0';
		res->has_setup_error = true;
		res->setup_error = child_err;
		if (strcmp(child_err.stage, NSB_STAGE_RESOLVE) == 0 ||
		    strcmp(child_err.stage, NSB_STAGE_EXEC) == 0)
			res->status = NSB_STATUS_EXEC_FAILED;
		else
			res->status = NSB_STATUS_SETUP_FAILED;
		return 0;
	}

	/* The payload's own wait status, if init lived to send it. */
	int pstatus;
	bool have = read(sb->status_rd, &pstatus, sizeof(pstatus)) == sizeof(pstatus);

	if (timed_out) {
		res->status = NSB_STATUS_TIMED_OUT;
		res->timed_out = true;
		res->exit_code_set = true;
		res->exit_code = NSB_EXIT_CODE_TIMED_OUT;
		if (have && WIFSIGNALED(pstatus))
			res->signal = WTERMSIG(pstatus);
		else if (!have && WIFSIGNALED(status))
			res->signal = WTERMSIG(status);
		res->reason =
			killed ? "wall-clock timeout: SIGTERM, then SIGKILL after the grace period"
			       : "wall-clock timeout: stopped by SIGTERM";
		return 0;
	}
	if (have) {
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

fatal:
	kill_all(&v);
	while (!reaped && waitpid(sb->pid, NULL, 0) < 0 && errno == EINTR)
		;
	nsb_closep(&v.st[0].fd);
	nsb_closep(&v.st[1].fd);
	free(v.buf);
	return r;
}
