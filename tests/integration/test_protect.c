// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Protected paths and secret masks (issue 12, section 4), judged from the
 * kernel's side: every route a payload could take to change a protected
 * path (a write, a subprocess, git, rename over it, rename it away, a hard
 * link, unlink, chmod, a symlink planted in .git/hooks) gets the kernel's
 * refusal inside, and the host file is unchanged afterwards; a masked
 * secret reads as empty.  As root and as the unprivileged user.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* Every route, tried by a Python payload; prints "route=ok" or "route=ERRNO". */
static const char routes_py[] =
	"import ctypes, errno, os, subprocess\n"
	"libc = ctypes.CDLL(None, use_errno=True)\n"
	"def umount(p):\n"
	"    if libc.umount2(p.encode(), 2) != 0:\n"
	"        e = ctypes.get_errno()\n"
	"        raise OSError(e, os.strerror(e))\n" ITEST_PY_ATTEMPT
	"def write(p, data='x\\n', mode='w'):\n"
	"    with open(p, mode) as f:\n"
	"        f.write(data)\n"
	"def rename_over():\n"
	"    write('repo/tmp-envrc', 'evil\\n')\n"
	"    os.rename('repo/tmp-envrc', 'repo/.envrc')\n"
	"attempt('write_envrc', lambda: write('repo/.envrc', 'evil\\n'))\n"
	"attempt('append_config', lambda: write('repo/.git/config', '[core]\\n fsmonitor = x\\n', 'a'))\n"
	"attempt('create_hook', lambda: write('repo/.git/hooks/pre-commit', '#!/bin/sh\\n'))\n"
	"attempt('symlink_hook', lambda: os.symlink('/bin/sh', 'repo/.git/hooks/post-checkout'))\n"
	"attempt('chmod_hooks', lambda: os.chmod('repo/.git/hooks', 0o777))\n"
	"attempt('write_vscode', lambda: write('repo/.vscode/tasks.json'))\n"
	"attempt('write_workflow', lambda: write('repo/.github/workflows/ci.yml'))\n"
	"attempt('rename_over_envrc', rename_over)\n"
	"attempt('rename_git_away', lambda: os.rename('repo/.git', 'repo/.git-old'))\n"
	"attempt('rename_github_away', lambda: os.rename('repo/.github', 'repo/gh'))\n"
	"attempt('hardlink_config', lambda: os.link('repo/.git/config', 'repo/cfg-link'))\n"
	"attempt('unlink_envrc', lambda: os.unlink('repo/.envrc'))\n"
	"attempt('unlink_config', lambda: os.unlink('repo/.git/config'))\n"
	"attempt('umount_git', lambda: umount('repo/.git'))\n"
	"p = subprocess.run(['/bin/sh', '-c', 'echo evil >> repo/.envrc'], capture_output=True)\n"
	"print('subprocess=' + str(p.returncode))\n"
	"attempt('ordinary_write', lambda: write('repo/src/new.c', 'int x;\\n'))\n"
	"attempt('ordinary_rename', lambda: os.rename('repo/src/new.c', 'repo/src/newer.c'))\n";

static void make_repo(void)
{
	itest_mkdir(&itest_cur, "repo");
	itest_mkdir(&itest_cur, "repo/.git");
	itest_mkdir(&itest_cur, "repo/.git/hooks");
	itest_write(&itest_cur, "repo/.git/config", "[core]\n\tbare = false\n");
	itest_write(&itest_cur, "repo/.envrc", "export A=1\n");
	itest_mkdir(&itest_cur, "repo/.vscode");
	itest_mkdir(&itest_cur, "repo/.github");
	itest_mkdir(&itest_cur, "repo/.github/workflows");
	itest_mkdir(&itest_cur, "repo/src");
	itest_write(&itest_cur, "routes.py", routes_py);
}

static void expect_host_unchanged(void)
{
	char *envrc = itest_slurp(itest_path(&itest_cur, "repo/.envrc"));
	char *config = itest_slurp(itest_path(&itest_cur, "repo/.git/config"));

	cr_expect(itest_streq(envrc, "export A=1\n"), ".envrc is now '%s'", envrc);
	cr_expect(itest_streq(config, "[core]\n\tbare = false\n"), ".git/config is now '%s'",
		  config);
	free(envrc);
	free(config);
	cr_expect(access(itest_path(&itest_cur, "repo/.git/hooks/pre-commit"), F_OK) != 0);
	cr_expect(access(itest_path(&itest_cur, "repo/.git/hooks/post-checkout"), F_OK) != 0);
	cr_expect(access(itest_path(&itest_cur, "repo/cfg-link"), F_OK) != 0);
	cr_expect(access(itest_path(&itest_cur, "repo/.vscode/tasks.json"), F_OK) != 0);
	cr_expect(access(itest_path(&itest_cur, "repo/.github/workflows/ci.yml"), F_OK) != 0);
	cr_expect(access(itest_path(&itest_cur, "repo/.git"), F_OK) == 0);
}

NSB_ITEST(protect, every_write_route_is_refused_by_the_kernel)
{
	struct itest_run r;

	make_repo();
	ITEST_RUN(&r, "--rw", "repo", "--", "/usr/bin/python3", "routes.py");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write_envrc"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "append_config"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "create_hook"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "symlink_hook"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "chmod_hooks"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write_vscode"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write_workflow"), "EROFS");
	/* A mount point cannot be renamed over, renamed or removed... */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "rename_over_envrc"), "EBUSY");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "rename_git_away"), "EBUSY");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "rename_github_away"), "EBUSY");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "unlink_envrc"), "EBUSY");
	/* ...what lies in a protected folder is on a read-only mount... */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "unlink_config"), "EROFS");
	/* ...and a hard link never crosses mounts. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "hardlink_config"), "EXDEV");
	ITEST_EXPECT_NE_STR(&r, itest_kv(r.out, "subprocess"), "0");
	/* Taking the cover away needs a capability the payload lacks. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "umount_git"), "EPERM");
	/* Ordinary work in the same bind goes on. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ordinary_write"), "ok");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ordinary_rename"), "ok");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.protected.count"), "4");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "enforced.protected.paths"),
			      itest_path(&itest_cur, "repo/.git\""));
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.protected.truncated"), "false");
	itest_run_close(&r);
	expect_host_unchanged();
	cr_expect(access(itest_path(&itest_cur, "repo/src/newer.c"), F_OK) == 0);
}

NSB_ITEST(protect, protected_paths_show_read_only_mounts)
{
	struct itest_run r;

	make_repo();
	ITEST_RUN(&r, "--rw", "repo", "--", "./probe", "statfs", "repo/.git/hooks");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ro"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "nosuid"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "nodev"), "1");
	itest_run_close(&r);
	ITEST_RUN(&r, "--rw", "repo", "--", "./probe", "statfs", "repo/src");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ro"), "0");
	itest_run_close(&r);
}

NSB_ITEST(protect, no_protect_leaves_them_writable)
{
	struct itest_run r;

	make_repo();
	ITEST_RUN(&r, "--no-protect", "--rw", "repo", "--", "./probe", "write", "repo/.envrc");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.protected"), "null");
	itest_run_close(&r);
	/* A read-only bind has nothing to protect: only the masks apply. */
	ITEST_RUN(&r, "--ro", "repo", "--", "./probe", "write", "repo/src/x");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EROFS");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.protected.count"), "0");
	itest_run_close(&r);
}

#define GIT_ENV                                                                                \
	"--env", "GIT_AUTHOR_NAME=t", "--env", "GIT_AUTHOR_EMAIL=t@example.org", "--env",      \
		"GIT_COMMITTER_NAME=t", "--env", "GIT_COMMITTER_EMAIL=t@example.org", "--env", \
		"GIT_CONFIG_NOSYSTEM=1"

NSB_ITEST(protect, git_hooks_and_config_stay_read_only_and_rw_git_commits)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "repo");
	itest_write(&itest_cur, "repo/a.txt", "a\n");
	/* No .git yet: nothing to protect, git init works. */
	ITEST_RUN(&r, GIT_ENV, "--rw", "repo", "--", "/bin/sh", "-c",
		  "cd repo && git init -q && git add a.txt && git commit -qm one && echo init=ok");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "init"), "ok");
	itest_run_close(&r);

	/* Default: .git is read-only as a whole; a commit, a hook, a config
	 * change (core.hooksPath) all fail. */
	itest_write(&itest_cur, "repo/b.txt", "b\n");
	ITEST_RUN(&r, GIT_ENV, "--rw", "repo", "--", "/bin/sh", "-c",
		  "cd repo; git add b.txt 2>/dev/null; echo add=$?;"
		  " printf '#!/bin/sh\\n' > .git/hooks/pre-commit 2>/dev/null; echo hook=$?;"
		  " git config core.hooksPath /tmp 2>/dev/null; echo config=$?");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_NE_STR(&r, itest_kv(r.out, "add"), "0");
	ITEST_EXPECT_NE_STR(&r, itest_kv(r.out, "hook"), "0");
	ITEST_EXPECT_NE_STR(&r, itest_kv(r.out, "config"), "0");
	itest_run_close(&r);

	/* A hooks folder of the work tree named by core.hooksPath. */
	itest_mkdir(&itest_cur, "repo/.githooks");
	char *cfg = itest_slurp(itest_path(&itest_cur, "repo/.git/config"));
	cr_assert(cfg != NULL);
	char with_hooks[4096];
	snprintf(with_hooks, sizeof(with_hooks), "%s[core]\n\thooksPath = .githooks\n", cfg);
	free(cfg);
	itest_write(&itest_cur, "repo/.git/config", with_hooks);

	/* --rw-git: git commits; hooks and config stay read-only, .git
	 * cannot be renamed away and replaced. */
	ITEST_RUN(&r, GIT_ENV, "--rw-git", "--rw", "repo", "--", "/bin/sh", "-c",
		  "cd repo; git add b.txt && git commit -qm two; echo commit=$?;"
		  " echo log=$(git log --oneline | wc -l);"
		  " printf '#!/bin/sh\\n' > .git/hooks/pre-commit 2>/dev/null; echo hook=$?;"
		  " git config core.hooksPath /tmp 2>/dev/null; echo config=$?;"
		  " mv .git .git-old 2>/dev/null; echo mv=$?;"
		  " printf '#!/bin/sh\\n' > .githooks/pre-commit 2>/dev/null; echo hookspath=$?");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "commit"), "0");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "log"), "2");
	ITEST_EXPECT_NE_STR(&r, itest_kv(r.out, "hook"), "0");
	ITEST_EXPECT_NE_STR(&r, itest_kv(r.out, "config"), "0");
	ITEST_EXPECT_NE_STR(&r, itest_kv(r.out, "mv"), "0");
	ITEST_EXPECT_NE_STR(&r, itest_kv(r.out, "hookspath"), "0");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "enforced.protected.paths"),
			      itest_path(&itest_cur, "repo/.git/hooks\""));
	itest_run_close(&r);
	cr_expect(access(itest_path(&itest_cur, "repo/.git/hooks/pre-commit"), F_OK) != 0);
	char *config = itest_slurp(itest_path(&itest_cur, "repo/.git/config"));
	cr_expect(config && !strstr(config, "/tmp"), "%s", config);
	free(config);
}

static void make_secrets(void)
{
	itest_write(&itest_cur, ".env", "TOKEN=secret\n");
	itest_write(&itest_cur, ".env.example", "TOKEN=\n");
	itest_mkdir(&itest_cur, "keys");
	itest_write(&itest_cur, "keys/id_ed25519",
		    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n");
	itest_write(&itest_cur, "keys/id_ed25519.pub", "ssh-ed25519 AAAA t@h\n");
	itest_write(&itest_cur, "keys/ca.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n");
	itest_mkdir(&itest_cur, "data");
	itest_write(&itest_cur, "data/users.sqlite", "rows\n");
	itest_write(&itest_cur, "data/notes.txt", "private notes\n");
}

static void expect_read(const char *path, const char *want, const char *const *extra)
{
	struct itest_run r;
	const char *argv[16];
	size_t n = 0;

	for (size_t i = 0; extra && extra[i]; i++)
		argv[n++] = extra[i];
	argv[n++] = "--";
	argv[n++] = "./probe";
	argv[n++] = "read";
	argv[n++] = path;
	argv[n] = NULL;
	itest_run(&itest_cur, NULL, argv, &r);
	ITEST_ASSERT_EXIT(&r, 0);
	/* The probe prints the data on one line: its length says it all. */
	char bytes[32];
	snprintf(bytes, sizeof(bytes), "%zu", strlen(want));
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "bytes"), bytes);
	itest_run_close(&r);
}

NSB_ITEST(protect, masked_secrets_read_as_empty)
{
	static const char *const glob[] = {"--mask", "*.sqlite", "--mask", "data/notes.txt", NULL};
	static const char *const none[] = {"--no-mask", NULL};
	struct itest_run r;

	make_secrets();
	/* The project is bound read-only by default: masks apply there too. */
	expect_read(".env", "", NULL);
	expect_read("keys/id_ed25519", "", NULL);
	expect_read("keys/id_ed25519.pub", "ssh-ed25519 AAAA t@h\n", NULL);
	expect_read("keys/ca.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n", NULL); /* no key */
	expect_read(".env.example", "TOKEN=\n", NULL);
	expect_read("data/users.sqlite", "rows\n", NULL);
	expect_read("data/users.sqlite", "", glob);
	expect_read("data/notes.txt", "", glob);
	expect_read(".env", "TOKEN=secret\n", none);

	/* A writable bind: the mask is read-only, and cannot be removed. */
	ITEST_RUN(&r, "--rw", "keys", "--", "./probe", "write", "keys/id_ed25519");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EROFS");
	/* The project's .env, and the key once: through the bind that shows it. */
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.masked.count"), "2");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "enforced.masked.paths"),
			      itest_path(&itest_cur, ".env\""));
	itest_run_close(&r);
	ITEST_RUN(&r, "--no-mask", "--", "./probe", "stat", ".env");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.masked"), "null");
	itest_run_close(&r);
	char *key = itest_slurp(itest_path(&itest_cur, "keys/id_ed25519"));
	cr_expect(key && strstr(key, "PRIVATE KEY"), "the host's key changed: %s", key);
	free(key);
}

NSB_ITEST(protect, policy_file_adds_protected_paths_and_masks)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "repo");
	itest_write(&itest_cur, "repo/Makefile", "all:\n");
	itest_write(&itest_cur, "repo/db.sqlite", "rows\n");
	itest_write(&itest_cur, "p.policy", "protect Makefile\nmask *.sqlite\n");
	ITEST_RUN(&r, "--policy", "p.policy", "--rw", "repo", "--", "/bin/sh", "-c",
		  "echo evil > repo/Makefile 2>/dev/null; echo make=$?;"
		  " echo db=$(cat repo/db.sqlite | wc -c)");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_NE_STR(&r, itest_kv(r.out, "make"), "0");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "db"), "0");
	itest_run_close(&r);
	char *mk = itest_slurp(itest_path(&itest_cur, "repo/Makefile"));
	cr_expect(itest_streq(mk, "all:\n"), "Makefile is now '%s'", mk);
	free(mk);
}

/* A configure-style script and a Makefile clean target that call rm and
 * chmod internally, in a writable bind with protected paths: ordinary work. */
NSB_ITEST(protect, ordinary_build_steps_still_work)
{
	struct itest_run r;

	make_repo();
	itest_write(&itest_cur, "repo/configure",
		    "#!/bin/sh\nrm -f config.h\necho '#define X 1' > config.h\n"
		    "chmod 644 config.h\nmkdir -p build && touch build/a.o\nrm -rf build\n"
		    "echo configured\n");
	ITEST_RUN(&r, "--rw", "repo", "--chdir", itest_path(&itest_cur, "repo"), "--", "/bin/sh",
		  "configure");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "configured");
	itest_run_close(&r);
	cr_expect(access(itest_path(&itest_cur, "repo/config.h"), F_OK) == 0);
}

/* A tree deeper than the scan's bound: the run goes on, the record and
 * stderr say where the scan stopped, and a secret at the root is still
 * masked (breadth first). */
NSB_ITEST(protect, scan_bound_is_recorded_not_fatal)
{
	char rel[256] = "deep";
	struct itest_run r;

	itest_write(&itest_cur, ".env", "TOKEN=1\n");
	itest_mkdir(&itest_cur, rel);
	for (int i = 0; i < 18; i++) {
		strcat(rel, "/d");
		itest_mkdir(&itest_cur, rel);
	}
	ITEST_RUN(&r, "--", "./probe", "read", ".env");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "bytes"), "0");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.masked.truncated"), "true");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "warnings"), "\"kind\":\"scan_truncated\"");
	ITEST_EXPECT_CONTAINS(&r, r.err, "the scan for protected paths and secrets stopped");
	itest_run_close(&r);
}
