// SPDX-License-Identifier: GPL-2.0-or-later
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "json_check.h"
#include "base/macro.h"

/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

/* ---- the validator: it must reject, or it proves nothing ---- */

#define ACCEPT(lit) cr_expect(json_check(lit, sizeof(lit) - 1), "should accept: %s", lit)
#define REJECT(lit) cr_expect(not(json_check(lit, sizeof(lit) - 1)), "should reject: %s", lit)

Test(json_check, accepts_valid_documents)
{
	ACCEPT("{}");
	ACCEPT("[]");
	ACCEPT("0");
	ACCEPT("-0");
	ACCEPT("-12.5e+3");
	ACCEPT("1E-2");
	ACCEPT("true");
	ACCEPT("false");
	ACCEPT("null");
	ACCEPT("\"\"");
	ACCEPT("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\"");
	ACCEPT("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\x7f\"");
	ACCEPT(" \t\r\n{ \"a\" : [ 1 , 2 , { } ] , \"b\" : null }");
	ACCEPT("{\"a\":1}\n");
	ACCEPT("[[[[[[[[[[]]]]]]]]]]");
}

Test(json_check, rejects_invalid_documents)
{
	REJECT("");
	REJECT(" ");
	REJECT("{");
	REJECT("}");
	REJECT("[1,]");
	REJECT("[,1]");
	REJECT("{\"a\":1,}");
	REJECT("{\"a\"}");
	REJECT("{\"a\" 1}");
	REJECT("{a:1}");
	REJECT("{1:1}");
	REJECT("[1 2]");
	REJECT("{}{}");
	REJECT("{}x");
	REJECT("{}\n\n");
	REJECT("{}\r\n");
	REJECT("{} ");
	REJECT("{}\n ");
	REJECT("01");
	REJECT("-");
	REJECT("+1");
	REJECT("1.");
	REJECT(".5");
	REJECT("1e");
	REJECT("1e+");
	REJECT("0x10");
	REJECT("tru");
	REJECT("True");
	REJECT("nul");
	REJECT("\"abc");
	REJECT("\"a\nb\"");
	REJECT("\"\x1f\"");
	REJECT("\"\\x\"");
	REJECT("\"\\u12\"");
	REJECT("\"\\u12g4\"");
	REJECT("\"\\uD800\"");
	REJECT("\"\\uDC00\"");
	REJECT("\"\\uD800\\u0041\"");
	REJECT("\"\xc3\"");
	REJECT("\"\x80\"");
	REJECT("\"\xc0\x80\"");
	REJECT("\"\xe0\x80\x80\"");
	REJECT("\"\xed\xa0\x80\"");
	REJECT("\"\xf4\x90\x80\x80\"");
	REJECT("\"\xf5\x80\x80\x80\"");
	REJECT("\"\xff\"");
	REJECT("'a'");
}

Test(json_check, rejects_nul_bytes_anywhere)
{
	cr_expect(not(json_check("\"a\0b\"", 5)));
	cr_expect(not(json_check("\"\\\0\"", 4)));
	cr_expect(not(json_check("{}\0", 3)));
	cr_expect(not(json_check("\0{}", 3)));
	cr_expect(json_check("{}", 2));
}

Test(json_check, rejects_nesting_past_its_limit)
{
	char deep[2 * (JSON_CHECK_MAX_DEPTH + 1)];
	size_t n = JSON_CHECK_MAX_DEPTH;

	memset(deep, '[', n);
	memset(deep + n, ']', n);
	cr_assert(json_check(deep, 2 * n), "exactly the limit is accepted");

	n++;
	memset(deep, '[', n);
	memset(deep + n, ']', n);
	cr_expect(not(json_check(deep, 2 * n)));
}

Test(json_check, reports_offset_of_first_bad_byte)
{
	size_t off = 0;
	cr_assert(not(json_check_at("[1,2,x]", 7, &off)));
	cr_expect(eq(sz, off, 5));
	cr_assert(not(json_check_at("{} x", 4, &off)));
	cr_expect(eq(sz, off, 2));
}

/* ---- the writer ---- */

/* Finish j, check the result is valid JSON, hand it out. */
static char *finish_valid(struct nsb_json *j, size_t *ret_len)
{
	char *out = NULL;
	size_t len = 0;

	int r = nsb_json_finish(j, &out, &len);
	cr_assert(eq(int, r, 0));
	cr_assert(not(eq(ptr, out, NULL)));
	cr_assert(eq(sz, len, strlen(out)), "a writer document never holds a raw NUL");
	cr_assert(json_check(out, len), "invalid JSON: %s", out);
	if (ret_len)
		*ret_len = len;
	return out;
}

/* The JSON text of one string value written from len bytes of s. */
static char *string_doc(const char *s, size_t len, bool *ret_replaced)
{
	struct nsb_json j;

	nsb_json_init(&j);
	cr_assert(eq(int, nsb_json_string_len(&j, s, len), 0));
	char *out = finish_valid(&j, NULL);
	if (ret_replaced)
		*ret_replaced = j.replaced_invalid_utf8;
	nsb_json_free(&j);
	return out;
}

Test(json, empty_containers)
{
	struct nsb_json j;
	_cleanup_free_ char *a = NULL, *o = NULL;

	nsb_json_init(&j);
	nsb_json_begin_array(&j);
	nsb_json_end_array(&j);
	a = finish_valid(&j, NULL);
	nsb_json_free(&j);
	cr_expect(eq(str, a, "[]"));

	nsb_json_init(&j);
	nsb_json_begin_object(&j);
	nsb_json_end_object(&j);
	o = finish_valid(&j, NULL);
	nsb_json_free(&j);
	cr_expect(eq(str, o, "{}"));
}

Test(json, places_commas_between_members_and_elements)
{
	struct nsb_json j;

	nsb_json_init(&j);
	nsb_json_begin_object(&j);
	nsb_json_key(&j, "a");
	nsb_json_int(&j, 1);
	nsb_json_key(&j, "b");
	nsb_json_begin_array(&j);
	nsb_json_int(&j, 1);
	nsb_json_begin_object(&j);
	nsb_json_end_object(&j);
	nsb_json_begin_array(&j);
	nsb_json_null(&j);
	nsb_json_bool(&j, true);
	nsb_json_end_array(&j);
	nsb_json_string(&j, "x");
	nsb_json_end_array(&j);
	nsb_json_key(&j, "c");
	nsb_json_begin_object(&j);
	nsb_json_key(&j, "d");
	nsb_json_bool(&j, false);
	nsb_json_end_object(&j);
	nsb_json_end_object(&j);

	_cleanup_free_ char *out = finish_valid(&j, NULL);
	nsb_json_free(&j);
	cr_expect(eq(str, out, "{\"a\":1,\"b\":[1,{},[null,true],\"x\"],\"c\":{\"d\":false}}"));
}

Test(json, writes_integer_extremes)
{
	struct nsb_json j;

	nsb_json_init(&j);
	nsb_json_begin_array(&j);
	nsb_json_int(&j, INT64_MIN);
	nsb_json_int(&j, INT64_MAX);
	nsb_json_int(&j, 0);
	nsb_json_int(&j, -1);
	nsb_json_uint(&j, UINT64_MAX);
	nsb_json_uint(&j, 0);
	nsb_json_end_array(&j);
	_cleanup_free_ char *out = finish_valid(&j, NULL);
	nsb_json_free(&j);
	cr_expect(eq(str, out,
		     "[-9223372036854775808,9223372036854775807,0,-1,18446744073709551615,0]"));
}

Test(json, escapes_quote_and_backslash)
{
	_cleanup_free_ char *out = string_doc("a\"b\\c/", 6, NULL);
	cr_expect(eq(str, out, "\"a\\\"b\\\\c/\""));
}

Test(json, escapes_every_control_char)
{
	for (unsigned c = 0; c <= 0x7f; c++) {
		if (c >= 0x20 && c < 0x7f)
			continue;
		char in = (char)c;
		char want[16];
		switch (c) {
		case '\b':
			strcpy(want, "\"\\b\"");
			break;
		case '\f':
			strcpy(want, "\"\\f\"");
			break;
		case '\n':
			strcpy(want, "\"\\n\"");
			break;
		case '\r':
			strcpy(want, "\"\\r\"");
			break;
		case '\t':
			strcpy(want, "\"\\t\"");
			break;
		default:
			snprintf(want, sizeof(want), "\"\\u%04x\"", c);
			break;
		}
		bool replaced = true;
		_cleanup_free_ char *out = string_doc(&in, 1, &replaced);
		cr_expect(eq(str, out, want), "byte 0x%02x", c);
		cr_expect(not(replaced), "byte 0x%02x", c);
	}
}

Test(json, printable_ascii_passes_unchanged)
{
	char in[95], want[128];
	size_t n = 0, w = 0;

	want[w++] = '"';
	for (unsigned c = 0x20; c < 0x7f; c++) {
		in[n++] = (char)c;
		if (c == '"' || c == '\\')
			want[w++] = '\\';
		want[w++] = (char)c;
	}
	want[w++] = '"';
	want[w] = '\0';
	_cleanup_free_ char *out = string_doc(in, n, NULL);
	cr_expect(eq(str, out, want));
}

Test(json, escapes_nul_inside_string)
{
	_cleanup_free_ char *out = string_doc("a\0b\0", 4, NULL);
	cr_expect(eq(str, out, "\"a\\u0000b\\u0000\""));
}

Test(json, valid_multibyte_passes_unchanged)
{
	static const char *const ok[] = {
		"\xc2\x80",	    /* U+0080, smallest two-byte */
		"\xc3\xa9",	    /* é */
		"\xdf\xbf",	    /* U+07FF */
		"\xe0\xa0\x80",	    /* U+0800, smallest three-byte */
		"\xe2\x82\xac",	    /* € */
		"\xed\x9f\xbf",	    /* U+D7FF, just below the surrogates */
		"\xee\x80\x80",	    /* U+E000, just above them */
		"\xef\xbf\xbd",	    /* U+FFFD itself */
		"\xef\xbf\xbf",	    /* U+FFFF */
		"\xf0\x90\x80\x80", /* U+10000, smallest four-byte */
		"\xf0\x9f\x98\x80", /* 😀 */
		"\xf4\x8f\xbf\xbf", /* U+10FFFF, the last code point */
		"caf\xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80!",
	};

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		char want[64];
		snprintf(want, sizeof(want), "\"%s\"", ok[i]);
		bool replaced = true;
		_cleanup_free_ char *out = string_doc(ok[i], strlen(ok[i]), &replaced);
		cr_expect(eq(str, out, want), "case %zu", i);
		cr_expect(not(replaced), "case %zu", i);
	}
}

#define FFFD "\xef\xbf\xbd"

Test(json, replaces_each_invalid_utf8_class_and_flags_it)
{
	/* One U+FFFD per maximal subpart (Unicode chapter 3). */
	static const struct {
		const char *what, *in, *want;
	} cases[] = {
		{"lone continuation", "\x80", FFFD},
		{"continuation run", "\x80\xbf", FFFD FFFD},
		{"C0 overlong", "\xc0\x80", FFFD FFFD},
		{"C1 overlong", "\xc1\xbf", FFFD FFFD},
		{"three-byte overlong", "\xe0\x80\xaf", FFFD FFFD FFFD},
		{"four-byte overlong", "\xf0\x80\x80\xaf", FFFD FFFD FFFD FFFD},
		{"high surrogate", "\xed\xa0\x80", FFFD FFFD FFFD},
		{"low surrogate", "\xed\xbf\xbf", FFFD FFFD FFFD},
		{"above U+10FFFF", "\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD},
		{"F5 lead", "\xf5\x80\x80\x80", FFFD FFFD FFFD FFFD},
		{"FE and FF", "\xfe\xff", FFFD FFFD},
		{"truncated two-byte at end", "a\xc3", "a" FFFD},
		{"truncated three-byte at end", "\xe2\x82", FFFD},
		{"truncated four-byte at end", "\xf0\x9f\x98", FFFD},
		{"truncated before ASCII",
		 "\xe2\x82"
		 "A",
		 FFFD "A"},
		{"truncated before quote", "\xc3\"", FFFD "\\\""},
		{"truncated before valid", "\xf0\x9f\xc3\xa9", FFFD "\xc3\xa9"},
		{"lead then lead", "\xc3\xc3\xa9", FFFD "\xc3\xa9"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char want[64];
		snprintf(want, sizeof(want), "\"%s\"", cases[i].want);
		bool replaced = false;
		_cleanup_free_ char *out = string_doc(cases[i].in, strlen(cases[i].in), &replaced);
		cr_expect(eq(str, out, want), "%s", cases[i].what);
		cr_expect(replaced, "%s: flag not set", cases[i].what);
	}
}

Test(json, replacement_flag_survives_later_clean_strings)
{
	struct nsb_json j;

	nsb_json_init(&j);
	nsb_json_begin_array(&j);
	nsb_json_string(&j, "ok");
	cr_expect(not(j.replaced_invalid_utf8));
	nsb_json_string(&j, "\xff");
	nsb_json_string(&j, "ok");
	nsb_json_end_array(&j);
	_cleanup_free_ char *out = finish_valid(&j, NULL);
	cr_expect(j.replaced_invalid_utf8);
	nsb_json_free(&j);
}

Test(json, escapes_and_replaces_in_keys)
{
	struct nsb_json j;

	nsb_json_init(&j);
	nsb_json_begin_object(&j);
	nsb_json_key(&j, "a\"\n\xc0");
	nsb_json_int(&j, 1);
	nsb_json_end_object(&j);
	_cleanup_free_ char *out = finish_valid(&j, NULL);
	cr_expect(eq(str, out, "{\"a\\\"\\n" FFFD "\":1}"));
	cr_expect(j.replaced_invalid_utf8);
	nsb_json_free(&j);
}

/* Every input of up to two bytes gives valid JSON; clean input passes through. */
Test(json, every_two_byte_string_yields_valid_json)
{
	for (unsigned a = 0; a < 256; a++) {
		for (unsigned b = 0; b < 256; b++) {
			char in[2] = {(char)a, (char)b};
			char quoted[4] = {'"', in[0], in[1], '"'};
			bool replaced;
			_cleanup_free_ char *out = string_doc(in, 2, &replaced);
			/*
			 * string_doc() already asserted validity.  Where the bytes are
			 * clean UTF-8 needing no escape, the output must be the input.
			 */
			bool plain = json_check(quoted, 4) && a != '"' && a != '\\' && a != 0x7f &&
				     b != '"' && b != '\\' && b != 0x7f;
			if (plain) {
				char want[5] = {'"', in[0], in[1], '"', '\0'};
				cr_assert(eq(str, out, want), "%02x %02x altered", a, b);
				cr_assert(not(replaced), "%02x %02x", a, b);
			} else if (json_check(quoted, 4) || (a < 0x80 && b < 0x80)) {
				cr_assert(not(replaced), "%02x %02x: valid input flagged", a, b);
			} else {
				cr_assert(replaced, "%02x %02x: invalid input not flagged", a, b);
			}
		}
	}
}

/* Pseudo-random byte strings biased toward UTF-8 edge bytes (fixed seed). */
Test(json, random_strings_yield_valid_json)
{
	static const unsigned char pool[] = {0x00, 0x1f, '"',  '\\', 'a',  0x7f, 0x80, 0xbf,
					     0xc0, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4,
					     0xf5, 0xff, 0xa0, 0x9f, 0x90, 0x8f};
	uint64_t x = 0x9e3779b97f4a7c15u;

	for (int iter = 0; iter < 50000; iter++) {
		unsigned char in[12];
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size_t n = x % sizeof(in);
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			in[i] = pool[x % sizeof(pool)];
		}
		_cleanup_free_ char *out = string_doc((const char *)in, n, NULL);
	}
}

Test(json, string_null_writes_null)
{
	struct nsb_json j;

	nsb_json_init(&j);
	nsb_json_begin_array(&j);
	nsb_json_string(&j, NULL);
	nsb_json_string_len(&j, NULL, 0);
	nsb_json_end_array(&j);
	_cleanup_free_ char *out = finish_valid(&j, NULL);
	nsb_json_free(&j);
	cr_expect(eq(str, out, "[null,\"\"]"));

	nsb_json_init(&j);
	cr_expect(eq(int, nsb_json_string_len(&j, NULL, 1), -EINVAL));
	nsb_json_free(&j);
}

Test(json, newline_follows_a_complete_value_once)
{
	struct nsb_json j;

	nsb_json_init(&j);
	cr_expect(eq(int, nsb_json_newline(&j), -EINVAL), "nothing written yet");
	nsb_json_free(&j);

	nsb_json_init(&j);
	nsb_json_begin_object(&j);
	cr_expect(eq(int, nsb_json_newline(&j), -EINVAL), "object still open");
	nsb_json_free(&j);

	nsb_json_init(&j);
	nsb_json_begin_object(&j);
	nsb_json_end_object(&j);
	cr_assert(eq(int, nsb_json_newline(&j), 0));
	_cleanup_free_ char *out = finish_valid(&j, NULL);
	cr_expect(eq(str, out, "{}\n"));
	nsb_json_free(&j);

	nsb_json_init(&j);
	nsb_json_null(&j);
	nsb_json_newline(&j);
	cr_expect(eq(int, nsb_json_newline(&j), -EINVAL), "second newline");
	nsb_json_free(&j);
}

/* Each misuse yields -EINVAL and poisons the writer. */
Test(json, rejects_misuse)
{
	struct nsb_json j;

	nsb_json_init(&j);
	nsb_json_begin_array(&j);
	cr_expect(eq(int, nsb_json_key(&j, "k"), -EINVAL), "key in array");
	nsb_json_free(&j);

	nsb_json_init(&j);
	cr_expect(eq(int, nsb_json_key(&j, "k"), -EINVAL), "key at top level");
	nsb_json_free(&j);

	nsb_json_init(&j);
	nsb_json_begin_object(&j);
	cr_expect(eq(int, nsb_json_int(&j, 1), -EINVAL), "value without key");
	nsb_json_free(&j);

	nsb_json_init(&j);
	nsb_json_begin_object(&j);
	nsb_json_key(&j, "k");
	cr_expect(eq(int, nsb_json_key(&j, "l"), -EINVAL), "key after key");
	nsb_json_free(&j);

	nsb_json_init(&j);
	nsb_json_begin_object(&j);
	nsb_json_key(&j, "k");
	cr_expect(eq(int, nsb_json_end_object(&j), -EINVAL), "key without value");
	nsb_json_free(&j);

	nsb_json_init(&j);
	nsb_json_begin_object(&j);
	cr_expect(eq(int, nsb_json_end_array(&j), -EINVAL), "mismatched end");
	nsb_json_free(&j);

	nsb_json_init(&j);
	cr_expect(eq(int, nsb_json_end_object(&j), -EINVAL), "end without begin");
	nsb_json_free(&j);

	nsb_json_init(&j);
	nsb_json_int(&j, 1);
	cr_expect(eq(int, nsb_json_int(&j, 2), -EINVAL), "second top-level value");
	nsb_json_free(&j);

	nsb_json_init(&j);
	cr_expect(eq(int, nsb_json_key(&j, NULL), -EINVAL), "NULL key");
	nsb_json_free(&j);
}

Test(json, finish_requires_one_complete_value)
{
	struct nsb_json j;
	char untouched[] = "untouched";
	char *out = untouched;
	size_t len = 42;

	nsb_json_init(&j);
	cr_expect(eq(int, nsb_json_finish(&j, &out, &len), -EINVAL), "empty document");
	nsb_json_free(&j);

	nsb_json_init(&j);
	nsb_json_begin_array(&j);
	nsb_json_begin_object(&j);
	nsb_json_end_object(&j);
	cr_expect(eq(int, nsb_json_finish(&j, &out, &len), -EINVAL), "array still open");
	nsb_json_free(&j);

	cr_expect(eq(str, out, "untouched"));
	cr_expect(eq(sz, len, 42));
}

Test(json, errors_are_sticky)
{
	struct nsb_json j;
	char *out = NULL;

	nsb_json_init(&j);
	nsb_json_begin_array(&j);
	cr_assert(eq(int, nsb_json_key(&j, "k"), -EINVAL));
	size_t len = j.len;
	/* Every later call, valid or not, returns the first error and writes nothing. */
	cr_expect(eq(int, nsb_json_int(&j, 1), -EINVAL));
	cr_expect(eq(int, nsb_json_end_array(&j), -EINVAL));
	cr_expect(eq(int, nsb_json_begin_object(&j), -EINVAL));
	cr_expect(eq(int, nsb_json_string(&j, "x"), -EINVAL));
	cr_expect(eq(int, nsb_json_null(&j), -EINVAL));
	cr_expect(eq(sz, j.len, len));
	cr_expect(eq(int, nsb_json_finish(&j, &out, NULL), -EINVAL));
	cr_expect(eq(ptr, out, NULL));
	nsb_json_free(&j);
}

Test(json, depth_limit)
{
	struct nsb_json j;

	nsb_json_init(&j);
	for (int i = 0; i < NSB_JSON_MAX_DEPTH; i++)
		cr_assert(eq(int, nsb_json_begin_array(&j), 0), "level %d", i + 1);
	cr_expect(eq(int, nsb_json_begin_object(&j), -E2BIG));
	cr_expect(eq(int, nsb_json_end_array(&j), -E2BIG), "sticky");
	nsb_json_free(&j);

	nsb_json_init(&j);
	for (int i = 0; i < NSB_JSON_MAX_DEPTH; i++)
		nsb_json_begin_array(&j);
	for (int i = 0; i < NSB_JSON_MAX_DEPTH; i++)
		nsb_json_end_array(&j);
	_cleanup_free_ char *out = finish_valid(&j, NULL);
	nsb_json_free(&j);
	cr_expect(eq(sz, strlen(out), 2 * NSB_JSON_MAX_DEPTH));
}

Test(json, size_limit_is_exact)
{
	struct nsb_json j;

	/* "abcd" is 6 bytes of output. */
	nsb_json_init(&j);
	j.max_len = 6;
	cr_assert(eq(int, nsb_json_string(&j, "abcd"), 0));
	_cleanup_free_ char *out = finish_valid(&j, NULL);
	nsb_json_free(&j);
	cr_expect(eq(str, out, "\"abcd\""));

	nsb_json_init(&j);
	j.max_len = 6;
	cr_expect(eq(int, nsb_json_string(&j, "abcde"), -E2BIG));
	nsb_json_free(&j);

	/* Escapes count at their output size: "\u0001" is 8 bytes. */
	nsb_json_init(&j);
	j.max_len = 7;
	cr_expect(eq(int, nsb_json_string(&j, "\x01"), -E2BIG));
	nsb_json_free(&j);
}

Test(json, size_limit_cannot_be_raised, .timeout = 30)
{
	struct nsb_json j;
	size_t n = NSB_JSON_MAX_LEN - 2; /* exactly the limit once quoted */
	_cleanup_free_ char *big = malloc(n + 1);

	cr_assert(not(eq(ptr, big, NULL)));
	memset(big, 'a', n + 1);

	nsb_json_init(&j);
	j.max_len = SIZE_MAX;
	cr_expect(eq(int, nsb_json_string_len(&j, big, n + 1), -E2BIG));
	nsb_json_free(&j);

	nsb_json_init(&j);
	cr_expect(eq(int, nsb_json_string_len(&j, big, n), 0));
	cr_expect(eq(sz, j.len, NSB_JSON_MAX_LEN));
	cr_expect(le(sz, j.cap, NSB_JSON_MAX_LEN + 1));
	nsb_json_free(&j);
}

/* An allocator that fails from the fail_at-th call on. */
static int alloc_calls, fail_at;

static void *failing_realloc(void *p, size_t size)
{
	if (++alloc_calls >= fail_at)
		return NULL;
	return realloc(p, size);
}

Test(json, allocation_failure_is_sticky_and_first_error_wins)
{
	struct nsb_json j;
	char *out = NULL;
	char big[600];

	memset(big, 'x', sizeof(big));
	alloc_calls = 0;
	fail_at = 2; /* the first buffer succeeds, growing it fails */
	nsb_json_init(&j);
	j.realloc_fn = failing_realloc;
	cr_assert(eq(int, nsb_json_begin_array(&j), 0));
	cr_expect(eq(int, nsb_json_string_len(&j, big, sizeof(big)), -ENOMEM));
	cr_expect(eq(int, nsb_json_key(&j, "misuse"), -ENOMEM),
		  "a later -EINVAL does not replace it");
	cr_expect(eq(int, nsb_json_end_array(&j), -ENOMEM));
	cr_expect(eq(int, nsb_json_finish(&j, &out, NULL), -ENOMEM));
	cr_expect(eq(ptr, out, NULL));
	cr_expect(eq(int, alloc_calls, 2), "no allocation retried after the failure");
	/* The buffer written so far is still owned and still a C string. */
	cr_expect(eq(str, j.buf, "[\""));
	nsb_json_free(&j);
}

Test(json, allocation_failure_at_first_byte)
{
	struct nsb_json j;

	alloc_calls = 0;
	fail_at = 1;
	nsb_json_init(&j);
	j.realloc_fn = failing_realloc;
	cr_expect(eq(int, nsb_json_null(&j), -ENOMEM));
	cr_expect(eq(ptr, j.buf, NULL));
	nsb_json_free(&j);
}

Test(json, free_is_idempotent_and_safe_after_finish)
{
	struct nsb_json j;
	char *out;

	memset(&j, 0, sizeof(j));
	nsb_json_free(&j);

	nsb_json_init(&j);
	nsb_json_bool(&j, true);
	cr_assert(eq(int, nsb_json_finish(&j, &out, NULL), 0));
	nsb_json_free(&j);
	nsb_json_free(&j);
	cr_expect(eq(str, out, "true"), "finish handed the buffer over");
	free(out);
}
