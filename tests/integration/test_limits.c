// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Limits and lifetime on this host, where the unified cgroup tree has no
 * controllers: the rlimit fallback (memory, pids) and its warnings, the
 * refusals where no fallback exists, timeouts and the grace before SIGKILL,
 * survivors, output truncation, capture and the bounded /tmp.  The cgroup
 * path itself is tested in the VM (tests/vm/30-nsbox-*.sh).
 *
 * Every claim is checked against what the payload could or could not do, or
 * against the host's process table, not only against the record.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#include <criterion/parameterized.h>

#define MIB (1024L * 1024L)

/* Lines of text that start with prefix. */
static int count_lines(const char *text, const char *prefix)
{
	size_t plen = strlen(prefix);
	int n = 0;

	for (const char *l = text; l && *l;) {
		if (strncmp(l, prefix, plen) == 0)
			n++;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return n;
}

static long long rec_ll(const struct itest_run *r, const char *path)
{
	return atoll(itest_rec(r, path));
}

/* ---- memory: RLIMIT_AS + RLIMIT_DATA ---- */

NSB_ITEST(limits, memory_rlimit_stops_a_memory_bomb)
{
	struct itest_run r;

	/* Under the limit: a 32 MiB buffer is fine (so the limit is not absurdly low). */
	ITEST_RUN(&r, "--memory", "64M", "--allow-exec", "dd", "--", "dd", "if=/dev/zero",
		  "of=/dev/null", "bs=32M", "count=1");
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);

	/* Over it: dd cannot even allocate its 200 MiB buffer. */
	ITEST_RUN(&r, "--memory", "64M", "--allow-exec", "dd", "--", "dd", "if=/dev/zero",
		  "of=/dev/null", "bs=200M", "count=1");
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_CONTAINS(&r, r.err, "dd: memory exhausted");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.memory.via"), "rlimit");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.memory.bytes"), "67108864");
	/* The weaker mechanism is announced once, and named. */
	cr_expect(eq(int, count_lines(r.err, "nsbox: warning:"), 1), "warning lines%s",
		  itest_ctx(&r));
	ITEST_EXPECT_CONTAINS(&r, r.err, "nsbox: warning: --memory enforced by RLIMIT_AS");
	itest_run_close(&r);
}

/* ---- pids: RLIMIT_NPROC, unprivileged only ---- */

static pid_t outside[64];
static int n_outside;

static void kill_outside(void)
{
	for (int i = 0; i < n_outside; i++)
		if (outside[i] > 0) {
			kill(outside[i], SIGKILL);
			waitpid(outside[i], NULL, 0);
		}
	n_outside = 0;
	itest_project_fini();
}

/* A process of the test user that waits outside any sandbox. */
static pid_t start_outside(const struct itest_project *p)
{
	pid_t parent = getpid(), pid = fork();

	cr_assert(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		if (setgroups(0, NULL) < 0 || setresgid(p->gid, p->gid, p->gid) < 0 ||
		    setresuid(p->uid, p->uid, p->uid) < 0)
			_exit(1);
		/* After the uid change, which clears the death signal. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		for (;;)
			pause();
	}
	return pid;
}

static bool alive(pid_t pid)
{
	char path[64], *stat;
	bool ok;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	stat = itest_slurp(path);
	if (!stat)
		return false;
	const char *rp = strrchr(stat, ')');
	ok = rp && rp[2] != 'Z' && rp[2] != 'X';
	free(stat);
	return ok;
}

/* Processes of uid on the host, from /proc/PID/status. */
static int count_user_procs(uid_t uid)
{
	pid_t all[4096];
	int n = 0, total = itest_find_procs("", all, 4096);
	char path[64], want[32];

	snprintf(want, sizeof(want), "%u", (unsigned)uid);
	for (int i = 0; i < total && i < 4096; i++) {
		snprintf(path, sizeof(path), "/proc/%d/status", all[i]);
		char *s = itest_slurp(path);
		const char *u = s ? strstr(s, "\nUid:\t") : NULL;
		if (u && strncmp(u + 6, want, strlen(want)) == 0 && u[6 + strlen(want)] == '\t')
			n++;
		free(s);
	}
	return n;
}

Test(limits, pids_rlimit_contains_a_fork_bomb_and_counts_only_the_sandbox, .timeout = 60,
     .fini = kill_outside)
{
	struct itest_run r;
	const int n_out = 40; /* more than --pids: would leave no room if they counted */

	itest_require_user();
	itest_project_setup(&itest_cur, true);
	for (n_outside = 0; n_outside < n_out; n_outside++)
		outside[n_outside] = start_outside(&itest_cur);
	itest_sleep_ms(100);
	cr_assert(count_user_procs(itest_cur.uid) >= n_out,
		  "the helper processes of " ITEST_USER " are not there");

	/* The bomb: init + payload + 30 children reach 32, the 31st fork fails. */
	ITEST_RUN(&r, "--pids", "32", "--", "./probe", "fork", "1000");
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "forked"), "30");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "fork_error"), "EAGAIN");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.via"), "rlimit");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.max"), "32");
	cr_expect(eq(int, count_lines(r.err, "nsbox: warning:"), 1), "warning lines%s",
		  itest_ctx(&r));
	ITEST_EXPECT_CONTAINS(&r, r.err, "nsbox: warning: --pids enforced by RLIMIT_NPROC");
	itest_run_close(&r);

	/* Exactly 30 fit although the user has 40 processes outside. */
	ITEST_RUN(&r, "--pids", "32", "--", "./probe", "fork", "30");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "forked"), "30");
	itest_run_close(&r);

	/* The caller's other processes were not touched. */
	for (int i = 0; i < n_outside; i++)
		cr_expect(alive(outside[i]), "outside process %d of " ITEST_USER " died",
			  outside[i]);
}

Test(limits, pids_as_root_without_cgroup_is_refused, .timeout = 60, .fini = itest_project_fini)
{
	struct itest_run r;

	itest_project_setup(&itest_cur, false);
	itest_mkdir(&itest_cur, "out");
	ITEST_RUN(&r, "--pids", "32", "--rw", "out", "--", "./probe", "write", "out/ran");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "setup_failed");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.stage"), "limits");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "setup_error.message"), "RLIMIT_NPROC");
	ITEST_EXPECT_CONTAINS(&r, r.err, "--pids cannot be enforced for uid 0");
	cr_expect(access(itest_path(&itest_cur, "out/ran"), F_OK) != 0, "the payload ran");
	itest_run_close(&r);
}

/* ---- the default pids limit (no --pids) ---- */

/* The "Max processes" soft limit as the kernel shows it to the payload. */
static char *max_processes(const char *limits)
{
	static char val[32];
	const char *l = limits ? strstr(limits, "Max processes") : NULL;

	if (!l || sscanf(l + strlen("Max processes"), "%31s", val) != 1)
		snprintf(val, sizeof(val), "(missing)");
	return val;
}

NSB_ITEST(limits, default_pids_without_flags)
{
	struct itest_run r;

	ITEST_RUN(&r, "--", "cat", "/proc/self/limits");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.default"), "true");
	/* Nobody asked for it: ordinary runs say nothing on stderr. */
	cr_expect(eq(int, count_lines(r.err, "nsbox: warning:"), 0), "warning lines%s",
		  itest_ctx(&r));
	if (as_user) {
		/* RLIMIT_NPROC, counted per user namespace, as the payload sees it. */
		ITEST_EXPECT_STR(&r, max_processes(r.out), "4096");
		ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.max"), "4096");
		ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.via"), "rlimit");
		ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.reason"), "null");
	} else {
		/* Root without a pids controller (this host): nothing can
		 * enforce it, the run goes ahead and the record says so. */
		ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.max"), "null");
		ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.via"), "null");
		ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "enforced.limits.pids.reason"),
				      "not enforced");
		ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "enforced.limits.pids.reason"),
				      "RLIMIT_NPROC");
		ITEST_EXPECT_NE_STR(&r, max_processes(r.out), "4096");
	}
	itest_run_close(&r);

	if (!as_user)
		return;
	/* And the kernel stops a fork loop there: init and the probe are
	 * two of the 4096 (about a second). */
	ITEST_RUN(&r, "--", "./probe", "fork", "5000");
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "forked"), "4094");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "fork_error"), "EAGAIN");
	itest_run_close(&r);
}

NSB_ITEST(limits, pids_unlimited_lifts_the_default)
{
	struct itest_run r;

	ITEST_RUN(&r, "--pids", "unlimited", "--", "cat", "/proc/self/limits");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_NE_STR(&r, max_processes(r.out), "4096");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.max"), "null");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.via"), "null");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.default"), "false");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "enforced.limits.pids.reason"), "--pids unlimited");
	cr_expect(eq(int, count_lines(r.err, "nsbox: warning:"), 0), "warning lines%s",
		  itest_ctx(&r));
	itest_run_close(&r);
}

/* As a user only: root without a cgroup is refused (tested above). */
Test(limits, asked_pids_is_not_marked_default, .timeout = 60, .fini = itest_project_fini)
{
	struct itest_run r;

	itest_require_user();
	itest_project_setup(&itest_cur, true);
	ITEST_RUN(&r, "--pids", "64", "--", "cat", "/proc/self/limits");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, max_processes(r.out), "64");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.max"), "64");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.pids.default"), "false");
	itest_run_close(&r);
}

/* ---- a --rw directory that root inside cannot write ---- */

static void chown_to(const char *rel, uid_t uid, gid_t gid, mode_t mode)
{
	const char *path = itest_path(&itest_cur, rel);

	cr_assert(chown(path, uid, gid) == 0, "chown %s: %s", path, strerror(errno));
	cr_assert(chmod(path, mode) == 0, "chmod %s: %s", path, strerror(errno));
}

NSB_ITEST(limits, rw_dir_root_cannot_write_is_warned_about)
{
	const struct passwd *pw = getpwnam(ITEST_USER);
	struct itest_run r;
	char want[512];

	cr_assert(pw != NULL, "no user " ITEST_USER);
	itest_mkdir(&itest_cur, "theirs");
	itest_mkdir(&itest_cur, "mine");
	itest_mkdir(&itest_cur, "open");
	chown_to("theirs", pw->pw_uid, pw->pw_gid, 0755);
	chown_to("mine", 0, 0, 0755);
	chown_to("open", pw->pw_uid, pw->pw_gid, 0777);

	ITEST_RUN(&r, "--rw", "theirs", "--", "./probe", "write", "theirs/x");
	ITEST_ASSERT_EXIT(&r, as_user ? 0 : 1);
	if (as_user) {
		/* Its own directory: nothing to say. */
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
		ITEST_EXPECT_LACKS(&r, r.err, "warning");
		ITEST_EXPECT_STR(&r, itest_rec(&r, "warnings"), "(missing)");
	} else {
		/* The kernel's verdict inside, and the warning before it. */
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EACCES");
		cr_expect(eq(int, count_lines(r.err, "nsbox: warning:"), 1), "warning lines%s",
			  itest_ctx(&r));
		snprintf(want, sizeof(want), "nsbox: warning: --rw '%s' is owned by " ITEST_USER,
			 itest_path(&itest_cur, "theirs"));
		ITEST_EXPECT_CONTAINS(&r, r.err, want);
		ITEST_EXPECT_CONTAINS(&r, r.err, "mode 0755");
		ITEST_EXPECT_CONTAINS(&r, r.err, "run nsbox as " ITEST_USER);
		/* One entry (the harness reads arrays as raw text). */
		const char *w = itest_rec(&r, "warnings");
		const char *k = strstr(w, "\"kind\":");
		cr_expect(k && !strstr(k + 1, "\"kind\":"), "not one warning: %s", w);
		ITEST_EXPECT_CONTAINS(&r, w, "\"kind\":\"rw_not_writable\"");
		snprintf(want, sizeof(want), "\"path\":\"%s\"", itest_path(&itest_cur, "theirs"));
		ITEST_EXPECT_CONTAINS(&r, w, want);
		ITEST_EXPECT_CONTAINS(&r, w, "fails with EACCES");
	}
	itest_run_close(&r);

	/* Root's own 0755 directory and anyone's 0777 one: writable by root
	 * inside, no warning (a user is never warned). */
	ITEST_RUN(&r, "--rw", "open", "--rw", "mine", "--", "./probe", "write", "open/x");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
	ITEST_EXPECT_LACKS(&r, r.err, "warning");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "warnings"), "(missing)");
	itest_run_close(&r);
	if (!as_user) {
		ITEST_RUN(&r, "--rw", "mine", "--", "./probe", "write", "mine/x");
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
		ITEST_EXPECT_LACKS(&r, r.err, "warning");
		itest_run_close(&r);

		/* Root's own directory whose mode denies writing: the bits
		 * decide for root as for anyone. */
		itest_mkdir(&itest_cur, "sealed");
		chown_to("sealed", 0, 0, 0555);
		ITEST_RUN(&r, "--rw", "sealed", "--", "./probe", "write", "sealed/x");
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EACCES");
		ITEST_EXPECT_CONTAINS(&r, r.err, "mode 0555");
		ITEST_EXPECT_CONTAINS(&r, r.err, "chmod u+w");
		ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "warnings"), "rw_not_writable");
		itest_run_close(&r);

		/* An owner no /etc/passwd line names: the warning gives the
		 * number.  (In the static build, looking it up through
		 * nsswitch.conf's systemd module would load a second glibc
		 * and crash: supervisor/nss.h.) */
		const uid_t stranger = 54321;
		if (getpwuid(stranger) == NULL) {
			itest_mkdir(&itest_cur, "stranger");
			chown_to("stranger", stranger, stranger, 0755);
			ITEST_RUN(&r, "--rw", "stranger", "--", "./probe", "write", "stranger/x");
			ITEST_ASSERT_EXIT(&r, 1);
			ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EACCES");
			snprintf(
				want, sizeof(want),
				"nsbox: warning: --rw '%s' is owned by uid 54321 (uid 54321, gid 54321)",
				itest_path(&itest_cur, "stranger"));
			ITEST_EXPECT_CONTAINS(&r, r.err, want);
			ITEST_EXPECT_CONTAINS(&r, r.err, "run nsbox as uid 54321");
			ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "warnings"), "rw_not_writable");
			itest_run_close(&r);
		}
	}
}

/* ---- refusals where nothing can stand in for a cgroup ---- */

NSB_ITEST(limits, cpus_without_cgroup_is_refused_with_the_reason)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "out");
	ITEST_RUN(&r, "--cpus", "0.5", "--rw", "out", "--", "./probe", "write", "out/ran");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "setup_failed");
	ITEST_EXPECT_CONTAINS(&r, r.err, "--cpus needs the cgroup v2 cpu controller");
	ITEST_EXPECT_CONTAINS(&r, r.err, "no rlimit for CPU bandwidth");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "reason"), "--cpus");
	cr_expect(access(itest_path(&itest_cur, "out/ran"), F_OK) != 0, "the payload ran");
	itest_run_close(&r);
}

NSB_ITEST(limits, require_cgroup_turns_the_fallback_into_a_failure)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "out");
	ITEST_RUN(&r, "--require-cgroup", "--memory", "64M", "--rw", "out", "--", "./probe",
		  "write", "out/ran");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "setup_failed");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "setup_error.message"), "--require-cgroup");
	ITEST_EXPECT_CONTAINS(&r, r.err, "--require-cgroup");
	/* No fallback was taken, so none is announced. */
	ITEST_EXPECT_LACKS(&r, r.err, "warning");
	cr_expect(access(itest_path(&itest_cur, "out/ran"), F_OK) != 0, "the payload ran");
	itest_run_close(&r);
}

/* ---- timeout ---- */

NSB_ITEST(limits, timeout_stops_a_sleeper)
{
	struct itest_run r;
	long long t0 = itest_now_ms(), wall;

	ITEST_RUN(&r, "--timeout", "1", "--", "./probe", "sleep", "30");
	wall = itest_now_ms() - t0;
	ITEST_EXPECT_EXIT(&r, 124);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "timed_out");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "exit_code"), "-101");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "timed_out"), "true");
	/* The probe dies of the SIGTERM; no SIGKILL was needed. */
	ITEST_EXPECT_STR(&r, itest_rec(&r, "signal"), "15");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.timeout.ms"), "1000");
	long long d = rec_ll(&r, "duration_ms");
	cr_expect(d >= 1000 && d < 1600, "duration_ms %lld not close to 1000%s", d, itest_ctx(&r));
	cr_expect(wall < 2000, "nsbox took %lld ms", wall);
	itest_run_close(&r);
}

NSB_ITEST(limits, a_payload_ignoring_sigterm_is_killed_after_the_grace)
{
	struct itest_run r;

	ITEST_RUN(&r, "--timeout", "0.5", "--kill-after", "1", "--", "bash", "-c",
		  "trap '' TERM; sleep 30");
	ITEST_EXPECT_EXIT(&r, 124);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "timed_out");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "signal"), "9");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.timeout.kill_after_ms"), "1000");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "reason"), "SIGKILL");
	/* Not before the grace is over, and promptly after it. */
	long long d = rec_ll(&r, "duration_ms");
	cr_expect(d >= 1500 && d < 2100, "duration_ms %lld, expected 1500-2100%s", d,
		  itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(limits, nothing_survives_a_timeout)
{
	struct itest_run r;
	pid_t found[16];
	char hb[512];
	char *s;
	long b1 = -1, b2;

	itest_mkdir(&itest_cur, "out");
	snprintf(hb, sizeof(hb), "%s", itest_path(&itest_cur, "out/heartbeat"));
	/* A setsid'd, double-forked daemon ignoring SIGTERM, and a payload
	 * that sleeps far past the deadline. */
	/* The deadline leaves the daemon time to start and be seen first,
	 * on a loaded machine too (1.5 s was not always enough there). */
	itest_start(&itest_cur, NULL,
		    ITEST_ARGV("--timeout", "4", "--kill-after", "0.5", "--rw", "out", "--",
			       "./probe", "spawn-bg", hb, "60"),
		    &r);
	for (int i = 0; i < 150 && b1 < 1; i++) {
		itest_sleep_ms(20);
		s = itest_slurp(hb);
		b1 = s && *s ? atol(s) : -1;
		free(s);
	}
	cr_assert(b1 >= 1, "the daemon never started");
	/* The survivor search does see the sandbox while it runs. */
	cr_assert(itest_find_procs(itest_cur.top, found, 16) >= 3,
		  "cannot see the sandbox's processes from the host");

	itest_wait(&r);
	ITEST_EXPECT_EXIT(&r, 124);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "timed_out");
	cr_expect(not(r.pipes_held), "a survivor kept nsbox's output open%s", itest_ctx(&r));
	/* Right when nsbox has exited: init's death already took the rest. */
	int n = itest_find_procs(itest_cur.top, found, 16);
	cr_expect(eq(int, n, 0), "%d sandbox processes survived the timeout (pid %d)", n, found[0]);
	s = itest_slurp(hb);
	b1 = s ? atol(s) : -1;
	free(s);
	itest_sleep_ms(400);
	s = itest_slurp(hb);
	b2 = s ? atol(s) : -1;
	free(s);
	cr_expect(eq(long, b1, b2), "the daemon is still beating");
	itest_run_close(&r);
}

/* ---- output ---- */

NSB_ITEST(limits, max_output_truncates_each_stream_with_a_marker)
{
	struct itest_run r;
	char want[2048];

	ITEST_RUN(&r, "--max-output", "1k", "--", "bash", "-c",
		  "head -c 5000 /dev/zero | tr '\\0' a; head -c 3000 /dev/zero | tr '\\0' b >&2");
	ITEST_ASSERT_EXIT(&r, 0);
	memset(want, 'a', 1024);
	snprintf(want + 1024, sizeof(want) - 1024,
		 "\n[nsbox: stdout truncated after 1024 bytes]\n");
	cr_expect(itest_streq(r.out, want), "stdout is not 1024 bytes and the marker%s",
		  itest_ctx(&r));
	memset(want, 'b', 1024);
	snprintf(want + 1024, sizeof(want) - 1024,
		 "\n[nsbox: stderr truncated after 1024 bytes]\n");
	cr_expect(itest_streq(r.err, want), "stderr is not 1024 bytes and the marker%s",
		  itest_ctx(&r));
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_bytes"), "5000");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stderr_bytes"), "3000");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_truncated"), "true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stderr_truncated"), "true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "truncated"), "true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.output.max_bytes"), "1024");
	itest_run_close(&r);

	/* Under the limit: passed unchanged, no marker, nothing flagged. */
	ITEST_RUN(&r, "--max-output", "1k", "--", "bash", "-c", "printf out; printf err >&2");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "out");
	ITEST_EXPECT_STR(&r, r.err, "err");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_bytes"), "3");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "truncated"), "false");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_truncated"), "false");
	itest_run_close(&r);
}

NSB_ITEST(limits, a_flood_past_max_output_never_blocks_the_payload)
{
	struct itest_run r;
	const char marker[] = "\n[nsbox: stdout truncated after 1024 bytes]\n";

	/* If the pump stopped reading, head would block on a full pipe and
	 * the harness (20 s) or the timeout (10 s) would end it. */
	ITEST_RUN(&r, "--max-output", "1k", "--timeout", "10", "--", "head", "-c", "50M",
		  "/dev/zero");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_bytes"), "52428800");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_truncated"), "true");
	cr_expect(eq(sz, r.out_len, 1024 + sizeof(marker) - 1), "bytes passed to the caller%s",
		  itest_ctx(&r));
	itest_run_close(&r);
}

/*
 * A limit several pump buffers (128 KiB) away: the kernel moves the bytes
 * (splice) until the last buffer, which is read, so that the count stays
 * exact and the marker knows whether the last byte passed was a newline.
 * Lines of 16 bytes: 1000000 ends on a newline, 1000001 one byte past it.
 */
NSB_ITEST(limits, a_large_max_output_is_exact)
{
	static const char *const limits[] = {"1000000", "1000001"};
	struct itest_run r;

	for (size_t i = 0; i < 2; i++) {
		size_t limit = (size_t)atol(limits[i]);
		char marker[96];

		ITEST_RUN(&r, "--max-output", limits[i], "--", "bash", "-c",
			  "yes 0123456789abcde | head -c 3000000");
		ITEST_ASSERT_EXIT(&r, 0);
		snprintf(marker, sizeof(marker), "%s[nsbox: stdout truncated after %s bytes]\n",
			 i == 0 ? "" : "\n", limits[i]);
		cr_expect(eq(sz, r.out_len, limit + strlen(marker)), "bytes passed%s",
			  itest_ctx(&r));
		if (r.out_len == limit + strlen(marker)) {
			bool same = true;
			for (size_t k = 0; k < limit && same; k++)
				same = r.out[k] == "0123456789abcde\n"[k % 16];
			cr_expect(same, "the first %zu bytes are not the payload's", limit);
			ITEST_EXPECT_STR(&r, r.out + limit, marker);
		}
		ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_bytes"), "3000000");
		ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_truncated"), "true");
		itest_run_close(&r);
	}
}

NSB_ITEST(limits, capture_puts_both_streams_in_the_record)
{
	struct itest_run r;
	char val[256];

	ITEST_RUN(&r, "--capture", "--", "bash", "-c",
		  "printf 'hello\\n'; printf 'bad\\377\\376 end' >&2");
	ITEST_ASSERT_EXIT(&r, 0);
	/* Captured, not passed on. */
	ITEST_EXPECT_STR(&r, r.out, "");
	ITEST_EXPECT_LACKS(&r, r.err, "bad");
	cr_assert(eq(int, itest_json_get(r.record, "stdout", val, sizeof(val)), ITEST_JSON_STRING),
		  "no stdout string%s", itest_ctx(&r));
	ITEST_EXPECT_STR(&r, val, "hello\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_invalid_utf8"), "false");
	cr_assert(eq(int, itest_json_get(r.record, "stderr", val, sizeof(val)), ITEST_JSON_STRING),
		  "no stderr string%s", itest_ctx(&r));
	/* The two invalid bytes are replaced (U+FFFD), the rest kept. */
	ITEST_EXPECT_STR(&r, val, "bad\xef\xbf\xbd\xef\xbf\xbd end");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stderr_invalid_utf8"), "true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_bytes"), "6");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stderr_bytes"), "9");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.output.capture"), "true");
	itest_run_close(&r);
}

NSB_ITEST(limits, capture_is_bounded_to_1mib_by_default)
{
	struct itest_run r;
	size_t size = 4 * MIB;
	char *val = malloc(size);

	cr_assert(val != NULL);
	ITEST_RUN(&r, "--capture", "--", "bash", "-c", "head -c 3M /dev/zero | tr '\\0' x");
	ITEST_ASSERT_EXIT(&r, 0);
	cr_assert(eq(int, itest_json_get(r.record, "stdout", val, size), ITEST_JSON_STRING),
		  "no stdout string in the record");
	cr_expect(eq(sz, strlen(val), (size_t)MIB), "captured stdout length");
	cr_expect(eq(sz, strspn(val, "x"), (size_t)MIB), "captured stdout content");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_bytes"), "3145728");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_truncated"), "true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.output.max_bytes"), "1048576");
	free(val);
	itest_run_close(&r);
}

Test(limits, capture_refuses_more_than_64m, .timeout = 30, .fini = itest_project_fini)
{
	struct itest_run r;

	itest_project_setup(&itest_cur, false);
	ITEST_RUN(&r, "--capture", "--max-output", "65M", "--", "true");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_CONTAINS(&r, r.err, "--max-output '65M'");
	ITEST_EXPECT_CONTAINS(&r, r.err, "--capture");
	itest_run_close(&r);

	/* 64M itself is allowed. */
	ITEST_RUN(&r, "--capture", "--max-output", "64M", "--", "true");
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
}

/* ---- /tmp and /dev/shm ---- */

NSB_ITEST(limits, tmp_size_bounds_tmp_and_dev_shm)
{
	static const char *const dirs[] = {"/tmp", "/dev/shm"};
	struct itest_run r;

	for (size_t i = 0; i < 2; i++) {
		ITEST_RUN(&r, "--tmp-size", "8M", "--", "./probe", "statfs", dirs[i]);
		ITEST_ASSERT_EXIT(&r, 0);
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "size"), "8388608");
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "f_type"), "0x1021994"); /* tmpfs */
		ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.limits.tmp.bytes"), "8388608");
		itest_run_close(&r);
	}
	/* And the kernel enforces it: 9 MiB do not fit. */
	ITEST_RUN(&r, "--tmp-size", "8M", "--allow-exec", "dd", "--", "dd", "if=/dev/zero",
		  "of=/tmp/big", "bs=1M", "count=9");
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_CONTAINS(&r, r.err, "No space left on device");
	itest_run_close(&r);
}

/* ---- validation ---- */

struct bad_value {
	char opt[16];
	char val[16];
};

static struct bad_value bad_values[] = {
	{"--memory", "0"},    {"--memory", "1x"},	{"--timeout", "-1"},	{"--timeout", "0"},
	{"--timeout", "abc"}, {"--kill-after", "4000"}, {"--max-output", "2T"}, {"--pids", "1"},
	{"--cpus", "0"},      {"--tmp-size", "1k"},	{"--memory", "2T"},	{"--cpus", "0.5x"},
};

ParameterizedTestParameters(limits, bad_values_are_usage_errors)
{
	return cr_make_param_array(struct bad_value, bad_values,
				   sizeof(bad_values) / sizeof(bad_values[0]));
}

ParameterizedTest(struct bad_value *b, limits, bad_values_are_usage_errors, .timeout = 30,
		  .fini = itest_project_fini)
{
	struct itest_run r;
	char named[64];

	itest_project_setup(&itest_cur, false);
	itest_mkdir(&itest_cur, "out");
	ITEST_RUN(&r, b->opt, b->val, "--rw", "out", "--", "./probe", "write", "out/ran");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	snprintf(named, sizeof(named), "nsbox: %s '%s'", b->opt, b->val);
	ITEST_EXPECT_CONTAINS(&r, r.err, named);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "reason"), b->val);
	cr_expect(access(itest_path(&itest_cur, "out/ran"), F_OK) != 0, "the payload ran");
	itest_run_close(&r);
}

/*
 * Without limits the run's own cgroup is made only where it accounts: a
 * memory or pids peak in the record goes with a cgroup, and no peak with
 * none (a hybrid host's unified tree has no controllers).  Asked for, with
 * --require-cgroup, it is made even where it accounts nothing.
 */
NSB_ITEST(limits, an_unasked_cgroup_is_made_only_where_it_accounts)
{
	struct itest_run r;

	ITEST_RUN(&r, "--", "./probe", "exit", "0");
	ITEST_ASSERT_EXIT(&r, 0);
	bool accounted = strcmp(itest_rec(&r, "resources.memory_peak_bytes"), "null") != 0 ||
			 strcmp(itest_rec(&r, "resources.pids_peak"), "null") != 0;
	if (accounted)
		ITEST_EXPECT_NE_STR(&r, itest_rec(&r, "enforced.cgroup"), "null");
	else
		ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.cgroup"), "null");
	itest_run_close(&r);

	if (accounted || as_user || access("/sys/fs/cgroup/unified/cgroup.procs", W_OK) != 0)
		return;
	ITEST_RUN(&r, "--require-cgroup", "--cgroup-parent", "/sys/fs/cgroup/unified", "--",
		  "./probe", "exit", "0");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "enforced.cgroup.path"), "/sys/fs/cgroup/unified/");
	itest_run_close(&r);
}
