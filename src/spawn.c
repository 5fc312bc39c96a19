// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "init.h"
#include "result.h"
#include "spawn.h"
#include "userns.h"

#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif

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
	int n = snprintf(buf, sizeof(buf), "%d\n", (int)pid);
	_cleanup_close_ int fd = openat(cgroup_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, buf, (size_t)n) != n)
		return nsb_error_set(e, nsb_negerrno(), "cgroup",
				     "move the sandbox into its cgroup");
	return 0;
}

int nsb_spawn(const struct nsb_plan *plan, int cgroup_fd, struct nsb_sandbox *sb,
	      struct nsb_error *e)
{
	int sync_p[2] = {-1, -1}, err_p[2] = {-1, -1}, status_p[2] = {-1, -1};
	int out_p[2] = {-1, -1}, errout_p[2] = {-1, -1};
	uint64_t flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS |
			 CLONE_NEWCGROUP;
	int pidfd = -1, r;
	bool used_clone3 = false;
	pid_t pid;

	if (!plan->share_net)
		flags |= CLONE_NEWNET;

	if (pipe2(sync_p, O_CLOEXEC) < 0 || pipe2(err_p, O_CLOEXEC) < 0 ||
	    pipe2(status_p, O_CLOEXEC) < 0) {
		r = nsb_error_set(e, nsb_negerrno(), "clone", "create pipes");
		goto fail;
	}
	if (plan->pipe_output) {
		if (pipe2(out_p, O_CLOEXEC) < 0 || pipe2(errout_p, O_CLOEXEC) < 0) {
			r = nsb_error_set(e, nsb_negerrno(), "clone", "create output pipes");
			goto fail;
		}
		/* Bigger pipes, fewer wakeups for the pump; best effort. */
		fcntl(out_p[0], F_SETPIPE_SZ, 1 << 20);
		fcntl(errout_p[0], F_SETPIPE_SZ, 1 << 20);
	}

	pid = do_clone(flags, cgroup_fd, &pidfd, &used_clone3);
	if (pid < 0) {
		r = pid;
		if (r == -EPERM || r == -EACCES || r == -ENOSPC || r == -EUSERS || r == -EINVAL)
			nsb_userns_diagnose(-r, "/proc", e);
		else
			nsb_error_set(e, r, "clone", "create the sandbox's namespaces");
		goto fail;
	}
	if (pid == 0) {
		struct nsb_init_args a = {
			.plan = plan,
			.sync_rd = sync_p[0],
			.err_wr = err_p[1],
			.status_wr = status_p[1],
			.stdout_wr = out_p[1],
			.stderr_wr = errout_p[1],
		};
		close(sync_p[1]);
		close(err_p[0]);
		close(status_p[0]);
		if (out_p[0] >= 0) {
			close(out_p[0]);
			close(errout_p[0]);
		}
		nsb_init_main(&a);
	}

	nsb_closep(&sync_p[0]);
	nsb_closep(&err_p[1]);
	nsb_closep(&status_p[1]);
	nsb_closep(&out_p[1]);
	nsb_closep(&errout_p[1]);

	if (cgroup_fd >= 0 && !used_clone3) {
		r = join_cgroup(cgroup_fd, pid, e);
		if (r < 0)
			goto kill_child;
	}

	r = nsb_userns_write_maps(pid, plan->uid, plan->gid, e);
	if (r < 0) {
		/* EPERM/EACCES here is how Ubuntu's AppArmor restriction and
		 * similar policies show up: explain the cause. */
		if (r == -EPERM || r == -EACCES) {
			struct nsb_error d = {0};
			nsb_userns_diagnose(-r, "/proc", &d);
			if (d.hint[0] && !e->hint[0])
				nsb_error_hint(e, "%s", d.hint);
		}
		goto kill_child;
	}

	/* Release init. */
	if (write(sync_p[1], "G", 1) != 1) {
		r = nsb_error_set(e, nsb_negerrno(), "clone", "release the sandbox's init");
		goto kill_child;
	}
	nsb_closep(&sync_p[1]);

	sb->pid = pid;
	sb->pidfd = pidfd;
	sb->err_rd = err_p[0];
	sb->status_rd = status_p[0];
	sb->stdout_rd = out_p[0];
	sb->stderr_rd = errout_p[0];
	sb->clone3 = used_clone3;
	sb->cgroup_joined = cgroup_fd >= 0 && !used_clone3;
	sb->namespaces = NSB_NS_USER | NSB_NS_MOUNT | NSB_NS_PID | NSB_NS_IPC | NSB_NS_UTS |
			 NSB_NS_CGROUP | (plan->share_net ? 0 : NSB_NS_NET);
	return 0;

kill_child:
	/* Closing the sync pipe alone would let init exit; SIGKILL makes
	 * sure, and waiting leaves no zombie behind. */
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	nsb_closep(&pidfd);
fail:
	close_pair(sync_p);
	close_pair(err_p);
	close_pair(status_p);
	close_pair(out_p);
	close_pair(errout_p);
	return r;
}

void nsb_sandbox_close(struct nsb_sandbox *sb)
{
	nsb_closep(&sb->pidfd);
	nsb_closep(&sb->err_rd);
	nsb_closep(&sb->status_rd);
	nsb_closep(&sb->stdout_rd);
	nsb_closep(&sb->stderr_rd);
}
