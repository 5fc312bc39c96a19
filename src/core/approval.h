/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The approval id (issue 17, nsbox-policy(5) APPROVALS): SHA-256 of a
 * canonical serialisation of everything in struct nsb_config that decides
 * what runs, plus the effective policy's hash.  An --approved ID lets a
 * request run only when it hashes to the same id, so an approval given for
 * what --check showed cannot be reused for anything else.  Pure: the few
 * facts from outside the config (the caller's directory, the values of
 * --env NAME, the compiled filter's hash) are handed in.
 */
#pragma once

#include <stdbool.h>

#include "base/sha256.h"
#include "core/config.h"

/* An approval_id: 64 lower-case hex digits and a NUL. */
#define NSB_APPROVAL_ID_LEN (2 * NSB_SHA256_LEN)

struct nsb_approval_in {
	const struct nsb_config *cfg;
	/* The caller's working directory (realpath): relative paths in the
	 * options and the default project mean something else elsewhere. */
	const char *cwd;
	/* Lower-case hex SHA-256 of the effective policy as --print-policy
	 * writes it. */
	const char *policy_sha256;
	/* The compiled seccomp program's hash; NULL for "none".  A profile
	 * file edited after the approval changes it. */
	const char *seccomp_sha256;
	/* The value --env NAME passes in (the caller's environment); NULL:
	 * unset.  May be NULL itself: every bare NAME is then unset. */
	const char *(*getenv)(const char *name);
};

/*
 * The id of the request into ret (NSB_SHA256_HEX bytes, lower case).
 * Lists whose order does not change the run (the gate's name and path
 * lists, the network lists, --mask) are sorted first; mounts keep their
 * order (a later mount covers an earlier one), and so do --env entries of
 * one NAME (the last wins).  Returns 0 or -ENOMEM.
 */
int nsb_approval_id(const struct nsb_approval_in *in, char ret[NSB_SHA256_HEX]);

/* Is s an approval_id: exactly 64 hex digits (either case)? */
bool nsb_approval_id_valid(const char *s);

/* Do two approval ids name the same request (case-insensitive)? */
bool nsb_approval_id_equal(const char *a, const char *b);
