/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The path jail's two halves (private to gate_path*.c and gate_sed.c):
 * gate_path.c judges one candidate path against the sandbox's view and the
 * roots; gate_path_args.c finds the candidates an argument offers.
 */
#pragma once

#include "gate/gate_ctx.h"

/* Per argument: at most this many candidates judged, this many existence
 * probes (each a lookup or two); past either the argument is refused. */
#define NSB_GATE_MAX_JUDGED 32
#define NSB_GATE_MAX_PROBES 64

/* One argument being looked at. */
struct nsb_path_arg {
	struct nsb_gate_ctx *c;
	int idx;	  /* its index in argv */
	const char *base; /* clean absolute directory relative paths start from;
			   * NULL: the working directory */
	unsigned judged, probes;
	bool over; /* a bound was reached: refused when the argument is done */
};

/* Judge candidate s as a path (it is one, whatever it looks like).
 * 1: refused (the verdict filled), 0: allowed. */
int nsb_gate_path_judge(struct nsb_path_arg *a, const char *s);

/* Does s name something that exists relative to the base directory? */
bool nsb_gate_path_exists(struct nsb_path_arg *a, const char *s);

/* Judge s if it looks like a path ('/' in it, a leading '~', or it exists). */
int nsb_gate_path_try(struct nsb_path_arg *a, const char *s);

/* Refuse the argument for holding more candidates than the gate judges. */
int nsb_gate_path_too_many(struct nsb_path_arg *a);

/* gate_sed.c: judge the file names a sed script reads or writes
 * (r R w W commands, the w flag of s).  1: refused. */
int nsb_gate_sed_script(struct nsb_path_arg *a, const char *script);
