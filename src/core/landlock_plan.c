// SPDX-License-Identifier: GPL-2.0-or-later
/* --isolation landlock: what a kernel's ABI can enforce, and each plan entry's rights.  Pure (supervisor; init reads it). */
#include <errno.h>
#include <string.h>

#include "core/landlock_plan.h"
#include "core/plan.h"

/* /dev/tty is the command's own controlling terminal: in a session of its
 * own, it has none but the pty nsbox gives it (--pty). */
const char *const nsb_landlock_devices[] = {"/dev/null",    "/dev/zero", "/dev/full", "/dev/random",
					    "/dev/urandom", "/dev/tty",	 NULL};

const char *const nsb_landlock_missing[] = {"pid", "mount", "net",    "ipc",
					    "uts", "user",  "cgroup", NULL};

/* Every filesystem right the ABI knows: all of them refused unless granted. */
static uint64_t fs_rights(int abi)
{
	uint64_t fs = NSB_LL_FS_ABI1;

	if (abi >= 2)
		fs |= NSB_LL_FS_REFER;
	if (abi >= 3)
		fs |= NSB_LL_FS_TRUNCATE;
	if (abi >= 5)
		fs |= NSB_LL_FS_IOCTL_DEV;
	return fs;
}

/* A promise of the options that needs a mount namespace. */
static int check_mounts(const struct nsb_config *c, struct nsb_error *e)
{
	for (size_t i = 0; i < c->n_mounts; i++) {
		const struct nsb_mount_arg *m = &c->mounts[i];

		if (m->kind == NSB_MOUNT_TMPFS) {
			nsb_error_setx(e, -EOPNOTSUPP, NSB_STAGE_LANDLOCK,
				       "--isolation landlock: --tmpfs %s needs a mount namespace",
				       m->dest);
			return nsb_error_hint(e, "write to the private TMPDIR instead, or drop "
						 "--tmpfs");
		}
		if (m->kind == NSB_MOUNT_OVERLAY) {
			/* Never a silent --rw: the host's DIR would take every write. */
			nsb_error_setx(
				e, -EOPNOTSUPP, NSB_STAGE_LANDLOCK,
				"--isolation landlock: --overlay %.*s needs a mount namespace",
				(int)m->src_len, m->src);
			return nsb_error_hint(e, "use --isolation namespaces, or --rw if the "
						 "command may write DIR itself");
		}
		if (m->dest) {
			nsb_error_setx(e, -EOPNOTSUPP, NSB_STAGE_LANDLOCK,
				       "--isolation landlock: '%.*s:%s' places a path elsewhere, "
				       "which needs a mount namespace",
				       (int)m->src_len, m->src, m->dest);
			return nsb_error_hint(e, "bind the path at its own place (%s %.*s)",
					      m->kind == NSB_MOUNT_RO ? "--ro" : "--rw",
					      (int)m->src_len, m->src);
		}
	}
	return 0;
}

int nsb_landlock_decide(const struct nsb_config *c, int abi, struct nsb_landlock_plan *ret,
			struct nsb_error *e)
{
	struct nsb_landlock_plan p;
	int r;

	memset(&p, 0, sizeof(p));
	if (abi < 1) {
		nsb_error_setx(e, -EOPNOTSUPP, NSB_STAGE_LANDLOCK,
			       "--isolation landlock: this kernel has no Landlock");
		return nsb_error_hint(
			e,
			"boot Linux 5.13 or later with landlock in lsm=; nsbox doctor says more");
	}
	/* Without TCP rules the payload could reach the host's network:
	 * refused unless the caller gave it the network on purpose. */
	if (!c->share_net && abi < NSB_LL_ABI_NET) {
		nsb_error_setx(e, -EOPNOTSUPP, NSB_STAGE_LANDLOCK,
			       "--isolation landlock: Landlock ABI %d cannot refuse TCP "
			       "(ABI %d, Linux 6.7, can), so the network cannot be switched off",
			       abi, NSB_LL_ABI_NET);
		return nsb_error_hint(e, "add --share-net to run with the host's network");
	}
	/* The proxy listens in the sandbox's own network namespace; without
	 * one it would listen on the host's loopback, which Landlock's TCP
	 * rules then refuse to the command anyway. */
	if (c->net_proxy) {
		nsb_error_setx(e, -EOPNOTSUPP, NSB_STAGE_LANDLOCK,
			       "--isolation landlock: --allow-net needs a network namespace");
		return nsb_error_hint(e, "use --isolation namespaces, or --share-net if the "
					 "command may reach every address the host can");
	}
	r = check_mounts(c, e);
	if (r < 0)
		return r;
	p.abi = abi;
	p.fs = fs_rights(abi);
	p.attr_size = sizeof(uint64_t);
	if (abi >= NSB_LL_ABI_NET) {
		p.attr_size = 2 * sizeof(uint64_t);
		/* Handled with no rule: every TCP bind and connect refused. */
		if (!c->share_net)
			p.net = NSB_LL_NET_BIND_TCP | NSB_LL_NET_CONNECT_TCP;
	}
	if (abi >= NSB_LL_ABI_SCOPE) {
		p.attr_size = sizeof(struct nsb_ll_ruleset_attr);
		/* No signal to a process outside the sandbox, no connect to
		 * an abstract socket bound outside. */
		p.scoped = NSB_LL_SCOPE_SIGNAL | (c->share_net ? 0 : NSB_LL_SCOPE_ABSTRACT_UNIX);
	}
	p.socket_filter = !c->share_net;
	*ret = p;
	return 0;
}

uint64_t nsb_landlock_access(const struct nsb_mount_op *op, bool is_dir, uint64_t handled)
{
	uint64_t want;

	switch (op->kind) {
	case NSB_OP_BIND:
	case NSB_OP_SYSLINK:
		want = op->readonly ? NSB_LL_FS_READ_FILE | NSB_LL_FS_READ_DIR | NSB_LL_FS_EXECUTE
				    : handled;
		break;
	case NSB_OP_PROC:
		want = NSB_LL_FS_READ_FILE | NSB_LL_FS_READ_DIR;
		break;
	default:
		/* tmpfs (/tmp, /dev/shm) and /dev: not the host's, not granted. */
		return 0;
	}
	want &= handled;
	return is_dir ? want : want & NSB_LL_FS_FILE_ONLY;
}
