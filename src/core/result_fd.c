// SPDX-License-Identifier: GPL-2.0-or-later
/* --result-fd's descriptor, checked before the run (result.h). */
#include <errno.h>
#include <fcntl.h>

#include "base/util.h"
#include "core/result.h"

/* The record fd must never reach the sandbox: CLOEXEC here, and init closes
 * every inherited fd anyway. */
int nsb_result_fd_check(int fd, struct nsb_error *e)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0) {
		nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USAGE,
			      "--result-fd %d: not an open file descriptor", fd);
		return nsb_error_hint(
			e, "open it in the calling shell, e.g. --result-fd 3 3>record.json");
	}
	if ((fl & O_ACCMODE) == O_RDONLY)
		return nsb_error_setx(e, -EBADF, NSB_STAGE_USAGE,
				      "--result-fd %d: not open for writing", fd);
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USAGE,
				     "--result-fd %d: set close-on-exec", fd);
	return 0;
}
