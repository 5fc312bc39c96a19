// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wrapper and deny-mode tables (supervisor, pure): the words of one
 * directive parsed into a struct the exec rules read, and printed back in
 * the same words.  A word means one thing: an option word names one option
 * and its class by one suffix, a key word is KEY or KEY=VALUE.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate_policy.h"
#include "gate/gate_tables.h"
#include "base/fmt.h"
#include "base/json.h"
#include "base/util.h"

static const char *const run_names[] = {
	[NSB_RUN_FIRST] = "first", [NSB_RUN_ENV] = "env",     [NSB_RUN_APPLET] = "applet",
	[NSB_RUN_FIND] = "find",   [NSB_RUN_INPUT] = "input",
};

static const struct {
	const char *word;
	unsigned flag;
} keywords[] = {
	{"dash", NSB_WRAP_DASH},
	{"adjust", NSB_WRAP_ADJUST},
	{"lenient", NSB_WRAP_LENIENT},
	{"input-args", NSB_WRAP_INPUT_ARGS},
	{"input-commands", NSB_WRAP_INPUT_COMMANDS},
	{"shell", NSB_WRAP_SHELL},
};

static int terr(char *err, int r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int terr(char *err, int r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	nsb_vformat(err, NSB_GATE_TABLE_ERR_MAX, fmt, ap);
	va_end(ap);
	return r;
}

/* The next blank-separated word of *s: its start and length (0 at the end). */
static const char *next_word(const char **s, size_t *len)
{
	const char *w = *s;
	while (*w == ' ' || *w == '\t' || *w == '\r')
		w++;
	*len = nsb_strcspn(w, " \t\r");
	*s = w + *len;
	return w;
}

static bool word_chars_ok(const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)w[i] <= ' ' || w[i] == 0x7f)
			return false;
	return true;
}

/* "-x" or "--name" with its class (one suffix); false when the word is malformed. */
static bool option_word(const char *w, size_t n, size_t *name_len, enum nsb_wopt_class *cls)
{
	static const char marks[] = "=?!.@%";
	static const enum nsb_wopt_class by_mark[] = {
		NSB_WOPT_ARG,	 NSB_WOPT_OPTIONAL, NSB_WOPT_REFUSE,
		NSB_WOPT_NOEXEC, NSB_WOPT_SUBST,    NSB_WOPT_SPLIT,
	};
	const char *m = n > 1 ? strchr(marks, w[n - 1]) : NULL;

	*cls = NSB_WOPT_FLAG;
	*name_len = n;
	if (m && *m) {
		*cls = by_mark[m - marks];
		*name_len = n - 1;
		if (*cls == NSB_WOPT_SUBST && n > 2 && w[n - 2] == '?') {
			*cls = NSB_WOPT_SUBST_OPT;
			*name_len = n - 2;
		}
	}
	size_t k = *name_len;
	if (k == 2 && w[0] == '-' && w[1] != '-')
		return true;
	if (k < 3 || w[0] != '-' || w[1] != '-')
		return false;
	for (size_t i = 2; i < k; i++)
		if (!(w[i] == '-' || w[i] == '_' || w[i] == '.' || (w[i] >= '0' && w[i] <= '9') ||
		      (w[i] >= 'a' && w[i] <= 'z') || (w[i] >= 'A' && w[i] <= 'Z')))
			return false;
	return true;
}

static void wrapper_free(struct nsb_wrapper *w)
{
	free(w->name);
	free(w->subst);
	free(w->end);
	for (size_t i = 0; i < w->n_words; i++)
		free(w->words[i]);
	free(w->words);
	for (int k = 0; k < NSB_WOPT_N; k++)
		free(w->longs[k]);
	memset(w, 0, sizeof(*w));
}

/*
 * Build the option parser's view from the option words.  Each word is
 * stored as "WORD\0NAME\0C": the word as written (printing), the option's
 * name, which the long lists point at, and its class as one byte.
 */
static int wrapper_derive(struct nsb_wrapper *w)
{
	size_t n_long[NSB_WOPT_N] = {0};

	/* counted first: one allocation per class */
	for (size_t i = 0; i < w->n_words; i++) {
		const char *name = w->words[i] + strlen(w->words[i]) + 1;
		if (strlen(name) > 2)
			n_long[(unsigned char)name[strlen(name) + 1]]++;
	}
	for (int c = 0; c < NSB_WOPT_N; c++) {
		if (!n_long[c])
			continue;
		w->longs[c] = calloc(n_long[c] + 1, sizeof(*w->longs[c]));
		if (!w->longs[c])
			return -ENOMEM;
		n_long[c] = 0;
	}
	for (size_t i = 0; i < w->n_words; i++) {
		const char *name = w->words[i] + strlen(w->words[i]) + 1;
		size_t len = strlen(name);
		unsigned cls = (unsigned char)name[len + 1];
		if (len > 2) {
			w->longs[cls][n_long[cls]++] = name;
			continue;
		}
		size_t k = strlen(w->shorts[cls]);
		if (!strchr(w->shorts[cls], name[1]))
			w->shorts[cls][k] = name[1];
	}
	return 0;
}

void nsb_gate_wrapper_optspec(const struct nsb_wrapper *w, struct optspec *ret)
{
	*ret = (struct optspec){
		.flags = w->shorts[NSB_WOPT_FLAG],
		.arg = w->shorts[NSB_WOPT_ARG],
		.optrest = w->shorts[NSB_WOPT_OPTIONAL],
		.refuse = w->shorts[NSB_WOPT_REFUSE],
		.noexec = w->shorts[NSB_WOPT_NOEXEC],
		.subst = w->shorts[NSB_WOPT_SUBST],
		.subst_opt = w->shorts[NSB_WOPT_SUBST_OPT],
		.split = w->shorts[NSB_WOPT_SPLIT],
		.long_flag = w->longs[NSB_WOPT_FLAG],
		.long_arg = w->longs[NSB_WOPT_ARG],
		.long_optrest = w->longs[NSB_WOPT_OPTIONAL],
		.long_refuse = w->longs[NSB_WOPT_REFUSE],
		.long_noexec = w->longs[NSB_WOPT_NOEXEC],
		.long_subst = w->longs[NSB_WOPT_SUBST],
		.long_subst_opt = w->longs[NSB_WOPT_SUBST_OPT],
		.long_split = w->longs[NSB_WOPT_SPLIT],
		.strict = !(w->flags & NSB_WRAP_LENIENT),
		.dash_is_opt = w->flags & NSB_WRAP_DASH,
		.adjustment = w->flags & NSB_WRAP_ADJUST,
		.subst_default = w->subst ? w->subst : "{}",
	};
}

static char *strndup_word(const char *w, size_t n)
{
	char *s = malloc(n + 1);
	if (s) {
		memcpy(s, w, n);
		s[n] = '\0';
	}
	return s;
}

/* A name as deny-exec takes it, without the '*'. */
static bool tool_name_ok(const char *w, size_t n)
{
	return n > 0 && n <= NSB_GATE_NAME_MAX && word_chars_ok(w, n) && !memchr(w, '/', n) &&
	       !memchr(w, '*', n);
}

/* One key word of a wrapper directive (run=, skip=, subst=, end=, a keyword). */
static int wrapper_key(struct nsb_wrapper *w, const char *word, size_t n, char *err)
{
	const char *eq = memchr(word, '=', n);
	size_t kn = eq ? (size_t)(eq - word) : n;
	const char *val = eq ? eq + 1 : NULL;
	size_t vn = eq ? n - kn - 1 : 0;

	if (!eq) {
		for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
			if (strlen(keywords[i].word) == n &&
			    memcmp(keywords[i].word, word, n) == 0) {
				w->flags |= keywords[i].flag;
				return 0;
			}
		return terr(err, -EINVAL,
			    "unknown word '%.*s' (keys: run= skip= subst= end= dash adjust "
			    "lenient input-args input-commands shell; options start with '-')",
			    (int)(n > 64 ? 64 : n), word);
	}
	if (kn == 3 && memcmp(word, "run", 3) == 0) {
		for (size_t i = 0; i < sizeof(run_names) / sizeof(run_names[0]); i++)
			if (strlen(run_names[i]) == vn && memcmp(run_names[i], val, vn) == 0) {
				w->run = (enum nsb_wrap_run)i;
				return 0;
			}
		return terr(err, -EINVAL, "run= takes first, env, applet, find or input");
	}
	if (kn == 4 && memcmp(word, "skip", 4) == 0) {
		if (vn != 1 || val[0] < '0' || val[0] > '8')
			return terr(err, -EINVAL, "skip= takes a count from 0 to 8");
		w->skip = (unsigned)(val[0] - '0');
		return 0;
	}
	bool subst = kn == 5 && memcmp(word, "subst", 5) == 0;
	if (subst || (kn == 3 && memcmp(word, "end", 3) == 0)) {
		if (vn == 0 || vn > NSB_GATE_WORD_MAX)
			return terr(err, -EINVAL, "%.*s= takes a word of 1 to %d bytes", (int)kn,
				    word, NSB_GATE_WORD_MAX);
		char **slot = subst ? &w->subst : &w->end;
		free(*slot);
		*slot = strndup_word(val, vn);
		return *slot ? 0 : terr(err, -ENOMEM, "out of memory");
	}
	return terr(err, -EINVAL, "unknown key '%.*s='", (int)(kn > 64 ? 64 : kn), word);
}

/* Long: one line of the grammar per branch, each with its own message. */
static int wrapper_parse(struct nsb_wrapper *w, const char *args, size_t *ret_off, char *err)
{
	const char *s = args, *word;
	size_t n;
	int r;

	word = next_word(&s, &n);
	*ret_off = (size_t)(word - args);
	if (n == 0)
		return terr(err, -EINVAL, "'wrapper' needs a NAME");
	if (!tool_name_ok(word, n))
		return terr(err, -EINVAL,
			    "NAME must be a basename of at most %d bytes, without "
			    "'/' or '*'",
			    NSB_GATE_NAME_MAX);
	w->name = strndup_word(word, n);
	if (!w->name)
		return terr(err, -ENOMEM, "out of memory");
	while ((word = next_word(&s, &n)), n > 0) {
		*ret_off = (size_t)(word - args);
		if (!word_chars_ok(word, n) || n > NSB_GATE_WORD_MAX)
			return terr(err, -EINVAL, "a word is at most %d printable bytes",
				    NSB_GATE_WORD_MAX);
		if (word[0] != '-') {
			r = wrapper_key(w, word, n, err);
			if (r < 0)
				return r;
			continue;
		}
		size_t len;
		enum nsb_wopt_class cls;
		if (!option_word(word, n, &len, &cls))
			return terr(
				err, -EINVAL,
				"bad option word '%.*s': -X or --NAME, then nothing (a flag) or "
				"one of = ? ! . @ ?@ %%",
				(int)n, word);
		if (w->n_words >= NSB_GATE_MAX_WRAP_WORDS)
			return terr(err, -E2BIG, "too many option words (at most %d)",
				    NSB_GATE_MAX_WRAP_WORDS);
		if (!w->words) {
			w->words = calloc(NSB_GATE_MAX_WRAP_WORDS, sizeof(*w->words));
			if (!w->words)
				return terr(err, -ENOMEM, "out of memory");
		}
		char *buf = malloc(n + 1 + len + 2);
		if (!buf)
			return terr(err, -ENOMEM, "out of memory");
		memcpy(buf, word, n);
		buf[n] = '\0';
		memcpy(buf + n + 1, word, len);
		buf[n + 1 + len] = '\0';
		buf[n + 2 + len] = (char)cls;
		w->words[w->n_words++] = buf;
	}
	r = wrapper_derive(w);
	return r < 0 ? terr(err, r, "out of memory") : 0;
}

int nsb_gate_wrapper_add(struct nsb_gate_policy *p, const char *args, size_t *ret_off, char *err)
{
	struct nsb_wrapper w = {0};
	int r = wrapper_parse(&w, args, ret_off, err);
	if (r < 0) {
		wrapper_free(&w);
		return r;
	}
	for (size_t i = 0; i < p->n_wrappers; i++)
		if (p->wrappers[i].name && w.name && strcmp(p->wrappers[i].name, w.name) == 0) {
			wrapper_free(&p->wrappers[i]);
			p->wrappers[i] = w;
			return 0;
		}
	if (p->n_wrappers >= NSB_GATE_MAX_WRAPPERS_TABLE) {
		wrapper_free(&w);
		*ret_off = 0;
		return terr(err, -E2BIG, "too many wrapper entries (at most %d)",
			    NSB_GATE_MAX_WRAPPERS_TABLE);
	}
	/* All the room at once: a row is loaded while a caller holds a pointer
	 * to another (gate_wrap.c judging the command inside a wrapper), so
	 * the table never moves.  Untouched pages cost nothing. */
	if (!p->wrappers)
		p->wrappers = calloc(NSB_GATE_MAX_WRAPPERS_TABLE, sizeof(*p->wrappers));
	if (!p->wrappers) {
		wrapper_free(&w);
		return terr(err, -ENOMEM, "out of memory");
	}
	p->wrappers[p->n_wrappers] = w;
	p->n_wrappers++;
	return 0;
}

int nsb_gate_deny_mode_add(struct nsb_gate_policy *p, const char *args, size_t *ret_off, char *err)
{
	struct nsb_deny_mode m = {0};
	const char *s = args, *word;
	size_t n;
	int r = 0;

	word = next_word(&s, &n);
	*ret_off = (size_t)(word - args);
	if (n == 0)
		return terr(err, -EINVAL, "'deny-mode' needs a TOOL and a WORD");
	if (!tool_name_ok(word, n))
		return terr(err, -EINVAL,
			    "TOOL must be a basename of at most %d bytes, without '/' or '*'",
			    NSB_GATE_NAME_MAX);
	m.tool = strndup_word(word, n);
	if (!m.tool)
		return terr(err, -ENOMEM, "out of memory");
	while ((word = next_word(&s, &n)), n > 0) {
		*ret_off = (size_t)(word - args);
		if (m.n_words >= NSB_GATE_MAX_MODE_WORDS) {
			r = terr(err, -E2BIG, "at most %d WORDs", NSB_GATE_MAX_MODE_WORDS);
			goto fail;
		}
		if (!word_chars_ok(word, n) || n > NSB_GATE_WORD_MAX ||
		    (memchr(word, '*', n) && (char *)memchr(word, '*', n) != word + n - 1)) {
			r = terr(err, -EINVAL,
				 "a WORD is at most %d printable bytes; '*' may only end it",
				 NSB_GATE_WORD_MAX);
			goto fail;
		}
		m.words[m.n_words] = strndup_word(word, n);
		if (!m.words[m.n_words++]) {
			r = terr(err, -ENOMEM, "out of memory");
			goto fail;
		}
	}
	if (m.n_words == 0) {
		r = terr(err, -EINVAL,
			 "'deny-mode %s' needs a WORD (for example: deny-mode find "
			 "-delete)",
			 m.tool);
		goto fail;
	}
	for (size_t i = 0; i < p->n_deny_modes; i++) {
		const struct nsb_deny_mode *o = &p->deny_modes[i];
		bool same = strcmp(o->tool, m.tool) == 0 && o->n_words == m.n_words;
		for (size_t k = 0; same && k < m.n_words; k++)
			same = strcmp(o->words[k], m.words[k]) == 0;
		if (same)
			goto fail; /* a duplicate: ignored, as deny-exec ignores one */
	}
	*ret_off = 0;
	if (p->n_deny_modes >= NSB_GATE_MAX_DENY_MODES) {
		r = terr(err, -E2BIG, "too many deny-mode entries (at most %d)",
			 NSB_GATE_MAX_DENY_MODES);
		goto fail;
	}
	struct nsb_deny_mode *v = realloc(p->deny_modes, (p->n_deny_modes + 1) * sizeof(*v));
	if (!v) {
		r = terr(err, -ENOMEM, "out of memory");
		goto fail;
	}
	p->deny_modes = v;
	p->deny_modes[p->n_deny_modes++] = m;
	return 0;
fail:
	free(m.tool);
	for (size_t k = 0; k < m.n_words; k++)
		free(m.words[k]);
	return r;
}

void nsb_gate_tables_free(struct nsb_gate_policy *p)
{
	for (size_t i = 0; i < p->n_wrappers; i++)
		wrapper_free(&p->wrappers[i]);
	free(p->wrappers);
	p->wrappers = NULL;
	p->n_wrappers = 0;
	for (size_t i = 0; i < p->n_deny_modes; i++) {
		free(p->deny_modes[i].tool);
		for (size_t k = 0; k < p->deny_modes[i].n_words; k++)
			free(p->deny_modes[i].words[k]);
	}
	free(p->deny_modes);
	p->deny_modes = NULL;
	p->n_deny_modes = 0;
}

/* One built-in line into p: 0, or -ENOMEM/-EINVAL (a bad built-in line). */
static int add_builtin_line(struct nsb_gate_policy *p, const char *line)
{
	char err[NSB_GATE_TABLE_ERR_MAX];
	size_t off;
	int r;

	if (strncmp(line, "wrapper ", 8) == 0)
		r = nsb_gate_wrapper_add(p, line + 8, &off, err);
	else if (strncmp(line, "deny-mode ", 10) == 0)
		r = nsb_gate_deny_mode_add(p, line + 10, &off, err);
	else
		r = -EINVAL;
	return r < 0 && r != -ENOMEM ? -EINVAL : r; /* the unit tests keep the text valid */
}

/* The deny-mode rows; the wrapper rows wait for a command that needs them
 * (nsb_gate_find_wrapper) or for nsb_gate_wrappers_load_all. */
int nsb_gate_tables_default(struct nsb_gate_policy *p)
{
	for (const char *line = nsb_gate_builtin_tables; *line; line = nsb_strs_next(line)) {
		if (strncmp(line, "wrapper ", 8) == 0)
			continue;
		int r = add_builtin_line(p, line);
		if (r < 0)
			return r;
	}
	return 0;
}

static const struct nsb_wrapper *find_loaded(const struct nsb_gate_policy *p, const char *name)
{
	for (size_t i = 0; name && i < p->n_wrappers; i++)
		if (p->wrappers[i].name && strcmp(p->wrappers[i].name, name) == 0)
			return &p->wrappers[i];
	return NULL;
}

/* The built-in line "wrapper NAME ...", or NULL. */
static const char *builtin_wrapper_line(const char *name)
{
	size_t n = strlen(name);

	for (const char *line = nsb_gate_builtin_tables; *line; line = nsb_strs_next(line)) {
		if (strncmp(line, "wrapper ", 8) == 0 && strncmp(line + 8, name, n) == 0 &&
		    (line[8 + n] == ' ' || line[8 + n] == '\0'))
			return line;
	}
	return NULL;
}

int nsb_gate_wrappers_load_all(struct nsb_gate_policy *p)
{
	for (const char *line = nsb_gate_builtin_tables; *line; line = nsb_strs_next(line)) {
		const char *name = line + 8;
		if (strncmp(line, "wrapper ", 8) != 0)
			continue;
		/* a policy's entry of that name stands */
		char buf[NSB_GATE_NAME_MAX + 1];
		size_t n = nsb_strcspn(name, " ");
		if (n > NSB_GATE_NAME_MAX)
			return -EINVAL;
		memcpy(buf, name, n);
		buf[n] = '\0';
		if (find_loaded(p, buf))
			continue;
		int r = add_builtin_line(p, line);
		if (r < 0)
			return r;
	}
	return 0;
}

static void print_wrapper(FILE *out, const struct nsb_wrapper *w)
{
	fprintf(out, "wrapper %s", w->name);
	if (w->run != NSB_RUN_FIRST)
		fprintf(out, " run=%s", run_names[w->run]);
	if (w->skip)
		fprintf(out, " skip=%u", w->skip);
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (w->flags & keywords[i].flag)
			fprintf(out, " %s", keywords[i].word);
	if (w->subst)
		fprintf(out, " subst=%s", w->subst);
	if (w->end)
		fprintf(out, " end=%s", w->end);
	for (size_t i = 0; i < w->n_words; i++)
		fprintf(out, " %s", w->words[i]);
	fputc('\n', out);
}

void nsb_gate_tables_print(FILE *out, const struct nsb_gate_policy *p)
{
	/* every row, the built-in ones too (gate_policy.h, lazy) */
	nsb_gate_policy_load_builtin(nsb_gate_policy_mut(p));
	fprintf(out, "\n# Wrappers: tools that run the command in their operands, which is\n"
		     "# judged like the command itself (exec.wrapper).  Option words: -X or\n"
		     "# --NAME, then = (takes a value), ? (optional value), ! (hides the\n"
		     "# command: refused), . (runs no command), @ (the substitution string),\n"
		     "# ?@ (optional substitution string), %% (a command line, split).\n");
	for (size_t i = 0; i < p->n_wrappers; i++)
		print_wrapper(out, &p->wrappers[i]);
	fprintf(out, "\n# Destructive modes of ordinary tools (exec.destructive_mode): TOOL\n"
		     "# run with arguments matching the WORDs in order.\n");
	for (size_t i = 0; i < p->n_deny_modes; i++) {
		const struct nsb_deny_mode *m = &p->deny_modes[i];
		fprintf(out, "deny-mode %s", m->tool);
		for (size_t k = 0; k < m->n_words; k++)
			fprintf(out, " %s", m->words[k]);
		fputc('\n', out);
	}
}

const struct nsb_wrapper *nsb_gate_find_wrapper(const struct nsb_gate_policy *p, const char *name)
{
	const struct nsb_wrapper *w = find_loaded(p, name);
	const char *line;

	if (w || !name || !p->lazy || !(line = builtin_wrapper_line(name)))
		return w;
	/* Parsed on first use (gate_policy.h, lazy).  A failure (memory)
	 * leaves the name without its entry, which would read as "not a
	 * wrapper": nsb_gate_check fails the judgement instead (lazy_err). */
	int r = add_builtin_line(nsb_gate_policy_mut(p), line);
	if (r < 0)
		nsb_gate_policy_mut(p)->lazy_err = r;
	return find_loaded(p, name);
}

void nsb_gate_tables_json(struct nsb_json *j, const struct nsb_gate_policy *p)
{
	nsb_gate_policy_load_builtin(nsb_gate_policy_mut(p));
	nsb_json_key(j, "wrappers");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < p->n_wrappers; i++)
		nsb_json_string(j, p->wrappers[i].name);
	nsb_json_end_array(j);
	nsb_json_key(j, "deny_modes");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < p->n_deny_modes; i++) {
		const struct nsb_deny_mode *m = &p->deny_modes[i];
		char buf[NSB_GATE_NAME_MAX + NSB_GATE_MAX_MODE_WORDS * (NSB_GATE_WORD_MAX + 1) + 1];
		size_t n = (size_t)nsb_format(buf, sizeof(buf), "%s", m->tool);
		for (size_t k = 0; k < m->n_words && n < sizeof(buf); k++)
			n += (size_t)nsb_format(buf + n, sizeof(buf) - n, " %s", m->words[k]);
		nsb_json_string(j, buf);
	}
	nsb_json_end_array(j);
}
