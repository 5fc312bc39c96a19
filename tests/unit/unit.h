/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the unit tests. */
#pragma once

#include <criterion/criterion.h>
#include <stdbool.h>
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
