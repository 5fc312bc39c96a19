/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pure helpers: number and size parsing, lexical path checks, string joins,
 * environment lookup.
 * No syscalls, no logging.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/fmt.h"

/*
 * Parse a size: decimal digits with an optional suffix k/K, m/M, g/G, t/T
 * (powers of 1024) and optional trailing 'B' or 'iB' ("64M", "64MiB", "1g").
 * Rejects empty strings, signs, spaces, overflow and values above max.
 * Returns 0, -EINVAL (malformed) or -ERANGE (overflow or > max).
 */
int nsb_parse_size(const char *s, uint64_t max, uint64_t *ret);

/*
 * strtol and strtoull in base 10 as the C library reads them: white space,
 * a sign, digits; on overflow errno ERANGE and the limit; *end (if @end)
 * at the first byte not read, or at s when no digit came.  Without the C
 * library's locale-aware engine, which costs every launch another 64 KiB
 * window of libc's text (base/fmt.h says why that counts).
 */
long nsb_strtol10(const char *s, char **end);
unsigned long long nsb_strtoull10(const char *s, char **end);

/* The next string of a list written as one string, each entry ended by its
 * NUL and the list by an empty entry ("a\0b\0"): such a constant table
 * holds no pointer, so it needs no relocation (base/macro.h, NSB_FITS0).
 * for (s = list; *s; s = nsb_strs_next(s)). */
static inline const char *nsb_strs_next(const char *s)
{
	while (*s)
		s++;
	return s + 1;
}

/*
 * <ctype.h> and the strcase functions in the C locale (nsbox never sets
 * another), on ASCII alone: the C library's read its locale tables, a
 * 64 KiB window of libc's constants that a launch would keep resident for
 * nothing else (base/fmt.h).
 */
static inline int nsb_isdigit(int c)
{
	return c >= '0' && c <= '9';
}
static inline int nsb_islower(int c)
{
	return c >= 'a' && c <= 'z';
}
static inline int nsb_isupper(int c)
{
	return c >= 'A' && c <= 'Z';
}
static inline int nsb_isalnum(int c)
{
	return nsb_isdigit(c) || nsb_islower(c) || nsb_isupper(c);
}
static inline int nsb_isxdigit(int c)
{
	return nsb_isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static inline int nsb_isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}
static inline int nsb_tolower(int c)
{
	return nsb_isupper(c) ? c - 'A' + 'a' : c;
}
int nsb_strcasecmp(const char *a, const char *b);
int nsb_strncasecmp(const char *a, const char *b, size_t n);
char *nsb_strcasestr(const char *hay, const char *needle);

/* strspn and strcspn, byte by byte: nsbox's spans are a few bytes long, and
 * the C library's vector versions are a 64 KiB window of its text of their
 * own in every launch (base/fmt.h). */
size_t nsb_strspn(const char *s, const char *accept);
size_t nsb_strcspn(const char *s, const char *reject);

/* Zero @n bytes at @p where the compiler may not drop the stores (the
 * memory is read no more): explicit_bzero without the C library's. */
void nsb_scrub(void *p, size_t n);

/* Parse a plain unsigned decimal integer (no suffix, no sign) <= max. */
int nsb_parse_uint(const char *s, uint64_t max, uint64_t *ret);

/*
 * Parse a non-negative decimal with at most three fractional digits ("2",
 * "0.5", "1.250") into thousandths: "0.5" → 500.  Returns 0, -EINVAL or
 * -ERANGE (> max_milli).
 */
int nsb_parse_milli(const char *s, uint64_t max_milli, uint64_t *ret);

/* True when p is absolute and has no empty, "." or ".." component and no
 * trailing slash (except "/" itself). */
bool nsb_path_is_clean_abs(const char *p);

/*
 * Make the calling process's descriptor table hold at least fds entries,
 * capped by the soft RLIMIT_NOFILE, by duplicating any_fd (any open
 * descriptor) at fds - 1 and closing the copy.  Call it before a thread
 * that shares the table starts: the kernel grows a shared table only after
 * an RCU grace period (expand_files calls synchronize_rcu), about 10 ms on
 * an idle machine.  A failure costs only that time, so none is reported.
 */
void nsb_fd_table_reserve(int any_fd, unsigned fds);

/*
 * Lexically normalize path p (absolute, or relative to base which must be
 * absolute) into out: collapses "//", "." and "..".  Returns 0 or
 * -ENAMETOOLONG.  No symlinks are followed: this is not realpath.
 */
int nsb_path_normalize(const char *base, const char *p, char *out, size_t out_size);

/* The next component of a slash-separated path at *s (slashes skipped), its
 * length in *ret_len; *s moves past it.  NULL, *s untouched, at the end. */
const char *nsb_path_next(const char **s, size_t *ret_len);

/* True when path equals root or lies below it (component-wise). Both clean. */
bool nsb_path_is_under(const char *path, const char *root);

/* Number of components of a clean absolute path ("/" has 0). */
size_t nsb_path_depth(const char *p);

/* snprintf that reports truncation as -ENAMETOOLONG. */
int nsb_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Look up NAME in a NULL-terminated environment; returns the value or NULL. */
const char *nsb_env_get(char *const *envp, const char *name, size_t name_len);

/* Write s to f with backslash, quote, control and non-ASCII bytes as \xHH:
 * a token that may be binary, quoted in a message. */
void nsb_fputs_escaped(FILE *f, const char *s);
