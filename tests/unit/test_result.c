// SPDX-License-Identifier: GPL-2.0-or-later
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/json.h"
#include "json_check.h"
#include "base/macro.h"
#include "core/result.h"

/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

#define ALL_NS                                                                            \
	(NSB_NS_USER | NSB_NS_MOUNT | NSB_NS_PID | NSB_NS_NET | NSB_NS_IPC | NSB_NS_UTS | \
	 NSB_NS_CGROUP)

/* Serialize r and check what every record must be: valid JSON on one line. */
static char *record(const struct nsb_result *r)
{
	char *out = NULL;
	size_t len = 0;

	cr_assert(eq(int, nsb_result_to_json(r, &out, &len), 0));
	cr_assert(eq(sz, len, strlen(out)));
	cr_assert(json_check(out, len), "invalid JSON: %s", out);
	cr_assert(gt(sz, len, 0));
	cr_assert(eq(chr, out[len - 1], '\n'), "record ends with a newline");
	cr_assert(eq(ptr, memchr(out, '\n', len - 1), NULL), "record is one line: %s", out);
	return out;
}

static bool streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

static bool has(const char *rec, const char *frag)
{
	return strstr(rec, frag) != NULL;
}

/* The successful run of DESIGN section 5, as the lead specified it byte for byte. */
static void fill_exited(struct nsb_result *r)
{
	nsb_result_init(r);
	r->status = NSB_STATUS_EXITED;
	r->exit_code_set = true;
	r->exit_code = 0;
	r->duration_ms = 12;
	r->cpu_user_ms = 3;
	r->cpu_sys_ms = 1;
	r->has_enforced = true;
	r->enforced.namespaces = ALL_NS;
	r->enforced.caps_dropped = true;
	r->enforced.no_new_privs = true;
	r->enforced.hostname = "nsbox";
	r->enforced.mount_api = "new";
	r->enforced.etc = "snapshot";
}

Test(result, exact_record_for_a_clean_exit)
{
	struct nsb_result r;

	fill_exited(&r);
	_cleanup_free_ char *out = record(&r);
	cr_expect(eq(str, out,
		     "{\"schema\":1,\"nsbox\":\"" NSB_VERSION "\",\"status\":\"exited\","
		     "\"exit_code\":0,\"signal\":null,\"timed_out\":false,\"oom_killed\":false,"
		     "\"denied\":false,\"reason\":null,\"denial\":null,\"setup_error\":null,"
		     "\"duration_ms\":12,\"stdout_bytes\":null,\"stderr_bytes\":null,"
		     "\"truncated\":false,\"stdout_truncated\":false,\"stderr_truncated\":false,"
		     "\"resources\":{\"cpu_user_ms\":3,\"cpu_sys_ms\":1,"
		     "\"memory_peak_bytes\":null,\"pids_peak\":null},"
		     "\"enforced\":{\"namespaces\":[\"user\",\"mount\",\"pid\",\"net\",\"ipc\","
		     "\"uts\",\"cgroup\"],\"caps_dropped\":true,\"no_new_privs\":true,"
		     "\"seccomp\":null,\"hostname\":\"nsbox\",\"network\":\"none\","
		     "\"mount_api\":\"new\",\"etc\":\"snapshot\",\"limits\":{},\"cgroup\":null},"
		     "\"violations\":[]}\n"));
}

Test(result, exact_record_for_a_gate_denial)
{
	struct nsb_result r;

	nsb_result_init(&r);
	r.status = NSB_STATUS_DENIED;
	r.exit_code_set = true;
	r.exit_code = NSB_EXIT_CODE_DENIED;
	r.denied = true;
	r.reason = "refused by the front gate";
	r.has_denial = true;
	r.denial = (struct nsb_denial){
		.stage = "gate",
		.rule = "exec.denylist",
		.argv_index = 0,
		.token = "mkfs",
		.resolved = "/usr/sbin/mkfs",
		.hint = "say \"please\"",
		.metachar = "syntax",
	};
	r.duration_ms = 0;
	_cleanup_free_ char *out = record(&r);
	cr_expect(
		eq(str, out,
		   "{\"schema\":1,\"nsbox\":\"" NSB_VERSION "\",\"status\":\"denied\","
		   "\"exit_code\":-100,\"signal\":null,\"timed_out\":false,\"oom_killed\":false,"
		   "\"denied\":true,\"reason\":\"refused by the front gate\","
		   "\"denial\":{\"stage\":\"gate\",\"rule\":\"exec.denylist\",\"argv_index\":0,"
		   "\"token\":\"mkfs\",\"resolved\":\"/usr/sbin/mkfs\","
		   "\"hint\":\"say \\\"please\\\"\",\"metachar\":\"syntax\"},\"setup_error\":null,"
		   "\"duration_ms\":0,\"stdout_bytes\":null,\"stderr_bytes\":null,"
		   "\"truncated\":false,\"stdout_truncated\":false,\"stderr_truncated\":false,"
		   "\"resources\":{\"cpu_user_ms\":null,\"cpu_sys_ms\":null,"
		   "\"memory_peak_bytes\":null,\"pids_peak\":null},"
		   "\"enforced\":null,\"violations\":[]}\n"));
}

Test(result, init_leaves_every_nullable_field_null)
{
	struct nsb_result r;

	nsb_result_init(&r);
	_cleanup_free_ char *out = record(&r);
	cr_expect(eq(str, out,
		     "{\"schema\":1,\"nsbox\":\"" NSB_VERSION "\",\"status\":\"setup_failed\","
		     "\"exit_code\":null,\"signal\":null,\"timed_out\":false,\"oom_killed\":false,"
		     "\"denied\":false,\"reason\":null,\"denial\":null,\"setup_error\":null,"
		     "\"duration_ms\":null,\"stdout_bytes\":null,\"stderr_bytes\":null,"
		     "\"truncated\":false,\"stdout_truncated\":false,\"stderr_truncated\":false,"
		     "\"resources\":{\"cpu_user_ms\":null,\"cpu_sys_ms\":null,"
		     "\"memory_peak_bytes\":null,\"pids_peak\":null},"
		     "\"enforced\":null,\"violations\":[]}\n"));
}

Test(result, every_status_has_its_name)
{
	static const char *const want[] = {
		[NSB_STATUS_EXITED] = "exited",
		[NSB_STATUS_SIGNALED] = "signaled",
		[NSB_STATUS_TIMED_OUT] = "timed_out",
		[NSB_STATUS_OOM_KILLED] = "oom_killed",
		[NSB_STATUS_DENIED] = "denied",
		[NSB_STATUS_SETUP_FAILED] = "setup_failed",
		[NSB_STATUS_EXEC_FAILED] = "exec_failed",
		[NSB_STATUS_USAGE_ERROR] = "usage_error",
		[NSB_STATUS_NEEDS_APPROVAL] = "needs_approval",
	};

	for (size_t s = 0; s < ARRAY_SIZE(want); s++) {
		struct nsb_result r;
		char frag[64];

		cr_expect(streq(nsb_status_name((enum nsb_status)s), want[s]), "%s",
			  nsb_status_name((enum nsb_status)s));
		nsb_result_init(&r);
		r.status = (enum nsb_status)s;
		_cleanup_free_ char *out = record(&r);
		snprintf(frag, sizeof(frag), ",\"status\":\"%s\",", want[s]);
		cr_expect(has(out, frag), "%s", out);
	}
	cr_expect(streq(nsb_status_name((enum nsb_status)ARRAY_SIZE(want)), "unknown"), "%s",
		  nsb_status_name((enum nsb_status)ARRAY_SIZE(want)));
	cr_expect(streq(nsb_status_name((enum nsb_status) - 1), "unknown"), "%s",
		  nsb_status_name((enum nsb_status) - 1));
}

Test(result, exit_code_null_value_and_sentinels)
{
	struct nsb_result r;
	static const struct {
		int code;
		const char *frag;
	} cases[] = {
		{0, "\"exit_code\":0,"},
		{1, "\"exit_code\":1,"},
		{255, "\"exit_code\":255,"},
		{NSB_EXIT_CODE_DENIED, "\"exit_code\":-100,"},
		{NSB_EXIT_CODE_TIMED_OUT, "\"exit_code\":-101,"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		nsb_result_init(&r);
		r.exit_code_set = true;
		r.exit_code = cases[i].code;
		_cleanup_free_ char *out = record(&r);
		cr_expect(has(out, cases[i].frag), "%s", out);
	}

	nsb_result_init(&r);
	r.exit_code = 7; /* ignored: not set */
	_cleanup_free_ char *out = record(&r);
	cr_expect(has(out, "\"exit_code\":null,"), "%s", out);
}

Test(result, signal_and_flags)
{
	struct nsb_result r;

	nsb_result_init(&r);
	r.status = NSB_STATUS_SIGNALED;
	r.signal = 9;
	r.timed_out = true;
	r.oom_killed = true;
	r.denied = true;
	_cleanup_free_ char *out = record(&r);
	cr_expect(has(out, "\"signal\":9,\"timed_out\":true,\"oom_killed\":true,\"denied\":true,"),
		  "%s", out);

	nsb_result_init(&r);
	_cleanup_free_ char *none = record(&r);
	cr_expect(has(none,
		      "\"signal\":null,\"timed_out\":false,\"oom_killed\":false,\"denied\":false,"),
		  "%s", none);
}

Test(result, reason_both_ways)
{
	struct nsb_result r;

	nsb_result_init(&r);
	r.reason = "wall-clock timeout";
	_cleanup_free_ char *out = record(&r);
	cr_expect(has(out, "\"reason\":\"wall-clock timeout\","), "%s", out);

	nsb_result_init(&r);
	_cleanup_free_ char *none = record(&r);
	cr_expect(has(none, "\"reason\":null,"), "%s", none);
}

Test(result, denial_nullable_members)
{
	struct nsb_result r;

	nsb_result_init(&r);
	r.has_denial = true;
	r.denial.rule = "path.outside_project"; /* stage NULL defaults to "gate" */
	r.denial.token = "../x";
	r.denial.hint = "use --ro";
	_cleanup_free_ char *out = record(&r);
	cr_expect(has(out, "\"denial\":{\"stage\":\"gate\",\"rule\":\"path.outside_project\","
			   "\"argv_index\":null,\"token\":\"../x\",\"resolved\":null,"
			   "\"hint\":\"use --ro\",\"metachar\":null},"),
		  "%s", out);

	r.denial.stage = "policy";
	r.denial.argv_index = 3;
	r.denial.resolved = "/etc/x";
	_cleanup_free_ char *all = record(&r);
	cr_expect(has(all, "\"denial\":{\"stage\":\"policy\",\"rule\":\"path.outside_project\","
			   "\"argv_index\":3,\"token\":\"../x\",\"resolved\":\"/etc/x\","
			   "\"hint\":\"use --ro\",\"metachar\":null},"),
		  "%s", all);
}

Test(result, setup_error_members)
{
	struct nsb_result r;

	nsb_result_init(&r);
	r.has_setup_error = true;
	nsb_error_setx(&r.setup_error, -ENOENT, NSB_STAGE_MOUNT,
		       "bind-mount '/nope': No such file");
	nsb_error_hint(&r.setup_error, "create it or drop --ro");
	_cleanup_free_ char *out = record(&r);
	cr_expect(has(out, "\"setup_error\":{\"stage\":\"mount\",\"errno\":2,"
			   "\"errno_name\":\"ENOENT\","
			   "\"message\":\"bind-mount '/nope': No such file\","
			   "\"hint\":\"create it or drop --ro\"},"),
		  "%s", out);

	/* No hint, an errno nobody named, then no errno at all. */
	nsb_error_setx(&r.setup_error, -4000, NSB_STAGE_CLONE, "odd");
	_cleanup_free_ char *odd = record(&r);
	cr_expect(has(odd, "\"setup_error\":{\"stage\":\"clone\",\"errno\":4000,"
			   "\"errno_name\":null,\"message\":\"odd\",\"hint\":null},"),
		  "%s", odd);

	r.setup_error.err = 0;
	_cleanup_free_ char *zero = record(&r);
	cr_expect(has(zero, "\"errno\":0,\"errno_name\":null,"), "%s", zero);
}

Test(result, setup_error_fields_are_bounded_by_their_arrays)
{
	struct nsb_result r;

	/* Unterminated arrays (a corrupt message from the child) must not be
	 * over-read; a stage out of range is written as "". */
	nsb_result_init(&r);
	r.has_setup_error = true;
	r.setup_error.err = EPERM;
	r.setup_error.stage = (enum nsb_stage)NSB_STAGE_COUNT;
	memset(r.setup_error.message, 'm', sizeof(r.setup_error.message));
	memset(r.setup_error.hint, 'h', sizeof(r.setup_error.hint));
	_cleanup_free_ char *out = record(&r);

	cr_expect(has(out, "\"stage\":\"\","));
	cr_expect(has(out, "\"errno_name\":\"EPERM\""));
	/* The hint is exactly NSB_ERR_HINT_MAX 'h' followed by the closing quote. */
	const char *h = strstr(out, "\"hint\":\"");
	cr_assert(h != NULL);
	h += strlen("\"hint\":\"");
	cr_expect(eq(sz, strspn(h, "h"), NSB_ERR_HINT_MAX));
	cr_expect(eq(chr, h[NSB_ERR_HINT_MAX], '"'));
}

Test(result, errno_names)
{
	cr_expect(streq(nsb_errno_name(ENOENT), "ENOENT"), "%s", nsb_errno_name(ENOENT));
	cr_expect(streq(nsb_errno_name(-EACCES), "EACCES"), "%s", nsb_errno_name(-EACCES));
	cr_expect(streq(nsb_errno_name(EPERM), "EPERM"), "%s", nsb_errno_name(EPERM));
	cr_expect(streq(nsb_errno_name(EAGAIN), "EAGAIN"), "%s", nsb_errno_name(EAGAIN));
	cr_expect(streq(nsb_errno_name(EOPNOTSUPP), "EOPNOTSUPP"), "%s",
		  nsb_errno_name(EOPNOTSUPP));
	cr_expect(streq(nsb_errno_name(ENOTRECOVERABLE), "ENOTRECOVERABLE"), "%s",
		  nsb_errno_name(ENOTRECOVERABLE));
	cr_expect(nsb_errno_name(0) == NULL);
	cr_expect(nsb_errno_name(100000) == NULL);
	cr_expect(nsb_errno_name(-100000) == NULL);
	cr_expect(nsb_errno_name(INT_MIN) == NULL);
}

Test(result, int64_fields_null_when_negative)
{
	struct nsb_result r;

	nsb_result_init(&r);
	r.duration_ms = 1;
	r.stdout_bytes = 2;
	r.stderr_bytes = 0;
	r.cpu_user_ms = 4;
	r.cpu_sys_ms = 5;
	r.memory_peak_bytes = 68719476736; /* beyond 32 bits */
	r.pids_peak = 7;
	_cleanup_free_ char *out = record(&r);
	cr_expect(has(out, "\"duration_ms\":1,\"stdout_bytes\":2,\"stderr_bytes\":0,"), "%s", out);
	cr_expect(has(out, "\"resources\":{\"cpu_user_ms\":4,\"cpu_sys_ms\":5,"
			   "\"memory_peak_bytes\":68719476736,\"pids_peak\":7},"),
		  "%s", out);

	nsb_result_init(&r);
	_cleanup_free_ char *none = record(&r);
	cr_expect(has(none, "\"duration_ms\":null,\"stdout_bytes\":null,\"stderr_bytes\":null,"),
		  "%s", none);
	cr_expect(has(none, "\"resources\":{\"cpu_user_ms\":null,\"cpu_sys_ms\":null,"
			    "\"memory_peak_bytes\":null,\"pids_peak\":null},"),
		  "%s", none);
}

Test(result, truncated_is_either_stream)
{
	for (int i = 0; i < 4; i++) {
		struct nsb_result r;
		char want[128];

		nsb_result_init(&r);
		r.stdout_truncated = i & 1;
		r.stderr_truncated = i & 2;
		_cleanup_free_ char *out = record(&r);
		snprintf(want, sizeof(want),
			 "\"truncated\":%s,\"stdout_truncated\":%s,\"stderr_truncated\":%s,",
			 i ? "true" : "false", (i & 1) ? "true" : "false",
			 (i & 2) ? "true" : "false");
		cr_expect(has(out, want), "case %d: %s", i, out);
	}
}

Test(result, enforced_namespaces_in_fixed_order)
{
	struct nsb_result r;

	fill_exited(&r);
	r.enforced.namespaces = NSB_NS_CGROUP | NSB_NS_USER | NSB_NS_NET;
	_cleanup_free_ char *some = record(&r);
	cr_expect(has(some, "\"namespaces\":[\"user\",\"net\",\"cgroup\"],"), "%s", some);

	r.enforced.namespaces = 0;
	_cleanup_free_ char *none = record(&r);
	cr_expect(has(none, "\"namespaces\":[],"), "%s", none);
}

Test(result, enforced_seccomp_network_and_nullable_strings)
{
	struct nsb_result r;

	fill_exited(&r);
	r.enforced.seccomp_profile = "default";
	r.enforced.seccomp_sha256 = "ab12";
	r.enforced.seccomp_default_action = "errno";
	r.enforced.seccomp_unmapped_ids = "errno EPERM";
	r.enforced.share_net = true;
	r.enforced.mount_api = "legacy";
	r.enforced.etc = "binds";
	_cleanup_free_ char *out = record(&r);
	cr_expect(
		has(out,
		    "\"seccomp\":{\"profile\":\"default\",\"sha256\":\"ab12\","
		    "\"default_action\":\"errno\",\"unmapped_ids\":\"errno EPERM\"},"
		    "\"hostname\":\"nsbox\","
		    "\"network\":\"host\",\"mount_api\":\"legacy\",\"etc\":\"binds\",\"limits\":{},"
		    "\"cgroup\":null}"),
		"%s", out);

	r.enforced.seccomp_sha256 = NULL;
	r.enforced.seccomp_default_action = NULL;
	r.enforced.seccomp_unmapped_ids = NULL;
	r.enforced.hostname = NULL;
	r.enforced.mount_api = NULL;
	r.enforced.etc = NULL;
	r.enforced.share_net = false;
	r.enforced.caps_dropped = false;
	r.enforced.no_new_privs = false;
	_cleanup_free_ char *nul = record(&r);
	cr_expect(has(nul, "\"caps_dropped\":false,\"no_new_privs\":false,"
			   "\"seccomp\":{\"profile\":\"default\",\"sha256\":null,"
			   "\"default_action\":null,\"unmapped_ids\":null},\"hostname\":null,"
			   "\"network\":\"none\",\"mount_api\":null,\"etc\":null,\"limits\":{},"
			   "\"cgroup\":null}"),
		  "%s", nul);

	r.has_enforced = false;
	_cleanup_free_ char *off = record(&r);
	cr_expect(has(off, "\"enforced\":null,\"violations\":[]}\n"), "%s", off);
}

Test(result, hostile_strings_stay_one_valid_line)
{
	struct nsb_result r;
	char token[] = "rm\n-rf\"\\ /\x01\x7f\xff\xc0\x80\xed\xa0\x80 \xe2\x82\xac";

	fill_exited(&r);
	r.reason = "line one\nline two\r\n\t\"quoted\"";
	r.has_denial = true;
	r.denial.token = token;
	r.denial.rule = "\xf4\x90\x80\x80";
	r.denial.hint = "";
	r.enforced.hostname = "a\0b"; /* only "a" is visible through a C string */
	_cleanup_free_ char *out = record(&r);
	cr_expect(has(out, "\"reason\":\"line one\\nline two\\r\\n\\t\\\"quoted\\\"\","), "%s",
		  out);
	cr_expect(has(out, "\"token\":\"rm\\n-rf\\\"\\\\ /\\u0001\\u007f\xef\xbf\xbd\xef\xbf\xbd"
			   "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd \xe2\x82\xac\","),
		  "%s", out);
	cr_expect(has(out, "\"hint\":\"\",\"metachar\":null}"),
		  "an empty denial hint stays a string");
	cr_expect(has(out, "\"hostname\":\"a\","), "%s", out);
}

Test(result, long_strings_are_kept_whole)
{
	struct nsb_result r;
	size_t n = 1u << 20; /* NSB_MAX_ARGV_BYTES: the longest token argv can carry */
	_cleanup_free_ char *tok = malloc(n + 1);

	cr_assert(not(eq(ptr, tok, NULL)));
	memset(tok, 'x', n);
	tok[n] = '\0';
	nsb_result_init(&r);
	r.has_denial = true;
	r.denial.token = tok;
	_cleanup_free_ char *out = record(&r);
	const char *t = strstr(out, "\"token\":\"");
	cr_assert(t != NULL);
	cr_expect(eq(sz, strspn(t + strlen("\"token\":\""), "x"), n));
}

/* ---- nsb_result_write ---- */

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	alarms++;
}

Test(result, write_delivers_the_record_through_short_writes_and_eintr, .timeout = 60)
{
	struct nsb_result r;
	size_t n = 4u << 20; /* far beyond a pipe's capacity: many partial writes */
	_cleanup_free_ char *reason = malloc(n + 1);
	int p[2], q[2];

	cr_assert(not(eq(ptr, reason, NULL)));
	for (size_t i = 0; i < n; i++)
		reason[i] = (char)('a' + i % 26);
	reason[n] = '\0';
	fill_exited(&r);
	r.reason = reason;

	_cleanup_free_ char *want = NULL;
	size_t want_len;
	cr_assert(eq(int, nsb_result_to_json(&r, &want, &want_len), 0));

	/*
	 * A slow reader child drains the pipe in small reads and copies what it
	 * got to a second pipe; a 1 ms interval timer without SA_RESTART
	 * interrupts our blocking write() again and again, so it returns short
	 * counts (or EINTR when nothing was written yet).
	 */
	cr_assert(eq(int, pipe(p), 0));
	cr_assert(eq(int, pipe(q), 0));
	pid_t pid = fork();
	cr_assert(ge(int, pid, 0));
	if (pid == 0) {
		char chunk[1000];
		close(p[1]);
		close(q[0]);
		for (;;) {
			ssize_t got = read(p[0], chunk, sizeof(chunk));
			if (got <= 0)
				_exit(got == 0 ? 0 : 1);
			for (ssize_t off = 0; off < got;) {
				ssize_t w = write(q[1], chunk + off, (size_t)(got - off));
				if (w <= 0)
					_exit(1);
				off += w;
			}
			usleep(50);
		}
	}
	close(p[0]);
	close(q[1]);

	/* The copy must be drained concurrently, or the child blocks on q. */
	pid_t drain = fork();
	cr_assert(ge(int, drain, 0));
	if (drain == 0) {
		char chunk[4096];
		size_t at = 0;
		close(p[1]);
		for (;;) {
			ssize_t got = read(q[0], chunk, sizeof(chunk));
			if (got < 0)
				_exit(2);
			if (got == 0)
				_exit(at == want_len ? 0 : 3);
			if ((size_t)got > want_len - at || memcmp(chunk, want + at, (size_t)got))
				_exit(3);
			at += (size_t)got;
		}
	}
	close(q[0]);

	struct sigaction sa = {.sa_handler = on_alarm}; /* no SA_RESTART */
	cr_assert(eq(int, sigaction(SIGALRM, &sa, NULL), 0));
	struct itimerval it = {.it_interval = {0, 1000}, .it_value = {0, 1000}};
	cr_assert(eq(int, setitimer(ITIMER_REAL, &it, NULL), 0));

	int ret = nsb_result_write(p[1], &r);

	struct itimerval off = {0};
	setitimer(ITIMER_REAL, &off, NULL);
	close(p[1]);
	cr_expect(eq(int, ret, 0));
	cr_expect(gt(int, alarms, 0), "the timer never fired: the test proved nothing");

	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	cr_expect(eq(int, WEXITSTATUS(st), 0), "reader child failed");
	while (waitpid(drain, &st, 0) < 0 && errno == EINTR)
		;
	cr_expect(eq(int, WEXITSTATUS(st), 0), "the record arrived altered");
}

Test(result, write_reports_errno)
{
	struct nsb_result r;
	int p[2];

	nsb_result_init(&r);
	cr_expect(eq(int, nsb_result_write(-1, &r), -EBADF));

	signal(SIGPIPE, SIG_IGN);
	cr_assert(eq(int, pipe(p), 0));
	close(p[0]);
	cr_expect(eq(int, nsb_result_write(p[1], &r), -EPIPE));
	close(p[1]);

	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	cr_assert(ge(int, fd, 0));
	cr_expect(eq(int, nsb_result_write(fd, &r), -EBADF), "read-only fd");
	close(fd);
}

Test(result, write_to_dev_full_is_enospc)
{
	struct nsb_result r;
	int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		cr_skip_test("no /dev/full");
	nsb_result_init(&r);
	cr_expect(eq(int, nsb_result_write(fd, &r), -ENOSPC));
	close(fd);
}

/*
 * Found by the bounds tests: --capture --max-output 64M is allowed, but 64 MiB
 * of output escapes to more than the writer's 64 MiB limit (up to six times
 * for control bytes), so the record failed with E2BIG and was never written.
 * The captured text is now cut (at a character boundary) until the record
 * fits, and the record says it was truncated.
 */
Test(result, capture_at_the_cap_still_fits, .timeout = 120)
{
	struct nsb_result r;
	size_t n = 24u << 20; /* 24 MiB of \x01: 144 MiB escaped */
	char *out = malloc(n), *err = malloc(8);
	cr_assert(out && err);
	memset(out, '\x01', n);
	memcpy(out + n - 2, "\xc3\xa9", 2); /* a character the cut must not split */
	memcpy(err, "warning\n", 8);

	nsb_result_init(&r);
	r.status = NSB_STATUS_EXITED;
	r.captured = true;
	r.stdout_data = out;
	r.stdout_len = n;
	r.stderr_data = err;
	r.stderr_len = 8;

	char *json = NULL;
	size_t len = 0;
	cr_assert(eq(int, nsb_result_to_json(&r, &json, &len), 0));
	cr_expect(len <= NSB_JSON_MAX_LEN);
	cr_expect(json_check(json, len), "the record is not valid JSON");
	cr_expect(strstr(json, "\"stdout_truncated\":true") != NULL);
	cr_expect(strstr(json, "\"truncated\":true") != NULL);
	cr_expect(strstr(json, "\"stderr\":\"warning\\n\"") != NULL, "stderr was cut too");
	cr_expect(strstr(json, "\"stdout_invalid_utf8\":false") != NULL);
	free(json);
	free(out);
	free(err);
}

/* What nsb_result_write puts in a file, and whether it equals the record
 * nsb_result_to_json builds in memory. */
static void expect_written_as_built(const struct nsb_result *r, const char *what)
{
	_cleanup_free_ char *want = NULL, *got = NULL;
	size_t want_len = 0;
	int fd = memfd_create("record", MFD_CLOEXEC);

	cr_assert(ge(int, fd, 0));
	cr_assert(eq(int, nsb_result_to_json(r, &want, &want_len), 0), "%s", what);
	cr_assert(eq(int, nsb_result_write(fd, r), 0), "%s", what);
	off_t end = lseek(fd, 0, SEEK_END);
	cr_assert(eq(sz, (size_t)end, want_len), "%s: length", what);
	got = malloc(want_len + 1);
	cr_assert(not(eq(ptr, got, NULL)));
	cr_assert(eq(sz, (size_t)pread(fd, got, want_len, 0), want_len));
	cr_expect(eq(int, memcmp(got, want, want_len), 0), "%s: the streamed record differs", what);
	close(fd);
}

/*
 * Large captured output is written as a stream, chunk by chunk, never
 * escaped into one buffer: the bytes must be those of the record built in
 * memory, whatever the data (invalid UTF-8 and sequences across chunk
 * boundaries included), and cut the same way when it would not fit.
 */
Test(result, streamed_capture_is_byte_for_byte_the_record, .timeout = 240)
{
	static const char *const pieces[] = {
		"plain text ",
		"\n",
		"\x01",
		"\"",
		"\\",
		"\xc3\xa9",
		"\xe2\x82\xac",
		"\xf0\x9f\x98\x80",
		"\xc3",
		"\xe2\x82",
		"\xf0\x9f\x98",
		"\x80",
		"\xbf\xbf\xbf\xbf\xbf",
		"\xed\xa0\x80",
		"\xc0\xaf",
		"\xf5",
		"\xff",
		"\x7f",
	};
	size_t n = 3u << 20;
	char *out = malloc(n), *err = malloc(n / 3);
	unsigned seed = 11;
	struct nsb_result r;

	cr_assert(not(eq(ptr, out, NULL)));
	cr_assert(not(eq(ptr, err, NULL)));
	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < n;) {
			seed = seed * 1103515245u + 12345u;
			const char *p = pieces[(seed >> 16) % ARRAY_SIZE(pieces)];
			size_t l = strlen(p) ? strlen(p) : 1;
			for (size_t k = 0; k < l && i < n; k++)
				out[i++] = p[k];
		}
		/* round 1: only continuation bytes (no safe cut but every 4th);
		 * round 2: ASCII with one sequence across each chunk boundary */
		if (round == 1)
			memset(out, 0x80, n);
		if (round == 2)
			for (size_t b = 256u << 10; b + 2 < n; b += 256u << 10)
				memcpy(out + b - 1, "\xe2\x82\xac", 3);
		memcpy(err, out + 7, n / 3);

		nsb_result_init(&r);
		r.status = NSB_STATUS_EXITED;
		r.captured = true;
		r.stdout_data = out;
		r.stdout_len = n - (size_t)round;
		r.stderr_data = err;
		r.stderr_len = n / 3;
		expect_written_as_built(&r, "mixed");
		r.stdout_data = NULL;
		r.stdout_len = 0;
		expect_written_as_built(&r, "no stdout");
	}
	free(out);
	free(err);

	/* Too large once escaped: cut, in the same rounds, to the same bytes. */
	n = 24u << 20;
	out = malloc(n);
	cr_assert(not(eq(ptr, out, NULL)));
	memset(out, '\x01', n);
	nsb_result_init(&r);
	r.status = NSB_STATUS_EXITED;
	r.captured = true;
	r.stdout_data = out;
	r.stdout_len = n;
	r.stderr_data = "warning\n";
	r.stderr_len = 8;
	expect_written_as_built(&r, "cut");
	free(out);
}

/* ---- enforced.stdio ---- */

Test(result, enforced_stdio_member)
{
	struct nsb_result r;
	char *out;

	fill_exited(&r);
	out = record(&r);
	cr_expect(not(has(out, "\"stdio\"")), "absent unless set: %s", out);
	free(out);

	r.enforced.has_stdio = true;
	r.enforced.stdio_pty = true;
	r.enforced.stdio[0] = "pty";
	r.enforced.stdio[1] = "pty";
	r.enforced.stdio[2] = "pty";
	out = record(&r);
	cr_expect(has(out, "\"stdio\":{\"stdin\":\"pty\",\"stdout\":\"pty\",\"stderr\":\"pty\","
			   "\"pty\":true}"),
		  "%s", out);
	free(out);

	r.enforced.stdio_pty = false;
	r.enforced.stdio[0] = "reopened";
	r.enforced.stdio[1] = "pipe";
	r.enforced.stdio[2] = "inherited";
	out = record(&r);
	cr_expect(has(out, "\"stdio\":{\"stdin\":\"reopened\",\"stdout\":\"pipe\","
			   "\"stderr\":\"inherited\",\"pty\":false}"),
		  "%s", out);
	free(out);
}
