/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --isolation landlock, the pure half: what a run without namespaces can
 * promise on a kernel of a given Landlock ABI, and which access each entry
 * of the plan gets.  sandbox/landlock.c applies it in init; the record says
 * what was lost (core/result.h).  The UAPI numbers are spelt out here:
 * Debian 12's headers stop at ABI 3, and they are the kernel's ABI.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "core/config.h"

struct nsb_mount_op;

/* landlock_create_ruleset(2) and friends (x86-64 and the generic table). */
#define NSB_SYS_landlock_create_ruleset 444
#define NSB_SYS_landlock_add_rule	445
#define NSB_SYS_landlock_restrict_self	446
#define NSB_LL_CREATE_RULESET_VERSION	(1U << 0)
#define NSB_LL_RULE_PATH_BENEATH	1

/* Filesystem rights, by the ABI that introduced them. */
#define NSB_LL_FS_EXECUTE    (1ULL << 0)
#define NSB_LL_FS_WRITE_FILE (1ULL << 1)
#define NSB_LL_FS_READ_FILE  (1ULL << 2)
#define NSB_LL_FS_READ_DIR   (1ULL << 3)
#define NSB_LL_FS_ABI1	     ((1ULL << 13) - 1) /* bits 0-12 */
#define NSB_LL_FS_REFER	     (1ULL << 13)	/* ABI 2 */
#define NSB_LL_FS_TRUNCATE   (1ULL << 14)	/* ABI 3 */
#define NSB_LL_FS_IOCTL_DEV  (1ULL << 15)	/* ABI 5 */
/* Network rights (ABI 4) and scopes (ABI 6). */
#define NSB_LL_NET_BIND_TCP	   (1ULL << 0)
#define NSB_LL_NET_CONNECT_TCP	   (1ULL << 1)
#define NSB_LL_SCOPE_ABSTRACT_UNIX (1ULL << 0)
#define NSB_LL_SCOPE_SIGNAL	   (1ULL << 1)

/* The ABIs that brought TCP rules (Linux 6.7) and scoping (Linux 6.12). */
#define NSB_LL_ABI_NET	 4
#define NSB_LL_ABI_SCOPE 6

/* The rights a rule on a regular file may carry (the rest need a directory). */
#define NSB_LL_FS_FILE_ONLY                                                                    \
	(NSB_LL_FS_EXECUTE | NSB_LL_FS_WRITE_FILE | NSB_LL_FS_READ_FILE | NSB_LL_FS_TRUNCATE | \
	 NSB_LL_FS_IOCTL_DEV)

/* struct landlock_ruleset_attr as of ABI 6; the size passed says how much. */
struct nsb_ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct nsb_ll_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

/* What a Landlock run enforces (plan.h holds one; abi 0: not a Landlock run). */
struct nsb_landlock_plan {
	int abi;
	uint64_t fs;		       /* handled filesystem rights */
	uint64_t net;		       /* handled network rights (all TCP refused) */
	uint64_t scoped;	       /* scopes */
	size_t attr_size;	       /* of struct nsb_ll_ruleset_attr, for this ABI */
	bool socket_filter;	       /* seccomp refuses socket() but for AF_UNIX */
	char tmpdir[NSB_MAX_PATH + 1]; /* the private TMPDIR (the run makes it) */
};

/*
 * Decide what a Landlock run on a kernel of Landlock ABI abi (0: none)
 * enforces for c.  Fails (stage "landlock") when the kernel cannot keep a
 * promise the options make: no Landlock; the network off (no --share-net)
 * without TCP rules (ABI < 4); a bind at another place (SRC:DEST) or a
 * --tmpfs, which need a mount namespace.  Pure.
 */
int nsb_landlock_decide(const struct nsb_config *c, int abi, struct nsb_landlock_plan *ret,
			struct nsb_error *e);

/*
 * The rights the plan entry op grants (is_dir: what its source is), within
 * handled: read and execute for the system view and read-only binds, all of
 * them for writable binds, read for /proc; 0 for what Landlock mode does not
 * grant (the sandbox's /tmp, /dev/shm: the private TMPDIR replaces them).
 */
uint64_t nsb_landlock_access(const struct nsb_mount_op *op, bool is_dir, uint64_t handled);

/* The device nodes a Landlock run may open (read and write). */
extern const char *const nsb_landlock_devices[];

/* The namespaces a Landlock run goes without, as the record names them. */
extern const char *const nsb_landlock_missing[];
