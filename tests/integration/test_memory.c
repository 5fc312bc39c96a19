// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a waiting sandbox keeps in memory (base/trim.h): once the payload
 * has lived a while, the supervisor and init have dropped their mappings of
 * nsbox's read-only segments, as the kernel counts them in /proc/PID/smaps;
 * and init, under a profile that kills for that madvise, asks its filter
 * first and keeps its pages rather than die; and while more tasks are
 * runnable than there are CPUs, the trim waits until they are not.  As
 * root and as the unprivileged user.
 *
 * The trim shows best in nsbox's constants (its read-only, not executable
 * mappings): a launch leaves 220-350 KiB of them resident in each process,
 * a trim some 28 (the RELRO pages, which it leaves alone).  Its text says
 * less since the code a launch runs lies together (tools/hot-functions.txt,
 * tools/hot-archive.txt): in the static build a launch leaves 192-448 KiB
 * of 1256 resident, a trim 192.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/*
 * What pid has resident of itest_cur.nsbox, in KiB, as /proc/PID/smaps
 * counts it: of its executable mappings (text) or of its read-only, not
 * executable ones (constants, the RELRO pages among them).  *size, when
 * not NULL, gets the mappings' size.
 */
static long resident_kb(pid_t pid, bool text, long *size)
{
	const char *exe = itest_cur.nsbox;
	char path[64], line[4608];
	bool in = false;
	long sum = 0, total = 0, kb;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
	f = fopen(path, "re");
	cr_assert(f != NULL, "open %s", path);
	while (fgets(line, sizeof(line), f)) {
		char perms[8], file[4096] = "";
		if (strchr(line, '-') < strchr(line, ' ') &&
		    sscanf(line, "%*x-%*x %7s %*s %*s %*s %4095s", perms, file) >= 1) {
			in = strcmp(file, exe) == 0 &&
			     (text ? perms[2] == 'x' : perms[1] == '-' && perms[2] == '-');
			continue;
		}
		if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
			sum += kb;
		if (in && sscanf(line, "Size: %ld kB", &kb) == 1)
			total += kb;
	}
	fclose(f);
	if (size)
		*size = total;
	return sum;
}

static long text_kb(pid_t pid, long *size)
{
	return resident_kb(pid, true, size);
}

static long ro_kb(pid_t pid)
{
	return resident_kb(pid, false, NULL);
}

/* The first child of pid, or 0. */
static pid_t child_of(pid_t pid)
{
	char path[64];
	char *s;
	pid_t c;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	s = itest_slurp(path);
	c = s ? (pid_t)atoi(s) : 0;
	free(s);
	return c;
}

/* Wait until the sandbox's payload runs `sleep`; returns init's pid. */
static pid_t wait_for_sleep(const struct itest_run *r)
{
	for (int i = 0; i < 500; i++) {
		pid_t init = child_of(r->pid);
		pid_t payload = init ? child_of(init) : 0;
		char path[64];
		char *comm;

		snprintf(path, sizeof(path), "/proc/%d/comm", (int)payload);
		comm = payload ? itest_slurp(path) : NULL;
		bool asleep = comm && strcmp(comm, "sleep\n") == 0;
		free(comm);
		if (asleep)
			return init;
		itest_sleep_ms(10);
	}
	cr_assert(false, "the payload never showed up");
	return 0;
}

/*
 * Wait, up to @ms, until the supervisor keeps at most half of the constants
 * it had at the launch (@launch_ro KiB): it has trimmed (NSB_TRIM_AFTER_MS,
 * or later while other tests keep every CPU busy: the retries come 0.3,
 * 0.7 and 1.5 s after the start).  Then a little longer for init, which
 * trims on the supervisor's signal.
 */
static void wait_for_trim(const struct itest_run *r, long ms, long launch_ro)
{
	for (long waited = 0; waited < ms; waited += 20) {
		if (ro_kb(r->pid) <= launch_ro / 2)
			break;
		itest_sleep_ms(20);
	}
	itest_sleep_ms(100);
}

NSB_ITEST(memory, a_waiting_sandbox_gives_back_nsbox_text)
{
	struct itest_run r;
	long sup, init, size, sup_ro, init_ro;
	(void)as_user;

	itest_start(&itest_cur, NULL, ITEST_ARGV("--", "sleep", "3"), &r);
	pid_t ipid = wait_for_sleep(&r);
	long launch_sup_ro = ro_kb(r.pid), launch_init_ro = ro_kb(ipid);
	wait_for_trim(&r, 2500, launch_sup_ro);
	sup = text_kb(r.pid, &size);
	init = text_kb(ipid, &size);
	sup_ro = ro_kb(r.pid);
	init_ro = ro_kb(ipid);
	itest_wait(&r);
	ITEST_EXPECT_EXIT(&r, 0);
	/* After the trim, the one to three 64 KiB fault-around windows the
	 * wait runs in come back: at most half of the text in any build (some
	 * 15 % of the static one's, 30 % of a dynamic one's, 20 % of an ASan
	 * build's), and of the constants, little more than the RELRO pages. */
	cr_expect(le(long, sup, size / 2), "the supervisor keeps %ld of %ld KiB of nsbox's text",
		  sup, size);
	cr_expect(le(long, init, size / 2), "init keeps %ld of %ld KiB of nsbox's text", init,
		  size);
	cr_expect(le(long, sup_ro, launch_sup_ro / 2),
		  "the supervisor keeps %ld of the %ld KiB of constants it had", sup_ro,
		  launch_sup_ro);
	cr_expect(le(long, init_ro, launch_init_ro / 2),
		  "init keeps %ld of the %ld KiB of constants it had", init_ro, launch_init_ro);
	cr_log_info("nsbox text resident while waiting: supervisor %ld KiB, init %ld KiB of %ld; "
		    "constants %ld, %ld KiB (at the launch %ld, %ld)",
		    sup, init, size, sup_ro, init_ro, launch_sup_ro, launch_init_ro);
	itest_run_close(&r);
}

/* init's trim is a madvise(MADV_DONTNEED); this profile kills for it. */
NSB_ITEST(memory, init_does_not_trim_where_its_filter_would_refuse)
{
	struct itest_run r;
	long sup_ro, init_ro;
	(void)as_user;

	itest_write(&itest_cur, "trimkill.profile", "default allow\nmadvise kill if arg2 == 4\n");
	itest_start(&itest_cur, NULL,
		    ITEST_ARGV("--seccomp", itest_path(&itest_cur, "trimkill.profile"), "--",
			       "sleep", "3"),
		    &r);
	pid_t ipid = wait_for_sleep(&r);
	long launch_sup_ro = ro_kb(r.pid), launch_init_ro = ro_kb(ipid);
	wait_for_trim(&r, 2500, launch_sup_ro);
	sup_ro = ro_kb(r.pid);
	init_ro = ro_kb(ipid);
	itest_wait(&r);
	/* init asked its filter, which would kill it: it kept its pages and
	 * its life, and the payload's status came through; the supervisor,
	 * under no filter, trimmed. */
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	cr_expect(le(long, sup_ro, launch_sup_ro / 2),
		  "the supervisor keeps %ld of the %ld KiB of constants it had", sup_ro,
		  launch_sup_ro);
	cr_expect(ge(long, init_ro, launch_init_ro),
		  "init dropped constants (%ld of the %ld KiB it had)", init_ro, launch_init_ro);
	cr_log_info("constants resident: supervisor %ld KiB (%ld at the launch), init %ld (%ld)",
		    sup_ro, launch_sup_ro, init_ro, launch_init_ro);
	itest_run_close(&r);
}

/* n busy loops, each dying with the test's process; their pids in *pids. */
static void spin_up(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		cr_assert(pids[i] >= 0, "fork");
		if (pids[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				__asm__ volatile("" ::: "memory");
		}
	}
}

static void spin_down(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
}

NSB_ITEST(memory, the_trim_waits_while_every_cpu_is_busy)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int n = 2 * (int)cpus + 2;
	pid_t *spin = calloc((size_t)n, sizeof(*spin));
	struct itest_run r;
	long busy_sup, busy_init, sup, init;
	(void)as_user;

	cr_assert(cpus > 0 && cpus < 4096 && spin != NULL);
	/* More runnable than CPUs, from before the launch to past its trim time. */
	spin_up(spin, n);
	itest_start(&itest_cur, NULL, ITEST_ARGV("--", "sleep", "4"), &r);
	pid_t ipid = wait_for_sleep(&r);
	long launch_sup = ro_kb(r.pid), launch_init = ro_kb(ipid);
	itest_sleep_ms(400);
	busy_sup = ro_kb(r.pid);
	busy_init = ro_kb(ipid);
	spin_down(spin, n);
	free(spin);
	/* The CPUs free again: the next try trims. */
	wait_for_trim(&r, 3000, launch_sup);
	sup = ro_kb(r.pid);
	init = ro_kb(ipid);
	itest_wait(&r);
	ITEST_EXPECT_EXIT(&r, 0);
	cr_expect(gt(long, busy_sup, launch_sup / 2),
		  "with %d busy loops on %ld CPUs the supervisor trimmed anyway (%ld of the %ld "
		  "KiB of constants it had)",
		  n, cpus, busy_sup, launch_sup);
	cr_expect(gt(long, busy_init, launch_init / 2),
		  "with %d busy loops on %ld CPUs init trimmed anyway (%ld of the %ld KiB of "
		  "constants it had)",
		  n, cpus, busy_init, launch_init);
	cr_expect(le(long, sup, launch_sup / 2), "the supervisor keeps %ld of %ld KiB once idle",
		  sup, launch_sup);
	cr_expect(le(long, init, launch_init / 2), "init keeps %ld of %ld KiB once idle", init,
		  launch_init);
	cr_log_info(
		"nsbox constants resident: launch %ld / %ld KiB, busy %ld / %ld, idle %ld / %ld",
		launch_sup, launch_init, busy_sup, busy_init, sup, init);
	itest_run_close(&r);
}
