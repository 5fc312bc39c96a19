// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seccomp filters (supervisor compiles, init installs): a parsed profile to a
 * BPF program with libseccomp, install, export (the unmapped-ids program is
 * built in ids.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <seccomp.h>

#include "seccomp/filter.h"

static void seccomp_releasep(scmp_filter_ctx *ctx)
{
	if (*ctx)
		seccomp_release(*ctx);
}

uint32_t nsb_seccomp_arch(void)
{
	/* The kernel's AUDIT_ARCH_ value, which libseccomp's tokens are:
	 * known at build time for the common ones, so that a run touches no
	 * page of libseccomp (its text would count in every supervisor). */
#if defined(__x86_64__) && !defined(__ILP32__)
	return AUDIT_ARCH_X86_64;
#elif defined(__aarch64__) && !defined(__AARCH64EB__) && !defined(__ILP32__)
	return AUDIT_ARCH_AARCH64;
#else
	return seccomp_arch_native();
#endif
}

/* ---- compiling --------------------------------------------------------- */

/*
 * A reported refusal (an errno action without `quiet`) is compiled as
 * SCMP_ACT_TRACE(errno), an action no profile can ask for, and every such
 * return is then rewritten to SECCOMP_RET_USER_NOTIF with the errno kept in
 * its data bits (mark_notify): the kernel ignores them for USER_NOTIF, the
 * supervisor reads them back by running the program on the notification's
 * data (nsb_bpf_eval), and without a listener they turn the return back into
 * the very ERRNO it stands for (nsb_seccomp_unnotify).  libseccomp 2.5 can
 * give USER_NOTIF no data, hence the stand-in.
 */
static uint32_t scmp_action(const struct nsb_action *a, bool notify)
{
	switch (a->kind) {
	case NSB_ACTION_ALLOW:
		return SCMP_ACT_ALLOW;
	case NSB_ACTION_ERRNO:
		if (notify && !a->quiet)
			return SCMP_ACT_TRACE((uint32_t)a->errno_value);
		return SCMP_ACT_ERRNO((uint32_t)a->errno_value);
	case NSB_ACTION_KILL:
		/* The whole process: killing one thread of a multi-threaded
		 * program leaves it in a state nobody designed for. */
		return SCMP_ACT_KILL_PROCESS;
	case NSB_ACTION_LOG:
		return SCMP_ACT_LOG;
	case NSB_ACTION_TRAP:
		return SCMP_ACT_TRAP;
	}
	return SCMP_ACT_KILL_PROCESS;
}

static enum scmp_compare scmp_op(enum nsb_cmp op)
{
	switch (op) {
	case NSB_CMP_EQ:
		return SCMP_CMP_EQ;
	case NSB_CMP_NE:
		return SCMP_CMP_NE;
	case NSB_CMP_LT:
		return SCMP_CMP_LT;
	case NSB_CMP_LE:
		return SCMP_CMP_LE;
	case NSB_CMP_GT:
		return SCMP_CMP_GT;
	case NSB_CMP_GE:
		return SCMP_CMP_GE;
	case NSB_CMP_MASKED_EQ:
		return SCMP_CMP_MASKED_EQ;
	}
	return _SCMP_CMP_MIN;
}

/* The stand-ins (scmp_action) become user notifications; returns how many. */
static size_t mark_notify(struct sock_filter *insns, size_t n)
{
	size_t hits = 0;

	for (size_t i = 0; i < n; i++)
		if (insns[i].code == (BPF_RET | BPF_K) &&
		    (insns[i].k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_TRACE) {
			insns[i].k = SECCOMP_RET_USER_NOTIF | (insns[i].k & SECCOMP_RET_DATA);
			hits++;
		}
	return hits;
}

size_t nsb_seccomp_unnotify(struct sock_filter *insns, size_t n)
{
	size_t hits = 0;

	for (size_t i = 0; i < n; i++)
		if (insns[i].code == (BPF_RET | BPF_K) &&
		    (insns[i].k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_USER_NOTIF) {
			insns[i].k = SECCOMP_RET_ERRNO | (insns[i].k & SECCOMP_RET_DATA);
			hits++;
		}
	return hits;
}

void nsb_seccomp_keep_handoff(struct nsb_bpf *b)
{
	/* The calls as nsb_fd_send and close make them (the message's
	 * address is not known here: no profile rule can judge it anyway). */
	const struct seccomp_data calls[] = {
		{.nr = SYS_sendmsg, .arch = nsb_seccomp_arch(), .args = {3, 0, MSG_NOSIGNAL}},
		{.nr = SYS_close, .arch = nsb_seccomp_arch(), .args = {3}},
	};

	if (b->none || !b->notify || b->learn)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(calls); i++) {
		uint32_t ret =
			nsb_bpf_eval(b->insns, b->n_insns, &calls[i]) & SECCOMP_RET_ACTION_FULL;
		if (ret != SECCOMP_RET_ALLOW && ret != SECCOMP_RET_LOG) {
			nsb_seccomp_unnotify(b->insns, b->n_insns);
			b->notify = false;
			b->handoff_refused = true;
			return;
		}
	}
}

/* seccomp_export_bpf() only writes to an fd (libseccomp 2.5 has no in-memory
 * export): go through a memfd and read the program back. */
static int export_to_memory(scmp_filter_ctx ctx, struct sock_filter **ret, size_t *ret_n,
			    struct nsb_error *e)
{
	_cleanup_close_ int fd = memfd_create("nsbox-seccomp", MFD_CLOEXEC);
	if (fd < 0)
		return nsb_error_set(e, -errno, NSB_STAGE_PROFILE, "memfd_create");
	int r = seccomp_export_bpf(ctx, fd);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_PROFILE, "export the compiled filter");
	off_t size = lseek(fd, 0, SEEK_END);
	if (size < 0)
		return nsb_error_set(e, -errno, NSB_STAGE_PROFILE, "export the compiled filter");
	if (size == 0 || size % (off_t)sizeof(struct sock_filter) != 0)
		return nsb_error_setx(e, -EIO, NSB_STAGE_PROFILE,
				      "compiled filter has an invalid size (%lld bytes)",
				      (long long)size);
	size_t n = (size_t)size / sizeof(struct sock_filter);
	if (n > NSB_SECCOMP_MAX_INSNS) {
		nsb_error_setx(
			e, -E2BIG, NSB_STAGE_PROFILE,
			"compiled filter has %zu instructions, the kernel accepts at most %d", n,
			NSB_SECCOMP_MAX_INSNS);
		return nsb_error_hint(e, "split large groups or use fewer argument conditions");
	}
	_cleanup_free_ struct sock_filter *insns = malloc((size_t)size);
	if (!insns)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PROFILE, "export the compiled filter");
	for (size_t done = 0; done < (size_t)size;) {
		ssize_t got = pread(fd, (char *)insns + done, (size_t)size - done, (off_t)done);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return nsb_error_set(e, got < 0 ? -errno : -EIO, NSB_STAGE_PROFILE,
					     "read the compiled filter");
		done += (size_t)got;
	}
	*ret = TAKE_PTR(insns);
	*ret_n = n;
	return 0;
}

static int compile(const struct nsb_profile *p, bool optimize, struct nsb_bpf *ret,
		   struct nsb_error *e)
{
	/*
	 * Only the native arch is in the filter, so anything else (the i386
	 * int 0x80 entry, x32 numbers with bit 30 set) takes the bad-arch
	 * action.  Its default is ENOSYS rather than a kill: the call never
	 * runs either way, and ENOSYS is what a kernel built without that ABI
	 * answers, so libcs and probes fall back or report instead of dying.
	 * A profile can ask for more with `badarch kill`.
	 */
	/* p is never NULL: nsb_profile_load fills it whenever it returns >= 0 */
	struct nsb_action badarch =
		// NOLINTNEXTLINE(clang-analyzer-core.NullDereference)
		p->has_badarch ? p->badarch_action : (struct nsb_action){NSB_ACTION_ERRNO, ENOSYS};
	_cleanup_(seccomp_releasep) scmp_filter_ctx ctx =
		seccomp_init(scmp_action(&p->default_action, true));
	int r;

	if (!ctx)
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_PROFILE,
				      "libseccomp refused the default action");
	r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, scmp_action(&badarch, false));
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_PROFILE, "set the bad-arch action");
	/* The caller sets no_new_privs itself, at the point it chooses. */
	r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_PROFILE, "clear the no_new_privs attribute");
	/* Binary-tree dispatch: O(log n) per syscall for long allowlists.
	 * Older libseccomp lacks it; the linear program is equally correct. */
	r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if (r < 0 && r != -EINVAL && r != -EOPNOTSUPP)
		return nsb_error_set(e, r, NSB_STAGE_PROFILE, "enable binary-tree optimisation");

	for (size_t i = 0; i < p->n_rules; i++) {
		const struct nsb_rule *rule = &p->rules[i];
		struct scmp_arg_cmp cmp[NSB_PROFILE_MAX_CONDS];
		for (unsigned k = 0; k < rule->n_conds; k++) {
			const struct nsb_cond *c = &rule->conds[k];
			cmp[k] = (struct scmp_arg_cmp){
				.arg = c->arg,
				.op = scmp_op(c->op),
				.datum_a = c->op == NSB_CMP_MASKED_EQ ? c->mask : c->value,
				.datum_b = c->op == NSB_CMP_MASKED_EQ ? c->value : 0,
			};
		}
		r = seccomp_rule_add_exact_array(ctx, scmp_action(&rule->action, true), rule->nr,
						 rule->n_conds, cmp);
		if (r < 0)
			return nsb_error_set(e, r, NSB_STAGE_PROFILE,
					     "%s:%u:%u: libseccomp refused the rule for '%s'",
					     rule->origin.file, rule->origin.line, rule->origin.col,
					     rule->name);
	}

	struct nsb_bpf b = {0};
	r = export_to_memory(ctx, &b.insns, &b.n_insns, e);
	if (r < 0)
		return r;
	if (optimize) {
		r = nsb_bpf_optimize(b.insns, b.n_insns);
		if (r < 0) {
			free(b.insns);
			return nsb_error_set(e, r, NSB_STAGE_PROFILE,
					     "shorten the compiled filter");
		}
		b.n_insns = (size_t)r;
	}
	b.notify = mark_notify(b.insns, b.n_insns) > 0;
	nsb_sha256_hex(b.insns, b.n_insns * sizeof(*b.insns), b.sha256);
	nsb_action_format(&p->default_action, b.default_action, sizeof(b.default_action));
	if (p->has_unmapped_ids) {
		b.ids_act = p->unmapped_ids_action;
		nsb_action_format(&b.ids_act, b.ids_action, sizeof(b.ids_action));
	}
	*ret = b;
	return 0;
}

int nsb_seccomp_compile(const struct nsb_profile *p, struct nsb_bpf *ret, struct nsb_error *e)
{
	return compile(p, true, ret, e);
}

int nsb_seccomp_compile_unshortened(const struct nsb_profile *p, struct nsb_bpf *ret,
				    struct nsb_error *e)
{
	return compile(p, false, ret, e);
}

/* ---- installing -------------------------------------------------------- */

static int install_program(const struct sock_filter *insns, size_t n, unsigned flags,
			   const char *what, const struct nsb_bpf *b, struct nsb_error *e)
{
	struct sock_fprog prog = {
		.len = (unsigned short)n,
		/* The kernel only reads it (sock_fprog has no const). */
		.filter = (struct sock_filter *)(uintptr_t)insns,
	};
	/* No TSYNC: this runs in a single-threaded child right before execve.
	 * seccomp(2) first; PR_SET_SECCOMP only for kernels older than 3.17
	 * (and never with flags: those kernels have none). */
	long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	if (r < 0 && errno == ENOSYS && flags == 0)
		r = prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
	if (r < 0) {
		int err = errno;
		nsb_error_set(e, -err, NSB_STAGE_SECCOMP, "install %sseccomp profile '%s'", what,
			      b->profile);
		if (err == EACCES)
			nsb_error_hint(
				e,
				"set no_new_privs (prctl PR_SET_NO_NEW_PRIVS) before installing the filter");
		return -err;
	}
	return (int)r; /* the listener with SECCOMP_FILTER_FLAG_NEW_LISTENER, else 0 */
}

static int check_installable(const struct nsb_bpf *b, struct nsb_error *e)
{
	if (!b->insns || b->n_insns == 0 || b->n_insns > NSB_SECCOMP_MAX_INSNS)
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_SECCOMP,
				      "no compiled seccomp program to install");
	/* Asked for and not built is a failure, never a filter quietly left out. */
	if (b->ids_action[0] && (!b->ids || b->n_ids == 0 || b->n_ids > NSB_SECCOMP_IDS_INSNS))
		return nsb_error_setx(
			e, -EINVAL, NSB_STAGE_SECCOMP,
			"the unmapped-ids filter of seccomp profile '%s' was not built",
			b->profile);
	return 0;
}

/* The program that goes on last: the joined one when there is one. */
static const struct sock_filter *main_program(const struct nsb_bpf *b, size_t *ret_n)
{
	if (b->ids_action[0] && b->joined && b->n_joined > 0 &&
	    b->n_joined <= NSB_SECCOMP_MAX_INSNS) {
		*ret_n = b->n_joined;
		return b->joined;
	}
	*ret_n = b->n_insns;
	return b->insns;
}

/* The unmapped-ids program on its own, when it is not joined. */
static int install_ids(const struct nsb_bpf *b, struct nsb_error *e)
{
	size_t n;

	/* First, so that the profile's program is the last one installed (see
	 * "the unmapped-ids filter" in ids.c). */
	if (!b->ids_action[0] || main_program(b, &n) != b->insns)
		return 0;
	return install_program(b->ids, b->n_ids, 0, "the unmapped-ids filter of ", b, e);
}

/* ALLOW from every program nsb_seccomp_install() puts on for b; *reads
 * is set when one of them read past nr and arch. */
_waiting_ static bool allowed_by_all(const struct nsb_bpf *b, const struct seccomp_data *d,
				     bool *reads)
{
	const struct sock_filter *prog;
	bool r1 = false, r2 = false;
	size_t n;

	*reads = false;
	if (b->none)
		return true;
	prog = main_program(b, &n);
	if (!prog || n == 0)
		return false;
	if (b->ids_action[0] && prog == b->insns &&
	    (!b->ids || (nsb_bpf_eval_args(b->ids, b->n_ids, d, &r1) & SECCOMP_RET_ACTION_FULL) !=
				SECCOMP_RET_ALLOW))
		return false;
	bool ok =
		(nsb_bpf_eval_args(prog, n, d, &r2) & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ALLOW;
	*reads = r1 || r2;
	return ok;
}

_waiting_ bool nsb_seccomp_allows(const struct nsb_bpf *b, const struct seccomp_data *d)
{
	bool reads;

	return allowed_by_all(b, d, &reads);
}

_waiting_ bool nsb_seccomp_allows_any_args(const struct nsb_bpf *b, int nr)
{
	struct seccomp_data d = {.nr = nr, .arch = nsb_seccomp_arch()};
	bool reads;

	return allowed_by_all(b, &d, &reads) && !reads;
}

/* The main program with every notification answered as the errno it
 * carries: copied to the stack (32 KiB at most), so nothing is allocated. */
static int install_without_listener(const struct nsb_bpf *b, struct nsb_error *e)
{
	struct sock_filter copy[NSB_SECCOMP_MAX_INSNS];
	size_t n;
	const struct sock_filter *prog = main_program(b, &n);

	if (!b->notify)
		return install_program(prog, n, 0, "", b, e);
	memcpy(copy, prog, n * sizeof(*prog));
	nsb_seccomp_unnotify(copy, n);
	return install_program(copy, n, 0, "", b, e);
}

int nsb_seccomp_install(const struct nsb_bpf *b, struct nsb_error *e)
{
	int r;

	if (b->none)
		return 0;
	r = check_installable(b, e);
	if (r >= 0)
		r = install_ids(b, e);
	if (r >= 0)
		r = install_without_listener(b, e);
	return r < 0 ? r : 0;
}

int nsb_seccomp_install_listener(const struct nsb_bpf *b, int *ret_listener, struct nsb_error *e)
{
	size_t n;
	int r;

	*ret_listener = -1;
	if (b->none)
		return 0;
	r = check_installable(b, e);
	if (r >= 0)
		r = install_ids(b, e);
	if (r < 0)
		return r;
	if (!b->notify)
		return install_without_listener(b, e);
	const struct sock_filter *prog = main_program(b, &n);
	r = install_program(prog, n, SECCOMP_FILTER_FLAG_NEW_LISTENER, "", b, e);
	if (r >= 0) {
		*ret_listener = r;
		return 0;
	}
	/* EINVAL: a kernel without user notification (before 5.0); EBUSY: a
	 * filter of an enclosing sandbox has a listener already (one per
	 * task).  The same refusals, answered by the kernel, unreported. */
	if (r != -EINVAL && r != -EBUSY)
		return r;
	/* Without a listener the learning program would answer every call
	 * "success" without running it. */
	if (b->learn)
		return nsb_error_hint(
			e,
			"--seccomp-learn needs seccomp user notification (Linux 5.5 or later, not nested in a sandbox that has a listener)");
	*e = (struct nsb_error){0};
	return install_without_listener(b, e);
}

int nsb_seccomp_export(const struct nsb_bpf *b, int fd, struct nsb_error *e)
{
	if (b->none || !b->insns)
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_PROFILE,
				      "seccomp profile '%s' has no filter to export", b->profile);
	/* Without a listener a notification would answer ENOSYS: the file
	 * holds the program as it runs where none is set up (errno). */
	_cleanup_free_ struct sock_filter *copy = malloc(b->n_insns * sizeof(*b->insns));
	if (!copy)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_SECCOMP,
				     "write the compiled seccomp filter");
	memcpy(copy, b->insns, b->n_insns * sizeof(*b->insns));
	nsb_seccomp_unnotify(copy, b->n_insns);
	const char *p = (const char *)copy;
	size_t left = b->n_insns * sizeof(*b->insns);
	while (left > 0) {
		ssize_t n = write(fd, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return nsb_error_set(e, -errno, NSB_STAGE_SECCOMP,
					     "write the compiled seccomp filter");
		p += n;
		left -= (size_t)n;
	}
	return 0;
}

void nsb_bpf_free(struct nsb_bpf *b)
{
	free(b->profile);
	b->profile = NULL;
	free(b->insns);
	b->insns = NULL;
	b->n_insns = 0;
	free(b->ids);
	b->ids = NULL;
	b->n_ids = 0;
	free(b->joined);
	b->joined = NULL;
	b->n_joined = 0;
}
