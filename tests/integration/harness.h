/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Integration test harness: runs the built nsbox binary (NSBOX_BIN) as root
 * or as the unprivileged user "nsbox-test", in a fresh per-test project
 * directory holding a copy of the static probe (NSBOX_PROBE) and of the escape
 * tests' hostile payload (NSBOX_ESCAPE, when set), and captures
 * stdout, stderr, the exit status and the JSON record written on fd 3.
 *
 * The tests judge the sandbox by what the probe reads from the kernel inside
 * it, never by what nsbox says about itself.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#define ITEST_USER "nsbox-test"

/* Exit status of a run whose nsbox was stopped (opts.pty_background). */
#define HARNESS_STOPPED 98

/* The per-test world: <top>/nsbox (a copy anyone can run), <top>/project. */
struct itest_project {
	bool as_user;
	uid_t uid; /* the identity nsbox runs as */
	gid_t gid;
	char top[256];
	char dir[300]; /* the project root: the caller's cwd by default */
	char nsbox[300];
};

struct itest_opts {
	bool no_record;		/* do not add --result-fd 3 (nor open fd 3) */
	int timeout_ms;		/* 0: 20 s */
	const char *cwd;	/* absolute, or relative to the project; NULL: project */
	const char *home;	/* HOME for nsbox; NULL: the user's home (or /root) */
	const char *const *env; /* extra "NAME=VALUE" entries for nsbox's environment */
	int leak_fd;		/* > 2: leave a file open there without CLOEXEC */
	bool raw_argv;		/* argv holds everything after argv[0]: no "--result-fd 3" */
	bool pty; /* start nsbox in a new session with a pty as controlling tty on stdin */
	unsigned short pty_rows, pty_cols; /* that terminal's window size (0: none) */
	/* Start nsbox as a background job of that terminal's session (its own
	 * process group, its parent in the foreground).  Should nsbox stop, the
	 * parent says "harness: stopped by signal N" on stderr, kills it and
	 * exits with HARNESS_STOPPED. */
	bool pty_background;
	/* The same, but nsbox's group is made the terminal's foreground (as a
	 * shell starts a job), and the parent just waits for it to end. */
	bool pty_foreground_job;
	/* Redirect nsbox's stdin (O_RDONLY: a file or a directory), stdout or
	 * stderr (created or truncated) to a path: absolute, or relative to the
	 * project.  NULL: stdin /dev/null (or the pty), stdout/stderr pipes. */
	const char *stdin_path;
	const char *stdout_path;
	const char *stderr_path;
	bool close_stdin; /* start nsbox with fd 0 closed */
	/* false (the default): relax the front gate's argument rules (path
	 * jail, metacharacters, inline code) so tests can probe the sandbox's
	 * insides with absolute paths; true: the gate exactly as a user gets it. */
	bool gate;
};

struct itest_run {
	pid_t pid;
	int wait_status;
	int exit_code;	 /* exit status, or 128+signal when nsbox itself was killed */
	bool timed_out;	 /* the harness had to kill nsbox */
	bool pipes_held; /* stdout/stderr stayed open after nsbox exited */
	char *out, *err, *record;
	size_t out_len, err_len, record_len;
	/* internal */
	int fds[3];
	int pty_master; /* -1 unless opts.pty */
	long long deadline_ms;
};

/* The project of the running test (set up by NSB_ITEST, removed by its .fini). */
extern struct itest_project itest_cur;

void itest_project_setup(struct itest_project *p, bool as_user);
void itest_project_fini(void);
void itest_require_user(void);

/* Paths below the project root; dirs and files get the runner's ownership. */
void itest_mkdir(const struct itest_project *p, const char *rel);
void itest_write(const struct itest_project *p, const char *rel, const char *content);
/* Whole content of a host file (malloc'd) or NULL with errno. */
char *itest_slurp(const char *path);

/* The entries of HOME/.cache/nsbox whose names start with PREFIX, as
 * "name," in out ("" when none), a temporary (".tmp" in its name) left
 * out; their count. */
int itest_cache_entries(const char *home, const char *prefix, char *out, size_t outsz);
/* "<project>/<rel>" in a static ring buffer. */
char *itest_path(const struct itest_project *p, const char *rel);

/*
 * Start nsbox with argv (NULL-terminated, without the program name): by
 * default "--result-fd 3" is put in front of it.  itest_wait() collects
 * everything; itest_run() does both.
 */
void itest_start(const struct itest_project *p, const struct itest_opts *o, const char *const *argv,
		 struct itest_run *r);
void itest_wait(struct itest_run *r);
void itest_run(const struct itest_project *p, const struct itest_opts *o, const char *const *argv,
	       struct itest_run *r);
/* Close the pty and free the captured output and record. */
void itest_run_close(struct itest_run *r);

/*
 * Value of the "key=value" line of text (the probe's output); "(missing)"
 * when there is no such line.  Static ring of buffers: valid for a few calls.
 */
char *itest_kv(const char *text, const char *key);

/* JSON value types returned by itest_json_get(). */
enum itest_json_type {
	ITEST_JSON_MISSING = -1,
	ITEST_JSON_NULL,
	ITEST_JSON_BOOL,
	ITEST_JSON_NUMBER,
	ITEST_JSON_STRING,
	ITEST_JSON_OBJECT,
	ITEST_JSON_ARRAY,
};

/*
 * Look up "key" or "a.b" in a JSON object.  Strings are unescaped into out,
 * numbers, booleans and null are copied as written, objects and arrays as
 * their raw text.  Returns the type, ITEST_JSON_MISSING (also on bad JSON).
 */
enum itest_json_type itest_json_get(const char *json, const char *path, char *out, size_t size);

/* Record field as text ("(missing)" when absent), in a static ring buffer. */
char *itest_rec(const struct itest_run *r, const char *path);

/* Lists as written in the record or the probe output contain word? */
bool itest_has_word(const char *list, const char *word);

/* PIDs of host processes whose command line or executable path contains needle
 * (not zombies). */
int itest_find_procs(const char *needle, pid_t *pids, int max);

/* Milliseconds on the monotonic clock; sleep in ms. */
long long itest_now_ms(void);
void itest_sleep_ms(long ms);

/*
 * Python text defining attempt(label, fn): runs fn and prints "label=ok",
 * or "label=ERRNO" (EROFS, EBUSY, ...) for the OSError it raised.  The
 * script must import errno first.
 */
#define ITEST_PY_ATTEMPT                 \
	"def attempt(label, fn):\n"      \
	"    try:\n"                     \
	"        fn()\n"                 \
	"        print(label + '=ok')\n" \
	"    except OSError as e:\n"     \
	"        print(label + '=' + errno.errorcode.get(e.errno, str(e.errno)))\n"

#define ITEST_ARGV(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Run nsbox in the current project with default options. */
#define ITEST_RUN(r, ...) itest_run(&itest_cur, NULL, ITEST_ARGV(__VA_ARGS__), (r))

/*
 * Define a kernel-facing test twice: as root (name_root) and as the
 * unprivileged user (name_user), each with SECONDS to finish.  The body gets
 * `bool as_user` and finds its project in itest_cur.  NSB_ITEST: 60 seconds.
 */
#define NSB_ITEST_TIMED(suite, name, seconds)                                      \
	static void suite##_##name##_body(bool as_user);                           \
	Test(suite, name##_root, .timeout = (seconds), .fini = itest_project_fini) \
	{                                                                          \
		itest_project_setup(&itest_cur, false);                            \
		suite##_##name##_body(false);                                      \
	}                                                                          \
	Test(suite, name##_user, .timeout = (seconds), .fini = itest_project_fini) \
	{                                                                          \
		itest_require_user();                                              \
		itest_project_setup(&itest_cur, true);                             \
		suite##_##name##_body(true);                                       \
	}                                                                          \
	static void suite##_##name##_body(bool as_user)

#define NSB_ITEST(suite, name) NSB_ITEST_TIMED(suite, name, 60)

/*
 * What a run produced, as one message for an assertion:
 * cr_assert(eq(int, r.exit_code, 0), "%s", itest_ctx(&r)).
 */
char *itest_ctx(const struct itest_run *r);

/*
 * String claims with the run's outputs in the failure message.  (Criterion's
 * eq(str, ...) wants a char * and string literals are const under
 * -Wwrite-strings, hence these.)
 */
bool itest_streq(const char *a, const char *b);

#define ITEST_EXPECT_STR(r, got, want)                                                      \
	do {                                                                                \
		const char *g_ = (got), *w_ = (want);                                       \
		cr_expect(itest_streq(g_, w_), "%s is '%s', expected '%s'%s", #got, g_, w_, \
			  itest_ctx(r));                                                    \
	} while (0)
#define ITEST_ASSERT_STR(r, got, want)                                                      \
	do {                                                                                \
		const char *g_ = (got), *w_ = (want);                                       \
		cr_assert(itest_streq(g_, w_), "%s is '%s', expected '%s'%s", #got, g_, w_, \
			  itest_ctx(r));                                                    \
	} while (0)
#define ITEST_EXPECT_NE_STR(r, got, want)                                                    \
	do {                                                                                 \
		const char *g_ = (got), *w_ = (want);                                        \
		cr_expect(not(itest_streq(g_, w_)), "%s is '%s'%s", #got, g_, itest_ctx(r)); \
	} while (0)

/* Substring claims. */
#define ITEST_EXPECT_CONTAINS(r, hay, needle)                                                 \
	do {                                                                                  \
		const char *h_ = (hay), *n_ = (needle);                                       \
		cr_expect(strstr(h_, n_) != NULL, "%s lacks '%s'%s", #hay, n_, itest_ctx(r)); \
	} while (0)
#define ITEST_EXPECT_LACKS(r, hay, needle)                                                       \
	do {                                                                                     \
		const char *h_ = (hay), *n_ = (needle);                                          \
		cr_expect(strstr(h_, n_) == NULL, "%s contains '%s'%s", #hay, n_, itest_ctx(r)); \
	} while (0)

/* nsbox's own exit status. */
#define ITEST_ASSERT_EXIT(r, code) \
	cr_assert(eq(int, (r)->exit_code, (code)), "nsbox exit status%s", itest_ctx(r))
#define ITEST_EXPECT_EXIT(r, code) \
	cr_expect(eq(int, (r)->exit_code, (code)), "nsbox exit status%s", itest_ctx(r))
