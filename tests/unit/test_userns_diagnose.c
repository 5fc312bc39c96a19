// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsb_userns_diagnose() against fake /proc trees: one tree per test, built
 * in a temporary directory, holding only the files the case needs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "supervisor/userns.h"

/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], dir[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	/* mkdir -p of every parent. */
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		cr_assert(mkdir(dir, 0755) == 0 || errno == EEXIST, "mkdir %s: %m", dir);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "create %s: %m", path);
	fputs(text, f);
	cr_assert(fclose(f) == 0);
}

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/nsb-diag-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_expect(system(cmd) == 0);
}

/* A host where nothing blocks user namespaces. */
static void healthy(void)
{
	put("sys/user/max_user_namespaces", "63412\n");
	put("self/status", "Name:\tnsbox\nNoNewPrivs:\t0\nSeccomp:\t0\nSeccomp_filters:\t0\n");
}

static const char seccomp_status[] =
	"Name:\tnsbox\nNoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t1\n";

TestSuite(userns_diagnose, .init = setup, .fini = teardown);

Test(userns_diagnose, max_user_namespaces_zero)
{
	struct nsb_error e = {};

	put("sys/user/max_user_namespaces", "0\n");
	put("self/status", "Seccomp:\t0\n");
	cr_assert(eq(int, nsb_userns_diagnose(ENOSPC, root, &e), -ENOSPC));
	cr_expect(eq(int, e.err, ENOSPC));
	cr_expect(eq(str, nsb_stage_name(e.stage), "userns"));
	cr_expect(eq(str, e.message,
		     "cannot use a user namespace: user namespaces are disabled "
		     "(user.max_user_namespaces is 0): No space left on device"));
	cr_expect(eq(str, e.hint, "enable them: sysctl -w user.max_user_namespaces=15000"));
	/* Zero is the cause, not a count limit being reached. */
	cr_expect_null(strstr(e.message, "limit was reached"));
}

Test(userns_diagnose, debian_unprivileged_clone_off)
{
	struct nsb_error e = {};

	healthy();
	put("sys/kernel/unprivileged_userns_clone", "0\n");
	cr_assert(eq(int, nsb_userns_diagnose(-EPERM, root, &e), -EPERM));
	cr_expect(eq(str, e.message,
		     "cannot use a user namespace: unprivileged user namespaces are disabled "
		     "(kernel.unprivileged_userns_clone is 0): Operation not permitted"));
	cr_expect(eq(str, e.hint, "allow them: sysctl -w kernel.unprivileged_userns_clone=1"));
}

Test(userns_diagnose, debian_unprivileged_clone_on_is_not_a_cause)
{
	struct nsb_error e = {};

	healthy();
	put("sys/kernel/unprivileged_userns_clone", "1\n");
	cr_assert(eq(int, nsb_userns_diagnose(EPERM, root, &e), -EPERM));
	cr_expect_null(strstr(e.message, "are disabled"));
	cr_expect_not_null(strstr(e.message, "kernel.unprivileged_userns_clone = 1"));
}

Test(userns_diagnose, ubuntu_apparmor_restriction)
{
	struct nsb_error e = {};

	healthy();
	put("sys/kernel/apparmor_restrict_unprivileged_userns", "1\n");
	cr_assert(eq(int, nsb_userns_diagnose(EACCES, root, &e), -EACCES));
	cr_expect_not_null(strstr(e.message,
				  "AppArmor restricts unprivileged user namespaces "
				  "(kernel.apparmor_restrict_unprivileged_userns is 1)"));
	cr_expect_not_null(strstr(e.message, "'userns,'"));
	cr_expect_not_null(strstr(e.message, ": Permission denied"));
	cr_expect_not_null(strstr(e.hint, "'userns,'"));
	cr_expect_not_null(strstr(e.hint, "apparmor_parser -r /etc/apparmor.d/nsbox"));
	cr_expect_not_null(
		strstr(e.hint, "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"));
}

Test(userns_diagnose, seccomp_filter_with_eperm)
{
	struct nsb_error e = {};

	put("sys/user/max_user_namespaces", "63412\n");
	put("self/status", seccomp_status);
	cr_assert(eq(int, nsb_userns_diagnose(EPERM, root, &e), -EPERM));
	cr_expect(eq(str, e.message,
		     "cannot use a user namespace: a seccomp filter (probably the container "
		     "runtime's) blocks user namespaces (Seccomp: 2 in /proc/self/status): "
		     "Operation not permitted"));
	cr_expect_not_null(strstr(e.hint, "seccomp profile that allows clone, clone3 and unshare"));
}

Test(userns_diagnose, seccomp_filter_with_enosys)
{
	struct nsb_error e = {};

	put("self/status", seccomp_status);
	cr_assert(eq(int, nsb_userns_diagnose(ENOSYS, root, &e), -ENOSYS));
	cr_expect_not_null(
		strstr(e.message, "a seccomp filter (probably the container runtime's)"));
	cr_expect_not_null(strstr(e.message, ": Function not implemented"));
}

/* A filter is present but the errno is not one a filter gives: not blamed. */
Test(userns_diagnose, seccomp_filter_not_blamed_for_enospc)
{
	struct nsb_error e = {};

	put("sys/user/max_user_namespaces", "100\n");
	put("self/status", seccomp_status);
	cr_assert(eq(int, nsb_userns_diagnose(ENOSPC, root, &e), -ENOSPC));
	cr_expect_null(strstr(e.message, "seccomp"));
	cr_expect(eq(str, e.message,
		     "cannot use a user namespace: the user namespace limit was reached "
		     "(user.max_user_namespaces is 100, or nesting is deeper than 32): "
		     "No space left on device"));
	cr_expect_not_null(strstr(e.hint, "sysctl -w user.max_user_namespaces=N"));
}

Test(userns_diagnose, enospc_without_sysctl_file)
{
	struct nsb_error e = {};

	put("self/status", "Seccomp:\t0\n");
	cr_assert(eq(int, nsb_userns_diagnose(ENOSPC, root, &e), -ENOSPC));
	cr_expect_not_null(strstr(e.message, "the user namespace limit was reached"));
}

Test(userns_diagnose, several_causes_are_all_named)
{
	struct nsb_error e = {};

	put("sys/user/max_user_namespaces", "0\n");
	put("sys/kernel/unprivileged_userns_clone", "0\n");
	put("sys/kernel/apparmor_restrict_unprivileged_userns", "1\n");
	put("self/status", seccomp_status);
	cr_assert(eq(int, nsb_userns_diagnose(EPERM, root, &e), -EPERM));
	const char *m = e.message;
	const char *a = strstr(m, "user.max_user_namespaces is 0");
	const char *b = strstr(m, "kernel.unprivileged_userns_clone is 0");
	const char *c = strstr(m, "AppArmor restricts");
	const char *d = strstr(m, "a seccomp filter");
	cr_assert(a && b && c && d, "every cause named: %s", m);
	cr_expect(a < b && b < c && c < d, "causes in check order: %s", m);
	cr_expect_not_null(strstr(e.hint, "user.max_user_namespaces=15000; allow them: sysctl -w "
					  "kernel.unprivileged_userns_clone=1; "));
	cr_expect_not_null(strstr(e.hint, "seccomp profile"));
}

Test(userns_diagnose, nothing_found_lists_what_was_checked)
{
	struct nsb_error e = {};

	healthy();
	put("sys/kernel/apparmor_restrict_unprivileged_userns", "0\n");
	cr_assert(eq(int, nsb_userns_diagnose(EPERM, root, &e), -EPERM));
	char want[1024];
	snprintf(want, sizeof(want),
		 "cannot use a user namespace, and no known cause was found (checked under "
		 "'%s': user.max_user_namespaces = 63412, kernel.unprivileged_userns_clone absent, "
		 "kernel.apparmor_restrict_unprivileged_userns = 0, Seccomp in self/status = 0): "
		 "Operation not permitted",
		 root);
	cr_expect(eq(str, e.message, want));
	cr_expect_not_null(strstr(e.hint, "unprivileged user namespaces"));
}

Test(userns_diagnose, empty_tree_never_says_only_eperm)
{
	struct nsb_error e = {};

	cr_assert(eq(int, nsb_userns_diagnose(EPERM, root, &e), -EPERM));
	cr_expect_not_null(strstr(e.message, "no known cause was found"));
	cr_expect_not_null(strstr(e.message, "user.max_user_namespaces absent"));
	cr_expect_not_null(strstr(e.message, "Seccomp in self/status absent"));
}

Test(userns_diagnose, malformed_sysctl_is_reported_not_guessed)
{
	struct nsb_error e = {};

	healthy();
	put("sys/kernel/unprivileged_userns_clone", "zero\n");
	cr_assert(eq(int, nsb_userns_diagnose(EPERM, root, &e), -EPERM));
	cr_expect_not_null(strstr(
		e.message, "kernel.unprivileged_userns_clone unreadable (Invalid argument)"));
}

Test(userns_diagnose, einval_without_userns_support)
{
	struct nsb_error e = {};

	healthy();
	cr_assert(eq(int, nsb_userns_diagnose(EINVAL, root, &e), -EINVAL));
	cr_expect_not_null(strstr(e.message, "this kernel has no user namespace support"));
	cr_expect(eq(str, e.hint, "use a kernel built with CONFIG_USER_NS=y"));
}

Test(userns_diagnose, einval_with_userns_support_is_general)
{
	struct nsb_error e = {};

	healthy();
	put("self/ns/user", "");
	cr_assert(eq(int, nsb_userns_diagnose(EINVAL, root, &e), -EINVAL));
	cr_expect_not_null(strstr(e.message, "no known cause was found"));
	cr_expect_not_null(strstr(e.message, ": Invalid argument"));
}

Test(userns_diagnose, null_error_still_returns_original_errno)
{
	put("sys/user/max_user_namespaces", "0\n");
	cr_assert(eq(int, nsb_userns_diagnose(-ENOSPC, root, NULL), -ENOSPC));
	cr_assert(eq(int, nsb_userns_diagnose(0, root, NULL), -EIO));
}

/* The real /proc of this host: whatever it says, the message is not bare. */
Test(userns_diagnose, real_proc_gives_a_sentence)
{
	struct nsb_error e = {};

	cr_assert(eq(int, nsb_userns_diagnose(EPERM, "/proc", &e), -EPERM));
	cr_expect(eq(str, nsb_stage_name(e.stage), "userns"));
	cr_expect(strncmp(e.message, "cannot use a user namespace", 27) == 0, "%s", e.message);
	cr_expect_not_null(strstr(e.message, "user.max_user_namespaces"));
	cr_expect_neq(strlen(e.hint), 0);
}
