// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The supervisor's pure verdicts (verdict.c): the exit status of each
 * result, the cgroup counters folded into the record (violations, the OOM
 * verdict), the record's `enforced` member; and the one CPU quota that
 * nsb_limits_decide computes for the cgroup and the record.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "core/cli.h"
#include "base/exitcode.h"
#include "sandbox/init.h"
#include "supervisor/verdict.h"
#include "unit.h"

static struct nsb_result res;

static void setup(void)
{
	nsb_result_init(&res);
}

/* ---- exit status ---- */

Test(verdict, exit_status_follows_the_status, .init = setup)
{
	res.status = NSB_STATUS_EXITED;
	res.exit_code = 3;
	cr_expect(eq(int, nsb_exit_code_for(&res), 3));
	/* The command's own 125 passes through: the record tells them apart. */
	res.exit_code = 125;
	cr_expect(eq(int, nsb_exit_code_for(&res), 125));

	res.status = NSB_STATUS_SIGNALED;
	res.signal = SIGTERM;
	cr_expect(eq(int, nsb_exit_code_for(&res), 128 + SIGTERM));

	res.status = NSB_STATUS_OOM_KILLED;
	cr_expect(eq(int, nsb_exit_code_for(&res), 128 + SIGKILL));

	res.status = NSB_STATUS_TIMED_OUT;
	cr_expect(eq(int, nsb_exit_code_for(&res), 124));
	res.status = NSB_STATUS_DENIED;
	cr_expect(eq(int, nsb_exit_code_for(&res), 123));
	res.status = NSB_STATUS_SETUP_FAILED;
	cr_expect(eq(int, nsb_exit_code_for(&res), 125));
	res.status = NSB_STATUS_USAGE_ERROR;
	cr_expect(eq(int, nsb_exit_code_for(&res), 125));
}

Test(verdict, exec_failure_tells_not_found_from_not_executable, .init = setup)
{
	res.status = NSB_STATUS_EXEC_FAILED;
	res.setup_error.stage = NSB_STAGE_RESOLVE;
	cr_expect(eq(int, nsb_exit_code_for(&res), NSB_EXIT_NOTFOUND));
	res.setup_error.stage = NSB_STAGE_EXEC;
	cr_expect(eq(int, nsb_exit_code_for(&res), NSB_EXIT_NOEXEC));
}

Test(verdict, exit_codes_are_the_documented_numbers)
{
	cr_expect(eq(int, NSB_EXIT_DENIED, 123));
	cr_expect(eq(int, NSB_EXIT_TIMED_OUT, 124));
	cr_expect(eq(int, NSB_EXIT_NSBOX, 125));
	cr_expect(eq(int, NSB_EXIT_NOEXEC, 126));
	cr_expect(eq(int, NSB_EXIT_NOTFOUND, 127));
}

/* ---- the cgroup's counters ---- */

static struct nsb_cgroup_stats unknown_stats(void)
{
	struct nsb_cgroup_stats st;
	memset(&st, 0xff, sizeof(st)); /* every field NSB_CGROUP_MAX: not known */
	return st;
}

Test(verdict, unknown_counters_change_nothing, .init = setup)
{
	struct nsb_cgroup_stats st = unknown_stats();

	res.status = NSB_STATUS_SIGNALED;
	res.signal = SIGKILL;
	nsb_verdict_cgroup(&st, &res);
	cr_expect(eq(i64, res.memory_peak_bytes, -1));
	cr_expect(eq(i64, res.pids_peak, -1));
	cr_expect(eq(i64, res.cpu_user_ms, -1));
	cr_expect(eq(sz, res.n_violations, 0));
	cr_expect(eq(int, res.status, NSB_STATUS_SIGNALED));
}

Test(verdict, resources_come_from_the_cgroup, .init = setup)
{
	struct nsb_cgroup_stats st = unknown_stats();

	st.memory_peak = 4096;
	st.pids_peak = 7;
	st.cpu_user_usec = 12999;
	st.cpu_system_usec = 2000;
	nsb_verdict_cgroup(&st, &res);
	cr_expect(eq(i64, res.memory_peak_bytes, 4096));
	cr_expect(eq(i64, res.pids_peak, 7));
	cr_expect(eq(i64, res.cpu_user_ms, 12));
	cr_expect(eq(i64, res.cpu_sys_ms, 2));
}

Test(verdict, violations_are_the_counters_above_zero_in_a_fixed_order, .init = setup)
{
	struct nsb_cgroup_stats st = unknown_stats();

	st.cpu_nr_throttled = 9;
	st.pids_max_events = 2;
	st.memory_max_events = 0; /* zero: no entry */
	st.oom_kill = 1;
	nsb_verdict_cgroup(&st, &res);
	cr_assert(eq(sz, res.n_violations, 3));
	expect_str(res.violations[0].kind, "pids.max");
	cr_expect(eq(u64, res.violations[0].count, 2));
	expect_str(res.violations[1].kind, "oom_kill");
	expect_str(res.violations[2].kind, "cpu.max");
	cr_expect(eq(u64, res.violations[2].count, 9));
}

Test(verdict, sigkill_with_an_oom_kill_is_the_oom_killer, .init = setup)
{
	struct nsb_cgroup_stats st = unknown_stats();

	res.status = NSB_STATUS_SIGNALED;
	res.signal = SIGKILL;
	res.exit_code_set = true;
	st.oom_kill = 1;
	nsb_verdict_cgroup(&st, &res);
	cr_expect(eq(int, res.status, NSB_STATUS_OOM_KILLED));
	cr_expect(res.oom_killed);
	cr_expect(eq(int, res.signal, SIGKILL));
	cr_expect(not(res.exit_code_set));
	cr_assert(res.reason != NULL);
	cr_expect(strstr(res.reason, "OOM killer") != NULL);
	cr_expect(eq(int, nsb_exit_code_for(&res), 128 + SIGKILL));
}

Test(verdict, oom_kill_without_sigkill_is_only_a_violation, .init = setup)
{
	struct nsb_cgroup_stats st = unknown_stats();

	/* A child was OOM-killed, the command itself exited (or died otherwise). */
	st.oom_kill = 1;
	res.status = NSB_STATUS_EXITED;
	res.exit_code_set = true;
	res.exit_code = 1;
	nsb_verdict_cgroup(&st, &res);
	cr_expect(eq(int, res.status, NSB_STATUS_EXITED));
	cr_expect(not(res.oom_killed));
	cr_expect(eq(sz, res.n_violations, 1));

	nsb_result_init(&res);
	res.status = NSB_STATUS_SIGNALED;
	res.signal = SIGTERM;
	nsb_verdict_cgroup(&st, &res);
	cr_expect(eq(int, res.status, NSB_STATUS_SIGNALED));
	cr_expect(not(res.oom_killed));
}

/* ---- enforced ---- */

static struct nsb_config cfg;
static struct nsb_plan plan;
static struct nsb_limits limits;
static struct nsb_bpf bpf;
static struct nsb_stdio sio;

static struct nsb_enforced_in enforced_in(void)
{
	nsb_config_init(&cfg);
	memset(&plan, 0, sizeof(plan));
	memset(&limits, 0, sizeof(limits));
	memset(&bpf, 0, sizeof(bpf));
	memset(&sio, 0, sizeof(sio));
	snprintf(plan.hostname, sizeof(plan.hostname), "nsbox");
	plan.tmp_size = 1 << 20;
	bpf.profile = strdup("default"); /* each test runs in a process of its own */
	snprintf(bpf.sha256, sizeof(bpf.sha256), "abc");
	snprintf(bpf.default_action, sizeof(bpf.default_action), "allow");
	return (struct nsb_enforced_in){.cfg = &cfg,
					.plan = &plan,
					.limits = &limits,
					.bpf = &bpf,
					.stdio = &sio,
					.namespaces = 5};
}

Test(verdict, enforced_says_where_the_files_of_etc_came_from, .init = setup)
{
	struct nsb_enforced_in in = enforced_in();

	plan.etc_snapshot = "/home/u/.cache/nsbox/etc-0123";
	nsb_verdict_enforced(&in, &res);
	expect_str(res.enforced.etc, "snapshot");
	plan.isolation = NSB_ISO_LANDLOCK;
	nsb_verdict_enforced(&in, &res);
	cr_expect(res.enforced.etc == NULL);
	cr_expect(res.enforced.mount_api == NULL);
}

Test(verdict, enforced_says_what_was_applied, .init = setup)
{
	struct nsb_enforced_in in = enforced_in();
	const struct nsb_enforced *en = &res.enforced;

	cfg.timeout_ms = 1500;
	limits.memory = 64 << 20;
	limits.memory_via = NSB_VIA_RLIMIT;
	limits.pids_default = true;
	limits.pids_unenforced = "why";
	nsb_verdict_enforced(&in, &res);
	cr_expect(res.has_enforced);
	cr_expect(eq(u32, en->namespaces, 5));
	cr_expect(en->caps_dropped && en->no_new_privs);
	expect_str(en->hostname, "nsbox");
	expect_str(en->mount_api, "new");
	expect_str(en->etc, "binds");
	expect_str(en->seccomp_profile, "default");
	expect_str(en->seccomp_sha256, "abc");
	cr_expect(en->seccomp_unmapped_ids == NULL);
	cr_expect(eq(u64, en->memory_bytes, 64 << 20));
	expect_str(en->memory_via, "rlimit");
	cr_expect(en->pids_via == NULL);
	expect_str(en->pids_reason, "why");
	cr_expect(en->cpus_via == NULL);
	cr_expect(eq(u64, en->timeout_ms, 1500));
	cr_expect(eq(u64, en->tmp_size, 1 << 20));
	cr_expect(en->has_stdio);
	cr_expect(en->cgroup_path == NULL);
	cr_expect(en->cgroup_placement == NULL);
}

Test(verdict, enforced_without_a_filter_says_none, .init = setup)
{
	struct nsb_enforced_in in = enforced_in();

	bpf.none = true;
	nsb_verdict_enforced(&in, &res);
	expect_str(res.enforced.seccomp_profile, "none");
	cr_expect(res.enforced.seccomp_sha256 == NULL);
	cr_expect(res.enforced.seccomp_default_action == NULL);
}

Test(verdict, enforced_names_the_cgroup_and_how_it_was_entered, .init = setup)
{
	struct nsb_enforced_in in = enforced_in();

	in.cgroup_path = "/sys/fs/cgroup/x/nsbox-1-ab";
	nsb_verdict_enforced(&in, &res);
	expect_str(res.enforced.cgroup_path, "/sys/fs/cgroup/x/nsbox-1-ab");
	expect_str(res.enforced.cgroup_placement, "clone3");
	in.cgroup_joined = true;
	nsb_verdict_enforced(&in, &res);
	expect_str(res.enforced.cgroup_placement, "join");
}

/* ---- the CPU quota, decided once ---- */

static struct nsb_limits decide_cpus(uint64_t milli)
{
	struct nsb_limits_host h = {
		.cgroup_ok = true, .cgroup_pids = true, .uid = 1000, .nproc_hard = UINT64_MAX};
	struct nsb_limits l;
	struct nsb_error e = {0};

	nsb_config_init(&cfg);
	cfg.cpus_milli = milli;
	cr_assert(eq(int, nsb_limits_decide(&cfg, &h, &l, &e), 0), "%s", e.message);
	return l;
}

Test(verdict, cpu_quota_is_computed_once_for_every_accepted_cpus)
{
	struct nsb_limits l = decide_cpus(500);
	cr_expect(eq(u64, l.cpu_quota_us, 50000));
	cr_expect(eq(u64, l.cpu_period_us, NSB_CGROUP_PERIOD_US_DEFAULT));
	cr_expect(eq(int, l.cpus_via, NSB_VIA_CGROUP));
	/* The command line's bounds: 0.01 and 1024 CPUs. */
	cr_expect(eq(u64, decide_cpus(10).cpu_quota_us, 1000));
	cr_expect(eq(u64, decide_cpus(NSB_MAX_CPUS_MILLI).cpu_quota_us, 102400000));
	cr_expect(eq(u64, decide_cpus(1234).cpu_quota_us, 123400));
	/* Every value the CLI accepts has the quota the old inline formula gave. */
	for (uint64_t m = 10; m <= NSB_MAX_CPUS_MILLI; m += 997)
		cr_expect(eq(u64, decide_cpus(m).cpu_quota_us,
			     m * NSB_CGROUP_PERIOD_US_DEFAULT / 1000),
			  "%llu", (unsigned long long)m);
	/* No --cpus: no quota. */
	cr_expect(eq(u64, decide_cpus(0).cpu_quota_us, 0));
}
