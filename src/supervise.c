// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "fdpass.h"
#include "init.h"
#include "ptyrelay.h"
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
	bool no_splice;	  /* splice(2) does not work between fd and dest */
	char last;	  /* last byte passed on, for the marker's newline */
	struct nsb_captured *cap;
};

/* The caller's stdin on its way in: to the stdin pipe, or to the pty master. */
struct inpump {
	int src; /* the caller's fd 0 (never closed here), -1 once at EOF */
	int dst; /* the pipe's write end or a dup of the master (O_NONBLOCK), -1 when done */
	bool to_pty;
	bool no_splice; /* the source is not one splice(2) reads (a terminal) */
	bool wait_room; /* splice found the pipe full */
	char *buf;
	size_t off, len; /* pending bytes: buf[off..len) */
};

struct sv {
	struct nsb_sandbox *sb;
	const struct nsb_supervise_opts *o;
	struct stream st[2];
	char *buf;
	struct inpump in;
	struct nsb_tty tty;
	int master; /* the pty master (also st[0].fd until EOF), -1 */
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

/*
 * Without a limit or --capture the bytes need not be seen: move them from the
 * pipe to the caller's descriptor inside the kernel.  Returns false when
 * splice cannot serve this pair (then read/write do, from now on).
 */
static bool pump_splice(struct sv *v, struct stream *s)
{
	ssize_t n;

	if (s->no_splice || s->dest_broken || v->o->capture || v->o->max_output != UINT64_MAX)
		return false;
	n = splice(s->fd, NULL, s->dest, NULL, PUMP_BUF, SPLICE_F_MOVE);
	if (n < 0 && errno == EINTR)
		return true;
	if (n < 0 && (errno == EINVAL || errno == EBADF)) {
		/* e.g. an O_APPEND file or a terminal as dest */
		s->no_splice = true;
		return false;
	}
	if (n < 0) {
		s->dest_broken = true; /* read and count the rest */
		return false;
	}
	if (n == 0) {
		nsb_closep(&s->fd);
		return true;
	}
	s->total += (uint64_t)n;
	s->passed += (uint64_t)n;
	return true;
}

/* Read what is there; pass or keep up to the limit, count the rest. */
static int pump(struct sv *v, struct stream *s)
{
	if (pump_splice(v, s))
		return 0;

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

static void in_read(struct inpump *in)
{
	struct termios tm;
	ssize_t n;

	/* A file into the stdin pipe: in the kernel, without a copy here.
	 * (EINVAL: a source splice cannot read, such as a terminal.) */
	if (!in->to_pty && !in->no_splice) {
		n = splice(in->src, NULL, in->dst, NULL, PUMP_BUF,
			   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		/* EAGAIN: the pipe is full; wait until it has room. */
		in->wait_room = n < 0 && errno == EAGAIN;
		if (n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN)))
			return;
		if (n < 0 && errno == EINVAL)
			in->no_splice = true;
		else
			goto end;
	}
	n = read(in->src, in->buf, PUMP_BUF);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n > 0) {
		in->off = 0;
		in->len = (size_t)n;
		return;
	}
end:
	/* End of input (or EIO: an orphaned background job may not read its
	 * terminal).  A pipe is closed so the payload sees EOF; a terminal in
	 * canonical mode gets its EOF character once, as if typed. */
	in->src = -1;
	if (!in->to_pty)
		nsb_closep(&in->dst);
	else if (tcgetattr(in->dst, &tm) == 0 && (tm.c_lflag & ICANON)) {
		in->buf[0] = (char)tm.c_cc[VEOF];
		in->off = 0;
		in->len = 1;
	}
}

static void in_write(struct inpump *in)
{
	ssize_t w = write(in->dst, in->buf + in->off, in->len - in->off);

	if (w < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (w < 0) {
		/* EPIPE: the payload closed its stdin; nothing more to pass. */
		nsb_closep(&in->dst);
		in->src = -1;
		in->len = 0;
		return;
	}
	in->off += (size_t)w;
	if (in->off < in->len)
		return;
	in->off = in->len = 0;
	if (in->src < 0 && !in->to_pty)
		nsb_closep(&in->dst);
}

/* The master arrived from init: it becomes the output stream and the input's
 * destination. */
static void take_master(struct sv *v, int master)
{
	int dup_fd;

	v->master = master;
	/* Ours alone (init closed its copy): non-blocking suits the loop. */
	fcntl(master, F_SETFL, O_NONBLOCK);
	v->st[0].fd = master;
	dup_fd = fcntl(master, F_DUPFD_CLOEXEC, 3);
	if (dup_fd >= 0 && v->in.src >= 0)
		v->in.dst = dup_fd;
	else if (dup_fd >= 0)
		close(dup_fd);
	nsb_tty_copy_winsize(master);
}

/* Signals that only the pty relay handles. */
static bool tty_signal(struct sv *v, int sig)
{
	/* The output pump closes the master at EOF. */
	bool open_ = v->master >= 0 && v->st[0].fd == v->master;

	switch (sig) {
	case SIGWINCH:
		if (open_)
			nsb_tty_copy_winsize(v->master);
		return true;
	case SIGTSTP:
		nsb_tty_suspend(&v->tty);
		return true;
	case SIGCONT:
		/* fg: raw again (bg: the terminal stays the shell's). */
		nsb_tty_raw(&v->tty);
		if (open_)
			nsb_tty_copy_winsize(v->master);
		return true;
	default:
		return false;
	}
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
	struct sv v = {.sb = sb, .o = o, .master = -1};
	const struct nsb_stdio *io = o->stdio;
	struct nsb_error child_err;
	size_t got = 0;
	bool err_open = true, reaped = false, timed_out = false, killed = false;
	struct rusage ru;
	sigset_t mask;
	int status = 0, r = 0;
	_cleanup_close_ int sfd = -1, tfd = -1;

	memset(&child_err, 0, sizeof(child_err));
	memset(&ru, 0, sizeof(ru));
	v.tty.fd = -1;
	v.st[0] = (struct stream){.fd = sb->stdout_rd, .dest = 1, .name = "stdout", .cap = out};
	v.st[1] = (struct stream){.fd = sb->stderr_rd, .dest = 2, .name = "stderr", .cap = err};
	v.in = (struct inpump){.src = -1, .dst = sb->stdin_wr, .to_pty = io->pty};
	if (io->how[0] == NSB_STDIO_PIPE)
		v.in.src = 0;
	else if (io->pty && !io->closed[0])
		v.in.src = 0; /* relayed once the master is here */
	/* The pumps own the pipe ends from here on. */
	sb->stdout_rd = sb->stderr_rd = sb->stdin_wr = -1;

	nsb_supervise_sigset(&mask);
	if (io->pty) {
		/* Window changes, and ^Z/fg from outside, for the terminal's
		 * sake; SIGTTIN and SIGTTOU keep their default (stop): that
		 * is job control working on a background nsbox. */
		sigaddset(&mask, SIGWINCH);
		sigaddset(&mask, SIGTSTP);
		sigaddset(&mask, SIGCONT);
		sigprocmask(SIG_BLOCK, &mask, NULL);
		if (io->in_tty && nsb_tty_open(&v.tty, 0) == 0)
			nsb_tty_raw(&v.tty);
	}
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		r = nsb_error_set(e, nsb_negerrno(), "supervise", "create signalfd");
		goto fatal;
	}
	v.buf = malloc(PUMP_BUF);
	v.in.buf = malloc(PUMP_BUF);
	if (!v.buf || !v.in.buf) {
		r = nsb_error_set(e, ENOMEM, "supervise", "allocate the stdio buffers");
		goto fatal;
	}
	if (o->timeout_ms) {
		tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (tfd < 0 || arm(tfd, o->timeout_ms) < 0) {
			r = nsb_error_set(e, nsb_negerrno(), "supervise", "arm the timeout");
			goto fatal;
		}
	}

	/* Until init is reaped and both output streams are drained. */
	while (!reaped || v.st[0].fd >= 0 || v.st[1].fd >= 0 || sb->pty_sock >= 0) {
		struct pollfd pfd[9] = {
			{.fd = sfd, .events = POLLIN},
			{.fd = err_open ? sb->err_rd : -1, .events = POLLIN},
			{.fd = reaped ? -1 : sb->pidfd, .events = POLLIN},
			{.fd = tfd, .events = POLLIN},
			{.fd = v.st[0].fd, .events = POLLIN},
			{.fd = v.st[1].fd, .events = POLLIN},
			{.fd = sb->pty_sock, .events = POLLIN},
			{.fd = v.in.dst >= 0 && v.in.len == 0 && !v.in.wait_room ? v.in.src : -1,
			 .events = POLLIN},
			{.fd = v.in.len > 0 || v.in.wait_room ? v.in.dst : -1, .events = POLLOUT},
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
				if (si.ssi_signo != SIGCHLD && !tty_signal(&v, (int)si.ssi_signo) &&
				    !reaped)
					signal_init(sb, (int)si.ssi_signo);
		}

		if (pfd[6].revents) {
			int m = nsb_fd_recv(sb->pty_sock);
			if (m >= 0 || (m != -EAGAIN && m != -EINTR))
				nsb_closep(&sb->pty_sock);
			if (m >= 0)
				take_master(&v, m);
		}
		if (pfd[7].revents && v.in.src >= 0)
			in_read(&v.in);
		if (pfd[8].revents && v.in.dst >= 0 && v.in.wait_room)
			v.in.wait_room = false; /* room again (or an error splice will see) */
		else if (pfd[8].revents && v.in.dst >= 0)
			in_write(&v.in);

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
			if (p == sb->pid) {
				reaped = true;
				/* Nobody left to read stdin. */
				nsb_closep(&v.in.dst);
				v.in.src = -1;
			} else if (p < 0 && errno != EINTR) {
				r = nsb_error_set(e, nsb_negerrno(), "supervise",
						  "reap the sandbox");
				goto fatal;
			}
		}
	}

	/* Anything init managed to send before dying is in the pipe now. */
	while (err_open)
		read_setup_error(sb->err_rd, &child_err, &got, &err_open);
	/* The caller's terminal as it was, whatever ended the run. */
	nsb_tty_restore(&v.tty);

	res->cpu_user_ms = tv_ms(&ru.ru_utime);
	res->cpu_sys_ms = tv_ms(&ru.ru_stime);
	/* Counted wherever the stream passed through the supervisor (with a
	 * pty, stdout and stderr are one stream: the terminal's, as stdout). */
	if (io->how[1] == NSB_STDIO_PIPE || io->how[1] == NSB_STDIO_PTY) {
		res->stdout_bytes = (int64_t)v.st[0].total;
		res->stdout_truncated = v.st[0].truncated;
	}
	if (io->how[2] == NSB_STDIO_PIPE || io->how[2] == NSB_STDIO_PTY) {
		res->stderr_bytes = (int64_t)v.st[1].total;
		res->stderr_truncated = v.st[1].truncated;
	}
	free(v.buf);
	free(v.in.buf);

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
	nsb_tty_restore(&v.tty);
	kill_all(&v);
	while (!reaped && waitpid(sb->pid, NULL, 0) < 0 && errno == EINTR)
		;
	nsb_closep(&v.st[0].fd);
	nsb_closep(&v.st[1].fd);
	nsb_closep(&v.in.dst);
	free(v.buf);
	free(v.in.buf);
	return r;
}
