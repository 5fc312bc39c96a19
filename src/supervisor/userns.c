// SPDX-License-Identifier: GPL-2.0-or-later
/* userns: run by the supervisor: the new user namespace's id maps, and why one fails. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "supervisor/userns.h"

#define SYSCTL_MAX_USERNS      "sys/user/max_user_namespaces"
#define SYSCTL_UNPRIV_CLONE    "sys/kernel/unprivileged_userns_clone"
#define SYSCTL_APPARMOR_USERNS "sys/kernel/apparmor_restrict_unprivileged_userns"

/*
 * The kernel accepts a map only as one write(2) at offset 0, so a short
 * write is an error rather than something to retry.
 */
static int write_proc_file(const char *path, const char *text, struct nsb_error *e)
{
	_cleanup_close_ int fd = -1;
	size_t len = strlen(text);
	ssize_t n;

	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USERNS, "open '%s'", path);
	n = write(fd, text, len);
	if (n < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USERNS, "write '%.*s' to '%s'",
				     (int)strcspn(text, "\n"), text, path);
	if ((size_t)n != len)
		return nsb_error_setx(e, -EIO, NSB_STAGE_USERNS,
				      "short write to '%s' (%zd of %zu bytes)", path, n, len);
	return 0;
}

int nsb_userns_write_maps(pid_t pid, uid_t uid, gid_t gid, struct nsb_error *e)
{
	char dir[32], path[64], map[64];
	int r;

	if (pid < 0)
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_USERNS, "invalid pid %d", (int)pid);
	if (pid == 0)
		snprintf(dir, sizeof(dir), "/proc/self");
	else
		snprintf(dir, sizeof(dir), "/proc/%d", (int)pid);

	/*
	 * setgroups first: an unprivileged writer may set gid_map only after
	 * setgroups is denied (otherwise the payload could drop supplementary
	 * groups that deny it access).  Denying it also for root callers keeps
	 * the identity inside the same whoever runs us.
	 */
	snprintf(path, sizeof(path), "%s/setgroups", dir);
	r = write_proc_file(path, "deny", e);
	if (r < 0)
		return r;

	snprintf(path, sizeof(path), "%s/uid_map", dir);
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned int)uid, (unsigned int)uid);
	r = write_proc_file(path, map, e);
	if (r < 0)
		return r;

	snprintf(path, sizeof(path), "%s/gid_map", dir);
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned int)gid, (unsigned int)gid);
	return write_proc_file(path, map, e);
}

/* Read a small integer file under root; -ENOENT when it does not exist. */
static int read_long(const char *root, const char *rel, long *ret)
{
	_cleanup_close_ int fd = -1;
	char path[4096], buf[64], *end;
	ssize_t n;
	long v;

	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return nsb_negerrno();
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return nsb_negerrno();
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf || errno != 0 || (*end != '\0' && *end != '\n'))
		return -EINVAL;
	*ret = v;
	return 0;
}

static void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

/* The "Seccomp:" mode of proc_root/self/status: 0 none, 1 strict, 2 filter. */
static int read_seccomp_mode(const char *root, long *ret)
{
	_cleanup_(fclosep) FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	char path[4096];
	size_t size = 0;

	if (snprintf(path, sizeof(path), "%s/self/status", root) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return nsb_negerrno();
	while (getline(&line, &size, f) >= 0) {
		char *end;
		long v;

		if (strncmp(line, "Seccomp:", 8) != 0)
			continue;
		errno = 0;
		v = strtol(line + 8, &end, 10);
		if (end == line + 8 || errno != 0)
			return -EINVAL;
		*ret = v;
		return 0;
	}
	return -ENOENT;
}

/* A bounded string builder for the message, the hint and the checked list. */
struct text {
	char buf[NSB_ERR_MESSAGE_MAX];
	size_t len;
};

static void text_add(struct text *t, const char *sep, const char *fmt, ...) _printf_(3, 4);
static void text_add(struct text *t, const char *sep, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->len > 0 && t->len < sizeof(t->buf)) {
		n = snprintf(t->buf + t->len, sizeof(t->buf) - t->len, "%s", sep);
		t->len += n > 0 ? (size_t)n : 0;
	}
	if (t->len >= sizeof(t->buf))
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, sizeof(t->buf) - t->len, fmt, ap);
	va_end(ap);
	t->len += n > 0 ? (size_t)n : 0;
}

/* What one file said, for the "nothing found" message. */
static void note_checked(struct text *checked, const char *name, int r, long v)
{
	if (r == -ENOENT)
		text_add(checked, ", ", "%s absent", name);
	else if (r < 0)
		text_add(checked, ", ", "%s unreadable (%s)", name, strerror(-r));
	else
		text_add(checked, ", ", "%s = %ld", name, v);
}

int nsb_userns_diagnose(int clone_errno, const char *proc_root, struct nsb_error *e)
{
	struct text causes = {}, hints = {}, checked = {};
	long max_userns = -1, unpriv = -1, apparmor = -1, seccomp = -1;
	int err = clone_errno < 0 ? -clone_errno : clone_errno;
	int r;

	if (err == 0)
		err = EIO;
	if (!proc_root)
		proc_root = "/proc";

	/*
	 * Each setting is checked whatever the errno: an administrator who
	 * disabled user namespaces wants to hear that, and a setting that is
	 * absent (another distribution's kernel) simply does not apply.
	 */
	r = read_long(proc_root, SYSCTL_MAX_USERNS, &max_userns);
	note_checked(&checked, "user.max_user_namespaces", r, max_userns);
	if (r == 0 && max_userns == 0) {
		text_add(&causes, "; ",
			 "user namespaces are disabled (user.max_user_namespaces is 0)");
		text_add(&hints, "; ", "enable them: sysctl -w user.max_user_namespaces=15000");
	}

	r = read_long(proc_root, SYSCTL_UNPRIV_CLONE, &unpriv);
	note_checked(&checked, "kernel.unprivileged_userns_clone", r, unpriv);
	if (r == 0 && unpriv == 0) {
		text_add(&causes, "; ",
			 "unprivileged user namespaces are disabled "
			 "(kernel.unprivileged_userns_clone is 0)");
		text_add(&hints, "; ", "allow them: sysctl -w kernel.unprivileged_userns_clone=1");
	}

	r = read_long(proc_root, SYSCTL_APPARMOR_USERNS, &apparmor);
	note_checked(&checked, "kernel.apparmor_restrict_unprivileged_userns", r, apparmor);
	if (r == 0 && apparmor == 1) {
		text_add(&causes, "; ",
			 "AppArmor restricts unprivileged user namespaces "
			 "(kernel.apparmor_restrict_unprivileged_userns is 1): only programs "
			 "whose AppArmor profile grants 'userns,' may use them");
		text_add(&hints, "; ",
			 "load an AppArmor profile for nsbox that contains the rule 'userns,', "
			 "or lift the restriction: "
			 "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0");
	}

	/*
	 * A seccomp filter answers with whatever errno its author chose; the
	 * usual container runtime profiles return EPERM for unshare/clone with
	 * namespace flags and ENOSYS for clone3.  Blame it only for those.
	 */
	r = read_seccomp_mode(proc_root, &seccomp);
	note_checked(&checked, "Seccomp in self/status", r, seccomp);
	if (r == 0 && seccomp == 2 && (err == EPERM || err == ENOSYS)) {
		text_add(&causes, "; ",
			 "a seccomp filter (probably the container runtime's) blocks user "
			 "namespaces (Seccomp: 2 in /proc/self/status)");
		text_add(
			&hints, "; ",
			"run the container with a seccomp profile that allows clone, clone3 and "
			"unshare with CLONE_NEWUSER (for Docker: --security-opt seccomp=PROFILE.json)");
	}

	/* ENOSPC with namespaces enabled: the count (or nesting) limit is hit. */
	if (err == ENOSPC && max_userns != 0) {
		if (max_userns > 0)
			text_add(&causes, "; ",
				 "the user namespace limit was reached "
				 "(user.max_user_namespaces is %ld, or nesting is deeper than 32)",
				 max_userns);
		else
			text_add(&causes, "; ",
				 "the user namespace limit was reached "
				 "(user.max_user_namespaces, or nesting deeper than 32)");
		text_add(&hints, "; ",
			 "end other sandboxes or containers of this user, or raise the limit: "
			 "sysctl -w user.max_user_namespaces=N");
	}

	/* EINVAL from clone with CLONE_NEWUSER: the kernel may lack CONFIG_USER_NS. */
	if (err == EINVAL && causes.len == 0) {
		char path[4096];

		if (snprintf(path, sizeof(path), "%s/self/ns/user", proc_root) <
			    (int)sizeof(path) &&
		    access(path, F_OK) < 0 && errno == ENOENT) {
			text_add(&causes, "; ", "this kernel has no user namespace support (no %s)",
				 path);
			text_add(&hints, "; ", "use a kernel built with CONFIG_USER_NS=y");
		}
	}

	if (causes.len == 0) {
		nsb_error_set(e, -err, NSB_STAGE_USERNS,
			      "cannot use a user namespace, and no known cause was found "
			      "(checked under '%s': %s)",
			      proc_root, checked.buf);
		nsb_error_hint(e, "nsbox needs unprivileged user namespaces; check the kernel's "
				  "sysctls, AppArmor/SELinux policy and any seccomp filter of the "
				  "container this runs in");
		return -err;
	}
	nsb_error_set(e, -err, NSB_STAGE_USERNS, "cannot use a user namespace: %s", causes.buf);
	nsb_error_hint(e, "%s", hints.buf);
	/* The original failure, even when e is NULL. */
	return -err;
}
