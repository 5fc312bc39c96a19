// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --request and --request-fd through the binary, as root and as the test
 * user: the document's options reach the sandbox (judged from inside), the
 * record echoes the request, and a faulty document is a usage_error record
 * naming its JSON path.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static const struct itest_opts raw = {.raw_argv = true};

/* Run nsbox --result-fd 3 --request req.json [extra] with the document. */
static void run_request(const char *json, const char *extra, struct itest_run *r)
{
	const char *argv[] = {"--result-fd", "3", "--request", "req.json", extra, NULL};

	itest_write(&itest_cur, "req.json", json);
	itest_run(&itest_cur, &raw, argv, r);
}

NSB_ITEST(request, options_reach_the_sandbox_and_the_record)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "in");
	itest_mkdir(&itest_cur, "out");
	itest_write(&itest_cur, "in/data", "from the host\n");
	run_request("{\"argv\": [\"sh\", \"-c\", \"echo $FOO; hostname; cat /data/data; "
		    "touch out/made; grep -c ' /scratch ' /proc/self/mounts\"],"
		    " \"env\": {\"FOO\": \"bar baz\"}, \"hostname\": \"req-host\","
		    " \"ro\": [\"in:/data\"], \"rw\": [\"out\"], \"tmpfs\": [\"/scratch:4M\"],"
		    " \"allow_inline_code\": true, \"allow_metachar\": true,"
		    " \"limits\": {\"timeout\": 30, \"max_output\": 4096, \"memory\": \"512M\"},"
		    " \"capture\": true, \"actor\": \"agent-7\", \"reason\": \"round trip\","
		    " \"side_effect\": \"writes_workspace\"}",
		    NULL, &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout"), "bar baz\nreq-host\nfrom the host\n1\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "request.actor"), "agent-7");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "request.reason"), "round trip");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "request.side_effect"), "writes_workspace");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.hostname"), "req-host");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.timeout.ms"), "30000");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.output.max_bytes"), "4096");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.memory.bytes"), "536870912");
	cr_expect(access(itest_path(&itest_cur, "out/made"), F_OK) == 0,
		  "the rw bind did not reach the host%s", itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(request, unknown_member_is_a_usage_error_with_its_path)
{
	struct itest_run r;

	run_request("{\"argv\": [\"true\"],\n \"limits\": {\"memroy\": \"1M\"}}", NULL, &r);
	ITEST_ASSERT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "reason"),
			 "req.json:2:23: $.limits.memroy: unknown member");
	cr_expect(strstr(r.err, "$.limits.memroy") != NULL, "%s", itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(request, other_options_are_refused)
{
	struct itest_run r;

	run_request("{\"argv\": [\"true\"]}", "--share-net", &r);
	ITEST_ASSERT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	cr_expect(strstr(r.err, "'--share-net' cannot be combined") != NULL, "%s", itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(request, gate_denial_from_a_request)
{
	struct itest_run r;

	run_request("{\"argv\": [\"rm\", \"x\"], \"deny_exec\": [\"rm\"], \"actor\": \"a\"}", NULL,
		    &r);
	ITEST_ASSERT_EXIT(&r, 123);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "denied");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "request.actor"), "a");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "request.side_effect"), "null");
	itest_run_close(&r);
}

NSB_ITEST(request, check_echoes_the_request)
{
	struct itest_run r;
	char v[64];

	run_request("{\"argv\": [\"true\"], \"actor\": \"rev\", \"side_effect\": \"read_only\"}",
		    "--check", &r);
	ITEST_ASSERT_EXIT(&r, 0);
	cr_expect(itest_json_get(r.out, "request.actor", v, sizeof(v)) == ITEST_JSON_STRING &&
			  strcmp(v, "rev") == 0,
		  "%s", itest_ctx(&r));
	cr_expect(itest_json_get(r.out, "check", v, sizeof(v)) != ITEST_JSON_MISSING, "%s",
		  itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(request, from_standard_input)
{
	const char *argv[] = {"--result-fd", "3", "--request", "-", NULL};
	struct itest_opts o = {.raw_argv = true, .stdin_path = "req.json"};
	struct itest_run r;

	itest_write(&itest_cur, "req.json", "{\"argv\": [\"./probe\", \"exit\", \"7\"]}");
	itest_run(&itest_cur, &o, argv, &r);
	ITEST_ASSERT_EXIT(&r, 7);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	itest_run_close(&r);
}
