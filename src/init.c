// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "caps.h"
#include "init.h"
#include "mount.h"
#include "net.h"
#include "seccomp.h"
#include "util.h"

extern char **environ;

/* Signals init forwards to the payload. */
static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

int nsb_close_all_except(const int *keep, size_t n)
{
	int sorted[8];
	unsigned lo = 3;

	if (n > ARRAY_SIZE(sorted))
		return -E2BIG;
	memcpy(sorted, keep, n * sizeof(int));
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			int t = sorted[j];
			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		if (sorted[i] < (int)lo)
			continue;
		if ((unsigned)sorted[i] > lo && syscall(SYS_close_range, lo, sorted[i] - 1, 0) < 0)
			return nsb_negerrno();
		lo = (unsigned)sorted[i] + 1;
	}
	if (syscall(SYS_close_range, lo, ~0U, 0) < 0)
		return nsb_negerrno();
	return 0;
}

static void send_error(int fd, const struct nsb_error *e)
{
	/* One write of a struct smaller than PIPE_BUF is atomic. */
	ssize_t n;
	do
		n = write(fd, e, sizeof(*e));
	while (n < 0 && errno == EINTR);
}

_noreturn_ static void fail(const struct nsb_init_args *a, const struct nsb_error *e, int code)
{
	send_error(a->err_wr, e);
	_exit(code);
}

/*
 * The original environment block stays in this process's memory (and in
 * /proc/1/environ) even after clearenv(): overwrite the strings themselves.
 */
static void scrub_environment(void)
{
	for (char **p = environ; p && *p; p++)
		explicit_bzero(*p, strlen(*p));
	clearenv();
}

/*
 * Find the command in the sandbox's view with the sandbox's PATH, like
 * execvp, but tell "not found" (127) from "found, not executable" (126).
 */
static int resolve_command(const struct nsb_plan *p, char *out, size_t out_size,
			   struct nsb_error *e)
{
	const char *name = p->argv[0];
	const char *path = nsb_env_get(p->envp, "PATH", 4);
	bool saw_eacces = false;
	struct stat st;

	if (strchr(name, '/')) {
		if (stat(name, &st) < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_RESOLVE,
					     "command '%s' not found inside the sandbox", name);
		if (nsb_snprintf(out, out_size, "%s", name) < 0)
			return nsb_error_setx(e, ENAMETOOLONG, NSB_STAGE_RESOLVE,
					      "command name too long");
		return 0;
	}
	if (strlen(name) > NAME_MAX)
		return nsb_error_setx(e, ENAMETOOLONG, NSB_STAGE_RESOLVE,
				      "command name '%.64s...' is too long", name);

	for (const char *d = path ? path : ""; *d;) {
		const char *end = strchrnul(d, ':');
		size_t n = (size_t)(end - d);

		if (n > 0 && nsb_snprintf(out, out_size, "%.*s/%s", (int)n, d, name) >= 0 &&
		    stat(out, &st) == 0 && !S_ISDIR(st.st_mode)) {
			if (access(out, X_OK) == 0)
				return 0;
			saw_eacces = true;
		}
		d = *end ? end + 1 : end;
	}
	if (saw_eacces)
		return nsb_error_setx(e, EACCES, NSB_STAGE_EXEC,
				      "command '%s' found inside the sandbox but not executable",
				      name);
	return nsb_error_setx(e, ENOENT, NSB_STAGE_RESOLVE,
			      "command '%s' not found inside the sandbox (PATH=%s)", name,
			      path ? path : "");
}

_noreturn_ static void payload_main(const struct nsb_init_args *a)
{
	const struct nsb_plan *p = a->plan;
	struct nsb_error e = {0};
	char path[NSB_MAX_PATH + 1];
	sigset_t none;
	int r;

	/* Restore what init changed: default dispositions, nothing blocked. */
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		signal(forwarded[i], SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	/* A new session: no controlling terminal to inject keystrokes into. */
	if (setsid() < 0) {
		nsb_error_set(&e, nsb_negerrno(), "session", "start a new session");
		fail(a, &e, 125);
	}

	/* Output through the supervisor's pump (--max-output, --capture). */
	if (a->stdout_wr >= 0) {
		if (dup2(a->stdout_wr, STDOUT_FILENO) < 0 ||
		    dup2(a->stderr_wr, STDERR_FILENO) < 0) {
			nsb_error_set(&e, nsb_negerrno(), "fds",
				      "connect stdout and stderr to the supervisor");
			fail(a, &e, 125);
		}
	}

	/* Only stdin, stdout, stderr and the (CLOEXEC) error pipe survive. */
	r = nsb_close_all_except(&a->err_wr, 1);
	if (r < 0) {
		nsb_error_set(&e, r, "fds", "close inherited file descriptors");
		fail(a, &e, 125);
	}

	r = resolve_command(p, path, sizeof(path), &e);
	if (r < 0)
		fail(a, &e, strcmp(e.stage, NSB_STAGE_RESOLVE) == 0 ? 127 : 126);

	/* Fallback limits: nothing above may trip over them. */
	r = nsb_limits_apply_rlimits(&p->limits, &e);
	if (r < 0)
		fail(a, &e, 125);

	execve(path, p->argv, p->envp);
	r = nsb_negerrno();
	nsb_error_set(&e, r, NSB_STAGE_EXEC, "execute '%s'", path);
	if (r == -ENOENT)
		nsb_error_hint(
			&e,
			"the file exists but its interpreter or dynamic loader is missing inside the sandbox; bind it with --ro");
	fail(a, &e, r == -ENOENT ? 127 : 126);
}

static int exit_code_of(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 125;
}

_noreturn_ void nsb_init_main(const struct nsb_init_args *a)
{
	const struct nsb_plan *p = a->plan;
	struct nsb_error e = {0};
	int keep[] = {a->sync_rd, a->err_wr, a->status_wr, a->stdout_wr, a->stderr_wr};
	sigset_t mask;
	pid_t payload;
	char go;
	int r, sfd;

	/* If the supervisor dies, so does the sandbox: init's death takes the
	 * whole PID namespace with it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		_exit(125);

	/* The result fd, and anything else the caller leaked, never enters. */
	r = nsb_close_all_except(keep, ARRAY_SIZE(keep));
	if (r < 0) {
		nsb_error_set(&e, r, "fds", "close inherited file descriptors");
		fail(a, &e, 125);
	}

	/* Wait for the uid/gid maps.  EOF means the supervisor is gone or gave
	 * up (and also closes the PDEATHSIG race: it may have died before the
	 * prctl above). */
	do
		r = (int)read(a->sync_rd, &go, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		_exit(125);
	close(a->sync_rd);

	/* Only after the maps are written: a non-dumpable child's /proc files
	 * belong to root, and the supervisor had to open its uid_map. */
	if (prctl(PR_SET_DUMPABLE, 0) < 0) {
		nsb_error_set(&e, nsb_negerrno(), "init", "make init non-dumpable");
		fail(a, &e, 125);
	}
	scrub_environment();

	r = nsb_mount_setup(p, &e);
	if (r < 0)
		fail(a, &e, 125);

	if (!p->share_net) {
		r = nsb_net_lo_up(&e);
		if (r < 0)
			fail(a, &e, 125);
	}

	if (sethostname(p->hostname, strlen(p->hostname)) < 0) {
		nsb_error_set(&e, nsb_negerrno(), "hostname", "set hostname '%s'", p->hostname);
		fail(a, &e, 125);
	}

	/* init keeps nothing the payload could borrow: all capability sets
	 * empty and no_new_privs, before the payload is even forked. */
	r = nsb_caps_drop_all(&e);
	if (r < 0)
		fail(a, &e, 125);
	r = nsb_no_new_privs(&e);
	if (r < 0)
		fail(a, &e, 125);

	/*
	 * The filter goes on in init, before the payload is forked: init
	 * carries it, and the payload inherits the very same program, so the
	 * payload's last steps (close fds, rlimits, execve) already run under
	 * it.  Installing a second copy in the payload would only make every
	 * syscall evaluate the program twice (and strict profiles rightly
	 * refuse seccomp() itself).  When the profile asks for it, the same
	 * call first puts on the small unmapped-ids program the supervisor
	 * built from the mapped ids (seccomp.c says why it is separate).
	 * nsbox's own openat2 (mount.c) has run by now: the shipped profiles
	 * answer it ENOSYS.
	 */
	if (p->seccomp) {
		r = nsb_seccomp_install(p->seccomp, &e);
		if (r < 0)
			fail(a, &e, 125);
	}

	/* Out of the caller's process group: a terminal's ^C reaches the
	 * supervisor only, which forwards it once. */
	if (setsid() < 0) {
		nsb_error_set(&e, nsb_negerrno(), "init", "start a new session");
		fail(a, &e, 125);
	}

	/* The supervisor blocked these before clone; keep them blocked and
	 * read them through a signalfd. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaddset(&mask, forwarded[i]);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0) {
		nsb_error_set(&e, nsb_negerrno(), "init", "block signals");
		fail(a, &e, 125);
	}
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0) {
		nsb_error_set(&e, nsb_negerrno(), "init", "create signalfd");
		fail(a, &e, 125);
	}

	payload = fork();
	if (payload < 0) {
		nsb_error_set(&e, nsb_negerrno(), "init", "fork the payload");
		fail(a, &e, 125);
	}
	if (payload == 0) {
		close(sfd);
		close(a->status_wr);
		payload_main(a);
	}

	/* From here on, EOF on the error pipe means the payload's exec worked;
	 * EOF on the output pipes, that the payload and all it started are gone. */
	close(a->err_wr);
	if (a->stdout_wr >= 0) {
		close(a->stdout_wr);
		close(a->stderr_wr);
	}

	for (;;) {
		struct signalfd_siginfo si;
		ssize_t n = read(sfd, &si, sizeof(si));

		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(si))
			_exit(125);
		if (si.ssi_signo != SIGCHLD) {
			kill(payload, (int)si.ssi_signo);
			continue;
		}
		/* Reap everything: orphans are re-parented to us. */
		for (;;) {
			int status;
			pid_t pid = waitpid(-1, &status, WNOHANG);
			if (pid <= 0)
				break;
			if (pid == payload) {
				/* The exact status goes to the supervisor; our own
				 * exit then kills whatever the payload left. */
				ssize_t w;
				do
					w = write(a->status_wr, &status, sizeof(status));
				while (w < 0 && errno == EINTR);
				_exit(exit_code_of(status));
			}
		}
	}
}
