// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Wrappers (supervisor, pure): where the command a wrapper runs starts,
 * read from its table entry (gate_tables.h), and what the commands further
 * in inherit: a PATH set by env, the substitution strings of find and
 * xargs, the arguments xargs appends from input.  A command line packed in
 * one argument (env -S, watch, parallel) is split and judged as argv of
 * its own, in a context of its own; shell syntax in it is refused, since
 * only a shell would know what it means.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate_exec.h"
#include "gate/gate_opts.h"
#include "base/fmt.h"
#include "base/macro.h"
#include "base/util.h"

int nsb_gate_refuse_wrapper(struct nsb_gate_ctx *c, int idx, const char *wname, const char *why)
{
	nsb_gate_refuse(c, NSB_RULE_EXEC_WRAPPER, idx);
	nsb_gate_text(c->v->reason, "%s: %s", wname, why);
	nsb_gate_text(c->v->hint,
		      "call the program directly, with its arguments as separate words: nsbox "
		      "already gives it a clean environment, its own session and process group, "
		      "and a timeout; an operator can describe a wrapper the gate does not know "
		      "with a 'wrapper' line in the policy (nsbox-policy(5))");
	return 1;
}

static struct nsb_exec_chain deeper(struct nsb_exec_chain ch)
{
	ch.depth++;
	return ch;
}

static void add_subst(struct nsb_exec_chain *ch, const char *s)
{
	if (s && *s && ch->n_subst < NSB_GATE_MAX_SUBST)
		ch->subst[ch->n_subst++] = s;
}

/*
 * Judge words as a command line of their own (a split argument): w's
 * operands when w is set, else a command.  A refusal is reported at
 * argv[idx] of the outer line, the argument the words came from.
 */
static int judge_words(struct nsb_gate_ctx *c, int idx, char **words, int n,
		       const struct nsb_wrapper *w, struct nsb_exec_chain ch)
{
	struct nsb_gate_input in = *c->in;
	in.argv = words;
	in.argc = n;
	in.cmd_path = NULL;
	in.cmd_real_base = NULL;

	_cleanup_free_ struct nsb_gate_ctx *sub = calloc(1, sizeof(*sub));
	if (!sub)
		return nsb_gate_refuse_wrapper(c, idx, words[0], "out of memory while judging");
	sub->p = c->p;
	sub->in = &in;
	sub->v = c->v;
	int r = w ? nsb_gate_run_wrapper(sub, w, 0, n, ch)
		  : nsb_gate_exec_cmd(sub, 0, n, ch, NULL, NULL);
	if (r) {
		char inner[NSB_GATE_TEXT_MAX];
		nsb_format(inner, sizeof(inner), "%s", c->v->reason);
		c->v->argv_index = idx;
		nsb_format(c->v->token, sizeof(c->v->token), "%s", c->in->argv[idx]);
		nsb_gate_text(c->v->reason, "in the command line '%.200s': %s", c->in->argv[idx],
			      inner);
	}
	return r;
}

/* Characters a shell gives a meaning; the gate would have to guess it. */
static bool shell_syntax(const char *s, bool command_word)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch < ' ' || ch == 0x7f || strchr(";&|<>()$`\\'\"", ch))
			return true;
		if (command_word && strchr("*?[~", ch))
			return true;
	}
	return false;
}

/*
 * Split text into words on blanks; words[0] may be preset (prefix).  The
 * words point into buf, a copy of text.  Returns the count, or -1 when
 * there are too many.
 */
static int split_blanks(char *buf, char **words, int n, int max)
{
	char *save = NULL;
	for (char *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (n >= max)
			return -1;
		words[n++] = t;
	}
	return n;
}

/*
 * A command line handed over in one argument (env -S STRING, coreutils
 * --coreutils-prog=NAME): split, then judged as the same wrapper's
 * operands, followed by the arguments after it.
 */
static int run_split(struct nsb_gate_ctx *c, const struct nsb_wrapper *w, int s, int e, int idx,
		     const char *value, struct nsb_exec_chain ch)
{
	char *const *argv = c->in->argv;
	if (shell_syntax(value, false))
		return nsb_gate_refuse_wrapper(c, idx, w->name,
					       "quotes, escapes or variables in the split command "
					       "line hide the command that runs");
	int max = e - idx + 1 + (int)strlen(value) / 2 + 1;
	_cleanup_free_ char *buf = strdup(value);
	_cleanup_free_ char **words = calloc((size_t)max + 1, sizeof(*words));
	if (!buf || !words)
		return nsb_gate_refuse_wrapper(c, idx, w->name, "out of memory while judging");
	words[0] = argv[s];
	int n = split_blanks(buf, words, 1, max);
	for (int j = idx + 1; n >= 0 && j < e && n < max; j++)
		words[n++] = argv[j];
	if (n < 0)
		return nsb_gate_refuse_wrapper(c, idx, w->name, "too many words to judge");
	return judge_words(c, idx, words, n, w, deeper(ch));
}

/*
 * Operands a shell runs (watch CMD..., parallel 'CMD {}'): joined with
 * blanks as the shell sees them, split back into words, judged as a
 * command when no shell syntax makes the split a guess.
 */
static int run_shell(struct nsb_gate_ctx *c, const struct nsb_wrapper *w, int first, int end,
		     struct nsb_exec_chain ch)
{
	char *const *argv = c->in->argv;
	size_t len = 0;

	for (int j = first; j < end; j++) {
		/* shell code, as sh -c takes it: an operator who allows inline
		 * code allows it here too (and the metachar rule skips it) */
		if (shell_syntax(argv[j], j == first) && c->p->allow_inline_code) {
			for (int k = first; k < end; k++)
				c->marks[k] |= NSB_ARG_SHELL_CODE;
			return 0;
		}
		if (shell_syntax(argv[j], j == first))
			return nsb_gate_refuse_wrapper(
				c, j, w->name,
				"its operands are run by a shell, and shell "
				"syntax in them hides what runs; an operator "
				"can allow shell code with --allow-inline-code");
		len += strlen(argv[j]) + 1;
	}
	_cleanup_free_ char *buf = malloc(len + 1 + sizeof("env"));
	int max = (int)len / 2 + 2;
	_cleanup_free_ char **words = calloc((size_t)max + 1, sizeof(*words));
	if (!buf || !words)
		return nsb_gate_refuse_wrapper(c, first, w->name, "out of memory while judging");
	buf[0] = '\0';
	for (int j = first; j < end; j++) {
		strcat(buf, argv[j]);
		strcat(buf, " ");
	}
	/* "FOO=1 make": assignments before a command are env's job */
	int n = strchr(argv[first], '=') ? 1 : 0;
	words[0] = memcpy(buf + len + 1, "env", sizeof("env"));
	n = split_blanks(buf, words, n, max);
	if (n <= 0)
		return 0;
	if (shell_syntax(words[0], true))
		return nsb_gate_refuse_wrapper(c, first, w->name,
					       "its operands are run by a shell, and shell syntax "
					       "in them hides what runs");
	return judge_words(c, first, words, n, NULL, ch);
}

/* find ... -exec CMD ... ; (or {} +): each command judged, {} filled from file names. */
static int run_find(struct nsb_gate_ctx *c, const struct nsb_wrapper *w, int s, int e,
		    struct nsb_exec_chain ch)
{
	char *const *argv = c->in->argv;
	const char *subst = w->subst ? w->subst : "{}";

	add_subst(&ch, subst);
	for (int j = s + 1; j < e; j++) {
		const char *a = argv[j];
		if (strcmp(a, "-exec") && strcmp(a, "-execdir") && strcmp(a, "-ok") &&
		    strcmp(a, "-okdir"))
			continue;
		int start = j + 1, t = start;
		while (t < e && strcmp(argv[t], ";") &&
		       !(strcmp(argv[t], "+") == 0 && t > start && strcmp(argv[t - 1], subst) == 0))
			t++;
		if (t >= e)
			return nsb_gate_refuse_wrapper(c, j, w->name,
						       "-exec has no ';' or '+' terminator");
		if (t == start)
			return nsb_gate_refuse_wrapper(c, j, w->name, "-exec names no command");
		c->marks[t] |= NSB_ARG_FIND_END;
		if (nsb_gate_exec_cmd(c, start, t, ch, NULL, NULL))
			return 1;
		j = t;
	}
	return 0;
}

/* env -i, env -, env -u PATH: the command is then looked up in execvp's default PATH. */
static bool env_clears_path(char *const *argv, int s, int first)
{
	for (int j = s + 1; j < first; j++) {
		const char *a = argv[j];
		if (strcmp(a, "-") == 0 || strcmp(a, "--ignore-environment") == 0 ||
		    strcmp(a, "--unset=PATH") == 0 || strcmp(a, "-uPATH") == 0 ||
		    ((strcmp(a, "-u") == 0 || strcmp(a, "--unset") == 0) && j + 1 < first &&
		     strcmp(argv[j + 1], "PATH") == 0))
			return true;
		if (a[0] == '-' && a[1] != '-' && nsb_strcspn(a, "uaSC") > nsb_strcspn(a, "i"))
			return true; /* -i in a cluster, before any letter taking a value */
	}
	return false;
}

/* Options at argv[s+1..]: 1 when refused, else po filled. */
static int parse_wrapper_opts(struct nsb_gate_ctx *c, const struct nsb_wrapper *w,
			      const struct optspec *o, int s, int e, struct parsed *po)
{
	nsb_gate_parse_opts(o, c->in->argv, s, e, po);
	if (po->refuse_idx >= 0)
		return nsb_gate_refuse_wrapper(c, po->refuse_idx, w->name,
					       "this option hides the command that runs");
	if (po->unknown_idx >= 0)
		return nsb_gate_refuse_wrapper(
			c, po->unknown_idx, w->name,
			"unknown option, so the command it runs cannot be found");
	return 0;
}

/* Long: the steps of a wrapper's grammar, each short, in the order it is read. */
int nsb_gate_run_wrapper(struct nsb_gate_ctx *c, const struct nsb_wrapper *w, int s, int e,
			 struct nsb_exec_chain ch)
{
	char *const *argv = c->in->argv;
	struct optspec o;
	struct parsed po;

	if (ch.depth >= NSB_GATE_MAX_WRAPPERS)
		return nsb_gate_refuse_wrapper(c, s, w->name,
					       "wrappers are nested too deeply to follow");
	if (w->run == NSB_RUN_FIND)
		return run_find(c, w, s, e, ch);

	nsb_gate_wrapper_optspec(w, &o);
	if (parse_wrapper_opts(c, w, &o, s, e, &po))
		return 1;
	if (po.noexec)
		return 0;
	if (po.split_idx >= 0)
		return run_split(c, w, s, e, po.split_idx, po.split_value, ch);
	if (w->run == NSB_RUN_INPUT)
		return nsb_gate_refuse_wrapper(c, s, w->name,
					       "it reads the commands it runs from standard input "
					       "or a file, which the gate cannot see");
	int inner = po.first;
	/* operands before the command (timeout DURATION), then maybe more options */
	for (unsigned k = 0; k < w->skip && inner < e; k++) {
		inner++;
		if (k + 1 == w->skip && inner < e && argv[inner][0] == '-') {
			if (parse_wrapper_opts(c, w, &o, inner - 1, e, &po))
				return 1;
			if (po.noexec)
				return 0;
			inner = po.first;
		}
	}
	if (w->run == NSB_RUN_ENV) {
		if (env_clears_path(argv, s, po.first))
			ch.path = "/bin:/usr/bin";
		for (; inner < e && strchr(argv[inner], '='); inner++)
			if (strncmp(argv[inner], "PATH=", 5) == 0)
				ch.path = argv[inner] + 5;
	}
	int end = e;
	for (int j = inner; w->end && j < e; j++)
		if (strncmp(argv[j], w->end, strlen(w->end)) == 0) {
			end = j;
			break;
		}
	if (inner >= end) {
		/* no command: env prints, nice reports, xargs echoes; unless
		 * the command would come from input */
		if (ch.input_tail || (w->flags & NSB_WRAP_INPUT_COMMANDS))
			return nsb_gate_refuse_wrapper(c, inner < e ? inner : s, w->name,
						       "the command it runs would be read from "
						       "input, which the gate cannot see");
		return 0;
	}

	struct nsb_exec_chain in = deeper(ch);
	if (w->flags & NSB_WRAP_INPUT_ARGS) {
		add_subst(&in, po.replace ? po.replace : w->subst);
		in.input_tail = ch.input_tail || !po.replace;
	}
	if (w->run == NSB_RUN_APPLET) {
		c->marks[inner] |= NSB_ARG_COMMAND;
		/* the applet is chosen by name: no file to resolve */
		const char *applet = strrchr(argv[inner], '/');
		return nsb_gate_exec_cmd(c, inner, end, in, applet ? applet + 1 : argv[inner],
					 NULL);
	}
	if (w->flags & NSB_WRAP_SHELL)
		return run_shell(c, w, inner, end, in);
	return nsb_gate_exec_cmd(c, inner, end, in, NULL, NULL);
}
