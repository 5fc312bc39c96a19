/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real filesystem behind struct nsb_fs_ops (gate_fs.c, impure):
 * realpath(3) and lstat(2) on the host.  which searches path_list
 * (colon-separated directories, inside paths mapped to host paths through
 * roots; NULL: the sandbox default PATH) by the rules of nsb_path_search.
 */
#pragma once

#include <stddef.h>

#include "gate/gate_input.h"

struct nsb_gate_fs_host {
	const struct nsb_gate_root *roots;
	size_t n_roots;
	const char *path_list;
	const char *cwd;       /* inside, for relative PATH entries; NULL: "/" */
	const char *cache_dir; /* nsb_gate_cache_dir's answer; NULL: no cache */
};
void nsb_gate_fs_host_ops(struct nsb_gate_fs_host *h, struct nsb_fs_ops *ret);
