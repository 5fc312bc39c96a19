// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsbox: run one command in fresh namespaces and report what happened.
 * This is the only place that prints a fatal error and exits.
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "cli.h"
#include "dac.h"
#include "front.h"
#include "limitplan.h"
#include "init.h"
#include "plan.h"
#include "policy.h"
#include "result.h"
#include "filter.h"
#include "spawn.h"
#include "supervise.h"
#include "util.h"

#define EXIT_DENIED    123
#define EXIT_TIMED_OUT 124
#define EXIT_NSBOX     125
#define EXIT_NOEXEC    126
#define EXIT_NOTFOUND  127

extern char **environ;

/* Everything main needs lives here, not on the stack (the plan is large). */
static struct nsb_config cfg;
static struct nsb_facts facts;
static struct nsb_plan plan;
static struct nsb_front front;
static struct nsb_stdio stdio_plan;
static char mount_real[NSB_MAX_MOUNTS][PATH_MAX];
static char cwd_real[PATH_MAX], home_real[PATH_MAX], project_real[PATH_MAX];

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void print_error(const struct nsb_error *e)
{
	fprintf(stderr, "nsbox: %s\n", e->message);
	if (e->hint[0])
		fprintf(stderr, "nsbox: hint: %s\n", e->hint);
}

/* Returns false when a record was asked for and could not be delivered. */
static bool write_record(int fd, const struct nsb_result *res)
{
	int r;

	if (fd < 0)
		return true;
	r = nsb_result_write(fd, res);
	if (r < 0) {
		fprintf(stderr, "nsbox: write the result record to fd %d: %s\n", fd, strerror(-r));
		return false;
	}
	return true;
}

/*
 * The record fd must be open for writing, and it must never reach the
 * sandbox: CLOEXEC here, and init closes every inherited fd anyway.
 */
static int check_result_fd(int fd, struct nsb_error *e)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0) {
		nsb_error_set(e, nsb_negerrno(), "usage",
			      "--result-fd %d: not an open file descriptor", fd);
		return nsb_error_hint(
			e, "open it in the calling shell, e.g. --result-fd 3 3>record.json");
	}
	if ((fl & O_ACCMODE) == O_RDONLY)
		return nsb_error_setx(e, EBADF, "usage", "--result-fd %d: not open for writing",
				      fd);
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		return nsb_error_set(e, nsb_negerrno(), "usage",
				     "--result-fd %d: set close-on-exec", fd);
	return 0;
}

/* Resolve every source path now, so the plan is built from real paths and a
 * missing path is reported before anything is created. */
static int gather_facts(struct nsb_error *e)
{
	const char *home = getenv("HOME");

	facts.uid = getuid();
	facts.gid = getgid();
	facts.environ = environ;

	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)) || !realpath(cwd, cwd_real))
		return nsb_error_set(e, nsb_negerrno(), "usage", "resolve the current directory");
	facts.cwd = cwd_real;
	if (home && *home && realpath(home, home_real))
		facts.home = home_real;

	if (cfg.project) {
		struct stat st;
		if (!realpath(cfg.project, project_real)) {
			nsb_error_set(e, nsb_negerrno(), "usage", "--project '%s'", cfg.project);
			return nsb_error_hint(e, "the path is relative to '%s'", cwd_real);
		}
		if (stat(project_real, &st) < 0 || !S_ISDIR(st.st_mode))
			return nsb_error_setx(e, ENOTDIR, "usage",
					      "--project '%s': not a directory", cfg.project);
		facts.project_real = project_real;
	}

	for (size_t i = 0; i < cfg.n_mounts; i++) {
		const struct nsb_mount_arg *m = &cfg.mounts[i];
		const char *opt = m->kind == NSB_MOUNT_RO ? "--ro" : "--rw";
		char src[NSB_MAX_PATH + 1];
		struct stat st;

		if (m->kind == NSB_MOUNT_TMPFS)
			continue;
		snprintf(src, sizeof(src), "%.*s", (int)m->src_len, m->src);
		if (!realpath(src, mount_real[i])) {
			int r = nsb_negerrno();
			nsb_error_set(e, r, "usage", "%s '%s'", opt, src);
			if (r == -ENOENT)
				return nsb_error_hint(
					e, "create it first; a relative path is taken from '%s'",
					cwd_real);
			return r;
		}
		if (stat(mount_real[i], &st) < 0)
			return nsb_error_set(e, nsb_negerrno(), "usage", "%s '%s'", opt, src);
		if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
			return nsb_error_setx(
				e, EINVAL, "usage",
				"%s '%s': only directories and regular files can be bound", opt,
				src);
		facts.mount_src_real[i] = mount_real[i];
		facts.mount_src_is_dir[i] = S_ISDIR(st.st_mode);
	}
	return 0;
}

/*
 * The command was not found inside: say where it is outside, if anywhere, and
 * which --ro would expose it.
 */
static void hint_not_found(struct nsb_error *se, const char *name)
{
	char found[PATH_MAX], dir[PATH_MAX];
	const char *path = getenv("PATH");

	found[0] = '\0';
	if (strchr(name, '/')) {
		if (!realpath(name, found)) {
			nsb_error_hint(se, "'%s' does not exist outside the sandbox either", name);
			return;
		}
		snprintf(dir, sizeof(dir), "%s", found);
		char *sl = strrchr(dir, '/');
		if (sl && sl != dir)
			*sl = '\0';
		nsb_error_hint(se, "'%s' exists outside the sandbox (real path '%s'): add --ro %s",
			       name, found, dir);
		return;
	} else {
		for (const char *d = path ? path : ""; *d && !found[0];) {
			const char *end = strchrnul(d, ':');
			/* Only absolute PATH entries: a relative one means
			 * nothing inside. */
			if (end > d && *d == '/' &&
			    nsb_snprintf(found, sizeof(found), "%.*s/%s", (int)(end - d), d,
					 name) >= 0 &&
			    access(found, X_OK) != 0)
				found[0] = '\0';
			else if (end == d || *d != '/')
				found[0] = '\0';
			d = *end ? end + 1 : end;
		}
		if (!found[0]) {
			nsb_error_hint(
				se,
				"'%s' does not exist outside the sandbox either (searched the caller's PATH)",
				name);
			return;
		}
	}
	snprintf(dir, sizeof(dir), "%s", found);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir)
		*slash = '\0';
	nsb_error_hint(se, "'%s' exists outside the sandbox at '%s': add --ro %s and run it as %s",
		       name, found, dir, found);
}

static int exit_code_for(const struct nsb_result *res)
{
	switch (res->status) {
	case NSB_STATUS_EXITED:
		return res->exit_code;
	case NSB_STATUS_SIGNALED:
		return 128 + res->signal;
	case NSB_STATUS_TIMED_OUT:
		return EXIT_TIMED_OUT;
	case NSB_STATUS_OOM_KILLED:
		return 128 + SIGKILL;
	case NSB_STATUS_DENIED:
		return EXIT_DENIED;
	case NSB_STATUS_EXEC_FAILED:
		return strcmp(res->setup_error.stage, NSB_STAGE_RESOLVE) == 0 ? EXIT_NOTFOUND
									      : EXIT_NOEXEC;
	case NSB_STATUS_SETUP_FAILED:
	case NSB_STATUS_USAGE_ERROR:
		break;
	}
	return EXIT_NSBOX;
}

static int finish(struct nsb_result *res, int64_t start)
{
	res->duration_ms = now_ms() - start;
	if (res->has_setup_error && res->status != NSB_STATUS_EXITED &&
	    res->status != NSB_STATUS_SIGNALED)
		print_error(&res->setup_error);
	if (res->has_setup_error && !res->reason)
		res->reason = res->setup_error.message;
	/* A caller that asked for the record relies on it: losing it is
	 * nsbox failing, whatever the command did (said on stderr above). */
	if (!write_record(cfg.result_fd, res))
		return EXIT_NSBOX;
	return exit_code_for(res);
}

/* Print a token with its control and non-ASCII bytes escaped: it may be binary. */
static void print_escaped(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == '\'' || *p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
	}
}

static int denied(struct nsb_result *res, int64_t start)
{
	const struct nsb_gate_verdict *v = &front.verdict;

	fprintf(stderr, "nsbox: refused: %s: '", v->rule);
	print_escaped(stderr, v->token);
	fprintf(stderr, "' (argument %d): %s\n", v->argv_index, v->hint);
	res->status = NSB_STATUS_DENIED;
	res->denied = true;
	res->exit_code_set = true;
	res->exit_code = NSB_EXIT_CODE_DENIED;
	res->reason = v->reason;
	res->has_denial = true;
	nsb_gate_denial(v, &res->denial);
	return finish(res, start);
}

/* Nothing ran because setting up failed: the record says where and why. */
static int setup_failure(struct nsb_result *res, const struct nsb_error *e, int64_t start)
{
	res->status = NSB_STATUS_SETUP_FAILED;
	res->has_setup_error = true;
	res->setup_error = *e;
	nsb_plan_free(&plan);
	return finish(res, start);
}

static int usage_failure(struct nsb_result *res, const struct nsb_error *e, int64_t start)
{
	res->status = NSB_STATUS_USAGE_ERROR;
	res->has_setup_error = true;
	res->setup_error = *e;
	return finish(res, start);
}

static struct nsb_cgroup cg = NSB_CGROUP_INIT;
static struct nsb_cgroup_place cg_place;
static bool cg_usable;
static char fallback_why[NSB_ERR_MESSAGE_MAX];

/* One line per limit that a weaker mechanism enforces (said only for a run
 * that goes ahead). */
static void warn_fallbacks(void)
{
	if (plan.limits.memory_via == NSB_VIA_RLIMIT)
		fprintf(stderr,
			"nsbox: warning: --memory enforced by RLIMIT_AS and RLIMIT_DATA (address space, per process), not by a cgroup: %s\n",
			fallback_why);
	/* The default was not asked for: the record says how it is enforced. */
	if (plan.limits.pids_via == NSB_VIA_RLIMIT && !plan.limits.pids_default)
		fprintf(stderr,
			"nsbox: warning: --pids enforced by RLIMIT_NPROC (per user namespace), not by a cgroup: %s\n",
			fallback_why);
}

/*
 * Root inside the sandbox is uid 0 without CAP_DAC_OVERRIDE: a writable bind
 * of another user's directory answers EACCES there, which surprises a root
 * caller used to writing anywhere.  Say so before the run, once per bind,
 * and in the record.  (An unprivileged caller is judged by the same bits
 * outside, so nothing is new to it.)
 */
static char warn_path[NSB_RESULT_MAX_WARNINGS][NSB_MAX_PATH + 1];
static char warn_msg[NSB_RESULT_MAX_WARNINGS][NSB_ERR_MESSAGE_MAX];

static void warn_unwritable_binds(struct nsb_result *res)
{
	gid_t groups[NGROUPS_MAX];
	int n_groups;

	if (facts.uid != 0)
		return;
	n_groups = getgroups(ARRAY_SIZE(groups), groups);
	if (n_groups < 0)
		n_groups = 0;
	for (size_t i = 0; i < plan.n_ops; i++) {
		const struct nsb_mount_op *op = &plan.ops[i];
		char msg[NSB_ERR_MESSAGE_MAX], owner[64];
		struct stat st;

		if (!op->user || op->kind != NSB_OP_BIND || op->readonly || stat(op->src, &st) < 0)
			continue;
		struct nsb_dac_inode ino = {.uid = st.st_uid, .gid = st.st_gid, .mode = st.st_mode};
		/* Creating an entry in a directory takes write and search. */
		int want = S_ISDIR(st.st_mode) ? W_OK | X_OK : W_OK;
		if (nsb_dac_allows(&ino, 0, facts.gid, groups, (size_t)n_groups, want))
			continue;
		const struct passwd *pw = getpwuid(st.st_uid);
		if (pw)
			snprintf(owner, sizeof(owner), "%s", pw->pw_name);
		else
			snprintf(owner, sizeof(owner), "uid %u", (unsigned)st.st_uid);
		snprintf(
			msg, sizeof(msg),
			"--rw '%s' is owned by %s (uid %u, gid %u) with mode %04o: root inside the sandbox has no CAP_DAC_OVERRIDE, so writing there fails with EACCES; %s%s",
			op->src, owner, (unsigned)st.st_uid, (unsigned)st.st_gid,
			(unsigned)(st.st_mode & 07777),
			st.st_uid == 0 ? "give its owner write permission (chmod u+w)"
				       : "chown it to root, or run nsbox as ",
			st.st_uid == 0 ? "" : owner);
		fprintf(stderr, "nsbox: warning: %s\n", msg);
		if (res->n_warnings < ARRAY_SIZE(res->warnings)) {
			size_t k = res->n_warnings++;
			snprintf(warn_path[k], sizeof(warn_path[k]), "%s", op->src);
			snprintf(warn_msg[k], sizeof(warn_msg[k]), "%s", msg);
			res->warnings[k].kind = "rw_not_writable";
			res->warnings[k].path = warn_path[k];
			res->warnings[k].message = warn_msg[k];
		}
	}
}

static struct nsb_bpf bpf;

/* Write the compiled program for --seccomp-export (only for a run the gate
 * allowed: a refusal and a dry run create nothing). */
static int export_seccomp(struct nsb_error *e)
{
	_cleanup_close_ int fd = -1;

	if (!cfg.seccomp_export)
		return 0;
	fd = open(cfg.seccomp_export, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return nsb_error_set(e, nsb_negerrno(), "seccomp", "--seccomp-export '%s'",
				     cfg.seccomp_export);
	return nsb_seccomp_export(&bpf, fd, e);
}

/* Compile the profile once, here in the supervisor. */
static int setup_seccomp(struct nsb_error *e)
{
	const char *name = cfg.seccomp ? cfg.seccomp : "default";
	int r = nsb_seccomp_load(name, &bpf, e);

	if (r < 0)
		return r;
	/* The unmapped-ids filter needs the ids the sandbox maps, which only a
	 * run has (a commandless --seccomp-export writes the profile alone). */
	if (cfg.cmd_argv) {
		r = nsb_seccomp_bind_ids(&bpf, plan.uid, plan.gid, e);
		if (r < 0)
			return r;
	}
	plan.seccomp = bpf.none ? NULL : &bpf;
	return 0;
}
static struct nsb_captured cap_out, cap_err;

static int kill_cgroup(void *ud)
{
	return nsb_cgroup_kill(ud, NULL);
}

/*
 * Choose the mechanism for each limit and create the run's cgroup.  cgroup v2
 * first; the rlimit fallback only where DESIGN allows it, announced on
 * stderr and in the record.
 */
static struct nsb_limits_host lim_host;

static int setup_limits(struct nsb_error *e)
{
	struct nsb_cgroup_opts cgo = {.parent = cfg.cgroup_parent, .clean_stale = true};
	const char *need[4];
	size_t n = 0;
	struct nsb_error why = {0}, pids_why = {0};
	bool cg_ok, asked_pids = cfg.pids && cfg.pids != NSB_PIDS_UNLIMITED;
	struct rlimit nproc;
	int r;

	if (cfg.memory)
		need[n++] = "memory";
	if (asked_pids)
		need[n++] = "pids";
	if (cfg.cpus_milli)
		need[n++] = "cpu";
	need[n] = NULL;

	cg_ok = nsb_cgroup_place(&cgo, need, &cg_place, &why) == 0;
	if (!cg_ok && (cfg.cgroup_parent || cfg.require_cgroup)) {
		/* cgroup.c names --cgroup-parent itself where it is at fault. */
		nsb_error_setx(e, why.err ? why.err : EOPNOTSUPP, "cgroup", "%s%s",
			       cfg.cgroup_parent ? "" : "--require-cgroup: ", why.message);
		if (why.hint[0])
			nsb_error_hint(e, "%s", why.hint);
		return -e->err;
	}

	lim_host.cgroup_ok = cg_ok;
	lim_host.cgroup_pids = cg_ok && asked_pids;
	/* The default pids limit rides on the cgroup only where the pids
	 * controller is there too: asked only now, so that its absence never
	 * costs the asked limits their cgroup. */
	if (cg_ok && !cfg.pids) {
		need[n++] = "pids";
		need[n] = NULL;
		struct nsb_cgroup_place with_pids;
		lim_host.cgroup_pids = nsb_cgroup_place(&cgo, need, &with_pids, &pids_why) == 0;
		if (lim_host.cgroup_pids)
			cg_place = with_pids;
	}
	lim_host.uid = getuid();
	lim_host.nproc_hard = UINT64_MAX;
	if (getrlimit(RLIMIT_NPROC, &nproc) == 0 && nproc.rlim_max != RLIM_INFINITY)
		lim_host.nproc_hard = nproc.rlim_max;
	snprintf(fallback_why, sizeof(fallback_why), "%s", why.message);
	lim_host.why_not = fallback_why;
	r = nsb_limits_decide(&cfg, &lim_host, &plan.limits, e);
	if (r < 0)
		return r;

	cg_usable = cg_ok;
	return 0;
}

/*
 * Create the run's cgroup: only after the gate, since a refusal must create
 * nothing.  Without limits a cgroup is still worth having (accounting,
 * one-shot kill) when it is freely available; nothing was asked then, so a
 * failure changes nothing that was promised, and is said on stderr.
 */
static int create_cgroup(struct nsb_error *e)
{
	bool wanted = cfg.memory || (cfg.pids && cfg.pids != NSB_PIDS_UNLIMITED) || cfg.cpus_milli;
	int r;

	if (!cg_usable)
		return 0;
	struct nsb_cgroup_limits lim = {
		.memory_max = cfg.memory,
		/* the asked limit or the default, when the cgroup enforces it */
		.pids_max = plan.limits.pids_via == NSB_VIA_CGROUP ? plan.limits.pids : 0,
		.cpu_quota_us = cfg.cpus_milli * NSB_CGROUP_PERIOD_US_DEFAULT / 1000,
		.cpu_period_us = NSB_CGROUP_PERIOD_US_DEFAULT,
	};
	r = nsb_cgroup_create(&cg_place, &lim, &cg, e);
	if (r < 0 && !wanted && !cfg.require_cgroup && !cfg.cgroup_parent) {
		fprintf(stderr,
			"nsbox: warning: no cgroup for this run (resources come from rusage): %s\n",
			e->message);
		/* Decided again without a cgroup: the default pids limit
		 * moves to RLIMIT_NPROC or is recorded as not enforced.
		 * Nothing was asked for, so this cannot fail. */
		lim_host.cgroup_ok = false;
		lim_host.cgroup_pids = false;
		snprintf(fallback_why, sizeof(fallback_why), "%s", e->message);
		nsb_error_clear(e);
		r = nsb_limits_decide(&cfg, &lim_host, &plan.limits, e);
		if (r < 0)
			return r;
		plan.limits.use_cgroup = false;
		return 0;
	}
	return r;
}

static void add_violation(struct nsb_result *res, const char *kind, uint64_t count)
{
	if (res->n_violations < ARRAY_SIZE(res->violations)) {
		res->violations[res->n_violations].kind = kind;
		res->violations[res->n_violations].count = count;
		res->n_violations++;
	}
}

/* Accounting from the cgroup, the oom verdict, and removal. */
static void cgroup_finish(struct nsb_result *res)
{
	struct nsb_cgroup_stats st;
	struct nsb_error e = {0};

	if (cg.fd < 0)
		return;
	if (nsb_cgroup_read_stats(&cg, &st, &e) == 0) {
		if (st.memory_peak != NSB_CGROUP_MAX)
			res->memory_peak_bytes = (int64_t)st.memory_peak;
		if (st.pids_peak != NSB_CGROUP_MAX)
			res->pids_peak = (int64_t)st.pids_peak;
		if (st.cpu_user_usec != NSB_CGROUP_MAX)
			res->cpu_user_ms = (int64_t)(st.cpu_user_usec / 1000);
		if (st.cpu_system_usec != NSB_CGROUP_MAX)
			res->cpu_sys_ms = (int64_t)(st.cpu_system_usec / 1000);
		/* memory.oom.group kills the whole sandbox, init first or not:
		 * a SIGKILL with an oom_kill event is the OOM killer's work. */
		/* The kernel's refusals, as the cgroup counted them. */
		if (st.pids_max_events != NSB_CGROUP_MAX && st.pids_max_events > 0)
			add_violation(res, "pids.max", st.pids_max_events);
		if (st.memory_max_events != NSB_CGROUP_MAX && st.memory_max_events > 0)
			add_violation(res, "memory.max", st.memory_max_events);
		if (st.oom_kill != NSB_CGROUP_MAX && st.oom_kill > 0)
			add_violation(res, "oom_kill", st.oom_kill);
		if (st.cpu_nr_throttled != NSB_CGROUP_MAX && st.cpu_nr_throttled > 0)
			add_violation(res, "cpu.max", st.cpu_nr_throttled);
		if (st.oom_kill != NSB_CGROUP_MAX && st.oom_kill > 0 &&
		    res->status == NSB_STATUS_SIGNALED && res->signal == SIGKILL) {
			res->status = NSB_STATUS_OOM_KILLED;
			res->oom_killed = true;
			res->signal = SIGKILL;
			res->exit_code_set = false;
			res->reason =
				"the memory limit was reached and the kernel's OOM killer stopped the sandbox";
		}
	} else {
		fprintf(stderr, "nsbox: warning: %s\n", e.message);
	}
	nsb_error_clear(&e);
	if (nsb_cgroup_destroy(&cg, &e) < 0)
		fprintf(stderr, "nsbox: warning: %s\n", e.message);
}

static void fill_enforced(struct nsb_result *res, const struct nsb_sandbox *sbx)
{
	struct nsb_enforced *en = &res->enforced;
	const struct nsb_limits *l = &plan.limits;

	res->has_enforced = true;
	en->namespaces = sbx->namespaces;
	en->caps_dropped = true;
	en->no_new_privs = true;
	en->hostname = plan.hostname;
	en->share_net = plan.share_net;
	en->mount_api = "new";
	en->seccomp_profile = bpf.none ? NSB_SECCOMP_NONE : bpf.profile;
	en->seccomp_sha256 = bpf.none ? NULL : bpf.sha256;
	en->seccomp_default_action = bpf.none ? NULL : bpf.default_action;
	en->seccomp_unmapped_ids = bpf.none || !bpf.ids_action[0] ? NULL : bpf.ids_action;
	en->memory_bytes = l->memory;
	en->memory_via = nsb_via_name(l->memory_via);
	en->pids_max = l->pids;
	en->pids_via = nsb_via_name(l->pids_via);
	en->pids_default = l->pids_default;
	en->pids_reason = l->pids_unenforced;
	en->cpus_milli = l->cpus_milli;
	en->cpu_period_us = NSB_CGROUP_PERIOD_US_DEFAULT;
	en->cpu_quota_us = l->cpus_milli * NSB_CGROUP_PERIOD_US_DEFAULT / 1000;
	en->cpus_via = nsb_via_name(l->cpus_via);
	en->timeout_ms = cfg.timeout_ms;
	en->kill_after_ms = cfg.kill_after_ms;
	en->has_max_output = cfg.has_max_output;
	en->max_output = cfg.max_output;
	en->capture = cfg.capture;
	en->tmp_size = plan.tmp_size;
	en->has_stdio = true;
	en->stdio_pty = stdio_plan.pty;
	for (int fd = 0; fd < 3; fd++)
		en->stdio[fd] = nsb_stdio_name(stdio_plan.how[fd]);
	if (cg.fd >= 0) {
		/* cg is reset when the cgroup is removed; the record outlives it. */
		static char path[sizeof(cg.path)];
		snprintf(path, sizeof(path), "%s", cg.path);
		en->cgroup_path = path;
		en->cgroup_placement = sbx->cgroup_joined ? "join" : "clone3";
	}
}

int main(int argc, char *argv[])
{
	int64_t start = now_ms();
	struct nsb_result res;
	struct nsb_sandbox sb = {.pid = -1, .pidfd = -1, .err_rd = -1, .status_rd = -1};
	struct nsb_error e = {0};
	sigset_t mask, old;
	int r;

	nsb_result_init(&res);

	r = nsb_cli_parse(argc, argv, &cfg, &e);
	if (r >= 0 && cfg.help) {
		fputs(nsb_cli_usage, stdout);
		return 0;
	}
	if (r >= 0 && cfg.version) {
		printf("nsbox %s\n", NSB_VERSION);
		return 0;
	}
	/* A record can only go to an fd that is really there. */
	if (cfg.result_fd >= 0) {
		struct nsb_error fe = {0};
		if (check_result_fd(cfg.result_fd, &fe) < 0) {
			cfg.result_fd = -1;
			if (r >= 0) {
				e = fe;
				r = -EBADF;
			}
		}
	}
	if (r < 0)
		return usage_failure(&res, &e, start);

	if (cfg.print_policy) {
		r = nsb_front_policy(&cfg, &front, &e);
		if (r >= 0)
			r = nsb_policy_print(stdout, &front.policy) < 0 ? -EIO : 0;
		nsb_front_free(&front);
		if (r == -EIO)
			return EXIT_NSBOX;
		/* A bad --policy is a usage error like in a run: message and record. */
		if (r < 0)
			return usage_failure(&res, &e, start);
		return 0;
	}

	/* --seccomp-export without a command: write the program and stop. */
	if (!cfg.cmd_argv) {
		r = setup_seccomp(&e);
		if (r >= 0)
			r = export_seccomp(&e);
		if (r < 0)
			return usage_failure(&res, &e, start);
		nsb_bpf_done(&bpf);
		return 0;
	}

	r = gather_facts(&e);
	if (r < 0)
		return usage_failure(&res, &e, start);

	r = nsb_plan_build(&cfg, &facts, &plan, &e);
	if (r < 0)
		return usage_failure(&res, &e, start);

	r = setup_seccomp(&e);
	if (r < 0) {
		nsb_plan_free(&plan);
		return usage_failure(&res, &e, start);
	}
	r = nsb_front_policy(&cfg, &front, &e);
	if (r < 0) {
		nsb_plan_free(&plan);
		return usage_failure(&res, &e, start);
	}

	r = setup_limits(&e);
	if (r < 0) {
		return setup_failure(&res, &e, start);
	}

	/* The front gate: decided before anything exists. */
	r = nsb_front_check(&cfg, &plan, &front, &e);
	if (r < 0) {
		return setup_failure(&res, &e, start);
	}
	if (cfg.check) {
		r = nsb_front_print_plan(stdout, &cfg, &plan, &front, &bpf);
		nsb_plan_free(&plan);
		if (r < 0) {
			fprintf(stderr, "nsbox: --check: write the plan: %s\n", strerror(-r));
			return EXIT_NSBOX;
		}
		return front.verdict.allowed ? 0 : EXIT_DENIED;
	}
	if (!front.verdict.allowed) {
		nsb_plan_free(&plan);
		return denied(&res, start);
	}

	/* What the payload's stdin, stdout and stderr will be (a directory
	 * there is a usage error): decided only for a run that goes ahead. */
	r = nsb_stdio_decide(cfg.pty, plan.pipe_output, &stdio_plan, &e);
	if (r < 0) {
		nsb_plan_free(&plan);
		return usage_failure(&res, &e, start);
	}

	r = export_seccomp(&e);
	if (r < 0) {
		nsb_plan_free(&plan);
		return usage_failure(&res, &e, start);
	}
	warn_fallbacks();
	warn_unwritable_binds(&res);

	r = create_cgroup(&e);
	if (r < 0) {
		return setup_failure(&res, &e, start);
	}

	/* Blocked before clone so no signal is lost before the wait loop;
	 * init inherits the mask and reads them from its own signalfd. */
	nsb_supervise_sigset(&mask);
	sigprocmask(SIG_BLOCK, &mask, &old);
	/* A caller that closed its end of our stdout must not kill us
	 * before the record is written. */
	signal(SIGPIPE, SIG_IGN);

	r = nsb_spawn(&plan, &stdio_plan, cg.fd, &sb, &e);
	if (r < 0) {
		cgroup_finish(&res);
		return setup_failure(&res, &e, start);
	}

	struct nsb_supervise_opts so = {
		.timeout_ms = cfg.timeout_ms,
		.kill_after_ms = cfg.kill_after_ms,
		.pipe_output = plan.pipe_output,
		.stdio = &stdio_plan,
		.max_output = cfg.has_max_output ? cfg.max_output : UINT64_MAX,
		.capture = cfg.capture,
		.kill_all = cg.fd >= 0 ? kill_cgroup : NULL,
		.kill_ud = &cg,
	};
	r = nsb_supervise(&sb, &so, &res, &cap_out, &cap_err, &e);
	nsb_sandbox_close(&sb);
	if (r < 0) {
		res.status = NSB_STATUS_SETUP_FAILED;
		res.has_setup_error = true;
		res.setup_error = e;
	} else if (res.status != NSB_STATUS_SETUP_FAILED) {
		/* The sandbox was fully built: say what it enforced. */
		fill_enforced(&res, &sb);
	}
	cgroup_finish(&res);
	if (cfg.capture) {
		res.captured = true;
		res.stdout_data = cap_out.data;
		res.stdout_len = cap_out.len;
		res.stderr_data = cap_err.data;
		res.stderr_len = cap_err.len;
	}
	if (res.status == NSB_STATUS_EXEC_FAILED &&
	    strcmp(res.setup_error.stage, NSB_STAGE_RESOLVE) == 0 && !res.setup_error.hint[0])
		hint_not_found(&res.setup_error, plan.argv[0]);

	r = finish(&res, start);
	nsb_plan_free(&plan);
	free(cap_out.data);
	free(cap_err.data);
	nsb_bpf_done(&bpf);
	nsb_front_free(&front);
	return r;
}
