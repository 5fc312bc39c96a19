// SPDX-License-Identifier: GPL-2.0-or-later
/* --request FILE|- and --request-fd N on the command line (the document itself
 * is core/request.c).  Pure (supervisor). */
#include <limits.h>
#include <string.h>

#include "core/cli_options.h"
#include "base/util.h"

/*
 * The options a request document leaves to the command line: where the
 * record goes, the dry run, and an approval (--approved, issue 17 part 2),
 * which a harness adds after a human said yes to the document as it is.
 */
bool nsb_cli_request_may_join(const char *name)
{
	static const char *const join[] = {"--request", "--request-fd", "--result-fd", "--check",
					   "--approved"};

	for (size_t i = 0; i < ARRAY_SIZE(join); i++)
		if (strcmp(name, join[i]) == 0)
			return true;
	return false;
}

int nsb_cli_set_request(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			struct nsb_error *e)
{
	struct nsb_config *c = s->c;

	if (c->request || c->has_request_fd)
		return nsb_cli_usage_err(e, -EINVAL, "give one request document",
					 "--request '%s': a request was already given", arg);
	if (!*arg || strlen(arg) > NSB_MAX_PATH)
		return nsb_cli_usage_err(e, -EINVAL, "name a file, or '-' for standard input",
					 "--request '%s': invalid file name", arg);
	c->request = arg;
	return 0;
}

int nsb_cli_set_request_fd(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			   struct nsb_error *e)
{
	struct nsb_config *c = s->c;
	uint64_t fd;

	if (c->request || c->has_request_fd)
		return nsb_cli_usage_err(e, -EINVAL, "give one request document",
					 "--request-fd '%s': a request was already given", arg);
	if (nsb_parse_uint(arg, INT_MAX, &fd) < 0)
		return nsb_cli_usage_err(e, -EINVAL, NULL,
					 "--request-fd '%s': not a file descriptor number", arg);
	c->request_fd = (int)fd;
	c->has_request_fd = true;
	return 0;
}

/*
 * With a document, the command line holds nothing it could contradict: an
 * option given both ways would need a precedence rule a reviewer of the
 * document could not see.
 */
int nsb_cli_request_alone(const struct nsb_cli_state *s, int argc, int optind_now,
			  struct nsb_error *e)
{
	const char *how = s->c->request ? "--request" : "--request-fd";

	if (s->other_option)
		return nsb_cli_usage_err(
			e, -EINVAL,
			"write every option into the request document (nsbox(1), REQUEST DOCUMENT)",
			"%s: option '%s' cannot be combined with a request", how, s->other_option);
	if (optind_now < argc)
		return nsb_cli_usage_err(e, -EINVAL, "put the command into the document's argv",
					 "%s: a command cannot be given with a request", how);
	return 0;
}
