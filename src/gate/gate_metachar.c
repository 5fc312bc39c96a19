// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's shell.metachar rule (supervisor, pure): an argument that
 * carries shell syntax is refused, since no shell runs to give it meaning.
 *
 * Two modes (nsbox-policy(5), "metachar"):
 *   syntax  the default: shell SYNTAX, not characters.  An operator or a
 *           redirection as the whole argument ("|", "&&", ";", "2>&1") or as
 *           its leading part (">out", "|grep", "; rm -rf /"), an operator as
 *           the trailing part of a word without blanks ("ls;", "a|"), and
 *           anywhere: command substitution ("$(", "`"), "${" expansions and a
 *           newline.  So grep -E 'a|b', pip install 'pkg>=2', a URL with '&'
 *           and echo 'a;b' pass: execve gives those characters no meaning.
 *   strict  the first generation's character rule: any ; | & > < ` $( or
 *           newline anywhere, and the syntax rules besides ("${").
 * Both catch the mistake the rule exists for: a shell command line split
 * into argv and sent where no shell exists.
 */
#include <stddef.h>
#include <string.h>

#include "gate/gate_rules.h"
#include "base/util.h"

/* strict: the first shell metacharacter in s, as a printable name, or NULL. */
static const char *metachar(const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case ';':
			return "the shell metacharacter ';'";
		case '|':
			return "the shell metacharacter '|'";
		case '&':
			return "the shell metacharacter '&'";
		case '>':
			return "the shell metacharacter '>'";
		case '<':
			return "the shell metacharacter '<'";
		case '`':
			return "the shell metacharacter '`'";
		case '\n':
			return "a newline";
		case '$':
			if (s[1] == '(')
				return "the shell metacharacter '$('";
			break;
		default:
			break;
		}
	}
	return NULL;
}

/* Length of the longest of ops that s starts with, or 0. */
static size_t longest(const char *s, const char *const *ops)
{
	size_t best = 0;
	for (size_t i = 0; ops[i]; i++) {
		size_t n = strlen(ops[i]);
		if (n > best && strncmp(s, ops[i], n) == 0)
			best = n;
	}
	return best;
}

/*
 * A redirection opening s ("[N]>", ">>", "2>&1", "<<", "&>"): its length
 * (the fd number and a ">&N" target included), or 0.
 */
static size_t redirection(const char *s)
{
	static const char *const ops[] = {">",	 ">>", ">&", ">|", "<",	  "<<", "<<<",
					  "<<-", "<>", "<&", "&>", "&>>", NULL};
	size_t d = nsb_strspn(s, "0123456789");
	if (d && s[d] != '<' && s[d] != '>')
		return 0;
	size_t n = longest(s + d, ops);
	if (!n)
		return 0;
	n += d;
	if (s[n - 1] == '&') /* >&2, <&0, >&- */
		n += s[n] == '-' ? 1 : nsb_strspn(s + n, "0123456789");
	return n;
}

/*
 * Not shell syntax although it starts like a redirection:
 *   - the operator followed by another '<' or '>', which no redirection
 *     takes: a conflict marker or a prompt ("<<<<<<<", ">>> ");
 *   - followed by a blank: "> note" was quoted as one argument, since a
 *     command line split on blanks never yields one;
 *   - markup and generics: '<' then a tag character, with a '>' further on
 *     ("<div>", "</p>", "<!--", "<?xml") or a tag name alone ("<Button",
 *     "<div"), since a file to read from would have a '.' or '/' in it.
 */
static bool looks_literal(const char *s, size_t n)
{
	if (s[n] == '<' || s[n] == '>' || s[n] == ' ' || s[n] == '\t')
		return true;
	if (s[0] != '<' || n != 1)
		return false;
	bool letter = ((s[1] | 0x20) >= 'a' && (s[1] | 0x20) <= 'z');
	if (!letter && !strchr("/!?", s[1]))
		return false;
	if (strchr(s + 1, '>'))
		return true;
	return letter && !strpbrk(s + 1, "./");
}

/*
 * syntax: the shell syntax in s, described in buf (NSB_GATE_TEXT_MAX), or
 * NULL.  text: s is known to be data (a search pattern, a delimiter), so
 * operators in it are text; substitutions and newlines still count.
 */
static const char *syntax(const char *s, bool text, char *buf)
{
	static const char *const ops[] = {"|", "||", "|&", "&", "&&", ";", ";;", NULL};

	if (strstr(s, "$("))
		return "the command substitution '$('";
	if (strchr(s, '`'))
		return "the command substitution '`'";
	if (strstr(s, "${"))
		return "the expansion '${'";
	if (strchr(s, '\n'))
		return "a newline";
	if (text)
		return NULL;

	size_t n = redirection(s);
	if (n && (!s[n] || !looks_literal(s, n))) {
		nsb_gate_text(buf, "the redirection '%.*s'%s", (int)n, s,
			      s[n] ? " at its start" : "");
		return buf;
	}
	n = longest(s, ops);
	if (n) {
		nsb_gate_text(buf, "the shell operator '%.*s'%s", (int)n, s,
			      s[n] ? " at its start" : "");
		return buf;
	}

	/* "ls;", "a|", "x&&": a word glued to the operator after it.  Not
	 * with a blank inside: "SELECT 1;" was quoted as one argument. */
	size_t len = strlen(s);
	if (len > 1 && s[0] != '-' && strchr(";|&", s[len - 1]) && !strpbrk(s, " \t")) {
		n = len >= 2 && s[len - 2] == s[len - 1] ? 2 : 1;
		nsb_gate_text(buf, "the shell operator '%s' at its end", s + len - n);
		return buf;
	}
	return NULL;
}

/*
 * Operands that are data, where an operator is the text searched for or cut
 * at (cut -d '|', grep '&&', tr ';' ','): a search tool's pattern (its
 * first operand, or the value of -e), the value of a delimiter option, any
 * operand of tr, expr and test.  A pipe after a command's own arguments
 * ("ls -l | grep x") is still an operator.
 */
static const char *const any_operand[] = {"tr", "expr", "test", "[", NULL};
static const char *const search_tools[] = {"grep", "egrep", "fgrep",	"rg",
					   "ag",   "ack",   "git-grep", NULL};
static const char *const delim_opts[] = {
	"-d", "-F", "-t", "--delimiter", "--delimiters", "--field-separator", "--separator", NULL};
static const char *const delim_tools[] = {"cut",   "awk",  "gawk",   "mawk",  "sort",
					  "paste", "join", "column", "xargs", NULL};

static bool listed(const char *const *list, const char *s)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

/* What the walk knows of the current command. */
struct data_walk {
	const char *cmd; /* basename of the latest command position */
	bool pattern_seen;
};

static bool is_data(struct data_walk *w, const struct nsb_gate_ctx *c, int i)
{
	const char *a = c->in->argv[i], *prev = i > 0 ? c->in->argv[i - 1] : "";
	if (c->marks[i] & NSB_ARG_COMMAND) {
		w->cmd = nsb_gate_basename(a);
		w->pattern_seen = false;
		return false;
	}
	if (!w->cmd)
		return false;
	if (listed(any_operand, w->cmd))
		return true;
	if (listed(delim_tools, w->cmd) && listed(delim_opts, prev))
		return true;
	if (!listed(search_tools, w->cmd))
		return false;
	if (strcmp(prev, "-e") == 0 || strcmp(prev, "--regexp") == 0) {
		w->pattern_seen = true;
		return true;
	}
	if (a[0] == '-' || w->pattern_seen)
		return false;
	w->pattern_seen = true;
	return true;
}

int nsb_gate_check_metachar(struct nsb_gate_ctx *c)
{
	bool strict = c->p->metachar_strict;
	char buf[NSB_GATE_TEXT_MAX];
	struct data_walk w = {0};

	for (int i = 0; i < c->in->argc; i++) {
		bool data = is_data(&w, c, i);
		/* find's ';' terminator is find syntax, not shell syntax; a
		 * shell's -c program (inline code allowed) has a shell. */
		if (c->marks[i] & (NSB_ARG_FIND_END | NSB_ARG_SHELL_CODE))
			continue;
		/* strict: every character, and the syntax rules besides */
		const char *m = strict ? metachar(c->in->argv[i]) : NULL;
		if (!m)
			m = syntax(c->in->argv[i], data, buf);
		if (!m)
			continue;
		nsb_gate_refuse(c, NSB_RULE_SHELL_METACHAR, i);
		nsb_gate_text(c->v->reason, "argument %d contains %s (metachar %s)", i, m,
			      strict ? "strict" : "syntax");
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
