/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct nsb_config: what the command line asked for, nothing more.  Filled by
 * cli.c (pure); strings point into argv, or into the request document's
 * arena (core/request.h), and are never owned.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hard limits on user-controlled input (documented in nsbox(1)). */
#define NSB_MAX_MOUNTS	   4096	      /* --ro, --rw and --tmpfs together */
#define NSB_MAX_ENV	   128	      /* --env options */
#define NSB_MAX_ARGV_BYTES (1u << 20) /* all of nsbox's argv, NULs included */
#define NSB_MAX_ARGS	   16384      /* argv entries: room for every mount as two */
#define NSB_MAX_PATH	   4095	      /* one path argument, in bytes */
#define NSB_MAX_HOSTNAME   64	      /* HOST_NAME_MAX */
#define NSB_MAX_TMPFS_SIZE (64ull << 30)

#define NSB_MAX_MEMORY	      (1ull << 40) /* --memory */
#define NSB_MIN_MEMORY	      (1ull << 20)
#define NSB_MAX_PIDS	      4194304 /* PID_MAX_LIMIT */
#define NSB_MAX_CPUS_MILLI    (1024 * 1000)
#define NSB_MAX_TIMEOUT_MS    (366ull * 24 * 3600 * 1000)
#define NSB_MAX_KILL_AFTER_MS (3600ull * 1000)
#define NSB_MAX_OUTPUT	      (1ull << 40) /* --max-output when passing through */
#define NSB_MAX_CAPTURE	      (64ull << 20) /* --max-output with --capture: it all goes into the record */
#define NSB_DEFAULT_CAPTURE   (1ull << 20)
#define NSB_MIN_TMP_SIZE      (1ull << 20)

#define NSB_MAX_GATE_OPTS      256 /* --deny-exec, --allow-exec, each */
#define NSB_MAX_GATE_PATHS     64  /* --allow-path */
#define NSB_MAX_MASK_ARGS      64  /* --mask */
#define NSB_MAX_NET_ARGS       256 /* --allow-net, --deny-net, each */
#define NSB_MAX_NET_RANGE_ARGS 64  /* --allow-net-range */

#define NSB_DEFAULT_KILL_AFTER_MS 2000
#define NSB_DEFAULT_HOSTNAME	  "nsbox"
#define NSB_DEFAULT_TMP_SIZE	  (256ull << 20) /* /tmp and /dev/shm */
#define NSB_DEFAULT_TMPFS_SIZE	  (64ull << 20)	 /* --tmpfs DEST without :SIZE */

/* --overlay (issue 16): at most this many, each upper layer on a tmpfs of
 * --overlay-size bytes. */
#define NSB_MAX_OVERLAYS	 16
#define NSB_DEFAULT_OVERLAY_SIZE (1ull << 30)
#define NSB_MIN_OVERLAY_SIZE	 (1ull << 20)
#define NSB_MAX_OVERLAY_SIZE	 (1ull << 40)

/* --overlay-mode: what becomes of the change set once the run is over. */
enum nsb_overlay_mode {
	NSB_OVERLAY_DISCARD, /* nothing reaches the host; the record lists it */
	NSB_OVERLAY_COMMIT,  /* applied to DIR, file by file */
	NSB_OVERLAY_EXPORT,  /* written to a directory for nsbox apply */
};

/* Without --pids, where a pids cgroup or RLIMIT_NPROC can enforce it. */
#define NSB_DEFAULT_PIDS   4096
#define NSB_PIDS_UNLIMITED UINT64_MAX /* --pids unlimited */

/* --isolation: namespaces (the default), landlock, or auto (namespaces where
 * they work, else landlock). */
enum nsb_isolation {
	NSB_ISO_NAMESPACES,
	NSB_ISO_LANDLOCK,
	NSB_ISO_AUTO,
};

/* --pty / --no-pty; auto: a pty when stdin and stdout are both terminals. */
enum nsb_pty_mode {
	NSB_PTY_AUTO,
	NSB_PTY_ON,
	NSB_PTY_OFF,
};

enum nsb_mount_kind {
	NSB_MOUNT_RO,
	NSB_MOUNT_RW,
	NSB_MOUNT_TMPFS,
	NSB_MOUNT_OVERLAY, /* --overlay DIR[:DEST]: src/dest as for --rw */
};

struct nsb_mount_arg {
	enum nsb_mount_kind kind;
	const char *src;		 /* host path as given (NULL for tmpfs) */
	size_t src_len;			 /* length of src inside the argument (it may end at ':') */
	const char *dest;		 /* absolute path inside, or NULL: same as the source */
	uint64_t size;			 /* tmpfs size in bytes */
	char dest_buf[NSB_MAX_PATH + 1]; /* storage for a --tmpfs DEST cut at ':' */
	int argv_index;			 /* where it came from, for messages */
};

struct nsb_config {
	size_t n_mounts; /* mounts[]: the lists are at the end */

	size_t n_env; /* env[] */

	const char *chdir;    /* working directory inside, or NULL */
	const char *project;  /* --project DIR, or NULL: the caller's cwd */
	bool no_project;      /* --no-project */
	bool share_net;	      /* --share-net */
	const char *hostname; /* NULL: NSB_DEFAULT_HOSTNAME */
	int result_fd;	      /* -1: none */

	/* Limits and lifetime (0 = not set). */
	uint64_t memory;     /* bytes */
	uint64_t pids;	     /* processes, init included; NSB_PIDS_UNLIMITED */
	uint64_t cpus_milli; /* 1000 = one CPU */
	uint64_t timeout_ms;
	uint64_t kill_after_ms; /* grace between SIGTERM and SIGKILL */
	bool has_max_output;
	uint64_t max_output; /* bytes per stream */
	bool capture;
	enum nsb_pty_mode pty; /* --pty, --no-pty */
	uint64_t tmp_size;     /* /tmp and /dev/shm; 0: the default */
	const char *cgroup_parent;
	bool require_cgroup;

	/* Front gate (applied on top of the built-in policy and --policy). */
	size_t n_deny_exec;
	size_t n_allow_exec;
	size_t n_allow_path;
	bool allow_inline_code;
	bool allow_metachar;
	const char *policy; /* --policy FILE */
	bool print_policy;
	bool check; /* --check: dry run */

	const char *seccomp;	    /* --seccomp NAME|PATH; NULL: "default" */
	const char *seccomp_export; /* --seccomp-export FILE */
	const char *print_profile;  /* --print-profile NAME */

	bool help;
	bool version;

	/* The command: argv[cmd_index..argc-1]. */
	char *const *cmd_argv;
	int cmd_argc;

	/* Protected paths and secret masks (core/protect.h). */
	size_t n_mask;
	bool no_protect; /* --no-protect */
	bool no_mask;	 /* --no-mask */
	bool rw_git;	 /* --rw-git */

	bool quiet;		      /* --quiet: no summary line of seccomp refusals on stderr */
	const char *seccomp_learn;    /* --seccomp-learn FILE */
	enum nsb_isolation isolation; /* --isolation */
	/* Overlays (sandbox/overlay.c, supervisor/overlay_*.c): each --overlay
	 * is a mounts[] entry of kind NSB_MOUNT_OVERLAY; these count and
	 * qualify them. */
	size_t n_overlays;
	uint64_t overlay_size; /* --overlay-size; 0: NSB_DEFAULT_OVERLAY_SIZE */
	enum nsb_overlay_mode overlay_mode;
	const char *overlay_export; /* --overlay-mode export:PATH */
	bool overlay_commit_always; /* --overlay-commit-always */
	/* Egress through the proxy (core/netpolicy.h); each entry checked
	 * as it is parsed, kept as given. */
	size_t n_allow_net;
	size_t n_deny_net;
	size_t n_allow_net_range;
	uint64_t proxy_port;	   /* --proxy-port; 0: the default */
	bool net_proxy;		   /* any of the four: proxy mode */
	const char *overlay_store; /* --overlay-store PATH: upper layers on disk */
	/* The structured request (issue 17): echoed into the record. */
	const char *request_actor;
	const char *request_reason;
	const char *request_side_effect;
	/* --approved ID (issue 17, core/approval.h): 64 hex digits, checked. */
	const char *approved;
	/* --request FILE|- or --request-fd N (core/request.h): one JSON
	 * document in place of the options; its strings live in the
	 * document's arena, kept for the process's lifetime. */
	const char *request;
	bool has_request_fd;
	int request_fd;
	bool from_request; /* the document was read and applied */
	/*
	 * The lists, last (each count is above): main keeps the config in
	 * static storage, where a page costs memory only once it is written,
	 * and in init's copy too.  With the fields every run sets together
	 * at the start, a run that gives none of these options touches one
	 * page of the config instead of four.
	 */
	const char *env[NSB_MAX_ENV]; /* NAME or NAME=VALUE */
	const char *deny_exec[NSB_MAX_GATE_OPTS];
	const char *allow_exec[NSB_MAX_GATE_OPTS];
	const char *allow_path[NSB_MAX_GATE_PATHS];
	const char *mask[NSB_MAX_MASK_ARGS];		     /* --mask PATH or GLOB */
	const char *allow_net[NSB_MAX_NET_ARGS];	     /* --allow-net HOST[:PORT] */
	const char *deny_net[NSB_MAX_NET_ARGS];		     /* --deny-net HOST[:PORT] */
	const char *allow_net_range[NSB_MAX_NET_RANGE_ARGS]; /* --allow-net-range CIDR */
	struct nsb_mount_arg mounts[NSB_MAX_MOUNTS];
};

/* Every field unset: no result fd, the default grace before SIGKILL (config.c). */
void nsb_config_init(struct nsb_config *c);
