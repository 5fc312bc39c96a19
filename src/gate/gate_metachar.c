// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's shell.metachar rule (supervisor, pure): an argument that
 * carries shell syntax is refused, since no shell runs to give it meaning.
 */
#include <stddef.h>

#include "gate/gate_rules.h"

/* The first shell metacharacter in s, as a printable name, or NULL. */
static const char *metachar(const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case ';':
			return "';'";
		case '|':
			return "'|'";
		case '&':
			return "'&'";
		case '>':
			return "'>'";
		case '<':
			return "'<'";
		case '`':
			return "'`'";
		case '\n':
			return "a newline";
		case '$':
			if (s[1] == '(')
				return "'$('";
			break;
		default:
			break;
		}
	}
	return NULL;
}

int nsb_gate_check_metachar(struct nsb_gate_ctx *c)
{
	for (int i = 0; i < c->in->argc; i++) {
		/* find's ';' terminator is find syntax, not shell syntax; a
		 * shell's -c program (inline code allowed) has a shell. */
		if (c->marks[i] & (NSB_ARG_FIND_END | NSB_ARG_SHELL_CODE))
			continue;
		const char *m = metachar(c->in->argv[i]);
		if (!m)
			continue;
		nsb_gate_refuse(c, NSB_RULE_SHELL_METACHAR, i);
		nsb_gate_text(c->v->reason, "argument %d contains the shell metacharacter %s", i,
			      m);
		nsb_gate_text(
			c->v->hint,
			"no shell runs here, so shell syntax is passed literally: give each "
			"argument separately, or write the pipeline to a script file under an "
			"--rw directory and run 'sh FILE'; an operator can allow this with "
			"--allow-metachar");
		return 1;
	}
	return 0;
}
