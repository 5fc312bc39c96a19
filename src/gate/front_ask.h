/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * allow / ask / deny (issue 17): after the gate allowed the command, does
 * an ask rule hold it, and is it approved?  The approval id (core/approval.h)
 * is computed only when it is needed: an ask rule holds the command, or
 * --approved or --check was given.  A default launch hashes nothing.
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "base/sha256.h"
#include "core/config.h"
#include "core/plan.h"
#include "gate/policy_ask.h"

struct nsb_front;
struct nsb_json;

struct nsb_front_ask {
	bool asked; /* an ask rule holds the command (and no deny rule refused it) */
	bool has_consequence;
	bool has_id;   /* id computed */
	bool approved; /* --approved given and equal to id */
	char id[NSB_SHA256_HEX];
	char consequence[NSB_ASK_CONSEQUENCE_MAX + 1]; /* "" with has_consequence false */
	char rule[NSB_ASK_RULE_TEXT_MAX];	       /* "ask argv git push" */
};

/* Facts from outside the config that the approval id covers. */
struct nsb_front_ask_in {
	const char *cwd;	    /* the caller's working directory, real */
	const char *seccomp_sha256; /* NULL: no filter */
};

/*
 * Decide for f (whose verdict nsb_front_check filled): the matching ask
 * rule, and the id when needed.  0 or -errno with e set (stage "gate").
 */
int nsb_front_ask(const struct nsb_config *c, struct nsb_front *f,
		  const struct nsb_front_ask_in *in, struct nsb_error *e);

/* Would the run go ahead: the gate allowed it and no ask rule holds it
 * unapproved. */
bool nsb_front_goes_ahead(const struct nsb_front *f);

/* --check's "verdict" and "approval" members. */
void nsb_front_ask_json(struct nsb_json *j, const struct nsb_config *c, const struct nsb_front *f);
