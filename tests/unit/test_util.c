// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util.c: number and size parsing, lexical path checks, bounded formatting.
 * Tables of inputs with the exact value or error each must produce.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/parameterized.h>

#include "base/util.h"

/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- nsb_parse_size ---------------------------------------------------- */

struct size_case {
	char in[32];
	int ret;
	uint64_t value; /* only when ret == 0 */
};

ParameterizedTestParameters(util, parse_size_table)
{
	static struct size_case cases[] = {
		{"0", 0, 0},
		{"1", 0, 1},
		{"4096", 0, 4096},
		{"007", 0, 7},
		{"10B", 0, 10},
		{"1k", 0, 1024},
		{"1K", 0, 1024},
		{"3kB", 0, 3 * 1024},
		{"3KiB", 0, 3 * 1024},
		{"2m", 0, 2ull << 20},
		{"64M", 0, 64ull << 20},
		{"64MB", 0, 64ull << 20},
		{"64MiB", 0, 64ull << 20},
		{"1g", 0, 1ull << 30},
		{"5G", 0, 5ull << 30},
		{"5GiB", 0, 5ull << 30},
		{"1t", 0, 1ull << 40},
		{"2T", 0, 2ull << 40},
		{"2TB", 0, 2ull << 40},
		{"2TiB", 0, 2ull << 40},
		{"0M", 0, 0},
		/* largest representable values */
		{"18446744073709551615", 0, UINT64_MAX},
		{"16777215T", 0, 16777215ull << 40},
		/* malformed */
		{"", -EINVAL, 0},
		{"M", -EINVAL, 0},
		{"-1", -EINVAL, 0},
		{"+1", -EINVAL, 0},
		{" 1", -EINVAL, 0},
		{"1 ", -EINVAL, 0},
		{"1 M", -EINVAL, 0},
		{"1.5G", -EINVAL, 0},
		{"1x", -EINVAL, 0},
		{"1iB", -EINVAL, 0}, /* "iB" only after a multiplier */
		{"1MiBB", -EINVAL, 0},
		{"1Mi", -EINVAL, 0},
		{"1Mb", -EINVAL, 0},
		{"1MM", -EINVAL, 0},
		{"1BB", -EINVAL, 0},
		{"1P", -EINVAL, 0},
		{"0x10", -EINVAL, 0},
		/* overflow */
		{"18446744073709551616", -ERANGE, 0},
		{"99999999999999999999999", -ERANGE, 0},
		{"16777216T", -ERANGE, 0},
		{"17179869184G", -ERANGE, 0},
	};
	return cr_make_param_array(struct size_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct size_case *c, util, parse_size_table)
{
	uint64_t v = 0xdeadbeef;
	int r = nsb_parse_size(c->in, UINT64_MAX, &v);

	cr_assert(eq(int, r, c->ret), "nsb_parse_size(\"%s\")", c->in);
	if (c->ret == 0)
		cr_expect(eq(u64, v, c->value), "nsb_parse_size(\"%s\")", c->in);
	else
		cr_expect(eq(u64, v, 0xdeadbeef), "ret untouched on error for \"%s\"", c->in);
}

Test(util, parse_size_max_is_inclusive)
{
	uint64_t v = 0;

	cr_assert(eq(int, nsb_parse_size("64G", 64ull << 30, &v), 0));
	cr_expect(eq(u64, v, 64ull << 30));
	cr_expect(eq(int, nsb_parse_size("68719476736", 64ull << 30, &v), 0));
	cr_expect(eq(u64, v, 64ull << 30));
}

Test(util, parse_size_above_max_is_erange)
{
	uint64_t v = 7;

	cr_expect(eq(int, nsb_parse_size("68719476737", 64ull << 30, &v), -ERANGE));
	cr_expect(eq(int, nsb_parse_size("65G", 64ull << 30, &v), -ERANGE));
	cr_expect(eq(int, nsb_parse_size("1T", 64ull << 30, &v), -ERANGE));
	cr_expect(eq(int, nsb_parse_size("2k", 2047, &v), -ERANGE));
	cr_expect(eq(u64, v, 7));
}

Test(util, parse_size_null_is_einval)
{
	uint64_t v = 7;

	cr_expect(eq(int, nsb_parse_size(NULL, UINT64_MAX, &v), -EINVAL));
	cr_expect(eq(u64, v, 7));
}

/* ---- nsb_parse_uint ---------------------------------------------------- */

struct uint_case {
	char in[32];
	uint64_t max;
	int ret;
	uint64_t value;
};

ParameterizedTestParameters(util, parse_uint_table)
{
	static struct uint_case cases[] = {
		{"0", 10, 0, 0},
		{"3", 10, 0, 3},
		{"10", 10, 0, 10},
		{"0010", 10, 0, 10},
		{"11", 10, -ERANGE, 0},
		{"2147483647", 2147483647, 0, 2147483647},
		{"2147483648", 2147483647, -ERANGE, 0},
		{"18446744073709551615", UINT64_MAX, 0, UINT64_MAX},
		{"18446744073709551616", UINT64_MAX, -ERANGE, 0},
		{"184467440737095516150", UINT64_MAX, -ERANGE, 0},
		{"", 10, -EINVAL, 0},
		{"-1", 10, -EINVAL, 0},
		{"+1", 10, -EINVAL, 0},
		{" 1", 10, -EINVAL, 0},
		{"1 ", 10, -EINVAL, 0},
		{"1k", UINT64_MAX, -EINVAL, 0},
		{"0x3", UINT64_MAX, -EINVAL, 0},
		{"three", UINT64_MAX, -EINVAL, 0},
	};
	return cr_make_param_array(struct uint_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct uint_case *c, util, parse_uint_table)
{
	uint64_t v = 0xdeadbeef;
	int r = nsb_parse_uint(c->in, c->max, &v);

	cr_assert(eq(int, r, c->ret), "nsb_parse_uint(\"%s\", %llu)", c->in,
		  (unsigned long long)c->max);
	if (c->ret == 0)
		cr_expect(eq(u64, v, c->value));
	else
		cr_expect(eq(u64, v, 0xdeadbeef), "ret untouched on error");
}

Test(util, parse_uint_null_is_einval)
{
	uint64_t v = 7;

	cr_expect(eq(int, nsb_parse_uint(NULL, 10, &v), -EINVAL));
	cr_expect(eq(u64, v, 7));
}

/* ---- nsb_path_is_clean_abs --------------------------------------------- */

struct clean_case {
	char in[32];
	bool clean;
};

ParameterizedTestParameters(util, path_is_clean_abs_table)
{
	static struct clean_case cases[] = {
		{"/", true},	    {"/a", true},      {"/usr/lib", true}, {"/a/b/c", true},
		{"/.a", true},	    {"/a./b", true},   {"/..a", true},	   {"/...", true},
		{"/a b/c:d", true}, {"", false},       {"a", false},	   {"a/b", false},
		{"./a", false},	    {"//", false},     {"//a", false},	   {"/a//b", false},
		{"/a/", false},	    {"/.", false},     {"/..", false},	   {"/a/.", false},
		{"/a/..", false},   {"/a/./b", false}, {"/a/../b", false}, {"/./a", false},
	};
	return cr_make_param_array(struct clean_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct clean_case *c, util, path_is_clean_abs_table)
{
	cr_expect(eq(int, nsb_path_is_clean_abs(c->in), c->clean), "nsb_path_is_clean_abs(\"%s\")",
		  c->in);
}

Test(util, path_is_clean_abs_null_is_false)
{
	cr_expect(eq(int, nsb_path_is_clean_abs(NULL), false));
}

/* ---- nsb_path_normalize ------------------------------------------------ */

struct norm_case {
	char base[32]; /* "" means NULL */
	char in[48];
	char out[48];
};

ParameterizedTestParameters(util, path_normalize_table)
{
	static struct norm_case cases[] = {
		{"", "/", "/"},
		{"", "/a/b", "/a/b"},
		{"", "//a///b//", "/a/b"},
		{"", "/a/./b/.", "/a/b"},
		{"", "/a/b/../c", "/a/c"},
		{"", "/a/b/../../c", "/c"},
		{"", "/..", "/"},
		{"", "/../../..", "/"},
		{"", "/../a/..", "/"},
		{"", "/a/../../b", "/b"},
		{"", "/...", "/..."},
		{"", "/a/.b/..c", "/a/.b/..c"},
		{"", "/.", "/"},
		/* relative to a base */
		{"/home/u", "x", "/home/u/x"},
		{"/home/u", "./x/", "/home/u/x"},
		{"/home/u", "..", "/home"},
		{"/home/u", "../../..", "/"},
		{"/home/u", "../v/./w", "/home/v/w"},
		{"/home/u", ".", "/home/u"},
		{"/home/u", "", "/home/u"},
		{"/", "x", "/x"},
		{"//home//u/", "x", "/home/u/x"},
		{"/home/u/../v", "x", "/home/v/x"},
		/* an absolute p ignores the base */
		{"/home/u", "/etc", "/etc"},
		{"/home/u", "/", "/"},
		/* without a base a relative p is taken from / */
		{"", "a/b", "/a/b"},
	};
	return cr_make_param_array(struct norm_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct norm_case *c, util, path_normalize_table)
{
	char out[64];
	int r = nsb_path_normalize(c->base[0] ? c->base : NULL, c->in, out, sizeof(out));

	cr_assert(eq(int, r, 0), "normalize(\"%s\", \"%s\")", c->base, c->in);
	cr_expect(eq(str, out, c->out), "normalize(\"%s\", \"%s\")", c->base, c->in);
}

Test(util, path_normalize_fits_exactly)
{
	char out[5];

	/* "/abc" is 4 bytes + NUL: exactly the buffer. */
	cr_assert(eq(int, nsb_path_normalize(NULL, "/abc", out, sizeof(out)), 0));
	cr_expect(eq(str, out, "/abc"));
	cr_assert(eq(int, nsb_path_normalize(NULL, "/a/b", out, sizeof(out)), 0));
	cr_expect(eq(str, out, "/a/b"));
}

Test(util, path_normalize_one_byte_too_long)
{
	char out[5];

	cr_expect(eq(int, nsb_path_normalize(NULL, "/abcd", out, sizeof(out)), -ENAMETOOLONG));
	cr_expect(eq(int, nsb_path_normalize(NULL, "/a/bc", out, sizeof(out)), -ENAMETOOLONG));
	cr_expect(eq(int, nsb_path_normalize("/ab", "cd", out, sizeof(out)), -ENAMETOOLONG));
}

Test(util, path_normalize_long_input_that_collapses_fits)
{
	char in[256], out[8];

	/* 40 "/x/.." pairs and then "/ok": long input, short result. */
	in[0] = '\0';
	for (int i = 0; i < 40; i++)
		strcat(in, "/x/..");
	strcat(in, "/ok");
	cr_assert(eq(int, nsb_path_normalize(NULL, in, out, sizeof(out)), 0));
	cr_expect(eq(str, out, "/ok"));
}

Test(util, path_normalize_tiny_buffer)
{
	char out[2];

	cr_expect(eq(int, nsb_path_normalize(NULL, "/", out, 1), -ENAMETOOLONG));
	cr_expect(eq(int, nsb_path_normalize(NULL, "/", out, 0), -ENAMETOOLONG));
	cr_assert(eq(int, nsb_path_normalize(NULL, "/..", out, sizeof(out)), 0));
	cr_expect(eq(str, out, "/"));
	cr_expect(eq(int, nsb_path_normalize(NULL, "/a", out, sizeof(out)), -ENAMETOOLONG));
}

Test(util, path_normalize_path_max)
{
	static char in[4200], out[4096];

	/* A 4095-byte path fits a 4096-byte buffer; one more byte does not. */
	memset(in, 'a', sizeof(in));
	in[0] = '/';
	in[4095] = '\0';
	cr_assert(eq(int, nsb_path_normalize(NULL, in, out, sizeof(out)), 0));
	cr_expect(eq(sz, strlen(out), 4095));
	in[4095] = 'a';
	in[4096] = '\0';
	cr_expect(eq(int, nsb_path_normalize(NULL, in, out, sizeof(out)), -ENAMETOOLONG));
}

/* ---- nsb_path_is_under ------------------------------------------------- */

struct under_case {
	char path[24];
	char root[24];
	bool under;
};

ParameterizedTestParameters(util, path_is_under_table)
{
	static struct under_case cases[] = {
		{"/proc", "/proc", true},
		{"/proc/sys", "/proc", true},
		{"/proc/sys/kernel", "/proc", true},
		{"/procfs", "/proc", false},
		{"/pro", "/proc", false},
		{"/", "/proc", false},
		{"/dev", "/dev", true},
		{"/devices", "/dev", false},
		{"/dev/shm", "/dev", true},
		{"/a/b", "/a/b/c", false},
		{"/x/proc", "/proc", false},
		{"/", "/", true},
		{"/anything", "/", true},
		{"/a/b/c", "/", true},
		{"/home/u", "/home/u", true},
		{"/home/user", "/home/u", false},
		{"/home/u/x", "/home/u", true},
	};
	return cr_make_param_array(struct under_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct under_case *c, util, path_is_under_table)
{
	cr_expect(eq(int, nsb_path_is_under(c->path, c->root), c->under),
		  "nsb_path_is_under(\"%s\", \"%s\")", c->path, c->root);
}

/* ---- nsb_path_depth ---------------------------------------------------- */

struct depth_case {
	char in[24];
	size_t depth;
};

ParameterizedTestParameters(util, path_depth_table)
{
	static struct depth_case cases[] = {
		{"/", 0},      {"/a", 1},	  {"/usr", 1}, {"/a/b", 2},
		{"/a/b/c", 3}, {"/a/b/c/d/e", 5}, {"/...", 1}, {"/a.b/c.d", 2},
	};
	return cr_make_param_array(struct depth_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct depth_case *c, util, path_depth_table)
{
	cr_expect(eq(sz, nsb_path_depth(c->in), c->depth), "nsb_path_depth(\"%s\")", c->in);
}

/* ---- nsb_snprintf ------------------------------------------------------ */

Test(util, snprintf_fits)
{
	char buf[8];

	cr_assert(eq(int, nsb_snprintf(buf, sizeof(buf), "%s-%d", "ab", 42), 5));
	cr_expect(eq(str, buf, "ab-42"));
}

Test(util, snprintf_exactly_full_fits)
{
	char buf[8];

	/* Seven characters and the NUL. */
	cr_assert(eq(int, nsb_snprintf(buf, sizeof(buf), "%s", "1234567"), 7));
	cr_expect(eq(str, buf, "1234567"));
}

Test(util, snprintf_one_past_is_enametoolong)
{
	char buf[8];

	cr_assert(eq(int, nsb_snprintf(buf, sizeof(buf), "%s", "12345678"), -ENAMETOOLONG));
	/* vsnprintf still terminated what it wrote: no unterminated buffer. */
	cr_expect(eq(str, buf, "1234567"));
}

Test(util, snprintf_empty)
{
	char buf[1] = {'x'};

	cr_assert(eq(int, nsb_snprintf(buf, sizeof(buf), "%s", ""), 0));
	cr_expect(eq(str, buf, ""));
	cr_expect(eq(int, nsb_snprintf(buf, sizeof(buf), "%c", 'a'), -ENAMETOOLONG));
}

Test(util, snprintf_zero_size_is_enametoolong)
{
	char buf[1] = {'x'};

	cr_expect(eq(int, nsb_snprintf(buf, 0, "%s", "a"), -ENAMETOOLONG));
	cr_expect(eq(chr, buf[0], 'x'));
}

/*
 * Found by fuzz_size: a value whose digits overflow but whose suffix is
 * malformed was reported as out of range.  The syntax is judged first, so
 * "--memory 99999999999999999999x" says "invalid", like "--memory 1x".
 */
Test(util, malformed_wins_over_overflow)
{
	uint64_t v = 7;

	cr_expect(eq(int, nsb_parse_size("99999999999999999999x", UINT64_MAX, &v), -EINVAL));
	cr_expect(eq(int, nsb_parse_size("99999999999999999999MiBB", UINT64_MAX, &v), -EINVAL));
	cr_expect(eq(int, nsb_parse_size("99999999999999999999M", UINT64_MAX, &v), -ERANGE));
	cr_expect(eq(int, nsb_parse_uint("99999999999999999999x", UINT64_MAX, &v), -EINVAL));
	cr_expect(eq(int, nsb_parse_uint("99999999999999999999", UINT64_MAX, &v), -ERANGE));
	cr_expect(eq(int, nsb_parse_milli("99999999999999999999.1234", UINT64_MAX, &v), -EINVAL));
	cr_expect(eq(int, nsb_parse_milli("99999999999999999999x", UINT64_MAX, &v), -EINVAL));
	cr_expect(eq(int, nsb_parse_milli("99999999999999999999.5", UINT64_MAX, &v), -ERANGE));
	cr_expect(eq(int, nsb_parse_milli("18446744073709551.616", UINT64_MAX, &v), -ERANGE));
	cr_expect(eq(int, nsb_parse_milli("18446744073709552", UINT64_MAX, &v), -ERANGE));
	cr_expect(eq(u64, v, 7));
}

/*
 * Found by fuzz_size: nsb_parse_milli refused every whole part above
 * UINT64_MAX / 10000 although the result fits up to UINT64_MAX / 1000.
 * (No option allows values that large, so only the API was wrong.)
 */
Test(util, parse_milli_reaches_uint64_max)
{
	uint64_t v = 7;

	cr_assert(eq(int, nsb_parse_milli("1844674440737055", UINT64_MAX, &v), 0));
	cr_expect(eq(u64, v, 1844674440737055000ull));
	cr_assert(eq(int, nsb_parse_milli("18446744073709551.615", UINT64_MAX, &v), 0));
	cr_expect(eq(u64, v, UINT64_MAX));
}

Test(util, env_get_matches_whole_names)
{
	char *env[] = {"FOOBAR=1", "FOO=2", "F=3", "EMPTY=", NULL};

	cr_expect(eq(str, nsb_env_get(env, "FOO", 3), "2"));
	cr_expect(eq(str, nsb_env_get(env, "FOOBAR", 6), "1"));
	cr_expect(eq(str, nsb_env_get(env, "F", 1), "3"));
	cr_expect(eq(str, nsb_env_get(env, "EMPTY", 5), ""));
	cr_expect(eq(ptr, nsb_env_get(env, "FO", 2), NULL));
	cr_expect(eq(ptr, nsb_env_get(env, "NOPE", 4), NULL));
	/* name_len bounds the name: "FOO=9" looked up as its first 3 bytes. */
	cr_expect(eq(str, nsb_env_get(env, "FOO=9", 3), "2"));
	cr_expect(eq(ptr, nsb_env_get(NULL, "FOO", 3), NULL));
}

Test(util, path_next_skips_slashes_and_stops_at_the_end)
{
	const char *s = "//a/bc///d/", *c;
	size_t n = 0;

	c = nsb_path_next(&s, &n);
	cr_assert(eq(sz, n, 1));
	cr_expect(eq(int, strncmp(c, "a", n), 0));
	c = nsb_path_next(&s, &n);
	cr_assert(eq(sz, n, 2));
	cr_expect(eq(int, strncmp(c, "bc", n), 0));
	c = nsb_path_next(&s, &n);
	cr_assert(eq(sz, n, 1));
	cr_expect(eq(int, strncmp(c, "d", n), 0));
	cr_expect(nsb_path_next(&s, &n) == NULL);
	cr_expect(strcmp(s, "/") == 0, "%s", s);
	s = "";
	cr_expect(nsb_path_next(&s, &n) == NULL);
}
