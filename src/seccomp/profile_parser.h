/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the seccomp profile parser: the state of one parse and the seams
 * between its files.  Not for other modules: they use profile.h.
 *
 *   profile_read.c   nsb_profile_parse(): files, lines, includes
 *   profile.c        one line: tokens, directives, groups, rules; the checks
 *                    that need the whole profile
 *   profile_value.c  actions, conditions, numbers and named constants
 *   profile_names.c  the tables of names (profile_names.h)
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "seccomp/profile.h"

struct nsb_profile_token {
	char *s;
	unsigned col; /* 1-based */
};

struct nsb_profile_parser {
	struct nsb_profile *p;
	nsb_profile_opener opener;
	void *userdata;
	struct nsb_error *e;
	const char *stack[NSB_PROFILE_MAX_DEPTH + 1]; /* files being read, outermost first */
	unsigned depth;
	uint32_t arch;

	struct nsb_group *open_group; /* the group block being read, if any */
};

/* An `include NAME` line, for the reader to open and read. */
struct nsb_profile_include {
	const char *name; /* points into the line */
	struct nsb_origin origin;
};

/* Fill ps->e with "FILE:LINE:COL: message" (EINVAL); returns -EINVAL. */
int nsb_profile_err(struct nsb_profile_parser *ps, const struct nsb_origin *o, const char *fmt, ...)
	_printf_(3, 4);

/* Where token t of a line is. */
static inline struct nsb_origin nsb_profile_at(const struct nsb_origin *line,
					       const struct nsb_profile_token *t)
{
	return (struct nsb_origin){line->file, line->line, t->col};
}

/* profile.c: interpret one line (s is modified).  0 when done, 1 when the
 * line is an include for the reader (*ret_inc), or -errno with ps->e set. */
int nsb_profile_line(struct nsb_profile_parser *ps, const struct nsb_origin *line, char *s,
		     struct nsb_profile_include *ret_inc);

/* profile.c: the checks that need every rule (after the last line). */
int nsb_profile_check_rules(struct nsb_profile_parser *ps);

/* profile_value.c: the action starting at toks[i] (after is the token before
 * it, for "missing action after ..."); returns the number of tokens used. */
int nsb_profile_parse_action(struct nsb_profile_parser *ps, const struct nsb_origin *line,
			     struct nsb_profile_token *toks, size_t n, size_t i,
			     const struct nsb_profile_token *after, struct nsb_action *ret);

/* profile_value.c: the condition starting at t[i] ("arg1 & MASK == VALUE");
 * returns the number of tokens used. */
int nsb_profile_parse_cond(struct nsb_profile_parser *ps, const struct nsb_origin *line,
			   struct nsb_profile_token *t, size_t n, size_t i, struct nsb_cond *ret);
