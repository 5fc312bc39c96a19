// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's path jail (supervisor, pure): path.outside and
 * path.symlink_escape.  Every argument that looks like a path (itself, an
 * option's value, ':' lists, file: URLs) is resolved through struct
 * nsb_fs_ops with realpath semantics and must land under a root, an
 * --allow-path directory or the read-only system view.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gate/gate_rules.h"
#include "base/util.h"

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

/* Bound on lookups for one candidate path (its missing trailing components). */
#define MAX_STEPS_PER_PATH 32

static bool host_allowed(const struct nsb_gate_ctx *c, const char *real)
{
	for (size_t i = 0; i < c->in->n_roots; i++)
		if (nsb_path_is_under(real, c->in->roots[i].host))
			return true;
	for (size_t i = 0; i < c->p->n_allow_path; i++)
		if (nsb_path_is_under(real, c->p->allow_path[i]))
			return true;
	for (size_t i = 0; system_roots[i]; i++)
		if (nsb_path_is_under(real, system_roots[i]))
			return true;
	return false;
}

static bool lex_under_root(const struct nsb_gate_ctx *c, const char *lex)
{
	for (size_t i = 0; i < c->in->n_roots; i++)
		if (nsb_path_is_under(lex, c->in->roots[i].inside))
			return true;
	for (size_t i = 0; i < c->p->n_allow_path; i++)
		if (nsb_path_is_under(lex, c->p->allow_path[i]))
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
 * Resolve the longest existing prefix of host (a candidate mapped to the
 * host) into real; *ret_cut is where the missing tail starts (host +
 * *ret_cut).  Returns 1 when candidate s of argv[idx] is refused on the way:
 * a dangling symlink, a loop, too many missing components, an error.
 */
static int resolve_prefix(struct nsb_gate_ctx *c, int idx, const char *s, char *host, char *real,
			  size_t realsz, size_t *ret_cut)
{
	/* host[0..cut) is the prefix being tried; host+cut the missing tail. */
	size_t cut = strlen(host);
	for (int step = 0;; step++) {
		if (step >= MAX_STEPS_PER_PATH)
			return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, host,
					   "has too many missing components to judge");
		char saved = host[cut];
		host[cut] = '\0';
		int r = c->in->fs->realpath(c->in->fs->ud, host, real, realsz);
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
		if (r == 0) {
			*ret_cut = cut;
			return 0;
		}
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
	if (nsb_path_normalize(NULL, abs, lex, sizeof(lex)) < 0)
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
			if (nsb_path_is_under(lex, private_roots[i]))
				return 0;

	if (nsb_gate_map_host(c->in, abs, host, sizeof(host)) < 0)
		return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, "", "is too long to resolve");

	size_t cut = 0;
	if (resolve_prefix(c, idx, s, host, real, sizeof(real), &cut))
		return 1;

	n = snprintf(abs, sizeof(abs), "%s/%s", real, host + cut);
	if (n < 0 || (size_t)n >= sizeof(abs) ||
	    nsb_path_normalize(NULL, abs, final, sizeof(final)) < 0)
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

int nsb_gate_check_paths(struct nsb_gate_ctx *c)
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
