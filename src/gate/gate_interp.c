// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Interpreters handed a program the gate cannot read: each interpreter is
 * parsed with its own option syntax (gate_opts.h), so that the argument
 * passing program text is found and a script's own options are not mistaken
 * for it (python3 script.py -c conf).  Called by the exec rule (gate_exec.c)
 * for each command of the chain.  Three findings:
 *
 *   interp.inline  program text in argv: -c/-e CODE, an option whose value
 *                  is code (perl -M with an import list, node --import
 *                  data:...), a debugger's commands (python -m pdb -c)
 *   interp.stdin   the program is read from standard input: "-",
 *                  /dev/stdin, sh -s, python -i, a bare interpreter
 *
 * Module runners (python -m cProfile -m MOD, -m runpy MOD, -m trace
 * --module MOD, coverage run -m MOD) are looked through to the module they
 * run.  An option the table does not know takes the next word as its value
 * (fail closed: the parse reads on instead of stopping at a "script").
 * Interpreters are recognised by family: "python3.11", "perl5.36-x86_64-
 * linux-gnu", "x86_64-linux-gnu-gcc-12", "tclsh8.6", "pdb.py" all reduce to
 * their family name (nsb_gate_tool_family), and gate_exec.c asks with both
 * the called name and the basename of the file it resolves to.
 */
#include <stdio.h>
#include <string.h>

#include "gate/gate_interp_tab.h"
#include "gate/optspec_row.h"
#include "base/macro.h"
#include "base/util.h"

/* ---- rule ----------------------------------------------------------- */

bool nsb_gate_is_stdin_path(const char *a)
{
	static const char *const names[] = {"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0",
					    "/proc/thread-self/fd/0", NULL};
	for (size_t i = 0; names[i]; i++)
		if (strcmp(a, names[i]) == 0)
			return true;
	return false;
}

static int refuse_inline(struct nsb_gate_ctx *c, int idx, const char *name, const char *what)
{
	const struct interp *ip = nsb_gate_find_interp(name);
	nsb_gate_refuse(c, NSB_RULE_INTERP_INLINE, idx);
	nsb_gate_text(c->v->reason, "'%s' passes %s to %s", c->in->argv[idx], what, name);
	nsb_gate_text(c->v->hint,
		      "write the program to a file under an --rw directory (for example "
		      "out/snippet) and run that file ('%s%s out/snippet'); an operator can allow "
		      "inline code with --allow-inline-code",
		      name, ip && ip->kind == I_AWK ? " -f" : "");
	return 1;
}

static int refuse_stdin(struct nsb_gate_ctx *c, int idx, const char *name, const char *what)
{
	const struct interp *ip = nsb_gate_find_interp(name);
	nsb_gate_refuse(c, NSB_RULE_INTERP_STDIN, idx);
	nsb_gate_text(c->v->reason, "%s reads its program from standard input (%s)", name, what);
	nsb_gate_text(c->v->hint,
		      "the gate cannot read a program that arrives on standard input: write it "
		      "to a file under an --rw directory (for example out/snippet) and run that "
		      "file ('%s%s out/snippet'); an operator can allow inline code with "
		      "--allow-inline-code",
		      name, ip && ip->kind == I_AWK ? " -f" : "");
	return 1;
}

static bool has(const char *set, char ch)
{
	return set && ch && strchr(set, ch);
}

static bool in_list(const char *const *list, const char *a)
{
	size_t n = nsb_strcspn(a, "=");
	for (; list && *list; list++)
		if (strlen(*list) == n && strncmp(*list, a, n) == 0)
			return true;
	return false;
}

/*
 * Options of argv[s+1..first): the index of one that makes the interpreter
 * read code from stdin (python -i, sh -s, php -a), or -1.  *bare is left
 * true when every option is a known plain flag (so, with no operand, the
 * program comes from stdin: a bare "bash -x" or "python3 -u").
 */
static int stdin_option(const struct interp *ip, char *const *argv, int s, int first, bool *bare)
{
	*bare = true;
	for (int i = s + 1; i < first; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0 || (ip->kind == I_SHELL && strcmp(a, "-") == 0))
			continue;
		if (a[0] == '-' && a[1] == '-') {
			if (in_list(ip->long_stdin, a))
				return i;
			if (!in_list(ip->o.long_flag, a))
				*bare = false;
			continue;
		}
		if (a[0] != '-' && a[0] != '+') {
			*bare = false; /* an option's value */
			continue;
		}
		for (const char *p = a + 1; *p; p++) {
			if (has(ip->stdin_flags, *p) && a[0] == '-')
				return i;
			if (!has(ip->o.flags, *p)) {
				*bare = false;
				break; /* a value or an unknown letter: the rest is its own */
			}
		}
	}
	return -1;
}

/* perl -MMod, -M-Mod, -MMod=a,b, -d:Mod=x: anything else is code ("use Mod; ..."). */
static bool perl_module_ok(const char *v)
{
	if (*v == '-')
		v++;
	if (!nsb_isalnum((unsigned char)*v) && *v != '_')
		return false;
	/* Foo::Bar, v5.36, 5.010: a name or a version */
	v += nsb_strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_:.");
	if (*v == '=')
		v += 1 + nsb_strspn(v + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					   "0123456789_:,./+-");
	return *v == '\0';
}

/* The -M/-m/-d values of perl's option clusters before the first operand. */
static int check_perl(struct nsb_gate_ctx *c, const struct interp *ip, int s, int first,
		      const char *name)
{
	char *const *argv = c->in->argv;
	for (int i = s + 1; i < first; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || a[1] == '-')
			continue;
		for (const char *p = a + 1; *p; p++) {
			if (has(ip->o.arg, *p)) {
				if (!p[1])
					i++;
				break;
			}
			if (*p == 'M' || *p == 'm') {
				if (!perl_module_ok(p + 1))
					return refuse_inline(c, i, name, "code in a module import");
				break;
			}
			if (*p == 'd') {
				const char *v = p + 1;
				if (*v == 't')
					v++;
				if (*v && (*v != ':' || !perl_module_ok(v + 1)))
					return refuse_inline(c, i, name,
							     "code in a debugger module");
				break;
			}
			if (has(ip->o.optrest, *p))
				break;
		}
	}
	return 0;
}

static bool is_data_url(const char *v)
{
	return nsb_strncasecmp(v, "data:", 5) == 0;
}

/* node --import/--require/--loader/-r VALUE: a data: URL is code, /dev/stdin is stdin. */
static int check_node(struct nsb_gate_ctx *c, int s, int first, const char *name)
{
	static const char *const mods[] = {
		"--require", "--import", "--loader", "--experimental-loader", "--preload", NULL};
	char *const *argv = c->in->argv;
	for (int i = s + 1; i < first; i++) {
		const char *a = argv[i], *v = NULL;
		const char *eq = strchr(a, '=');
		if (strcmp(a, "-r") == 0 && i + 1 < first)
			v = argv[i + 1];
		else if (strncmp(a, "-r", 2) == 0 && a[2])
			v = a + 2;
		else if (a[0] == '-' && a[1] == '-' && in_list(mods, a))
			v = eq ? eq + 1 : (i + 1 < first ? argv[i + 1] : NULL);
		if (!v)
			continue;
		if (is_data_url(v))
			return refuse_inline(c, i, name, "code in a data: URL");
		if (nsb_gate_is_stdin_path(v))
			return refuse_stdin(c, i, name, "a module read from /dev/stdin");
	}
	return 0;
}

/* awk -f -, awk -f /dev/stdin, --file=/dev/stdin */
static int check_awk_file(struct nsb_gate_ctx *c, int s, int first, const char *name)
{
	char *const *argv = c->in->argv;
	for (int i = s + 1; i < first; i++) {
		const char *a = argv[i], *v = NULL;
		if ((strcmp(a, "-f") == 0 || strcmp(a, "-E") == 0 || strcmp(a, "--file") == 0 ||
		     strcmp(a, "--exec") == 0) &&
		    i + 1 < first)
			v = argv[i + 1];
		else if ((a[0] == '-' && (a[1] == 'f' || a[1] == 'E')) && a[2])
			v = a + 2;
		else if (strncmp(a, "--file=", 7) == 0 || strncmp(a, "--exec=", 7) == 0)
			v = strchr(a, '=') + 1;
		if (v && (strcmp(v, "-") == 0 || nsb_gate_is_stdin_path(v)))
			return refuse_stdin(c, i, name, "-f names standard input");
	}
	return 0;
}

/* ---- python module runners ------------------------------------------ */

enum mod_kind {
	M_RUNNER, /* options, then a script or -m MODULE (cProfile, pdb) */
	M_MODULE, /* the first operand is a module (runpy) */
	M_TRACE,  /* --module makes the first operand a module */
	M_CODE,	  /* its operands are code (timeit) */
	M_STDIN,  /* a console reading stdin (code, asyncio) */
	M_COVER,  /* coverage run [-m] MODULE|SCRIPT */
};

/* A table without a pointer (optspec_row.h). */
struct modrunner {
	char name[16];
	enum mod_kind kind;
	struct optspec_row o;
};

static const struct modrunner modrunners[] _cold_data_ = {
	{"cProfile", M_RUNNER, {.arg = "os", .stop = "m", .unknown_value = true}},
	{"profile", M_RUNNER, {.arg = "os", .stop = "m", .unknown_value = true}},
	{"pdb",
	 M_RUNNER,
	 {.code = "c", .stop = "m", .long_code = LIST("--command"), .unknown_value = true}},
	{"runpy", M_MODULE, {.strict = false}},
	{"trace",
	 M_TRACE,
	 {.arg = "fC",
	  .flags = "ctlTrRsmg",
	  .long_flag = LIST("--count", "--trace", "--listfuncs", "--trackcalls", "--report",
			    "--no-report", "--summary", "--missing", "--timing", "--module"),
	  .long_arg = LIST("--file", "--coverdir", "--ignore-module", "--ignore-dir"),
	  .unknown_value = true}},
	{"timeit", M_CODE, {.strict = false}},
	{"code", M_STDIN, {.strict = false}},
	{"asyncio", M_STDIN, {.strict = false}},
	{"coverage", M_COVER, {.strict = false}},
};

static int check_module(struct nsb_gate_ctx *c, int idx, const char *mod, int e, int depth,
			const char *name);

/* The runner's options parsed, its row made into an optspec in this frame
 * only: check_module recurses after it. */
static __attribute__((noinline)) void runner_parse(const struct modrunner *m, char *const *argv,
						   int idx, int e, struct parsed *po)
{
	const char *ptrs[NSB_OPTSPEC_ROW_PTRS];
	struct optspec o;

	nsb_optspec_make(&m->o, &o, ptrs);
	nsb_gate_parse_opts(&o, argv, idx, e, po);
}

/* The script a runner runs: "-" or /dev/stdin is stdin. */
static int check_script(struct nsb_gate_ctx *c, int i, int e, const char *name)
{
	if (i < e && (strcmp(c->in->argv[i], "-") == 0 || nsb_gate_is_stdin_path(c->in->argv[i])))
		return refuse_stdin(c, i, name, "the script is standard input");
	return 0;
}

static int check_cover(struct nsb_gate_ctx *c, int idx, int e, int depth, const char *name)
{
	char *const *argv = c->in->argv;
	int i = idx + 1;
	if (i >= e || strcmp(argv[i], "run") != 0)
		return 0;
	for (i++; i < e; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-m") == 0 || strcmp(a, "--module") == 0) {
			while (++i < e && argv[i][0] == '-')
				;
			return i < e ? check_module(c, i, argv[i], e, depth + 1, name) : 0;
		}
		if (a[0] != '-')
			return check_script(c, i, e, name);
	}
	return 0;
}

/*
 * The module named at argv[idx] (python -m MOD, or a runner's -m): idx is
 * where its own arguments start (idx + 1 onwards).
 */
static int check_module(struct nsb_gate_ctx *c, int idx, const char *mod, int e, int depth,
			const char *name)
{
	const struct modrunner *m = NULL;
	struct parsed po;

	if (!mod)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(modrunners); i++)
		if (strcmp(modrunners[i].name, mod) == 0)
			m = &modrunners[i];
	if (!m)
		return 0;
	if (depth >= NSB_GATE_MAX_WRAPPERS)
		return refuse_inline(c, idx, name, "module runners nested too deeply to follow");
	switch (m->kind) {
	case M_CODE:
		return refuse_inline(c, idx, name, "program text (timeit)");
	case M_STDIN:
		return refuse_stdin(c, idx, name, "an interactive console");
	case M_COVER:
		return check_cover(c, idx, e, depth, name);
	case M_MODULE:
		return idx + 1 < e
			       ? check_module(c, idx + 1, c->in->argv[idx + 1], e, depth + 1, name)
			       : 0;
	case M_RUNNER:
	case M_TRACE:
		break;
	}
	runner_parse(m, c->in->argv, idx, e, &po);
	if (po.code_idx >= 0)
		return refuse_inline(c, po.code_idx, name, "debugger commands");
	if (po.stop_idx >= 0)
		return check_module(c, po.stop_idx, po.stop_value, e, depth + 1, name);
	if (m->kind == M_TRACE) {
		for (int i = idx + 1; i < po.first; i++)
			if (strcmp(c->in->argv[i], "--module") == 0)
				return po.first < e
					       ? check_module(c, po.first, c->in->argv[po.first], e,
							      depth + 1, name)
					       : 0;
	}
	return check_script(c, po.first, e, name);
}

/* ---- the check ------------------------------------------------------ */

static int check_deno(struct nsb_gate_ctx *c, const struct interp *ip, int s, int first, int e,
		      const char *name)
{
	char *const *argv = c->in->argv;
	struct parsed po;
	if (first >= e)
		return s + 1 == e ? refuse_stdin(c, s, name, "a bare deno is a REPL") : 0;
	const char *sub = argv[first];
	if (strcmp(sub, "eval") == 0)
		return refuse_inline(c, first, name, "program text");
	if (strcmp(sub, "repl") == 0) {
		nsb_gate_parse_opts(&ip->o, argv, first, e, &po);
		if (po.code_idx >= 0)
			return refuse_inline(c, po.code_idx, name, "program text");
		return refuse_stdin(c, first, name, "a REPL");
	}
	if (strcmp(sub, "run") != 0)
		return 0;
	/* deno run [--flags] SCRIPT: its flags take '=' values */
	for (int i = first + 1; i < e; i++) {
		if (is_data_url(argv[i]))
			return refuse_inline(c, i, name, "code in a data: URL");
		if (check_script(c, i, e, name))
			return 1;
		if (argv[i][0] != '-')
			break;
	}
	return 0;
}

static int check_one(struct nsb_gate_ctx *c, const struct interp *ip, int s, int e,
		     const char *name)
{
	char *const *argv = c->in->argv;
	struct parsed po;
	bool bare;

	nsb_gate_parse_opts(&ip->o, argv, s, e, &po);
	if (po.code_idx >= 0)
		return refuse_inline(c, po.code_idx, name, "program text");
	int first = po.first;
	if (po.stop_idx >= 0)
		first = po.stop_idx; /* python -m MOD: the options end at -m */
	int si = stdin_option(ip, argv, s, first, &bare);
	if (si >= 0)
		return refuse_stdin(c, si, name, "an option that reads commands from stdin");
	if (ip->kind == I_PERL && check_perl(c, ip, s, first, name))
		return 1;
	if (ip->kind == I_NODE && check_node(c, s, first, name))
		return 1;
	if (ip->kind == I_AWK && check_awk_file(c, s, first, name))
		return 1;
	switch (ip->kind) {
	case I_AWK:
		if (!po.has_file && po.first < e)
			return refuse_inline(c, po.first, name, "program text");
		return 0;
	case I_PYTHON:
		if (po.stop_idx >= 0)
			return check_module(c, po.stop_idx, po.stop_value, e, 0, name);
		break;
	case I_DENO:
		return check_deno(c, ip, s, po.first, e, name);
	case I_SHELL:
		if (po.first < e && strcmp(argv[po.first], "-") == 0)
			po.first++; /* sh - script: "-" ends the options */
		break;
	case I_NODE:
		if (po.first < e && is_data_url(argv[po.first]))
			return refuse_inline(c, po.first, name, "code in a data: URL");
		break;
	case I_PERL:
	case I_PLAIN:
		break;
	}
	if (po.first >= e) {
		if ((ip->attr & IA_BARE_STDIN) && bare && !po.unknown_seen)
			return refuse_stdin(c, e - 1, name, "no script is named");
		return 0;
	}
	const char *op = argv[po.first];
	if (nsb_gate_is_stdin_path(op) || ((ip->attr & IA_DASH_STDIN) && strcmp(op, "-") == 0))
		return refuse_stdin(c, po.first, name, "the script is standard input");
	return 0;
}

int nsb_gate_interp_cmd(struct nsb_gate_ctx *c, int s, int e, const char *called,
			const char *real_base, bool multicall)
{
	const struct interp *ip = nsb_gate_find_interp(called);
	const struct interp *rp = multicall ? NULL : nsb_gate_find_interp(real_base);
	if (!ip && !rp)
		return 0;
	if (c->p->allow_inline_code) {
		if (nsb_gate_is_shell(ip ? called : real_base))
			nsb_gate_mark_shell_code(c, s, e);
		return 0;
	}
	if (ip && check_one(c, ip, s, e, called))
		return 1;
	/* the file it resolves to is another interpreter (a renamed copy or
	 * link): judge it as that one too */
	if (rp && rp != ip && check_one(c, rp, s, e, real_base))
		return 1;
	return 0;
}
