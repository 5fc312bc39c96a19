/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one error contract.  Every fallible function returns >= 0 or -errno and,
 * where the caller passed one, fills a struct nsb_error with the stage, the
 * message and a hint.  Only main.c prints it.  The struct is fixed-size and
 * smaller than PIPE_BUF so a child can send it to the supervisor in one
 * atomic write.
 */
#pragma once

#include <limits.h>
#include <stdarg.h>
#include <linux/limits.h> /* PIPE_BUF, PATH_MAX whatever the feature macros */
#include "base/macro.h"
#include "base/stage.h"

#define NSB_ERR_STAGE_MAX   32 /* the longest stage name, with its NUL (unit-tested) */
#define NSB_ERR_MESSAGE_MAX 1536
#define NSB_ERR_HINT_MAX    1024

struct nsb_error {
	int err;			   /* the record's errno: positive; 0 when none was set */
	enum nsb_stage stage;		   /* NSB_STAGE_NONE when no error was set */
	char message[NSB_ERR_MESSAGE_MAX]; /* "<what> '<path>': <why>", no "nsbox:" prefix */
	char hint[NSB_ERR_HINT_MAX];	   /* empty when there is none */
};

_Static_assert(sizeof(struct nsb_error) <= PIPE_BUF, "nsb_error must fit one atomic pipe write");

/*
 * Record an error; returns err (or -EIO when err is 0) so a call site is one
 * line: return nsb_error_set(e, r, NSB_STAGE_MOUNT, "bind-mount '%s'", src);
 * err is a negative errno (-EINVAL, -errno, a callee's r), or 0 for -EIO.  A
 * positive err is a bug at the call site: it fails an assert (never compiled
 * out: no build defines NDEBUG), so tests and fuzzing find it.
 * The errno text is appended to the message as ": <strerror>" when err != 0.
 * e may be NULL.
 */
int nsb_error_set(struct nsb_error *e, int err, enum nsb_stage stage, const char *fmt, ...)
	_printf_(4, 5);

/* Same, without appending strerror (for errors that are not kernel errors). */
int nsb_error_setx(struct nsb_error *e, int err, enum nsb_stage stage, const char *fmt, ...)
	_printf_(4, 5);

/*
 * The core of nsb_error_setx for modules' own varargs wrappers (a parser's
 * "FILE:LINE:COL: message"): the message is "WHERE: <fmt...>", or only
 * <fmt...> when where is NULL.
 */
int nsb_error_vsetx(struct nsb_error *e, int err, enum nsb_stage stage, const char *where,
		    const char *fmt, va_list ap) _printf_(5, 0);

/* Attach a hint to an error already set; returns -e->err. */
int nsb_error_hint(struct nsb_error *e, const char *fmt, ...) _printf_(2, 3);

/* Reset to "no error". */
void nsb_error_clear(struct nsb_error *e);
