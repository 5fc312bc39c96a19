/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --request FILE|- and --request-fd N: read the document (at most
 * NSB_REQUEST_MAX_LEN bytes) and apply it to the config (core/request.h).
 */
#pragma once

#include "base/error.h"
#include "base/json_parse.h"
#include "core/config.h"

/*
 * Read the document c names and apply it.  d keeps every string c points to:
 * the caller holds it for the process's lifetime.  Errors fill e (stage
 * "usage": an unreadable file is the caller's mistake, like a bad option)
 * and return a negative errno.
 */
int nsb_request_load(struct nsb_config *c, struct nsb_jdoc *d, struct nsb_error *e);
