/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The deny list's reach, remembered (gate_fs_cache.c, impure): the entries
 * of a host directory whose names are denied, kept in a file per directory
 * under the caller's cache directory.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>

#include "base/sha256.h"

enum nsb_cache_where {
	NSB_CACHE_IN_USE, /* $XDG_CACHE_HOME/nsbox, else ~/.cache/nsbox, where
			   * the caller can use it (its own directory, or made
			   * now), else /var/tmp/nsbox-UID; none when
			   * NSBOX_NO_CACHE is set and not empty */
	NSB_CACHE_XDG,	  /* $XDG_CACHE_HOME/nsbox only */
	NSB_CACHE_HOME,	  /* ~/.cache/nsbox only: where runs without XDG_CACHE_HOME look */
	NSB_CACHE_TMP,	  /* /var/tmp/nsbox-UID only: where runs without a home look */
};

/* Without a home (HOME unset or relative), or where the cache the variables
 * name cannot be used: the caller's own directory in /var/tmp, whose sticky
 * bit keeps others from renaming or removing it. */
#define NSB_CACHE_TMP_BASE "/var/tmp"

/*
 * A cache directory; -ENOENT when the variables give none (a relative
 * value is ignored) or, for NSB_CACHE_IN_USE, when the cache is off or
 * falls to /var/tmp and that directory could not be made or is not a
 * directory of the caller's that no one else may write (another user made
 * it first, or a link): the run then has no cache.  NSB_CACHE_IN_USE may
 * make the directory the variables name (mode 0700, and its parent).
 */
int nsb_gate_cache_dir(enum nsb_cache_where where, char *out, size_t outsz);

/* Is dir a directory (not a link) owned by the effective uid that neither
 * its group nor others may write? */
bool nsb_gate_cache_dir_owned(const char *dir);

/* A time in nanoseconds. */
long long nsb_cache_ns(const struct timespec *t);

/*
 * Has st's file been left as it is (modification and change times) for a
 * second?  A change within the same tick of the file system's clock keeps
 * the times, so a cache keyed by them is written only from settled files.
 */
bool nsb_cache_settled(const struct stat *st);

/* Create dir (mode 0700), and its parent when missing; 0 or -errno. */
int nsb_gate_cache_mkdir(const char *dir);

typedef int (*nsb_list_dir_fn)(void *ud, const char *dir,
			       int (*fn)(void *fnud, const char *name, unsigned char type,
					 unsigned long long ino),
			       void *fnud);

/*
 * Call fn with dir's entries that keep accepts (until fn returns non-zero),
 * from the cache file when it is dir's as it is now and was made under key,
 * otherwise from list(NULL, dir, ...), and then store them.  0 or -errno;
 * -ENOENT: no cache here (no cache_dir, dir gone): the caller lists.
 */
int nsb_gate_list_kept_cached(const char *cache_dir, const char *dir,
			      const unsigned char key[NSB_SHA256_LEN],
			      bool (*keep)(void *fnud, const char *name),
			      int (*fn)(void *fnud, const char *name, unsigned char type,
					unsigned long long ino),
			      void *fnud, nsb_list_dir_fn list);
