// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --overlay-store PATH (issue 16): the upper layers on disk, in a private
 * directory of the run under PATH, removed after the run whatever the mode.
 * Judged from both sides: inside, the overlay's filesystem is the disk's
 * (df shows the disk, not a tmpfs of --overlay-size), a file larger than a
 * comfortable tmpfs is written and committed; outside, PATH is empty again
 * after each run, the record names the run's directory, and the bound is
 * enforced by the supervisor's watch (killed, disk.full).  As root and as
 * the unprivileged user.
 */
#include <dirent.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

/* <top>/store, the caller's: outside the project (which is bound --rw). */
static const char *make_store(void)
{
	static char path[400];

	snprintf(path, sizeof(path), "%s/store", itest_cur.top);
	cr_assert(mkdir(path, 0755) == 0, "mkdir '%s': %s", path, strerror(errno));
	cr_assert(chown(path, itest_cur.uid, itest_cur.gid) == 0);
	return path;
}

/* Entries of dir, "." and ".." left out. */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	cr_assert(d != NULL, "opendir '%s': %s", dir, strerror(errno));
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void make_dir(void)
{
	itest_mkdir(&itest_cur, "repo");
	itest_write(&itest_cur, "repo/a.txt", "a\n");
	itest_write(&itest_cur, "repo/gone.txt", "gone\n");
}

#define EDIT                                                                            \
	"/bin/sh", "-c",                                                                \
		"cd repo && echo edited >> a.txt && rm gone.txt && mkdir -p d/e &&"     \
		" echo f > d/e/f && chmod 500 d/e && echo blocks=$(df -k . | tail -1 |" \
		" awk '{print $2}')"

NSB_ITEST(overlay_store, discard_uses_the_store_on_disk_and_removes_it)
{
	struct itest_run r;
	const char *store = make_store();
	char prefix[512];

	make_dir();
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-size", "4M", "--overlay-store", store, "--",
		  EDIT);
	ITEST_ASSERT_EXIT(&r, 0);
	/* The disk, not a tmpfs of 4M (4096 KiB): a bigger filesystem. */
	char *blocks = itest_kv(r.out, "blocks");
	cr_assert(blocks != NULL, "%s", r.out);
	cr_expect(strtoull(blocks, NULL, 10) > 4096 * 4, "df says %s KiB", blocks);
	const char *o = itest_rec(&r, "overlay");
	snprintf(prefix, sizeof(prefix), "\"store\":\"%s/nsbox-ovl-", store);
	ITEST_EXPECT_CONTAINS(&r, o, prefix);
	ITEST_EXPECT_CONTAINS(&r, o, "\"path\":\"a.txt\"");
	ITEST_EXPECT_CONTAINS(&r, o, "\"deleted\":[\"gone.txt\"]");
	ITEST_EXPECT_CONTAINS(&r, o, "\"full\":false");
	cr_expect(eq(int, count_entries(store), 0), "the run's directory is left in the store");
	char *a = itest_slurp(itest_path(&itest_cur, "repo/a.txt"));
	cr_expect(itest_streq(a, "a\n"), "discard changed a.txt: '%s'", a);
	free(a);
	itest_run_close(&r);
}

NSB_ITEST(overlay_store, commit_and_export_through_the_store)
{
	struct itest_run r;
	const char *store = make_store();
	struct stat st;

	make_dir();
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-store", store, "--overlay-mode", "export:exp",
		  "--", EDIT);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"export\":\"exp\"");
	cr_expect(eq(int, count_entries(store), 0));
	cr_expect(eq(int, stat(itest_path(&itest_cur, "exp/changes"), &st), 0));
	itest_run_close(&r);

	ITEST_RUN(&r, "--overlay", "repo", "--overlay-store", store, "--overlay-mode", "commit",
		  "--", EDIT);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"committed\":true");
	cr_expect(eq(int, count_entries(store), 0));
	char *a = itest_slurp(itest_path(&itest_cur, "repo/a.txt"));
	cr_expect(itest_streq(a, "a\nedited\n"), "a.txt is '%s'", a);
	free(a);
	cr_expect(lstat(itest_path(&itest_cur, "repo/gone.txt"), &st) < 0 && errno == ENOENT);
	cr_expect(eq(int, lstat(itest_path(&itest_cur, "repo/d/e/f"), &st), 0));
	itest_run_close(&r);
}

/* 300 MiB: more than a tmpfs of the machine's memory would comfortably
 * hold twice, written and committed, then the store is empty again. */
NSB_ITEST(overlay_store, a_large_file_is_written_and_committed)
{
	struct itest_run r;
	const char *store = make_store();
	struct stat st;

	make_dir();
	ITEST_RUN(&r, "--overlay", "repo", "--overlay-store", store, "--overlay-size", "400M",
		  "--overlay-mode", "commit", "--", "/bin/sh", "-c",
		  "dd if=/dev/zero of=repo/big bs=1M count=300 status=none && echo dd=ok");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "dd"), "ok");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"committed\":true");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"size\":314572800");
	cr_assert(eq(int, stat(itest_path(&itest_cur, "repo/big"), &st), 0));
	cr_expect(eq(sz, (size_t)st.st_size, (size_t)300 << 20));
	cr_expect(eq(int, count_entries(store), 0));
	itest_run_close(&r);
}

/* On disk the bound is the supervisor's watch: past it the run is killed,
 * the record says disk.full, DIR is untouched, the store emptied. */
NSB_ITEST(overlay_store, the_size_bound_kills_the_run_and_records_disk_full)
{
	struct itest_run r;
	const char *store = make_store();
	struct stat st;

	make_dir();
	ITEST_RUN(
		&r, "--overlay", "repo", "--overlay-store", store, "--overlay-size", "2M",
		"--overlay-mode", "commit", "--", "/bin/sh", "-c",
		"dd if=/dev/zero of=repo/fill bs=1M count=16 status=none; sleep 5; echo survived");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "signaled");
	ITEST_EXPECT_LACKS(&r, r.out, "survived");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "violations"), "\"kind\":\"disk.full\"");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"full\":true");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"committed\":false");
	cr_expect(lstat(itest_path(&itest_cur, "repo/fill"), &st) < 0 && errno == ENOENT);
	cr_expect(eq(int, count_entries(store), 0));
	itest_run_close(&r);
}

static void expect_refused(const char *store, const char *why)
{
	struct itest_run r;

	ITEST_RUN(&r, "--overlay", "repo", "--rw", "rwdir", "--overlay-store", store, "--",
		  "/bin/true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_CONTAINS(&r, r.err, why);
	itest_run_close(&r);
}

NSB_ITEST(overlay_store, refuses_a_store_it_cannot_use)
{
	make_dir();
	itest_mkdir(&itest_cur, "repo/sub");
	itest_mkdir(&itest_cur, "inproject");
	itest_mkdir(&itest_cur, "rwdir");
	itest_mkdir(&itest_cur, "rwdir/sub");
	expect_refused(itest_path(&itest_cur, "repo/a.txt"), "not a directory");
	expect_refused(itest_path(&itest_cur, "repo/sub"), "(an --overlay DIR)");
	expect_refused(itest_path(&itest_cur, "rwdir/sub"), "(a writable bind)");
	expect_refused(itest_path(&itest_cur, "inproject"), "(a read-only bind)");
	expect_refused("/proc", "on procfs");
	expect_refused("/nonexistent-nsbox-store", "not found");
	/* Nothing was left in DIR or the project. */
	cr_expect(eq(int, count_entries(itest_path(&itest_cur, "repo/sub")), 0));
	cr_expect(eq(int, count_entries(itest_path(&itest_cur, "inproject")), 0));
	cr_expect(eq(int, count_entries(itest_path(&itest_cur, "rwdir/sub")), 0));
}

/* A sparse file is committed sparse (its data extents only), on tmpfs and
 * on disk alike: 64 MiB long, one byte of data, a few KiB of blocks. */
NSB_ITEST(overlay_store, a_sparse_file_is_committed_sparse)
{
	struct itest_run r;
	const char *store = make_store();
	struct stat st;

	for (int on_disk = 0; on_disk < 2; on_disk++) {
		make_dir();
		ITEST_RUN(&r, "--overlay", "repo", "--overlay-mode", "commit",
			  on_disk ? "--overlay-store" : "--overlay-size", on_disk ? store : "8M",
			  "--", "/bin/sh", "-c",
			  "truncate -s 64M repo/sparse && printf x | dd of=repo/sparse bs=1"
			  " seek=1048576 conv=notrunc status=none && echo ok=1");
		ITEST_ASSERT_EXIT(&r, 0);
		ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "overlay"), "\"committed\":true");
		cr_assert(eq(int, stat(itest_path(&itest_cur, "repo/sparse"), &st), 0));
		cr_expect(eq(sz, (size_t)st.st_size, (size_t)64 << 20));
		bool sparse = (uint64_t)st.st_blocks * 512 < (1u << 20);
		cr_expect(sparse, "%lld blocks: not sparse", (long long)st.st_blocks);
		char cmd[1024];
		snprintf(cmd, sizeof(cmd),
			 "test \"$(dd if=%s bs=1 skip=1048576 count=1 status=none)\" = x",
			 itest_path(&itest_cur, "repo/sparse"));
		cr_expect(eq(int, system(cmd), 0), "the data byte is lost");
		itest_run_close(&r);
		char rm[600];
		snprintf(rm, sizeof(rm), "rm -rf %s", itest_path(&itest_cur, "repo"));
		cr_assert(eq(int, system(rm), 0));
	}
}
