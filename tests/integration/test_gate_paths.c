// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's second generation through the real binary (issue 12): shell
 * syntax, not characters, under the default "metachar syntax"; the
 * policy's "metachar strict" and --allow-metachar, each named in the record
 * and in --check; paths judged against the sandbox's view, so ordinary
 * commands really run (sed's regex addresses, /proc's per-sandbox files, a
 * name the sandbox does not have) and the new path classes are refused
 * before anything is created (sed script files, @FILE, tar -C, /proc and
 * /dev links, file: URLs on a loopback host, PATH_MAX).
 *
 * Every run sets .gate = true: the harness otherwise relaxes the gate.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

/* Projects under /var/tmp: inside, /tmp is a private tmpfs (test_gate.c). */
__attribute__((constructor)) static void gate_paths_tmpdir(void)
{
	setenv("NSBOX_ITEST_TMPDIR", "/var/tmp", 1);
}

static const struct itest_opts gate_opts = {.gate = true};

#define GATE_RUN(r, ...) itest_run(&itest_cur, &gate_opts, ITEST_ARGV(__VA_ARGS__), (r))

static void make_project(void)
{
	itest_mkdir(&itest_cur, "input");
	itest_mkdir(&itest_cur, "out");
	itest_write(&itest_cur, "input/data.txt", "a word here\nanother line\n");
}

static bool exists(const char *rel)
{
	struct stat st;
	return lstat(itest_path(&itest_cur, rel), &st) == 0;
}

/* Field of the --check document, "(missing)" if absent. */
static char *doc_get(const char *json, const char *path)
{
	static char ring[4][4096];
	static unsigned next;
	char *buf = ring[next++ % 4];
	if (itest_json_get(json, path, buf, sizeof(ring[0])) == ITEST_JSON_MISSING)
		snprintf(buf, sizeof(ring[0]), "(missing)");
	return buf;
}

/* A gate refusal: 123, nothing ran, the rule, index and metachar mode. */
static void expect_refused(const struct itest_run *r, const char *rule, int idx, const char *mode)
{
	char want[16];
	ITEST_ASSERT_EXIT(r, 123);
	ITEST_EXPECT_STR(r, r->out, "");
	ITEST_EXPECT_STR(r, itest_rec(r, "status"), "denied");
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.rule"), rule);
	snprintf(want, sizeof(want), "%d", idx);
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.argv_index"), want);
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.metachar"), mode);
	ITEST_EXPECT_STR(r, itest_rec(r, "gate.metachar"), mode);
	ITEST_EXPECT_STR(r, itest_rec(r, "enforced"), "null");
	ITEST_EXPECT_CONTAINS(r, r->err, "nsbox: refused: ");
}

NSB_ITEST(gate_paths, syntax_mode_runs_ordinary_text)
{
	struct itest_run r;

	make_project();
	GATE_RUN(&r, "--", "grep", "-E", "word|line", "input/data.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "a word here\nanother line\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "gate.metachar"), "syntax");
	itest_run_close(&r);

	GATE_RUN(&r, "--", "echo", "a;b", "pkg>=2", "https://example.com/?a=1&b=2", "<div>",
		 "SELECT 1;");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "a;b pkg>=2 https://example.com/?a=1&b=2 <div> SELECT 1;\n");
	itest_run_close(&r);

	/* --check names the mode that judged, and the policy's setting */
	GATE_RUN(&r, "--check", "--", "echo", "a|b");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, doc_get(r.out, "gate.allowed"), "true");
	ITEST_EXPECT_STR(&r, doc_get(r.out, "gate.metachar"), "syntax");
	ITEST_EXPECT_STR(&r, doc_get(r.out, "gate.policy.metachar"), "syntax");
	itest_run_close(&r);
}

NSB_ITEST(gate_paths, syntax_mode_refuses_shell_syntax)
{
	struct itest_run r;

	make_project();
	GATE_RUN(&r, "--rw", "out", "--", "ls", ">out/listing");
	expect_refused(&r, "shell.metachar", 1, "syntax");
	cr_expect(exists("out/listing") == false, "a refusal created nothing");
	itest_run_close(&r);

	GATE_RUN(&r, "--", "ls", "input", "|", "grep", "x");
	expect_refused(&r, "shell.metachar", 2, "syntax");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "reason"), "operator '|'");
	itest_run_close(&r);

	GATE_RUN(&r, "--", "make", "all&&", "id");
	expect_refused(&r, "shell.metachar", 1, "syntax");
	itest_run_close(&r);

	GATE_RUN(&r, "--", "echo", "${HOME}");
	expect_refused(&r, "shell.metachar", 1, "syntax");
	itest_run_close(&r);

	GATE_RUN(&r, "--check", "--", "ls", "2>&1");
	ITEST_ASSERT_EXIT(&r, 123);
	ITEST_EXPECT_STR(&r, doc_get(r.out, "gate.rule"), "shell.metachar");
	ITEST_EXPECT_STR(&r, doc_get(r.out, "gate.metachar"), "syntax");
	itest_run_close(&r);
}

NSB_ITEST(gate_paths, strict_mode_from_the_policy_and_off)
{
	struct itest_run r;
	char pol[PATH_MAX];

	make_project();
	itest_write(&itest_cur, "p.conf", "metachar strict\n");
	snprintf(pol, sizeof(pol), "%s", itest_path(&itest_cur, "p.conf"));

	GATE_RUN(&r, "--policy", pol, "--", "grep", "-E", "word|line", "input/data.txt");
	expect_refused(&r, "shell.metachar", 2, "strict");
	itest_run_close(&r);

	GATE_RUN(&r, "--policy", pol, "--check", "--", "echo", "ok");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, doc_get(r.out, "gate.metachar"), "strict");
	ITEST_EXPECT_STR(&r, doc_get(r.out, "gate.policy.metachar"), "strict");
	itest_run_close(&r);

	GATE_RUN(&r, "--policy", pol, "--print-policy");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "\nmetachar strict\n");
	itest_run_close(&r);

	/* --allow-metachar: the rule is off, whatever the file says */
	GATE_RUN(&r, "--policy", pol, "--allow-metachar", "--", "echo", "|", "a;b");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "| a;b\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "gate.metachar"), "off");
	itest_run_close(&r);
	GATE_RUN(&r, "--policy", pol, "--allow-metachar", "--check", "--", "echo", "x");
	ITEST_EXPECT_STR(&r, doc_get(r.out, "gate.metachar"), "off");
	itest_run_close(&r);
}

/* What the sandbox does not have, or has only for itself, is no risk. */
NSB_ITEST(gate_paths, the_sandboxs_view_decides)
{
	struct itest_run r;

	make_project();
	/* a sed regex address looks like an absolute path */
	GATE_RUN(&r, "--", "sed", "-n", "/word/p", "input/data.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "a word here\n");
	itest_run_close(&r);

	/* no such top-level name inside: ls runs and finds nothing */
	GATE_RUN(&r, "--", "ls", "/nonexistent-nsbox-gate/x");
	ITEST_ASSERT_EXIT(&r, 2);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_CONTAINS(&r, r.err, "No such file or directory");
	itest_run_close(&r);

	/* the sandbox's own /proc: its pid 1 is nsbox's init */
	GATE_RUN(&r, "--", "cat", "/proc/self/stat", "/proc/meminfo", "/proc/cpuinfo");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "MemTotal:");
	itest_run_close(&r);
	GATE_RUN(&r, "--", "head", "-c", "2", "/proc/1/stat");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "1 ");
	itest_run_close(&r);

	/* /dev/stdout is the payload's own stdout: sed writes through it */
	GATE_RUN(&r, "--", "sed", "-n", "1w /dev/stdout", "input/data.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "a word here\n");
	itest_run_close(&r);

	/* a sed w file inside an --rw directory: written, from the kernel's side */
	GATE_RUN(&r, "--rw", "out", "--", "sed", "-n", "/line/w out/lines", "input/data.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	char *got = itest_slurp(itest_path(&itest_cur, "out/lines"));
	cr_expect(got && strcmp(got, "another line\n") == 0, "out/lines: %s", got ? got : "-");
	free(got);
	itest_run_close(&r);

	/* tar -C re-roots the names after it: ../data.txt from input/sub */
	itest_mkdir(&itest_cur, "input/sub");
	GATE_RUN(&r, "--rw", "out", "--", "tar", "-cf", "out/a.tar", "-C", "input/sub",
		 "../data.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	cr_expect(exists("out/a.tar"), "tar wrote out/a.tar%s", itest_ctx(&r));
	itest_run_close(&r);
}

/* Each new class, refused before anything exists. */
NSB_ITEST(gate_paths, new_path_classes_are_refused)
{
	static const struct {
		const char *argv[8];
		const char *rule;
		int idx;
	} cases[] = {
		{{"sed", "r /etc/passwd", "input/data.txt"}, "path.outside", 1},
		{{"sed", "-n", "-e", "s/a/b/w /etc/nsbox-x", "input/data.txt"}, "path.outside", 3},
		{{"cat", "@/etc/shadow"}, "path.outside", 1},
		{{"cc", "-Wl,-rpath,/etc", "x.c"}, "path.outside", 1},
		{{"tar", "-xvf/etc/shadow"}, "path.outside", 1},
		{{"tar", "-C", "/usr", "-cf", "out/x.tar", "../etc/passwd"}, "path.outside", 5},
		{{"git", "-C", "/usr", "diff", "../etc/passwd"}, "path.outside", 4},
		{{"cat", "/proc/self/root/etc/passwd"}, "path.outside", 1},
		{{"cat", "/dev/fd/../root/etc/passwd"}, "path.outside", 1},
		{{"cat", "/dev/stdin/../x"}, "path.symlink_escape", 1},
		{{"cat", "file://127.0.0.1/etc/passwd"}, "path.outside", 1},
		{{"cat", "file://localhost/etc/passwd"}, "path.outside", 1},
		{{"env", "PYTHONPATH=input:../..", "true"}, "path.outside", 1},
	};
	struct itest_run r;

	make_project();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[16] = {"--rw", "out", "--"};
		size_t n = 3;
		for (size_t k = 0; cases[i].argv[k]; k++)
			argv[n++] = cases[i].argv[k];
		argv[n] = NULL;
		itest_run(&itest_cur, &gate_opts, argv, &r);
		expect_refused(&r, cases[i].rule, cases[i].idx, "syntax");
		itest_run_close(&r);
	}
	cr_expect(exists("out/x.tar") == false, "nothing ran");

	/* PATH_MAX: an argument that long is never judged as text */
	char *big = malloc(PATH_MAX + 1);
	cr_assert(big != NULL);
	memset(big, 'x', PATH_MAX);
	big[PATH_MAX] = '\0';
	itest_run(&itest_cur, &gate_opts, ITEST_ARGV("--", "echo", big), &r);
	expect_refused(&r, "path.too_long", 1, "syntax");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "denial.hint"), "-F FILE");
	itest_run_close(&r);
	/* one byte shorter is an ordinary argument */
	big[PATH_MAX - 1] = '\0';
	itest_run(&itest_cur, &gate_opts, ITEST_ARGV("--", "true", big), &r);
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
	free(big);
}
