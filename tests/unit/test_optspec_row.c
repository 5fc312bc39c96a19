// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Option tables without a pointer (gate/optspec_row.c): a row's strings and
 * lists as the option parser reads them, the table errors that abort, and
 * every row of the interpreters' table made and found by its name.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <signal.h>
#include <string.h>

#include "base/macro.h"
#include "gate/gate_interp_tab.h"
#include "gate/optspec_row.h"
#include "unit.h"

#define ALNUM "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

Test(optspec_row, a_list_is_its_entries_then_null)
{
	static const char field[32] = LIST("--a", "--bb", "-c");
	const char *ptrs[8];
	size_t used = 0;
	const char *const *l = nsb_row_list(field, sizeof(field), ptrs, ARRAY_SIZE(ptrs), &used);

	cr_assert(l == ptrs);
	expect_str(l[0], "--a");
	expect_str(l[1], "--bb");
	expect_str(l[2], "-c");
	cr_expect(l[3] == NULL);
	cr_expect(eq(sz, used, 4));
}

/* "ab\0cd\0e" and its NUL fill the 8 bytes: no empty entry ends it, the
 * field's end does. */
Test(optspec_row, a_list_that_fills_its_field_is_read_to_its_end)
{
	static const char field[8] = LIST("ab", "cd", "e");
	const char *ptrs[8];
	size_t used = 0;
	const char *const *l = nsb_row_list(field, sizeof(field), ptrs, ARRAY_SIZE(ptrs), &used);

	expect_str(l[0], "ab");
	expect_str(l[1], "cd");
	expect_str(l[2], "e");
	cr_expect(l[3] == NULL);
}

Test(optspec_row, empty_fields_are_null_as_in_an_optspec)
{
	static const struct optspec_row r = {.code = "c", .unknown_value = true};
	const char *ptrs[NSB_OPTSPEC_ROW_PTRS];
	struct optspec o;

	nsb_optspec_make(&r, &o, ptrs);
	expect_str(o.code, "c");
	cr_expect(o.arg == NULL && o.flags == NULL && o.stop == NULL);
	cr_expect(o.long_arg == NULL && o.long_flag == NULL && o.long_code == NULL);
	cr_expect(o.unknown_value && !o.strict && !o.plus);
}

/* C lets a string of exactly the field's size in, without its NUL. */
Test(optspec_row, a_string_without_its_nul_aborts, .signal = SIGABRT)
{
	static const char field[2] = "ab";

	nsb_row_str(field, sizeof(field));
}

Test(optspec_row, a_list_without_its_nul_aborts, .signal = SIGABRT)
{
	static const char field[4] = "ab\0c";
	const char *ptrs[4];
	size_t used = 0;

	nsb_row_list(field, sizeof(field), ptrs, ARRAY_SIZE(ptrs), &used);
}

Test(optspec_row, a_list_longer_than_its_slots_aborts, .signal = SIGABRT)
{
	static const char field[16] = LIST("a", "b", "c");
	const char *ptrs[3];
	size_t used = 0;

	nsb_row_list(field, sizeof(field), ptrs, ARRAY_SIZE(ptrs), &used);
}

/* Each row made (a table error would abort here) and found by its name;
 * long options start with '-', short letters are letters or digits. */
Test(optspec_row, every_interpreter_row_is_made_and_found_by_its_name)
{
	size_t n = nsb_gate_interp_count();

	cr_assert(gt(sz, n, 30));
	for (size_t i = 0; i < n; i++) {
		const struct interp *ip = nsb_gate_interp_at(i);
		cr_assert(ip && ip->name && ip->name[0], "row %zu", i);
		cr_expect(nsb_gate_interp_lookup(ip->name) == ip, "%s", ip->name);
		const char *const *lists[] = {ip->long_stdin,  ip->o.long_arg,	ip->o.long_optrest,
					      ip->o.long_flag, ip->o.long_code, ip->o.long_file};
		for (size_t k = 0; k < ARRAY_SIZE(lists); k++)
			for (const char *const *l = lists[k]; l && *l; l++) {
				bool ok = (*l)[0] == '-' && strlen(*l) > 1;
				cr_expect(ok, "%s: '%s'", ip->name, *l);
			}
		const char *shorts[] = {ip->stdin_flags, ip->o.arg,  ip->o.optrest, ip->o.digits,
					ip->o.code,	 ip->o.file, ip->o.stop,    ip->o.flags};
		for (size_t k = 0; k < ARRAY_SIZE(shorts); k++) {
			bool ok = !shorts[k] || strspn(shorts[k], ALNUM) == strlen(shorts[k]);
			cr_expect(ok, "%s: '%s'", ip->name, shorts[k]);
		}
	}
	cr_expect(nsb_gate_interp_at(n) == NULL);
	cr_expect(nsb_gate_interp_lookup("nosuch") == NULL);
}

/* The made rows read as the table wrote them (three of them, whole). */
Test(optspec_row, rows_read_as_written)
{
	const struct interp *py = nsb_gate_interp_lookup("python");
	const struct interp *node = nsb_gate_interp_lookup("node");
	const struct interp *php = nsb_gate_interp_lookup("php");

	cr_assert(py && node && php);
	expect_str(py->o.code, "c");
	expect_str(py->o.arg, "WXQ");
	expect_str(py->o.stop, "m");
	expect_str(py->stdin_flags, "i");
	cr_expect(py->long_stdin == NULL);
	expect_str(py->o.long_arg[0], "--check-hash-based-pycs");
	cr_expect(py->o.long_arg[1] == NULL);
	size_t k = 0;
	while (node->o.long_flag[k])
		k++;
	cr_expect(eq(sz, k, 12));
	expect_str(node->o.long_flag[11], "--abort-on-uncaught-exception");
	expect_str(node->long_stdin[0], "--interactive");
	expect_str(php->o.long_code[3], "--process-end");
	cr_expect(php->o.long_code[4] == NULL);
	expect_str(php->long_stdin[0], "--interactive");
}
