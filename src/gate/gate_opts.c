// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exec rules' option parser (supervisor, pure): long options, clusters
 * of short ones, nice's -N adjustments, "--", each read by a tool's struct
 * optspec (gate_opts.h).
 */
#include <string.h>

#include "gate/gate_opts.h"
#include "base/util.h"

static bool in_list(const char *const *list, const char *s, size_t n)
{
	for (; list && *list; list++)
		if (strlen(*list) == n && strncmp(*list, s, n) == 0)
			return true;
	return false;
}

static bool has(const char *set, char ch)
{
	return set && ch && strchr(set, ch);
}

static bool adjustment(const char *a)
{
	/* -N, --N, -+N: nice's historical adjustment syntax */
	const char *p = a + 1;
	if (*p == '-' || *p == '+')
		p++;
	if (!nsb_isdigit((unsigned char)*p))
		return false;
	while (nsb_isdigit((unsigned char)*p))
		p++;
	return *p == '\0';
}

/*
 * One --long option at argv[*i]: *i moves past it (and its value).  True
 * when the parse ends here, with r saying why.
 */
static bool parse_long(const struct optspec *o, char *const *argv, int *i, int e, struct parsed *r)
{
	const char *a = argv[*i];
	const char *eq = strchr(a, '=');
	size_t n = eq ? (size_t)(eq - a) : strlen(a);
	bool next = !eq && *i + 1 < e;

	if (in_list(o->long_code, a, n)) {
		r->code_idx = *i;
		return true;
	}
	if (in_list(o->long_refuse, a, n)) {
		r->refuse_idx = *i;
		return true;
	}
	if (in_list(o->long_noexec, a, n) ||
	    (o->strict && (in_list(L("--help", "--version"), a, n)))) {
		r->noexec = true;
		return true;
	}
	if (in_list(o->long_subst, a, n) || in_list(o->long_split, a, n)) {
		const char *val = eq ? eq + 1 : (next ? argv[*i + 1] : NULL);
		if (in_list(o->long_subst, a, n))
			r->replace = val;
		else if (val) {
			r->split_idx = eq ? *i : *i + 1;
			r->split_value = val;
		}
		*i += next ? 2 : 1;
	} else if (in_list(o->long_subst_opt, a, n)) {
		r->replace = eq ? eq + 1 : o->subst_default;
		(*i)++;
	} else if (in_list(o->long_file, a, n)) {
		r->has_file = true;
		*i += next ? 2 : 1;
	} else if (in_list(o->long_arg, a, n)) {
		*i += next ? 2 : 1;
	} else if (in_list(o->long_optrest, a, n)) {
		(*i)++;
	} else if (in_list(o->long_flag, a, n)) {
		(*i)++;
	} else if (!o->strict) {
		r->unknown_seen = true;
		*i += o->unknown_value && next && argv[*i + 1][0] != '-' ? 2 : 1;
	} else {
		r->unknown_idx = *i;
		return true;
	}
	return false;
}

/*
 * One cluster of short options at argv[*i] ("-xvf FILE", "+x"): *i moves
 * past it (and a value taken from the next argument).  True when the parse
 * ends here, with r saying why.
 */
static bool parse_cluster(const struct optspec *o, char *const *argv, int *i, int e,
			  struct parsed *r)
{
	const char *a = argv[*i];
	int idx = *i;

	for (const char *p = a + 1; *p; p++) {
		char ch = *p;
		const char *val = p[1] ? p + 1 : (*i + 1 < e ? argv[*i + 1] : NULL);
		bool glued = p[1] != '\0';
		if (has(o->code, ch) || has(o->codeflag, ch)) {
			r->code_idx = idx;
			return true;
		}
		if (has(o->refuse, ch)) {
			r->refuse_idx = idx;
			return true;
		}
		if (has(o->noexec, ch)) {
			r->noexec = true;
			return true;
		}
		if (has(o->subst_opt, ch)) {
			r->replace = glued ? p + 1 : o->subst_default; /* xargs -i[R] */
			break;
		}
		if (has(o->split, ch) && val) {
			r->split_idx = glued ? idx : idx + 1; /* env -S CMDLINE */
			r->split_value = val;
		}
		if (has(o->arg, ch) || has(o->file, ch) || has(o->stop, ch) || has(o->subst, ch) ||
		    has(o->split, ch)) {
			if (has(o->file, ch))
				r->has_file = true;
			if (has(o->subst, ch))
				r->replace = val; /* xargs -I REPL */
			if (!glued && val)
				(*i)++;
			if (has(o->stop, ch)) {
				r->stop_idx = *i;
				r->stop_value = val;
				r->first = *i + 1;
				return true;
			}
			break;
		}
		if (has(o->optrest, ch))
			break;
		if (has(o->digits, ch)) {
			while (nsb_isxdigit((unsigned char)p[1]) || p[1] == 'x')
				p++;
			continue;
		}
		if (o->strict && !has(o->flags, ch)) {
			r->unknown_idx = idx;
			return true;
		}
		if (!o->strict && !has(o->flags, ch)) {
			r->unknown_seen = true;
			if (o->unknown_value && !glued && val && val[0] != '-')
				(*i)++; /* maybe its value: read on, fail closed */
		}
	}
	(*i)++;
	return false;
}

void nsb_gate_parse_opts(const struct optspec *o, char *const *argv, int s, int e,
			 struct parsed *ret)
{
	struct parsed r = {
		.first = e,
		.code_idx = -1,
		.refuse_idx = -1,
		.unknown_idx = -1,
		.stop_idx = -1,
		.split_idx = -1,
	};
	int i = s + 1;
	while (i < e) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (o->adjustment && a[0] == '-' && adjustment(a)) {
			i++;
			continue;
		}
		if (a[0] == '-' && a[1] == '-') {
			if (parse_long(o, argv, &i, e, &r))
				goto out;
			continue;
		}
		if ((a[0] == '-' || (o->plus && a[0] == '+')) && a[1] != '\0') {
			if (parse_cluster(o, argv, &i, e, &r))
				goto out;
			continue;
		}
		if (o->dash_is_opt && strcmp(a, "-") == 0) {
			i++;
			continue;
		}
		break;
	}
	r.first = i;
out:
	*ret = r;
}
