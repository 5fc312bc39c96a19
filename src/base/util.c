// SPDX-License-Identifier: GPL-2.0-or-later
/* util: pure: number and size parsing, lexical path checks, bounded formatting. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/util.h"

/* The decimal digits at *p, as a value; *p moves past them, and *over says
 * whether the value passed UINT64_MAX (it then stops growing). */
static uint64_t digits10(const char **p, bool *over)
{
	uint64_t v = 0;

	*over = false;
	for (; **p >= '0' && **p <= '9'; (*p)++) {
		unsigned d = (unsigned)(**p - '0');

		if (v > (UINT64_MAX - d) / 10)
			*over = true;
		else
			v = v * 10 + d;
	}
	return v;
}

int nsb_parse_uint(const char *s, uint64_t max, uint64_t *ret)
{
	const char *p = s;
	bool overflow;
	uint64_t v;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	/* A malformed value is -EINVAL even when its digits alone would
	 * already overflow. */
	v = digits10(&p, &overflow);
	if (*p)
		return -EINVAL;
	if (overflow || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int nsb_parse_milli(const char *s, uint64_t max_milli, uint64_t *ret)
{
	uint64_t whole = 0, frac = 0;
	const char *p = s;
	int digits = 0;
	bool overflow = false;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	/* Overflow is reported only once the syntax is known good. */
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > UINT64_MAX / 1000)
			overflow = true;
		else
			whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (++digits > 3)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*p - '0');
		}
		for (; digits < 3; digits++)
			frac *= 10;
	}
	if (*p)
		return -EINVAL;
	if (overflow || whole > (UINT64_MAX - frac) / 1000 || whole * 1000 + frac > max_milli)
		return -ERANGE;
	*ret = whole * 1000 + frac;
	return 0;
}

int nsb_parse_size(const char *s, uint64_t max, uint64_t *ret)
{
	static const char units[] = "kmgt"; /* 1024 to the 1st .. 4th power */
	uint64_t v, mult = 1;
	const char *p = s;
	bool overflow;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	/* Overflow is reported only once the suffix is known good. */
	v = digits10(&p, &overflow);
	const char *unit = *p ? strchr(units, nsb_tolower((unsigned char)*p)) : NULL;
	if (unit) {
		mult = 1ull << (10 * (unit - units + 1));
		p++;
	}
	/* Accept "B" after a bare number and "B"/"iB" after a suffix. */
	if (mult > 1 && p[0] == 'i' && p[1] == 'B')
		p += 2;
	else if (*p == 'B')
		p++;
	if (*p)
		return -EINVAL;
	if (overflow || v > UINT64_MAX / mult)
		return -ERANGE;
	v *= mult;
	if (v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

bool nsb_path_is_clean_abs(const char *p)
{
	if (!p || p[0] != '/')
		return false;
	if (p[1] == '\0')
		return true;
	for (const char *c = p + 1;;) {
		const char *end = strchrnul(c, '/');
		size_t n = (size_t)(end - c);
		if (n == 0)
			return false; /* "//" or trailing "/" */
		if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		if (!*end)
			return true;
		c = end + 1;
	}
}

const char *nsb_path_next(const char **s, size_t *ret_len)
{
	const char *c = *s;

	while (*c == '/')
		c++;
	if (!*c)
		return NULL;
	*s = strchrnul(c, '/');
	*ret_len = (size_t)(*s - c);
	return c;
}

int nsb_path_normalize(const char *base, const char *p, char *out, size_t out_size)
{
	size_t len = 0;

	if (out_size < 2)
		return -ENAMETOOLONG;
	out[0] = '/';
	out[1] = '\0';
	len = 1;

	for (int pass = 0; pass < 2; pass++) {
		const char *s = pass == 0 ? base : p;
		if (pass == 0 && (!base || p[0] == '/'))
			continue;
		const char *c;
		size_t n;
		while ((c = nsb_path_next(&s, &n))) {
			if (n == 1 && c[0] == '.') {
				/* nothing */
			} else if (n == 2 && c[0] == '.' && c[1] == '.') {
				/* Lexical "..": drop the last component; "/.." is "/". */
				while (len > 1 && out[len - 1] != '/')
					len--;
				if (len > 1)
					len--;
				out[len] = '\0';
			} else {
				size_t need = len + (len > 1 ? 1 : 0) + n + 1;
				if (need > out_size)
					return -ENAMETOOLONG;
				if (len > 1)
					out[len++] = '/';
				memcpy(out + len, c, n);
				len += n;
				out[len] = '\0';
			}
		}
	}
	return 0;
}

bool nsb_path_is_under(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (n == 1 && root[0] == '/')
		return path[0] == '/';
	if (strncmp(path, root, n) != 0)
		return false;
	return path[n] == '\0' || path[n] == '/';
}

size_t nsb_path_depth(const char *p)
{
	size_t d = 0;

	for (const char *c = p; *c; c++)
		if (*c == '/' && c[1] != '\0')
			d++;
	return d;
}

/* A base-10 number as strtol reads it: spaces, a sign, digits.  Returns
 * its magnitude; *neg says whether it had a '-', *over whether it passed
 * UINT64_MAX; *end (if @end) as strtol sets it. */
_Static_assert(sizeof(unsigned long long) == sizeof(uint64_t), "strtoull's range is uint64_t's");
static uint64_t scan10(const char *s, char **end, bool *neg, bool *over)
{
	const char *p = s, *digits;
	uint64_t v;

	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	*neg = *p == '-';
	if (*p == '+' || *p == '-')
		p++;
	digits = p;
	v = digits10(&p, over);
	if (end)
		*end = (char *)(uintptr_t)(p == digits ? s : p); /* as strtol: the caller's own */
	return v;
}

long nsb_strtol10(const char *s, char **end)
{
	bool neg, over;
	unsigned long long v = scan10(s, end, &neg, &over);

	if (over || v > (neg ? (unsigned long long)LONG_MAX + 1 : (unsigned long long)LONG_MAX)) {
		errno = ERANGE;
		return neg ? LONG_MIN : LONG_MAX;
	}
	return neg ? (long)(0 - v) : (long)v;
}

unsigned long long nsb_strtoull10(const char *s, char **end)
{
	bool neg, over;
	unsigned long long v = scan10(s, end, &neg, &over);

	if (over) {
		errno = ERANGE;
		return ULLONG_MAX;
	}
	return neg ? 0 - v : v;
}

int nsb_strncasecmp(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int d = nsb_tolower((unsigned char)a[i]) - nsb_tolower((unsigned char)b[i]);

		if (d || !a[i])
			return d;
	}
	return 0;
}

int nsb_strcasecmp(const char *a, const char *b)
{
	return nsb_strncasecmp(a, b, SIZE_MAX);
}

char *nsb_strcasestr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (nsb_strncasecmp(hay, needle, n) == 0)
			return (char *)(uintptr_t)hay; /* as strcasestr: the caller's own */
	return n ? NULL : (char *)(uintptr_t)hay;
}

size_t nsb_strspn(const char *s, const char *accept)
{
	size_t n = 0;

	while (s[n] && strchr(accept, s[n]))
		n++;
	return n;
}

size_t nsb_strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

void nsb_scrub(void *p, size_t n)
{
	memset(p, 0, n);
	/* The compiler must assume the asm reads the zeros. */
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/* Through -Wl,--wrap=strtoul (Makefile, LDLIBS): every strtoul in the link,
 * the static libraries' too (libcap-ng's constructor reads cap_last_cap
 * with one in every launch), reads base 10 with nsb_strtoull10. */
unsigned long __real_strtoul(const char *s, char **end, int base);
unsigned long __wrap_strtoul(const char *s, char **end, int base);
unsigned long __wrap_strtoul(const char *s, char **end, int base)
{
	if (base != 10 || sizeof(unsigned long) != sizeof(unsigned long long))
		return __real_strtoul(s, end, base);
	return nsb_strtoull10(s, end);
}

int nsb_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = nsb_vformat(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= size)
		return -ENAMETOOLONG;
	return n;
}

const char *nsb_env_get(char *const *envp, const char *name, size_t name_len)
{
	if (!envp)
		return NULL;
	for (size_t i = 0; envp[i]; i++)
		if (strncmp(envp[i], name, name_len) == 0 && envp[i][name_len] == '=')
			return envp[i] + name_len + 1;
	return NULL;
}

void nsb_fputs_escaped(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == '\'' || *p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
	}
}

void nsb_fd_table_reserve(int any_fd, unsigned fds)
{
	struct rlimit nofile;
	int fd;

	if (fds <= 64) /* the table every process starts with */
		return;
	fd = fcntl(any_fd, F_DUPFD_CLOEXEC, (int)(fds - 1));
	/* Beyond RLIMIT_NOFILE (EINVAL): as far as it allows.  The limit is
	 * read only then, so that a launch pays two system calls. */
	if (fd < 0 && errno == EINVAL && getrlimit(RLIMIT_NOFILE, &nofile) == 0 &&
	    nofile.rlim_cur > 64 && nofile.rlim_cur < fds)
		fd = fcntl(any_fd, F_DUPFD_CLOEXEC, (int)(nofile.rlim_cur - 1));
	if (fd >= 0)
		close(fd);
}
