/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The seccomp listener, served in the supervisor's event loop: every call
 * the filter reports (SECCOMP_RET_USER_NOTIF, seccomp/filter.c) is answered
 * with the errno its rule carries and counted, one record entry per syscall
 * and action with its first occurrence.  Allowed calls never come here.
 *
 *   struct nsb_notify nt;
 *   nsb_notify_init(&nt, &bpf);         // before the run
 *   nsb_notify_take(&nt, listener);     // the fd from init (SCM_RIGHTS)
 *   ... poll nt.fd; on POLLIN/POLLHUP: nsb_notify_serve(&nt, &e) ...
 *   nsb_notify_record(&nt, res);        // the record's entries
 *   nsb_notify_close(&nt);
 *
 * SECCOMP_IOCTL_NOTIF_ID_VALID is asked where it matters: after reading a
 * caller's /proc/PID/status for a new entry and before answering, so that a
 * pid reused meanwhile is never named.  Answering itself needs no check: the
 * kernel matches the answer to the waiting call by id, and an id whose
 * caller is gone gets ENOENT, which is not an error here.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "core/result.h"
#include "seccomp/filter.h"
#include "supervisor/learn.h"

struct nsb_notify {
	int fd;			   /* the listener, -1 until it arrives and once it is done */
	bool got;		   /* a listener arrived */
	const struct nsb_bpf *bpf; /* the program the kernel runs (its errnos) */
	int64_t t0_ms;		   /* "ms" counts from here (nsb_mono_ms) */
	void *req, *resp;	   /* sized by the kernel (SECCOMP_GET_NOTIF_SIZES) */
	size_t req_size, resp_size;
	struct nsb_seccomp_violation *ent; /* NSB_RESULT_MAX_SECCOMP, allocated at the first */
	int *ent_err;			   /* each entry's errno (the key is nr and errno) */
	size_t n_ent;
	size_t last; /* the entry hit last: a loop of one refused call finds it at once */
	uint64_t unlisted;
	uint64_t total; /* every reported refusal */
	/* --seccomp-learn: the counts (learn.h), allocated when the
	 * listener arrives; every call is let continue. */
	struct nsb_learned *learned;
};

/* Nothing allocated, no syscall: a run that never gets a listener pays
 * nothing. */
void nsb_notify_init(struct nsb_notify *nt, const struct nsb_bpf *bpf);

/* The listener arrived: keep it (non-blocking).  Returns 0 or -errno (e set). */
int nsb_notify_take(struct nsb_notify *nt, int fd, struct nsb_error *e);

/*
 * Answer what is pending (a bounded batch, so that the loop serves its other
 * sources too).  A listener with no process left is closed (fd -1).  A
 * failing ioctl is an error (-errno, e set): the caller must end the run,
 * since the refused call would otherwise wait forever.
 */
int nsb_notify_serve(struct nsb_notify *nt, struct nsb_error *e);

/* Point res at the entries (which stay owned by nt until nsb_notify_close). */
void nsb_notify_record(const struct nsb_notify *nt, struct nsb_result *res);

/* The one stderr line for the end of a run; 0 when nothing was refused. */
int nsb_notify_summary(const struct nsb_notify *nt, char *buf, size_t size);

void nsb_notify_close(struct nsb_notify *nt);

/* Pure: the in-sandbox thread-group id (NStgid's last field) and Name of a
 * /proc/PID/status text; -1/"" when absent. */
void nsb_notify_parse_status(const char *text, int *ret_pid, char *comm, size_t comm_size);
