// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The policy file parser and printer: every directive, every error with its
 * exact "file:line:col: message", and print -> parse round trips.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "gate/policy.h"
#include "unit.h"

/* Parse text (len bytes, may hold NULs) into p; returns the parser's result. */
static int parse_buf(const char *text, size_t len, struct nsb_gate_policy *p, struct nsb_error *e)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, len, "r");
	cr_assert(f != NULL);
	nsb_error_clear(e);
	int r = nsb_policy_parse(f, "t.policy", p, e);
	fclose(f);
	return r;
}

static int parse(const char *text, struct nsb_gate_policy *p, struct nsb_error *e)
{
	return parse_buf(text, strlen(text), p, e);
}

static bool has_name(char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

Test(policy, every_directive)
{
	struct nsb_gate_policy p;
	struct nsb_error e;
	nsb_gate_policy_init(&p);
	int r = parse("# a comment\n"
		      "\n"
		      "   \t\n"
		      "deny-exec curl\n"
		      "  deny-exec\twget  \n"
		      "deny-exec mkfs.*\n"
		      "allow-exec rm\r\n"
		      "\t# indented comment\n"
		      "allow-inline-code\n"
		      "allow-metachar  \n"
		      "allow-path /opt/data\n"
		      "allow-path /srv/my dir  \n"
		      "allow-path /",
		      &p, &e);
	cr_assert(eq(int, r, 0), "%s", e.message);
	cr_expect(eq(sz, p.n_deny_exec, 3));
	cr_expect(has_name(p.deny_exec, p.n_deny_exec, "curl"));
	cr_expect(has_name(p.deny_exec, p.n_deny_exec, "wget"));
	cr_expect(has_name(p.deny_exec, p.n_deny_exec, "mkfs.*"));
	cr_expect(eq(sz, p.n_allow_exec, 1));
	expect_str_at(p.allow_exec[0], "rm", "allow-exec");
	cr_expect(p.allow_inline_code);
	cr_expect(p.allow_metachar);
	cr_expect(eq(sz, p.n_allow_path, 3));
	expect_str_at(p.allow_path[0], "/opt/data", "allow-path");
	expect_str_at(p.allow_path[1], "/srv/my dir", "allow-path with a space");
	expect_str_at(p.allow_path[2], "/", "allow-path /");
	nsb_gate_policy_free(&p);
}

Test(policy, empty_file_changes_nothing)
{
	struct nsb_gate_policy p;
	struct nsb_error e;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	size_t n = p.n_deny_exec;
	cr_expect(eq(int, parse("", &p, &e), 0));
	cr_expect(eq(sz, p.n_deny_exec, n));
	cr_expect(p.allow_inline_code == false);
	nsb_gate_policy_free(&p);
}

Test(policy, adds_to_the_default)
{
	struct nsb_gate_policy p;
	struct nsb_error e;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_assert(eq(int, parse("deny-exec curl\nallow-exec rm\n", &p, &e), 0));
	cr_expect(nsb_gate_name_denied(&p, "curl"));
	cr_expect(nsb_gate_name_denied(&p, "sudo"));
	cr_expect(nsb_gate_name_denied(&p, "mkfs.xfs"));
	cr_expect(nsb_gate_name_denied(&p, "rm") == false);
	nsb_gate_policy_free(&p);
}

struct bad {
	const char *text;
	int err;
	const char *message;
};

static const struct bad bad_cases[] = {
	{"bogus x\n", EINVAL, "t.policy:1:1: unknown directive 'bogus'"},
	{"\n  Deny-exec rm\n", EINVAL, "t.policy:2:3: unknown directive 'Deny-exec'"},
	{"deny-exec rm # why\n", EINVAL, "t.policy:1:14: unexpected '# why' after the NAME"},
	{"  deny-exec\n", EINVAL, "t.policy:1:12: 'deny-exec' needs a NAME"},
	{"allow-exec   \n", EINVAL, "t.policy:1:14: 'allow-exec' needs a NAME"},
	{"deny-exec a b\n", EINVAL, "t.policy:1:13: unexpected 'b' after the NAME"},
	{"deny-exec /usr/bin/rm\n", EINVAL, "t.policy:1:11: NAME must not contain '/'"},
	{"allow-exec a/b\n", EINVAL, "t.policy:1:13: NAME must not contain '/'"},
	{"deny-exec a*b\n", EINVAL, "t.policy:1:12: '*' may only end a NAME"},
	{"allow-inline-code yes\n", EINVAL, "t.policy:1:19: 'allow-inline-code' takes no argument"},
	{"allow-metachar 1\n", EINVAL, "t.policy:1:16: 'allow-metachar' takes no argument"},
	{"allow-path\n", EINVAL, "t.policy:1:11: 'allow-path' needs a DIR"},
	{"allow-path rel/dir\n", EINVAL, "t.policy:1:12: DIR must be an absolute path"},
	{"allow-path ~/x\n", EINVAL, "t.policy:1:12: DIR must be an absolute path"},
	{"allow-path /a/../b\n", EINVAL,
	 "t.policy:1:12: DIR must not contain '.', '..', '//' or a trailing '/'"},
	{"allow-path /a/\n", EINVAL,
	 "t.policy:1:12: DIR must not contain '.', '..', '//' or a trailing '/'"},
	{"allow-path /a//b\n", EINVAL,
	 "t.policy:1:12: DIR must not contain '.', '..', '//' or a trailing '/'"},
	{"# ok\ndeny-exec ok\nnope\n", EINVAL, "t.policy:3:1: unknown directive 'nope'"},
};

Test(policy, every_error_has_its_message)
{
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		struct nsb_gate_policy p;
		struct nsb_error e;
		nsb_gate_policy_init(&p);
		int r = parse(bad_cases[i].text, &p, &e);
		cr_expect(eq(int, r, -bad_cases[i].err), "case %zu", i);
		expect_str_at(e.message, bad_cases[i].message, bad_cases[i].text);
		expect_str_at(nsb_stage_name(e.stage), "policy", "stage");
		nsb_gate_policy_free(&p);
	}
}

Test(policy, unknown_directive_hints_the_list)
{
	struct nsb_gate_policy p;
	struct nsb_error e;
	nsb_gate_policy_init(&p);
	cr_assert(eq(int, parse("deny curl\n", &p, &e), -EINVAL));
	cr_expect(strstr(e.hint, "deny-exec NAME") != NULL, "%s", e.hint);
	cr_expect(strstr(e.hint, "nsbox-policy(5)") != NULL, "%s", e.hint);
}

Test(policy, name_too_long)
{
	char text[400];
	int n = snprintf(text, sizeof(text), "deny-exec ");
	memset(text + n, 'x', 256);
	strcpy(text + n + 256, "\n");
	struct nsb_gate_policy p;
	struct nsb_error e;
	nsb_gate_policy_init(&p);
	cr_expect(eq(int, parse(text, &p, &e), -EINVAL));
	expect_str_at(e.message, "t.policy:1:11: NAME is longer than 255 bytes", "long name");
	/* 255 bytes is fine */
	text[n + 255] = '\n';
	text[n + 256] = '\0';
	cr_expect(eq(int, parse(text, &p, &e), 0), "%s", e.message);
	nsb_gate_policy_free(&p);
}

Test(policy, too_many_entries)
{
	size_t size = (NSB_MAX_GATE_OPTS + 1) * 32;
	char *text = malloc(size);
	cr_assert(text != NULL);
	size_t n = 0;
	for (int i = 0; i <= NSB_MAX_GATE_OPTS; i++)
		n += (size_t)snprintf(text + n, size - n, "deny-exec name%d\n", i);
	struct nsb_gate_policy p;
	struct nsb_error e;
	nsb_gate_policy_init(&p);
	cr_expect(eq(int, parse(text, &p, &e), -E2BIG));
	expect_str_at(e.message, "t.policy:257:11: too many deny-exec entries (at most 256)",
		      "deny-exec limit");
	nsb_gate_policy_free(&p);

	n = 0;
	for (int i = 0; i <= NSB_MAX_GATE_PATHS; i++)
		n += (size_t)snprintf(text + n, size - n, "allow-path /p%d\n", i);
	nsb_gate_policy_init(&p);
	cr_expect(eq(int, parse(text, &p, &e), -E2BIG));
	expect_str_at(e.message, "t.policy:65:12: too many allow-path entries (at most 64)",
		      "allow-path limit");
	nsb_gate_policy_free(&p);
	free(text);
}

Test(policy, line_too_long)
{
	char *text = malloc(NSB_POLICY_LINE_MAX + 10);
	cr_assert(text != NULL);
	memset(text, '#', NSB_POLICY_LINE_MAX + 1);
	strcpy(text + NSB_POLICY_LINE_MAX + 1, "\n");
	struct nsb_gate_policy p;
	struct nsb_error e;
	nsb_gate_policy_init(&p);
	cr_expect(eq(int, parse(text, &p, &e), -EINVAL));
	expect_str_at(e.message, "t.policy:1:4201: line is longer than 4200 bytes", "long line");
	/* exactly the limit is fine */
	strcpy(text + NSB_POLICY_LINE_MAX, "\n");
	cr_expect(eq(int, parse(text, &p, &e), 0), "%s", e.message);
	free(text);
}

Test(policy, nul_byte)
{
	static const char text[] = "deny-exec a\0b\n";
	struct nsb_gate_policy p;
	struct nsb_error e;
	nsb_gate_policy_init(&p);
	cr_expect(eq(int, parse_buf(text, sizeof(text) - 1, &p, &e), -EINVAL));
	expect_str_at(e.message, "t.policy:1:12: NUL byte in the policy", "NUL");
	nsb_gate_policy_free(&p);
}

Test(policy, file_too_large)
{
	/* lines of 99 '#' and a newline: byte 262145 is column 45 of line 2622 */
	size_t size = 2700 * 100;
	char *text = malloc(size + 1);
	cr_assert(text != NULL);
	for (size_t i = 0; i < size; i++)
		text[i] = (i % 100 == 99) ? '\n' : '#';
	text[size] = '\0';
	struct nsb_gate_policy p;
	struct nsb_error e;
	nsb_gate_policy_init(&p);
	cr_expect(eq(int, parse(text, &p, &e), -EFBIG));
	expect_str_at(e.message, "t.policy:2622:45: policy is larger than 262144 bytes", "size");
	free(text);
}

/* Print p, parse the text into q (initialized by init), compare, and
 * check that printing q gives the same text. */
static void round_trip(const struct nsb_gate_policy *p, int (*init)(struct nsb_gate_policy *))
{
	char *text = NULL, *text2 = NULL;
	size_t len = 0, len2 = 0;
	FILE *out = open_memstream(&text, &len);
	cr_assert(out != NULL);
	cr_assert(eq(int, nsb_policy_print(out, p, NULL), 0));
	fclose(out);

	struct nsb_gate_policy q;
	struct nsb_error e;
	cr_assert(eq(int, init(&q), 0));
	cr_assert(eq(int, parse(text, &q, &e), 0), "%s\n%s", e.message, text);
	cr_expect(eq(sz, q.n_deny_exec, p->n_deny_exec));
	for (size_t i = 0; i < p->n_deny_exec; i++)
		cr_expect(has_name(q.deny_exec, q.n_deny_exec, p->deny_exec[i]), "%s",
			  p->deny_exec[i]);
	cr_expect(eq(sz, q.n_allow_exec, p->n_allow_exec));
	for (size_t i = 0; i < p->n_allow_exec; i++)
		cr_expect(has_name(q.allow_exec, q.n_allow_exec, p->allow_exec[i]));
	cr_expect(eq(sz, q.n_allow_path, p->n_allow_path));
	for (size_t i = 0; i < p->n_allow_path; i++)
		cr_expect(has_name(q.allow_path, q.n_allow_path, p->allow_path[i]));
	cr_expect(q.allow_inline_code == p->allow_inline_code);
	cr_expect(q.allow_metachar == p->allow_metachar);
	cr_expect(q.metachar_strict == p->metachar_strict);

	out = open_memstream(&text2, &len2);
	cr_assert(eq(int, nsb_policy_print(out, &q, NULL), 0));
	fclose(out);
	expect_str_at(text2, text, "second print");
	nsb_gate_policy_free(&q);
	free(text);
	free(text2);
}

static int init_empty(struct nsb_gate_policy *p)
{
	nsb_gate_policy_init(p);
	return 0;
}

Test(policy, default_round_trips)
{
	struct nsb_gate_policy p;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	round_trip(&p, init_empty);
	round_trip(&p, nsb_gate_policy_init_default);
	nsb_gate_policy_free(&p);
}

Test(policy, relaxed_policy_round_trips)
{
	struct nsb_gate_policy p;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_assert(eq(int, nsb_gate_policy_deny_exec(&p, "curl"), 0));
	cr_assert(eq(int, nsb_gate_policy_allow_exec(&p, "rm"), 0));
	cr_assert(eq(int, nsb_gate_policy_allow_path(&p, "/opt/my data"), 0));
	p.allow_inline_code = true;
	p.allow_metachar = true;
	round_trip(&p, nsb_gate_policy_init_default);
	nsb_gate_policy_free(&p);
}

Test(policy, print_shows_every_default_name)
{
	char *text = NULL;
	size_t len = 0;
	struct nsb_gate_policy p;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	FILE *out = open_memstream(&text, &len);
	cr_assert(eq(int, nsb_policy_print(out, &p, NULL), 0));
	fclose(out);
	for (const char *d = nsb_gate_default_deny; *d; d = nsb_strs_next(d)) {
		char want[300];
		snprintf(want, sizeof(want), "\ndeny-exec %s\n", d);
		cr_expect(strstr(text, want) != NULL, "missing %s", want);
	}
	cr_expect(strstr(text, "\n#allow-inline-code\n") != NULL);
	cr_expect(strstr(text, "\n#allow-metachar\n") != NULL);
	free(text);
	nsb_gate_policy_free(&p);
}

/* A failed write is said, with the text main.c prints after "nsbox: ". */
Test(policy, print_failure_fills_the_error)
{
	struct nsb_gate_policy p;
	struct nsb_error e = {0};
	FILE *out = fopen("/dev/full", "we");

	if (!out)
		cr_skip_test("no /dev/full");
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_expect(eq(int, nsb_policy_print(out, &p, &e), -EIO));
	expect_str(e.message, "--print-policy: write the policy: Input/output error");
	cr_expect(eq(int, e.stage, NSB_STAGE_GATE));
	fclose(out);
	nsb_gate_policy_free(&p);
}
