/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The decision about the payload's stdin, stdout and stderr (pure data):
 * made by the supervisor (spawn.c: nsb_stdio_decide), carried out by init.
 */
#pragma once

#include <stdbool.h>
#include <sys/ioctl.h>

/*
 * What the payload gets as stdin, stdout and stderr.  The payload never holds
 * a descriptor to a host inode it was not granted by a bind: a caller's
 * regular file, directory, named FIFO or block device would let it reopen
 * the file for writing through /proc/self/fd, fchmod/futimens it, or walk the
 * host tree from a directory; such streams go through a pipe that the
 * supervisor pumps.
 */
enum nsb_stdio_how {
	NSB_STDIO_INHERIT, /* the caller's own fd: an anonymous pipe, a socket, a terminal */
	NSB_STDIO_PIPE,	   /* a pipe pumped by the supervisor */
	NSB_STDIO_PTY,	   /* the sandbox's own pseudo-terminal */
	NSB_STDIO_REOPEN,  /* the sandbox's own /dev node of the same kind (null, zero, ...) */
	NSB_STDIO_CLOSED,  /* closed in the caller, closed inside */
};

struct nsb_stdio {
	enum nsb_stdio_how how[3];
	char reopen[3][16]; /* NSB_STDIO_REOPEN: "/dev/null" ... */
	int reopen_flags[3];
	bool closed[3];	  /* closed in the caller (held by /dev/null in nsbox until init) */
	bool pty;	  /* a pseudo-terminal for the payload */
	bool in_tty;	  /* the caller's stdin is a terminal (the pty relay reads it) */
	bool has_winsize; /* the caller's window size, copied onto the pty */
	struct winsize winsize;
};
