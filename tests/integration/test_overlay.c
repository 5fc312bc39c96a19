// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --overlay (issue 16), judged from both sides: inside, the payload sees and
 * changes DIR; outside, the host's DIR is hashed before and after (discard
 * leaves it byte-identical, commit leaves exactly the tree the payload saw
 * at its exit), and the record's change set is held against what the
 * payload did.  Special files, setuid bits and symlinks pointing out of
 * DIR never reach the host as anything but what they are (a symlink stays
 * a symlink, never followed).  As root and as the unprivileged user.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* The tree of $1: every entry with its type, mode and link target, then the
 * content hash of every file (temporary names of a commit left out). */
static const char list_sh[] =
	"cd \"$1\" || exit 1\n"
	"find . -mindepth 1 ! -name '.nsbox-commit.*' -printf '%P %y %m %l\\n' | LC_ALL=C sort\n"
	"find . -type f ! -name '.nsbox-commit.*' -print0 | LC_ALL=C sort -z |"
	" xargs -0 -r sha256sum\n";

/* Every kind of change a payload makes to a work tree. */
static const char edit_sh[] = "cd repo || exit 1\n"
			      "echo edited >> a.txt\n"
			      "echo new > new.txt\n"
			      "rm gone.txt\n"
			      "mv old.txt renamed.txt\n"
			      "mv olddir newdir\n"
			      "rm -r recreated && mkdir recreated && echo fresh > recreated/f\n"
			      "chmod 600 mode.txt\n"
			      "ln -s /etc/passwd out-link\n"
			      "ln -s a.txt in-link\n"
			      "ln a.txt hard.txt\n"
			      "mkdir -p deep/er/est && echo d > deep/er/est/f\n"
			      "truncate -s 5M sparse.bin\n"
			      "head -c 300000 /dev/urandom > big.bin\n"
			      "mkdir -p emptydir\n";

static void make_repo(void)
{
	itest_mkdir(&itest_cur, "repo");
	itest_write(&itest_cur, "repo/a.txt", "a\n");
	itest_write(&itest_cur, "repo/gone.txt", "gone\n");
	itest_write(&itest_cur, "repo/old.txt", "old\n");
	itest_write(&itest_cur, "repo/mode.txt", "mode\n");
	itest_mkdir(&itest_cur, "repo/olddir");
	itest_write(&itest_cur, "repo/olddir/x", "x\n");
	itest_mkdir(&itest_cur, "repo/recreated");
	itest_write(&itest_cur, "repo/recreated/stale", "stale\n");
	itest_mkdir(&itest_cur, "repo/keep");
	itest_write(&itest_cur, "repo/keep/k", "k\n");
	itest_write(&itest_cur, "list.sh", list_sh);
	itest_write(&itest_cur, "edit.sh", edit_sh);
}

/* The host's view of DIR, by list.sh (malloc'd). */
static char *host_tree(const char *rel)
{
	char cmd[1024];
	char *out = NULL;
	size_t len = 0, cap = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "/bin/sh %s %s", itest_path(&itest_cur, "list.sh"),
		 itest_path(&itest_cur, rel));
	f = popen(cmd, "r");
	cr_assert(f != NULL);
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			out = realloc(out, cap);
			cr_assert(out != NULL);
		}
		size_t n = fread(out + len, 1, 4096, f);
		len += n;
		if (n == 0)
			break;
	}
	out[len] = '\0';
	cr_assert(eq(int, pclose(f), 0));
	return out;
}

/* The part of the payload's output between the markers (malloc'd). */
static char *between(const char *out, const char *from, const char *to)
{
	const char *a = strstr(out, from), *b;

	cr_assert(a != NULL, "no '%s' in the output", from);
	a += strlen(from);
	b = strstr(a, to);
	cr_assert(b != NULL, "no '%s' in the output", to);
	return strndup(a, (size_t)(b - a));
}

#define EDIT_AND_LIST    \
	"/bin/sh", "-c", \
		"sh ./edit.sh; echo '--- tree'; sh ./list.sh repo; echo '--- end'; cat repo/a.txt"

NSB_ITEST(overlay, discard_leaves_dir_byte_identical_and_records_the_change_set)
{
	struct itest_run r;
	char *before, *after;

	make_repo();
	before = host_tree("repo");
	ITEST_RUN(&r, "--overlay", "repo", "--", EDIT_AND_LIST);
	ITEST_ASSERT_EXIT(&r, 0);
	/* Inside, the changes were there. */
	ITEST_EXPECT_CONTAINS(&r, r.out, "a\nedited\n");
	ITEST_EXPECT_CONTAINS(&r, r.out, "new.txt f 644");
	after = host_tree("repo");
	cr_expect(itest_streq(before, after), "DIR changed:\n%s\n---\n%s", before, after);
	free(before);
	free(after);

	const char *o = itest_rec(&r, "overlay");
	ITEST_EXPECT_CONTAINS(&r, o, "\"mode\":\"discard\"");
	ITEST_EXPECT_CONTAINS(&r, o, "\"committed\":false");
	ITEST_EXPECT_CONTAINS(&r, o, "\"complete\":true");
	/* edited: a.txt; added: new.txt, renamed.txt, newdir, links; deleted:
	 * gone.txt, old.txt, olddir, recreated (then added again). */
	ITEST_EXPECT_CONTAINS(&r, o,
			      "\"path\":\"a.txt\",\"type\":\"file\",\"mode\":\"0644\","
			      "\"size\":9,\"sha256\":\"");
	ITEST_EXPECT_CONTAINS(&r, o, "\"path\":\"new.txt\",\"type\":\"file\"");
	ITEST_EXPECT_CONTAINS(&r, o, "\"path\":\"renamed.txt\",\"type\":\"file\"");
	ITEST_EXPECT_CONTAINS(&r, o, "\"path\":\"newdir\",\"type\":\"dir\"");
	ITEST_EXPECT_CONTAINS(&r, o, "\"path\":\"newdir/x\",\"type\":\"file\"");
	ITEST_EXPECT_CONTAINS(&r, o, "\"path\":\"out-link\",\"type\":\"symlink\"");
	ITEST_EXPECT_CONTAINS(&r, o, "\"path\":\"mode.txt\",\"type\":\"file\",\"mode\":\"0600\"");
	ITEST_EXPECT_CONTAINS(&r, o, "\"path\":\"recreated/f\"");
	ITEST_EXPECT_CONTAINS(&r, o,
			      "\"deleted\":[\"gone.txt\",\"old.txt\",\"olddir\","
			      "\"recreated\"]");
	ITEST_EXPECT_CONTAINS(&r, o, "\"deleted_count\":4");
	ITEST_EXPECT_LACKS(&r, o, "\"path\":\"keep");
	/* sha256 of "a\nedited\n" */
	ITEST_EXPECT_CONTAINS(&r, o,
			      "d3b30b15e58516ecffd3c10a6f8f48c6321ea62a64512659fdc4f6a036ee350d");
	itest_run_close(&r);
}

NSB_ITEST(overlay, commit_yields_exactly_the_tree_the_payload_saw)
{
	struct itest_run r;
	char *inside, *after;

	make_repo();
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-mode", "commit", "--", EDIT_AND_LIST);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"committed\":true");
	inside = between(r.out, "--- tree\n", "--- end\n");
	after = host_tree("repo");
	cr_expect(itest_streq(inside, after), "inside:\n%s\n--- host:\n%s", inside, after);
	free(inside);
	free(after);
	/* The symlink that points out of DIR is a symlink on the host too. */
	char link[256];
	ssize_t n = readlink(itest_path(&itest_cur, "repo/out-link"), link, sizeof(link) - 1);
	cr_assert(n > 0);
	link[n] = '\0';
	cr_expect(itest_streq(link, "/etc/passwd"));
	itest_run_close(&r);
}

NSB_ITEST(overlay, commit_only_after_exit_zero_unless_always)
{
	struct itest_run r;
	char *before, *after;

	make_repo();
	before = host_tree("repo");
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-mode", "commit", "--", "/bin/sh", "-c",
		  "echo x > repo/a.txt; exit 3");
	ITEST_ASSERT_EXIT(&r, 3);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"committed\":false");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"path\":\"a.txt\"");
	after = host_tree("repo");
	cr_expect(itest_streq(before, after), "DIR changed");
	free(before);
	free(after);
	itest_run_close(&r);

	ITEST_RUN(&r, "--overlay", "repo", "--overlay-mode", "commit", "--overlay-commit-always",
		  "--", "/bin/sh", "-c", "echo x > repo/a.txt; exit 3");
	ITEST_ASSERT_EXIT(&r, 3);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"committed\":true");
	char *a = itest_slurp(itest_path(&itest_cur, "repo/a.txt"));
	cr_expect(itest_streq(a, "x\n"), "a.txt is '%s'", a);
	free(a);
	itest_run_close(&r);
}

NSB_ITEST(overlay, size_bound_gives_enospc_and_a_disk_full_violation)
{
	struct itest_run r;
	char *before, *after;

	make_repo();
	before = host_tree("repo");
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-size", "2M", "--", "/bin/sh", "-c",
		  "dd if=/dev/zero of=repo/fill bs=1M count=8 2>&1 | grep -c 'No space left';"
		  " df -k repo | tail -1");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "1\n");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "violations"), "\"kind\":\"disk.full\"");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "violations"), itest_path(&itest_cur, "repo\"}"));
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"full\":true");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"size_limit\":2097152");
	after = host_tree("repo");
	cr_expect(itest_streq(before, after), "DIR changed");
	free(before);
	free(after);
	itest_run_close(&r);

	/* Within the bound: no violation. */
	ITEST_RUN(&r, "--overlay", "repo", "--", "/bin/true");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations"), "[]");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"full\":false");
	itest_run_close(&r);
}

NSB_ITEST(overlay, special_files_and_setuid_bits_never_reach_dir)
{
	struct itest_run r;
	struct stat st;

	make_repo();
	/* --seccomp none: the default profile already refuses chmod u+s. */
	ITEST_RUN(&r, "--seccomp", "none", "--overlay", "repo", "--overlay-mode", "commit", "--",
		  "/bin/sh", "-c",
		  "cd repo; mkfifo fifo; python3 -c \"import socket; "
		  "socket.socket(socket.AF_UNIX).bind('sock')\";"
		  " echo s > suid; chmod 6755 suid; ls -l suid");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "-rwsr-sr-x");
	const char *o = itest_rec(&r, "overlay");
	ITEST_EXPECT_CONTAINS(&r, o, "{\"path\":\"fifo\",\"why\":\"fifo\"}");
	ITEST_EXPECT_CONTAINS(&r, o, "{\"path\":\"sock\",\"why\":\"socket\"}");
	ITEST_EXPECT_CONTAINS(&r, o, "{\"path\":\"suid\",\"why\":\"setuid/setgid bits\"}");
	ITEST_EXPECT_CONTAINS(&r, o, "\"path\":\"suid\",\"type\":\"file\",\"mode\":\"0755\"");
	cr_expect(lstat(itest_path(&itest_cur, "repo/fifo"), &st) < 0 && errno == ENOENT);
	cr_expect(lstat(itest_path(&itest_cur, "repo/sock"), &st) < 0 && errno == ENOENT);
	cr_assert(eq(int, stat(itest_path(&itest_cur, "repo/suid"), &st), 0));
	cr_expect(eq(int, st.st_mode & 07777, 0755));
	itest_run_close(&r);
}

/*
 * A symlink the payload plants where DIR has a directory, pointing out of
 * DIR: committed as a symlink (the directory deleted), never followed, and
 * nothing is written where it points.
 */
NSB_ITEST(overlay, planted_symlinks_are_never_followed_at_commit)
{
	struct itest_run r;
	struct stat st;

	make_repo();
	itest_mkdir(&itest_cur, "outside");
	char script[1024];
	snprintf(script, sizeof(script),
		 "cd repo; rm -r keep; ln -s %s keep; echo evil > keep/k 2>/dev/null;"
		 " ln -s %s esc; exit 0",
		 itest_path(&itest_cur, "outside"), itest_path(&itest_cur, "outside/planted"));
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-mode", "commit", "--", "/bin/sh", "-c",
		  script);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"committed\":true");
	cr_assert(eq(int, lstat(itest_path(&itest_cur, "repo/keep"), &st), 0));
	bool is_link = S_ISLNK(st.st_mode);
	cr_expect(is_link, "keep is not a symlink on the host");
	cr_expect(lstat(itest_path(&itest_cur, "outside/k"), &st) < 0 && errno == ENOENT,
		  "a write went through the planted link");
	cr_expect(lstat(itest_path(&itest_cur, "outside/planted"), &st) < 0 && errno == ENOENT);
	itest_run_close(&r);
}

NSB_ITEST(overlay, export_and_apply_round_trip_and_refusal_after_a_change)
{
	struct itest_run r;
	char *inside, *after, *before;
	char cmd[1024];

	make_repo();
	before = host_tree("repo");
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-mode",
		  "export:" /* relative to the caller's cwd */ "exp", "--", EDIT_AND_LIST);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"export\":\"exp\"");
	after = host_tree("repo");
	cr_expect(itest_streq(before, after), "export changed DIR");
	inside = between(r.out, "--- tree\n", "--- end\n");
	itest_run_close(&r);
	char *changes = itest_slurp(itest_path(&itest_cur, "exp/changes"));
	cr_assert(changes != NULL);
	cr_expect(strncmp(changes, "nsbox-overlay-export 1\n", 23) == 0);
	cr_expect(strstr(changes, "del\tfile\t0000\t-\t") != NULL, "%s", changes);
	free(changes);

	/* A copy of DIR changed since the run: refused, nothing applied. */
	snprintf(cmd, sizeof(cmd), "cp -a %s %s && echo changed > %s",
		 itest_path(&itest_cur, "repo"), itest_path(&itest_cur, "copy"),
		 itest_path(&itest_cur, "copy/a.txt"));
	cr_assert(eq(int, system(cmd), 0));
	char *copy_before = host_tree("copy");
	const struct itest_opts raw = {.raw_argv = true, .no_record = true};
	itest_run(&itest_cur, &raw, ITEST_ARGV("apply", "exp", "copy"), &r);
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_CONTAINS(&r, r.err, "'a.txt' changed in DIR since the run");
	itest_run_close(&r);
	char *copy_after = host_tree("copy");
	cr_expect(itest_streq(copy_before, copy_after), "a refused apply changed DIR");
	free(copy_before);
	free(copy_after);

	/* DIR as the run saw it: the result is the tree the payload saw. */
	itest_run(&itest_cur, &raw, ITEST_ARGV("apply", "exp", "repo"), &r);
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
	after = host_tree("repo");
	cr_expect(itest_streq(inside, after), "inside:\n%s\n--- host:\n%s", inside, after);

	/* A second apply: DIR has changed (by the first). */
	itest_run(&itest_cur, &raw, ITEST_ARGV("apply", "exp", "repo"), &r);
	ITEST_EXPECT_EXIT(&r, 125);
	itest_run_close(&r);

	free(before);
	free(after);
	free(inside);
}

/* nsbox apply opens every parent beneath DIR without following a link: a
 * directory of DIR replaced by a symlink to elsewhere after the export
 * makes the apply fail, and nothing is written where the link points. */
NSB_ITEST(overlay, apply_never_follows_a_symlink_planted_in_dir)
{
	struct itest_run r;
	struct stat st;
	char cmd[1024];

	make_repo();
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-mode", "export:exp", "--", "/bin/sh", "-c",
		  "echo new > repo/keep/added");
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
	itest_mkdir(&itest_cur, "outside");
	snprintf(cmd, sizeof(cmd), "mv %s %s && ln -s %s %s", itest_path(&itest_cur, "repo/keep"),
		 itest_path(&itest_cur, "keep-moved"), itest_path(&itest_cur, "outside"),
		 itest_path(&itest_cur, "repo/keep"));
	cr_assert(eq(int, system(cmd), 0));
	const struct itest_opts raw = {.raw_argv = true, .no_record = true};
	itest_run(&itest_cur, &raw, ITEST_ARGV("apply", "exp", "repo"), &r);
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_CONTAINS(&r, r.err, "keep/added");
	cr_expect(lstat(itest_path(&itest_cur, "outside/added"), &st) < 0 && errno == ENOENT,
		  "the apply wrote through the planted link");
	itest_run_close(&r);
}

#define GIT_ENV                                                                                \
	"--env", "GIT_AUTHOR_NAME=t", "--env", "GIT_AUTHOR_EMAIL=t@example.org", "--env",      \
		"GIT_COMMITTER_NAME=t", "--env", "GIT_COMMITTER_EMAIL=t@example.org", "--env", \
		"GIT_CONFIG_NOSYSTEM=1"

/* A git repository as DIR: git works inside, the commit lands, git fsck is
 * clean outside. */
NSB_ITEST(overlay, git_repository_commits_through_the_overlay)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "repo");
	itest_write(&itest_cur, "repo/a.txt", "a\n");
	ITEST_RUN(&r, GIT_ENV, "--rw", "repo", "--", "/bin/sh", "-c",
		  "cd repo && git init -q && git add a.txt && git commit -qm one && echo init=ok");
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);

	ITEST_RUN(&r, GIT_ENV, "--rw-git", "--overlay", "repo", "--overlay-mode", "commit", "--",
		  "/bin/sh", "-c",
		  "cd repo; echo b > b.txt; echo a2 >> a.txt; git status --porcelain | wc -l;"
		  " git add -A && git commit -qm two && echo commit=ok; git gc -q; echo gc=$?");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "commit"), "ok");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"committed\":true");
	itest_run_close(&r);

	/* Outside, by the same user, through nsbox (git refuses a repository
	 * of another owner). */
	ITEST_RUN(
		&r, GIT_ENV, "--ro", "repo", "--", "/bin/sh", "-c",
		"cd repo; git fsck --strict 2>&1; echo fsck=$?; echo log=$(git log --oneline | wc -l);"
		" echo clean=$(git status --porcelain | wc -l)");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "fsck"), "0");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "log"), "2");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "clean"), "0");
	itest_run_close(&r);
}

/*
 * nsbox killed by SIGKILL while it commits: every file of DIR is either its
 * old content or its new one, never torn.  The commit of 1500 files of 64k
 * is watched from the host and nsbox killed once the first new file shows.
 */
NSB_ITEST(overlay, a_commit_killed_midway_leaves_each_file_old_or_new)
{
	struct itest_run r;
	const struct itest_opts o = {.timeout_ms = 60000};
	char path[64];
	int n_new = 0, n_old = 0;

	itest_mkdir(&itest_cur, "repo");
	for (int i = 0; i < 1500; i++) {
		snprintf(path, sizeof(path), "repo/f%04d", i);
		itest_write(&itest_cur, path, "old\n");
	}
	itest_start(&itest_cur, &o,
		    ITEST_ARGV("--overlay", "repo", "--overlay-mode", "commit", "--", "/bin/sh",
			       "-c", "cd repo; for f in f*; do head -c 65536 /dev/zero > $f; done"),
		    &r);
	char *first = itest_path(&itest_cur, "repo/f0000");
	char watched[512];
	snprintf(watched, sizeof(watched), "%s", first);
	for (long long end = itest_now_ms() + 50000; itest_now_ms() < end;) {
		struct stat st;
		if (stat(watched, &st) == 0 && st.st_size == 65536)
			break;
		usleep(200);
	}
	kill(r.pid, SIGKILL);
	itest_wait(&r);
	itest_run_close(&r);
	for (int i = 0; i < 1500; i++) {
		snprintf(path, sizeof(path), "repo/f%04d", i);
		struct stat st;
		cr_assert(eq(int, stat(itest_path(&itest_cur, path), &st), 0), "%s is gone", path);
		if (st.st_size == 65536)
			n_new++;
		else if (st.st_size == 4)
			n_old++;
		else
			cr_expect(0, "%s is torn: %lld bytes", path, (long long)st.st_size);
	}
	cr_expect(n_new >= 1, "the commit never started");
	cr_log_info("killed after %d of 1500 files (%d old)", n_new, n_old);
}

/* The front gate treats an overlay like an --rw root (its roots, gate/front.c):
 * a path argument under it passes the path jail with the gate as a user gets
 * it; --check lists the overlay among the mounts. */
NSB_ITEST(overlay, the_gate_treats_an_overlay_as_a_writable_root)
{
	struct itest_run r;
	const struct itest_opts gate = {.gate = true};
	char target[512];

	make_repo();
	snprintf(target, sizeof(target), "%s/new.txt", itest_path(&itest_cur, "repo"));
	itest_run(&itest_cur, &gate,
		  ITEST_ARGV("--no-project", "--overlay", itest_path(&itest_cur, "repo"), "--",
			     "/bin/touch", target),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"path\":\"new.txt\"");
	itest_run_close(&r);

	const struct itest_opts check = {.gate = true, .no_record = true};
	itest_run(&itest_cur, &check, ITEST_ARGV("--check", "--overlay", "repo", "--", "/bin/true"),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "{\"kind\":\"overlay\",\"source\":\"");
	itest_run_close(&r);
}
