// SPDX-License-Identifier: GPL-2.0-or-later
/* The payload's stdio wiring, then the sandbox: pipes, clone3, id maps, release.  Supervisor. */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/prefault.h"
#include "sandbox/init.h"
#include "core/namespaces.h"
#include "seccomp/filter.h"
#include "supervisor/spawn.h"
#include "supervisor/userns.h"

#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef PIPEFS_MAGIC
#define PIPEFS_MAGIC 0x50495045
#endif

const char *nsb_stdio_name(enum nsb_stdio_how how)
{
	switch (how) {
	case NSB_STDIO_INHERIT:
		return "inherited";
	case NSB_STDIO_PIPE:
		return "pipe";
	case NSB_STDIO_PTY:
		return "pty";
	case NSB_STDIO_REOPEN:
		return "reopened";
	case NSB_STDIO_CLOSED:
		break;
	}
	return "closed";
}

/*
 * The memory devices (major 1) that the sandbox's /dev has too: the payload
 * gets its own open of the sandbox's node (a read-only bind) instead of the
 * caller's descriptor, whose host inode root could otherwise fchmod.
 */
static const char *memdev_path(dev_t rdev)
{
	if (major(rdev) != 1)
		return NULL;
	switch (minor(rdev)) {
	case 3:
		return "/dev/null";
	case 5:
		return "/dev/zero";
	case 7:
		return "/dev/full";
	case 8:
		return "/dev/random";
	case 9:
		return "/dev/urandom";
	default:
		return NULL;
	}
}

static bool in_foreground(int fd)
{
	pid_t fg = tcgetpgrp(fd);
	return fg >= 0 && fg == getpgrp();
}

/* One stream without a pty: keep it only when it leads to no host inode. */
static int decide_one(int fd, const struct stat *stp, bool pipe_output, struct nsb_stdio *s,
		      struct nsb_error *e)
{
	static const char *const names[] = {"stdin", "stdout", "stderr"};
	struct statfs sfs;
	struct stat st;
	const char *dev;

	if (fd < 0 || fd > 2)
		return -EINVAL;
	/* --capture and --max-output pump both output streams, whatever they are. */
	if (fd > 0 && pipe_output) {
		s->how[fd] = NSB_STDIO_PIPE;
		return 0;
	}
	if (s->closed[fd]) {
		s->how[fd] = NSB_STDIO_CLOSED;
		return 0;
	}
	st = *stp;
	if (S_ISDIR(st.st_mode)) {
		/* A directory handle lets openat(fd, "../x") walk the host tree. */
		nsb_error_setx(e, -EISDIR, NSB_STAGE_USAGE, "fd %d (%s) is a directory", fd,
			       names[fd]);
		return nsb_error_hint(
			e,
			"give the command a file or a pipe as %s, or bind the directory with --ro",
			names[fd]);
	}
	if (S_ISSOCK(st.st_mode)) {
		s->how[fd] = NSB_STDIO_INHERIT;
	} else if (S_ISFIFO(st.st_mode)) {
		/* An anonymous pipe lives in pipefs; a named FIFO is a host inode. */
		s->how[fd] = fstatfs(fd, &sfs) == 0 && sfs.f_type == PIPEFS_MAGIC
				     ? NSB_STDIO_INHERIT
				     : NSB_STDIO_PIPE;
	} else if (S_ISCHR(st.st_mode) && (dev = memdev_path(st.st_rdev))) {
		/* (Before the tty test: a memory device is never a terminal.) */
		int fl = fcntl(fd, F_GETFL);
		s->how[fd] = NSB_STDIO_REOPEN;
		nsb_format(s->reopen[fd], sizeof(s->reopen[fd]), "%s", dev);
		s->reopen_flags[fd] = (fl < 0 ? (fd == 0 ? O_RDONLY : O_WRONLY) : fl & O_ACCMODE);
	} else if (S_ISCHR(st.st_mode) && isatty(fd)) {
		/* A terminal read from the background would escape job control
		 * (the payload is in a session of its own): only a foreground
		 * nsbox hands it over; otherwise the pump reads it, and the
		 * kernel stops nsbox with SIGTTIN like any background job. */
		s->how[fd] = fd > 0 || in_foreground(fd) ? NSB_STDIO_INHERIT : NSB_STDIO_PIPE;
	} else {
		/* Regular files, block devices, other character devices. */
		s->how[fd] = NSB_STDIO_PIPE;
	}
	return 0;
}

int nsb_stdio_decide(int pty_mode, bool pipe_output, struct nsb_stdio *ret, struct nsb_error *e)
{
	static const char *const names[] = {"stdin", "stdout", "stderr"};
	struct nsb_stdio s;
	struct stat st[3];
	int r;

	memset(&s, 0, sizeof(s));
	/* A closed 0, 1 or 2 would be taken by the next descriptor nsbox
	 * opens (a pipe, the signalfd) and reach the command as its stdio:
	 * hold the number with /dev/null; init closes it again inside.  The
	 * same fstat says what each open one is. */
	for (int fd = 0; fd < 3; fd++) {
		if (fstat(fd, &st[fd]) == 0)
			continue;
		if (errno != EBADF)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USAGE,
					     "inspect fd %d (%s)", fd, names[fd]);
		int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null_fd != fd) {
			if (null_fd >= 0)
				close(null_fd);
			return nsb_error_set(e, null_fd < 0 ? nsb_negerrno() : -EBADF,
					     NSB_STAGE_USAGE, "hold closed fd %d with '/dev/null'",
					     fd);
		}
		s.closed[fd] = true;
	}
	s.pty = pty_mode == NSB_PTY_ON || (pty_mode == NSB_PTY_AUTO && isatty(0) && isatty(1));
	for (int fd = 0; fd < 3; fd++) {
		r = decide_one(fd, &st[fd], pipe_output, &s, e);
		if (r < 0)
			return r;
	}
	if (s.pty) {
		/* The relay reads the caller's stdin (whatever it is) and
		 * writes the terminal's output to the caller's stdout. */
		s.in_tty = isatty(0);
		s.how[0] = s.how[1] = s.how[2] = NSB_STDIO_PTY;
		for (int fd = 0; fd < 3 && !s.has_winsize; fd++)
			s.has_winsize = ioctl(fd, TIOCGWINSZ, &s.winsize) == 0;
	}
	*ret = s;
	return 0;
}

static void close_pair(int p[2])
{
	nsb_closep(&p[0]);
	nsb_closep(&p[1]);
}

/*
 * clone3 with no stack behaves like fork: the child continues here on a copy
 * of our stack.  Returns the pid (0 in the child) or -errno.
 */
static pid_t do_clone(uint64_t flags, int cgroup_fd, int *ret_pidfd, bool *ret_clone3)
{
	struct clone_args args;
	int pidfd = -1;
	long pid;

	memset(&args, 0, sizeof(args));
	args.flags = flags | CLONE_PIDFD;
	args.pidfd = (uint64_t)(uintptr_t)&pidfd;
	args.exit_signal = SIGCHLD;
	if (cgroup_fd >= 0) {
		args.flags |= CLONE_INTO_CGROUP;
		args.cgroup = (uint64_t)cgroup_fd;
	}
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid >= 0) {
		if (pid > 0)
			*ret_pidfd = pidfd;
		*ret_clone3 = true;
		return (pid_t)pid;
	}
	if (errno != ENOSYS)
		return nsb_negerrno();

	/* Fallback for kernels before 5.3: the same flags, no pidfd; the
	 * caller joins the cgroup before init is released. */
	pid = syscall(SYS_clone, (unsigned long)flags | SIGCHLD, NULL, NULL, NULL, 0);
	if (pid < 0)
		return nsb_negerrno();
	*ret_pidfd = -1;
	*ret_clone3 = false;
	return (pid_t)pid;
}

/* Place a clone-fallback child into the cgroup before it runs anything. */
static int join_cgroup(int cgroup_fd, pid_t pid, struct nsb_error *e)
{
	char buf[32];
	int n = nsb_format(buf, sizeof(buf), "%d\n", (int)pid);
	_cleanup_close_ int fd = openat(cgroup_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, buf, (size_t)n) != n)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CGROUP,
				     "move the sandbox into its cgroup");
	return 0;
}

/* The pipes and the socket between the supervisor and the sandbox ([0]: read). */
struct channels {
	int sync[2];		      /* supervisor -> init: init is in the cgroup */
	int err[2];		      /* sandbox -> supervisor: struct nsb_error */
	int status[2];		      /* init -> supervisor: the payload's wait status */
	int out[2], errout[2], in[2]; /* the payload's stdio, where pumped */
	int pty[2];		      /* the pty master, SOCK_SEQPACKET */
	int ovl[2];		      /* the overlays' upper layers, SOCK_SEQPACKET */
	int net[2];		      /* the proxy's listening socket, SOCK_SEQPACKET */
};

static void close_channels(struct channels *ch)
{
	close_pair(ch->sync);
	close_pair(ch->err);
	close_pair(ch->status);
	close_pair(ch->out);
	close_pair(ch->errout);
	close_pair(ch->in);
	close_pair(ch->pty);
	close_pair(ch->ovl);
	close_pair(ch->net);
}

static int open_channels(const struct nsb_plan *plan, const struct nsb_stdio *stdio, bool cgroup,
			 bool listener, struct channels *ch, struct nsb_error *e)
{
	/* The sync pipe serves only the clone fallback's cgroup join. */
	if ((cgroup && pipe2(ch->sync, O_CLOEXEC) < 0) || pipe2(ch->err, O_CLOEXEC) < 0 ||
	    pipe2(ch->status, O_CLOEXEC) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CLONE, "create pipes");
	if ((stdio->how[1] == NSB_STDIO_PIPE && pipe2(ch->out, O_CLOEXEC) < 0) ||
	    (stdio->how[2] == NSB_STDIO_PIPE && pipe2(ch->errout, O_CLOEXEC) < 0) ||
	    (stdio->how[0] == NSB_STDIO_PIPE && pipe2(ch->in, O_CLOEXEC) < 0))
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CLONE, "create stdio pipes");
	/* Bigger pipes, fewer wakeups for the pumps; best effort. */
	const int pumped[] = {ch->out[0], ch->errout[0], ch->in[1]};
	for (size_t i = 0; i < ARRAY_SIZE(pumped); i++)
		if (pumped[i] >= 0)
			fcntl(pumped[i], F_SETPIPE_SZ, 1 << 20);
	/* The supervisor's end never blocks: one event loop serves every
	 * stream, and a payload that never reads stdin must not stall it. */
	if (ch->in[1] >= 0 && fcntl(ch->in[1], F_SETFL, O_NONBLOCK) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CLONE,
				     "make the stdin pipe non-blocking");
	/* The pty is opened inside, on the sandbox's own devpts; its master
	 * travels back over this socket, and so does the seccomp listener
	 * (the master first). */
	if ((stdio->pty || listener) &&
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ch->pty) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CLONE, "create the pty socket");
	/* Only a run with --overlay pays for this one. */
	if (plan->n_overlays && socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ch->ovl) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CLONE,
				     "create the overlay socket");
	/* Proxy mode only: the proxy's socket comes back the same way. */
	if (plan->proxy_port && socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ch->net) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CLONE, "create the proxy socket");
	return 0;
}

/* In the clone: become init with the sandbox's ends. */
_noreturn_ static void child_main(const struct nsb_plan *plan, const struct nsb_stdio *stdio,
				  const struct channels *ch, bool used_clone3)
{
	struct nsb_init_args a = {
		.plan = plan,
		/* clone3 put init into the cgroup already: nothing to wait for */
		.sync_rd = used_clone3 ? -1 : ch->sync[0],
		.err_wr = ch->err[1],
		.status_wr = ch->status[1],
		.stdout_wr = ch->out[1],
		.stderr_wr = ch->errout[1],
		.stdin_rd = ch->in[0],
		.pty_wr = ch->pty[1],
		.stdio = stdio,
		.overlay_wr = ch->ovl[1],
		.net_wr = ch->net[1],
	};
	/* The supervisor's ends go with every other descriptor init does not
	 * keep: nsb_init_main closes them all first (close_range). */
	nsb_init_main(&a);
}

/* In the supervisor: let go of the sandbox's ends. */
static void close_child_ends(struct channels *ch)
{
	nsb_closep(&ch->sync[0]);
	nsb_closep(&ch->err[1]);
	nsb_closep(&ch->status[1]);
	nsb_closep(&ch->out[1]);
	nsb_closep(&ch->errout[1]);
	nsb_closep(&ch->in[0]);
	nsb_closep(&ch->pty[1]);
	nsb_closep(&ch->ovl[1]);
	nsb_closep(&ch->net[1]);
}

/* Into the cgroup (clone fallback only), then init may go on; init writes
 * its own id maps (sandbox/idmap.h). */
static int release_init(pid_t pid, int cgroup_fd, bool used_clone3, struct channels *ch,
			struct nsb_error *e)
{
	int r;

	if (cgroup_fd < 0 || used_clone3) {
		nsb_closep(&ch->sync[1]);
		return 0;
	}
	r = join_cgroup(cgroup_fd, pid, e);
	if (r < 0)
		return r;
	if (write(ch->sync[1], "G", 1) != 1)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CLONE,
				     "release the sandbox's init");
	nsb_closep(&ch->sync[1]);
	return 0;
}

int nsb_spawn(const struct nsb_plan *plan, const struct nsb_stdio *stdio, int cgroup_fd,
	      struct nsb_sandbox *sb, struct nsb_error *e)
{
	struct channels ch = {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1},
			      {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}};
	_Static_assert(sizeof(ch) == 9 * sizeof(ch.sync), "every pair starts closed");
	/* No CLONE_NEWNET: init makes the network namespace itself, first of
	 * its steps, unless the run shares the caller's (sandbox/net.h). */
	bool landlock = plan->isolation == NSB_ISO_LANDLOCK;
	/* A Landlock run is a plain child (sandbox/landlock.h confines it). */
	uint64_t flags = landlock ? 0
				  : CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |
					    CLONE_NEWUTS | CLONE_NEWCGROUP;
	int pidfd = -1, r;
	bool used_clone3 = false;
	pid_t pid;

	r = open_channels(plan, stdio, cgroup_fd >= 0, plan->seccomp && plan->seccomp->notify, &ch,
			  e);
	if (r < 0)
		goto fail;

	pid = do_clone(flags, cgroup_fd, &pidfd, &used_clone3);
	if (pid < 0) {
		r = pid;
		if (!landlock &&
		    (r == -EPERM || r == -EACCES || r == -ENOSPC || r == -EUSERS || r == -EINVAL))
			nsb_userns_diagnose(-r, "/proc", e);
		else
			nsb_error_set(e, r, NSB_STAGE_CLONE, "create the sandbox's namespaces");
		goto fail;
	}
	if (pid == 0) {
		/* init's own copies, at once, of the stack pages it is about
		 * to write (base/prefault.h) */
		nsb_prefault_child(NSB_PREFAULT_CHILD_STACK);
		child_main(plan, stdio, &ch, used_clone3);
	}
	close_child_ends(&ch);

	r = release_init(pid, cgroup_fd, used_clone3, &ch, e);
	if (r < 0) {
		/* SIGKILL, and waiting leaves no zombie behind. */
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		nsb_closep(&pidfd);
		goto fail;
	}

	sb->pid = pid;
	sb->pidfd = pidfd;
	sb->err_rd = ch.err[0];
	sb->status_rd = ch.status[0];
	sb->stdout_rd = ch.out[0];
	sb->stderr_rd = ch.errout[0];
	sb->stdin_wr = ch.in[1];
	sb->pty_sock = ch.pty[0];
	sb->overlay_sock = ch.ovl[0];
	sb->net_sock = ch.net[0];
	sb->clone3 = used_clone3;
	sb->cgroup_joined = cgroup_fd >= 0 && !used_clone3;
	sb->namespaces = landlock ? 0
				  : NSB_NS_USER | NSB_NS_MOUNT | NSB_NS_PID | NSB_NS_IPC |
					    NSB_NS_UTS | NSB_NS_CGROUP |
					    (plan->share_net ? 0 : NSB_NS_NET);
	return 0;

fail:
	close_channels(&ch);
	return r;
}

void nsb_sandbox_close(struct nsb_sandbox *sb)
{
	nsb_closep(&sb->pidfd);
	nsb_closep(&sb->err_rd);
	nsb_closep(&sb->status_rd);
	nsb_closep(&sb->stdout_rd);
	nsb_closep(&sb->stderr_rd);
	nsb_closep(&sb->stdin_wr);
	nsb_closep(&sb->pty_sock);
	nsb_closep(&sb->overlay_sock);
	nsb_closep(&sb->net_sock);
}
