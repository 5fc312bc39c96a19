// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsb_limits_decide(): the mechanism for each limit, the default pids limit
 * (where it applies, where it cannot, and that it never fails a run), and
 * nsb_dac_allows(), the permission check behind the --rw warning for root.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "core/cli.h"
#include "core/config.h"
#include "core/dac.h"
#include "core/limitplan.h"
#include "unit.h"

/* argv literals for nsb_cli_parse (-Wwrite-strings makes them const). */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

static struct nsb_config cfg;
static struct nsb_error err;

static void setup(void)
{
	nsb_config_init(&cfg);
	memset(&err, 0, sizeof(err));
}

#define USER 1000

static struct nsb_limits_host host(bool cg, bool cg_pids, uid_t uid)
{
	return (struct nsb_limits_host){.cgroup_ok = cg,
					.cgroup_pids = cg_pids,
					.why_not = cg ? NULL : "no cgroup2 mount",
					.uid = uid,
					.nproc_hard = UINT64_MAX};
}

static struct nsb_limits decide_ok(const struct nsb_limits_host *h)
{
	struct nsb_limits l;
	int r = nsb_limits_decide(&cfg, h, &l, &err);

	cr_assert(eq(int, r, 0), "decide failed: %s", err.message);
	return l;
}

/* ---- the default ---- */

Test(limitplan, default_pids_rides_on_the_cgroup_pids_controller, .init = setup)
{
	struct nsb_limits_host h = host(true, true, 0);
	struct nsb_limits l = decide_ok(&h);

	cr_expect(eq(u64, l.pids, NSB_DEFAULT_PIDS));
	cr_expect(eq(int, l.pids_via, NSB_VIA_CGROUP));
	cr_expect(l.pids_default);
	cr_expect(l.use_cgroup);
	cr_expect(l.pids_unenforced == NULL);
}

Test(limitplan, default_pids_falls_back_to_rlimit_for_a_user, .init = setup)
{
	/* A cgroup for accounting, but without the pids controller. */
	struct nsb_limits_host h = host(true, false, USER);
	struct nsb_limits l = decide_ok(&h);

	cr_expect(eq(u64, l.pids, NSB_DEFAULT_PIDS));
	cr_expect(eq(int, l.pids_via, NSB_VIA_RLIMIT));
	cr_expect(l.pids_default);
	cr_expect(l.use_cgroup);

	h = host(false, false, USER);
	l = decide_ok(&h);
	cr_expect(eq(int, l.pids_via, NSB_VIA_RLIMIT));
	cr_expect(not(l.use_cgroup));
}

Test(limitplan, default_pids_keeps_a_lower_hard_rlimit, .init = setup)
{
	struct nsb_limits_host h = host(false, false, USER);
	struct nsb_limits l;

	h.nproc_hard = 300;
	l = decide_ok(&h);
	cr_expect(eq(u64, l.pids, 300));
	cr_expect(eq(int, l.pids_via, NSB_VIA_RLIMIT));
}

Test(limitplan, default_pids_is_not_enforced_for_root_without_the_controller, .init = setup)
{
	struct nsb_limits_host h = host(true, false, 0);
	struct nsb_limits l = decide_ok(&h);

	cr_expect(eq(u64, l.pids, 0));
	cr_expect(eq(int, l.pids_via, NSB_VIA_NONE));
	cr_expect(l.pids_default);
	cr_assert(l.pids_unenforced != NULL);
	cr_expect(strstr(l.pids_unenforced, "not enforced") != NULL);
	cr_expect(strstr(l.pids_unenforced, "uid 0") != NULL);

	h = host(false, false, 0);
	l = decide_ok(&h);
	cr_expect(eq(int, l.pids_via, NSB_VIA_NONE));
	cr_expect(l.pids_unenforced != NULL);
}

Test(limitplan, require_cgroup_takes_no_rlimit_for_the_default, .init = setup)
{
	struct nsb_limits_host h = host(true, false, USER);
	struct nsb_limits l;

	cfg.require_cgroup = true;
	l = decide_ok(&h);
	cr_expect(eq(int, l.pids_via, NSB_VIA_NONE));
	cr_assert(l.pids_unenforced != NULL);
	cr_expect(strstr(l.pids_unenforced, "--require-cgroup") != NULL);

	/* With the controller, the default is the cgroup's. */
	h = host(true, true, USER);
	l = decide_ok(&h);
	cr_expect(eq(int, l.pids_via, NSB_VIA_CGROUP));
}

Test(limitplan, the_default_never_fails_a_run, .init = setup)
{
	/* Every host shape, as root and as a user, with and without
	 * --require-cgroup: no limit asked, so no refusal. */
	for (int mask = 0; mask < 16; mask++) {
		struct nsb_limits_host h = host(mask & 1, mask & 2, mask & 4 ? 0 : USER);
		struct nsb_limits l;

		h.cgroup_pids = h.cgroup_ok && h.cgroup_pids;
		cfg.require_cgroup = mask & 8;
		cr_expect(eq(int, nsb_limits_decide(&cfg, &h, &l, &err), 0), "shape %d: %s", mask,
			  err.message);
		cr_expect(l.pids_default, "shape %d", mask);
		bool none = l.pids_via == NSB_VIA_NONE, said = l.pids_unenforced != NULL;
		cr_expect(none == said, "shape %d: a limit without mechanism must say why", mask);
	}
}

/* ---- asked for ---- */

Test(limitplan, asked_pids_is_not_the_default, .init = setup)
{
	struct nsb_limits_host h = host(false, false, USER);
	struct nsb_limits l;

	cfg.pids = 32;
	l = decide_ok(&h);
	cr_expect(eq(u64, l.pids, 32));
	cr_expect(eq(int, l.pids_via, NSB_VIA_RLIMIT));
	cr_expect(not(l.pids_default));

	h = host(true, true, 0);
	l = decide_ok(&h);
	cr_expect(eq(int, l.pids_via, NSB_VIA_CGROUP));
	cr_expect(not(l.pids_default));
}

Test(limitplan, asked_pids_as_root_without_cgroup_is_refused, .init = setup)
{
	struct nsb_limits_host h = host(false, false, 0);
	struct nsb_limits l;

	cfg.pids = 32;
	cr_expect(eq(int, nsb_limits_decide(&cfg, &h, &l, &err), -EOPNOTSUPP));
	expect_str(nsb_stage_name(err.stage), "limits");
	cr_expect(strstr(err.message, "RLIMIT_NPROC") != NULL, "%s", err.message);
}

Test(limitplan, pids_unlimited_lifts_the_default, .init = setup)
{
	for (int mask = 0; mask < 8; mask++) {
		struct nsb_limits_host h = host(mask & 1, mask & 2, mask & 4 ? 0 : USER);
		struct nsb_limits l;

		cfg.pids = NSB_PIDS_UNLIMITED;
		l = decide_ok(&h);
		cr_expect(eq(u64, l.pids, 0), "shape %d", mask);
		cr_expect(eq(int, l.pids_via, NSB_VIA_NONE), "shape %d", mask);
		cr_expect(not(l.pids_default), "shape %d", mask);
		cr_assert(l.pids_unenforced != NULL);
		cr_expect(strstr(l.pids_unenforced, "--pids unlimited") != NULL);
	}
}

Test(limitplan, require_cgroup_still_refuses_asked_limits_without_cgroup, .init = setup)
{
	struct nsb_limits_host h = host(false, false, USER);
	struct nsb_limits l;

	cfg.require_cgroup = true;
	cfg.memory = 64 << 20;
	cr_expect(eq(int, nsb_limits_decide(&cfg, &h, &l, &err), -EOPNOTSUPP));
	cr_expect(strstr(err.message, "--require-cgroup") != NULL, "%s", err.message);
}

Test(limitplan, memory_without_cgroup_uses_rlimits_and_keeps_the_default, .init = setup)
{
	struct nsb_limits_host h = host(false, false, USER);
	struct nsb_limits l;

	cfg.memory = 64 << 20;
	l = decide_ok(&h);
	cr_expect(eq(int, l.memory_via, NSB_VIA_RLIMIT));
	cr_expect(eq(int, l.pids_via, NSB_VIA_RLIMIT));
	cr_expect(l.pids_default);
}

/* ---- nsb_dac_allows ---- */

static const gid_t no_groups[1];

static bool root_may(uid_t ouid, gid_t ogid, mode_t mode, gid_t gid, const gid_t *groups, size_t n,
		     int want)
{
	struct nsb_dac_inode ino = {.uid = ouid, .gid = ogid, .mode = mode};
	return nsb_dac_allows(&ino, 0, gid, groups, n, want);
}

Test(dac, root_without_caps_uses_the_bits_like_anyone)
{
	/* Another user's 0755 directory: no writing, reading is fine. */
	cr_expect(not(root_may(1001, 1001, 0755, 0, no_groups, 0, W_OK | X_OK)));
	cr_expect(root_may(1001, 1001, 0755, 0, no_groups, 0, R_OK | X_OK));
	/* Root's own 0755 and anyone's 0777 are writable. */
	cr_expect(root_may(0, 0, 0755, 0, no_groups, 0, W_OK | X_OK));
	cr_expect(root_may(1001, 1001, 0777, 0, no_groups, 0, W_OK | X_OK));
	/* Sticky bit does not matter for creating entries. */
	cr_expect(root_may(1001, 1001, 01777, 0, no_groups, 0, W_OK | X_OK));
	/* Write without search is not enough to create in a directory. */
	cr_expect(not(root_may(1001, 1001, 0776, 0, no_groups, 0, W_OK | X_OK)));
}

Test(dac, the_group_class_counts_the_primary_gid_and_supplementary_groups)
{
	static const gid_t groups[] = {27, 100};

	cr_expect(root_may(1001, 0, 0775, 0, no_groups, 0, W_OK | X_OK));
	cr_expect(not(root_may(1001, 100, 0775, 0, no_groups, 0, W_OK | X_OK)));
	cr_expect(root_may(1001, 100, 0775, 0, groups, 2, W_OK | X_OK));
	cr_expect(root_may(1001, 27, 0770, 5, groups, 2, W_OK | X_OK));
}

Test(dac, exactly_one_class_applies)
{
	/* The owner is locked out by its own bits even where others may. */
	cr_expect(not(root_may(0, 0, 0077, 0, no_groups, 0, W_OK)));
	/* A member of the group is locked out by the group bits. */
	cr_expect(not(root_may(1001, 0, 0707, 0, no_groups, 0, W_OK)));
	/* Others are judged by the other bits alone. */
	cr_expect(root_may(1001, 1001, 0002, 0, no_groups, 0, W_OK));
	cr_expect(not(root_may(1001, 1001, 0770, 0, no_groups, 0, W_OK)));
}

Test(dac, a_regular_file_needs_only_write)
{
	cr_expect(root_may(1001, 1001, 0666, 0, no_groups, 0, W_OK));
	cr_expect(not(root_may(1001, 1001, 0644, 0, no_groups, 0, W_OK)));
	/* want 0 (F_OK) is always allowed. */
	cr_expect(root_may(1001, 1001, 0, 0, no_groups, 0, 0));
}

/* ---- --pids unlimited on the command line ---- */

Test(limitplan, cli_takes_pids_unlimited)
{
	static struct nsb_config c;
	struct nsb_error e = {0};
	char *ok[] = {"nsbox", "--pids", "unlimited", "--", "true", NULL};
	char *bad[] = {"nsbox", "--pids", "unlimitedx", "--", "true", NULL};
	char *num[] = {"nsbox", "--pids", "64", "--", "true", NULL};

	cr_assert(eq(int, nsb_cli_parse(5, ok, &c, &e), 0), "%s", e.message);
	cr_expect(eq(u64, c.pids, NSB_PIDS_UNLIMITED));
	cr_assert(eq(int, nsb_cli_parse(5, num, &c, &e), 0), "%s", e.message);
	cr_expect(eq(u64, c.pids, 64));
	cr_expect(eq(int, nsb_cli_parse(5, bad, &c, &e), -EINVAL));
	cr_expect(strstr(e.hint, "'unlimited'") != NULL, "%s", e.hint);
}
