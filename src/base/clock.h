/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monotonic clock in whole units, for durations and deadlines.
 *
 * Inline, so that a caller in .text.hot (base/macro.h's _waiting_) reads the
 * clock without calling into other text; clock_gettime(CLOCK_MONOTONIC) is
 * the vDSO's, with no system call.
 */
#pragma once

#include <stdint.h>
#include <time.h>

static inline uint64_t nsb_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int64_t nsb_mono_ms(void)
{
	return (int64_t)(nsb_mono_ns() / 1000000u);
}
