// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmt.c and util.c's stand-ins for the C library (nsb_format, the base-10
 * strtol and strtoull, strspn and strcspn, <ctype.h> and the strcase
 * functions in the C locale, explicit_bzero): each held against the C
 * library's own function on the same input, byte for byte, return value,
 * end pointer and errno included, with buffers too small as well.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "base/fmt.h"
#include "base/util.h"

/* The format strings below are the test's own literals, but the compiler
 * checks them against both functions anyway. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#pragma GCC diagnostic ignored "-Wformat-zero-length"
#pragma GCC diagnostic ignored "-Wformat-overflow"
#pragma GCC diagnostic ignored "-Wformat"
/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

static const size_t sizes[] = {0, 1, 2, 5, 17, 300};

/* The same output and the same return into every buffer size. */
#define SAME(...)                                                                                \
	do {                                                                                     \
		for (size_t i_ = 0; i_ < sizeof(sizes) / sizeof(sizes[0]); i_++) {               \
			char want_[300], got_[300];                                              \
			memset(want_, 'W', sizeof(want_));                                       \
			memset(got_, 'W', sizeof(got_));                                         \
			int w_ = snprintf(want_, sizes[i_], __VA_ARGS__);                        \
			int g_ = nsb_format(got_, sizes[i_], __VA_ARGS__);                       \
			cr_assert(eq(int, g_, w_), "return for %s, size %zu", #__VA_ARGS__,      \
				  sizes[i_]);                                                    \
			cr_assert(memcmp(want_, got_, sizeof(want_)) == 0,                       \
				  "%s, size %zu: want '%s' got '%.*s'", #__VA_ARGS__, sizes[i_], \
				  sizes[i_] ? want_ : "", (int)sizes[i_], got_);                 \
		}                                                                                \
	} while (0)

Test(fmt, plain_and_strings)
{
	SAME("%s", "");
	SAME("plain text, no conversion");
	SAME("%s/%s", "/usr", "bin");
	SAME("100%% sure");
	SAME("[%10s]", "right");
	SAME("[%-10s]", "left");
	SAME("[%.3s]", "truncated");
	SAME("[%.*s]", 4, "precision from the argument");
	SAME("[%.*s]", -1, "negative precision: none");
	SAME("[%*s]", 8, "w");
	SAME("[%*s]", -8, "w");
	SAME("[%-22s|%-4s]", "column", "x");
	SAME("[%.700s]", "long precision, short text");
	SAME("[%c%c%c]", 'a', ' ', '~');
	SAME("[%5c|%-5c]", 'x', 'y');
	SAME("%s", "a string longer than every small buffer above, so that it is cut");
}

Test(fmt, integers)
{
	SAME("%d %d %d", 0, -1, INT_MIN);
	SAME("%d %i", INT_MAX, 42);
	SAME("%u %u", 0u, UINT_MAX);
	SAME("%ld %ld", LONG_MIN, LONG_MAX);
	SAME("%lu %llu", ULONG_MAX, ULLONG_MAX);
	SAME("%lld %lld", LLONG_MIN, -7LL);
	SAME("%zu %zd %zd", SIZE_MAX, (ssize_t)-1, (ssize_t)12345);
	SAME("%jd %ju %td", INTMAX_MIN, UINTMAX_MAX, (ptrdiff_t)-3);
	SAME("%hhd %hhu %hd %hu", 300, 300, 70000, 70000);
	SAME("%x %X %o", 0xdeadbeefu, 0xabcdefu, 0755u);
	SAME("%02x %04x %02X %04o %o", 5u, 0xabu, 0xfu, 0644u, 0u);
	SAME("%#x %#X %#o %#o %#x", 255u, 255u, 8u, 0u, 0u);
	SAME("[%5d|%-5d|%05d|%+d|% d|%+d]", 42, 42, -42, 7, 7, -7);
	SAME("[%.3d|%.0d|%.0d|%8.3d|%-8.3d|%08.3d]", 5, 0, 1, -5, 5, 5);
	SAME("[%#.0o|%#5o|%#08x|%-#8x]", 0u, 8u, 0x1fu, 0x1fu);
	SAME("[%*d|%-*d|%.*d]", 6, 1, 6, 2, 4, 3);
	SAME("%lx %llx", ULONG_MAX, 0x123456789abcULL);
}

Test(fmt, pointers_and_oddities)
{
	int x;

	SAME("%p", (void *)&x);
	SAME("%p", (void *)NULL);
	SAME("[%20p|%-20p]", (void *)&x, (void *)NULL);
	SAME("%s", (const char *)NULL);
	SAME("[%.3s|%.6s|%10s]", (const char *)NULL, (const char *)NULL, (const char *)NULL);
	SAME("%s %d %s %u %s", "mixed", -1, "and", 2u, "more");
}

/* A format the compiler cannot see. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wsuggest-attribute=format"
static int nsb_vformat_call(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = nsb_vformat(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* A conversion outside the set is copied as written (the compiler refuses
 * it in nsbox's own calls; this is what a runtime one would get). */
Test(fmt, unknown_conversion_copied)
{
	char buf[64];
	const char *f = "a%yb%";

	cr_assert(eq(int, nsb_vformat_call(buf, sizeof(buf), f), 5));
	cr_assert(eq(str, buf, "a%yb%"));
}

Test(fmt, aformat)
{
	char *s = NULL;

	cr_assert(eq(int, nsb_aformat(&s, "%s=%d", "key", -12), 7));
	cr_assert(eq(str, s, "key=-12"));
	free(s);
}

/* As _FORTIFY_SOURCE's snprintf: a size larger than the buffer aborts. */
Test(fmt, size_past_the_buffer_aborts, .signal = SIGABRT)
{
	char small[4];
	volatile size_t n = 8;

	nsb_format(small, n, "%s", "x");
}

/* ---- strtol / strtoull in base 10 --------------------------------------- */

static const char *const numbers[] = {
	"0",
	"42",
	"  \t\n17",
	"+5",
	"-5",
	"-0",
	"12abc",
	"abc",
	"",
	" ",
	"-",
	"+",
	"9223372036854775807",
	"9223372036854775808",
	"-9223372036854775808",
	"-9223372036854775809",
	"18446744073709551615",
	"18446744073709551616",
	"99999999999999999999999",
	"0x10",
	"007",
	"1 2",
	"\v\f\r3",
};

/* The C library's FN(s, &end, 10) and OURS(s, &end): value, end, errno. */
#define SAME_PARSE(type, tag, fn, ours, s)                                       \
	do {                                                                     \
		char *we_, *ge_;                                                 \
		type w_, g_;                                                     \
		int werr_, gerr_;                                                \
		errno = 0;                                                       \
		w_ = (type)fn((s), &we_, 10);                                    \
		werr_ = errno;                                                   \
		errno = 0;                                                       \
		g_ = (type)ours((s), &ge_);                                      \
		gerr_ = errno;                                                   \
		cr_assert(eq(tag, g_, w_), "%s('%s')", #ours, (s));              \
		cr_assert(eq(ptr, ge_, we_), "%s('%s'): end", #ours, (s));       \
		cr_assert(eq(int, gerr_, werr_), "%s('%s'): errno", #ours, (s)); \
	} while (0)

/* strtoul itself, which the link (--wrap=strtoul) sends to the wrapper. */
static unsigned long wrapped_strtoul(const char *s, char **end)
{
	return strtoul(s, end, 10);
}

Test(fmt, strto10_as_the_c_library)
{
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		SAME_PARSE(long, long, strtol, nsb_strtol10, numbers[i]);
		SAME_PARSE(unsigned long long, ullong, strtoull, nsb_strtoull10, numbers[i]);
		SAME_PARSE(unsigned long, ulong, strtoull, wrapped_strtoul, numbers[i]);
	}
	/* Other bases still reach the C library's. */
	cr_assert(eq(ulong, strtoul("0x1f", NULL, 16), 31));
	cr_assert(eq(ulong, strtoul("0755", NULL, 0), 0755));
}

/* ---- strspn / strcspn ---------------------------------------------------- */

Test(fmt, spans_as_the_c_library)
{
	static const char *const s[] = {"", "abc", "  x", "\n\n", "a/b/c", "0123abc", "zzz"};
	static const char *const set[] = {"", " ", " \n", "/", "0123456789", "abcz"};

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		for (size_t j = 0; j < sizeof(set) / sizeof(set[0]); j++) {
			cr_assert(eq(sz, nsb_strspn(s[i], set[j]), strspn(s[i], set[j])),
				  "strspn('%s', '%s')", s[i], set[j]);
			cr_assert(eq(sz, nsb_strcspn(s[i], set[j]), strcspn(s[i], set[j])),
				  "strcspn('%s', '%s')", s[i], set[j]);
		}
}

Test(fmt, scrub_zeroes)
{
	char secret[32];

	memset(secret, 'S', sizeof(secret));
	nsb_scrub(secret, 20);
	for (size_t i = 0; i < sizeof(secret); i++)
		cr_assert(eq(int, secret[i], i < 20 ? 0 : 'S'), "byte %zu", i);
}

/* ---- <ctype.h> and the strcase functions, in the C locale ---------------- */

Test(fmt, ctype_as_the_c_locale)
{
	for (int c = -1; c < 256; c++) {
		cr_assert(eq(int, !!nsb_isdigit(c), !!isdigit(c)), "isdigit(%d)", c);
		cr_assert(eq(int, !!nsb_islower(c), !!islower(c)), "islower(%d)", c);
		cr_assert(eq(int, !!nsb_isupper(c), !!isupper(c)), "isupper(%d)", c);
		cr_assert(eq(int, !!nsb_isalnum(c), !!isalnum(c)), "isalnum(%d)", c);
		cr_assert(eq(int, !!nsb_isxdigit(c), !!isxdigit(c)), "isxdigit(%d)", c);
		cr_assert(eq(int, !!nsb_isspace(c), !!isspace(c)), "isspace(%d)", c);
		cr_assert(eq(int, nsb_tolower(c), tolower(c)), "tolower(%d)", c);
	}
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

Test(fmt, strcase_as_the_c_library)
{
	static const char *const s[] = {"",	 "a",	   "A",	   "abc",	"ABC",
					"abd",	 "ab",	   "Core", "hooksPath", "HOOKSPATH",
					"file:", "FiLe:x", "\xe9", "\xc9"};

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		for (size_t j = 0; j < sizeof(s) / sizeof(s[0]); j++) {
			cr_assert(eq(int, sign(nsb_strcasecmp(s[i], s[j])),
				     sign(strcasecmp(s[i], s[j]))),
				  "strcasecmp('%s', '%s')", s[i], s[j]);
			for (size_t n = 0; n < 5; n++)
				cr_assert(eq(int, sign(nsb_strncasecmp(s[i], s[j], n)),
					     sign(strncasecmp(s[i], s[j], n))),
					  "strncasecmp('%s', '%s', %zu)", s[i], s[j], n);
			cr_assert(eq(ptr, nsb_strcasestr(s[i], s[j]), strcasestr(s[i], s[j])),
				  "strcasestr('%s', '%s')", s[i], s[j]);
		}
}
