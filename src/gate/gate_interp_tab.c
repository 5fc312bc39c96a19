// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The interpreters the gate knows (supervisor, pure): their option syntax
 * (gate_opts.h), the flags that make them read code from stdin, and the
 * family names executables reduce to (python3.11 -> python).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gate/gate_interp_tab.h"
#include "gate/optspec_row.h"
#include "base/fmt.h"
#include "base/macro.h"
#include "base/util.h"

/* ---- table ---------------------------------------------------------- */

#define STDIN_ALL (IA_BARE_STDIN | IA_DASH_STDIN)

#define SHELLIST(n, fl)                                                                        \
	{                                                                                      \
		n, I_SHELL, IA_BARE_STDIN, "s", "",                                            \
		{                                                                              \
			.codeflag = "c", .arg = "oO", .plus = true, .flags = (fl),             \
			.long_arg = LIST("--rcfile", "--init-file"),                           \
			.long_flag = LIST("--login", "--noprofile", "--norc", "--posix",       \
					  "--restricted", "--verbose", "--noediting",          \
					  "--debugger", "--dump-strings", "--dump-po-strings", \
					  "--protected", "--emulate"),                         \
			.unknown_value = true                                                  \
		}                                                                              \
	}
/* POSIX, bash and ksh letters; zsh takes nearly every letter */
#define SHELL_FLAGS "abefhiklmnprstuvxBCDEHPTV"
#define ZSH_FLAGS   "0123456789abdefghiklmnprstuvwxyzABCDEFGHIJKLMNPQRSTUVWXYZ"
#define NODE(n)	    NODE_A(n, STDIN_ALL)
#define NODE_A(n, attr)                                                                           \
	{                                                                                         \
		n, I_NODE, (attr), "i", LIST("--interactive"),                                    \
		{                                                                                 \
			.code = "ep", .arg = "rC", .flags = "ci",                                 \
			.long_code = LIST("--eval", "--print"),                                   \
			.long_arg = LIST("--require", "--import", "--loader",                     \
					 "--experimental-loader", "--input-type", "--conditions", \
					 "--title", "--inspect-port", "--preload", "--env-file",  \
					 "--stack-size", "--max-old-space-size"),                 \
			.long_flag = LIST("--interactive", "--check", "--no-warnings",            \
					  "--trace-warnings", "--enable-source-maps",             \
					  "--experimental-vm-modules", "--no-deprecation",        \
					  "--throw-deprecation", "--trace-uncaught", "--inspect", \
					  "--inspect-brk", "--abort-on-uncaught-exception"),      \
			.unknown_value = true                                                     \
		}                                                                                 \
	}
#define AWK(n)                                                                                    \
	{                                                                                         \
		n, I_AWK, 0, "", "",                                                              \
		{                                                                                 \
			.code = "e", .file = "fE", .arg = "FvilW", .optrest = "dDoLp",            \
			.flags = "bcCghMnNOPrstSVy", .long_code = LIST("--source"),               \
			.long_file = LIST("--file", "--exec"),                                    \
			.long_arg = LIST("--field-separator", "--assign", "--include", "--load"), \
			.unknown_value = true                                                     \
		}                                                                                 \
	}

/* The table's form of struct interp (optspec_row.h). */
struct interp_row {
	char name[16];
	enum interp_kind kind;
	unsigned attr;
	char stdin_flags[4];
	char long_stdin[16];
	struct optspec_row o;
};

static const struct interp_row interps[] = {
	{"python",
	 I_PYTHON,
	 STDIN_ALL,
	 "i",
	 "",
	 {.code = "c",
	  .arg = "WXQ",
	  .stop = "m",
	  .flags = "bBdEiIOPqsSuvxR3t",
	  .long_arg = LIST("--check-hash-based-pycs"),
	  .unknown_value = true}},
	{"pypy",
	 I_PYTHON,
	 STDIN_ALL,
	 "i",
	 "",
	 {.code = "c",
	  .arg = "WXQ",
	  .stop = "m",
	  .flags = "bBdEiIOPqsSuvxR3t",
	  .unknown_value = true}},
	SHELLIST("sh", SHELL_FLAGS),
	SHELLIST("bash", SHELL_FLAGS),
	SHELLIST("rbash", SHELL_FLAGS),
	SHELLIST("dash", SHELL_FLAGS),
	SHELLIST("zsh", ZSH_FLAGS),
	SHELLIST("ksh", SHELL_FLAGS),
	SHELLIST("mksh", SHELL_FLAGS),
	SHELLIST("ash", SHELL_FLAGS),
	SHELLIST("yash", SHELL_FLAGS),
	SHELLIST("posh", SHELL_FLAGS),
	SHELLIST("csh", SHELL_FLAGS "fFmqX"),
	SHELLIST("tcsh", SHELL_FLAGS "fFmqX"),
	{"fish",
	 I_PLAIN,
	 IA_BARE_STDIN,
	 "s",
	 "",
	 {.code = "cC",
	  .arg = "dopf",
	  .flags = "ilnNPs",
	  .long_code = LIST("--command", "--init-command"),
	  .long_arg = LIST("--debug", "--debug-output", "--profile", "--features"),
	  .long_flag = LIST("--interactive", "--login", "--no-execute", "--no-config", "--private"),
	  .unknown_value = true}},
	NODE("node"),
	NODE("nodejs"),
	NODE_A("bun", IA_DASH_STDIN), /* a bare bun prints its help */
	{"deno",
	 I_DENO,
	 IA_BARE_STDIN,
	 "",
	 "",
	 {.long_code = LIST("--eval"), .unknown_value = true}},
	{"perl",
	 I_PERL,
	 STDIN_ALL,
	 "",
	 "",
	 {.code = "eE",
	  .arg = "I",
	  .optrest = "dDiFxmM",
	  .digits = "0lC",
	  .flags = "acnpsStTuUwWX",
	  .unknown_value = true}},
	{"ruby",
	 I_PLAIN,
	 STDIN_ALL,
	 "",
	 "",
	 {.code = "e",
	  .arg = "ICEr",
	  .optrest = "FWxKT",
	  .digits = "0",
	  .flags = "acdlnpsSwyU",
	  .long_arg = LIST("--enable", "--disable", "--encoding", "--external-encoding",
			   "--internal-encoding"),
	  .unknown_value = true}},
	{"php",
	 I_PLAIN,
	 STDIN_ALL,
	 "a",
	 LIST("--interactive"),
	 {.code = "rBRE",
	  .arg = "cdfztSF",
	  .flags = "aCeHnq",
	  .long_code = LIST("--run", "--process-begin", "--process-code", "--process-end"),
	  .long_arg = LIST("--php-ini", "--define", "--file", "--process-file", "--zend-extension",
			   "--docroot", "--server", "--rf", "--rc", "--re", "--rz", "--ri"),
	  .unknown_value = true}},
	{"lua",
	 I_PLAIN,
	 STDIN_ALL,
	 "i",
	 "",
	 {.code = "e", .arg = "l", .flags = "EWi", .unknown_value = true}},
	{"luajit",
	 I_PLAIN,
	 STDIN_ALL,
	 "i",
	 "",
	 {.code = "e",
	  .arg = "lj",
	  .optrest = "O",
	  .stop = "b",
	  .flags = "Ei",
	  .unknown_value = true}},
	/* no inline-code option: a script or stdin */
	{"tclsh",
	 I_PLAIN,
	 STDIN_ALL,
	 "",
	 "",
	 {.long_arg = LIST("-encoding"), .unknown_value = true}},
	{"wish", I_PLAIN, STDIN_ALL, "", "", {.unknown_value = true}},
	{"expect",
	 I_PLAIN,
	 STDIN_ALL,
	 "i",
	 "",
	 {.code = "c", .arg = "fDb", .flags = "dinNv", .unknown_value = true}},
	{"Rscript",
	 I_PLAIN,
	 IA_DASH_STDIN,
	 "",
	 "",
	 {.code = "e", .long_arg = LIST("--file"), .unknown_value = true}},
	{"R",
	 I_PLAIN,
	 STDIN_ALL,
	 "",
	 LIST("--interactive"),
	 {.code = "e",
	  .arg = "f",
	  .flags = "qs",
	  .long_arg = LIST("--file"),
	  .long_flag = LIST("--vanilla", "--no-save", "--save", "--no-restore", "--slave",
			    "--quiet", "--silent", "--no-environ", "--no-site-file",
			    "--no-init-file", "--interactive", "--no-echo", "--verbose"),
	  .unknown_value = true}},
	{"julia",
	 I_PLAIN,
	 STDIN_ALL,
	 "i",
	 "",
	 {.code = "eE",
	  .arg = "LJpCt",
	  .optrest = "Og",
	  .flags = "qi",
	  .long_code = LIST("--eval", "--print"),
	  .long_flag = LIST("--quiet", "--banner", "--color", "--history-file", "--startup-file"),
	  .unknown_value = true}},
	AWK("awk"),
	AWK("gawk"),
	AWK("mawk"),
	AWK("nawk"),
	AWK("original-awk"),
};

/* ---- names ---------------------------------------------------------- */

/* Cut a GNU triplet ("x86_64-linux-gnu-", "-x86_64-linux-gnu") off name. */
static void strip_triplet(char *name)
{
	char *lx = strstr(name, "-linux-");
	if (!lx || lx == name)
		return;
	char *tail = strchr(lx + strlen("-linux-"), '-');
	if (tail) { /* a prefix: x86_64-linux-gnu-gcc-12, x86_64-pc-linux-gnu-gcc */
		memmove(name, tail + 1, strlen(tail + 1) + 1);
		return;
	}
	/* a suffix: perl5.36-x86_64-linux-gnu */
	char *start = lx;
	while (start > name && start[-1] != '-')
		start--;
	if (start > name)
		start[-1] = '\0';
}

void nsb_gate_tool_family(const char *name, char *out, size_t outsz)
{
	static const char *const suffixes[] = {"-static", "-dbg", "-debug", NULL};
	if (!outsz)
		return;
	nsb_format(out, outsz, "%s", name ? name : "");
	strip_triplet(out);
	size_t n = strlen(out);
	for (size_t i = 0; suffixes[i]; i++) {
		size_t k = strlen(suffixes[i]);
		if (n > k && strcmp(out + n - k, suffixes[i]) == 0)
			out[n -= k] = '\0';
	}
	/* a version after a dash: gcc-12, luajit-2.1.0-beta3, guile-3.0 */
	for (char *d = strchr(out + (n > 0), '-'); d; d = strchr(d + 1, '-'))
		if (nsb_isdigit((unsigned char)d[1])) {
			*d = '\0';
			return;
		}
	n = strlen(out);
	/* python3.11d, python3.7m: an ABI letter after the version */
	if (n > 2 && strchr("dmu", out[n - 1]) && nsb_isdigit((unsigned char)out[n - 2]))
		out[--n] = '\0';
	while (n > 1 && (nsb_isdigit((unsigned char)out[n - 1]) || out[n - 1] == '.'))
		out[--n] = '\0';
}

/*
 * Each row the gate needs, made into a struct interp once and kept: at most
 * one per row, written only for the rows a run's commands need (the gate
 * runs on the supervisor's one thread).
 */
static struct interp made[ARRAY_SIZE(interps)] _large_bss_("nsb_interps");
#define STDIN_PTRS (sizeof(((struct interp_row *)0)->long_stdin) / 2 + 1)
static const char *made_ptrs[ARRAY_SIZE(interps)][STDIN_PTRS + NSB_OPTSPEC_ROW_PTRS] _large_bss_(
	"nsb_interps");

static const struct interp *interp_make(size_t i)
{
	const struct interp_row *r = &interps[i];
	struct interp *ip = &made[i];
	const char **ptrs = made_ptrs[i];

	if (ip->name)
		return ip;
	size_t used = 0;
	ip->kind = r->kind;
	ip->attr = r->attr;
	ip->stdin_flags = nsb_row_str(r->stdin_flags, sizeof(r->stdin_flags));
	ip->long_stdin =
		nsb_row_list(r->long_stdin, sizeof(r->long_stdin), ptrs, STDIN_PTRS, &used);
	nsb_optspec_make(&r->o, &ip->o, ptrs + STDIN_PTRS);
	ip->name = r->name;
	return ip;
}

const struct interp *nsb_gate_interp_lookup(const char *fam)
{
	for (size_t i = 0; i < ARRAY_SIZE(interps); i++)
		if (strcmp(interps[i].name, fam) == 0)
			return interp_make(i);
	return NULL;
}

size_t nsb_gate_interp_count(void)
{
	return ARRAY_SIZE(interps);
}

const struct interp *nsb_gate_interp_at(size_t i)
{
	return i < ARRAY_SIZE(interps) ? interp_make(i) : NULL;
}

/* "python3.11" -> python, "perl5.36" -> perl, "ksh93" -> ksh, "pdb.py" -> pdb. */
const struct interp *nsb_gate_find_interp(const char *name)
{
	char fam[NAME_MAX + 1];
	if (!name || !*name)
		return NULL;
	nsb_gate_tool_family(name, fam, sizeof(fam));
	const struct interp *ip = nsb_gate_interp_lookup(fam);
	char *dot = strchr(fam, '.');
	if (!ip && dot && dot != fam) { /* vim.basic, pdb.py */
		*dot = '\0';
		ip = nsb_gate_interp_lookup(fam);
	}
	return ip;
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
