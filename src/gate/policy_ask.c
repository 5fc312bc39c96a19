// SPDX-License-Identifier: GPL-2.0-or-later
/* The policy file's ask rules (policy_ask.h).  Pure (supervisor). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "base/macro.h"
#include "base/util.h"
#include "gate/policy_ask.h"

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

static const char *const kinds[] = {
	[NSB_ASK_EXEC] = "exec",
	[NSB_ASK_ARGV] = "argv",
	[NSB_ASK_SIDE_EFFECT] = "side-effect",
};

/* A command NAME as deny-exec takes it: a basename, '*' only at the end. */
static const char *name_fault(const char *w, size_t len, size_t *off)
{
	const char *slash = memchr(w, '/', len), *star = memchr(w, '*', len);

	if (len > NSB_GATE_NAME_MAX)
		return *off = 0, "NAME is longer than 255 bytes";
	if (slash)
		return *off = (size_t)(slash - w), "NAME must not contain '/': give the basename";
	if (star && star != w + len - 1)
		return *off = (size_t)(star - w), "'*' may only end a NAME";
	return NULL;
}

static const char *effect_fault(const char *w, size_t len, size_t *off)
{
	if (len > NSB_ASK_EFFECT_MAX)
		return *off = 0, "EFFECT is longer than 32 bytes";
	for (size_t i = 0; i < len; i++)
		if (!((w[i] >= 'a' && w[i] <= 'z') || w[i] == '_'))
			return *off = i,
			       "EFFECT is a word of a-z and '_': network, writes_workspace, read_only, ...";
	return NULL;
}

/* The consequence after ':': one line of printable text, bounded. */
static const char *consequence_fault(const char *t, size_t len, size_t *off)
{
	if (len == 0)
		return *off = 0, "':' needs a CONSEQUENCE after it (or leave both out)";
	if (len > NSB_ASK_CONSEQUENCE_MAX)
		return *off = NSB_ASK_CONSEQUENCE_MAX, "CONSEQUENCE is longer than 200 bytes";
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)t[i] < 0x20 || t[i] == 0x7f)
			return *off = i, "control character in the CONSEQUENCE";
	return NULL;
}

static void rule_free(struct nsb_ask_rule *r)
{
	for (size_t i = 0; i < r->n_words; i++)
		free(r->words[i]);
	free(r->consequence);
	*r = (struct nsb_ask_rule){0};
}

/* Split arg into the rule's words; the consequence starts after a ':' word. */
static int parse_words(const char *arg, struct nsb_ask_rule *r, const char **ret_conseq,
		       size_t *ret_col, const char **ret_why)
{
	const char *s = arg;
	bool first = true;

	*ret_conseq = NULL;
	for (;;) {
		while (blank(*s))
			s++;
		size_t len = nsb_strcspn(s, " \t\r");
		if (first && (!*s || (len == 1 && *s == ':')))
			return *ret_col = (size_t)(s - arg),
			       *ret_why = "'ask' needs exec NAME, argv NAME WORD... or side-effect "
					  "EFFECT",
			       -EINVAL;
		if (!*s)
			return 0;
		if (len == 1 && *s == ':') {
			*ret_conseq = s + 1;
			return 0;
		}
		if (first) {
			size_t k = 0;
			while (k < ARRAY_SIZE(kinds) &&
			       !(strlen(kinds[k]) == len && strncmp(kinds[k], s, len) == 0))
				k++;
			if (k == ARRAY_SIZE(kinds))
				return *ret_col = (size_t)(s - arg),
				       *ret_why = "'ask' takes exec NAME, argv NAME WORD... or "
						  "side-effect EFFECT",
				       -EINVAL;
			r->kind = (enum nsb_ask_kind)k;
			first = false;
			s += len;
			continue;
		}
		size_t off = 0;
		const char *why = NULL;
		if (r->n_words == NSB_ASK_MAX_WORDS)
			why = "an argv rule has at most 16 words";
		else if (r->kind == NSB_ASK_SIDE_EFFECT)
			why = effect_fault(s, len, &off);
		else if (r->n_words == 0)
			why = name_fault(s, len, &off);
		else if (len > NSB_GATE_NAME_MAX)
			why = "a WORD is longer than 255 bytes";
		if (why)
			return *ret_col = (size_t)(s - arg) + off, *ret_why = why, -EINVAL;
		if (!(r->words[r->n_words] = strndup(s, len)))
			return *ret_why = "out of memory", -ENOMEM;
		r->n_words++;
		s += len;
	}
}

/* Words enough for the kind, and no more than it takes. */
static int check_shape(const char *arg, const struct nsb_ask_rule *r, const char *conseq,
		       size_t *ret_col, const char **ret_why)
{
	size_t end = conseq ? (size_t)(conseq - arg) - 1 : strlen(arg);

	if (r->n_words == 0)
		return *ret_col = end,
		       *ret_why = r->kind == NSB_ASK_SIDE_EFFECT ? "'side-effect' needs an EFFECT"
								 : "the rule needs a NAME",
		       -EINVAL;
	if (r->kind != NSB_ASK_ARGV && r->n_words > 1)
		return *ret_col = end,
		       *ret_why = r->kind == NSB_ASK_EXEC
					  ? "'exec' takes one NAME; 'argv' takes NAME WORD..."
					  : "'side-effect' takes one EFFECT",
		       -EINVAL;
	return 0;
}

/* Trim the consequence after ':' and keep a copy: 0 or -errno. */
static int take_consequence(const char *arg, const char *conseq, struct nsb_ask_rule *r,
			    size_t *ret_col, const char **ret_why)
{
	size_t off = 0, len;

	while (blank(*conseq))
		conseq++;
	len = strlen(conseq);
	while (len > 0 && blank(conseq[len - 1]))
		len--;
	*ret_why = consequence_fault(conseq, len, &off);
	if (*ret_why) {
		*ret_col = (size_t)(conseq - arg) + off;
		return -EINVAL;
	}
	if (!(r->consequence = strndup(conseq, len)))
		return *ret_why = "out of memory", -ENOMEM;
	return 0;
}

int nsb_ask_add(struct nsb_gate_policy *p, const char *arg, size_t *ret_col, const char **ret_why)
{
	struct nsb_ask_rule r = {0};
	const char *conseq = NULL;
	int err;

	*ret_col = 0;
	if (p->ask && p->ask->n >= NSB_ASK_MAX_RULES)
		return *ret_why = "too many ask rules (at most 64)", -E2BIG;
	err = parse_words(arg, &r, &conseq, ret_col, ret_why);
	if (err == 0)
		err = check_shape(arg, &r, conseq, ret_col, ret_why);
	if (err == 0 && conseq)
		err = take_consequence(arg, conseq, &r, ret_col, ret_why);
	if (err < 0) {
		rule_free(&r);
		return err;
	}
	if (!p->ask && !(p->ask = calloc(1, sizeof(*p->ask)))) {
		rule_free(&r);
		return *ret_why = "out of memory", -ENOMEM;
	}
	p->ask->rule[p->ask->n++] = r;
	return 0;
}

void nsb_ask_rule_text(const struct nsb_ask_rule *r, char *buf, size_t size)
{
	size_t n = (size_t)nsb_format(buf, size, "ask %s", kinds[r->kind]);

	for (size_t i = 0; i < r->n_words && n < size; i++)
		n += (size_t)nsb_format(buf + n, size - n, " %s", r->words[i]);
}

void nsb_ask_print(FILE *out, const struct nsb_gate_policy *p)
{
	char text[NSB_ASK_RULE_TEXT_MAX];

	fprintf(out, "\n# Ask rules (APPROVALS): allowed by the rules above, yet a human decides;\n"
		     "# the run needs --approved with the approval_id nsbox --check prints.\n");
	for (size_t i = 0; p->ask && i < p->ask->n; i++) {
		const struct nsb_ask_rule *r = &p->ask->rule[i];
		nsb_ask_rule_text(r, text, sizeof(text));
		if (r->consequence)
			fprintf(out, "%s : %s\n", text, r->consequence);
		else
			fprintf(out, "%s\n", text);
	}
}

/* NAME against a command's name: exact, or a prefix before a final '*'. */
static bool name_match(const char *pat, const char *name)
{
	size_t n = strlen(pat);

	if (!name)
		return false;
	if (n > 0 && pat[n - 1] == '*')
		return strncmp(pat, name, n - 1) == 0;
	return strcmp(pat, name) == 0;
}

/*
 * The WORDs of an argv rule, in order among the arguments, others allowed
 * in between: "git push" holds "git -C dir push" too.  An ask rule that
 * asks once too often costs a human a look; one that can be stepped round
 * with an option costs the approval its point.
 */
static bool words_match(const struct nsb_ask_rule *r, char *const *argv, int s, int e)
{
	size_t w = 1;

	for (int i = s + 1; i < e && w < r->n_words; i++)
		if (strcmp(argv[i], r->words[w]) == 0)
			w++;
	return w == r->n_words;
}

void nsb_gate_ask_cmd(struct nsb_gate_ctx *c, int s, int e, const char *called,
		      const char *real_base)
{
	const struct nsb_ask_rules *a = c->p->ask;

	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++) {
		const struct nsb_ask_rule *r = &a->rule[i];
		/* The earliest rule wins: nothing later can improve on it. */
		if (c->v->ask_rule && (size_t)c->v->ask_rule <= i + 1)
			return;
		if (r->kind == NSB_ASK_SIDE_EFFECT)
			continue;
		if (!name_match(r->words[0], called) && !name_match(r->words[0], real_base))
			continue;
		if (r->kind == NSB_ASK_ARGV && !words_match(r, c->in->argv, s, e))
			continue;
		c->v->ask_rule = (int)i + 1;
		c->v->ask_argv_index = s;
		return;
	}
}

const struct nsb_ask_rule *nsb_ask_side_effect(const struct nsb_gate_policy *p,
					       const char *const *effects, size_t n,
					       size_t *ret_index)
{
	for (size_t i = 0; p->ask && i < p->ask->n; i++) {
		const struct nsb_ask_rule *r = &p->ask->rule[i];
		if (r->kind != NSB_ASK_SIDE_EFFECT)
			continue;
		for (size_t k = 0; k < n; k++)
			if (effects[k] && strcmp(effects[k], r->words[0]) == 0) {
				*ret_index = i;
				return r;
			}
	}
	return NULL;
}

void nsb_ask_free(struct nsb_gate_policy *p)
{
	for (size_t i = 0; p->ask && i < p->ask->n; i++)
		rule_free(&p->ask->rule[i]);
	free(p->ask);
	p->ask = NULL;
}
