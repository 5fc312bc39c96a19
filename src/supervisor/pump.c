// SPDX-License-Identifier: GPL-2.0-or-later
/* The stdio pumps: output passed on or kept up to a limit, stdin relayed in.  Supervisor. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/macro.h"
#include "supervisor/pump.h"

static void write_all(struct nsb_outpump *s, const char *p, size_t n)
{
	while (n > 0 && !s->dest_broken) {
		ssize_t w = write(s->dest, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			s->dest_broken = true;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

static int keep(struct nsb_outpump *s, const char *p, size_t n)
{
	struct nsb_captured *c = s->cap;
	char *d = realloc(c->data, c->len + n + 1);
	if (!d)
		return -ENOMEM;
	memcpy(d + c->len, p, n);
	c->len += n;
	d[c->len] = '\0';
	c->data = d;
	return 0;
}

/*
 * Without --capture the bytes need not be seen while the limit is more than
 * one buffer away: move them from the pipe to the caller's descriptor inside
 * the kernel.  The last buffer before the limit goes through read and write,
 * so that the truncation marker knows the last byte passed on.  Returns false
 * when splice cannot serve this pair (then read/write do, from now on) or
 * the limit is near.
 */
static bool pump_splice(struct nsb_outpump *s, uint64_t max_output, bool capture)
{
	ssize_t n;

	if (s->no_splice || s->dest_broken || capture)
		return false;
	if (max_output != UINT64_MAX &&
	    (s->passed >= max_output || max_output - s->passed <= NSB_PUMP_BUF))
		return false;
	n = splice(s->fd, NULL, s->dest, NULL, NSB_PUMP_BUF, SPLICE_F_MOVE);
	if (n < 0 && errno == EINTR)
		return true;
	if (n < 0 && (errno == EINVAL || errno == EBADF)) {
		/* e.g. an O_APPEND file or a terminal as dest */
		s->no_splice = true;
		return false;
	}
	if (n < 0) {
		s->dest_broken = true; /* read and count the rest */
		return false;
	}
	if (n == 0) {
		nsb_closep(&s->fd);
		return true;
	}
	s->total += (uint64_t)n;
	s->passed += (uint64_t)n;
	return true;
}

int nsb_outpump_run(struct nsb_outpump *s, char *buf, uint64_t max_output, bool capture)
{
	if (pump_splice(s, max_output, capture))
		return 0;

	ssize_t n = read(s->fd, buf, NSB_PUMP_BUF);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		nsb_closep(&s->fd);
		return 0;
	}
	s->total += (uint64_t)n;

	uint64_t room = max_output > s->passed ? max_output - s->passed : 0;
	size_t take = (uint64_t)n < room ? (size_t)n : (size_t)room;
	if (take > 0) {
		if (capture) {
			if (keep(s, buf, take) < 0)
				return -ENOMEM;
		} else {
			write_all(s, buf, take);
		}
		s->passed += take;
		s->last = buf[take - 1];
	}
	if (take < (size_t)n && !s->truncated) {
		s->truncated = true;
		if (!capture) {
			char marker[128];
			int m = nsb_format(marker, sizeof(marker),
					   "%s[nsbox: %s truncated after %llu bytes]\n",
					   s->passed && s->last != '\n' ? "\n" : "", s->name,
					   (unsigned long long)max_output);
			write_all(s, marker, (size_t)m);
		}
	}
	return 0;
}

void nsb_inpump_read(struct nsb_inpump *in)
{
	struct termios tm;
	ssize_t n;

	/* A file into the stdin pipe: in the kernel, without a copy here.
	 * (EINVAL: a source splice cannot read, such as a terminal.) */
	if (!in->to_pty && !in->no_splice) {
		n = splice(in->src, NULL, in->dst, NULL, NSB_PUMP_BUF,
			   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		/* EAGAIN: the pipe is full; wait until it has room. */
		in->wait_room = n < 0 && errno == EAGAIN;
		if (n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN)))
			return;
		if (n < 0 && errno == EINVAL)
			in->no_splice = true;
		else
			goto end;
	}
	n = read(in->src, in->buf, NSB_PUMP_BUF);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n > 0) {
		in->off = 0;
		in->len = (size_t)n;
		return;
	}
end:
	/* End of input (or EIO: an orphaned background job may not read its
	 * terminal).  A pipe is closed so the payload sees EOF; a terminal in
	 * canonical mode gets its EOF character once, as if typed. */
	in->src = -1;
	if (!in->to_pty)
		nsb_closep(&in->dst);
	else if (tcgetattr(in->dst, &tm) == 0 && (tm.c_lflag & ICANON)) {
		in->buf[0] = (char)tm.c_cc[VEOF];
		in->off = 0;
		in->len = 1;
	}
}

void nsb_inpump_write(struct nsb_inpump *in)
{
	ssize_t w = write(in->dst, in->buf + in->off, in->len - in->off);

	if (w < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (w < 0) {
		/* EPIPE: the payload closed its stdin; nothing more to pass. */
		nsb_closep(&in->dst);
		in->src = -1;
		in->len = 0;
		return;
	}
	in->off += (size_t)w;
	if (in->off < in->len)
		return;
	in->off = in->len = 0;
	if (in->src < 0 && !in->to_pty)
		nsb_closep(&in->dst);
}
