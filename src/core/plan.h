/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plan: every mount, the environment, the working directory and the
 * command, decided before anything is created.  Built purely from the config
 * and a few facts the supervisor gathered (struct nsb_facts); mount.c
 * executes it inside the new mount namespace.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/config.h"
#include "base/error.h"
#include "core/landlock_plan.h"
#include "core/limitplan.h"
#include "core/protect.h"

struct nsb_bpf;

#define NSB_SANDBOX_PATH "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"
#define NSB_SANDBOX_HOME "/tmp"
#define NSB_MAX_OPS	 (NSB_MAX_MOUNTS + 48)
#define NSB_MAX_ENVP	 (NSB_MAX_ENV + 48)

enum nsb_op_kind {
	NSB_OP_BIND,	/* bind src (host) at dest; recursive */
	NSB_OP_SYSLINK, /* host path that may be a symlink: copy the link, else bind read-only */
	NSB_OP_TMPFS,	/* new tmpfs at dest */
	NSB_OP_PROC,	/* new procfs at dest, with the sensitive parts read-only */
	NSB_OP_DEV,	/* minimal /dev at dest */
};

struct nsb_mount_op {
	enum nsb_op_kind kind;
	/* Both in one allocation the plan owns (src first): an op is a few
	 * dozen bytes, so thousands of binds cost what they hold. */
	char *src;  /* host path (real path for user binds); "" for none */
	char *dest; /* clean absolute path inside */
	bool readonly;
	bool optional;	 /* system entry: skipped when the host lacks it */
	bool user;	 /* from --ro/--rw/--tmpfs/--project */
	bool src_is_dir; /* seen (user binds) or expected (system view); init checks */
	uint64_t size;	 /* tmpfs size */
	unsigned mode;	 /* tmpfs root mode */
	int argv_index;	 /* -1 for built-in entries */
	/* --overlay: a BIND op (writable, a --rw root for the gate) that init
	 * mounts as an overlay with src as its lower layer (sandbox/overlay.c). */
	bool overlay;
	/* The /etc snapshot (supervisor/etc_snapshot.h), set by the run after
	 * the plan is built: in_snapshot marks a file entry of the system view
	 * that the snapshot serves (init leaves it alone), from_snapshot the
	 * op that binds the snapshot itself at /etc (its source is the plan's
	 * etc_snapshot_fd; src names it). */
	bool in_snapshot;
	bool from_snapshot;
};

/* What the supervisor learned about the host before planning (no syscalls here). */
struct nsb_facts {
	const char *cwd;	  /* real path of the caller's working directory */
	const char *home;	  /* real path of $HOME, or NULL */
	const char *project_real; /* real path of --project, or NULL */
	uid_t uid;
	gid_t gid;
	char *const *environ; /* the caller's environment */
	/* For each config mount (same index): real path of its source (NULL
	 * for tmpfs), and whether it is a directory.  Arrays of the config's
	 * n_mounts; NULL when it has none. */
	const char *const *mount_src_real;
	const bool *mount_src_is_dir;
};

struct nsb_plan {
	struct nsb_mount_op *ops; /* owned, n_ops of them, allocated to size */
	size_t n_ops;
	size_t ops_room; /* entries allocated (nsb_plan_build's own bound) */

	char *envp[NSB_MAX_ENVP + 1]; /* owned, NULL-terminated */
	size_t n_envp;

	/* Not PATH_MAX arrays: a run's plan is copied whole, and each array
	 * would be a page of its own.  cwd is owned: --chdir's value lies in
	 * the argument block, which init rewrites; project points into the
	 * facts (a real path the run owns) or is "". */
	char *cwd;	     /* working directory inside (owned) */
	const char *project; /* project root, "" with --no-project */
	char hostname[NSB_MAX_HOSTNAME + 1];
	bool share_net;
	uint64_t tmp_size; /* /tmp and /dev/shm */
	bool pipe_output;  /* stdout/stderr go through the supervisor (--max-output, --capture) */
	/* Left empty by nsb_plan_build, which is pure: the run completes the
	 * plan in two named steps (supervisor/run.c).  decide_limits reads the
	 * host's cgroups (and create_cgroup decides again without one when the
	 * cgroup cannot be made); attach_seccomp takes the filter compiled for
	 * uid/gid below.  NULL or none: no filter. */
	struct nsb_limits limits;
	const struct nsb_bpf *seccomp;
	uid_t uid;
	gid_t gid;

	/* The command: owned, a copy.  Nothing in the plan may point into the
	 * caller's argv: init scrubs that block (init.c, scrub_cmdline). */
	char **argv;
	int argc;

	/* Left empty by nsb_plan_build too: the scan of a run the gate allowed
	 * (supervisor/protect_scan.c) adds the protected and masked paths, in
	 * the order of their binds, parents first; init mounts each right
	 * after its bind (sandbox/mount_cover.c).  Owned. */
	struct nsb_cover *covers;
	size_t n_covers;

	/* Left empty by nsb_plan_build too: --isolation, as the run decided
	 * it (never NSB_ISO_AUTO here), and for a Landlock run what it
	 * enforces (core/landlock_plan.h) and its private TMPDIR. */
	enum nsb_isolation isolation;
	struct nsb_landlock_plan landlock;
	/* --overlay: how many ops are overlays (0: no overlay socket, nothing
	 * is paid for them), and each one's upper tmpfs size. */
	size_t n_overlays;
	uint64_t overlay_size;
	/* Proxy mode: the port init listens on (127.0.0.1, in the sandbox's
	 * network namespace) for the supervisor's proxy; 0: no proxy. */
	uint16_t proxy_port;
	/* --overlay-store: set by the supervisor (supervisor/overlay_store.h),
	 * the run's private directory where init puts the upper layers instead
	 * of on tmpfs; NULL: tmpfs.  Not owned; init inherits overlay_store_fd,
	 * the directory opened (init cannot reach it by path: its /tmp and
	 * more are its own by then). */
	const char *overlay_store;
	int overlay_store_fd;
	/* The system view's /etc entries: ops etc_first on, etc_count of them,
	 * in the order of nsb_plan_etc_entries.  etc_snapshot: set by the run
	 * (supervisor/etc_snapshot.h), the snapshot's directory; NULL: every
	 * entry is bound from the host.  init inherits etc_snapshot_fd, the
	 * directory opened and locked. */
	size_t etc_first, etc_count;
	const char *etc_snapshot;
	int etc_snapshot_fd;
};

/*
 * The system view's /etc entries, absolute host paths, in the plan's order
 * (*ret_paths, the count returned); bit i of *ret_dirs is set when entry i
 * is a directory (bound on its own, never part of the /etc snapshot).
 */
size_t nsb_plan_etc_entries(const char *const **ret_paths, unsigned *ret_dirs);

/*
 * Build the plan into *ret, which is written only on success (free it with
 * nsb_plan_free).  Pure: only reads c and f; f must outlive the plan (its
 * project points into it).  Errors (stage "plan"): the
 * project root is / or $HOME, a destination is used twice, an --env NAME is
 * not set in the caller's environment, too many entries.
 */
int nsb_plan_build(const struct nsb_config *c, const struct nsb_facts *f, struct nsb_plan *p,
		   struct nsb_error *e);

/* Set (or replace) NAME=VALUE in the plan's environment: for the run's own
 * additions (a Landlock run's private TMPDIR).  Errors: stage "plan". */
int nsb_plan_setenv(struct nsb_plan *p, const char *name, const char *value, struct nsb_error *e);
/*
 * Proxy mode on PORT: proxy_port, and HTTP_PROXY and its kin in envp
 * (core/netpolicy.h); KEEP: leave a variable already set (by --env) as it
 * is.  For the policy file's allow-net lines, which the plan is built without.
 */
int nsb_plan_proxy_env(struct nsb_plan *p, uint16_t port, bool keep, struct nsb_error *e);

/* Free what nsb_plan_build allocated (the ops and their paths, the
 * environment strings, the command); a zeroed plan is fine, and so is a
 * second call. */
void nsb_plan_free(struct nsb_plan *p);
