// SPDX-License-Identifier: GPL-2.0-or-later
/* init: run by pid 1 of the sandbox from clone until it exits: attach, hide, build, lock down, start the payload, wait. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/idmap.h"
#include "base/exitcode.h"
#include "base/trim.h"
#include "base/reap.h"
#include "sandbox/init.h"
#include "sandbox/init_build.h"
#include "sandbox/payload.h"
#include "sandbox/scrub.h"
#include "seccomp/filter.h"
#include "base/sigforward.h"
#include "base/util.h"

/* Close every fd >= 3 except those listed (n <= 12).  Returns 0 or -errno. */
int nsb_init_close_all_except(const int *keep, size_t n)
{
	int sorted[12];
	unsigned lo = 3;

	if (n > ARRAY_SIZE(sorted))
		return -E2BIG;
	memcpy(sorted, keep, n * sizeof(int));
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			int t = sorted[j];
			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		if (sorted[i] < (int)lo)
			continue;
		if ((unsigned)sorted[i] > lo && syscall(SYS_close_range, lo, sorted[i] - 1, 0) < 0)
			return nsb_negerrno();
		lo = (unsigned)sorted[i] + 1;
	}
	if (syscall(SYS_close_range, lo, ~0U, 0) < 0)
		return nsb_negerrno();
	return 0;
}

static void send_error(int fd, const struct nsb_error *e)
{
	/* One write of a struct smaller than PIPE_BUF is atomic. */
	ssize_t n;
	do
		n = write(fd, e, sizeof(*e));
	while (n < 0 && errno == EINTR);
}

_noreturn_ void nsb_init_fail(const struct nsb_init_args *a, const struct nsb_error *e, int code)
{
	send_error(a->err_wr, e);
	_exit(code);
}

static int exit_code_of(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return NSB_EXIT_NSBOX;
}

/*
 * The supervisor's death kills the sandbox, inherited descriptors are gone,
 * and the uid/gid maps are written.  Failures before the descriptors are
 * sorted _exit(125) without a report: the supervisor is gone, or the pipe
 * is not ours yet.
 */
static void init_attach(const struct nsb_init_args *a)
{
	struct nsb_error e = {0};
	int keep[] = {a->sync_rd,
		      a->err_wr,
		      a->status_wr,
		      a->stdout_wr,
		      a->stderr_wr,
		      a->stdin_rd,
		      a->pty_wr,
		      a->overlay_wr,
		      a->net_wr,
		      a->plan->overlay_store ? a->plan->overlay_store_fd : -1,
		      a->plan->etc_snapshot ? a->plan->etc_snapshot_fd : -1};
	struct pollfd alive = {.fd = a->status_wr, .events = POLLOUT};
	char go;
	int r;

	/* If the supervisor dies, so does the sandbox: init's death takes the
	 * whole PID namespace with it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		_exit(NSB_EXIT_NSBOX);

	/* The result fd, and anything else the caller leaked, never enters. */
	r = nsb_init_close_all_except(keep, ARRAY_SIZE(keep));
	if (r < 0) {
		nsb_error_set(&e, r, NSB_STAGE_FDS, "close inherited file descriptors");
		nsb_init_fail(a, &e, NSB_EXIT_NSBOX);
	}
	/* A supervisor that died before the prctl above sent no signal, but
	 * its end of the status pipe is closed: POLLERR. */
	if (poll(&alive, 1, 0) != 1 || (alive.revents & (POLLERR | POLLHUP | POLLNVAL)))
		_exit(NSB_EXIT_NSBOX);

	/* Our own ids only, which needs no privilege outside (idmap.h); done
	 * here rather than by the supervisor, nothing waits on a handshake.
	 * A Landlock run has no user namespace to map. */
	r = a->plan->isolation == NSB_ISO_LANDLOCK
		    ? 0
		    : nsb_userns_write_maps(0, a->plan->uid, a->plan->gid, &e);
	if (r < 0)
		nsb_init_fail(a, &e, NSB_EXIT_NSBOX);

	/* Only after the clone fallback: the supervisor must move init into
	 * the run's cgroup before anything runs.  EOF means it gave up. */
	if (a->sync_rd < 0)
		return;
	do
		r = (int)read(a->sync_rd, &go, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		_exit(NSB_EXIT_NSBOX);
	close(a->sync_rd);
}

/* Nothing of the host left readable in init's own /proc entries. */
static int init_hide(struct nsb_error *e)
{
	/* Only after the maps are written: a non-dumpable process's /proc
	 * files belong to root, its own uid_map included. */
	if (prctl(PR_SET_DUMPABLE, 0) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_INIT, "make init non-dumpable");
	nsb_scrub_environment();
	return nsb_scrub_cmdline(e);
}

/* The supervisor blocked these before clone; keep them blocked and read
 * them through a signalfd.  Returns the signalfd. */
static int init_signals(struct nsb_error *e)
{
	sigset_t mask;
	int sfd;

	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, NSB_SIG_TRIM);
	for (size_t i = 0; i < ARRAY_SIZE(nsb_forwarded_signals); i++)
		sigaddset(&mask, nsb_forwarded_signals[i]);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_INIT, "block signals");
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_INIT, "create signalfd");
	return sfd;
}

/* After the fork: init lets go of every stream, so that EOF follows the payload. */
static void init_let_go(const struct nsb_init_args *a, int slave)
{
	/* From here on, EOF on the error pipe means the payload's exec worked;
	 * EOF on the output pipes, that the payload and all it started are gone. */
	close(a->err_wr);
	/* init holds no stream end: EOF and EPIPE must follow the payload. */
	const int ends[] = {a->stdout_wr, a->stderr_wr, a->stdin_rd, slave};
	for (size_t i = 0; i < ARRAY_SIZE(ends); i++)
		if (ends[i] >= 0)
			close(ends[i]);
	/* Nor the caller's own stdio (a host file, perhaps): closed.  init
	 * never uses them, and opens nothing from here on that could take
	 * their numbers (one call, where /dev/null in their place took five). */
	syscall(SYS_close_range, 0, 2, 0);
}

/*
 * The payload has ended: kill whatever it left (init is the one process
 * kill(-1) spares), reap it all, then report the payload's exact status and
 * the CPU time of everything reaped, and exit.  After the report nothing of
 * the command runs any more (init.h).
 */
_noreturn_ static void finish(const struct nsb_init_args *a, int status)
{
	struct nsb_init_final fin = {.status = status};
	struct rusage self, kids;
	ssize_t w;

	/* Without a PID namespace, kill(-1) would reach every process of
	 * the caller's uid on the host: a Landlock run kills what descends
	 * from init (its subreaper) instead. */
	if (a->plan->isolation == NSB_ISO_LANDLOCK) {
		nsb_reap_descendants();
	} else {
		/* No child left means no process left: every other one in the
		 * namespace descends from init, and orphans come back to it.
		 * Then kill(-1), which walks every process of the host, is
		 * spared. */
		pid_t left;
		while ((left = waitpid(-1, NULL, WNOHANG)) > 0)
			;
		if (left == 0 || errno != ECHILD) {
			kill(-1, SIGKILL);
			while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
				;
		}
	}
	if (getrusage(RUSAGE_SELF, &self) == 0 && getrusage(RUSAGE_CHILDREN, &kids) == 0) {
		timeradd(&self.ru_utime, &kids.ru_utime, &fin.utime);
		timeradd(&self.ru_stime, &kids.ru_stime, &fin.stime);
	}
	do
		w = write(a->status_wr, &fin, sizeof(fin));
	while (w < 0 && errno == EINTR);
	_exit(exit_code_of(status));
}

/* Reap everything (orphans are re-parented to us); on the payload's end,
 * finish. */
_waiting_ static void reap_children(const struct nsb_init_args *a, pid_t payload)
{
	for (;;) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);
		if (pid <= 0)
			return;
		if (pid == payload)
			finish(a, status);
	}
}

/* init's filter is on: each madvise of the trim only where it would
 * pass (a profile may refuse it, or kill for it). */
_waiting_ static bool may_madvise(const void *ud, uintptr_t addr, size_t len)
{
	struct seccomp_data d = {
		.nr = __NR_madvise,
		.arch = nsb_seccomp_arch(),
		.args = {addr, len, MADV_DONTNEED},
	};

	return nsb_seccomp_allows(ud, &d);
}

/* The supervisor's NSB_SIG_TRIM: the sandbox lives on, init only waits
 * (base/trim.h).  Once: the payload can send it too. */
_waiting_ static void init_trim(const struct nsb_init_args *a)
{
	const struct nsb_bpf *b = a->plan->seccomp;
	static bool trimmed;

	if (trimmed)
		return;
	trimmed = true;
	if (!b) {
		nsb_trim(true, NULL, NULL);
		return;
	}
	/* malloc_trim's calls (madvise, brk) cannot be asked one by one:
	 * only where the filter lets both through whatever their arguments.
	 * The text and stack ranges are asked each, unless madvise is so. */
	bool any = nsb_seccomp_allows_any_args(b, __NR_madvise);
	nsb_trim(any && nsb_seccomp_allows_any_args(b, __NR_brk), any ? NULL : may_madvise, b);
}

/* init's life after the fork: forward signals, reap, exit with the payload. */
_noreturn_ _waiting_ static void init_wait(const struct nsb_init_args *a, int sfd, pid_t payload)
{
	for (;;) {
		struct signalfd_siginfo si;
		ssize_t n = read(sfd, &si, sizeof(si));

		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(si))
			_exit(NSB_EXIT_NSBOX);
		if ((int)si.ssi_signo == NSB_SIG_TRIM) {
			init_trim(a);
			continue;
		}
		if (si.ssi_signo != SIGCHLD) {
			/* Every forwarded signal terminates by default.  A stopped
			 * payload would keep it pending forever: SIGCONT after it,
			 * to the payload and its process group (a stopped pipeline
			 * of a shell payload), so that it acts on it now. */
			kill(payload, (int)si.ssi_signo);
			kill(payload, SIGCONT);
			kill(-payload, SIGCONT);
			continue;
		}
		reap_children(a, payload);
	}
}

/* Up to the payload's start (the payload, its signalfd, the pty's slave), in
 * a frame of its own: inlined, its 9 KiB would stay on the stack under the
 * whole wait, where no trim gives them back (base/trim.h). */
static __attribute__((noinline)) pid_t init_start(const struct nsb_init_args *a, int *ret_sfd,
						  int *ret_slave)
{
	struct nsb_error e = {0};
	pid_t payload;
	int sfd, slave = -1;

	init_attach(a);
	if (init_hide(&e) < 0 || nsb_init_build(a, &slave, &e) < 0)
		nsb_init_fail(a, &e, NSB_EXIT_NSBOX);
	sfd = init_signals(&e);
	if (sfd < 0)
		nsb_init_fail(a, &e, NSB_EXIT_NSBOX);
	payload = nsb_payload_start(a, sfd, slave);
	if (payload < 0) {
		nsb_error_set(&e, payload, NSB_STAGE_INIT, "fork the payload");
		nsb_init_fail(a, &e, NSB_EXIT_NSBOX);
	}
	*ret_sfd = sfd, *ret_slave = slave;
	return payload;
}

_noreturn_ void nsb_init_main(const struct nsb_init_args *a)
{
	int sfd, slave;
	pid_t payload = init_start(a, &sfd, &slave);

	init_let_go(a, slave);
	init_wait(a, sfd, payload);
}
