// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --isolation and nsbox doctor, judged from the kernel's side.  User
 * namespaces are refused for real in two ways: nsbox inside nsbox (the outer
 * default profile refuses them as Docker's does) and the nouserns helper (a
 * seccomp filter like a container runtime's).  The Landlock mode is probed
 * from inside: reads and writes outside the granted set, the private
 * TMPDIR, sockets, signals to host processes, and survivors.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define LL "--isolation", "landlock"

/* A file outside the project, readable by the runner: Landlock alone keeps it out. */
static const char *outside_file(const struct itest_project *p)
{
	static char path[400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/outside.txt", p->top);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("outside\n", f);
	cr_assert(fclose(f) == 0);
	cr_assert(chown(path, p->uid, p->gid) == 0);
	return path;
}

NSB_ITEST(isolation, landlock_reads_outside_the_granted_set_fail)
{
	struct itest_run r;
	const char *outside = outside_file(&itest_cur);

	ITEST_RUN(&r, LL, "--", "./probe", "read", outside);
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "read"), "EACCES");
	itest_run_close(&r);

	/* The system view and the project read fine. */
	ITEST_RUN(&r, LL, "--", "./probe", "read", "/etc/passwd");
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
	itest_write(&itest_cur, "in.txt", "inside\n");
	ITEST_RUN(&r, LL, "--", "./probe", "read", "in.txt");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "data"), "inside");
	itest_run_close(&r);
}

NSB_ITEST(isolation, landlock_writes_only_in_rw_binds)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "out");
	/* The project is read-only. */
	ITEST_RUN(&r, LL, "--", "./probe", "write", "new.txt");
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EACCES");
	itest_run_close(&r);
	/* /tmp is the host's: not granted. */
	ITEST_RUN(&r, LL, "--", "./probe", "write", "/tmp/nsbox-landlock-probe");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EACCES");
	itest_run_close(&r);
	ITEST_RUN(&r, LL, "--rw", "out", "--", "./probe", "write", "out/x.txt", "data");
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
	char *got = itest_slurp(itest_path(&itest_cur, "out/x.txt"));
	cr_expect(got && strcmp(got, "data") == 0);
	free(got);
}

NSB_ITEST(isolation, landlock_private_tmpdir_works_and_is_removed)
{
	struct itest_run r;
	char dir[512];
	struct stat st;

	ITEST_RUN(&r, LL, "--", "/bin/sh", "-c", "./probe write \"$TMPDIR/f\" && ./probe env");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
	snprintf(dir, sizeof(dir), "%s", itest_kv(r.out, "TMPDIR"));
	cr_expect(strncmp(dir, "/tmp/nsbox-", 11) == 0, "TMPDIR=%s", dir);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "HOME"), dir);
	cr_expect(stat(dir, &st) < 0 && errno == ENOENT, "'%s' is still there", dir);
	itest_run_close(&r);
}

NSB_ITEST(isolation, landlock_network_is_off)
{
	struct itest_run r;

	ITEST_RUN(&r, LL, "--", "./probe", "socket", "inet");
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "socket"), "EAFNOSUPPORT");
	itest_run_close(&r);
	ITEST_RUN(&r, LL, "--", "./probe", "socket", "inet6");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "socket"), "EAFNOSUPPORT");
	itest_run_close(&r);
	ITEST_RUN(&r, LL, "--", "./probe", "socket", "netlink");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "socket"), "EAFNOSUPPORT");
	itest_run_close(&r);
	/* Unix sockets stay (pipes between tools need them). */
	ITEST_RUN(&r, LL, "--", "./probe", "socket", "unix");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.landlock.socket_filter"), "true");
	itest_run_close(&r);
	/* --share-net gives the host's network back, on purpose. */
	ITEST_RUN(&r, LL, "--share-net", "--", "./probe", "socket", "inet");
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
}

/* A process of the caller's own uid on the host: only Landlock's scoping
 * keeps the payload from signalling it. */
/* A listener on the host's loopback: the payload shares the host's network
 * stack, and still nothing connects. */
NSB_ITEST(isolation, landlock_tcp_to_host_loopback_fails)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(sa);
	int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	struct itest_run r;
	char port[16];

	cr_assert(lfd >= 0);
	cr_assert(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) == 0 && listen(lfd, 4) == 0);
	cr_assert(getsockname(lfd, (struct sockaddr *)&sa, &len) == 0);
	snprintf(port, sizeof(port), "%d", ntohs(sa.sin_port));
	ITEST_RUN(&r, LL, "--", "./probe", "connect", "127.0.0.1", port);
	ITEST_EXPECT_NE_STR(&r, itest_kv(r.out, "connect"), "ok");
	cr_expect(r.exit_code != 0, "%s", itest_ctx(&r));
	itest_run_close(&r);
	cr_expect(accept(lfd, NULL, NULL) < 0 && errno == EAGAIN, "a connection arrived");
	/* With the host's network on purpose, it does arrive. */
	ITEST_RUN(&r, LL, "--share-net", "--", "./probe", "connect", "127.0.0.1", port);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "connect"), "ok");
	itest_run_close(&r);
	close(lfd);
}

NSB_ITEST(isolation, landlock_cannot_signal_host_processes)
{
	struct itest_run r;
	char pid[32];
	pid_t host = fork();

	cr_assert(host >= 0);
	if (host == 0) {
		if (itest_cur.as_user &&
		    (setresgid(itest_cur.gid, itest_cur.gid, itest_cur.gid) < 0 ||
		     setresuid(itest_cur.uid, itest_cur.uid, itest_cur.uid) < 0))
			_exit(1);
		pause();
		_exit(0);
	}
	snprintf(pid, sizeof(pid), "%d", (int)host);
	ITEST_RUN(&r, LL, "--", "./probe", "signal", pid);
	kill(host, SIGKILL);
	waitpid(host, NULL, 0);
	if (!strstr(itest_rec(&r, "enforced.landlock.scoped"), "signal")) {
		itest_run_close(&r);
		cr_skip_test("Landlock ABI < 6: signals are not scoped");
	}
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "signal"), "EPERM");
	itest_run_close(&r);
}

/* The heartbeat file stops changing: nothing is left beating it. */
static void expect_no_heartbeat(const char *file)
{
	char *a, *b;

	itest_sleep_ms(200);
	a = itest_slurp(file);
	itest_sleep_ms(400);
	b = itest_slurp(file);
	cr_expect(a && b && strcmp(a, b) == 0, "a survivor still beats '%s' (%s -> %s)", file,
		  a ? a : "-", b ? b : "-");
	free(a);
	free(b);
}

NSB_ITEST(isolation, landlock_double_forked_daemon_does_not_survive)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "out");
	ITEST_RUN(&r, LL, "--rw", "out", "--", "./probe", "spawn-bg", "out/beat");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "spawn"), "ok");
	itest_run_close(&r);
	expect_no_heartbeat(itest_path(&itest_cur, "out/beat"));
}

NSB_ITEST(isolation, landlock_timeout_leaves_no_survivor)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "out");
	ITEST_RUN(&r, LL, "--rw", "out", "--timeout", "1", "--kill-after", "0.2", "--", "./probe",
		  "spawn-bg", "out/beat", "30");
	ITEST_EXPECT_EXIT(&r, 124);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "timed_out");
	itest_run_close(&r);
	expect_no_heartbeat(itest_path(&itest_cur, "out/beat"));
}

/*
 * Hundreds of children that ignore SIGTERM, the last one beating: their
 * parent's /proc children list runs past a page, and the one at its end
 * must die like the others when the deadline's SIGKILL comes (with
 * --capture, a survivor would also hold the output pipes, and nsbox).
 */
NSB_ITEST(isolation, landlock_timeout_kills_a_crowd_of_children)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "out");
	ITEST_RUN(&r, LL, "--rw", "out", "--capture", "--pids", "unlimited", "--timeout", "2",
		  "--kill-after", "0.2", "--", "/bin/sh", "-c",
		  "trap '' TERM; ./probe heartbeat out/beat & "
		  "i=0; while [ $i -lt 900 ]; do ./probe sleep 100 & i=$((i+1)); done; wait");
	ITEST_EXPECT_EXIT(&r, 124);
	/* The heartbeat starts first: where forks are slow the crowd is
	 * still growing when the deadline hits (some 3.5 ms a fork and exec
	 * on a machine whose page faults cost 10 us), and the beat must be
	 * there to be watched. */
	/* Killed and reaped soon after the 2.2 s: a reap that walked /proc
	 * again for every child it reaped took 8.5 s here for this crowd
	 * (and past the harness's 20 s on a slower machine). */
	long long d = atoll(itest_rec(&r, "duration_ms"));
	cr_expect(d >= 2000 && d < 6000, "duration_ms %lld, expected 2000-6000%s", d,
		  itest_ctx(&r));
	itest_run_close(&r);
	expect_no_heartbeat(itest_path(&itest_cur, "out/beat"));
}

NSB_ITEST(isolation, landlock_record_says_what_is_missing)
{
	struct itest_run r;

	ITEST_RUN(&r, LL, "--", "./probe", "status");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.isolation"), "landlock");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.missing"),
			 "[\"pid\",\"mount\",\"net\",\"ipc\",\"uts\",\"user\",\"cgroup\"]");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.namespaces"), "[]");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.landlock.fs"), "true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.landlock.net_tcp"), "true");
	cr_expect(atoi(itest_rec(&r, "enforced.landlock.abi")) >= 1);
	/* From the kernel's side: no capability, no_new_privs, two filters. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.CapEff"), "0000000000000000");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.NoNewPrivs"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.Seccomp"), "2");
	if (!as_user)
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.CapBnd"), "0000000000000000");
	itest_run_close(&r);

	/* The default says so too, and --check names the mode. */
	ITEST_RUN(&r, "--", "./probe", "exit", "0");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.isolation"), "namespaces");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.missing"), "(missing)");
	itest_run_close(&r);
	ITEST_RUN(&r, LL, "--check", "--", "./probe", "exit", "0");
	cr_expect(strstr(r.out, "\"isolation\":\"landlock\"") != NULL, "%s", itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(isolation, landlock_limits_apply)
{
	struct itest_run r;

	ITEST_RUN(&r, LL, "--memory", "64M", "--", "./probe", "exit", "0");
	ITEST_EXPECT_EXIT(&r, 0);
	cr_expect(strcmp(itest_rec(&r, "enforced.limits.memory.via"), "(missing)") != 0, "%s",
		  itest_ctx(&r));
	itest_run_close(&r);
	ITEST_RUN(&r, LL, "--max-output", "10", "--", "./probe", "env");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_truncated"), "true");
	itest_run_close(&r);
}

NSB_ITEST(isolation, landlock_refuses_what_needs_a_mount_namespace)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "data");
	ITEST_RUN(&r, LL, "--ro", "data:/data", "--", "./probe", "exit", "0");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.stage"), "landlock");
	cr_expect(strstr(r.err, "--ro data") != NULL, "%s", itest_ctx(&r));
	itest_run_close(&r);
	ITEST_RUN(&r, LL, "--tmpfs", "/scratch", "--", "./probe", "exit", "0");
	ITEST_EXPECT_EXIT(&r, 125);
	itest_run_close(&r);
}

/* ---- user namespaces refused for real --------------------------------------- */

/* nsbox as the nouserns helper starts it: a wrapper script in the project's top. */
static struct itest_project under_nouserns(void)
{
	struct itest_project q = itest_cur;
	const char *helper = getenv("NSBOX_NOUSERNS");
	char script[600];
	FILE *f;

	if (!helper || !*helper)
		cr_skip_test("NSBOX_NOUSERNS is not set (make build/nouserns)");
	snprintf(q.nsbox, sizeof(q.nsbox), "%s/nsbox-nouserns", q.top);
	snprintf(script, sizeof(script), "#!/bin/sh\nexec %s %s \"$@\"\n", helper, itest_cur.nsbox);
	f = fopen(q.nsbox, "w");
	cr_assert_not_null(f);
	fputs(script, f);
	cr_assert(fclose(f) == 0);
	cr_assert(chmod(q.nsbox, 0755) == 0);
	return q;
}

NSB_ITEST(isolation, seccomp_blocked_userns_namespaces_fails_with_the_diagnosis)
{
	struct itest_project q = under_nouserns();
	struct itest_run r;

	itest_run(&q, NULL, ITEST_ARGV("--", "./probe", "exit", "0"), &r);
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.stage"), "userns");
	cr_expect(strstr(r.err, "seccomp filter") != NULL, "%s", itest_ctx(&r));
	cr_expect(strstr(r.err, "--isolation auto") != NULL, "%s", itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(isolation, seccomp_blocked_userns_landlock_and_auto_run)
{
	struct itest_project q = under_nouserns();
	struct itest_run r;
	const char *outside = outside_file(&itest_cur);

	itest_run(&q, NULL, ITEST_ARGV(LL, "--", "./probe", "read", outside), &r);
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "read"), "EACCES");
	itest_run_close(&r);
	itest_run(&q, NULL, ITEST_ARGV("--isolation", "auto", "--", "./probe", "exit", "0"), &r);
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.isolation"), "landlock");
	cr_expect(strstr(r.err, "warning: user namespaces are refused here") != NULL, "%s",
		  itest_ctx(&r));
	itest_run_close(&r);
	/* Where they work, auto is the full sandbox, silently. */
	ITEST_RUN(&r, "--isolation", "auto", "--", "./probe", "exit", "0");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.isolation"), "namespaces");
	cr_expect(strstr(r.err, "warning") == NULL, "%s", itest_ctx(&r));
	itest_run_close(&r);
}

/* The outer sandbox's default profile refuses user namespaces like Docker's. */
/* Under make asan the inner nsbox is a sanitizer build too, and LeakSanitizer
 * needs ptrace, which the outer default profile refuses: its leak check is
 * off in there (the outer one still checks). */
static const char *inner_env(void)
{
	return getenv("ASAN_OPTIONS") ? "ASAN_OPTIONS=detect_leaks=0" : "NSBOX_ITEST_INNER=1";
}

NSB_ITEST(isolation, nsbox_in_nsbox)
{
	struct itest_run r;
	const char *inner = itest_cur.nsbox;
	const char *env = inner_env();

	ITEST_RUN(&r, "--env", env, "--ro", itest_cur.top, "--", inner, "--", "./probe", "exit",
		  "0");
	ITEST_EXPECT_EXIT(&r, 125);
	cr_expect(strstr(r.err, "seccomp filter") != NULL, "%s", itest_ctx(&r));
	cr_expect(strstr(r.err, "--isolation auto") != NULL, "%s", itest_ctx(&r));
	itest_run_close(&r);
	ITEST_RUN(&r, "--env", env, "--ro", itest_cur.top, "--", inner, LL, "--", "./probe",
		  "socket", "inet");
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "socket"), "EAFNOSUPPORT");
	itest_run_close(&r);
	ITEST_RUN(&r, "--env", env, "--ro", itest_cur.top, "--", inner, "--isolation", "auto", "--",
		  "./probe", "exit", "7");
	ITEST_EXPECT_EXIT(&r, 7);
	cr_expect(strstr(r.err, "--isolation auto runs with Landlock") != NULL, "%s",
		  itest_ctx(&r));
	itest_run_close(&r);
	/* doctor agrees: only the degraded mode works in there. */
	ITEST_RUN(&r, "--env", env, "--ro", itest_cur.top, "--", inner, "doctor", "--json");
	ITEST_EXPECT_EXIT(&r, 1);
	cr_expect(strstr(r.out, "{\"schema\":1,\"exit_code\":1,") == r.out, "%s", itest_ctx(&r));
	cr_expect(strstr(r.out, "\"auto\":\"landlock\"") != NULL, "%s", itest_ctx(&r));
	cr_expect(strstr(r.out, "\"seccomp_mode\":2") != NULL, "%s", itest_ctx(&r));
	itest_run_close(&r);
}

/* ---- doctor ------------------------------------------------------------------- */

NSB_ITEST(isolation, doctor_on_this_host_matches_what_works)
{
	struct itest_opts o = {.raw_argv = true, .no_record = true};
	struct itest_run r, run;

	itest_run(&itest_cur, &o, ITEST_ARGV("doctor", "--json"), &r);
	ITEST_RUN(&run, "--", "./probe", "exit", "0");
	/* Exit 0 exactly when the full sandbox really starts. */
	cr_expect(eq(int, r.exit_code == 0, run.exit_code == 0), "doctor%s run%s", itest_ctx(&r),
		  itest_ctx(&run));
	cr_expect(strstr(r.out, "{\"schema\":1,") == r.out, "%s", itest_ctx(&r));
	cr_expect(strstr(r.out, "\"name\":\"user namespaces\"") != NULL);
	itest_run_close(&run);
	itest_run_close(&r);

	itest_run(&itest_cur, &o, ITEST_ARGV("doctor"), &r);
	cr_expect(strstr(r.out, "verdict: ") != NULL, "%s", itest_ctx(&r));
	itest_run_close(&r);
	itest_run(&itest_cur, &o, ITEST_ARGV("doctor", "--bogus"), &r);
	ITEST_EXPECT_EXIT(&r, 125);
	itest_run_close(&r);
}

NSB_ITEST(isolation, doctor_under_a_seccomp_filter)
{
	struct itest_project q = under_nouserns();
	struct itest_opts o = {.raw_argv = true, .no_record = true};
	struct itest_run r;

	itest_run(&q, &o, ITEST_ARGV("doctor", "--json"), &r);
	ITEST_EXPECT_EXIT(&r, 1);
	cr_expect(strstr(r.out, "\"userns_ok\":false") != NULL, "%s", itest_ctx(&r));
	cr_expect(strstr(r.out, "\"userns_step\":\"unshare\"") != NULL, "%s", itest_ctx(&r));
	itest_run_close(&r);
}
