/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nsbox's own exit statuses (nsbox(1) EXIT STATUS, DESIGN.md section 4).
 * Every other status is the command's: its exit code, or 128+N for signal N.
 */
#pragma once

#define NSB_EXIT_DENIED	   123 /* refused by the front gate: nothing ran */
#define NSB_EXIT_TIMED_OUT 124 /* the wall-clock timeout fired */
#define NSB_EXIT_NSBOX	   125 /* invalid invocation, or the sandbox could not be set up */
#define NSB_EXIT_NOEXEC	   126 /* the command was found inside but could not be executed */
#define NSB_EXIT_NOTFOUND  127 /* the command was not found inside the sandbox */
#define NSB_EXIT_SIGNAL	   128 /* plus N: the command was killed by signal N */
