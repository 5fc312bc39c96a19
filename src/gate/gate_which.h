/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The gate's command lookup (gate_which.c): the one PATH search
 * (base/path_search.h) run over the sandbox's view, through the roots.
 */
#pragma once

#include <stddef.h>

#include "gate/gate_input.h"

/*
 * Find the bare command name in path_list (NULL: in->path_list, else the
 * sandbox default) the way the payload and execvp inside the sandbox will:
 * relative entries and empty ones (the working directory) from in->cwd.
 * 0 with the host realpath of the hit in out; -ENOENT when nothing is
 * found; -EINVAL for a bad name.  With neither path_list nor in->path_list,
 * fs->which answers when there is one; without fs->exec_probe nothing else
 * is looked up.
 */
int nsb_gate_which(const struct nsb_gate_input *in, const char *path_list, const char *name,
		   char *out, size_t outsz);

/* The realpath (host) of a command named in argv, a bare name or a path; 0 or -errno. */
int nsb_gate_resolve(const struct nsb_gate_input *in, const char *path_list, const char *cmd,
		     char *out, size_t outsz);
