/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command line → struct nsb_config.  Pure: no syscalls, no output.  Every
 * value is validated here; anything the kernel must judge (does the path
 * exist?) is left to the plan's resolution step.
 */
#pragma once

#include "core/config.h"
#include "base/error.h"

/* The --help text (also the USAGE reference for the man page). */
extern const char nsb_cli_usage[];

/*
 * The option table, read-only, in --help order: row I's name ("--ro") and,
 * in *ret_metavar, its value as --help spells it ("PATH[:DEST]"; NULL for a
 * flag).  NULL past the last row.  For tests, and later completions.
 */
const char *nsb_cli_option(size_t i, const char **ret_metavar);

/*
 * Parse argv.  On error fills e (stage "usage") and returns -EINVAL,
 * -E2BIG (a count or size limit) or -ENAMETOOLONG (a path); c->result_fd is still set when --result-fd was parsed before the
 * error, so main can write a usage_error record.
 */
int nsb_cli_parse(int argc, char *const *argv, struct nsb_config *c, struct nsb_error *e);
