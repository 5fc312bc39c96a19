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
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

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

enum interp_kind {
	I_PLAIN,
	I_AWK,	  /* the first operand is the program unless -f/--file gave one */
	I_DENO,	  /* deno eval CODE, deno repl --eval CODE */
	I_PYTHON, /* -m timeit runs its operands as code */
};

struct interp {
	const char *name; /* family: version suffixes are stripped before lookup */
	enum interp_kind kind;
	struct optspec o;
};

#define SHELL(n)                                                    \
	{                                                           \
		n, I_PLAIN,                                         \
		{                                                   \
			.codeflag = "c", .arg = "oO", .plus = true, \
			.long_arg = L("--rcfile", "--init-file")    \
		}                                                   \
	}
#define NODE(n)                                                                                 \
	{                                                                                       \
		n, I_PLAIN,                                                                     \
		{                                                                               \
			.code = "ep", .arg = "rC", .long_code = L("--eval", "--print"),         \
			.long_arg =                                                             \
				L("--require", "--import", "--loader", "--experimental-loader", \
				  "--input-type", "--conditions", "--title", "--inspect-port")  \
		}                                                                               \
	}
#define AWK(n)                                                                                \
	{                                                                                     \
		n, I_AWK,                                                                     \
		{                                                                             \
			.code = "e", .file = "fE", .arg = "FvilW", .optrest = "dDoLp",        \
			.long_code = L("--source"), .long_file = L("--file", "--exec"),       \
			.long_arg = L("--field-separator", "--assign", "--include", "--load") \
		}                                                                             \
	}

static const struct interp interps[] = {
	{"python",
	 I_PYTHON,
	 {.code = "c", .arg = "WX", .stop = "m", .long_arg = L("--check-hash-based-pycs")}},
	{"pypy", I_PYTHON, {.code = "c", .arg = "WX", .stop = "m"}},
	SHELL("sh"),
	SHELL("bash"),
	SHELL("rbash"),
	SHELL("dash"),
	SHELL("zsh"),
	SHELL("ksh"),
	SHELL("mksh"),
	SHELL("ash"),
	SHELL("yash"),
	SHELL("posh"),
	SHELL("csh"),
	SHELL("tcsh"),
	{"fish",
	 I_PLAIN,
	 {.code = "cC",
	  .arg = "dopf",
	  .long_code = L("--command", "--init-command"),
	  .long_arg = L("--debug", "--debug-output", "--profile", "--features")}},
	NODE("node"),
	NODE("nodejs"),
	NODE("bun"),
	{"deno", I_DENO, {.long_code = L("--eval")}},
	{"perl", I_PLAIN, {.code = "eE", .arg = "I", .optrest = "dDiFxmM", .digits = "0lC"}},
	{"ruby",
	 I_PLAIN,
	 {.code = "e",
	  .arg = "ICEr",
	  .optrest = "FWxKT",
	  .digits = "0",
	  .long_arg = L("--enable", "--disable", "--encoding", "--external-encoding",
			"--internal-encoding")}},
	{"php",
	 I_PLAIN,
	 {.code = "rBRE",
	  .arg = "cdfztSF",
	  .long_code = L("--run", "--process-begin", "--process-code", "--process-end"),
	  .long_arg = L("--php-ini", "--define", "--file", "--process-file", "--zend-extension",
			"--docroot", "--server", "--rf", "--rc", "--re", "--rz", "--ri")}},
	{"lua", I_PLAIN, {.code = "e", .arg = "l"}},
	{"luajit", I_PLAIN, {.code = "e", .arg = "lj", .optrest = "O", .stop = "b"}},
	{"tclsh", I_PLAIN, {0}}, /* no inline-code option: a script or stdin */
	{"wish", I_PLAIN, {0}},
	{"expect", I_PLAIN, {.code = "c", .arg = "fDb"}},
	{"Rscript", I_PLAIN, {.code = "e", .long_arg = L("--file")}},
	{"R", I_PLAIN, {.code = "e", .arg = "f", .long_arg = L("--file")}},
	{"julia",
	 I_PLAIN,
	 {.code = "eE", .arg = "LJpCt", .optrest = "Og", .long_code = L("--eval", "--print")}},
	AWK("awk"),
	AWK("gawk"),
	AWK("mawk"),
	AWK("nawk"),
	AWK("original-awk"),
};

static const struct wrapper *find_wrapper(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(wrappers); i++)
		if (strcmp(wrappers[i].name, name) == 0)
			return &wrappers[i];
	return NULL;
}

/* "python3.11" -> python, "perl5.36" -> perl, "ksh93" -> ksh, "pypy3" -> pypy. */
static const struct interp *find_interp(const char *name)
{
	if (!name)
		return NULL;
	size_t n = strlen(name);
	while (n > 1 && (isdigit((unsigned char)name[n - 1]) || name[n - 1] == '.'))
		n--;
	for (size_t i = 0; i < ARRAY_SIZE(interps); i++)
		if (strlen(interps[i].name) == n && strncmp(interps[i].name, name, n) == 0)
			return &interps[i];
	return NULL;
}

/* Shells: with inline code allowed, their -c program is run by a shell. */
static bool is_shell(const char *name)
{
	static const char *const shells[] = {"sh",   "bash", "dash", "zsh",	"ksh",
					     "mksh", "ash",  "fish", "busybox", NULL};
	for (size_t i = 0; name && shells[i]; i++)
		if (strcmp(name, shells[i]) == 0)
			return true;
	return false;
}

/*
 * Mark the program text of `SHELL [opts] -c PROGRAM`: the first argument
 * after a short-option cluster holding 'c' (-c, -ec, -xc).  Shell syntax in
 * it is interpreted by that shell, so the metacharacter rule, which exists
 * for argv that no shell will read, does not apply to it.
 */
static void mark_shell_code(struct nsb_gate_ctx *c, int s, int e)
{
	for (int i = s + 1; i < e; i++) {
		const char *a = c->in->argv[i];
		if (a[0] != '-' || strcmp(a, "--") == 0)
			return; /* a script file or the end of the options */
		if (a[1] != '-' && strchr(a + 1, 'c')) {
			if (i + 1 < e)
				c->marks[i + 1] |= NSB_ARG_SHELL_CODE;
			return;
		}
	}
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

static int refuse_inline(struct nsb_gate_ctx *c, int idx, const char *name, const char *what)
{
	nsb_gate_refuse(c, NSB_RULE_INTERP_INLINE, idx);
	nsb_gate_text(c->v->reason, "'%s' passes %s to %s", c->in->argv[idx], what, name);
	nsb_gate_text(c->v->hint,
		      "write the program to a file under an --rw directory (for example "
		      "out/snippet) and run that file ('%s%s out/snippet'); an operator can allow "
		      "inline code with --allow-inline-code",
		      name, find_interp(name) && find_interp(name)->kind == I_AWK ? " -f" : "");
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

static int check_interp(struct nsb_gate_ctx *c, const struct interp *ip, int s, int e,
			const char *name)
{
	char *const *argv = c->in->argv;
	struct parsed po;

	nsb_gate_parse_opts(&ip->o, argv, s, e, &po);
	if (po.code_idx >= 0)
		return refuse_inline(c, po.code_idx, name, "program text");
	switch (ip->kind) {
	case I_AWK:
		if (!po.has_file && po.first < e)
			return refuse_inline(c, po.first, name, "program text");
		break;
	case I_PYTHON:
		/* python -m timeit STMT executes its operands */
		if (po.stop_value && strcmp(po.stop_value, "timeit") == 0)
			return refuse_inline(c, po.stop_idx, name, "program text (timeit)");
		break;
	case I_DENO:
		if (po.first < e && strcmp(argv[po.first], "eval") == 0)
			return refuse_inline(c, po.first, name, "program text");
		if (po.first < e && strcmp(argv[po.first], "repl") == 0) {
			nsb_gate_parse_opts(&ip->o, argv, po.first, e, &po);
			if (po.code_idx >= 0)
				return refuse_inline(c, po.code_idx, name, "program text");
		}
		break;
	case I_PLAIN:
		break;
	}
	return 0;
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
	const struct wrapper *w = find_wrapper(called);
	if (!w && !multicall)
		w = find_wrapper(real_base);
	if (w)
		return run_wrapper(c, w, s, e, depth);

	const struct interp *ip = find_interp(called);
	const char *name = called;
	if (!ip && !multicall) {
		ip = find_interp(real_base);
		name = real_base;
	}
	if (ip && !c->p->allow_inline_code)
		return check_interp(c, ip, s, e, name);
	if (ip && is_shell(name))
		mark_shell_code(c, s, e);
	return 0;
}

int nsb_gate_check_exec(struct nsb_gate_ctx *c)
{
	return check_cmd(c, 0, c->in->argc, 0, c->in->cmd_real_base ? c->in->cmd_real_base : NULL);
}
