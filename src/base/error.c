// SPDX-License-Identifier: GPL-2.0-or-later
/* The error contract (error.h): filling a struct nsb_error; any process. */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/fmt.h"
#include "base/error.h"

static _printf_(6, 0) int error_vset(struct nsb_error *e, int err, enum nsb_stage stage,
				     int with_errno, const char *where, const char *fmt, va_list ap)
{
	/* One sign: a positive errno here means a call site was not converted. */
	assert(err <= 0);
	err = -err;
	if (err == 0)
		err = EIO;
	if (!e)
		return -err;

	e->err = err;
	e->stage = stage;
	size_t at = 0;
	if (where) {
		/* "WHERE: " then the text: cut as one string would be. */
		nsb_format(e->message, sizeof(e->message), "%s: ", where);
		at = strlen(e->message);
	}
	nsb_vformat(e->message + at, sizeof(e->message) - at, fmt, ap);
	if (with_errno) {
		size_t len = strlen(e->message);
		nsb_format(e->message + len, sizeof(e->message) - len, ": %s", strerror(err));
	}
	e->hint[0] = '\0';
	return -err;
}

int nsb_error_set(struct nsb_error *e, int err, enum nsb_stage stage, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = error_vset(e, err, stage, 1, NULL, fmt, ap);
	va_end(ap);
	return r;
}

int nsb_error_setx(struct nsb_error *e, int err, enum nsb_stage stage, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = error_vset(e, err, stage, 0, NULL, fmt, ap);
	va_end(ap);
	return r;
}

int nsb_error_vsetx(struct nsb_error *e, int err, enum nsb_stage stage, const char *where,
		    const char *fmt, va_list ap)
{
	return error_vset(e, err, stage, 0, where, fmt, ap);
}

int nsb_error_hint(struct nsb_error *e, const char *fmt, ...)
{
	if (!e)
		return -EIO;
	va_list ap;
	va_start(ap, fmt);
	nsb_vformat(e->hint, sizeof(e->hint), fmt, ap);
	va_end(ap);
	return e->err ? -e->err : -EIO;
}

void nsb_error_clear(struct nsb_error *e)
{
	if (e)
		memset(e, 0, sizeof(*e));
}
