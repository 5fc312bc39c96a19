// SPDX-License-Identifier: GPL-2.0-or-later
/* fmt: the snprintf family without stdio (fmt.h). */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "base/fmt.h"

/* Where the output goes: bytes past size - 1 are counted, not stored. */
struct sink {
	char *buf;
	size_t size, len;
};

/* One conversion's specification. */
struct spec {
	bool left, zero, plus, space, alt;
	int width, prec; /* prec -1: none given */
	int len;	 /* 'H' hh, 'h', 'l', 'L' ll, 'z', 'j', 't', 0 */
	char conv;
};

static void put(struct sink *s, char c)
{
	if (s->len + 1 < s->size)
		s->buf[s->len] = c;
	s->len++;
}

static void put_n(struct sink *s, const char *p, size_t n)
{
	if (s->len < s->size) {
		size_t room = s->size - 1 - s->len;

		memcpy(s->buf + s->len, p, n < room ? n : room);
	}
	s->len += n;
}

static void pad(struct sink *s, char c, int n)
{
	while (n-- > 0)
		put(s, c);
}

/* A text @n bytes long in the field: spaces before it, or after with '-'. */
static void field(struct sink *s, const struct spec *sp, const char *p, size_t n)
{
	int fill = sp->width > (int)n ? sp->width - (int)n : 0;

	if (!sp->left)
		pad(s, ' ', fill);
	put_n(s, p, n);
	if (sp->left)
		pad(s, ' ', fill);
}

/*
 * An integer: its sign or prefix, the zeros the precision (or the '0' flag
 * with a width) asks for, its digits, and the field's padding.
 */
static void integer(struct sink *s, const struct spec *sp, uintmax_t v, bool neg)
{
	char digits[sizeof(uintmax_t) * 3 + 1];
	const char *hex = sp->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned base = sp->conv == 'o'						  ? 8
			: (sp->conv == 'x' || sp->conv == 'X' || sp->conv == 'p') ? 16
										  : 10;
	char pre[3]; /* a sign, or 0x */
	int n = 0, npre = 0, zeros, fill;

	for (uintmax_t u = v; u; u /= base)
		digits[sizeof(digits) - 1 - n++] = hex[u % base];
	if (v == 0 && sp->prec != 0)
		digits[sizeof(digits) - 1 - n++] = '0';
	if (neg || sp->plus || sp->space)
		pre[npre++] = (char)(neg ? '-' : sp->plus ? '+' : ' ');
	if (sp->alt && base == 16 && (v || sp->conv == 'p')) {
		pre[npre++] = '0';
		pre[npre++] = sp->conv == 'X' ? 'X' : 'x';
	}
	zeros = sp->prec > n ? sp->prec - n : 0;
	if (sp->alt && base == 8 && zeros == 0 && (n == 0 || digits[sizeof(digits) - n] != '0'))
		zeros = 1;
	fill = sp->width - npre - zeros - n;
	if (fill > 0 && sp->zero && !sp->left && sp->prec < 0) {
		zeros += fill;
		fill = 0;
	}
	if (!sp->left)
		pad(s, ' ', fill);
	put_n(s, pre, (size_t)npre);
	pad(s, '0', zeros);
	put_n(s, digits + sizeof(digits) - n, (size_t)n);
	if (sp->left)
		pad(s, ' ', fill);
}

static intmax_t arg_signed(const struct spec *sp, va_list *ap)
{
	switch (sp->len) {
	case 'H':
		return (signed char)va_arg(*ap, int);
	case 'h':
		return (short)va_arg(*ap, int);
	case 'l':
		return va_arg(*ap, long);
	case 'L':
		return va_arg(*ap, long long);
	case 'z':
		return va_arg(*ap, ssize_t);
	case 'j':
		return va_arg(*ap, intmax_t);
	case 't':
		return va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, int);
	}
}

static uintmax_t arg_unsigned(const struct spec *sp, va_list *ap)
{
	switch (sp->len) {
	case 'H':
		return (unsigned char)va_arg(*ap, unsigned);
	case 'h':
		return (unsigned short)va_arg(*ap, unsigned);
	case 'l':
		return va_arg(*ap, unsigned long);
	case 'L':
		return va_arg(*ap, unsigned long long);
	case 'z':
		return va_arg(*ap, size_t);
	case 'j':
		return va_arg(*ap, uintmax_t);
	case 't':
		return (uintmax_t)va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, unsigned);
	}
}

/* Flags, width, precision and length after the '%'; *fmt moves past them. */
static void parse_spec(const char **fmt, struct spec *sp, va_list *ap)
{
	const char *f = *fmt;

	*sp = (struct spec){.prec = -1};
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else if (*f == '+')
			sp->plus = true;
		else if (*f == ' ')
			sp->space = true;
		else if (*f == '#')
			sp->alt = true;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->left = true;
			sp->width = sp->width == INT_MIN ? INT_MAX : -sp->width;
		}
		f++;
	}
	for (; *f >= '0' && *f <= '9'; f++)
		sp->width = sp->width > (INT_MAX - 9) / 10 ? INT_MAX : sp->width * 10 + (*f - '0');
	if (*f == '.') {
		f++;
		sp->prec = 0;
		if (*f == '*') {
			sp->prec = va_arg(*ap, int);
			if (sp->prec < 0)
				sp->prec = -1;
			f++;
		}
		for (; *f >= '0' && *f <= '9'; f++)
			sp->prec = sp->prec > (INT_MAX - 9) / 10 ? INT_MAX
								 : sp->prec * 10 + (*f - '0');
	}
	if (*f == 'h' || *f == 'l') {
		sp->len = (f[1] == *f) ? (*f == 'h' ? 'H' : 'L') : (unsigned char)*f;
		f += (f[1] == *f) ? 2 : 1;
	} else if (*f == 'z' || *f == 'j' || *f == 't') {
		sp->len = (unsigned char)*f++;
	}
	sp->conv = *f;
	*fmt = *f ? f + 1 : f;
}

/* One conversion; false for a character outside the set (copied as is). */
static bool convert(struct sink *s, struct spec *sp, va_list *ap)
{
	const char *str;
	char c;

	switch (sp->conv) {
	case 'd':
	case 'i': {
		intmax_t v = arg_signed(sp, ap);

		integer(s, sp, v < 0 ? -(uintmax_t)v : (uintmax_t)v, v < 0);
		return true;
	}
	case 'u':
	case 'o':
	case 'x':
	case 'X':
		sp->plus = sp->space = false;
		integer(s, sp, arg_unsigned(sp, ap), false);
		return true;
	case 'p': {
		void *p = va_arg(*ap, void *);

		if (!p) {
			field(s, sp, "(nil)", 5);
			return true;
		}
		sp->alt = true;
		sp->prec = -1;
		sp->plus = sp->space = false;
		integer(s, sp, (uintptr_t)p, false);
		return true;
	}
	case 'c':
		c = (char)va_arg(*ap, int);
		field(s, sp, &c, 1);
		return true;
	case 's':
		str = va_arg(*ap, const char *);
		if (!str)
			str = sp->prec < 0 || sp->prec >= 6 ? "(null)" : "";
		field(s, sp, str, sp->prec < 0 ? strlen(str) : strnlen(str, (size_t)sp->prec));
		return true;
	case '%':
		put(s, '%');
		return true;
	default:
		return false;
	}
}

int nsb_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink s = {.buf = buf, .size = size};
	va_list aq;

	va_copy(aq, ap);
	while (*fmt) {
		const char *pct = strchr(fmt, '%'), *start;
		struct spec sp;

		if (!pct) {
			put_n(&s, fmt, strlen(fmt));
			break;
		}
		put_n(&s, fmt, (size_t)(pct - fmt));
		start = pct;
		fmt = pct + 1;
		parse_spec(&fmt, &sp, &aq);
		if (!convert(&s, &sp, &aq))
			put_n(&s, start, (size_t)(fmt - start));
	}
	va_end(aq);
	if (size)
		buf[s.len < size ? s.len : size - 1] = '\0';
	if (s.len > INT_MAX) {
		errno = EOVERFLOW;
		return -1;
	}
	return (int)s.len;
}

int nsb_format_chk(char *buf, size_t size, size_t objsize, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (size > objsize)
		abort();
	va_start(ap, fmt);
	n = nsb_vformat(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int nsb_aformat(char **ret, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = nsb_vformat(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	p = malloc((size_t)n + 1);
	if (!p)
		return -1;
	va_start(ap, fmt);
	nsb_vformat(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*ret = p;
	return n;
}
