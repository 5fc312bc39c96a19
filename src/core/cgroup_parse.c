// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroup v2: the pure part.  Parsers of mountinfo, /proc/self/cgroup and the
 * cgroup files, --cpus arithmetic, run names.  No syscalls; unit-tested with
 * fixture text in tests/unit/test_cgroup_parse.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/cgroup_parse.h"
#include "base/fmt.h"
#include "base/macro.h"
#include "base/util.h"

/* Copy a mountinfo field, decoding the kernel's \ooo escapes (space, tab,
 * newline, backslash).  out NULL: only check that it fits in size. */
static int unescape_field(const char *s, size_t len, char *out, size_t size)
{
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '\\' && i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			c = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= size)
			return -ENAMETOOLONG;
		if (out)
			out[o] = c;
		o++;
	}
	if (out)
		out[o] = '\0';
	return 0;
}

/* Is the decoded field exactly "/"? */
static bool field_is_slash(const char *s, size_t len)
{
	char one[2];
	return unescape_field(s, len, one, sizeof(one)) == 0 && one[0] == '/';
}

/*
 * The fields of the chosen line are kept as pointers into text and decoded
 * once, at the end: no PATH_MAX copies on the stack (every run parses
 * mountinfo, and -fstack-clash-protection touches each page of a frame).
 * A field counts only if it decodes within PATH_MAX, as before.
 */
int nsb_cgroup_parse_mountinfo(const char *text, char *ret_mnt, size_t mnt_size, char *ret_root,
			       size_t root_size)
{
	const char *best_mnt = NULL, *best_root = NULL;
	size_t best_mnt_len = 0, best_root_len = 0;
	bool best_is_slash = false;

	for (const char *line = text; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t linelen = eol ? (size_t)(eol - line) : strlen(line);
		const char *f[5] = {0};
		size_t flen[5] = {0};
		const char *p = line, *end = line + linelen;
		int n = 0;

		/* id parent major:minor root mountpoint ... - fstype source opts */
		while (p < end && n < 5) {
			while (p < end && *p == ' ')
				p++;
			const char *start = p;
			while (p < end && *p != ' ')
				p++;
			if (p > start) {
				f[n] = start;
				flen[n++] = (size_t)(p - start);
			}
		}
		const char *sep = n == 5 ? strstr(p, " - ") : NULL;
		if (sep && sep < end) {
			const char *fs = sep + 3;
			if ((size_t)(end - fs) > 8 && !strncmp(fs, "cgroup2 ", 8) &&
			    unescape_field(f[4], flen[4], NULL, PATH_MAX) == 0 &&
			    unescape_field(f[3], flen[3], NULL, PATH_MAX) == 0) {
				bool is_slash = field_is_slash(f[3], flen[3]);
				/* Prefer a mount of the whole hierarchy (root "/")
				 * over a bind of a subtree; otherwise the first. */
				if (!best_mnt || (!best_is_slash && is_slash)) {
					best_mnt = f[4];
					best_mnt_len = flen[4];
					best_root = f[3];
					best_root_len = flen[3];
					best_is_slash = is_slash;
				}
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	if (!best_mnt)
		return -ENOENT;
	/* Both checked before either is written: on failure nothing is. */
	if (unescape_field(best_mnt, best_mnt_len, NULL, mnt_size) < 0 ||
	    unescape_field(best_root, best_root_len, NULL, root_size) < 0)
		return -ENAMETOOLONG;
	(void)unescape_field(best_mnt, best_mnt_len, ret_mnt, mnt_size);
	(void)unescape_field(best_root, best_root_len, ret_root, root_size);
	return 0;
}

int nsb_cgroup_parse_proc_cgroup(const char *text, char *ret_path, size_t size)
{
	for (const char *line = text; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		if (len >= 3 && !strncmp(line, "0::", 3)) {
			const char *path = line + 3;
			len -= 3;
			if (len == 0 || path[0] != '/')
				return -EINVAL;
			if (len >= size)
				return -ENAMETOOLONG;
			memcpy(ret_path, path, len);
			ret_path[len] = '\0';
			return 0;
		}
		line = eol ? eol + 1 : NULL;
	}
	return -ENOENT;
}

static int parse_u64(const char *s, size_t len, uint64_t *ret)
{
	uint64_t v = 0;
	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*ret = v;
	return 0;
}

int nsb_cgroup_parse_value(const char *text, uint64_t *ret)
{
	size_t len = nsb_strcspn(text, "\n");
	if (len == 3 && !strncmp(text, "max", 3)) {
		*ret = NSB_CGROUP_MAX;
		return 0;
	}
	return parse_u64(text, len, ret);
}

int nsb_cgroup_parse_keyed(const char *text, const char *key, uint64_t *ret)
{
	size_t klen = strlen(key);
	for (const char *line = text; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		if (len > klen && !strncmp(line, key, klen) && line[klen] == ' ')
			return parse_u64(line + klen + 1, len - klen - 1, ret);
		line = eol ? eol + 1 : NULL;
	}
	return -ENOENT;
}

bool nsb_cgroup_list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; *p;) {
		p += nsb_strspn(p, " \t\n");
		size_t w = nsb_strcspn(p, " \t\n");
		if (w == n && !strncmp(p, name, n))
			return true;
		p += w;
	}
	return false;
}

int nsb_cgroup_cpus_to_quota(const char *fraction, uint64_t period_us, uint64_t *ret_quota_us)
{
	uint64_t ip = 0, fp = 0, scale = 1;
	size_t il, fl = 0;
	int r;

	if (!fraction || period_us < 1000 || period_us > 1000000)
		return -EINVAL;
	il = nsb_strspn(fraction, "0123456789");
	if (il == 0 || il > 6)
		return il ? -ERANGE : -EINVAL;
	r = parse_u64(fraction, il, &ip);
	if (r < 0)
		return r;
	if (fraction[il] == '.') {
		fl = nsb_strspn(fraction + il + 1, "0123456789");
		/* More than 9 digits cannot change a microsecond quota. */
		if (fl == 0 || fl > 9)
			return -EINVAL;
		r = parse_u64(fraction + il + 1, fl, &fp);
		if (r < 0)
			return r;
		for (size_t i = 0; i < fl; i++)
			scale *= 10;
		if (fraction[il + 1 + fl] != '\0')
			return -EINVAL;
	} else if (fraction[il] != '\0') {
		return -EINVAL;
	}
	if (ip > NSB_CGROUP_CPUS_MAX || (ip == NSB_CGROUP_CPUS_MAX && fp > 0))
		return -ERANGE;
	/* ip <= 4096 and period <= 1e6, fp < 1e9: no overflow in 64 bits. */
	uint64_t q = ip * period_us + fp * period_us / scale;
	if (q < NSB_CGROUP_QUOTA_US_MIN)
		return -ERANGE;
	*ret_quota_us = q;
	return 0;
}

int nsb_cgroup_format_cpu_max(uint64_t quota_us, uint64_t period_us, char *buf, size_t size)
{
	int n;
	if (period_us == 0)
		period_us = NSB_CGROUP_PERIOD_US_DEFAULT;
	if (quota_us == 0 || quota_us == NSB_CGROUP_MAX)
		n = nsb_format(buf, size, "max %" PRIu64, period_us);
	else
		n = nsb_format(buf, size, "%" PRIu64 " %" PRIu64, quota_us, period_us);
	if (n < 0 || (size_t)n >= size)
		return -ENOBUFS;
	return n;
}

int nsb_cgroup_parse_name(const char *name, pid_t *ret_pid)
{
	size_t pl = strlen(NSB_CGROUP_NAME_PREFIX);
	uint64_t pid;
	if (strncmp(name, NSB_CGROUP_NAME_PREFIX, pl))
		return -EINVAL;
	const char *p = name + pl;
	size_t dl = nsb_strspn(p, "0123456789");
	if (dl == 0 || p[dl] != '-' || parse_u64(p, dl, &pid) < 0 || pid == 0 || pid > INT_MAX)
		return -EINVAL;
	const char *hex = p + dl + 1;
	size_t hl = nsb_strspn(hex, "0123456789abcdef");
	if (hl == 0 || hex[hl] != '\0')
		return -EINVAL;
	*ret_pid = (pid_t)pid;
	return 0;
}

int nsb_cgroup_join(const char *mnt, const char *mnt_root, const char *cgpath, char *ret,
		    size_t size)
{
	const char *rel = cgpath;
	size_t rl = strlen(mnt_root);
	int n;

	if (cgpath[0] != '/')
		return -EINVAL;
	if (strcmp(mnt_root, "/")) {
		/* A bind of a subtree: the cgroup must lie inside it. */
		if (strncmp(cgpath, mnt_root, rl) || (cgpath[rl] != '/' && cgpath[rl] != '\0'))
			return -EXDEV;
		rel = cgpath + rl;
	}
	if (!strcmp(rel, "/"))
		rel = "";
	n = nsb_format(ret, size, "%s%s", mnt, rel);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}
