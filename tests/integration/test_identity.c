// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Identity and namespaces, as the kernel reports them inside the sandbox:
 * uid/gid maps, capabilities, no_new_privs, the PID namespace, the session
 * and the UTS namespace.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness.h"

#define ZERO_CAPS "0000000000000000"

NSB_ITEST(identity, uid_and_gid_map_to_the_caller_only)
{
	struct itest_run r;
	char map[64], id[16];

	ITEST_RUN(&r, "--", "./probe", "maps");
	ITEST_ASSERT_EXIT(&r, 0);
	/* One line: the caller's id mapped to itself, nothing else. */
	snprintf(map, sizeof(map), "%u %u 1", itest_cur.uid, itest_cur.uid);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "uid_map"), map);
	snprintf(map, sizeof(map), "%u %u 1", itest_cur.gid, itest_cur.gid);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "gid_map"), map);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "setgroups"), "deny");
	itest_run_close(&r);

	ITEST_RUN(&r, "--", "./probe", "status");
	ITEST_ASSERT_EXIT(&r, 0);
	snprintf(id, sizeof(id), "%u", itest_cur.uid);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "uid"), id);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "euid"), id);
	snprintf(id, sizeof(id), "%u", itest_cur.gid);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "gid"), id);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "egid"), id);
	/* No supplementary groups survive into the sandbox. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.Groups"), "");
	itest_run_close(&r);
}

NSB_ITEST(identity, payload_and_init_hold_no_capability_and_no_new_privs)
{
	static const char *const sets[] = {"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"};
	struct itest_run r;
	char key[32];

	ITEST_RUN(&r, "--", "./probe", "status");
	ITEST_ASSERT_EXIT(&r, 0);
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		snprintf(key, sizeof(key), "self.%s", sets[i]);
		ITEST_EXPECT_STR(&r, itest_kv(r.out, key), ZERO_CAPS);
		snprintf(key, sizeof(key), "pid1.%s", sets[i]);
		ITEST_EXPECT_STR(&r, itest_kv(r.out, key), ZERO_CAPS);
	}
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.NoNewPrivs"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "pid1.NoNewPrivs"), "1");
	/* init is one thread, the filtered one: no thread of it with init's
	 * capabilities and no filter lives beside the payload. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "pid1.Threads"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "pid1.Seccomp"), "2");
	itest_run_close(&r);
}

/* This process's CPUs as the kernel writes them (Cpus_allowed_list). */
static void own_cpu_list(char buf[static 256])
{
	char line[512];
	FILE *f = fopen("/proc/self/status", "re");

	cr_assert(f != NULL, "open /proc/self/status");
	buf[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Cpus_allowed_list: %255s", buf) == 1)
			break;
	fclose(f);
	cr_assert(buf[0] != 0, "no Cpus_allowed_list in /proc/self/status");
}

NSB_ITEST(identity, init_and_the_command_keep_the_callers_cpus)
{
	/* init and the command run where the caller may: all its CPUs, its
	 * first one alone, its last one alone (nsbox sets no affinity of its
	 * own). */
	cpu_set_t caller, want;
	char list[256];
	int first = -1, last = -1;

	cr_assert(sched_getaffinity(0, sizeof(caller), &caller) == 0);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &caller)) {
			first = first < 0 ? c : first;
			last = c;
		}
	cr_assert(first >= 0);
	for (int i = 0; i < 3; i++) {
		struct itest_run r;

		want = caller;
		if (i > 0) {
			CPU_ZERO(&want);
			CPU_SET(i == 1 ? first : last, &want);
		}
		cr_assert(sched_setaffinity(0, sizeof(want), &want) == 0);
		own_cpu_list(list);
		ITEST_RUN(&r, "--", "./probe", "status");
		cr_assert(sched_setaffinity(0, sizeof(caller), &caller) == 0);
		ITEST_ASSERT_EXIT(&r, 0);
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.Cpus_allowed_list"), list);
		ITEST_EXPECT_STR(&r, itest_kv(r.out, "pid1.Cpus_allowed_list"), list);
		itest_run_close(&r);
	}
}

NSB_ITEST(identity, privileged_operations_fail_inside)
{
	struct itest_run r;

	/* Even a root caller gains nothing inside: each of these needs a capability. */
	ITEST_RUN(&r, "--", "./probe", "priv");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "sethostname"), "EPERM");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "unshare_mnt"), "EPERM");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "chroot"), "EPERM");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "raw_socket"), "EPERM");
	itest_run_close(&r);
}

NSB_ITEST(identity, pid1_is_init_and_only_sandbox_processes_are_visible)
{
	struct itest_run r;

	ITEST_RUN(&r, "--", "./probe", "status");
	ITEST_ASSERT_EXIT(&r, 0);
	/* The command is pid 2, a child of nsbox's init. */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "pid"), "2");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ppid"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "pid1.PPid"), "0");
	itest_run_close(&r);

	/* /proc is the new namespace's: init and the probe, nothing of the host. */
	ITEST_RUN(&r, "--", "./probe", "pids");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "pids"), "1 2");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "comm.2"), "probe");
	ITEST_EXPECT_NE_STR(&r, itest_kv(r.out, "comm.1"), "probe");
	itest_run_close(&r);
}

NSB_ITEST(identity, payload_leads_a_new_session_without_controlling_tty)
{
	struct itest_run r;
	struct itest_opts o = {.pty = true};

	/* nsbox is started on a pty it holds as controlling terminal: the
	 * payload must not be able to reach it through /dev/tty. */
	itest_run(&itest_cur, &o, ITEST_ARGV("--", "./probe", "sid"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "session_leader"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "tty"), "ENXIO");
	itest_run_close(&r);
}

NSB_ITEST(identity, hostname_defaults_to_nsbox_and_follows_the_option)
{
	struct itest_run r;
	struct utsname before, after;

	cr_assert(uname(&before) == 0);
	ITEST_RUN(&r, "--", "./probe", "hostname");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "hostname"), "nsbox");
	itest_run_close(&r);

	ITEST_RUN(&r, "--hostname", "build-42", "--", "./probe", "hostname");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "hostname"), "build-42");
	itest_run_close(&r);

	/* The host's own name is untouched (a separate UTS namespace). */
	cr_assert(uname(&after) == 0);
	cr_expect(strcmp(after.nodename, before.nodename) == 0, "host hostname changed to '%s'",
		  after.nodename);
}
