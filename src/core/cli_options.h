/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli's option table, shared by the parser (cli.c) and the rows with their
 * setters (cli_options.c), and by the request document (request.c), which
 * applies its members through the same rows.  Not for other modules: they
 * see cli.h.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "base/error.h"
#include "base/macro.h"

/*
 * One row per option, in --help order.  The table drives the parser (cli.c), the
 * full-spelling check, the scan for --result-fd after a usage error, and the
 * unit test that holds it against nsb_cli_usage; later it can feed shell
 * completions.  `name` is spelt as the user types it ("--ro"), so grepping an
 * option finds its row, and its row names the function that parses it.
 *
 * Most options have one of four shapes, each with one generic setter that
 * writes the config field at `field`:
 *   flag      set_flag      a bool becomes true
 *   path      set_path      a non-empty string of at most NSB_MAX_PATH bytes
 *             set_abs_path  the same, written as a normalized absolute path
 *   size      set_size      bytes with a k/M/G/T suffix, in [min, max]
 *   fraction  set_fraction  a decimal with up to 3 places, in thousandths
 * The rest (mounts, lists, numbers with a word) have a handler of their own.
 * A generic setter's error reads "<name> '<arg>': <what>" with `hint`.
 */
struct nsb_cli_state {
	struct nsb_config *c;
	int argv_index;		    /* the last word the option used: where a mount came from */
	const char *max_output_arg; /* as given, for the --capture check */
	const char *other_option;   /* the first one that may not go with --request */
};

struct nsb_cli_option;
typedef int (*nsb_cli_setter)(const struct nsb_cli_option *o, const char *arg,
			      struct nsb_cli_state *s, struct nsb_error *e);

/* No pointer: the table stays in .rodata, shared (base/macro.h); its
 * setters are named by their index in a table of their own. */
struct nsb_cli_option {
	char name[24];	   /* "--ro" */
	char metavar[16];  /* as in --help; "": a flag, takes no value */
	unsigned char set; /* the setter (cli_options.c, SETTERS) */
	bool stop;	   /* --help, --version: parsing ends here */
	size_t field;	   /* offsetof(struct nsb_config, ...) for the generic setters */
	uint64_t min, max;
	char what[32]; /* error text of a generic setter */
	char hint[128];
};

/* Run o's setter. */
int nsb_cli_set(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
		struct nsb_error *e);

/* The rows, in --help order. */
#define NSB_CLI_N_OPTIONS 54
extern const struct nsb_cli_option nsb_cli_options[];

/* The egress options' setters (cli_net.c). */
int nsb_cli_add_allow_net(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			  struct nsb_error *e);
int nsb_cli_add_deny_net(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			 struct nsb_error *e);
int nsb_cli_add_allow_net_range(const struct nsb_cli_option *o, const char *arg,
				struct nsb_cli_state *s, struct nsb_error *e);
int nsb_cli_set_proxy_port(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			   struct nsb_error *e);

/* Fill e (stage "usage") with the message and the hint (or none); err is a
 * negative errno, returned. */
int nsb_cli_usage_err(struct nsb_error *e, int err, const char *hint, const char *fmt, ...)
	_printf_(4, 5);

/* --isolation's setter (cli_isolation.c): namespaces, landlock or auto. */
int nsb_cli_set_isolation(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			  struct nsb_error *e);
/* cli_overlay.c: --overlay-size, --overlay-mode, and the rules between the
 * overlay options (cli.c's finish: at most NSB_MAX_OVERLAYS, counted into
 * n_overlays; the other options only with one). */
int nsb_cli_check_overlays(struct nsb_config *c, struct nsb_error *e);
int nsb_cli_set_overlay_size(const struct nsb_cli_option *o, const char *arg,
			     struct nsb_cli_state *s, struct nsb_error *e);
int nsb_cli_set_overlay_mode(const struct nsb_cli_option *o, const char *arg,
			     struct nsb_cli_state *s, struct nsb_error *e);

/* cli_request.c: --request, --request-fd, and the rule that only
 * --result-fd, --check and --approved go with them (checked in finish). */
int nsb_cli_set_request(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			struct nsb_error *e);
int nsb_cli_set_request_fd(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			   struct nsb_error *e);
bool nsb_cli_request_may_join(const char *name);
int nsb_cli_request_alone(const struct nsb_cli_state *s, int argc, int optind_now,
			  struct nsb_error *e);
/* cli.c: the rules between options (finish), for the request's options too. */
int nsb_cli_check_rules(struct nsb_cli_state *s, struct nsb_error *e);
