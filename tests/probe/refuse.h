/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* probe refuse|refuse-threads|refuse-procs|refuse-exit|refuse-futex|
 * personality (refuse.c); argv[0] is the command. */
int nsb_probe_refuse(int argc, char **argv);
