/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one PATH search (pure): which candidate "DIR/NAME" a bare command name
 * stands for.  The rules are the sandbox's own (init's execve lookup):
 * entries are split on ':', taken in order; an empty entry is skipped; a
 * candidate longer than the output buffer is skipped; the first candidate
 * the probe calls executable wins.  Whether a candidate is there, and
 * whether a relative entry means anything, is the probe's business: it sees
 * the candidate exactly as written.
 */
#pragma once

#include <stddef.h>

/* What a probe answers for one candidate path. */
enum {
	NSB_PATH_ABSENT = 0, /* not there, not a file, or not to be considered */
	NSB_PATH_EXEC = 1,   /* an executable file: the search stops here */
	NSB_PATH_NOEXEC = 2, /* there, but not executable: remembered, search goes on */
};

typedef int (*nsb_path_probe_fn)(void *ud, const char *candidate);

/*
 * Search path_list (NULL: empty) for name, which must be non-empty and hold
 * no '/'.  Returns 0 with the winning candidate in out, -ENOENT when no
 * candidate is there, -EACCES when some were there but none executable,
 * -EINVAL for a bad name.  out is written only on success.
 */
int nsb_path_search(const char *path_list, const char *name, nsb_path_probe_fn probe, void *ud,
		    char *out, size_t outsz);
