// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The example of issue 2, end to end: a project folder with script.py,
 * input/data.txt and out/, run as
 *     nsbox --ro input --rw out --result-fd 3 -- python3 script.py 3>record.json
 * prints what the script prints, exits with its status, leaves out/result.txt
 * on the host and one "exited" record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

static const char script[] = "import sys\n"
			     "with open('input/data.txt') as f:\n"
			     "    words = f.read().split()\n"
			     "with open('out/result.txt', 'w') as f:\n"
			     "    f.write(' '.join(w.upper() for w in words) + '\\n')\n"
			     "try:\n"
			     "    open('input/tamper.txt', 'w')\n"
			     "    print('input writable')\n"
			     "except OSError as e:\n"
			     "    print('input errno', e.errno)\n"
			     "print('processed', len(words), 'words')\n"
			     "sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)\n";

NSB_ITEST(example, python_script_reads_input_and_writes_out)
{
	struct itest_run r;
	struct stat st;
	char *result;

	if (access("/usr/bin/python3", X_OK) != 0)
		cr_skip_test("/usr/bin/python3 is not installed");
	itest_write(&itest_cur, "script.py", script);
	itest_mkdir(&itest_cur, "input");
	itest_mkdir(&itest_cur, "out");
	itest_write(&itest_cur, "input/data.txt", "three small words\n");

	ITEST_RUN(&r, "--ro", "input", "--rw", "out", "--", "python3", "script.py");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "processed 3 words");
	ITEST_EXPECT_CONTAINS(&r, r.out, "input errno 30"); /* EROFS */
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "exit_code"), "0");
	cr_expect(r.record_len > 0 && strchr(r.record, '\n') == r.record + r.record_len - 1,
		  "record is not one line%s", itest_ctx(&r));
	itest_run_close(&r);

	result = itest_slurp(itest_path(&itest_cur, "out/result.txt"));
	cr_assert(result != NULL, "out/result.txt missing on the host");
	cr_expect(itest_streq(result, "THREE SMALL WORDS\n"), "result.txt holds '%s'", result);
	free(result);
	cr_assert(stat(itest_path(&itest_cur, "out/result.txt"), &st) == 0);
	cr_expect(eq(u32, st.st_uid, itest_cur.uid));

	/* The script's own status comes back. */
	ITEST_RUN(&r, "--ro", "input", "--rw", "out", "--", "python3", "script.py", "3");
	ITEST_EXPECT_EXIT(&r, 3);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "exit_code"), "3");
	itest_run_close(&r);
}
