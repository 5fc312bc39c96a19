// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Interpreters handed inline code: each interpreter is parsed with its own
 * option syntax (gate_opts.h), so that the argument passing program text is
 * found and a script's own options are not mistaken for it
 * (python3 script.py -c conf).  Called by the exec rule (gate_exec.c) for
 * each command of the chain.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "gate/gate_interp.h"
#include "gate/gate_opts.h"
#include "base/macro.h"

/* ---- table ---------------------------------------------------------- */

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
const struct interp *nsb_gate_find_interp(const char *name)
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
bool nsb_gate_is_shell(const char *name)
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
void nsb_gate_mark_shell_code(struct nsb_gate_ctx *c, int s, int e)
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

/* ---- rule ----------------------------------------------------------- */

static int refuse_inline(struct nsb_gate_ctx *c, int idx, const char *name, const char *what)
{
	nsb_gate_refuse(c, NSB_RULE_INTERP_INLINE, idx);
	nsb_gate_text(c->v->reason, "'%s' passes %s to %s", c->in->argv[idx], what, name);
	nsb_gate_text(c->v->hint,
		      "write the program to a file under an --rw directory (for example "
		      "out/snippet) and run that file ('%s%s out/snippet'); an operator can allow "
		      "inline code with --allow-inline-code",
		      name,
		      nsb_gate_find_interp(name) && nsb_gate_find_interp(name)->kind == I_AWK
			      ? " -f"
			      : "");
	return 1;
}

int nsb_gate_check_interp(struct nsb_gate_ctx *c, const struct interp *ip, int s, int e,
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
