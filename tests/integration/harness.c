// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Integration test harness (see harness.h).  Everything here runs in the
 * Criterion worker as root; only the forked child that execs nsbox drops to
 * the test user.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pty.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

struct itest_project itest_cur;

/* What the child reports when it cannot exec nsbox: not a code nsbox uses. */
#define HARNESS_EXEC_FAILED 99

long long itest_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void itest_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static const char *env_or_die(const char *name)
{
	const char *v = getenv(name);

	if (!v || !*v)
		cr_fatal("%s is not set: run the integration tests through `make integration`",
			 name);
	return v;
}

static void copy_file(const char *src, const char *dst, mode_t mode)
{
	char buf[1 << 16];
	ssize_t n;
	int in = open(src, O_RDONLY | O_CLOEXEC);
	int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);

	cr_assert(in >= 0, "open '%s': %s", src, strerror(errno));
	cr_assert(out >= 0, "create '%s': %s", dst, strerror(errno));
	while ((n = read(in, buf, sizeof(buf))) > 0)
		cr_assert(write(out, buf, n) == n, "write '%s': %s", dst, strerror(errno));
	cr_assert(n == 0, "read '%s': %s", src, strerror(errno));
	close(in);
	cr_assert(fchmod(out, mode) == 0);
	cr_assert(close(out) == 0);
}

void itest_require_user(void)
{
	if (!getpwnam(ITEST_USER))
		cr_skip_test("user '" ITEST_USER "' missing: run tests/ensure-user.sh as root");
}

/*
 * <top> (root, 0755) holds a copy of nsbox that the test user can execute
 * even when the build tree is unreachable for it, and <top>/project (owned by
 * the runner) holds the probe, reachable inside as ./probe, and the escape
 * tests' payload as ./escape (NSBOX_ESCAPE).
 */
void itest_project_setup(struct itest_project *p, bool as_user)
{
	const char *base = getenv("NSBOX_ITEST_TMPDIR");
	char probe[320];

	memset(p, 0, sizeof(*p));
	p->as_user = as_user;
	if (as_user) {
		struct passwd *pw = getpwnam(ITEST_USER);
		cr_assert(pw != NULL, "user '" ITEST_USER "' missing");
		p->uid = pw->pw_uid;
		p->gid = pw->pw_gid;
	}
	snprintf(p->top, sizeof(p->top), "%s/nsbox-itest-XXXXXX", base && *base ? base : "/tmp");
	cr_assert(mkdtemp(p->top) != NULL, "mkdtemp '%s': %s", p->top, strerror(errno));
	cr_assert(chmod(p->top, 0755) == 0);
	snprintf(p->dir, sizeof(p->dir), "%s/project", p->top);
	snprintf(p->nsbox, sizeof(p->nsbox), "%s/nsbox", p->top);
	cr_assert(mkdir(p->dir, 0755) == 0, "mkdir '%s': %s", p->dir, strerror(errno));
	cr_assert(chown(p->dir, p->uid, p->gid) == 0);
	copy_file(env_or_die("NSBOX_BIN"), p->nsbox, 0755);
	snprintf(probe, sizeof(probe), "%s/probe", p->dir);
	copy_file(env_or_die("NSBOX_PROBE"), probe, 0755);
	/* The escape tests' hostile payload, as ./escape, when it was built. */
	const char *escape = getenv("NSBOX_ESCAPE");
	if (escape && *escape) {
		snprintf(probe, sizeof(probe), "%s/escape", p->dir);
		copy_file(escape, probe, 0755);
	}
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP) {
		/* A test may have mounted something here (in its own namespace). */
		umount2(path, MNT_DETACH);
		rmdir(path);
	} else
		unlink(path);
	return 0;
}

void itest_project_fini(void)
{
	pid_t left[64];
	int n;

	if (!itest_cur.top[0])
		return;
	/* A failed test may have left sandbox processes: every one of them
	 * carries the unique top directory in its command line. */
	n = itest_find_procs(itest_cur.top, left, 64);
	for (int i = 0; i < n && i < 64; i++)
		kill(left[i], SIGKILL);
	if (getenv("NSBOX_ITEST_KEEP"))
		return;
	nftw(itest_cur.top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	itest_cur.top[0] = '\0';
}

char *itest_path(const struct itest_project *p, const char *rel)
{
	static char ring[8][PATH_MAX];
	static unsigned next;
	char *buf = ring[next++ % 8];

	snprintf(buf, PATH_MAX, "%s/%s", p->dir, rel);
	return buf;
}

void itest_mkdir(const struct itest_project *p, const char *rel)
{
	const char *path = itest_path(p, rel);

	cr_assert(mkdir(path, 0755) == 0, "mkdir '%s': %s", path, strerror(errno));
	cr_assert(chown(path, p->uid, p->gid) == 0);
}

void itest_write(const struct itest_project *p, const char *rel, const char *content)
{
	const char *path = itest_path(p, rel);
	size_t len = strlen(content);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	cr_assert(fd >= 0, "create '%s': %s", path, strerror(errno));
	cr_assert(write(fd, content, len) == (ssize_t)len);
	cr_assert(fchown(fd, p->uid, p->gid) == 0);
	close(fd);
}

int itest_cache_entries(const char *home, const char *prefix, char *out, size_t outsz)
{
	char dir[PATH_MAX + 32];
	struct dirent *de;
	DIR *dp;
	int n = 0;

	out[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/.cache/nsbox", home);
	dp = opendir(dir);
	while (dp && (de = readdir(dp)))
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0 &&
		    !strstr(de->d_name, ".tmp")) {
			snprintf(out + strlen(out), outsz - strlen(out), "%s,", de->d_name);
			n++;
		}
	if (dp)
		closedir(dp);
	return n;
}

char *itest_slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap);
			cr_assert(buf != NULL);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* Move fd to target in the child; target keeps no CLOEXEC. */
static void child_place(int fd, int target)
{
	if (fd == target) {
		fcntl(fd, F_SETFD, 0);
		return;
	}
	if (dup2(fd, target) < 0)
		_exit(HARNESS_EXEC_FAILED);
}

/* In the child: replace *fd by path opened with flags (fd lifted above 100). */
static void redirect_path(const struct itest_project *p, const char *path, int flags, int *fd)
{
	char full[PATH_MAX];
	int f;

	if (!path)
		return;
	if (path[0] == '/')
		snprintf(full, sizeof(full), "%s", path);
	else
		snprintf(full, sizeof(full), "%s/%s", p->dir, path);
	f = open(full, flags | O_CLOEXEC, 0644);
	if (f < 0) {
		dprintf(2, "harness: open '%s': %s\n", full, strerror(errno));
		_exit(HARNESS_EXEC_FAILED);
	}
	*fd = fcntl(f, F_DUPFD_CLOEXEC, 100);
	close(f);
}

/*
 * In the child, session leader of the pty: fork; the new process (which goes
 * on to exec nsbox) gets a process group of its own, so it is a job whose
 * parent, in the same session, keeps the group from being orphaned (an
 * orphaned group is not stopped by the kernel: its terminal reads fail with
 * EIO instead, and SIGTSTP is discarded).  A background job unless
 * foreground.
 */
static void job(bool foreground)
{
	int st;
	pid_t job = fork();

	if (job < 0)
		_exit(HARNESS_EXEC_FAILED);
	if (job == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (setpgid(0, 0) < 0)
			_exit(HARNESS_EXEC_FAILED);
		if (foreground) {
			/* What a shell does for a foreground job (from the
			 * background: SIGTTOU ignored for the call). */
			signal(SIGTTOU, SIG_IGN);
			if (tcsetpgrp(0, getpid()) < 0)
				_exit(HARNESS_EXEC_FAILED);
			signal(SIGTTOU, SIG_DFL);
		}
		return;
	}
	setpgid(job, job); /* either side may run first */
	while (waitpid(job, &st, foreground ? 0 : WUNTRACED) < 0)
		if (errno != EINTR)
			_exit(HARNESS_EXEC_FAILED);
	if (WIFSTOPPED(st)) {
		dprintf(2, "harness: stopped by signal %d\n", WSTOPSIG(st));
		kill(job, SIGKILL);
		waitpid(job, &st, 0);
		_exit(HARNESS_STOPPED);
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

static char **build_env(const struct itest_project *p, const struct itest_opts *o)
{
	static char home[PATH_MAX + 8];
	static char *env[64];
	size_t n = 0;
	const char *h = o->home;

	if (!h)
		h = p->as_user ? "/nonexistent" : "/root";
	snprintf(home, sizeof(home), "HOME=%s", h);
	static char path[] = "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	static char lang[] = "LANG=C.UTF-8";
	static char user[] = "USER=" ITEST_USER, root[] = "USER=root";
	/* Must never arrive inside: nsbox clears the environment. */
	static char secret[] = "NSBOX_ITEST_SECRET=leaked-from-host";

	env[n++] = path;
	env[n++] = home;
	env[n++] = lang;
	env[n++] = p->as_user ? user : root;
	env[n++] = secret;
	/* Extra entries override the defaults of the same name. */
	for (size_t i = 0; o->env && o->env[i] && n < ARRAY_LEN(env) - 1; i++) {
		const char *e = o->env[i];
		size_t name_len = strcspn(e, "=") + 1, k;
		for (k = 0; k < n; k++)
			if (strncmp(env[k], e, name_len) == 0)
				break;
		env[k] = (char *)(uintptr_t)e;
		if (k == n)
			n++;
	}
	env[n] = NULL;
	return env;
}

void itest_start(const struct itest_project *p, const struct itest_opts *o, const char *const *argv,
		 struct itest_run *r)
{
	static const struct itest_opts defaults;
	const char *args[16400]; /* NSB_MAX_ARGS and the harness's own */
	size_t n = 0;
	int out[2], err[2], rec[2] = {-1, -1};
	int leak = -1, master = -1, tty = -1;

	if (!o)
		o = &defaults;
	memset(r, 0, sizeof(*r));
	r->pty_master = -1;
	args[n++] = "nsbox";
	if (!o->no_record && !o->raw_argv) {
		args[n++] = "--result-fd";
		args[n++] = "3";
	}
	if (!o->gate && !o->raw_argv) {
		args[n++] = "--allow-path";
		args[n++] = "/";
		args[n++] = "--allow-metachar";
		args[n++] = "--allow-inline-code";
	}
	for (size_t i = 0; argv[i]; i++) {
		cr_assert(n < ARRAY_LEN(args) - 1, "too many arguments");
		args[n++] = argv[i];
	}
	args[n] = NULL;

	cr_assert(pipe2(out, O_CLOEXEC) == 0 && pipe2(err, O_CLOEXEC) == 0);
	if (!o->no_record)
		cr_assert(pipe2(rec, O_CLOEXEC) == 0);
	if (o->leak_fd > 2) {
		leak = open(p->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		cr_assert(leak >= 0);
	}
	if (o->pty) {
		struct winsize ws = {.ws_row = o->pty_rows, .ws_col = o->pty_cols};
		cr_assert(openpty(&master, &tty, NULL, NULL, &ws) == 0, "openpty: %s",
			  strerror(errno));
	}
	char **env = build_env(p, o);
	char cwd[PATH_MAX];
	if (!o->cwd)
		snprintf(cwd, sizeof(cwd), "%s", p->dir);
	else if (o->cwd[0] == '/')
		snprintf(cwd, sizeof(cwd), "%s", o->cwd);
	else
		snprintf(cwd, sizeof(cwd), "%s/%s", p->dir, o->cwd);

	fflush(NULL);
	r->pid = fork();
	cr_assert(r->pid >= 0, "fork: %s", strerror(errno));
	if (r->pid == 0) {
		sigset_t all;
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		/* A crashed or timed-out test must not leave nsbox behind. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		for (int s = 1; s < NSIG; s++)
			signal(s, SIG_DFL);
		/* Lift every fd above the targets first so dup2 never clobbers one. */
		out[1] = fcntl(out[1], F_DUPFD_CLOEXEC, 100);
		err[1] = fcntl(err[1], F_DUPFD_CLOEXEC, 100);
		null = fcntl(null, F_DUPFD_CLOEXEC, 100);
		if (rec[1] >= 0)
			rec[1] = fcntl(rec[1], F_DUPFD_CLOEXEC, 100);
		if (leak >= 0)
			leak = fcntl(leak, F_DUPFD_CLOEXEC, 100);
		if (o->pty) {
			/* A session of our own with the pty as controlling terminal. */
			if (setsid() < 0 || ioctl(tty, TIOCSCTTY, 0) < 0) {
				dprintf(err[1], "harness: controlling tty: %s\n", strerror(errno));
				_exit(HARNESS_EXEC_FAILED);
			}
			null = fcntl(tty, F_DUPFD_CLOEXEC, 100);
		}
		redirect_path(p, o->stdin_path, O_RDONLY, &null);
		redirect_path(p, o->stdout_path, O_WRONLY | O_CREAT | O_TRUNC, &out[1]);
		redirect_path(p, o->stderr_path, O_WRONLY | O_CREAT | O_TRUNC, &err[1]);
		if (o->close_stdin)
			close(0);
		else
			child_place(null, 0);
		child_place(out[1], 1);
		child_place(err[1], 2);
		if (rec[1] >= 0)
			child_place(rec[1], 3);
		if (leak >= 0)
			child_place(leak, o->leak_fd);
		/* Nothing of the Criterion worker reaches nsbox except the above. */
		for (int fd = 3; fd < 1024; fd++) {
			if ((fd == 3 && rec[1] >= 0) || (leak >= 0 && fd == o->leak_fd))
				continue;
			close(fd);
		}
		if (p->as_user) {
			if (setgroups(0, NULL) < 0 || setresgid(p->gid, p->gid, p->gid) < 0 ||
			    setresuid(p->uid, p->uid, p->uid) < 0) {
				dprintf(2, "harness: drop to " ITEST_USER ": %s\n",
					strerror(errno));
				_exit(HARNESS_EXEC_FAILED);
			}
		}
		if (chdir(cwd) < 0) {
			dprintf(2, "harness: chdir '%s': %s\n", cwd, strerror(errno));
			_exit(HARNESS_EXEC_FAILED);
		}
		if (o->pty && (o->pty_background || o->pty_foreground_job))
			job(o->pty_foreground_job);
		execve(p->nsbox, (char *const *)(uintptr_t)args, env);
		dprintf(2, "harness: exec '%s': %s\n", p->nsbox, strerror(errno));
		_exit(HARNESS_EXEC_FAILED);
	}
	close(out[1]);
	close(err[1]);
	if (rec[1] >= 0)
		close(rec[1]);
	if (leak >= 0)
		close(leak);
	if (tty >= 0)
		close(tty);
	r->pty_master = master;
	r->fds[0] = out[0];
	r->fds[1] = err[0];
	r->fds[2] = rec[0];
	r->deadline_ms = itest_now_ms() + (o->timeout_ms > 0 ? o->timeout_ms : 20000);
}

static void append(char **buf, size_t *len, const char *data, size_t n)
{
	char *grown = realloc(*buf, *len + n + 1);

	cr_assert(grown != NULL);
	*buf = grown;
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = '\0';
}

void itest_wait(struct itest_run *r)
{
	char **bufs[3] = {&r->out, &r->err, &r->record};
	size_t *lens[3] = {&r->out_len, &r->err_len, &r->record_len};
	bool exited = false;
	long long exit_seen = 0;

	for (;;) {
		struct pollfd pfd[3];
		nfds_t map[3], n = 0;
		long long now = itest_now_ms();

		if (!exited) {
			pid_t w = waitpid(r->pid, &r->wait_status, WNOHANG);
			if (w == r->pid) {
				exited = true;
				exit_seen = now;
			}
		}
		for (int i = 0; i < 3; i++)
			if (r->fds[i] >= 0) {
				pfd[n].fd = r->fds[i];
				pfd[n].events = POLLIN;
				map[n++] = i;
			}
		if (n == 0 && exited)
			break;
		if (exited && now - exit_seen > 2000) {
			/* Something in the sandbox outlived nsbox and holds its output. */
			r->pipes_held = true;
			break;
		}
		if (!exited && now > r->deadline_ms) {
			kill(r->pid, SIGKILL);
			r->timed_out = true;
			waitpid(r->pid, &r->wait_status, 0);
			exited = true;
			exit_seen = now;
			continue;
		}
		if (n == 0) {
			itest_sleep_ms(10);
			continue;
		}
		if (poll(pfd, n, 20) <= 0)
			continue;
		for (nfds_t k = 0; k < n; k++) {
			char buf[8192];
			ssize_t got;
			int i = map[k];

			if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = read(r->fds[i], buf, sizeof(buf));
			if (got > 0) {
				append(bufs[i], lens[i], buf, got);
			} else if (got == 0 || errno != EINTR) {
				close(r->fds[i]);
				r->fds[i] = -1;
			}
		}
	}
	for (int i = 0; i < 3; i++) {
		if (r->fds[i] >= 0)
			close(r->fds[i]);
		r->fds[i] = -1;
		if (!*bufs[i])
			append(bufs[i], lens[i], "", 0);
	}
	if (WIFEXITED(r->wait_status))
		r->exit_code = WEXITSTATUS(r->wait_status);
	else if (WIFSIGNALED(r->wait_status))
		r->exit_code = 128 + WTERMSIG(r->wait_status);
	else
		r->exit_code = -1;
}

void itest_run(const struct itest_project *p, const struct itest_opts *o, const char *const *argv,
	       struct itest_run *r)
{
	itest_start(p, o, argv, r);
	itest_wait(r);
}

void itest_run_close(struct itest_run *r)
{
	if (r->pty_master >= 0)
		close(r->pty_master);
	r->pty_master = -1;
	free(r->out);
	free(r->err);
	free(r->record);
	r->out = r->err = r->record = NULL;
}

static char *ring_buf(size_t *size)
{
	static char ring[16][8192];
	static unsigned next;

	*size = sizeof(ring[0]);
	return ring[next++ % 16];
}

static char *ring_str(const char *s)
{
	size_t size;
	char *buf = ring_buf(&size);

	snprintf(buf, size, "%s", s);
	return buf;
}

char *itest_kv(const char *text, const char *key)
{
	size_t klen = strlen(key), size;
	const char *line = text;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);

		if (len > klen && strncmp(line, key, klen) == 0 && line[klen] == '=') {
			char *buf = ring_buf(&size);
			len -= klen + 1;
			if (len >= size)
				len = size - 1;
			memcpy(buf, line + klen + 1, len);
			buf[len] = '\0';
			return buf;
		}
		if (len == klen + 1 && strncmp(line, key, klen) == 0 && line[klen] == '=')
			return ring_str("");
		line = eol ? eol + 1 : NULL;
	}
	return ring_str("(missing)");
}

bool itest_streq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

bool itest_has_word(const char *list, const char *word)
{
	size_t wlen = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p++) {
		bool start = p == list || !isalnum((unsigned char)p[-1]);
		bool end = !isalnum((unsigned char)p[wlen]) && p[wlen] != '_';
		if (start && end && (p == list || p[-1] != '_'))
			return true;
	}
	return false;
}

/* ---- a tiny JSON reader: enough to find one value in the record ---- */

struct jp {
	const char *s;
	bool bad;
};

static void jp_ws(struct jp *j)
{
	while (*j->s == ' ' || *j->s == '\t' || *j->s == '\n' || *j->s == '\r')
		j->s++;
}

/* Parse a string at j->s (on the quote); unescape into out when given. */
static void jp_string(struct jp *j, char *out, size_t size)
{
	size_t n = 0;

	if (*j->s != '"') {
		j->bad = true;
		return;
	}
	j->s++;
	while (*j->s && *j->s != '"') {
		char c = *j->s++;
		if (c == '\\') {
			char e = *j->s++;
			switch (e) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case 'u': {
				unsigned v = 0;
				for (int i = 0; i < 4; i++) {
					if (!isxdigit((unsigned char)*j->s)) {
						j->bad = true;
						return;
					}
					char h = *j->s++;
					v = v * 16 + (isdigit((unsigned char)h)
							      ? h - '0'
							      : (tolower(h) - 'a' + 10));
				}
				c = v < 0x80 ? (char)v : '?';
				break;
			}
			case '\0':
				j->bad = true;
				return;
			default:
				c = e; /* \" \\ \/ */
			}
		}
		if (out && n + 1 < size)
			out[n++] = c;
	}
	if (*j->s != '"') {
		j->bad = true;
		return;
	}
	j->s++;
	if (out && size)
		out[n] = '\0';
}

static enum itest_json_type jp_skip(struct jp *j);

/* Skip an object or array (on its opening bracket). */
static void jp_container(struct jp *j, char open, char close)
{
	j->s++;
	jp_ws(j);
	if (*j->s == close) {
		j->s++;
		return;
	}
	for (;;) {
		jp_ws(j);
		if (open == '{') {
			jp_string(j, NULL, 0);
			jp_ws(j);
			if (*j->s++ != ':') {
				j->bad = true;
				return;
			}
		}
		jp_skip(j);
		if (j->bad)
			return;
		jp_ws(j);
		if (*j->s == ',') {
			j->s++;
			continue;
		}
		if (*j->s == close) {
			j->s++;
			return;
		}
		j->bad = true;
		return;
	}
}

static enum itest_json_type jp_skip(struct jp *j)
{
	jp_ws(j);
	switch (*j->s) {
	case '"':
		jp_string(j, NULL, 0);
		return ITEST_JSON_STRING;
	case '{':
		jp_container(j, '{', '}');
		return ITEST_JSON_OBJECT;
	case '[':
		jp_container(j, '[', ']');
		return ITEST_JSON_ARRAY;
	case 't':
	case 'f':
	case 'n': {
		static const char *const words[] = {"true", "false", "null"};
		for (int i = 0; i < 3; i++)
			if (strncmp(j->s, words[i], strlen(words[i])) == 0) {
				j->s += strlen(words[i]);
				return i < 2 ? ITEST_JSON_BOOL : ITEST_JSON_NULL;
			}
		j->bad = true;
		return ITEST_JSON_MISSING;
	}
	default:
		if (*j->s == '-' || isdigit((unsigned char)*j->s)) {
			j->s++;
			while (isdigit((unsigned char)*j->s) || strchr(".eE+-", *j->s))
				j->s++;
			return ITEST_JSON_NUMBER;
		}
		j->bad = true;
		return ITEST_JSON_MISSING;
	}
}

enum itest_json_type itest_json_get(const char *json, const char *path, char *out, size_t size)
{
	struct jp j = {json, false};
	const char *key = path;

	for (;;) {
		const char *dot = strchr(key, '.');
		size_t klen = dot ? (size_t)(dot - key) : strlen(key);
		bool found = false;

		jp_ws(&j);
		if (*j.s != '{')
			return ITEST_JSON_MISSING;
		j.s++;
		jp_ws(&j);
		while (!j.bad && *j.s != '}') {
			char name[256];
			jp_string(&j, name, sizeof(name));
			jp_ws(&j);
			if (j.bad || *j.s++ != ':')
				return ITEST_JSON_MISSING;
			jp_ws(&j);
			if (strlen(name) == klen && strncmp(name, key, klen) == 0) {
				found = true;
				break;
			}
			jp_skip(&j);
			jp_ws(&j);
			if (*j.s == ',')
				j.s++, jp_ws(&j);
			else if (*j.s != '}')
				return ITEST_JSON_MISSING;
		}
		if (!found || j.bad)
			return ITEST_JSON_MISSING;
		if (dot) {
			key = dot + 1;
			continue;
		}
		/* The value itself. */
		const char *start = j.s;
		if (*j.s == '"') {
			jp_string(&j, out, size);
			return j.bad ? ITEST_JSON_MISSING : ITEST_JSON_STRING;
		}
		enum itest_json_type t = jp_skip(&j);
		if (j.bad)
			return ITEST_JSON_MISSING;
		if (out && size) {
			size_t len = (size_t)(j.s - start);
			if (len >= size)
				len = size - 1;
			memcpy(out, start, len);
			out[len] = '\0';
		}
		return t;
	}
}

char *itest_rec(const struct itest_run *r, const char *path)
{
	size_t size;
	char *buf = ring_buf(&size);

	if (!r->record || itest_json_get(r->record, path, buf, size) == ITEST_JSON_MISSING)
		return ring_str("(missing)");
	return buf;
}

char *itest_ctx(const struct itest_run *r)
{
	static char buf[12000];

	snprintf(buf, sizeof(buf),
		 "\n  nsbox exit=%d timed_out=%d pipes_held=%d\n  stdout: %.3000s\n  stderr: "
		 "%.3000s\n  record: %.3000s",
		 r->exit_code, r->timed_out, r->pipes_held, r->out ? r->out : "",
		 r->err ? r->err : "", r->record ? r->record : "");
	return buf;
}

/* PF_EXITING, in the flags field (9) of /proc/PID/stat. */
#define ITEST_PF_EXITING 0x4u

/* Whether pid is gone, a zombie or exiting within a second. */
static bool finishing(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (int i = 0; i < 1000; i++) {
		char *stat = itest_slurp(path);
		const char *rp = stat ? strrchr(stat, ')') : NULL;
		unsigned long flags = 0;
		char state = 0;

		if (!rp || sscanf(rp + 2, "%c %*d %*d %*d %*d %*d %lu", &state, &flags) != 2) {
			free(stat);
			return true; /* gone */
		}
		free(stat);
		if (state == 'Z' || state == 'X' || (flags & ITEST_PF_EXITING))
			return true;
		itest_sleep_ms(1);
	}
	return false;
}

int itest_find_procs(const char *needle, pid_t *pids, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	cr_assert(d != NULL);
	while ((de = readdir(d))) {
		char path[300], raw[8192], *stat;
		pid_t pid = (pid_t)atoi(de->d_name);
		bool zombie = false;
		ssize_t got;
		int fd;

		if (pid <= 0 || pid == getpid())
			continue;
		/* A zombie has died already: only its parent has yet to reap it. */
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		stat = itest_slurp(path);
		if (stat) {
			const char *rp = strrchr(stat, ')');
			zombie = rp && (rp[2] == 'Z' || rp[2] == 'X');
		}
		free(stat);
		if (zombie)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		got = read(fd, raw, sizeof(raw) - 1);
		close(fd);
		if (got < 0)
			continue;
		raw[got] = '\0';
		bool found = false;
		/* cmdline is NUL-separated: search each argument. */
		for (const char *a = raw; a < raw + got && !found; a += strlen(a) + 1)
			found = strstr(a, needle) != NULL;
		/* The sandbox's init scrubs its command line to "nsbox": it is
		 * found by its executable, the per-test copy under <top>.  (It
		 * is not dumpable; root in the host's namespace may still read
		 * the link.)  nsbox may return while that init, its report
		 * sent and nothing of the command left, is still exiting
		 * (nsbox(1), Process): it counts only if it does not finish. */
		if (!found) {
			snprintf(path, sizeof(path), "/proc/%d/exe", pid);
			got = readlink(path, raw, sizeof(raw) - 1);
			if (got > 0) {
				raw[got] = '\0';
				found = strstr(raw, needle) != NULL && !finishing(pid);
			}
		}
		if (found) {
			if (n < max)
				pids[n] = pid;
			n++;
		}
	}
	closedir(d);
	return n;
}
