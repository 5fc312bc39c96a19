// SPDX-License-Identifier: GPL-2.0-or-later
/* The strict JSON reader (base/json_parse.h): what it accepts, what it
 * refuses, and where it says the fault is. */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_parse.h"
#include "json_check.h"
#include "unit.h"

static int parse(const char *s, size_t n, struct nsb_jdoc *d, struct nsb_jerror *e)
{
	memset(d, 0, sizeof(*d));
	return nsb_json_parse(d, s, n, 1u << 20, e);
}

/* Accepted, and the independent checker agrees. */
#define ACCEPT(lit)                                                                             \
	do {                                                                                    \
		struct nsb_jdoc d_;                                                             \
		struct nsb_jerror e_;                                                           \
		int r_ = parse(lit, sizeof(lit) - 1, &d_, &e_);                                 \
		cr_expect(r_ == 0, "should accept: %s (%s at %u:%u)", lit, e_.message, e_.line, \
			  e_.column);                                                           \
		cr_expect(json_check(lit, sizeof(lit) - 1), "checker disagrees: %s", lit);      \
		nsb_jdoc_free(&d_);                                                             \
	} while (0)

#define REJECT(lit)                                                          \
	do {                                                                 \
		struct nsb_jdoc d_;                                          \
		struct nsb_jerror e_;                                        \
		int r_ = parse(lit, sizeof(lit) - 1, &d_, &e_);              \
		cr_expect(r_ < 0, "should refuse: %s", lit);                 \
		cr_expect(e_.message[0] != '\0', "no message for: %s", lit); \
		nsb_jdoc_free(&d_);                                          \
	} while (0)

Test(json_parse, accepts_rfc8259_documents)
{
	ACCEPT("{}");
	ACCEPT("[]");
	ACCEPT("0");
	ACCEPT("-0");
	ACCEPT("-12.5e+3");
	ACCEPT("1E-2");
	ACCEPT("true");
	ACCEPT("null");
	ACCEPT("\"\"");
	ACCEPT("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\"");
	ACCEPT("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\x7f\"");
	ACCEPT(" \t\r\n{ \"a\" : [ 1 , 2 , { } ] , \"b\" : null }\n");
	ACCEPT("{\"a\":{\"a\":1},\"b\":{\"a\":2}}"); /* the same name in two objects */
}

Test(json_parse, refuses_what_the_rfc_does_not_allow)
{
	REJECT("");
	REJECT("   ");
	REJECT("{");
	REJECT("{\"a\":1,}");
	REJECT("[1,]");
	REJECT("[1 2]");
	REJECT("{\"a\" 1}");
	REJECT("{a:1}");
	REJECT("01");
	REJECT("+1");
	REJECT(".5");
	REJECT("1.");
	REJECT("1e");
	REJECT("-");
	REJECT("NaN");
	REJECT("0x10");
	REJECT("tru");
	REJECT("True");
	REJECT("'a'");
	REJECT("\"a");
	REJECT("\"\\x\"");
	REJECT("\"\\u12\"");
	REJECT("\"tab\tin\"");
	REJECT("\"nl\nin\"");
	REJECT("{} {}");
	REJECT("[] x");
	REJECT("/* c */ {}");
	REJECT("\xef\xbb\xbf{}"); /* byte order mark */
}

Test(json_parse, refuses_ill_formed_utf8_and_lone_surrogates)
{
	REJECT("\"\xc0\xaf\"");		/* overlong */
	REJECT("\"\xed\xa0\x80\"");	/* a surrogate, encoded */
	REJECT("\"\xf4\x90\x80\x80\""); /* above U+10FFFF */
	REJECT("\"\x80\"");		/* stray continuation */
	REJECT("\"\xe2\x82\"");		/* truncated */
	REJECT("\"\\uD83D\"");		/* high half alone */
	REJECT("\"\\uDE00\"");		/* low half alone */
	REJECT("\"\\uD83D\\u0041\"");	/* high half, then not a low one */
	REJECT("[\"ok\", \xff]");	/* outside a string */
}

Test(json_parse, refuses_duplicate_names_with_the_path)
{
	struct nsb_jdoc d = {0};
	struct nsb_jerror e;
	const char doc[] = "{\"limits\": {\"memory\": 1,\n  \"pids\": 2, \"memory\": 3}}";

	cr_assert(eq(int, parse(doc, sizeof(doc) - 1, &d, &e), -EINVAL));
	expect_str(e.path, "$.limits.memory");
	cr_expect(strstr(e.message, "duplicate") != NULL, "%s", e.message);
	cr_expect(eq(u32, e.line, 2));
	nsb_jdoc_free(&d);
}

Test(json_parse, many_names_checked_in_reasonable_time)
{
	/* 60000 members, the last one repeating the first: sorted, not pairwise. */
	size_t cap = 60000 * 16, n = 0;
	char *buf = malloc(cap);
	struct nsb_jdoc d = {0};
	struct nsb_jerror e;

	cr_assert(buf != NULL);
	buf[n++] = '{';
	for (int i = 0; i < 60000; i++)
		n += (size_t)snprintf(buf + n, cap - n, "\"k%d\":0,", i);
	n += (size_t)snprintf(buf + n, cap - n, "\"k0\":1}");
	cr_assert(eq(int, nsb_json_parse(&d, buf, n, cap, &e), -EINVAL));
	expect_str(e.path, "$.k0");
	nsb_jdoc_free(&d);
	free(buf);
}

Test(json_parse, depth_limit_is_32)
{
	char buf[128];
	struct nsb_jdoc d = {0};
	struct nsb_jerror e;

	memset(buf, '[', 32);
	memset(buf + 32, ']', 32);
	cr_expect(eq(int, nsb_json_parse(&d, buf, 64, sizeof(buf), &e), 0));
	nsb_jdoc_free(&d);
	memset(buf, '[', 33);
	memset(buf + 33, ']', 33);
	cr_expect(eq(int, nsb_json_parse(&d, buf, 66, sizeof(buf), &e), -E2BIG));
	cr_expect(strstr(e.message, "deeper than 32") != NULL, "%s", e.message);
	nsb_jdoc_free(&d);
}

Test(json_parse, size_limit)
{
	struct nsb_jdoc d = {0};
	struct nsb_jerror e;

	cr_expect(eq(int, nsb_json_parse(&d, "[1, 2]", 6, 5, &e), -E2BIG));
	nsb_jdoc_free(&d);
	cr_expect(eq(int, nsb_json_parse(&d, "[1, 2]", 6, 6, &e), 0));
	nsb_jdoc_free(&d);
}

Test(json_parse, errors_give_line_column_and_path)
{
	struct nsb_jdoc d = {0};
	struct nsb_jerror e;
	const char doc[] = "{\"ro\": [\"a\",\n\t\"\xc3\xa9\", tru]}";

	cr_assert(eq(int, parse(doc, sizeof(doc) - 1, &d, &e), -EINVAL));
	cr_expect(eq(u32, e.line, 2));
	cr_expect(eq(u32, e.column, 7), "column counts characters: %u",
		  e.column); /* tab, "é", ", " */
	expect_str(e.path, "$.ro[2]");
	nsb_jdoc_free(&d);
}

Test(json_parse, tree_values_and_decoding)
{
	struct nsb_jdoc d = {0};
	struct nsb_jerror e;
	const char doc[] = "{\"s\": \"a\\u0000b\\u00e9\\ud83d\\ude00\", \"n\": -12.50e1, \"i\": "
			   "18446744073709551615, \"t\": true, \"z\": null, \"a\": [1, 2, 3]}";
	const struct nsb_jval *v;
	uint64_t u;
	int64_t i;

	cr_assert(eq(int, parse(doc, sizeof(doc) - 1, &d, &e), 0), "%s", e.message);
	cr_assert(eq(int, d.root->type, NSB_JOBJECT));
	cr_expect(eq(sz, d.root->n, 6));
	v = nsb_jobj_get(d.root, "s");
	cr_assert(v && v->type == NSB_JSTRING);
	cr_expect(eq(sz, v->len, 9));
	cr_expect(memcmp(v->str, "a\0b\xc3\xa9\xf0\x9f\x98\x80", 9) == 0);
	v = nsb_jobj_get(d.root, "n");
	cr_assert(v && v->type == NSB_JNUMBER);
	expect_str(v->str, "-12.50e1");
	cr_expect(eq(int, nsb_jval_uint(v, UINT64_MAX, &u), -EINVAL));
	v = nsb_jobj_get(d.root, "i");
	cr_expect(eq(int, nsb_jval_uint(v, UINT64_MAX, &u), 0));
	cr_expect(eq(u64, u, UINT64_MAX));
	cr_expect(eq(int, nsb_jval_uint(v, 10, &u), -ERANGE));
	cr_expect(eq(int, nsb_jval_int(v, &i), -ERANGE));
	cr_expect(nsb_jobj_get(d.root, "t")->boolean);
	cr_expect(eq(int, nsb_jobj_get(d.root, "z")->type, NSB_JNULL));
	v = nsb_jobj_get(d.root, "a");
	cr_assert(v && v->n == 3);
	cr_expect(eq(int, nsb_jval_int(v->last, &i), 0));
	cr_expect(eq(i64, i, 3));
	cr_expect(eq(sz, v->last->index, 2));
	cr_expect(nsb_jobj_get(d.root, "missing") == NULL);
	nsb_jdoc_free(&d);
}

Test(json_parse, int64_edges)
{
	struct nsb_jdoc d = {0};
	struct nsb_jerror e;
	int64_t i;
	const char doc[] = "[-9223372036854775808, 9223372036854775807, -9223372036854775809]";

	cr_assert(eq(int, parse(doc, sizeof(doc) - 1, &d, &e), 0));
	cr_expect(eq(int, nsb_jval_int(d.root->first, &i), 0));
	cr_expect(eq(i64, i, INT64_MIN));
	cr_expect(eq(int, nsb_jval_int(d.root->first->next, &i), 0));
	cr_expect(eq(i64, i, INT64_MAX));
	cr_expect(eq(int, nsb_jval_int(d.root->last, &i), -ERANGE));
	nsb_jdoc_free(&d);
}

Test(json_parse, paths_quote_odd_names)
{
	struct nsb_jdoc d = {0};
	struct nsb_jerror e;
	char path[64];
	const char doc[] = "{\"a b\": {\"x\\\"y\": [0, {\"ok_1\": 2}]}}";
	const struct nsb_jval *v;

	cr_assert(eq(int, parse(doc, sizeof(doc) - 1, &d, &e), 0));
	v = d.root->first->first->last->first;
	nsb_jval_path(v, path, sizeof(path));
	expect_str(path, "$[\"a b\"][\"x\\u0022y\"][1].ok_1");
	nsb_jval_path(v, path, 12);
	cr_expect(eq(sz, strlen(path), 11));
	cr_expect(strcmp(path + 8, "...") == 0, "%s", path);
	nsb_jdoc_free(&d);
}

Test(json_parse, large_strings_get_blocks_of_their_own)
{
	size_t n = 200000;
	char *buf = malloc(n + 8);
	struct nsb_jdoc d = {0};
	struct nsb_jerror e;

	cr_assert(buf != NULL);
	buf[0] = '[';
	buf[1] = '"';
	memset(buf + 2, 'x', n);
	memcpy(buf + 2 + n, "\",\"y\"]", 6);
	cr_assert(eq(int, nsb_json_parse(&d, buf, n + 8, n + 8, &e), 0), "%s", e.message);
	cr_expect(eq(sz, d.root->first->len, n));
	expect_str(d.root->last->str, "y");
	nsb_jdoc_free(&d);
	free(buf);
}
