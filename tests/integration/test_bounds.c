// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Limits through the real binary, at the limit and one past it: argv bytes
 * (1 MiB), mounts (4096), and the record with --capture at the 64 MiB cap on
 * --max-output.  Past a limit: exit 125, a usage_error record (except for
 * argv bytes, judged before --result-fd is read), a message naming the
 * limit.  At the capture cap: the record stays valid JSON and
 * says the output was truncated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/*
 * nsbox's argv of exactly total bytes (NULs included): "--result-fd 3"
 * (added by the harness), "--", "/bin/true" and padding arguments of at most
 * 4 KiB each: below PATH_MAX, which the gate's path.too_long refuses.
 */
static const char **argv_of_bytes(size_t total, char **ret_blob)
{
	size_t used = strlen("nsbox") + 1 + strlen("--result-fd") + 1 + 2 +
		      /* harness argv[0] */ strlen("--") + 1 + strlen("/bin/true") + 1;
	size_t pad = total - used, n_args = pad / 4096 + 1;
	const char **argv = calloc(n_args + 4, sizeof(*argv));
	char *blob = malloc(pad);
	cr_assert(argv && blob);
	memset(blob, 'x', pad);
	int n = 0;
	argv[n++] = "--";
	argv[n++] = "/bin/true";
	/* chunks of 4095 bytes + NUL, the last one whatever remains */
	for (size_t off = 0; off < pad;) {
		size_t len = pad - off > 4096 ? 4096 : pad - off;
		blob[off + len - 1] = '\0';
		argv[n++] = blob + off;
		off += len;
	}
	*ret_blob = blob;
	return argv;
}

NSB_ITEST(bounds, argv_bytes_past_limit)
{
	struct itest_run r;
	char *blob;
	const char **argv = argv_of_bytes((1u << 20) + 1, &blob);

	/* .gate: the harness adds no relaxing options, so the byte count is
	 * exactly what argv_of_bytes built. */
	static const struct itest_opts o = {.gate = true};
	itest_run(&itest_cur, &o, argv, &r);
	ITEST_EXPECT_EXIT(&r, 125);
	/* The bound is checked before any option is read, but --result-fd is
	 * still looked for so the usage_error record reaches the caller. */
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.errno_name"), "E2BIG");
	ITEST_EXPECT_CONTAINS(&r, r.err, "arguments too large (more than 1048576 bytes)");
	itest_run_close(&r);
	free(blob);
	free(argv);
}

NSB_ITEST(bounds, argv_bytes_at_limit)
{
	struct itest_run r;
	char *blob;
	const char **argv = argv_of_bytes(1u << 20, &blob);
	static const struct itest_opts o = {.gate = true};

	itest_run(&itest_cur, &o, argv, &r);
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	itest_run_close(&r);
	free(blob);
	free(argv);
}

static void run_mounts(int n, struct itest_run *r)
{
	const char **argv = calloc((size_t)n * 2 + 8, sizeof(*argv));
	char(*names)[32] = calloc((size_t)n, sizeof(*names));
	int k = 0;
	cr_assert(argv && names);
	for (int i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "m%03d", i);
		itest_mkdir(&itest_cur, names[i]);
		argv[k++] = "--ro";
		argv[k++] = names[i];
	}
	argv[k++] = "--";
	argv[k++] = "./probe";
	argv[k++] = "exit";
	argv[k++] = "0";
	itest_run(&itest_cur, NULL, argv, r);
	free(names);
	free(argv);
}

NSB_ITEST(bounds, mounts_at_limit)
{
	struct itest_run r;
	run_mounts(4096, &r);
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	itest_run_close(&r);
}

NSB_ITEST(bounds, mounts_past_limit)
{
	struct itest_run r;
	run_mounts(4097, &r);
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_CONTAINS(&r, r.err, "at most 4096 --ro, --rw and --tmpfs");
	itest_run_close(&r);
}

/* 64 MiB + 1 bytes of output under the 64 MiB capture cap. */
NSB_ITEST(bounds, capture_at_cap)
{
	struct itest_run r;

#ifdef __SANITIZE_ADDRESS__
	/* 64 MiB through an ASan nsbox takes over a minute; make integration
	 * runs this, and test_result covers the cut under ASan. */
	cr_skip_test("too slow under AddressSanitizer");
#endif
	ITEST_RUN(&r, "--capture", "--max-output", "64M", "--", "/bin/sh", "-c",
		  "head -c 67108865 /dev/zero | tr '\\0' x");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_truncated"), "true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "truncated"), "true");
	/* the record fits the writer's 64 MiB and keeps most of the output */
	cr_expect(r.record_len <= (64u << 20) + 1 && r.record_len > (48u << 20),
		  "record is %zu bytes", r.record_len);
	itest_run_close(&r);
}

NSB_ITEST(bounds, capture_past_cap)
{
	struct itest_run r;

	ITEST_RUN(&r, "--capture", "--max-output", "67108865", "--", "./probe", "exit", "0");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_CONTAINS(&r, r.err, "--capture");
	itest_run_close(&r);
}
