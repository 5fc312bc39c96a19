// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * init's setup between hiding and the payload's fork: the sandbox's world
 * (mounts, network namespace, hostname, pty) and init's lock-down (no
 * capabilities, no_new_privs, Landlock, the seccomp filter), in order, on
 * init's one thread.
 *
 * The mounts once ran on a thread beside the network namespace and init's
 * lock-down, and the network namespace on one beside the mounts before
 * that.  On a guest whose page faults and wake-ups of an idle vCPU are
 * dear (a PVM guest, kernel fc-v1272: a fault 10 µs, a cross-CPU wake-up
 * 124 µs), a second CPU running init's address space cost 8 % of a
 * launch's CPU time and 10 % of the launches per second 4 at a time on 2
 * CPUs, for a launch no shorter (1.010 and 0.995 paired, root, 200-300
 * rounds; 0.994 as an unprivileged user): it is built in order.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "base/fdpass.h"
#include "sandbox/caps.h"
#include "sandbox/init_build.h"
#include "sandbox/landlock.h"
#include "sandbox/mount.h"
#include "sandbox/net.h"
#include "seccomp/filter.h"

/*
 * The payload's terminal, from the sandbox's own devpts: the master goes to
 * the supervisor (which relays it to the caller's terminal), the slave
 * becomes init's controlling terminal so that the payload, in init's session,
 * can be its foreground process group.  Whatever runs inside can then only
 * reach this pty (TIOCSTI included), never the caller's terminal.  Done
 * before the seccomp filter: the strict profile rightly refuses TIOCSCTTY.
 */
static int open_pty(const struct nsb_init_args *a, int *ret_slave, struct nsb_error *e)
{
	/* Without a mount namespace, the host's devpts: its ptmx node is
	 * usually mode 000, /dev/ptmx is the one to open. */
	const char *ptmx = a->plan->isolation == NSB_ISO_LANDLOCK ? "/dev/ptmx" : "/dev/pts/ptmx";
	_cleanup_close_ int master = -1, slave = -1;
	int unlock = 0, r;

	master = open(ptmx, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_PTY, "open '%s'", ptmx);
	if (ioctl(master, TIOCSPTLCK, &unlock) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_PTY, "unlock the pty");
	/* The peer by descriptor: no path lookup that could pick another pty. */
	slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (slave < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_PTY, "open the pty's terminal");
	/* The caller's size before the payload runs: it reads it at start. */
	if (a->stdio->has_winsize && ioctl(slave, TIOCSWINSZ, &a->stdio->winsize) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_PTY, "set the window size");

	r = nsb_fd_send(a->pty_wr, master);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_PTY, "hand the pty to the supervisor");
	/* The socket stays open for the seccomp listener (init_lock_down). */

	/* Out of the caller's process group and session (see below). */
	if (setsid() < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_INIT, "start a new session");
	if (ioctl(slave, TIOCSCTTY, 0) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_PTY,
				     "make the pty the controlling terminal");
	*ret_slave = TAKE_FD(slave);
	return 0;
}

/*
 * A Landlock run has no world of its own to build: init becomes the child
 * subreaper (nothing the payload starts can leave init's reach by
 * double-forking: finish() kills it all), and enters the working directory,
 * a host path.  The ruleset comes in init_lock_down.
 */
static int landlock_build(const struct nsb_init_args *a, int *slave, struct nsb_error *e)
{
	const struct nsb_plan *p = a->plan;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_INIT,
				     "become the child subreaper");
	if (chdir(p->cwd) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CHDIR,
				     "enter working directory '%s'", p->cwd);
	if (a->stdio->pty)
		return open_pty(a, slave, e);
	return 0;
}

/* After the mounts: every upper layer is with the supervisor (or the run
 * failed); nor may the payload find the store's directory among init's,
 * nor the /etc snapshot's (cloned by now, or the run failed). */
static void close_mount_fds(const struct nsb_init_args *a)
{
	const struct nsb_plan *p = a->plan;

	if (a->overlay_wr >= 0)
		close(a->overlay_wr);
	if (p->overlay_store)
		close(p->overlay_store_fd);
	if (p->etc_snapshot)
		close(p->etc_snapshot_fd);
}

/* The sandbox's world in order: the network namespace with its loopback,
 * mounts, hostname, and the pty if asked. */
static int init_build(const struct nsb_init_args *a, int *slave, struct nsb_error *e)
{
	const struct nsb_plan *p = a->plan;
	int r;

	if (p->isolation == NSB_ISO_LANDLOCK)
		return landlock_build(a, slave, e);
	/* The network namespace first: what the mounts make is then the
	 * sandbox's from the start (sysfs, for one, is the mounter's network
	 * namespace's). */
	r = p->share_net ? 0 : nsb_net_make(e);
	if (r == 0)
		r = nsb_mount_setup(p, a->overlay_wr, e);
	close_mount_fds(a);
	if (r == 0 && p->proxy_port)
		r = nsb_net_proxy_listen(p->proxy_port, a->net_wr, e);
	if (r < 0)
		return r;
	if (sethostname(p->hostname, strlen(p->hostname)) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_HOSTNAME, "set hostname '%s'",
				     p->hostname);
	if (a->stdio->pty)
		return open_pty(a, slave, e);
	return 0;
}

/*
 * The filter, with its listener when it has notifications: the listener goes
 * to the supervisor, which answers every reported refusal from then on, and
 * init keeps no copy (nor does the payload).  Between the install and the
 * handoff init only calls sendmsg and close, which no profile may notify:
 * the supervisor cannot answer before it has the listener.  When the kernel
 * gives no listener, the socket closes without one and the supervisor
 * records that refusals are not reported.
 */
static int init_seccomp(const struct nsb_init_args *a, struct nsb_error *e)
{
	int listener = -1, r;

	r = nsb_seccomp_install_listener(a->plan->seccomp, &listener, e);
	if (r < 0)
		return r;
	if (listener >= 0) {
		r = nsb_fd_send(a->pty_wr, listener);
		close(listener);
		if (r < 0)
			return nsb_error_set(e, r, NSB_STAGE_SECCOMP,
					     "hand the seccomp listener to the supervisor");
	}
	return 0;
}

/* No capabilities, no_new_privs, the seccomp filter, a session of its own. */
static int init_lock_down(const struct nsb_init_args *a, int slave, struct nsb_error *e)
{
	const struct nsb_plan *p = a->plan;
	int r;

	/* init keeps nothing the payload could borrow: all capability sets
	 * empty and no_new_privs, before the payload is even forked.  (A
	 * Landlock run may hold no capability, nor CAP_SETPCAP to drop the
	 * bounding set: it empties what it can, landlock.h.) */
	r = p->isolation == NSB_ISO_LANDLOCK ? nsb_landlock_drop_caps(e) : nsb_caps_drop_all(e);
	if (r < 0)
		return r;
	r = nsb_no_new_privs(e);
	if (r < 0)
		return r;
	/* Landlock after no_new_privs (which it needs), the socket filter
	 * before the profile's (a strict profile refuses seccomp()). */
	if (p->isolation == NSB_ISO_LANDLOCK) {
		r = nsb_landlock_apply(p, e);
		if (r >= 0 && p->landlock.socket_filter)
			r = nsb_landlock_socket_filter(e);
		if (r < 0)
			return r;
	}

	/*
	 * The filter goes on in init, before the payload is forked: init
	 * carries it, and the payload inherits the very same program, so the
	 * payload's last steps (close fds, rlimits, execve) already run under
	 * it.  Installing a second copy in the payload would only make every
	 * syscall evaluate the program twice (and strict profiles rightly
	 * refuse seccomp() itself).  When the profile asks for it, the same
	 * call first puts on the small unmapped-ids program the supervisor
	 * built from the mapped ids (seccomp/ids.c says why it is separate).
	 * nsbox's own openat2 (mount.c) has run by now: the shipped
	 * profiles answer it ENOSYS.
	 */
	if (p->seccomp && p->seccomp->notify && a->pty_wr >= 0)
		r = init_seccomp(a, e);
	else if (p->seccomp)
		r = nsb_seccomp_install(p->seccomp, e);
	if (r < 0)
		return r;
	/* Everything for the supervisor has been sent: its EOF says so. */
	if (a->pty_wr >= 0)
		close(a->pty_wr);

	/* Out of the caller's process group: a terminal's ^C reaches the
	 * supervisor only, which forwards it once.  (open_pty did it already.) */
	if (slave < 0 && setsid() < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_INIT, "start a new session");
	return 0;
}

int nsb_init_build(const struct nsb_init_args *a, int *slave, struct nsb_error *e)
{
	int r = init_build(a, slave, e);

	return r < 0 ? r : init_lock_down(a, *slave, e);
}
