/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Symbolic errno names: the one table behind the record's "errno_name" and a
 * seccomp profile's `errno NAME`.  Pure.
 */
#pragma once

#include <stdbool.h>

/* Which use a name is for: the record names more values than a profile may
 * write (and a profile accepts an alias the record never prints). */
#define NSB_ERRNAME_RECORD  1u
#define NSB_ERRNAME_PROFILE 2u

/* Symbolic name of an errno value, either sign ("ENOENT"), as the record
 * writes it; NULL for 0 or an unlisted number. */
const char *nsb_errno_name(int err);

/* The first name of value err (either sign) that use may see; NULL if none. */
const char *nsb_errno_name_for(int err, unsigned use);

/* The value of name, when use may see it. */
bool nsb_errno_by_name(const char *name, unsigned use, int *ret);
