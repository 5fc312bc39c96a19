// SPDX-License-Identifier: GPL-2.0-or-later
/* Kill and reap every descendant without a PID namespace (reap.h); init and the supervisor. */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/reap.h"
#include "base/macro.h"
#include "base/util.h"

/* A descendant tree deeper than this is cut: what lies below is reparented
 * to the caller once its ancestors die, and caught then. */
#define MAX_DEPTH 64

/* A zombie has exited already (its children are ours now): nothing to kill. */
static bool is_zombie(long pid)
{
	char path[64], buf[256], *p;
	_cleanup_close_ int fd = -1;
	ssize_t n;

	nsb_format(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true; /* gone */
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	/* The state follows the last ')' (comm may hold one). */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

/*
 * Kill pid's children as /proc/PID/task/TID/children lists them (every
 * thread may have forked), then theirs.  The kill comes first: a process
 * that is dying forks no more, and its list stays readable until it exits.
 */
static int kill_children_of(pid_t pid, int depth)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	int n = 0;

	if (depth > MAX_DEPTH)
		return 0;
	nsb_format(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return depth == 0 ? nsb_negerrno() : 0;
	while ((de = readdir(d))) {
		_cleanup_free_ char *word = NULL;
		size_t size = 0;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		nsb_format(path, sizeof(path), "/proc/%d/task/%.16s/children", (int)pid,
			   de->d_name);
		/* The whole list, however long: a fork bomb's parent lists
		 * thousands, and one left unread would survive. */
		f = fopen(path, "re");
		if (!f)
			continue;
		/* Space-separated pids. */
		while (getdelim(&word, &size, ' ', f) > 0) {
			char *end;
			long child = nsb_strtol10(word, &end);

			if (end == word || child <= 0 || is_zombie(child))
				continue;
			kill((pid_t)child, SIGKILL);
			n++;
			int r = kill_children_of((pid_t)child, depth + 1);
			n += r > 0 ? r : 0;
		}
		fclose(f);
	}
	closedir(d);
	return n;
}

int nsb_kill_descendants(void)
{
	return kill_children_of(getpid(), 0);
}

int nsb_reap_descendants(void)
{
	const struct timespec tick = {.tv_nsec = 1000000};
	int err = 0;

	for (;;) {
		int r = nsb_kill_descendants();
		bool reaped = false;
		pid_t p;

		if (r < 0)
			err = r;
		/* Every zombie there is before the next walk: one walk per
		 * reaped child made a crowd of n cost n walks of n. */
		while ((p = waitpid(-1, NULL, WNOHANG | __WALL)) > 0)
			reaped = true;
		if (p < 0 && errno == ECHILD)
			return err;
		if (p < 0 && errno != EINTR)
			return nsb_negerrno();
		/* Children left, none dead yet: SIGKILL is on its way. */
		if (!reaped)
			nanosleep(&tick, NULL);
	}
}
