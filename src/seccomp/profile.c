// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seccomp profile parser, the statement grammar (pure, supervisor): one line
 * into tokens, the directives (default, badarch, unmapped-ids, include,
 * group ... end), rules and their conditions, and the checks that need the
 * whole profile.  nsbox-profile(5) keeps the same order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <seccomp.h>

#include "base/fmt.h"
#include "seccomp/profile_names.h"
#include "seccomp/profile_parser.h"
#include "base/util.h"

static bool action_eq(const struct nsb_action *a, const struct nsb_action *b)
{
	return a->kind == b->kind && (a->kind != NSB_ACTION_ERRNO ||
				      (a->errno_value == b->errno_value && a->quiet == b->quiet));
}

/* ---- names ------------------------------------------------------------- */

static bool valid_name(const char *s, bool group)
{
	size_t len = strlen(s);
	if (group) {
		if (s[0] != '@')
			return false;
		s++;
		len--;
	}
	/* Syscall names may start with '_' (_sysctl); group names may not. */
	if (len == 0 || len >= NSB_PROFILE_MAX_NAME - 1 ||
	    !(nsb_islower((unsigned char)s[0]) || nsb_isdigit((unsigned char)s[0]) ||
	      (!group && s[0] == '_')))
		return false;
	for (; *s; s++)
		if (!nsb_islower((unsigned char)*s) && !nsb_isdigit((unsigned char)*s) &&
		    *s != '_' && !(group && *s == '-'))
			return false;
	return true;
}

/* Syscall name → native number, with an error that says whether the name
 * exists on another architecture. */
static int resolve_syscall(struct nsb_profile_parser *ps, const struct nsb_origin *o,
			   const char *name, int *ret)
{
	if (!valid_name(name, false))
		return nsb_profile_err(ps, o, "invalid syscall name '%s'", name);
	int nr = seccomp_syscall_resolve_name_arch(ps->arch, name);
	if (nr >= 0) {
		*ret = nr;
		return 0;
	}
	const char *other = nsb_profile_other_arch(ps->arch, name);
	if (other)
		return nsb_profile_err(ps, o, "syscall '%s' does not exist on %s (it does on %s)",
				       name, nsb_profile_arch_name(ps->arch), other);
	return nsb_profile_err(ps, o, "unknown syscall '%s'", name);
}

const struct nsb_group *nsb_profile_group(const struct nsb_profile *p, const char *name)
{
	for (size_t i = 0; i < p->n_groups; i++)
		if (strcmp(p->groups[i].name, name) == 0)
			return &p->groups[i];
	return NULL;
}

/* A target is a syscall or an @group: return its numbers (*ret_nrs points to
 * static one-element storage for a syscall, to the group's list otherwise). */
static int resolve_target(struct nsb_profile_parser *ps, const struct nsb_origin *o,
			  const char *name, int *one, const int **ret_nrs, size_t *ret_n)
{
	if (name[0] == '@') {
		if (!valid_name(name, true))
			return nsb_profile_err(ps, o, "invalid group name '%s'", name);
		const struct nsb_group *g = nsb_profile_group(ps->p, name);
		if (!g)
			return nsb_profile_err(
				ps, o,
				"unknown group '%s' (define it with 'group %s' before this line, or include the file that does)",
				name, name);
		*ret_nrs = g->nrs;
		*ret_n = g->n_nrs;
		return 0;
	}
	int r = resolve_syscall(ps, o, name, one);
	if (r < 0)
		return r;
	*ret_nrs = one;
	*ret_n = 1;
	return 0;
}

/* ---- directives -------------------------------------------------------- */

static int group_add(struct nsb_profile_parser *ps, const struct nsb_origin *o, struct nsb_group *g,
		     int nr)
{
	for (size_t i = 0; i < g->n_nrs; i++)
		if (g->nrs[i] == nr)
			return 0;
	if (g->n_nrs >= NSB_PROFILE_MAX_MEMBERS)
		return nsb_profile_err(ps, o, "group '%s' has more than %u syscalls", g->name,
				       NSB_PROFILE_MAX_MEMBERS);
	int *n = realloc(g->nrs, (g->n_nrs + 1) * sizeof(*n));
	if (!n)
		return nsb_error_set(ps->e, -ENOMEM, NSB_STAGE_PROFILE, "%s:%u:%u", o->file,
				     o->line, o->col);
	g->nrs = n;
	g->nrs[g->n_nrs++] = nr;
	return 0;
}

static int do_group(struct nsb_profile_parser *ps, const struct nsb_origin *line,
		    struct nsb_profile_token *t, size_t n)
{
	struct nsb_profile *p = ps->p;
	struct nsb_origin o = nsb_profile_at(line, &t[0]);

	if (n < 2) {
		o.col += 6;
		return nsb_profile_err(ps, &o, "'group' needs a name such as '@mount'");
	}
	o = nsb_profile_at(line, &t[1]);
	if (!valid_name(t[1].s, true))
		return nsb_profile_err(
			ps, &o,
			"invalid group name '%s' (expected '@' and lower-case letters, digits, '-' or '_')",
			t[1].s);
	if (n > 2) {
		o = nsb_profile_at(line, &t[2]);
		return nsb_profile_err(
			ps, &o,
			"unexpected '%s' after the group name (members go on the following lines, up to 'end')",
			t[2].s);
	}
	const struct nsb_group *old = nsb_profile_group(p, t[1].s);
	if (old)
		return nsb_profile_err(ps, &o, "group '%s' is already defined at %s:%u:%u", t[1].s,
				       old->origin.file, old->origin.line, old->origin.col);
	if (p->n_groups >= NSB_PROFILE_MAX_GROUPS)
		return nsb_profile_err(ps, &o, "more than %u groups", NSB_PROFILE_MAX_GROUPS);
	struct nsb_group *g = realloc(p->groups, (p->n_groups + 1) * sizeof(*g));
	if (!g)
		return nsb_error_set(ps->e, -ENOMEM, NSB_STAGE_PROFILE, "%s:%u", line->file,
				     line->line);
	p->groups = g;
	g = &p->groups[p->n_groups++];
	memset(g, 0, sizeof(*g));
	nsb_format(g->name, sizeof(g->name), "%s", t[1].s);
	g->origin = o;
	ps->open_group = g;
	return 0;
}

static int do_group_members(struct nsb_profile_parser *ps, const struct nsb_origin *line,
			    struct nsb_profile_token *t, size_t n)
{
	struct nsb_group *g = ps->open_group;

	for (size_t i = 0; i < n; i++) {
		struct nsb_origin o = nsb_profile_at(line, &t[i]);
		int one = -1;
		const int *nrs = NULL;
		size_t n_nrs = 0;
		if (strcmp(t[i].s, g->name) == 0)
			return nsb_profile_err(ps, &o, "group '%s' cannot contain itself", g->name);
		int r = resolve_target(ps, &o, t[i].s, &one, &nrs, &n_nrs);
		if (r < 0)
			return r;
		for (size_t k = 0; k < n_nrs; k++) {
			r = group_add(ps, &o, g, nrs[k]);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

enum directive {
	DIR_DEFAULT,
	DIR_BADARCH,
	DIR_UNMAPPED_IDS
};

static int do_default(struct nsb_profile_parser *ps, const struct nsb_origin *line,
		      struct nsb_profile_token *t, size_t n, enum directive which)
{
	struct nsb_profile *p = ps->p;
	struct nsb_origin o = nsb_profile_at(line, &t[0]);
	struct nsb_action a;
	bool badarch = which == DIR_BADARCH;

	if (which == DIR_DEFAULT && p->has_default)
		return nsb_profile_err(ps, &o, "default action is already set at %s:%u:%u",
				       p->default_origin.file, p->default_origin.line,
				       p->default_origin.col);
	if (badarch && p->has_badarch)
		return nsb_profile_err(ps, &o, "badarch action is already set");
	if (which == DIR_UNMAPPED_IDS && p->has_unmapped_ids)
		return nsb_profile_err(ps, &o, "unmapped-ids action is already set at %s:%u:%u",
				       p->unmapped_ids_origin.file, p->unmapped_ids_origin.line,
				       p->unmapped_ids_origin.col);
	int used = nsb_profile_parse_action(ps, line, t, n, 1, &t[0], &a);
	if (used < 0)
		return used;
	if ((size_t)used + 1 < n) {
		o = nsb_profile_at(line, &t[used + 1]);
		return nsb_profile_err(ps, &o, "unexpected '%s' after the action", t[used + 1].s);
	}
	if (badarch) {
		/* A foreign-ABI syscall must never run: refuse "allow" and "log"
		 * here, whatever else the profile says. */
		if (a.kind == NSB_ACTION_ALLOW || a.kind == NSB_ACTION_LOG) {
			o = nsb_profile_at(line, &t[1]);
			return nsb_profile_err(
				ps, &o,
				"badarch action must refuse the call (errno, kill or trap)");
		}
		p->has_badarch = true;
		p->badarch_action = a;
	} else if (which == DIR_UNMAPPED_IDS) {
		/* The directive exists to refuse: "allow" would be a filter
		 * that changes nothing, "log" one that still lets the kernel
		 * answer EINVAL. */
		if (a.kind == NSB_ACTION_ALLOW || a.kind == NSB_ACTION_LOG) {
			o = nsb_profile_at(line, &t[1]);
			return nsb_profile_err(
				ps, &o,
				"unmapped-ids action must refuse the call (errno, kill or trap)");
		}
		p->has_unmapped_ids = true;
		p->unmapped_ids_action = a;
		p->unmapped_ids_origin = o;
	} else {
		p->has_default = true;
		p->default_action = a;
		p->default_origin = o;
	}
	return 0;
}

static int add_rule(struct nsb_profile_parser *ps, const struct nsb_origin *o, int nr,
		    const struct nsb_rule *tmpl)
{
	struct nsb_profile *p = ps->p;

	if (p->n_rules >= NSB_PROFILE_MAX_RULES)
		return nsb_profile_err(ps, o, "more than %u rules (after expanding groups)",
				       NSB_PROFILE_MAX_RULES);
	struct nsb_rule *r = realloc(p->rules, (p->n_rules + 1) * sizeof(*r));
	if (!r)
		return nsb_error_set(ps->e, -ENOMEM, NSB_STAGE_PROFILE, "%s:%u", o->file, o->line);
	p->rules = r;
	r = &p->rules[p->n_rules++];
	*r = *tmpl;
	r->nr = nr;
	char *name = seccomp_syscall_resolve_num_arch(ps->arch, nr);
	nsb_format(r->name, sizeof(r->name), "%s", name ? name : "?");
	free(name);
	return 0;
}

static int do_rule(struct nsb_profile_parser *ps, const struct nsb_origin *line,
		   struct nsb_profile_token *t, size_t n)
{
	struct nsb_origin o = nsb_profile_at(line, &t[0]);
	struct nsb_rule tmpl = {0};
	int one = -1;
	const int *nrs = NULL;
	size_t n_nrs = 0;

	int r = resolve_target(ps, &o, t[0].s, &one, &nrs, &n_nrs);
	if (r < 0)
		return r;
	tmpl.origin = o;
	int used = nsb_profile_parse_action(ps, line, t, n, 1, &t[0], &tmpl.action);
	if (used < 0)
		return used;
	size_t i = 1 + (size_t)used;
	if (i < n) {
		struct nsb_origin io = nsb_profile_at(line, &t[i]);
		if (strcmp(t[i].s, "if") != 0)
			return nsb_profile_err(
				ps, &io, "expected 'if' or the end of the line, got '%s'", t[i].s);
		for (i++;;) {
			if (i >= n) {
				io = nsb_profile_at(line, &t[i - 1]);
				io.col += (unsigned)strlen(t[i - 1].s) + 1;
				return nsb_profile_err(ps, &io, "missing condition after '%s'",
						       t[i - 1].s);
			}
			struct nsb_cond c = {0};
			int k = nsb_profile_parse_cond(ps, line, t, n, i, &c);
			if (k < 0)
				return k;
			for (unsigned j = 0; j < tmpl.n_conds; j++)
				if (tmpl.conds[j].arg == c.arg) {
					io = nsb_profile_at(line, &t[i]);
					/* libseccomp 2.5 refuses two comparisons of one
					 * argument in one rule (EINVAL); say so here. */
					return nsb_profile_err(
						ps, &io,
						"arg%u is already compared in this rule (write a second rule instead)",
						c.arg);
				}
			tmpl.conds[tmpl.n_conds++] = c;
			i += (size_t)k;
			if (i >= n)
				break;
			io = nsb_profile_at(line, &t[i]);
			if (strcmp(t[i].s, "and") != 0)
				return nsb_profile_err(
					ps, &io, "expected 'and' or the end of the line, got '%s'",
					t[i].s);
			i++;
		}
	}
	for (size_t k = 0; k < n_nrs; k++) {
		r = add_rule(ps, &o, nrs[k], &tmpl);
		if (r < 0)
			return r;
	}
	return 0;
}

/* `include NAME`: the syntax here; opening and reading is the reader's. */
static int do_include(struct nsb_profile_parser *ps, const struct nsb_origin *line,
		      struct nsb_profile_token *t, size_t n, struct nsb_profile_include *ret)
{
	struct nsb_origin o = nsb_profile_at(line, &t[0]);

	if (n < 2) {
		o.col += 8;
		return nsb_profile_err(ps, &o, "'include' needs a profile name or path");
	}
	o = nsb_profile_at(line, &t[1]);
	if (n > 2) {
		struct nsb_origin xo = nsb_profile_at(line, &t[2]);
		return nsb_profile_err(ps, &xo, "unexpected '%s' after the include name", t[2].s);
	}
	*ret = (struct nsb_profile_include){t[1].s, o};
	return 1;
}

/* ---- one line ------------------------------------------------------------- */

int nsb_profile_line(struct nsb_profile_parser *ps, const struct nsb_origin *line, char *s,
		     struct nsb_profile_include *ret_inc)
{
	struct nsb_profile_token t[NSB_PROFILE_MAX_LINE / 2 + 1];
	size_t n = 0;

	char *hash = strchr(s, '#');
	if (hash)
		*hash = '\0';
	for (char *c = s; *c;) {
		if (*c == ' ' || *c == '\t' || *c == '\r') {
			*c++ = '\0';
			continue;
		}
		if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) {
			struct nsb_origin o = {line->file, line->line, (unsigned)(c - s) + 1};
			return nsb_profile_err(
				ps, &o,
				"invalid byte 0x%02x (only printable ASCII outside comments)",
				(unsigned char)*c);
		}
		t[n].s = c;
		t[n].col = (unsigned)(c - s) + 1;
		n++;
		while (*c && *c != ' ' && *c != '\t' && *c != '\r' && (unsigned char)*c >= 0x20 &&
		       (unsigned char)*c < 0x7f)
			c++;
	}
	if (n == 0)
		return 0;

	const char *k = t[0].s;
	if (ps->open_group) {
		if (strcmp(k, "end") == 0) {
			if (n > 1) {
				struct nsb_origin o = nsb_profile_at(line, &t[1]);
				return nsb_profile_err(ps, &o, "unexpected '%s' after 'end'",
						       t[1].s);
			}
			if (ps->open_group->n_nrs == 0) {
				struct nsb_origin o = nsb_profile_at(line, &t[0]);
				return nsb_profile_err(ps, &o, "group '%s' is empty",
						       ps->open_group->name);
			}
			ps->open_group = NULL;
			return 0;
		}
		if (strcmp(k, "group") == 0 || strcmp(k, "include") == 0 ||
		    strcmp(k, "default") == 0 || strcmp(k, "badarch") == 0 ||
		    strcmp(k, "unmapped-ids") == 0) {
			struct nsb_origin o = nsb_profile_at(line, &t[0]);
			return nsb_profile_err(
				ps, &o, "'%s' inside group '%s' (close the group with 'end' first)",
				k, ps->open_group->name);
		}
		return do_group_members(ps, line, t, n);
	}
	if (strcmp(k, "default") == 0)
		return do_default(ps, line, t, n, DIR_DEFAULT);
	if (strcmp(k, "badarch") == 0)
		return do_default(ps, line, t, n, DIR_BADARCH);
	if (strcmp(k, "unmapped-ids") == 0)
		return do_default(ps, line, t, n, DIR_UNMAPPED_IDS);
	if (strcmp(k, "include") == 0)
		return do_include(ps, line, t, n, ret_inc);
	if (strcmp(k, "group") == 0)
		return do_group(ps, line, t, n);
	if (strcmp(k, "end") == 0) {
		struct nsb_origin o = nsb_profile_at(line, &t[0]);
		return nsb_profile_err(ps, &o, "'end' without 'group'");
	}
	return do_rule(ps, line, t, n);
}

/* ---- whole-profile checks ---------------------------------------------- */

static bool cond_eq(const struct nsb_cond *a, const struct nsb_cond *b)
{
	return a->arg == b->arg && a->op == b->op && a->value == b->value &&
	       (a->op != NSB_CMP_MASKED_EQ || a->mask == b->mask);
}

static bool rule_same_conds(const struct nsb_rule *a, const struct nsb_rule *b)
{
	if (a->n_conds != b->n_conds)
		return false;
	for (unsigned i = 0; i < a->n_conds; i++) {
		bool found = false;
		for (unsigned j = 0; j < b->n_conds && !found; j++)
			found = cond_eq(&a->conds[i], &b->conds[j]);
		if (!found)
			return false;
	}
	return true;
}

int nsb_profile_check_rules(struct nsb_profile_parser *ps)
{
	struct nsb_profile *p = ps->p;
	char a1[32], a2[32];

	for (size_t i = 0; i < p->n_rules; i++) {
		struct nsb_rule *r = &p->rules[i];
		/* libseccomp refuses a rule whose action is the default one
		 * (EACCES): it would be a no-op, and usually a mistake. */
		if (action_eq(&r->action, &p->default_action)) {
			nsb_action_format(&r->action, a1, sizeof(a1));
			return nsb_profile_err(ps, &r->origin,
					       "rule for '%s' has the default action '%s'", r->name,
					       a1);
		}
		for (size_t j = 0; j < i; j++) {
			struct nsb_rule *q = &p->rules[j];
			if (q->nr != r->nr)
				continue;
			/* Different actions on one syscall are refused: libseccomp
			 * silently lets an unconditional rule win over conditional
			 * ones, and gives overlapping conditions no defined order. */
			if (!action_eq(&q->action, &r->action)) {
				nsb_action_format(&r->action, a1, sizeof(a1));
				nsb_action_format(&q->action, a2, sizeof(a2));
				return nsb_profile_err(
					ps, &r->origin,
					"'%s' gets action '%s' here but '%s' at %s:%u:%u (one syscall, one action)",
					r->name, a1, a2, q->origin.file, q->origin.line,
					q->origin.col);
			}
		}
	}
	/* Drop exact duplicates (a syscall in two groups with one action). */
	size_t out = 0;
	for (size_t i = 0; i < p->n_rules; i++) {
		bool dup = false;
		for (size_t j = 0; j < out && !dup; j++)
			dup = p->rules[j].nr == p->rules[i].nr &&
			      rule_same_conds(&p->rules[j], &p->rules[i]);
		if (!dup)
			p->rules[out++] = p->rules[i];
	}
	p->n_rules = out;
	return 0;
}
