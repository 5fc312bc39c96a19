// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's path jail (supervisor, pure): path.outside and
 * path.symlink_escape for one candidate path (gate_path_args.c finds the
 * candidates).  A candidate is judged the way the sandbox will see it:
 *   - /proc and /dev are the sandbox's own (its pid namespace's procfs, a
 *     minimal /dev): readable by design, judged without the host.  Their
 *     links into the view are followed as the kernel would: /dev/fd,
 *     /dev/stdin, /dev/stdout and /dev/stderr lead to /proc/self/fd;
 *     /proc/P/root re-roots the rest of the path at the sandbox's '/',
 *     /proc/self/cwd at the working directory.  /proc/P/fd/N (and exe,
 *     map_files) name an open file: allowed as the last component (the
 *     payload starts with fds 0-2 only, the caller's stdio; any other fd
 *     it opened inside the sandbox), refused with anything after it, since
 *     where that leads is known only at run time.
 *   - a written-absolute path whose first component exists nowhere in the
 *     sandbox's view (the root is a read-only tmpfs holding only the mount
 *     points) can be neither opened nor created there: not a risk.
 *   - everything else is resolved on the host through struct nsb_fs_ops,
 *     with realpath semantics, and must land under a root, an --allow-path
 *     directory or the read-only system view.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gate/gate_path.h"
#include "gate/gate_rules.h"
#include "base/fmt.h"
#include "base/macro.h"
#include "base/util.h"

/*
 * Inside paths that exist only in the sandbox's own view (a fresh tmpfs):
 * no host file can be reached through them, so they are judged lexically
 * and never looked up on the host.  /proc and /dev: view_walk.
 */
static const char *const private_roots[] = {"/tmp", NULL};

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
	nsb_format(c->v->resolved, sizeof(c->v->resolved), "%s", resolved);
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

/* Under the sandbox's own /proc or /dev? */
static bool own_view(const char *p)
{
	return nsb_path_is_under(p, "/proc") || nsb_path_is_under(p, "/dev");
}

/*
 * cur names a process's directory in /proc (/proc/P or /proc/P/task/T, P a
 * number, "self" or "thread-self"): what follows it, else NULL.  *self:
 * P is the calling process itself.
 */
static const char *proc_pid_dir(const char *cur, bool *self)
{
	static const char digits[] = "0123456789";
	if (strncmp(cur, "/proc/", 6) != 0)
		return NULL;
	const char *p = cur + 6, *e = strchrnul(p, '/');
	size_t n = (size_t)(e - p);
	if ((n == 4 && strncmp(p, "self", 4) == 0) ||
	    (n == 11 && strncmp(p, "thread-self", 11) == 0))
		*self = true;
	else if (n && nsb_strspn(p, digits) >= n)
		*self = false;
	else
		return NULL;
	if (strncmp(e, "/task/", 6) == 0) {
		const char *t = e + 6, *te = strchrnul(t, '/');
		if (te > t && nsb_strspn(t, digits) >= (size_t)(te - t))
			e = te;
	}
	return e;
}

enum view {
	VIEW_HOST,   /* not in the sandbox's own view: judge on the host */
	VIEW_OWN,    /* the sandbox's own /proc or /dev: allowed */
	VIEW_TAIL,   /* a path through an open file's link: refused */
	VIEW_REROOT, /* a /proc link re-rooted it: judge out instead */
};

/* The sandbox's own links: where /dev/fd and friends point (mount_special.c). */
static const char *const dev_links[][2] = {
	{"/dev/fd", "/proc/self/fd"},
	{"/dev/stdin", "/proc/self/fd/0"},
	{"/dev/stdout", "/proc/self/fd/1"},
	{"/dev/stderr", "/proc/self/fd/2"},
};

/*
 * Walk the absolute path abs component by component, lexically, following
 * the sandbox's own links in /dev and /proc in place (see the top of the
 * file).  A ".." taken outside /proc and /dev before entering them may
 * have climbed out of a symlink, which only the host can say: VIEW_HOST.
 * Long: one loop over the components, each link a case of it.
 */
static enum view view_walk(const struct nsb_gate_ctx *c, const char *abs, char *out, size_t outsz)
{
	char cur[PATH_MAX] = "";
	const char *rest = abs, *comp;
	bool climbed = false, changed = false;
	size_t n;

	while ((comp = nsb_path_next(&rest, &n))) {
		if (n == 1 && comp[0] == '.')
			continue;
		if (n == 2 && comp[0] == '.' && comp[1] == '.') {
			if (cur[0] && !own_view(cur)) /* ".." at '/' stays there */
				climbed = true;
			char *slash = strrchr(cur, '/');
			if (slash)
				*slash = '\0';
			continue;
		}
		size_t len = strlen(cur);
		if (len + 1 + n >= sizeof(cur))
			return VIEW_HOST; /* too long: the host judgement says so */
		cur[len] = '/';
		memcpy(cur + len + 1, comp, n);
		cur[len + 1 + n] = '\0';
		if (!own_view(cur))
			continue;
		if (climbed)
			return VIEW_HOST;
		for (size_t i = 0; i < ARRAY_SIZE(dev_links); i++)
			if (strcmp(cur, dev_links[i][0]) == 0)
				nsb_format(cur, sizeof(cur), "%s", dev_links[i][1]);
		bool self = false;
		const char *after = proc_pid_dir(cur, &self);
		if (!after)
			continue;
		if (strcmp(after, "/root") == 0 || (self && strcmp(after, "/cwd") == 0)) {
			/* the sandbox's '/' (or working directory) again */
			nsb_format(cur, sizeof(cur), "%s",
				   after[1] == 'r' || strcmp(c->in->cwd, "/") == 0 ? ""
										   : c->in->cwd);
			changed = true;
			climbed = false;
			continue;
		}
		if (strcmp(after, "/cwd") == 0 || strcmp(after, "/exe") == 0 ||
		    (strncmp(after, "/fd/", 4) == 0 && after[4]) ||
		    (strncmp(after, "/map_files/", 11) == 0 && after[11])) {
			/* an open file's link: fine as the last component only */
			const char *peek = rest;
			return nsb_path_next(&peek, &n) ? VIEW_TAIL : VIEW_OWN;
		}
	}
	if (own_view(cur[0] ? cur : "/"))
		return VIEW_OWN;
	if (!changed)
		return VIEW_HOST;
	nsb_format(out, outsz, "%s", cur[0] ? cur : "/");
	return VIEW_REROOT;
}

/* Does the first component of the clean absolute path lex exist inside? */
static bool top_exists(const struct nsb_gate_ctx *c, const char *lex)
{
	const char *top = lex + 1;
	size_t n = nsb_strcspn(top, "/");
	if (!c->in->view || n == 0)
		return true;
	for (size_t i = 0; i < c->in->n_view + c->in->n_roots; i++) {
		const char *v =
			i < c->in->n_view ? c->in->view[i] : c->in->roots[i - c->in->n_view].inside;
		if (v[0] == '/' && strncmp(v + 1, top, n) == 0 && (v[1 + n] == '/' || !v[1 + n]))
			return true;
	}
	return false;
}

/*
 * Judge one path candidate s taken from argv[a->idx].  Returns 1 when
 * refused.  realpath semantics: symlinks followed, relative to the base
 * directory; a missing tail is judged by the longest existing prefix with
 * the tail appended lexically (it holds no symlink yet).
 * Long: the three ways a path is written, then the view, then the host.
 */
int nsb_gate_path_judge(struct nsb_path_arg *a, const char *s)
{
	char abs[PATH_MAX], lex[PATH_MAX], host[PATH_MAX], real[PATH_MAX], final[PATH_MAX];
	struct nsb_gate_ctx *c = a->c;
	int idx = a->idx, n;
	/* written as an absolute path, or relative to an absolute -C DIR */
	bool absolute = s[0] == '/' || (s[0] != '~' && a->base);

	if (++a->judged > NSB_GATE_MAX_JUDGED) {
		a->over = true;
		return 0;
	}
	if (s[0] == '~') {
		if (s[1] != '\0' && s[1] != '/')
			/* ~user: another user's home is never a root */
			return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, s,
					   "names another user's home directory");
		if (!c->in->home)
			return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, s,
					   "names the home directory, which is not visible");
		n = nsb_format(abs, sizeof(abs), "%s%s", c->in->home, s + 1);
	} else if (s[0] == '/') {
		n = nsb_format(abs, sizeof(abs), "%s", s);
	} else {
		n = nsb_format(abs, sizeof(abs), "%s/%s", a->base ? a->base : c->in->cwd, s);
	}
	if (n < 0 || (size_t)n >= sizeof(abs))
		return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, "", "is too long to resolve");

	if (absolute) {
		switch (view_walk(c, abs, real, sizeof(real))) {
		case VIEW_OWN:
			return 0;
		case VIEW_TAIL:
			return refuse_path(c, idx, NSB_RULE_PATH_SYMLINK_ESC, s, "",
					   "goes through the link of an open file, which leads "
					   "where only the running command knows");
		case VIEW_REROOT:
			memcpy(abs, real, strlen(real) + 1);
			break;
		case VIEW_HOST:
			break;
		}
	}
	if (nsb_path_normalize(NULL, abs, lex, sizeof(lex)) < 0)
		return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, "", "is too long to resolve");

	bool in_root = lex_under_root(c, lex);
	/*
	 * Only a path written as /tmp/... is taken as the sandbox's own scratch
	 * space, and only such a path as one the sandbox cannot have.  A
	 * relative path (or ~) that climbs out of the project with ".." is
	 * judged against the roots even when it lands in /tmp: "../../etc/passwd"
	 * from a project under /tmp is an escape attempt, whatever the private
	 * /tmp would answer.
	 */
	if (!in_root && absolute) {
		for (size_t i = 0; private_roots[i]; i++)
			if (nsb_path_is_under(lex, private_roots[i]))
				return 0;
		if (!top_exists(c, lex))
			return 0;
	}

	if (nsb_gate_map_host(c->in, abs, host, sizeof(host)) < 0)
		return refuse_path(c, idx, NSB_RULE_PATH_OUTSIDE, s, "", "is too long to resolve");

	size_t cut = 0;
	if (resolve_prefix(c, idx, s, host, real, sizeof(real), &cut))
		return 1;

	n = nsb_format(abs, sizeof(abs), "%s/%s", real, host + cut);
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

bool nsb_gate_path_exists(struct nsb_path_arg *a, const char *s)
{
	char inside[PATH_MAX], host[PATH_MAX];
	const struct nsb_gate_input *in = a->c->in;

	if (!*s || s[0] == '/' || s[0] == '~')
		return false;
	if (++a->probes > NSB_GATE_MAX_PROBES) {
		a->over = true;
		return false;
	}
	int n = nsb_format(inside, sizeof(inside), "%s/%s", a->base ? a->base : in->cwd, s);
	if (n < 0 || (size_t)n >= sizeof(inside))
		return false;
	if (nsb_gate_map_host(in, inside, host, sizeof(host)) < 0)
		return false;
	return in->fs->lstat_kind(in->fs->ud, host) >= 0;
}

int nsb_gate_path_try(struct nsb_path_arg *a, const char *s)
{
	if (!*s)
		return 0;
	if (strchr(s, '/') || s[0] == '~' || nsb_gate_path_exists(a, s))
		return nsb_gate_path_judge(a, s);
	return 0;
}

int nsb_gate_path_too_many(struct nsb_path_arg *a)
{
	struct nsb_gate_ctx *c = a->c;
	nsb_gate_refuse(c, NSB_RULE_PATH_OUTSIDE, a->idx);
	nsb_gate_text(c->v->reason, "argument %d holds more than %d paths to judge", a->idx,
		      NSB_GATE_MAX_JUDGED);
	nsb_gate_text(c->v->hint, "pass the paths as separate arguments, inside the "
				  "project or an --ro/--rw directory");
	return 1;
}
