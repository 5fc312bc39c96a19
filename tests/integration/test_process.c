// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The payload process: environment, inherited fds, exit status and signal
 * propagation, and what happens to background children and to the sandbox
 * when the payload or the supervisor dies.  Survivors are looked for from the
 * host: in /proc and through a heartbeat file they would keep rewriting.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

NSB_ITEST(process, environment_is_cleared_to_the_fixed_set)
{
	struct itest_run r;
	char *line, *save;

	ITEST_RUN(&r, "--", "./probe", "env");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "PATH"),
			 "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "HOME"), "/tmp");
	/* LANG is set by the harness and passes through. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "LANG"), "C.UTF-8");
	/* Set by the harness, must not arrive. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "NSBOX_ITEST_SECRET"), "(missing)");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "USER"), "(missing)");
	/* And nothing else at all. */
	for (line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		bool ok = !strncmp(line, "PATH=", 5) || !strncmp(line, "HOME=", 5) ||
			  !strncmp(line, "LANG=", 5);
		cr_expect(ok, "unexpected variable inside: %s", line);
	}
	itest_run_close(&r);
}

NSB_ITEST(process, env_option_sets_or_copies_a_variable)
{
	struct itest_run r;

	ITEST_RUN(&r, "--env", "GREETING=hi there", "--env", "NSBOX_ITEST_SECRET", "--", "./probe",
		  "env");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "GREETING"), "hi there");
	/* NAME alone copies the caller's value. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "NSBOX_ITEST_SECRET"), "leaked-from-host");
	itest_run_close(&r);
}

NSB_ITEST(process, no_fd_above_2_is_inherited)
{
	struct itest_run r;
	struct itest_opts o = {.leak_fd = 7};

	/* fd 7 is a directory left open without CLOEXEC, and fd 3 is the record pipe. */
	itest_run(&itest_cur, &o, ITEST_ARGV("--", "./probe", "fds"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "fds"), "0 1 2");
	itest_run_close(&r);
}

NSB_ITEST(process, exit_status_passes_through)
{
	static const char *const codes[] = {"0", "1", "42", "122"};
	struct itest_run r;

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		ITEST_RUN(&r, "--", "./probe", "exit", codes[i]);
		ITEST_EXPECT_EXIT(&r, atoi(codes[i]));
		ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
		ITEST_EXPECT_STR(&r, itest_rec(&r, "exit_code"), codes[i]);
		itest_run_close(&r);
	}
}

NSB_ITEST(process, death_by_signal_becomes_128_plus_n)
{
	static const int sigs[] = {SIGTERM, SIGKILL, SIGSEGV, SIGUSR1};
	struct itest_run r;
	char arg[8], want[8];

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		snprintf(arg, sizeof(arg), "%d", sigs[i]);
		ITEST_RUN(&r, "--", "./probe", "kill", arg);
		/* nsbox exits normally with 128+N; it does not die itself. */
		bool exited = WIFEXITED(r.wait_status);
		cr_expect(exited, "nsbox was killed%s", itest_ctx(&r));
		ITEST_EXPECT_EXIT(&r, 128 + sigs[i]);
		ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "signaled");
		snprintf(want, sizeof(want), "%d", sigs[i]);
		ITEST_EXPECT_STR(&r, itest_rec(&r, "signal"), want);
		itest_run_close(&r);
	}
}

/* The heartbeat counter a probe keeps rewriting, or -1. */
static long beat(const char *file)
{
	char *s = itest_slurp(file);
	long v = s && *s ? atol(s) : -1;

	free(s);
	return v;
}

NSB_ITEST(process, background_children_die_with_the_payload)
{
	struct itest_run r;
	pid_t found[16];
	long b1, b2;
	char hb[512];

	itest_mkdir(&itest_cur, "out");
	snprintf(hb, sizeof(hb), "%s", itest_path(&itest_cur, "out/heartbeat"));
	/* The probe leaves a setsid'd daemon ignoring SIGHUP/SIGTERM and exits. */
	ITEST_RUN(&r, "--rw", "out", "--", "./probe", "spawn-bg", hb);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "spawn"), "ok");
	cr_expect(not(r.pipes_held), "a survivor kept nsbox's output open%s", itest_ctx(&r));
	itest_run_close(&r);

	/* The daemon did run ... */
	b1 = beat(hb);
	cr_assert(b1 >= 1, "the background child never beat");
	/* ... and nothing of the sandbox is left on the host ... */
	cr_expect(eq(int, itest_find_procs(itest_cur.top, found, 16), 0),
		  "a sandbox process survived (pid %d)", found[0]);
	/* ... and the heartbeat has stopped. */
	itest_sleep_ms(400);
	b2 = beat(hb);
	cr_expect(eq(long, b1, b2), "the background child is still beating");
}

NSB_ITEST(process, supervisor_sigkill_kills_the_whole_sandbox)
{
	struct itest_run r;
	pid_t found[16];
	long b1 = -1, b2;
	char hb[512];
	int n = 0;

	itest_mkdir(&itest_cur, "out");
	snprintf(hb, sizeof(hb), "%s", itest_path(&itest_cur, "out/heartbeat"));
	/* A daemon plus a payload that sleeps for a minute. */
	itest_start(&itest_cur, NULL,
		    ITEST_ARGV("--rw", "out", "--", "./probe", "spawn-bg", hb, "60"), &r);
	for (int i = 0; i < 200 && b1 < 1; i++) {
		itest_sleep_ms(50);
		b1 = beat(hb);
	}
	cr_assert(b1 >= 1, "the sandbox never started its daemon");
	/* The survivor detector sees the sandbox while it runs (else the check
	 * below would prove nothing): supervisor, init, payload, daemon. */
	cr_assert(itest_find_procs(itest_cur.top, found, 16) >= 3,
		  "cannot see the sandbox's processes from the host");

	cr_assert(kill(r.pid, SIGKILL) == 0);
	itest_wait(&r);
	cr_expect(eq(int, r.exit_code, 128 + SIGKILL));
	/* The sandbox may take a moment to be torn down, not more. */
	for (int i = 0; i < 60; i++) {
		n = itest_find_procs(itest_cur.top, found, 16);
		if (n == 0)
			break;
		itest_sleep_ms(50);
	}
	cr_expect(eq(int, n, 0), "%d sandbox processes survived the supervisor (pid %d)", n,
		  found[0]);
	b1 = beat(hb);
	itest_sleep_ms(400);
	b2 = beat(hb);
	cr_expect(eq(long, b1, b2), "the daemon is still beating after the supervisor died");
	/* Leave nothing behind even when the test fails. */
	n = itest_find_procs(itest_cur.top, found, 16);
	for (int i = 0; i < n && i < 16; i++)
		kill(found[i], SIGKILL);
	itest_run_close(&r);
}
