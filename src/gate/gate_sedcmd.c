// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * GNU sed scripts that run commands (supervisor, pure): the e command and
 * the e flag of s execute text as a shell command.  A small reader of the
 * script's grammar (addresses, commands, their arguments), so that an 'e'
 * inside a regex, a replacement, a text or a file name does not count.  A
 * script sed itself would reject runs nothing and is not refused.
 */
#include <string.h>

#include "gate/gate_shellopt.h"
#include "base/util.h"

static const char *skip_delimited(const char *p, char delim)
{
	/* p is just past the opening delimiter; returns just past the closing one */
	for (; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == delim)
			return p + 1;
	}
	return NULL;
}

static const char *skip_line(const char *p)
{
	/* to the end of the line; a trailing backslash continues it (a, i, c) */
	while (*p && *p != '\n') {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return p;
}

static const char *address(const char *p)
{
	if (*p == '$')
		return p + 1;
	if (nsb_isdigit((unsigned char)*p) || *p == '+' || *p == '~') {
		p++;
		while (nsb_isdigit((unsigned char)*p) || *p == '~')
			p++;
		return p;
	}
	if (*p == '/' || (*p == '\\' && p[1] && p[1] != '\n')) {
		bool slash = *p == '/';
		char delim = p[slash ? 0 : 1];
		p = skip_delimited(p + (slash ? 1 : 2), delim);
		if (!p)
			return NULL;
		while (*p == 'I' || *p == 'M')
			p++;
	}
	return p;
}

/* The flags of s after its replacement: true when 'e' is among them. */
static bool s_flags(const char **pp)
{
	const char *p = *pp;
	for (; *p && *p != ';' && *p != '\n' && *p != '}'; p++) {
		if (*p == 'e')
			return true;
		if (*p == 'w') { /* a file name to the end of the line */
			p = skip_line(p);
			break;
		}
		if (!strchr("gpiImM0123456789 \t", *p))
			break;
	}
	*pp = p;
	return false;
}

/*
 * The arguments of command cmd at *pp: *pp moves past them.  1 when the
 * command runs a shell command, -1 when sed would reject the script, else 0.
 */
static int command(char cmd, const char **pp)
{
	const char *p = *pp;
	switch (cmd) {
	case 'e':
		return 1;
	case 's':
	case 'y': {
		char delim = *p;
		if (!delim || delim == '\n' || delim == '\\')
			return -1;
		p = skip_delimited(p + 1, delim);
		p = p ? skip_delimited(p, delim) : NULL;
		if (!p)
			return -1;
		if (cmd == 's' && s_flags(&p))
			return 1;
		break;
	}
	case 'a':
	case 'i':
	case 'c':
	case 'r':
	case 'R':
	case 'w':
	case 'W':
		p = skip_line(p);
		break;
	case ':':
	case 'b':
	case 't':
	case 'T':
	case 'v':
		p += nsb_strcspn(p, ";\n");
		break;
	case 'q':
	case 'Q':
	case 'l':
	case 'L':
		while (*p == ' ' || nsb_isdigit((unsigned char)*p))
			p++;
		break;
	default:
		/* commands without arguments; anything else sed refuses */
		if (!cmd || !strchr("{}=dDgGhHnNpPxzF", cmd))
			return -1;
	}
	*pp = p;
	return 0;
}

bool nsb_gate_sed_runs_command(const char *p)
{
	while (p && *p) {
		while (*p && strchr(" \t\n;", *p))
			p++;
		if (!*p)
			break;
		if (*p == '#') {
			p = skip_line(p);
			continue;
		}
		p = address(p);
		if (p && *p == ',')
			p = address(p + 1);
		if (!p)
			return false;
		while (*p == ' ' || *p == '\t' || *p == '!')
			p++;
		char cmd = *p;
		if (cmd)
			p++;
		int r = command(cmd, &p);
		if (r != 0)
			return r > 0;
	}
	return false;
}
