/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup v2 values and parsers (pure: cgroup_parse.c reads only the text it
 * is handed): what the limit decisions and the cgroup code share.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* "max" in a limit file; also "unknown" in struct nsb_cgroup_stats. */
#define NSB_CGROUP_MAX UINT64_MAX

/* Runs are named <prefix><supervisor pid>-<64 random bits, hex>. */
#define NSB_CGROUP_NAME_PREFIX "nsbox-"

#define NSB_CGROUP_PERIOD_US_DEFAULT 100000
#define NSB_CGROUP_QUOTA_US_MIN	     1000 /* the kernel refuses smaller cpu.max quotas */
#define NSB_CGROUP_CPUS_MAX	     4096 /* --cpus above this is a typo, not a machine */

/* ---- parsers and formatters ---- */

/* Find the cgroup2 mount in mountinfo text: mount point and mount root. */
int nsb_cgroup_parse_mountinfo(const char *text, char *ret_mnt, size_t mnt_size, char *ret_root,
			       size_t root_size);

/* The "0::PATH" line of /proc/self/cgroup text. */
int nsb_cgroup_parse_proc_cgroup(const char *text, char *ret_path, size_t size);

/* The value of "KEY VALUE" in a flat-keyed file (cpu.stat, memory.events). */
int nsb_cgroup_parse_keyed(const char *text, const char *key, uint64_t *ret);

/* A single number or "max" (memory.peak, pids.max). */
int nsb_cgroup_parse_value(const char *text, uint64_t *ret);

/* Is NAME a word of a space-separated list (cgroup.controllers)? */
bool nsb_cgroup_list_has(const char *list, const char *name);

/* --cpus FRACTION ("0.5", "2", "1.25") to a cpu.max quota, exactly, no floats. */
int nsb_cgroup_cpus_to_quota(const char *fraction, uint64_t period_us, uint64_t *ret_quota_us);

/* The cpu.max line: "QUOTA PERIOD" or "max PERIOD". */
int nsb_cgroup_format_cpu_max(uint64_t quota_us, uint64_t period_us, char *buf, size_t size);

/* "nsbox-<pid>-<hex>" → pid; -EINVAL for any other name. */
int nsb_cgroup_parse_name(const char *name, pid_t *ret_pid);

/* Join the cgroup2 mount point with a cgroup path relative to the mount root
 * (/proc/self/cgroup paths); -EXDEV when the path is outside that root. */
int nsb_cgroup_join(const char *mnt, const char *mnt_root, const char *cgpath, char *ret,
		    size_t size);
