// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The front gate against an in-memory filesystem: a table of directories,
 * files and symlinks, resolved the way the kernel would (symlink chains,
 * loops, dangling links, ".." after a link).  Each case is one command line
 * and the exact verdict expected: allowed, or rule + argv index + token.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gate/gate.h"
#include "gate_fakefs.h"
#include "core/result.h"
#include "unit.h"

/* ---- the fake filesystem (gate_fakefs.h) ------------------------------ */

#define D(p)	FAKE_DIR(p)
#define F(p)	FAKE_FILE(p)
#define S(p, t) FAKE_LINK(p, t)
#define PROJ	"/home/u/proj"

static const struct fake_ent fake[] = {
	D("/home"),
	D("/home/u"),
	F("/home/u/.bashrc"),
	D("/home/u/.ssh"),
	F("/home/u/.ssh/id_rsa"),
	D(PROJ),
	F(PROJ "/script.py"),
	F(PROJ "/run.sh"),
	F(PROJ "/prog.awk"),
	F(PROJ "/main.c"),
	F(PROJ "/app.js"),
	F(PROJ "/données.txt"),
	F(PROJ "/\xff\xfe.bin"),
	D(PROJ "/input"),
	F(PROJ "/input/data.txt"),
	F(PROJ "/input/a"),
	D(PROJ "/out"),
	D(PROJ "/tools"),
	S(PROJ "/tools/zap", "/usr/bin/rm"),
	S(PROJ "/etc-link", "/etc"),
	S(PROJ "/passwd", "/etc/passwd"),
	S(PROJ "/chain1", "chain2"),
	S(PROJ "/chain2", "./chain3"),
	S(PROJ "/chain3", "input/data.txt"),
	S(PROJ "/escchain1", "escchain2"),
	S(PROJ "/escchain2", "/etc/shadow"),
	S(PROJ "/loop1", "loop2"),
	S(PROJ "/loop2", "loop1"),
	S(PROJ "/dangling", "/nonexistent/x"),
	S(PROJ "/inlink", "input"),
	S(PROJ "/outlink", "out"),
	S(PROJ "/up", ".."),
	D("/etc"),
	F("/etc/passwd"),
	F("/etc/shadow"),
	S("/bin", "usr/bin"),
	S("/sbin", "usr/sbin"),
	D("/usr"),
	D("/usr/bin"),
	D("/usr/sbin"),
	D("/usr/share"),
	D("/usr/share/dict"),
	F("/usr/share/dict/words"),
	F("/usr/bin/python3.11"),
	S("/usr/bin/python3", "python3.11"),
	S("/usr/bin/py", "/usr/bin/python3.11"),
	F("/usr/bin/rm"),
	S("/usr/bin/del", "rm"),
	F("/usr/bin/env"),
	F("/usr/bin/cat"),
	F("/usr/bin/ls"),
	F("/usr/bin/busybox"),
	S("/usr/bin/bbsh", "busybox"),
	S("/usr/bin/ash", "busybox"),
	F("/usr/bin/dash"),
	S("/usr/bin/sh", "dash"),
	F("/usr/bin/bash"),
	F("/usr/bin/perl"),
	F("/usr/sbin/mkfs.ext4"),
	D("/tmp"),
	D("/dev"),
	F("/dev/null"),
	D("/data"),
	D("/data/shared"),
	F("/data/shared/f.csv"),
	D("/srv"),
	D("/srv/scratch"),
};

static const char *const fake_path[] = {"/usr/local/bin", "/usr/bin", "/bin",
					"/usr/sbin",	  "/sbin",    NULL};

static struct fake_fs fs = {fake, sizeof(fake) / sizeof(fake[0]), fake_path, 0};

static const struct nsb_fs_ops fake_ops = {
	.ud = &fs,
	.realpath = fake_realpath,
	.lstat_kind = fake_lstat_kind,
	.which = fake_which,
};

static const struct nsb_gate_root roots[] = {
	{PROJ, PROJ, false},
	{"/data/shared", "/data/shared", false},
	{PROJ "/out", PROJ "/out", true},
	{"/work/out", "/srv/scratch", true}, /* --rw /srv/scratch:/work/out */
};

/* ---- the cases -------------------------------------------------------- */

enum {
	P_INLINE = 1 << 0,    /* --allow-inline-code */
	P_META = 1 << 1,      /* --allow-metachar */
	P_ALLOW_RM = 1 << 2,  /* --allow-exec rm */
	P_DENY_CURL = 1 << 3, /* --deny-exec curl */
	P_ALLOW_ETC = 1 << 4, /* --allow-path /etc */
	P_NO_WHICH = 1 << 5,  /* fs ops without which */
	P_STRICT = 1 << 6,    /* metachar strict */
};

struct gcase {
	const char *name;
	const char *argv[20];
	const char *rule; /* NULL: allowed */
	int idx;
	const char *token; /* NULL: argv[idx] */
	unsigned flags;
	const char *resolved; /* checked when set */
};

#define A(...)                    \
	{                         \
		__VA_ARGS__, NULL \
	}
#define OK(n, av, ...)                                 \
	{                                              \
		n, av, NULL, -1, NULL, __VA_ARGS__ + 0 \
	}
#define NO(n, av, rule, i, ...)                       \
	{                                             \
		n, av, rule, i, NULL, __VA_ARGS__ + 0 \
	}
#define DENY NSB_RULE_EXEC_DENYLIST
#define WRAP NSB_RULE_EXEC_WRAPPER
#define INL  NSB_RULE_INTERP_INLINE
#define META NSB_RULE_SHELL_METACHAR
#define OUT  NSB_RULE_PATH_OUTSIDE
#define ESC  NSB_RULE_PATH_SYMLINK_ESC

/*
 * Generated arguments (too long to write inline): "@TEXT" 5000 bytes of
 * prose with slashes, "@OUTLONG" a 3000-byte path under /etc, "@HUGE" a
 * 5000-byte path under /etc (longer than PATH_MAX), "@DEEP" an output 40
 * missing directories deep.
 */
static const struct gcase cases[] = {
	/* benign calls that must pass */
	OK("python_script", A("python3", "script.py")),
	OK("cat_input", A("cat", "input/data.txt")),
	OK("ls_out", A("ls", "out")),
	OK("grep_recursive", A("grep", "-r", "word", "input")),
	OK("cp_in_out", A("cp", "input/a", "out/b")),
	OK("ls_bare", A("ls")),
	OK("ls_dot", A("ls", ".")),
	OK("ls_dot_slash", A("ls", "./input")),
	OK("dotdot_back_inside", A("cat", "input/../input/data.txt")),
	OK("python_script_own_c", A("python3", "script.py", "-c", "conf.yaml")),
	OK("python_unbuffered", A("python3", "-u", "script.py")),
	OK("python_W_sep", A("python3", "-W", "ignore", "script.py")),
	OK("python_W_takes_dash_c", A("python3", "-W", "-c", "script.py")),
	OK("python_X", A("python3", "-X", "dev", "script.py")),
	OK("python_module", A("python3", "-m", "http.server", "8000")),
	OK("python_dashdash_c_file", A("python3", "--", "-c")),
	NO("python_stdin", A("python3", "-"), NSB_RULE_INTERP_STDIN, 1),
	OK("python_script_then_dashdash", A("python3", "script.py", "--", "-c")),
	OK("python_quoted_c", A("python3", "\"-c\"", "x")),
	OK("python_space_c", A("python3", " -c", "x")),
	OK("bash_script", A("bash", "run.sh")),
	OK("sh_e_script", A("sh", "-e", "run.sh")),
	OK("bash_x_script", A("bash", "-x", "run.sh")),
	OK("perl_w_script", A("perl", "-w", "script.pl")),
	OK("perl_pie_is_backup_ext", A("perl", "-pie", "s/a/b/", "input/a")),
	OK("awk_f", A("awk", "-f", "prog.awk", "input/data.txt")),
	OK("gawk_file_eq", A("gawk", "--file=prog.awk", "input/a")),
	OK("node_script", A("node", "app.js")),
	OK("ruby_script", A("ruby", "app.rb")),
	OK("php_script", A("php", "index.php")),
	OK("lua_script", A("lua", "script.lua")),
	OK("rscript_file", A("Rscript", "analysis.R")),
	OK("deno_run", A("deno", "run", "app.ts")),
	OK("tclsh_script", A("tclsh", "script.tcl")),
	OK("julia_script", A("julia", "script.jl")),
	OK("env_python", A("env", "python3", "script.py")),
	OK("env_i_assign", A("env", "-i", "PATH=/usr/bin", "python3", "script.py")),
	OK("env_u", A("env", "-u", "HOME", "ls")),
	OK("env_alone", A("env")),
	OK("nice_n", A("nice", "-n", "10", "python3", "script.py")),
	OK("nice_old", A("nice", "-5", "make")),
	OK("nice_long", A("nice", "--adjustment=5", "ls")),
	OK("nohup_python", A("nohup", "python3", "script.py")),
	OK("timeout_python", A("timeout", "5", "python3", "script.py")),
	OK("timeout_s", A("timeout", "-s", "KILL", "10", "python3", "script.py")),
	OK("timeout_foreground", A("timeout", "--foreground", "5", "ls")),
	OK("stdbuf_oL", A("stdbuf", "-oL", "python3", "script.py")),
	OK("setsid_w", A("setsid", "-w", "python3", "script.py")),
	OK("xargs_grep", A("xargs", "-0", "grep", "word")),
	OK("xargs_alone", A("xargs")),
	OK("xargs_I_plain_cmd", A("xargs", "-I", "{}", "cat", "{}")),
	OK("find_name", A("find", "input", "-name", "*.txt")),
	OK("find_exec_cat_semicolon", A("find", ".", "-exec", "cat", "{}", ";")),
	OK("find_exec_grep_plus",
	   A("find", "input", "-type", "f", "-exec", "grep", "-l", "w", "{}", "+")),
	OK("busybox_ls", A("busybox", "ls", "out")),
	OK("busybox_alone", A("busybox")),
	OK("busybox_list", A("busybox", "--list")),
	OK("command_v_rm", A("command", "-v", "rm")),
	OK("echo_empty", A("echo", "")),
	OK("empty_args", A("python3", "script.py", "", "", "")),
	OK("unicode_file", A("cat", "données.txt")),
	OK("binary_bytes_file", A("cat", "\xff\xfe.bin")),
	OK("binary_bytes_arg", A("python3", "script.py", "\x01\x02\xfe\xff")),
	OK("usr_share", A("cat", "/usr/share/dict/words")),
	OK("tmp_private", A("cp", "input/a", "/tmp/x")),
	OK("dev_null", A("cat", "/dev/null")),
	OK("ro_root", A("cat", "/data/shared/f.csv")),
	OK("mapped_rw_root", A("cp", "input/a", "/work/out/x")),
	OK("opt_eq_output", A("python3", "script.py", "--output=out/result.json")),
	OK("opt_eq_input", A("python3", "script.py", "--in=input/data.txt")),
	OK("symlink_inside", A("cat", "inlink/data.txt")),
	OK("symlink_chain_inside", A("cat", "chain1")),
	OK("symlink_to_out", A("ls", "outlink")),
	OK("missing_output_deep", A("touch", "out/new/deep/file.txt")),
	OK("mkdir_p", A("mkdir", "-p", "out/a/b/c")),
	OK("words_with_space", A("python3", "script.py", "hello world")),
	OK("slash_text_not_file", A("python3", "script.py", "a/b")),
	OK("url", A("python3", "script.py", "https://example.com/x")),
	NO("long_text", A("python3", "script.py", "@TEXT"), NSB_RULE_PATH_TOO_LONG, 2),
	NO("huge_arg_not_a_path", A("python3", "script.py", "@HUGE"), NSB_RULE_PATH_TOO_LONG, 2),
	OK("abs_python", A("/usr/bin/python3", "script.py")),
	OK("dot_slash_cmd", A("./run.sh")),
	OK("gcc_o", A("gcc", "-o", "out/prog", "main.c")),
	OK("gcc_o_glued", A("gcc", "-oout/prog", "main.c")),
	OK("grep_e", A("grep", "-e", "pattern", "input")),
	OK("sed_e", A("sed", "-e", "s/a/b/", "input/a")),
	OK("dollar_var_plain", A("echo", "$HOME", "$x")),
	OK("home_into_project", A("cat", "~/proj/input/data.txt")),
	OK("sudo_as_argument", A("echo", "sudo", "rm")),
	OK("ls_input_dotdot", A("ls", "input/..")),
	OK("allow_exec_rm", A("rm", "out/x"), P_ALLOW_RM),
	OK("allow_exec_rm_via_env", A("env", "rm", "out/x"), P_ALLOW_RM),
	OK("allow_exec_rm_alias", A("del", "out/x"), P_ALLOW_RM),
	OK("allow_inline_python", A("python3", "-c", "print(1)"), P_INLINE),
	OK("allow_inline_awk", A("awk", "{print}", "input/a"), P_INLINE),
	OK("allow_meta", A("echo", "a;b"), P_META),
	OK("allow_path_etc", A("cat", "/etc/passwd"), P_ALLOW_ETC),
	OK("find_semicolon_quoted", A("find", ".", "-exec", "cat", "{}", ";", "-print")),
	/* a multi-call binary acts by its called name: busybox has no applet
	 * "bbsh", so nothing runs code; it is not a wrapper either */
	OK("busybox_alias_unknown_applet", A("bbsh", "-c", "ls")),
	OK("file_url_inside", A("curl", "file:///home/u/proj/input/data.txt")),
	OK("file_url_remote_host", A("curl", "file://remote.example/etc/passwd")),
	OK("url_with_colon", A("curl", "https://example.com/a:b")),
	OK("clock_time", A("python3", "script.py", "12:30")),
	OK("path_list_system", A("env", "PATH=/usr/bin:/bin", "ls")),
	OK("path_list_inside", A("python3", "script.py", "--path=input:/home/u/proj/out")),
	OK("alias_without_which", A("env", "del", "x"), P_NO_WHICH),

	/* exec.denylist: every default name */
	NO("rm", A("rm", "-rf", "x"), DENY, 0),
	NO("rm_abs", A("/usr/bin/rm", "x"), DENY, 0),
	NO("sudo", A("sudo", "id"), DENY, 0),
	NO("su", A("su", "-"), DENY, 0),
	NO("doas", A("doas", "id"), DENY, 0),
	NO("pkexec", A("pkexec", "id"), DENY, 0),
	NO("setpriv", A("setpriv", "--reuid=0", "id"), DENY, 0),
	NO("capsh", A("capsh", "--print"), DENY, 0),
	NO("nsenter", A("nsenter", "-t", "1", "-m"), DENY, 0),
	NO("unshare", A("unshare", "-r", "id"), DENY, 0),
	NO("chroot", A("chroot", "/", "id"), DENY, 0),
	NO("chmod", A("chmod", "777", "out"), DENY, 0),
	NO("chown", A("chown", "u", "out"), DENY, 0),
	NO("dd", A("dd", "if=/dev/zero", "of=out/x"), DENY, 0),
	NO("shred", A("shred", "input/a"), DENY, 0),
	NO("wipefs", A("wipefs", "-a", "/dev/sda"), DENY, 0),
	NO("mkfs", A("mkfs", "/dev/sda"), DENY, 0),
	NO("mkfs_ext4", A("mkfs.ext4", "/dev/sda"), DENY, 0),
	NO("mkfs_btrfs", A("mkfs.btrfs", "/dev/sda"), DENY, 0),
	NO("mkfs_abs", A("/usr/sbin/mkfs.ext4", "x"), DENY, 0),
	NO("mkswap", A("mkswap", "x"), DENY, 0),
	NO("fdisk", A("fdisk", "-l"), DENY, 0),
	NO("sfdisk", A("sfdisk", "-l"), DENY, 0),
	NO("parted", A("parted", "-l"), DENY, 0),
	NO("mount", A("mount"), DENY, 0),
	NO("umount", A("umount", "/"), DENY, 0),
	NO("swapon", A("swapon", "-a"), DENY, 0),
	NO("swapoff", A("swapoff", "-a"), DENY, 0),
	NO("insmod", A("insmod", "x.ko"), DENY, 0),
	NO("rmmod", A("rmmod", "x"), DENY, 0),
	NO("modprobe", A("modprobe", "x"), DENY, 0),
	NO("kexec", A("kexec", "-e"), DENY, 0),
	NO("reboot", A("reboot"), DENY, 0),
	NO("shutdown", A("shutdown", "now"), DENY, 0),
	NO("halt", A("halt"), DENY, 0),
	NO("poweroff", A("poweroff"), DENY, 0),
	NO("systemctl", A("systemctl", "stop", "x"), DENY, 0),
	NO("alias_by_which", A("del", "x"), DENY, 0),
	NO("alias_by_symlink_path", A("tools/zap", "x"), DENY, 0),
	NO("deny_exec_added", A("curl", "http://x"), DENY, 0, P_DENY_CURL),

	/* wrappers looked through */
	NO("env_sudo", A("env", "sudo", "id"), DENY, 1),
	NO("env_i_sudo", A("env", "-i", "sudo", "id"), DENY, 2),
	NO("env_assign_rm", A("env", "FOO=1", "rm", "x"), DENY, 2),
	NO("env_dashdash_rm", A("env", "--", "rm", "x"), DENY, 2),
	NO("env_dash_rm", A("env", "-", "rm", "x"), DENY, 2),
	NO("env_u_sep_rm", A("env", "-u", "HOME", "rm", "x"), DENY, 3),
	NO("env_u_glued_rm", A("env", "-uHOME", "rm", "x"), DENY, 2),
	NO("env_unset_eq_rm", A("env", "--unset=HOME", "rm", "x"), DENY, 2),
	NO("env_alias", A("env", "del", "x"), DENY, 1),
	NO("nice_rm", A("nice", "rm", "x"), DENY, 1),
	NO("nice_n_rm", A("nice", "-n", "5", "rm", "x"), DENY, 3),
	NO("nice_n_glued_rm", A("nice", "-n5", "rm", "x"), DENY, 2),
	NO("nice_old_rm", A("nice", "-10", "rm", "x"), DENY, 2),
	NO("nice_adjust_rm", A("nice", "--adjustment=5", "rm", "x"), DENY, 2),
	NO("nohup_rm", A("nohup", "rm", "x"), DENY, 1),
	NO("nohup_dashdash_rm", A("nohup", "--", "rm", "x"), DENY, 2),
	NO("timeout_rm", A("timeout", "5", "rm", "x"), DENY, 2),
	NO("timeout_s_rm", A("timeout", "-s", "KILL", "5", "rm", "x"), DENY, 4),
	NO("timeout_long_rm", A("timeout", "--signal=KILL", "-k", "1", "5", "rm"), DENY, 5),
	NO("timeout_sKILL_rm", A("timeout", "-sKILL", "5", "rm"), DENY, 3),
	NO("stdbuf_sep_rm", A("stdbuf", "-o", "L", "rm", "x"), DENY, 3),
	NO("stdbuf_glued_rm", A("stdbuf", "-oL", "rm", "x"), DENY, 2),
	NO("stdbuf_long_rm", A("stdbuf", "--output=L", "rm", "x"), DENY, 2),
	NO("setsid_rm", A("setsid", "rm", "x"), DENY, 1),
	NO("setsid_f_rm", A("setsid", "-f", "rm", "x"), DENY, 2),
	NO("xargs_rm", A("xargs", "rm"), DENY, 1),
	NO("xargs_opts_rm", A("xargs", "-0", "-n", "1", "rm"), DENY, 4),
	NO("xargs_I_rm", A("xargs", "-I", "{}", "rm", "{}"), DENY, 3),
	NO("busybox_rm", A("busybox", "rm", "-rf", "x"), DENY, 1),
	NO("find_exec_rm", A("find", ".", "-exec", "rm", "{}", "+"), DENY, 3),
	NO("find_execdir_rm", A("find", ".", "-execdir", "rm", "{}", ";"), DENY, 3),
	NO("find_ok_rm", A("find", ".", "-ok", "rm", "{}", ";"), DENY, 3),
	NO("find_okdir_rm", A("find", ".", "-okdir", "rm", "{}", ";"), DENY, 3),
	NO("find_second_exec",
	   A("find", ".", "-name", "x", "-exec", "cat", "{}", ";", "-exec", "rm", "{}", ";"), DENY,
	   9),
	NO("command_rm", A("command", "rm", "x"), DENY, 1),
	NO("command_p_rm", A("command", "-p", "rm", "x"), DENY, 2),
	NO("time_rm", A("time", "rm", "x"), DENY, 1),
	NO("ionice_rm", A("ionice", "-c3", "rm", "x"), DENY, 2),
	NO("env_nice_sudo", A("env", "nice", "sudo", "id"), DENY, 2),
	NO("deep_chain_sudo", A("env", "timeout", "5", "nice", "-n", "1", "sudo", "id"), DENY, 6),
	NO("xargs_env_rm", A("xargs", "env", "A=1", "rm"), DENY, 3),

	/* exec.wrapper: what cannot be seen through */
	NO("env_S", A("env", "-S", "rm -rf x"), DENY, 2),
	NO("env_S_glued", A("env", "-iS", "rm"), DENY, 2),
	NO("env_split_string", A("env", "--split-string=rm x"), DENY, 1),
	NO("env_C", A("env", "-C", "/tmp", "ls"), WRAP, 1),
	NO("env_chdir", A("env", "--chdir=out", "ls"), WRAP, 1),
	NO("timeout_unknown", A("timeout", "--bogus", "5", "ls"), WRAP, 1),
	NO("nice_unknown", A("nice", "-z", "ls"), WRAP, 1),
	NO("stdbuf_unknown", A("stdbuf", "--bogus", "ls"), WRAP, 1),
	NO("setsid_unknown", A("setsid", "--xyz", "ls"), WRAP, 1),
	NO("find_no_terminator", A("find", ".", "-exec", "rm"), WRAP, 2),
	NO("find_no_command", A("find", ".", "-exec", ";"), WRAP, 2),
	NO("find_cmd_from_names", A("find", ".", "-exec", "{}", ";"), WRAP, 3),
	NO("xargs_I_cmd_from_stdin", A("xargs", "-I", "%", "%"), WRAP, 3),
	NO("xargs_i_default", A("xargs", "-i", "{}"), WRAP, 2),
	NO("too_deep", A("env", "env", "env", "env", "env", "env", "env", "env", "env", "ls"), WRAP,
	   8),

	/* interp.inline */
	NO("python3_c", A("python3", "-c", "print(1)"), INL, 1),
	NO("python_c", A("python", "-c", "x"), INL, 1),
	NO("python2_c", A("python2", "-c", "x"), INL, 1),
	NO("python311_c", A("python3.11", "-c", "x"), INL, 1),
	NO("pypy_c", A("pypy", "-c", "x"), INL, 1),
	NO("pypy3_c", A("pypy3", "-c", "x"), INL, 1),
	NO("python_Sc", A("python3", "-Sc", "x"), INL, 1),
	NO("python_c_glued", A("python3", "-cprint(1)"), INL, 1),
	NO("python_u_c", A("python3", "-u", "-c", "x"), INL, 2),
	NO("python_W_then_c", A("python3", "-W", "ignore", "-c", "x"), INL, 3),
	NO("python_Wglued_c", A("python3", "-Wignore", "-c", "x"), INL, 2),
	NO("python_I_c", A("python3", "-I", "-c", "x"), INL, 2),
	NO("python_timeit", A("python3", "-m", "timeit", "1+1"), INL, 2),
	NO("python_abs_c", A("/usr/bin/python3", "-c", "x"), INL, 1),
	NO("python_alias_c", A("py", "-c", "x"), INL, 1),
	NO("bash_c", A("bash", "-c", "ls"), INL, 1),
	NO("sh_c", A("sh", "-c", "ls"), INL, 1),
	NO("dash_c", A("dash", "-c", "ls"), INL, 1),
	NO("zsh_c", A("zsh", "-c", "ls"), INL, 1),
	NO("ksh_c", A("ksh", "-c", "ls"), INL, 1),
	NO("mksh_c", A("mksh", "-c", "ls"), INL, 1),
	NO("csh_c", A("csh", "-c", "ls"), INL, 1),
	NO("tcsh_c", A("tcsh", "-c", "ls"), INL, 1),
	NO("fish_c", A("fish", "-c", "ls"), INL, 1),
	NO("fish_command_eq", A("fish", "--command=ls"), INL, 1),
	NO("fish_C", A("fish", "-C", "ls"), INL, 1),
	NO("bash_xc", A("bash", "-xc", "ls"), INL, 1),
	NO("sh_ec", A("sh", "-ec", "ls"), INL, 1),
	NO("bash_o_then_c", A("bash", "-o", "pipefail", "-c", "ls"), INL, 3),
	NO("bash_rcfile_then_c", A("bash", "--rcfile", "run.sh", "-c", "ls"), INL, 3),
	NO("bash_l_c", A("bash", "-l", "-c", "ls"), INL, 1 + 1),
	NO("bash_plus_then_c", A("bash", "+x", "-c", "ls"), INL, 2),
	NO("node_e", A("node", "-e", "x"), INL, 1),
	NO("node_eval", A("node", "--eval", "x"), INL, 1),
	NO("node_eval_eq", A("node", "--eval=x"), INL, 1),
	NO("node_p", A("node", "-p", "1"), INL, 1),
	NO("node_print", A("node", "--print", "1"), INL, 1),
	NO("node_pe", A("node", "-pe", "1"), INL, 1),
	NO("node_require_then_e", A("node", "-r", "mod", "-e", "x"), INL, 3),
	NO("nodejs_e", A("nodejs", "-e", "x"), INL, 1),
	NO("bun_e", A("bun", "-e", "x"), INL, 1),
	NO("deno_eval", A("deno", "eval", "x"), INL, 1),
	NO("deno_repl_eval", A("deno", "repl", "--eval", "x"), INL, 2),
	NO("perl_e", A("perl", "-e", "x"), INL, 1),
	NO("perl_E", A("perl", "-E", "say 1"), INL, 1),
	NO("perl_we", A("perl", "-we", "x"), INL, 1),
	NO("perl_lne", A("perl", "-lne", "print"), INL, 1),
	NO("perl_0777_ne", A("perl", "-0777ne", "print"), INL, 1),
	NO("perl_M_then_e", A("perl", "-Mstrict", "-e", "x"), INL, 2),
	NO("perl_I_sep_then_e", A("perl", "-I", "lib", "-e", "x"), INL, 3),
	NO("perl_versioned", A("perl5.36", "-e", "x"), INL, 1),
	NO("ruby_e", A("ruby", "-e", "x"), INL, 1),
	NO("ruby_ne", A("ruby", "-ne", "x"), INL, 1),
	NO("ruby_I_then_e", A("ruby", "-I", "lib", "-e", "x"), INL, 3),
	NO("php_r", A("php", "-r", "x"), INL, 1),
	NO("php_B", A("php", "-B", "x"), INL, 1),
	NO("php_R", A("php", "-R", "x"), INL, 1),
	NO("php_E", A("php", "-E", "x"), INL, 1),
	NO("php_nr", A("php", "-nr", "x"), INL, 1),
	NO("php_run", A("php", "--run", "x"), INL, 1),
	NO("php_versioned", A("php8.2", "-r", "x"), INL, 1),
	NO("lua_e", A("lua", "-e", "x"), INL, 1),
	NO("lua54_e", A("lua5.4", "-e", "x"), INL, 1),
	NO("luajit_e", A("luajit", "-e", "x"), INL, 1),
	NO("rscript_e", A("Rscript", "-e", "x"), INL, 1),
	NO("R_e", A("R", "-e", "x"), INL, 1),
	NO("julia_e", A("julia", "-e", "x"), INL, 1),
	NO("julia_eval", A("julia", "--eval", "x"), INL, 1),
	NO("julia_E", A("julia", "-E", "x"), INL, 1),
	NO("expect_c", A("expect", "-c", "x"), INL, 1),
	NO("awk_program", A("awk", "{print $1}", "input/a"), INL, 1),
	NO("gawk_program", A("gawk", "BEGIN{x=1}"), INL, 1),
	NO("mawk_program", A("mawk", "{print}"), INL, 1),
	NO("nawk_program", A("nawk", "{print}"), INL, 1),
	NO("awk_F_then_program", A("awk", "-F:", "{print}"), INL, 2),
	NO("awk_v_then_program", A("awk", "-v", "x=1", "{print x}"), INL, 3),
	NO("gawk_e", A("gawk", "-e", "x"), INL, 1),
	NO("gawk_source", A("gawk", "--source=x"), INL, 1),
	NO("busybox_awk", A("busybox", "awk", "{print}"), INL, 2),
	NO("busybox_sh_c", A("busybox", "sh", "-c", "ls"), INL, 2),
	NO("busybox_alias_ash_c", A("ash", "-c", "ls"), INL, 1),
	NO("env_python_c", A("env", "python3", "-c", "x"), INL, 2),
	NO("timeout_bash_c", A("timeout", "5", "bash", "-c", "ls"), INL, 3),
	NO("xargs_sh_c", A("xargs", "sh", "-c", "ls"), INL, 2),
	NO("find_exec_sh_c", A("find", ".", "-exec", "sh", "-c", "ls", ";"), INL, 4),
	NO("nice_perl_e", A("nice", "-n", "1", "perl", "-e", "x"), INL, 4),

	/* shell.metachar (the characters: metachar strict; syntax: test_gate_paths2.c) */
	NO("semicolon", A("echo", "a;b"), META, 1, P_STRICT),
	NO("pipe", A("echo", "a|b"), META, 1, P_STRICT),
	NO("ampersand", A("echo", "a&b"), META, 1, P_STRICT),
	NO("redirect_out", A("echo", "a>b"), META, 1, P_STRICT),
	NO("redirect_in", A("echo", "a<b"), META, 1, P_STRICT),
	NO("backtick", A("echo", "a`id`"), META, 1),
	NO("dollar_paren", A("echo", "$(id)"), META, 1),
	NO("newline", A("echo", "a\nb"), META, 1),
	NO("rm_rf_in_arg", A("python3", "script.py", "; rm -rf /"), META, 2),
	NO("and_and", A("ls", "&&", "id"), META, 1),
	NO("grep_alternation", A("grep", "-E", "a|b", "input"), META, 2, P_STRICT),
	NO("find_name_semicolon", A("find", ".", "-name", "a;b"), META, 3, P_STRICT),
	NO("meta_in_command", A("ls;id"), META, 0, P_STRICT),
	/* With inline code allowed, a shell's -c program is read by that shell. */
	OK("inline_allowed_shell_program_has_a_shell", A("bash", "-c", "ls; rm x"), P_INLINE),
	NO("inline_allowed_meta_in_python_code", A("python3", "-c", "a; b"), META, 2,
	   (P_INLINE | P_STRICT)),
	NO("inline_allowed_meta_after_the_program", A("sh", "-c", "ls", "x", "a|"), META, 4,
	   P_INLINE),

	/* path.outside */
	NO("etc_passwd", A("cat", "/etc/passwd"), OUT, 1),
	NO("dotdot_etc_passwd", A("cat", "../../etc/passwd"), OUT, 1),
	NO("dotdot3_etc_passwd", A("cat", "../../../etc/passwd"), OUT, 1),
	NO("home_ssh", A("cat", "~/.ssh/id_rsa"), OUT, 1),
	NO("home_bare", A("ls", "~"), OUT, 1),
	NO("other_home", A("cat", "~root/.bashrc"), OUT, 1),
	NO("parent", A("ls", ".."), OUT, 1),
	NO("root", A("ls", "/"), OUT, 1),
	NO("missing_outside", A("cp", "input/a", "/home/u/x"), OUT, 2),
	NO("opt_eq_etc", A("python3", "script.py", "--config=/etc/passwd"), OUT, 2),
	NO("opt_eq_parent", A("python3", "script.py", "--out=../x"), OUT, 2),
	NO("glued_short_value", A("gcc", "-o/etc/x", "main.c"), OUT, 1),
	NO("glued_include_parent", A("gcc", "-I../..", "main.c"), OUT, 1),
	NO("make_var", A("make", "DESTDIR=/etc"), OUT, 1),
	NO("double_slashes", A("cat", "//etc//passwd"), OUT, 1),
	NO("usr_dotdot_etc", A("cat", "/usr/../etc/passwd"), OUT, 1),
	NO("tmp_dotdot_etc", A("cat", "/tmp/../etc/passwd"), OUT, 1),
	NO("input_dotdot_dotdot", A("cat", "input/../../x"), OUT, 1),
	NO("out_up3", A("ls", "out/../../.."), OUT, 1),
	NO("etc_dir", A("ls", "/etc"), OUT, 1),
	NO("mapped_root_climb", A("cp", "input/a", "/work/out/../../etc/x"), OUT, 2),
	NO("abs_project_climb", A("cat", "/home/u/proj/../.bashrc"), OUT, 1),
	NO("unicode_outside", A("cat", "../données"), OUT, 1),
	NO("find_etc", A("find", "/etc", "-name", "x"), OUT, 1),
	NO("env_then_etc", A("env", "-u", "X", "cat", "/etc/passwd"), OUT, 4),
	NO("xargs_arg_file", A("xargs", "-a", "/etc/passwd", "cat"), OUT, 2),
	NO("long_outside", A("cat", "@OUTLONG"), OUT, 1),
	NO("deep_missing_tail", A("touch", "@DEEP"), OUT, 1),
	NO("missing_tail_climbs", A("mkdir", "-p", "out/new/../../../x"), OUT, 2),
	NO("env_assign_outside", A("env", "LD_PRELOAD=/etc/x.so", "ls"), OUT, 1),
	NO("proc_self_root", A("cat", "/proc/self/root/etc/passwd"), OUT, 1),
	OK("proc_cwd", A("ls", "/proc/1/cwd")),
	NO("file_url", A("curl", "file:///etc/passwd"), OUT, 1),
	NO("file_url_localhost", A("curl", "FILE://localhost/etc/passwd"), OUT, 1),
	NO("file_url_percent", A("curl", "file:///%65tc/passwd"), OUT, 1),
	NO("file_url_in_value", A("python3", "script.py", "--src=file:/etc/shadow"), OUT, 2),
	NO("colon_list_outside", A("python3", "script.py", "--path=input:/etc"), OUT, 2),
	NO("host_colon_path", A("rsync", "host:/etc/passwd", "out"), OUT, 1),
	NO("colon_home", A("python3", "script.py", "x:~/.ssh/id_rsa"), OUT, 2),
	NO("too_many_colon_paths", A("python3", "script.py", "@COLONS"), OUT, 2),
	/* found by fuzz_gate: file: URLs were not capped, so one argument could
	 * cost the gate an unbounded number of filesystem lookups */
	NO("too_many_file_urls", A("cat", "@FILEURLS"), OUT, 1, P_META),
	NO("interp_script_outside", A("python3", "/etc/x.py"), OUT, 1),

	/* path.symlink_escape */
	NO("link_dir_to_etc", A("cat", "etc-link/passwd"), ESC, 1),
	NO("link_file_no_slash", A("cat", "passwd"), ESC, 1),
	NO("link_chain_escape", A("cat", "escchain1"), ESC, 1),
	NO("link_loop", A("cat", "loop1"), ESC, 1),
	NO("link_loop_below", A("cat", "loop1/x"), ESC, 1),
	NO("link_dangling", A("cat", "dangling"), ESC, 1),
	NO("link_dangling_output", A("cp", "input/a", "dangling"), ESC, 2),
	NO("link_up", A("ls", "up"), ESC, 1),
	NO("link_up_ssh", A("cat", "up/.ssh/id_rsa"), ESC, 1),
	NO("link_missing_under_etc", A("touch", "etc-link/newfile"), ESC, 1),
	NO("link_opt_value", A("python3", "script.py", "--in=passwd"), ESC, 2),
	NO("link_dotdot_after_link", A("cat", "inlink/../passwd"), ESC, 1),
	NO("link_abs_in_project", A("cat", "/home/u/proj/etc-link/shadow"), ESC, 1),
	NO("link_through_dot", A("cat", "./etc-link/../etc-link/passwd"), ESC, 1),
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* Expand a generated argument into buf (see the table's comment). */
static const char *expand(const char *a, char *buf, size_t size)
{
	if (a[0] != '@')
		return a;
	size_t n = 0;
	if (strcmp(a, "@TEXT") == 0) {
		while (n + 5 < 5000)
			n += (size_t)snprintf(buf + n, size - n, "%s", "ab/c ");
	} else if (strcmp(a, "@OUTLONG") == 0 || strcmp(a, "@HUGE") == 0) {
		size_t len = strcmp(a, "@HUGE") == 0 ? 5000 : 3000;
		n = (size_t)snprintf(buf, size, "/etc/");
		while (n < len)
			buf[n++] = 'a';
		buf[n] = '\0';
	} else if (strcmp(a, "@COLONS") == 0) {
		for (int i = 0; i < 17; i++)
			n += (size_t)snprintf(buf + n, size - n, "%s:/tmp/x%d", i ? "" : "x", i);
	} else if (strcmp(a, "@FILEURLS") == 0) {
		/* an option (so the whole argument is not a path) packing 40
		 * file: URLs, each with a missing tail */
		n = (size_t)snprintf(buf, size, "--urls");
		for (int i = 0; i < 40; i++)
			n += (size_t)snprintf(buf + n, size - n, ",file:input/n/%d#", i);
	} else if (strcmp(a, "@DEEP") == 0) {
		n = (size_t)snprintf(buf, size, "out");
		for (int i = 0; i < 40; i++)
			n += (size_t)snprintf(buf + n, size - n, "/d");
	}
	return buf;
}

static void run_case(const struct gcase *t, struct nsb_gate_verdict *v)
{
	static char bufs[20][8192];
	char *argv[20];
	int argc = 0;
	for (; t->argv[argc]; argc++) {
		char tmp[sizeof(bufs[0])];
		snprintf(bufs[argc], sizeof(bufs[argc]), "%s",
			 expand(t->argv[argc], tmp, sizeof(tmp)));
		argv[argc] = bufs[argc];
	}
	argv[argc] = NULL;

	struct nsb_gate_policy p;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	if (t->flags & P_INLINE)
		p.allow_inline_code = true;
	if (t->flags & P_META)
		p.allow_metachar = true;
	if (t->flags & P_ALLOW_RM)
		cr_assert(eq(int, nsb_gate_policy_allow_exec(&p, "rm"), 0));
	if (t->flags & P_DENY_CURL)
		cr_assert(eq(int, nsb_gate_policy_deny_exec(&p, "curl"), 0));
	if (t->flags & P_ALLOW_ETC)
		cr_assert(eq(int, nsb_gate_policy_allow_path(&p, "/etc"), 0));

	struct nsb_fs_ops ops = fake_ops;
	if (t->flags & P_STRICT)
		p.metachar_strict = true;
	if (t->flags & P_NO_WHICH)
		ops.which = NULL;

	/* the command as the lead resolves it: PATH lookup, then realpath */
	char real[PATH_MAX], host[PATH_MAX];
	const char *real_base = NULL;
	if (strchr(argv[0], '/')) {
		snprintf(host, sizeof(host), "%s%s%s", argv[0][0] == '/' ? "" : PROJ,
			 argv[0][0] == '/' ? "" : "/", argv[0]);
		if (fake_realpath(&fs, host, real, sizeof(real)) == 0)
			real_base = strrchr(real, '/') + 1;
	} else if (ops.which && ops.which(ops.ud, argv[0], real, sizeof(real)) == 0) {
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
		.fs = &ops,
	};
	fs.lookups = 0;
	cr_assert(eq(int, nsb_gate_check(&p, &in, v), 0), "%s: gate failed", t->name);
	/* bounded work: a few lookups per argument, never a walk */
	/* (an argument packing paths may cost its 32 candidates' lookups) */
	unsigned long packed = strncmp(t->name, "too_many", 8) == 0 ? 32 * 66 : 0;
	cr_expect(fs.lookups <= 8 + 70 * (unsigned long)argc + packed, "%s: %lu lookups", t->name,
		  fs.lookups);
	nsb_gate_policy_free(&p);
}

ParameterizedTestParameters(gate, table)
{
	static int idx[N_CASES];
	for (size_t i = 0; i < N_CASES; i++)
		idx[i] = (int)i;
	return cr_make_param_array(int, idx, N_CASES);
}

ParameterizedTest(int *i, gate, table)
{
	const struct gcase *t = &cases[*i];
	struct nsb_gate_verdict v;
	run_case(t, &v);

	if (!t->rule) {
		cr_assert(v.allowed, "%s: refused by %s at %d ('%s'): %s", t->name,
			  v.rule ? v.rule : "?", v.argv_index, v.token, v.reason);
		cr_expect(eq(int, v.argv_index, -1));
		cr_expect(v.rule == NULL);
		return;
	}
	cr_assert(v.allowed == false, "%s: allowed, expected %s at %d", t->name, t->rule, t->idx);
	cr_assert(strcmp(v.rule, t->rule) == 0, "%s: rule %s, want %s (reason: %s)", t->name,
		  v.rule, t->rule, v.reason);
	cr_expect(eq(int, v.argv_index, t->idx), "%s: argv index (token '%s')", t->name, v.token);

	char want[NSB_GATE_TOKEN_MAX], buf[8192];
	const char *tok = t->token ? t->token : expand(t->argv[t->idx], buf, sizeof(buf));
	snprintf(want, sizeof(want), "%s", tok);
	expect_str_at(v.token, want, t->name);
	cr_expect(v.hint[0] != '\0', "%s: a refusal carries a hint", t->name);
	cr_expect(v.reason[0] != '\0', "%s: a refusal carries a reason", t->name);
	bool path_rule = strncmp(t->rule, "path.", 5) == 0;
	if (!path_rule)
		expect_str_at(v.resolved, "", t->name);
}

Test(gate, table_is_large_enough)
{
	size_t n = N_CASES;
	cr_assert(n >= 150, "only %zu cases", n);
}

/* ---- facts the table does not show ------------------------------------ */

static void check1(const char *const *av, struct nsb_gate_verdict *v)
{
	struct gcase t = {.name = "adhoc"};
	for (int i = 0; av[i]; i++)
		t.argv[i] = av[i];
	run_case(&t, v);
}

Test(gate, resolved_paths_are_reported)
{
	struct nsb_gate_verdict v;
	check1((const char *[]){"cat", "etc-link/passwd", NULL}, &v);
	expect_str(v.resolved, "/etc/passwd");
	check1((const char *[]){"cat", "~/.ssh/id_rsa", NULL}, &v);
	expect_str(v.resolved, "/home/u/.ssh/id_rsa");
	/* a missing tail is appended to the longest existing prefix */
	check1((const char *[]){"cat", "../../etc/passwd", NULL}, &v);
	expect_str(v.resolved, "/home/etc/passwd");
	check1((const char *[]){"touch", "etc-link/new/file", NULL}, &v);
	expect_str(v.rule, NSB_RULE_PATH_SYMLINK_ESC);
	expect_str(v.resolved, "/etc/new/file");
}

Test(gate, alias_reason_names_both)
{
	struct nsb_gate_verdict v;
	check1((const char *[]){"del", "x", NULL}, &v);
	expect_str(v.reason, "'del' resolves to 'rm', which is on the exec deny list");
	cr_expect(strstr(v.hint, "--allow-exec rm") != NULL, "%s", v.hint);
}

Test(gate, hints_say_how)
{
	struct nsb_gate_verdict v;
	check1((const char *[]){"python3", "-c", "x", NULL}, &v);
	cr_expect(strstr(v.hint, "--rw") != NULL, "%s", v.hint);
	cr_expect(strstr(v.hint, "python3 out/snippet") != NULL, "%s", v.hint);
	check1((const char *[]){"awk", "{print}", NULL}, &v);
	cr_expect(strstr(v.hint, "awk -f out/snippet") != NULL, "%s", v.hint);
	check1((const char *[]){"cat", "/etc/passwd", NULL}, &v);
	cr_expect(strstr(v.hint, "--allow-path") != NULL, "%s", v.hint);
	check1((const char *[]){"echo", "a|", NULL}, &v);
	cr_expect(strstr(v.reason, "'|'") != NULL, "%s", v.reason);
}

Test(gate, long_token_is_truncated)
{
	struct nsb_gate_verdict v;
	check1((const char *[]){"cat", "@OUTLONG", NULL}, &v);
	cr_expect(eq(sz, strlen(v.token), NSB_GATE_TOKEN_MAX - 1));
	cr_expect(strncmp(v.token, "/etc/aaaa", 9) == 0);
}

Test(gate, denial_fills_record)
{
	struct nsb_gate_verdict v;
	struct nsb_denial d;
	check1((const char *[]){"cat", "passwd", NULL}, &v);
	nsb_gate_denial(&v, &d);
	expect_str(d.stage, "gate");
	expect_str(d.rule, "path.symlink_escape");
	cr_expect(eq(int, d.argv_index, 1));
	expect_str(d.token, "passwd");
	expect_str(d.resolved, "/etc/passwd");
	cr_expect(d.hint == v.hint);

	check1((const char *[]){"sudo", "id", NULL}, &v);
	nsb_gate_denial(&v, &d);
	cr_expect(d.resolved == NULL);
}

Test(gate, rejects_malformed_input)
{
	struct nsb_gate_policy p;
	struct nsb_gate_verdict v;
	char ls[] = "ls";
	char *argv[] = {ls, NULL};
	struct nsb_gate_input in = {.argv = argv, .argc = 1, .cwd = "rel", .fs = &fake_ops};
	nsb_gate_policy_init(&p);
	cr_expect(eq(int, nsb_gate_check(&p, &in, &v), -EINVAL));
	in.cwd = "/";
	in.argc = 0;
	cr_expect(eq(int, nsb_gate_check(&p, &in, &v), -EINVAL));
	in.argc = 1;
	in.fs = NULL;
	cr_expect(eq(int, nsb_gate_check(&p, &in, &v), -EINVAL));
	in.fs = &fake_ops;
	in.argc = NSB_GATE_MAX_WRAPPERS; /* argv[1] is NULL: malformed */
	cr_expect(eq(int, nsb_gate_check(&p, &in, &v), -EINVAL));
}

Test(gate, policy_entries_are_validated)
{
	struct nsb_gate_policy p;
	nsb_gate_policy_init(&p);
	cr_expect(eq(int, nsb_gate_policy_deny_exec(&p, ""), -EINVAL));
	cr_expect(eq(int, nsb_gate_policy_deny_exec(&p, "a/b"), -EINVAL));
	cr_expect(eq(int, nsb_gate_policy_deny_exec(&p, "a b"), -EINVAL));
	cr_expect(eq(int, nsb_gate_policy_deny_exec(&p, "a*b"), -EINVAL));
	cr_expect(eq(int, nsb_gate_policy_allow_path(&p, "rel"), -EINVAL));
	cr_expect(eq(int, nsb_gate_policy_allow_path(&p, "/a/../b"), -EINVAL));
	cr_expect(eq(int, nsb_gate_policy_allow_path(&p, "/a/"), -EINVAL));
	cr_expect(eq(int, nsb_gate_policy_deny_exec(&p, "x"), 0));
	cr_expect(eq(int, nsb_gate_policy_deny_exec(&p, "x"), 0));
	cr_expect(eq(sz, p.n_deny_exec, 1));
	char name[16];
	for (int i = 1; i < NSB_MAX_GATE_OPTS; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		cr_assert(eq(int, nsb_gate_policy_deny_exec(&p, name), 0));
	}
	cr_expect(eq(int, nsb_gate_policy_deny_exec(&p, "one-more"), -E2BIG));
	nsb_gate_policy_free(&p);
	cr_expect(eq(sz, p.n_deny_exec, 0));
}
