// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exec rules of the front gate: the deny list (gate_deny.c), wrappers
 * looked through recursively (gate_wrap.c, their table in the policy), and
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

#include "gate/gate_deny.h"
#include "gate/gate_exec.h"
#include "gate/gate_opts.h"
#include "gate/gate_rules.h"
#include "gate/gate_which.h"
#include "base/macro.h"

/* ---- tables --------------------------------------------------------- */

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
 * Judge the command at argv[s] whose arguments run to argv[e-1].  A word
 * filled in from file names or input is no command the gate can judge.
 */
int nsb_gate_exec_cmd(struct nsb_gate_ctx *c, int s, int e, struct nsb_exec_chain ch,
		      const char *real_base, const char *real_path)
{
	const char *cmd = c->in->argv[s];
	const char *called = nsb_gate_basename(cmd);
	char buf[PATH_MAX];

	c->marks[s] |= NSB_ARG_COMMAND;
	for (int i = 0; i < ch.n_subst; i++)
		if (strstr(cmd, ch.subst[i]))
			return nsb_gate_refuse_wrapper(c, s, called,
						       "the command is taken from file names or "
						       "input, which the gate cannot see");
	if (!real_base && nsb_gate_resolve(c->in, ch.path, cmd, buf, sizeof(buf)) == 0) {
		real_path = buf;
		real_base = nsb_gate_basename(buf);
	}
	if (real_base && strcmp(real_base, called) == 0)
		real_base = NULL;
	if (nsb_gate_check_denied(c, s, e, called, real_base, real_path, ch.ids))
		return 1;

	/*
	 * Kind by the called name first: a multi-call binary (busybox) decides
	 * what to be from the name it was called by, and an alias named like
	 * a wrapper or interpreter behaves like one.
	 */
	const struct nsb_wrapper *rw = nsb_gate_find_wrapper(c->p, real_base);
	bool multicall = rw && rw->run == NSB_RUN_APPLET;
	const struct nsb_wrapper *w = nsb_gate_find_wrapper(c->p, called);
	if (!w && !multicall)
		w = rw;
	if (w)
		return nsb_gate_run_wrapper(c, w, s, e, ch);

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
	struct nsb_exec_chain ch = {.ids = nsb_gate_deny_ids_new()};
	/* without memory for the identity list the names still judge */
	int r = nsb_gate_exec_cmd(c, 0, c->in->argc, ch, c->in->cmd_real_base, c->in->cmd_path);
	nsb_gate_deny_ids_free(ch.ids);
	return r;
}
