/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --overlay-mode export:PATH and nsbox apply PATH DIR.  An export is a
 * directory the caller can read, diff and keep:
 *
 *   PATH/changes   the change set, one change a line (nsbox(1), OVERLAYS):
 *                  "nsbox-overlay-export 1" then
 *                  OP TAB TYPE TAB MODE TAB SHA256 TAB LOWER-SHA256 TAB PATH
 *                  OP: add, mod, del, skip; '-' where a field has no value;
 *                  PATH with '%', TAB, control bytes and DEL as %XX
 *   PATH/files/    each added or modified file and symlink at its path
 *
 * nsbox apply checks DIR first, every change before any is applied: a
 * modified or deleted file must still hold the content the run saw
 * (LOWER-SHA256), a modified or deleted entry must still be there with its
 * type, an added one must not be there (unless the set deletes it or a
 * parent first).  Then it applies the changes with the commit's rules
 * (supervisor/overlay_apply.h).
 */
#pragma once

#include <stdio.h>

#include "base/error.h"

/* Write upper's change set against lower (DIR) into a new directory path. */
int nsb_ovl_export(int upper, int lower, const char *path, struct nsb_error *e);

/* nsbox apply: export (a directory written by nsb_ovl_export) into dir.
 * 0, -ESTALE when DIR changed since the run (e says where), or -errno. */
int nsb_ovl_apply_export(const char *export, const char *dir, struct nsb_error *e);

/* Parse one line of "changes" (modified in place): fields into ret[6], the
 * path unescaped.  0 or -EINVAL.  Pure (fuzzed). */
int nsb_ovl_parse_line(char *line, char *ret[6]);
