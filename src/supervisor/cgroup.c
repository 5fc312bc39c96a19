// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroup v2, the run's cgroup over its lifetime (supervisor): create it where
 * nsb_cgroup_place() decided, kill, read the accounting, destroy, and clean up
 * what a crashed supervisor left.  See cgroup.h for the layout and the reasons.
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

#include "supervisor/cgroup.h"
#include "supervisor/cgroup_file.h"
#include "base/fmt.h"
#include "base/macro.h"
#include "base/util.h"

#define LEAF_NAME "sandbox"
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

static int path_join(char *out, size_t size, const char *dir, const char *name)
{
	int n = nsb_format(out, size, "%s/%s", dir, name);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* ---- lifetime ---- */

static int read_populated(int dfd, bool *ret)
{
	_cleanup_free_ char *text = NULL;
	uint64_t v;
	int r = nsb_cgroup_read_at(dfd, "cgroup.events", NSB_CGROUP_FILE_MAX, &text);
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
	int r = nsb_cgroup_write_at(dfd, "cgroup.kill", "1");
	if (r != -ENOENT)
		return r;
	for (int round = 0; round < 100; round++) {
		_cleanup_free_ char *procs = NULL;
		r = nsb_cgroup_read_at(dfd, "cgroup.procs", NSB_CGROUP_PROC_FILE_MAX, &procs);
		if (r < 0)
			return r;
		/* read_text_at fills procs whenever it returns >= 0 */
		if (!procs[0]) // NOLINT(clang-analyzer-core.NullDereference)
			return 0;
		for (char *p = procs; *p;) {
			long pid = nsb_strtol10(p, &p);
			if (pid > 0)
				kill((pid_t)pid, SIGKILL);
			p += nsb_strspn(p, "\n");
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

#define NSB_DIRENT_BUF 8192 /* getdents64 buffer of each_subdir */

/*
 * Call fn for each subdirectory of the directory open at fd, read from the
 * start with getdents64 on fd itself: no duplicate and no DIR stream (their
 * fstat and fcntl calls cost every run five syscalls).  fn may remove the
 * entry it is given.  Returns 0, -errno of the read, or the first error fn
 * returned (the walk goes on past it).
 */
static int each_subdir(int fd, int (*fn)(int fd, const char *name, void *ud), void *ud)
{
	/* On the heap: a frame's every page is touched and kept. */
	_cleanup_free_ char *buf = malloc(NSB_DIRENT_BUF);
	int first = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = getdents64(fd, buf, NSB_DIRENT_BUF);
		if (n < 0)
			return first ? first : nsb_negerrno();
		if (n == 0)
			return first;
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *de = (const struct dirent64 *)(void *)(buf + off);
			off += de->d_reclen;
			if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") ||
			    !strcmp(de->d_name, ".."))
				continue;
			int r = fn(fd, de->d_name, ud);
			if (r < 0 && !first)
				first = r;
		}
	}
}

static int remove_tree(int dfd, const char *name, int depth);

static int remove_child(int fd, const char *name, void *ud)
{
	return remove_tree(fd, name, *(const int *)ud + 1);
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
	r = each_subdir(fd, remove_child, &depth);
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
		nsb_format(buf, sizeof(buf), "%" PRIu64, l->memory_max);
		r = nsb_cgroup_write_at(dfd, "memory.max", buf);
		if (r < 0)
			return nsb_error_set(e, r, NSB_STAGE_CGROUP,
					     "write '%s' to '%s/memory.max'", buf, path);
		if (l->swap_max == NSB_CGROUP_MAX)
			nsb_format(buf, sizeof(buf), "max");
		else
			nsb_format(buf, sizeof(buf), "%" PRIu64, l->swap_max);
		/* Without swap accounting (swapaccount=0) the file is absent:
		 * there is then no swap to charge the payload's memory to. */
		r = nsb_cgroup_write_at(dfd, "memory.swap.max", buf);
		if (r < 0 && r != -ENOENT)
			return nsb_error_set(e, r, NSB_STAGE_CGROUP,
					     "write '%s' to '%s/memory.swap.max'", buf, path);
	}
	/* One OOM kill takes the whole sandbox: a half-killed process tree
	 * would look like a crash of the payload rather than an OOM. */
	if (controllers & NSB_CG_MEMORY) {
		r = nsb_cgroup_write_at(dfd, "memory.oom.group", "1");
		if (r < 0)
			return nsb_error_set(e, r, NSB_STAGE_CGROUP,
					     "write '1' to '%s/memory.oom.group'", path);
	}
	if (l->pids_max) {
		nsb_format(buf, sizeof(buf), "%" PRIu64, l->pids_max);
		r = nsb_cgroup_write_at(dfd, "pids.max", buf);
		if (r < 0)
			return nsb_error_set(e, r, NSB_STAGE_CGROUP, "write '%s' to '%s/pids.max'",
					     buf, path);
	}
	if (l->cpu_quota_us) {
		r = nsb_cgroup_format_cpu_max(l->cpu_quota_us, l->cpu_period_us, buf, sizeof(buf));
		if (r >= 0)
			r = nsb_cgroup_write_at(dfd, "cpu.max", buf);
		if (r < 0)
			return nsb_error_set(e, r, NSB_STAGE_CGROUP, "write '%s' to '%s/cpu.max'",
					     buf, path);
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

	r = nsb_cgroup_read_at(pfd, "cgroup.controllers", NSB_CGROUP_FILE_MAX, &avail);
	if (r >= 0)
		r = nsb_cgroup_read_at(pfd, "cgroup.subtree_control", NSB_CGROUP_FILE_MAX,
				       &enabled);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_CGROUP, "read controllers of '%s'", parent);
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
			nsb_format(op, sizeof(op), "+%s", name);
			r = nsb_cgroup_write_at(pfd, "cgroup.subtree_control", op);
		}
		if (r == 0)
			have |= bit;
		else if (required & bit)
			return nsb_error_set(e, r, NSB_STAGE_CGROUP,
					     "enable '%s' in '%s/cgroup.subtree_control'", name,
					     parent);
	}
	*ret = have;
	return 0;
}

/* mkdir PARENT/nsbox-<pid>-<random>; its name in ret_name. */
static int make_run_dir(int pfd, const char *parent, char *ret_name, size_t size,
			struct nsb_error *e)
{
	/* The pid names the owner for stale cleanup; the random part keeps two
	 * runs of one pid (or a reused pid) from colliding. */
	for (int attempt = 0;; attempt++) {
		uint64_t rnd;
		if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
			return nsb_error_set(e, -errno, NSB_STAGE_CGROUP, "getrandom");
		nsb_format(ret_name, size, NSB_CGROUP_NAME_PREFIX "%d-%016" PRIx64, (int)getpid(),
			   rnd);
		if (mkdirat(pfd, ret_name, 0755) == 0)
			return 0;
		if (errno != EEXIST || attempt >= 3)
			return nsb_error_set(e, -errno, NSB_STAGE_CGROUP, "create cgroup '%s/%s'",
					     parent, ret_name);
	}
}

int nsb_cgroup_create(const struct nsb_cgroup_place *where, const struct nsb_cgroup_limits *l,
		      struct nsb_cgroup *ret, struct nsb_error *e)
{
	static const struct nsb_cgroup_limits none = {0};
	const char *parent = where->parent;
	char name[64];
	_cleanup_close_ int pfd = -1, outer = -1, leaf = -1;
	unsigned required, have = 0;
	int r;

	/* Filled in place: no 8 KiB copy on the stack. */
	nsb_cgroup_reset(ret);
	if (!l)
		l = &none;
	required = required_controllers(l);
	if (where->clean_stale)
		(void)nsb_cgroup_clean_stale(parent, NULL);

	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return nsb_error_set(e, -errno, NSB_STAGE_CGROUP, "open cgroup '%s'", parent);
	r = enable_controllers(pfd, parent, required, &have, e);
	if (r < 0)
		return r;

	r = make_run_dir(pfd, parent, name, sizeof(name), e);
	if (r < 0)
		return r;

	struct nsb_cgroup *cg = ret;
	cg->controllers = have;
	if (nsb_format(cg->path, sizeof(cg->path), "%s/%s", parent, name) >=
		    (int)sizeof(cg->path) ||
	    path_join(cg->leaf, sizeof(cg->leaf), cg->path, LEAF_NAME) < 0) {
		r = nsb_error_setx(e, -ENAMETOOLONG, NSB_STAGE_CGROUP,
				   "cgroup path under '%s' too long", parent);
		goto undo;
	}
	outer = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (outer < 0) {
		r = nsb_error_set(e, -errno, NSB_STAGE_CGROUP, "open cgroup '%s'", cg->path);
		goto undo;
	}
	/* Limits first: the payload must never run a single instruction in a
	 * cgroup without them. */
	r = write_limits(outer, cg->path, l, have, e);
	if (r < 0)
		goto undo;
	if (mkdirat(outer, LEAF_NAME, 0755) < 0) {
		r = nsb_error_set(e, -errno, NSB_STAGE_CGROUP, "create cgroup '%s'", cg->leaf);
		goto undo;
	}
	leaf = openat(outer, LEAF_NAME, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (leaf < 0) {
		r = nsb_error_set(e, -errno, NSB_STAGE_CGROUP, "open cgroup '%s'", cg->leaf);
		goto undo;
	}
	cg->fd = TAKE_FD(leaf);
	cg->outer_fd = TAKE_FD(outer);
	return 0;
undo:
	(void)remove_tree(pfd, name, 0);
	nsb_cgroup_reset(ret);
	return r;
}

int nsb_cgroup_kill(const struct nsb_cgroup *cg, struct nsb_error *e)
{
	int r;
	if (!cg || cg->outer_fd < 0)
		return nsb_error_setx(e, -EBADF, NSB_STAGE_CGROUP, "kill: no cgroup");
	r = kill_at(cg->outer_fd);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_CGROUP, "kill processes of cgroup '%s'",
				     cg->path);
	return 0;
}

static uint64_t value_at(int dfd, const char *file)
{
	_cleanup_free_ char *text = NULL;
	uint64_t v;
	if (nsb_cgroup_read_at(dfd, file, NSB_CGROUP_FILE_MAX, &text) < 0 ||
	    nsb_cgroup_parse_value(text, &v) < 0)
		return NSB_CGROUP_MAX;
	return v;
}

/* Each key's value, NSB_CGROUP_MAX where unknown; returns the read's result. */
static int keyed_at(int dfd, const char *file, const char *const keys[], uint64_t *const vals[])
{
	_cleanup_free_ char *text = NULL;
	int r = nsb_cgroup_read_at(dfd, file, NSB_CGROUP_FILE_MAX, &text);
	for (size_t i = 0; keys[i]; i++)
		if (r < 0 || nsb_cgroup_parse_keyed(text, keys[i], vals[i]) < 0)
			*vals[i] = NSB_CGROUP_MAX;
	return r;
}

int nsb_cgroup_read_stats(const struct nsb_cgroup *cg, struct nsb_cgroup_stats *ret,
			  struct nsb_error *e)
{
	struct nsb_cgroup_stats s;

	if (!cg || cg->outer_fd < 0)
		return nsb_error_setx(e, -EBADF, NSB_STAGE_CGROUP, "read stats: no cgroup");
	/* cpu.stat exists in every non-root cgroup, with or without the cpu
	 * controller: its absence means the cgroup is gone. */
	int r = keyed_at(cg->outer_fd, "cpu.stat",
			 (const char *const[]){"usage_usec", "user_usec", "system_usec",
					       "nr_throttled", "throttled_usec", NULL},
			 (uint64_t *const[]){&s.cpu_usage_usec, &s.cpu_user_usec,
					     &s.cpu_system_usec, &s.cpu_nr_throttled,
					     &s.cpu_throttled_usec});
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_CGROUP, "read '%s/cpu.stat'", cg->path);

	/* A controller's files exist only where it is enabled: the others are
	 * unknown without asking. */
	bool mem = cg->controllers & NSB_CG_MEMORY, pids = cg->controllers & NSB_CG_PIDS;
	s.memory_peak = mem ? value_at(cg->outer_fd, "memory.peak") : NSB_CGROUP_MAX;
	s.pids_peak = pids ? value_at(cg->outer_fd, "pids.peak") : NSB_CGROUP_MAX;
	s.memory_max_events = s.oom_events = s.oom_kill = s.pids_max_events = NSB_CGROUP_MAX;
	if (mem)
		(void)keyed_at(
			cg->outer_fd, "memory.events",
			(const char *const[]){"max", "oom", "oom_kill", NULL},
			(uint64_t *const[]){&s.memory_max_events, &s.oom_events, &s.oom_kill});
	if (pids)
		(void)keyed_at(cg->outer_fd, "pids.events", (const char *const[]){"max", NULL},
			       (uint64_t *const[]){&s.pids_max_events});
	*ret = s;
	return 0;
}

/*
 * The common case of a run's removal: the leaf, then NAME, both empty by now,
 * two rmdirs.  False when that was not all (the sandbox made cgroups of its
 * own, or killed tasks are still leaving): remove_tree takes over.
 */
static bool remove_two(int pfd, const char *name, int outer_fd)
{
	if (unlinkat(outer_fd, LEAF_NAME, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return false;
	return unlinkat(pfd, name, AT_REMOVEDIR) == 0;
}

int nsb_cgroup_destroy(struct nsb_cgroup *cg, struct nsb_error *e)
{
	char parent[PATH_MAX];
	int r = 0;

	if (!cg || cg->outer_fd < 0) {
		if (cg)
			nsb_cgroup_reset(cg);
		return 0;
	}
	nsb_format(parent, sizeof(parent), "%s", cg->path);
	nsb_cgroup_dirname(parent);
	const char *name = strrchr(cg->path, '/');
	_cleanup_close_ int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		r = nsb_error_set(e, -errno, NSB_STAGE_CGROUP, "open cgroup '%s'", parent);
	else if (name && !remove_two(pfd, name + 1, cg->outer_fd)) {
		/* Something is left: kill it, then remove the whole tree. */
		bool populated = false;
		if (read_populated(cg->outer_fd, &populated) == 0 && populated)
			(void)kill_at(cg->outer_fd);
		r = remove_tree(pfd, name + 1, 0);
		if (r < 0)
			nsb_error_set(e, r, NSB_STAGE_CGROUP, "remove cgroup '%s'", cg->path);
	}
	if (cg->fd >= 0)
		close(cg->fd);
	close(cg->outer_fd);
	nsb_cgroup_reset(cg);
	return r;
}

struct stale_walk {
	const char *parent_dir;
	struct nsb_error *e;
	int removed, first_err;
};

static int remove_if_stale(int pfd, const char *name, void *ud)
{
	struct stale_walk *w = ud;
	pid_t pid;

	if (nsb_cgroup_parse_name(name, &pid) < 0)
		return 0;
	/* Only a pid that provably does not exist marks a dead run; a live or
	 * unknown (EPERM) pid keeps its cgroup. */
	if (pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH)
		return 0;
	_cleanup_close_ int cfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cfd >= 0)
		(void)kill_at(cfd);
	int r = remove_tree(pfd, name, 0);
	if (r == 0)
		w->removed++;
	else if (!w->first_err) {
		w->first_err = r;
		nsb_error_set(w->e, r, NSB_STAGE_CGROUP, "remove stale cgroup '%s/%s'",
			      w->parent_dir, name);
	}
	return 0;
}

int nsb_cgroup_clean_stale(const char *parent_dir, struct nsb_error *e)
{
	_cleanup_close_ int pfd = open(parent_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stale_walk w = {.parent_dir = parent_dir, .e = e};

	if (pfd < 0)
		return nsb_error_set(e, -errno, NSB_STAGE_CGROUP, "open cgroup '%s'", parent_dir);
	int r = each_subdir(pfd, remove_if_stale, &w);
	if (r < 0 && !w.first_err)
		return nsb_error_set(e, r, NSB_STAGE_CGROUP, "read cgroup '%s'", parent_dir);
	return w.removed > 0 || !w.first_err ? w.removed : w.first_err;
}
