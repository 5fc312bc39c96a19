// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every documented input limit, at the limit and one past it: the limit is
 * accepted, one more is refused with the documented error (never a crash or
 * a silent cut).  Limits covered elsewhere: argv bytes and the number of
 * mounts (test_cli), profile file size (test_profile), policy line length
 * (test_policy), JSON output size (test_json).
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "gate/policy.h"
#include "seccomp/profile.h"
#include "unit.h"

static int parse_profile(const char *buf, size_t len, struct nsb_error *e)
{
	struct nsb_profile *p = NULL;
	FILE *f = fmemopen((void *)(uintptr_t)buf, len, "r");
	cr_assert(f != NULL);
	int r = nsb_profile_parse(f, "b.profile", NULL, NULL, &p, e);
	fclose(f);
	nsb_profile_free(p);
	return r;
}

/* "default allow\n# xxx...\n" with the comment line exactly len bytes. */
static char *profile_with_line(size_t len, size_t *ret_len)
{
	const char *head = "default allow\n";
	size_t n = strlen(head) + len + 1;
	char *buf = malloc(n);
	cr_assert(buf != NULL);
	memcpy(buf, head, strlen(head));
	memset(buf + strlen(head), 'x', len);
	buf[strlen(head)] = '#';
	buf[n - 1] = '\n';
	*ret_len = n;
	return buf;
}

Test(bounds, profile_line_at_limit)
{
	size_t n;
	struct nsb_error e = {0};
	char *buf = profile_with_line(NSB_PROFILE_MAX_LINE, &n);
	cr_expect(eq(int, parse_profile(buf, n, &e), 0), "%s", e.message);
	free(buf);
}

Test(bounds, profile_line_past_limit)
{
	size_t n;
	struct nsb_error e = {0};
	char *buf = profile_with_line(NSB_PROFILE_MAX_LINE + 1, &n);
	cr_expect(eq(int, parse_profile(buf, n, &e), -EINVAL));
	expect_str(e.message, "b.profile:2:1025: line is longer than 1024 bytes");
	free(buf);
}

static int parse_policy(const char *buf, size_t len, struct nsb_error *e)
{
	struct nsb_gate_policy p;
	nsb_gate_policy_init(&p);
	FILE *f = fmemopen((void *)(uintptr_t)buf, len, "r");
	cr_assert(f != NULL);
	int r = nsb_policy_parse(f, "b.policy", &p, e);
	fclose(f);
	nsb_gate_policy_free(&p);
	return r;
}

/* A policy of len bytes: comment lines of 100 bytes, the last one shorter. */
static char *policy_of(size_t len)
{
	char *buf = malloc(len);
	cr_assert(buf != NULL);
	memset(buf, '#', len);
	for (size_t i = 99; i < len; i += 100)
		buf[i] = '\n';
	buf[len - 1] = '\n';
	return buf;
}

Test(bounds, policy_size_at_limit)
{
	struct nsb_error e = {0};
	char *buf = policy_of(NSB_POLICY_MAX_BYTES);
	cr_expect(eq(int, parse_policy(buf, NSB_POLICY_MAX_BYTES, &e), 0), "%s", e.message);
	free(buf);
}

Test(bounds, policy_size_past_limit)
{
	struct nsb_error e = {0};
	char *buf = policy_of(NSB_POLICY_MAX_BYTES + 1);
	cr_expect(eq(int, parse_policy(buf, NSB_POLICY_MAX_BYTES + 1, &e), -EFBIG));
	cr_expect(strstr(e.message, "b.policy:") == e.message, "%s", e.message);
	cr_expect(strstr(e.message, "262144") != NULL, "%s", e.message);
	free(buf);
}

static struct nsb_config cfg;

static int cli(const char *const *args, struct nsb_error *e)
{
	int argc = 0;
	while (args[argc])
		argc++;
	return nsb_cli_parse(argc, (char *const *)(uintptr_t)args, &cfg, e);
}

Test(bounds, capture_max_output_at_limit)
{
	struct nsb_error e = {0};
	const char *const args[] = {"nsbox", "--capture", "--max-output", "64M", "--",
				    "true",  NULL};
	cr_expect(eq(int, cli(args, &e), 0), "%s", e.message);
	cr_expect(eq(u64, cfg.max_output, NSB_MAX_CAPTURE));
}

Test(bounds, capture_max_output_past_limit)
{
	struct nsb_error e = {0};
	const char *const args[] = {"nsbox", "--capture", "--max-output", "67108865", "--",
				    "true",  NULL};
	cr_expect(eq(int, cli(args, &e), -E2BIG));
	cr_expect(strstr(e.message, "too large for --capture") != NULL, "%s", e.message);
}

Test(bounds, max_output_without_capture)
{
	struct nsb_error e = {0};
	const char *const ok[] = {"nsbox", "--max-output", "1T", "--", "true", NULL};
	const char *const past[] = {"nsbox", "--max-output", "1099511627777", "--", "true", NULL};
	cr_expect(eq(int, cli(ok, &e), 0), "%s", e.message);
	cr_expect(eq(int, cli(past, &e), -EINVAL));
	cr_expect(strstr(e.message, "--max-output") != NULL, "%s", e.message);
}
