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
#include "base/fmt.h"
#include "base/macro.h"
#include "base/util.h"

/* ---- table ---------------------------------------------------------- */

#define STDIN_ALL (IA_BARE_STDIN | IA_DASH_STDIN)

#define SHELL(n, fl)                                                                             \
	{                                                                                        \
		n, I_SHELL, IA_BARE_STDIN, "s", NULL,                                            \
		{                                                                                \
			.codeflag = "c", .arg = "oO", .plus = true, .flags = (fl),               \
			.long_arg = L("--rcfile", "--init-file"),                                \
			.long_flag =                                                             \
				L("--login", "--noprofile", "--norc", "--posix", "--restricted", \
				  "--verbose", "--noediting", "--debugger", "--dump-strings",    \
				  "--dump-po-strings", "--protected", "--emulate"),              \
			.unknown_value = true                                                    \
		}                                                                                \
	}
/* POSIX, bash and ksh letters; zsh takes nearly every letter */
#define SHELL_FLAGS "abefhiklmnprstuvxBCDEHPTV"
#define ZSH_FLAGS   "0123456789abdefghiklmnprstuvwxyzABCDEFGHIJKLMNPQRSTUVWXYZ"
#define NODE(n)	    NODE_A(n, STDIN_ALL)
#define NODE_A(n, attr)                                                                            \
	{                                                                                          \
		n, I_NODE, (attr), "i", L("--interactive"),                                        \
		{                                                                                  \
			.code = "ep", .arg = "rC", .flags = "ci",                                  \
			.long_code = L("--eval", "--print"),                                       \
			.long_arg = L("--require", "--import", "--loader",                         \
				      "--experimental-loader", "--input-type", "--conditions",     \
				      "--title", "--inspect-port", "--preload", "--env-file",      \
				      "--stack-size", "--max-old-space-size"),                     \
			.long_flag =                                                               \
				L("--interactive", "--check", "--no-warnings", "--trace-warnings", \
				  "--enable-source-maps", "--experimental-vm-modules",             \
				  "--no-deprecation", "--throw-deprecation", "--trace-uncaught",   \
				  "--inspect", "--inspect-brk", "--abort-on-uncaught-exception"),  \
			.unknown_value = true                                                      \
		}                                                                                  \
	}
#define AWK(n)                                                                                 \
	{                                                                                      \
		n, I_AWK, 0, NULL, NULL,                                                       \
		{                                                                              \
			.code = "e", .file = "fE", .arg = "FvilW", .optrest = "dDoLp",         \
			.flags = "bcCghMnNOPrstSVy", .long_code = L("--source"),               \
			.long_file = L("--file", "--exec"),                                    \
			.long_arg = L("--field-separator", "--assign", "--include", "--load"), \
			.unknown_value = true                                                  \
		}                                                                              \
	}

static const struct interp interps[] = {
	{"python",
	 I_PYTHON,
	 STDIN_ALL,
	 "i",
	 NULL,
	 {.code = "c",
	  .arg = "WXQ",
	  .stop = "m",
	  .flags = "bBdEiIOPqsSuvxR3t",
	  .long_arg = L("--check-hash-based-pycs"),
	  .unknown_value = true}},
	{"pypy",
	 I_PYTHON,
	 STDIN_ALL,
	 "i",
	 NULL,
	 {.code = "c",
	  .arg = "WXQ",
	  .stop = "m",
	  .flags = "bBdEiIOPqsSuvxR3t",
	  .unknown_value = true}},
	SHELL("sh", SHELL_FLAGS),
	SHELL("bash", SHELL_FLAGS),
	SHELL("rbash", SHELL_FLAGS),
	SHELL("dash", SHELL_FLAGS),
	SHELL("zsh", ZSH_FLAGS),
	SHELL("ksh", SHELL_FLAGS),
	SHELL("mksh", SHELL_FLAGS),
	SHELL("ash", SHELL_FLAGS),
	SHELL("yash", SHELL_FLAGS),
	SHELL("posh", SHELL_FLAGS),
	SHELL("csh", SHELL_FLAGS "fFmqX"),
	SHELL("tcsh", SHELL_FLAGS "fFmqX"),
	{"fish",
	 I_PLAIN,
	 IA_BARE_STDIN,
	 "s",
	 NULL,
	 {.code = "cC",
	  .arg = "dopf",
	  .flags = "ilnNPs",
	  .long_code = L("--command", "--init-command"),
	  .long_arg = L("--debug", "--debug-output", "--profile", "--features"),
	  .long_flag = L("--interactive", "--login", "--no-execute", "--no-config", "--private"),
	  .unknown_value = true}},
	NODE("node"),
	NODE("nodejs"),
	NODE_A("bun", IA_DASH_STDIN), /* a bare bun prints its help */
	{"deno",
	 I_DENO,
	 IA_BARE_STDIN,
	 NULL,
	 NULL,
	 {.long_code = L("--eval"), .unknown_value = true}},
	{"perl",
	 I_PERL,
	 STDIN_ALL,
	 NULL,
	 NULL,
	 {.code = "eE",
	  .arg = "I",
	  .optrest = "dDiFxmM",
	  .digits = "0lC",
	  .flags = "acnpsStTuUwWX",
	  .unknown_value = true}},
	{"ruby",
	 I_PLAIN,
	 STDIN_ALL,
	 NULL,
	 NULL,
	 {.code = "e",
	  .arg = "ICEr",
	  .optrest = "FWxKT",
	  .digits = "0",
	  .flags = "acdlnpsSwyU",
	  .long_arg = L("--enable", "--disable", "--encoding", "--external-encoding",
			"--internal-encoding"),
	  .unknown_value = true}},
	{"php",
	 I_PLAIN,
	 STDIN_ALL,
	 "a",
	 L("--interactive"),
	 {.code = "rBRE",
	  .arg = "cdfztSF",
	  .flags = "aCeHnq",
	  .long_code = L("--run", "--process-begin", "--process-code", "--process-end"),
	  .long_arg = L("--php-ini", "--define", "--file", "--process-file", "--zend-extension",
			"--docroot", "--server", "--rf", "--rc", "--re", "--rz", "--ri"),
	  .unknown_value = true}},
	{"lua",
	 I_PLAIN,
	 STDIN_ALL,
	 "i",
	 NULL,
	 {.code = "e", .arg = "l", .flags = "EWi", .unknown_value = true}},
	{"luajit",
	 I_PLAIN,
	 STDIN_ALL,
	 "i",
	 NULL,
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
	 NULL,
	 NULL,
	 {.long_arg = L("-encoding"), .unknown_value = true}},
	{"wish", I_PLAIN, STDIN_ALL, NULL, NULL, {.unknown_value = true}},
	{"expect",
	 I_PLAIN,
	 STDIN_ALL,
	 "i",
	 NULL,
	 {.code = "c", .arg = "fDb", .flags = "dinNv", .unknown_value = true}},
	{"Rscript",
	 I_PLAIN,
	 IA_DASH_STDIN,
	 NULL,
	 NULL,
	 {.code = "e", .long_arg = L("--file"), .unknown_value = true}},
	{"R",
	 I_PLAIN,
	 STDIN_ALL,
	 NULL,
	 L("--interactive"),
	 {.code = "e",
	  .arg = "f",
	  .flags = "qs",
	  .long_arg = L("--file"),
	  .long_flag = L("--vanilla", "--no-save", "--save", "--no-restore", "--slave", "--quiet",
			 "--silent", "--no-environ", "--no-site-file", "--no-init-file",
			 "--interactive", "--no-echo", "--verbose"),
	  .unknown_value = true}},
	{"julia",
	 I_PLAIN,
	 STDIN_ALL,
	 "i",
	 NULL,
	 {.code = "eE",
	  .arg = "LJpCt",
	  .optrest = "Og",
	  .flags = "qi",
	  .long_code = L("--eval", "--print"),
	  .long_flag = L("--quiet", "--banner", "--color", "--history-file", "--startup-file"),
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

const struct interp *nsb_gate_interp_lookup(const char *fam)
{
	for (size_t i = 0; i < ARRAY_SIZE(interps); i++)
		if (strcmp(interps[i].name, fam) == 0)
			return &interps[i];
	return NULL;
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
