// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Real programs still work inside: python3 and a good part of its standard
 * library, gcc, make, git and shell pipelines, under the default and the
 * strict profile, as root and as the unprivileged user.  Every run's output
 * is compared with the value the program must print, and for --rw work the
 * host side is checked as well.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#define MAX_ARGS 24

/* Programs take longer than the probe: gcc, a process pool, git. */
static const struct itest_opts slow = {.timeout_ms = 45000};

/* nsbox --seccomp profile ARGS... */
static void run_under(struct itest_run *r, const struct itest_opts *o, const char *profile,
		      const char *const *args)
{
	const char *argv[MAX_ARGS + 3];
	size_t n = 0;

	argv[n++] = "--seccomp";
	argv[n++] = profile;
	for (size_t i = 0; args[i]; i++) {
		cr_assert(n < MAX_ARGS + 2);
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	itest_run(&itest_cur, o ? o : &slow, argv, r);
}

/* Exit 0, the record says it exited, and stdout is exactly want. */
static void expect_output(const struct itest_run *r, const char *profile, const char *want)
{
	ITEST_EXPECT_EXIT(r, 0);
	ITEST_EXPECT_STR(r, itest_rec(r, "status"), "exited");
	ITEST_EXPECT_STR(r, itest_rec(r, "enforced.seccomp.profile"), profile);
	ITEST_EXPECT_STR(r, r->out, want);
}

/* ---- python3 ---- */

static const char python_script[] =
	"import ssl, sqlite3, subprocess, threading, multiprocessing, asyncio\n"
	"\n"
	"def square(x):\n"
	"    return x * x\n"
	"\n"
	"async def answer():\n"
	"    await asyncio.sleep(0.01)\n"
	"    return 42\n"
	"\n"
	"if __name__ == '__main__':\n"
	"    db = sqlite3.connect(':memory:')\n"
	"    db.execute('create table t(x)')\n"
	"    db.executemany('insert into t values (?)', [(i,) for i in range(10)])\n"
	"    print('sqlite', db.execute('select sum(x) from t').fetchone()[0])\n"
	"    ctx = ssl.create_default_context()\n"
	"    print('ssl', ctx.verify_mode == ssl.CERT_REQUIRED, ssl.OPENSSL_VERSION[:7])\n"
	"    p = subprocess.run(['sh', '-c', 'echo sub | tr a-z A-Z'], capture_output=True,\n"
	"                       text=True, check=True)\n"
	"    print('subprocess', p.stdout.strip())\n"
	"    out, lock = [], threading.Lock()\n"
	"    def work(i):\n"
	"        with lock:\n"
	"            out.append(i * 10)\n"
	"    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]\n"
	"    for t in ts: t.start()\n"
	"    for t in ts: t.join()\n"
	"    print('threading', sorted(out))\n"
	"    with multiprocessing.Pool(2) as pool:\n"
	"        print('multiprocessing', pool.map(square, range(6)))\n"
	"    print('asyncio', asyncio.run(answer()))\n";

static const char python_expected[] = "sqlite 45\n"
				      "ssl True OpenSSL\n"
				      "subprocess SUB\n"
				      "threading [0, 10, 20, 30]\n"
				      "multiprocessing [0, 1, 4, 9, 16, 25]\n"
				      "asyncio 42\n";

static void python_runs(const char *profile)
{
	struct itest_run r;

	itest_write(&itest_cur, "stdlib.py", python_script);
	run_under(&r, NULL, profile, ITEST_ARGV("--", "python3", "stdlib.py"));
	expect_output(&r, profile, python_expected);
	itest_run_close(&r);
}

NSB_ITEST(programs_default, python3_stdlib_works)
{
	python_runs("default");
}

NSB_ITEST(programs_strict, python3_stdlib_works)
{
	python_runs("strict");
}

/* ---- gcc ---- */

static const char c_program[] = "#include <stdio.h>\n"
				"#include <stdlib.h>\n"
				"int main(int argc, char **argv)\n"
				"{\n"
				"\tlong s = 0;\n"
				"\tfor (int i = 1; i <= atoi(argv[1]); i++)\n"
				"\t\ts += i;\n"
				"\tprintf(\"sum=%ld\\n\", s);\n"
				"\treturn 0;\n"
				"}\n";

static void gcc_builds_and_runs(const char *profile)
{
	struct itest_run r;
	struct stat st;

	itest_mkdir(&itest_cur, "work");
	itest_write(&itest_cur, "work/sum.c", c_program);
	/* Compile, link and run in the --rw dir: cc1, as, ld and the result. */
	run_under(&r, NULL, profile,
		  ITEST_ARGV("--rw", "work", "--", "sh", "-c",
			     "gcc -O2 -Wall -o work/sum work/sum.c && ./work/sum 100"));
	expect_output(&r, profile, "sum=5050\n");
	itest_run_close(&r);
	/* The binary landed on the host, owned by the caller. */
	cr_expect(stat(itest_path(&itest_cur, "work/sum"), &st) == 0 && (st.st_mode & S_IXUSR),
		  "work/sum missing on the host: %s", strerror(errno));
	cr_expect(eq(uint, st.st_uid, itest_cur.uid));
}

NSB_ITEST(programs_default, gcc_compiles_and_runs_a_program)
{
	gcc_builds_and_runs("default");
}

NSB_ITEST(programs_strict, gcc_compiles_and_runs_a_program)
{
	gcc_builds_and_runs("strict");
}

/* ---- make ---- */

static void make_builds(const char *profile)
{
	struct itest_run r;
	char *host;

	itest_mkdir(&itest_cur, "work");
	itest_write(&itest_cur, "work/Makefile",
		    "all: upper.txt count.txt\n"
		    "upper.txt: in.txt\n"
		    "\ttr a-z A-Z < in.txt > $@\n"
		    "count.txt: in.txt\n"
		    "\twc -l < in.txt > $@\n"
		    ".PHONY: show\n"
		    "show: all\n"
		    "\t@cat upper.txt count.txt\n");
	itest_write(&itest_cur, "work/in.txt", "alpha\nbeta\n");
	run_under(&r, NULL, profile,
		  ITEST_ARGV("--rw", "work", "--", "make", "-s", "-C", "work", "show"));
	expect_output(&r, profile, "ALPHA\nBETA\n2\n");
	itest_run_close(&r);
	host = itest_slurp(itest_path(&itest_cur, "work/upper.txt"));
	cr_expect(host && itest_streq(host, "ALPHA\nBETA\n"), "upper.txt on the host: %s",
		  host ? host : strerror(errno));
	free(host);

	/* Up to date: a second make does nothing and still succeeds. */
	run_under(&r, NULL, profile,
		  ITEST_ARGV("--rw", "work", "--", "make", "-C", "work", "--no-print-directory",
			     "all"));
	expect_output(&r, profile, "make: Nothing to be done for 'all'.\n");
	itest_run_close(&r);
}

NSB_ITEST(programs_default, make_builds_in_a_rw_dir)
{
	make_builds("default");
}

NSB_ITEST(programs_strict, make_builds_in_a_rw_dir)
{
	make_builds("strict");
}

/* ---- git ---- */

static void git_commits(const char *profile)
{
	struct itest_run r;
	char *head;

	itest_mkdir(&itest_cur, "repo");
	itest_write(&itest_cur, "commit.sh",
		    "set -e\n"
		    "cd repo\n"
		    "git init -q -b main .\n"
		    "printf 'one\\n' > a.txt\n"
		    "git add a.txt\n"
		    "git commit -q -m first\n"
		    "printf 'two\\n' >> a.txt\n"
		    "git commit -q -a -m second\n"
		    "git log --format='%s <%ae>'\n"
		    "git rev-list --count HEAD\n"
		    "git show HEAD:a.txt\n");
	/* The identity comes in through --env: the caller's environment does not. */
	run_under(&r, NULL, profile,
		  ITEST_ARGV("--rw", "repo", "--env", "GIT_AUTHOR_NAME=Sandbox", "--env",
			     "GIT_AUTHOR_EMAIL=sandbox@example.invalid", "--env",
			     "GIT_COMMITTER_NAME=Sandbox", "--env",
			     "GIT_COMMITTER_EMAIL=sandbox@example.invalid", "--", "sh",
			     "commit.sh"));
	expect_output(&r, profile,
		      "second <sandbox@example.invalid>\n"
		      "first <sandbox@example.invalid>\n"
		      "2\n"
		      "one\ntwo\n");
	itest_run_close(&r);
	/* The repository is real on the host. */
	head = itest_slurp(itest_path(&itest_cur, "repo/.git/HEAD"));
	cr_expect(head && itest_streq(head, "ref: refs/heads/main\n"), "repo/.git/HEAD: %s",
		  head ? head : strerror(errno));
	free(head);
}

NSB_ITEST(programs_default, git_init_add_commit_in_a_rw_dir)
{
	git_commits("default");
}

NSB_ITEST(programs_strict, git_init_add_commit_in_a_rw_dir)
{
	git_commits("strict");
}

/* ---- shell pipelines ---- */

static void shell_pipes(const char *profile)
{
	struct itest_run r;

	itest_write(&itest_cur, "pipes.sh",
		    "set -e\n"
		    "printf 'pear\\napple\\npear\\nfig\\napple\\npear\\n' | sort | uniq -c |"
		    " sort -rn | awk '{print $2 \"=\" $1}'\n"
		    "seq 1 100 | awk '{s += $1} END {print s}'\n"
		    "echo hello | sed 's/h/j/' | cut -c1-4 | tr 'a-z' 'b-za'\n"
		    "x=$(printf 'a b c' | wc -w); echo words=$x\n"
		    "( echo sub; exit 3 ) | cat; echo status=$?\n"
		    "false | true; echo pipe_status=$?\n"
		    "cat <<END | head -n 1\n"
		    "here-doc\n"
		    "second\n"
		    "END\n");
	run_under(&r, NULL, profile, ITEST_ARGV("--", "sh", "pipes.sh"));
	expect_output(&r, profile,
		      "pear=3\n"
		      "apple=2\n"
		      "fig=1\n"
		      "5050\n"
		      "kfmm\n"
		      "words=3\n"
		      "sub\n"
		      "status=0\n"
		      "pipe_status=0\n"
		      "here-doc\n");
	itest_run_close(&r);
}

NSB_ITEST(programs_default, sh_scripts_with_pipes_work)
{
	shell_pipes("default");
}

NSB_ITEST(programs_strict, sh_scripts_with_pipes_work)
{
	shell_pipes("strict");
}
