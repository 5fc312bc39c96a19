/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Network namespace setup done by the sandbox's init: a fresh network
 * namespace starts with only a loopback device, and that device is down.
 */
#pragma once

#include "base/error.h"

/*
 * Bring the loopback device "lo" of the calling process's network namespace
 * up through rtnetlink (RTM_NEWLINK, IFF_UP) and wait for the kernel's
 * acknowledgement.  Needs CAP_NET_ADMIN over that namespace.  Returns 0 or
 * -errno; the kernel's own netlink error is the one reported (stage "net").
 */
int nsb_net_lo_up(struct nsb_error *e);
