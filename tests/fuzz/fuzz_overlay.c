// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The overlay change-set walker (supervisor/overlay_walk.c) on crafted upper
 * layers, and the export's line parser.  The first byte picks the target.
 *
 * Walker: the rest of the input is a little program that builds an upper
 * layer in a scratch directory (directories, files, whiteouts, opaque marks,
 * symlinks, fifos, long names, deep trees) over a fixed lower layer; the
 * walk must end without a crash, every path it reports must stay beneath
 * DIR, a deletion must name something the lower layer has, and nothing is
 * reported twice as added.
 * Line parser: the rest is one line; a line it accepts has a path beneath
 * (tabs and other bytes may come of its %XX escapes).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fuzz.h"
#include "supervisor/overlay_apply.h"
#include "supervisor/overlay_export.h"
#include "supervisor/overlay_walk.h"

static char root[] = "/tmp/nsbox-fuzz-ovl-XXXXXX";
static int lower_fd = -1;
static unsigned long round_no;

static void rm_tree(int dir);

/* The scratch directory goes when the process does. */
static void cleanup(void)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		rm_tree(fd);
		close(fd);
	}
	rmdir(root);
}

static void setup_lower(void)
{
	char p[128];

	if (lower_fd >= 0)
		return;
	if (!mkdtemp(root))
		abort();
	atexit(cleanup);
	snprintf(p, sizeof(p), "%s/lower", root);
	if (mkdir(p, 0755) < 0)
		abort();
	lower_fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lower_fd < 0)
		abort();
	/* a, b (dirs), a/x, a/y, f (file), l (symlink), b/c/d */
	FUZZ_ASSERT(mkdirat(lower_fd, "a", 0755) == 0 && mkdirat(lower_fd, "b", 0755) == 0 &&
		    mkdirat(lower_fd, "b/c", 0755) == 0 && mkdirat(lower_fd, "b/c/d", 0755) == 0);
	const char *files[] = {"a/x", "a/y", "f"};
	for (size_t i = 0; i < 3; i++) {
		int fd = openat(lower_fd, files[i], O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		FUZZ_ASSERT(fd >= 0 && write(fd, "lower\n", 6) == 6);
		close(fd);
	}
	FUZZ_ASSERT(symlinkat("f", lower_fd, "l") == 0);
}

static void rm_tree(int dir)
{
	DIR *d = fdopendir(dup(dir));
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (unlinkat(dir, de->d_name, 0) == 0)
			continue;
		int sub = openat(dir, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0) {
			rm_tree(sub);
			close(sub);
		}
		unlinkat(dir, de->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

/* Take a name of 1..255 bytes from the input (no '/' or NUL; never . or ..). */
static size_t take_name(const uint8_t **d, size_t *n, char *out)
{
	static const char alpha[] = "abcdefxyl";
	size_t len;

	if (*n < 1)
		return 0;
	len = (**d % 8) + 1;
	if (**d >= 0xf0)
		len = 200 + (**d & 15) * 3; /* a long one */
	(*d)++;
	(*n)--;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = 'a';
		if (*n) {
			c = **d;
			(*d)++;
			(*n)--;
		}
		out[i] = len <= 2 ? alpha[c % 9] : (char)('a' + c % 26);
	}
	out[len] = '\0';
	return len;
}

struct seen {
	char paths[256][64];
	size_t n;
};

static int check_event(void *ud, const struct nsb_ovl_event *ev)
{
	struct seen *s = ud;
	struct stat st;

	FUZZ_ASSERT(nsb_ovl_path_ok(ev->path));
	FUZZ_ASSERT(strlen(ev->path) <= NSB_OVL_MAX_PATH);
	if (ev->kind == NSB_OVL_DELETE)
		FUZZ_ASSERT(fstatat(lower_fd, ev->path, &st, AT_SYMLINK_NOFOLLOW) == 0);
	if (ev->kind == NSB_OVL_ADD && strlen(ev->path) < 64) {
		for (size_t i = 0; i < s->n; i++)
			FUZZ_ASSERT(strcmp(s->paths[i], ev->path) != 0);
		if (s->n < 256)
			snprintf(s->paths[s->n++], 64, "%s", ev->path);
	}
	return 0;
}

static void fuzz_walk(const uint8_t *d, size_t n)
{
	char p[256], name[256];
	int up, cur;
	struct nsb_error e = {0};
	struct seen *s = calloc(1, sizeof(*s));
	int stack[64];
	size_t depth = 0;

	if (!s)
		abort();
	setup_lower();
	snprintf(p, sizeof(p), "%s/upper%lu", root, round_no++);
	FUZZ_ASSERT(mkdir(p, 0755) == 0);
	up = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	FUZZ_ASSERT(up >= 0);
	cur = dup(up);
	for (size_t steps = 0; n > 0 && steps < 512; steps++) {
		uint8_t op = *d++ % 8;
		n--;
		if (op == 4) { /* up one directory */
			if (depth) {
				close(cur);
				cur = stack[--depth];
			}
			continue;
		}
		if (op == 5) { /* mark the current directory opaque */
			fsetxattr(cur, "user.overlay.opaque", "y", 1, 0);
			continue;
		}
		if (!take_name(&d, &n, name))
			break;
		switch (op) {
		case 0: /* mkdir and enter */
			if (mkdirat(cur, name, 0755) == 0 && depth < 64) {
				int sub = openat(cur, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
				if (sub >= 0) {
					stack[depth++] = cur;
					cur = sub;
				}
			}
			break;
		case 1: {
			/* O_NONBLOCK: the name may be a fifo made before, which
			 * would wait for a reader for ever (ENXIO instead). */
			int fd = openat(cur, name,
					O_CREAT | O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
					0600 | (n ? (*d & 0177) : 0));
			if (fd >= 0) {
				if (write(fd, name, strlen(name)) < 0)
					abort();
				close(fd);
			}
			break;
		}
		case 2:
			mknodat(cur, name, S_IFCHR | 0600, makedev(0, 0));
			break;
		case 3:
			/* A name already taken fails, as any step here may. */
			if (symlinkat(n & 1 ? "/etc/passwd" : "../f", cur, name) < 0)
				break;
			break;
		case 6:
			mkfifoat(cur, name, 0600);
			break;
		case 7:
			mknodat(cur, name, S_IFCHR | 0600, makedev(1, 3));
			break;
		}
	}
	while (depth)
		close(stack[--depth]);
	close(cur);
	int r = nsb_ovl_walk(up, lower_fd, true, check_event, s, &e);
	FUZZ_ASSERT(r == 0 || (r < 0 && e.message[0]));
	rm_tree(up);
	close(up);
	rmdir(p);
	free(s);
}

static void fuzz_line(const uint8_t *d, size_t n)
{
	char *line = malloc(n + 1);
	char *f[6];

	if (!line)
		abort();
	memcpy(line, d, n);
	line[n] = '\0';
	if (nsb_ovl_parse_line(line, f) == 0)
		FUZZ_ASSERT(nsb_ovl_path_ok(f[5]));
	free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 1)
		fuzz_line(data + 1, size - 1);
	else
		fuzz_walk(data + 1, size - 1);
	return 0;
}
