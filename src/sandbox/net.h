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

/*
 * Bring the loopback device "lo" of the calling process's network namespace
 * up through rtnetlink (RTM_NEWLINK, IFF_UP) and wait for the kernel's
 * acknowledgement.  Needs CAP_NET_ADMIN over that namespace.  Returns 0 or
 * -errno; the kernel's own netlink error is the one reported (stage "net").
 */
int nsb_net_lo_up(struct nsb_error *e);

/*
 * A new network namespace for init (owned by the sandbox's user namespace:
 * init is cloned without CLONE_NEWNET), its loopback up.  0 or -errno
 * (stage "net").
 */
int nsb_net_make(struct nsb_error *e);

/*
 * Proxy mode: listen on 127.0.0.1:PORT in the calling process's (the
 * sandbox's) network namespace and send the socket over SOCK to the
 * supervisor, which serves the proxy on it; closes SOCK.  0 or -errno
 * (stage "net").
 */
int nsb_net_proxy_listen(uint16_t port, int sock, struct nsb_error *e);
