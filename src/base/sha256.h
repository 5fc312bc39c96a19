/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SHA-256 (FIPS 180-4), small and allocation-free.  Used to name a compiled
 * seccomp program in the record, not for anything an attacker chooses.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define NSB_SHA256_LEN 32
#define NSB_SHA256_HEX (2 * NSB_SHA256_LEN + 1)

struct nsb_sha256 {
	uint32_t h[8];
	uint64_t total; /* bytes hashed so far */
	uint8_t block[64];
	size_t used; /* bytes in block */
};

void nsb_sha256_init(struct nsb_sha256 *s);
void nsb_sha256_update(struct nsb_sha256 *s, const void *data, size_t len);
void nsb_sha256_final(struct nsb_sha256 *s, uint8_t ret_digest[NSB_SHA256_LEN]);

/* One-shot: lower-case hex digest of data into ret_hex (NSB_SHA256_HEX bytes). */
void nsb_sha256_hex(const void *data, size_t len, char ret_hex[NSB_SHA256_HEX]);
