/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The request document (issue 17; nsbox(1), REQUEST DOCUMENT): one JSON object
 * in place of the command line.  Pure: the caller reads the bytes.
 *
 * Each member names one row of the option table and is applied through that
 * row's own setter, in document order, with the value the command line would
 * carry (a JSON number as its text), so validation, limits and messages are
 * the command line's; then the same rules between options run.  The strings
 * the config points to live in the document's arena, which the caller keeps
 * for the process's lifetime.
 */
#pragma once

#include <stddef.h>

#include "base/error.h"
#include "base/json_parse.h"
#include "core/config.h"

/* Largest document: 1 MiB, as for the command line's argv. */
#define NSB_REQUEST_MAX_LEN (1u << 20)
/* actor, reason and side_effect: at most this many bytes each. */
#define NSB_REQUEST_MAX_META 256

/*
 * Parse buf[0..len) (src names it in messages: a file, "<stdin>", "fd 5") and
 * apply it to c, which holds what the command line set.  On error fills e
 * (stage "usage", the message "SRC:LINE:COLUMN: $.path: what") and returns
 * -EINVAL or -E2BIG.  d owns every string c points to afterwards.
 */
int nsb_request_apply(struct nsb_config *c, struct nsb_jdoc *d, const char *buf, size_t len,
		      const char *src, struct nsb_error *e);

/* The member ("limits.memory") that stands for the option ("--memory"),
 * written into buf, or NULL when the document has none (for tests). */
const char *nsb_request_member_of(const char *option, char *buf, size_t size);
