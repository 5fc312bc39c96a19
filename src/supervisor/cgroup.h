/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup v2: one fresh cgroup per run, limits written before the payload
 * exists, placement at clone time, kill, accounting, removal.
 *
 * Layout of one run (parent P is --cgroup-parent or derived from the
 * caller's own cgroup, see nsb_cgroup_place):
 *
 *   P/nsbox-<pid>-<rand>/          limits live here (memory.max, pids.max, ...)
 *   P/nsbox-<pid>-<rand>/sandbox/  the payload is cloned into this leaf
 *
 * Why two levels: the payload runs with the caller's uid mapped, and the
 * caller owns every file of the cgroups it creates.  With CLONE_NEWCGROUP the
 * sandbox's cgroup namespace root is the leaf, so even a cgroup2 mount made
 * inside can never reach the limit files one level up.
 *
 * Module rule: never prints, never exits; every failure fills a struct
 * nsb_error naming the file and the reason.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/cgroup_parse.h"
#include "base/error.h"

/* Controller bits; names as in cgroup.controllers. */
enum {
	NSB_CG_MEMORY = 1u << 0,
	NSB_CG_PIDS = 1u << 1,
	NSB_CG_CPU = 1u << 2,
};

struct nsb_cgroup_limits {
	uint64_t memory_max;   /* bytes; 0: no limit */
	uint64_t swap_max;     /* bytes, written only with memory_max; 0 (the default) means none */
	uint64_t pids_max;     /* 0: no limit */
	uint64_t cpu_quota_us; /* 0: no limit */
	uint64_t cpu_period_us; /* 0: NSB_CGROUP_PERIOD_US_DEFAULT */
};

/* Where the cgroup2 mount and the caller's own cgroup are: what
 * nsb_cgroup_place() reads from /proc/self/mountinfo and /proc/self/cgroup,
 * kept so that a second placement in one run reads neither again. */
struct nsb_cgroup_where {
	bool valid; /* mnt and own are set */
	/* mnt was found by statmount(2) at its usual place, not in mountinfo */
	bool by_statmount;
	/* Each malloc'd (nsb_cgroup_where_free), not a PATH_MAX array: a few
	 * short strings that every run reads, in one page, not four. */
	char *mnt;
	char *own; /* absolute path of the caller's own cgroup */
	/* The last cgroup.controllers read, and whose: a run asks up to three
	 * times about one directory (cgroup_place.c).  NULL before the first. */
	char *avail_of;
	char *avail;
};

/* Free w's strings and clear it (valid false); w itself is the caller's. */
void nsb_cgroup_where_free(struct nsb_cgroup_where *w);

struct nsb_cgroup_opts {
	const char *parent; /* --cgroup-parent: an absolute path in the cgroup2 mount, or NULL */
	struct nsb_cgroup_where *where; /* NULL, or filled by the first placement and reused */
	/* Where to read from; NULL means the real /proc/self files.  Tests
	 * point these at fixtures and a fake tree. */
	const char *mountinfo_path;
	const char *proc_cgroup_path;
	const char *proc_cgroups_path; /* /proc/cgroups: only to explain a missing controller */
	bool clean_stale;	       /* remove nsbox-<deadpid>-* siblings first */
};

/* The paths first: a run without a cgroup writes only the fields after
 * them, and where the struct ends before what a run writes anyway, they
 * share its page (struct nsb_run). */
struct nsb_cgroup {
	char path[4096];      /* absolute path of nsbox-<pid>-<rand> */
	char leaf[4096];      /* absolute path of the leaf */
	int fd;		      /* O_DIRECTORY of the leaf, for clone3's cgroup field */
	int outer_fd;	      /* O_DIRECTORY of nsbox-<pid>-<rand> (limits, stats, kill) */
	unsigned controllers; /* NSB_CG_* enabled for this run */
};

/* Values read after the run; NSB_CGROUP_MAX where the file is missing. */
struct nsb_cgroup_stats {
	uint64_t memory_peak;	    /* memory.peak, bytes */
	uint64_t memory_max_events; /* memory.events "max": times memory.max was hit */
	uint64_t oom_events;	    /* memory.events "oom" */
	uint64_t oom_kill;	    /* memory.events "oom_kill" */
	uint64_t pids_peak;	    /* pids.peak */
	uint64_t pids_max_events;   /* pids.events "max": forks refused */
	uint64_t cpu_usage_usec;    /* cpu.stat */
	uint64_t cpu_user_usec;
	uint64_t cpu_system_usec;
	uint64_t cpu_nr_throttled;
	uint64_t cpu_throttled_usec;
};

#define NSB_CGROUP_INIT                  \
	{                                \
		.fd = -1, .outer_fd = -1 \
	}

/* What NSB_CGROUP_INIT gives, without clearing the 8 KiB of the paths. */
static inline void nsb_cgroup_reset(struct nsb_cgroup *cg)
{
	cg->fd = cg->outer_fd = -1;
	cg->controllers = 0;
	/* leaf is written with path, and read only while creating; path is
	 * cleared only where set (a write, even of a zero, takes the page):
	 * their pages (struct nsb_run is static) stay untouched in a run
	 * without a cgroup. */
	if (cg->path[0])
		cg->path[0] = '\0';
}

/* Where the run's cgroup goes: decided once, by nsb_cgroup_place(). */
struct nsb_cgroup_place {
	char parent[4096]; /* absolute path of the parent cgroup P */
	bool clean_stale;  /* from nsb_cgroup_opts */
};

/*
 * Decide where a run that needs the named controllers (NULL-terminated, e.g.
 * "memory") can have its cgroup (cgroup_place.c).  Returns 0 and *ret when
 * it can; otherwise -errno with e naming the first missing controller and
 * why (no cgroup2 mount, bound to a v1 hierarchy, not delegated by the
 * parent, no write permission, processes in the way), so the supervisor can
 * fall back to rlimits and say so.  Reads only: nothing is created.  *ret
 * is untouched on failure; ret NULL only asks whether the run could.
 */
int nsb_cgroup_place(const struct nsb_cgroup_opts *o, const char *const controllers[],
		     struct nsb_cgroup_place *ret, struct nsb_error *e);

/*
 * Create the run's cgroup under the parent nsb_cgroup_place() chose (placed
 * for at least the controllers l needs), enable the controllers the limits
 * need (memory and pids also for accounting, when available), write the
 * limits and memory.oom.group=1, open the leaf.  On failure nothing is left
 * behind.  *ret is reset first and filled in place.
 */
int nsb_cgroup_create(const struct nsb_cgroup_place *where, const struct nsb_cgroup_limits *l,
		      struct nsb_cgroup *ret, struct nsb_error *e);

/* Kill every process of the run at once (cgroup.kill; signals each pid on
 * kernels without it). */
int nsb_cgroup_kill(const struct nsb_cgroup *cg, struct nsb_error *e);

/* Read accounting; unknown values are NSB_CGROUP_MAX.  Fails only when the
 * cgroup itself is gone. */
int nsb_cgroup_read_stats(const struct nsb_cgroup *cg, struct nsb_cgroup_stats *ret,
			  struct nsb_error *e);

/* Kill what is left, remove leaf and outer cgroup (retrying while the kernel
 * still counts dying tasks), close the fds.  cg is reset either way. */
int nsb_cgroup_destroy(struct nsb_cgroup *cg, struct nsb_error *e);

/*
 * Remove nsbox-<pid>-* cgroups under parent_dir whose pid is dead: a crashed
 * supervisor's leftovers.  Their processes are killed first.  Returns the
 * number removed.
 */
int nsb_cgroup_clean_stale(const char *parent_dir, struct nsb_error *e);
