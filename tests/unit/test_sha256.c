// SPDX-License-Identifier: GPL-2.0-or-later
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <string.h>

#include "base/sha256.h"

static void check(const char *msg, size_t len, const char *want)
{
	char hex[NSB_SHA256_HEX];
	nsb_sha256_hex(msg, len, hex);
	char w[NSB_SHA256_HEX];
	snprintf(w, sizeof(w), "%s", want);
	cr_assert(eq(str, hex, w));
}

/* Vectors from FIPS 180-2 appendix B and the NIST example values. */
Test(sha256, empty_string)
{
	check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

Test(sha256, abc)
{
	check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

Test(sha256, two_block_message)
{
	const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	check(m, strlen(m), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

Test(sha256, million_a_in_odd_chunks)
{
	struct nsb_sha256 s;
	char chunk[997], hex[NSB_SHA256_HEX];
	uint8_t d[NSB_SHA256_LEN];
	size_t left = 1000000;

	memset(chunk, 'a', sizeof(chunk));
	nsb_sha256_init(&s);
	while (left) {
		size_t n = left < sizeof(chunk) ? left : sizeof(chunk);
		nsb_sha256_update(&s, chunk, n);
		left -= n;
	}
	nsb_sha256_final(&s, d);
	for (int i = 0; i < NSB_SHA256_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	char want[] = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
	cr_assert(eq(str, hex, want));
}

/* Lengths around the padding boundary, checked against sha256sum. */
Test(sha256, padding_boundaries)
{
	char m[64];
	memset(m, 'x', sizeof(m));
	check(m, 55, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072");
	check(m, 56, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e");
	check(m, 63, "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2");
	check(m, 64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c");
}
