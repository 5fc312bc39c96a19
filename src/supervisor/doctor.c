// SPDX-License-Identifier: GPL-2.0-or-later
/* nsbox doctor: gather the host's facts and hand them to core/doctor.c.  Supervisor. */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/util.h"
#include "supervisor/cgroup.h"
#include "supervisor/doctor.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_fsopen
#define SYS_fsopen 430
#endif
#define LL_CREATE_RULESET_VERSION (1U << 0)

/* The first line of a small file, without its newline; -errno. */
static int read_line(const char *path, char *buf, size_t size)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	ssize_t n;

	if (fd < 0)
		return nsb_negerrno();
	n = read(fd, buf, size - 1);
	if (n < 0)
		return nsb_negerrno();
	buf[n] = '\0';
	buf[nsb_strcspn(buf, "\n")] = '\0';
	return 0;
}

static long read_long_at(const char *root, const char *rel)
{
	char path[512], buf[64] = "", *end;
	long v;

	nsb_format(path, sizeof(path), "%s/%s", root, rel);
	if (read_line(path, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	v = nsb_strtol10(buf, &end);
	return end == buf || errno ? -1 : v;
}

/* A line starting with prefix in a text file: the rest of it, or "". */
static void grep_first(const char *path, const char *prefix, char *out, size_t size)
{
	FILE *f = fopen(path, "re");
	char line[1024];

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, prefix, strlen(prefix)) == 0) {
			line[nsb_strcspn(line, "\n")] = '\0';
			nsb_format(out, size, "%s", line + strlen(prefix));
			break;
		}
	fclose(f);
}

static bool file_has(const char *path, const char *needle)
{
	FILE *f = fopen(path, "re");
	char line[1024];
	bool hit = false;

	if (!f)
		return false;
	while (!hit && fgets(line, sizeof(line), f))
		hit = strstr(line, needle) != NULL;
	fclose(f);
	return hit;
}

/* Written by the child; the step's name is a string literal of it. */
struct probe_msg {
	int err;
	char step[16];
};

_noreturn_ static void probe_fail(int fd, int err, const char *step)
{
	struct probe_msg m = {.err = err};

	nsb_format(m.step, sizeof(m.step), "%s", step);
	if (write(fd, &m, sizeof(m)) != sizeof(m))
		_exit(2);
	_exit(1);
}

static void write_file(int wfd, const char *path, const char *text, const char *step)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		probe_fail(wfd, errno, step);
	close(fd);
}

/* In the child: what nsbox's clone and init do, reduced to the steps that
 * policies refuse (unshare, the id maps, a mount in the new namespaces). */
_noreturn_ static void probe_child(int wfd, uid_t uid, gid_t gid)
{
	char map[64];

	if (unshare(CLONE_NEWUSER) < 0)
		probe_fail(wfd, errno, "unshare");
	write_file(wfd, "/proc/self/setgroups", "deny", "setgroups");
	nsb_format(map, sizeof(map), "0 %u 1", (unsigned)uid);
	write_file(wfd, "/proc/self/uid_map", map, "uid_map");
	nsb_format(map, sizeof(map), "0 %u 1", (unsigned)gid);
	write_file(wfd, "/proc/self/gid_map", map, "gid_map");
	if (unshare(CLONE_NEWNS) < 0)
		probe_fail(wfd, errno, "mount ns");
	if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		probe_fail(wfd, errno, "mount");
	_exit(0);
}

int nsb_doctor_try_userns(char *step, size_t step_size)
{
	struct probe_msg m = {0};
	int p[2], status;
	pid_t pid;
	uid_t uid = getuid();
	gid_t gid = getgid();
	ssize_t n;

	if (pipe2(p, O_CLOEXEC) < 0)
		return errno;
	pid = fork();
	if (pid < 0) {
		int r = errno;
		close(p[0]);
		close(p[1]);
		return r;
	}
	if (pid == 0) {
		close(p[0]);
		probe_child(p[1], uid, gid);
	}
	close(p[1]);
	do
		n = read(p[0], &m, sizeof(m));
	while (n < 0 && errno == EINTR);
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof(m)) {
		m.step[sizeof(m.step) - 1] = '\0';
		nsb_format(step, step_size, "%s", m.step);
		return m.err ? m.err : EIO;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		nsb_format(step, step_size, "probe");
		return EIO;
	}
	return 0;
}

int nsb_doctor_landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);

	return abi > 0 ? (int)abi : 0;
}

/* Each sign of a container, as the heuristics saw it. */
static void gather_container(const char *proc_root, char *out, size_t size)
{
	char path[512], line[256];
	const char *env = getenv("container");

	out[0] = '\0';
	if (access("/.dockerenv", F_OK) == 0)
		nsb_format(out + strlen(out), size - strlen(out), "/.dockerenv exists; ");
	if (access("/run/.containerenv", F_OK) == 0)
		nsb_format(out + strlen(out), size - strlen(out), "/run/.containerenv exists; ");
	if (env && *env)
		nsb_format(out + strlen(out), size - strlen(out), "container=%.32s; ", env);
	nsb_format(path, sizeof(path), "%s/1/cgroup", proc_root);
	if (file_has(path, "docker") || file_has(path, "kubepods") || file_has(path, "libpod"))
		nsb_format(out + strlen(out), size - strlen(out),
			   "pid 1's cgroup names a runtime; ");
	nsb_format(path, sizeof(path), "%s/self/mountinfo", proc_root);
	grep_first(path, "", line, sizeof(line));
	if (strstr(line, " / / ") && strstr(line, " - overlay "))
		nsb_format(out + strlen(out), size - strlen(out), "the root is an overlay; ");
	if (strlen(out) >= 2 && out[strlen(out) - 2] == ';')
		out[strlen(out) - 2] = '\0';
}

static void gather_cgroup(struct nsb_doctor_facts *f)
{
	static const char *const none[] = {NULL}, *const both[] = {"memory", "pids", NULL};
	struct nsb_cgroup_where w = {0};
	struct nsb_cgroup_opts o = {.where = &w};
	struct nsb_cgroup_place place;
	char path[4200];

	f->cgroup_writable = nsb_cgroup_place(&o, none, &place, NULL) == 0;
	if (!w.valid) {
		nsb_cgroup_where_free(&w);
		return;
	}
	f->cgroup2 = true;
	(void)nsb_snprintf(f->cgroup_mount, sizeof(f->cgroup_mount), "%s", w.mnt);
	(void)nsb_snprintf(f->cgroup_own, sizeof(f->cgroup_own), "%s", w.own);
	if (nsb_cgroup_place(&o, both, &place, NULL) == 0)
		(void)nsb_snprintf(f->cgroup_own, sizeof(f->cgroup_own), "%s", place.parent);
	else if (f->cgroup_writable)
		(void)nsb_snprintf(f->cgroup_own, sizeof(f->cgroup_own), "%s", place.parent);
	nsb_format(path, sizeof(path), "%s/cgroup.controllers", f->cgroup_own);
	if (read_line(path, f->cgroup_controllers, sizeof(f->cgroup_controllers)) < 0)
		f->cgroup_controllers[0] = '\0';
	nsb_cgroup_where_free(&w);
}

static void gather_apparmor(struct nsb_doctor_facts *f)
{
	char buf[16] = "";

	f->apparmor_enabled =
		read_line("/sys/module/apparmor/parameters/enabled", buf, sizeof(buf)) == 0 &&
		buf[0] == 'Y';
	/* A profile named after the binary or "nsbox" (apparmor/nsbox). */
	f->apparmor_profile_loaded = file_has("/sys/kernel/security/apparmor/profiles", "nsbox ");
}

void nsb_doctor_gather(const char *proc_root, struct nsb_doctor_facts *ret)
{
	struct nsb_doctor_facts f;
	struct utsname u;
	char path[512], buf[64];

	memset(&f, 0, sizeof(f));
	if (uname(&u) == 0)
		nsb_format(f.kernel, sizeof(f.kernel), "%s", u.release);
	f.uid = getuid();
	f.max_user_namespaces = read_long_at(proc_root, "sys/user/max_user_namespaces");
	f.unprivileged_userns = read_long_at(proc_root, "sys/kernel/unprivileged_userns_clone");
	f.apparmor_restrict =
		read_long_at(proc_root, "sys/kernel/apparmor_restrict_unprivileged_userns");
	gather_apparmor(&f);
	nsb_format(path, sizeof(path), "%s/self/status", proc_root);
	grep_first(path, "Seccomp:", buf, sizeof(buf));
	f.seccomp_mode = buf[0] ? nsb_strtol10(buf, NULL) : -1;
	f.userns_errno = nsb_doctor_try_userns(f.userns_step, sizeof(f.userns_step));
	gather_container(proc_root, f.container, sizeof(f.container));

	/* fsopen of a type no kernel has: ENODEV (or EPERM without the
	 * privilege) says the call exists; ENOSYS that it does not. */
	f.mount_api = syscall(SYS_fsopen, "nsbox-doctor-none", 0) >= 0 || errno != ENOSYS;
	f.seccomp_filter = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
	if (f.seccomp_filter) {
		unsigned action = SECCOMP_RET_USER_NOTIF;
		f.seccomp_notify = syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
	}
	f.landlock_abi = nsb_doctor_landlock_abi();
	gather_cgroup(&f);
	f.systemd_run =
		access("/usr/bin/systemd-run", X_OK) == 0 || access("/bin/systemd-run", X_OK) == 0;
	*ret = f;
}

int nsb_doctor_main(int argc, char *const *argv)
{
	struct nsb_doctor_facts f;
	struct nsb_doctor_report r;
	bool json = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			json = true;
		} else {
			fprintf(stderr, "nsbox: doctor: unknown argument '%s'\n", argv[i]);
			fprintf(stderr, "nsbox: hint: usage: nsbox doctor [--json]\n");
			return 125;
		}
	}
	nsb_doctor_gather("/proc", &f);
	nsb_doctor_judge(&f, &r);
	if (json) {
		struct nsb_json j;
		char *doc = NULL;
		size_t len = 0;

		nsb_json_init(&j);
		nsb_doctor_json(&j, &f, &r);
		if (nsb_json_finish(&j, &doc, &len) < 0 || fwrite(doc, 1, len, stdout) != len) {
			free(doc);
			nsb_json_free(&j);
			fprintf(stderr, "nsbox: doctor: cannot write the report\n");
			return 125;
		}
		free(doc);
	} else {
		nsb_doctor_print(stdout, &f, &r);
	}
	if (fflush(stdout) != 0)
		return 125;
	return r.exit_code;
}
