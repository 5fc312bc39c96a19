// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's interpreter and shell-option rules (gate_interp.c,
 * gate_shellopt.c) against an in-memory filesystem that has Debian's
 * names: versioned and arch-suffixed interpreters, alternatives links,
 * renamed links.  Each case is one command line and the exact verdict
 * (allowed, or rule + argv index); the metacharacter and path rules are
 * relaxed so that only these rules speak.  Then the family names, the sed
 * script reader and the shell-option rows' policy syntax.
 */
#include <criterion/criterion.h>
#include <valgrind/valgrind.h>
#include <criterion/parameterized.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "gate/gate.h"
#include "gate/gate_interp.h"
#include "gate/gate_shellopt.h"
#include "gate/policy.h"
#include "gate_fakefs.h"
#include "unit.h"

#define D(p)	FAKE_DIR(p)
#define F(p)	FAKE_FILE(p)
#define S(p, t) FAKE_LINK(p, t)
#define PROJ	"/home/u/proj"
#define UB	"/usr/bin/"

static const struct fake_ent fake[] = {
	D("/home"),
	D("/home/u"),
	D(PROJ),
	F(PROJ "/script.py"),
	F(PROJ "/run.sh"),
	F(PROJ "/prog.awk"),
	F(PROJ "/main.c"),
	F(PROJ "/app.js"),
	D(PROJ "/input"),
	F(PROJ "/input/a"),
	D(PROJ "/out"),
	D(PROJ "/tools"),
	S(PROJ "/tools/runner", UB "python3.11"),
	S(PROJ "/tools/node", UB "python3.11"),
	S(PROJ "/tools/ed", UB "vim.basic"),
	D("/etc"),
	D("/etc/alternatives"),
	S("/etc/alternatives/awk", UB "mawk"),
	S("/etc/alternatives/cc", UB "gcc"),
	S("/etc/alternatives/vi", UB "vim.basic"),
	S("/etc/alternatives/php", UB "php8.2"),
	D("/usr"),
	D("/usr/bin"),
	D("/usr/lib"),
	D("/usr/lib/python3.11"),
	F("/usr/lib/python3.11/pdb.py"),
	F(UB "python3.11"),
	S(UB "python3", "python3.11"),
	F(UB "perl5.36.0"),
	S(UB "perl", "perl5.36.0"),
	F(UB "x86_64-linux-gnu-gcc-12"),
	S(UB "gcc", "x86_64-linux-gnu-gcc-12"),
	S(UB "cc", "/etc/alternatives/cc"),
	F(UB "ruby3.1"),
	S(UB "ruby", "ruby3.1"),
	F(UB "php8.2"),
	S(UB "php", "/etc/alternatives/php"),
	F(UB "lua5.4"),
	S(UB "lua", "lua5.4"),
	F(UB "tclsh8.6"),
	S(UB "tclsh", "tclsh8.6"),
	F(UB "nodejs"),
	S(UB "node", "nodejs"),
	F(UB "mawk"),
	S(UB "awk", "/etc/alternatives/awk"),
	F(UB "vim.basic"),
	S(UB "vi", "/etc/alternatives/vi"),
	S(UB "vim", "/etc/alternatives/vi"),
	S(UB "pdb3", "../lib/python3.11/pdb.py"),
	F(UB "dash"),
	S(UB "sh", "dash"),
	F(UB "bash"),
	F(UB "busybox"),
	F(UB "env"),
	F(UB "git"),
	F(UB "sed"),
	F(UB "tar"),
	F(UB "make"),
	F(UB "ssh"),
	F(UB "less"),
};

static const char *const fake_path[] = {"/usr/bin", NULL};
static struct fake_fs fs = {fake, sizeof(fake) / sizeof(fake[0]), fake_path, 0};

static const struct nsb_fs_ops fake_ops = {
	.ud = &fs,
	.realpath = fake_realpath,
	.lstat_kind = fake_lstat_kind,
	.which = fake_which,
};

static const struct nsb_gate_root roots[] = {
	{PROJ, PROJ, false},
	{PROJ "/out", PROJ "/out", true},
};

/* ---- the cases -------------------------------------------------------- */

enum {
	P_INLINE = 1 << 0, /* --allow-inline-code */
};

struct icase {
	const char *name;
	const char *argv[16];
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
#define STDIN_R NSB_RULE_INTERP_STDIN
#define INL_R	NSB_RULE_INTERP_INLINE
#define SHO_R	NSB_RULE_EXEC_SHELL_OPTION

static const struct icase cases[] = {
	NO("bare_python", A("python3"), STDIN_R, 0),
	NO("python_dash", A("python3", "-"), STDIN_R, 1),
	NO("python_dash_args", A("python3", "-", "a", "b"), STDIN_R, 1),
	NO("python_dev_stdin", A("python3", "/dev/stdin"), STDIN_R, 1),
	NO("python_dev_fd0", A("python3", "/dev/fd/0"), STDIN_R, 1),
	NO("python_proc_fd0", A("python3", "/proc/self/fd/0"), STDIN_R, 1),
	NO("python_flags_only", A("python3", "-u"), STDIN_R, 1),
	NO("python_i_script", A("python3", "-i", "script.py"), STDIN_R, 1),
	NO("bare_bash", A("bash"), STDIN_R, 0),
	NO("bash_x_only", A("bash", "-x"), STDIN_R, 1),
	NO("bash_login_only", A("bash", "--login"), STDIN_R, 1),
	NO("sh_s", A("sh", "-s"), STDIN_R, 1),
	NO("sh_s_args", A("sh", "-s", "a", "b"), STDIN_R, 1),
	NO("sh_es", A("sh", "-es"), STDIN_R, 1),
	NO("bash_dash_alone", A("bash", "-"), STDIN_R, 1),
	NO("sh_dev_stdin", A("sh", "/dev/stdin"), STDIN_R, 1),
	NO("bare_dash", A("dash"), STDIN_R, 0),
	NO("bare_zsh", A("zsh"), STDIN_R, 0),
	NO("bare_fish", A("fish"), STDIN_R, 0),
	NO("bare_perl", A("perl"), STDIN_R, 0),
	NO("perl_dash", A("perl", "-"), STDIN_R, 1),
	NO("perl_w_only", A("perl", "-w"), STDIN_R, 1),
	NO("bare_ruby", A("ruby"), STDIN_R, 0),
	NO("ruby_dash", A("ruby", "-"), STDIN_R, 1),
	NO("bare_node", A("node"), STDIN_R, 0),
	NO("node_dash", A("node", "-"), STDIN_R, 1),
	NO("node_i", A("node", "-i"), STDIN_R, 1),
	NO("node_interactive_script", A("node", "--interactive", "app.js"), STDIN_R, 1),
	NO("node_require_stdin", A("node", "--require", "/dev/stdin", "app.js"), STDIN_R, 1),
	NO("bare_php", A("php"), STDIN_R, 0),
	NO("php_a", A("php", "-a"), STDIN_R, 1),
	NO("bare_lua", A("lua"), STDIN_R, 0),
	NO("lua_i_script", A("lua", "-i", "script.lua"), STDIN_R, 1),
	NO("bare_tclsh", A("tclsh"), STDIN_R, 0),
	NO("tclsh_versioned_bare", A("tclsh8.6"), STDIN_R, 0),
	NO("bare_julia", A("julia"), STDIN_R, 0),
	NO("bare_expect", A("expect"), STDIN_R, 0),
	NO("R_vanilla_bare", A("R", "--vanilla"), STDIN_R, 1),
	NO("rscript_dash", A("Rscript", "-"), STDIN_R, 1),
	NO("bare_deno", A("deno"), STDIN_R, 0),
	NO("deno_repl", A("deno", "repl"), STDIN_R, 1),
	NO("deno_run_dash", A("deno", "run", "-"), STDIN_R, 2),
	NO("awk_f_dash", A("awk", "-f", "-", "input/a"), STDIN_R, 1),
	NO("awk_f_stdin", A("gawk", "-f", "/dev/stdin", "input/a"), STDIN_R, 1),
	NO("gawk_file_eq_stdin", A("gawk", "--file=/dev/stdin", "input/a"), STDIN_R, 1),
	NO("python_m_code", A("python3", "-m", "code"), STDIN_R, 2),
	NO("python_m_asyncio", A("python3", "-m", "asyncio"), STDIN_R, 2),
	NO("cprofile_dash", A("python3", "-m", "cProfile", "-"), STDIN_R, 3),
	NO("busybox_sh_bare", A("busybox", "sh"), STDIN_R, 1),
	NO("env_bash_bare", A("env", "bash"), STDIN_R, 1),
	NO("timeout_python_dash", A("timeout", "5", "python3", "-"), STDIN_R, 3),
	OK("python_version", A("python3", "--version")),
	OK("python_V", A("python3", "-V")),
	OK("python_h", A("python3", "-h")),
	OK("node_version", A("node", "--version")),
	OK("node_v", A("node", "-v")),
	OK("bash_version", A("bash", "--version")),
	OK("perl_v", A("perl", "-v")),
	OK("ruby_v", A("ruby", "-v")),
	OK("php_v", A("php", "-v")),
	OK("lua_v", A("lua", "-v")),
	OK("R_version", A("R", "--version")),
	OK("R_cmd", A("R", "CMD", "INSTALL", ".")),
	OK("deno_version", A("deno", "--version")),
	OK("deno_run_script", A("deno", "run", "--allow-read", "app.ts")),
	OK("node_test", A("node", "--test")),
	OK("node_inspect_script", A("node", "--inspect", "app.js")),
	OK("node_require_module", A("node", "-r", "ts-node/register", "app.ts")),
	OK("node_import_module", A("node", "--import", "tsx", "app.ts")),
	OK("python_script", A("python3", "script.py")),
	OK("python_X_script", A("python3", "-X", "importtime", "script.py")),
	OK("python_pytest", A("python3", "-m", "pytest", "-q")),
	OK("python_pip", A("python3", "-m", "pip", "install", "x")),
	OK("python_http_server", A("python3", "-m", "http.server", "8000")),
	OK("python_cprofile_script",
	   A("python3", "-m", "cProfile", "-o", "out/p.prof", "script.py")),
	OK("python_cprofile_module", A("python3", "-m", "cProfile", "-m", "pytest", "-q")),
	OK("python_trace_script", A("python3", "-m", "trace", "--count", "script.py")),
	OK("python_coverage_pytest", A("python3", "-m", "coverage", "run", "-m", "pytest")),
	OK("python_runpy_pytest", A("python3", "-m", "runpy", "pytest")),
	OK("bash_script", A("bash", "run.sh")),
	OK("sh_e_script", A("sh", "-e", "run.sh")),
	OK("sh_dash_script", A("sh", "-", "run.sh")),
	OK("awk_f_data_dash", A("awk", "-f", "prog.awk", "-")),
	OK("rscript_file", A("Rscript", "analysis.R")),
	OK("julia_project_script", A("julia", "--project=.", "script.jl")),
	OK("tclsh_script", A("tclsh", "script.tcl")),
	OK("perl_script", A("perl", "script.pl")),
	OK("python_script_dash_arg", A("python3", "script.py", "-")),
	NO("cprofile_m_timeit", A("python3", "-m", "cProfile", "-m", "timeit", "1"), INL_R, 4),
	NO("runpy_timeit", A("python3", "-m", "runpy", "timeit", "1"), INL_R, 3),
	NO("runpy_runpy_timeit", A("python3", "-m", "runpy", "runpy", "timeit", "1"), INL_R, 4),
	NO("pdb_c", A("python3", "-m", "pdb", "-c", "import os", "script.py"), INL_R, 3),
	NO("pdb_command_eq", A("python3", "-m", "pdb", "--command=x", "script.py"), INL_R, 3),
	NO("pdb_m_timeit", A("python3", "-m", "pdb", "-m", "timeit", "x"), INL_R, 4),
	NO("trace_module_timeit", A("python3", "-m", "trace", "--count", "--module", "timeit", "1"),
	   INL_R, 5),
	NO("coverage_m_timeit", A("python3", "-m", "coverage", "run", "-m", "timeit", "x"), INL_R,
	   5),
	NO("profile_m_pdb_c", A("python3", "-m", "profile", "-m", "pdb", "-c", "x", "script.py"),
	   INL_R, 5),
	NO("glued_m_timeit", A("python3", "-mtimeit", "1"), INL_R, 1),
	NO("perl_M_semicolon", A("perl", "-MFoo=bar;system(1)", "script.pl"), INL_R, 1),
	NO("perl_M_space_code", A("perl", "-MFoo;system 1", "script.pl"), INL_R, 1),
	NO("perl_m_code", A("perl", "-mFoo qw(x);system 1", "script.pl"), INL_R, 1),
	NO("perl_d_code", A("perl", "-d:Foo;system 1", "script.pl"), INL_R, 1),
	NO("perl_w_M_code", A("perl", "-wMFoo;1", "script.pl"), INL_R, 1),
	OK("perl_M_plain", A("perl", "-MO=Deparse", "script.pl")),
	OK("perl_M_no", A("perl", "-M-warnings", "script.pl")),
	OK("perl_M_lib", A("perl", "-Mlib=./lib", "script.pl")),
	OK("perl_m_list", A("perl", "-mFoo=x,y", "script.pl")),
	OK("perl_d_nytprof", A("perl", "-d:NYTProf", "script.pl")),
	NO("node_import_data", A("node", "--import", "data:text/javascript,1", "app.js"), INL_R, 1),
	NO("node_import_eq_data", A("node", "--import=data:text/javascript,1", "app.js"), INL_R, 1),
	NO("node_r_data", A("node", "-r", "data:x", "app.js"), INL_R, 1),
	NO("node_loader_data", A("node", "--loader", "DATA:x", "app.js"), INL_R, 1),
	NO("node_main_data", A("node", "data:text/javascript,1"), INL_R, 1),
	NO("deno_run_data", A("deno", "run", "data:application/typescript,1"), INL_R, 2),
	NO("node_unknown_then_e", A("node", "--frobnicate", "x", "-e", "code"), INL_R, 3),
	NO("python_unknown_then_c", A("python3", "-Z", "x", "-c", "code"), INL_R, 3),
	NO("perl_unknown_then_e", A("perl", "-Q", "foo", "-e", "x"), INL_R, 3),
	NO("ruby_unknown_then_e", A("ruby", "--weird", "v", "-e", "x"), INL_R, 3),
	NO("bash_unknown_then_c", A("bash", "--weird", "x", "-c", "ls"), INL_R, 3),
	OK("python_flag_script_c", A("python3", "-u", "script.py", "-c", "conf")),
	OK("perl_flag_script_e", A("perl", "-w", "script.pl", "-e")),
	OK("bash_flag_script_c", A("bash", "-x", "run.sh", "-c")),
	NO("renamed_python", A("tools/runner", "-c", "x"), INL_R, 1),
	NO("python_named_node", A("tools/node", "-c", "x"), INL_R, 1),
	NO("python_abi_suffix", A("python3.11d", "-c", "x"), INL_R, 1),
	NO("python_dbg_suffix", A("python3-dbg", "-c", "x"), INL_R, 1),
	NO("perl_arch_suffix", A("perl5.36-x86_64-linux-gnu", "-e", "x"), INL_R, 1),
	NO("perl_full_version", A("perl5.36.0", "-e", "x"), INL_R, 1),
	NO("ruby_versioned", A("ruby3.1", "-e", "x"), INL_R, 1),
	NO("php_versioned", A("php8.2", "-r", "x"), INL_R, 1),
	NO("lua_versioned", A("lua5.4", "-e", "x"), INL_R, 1),
	NO("luajit_versioned", A("luajit-2.1.0-beta3", "-e", "x"), INL_R, 1),
	NO("nodejs_e", A("nodejs", "-e", "x"), INL_R, 1),
	NO("awk_alternative", A("awk", "{print}", "input/a"), INL_R, 1),
	NO("mksh_static", A("mksh-static", "-c", "ls"), INL_R, 1),
	NO("git_alias_bang", A("git", "-c", "alias.x=!id", "x"), SHO_R, 1),
	NO("git_alias_bang_case", A("git", "-c", "ALIAS.x=!id", "x"), SHO_R, 1),
	NO("git_fsmonitor", A("git", "-c", "core.fsmonitor=./f", "status"), SHO_R, 1),
	NO("git_sshcommand_case", A("git", "-c", "core.sshCommand=id", "fetch"), SHO_R, 1),
	NO("git_credential_helper", A("git", "-c", "credential.helper=!f", "fetch"), SHO_R, 1),
	NO("git_credential_url_helper",
	   A("git", "-c", "credential.https://x.helper=/tmp/h", "fetch"), SHO_R, 1),
	NO("git_pager_sh", A("git", "-c", "core.pager=sh", "log"), SHO_R, 1),
	NO("git_pager_cmd", A("git", "-c", "pager.log=id", "log"), SHO_R, 1),
	NO("git_editor", A("git", "-c", "core.editor=id", "commit"), SHO_R, 1),
	NO("git_sequence_editor", A("git", "-c", "sequence.editor=id", "rebase", "-i", "HEAD~2"),
	   SHO_R, 1),
	NO("git_smudge", A("git", "-c", "filter.x.smudge=id", "checkout", "."), SHO_R, 1),
	NO("git_textconv", A("git", "-c", "diff.x.textconv=id", "diff"), SHO_R, 1),
	NO("git_diff_external", A("git", "-c", "diff.external=id", "diff"), SHO_R, 1),
	NO("git_hookspath", A("git", "-c", "core.hooksPath=out/h", "commit"), SHO_R, 1),
	NO("git_protocol_ext", A("git", "-c", "protocol.ext.allow=always", "clone", "ext::x"),
	   SHO_R, 1),
	NO("git_config_env", A("git", "--config-env=alias.x=FOO", "x"), SHO_R, 1),
	NO("git_rebase_x", A("git", "rebase", "-x", "id", "HEAD~1"), SHO_R, 2),
	NO("git_rebase_exec_eq", A("git", "rebase", "--exec=id", "main"), SHO_R, 2),
	NO("git_submodule_foreach", A("git", "submodule", "foreach", "id"), SHO_R, 2),
	NO("git_clone_u", A("git", "clone", "-u", "id", "x"), SHO_R, 2),
	NO("git_clone_upload_pack", A("git", "clone", "--upload-pack=id", "x"), SHO_R, 2),
	NO("git_difftool_x", A("git", "difftool", "-x", "id"), SHO_R, 2),
	NO("sed_s_e", A("sed", "s/x/id/e", "input/a"), SHO_R, 1),
	NO("sed_e_cmd", A("sed", "1eid", "input/a"), SHO_R, 1),
	NO("sed_e_bare", A("sed", "e", "input/a"), SHO_R, 1),
	NO("sed_second_e", A("sed", "-e", "p", "-e", "s/a/b/e", "input/a"), SHO_R, 3),
	NO("sed_expression_eq", A("sed", "--expression=s/a/b/ge", "input/a"), SHO_R, 1),
	NO("sed_ne", A("sed", "-ne", "s/a/b/e", "input/a"), SHO_R, 1),
	NO("sed_f_dash", A("sed", "-f", "-", "input/a"), SHO_R, 1),
	NO("sed_f_stdin", A("sed", "-f", "/dev/stdin", "input/a"), SHO_R, 1),
	NO("sed_dashdash", A("sed", "--", "s/a/b/e", "input/a"), SHO_R, 2),
	NO("sed_y_then_e", A("sed", "y/a/b/;e", "input/a"), SHO_R, 1),
	NO("sed_block_e", A("sed", "/x/{e\n}", "input/a"), SHO_R, 1),
	NO("sed_l_value_fail_closed", A("sed", "-l", "5", "s/a/b/e", "input/a"), SHO_R, 3),
	NO("busybox_sed_e", A("busybox", "sed", "s/a/b/e", "input/a"), SHO_R, 2),
	NO("tar_checkpoint_exec",
	   A("tar", "--checkpoint=1", "--checkpoint-action=exec=id", "-cf", "out/x", "input"),
	   SHO_R, 2),
	NO("tar_to_command", A("tar", "--to-command=id", "-xf", "a.tgz"), SHO_R, 1),
	NO("tar_to_command_sep", A("tar", "--to-command", "id", "-xf", "a.tgz"), SHO_R, 1),
	NO("tar_I_sh", A("tar", "-I", "sh -c id", "-xf", "a.tgz"), SHO_R, 1),
	NO("tar_I_glued", A("tar", "-Ish", "-xf", "a.tgz"), SHO_R, 1),
	NO("tar_compress_abbrev", A("tar", "--use-compress-prog=sh", "-xf", "a.tgz"), SHO_R, 1),
	NO("tar_F", A("tar", "-F", "id", "-cf", "out/x", "input"), SHO_R, 1),
	NO("tar_info_script", A("tar", "--info-script=id", "-cf", "out/x", "input"), SHO_R, 1),
	NO("tar_rsh_command", A("tar", "--rsh-command=id", "-cf", "h:x", "input"), SHO_R, 1),
	NO("make_eval", A("make", "--eval=x"), SHO_R, 1),
	NO("make_E", A("make", "-E", "x"), SHO_R, 1),
	NO("make_eval_abbrev", A("make", "--ev", "x"), SHO_R, 1),
	NO("vim_c", A("vim", "-c", "!id", "input/a"), SHO_R, 1),
	NO("vim_cmd", A("vim", "--cmd", "x"), SHO_R, 1),
	NO("vim_plus_cmd", A("vim", "+!id", "input/a"), SHO_R, 1),
	NO("vim_plus_line_cmd", A("vim", "+4q", "input/a"), SHO_R, 1),
	NO("vim_cluster_c", A("vim", "-Nc", "x"), SHO_R, 1),
	NO("vi_c", A("vi", "-c", "x"), SHO_R, 1),
	NO("vim_basic_c", A("tools/ed", "-c", "x"), SHO_R, 1),
	NO("ex_c", A("ex", "-c", "x"), SHO_R, 1),
	NO("nvim_c", A("nvim", "-c", "x"), SHO_R, 1),
	NO("emacs_eval", A("emacs", "--eval", "x"), SHO_R, 1),
	NO("emacs_single_dash_eval", A("emacs", "-eval", "x"), SHO_R, 1),
	NO("emacs_batch_eval_eq", A("emacs", "--batch", "--eval=x"), SHO_R, 2),
	NO("emacsclient_e", A("emacsclient", "-e", "x"), SHO_R, 1),
	NO("gdb_ex", A("gdb", "-ex", "x", "./prog"), SHO_R, 1),
	NO("gdb_double_dash_ex", A("gdb", "--ex", "x", "./prog"), SHO_R, 1),
	NO("gdb_batch_ex", A("gdb", "-batch", "-ex", "x", "./prog"), SHO_R, 2),
	NO("gdb_eval_command_eq", A("gdb", "-eval-command=x", "./prog"), SHO_R, 1),
	NO("gdb_x_stdin", A("gdb", "-x", "/dev/stdin", "./prog"), SHO_R, 1),
	NO("lldb_o", A("lldb", "-o", "x", "./prog"), SHO_R, 1),
	NO("lldb_one_line", A("lldb", "--one-line", "x", "./prog"), SHO_R, 1),
	NO("pdb3_c", A("pdb3", "-c", "x", "script.py"), SHO_R, 1),
	NO("ssh_proxycommand", A("ssh", "-o", "ProxyCommand=id", "host"), SHO_R, 1),
	NO("ssh_proxycommand_glued", A("ssh", "-oProxyCommand=id", "host"), SHO_R, 1),
	NO("ssh_proxycommand_space_lower", A("ssh", "-o", "proxycommand id", "host"), SHO_R, 1),
	NO("ssh_localcommand",
	   A("ssh", "-o", "LocalCommand=id", "-o", "PermitLocalCommand=yes", "host"), SHO_R, 1),
	NO("ssh_cluster_o", A("ssh", "-vo", "ProxyCommand=id", "host"), SHO_R, 1),
	NO("scp_S", A("scp", "-S", "id", "input/a", "host:"), SHO_R, 1),
	NO("sftp_proxycommand", A("sftp", "-o", "ProxyCommand=id", "host"), SHO_R, 1),
	NO("rsync_e_sh", A("rsync", "-e", "sh -c id", "input/a", "host:"), SHO_R, 1),
	NO("rsync_rsh_proxy", A("rsync", "--rsh=ssh -o ProxyCommand=id", "input/a", "host:"), SHO_R,
	   1),
	NO("zip_TT", A("zip", "-T", "-TT", "id", "out/x.zip", "input/a"), SHO_R, 2),
	NO("zip_unzip_command", A("zip", "--unzip-command=id", "-T", "out/x.zip", "input/a"), SHO_R,
	   1),
	NO("gcc_wrapper", A("gcc", "-wrapper", "sh,-c", "main.c"), SHO_R, 1),
	NO("gpp_wrapper", A("g++", "-wrapper", "x", "main.c"), SHO_R, 1),
	NO("cc_wrapper_by_file", A("cc", "-wrapper", "x", "main.c"), SHO_R, 1),
	NO("gcc_triplet_wrapper", A("x86_64-linux-gnu-gcc-12", "-wrapper", "x", "main.c"), SHO_R,
	   1),
	NO("npx_c", A("npx", "-c", "id"), SHO_R, 1),
	NO("npx_call_eq", A("npx", "--call=id"), SHO_R, 1),
	NO("npm_exec_c", A("npm", "exec", "-c", "id"), SHO_R, 2),
	NO("npm_x_call", A("npm", "x", "--call", "id"), SHO_R, 2),
	NO("pnpm_dlx_c", A("pnpm", "dlx", "-c", "id"), SHO_R, 2),
	NO("env_lessopen", A("env", "LESSOPEN=|id %s", "less", "input/a"), SHO_R, 1),
	NO("env_i_lessopen", A("env", "-i", "LESSOPEN=x", "less", "input/a"), SHO_R, 2),
	NO("env_u_lessopen", A("env", "-u", "X", "LESSOPEN=x", "less", "input/a"), SHO_R, 3),
	NO("env_pager_cmd", A("env", "PAGER=id", "git", "log"), SHO_R, 1),
	NO("env_git_ssh_command", A("env", "GIT_SSH_COMMAND=id", "git", "fetch"), SHO_R, 1),
	NO("env_bash_func", A("env", "BASH_FUNC_ls%%=() { id; }", "bash", "run.sh"), SHO_R, 1),
	NO("env_node_options_data", A("env", "NODE_OPTIONS=--import=data:x", "node", "app.js"),
	   SHO_R, 1),
	NO("env_git_config_count", A("env", "GIT_CONFIG_COUNT=1", "git", "log"), SHO_R, 1),
	NO("script_c", A("script", "-c", "id", "/dev/null"), SHO_R, 1),
	NO("script_command_eq", A("script", "--command=id", "out/log"), SHO_R, 1),
	NO("flock_c", A("flock", "-c", "id", "out/lock"), SHO_R, 1),
	NO("flock_lock_then_c", A("flock", "out/lock", "-c", "id"), SHO_R, 2),
	NO("tmux_new_session", A("tmux", "new-session", "-d", "id"), SHO_R, 1),
	NO("tmux_new_alias", A("tmux", "new", "-d"), SHO_R, 1),
	NO("tmux_send_keys", A("tmux", "send-keys", "-t", "x", "id", "Enter"), SHO_R, 1),
	NO("tmux_c", A("tmux", "-c", "id"), SHO_R, 1),
	NO("screen_X", A("screen", "-X", "stuff", "id"), SHO_R, 1),
	NO("sqlite_cmd_shell", A("sqlite3", "-cmd", ".shell id", "db"), SHO_R, 1),
	NO("psql_c_bang", A("psql", "-c", "\\! id"), SHO_R, 1),
	NO("man_P_sh", A("man", "-P", "sh -c id", "ls"), SHO_R, 1),
	NO("timeout_git_alias", A("timeout", "5", "git", "-c", "alias.x=!id", "x"), SHO_R, 3),
	NO("env_assign_sed_e", A("env", "A=1", "sed", "s/a/b/e", "input/a"), SHO_R, 3),
	NO("xargs_sed_e", A("xargs", "sed", "s/a/b/e"), SHO_R, 2),
	NO("find_exec_sed_e", A("find", ".", "-exec", "sed", "s/a/b/e", "{}", ";"), SHO_R, 4),
	OK("git_user_name", A("git", "-c", "user.name=x", "commit", "-m", "y")),
	OK("git_pager_cat", A("git", "-c", "core.pager=cat", "log")),
	OK("git_pager_less_R", A("git", "-c", "core.pager=less -R", "log")),
	OK("git_editor_true", A("git", "-c", "core.editor=true", "commit")),
	OK("git_pager_log_false", A("git", "-c", "pager.log=false", "log")),
	OK("git_alias_plain", A("git", "-c", "alias.lg=log --oneline", "lg")),
	OK("git_fsmonitor_false", A("git", "-c", "core.fsmonitor=false", "status")),
	OK("git_credential_store", A("git", "-c", "credential.helper=store", "fetch")),
	OK("git_push_u", A("git", "push", "-u", "origin", "main")),
	OK("git_log_c", A("git", "log", "-c")),
	OK("git_commit_c", A("git", "commit", "-c", "HEAD")),
	OK("git_rebase_i", A("git", "rebase", "-i", "HEAD~3")),
	OK("git_clone", A("git", "clone", "https://example.com/x.git")),
	OK("git_C_dir", A("git", "-C", "input", "status")),
	OK("sed_n_e_address", A("sed", "-n", "/e/p", "input/a")),
	OK("sed_i", A("sed", "-i", "s/a/b/", "input/a")),
	OK("sed_e_expr", A("sed", "-e", "s/e/E/g", "input/a")),
	OK("sed_f_file", A("sed", "-f", "script.sed", "input/a")),
	OK("sed_y", A("sed", "y/abc/def/", "input/a")),
	OK("sed_delete_comments", A("sed", "/^#/d", "input/a")),
	OK("sed_E_group", A("sed", "-E", "s/(a)/1/", "input/a")),
	OK("sed_label_loop", A("sed", ":a;N;$!ba;s/n/_/g", "input/a")),
	OK("sed_append_text_e", A("sed", "/x/a echo e", "input/a")),
	OK("sed_w_file_e", A("sed", "s/a/b/w", "out/e", "input/a")),
	OK("sed_file_named_e", A("sed", "-e", "p", "eval.txt")),
	OK("sed_i_suffix_e", A("sed", "-ie", "s/a/b/", "input/a")),
	OK("tar_xzf_C", A("tar", "-xzf", "a.tgz", "-C", "out")),
	OK("tar_I_zstd", A("tar", "-I", "zstd", "-cf", "out/x.tar.zst", "input")),
	OK("tar_compress_zstd_opts",
	   A("tar", "--use-compress-program=zstd -19 -T0", "-cf", "out/x", "input")),
	OK("tar_cJf", A("tar", "-cJf", "out/x.tar.xz", "input")),
	OK("tar_checkpoint_dot",
	   A("tar", "--checkpoint=100", "--checkpoint-action=dot", "-cf", "out/x", "input")),
	OK("make_j", A("make", "-j4")),
	OK("make_C", A("make", "-C", "input", "all")),
	OK("make_e", A("make", "-e", "all")),
	OK("vim_version", A("vim", "--version")),
	OK("vim_line", A("vim", "+42", "input/a")),
	OK("vim_search", A("vim", "+/pattern", "input/a")),
	OK("vim_plus_last", A("vim", "+", "input/a")),
	OK("emacs_load", A("emacs", "--batch", "-l", "file.el")),
	OK("gdb_x_file", A("gdb", "-batch", "-x", "cmds.gdb", "./prog")),
	OK("ssh_stricthostkey", A("ssh", "-o", "StrictHostKeyChecking=no", "host", "true")),
	OK("ssh_i_p", A("ssh", "-i", "key", "-p", "22", "host", "ls")),
	OK("ssh_L_forward", A("ssh", "-L8080:localhost:80", "host")),
	OK("scp_o_timeout", A("scp", "-o", "ConnectTimeout=5", "input/a", "host:")),
	OK("rsync_e_ssh", A("rsync", "-avz", "-e", "ssh", "input/a", "host:")),
	OK("rsync_e_ssh_p", A("rsync", "-e", "ssh -p 2222", "input/a", "host:")),
	OK("zip_r", A("zip", "-r", "out/x.zip", "input")),
	OK("zip_T", A("zip", "-T", "out/x.zip", "input/a")),
	OK("gcc_o", A("gcc", "-O2", "-o", "out/p", "main.c")),
	OK("npx_prettier", A("npx", "prettier", "--check", ".")),
	OK("npm_exec_eslint", A("npm", "exec", "--", "eslint", ".")),
	OK("npm_run_build", A("npm", "run", "build")),
	OK("env_git_pager_cat", A("env", "GIT_PAGER=cat", "git", "log")),
	OK("env_pager_less", A("env", "PAGER=less", "man", "ls")),
	OK("env_editor_true", A("env", "EDITOR=true", "git", "commit")),
	OK("env_plain_assign", A("env", "A=1", "python3", "script.py")),
	OK("env_then_arg_with_name", A("env", "python3", "script.py", "LESSOPEN=x")),
	OK("script_q_log", A("script", "-q", "out/log")),
	OK("flock_make", A("flock", "out/lock", "make")),
	OK("tmux_ls", A("tmux", "ls")),
	OK("tmux_kill_server", A("tmux", "kill-server")),
	OK("screen_ls", A("screen", "-ls")),
	OK("man_P_cat", A("man", "-P", "cat", "ls")),
	OK("sqlite_select", A("sqlite3", "db.sqlite", "select 1")),
	OK("sqlite_cmd_mode", A("sqlite3", "-cmd", ".mode csv", "db")),
	OK("psql_select", A("psql", "-c", "select 1")),
	OK("sed_n_p_file_starting_with_e", A("sed", "-n", "p", "eval.txt")),
	OK("sed_n_range_examples", A("sed", "-n", "1,5p", "examples.txt")),
	NO("sed_line_length_sep_then_e", A("sed", "--line-length", "5", "s/a/b/e", "input/a"),
	   SHO_R, 3),
	NO("sed_one_letter_abbrev", A("sed", "--e", "s/a/b/e", "input/a"), SHO_R, 1),
	NO("sed_abbrev_after_expression", A("sed", "--ex=p", "--e", "s/a/b/e", "input/a"), SHO_R,
	   2),
	NO("env_dashdash_lessopen", A("env", "--", "LESSOPEN=x", "less", "input/a"), SHO_R, 2),
	OK("perl_M_version", A("perl", "-Mv5.36", "script.pl")),
	OK("perl_M_numeric_version", A("perl", "-M5.010", "script.pl")),
	OK("bun_bare_is_help", A("bun")),
	NO("bun_dash", A("bun", "-"), STDIN_R, 1),
	OK("inline_allowed_sed_e", A("sed", "s/a/b/e", "input/a"), P_INLINE),
	OK("inline_allowed_bash_bare", A("bash"), P_INLINE),
	OK("inline_allowed_python_dash", A("python3", "-"), P_INLINE),
	OK("inline_allowed_git_alias", A("git", "-c", "alias.x=!id", "x"), P_INLINE),

};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static void run_case(const struct icase *t, struct nsb_gate_verdict *v)
{
	char *argv[16];
	int argc = 0;
	for (; t->argv[argc]; argc++)
		argv[argc] = (char *)(uintptr_t)t->argv[argc];
	argv[argc] = NULL;

	struct nsb_gate_policy p;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	p.allow_metachar = true;
	cr_assert(eq(int, nsb_gate_policy_allow_path(&p, "/"), 0));
	if (t->flags & P_INLINE)
		p.allow_inline_code = true;

	/* the command as the caller resolves it: PATH lookup, then realpath */
	char real[PATH_MAX], host[PATH_MAX];
	const char *real_base = NULL;
	if (strchr(argv[0], '/')) {
		snprintf(host, sizeof(host), "%s%s", argv[0][0] == '/' ? "" : PROJ "/", argv[0]);
		if (fake_realpath(&fs, host, real, sizeof(real)) == 0)
			real_base = strrchr(real, '/') + 1;
	} else if (fake_which(&fs, argv[0], real, sizeof(real)) == 0) {
		real_base = strrchr(real, '/') + 1;
	}

	struct nsb_gate_input in = {
		.argv = argv,
		.argc = argc,
		.cmd_real_base = real_base,
		.cwd = PROJ,
		.home = "/home/u",
		.roots = roots,
		.n_roots = sizeof(roots) / sizeof(roots[0]),
		.fs = &fake_ops,
	};
	cr_assert(eq(int, nsb_gate_check(&p, &in, v), 0), "%s: gate failed", t->name);
	nsb_gate_policy_free(&p);
}

ParameterizedTestParameters(gate_interp, table)
{
	static int idx[N_CASES];
	for (size_t i = 0; i < N_CASES; i++)
		idx[i] = (int)i;
	return cr_make_param_array(int, idx, N_CASES);
}

ParameterizedTest(int *i, gate_interp, table)
{
	const struct icase *t = &cases[*i];
	struct nsb_gate_verdict v;
	run_case(t, &v);

	if (!t->rule) {
		cr_assert(v.allowed, "%s: refused by %s at %d ('%s'): %s", t->name,
			  v.rule ? v.rule : "?", v.argv_index, v.token, v.reason);
		return;
	}
	cr_assert(v.allowed == false, "%s: allowed, expected %s at %d", t->name, t->rule, t->idx);
	cr_assert(strcmp(v.rule, t->rule) == 0, "%s: rule %s at %d, want %s (reason: %s)", t->name,
		  v.rule, v.argv_index, t->rule, v.reason);
	cr_expect(eq(int, v.argv_index, t->idx), "%s: argv index (token '%s')", t->name, v.token);
	cr_expect(v.hint[0] != '\0', "%s: a refusal carries a hint", t->name);
	cr_expect(v.reason[0] != '\0', "%s: a refusal carries a reason", t->name);
}

Test(gate_interp, table_is_large_enough)
{
	size_t n = N_CASES;
	cr_assert(n >= 300, "only %zu cases", n);
}

/* ---- family names ------------------------------------------------------ */

Test(gate_interp, family_names)
{
	static const char *const t[][2] = {
		{"python3.11", "python"},
		{"python3", "python"},
		{"python3.11d", "python"},
		{"python3.7m", "python"},
		{"python3-dbg", "python"},
		{"perl5.36.0", "perl"},
		{"perl5.36-x86_64-linux-gnu", "perl"},
		{"x86_64-linux-gnu-gcc-12", "gcc"},
		{"x86_64-pc-linux-gnu-gcc", "gcc"},
		{"aarch64-linux-gnu-g++-12", "g++"},
		{"arm-linux-gnueabihf-gcc", "gcc"},
		{"gcc-12", "gcc"},
		{"luajit-2.1.0-beta3", "luajit"},
		{"mksh-static", "mksh"},
		{"tclsh8.6", "tclsh"},
		{"ksh93", "ksh"},
		{"pypy3", "pypy"},
		{"R", "R"},
		{"c++", "c++"},
		{"vim.basic", "vim.basic"},
		{"2to3-2.7", "2to3"},
		{"", ""},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char out[64];
		nsb_gate_tool_family(t[i][0], out, sizeof(out));
		expect_str_at(out, t[i][1], t[i][0]);
	}
}

/* ---- the sed reader ---------------------------------------------------- */

Test(gate_interp, sed_scripts)
{
	static const struct {
		const char *script;
		bool runs;
	} t[] = {
		{"e", true},	       {"1e id", true},	       {"$e id", true},
		{"/x/e", true},	       {"/x/!e id", true},     {"s/a/b/e", true},
		{"s/a/b/ge", true},    {"s/a/b/3e", true},     {"s|a|b|e", true},
		{"s/a\\/e/b/e", true}, {"p;e", true},	       {"y/a/b/\ne", true},
		{"/x/{\ne\n}", true},  {"1,/y/e id", true},    {"\\%e%e", true},
		{"/e/Ie", true},       {":a;e", true},	       {"#n\ne", true},
		{"s/e/E/", false},     {"s/a/e/", false},      {"s/a/b/w out/e", false},
		{"/e/p", false},       {"/e/d", false},	       {"1d", false},
		{"a echo e", false},   {"i\\\ne text", false}, {"c\\\nline e\\\nmore e", false},
		{"r file.e", false},   {"w out/e", false},     {"y/e/E/", false},
		{":e", false},	       {"be", false},	       {"# e", false},
		{"s/a/b", false},      {"s", false},	       {"eval.txt", true},
		{"input.txt", false},  {"\\", false},	       {"", false},
		{"5q", false},	       {"l 40", false},	       {"{p}", false},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		cr_expect(nsb_gate_sed_runs_command(t[i].script) == t[i].runs, "'%s': want %d",
			  t[i].script, t[i].runs);
}

/* ---- the shell-option rows in the policy format ----------------------- */

static int parse(const char *text, struct nsb_gate_policy *p, struct nsb_error *e)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	cr_assert(f != NULL);
	nsb_error_clear(e);
	int r = nsb_policy_parse(f, "t.policy", p, e);
	fclose(f);
	return r;
}

static char *print(const struct nsb_gate_policy *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	cr_assert(out != NULL);
	cr_assert(eq(int, nsb_policy_print(out, p, NULL), 0));
	fclose(out);
	return text;
}

Test(gate_interp, shell_option_rows_parse_and_print)
{
	struct nsb_gate_policy p;
	struct nsb_error e;
	nsb_gate_policy_init(&p);
	int r = parse("shell-option mytool --run\n"
		      "shell-option mytool -x  @sed  \n"
		      "shell-option mytool:sub -c !(safe|ok)\n"
		      "shell-option env MY_HOOK=\n"
		      "shell-option mytool %1 @stdin\n"
		      "shell-option tool2:serve *\n"
		      "shell-option tool2 + has spaces in it\n"
		      "shell-option mytool --run\n",
		      &p, &e);
	cr_assert(eq(int, r, 0), "%s", e.message);
	cr_assert(eq(sz, p.n_shellopt, 7), "a repeated row is kept once");
	expect_str(p.shellopt[1].match, "@sed");
	expect_str(p.shellopt[2].sub, "sub");
	expect_str(p.shellopt[6].match, "has spaces in it");
	char *text = print(&p);
	cr_expect(strstr(text, "shell-option mytool:sub -c !(safe|ok)\n") != NULL, "%s", text);
	cr_expect(strstr(text, "shell-option tool2:serve *\n") != NULL, "%s", text);
	cr_expect(strstr(text, "shell-option env MY_HOOK=\n") != NULL, "%s", text);

	/* round trip: the printout parsed into an empty policy prints the same */
	struct nsb_gate_policy q;
	nsb_gate_policy_init(&q);
	cr_assert(eq(int, parse(text, &q, &e), 0), "%s", e.message);
	cr_expect(eq(sz, q.n_shellopt, p.n_shellopt));
	char *text2 = print(&q);
	expect_str_at(text2, text, "second print");
	free(text);
	free(text2);
	nsb_gate_policy_free(&q);
	nsb_gate_policy_free(&p);
}

Test(gate_interp, builtin_rows_round_trip)
{
	struct nsb_gate_policy p, q;
	struct nsb_error e;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_expect(eq(sz, p.n_shellopt, 0), "the rows wait for a tool that needs them");
	cr_assert(eq(int, nsb_gate_policy_load_builtin(&p), 0));
	size_t n = 0;
	for (const char *r = nsb_gate_shellopt_builtin; *r; r = nsb_strs_next(r))
		n++;
	cr_expect(eq(sz, p.n_shellopt, n), "every built-in row is loaded once");
	char *text = print(&p);
	nsb_gate_policy_init(&q);
	cr_assert(eq(int, parse(text, &q, &e), 0), "%s", e.message);
	cr_expect(eq(sz, q.n_shellopt, n));
	char *text2 = print(&q);
	expect_str_at(text2, text, "second print");
	/* parsing into the default adds nothing */
	nsb_gate_policy_free(&q);
	cr_assert(eq(int, nsb_gate_policy_init_default(&q), 0));
	cr_assert(eq(int, parse(text, &q, &e), 0), "%s", e.message);
	cr_expect(eq(sz, q.n_shellopt, n));
	free(text);
	free(text2);
	nsb_gate_policy_free(&q);
	nsb_gate_policy_free(&p);
}

Test(gate_interp, a_policy_row_is_enforced)
{
	struct nsb_gate_policy p;
	struct nsb_error e;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_assert(eq(int, parse("shell-option cat --run-hook\n", &p, &e), 0), "%s", e.message);
	char a0[] = "cat", a1[] = "--run-hook=id", a2[] = "input/a";
	char *argv[] = {a0, a1, a2, NULL};
	struct nsb_gate_input in = {.argv = argv,
				    .argc = 3,
				    .cwd = PROJ,
				    .roots = roots,
				    .n_roots = 2,
				    .fs = &fake_ops};
	struct nsb_gate_verdict v;
	cr_assert(eq(int, nsb_gate_check(&p, &in, &v), 0));
	cr_expect(v.allowed == false);
	expect_str(v.rule, NSB_RULE_EXEC_SHELL_OPTION);
	cr_expect(eq(int, v.argv_index, 1));
	nsb_gate_policy_free(&p);
}

Test(gate_interp, shell_option_errors)
{
	static const struct {
		const char *text;
		const char *message;
	} t[] = {
		{"shell-option\n",
		 "t.policy:1:13: TOOL: an executable name (letters, digits, _ . + -)"},
		{"shell-option git\n", "t.policy:1:17: an OPTION must follow TOOL[:SUB]"},
		{"shell-option git/x -c\n",
		 "t.policy:1:17: TOOL[:SUB] is followed by a blank and the OPTION"},
		{"shell-option git: -c\n", "t.policy:1:18: SUB: a subcommand word after ':'"},
		{"shell-option git c\n",
		 "t.policy:1:18: OPTION: -x, --long, -long, +, NAME=, %1 or *"},
		{"shell-option git -c=x\n",
		 "t.policy:1:18: OPTION: -x, --long, -long, +, NAME=, %1 or *"},
		{"shell-option git:x * y\n",
		 "t.policy:1:22: '*' (the whole subcommand) takes no MATCH"},
		{"shell-option git -c @perl\n",
		 "t.policy:1:21: named matchers: @sed, @stdin, @value"},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct nsb_gate_policy p;
		struct nsb_error e;
		nsb_gate_policy_init(&p);
		cr_expect(eq(int, parse(t[i].text, &p, &e), -EINVAL), "%s", t[i].text);
		expect_str_at(e.message, t[i].message, t[i].text);
		cr_expect(e.hint[0] != '\0');
		nsb_gate_policy_free(&p);
	}
}

/* Every built-in glob on values at the length limit: no backtracking blow-up. */
Test(gate_interp, builtin_globs_stay_fast)
{
	static const char *const fills[] = {"ssh -p -p -p ", "zstd -a -a -a ", " -",
					    "aaaa",	     "a.a!",	       "-1 ",
					    "alias.x=",	     "less -R "};
	char v[NSB_SHELLOPT_GLOB_MAX + 1];
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (const char *r = nsb_gate_shellopt_builtin; *r; r = nsb_strs_next(r)) {
		const char *m = strchr(strchr(r, ' ') + 1, ' ');
		if (!m || m[1] == '@')
			continue;
		for (size_t f = 0; f < sizeof(fills) / sizeof(fills[0]); f++) {
			size_t fl = strlen(fills[f]);
			for (size_t k = 0; k < NSB_SHELLOPT_GLOB_MAX; k++)
				v[k] = fills[f][k % fl];
			v[NSB_SHELLOPT_GLOB_MAX] = '\0';
			(void)fnmatch(m + 1, v, FNM_EXTMATCH | FNM_CASEFOLD);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
	/* memcheck runs this some fifty times slower: the bound is for glibc */
	bool memcheck = RUNNING_ON_VALGRIND;
	cr_expect(memcheck || ms < 2000, "the built-in globs took %.0f ms", ms);
}
