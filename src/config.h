/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct nsb_config: what the command line asked for, nothing more.  Filled by
 * cli.c (pure); strings point into argv and are never owned.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hard limits on user-controlled input (documented in nsbox(1)). */
#define NSB_MAX_MOUNTS	   128	      /* --ro, --rw and --tmpfs together */
#define NSB_MAX_ENV	   128	      /* --env options */
#define NSB_MAX_ARGV_BYTES (1u << 20) /* all of nsbox's argv, NULs included */
#define NSB_MAX_ARGS	   4096	      /* argv entries */
#define NSB_MAX_PATH	   4095	      /* one path argument, in bytes */
#define NSB_MAX_HOSTNAME   64	      /* HOST_NAME_MAX */
#define NSB_MAX_TMPFS_SIZE (64ull << 30)

#define NSB_DEFAULT_HOSTNAME   "nsbox"
#define NSB_DEFAULT_TMP_SIZE   (256ull << 20) /* /tmp and /dev/shm */
#define NSB_DEFAULT_TMPFS_SIZE (64ull << 20)  /* --tmpfs DEST without :SIZE */

enum nsb_mount_kind {
	NSB_MOUNT_RO,
	NSB_MOUNT_RW,
	NSB_MOUNT_TMPFS,
};

struct nsb_mount_arg {
	enum nsb_mount_kind kind;
	const char *src;  /* host path as given (NULL for tmpfs) */
	size_t src_len;	  /* length of src inside the argument (it may end at ':') */
	const char *dest; /* absolute path inside, or NULL: same as the source */
	uint64_t size;	  /* tmpfs size in bytes */
	int argv_index;	  /* where it came from, for messages */
};

struct nsb_config {
	struct nsb_mount_arg mounts[NSB_MAX_MOUNTS];
	size_t n_mounts;

	const char *env[NSB_MAX_ENV]; /* NAME or NAME=VALUE */
	size_t n_env;

	const char *chdir;    /* working directory inside, or NULL */
	const char *project;  /* --project DIR, or NULL: the caller's cwd */
	bool no_project;      /* --no-project */
	bool share_net;	      /* --share-net */
	const char *hostname; /* NULL: NSB_DEFAULT_HOSTNAME */
	int result_fd;	      /* -1: none */

	bool help;
	bool version;

	/* The command: argv[cmd_index..argc-1]. */
	char *const *cmd_argv;
	int cmd_argc;
};

void nsb_config_init(struct nsb_config *c);
