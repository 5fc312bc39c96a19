// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's view of the real filesystem (supervisor): realpath(3) and lstat(2) on host
 * paths, and a PATH lookup that maps the sandbox's directories to the host
 * through the roots.  The only impure part of the gate, kept tiny so the
 * rules themselves stay testable.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dirent.h>

#include "gate/gate_fs.h"
#include "gate/gate_fs_cache.h"
#include "gate/gate_which.h"
#include "base/macro.h"
#include "base/path_search.h"
#include "core/plan.h" /* NSB_SANDBOX_PATH */

static int host_realpath(void *ud, const char *path, char *out, size_t outsz)
{
	char buf[PATH_MAX];
	if (!realpath(path, buf))
		return nsb_negerrno();
	if (strlen(buf) >= outsz)
		return -ENAMETOOLONG;
	memcpy(out, buf, strlen(buf) + 1);
	return 0;
}

static int host_lstat_kind(void *ud, const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return nsb_negerrno();
	if (S_ISLNK(st.st_mode))
		return NSB_FS_SYMLINK;
	if (S_ISDIR(st.st_mode))
		return NSB_FS_DIR;
	if (S_ISREG(st.st_mode))
		return NSB_FS_FILE;
	return NSB_FS_OTHER;
}

/* A host file as a PATH search sees it (nsb_path_kind, shared with the payload). */
static int host_exec_probe(void *ud, const char *path)
{
	struct stat st;

	(void)ud;
	if (stat(path, &st) < 0)
		return nsb_path_kind(NULL, false);
	return nsb_path_kind(&st, access(path, X_OK) == 0);
}

/* The kernel's own record of getdents64 (glibc's struct dirent64 may differ). */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * getdents64 straight, into 64 KiB: a system directory of a thousand names
 * (/usr/bin) in one call and the end in a second, where readdir's 32 KiB
 * took three.
 */
static int host_list_dir(void *ud, const char *dir,
			 int (*fn)(void *fnud, const char *name, unsigned char type,
				   unsigned long long ino),
			 void *fnud)
{
	enum {
		BUF = 64 << 10
	};
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	_cleanup_free_ char *buf = NULL;
	size_t n = 0;
	long got;

	(void)ud;
	if (fd < 0)
		return nsb_negerrno();
	buf = malloc(BUF);
	if (!buf)
		return -ENOMEM;
	while ((got = syscall(SYS_getdents64, fd, buf, BUF)) > 0) {
		for (long off = 0; off < got;) {
			struct linux_dirent64 *de = (struct linux_dirent64 *)(void *)(buf + off);
			off += de->d_reclen;
			if (n++ >= NSB_GATE_LIST_MAX)
				return 0;
			int r = fn(fnud, de->d_name, de->d_type, (unsigned long long)de->d_ino);
			if (r != 0)
				return r < 0 ? r : 0;
		}
	}
	return got < 0 ? nsb_negerrno() : 0;
}

/* list_dir with keep applied: where no cache answers. */
struct kept_filter {
	bool (*keep)(void *fnud, const char *name);
	int (*fn)(void *fnud, const char *name, unsigned char type, unsigned long long ino);
	void *fnud;
};

static int filtered(void *ud, const char *name, unsigned char type, unsigned long long ino)
{
	struct kept_filter *f = ud;
	return f->keep(f->fnud, name) ? f->fn(f->fnud, name, type, ino) : 0;
}

static int host_list_kept(void *ud, const char *dir, const unsigned char key[32],
			  bool (*keep)(void *fnud, const char *name),
			  int (*fn)(void *fnud, const char *name, unsigned char type,
				    unsigned long long ino),
			  void *fnud)
{
	struct nsb_gate_fs_host *h = ud;
	struct kept_filter f = {.keep = keep, .fn = fn, .fnud = fnud};
	int r = nsb_gate_list_kept_cached(h->cache_dir, dir, key, keep, fn, fnud, host_list_dir);

	return r != -ENOENT ? r : host_list_dir(NULL, dir, filtered, &f);
}

_Static_assert(DT_REG == NSB_DT_REG && DT_LNK == NSB_DT_LNK && DT_DIR == NSB_DT_DIR &&
		       DT_UNKNOWN == NSB_DT_UNKNOWN,
	       "list_dir passes readdir's d_type through");

static int host_file_id(void *ud, const char *path, unsigned long long *dev,
			unsigned long long *ino)
{
	struct stat st;

	(void)ud;
	if (stat(path, &st) < 0)
		return nsb_negerrno();
	*dev = (unsigned long long)st.st_dev;
	*ino = (unsigned long long)st.st_ino;
	return 0;
}

/* First executable regular file named name in the PATH list, realpath'd:
 * the gate's own lookup (gate_which.c) over these ops. */
static int host_which(void *ud, const char *name, char *out, size_t outsz)
{
	struct nsb_gate_fs_host *h = ud;
	struct nsb_fs_ops ops;
	nsb_gate_fs_host_ops(h, &ops);
	struct nsb_gate_input in = {
		.cwd = h->cwd ? h->cwd : "/",
		.roots = h->roots,
		.n_roots = h->n_roots,
		.fs = &ops,
		.path_list = h->path_list ? h->path_list : NSB_SANDBOX_PATH,
	};
	int r = nsb_gate_which(&in, NULL, name, out, outsz);
	return r == -EINVAL ? r : (r < 0 ? -ENOENT : 0);
}

void nsb_gate_fs_host_ops(struct nsb_gate_fs_host *h, struct nsb_fs_ops *ret)
{
	*ret = (struct nsb_fs_ops){
		.ud = h,
		.realpath = host_realpath,
		.lstat_kind = host_lstat_kind,
		.which = host_which,
		.exec_probe = host_exec_probe,
		.list_dir = host_list_dir,
		.list_kept = host_list_kept,
		.file_id = host_file_id,
	};
}
