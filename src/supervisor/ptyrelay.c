// SPDX-License-Identifier: GPL-2.0-or-later
/* The caller's terminal while --pty relays: raw mode, restore, ^Z, window size.  Supervisor. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/macro.h"
#include "supervisor/ptyrelay.h"

int nsb_tty_open(struct nsb_tty *t, int fd)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	/* tcgetattr works from the background too: no SIGTTOU for reading. */
	if (tcgetattr(fd, &t->saved) < 0)
		return nsb_negerrno();
	t->fd = fd;
	return 0;
}

void nsb_tty_raw(struct nsb_tty *t)
{
	struct termios raw;
	pid_t fg;

	if (t->fd < 0 || t->raw)
		return;
	fg = tcgetpgrp(t->fd);
	if (fg < 0 || fg != getpgrp())
		return;
	raw = t->saved;
	/* Every byte goes to the pty as typed: ^C, ^Z and ^D are the
	 * payload's terminal's business, and its output is already cooked. */
	cfmakeraw(&raw);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(t->fd, TCSADRAIN, &raw) == 0)
		t->raw = true;
}

void nsb_tty_restore(struct nsb_tty *t)
{
	sigset_t ttou, old;

	if (t->fd < 0 || !t->raw)
		return;
	/* From the background tcsetattr would stop us with SIGTTOU; blocked,
	 * the kernel lets it through, and the caller gets its terminal back. */
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old);
	while (tcsetattr(t->fd, TCSADRAIN, &t->saved) < 0 && errno == EINTR)
		;
	sigprocmask(SIG_SETMASK, &old, NULL);
	t->raw = false;
}

void nsb_tty_suspend(struct nsb_tty *t)
{
	sigset_t tstp;

	nsb_tty_restore(t);
	/* The supervisor reads SIGTSTP from its signalfd; to stop for real,
	 * raise it again with the default action and let it through once. */
	sigemptyset(&tstp);
	sigaddset(&tstp, SIGTSTP);
	signal(SIGTSTP, SIG_DFL);
	kill(getpid(), SIGTSTP);
	sigprocmask(SIG_UNBLOCK, &tstp, NULL);
	/* Stopped here; SIGCONT resumes.  (The kernel discards SIGTSTP for an
	 * orphaned process group: then we never stopped, and go on raw.) */
	sigprocmask(SIG_BLOCK, &tstp, NULL);
	nsb_tty_raw(t);
}

void nsb_tty_copy_winsize(int master)
{
	struct winsize ws;

	for (int fd = 0; fd < 3; fd++)
		if (ioctl(fd, TIOCGWINSZ, &ws) == 0) {
			/* The kernel sends SIGWINCH to the pty's foreground. */
			ioctl(master, TIOCSWINSZ, &ws);
			return;
		}
}
