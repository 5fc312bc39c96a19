// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --overlay (issue 16): what a payload leaves that its owner cannot read,
 * and sparse files.  A file at mode 000 and directories at 000, 100 and 300
 * in the upper layer are read by the supervisor (as the unprivileged caller,
 * without CAP_DAC_OVERRIDE: it widens the layer's copy for the read, then
 * puts the mode back), hashed in the record, committed, exported and applied
 * with the payload's modes; a directory at 300 cannot hide what it holds
 * from --overlay-store's bound.  A sparse file of 1 GiB apparent size stays
 * a few KiB on disk through commit, export and nsbox apply.  The record
 * says how the size bound is enforced (tmpfs: hard; the store's watch:
 * soft, and a fast writer is stopped shortly past it).  A file DIR holds at
 * mode 000 and the command opens up is a modification; nsbox apply refuses
 * each kind of change DIR saw since the run.  As root and as the
 * unprivileged user.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

/* The payload: unreadable entries, new and over DIR's own. */
static const char lock_sh[] = "cd repo || exit 1\n"
			      "echo secret > f0 && chmod 000 f0\n"
			      "echo edited >> a.txt && chmod 000 a.txt\n"
			      "mkdir d0 && echo in0 > d0/in && chmod 000 d0/in\n"
			      "mkdir d0/sub && echo deep > d0/sub/f && chmod 000 d0/sub d0\n"
			      "mkdir d1 && echo in1 > d1/in && chmod 100 d1\n"
			      "mkdir d3 && echo in3 > d3/in && chmod 300 d3\n"
			      "echo ok=1\n";

static void make_repo(void)
{
	itest_mkdir(&itest_cur, "repo");
	itest_write(&itest_cur, "repo/a.txt", "a\n");
	itest_write(&itest_cur, "lock.sh", lock_sh);
}

/* Mode bits of rel in the project (the test runs as root: it can look). */
static unsigned mode_of(const char *rel)
{
	struct stat st;

	cr_assert(eq(int, lstat(itest_path(&itest_cur, rel), &st), 0), "lstat '%s': %s", rel,
		  strerror(errno));
	return st.st_mode & 07777;
}

static void expect_file(const char *rel, const char *content, unsigned mode)
{
	char *got = itest_slurp(itest_path(&itest_cur, rel));

	cr_expect(got && itest_streq(got, content), "%s holds '%s'", rel, got ? got : "(none)");
	cr_expect(eq(u32, mode_of(rel), mode), "%s has mode %o", rel, mode_of(rel));
	free(got);
}

/* DIR (repo or a copy) is the tree the payload left. */
static void expect_locked_tree(const char *dir)
{
	char rel[256];

#define AT(x) (snprintf(rel, sizeof(rel), "%s/%s", dir, x), rel)
	expect_file(AT("f0"), "secret\n", 0);
	expect_file(AT("a.txt"), "a\nedited\n", 0);
	expect_file(AT("d0/in"), "in0\n", 0);
	expect_file(AT("d0/sub/f"), "deep\n", 0644);
	expect_file(AT("d1/in"), "in1\n", 0644);
	expect_file(AT("d3/in"), "in3\n", 0644);
	cr_expect(eq(u32, mode_of(AT("d0")), 0));
	cr_expect(eq(u32, mode_of(AT("d0/sub")), 0));
	cr_expect(eq(u32, mode_of(AT("d1")), 0100));
	cr_expect(eq(u32, mode_of(AT("d3")), 0300));
#undef AT
}

/* The record lists every unreadable entry with its hash and the payload's mode. */
static void expect_locked_record(const struct itest_run *r)
{
	const char *o = itest_rec(r, "overlay");

	ITEST_EXPECT_CONTAINS(r, o, "\"complete\":true");
	ITEST_EXPECT_CONTAINS(r, o, "\"error\":null");
	/* sha256 of "secret\n" */
	ITEST_EXPECT_CONTAINS(r, o,
			      "{\"path\":\"f0\",\"type\":\"file\",\"mode\":\"0000\",\"size\":7,"
			      "\"sha256\":\"b37e50cedcd3e3f1ff64f4afc0422084ae694253cf399326868e07a"
			      "35f4a45fb\"}");
	ITEST_EXPECT_CONTAINS(r, o, "\"path\":\"a.txt\",\"type\":\"file\",\"mode\":\"0000\"");
	ITEST_EXPECT_CONTAINS(r, o, "{\"path\":\"d0\",\"type\":\"dir\",\"mode\":\"0000\"");
	ITEST_EXPECT_CONTAINS(r, o, "{\"path\":\"d0/in\",\"type\":\"file\",\"mode\":\"0000\"");
	ITEST_EXPECT_CONTAINS(r, o, "{\"path\":\"d0/sub/f\",\"type\":\"file\",\"mode\":\"0644\"");
	ITEST_EXPECT_CONTAINS(r, o, "{\"path\":\"d1\",\"type\":\"dir\",\"mode\":\"0100\"");
	ITEST_EXPECT_CONTAINS(r, o, "{\"path\":\"d1/in\",\"type\":\"file\"");
	ITEST_EXPECT_CONTAINS(r, o, "{\"path\":\"d3\",\"type\":\"dir\",\"mode\":\"0300\"");
	ITEST_EXPECT_CONTAINS(r, o, "{\"path\":\"d3/in\",\"type\":\"file\"");
}

NSB_ITEST(overlay_modes, unreadable_entries_are_recorded_and_committed_with_their_modes)
{
	struct itest_run r;

	make_repo();
	/* Discard first: the record is whole, DIR untouched. */
	ITEST_RUN(&r, "--overlay", "repo", "--", "/bin/sh", "lock.sh");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ok"), "1");
	expect_locked_record(&r);
	ITEST_EXPECT_STR(&r, r.err, "");
	expect_file("repo/a.txt", "a\n", 0644);
	itest_run_close(&r);

	ITEST_RUN(&r, "--overlay", "repo", "--overlay-mode", "commit", "--", "/bin/sh", "lock.sh");
	ITEST_ASSERT_EXIT(&r, 0);
	expect_locked_record(&r);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"committed\":true");
	itest_run_close(&r);
	expect_locked_tree("repo");
}

NSB_ITEST(overlay_modes, unreadable_entries_survive_export_and_apply)
{
	struct itest_run r;
	char cmd[1024];

	make_repo();
	snprintf(cmd, sizeof(cmd), "cp -a %s %s", itest_path(&itest_cur, "repo"),
		 itest_path(&itest_cur, "copy"));
	cr_assert(eq(int, system(cmd), 0));
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-mode", "export:exp", "--", "/bin/sh",
		  "lock.sh");
	ITEST_ASSERT_EXIT(&r, 0);
	expect_locked_record(&r);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"export\":\"exp\"");
	itest_run_close(&r);
	/* The export keeps the payload's file modes (its directories stay the
	 * caller's; their modes are in the list). */
	cr_expect(eq(u32, mode_of("exp/files/f0"), 0));
	char *changes = itest_slurp(itest_path(&itest_cur, "exp/changes"));
	cr_assert(changes != NULL);
	cr_expect(strstr(changes, "add\tdir\t0000\t-\t-\td0\n") != NULL, "%s", changes);
	cr_expect(strstr(changes, "add\tdir\t0300\t-\t-\td3\n") != NULL, "%s", changes);
	free(changes);

	const struct itest_opts raw = {.raw_argv = true, .no_record = true};
	itest_run(&itest_cur, &raw, ITEST_ARGV("apply", "exp", "copy"), &r);
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.err, "");
	itest_run_close(&r);
	expect_locked_tree("copy");
}

/* On disk (--overlay-store), a directory the payload keeps unreadable
 * (chmod 300: it still writes into it) is counted by the bound's watch. */
NSB_ITEST(overlay_modes, an_unreadable_directory_cannot_hide_from_the_store_bound)
{
	struct itest_run r;
	char store[400];
	const struct itest_opts o = {.timeout_ms = 30000};

	snprintf(store, sizeof(store), "%s/store", itest_cur.top);
	cr_assert(mkdir(store, 0755) == 0);
	cr_assert(chown(store, itest_cur.uid, itest_cur.gid) == 0);
	make_repo();
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--overlay", "repo", "--overlay-store", store, "--overlay-size", "8M",
			     "--", "/bin/sh", "-c",
			     "cd repo; mkdir d; chmod 300 d;"
			     " dd if=/dev/zero of=d/f bs=1M count=64 2>/dev/null; sleep 5;"
			     " echo survived"),
		  &r);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "status"), "signaled");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "violations"), "\"kind\":\"disk.full\"");
	ITEST_EXPECT_LACKS(&r, r.out, "survived");
	itest_run_close(&r);
}

/* 1 GiB apparent, a few KiB of data: at most this much allocated after each copy. */
#define SPARSE_MAX_BYTES (1024 * 1024)

static void expect_sparse(const char *rel)
{
	struct stat st;

	cr_assert(eq(int, stat(itest_path(&itest_cur, rel), &st), 0), "stat '%s'", rel);
	long long size = (long long)st.st_size, want = (1LL << 30) + 5;
	cr_expect(size == want, "%s: size %lld", rel, size);
	long long allocated = (long long)st.st_blocks * 512;
	cr_expect(allocated <= SPARSE_MAX_BYTES, "%s: %lld bytes allocated (holes filled)", rel,
		  allocated);
}

/* The data around the holes arrived. */
static void expect_head_and_tail(const char *rel)
{
	FILE *f = fopen(itest_path(&itest_cur, rel), "r");
	char head[5] = {0}, tail[6] = {0};

	cr_assert(f != NULL);
	cr_expect(eq(sz, fread(head, 1, 4, f), 4));
	cr_expect(fseeko(f, (off_t)1 << 30, SEEK_SET) == 0);
	cr_expect(eq(sz, fread(tail, 1, 5, f), 5));
	fclose(f);
	cr_expect(itest_streq(head, "head") && itest_streq(tail, "tail\n"), "%s: '%s' '%s'", rel,
		  head, tail);
}

/*
 * NSB_ITEST with room for hashing a gigabyte a few times (the record's and
 * the export's walks, nsbox apply's check: each reads the holes as zeros,
 * about 4 s apiece on a loaded 2-core machine).
 */
#define SLOW_ITEST(suite, name) NSB_ITEST_TIMED(suite, name, 240)

#define SPARSE_SH                                                            \
	"/bin/sh", "-c",                                                     \
		"cd repo && truncate -s 1G sparse && echo tail >> sparse &&" \
		" printf head | dd of=sparse conv=notrunc 2>/dev/null"

SLOW_ITEST(overlay_modes, a_sparse_gigabyte_stays_sparse_through_export_and_apply)
{
	struct itest_run r;
	const struct itest_opts o = {.timeout_ms = 200000};
	const struct itest_opts raw = {.raw_argv = true, .no_record = true, .timeout_ms = 200000};
	char cmd[1024];

	make_repo();
	snprintf(cmd, sizeof(cmd), "cp -a %s %s", itest_path(&itest_cur, "repo"),
		 itest_path(&itest_cur, "copy"));
	cr_assert(eq(int, system(cmd), 0));
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--overlay", "repo", "--overlay-mode", "export:exp", "--", SPARSE_SH),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"path\":\"sparse\"");
	itest_run_close(&r);
	expect_sparse("exp/files/sparse");

	itest_run(&itest_cur, &raw, ITEST_ARGV("apply", "exp", "copy"), &r);
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
	expect_sparse("copy/sparse");
	expect_head_and_tail("copy/sparse");
}

SLOW_ITEST(overlay_modes, a_sparse_gigabyte_stays_sparse_through_commit)
{
	struct itest_run r;
	const struct itest_opts o = {.timeout_ms = 200000};

	make_repo();
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--overlay", "repo", "--overlay-mode", "commit", "--", SPARSE_SH), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"committed\":true");
	itest_run_close(&r);
	expect_sparse("repo/sparse");
	expect_head_and_tail("repo/sparse");
}
#undef SPARSE_SH

/* enforced.limits.overlay: the tmpfs's bound is the kernel's (hard), the
 * store's the supervisor's watch (soft); a fast writer on the store is
 * killed shortly after the bound, far before it is done. */
NSB_ITEST(overlay_modes, the_record_says_how_the_bound_is_enforced)
{
	struct itest_run r;
	char store[400];
	const struct itest_opts o = {.timeout_ms = 50000};

	make_repo();
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-size", "3M", "--", "/bin/true");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.overlay"),
			 "{\"bytes\":3145728,\"via\":\"tmpfs\",\"hard\":true}");
	itest_run_close(&r);

	ITEST_RUN(&r, "--", "/bin/true");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_LACKS(&r, itest_rec(&r, "enforced.limits"), "overlay");
	itest_run_close(&r);

	snprintf(store, sizeof(store), "%s/store", itest_cur.top);
	cr_assert(mkdir(store, 0755) == 0);
	cr_assert(chown(store, itest_cur.uid, itest_cur.gid) == 0);
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--overlay", "repo", "--overlay-store", store, "--overlay-size", "32M",
			     "--", "/bin/sh", "-c",
			     "dd if=/dev/zero of=repo/big bs=1M count=4096 2>/dev/null;"
			     " echo survived"),
		  &r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.overlay"),
			 "{\"bytes\":33554432,\"via\":\"watch\",\"hard\":false}");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "signaled");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "violations"), "\"kind\":\"disk.full\"");
	ITEST_EXPECT_LACKS(&r, r.out, "survived");
	/* Measured: at most 23 MiB past a 64M bound (nsbox(1)); 256 MiB is the
	 * alarm, for a loaded machine. */
	const char *ub = strstr(itest_rec(&r, "overlay"), "\"upper_bytes\":");
	long long upper = ub ? atoll(ub + 14) : -1;
	cr_expect(upper > 32LL << 20 && upper < (32LL + 256) << 20,
		  "the layer held %lld bytes against a bound of 32M", upper);
	cr_log_info("store bound 32M: the layer held %lld KiB past it",
		    (upper - (32LL << 20)) >> 10);
	itest_run_close(&r);
}

/* A file of DIR its owner cannot read (mode 000 on the host), opened up and
 * changed by the command: recorded as modified (without the old content's
 * hash: DIR is never widened) and committed with the command's mode. */
NSB_ITEST(overlay_modes, a_file_locked_in_dir_and_opened_up_inside_is_a_modification)
{
	struct itest_run r;

	make_repo();
	itest_write(&itest_cur, "repo/locked", "old\n");
	cr_assert(chmod(itest_path(&itest_cur, "repo/locked"), 0) == 0);
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-mode", "commit", "--", "/bin/sh", "-c",
		  "cd repo && chmod 600 locked && echo new > locked && cat locked");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "new\n");
	const char *o = itest_rec(&r, "overlay");
	ITEST_EXPECT_CONTAINS(&r, o, "\"complete\":true");
	ITEST_EXPECT_CONTAINS(&r, o, "\"committed\":true");
	ITEST_EXPECT_CONTAINS(
		&r, o, "\"modified\":[{\"path\":\"locked\",\"type\":\"file\",\"mode\":\"0600\"");
	itest_run_close(&r);
	expect_file("repo/locked", "new\n", 0600);
}

/* nsbox apply checks every kind of change against DIR before any is made:
 * a deleted file changed since, an added name that exists now, a modified
 * file gone.  Each refuses the whole apply and leaves DIR as it was. */
NSB_ITEST(overlay_modes, apply_refuses_every_kind_of_change_in_dir)
{
	static const struct {
		const char *after; /* what happens to the copy of DIR after the run */
		const char *why;
	} cases[] = {
		{"echo changed > gone.txt", "'gone.txt' changed in DIR since the run"},
		{"echo here > new.txt", "'new.txt' exists in DIR now, the run added it"},
		{"rm a.txt", "'a.txt' is gone from DIR or changed its type since the run"},
	};
	struct itest_run r;
	char cmd[1024];

	make_repo();
	itest_write(&itest_cur, "repo/gone.txt", "gone\n");
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-mode", "export:exp", "--", "/bin/sh", "-c",
		  "cd repo && rm gone.txt && echo new > new.txt && echo more >> a.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *copy = itest_path(&itest_cur, "copy");
		snprintf(cmd, sizeof(cmd), "rm -rf %s && cp -a %s %s && cd %s && %s", copy,
			 itest_path(&itest_cur, "repo"), copy, copy, cases[i].after);
		cr_assert(eq(int, system(cmd), 0), "%s", cmd);
		snprintf(cmd, sizeof(cmd), "cd %s && find . -printf '%%P %%m\\n' | sort && cat *",
			 copy);
		FILE *f = popen(cmd, "r");
		char before[4096] = {0}, after[4096] = {0};
		cr_assert(f != NULL);
		cr_assert(fread(before, 1, sizeof(before) - 1, f) > 0);
		pclose(f);

		const struct itest_opts raw = {.raw_argv = true, .no_record = true};
		itest_run(&itest_cur, &raw, ITEST_ARGV("apply", "exp", "copy"), &r);
		ITEST_EXPECT_EXIT(&r, 125);
		ITEST_EXPECT_CONTAINS(&r, r.err, cases[i].why);
		itest_run_close(&r);

		f = popen(cmd, "r");
		cr_assert(f != NULL);
		cr_assert(fread(after, 1, sizeof(after) - 1, f) > 0);
		pclose(f);
		cr_expect(itest_streq(before, after), "case %zu: a refused apply changed DIR", i);
	}
}
