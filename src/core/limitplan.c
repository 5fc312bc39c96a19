// SPDX-License-Identifier: GPL-2.0-or-later
/* limitplan: pure, run by the supervisor: which mechanism enforces each limit. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/fmt.h"
#include "core/cgroup_parse.h"
#include "core/limitplan.h"

/* Every --cpus the command line accepts has a quota: cli.c's ceiling is the
 * binding one. */
_Static_assert(NSB_MAX_CPUS_MILLI / 1000 <= NSB_CGROUP_CPUS_MAX,
	       "--cpus accepts more CPUs than a cpu.max quota may hold");

const char *nsb_via_name(enum nsb_via v)
{
	switch (v) {
	case NSB_VIA_CGROUP:
		return "cgroup";
	case NSB_VIA_RLIMIT:
		return "rlimit";
	case NSB_VIA_NONE:
		break;
	}
	return NULL;
}

/*
 * The default pids limit, where something can enforce it.  It was not asked
 * for, so it never fails the run: where nothing can enforce it, *l says why
 * (static text: the record outlives this call).
 */
static void decide_default_pids(const struct nsb_config *c, const struct nsb_limits_host *h,
				struct nsb_limits *l)
{
	l->pids_default = true;
	if (h->cgroup_ok && h->cgroup_pids) {
		l->pids = NSB_DEFAULT_PIDS;
		l->pids_via = NSB_VIA_CGROUP;
		return;
	}
	/* --require-cgroup: no rlimit stands in for a cgroup, not even here. */
	if (c->require_cgroup) {
		l->pids_unenforced =
			"not enforced: the cgroup has no pids controller and --require-cgroup rules out RLIMIT_NPROC";
		return;
	}
	/* The kernel exempts the global root user from RLIMIT_NPROC
	 * (copy_process), and a root caller is mapped to itself. */
	if (h->uid == 0) {
		l->pids_unenforced =
			"not enforced: no cgroup v2 pids controller, and the kernel does not apply RLIMIT_NPROC to uid 0";
		return;
	}
	/* An unprivileged caller cannot raise its hard limit: a lower one
	 * already there is the tighter bound, keep it rather than fail. */
	l->pids = h->nproc_hard < NSB_DEFAULT_PIDS ? h->nproc_hard : NSB_DEFAULT_PIDS;
	l->pids_via = NSB_VIA_RLIMIT;
}

/*
 * --cpus (thousandths of a CPU, as cli.c parsed it) to a cpu.max quota for
 * the default period, by the unit-tested nsb_cgroup_cpus_to_quota.
 */
static int cpu_quota(uint64_t cpus_milli, uint64_t *ret_quota_us, struct nsb_error *e)
{
	char fraction[32];
	int r;

	nsb_format(fraction, sizeof(fraction), "%" PRIu64 ".%03" PRIu64, cpus_milli / 1000,
		   cpus_milli % 1000);
	r = nsb_cgroup_cpus_to_quota(fraction, NSB_CGROUP_PERIOD_US_DEFAULT, ret_quota_us);
	if (r < 0)
		return nsb_error_setx(e, r, NSB_STAGE_LIMITS, "--cpus %s: no cpu.max quota for it",
				      fraction);
	return 0;
}

int nsb_limits_decide(const struct nsb_config *c, const struct nsb_limits_host *h,
		      struct nsb_limits *ret, struct nsb_error *e)
{
	bool unlimited = c->pids == NSB_PIDS_UNLIMITED;
	uint64_t pids = unlimited ? 0 : c->pids; /* asked for */
	struct nsb_limits l = {
		.memory = c->memory,
		.pids = pids,
		.cpus_milli = c->cpus_milli,
		.cpu_period_us = NSB_CGROUP_PERIOD_US_DEFAULT,
	};
	bool wanted = c->memory || pids || c->cpus_milli;
	const char *why = h->why_not && *h->why_not ? h->why_not : "cgroup v2 is not usable";

	if (unlimited)
		l.pids_unenforced = "lifted by --pids unlimited";
	if (c->cpus_milli) {
		int r = cpu_quota(c->cpus_milli, &l.cpu_quota_us, e);
		if (r < 0)
			return r;
	}

	if (h->cgroup_ok) {
		l.use_cgroup = true;
		l.memory_via = c->memory ? NSB_VIA_CGROUP : NSB_VIA_NONE;
		l.pids_via = pids ? NSB_VIA_CGROUP : NSB_VIA_NONE;
		l.cpus_via = c->cpus_milli ? NSB_VIA_CGROUP : NSB_VIA_NONE;
		if (!c->pids)
			decide_default_pids(c, h, &l);
		*ret = l;
		return 0;
	}

	if (wanted && c->require_cgroup) {
		nsb_error_setx(e, -EOPNOTSUPP, NSB_STAGE_LIMITS,
			       "--require-cgroup: limits cannot be enforced by cgroup v2: %s", why);
		return nsb_error_hint(
			e,
			"delegate a cgroup v2 subtree to this user (e.g. systemd-run --user --scope -p Delegate=yes) and pass --cgroup-parent, or drop --require-cgroup to accept rlimits");
	}
	if (c->cpus_milli) {
		nsb_error_setx(
			e, -EOPNOTSUPP, NSB_STAGE_LIMITS,
			"--cpus needs the cgroup v2 cpu controller, and there is no rlimit for CPU bandwidth: %s",
			why);
		return nsb_error_hint(
			e,
			"delegate a cgroup v2 subtree with the cpu controller and pass --cgroup-parent, or drop --cpus (--timeout bounds wall-clock time)");
	}
	/*
	 * RLIMIT_NPROC is never checked for the global root user (the kernel
	 * exempts INIT_USER in copy_process), and a root caller is mapped to
	 * itself: the fallback would be a silent no-op, so refuse.
	 */
	if (pids && h->uid == 0) {
		nsb_error_setx(
			e, -EOPNOTSUPP, NSB_STAGE_LIMITS,
			"--pids cannot be enforced for uid 0 without cgroup v2 (the kernel does not apply RLIMIT_NPROC to root): %s",
			why);
		return nsb_error_hint(
			e,
			"run nsbox as an unprivileged user, or give it a cgroup v2 subtree with the pids controller (--cgroup-parent)");
	}
	l.memory_via = c->memory ? NSB_VIA_RLIMIT : NSB_VIA_NONE;
	l.pids_via = pids ? NSB_VIA_RLIMIT : NSB_VIA_NONE;
	if (!c->pids)
		decide_default_pids(c, h, &l);
	*ret = l;
	return 0;
}
