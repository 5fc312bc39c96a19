// SPDX-License-Identifier: GPL-2.0-or-later
/* Option tables without a pointer, made into a struct optspec (optspec_row.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/optspec_row.h"

/* A table's field without its NUL: the compiler lets a string of exactly
 * the field's size in.  Never at run time once the tests made every row. */
_Noreturn static void table_error(const char *what)
{
	fprintf(stderr, "nsbox: internal error: option table %s\n", what);
	abort();
}

const char *nsb_row_str(const char *field, size_t size)
{
	if (field[size - 1] != '\0')
		table_error("string without its NUL");
	return field[0] ? field : NULL;
}

const char *const *nsb_row_list(const char *field, size_t size, const char **ptrs, size_t n,
				size_t *used)
{
	const char **list = ptrs + *used;
	size_t k = *used;

	if (field[size - 1] != '\0')
		table_error("list without its NUL");
	if (!field[0])
		return NULL;
	for (size_t off = 0; off < size && field[off]; off += strlen(field + off) + 1) {
		if (k + 1 >= n)
			table_error("list longer than its slots");
		ptrs[k++] = field + off;
	}
	ptrs[k++] = NULL;
	*used = k;
	return list;
}

#define STR(f)	   nsb_row_str(r->f, sizeof(r->f))
#define LIST_OF(f) nsb_row_list(r->f, sizeof(r->f), ptrs, NSB_OPTSPEC_ROW_PTRS, &used)

void nsb_optspec_make(const struct optspec_row *r, struct optspec *o, const char **ptrs)
{
	size_t used = 0;

	*o = (struct optspec){
		.arg = STR(arg),
		.optrest = STR(optrest),
		.digits = STR(digits),
		.code = STR(code),
		.codeflag = STR(codeflag),
		.file = STR(file),
		.stop = STR(stop),
		.flags = STR(flags),
		.strict = r->strict,
		.plus = r->plus,
		.unknown_value = r->unknown_value,
	};
	o->long_arg = LIST_OF(long_arg);
	o->long_optrest = LIST_OF(long_optrest);
	o->long_flag = LIST_OF(long_flag);
	o->long_code = LIST_OF(long_code);
	o->long_file = LIST_OF(long_file);
}
