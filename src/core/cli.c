// SPDX-License-Identifier: GPL-2.0-or-later
/* Command line -> struct nsb_config, driven by the option table.  Pure (supervisor). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/cli.h"
#include "core/cli_options.h"
#include "base/util.h"

/* ---- the parser ------------------------------------------------------------ */

/* nsb_cli_usage_err's error, and NULL for next_option to return. */
#define usage_null(...) (nsb_cli_usage_err(__VA_ARGS__), (const struct nsb_cli_option *)NULL)

/*
 * The option word argv[*i]: "--name", "--name=VALUE", or "--name" with its
 * value in the next word.  Returns its row (NULL: @e says why), *val its
 * value (NULL for an option that takes none); *i moves past the words it
 * used.
 *
 * The C library's getopt_long would take any unambiguous prefix.  Our
 * callers are programs: "--sh" working today and meaning something else
 * once a new option shares the prefix would be a silent change of
 * meaning, so options are spelt out in full and a prefix of one is named.
 * getopt_long is not used at all: its code is a 64 KiB window of libc's
 * text of its own in every launch (base/fmt.h).  The errors come in the
 * order it gave them: an unknown (or ambiguous) word, a value where none
 * is taken, a missing value, then an abbreviation.
 */
static const struct nsb_cli_option *next_option(int argc, char *const *argv, int *i,
						const char **val, struct nsb_error *e)
{
	const char *a = argv[*i], *eq = strchr(a, '=');
	const struct nsb_cli_option *o = NULL;
	size_t n = eq ? (size_t)(eq - a) : strlen(a);
	bool exact = false;
	int matches = 0;

	if (a[1] != '-')
		return usage_null(e, -EINVAL, "see nsbox --help", "unknown option '-%c'", a[1]);
	for (size_t k = 0; k < NSB_CLI_N_OPTIONS && !exact; k++) {
		if (strncmp(nsb_cli_options[k].name, a, n) != 0)
			continue;
		o = &nsb_cli_options[k];
		exact = o->name[n] == '\0';
		matches++;
	}
	if (!exact && matches != 1)
		return usage_null(e, -EINVAL, "see nsbox --help", "unknown option '%s'", a);
	if (eq && !o->metavar[0])
		return usage_null(e, -EINVAL, "see nsbox --help", "option '%s' takes no value",
				  o->name);
	*val = NULL;
	if (o->metavar[0] && !eq && *i + 1 >= argc)
		return usage_null(e, -EINVAL, "see nsbox --help", "option '%s' needs a value", a);
	if (!exact)
		return usage_null(e, -EINVAL, "spell options out in full",
				  "option '%s' is abbreviated (did you mean '%s'?)", a, o->name);
	if (o->metavar[0])
		*val = eq ? eq + 1 : argv[*i + 1];
	*i += o->metavar[0] && !eq ? 2 : 1;
	return o;
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

/* Rules between options, and the command after them (argv[ind..]). */
static int finish(int argc, char *const *argv, int ind, struct nsb_cli_state *s,
		  struct nsb_error *e)
{
	struct nsb_config *c = s->c;
	int r;

	/* The document brings the options: they are checked once it is read. */
	if (c->request || c->has_request_fd)
		return nsb_cli_request_alone(s, argc, ind, e);
	r = nsb_cli_check_rules(s, e);
	if (r < 0)
		return r;
	/* --seccomp-export, --print-policy and --print-profile need no command. */
	if (ind >= argc && (c->seccomp_export || c->print_policy || c->print_profile))
		return 0;
	if (ind >= argc)
		return nsb_cli_usage_err(e, -EINVAL, "usage: nsbox [OPTIONS] [--] COMMAND [ARG...]",
					 "no command given");
	if (!*argv[ind])
		return nsb_cli_usage_err(e, -EINVAL, NULL, "the command name is empty");
	c->cmd_argv = argv + ind;
	c->cmd_argc = argc - ind;
	return 0;
}

static int cli_parse(int argc, char *const *argv, struct nsb_config *c, struct nsb_error *e)
{
	struct nsb_cli_state s = {.c = c};
	int i = 1, r;

	nsb_config_init(c);
	r = check_argv_bounds(argc, argv, e);
	if (r < 0)
		return r;
	/* Up to the first word that is no option ("-" is none) or past "--":
	 * the command's own options are never taken for ours. */
	while (i < argc && argv[i][0] == '-' && argv[i][1] != '\0') {
		const struct nsb_cli_option *o;
		const char *val = NULL;

		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		o = next_option(argc, argv, &i, &val, e);
		if (!o)
			return -e->err;
		s.argv_index = i - 1;
		if (!s.other_option && !nsb_cli_request_may_join(o->name))
			s.other_option = o->name;
		r = nsb_cli_set(o, val, &s, e);
		if (r < 0)
			return r;
		if (o->stop)
			return 0;
	}
	return finish(argc, argv, i, &s, e);
}

/* Does the exact option word ARG take a separate value? */
static bool takes_value(const char *arg)
{
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++)
		if (strcmp(arg, nsb_cli_options[i].name) == 0)
			return nsb_cli_options[i].metavar[0] != '\0';
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
