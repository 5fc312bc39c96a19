/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The signals nsbox passes on toward the payload: the supervisor forwards
 * them to init, init to the payload.  One list, so both hops agree.
 */
#pragma once

#include <signal.h>

static const int nsb_forwarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
