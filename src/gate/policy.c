// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parser and printer of the gate policy file.  The format is deliberately
 * poor: a directive word and its arguments, one per line; only the table
 * rows (wrapper, deny-mode: gate_tables.c) take several words.  No quoting,
 * no includes, no trailing comments: the file is read by a security gate,
 * and every byte of it should mean exactly one thing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "base/lines.h"
#include "core/config.h"
#include "gate/gate_tables.h"
#include "gate/policy.h"
#include "gate/gate_shellopt.h"
#include "gate/policy_net.h"
#include "gate/policy_ask.h"
#include "base/util.h"

#define HINT_DIRECTIVES                                                                    \
	"directives: deny-exec NAME, allow-exec NAME, allow-inline-code, allow-metachar, " \
	"allow-path DIR, wrapper NAME [KEY|OPTION]..., deny-mode TOOL WORD... (see "       \
	"nsbox-policy(5))"

struct pctx {
	const char *name;
	unsigned line;
	struct nsb_error *e;
};

static int perr(const struct pctx *c, int err, size_t col, const char *hint, const char *fmt, ...)
	_printf_(5, 6);

/* Report "<file>:<line>:<col>: <message>" (col is 1-based). */
static int perr(const struct pctx *c, int err, size_t col, const char *hint, const char *fmt, ...)
{
	char where[NSB_ERR_MESSAGE_MAX];
	va_list ap;

	nsb_format(where, sizeof(where), "%s:%u:%zu", c->name, c->line, col);
	va_start(ap, fmt);
	int r = nsb_error_vsetx(c->e, err, NSB_STAGE_POLICY, where, fmt, ap);
	va_end(ap);
	if (hint && c->e)
		nsb_error_hint(c->e, "%s", hint);
	return r;
}

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

enum dkind {
	D_DENY_EXEC,
	D_ALLOW_EXEC,
	D_ALLOW_INLINE,
	D_ALLOW_META,
	D_ALLOW_PATH,
	D_PROTECT,
	D_MASK,
	D_MASK_KEY,
	D_WRAPPER,
	D_DENY_MODE,
	D_METACHAR,
	D_SHELL_OPTION,
	D_ASK,
};

static const struct {
	char word[20]; /* no pointer, no relocation (base/macro.h) */
	enum dkind kind;
} directives[] = {
	{"deny-exec", D_DENY_EXEC},
	{"allow-exec", D_ALLOW_EXEC},
	{"allow-inline-code", D_ALLOW_INLINE},
	{"allow-metachar", D_ALLOW_META},
	{"allow-path", D_ALLOW_PATH},
	{"protect", D_PROTECT},
	{"mask", D_MASK},
	{"mask-key", D_MASK_KEY},
	{"wrapper", D_WRAPPER},
	{"deny-mode", D_DENY_MODE},
	{"metachar", D_METACHAR},
	{"shell-option", D_SHELL_OPTION},
	{"ask", D_ASK},
};

static int name_directive(const struct pctx *c, const char *word, const char *line, const char *arg,
			  struct nsb_gate_policy *p, enum dkind kind)
{
	size_t col = (size_t)(arg - line) + 1;
	size_t len = nsb_strcspn(arg, " \t\r");
	const char *after = arg + len;
	while (blank(*after))
		after++;
	if (len == 0)
		return perr(c, -EINVAL, col, "for example: deny-exec curl", "'%s' needs a NAME",
			    word);
	if (*after)
		return perr(c, -EINVAL, (size_t)(after - line) + 1,
			    "one NAME per line; repeat the directive for more",
			    "unexpected '%s' after the NAME", after);
	if (len > NSB_GATE_NAME_MAX)
		return perr(c, -EINVAL, col, NULL, "NAME is longer than %d bytes",
			    NSB_GATE_NAME_MAX);
	const char *slash = memchr(arg, '/', len);
	if (slash)
		return perr(c, -EINVAL, (size_t)(slash - line) + 1,
			    "give the basename: the gate checks the name the command is called by "
			    "and the name its symlinks resolve to",
			    "NAME must not contain '/'");
	const char *star = memchr(arg, '*', len);
	if (star && star != arg + len - 1)
		return perr(c, -EINVAL, (size_t)(star - line) + 1,
			    "a trailing '*' matches every name with that prefix (mkfs.*)",
			    "'*' may only end a NAME");

	char buf[NSB_GATE_NAME_MAX + 1];
	memcpy(buf, arg, len);
	buf[len] = '\0';
	int r = kind == D_DENY_EXEC ? nsb_gate_policy_deny_exec(p, buf)
				    : nsb_gate_policy_allow_exec(p, buf);
	if (r == -E2BIG)
		return perr(c, -E2BIG, col, NULL, "too many %s entries (at most %d)", word,
			    NSB_MAX_GATE_OPTS);
	if (r < 0)
		return perr(c, r, col, NULL, "cannot add '%s': %s", buf, strerror(-r));
	return 0;
}

static int path_directive(const struct pctx *c, const char *line, const char *arg,
			  struct nsb_gate_policy *p)
{
	size_t col = (size_t)(arg - line) + 1;
	/* the rest of the line is the path: directories may contain spaces */
	size_t len = strlen(arg);
	while (len > 0 && blank(arg[len - 1]))
		len--;
	if (len == 0)
		return perr(c, -EINVAL, col, "for example: allow-path /opt/data",
			    "'allow-path' needs a DIR");
	if (arg[0] != '/')
		return perr(c, -EINVAL, col, "for example: allow-path /opt/data",
			    "DIR must be an absolute path");
	if (len > NSB_MAX_PATH)
		return perr(c, -EINVAL, col, NULL, "DIR is longer than %d bytes", NSB_MAX_PATH);

	char buf[NSB_MAX_PATH + 1];
	memcpy(buf, arg, len);
	buf[len] = '\0';
	int r = nsb_gate_policy_allow_path(p, buf);
	if (r == -EINVAL)
		return perr(c, -EINVAL, col, "write it as realpath(1) prints it",
			    "DIR must not contain '.', '..', '//' or a trailing '/'");
	if (r == -E2BIG)
		return perr(c, -E2BIG, col, NULL, "too many allow-path entries (at most %d)",
			    NSB_MAX_GATE_PATHS);
	if (r < 0)
		return perr(c, r, col, NULL, "cannot add '%s': %s", buf, strerror(-r));
	return 0;
}

/* protect, mask, mask-key GLOB: one pattern, relative to each bind's root. */
static int glob_directive(const struct pctx *c, const char *word, const char *line, const char *arg,
			  struct nsb_gate_policy *p, enum nsb_glob_list which)
{
	size_t col = (size_t)(arg - line) + 1, len = nsb_strcspn(arg, " \t\r");
	const char *after = arg + len;
	char buf[NSB_PROTECT_GLOB_MAX + 1];

	while (blank(*after))
		after++;
	if (len == 0 || *after)
		return perr(c, -EINVAL, len ? (size_t)(after - line) + 1 : col,
			    "one pattern per line, e.g. mask secrets/*.json",
			    "'%s' needs exactly one GLOB", word);
	if (len > NSB_PROTECT_GLOB_MAX)
		return perr(c, -EINVAL, col, NULL, "GLOB is longer than %d bytes",
			    NSB_PROTECT_GLOB_MAX);
	memcpy(buf, arg, len);
	buf[len] = '\0';
	int r = nsb_gate_policy_glob(p, which, buf);
	if (r == -EINVAL)
		return perr(c, -EINVAL, col, "a GLOB is relative to each bind's root",
			    "GLOB must not start with '/' or contain '.', '..' or '//'");
	if (r == -E2BIG)
		return perr(c, -E2BIG, col, NULL, "too many %s entries (at most %d)", word,
			    NSB_PROTECT_MAX_GLOBS);
	if (r < 0)
		return perr(c, r, col, NULL, "cannot add '%s': %s", buf, strerror(-r));
	return 0;
}

/* A table row (gate_tables.c): several words, parsed there, reported here. */
static int table_directive(const struct pctx *c, const char *line, const char *arg,
			   struct nsb_gate_policy *p, enum dkind kind)
{
	char err[NSB_GATE_TABLE_ERR_MAX];
	size_t off = 0;
	int r = kind == D_WRAPPER ? nsb_gate_wrapper_add(p, arg, &off, err)
				  : nsb_gate_deny_mode_add(p, arg, &off, err);
	if (r < 0)
		return perr(c, r, (size_t)(arg - line) + off + 1,
			    kind == D_WRAPPER
				    ? "for example: wrapper mytimeout skip=1 -s= --signal="
				    : "for example: deny-mode find -delete",
			    "%s", err);
	return 0;
}

/* metachar syntax|strict|off: how shell.metachar judges (off: allow-metachar). */
static int metachar_directive(const struct pctx *c, const char *line, const char *arg,
			      struct nsb_gate_policy *p)
{
	size_t len = nsb_strcspn(arg, " \t\r");
	const char *after = arg + len;
	while (blank(*after))
		after++;
	if (*after)
		return perr(c, -EINVAL, (size_t)(after - line) + 1, "metachar takes one word",
			    "unexpected '%s' after the mode", after);
	if (len == 6 && strncmp(arg, "syntax", 6) == 0)
		p->metachar_strict = false;
	else if (len == 6 && strncmp(arg, "strict", 6) == 0)
		p->metachar_strict = true;
	else if (len == 3 && strncmp(arg, "off", 3) == 0)
		p->allow_metachar = true;
	else
		return perr(c, -EINVAL, (size_t)(arg - line) + 1,
			    "metachar syntax (the default), metachar strict or metachar off",
			    "'metachar' needs syntax, strict or off");
	return 0;
}

/* shell-option TOOL[:SUB] OPTION [MATCH]: a row of the table (gate_shellopt.c). */
static int shellopt_directive(const struct pctx *c, const char *line, const char *arg,
			      struct nsb_gate_policy *p)
{
	size_t col = 0;
	const char *why = NULL;
	int r = nsb_gate_shellopt_add(p, arg, &col, &why);
	if (r == -EINVAL)
		return perr(c, -EINVAL, (size_t)(arg - line) + col + 1,
			    "for example: shell-option git -c alias.*=!* (see nsbox-policy(5))",
			    "%s", why);
	if (r == -E2BIG)
		return perr(c, -E2BIG, (size_t)(arg - line) + 1, NULL,
			    "too many shell-option rows (at most %d)", NSB_MAX_GATE_SHELLOPT);
	if (r < 0)
		return perr(c, r, (size_t)(arg - line) + 1, NULL, "cannot add the row: %s",
			    strerror(-r));
	return 0;
}

/* ask exec|argv|side-effect ... [: CONSEQUENCE] (policy_ask.c). */
static int ask_directive(const struct pctx *c, const char *line, const char *arg,
			 struct nsb_gate_policy *p)
{
	size_t col = 0;
	const char *why = NULL;
	int r = nsb_ask_add(p, arg, &col, &why);
	if (r < 0)
		return perr(
			c, r, (size_t)(arg - line) + col + 1,
			"for example: ask argv git push : publishes commits (see nsbox-policy(5))",
			"%s", why);
	return 0;
}

static int parse_line(const struct pctx *c, const char *line, struct nsb_gate_policy *p)
{
	const char *s = line;
	while (blank(*s))
		s++;
	if (*s == '\0' || *s == '#')
		return 0;

	size_t wlen = nsb_strcspn(s, " \t\r");
	const char *arg = s + wlen;
	while (blank(*arg))
		arg++;

	for (size_t i = 0; i < ARRAY_SIZE(directives); i++) {
		const char *word = directives[i].word;
		if (strlen(word) != wlen || strncmp(word, s, wlen) != 0)
			continue;
		switch (directives[i].kind) {
		case D_DENY_EXEC:
		case D_ALLOW_EXEC:
			return name_directive(c, word, line, arg, p, directives[i].kind);
		case D_ALLOW_PATH:
			return path_directive(c, line, arg, p);
		case D_PROTECT:
		case D_MASK:
		case D_MASK_KEY:
			return glob_directive(c, word, line, arg, p,
					      (enum nsb_glob_list)(directives[i].kind - D_PROTECT));
		case D_WRAPPER:
		case D_DENY_MODE:
			return table_directive(c, line, arg, p, directives[i].kind);
		case D_METACHAR:
			return metachar_directive(c, line, arg, p);
		case D_SHELL_OPTION:
			return shellopt_directive(c, line, arg, p);
		case D_ASK:
			return ask_directive(c, line, arg, p);
		case D_ALLOW_INLINE:
		case D_ALLOW_META:
			if (*arg)
				return perr(c, -EINVAL, (size_t)(arg - line) + 1, NULL,
					    "'%s' takes no argument", word);
			if (directives[i].kind == D_ALLOW_INLINE)
				p->allow_inline_code = true;
			else
				p->allow_metachar = true;
			return 0;
		}
	}
	if (nsb_gate_net_directive(s, wlen)) {
		char word[32], msg[sizeof(((struct nsb_error *)0)->message)];
		size_t n = nsb_strcspn(arg, " \t\r");
		int r;
		nsb_format(word, sizeof(word), "%.*s", (int)wlen, s);
		if (arg[n] != '\0' && arg[n + nsb_strspn(arg + n, " \t\r")] != '\0')
			return perr(c, -EINVAL, (size_t)(arg - line) + 1, NULL,
				    "'%s' takes one entry", word);
		char *one = strndup(arg, n);
		r = one ? nsb_gate_net_add(p, word, one, msg, sizeof(msg)) : -ENOMEM;
		free(one);
		if (r < 0)
			return perr(c, r, (size_t)(arg - line) + 1, NULL, "%s",
				    r == -ENOMEM ? "out of memory" : msg);
		return 0;
	}
	return perr(c, -EINVAL, (size_t)(s - line) + 1, HINT_DIRECTIVES, "unknown directive '%.*s'",
		    (int)(wlen > 64 ? 64 : wlen), s);
}

/* A fault of the file itself: where it stands, in the policy's words. */
static int read_fault(struct pctx *c, const struct nsb_lines *lr, int r)
{
	c->line = lr->line;
	if (r == -EFBIG)
		return perr(c, -EFBIG, lr->col, NULL, "policy is larger than %u bytes",
			    NSB_POLICY_MAX_BYTES);
	if (r == -EILSEQ)
		return perr(c, -EINVAL, lr->col, "a policy is a text file",
			    "NUL byte in the policy");
	if (r == -E2BIG)
		return perr(c, -EINVAL, lr->col, NULL, "line is longer than %d bytes",
			    NSB_POLICY_LINE_MAX);
	return nsb_error_set(c->e, r, NSB_STAGE_POLICY, "read policy '%s'", c->name);
}

int nsb_policy_parse(FILE *f, const char *name, struct nsb_gate_policy *p, struct nsb_error *e)
{
	struct pctx c = {.name = name ? name : "<policy>", .line = 1, .e = e};
	_cleanup_free_ char *line = malloc(NSB_POLICY_LINE_MAX + 1);
	_cleanup_(nsb_lines_free) struct nsb_lines lr = {0};
	int r;

	if (!line)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_POLICY, "read policy '%s'", c.name);
	/* In the order of the bytes, as a reader byte by byte would: a bad line
	 * is reported before a NUL byte, an overlong line or the size limit
	 * further on (and the missing last newline counts as a byte). */
	r = nsb_lines_open_with(&lr, f, NSB_POLICY_MAX_BYTES, NSB_POLICY_LINE_MAX,
				NSB_LINES_IN_ORDER | NSB_LINES_COUNT_NEWLINE);
	if (r < 0)
		return read_fault(&c, &lr, r);
	while ((r = nsb_lines_next(&lr, line)) > 0) {
		c.line = lr.line;
		r = parse_line(&c, line, p);
		if (r < 0)
			return r;
	}
	return r < 0 ? read_fault(&c, &lr, r) : 0;
}

int nsb_policy_print(FILE *out, const struct nsb_gate_policy *p, struct nsb_error *e)
{
	fprintf(out,
		"# nsbox gate policy (nsbox-policy(5)).  One directive per line.\n"
		"# Rules: exec.denylist exec.wrapper interp.inline shell.metachar\n"
		"#        path.outside path.symlink_escape exec.destructive_mode path.too_long\n\n"
		"# Executables refused by name, by the name they were called by and by\n"
		"# the name their symlinks resolve to; a trailing '*' matches a prefix.\n");
	for (size_t i = 0; i < p->n_deny_exec; i++)
		fprintf(out, "deny-exec %s\n", p->deny_exec[i]);
	fprintf(out, "\n# Names lifted from the deny list (allow-exec wins).\n");
	for (size_t i = 0; i < p->n_allow_exec; i++)
		fprintf(out, "allow-exec %s\n", p->allow_exec[i]);
	fprintf(out, "\n# Relaxations, off unless uncommented.\n");
	fprintf(out, "%sallow-inline-code\n", p->allow_inline_code ? "" : "#");
	fprintf(out, "%sallow-metachar\n", p->allow_metachar ? "" : "#");
	fprintf(out, "\n# shell.metachar: 'syntax' refuses shell syntax (operators, redirections,\n"
		     "# $( ` ${ and newlines); 'strict' every ; | & > < ` $( and newline.\n");
	fprintf(out, "metachar %s\n", p->metachar_strict ? "strict" : "syntax");
	fprintf(out, "\n# Extra roots for the path jail (host paths, realpath form).\n");
	for (size_t i = 0; i < p->n_allow_path; i++)
		fprintf(out, "allow-path %s\n", p->allow_path[i]);
	fprintf(out,
		"\n# Protected paths, re-bound read-only in every --rw bind; a GLOB without\n"
		"# '/' matches a name at any depth, one with '/' a path from the bind's root.\n");
	for (size_t i = 0; i < p->n_protect; i++)
		fprintf(out, "protect %s\n", p->protect[i]);
	fprintf(out, "\n# Secrets, covered by an empty read-only file in every bind.\n");
	for (size_t i = 0; i < p->n_mask; i++)
		fprintf(out, "mask %s\n", p->mask[i]);
	fprintf(out, "\n# Covered only where the file holds a private key.\n");
	for (size_t i = 0; i < p->n_mask_key; i++)
		fprintf(out, "mask-key %s\n", p->mask_key[i]);
	nsb_gate_tables_print(out, p);
	fprintf(out, "\n# Options that make a tool run a command taken from argv (rule\n"
		     "# exec.shell_option): TOOL[:SUB] OPTION [MATCH], nsbox-policy(5).\n");
	for (size_t i = 0; i < p->n_shellopt; i++)
		nsb_gate_shellopt_print(out, &p->shellopt[i]);
	nsb_gate_net_print(out, p);
	nsb_ask_print(out, p);
	if (fflush(out) == EOF || ferror(out))
		return nsb_error_set(e, -EIO, NSB_STAGE_GATE, "--print-policy: write the policy");
	return 0;
}
