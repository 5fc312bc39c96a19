// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON writer.  The first byte picks a mode:
 *   even  a script: each following byte is an operation (begin/end object or
 *         array, key, string, int, uint, bool, null) with its operands taken
 *         from the input; whatever the writer accepts must finish as a
 *         document that passes the strict checker, and a refused sequence
 *         must fail with a sticky error.
 *   odd   strings: the rest, cut at 0xff bytes, becomes an array of strings;
 *         the output must pass the checker, decode back (an independent
 *         decoder below) to exactly the input for well-formed UTF-8, and the
 *         replaced_invalid_utf8 flag must be set exactly when some input
 *         string is ill-formed.
 * Bits 1-2 of the first byte lower max_len so the size limit is exercised.
 */
#include <errno.h>

#include "../unit/json_check.h"
#include "fuzz.h"
#include "base/json.h"

/* Strict UTF-8 (the same definition as the writer's, written independently). */
static bool utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned c = s[i];
		size_t k;
		uint32_t cp, min;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			k = 1, cp = c & 0x1f, min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			k = 2, cp = c & 0x0f, min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			k = 3, cp = c & 0x07, min = 0x10000;
		} else {
			return false;
		}
		if (n - i <= k) /* truncated */
			return false;
		for (size_t j = 1; j <= k; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + j] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += k + 1;
	}
	return true;
}

static void put_utf8(unsigned char *out, size_t *o, uint32_t cp)
{
	if (cp < 0x80) {
		out[(*o)++] = (unsigned char)cp;
	} else if (cp < 0x800) {
		out[(*o)++] = (unsigned char)(0xc0 | (cp >> 6));
		out[(*o)++] = (unsigned char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		out[(*o)++] = (unsigned char)(0xe0 | (cp >> 12));
		out[(*o)++] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*o)++] = (unsigned char)(0x80 | (cp & 0x3f));
	} else {
		out[(*o)++] = (unsigned char)(0xf0 | (cp >> 18));
		out[(*o)++] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
		out[(*o)++] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*o)++] = (unsigned char)(0x80 | (cp & 0x3f));
	}
}

static unsigned hex4(const char *s)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v = v * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

/* Decode the JSON string starting at *pos (on its '"'), already known valid. */
static size_t decode_string(const char *s, size_t *pos, unsigned char *out)
{
	size_t i = *pos + 1, o = 0;
	while (s[i] != '"') {
		if (s[i] != '\\') {
			out[o++] = (unsigned char)s[i++];
			continue;
		}
		char c = s[i + 1];
		i += 2;
		switch (c) {
		case 'b':
			out[o++] = '\b';
			break;
		case 'f':
			out[o++] = '\f';
			break;
		case 'n':
			out[o++] = '\n';
			break;
		case 'r':
			out[o++] = '\r';
			break;
		case 't':
			out[o++] = '\t';
			break;
		case 'u': {
			uint32_t cp = hex4(s + i);
			i += 4;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				uint32_t lo = hex4(s + i + 2);
				i += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			put_utf8(out, &o, cp);
			break;
		}
		default:
			out[o++] = (unsigned char)c;
			break;
		}
	}
	*pos = i + 1;
	return o;
}

static void set_limit(struct nsb_json *j, uint8_t mode)
{
	static const size_t limits[] = {0, 16, 256, 4096};
	if (limits[(mode >> 1) & 3])
		j->max_len = limits[(mode >> 1) & 3];
}

static void check_finish(struct nsb_json *j, char **ret, size_t *ret_len, int *ret_r)
{
	int err = j->err;
	int r = nsb_json_finish(j, ret, ret_len);
	*ret_r = r;
	if (err)
		FUZZ_ASSERT(r == err);
	if (r < 0) {
		FUZZ_ASSERT(r == -ENOMEM || r == -E2BIG || r == -EINVAL);
		return;
	}
	FUZZ_ASSERT(strlen(*ret) == *ret_len);
	FUZZ_ASSERT(*ret_len <= j->max_len);
	size_t off = 0;
	if (!json_check_at(*ret, *ret_len, &off)) {
		fprintf(stderr, "invalid JSON at offset %zu: %s\n", off, *ret);
		abort();
	}
}

static void run_strings(const uint8_t *data, size_t size, uint8_t mode)
{
	struct nsb_json j;
	char *out = NULL;
	size_t len = 0;
	int r;
	bool any_invalid = false;

	nsb_json_init(&j);
	set_limit(&j, mode);
	nsb_json_begin_array(&j);
	for (size_t off = 0; off <= size;) {
		const uint8_t *end = memchr(data + off, 0xff, size - off);
		size_t n = end ? (size_t)(end - (data + off)) : size - off;
		any_invalid |= !utf8_valid(data + off, n);
		nsb_json_string_len(&j, (const char *)data + off, n);
		off += n + 1;
	}
	nsb_json_end_array(&j);
	bool limited = j.err != 0;
	check_finish(&j, &out, &len, &r);
	if (r == 0) {
		FUZZ_ASSERT(j.replaced_invalid_utf8 == any_invalid);
		if (!any_invalid) {
			unsigned char *dec = malloc(len + 1);
			size_t pos = 1; /* after '[' */
			if (!dec)
				abort();
			for (size_t off = 0; off <= size;) {
				const uint8_t *end = memchr(data + off, 0xff, size - off);
				size_t n = end ? (size_t)(end - (data + off)) : size - off;
				FUZZ_ASSERT(out[pos] == '"');
				size_t m = decode_string(out, &pos, dec);
				FUZZ_ASSERT(m == n && memcmp(dec, data + off, n) == 0);
				FUZZ_ASSERT(out[pos] == (end ? ',' : ']'));
				pos++;
				off += n + 1;
			}
			FUZZ_ASSERT(pos == len);
			free(dec);
		}
		free(out);
	} else {
		FUZZ_ASSERT(limited && r == -E2BIG);
	}
	nsb_json_free(&j);
}

static void run_script(const uint8_t *data, size_t size, uint8_t mode)
{
	struct nsb_json j;
	char *out = NULL;
	size_t len = 0;
	int r;

	nsb_json_init(&j);
	set_limit(&j, mode);
	for (size_t i = 0; i < size;) {
		uint8_t op = data[i++];
		int before = j.err;
		size_t n = 0;
		int64_t v = 0;
		switch (op % 11) {
		case 0:
			r = nsb_json_begin_object(&j);
			break;
		case 1:
			r = nsb_json_end_object(&j);
			break;
		case 2:
			r = nsb_json_begin_array(&j);
			break;
		case 3:
			r = nsb_json_end_array(&j);
			break;
		case 4:
		case 5:
			n = i < size ? data[i++] % 16 : 0;
			n = n < size - i ? n : size - i;
			if (op % 11 == 4) {
				char key[17];
				memcpy(key, data + i, n);
				key[n] = '\0';
				r = nsb_json_key(&j, key);
			} else {
				r = nsb_json_string_len(&j, (const char *)data + i, n);
			}
			i += n;
			break;
		case 6:
		case 7:
			for (int b = 0; b < 8 && i < size; b++)
				v = (int64_t)(((uint64_t)v << 8) | data[i++]);
			r = op % 11 == 6 ? nsb_json_int(&j, v) : nsb_json_uint(&j, (uint64_t)v);
			break;
		case 8:
			r = nsb_json_bool(&j, op & 16);
			break;
		case 9:
			r = nsb_json_null(&j);
			break;
		default:
			r = nsb_json_string(&j, NULL);
			break;
		}
		/* Errors are sticky: once set, every call returns the first one. */
		if (before)
			FUZZ_ASSERT(r == before && j.err == before);
		FUZZ_ASSERT(r == j.err);
	}
	check_finish(&j, &out, &len, &r);
	free(out);
	nsb_json_free(&j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 1)
		run_strings(data + 1, size - 1, data[0]);
	else
		run_script(data + 1, size - 1, data[0]);
	return 0;
}
