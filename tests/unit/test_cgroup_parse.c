// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroup module: the pure parsers with fixture text, and the parent choice
 * and stale cleanup against a fake cgroup tree in a temporary directory.
 * Nothing here touches a real cgroup hierarchy.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "supervisor/cgroup.h"

/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

/* A hybrid host like the build machine: v1 controllers, an empty v2 tree. */
static const char mountinfo_hybrid[] =
	"22 1 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
	"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static const char mountinfo_unified[] =
	"25 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	"33 24 0:28 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 "
	"cgroup2 rw,nsdelegate,memory_recursiveprot\n";

/* A bind of a subtree first, the whole hierarchy later, an escaped space. */
static const char mountinfo_bind[] =
	"50 1 0:28 /user.slice /mnt/cg rw - cgroup2 cgroup2 rw\n"
	"51 1 0:28 / /run/my\\040cg rw shared:3 master:2 - cgroup2 cgroup2 rw\n";

Test(cgroup_parse, mountinfo_finds_unified_tree_on_hybrid_host)
{
	char mnt[PATH_MAX], root[PATH_MAX];
	cr_assert(eq(
		int,
		nsb_cgroup_parse_mountinfo(mountinfo_hybrid, mnt, sizeof(mnt), root, sizeof(root)),
		0));
	cr_expect(eq(str, mnt, "/sys/fs/cgroup/unified"));
	cr_expect(eq(str, root, "/"));
}

Test(cgroup_parse, mountinfo_unified)
{
	char mnt[PATH_MAX], root[PATH_MAX];
	cr_assert(eq(
		int,
		nsb_cgroup_parse_mountinfo(mountinfo_unified, mnt, sizeof(mnt), root, sizeof(root)),
		0));
	cr_expect(eq(str, mnt, "/sys/fs/cgroup"));
}

Test(cgroup_parse, mountinfo_prefers_whole_hierarchy_and_unescapes)
{
	char mnt[PATH_MAX], root[PATH_MAX];
	cr_assert(
		eq(int,
		   nsb_cgroup_parse_mountinfo(mountinfo_bind, mnt, sizeof(mnt), root, sizeof(root)),
		   0));
	cr_expect(eq(str, mnt, "/run/my cg"));
	cr_expect(eq(str, root, "/"));
}

Test(cgroup_parse, mountinfo_without_cgroup2)
{
	char mnt[PATH_MAX], root[PATH_MAX];
	cr_assert(eq(int,
		     nsb_cgroup_parse_mountinfo("1 0 0:1 / / rw - ext4 /dev/x rw\n", mnt,
						sizeof(mnt), root, sizeof(root)),
		     -ENOENT));
	cr_assert(eq(int, nsb_cgroup_parse_mountinfo("", mnt, sizeof(mnt), root, sizeof(root)),
		     -ENOENT));
}

Test(cgroup_parse, mountinfo_small_buffer)
{
	char mnt[4], root[PATH_MAX];
	cr_assert(eq(
		int,
		nsb_cgroup_parse_mountinfo(mountinfo_unified, mnt, sizeof(mnt), root, sizeof(root)),
		-ENAMETOOLONG));
}

Test(cgroup_parse, proc_cgroup_v2_line)
{
	char p[PATH_MAX];
	cr_assert(eq(int,
		     nsb_cgroup_parse_proc_cgroup("4:memory:/x\n0::/user.slice/a b.scope\n", p,
						  sizeof(p)),
		     0));
	cr_expect(eq(str, p, "/user.slice/a b.scope"));
	cr_assert(eq(int, nsb_cgroup_parse_proc_cgroup("0::/", p, sizeof(p)), 0));
	cr_expect(eq(str, p, "/"));
}

Test(cgroup_parse, proc_cgroup_v1_only)
{
	char p[PATH_MAX];
	cr_expect(eq(int, nsb_cgroup_parse_proc_cgroup("4:memory:/x\n", p, sizeof(p)), -ENOENT));
	cr_expect(eq(int, nsb_cgroup_parse_proc_cgroup("0::\n", p, sizeof(p)), -EINVAL));
}

Test(cgroup_parse, join_paths)
{
	char out[PATH_MAX];
	cr_assert(eq(int, nsb_cgroup_join("/sys/fs/cgroup", "/", "/a/b", out, sizeof(out)), 0));
	cr_expect(eq(str, out, "/sys/fs/cgroup/a/b"));
	cr_assert(eq(int, nsb_cgroup_join("/sys/fs/cgroup", "/", "/", out, sizeof(out)), 0));
	cr_expect(eq(str, out, "/sys/fs/cgroup"));
	cr_assert(eq(int,
		     nsb_cgroup_join("/mnt/cg", "/user.slice", "/user.slice/x", out, sizeof(out)),
		     0));
	cr_expect(eq(str, out, "/mnt/cg/x"));
	cr_expect(eq(int,
		     nsb_cgroup_join("/mnt/cg", "/user.slice", "/user.slice2/x", out, sizeof(out)),
		     -EXDEV));
	cr_expect(eq(int,
		     nsb_cgroup_join("/mnt/cg", "/user.slice", "/system.slice", out, sizeof(out)),
		     -EXDEV));
}

static const char cpu_stat[] = "usage_usec 1003417\n"
			       "user_usec 1000117\n"
			       "system_usec 3300\n"
			       "core_sched.force_idle_usec 0\n"
			       "nr_periods 21\n"
			       "nr_throttled 20\n"
			       "throttled_usec 1012345\n";

Test(cgroup_parse, cpu_stat_keys)
{
	uint64_t v = 0;
	cr_assert(eq(int, nsb_cgroup_parse_keyed(cpu_stat, "usage_usec", &v), 0));
	cr_expect(eq(u64, v, 1003417));
	cr_assert(eq(int, nsb_cgroup_parse_keyed(cpu_stat, "user_usec", &v), 0));
	cr_expect(eq(u64, v, 1000117));
	cr_assert(eq(int, nsb_cgroup_parse_keyed(cpu_stat, "system_usec", &v), 0));
	cr_expect(eq(u64, v, 3300));
	cr_assert(eq(int, nsb_cgroup_parse_keyed(cpu_stat, "throttled_usec", &v), 0));
	cr_expect(eq(u64, v, 1012345));
	/* A prefix of a key is not the key. */
	cr_expect(eq(int, nsb_cgroup_parse_keyed(cpu_stat, "usage", &v), -ENOENT));
	cr_expect(eq(int, nsb_cgroup_parse_keyed(cpu_stat, "nr_bursts", &v), -ENOENT));
}

Test(cgroup_parse, memory_events_oom_kill)
{
	static const char ev[] = "low 0\nhigh 0\nmax 113\noom 1\noom_kill 1\noom_group_kill 1\n";
	uint64_t v = 99;
	cr_assert(eq(int, nsb_cgroup_parse_keyed(ev, "oom_kill", &v), 0));
	cr_expect(eq(u64, v, 1));
	cr_assert(eq(int, nsb_cgroup_parse_keyed(ev, "max", &v), 0));
	cr_expect(eq(u64, v, 113));
	cr_expect(eq(int, nsb_cgroup_parse_keyed("oom_kill x\n", "oom_kill", &v), -EINVAL));
	cr_expect(eq(int, nsb_cgroup_parse_keyed("oom_kill 99999999999999999999\n", "oom_kill", &v),
		     -ERANGE));
}

Test(cgroup_parse, single_values)
{
	uint64_t v = 0;
	cr_assert(eq(int, nsb_cgroup_parse_value("67108864\n", &v), 0));
	cr_expect(eq(u64, v, 67108864));
	cr_assert(eq(int, nsb_cgroup_parse_value("max\n", &v), 0));
	cr_expect(eq(u64, v, NSB_CGROUP_MAX));
	cr_expect(eq(int, nsb_cgroup_parse_value("\n", &v), -EINVAL));
	cr_expect(eq(int, nsb_cgroup_parse_value("-1\n", &v), -EINVAL));
}

Test(cgroup_parse, controllers_list)
{
	cr_expect(nsb_cgroup_list_has("cpuset cpu io memory pids\n", "cpu"));
	cr_expect(nsb_cgroup_list_has("cpuset cpu io memory pids\n", "pids"));
	cr_expect(not(nsb_cgroup_list_has("cpuset io memory\n", "cpu")));
	cr_expect(not(nsb_cgroup_list_has("\n", "memory")));
	cr_expect(not(nsb_cgroup_list_has("memoryx\n", "memory")));
}

Test(cgroup_parse, cpus_fraction_to_quota)
{
	uint64_t q = 0;
	cr_assert(eq(int, nsb_cgroup_cpus_to_quota("0.5", 100000, &q), 0));
	cr_expect(eq(u64, q, 50000));
	cr_assert(eq(int, nsb_cgroup_cpus_to_quota("2", 100000, &q), 0));
	cr_expect(eq(u64, q, 200000));
	cr_assert(eq(int, nsb_cgroup_cpus_to_quota("1.25", 100000, &q), 0));
	cr_expect(eq(u64, q, 125000));
	cr_assert(eq(int, nsb_cgroup_cpus_to_quota("0.01", 100000, &q), 0));
	cr_expect(eq(u64, q, 1000));
	cr_assert(eq(int, nsb_cgroup_cpus_to_quota("0.333333333", 100000, &q), 0));
	cr_expect(eq(u64, q, 33333));
	cr_assert(eq(int, nsb_cgroup_cpus_to_quota("4096", 1000000, &q), 0));
	cr_expect(eq(u64, q, 4096000000ULL));
}

Test(cgroup_parse, cpus_fraction_rejects)
{
	uint64_t q = 7;
	const char *bad[] = {"",   "0",	 "0.0",	 "0.009",  "-1",	   "+1",
			     ".5", "1.", "1..5", "1.5x",   "1e3",	   "0x10",
			     " 1", "1 ", "4097", "4096.5", "1.0000000001", NULL};
	for (size_t i = 0; bad[i]; i++)
		cr_expect(lt(int, nsb_cgroup_cpus_to_quota(bad[i], 100000, &q), 0), "'%s'", bad[i]);
	cr_expect(eq(u64, q, 7), "ret_ filled on failure");
	cr_expect(eq(int, nsb_cgroup_cpus_to_quota("1", 999, &q), -EINVAL));
}

Test(cgroup_parse, cpu_max_line)
{
	char buf[64];
	cr_assert(gt(int, nsb_cgroup_format_cpu_max(50000, 100000, buf, sizeof(buf)), 0));
	cr_expect(eq(str, buf, "50000 100000"));
	cr_assert(gt(int, nsb_cgroup_format_cpu_max(0, 0, buf, sizeof(buf)), 0));
	cr_expect(eq(str, buf, "max 100000"));
	cr_expect(eq(int, nsb_cgroup_format_cpu_max(50000, 100000, buf, 5), -ENOBUFS));
}

Test(cgroup_parse, run_names)
{
	pid_t pid = 0;
	cr_assert(eq(int, nsb_cgroup_parse_name("nsbox-1234-00ff3a", &pid), 0));
	cr_expect(eq(int, pid, 1234));
	const char *bad[] = {"nsbox-",
			     "nsbox-12",
			     "nsbox-12-",
			     "nsbox-x-ab",
			     "nsbox-12-AB",
			     "nsbox-0-ab",
			     "nsbox-99999999999-ab",
			     "other-12-ab",
			     "sandbox",
			     "nsbox-12-ab/x",
			     NULL};
	for (size_t i = 0; bad[i]; i++)
		cr_expect(eq(int, nsb_cgroup_parse_name(bad[i], &pid), -EINVAL), "'%s'", bad[i]);
}

/* ---- fake tree ---- */

static char tree[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX * 2];
	snprintf(p, sizeof(p), "%s/%s", tree, rel);
	FILE *f = fopen(p, "w");
	cr_assert(not(eq(ptr, f, NULL)), "fopen %s", p);
	fputs(text, f);
	fclose(f);
}

static void mk(const char *rel)
{
	char p[PATH_MAX * 2];
	snprintf(p, sizeof(p), "%s/%s", tree, rel);
	cr_assert(eq(int, mkdir(p, 0755), 0), "mkdir %s", p);
}

/* A cgroup directory with the files the probe reads. */
static void fake_cgroup(const char *rel, const char *avail, const char *enabled, const char *procs,
			bool root)
{
	char f[PATH_MAX];
	if (rel[0])
		mk(rel);
	snprintf(f, sizeof(f), "%s%scgroup.controllers", rel, rel[0] ? "/" : "");
	put(f, avail);
	snprintf(f, sizeof(f), "%s%scgroup.subtree_control", rel, rel[0] ? "/" : "");
	put(f, enabled);
	snprintf(f, sizeof(f), "%s%scgroup.procs", rel, rel[0] ? "/" : "");
	put(f, procs);
	if (!root) {
		snprintf(f, sizeof(f), "%s%scgroup.type", rel, rel[0] ? "/" : "");
		put(f, "domain\n");
	}
}

static struct nsb_cgroup_opts opts;
static struct nsb_cgroup_place pl;
static char mi_path[PATH_MAX + 32], pc_path[PATH_MAX + 32], pcs_path[PATH_MAX + 32];

static void setup_tree(void)
{
	char mi[PATH_MAX * 2];
	snprintf(tree, sizeof(tree), "/tmp/nsb-cgtest-XXXXXX");
	cr_assert(not(eq(ptr, mkdtemp(tree), NULL)));
	fake_cgroup("cg", "cpu memory pids\n", "memory pids\n", "1\n", true);
	fake_cgroup("cg/user", "memory pids\n", "memory pids\n", "", false);
	fake_cgroup("cg/user/session", "memory pids\n", "", "4242\n", false);
	snprintf(mi, sizeof(mi), "33 24 0:28 / %s/cg rw - cgroup2 cgroup2 rw\n", tree);
	put("mountinfo", mi);
	put("self-cgroup", "0::/user/session\n");
	put("cgroups", "#subsys_name\thierarchy\tnum_cgroups\tenabled\n"
		       "cpu\t0\t1\t1\nmemory\t0\t9\t1\npids\t0\t1\t1\nio\t3\t1\t1\n");
	snprintf(mi_path, sizeof(mi_path), "%s/mountinfo", tree);
	snprintf(pc_path, sizeof(pc_path), "%s/self-cgroup", tree);
	snprintf(pcs_path, sizeof(pcs_path), "%s/cgroups", tree);
	opts = (struct nsb_cgroup_opts){.mountinfo_path = mi_path,
					.proc_cgroup_path = pc_path,
					.proc_cgroups_path = pcs_path};
}

static void teardown_tree(void)
{
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	cr_expect(eq(int, system(cmd), 0));
}

TestSuite(cgroup_tree, .init = setup_tree, .fini = teardown_tree);

Test(cgroup_tree, busy_own_cgroup_uses_its_parent)
{
	const char *names[] = {"memory", "pids", NULL};
	struct nsb_error e = {0};
	char up[PATH_MAX * 2];
	cr_assert(eq(int, nsb_cgroup_place(&opts, names, &pl, &e), 0), "%s", e.message);
	snprintf(up, sizeof(up), "%s/cg/user", tree);
	cr_expect(eq(str, pl.parent, up));
}

Test(cgroup_tree, missing_controller_is_named)
{
	const char *names[] = {"memory", "cpu", NULL};
	struct nsb_error e = {0};
	cr_assert(lt(int, nsb_cgroup_place(&opts, names, &pl, &e), 0));
	cr_expect(not(eq(ptr, strstr(e.message, "controller 'cpu' is not available"), NULL)), "%s",
		  e.message);
	cr_expect(not(eq(ptr, strstr(e.hint, "does not delegate 'cpu'"), NULL)), "%s", e.hint);
	cr_expect(eq(str, nsb_stage_name(e.stage), "cgroup"));
}

Test(cgroup_tree, v1_bound_controller_says_hybrid)
{
	const char *names[] = {"io", NULL};
	struct nsb_error e = {0};
	cr_assert(lt(int, nsb_cgroup_place(&opts, names, &pl, &e), 0));
	cr_expect(not(eq(ptr, strstr(e.hint, "cgroup v1 hierarchy"), NULL)), "%s", e.hint);
}

Test(cgroup_tree, parent_option_with_processes_is_refused)
{
	const char *names[] = {"memory", NULL};
	char p[PATH_MAX * 2];
	struct nsb_error e = {0};
	snprintf(p, sizeof(p), "%s/cg/user/session", tree);
	opts.parent = p;
	cr_assert(eq(int, nsb_cgroup_place(&opts, names, &pl, &e), -EBUSY));
	cr_expect(not(eq(ptr, strstr(e.message, "it has processes"), NULL)), "%s", e.message);
}

Test(cgroup_tree, parent_option_outside_mount_is_refused)
{
	struct nsb_error e = {0};
	opts.parent = "/etc";
	cr_assert(eq(int, nsb_cgroup_place(&opts, NULL, &pl, &e), -EINVAL));
	cr_expect(not(eq(ptr, strstr(e.message, "not inside the cgroup2 mount"), NULL)), "%s",
		  e.message);
}

Test(cgroup_tree, no_cgroup2_mount)
{
	struct nsb_error e = {0};
	put("mountinfo", "1 0 0:1 / / rw - ext4 /dev/x rw\n");
	cr_assert(eq(int, nsb_cgroup_place(&opts, NULL, &pl, &e), -ENOENT));
	cr_expect(not(eq(ptr, strstr(e.message, "no cgroup2 filesystem"), NULL)), "%s", e.message);
}

Test(cgroup_tree, stale_runs_of_dead_pids_are_removed)
{
	char parent[PATH_MAX * 2], name[PATH_MAX * 3];
	struct stat st;
	pid_t dead = fork();
	cr_assert(ge(int, dead, 0));
	if (dead == 0)
		_exit(0);
	cr_assert(eq(int, waitpid(dead, NULL, 0), dead));

	snprintf(name, sizeof(name), "cg/user/nsbox-%d-abcdef", (int)dead);
	mk(name);
	snprintf(name, sizeof(name), "cg/user/nsbox-%d-abcdef/sandbox", (int)dead);
	mk(name);
	snprintf(name, sizeof(name), "cg/user/nsbox-%d-0123", (int)getpid());
	mk(name);
	mk("cg/user/nsbox-unrelated");

	snprintf(parent, sizeof(parent), "%s/cg/user", tree);
	struct nsb_error e = {0};
	cr_assert(eq(int, nsb_cgroup_clean_stale(parent, &e), 1), "%s", e.message);
	snprintf(name, sizeof(name), "%s/nsbox-%d-abcdef", parent, (int)dead);
	cr_expect(eq(int, stat(name, &st), -1));
	snprintf(name, sizeof(name), "%s/nsbox-%d-0123", parent, (int)getpid());
	cr_expect(eq(int, stat(name, &st), 0), "own run kept");
	snprintf(name, sizeof(name), "%s/nsbox-unrelated", parent);
	cr_expect(eq(int, stat(name, &st), 0), "foreign name kept");
}

/*
 * This host's own cgroup2 mount: statmount(2) at the usual places (a
 * launch's way, where the kernel has it) names the mount and the caller's
 * cgroup that mountinfo names.  On this machine's hybrid tree
 * /sys/fs/cgroup is a tmpfs and the hierarchy is at /sys/fs/cgroup/unified:
 * the first place must be passed over, not taken.
 */
Test(cgroup_host, statmount_at_the_usual_place_agrees_with_mountinfo)
{
	struct nsb_cgroup_where fast = {0}, slow = {0};
	struct nsb_cgroup_opts of = {.where = &fast};
	struct nsb_cgroup_opts os = {.where = &slow, .mountinfo_path = "/proc/self/mountinfo"};
	struct nsb_cgroup_place place;
	struct nsb_error e = {0};

	/* Placement itself may be refused here (no controllers, no write
	 * access): the mount and the own cgroup are found before that. */
	(void)nsb_cgroup_place(&of, NULL, &place, &e);
	(void)nsb_cgroup_place(&os, NULL, &place, &e);
	cr_assert(slow.valid, "mountinfo names no cgroup2 mount: %s", e.message);
	cr_assert(fast.valid);
	cr_expect(eq(str, fast.mnt, slow.mnt));
	cr_expect(eq(str, fast.own, slow.own));
	cr_expect(not(slow.by_statmount));
	bool has_statmount = syscall(457, NULL, NULL, 0, 0) < 0 && errno != ENOSYS;
	bool usual =
		!strcmp(slow.mnt, "/sys/fs/cgroup") || !strcmp(slow.mnt, "/sys/fs/cgroup/unified");
	cr_expect(eq(int, fast.by_statmount, has_statmount &&usual),
		  "statmount %s, mount '%s', found by statmount: %d",
		  has_statmount ? "available" : "missing", slow.mnt, fast.by_statmount);
	nsb_cgroup_where_free(&fast);
	nsb_cgroup_where_free(&slow);
}

/* The same as an unprivileged user (uid 65534, in a child): statmount asks
 * nothing a user may not, and a user's run takes the same way. */
Test(cgroup_host, statmount_agrees_with_mountinfo_for_a_user)
{
	pid_t pid = fork();
	int st;

	cr_assert(pid >= 0);
	if (pid == 0) {
		struct nsb_cgroup_where fast = {0}, slow = {0};
		struct nsb_cgroup_opts of = {.where = &fast};
		struct nsb_cgroup_opts os = {.where = &slow,
					     .mountinfo_path = "/proc/self/mountinfo"};
		struct nsb_cgroup_place place;
		struct nsb_error e = {0};
		bool has_statmount = syscall(457, NULL, NULL, 0, 0) < 0 && errno != ENOSYS;

		if (setresgid(65534, 65534, 65534) < 0 || setresuid(65534, 65534, 65534) < 0)
			_exit(10);
		(void)nsb_cgroup_place(&of, NULL, &place, &e);
		(void)nsb_cgroup_place(&os, NULL, &place, &e);
		if (!slow.valid || !fast.valid)
			_exit(11);
		if (strcmp(fast.mnt, slow.mnt) != 0 || strcmp(fast.own, slow.own) != 0)
			_exit(12);
		bool usual = !strcmp(slow.mnt, "/sys/fs/cgroup") ||
			     !strcmp(slow.mnt, "/sys/fs/cgroup/unified");
		_exit(fast.by_statmount == (has_statmount && usual) ? 0 : 13);
	}
	cr_assert(eq(int, waitpid(pid, &st, 0), pid));
	bool exited = WIFEXITED(st);
	cr_assert(exited);
	/* 10: no uid change; 11: not found; 12: they differ; 13: the way taken */
	cr_expect(eq(int, WEXITSTATUS(st), 0));
}
