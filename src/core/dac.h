/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's discretionary access check, without capabilities: who may
 * read, write or search an inode by its owner, group and mode bits alone.
 * Root inside the sandbox is uid 0 with no capabilities, so a --rw
 * directory of another user is as closed to it as to anyone else; the
 * supervisor uses this to warn before the run.  Pure.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The inode's side of the check (from struct stat). */
struct nsb_dac_inode {
	uid_t uid;
	gid_t gid;
	mode_t mode;
};

/*
 * May a process with fsuid uid, fsgid gid and supplementary groups (n of
 * them) do `want` (R_OK, W_OK, X_OK, or'ed) without CAP_DAC_OVERRIDE?  As
 * generic_permission() decides it: exactly one class applies (owner, else
 * group, else other) and its bits must hold all of want; a class that denies
 * is not rescued by a wider one.  POSIX ACLs are not read.
 */
bool nsb_dac_allows(const struct nsb_dac_inode *ino, uid_t uid, gid_t gid, const gid_t *groups,
		    size_t n, int want);
