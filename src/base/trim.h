/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Giving back what a long wait does not need: this process's page-table
 * entries for every loaded object's read-only segments (text and
 * constants: clean file pages, still in the page cache, faulted back on
 * the next touch), the stack below the caller's frame, and malloc's free
 * memory.  For a process about to sleep through the payload's life (the
 * supervisor, init).  Never anything the process still holds: writable
 * segments (data, relocations, RELRO) and live heap are left alone.
 *
 * The supervisor trims itself once a sandbox has lived NSB_TRIM_AFTER_MS,
 * then sends init NSB_SIG_TRIM (init trims on it): a launch shorter than
 * that pays nothing, not even a system call.  While more tasks are
 * runnable than there are CPUs, the trim waits: dropping and faulting back
 * pages then costs the CPU time those tasks are queued for.
 */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NSB_TRIM_AFTER_MS 100

/* A trim put off because every CPU is taken (nsb_cpu_saturated) is tried
 * again after twice the last wait, never more than this. */
#define NSB_TRIM_RETRY_MAX_MS 1600

/* Sent by the supervisor to init, blocked in both from before the clone
 * (never a default action: a real-time signal nothing else sends). */
#define NSB_SIG_TRIM (SIGRTMIN + 4)

/*
 * Asked before each madvise(addr, len, MADV_DONTNEED): true lets it run.
 * init asks its own seccomp programs (a profile may refuse madvise, or
 * kill for it).  NULL: always.
 */
typedef bool (*nsb_trim_allowed_fn)(const void *ud, uintptr_t addr, size_t len);

/*
 * Drop this process's mappings of every loaded object's read-only PT_LOAD
 * pages (the vDSO aside), one madvise per object.  Returns how many
 * objects were advised, or the first -errno (the others are still done:
 * -EPERM for one @allowed refused).
 */
int nsb_trim_text(nsb_trim_allowed_fn allowed, const void *ud);

/*
 * The same for the dynamic loader alone (AT_BASE), which nsbox no longer
 * calls once the run's facts are gathered (every symbol is bound at
 * start-up, -z now): the supervisor drops it there, so that the 200 KiB it
 * mapped are not in its peak RSS.  Returns 1, 0 when there is no loader to
 * trim, or -errno.
 */
int nsb_trim_loader(void);

/*
 * Drop the stack pages from 8 KiB below the caller's frame to @depth
 * below that.  Only on the main thread's stack, below which the kernel
 * keeps a guard gap where nothing else is mapped (-EINVAL elsewhere).
 * Returns 0 or -errno.
 */
int nsb_trim_stack(size_t depth, nsb_trim_allowed_fn allowed, const void *ud);

/* Text, 256 KiB of stack and, with @heap, malloc_trim (whose own madvise
 * calls no callback sees).  Returns the first error, or 0. */
int nsb_trim(bool heap, nsb_trim_allowed_fn allowed, const void *ud);

/* The runnable tasks in the text of /proc/loadavg (its fourth field,
 * "RUNNABLE/TOTAL"), or -1 when the text does not hold that field. */
long nsb_loadavg_runnable(const char *text);

/* More tasks are runnable on this machine than it has CPUs online (the
 * caller, running, among them).  False when either cannot be read: the
 * trim then runs as it would have. */
bool nsb_cpu_saturated(void);
