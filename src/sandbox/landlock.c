// SPDX-License-Identifier: GPL-2.0-or-later
/* --isolation landlock in init: the ruleset, the socket filter, the capability drop (landlock.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/util.h"
#include "core/landlock_plan.h"
#include "sandbox/caps.h"
#include "sandbox/landlock.h"
#include "seccomp/filter.h"

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT		 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

/* One rule: PATH (opened O_PATH, following links as the payload's opens
 * will) gets the rights access_for says for what it is. */
static int add_path(int ruleset, const struct nsb_mount_op *op, const char *path, bool optional,
		    uint64_t handled, uint64_t fixed, struct nsb_error *e)
{
	_cleanup_close_ int fd = open(path, O_PATH | O_CLOEXEC);
	struct nsb_ll_path_beneath pb;
	struct stat st;

	if (fd < 0 && optional && (errno == ENOENT || errno == ENOTDIR))
		return 0;
	if (fd < 0 || fstat(fd, &st) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_LANDLOCK, "open '%s'", path);
	pb.allowed_access =
		op ? nsb_landlock_access(op, S_ISDIR(st.st_mode), handled)
		   : fixed & (S_ISDIR(st.st_mode) ? handled : handled & NSB_LL_FS_FILE_ONLY);
	pb.parent_fd = fd;
	if (pb.allowed_access == 0)
		return 0;
	if (syscall(NSB_SYS_landlock_add_rule, ruleset, NSB_LL_RULE_PATH_BENEATH, &pb, 0) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_LANDLOCK,
				     "add the Landlock rule for '%s'", path);
	return 0;
}

static int add_rules(int ruleset, const struct nsb_plan *p, struct nsb_error *e)
{
	const struct nsb_landlock_plan *ll = &p->landlock;
	int r;

	for (size_t i = 0; i < p->n_ops; i++) {
		const struct nsb_mount_op *op = &p->ops[i];
		const char *src = op->kind == NSB_OP_PROC ? "/proc" : op->src;

		if (!src || !*src)
			continue;
		r = add_path(ruleset, op, src, op->optional, ll->fs, 0, e);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; nsb_landlock_devices[i]; i++) {
		r = add_path(ruleset, NULL, nsb_landlock_devices[i], true, ll->fs,
			     NSB_LL_FS_READ_FILE | NSB_LL_FS_WRITE_FILE, e);
		if (r < 0)
			return r;
	}
	/* The private TMPDIR: everything. */
	return add_path(ruleset, NULL, ll->tmpdir, false, ll->fs, ll->fs, e);
}

int nsb_landlock_apply(const struct nsb_plan *p, struct nsb_error *e)
{
	const struct nsb_landlock_plan *ll = &p->landlock;
	struct nsb_ll_ruleset_attr attr = {
		.handled_access_fs = ll->fs,
		.handled_access_net = ll->net,
		.scoped = ll->scoped,
	};
	_cleanup_close_ int ruleset = -1;
	int r;

	ruleset = (int)syscall(NSB_SYS_landlock_create_ruleset, &attr, ll->attr_size, 0);
	if (ruleset < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_LANDLOCK,
				     "create the Landlock ruleset (ABI %d)", ll->abi);
	r = add_rules(ruleset, p, e);
	if (r < 0)
		return r;
	if (syscall(NSB_SYS_landlock_restrict_self, ruleset, 0) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_LANDLOCK,
				     "enforce the Landlock ruleset");
	return 0;
}

#define LD_NR	 BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
#define RET(v)	 BPF_STMT(BPF_RET | BPF_K, (v))
#define ERRNO(x) RET(SECCOMP_RET_ERRNO | ((x)&SECCOMP_RET_DATA))

int nsb_landlock_socket_filter(struct nsb_error *e)
{
	/* args[0] of socket() is an int: only its low 32 bits count
	 * (little-endian: the first word of the 64-bit argument). */
	struct sock_filter prog[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nsb_seccomp_arch(), 1, 0),
		ERRNO(ENOSYS),
		LD_NR,
		/* x32 numbers (bit 30) are another ABI on x86-64. */
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
		ERRNO(ENOSYS),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		ERRNO(EPERM),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
		RET(SECCOMP_RET_ALLOW),
		ERRNO(EAFNOSUPPORT),
	};
	struct sock_fprog fp = {.len = ARRAY_SIZE(prog), .filter = prog};

	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_LANDLOCK,
				     "install the socket filter");
	return 0;
}

int nsb_landlock_drop_caps(struct nsb_error *e)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &hdr, data) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CAPS, "read capabilities");
	/* With CAP_SETPCAP (root, usually): the full drop, bounding set and
	 * securebits included. */
	if (data[CAP_SETPCAP / 32].effective & (1U << (CAP_SETPCAP % 32)))
		return nsb_caps_drop_all(e);
	memset(data, 0, sizeof(data));
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CAPS,
				     "clear the ambient capability set");
	if (syscall(SYS_capset, &hdr, data) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CAPS,
				     "empty the effective, permitted and inheritable sets");
	if (syscall(SYS_capget, &hdr, data) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CAPS, "read capabilities back");
	for (size_t i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (data[i].effective || data[i].permitted || data[i].inheritable)
			return nsb_error_setx(e, -EPERM, NSB_STAGE_CAPS,
					      "capabilities still present after dropping them");
	return 0;
}
