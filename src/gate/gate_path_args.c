// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The path jail's candidates (supervisor, pure): which parts of each
 * argument name files, and from which directory.  gate_path.c judges each.
 *
 * An argument offers: itself (unless an option), the value of --opt=value
 * or NAME=value, the value glued to a short option (-o/x, -I../x,
 * -xvf/etc/x, -Isrc when src exists), every member of a ':' list (relative
 * ones included), an @FILE response file, the items of a comma-separated
 * driver option (-Wl,-rpath,/x, -Wl,--version-script=/x), the paths of
 * file: URLs whose host is local, and the files a sed script reads or
 * writes.  Options that move the working directory of what follows
 * (env -C, git -C, make -C, tar -C, find -execdir, ...) re-root the relative
 * paths after them.  An argument of PATH_MAX bytes or more cannot be
 * judged (the kernel takes no path that long, a program may still cut it
 * up): path.too_long.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gate/gate_path.h"
#include "gate/gate_rules.h"
#include "base/macro.h"
#include "base/util.h"

/* Commands with an option that moves the working directory of the rest. */
static const struct {
	/* "-C", "--directory" ("": none); no pointer, no relocation (base/macro.h) */
	char cmd[8], opt[4], longopt[12];
} chdir_opts[] = {
	{"env", "-C", "--chdir"},
	{"git", "-C", ""},
	{"make", "-C", "--directory"},
	{"gmake", "-C", "--directory"},
	{"ninja", "-C", ""},
	{"tar", "-C", "--directory"},
	{"gtar", "-C", "--directory"},
	{"bsdtar", "-C", "--cd"},
	{"go", "-C", ""},
	{"meson", "-C", ""},
	{"pnpm", "-C", "--dir"},
	{"yarn", "", "--cwd"},
	{"uv", "", "--directory"},
	{"poetry", "-C", "--directory"},
};

/* What the walk over argv knows between arguments. */
struct walk {
	const char *cmd;      /* basename of the latest command position */
	char base[PATH_MAX];  /* "" : the working directory */
	char saved[PATH_MAX]; /* base outside find -execdir's command */
	char start[PATH_MAX]; /* find's first starting point, absolute */
	bool chdir_next;      /* the next argument is a -C DIR */
	bool in_execdir;      /* inside find -execdir's command */
	bool sed, sed_script_next, sed_has_script, sed_opts_done;
};

/* One hex digit's value, or -1.  (sscanf's %x would also skip blanks and
 * take a sign, decoding "% 2f" that no URL parser decodes.) */
static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f')
		return (ch | 0x20) - 'a' + 10;
	return -1;
}

/*
 * A file: URL's host that may name this machine: empty, localhost, a
 * loopback address (127.x, [::1], [::ffff:127.0.0.1]), 0.0.0.0, or any
 * numeric address (2130706433 and 0x7f000001 are 127.0.0.1 to some
 * parsers; judging a remote one costs nothing, since no file: reader goes
 * to another host).  A port is ignored.
 */
static bool local_host(const char *h, size_t n)
{
	if (n && h[0] != '[') {
		const char *colon = memchr(h, ':', n);
		if (colon)
			n = (size_t)(colon - h);
	}
	if (n == 0 || (n == 9 && nsb_strncasecmp(h, "localhost", 9) == 0) ||
	    (n == 10 && nsb_strncasecmp(h, "localhost.", 10) == 0))
		return true;
	if (h[0] == '[')
		return n >= 5 &&
		       (strncmp(h, "[::1]", 5) == 0 || nsb_strncasecmp(h, "[::ffff:", 8) == 0 ||
			strncmp(h, "[0:0:0:0:0:0:0:1]", 17) == 0);
	if (!(h[0] >= '0' && h[0] <= '9'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789abcdefABCDEFxX.", h[i]))
			return false;
	return true;
}

/*
 * file: URLs name local files (curl file:///etc/passwd reads one): judge
 * the percent-decoded path of every file: URL whose host is this machine.
 */
static int check_file_urls(struct nsb_path_arg *a, const char *v)
{
	char buf[PATH_MAX];
	for (const char *u = nsb_strcasestr(v, "file:"); u; u = nsb_strcasestr(u + 5, "file:")) {
		const char *p = u + 5;
		if (p[0] == '/' && p[1] == '/') {
			const char *host = p + 2, *slash = strchrnul(host, '/');
			const char *at = memchr(host, '@', (size_t)(slash - host));
			if (at) /* file://user@host/path */
				host = at + 1;
			if (!local_host(host, (size_t)(slash - host)))
				continue;
			p = slash;
		}
		size_t len = 0;
		for (; *p && *p != '?' && *p != '#' && len + 1 < sizeof(buf); p++) {
			int hi = p[0] == '%' ? hexval(p[1]) : -1;
			int lo = hi >= 0 ? hexval(p[2]) : -1;
			if (lo >= 0) {
				buf[len++] = (char)(hi << 4 | lo);
				p += 2;
			} else {
				buf[len++] = *p;
			}
		}
		buf[len] = '\0';
		if (len && nsb_gate_path_try(a, buf))
			return 1;
	}
	return 0;
}

static bool leads_path(const char *v)
{
	return v[0] == '/' || v[0] == '~' || v[0] == '.' || v[0] == '@';
}

/* Every member of a ':' list, relative ones included (only those that lead
 * like a path when LEADING); "//" opens a URL's authority, not a path. */
static int check_colon_list(struct nsb_path_arg *a, const char *v, bool leading)
{
	char buf[PATH_MAX];
	for (const char *seg = v;; seg++) {
		const char *end = strchrnul(seg, ':');
		size_t len = (size_t)(end - seg);
		if (len && len < sizeof(buf) && !(seg[0] == '/' && seg[1] == '/') &&
		    (!leading || leads_path(seg))) {
			memcpy(buf, seg, len);
			buf[len] = '\0';
			if (nsb_gate_path_try(a, buf))
				return 1;
		}
		if (!*end)
			return 0;
		seg = end;
	}
}

static bool alnum(char ch)
{
	return (ch >= '0' && ch <= '9') || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z');
}

/*
 * "scheme://..." with a scheme other than file names a resource on some host
 * (curl http://example.test/x), not a file: as a relative path its first
 * component would be a directory called "scheme:", and where none exists the
 * kernel cannot resolve it.  Where one does exist, the value is judged as a
 * path like any other.
 */
static bool remote_url(struct nsb_path_arg *a, const char *v)
{
	char first[NAME_MAX + 1];
	size_t n = 0;

	if (!((v[0] | 0x20) >= 'a' && (v[0] | 0x20) <= 'z'))
		return false;
	while (v[n] && v[n] != ':') {
		char ch = v[n];
		if (!(alnum(ch) || ch == '+' || ch == '-' || ch == '.') || ++n >= sizeof(first) - 1)
			return false;
	}
	if (strncmp(v + n, "://", 3) != 0 || (n == 4 && nsb_strncasecmp(v, "file", 4) == 0))
		return false;
	memcpy(first, v, n + 1);
	first[n + 1] = '\0';
	return !nsb_gate_path_exists(a, first);
}

/* A value that may name files: itself, @FILE, a ':' list, file: URLs. */
static int check_value(struct nsb_path_arg *a, const char *v)
{
	if (v[0] == '@' && v[1] && nsb_gate_path_try(a, v + 1))
		return 1;
	bool url = remote_url(a, v);
	if (!url && nsb_gate_path_try(a, v))
		return 1;
	/* A URL's port and path ("8080/x") are no relative paths. */
	if (strchr(v, ':') && check_colon_list(a, v, url))
		return 1;
	return check_file_urls(a, v);
}

/*
 * Values glued to short options: -o/x, -I../x, -Isrc/x, -Isrc (when it
 * exists).  When the value after the first letter is not clearly one
 * ("-xvf/etc/x": "vf/etc/x", whose "vf" does not exist), the option may be
 * a cluster of flags whose last one takes the rest: the suffixes after
 * the next few letters are judged too.
 */
static int check_glued(struct nsb_path_arg *a, const char *arg)
{
	const char *v = arg + 2, *slash = strchr(v, '/');
	char first[NAME_MAX + 1];

	if (!*v)
		return 0; /* "-x": no value glued */
	if ((leads_path(v) || slash || nsb_gate_path_exists(a, v)) && check_value(a, v))
		return 1;
	if (leads_path(v))
		return 0;
	if (slash && (size_t)(slash - v) < sizeof(first)) {
		memcpy(first, v, (size_t)(slash - v));
		first[slash - v] = '\0';
		if (nsb_gate_path_exists(a, first))
			return 0; /* -Isrc/x: the value names src */
	}
	for (size_t k = 3; k <= 8 && arg[k] && alnum(arg[k - 1]); k++) {
		v = arg + k;
		if (leads_path(v))
			return check_value(a, v);
		if (nsb_gate_path_exists(a, v) && check_value(a, v))
			return 1;
	}
	return 0;
}

static int check_arg(struct nsb_path_arg *a, const char *arg, bool split_commas);

/* -Wl,-rpath,/x, -Wl,--version-script=/x, -Wa,-I/x: each item judged. */
static int check_driver(struct nsb_path_arg *a, const char *arg)
{
	char item[PATH_MAX];
	for (const char *s = strchr(arg, ','); s; s = strchr(s + 1, ',')) {
		const char *end = strchrnul(s + 1, ',');
		size_t len = (size_t)(end - s - 1);
		if (!len || len >= sizeof(item))
			continue;
		memcpy(item, s + 1, len);
		item[len] = '\0';
		if (check_arg(a, item, false))
			return 1;
	}
	return 0;
}

static int check_arg(struct nsb_path_arg *a, const char *arg, bool split_commas)
{
	if (arg[0] != '-' && check_value(a, arg))
		return 1;
	const char *eq = strchr(arg, '=');
	if (eq && eq[1] && check_value(a, eq + 1))
		return 1;
	if (arg[0] != '-' || !arg[1])
		return 0;
	/* an option packing paths: --x,file:///y, --opt:/z */
	if (!eq &&
	    ((strchr(arg, ':') && check_colon_list(a, arg, false)) || check_file_urls(a, arg)))
		return 1;
	if (arg[1] == '-')
		return 0;
	if (split_commas && arg[1] == 'W' && strchr(arg, ',') && check_driver(a, arg))
		return 1;
	return check_glued(a, arg);
}

/* The directory relative paths start from: base, or NULL for the cwd. */
static const char *base_of(const struct walk *w)
{
	return w->base[0] ? w->base : NULL;
}

/* Move the walk's base to dir (relative to the current base). */
static void chdir_to(struct nsb_gate_ctx *c, struct walk *w, const char *dir)
{
	char home[PATH_MAX];
	if (dir[0] == '~' && (dir[1] == '/' || !dir[1])) {
		if (!c->in->home ||
		    nsb_snprintf(home, sizeof(home), "%s%s", c->in->home, dir + 1) < 0)
			return;
		dir = home;
	}
	char out[PATH_MAX];
	if (nsb_path_normalize(w->base[0] ? w->base : c->in->cwd, dir, out, sizeof(out)) == 0)
		memcpy(w->base, out, strlen(out) + 1);
}

/* After argument i: does it (or did it, with the next one) move the base? */
static void track_chdir(struct nsb_gate_ctx *c, struct walk *w, const char *arg)
{
	if (w->chdir_next) {
		w->chdir_next = false;
		chdir_to(c, w, arg);
		return;
	}
	if (!w->cmd)
		return;
	for (size_t k = 0; k < ARRAY_SIZE(chdir_opts); k++) {
		if (strcmp(w->cmd, chdir_opts[k].cmd) != 0)
			continue;
		const char *o = chdir_opts[k].opt[0] ? chdir_opts[k].opt : NULL;
		const char *l = chdir_opts[k].longopt[0] ? chdir_opts[k].longopt : NULL;
		size_t ln = l ? strlen(l) : 0;
		if ((o && strcmp(arg, o) == 0) || (l && strcmp(arg, l) == 0))
			w->chdir_next = true;
		else if (o && strncmp(arg, o, 2) == 0 && arg[2])
			chdir_to(c, w, arg + 2);
		else if (l && strncmp(arg, l, ln) == 0 && arg[ln] == '=')
			chdir_to(c, w, arg + ln + 1);
	}
}

/* find: its first starting point; -execdir/-okdir run the next command from
 * the directory of each match, all below it: judge from there. */
static void track_find(struct nsb_gate_ctx *c, struct walk *w, int i, const char *arg)
{
	if (w->in_execdir && (c->marks[i] & NSB_ARG_FIND_END)) {
		w->in_execdir = false;
		memcpy(w->base, w->saved, sizeof(w->base));
		return;
	}
	if (!w->cmd || strcmp(w->cmd, "find") != 0)
		return;
	if (!w->start[0] && arg[0] != '-' && arg[0] != '(' && arg[0] != '!')
		nsb_path_normalize(w->base[0] ? w->base : c->in->cwd, arg, w->start,
				   sizeof(w->start));
	if (strcmp(arg, "-execdir") == 0 || strcmp(arg, "-okdir") == 0) {
		memcpy(w->saved, w->base, sizeof(w->saved));
		if (w->start[0])
			memcpy(w->base, w->start, sizeof(w->base));
		w->in_execdir = true;
	}
}

/*
 * sed: the script is each -e value, or the first operand without -e/-f.
 * Returns the script argument i carries, or NULL.
 */
static const char *sed_script(struct walk *w, const char *arg)
{
	if (w->sed_script_next) {
		w->sed_script_next = false;
		return arg;
	}
	if (w->sed_opts_done || arg[0] != '-' || !arg[1]) {
		if (w->sed_has_script)
			return NULL;
		w->sed_has_script = true;
		return arg;
	}
	if (strcmp(arg, "--") == 0) {
		w->sed_opts_done = true;
	} else if (strcmp(arg, "--expression") == 0) {
		w->sed_has_script = w->sed_script_next = true;
	} else if (strncmp(arg, "--expression=", 13) == 0) {
		w->sed_has_script = true;
		return arg + 13;
	} else if (strncmp(arg, "--file", 6) == 0) {
		w->sed_has_script = true;
	} else if (arg[1] != '-') {
		/* a cluster: -n, -i.bak, -ne SCRIPT, -es/a/b/ */
		for (const char *p = arg + 1; *p; p++) {
			if (*p == 'i' || *p == 'l')
				break;
			if (*p == 'f') {
				w->sed_has_script = true;
				break;
			}
			if (*p == 'e') {
				w->sed_has_script = true;
				if (p[1])
					return p + 1;
				w->sed_script_next = true;
				break;
			}
		}
	}
	return NULL;
}

/* A command position: which command its arguments belong to now. */
static void enter_command(struct nsb_gate_ctx *c, struct walk *w, int i)
{
	const char *name = nsb_gate_basename(c->in->argv[i]);
	if (i == 0 && c->in->cmd_real_base && strcmp(name, "busybox") != 0)
		for (size_t k = 0; k < ARRAY_SIZE(chdir_opts); k++)
			if (strcmp(c->in->cmd_real_base, chdir_opts[k].cmd) == 0)
				name = c->in->cmd_real_base;
	w->cmd = name;
	w->chdir_next = false;
	w->sed = strcmp(name, "sed") == 0 || strcmp(name, "gsed") == 0;
	w->sed_script_next = w->sed_has_script = w->sed_opts_done = false;
	if (strcmp(name, "find") == 0)
		w->start[0] = '\0';
}

static int refuse_too_long(struct nsb_gate_ctx *c, int i)
{
	nsb_gate_refuse(c, NSB_RULE_PATH_TOO_LONG, i);
	nsb_gate_text(c->v->reason,
		      "argument %d is %zu bytes long, at or above PATH_MAX (%d): too long to judge "
		      "as a path",
		      i, strlen(c->in->argv[i]), PATH_MAX);
	nsb_gate_text(c->v->hint,
		      "pass long text through a file inside the project (git commit "
		      "-F FILE, curl -d @FILE) and paths of fewer than %d bytes",
		      PATH_MAX);
	return 1;
}

/* Long: the walk over argv, each tracked option one step of it. */
int nsb_gate_check_paths(struct nsb_gate_ctx *c)
{
	struct walk w = {0};

	/* --allow-path /: every path allowed, nothing to judge a long one for */
	bool every_path = false;
	for (size_t i = 0; i < c->p->n_allow_path; i++)
		every_path |= strcmp(c->p->allow_path[i], "/") == 0;
	for (int i = 0; i < c->in->argc && !every_path; i++)
		if (strlen(c->in->argv[i]) >= PATH_MAX)
			return refuse_too_long(c, i);

	for (int i = 0; i < c->in->argc; i++) {
		const char *arg = c->in->argv[i];
		/* command positions were judged by the exec rules */
		if (c->marks[i] & NSB_ARG_COMMAND) {
			enter_command(c, &w, i);
			continue;
		}
		if (w.cmd && strcmp(w.cmd, "busybox") == 0 && strcmp(arg, "sed") == 0) {
			w.sed = true;
			continue;
		}
		struct nsb_path_arg a = {.c = c, .idx = i, .base = base_of(&w)};
		if (check_arg(&a, arg, true))
			return 1;
		const char *script = w.sed ? sed_script(&w, arg) : NULL;
		if (script && nsb_gate_sed_script(&a, script))
			return 1;
		if (a.over)
			return nsb_gate_path_too_many(&a);
		track_find(c, &w, i, arg);
		track_chdir(c, &w, arg);
	}
	return 0;
}
