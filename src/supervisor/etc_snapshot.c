// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The /etc snapshot (etc_snapshot.h): made and chosen by the supervisor
 * before the clone, bound by init from the descriptor it inherits.  Binding
 * the 17 files of /etc one by one cost each launch 51 system calls and
 * about 5 % of its time (nsbox -- true, paired runs; the mounts are made
 * and, when the sandbox ends, torn down one by one); a snapshot costs one
 * stat per entry and one bind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "supervisor/etc_snapshot.h"
#include "base/fmt.h"
#include "base/macro.h"
#include "base/sha256.h"
#include "base/util.h"
#include "gate/gate_fs_cache.h"

#define SNAP_MAGIC     "nsbox etc snapshot 1\n"
#define SNAP_ENTRY_MAX 32	   /* entries of the table (plan.c has 21) */
#define SNAP_FILE_MAX  (4LL << 20) /* bytes of one file: larger, no snapshot */
#define SNAP_DEPTH     4	   /* directory levels a snapshot has, at most */
#define SNAP_PREFIX    "etc-"
#define SNAP_NAME_LEN  (sizeof(SNAP_PREFIX) - 1 + 32)

/* What the host has at one entry: a file (st), or nothing. */
struct entry {
	const char *path; /* "/etc/..." */
	bool dir;	  /* bound on its own: only its mount point is here */
	bool present;
	struct stat st;
};

/* Stat every file entry into v and name the snapshot (name: SNAP_NAME_LEN
 * + 1 bytes).  0, or -1 when these files cannot be snapshotted; *ripe is
 * false when one changed too recently to be copied now. */
static int survey(struct entry *v, size_t n, uid_t euid, char *name, bool *ripe)
{
	struct nsb_sha256 h;
	uint8_t d[NSB_SHA256_LEN];
	char line[256]; /* the table's paths are short */

	*ripe = true;
	nsb_sha256_init(&h);
	nsb_sha256_update(&h, SNAP_MAGIC, strlen(SNAP_MAGIC));
	for (size_t i = 0; i < n; i++) {
		struct entry *en = &v[i];
		int k;

		if (en->dir)
			continue;
		/* Followed, as a bind follows it: /etc/localtime is a link. */
		if (stat(en->path, &en->st) < 0) {
			if (errno != ENOENT && errno != ENOTDIR)
				return -1;
			k = nsb_format(line, sizeof(line), "%s -\n", en->path);
		} else {
			/* One we may not read (made private by the host) is
			 * left to the binds: each run would try to copy it. */
			if (!S_ISREG(en->st.st_mode) || en->st.st_size > SNAP_FILE_MAX ||
			    (!(en->st.st_mode & S_IROTH) && en->st.st_uid != euid))
				return -1;
			en->present = true;
			*ripe = *ripe && nsb_cache_settled(&en->st);
			k = nsb_format(line, sizeof(line), "%s %llu %llu %lld %o %lld %lld\n",
				       en->path, (unsigned long long)en->st.st_dev,
				       (unsigned long long)en->st.st_ino, (long long)en->st.st_size,
				       (unsigned)en->st.st_mode, nsb_cache_ns(&en->st.st_mtim),
				       nsb_cache_ns(&en->st.st_ctim));
		}
		if (k < 0 || (size_t)k >= sizeof(line))
			return -1;
		nsb_sha256_update(&h, line, (size_t)k);
	}
	nsb_sha256_final(&h, d);
	memcpy(name, SNAP_PREFIX, sizeof(SNAP_PREFIX) - 1);
	for (size_t i = 0; i < 16; i++)
		nsb_format(name + sizeof(SNAP_PREFIX) - 1 + 2 * i, 3, "%02x", d[i]);
	return 0;
}

/* Ours alone: a directory owned by us (euid), writable by no one else,
 * and still linked (a removed one has no links). */
static bool ours(int fd, uid_t euid)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == euid &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH)) && st.st_nlink > 0;
}

/* The cache directory, opened (made when missing), its path in dir
 * (PATH_MAX bytes) and our euid in *euid; -1 when there is none to use. */
static int open_cache(char *dir, uid_t *euid)
{
	int fd;

	if (nsb_gate_cache_dir(NSB_CACHE_IN_USE, dir, PATH_MAX) < 0)
		return -1;
	*euid = geteuid();
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && nsb_gate_cache_mkdir(dir) == 0)
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && !ours(fd, *euid))
		nsb_closep(&fd);
	return fd;
}

/* A directory stream on fd (taken: closed when there is none). */
static DIR *dir_stream(int fd)
{
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d && fd >= 0)
		close(fd);
	return d;
}

/* Remove a directory tree of ours, never following a link. */
static void remove_tree(int parent, const char *name, int depth)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = dir_stream(fd);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (unlinkat(fd, de->d_name, 0) < 0 && errno == EISDIR && depth < SNAP_DEPTH)
			remove_tree(fd, de->d_name, depth + 1);
	}
	closedir(d);
	(void)unlinkat(parent, name, AT_REMOVEDIR);
}

/* Make the directories of rel (the last one too when whole). */
static int make_dirs(int at, const char *rel, bool whole)
{
	char buf[128]; /* the table's paths are short */
	int n = nsb_format(buf, sizeof(buf), "%s", rel);

	if (n < 0 || (size_t)n >= sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdirat(at, buf, 0755) < 0 && errno != EEXIST)
			return nsb_negerrno();
		*p = '/';
	}
	if (whole && mkdirat(at, buf, 0755) < 0 && errno != EEXIST)
		return nsb_negerrno();
	return 0;
}

/* Copy one file, the one that was surveyed (else -ESTALE), with its mode
 * and times, synced: a snapshot is believed for as long as the host's
 * file stays as it is. */
static int copy_file(int at, const char *rel, const struct entry *en)
{
	_cleanup_close_ int src = open(en->path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	_cleanup_close_ int dst = -1;
	struct timespec times[2] = {en->st.st_atim, en->st.st_mtim};
	struct stat st;
	off_t left = en->st.st_size;

	if (src < 0 || fstat(src, &st) < 0)
		return nsb_negerrno();
	if (st.st_dev != en->st.st_dev || st.st_ino != en->st.st_ino ||
	    st.st_size != en->st.st_size ||
	    nsb_cache_ns(&st.st_mtim) != nsb_cache_ns(&en->st.st_mtim) ||
	    nsb_cache_ns(&st.st_ctim) != nsb_cache_ns(&en->st.st_ctim))
		return -ESTALE;
	dst = openat(at, rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (dst < 0)
		return nsb_negerrno();
	while (left > 0) {
		ssize_t k = sendfile(dst, src, NULL, (size_t)left);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? nsb_negerrno() : -ESTALE; /* it shrank */
		left -= k;
	}
	if (fchmod(dst, en->st.st_mode & 0777) < 0 || futimens(dst, times) < 0 ||
	    fdatasync(dst) < 0)
		return nsb_negerrno();
	return 0;
}

/* Make snapshot NAME in the cache (cfd) from v.  0 when it is there (ours
 * or another run's, made meanwhile), else -errno. */
static int build(int cfd, const char *name, const struct entry *v, size_t n)
{
	char tmp[SNAP_NAME_LEN + 32];
	_cleanup_close_ int tfd = -1;
	uint64_t rnd;
	int r = 0;

	/* A name no other run picks (two supervisors may share a pid, in two
	 * PID namespaces with one home); a crash's is pruned later. */
	if (getrandom(&rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return -EAGAIN;
	nsb_format(tmp, sizeof(tmp), "%s.tmp.%016llx", name, (unsigned long long)rnd);
	if (mkdirat(cfd, tmp, 0700) < 0)
		return nsb_negerrno();
	tfd = openat(cfd, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (tfd < 0)
		r = nsb_negerrno();
	for (size_t i = 0; r == 0 && i < n; i++) {
		const char *rel = v[i].path + strlen("/etc/");
		/* A directory entry's mount point is made whether or not the
		 * host has it: init skips the bind of a missing one. */
		if (v[i].dir)
			r = make_dirs(tfd, rel, true);
		else if (v[i].present && (r = make_dirs(tfd, rel, false)) == 0)
			r = copy_file(tfd, rel, &v[i]);
	}
	if (r == 0 && (fchmod(tfd, 0755) < 0 || fsync(tfd) < 0))
		r = nsb_negerrno();
	if (r == 0 && renameat(cfd, tmp, cfd, name) < 0) {
		r = nsb_negerrno();
		if (r == -EEXIST || r == -ENOTEMPTY)
			r = 0; /* another run made it first: it is the same */
	}
	if (r == 0)
		(void)fsync(cfd);
	remove_tree(cfd, tmp, 0); /* gone already when renamed */
	return r;
}

/* Open snapshot NAME and hold it (shared lock): its descriptor, -ENOENT
 * when there is none, -EPERM when it is not ours, being removed or cannot
 * be locked (a file system without flock(2): then none is made either). */
static int hold(int cfd, const char *name, uid_t euid)
{
	int fd = openat(cfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? -ENOENT : -EPERM;
	/* Checked after the lock: a directory still linked then is one no
	 * run removes (prune removes only what it holds exclusively). */
	if (flock(fd, LOCK_SH | LOCK_NB) < 0 || !ours(fd, euid)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* Remove the other snapshots no run holds, and temporaries (only the
 * builder, which holds the cache directory's lock, makes one: any other
 * is a crash's). */
static void prune(int cfd, const char *keep, uid_t euid)
{
	DIR *d = dir_stream(dup(cfd));
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *nm = de->d_name;

		if (strncmp(nm, SNAP_PREFIX, sizeof(SNAP_PREFIX) - 1) || !strcmp(nm, keep))
			continue;
		if (strstr(nm, ".tmp.")) {
			remove_tree(cfd, nm, 0);
			continue;
		}
		int s = openat(cfd, nm, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (s < 0)
			continue;
		if (ours(s, euid) && flock(s, LOCK_EX | LOCK_NB) == 0)
			remove_tree(cfd, nm, 0);
		close(s);
	}
	closedir(d);
}

/* Bind the snapshot instead of the files: the first file entry's op
 * becomes the bind of the whole directory at /etc. */
static int rewrite(struct nsb_plan *p, const struct entry *v, size_t n, const char *path)
{
	size_t first = n, plen = strlen(path);
	struct nsb_mount_op *op;
	char *s;

	for (size_t i = 0; i < n && first == n; i++)
		if (!v[i].dir)
			first = i;
	if (first == n || !(s = malloc(plen + 1 + sizeof("/etc"))))
		return -1;
	memcpy(s, path, plen + 1);
	memcpy(s + plen + 1, "/etc", sizeof("/etc"));
	op = &p->ops[p->etc_first + first];
	free(op->src);
	op->src = s;
	op->dest = s + plen + 1;
	op->from_snapshot = true;
	op->optional = false;
	op->src_is_dir = true;
	for (size_t i = first + 1; i < n; i++)
		if (!v[i].dir)
			p->ops[p->etc_first + i].in_snapshot = true;
	return 0;
}

/* Choose (or make) the snapshot of v and hold it; -1 when there is none. */
static int choose(struct entry *v, size_t n, char **ret_path)
{
	char name[SNAP_NAME_LEN + 1];
	_cleanup_free_ char *dir = malloc(PATH_MAX); /* not a page of the stack */
	_cleanup_close_ int cfd = -1;
	uid_t euid = 0;
	bool ripe, made = false;
	int fd;

	/* The cache first: without one, the files are not even looked at. */
	if (!dir || (cfd = open_cache(dir, &euid)) < 0 || survey(v, n, euid, name, &ripe) < 0)
		return -1;
	fd = hold(cfd, name, euid);
	/* Made only where there is none (one that cannot be held would be
	 * made again by every run), and by one run at a time: of 500 runs
	 * started at once on a new /etc, one copies while the others bind
	 * the files from the host.  The cache directory's lock is released
	 * with cfd. */
	if (fd == -ENOENT && ripe && flock(cfd, LOCK_EX | LOCK_NB) == 0 &&
	    build(cfd, name, v, n) == 0) {
		fd = hold(cfd, name, euid);
		made = fd >= 0;
	}
	if (fd < 0)
		return -1;
	if (made)
		prune(cfd, name, euid);
	if (nsb_aformat(ret_path, "%s/%s", dir, name) < 0) {
		*ret_path = NULL;
		nsb_closep(&fd);
	}
	return fd;
}

int nsb_etc_snapshot_apply(struct nsb_plan *p, struct nsb_etc_snapshot *s)
{
	const char *const *paths;
	unsigned dirs;
	size_t n = nsb_plan_etc_entries(&paths, &dirs);
	_cleanup_free_ struct entry *v = NULL;

	*s = (struct nsb_etc_snapshot){.fd = -1};
	if (n != p->etc_count || n > SNAP_ENTRY_MAX || p->etc_first + n > p->n_ops)
		return 0;
	/* A mount of the caller's under /etc needs /etc to be the root's
	 * tmpfs, where its mount point can be made. */
	for (size_t i = p->etc_first + n; i < p->n_ops; i++)
		if (nsb_path_is_under(p->ops[i].dest, "/etc"))
			return 0;
	v = calloc(n, sizeof(*v));
	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++)
		v[i] = (struct entry){.path = paths[i], .dir = (dirs >> i) & 1};
	s->fd = choose(v, n, &s->path);
	if (s->fd < 0) {
		*s = (struct nsb_etc_snapshot){.fd = -1};
		return 0;
	}
	if (rewrite(p, v, n, s->path) < 0) {
		nsb_etc_snapshot_close(s);
		return 0;
	}
	p->etc_snapshot = s->path;
	p->etc_snapshot_fd = s->fd;
	return 1;
}

void nsb_etc_snapshot_close(struct nsb_etc_snapshot *s)
{
	/* A run that never chose one holds none (fd is 0 in a zeroed run). */
	if (!s->path)
		return;
	nsb_closep(&s->fd);
	free(s->path);
	s->path = NULL;
}
