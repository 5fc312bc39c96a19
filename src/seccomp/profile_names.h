/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names a seccomp profile may write (nsbox-profile(5)), for the parser in
 * profile.c.  Pure lookups in fixed tables (libseccomp's own tables for the
 * architectures): no kernel, no allocation.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* A named constant for a condition value ("CLONE_NEWUSER", "AF_PACKET"),
 * from this host's headers: filters are only built for the native arch. */
bool nsb_profile_constant(const char *name, uint64_t *ret);

/* "x86_64" for SCMP_ARCH_X86_64; "this architecture" for one not listed. */
const char *nsb_profile_arch_name(uint32_t token);

/* Another architecture than native on which syscall exists, to tell "not on
 * this architecture" from "unknown"; NULL when there is none. */
const char *nsb_profile_other_arch(uint32_t native, const char *syscall);
