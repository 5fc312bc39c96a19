// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's input (supervisor, pure): inside paths mapped to host paths
 * through the roots, and the basename a command is called by.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gate/gate_input.h"
#include "base/fmt.h"
#include "base/util.h"

/*
 * How far a relative remainder climbs: false when some ".." in it goes above
 * its starting directory (so the mapping through that root would be wrong).
 */
static bool stays_below(const char *rest)
{
	int depth = 0;
	const char *c;
	size_t n;

	while ((c = nsb_path_next(&rest, &n))) {
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			if (--depth < 0)
				return false;
		} else if (!(n == 1 && c[0] == '.')) {
			depth++;
		}
	}
	return true;
}

int nsb_gate_map_host(const struct nsb_gate_input *in, const char *inside, char *out, size_t outsz)
{
	const struct nsb_gate_root *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < in->n_roots; i++) {
		const char *ri = in->roots[i].inside;
		size_t n = strlen(ri);
		if (!nsb_path_is_under(inside, ri) || (best && n <= best_len))
			continue;
		if (!stays_below(inside + (n == 1 ? 0 : n)))
			continue;
		best = &in->roots[i];
		best_len = n;
	}
	int n;
	if (best && !(best_len == 1))
		n = nsb_format(out, outsz, "%s%s", best->host, inside + best_len);
	else if (best)
		n = nsb_format(out, outsz, "%s%s%s", best->host, strcmp(best->host, "/") ? "/" : "",
			       inside + 1);
	else
		n = nsb_format(out, outsz, "%s", inside);
	return n < 0 || (size_t)n >= outsz ? -ENAMETOOLONG : 0;
}

const char *nsb_gate_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}
