// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsbox: run one command in fresh namespaces and report what happened.
 * argv -> config -> the special modes or one run (run.c) -> the record and
 * the exit status.  The only place that prints a fatal error and exits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "base/clock.h"
#include "base/exitcode.h"
#include "base/macro.h"
#include "base/prefault.h"
#include "base/util.h"
#include "gate/policy.h"
#include "seccomp/builtin.h"
#include "supervisor/doctor.h"
#include "supervisor/overlay_export.h"
#include "supervisor/request_load.h"
#include "supervisor/run.h"
#include "supervisor/verdict.h"

/* 1 in the profiling build of `make hot-functions` (Makefile). */
#ifndef NSB_HOTPROF
#define NSB_HOTPROF 0
#endif

/* Say what went wrong, write the record, and return the exit status. */
static int report(struct nsb_result *res, int result_fd, int64_t start)
{
	const struct nsb_error *se = &res->setup_error;
	int r;

	res->duration_ms = nsb_mono_ms() - start;
	if (res->status == NSB_STATUS_DENIED) {
		fprintf(stderr, "nsbox: refused: %s: '", res->denial.rule);
		nsb_fputs_escaped(stderr, res->denial.token);
		fprintf(stderr, "' (argument %d): %s\n", res->denial.argv_index, res->denial.hint);
	}
	if (res->status == NSB_STATUS_NEEDS_APPROVAL) {
		fprintf(stderr, "nsbox: needs approval: %s: %s\n", res->approval_rule, res->reason);
		fprintf(stderr, "nsbox: hint: %s\n", res->approval_hint);
	}
	if (res->has_setup_error && res->status != NSB_STATUS_EXITED &&
	    res->status != NSB_STATUS_SIGNALED) {
		fprintf(stderr, "nsbox: %s\n", se->message);
		if (se->hint[0])
			fprintf(stderr, "nsbox: hint: %s\n", se->hint);
	}
	if (res->has_setup_error && !res->reason)
		res->reason = se->message;
	/* A caller that asked for the record relies on it: losing it is nsbox
	 * failing, whatever the command did (said on stderr here). */
	if (result_fd >= 0 && (r = nsb_result_write(result_fd, res)) < 0) {
		fprintf(stderr, "nsbox: write the result record to fd %d: %s\n", result_fd,
			strerror(-r));
		return NSB_EXIT_NSBOX;
	}
	return nsb_exit_code_for(res);
}

/* --check: the plan and the gate's verdict on stdout; nothing is created. */
static int print_check(struct nsb_run *run)
{
	struct nsb_error e = {0};

	if (nsb_front_print_plan(stdout, run->cfg, &run->plan, &run->front, &run->bpf, &e) < 0) {
		fprintf(stderr, "nsbox: %s\n", e.message);
		return NSB_EXIT_NSBOX;
	}
	return nsb_front_goes_ahead(&run->front) ? 0 : NSB_EXIT_DENIED;
}

/* Which mode, on which run; returns the exit status once everything is said. */
static int dispatch(struct nsb_run *run, int parsed, struct nsb_error *e, int64_t start)
{
	const struct nsb_config *cfg = run->cfg;

	if (parsed < 0)
		nsb_run_fail(run, e);
	else if (cfg->print_policy) {
		/* A bad --policy is a usage error like in a run: message and record. */
		if (nsb_front_policy(cfg, &run->front, e) == 0) {
			if (nsb_policy_print(stdout, &run->front.policy, e) == 0)
				return 0;
			fprintf(stderr, "nsbox: %s\n", e->message);
			return NSB_EXIT_NSBOX;
		}
		nsb_run_fail(run, e);
	} else if (cfg->print_profile) {
		/* The embedded text: the same bytes as the file it was built from. */
		const struct nsb_builtin_profile *bp = NULL;
		if (nsb_builtin_text(cfg->print_profile, &bp, e) == 0)
			return fwrite(bp->text, 1, bp->text_len, stdout) != bp->text_len ||
					       fflush(stdout) != 0
				       ? NSB_EXIT_NSBOX
				       : 0;
		nsb_run_fail(run, e);
	} else if (!cfg->cmd_argv) {
		/* --seccomp-export without a command: write the program and stop. */
		if (nsb_run_export_only(run) == 0)
			return 0;
	} else if (nsb_run_prepare(run) == 0) {
		if (cfg->check)
			return print_check(run);
		nsb_run_execute(run);
	}
	return report(&run->res, cfg->result_fd, start);
}

/* nsbox apply EXPORT DIR: an --overlay-mode export, applied (overlay_export.h).
 * Not inlined: its error would sit in main's frame. */
static __attribute__((noinline)) int apply_export(int argc, char *argv[])
{
	struct nsb_error e = {0};

	if (argc != 4) {
		fputs("usage: nsbox apply EXPORT DIR\n", stderr);
		return NSB_EXIT_NSBOX;
	}
	if (nsb_ovl_apply_export(argv[2], argv[3], &e) < 0) {
		fprintf(stderr, "nsbox: apply: %s\n", e.message);
		if (e.hint[0])
			fprintf(stderr, "nsbox: hint: %s\n", e.hint);
		return NSB_EXIT_NSBOX;
	}
	return 0;
}

/*
 * main's state.  Static: the config's lists and the run's buffers are large,
 * and a page of static storage costs memory only once written.  One object,
 * so that its layout is the one written here; in .lbss, which the linker
 * puts after all of .bss, so that every other static of nsbox and of its
 * libraries (a few hundred bytes) shares the page of .data that each
 * process writes anyway.  The run starts a page: after its cgroup's paths,
 * what every run writes of it fills whole pages (run.h).
 */
static struct {
	struct nsb_config cfg;
	struct nsb_run run __attribute__((aligned(4096)));
	/* The request's arena: the config points into it until the end. */
	struct nsb_jdoc request;
	/* Not in main's frame, which stays under the supervisor's wait for
	 * the whole run: 5 KiB of stack pages no trim can give back
	 * (base/trim.h).  Touched only when written. */
	struct nsb_error e, fe;
} m __attribute__((section(".lbss.nsb_main"), aligned(4096)));

int main(int argc, char *argv[])
{
	struct nsb_config *cfg = &m.cfg;
	struct nsb_run *run = &m.run;
	struct nsb_error *e = &m.e, *fe = &m.fe;
	int64_t start = nsb_mono_ms();
	int r;

	/* A subcommand, before any option: nothing of a run is set up. */
	if (argc >= 2 && strcmp(argv[1], "doctor") == 0)
		return nsb_doctor_main(argc - 1, argv + 1);
	/* A verb, not a command: "nsbox -- apply" runs a command named apply. */
	if (argc >= 2 && strcmp(argv[1], "apply") == 0)
		return apply_export(argc, argv);
	/* The stack and heap pages a run is about to write, in two calls
	 * instead of a fault each (base/prefault.h). */
	nsb_prefault_main(NSB_PREFAULT_MAIN_STACK, NSB_PREFAULT_MAIN_HEAP);
	nsb_run_init(run, cfg);
	r = nsb_cli_parse(argc, argv, cfg, e);
	if (r >= 0 && (cfg->help || cfg->version)) {
		if (cfg->help)
			fputs(nsb_cli_usage, stdout);
		else
			printf("nsbox %s\n", NSB_VERSION);
		return 0;
	}
	/* A record can only go to an fd that is really there; a usage error
	 * already found is the one reported. */
	if (cfg->result_fd >= 0 && nsb_result_fd_check(cfg->result_fd, r < 0 ? fe : e) < 0) {
		cfg->result_fd = -1;
		r = -EBADF;
	}
	/* The document's errors are usage errors with a record, like an option's. */
	if (r >= 0 && (cfg->request || cfg->has_request_fd)) {
		r = nsb_request_load(cfg, &m.request, e);
		if (r >= 0)
			nsb_result_set_request(&run->res, cfg);
	}
	r = dispatch(run, r, e, start);
	nsb_run_destroy(run);
	/*
	 * The record is written and nothing of the run is left outside the
	 * process: its memory and descriptors go with the exit.  Freeing them
	 * would write malloc's headers and the run's pointers on pages the
	 * clone left shared with init, each write a copy-on-write fault, and
	 * the C library's exit handlers would fault in more: 238 page faults
	 * a launch become 231, and the launch 1.6 % shorter (perf stat -r 60;
	 * 200 rounds paired, root and an unprivileged user), on a guest where
	 * a fault costs 10 us.  Only what stdio still holds must go out first.
	 * An AddressSanitizer build frees it all, so that its leak check at
	 * the exit sees every allocation of a run released.
	 */
	if (!NSB_ASAN) {
		fflush(NULL);
		/* The profiling build's marks are written by a destructor
		 * (tools/hotprof.c), which only exit runs. */
		if (NSB_HOTPROF)
			exit(r);
		_exit(r);
	}
	nsb_run_close(run);
	nsb_jdoc_free(&m.request);
	return r;
}
