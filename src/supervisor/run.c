// SPDX-License-Identifier: GPL-2.0-or-later
/* One run of a command, prepare -> execute -> free (run.h); runs in the supervisor. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/dac.h"
#include "sandbox/init.h"
#include "base/fmt.h"
#include "base/trim.h"
#include "base/path_search.h"
#include "supervisor/run.h"
#include "supervisor/run_approval.h"
#include "supervisor/isolation.h"
#include "supervisor/run_net.h"
#include "supervisor/userns.h"
#include "supervisor/run_advice.h"
#include "supervisor/run_facts.h"
#include "supervisor/run_seccomp.h"
#include "base/trim.h"
#include "base/util.h"
#include "supervisor/verdict.h"

extern char **environ;

void nsb_run_init(struct nsb_run *run, const struct nsb_config *cfg)
{
	/* No memset: *run is zero already (run.h), and clearing two
	 * megabytes would fault in pages most runs never touch. */
	run->cfg = cfg;
	nsb_result_init(&run->res);
	nsb_cgroup_reset(&run->cg);
	nsb_notify_init(&run->notify, &run->bpf);
	run->sb = (struct nsb_sandbox){.pid = -1,
				       .pidfd = -1,
				       .err_rd = -1,
				       .status_rd = -1,
				       .stdout_rd = -1,
				       .stderr_rd = -1,
				       .stdin_wr = -1,
				       .pty_sock = -1,
				       .overlay_sock = -1,
				       .net_sock = -1};
}

int nsb_run_fail(struct nsb_run *run, const struct nsb_error *e)
{
	run->res.status = nsb_stage_status(e->stage);
	run->res.has_setup_error = true;
	run->res.setup_error = *e;
	return e->err ? -abs(e->err) : -EIO;
}

/* Compile the profile once, here in the supervisor. */
static int setup_seccomp(struct nsb_run *run, struct nsb_error *e)
{
	const struct nsb_config *cfg = run->cfg;
	int r;

	if (cfg->seccomp_learn) {
		if (cfg->seccomp || cfg->seccomp_export)
			return nsb_error_setx(
				e, -EINVAL, NSB_STAGE_USAGE,
				"--seccomp-learn runs without a profile: it cannot go with --seccomp or --seccomp-export");
		return nsb_seccomp_learn_program(&run->bpf, e);
	}
	r = nsb_seccomp_load(cfg->seccomp ? cfg->seccomp : "default", &run->bpf, e);
	if (r < 0)
		return r;
	nsb_seccomp_keep_handoff(&run->bpf);
	/* The unmapped-ids filter needs the ids the sandbox maps, which only a
	 * run has (a commandless --seccomp-export writes the profile alone). */
	if (cfg->cmd_argv) {
		r = nsb_seccomp_bind_ids(&run->bpf, run->plan.uid, run->plan.gid, e);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * Write the compiled program for --seccomp-export (only for a run the gate
 * allowed: a refusal and a dry run create nothing).  A file that cannot be
 * opened or written is a setup failure; exporting "none" is a usage error.
 * The file is opened first either way, as it always was.
 */
static int export_seccomp(struct nsb_run *run)
{
	const char *path = run->cfg->seccomp_export;
	_cleanup_close_ int fd = -1;
	struct nsb_error e = {0};

	if (!path)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		nsb_error_set(&e, nsb_negerrno(), NSB_STAGE_SECCOMP, "--seccomp-export '%s'", path);
		return nsb_run_fail(run, &e);
	}
	if (nsb_seccomp_export(&run->bpf, fd, &e) < 0)
		return nsb_run_fail(run, &e);
	return 0;
}

int nsb_run_export_only(struct nsb_run *run)
{
	struct nsb_error e = {0};

	if (setup_seccomp(run, &e) < 0)
		return nsb_run_fail(run, &e);
	return export_seccomp(run);
}

/*
 * Why --pids falls back to RLIMIT_NPROC, in its own words: the asked limits
 * share one cgroup, so the first missing controller may be another limit's.
 */
static void explain_pids_fallback(struct nsb_run *run, const struct nsb_error *why)
{
	struct nsb_cgroup_opts cgo = {.parent = run->cfg->cgroup_parent, .where = &run->cg_where};
	const char *need[] = {"pids", NULL};
	struct nsb_error pids_why = {0};

	if (nsb_cgroup_place(&cgo, need, NULL, &pids_why) < 0)
		nsb_format(run->pids_fallback_why, sizeof(run->pids_fallback_why), "%s",
			   pids_why.message);
	else
		/* Truncation only shortens a warning. */
		(void)nsb_snprintf(run->pids_fallback_why, sizeof(run->pids_fallback_why),
				   "%s (one cgroup holds every limit, and --memory needs it)",
				   why->message);
}

/* init could not write its id maps: EPERM/EACCES there is how Ubuntu's
 * AppArmor restriction and similar policies show up, so explain the cause
 * (the diagnosis reads the host's /proc, which only the supervisor sees). */
static void hint_userns(struct nsb_error *se)
{
	struct nsb_error d = {0};
	char hint[sizeof(se->hint)];

	if (se->stage != NSB_STAGE_USERNS)
		return;
	if ((se->err == EPERM || se->err == EACCES) && !se->hint[0]) {
		nsb_userns_diagnose(se->err, "/proc", &d);
		if (d.hint[0])
			nsb_error_hint(se, "%s", d.hint);
	}
	/* Whatever the cause: a weaker sandbox exists, when asked for. */
	nsb_format(hint, sizeof(hint), "%s", se->hint);
	nsb_error_hint(se,
		       "%s%s--isolation auto (or landlock) runs without namespaces, with "
		       "Landlock and seccomp only; nsbox doctor says what this host supports",
		       hint, hint[0] ? "; or " : "");
}

/* Whether anything on the command line needs the run's own cgroup. */
static bool asked_cgroup(const struct nsb_config *cfg)
{
	return cfg->memory || (cfg->pids && cfg->pids != NSB_PIDS_UNLIMITED) || cfg->cpus_milli ||
	       cfg->cgroup_parent || cfg->require_cgroup;
}

/*
 * Without limits the run's cgroup is there to account (memory.peak,
 * pids.peak, and the default pids limit rides on it) and pays for itself
 * only where a controller does that: with neither pids nor memory available
 * (a hybrid host whose controllers sit on cgroup v1) it would only cost a
 * mkdir, a placement and an rmdir per run, and make nsbox wait for init's
 * exit before the rmdir.  The PID namespace already kills everything at
 * once.  True when the run gets one (cg_place filled); sets cgroup_pids.
 */
static bool place_unasked(const struct nsb_config *cfg, const struct nsb_cgroup_opts *cgo,
			  struct nsb_cgroup_place *place, struct nsb_limits_host *h)
{
	static const char *const pids[] = {"pids", NULL}, *const memory[] = {"memory", NULL};
	/* No error asked: nothing says why, so none is explained. */
	bool pids_ok = nsb_cgroup_place(cgo, pids, place, NULL) == 0;

	/* --pids unlimited lifts the default limit, not the accounting. */
	h->cgroup_pids = pids_ok && !cfg->pids;
	return pids_ok || nsb_cgroup_place(cgo, memory, place, NULL) == 0;
}

/*
 * Choose the mechanism for each limit.  cgroup v2 first; the rlimit fallback
 * only where DESIGN allows it, announced on stderr and in the record.
 */
static int decide_limits(struct nsb_run *run, struct nsb_error *e)
{
	const struct nsb_config *cfg = run->cfg;
	struct nsb_limits_host *h = &run->lim_host;
	struct nsb_cgroup_opts cgo = {
		.parent = cfg->cgroup_parent, .where = &run->cg_where, .clean_stale = true};
	const char *need[4];
	size_t n = 0;
	struct nsb_error why = {0};
	bool cg_ok, asked_pids = cfg->pids && cfg->pids != NSB_PIDS_UNLIMITED;
	struct rlimit nproc;
	int r;

	if (cfg->memory)
		need[n++] = "memory";
	if (asked_pids)
		need[n++] = "pids";
	if (cfg->cpus_milli)
		need[n++] = "cpu";
	need[n] = NULL;

	if (!asked_cgroup(cfg)) {
		cg_ok = h->cgroup_ok = place_unasked(cfg, &cgo, &run->cg_place, h);
		goto decide;
	}
	cg_ok = nsb_cgroup_place(&cgo, need, &run->cg_place, &why) == 0;
	if (!cg_ok && (cfg->cgroup_parent || cfg->require_cgroup)) {
		/* cgroup.c names --cgroup-parent itself where it is at fault. */
		nsb_error_setx(e, why.err ? -why.err : -EOPNOTSUPP, NSB_STAGE_CGROUP, "%s%s",
			       cfg->cgroup_parent ? "" : "--require-cgroup: ", why.message);
		if (why.hint[0])
			nsb_error_hint(e, "%s", why.hint);
		return -e->err;
	}

	h->cgroup_ok = cg_ok;
	h->cgroup_pids = cg_ok && asked_pids;
	/* The default pids limit rides on the cgroup only where the pids
	 * controller is there too: asked only now, so that its absence never
	 * costs the asked limits their cgroup. */
	if (cg_ok && !cfg->pids) {
		need[n++] = "pids";
		need[n] = NULL;
		/* No error asked: nothing says why, so none is explained.  A
		 * failure leaves cg_place as it was. */
		h->cgroup_pids = nsb_cgroup_place(&cgo, need, &run->cg_place, NULL) == 0;
	}
decide:
	h->uid = run->facts.uid;
	h->nproc_hard = UINT64_MAX;
	/* RLIMIT_NPROC never binds uid 0 (limitplan.c): not even read then. */
	if (h->uid != 0 && getrlimit(RLIMIT_NPROC, &nproc) == 0 && nproc.rlim_max != RLIM_INFINITY)
		h->nproc_hard = nproc.rlim_max;
	/* Only a reason is copied: even an empty one's byte would make the
	 * page the run's (run.h). */
	if (why.message[0])
		nsb_format(run->fallback_why, sizeof(run->fallback_why), "%s", why.message);
	h->why_not = run->fallback_why;
	r = nsb_limits_decide(cfg, h, &run->plan.limits, e);
	if (r < 0)
		return r;
	if (run->plan.limits.pids_via == NSB_VIA_RLIMIT && asked_pids)
		explain_pids_fallback(run, &why);
	run->cg_usable = cg_ok;
	return 0;
}

/* The plan's filter: the one setup_seccomp compiled for plan.uid/gid (NULL for
 * "none").  With decide_limits, one of the two steps that complete the plan
 * nsb_plan_build left without them. */
static void attach_seccomp(struct nsb_run *run)
{
	run->plan.seccomp = run->bpf.none ? NULL : &run->bpf;
}

int nsb_run_prepare(struct nsb_run *run)
{
	const struct nsb_config *cfg = run->cfg;
	struct nsb_error e = {0};

	if (nsb_run_facts(run, &e) < 0)
		return nsb_run_fail(run, &e);
	/* The loader's last call is behind us (its symbol versions are
	 * checked once, in the facts): its text leaves the supervisor's peak
	 * RSS before the gate adds to it (base/trim.h).  Best effort: on
	 * failure the pages stay mapped, as they were. */
	(void)nsb_trim_loader();
	if (nsb_plan_build(cfg, &run->facts, &run->plan, &e) < 0 ||
	    nsb_run_net_options(run, &e) < 0 || setup_seccomp(run, &e) < 0 ||
	    nsb_front_policy(cfg, &run->front, &e) < 0 || nsb_run_net_policy_file(run, &e) < 0)
		return nsb_run_fail(run, &e);
	attach_seccomp(run);
	if (nsb_isolation_decide(run, &e) < 0)
		return nsb_run_fail(run, &e);
	/* The front gate: decided before anything exists. */
	if (decide_limits(run, &e) < 0 || nsb_front_check(cfg, &run->plan, &run->front, &e) < 0 ||
	    nsb_run_decide_approval(run, &e) < 0)
		return nsb_run_fail(run, &e);
	run->res.gate_metachar = run->front.verdict.metachar;
	return 0;
}

/*
 * Create the run's cgroup: only after the gate, since a refusal must create
 * nothing.  Without limits a cgroup is still worth having (accounting,
 * one-shot kill) when it is freely available; nothing was asked then, so a
 * failure changes nothing that was promised, and is said on stderr.
 */
static int create_cgroup(struct nsb_run *run, struct nsb_error *e)
{
	const struct nsb_config *cfg = run->cfg;
	const struct nsb_limits *l = &run->plan.limits;
	bool wanted =
		cfg->memory || (cfg->pids && cfg->pids != NSB_PIDS_UNLIMITED) || cfg->cpus_milli;
	int r;

	if (!run->cg_usable)
		return 0;
	struct nsb_cgroup_limits lim = {
		.memory_max = l->memory,
		/* the asked limit or the default, when the cgroup enforces it */
		.pids_max = l->pids_via == NSB_VIA_CGROUP ? l->pids : 0,
		.cpu_quota_us = l->cpu_quota_us,
		.cpu_period_us = l->cpu_period_us,
	};
	r = nsb_cgroup_create(&run->cg_place, &lim, &run->cg, e);
	if (r < 0 && !wanted && !cfg->require_cgroup && !cfg->cgroup_parent) {
		fprintf(stderr,
			"nsbox: warning: no cgroup for this run (resources come from rusage): %s\n",
			e->message);
		/* Decided again without a cgroup (which also clears use_cgroup):
		 * the default pids limit moves to RLIMIT_NPROC or is recorded as
		 * not enforced.  Nothing was asked for, so this cannot fail. */
		run->lim_host.cgroup_ok = false;
		run->lim_host.cgroup_pids = false;
		nsb_format(run->fallback_why, sizeof(run->fallback_why), "%s", e->message);
		nsb_error_clear(e);
		return nsb_limits_decide(cfg, &run->lim_host, &run->plan.limits, e);
	}
	return r;
}

/* Accounting from the cgroup, the oom verdict, and removal. */
static void finish_cgroup(struct nsb_run *run)
{
	struct nsb_cgroup_stats st;
	struct nsb_error e = {0};

	if (run->cg.fd < 0)
		return;
	if (nsb_cgroup_read_stats(&run->cg, &st, &e) == 0)
		nsb_verdict_cgroup(&st, &run->res);
	else
		fprintf(stderr, "nsbox: warning: %s\n", e.message);
	nsb_error_clear(&e);
	if (nsb_cgroup_destroy(&run->cg, &e) < 0)
		fprintf(stderr, "nsbox: warning: %s\n", e.message);
}

/* The sandbox was fully built: say what it enforced. */
static void record_enforced(struct nsb_run *run)
{
	/* cg is reset when the cgroup is removed; the record outlives it. */
	nsb_format(run->cgroup_path, sizeof(run->cgroup_path), "%s", run->cg.path);
	struct nsb_enforced_in in = {
		.cfg = run->cfg,
		.plan = &run->plan,
		.limits = &run->plan.limits,
		.bpf = &run->bpf,
		.stdio = &run->stdio,
		.namespaces = run->sb.namespaces,
		.cgroup_path = run->cg.fd >= 0 ? run->cgroup_path : NULL,
		.cgroup_joined = run->sb.cgroup_joined,
	};
	nsb_verdict_enforced(&in, &run->res);
	run->res.enforced.net_policy = run->net_policy;
	nsb_protect_record(run->cfg, &run->plan, &run->covers, &run->res.enforced);
}

static int kill_cgroup(void *ud)
{
	return nsb_cgroup_kill(ud, NULL);
}

/* Clone and supervise; the record gets what the sandbox enforced and did. */
static void spawn_and_supervise(struct nsb_run *run)
{
	const struct nsb_config *cfg = run->cfg;
	struct nsb_result *res = &run->res;
	struct nsb_error e = {0};
	sigset_t mask, old;

	/* Blocked before clone so no signal is lost before the wait loop;
	 * init inherits the mask and reads them from its own signalfd. */
	nsb_supervise_sigset(&mask);
	/* init's alone (it reads it from its signalfd); blocked here so that
	 * it is never acted on before that (base/trim.h). */
	sigaddset(&mask, NSB_SIG_TRIM);
	sigprocmask(SIG_BLOCK, &mask, &old);
	/* A caller that closed its end of our stdout must not kill us
	 * before the record is written. */
	signal(SIGPIPE, SIG_IGN);

	if (nsb_spawn(&run->plan, &run->stdio, run->cg.fd, &run->sb, &e) < 0) {
		finish_cgroup(run);
		nsb_run_fail(run, &e);
		hint_userns(&res->setup_error);
		return;
	}
	/* The gate's tables are freed on the way out (nsb_run_destroy), not
	 * now: every page a free writes after the clone (malloc's headers,
	 * the policy's counts) is copied, and init and the supervisor each
	 * kept a private copy of it (27 KiB more per sandbox). */
	/* Served only where the filter reports (seccomp/filter.h). */
	nsb_notify_init(&run->notify, &run->bpf);
	nsb_run_net_start(run);
	struct nsb_supervise_opts so = {
		.timeout_ms = cfg->timeout_ms,
		.kill_after_ms = cfg->kill_after_ms,
		.pipe_output = run->plan.pipe_output,
		.stdio = &run->stdio,
		.max_output = cfg->has_max_output ? cfg->max_output : UINT64_MAX,
		.capture = cfg->capture,
		.kill_all = run->cg.fd >= 0			      ? kill_cgroup
			    : run->plan.isolation == NSB_ISO_LANDLOCK ? nsb_isolation_kill_all
								      : NULL,
		.kill_ud = &run->cg,
		.notify = run->bpf.notify ? &run->notify : NULL,
		.watch = run->ovl_store ? &run->ovl_store->watch : NULL,
	};
	int r = nsb_supervise(&run->sb, &so, res, &run->cap_out, &run->cap_err, &e);
	/* Nothing of the command runs any more: its change sets are final. */
	if (r >= 0 && run->plan.n_overlays && (run->overlays = calloc(1, sizeof(*run->overlays))))
		nsb_overlays_finish(run->overlays, cfg, &run->plan, run->sb.overlay_sock, res);
	/* The sandbox's descriptors stay open to the exit, as the rest of the
	 * run's (main.c; nsb_run_close in a sanitizer build): four closes
	 * less before the record. */
	/* No PID namespace took the survivors with it (a Landlock run). */
	nsb_isolation_finish(run);
	nsb_run_net_stop(run, res);
	if (r < 0)
		nsb_run_fail(run, &e);
	else if (res->status != NSB_STATUS_SETUP_FAILED)
		record_enforced(run);
	nsb_run_record_seccomp(run);
	if (run->bpf.learn && r >= 0 && res->status != NSB_STATUS_SETUP_FAILED &&
	    nsb_run_write_learned(run, &e) < 0)
		nsb_run_fail(run, &e);
	finish_cgroup(run);
	if (cfg->capture) {
		res->captured = true;
		res->stdout_data = run->cap_out.data;
		res->stdout_len = run->cap_out.len;
		res->stderr_data = run->cap_err.data;
		res->stderr_len = run->cap_err.len;
	}
	if (res->status == NSB_STATUS_EXEC_FAILED && res->setup_error.stage == NSB_STAGE_RESOLVE &&
	    !res->setup_error.hint[0])
		nsb_run_hint_not_found(&res->setup_error, run->plan.argv[0]);
	hint_userns(&res->setup_error);
}

/*
 * What a run that goes ahead needs before the clone; -1 when it failed (run->res
 * says why) or stopped at the gate.  Its own frame, not inlined: its error
 * would otherwise stay on the stack under the whole wait.
 */
static __attribute__((noinline)) int before_spawn(struct nsb_run *run)
{
	struct nsb_error e = {0};

	/* Refused by the gate, or held by an ask rule: nothing is created. */
	if (nsb_run_gate_stops(run))
		return -1;
	/* What the payload's stdin, stdout and stderr will be (a directory
	 * there is a usage error): decided only for a run that goes ahead. */
	if (nsb_stdio_decide(run->cfg->pty, run->plan.pipe_output, &run->stdio, &e) < 0) {
		nsb_run_fail(run, &e);
		return -1;
	}
	if (export_seccomp(run) < 0)
		return -1;
	/* Only for a run that goes ahead: a refusal reads nothing. */
	if (nsb_protect_scan(run->cfg, &run->front.policy, &run->plan, &run->covers, &e) < 0) {
		nsb_run_fail(run, &e);
		return -1;
	}
	nsb_run_warn_covers(run);
	nsb_run_warn_fallbacks(run);
	nsb_run_warn_unwritable_binds(run);
	if (nsb_isolation_prepare(run, &e) < 0 || nsb_ovl_store_new(run, &e) < 0 ||
	    create_cgroup(run, &e) < 0) {
		nsb_run_fail(run, &e);
		return -1;
	}
	return 0;
}

void nsb_run_execute(struct nsb_run *run)
{
	if (before_spawn(run) == 0)
		spawn_and_supervise(run);
}

void nsb_run_destroy(struct nsb_run *run)
{
	struct nsb_error e = {0};

	/* Every path that created the cgroup removed it already; this is the
	 * backstop, so that no early return can leave one behind. */
	if (run->cg.fd >= 0 && nsb_cgroup_destroy(&run->cg, &e) < 0)
		fprintf(stderr, "nsbox: warning: %s\n", e.message);
	nsb_isolation_finish(run);
	if (run->ovl_store)
		nsb_ovl_store_remove(run->ovl_store);
	nsb_run_net_stop(run, &run->res);
}

void nsb_run_close(struct nsb_run *run)
{
	nsb_sandbox_close(&run->sb);
	if (run->overlays) {
		nsb_overlays_close(run->overlays);
		free(run->overlays);
		run->overlays = NULL;
	}
	nsb_ovl_store_free(&run->ovl_store);
	nsb_plan_free(&run->plan);
	nsb_notify_close(&run->notify);
	nsb_bpf_free(&run->bpf);
	nsb_cgroup_where_free(&run->cg_where);
	nsb_front_free(&run->front);
	nsb_run_net_free(run);
	free(run->cap_out.data);
	free(run->cap_err.data);
	run->cap_out = run->cap_err = (struct nsb_captured){0};
	for (size_t i = 0; run->mount_real && i < run->cfg->n_mounts; i++)
		free(run->mount_real[i]);
	free(run->mount_real);
	free(run->cwd_real);
	free(run->home_real);
	free(run->project_real);
	run->mount_real = NULL;
	run->cwd_real = run->home_real = run->project_real = NULL;
}
