// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsbox: run one command in fresh namespaces and report what happened.
 * argv -> config -> the special modes or one run (run.c) -> the record and
 * the exit status.  The only place that prints a fatal error and exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/cli.h"
#include "base/exitcode.h"
#include "gate/policy.h"
#include "seccomp/builtin.h"
#include "supervisor/run.h"
#include "supervisor/verdict.h"

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
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

/* Say what went wrong, write the record, and return the exit status. */
static int report(struct nsb_result *res, int result_fd, int64_t start)
{
	const struct nsb_error *se = &res->setup_error;
	int r;

	res->duration_ms = now_ms() - start;
	if (res->status == NSB_STATUS_DENIED) {
		fprintf(stderr, "nsbox: refused: %s: '", res->denial.rule);
		print_escaped(stderr, res->denial.token);
		fprintf(stderr, "' (argument %d): %s\n", res->denial.argv_index, res->denial.hint);
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
	int r = nsb_front_print_plan(stdout, run->cfg, &run->plan, &run->front, &run->bpf);

	if (r < 0) {
		fprintf(stderr, "nsbox: --check: write the plan: %s\n", strerror(-r));
		return NSB_EXIT_NSBOX;
	}
	return run->front.verdict.allowed ? 0 : NSB_EXIT_DENIED;
}

/* Which mode, on which run; returns the exit status once everything is said. */
static int dispatch(struct nsb_run *run, int parsed, struct nsb_error *e, int64_t start)
{
	const struct nsb_config *cfg = run->cfg;

	if (parsed < 0)
		nsb_run_fail(run, NSB_STATUS_USAGE_ERROR, e);
	else if (cfg->print_policy) {
		/* A bad --policy is a usage error like in a run: message and record. */
		if (nsb_front_policy(cfg, &run->front, e) == 0)
			return nsb_policy_print(stdout, &run->front.policy) < 0 ? NSB_EXIT_NSBOX
										: 0;
		nsb_run_fail(run, NSB_STATUS_USAGE_ERROR, e);
	} else if (cfg->print_profile) {
		/* The embedded text: the same bytes as the file it was built from. */
		const struct nsb_builtin_profile *bp = NULL;
		if (nsb_builtin_text(cfg->print_profile, &bp, e) == 0)
			return fwrite(bp->text, 1, bp->text_len, stdout) != bp->text_len ||
					       fflush(stdout) != 0
				       ? NSB_EXIT_NSBOX
				       : 0;
		nsb_run_fail(run, NSB_STATUS_USAGE_ERROR, e);
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

int main(int argc, char *argv[])
{
	/* Large (the plan, the gate's roots): static, and only here. */
	static struct nsb_config cfg;
	static struct nsb_run run;
	int64_t start = now_ms();
	struct nsb_error e = {0};
	int r;

	nsb_run_init(&run, &cfg);
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
	r = dispatch(&run, r, &e, start);
	nsb_run_free(&run);
	return r;
}
