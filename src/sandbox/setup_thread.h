/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A thread of init for one part of the sandbox's setup, run beside init's
 * own: the network namespace while init mounts (net.h), or the mounts while
 * init makes the network namespace and locks itself down (init_build.c).
 *
 * The thread takes a pid inside the sandbox, and the payload must still be
 * pid 2 (DESIGN): init, which holds CAP_SYS_ADMIN over its PID namespace
 * until it drops everything, points ns_last_pid past 2 before the thread is
 * created (the thread gets NSB_SETUP_THREAD_PID) and back to 1 with
 * nsb_setup_thread_rewind, so pid 2 is never handed out before the payload
 * asks for one.  When ns_last_pid cannot be opened or written (no
 * CONFIG_CHECKPOINT_RESTORE, no /proc) or no thread can be had, start says
 * so and the caller runs the job inline instead: slower, never different.
 */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

#define NSB_SETUP_THREAD_PID 300 /* below the smallest pid_max the kernel allows (301) */

struct nsb_setup_thread {
	pthread_t thread;
	bool threaded; /* a thread runs fn; else nothing was started */
	void *stack;   /* the thread's stack, ours: unmapped once it is joined */
	size_t stack_size;
	int last_pid_fd; /* /proc/sys/kernel/ns_last_pid, opened for writing */
	void (*fn)(void *);
	void *arg;
};

/*
 * Run fn(arg) on a new thread with a stack of stack_size bytes.  Returns 1
 * when it runs; 0 when no thread could be had (nothing started, ns_last_pid
 * back where the next pid is 2: the caller runs the job inline); -errno
 * when ns_last_pid could not be put back (the run must fail).
 *
 * fds is how many descriptors init may hold at once while the thread runs
 * (the mounts open every bind's tree before attaching any).  The table of
 * descriptors is grown to that size first: growing a table that a live
 * thread shares makes the kernel wait for an RCU grace period (expand_files
 * calls synchronize_rcu), about 10 ms here, and a caller such as Python's
 * subprocess, which closes every descriptor above 2 before exec, hands
 * nsbox the smallest table (64), so the mounts used to grow it.
 */
int nsb_setup_thread_start(struct nsb_setup_thread *t, unsigned fds, size_t stack_size,
			   void (*fn)(void *), void *arg);

/* ns_last_pid back to 1, so that the next process made is pid 2; needs
 * CAP_SYS_ADMIN over the PID namespace.  Once; 0 or -errno. */
int nsb_setup_thread_rewind(struct nsb_setup_thread *t);

/* Wait for the thread's end and release its stack.  0 or -errno.  (The
 * caller rewinds: ns_last_pid's descriptor is closed by the rewind.) */
int nsb_setup_thread_join(struct nsb_setup_thread *t);
