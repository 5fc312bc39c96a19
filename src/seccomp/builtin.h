/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The built-in profiles: `default` and `strict` compiled at build time by
 * tools/profile_embed.c (with this parser and libseccomp, exactly as
 * nsb_seccomp_compile does at run time) from seccomp-profiles/, which stay
 * the source of truth; their texts (and that of `groups`, which they
 * include) come along for --print-profile.  The table is generated into
 * $(BUILD)/gen/seccomp_builtin.c, so a binary copied alone runs its defaults
 * without reading any file.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>

#include "seccomp/profile.h"

struct nsb_builtin_profile {
	const char *name; /* "default" */
	const char *text; /* the profile file, NUL-terminated */
	size_t text_len;  /* without the NUL */
	const char *text_sha256;
	/* The compiled program; NULL for a text only (`groups`). */
	const struct sock_filter *insns;
	size_t n_insns;
	uint32_t arch;	    /* seccomp_arch_native() of the compiler */
	const char *sha256; /* of the program, as nsb_seccomp_compile computes it */
	const char *default_action;
	const char *ids_action; /* "" without unmapped-ids */
	struct nsb_action ids_act;
	bool notify; /* struct nsb_bpf's notify */
};

extern const struct nsb_builtin_profile nsb_builtin_profiles[];
extern const size_t nsb_n_builtin_profiles;

/* The built-in entry called name, NULL when there is none. */
const struct nsb_builtin_profile *nsb_builtin_profile(const char *name);

/* The built-in entry called name (--print-profile): -EINVAL and a usage
 * error naming the built-in profiles when there is none. */
int nsb_builtin_text(const char *name, const struct nsb_builtin_profile **ret, struct nsb_error *e);
