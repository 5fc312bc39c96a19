/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The supervisor's side of --pty: receive the master that init opened on the
 * sandbox's own devpts, and keep the caller's terminal in raw mode while the
 * relay runs, restored on every way out (exit, timeout, signals, ^Z from
 * outside), with job control left to the kernel.
 */
#pragma once

#include <stdbool.h>
#include <termios.h>

/* The caller's terminal (stdin), as the relay found it. */
struct nsb_tty {
	int fd;		      /* -1: stdin is not a terminal (nothing to switch) */
	bool raw;	      /* currently in raw mode */
	struct termios saved; /* the caller's modes, put back by nsb_tty_restore */
};

/* Remember the caller's modes of fd (a terminal).  Returns 0 or -errno. */
int nsb_tty_open(struct nsb_tty *t, int fd);

/* Raw mode, only in the foreground (a background job leaves the terminal
 * alone; reading it then stops nsbox with SIGTTIN, as it should). */
void nsb_tty_raw(struct nsb_tty *t);

/* Put the caller's modes back (also from the background). */
void nsb_tty_restore(struct nsb_tty *t);

/* ^Z from outside (SIGTSTP): restore the terminal, then stop like any job;
 * returns once continued, raw again if in the foreground. */
void nsb_tty_suspend(struct nsb_tty *t);

/* Copy the caller's window size (from any of fds 0-2) onto the pty master. */
void nsb_tty_copy_winsize(int master);
