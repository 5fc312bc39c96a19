// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shell-option table (supervisor, pure): rows parsed from the policy
 * format, the built-in rows, and the rule exec.shell_option that matches a
 * command's words against them (gate_shellopt.h, nsbox-policy(5)).
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate_ctx.h"
#include "gate/gate_interp.h"
#include "gate/gate_shellopt.h"
#include "base/macro.h"
#include "base/util.h"

/* ---- rows ----------------------------------------------------------- */

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

static bool tool_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       (ch && strchr("_.+-", ch));
}

static bool name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '*';
}

/* -x, --long, -long, +, NAME=, %1, * */
static bool opt_valid(const char *o, size_t n)
{
	if (n == 1)
		return o[0] == '+' || o[0] == '*';
	if (n == 2 && o[0] == '%' && o[1] == '1')
		return true;
	if (o[0] == '-') {
		for (size_t i = 1; i < n; i++)
			if (o[i] == '=' || (i > 1 && !tool_char(o[i])))
				return false;
		return n > 2 ? o[1] == '-' || tool_char(o[1]) : o[1] != '-';
	}
	if (o[n - 1] != '=' || n < 2)
		return false;
	for (size_t i = 0; i + 1 < n; i++)
		if (!name_char(o[i]))
			return false;
	return true;
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static void row_free(struct nsb_shellopt *r)
{
	free(r->tool);
	free(r->sub);
	free(r->opt);
	free(r->match);
}

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool row_eq(const struct nsb_shellopt *a, const struct nsb_shellopt *b)
{
	return strcmp(a->tool, b->tool) == 0 && str_eq(a->sub, b->sub) &&
	       strcmp(a->opt, b->opt) == 0 && str_eq(a->match, b->match);
}

static int fail(size_t *col, const char **why, size_t at, const char *msg)
{
	*col = at;
	*why = msg;
	return -EINVAL;
}

/* Split "TOOL[:SUB] OPTION [MATCH]" into r (copies).  0 or -EINVAL/-ENOMEM. */
static int row_parse(const char *text, struct nsb_shellopt *r, size_t *col, const char **why)
{
	const char *t = text;
	memset(r, 0, sizeof(*r));
	size_t tl = 0;
	while (tool_char(t[tl]))
		tl++;
	if (tl == 0 || tl > NAME_MAX)
		return fail(col, why, 0, "TOOL: an executable name (letters, digits, _ . + -)");
	const char *sub = NULL;
	size_t sl = 0;
	if (t[tl] == ':') {
		sub = t + tl + 1;
		while (tool_char(sub[sl]))
			sl++;
		if (sl == 0 || sl > NAME_MAX)
			return fail(col, why, tl + 1, "SUB: a subcommand word after ':'");
	}
	const char *o = t + tl + (sub ? 1 + sl : 0);
	if (!blank(*o))
		return fail(col, why, (size_t)(o - text),
			    *o ? "TOOL[:SUB] is followed by a blank and the OPTION"
			       : "an OPTION must follow TOOL[:SUB]");
	while (blank(*o))
		o++;
	size_t ol = nsb_strcspn(o, " \t\r");
	if (ol == 0 || ol > NAME_MAX || !opt_valid(o, ol))
		return fail(col, why, (size_t)(o - text),
			    "OPTION: -x, --long, -long, +, NAME=, %1 or *");
	const char *m = o + ol;
	while (blank(*m))
		m++;
	size_t ml = strlen(m);
	while (ml > 0 && blank(m[ml - 1]))
		ml--;
	if (ml && ol == 1 && o[0] == '*')
		return fail(col, why, (size_t)(m - text),
			    "'*' (the whole subcommand) takes no MATCH");
	if (ml && m[0] == '@' && m[1] != '(' && !(ml == 4 && strncmp(m, "@sed", 4) == 0) &&
	    !(ml == 6 && strncmp(m, "@stdin", 6) == 0) &&
	    !(ml == 6 && strncmp(m, "@value", 6) == 0))
		return fail(col, why, (size_t)(m - text), "named matchers: @sed, @stdin, @value");
	r->tool = dup_n(t, tl);
	r->sub = sub ? dup_n(sub, sl) : NULL;
	r->opt = dup_n(o, ol);
	r->match = ml ? dup_n(m, ml) : NULL;
	if (!r->tool || !r->opt || (sub && !r->sub) || (ml && !r->match)) {
		row_free(r);
		return -ENOMEM;
	}
	return 0;
}

/* One row; dup: drop it when the table holds it already (a policy's rows;
 * the built-in ones are known distinct, and comparing each with all the
 * others was most of a launch's gate time). */
static int add_row(struct nsb_gate_policy *p, const char *text, bool dup, size_t *col,
		   const char **why)
{
	struct nsb_shellopt r;
	int ret = row_parse(text, &r, col, why);
	if (ret < 0)
		return ret;
	for (size_t i = 0; dup && i < p->n_shellopt; i++)
		if (row_eq(&p->shellopt[i], &r)) {
			row_free(&r);
			return 0;
		}
	if (p->n_shellopt >= NSB_MAX_GATE_SHELLOPT) {
		row_free(&r);
		return -E2BIG;
	}
	if (p->n_shellopt == p->cap_shellopt) {
		size_t cap = p->cap_shellopt ? 2 * p->cap_shellopt : 64;
		struct nsb_shellopt *n = realloc(p->shellopt, cap * sizeof(*n));
		if (!n) {
			row_free(&r);
			return -ENOMEM;
		}
		p->shellopt = n;
		p->cap_shellopt = cap;
	}
	p->shellopt[p->n_shellopt++] = r;
	return 0;
}

/*
 * The built-in rows of one tool (the first word up to ':' or a blank), each
 * tool once (gate_policy.h, lazy).  Past the list of tools kept, every
 * built-in row is loaded.  0 or -errno.
 */
static int load_tool(struct nsb_gate_policy *p, const char *tool)
{
	if (!tool || !*tool)
		return 0;
	for (size_t i = 0; i < p->n_lazy_tools; i++)
		if (strcmp(p->lazy_tools[i], tool) == 0)
			return 0;
	if (p->n_lazy_tools == ARRAY_SIZE(p->lazy_tools))
		return nsb_gate_shellopt_add_builtin(p);
	char *copy = strdup(tool);
	if (!copy)
		return -ENOMEM;
	p->lazy_tools[p->n_lazy_tools++] = copy;
	size_t n = strlen(tool);
	/* a policy's rows may be in already: compared then */
	bool dup = p->n_shellopt > 0;
	for (const char *row = nsb_gate_shellopt_builtin; *row; row = nsb_strs_next(row)) {
		if (strncmp(row, tool, n) != 0 || (row[n] != ':' && row[n] != ' '))
			continue;
		size_t col;
		const char *why;
		int r = add_row(p, row, dup, &col, &why);
		if (r < 0)
			return r == -EINVAL ? -ENOTRECOVERABLE : r;
	}
	return 0;
}

int nsb_gate_shellopt_add(struct nsb_gate_policy *p, const char *text, size_t *col,
			  const char **why)
{
	return add_row(p, text, true, col, why);
}

int nsb_gate_shellopt_add_builtin(struct nsb_gate_policy *p)
{
	/* Into a table that may hold a policy's rows already: compared then. */
	bool dup = p->n_shellopt > 0;

	for (const char *row = nsb_gate_shellopt_builtin; *row; row = nsb_strs_next(row)) {
		size_t col;
		const char *why;
		int r = add_row(p, row, dup, &col, &why);
		if (r < 0)
			return r == -EINVAL ? -ENOTRECOVERABLE : r; /* a bad built-in row: a bug */
	}
	return 0;
}

void nsb_gate_shellopt_free(struct nsb_gate_policy *p)
{
	for (size_t i = 0; i < p->n_shellopt; i++)
		row_free(&p->shellopt[i]);
	free(p->shellopt);
	p->shellopt = NULL;
	p->n_shellopt = p->cap_shellopt = 0;
}

void nsb_gate_shellopt_print(FILE *out, const struct nsb_shellopt *r)
{
	fprintf(out, "shell-option %s%s%s %s%s%s\n", r->tool, r->sub ? ":" : "",
		r->sub ? r->sub : "", r->opt, r->match ? " " : "", r->match ? r->match : "");
}

/* ---- the rule ------------------------------------------------------- */

static bool stdin_value(const char *v)
{
	return strcmp(v, "-") == 0 || nsb_gate_is_stdin_path(v);
}

static bool value_matches(const struct nsb_shellopt *r, const char *v)
{
	if (!r->match)
		return true;
	if (strcmp(r->match, "@sed") == 0)
		return nsb_gate_sed_runs_command(v);
	if (strcmp(r->match, "@stdin") == 0)
		return stdin_value(v);
	if (strcmp(r->match, "@value") == 0)
		return false; /* only says that the option takes a value (for %1) */
	if (strlen(v) > NSB_SHELLOPT_GLOB_MAX)
		return true; /* fail closed, and keep the glob's work bounded */
	return fnmatch(r->match, v, FNM_EXTMATCH | FNM_CASEFOLD) == 0;
}

/* Does row r's tool name this command? */
static bool tool_matches(const char *tool, const char *const names[4])
{
	for (int i = 0; i < 4; i++)
		if (names[i] && strcmp(tool, names[i]) == 0)
			return true;
	return false;
}

/*
 * The value of option word argv[i] under row option o, or NULL when the
 * word is not that option.  *vi is where the value is (i or i + 1).
 */
static const char *opt_value(const char *o, char *const *argv, int i, int e, int *vi)
{
	const char *a = argv[i];
	size_t ol = strlen(o);
	const char *next = i + 1 < e ? argv[i + 1] : NULL;

	*vi = i;
	if (o[0] == '+')
		return a[0] == '+' ? a + 1 : NULL;
	if (o[0] != '-') { /* NAME=: an assignment word */
		const char *eq = strchr(a, '=');
		if (!eq)
			return NULL;
		char name[NAME_MAX + 1], pat[NAME_MAX + 1];
		size_t n = (size_t)(eq - a);
		if (n > NAME_MAX || ol - 1 > NAME_MAX)
			return NULL;
		memcpy(name, a, n);
		name[n] = '\0';
		memcpy(pat, o, ol - 1);
		pat[ol - 1] = '\0';
		return fnmatch(pat, name, 0) == 0 ? eq + 1 : NULL;
	}
	if (o[1] != '-' && ol == 2) { /* -x: glued, next, or inside a cluster */
		if (a[0] != '-' || a[1] == '-' || !a[1])
			return NULL;
		for (const char *p = a + 1; *p; p++) {
			if (*p == o[1]) {
				*vi = p[1] ? i : i + 1;
				return p[1] ? p + 1 : next;
			}
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
				return NULL; /* past the letters: a glued value */
		}
		return NULL;
	}
	/* --long (GNU abbreviations too) or -long (also written --long) */
	const char *w = a;
	if (o[1] != '-' && strncmp(a, "--", 2) == 0)
		w = a + 1; /* gdb --ex for -ex */
	size_t wl = nsb_strcspn(w, "=");
	bool hit = o[1] == '-' ? (wl >= 3 && wl <= ol && strncmp(w, o, wl) == 0)
			       : (w[0] == '-' && wl == ol && strncmp(w, o, wl) == 0);
	if (!hit)
		return NULL;
	if (w[wl] == '=')
		return w + wl + 1;
	*vi = i + 1;
	return next;
}

static int refuse(struct nsb_gate_ctx *c, int idx, const char *tool, const struct nsb_shellopt *r)
{
	nsb_gate_refuse(c, NSB_RULE_EXEC_SHELL_OPTION, idx);
	nsb_gate_text(c->v->reason,
		      "'%s' makes %s run a command or program text taken from argv "
		      "(shell-option %s%s%s %s)",
		      c->in->argv[idx], tool, r->tool, r->sub ? ":" : "", r->sub ? r->sub : "",
		      r->opt);
	nsb_gate_text(c->v->hint,
		      "run the inner command as its own command line, with its arguments as "
		      "separate words, or write it to a script file under an --rw directory and "
		      "run that file; configure %s in a file rather than with a command on its "
		      "command line; an operator can allow this with --allow-inline-code",
		      tool);
	return 1;
}

/* Where row r starts to count: after its subcommand word, or after the tool. */
static int row_start(const struct nsb_shellopt *r, char *const *argv, int s, int e)
{
	if (!r->sub)
		return s + 1;
	for (int i = s + 1; i < e; i++)
		if (strcmp(argv[i], r->sub) == 0)
			return i + 1;
	return -1;
}

/*
 * %1: the first operand, unless another row of the tool named an option
 * before it (the program came from there); @value rows only say that their
 * option takes the next word.
 */
static int check_first_operand(struct nsb_gate_ctx *c, const struct nsb_shellopt *r,
			       const char *const names[4], int start, int e)
{
	char *const *argv = c->in->argv;
	for (int i = start; i < e; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			if (i + 1 < e && value_matches(r, argv[i + 1]))
				return refuse(c, i + 1, names[0], r);
			return 0;
		}
		if (a[0] != '-' || !a[1])
			return value_matches(r, a) ? refuse(c, i, names[0], r) : 0;
		int skip = i;
		for (size_t k = 0; k < c->p->n_shellopt; k++) {
			const struct nsb_shellopt *o = &c->p->shellopt[k];
			int vi;
			if (o == r || o->opt[0] == '%' || o->opt[0] == '*' ||
			    !tool_matches(o->tool, names) || !str_eq(o->sub, r->sub) ||
			    !opt_value(o->opt, argv, i, e, &vi))
				continue;
			if (!o->match || strcmp(o->match, "@value") != 0)
				return 0; /* the program came from that option */
			if (vi > skip)
				skip = vi;
		}
		i = skip;
	}
	return 0;
}

static int check_row(struct nsb_gate_ctx *c, const struct nsb_shellopt *r,
		     const char *const names[4], int s, int e)
{
	char *const *argv = c->in->argv;
	int start = row_start(r, argv, s, e);
	if (start < 0)
		return 0;
	if (r->opt[0] == '*')
		return refuse(c, start - 1, names[0], r);
	if (r->opt[0] == '%')
		return check_first_operand(c, r, names, start, e);
	bool assign = r->opt[0] != '-' && r->opt[0] != '+';
	for (int i = start; i < e; i++) {
		int vi;
		const char *a = argv[i];
		if (strcmp(a, "--") == 0 && !assign)
			break;
		/* NAME=: the assignments before the command (env -u X A=1 CMD) */
		if (assign && a[0] != '-' && !strchr(a, '=') && strcmp(a, "--") != 0 &&
		    !(i > start && argv[i - 1][0] == '-' && strlen(argv[i - 1]) == 2))
			break;
		const char *v = opt_value(r->opt, argv, i, e, &vi);
		if (v && value_matches(r, v))
			return refuse(c, i, names[0], r);
		if (v && vi > i)
			i = vi; /* its value is not an option */
	}
	return 0;
}

int nsb_gate_check_shellopt(struct nsb_gate_ctx *c, int s, int e, const char *called,
			    const char *real_base)
{
	char fam_called[NAME_MAX + 1], fam_real[NAME_MAX + 1];
	if (c->p->allow_inline_code)
		return 0;
	nsb_gate_tool_family(called, fam_called, sizeof(fam_called));
	nsb_gate_tool_family(real_base, fam_real, sizeof(fam_real));
	/* vim.basic, pdb.py: the part before the dot */
	for (char *f = fam_called; f; f = f == fam_called ? fam_real : NULL) {
		char *dot = strchr(f, '.');
		if (dot && dot != f)
			*dot = '\0';
	}
	const char *const names[4] = {called, real_base, fam_called, fam_real};
	if (c->p->lazy) {
		struct nsb_gate_policy *mp = nsb_gate_policy_mut(c->p);
		for (int i = 0; i < 4 && !mp->lazy_err; i++) {
			int r = load_tool(mp, names[i]);
			if (r < 0)
				mp->lazy_err = r; /* nsb_gate_check gives no verdict */
		}
	}
	if (!c->p->n_shellopt)
		return 0;
	for (size_t k = 0; k < c->p->n_shellopt; k++) {
		const struct nsb_shellopt *r = &c->p->shellopt[k];
		if (tool_matches(r->tool, names) && check_row(c, r, names, s, e))
			return 1;
	}
	return 0;
}
