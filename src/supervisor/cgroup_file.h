/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the cgroup module (cgroup_place.c, cgroup.c): reading and writing
 * the small files of a cgroup2 tree.  Not for other modules.
 */
#pragma once

#include <stddef.h>

/* mountinfo on a busy host is large; cgroup files are tiny. */
#define NSB_CGROUP_PROC_FILE_MAX (4u << 20)
#define NSB_CGROUP_FILE_MAX	 65536

/* All of dfd/name (name absolute: dfd is ignored), NUL-terminated, at most
 * max bytes; -EFBIG beyond.  *ret is filled whenever it returns 0. */
int nsb_cgroup_read_at(int dfd, const char *name, size_t max, char **ret);

/* Write text to dfd/name in one write(); -EIO when it was cut short. */
int nsb_cgroup_write_at(int dfd, const char *name, const char *text);

/* "/a/b" → "/a", in place; "/a" stays. */
void nsb_cgroup_dirname(char *path);
