// SPDX-License-Identifier: GPL-2.0-or-later
/* The supervisor's pure verdicts on a finished run (verdict.h); runs in the supervisor. */
#include <signal.h>
#include <string.h>

#include "base/exitcode.h"
#include "sandbox/init.h"
#include "base/macro.h"
#include "supervisor/verdict.h"

int nsb_exit_code_for(const struct nsb_result *res)
{
	switch (res->status) {
	case NSB_STATUS_EXITED:
		return res->exit_code;
	case NSB_STATUS_SIGNALED:
		return NSB_EXIT_SIGNAL + res->signal;
	case NSB_STATUS_TIMED_OUT:
		return NSB_EXIT_TIMED_OUT;
	case NSB_STATUS_OOM_KILLED:
		return NSB_EXIT_SIGNAL + SIGKILL;
	case NSB_STATUS_DENIED:
	case NSB_STATUS_NEEDS_APPROVAL: /* nothing ran, as for a refusal */
		return NSB_EXIT_DENIED;
	case NSB_STATUS_EXEC_FAILED:
		return res->setup_error.stage == NSB_STAGE_RESOLVE ? NSB_EXIT_NOTFOUND
								   : NSB_EXIT_NOEXEC;
	case NSB_STATUS_SETUP_FAILED:
	case NSB_STATUS_USAGE_ERROR:
		break;
	}
	return NSB_EXIT_NSBOX;
}

static bool counted(uint64_t v)
{
	return v != NSB_CGROUP_MAX && v > 0;
}

static void add_violation(struct nsb_result *res, const char *kind, uint64_t count)
{
	if (!counted(count) || res->n_violations >= ARRAY_SIZE(res->violations))
		return;
	res->violations[res->n_violations].kind = kind;
	res->violations[res->n_violations].count = count;
	res->n_violations++;
}

void nsb_verdict_cgroup(const struct nsb_cgroup_stats *st, struct nsb_result *res)
{
	if (st->memory_peak != NSB_CGROUP_MAX)
		res->memory_peak_bytes = (int64_t)st->memory_peak;
	if (st->pids_peak != NSB_CGROUP_MAX)
		res->pids_peak = (int64_t)st->pids_peak;
	if (st->cpu_user_usec != NSB_CGROUP_MAX)
		res->cpu_user_ms = (int64_t)(st->cpu_user_usec / 1000);
	if (st->cpu_system_usec != NSB_CGROUP_MAX)
		res->cpu_sys_ms = (int64_t)(st->cpu_system_usec / 1000);
	/* The kernel's refusals, as the cgroup counted them. */
	add_violation(res, "pids.max", st->pids_max_events);
	add_violation(res, "memory.max", st->memory_max_events);
	add_violation(res, "oom_kill", st->oom_kill);
	add_violation(res, "cpu.max", st->cpu_nr_throttled);
	/* memory.oom.group kills the whole sandbox, init first or not: a
	 * SIGKILL with an oom_kill event is the OOM killer's work. */
	if (counted(st->oom_kill) && res->status == NSB_STATUS_SIGNALED && res->signal == SIGKILL) {
		res->status = NSB_STATUS_OOM_KILLED;
		res->oom_killed = true;
		res->exit_code_set = false;
		res->reason =
			"the memory limit was reached and the kernel's OOM killer stopped the sandbox";
	}
}

/* --isolation: a Landlock run has no hostname, mounts or /tmp of its own. */
static void verdict_isolation(const struct nsb_plan *p, struct nsb_enforced *en)
{
	const struct nsb_landlock_plan *ll = &p->landlock;

	en->isolation = p->isolation == NSB_ISO_LANDLOCK ? "landlock" : "namespaces";
	if (p->isolation != NSB_ISO_LANDLOCK)
		return;
	en->hostname = NULL;
	en->mount_api = NULL;
	en->etc = NULL;
	en->landlock_abi = ll->abi;
	en->landlock_net_tcp = ll->net != 0;
	en->landlock_socket_filter = ll->socket_filter;
	en->landlock_scoped = ll->scoped;
}

void nsb_verdict_enforced(const struct nsb_enforced_in *in, struct nsb_result *res)
{
	struct nsb_enforced *en = &res->enforced;
	const struct nsb_limits *l = in->limits;
	const struct nsb_bpf *b = in->bpf;
	const struct nsb_config *c = in->cfg;

	res->has_enforced = true;
	en->namespaces = in->namespaces;
	en->caps_dropped = true;
	en->no_new_privs = true;
	en->hostname = in->plan->hostname;
	en->share_net = in->plan->share_net;
	en->mount_api = "new";
	en->etc = in->plan->etc_snapshot ? "snapshot" : "binds";
	verdict_isolation(in->plan, en);
	en->seccomp_profile = b->none ? NSB_SECCOMP_NONE : b->profile;
	en->seccomp_sha256 = b->none ? NULL : b->sha256;
	en->seccomp_default_action = b->none ? NULL : b->default_action;
	en->seccomp_unmapped_ids = b->none || !b->ids_action[0] ? NULL : b->ids_action;
	en->memory_bytes = l->memory;
	en->memory_via = nsb_via_name(l->memory_via);
	en->pids_max = l->pids;
	en->pids_via = nsb_via_name(l->pids_via);
	en->pids_default = l->pids_default;
	en->pids_reason = l->pids_unenforced;
	en->cpus_milli = l->cpus_milli;
	en->cpu_period_us = l->cpu_period_us;
	en->cpu_quota_us = l->cpu_quota_us;
	en->cpus_via = nsb_via_name(l->cpus_via);
	en->timeout_ms = c->timeout_ms;
	en->kill_after_ms = c->kill_after_ms;
	en->has_max_output = c->has_max_output;
	en->max_output = c->max_output;
	en->capture = c->capture;
	en->tmp_size = in->plan->isolation == NSB_ISO_LANDLOCK ? 0 : in->plan->tmp_size;
	en->has_stdio = true;
	en->stdio_pty = in->stdio->pty;
	for (int fd = 0; fd < 3; fd++)
		en->stdio[fd] = nsb_stdio_name(in->stdio->how[fd]);
	if (in->cgroup_path) {
		en->cgroup_path = in->cgroup_path;
		en->cgroup_placement = in->cgroup_joined ? "join" : "clone3";
	}
}
