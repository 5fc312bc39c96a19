/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Network namespace setup done by the sandbox's init: a fresh network
 * namespace starts with only a loopback device, and that device is down.
 */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"

/*
 * Bring the loopback device "lo" of the calling process's network namespace
 * up through rtnetlink (RTM_NEWLINK, IFF_UP) and wait for the kernel's
 * acknowledgement.  Needs CAP_NET_ADMIN over that namespace.  Returns 0 or
 * -errno; the kernel's own netlink error is the one reported (stage "net").
 */
int nsb_net_lo_up(struct nsb_error *e);

/*
 * The sandbox's network namespace, made on a thread of init beside the
 * mounts: creating a network namespace is the dearest single step of a
 * launch and it does not touch the mount table, so a second CPU does it
 * meanwhile.  init is cloned without CLONE_NEWNET; the thread unshares a new
 * one (owned by the sandbox's user namespace, like init's own would be),
 * brings its loopback up and opens it; nsb_net_enter() joins the thread and
 * moves init into it before the payload is forked.  init's main thread
 * opens nothing while it is still in the caller's namespace.
 *
 * The thread takes a pid inside the sandbox, and the payload must still be
 * pid 2 (DESIGN): init, which holds CAP_SYS_ADMIN over its PID namespace
 * until it drops everything, points ns_last_pid past 2 before the thread is
 * created (the thread gets NSB_NET_THREAD_PID) and back to 1 after the
 * join, so pid 2 is never handed out before the payload asks for one.
 * When ns_last_pid cannot be opened or written at the start (no
 * CONFIG_CHECKPOINT_RESTORE, no /proc) or no thread can be had, the job
 * runs inline instead, as before: slower, never different.
 */
#define NSB_NET_THREAD_PID 300 /* below the smallest pid_max the kernel allows (301) */

struct nsb_net_job {
	pthread_t thread;
	bool threaded;	 /* a thread runs the job; else it ran inline */
	void *stack;	 /* the thread's stack, ours: unmapped once it is joined */
	int last_pid_fd; /* /proc/sys/kernel/ns_last_pid, opened for writing */
	int fd;		 /* the new namespace (nsfs), -1 until made */
	int err;	 /* 0 or -errno, with e */
	struct nsb_error e;
};

/*
 * Start the job.  Never fails by itself: an error waits for enter.
 *
 * fds is how many descriptors init may hold at once while the thread runs
 * (the mounts open every bind's tree before attaching any).  The table of
 * descriptors is grown to that size first: growing a table that a live
 * thread shares makes the kernel wait for an RCU grace period (expand_files
 * calls synchronize_rcu), about 10 ms here, and a caller such as Python's
 * subprocess, which closes every descriptor above 2 before exec, hands
 * nsbox the smallest table (64), so the mounts used to grow it.
 */
void nsb_net_start(struct nsb_net_job *j, unsigned fds);

/*
 * Wait for the job, enter its namespace and make 2 the next pid again.
 * 0 or -errno (stage "net").  Releases everything j holds.
 */
int nsb_net_enter(struct nsb_net_job *j, struct nsb_error *e);

/*
 * Proxy mode: listen on 127.0.0.1:PORT in the calling process's (the
 * sandbox's) network namespace and send the socket over SOCK to the
 * supervisor, which serves the proxy on it; closes SOCK.  0 or -errno
 * (stage "net").
 */
int nsb_net_proxy_listen(uint16_t port, int sock, struct nsb_error *e);
