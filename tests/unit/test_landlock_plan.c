// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --isolation landlock, the pure decisions (core/landlock_plan.c): what a
 * kernel of each Landlock ABI can promise, which options need a mount
 * namespace, and the rights each plan entry gets.
 */
#include <errno.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "core/landlock_plan.h"
#include "core/plan.h"
#include "unit.h"

static struct nsb_config cfg;

static void setup(void)
{
	nsb_config_init(&cfg);
}

TestSuite(landlock_plan, .init = setup);

Test(landlock_plan, no_landlock_fails_with_a_fix)
{
	struct nsb_landlock_plan p;
	struct nsb_error e = {0};

	cr_assert(eq(int, nsb_landlock_decide(&cfg, 0, &p, &e), -EOPNOTSUPP));
	expect_str(nsb_stage_name(e.stage), "landlock");
	cr_expect(strstr(e.hint, "lsm=") != NULL, "%s", e.hint);
}

/* ABI 1-3 cannot refuse TCP: the network off is a promise it cannot keep. */
Test(landlock_plan, old_abi_needs_share_net)
{
	struct nsb_landlock_plan p;
	struct nsb_error e = {0};

	for (int abi = 1; abi < NSB_LL_ABI_NET; abi++) {
		cr_expect(eq(int, nsb_landlock_decide(&cfg, abi, &p, &e), -EOPNOTSUPP));
		cr_expect(strstr(e.message, "cannot refuse TCP") != NULL, "%s", e.message);
		cr_expect(strstr(e.hint, "--share-net") != NULL, "%s", e.hint);
	}
	cfg.share_net = true;
	cr_assert(eq(int, nsb_landlock_decide(&cfg, 3, &p, &e), 0));
	cr_expect(eq(u64, p.net, 0));
	cr_expect_not(p.socket_filter);
	cr_expect(eq(u64, p.fs, NSB_LL_FS_ABI1 | NSB_LL_FS_REFER | NSB_LL_FS_TRUNCATE));
	cr_expect(eq(sz, p.attr_size, sizeof(uint64_t)));
}

Test(landlock_plan, abi4_refuses_tcp_without_scoping)
{
	struct nsb_landlock_plan p;
	struct nsb_error e = {0};

	cr_assert(eq(int, nsb_landlock_decide(&cfg, 4, &p, &e), 0));
	cr_expect(eq(u64, p.net, NSB_LL_NET_BIND_TCP | NSB_LL_NET_CONNECT_TCP));
	cr_expect(eq(u64, p.scoped, 0));
	cr_expect(p.socket_filter);
	cr_expect(eq(sz, p.attr_size, 2 * sizeof(uint64_t)));
}

Test(landlock_plan, abi6_scopes_signals_and_abstract_sockets)
{
	struct nsb_landlock_plan p;
	struct nsb_error e = {0};

	cr_assert(eq(int, nsb_landlock_decide(&cfg, 7, &p, &e), 0));
	cr_expect(eq(u64, p.scoped, NSB_LL_SCOPE_SIGNAL | NSB_LL_SCOPE_ABSTRACT_UNIX));
	cr_expect(ne(u64, p.fs & NSB_LL_FS_IOCTL_DEV, 0));
	cr_expect(eq(sz, p.attr_size, sizeof(struct nsb_ll_ruleset_attr)));
	/* The host's network on purpose: abstract sockets too. */
	cfg.share_net = true;
	cr_assert(eq(int, nsb_landlock_decide(&cfg, 7, &p, &e), 0));
	cr_expect(eq(u64, p.scoped, NSB_LL_SCOPE_SIGNAL));
}

Test(landlock_plan, binds_elsewhere_tmpfs_and_overlays_need_a_mount_namespace)
{
	struct nsb_landlock_plan p;
	struct nsb_error e = {0};
	const char *bind = "data:/data";

	cfg.mounts[0] = (struct nsb_mount_arg){
		.kind = NSB_MOUNT_RO, .src = bind, .src_len = 4, .dest = bind + 5};
	cfg.n_mounts = 1;
	cr_assert(eq(int, nsb_landlock_decide(&cfg, 6, &p, &e), -EOPNOTSUPP));
	cr_expect(strstr(e.message, "'data:/data'") != NULL, "%s", e.message);
	expect_str(e.hint, "bind the path at its own place (--ro data)");

	cfg.mounts[0] = (struct nsb_mount_arg){.kind = NSB_MOUNT_TMPFS, .dest = "/scratch"};
	cr_assert(eq(int, nsb_landlock_decide(&cfg, 6, &p, &e), -EOPNOTSUPP));
	cr_expect(strstr(e.message, "--tmpfs /scratch") != NULL, "%s", e.message);

	/* An overlay is never a silent --rw. */
	cfg.mounts[0] =
		(struct nsb_mount_arg){.kind = NSB_MOUNT_OVERLAY, .src = "repo", .src_len = 4};
	cr_assert(eq(int, nsb_landlock_decide(&cfg, 6, &p, &e), -EOPNOTSUPP));
	cr_expect(strstr(e.message, "--overlay repo") != NULL, "%s", e.message);
	cfg.n_mounts = 0;

	/* Nor is the egress proxy: it lives in the sandbox's network namespace. */
	cfg.net_proxy = true;
	cr_assert(eq(int, nsb_landlock_decide(&cfg, 6, &p, &e), -EOPNOTSUPP));
	cr_expect(strstr(e.message, "--allow-net") != NULL, "%s", e.message);
	cfg.net_proxy = false;
}

Test(landlock_plan, rights_per_plan_entry)
{
	uint64_t all = NSB_LL_FS_ABI1 | NSB_LL_FS_REFER | NSB_LL_FS_TRUNCATE;
	uint64_t rx = NSB_LL_FS_READ_FILE | NSB_LL_FS_READ_DIR | NSB_LL_FS_EXECUTE;
	struct nsb_mount_op ro = {.kind = NSB_OP_BIND, .readonly = true};
	struct nsb_mount_op rw = {.kind = NSB_OP_BIND};
	struct nsb_mount_op sys = {.kind = NSB_OP_SYSLINK, .readonly = true};
	struct nsb_mount_op proc = {.kind = NSB_OP_PROC};
	struct nsb_mount_op tmp = {.kind = NSB_OP_TMPFS};
	struct nsb_mount_op dev = {.kind = NSB_OP_DEV};

	cr_expect(eq(u64, nsb_landlock_access(&ro, true, all), rx));
	cr_expect(eq(u64, nsb_landlock_access(&sys, true, all), rx));
	/* A file takes no directory right (the kernel answers EINVAL). */
	cr_expect(eq(u64, nsb_landlock_access(&ro, false, all),
		     NSB_LL_FS_READ_FILE | NSB_LL_FS_EXECUTE));
	cr_expect(eq(u64, nsb_landlock_access(&rw, true, all), all));
	cr_expect(eq(u64, nsb_landlock_access(&rw, false, all), all & NSB_LL_FS_FILE_ONLY));
	cr_expect(eq(u64, nsb_landlock_access(&proc, true, all),
		     NSB_LL_FS_READ_FILE | NSB_LL_FS_READ_DIR));
	cr_expect(eq(u64, nsb_landlock_access(&tmp, true, all), 0));
	cr_expect(eq(u64, nsb_landlock_access(&dev, true, all), 0));
	/* Never more than the ABI handles. */
	cr_expect(eq(u64, nsb_landlock_access(&rw, true, NSB_LL_FS_ABI1), NSB_LL_FS_ABI1));
}
