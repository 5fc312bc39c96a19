/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The front gate as the supervisor runs it: build the effective policy
 * (built-in default, then --policy FILE, then the command line), gather the
 * facts the pure gate needs (roots, the command resolved in the sandbox's
 * view), ask for a verdict, and describe the whole plan for --check.
 * Nothing here creates anything.
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "core/config.h"
#include "base/error.h"
#include "gate/gate.h"
#include "core/plan.h"
#include "gate/front_ask.h"

struct nsb_bpf;

/* What grows with the run (the roots, the command's path) is on the heap:
 * the front is the policy and the verdict, whose texts come last, and a
 * run writes one or two of its pages. */
struct nsb_front {
	struct nsb_gate_policy policy;
	const char *policy_source; /* "builtin" or the --policy file */
	const char **view;	   /* every mount's inside destination (owned array) */
	size_t n_view;
	struct nsb_gate_root *roots; /* one per user mount (owned array) */
	size_t n_roots;
	bool cmd_found;
	bool verdict_texts; /* the verdict holds a text (front.c, verdict_keep) */
	char *cmd_path;	    /* the command's real path on the host (owned), NULL if not found */
	struct nsb_gate_verdict verdict;
	struct nsb_front_ask ask; /* allow / ask / deny (front_ask.h) */
};

/* Effective policy; errors (stage "policy" or "usage") name the file or option. */
int nsb_front_policy(const struct nsb_config *c, struct nsb_front *f, struct nsb_error *e);

/* Resolve the command, run the gate; f->verdict says allowed or why not. */
int nsb_front_check(const struct nsb_config *c, const struct nsb_plan *p, struct nsb_front *f,
		    struct nsb_error *e);

/*
 * The --check document: one JSON object and a newline on out.  0, or a
 * negative errno with e set (stage "gate"; no record is written for it).
 */
int nsb_front_print_plan(FILE *out, const struct nsb_config *c, const struct nsb_plan *p,
			 const struct nsb_front *f, const struct nsb_bpf *bpf, struct nsb_error *e);

void nsb_front_free(struct nsb_front *f);
