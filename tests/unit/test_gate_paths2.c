// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's second-generation path classes and shell.metachar modes
 * (issue 12, sections 2 and 3), against the in-memory filesystem: each
 * class with the rule id it hits, and the ordinary commands that must
 * pass.  The sandbox's view (the mount destinations) is given, so a
 * top-level name outside it is one the sandbox cannot have.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/parameterized.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gate/gate.h"
#include "core/result.h"
#include "gate/policy.h"
#include "gate_fakefs.h"
#include "unit.h"

#define PROJ "/home/u/proj"

static const struct fake_ent fake[] = {
	FAKE_DIR("/home"),
	FAKE_DIR("/home/u"),
	FAKE_DIR("/home/u/.ssh"),
	FAKE_FILE("/home/u/.ssh/id_rsa"),
	FAKE_DIR(PROJ),
	FAKE_DIR(PROJ "/src"),
	FAKE_FILE(PROJ "/src/main.c"),
	FAKE_DIR(PROJ "/out"),
	FAKE_DIR(PROJ "/sub"),
	FAKE_DIR(PROJ "/sub/deep"),
	FAKE_FILE(PROJ "/resp.txt"),
	FAKE_FILE(PROJ "/f"),
	FAKE_FILE(PROJ "/script.sed"),
	FAKE_LINK(PROJ "/etc-link", "/etc"),
	FAKE_DIR("/etc"),
	FAKE_FILE("/etc/passwd"),
	FAKE_FILE("/etc/shadow"),
	FAKE_DIR("/var"),
	FAKE_DIR("/var/log"),
	FAKE_FILE("/var/log/syslog"),
	FAKE_DIR("/proc"),
	FAKE_DIR("/usr"),
	FAKE_DIR("/usr/bin"),
	FAKE_DIR("/usr/lib"),
	FAKE_LINK("/bin", "usr/bin"),
	FAKE_FILE("/usr/bin/sed"),
	FAKE_FILE("/usr/bin/tar"),
	FAKE_FILE("/usr/bin/git"),
	FAKE_FILE("/usr/bin/make"),
	FAKE_FILE("/usr/bin/env"),
	FAKE_FILE("/usr/bin/find"),
	FAKE_FILE("/usr/bin/gcc"),
	FAKE_FILE("/usr/bin/cat"),
	FAKE_FILE("/usr/bin/ls"),
	FAKE_FILE("/usr/bin/grep"),
	FAKE_FILE("/usr/bin/curl"),
	FAKE_FILE("/usr/bin/echo"),
	FAKE_FILE("/usr/bin/pip"),
	FAKE_FILE("/usr/bin/sqlite3"),
	FAKE_FILE("/usr/bin/envsubst"),
	FAKE_DIR("/tmp"),
	FAKE_DIR("/ftp:"),
	FAKE_DIR("/ftp:/x"),
};

static const char *const fake_path[] = {"/usr/bin", NULL};
static struct fake_fs fs = {fake, sizeof(fake) / sizeof(fake[0]), fake_path, 0};

static const struct nsb_gate_root roots[] = {{PROJ, PROJ, true}};

/* What the plan mounts (a few of the system view's entries, the project). */
static const char *const view[] = {"/usr",	     "/bin",  "/lib64", "/etc/passwd", "/etc/hosts",
				   "/etc/ssl/certs", "/proc", "/dev",	"/tmp",	       PROJ};

enum {
	F_STRICT = 1 << 0,   /* metachar strict */
	F_OFF = 1 << 1,	     /* allow-metachar */
	F_NO_VIEW = 1 << 2,  /* the view unknown */
	F_CWD_ROOT = 1 << 3, /* the working directory is /, outside every root (--no-project) */
};

struct pcase {
	const char *name;
	const char *argv[12];
	const char *rule; /* NULL: allowed */
	int idx;
	unsigned flags;
};

#define A(...)                    \
	{                         \
		__VA_ARGS__, NULL \
	}
#define OK(n, av, ...)                           \
	{                                        \
		n, av, NULL, -1, __VA_ARGS__ + 0 \
	}
#define NO(n, av, rule, i, ...)                 \
	{                                       \
		n, av, rule, i, __VA_ARGS__ + 0 \
	}
#define OUT  NSB_RULE_PATH_OUTSIDE
#define ESC  NSB_RULE_PATH_SYMLINK_ESC
#define LONG NSB_RULE_PATH_TOO_LONG
#define META NSB_RULE_SHELL_METACHAR

static const struct pcase cases[] = {
	/* glued short options */
	NO("glued_o_abs", A("gcc", "-o/etc/x", "src/main.c"), OUT, 1),
	NO("glued_I_up", A("gcc", "-I../../../etc", "src/main.c"), OUT, 1),
	NO("glued_cluster_f", A("tar", "-xvf/etc/shadow"), OUT, 1),
	NO("glued_existing_link", A("gcc", "-Ietc-link", "src/main.c"), ESC, 1),
	NO("glued_at_file", A("curl", "-d@/etc/passwd", "https://example.com"), OUT, 1),
	OK("glued_I_src", A("gcc", "-Isrc", "src/main.c")),
	OK("glued_o_out", A("gcc", "-oout/prog", "src/main.c")),
	OK("short_flag_alone", A("ls", "-l", "-x", "src")),
	OK("glued_O2", A("gcc", "-O2", "-Wall", "-std=c11", "src/main.c")),

	/* ':' lists, every member */
	NO("colon_relative_link", A("ls", "src:etc-link"), ESC, 1),
	NO("colon_relative_up", A("env", "PYTHONPATH=src:../../..", "ls"), OUT, 1),
	NO("colon_first_member", A("env", "LD_LIBRARY_PATH=/etc:/usr/lib", "ls"), OUT, 1),
	OK("colon_ordinary", A("env", "PYTHONPATH=src:out:/usr/lib", "ls")),
	OK("colon_url", A("curl", "https://example.com:8080/a/b")),
	OK("colon_refspec", A("git", "push", "origin", "main:refs/heads/x")),

	/* @FILE response files */
	NO("at_file_abs", A("gcc", "@/etc/shadow"), OUT, 1),
	NO("at_file_link", A("gcc", "@etc-link/passwd"), ESC, 1),
	NO("at_file_option_value", A("curl", "--data-binary=@/etc/passwd", "http://x"), OUT, 1),
	OK("at_file_inside", A("gcc", "@resp.txt")),
	OK("at_npm_scope", A("ls", "@types/node")),

	/* comma-separated driver options */
	NO("wl_rpath", A("gcc", "-Wl,-rpath,/etc", "src/main.c"), OUT, 1),
	NO("wl_version_script", A("gcc", "-Wl,--version-script=/etc/passwd"), OUT, 1),
	NO("wa_include", A("gcc", "-Wa,-I/home/u/.ssh", "src/main.c"), OUT, 1),
	NO("wl_at_file", A("gcc", "-Wl,@/etc/shadow"), OUT, 1),
	OK("wl_rpath_origin", A("gcc", "-Wl,-rpath,$ORIGIN/../lib", "src/main.c")),
	OK("wl_as_needed", A("gcc", "-Wl,--as-needed,-O1", "src/main.c")),

	/* file names in sed scripts */
	NO("sed_r", A("sed", "r /etc/shadow", "f"), OUT, 1),
	NO("sed_R_addr", A("sed", "1R /etc/passwd", "f"), OUT, 1),
	NO("sed_w", A("sed", "-n", "w /etc/x", "f"), OUT, 2),
	NO("sed_W_regex_addr", A("sed", "/x/W /home/u/.ssh/k", "f"), OUT, 1),
	NO("sed_s_w_flag", A("sed", "-e", "s/a/b/gw /etc/x", "f"), OUT, 2),
	NO("sed_after_semicolon", A("sed", "-e", "p;r /etc/shadow", "f"), OUT, 2),
	NO("sed_glued_e", A("sed", "-es/a/b/w /etc/x", "f"), OUT, 1),
	NO("sed_expression_eq", A("sed", "--expression=r /etc/passwd", "f"), OUT, 1),
	NO("sed_in_block", A("sed", "-n", "/a/{r /etc/passwd\n}", "f"), OUT, 2, F_OFF),
	NO("sed_link", A("sed", "w etc-link/x", "f"), ESC, 1),
	OK("sed_print_regex", A("sed", "-n", "/main/p", "src/main.c")),
	OK("sed_subst", A("sed", "-i.bak", "s|a|b|g", "f")),
	OK("sed_w_inside", A("sed", "-n", "w out/log", "f")),
	OK("sed_w_stdout", A("sed", "-n", "w /dev/stdout", "f")),
	OK("sed_script_file", A("sed", "-f", "script.sed", "f")),
	OK("sed_y", A("sed", "y/abc/xyz/", "f")),

	/* PATH_MAX */
	NO("too_long_path", A("cat", "@LONGPATH"), LONG, 1),
	NO("too_long_text", A("echo", "@LONGTEXT"), LONG, 1),
	OK("just_below_path_max", A("echo", "@BELOW")),

	/* /dev links into /proc, the sandbox's own /proc */
	OK("dev_stdin", A("cat", "/dev/stdin")),
	OK("dev_fd_0", A("cat", "/dev/fd/0")),
	OK("dev_fd_3", A("cat", "/dev/fd/3")),
	OK("dev_stderr", A("tar", "-cf", "/dev/stdout", "src")),
	NO("dev_fd_up_root", A("cat", "/dev/fd/../root/etc/shadow"), OUT, 1),
	NO("dev_stdin_tail", A("cat", "/dev/stdin/../x"), ESC, 1),
	NO("proc_self_root", A("cat", "/proc/self/root/etc/shadow"), OUT, 1),
	NO("proc_pid_root", A("cat", "/proc/1/root/home/u/.ssh/id_rsa"), OUT, 1),
	NO("proc_thread_self_root", A("cat", "/proc/thread-self/root/etc/shadow"), OUT, 1),
	NO("proc_task_root", A("cat", "/proc/self/task/7/root/etc/shadow"), OUT, 1),
	NO("proc_cwd_up", A("cat", "/proc/self/cwd/../.ssh/id_rsa"), OUT, 1),
	NO("proc_fd_tail", A("cat", "/proc/self/fd/0/x"), ESC, 1),
	NO("proc_root_itself", A("ls", "/proc/self/root"), OUT, 1),
	OK("proc_cwd_inside", A("ls", "/proc/self/cwd/src")),
	OK("proc_root_usr", A("ls", "/proc/self/root/usr/bin")),
	OK("proc_cpuinfo", A("cat", "/proc/cpuinfo")),
	OK("root_dotdot_proc", A("cat", "/../proc/meminfo")),
	NO("usr_dotdot_proc_root", A("cat", "/usr/../proc/self/root/etc/passwd"), OUT, 1),
	OK("proc_meminfo", A("cat", "/proc/meminfo")),
	OK("proc_self_status", A("cat", "/proc/self/status")),
	OK("proc_self_exe", A("ls", "-l", "/proc/self/exe")),
	OK("proc_self_fd_dir", A("ls", "/proc/self/fd")),

	/* file: URLs with a local host */
	NO("file_url_localhost", A("curl", "file://localhost/etc/passwd"), OUT, 1),
	NO("file_url_127", A("curl", "file://127.0.0.1/etc/passwd"), OUT, 1),
	NO("file_url_127_other", A("curl", "file://127.1.2.3/etc/passwd"), OUT, 1),
	NO("file_url_v6", A("curl", "file://[::1]/etc/passwd"), OUT, 1),
	NO("file_url_user", A("curl", "file://me@localhost/etc/passwd"), OUT, 1),
	NO("file_url_encoded", A("curl", "file:///%65tc/passwd"), OUT, 1),
	NO("file_url_port", A("curl", "file://localhost:80/etc/passwd"), OUT, 1),
	NO("file_url_decimal", A("curl", "file://2130706433/etc/passwd"), OUT, 1),
	NO("file_url_single_slash", A("curl", "FILE:/etc/passwd"), OUT, 1),
	OK("file_url_remote", A("curl", "file://example.com/etc/passwd")),
	OK("file_url_tmp", A("curl", "file:///tmp/x")),

	/* options that move the working directory of what follows */
	NO("tar_C", A("tar", "-C", "/usr", "-cf", "out/x.tar", "../etc/shadow"), OUT, 5),
	NO("tar_C_glued", A("tar", "-C/usr", "-c", "../etc/shadow"), OUT, 3),
	NO("tar_directory", A("tar", "--directory=/usr", "-c", "../etc/shadow"), OUT, 3),
	NO("git_C", A("git", "-C", "/usr", "diff", "../etc/passwd"), OUT, 4),
	NO("make_C", A("make", "-C", "/usr", "-f", "../etc/passwd"), OUT, 4),
	NO("make_directory", A("make", "--directory", "/usr", "-f", "../etc/passwd"), OUT, 4),
	NO("git_C_twice", A("git", "-C", "/usr", "-C", "lib", "diff", "../../etc/passwd"), OUT, 6),
	NO("find_execdir", A("find", "/usr", "-execdir", "cat", "../etc/shadow", ";"), OUT, 4),
	OK("tar_C_deep_climbs_back", A("tar", "-C", "sub/deep", "-c", "../../src")),
	OK("git_C_sub", A("git", "-C", "sub", "status", "deep")),
	OK("find_execdir_after_end", A("find", "src", "-execdir", "ls", "{}", ";", "-print")),

	/* judged against the sandbox's view */
	OK("nonexistent_top", A("ls", "/nonexistent/x")),
	OK("var_not_in_view", A("cat", "/var/log/syslog")),
	OK("sed_regex_address", A("sed", "-n", "/main/p", "f")),
	NO("etc_in_view", A("cat", "/etc/shadow"), OUT, 1),
	NO("home_in_view", A("cat", "/home/u/.ssh/id_rsa"), OUT, 1),
	NO("relative_climb_to_var", A("cat", "../../../var/log/syslog"), OUT, 1),
	NO("no_view_nonexistent", A("ls", "/nonexistent/x"), OUT, 1, F_NO_VIEW),
	NO("no_view_var", A("cat", "/var/log/syslog"), OUT, 1, F_NO_VIEW),

	/* shell.metachar, metachar syntax (the default) */
	NO("pipe_token", A("ls", "|", "grep", "x"), META, 1),
	NO("or_token", A("ls", "||", "true"), META, 1),
	NO("and_token", A("make", "&&", "make", "install"), META, 1),
	NO("semicolon_token", A("ls", ";", "id"), META, 1),
	NO("background_token", A("ls", "&"), META, 1),
	NO("redirect_token", A("ls", ">", "out/x"), META, 1),
	NO("append_token", A("ls", ">>", "out/x"), META, 1),
	NO("dup_token", A("ls", "2>&1"), META, 1),
	NO("input_token", A("cat", "<", "f"), META, 1),
	NO("heredoc_token", A("cat", "<<", "EOF"), META, 1),
	NO("redirect_glued", A("ls", ">out/x"), META, 1),
	NO("stderr_glued", A("ls", "2>/dev/null"), META, 1),
	NO("both_glued", A("ls", "&>log"), META, 1),
	NO("heredoc_glued", A("cat", "<<EOF"), META, 1),
	NO("input_glued", A("cat", "<./f"), META, 1),
	NO("pipe_leading", A("ls", "|grep"), META, 1),
	NO("injection_leading", A("echo", "; rm -rf /"), META, 1),
	NO("semicolon_trailing", A("ls;", "id"), META, 0),
	NO("pipe_trailing", A("echo", "a|", "b"), META, 1),
	NO("and_trailing", A("make", "x&&", "y"), META, 1),
	NO("substitution", A("echo", "$(id)"), META, 1),
	NO("backquote", A("echo", "a`id`"), META, 1),
	NO("brace_expansion", A("echo", "${HOME}"), META, 1),
	NO("newline", A("echo", "a\nb"), META, 1),
	OK("grep_alternation", A("grep", "-E", "a|b", "f")),
	OK("pip_version", A("pip", "install", "pkg>=2")),
	OK("url_ampersand", A("curl", "https://example.com/?a=1&b=2")),
	OK("echo_semicolon", A("echo", "a;b")),
	OK("sql_statement", A("sqlite3", "db", "SELECT 1;")),
	OK("markup", A("grep", "-rn", "<div class=x>", "src")),
	OK("closing_tag", A("grep", "</p>", "f")),
	OK("conflict_marker", A("grep", "-rn", "<<<<<<<", "src")),
	OK("prompt", A("grep", ">>> ", "f")),
	OK("arrow", A("grep", "->", "f")),
	OK("cut_delimiter", A("cut", "-d", "|", "-f1", "f")),
	OK("cut_delimiter_glued", A("cut", "-d;", "-f1", "f")),
	OK("sort_separator", A("sort", "-t", "|", "-k2", "f")),
	OK("grep_for_and", A("grep", "-rn", "&&", "src")),
	OK("grep_e_pipe", A("grep", "-e", "|", "-e", ";", "f")),
	OK("tr_operands", A("tr", ";", "|")),
	NO("grep_then_pipe", A("grep", "x", "f", "|", "wc"), META, 3),
	NO("ls_l_pipe", A("ls", "-l", "|", "grep", "x"), META, 2),
	NO("grep_pattern_substitution", A("grep", "$(id)", "f"), META, 1),
	OK("jsx_tag", A("grep", "-rn", "<Button", "src")),
	OK("markdown_quote", A("grep", "> note", "f")),
	OK("markdown_table", A("grep", "-F", "a | b", "f")),
	NO("input_file_glued", A("cat", "<in.txt"), META, 1),
	NO("input_path_glued", A("cat", "<src/main.c"), META, 1),
	OK("plain_dollar", A("echo", "$HOME", "$x")),
	OK("comparison_inside", A("echo", "a > b")),
	/* metachar strict: the characters anywhere, and the syntax too */
	NO("strict_alternation", A("grep", "-E", "a|b", "f"), META, 2, F_STRICT),
	NO("strict_url", A("curl", "https://example.com/?a=1&b=2"), META, 1, F_STRICT),
	NO("strict_brace", A("echo", "${HOME}"), META, 1, F_STRICT),
	/* allow-metachar: off */
	OK("off_pipe", A("echo", "|", "2>&1", "$(id)"), F_OFF),
	/* URLs name hosts, not files, wherever the command runs */
	OK("url_cwd_outside", A("curl", "http://example.test/x"), F_CWD_ROOT),
	OK("url_eq_cwd_outside", A("curl", "--url=https://example.test/a/b"), F_CWD_ROOT),
	OK("url_port_cwd_outside", A("curl", "-o", "/dev/null", "http://127.0.0.1:8080/big"),
	   F_CWD_ROOT),
	NO("url_port_abs_member", A("tool", "http://x:/etc/shadow"), OUT, 1, F_CWD_ROOT),
	NO("url_port_dots_member", A("tool", "https://x:../../etc"), OUT, 1, F_CWD_ROOT),
	OK("url_dots_cwd_outside", A("curl", "https://example.test/../../etc/passwd"), F_CWD_ROOT),
	NO("file_url_cwd_outside", A("curl", "file:///etc/passwd"), OUT, 1, F_CWD_ROOT),
	/* ... unless a directory "scheme:" is there to resolve it through */
	NO("url_scheme_dir", A("cat", "ftp://x/../../etc/passwd"), OUT, 1, F_CWD_ROOT),
	NO("url_scheme_dir_in", A("cat", "ftp://x/y"), OUT, 1, F_CWD_ROOT),
	NO("url_bad_scheme", A("cat", "h_p://x/y"), OUT, 1, F_CWD_ROOT),
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* Generated arguments: paths and text at and below PATH_MAX. */
static char *expand(const char *a, char *buf, size_t size)
{
	size_t n = 0, len;
	if (strcmp(a, "@LONGPATH") == 0)
		len = PATH_MAX;
	else if (strcmp(a, "@LONGTEXT") == 0)
		len = 5000;
	else if (strcmp(a, "@BELOW") == 0)
		len = PATH_MAX - 1;
	else
		return memcpy(buf, a, strlen(a) + 1);
	n = (size_t)snprintf(buf, size, strcmp(a, "@LONGPATH") == 0 ? "src/" : "word ");
	while (n < len && n + 1 < size)
		buf[n++] = strcmp(a, "@LONGPATH") == 0 ? 'a' : 'b';
	buf[n] = '\0';
	return buf;
}

static void run_case(const struct pcase *t, struct nsb_gate_verdict *v)
{
	static char bufs[12][PATH_MAX + 1024];
	char *argv[12];
	int argc = 0;
	for (; t->argv[argc]; argc++)
		argv[argc] = expand(t->argv[argc], bufs[argc], sizeof(bufs[argc]));

	struct nsb_gate_policy p;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	p.metachar_strict = t->flags & F_STRICT;
	p.allow_metachar = t->flags & F_OFF;
	struct nsb_fs_ops ops = fake_fs_ops(&fs);
	char real[PATH_MAX];
	const char *real_base = NULL;
	if (ops.which(ops.ud, argv[0], real, sizeof(real)) == 0)
		real_base = strrchr(real, '/') + 1;
	struct nsb_gate_input in = {
		.argv = argv,
		.argc = argc,
		.cmd_real_base = real_base,
		.cwd = (t->flags & F_CWD_ROOT) ? "/" : PROJ,
		.home = "/home/u",
		.roots = roots,
		.n_roots = 1,
		.fs = &ops,
		.view = (t->flags & F_NO_VIEW) ? NULL : view,
		.n_view = (t->flags & F_NO_VIEW) ? 0 : sizeof(view) / sizeof(view[0]),
	};
	fs.lookups = 0;
	cr_assert(eq(int, nsb_gate_check(&p, &in, v), 0), "%s: gate failed", t->name);
	cr_expect(fs.lookups <= 8 + 200 * (unsigned long)argc, "%s: %lu lookups", t->name,
		  fs.lookups);
	nsb_gate_policy_free(&p);
}

ParameterizedTestParameters(gate_paths2, table)
{
	static int idx[N_CASES];
	for (size_t i = 0; i < N_CASES; i++)
		idx[i] = (int)i;
	return cr_make_param_array(int, idx, N_CASES);
}

ParameterizedTest(int *i, gate_paths2, table)
{
	const struct pcase *t = &cases[*i];
	struct nsb_gate_verdict v;
	run_case(t, &v);

	expect_str_at(v.metachar,
		      t->flags & F_OFF	    ? "off"
		      : t->flags & F_STRICT ? "strict"
					    : "syntax",
		      t->name);
	if (!t->rule) {
		cr_assert(v.allowed, "%s: refused by %s at %d ('%s'): %s", t->name,
			  v.rule ? v.rule : "?", v.argv_index, v.token, v.reason);
		return;
	}
	cr_assert(v.allowed == false, "%s: allowed, expected %s at %d", t->name, t->rule, t->idx);
	cr_assert(strcmp(v.rule, t->rule) == 0, "%s: rule %s, want %s (reason: %s)", t->name,
		  v.rule, t->rule, v.reason);
	cr_expect(eq(int, v.argv_index, t->idx), "%s: argv index (token '%s', %s)", t->name,
		  v.token, v.reason);
	cr_expect(v.hint[0] != '\0', "%s: a refusal carries a hint", t->name);
	cr_expect(v.reason[0] != '\0', "%s: a refusal carries a reason", t->name);
}

/* An argument packing more paths than the gate judges is refused, not cut. */
Test(gate_paths2, too_many_members_fail_closed)
{
	char list[2048] = "PYTHONPATH=";
	for (int i = 0; i < 40; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%ssrc", i ? ":" : "");
	struct pcase t = {.name = "many", .argv = {"env", list, "ls"}};
	struct nsb_gate_verdict v;
	run_case(&t, &v);
	cr_assert(v.allowed == false);
	expect_str(v.rule, NSB_RULE_PATH_OUTSIDE);
	cr_expect(strstr(v.reason, "more than") != NULL, "%s", v.reason);
}

/* The reasons say which mode judged and what the syntax was. */
Test(gate_paths2, reasons_name_the_syntax)
{
	struct nsb_gate_verdict v;
	struct pcase t = {.name = "r", .argv = {"ls", "2>&1"}};
	run_case(&t, &v);
	cr_expect(strstr(v.reason, "redirection '2>&1'") != NULL, "%s", v.reason);
	cr_expect(strstr(v.reason, "metachar syntax") != NULL, "%s", v.reason);
	struct pcase t2 = {.name = "r2", .argv = {"ls;"}};
	run_case(&t2, &v);
	cr_expect(strstr(v.reason, "operator ';' at its end") != NULL, "%s", v.reason);
	struct pcase t3 = {.name = "r3", .argv = {"echo", "a|b"}, .flags = F_STRICT};
	run_case(&t3, &v);
	cr_expect(strstr(v.reason, "'|'") != NULL && strstr(v.reason, "metachar strict"), "%s",
		  v.reason);
	struct pcase t4 = {.name = "r4", .argv = {"cat", "@LONGTEXT"}};
	run_case(&t4, &v);
	cr_expect(strstr(v.hint, "-F FILE") != NULL, "%s", v.hint);
}

/* ---- the policy's metachar directive ---------------------------------- */

static int parse(const char *text, struct nsb_gate_policy *p, struct nsb_error *e)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	cr_assert(f != NULL);
	int r = nsb_policy_parse(f, "p.conf", p, e);
	fclose(f);
	return r;
}

Test(gate_paths2, metachar_directive)
{
	struct nsb_gate_policy p;
	struct nsb_error e = {0};

	nsb_gate_policy_init(&p);
	cr_assert(eq(int, parse("metachar strict\n", &p, &e), 0), "%s", e.message);
	cr_expect(p.metachar_strict);
	expect_str(nsb_gate_metachar_mode(&p), "strict");
	cr_assert(eq(int, parse("metachar syntax  \n", &p, &e), 0), "%s", e.message);
	cr_expect(p.metachar_strict == false);
	expect_str(nsb_gate_metachar_mode(&p), "syntax");
	cr_assert(eq(int, parse("metachar off\n", &p, &e), 0), "%s", e.message);
	expect_str(nsb_gate_metachar_mode(&p), "off");
	nsb_gate_policy_free(&p);

	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"metachar\n", "p.conf:1:9: 'metachar' needs syntax, strict or off"},
		{"metachar loose\n", "p.conf:1:10: 'metachar' needs syntax, strict or off"},
		{"metachar strict x\n", "p.conf:1:17: unexpected 'x' after the mode"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		nsb_gate_policy_init(&p);
		memset(&e, 0, sizeof(e));
		cr_expect(eq(int, parse(bad[i].text, &p, &e), -EINVAL), "%s", bad[i].text);
		expect_str(e.message, bad[i].msg);
		cr_expect(e.hint[0] != '\0');
		nsb_gate_policy_free(&p);
	}
}

/* --print-policy's output parses back to the same policy, modes included. */
Test(gate_paths2, metachar_round_trip)
{
	for (int mode = 0; mode < 4; mode++) {
		struct nsb_gate_policy p, q;
		struct nsb_error e = {0};
		char *text = NULL;
		size_t len = 0;
		cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
		p.metachar_strict = mode & 1;
		p.allow_metachar = mode & 2;
		FILE *out = open_memstream(&text, &len);
		cr_assert(eq(int, nsb_policy_print(out, &p, &e), 0));
		fclose(out);
		cr_expect(strstr(text, p.metachar_strict ? "\nmetachar strict\n"
							 : "\nmetachar syntax\n") != NULL,
			  "%s", text);
		nsb_gate_policy_init(&q);
		cr_assert(eq(int, parse(text, &q, &e), 0), "%s", e.message);
		cr_expect(eq(int, q.metachar_strict, p.metachar_strict));
		cr_expect(eq(int, q.allow_metachar, p.allow_metachar));
		expect_str(nsb_gate_metachar_mode(&q), nsb_gate_metachar_mode(&p));
		free(text);
		nsb_gate_policy_free(&p);
		nsb_gate_policy_free(&q);
	}
}

/* The record's "gate" member: present once the gate judged, last. */
Test(gate_paths2, record_names_the_mode)
{
	struct nsb_result r;
	char *out = NULL;
	size_t len = 0;

	nsb_result_init(&r);
	cr_assert(eq(int, nsb_result_to_json(&r, &out, &len), 0));
	cr_expect(strstr(out, "\"gate\"") == NULL, "%s", out);
	free(out);
	r.gate_metachar = "strict";
	cr_assert(eq(int, nsb_result_to_json(&r, &out, &len), 0));
	cr_expect(strstr(out, ",\"gate\":{\"metachar\":\"strict\"}}\n") != NULL, "%s", out);
	free(out);
}
