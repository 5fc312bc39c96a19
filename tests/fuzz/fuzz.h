/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the libFuzzer targets (tests/fuzz/fuzz_*.c). */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failed invariant is a crash: libFuzzer saves the input that caused it. */
#define FUZZ_ASSERT(cond)                                                                    \
	do {                                                                                 \
		if (!(cond)) {                                                               \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                      \
			abort();                                                             \
		}                                                                            \
	} while (0)

/*
 * Split data on NUL bytes into a NULL-terminated argv after the given
 * leading entries.  The copy (*ret_buf) and the array (*ret_argv) are
 * malloc'd; returns argc.  At most max_args entries are made so that a
 * small input cannot ask for a huge array.
 */
static inline int fuzz_split_argv(const uint8_t *data, size_t size, const char *const *lead,
				  int n_lead, int max_args, char **ret_buf, char ***ret_argv)
{
	char *buf = malloc(size + 1);
	char **argv = calloc((size_t)max_args + (size_t)n_lead + 1, sizeof(char *));
	int argc = 0;

	if (!buf || !argv)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (int i = 0; i < n_lead; i++)
		argv[argc++] = (char *)(uintptr_t)lead[i];
	for (size_t off = 0; off < size && argc < n_lead + max_args;) {
		argv[argc++] = buf + off;
		off += strlen(buf + off) + 1;
	}
	argv[argc] = NULL;
	*ret_buf = buf;
	*ret_argv = argv;
	return argc;
}
