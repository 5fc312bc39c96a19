/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --seccomp-learn FILE: a filter that lets every native call run but shows
 * each to the supervisor first (user notification, answered with
 * SECCOMP_USER_NOTIF_FLAG_CONTINUE), which counts them; at the end the
 * counts become a profile in nsbox-profile(5) syntax, merged with what FILE
 * already allows, so that several runs build one profile.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "seccomp/filter.h"

/* Syscall numbers counted (x86_64's are below 512). */
#define NSB_LEARN_MAX_NR 1024

/* What the learning runs used: a syscall is in the profile when used. */
struct nsb_learned {
	bool used[NSB_LEARN_MAX_NR];
	uint64_t counts[NSB_LEARN_MAX_NR]; /* calls seen, summed over the runs */
	uint64_t other;			   /* calls of numbers past the table */
	unsigned runs;			   /* this one and those merged */
};

/*
 * The learning program into *ret (bpf.learn and bpf.notify set): a foreign
 * ABI answers ENOSYS as in the built-in profiles; sendmsg and close run
 * unseen (init hands the listener over with them, before the supervisor can
 * answer anything); everything else is notified.
 */
int nsb_seccomp_learn_program(struct nsb_bpf *ret, struct nsb_error *e);

/*
 * Add what the profile at path allows to counts: its unconditional allow
 * rules (count 0 unless its "# nsbox-learn:" lines give one).  0 when there
 * is no such file (nothing to merge), -errno with e set when it cannot be
 * read or parsed.
 */
int nsb_learn_merge(const char *path, struct nsb_learned *l, struct nsb_error *e);

/*
 * Write the learned profile for counts to out: `default errno EPERM`, the
 * built-in groups (defined inline) whose every syscall was used, then each
 * other used syscall, with counts in comments and the counts again in
 * "# nsbox-learn:" lines for the next merge.  what names the command.
 * Returns 0 or -errno (e set).
 */
int nsb_learn_write(FILE *out, const struct nsb_learned *l, const char *what, struct nsb_error *e);
