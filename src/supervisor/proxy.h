/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Proxy mode's egress proxy, served by the supervisor on the listening
 * socket init made in the sandbox's network namespace (sandbox/net.h):
 * HTTP CONNECT, HTTP forward requests and SOCKS5, each connection checked
 * against the policy (core/netpolicy.h), resolved and connected from the
 * host's namespace, relayed, and listed for the record.
 *
 * One thread accepts; each connection has a thread of its own.  Why
 * threads and not the event loop: getaddrinfo blocks (and a resolver of our
 * own would be a second, worse one), a slow or hostile connection must
 * never hold up another or the run's own stdio and signals, and a run
 * without --allow-net pays nothing at all (no thread, no descriptor).  The
 * threads share only the connection list, under one mutex.
 */
#pragma once

#include <stdint.h>

#include "core/netpolicy.h"
#include "core/result.h"

/* Bounds (nsbox(1), NETWORK). */
#define NSB_PROXY_MAX_CONNS	     256    /* at once; more are closed at once, and listed */
#define NSB_PROXY_HEAD_TIMEOUT_MS    10000  /* for the request (and a ClientHello) to arrive */
#define NSB_PROXY_CONNECT_TIMEOUT_MS 10000  /* for each upstream address */
#define NSB_PROXY_IDLE_TIMEOUT_MS    300000 /* nothing either way: closed */

struct nsb_proxy;

/*
 * Start serving: the acceptor thread takes the listening socket from SOCK
 * (which it owns from now on) as soon as init sends it.  POLICY must live
 * until nsb_proxy_stop.  0 or -errno (stage "net").
 */
int nsb_proxy_start(const struct nsb_net_policy *policy, int sock, struct nsb_proxy **ret,
		    struct nsb_error *e);

/*
 * Stop: no new connections, every open one is closed, the threads are
 * waited for (briefly: one stuck in the resolver is left behind, its entry
 * as it stood).  Fills res's "network" list and the net.denied violation;
 * the list's memory is res's (nsb_proxy_free_record).  p is released.
 */
void nsb_proxy_stop(struct nsb_proxy *p, struct nsb_result *res);
