// SPDX-License-Identifier: GPL-2.0-or-later
/* Command line -> struct nsb_config: getopt_long driven by the option table.  Pure (supervisor). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/cli.h"
#include "core/cli_options.h"
#include "base/util.h"

/* getopt_long returns CLI_VAL_BASE + the row's index; below it, its own codes. */
#define CLI_VAL_BASE 0x100

static void build_long_options(struct option *lo)
{
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++)
		lo[i] = (struct option){
			.name = nsb_cli_options[i].name + 2,
			.has_arg = nsb_cli_options[i].metavar ? required_argument : no_argument,
			.val = CLI_VAL_BASE + (int)i,
		};
	lo[NSB_CLI_N_OPTIONS] = (struct option){0};
}

/* ---- the parser ------------------------------------------------------------ */

/*
 * getopt_long() returned '?'.  argv[optind - 1] names the culprit only for a
 * long option: inside a cluster such as "-xy" optind has not moved yet and
 * points one argument back, so a short option is named from optopt.  A known
 * long option given a value it does not take ("--share-net=1") comes back
 * with optopt set to its val.
 */
static int unknown_option(struct nsb_error *e, const char *name)
{
	if (optopt >= CLI_VAL_BASE && optopt < CLI_VAL_BASE + (int)NSB_CLI_N_OPTIONS)
		return nsb_cli_usage_err(e, -EINVAL, "see nsbox --help",
					 "option '%s' takes no value",
					 nsb_cli_options[optopt - CLI_VAL_BASE].name);
	if (optopt > 0 && optopt < CLI_VAL_BASE)
		return nsb_cli_usage_err(e, -EINVAL, "see nsbox --help", "unknown option '-%c'",
					 optopt);
	return nsb_cli_usage_err(e, -EINVAL, "see nsbox --help", "unknown option '%s'", name);
}

/*
 * getopt_long takes any unambiguous prefix.  Our callers are programs: "--sh"
 * working today and meaning something else once a new option shares the
 * prefix would be a silent change of meaning.  Options are spelt out in full.
 */
static int check_spelled_out(const struct nsb_cli_option *o, char *const *argv, struct nsb_error *e)
{
	/* A separate value: the option word is the one before. */
	const char *tok = argv[optind - 1];
	size_t n = strlen(o->name);

	if (o->metavar && optind >= 2 && optarg == argv[optind - 1])
		tok = argv[optind - 2];
	if (strncmp(tok, o->name, n) != 0 || (tok[n] != '\0' && tok[n] != '='))
		return nsb_cli_usage_err(e, -EINVAL, "spell options out in full",
					 "option '%s' is abbreviated (did you mean '%s'?)", tok,
					 o->name);
	return 0;
}

/* Bound the input before looking at it. */
static int check_argv_bounds(int argc, char *const *argv, struct nsb_error *e)
{
	size_t total = 0;

	if (argc > NSB_MAX_ARGS)
		return nsb_cli_usage_err(e, -E2BIG,
					 "pass large inputs in a file under an --ro directory",
					 "too many arguments (%d; at most %d)", argc, NSB_MAX_ARGS);
	for (int i = 0; i < argc; i++) {
		total += strlen(argv[i]) + 1;
		if (total > NSB_MAX_ARGV_BYTES)
			return nsb_cli_usage_err(
				e, -E2BIG, "pass large inputs in a file under an --ro directory",
				"arguments too large (more than %u bytes)", NSB_MAX_ARGV_BYTES);
	}
	return 0;
}

/* Rules between options (also for a request's, core/request.c). */
int nsb_cli_check_rules(struct nsb_cli_state *s, struct nsb_error *e)
{
	struct nsb_config *c = s->c;

	if (c->capture && !c->has_max_output) {
		c->max_output = NSB_DEFAULT_CAPTURE;
		c->has_max_output = true;
	}
	if (c->capture && c->max_output > NSB_MAX_CAPTURE)
		return nsb_cli_usage_err(
			e, -E2BIG,
			"captured output goes into the record: use at most --max-output 64M with --capture",
			"--max-output '%s': too large for --capture",
			s->max_output_arg ? s->max_output_arg : "");
	if (nsb_cli_check_overlays(c, e) < 0)
		return -e->err;
	if (c->project && c->no_project)
		return nsb_cli_usage_err(e, -EINVAL, NULL,
					 "--project and --no-project cannot be combined");
	if (c->net_proxy && c->share_net)
		return nsb_cli_usage_err(
			e, -EINVAL, "--share-net hands over the whole host network; choose one",
			"--allow-net, --deny-net, --allow-net-range and --proxy-port cannot be combined with --share-net");
	return 0;
}

/* Rules between options, and the command after them (argv[optind..]). */
static int finish(int argc, char *const *argv, struct nsb_cli_state *s, struct nsb_error *e)
{
	struct nsb_config *c = s->c;
	int r;

	/* The document brings the options: they are checked once it is read. */
	if (c->request || c->has_request_fd)
		return nsb_cli_request_alone(s, argc, optind, e);
	r = nsb_cli_check_rules(s, e);
	if (r < 0)
		return r;
	/* --seccomp-export, --print-policy and --print-profile need no command. */
	if (optind >= argc && (c->seccomp_export || c->print_policy || c->print_profile))
		return 0;
	if (optind >= argc)
		return nsb_cli_usage_err(e, -EINVAL, "usage: nsbox [OPTIONS] [--] COMMAND [ARG...]",
					 "no command given");
	if (!*argv[optind])
		return nsb_cli_usage_err(e, -EINVAL, NULL, "the command name is empty");
	c->cmd_argv = argv + optind;
	c->cmd_argc = argc - optind;
	return 0;
}

static int cli_parse(int argc, char *const *argv, struct nsb_config *c, struct nsb_error *e)
{
	struct option long_options[NSB_CLI_N_OPTIONS + 1];
	struct nsb_cli_state s = {.c = c};
	int opt, li = -1, r;

	nsb_config_init(c);
	r = check_argv_bounds(argc, argv, e);
	if (r < 0)
		return r;
	build_long_options(long_options);

	/*
	 * '+': stop at the first non-option so the command's own options are
	 * never taken for ours; ':' and opterr = 0: getopt prints nothing.
	 */
	opterr = 0;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "+:", long_options, &li)) != -1) {
		const char *name = argv[optind - 1];
		const struct nsb_cli_option *o;

		if (opt == ':')
			return nsb_cli_usage_err(e, -EINVAL, "see nsbox --help",
						 "option '%s' needs a value", name);
		if (opt < CLI_VAL_BASE)
			return unknown_option(e, name);
		o = &nsb_cli_options[opt - CLI_VAL_BASE];
		if (li >= 0) {
			r = check_spelled_out(o, argv, e);
			if (r < 0)
				return r;
		}
		li = -1;
		s.argv_index = optind - 1;
		if (!s.other_option && !nsb_cli_request_may_join(o->name))
			s.other_option = o->name;
		r = o->set(o, optarg, &s, e);
		if (r < 0)
			return r;
		if (o->stop)
			return 0;
	}
	return finish(argc, argv, &s, e);
}

/* Does the exact option word ARG take a separate value? */
static bool takes_value(const char *arg)
{
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++)
		if (strcmp(arg, nsb_cli_options[i].name) == 0)
			return nsb_cli_options[i].metavar != NULL;
	return false;
}

/*
 * After a usage error, find --result-fd anyway, so the record reaches the
 * caller even when the bad option came first.  Only nsbox's own options are
 * looked at: the scan stops at "--" and at the command.
 */
static void find_result_fd(int argc, char *const *argv, struct nsb_config *c)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		uint64_t fd;

		if (strcmp(a, "--") == 0 || a[0] != '-')
			return;
		if (strcmp(a, "--result-fd") == 0 && i + 1 < argc) {
			if (nsb_parse_uint(argv[i + 1], INT_MAX, &fd) == 0 && fd > 2)
				c->result_fd = (int)fd;
			return;
		}
		if (strncmp(a, "--result-fd=", 12) == 0) {
			if (nsb_parse_uint(a + 12, INT_MAX, &fd) == 0 && fd > 2)
				c->result_fd = (int)fd;
			return;
		}
		if (takes_value(a))
			i++;
	}
}

int nsb_cli_parse(int argc, char *const *argv, struct nsb_config *c, struct nsb_error *e)
{
	int r = cli_parse(argc, argv, c, e);

	if (r < 0 && c->result_fd < 0)
		find_result_fd(argc, argv, c);
	return r;
}
