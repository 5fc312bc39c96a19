// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroup v2 for one run.  See cgroup.h for the layout and the reasons.
 */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "macro.h"

#define STAGE	  "cgroup"
#define LEAF_NAME "sandbox"
/* mountinfo on a busy host is large; cgroup files are tiny. */
#define PROC_FILE_MAX (4u << 20)
#define CG_FILE_MAX   65536
/* How long destroy waits for killed tasks to leave the cgroup. */
#define DESTROY_WAIT_MS 5000

static const struct {
	unsigned bit;
	const char *name;
} controllers_tab[] = {
	{NSB_CG_MEMORY, "memory"},
	{NSB_CG_PIDS, "pids"},
	{NSB_CG_CPU, "cpu"},
};

/* ---- file helpers ---- */

static int read_text_at(int dfd, const char *name, size_t max, char **ret)
{
	_cleanup_close_ int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;

	if (fd < 0)
		return nsb_negerrno();
	for (;;) {
		if (cap - len < 4096) {
			if (cap >= max)
				return -EFBIG;
			cap = cap ? cap * 2 : 8192;
			char *nb = realloc(buf, cap + 1);
			if (!nb)
				return -ENOMEM;
			buf = nb;
		}
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return nsb_negerrno();
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (!buf && !(buf = malloc(1)))
		return -ENOMEM;
	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	return 0;
}

static int read_text(const char *path, size_t max, char **ret)
{
	return read_text_at(AT_FDCWD, path, max, ret);
}

static int write_text_at(int dfd, const char *name, const char *text)
{
	_cleanup_close_ int fd = openat(dfd, name, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	size_t len = strlen(text);
	if (fd < 0)
		return nsb_negerrno();
	ssize_t n = write(fd, text, len);
	if (n < 0)
		return nsb_negerrno();
	return (size_t)n == len ? 0 : -EIO;
}

static int path_join(char *out, size_t size, const char *dir, const char *name)
{
	int n = snprintf(out, size, "%s/%s", dir, name);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static const char *controller_name(unsigned bit)
{
	for (size_t i = 0; i < ARRAY_SIZE(controllers_tab); i++)
		if (controllers_tab[i].bit == bit)
			return controllers_tab[i].name;
	return "?";
}

/* ---- choosing the parent ---- */

struct cg_where {
	char mnt[PATH_MAX];
	char own[PATH_MAX]; /* absolute path of the caller's own cgroup */
};

static int locate(const struct nsb_cgroup_opts *o, struct cg_where *w, struct nsb_error *e)
{
	const char *mi = o && o->mountinfo_path ? o->mountinfo_path : "/proc/self/mountinfo";
	const char *pc = o && o->proc_cgroup_path ? o->proc_cgroup_path : "/proc/self/cgroup";
	_cleanup_free_ char *text = NULL;
	char root[PATH_MAX], cgpath[PATH_MAX];
	int r;

	r = read_text(mi, PROC_FILE_MAX, &text);
	if (r < 0)
		return nsb_error_set(e, r, STAGE, "read '%s'", mi);
	r = nsb_cgroup_parse_mountinfo(text, w->mnt, sizeof(w->mnt), root, sizeof(root));
	if (r == -ENOENT) {
		nsb_error_setx(e, -ENOENT, STAGE, "no cgroup2 filesystem is mounted (read '%s')",
			       mi);
		return nsb_error_hint(e, "mount it with 'mount -t cgroup2 none /sys/fs/cgroup', "
					 "or boot with systemd.unified_cgroup_hierarchy=1");
	}
	if (r < 0)
		return nsb_error_set(e, r, STAGE, "parse '%s'", mi);
	free(TAKE_PTR(text));

	r = read_text(pc, PROC_FILE_MAX, &text);
	if (r < 0)
		return nsb_error_set(e, r, STAGE, "read '%s'", pc);
	r = nsb_cgroup_parse_proc_cgroup(text, cgpath, sizeof(cgpath));
	if (r < 0)
		return nsb_error_setx(e, r, STAGE, "no cgroup v2 entry (\"0::\") in '%s'", pc);
	r = nsb_cgroup_join(w->mnt, root, cgpath, w->own, sizeof(w->own));
	if (r == -EXDEV)
		return nsb_error_setx(
			e, -EXDEV, STAGE,
			"own cgroup '%s' is outside the cgroup2 mount '%s' (root '%s')", cgpath,
			w->mnt, root);
	if (r < 0)
		return nsb_error_set(e, r, STAGE, "own cgroup '%s'", cgpath);
	return 0;
}

/* Why is controller NAME missing from DIR/cgroup.controllers?  A hybrid host
 * binds it to a v1 hierarchy (/proc/cgroups column 2 is non-zero). */
static int explain_missing(const struct nsb_cgroup_opts *o, const char *dir, const char *name,
			   struct nsb_error *e)
{
	const char *pcs = o && o->proc_cgroups_path ? o->proc_cgroups_path : "/proc/cgroups";
	_cleanup_free_ char *text = NULL;
	unsigned hier = 0;

	nsb_error_setx(e, -ENODEV, STAGE,
		       "controller '%s' is not available in '%s/cgroup.controllers'", name, dir);
	/* Lines are "name<TAB>hierarchy<TAB>num_cgroups<TAB>enabled". */
	if (read_text(pcs, PROC_FILE_MAX, &text) == 0) {
		size_t nl = strlen(name);
		for (const char *line = text; line && *line;) {
			if (!strncmp(line, name, nl) && line[nl] == '\t') {
				hier = (unsigned)strtoul(line + nl + 1, NULL, 10);
				break;
			}
			line = strchr(line, '\n');
			line = line ? line + 1 : NULL;
		}
	}
	if (hier > 0)
		return nsb_error_hint(
			e,
			"'%s' is bound to a cgroup v1 hierarchy (hybrid setup); only a "
			"unified cgroup v2 hierarchy can give it to nsbox",
			name);
	return nsb_error_hint(e,
			      "the parent cgroup does not delegate '%s'; run under a delegated "
			      "cgroup (systemd-run --user --scope -p Delegate=yes ...) or pass "
			      "--cgroup-parent",
			      name);
}

/*
 * Can DIR be the parent of a run that needs the controllers in NAMES?  Fills
 * *ret_enable with the names still to enable in DIR's cgroup.subtree_control.
 * Reasons a candidate fails: no write access, a controller not offered by
 * DIR's parent, or processes in DIR (the kernel's no-internal-processes rule
 * forbids enabling domain controllers there; the root cgroup is exempt).
 */
static int check_parent(const struct nsb_cgroup_opts *o, const char *dir, const char *const names[],
			bool *ret_has_procs, struct nsb_error *e)
{
	_cleanup_free_ char *avail = NULL, *enabled = NULL, *procs = NULL;
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bool need_enable = false, is_root, has_procs;
	int r;

	*ret_has_procs = false;
	if (dfd < 0)
		return nsb_error_set(e, -errno, STAGE, "open cgroup '%s'", dir);
	r = read_text_at(dfd, "cgroup.controllers", CG_FILE_MAX, &avail);
	if (r < 0)
		return nsb_error_set(e, r, STAGE, "read '%s/cgroup.controllers'", dir);
	for (size_t i = 0; names && names[i]; i++)
		if (!nsb_cgroup_list_has(avail, names[i]))
			return explain_missing(o, dir, names[i], e);

	r = read_text_at(dfd, "cgroup.subtree_control", CG_FILE_MAX, &enabled);
	if (r < 0)
		return nsb_error_set(e, r, STAGE, "read '%s/cgroup.subtree_control'", dir);
	for (size_t i = 0; names && names[i]; i++)
		if (!nsb_cgroup_list_has(enabled, names[i]))
			need_enable = true;

	/* The root cgroup has no cgroup.type; only it may hold processes and
	 * have controllers enabled at the same time. */
	is_root = faccessat(dfd, "cgroup.type", F_OK, 0) < 0 && errno == ENOENT;
	r = read_text_at(dfd, "cgroup.procs", PROC_FILE_MAX, &procs);
	if (r < 0)
		return nsb_error_set(e, r, STAGE, "read '%s/cgroup.procs'", dir);
	has_procs = procs[0] != '\0';
	*ret_has_procs = has_procs && !is_root;

	if (faccessat(dfd, ".", W_OK, AT_EACCESS) < 0) {
		nsb_error_set(e, -errno, STAGE, "cannot create cgroups in '%s'", dir);
		return nsb_error_hint(e, "run under a delegated cgroup (systemd-run --user --scope "
					 "-p Delegate=yes ...) or pass --cgroup-parent DIR");
	}
	/* A parent with processes of its own is refused even when nothing is
	 * left to enable: the kernel would never let it enable a controller
	 * later (no internal processes), so the run would get no accounting,
	 * and its children could not be controller-enabled either.  Only the
	 * root cgroup is exempt from the rule. */
	if (has_procs && !is_root) {
		nsb_error_setx(e, -EBUSY, STAGE,
			       "cannot create the run's cgroup under '%s': it has processes, and "
			       "cgroup v2 lets no cgroup hold both processes and controllers",
			       dir);
		return nsb_error_hint(e, "pass --cgroup-parent naming an empty delegated cgroup");
	}
	if (need_enable && faccessat(dfd, "cgroup.subtree_control", W_OK, AT_EACCESS) < 0)
		return nsb_error_set(e, -errno, STAGE, "cannot enable controllers in '%s'", dir);
	/* CLONE_INTO_CGROUP moves a task from our cgroup into the new one: the
	 * kernel wants write access to cgroup.procs of their common ancestor,
	 * which is DIR itself for the parents we derive. */
	if (faccessat(dfd, "cgroup.procs", W_OK, AT_EACCESS) < 0)
		return nsb_error_set(e, -errno, STAGE, "cannot move processes within '%s'", dir);
	return 0;
}

static void dirname_inplace(char *path)
{
	char *slash = strrchr(path, '/');
	if (slash && slash != path)
		*slash = '\0';
}

/*
 * Choose the parent: --cgroup-parent, else the own cgroup, else (when the own
 * cgroup holds processes, as every systemd scope does) its parent, so the run
 * becomes a sibling leaf.
 */
static int choose_parent(const struct nsb_cgroup_opts *o, const char *const names[],
			 char *ret_parent, size_t size, struct nsb_error *e)
{
	struct cg_where w;
	bool busy;
	int r;

	r = locate(o, &w, e);
	if (r < 0)
		return r;
	if (o && o->parent) {
		size_t ml = strlen(w.mnt);
		if (o->parent[0] != '/' || strncmp(o->parent, w.mnt, ml) ||
		    (o->parent[ml] != '/' && o->parent[ml] != '\0')) {
			nsb_error_setx(e, -EINVAL, STAGE,
				       "--cgroup-parent '%s' is not inside the cgroup2 mount '%s'",
				       o->parent, w.mnt);
			return nsb_error_hint(e, "give an absolute path below '%s'", w.mnt);
		}
		r = check_parent(o, o->parent, names, &busy, e);
		if (r < 0)
			return r;
		if (strlen(o->parent) >= size)
			return nsb_error_setx(e, -ENAMETOOLONG, STAGE, "--cgroup-parent too long");
		strcpy(ret_parent, o->parent);
		return 0;
	}

	r = check_parent(o, w.own, names, &busy, e);
	if (r == 0 || !strcmp(w.own, w.mnt)) {
		if (r == 0)
			snprintf(ret_parent, size, "%s", w.own);
		return r;
	}
	/* Own cgroup is not usable, typically a leaf with processes (every
	 * systemd scope is one): try beside it. */
	char up[PATH_MAX];
	snprintf(up, sizeof(up), "%s", w.own);
	dirname_inplace(up);
	if (strncmp(up, w.mnt, strlen(w.mnt)))
		return r;
	struct nsb_error e2 = {0};
	r = check_parent(o, up, names, &busy, &e2);
	if (r < 0) {
		/* Say both: the own cgroup is busy, and why its parent fails. */
		if (e) {
			char msg[NSB_ERR_MESSAGE_MAX];
			snprintf(msg, sizeof(msg), "%s", e->message);
			nsb_error_setx(e, -e2.err, STAGE, "%.700s; and %.700s", msg, e2.message);
			if (e2.hint[0])
				nsb_error_hint(e, "%s", e2.hint);
		}
		return r;
	}
	snprintf(ret_parent, size, "%s", up);
	return 0;
}

int nsb_cgroup_usable(const struct nsb_cgroup_opts *o, const char *const controllers[],
		      struct nsb_error *e)
{
	char parent[PATH_MAX];
	return choose_parent(o, controllers, parent, sizeof(parent), e);
}

/* ---- lifetime ---- */

static int read_populated(int dfd, bool *ret)
{
	_cleanup_free_ char *text = NULL;
	uint64_t v;
	int r = read_text_at(dfd, "cgroup.events", CG_FILE_MAX, &text);
	if (r < 0)
		return r;
	r = nsb_cgroup_parse_keyed(text, "populated", &v);
	if (r < 0)
		return r;
	*ret = v != 0;
	return 0;
}

/* Kill the cgroup's processes: cgroup.kill (Linux 5.14+) is atomic against
 * forks; before it, signal each pid until the cgroup is empty. */
static int kill_at(int dfd)
{
	int r = write_text_at(dfd, "cgroup.kill", "1");
	if (r != -ENOENT)
		return r;
	for (int round = 0; round < 100; round++) {
		_cleanup_free_ char *procs = NULL;
		r = read_text_at(dfd, "cgroup.procs", PROC_FILE_MAX, &procs);
		if (r < 0)
			return r;
		/* read_text_at fills procs whenever it returns >= 0 */
		if (!procs[0]) // NOLINT(clang-analyzer-core.NullDereference)
			return 0;
		for (char *p = procs; *p;) {
			long pid = strtol(p, &p, 10);
			if (pid > 0)
				kill((pid_t)pid, SIGKILL);
			p += strspn(p, "\n");
		}
	}
	return -EBUSY;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * Remove DIR/NAME and every cgroup below it (the sandbox may have made
 * children).  rmdir fails with EBUSY while killed tasks are still exiting;
 * retry until DESTROY_WAIT_MS.
 */
static int remove_tree(int dfd, const char *name, int depth)
{
	_cleanup_close_ int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return errno == ENOENT ? 0 : nsb_negerrno();
	if (depth > 32)
		return -ELOOP;
	int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (dup_fd < 0)
		return nsb_negerrno();
	DIR *d = fdopendir(dup_fd);
	if (!d) {
		close(dup_fd);
		return -ENOMEM;
	}
	struct dirent *de;
	r = 0;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		int q = remove_tree(fd, de->d_name, depth + 1);
		if (q < 0 && r == 0)
			r = q;
	}
	closedir(d);
	if (r < 0)
		return r;

	for (long waited = 0;; waited++) {
		if (unlinkat(dfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY || waited >= DESTROY_WAIT_MS)
			return nsb_negerrno();
		bool populated = true;
		if (read_populated(fd, &populated) == 0 && populated)
			kill_at(fd);
		sleep_ms(1);
	}
}

static int write_limits(int dfd, const char *path, const struct nsb_cgroup_limits *l,
			unsigned controllers, struct nsb_error *e)
{
	char buf[64];
	int r;

	if (l->memory_max) {
		snprintf(buf, sizeof(buf), "%" PRIu64, l->memory_max);
		r = write_text_at(dfd, "memory.max", buf);
		if (r < 0)
			return nsb_error_set(e, r, STAGE, "write '%s' to '%s/memory.max'", buf,
					     path);
		if (l->swap_max == NSB_CGROUP_MAX)
			snprintf(buf, sizeof(buf), "max");
		else
			snprintf(buf, sizeof(buf), "%" PRIu64, l->swap_max);
		/* Without swap accounting (swapaccount=0) the file is absent:
		 * there is then no swap to charge the payload's memory to. */
		r = write_text_at(dfd, "memory.swap.max", buf);
		if (r < 0 && r != -ENOENT)
			return nsb_error_set(e, r, STAGE, "write '%s' to '%s/memory.swap.max'", buf,
					     path);
	}
	/* One OOM kill takes the whole sandbox: a half-killed process tree
	 * would look like a crash of the payload rather than an OOM. */
	if (controllers & NSB_CG_MEMORY) {
		r = write_text_at(dfd, "memory.oom.group", "1");
		if (r < 0)
			return nsb_error_set(e, r, STAGE, "write '1' to '%s/memory.oom.group'",
					     path);
	}
	if (l->pids_max) {
		snprintf(buf, sizeof(buf), "%" PRIu64, l->pids_max);
		r = write_text_at(dfd, "pids.max", buf);
		if (r < 0)
			return nsb_error_set(e, r, STAGE, "write '%s' to '%s/pids.max'", buf, path);
	}
	if (l->cpu_quota_us) {
		r = nsb_cgroup_format_cpu_max(l->cpu_quota_us, l->cpu_period_us, buf, sizeof(buf));
		if (r >= 0)
			r = write_text_at(dfd, "cpu.max", buf);
		if (r < 0)
			return nsb_error_set(e, r, STAGE, "write '%s' to '%s/cpu.max'", buf, path);
	}
	return 0;
}

static unsigned required_controllers(const struct nsb_cgroup_limits *l)
{
	unsigned m = 0;
	if (l->memory_max)
		m |= NSB_CG_MEMORY;
	if (l->pids_max)
		m |= NSB_CG_PIDS;
	if (l->cpu_quota_us)
		m |= NSB_CG_CPU;
	return m;
}

/* Turn on what REQUIRED needs, and memory and pids for accounting when the
 * parent offers them.  Returns the enabled set. */
static int enable_controllers(int pfd, const char *parent, unsigned required, unsigned *ret,
			      struct nsb_error *e)
{
	_cleanup_free_ char *avail = NULL, *enabled = NULL;
	unsigned want = required | NSB_CG_MEMORY | NSB_CG_PIDS, have = 0;
	int r;

	r = read_text_at(pfd, "cgroup.controllers", CG_FILE_MAX, &avail);
	if (r >= 0)
		r = read_text_at(pfd, "cgroup.subtree_control", CG_FILE_MAX, &enabled);
	if (r < 0)
		return nsb_error_set(e, r, STAGE, "read controllers of '%s'", parent);
	for (size_t i = 0; i < ARRAY_SIZE(controllers_tab); i++) {
		unsigned bit = controllers_tab[i].bit;
		const char *name = controllers_tab[i].name;
		char op[32];

		if (!(want & bit))
			continue;
		if (nsb_cgroup_list_has(enabled, name)) {
			have |= bit;
			continue;
		}
		if (!nsb_cgroup_list_has(avail, name))
			r = -ENODEV;
		else {
			snprintf(op, sizeof(op), "+%s", name);
			r = write_text_at(pfd, "cgroup.subtree_control", op);
		}
		if (r == 0)
			have |= bit;
		else if (required & bit)
			return nsb_error_set(e, r, STAGE,
					     "enable '%s' in '%s/cgroup.subtree_control'", name,
					     parent);
	}
	*ret = have;
	return 0;
}

int nsb_cgroup_create(const struct nsb_cgroup_opts *o, const struct nsb_cgroup_limits *l,
		      struct nsb_cgroup *ret, struct nsb_error *e)
{
	static const struct nsb_cgroup_limits none = {0};
	const char *names[ARRAY_SIZE(controllers_tab) + 1] = {0};
	char parent[PATH_MAX], name[64];
	_cleanup_close_ int pfd = -1, outer = -1, leaf = -1;
	unsigned required, have = 0;
	size_t nn = 0;
	int r;

	if (!l)
		l = &none;
	required = required_controllers(l);
	for (size_t i = 0; i < ARRAY_SIZE(controllers_tab); i++)
		if (required & controllers_tab[i].bit)
			names[nn++] = controllers_tab[i].name;

	r = choose_parent(o, names, parent, sizeof(parent), e);
	if (r < 0)
		return r;
	if (o && o->clean_stale)
		(void)nsb_cgroup_clean_stale(parent, NULL);

	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return nsb_error_set(e, -errno, STAGE, "open cgroup '%s'", parent);
	r = enable_controllers(pfd, parent, required, &have, e);
	if (r < 0)
		return r;

	/* The pid names the owner for stale cleanup; the random part keeps two
	 * runs of one pid (or a reused pid) from colliding. */
	for (int attempt = 0;; attempt++) {
		uint64_t rnd;
		if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
			return nsb_error_set(e, -errno, STAGE, "getrandom");
		snprintf(name, sizeof(name), NSB_CGROUP_NAME_PREFIX "%d-%016" PRIx64, (int)getpid(),
			 rnd);
		if (mkdirat(pfd, name, 0755) == 0)
			break;
		if (errno != EEXIST || attempt >= 3)
			return nsb_error_set(e, -errno, STAGE, "create cgroup '%s/%s'", parent,
					     name);
	}

	struct nsb_cgroup cg = NSB_CGROUP_INIT;
	cg.controllers = have;
	if (snprintf(cg.path, sizeof(cg.path), "%s/%s", parent, name) >= (int)sizeof(cg.path) ||
	    path_join(cg.leaf, sizeof(cg.leaf), cg.path, LEAF_NAME) < 0) {
		r = nsb_error_setx(e, -ENAMETOOLONG, STAGE, "cgroup path under '%s' too long",
				   parent);
		goto undo;
	}
	outer = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (outer < 0) {
		r = nsb_error_set(e, -errno, STAGE, "open cgroup '%s'", cg.path);
		goto undo;
	}
	/* Limits first: the payload must never run a single instruction in a
	 * cgroup without them. */
	r = write_limits(outer, cg.path, l, have, e);
	if (r < 0)
		goto undo;
	if (mkdirat(outer, LEAF_NAME, 0755) < 0) {
		r = nsb_error_set(e, -errno, STAGE, "create cgroup '%s'", cg.leaf);
		goto undo;
	}
	leaf = openat(outer, LEAF_NAME, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (leaf < 0) {
		r = nsb_error_set(e, -errno, STAGE, "open cgroup '%s'", cg.leaf);
		goto undo;
	}
	cg.fd = TAKE_FD(leaf);
	cg.outer_fd = TAKE_FD(outer);
	*ret = cg;
	return 0;
undo:
	(void)remove_tree(pfd, name, 0);
	return r;
}

int nsb_cgroup_kill(const struct nsb_cgroup *cg, struct nsb_error *e)
{
	int r;
	if (!cg || cg->outer_fd < 0)
		return nsb_error_setx(e, -EBADF, STAGE, "kill: no cgroup");
	r = kill_at(cg->outer_fd);
	if (r < 0)
		return nsb_error_set(e, r, STAGE, "kill processes of cgroup '%s'", cg->path);
	return 0;
}

static uint64_t value_at(int dfd, const char *file)
{
	_cleanup_free_ char *text = NULL;
	uint64_t v;
	if (read_text_at(dfd, file, CG_FILE_MAX, &text) < 0 || nsb_cgroup_parse_value(text, &v) < 0)
		return NSB_CGROUP_MAX;
	return v;
}

static void keyed_at(int dfd, const char *file, const char *const keys[], uint64_t *const vals[])
{
	_cleanup_free_ char *text = NULL;
	bool ok = read_text_at(dfd, file, CG_FILE_MAX, &text) == 0;
	for (size_t i = 0; keys[i]; i++)
		if (!ok || nsb_cgroup_parse_keyed(text, keys[i], vals[i]) < 0)
			*vals[i] = NSB_CGROUP_MAX;
}

int nsb_cgroup_read_stats(const struct nsb_cgroup *cg, struct nsb_cgroup_stats *ret,
			  struct nsb_error *e)
{
	struct nsb_cgroup_stats s;

	if (!cg || cg->outer_fd < 0)
		return nsb_error_setx(e, -EBADF, STAGE, "read stats: no cgroup");
	/* cpu.stat exists in every non-root cgroup, with or without the cpu
	 * controller: its absence means the cgroup is gone. */
	if (faccessat(cg->outer_fd, "cpu.stat", F_OK, 0) < 0)
		return nsb_error_set(e, -errno, STAGE, "read '%s/cpu.stat'", cg->path);

	s.memory_peak = value_at(cg->outer_fd, "memory.peak");
	s.pids_peak = value_at(cg->outer_fd, "pids.peak");
	keyed_at(cg->outer_fd, "memory.events",
		 (const char *const[]){"max", "oom", "oom_kill", NULL},
		 (uint64_t *const[]){&s.memory_max_events, &s.oom_events, &s.oom_kill});
	keyed_at(cg->outer_fd, "pids.events", (const char *const[]){"max", NULL},
		 (uint64_t *const[]){&s.pids_max_events});
	keyed_at(cg->outer_fd, "cpu.stat",
		 (const char *const[]){"usage_usec", "user_usec", "system_usec", "nr_throttled",
				       "throttled_usec", NULL},
		 (uint64_t *const[]){&s.cpu_usage_usec, &s.cpu_user_usec, &s.cpu_system_usec,
				     &s.cpu_nr_throttled, &s.cpu_throttled_usec});
	*ret = s;
	return 0;
}

int nsb_cgroup_destroy(struct nsb_cgroup *cg, struct nsb_error *e)
{
	char parent[PATH_MAX];
	int r = 0;

	if (!cg || cg->outer_fd < 0) {
		if (cg)
			*cg = (struct nsb_cgroup)NSB_CGROUP_INIT;
		return 0;
	}
	bool populated = false;
	if (read_populated(cg->outer_fd, &populated) == 0 && populated)
		(void)kill_at(cg->outer_fd);

	snprintf(parent, sizeof(parent), "%s", cg->path);
	dirname_inplace(parent);
	const char *name = strrchr(cg->path, '/');
	_cleanup_close_ int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		r = nsb_error_set(e, -errno, STAGE, "open cgroup '%s'", parent);
	else if (name && (r = remove_tree(pfd, name + 1, 0)) < 0)
		nsb_error_set(e, r, STAGE, "remove cgroup '%s'", cg->path);
	if (cg->fd >= 0)
		close(cg->fd);
	close(cg->outer_fd);
	*cg = (struct nsb_cgroup)NSB_CGROUP_INIT;
	return r;
}

int nsb_cgroup_clean_stale(const char *parent_dir, struct nsb_error *e)
{
	_cleanup_close_ int pfd = open(parent_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int removed = 0, first_err = 0;

	if (pfd < 0)
		return nsb_error_set(e, -errno, STAGE, "open cgroup '%s'", parent_dir);
	int dfd = fcntl(pfd, F_DUPFD_CLOEXEC, 3);
	if (dfd < 0)
		return nsb_error_set(e, -errno, STAGE, "open cgroup '%s'", parent_dir);
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return nsb_error_set(e, -ENOMEM, STAGE, "read cgroup '%s'", parent_dir);
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		pid_t pid;
		if (de->d_type != DT_DIR || nsb_cgroup_parse_name(de->d_name, &pid) < 0)
			continue;
		/* Only a pid that provably does not exist marks a dead run; a
		 * live or unknown (EPERM) pid keeps its cgroup. */
		if (pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		_cleanup_close_ int cfd =
			openat(pfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (cfd >= 0)
			(void)kill_at(cfd);
		int r = remove_tree(pfd, de->d_name, 0);
		if (r == 0)
			removed++;
		else if (!first_err) {
			first_err = r;
			nsb_error_set(e, r, STAGE, "remove stale cgroup '%s/%s'", parent_dir,
				      de->d_name);
		}
	}
	closedir(d);
	return removed > 0 || !first_err ? removed : first_err;
}

const char *nsb_cgroup_controller_name(unsigned bit)
{
	return controller_name(bit);
}
