// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The front gate through the real binary (issue 3): each rule refuses with
 * exit 123, one stderr line and a denial record; a refusal leaves no file,
 * no process and no cgroup behind; benign calls really run; each --allow-*
 * lifts exactly its own rule; --check describes the run without making it.
 *
 * Every run here sets .gate = true: the harness otherwise relaxes the gate.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#define CGROUP_UNIFIED "/sys/fs/cgroup/unified"

/*
 * The projects of this file live under /var/tmp, not /tmp: inside the
 * sandbox /tmp is a private tmpfs that the gate accepts lexically, so from a
 * project under /tmp/X/project "../../etc/passwd" names /tmp/etc/passwd on
 * that tmpfs, which is not what this file means to test.
 */
__attribute__((constructor)) static void gate_tmpdir(void)
{
	setenv("NSBOX_ITEST_TMPDIR", "/var/tmp", 1);
}

static const struct itest_opts gate_opts = {.gate = true};

#define GATE_RUN(r, ...) itest_run(&itest_cur, &gate_opts, ITEST_ARGV(__VA_ARGS__), (r))

/* The project every test starts from. */
static void make_project(void)
{
	itest_mkdir(&itest_cur, "input");
	itest_mkdir(&itest_cur, "out");
	itest_write(&itest_cur, "input/data.txt", "a word here\n");
	itest_write(&itest_cur, "input/a", "payload a\n");
	itest_write(&itest_cur, "script.py", "print('ran script.py')\n");
	cr_assert(symlink("/etc/passwd", itest_path(&itest_cur, "link")) == 0);
	cr_assert(lchown(itest_path(&itest_cur, "link"), itest_cur.uid, itest_cur.gid) == 0);
}

static bool exists(const char *rel)
{
	struct stat st;
	return lstat(itest_path(&itest_cur, rel), &st) == 0;
}

/*
 * A refusal: 123, nothing on stdout, exactly one stderr line in the
 * documented form, and the denial record.  resolved NULL: JSON null.
 */
static void expect_denied(const struct itest_run *r, const char *rule, int idx, const char *token,
			  const char *resolved)
{
	char line[4096], want_idx[16];
	const char *hint = itest_rec(r, "denial.hint");

	ITEST_ASSERT_EXIT(r, 123);
	ITEST_EXPECT_STR(r, r->out, "");
	ITEST_EXPECT_STR(r, itest_rec(r, "status"), "denied");
	ITEST_EXPECT_STR(r, itest_rec(r, "denied"), "true");
	ITEST_EXPECT_STR(r, itest_rec(r, "exit_code"), "-100");
	ITEST_EXPECT_STR(r, itest_rec(r, "signal"), "null");
	ITEST_EXPECT_STR(r, itest_rec(r, "enforced"), "null");
	ITEST_EXPECT_STR(r, itest_rec(r, "setup_error"), "null");
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.stage"), "gate");
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.rule"), rule);
	snprintf(want_idx, sizeof(want_idx), "%d", idx);
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.argv_index"), want_idx);
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.token"), token);
	ITEST_EXPECT_STR(r, itest_rec(r, "denial.resolved"), resolved ? resolved : "null");
	cr_expect(strlen(hint) > 20 && strcmp(hint, "(missing)") != 0, "no hint%s", itest_ctx(r));
	const char *reason = itest_rec(r, "reason");
	cr_expect(strlen(reason) > 5 && strcmp(reason, "null") != 0 &&
			  strcmp(reason, "(missing)") != 0,
		  "no reason%s", itest_ctx(r));
	/* The token as stderr shows it: quote, backslash, control and
	 * non-ASCII bytes as \xNN. */
	char esc[2048];
	size_t k = 0;
	for (const unsigned char *p = (const unsigned char *)token; *p && k + 5 < sizeof(esc); p++)
		if (*p == '\\' || *p == '\'' || *p < 0x20 || *p >= 0x7f)
			k += (size_t)snprintf(esc + k, sizeof(esc) - k, "\\x%02x", *p);
		else
			esc[k++] = (char)*p;
	esc[k] = '\0';
	snprintf(line, sizeof(line), "nsbox: refused: %s: '%s' (argument %d): %s\n", rule, esc, idx,
		 hint);
	ITEST_EXPECT_STR(r, r->err, line);
	/* Decided before anything was built: far below a real run's cost. */
	long long ms = atoll(itest_rec(r, "duration_ms"));
	cr_expect(ms >= 0 && ms < 1000, "duration_ms %lld for a refusal%s", ms, itest_ctx(r));
}

struct refusal {
	const char *argv[8];
	const char *rule;
	int idx;
	const char *token;
	const char *resolved; /* NULL: none; "@HOME...", "@UP..." expanded below */
};

NSB_ITEST(gate, each_rule_refuses_with_exit_line_and_record)
{
	static const struct refusal cases[] = {
		{{"rm", "-rf", "input"}, "exec.denylist", 0, "rm", NULL},
		{{"/usr/bin/rm", "-rf", "input"}, "exec.denylist", 0, "/usr/bin/rm", NULL},
		{{"env", "sudo", "id"}, "exec.denylist", 1, "sudo", NULL},
		{{"busybox", "rm", "-rf", "x"}, "exec.denylist", 1, "rm", NULL},
		{{"find", ".", "-exec", "rm", "{}", "+"}, "exec.denylist", 3, "rm", NULL},
		{{"timeout", "5", "rm", "input/a"}, "exec.denylist", 2, "rm", NULL},
		{{"env", "-S", "rm input"}, "exec.denylist", 2, "rm input", NULL},
		{{"python3", "-c", "print(1)"}, "interp.inline", 1, "-c", NULL},
		{{"bash", "-xc", "id"}, "interp.inline", 1, "-xc", NULL},
		{{"perl", "-we", "1"}, "interp.inline", 1, "-we", NULL},
		{{"nice", "-n", "5", "python3", "-Sc", "1"}, "interp.inline", 4, "-Sc", NULL},
		{{"echo", "a;"}, "shell.metachar", 1, "a;", NULL},
		{{"echo", "ok", "|", "y"}, "shell.metachar", 2, "|", NULL},
		{{"echo", "$(id)"}, "shell.metachar", 1, "$(id)", NULL},
		{{"cat", "../../etc/passwd"}, "path.outside", 1, "../../etc/passwd", "@UP"},
		{{"cat", "/etc/passwd"}, "path.outside", 1, "/etc/passwd", "/etc/passwd"},
		{{"cat", "~/.ssh/id_rsa"}, "path.outside", 1, "~/.ssh/id_rsa", "@HOME"},
		{{"cat", "--", "input/data.txt", "--file=/etc/shadow"},
		 "path.outside",
		 3,
		 "--file=/etc/shadow",
		 "/etc/shadow"},
		{{"cat", "link"}, "path.symlink_escape", 1, "link", "/etc/passwd"},
		{{"cat", "./input/../link"},
		 "path.symlink_escape",
		 1,
		 "./input/../link",
		 "/etc/passwd"},
	};
	char up[PATH_MAX], home[PATH_MAX], parent[PATH_MAX];

	make_project();
	/* ../../ from <base>/nsbox-itest-XXXXXX/project is <base>. */
	snprintf(parent, sizeof(parent), "%s/..", itest_cur.top);
	cr_assert(realpath(parent, up) != NULL);
	strncat(up, "/etc/passwd", sizeof(up) - strlen(up) - 1);
	snprintf(home, sizeof(home), "%s/.ssh/id_rsa", as_user ? "/nonexistent" : "/root");

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct refusal *c = &cases[i];
		const char *argv[16];
		size_t n = 0;
		struct itest_run r;

		argv[n++] = "--rw";
		argv[n++] = "out";
		argv[n++] = "--";
		for (size_t k = 0; c->argv[k]; k++)
			argv[n++] = c->argv[k];
		argv[n] = NULL;
		itest_run(&itest_cur, &gate_opts, argv, &r);
		const char *res = c->resolved;
		if (res && strcmp(res, "@UP") == 0)
			res = up;
		else if (res && strcmp(res, "@HOME") == 0)
			res = home;
		cr_log_info("case %zu: %s %s", i, c->argv[0], c->argv[1]);
		expect_denied(&r, c->rule, c->idx, c->token, res);
		itest_run_close(&r);
	}
	/* Nothing the refused commands named was touched. */
	cr_expect(exists("input/data.txt") && exists("input/a") && exists("link"));
}

/* A refused token that is not plain ASCII is escaped on stderr, never raw. */
NSB_ITEST(gate, refused_token_is_escaped_on_stderr)
{
	struct itest_run r;

	GATE_RUN(&r, "--", "echo", "it's\x1b[31m;");
	ITEST_ASSERT_EXIT(&r, 123);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "denial.token"), "it's\x1b[31m;");
	ITEST_EXPECT_CONTAINS(&r, r.err, "'it\\x27s\\x1b[31m;' (argument 1)");
	ITEST_EXPECT_LACKS(&r, r.err, "\x1b");
	itest_run_close(&r);
}

NSB_ITEST(gate, benign_calls_pass_and_really_run)
{
	struct itest_run r;

	make_project();
	GATE_RUN(&r, "--ro", "input", "--rw", "out", "--", "python3", "script.py");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "ran script.py\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "denied"), "false");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "denial"), "null");
	itest_run_close(&r);

	GATE_RUN(&r, "--ro", "input", "--rw", "out", "--", "cat", "input/data.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "a word here\n");
	itest_run_close(&r);

	itest_write(&itest_cur, "out/listed", "");
	GATE_RUN(&r, "--ro", "input", "--rw", "out", "--", "ls", "out");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "listed\n");
	itest_run_close(&r);

	GATE_RUN(&r, "--ro", "input", "--rw", "out", "--", "grep", "-r", "word", "input");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "input/data.txt:a word here\n");
	itest_run_close(&r);

	/* out/b does not exist yet: judged by its longest existing prefix. */
	cr_assert(false == exists("out/b"));
	GATE_RUN(&r, "--ro", "input", "--rw", "out", "--", "cp", "input/a", "out/b");
	ITEST_ASSERT_EXIT(&r, 0);
	char *b = itest_slurp(itest_path(&itest_cur, "out/b"));
	cr_expect(b && itest_streq(b, "payload a\n"), "out/b is '%s'%s", b ? b : "(absent)",
		  itest_ctx(&r));
	free(b);
	itest_run_close(&r);

	/* Several missing components below an --rw dir, as an --opt=value too. */
	GATE_RUN(&r, "--rw", "out", "--", "mkdir", "-p", "out/new/deeper/still");
	ITEST_ASSERT_EXIT(&r, 0);
	cr_expect(exists("out/new/deeper/still"), "%s", itest_ctx(&r));
	itest_run_close(&r);
	GATE_RUN(&r, "--rw", "out", "--", "sort", "--output=out/sorted", "input/data.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	cr_expect(exists("out/sorted"), "%s", itest_ctx(&r));
	itest_run_close(&r);
	/* A --ro path is a root too; a find -exec of a harmless command passes. */
	GATE_RUN(&r, "--ro", "input", "--", "find", "input", "-name", "a", "-exec", "cat", "{}",
		 ";");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "payload a\n");
	itest_run_close(&r);
}

/* ---- no trace: no file, no process, no cgroup ------------------------ */

/* Watch dir for new entries named "nsbox-<pid>-*" (the run's cgroup). */
struct cg_watch {
	int fd;
	char dir[PATH_MAX];
};

static bool cg_watch_start(struct cg_watch *w, const char *dir)
{
	snprintf(w->dir, sizeof(w->dir), "%s", dir);
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	cr_assert(w->fd >= 0, "inotify_init1: %s", strerror(errno));
	if (inotify_add_watch(w->fd, dir, IN_CREATE) < 0) {
		close(w->fd);
		w->fd = -1;
		return false;
	}
	return true;
}

/* How many directories "nsbox-<pid>-*" were created while watched. */
static int cg_watch_count(struct cg_watch *w, pid_t pid)
{
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	char prefix[64];
	int count = 0;
	ssize_t n;

	snprintf(prefix, sizeof(prefix), "nsbox-%d-", (int)pid);
	while ((n = read(w->fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			if (ev->len && strncmp(ev->name, prefix, strlen(prefix)) == 0)
				count++;
			p += sizeof(*ev) + ev->len;
		}
	}
	close(w->fd);
	w->fd = -1;
	return count;
}

/* Entries of dir whose name starts with "nsbox-<pid>-". */
static int cg_listing(const char *dir, pid_t pid)
{
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "nsbox-%d-", (int)pid);
	int count = 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	for (struct dirent *de; (de = readdir(d));)
		count += strncmp(de->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return count;
}

NSB_ITEST(gate, refused_command_leaves_no_file_process_or_cgroup)
{
	struct itest_run r;
	struct cg_watch w;
	char parent[PATH_MAX], unique[64];

	make_project();
	snprintf(unique, sizeof(unique), "nsbox-gate-%d-%ld", (int)getpid(), (long)itest_now_ms());
	char script[200];
	snprintf(script, sizeof(script), "touch out/marker; exec sleep 5 # %s", unique);

	/* Control: allowed, the same command leaves its marker, and if the run
	 * had a cgroup the watch saw it being made (the watch works). */
	snprintf(parent, sizeof(parent), CGROUP_UNIFIED);
	bool watching = cg_watch_start(&w, parent);
	GATE_RUN(&r, "--rw", "out", "--allow-inline-code", "--", "sh", "-c", "touch out/marker");
	ITEST_ASSERT_EXIT(&r, 0);
	cr_assert(exists("out/marker"), "the control did not run%s", itest_ctx(&r));
	const char *cgpath = itest_rec(&r, "enforced.cgroup.path");
	if (watching) {
		int seen = cg_watch_count(&w, r.pid);
		if (strncmp(cgpath, CGROUP_UNIFIED "/", strlen(CGROUP_UNIFIED) + 1) == 0 &&
		    !strchr(cgpath + strlen(CGROUP_UNIFIED) + 1, '/'))
			cr_expect(eq(int, seen, 1), "the watch missed the control's cgroup '%s'",
				  cgpath);
	}
	/* Watch where the control's cgroup was made, if not in the root. */
	if (cgpath[0] == '/') {
		snprintf(parent, sizeof(parent), "%s", cgpath);
		*strrchr(parent, '/') = '\0';
	}
	itest_run_close(&r);
	cr_assert(unlink(itest_path(&itest_cur, "out/marker")) == 0);

	/* Refused for inline code, for a denied name, and through a wrapper. */
	const char *const *refused[] = {
		ITEST_ARGV("--rw", "out", "--", "sh", "-c", script),
		ITEST_ARGV("--rw", "out", "--deny-exec", "touch", "--", "touch", "out/marker",
			   unique),
		ITEST_ARGV("--rw", "out", "--deny-exec", "touch", "--", "env", "A=1", "touch",
			   "out/marker", unique),
		ITEST_ARGV("--rw", "out", "--", "timeout", "9", "sh", "-ec", script),
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		watching = cg_watch_start(&w, parent);
		itest_run(&itest_cur, &gate_opts, refused[i], &r);
		ITEST_EXPECT_EXIT(&r, 123);
		ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "denied");
		cr_expect(false == exists("out/marker"), "refused command %zu ran%s", i,
			  itest_ctx(&r));
		cr_expect(eq(int, itest_find_procs(unique, NULL, 0), 0),
			  "a process of refused command %zu exists", i);
		cr_expect(eq(int, itest_find_procs(itest_cur.top, NULL, 0), 0),
			  "an nsbox process outlived refused command %zu", i);
		if (watching)
			cr_expect(eq(int, cg_watch_count(&w, r.pid), 0),
				  "refused command %zu made a cgroup under %s", i, parent);
		cr_expect(eq(int, cg_listing(parent, r.pid), 0));
		cr_expect(eq(int, cg_listing(CGROUP_UNIFIED, r.pid), 0));
		long long ms = atoll(itest_rec(&r, "duration_ms"));
		cr_expect(ms < 1000, "duration_ms %lld%s", ms, itest_ctx(&r));
		itest_run_close(&r);
	}
}

/* ---- each --allow-* / --deny-exec changes exactly its rule ------------ */

NSB_ITEST(gate, allow_exec_lifts_only_that_name)
{
	struct itest_run r;

	make_project();
	itest_write(&itest_cur, "out/victim", "x");
	GATE_RUN(&r, "--rw", "out", "--allow-exec", "rm", "--", "rm", "out/victim");
	ITEST_ASSERT_EXIT(&r, 0);
	cr_expect(false == exists("out/victim"), "rm did not run%s", itest_ctx(&r));
	itest_run_close(&r);
	/* The path jail still holds for rm, and sudo is still denied. */
	GATE_RUN(&r, "--rw", "out", "--allow-exec", "rm", "--", "rm", "/etc/passwd");
	expect_denied(&r, "path.outside", 1, "/etc/passwd", "/etc/passwd");
	itest_run_close(&r);
	GATE_RUN(&r, "--rw", "out", "--allow-exec", "rm", "--", "env", "sudo", "rm", "x");
	expect_denied(&r, "exec.denylist", 1, "sudo", NULL);
	itest_run_close(&r);
}

NSB_ITEST(gate, deny_exec_adds_a_name)
{
	struct itest_run r;

	make_project();
	GATE_RUN(&r, "--deny-exec", "cat", "--", "cat", "input/data.txt");
	expect_denied(&r, "exec.denylist", 0, "cat", NULL);
	itest_run_close(&r);
	GATE_RUN(&r, "--deny-exec", "cat", "--", "env", "LC_ALL=C", "cat", "input/data.txt");
	expect_denied(&r, "exec.denylist", 2, "cat", NULL);
	itest_run_close(&r);
	/* A prefix pattern, and other names untouched. */
	GATE_RUN(&r, "--deny-exec", "ca*", "--", "cat", "input/data.txt");
	expect_denied(&r, "exec.denylist", 0, "cat", NULL);
	itest_run_close(&r);
	GATE_RUN(&r, "--deny-exec", "cat", "--", "head", "input/data.txt");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "a word here\n");
	itest_run_close(&r);
}

NSB_ITEST(gate, allow_inline_code_lifts_only_interp_inline)
{
	struct itest_run r;

	make_project();
	GATE_RUN(&r, "--allow-inline-code", "--", "python3", "-c", "print(6*7)");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "42\n");
	itest_run_close(&r);
	GATE_RUN(&r, "--allow-inline-code", "--", "python3", "-c", "print('a;b')", ">out");
	expect_denied(&r, "shell.metachar", 3, ">out", NULL);
	itest_run_close(&r);
	GATE_RUN(&r, "--allow-inline-code", "--", "bash", "-c", "id", "rm");
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
	GATE_RUN(&r, "--allow-inline-code", "--", "env", "rm", "x");
	expect_denied(&r, "exec.denylist", 1, "rm", NULL);
	itest_run_close(&r);
	GATE_RUN(&r, "--allow-inline-code", "--", "perl", "-e", "1", "/etc/passwd");
	expect_denied(&r, "path.outside", 3, "/etc/passwd", "/etc/passwd");
	itest_run_close(&r);
}

NSB_ITEST(gate, allow_metachar_lifts_only_shell_metachar)
{
	struct itest_run r;

	make_project();
	GATE_RUN(&r, "--allow-metachar", "--", "echo", "a;b", "x|y", "$(id)");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "a;b x|y $(id)\n");
	itest_run_close(&r);
	GATE_RUN(&r, "--allow-metachar", "--", "bash", "-c", "id");
	expect_denied(&r, "interp.inline", 1, "-c", NULL);
	itest_run_close(&r);
	GATE_RUN(&r, "--allow-metachar", "--", "cat", "/etc/passwd");
	expect_denied(&r, "path.outside", 1, "/etc/passwd", "/etc/passwd");
	itest_run_close(&r);
}

NSB_ITEST(gate, allow_path_lifts_the_jail_for_that_dir_only)
{
	struct itest_run r;

	make_project();
	GATE_RUN(&r, "--allow-path", "/etc", "--", "cat", "/etc/passwd");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "root:x:0:0:");
	itest_run_close(&r);
	/* The project's link to /etc/passwd now lands in an allowed root. */
	GATE_RUN(&r, "--allow-path", "/etc", "--", "cat", "link");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "root:x:0:0:");
	itest_run_close(&r);
	GATE_RUN(&r, "--allow-path", "/etc", "--", "cat", "/var/log/../../etc/passwd", "/var/log");
	expect_denied(&r, "path.outside", 2, "/var/log", "/var/log");
	itest_run_close(&r);
	GATE_RUN(&r, "--allow-path", "/etc", "--", "python3", "-c", "1");
	expect_denied(&r, "interp.inline", 1, "-c", NULL);
	itest_run_close(&r);
	/* A directory that does not exist is an error, not a silent no-op. */
	GATE_RUN(&r, "--allow-path", "/nsbox-itest-absent", "--", "true");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_CONTAINS(&r, r.err, "--allow-path '/nsbox-itest-absent'");
	itest_run_close(&r);
}

/* ---- --check ---------------------------------------------------------- */

/*
 * Next element of a JSON array's raw text (as itest_json_get returns it):
 * *pos starts at the '['; each call copies one element's raw text into out.
 */
static bool json_next_elem(const char **pos, char *out, size_t size)
{
	const char *s = *pos;
	int depth = 0;
	bool in_str = false;

	if (*s == '[' || *s == ',')
		s++;
	while (*s == ' ')
		s++;
	if (*s == ']' || *s == '\0')
		return false;
	const char *start = s;
	for (; *s; s++) {
		if (in_str) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				in_str = false;
			continue;
		}
		if (*s == '"')
			in_str = true;
		else if (*s == '{' || *s == '[')
			depth++;
		else if (*s == '}' || *s == ']') {
			if (depth == 0)
				break;
			depth--;
		} else if (*s == ',' && depth == 0)
			break;
	}
	size_t len = (size_t)(s - start);
	cr_assert(len < size, "JSON element too long");
	memcpy(out, start, len);
	out[len] = '\0';
	*pos = s;
	return true;
}

/* Field of a JSON document (not the record) as text, "(missing)" if absent. */
static char *jget(const char *json, const char *path)
{
	static char ring[8][65536];
	static unsigned next;
	char *buf = ring[next++ % 8];

	if (itest_json_get(json, path, buf, sizeof(ring[0])) == ITEST_JSON_MISSING)
		snprintf(buf, sizeof(ring[0]), "(missing)");
	return buf;
}

/* Is there a mount {kind, source, dest} in the plan? source NULL: null. */
static bool has_mount(const char *doc, const char *kind, const char *source, const char *dest)
{
	const char *pos = jget(doc, "mounts");
	static char elem[4096];

	while (json_next_elem(&pos, elem, sizeof(elem)))
		if (itest_streq(jget(elem, "kind"), kind) &&
		    itest_streq(jget(elem, "source"), source ? source : "null") &&
		    itest_streq(jget(elem, "dest"), dest))
			return true;
	return false;
}

static bool has_string(const char *array, const char *want)
{
	const char *pos = array;
	char elem[4096], wrapped[4200];

	while (json_next_elem(&pos, elem, sizeof(elem))) {
		snprintf(wrapped, sizeof(wrapped), "{\"v\":%s}", elem);
		if (itest_streq(jget(wrapped, "v"), want))
			return true;
	}
	return false;
}

static bool is_hex64(const char *s)
{
	if (strlen(s) != 64)
		return false;
	for (; *s; s++)
		if (!strchr("0123456789abcdef", *s))
			return false;
	return true;
}

/* What --check says about any call in this project. */
static void expect_plan(const struct itest_run *r, const char *argv_json)
{
	const char *doc = r->out;
	char proj[PATH_MAX], out[PATH_MAX + 8];

	cr_assert(realpath(itest_cur.dir, proj) != NULL);
	snprintf(out, sizeof(out), "%s/out", proj);
	cr_expect(r->out_len > 0 && r->out[r->out_len - 1] == '\n' &&
			  strchr(r->out, '\n') == r->out + r->out_len - 1,
		  "not one JSON line%s", itest_ctx(r));
	ITEST_EXPECT_STR(r, jget(doc, "schema"), "1");
	ITEST_EXPECT_STR(r, jget(doc, "check"), "true");
	ITEST_EXPECT_STR(r, jget(doc, "command.argv"), argv_json);
	ITEST_EXPECT_STR(r, jget(doc, "cwd"), proj);
	ITEST_EXPECT_STR(r, jget(doc, "project"), proj);
	cr_expect(has_mount(doc, "ro", proj, proj), "no ro project mount%s", itest_ctx(r));
	cr_expect(has_mount(doc, "rw", out, out), "no rw out mount%s", itest_ctx(r));
	cr_expect(has_mount(doc, "system", "/usr", "/usr"), "no /usr%s", itest_ctx(r));
	cr_expect(has_mount(doc, "proc", NULL, "/proc"), "no /proc%s", itest_ctx(r));
	cr_expect(has_mount(doc, "dev", NULL, "/dev"), "no /dev%s", itest_ctx(r));
	cr_expect(has_mount(doc, "tmp", NULL, "/tmp"), "no /tmp%s", itest_ctx(r));
	cr_expect(false == has_mount(doc, "system", "/etc", "/etc"), "the whole /etc%s",
		  itest_ctx(r));
	const char *env = jget(doc, "env");
	cr_expect(has_string(env,
			     "PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"),
		  "env %s%s", env, itest_ctx(r));
	/* The harness gives nsbox a secret in its environment: cleared. */
	ITEST_EXPECT_LACKS(r, env, "NSBOX_ITEST_SECRET");
	ITEST_EXPECT_STR(r, jget(doc, "network"), "none");
	ITEST_EXPECT_STR(r, jget(doc, "hostname"), "nsbox");
	ITEST_EXPECT_STR(r, jget(doc, "seccomp.profile"), "default");
	cr_expect(is_hex64(jget(doc, "seccomp.sha256")), "seccomp.sha256 '%s'%s",
		  jget(doc, "seccomp.sha256"), itest_ctx(r));
	ITEST_EXPECT_STR(r, jget(doc, "gate.policy.source"), "builtin");
	cr_expect(has_string(jget(doc, "gate.policy.deny_exec"), "sudo"));
	cr_expect(has_string(jget(doc, "gate.policy.deny_exec"), "mkfs.*"));
}

NSB_ITEST(gate, check_describes_an_allowed_call_and_runs_nothing)
{
	struct itest_run r;
	struct cg_watch w;

	make_project();
	bool watching = cg_watch_start(&w, CGROUP_UNIFIED);
	GATE_RUN(&r, "--rw", "out", "--check", "--", "touch", "out/marker");
	ITEST_ASSERT_EXIT(&r, 0);
	expect_plan(&r, "[\"touch\",\"out/marker\"]");
	ITEST_EXPECT_STR(&r, jget(r.out, "allowed"), "true");
	ITEST_EXPECT_STR(&r, jget(r.out, "exit_code"), "0");
	ITEST_EXPECT_STR(&r, jget(r.out, "command.found"), "true");
	ITEST_EXPECT_STR(&r, jget(r.out, "command.realpath"), "/usr/bin/touch");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.allowed"), "true");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.rule"), "null");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.argv_index"), "null");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.token"), "null");
	ITEST_EXPECT_STR(&r, r.err, "");
	/* A dry run: the command did not run, no cgroup, no process. */
	cr_expect(false == exists("out/marker"), "--check ran the command%s", itest_ctx(&r));
	if (watching)
		cr_expect(eq(int, cg_watch_count(&w, r.pid), 0), "--check made a cgroup");
	cr_expect(eq(int, itest_find_procs(itest_cur.top, NULL, 0), 0));
	itest_run_close(&r);

	/* python3 resolves, through its symlink, in the sandbox's view. */
	GATE_RUN(&r, "--rw", "out", "--check", "--", "python3", "script.py");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, jget(r.out, "command.realpath"), "/usr/bin/python3");
	itest_run_close(&r);

	/* Not found inside: still a plan, with found false. */
	GATE_RUN(&r, "--rw", "out", "--check", "--", "nsbox-no-such-command");
	ITEST_EXPECT_STR(&r, jget(r.out, "command.found"), "false");
	ITEST_EXPECT_STR(&r, jget(r.out, "command.realpath"), "null");
	itest_run_close(&r);
}

NSB_ITEST(gate, check_describes_a_refused_call_and_runs_nothing)
{
	struct itest_run r;
	struct cg_watch w;

	make_project();
	bool watching = cg_watch_start(&w, CGROUP_UNIFIED);
	GATE_RUN(&r, "--rw", "out", "--check", "--", "sh", "-c", "touch out/marker");
	ITEST_ASSERT_EXIT(&r, 123);
	expect_plan(&r, "[\"sh\",\"-c\",\"touch out/marker\"]");
	ITEST_EXPECT_STR(&r, jget(r.out, "allowed"), "false");
	ITEST_EXPECT_STR(&r, jget(r.out, "exit_code"), "123");
	ITEST_EXPECT_STR(&r, jget(r.out, "command.found"), "true");
	ITEST_EXPECT_STR(&r, jget(r.out, "command.realpath"), "/usr/bin/dash");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.allowed"), "false");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.rule"), "interp.inline");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.argv_index"), "1");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.token"), "-c");
	cr_expect(strlen(jget(r.out, "gate.hint")) > 20, "%s", itest_ctx(&r));
	cr_expect(strlen(jget(r.out, "gate.reason")) > 5, "%s", itest_ctx(&r));
	cr_expect(false == exists("out/marker"), "--check ran the command%s", itest_ctx(&r));
	if (watching)
		cr_expect(eq(int, cg_watch_count(&w, r.pid), 0), "--check made a cgroup");
	cr_expect(eq(int, itest_find_procs(itest_cur.top, NULL, 0), 0));
	itest_run_close(&r);

	/* A path refusal carries the resolved host path. */
	GATE_RUN(&r, "--rw", "out", "--check", "--", "cat", "link");
	ITEST_ASSERT_EXIT(&r, 123);
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.rule"), "path.symlink_escape");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.resolved"), "/etc/passwd");
	itest_run_close(&r);
}

/* ---- --policy FILE and --print-policy --------------------------------- */

NSB_ITEST(policy, file_directives_apply_and_flags_override)
{
	struct itest_run r;
	char extra[PATH_MAX], text[PATH_MAX + 512], tok[PATH_MAX + 16];

	make_project();
	/* A host directory outside the project, for allow-path. */
	snprintf(extra, sizeof(extra), "%s/extra", itest_cur.top);
	cr_assert(mkdir(extra, 0755) == 0);
	snprintf(text, sizeof(text),
		 "# a harness policy\n"
		 "\n"
		 "   deny-exec cat  \n"
		 "\tallow-exec rm\r\n"
		 "allow-inline-code\n"
		 "   # indented comment\n"
		 "allow-metachar\n"
		 "allow-path %s",
		 extra); /* the last line has no newline */
	itest_write(&itest_cur, "p.conf", text);

	GATE_RUN(&r, "--policy", "p.conf", "--", "cat", "input/data.txt");
	expect_denied(&r, "exec.denylist", 0, "cat", NULL);
	itest_run_close(&r);
	itest_write(&itest_cur, "out/victim", "x");
	GATE_RUN(&r, "--policy", "p.conf", "--rw", "out", "--", "rm", "out/victim");
	ITEST_ASSERT_EXIT(&r, 0);
	cr_expect(false == exists("out/victim"), "rm did not run%s", itest_ctx(&r));
	itest_run_close(&r);
	GATE_RUN(&r, "--policy", "p.conf", "--", "python3", "-c", "print('x;y')");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "x;y\n");
	itest_run_close(&r);
	/* allow-path relaxes the jail only: the dir is still not visible. */
	snprintf(tok, sizeof(tok), "%s/f", extra);
	GATE_RUN(&r, "--policy", "p.conf", "--", "ls", tok);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_NE_STR(&r, itest_rec(&r, "exit_code"), "0");
	itest_run_close(&r);
	/* Without the file the same calls are refused. */
	GATE_RUN(&r, "--", "ls", tok);
	expect_denied(&r, "path.outside", 1, tok, tok);
	itest_run_close(&r);
	/* Rules the file did not touch still hold. */
	GATE_RUN(&r, "--policy", "p.conf", "--", "env", "sudo", "id");
	expect_denied(&r, "exec.denylist", 1, "sudo", NULL);
	itest_run_close(&r);
	GATE_RUN(&r, "--policy", "p.conf", "--", "head", "/etc/passwd");
	expect_denied(&r, "path.outside", 1, "/etc/passwd", "/etc/passwd");
	itest_run_close(&r);

	/* The command line has the last word: --allow-exec lifts the file's
	 * deny-exec, --deny-exec adds to it. */
	GATE_RUN(&r, "--policy", "p.conf", "--allow-exec", "cat", "--", "cat", "input/data.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "a word here\n");
	itest_run_close(&r);
	GATE_RUN(&r, "--policy", "p.conf", "--deny-exec", "head", "--", "head", "input/a");
	expect_denied(&r, "exec.denylist", 0, "head", NULL);
	itest_run_close(&r);

	/* --check names the file as the policy's source. */
	GATE_RUN(&r, "--policy", "p.conf", "--check", "--", "head", "input/a");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.policy.source"), "p.conf");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.policy.allow_inline_code"), "true");
	ITEST_EXPECT_STR(&r, jget(r.out, "gate.policy.allow_metachar"), "true");
	cr_expect(has_string(jget(r.out, "gate.policy.deny_exec"), "cat"));
	cr_expect(has_string(jget(r.out, "gate.policy.allow_exec"), "rm"));
	cr_expect(has_string(jget(r.out, "gate.policy.allow_path"), extra));
	itest_run_close(&r);
}

struct policy_error {
	const char *text;
	size_t text_len; /* 0: strlen */
	const char *message;
	const char *hint; /* NULL: no hint line */
};

/* Refused with 125, a usage_error record and exactly these stderr lines. */
static void expect_policy_error(const struct itest_run *r, const char *message, const char *hint)
{
	char want[8192];

	ITEST_ASSERT_EXIT(r, 125);
	ITEST_EXPECT_STR(r, r->out, "");
	if (hint)
		snprintf(want, sizeof(want), "nsbox: %s\nnsbox: hint: %s\n", message, hint);
	else
		snprintf(want, sizeof(want), "nsbox: %s\n", message);
	ITEST_EXPECT_STR(r, r->err, want);
	ITEST_EXPECT_STR(r, itest_rec(r, "status"), "usage_error");
	ITEST_EXPECT_STR(r, itest_rec(r, "denied"), "false");
	ITEST_EXPECT_STR(r, itest_rec(r, "exit_code"), "null");
	ITEST_EXPECT_STR(r, itest_rec(r, "setup_error.stage"), "policy");
	ITEST_EXPECT_STR(r, itest_rec(r, "setup_error.message"), message);
	ITEST_EXPECT_STR(r, itest_rec(r, "reason"), message);
	ITEST_EXPECT_STR(r, itest_rec(r, "enforced"), "null");
}

NSB_ITEST(policy, every_file_error_is_reported_with_its_place)
{
	static const struct policy_error cases[] = {
		{"deny-exec curl\nfrobnicate x\n", 0, "p.conf:2:1: unknown directive 'frobnicate'",
		 "directives: deny-exec NAME, allow-exec NAME, allow-inline-code, allow-metachar, "
		 "allow-path DIR, wrapper NAME [KEY|OPTION]..., deny-mode TOOL WORD... (see "
		 "nsbox-policy(5))"},
		{"# c\n\n  deny-exec\n", 0, "p.conf:3:12: 'deny-exec' needs a NAME",
		 "for example: deny-exec curl"},
		{"allow-exec   \n", 0, "p.conf:1:14: 'allow-exec' needs a NAME",
		 "for example: deny-exec curl"},
		{"allow-path\n", 0, "p.conf:1:11: 'allow-path' needs a DIR",
		 "for example: allow-path /opt/data"},
		{"deny-exec curl wget\n", 0, "p.conf:1:16: unexpected 'wget' after the NAME",
		 "one NAME per line; repeat the directive for more"},
		{"deny-exec curl # no trailing comments\n", 0,
		 "p.conf:1:16: unexpected '# no trailing comments' after the NAME",
		 "one NAME per line; repeat the directive for more"},
		{"allow-metachar yes\n", 0, "p.conf:1:16: 'allow-metachar' takes no argument",
		 NULL},
		{"allow-inline-code 1\n", 0, "p.conf:1:19: 'allow-inline-code' takes no argument",
		 NULL},
		{"deny-exec /usr/bin/curl\n", 0, "p.conf:1:11: NAME must not contain '/'",
		 "give the basename: the gate checks the name the command is called by and the "
		 "name its symlinks resolve to"},
		{"deny-exec mk*fs\n", 0, "p.conf:1:13: '*' may only end a NAME",
		 "a trailing '*' matches every name with that prefix (mkfs.*)"},
		{"allow-path srv/data\n", 0, "p.conf:1:12: DIR must be an absolute path",
		 "for example: allow-path /opt/data"},
		{"allow-path /srv/../etc\n", 0,
		 "p.conf:1:12: DIR must not contain '.', '..', '//' or a trailing '/'",
		 "write it as realpath(1) prints it"},
		{"deny-exec a\0b\n", 14, "p.conf:1:12: NUL byte in the policy",
		 "a policy is a text file"},
	};

	make_project();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct policy_error *c = &cases[i];
		struct itest_run r;
		FILE *f = fopen(itest_path(&itest_cur, "p.conf"), "w");

		cr_assert(f != NULL);
		size_t len = c->text_len ? c->text_len : strlen(c->text);
		cr_assert(fwrite(c->text, 1, len, f) == len);
		fclose(f);
		cr_log_info("case %zu: %s", i, c->message);
		GATE_RUN(&r, "--policy", "p.conf", "--rw", "out", "--", "touch", "out/marker");
		expect_policy_error(&r, c->message, c->hint);
		cr_expect(false == exists("out/marker"), "ran despite a bad policy%s",
			  itest_ctx(&r));
		itest_run_close(&r);
		/* --check stops at the same place. */
		GATE_RUN(&r, "--policy", "p.conf", "--check", "--", "true");
		expect_policy_error(&r, c->message, c->hint);
		itest_run_close(&r);
	}
}

NSB_ITEST(policy, size_limits_and_missing_file)
{
	struct itest_run r;
	char *text, msg[128];
	size_t big = 300 * 1024;

	make_project();
	/* A line of 4201 bytes; 4200 is still fine. */
	text = malloc(big + 1);
	cr_assert(text != NULL);
	memset(text, '#', 4200);
	text[4200] = '\n';
	text[4201] = '\0';
	itest_write(&itest_cur, "p.conf", text);
	GATE_RUN(&r, "--policy", "p.conf", "--", "true");
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
	memset(text, '#', 4201);
	text[4201] = '\n';
	text[4202] = '\0';
	itest_write(&itest_cur, "p.conf", text);
	GATE_RUN(&r, "--policy", "p.conf", "--", "true");
	expect_policy_error(&r, "p.conf:1:4201: line is longer than 4200 bytes", NULL);
	itest_run_close(&r);

	/* Comment lines of 100 bytes, past 256 KiB: the byte after the limit
	 * is on line 2622, column 45. */
	for (size_t i = 0; i < big; i++)
		text[i] = i % 100 == 99 ? '\n' : '#';
	text[big] = '\0';
	itest_write(&itest_cur, "p.conf", text);
	GATE_RUN(&r, "--policy", "p.conf", "--", "true");
	snprintf(msg, sizeof(msg), "p.conf:%u:%u: policy is larger than %u bytes",
		 262144u / 100 + 1, 262144u % 100 + 1, 262144u);
	expect_policy_error(&r, msg, NULL);
	itest_run_close(&r);
	/* Exactly 256 KiB is accepted. */
	text[262144] = '\0';
	text[262143] = '\n';
	itest_write(&itest_cur, "p.conf", text);
	GATE_RUN(&r, "--policy", "p.conf", "--", "true");
	ITEST_EXPECT_EXIT(&r, 0);
	itest_run_close(&r);
	free(text);

	GATE_RUN(&r, "--policy", "no-such.conf", "--", "true");
	ITEST_ASSERT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, r.err, "nsbox: --policy 'no-such.conf': No such file or directory\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.stage"), "policy");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "setup_error.errno_name"), "ENOENT");
	itest_run_close(&r);

	/* A directory is not a policy. */
	GATE_RUN(&r, "--policy", "input", "--", "true");
	ITEST_ASSERT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	ITEST_EXPECT_CONTAINS(&r, r.err, "'input'");
	itest_run_close(&r);
}

static char *print_policy(const char *const *argv, struct itest_run *r)
{
	static const struct itest_opts raw = {.raw_argv = true, .no_record = true};

	itest_run(&itest_cur, &raw, argv, r);
	ITEST_ASSERT_EXIT(r, 0);
	ITEST_EXPECT_STR(r, r->err, "");
	return r->out;
}

NSB_ITEST(policy, print_policy_round_trips_and_reflects_flags)
{
	struct itest_run r1, r2;
	char extra[PATH_MAX], line[PATH_MAX + 16];

	make_project();
	/* The default: every default name, both relaxations commented out. */
	char *def = print_policy(ITEST_ARGV("--print-policy"), &r1);
	for (const char *const *n =
		     (const char *const[]){"sudo", "rm", "mkfs.*", "systemctl", NULL};
	     *n; n++) {
		snprintf(line, sizeof(line), "\ndeny-exec %s\n", *n);
		ITEST_EXPECT_CONTAINS(&r1, def, line);
	}
	ITEST_EXPECT_CONTAINS(&r1, def, "\n#allow-inline-code\n");
	ITEST_EXPECT_CONTAINS(&r1, def, "\n#allow-metachar\n");
	ITEST_EXPECT_LACKS(&r1, def, "\nallow-exec ");
	ITEST_EXPECT_LACKS(&r1, def, "\nallow-path ");
	itest_write(&itest_cur, "p.conf", def);
	char *again = print_policy(ITEST_ARGV("--policy", "p.conf", "--print-policy"), &r2);
	ITEST_EXPECT_STR(&r2, again, def);
	itest_run_close(&r2);
	itest_run_close(&r1);

	/* With additions: they show, and the output round-trips too. */
	snprintf(extra, sizeof(extra), "%s", itest_cur.top);
	char *added = print_policy(ITEST_ARGV("--print-policy", "--deny-exec", "curl",
					      "--allow-exec", "rm", "--allow-inline-code",
					      "--allow-metachar", "--allow-path", extra),
				   &r1);
	ITEST_EXPECT_CONTAINS(&r1, added, "\ndeny-exec curl\n");
	ITEST_EXPECT_CONTAINS(&r1, added, "\nallow-exec rm\n");
	ITEST_EXPECT_CONTAINS(&r1, added, "\nallow-inline-code\n");
	ITEST_EXPECT_CONTAINS(&r1, added, "\nallow-metachar\n");
	snprintf(line, sizeof(line), "\nallow-path %s\n", realpath(extra, NULL));
	ITEST_EXPECT_CONTAINS(&r1, added, line);
	itest_write(&itest_cur, "p2.conf", added);
	again = print_policy(ITEST_ARGV("--policy", "p2.conf", "--print-policy"), &r2);
	ITEST_EXPECT_STR(&r2, again, added);
	itest_run_close(&r2);
	/* The file and the flags give the same gate: rm runs, curl does not. */
	GATE_RUN(&r2, "--policy", "p2.conf", "--", "curl", "--version");
	expect_denied(&r2, "exec.denylist", 0, "curl", NULL);
	itest_run_close(&r2);
	itest_run_close(&r1);

	/* A bad policy stops --print-policy the same way as a run. */
	itest_write(&itest_cur, "bad.conf", "deny-exec\n");
	static const struct itest_opts rec = {.gate = true};
	itest_run(&itest_cur, &rec, ITEST_ARGV("--policy", "bad.conf", "--print-policy"), &r1);
	expect_policy_error(&r1, "bad.conf:1:10: 'deny-exec' needs a NAME",
			    "for example: deny-exec curl");
	itest_run_close(&r1);
}

/* ---- everyday runs with the gate as users get it ---------------------- */

/*
 * The other integration files relax the gate so they can probe the
 * sandbox's insides by absolute path.  A sample of their everyday runs is
 * repeated here with the gate exactly as a user meets it: each names only
 * paths inside the project, so the gate must let it through unchanged.
 */

/* test_example: the README example, a script that reads input and writes out. */
NSB_ITEST(gate_as_users_get_it, python_script_reads_input_and_writes_out)
{
	struct itest_run r;

	if (access("/usr/bin/python3", X_OK) != 0)
		cr_skip_test("/usr/bin/python3 is not installed");
	itest_mkdir(&itest_cur, "input");
	itest_mkdir(&itest_cur, "out");
	itest_write(&itest_cur, "input/data.txt", "three small words\n");
	itest_write(&itest_cur, "script.py",
		    "import sys\n"
		    "words = open('input/data.txt').read().split()\n"
		    "open('out/result.txt', 'w').write(' '.join(w.upper() for w in words))\n"
		    "print('processed', len(words), 'words')\n"
		    "sys.exit(int(sys.argv[1]))\n");
	GATE_RUN(&r, "--ro", "input", "--rw", "out", "--", "python3", "script.py", "3");
	ITEST_EXPECT_EXIT(&r, 3);
	ITEST_EXPECT_STR(&r, r.out, "processed 3 words\n");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "denial"), "null");
	itest_run_close(&r);
	char *result = itest_slurp(itest_path(&itest_cur, "out/result.txt"));
	cr_expect(result && itest_streq(result, "THREE SMALL WORDS"), "out/result.txt: '%s'",
		  result ? result : "(absent)");
	free(result);
}

/* test_filesystem: --ro refuses writes with EROFS, --rw writes land on the host. */
NSB_ITEST(gate_as_users_get_it, ro_refuses_writes_and_rw_writes_land_on_the_host)
{
	struct itest_run r;

	itest_mkdir(&itest_cur, "input");
	itest_mkdir(&itest_cur, "out");
	itest_write(&itest_cur, "input/data.txt", "hello\n");
	GATE_RUN(&r, "--ro", "input", "--", "./probe", "read", "input/data.txt");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "data"), "hello");
	itest_run_close(&r);

	GATE_RUN(&r, "--ro", "input", "--", "./probe", "write", "input/new.txt");
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "EROFS");
	itest_run_close(&r);
	cr_expect(exists("input/new.txt") == false, "input/new.txt was created");

	GATE_RUN(&r, "--rw", "out", "--", "./probe", "write", "out/result.txt", "from-inside");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "write"), "ok");
	itest_run_close(&r);
	char *data = itest_slurp(itest_path(&itest_cur, "out/result.txt"));
	cr_expect(data && itest_streq(data, "from-inside"), "host file holds '%s'",
		  data ? data : "(absent)");
	free(data);
}

/* test_process and test_record: the exit status and a death by signal come back. */
NSB_ITEST(gate_as_users_get_it, exit_status_and_signal_pass_through)
{
	struct itest_run r;

	GATE_RUN(&r, "--", "./probe", "exit", "42");
	ITEST_ASSERT_EXIT(&r, 42);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "exit_code"), "42");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "denied"), "false");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.no_new_privs"), "true");
	itest_run_close(&r);

	GATE_RUN(&r, "--", "./probe", "kill", "15");
	ITEST_EXPECT_EXIT(&r, 128 + 15);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "signaled");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "signal"), "15");
	itest_run_close(&r);
}

/* test_limits: the timeout stops a sleeper. */
NSB_ITEST(gate_as_users_get_it, timeout_stops_a_sleeper)
{
	struct itest_run r;

	GATE_RUN(&r, "--timeout", "1", "--", "./probe", "sleep", "30");
	ITEST_EXPECT_EXIT(&r, 124);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "timed_out");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "timed_out"), "true");
	itest_run_close(&r);
}

/* test_programs: a shell script with pipelines (the syntax is in the file, not argv). */
NSB_ITEST(gate_as_users_get_it, sh_script_with_pipes_runs)
{
	struct itest_run r;

	itest_write(&itest_cur, "pipes.sh",
		    "set -e\n"
		    "printf 'pear\\napple\\npear\\n' | sort | uniq -c | sort -rn |"
		    " awk '{print $2 \"=\" $1}'\n"
		    "seq 1 100 | awk '{s += $1} END {print s}'\n");
	GATE_RUN(&r, "--", "sh", "pipes.sh");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "pear=2\napple=1\n5050\n");
	itest_run_close(&r);
}
