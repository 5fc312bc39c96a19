// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * allow / ask / deny (issue 17): the policy's ask rules (parse, errors with
 * file:line:column, limits, print -> parse round trip), the gate's matching
 * of exec and argv rules at every command position, and the approval id
 * (core/approval.h): stable, blind to the order of what commutes, and
 * changed by every field that decides what runs.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/approval.h"
#include "core/cli.h"
#include "core/result.h"
#include "gate/gate.h"
#include "gate/gate_which.h"
#include "gate/policy.h"
#include "gate/policy_ask.h"
#include "gate_fakefs.h"
#include "unit.h"

static int parse(const char *text, struct nsb_gate_policy *p, struct nsb_error *e)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	cr_assert(f != NULL);
	nsb_error_clear(e);
	int r = nsb_policy_parse(f, "t.policy", p, e);
	fclose(f);
	return r;
}

static char *print(const struct nsb_gate_policy *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	cr_assert(out != NULL);
	cr_assert(eq(int, nsb_policy_print(out, p, NULL), 0));
	fclose(out);
	return text;
}

/* ---- the policy's ask lines ----------------------------------------------- */

static const char ask_policy[] = "ask argv git push : publishes commits to a remote\n"
				 "  ask\texec npm\n"
				 "ask side-effect network :   talks to hosts outside  \n"
				 "ask exec mkfs.*\n"
				 "ask argv npm publish : uploads a package\n";

Test(approval, ask_rules_parse)
{
	struct nsb_gate_policy p;
	struct nsb_error e;
	nsb_gate_policy_init(&p);
	cr_assert(eq(int, parse(ask_policy, &p, &e), 0), "%s", e.message);
	cr_assert(p.ask != NULL);
	cr_assert(eq(sz, p.ask->n, 5));
	const struct nsb_ask_rule *r = &p.ask->rule[0];
	cr_expect(eq(int, r->kind, NSB_ASK_ARGV));
	cr_expect(eq(sz, r->n_words, 2));
	expect_str(r->words[0], "git");
	expect_str(r->words[1], "push");
	expect_str(r->consequence, "publishes commits to a remote");
	cr_expect(eq(int, p.ask->rule[1].kind, NSB_ASK_EXEC));
	cr_expect(p.ask->rule[1].consequence == NULL);
	cr_expect(eq(int, p.ask->rule[2].kind, NSB_ASK_SIDE_EFFECT));
	expect_str(p.ask->rule[2].consequence, "talks to hosts outside");
	char text[NSB_ASK_RULE_TEXT_MAX];
	nsb_ask_rule_text(&p.ask->rule[4], text, sizeof(text));
	expect_str(text, "ask argv npm publish");
	nsb_gate_policy_free(&p);
	cr_expect(p.ask == NULL);
}

Test(approval, ask_rules_round_trip)
{
	struct nsb_gate_policy p, q;
	struct nsb_error e;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_assert(eq(int, parse(ask_policy, &p, &e), 0), "%s", e.message);
	_cleanup_free_ char *text = print(&p);
	cr_expect(strstr(text, "\nask argv git push : publishes commits to a remote\n") != NULL,
		  "%s", text);
	cr_expect(strstr(text, "\nask exec npm\n") != NULL);
	cr_expect(strstr(text, "\nask side-effect network : talks to hosts outside\n") != NULL);

	nsb_gate_policy_init(&q);
	cr_assert(eq(int, parse(text, &q, &e), 0), "%s", e.message);
	_cleanup_free_ char *again = print(&q);
	expect_str_at(again, text, "second print");
	nsb_gate_policy_free(&p);
	nsb_gate_policy_free(&q);
}

Test(approval, policy_without_ask_rules_allocates_none)
{
	struct nsb_gate_policy p;
	struct nsb_error e;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_assert(eq(int, parse("deny-exec x\n", &p, &e), 0));
	cr_expect(p.ask == NULL);
	nsb_gate_policy_free(&p);
}

struct bad {
	const char *text;
	int err;
	const char *message;
};

static const struct bad bad_cases[] = {
	{"ask\n", EINVAL,
	 "t.policy:1:4: 'ask' needs exec NAME, argv NAME WORD... or side-effect EFFECT"},
	{"ask : x\n", EINVAL,
	 "t.policy:1:5: 'ask' needs exec NAME, argv NAME WORD... or side-effect EFFECT"},
	{"ask run git\n", EINVAL,
	 "t.policy:1:5: 'ask' takes exec NAME, argv NAME WORD... or side-effect EFFECT"},
	{"ask exec\n", EINVAL, "t.policy:1:9: the rule needs a NAME"},
	{"ask exec git push\n", EINVAL,
	 "t.policy:1:18: 'exec' takes one NAME; 'argv' takes NAME WORD..."},
	{"ask exec /usr/bin/git\n", EINVAL,
	 "t.policy:1:10: NAME must not contain '/': give the basename"},
	{"ask argv g*t push\n", EINVAL, "t.policy:1:11: '*' may only end a NAME"},
	{"ask side-effect\n", EINVAL, "t.policy:1:16: 'side-effect' needs an EFFECT"},
	{"ask side-effect Network\n", EINVAL,
	 "t.policy:1:17: EFFECT is a word of a-z and '_': network, writes_workspace, read_only, ..."},
	{"ask side-effect network read_only\n", EINVAL,
	 "t.policy:1:34: 'side-effect' takes one EFFECT"},
	{"ask exec git :\n", EINVAL,
	 "t.policy:1:15: ':' needs a CONSEQUENCE after it (or leave both out)"},
	{"ask exec git : a\tb\n", EINVAL, "t.policy:1:17: control character in the CONSEQUENCE"},
	{"# ok\nask exec git\nask exec\n", EINVAL, "t.policy:3:9: the rule needs a NAME"},
};

Test(approval, every_ask_error_has_its_message)
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

Test(approval, ask_limits)
{
	struct nsb_gate_policy p;
	struct nsb_error e;
	char line[600];

	/* 64 rules, then one too many */
	nsb_gate_policy_init(&p);
	for (int i = 0; i < NSB_ASK_MAX_RULES; i++) {
		snprintf(line, sizeof(line), "ask exec tool%d\n", i);
		cr_assert(eq(int, parse(line, &p, &e), 0), "%s", e.message);
	}
	cr_expect(eq(int, parse("ask exec one-more\n", &p, &e), -E2BIG));
	expect_str(e.message, "t.policy:1:5: too many ask rules (at most 64)");
	nsb_gate_policy_free(&p);

	/* a consequence of 200 bytes, then 201 */
	nsb_gate_policy_init(&p);
	snprintf(line, sizeof(line), "ask exec git : %0200d\n", 7);
	cr_expect(eq(int, parse(line, &p, &e), 0), "%s", e.message);
	snprintf(line, sizeof(line), "ask exec git : %0201d\n", 7);
	cr_expect(eq(int, parse(line, &p, &e), -EINVAL));
	expect_str(e.message, "t.policy:1:216: CONSEQUENCE is longer than 200 bytes");

	/* 16 words, then 17 */
	cr_expect(eq(int, parse("ask argv a 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", &p, &e), 0));
	cr_expect(eq(int, parse("ask argv a 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", &p, &e),
		     -EINVAL));
	expect_str(e.message, "t.policy:1:48: an argv rule has at most 16 words");
	nsb_gate_policy_free(&p);
}

/* ---- the gate's matching -------------------------------------------------- */

#define PROJ "/home/u/proj"

static const struct fake_ent fake[] = {
	FAKE_DIR("/home"),
	FAKE_DIR("/home/u"),
	FAKE_DIR(PROJ),
	FAKE_DIR("/usr"),
	FAKE_DIR("/usr/bin"),
	FAKE_FILE("/usr/bin/git"),
	FAKE_FILE("/usr/bin/env"),
	FAKE_FILE("/usr/bin/npm"),
	FAKE_FILE("/usr/bin/ls"),
	FAKE_FILE("/usr/bin/nice"),
	FAKE_LINK("/usr/bin/g", "git"),
};
static const char *const fake_path[] = {"/usr/bin", NULL};
static struct fake_fs fs = {fake, sizeof(fake) / sizeof(fake[0]), fake_path, 0};
static const struct nsb_gate_root roots[] = {{PROJ, PROJ, false}};

/* The verdict on argv under the policy text (after the default). */
static void judge(const char *policy, const char *const *args, struct nsb_gate_verdict *v)
{
	struct nsb_gate_policy p;
	struct nsb_error e;
	struct nsb_fs_ops ops = fake_fs_ops(&fs);
	char *argv[16];

	ops.exec_probe = fake_exec_probe;
	int argc = 0;

	for (; args[argc]; argc++)
		argv[argc] = (char *)(uintptr_t)args[argc];
	argv[argc] = NULL;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_assert(eq(int, parse(policy, &p, &e), 0), "%s", e.message);
	struct nsb_gate_input in = {
		.argv = argv,
		.argc = argc,
		.cwd = PROJ,
		.roots = roots,
		.n_roots = 1,
		.fs = &ops,
		.path_list = "/usr/bin",
	};
	char real[PATH_MAX];
	if (nsb_gate_resolve(&in, NULL, argv[0], real, sizeof(real)) == 0) {
		in.cmd_path = real;
		in.cmd_real_base = nsb_gate_basename(real);
	}
	cr_assert(eq(int, nsb_gate_check(&p, &in, v), 0));
	nsb_gate_policy_free(&p);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

Test(approval, gate_notes_exec_and_argv_rules)
{
	static const char pol[] = "ask exec npm\nask argv git push\nask side-effect network\n";
	const struct {
		const char *const *argv;
		int rule; /* 1 + index, 0: none */
		int at;
	} cases[] = {
		{ARGS("git", "push"), 2, 0},
		{ARGS("git", "-C", "sub", "push", "origin"), 2, 0},
		{ARGS("/usr/bin/git", "push"), 2, 0},
		{ARGS("g", "push"), 2, 0}, /* by the name the link resolves to */
		{ARGS("env", "git", "push"), 2, 1},
		{ARGS("nice", "-n", "5", "git", "push"), 2, 3},
		{ARGS("git", "pull"), 0, 0},
		{ARGS("git"), 0, 0},
		{ARGS("npm", "install"), 1, 0},
		{ARGS("env", "npm"), 1, 1},
		{ARGS("ls", "push"), 0, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nsb_gate_verdict v;
		judge(pol, cases[i].argv, &v);
		cr_expect(v.allowed, "case %zu: %s", i, v.reason);
		cr_expect(eq(int, v.ask_rule, cases[i].rule), "case %zu", i);
		if (cases[i].rule)
			cr_expect(eq(int, v.ask_argv_index, cases[i].at), "case %zu", i);
	}
}

Test(approval, deny_wins_over_ask)
{
	struct nsb_gate_verdict v;
	judge("ask exec git\ndeny-exec git\n", ARGS("git", "status"), &v);
	cr_expect(v.allowed == false);
	expect_str(v.rule, "exec.denylist");
}

Test(approval, earliest_rule_wins)
{
	struct nsb_gate_verdict v;
	judge("ask argv git push : first\nask exec git : second\n", ARGS("git", "push"), &v);
	cr_expect(eq(int, v.ask_rule, 1));
	judge("ask exec git : first\nask argv git push : second\n", ARGS("git", "push"), &v);
	cr_expect(eq(int, v.ask_rule, 1));
}

Test(approval, side_effect_rules_are_the_fronts)
{
	struct nsb_gate_policy p;
	struct nsb_error e;
	size_t at = 99;
	const char *eff[] = {NULL, "writes_workspace"};

	nsb_gate_policy_init(&p);
	cr_assert(eq(int,
		     parse("ask exec x\nask side-effect network\nask side-effect "
			   "writes_workspace\n",
			   &p, &e),
		     0));
	const struct nsb_ask_rule *r = nsb_ask_side_effect(&p, eff, 2, &at);
	cr_assert(r != NULL);
	cr_expect(eq(sz, at, 2));
	eff[1] = "read_only";
	cr_expect(nsb_ask_side_effect(&p, eff, 2, &at) == NULL);
	nsb_gate_policy_free(&p);
}

/* ---- the approval id ------------------------------------------------------ */

static const char *fake_env(const char *name)
{
	return strcmp(name, "TOKEN") == 0 ? "abc" : NULL;
}

/* The id of the options in args (argv form, after "nsbox"). */
static void id_of(const char *const *args, char out[NSB_SHA256_HEX])
{
	static struct nsb_config c;
	struct nsb_error e = {0};
	char *argv[64] = {(char *)(uintptr_t) "nsbox"};
	int argc = 1;

	for (; args[argc - 1]; argc++)
		argv[argc] = (char *)(uintptr_t)args[argc - 1];
	memset(&c, 0, sizeof(c));
	cr_assert(eq(int, nsb_cli_parse(argc, argv, &c, &e), 0), "%s", e.message);
	struct nsb_approval_in in = {
		.cfg = &c,
		.cwd = "/home/u/proj",
		.policy_sha256 = "00",
		.seccomp_sha256 = "11",
		.getenv = fake_env,
	};
	cr_assert(eq(int, nsb_approval_id(&in, out), 0));
	cr_expect(nsb_approval_id_valid(out));
}

#define BASE "--ro", "/data", "--rw", "out", "--env", "A=1", "--memory", "64M"

Test(approval, id_is_stable)
{
	char a[NSB_SHA256_HEX], b[NSB_SHA256_HEX];
	id_of(ARGS(BASE, "--", "git", "push"), a);
	id_of(ARGS(BASE, "--", "git", "push"), b);
	expect_str(a, b);
	cr_expect(eq(sz, strlen(a), 64));
}

/* Options that do not change what runs leave the id alone. */
Test(approval, id_ignores_what_does_not_run)
{
	char a[NSB_SHA256_HEX], b[NSB_SHA256_HEX];
	id_of(ARGS(BASE, "--", "git", "push"), a);
	const char *const *same[] = {
		ARGS("--result-fd", "7", BASE, "--", "git", "push"),
		ARGS("--quiet", BASE, "--", "git", "push"),
		ARGS("--check", BASE, "--", "git", "push"),
		ARGS(BASE, "--approved",
		     "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "--",
		     "git", "push"),
		ARGS(BASE, "--policy", "/some/file", "--", "git", "push"),
		/* the order of lists whose order does not matter */
		ARGS("--env", "B=2", BASE, "--", "git", "push"),
	};
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		id_of(same[i], b);
		if (i == 5) {
			/* B=2 is a new entry: compare with it first and last */
			char c[NSB_SHA256_HEX];
			id_of(ARGS(BASE, "--env", "B=2", "--", "git", "push"), c);
			expect_str_at(b, c, "env order");
			continue;
		}
		expect_str_at(b, a, same[i][0]);
	}
	char x[NSB_SHA256_HEX], y[NSB_SHA256_HEX];
	id_of(ARGS("--deny-exec", "a", "--deny-exec", "b", "--allow-net", "x.org", "--allow-net",
		   "y.org", "--mask", "s1", "--mask", "s2", "--", "true"),
	      x);
	id_of(ARGS("--allow-net", "y.org", "--mask", "s2", "--deny-exec", "b", "--allow-net",
		   "x.org", "--deny-exec", "a", "--mask", "s1", "--", "true"),
	      y);
	expect_str_at(x, y, "sets in another order");
	/* entries of one NAME keep their order: the last one wins */
	id_of(ARGS("--env", "A=1", "--env", "A=2", "--", "true"), x);
	id_of(ARGS("--env", "A=2", "--env", "A=1", "--", "true"), y);
	cr_expect(strcmp(x, y) != 0, "env A=1 A=2 vs A=2 A=1");
}

/* Every field that decides what runs changes the id: one option at a time. */
Test(approval, id_changes_with_every_field)
{
	const char *const *variants[] = {
		ARGS(BASE, "--", "git", "push", "--force"),
		ARGS(BASE, "--", "git", "pull"),
		ARGS(BASE, "--ro", "/x", "--", "git", "push"),
		ARGS("--rw", "out", "--ro", "/data", "--env", "A=1", "--memory", "64M", "--", "git",
		     "push"), /* mount order */
		ARGS(BASE, "--ro", "/data:/elsewhere", "--", "git", "push"),
		ARGS(BASE, "--tmpfs", "/scratch", "--", "git", "push"),
		ARGS(BASE, "--tmpfs", "/scratch:2M", "--", "git", "push"),
		ARGS(BASE, "--overlay", "/data", "--", "git", "push"),
		ARGS(BASE, "--overlay", "/data", "--overlay-mode", "commit", "--", "git", "push"),
		ARGS(BASE, "--overlay", "/data", "--overlay-size", "2M", "--", "git", "push"),
		ARGS(BASE, "--overlay", "/data", "--overlay-commit-always", "--", "git", "push"),
		ARGS(BASE, "--overlay", "/data", "--overlay-store", "/var/tmp", "--", "git",
		     "push"),
		ARGS(BASE, "--overlay", "/data", "--overlay-mode", "export:/tmp/e", "--", "git",
		     "push"),
		ARGS(BASE, "--env", "A=2", "--", "git", "push"),
		ARGS(BASE, "--env", "TOKEN", "--", "git", "push"),
		ARGS(BASE, "--env", "UNSET", "--", "git", "push"),
		ARGS(BASE, "--project", "/srv", "--", "git", "push"),
		ARGS(BASE, "--no-project", "--", "git", "push"),
		ARGS(BASE, "--chdir", "/data", "--", "git", "push"),
		ARGS(BASE, "--rw-git", "--", "git", "push"),
		ARGS(BASE, "--no-protect", "--", "git", "push"),
		ARGS(BASE, "--mask", "x", "--", "git", "push"),
		ARGS(BASE, "--no-mask", "--", "git", "push"),
		ARGS(BASE, "--hostname", "h", "--", "git", "push"),
		ARGS(BASE, "--share-net", "--", "git", "push"),
		ARGS(BASE, "--allow-net", "example.org", "--", "git", "push"),
		ARGS(BASE, "--deny-net", "example.org", "--", "git", "push"),
		ARGS(BASE, "--allow-net-range", "10.0.0.0/8", "--", "git", "push"),
		ARGS(BASE, "--allow-net", "example.org", "--proxy-port", "3129", "--", "git",
		     "push"),
		ARGS(BASE, "--pty", "--", "git", "push"),
		ARGS(BASE, "--no-pty", "--", "git", "push"),
		ARGS("--ro", "/data", "--rw", "out", "--env", "A=1", "--memory", "65M", "--", "git",
		     "push"),
		ARGS(BASE, "--pids", "10", "--", "git", "push"),
		ARGS(BASE, "--cpus", "0.5", "--", "git", "push"),
		ARGS(BASE, "--timeout", "5", "--", "git", "push"),
		ARGS(BASE, "--kill-after", "1", "--", "git", "push"),
		ARGS(BASE, "--max-output", "1k", "--", "git", "push"),
		ARGS(BASE, "--capture", "--", "git", "push"),
		ARGS(BASE, "--tmp-size", "2M", "--", "git", "push"),
		ARGS(BASE, "--cgroup-parent", "/sys/fs/cgroup/x", "--", "git", "push"),
		ARGS(BASE, "--require-cgroup", "--", "git", "push"),
		ARGS(BASE, "--deny-exec", "x", "--", "git", "push"),
		ARGS(BASE, "--allow-exec", "x", "--", "git", "push"),
		ARGS(BASE, "--allow-inline-code", "--", "git", "push"),
		ARGS(BASE, "--allow-metachar", "--", "git", "push"),
		ARGS(BASE, "--allow-path", "/opt", "--", "git", "push"),
		ARGS(BASE, "--seccomp", "strict", "--", "git", "push"),
		ARGS(BASE, "--seccomp-export", "/tmp/f", "--", "git", "push"),
		ARGS(BASE, "--seccomp-learn", "/tmp/f", "--", "git", "push"),
		ARGS(BASE, "--isolation", "landlock", "--", "git", "push"),
	};
	size_t n = sizeof(variants) / sizeof(variants[0]);
	char ids[64][NSB_SHA256_HEX];
	cr_assert(n < 63);
	id_of(ARGS(BASE, "--", "git", "push"), ids[n]);
	for (size_t i = 0; i < n; i++) {
		id_of(variants[i], ids[i]);
		for (size_t k = 0; k <= n; k++)
			if (k != i && (k < i || k == n))
				cr_expect(strcmp(ids[i], ids[k]) != 0, "variant %zu = %zu", i, k);
	}
}

/* What the config does not hold: the directory, the policy, the filter,
 * the request's words. */
Test(approval, id_covers_the_facts_handed_in)
{
	static struct nsb_config c;
	char base[NSB_SHA256_HEX], x[NSB_SHA256_HEX];
	char *argv[] = {(char *)(uintptr_t) "nsbox", (char *)(uintptr_t) "--",
			(char *)(uintptr_t) "true", NULL};
	struct nsb_error e = {0};

	cr_assert(eq(int, nsb_cli_parse(3, argv, &c, &e), 0));
	struct nsb_approval_in in = {.cfg = &c, .cwd = "/a", .policy_sha256 = "p"};
	cr_assert(eq(int, nsb_approval_id(&in, base), 0));
	in.cwd = "/b";
	nsb_approval_id(&in, x);
	cr_expect(strcmp(x, base) != 0, "cwd");
	in.cwd = "/a";
	in.policy_sha256 = "q";
	nsb_approval_id(&in, x);
	cr_expect(strcmp(x, base) != 0, "policy");
	in.policy_sha256 = "p";
	in.seccomp_sha256 = "s";
	nsb_approval_id(&in, x);
	cr_expect(strcmp(x, base) != 0, "seccomp");
	in.seccomp_sha256 = NULL;
	const char **fields[] = {&c.request_actor, &c.request_reason, &c.request_side_effect};
	for (size_t i = 0; i < 3; i++) {
		*fields[i] = "x";
		nsb_approval_id(&in, x);
		cr_expect(strcmp(x, base) != 0, "request field %zu", i);
		*fields[i] = NULL;
	}
	nsb_approval_id(&in, x);
	expect_str(x, base);
}

Test(approval, id_syntax)
{
	cr_expect(nsb_approval_id_valid(
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"));
	cr_expect(nsb_approval_id_valid(
		"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef"));
	cr_expect(nsb_approval_id_valid(
			  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde") ==
		  false);
	cr_expect(nsb_approval_id_valid(
			  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0") ==
		  false);
	cr_expect(nsb_approval_id_valid(
			  "0123456789abcdeg0123456789abcdef0123456789abcdef0123456789abcdef") ==
		  false);
	cr_expect(nsb_approval_id_valid("") == false);
	cr_expect(nsb_approval_id_equal(
		"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef",
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"));
	cr_expect(false ==
		  nsb_approval_id_equal(
			  "1123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
			  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"));
}

/* ---- the record ----------------------------------------------------------- */

Test(approval, record_member_and_status)
{
	struct nsb_result r;
	char *out = NULL;
	size_t len = 0;

	nsb_result_init(&r);
	r.status = NSB_STATUS_NEEDS_APPROVAL;
	r.has_approval = true;
	r.approval_rule = "ask argv git push";
	r.approval_consequence = "publishes \"commits\"";
	r.approval_id = "ab";
	r.approval_needed = true;
	r.approval_hint = "rerun";
	cr_assert(eq(int, nsb_result_to_json(&r, &out, &len), 0));
	cr_expect(strstr(out, "\"status\":\"needs_approval\",") != NULL, "%s", out);
	cr_expect(strstr(out,
			 ",\"approval\":{\"rule\":\"ask argv git push\",\"consequence\":"
			 "\"publishes \\\"commits\\\"\",\"approval_id\":\"ab\",\"needed\":true,"
			 "\"approved\":false,\"given\":null,\"hint\":\"rerun\"}}\n") != NULL,
		  "%s", out);
	free(out);
	/* nothing asked, no --approved: no member at all */
	nsb_result_init(&r);
	cr_assert(eq(int, nsb_result_to_json(&r, &out, &len), 0));
	cr_expect(strstr(out, "\"approval\"") == NULL, "%s", out);
	free(out);
}
