// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exec rules of the front gate: the deny list (by called name and by
 * symlink-resolved name), wrappers looked through recursively, and
 * interpreters handed inline code.  Each wrapper and interpreter is parsed
 * with its own option syntax, because a generic "skip words that start with
 * a dash" gets both ways wrong: it misses the command behind an option that
 * takes a value (timeout -s KILL 5 rm) and sees code where there is none
 * (python3 script.py -c conf).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gate/gate_interp.h"
#include "gate/gate_shellopt.h"
#include "gate/gate_opts.h"
#include "gate/gate_rules.h"
#include "base/macro.h"

/* ---- tables --------------------------------------------------------- */

enum wrap_kind {
	W_PLAIN,   /* options, then the command */
	W_ENV,	   /* options, NAME=VALUE..., then the command */
	W_TIMEOUT, /* options, DURATION, then the command */
	W_XARGS,   /* options, then the command (its arguments come from stdin) */
	W_BUSYBOX, /* busybox APPLET ARGS */
	W_FIND,	   /* find ... -exec CMD ... ; */
};

struct wrapper {
	const char *name;
	enum wrap_kind kind;
	struct optspec o;
};

static const struct wrapper wrappers[] = {
	{"env",
	 W_ENV,
	 {.flags = "i0v",
	  .arg = "u",
	  .refuse = "CS",
	  .long_flag = L("--ignore-environment", "--null", "--debug", "--list-signal-handling"),
	  .long_arg = L("--unset"),
	  .long_optrest = L("--block-signal", "--default-signal", "--ignore-signal"),
	  /* env -S splits one string into a command line; env -C moves the
	   * working directory out from under every relative path we judged */
	  .long_refuse = L("--split-string", "--chdir"),
	  .strict = true,
	  .dash_is_opt = true}},
	{"nice",
	 W_PLAIN,
	 {.arg = "n", .long_arg = L("--adjustment"), .strict = true, .adjustment = true}},
	{"nohup", W_PLAIN, {.strict = true}},
	{"timeout",
	 W_TIMEOUT,
	 {.flags = "vfp",
	  .arg = "sk",
	  .long_arg = L("--signal", "--kill-after"),
	  .long_flag = L("--verbose", "--foreground", "--preserve-status"),
	  .strict = true}},
	{"stdbuf",
	 W_PLAIN,
	 {.arg = "ioe", .long_arg = L("--input", "--output", "--error"), .strict = true}},
	{"setsid",
	 W_PLAIN,
	 {.flags = "cfw",
	  .noexec = "hV",
	  .long_flag = L("--ctty", "--fork", "--wait"),
	  .strict = true}},
	{"xargs",
	 W_XARGS,
	 {.flags = "0rtpxo",
	  .arg = "adEILnPs",
	  .optrest = "eil",
	  .long_flag = L("--null", "--no-run-if-empty", "--verbose", "--interactive", "--exit",
			 "--open-tty", "--show-limits"),
	  .long_arg = L("--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars",
			"--process-slot-var"),
	  .long_optrest = L("--eof", "--replace", "--max-lines"),
	  .strict = true}},
	{"command", W_PLAIN, {.flags = "p", .noexec = "vV", .strict = true}},
	{"time",
	 W_PLAIN,
	 {.flags = "pvqa",
	  .arg = "fo",
	  .long_arg = L("--format", "--output"),
	  .long_flag = L("--portability", "--verbose", "--quiet", "--append"),
	  .strict = true}},
	{"ionice", W_PLAIN, {.flags = "tP", .arg = "cnpPu", .strict = true}},
	{"busybox", W_BUSYBOX, {.strict = true}},
	{"find", W_FIND, {.strict = false}},
};

static const struct wrapper *find_wrapper(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(wrappers); i++)
		if (strcmp(wrappers[i].name, name) == 0)
			return &wrappers[i];
	return NULL;
}

/* ---- rules ---------------------------------------------------------- */

static int check_cmd(struct nsb_gate_ctx *c, int s, int e, int depth, const char *real_base);

/* The basename of the realpath of a command named in argv, or NULL. */
static const char *resolve_cmd(struct nsb_gate_ctx *c, const char *name, char *buf, size_t bufsz)
{
	const struct nsb_fs_ops *fs = c->in->fs;
	char inside[PATH_MAX], host[PATH_MAX];
	int r;

	if (!*name)
		return NULL;
	if (strchr(name, '/')) {
		r = name[0] == '/' ? snprintf(inside, sizeof(inside), "%s", name)
				   : snprintf(inside, sizeof(inside), "%s/%s", c->in->cwd, name);
		if (r < 0 || (size_t)r >= sizeof(inside) ||
		    nsb_gate_map_host(c->in, inside, host, sizeof(host)) < 0)
			return NULL;
		r = fs->realpath(fs->ud, host, buf, bufsz);
	} else if (fs->which) {
		r = fs->which(fs->ud, name, buf, bufsz);
	} else {
		return NULL;
	}
	return r < 0 ? NULL : nsb_gate_basename(buf);
}

static int refuse_denied(struct nsb_gate_ctx *c, int idx, const char *called, const char *real)
{
	const char *name = real ? real : called;
	nsb_gate_refuse(c, NSB_RULE_EXEC_DENYLIST, idx);
	if (real)
		nsb_gate_text(c->v->reason, "'%s' resolves to '%s', which is on the exec deny list",
			      called, real);
	else
		nsb_gate_text(c->v->reason, "'%s' is on the exec deny list", called);
	nsb_gate_text(c->v->hint,
		      "'%s' is not run in this sandbox: do the job with the language's own file "
		      "and process APIs on paths inside the project or an --rw directory, or ask "
		      "the operator to lift it with --allow-exec %s",
		      name, name);
	return 1;
}

static int refuse_wrapper(struct nsb_gate_ctx *c, int idx, const char *wname, const char *why)
{
	nsb_gate_refuse(c, NSB_RULE_EXEC_WRAPPER, idx);
	nsb_gate_text(c->v->reason, "%s: %s", wname, why);
	nsb_gate_text(c->v->hint,
		      "call the program directly, with its arguments as separate words: nsbox "
		      "already gives it a clean environment, its own session and process group, "
		      "and a timeout");
	return 1;
}

static int run_wrapper(struct nsb_gate_ctx *c, const struct wrapper *w, int s, int e, int depth)
{
	char *const *argv = c->in->argv;
	struct parsed po;

	if (depth >= NSB_GATE_MAX_WRAPPERS)
		return refuse_wrapper(c, s, w->name, "wrappers are nested too deeply to follow");

	if (w->kind == W_FIND) {
		for (int j = s + 1; j < e; j++) {
			const char *a = argv[j];
			if (strcmp(a, "-exec") && strcmp(a, "-execdir") && strcmp(a, "-ok") &&
			    strcmp(a, "-okdir"))
				continue;
			int start = j + 1, t = start;
			while (t < e && strcmp(argv[t], ";") &&
			       !(strcmp(argv[t], "+") == 0 && t > start &&
				 strcmp(argv[t - 1], "{}") == 0))
				t++;
			if (t >= e)
				return refuse_wrapper(c, j, "find",
						      "-exec has no ';' or '+' terminator");
			if (t == start)
				return refuse_wrapper(c, j, "find", "-exec names no command");
			if (strstr(argv[start], "{}"))
				return refuse_wrapper(c, start, "find",
						      "the command is taken from the file names");
			c->marks[t] |= NSB_ARG_FIND_END;
			if (check_cmd(c, start, t, depth + 1, NULL))
				return 1;
			j = t;
		}
		return 0;
	}

	if (w->kind == W_BUSYBOX) {
		/* busybox APPLET ...: the applet is the command; busybox --list,
		 * --install and --help run none */
		if (s + 1 >= e || argv[s + 1][0] == '-')
			return 0;
		c->marks[s + 1] |= NSB_ARG_COMMAND;
		return check_cmd(c, s + 1, e, depth + 1, nsb_gate_basename(argv[s + 1]));
	}

	nsb_gate_parse_opts(&w->o, argv, s, e, &po);
	if (po.refuse_idx >= 0)
		return refuse_wrapper(c, po.refuse_idx, w->name,
				      "this option hides the command that runs");
	if (po.unknown_idx >= 0)
		return refuse_wrapper(c, po.unknown_idx, w->name,
				      "unknown option, so the command it runs cannot be found");
	if (po.noexec)
		return 0;
	int inner = po.first;
	if (w->kind == W_ENV)
		while (inner < e && strchr(argv[inner], '='))
			inner++;
	if (w->kind == W_TIMEOUT && inner < e)
		inner++; /* the duration */
	if (inner >= e)
		return 0; /* no command: env prints, nice reports, xargs echoes */
	if (w->kind == W_XARGS && po.replace && *po.replace && strstr(argv[inner], po.replace))
		return refuse_wrapper(c, inner, w->name,
				      "the command is taken from standard input");
	return check_cmd(c, inner, e, depth + 1, NULL);
}

/*
 * Judge the command at argv[s] whose arguments run to argv[e-1].  real_base
 * is the basename of its realpath when the caller knows it.
 */
static int check_cmd(struct nsb_gate_ctx *c, int s, int e, int depth, const char *real_base)
{
	const char *called = nsb_gate_basename(c->in->argv[s]);
	char buf[PATH_MAX];

	c->marks[s] |= NSB_ARG_COMMAND;
	if (!real_base)
		real_base = resolve_cmd(c, c->in->argv[s], buf, sizeof(buf));
	if (real_base && strcmp(real_base, called) == 0)
		real_base = NULL;

	if (nsb_gate_name_denied(c->p, called))
		return refuse_denied(c, s, called, NULL);
	if (real_base && nsb_gate_name_denied(c->p, real_base))
		return refuse_denied(c, s, called, real_base);

	/*
	 * Kind by the called name first: a multi-call binary (busybox) decides
	 * what to be from the name it was called by, and an alias named like
	 * a wrapper or interpreter behaves like one.
	 */
	bool multicall = real_base && strcmp(real_base, "busybox") == 0;
	if (nsb_gate_check_shellopt(c, s, e, called, multicall ? NULL : real_base))
		return 1;
	const struct wrapper *w = find_wrapper(called);
	if (!w && !multicall)
		w = find_wrapper(real_base);
	if (w)
		return run_wrapper(c, w, s, e, depth);

	if (nsb_gate_interp_cmd(c, s, e, called, real_base, multicall))
		return 1;
	return 0;
}

int nsb_gate_check_exec(struct nsb_gate_ctx *c)
{
	return check_cmd(c, 0, c->in->argc, 0, c->in->cmd_real_base ? c->in->cmd_real_base : NULL);
}
