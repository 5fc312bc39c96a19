// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --seccomp-learn FILE (issue 13): learn a profile from a real run, rerun
 * the same command with --seccomp FILE (it passes, nothing refused), rerun
 * with one syscall taken out of FILE or with a slightly different program
 * (the record names the syscall the learning run never made), and merge
 * several runs into one FILE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

__attribute__((constructor)) static void learn_tmpdir(void)
{
	setenv("NSBOX_ITEST_TMPDIR", "/var/tmp", 1);
}

static const char script[] = "import os, sys\n"
			     "with open('input/data.txt') as f:\n"
			     "    words = f.read().split()\n"
			     "with open('out/result.txt', 'w') as f:\n"
			     "    f.write(' '.join(w.upper() for w in words) + '\\n')\n"
			     "if len(sys.argv) > 1:\n"
			     "    try:\n"
			     "        os.getpriority(os.PRIO_PROCESS, 0)\n"
			     "        print('getpriority ok')\n"
			     "    except OSError as e:\n"
			     "        print('getpriority errno', e.errno)\n"
			     "print('processed', len(words), 'words')\n";

static const char makefile[] = "hello: hello.c\n\tcc -o hello hello.c\n";
static const char hello_c[] = "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }\n";

/* FILE without the line "NAME allow ..." and its nsbox-learn count. */
static char *without(const char *profile_path, const char *name, const char *rel)
{
	char *text = itest_slurp(profile_path), *out, *line, *save = NULL;
	char prefix[64], count[64];
	size_t len = 0;

	cr_assert(text != NULL, "no learned profile at %s", profile_path);
	out = calloc(1, strlen(text) + 2);
	cr_assert(out != NULL);
	snprintf(prefix, sizeof(prefix), "%s allow", name);
	snprintf(count, sizeof(count), " %s=", name);
	bool found = false;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, prefix, strlen(prefix)) == 0) {
			found = true;
			continue;
		}
		if (strncmp(line, "# nsbox-learn:", 14) == 0 && strstr(line, count))
			continue; /* the merge must not bring it back either */
		len += (size_t)sprintf(out + len, "%s\n", line);
	}
	cr_assert(found, "'%s' is not in the learned profile", name);
	itest_write(&itest_cur, rel, out);
	free(out);
	free(text);
	return itest_path(&itest_cur, rel);
}

/* The record's seccomp entry for name exists. */
static bool reported(const struct itest_run *r, const char *name)
{
	char needle[96];

	snprintf(needle, sizeof(needle), "{\"kind\":\"seccomp\",\"syscall\":\"%s\"", name);
	return r->record && strstr(r->record, needle) != NULL;
}

static void python_project(void)
{
	if (access("/usr/bin/python3", X_OK) != 0)
		cr_skip_test("/usr/bin/python3 is not installed");
	itest_write(&itest_cur, "script.py", script);
	itest_mkdir(&itest_cur, "input");
	itest_mkdir(&itest_cur, "out");
	itest_write(&itest_cur, "input/data.txt", "three small words\n");
}

NSB_ITEST(learn, a_python_script_learned_reruns_under_its_profile)
{
	struct itest_run r;
	char learned[512];

	python_project();
	snprintf(learned, sizeof(learned), "%s", itest_path(&itest_cur, "learned.profile"));
	ITEST_RUN(&r, "--seccomp-learn", learned, "--ro", "input", "--rw", "out", "--", "python3",
		  "script.py");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "processed 3 words");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations_reporting"), "false");
	ITEST_EXPECT_CONTAINS(&r, r.err, "learned the run's syscalls into");
	itest_run_close(&r);
	char *text = itest_slurp(learned);
	cr_assert(text != NULL);
	cr_expect(strstr(text, "\ndefault errno EPERM\n") != NULL, "%s", text);
	cr_expect(strstr(text, "\nexecve allow # 1 call\n") != NULL, "%s", text);
	free(text);

	/* The same command under the learned profile: nothing refused. */
	ITEST_RUN(&r, "--seccomp", learned, "--ro", "input", "--rw", "out", "--", "python3",
		  "script.py");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "processed 3 words");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations"), "[]");
	itest_run_close(&r);

	/* A slightly different program: a syscall the learning run never made. */
	ITEST_RUN(&r, "--seccomp", learned, "--ro", "input", "--rw", "out", "--", "python3",
		  "script.py", "more");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "getpriority errno 1\n");
	cr_expect(reported(&r, "getpriority"), "getpriority not reported%s", itest_ctx(&r));
	itest_run_close(&r);

	/* One syscall taken out of the profile: the record names it. */
	char *cut = without(learned, "openat", "cut.profile");
	ITEST_RUN(&r, "--seccomp", cut, "--ro", "input", "--rw", "out", "--", "python3",
		  "script.py");
	cr_expect(r.exit_code != 0, "python3 ran without openat%s", itest_ctx(&r));
	cr_expect(reported(&r, "openat"), "openat not reported%s", itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(learn, make_building_a_c_file_learned_and_merged)
{
	struct itest_run r;
	char learned[512];

	if (access("/usr/bin/make", X_OK) != 0 || access("/usr/bin/cc", X_OK) != 0)
		cr_skip_test("make and cc are not installed");
	python_project();
	itest_write(&itest_cur, "Makefile", makefile);
	itest_write(&itest_cur, "hello.c", hello_c);
	snprintf(learned, sizeof(learned), "%s", itest_path(&itest_cur, "learned.profile"));

	/* Two different commands learned into one file. */
	ITEST_RUN(&r, "--seccomp-learn", learned, "--ro", "input", "--rw", "out", "--", "python3",
		  "script.py");
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
	ITEST_RUN(&r, "--seccomp-learn", learned, "--no-project", "--rw", itest_cur.dir, "--chdir",
		  itest_cur.dir, "--", "make");
	ITEST_ASSERT_EXIT(&r, 0);
	itest_run_close(&r);
	char *text = itest_slurp(learned);
	cr_assert(text != NULL);
	cr_expect(strstr(text, "from 2 runs, the last: make") != NULL, "%s", text);
	cr_expect(strstr(text, "runs=2") != NULL, "%s", text);
	free(text);
	cr_assert(unlink(itest_path(&itest_cur, "hello")) == 0);

	/* Both pass under the merged profile. */
	ITEST_RUN(&r, "--seccomp", learned, "--no-project", "--rw", itest_cur.dir, "--chdir",
		  itest_cur.dir, "--", "make");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations"), "[]");
	itest_run_close(&r);
	cr_expect(access(itest_path(&itest_cur, "hello"), X_OK) == 0, "make built nothing");
	ITEST_RUN(&r, "--seccomp", learned, "--ro", "input", "--rw", "out", "--", "python3",
		  "script.py");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations"), "[]");
	itest_run_close(&r);

	/* One syscall out: the build fails and the record names it. */
	cr_assert(unlink(itest_path(&itest_cur, "hello")) == 0);
	char *cut = without(learned, "execve", "cut.profile");
	ITEST_RUN(&r, "--seccomp", cut, "--no-project", "--rw", itest_cur.dir, "--chdir",
		  itest_cur.dir, "--", "make");
	cr_expect(reported(&r, "execve"), "execve not reported%s", itest_ctx(&r));
	itest_run_close(&r);
}

NSB_ITEST(learn, learning_refuses_a_profile_beside_it)
{
	struct itest_run r;

	ITEST_RUN(&r, "--seccomp-learn", itest_path(&itest_cur, "x.profile"), "--seccomp", "strict",
		  "--", "./probe", "status");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_CONTAINS(&r, r.err, "--seccomp-learn runs without a profile");
	itest_run_close(&r);
}
