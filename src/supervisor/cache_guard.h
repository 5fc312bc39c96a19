/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nsbox's own cache (gate/gate_fs_cache.c) is believed by later runs, so no
 * payload may write it (cache_guard.c): where a writable bind of this run
 * reaches a cache directory, the protect scan covers it.
 */
#pragma once

#include <stddef.h>

#include "base/error.h"
#include "core/plan.h"

/*
 * For each place a writable user bind of p reaches a cache directory, call
 * fn(ud, op, rel): the bind's index and the directory relative to its root
 * (never empty), after making the directory so that it exists to be
 * covered.  A writable bind of a cache directory itself, or of a folder
 * inside one, is refused (-EPERM, e set).  0, or fn's or that error.
 */
int nsb_cache_guard(const struct nsb_plan *p, int (*fn)(void *ud, size_t op, const char *rel),
		    void *ud, struct nsb_error *e);
