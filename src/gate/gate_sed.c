// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The files a sed script names (supervisor, pure): GNU sed reads a file
 * with r and R and writes one with w, W and the w flag of s, the file name
 * running to the end of the line.  Each is judged as a path, like an
 * argument.  The parse skips addresses, regexes (any delimiter, escapes),
 * s and y bodies, labels and a/i/c text; at a command it does not know it
 * stops, since sed itself would refuse the script there.
 */
#include <stdbool.h>
#include <string.h>

#include "gate/gate_path.h"
#include "base/util.h"

/* Past a regex opened by delim at *p (p at the first byte inside); at the
 * end of the script when it is not closed. */
static const char *skip_regex(const char *p, char delim)
{
	while (*p && *p != delim) {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return *p ? p + 1 : p;
}

/* Past the two parts of s and y (p at the delimiter), or NULL if unclosed. */
static const char *skip_two(const char *p)
{
	char delim = *p;
	if (!delim || delim == '\n' || delim == '\\')
		return NULL;
	const char *q = skip_regex(p + 1, delim);
	if (!*q)
		return NULL;
	q = skip_regex(q, delim);
	return q[-1] == delim && q - 1 > p ? q : NULL;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* One address: N, N~S, $, /re/ or \cREc with I/M flags, +N or ~N (second). */
static const char *skip_address(const char *p)
{
	if (*p == '/' || (*p == '\\' && p[1])) {
		bool slash = *p == '/';
		char delim = p[slash ? 0 : 1];
		p = skip_regex(p + (slash ? 1 : 2), delim);
		while (*p == 'I' || *p == 'M')
			p++;
		return p;
	}
	if (*p == '$')
		return p + 1;
	if (*p == '+' || *p == '~')
		p++;
	p += nsb_strspn(p, "0123456789");
	if (*p == '~')
		p += 1 + nsb_strspn(p + 1, "0123456789");
	return p;
}

/* The file name from p to the end of the line, judged.  *end: past it. */
static int judge_name(struct nsb_path_arg *a, const char *p, const char **end)
{
	char name[PATH_MAX];
	p = skip_blanks(p);
	size_t len = nsb_strcspn(p, "\n");
	*end = p + len;
	if (!len || len >= sizeof(name))
		return 0; /* sed refuses a missing name; a long one: path.too_long */
	memcpy(name, p, len);
	name[len] = '\0';
	return nsb_gate_path_judge(a, name);
}

/* Past the text of a, i, c (escaped newlines continue it). */
static const char *skip_text(const char *p)
{
	while (*p && *p != '\n') {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return p;
}

/* s's flags after the replacement: the w flag takes a file name. */
static int s_flags(struct nsb_path_arg *a, const char **pp)
{
	const char *p = *pp;
	for (;; p++) {
		if (*p == 'w')
			return judge_name(a, p + 1, pp);
		if (!*p || !strchr("gpiImMe0123456789", *p))
			break;
	}
	*pp = p;
	return 0;
}

/* Long: one switch over sed's commands. */
int nsb_gate_sed_script(struct nsb_path_arg *a, const char *script)
{
	const char *p = script;

	for (;;) {
		p += nsb_strspn(p, " \t\n;");
		if (!*p)
			return 0;
		if (*p == '#') {
			p += nsb_strcspn(p, "\n");
			continue;
		}
		p = skip_address(p);
		if (*p == ',')
			p = skip_address(skip_blanks(p + 1));
		p = skip_blanks(p);
		while (*p == '!')
			p = skip_blanks(p + 1);
		char cmd = *p;
		if (!cmd)
			return 0;
		p++;
		switch (cmd) {
		case '{':
		case '}':
		case '=':
		case 'd':
		case 'D':
		case 'F':
		case 'g':
		case 'G':
		case 'h':
		case 'H':
		case 'n':
		case 'N':
		case 'p':
		case 'P':
		case 'x':
		case 'z':
			break;
		case 'r':
		case 'R':
		case 'w':
		case 'W':
			if (judge_name(a, p, &p))
				return 1;
			break;
		case 's':
			if (!(p = skip_two(p)))
				return 0;
			if (s_flags(a, &p))
				return 1;
			break;
		case 'y':
			if (!(p = skip_two(p)))
				return 0;
			break;
		case 'a':
		case 'i':
		case 'c':
		case 'e':
			p = skip_text(p);
			break;
		case ':':
		case 'b':
		case 't':
		case 'T':
		case 'v':
		case 'q':
		case 'Q':
		case 'l':
		case 'L':
			p += nsb_strcspn(p, ";\n");
			break;
		default:
			return 0;
		}
	}
}
