// SPDX-License-Identifier: GPL-2.0-or-later
/* The supervisor's event loop: signals, timeout, errors, stdio pumps, pty, reaping.  Supervisor. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
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
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/fdpass.h"
#include "base/macro.h"
#include "base/trim.h"
#include "sandbox/init.h"
#include "supervisor/ptyrelay.h"
#include "supervisor/pump.h"
#include "base/sigforward.h"
#include "supervisor/supervise.h"

void nsb_supervise_sigset(sigset_t *ret)
{
	sigemptyset(ret);
	sigaddset(ret, SIGCHLD);
	for (size_t i = 0; i < ARRAY_SIZE(nsb_forwarded_signals); i++)
		sigaddset(ret, nsb_forwarded_signals[i]);
}

struct sv {
	struct nsb_sandbox *sb;
	const struct nsb_supervise_opts *o;
	struct nsb_outpump st[2];
	char *buf;
	struct nsb_inpump in;
	struct nsb_tty tty;
	int master; /* the pty master (also st[0].fd until EOF), -1 */
	int sfd;    /* signalfd */
	int tfd;    /* the timeout's timerfd, -1 without --timeout */
	int wfd;    /* the watch's timerfd (periodic), -1 without a watch */

	struct nsb_error child_err; /* the sandbox's setup error, as read so far */
	size_t got;		    /* bytes of child_err read */
	bool err_open;		    /* the error pipe may still say something */

	struct nsb_init_final fin; /* init's final report, when final */
	bool final;		   /* it arrived: the command and all it started are gone */
	bool status_eof;	   /* init closed the status pipe without a report */
	bool waited;		   /* init was reaped by wait4: status and ru are init's */
	bool reaped;		   /* init is gone: stop waiting for it */
	bool timed_out;		   /* the deadline fired: SIGTERM sent */
	bool killed;		   /* the grace ran out too: SIGKILL sent */
	bool trimmed;		   /* nsb_trim has run (or never will) */
	int64_t trim_at_ms;	   /* when it runs if the sandbox still lives (nsb_mono_ms) */
	int64_t trim_delay_ms;	   /* the last wait for it; doubled when put off */
	int status;		   /* init's wait status */
	struct rusage ru;	   /* init's and its descendants' CPU time */
};

_waiting_ static void signal_init(struct nsb_sandbox *sb, int sig)
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

static void read_setup_error(struct sv *v)
{
	ssize_t n =
		read(v->sb->err_rd, (char *)&v->child_err + v->got, sizeof(v->child_err) - v->got);
	if (n > 0)
		v->got += (size_t)n;
	else if (n == 0 || (errno != EINTR && errno != EAGAIN))
		v->err_open = false;
	if (v->got == sizeof(v->child_err))
		v->err_open = false;
}

/* ---- one handler per event source ------------------------------------------ */

/* Forward what the caller sends to init; the pty relay keeps its own. */
static void on_signal(struct sv *v)
{
	struct signalfd_siginfo si;

	while (read(v->sfd, &si, sizeof(si)) == sizeof(si))
		if (si.ssi_signo != SIGCHLD && !tty_signal(v, (int)si.ssi_signo) && !v->reaped)
			signal_init(v->sb, (int)si.ssi_signo);
}

static void on_timer(struct sv *v)
{
	uint64_t ticks;

	if (read(v->tfd, &ticks, sizeof(ticks)) != sizeof(ticks) || v->reaped)
		return;
	if (!v->timed_out) {
		/* The deadline: SIGTERM to the payload (init forwards it),
		 * SIGKILL after the grace. */
		v->timed_out = true;
		signal_init(v->sb, SIGTERM);
		if (arm(v->tfd, v->o->kill_after_ms) < 0)
			kill_all(v);
	} else if (!v->killed) {
		v->killed = true;
		kill_all(v);
	}
}

/* init sends the pty master (with --pty), then the seccomp listener (when
 * the filter has one), over pty_sock, and closes it. */
static int on_pty_sock(struct sv *v, struct nsb_error *e)
{
	int m = nsb_fd_recv(v->sb->pty_sock);

	if (m < 0 && m != -EAGAIN && m != -EINTR)
		nsb_closep(&v->sb->pty_sock);
	if (m < 0)
		return 0;
	if (v->o->stdio->pty && v->master < 0) {
		take_master(v, m);
		return 0;
	}
	if (v->o->notify && !v->o->notify->got)
		return nsb_notify_take(v->o->notify, m, e);
	close(m); /* nothing else is expected */
	return 0;
}

static void on_stdin(struct sv *v, short src_revents, short dst_revents)
{
	if (src_revents && v->in.src >= 0)
		nsb_inpump_read(&v->in);
	if (dst_revents && v->in.dst >= 0 && v->in.wait_room)
		v->in.wait_room = false; /* room again (or an error splice will see) */
	else if (dst_revents && v->in.dst >= 0)
		nsb_inpump_write(&v->in);
}

static int on_output(struct sv *v, struct nsb_outpump *s, struct nsb_error *e)
{
	int r = nsb_outpump_run(s, v->buf, v->o->max_output, v->o->capture);

	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_SUPERVISE, "keep the %s output", s->name);
	return 0;
}

/* init is gone or has nothing more to say: stop waiting for it. */
static void done_with_init(struct sv *v)
{
	v->reaped = true;
	/* Nobody left to read stdin. */
	nsb_closep(&v->in.dst);
	v->in.src = -1;
}

/* init's final report (one atomic write), or EOF when it died without. */
static void read_final(struct sv *v)
{
	ssize_t n = read(v->sb->status_rd, &v->fin, sizeof(v->fin));

	if (n == (ssize_t)sizeof(v->fin)) {
		v->final = true;
	} else if (n >= 0 || (errno != EINTR && errno != EAGAIN)) {
		v->status_eof = true;
	}
}

/* Without blocking: a pidfd or SIGCHLD may wake the loop for other children. */
static int reap(struct sv *v, struct nsb_error *e)
{
	pid_t p = wait4(v->sb->pid, &v->status, WNOHANG, &v->ru);

	if (p == v->sb->pid) {
		v->waited = true;
		done_with_init(v);
	} else if (p < 0 && errno != EINTR) {
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SUPERVISE, "reap the sandbox");
	}
	return 0;
}

/* ---- setup, loop, verdict ---------------------------------------------------- */

/* The pumps' buffers, the output's and the input's: static storage whose
 * pages only a pump that cannot splice ever touches (a malloc of their
 * size was a mapping of its own: one mmap and one munmap a launch).  One
 * supervision at a time per process. */
static char pump_bufs[2 * NSB_PUMP_BUF] _large_bss_("nsb_pump");

/* Signals, the caller's terminal, buffers, the deadline. */
static int sv_start(struct sv *v, struct nsb_error *e)
{
	const struct nsb_stdio *io = v->o->stdio;
	sigset_t mask;

	nsb_supervise_sigset(&mask);
	if (io->pty) {
		/* Window changes, and ^Z/fg from outside, for the terminal's
		 * sake; SIGTTIN and SIGTTOU keep their default (stop): that
		 * is job control working on a background nsbox. */
		sigaddset(&mask, SIGWINCH);
		sigaddset(&mask, SIGTSTP);
		sigaddset(&mask, SIGCONT);
		sigprocmask(SIG_BLOCK, &mask, NULL);
		if (io->in_tty && nsb_tty_open(&v->tty, 0) == 0)
			nsb_tty_raw(&v->tty);
	}
	/* A sandbox still alive after NSB_TRIM_AFTER_MS: the supervisor
	 * gives back the setup's pages while it waits (base/trim.h). */
	v->trim_delay_ms = NSB_TRIM_AFTER_MS;
	v->trim_at_ms = nsb_mono_ms() + v->trim_delay_ms;
	v->sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (v->sfd < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SUPERVISE, "create signalfd");
	v->buf = pump_bufs;
	v->in.buf = pump_bufs + NSB_PUMP_BUF;
	if (v->o->timeout_ms) {
		v->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (v->tfd < 0 || arm(v->tfd, v->o->timeout_ms) < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SUPERVISE,
					     "arm the timeout");
	}
	if (v->o->watch) {
		struct itimerspec its = {0};
		its.it_value.tv_sec = its.it_interval.tv_sec = (time_t)(v->o->watch->ms / 1000);
		its.it_value.tv_nsec = its.it_interval.tv_nsec =
			(long)(v->o->watch->ms % 1000) * 1000000;
		v->wfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (v->wfd < 0 || timerfd_settime(v->wfd, 0, &its, NULL) < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SUPERVISE,
					     "arm the overlay store's watch");
	}
	return 0;
}

/* --overlay-store's bound: past it, the run ends at once (the record says
 * disk.full, from the same look). */
static void on_watch(struct sv *v)
{
	uint64_t ticks;

	if (read(v->wfd, &ticks, sizeof(ticks)) != sizeof(ticks) || v->reaped || v->killed)
		return;
	if (v->o->watch->fn(v->o->watch->ud) > 0) {
		v->killed = true;
		kill_all(v);
	}
}

/* The sandbox has lived NSB_TRIM_AFTER_MS: the supervisor gives back
 * the setup's pages, and has init do the same (base/trim.h).  Not while
 * every CPU is taken: the page-table work and the faults that follow would
 * be paid in the CPU time other tasks wait for, to save memory that is not
 * what is short.  It is put off, each time twice as long. */
_waiting_ static void trim(struct sv *v)
{
	if (nsb_cpu_saturated()) {
		v->trim_delay_ms = v->trim_delay_ms >= NSB_TRIM_RETRY_MAX_MS / 2
					   ? NSB_TRIM_RETRY_MAX_MS
					   : 2 * v->trim_delay_ms;
		v->trim_at_ms = nsb_mono_ms() + v->trim_delay_ms;
		return;
	}
	v->trimmed = true;
	nsb_trim(true, NULL, NULL);
	if (!v->reaped)
		signal_init(v->sb, NSB_SIG_TRIM);
}

/* poll's timeout: none once trimmed, else until trim_at_ms. */
_waiting_ static int trim_wait(const struct sv *v)
{
	int64_t ms;

	if (v->trimmed)
		return -1;
	ms = v->trim_at_ms - nsb_mono_ms();
	return ms < 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms;
}

/* Until init is reaped and both output streams are drained. */
_waiting_ static int sv_loop(struct sv *v, struct nsb_error *e)
{
	struct nsb_sandbox *sb = v->sb;
	int r;

	while (!v->reaped || v->st[0].fd >= 0 || v->st[1].fd >= 0 || sb->pty_sock >= 0) {
		struct nsb_inpump *in = &v->in;
		struct nsb_notify *nt = v->o->notify;
		struct pollfd pfd[12] = {
			{.fd = v->sfd, .events = POLLIN},
			{.fd = v->err_open ? sb->err_rd : -1, .events = POLLIN},
			{.fd = v->reaped ? -1 : sb->pidfd, .events = POLLIN},
			{.fd = v->tfd, .events = POLLIN},
			{.fd = v->st[0].fd, .events = POLLIN},
			{.fd = v->st[1].fd, .events = POLLIN},
			{.fd = sb->pty_sock, .events = POLLIN},
			{.fd = in->dst >= 0 && in->len == 0 && !in->wait_room ? in->src : -1,
			 .events = POLLIN},
			{.fd = in->len > 0 || in->wait_room ? in->dst : -1, .events = POLLOUT},
			{.fd = v->final || v->status_eof ? -1 : sb->status_rd, .events = POLLIN},
			{.fd = nt ? nt->fd : -1, .events = POLLIN},
			{.fd = v->reaped ? -1 : v->wfd, .events = POLLIN},
		};

		r = poll(pfd, ARRAY_SIZE(pfd), trim_wait(v));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SUPERVISE,
					     "wait for the sandbox");
		}
		if (r == 0 && !v->trimmed) {
			trim(v);
			continue;
		}
		/* First: a refused call waits for its answer. */
		if (pfd[10].revents) {
			r = nsb_notify_serve(nt, e);
			if (r < 0)
				return r;
		}
		if (pfd[1].revents)
			read_setup_error(v);
		if (pfd[0].revents)
			on_signal(v);
		if (pfd[6].revents) {
			r = on_pty_sock(v, e);
			if (r < 0)
				return r;
		}
		on_stdin(v, pfd[7].revents, pfd[8].revents);
		if (pfd[3].revents)
			on_timer(v);
		if (pfd[11].revents)
			on_watch(v);
		for (int i = 0; i < 2; i++)
			if (pfd[4 + i].revents && v->st[i].fd >= 0) {
				r = on_output(v, &v->st[i], e);
				if (r < 0)
					return r;
			}
		if (pfd[9].revents)
			read_final(v);
		/* Only when init may have changed state: its pidfd, or a
		 * signal (SIGCHLD) where there is no pidfd. */
		if (!v->reaped && (pfd[2].revents || pfd[0].revents || sb->pidfd < 0)) {
			r = reap(v, e);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* CPU time and the byte counts of the streams the supervisor saw. */
static void fill_counts(const struct sv *v, struct nsb_result *res)
{
	const struct nsb_stdio *io = v->o->stdio;

	/* wait4's count includes init's own exit; the report, all else. */
	res->cpu_user_ms = tv_ms(v->waited ? &v->ru.ru_utime : &v->fin.utime);
	res->cpu_sys_ms = tv_ms(v->waited ? &v->ru.ru_stime : &v->fin.stime);
	/* Counted wherever the stream passed through the supervisor (with a
	 * pty, stdout and stderr are one stream: the terminal's, as stdout). */
	if (io->how[1] == NSB_STDIO_PIPE || io->how[1] == NSB_STDIO_PTY) {
		res->stdout_bytes = (int64_t)v->st[0].total;
		res->stdout_truncated = v->st[0].truncated;
	}
	if (io->how[2] == NSB_STDIO_PIPE || io->how[2] == NSB_STDIO_PTY) {
		res->stderr_bytes = (int64_t)v->st[1].total;
		res->stderr_truncated = v->st[1].truncated;
	}
}

void nsb_supervise_outcome(const struct nsb_wait_facts *f, struct nsb_result *res)
{
	if (f->setup_error) {
		res->has_setup_error = true;
		res->setup_error = *f->setup_error;
		/* From the other side of the clone: a stage out of range is init's. */
		res->setup_error.stage = nsb_stage_valid(res->setup_error.stage, NSB_STAGE_INIT);
		res->setup_error.message[sizeof(res->setup_error.message) - 1] = '\0';
		res->setup_error.hint[sizeof(res->setup_error.hint) - 1] = '\0';
		/* Only setup_failed and exec_failed stages are set over there. */
		res->status = nsb_stage_status(res->setup_error.stage);
		return;
	}
	if (f->timed_out) {
		res->status = NSB_STATUS_TIMED_OUT;
		res->timed_out = true;
		res->exit_code_set = true;
		res->exit_code = NSB_EXIT_CODE_TIMED_OUT;
		if (f->have_payload && WIFSIGNALED(f->payload_status))
			res->signal = WTERMSIG(f->payload_status);
		else if (!f->have_payload && WIFSIGNALED(f->init_status))
			res->signal = WTERMSIG(f->init_status);
		res->reason =
			f->killed
				? "wall-clock timeout: SIGTERM, then SIGKILL after the grace period"
				: "wall-clock timeout: stopped by SIGTERM";
		return;
	}
	if (f->have_payload) {
		if (WIFEXITED(f->payload_status)) {
			res->status = NSB_STATUS_EXITED;
			res->exit_code_set = true;
			res->exit_code = WEXITSTATUS(f->payload_status);
		} else {
			res->status = NSB_STATUS_SIGNALED;
			res->signal = WTERMSIG(f->payload_status);
		}
		return;
	}
	/* init died without a word: killed from outside, or a bug. */
	if (WIFSIGNALED(f->init_status)) {
		res->status = NSB_STATUS_SIGNALED;
		res->signal = WTERMSIG(f->init_status);
		res->reason = "the sandbox's init was killed; every process inside died with it";
	} else {
		res->status = NSB_STATUS_SETUP_FAILED;
		res->has_setup_error = true;
		nsb_error_setx(&res->setup_error, -EPROTO, NSB_STAGE_INIT,
			       "the sandbox's init exited with status %d before reporting",
			       WIFEXITED(f->init_status) ? WEXITSTATUS(f->init_status) : -1);
	}
}

/* The pumps take the sandbox's pipe ends; stdin is relayed when it is ours. */
static void sv_init(struct sv *v, struct nsb_sandbox *sb, const struct nsb_supervise_opts *o,
		    struct nsb_captured *out, struct nsb_captured *err)
{
	const struct nsb_stdio *io = o->stdio;

	*v = (struct sv){
		.sb = sb, .o = o, .master = -1, .sfd = -1, .tfd = -1, .wfd = -1, .err_open = true};
	v->tty.fd = -1;
	v->st[0] =
		(struct nsb_outpump){.fd = sb->stdout_rd, .dest = 1, .name = "stdout", .cap = out};
	v->st[1] =
		(struct nsb_outpump){.fd = sb->stderr_rd, .dest = 2, .name = "stderr", .cap = err};
	v->in = (struct nsb_inpump){.src = -1, .dst = sb->stdin_wr, .to_pty = io->pty};
	if (io->how[0] == NSB_STDIO_PIPE)
		v->in.src = 0;
	else if (io->pty && !io->closed[0])
		v->in.src = 0; /* relayed once the master is here */
	/* The pumps own the pipe ends from here on. */
	sb->stdout_rd = sb->stderr_rd = sb->stdin_wr = -1;
}

/* Supervising itself failed: nothing of the sandbox may outlive the run. */
static int sv_abort(struct sv *v, int r)
{
	nsb_tty_restore(&v->tty);
	kill_all(v);
	while (!v->reaped && waitpid(v->sb->pid, NULL, 0) < 0 && errno == EINTR)
		;
	nsb_closep(&v->st[0].fd);
	nsb_closep(&v->st[1].fd);
	nsb_closep(&v->in.dst);
	nsb_closep(&v->sfd);
	nsb_closep(&v->tfd);
	nsb_closep(&v->wfd);
	return r;
}

int nsb_supervise(struct nsb_sandbox *sb, const struct nsb_supervise_opts *o,
		  struct nsb_result *res, struct nsb_captured *out, struct nsb_captured *err,
		  struct nsb_error *e)
{
	struct nsb_wait_facts f = {0};
	struct sv v;
	int r;

	sv_init(&v, sb, o, out, err);
	r = sv_start(&v, e);
	if (r >= 0)
		r = sv_loop(&v, e);
	if (r < 0)
		return sv_abort(&v, r);

	/* Anything init managed to send before dying is in the pipe now. */
	while (v.err_open)
		read_setup_error(&v);
	/* The caller's terminal as it was, whatever ended the run. */
	nsb_tty_restore(&v.tty);
	nsb_closep(&v.sfd);
	nsb_closep(&v.tfd);
	nsb_closep(&v.wfd);

	if (v.got == sizeof(v.child_err)) {
		f.setup_error = &v.child_err;
	} else {
		/* The payload's own wait status, if init lived to send it
		 * (init is gone or done: the read cannot block). */
		if (!v.final && !v.status_eof)
			read_final(&v);
		f.have_payload = v.final;
		f.payload_status = v.fin.status;
	}
	fill_counts(&v, res);
	f.timed_out = v.timed_out;
	f.killed = v.killed;
	f.init_status = v.status;
	nsb_supervise_outcome(&f, res);
	return 0;
}
