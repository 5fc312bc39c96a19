// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The payload's stdio and terminal: host files handed in as stdin, stdout or
 * stderr reach the payload only through pipes the supervisor pumps (byte
 * exact, large, never hanging); --pty gives the payload a terminal of its own
 * on the sandbox's devpts, relayed to the caller's terminal in raw mode and
 * restored on every way out; a background nsbox is stopped by the kernel like
 * any job; and a payload that stopped itself still dies of a SIGTERM sent to
 * nsbox.  Judged from the host: file contents, the caller's termios, process
 * states in /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "harness.h"

/* A file of size bytes holding every byte value, in the project. */
static void write_binary(const char *rel, size_t size)
{
	const char *path = itest_path(&itest_cur, rel);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	char buf[65536];

	cr_assert(fd >= 0, "create '%s': %s", path, strerror(errno));
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 131 + i / 256);
	for (size_t done = 0; done < size;) {
		size_t n = size - done < sizeof(buf) ? size - done : sizeof(buf);
		cr_assert(write(fd, buf, n) == (ssize_t)n);
		buf[done / sizeof(buf) % sizeof(buf)] ^= 0x5a; /* no two blocks alike */
		done += n;
	}
	cr_assert(fchown(fd, itest_cur.uid, itest_cur.gid) == 0);
	close(fd);
}

/* Both project files hold exactly the same bytes. */
static bool same_content(const char *a, const char *b)
{
	FILE *fa = fopen(itest_path(&itest_cur, a), "rb");
	FILE *fb = fopen(itest_path(&itest_cur, b), "rb");
	bool same = fa && fb;
	char x[65536], y[65536];

	while (same) {
		size_t na = fread(x, 1, sizeof(x), fa), nb = fread(y, 1, sizeof(y), fb);
		if (na != nb || memcmp(x, y, na) != 0)
			same = false;
		if (na == 0)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

static off_t file_size(const char *rel)
{
	struct stat st;

	return stat(itest_path(&itest_cur, rel), &st) == 0 ? st.st_size : -1;
}

/* ---- stdio interposition ---- */

NSB_ITEST(stdio, binary_file_stdin_and_stdout_pass_byte_exact_through_pipes)
{
	struct itest_opts o = {.stdin_path = "in.bin", .stdout_path = "out.bin"};
	struct itest_run r;

	write_binary("in.bin", 3 << 20);
	itest_run(&itest_cur, &o, ITEST_ARGV("--", "cat"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	cr_expect(eq(i64, file_size("out.bin"), 3 << 20));
	cr_expect(same_content("in.bin", "out.bin"), "output differs from input%s", itest_ctx(&r));
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.stdin"), "pipe");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.stdout"), "pipe");
	/* stderr stayed the harness's pipe: nothing to interpose. */
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.stderr"), "inherited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.pty"), "false");
	itest_run_close(&r);
}

NSB_ITEST(stdio, big_stdin_from_a_file_passes_intact)
{
	struct itest_opts o = {.stdin_path = "big.bin", .stdout_path = "copy.bin"};
	struct itest_run r;

	write_binary("big.bin", 64 << 20);
	itest_run(&itest_cur, &o, ITEST_ARGV("--", "cat"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	cr_expect(eq(i64, file_size("copy.bin"), 64 << 20));
	cr_expect(same_content("big.bin", "copy.bin"), "64 MiB copy differs%s", itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(stdio, payload_that_never_reads_stdin_does_not_hang)
{
	struct itest_opts o = {.stdin_path = "big.bin"};
	struct itest_run r;
	long long t0;

	write_binary("big.bin", 16 << 20);
	t0 = itest_now_ms();
	itest_run(&itest_cur, &o, ITEST_ARGV("--", "sh", "-c", "echo done"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "done\n");
	cr_expect(itest_now_ms() - t0 < 10000, "took %lld ms%s", itest_now_ms() - t0,
		  itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(stdio, stderr_file_gets_the_payloads_errors)
{
	struct itest_opts o = {.stderr_path = "err.log"};
	struct itest_run r;
	char *log;

	itest_run(&itest_cur, &o, ITEST_ARGV("--", "sh", "-c", "echo oops >&2; echo fine"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "fine\n");
	log = itest_slurp(itest_path(&itest_cur, "err.log"));
	cr_assert(log != NULL);
	ITEST_EXPECT_STR(&r, log, "oops\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.stderr"), "pipe");
	free(log);
	itest_run_close(&r);
}

NSB_ITEST(stdio, directory_as_stdin_is_a_usage_error)
{
	struct itest_opts o = {.stdin_path = "."};
	struct itest_run r;

	itest_run(&itest_cur, &o, ITEST_ARGV("--", "true"), &r);
	ITEST_ASSERT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.errno_name"), "EISDIR");
	ITEST_EXPECT_CONTAINS(&r, r.err, "fd 0 (stdin) is a directory");
	ITEST_EXPECT_CONTAINS(&r, r.err, "hint: give the command a file or a pipe as stdin");
	itest_run_close(&r);
}

NSB_ITEST(stdio, pipes_are_inherited_and_dev_null_is_the_sandboxs_own)
{
	struct itest_run r;

	/* The harness gives /dev/null as stdin, pipes as stdout and stderr. */
	ITEST_RUN(&r, "--", "sh", "-c", "readlink /proc/self/fd/0");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "/dev/null\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.stdin"), "reopened");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.stdout"), "inherited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.stderr"), "inherited");
	itest_run_close(&r);
}

NSB_ITEST(stdio, closed_stdin_stays_closed_and_no_pipe_takes_its_place)
{
	struct itest_opts o = {.close_stdin = true};
	struct itest_run r;

	/* nsbox's own pipes must not land on the free fd 0 and reach the
	 * command as its stdin. */
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--", "sh", "-c", "readlink /proc/self/fd/0 || echo closed"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "closed\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.stdin"), "closed");
	itest_run_close(&r);
}

/* ---- the terminal ---- */

/* Wait until the caller's terminal (the harness's pty) is in raw mode:
 * nsbox's relay is then running. */
static void wait_raw(const struct itest_run *r)
{
	struct termios t;

	for (int i = 0; i < 1000; i++) {
		cr_assert(tcgetattr(r->pty_master, &t) == 0);
		if (!(t.c_lflag & ICANON))
			return;
		itest_sleep_ms(10);
	}
	cr_assert(false, "the caller's terminal never went raw%s", itest_ctx(r));
}

/*
 * The modes the caller's terminal had before nsbox ran.  Reading r's pty
 * after itest_start races with nsbox: under load this process can lose the
 * CPU after the fork long enough for nsbox to set raw mode first, and then
 * "before" is raw while nsbox restored the terminal correctly (the signal
 * test, three runs of nsbox, failed so in 6 of 300 runs with two CPU burners
 * beside it).  The harness's openpty gives every pty the kernel's default
 * modes, so a fresh pty of our own shows them.
 */
static void initial_modes(struct termios *ret)
{
	int master, slave;
	bool canonical;

	cr_assert(openpty(&master, &slave, NULL, NULL, NULL) == 0, "openpty: %s", strerror(errno));
	cr_assert(tcgetattr(master, ret) == 0);
	close(master);
	close(slave);
	canonical = ret->c_lflag & ICANON;
	cr_assert(canonical, "a new pty is in canonical mode");
}

static void expect_same_termios(const struct itest_run *r, const struct termios *before)
{
	struct termios after;

	cr_assert(tcgetattr(r->pty_master, &after) == 0);
	cr_expect(eq(u32, after.c_iflag, before->c_iflag), "c_iflag%s", itest_ctx(r));
	cr_expect(eq(u32, after.c_oflag, before->c_oflag), "c_oflag%s", itest_ctx(r));
	cr_expect(eq(u32, after.c_cflag, before->c_cflag), "c_cflag%s", itest_ctx(r));
	cr_expect(eq(u32, after.c_lflag, before->c_lflag), "c_lflag%s", itest_ctx(r));
	cr_expect(memcmp(after.c_cc, before->c_cc, sizeof(after.c_cc)) == 0, "c_cc%s",
		  itest_ctx(r));
}

NSB_ITEST(terminal, pty_is_the_payloads_own_terminal_with_the_callers_size)
{
	struct itest_opts o = {.pty = true, .pty_rows = 33, .pty_cols = 101};
	struct itest_run r;

	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--pty", "--", "sh", "-c",
			     "tty; stty size; test -t 0 && echo in-tty; test -t 1 && echo out-tty; "
			     "test -t 2 && echo err-tty"),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	/* The pty's own line discipline turned \n into \r\n. */
	ITEST_EXPECT_CONTAINS(&r, r.out, "/dev/pts/0\r\n33 101\r\n");
	ITEST_EXPECT_CONTAINS(&r, r.out, "in-tty\r\nout-tty\r\nerr-tty\r\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.pty"), "true");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.stdin"), "pty");
	itest_run_close(&r);
}

NSB_ITEST(terminal, no_pty_unless_stdin_and_stdout_are_terminals_or_asked)
{
	struct itest_opts o = {.pty = true};
	struct itest_run r;

	/* stdin a terminal (nsbox in the foreground), stdout a pipe: the
	 * terminal is handed over as it is, no pty. */
	itest_run(&itest_cur, &o, ITEST_ARGV("--", "sh", "-c", "test -t 0 && echo tty"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "tty\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.pty"), "false");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.stdin"), "inherited");
	itest_run_close(&r);

	/* --no-pty after --pty: the last one wins. */
	itest_run(&itest_cur, &o, ITEST_ARGV("--pty", "--no-pty", "--", "true"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.pty"), "false");
	itest_run_close(&r);
}

NSB_ITEST(terminal, pty_without_a_terminal_relays_stdin_and_output)
{
	struct itest_opts o = {.stdin_path = "in.txt"};
	struct itest_run r;

	itest_write(&itest_cur, "in.txt", "line one\nline two\n");
	/* No terminal at all: the pty still comes, input is typed into it and
	 * its end is the terminal's EOF character. */
	itest_run(&itest_cur, &o, ITEST_ARGV("--pty", "--", "sh", "-c", "tty >/dev/null && cat"),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "line one\r\nline two\r\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.stdio.pty"), "true");
	itest_run_close(&r);
}

NSB_ITEST(terminal, interactive_shell_reads_a_typed_line_and_answers)
{
	struct itest_opts o = {.pty = true};
	struct itest_run r;
	struct termios before;
	const char *typed = "echo answer-$((6*7))\nexit 3\n";

	itest_start(&itest_cur, &o, ITEST_ARGV("--pty", "--", "sh", "-i"), &r);
	initial_modes(&before);
	wait_raw(&r);
	cr_assert(write(r.pty_master, typed, strlen(typed)) == (ssize_t)strlen(typed));
	itest_wait(&r);
	ITEST_EXPECT_EXIT(&r, 3);
	ITEST_EXPECT_CONTAINS(&r, r.out, "answer-42\r\n");
	expect_same_termios(&r, &before);
	itest_run_close(&r);
}

NSB_ITEST(terminal, callers_modes_are_restored_after_a_timeout)
{
	struct itest_opts o = {.pty = true};
	struct itest_run r;
	struct termios before;

	itest_start(
		&itest_cur, &o,
		ITEST_ARGV("--pty", "--timeout", "1", "--kill-after", "0.5", "--", "sleep", "30"),
		&r);
	initial_modes(&before);
	wait_raw(&r);
	itest_wait(&r);
	ITEST_EXPECT_EXIT(&r, 124);
	expect_same_termios(&r, &before);
	itest_run_close(&r);
}

NSB_ITEST(terminal, callers_modes_are_restored_after_a_signal_to_nsbox)
{
	static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
	struct itest_opts o = {.pty = true};

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct itest_run r;
		struct termios before;
		char want[8];

		itest_start(&itest_cur, &o, ITEST_ARGV("--pty", "--", "sleep", "30"), &r);
		initial_modes(&before);
		wait_raw(&r);
		kill(r.pid, sigs[i]);
		itest_wait(&r);
		/* Forwarded to the payload, which dies of it. */
		ITEST_EXPECT_EXIT(&r, 128 + sigs[i]);
		snprintf(want, sizeof(want), "%d", sigs[i]);
		ITEST_EXPECT_STR(&r, itest_rec(&r, "signal"), want);
		expect_same_termios(&r, &before);
		itest_run_close(&r);
	}
}

NSB_ITEST(terminal, callers_modes_are_restored_after_a_setup_failure)
{
	struct itest_opts o = {.pty = true};
	struct itest_run r;
	struct termios before;

	itest_start(&itest_cur, &o, ITEST_ARGV("--pty", "--", "no-such-command-anywhere"), &r);
	initial_modes(&before);
	itest_wait(&r);
	ITEST_EXPECT_EXIT(&r, 127);
	expect_same_termios(&r, &before);
	itest_run_close(&r);
}

/* State letter and parent of a host process ('?' when it is gone). */
static char pid_state(pid_t pid, pid_t *ppid)
{
	char path[64], buf[512], *p;
	char state = '?';
	int parent = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	if (!p || sscanf(p + 1, " %c %d", &state, &parent) != 2)
		return '?';
	if (ppid)
		*ppid = parent;
	return state;
}

NSB_ITEST(terminal, sigtstp_restores_the_terminal_and_sigcont_makes_it_raw_again)
{
	struct itest_opts o = {.pty = true, .pty_foreground_job = true};
	struct itest_run r;
	struct termios before, stopped;
	pid_t pids[8];
	int n = 0;
	bool is_stopped = false;

	itest_start(
		&itest_cur, &o,
		ITEST_ARGV("--pty", "--", "sh", "-c", "read x; echo got-$x # nsbox-tstp-marker"),
		&r);
	initial_modes(&before);
	wait_raw(&r);
	/* nsbox itself (the harness's job, a child of r.pid), not its init
	 * nor the payload, whose command lines hold the marker too. */
	n = itest_find_procs("nsbox-tstp-marker", pids, 8);
	pid_t nsbox = -1;
	for (int i = 0; i < n && i < 8; i++) {
		pid_t parent = -1;
		if (pid_state(pids[i], &parent) != '?' && parent == r.pid)
			nsbox = pids[i];
	}
	cr_assert(nsbox > 0, "nsbox not found among %d processes", n);

	kill(nsbox, SIGTSTP);
	for (int i = 0; i < 1000 && !(is_stopped = pid_state(nsbox, NULL) == 'T'); i++)
		itest_sleep_ms(10);
	cr_assert(is_stopped, "nsbox did not stop%s", itest_ctx(&r));
	/* Stopped with the caller's terminal as it was. */
	cr_assert(tcgetattr(r.pty_master, &stopped) == 0);
	cr_expect(eq(u32, stopped.c_lflag, before.c_lflag), "modes while stopped");

	kill(nsbox, SIGCONT);
	wait_raw(&r);
	cr_assert(write(r.pty_master, "hi\n", 3) == 3);
	itest_wait(&r);
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "got-hi\r\n");
	expect_same_termios(&r, &before);
	itest_run_close(&r);
}

NSB_ITEST(terminal, window_size_change_reaches_the_payload)
{
	struct itest_opts o = {.pty = true, .pty_rows = 24, .pty_cols = 80};
	struct winsize ws = {.ws_row = 50, .ws_col = 120};
	struct itest_run r;
	char *size = NULL;

	itest_mkdir(&itest_cur, "out");
	itest_start(&itest_cur, &o,
		    ITEST_ARGV("--pty", "--rw", "out", "--", "sh", "-c",
			       "trap 'stty size >out/size; exit 0' WINCH; : >out/ready; "
			       "while :; do sleep 0.05; done"),
		    &r);
	for (int i = 0; i < 1000 && access(itest_path(&itest_cur, "out/ready"), F_OK) < 0; i++)
		itest_sleep_ms(10);
	/* The caller's terminal changes size: the kernel tells nsbox (its
	 * foreground job) with SIGWINCH, nsbox tells the pty. */
	cr_assert(ioctl(r.pty_master, TIOCSWINSZ, &ws) == 0);
	itest_wait(&r);
	ITEST_EXPECT_EXIT(&r, 0);
	size = itest_slurp(itest_path(&itest_cur, "out/size"));
	cr_assert(size != NULL, "no size written%s", itest_ctx(&r));
	ITEST_EXPECT_STR(&r, size, "50 120\n");
	free(size);
	itest_run_close(&r);
}

NSB_ITEST(terminal, capture_with_a_pty_keeps_the_terminals_output_as_stdout)
{
	struct itest_opts o = {.pty = true};
	struct itest_run r;

	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--pty", "--capture", "--", "sh", "-c", "echo out; echo err >&2"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout"), "out\r\nerr\r\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stderr"), "");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_bytes"), "10");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stderr_bytes"), "0");
	itest_run_close(&r);

	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--pty", "--max-output", "4", "--", "sh", "-c", "echo 123456789"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "1234\n[nsbox: stdout truncated after 4 bytes]");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "stdout_truncated"), "true");
	itest_run_close(&r);
}

/* A background job that reads the terminal is stopped by the kernel. */
static void background_read(const char *mode)
{
	struct itest_opts o = {.pty = true, .pty_background = true};
	struct itest_run r;

	itest_start(&itest_cur, &o, ITEST_ARGV(mode, "--", "cat"), &r);
	/* Typed for the shell in the foreground, not for the job. */
	cr_assert(write(r.pty_master, "typed\n", 6) == 6);
	itest_wait(&r);
	ITEST_EXPECT_EXIT(&r, HARNESS_STOPPED);
	ITEST_EXPECT_CONTAINS(&r, r.err, "harness: stopped by signal 21"); /* SIGTTIN */
	ITEST_EXPECT_LACKS(&r, r.out, "typed");
	itest_run_close(&r);
}

NSB_ITEST(terminal, background_nsbox_reading_the_terminal_is_stopped_with_a_pty)
{
	background_read("--pty");
}

NSB_ITEST(terminal, background_nsbox_reading_the_terminal_is_stopped_without_a_pty)
{
	background_read("--no-pty");
}

/* ---- a stopped payload ---- */

/* Is one of the host processes whose command line holds needle stopped?
 * (nsbox's own command line holds it too.) */
static bool proc_stopped(const char *needle)
{
	pid_t pids[8];
	int n = itest_find_procs(needle, pids, 8);

	for (int i = 0; i < n && i < 8; i++) {
		char path[64], buf[512], *p;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pids[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (p && p[1] == ' ' && p[2] == 'T')
			return true;
	}
	return false;
}

static void stopped_payload(bool pty)
{
	struct itest_opts o = {.pty = pty};
	struct itest_run r;
	char script[96], marker[48];
	long long t0;
	bool stopped = false;

	/* Unique to this worker: the _root and _user variants run at once. */
	snprintf(marker, sizeof(marker), "nsbox-stop-marker-%d", (int)getpid());
	snprintf(script, sizeof(script), "kill -STOP $$; echo resumed # %s", marker);

	itest_start(&itest_cur, &o,
		    pty ? ITEST_ARGV("--pty", "--", "sh", "-c", script)
			: ITEST_ARGV("--", "sh", "-c", script),
		    &r);
	for (int i = 0; i < 1000 && !(stopped = proc_stopped(marker)); i++)
		itest_sleep_ms(10);
	cr_assert(stopped, "the payload never stopped");
	t0 = itest_now_ms();
	kill(r.pid, SIGTERM);
	itest_wait(&r);
	cr_expect(itest_now_ms() - t0 < 5000, "nsbox took %lld ms after SIGTERM%s",
		  itest_now_ms() - t0, itest_ctx(&r));
	ITEST_EXPECT_EXIT(&r, 143);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "signaled");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "signal"), "15");
	ITEST_EXPECT_LACKS(&r, r.out, "resumed");
	itest_run_close(&r);
}

NSB_ITEST(stop, sigterm_ends_a_payload_that_stopped_itself)
{
	stopped_payload(false);
}

NSB_ITEST(stop, sigterm_ends_a_payload_that_stopped_itself_on_a_pty)
{
	stopped_payload(true);
}
