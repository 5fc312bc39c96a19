/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Formatting into a buffer without stdio: the C library's snprintf family
 * for the conversions nsbox's own format strings use (d i u o x X c s p %,
 * the flags - 0 + space #, a width and a precision, either of them '*',
 * and the lengths hh h l ll z j t), with the same results and the same
 * return value.  No floating point, no %n, no positional arguments: the
 * format attribute lets the compiler check every call, and a conversion
 * outside this set is copied out as it is written.
 *
 * Why not the C library's: vsnprintf drags in glibc's whole stdio engine
 * (vfprintf, the wide-character paths, _itoa): three 64 KiB windows of
 * libc's text that the kernel maps around the first fault in each, in
 * every launch, in the supervisor and in init.  This is a few hundred
 * bytes of nsbox's own text next to its other launch-path code.
 */
#pragma once

#include <stdarg.h>
#include <stddef.h>

#include "base/macro.h"

/* As vsnprintf: writes at most @size bytes with the NUL, returns the length
 * the whole output would have, or -1 (EOVERFLOW) past INT_MAX. */
int nsb_vformat(char *buf, size_t size, const char *fmt, va_list ap) _printf_(3, 0);

/* As snprintf.  Called through the macro below, which, like
 * _FORTIFY_SOURCE's __snprintf_chk, hands over the size the compiler knows
 * the buffer has ((size_t)-1: unknown): a @size larger than that aborts. */
int nsb_format_chk(char *buf, size_t size, size_t objsize, const char *fmt, ...) _printf_(4, 5);
#define nsb_format(buf, size, ...) \
	nsb_format_chk((buf), (size), __builtin_dynamic_object_size((buf), 1), __VA_ARGS__)

/* As asprintf: *ret is a malloc'd string, or the return is -1 (ENOMEM or
 * EOVERFLOW) and *ret is left alone. */
int nsb_aformat(char **ret, const char *fmt, ...) _printf_(2, 3);
