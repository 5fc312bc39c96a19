// SPDX-License-Identifier: GPL-2.0-or-later
/* What a run's seccomp filter refused or learned, into the record and FILE (run_seccomp.h).  Supervisor. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/util.h"
#include "supervisor/learn.h"
#include "supervisor/run_seccomp.h"

/*
 * What the seccomp filter refused: the listener's entries, whether refusals
 * could be observed at all, a death by SIGSYS (a `kill` rule, decided in
 * the kernel) named, and one line on stderr unless --quiet.
 */
void nsb_run_record_seccomp(struct nsb_run *run)
{
	struct nsb_result *res = &run->res;
	char line[1024];

	nsb_notify_record(&run->notify, res);
	res->has_violations_reporting = true;
	res->violations_reporting = true;
	if (run->bpf.learn) {
		res->violations_reporting = false;
		res->violations_reporting_reason =
			"learning (--seccomp-learn): every call was allowed and counted";
	} else if (run->bpf.none) {
		res->violations_reporting = false;
		res->violations_reporting_reason = "no seccomp filter (--seccomp none)";
	} else if (run->bpf.handoff_refused) {
		res->violations_reporting = false;
		res->violations_reporting_reason =
			"the profile refuses sendmsg or close, with which the sandbox hands its seccomp listener over: refusals were answered in the kernel, uncounted";
	} else if (run->bpf.notify && !run->notify.got) {
		res->violations_reporting = false;
		res->violations_reporting_reason =
			res->status == NSB_STATUS_SETUP_FAILED ||
					res->status == NSB_STATUS_EXEC_FAILED
				? "the sandbox ended before its seccomp listener reached the supervisor"
				: "the kernel gave no seccomp listener (Linux before 5.0, or an enclosing sandbox holds one): refusals were answered in the kernel, uncounted";
	}
	if (res->status == NSB_STATUS_SIGNALED && res->signal == SIGSYS && !run->bpf.none &&
	    !res->reason)
		res->reason = "seccomp";
	if (!run->cfg->quiet && nsb_notify_summary(&run->notify, line, sizeof(line)))
		fprintf(stderr, "%s\n", line);
}

/* --seccomp-learn FILE: what the run used, merged with FILE, written in
 * place (a temporary file renamed over it). */
int nsb_run_write_learned(struct nsb_run *run, struct nsb_error *e)
{
	const char *path = run->cfg->seccomp_learn;
	struct nsb_learned *l = run->notify.learned;
	char tmp[NSB_MAX_PATH + 16], what[256] = "";
	size_t len = 0;

	/* The listener arrived and saw init's own calls at least, or the
	 * run is not the one learning meant. */
	if (!run->notify.got || !l)
		return nsb_error_setx(
			e, -EPROTO, NSB_STAGE_SECCOMP,
			"--seccomp-learn '%s': the run's seccomp listener never arrived", path);
	l->runs = 1;
	int r = nsb_learn_merge(path, l, e);
	if (r < 0)
		return r;
	for (int i = 0; i < run->cfg->cmd_argc && len + 1 < sizeof(what); i++) {
		int n = nsb_format(what + len, sizeof(what) - len, "%s%s", i ? " " : "",
				   run->cfg->cmd_argv[i]);
		if (n < 0)
			break;
		len += (size_t)n;
	}
	for (char *c = what; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	if (nsb_format(tmp, sizeof(tmp), "%s.nsbox-tmp", path) >= (int)sizeof(tmp))
		return nsb_error_setx(e, -ENAMETOOLONG, NSB_STAGE_SECCOMP,
				      "--seccomp-learn: path is too long");
	FILE *f = fopen(tmp, "we");
	if (!f)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SECCOMP, "--seccomp-learn '%s'",
				     tmp);
	r = nsb_learn_write(f, l, what, e);
	if (fclose(f) != 0 && r >= 0)
		r = nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SECCOMP, "--seccomp-learn '%s'",
				  tmp);
	if (r >= 0 && rename(tmp, path) < 0)
		r = nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SECCOMP,
				  "--seccomp-learn: rename '%s' to '%s'", tmp, path);
	if (r < 0)
		unlink(tmp);
	else if (!run->cfg->quiet)
		fprintf(stderr, "nsbox: learned the run's syscalls into '%s' (%u run%s)\n", path,
			l->runs, l->runs == 1 ? "" : "s");
	return r;
}
