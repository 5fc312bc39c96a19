// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * allow / ask / deny through the real binary (issue 17): --check's verdict
 * and approval_id, a held run (exit 123, status needs_approval, nothing
 * created), the approved run that really runs, and every misuse of
 * --approved: a wrong id, the id of a changed request (argv, bind, env,
 * network), a malformed id.  As root and as the unprivileged user.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

/* Projects under /var/tmp, as in test_gate.c: /tmp is the sandbox's own. */
__attribute__((constructor)) static void approval_tmpdir(void)
{
	setenv("NSBOX_ITEST_TMPDIR", "/var/tmp", 1);
}

static const struct itest_opts gate_opts = {.gate = true};

#define RUN(r, ...) itest_run(&itest_cur, &gate_opts, ITEST_ARGV(__VA_ARGS__), (r))

#define POLICY                                                \
	"ask exec touch : creates files in the workspace\n"   \
	"ask argv git push : publishes commits to a remote\n" \
	"ask side-effect network : reaches hosts outside\n"

static const char wrong_id[] = "00000000000000000000000000000000000000000000000000000000000000ff";

static char *jget(const char *json, const char *path)
{
	static char ring[8][8192];
	static unsigned next;
	char *buf = ring[next++ % 8];

	if (itest_json_get(json, path, buf, sizeof(ring[0])) == ITEST_JSON_MISSING)
		snprintf(buf, sizeof(ring[0]), "(missing)");
	return buf;
}

static void make_project(void)
{
	itest_mkdir(&itest_cur, "out");
	itest_write(&itest_cur, "p.conf", POLICY);
}

static bool exists(const char *rel)
{
	struct stat st;
	return lstat(itest_path(&itest_cur, rel), &st) == 0;
}

static bool is_hex64(const char *s)
{
	return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

/* The approval_id --check prints for touch out/NAME (extra options first). */
static void check_id(const char *extra, const char *name, char id[65])
{
	struct itest_run r;
	char file[64];

	snprintf(file, sizeof(file), "out/%s", name);
	if (extra)
		RUN(&r, "--policy", "p.conf", "--rw", "out", extra, "--check", "--", "touch", file);
	else
		RUN(&r, "--policy", "p.conf", "--rw", "out", "--check", "--", "touch", file);
	ITEST_ASSERT_EXIT(&r, 123);
	ITEST_EXPECT_STR(&r, jget(r.out, "verdict"), "ask");
	snprintf(id, 65, "%s", jget(r.out, "approval.approval_id"));
	cr_assert(is_hex64(id), "approval_id '%s'%s", id, itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(approval, check_says_allow_ask_or_deny)
{
	struct itest_run r;

	make_project();
	RUN(&r, "--policy", "p.conf", "--check", "--", "true");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, jget(r.out, "verdict"), "allow");
	ITEST_EXPECT_STR(&r, jget(r.out, "allowed"), "true");
	ITEST_EXPECT_STR(&r, jget(r.out, "approval.needed"), "false");
	ITEST_EXPECT_STR(&r, jget(r.out, "approval.rule"), "null");
	itest_run_close(&r);

	RUN(&r, "--policy", "p.conf", "--rw", "out", "--check", "--", "touch", "out/m");
	ITEST_EXPECT_EXIT(&r, 123);
	ITEST_EXPECT_STR(&r, jget(r.out, "verdict"), "ask");
	ITEST_EXPECT_STR(&r, jget(r.out, "allowed"), "false");
	ITEST_EXPECT_STR(&r, jget(r.out, "exit_code"), "123");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.allowed"), "true");
	ITEST_EXPECT_STR(&r, jget(r.out, "approval.rule"), "ask exec touch");
	ITEST_EXPECT_STR(&r, jget(r.out, "approval.consequence"), "creates files in the workspace");
	ITEST_EXPECT_STR(&r, jget(r.out, "approval.needed"), "true");
	ITEST_EXPECT_STR(&r, jget(r.out, "approval.approved"), "false");
	cr_expect(is_hex64(jget(r.out, "approval.approval_id")), "%s", itest_ctx(&r));
	cr_expect(false == exists("out/m"), "--check ran the command");
	itest_run_close(&r);

	/* A side effect the configuration implies, declared or not. */
	RUN(&r, "--policy", "p.conf", "--share-net", "--check", "--", "true");
	ITEST_EXPECT_EXIT(&r, 123);
	ITEST_EXPECT_STR(&r, jget(r.out, "verdict"), "ask");
	ITEST_EXPECT_STR(&r, jget(r.out, "approval.rule"), "ask side-effect network");
	itest_run_close(&r);

	/* Deny rules win over ask. */
	RUN(&r, "--policy", "p.conf", "--deny-exec", "touch", "--rw", "out", "--check", "--",
	    "touch", "out/m");
	ITEST_EXPECT_EXIT(&r, 123);
	ITEST_EXPECT_STR(&r, jget(r.out, "verdict"), "deny");
	ITEST_EXPECT_STR(&r, jget(r.out, "approval"), "null");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.rule"), "exec.denylist");
	itest_run_close(&r);

	/* The same request twice: the same id. */
	char a[65], b[65];
	check_id(NULL, "m", a);
	check_id(NULL, "m", b);
	ITEST_EXPECT_STR(&r, a, b);
}

/* Held: 123, needs_approval, the rule, one line and a hint, nothing made. */
static void expect_held(const struct itest_run *r, const char *given)
{
	ITEST_EXPECT_EXIT(r, 123);
	ITEST_EXPECT_STR(r, itest_rec(r, "status"), "needs_approval");
	ITEST_EXPECT_STR(r, itest_rec(r, "exit_code"), "null");
	ITEST_EXPECT_STR(r, itest_rec(r, "denied"), "false");
	ITEST_EXPECT_STR(r, itest_rec(r, "enforced"), "null");
	ITEST_EXPECT_STR(r, itest_rec(r, "approval.rule"), "ask exec touch");
	ITEST_EXPECT_STR(r, itest_rec(r, "approval.consequence"), "creates files in the workspace");
	ITEST_EXPECT_STR(r, itest_rec(r, "approval.needed"), "true");
	ITEST_EXPECT_STR(r, itest_rec(r, "approval.approved"), "false");
	ITEST_EXPECT_STR(r, itest_rec(r, "approval.given"), given ? given : "null");
	cr_expect(is_hex64(itest_rec(r, "approval.approval_id")), "%s", itest_ctx(r));
	ITEST_EXPECT_CONTAINS(r, r->err, "nsbox: needs approval: ask exec touch: ");
	ITEST_EXPECT_CONTAINS(r, r->err, "rerun it with --approved ID");
	ITEST_EXPECT_CONTAINS(r, itest_rec(r, "reason"),
			      given ? "does not match this request" : "a human must approve");
	ITEST_EXPECT_STR(r, r->out, "");
}

NSB_ITEST(approval, unapproved_run_is_held)
{
	struct itest_run r;

	make_project();
	RUN(&r, "--policy", "p.conf", "--rw", "out", "--", "touch", "out/m");
	expect_held(&r, NULL);
	cr_expect(false == exists("out/m"), "a held command ran%s", itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(approval, approved_run_runs)
{
	struct itest_run r;
	char id[65];

	make_project();
	check_id(NULL, "m", id);
	/* --check with the id: the run would go ahead */
	RUN(&r, "--policy", "p.conf", "--rw", "out", "--approved", id, "--check", "--", "touch",
	    "out/m");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, jget(r.out, "verdict"), "ask");
	ITEST_EXPECT_STR(&r, jget(r.out, "allowed"), "true");
	ITEST_EXPECT_STR(&r, jget(r.out, "approval.approved"), "true");
	ITEST_EXPECT_STR(&r, jget(r.out, "approval.approval_id"), id);
	itest_run_close(&r);
	cr_expect(false == exists("out/m"), "--check ran the command");

	RUN(&r, "--policy", "p.conf", "--rw", "out", "--approved", id, "--", "touch", "out/m");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "approval.rule"), "ask exec touch");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "approval.approved"), "true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "approval.approval_id"), id);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "approval.given"), id);
	/* The kernel's word: the file is there, made by the caller's uid. */
	struct stat st;
	cr_assert(lstat(itest_path(&itest_cur, "out/m"), &st) == 0, "%s", itest_ctx(&r));
	cr_expect(eq(u32, st.st_uid, itest_cur.uid));
	itest_run_close(&r);

	/* An upper-case id is the same id. */
	for (char *c = id; *c; c++)
		if (*c >= 'a' && *c <= 'f')
			*c = (char)(*c - 'a' + 'A');
	RUN(&r, "--policy", "p.conf", "--rw", "out", "--approved", id, "--", "touch", "out/m");
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
}

NSB_ITEST(approval, misuse_is_refused)
{
	struct itest_run r;
	char id[65];

	make_project();
	/* a wrong id */
	RUN(&r, "--policy", "p.conf", "--rw", "out", "--approved", wrong_id, "--", "touch",
	    "out/m");
	expect_held(&r, wrong_id);
	itest_run_close(&r);

	/* the id of another request: argv, a bind, the env, the network */
	check_id(NULL, "m", id);
	RUN(&r, "--policy", "p.conf", "--rw", "out", "--approved", id, "--", "touch", "out/n");
	expect_held(&r, id);
	cr_expect(false == exists("out/n"), "a changed argv ran%s", itest_ctx(&r));
	itest_run_close(&r);
	itest_mkdir(&itest_cur, "other");
	RUN(&r, "--policy", "p.conf", "--rw", "out", "--ro", "other", "--approved", id, "--",
	    "touch", "out/m");
	expect_held(&r, id);
	itest_run_close(&r);
	RUN(&r, "--policy", "p.conf", "--rw", "out", "--env", "X=1", "--approved", id, "--",
	    "touch", "out/m");
	expect_held(&r, id);
	itest_run_close(&r);
	RUN(&r, "--policy", "p.conf", "--rw", "out", "--allow-net", "example.org", "--approved", id,
	    "--", "touch", "out/m");
	ITEST_EXPECT_EXIT(&r, 123);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "needs_approval");
	itest_run_close(&r);
	/* the policy changed under the approval */
	itest_write(&itest_cur, "p.conf", POLICY "deny-exec nothing-really\n");
	RUN(&r, "--policy", "p.conf", "--rw", "out", "--approved", id, "--", "touch", "out/m");
	expect_held(&r, id);
	itest_run_close(&r);
	cr_expect(false == exists("out/m"), "a changed request ran");

	/* a malformed id: a usage error */
	RUN(&r, "--policy", "p.conf", "--rw", "out", "--approved", "abc", "--", "touch", "out/m");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_CONTAINS(&r, r.err, "--approved 'abc': not 64 hexadecimal digits");
	itest_run_close(&r);
}

/* --approved on a command no ask rule holds: it runs; the record says
 * whether the id matched. */
NSB_ITEST(approval, approved_on_an_allowed_command)
{
	struct itest_run r;

	make_project();
	RUN(&r, "--policy", "p.conf", "--approved", wrong_id, "--", "true");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "approval.needed"), "false");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "approval.approved"), "false");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "approval.rule"), "null");
	itest_run_close(&r);
	/* without either, the record has no approval member */
	RUN(&r, "--policy", "p.conf", "--", "true");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "approval"), "(missing)");
	itest_run_close(&r);
}
