/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * realpath(3), for many paths in the same directories (the sources of a
 * run's binds, issue 11): realpath asks the kernel about every name of a
 * path, and a thousand binds of one directory's entries repeat the same
 * directories a thousand times.
 *
 * known is an earlier answer of realpath or of this function, a
 * directory's: it and every directory above it were real then (no link, no
 * "." or "..").  When path lies in known or in one of its ancestors and
 * goes on with plain names only (no "." or "..", no empty one), only those
 * names are asked: each must exist and not be a link (readlink fails with
 * EINVAL).  Anything else is realpath's to answer, so the answer, and the
 * errno of a NULL return, are realpath's own.  A relative path is first
 * taken from cwd, which must be the working directory's real path (getcwd's
 * answer); then cwd is the known directory.  Nothing is kept between
 * calls: the caller keeps known for as long as it trusts it (one run).
 */
#pragma once

/* A malloc'd real path of path, or NULL with errno set. */
char *nsb_real_path(const char *path, const char *cwd, const char *known);
