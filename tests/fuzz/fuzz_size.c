// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsb_parse_size, nsb_parse_uint and nsb_parse_milli against a deliberately
 * naive reference (arbitrary precision via __int128 and a digit cap).  The
 * input's first byte picks the maximum; the rest is the string.  Both sides
 * must agree on accept/reject, on the error class and on the value.
 */
#include <errno.h>

#include "fuzz.h"
#include "base/util.h"

/* Saturating decimal: values beyond 2^100 are all "huge", which is enough. */
typedef unsigned __int128 u128;
#define HUGE ((u128)1 << 100)

static u128 mul_sat(u128 a, u128 b)
{
	if (a == 0 || b == 0)
		return 0;
	if (a >= HUGE || b >= HUGE || a > HUGE / b)
		return HUGE;
	return a * b;
}

/* Digits at s: count them, their value saturated. */
static size_t ref_digits(const char *s, u128 *ret)
{
	size_t n = 0;
	u128 v = 0;
	while (s[n] >= '0' && s[n] <= '9') {
		v = mul_sat(v, 10);
		if (v < HUGE)
			v += (unsigned)(s[n] - '0');
		n++;
	}
	*ret = v;
	return n;
}

static int ref_uint(const char *s, uint64_t max, uint64_t *ret)
{
	u128 v;
	size_t n = ref_digits(s, &v);
	if (n == 0 || s[n])
		return -EINVAL;
	if (v > max)
		return -ERANGE;
	*ret = (uint64_t)v;
	return 0;
}

static int ref_size(const char *s, uint64_t max, uint64_t *ret)
{
	u128 v, mult = 1;
	size_t n = ref_digits(s, &v);
	const char *p = s + n;
	if (n == 0)
		return -EINVAL;
	const char *units = "kmgt";
	const char *u = *p ? strchr(units, *p | 0x20) : NULL;
	if (u && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) {
		mult = (u128)1 << (10 * (u - units + 1));
		p++;
		if (strcmp(p, "iB") == 0 || strcmp(p, "B") == 0 || !*p)
			p += strlen(p);
	} else if (strcmp(p, "B") == 0) {
		p++;
	}
	if (*p)
		return -EINVAL;
	v = mul_sat(v, mult);
	if (v > max)
		return -ERANGE;
	*ret = (uint64_t)v;
	return 0;
}

static int ref_milli(const char *s, uint64_t max, uint64_t *ret)
{
	u128 whole, frac = 0;
	size_t n = ref_digits(s, &whole);
	const char *p = s + n;
	if (n == 0)
		return -EINVAL;
	if (*p == '.') {
		p++;
		size_t k = ref_digits(p, &frac);
		if (k == 0 || k > 3)
			return -EINVAL;
		for (size_t i = k; i < 3; i++)
			frac *= 10;
		p += k;
	}
	if (*p)
		return -EINVAL;
	u128 v = mul_sat(whole, 1000);
	if (v < HUGE)
		v += frac;
	if (v > max)
		return -ERANGE;
	*ret = (uint64_t)v;
	return 0;
}

static const uint64_t maxes[] = {
	0,
	1,
	999,
	1000,
	1024,
	(1ull << 20),
	(1ull << 40),
	UINT64_MAX / 1000,
	UINT64_MAX / 1024,
	UINT64_MAX - 1,
	UINT64_MAX,
	12345678901234567ull,
};

static void same(int got, uint64_t gv, int want, uint64_t wv, const char *s, uint64_t max)
{
	if (got != want || (got == 0 && gv != wv)) {
		fprintf(stderr, "'%s' max %llu: got %d/%llu, reference %d/%llu\n", s,
			(unsigned long long)max, got, (unsigned long long)gv, want,
			(unsigned long long)wv);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 128)
		return 0;
	uint64_t max = maxes[data[0] % (sizeof(maxes) / sizeof(maxes[0]))];
	char s[129];
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';

	uint64_t g = 7, w = 7;
	int rg = nsb_parse_uint(s, max, &g), rw = ref_uint(s, max, &w);
	same(rg, g, rw, w, s, max);
	g = w = 7;
	rg = nsb_parse_size(s, max, &g);
	rw = ref_size(s, max, &w);
	same(rg, g, rw, w, s, max);
	g = w = 7;
	rg = nsb_parse_milli(s, max, &g);
	rw = ref_milli(s, max, &w);
	same(rg, g, rw, w, s, max);
	/* Out-parameters are filled only on success. */
	if (rg < 0)
		FUZZ_ASSERT(g == 7);
	return 0;
}
