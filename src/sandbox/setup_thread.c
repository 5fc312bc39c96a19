// SPDX-License-Identifier: GPL-2.0-or-later
/* A setup thread of init with a pid that is never 2 (setup_thread.h). */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/macro.h"
#include "base/prefault.h"
#include "base/util.h"
#include "sandbox/setup_thread.h"

/* Where the namespace's next pid comes from: ns_last_pid + 1. */
static int set_last_pid(int fd, int last)
{
	char buf[16];
	int n = nsb_format(buf, sizeof(buf), "%d", last);

	return pwrite(fd, buf, (size_t)n, 0) == n ? 0 : nsb_negerrno();
}

/*
 * The thread ends with the exit system call itself, not by returning into
 * glibc's thread teardown (__libc_thread_freeres: the resolver's, Sun RPC's
 * and the TLS's cleanups), which this thread has nothing for and which
 * would fault three 64 KiB windows of libc's text into init, each resident
 * for the whole run (base/fmt.h).  The kernel still clears the thread's
 * tid and wakes pthread_join (CLONE_CHILD_CLEARTID), which then frees the
 * thread's TLS; what stays is its malloc cache, a few hundred bytes for
 * init's life.  Sanitizers track a thread's end in that teardown: there,
 * it returns.
 */
static void *setup_thread(void *arg)
{
	const struct nsb_setup_thread *t = arg;

	t->fn(t->arg);
	if (!NSB_ASAN)
		syscall(SYS_exit, 0);
	return NULL;
}

/*
 * Every CPU init may run on but the one it is on now, for the thread: the
 * kernel places a new thread on its creator's CPU about as often as on an
 * idle one, and there the thread waited for init's own long calls (the
 * network namespace, the filter's load) for 0.25 to 1 ms, in 44 % of
 * launches.  False (no affinity given) with a single CPU to run on.
 */
static bool other_cpus(cpu_set_t *set)
{
	int here = sched_getcpu();

	if (here < 0 || sched_getaffinity(0, sizeof(*set), set) < 0)
		return false;
	if (here >= CPU_SETSIZE || !CPU_ISSET(here, set) || CPU_COUNT(set) < 2)
		return false;
	CPU_CLR(here, set);
	return true;
}

int nsb_setup_thread_start(struct nsb_setup_thread *t, unsigned fds, size_t stack_size,
			   void (*fn)(void *), void *arg)
{
	pthread_attr_t attr;

	*t = (struct nsb_setup_thread){
		.last_pid_fd = -1, .stack_size = stack_size, .fn = fn, .arg = arg};
	/* The thread takes NSB_SETUP_THREAD_PID, never 2. */
	t->last_pid_fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	if (t->last_pid_fd < 0)
		return 0;
	if (set_last_pid(t->last_pid_fd, NSB_SETUP_THREAD_PID - 1) == 0 &&
	    pthread_attr_init(&attr) == 0) {
		nsb_fd_table_reserve(t->last_pid_fd, fds);
		/* A stack without a guard page, and ours: glibc keeps the
		 * stacks it makes in a cache after the join, where their
		 * pages would stay init's for the whole run (16 KiB).  The
		 * thread's allocations come from the main arena: a thread
		 * arena of its own would cost a 128 MiB reservation and four
		 * system calls. */
		mallopt(M_ARENA_MAX, 1);
		t->stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (t->stack == MAP_FAILED)
			t->stack = NULL;
		else
			/* glibc's thread descriptor and the thread's first
			 * frames, at the top (base/prefault.h) */
			(void)nsb_prefault_range((char *)t->stack + stack_size -
							 NSB_PREFAULT_THREAD_STACK,
						 (char *)t->stack + stack_size);
		cpu_set_t cpus;
		if (other_cpus(&cpus))
			/* best effort: the thread runs anyway without it */
			(void)pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
		if (t->stack && pthread_attr_setstack(&attr, t->stack, stack_size) == 0)
			t->threaded = pthread_create(&t->thread, &attr, setup_thread, t) == 0;
		pthread_attr_destroy(&attr);
	}
	if (t->threaded)
		return 1;
	if (t->stack)
		munmap(t->stack, stack_size);
	t->stack = NULL;
	/* The next pid must still be 2. */
	return nsb_setup_thread_rewind(t);
}

int nsb_setup_thread_rewind(struct nsb_setup_thread *t)
{
	int r = 0;

	if (t->last_pid_fd >= 0) {
		r = set_last_pid(t->last_pid_fd, 1);
		nsb_closep(&t->last_pid_fd);
	}
	return r;
}

int nsb_setup_thread_join(struct nsb_setup_thread *t)
{
	int r = 0;

	if (t->threaded) {
		r = -pthread_join(t->thread, NULL);
		t->threaded = false;
		/* Joined: nothing runs on it any more. */
		if (r == 0 && t->stack && munmap(t->stack, t->stack_size) == 0)
			t->stack = NULL;
	}
	return r;
}
