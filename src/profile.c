// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seccomp profile parser.  The grammar is in nsbox-profile(5); this file keeps
 * the same order: reading a file, splitting lines into tokens, the directives
 * (default, badarch, include, group ... end), rules and their conditions, and
 * the whole-profile checks that run once everything is read.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <linux/netlink.h>
#include <seccomp.h>

#include "profile.h"

#define STAGE "profile"

/* ---- tables ---------------------------------------------------------- */

struct named_value {
	const char *name;
	uint64_t value;
};

#define NV(x)                     \
	{                         \
#x, (uint64_t)(x) \
	}

/* errno names an `errno` action accepts; the first name of a value is the one
 * nsb_action_format() prints. */
static const struct named_value errno_names[] = {
	NV(EPERM),	NV(ENOENT),	 NV(ESRCH),	   NV(EINTR),		NV(EIO),
	NV(ENXIO),	NV(E2BIG),	 NV(ENOEXEC),	   NV(EBADF),		NV(ECHILD),
	NV(EAGAIN),	NV(ENOMEM),	 NV(EACCES),	   NV(EFAULT),		NV(EBUSY),
	NV(EEXIST),	NV(EXDEV),	 NV(ENODEV),	   NV(ENOTDIR),		NV(EISDIR),
	NV(EINVAL),	NV(ENFILE),	 NV(EMFILE),	   NV(ENOTTY),		NV(ETXTBSY),
	NV(EFBIG),	NV(ENOSPC),	 NV(ESPIPE),	   NV(EROFS),		NV(EMLINK),
	NV(EPIPE),	NV(ERANGE),	 NV(ENAMETOOLONG), NV(ENOSYS),		NV(ENOTEMPTY),
	NV(ELOOP),	NV(ENOTSOCK),	 NV(ENOPROTOOPT),  NV(EPROTONOSUPPORT), NV(ESOCKTNOSUPPORT),
	NV(EOPNOTSUPP), NV(ENOTSUP),	 NV(EPFNOSUPPORT), NV(EAFNOSUPPORT),	NV(EADDRNOTAVAIL),
	NV(ENETDOWN),	NV(ENETUNREACH), NV(ECONNREFUSED),
};

/* Named constants for condition values.  They come from this host's headers,
 * which is right because filters are only ever built for the native arch. */
static const struct named_value constants[] = {
	/* clone(2) and unshare(2) namespace flags */
	NV(CLONE_NEWNS),
	NV(CLONE_NEWCGROUP),
	NV(CLONE_NEWUTS),
	NV(CLONE_NEWIPC),
	NV(CLONE_NEWUSER),
	NV(CLONE_NEWPID),
	NV(CLONE_NEWNET),
	NV(CLONE_NEWTIME),
	NV(CLONE_VM),
	NV(CLONE_FS),
	NV(CLONE_FILES),
	NV(CLONE_SIGHAND),
	NV(CLONE_THREAD),
	/* socket(2) families */
	NV(AF_UNSPEC),
	NV(AF_UNIX),
	NV(AF_LOCAL),
	NV(AF_INET),
	NV(AF_INET6),
	NV(AF_NETLINK),
	NV(AF_PACKET),
	NV(AF_VSOCK),
	NV(AF_BLUETOOTH),
	NV(AF_KEY),
	NV(AF_AX25),
	NV(AF_IPX),
	NV(AF_APPLETALK),
	NV(AF_NETROM),
	NV(AF_BRIDGE),
	NV(AF_ATMPVC),
	NV(AF_X25),
	NV(AF_ROSE),
	NV(AF_DECnet),
	NV(AF_NETBEUI),
	NV(AF_SECURITY),
	NV(AF_ATMSVC),
	NV(AF_RDS),
	NV(AF_SNA),
	NV(AF_IRDA),
	NV(AF_PPPOX),
	NV(AF_WANPIPE),
	NV(AF_LLC),
	NV(AF_IB),
	NV(AF_MPLS),
	NV(AF_CAN),
	NV(AF_TIPC),
	NV(AF_IUCV),
	NV(AF_RXRPC),
	NV(AF_ISDN),
	NV(AF_PHONET),
	NV(AF_IEEE802154),
	NV(AF_CAIF),
	NV(AF_ALG),
	NV(AF_NFC),
	NV(AF_KCM),
	NV(AF_QIPCRTR),
	NV(AF_SMC),
	NV(AF_XDP),
	NV(AF_MCTP),
	/* netlink protocols */
	NV(NETLINK_ROUTE),
	NV(NETLINK_SOCK_DIAG),
	NV(NETLINK_AUDIT),
	NV(NETLINK_KOBJECT_UEVENT),
	/* socket(2) types; the type argument also carries SOCK_NONBLOCK and
	 * SOCK_CLOEXEC above the kernel's SOCK_TYPE_MASK (0xf) */
	NV(SOCK_STREAM),
	NV(SOCK_DGRAM),
	NV(SOCK_RAW),
	NV(SOCK_SEQPACKET),
	NV(SOCK_PACKET),
	NV(SOCK_NONBLOCK),
	NV(SOCK_CLOEXEC),
	/* file modes and open(2) flags */
	NV(S_ISUID),
	NV(S_ISGID),
	NV(S_ISVTX),
	NV(O_CREAT),
	NV(O_DIRECTORY),
	/* fcntl(2) commands */
	NV(F_SETLEASE),
	NV(F_GETLEASE),
	NV(F_NOTIFY),
	/* ioctl(2) requests */
	NV(TIOCSTI),
	NV(TIOCLINUX),
	NV(TCGETS),
	NV(TCSETS),
	NV(TCSETSW),
	NV(TCSETSF),
	NV(TCFLSH),
	NV(TCSBRK),
	NV(TCXONC),
	NV(TIOCGWINSZ),
	NV(TIOCSWINSZ),
	NV(TIOCGPGRP),
	NV(TIOCSPGRP),
	NV(TIOCGSID),
	NV(TIOCOUTQ),
	NV(TIOCGPTN),
	NV(TIOCSPTLCK),
	NV(TIOCGPTPEER),
	NV(TIOCSCTTY),
	NV(FIONREAD),
	NV(FIONBIO),
	NV(FIOCLEX),
	NV(FIONCLEX),
	NV(FIOASYNC),
	NV(FICLONE),
	NV(FICLONERANGE),
	NV(FS_IOC_GETFLAGS),
	/* personality(2) */
	NV(PER_LINUX),
	NV(PER_LINUX32),
	NV(ADDR_NO_RANDOMIZE),
	NV(READ_IMPLIES_EXEC),
	NV(MMAP_PAGE_ZERO),
	NV(ADDR_COMPAT_LAYOUT),
	NV(UNAME26),
};

/* Other architectures, to tell "not on this architecture" from "unknown". */
static const struct {
	uint32_t token;
	const char *name;
} arches[] = {
	{SCMP_ARCH_X86_64, "x86_64"},	{SCMP_ARCH_X86, "i386"},
	{SCMP_ARCH_X32, "x32"},		{SCMP_ARCH_AARCH64, "aarch64"},
	{SCMP_ARCH_ARM, "arm"},		{SCMP_ARCH_PPC64LE, "ppc64le"},
	{SCMP_ARCH_S390X, "s390x"},	{SCMP_ARCH_MIPS64, "mips64"},
	{SCMP_ARCH_RISCV64, "riscv64"},
};

static const char *arch_name(uint32_t token)
{
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i].token == token)
			return arches[i].name;
	return "this architecture";
}

/* ---- parser state ------------------------------------------------------ */

struct token {
	char *s;
	unsigned col;
};

struct parser {
	struct nsb_profile *p;
	nsb_profile_opener opener;
	void *userdata;
	struct nsb_error *e;
	const char *stack[NSB_PROFILE_MAX_DEPTH + 1]; /* files being read, outermost first */
	unsigned depth;
	uint32_t arch;

	/* the group block being read, if any */
	struct nsb_group *open_group;
	const char *open_group_file;
};

_printf_(3, 4) static int perr(struct parser *ps, const struct nsb_origin *o, const char *fmt, ...)
{
	char msg[NSB_ERR_MESSAGE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return nsb_error_setx(ps->e, EINVAL, STAGE, "%s:%u:%u: %s", o->file, o->line, o->col, msg);
}

static struct nsb_origin at(const struct nsb_origin *line, const struct token *t)
{
	return (struct nsb_origin){line->file, line->line, t->col};
}

static bool action_eq(const struct nsb_action *a, const struct nsb_action *b)
{
	return a->kind == b->kind &&
	       (a->kind != NSB_ACTION_ERRNO || a->errno_value == b->errno_value);
}

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
		for (size_t i = 0; i < ARRAY_SIZE(errno_names); i++)
			if (errno_names[i].value == (uint64_t)a->errno_value) {
				s = errno_names[i].name;
				break;
			}
		n = s ? snprintf(buf, size, "errno %s", s)
		      : snprintf(buf, size, "errno %d", a->errno_value);
		return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
	}
	if (!s)
		return -EINVAL;
	n = snprintf(buf, size, "%s", s);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* ---- values ------------------------------------------------------------ */

/* One term: decimal, 0x-hex, or a named constant.  Octal is not accepted: a
 * leading zero is far more likely a typo than a wish for base 8. */
static int parse_term(struct parser *ps, const struct nsb_origin *o, const char *s, size_t len,
		      uint64_t *ret)
{
	char buf[NSB_PROFILE_MAX_LINE + 1];
	uint64_t v = 0;

	memcpy(buf, s, len);
	buf[len] = '\0';
	if (len == 0)
		return perr(ps, o, "empty value");
	if (isdigit((unsigned char)buf[0])) {
		unsigned base = 10;
		const char *d = buf;
		if (len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
			base = 16;
			d += 2;
		} else if (len > 1 && buf[0] == '0') {
			return perr(ps, o, "number '%s' has a leading zero (octal is not accepted)",
				    buf);
		}
		for (; *d; d++) {
			unsigned digit;
			if (isdigit((unsigned char)*d))
				digit = (unsigned)(*d - '0');
			else if (base == 16 && isxdigit((unsigned char)*d))
				digit = (unsigned)(tolower((unsigned char)*d) - 'a' + 10);
			else
				return perr(ps, o, "invalid number '%s'", buf);
			if (v > (UINT64_MAX - digit) / base)
				return perr(ps, o, "number '%s' does not fit in 64 bits", buf);
			v = v * base + digit;
		}
		*ret = v;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(constants); i++)
		if (strcmp(constants[i].name, buf) == 0) {
			*ret = constants[i].value;
			return 0;
		}
	return perr(ps, o, "unknown constant '%s'", buf);
}

/* VALUE := TERM ('|' TERM)* written without spaces. */
static int parse_value(struct parser *ps, const struct nsb_origin *line, const struct token *t,
		       uint64_t *ret)
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

/* ---- actions ----------------------------------------------------------- */

/* Parse an action starting at toks[i]; returns the number of tokens used. */
static int parse_action(struct parser *ps, const struct nsb_origin *line, struct token *toks,
			size_t n, size_t i, const struct token *after, struct nsb_action *ret)
{
	struct nsb_origin o;

	if (i >= n) {
		o = at(line, after);
		o.col += (unsigned)strlen(after->s) + 1;
		return perr(ps, &o, "missing action after '%s'", after->s);
	}
	o = at(line, &toks[i]);
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
			return perr(ps, &o, "'errno' needs an errno name or number");
		}
		struct nsb_origin vo = at(line, &toks[i + 1]);
		const char *v = toks[i + 1].s;
		uint64_t num = 0;
		bool found = false;
		if (isdigit((unsigned char)v[0])) {
			char *end;
			errno = 0;
			unsigned long long u = strtoull(v, &end, 10);
			/* The kernel's SECCOMP_RET_DATA carries 16 bits, but only
			 * 1..4095 come back as -1/errno from a libc wrapper. */
			if (*end || errno || u > 4095 || (v[0] == '0' && v[1]))
				return perr(ps, &vo,
					    "errno number '%s' is not a decimal in 0..4095", v);
			num = u;
			found = true;
		} else {
			for (size_t k = 0; k < ARRAY_SIZE(errno_names); k++)
				if (strcmp(errno_names[k].name, v) == 0) {
					num = errno_names[k].value;
					found = true;
					break;
				}
		}
		if (!found)
			return perr(ps, &vo, "unknown errno name '%s'", v);
		*ret = (struct nsb_action){NSB_ACTION_ERRNO, (int)num};
		return 2;
	} else
		return perr(ps, &o,
			    "unknown action '%s' (expected allow, errno, kill, log or trap)", s);
	return 1;
}

/* ---- names ------------------------------------------------------------- */

static bool valid_name(const char *s, bool group)
{
	size_t len = strlen(s);
	if (group) {
		if (s[0] != '@')
			return false;
		s++;
		len--;
	}
	/* Syscall names may start with '_' (_sysctl); group names may not. */
	if (len == 0 || len >= NSB_PROFILE_MAX_NAME - 1 ||
	    !(islower((unsigned char)s[0]) || isdigit((unsigned char)s[0]) ||
	      (!group && s[0] == '_')))
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_' &&
		    !(group && *s == '-'))
			return false;
	return true;
}

/* Syscall name → native number, with an error that says whether the name
 * exists on another architecture. */
static int resolve_syscall(struct parser *ps, const struct nsb_origin *o, const char *name,
			   int *ret)
{
	if (!valid_name(name, false))
		return perr(ps, o, "invalid syscall name '%s'", name);
	int nr = seccomp_syscall_resolve_name_arch(ps->arch, name);
	if (nr >= 0) {
		*ret = nr;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++) {
		if (arches[i].token == ps->arch)
			continue;
		if (seccomp_syscall_resolve_name_arch(arches[i].token, name) >= 0)
			return perr(ps, o, "syscall '%s' does not exist on %s (it does on %s)",
				    name, arch_name(ps->arch), arches[i].name);
	}
	return perr(ps, o, "unknown syscall '%s'", name);
}

static struct nsb_group *find_group(struct nsb_profile *p, const char *name)
{
	for (size_t i = 0; i < p->n_groups; i++)
		if (strcmp(p->groups[i].name, name) == 0)
			return &p->groups[i];
	return NULL;
}

const struct nsb_group *nsb_profile_group(const struct nsb_profile *p, const char *name)
{
	for (size_t i = 0; i < p->n_groups; i++)
		if (strcmp(p->groups[i].name, name) == 0)
			return &p->groups[i];
	return NULL;
}

/* A target is a syscall or an @group: return its numbers (*ret_nrs points to
 * static one-element storage for a syscall, to the group's list otherwise). */
static int resolve_target(struct parser *ps, const struct nsb_origin *o, const char *name, int *one,
			  const int **ret_nrs, size_t *ret_n)
{
	if (name[0] == '@') {
		if (!valid_name(name, true))
			return perr(ps, o, "invalid group name '%s'", name);
		const struct nsb_group *g = find_group(ps->p, name);
		if (!g)
			return perr(
				ps, o,
				"unknown group '%s' (define it with 'group %s' before this line, or include the file that does)",
				name, name);
		*ret_nrs = g->nrs;
		*ret_n = g->n_nrs;
		return 0;
	}
	int r = resolve_syscall(ps, o, name, one);
	if (r < 0)
		return r;
	*ret_nrs = one;
	*ret_n = 1;
	return 0;
}

/* ---- directives -------------------------------------------------------- */

static int group_add(struct parser *ps, const struct nsb_origin *o, struct nsb_group *g, int nr)
{
	for (size_t i = 0; i < g->n_nrs; i++)
		if (g->nrs[i] == nr)
			return 0;
	if (g->n_nrs >= NSB_PROFILE_MAX_MEMBERS)
		return perr(ps, o, "group '%s' has more than %u syscalls", g->name,
			    NSB_PROFILE_MAX_MEMBERS);
	int *n = realloc(g->nrs, (g->n_nrs + 1) * sizeof(*n));
	if (!n)
		return nsb_error_set(ps->e, ENOMEM, STAGE, "%s:%u:%u", o->file, o->line, o->col);
	g->nrs = n;
	g->nrs[g->n_nrs++] = nr;
	return 0;
}

static int do_group(struct parser *ps, const struct nsb_origin *line, struct token *t, size_t n)
{
	struct nsb_profile *p = ps->p;
	struct nsb_origin o = at(line, &t[0]);

	if (n < 2) {
		o.col += 6;
		return perr(ps, &o, "'group' needs a name such as '@mount'");
	}
	o = at(line, &t[1]);
	if (!valid_name(t[1].s, true))
		return perr(
			ps, &o,
			"invalid group name '%s' (expected '@' and lower-case letters, digits, '-' or '_')",
			t[1].s);
	if (n > 2) {
		o = at(line, &t[2]);
		return perr(
			ps, &o,
			"unexpected '%s' after the group name (members go on the following lines, up to 'end')",
			t[2].s);
	}
	const struct nsb_group *old = find_group(p, t[1].s);
	if (old)
		return perr(ps, &o, "group '%s' is already defined at %s:%u:%u", t[1].s,
			    old->origin.file, old->origin.line, old->origin.col);
	if (p->n_groups >= NSB_PROFILE_MAX_GROUPS)
		return perr(ps, &o, "more than %u groups", NSB_PROFILE_MAX_GROUPS);
	struct nsb_group *g = realloc(p->groups, (p->n_groups + 1) * sizeof(*g));
	if (!g)
		return nsb_error_set(ps->e, ENOMEM, STAGE, "%s:%u", line->file, line->line);
	p->groups = g;
	g = &p->groups[p->n_groups++];
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", t[1].s);
	g->origin = o;
	ps->open_group = g;
	ps->open_group_file = line->file;
	return 0;
}

static int do_group_members(struct parser *ps, const struct nsb_origin *line, struct token *t,
			    size_t n)
{
	struct nsb_group *g = ps->open_group;

	for (size_t i = 0; i < n; i++) {
		struct nsb_origin o = at(line, &t[i]);
		int one;
		const int *nrs = NULL;
		size_t n_nrs = 0;
		if (strcmp(t[i].s, g->name) == 0)
			return perr(ps, &o, "group '%s' cannot contain itself", g->name);
		int r = resolve_target(ps, &o, t[i].s, &one, &nrs, &n_nrs);
		if (r < 0)
			return r;
		for (size_t k = 0; k < n_nrs; k++) {
			r = group_add(ps, &o, g, nrs[k]);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

enum directive {
	DIR_DEFAULT,
	DIR_BADARCH,
	DIR_UNMAPPED_IDS
};

static int do_default(struct parser *ps, const struct nsb_origin *line, struct token *t, size_t n,
		      enum directive which)
{
	struct nsb_profile *p = ps->p;
	struct nsb_origin o = at(line, &t[0]);
	struct nsb_action a;
	bool badarch = which == DIR_BADARCH;

	if (which == DIR_DEFAULT && p->has_default)
		return perr(ps, &o, "default action is already set at %s:%u:%u",
			    p->default_origin.file, p->default_origin.line, p->default_origin.col);
	if (badarch && p->has_badarch)
		return perr(ps, &o, "badarch action is already set");
	if (which == DIR_UNMAPPED_IDS && p->has_unmapped_ids)
		return perr(ps, &o, "unmapped-ids action is already set at %s:%u:%u",
			    p->unmapped_ids_origin.file, p->unmapped_ids_origin.line,
			    p->unmapped_ids_origin.col);
	int used = parse_action(ps, line, t, n, 1, &t[0], &a);
	if (used < 0)
		return used;
	if ((size_t)used + 1 < n) {
		o = at(line, &t[used + 1]);
		return perr(ps, &o, "unexpected '%s' after the action", t[used + 1].s);
	}
	if (badarch) {
		/* A foreign-ABI syscall must never run: refuse "allow" and "log"
		 * here, whatever else the profile says. */
		if (a.kind == NSB_ACTION_ALLOW || a.kind == NSB_ACTION_LOG) {
			o = at(line, &t[1]);
			return perr(ps, &o,
				    "badarch action must refuse the call (errno, kill or trap)");
		}
		p->has_badarch = true;
		p->badarch_action = a;
	} else if (which == DIR_UNMAPPED_IDS) {
		/* The directive exists to refuse: "allow" would be a filter
		 * that changes nothing, "log" one that still lets the kernel
		 * answer EINVAL. */
		if (a.kind == NSB_ACTION_ALLOW || a.kind == NSB_ACTION_LOG) {
			o = at(line, &t[1]);
			return perr(
				ps, &o,
				"unmapped-ids action must refuse the call (errno, kill or trap)");
		}
		p->has_unmapped_ids = true;
		p->unmapped_ids_action = a;
		p->unmapped_ids_origin = o;
	} else {
		p->has_default = true;
		p->default_action = a;
		p->default_origin = o;
	}
	return 0;
}

static int parse_cond(struct parser *ps, const struct nsb_origin *line, struct token *t, size_t n,
		      size_t i, struct nsb_cond *ret)
{
	struct nsb_origin o = at(line, &t[i]);
	const char *a = t[i].s;
	struct nsb_cond c = {0};

	if (strncmp(a, "arg", 3) != 0 || a[3] < '0' || a[3] > '5' || a[4])
		return perr(ps, &o, "expected arg0 .. arg5, got '%s'", a);
	c.arg = (unsigned)(a[3] - '0');
	if (i + 1 >= n) {
		o.col += (unsigned)strlen(a) + 1;
		return perr(ps, &o, "missing operator after '%s'", a);
	}
	size_t k = i + 1;
	const char *op = t[k].s;
	o = at(line, &t[k]);
	if (strcmp(op, "&") == 0) {
		if (k + 1 >= n) {
			o.col += 2;
			return perr(ps, &o, "missing mask after '&'");
		}
		int r = parse_value(ps, line, &t[k + 1], &c.mask);
		if (r < 0)
			return r;
		k += 2;
		if (k >= n) {
			o = at(line, &t[k - 1]);
			o.col += (unsigned)strlen(t[k - 1].s) + 1;
			return perr(ps, &o, "missing '==' after the mask");
		}
		o = at(line, &t[k]);
		if (strcmp(t[k].s, "==") != 0)
			return perr(ps, &o, "only '==' can follow a mask, got '%s'", t[k].s);
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
		return perr(ps, &o,
			    "unknown operator '%s' (expected ==, !=, <, <=, >, >= or '& MASK ==')",
			    op);
	}
	if (k + 1 >= n) {
		o.col += (unsigned)strlen(t[k].s) + 1;
		return perr(ps, &o, "missing value after '%s'", t[k].s);
	}
	int r = parse_value(ps, line, &t[k + 1], &c.value);
	if (r < 0)
		return r;
	if (c.op == NSB_CMP_MASKED_EQ && (c.value & ~c.mask)) {
		o = at(line, &t[k + 1]);
		return perr(ps, &o,
			    "value 0x%" PRIx64 " has bits outside the mask 0x%" PRIx64
			    ": the condition can never match",
			    c.value, c.mask);
	}
	*ret = c;
	return (int)(k + 2 - i);
}

static int add_rule(struct parser *ps, const struct nsb_origin *o, int nr,
		    const struct nsb_rule *tmpl)
{
	struct nsb_profile *p = ps->p;

	if (p->n_rules >= NSB_PROFILE_MAX_RULES)
		return perr(ps, o, "more than %u rules (after expanding groups)",
			    NSB_PROFILE_MAX_RULES);
	struct nsb_rule *r = realloc(p->rules, (p->n_rules + 1) * sizeof(*r));
	if (!r)
		return nsb_error_set(ps->e, ENOMEM, STAGE, "%s:%u", o->file, o->line);
	p->rules = r;
	r = &p->rules[p->n_rules++];
	*r = *tmpl;
	r->nr = nr;
	char *name = seccomp_syscall_resolve_num_arch(ps->arch, nr);
	snprintf(r->name, sizeof(r->name), "%s", name ? name : "?");
	free(name);
	return 0;
}

static int do_rule(struct parser *ps, const struct nsb_origin *line, struct token *t, size_t n)
{
	struct nsb_origin o = at(line, &t[0]);
	struct nsb_rule tmpl = {0};
	int one = -1;
	const int *nrs = NULL;
	size_t n_nrs = 0;

	int r = resolve_target(ps, &o, t[0].s, &one, &nrs, &n_nrs);
	if (r < 0)
		return r;
	tmpl.origin = o;
	int used = parse_action(ps, line, t, n, 1, &t[0], &tmpl.action);
	if (used < 0)
		return used;
	size_t i = 1 + (size_t)used;
	if (i < n) {
		struct nsb_origin io = at(line, &t[i]);
		if (strcmp(t[i].s, "if") != 0)
			return perr(ps, &io, "expected 'if' or the end of the line, got '%s'",
				    t[i].s);
		for (i++;;) {
			if (i >= n) {
				io = at(line, &t[i - 1]);
				io.col += (unsigned)strlen(t[i - 1].s) + 1;
				return perr(ps, &io, "missing condition after '%s'", t[i - 1].s);
			}
			struct nsb_cond c = {0};
			int k = parse_cond(ps, line, t, n, i, &c);
			if (k < 0)
				return k;
			for (unsigned j = 0; j < tmpl.n_conds; j++)
				if (tmpl.conds[j].arg == c.arg) {
					io = at(line, &t[i]);
					/* libseccomp 2.5 refuses two comparisons of one
					 * argument in one rule (EINVAL); say so here. */
					return perr(
						ps, &io,
						"arg%u is already compared in this rule (write a second rule instead)",
						c.arg);
				}
			tmpl.conds[tmpl.n_conds++] = c;
			i += (size_t)k;
			if (i >= n)
				break;
			io = at(line, &t[i]);
			if (strcmp(t[i].s, "and") != 0)
				return perr(ps, &io,
					    "expected 'and' or the end of the line, got '%s'",
					    t[i].s);
			i++;
		}
	}
	for (size_t k = 0; k < n_nrs; k++) {
		r = add_rule(ps, &o, nrs[k], &tmpl);
		if (r < 0)
			return r;
	}
	return 0;
}

static int parse_file(struct parser *ps, FILE *f, const char *path);

static int do_include(struct parser *ps, const struct nsb_origin *line, struct token *t, size_t n)
{
	struct nsb_profile *p = ps->p;
	struct nsb_origin o = at(line, &t[0]);

	if (n < 2) {
		o.col += 8;
		return perr(ps, &o, "'include' needs a profile name or path");
	}
	o = at(line, &t[1]);
	if (n > 2) {
		struct nsb_origin xo = at(line, &t[2]);
		return perr(ps, &xo, "unexpected '%s' after the include name", t[2].s);
	}
	if (!ps->opener)
		return perr(ps, &o, "cannot include '%s': includes are not available here", t[1].s);
	if (ps->depth >= NSB_PROFILE_MAX_DEPTH)
		return perr(ps, &o, "include '%s': includes are nested deeper than %u", t[1].s,
			    NSB_PROFILE_MAX_DEPTH);

	FILE *inc = NULL;
	char *resolved = NULL;
	struct nsb_error oe = {0};
	int r = ps->opener(t[1].s, line->file, ps->userdata, &inc, &resolved, &oe);
	if (r < 0) {
		nsb_error_setx(ps->e, r, STAGE, "%s:%u:%u: include '%s': %s", o.file, o.line, o.col,
			       t[1].s, oe.message);
		return -ps->e->err;
	}
	for (unsigned i = 0; i < ps->depth; i++)
		if (strcmp(ps->stack[i], resolved) == 0) {
			fclose(inc);
			r = perr(ps, &o, "include cycle: '%s' is already being read", resolved);
			free(resolved);
			return r;
		}
	/* Including a file a second time (two includes of a shared group file)
	 * would redefine its groups: read every file once. */
	for (size_t i = 0; i < p->n_files; i++)
		if (strcmp(p->files[i], resolved) == 0) {
			fclose(inc);
			free(resolved);
			return 0;
		}
	if (p->n_files >= NSB_PROFILE_MAX_FILES) {
		fclose(inc);
		free(resolved);
		return perr(ps, &o, "more than %u files in one profile", NSB_PROFILE_MAX_FILES);
	}
	char **files = realloc(p->files, (p->n_files + 1) * sizeof(*files));
	if (!files) {
		fclose(inc);
		free(resolved);
		return nsb_error_set(ps->e, ENOMEM, STAGE, "include '%s'", t[1].s);
	}
	p->files = files;
	p->files[p->n_files++] = resolved;
	r = parse_file(ps, inc, resolved);
	fclose(inc);
	return r;
}

/* ---- lines and files --------------------------------------------------- */

static int parse_line(struct parser *ps, const struct nsb_origin *line, char *s)
{
	struct token t[NSB_PROFILE_MAX_LINE / 2 + 1];
	size_t n = 0;

	char *hash = strchr(s, '#');
	if (hash)
		*hash = '\0';
	for (char *c = s; *c;) {
		if (*c == ' ' || *c == '\t' || *c == '\r') {
			*c++ = '\0';
			continue;
		}
		if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) {
			struct nsb_origin o = {line->file, line->line, (unsigned)(c - s) + 1};
			return perr(ps, &o,
				    "invalid byte 0x%02x (only printable ASCII outside comments)",
				    (unsigned char)*c);
		}
		t[n].s = c;
		t[n].col = (unsigned)(c - s) + 1;
		n++;
		while (*c && *c != ' ' && *c != '\t' && *c != '\r' && (unsigned char)*c >= 0x20 &&
		       (unsigned char)*c < 0x7f)
			c++;
	}
	if (n == 0)
		return 0;

	const char *k = t[0].s;
	if (ps->open_group) {
		if (strcmp(k, "end") == 0) {
			if (n > 1) {
				struct nsb_origin o = at(line, &t[1]);
				return perr(ps, &o, "unexpected '%s' after 'end'", t[1].s);
			}
			if (ps->open_group->n_nrs == 0) {
				struct nsb_origin o = at(line, &t[0]);
				return perr(ps, &o, "group '%s' is empty", ps->open_group->name);
			}
			ps->open_group = NULL;
			return 0;
		}
		if (strcmp(k, "group") == 0 || strcmp(k, "include") == 0 ||
		    strcmp(k, "default") == 0 || strcmp(k, "badarch") == 0 ||
		    strcmp(k, "unmapped-ids") == 0) {
			struct nsb_origin o = at(line, &t[0]);
			return perr(ps, &o,
				    "'%s' inside group '%s' (close the group with 'end' first)", k,
				    ps->open_group->name);
		}
		return do_group_members(ps, line, t, n);
	}
	if (strcmp(k, "default") == 0)
		return do_default(ps, line, t, n, DIR_DEFAULT);
	if (strcmp(k, "badarch") == 0)
		return do_default(ps, line, t, n, DIR_BADARCH);
	if (strcmp(k, "unmapped-ids") == 0)
		return do_default(ps, line, t, n, DIR_UNMAPPED_IDS);
	if (strcmp(k, "include") == 0)
		return do_include(ps, line, t, n);
	if (strcmp(k, "group") == 0)
		return do_group(ps, line, t, n);
	if (strcmp(k, "end") == 0) {
		struct nsb_origin o = at(line, &t[0]);
		return perr(ps, &o, "'end' without 'group'");
	}
	return do_rule(ps, line, t, n);
}

static int parse_file(struct parser *ps, FILE *f, const char *path)
{
	_cleanup_free_ char *buf = malloc(NSB_PROFILE_MAX_FILE_SIZE + 1);
	size_t len = 0;

	if (!buf)
		return nsb_error_set(ps->e, ENOMEM, STAGE, "read '%s'", path);
	while (len <= NSB_PROFILE_MAX_FILE_SIZE) {
		size_t got = fread(buf + len, 1, NSB_PROFILE_MAX_FILE_SIZE + 1 - len, f);
		if (got == 0)
			break;
		len += got;
	}
	if (ferror(f))
		return nsb_error_set(ps->e, errno ? errno : EIO, STAGE, "read '%s'", path);

	if (len > NSB_PROFILE_MAX_FILE_SIZE) {
		/* Point at the first byte past the limit. */
		struct nsb_origin o = {path, 1, 1};
		for (size_t i = 0; i < NSB_PROFILE_MAX_FILE_SIZE; i++) {
			o.col++;
			if (buf[i] == '\n') {
				o.line++;
				o.col = 1;
			}
		}
		return perr(ps, &o, "profile is larger than %u bytes", NSB_PROFILE_MAX_FILE_SIZE);
	}

	ps->stack[ps->depth++] = path;
	struct nsb_group *outer_group = ps->open_group;
	ps->open_group = NULL;

	unsigned lineno = 0;
	int r = 0;
	for (size_t pos = 0; pos < len && r >= 0;) {
		char line[NSB_PROFILE_MAX_LINE + 1];
		char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		struct nsb_origin o = {path, ++lineno, 1};

		if (end - pos > NSB_PROFILE_MAX_LINE) {
			o.col = NSB_PROFILE_MAX_LINE + 1;
			r = perr(ps, &o, "line is longer than %u bytes", NSB_PROFILE_MAX_LINE);
			break;
		}
		memcpy(line, buf + pos, end - pos);
		line[end - pos] = '\0';
		char *nul = memchr(buf + pos, '\0', end - pos);
		if (nul) {
			o.col = (unsigned)(nul - (buf + pos)) + 1;
			r = perr(ps, &o, "NUL byte in profile");
			break;
		}
		r = parse_line(ps, &o, line);
		pos = end + 1;
	}
	if (r >= 0 && ps->open_group)
		r = perr(ps, &ps->open_group->origin, "group '%s' has no 'end'",
			 ps->open_group->name);
	ps->open_group = outer_group;
	ps->depth--;
	return r;
}

/* ---- whole-profile checks ---------------------------------------------- */

static bool cond_eq(const struct nsb_cond *a, const struct nsb_cond *b)
{
	return a->arg == b->arg && a->op == b->op && a->value == b->value &&
	       (a->op != NSB_CMP_MASKED_EQ || a->mask == b->mask);
}

static bool rule_same_conds(const struct nsb_rule *a, const struct nsb_rule *b)
{
	if (a->n_conds != b->n_conds)
		return false;
	for (unsigned i = 0; i < a->n_conds; i++) {
		bool found = false;
		for (unsigned j = 0; j < b->n_conds && !found; j++)
			found = cond_eq(&a->conds[i], &b->conds[j]);
		if (!found)
			return false;
	}
	return true;
}

static int check_rules(struct parser *ps)
{
	struct nsb_profile *p = ps->p;
	char a1[32], a2[32];

	for (size_t i = 0; i < p->n_rules; i++) {
		struct nsb_rule *r = &p->rules[i];
		/* libseccomp refuses a rule whose action is the default one
		 * (EACCES): it would be a no-op, and usually a mistake. */
		if (action_eq(&r->action, &p->default_action)) {
			nsb_action_format(&r->action, a1, sizeof(a1));
			return perr(ps, &r->origin, "rule for '%s' has the default action '%s'",
				    r->name, a1);
		}
		for (size_t j = 0; j < i; j++) {
			struct nsb_rule *q = &p->rules[j];
			if (q->nr != r->nr)
				continue;
			/* Different actions on one syscall are refused: libseccomp
			 * silently lets an unconditional rule win over conditional
			 * ones, and gives overlapping conditions no defined order. */
			if (!action_eq(&q->action, &r->action)) {
				nsb_action_format(&r->action, a1, sizeof(a1));
				nsb_action_format(&q->action, a2, sizeof(a2));
				return perr(
					ps, &r->origin,
					"'%s' gets action '%s' here but '%s' at %s:%u:%u (one syscall, one action)",
					r->name, a1, a2, q->origin.file, q->origin.line,
					q->origin.col);
			}
		}
	}
	/* Drop exact duplicates (a syscall in two groups with one action). */
	size_t out = 0;
	for (size_t i = 0; i < p->n_rules; i++) {
		bool dup = false;
		for (size_t j = 0; j < out && !dup; j++)
			dup = p->rules[j].nr == p->rules[i].nr &&
			      rule_same_conds(&p->rules[j], &p->rules[i]);
		if (!dup)
			p->rules[out++] = p->rules[i];
	}
	p->n_rules = out;
	return 0;
}

/* ---- entry points ------------------------------------------------------ */

void nsb_profile_free(struct nsb_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_groups; i++)
		free(p->groups[i].nrs);
	free(p->groups);
	free(p->rules);
	for (size_t i = 0; i < p->n_files; i++)
		free(p->files[i]);
	free(p->files);
	free(p);
}

int nsb_profile_parse(FILE *f, const char *path, nsb_profile_opener opener, void *userdata,
		      struct nsb_profile **ret, struct nsb_error *e)
{
	_cleanup_(nsb_profile_freep) struct nsb_profile *p = calloc(1, sizeof(*p));
	if (!p)
		return nsb_error_set(e, ENOMEM, STAGE, "parse '%s'", path);
	p->files = calloc(1, sizeof(*p->files));
	if (!p->files)
		return nsb_error_set(e, ENOMEM, STAGE, "parse '%s'", path);
	p->files[0] = strdup(path);
	if (!p->files[0])
		return nsb_error_set(e, ENOMEM, STAGE, "parse '%s'", path);
	p->n_files = 1;

	struct parser ps = {
		.p = p,
		.opener = opener,
		.userdata = userdata,
		.e = e,
		.arch = seccomp_arch_native(),
	};
	int r = parse_file(&ps, f, p->files[0]);
	if (r < 0)
		return r;
	if (!p->has_default) {
		struct nsb_origin o = {p->files[0], 1, 1};
		return perr(&ps, &o,
			    "no 'default' action (add a line such as 'default errno EPERM')");
	}
	r = check_rules(&ps);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(p);
	return 0;
}
