/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The supervisor's stdio pumps: the payload's stdout and stderr on their way
 * out (passed on, or kept for the record, up to a limit, the rest counted and
 * drained), and the caller's stdin on its way in (to the stdin pipe or the pty
 * master).  Each call moves what is there and never blocks; supervise.c's
 * event loop decides when to call.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes moved per call, and the size of the buffers the caller hands in. */
#define NSB_PUMP_BUF (128u << 10)

/* Output kept for the record with --capture (malloc'd, up to max_output). */
struct nsb_captured {
	char *data;
	size_t len;
};

/* One of the payload's output streams on its way to the caller (or the record). */
struct nsb_outpump {
	int fd;	  /* read end, -1 once at EOF */
	int dest; /* the caller's fd (1 or 2) */
	const char *name;
	uint64_t total;	 /* everything the payload produced */
	uint64_t passed; /* what went on (or was kept) */
	bool truncated;
	bool dest_broken; /* the caller closed its end: keep draining */
	bool no_splice;	  /* splice(2) does not work between fd and dest */
	char last;	  /* last byte passed on, for the marker's newline */
	struct nsb_captured *cap;
};

/* The caller's stdin on its way in: to the stdin pipe, or to the pty master. */
struct nsb_inpump {
	int src; /* the caller's fd 0 (never closed here), -1 once at EOF */
	int dst; /* the pipe's write end or a dup of the master (O_NONBLOCK), -1 when done */
	bool to_pty;
	bool no_splice; /* the source is not one splice(2) reads (a terminal) */
	bool wait_room; /* splice found the pipe full */
	char *buf;
	size_t off, len; /* pending bytes: buf[off..len) */
};

/*
 * Read what is there from s->fd (BUF: NSB_PUMP_BUF bytes); pass it to s->dest
 * or keep it (CAPTURE) up to MAX_OUTPUT (UINT64_MAX: unbounded), count the
 * rest.  Closes s->fd at EOF.  Returns 0, or -ENOMEM when keeping failed.
 */
int nsb_outpump_run(struct nsb_outpump *s, char *buf, uint64_t max_output, bool capture);

/* in->src is readable: take what is there (at EOF, close or send VEOF). */
void nsb_inpump_read(struct nsb_inpump *in);

/* in->dst has room: write the pending bytes. */
void nsb_inpump_write(struct nsb_inpump *in);
