// SPDX-License-Identifier: GPL-2.0-or-later
/* protect_scan: the host scan for protected paths and secrets (protect_scan.h); runs in the supervisor. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/macro.h"
#include "base/util.h"
#include "supervisor/cache_guard.h"
#include "supervisor/protect_scan.h"

/* A directory waiting for its turn (breadth first). */
struct qitem {
	char *rel; /* relative to the bind's root, "" for the root */
	unsigned depth;
	bool protect; /* protected paths are looked for (not inside a protected one) */
};

struct scan {
	const struct nsb_protect_rules *rules;
	struct nsb_plan *p;
	struct nsb_cover_stats *st;
	struct nsb_error *e;
	size_t op; /* the bind being scanned */
	int root_fd;
	bool mask;
	size_t covers_room;
	struct qitem *q;
	size_t q_head, q_len, q_room;
	char *buf;	    /* getdents64 */
	const char **dests; /* every user mount's destination, sorted */
	size_t n_dests;
};

enum {
	DENTS_BUF = 32 << 10
};

static int open_beneath(int root_fd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC | O_NOFOLLOW),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, root_fd, *rel ? rel : ".", &how, sizeof(how));
	return fd < 0 ? nsb_negerrno() : (int)fd;
}

static int add_cover(struct scan *s, const char *rel, enum nsb_cover_kind kind, bool is_dir)
{
	struct nsb_plan *p = s->p;
	const char *dest = p->ops[s->op].dest;
	size_t dlen = strlen(dest), rlen = strlen(rel);
	struct nsb_cover *cv;
	char *path;

	if (p->n_covers >= NSB_MAX_COVERS) {
		nsb_error_setx(s->e, -E2BIG, NSB_STAGE_PLAN,
			       "too many protected and masked paths in '%s' (at most %d)",
			       p->ops[s->op].src, NSB_MAX_COVERS);
		return nsb_error_hint(s->e, "bind a narrower directory, narrow the --mask and "
					    "policy patterns, or pass --no-mask / --no-protect");
	}
	if (dlen + 1 + rlen > NSB_MAX_PATH) {
		s->st->truncated = true; /* not reachable by a path inside either */
		return 0;
	}
	/* A hooks folder named by core.hooksPath may match by name too. */
	for (size_t i = 0; kind == NSB_COVER_PROTECT && i < p->n_covers; i++)
		if (p->covers[i].op == s->op && strcmp(p->covers[i].rel, rel) == 0)
			return 0;
	if (p->n_covers == s->covers_room) {
		size_t room = s->covers_room ? 2 * s->covers_room : 16;
		cv = realloc(p->covers, room * sizeof(*cv));
		if (!cv)
			return nsb_error_set(s->e, -ENOMEM, NSB_STAGE_PLAN, "plan the covers");
		p->covers = cv;
		s->covers_room = room;
	}
	path = malloc(dlen + 1 + rlen + 1);
	if (!path)
		return nsb_error_set(s->e, -ENOMEM, NSB_STAGE_PLAN, "plan the covers");
	memcpy(path, dest, dlen);
	path[dlen] = '/';
	memcpy(path + dlen + 1, rel, rlen + 1);
	p->covers[p->n_covers++] = (struct nsb_cover){
		.op = s->op, .path = path, .rel = path + dlen + 1, .kind = kind, .is_dir = is_dir};
	return 0;
}

static int enqueue(struct scan *s, const char *rel, unsigned depth, bool protect)
{
	char *copy;

	if (depth > NSB_SCAN_MAX_DEPTH) {
		s->st->truncated = true;
		return 0;
	}
	if (s->q_len == s->q_room) {
		size_t room = s->q_room ? 2 * s->q_room : 64;
		struct qitem *q = realloc(s->q, room * sizeof(*q));
		if (!q)
			return nsb_error_set(s->e, -ENOMEM, NSB_STAGE_PLAN, "scan the binds");
		s->q = q;
		s->q_room = room;
	}
	copy = strdup(rel);
	if (!copy)
		return nsb_error_set(s->e, -ENOMEM, NSB_STAGE_PLAN, "scan the binds");
	s->q[s->q_len++] = (struct qitem){.rel = copy, .depth = depth, .protect = protect};
	return 0;
}

/* A mask-key candidate: masked when its first bytes hold a private key. */
static bool holds_private_key(struct scan *s, int dfd, const char *name)
{
	char buf[NSB_KEY_SNIFF_BYTES];
	_cleanup_close_ int fd =
		openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	ssize_t n;

	s->st->sniffed++;
	/* Unreadable to the caller: unreadable inside too.  Only a regular
	 * file is read (O_NONBLOCK: a FIFO put there meanwhile cannot block). */
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	n = read(fd, buf, sizeof(buf));
	return n > 0 && nsb_looks_private_key(buf, (size_t)n);
}

/*
 * A matched symlink: what it leads to is covered when that lies in the same
 * bind (a link to .git/config, to a key); a target outside the bind is not
 * seen inside through this bind.
 */
static int cover_link_target(struct scan *s, const char *rel, unsigned bits)
{
	const char *src = s->p->ops[s->op].src;
	_cleanup_free_ char *host = NULL, *real = NULL;
	struct stat st;

	if (nsb_aformat(&host, "%s/%s", src, rel) < 0)
		return nsb_error_set(s->e, -ENOMEM, NSB_STAGE_PLAN, "scan the binds");
	real = realpath(host, NULL);
	if (!real || !nsb_path_is_under(real, src) || strcmp(real, src) == 0 ||
	    lstat(real, &st) < 0)
		return 0;
	const char *target = real + strlen(src) + 1;
	bool mask = bits & NSB_MATCH_MASK;
	if (!mask && (bits & NSB_MATCH_MASK_KEY) && S_ISREG(st.st_mode)) {
		_cleanup_close_ int dfd = open(src, O_PATH | O_DIRECTORY | O_CLOEXEC);
		mask = dfd >= 0 && holds_private_key(s, dfd, target);
	}
	if (mask)
		return add_cover(s, target, NSB_COVER_MASK, S_ISDIR(st.st_mode));
	if (bits & (NSB_MATCH_PROTECT | NSB_MATCH_GIT))
		return add_cover(s, target, NSB_COVER_PROTECT, S_ISDIR(st.st_mode));
	return 0;
}

/*
 * A hooks folder named by core.hooksPath in the repository's own config
 * (.githooks and the like) runs like .git/hooks: protected when it is a
 * folder of this bind.  A relative path is taken from the work tree (the
 * folder holding .git), as git does.
 */
static int cover_hooks_path(struct scan *s, int dfd, const char *rel)
{
	const char *src = s->p->ops[s->op].src;
	char cfg[16 << 10], hooks[NSB_PROTECT_HOOKS_PATH_MAX + 1];
	_cleanup_free_ char *host = NULL, *real = NULL;
	_cleanup_close_ int fd = openat(dfd, ".git/config", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	size_t plen = strlen(rel) - strlen(".git");
	struct stat st;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	n = read(fd, cfg, sizeof(cfg));
	if (n <= 0 || !nsb_git_hooks_path(cfg, (size_t)n, hooks, sizeof(hooks)))
		return 0;
	if (hooks[0] == '/' ? nsb_aformat(&host, "%s", hooks) < 0
			    : nsb_aformat(&host, "%s/%.*s%s", src, (int)plen, rel, hooks) < 0)
		return nsb_error_set(s->e, -ENOMEM, NSB_STAGE_PLAN, "scan the binds");
	real = realpath(host, NULL);
	if (!real || !nsb_path_is_under(real, src) || strcmp(real, src) == 0 ||
	    stat(real, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	return add_cover(s, real + strlen(src) + 1, NSB_COVER_PROTECT, true);
}

/* One place where a writable bind reaches nsbox's cache (cache_guard.h):
 * each folder between the bind's root and it pinned, itself protected. */
static int guard_cache(void *ud, size_t op, const char *where)
{
	struct scan *s = ud;
	char rel[PATH_MAX];
	int r = 0;

	nsb_format(rel, sizeof(rel), "%s", where);
	s->op = op;
	for (char *slash = strchr(rel, '/'); r >= 0 && slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		r = add_cover(s, rel, NSB_COVER_PIN, true);
		*slash = '/';
	}
	return r < 0 ? r : add_cover(s, rel, NSB_COVER_PROTECT, true);
}

/*
 * --rw-git: .git is pinned (a mount point cannot be renamed away and
 * replaced by a copy with other hooks) and its code re-bound read-only.  A
 * .git without hooks/ or config would let the payload create them: it is
 * then protected whole, as without --rw-git, and the run says why.
 */
static int cover_git(struct scan *s, int dfd, const char *rel)
{
	char sub[NSB_MAX_PATH + 1];
	struct stat st[NSB_N_GIT_PROTECTED];
	bool have[NSB_N_GIT_PROTECTED] = {false};
	int r;

	for (size_t i = 0; i < NSB_N_GIT_PROTECTED; i++) {
		nsb_format(sub, sizeof(sub), ".git/%s", nsb_git_protected[i]); /* short */
		have[i] = fstatat(dfd, sub, &st[i], AT_SYMLINK_NOFOLLOW) == 0 &&
			  (S_ISDIR(st[i].st_mode) || S_ISREG(st[i].st_mode));
	}
	/* hooks and config come first in nsb_git_protected */
	if (!have[0] || !have[1]) {
		s->st->git_fallback = true;
		return add_cover(s, rel, NSB_COVER_PROTECT, true);
	}
	r = add_cover(s, rel, NSB_COVER_PIN, true);
	for (size_t i = 0; r >= 0 && i < NSB_N_GIT_PROTECTED; i++) {
		if (!have[i])
			continue;
		if (nsb_snprintf(sub, sizeof(sub), "%s/%s", rel, nsb_git_protected[i]) < 0) {
			s->st->truncated = true; /* no path inside reaches it either */
			continue;
		}
		r = add_cover(s, sub, NSB_COVER_PROTECT, S_ISDIR(st[i].st_mode));
	}
	return r;
}

/*
 * Folders the scan does not enter: git's own data (covered whole, or its
 * code by name under --rw-git), and the dependency trees package managers
 * fill with other people's files, often tens of thousands of them, which
 * would spend the scan's bound on every run.  A protected path or a
 * secret of the project is not kept there.
 */
static bool skipped(const char *name)
{
	static const char *const names[] = {".git", "node_modules", ".venv", "__pycache__"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* rel lies under another user mount's destination, stacked on this bind
 * later: what is there is never seen through this one (that mount's own
 * scan covers it). */
static bool hidden(const struct scan *s, const char *rel)
{
	const char *dest = s->p->ops[s->op].dest;
	char inside[NSB_MAX_PATH + 1];
	const char *key = inside;

	if (s->n_dests < 2 || nsb_snprintf(inside, sizeof(inside), "%s/%s", dest, rel) < 0)
		return false;
	return bsearch(&key, s->dests, s->n_dests, sizeof(*s->dests), cmp_str) != NULL;
}

/* One entry of the directory it->rel (open at dfd). */
static int visit(struct scan *s, const struct qitem *it, int dfd, const char *name,
		 unsigned char type)
{
	char rel[NSB_MAX_PATH + 1];
	struct stat st;
	bool is_dir;
	unsigned bits;

	size_t plen = strlen(it->rel), nlen = strlen(name), at = plen ? plen + 1 : 0;

	if (at + nlen >= sizeof(rel)) {
		s->st->truncated = true;
		return 0;
	}
	memcpy(rel, it->rel, plen);
	rel[plen] = '/';
	memcpy(rel + at, name, nlen + 1);
	if (type == DT_UNKNOWN) {
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return 0; /* gone meanwhile */
		type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK : DT_REG;
	}
	is_dir = type == DT_DIR;
	bits = nsb_protect_classify(s->rules, rel, name, is_dir, it->protect, s->mask);
	/* Most entries: nothing to cover, nothing to enter. */
	if ((!bits && (!is_dir || skipped(name))) || hidden(s, rel))
		return 0;
	if (type == DT_LNK)
		return bits ? cover_link_target(s, rel, bits) : 0;
	if (bits & NSB_MATCH_MASK)
		return add_cover(s, rel, NSB_COVER_MASK, is_dir); /* nothing inside is seen */
	if ((bits & NSB_MATCH_MASK_KEY) && type == DT_REG && holds_private_key(s, dfd, name))
		return add_cover(s, rel, NSB_COVER_MASK, false);
	if ((bits & (NSB_MATCH_GIT | NSB_MATCH_PROTECT)) && is_dir && strcmp(name, ".git") == 0) {
		int r = cover_hooks_path(s, dfd, rel);
		if (r < 0)
			return r;
	}
	if (bits & NSB_MATCH_GIT)
		return cover_git(s, dfd, rel);
	if (bits & NSB_MATCH_PROTECT) {
		int r = add_cover(s, rel, NSB_COVER_PROTECT, is_dir);
		/* Secrets inside a protected folder are still looked for;
		 * git's own data holds none and is most of a repository. */
		if (r < 0 || !is_dir || strcmp(name, ".git") == 0)
			return r;
		return enqueue(s, rel, it->depth + 1, false);
	}
	return enqueue(s, rel, it->depth + 1, it->protect);
}

/* Read one queued directory.  1: the entry bound was reached. */
static int scan_dir(struct scan *s, const struct qitem *it)
{
	/* The root itself is read through the anchor (opened for reading):
	 * one open and one close less for every bind. */
	_cleanup_close_ int own =
		*it->rel ? open_beneath(s->root_fd, it->rel, O_RDONLY | O_DIRECTORY) : -1;
	int dfd = *it->rel ? own : s->root_fd;
	long n;

	/* Unreadable, replaced by a link or gone: nothing the payload reads
	 * either.  Anything else (openat2 missing: ENOSYS) fails the scan, so
	 * that no protection is skipped in silence. */
	if (dfd < 0 && (dfd == -EACCES || dfd == -EPERM || dfd == -ELOOP || dfd == -ENOTDIR ||
			dfd == -ENOENT || dfd == -EXDEV))
		return 0;
	if (dfd < 0)
		return nsb_error_set(s->e, dfd, NSB_STAGE_PLAN, "scan '%s/%s' for protected paths",
				     s->p->ops[s->op].src, it->rel);
	while ((n = syscall(SYS_getdents64, dfd, s->buf, DENTS_BUF)) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(s->buf + off);
			const char *nm = d->d_name;
			off += d->d_reclen;
			if (nm[0] == '.' && (!nm[1] || (nm[1] == '.' && !nm[2])))
				continue;
			if (++s->st->entries > NSB_SCAN_MAX_ENTRIES)
				return 1;
			int r = visit(s, it, dfd, nm, d->d_type);
			if (r < 0)
				return r;
		}
	}
	/* Gone meanwhile: done; any other error (EIO) fails it, as an open's. */
	if (n < 0 && errno != ENOENT)
		return nsb_error_set(s->e, nsb_negerrno(), NSB_STAGE_PLAN,
				     "scan '%s/%s' for protected paths", s->p->ops[s->op].src,
				     it->rel);
	return 0;
}

/* Breadth first from the root of bind op. */
static int scan_bind(struct scan *s, bool protect)
{
	const struct nsb_mount_op *op = &s->p->ops[s->op];
	/* For reading: it is also the first directory listed (scan_dir). */
	_cleanup_close_ int root = open(op->src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r = 0;

	if (root < 0)
		return 0; /* init reports the bind's own failure; unreadable: as scan_dir */
	s->root_fd = root;
	s->q_head = s->q_len = 0;
	r = enqueue(s, "", 0, protect);
	while (r >= 0 && s->q_head < s->q_len) {
		struct qitem it = s->q[s->q_head++];
		r = scan_dir(s, &it);
		free(it.rel);
		if (r == 1) {
			s->st->truncated = true;
			r = 0;
			break;
		}
	}
	if (s->st->truncated && !s->st->truncated_in)
		s->st->truncated_in = op->src;
	while (s->q_head < s->q_len)
		free(s->q[s->q_head++].rel);
	return r;
}

/* --mask PATH: its real path, in the innermost bind that shows it. */
static int mask_path(struct scan *s, const char *arg)
{
	_cleanup_free_ char *real = realpath(arg, NULL);
	struct nsb_plan *p = s->p;
	size_t best = p->n_ops, best_len = 0;
	struct stat st;

	if (!real) {
		if (errno == ENOENT)
			return 0; /* nothing there to hide */
		return nsb_error_set(s->e, nsb_negerrno(), NSB_STAGE_PLAN, "--mask '%s'", arg);
	}
	for (size_t i = 0; i < p->n_ops; i++) {
		const struct nsb_mount_op *op = &p->ops[i];
		size_t len = strlen(op->src);
		if (op->user && op->kind == NSB_OP_BIND && op->src_is_dir &&
		    nsb_path_is_under(real, op->src) && len >= best_len) {
			best = i;
			best_len = len;
		}
	}
	if (best == p->n_ops || stat(real, &st) < 0)
		return 0; /* not visible inside */
	if (!real[best_len]) {
		nsb_error_setx(s->e, -EINVAL, NSB_STAGE_PLAN, "--mask '%s' is the root of a bind",
			       arg);
		return nsb_error_hint(s->e, "leave out the bind instead of masking all of it");
	}
	for (size_t i = 0; i < p->n_covers; i++)
		if (p->covers[i].op == best && strcmp(p->covers[i].rel, real + best_len + 1) == 0 &&
		    p->covers[i].kind == NSB_COVER_MASK)
			return 0;
	s->op = best;
	return add_cover(s, real + best_len + 1, NSB_COVER_MASK, S_ISDIR(st.st_mode));
}

/* Bind order, then parents first (a pin or protected folder before what it holds). */
static int cmp_cover(const void *a, const void *b)
{
	const struct nsb_cover *x = a, *y = b;
	size_t dx, dy;

	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	dx = nsb_path_depth(x->path);
	dy = nsb_path_depth(y->path);
	if (dx != dy)
		return dx < dy ? -1 : 1;
	return x->kind - y->kind;
}

/* The rules: the policy's lists with --mask's globs added to its masks. */
static int make_rules(const struct nsb_config *cfg, const struct nsb_gate_policy *pol,
		      struct nsb_protect_rules *r, const char ***ret_mask, struct nsb_error *e)
{
	const char **mask = malloc((pol->n_mask + cfg->n_mask + 1) * sizeof(*mask));
	size_t n = 0;

	if (!mask)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PLAN, "scan the binds");
	for (size_t i = 0; i < pol->n_mask; i++)
		mask[n++] = pol->mask[i];
	for (size_t i = 0; i < cfg->n_mask; i++)
		if (nsb_protect_is_glob(cfg->mask[i]))
			mask[n++] = cfg->mask[i];
	*r = (struct nsb_protect_rules){.protect = (const char *const *)pol->protect,
					.n_protect = pol->n_protect,
					.mask = mask,
					.n_mask = n,
					.mask_key = (const char *const *)pol->mask_key,
					.n_mask_key = pol->n_mask_key,
					.rw_git = cfg->rw_git};
	*ret_mask = mask;
	return 0;
}

/* The compiled forms of r's lists, in one allocation (freed by the caller). */
static struct nsb_glob *compile_rules(struct nsb_protect_rules *r)
{
	struct nsb_glob *g = malloc((r->n_protect + r->n_mask + r->n_mask_key + 1) * sizeof(*g));

	if (!g)
		return NULL;
	nsb_protect_compile(r->protect, r->n_protect, g);
	nsb_protect_compile(r->mask, r->n_mask, g + r->n_protect);
	nsb_protect_compile(r->mask_key, r->n_mask_key, g + r->n_protect + r->n_mask);
	r->cprotect = g;
	r->cmask = g + r->n_protect;
	r->cmask_key = g + r->n_protect + r->n_mask;
	return g;
}

static int scan_all(const struct nsb_config *cfg, struct scan *s)
{
	const struct nsb_protect_rules *r = s->rules;
	struct nsb_plan *p = s->p;
	int rc = 0;

	for (size_t i = 0; i < p->n_ops && rc >= 0; i++) {
		const struct nsb_mount_op *op = &p->ops[i];
		bool protect = !cfg->no_protect && !op->readonly && r->n_protect;

		if (!op->user || op->kind != NSB_OP_BIND || !op->src_is_dir ||
		    (!protect && !s->mask) || s->st->entries > NSB_SCAN_MAX_ENTRIES)
			continue;
		s->op = i;
		rc = scan_bind(s, protect);
	}
	for (size_t i = 0; i < cfg->n_mask && rc >= 0 && !cfg->no_mask; i++)
		if (!nsb_protect_is_glob(cfg->mask[i]))
			rc = mask_path(s, cfg->mask[i]);
	return rc;
}

int nsb_protect_scan(const struct nsb_config *cfg, const struct nsb_gate_policy *pol,
		     struct nsb_plan *p, struct nsb_cover_stats *st, struct nsb_error *e)
{
	struct nsb_protect_rules rules = {0};
	_cleanup_free_ const char **mask = NULL;
	_cleanup_free_ struct nsb_glob *globs = NULL;
	struct scan s = {.rules = &rules, .p = p, .st = st, .e = e};
	bool any = false;
	int r;

	r = nsb_cache_guard(p, guard_cache, &s, e);
	if (r < 0)
		return r;
	/* Nothing to look for: not one system call. */
	for (size_t i = 0; i < p->n_ops && !any; i++)
		any = p->ops[i].user && p->ops[i].kind == NSB_OP_BIND &&
		      ((!cfg->no_protect && !p->ops[i].readonly) || !cfg->no_mask);
	if (!any) {
		if (p->n_covers > 1)
			qsort(p->covers, p->n_covers, sizeof(*p->covers), cmp_cover);
		return 0;
	}
	r = make_rules(cfg, pol, &rules, &mask, e);
	if (r < 0)
		return r;
	s.mask = !cfg->no_mask && (rules.n_mask || rules.n_mask_key);
	globs = compile_rules(&rules);
	s.buf = malloc(DENTS_BUF);
	if (!s.buf || !globs) {
		free(s.buf);
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PLAN, "scan the binds");
	}
	s.dests = malloc(p->n_ops * sizeof(*s.dests));
	for (size_t i = 0; s.dests && i < p->n_ops; i++)
		if (p->ops[i].user)
			s.dests[s.n_dests++] = p->ops[i].dest;
	if (!s.dests) {
		free(s.buf);
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PLAN, "scan the binds");
	}
	qsort(s.dests, s.n_dests, sizeof(*s.dests), cmp_str);
	r = scan_all(cfg, &s);
	free(s.dests);
	free(s.buf);
	free(s.q);
	if (r >= 0 && p->n_covers > 1)
		qsort(p->covers, p->n_covers, sizeof(*p->covers), cmp_cover);
	return r < 0 ? r : 0;
}

void nsb_protect_record(const struct nsb_config *cfg, const struct nsb_plan *p,
			const struct nsb_cover_stats *st, struct nsb_enforced *en)
{
	en->has_covers = true;
	en->protect_on = !cfg->no_protect;
	en->mask_on = !cfg->no_mask;
	en->covers_truncated = st->truncated;
	en->covers_entries = st->entries;
	for (size_t i = 0; i < p->n_covers; i++) {
		const struct nsb_cover *c = &p->covers[i];
		if (c->kind == NSB_COVER_PROTECT) {
			if (en->n_protected < NSB_RECORD_MAX_COVER_PATHS)
				en->protected_paths[en->n_protected] = c->path;
			en->n_protected++;
		} else if (c->kind == NSB_COVER_MASK) {
			if (en->n_masked < NSB_RECORD_MAX_COVER_PATHS)
				en->masked_paths[en->n_masked] = c->path;
			en->n_masked++;
		}
	}
}
