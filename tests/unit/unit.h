/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the unit tests. */
#pragma once

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * String equality with both values in the message.  Criterion's eq(str)
 * takes non-const pointers; the values checked here are mostly const.
 */
static inline void expect_str_at(const char *got, const char *want, const char *ctx)
{
	bool same = strcmp(got ? got : "(null)", want) == 0;
	cr_expect(same, "%s: got '%s', want '%s'", ctx, got ? got : "(null)", want);
}

#define expect_str(got, want) expect_str_at((got), (want), #got)

/* A new directory under /tmp named prefix-XXXXXX, its realpath in out. */
static inline void unit_tmpdir(const char *prefix, char *out, size_t outsz)
{
	char tmpl[128], real[4096];
	int n = snprintf(tmpl, sizeof(tmpl), "/tmp/%s-XXXXXX", prefix);
	cr_assert(n > 0 && (size_t)n < sizeof(tmpl));
	cr_assert(mkdtemp(tmpl) != NULL, "mkdtemp %s", tmpl);
	cr_assert(realpath(tmpl, real) != NULL);
	cr_assert(strlen(real) < outsz, "%s: too long", real);
	memcpy(out, real, strlen(real) + 1);
}
