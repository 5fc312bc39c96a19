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

#include "base/fmt.h"
#include "supervisor/userns.h"
#include "base/util.h"

#define SYSCTL_MAX_USERNS      "sys/user/max_user_namespaces"
#define SYSCTL_UNPRIV_CLONE    "sys/kernel/unprivileged_userns_clone"
#define SYSCTL_APPARMOR_USERNS "sys/kernel/apparmor_restrict_unprivileged_userns"

/* Read a small integer file under root; -ENOENT when it does not exist. */
static int read_long(const char *root, const char *rel, long *ret)
{
	_cleanup_close_ int fd = -1;
	char path[4096], buf[64], *end;
	ssize_t n;
	long v;

	if (nsb_format(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return nsb_negerrno();
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return nsb_negerrno();
	buf[n] = '\0';
	errno = 0;
	v = nsb_strtol10(buf, &end);
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

	if (nsb_format(path, sizeof(path), "%s/self/status", root) >= (int)sizeof(path))
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
		v = nsb_strtol10(line + 8, &end);
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
		n = nsb_format(t->buf + t->len, sizeof(t->buf) - t->len, "%s", sep);
		t->len += n > 0 ? (size_t)n : 0;
	}
	if (t->len >= sizeof(t->buf))
		return;
	va_start(ap, fmt);
	n = nsb_vformat(t->buf + t->len, sizeof(t->buf) - t->len, fmt, ap);
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

/* What the diagnosis found: causes and their hints, and what it looked at. */
struct findings {
	struct text *causes, *hints, *checked;
};

static void found(struct findings *f, const char *cause, const char *hint)
{
	text_add(f->causes, "; ", "%s", cause);
	text_add(f->hints, "; ", "%s", hint);
}

/* The sysctls that switch user namespaces off, each at one value. */
enum {
	MAX_USERNS,
	UNPRIV_CLONE,
	APPARMOR_USERNS,
	N_SYSCTLS
};
static const struct {
	const char *rel, *name;
	long blocks;
	const char *cause, *hint;
} sysctls[N_SYSCTLS] = {
	[MAX_USERNS] = {SYSCTL_MAX_USERNS, "user.max_user_namespaces", 0,
			"user namespaces are disabled (user.max_user_namespaces is 0)",
			"enable them: sysctl -w user.max_user_namespaces=15000"},
	[UNPRIV_CLONE] = {SYSCTL_UNPRIV_CLONE, "kernel.unprivileged_userns_clone", 0,
			  "unprivileged user namespaces are disabled "
			  "(kernel.unprivileged_userns_clone is 0)",
			  "allow them: sysctl -w kernel.unprivileged_userns_clone=1"},
	[APPARMOR_USERNS] =
		{SYSCTL_APPARMOR_USERNS, "kernel.apparmor_restrict_unprivileged_userns", 1,
		 "AppArmor restricts unprivileged user namespaces "
		 "(kernel.apparmor_restrict_unprivileged_userns is 1): only programs "
		 "whose AppArmor profile grants 'userns,' may use them",
		 "load nsbox's AppArmor profile, which grants 'userns,': "
		 "apparmor_parser -r /etc/apparmor.d/nsbox (make install puts it there), "
		 "or lift the restriction: "
		 "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"},
};

/*
 * Each setting is checked whatever the errno: an administrator who disabled
 * user namespaces wants to hear that, and a setting that is absent (another
 * distribution's kernel) simply does not apply.  ret_values[i] stays -1 for a
 * file that could not be read.
 */
static void check_sysctls(const char *proc_root, struct findings *f, long ret_values[N_SYSCTLS])
{
	for (size_t i = 0; i < N_SYSCTLS; i++) {
		int r = read_long(proc_root, sysctls[i].rel, &ret_values[i]);

		note_checked(f->checked, sysctls[i].name, r, ret_values[i]);
		if (r == 0 && ret_values[i] == sysctls[i].blocks)
			found(f, sysctls[i].cause, sysctls[i].hint);
	}
}

/*
 * A seccomp filter answers with whatever errno its author chose; the usual
 * container runtime profiles return EPERM for unshare/clone with namespace
 * flags and ENOSYS for clone3.  Blame it only for those.
 */
static void check_seccomp(const char *proc_root, int err, struct findings *f)
{
	long seccomp = -1;
	int r = read_seccomp_mode(proc_root, &seccomp);

	note_checked(f->checked, "Seccomp in self/status", r, seccomp);
	if (r == 0 && seccomp == 2 && (err == EPERM || err == ENOSYS))
		found(f,
		      "a seccomp filter (probably the container runtime's) blocks user "
		      "namespaces (Seccomp: 2 in /proc/self/status)",
		      "run the container with a seccomp profile that allows clone, clone3 and "
		      "unshare with CLONE_NEWUSER (for Docker: --security-opt seccomp=PROFILE.json)");
}

/* ENOSPC with namespaces enabled: the count (or nesting) limit is hit. */
static void check_limit(int err, long max_userns, struct findings *f)
{
	if (err != ENOSPC || max_userns == 0)
		return;
	if (max_userns > 0)
		text_add(f->causes, "; ",
			 "the user namespace limit was reached "
			 "(user.max_user_namespaces is %ld, or nesting is deeper than 32)",
			 max_userns);
	else
		text_add(f->causes, "; ",
			 "the user namespace limit was reached "
			 "(user.max_user_namespaces, or nesting deeper than 32)");
	text_add(f->hints, "; ",
		 "end other sandboxes or containers of this user, or raise the limit: "
		 "sysctl -w user.max_user_namespaces=N");
}

/* EINVAL from clone with CLONE_NEWUSER and no other cause: the kernel may
 * lack CONFIG_USER_NS. */
static void check_kernel(const char *proc_root, int err, struct findings *f)
{
	char path[4096];

	if (err != EINVAL || f->causes->len != 0)
		return;
	if (nsb_format(path, sizeof(path), "%s/self/ns/user", proc_root) < (int)sizeof(path) &&
	    access(path, F_OK) < 0 && errno == ENOENT) {
		text_add(f->causes, "; ", "this kernel has no user namespace support (no %s)",
			 path);
		text_add(f->hints, "; ", "use a kernel built with CONFIG_USER_NS=y");
	}
}

int nsb_userns_diagnose(int clone_errno, const char *proc_root, struct nsb_error *e)
{
	struct text causes = {}, hints = {}, checked = {};
	struct findings f = {&causes, &hints, &checked};
	long values[N_SYSCTLS] = {-1, -1, -1};
	int err = clone_errno < 0 ? -clone_errno : clone_errno;

	if (err == 0)
		err = EIO;
	if (!proc_root)
		proc_root = "/proc";
	check_sysctls(proc_root, &f, values);
	check_seccomp(proc_root, err, &f);
	check_limit(err, values[MAX_USERNS], &f);
	check_kernel(proc_root, err, &f);

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
