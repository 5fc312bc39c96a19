/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Option tables without a pointer (supervisor, pure).  nsbox is a PIE, and
 * each pointer in a constant table is a relocation that ld.so writes at
 * every start: the table's pages (RELRO) become a copy of their own in each
 * nsbox process, counted in every sandbox's memory.  The interpreters' and
 * the module runners' tables are written in this form instead, strings
 * inline and a list as its entries one after the other, so that they stay
 * in .rodata, one copy for all; a row becomes a struct optspec when a
 * command needs it (nsb_optspec_make).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "gate/gate_opts.h"

/* A list of up to 16 entries, each with its NUL: LIST("--a", "--b") is
 * "--a\0--b".  The field's zero bytes after it end the list. */
#define LIST(...)                                                                                 \
	NSB_LIST_PICK(__VA_ARGS__, NSB_L16, NSB_L15, NSB_L14, NSB_L13, NSB_L12, NSB_L11, NSB_L10, \
		      NSB_L9, NSB_L8, NSB_L7, NSB_L6, NSB_L5, NSB_L4, NSB_L3, NSB_L2, NSB_L1)     \
	(__VA_ARGS__)
#define NSB_LIST_PICK(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, m, \
		      ...)                                                                      \
	m
#define NSB_L1(a)	a
#define NSB_L2(a, ...)	a "\0" NSB_L1(__VA_ARGS__)
#define NSB_L3(a, ...)	a "\0" NSB_L2(__VA_ARGS__)
#define NSB_L4(a, ...)	a "\0" NSB_L3(__VA_ARGS__)
#define NSB_L5(a, ...)	a "\0" NSB_L4(__VA_ARGS__)
#define NSB_L6(a, ...)	a "\0" NSB_L5(__VA_ARGS__)
#define NSB_L7(a, ...)	a "\0" NSB_L6(__VA_ARGS__)
#define NSB_L8(a, ...)	a "\0" NSB_L7(__VA_ARGS__)
#define NSB_L9(a, ...)	a "\0" NSB_L8(__VA_ARGS__)
#define NSB_L10(a, ...) a "\0" NSB_L9(__VA_ARGS__)
#define NSB_L11(a, ...) a "\0" NSB_L10(__VA_ARGS__)
#define NSB_L12(a, ...) a "\0" NSB_L11(__VA_ARGS__)
#define NSB_L13(a, ...) a "\0" NSB_L12(__VA_ARGS__)
#define NSB_L14(a, ...) a "\0" NSB_L13(__VA_ARGS__)
#define NSB_L15(a, ...) a "\0" NSB_L14(__VA_ARGS__)
#define NSB_L16(a, ...) a "\0" NSB_L15(__VA_ARGS__)

/* struct optspec's fields for interpreters, inline (sizes fit the tables;
 * a string that fills its field leaves no NUL, and nsb_optspec_make stops
 * on it: the unit tests make every row). */
struct optspec_row {
	char arg[8], optrest[8], digits[4], code[8], codeflag[4], file[4], stop[4];
	char flags[64];
	char long_arg[256], long_optrest[32], long_flag[256], long_code[64], long_file[32];
	bool strict, plus, unknown_value;
};

/* Pointer slots a row's lists can need: an entry takes 2 bytes or more. */
#define NSB_OPTSPEC_ROW_PTRS                                \
	((sizeof(((struct optspec_row *)0)->long_arg) +     \
	  sizeof(((struct optspec_row *)0)->long_optrest) + \
	  sizeof(((struct optspec_row *)0)->long_flag) +    \
	  sizeof(((struct optspec_row *)0)->long_code) +    \
	  sizeof(((struct optspec_row *)0)->long_file)) /   \
		 2 +                                        \
	 5)

/* The string in field (size bytes), NULL when empty.  Aborts on a field
 * without its final NUL: a table error. */
const char *nsb_row_str(const char *field, size_t size);

/*
 * The list in field (size bytes, LIST form) as a NULL-terminated array in
 * ptrs[*used ...], pointing into field; NULL for an empty list.  Aborts on a
 * field without its final NUL or on too few slots (n): a table error.
 */
const char *const *nsb_row_list(const char *field, size_t size, const char **ptrs, size_t n,
				size_t *used);

/* *o from r: strings point into r (NULL where empty), lists into ptrs
 * (NSB_OPTSPEC_ROW_PTRS slots). */
void nsb_optspec_make(const struct optspec_row *r, struct optspec *o, const char **ptrs);
