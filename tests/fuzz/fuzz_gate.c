// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The front gate on arbitrary command lines against an in-memory filesystem
 * (directories, files, symlink chains, loops, dangling links, links out of
 * the roots).  The first input byte picks the policy switches and the
 * working directory; the rest, split on NUL, is the argv.
 *
 * Invariants: the gate answers (0) for every well-formed input; an allowed
 * verdict names no rule and no argument; a refusal names a known rule, an
 * argument inside argv, that argument as its token (truncated to the buffer),
 * and a reason; every string in the verdict is terminated; the gate is
 * deterministic; the filesystem is asked a bounded number of questions.
 */
#include <errno.h>
#include <linux/limits.h>

#include "fuzz.h"
#include "../unit/gate_fakefs.h"
#include "gate/gate.h"

#define PROJ "/home/u/proj"
static const struct fake_ent fake[] = {
	{"/home", NSB_FS_DIR, NULL},
	{"/home/u", NSB_FS_DIR, NULL},
	{"/home/u/.ssh", NSB_FS_DIR, NULL},
	{"/home/u/.ssh/id_rsa", NSB_FS_FILE, NULL},
	{PROJ, NSB_FS_DIR, NULL},
	{PROJ "/script.py", NSB_FS_FILE, NULL},
	{PROJ "/input", NSB_FS_DIR, NULL},
	{PROJ "/input/data.txt", NSB_FS_FILE, NULL},
	{PROJ "/out", NSB_FS_DIR, NULL},
	{PROJ "/zap", NSB_FS_SYMLINK, "/usr/bin/rm"},
	{PROJ "/etc-link", NSB_FS_SYMLINK, "/etc"},
	{PROJ "/chain1", NSB_FS_SYMLINK, "chain2"},
	{PROJ "/chain2", NSB_FS_SYMLINK, "./input/data.txt"},
	{PROJ "/loop1", NSB_FS_SYMLINK, "loop2"},
	{PROJ "/loop2", NSB_FS_SYMLINK, "loop1"},
	{PROJ "/dangling", NSB_FS_SYMLINK, "/nonexistent/x"},
	{PROJ "/up", NSB_FS_SYMLINK, ".."},
	{PROJ "/fifo", NSB_FS_OTHER, NULL},
	{"/etc", NSB_FS_DIR, NULL},
	{"/etc/passwd", NSB_FS_FILE, NULL},
	{"/etc/shadow", NSB_FS_FILE, NULL},
	{"/bin", NSB_FS_SYMLINK, "usr/bin"},
	{"/usr", NSB_FS_DIR, NULL},
	{"/usr/bin", NSB_FS_DIR, NULL},
	{"/usr/sbin", NSB_FS_DIR, NULL},
	{"/usr/bin/python3.11", NSB_FS_FILE, NULL},
	{"/usr/bin/python3", NSB_FS_SYMLINK, "python3.11"},
	{"/usr/bin/rm", NSB_FS_FILE, NULL},
	{"/usr/bin/del", NSB_FS_SYMLINK, "rm"},
	{"/usr/bin/env", NSB_FS_FILE, NULL},
	{"/usr/bin/cat", NSB_FS_FILE, NULL},
	{"/usr/bin/busybox", NSB_FS_FILE, NULL},
	{"/usr/bin/ash", NSB_FS_SYMLINK, "busybox"},
	{"/usr/bin/dash", NSB_FS_FILE, NULL},
	{"/usr/bin/sh", NSB_FS_SYMLINK, "dash"},
	{"/usr/bin/bash", NSB_FS_FILE, NULL},
	{"/usr/bin/xargs", NSB_FS_FILE, NULL},
	{"/usr/bin/timeout", NSB_FS_FILE, NULL},
	{"/usr/bin/curl", NSB_FS_FILE, NULL},
	{"/usr/sbin/mkfs.ext4", NSB_FS_FILE, NULL},
	{"/tmp", NSB_FS_DIR, NULL},
	{"/data", NSB_FS_DIR, NULL},
	{"/data/shared", NSB_FS_DIR, NULL},
	{"/data/shared/f.csv", NSB_FS_FILE, NULL},
	{"/srv", NSB_FS_DIR, NULL},
	{"/srv/scratch", NSB_FS_DIR, NULL},
	{"/srv/scratch/esc", NSB_FS_SYMLINK, "/home/u/.ssh"},
};

static const char *const fake_path[] = {"/usr/bin", "/bin", "/usr/sbin", NULL};

static struct fake_fs fs = {fake, sizeof(fake) / sizeof(fake[0]), fake_path, 0};

static const struct nsb_gate_root roots[] = {
	{PROJ, PROJ, false},
	{"/data/shared", "/data/shared", false},
	{PROJ "/out", PROJ "/out", true},
	{"/work/out", "/srv/scratch", true},
};

static const char *const known_rules[] = {
	NSB_RULE_EXEC_DENYLIST,	    NSB_RULE_EXEC_WRAPPER,  NSB_RULE_INTERP_INLINE,
	NSB_RULE_SHELL_METACHAR,    NSB_RULE_PATH_OUTSIDE,  NSB_RULE_PATH_SYMLINK_ESC,
	NSB_RULE_EXEC_DESTRUCTIVE,  NSB_RULE_PATH_TOO_LONG, NSB_RULE_INTERP_STDIN,
	NSB_RULE_EXEC_SHELL_OPTION,
};

/* The sandbox's view: what the plan mounts (NULL with switch bit 2). */
static const char *const view[] = {"/usr", "/bin", "/etc/passwd",  "/proc",    "/dev",
				   "/tmp", PROJ,   "/data/shared", "/work/out"};

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static struct nsb_gate_policy pol;
static bool pol_ready;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const cwds[] = {PROJ, PROJ "/input", "/", "/work/out"};
	struct nsb_fs_ops ops = fake_fs_ops(&fs);
	char *buf, **argv;

	if (size < 2)
		return 0;
	if (!pol_ready) {
		if (nsb_gate_policy_init_default(&pol) < 0 ||
		    nsb_gate_policy_deny_exec(&pol, "curl") < 0 ||
		    nsb_gate_policy_deny_exec(&pol, "py*") < 0)
			abort();
		pol_ready = true;
	}
	uint8_t sw = data[0];
	pol.allow_inline_code = sw & 1;
	pol.allow_metachar = sw & 2;
	pol.metachar_strict = sw & 128;
	if (sw & 4)
		ops.which = NULL;
	if (sw & 128) { /* the gate's own PATH search, and the deny list's listing */
		ops.exec_probe = fake_exec_probe;
		ops.list_dir = fake_list_dir;
	}

	int argc = fuzz_split_argv(data + 1, size - 1, NULL, 0, 512, &buf, &argv);
	if (argc < 1)
		goto out;

	char cmd_real[PATH_MAX];
	struct nsb_gate_input in = {
		.argv = argv,
		.argc = argc,
		.cwd = cwds[(sw >> 3) & 3],
		.home = (sw & 32) ? NULL : "/home/u",
		.roots = roots,
		.n_roots = (sw & 64) ? 1 : sizeof(roots) / sizeof(roots[0]),
		.fs = &ops,
		.path_list = (sw & 128) ? "bin::/usr/bin:/usr/sbin" : NULL,
		.view = (sw & 4) ? NULL : view,
		.n_view = (sw & 4) ? 0 : sizeof(view) / sizeof(view[0]),
	};
	if (fake_which(&fs, argv[0], cmd_real, sizeof(cmd_real)) == 0) {
		in.cmd_path = argv[0];
		in.cmd_real_base = strrchr(cmd_real, '/') + 1;
	}

	struct nsb_gate_verdict v, v2;
	fs.lookups = 0;
	int r = nsb_gate_check(&pol, &in, &v);
	FUZZ_ASSERT(r == 0);
	/*
	 * O(argc) lookups, never a walk: per argument at most 32 candidates
	 * judged (each at most 32 steps of 2 lookups, + 2) and 64 existence
	 * probes of 2 lookups (gate_path.h), + 2 for the command.
	 */
	FUZZ_ASSERT(fs.lookups <= (32 * 66 + 64 * 2) * (unsigned long)argc + 64);
	FUZZ_ASSERT(terminated(v.token, sizeof(v.token)));
	FUZZ_ASSERT(terminated(v.resolved, sizeof(v.resolved)));
	FUZZ_ASSERT(terminated(v.hint, sizeof(v.hint)));
	FUZZ_ASSERT(terminated(v.reason, sizeof(v.reason)));
	if (v.allowed) {
		FUZZ_ASSERT(v.rule == NULL);
		FUZZ_ASSERT(v.argv_index == -1);
	} else {
		bool known = false;
		for (size_t i = 0; i < sizeof(known_rules) / sizeof(known_rules[0]); i++)
			known |= v.rule && strcmp(v.rule, known_rules[i]) == 0;
		FUZZ_ASSERT(known);
		FUZZ_ASSERT(v.argv_index >= 0 && v.argv_index < argc);
		const char *arg = argv[v.argv_index];
		size_t n = strlen(v.token);
		FUZZ_ASSERT(n == strlen(arg) || n == sizeof(v.token) - 1);
		FUZZ_ASSERT(strncmp(v.token, arg, n) == 0);
		FUZZ_ASSERT(v.reason[0] != '\0');
		/* Nothing is refused under a switch that lifts its rule. */
		if (pol.allow_inline_code)
			FUZZ_ASSERT(strcmp(v.rule, NSB_RULE_INTERP_INLINE) != 0);
		if (pol.allow_metachar)
			FUZZ_ASSERT(strcmp(v.rule, NSB_RULE_SHELL_METACHAR) != 0);
	}
	/* Deterministic: the same question gets the same answer. */
	FUZZ_ASSERT(nsb_gate_check(&pol, &in, &v2) == 0);
	FUZZ_ASSERT(v2.allowed == v.allowed && v2.argv_index == v.argv_index);
	FUZZ_ASSERT(strcmp(v2.token, v.token) == 0 && strcmp(v2.reason, v.reason) == 0);
out:
	free(argv);
	free(buf);
	return 0;
}
