// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seccomp profile parser, the value grammar (pure, supervisor): actions
 * ("errno EPERM"), conditions ("arg1 & 0xf == SOCK_RAW"), numbers and named
 * constants.  nsbox-profile(5) describes them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "base/errname.h"
#include "seccomp/profile_names.h"
#include "seccomp/profile_parser.h"
#include "base/util.h"

int nsb_action_format(const struct nsb_action *a, char *buf, size_t size)
{
	const char *s = NULL;
	int n;

	switch (a->kind) {
	case NSB_ACTION_ALLOW:
		s = "allow";
		break;
	case NSB_ACTION_KILL:
		s = "kill";
		break;
	case NSB_ACTION_LOG:
		s = "log";
		break;
	case NSB_ACTION_TRAP:
		s = "trap";
		break;
	case NSB_ACTION_ERRNO:
		s = nsb_errno_name_for(a->errno_value, NSB_ERRNAME_PROFILE);
		n = s ? nsb_format(buf, size, "errno %s%s", s, a->quiet ? " quiet" : "")
		      : nsb_format(buf, size, "errno %d%s", a->errno_value,
				   a->quiet ? " quiet" : "");
		return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
	}
	if (!s)
		return -EINVAL;
	n = nsb_format(buf, size, "%s", s);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* ---- values ------------------------------------------------------------ */

/* One term: decimal, 0x-hex, or a named constant.  Octal is not accepted: a
 * leading zero is far more likely a typo than a wish for base 8. */
static int parse_term(struct nsb_profile_parser *ps, const struct nsb_origin *o, const char *s,
		      size_t len, uint64_t *ret)
{
	char buf[NSB_PROFILE_MAX_LINE + 1];
	uint64_t v = 0;

	memcpy(buf, s, len);
	buf[len] = '\0';
	if (len == 0)
		return nsb_profile_err(ps, o, "empty value");
	if (nsb_isdigit((unsigned char)buf[0])) {
		unsigned base = 10;
		const char *d = buf;
		if (len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
			base = 16;
			d += 2;
		} else if (len > 1 && buf[0] == '0') {
			return nsb_profile_err(
				ps, o, "number '%s' has a leading zero (octal is not accepted)",
				buf);
		}
		for (; *d; d++) {
			unsigned digit;
			if (nsb_isdigit((unsigned char)*d))
				digit = (unsigned)(*d - '0');
			else if (base == 16 && nsb_isxdigit((unsigned char)*d))
				digit = (unsigned)(nsb_tolower((unsigned char)*d) - 'a' + 10);
			else
				return nsb_profile_err(ps, o, "invalid number '%s'", buf);
			if (v > (UINT64_MAX - digit) / base)
				return nsb_profile_err(ps, o, "number '%s' does not fit in 64 bits",
						       buf);
			v = v * base + digit;
		}
		*ret = v;
		return 0;
	}
	if (nsb_profile_constant(buf, ret))
		return 0;
	return nsb_profile_err(ps, o, "unknown constant '%s'", buf);
}

/* VALUE := TERM ('|' TERM)* written without spaces. */
static int parse_value(struct nsb_profile_parser *ps, const struct nsb_origin *line,
		       const struct nsb_profile_token *t, uint64_t *ret)
{
	uint64_t v = 0;
	const char *s = t->s;

	for (;;) {
		const char *bar = strchr(s, '|');
		size_t len = bar ? (size_t)(bar - s) : strlen(s);
		struct nsb_origin o = {line->file, line->line, t->col + (unsigned)(s - t->s)};
		uint64_t term = 0;
		int r = parse_term(ps, &o, s, len, &term);
		if (r < 0)
			return r;
		v |= term;
		if (!bar)
			break;
		s = bar + 1;
	}
	*ret = v;
	return 0;
}

/* ---- actions and conditions ---------------------------------------------- */

int nsb_profile_parse_action(struct nsb_profile_parser *ps, const struct nsb_origin *line,
			     struct nsb_profile_token *toks, size_t n, size_t i,
			     const struct nsb_profile_token *after, struct nsb_action *ret)
{
	struct nsb_origin o;

	if (i >= n) {
		o = nsb_profile_at(line, after);
		o.col += (unsigned)strlen(after->s) + 1;
		return nsb_profile_err(ps, &o, "missing action after '%s'", after->s);
	}
	o = nsb_profile_at(line, &toks[i]);
	const char *s = toks[i].s;
	if (strcmp(s, "allow") == 0)
		*ret = (struct nsb_action){NSB_ACTION_ALLOW, 0};
	else if (strcmp(s, "kill") == 0)
		*ret = (struct nsb_action){NSB_ACTION_KILL, 0};
	else if (strcmp(s, "log") == 0)
		*ret = (struct nsb_action){NSB_ACTION_LOG, 0};
	else if (strcmp(s, "trap") == 0)
		*ret = (struct nsb_action){NSB_ACTION_TRAP, 0};
	else if (strcmp(s, "errno") == 0) {
		if (i + 1 >= n) {
			o.col += 6;
			return nsb_profile_err(ps, &o, "'errno' needs an errno name or number");
		}
		struct nsb_origin vo = nsb_profile_at(line, &toks[i + 1]);
		const char *v = toks[i + 1].s;
		uint64_t num = 0;
		bool found = false;
		if (nsb_isdigit((unsigned char)v[0])) {
			char *end;
			errno = 0;
			unsigned long long u = nsb_strtoull10(v, &end);
			/* The kernel's SECCOMP_RET_DATA carries 16 bits, but only
			 * 1..4095 come back as -1/errno from a libc wrapper. */
			if (*end || errno || u > 4095 || (v[0] == '0' && v[1]))
				return nsb_profile_err(
					ps, &vo, "errno number '%s' is not a decimal in 0..4095",
					v);
			num = u;
			found = true;
		} else {
			int value = 0;
			found = nsb_errno_by_name(v, NSB_ERRNAME_PROFILE, &value);
			num = (uint64_t)value;
		}
		if (!found)
			return nsb_profile_err(ps, &vo, "unknown errno name '%s'", v);
		*ret = (struct nsb_action){NSB_ACTION_ERRNO, (int)num};
		/* The `quiet` modifier: an expected refusal, answered in the
		 * kernel and left out of the record's violations. */
		if (i + 2 < n && strcmp(toks[i + 2].s, "quiet") == 0) {
			ret->quiet = true;
			return 3;
		}
		return 2;
	} else
		return nsb_profile_err(
			ps, &o, "unknown action '%s' (expected allow, errno, kill, log or trap)",
			s);
	return 1;
}

int nsb_profile_parse_cond(struct nsb_profile_parser *ps, const struct nsb_origin *line,
			   struct nsb_profile_token *t, size_t n, size_t i, struct nsb_cond *ret)
{
	struct nsb_origin o = nsb_profile_at(line, &t[i]);
	const char *a = t[i].s;
	struct nsb_cond c = {0};

	if (strncmp(a, "arg", 3) != 0 || a[3] < '0' || a[3] > '5' || a[4])
		return nsb_profile_err(ps, &o, "expected arg0 .. arg5, got '%s'", a);
	c.arg = (unsigned)(a[3] - '0');
	if (i + 1 >= n) {
		o.col += (unsigned)strlen(a) + 1;
		return nsb_profile_err(ps, &o, "missing operator after '%s'", a);
	}
	size_t k = i + 1;
	const char *op = t[k].s;
	o = nsb_profile_at(line, &t[k]);
	if (strcmp(op, "&") == 0) {
		if (k + 1 >= n) {
			o.col += 2;
			return nsb_profile_err(ps, &o, "missing mask after '&'");
		}
		int r = parse_value(ps, line, &t[k + 1], &c.mask);
		if (r < 0)
			return r;
		k += 2;
		if (k >= n) {
			o = nsb_profile_at(line, &t[k - 1]);
			o.col += (unsigned)strlen(t[k - 1].s) + 1;
			return nsb_profile_err(ps, &o, "missing '==' after the mask");
		}
		o = nsb_profile_at(line, &t[k]);
		if (strcmp(t[k].s, "==") != 0)
			return nsb_profile_err(ps, &o, "only '==' can follow a mask, got '%s'",
					       t[k].s);
		c.op = NSB_CMP_MASKED_EQ;
	} else if (strcmp(op, "==") == 0) {
		c.op = NSB_CMP_EQ;
	} else if (strcmp(op, "!=") == 0) {
		c.op = NSB_CMP_NE;
	} else if (strcmp(op, "<") == 0) {
		c.op = NSB_CMP_LT;
	} else if (strcmp(op, "<=") == 0) {
		c.op = NSB_CMP_LE;
	} else if (strcmp(op, ">") == 0) {
		c.op = NSB_CMP_GT;
	} else if (strcmp(op, ">=") == 0) {
		c.op = NSB_CMP_GE;
	} else {
		return nsb_profile_err(
			ps, &o,
			"unknown operator '%s' (expected ==, !=, <, <=, >, >= or '& MASK ==')", op);
	}
	if (k + 1 >= n) {
		o.col += (unsigned)strlen(t[k].s) + 1;
		return nsb_profile_err(ps, &o, "missing value after '%s'", t[k].s);
	}
	int r = parse_value(ps, line, &t[k + 1], &c.value);
	if (r < 0)
		return r;
	if (c.op == NSB_CMP_MASKED_EQ && (c.value & ~c.mask)) {
		o = nsb_profile_at(line, &t[k + 1]);
		return nsb_profile_err(ps, &o,
				       "value 0x%" PRIx64 " has bits outside the mask 0x%" PRIx64
				       ": the condition can never match",
				       c.value, c.mask);
	}
	*ret = c;
	return (int)(k + 2 - i);
}
