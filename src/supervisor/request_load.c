// SPDX-License-Identifier: GPL-2.0-or-later
/* Read the request document from a file, standard input or a descriptor (request_load.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "supervisor/request_load.h"
#include "base/fmt.h"
#include "base/macro.h"
#include "core/request.h"

/* Read fd to its end, at most max bytes (one more is read to see the excess). */
static int read_all(int fd, size_t max, char **ret, size_t *ret_len)
{
	_cleanup_free_ char *buf = malloc(max + 1);
	size_t len = 0;

	if (!buf)
		return -ENOMEM;
	while (len <= max) {
		ssize_t n = read(fd, buf + len, max + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > max)
		return -E2BIG;
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
}

static int load_err(struct nsb_error *e, int err, const char *what)
{
	nsb_error_setx(e, err, NSB_STAGE_USAGE, "read the request %s: %s", what,
		       err == -E2BIG ? "larger than 1 MiB" : strerror(-err));
	if (err == -E2BIG)
		nsb_error_hint(e, "pass large inputs in a file under an ro directory");
	return err;
}

int nsb_request_load(struct nsb_config *c, struct nsb_jdoc *d, struct nsb_error *e)
{
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int owned = -1;
	char src[NSB_MAX_PATH + 16];
	size_t len = 0;
	int fd, r;

	if (c->has_request_fd) {
		/* Never the record's descriptor: the document would be read
		 * from where the record is to be written. */
		if (c->request_fd == c->result_fd) {
			nsb_error_setx(e, -EINVAL, NSB_STAGE_USAGE,
				       "--request-fd %d: it is also the --result-fd",
				       c->request_fd);
			return -EINVAL;
		}
		fd = c->request_fd;
		nsb_format(src, sizeof(src), "fd %d", fd);
	} else if (strcmp(c->request, "-") == 0) {
		fd = STDIN_FILENO;
		nsb_format(src, sizeof(src), "<stdin>");
	} else {
		owned = open(c->request, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (owned < 0)
			return load_err(e, -errno, c->request);
		fd = owned;
		nsb_format(src, sizeof(src), "%s", c->request);
	}
	r = read_all(fd, NSB_REQUEST_MAX_LEN, &buf, &len);
	if (r < 0)
		return load_err(e, r, src);
	/* A descriptor handed over for the document is used up: closed, so
	 * nothing later (the sandbox closes it anyway) can read it again. */
	if (c->has_request_fd && fd > STDERR_FILENO)
		close(fd);
	r = nsb_request_apply(c, d, buf, len, src, e);
	/* The strings are in d's arena; the text goes. */
	d->buf = NULL;
	return r;
}
