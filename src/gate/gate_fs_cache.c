// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The deny list's reach, remembered (supervisor, impure; issue 11).  To
 * find a denied name that is the command's own file, the gate reads the
 * command's directory (gate_deny.c); reading /usr/bin, an ext4 htree of a
 * thousand names, costs about 0.4 ms, most of a launch's gate.  What the
 * gate keeps of it is tiny: the entries whose names are denied.  This file
 * keeps those in a small file per directory under the caller's cache
 * directory, "deny-" and the first 16 bytes of the SHA-256 of the
 * directory's path in hex, so that the next run reads a few lines instead.
 *
 * A cache file is believed only when all of this holds, and is otherwise
 * ignored (and rewritten):
 *   - it is a regular file, not a link, owned by the caller, at most
 *     CACHE_MAX bytes, ending with the "end" line;
 *   - its key is the deny list's digest the gate asks with;
 *   - its directory line is the directory's device, inode, modification and
 *     change times, to the nanosecond: creating, removing or renaming an
 *     entry changes both times, and the change time cannot be set back.
 * A file is written only for a directory unchanged for TICK_GUARD seconds
 * before it was read (times are coarse: an entry added within the same
 * tick as the listing would otherwise go unseen), to a temporary name then
 * renamed.  Links among the kept entries are still followed at use
 * (gate_deny.c's same_file), so a link whose target changes elsewhere is
 * judged as it is now.
 *
 * No payload may write here: a run whose writable binds reach the cache
 * directory protects it (supervisor/protect_scan.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gate/gate_fs_cache.h"
#include "gate/gate_input.h"
#include "base/fmt.h"
#include "base/macro.h"
#include "base/sha256.h"
#include "base/util.h"

#define CACHE_MAX   (64 << 10) /* bytes of one cache file */
#define KEPT_MAX    128	       /* kept entries of one directory: more, no cache */
#define TICK_GUARD  1	       /* seconds a directory must be unchanged */
#define CACHE_MAGIC "nsbox dircache 1\n"

/* A directory (not a link) of the effective uid's that neither its group
 * nor others may write. */
static bool owned_dir(const struct stat *st)
{
	return S_ISDIR(st->st_mode) && st->st_uid == geteuid() &&
	       !(st->st_mode & (S_IWGRP | S_IWOTH));
}

bool nsb_gate_cache_dir_owned(const char *dir)
{
	struct stat st;

	return lstat(dir, &st) == 0 && owned_dir(&st);
}

/* /var/tmp/nsbox-UID's name. */
static int tmp_cache_name(char *out, size_t outsz)
{
	int n = nsb_format(out, outsz, NSB_CACHE_TMP_BASE "/nsbox-%u", (unsigned)geteuid());

	return n < 0 || (size_t)n >= outsz ? -ENAMETOOLONG : 0;
}

/* /var/tmp/nsbox-UID, made when missing; usable only when it is the
 * caller's own (nsb_gate_cache_dir_owned), else -ENOENT. */
static int tmp_cache_dir(char *out, size_t outsz)
{
	int r = tmp_cache_name(out, outsz);

	if (r < 0)
		return r;
	if (mkdir(out, 0700) < 0 && errno != EEXIST)
		return -ENOENT;
	return nsb_gate_cache_dir_owned(out) ? 0 : -ENOENT;
}

/*
 * Can the caller keep its cache in dir?  When dir is its own directory
 * (nsb_gate_cache_dir_owned), or was missing and is made now.  Anything else
 * (a home the caller may not enter, a read-only file system, a link, a
 * directory another user owns or others may write) leaves it to
 * /var/tmp/nsbox-UID.  One lstat(2) when the directory is there.
 */
static bool usable_cache_dir(const char *dir)
{
	struct stat st;

	if (lstat(dir, &st) < 0)
		return errno == ENOENT && nsb_gate_cache_mkdir(dir) == 0 &&
		       nsb_gate_cache_dir_owned(dir);
	return owned_dir(&st);
}

int nsb_gate_cache_dir(enum nsb_cache_where where, char *out, size_t outsz)
{
	const char *off = getenv("NSBOX_NO_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (where == NSB_CACHE_IN_USE && off && *off)
		return -ENOENT;
	if (where == NSB_CACHE_TMP)
		return tmp_cache_name(out, outsz);
	/* The base directory specification: a relative value is ignored. */
	if (where != NSB_CACHE_HOME && xdg && xdg[0] == '/')
		n = nsb_format(out, outsz, "%s/nsbox", xdg);
	else if (where != NSB_CACHE_XDG && home && home[0] == '/')
		n = nsb_format(out, outsz, "%s/.cache/nsbox", home);
	else if (where == NSB_CACHE_IN_USE)
		return tmp_cache_dir(out, outsz);
	else
		return -ENOENT;
	if (n < 0 || (size_t)n >= outsz)
		return where == NSB_CACHE_IN_USE ? tmp_cache_dir(out, outsz) : -ENAMETOOLONG;
	if (where == NSB_CACHE_IN_USE && !usable_cache_dir(out))
		return tmp_cache_dir(out, outsz);
	return 0;
}

int nsb_gate_cache_mkdir(const char *dir)
{
	char parent[PATH_MAX];
	int n = nsb_format(parent, sizeof(parent), "%s", dir);
	char *slash;

	if (n < 0 || (size_t)n >= sizeof(parent))
		return -ENAMETOOLONG;
	if (mkdir(dir, 0700) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT)
		return nsb_negerrno();
	/* One level up ($XDG_CACHE_HOME or ~/.cache) may be missing too. */
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return -ENOENT;
	*slash = '\0';
	if (mkdir(parent, 0700) < 0 && errno != EEXIST)
		return nsb_negerrno();
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return nsb_negerrno();
	return 0;
}

/* The directory's identity line, as written and compared. */
static int dir_line(const struct stat *st, char *out, size_t outsz)
{
	int n = nsb_format(out, outsz, "dir %" PRIu64 " %" PRIu64 " %lld %ld %lld %ld\n",
			   (uint64_t)st->st_dev, (uint64_t)st->st_ino,
			   (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
			   (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
	return n < 0 || (size_t)n >= outsz ? -ENAMETOOLONG : n;
}

static int key_line(const unsigned char key[NSB_SHA256_LEN], char *out, size_t outsz)
{
	char hex[NSB_SHA256_HEX];
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < NSB_SHA256_LEN; i++) {
		hex[2 * i] = digits[key[i] >> 4];
		hex[2 * i + 1] = digits[key[i] & 15];
	}
	hex[2 * NSB_SHA256_LEN] = '\0';
	int n = nsb_format(out, outsz, "key %s\n", hex);
	return n < 0 || (size_t)n >= outsz ? -ENAMETOOLONG : n;
}

static int file_path(const char *cache_dir, const char *dir, char *out, size_t outsz)
{
	char hex[NSB_SHA256_HEX];

	nsb_sha256_hex(dir, strlen(dir), hex);
	int n = nsb_format(out, outsz, "%s/deny-%.32s", cache_dir, hex);
	return n < 0 || (size_t)n >= outsz ? -ENAMETOOLONG : 0;
}

/* One kept entry, parsed or listed. */
struct kept {
	unsigned char type;
	unsigned long long ino;
	char name[256];
};

struct kept_list {
	struct kept *v;
	size_t n;
	size_t listed; /* names the listing passed, kept or not */
	bool unfit;    /* a name the file cannot hold, or too many */
	bool (*keep)(void *fnud, const char *name);
	void *fnud;
};

static int collect(void *ud, const char *name, unsigned char type, unsigned long long ino)
{
	struct kept_list *k = ud;

	k->listed++;
	if (k->unfit || !k->keep(k->fnud, name))
		return 0;
	if (k->n == KEPT_MAX || strlen(name) >= sizeof(k->v->name) || strchr(name, '\n')) {
		k->unfit = true;
		return 0;
	}
	struct kept *e = &k->v[k->n++];
	e->type = type;
	e->ino = ino;
	memcpy(e->name, name, strlen(name) + 1);
	return 0;
}

/*
 * Parse buf (NUL-terminated, len bytes) into k when its head is exactly
 * head (the magic, key and directory lines).  false: not this directory's
 * file, or not well formed.
 */
static bool parse(char *buf, size_t len, const char *head, struct kept_list *k)
{
	size_t hl = strlen(head);
	char *p, *end;

	if (len < hl + 4 || memcmp(buf, head, hl) != 0 || strcmp(buf + len - 4, "end\n") != 0)
		return false;
	buf[len - 4] = '\0';
	for (p = buf + hl; *p; p = end + 1) {
		end = strchr(p, '\n');
		if (!end || k->n == KEPT_MAX)
			return false;
		*end = '\0';
		/* "TYPE INO NAME": two numbers, then the rest of the line */
		char *sp1 = strchr(p, ' '), *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
		uint64_t type, ino;
		if (!sp2)
			return false;
		*sp1 = *sp2 = '\0';
		if (nsb_parse_uint(p, 255, &type) < 0 ||
		    nsb_parse_uint(sp1 + 1, UINT64_MAX, &ino) < 0)
			return false;
		const char *name = sp2 + 1;
		size_t nl = strlen(name);
		if (nl == 0 || nl >= sizeof(k->v->name) || strchr(name, '/'))
			return false;
		struct kept *e = &k->v[k->n++];
		*e = (struct kept){.type = (unsigned char)type, .ino = ino};
		memcpy(e->name, name, nl + 1);
	}
	return true;
}

/* The cache file's kept entries, when it is this directory's (true). */
static bool load(const char *path, const char *head, struct kept_list *k)
{
	struct stat st;
	_cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	_cleanup_free_ char *buf = NULL;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_size <= 0 || st.st_size > CACHE_MAX)
		return false;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return false;
	ssize_t got = read(fd, buf, (size_t)st.st_size);
	if (got != st.st_size)
		return false;
	buf[got] = '\0';
	return parse(buf, (size_t)got, head, k);
}

/* Write the kept entries under path; a failure leaves no cache, said nowhere:
 * the next run lists the directory again. */
static void store(const char *cache_dir, const char *path, const char *head,
		  const struct kept_list *k)
{
	char tmp[PATH_MAX];
	_cleanup_free_ char *buf = malloc(CACHE_MAX);
	size_t n = 0;
	int len;

	if (!buf ||
	    nsb_format(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid()) >= (int)sizeof(tmp))
		return;
	len = nsb_format(buf, CACHE_MAX, "%s", head);
	n = (size_t)len;
	for (size_t i = 0; i < k->n; i++) {
		len = nsb_format(buf + n, CACHE_MAX - n, "%u %llu %s\n", k->v[i].type, k->v[i].ino,
				 k->v[i].name);
		if (len < 0 || (size_t)len >= CACHE_MAX - n)
			return;
		n += (size_t)len;
	}
	len = nsb_format(buf + n, CACHE_MAX - n, "end\n");
	if (len < 0 || (size_t)len >= CACHE_MAX - n)
		return;
	n += (size_t)len;
	if (nsb_gate_cache_mkdir(cache_dir) < 0)
		return;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	bool ok = write(fd, buf, n) == (ssize_t)n;
	if (close(fd) < 0)
		ok = false;
	if (!ok || rename(tmp, path) < 0)
		(void)unlink(tmp);
}

long long nsb_cache_ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

bool nsb_cache_settled(const struct stat *st)
{
	struct timespec now;
	long long m = nsb_cache_ns(&st->st_mtim), c = nsb_cache_ns(&st->st_ctim);

	if (clock_gettime(CLOCK_REALTIME, &now) < 0)
		return false;
	return nsb_cache_ns(&now) - (m > c ? m : c) >= TICK_GUARD * 1000000000LL;
}

int nsb_gate_list_kept_cached(const char *cache_dir, const char *dir,
			      const unsigned char key[NSB_SHA256_LEN],
			      bool (*keep)(void *fnud, const char *name),
			      int (*fn)(void *fnud, const char *name, unsigned char type,
					unsigned long long ino),
			      void *fnud, nsb_list_dir_fn list)
{
	char path[PATH_MAX], head[256];
	struct stat st;
	struct kept_list k = {.keep = keep, .fnud = fnud};
	int r = 0, hl, dl;

	if (!cache_dir || stat(dir, &st) < 0 || file_path(cache_dir, dir, path, sizeof(path)) < 0)
		return -ENOENT; /* the caller lists the directory itself */
	hl = (int)strlen(CACHE_MAGIC);
	memcpy(head, CACHE_MAGIC, (size_t)hl);
	dl = key_line(key, head + hl, sizeof(head) - (size_t)hl);
	if (dl < 0 || dir_line(&st, head + hl + dl, sizeof(head) - (size_t)(hl + dl)) < 0)
		return -ENOENT;
	k.v = malloc(KEPT_MAX * sizeof(*k.v));
	if (!k.v)
		return -ENOMEM;
	if (!load(path, head, &k)) {
		k.n = 0;
		r = list(NULL, dir, collect, &k);
		if (r == 0 && !k.unfit && k.listed < NSB_GATE_LIST_MAX && nsb_cache_settled(&st))
			store(cache_dir, path, head, &k);
	}
	for (size_t i = 0; r == 0 && i < k.n; i++)
		if (keep(fnud, k.v[i].name) && fn(fnud, k.v[i].name, k.v[i].type, k.v[i].ino))
			break;
	free(k.v);
	return r;
}
