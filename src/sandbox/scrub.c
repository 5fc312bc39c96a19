// SPDX-License-Identifier: GPL-2.0-or-later
/* scrub: what init's /proc files would show of the caller, overwritten (scrub.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "base/macro.h"
#include "base/util.h"
#include "core/config.h"
#include "sandbox/scrub.h"

extern char **environ;

/*
 * The original environment block stays in this process's memory (and in
 * /proc/1/environ) even once environ is cleared: overwrite the strings
 * themselves.  init never sets a variable (the payload's environment is
 * the plan's, passed to execve), so no array of glibc's own is left to
 * free, which is all clearenv() would add.
 */
void nsb_scrub_environment(void)
{
	for (char **p = environ; p && *p; p++)
		nsb_scrub(*p, strlen(*p));
	environ = NULL;
}

/*
 * /proc/PID/cmdline shows the argument block in a process's memory, to
 * anyone, whatever dumpable says, and init is a clone of the supervisor: it
 * would show nsbox's whole command line (host paths that SRC:DEST hides,
 * --env values, gate flags).  The plan owns copies of all init still needs
 * (plan.h), so the block is overwritten in place.  The kernel says where it
 * lies: fields 48 and 49 of /proc/self/stat, always shown to the process
 * itself.  What remains is "nsbox"; a non-NUL last byte makes the kernel
 * read the block as a retitled process's (up to the first NUL), so that
 * /proc/1/cmdline is exactly "nsbox" and not "nsbox" and a run of NULs.
 */
int nsb_scrub_cmdline(struct nsb_error *e)
{
	static const char title[] = "nsbox";
	char buf[1024], *p;
	unsigned long long start = 0, end = 0;
	_cleanup_close_ int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int field = 3; /* the first one after "(comm)" */

	if (fd < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_INIT, "open '/proc/self/stat'");
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_INIT, "read '/proc/self/stat'");
	buf[n] = '\0';
	/* comm may hold spaces and parentheses: the fields start after the last ')'. */
	p = strrchr(buf, ')');
	for (p = p ? p + 1 : NULL; p && field <= 49; field++) {
		p += nsb_strspn(p, " \n");
		if (!*p)
			break;
		if (field == 48)
			start = nsb_strtoull10(p, NULL);
		else if (field == 49)
			end = nsb_strtoull10(p, NULL);
		p += nsb_strcspn(p, " \n");
	}
	if (start == 0 || end <= start || end - start > NSB_MAX_ARGV_BYTES + 1)
		return nsb_error_setx(e, -EIO, NSB_STAGE_INIT,
				      "cannot find the argument block in '/proc/self/stat'");

	char *block = (char *)(uintptr_t)start;
	size_t len = (size_t)(end - start);
	/* The block must be the one nsbox was started with: argv[0] (as libc
	 * kept it) opens it.  Under an emulator that builds its own client
	 * stack (valgrind), the kernel's block is the emulator's, holding the
	 * same command line out of reach: refuse rather than run visible. */
	if (program_invocation_name != block)
		return nsb_error_setx(
			e, -EFAULT, NSB_STAGE_INIT,
			"the argument block the kernel shows is not nsbox's own (run under an emulator such as valgrind?): /proc/1/cmdline would show nsbox's command line");
	nsb_scrub(block, len);
	if (len >= sizeof(title) + 1) {
		memcpy(block, title, sizeof(title));
		block[len - 1] = ' ';
	}
	return 0;
}
