// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parser tests: every fixture under fixtures/profiles/ is parsed under its
 * bare file name, so messages read "name.profile:line:col: ..." exactly.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "seccomp/profile.h"

#define FIXDIR NSB_SRCDIR "/tests/unit/fixtures/profiles"

/* eq(str) wants mutable strings: compare copies. */
#define expect_streq(got, want)                                        \
	do {                                                           \
		char g_[NSB_ERR_MESSAGE_MAX], w_[NSB_ERR_MESSAGE_MAX]; \
		snprintf(g_, sizeof(g_), "%s", (got));                 \
		snprintf(w_, sizeof(w_), "%s", (want));                \
		cr_expect(eq(str, g_, w_));                            \
	} while (0)

/* Includes resolve inside FIXDIR and keep the relative name for messages. */
static int fixture_opener(const char *name, const char *from, void *userdata, FILE **ret_f,
			  char **ret_path, struct nsb_error *e)
{
	char rel[256], full[512];

	snprintf(rel, sizeof(rel), strchr(name, '/') ? "%s" : "%s.profile", name);
	snprintf(full, sizeof(full), "%s/%s", FIXDIR, rel);
	FILE *f = fopen(full, "re");
	if (!f)
		return nsb_error_setx(e, -ENOENT, NSB_STAGE_PROFILE, "no fixture '%s'", rel);
	*ret_f = f;
	*ret_path = strdup(rel);
	return 0;
}

static int parse_fixture(const char *name, struct nsb_profile **ret, struct nsb_error *e)
{
	char rel[256], full[512];

	snprintf(rel, sizeof(rel), "%s.profile", name);
	snprintf(full, sizeof(full), "%s/%s", FIXDIR, rel);
	FILE *f = fopen(full, "re");
	cr_assert(f != NULL, "fixture %s is missing", full);
	int r = nsb_profile_parse(f, rel, fixture_opener, NULL, ret, e);
	fclose(f);
	return r;
}

static void expect_error_rc(const char *name, int rc, const char *want)
{
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};
	int r = parse_fixture(name, &p, &e);
	cr_assert(eq(int, r, rc), "%s: parse returned %d (%s)", name, r, e.message);
	cr_expect(eq(int, e.err, -rc));
	cr_expect(p == NULL, "ret must stay untouched on failure");
	expect_streq(nsb_stage_name(e.stage), "profile");
	expect_streq(e.message, want);
}

static void expect_error(const char *name, const char *want)
{
	expect_error_rc(name, -EINVAL, want);
}

static struct nsb_profile *expect_ok(const char *name)
{
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};

	int r = parse_fixture(name, &p, &e);
	cr_assert(eq(int, r, 0), "%s: %s", name, e.message);
	cr_assert(p != NULL);
	return p;
}

/* The fixture names use '-', test names '_': map through a second macro. */
#define BADF(test, file, msg)            \
	Test(profile_invalid, test)      \
	{                                \
		expect_error(file, msg); \
	}

BADF(unknown_syscall, "unknown-syscall", "unknown-syscall.profile:2:1: unknown syscall 'mout'")
BADF(other_arch, "other-arch",
     "other-arch.profile:2:1: syscall 'socketcall' does not exist on x86_64 (it does on i386)")
BADF(unknown_action, "unknown-action",
     "unknown-action.profile:2:6: unknown action 'deny' (expected allow, errno, kill, log or trap)")
BADF(missing_action, "missing-action", "missing-action.profile:2:6: missing action after 'read'")
BADF(errno_missing, "errno-missing",
     "errno-missing.profile:2:12: 'errno' needs an errno name or number")
BADF(errno_unknown, "errno-unknown", "errno-unknown.profile:2:12: unknown errno name 'EFOO'")
BADF(errno_range, "errno-range",
     "errno-range.profile:2:12: errno number '4096' is not a decimal in 0..4095")
BADF(errno_leading_zero, "errno-leading-zero",
     "errno-leading-zero.profile:2:12: errno number '01' is not a decimal in 0..4095")
BADF(no_default, "no-default",
     "no-default.profile:1:1: no 'default' action (add a line such as 'default errno EPERM')")
BADF(default_twice, "default-twice",
     "default-twice.profile:3:1: default action is already set at default-twice.profile:1:1")
BADF(default_extra, "default-extra",
     "default-extra.profile:1:15: unexpected 'now' after the action")
BADF(default_missing, "default-missing",
     "default-missing.profile:1:9: missing action after 'default'")
BADF(rule_is_default, "rule-is-default",
     "rule-is-default.profile:2:1: rule for 'read' has the default action 'allow'")
BADF(conflict, "conflict",
     "conflict.profile:3:1: 'ioctl' gets action 'kill' here but 'errno EPERM' at conflict.profile:2:1 (one syscall, one action)")
BADF(conflict_groups, "conflict-groups",
     "conflict-groups.profile:6:1: 'read' gets action 'errno ENOSYS' here but 'errno EPERM' at conflict-groups.profile:5:1 (one syscall, one action)")
BADF(expected_if, "expected-if",
     "expected-if.profile:2:18: expected 'if' or the end of the line, got 'when'")
BADF(missing_cond, "missing-cond", "missing-cond.profile:2:21: missing condition after 'if'")
BADF(bad_arg, "bad-arg", "bad-arg.profile:2:21: expected arg0 .. arg5, got 'arg6'")
BADF(bad_op, "bad-op",
     "bad-op.profile:2:26: unknown operator '=~' (expected ==, !=, <, <=, >, >= or '& MASK ==')")
BADF(missing_op, "missing-op", "missing-op.profile:2:26: missing operator after 'arg0'")
BADF(missing_value, "missing-value", "missing-value.profile:2:29: missing value after '=='")
BADF(bad_number, "bad-number", "bad-number.profile:2:29: invalid number '12x'")
BADF(bad_hex, "bad-hex", "bad-hex.profile:2:29: invalid number '0xfg'")
BADF(number_overflow, "number-overflow",
     "number-overflow.profile:2:29: number '18446744073709551616' does not fit in 64 bits")
BADF(octal, "octal", "octal.profile:2:29: number '010' has a leading zero (octal is not accepted)")
BADF(unknown_constant, "unknown-constant",
     "unknown-constant.profile:2:30: unknown constant 'CLONE_NEWFOO'")
BADF(unknown_constant_in_or, "unknown-constant-in-or",
     "unknown-constant-in-or.profile:2:41: unknown constant 'CLONE_BAR'")
BADF(empty_term, "empty-term", "empty-term.profile:2:31: empty value")
BADF(mask_op, "mask-op", "mask-op.profile:2:33: only '==' can follow a mask, got '!='")
BADF(mask_missing, "mask-missing", "mask-missing.profile:2:28: missing mask after '&'")
BADF(mask_missing_eq, "mask-missing-eq",
     "mask-missing-eq.profile:2:33: missing '==' after the mask")
BADF(mask_outside, "mask-outside",
     "mask-outside.profile:2:36: value 0x100 has bits outside the mask 0xff: the condition can never match")
BADF(same_arg_twice, "same-arg-twice",
     "same-arg-twice.profile:2:34: arg0 is already compared in this rule (write a second rule instead)")
BADF(expected_and, "expected-and",
     "expected-and.profile:2:31: expected 'and' or the end of the line, got 'or'")
BADF(and_missing_cond, "and-missing-cond",
     "and-missing-cond.profile:2:35: missing condition after 'and'")
BADF(unknown_group, "unknown-group",
     "unknown-group.profile:2:1: unknown group '@nope' (define it with 'group @nope' before this line, or include the file that does)")
BADF(invalid_group_name, "invalid-group-name",
     "invalid-group-name.profile:2:7: invalid group name '@Bad' (expected '@' and lower-case letters, digits, '-' or '_')")
BADF(invalid_group_in_rule, "invalid-group-in-rule",
     "invalid-group-in-rule.profile:2:1: invalid group name '@Bad'")
BADF(group_no_name, "group-no-name",
     "group-no-name.profile:2:7: 'group' needs a name such as '@mount'")
BADF(group_extra, "group-extra",
     "group-extra.profile:2:10: unexpected 'read' after the group name (members go on the following lines, up to 'end')")
BADF(group_redefined, "group-redefined",
     "group-redefined.profile:5:7: group '@a' is already defined at group-redefined.profile:2:7")
BADF(group_no_end, "group-no-end", "group-no-end.profile:2:7: group '@a' has no 'end'")
BADF(group_empty, "group-empty", "group-empty.profile:3:1: group '@a' is empty")
BADF(end_without_group, "end-without-group", "end-without-group.profile:2:1: 'end' without 'group'")
BADF(end_extra, "end-extra", "end-extra.profile:4:5: unexpected 'now' after 'end'")
BADF(group_self, "group-self", "group-self.profile:3:7: group '@a' cannot contain itself")
BADF(group_unknown_member, "group-unknown-member",
     "group-unknown-member.profile:3:7: unknown syscall 'wirte'")
BADF(group_later_group, "group-later-group",
     "group-later-group.profile:3:2: unknown group '@b' (define it with 'group @b' before this line, or include the file that does)")
BADF(include_in_group, "include-in-group",
     "include-in-group.profile:3:2: 'include' inside group '@a' (close the group with 'end' first)")
BADF(include_no_name, "include-no-name",
     "include-no-name.profile:2:9: 'include' needs a profile name or path")
BADF(include_extra, "include-extra",
     "include-extra.profile:2:11: unexpected 'b' after the include name")
/* The opener's own errno travels up with the location prepended. */
Test(profile_invalid, include_not_found)
{
	expect_error_rc(
		"include-not-found", -ENOENT,
		"include-not-found.profile:2:9: include 'nothere': no fixture 'nothere.profile'");
}
BADF(include_cycle, "cycle-a",
     "cycle-b.profile:1:9: include cycle: 'cycle-a.profile' is already being read")
BADF(include_depth, "deep-0",
     "deep-7.profile:1:9: include 'deep-8': includes are nested deeper than 8")
BADF(error_in_included_file, "inc-bad-parent", "inc-bad-child.profile:2:1: unknown syscall 'nope'")
BADF(control_char, "control-char",
     "control-char.profile:2:5: invalid byte 0x01 (only printable ASCII outside comments)")
BADF(non_ascii, "non-ascii",
     "non-ascii.profile:2:2: invalid byte 0xc3 (only printable ASCII outside comments)")
BADF(badarch_allow, "badarch-allow",
     "badarch-allow.profile:2:9: badarch action must refuse the call (errno, kill or trap)")
BADF(badarch_twice, "badarch-twice", "badarch-twice.profile:3:1: badarch action is already set")
BADF(unmapped_ids_allow, "unmapped-ids-allow",
     "unmapped-ids-allow.profile:2:14: unmapped-ids action must refuse the call (errno, kill or trap)")
BADF(unmapped_ids_log, "unmapped-ids-log",
     "unmapped-ids-log.profile:2:14: unmapped-ids action must refuse the call (errno, kill or trap)")
BADF(unmapped_ids_twice, "unmapped-ids-twice",
     "unmapped-ids-twice.profile:3:1: unmapped-ids action is already set at unmapped-ids-twice.profile:2:1")
BADF(unmapped_ids_in_group, "unmapped-ids-in-group",
     "unmapped-ids-in-group.profile:4:2: 'unmapped-ids' inside group '@a' (close the group with 'end' first)")
BADF(unmapped_ids_missing, "unmapped-ids-missing",
     "unmapped-ids-missing.profile:2:14: missing action after 'unmapped-ids'")
BADF(invalid_syscall_name, "invalid-syscall-name",
     "invalid-syscall-name.profile:2:1: invalid syscall name 'Read'")
BADF(line_too_long, "line-too-long", "line-too-long.profile:2:1025: line is longer than 1024 bytes")
BADF(group_unclosed_in_include, "group-unclosed-in-include",
     "group-open-child.profile:1:7: group '@a' has no 'end'")
BADF(kill_syscall_missing_action, "kill-target-missing-action",
     "kill-target-missing-action.profile:2:6: missing action after 'kill'")

/* ---- inputs built in memory ------------------------------------------- */

static int parse_mem(const char *buf, size_t len, nsb_profile_opener opener,
		     struct nsb_profile **ret, struct nsb_error *e)
{
	FILE *f = fmemopen((void *)(uintptr_t)buf, len, "r");
	cr_assert(f != NULL);
	int r = nsb_profile_parse(f, "mem.profile", opener, NULL, ret, e);
	fclose(f);
	return r;
}

Test(profile_invalid, file_too_large)
{
	/* 2622 lines of 100 bytes: byte 262144 is the 45th of line 2622. */
	size_t len = 2622 * 100;
	char *buf = malloc(len);
	cr_assert(buf != NULL);
	for (size_t i = 0; i < len; i += 100) {
		memset(buf + i, 'x', 99);
		buf[i] = '#';
		buf[i + 99] = '\n';
	}
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};
	int r = parse_mem(buf, len, NULL, &p, &e);
	free(buf);
	cr_assert(eq(int, r, -EINVAL));
	expect_streq(e.message, "mem.profile:2622:45: profile is larger than 262144 bytes");
}

Test(profile_invalid, nul_byte)
{
	static const char buf[] = "default allow\nre\0ad errno EPERM\n";
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};
	int r = parse_mem(buf, sizeof(buf) - 1, NULL, &p, &e);
	cr_assert(eq(int, r, -EINVAL));
	expect_streq(e.message, "mem.profile:2:3: NUL byte in profile");
}

Test(profile_invalid, include_without_opener)
{
	static const char buf[] = "default allow\ninclude groups\n";
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};
	int r = parse_mem(buf, sizeof(buf) - 1, NULL, &p, &e);
	cr_assert(eq(int, r, -EINVAL));
	expect_streq(e.message,
		     "mem.profile:2:9: cannot include 'groups': includes are not available here");
}

Test(profile_invalid, file_exactly_at_limit_is_accepted)
{
	size_t len = NSB_PROFILE_MAX_FILE_SIZE;
	char *buf = malloc(len);
	cr_assert(buf != NULL);
	memset(buf, '\n', len);
	memcpy(buf, "default allow\n", 14);
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};
	int r = parse_mem(buf, len, NULL, &p, &e);
	free(buf);
	cr_assert(eq(int, r, 0), "%s", e.message);
	nsb_profile_free(p);
}

/* ---- valid profiles ----------------------------------------------------- */

Test(profile_valid, minimal)
{
	struct nsb_profile *p = expect_ok("ok-minimal");
	cr_expect(p->has_default == true);
	cr_expect(eq(int, p->default_action.kind, NSB_ACTION_ALLOW));
	cr_expect(eq(sz, p->n_rules, 0));
	cr_expect(p->has_badarch == false);
	nsb_profile_free(p);
}

Test(profile_valid, comments_blank_lines_crlf_and_tabs)
{
	struct nsb_profile *p = expect_ok("ok-comments");
	cr_expect(eq(int, p->default_action.kind, NSB_ACTION_ERRNO));
	cr_expect(eq(int, p->default_action.errno_value, EPERM));
	cr_assert(eq(sz, p->n_rules, 1));
	cr_expect(eq(int, p->rules[0].nr, SYS_read));
	cr_expect(eq(u32, p->rules[0].origin.line, 4));
	cr_expect(eq(u32, p->rules[0].origin.col, 2));
	nsb_profile_free(p);
}

Test(profile_valid, every_action)
{
	struct nsb_profile *p = expect_ok("ok-actions");
	char buf[32];
	static const struct {
		int nr;
		const char *text;
	} want[] = {{SYS_read, "allow"}, {SYS_write, "errno EPERM"},   {SYS_openat, "log"},
		    {SYS_close, "trap"}, {SYS_getpid, "errno ENOSYS"}, {SYS_kill, "allow"}};

	cr_assert(eq(sz, p->n_rules, ARRAY_SIZE(want)));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		cr_expect(eq(int, p->rules[i].nr, want[i].nr));
		cr_assert(eq(int, nsb_action_format(&p->rules[i].action, buf, sizeof(buf)), 0));
		expect_streq(buf, want[i].text);
	}
	nsb_action_format(&p->default_action, buf, sizeof(buf));
	expect_streq(buf, "kill");
	expect_streq(p->rules[5].name, "kill");
	nsb_profile_free(p);
}

Test(profile_valid, every_operator)
{
	struct nsb_profile *p = expect_ok("ok-ops");
	static const struct {
		unsigned arg;
		enum nsb_cmp op;
		uint64_t value;
	} want[] = {{0, NSB_CMP_EQ, 1}, {1, NSB_CMP_NE, 2}, {2, NSB_CMP_LT, 3},
		    {0, NSB_CMP_LE, 4}, {3, NSB_CMP_GT, 5}, {4, NSB_CMP_GE, 6}};

	cr_assert(eq(sz, p->n_rules, ARRAY_SIZE(want)));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		cr_assert(eq(u32, p->rules[i].n_conds, 1));
		cr_expect(eq(u32, p->rules[i].conds[0].arg, want[i].arg));
		cr_expect(eq(int, p->rules[i].conds[0].op, want[i].op));
		cr_expect(eq(u64, p->rules[i].conds[0].value, want[i].value));
	}
	nsb_profile_free(p);
}

Test(profile_valid, masked_compare_with_named_constant)
{
	struct nsb_profile *p = expect_ok("ok-masked");
	cr_assert(eq(sz, p->n_rules, 1));
	const struct nsb_cond *c = &p->rules[0].conds[0];
	cr_expect(eq(int, p->rules[0].nr, SYS_ioctl));
	cr_expect(eq(u32, c->arg, 1));
	cr_expect(eq(int, c->op, NSB_CMP_MASKED_EQ));
	cr_expect(eq(u64, c->mask, 0xffffffffu));
	cr_expect(eq(u64, c->value, 0x5412));
	nsb_profile_free(p);
}

Test(profile_valid, or_of_constants_and_numbers)
{
	struct nsb_profile *p = expect_ok("ok-or-values");
	cr_assert(eq(sz, p->n_rules, 1));
	cr_expect(eq(u64, p->rules[0].conds[0].mask, 0x10020001));
	cr_expect(eq(u64, p->rules[0].conds[0].value, 0x10000000));
	nsb_profile_free(p);
}

Test(profile_valid, nested_groups_expand)
{
	struct nsb_profile *p = expect_ok("ok-groups");
	const struct nsb_group *b = nsb_profile_group(p, "@b");
	cr_assert(b != NULL);
	cr_expect(eq(sz, b->n_nrs, 3));
	cr_expect(eq(sz, p->n_rules, 3));
	cr_expect(nsb_profile_group(p, "@nope") == NULL);
	nsb_profile_free(p);
}

Test(profile_valid, duplicates_with_one_action_merge)
{
	struct nsb_profile *p = expect_ok("ok-dedup");
	cr_expect(eq(sz, p->n_rules, 2));
	nsb_profile_free(p);
}

Test(profile_valid, include_defines_groups)
{
	struct nsb_profile *p = expect_ok("ok-include");
	cr_expect(eq(sz, p->n_rules, 2));
	cr_assert(eq(sz, p->n_files, 2));
	expect_streq(p->files[1], "ok-include-child.profile");
	expect_streq(p->rules[0].origin.file, "ok-include.profile");
	cr_expect(eq(u32, p->rules[0].origin.line, 3));
	nsb_profile_free(p);
}

Test(profile_valid, diamond_include_reads_shared_file_once)
{
	struct nsb_profile *p = expect_ok("ok-diamond");
	cr_expect(eq(sz, p->n_files, 4));
	cr_assert(eq(sz, p->n_rules, 1));
	cr_expect(eq(int, p->rules[0].nr, SYS_syslog));
	nsb_profile_free(p);
}

Test(profile_valid, include_by_relative_path)
{
	struct nsb_profile *p = expect_ok("ok-include-path");
	cr_assert(eq(sz, p->n_rules, 1));
	cr_expect(eq(int, p->rules[0].nr, SYS_acct));
	expect_streq(p->files[1], "sub/inner.profile");
	nsb_profile_free(p);
}

Test(profile_valid, badarch_directive)
{
	struct nsb_profile *p = expect_ok("ok-badarch");
	cr_expect(p->has_badarch == true);
	cr_expect(eq(int, p->badarch_action.kind, NSB_ACTION_KILL));
	nsb_profile_free(p);
}

Test(profile_valid, unmapped_ids_directive_and_new_constants)
{
	struct nsb_profile *p = expect_ok("ok-unmapped-ids");
	cr_expect(p->has_unmapped_ids == true);
	cr_expect(eq(int, p->unmapped_ids_action.kind, NSB_ACTION_ERRNO));
	cr_expect(eq(int, p->unmapped_ids_action.errno_value, EPERM));
	cr_expect(eq(u32, p->unmapped_ids_origin.line, 2));
	cr_assert(eq(sz, p->n_rules, 4));
	/* S_ISUID|S_ISGID, F_SETLEASE, SOCK_PACKET, O_CREAT: the kernel's values. */
	cr_expect(eq(u64, p->rules[0].conds[0].mask, 06000));
	cr_expect(eq(u64, p->rules[0].conds[0].value, 04000));
	cr_expect(eq(u64, p->rules[1].conds[0].value, 1024));
	cr_expect(eq(u64, p->rules[2].conds[1].value, 10));
	cr_expect(eq(u64, p->rules[3].conds[0].value, 0100));
	cr_expect(eq(u64, p->rules[3].conds[1].value, 02000));
	nsb_profile_free(p);

	/* Without the directive there is no such filter. */
	p = expect_ok("ok-badarch");
	cr_expect(p->has_unmapped_ids == false);
	nsb_profile_free(p);
}

Test(profile_valid, last_line_without_newline)
{
	struct nsb_profile *p = expect_ok("ok-no-newline");
	cr_expect(eq(sz, p->n_rules, 1));
	nsb_profile_free(p);
}

Test(profile_valid, six_conditions)
{
	struct nsb_profile *p = expect_ok("ok-six-args");
	cr_assert(eq(sz, p->n_rules, 1));
	cr_assert(eq(u32, p->rules[0].n_conds, 6));
	for (unsigned i = 0; i < 6; i++) {
		cr_expect(eq(u32, p->rules[0].conds[i].arg, i));
		cr_expect(eq(u64, p->rules[0].conds[i].value, i));
	}
	nsb_profile_free(p);
}

Test(profile_valid, conditional_and_unconditional_with_one_action)
{
	struct nsb_profile *p = expect_ok("ok-uncond-and-cond");
	cr_expect(eq(sz, p->n_rules, 2));
	nsb_profile_free(p);
}

Test(profile_valid, errno_zero)
{
	struct nsb_profile *p = expect_ok("ok-errno-zero");
	cr_assert(eq(sz, p->n_rules, 1));
	cr_expect(eq(int, p->rules[0].action.kind, NSB_ACTION_ERRNO));
	cr_expect(eq(int, p->rules[0].action.errno_value, 0));
	nsb_profile_free(p);
}

Test(profile_valid, leading_underscore_syscall)
{
	struct nsb_profile *p = expect_ok("ok-underscore");
	cr_assert(eq(sz, p->n_rules, 1));
	cr_expect(eq(int, p->rules[0].nr, SYS__sysctl));
	nsb_profile_free(p);
}

Test(profile_valid, action_format_unknown_errno_number)
{
	struct nsb_action a = {NSB_ACTION_ERRNO, 4000};
	char buf[32];
	cr_assert(eq(int, nsb_action_format(&a, buf, sizeof(buf)), 0));
	expect_streq(buf, "errno 4000");
	cr_expect(eq(int, nsb_action_format(&a, buf, 4), -ENAMETOOLONG));
}
