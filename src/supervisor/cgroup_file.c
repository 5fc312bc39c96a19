// SPDX-License-Identifier: GPL-2.0-or-later
/* The files of a cgroup2 tree (cgroup_file.h): supervisor. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "supervisor/cgroup_file.h"
#include "base/macro.h"

int nsb_cgroup_read_at(int dfd, const char *name, size_t max, char **ret)
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

int nsb_cgroup_write_at(int dfd, const char *name, const char *text)
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

void nsb_cgroup_dirname(char *path)
{
	char *slash = strrchr(path, '/');
	if (slash && slash != path)
		*slash = '\0';
}
