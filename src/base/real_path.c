// SPDX-License-Identifier: GPL-2.0-or-later
/* realpath(3) for many paths in the same directories (real_path.h). */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/real_path.h"
#include "base/util.h"

char *nsb_real_path(const char *path, const char *cwd, const char *known)
{
	_cleanup_free_ char *abs = NULL;
	size_t n, cut = 0, i;
	char *p;

	if (path[0] != '/') {
		if (!cwd)
			return realpath(path, NULL);
		known = cwd;
		if (nsb_aformat(&abs, "%s/%s", cwd, path) < 0)
			return realpath(path, NULL);
	} else if (!(abs = strdup(path))) {
		return NULL;
	}
	n = strlen(abs);
	if (!known || n >= PATH_MAX)
		return realpath(path, NULL);
	/* The longest directory of known that abs lies under ("/" at least). */
	for (i = 0; abs[i] && abs[i] == known[i]; i++)
		if (abs[i] == '/')
			cut = i;
	if (abs[i] == '/' && !known[i])
		cut = i;
	/* Each name after it, on the path up to that name. */
	for (p = abs + cut; *p;) {
		char *name = p + 1, *end = strchrnul(name, '/');
		char buf[1];
		size_t len = (size_t)(end - name);

		if (len == 0 || (name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.'))))
			return realpath(path, NULL);
		char c = *end;
		*end = '\0';
		bool plain = readlink(abs, buf, sizeof(buf)) < 0 && errno == EINVAL;
		*end = c;
		if (!plain)
			return realpath(path, NULL);
		p = end;
	}
	return TAKE_PTR(abs);
}
