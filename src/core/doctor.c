// SPDX-License-Identifier: GPL-2.0-or-later
/* nsbox doctor's verdicts: facts -> checks with fixes, the table and the JSON.  Pure (supervisor). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/fmt.h"
#include "base/errname.h"
#include "base/macro.h"
#include "base/util.h"
#include "core/doctor.h"

/* Append to a fixed buffer, "; "-separated; truncation only shortens a line. */
static void add(char *buf, size_t size, const char *fmt, ...) _printf_(3, 4);
static void add(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strnlen(buf, size);
	va_list ap;

	if (len + 3 >= size)
		return;
	if (len) {
		memcpy(buf + len, "; ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	(void)nsb_vformat(buf + len, size - len, fmt, ap);
	va_end(ap);
}

static struct nsb_doctor_check *check(struct nsb_doctor_report *r, const char *name, bool ok)
{
	struct nsb_doctor_check *c = &r->checks[r->n_checks++];

	c->name = name;
	c->ok = ok;
	return c;
}

bool nsb_doctor_userns_ok(const struct nsb_doctor_facts *f)
{
	return f->userns_errno == 0;
}

/* The known causes of a failed attempt, each with its fix. */
static void userns_causes(const struct nsb_doctor_facts *f, struct nsb_doctor_check *c)
{
	size_t vs = sizeof(c->value), fs = sizeof(c->fix);
	bool any = false;

	if (f->max_user_namespaces == 0) {
		add(c->value, vs, "user.max_user_namespaces is 0");
		add(c->fix, fs, "sysctl -w user.max_user_namespaces=15000");
		any = true;
	}
	if (f->unprivileged_userns == 0 && f->uid != 0) {
		add(c->value, vs, "kernel.unprivileged_userns_clone is 0");
		add(c->fix, fs, "sysctl -w kernel.unprivileged_userns_clone=1");
		any = true;
	}
	if (f->apparmor_restrict == 1 && f->uid != 0 && !f->apparmor_profile_loaded) {
		add(c->value, vs,
		    "AppArmor restricts unprivileged user namespaces and no nsbox profile is loaded");
		add(c->fix, fs,
		    "apparmor_parser -r /etc/apparmor.d/nsbox (make install puts the profile there)");
		any = true;
	}
	if (f->seccomp_mode == 2 && (f->userns_errno == EPERM || f->userns_errno == ENOSYS)) {
		add(c->value, vs, "a seccomp filter on this process refuses it (Seccomp: 2)");
		add(c->fix, fs,
		    "run the container with a seccomp profile that allows clone, clone3 and unshare with CLONE_NEWUSER (Docker: --security-opt seccomp=PROFILE.json), or use --isolation landlock");
		any = true;
	}
	if (f->userns_errno == ENOSPC && f->max_user_namespaces != 0) {
		add(c->value, vs, "the user namespace limit is reached");
		add(c->fix, fs, "raise user.max_user_namespaces");
		any = true;
	}
	if (!any) {
		add(c->value, vs, "no known cause found");
		add(c->fix, fs,
		    "check the security policy (AppArmor, SELinux) and the container runtime, or use --isolation landlock");
	}
	if (f->container[0])
		add(c->value, vs, "probably inside a container (%s)", f->container);
}

static void judge_userns(const struct nsb_doctor_facts *f, struct nsb_doctor_report *r)
{
	struct nsb_doctor_check *c = check(r, "user namespaces", nsb_doctor_userns_ok(f));

	if (c->ok) {
		nsb_format(c->value, sizeof(c->value),
			   "available (created one and wrote its id maps)");
		return;
	}
	nsb_format(c->value, sizeof(c->value), "blocked (%s: %s)",
		   f->userns_step[0] ? f->userns_step : "clone", nsb_errno_name(f->userns_errno));
	userns_causes(f, c);
}

static void judge_apparmor(const struct nsb_doctor_facts *f, struct nsb_doctor_report *r)
{
	bool restricted = f->apparmor_restrict == 1;
	struct nsb_doctor_check *c =
		check(r, "apparmor", !restricted || f->apparmor_profile_loaded || f->uid == 0);

	c->info = !restricted;
	nsb_format(c->value, sizeof(c->value),
		   "%s; restrict_unprivileged_userns %s; nsbox profile %s",
		   f->apparmor_enabled ? "enabled" : "not enabled",
		   f->apparmor_restrict < 0 ? "absent"
		   : restricted		    ? "on"
					    : "off",
		   f->apparmor_profile_loaded ? "loaded" : "not loaded");
	if (!c->ok)
		nsb_format(c->fix, sizeof(c->fix),
			   "apparmor_parser -r /etc/apparmor.d/nsbox (installed by make install)");
}

static void judge_caller(const struct nsb_doctor_facts *f, struct nsb_doctor_report *r)
{
	struct nsb_doctor_check *c = check(r, "seccomp on the caller", f->seccomp_mode <= 0);

	c->info = true;
	nsb_format(c->value, sizeof(c->value), "%s",
		   f->seccomp_mode < 0	  ? "unknown"
		   : f->seccomp_mode == 0 ? "none (Seccomp: 0)"
		   : f->seccomp_mode == 1 ? "strict mode (Seccomp: 1)"
					  : "a filter applies (Seccomp: 2)");
	c = check(r, "container", !f->container[0]);
	c->info = true;
	nsb_format(c->value, sizeof(c->value), "%s%s",
		   f->container[0] ? "probably inside a container (heuristic): " : "no sign of one",
		   f->container);
}

static void judge_kernel(const struct nsb_doctor_facts *f, struct nsb_doctor_report *r)
{
	struct nsb_doctor_check *c = check(r, "kernel", true);

	c->info = true;
	nsb_format(c->value, sizeof(c->value), "%s", f->kernel[0] ? f->kernel : "unknown");

	c = check(r, "mount API", f->mount_api);
	nsb_format(c->value, sizeof(c->value), "%s",
		   f->mount_api ? "fsopen, open_tree, move_mount available" : "missing (ENOSYS)");
	if (!c->ok)
		nsb_format(c->fix, sizeof(c->fix), "use Linux 5.2 or later");

	c = check(r, "seccomp", f->seccomp_filter);
	nsb_format(c->value, sizeof(c->value), "filters %s; user notification %s",
		   f->seccomp_filter ? "yes" : "no", f->seccomp_notify ? "yes" : "no");
	if (!c->ok)
		nsb_format(c->fix, sizeof(c->fix),
			   "use a kernel built with CONFIG_SECCOMP_FILTER=y");

	c = check(r, "landlock", f->landlock_abi >= 1);
	if (f->landlock_abi >= 1)
		nsb_format(c->value, sizeof(c->value),
			   "ABI %d (filesystem rules; TCP rules %s; signal and socket scoping %s)",
			   f->landlock_abi, f->landlock_abi >= NSB_LANDLOCK_ABI_NET ? "yes" : "no",
			   f->landlock_abi >= NSB_LANDLOCK_ABI_SCOPE ? "yes" : "no");
	else
		nsb_format(c->value, sizeof(c->value), "not available");
	if (!c->ok)
		nsb_format(
			c->fix, sizeof(c->fix),
			"boot Linux 5.13 or later with landlock in lsm= (e.g. lsm=landlock,lockdown,yama,apparmor)");
	else if (f->landlock_abi < NSB_LANDLOCK_ABI_NET)
		nsb_format(
			c->fix, sizeof(c->fix),
			"Linux 6.7 or later lets --isolation landlock switch TCP off; until then it needs --share-net");
}

static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return true;
	return false;
}

static void judge_cgroup(const struct nsb_doctor_facts *f, struct nsb_doctor_report *r)
{
	bool ctl = has_word(f->cgroup_controllers, "memory") &&
		   has_word(f->cgroup_controllers, "pids");
	struct nsb_doctor_check *c = check(r, "cgroup v2", f->cgroup2 && f->cgroup_writable && ctl);

	if (!f->cgroup2) {
		nsb_format(c->value, sizeof(c->value),
			   "no cgroup2 mount (limits fall back to rlimits)");
		nsb_format(
			c->fix, sizeof(c->fix),
			"mount -t cgroup2 none /sys/fs/cgroup (or boot with systemd.unified_cgroup_hierarchy=1)");
		c->info = true;
		return;
	}
	/* Truncation only shortens a line. */
	(void)nsb_snprintf(c->value, sizeof(c->value),
			   "at %s; own cgroup %s; controllers: %s; can create a child: %s",
			   f->cgroup_mount, f->cgroup_own[0] ? f->cgroup_own : "unknown",
			   f->cgroup_controllers[0] ? f->cgroup_controllers : "none",
			   f->cgroup_writable ? "yes" : "no");
	if (c->ok)
		nsb_format(c->fix, sizeof(c->fix), "--cgroup-parent %s", f->cgroup_own);
	else if (f->uid != 0 && f->systemd_run)
		nsb_format(
			c->fix, sizeof(c->fix),
			"systemd-run --user --scope -p Delegate=yes -- nsbox ... gives a delegated cgroup");
	else if (f->cgroup_writable)
		nsb_format(
			c->fix, sizeof(c->fix),
			"enable memory and pids for this cgroup's children (cgroup.subtree_control), or choose --cgroup-parent");
	else
		nsb_format(
			c->fix, sizeof(c->fix),
			"give this user a delegated cgroup (systemd: Delegate=yes) and name it with --cgroup-parent");
	/* Limits still work through rlimits: not a failure of the sandbox. */
	c->info = true;
}

void nsb_doctor_judge(const struct nsb_doctor_facts *f, struct nsb_doctor_report *ret)
{
	struct nsb_doctor_report r;
	bool full, landlock;

	memset(&r, 0, sizeof(r));
	judge_kernel(f, &r);
	judge_userns(f, &r);
	judge_apparmor(f, &r);
	judge_caller(f, &r);
	judge_cgroup(f, &r);

	/* The sandbox needs the mount API inside the namespaces, and seccomp
	 * in either mode. */
	full = nsb_doctor_userns_ok(f) && f->mount_api && f->seccomp_filter;
	landlock = f->landlock_abi >= 1 && f->seccomp_filter;
	r.landlock_net = f->landlock_abi >= NSB_LANDLOCK_ABI_NET;
	r.isolation_default = full ? "namespaces" : "none";
	r.isolation_auto = full ? "namespaces" : landlock ? "landlock" : "none";
	r.exit_code = full ? NSB_DOCTOR_FULL : landlock ? NSB_DOCTOR_DEGRADED : NSB_DOCTOR_NONE;

	struct nsb_doctor_check *c = check(&r, "isolation", full);
	nsb_format(c->value, sizeof(c->value), "default: %s; with --isolation auto: %s%s",
		   r.isolation_default, r.isolation_auto,
		   landlock && !r.landlock_net ? " (only with --share-net: no TCP rules)" : "");
	if (!full && landlock)
		nsb_format(
			c->fix, sizeof(c->fix),
			"fix the user namespace line above, or run with --isolation landlock (weaker: see nsbox(1) ISOLATION MODES)");
	else if (!full)
		nsb_format(c->fix, sizeof(c->fix),
			   "fix the user namespace line above; Landlock is not available either");
	*ret = r;
}

void nsb_doctor_print(FILE *out, const struct nsb_doctor_facts *f,
		      const struct nsb_doctor_report *r)
{
	(void)f;
	for (size_t i = 0; i < r->n_checks; i++) {
		const struct nsb_doctor_check *c = &r->checks[i];
		const char *mark = c->ok ? "ok" : c->info ? "note" : "FAIL";

		fprintf(out, "%-22s %-4s  %s\n", c->name, mark, c->value);
		if (c->fix[0] && (!c->ok || c->info))
			fprintf(out, "%-22s       fix: %s\n", "", c->fix);
	}
	fprintf(out, "verdict: %s\n",
		r->exit_code == NSB_DOCTOR_FULL ? "the full sandbox is available (exit 0)"
		: r->exit_code == NSB_DOCTOR_DEGRADED
			? "only --isolation landlock works here (exit 1)"
			: "nsbox cannot run here (exit 2)");
}

static void json_str_or_null(struct nsb_json *j, const char *key, const char *s)
{
	nsb_json_key(j, key);
	if (s && *s)
		nsb_json_string(j, s);
	else
		nsb_json_null(j);
}

/* The raw facts, so that a program can judge for itself. */
static void json_facts(struct nsb_json *j, const struct nsb_doctor_facts *f)
{
	nsb_json_key(j, "facts");
	nsb_json_begin_object(j);
	json_str_or_null(j, "kernel", f->kernel);
	nsb_json_put_uint(j, "uid", f->uid);
	nsb_json_put_opt_int(j, "max_user_namespaces", f->max_user_namespaces);
	nsb_json_put_opt_int(j, "unprivileged_userns_clone", f->unprivileged_userns);
	nsb_json_put_opt_int(j, "apparmor_restrict_unprivileged_userns", f->apparmor_restrict);
	nsb_json_put_bool(j, "apparmor_enabled", f->apparmor_enabled);
	nsb_json_put_bool(j, "apparmor_profile_loaded", f->apparmor_profile_loaded);
	nsb_json_put_opt_int(j, "seccomp_mode", f->seccomp_mode);
	nsb_json_put_bool(j, "userns_ok", f->userns_errno == 0);
	json_str_or_null(j, "userns_errno",
			 f->userns_errno ? nsb_errno_name(f->userns_errno) : NULL);
	json_str_or_null(j, "userns_step", f->userns_errno ? f->userns_step : NULL);
	json_str_or_null(j, "container", f->container);
	nsb_json_put_bool(j, "mount_api", f->mount_api);
	nsb_json_put_bool(j, "seccomp_filter", f->seccomp_filter);
	nsb_json_put_bool(j, "seccomp_notify", f->seccomp_notify);
	nsb_json_put_int(j, "landlock_abi", f->landlock_abi);
	nsb_json_put_bool(j, "cgroup2", f->cgroup2);
	json_str_or_null(j, "cgroup_mount", f->cgroup_mount);
	json_str_or_null(j, "cgroup_own", f->cgroup_own);
	nsb_json_put_bool(j, "cgroup_writable", f->cgroup_writable);
	json_str_or_null(j, "cgroup_controllers", f->cgroup_controllers);
	nsb_json_end_object(j);
}

void nsb_doctor_json(struct nsb_json *j, const struct nsb_doctor_facts *f,
		     const struct nsb_doctor_report *r)
{
	nsb_json_begin_object(j);
	nsb_json_put_int(j, "schema", NSB_DOCTOR_SCHEMA);
	nsb_json_put_int(j, "exit_code", r->exit_code);
	nsb_json_key(j, "isolation");
	nsb_json_begin_object(j);
	nsb_json_put_str(j, "default", r->isolation_default);
	nsb_json_put_str(j, "auto", r->isolation_auto);
	nsb_json_put_bool(j, "landlock_net", r->landlock_net);
	nsb_json_end_object(j);
	nsb_json_key(j, "checks");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < r->n_checks; i++) {
		const struct nsb_doctor_check *c = &r->checks[i];

		nsb_json_begin_object(j);
		nsb_json_put_str(j, "name", c->name);
		nsb_json_put_bool(j, "ok", c->ok);
		nsb_json_put_bool(j, "info", c->info);
		nsb_json_put_str(j, "value", c->value);
		json_str_or_null(j, "fix", c->fix);
		nsb_json_end_object(j);
	}
	nsb_json_end_array(j);
	json_facts(j, f);
	nsb_json_end_object(j);
	nsb_json_newline(j);
}
