// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seccomp refusals in the record (issue 13): the probe makes refused calls
 * on purpose, counts the EPERMs it got itself, and the record's
 * {"kind": "seccomp"} entries must agree, with the caller's pid and comm as
 * seen inside; from threads, from processes, from a payload that exits with
 * calls pending, and in a bounded time for 100000 of them.  `kill` rules end
 * with SIGSYS and reason "seccomp"; `quiet` rules stay out of the record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* The seccomp entry for syscall name in r's "violations", as raw JSON
 * (static buffer); NULL when there is none. */
static const char *entry(const struct itest_run *r, const char *name)
{
	static char buf[2048];
	char needle[96];
	const char *p;
	int depth = 0;
	size_t i = 0;

	if (!r->record)
		return NULL;
	snprintf(needle, sizeof(needle), "{\"kind\":\"seccomp\",\"syscall\":\"%s\"", name);
	p = strstr(r->record, needle);
	if (!p)
		return NULL;
	for (; p[i] && i + 1 < sizeof(buf); i++) {
		buf[i] = p[i];
		if (p[i] == '{')
			depth++;
		else if (p[i] == '}' && --depth == 0) {
			i++;
			break;
		}
	}
	buf[i] = '\0';
	return buf;
}

static long long field(const char *json, const char *path)
{
	char out[64] = "";

	if (!json || itest_json_get(json, path, out, sizeof(out)) != ITEST_JSON_NUMBER)
		return -1;
	return atoll(out);
}

static const char *sfield(const char *json, const char *path)
{
	static char out[64];

	if (!json || itest_json_get(json, path, out, sizeof(out)) != ITEST_JSON_STRING)
		return "(missing)";
	return out;
}

/* The entry of name counts want calls, first made by pid (0: any) named probe. */
static void expect_entry(const struct itest_run *r, const char *name, long long want, int pid)
{
	const char *e = entry(r, name);

	cr_assert(e != NULL, "no seccomp entry for %s%s", name, itest_ctx(r));
	cr_expect(eq(i64, field(e, "count"), want), "%s count%s", name, itest_ctx(r));
	if (pid)
		cr_expect(eq(i64, field(e, "first.pid"), pid), "%s pid%s", name, itest_ctx(r));
	else
		cr_expect(field(e, "first.pid") >= 2, "%s pid%s", name, itest_ctx(r));
	ITEST_EXPECT_STR(r, sfield(e, "first.comm"), "probe");
	ITEST_EXPECT_STR(r, sfield(e, "action"), "errno EPERM");
}

NSB_ITEST(violations, each_refused_call_is_counted_with_its_caller)
{
	struct itest_run r;
	static const char *const names[] = {"mount", "unshare", "keyctl", "ptrace", "bpf"};
	static const int nrs[] = {165, 272, 250, 101, 321};

	ITEST_RUN(&r, "--", "./probe", "refuse", "3");
	ITEST_ASSERT_EXIT(&r, 0);
	for (size_t i = 0; i < 5; i++) {
		char line[64];
		snprintf(line, sizeof(line), "%s EPERM 3\n", names[i]);
		ITEST_EXPECT_CONTAINS(&r, r.out, line);
		/* The payload is pid 2 inside: init is 1. */
		expect_entry(&r, names[i], 3, 2);
		cr_expect(eq(i64, field(entry(&r, names[i]), "nr"), nrs[i]), "%s nr%s", names[i],
			  itest_ctx(&r));
	}
	/* unshare's first argument as the caller passed it. */
	ITEST_EXPECT_CONTAINS(&r, entry(&r, "unshare"), "\"args\":[268435456,");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations_reporting"), "true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations_reporting_reason"), "null");
	ITEST_EXPECT_CONTAINS(&r, r.err, "nsbox: seccomp refused 15 calls: mount x3 (errno EPERM)");
	itest_run_close(&r);
}

NSB_ITEST(violations, quiet_option_hides_the_summary_line_only)
{
	struct itest_run r;

	ITEST_RUN(&r, "--quiet", "--", "./probe", "refuse", "1");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_LACKS(&r, r.err, "seccomp refused");
	expect_entry(&r, "bpf", 1, 2);
	itest_run_close(&r);
}

NSB_ITEST(violations, threads_are_each_answered_and_counted)
{
	struct itest_run r;

	ITEST_RUN(&r, "--quiet", "--", "./probe", "refuse-threads", "8", "500");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "keyctl EPERM 4000\n");
	/* A thread's calls count for its process: pid is the thread group's. */
	expect_entry(&r, "keyctl", 4000, 2);
	itest_run_close(&r);
}

NSB_ITEST(violations, processes_are_each_answered_and_counted)
{
	struct itest_run r;

	ITEST_RUN(&r, "--quiet", "--", "./probe", "refuse-procs", "4", "250");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "ptrace EPERM 1000\n");
	expect_entry(&r, "ptrace", 1000, 0);
	/* Made by a child of the payload, not by the payload itself. */
	cr_expect(field(entry(&r, "ptrace"), "first.pid") > 2, "%s", itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(violations, a_payload_exiting_with_calls_pending_ends_the_run)
{
	struct itest_run r;
	long long t0 = itest_now_ms();

	/* Four threads refused without end; the process exits under them. */
	ITEST_RUN(&r, "--quiet", "--", "./probe", "refuse-exit", "4");
	ITEST_ASSERT_EXIT(&r, 7);
	cr_expect(itest_now_ms() - t0 < 15000, "the run took %lld ms", itest_now_ms() - t0);
	cr_expect(field(entry(&r, "keyctl"), "count") >= 1, "%s", itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(violations, a_hundred_thousand_refusals_are_answered_in_bounded_time)
{
	struct itest_run r;
	struct itest_opts o = {.timeout_ms = 55000};
	long long t0 = itest_now_ms();

	itest_run(&itest_cur, &o, ITEST_ARGV("--quiet", "--", "./probe", "refuse", "20000"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	cr_expect(itest_now_ms() - t0 < 50000, "the run took %lld ms", itest_now_ms() - t0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "bpf EPERM 20000\n");
	expect_entry(&r, "mount", 20000, 2);
	expect_entry(&r, "bpf", 20000, 2);
	itest_run_close(&r);
}

NSB_ITEST(violations, strict_reports_a_call_outside_its_allowlist)
{
	struct itest_run r;

	/* personality(READ_IMPLIES_EXEC): neither PER_LINUX nor the query. */
	ITEST_RUN(&r, "--seccomp", "strict", "--", "./probe", "personality", "400000");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "personality -1 EPERM\n");
	expect_entry(&r, "personality", 1, 2);
	ITEST_EXPECT_CONTAINS(&r, entry(&r, "personality"), "\"args\":[4194304,");
	itest_run_close(&r);
}

NSB_ITEST(violations, a_kill_rule_ends_with_sigsys_and_reason_seccomp)
{
	struct itest_run r;

	itest_write(&itest_cur, "kill.profile", "default allow\nkeyctl kill\n");
	ITEST_RUN(&r, "--seccomp", itest_path(&itest_cur, "kill.profile"), "--", "./probe",
		  "refuse", "1");
	ITEST_EXPECT_EXIT(&r, 128 + 31);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "signaled");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "signal"), "31");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "reason"), "seccomp");
	itest_run_close(&r);
}

/*
 * A profile written for a command that needs no futex: refused or killed,
 * it is the command's, never init's, which makes no futex call under its
 * filter (it once waited for a setup thread there).  Each run is repeated,
 * as when that wait met the filter only in some runs.
 */
NSB_ITEST(violations, a_profile_refusing_futex_is_met_by_the_command_only)
{
	struct itest_run r;

	itest_write(&itest_cur, "nofutex.profile", "default allow\nfutex errno EPERM\n");
	itest_write(&itest_cur, "killfutex.profile", "default allow\nfutex kill\n");
	for (int i = 0; i < 5; i++) {
		ITEST_RUN(&r, "--seccomp", itest_path(&itest_cur, "nofutex.profile"), "--",
			  "./probe", "refuse-futex", "3");
		ITEST_ASSERT_EXIT(&r, 0);
		ITEST_EXPECT_CONTAINS(&r, r.out, "futex EPERM 3\n");
		/* The command's three calls and no other: init made none. */
		expect_entry(&r, "futex", 3, 2);
		itest_run_close(&r);

		ITEST_RUN(&r, "--seccomp", itest_path(&itest_cur, "killfutex.profile"), "--",
			  "./probe", "exit", "0");
		ITEST_ASSERT_EXIT(&r, 0);
		itest_run_close(&r);
	}
	ITEST_RUN(&r, "--seccomp", itest_path(&itest_cur, "killfutex.profile"), "--", "./probe",
		  "refuse-futex", "1");
	ITEST_EXPECT_EXIT(&r, 128 + 31);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "reason"), "seccomp");
	itest_run_close(&r);
}

NSB_ITEST(violations, quiet_rules_are_refused_but_not_reported)
{
	struct itest_run r;

	itest_write(&itest_cur, "quiet.profile",
		    "default allow\nkeyctl errno EPERM quiet\nptrace errno EPERM\n");
	ITEST_RUN(&r, "--seccomp", itest_path(&itest_cur, "quiet.profile"), "--", "./probe",
		  "refuse", "2");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "keyctl EPERM 2\n");
	ITEST_EXPECT_CONTAINS(&r, r.out, "ptrace EPERM 2\n");
	cr_expect(entry(&r, "keyctl") == NULL, "keyctl is quiet%s", itest_ctx(&r));
	expect_entry(&r, "ptrace", 2, 2);
	itest_run_close(&r);
}

NSB_ITEST(violations, without_a_filter_reporting_is_off_with_a_reason)
{
	struct itest_run r;

	ITEST_RUN(&r, "--seccomp", "none", "--", "./probe", "refuse", "1");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations_reporting"), "false");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations_reporting_reason"),
			 "no seccomp filter (--seccomp none)");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations"), "[]");
	itest_run_close(&r);
}

NSB_ITEST(violations, nothing_refused_means_no_entry_and_no_line)
{
	struct itest_run r;

	ITEST_RUN(&r, "--", "./probe", "status");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations"), "[]");
	ITEST_EXPECT_LACKS(&r, r.err, "seccomp refused");
	itest_run_close(&r);
}

NSB_ITEST(violations, the_pty_and_the_listener_share_the_socket)
{
	struct itest_run r;
	struct itest_opts o = {.pty = true};

	itest_run(&itest_cur, &o, ITEST_ARGV("--pty", "--quiet", "--", "./probe", "refuse", "2"),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "mount EPERM 2");
	expect_entry(&r, "mount", 2, 2);
	itest_run_close(&r);
}

/*
 * Fault injection: every ioctl of the supervisor fails (strace without -f
 * traces the supervisor only), so the first notification cannot be received
 * or answered.  The refused call must not wait forever: the run ends at once
 * with a clear error, and nothing of the sandbox is left.
 */
Test(violations, a_failing_notification_ioctl_ends_the_run_with_an_error, .timeout = 60)
{
	const char *nsbox = getenv("NSBOX_BIN"), *probe = getenv("NSBOX_PROBE");
	char dir[] = "/tmp/nsbox-notify-fault-XXXXXX", cmd[2048], path[96];
	long long t0;

	if (geteuid() != 0)
		cr_skip_test("strace fault injection needs root");
	if (system("strace -V >/dev/null 2>&1") != 0)
		cr_skip_test("strace is not installed");
	cr_assert(nsbox && probe, "NSBOX_BIN and NSBOX_PROBE must be set");
	cr_assert(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof(cmd), "cp %s %s/probe", probe, dir);
	cr_assert(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && env ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" "
		 "strace -qq -o /dev/null --inject=ioctl:error=EIO %s --result-fd 3 -- ./probe "
		 "refuse 1 3>%s/rec.json 2>%s/err.txt >/dev/null",
		 dir, nsbox, dir, dir);
	t0 = itest_now_ms();
	int st = system(cmd);
	bool exited = WIFEXITED(st);
	cr_assert(exited, "nsbox did not exit");
	cr_expect(itest_now_ms() - t0 < 30000, "the run took %lld ms", itest_now_ms() - t0);
	snprintf(path, sizeof(path), "%s/err.txt", dir);
	char *err = itest_slurp(path);
	snprintf(path, sizeof(path), "%s/rec.json", dir);
	char *rec = itest_slurp(path);
	cr_expect(eq(int, WEXITSTATUS(st), 125), "exit status; stderr: %s", err);
	cr_expect(strstr(err, "nsbox: ") == err && strstr(err, "seccomp notification"),
		  "message: %s", err);
	cr_expect(strstr(rec, "seccomp notification") != NULL, "record: %s", rec);
	pid_t pids[4];
	cr_expect(itest_find_procs(dir, pids, 4) == 0, "a process of the sandbox survived");
	free(err);
	free(rec);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect(system(cmd) == 0);
}

NSB_ITEST(violations, a_profile_refusing_the_handoff_still_runs_unreported)
{
	struct itest_run r;

	/* init hands the listener over with sendmsg: a profile that refuses
	 * it gets its refusals answered in the kernel, and the run goes on. */
	itest_write(&itest_cur, "nosend.profile",
		    "default allow\nsendmsg errno EPERM\nkeyctl errno EPERM\n");
	ITEST_RUN(&r, "--seccomp", itest_path(&itest_cur, "nosend.profile"), "--", "./probe",
		  "refuse", "1");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "keyctl EPERM 1\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations"), "[]");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations_reporting"), "false");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "violations_reporting_reason"), "sendmsg or close");
	itest_run_close(&r);
}
