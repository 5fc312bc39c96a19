/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Proxy mode's policy for a run (run->net_policy), two steps of nsb_run_prepare. */
#pragma once

#include "supervisor/run.h"

/* From --allow-net and its kin; nothing at all without them.  0 or -errno, e set. */
int nsb_run_net_options(struct nsb_run *run, struct nsb_error *e);

/* The policy file's allow-net lines: proxy mode too (the plan gains its
 * port and environment), their entries added.  0 or -errno, e set. */
int nsb_run_net_policy_file(struct nsb_run *run, struct nsb_error *e);

/* Proxy mode: serve the socket init sends (run->sb.net_sock).  Should the
 * proxy not start, the socket is closed, init cannot hand it over and fails
 * its setup: no run goes on without the proxy it was promised. */
void nsb_run_net_start(struct nsb_run *run);

/* The sandbox is gone: every connection ends, res's list is final. */
void nsb_run_net_stop(struct nsb_run *run, struct nsb_result *res);

/* Everything of proxy mode freed (the backstop of nsb_run_destroy). */
void nsb_run_net_free(struct nsb_run *run);
