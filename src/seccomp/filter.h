/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Seccomp: find a profile, compile it once with libseccomp (in the
 * supervisor), and install the precompiled program in the sandbox.
 *
 *   supervisor:  struct nsb_bpf bpf;
 *                nsb_seccomp_load("default", &bpf, &err);   // find, parse, compile
 *                nsb_seccomp_bind_ids(&bpf, uid, gid, &err); // the unmapped-ids filter
 *                ... record bpf.profile, bpf.sha256, bpf.default_action ...
 *   child:       prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
 *                nsb_seccomp_install(&bpf, &err);            // last step before execve
 *   supervisor:  nsb_bpf_free(&bpf);
 *
 * The child only reads the program the supervisor built before fork:
 * installing allocates nothing and calls one syscall.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "base/error.h"
#include "seccomp/profile.h"
#include "base/sha256.h"

#define NSB_SECCOMP_ACTION_MAX 32
#define NSB_SECCOMP_MAX_INSNS  4096 /* BPF_MAXINSNS: the kernel refuses longer programs */
#define NSB_SECCOMP_IDS_INSNS  128  /* room for the unmapped-ids program (it needs 96) */

struct nsb_bpf {
	bool none; /* "none": no filter is installed */
	/* As the caller named it; malloc'd (nsb_bpf_free), not a PATH_MAX
	 * array, so that a run's bpf does not dirty a page for a short name,
	 * and a copy: init rewrites the argument block the name may be in. */
	char *profile;
	bool builtin; /* the program is the built-in one (seccomp/builtin.h), no file was read */
	char sha256[NSB_SHA256_HEX];		     /* of the raw program; "" for none */
	char default_action[NSB_SECCOMP_ACTION_MAX]; /* "errno EPERM"...; "" for none */
	struct sock_filter *insns;		     /* owned; NULL for none */
	size_t n_insns;

	/*
	 * The profile's `unmapped-ids` filter: "" when the profile has none.
	 * Its program depends on the caller's uid and gid, so it is built by
	 * nsb_seccomp_bind_ids(), kept apart from the profile's program (the
	 * sha256 and --seccomp-export cover the profile's program only) and
	 * installed just before it, or in front of it as one program (joined).
	 */
	char ids_action[NSB_SECCOMP_ACTION_MAX];
	struct nsb_action ids_act;
	struct sock_filter *ids; /* owned; NULL until bound */
	size_t n_ids;
	/* ids followed by the profile's program, as one (nsb_seccomp_join);
	 * NULL when the two must stay apart.  Installed instead of both. */
	struct sock_filter *joined;
	size_t n_joined;

	/* The program sends its reported refusals (errno rules without
	 * `quiet`, and such a default) to a listener: SECCOMP_RET_USER_NOTIF
	 * with the errno in the data bits (filter.c says why). */
	bool notify;
	/* --seccomp-learn's program (learn.h): every call is notified and let
	 * continue; never installed without a listener. */
	bool learn;
	/* notify was dropped: the profile refuses sendmsg or close, with which
	 * init hands the listener over (nsb_seccomp_keep_handoff). */
	bool handoff_refused;
};

/* The native arch's AUDIT_ARCH_ value (seccomp_arch_native(), without
 * calling libseccomp where it is known at build time). */
uint32_t nsb_seccomp_arch(void);

/* Compile a parsed profile for the native architecture into ret (which the
 * caller releases with nsb_bpf_free): libseccomp's program, shortened by
 * nsb_bpf_optimize().  profile is left NULL. */
int nsb_seccomp_compile(const struct nsb_profile *p, struct nsb_bpf *ret, struct nsb_error *e);

/* The same without nsb_bpf_optimize(): libseccomp's program as it exports
 * it (the tests compare the two). */
int nsb_seccomp_compile_unshortened(const struct nsb_profile *p, struct nsb_bpf *ret,
				    struct nsb_error *e);

/* find + load + compile; "none" gives a bpf with none set and no program. */
int nsb_seccomp_load(const char *name_or_path, struct nsb_bpf *ret, struct nsb_error *e);

/*
 * Build the unmapped-ids program into buf (size instructions): chown,
 * lchown, fchown, fchownat and set{,re,res}{u,g}id answer action when an id
 * argument's low 32 bits (uid_t and gid_t are 32 bits: all the kernel reads)
 * are neither uid (gid for group ids) nor 0xffffffff ("unchanged"); every
 * other call, and every call of another ABI, is allowed (the profile's own
 * filter judges those).  Pure: no allocation, no syscall.  -ENOBUFS when buf
 * is too small.
 */
int nsb_seccomp_ids_build(uint32_t uid, uint32_t gid, const struct nsb_action *action,
			  struct sock_filter *buf, size_t size, size_t *ret_n);

/*
 * The unmapped-ids program for uid/gid and the profile's program insns[n] as
 * one program that answers every call exactly as the two installed one after
 * the other would (the more severe answer, the profile's on a tie), into a
 * new *ret.  Possible only when the profile answers each id call by its
 * number alone: -EAGAIN otherwise; -E2BIG when too long, -ENOMEM.  Pure.
 */
int nsb_seccomp_join(const struct sock_filter *insns, size_t n, uint32_t uid, uint32_t gid,
		     const struct nsb_action *action, struct sock_filter **ret, size_t *ret_n);

/* Build b's unmapped-ids program for the ids the sandbox maps, and the
 * joined program when it can be (a no-op when the profile has no
 * unmapped-ids directive, or for none). */
int nsb_seccomp_bind_ids(struct nsb_bpf *b, uint32_t uid, uint32_t gid, struct nsb_error *e);

/*
 * Install the compiled program in the calling thread (no_new_privs or
 * CAP_SYS_ADMIN required by the kernel), preceded by the unmapped-ids program
 * when the profile asks for one (-EINVAL if it was never bound): the joined
 * program when there is one, else the two.  Allocates
 * nothing: safe between fork and execve.  A none bpf installs nothing and
 * returns 0.
 */
int nsb_seccomp_install(const struct nsb_bpf *b, struct nsb_error *e);

/*
 * As nsb_seccomp_install, but the program goes on with a listener
 * (SECCOMP_FILTER_FLAG_NEW_LISTENER) when it has notifications: *ret_listener
 * is the listener, to hand to the supervisor, or -1 when the program has none
 * or the kernel gives none (before Linux 5.0, or a listener already set by an
 * enclosing sandbox): then every notification is installed as its errno.
 */
int nsb_seccomp_install_listener(const struct nsb_bpf *b, int *ret_listener, struct nsb_error *e);

/*
 * init hands the listener to the supervisor with sendmsg and close, after
 * the filter is on and before anything can be answered: a program that
 * would notify (or refuse) those calls could never be served.  For such a
 * program, turn its notifications back into plain errno returns, clear
 * notify and set handoff_refused (the record says why nothing is reported).
 * Call before nsb_seccomp_bind_ids.  Pure.
 */
void nsb_seccomp_keep_handoff(struct nsb_bpf *b);

/* Turn every SECCOMP_RET_USER_NOTIF return of insns into the
 * SECCOMP_RET_ERRNO its data carries; returns how many.  Pure. */
size_t nsb_seccomp_unnotify(struct sock_filter *insns, size_t n);

/*
 * The outcome of a classic BPF comparison (BPF_JEQ, BPF_JGT, BPF_JGE,
 * BPF_JSET) of a with k, into *taken; false for any other operation.  The
 * interpreter, the unmapped-ids join and the shortening pass all decide a
 * jump with it.  Pure.
 */
static inline bool nsb_bpf_compare(uint16_t op, uint32_t a, uint32_t k, bool *taken)
{
	switch (op) {
	case BPF_JEQ:
		*taken = a == k;
		return true;
	case BPF_JGT:
		*taken = a > k;
		return true;
	case BPF_JGE:
		*taken = a >= k;
		return true;
	case BPF_JSET:
		*taken = (a & k) != 0;
		return true;
	}
	return false;
}

/*
 * Run the classic BPF program insns[n] on d, as the kernel would (for the
 * supervisor: which errno a notified call stands for).  A malformed program
 * answers SECCOMP_RET_KILL_PROCESS.  Pure.
 */
uint32_t nsb_bpf_eval(const struct sock_filter *insns, size_t n, const struct seccomp_data *d);

/* The same, and whether the run read anything past nr and arch (the call
 * site or an argument).  Where it did not, the program answers the same
 * for every argument: jumps depend only on what was read.  Pure. */
uint32_t nsb_bpf_eval_args(const struct sock_filter *insns, size_t n, const struct seccomp_data *d,
			   bool *ret_reads_args);

/*
 * Whether the programs nsb_seccomp_install() puts on for @b (the
 * unmapped-ids program where it is apart, and the main one) all answer
 * SECCOMP_RET_ALLOW to @d: what a process under them may call without
 * being refused, notified or killed.  True for "none".
 */
bool nsb_seccomp_allows(const struct nsb_bpf *b, const struct seccomp_data *d);

/* Whether those programs allow the native syscall @nr whatever its
 * arguments: each answers ALLOW without reading them.  Pure. */
bool nsb_seccomp_allows_any_args(const struct nsb_bpf *b, int nr);

/*
 * Whether insns[n] has the shape the kernel's seccomp checker asks for, in
 * the instructions nsb_bpf_optimize() knows: aligned loads from inside
 * seccomp_data, the scratch words and immediates, ALU without a division by
 * a zero constant, forward jumps that land inside, tax, txa, and a return
 * last (not the checker's rule that a scratch word is written before it is
 * read, which no rewrite can break).  Pure.
 */
bool nsb_bpf_valid(const struct sock_filter *insns, size_t n);

/*
 * Rewrite insns[n] in place into a program that answers every seccomp_data
 * as the input does, in as many instructions or fewer (bpf_opt.c: which
 * rewrites, and why they keep the answers); returns the new length, or
 * -ENOMEM.  A program nsb_bpf_valid() refuses is left as it is.  Pure.
 */
int nsb_bpf_optimize(struct sock_filter *insns, size_t n);

/* Write the raw program (struct sock_filter array, host byte order, as
 * `bwrap --seccomp FD` reads it) to fd.  -EINVAL for a none bpf. */
int nsb_seccomp_export(const struct nsb_bpf *b, int fd, struct nsb_error *e);

/* Free the program; the struct may be reused. */
void nsb_bpf_free(struct nsb_bpf *b);
