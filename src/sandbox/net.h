/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Network namespace setup done by the sandbox's init: a fresh network
 * namespace starts with only a loopback device, and that device is down.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "sandbox/setup_thread.h"

/*
 * Bring the loopback device "lo" of the calling process's network namespace
 * up through rtnetlink (RTM_NEWLINK, IFF_UP) and wait for the kernel's
 * acknowledgement.  Needs CAP_NET_ADMIN over that namespace.  Returns 0 or
 * -errno; the kernel's own netlink error is the one reported (stage "net").
 */
int nsb_net_lo_up(struct nsb_error *e);

/*
 * A new network namespace for the calling thread (owned by the sandbox's
 * user namespace, like init's own would be), its loopback up.  0 or -errno
 * (stage "net").
 */
int nsb_net_make(struct nsb_error *e);

/*
 * The sandbox's network namespace, made on a thread of init beside the
 * mounts (setup_thread.h): creating a network namespace is one of the
 * dearest steps of a launch and it does not touch the mount table, so a
 * second CPU does it meanwhile.  init is cloned without CLONE_NEWNET; the
 * thread makes a new one and opens it; nsb_net_enter() joins the thread
 * and moves init into it before the payload is forked.  init's main thread
 * opens nothing while it is still in the caller's namespace.  (The default
 * launch turns this round, init_build.c: the mounts on the thread, the
 * namespace and init's lock-down on init's own.)
 */
struct nsb_net_job {
	struct nsb_setup_thread t;
	int fd;	 /* the new namespace (nsfs), -1 until made */
	int err; /* 0 or -errno, with e */
	struct nsb_error e;
};

/* Start the job (see nsb_setup_thread_start for fds).  Never fails by
 * itself: an error waits for enter. */
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
