// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The front gate: policy storage, the shell-metacharacter rule and the path
 * jail.  The exec rules (deny list, wrappers, interpreters) are in
 * gate_exec.c.  Pure: the filesystem is only seen through struct nsb_fs_ops.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gate_internal.h"
#include "util.h"
#include "macro.h"

const char *const nsb_gate_default_deny[] = {
	/* privilege tools: they exist to cross the boundary the sandbox draws */
	"sudo", "su", "doas", "pkexec", "setpriv", "capsh", "nsenter", "unshare", "chroot",
	/* destructive or system tools */
	"rm", "chmod", "chown", "dd", "shred", "wipefs", "mkfs", "mkfs.*", "mkswap", "fdisk",
	"sfdisk", "parted", "mount", "umount", "swapon", "swapoff", "insmod", "rmmod", "modprobe",
	"kexec", "reboot", "shutdown", "halt", "poweroff", "systemctl", NULL};

/*
 * Inside paths that exist only in the sandbox's own view (a fresh tmpfs, the
 * minimal /dev): no host file can be reached through them, so they are
 * judged lexically and never looked up on the host.  /proc is not one of
 * them: /proc/self/root and /proc/N/cwd lead back into the whole view.
 */
static const char *const private_roots[] = {"/tmp", "/dev", NULL};

/*
 * The read-only system view (DESIGN section 3): host directories bound at the
 * same path.  A path that resolves under one of them is allowed; /etc is
 * deliberately absent, since only a few of its entries are visible and
 * naming one in argv is what the jail exists to catch.
 */
static const char *const system_roots[] = {"/usr",   "/bin",   "/sbin",	  "/lib",
					   "/lib32", "/lib64", "/libx32", NULL};

/* ---- policy ---------------------------------------------------------- */

void nsb_gate_policy_init(struct nsb_gate_policy *p)
{
	memset(p, 0, sizeof(*p));
}

void nsb_gate_policy_free(struct nsb_gate_policy *p)
{
	for (size_t i = 0; i < p->n_deny_exec; i++)
		free(p->deny_exec[i]);
	for (size_t i = 0; i < p->n_allow_exec; i++)
		free(p->allow_exec[i]);
	for (size_t i = 0; i < p->n_allow_path; i++)
		free(p->allow_path[i]);
	nsb_gate_policy_init(p);
}

int nsb_gate_policy_init_default(struct nsb_gate_policy *p)
{
	nsb_gate_policy_init(p);
	for (size_t i = 0; nsb_gate_default_deny[i]; i++) {
		int r = nsb_gate_policy_deny_exec(p, nsb_gate_default_deny[i]);
		if (r < 0) {
			nsb_gate_policy_free(p);
			return r;
		}
	}
	return 0;
}

static bool name_valid(const char *name)
{
	size_t len = strlen(name);
	if (len == 0 || len > NSB_GATE_NAME_MAX)
		return false;
	for (const char *s = name; *s; s++)
		if (*s == '/' || *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			return false;
	/* '*' only as the last byte: a prefix pattern, nothing more */
	const char *star = strchr(name, '*');
	return !star || star[1] == '\0';
}

static int list_add(char **list, size_t *n, size_t max, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(list[i], s) == 0)
			return 0;
	if (*n >= max)
		return -E2BIG;
	char *copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	list[(*n)++] = copy;
	return 0;
}

int nsb_gate_policy_deny_exec(struct nsb_gate_policy *p, const char *name)
{
	if (!name_valid(name))
		return -EINVAL;
	return list_add(p->deny_exec, &p->n_deny_exec, NSB_GATE_MAX_NAMES, name);
}

int nsb_gate_policy_allow_exec(struct nsb_gate_policy *p, const char *name)
{
	if (!name_valid(name))
		return -EINVAL;
	return list_add(p->allow_exec, &p->n_allow_exec, NSB_GATE_MAX_NAMES, name);
}

/* Clean absolute: no empty, "." or ".." component, no trailing slash. */
static bool path_clean_abs(const char *p)
{
	if (p[0] != '/')
		return false;
	if (p[1] == '\0')
		return true;
	const char *s = p + 1;
	for (;;) {
		const char *e = strchrnul(s, '/');
		size_t n = (size_t)(e - s);
		if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return false;
		if (*e == '\0')
			return true;
		s = e + 1;
	}
}

int nsb_gate_policy_allow_path(struct nsb_gate_policy *p, const char *dir)
{
	if (strlen(dir) > NSB_MAX_PATH || !path_clean_abs(dir))
		return -EINVAL;
	return list_add(p->allow_path, &p->n_allow_path, NSB_GATE_MAX_PATHS, dir);
}

static bool name_matches(const char *pattern, const char *name)
{
	size_t len = strlen(pattern);
	if (len > 0 && pattern[len - 1] == '*')
		return strncmp(pattern, name, len - 1) == 0;
	return strcmp(pattern, name) == 0;
}

bool nsb_gate_name_denied(const struct nsb_gate_policy *p, const char *name)
{
	if (!name || !*name)
		return false;
	for (size_t i = 0; i < p->n_allow_exec; i++)
		if (name_matches(p->allow_exec[i], name))
			return false;
	for (size_t i = 0; i < p->n_deny_exec; i++)
		if (name_matches(p->deny_exec[i], name))
			return true;
	return false;
}

/* ---- helpers shared with gate_exec.c -------------------------------- */

void nsb_gate_text(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, NSB_GATE_TEXT_MAX, fmt, ap);
	va_end(ap);
}

int nsb_gate_refuse(struct nsb_gate_ctx *c, const char *rule, int idx)
{
	struct nsb_gate_verdict *v = c->v;
	v->allowed = false;
	v->rule = rule;
	v->argv_index = idx;
	snprintf(v->token, sizeof(v->token), "%s", c->in->argv[idx]);
	return 1;
}

const char *nsb_gate_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* path == root or below it, component-wise; both clean absolute. */
static bool under(const char *path, const char *root)
{
	return nsb_path_is_under(path, root);
}

/*
 * Lexically normalize p (absolute) into out: collapse "//", "." and ".."
 * ("/.." stays "/").  No symlink is followed.  0 or -ENAMETOOLONG.
 */
static int normalize(const char *p, char *out, size_t outsz)
{
	return nsb_path_normalize(NULL, p, out, outsz);
}

/*
 * How far a relative remainder climbs: false when some ".." in it goes above
 * its starting directory (so the mapping through that root would be wrong).
 */
static bool stays_below(const char *rest)
{
	int depth = 0;
	const char *s = rest;
	while (*s) {
		while (*s == '/')
			s++;
		if (!*s)
			break;
		const char *e = strchrnul(s, '/');
		size_t n = (size_t)(e - s);
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			if (--depth < 0)
				return false;
		} else if (!(n == 1 && s[0] == '.')) {
			depth++;
		}
		s = e;
	}
	return true;
}

int nsb_gate_map_host(const struct nsb_gate_input *in, const char *inside, char *out, size_t outsz)
{
	const struct nsb_gate_root *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < in->n_roots; i++) {
		const char *ri = in->roots[i].inside;
		size_t n = strlen(ri);
		if (!under(inside, ri) || (best && n <= best_len))
			continue;
		if (!stays_below(inside + (n == 1 ? 0 : n)))
			continue;
		best = &in->roots[i];
		best_len = n;
	}
	int n;
	if (best && !(best_len == 1))
		n = snprintf(out, outsz, "%s%s", best->host, inside + best_len);
	else if (best)
		n = snprintf(out, outsz, "%s%s%s", best->host, strcmp(best->host, "/") ? "/" : "",
			     inside + 1);
	else
		n = snprintf(out, outsz, "%s", inside);
	return n < 0 || (size_t)n >= outsz ? -ENAMETOOLONG : 0;
}

/* ---- shell.metachar -------------------------------------------------- */

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

static int check_metachar(struct nsb_gate_ctx *c)
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

/* ---- path.outside / path.symlink_escape ------------------------------ */

/* Bound on lookups for one candidate path (its missing trailing components). */
#define MAX_STEPS_PER_PATH 32

static bool host_allowed(const struct nsb_gate_ctx *c, const char *real)
{
	for (size_t i = 0; i < c->in->n_roots; i++)
		if (under(real, c->in->roots[i].host))
			return true;
	for (size_t i = 0; i < c->p->n_allow_path; i++)
		if (under(real, c->p->allow_path[i]))
			return true;
	for (size_t i = 0; system_roots[i]; i++)
		if (under(real, system_roots[i]))
			return true;
	return false;
}

static bool lex_under_root(const struct nsb_gate_ctx *c, const char *lex)
{
	for (size_t i = 0; i < c->in->n_roots; i++)
		if (under(lex, c->in->roots[i].inside))
			return true;
	for (size_t i = 0; i < c->p->n_allow_path; i++)
		if (under(lex, c->p->allow_path[i]))
			return true;
	return false;
}

static int refuse_path(struct nsb_gate_ctx *c, int idx, const char *rule, const char *cand,
		       const char *resolved, const char *why)
{
	nsb_gate_refuse(c, rule, idx);
	snprintf(c->v->resolved, sizeof(c->v->resolved), "%s", resolved);
	if (strcmp(rule, NSB_RULE_PATH_SYMLINK_ESC) == 0) {
		nsb_gate_text(c->v->reason, "'%s' %s", cand, why);
		nsb_gate_text(c->v->hint,
			      "a symlink under the project leads outside it; pass the target "
			      "directory with --ro or --rw so it is visible in its own right, or "
			      "replace the link with a real file inside the project");
	} else {
		nsb_gate_text(c->v->reason, "'%s' %s", cand, why);
		nsb_gate_text(c->v->hint,
			      "pass a path inside the project or under an --ro/--rw directory "
			      "(relative to the working directory); if the program needs this "
			      "location, ask the operator to add --ro DIR, --rw DIR or "
			      "--allow-path DIR");
	}
	return 1;
}

/* Does candidate s name an existing file relative to the working directory? */
static bool exists_here(struct nsb_gate_ctx *c, const char *s)
{
	char inside[PATH_MAX], host[PATH_MAX];
	int n = snprintf(inside, sizeof(inside), "%s/%s", c->in->cwd, s);
	if (n < 0 || (size_t)n >= sizeof(inside))
		return false;
	if (nsb_gate_map_host(c->in, inside, host, sizeof(host)) < 0)
		return false;
	return c->in->fs->lstat_kind(c->in->fs->ud, host) >= 0;
}

static bool looks_like_path(struct nsb_gate_ctx *c, const char *s)
{
	if (!*s || strlen(s) >= PATH_MAX)
		/* the kernel refuses a path this long (ENAMETOOLONG) */
		return false;
	if (strchr(s, '/') || s[0] == '~')
		return true;
	return exists_here(c, s);
}

/*
 * Judge one path candidate s taken from argv[idx].  Returns 1 when refused.
 * realpath semantics: symlinks followed, relative to the inside working
 * directory; a missing tail is judged by the longest existing prefix with
 * the tail appended lexically (it holds no symlink yet).
 */
static int judge_path(struct nsb_gate_ctx *c, int idx, const char *s)
{
	char abs[PATH_MAX], lex[PATH_MAX], host[PATH_MAX], real[PATH_MAX], final[PATH_MAX];
	int n;

	if (s[0] == '~') {
		if (s[1] != '\0' && s[1] != '/')
			/* ~user: another user's home is never a root */
			return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, s,
					   "names another user's home directory");
		if (!c->in->home)
			return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, s,
					   "names the home directory, which is not visible");
		n = snprintf(abs, sizeof(abs), "%s%s", c->in->home, s + 1);
	} else if (s[0] == '/') {
		n = snprintf(abs, sizeof(abs), "%s", s);
	} else {
		n = snprintf(abs, sizeof(abs), "%s/%s", c->in->cwd, s);
	}
	if (n < 0 || (size_t)n >= sizeof(abs))
		return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, "", "is too long to resolve");
	if (normalize(abs, lex, sizeof(lex)) < 0)
		return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, "", "is too long to resolve");

	bool in_root = lex_under_root(c, lex);
	/*
	 * Only a path written as /tmp/... or /dev/... is taken as the sandbox's
	 * own scratch space.  A relative path (or ~) that climbs out of the
	 * project with ".." is judged against the roots even when it lands in
	 * /tmp: "../../etc/passwd" from a project under /tmp is an escape
	 * attempt, whatever the private /tmp would answer.
	 */
	if (!in_root && s[0] == '/')
		for (size_t i = 0; private_roots[i]; i++)
			if (under(lex, private_roots[i]))
				return 0;

	if (nsb_gate_map_host(c->in, abs, host, sizeof(host)) < 0)
		return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, "", "is too long to resolve");

	/* host[0..cut) is the prefix being tried; host+cut the missing tail. */
	size_t cut = strlen(host);
	for (int step = 0;; step++) {
		if (step >= MAX_STEPS_PER_PATH)
			return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, host,
					   "has too many missing components to judge");
		char saved = host[cut];
		host[cut] = '\0';
		int r = c->in->fs->realpath(c->in->fs->ud, host, real, sizeof(real));
		if (r == -ENOENT || r == -ENOTDIR) {
			int k = c->in->fs->lstat_kind(c->in->fs->ud, host);
			if (k == NSB_FS_SYMLINK) {
				host[cut] = saved;
				/* its target is missing: where it would land cannot be
				 * checked, and a writer would create it there */
				return refuse_path(c, idx, NSB_RULE_PATH_SYMLINK_ESC, s, host,
						   "goes through a dangling symlink whose target "
						   "cannot be checked");
			}
		} else if (r == -ELOOP) {
			host[cut] = saved;
			return refuse_path(c, idx, NSB_RULE_PATH_SYMLINK_ESC, s, host,
					   "goes through a symlink loop");
		}
		host[cut] = saved;
		if (r == 0)
			break;
		if (r != -ENOENT && r != -ENOTDIR)
			return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, host,
					   "cannot be resolved");
		if (cut <= 1)
			return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, host,
					   "cannot be resolved");
		/* drop the last component of the prefix: its tail is missing */
		size_t k = cut;
		while (k > 0 && host[k - 1] != '/')
			k--;
		cut = k <= 1 ? 1 : k - 1;
	}

	n = snprintf(abs, sizeof(abs), "%s/%s", real, host + cut);
	if (n < 0 || (size_t)n >= sizeof(abs) || normalize(abs, final, sizeof(final)) < 0)
		return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, real,
				   "is too long to resolve");
	if (host_allowed(c, final))
		return 0;
	if (in_root)
		return refuse_path(c, idx, NSB_RULE_PATH_SYMLINK_ESC, s, final,
				   "lies under an allowed root but a symlink leads outside it");
	return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, final,
			   "resolves outside the project and every --ro/--rw path");
}

/* At most this many ':'-separated paths are judged in one argument. */
#define MAX_COLON_PATHS 16

static int try_path(struct nsb_gate_ctx *c, int idx, const char *s)
{
	return looks_like_path(c, s) && judge_path(c, idx, s);
}

/* Refuse an argument that packs more paths than the gate judges in one. */
static int refuse_too_many(struct nsb_gate_ctx *c, int idx)
{
	nsb_gate_refuse(c, NSB_RULE_PATH_OUTSIDE, idx);
	nsb_gate_text(c->v->reason, "argument %d holds more than %d paths", idx, MAX_COLON_PATHS);
	nsb_gate_text(c->v->hint, "pass the paths as separate arguments, inside the "
				  "project or an --ro/--rw directory");
	return 1;
}

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
 * file: URLs name local files (curl file:///etc/passwd reads one): judge
 * the percent-decoded path of every file: URL in the argument.  Capped like
 * ':' lists: each URL may cost MAX_STEPS_PER_PATH lookups, and the gate's
 * work must stay bounded per argument.
 */
static int check_file_urls(struct nsb_gate_ctx *c, int idx, const char *a)
{
	char buf[PATH_MAX];
	int urls = 0;
	for (const char *u = strcasestr(a, "file:"); u; u = strcasestr(u + 5, "file:")) {
		const char *p = u + 5;
		if (++urls > MAX_COLON_PATHS)
			return refuse_too_many(c, idx);
		if (p[0] == '/' && p[1] == '/') {
			/* file://HOST/path: only an empty host or localhost is local */
			const char *host = p + 2, *slash = strchrnul(host, '/');
			size_t n = (size_t)(slash - host);
			if (n && !(n == 9 && strncasecmp(host, "localhost", 9) == 0))
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
		if (len && try_path(c, idx, buf))
			return 1;
	}
	return 0;
}

/*
 * Paths after a ':' (PATH-like lists, host:/path, file:/path): a segment
 * that starts with one '/' or with "~/".  "//" is a URL authority, not a
 * path.
 */
static int check_colon_paths(struct nsb_gate_ctx *c, int idx, const char *a)
{
	char buf[PATH_MAX];
	int n = 0;
	for (const char *s = strchr(a, ':'); s; s = strchr(s + 1, ':')) {
		const char *seg = s + 1, *end = strchrnul(seg, ':');
		if (!((seg[0] == '/' && seg[1] != '/') || (seg[0] == '~' && seg[1] == '/')))
			continue;
		if (++n > MAX_COLON_PATHS)
			return refuse_too_many(c, idx);
		size_t len = (size_t)(end - seg);
		if (len >= sizeof(buf))
			continue; /* the kernel refuses a path this long */
		memcpy(buf, seg, len);
		buf[len] = '\0';
		if (try_path(c, idx, buf))
			return 1;
	}
	return 0;
}

/*
 * The candidates an argument offers: the argument itself (unless it is an
 * option), the value of --opt=value or NAME=value, the value glued to a
 * short option (-o/etc/x, -I../..), paths in ':' lists and file: URLs.
 */
static int check_arg_paths(struct nsb_gate_ctx *c, int idx)
{
	const char *a = c->in->argv[idx];

	if (a[0] != '-' && try_path(c, idx, a))
		return 1;
	const char *eq = strchr(a, '=');
	if (eq && try_path(c, idx, eq + 1))
		return 1;
	if (a[0] == '-' && a[1] != '-' && a[1] != '\0' && a[2] != '\0') {
		const char *v = a + 2;
		if ((strchr(v, '/') || v[0] == '~' || strcmp(v, "..") == 0) && try_path(c, idx, v))
			return 1;
	}
	return check_colon_paths(c, idx, a) || check_file_urls(c, idx, a);
}

static int check_paths(struct nsb_gate_ctx *c)
{
	for (int i = 0; i < c->in->argc; i++) {
		/* command positions were judged by the exec rules */
		if (c->marks[i] & NSB_ARG_COMMAND)
			continue;
		if (check_arg_paths(c, i))
			return 1;
	}
	return 0;
}

/* ---- the verdict ----------------------------------------------------- */

int nsb_gate_check(const struct nsb_gate_policy *p, const struct nsb_gate_input *in,
		   struct nsb_gate_verdict *ret)
{
	if (!p || !in || !ret || !in->argv || in->argc < 1 || !in->argv[0] || !in->cwd ||
	    in->cwd[0] != '/' || !in->fs || !in->fs->realpath || !in->fs->lstat_kind)
		return -EINVAL;
	if (in->argc > NSB_MAX_ARGS)
		return -E2BIG;
	for (int i = 0; i < in->argc; i++)
		if (!in->argv[i])
			return -EINVAL;

	_cleanup_free_ struct nsb_gate_ctx *c = calloc(1, sizeof(*c));
	_cleanup_free_ struct nsb_gate_verdict *v = calloc(1, sizeof(*v));
	if (!c || !v)
		return -ENOMEM;
	c->p = p;
	c->in = in;
	c->v = v;
	v->allowed = true;
	v->argv_index = -1;

	/* exec rules first: the command decides what its arguments mean */
	if (nsb_gate_check_exec(c) == 0 && (p->allow_metachar || check_metachar(c) == 0))
		check_paths(c);

	*ret = *v;
	return 0;
}

void nsb_gate_denial(const struct nsb_gate_verdict *v, struct nsb_denial *d)
{
	d->stage = "gate";
	d->rule = v->rule;
	d->argv_index = v->argv_index;
	d->token = v->token;
	d->resolved = v->resolved[0] ? v->resolved : NULL;
	d->hint = v->hint;
}
