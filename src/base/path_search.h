/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one PATH search (pure): which candidate "DIR/NAME" a bare command name
 * stands for.  The payload's execve lookup and the gate's (the command and
 * every command a wrapper runs) both go through it, with the rules of
 * execvp(3), which the wrappers inside the sandbox use: entries are split on
 * ':', taken in order; an empty entry means the working directory ("./NAME");
 * a relative entry is relative to the working directory (the probe resolves
 * it there); a candidate longer than the output buffer is skipped; the first
 * candidate the probe calls executable wins.  What a candidate is, is
 * nsb_path_kind's answer for both probes: they differ only in where they
 * look (the sandbox's view, or the host through the gate's roots).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* What a probe answers for one candidate path. */
enum {
	NSB_PATH_ABSENT = 0, /* not there, not a file, or not to be considered */
	NSB_PATH_EXEC = 1,   /* an executable file: the search stops here */
	NSB_PATH_NOEXEC = 2, /* there, but not executable: remembered, search goes on */
};

typedef int (*nsb_path_probe_fn)(void *ud, const char *candidate);

struct stat;

/*
 * What stat(2) (following links) and access(X_OK) say a candidate is: a
 * regular file, executable or not; anything else that is not a directory
 * is there but cannot be run (execve fails with EACCES, and execvp goes on).
 * st NULL: stat failed.
 */
int nsb_path_kind(const struct stat *st, bool executable);

/*
 * Search path_list (NULL: no entry at all; "" is one empty entry) for name, which must be non-empty and hold
 * no '/'.  Returns 0 with the winning candidate in out, -ENOENT when no
 * candidate is there, -EACCES when some were there but none executable,
 * -EINVAL for a bad name.  out is written only on success.
 */
int nsb_path_search(const char *path_list, const char *name, nsb_path_probe_fn probe, void *ud,
		    char *out, size_t outsz);
