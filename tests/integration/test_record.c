// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON record on --result-fd for each outcome this launcher can produce:
 * exited, signaled, exec_failed (126, 127), setup_failed, usage_error.  The
 * exit status and the record must agree, and the record must be one line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

/* Exactly one line of JSON, newline-terminated, with the fixed header. */
static void expect_one_record(const struct itest_run *r)
{
	char *nl = strchr(r->record, '\n');

	cr_assert(r->record_len > 0, "no record on fd 3%s", itest_ctx(r));
	cr_expect(nl != NULL && nl[1] == '\0', "the record is not exactly one line%s",
		  itest_ctx(r));
	ITEST_EXPECT_STR(r, itest_rec(r, "schema"), "1");
	ITEST_EXPECT_STR(r, itest_rec(r, "nsbox"), "0.1.0");
}

NSB_ITEST(record, exited_run_has_code_and_enforcement)
{
	static const char *const ns[] = {"user", "mount", "pid", "net", "ipc", "uts", "cgroup"};
	struct itest_run r;

	ITEST_RUN(&r, "--", "./probe", "exit", "3");
	ITEST_ASSERT_EXIT(&r, 3);
	expect_one_record(&r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "exit_code"), "3");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "signal"), "null");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "timed_out"), "false");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "oom_killed"), "false");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "denied"), "false");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error"), "null");
	cr_expect(atol(itest_rec(&r, "duration_ms")) >= 0 &&
			  itest_json_get(r.record, "duration_ms", NULL, 0) == ITEST_JSON_NUMBER,
		  "duration_ms%s", itest_ctx(&r));
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		char quoted[32];
		snprintf(quoted, sizeof(quoted), "\"%s\"", ns[i]);
		ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "enforced.namespaces"), quoted);
	}
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.caps_dropped"), "true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.no_new_privs"), "true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.hostname"), "nsbox");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.network"), "none");
	cr_expect(itest_json_get(r.record, "violations", NULL, 0) == ITEST_JSON_ARRAY,
		  "violations is not an array%s", itest_ctx(&r));
	cr_expect(itest_json_get(r.record, "resources", NULL, 0) == ITEST_JSON_OBJECT,
		  "resources is not an object%s", itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(record, share_net_is_reflected_in_the_record)
{
	struct itest_run r;

	ITEST_RUN(&r, "--share-net", "--hostname", "rec-host", "--", "./probe", "exit", "0");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_LACKS(&r, itest_rec(&r, "enforced.namespaces"), "\"net\"");
	ITEST_EXPECT_NE_STR(&r, itest_rec(&r, "enforced.network"), "none");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.hostname"), "rec-host");
	itest_run_close(&r);
}

NSB_ITEST(record, signaled_run_names_the_signal)
{
	struct itest_run r;

	ITEST_RUN(&r, "--", "./probe", "kill", "9");
	ITEST_ASSERT_EXIT(&r, 137);
	expect_one_record(&r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "signaled");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "signal"), "9");
	itest_run_close(&r);
}

NSB_ITEST(record, command_not_found_is_127_and_names_the_outside_path)
{
	struct itest_run r;
	char tool[600], bindir[512], path_env[700];
	const char *env[2] = {path_env, NULL};
	struct itest_opts o = {.env = env};

	/* Nowhere at all. */
	ITEST_RUN(&r, "--", "nsbox-itest-no-such-command");
	ITEST_ASSERT_EXIT(&r, 127);
	expect_one_record(&r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exec_failed");
	ITEST_EXPECT_CONTAINS(&r, r.err, "nsbox-itest-no-such-command");
	itest_run_close(&r);

	/* On the host, outside the sandbox's view: the message says where and
	 * which --ro would expose it. */
	snprintf(bindir, sizeof(bindir), "%s/hostbin", itest_cur.top);
	snprintf(tool, sizeof(tool), "%s/mytool", bindir);
	cr_assert(mkdir(bindir, 0755) == 0);
	FILE *f = fopen(tool, "w");
	cr_assert(f != NULL);
	fputs("#!/bin/sh\nexit 0\n", f);
	fclose(f);
	cr_assert(chmod(tool, 0755) == 0);

	ITEST_RUN(&r, "--", tool);
	ITEST_ASSERT_EXIT(&r, 127);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exec_failed");
	ITEST_EXPECT_CONTAINS(&r, r.err, tool);
	ITEST_EXPECT_CONTAINS(&r, r.err, "--ro");
	itest_run_close(&r);

	/* A bare name found in the caller's PATH, not in the sandbox's. */
	snprintf(path_env, sizeof(path_env), "PATH=%s:/usr/bin:/bin", bindir);
	itest_run(&itest_cur, &o, ITEST_ARGV("--", "mytool"), &r);
	ITEST_ASSERT_EXIT(&r, 127);
	ITEST_EXPECT_CONTAINS(&r, r.err, tool);
	ITEST_EXPECT_CONTAINS(&r, r.err, "--ro");
	itest_run_close(&r);
}

NSB_ITEST(record, found_but_not_executable_is_126)
{
	struct itest_run r;

	itest_write(&itest_cur, "script.sh", "#!/bin/sh\nexit 0\n"); /* mode 0644 */
	ITEST_RUN(&r, "--", "./script.sh");
	ITEST_ASSERT_EXIT(&r, 126);
	expect_one_record(&r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exec_failed");
	ITEST_EXPECT_CONTAINS(&r, r.err, "script.sh");
	itest_run_close(&r);

	/* A directory is found but cannot be executed either. */
	itest_mkdir(&itest_cur, "adir");
	ITEST_RUN(&r, "--", "./adir");
	ITEST_EXPECT_EXIT(&r, 126);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exec_failed");
	itest_run_close(&r);
}

NSB_ITEST(record, setup_failure_reports_stage_and_errno)
{
	struct itest_run r;

	/* Valid syntax, but the directory does not exist inside. */
	ITEST_RUN(&r, "--chdir", "/nsbox-itest-missing-dir", "--", "./probe", "exit", "0");
	ITEST_ASSERT_EXIT(&r, 125);
	expect_one_record(&r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "setup_failed");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "exit_code"), "null");
	cr_expect(itest_json_get(r.record, "setup_error", NULL, 0) == ITEST_JSON_OBJECT,
		  "setup_error is not an object%s", itest_ctx(&r));
	cr_expect(itest_json_get(r.record, "setup_error.stage", NULL, 0) == ITEST_JSON_STRING,
		  "setup_error.stage%s", itest_ctx(&r));
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.errno"), "2");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.errno_name"), "ENOENT");
	ITEST_EXPECT_CONTAINS(&r, r.err, "nsbox: ");
	ITEST_EXPECT_CONTAINS(&r, r.err, "/nsbox-itest-missing-dir");
	itest_run_close(&r);
}

NSB_ITEST(record, usage_error_is_recorded_once_the_fd_is_known)
{
	struct itest_run r;

	ITEST_RUN(&r, "--nsbox-itest-bogus", "--", "./probe", "exit", "0");
	ITEST_ASSERT_EXIT(&r, 125);
	expect_one_record(&r);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "exit_code"), "null");
	ITEST_EXPECT_CONTAINS(&r, r.err, "--nsbox-itest-bogus");
	itest_run_close(&r);
}

/* Test the harness's JSON reader itself, so the checks above mean something. */
Test(record, harness_json_reader_finds_nested_values)
{
	const char *j = "{\"a\":1,\"s\":\"x\\\"y\\n\",\"o\":{\"b\":[1,{\"c\":2}],\"n\":null,"
			"\"t\":true},\"z\":-3.5e2}";
	char buf[64];

	cr_expect(eq(int, itest_json_get(j, "a", buf, sizeof(buf)), ITEST_JSON_NUMBER));
	cr_expect(itest_streq(buf, "1"));
	cr_expect(eq(int, itest_json_get(j, "s", buf, sizeof(buf)), ITEST_JSON_STRING));
	cr_expect(itest_streq(buf, "x\"y\n"));
	cr_expect(eq(int, itest_json_get(j, "o.b", buf, sizeof(buf)), ITEST_JSON_ARRAY));
	cr_expect(itest_streq(buf, "[1,{\"c\":2}]"));
	cr_expect(eq(int, itest_json_get(j, "o.n", buf, sizeof(buf)), ITEST_JSON_NULL));
	cr_expect(eq(int, itest_json_get(j, "o.t", buf, sizeof(buf)), ITEST_JSON_BOOL));
	cr_expect(itest_streq(buf, "true"));
	cr_expect(eq(int, itest_json_get(j, "z", buf, sizeof(buf)), ITEST_JSON_NUMBER));
	cr_expect(itest_streq(buf, "-3.5e2"));
	cr_expect(eq(int, itest_json_get(j, "o.c", buf, sizeof(buf)), ITEST_JSON_MISSING));
	cr_expect(eq(int, itest_json_get(j, "nope", buf, sizeof(buf)), ITEST_JSON_MISSING));
	cr_expect(eq(int, itest_json_get("{\"a\":", "a", buf, sizeof(buf)), ITEST_JSON_MISSING));
}

/* The CPU time in the record counts what the command's processes used, its
 * children included, whether or not nsbox waits for init's own exit. */
NSB_ITEST(record, cpu_time_counts_the_commands_children)
{
	struct itest_run r;

	ITEST_RUN(&r, "--allow-inline-code", "--", "sh", "-c",
		  "(i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done); exit 0");
	ITEST_ASSERT_EXIT(&r, 0);
	long ms = atol(itest_rec(&r, "resources.cpu_user_ms")) +
		  atol(itest_rec(&r, "resources.cpu_sys_ms"));
	cr_expect(ms >= 50, "cpu %ld ms for a 200000-step shell loop%s", ms, itest_ctx(&r));
	itest_run_close(&r);
}
