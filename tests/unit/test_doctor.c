// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsbox doctor's verdicts (core/doctor.c) on fact sets recorded on the hosts
 * nsbox meets: Ubuntu 24.04 with its AppArmor restriction (with and without
 * nsbox's profile), Docker's default seccomp profile, rootless Podman, WSL2,
 * Debian 12 (unprivileged_userns_clone), a host with user.max_user_namespaces
 * at 0, and this test host.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "core/doctor.h"
#include "json_check.h"
#include "unit.h"

/* A healthy modern host as the base; each case changes what its host differs in. */
static struct nsb_doctor_facts base(void)
{
	struct nsb_doctor_facts f = {
		.uid = 1000,
		.max_user_namespaces = 63412,
		.unprivileged_userns = -1,
		.apparmor_restrict = -1,
		.seccomp_mode = 0,
		.mount_api = true,
		.seccomp_filter = true,
		.seccomp_notify = true,
		.landlock_abi = 6,
		.cgroup2 = true,
		.cgroup_writable = true,
		.systemd_run = true,
	};
	snprintf(f.kernel, sizeof(f.kernel), "6.8.0-45-generic");
	snprintf(f.cgroup_mount, sizeof(f.cgroup_mount), "/sys/fs/cgroup");
	snprintf(f.cgroup_own, sizeof(f.cgroup_own),
		 "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice");
	snprintf(f.cgroup_controllers, sizeof(f.cgroup_controllers), "cpu memory pids");
	return f;
}

static void blocked(struct nsb_doctor_facts *f, int err, const char *step)
{
	f->userns_errno = err;
	snprintf(f->userns_step, sizeof(f->userns_step), "%s", step);
}

static const struct nsb_doctor_check *find(const struct nsb_doctor_report *r, const char *name)
{
	for (size_t i = 0; i < r->n_checks; i++)
		if (strcmp(r->checks[i].name, name) == 0)
			return &r->checks[i];
	cr_assert_not_null(NULL, "no check named '%s'", name);
	return NULL;
}

static bool has(const char *s, const char *needle)
{
	return strstr(s, needle) != NULL;
}

Test(doctor, healthy_host_gets_the_full_sandbox)
{
	struct nsb_doctor_facts f = base();
	struct nsb_doctor_report r;

	nsb_doctor_judge(&f, &r);
	cr_assert(eq(int, r.exit_code, NSB_DOCTOR_FULL));
	expect_str(r.isolation_default, "namespaces");
	expect_str(r.isolation_auto, "namespaces");
	cr_expect(find(&r, "user namespaces")->ok);
	cr_expect(find(&r, "cgroup v2")->ok);
	cr_expect(has(find(&r, "cgroup v2")->fix, "--cgroup-parent /sys/fs/cgroup/user.slice"));
}

Test(doctor, ubuntu_2404_restriction_without_profile)
{
	struct nsb_doctor_facts f = base();
	struct nsb_doctor_report r;

	f.apparmor_restrict = 1;
	f.apparmor_enabled = true;
	/* Ubuntu lets the unshare through and refuses the id maps. */
	blocked(&f, EPERM, "uid_map");
	nsb_doctor_judge(&f, &r);
	cr_assert(eq(int, r.exit_code, NSB_DOCTOR_DEGRADED));
	expect_str(r.isolation_default, "none");
	expect_str(r.isolation_auto, "landlock");
	const struct nsb_doctor_check *u = find(&r, "user namespaces");
	cr_expect_not(u->ok);
	cr_expect(has(u->value, "uid_map: EPERM"), "%s", u->value);
	cr_expect(has(u->value, "AppArmor restricts"), "%s", u->value);
	cr_expect(has(u->fix, "apparmor_parser -r /etc/apparmor.d/nsbox"), "%s", u->fix);
	cr_expect_not(find(&r, "apparmor")->ok);
}

Test(doctor, ubuntu_2404_with_the_profile_loaded)
{
	struct nsb_doctor_facts f = base();
	struct nsb_doctor_report r;

	f.apparmor_restrict = 1;
	f.apparmor_enabled = true;
	f.apparmor_profile_loaded = true;
	nsb_doctor_judge(&f, &r);
	cr_assert(eq(int, r.exit_code, NSB_DOCTOR_FULL));
	cr_expect(find(&r, "apparmor")->ok);
	cr_expect(has(find(&r, "apparmor")->value, "nsbox profile loaded"));
}

Test(doctor, docker_default_seccomp_profile)
{
	struct nsb_doctor_facts f = base();
	struct nsb_doctor_report r;

	f.uid = 0;
	f.seccomp_mode = 2;
	f.landlock_abi = 4;
	f.cgroup_writable = false;
	snprintf(f.container, sizeof(f.container), "/.dockerenv exists");
	blocked(&f, EPERM, "unshare");
	nsb_doctor_judge(&f, &r);
	cr_assert(eq(int, r.exit_code, NSB_DOCTOR_DEGRADED));
	const struct nsb_doctor_check *u = find(&r, "user namespaces");
	cr_expect(has(u->value, "seccomp filter"), "%s", u->value);
	cr_expect(has(u->value, "inside a container (/.dockerenv exists)"), "%s", u->value);
	cr_expect(has(u->fix, "--security-opt seccomp="), "%s", u->fix);
	cr_expect_not(find(&r, "container")->ok);
}

Test(doctor, rootless_podman_nested_userns_works)
{
	struct nsb_doctor_facts f = base();
	struct nsb_doctor_report r;

	f.uid = 0; /* root of the rootless user namespace */
	snprintf(f.container, sizeof(f.container), "/run/.containerenv exists; container=podman");
	f.cgroup_writable = false;
	snprintf(f.cgroup_controllers, sizeof(f.cgroup_controllers), "%s", "");
	nsb_doctor_judge(&f, &r);
	cr_assert(eq(int, r.exit_code, NSB_DOCTOR_FULL));
	/* The cgroup is a note, not a failure: limits fall back to rlimits. */
	cr_expect(find(&r, "cgroup v2")->info);
	cr_expect_not(find(&r, "cgroup v2")->ok);
}

Test(doctor, wsl2_without_landlock_in_lsm)
{
	struct nsb_doctor_facts f = base();
	struct nsb_doctor_report r;

	snprintf(f.kernel, sizeof(f.kernel), "5.15.153.1-microsoft-standard-WSL2");
	f.landlock_abi = 0;
	f.cgroup2 = false;
	nsb_doctor_judge(&f, &r);
	cr_assert(eq(int, r.exit_code, NSB_DOCTOR_FULL));
	cr_expect_not(find(&r, "landlock")->ok);
	cr_expect(has(find(&r, "landlock")->fix, "lsm="));
	cr_expect(has(find(&r, "cgroup v2")->fix, "mount -t cgroup2"));
	expect_str(r.isolation_auto, "namespaces");
}

Test(doctor, debian12_unprivileged_clone_off)
{
	struct nsb_doctor_facts f = base();
	struct nsb_doctor_report r;

	snprintf(f.kernel, sizeof(f.kernel), "6.1.0-25-amd64");
	f.unprivileged_userns = 0;
	f.landlock_abi = 0; /* Debian 12 builds Landlock but leaves it out of lsm= */
	blocked(&f, EPERM, "unshare");
	nsb_doctor_judge(&f, &r);
	cr_assert(eq(int, r.exit_code, NSB_DOCTOR_NONE));
	expect_str(r.isolation_auto, "none");
	cr_expect(has(find(&r, "user namespaces")->fix,
		      "sysctl -w kernel.unprivileged_userns_clone=1"));
	cr_expect(has(find(&r, "isolation")->fix, "Landlock is not available"));
}

Test(doctor, max_user_namespaces_zero_with_old_landlock)
{
	struct nsb_doctor_facts f = base();
	struct nsb_doctor_report r;

	f.max_user_namespaces = 0;
	f.landlock_abi = 3;
	blocked(&f, ENOSPC, "unshare");
	nsb_doctor_judge(&f, &r);
	cr_assert(eq(int, r.exit_code, NSB_DOCTOR_DEGRADED));
	cr_expect_not(r.landlock_net);
	cr_expect(has(find(&r, "user namespaces")->fix, "user.max_user_namespaces=15000"));
	/* ENOSPC at 0 is the switch, not the count. */
	cr_expect_not(has(find(&r, "user namespaces")->value, "limit is reached"));
	cr_expect(has(find(&r, "isolation")->value, "--share-net"));
	cr_expect(has(find(&r, "landlock")->fix, "6.7"));
}

Test(doctor, unknown_cause_still_has_a_fix)
{
	struct nsb_doctor_facts f = base();
	struct nsb_doctor_report r;

	blocked(&f, EACCES, "mount");
	nsb_doctor_judge(&f, &r);
	cr_expect(has(find(&r, "user namespaces")->value, "no known cause"));
	cr_expect(find(&r, "user namespaces")->fix[0] != '\0');
}

/* Every failing line carries a fix, on every recorded host. */
Test(doctor, every_failing_line_has_a_fix)
{
	struct nsb_doctor_facts f = base();
	struct nsb_doctor_report r;

	f.mount_api = false;
	f.seccomp_filter = false;
	f.landlock_abi = 0;
	f.cgroup2 = false;
	f.apparmor_restrict = 1;
	blocked(&f, EPERM, "unshare");
	nsb_doctor_judge(&f, &r);
	cr_assert(eq(int, r.exit_code, NSB_DOCTOR_NONE));
	for (size_t i = 0; i < r.n_checks; i++)
		if (!r.checks[i].ok)
			cr_expect(r.checks[i].fix[0] != '\0', "%s has no fix", r.checks[i].name);
}

/* This test host, as doctor saw it (root, cgroup v1 hybrid, no AppArmor). */
Test(doctor, this_host_json)
{
	struct nsb_doctor_facts f = base();
	struct nsb_doctor_report r;
	struct nsb_json j;
	char *doc = NULL;
	size_t len = 0;

	f.uid = 0;
	snprintf(f.kernel, sizeof(f.kernel), "6.18.44-fc-v669");
	f.max_user_namespaces = 96365;
	f.landlock_abi = 7;
	snprintf(f.cgroup_mount, sizeof(f.cgroup_mount), "/sys/fs/cgroup/unified");
	snprintf(f.cgroup_own, sizeof(f.cgroup_own), "/sys/fs/cgroup/unified");
	snprintf(f.cgroup_controllers, sizeof(f.cgroup_controllers), "hugetlb");
	nsb_doctor_judge(&f, &r);
	nsb_json_init(&j);
	nsb_doctor_json(&j, &f, &r);
	cr_assert(eq(int, nsb_json_finish(&j, &doc, &len), 0));
	cr_expect(json_check(doc, len), "%s", doc);
	cr_expect(
		has(doc, "{\"schema\":1,\"exit_code\":0,\"isolation\":{\"default\":\"namespaces\""),
		"%s", doc);
	cr_expect(has(doc, "\"landlock_abi\":7"));
	cr_expect(has(doc, "\"unprivileged_userns_clone\":null"));
	free(doc);
}

Test(doctor, table_names_the_verdict)
{
	struct nsb_doctor_facts f = base();
	struct nsb_doctor_report r;
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	cr_assert_not_null(out);
	blocked(&f, EPERM, "unshare");
	f.seccomp_mode = 2;
	nsb_doctor_judge(&f, &r);
	nsb_doctor_print(out, &f, &r);
	cr_assert(fclose(out) == 0);
	cr_expect(has(buf, "user namespaces        FAIL  blocked (unshare: EPERM)"), "%s", buf);
	cr_expect(has(buf, "fix: run the container with a seccomp profile"), "%s", buf);
	cr_expect(has(buf, "verdict: only --isolation landlock works here (exit 1)"), "%s", buf);
	free(buf);
}
