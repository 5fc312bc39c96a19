// SPDX-License-Identifier: GPL-2.0-or-later
/* errno values by name and names by value (errname.h): pure, any process. */
#include <errno.h>
#include <string.h>

#include "base/errname.h"
#include "base/macro.h"

#define REC  NSB_ERRNAME_RECORD
#define PROF NSB_ERRNAME_PROFILE

/*
 * One table for the record's "errno_name" and for the names an `errno`
 * action of a seccomp profile accepts; the last column says which uses see
 * a name.  Aliases (EWOULDBLOCK, EDEADLOCK) share a number and are left out;
 * ENOTSUP is EOPNOTSUPP's alias, accepted by a profile and never printed
 * (the first name of a value is the one printed).
 */
/* No pointer: the table stays in .rodata, shared (base/macro.h). */
#define E(v, u)                                \
	{                                      \
		v, #v, (u) + NSB_FITS0(#v, 16) \
	}

static const struct {
	int value;
	char name[16];
	unsigned uses;
} names[] = {
	E(EPERM, REC | PROF),
	E(ENOENT, REC | PROF),
	E(ESRCH, REC | PROF),
	E(EINTR, REC | PROF),
	E(EIO, REC | PROF),
	E(ENXIO, REC | PROF),
	E(E2BIG, REC | PROF),
	E(ENOEXEC, REC | PROF),
	E(EBADF, REC | PROF),
	E(ECHILD, REC | PROF),
	E(EAGAIN, REC | PROF),
	E(ENOMEM, REC | PROF),
	E(EACCES, REC | PROF),
	E(EFAULT, REC | PROF),
	E(ENOTBLK, REC),
	E(EBUSY, REC | PROF),
	E(EEXIST, REC | PROF),
	E(EXDEV, REC | PROF),
	E(ENODEV, REC | PROF),
	E(ENOTDIR, REC | PROF),
	E(EISDIR, REC | PROF),
	E(EINVAL, REC | PROF),
	E(ENFILE, REC | PROF),
	E(EMFILE, REC | PROF),
	E(ENOTTY, REC | PROF),
	E(ETXTBSY, REC | PROF),
	E(EFBIG, REC | PROF),
	E(ENOSPC, REC | PROF),
	E(ESPIPE, REC | PROF),
	E(EROFS, REC | PROF),
	E(EMLINK, REC | PROF),
	E(EPIPE, REC | PROF),
	E(EDOM, REC),
	E(ERANGE, REC | PROF),
	E(EDEADLK, REC),
	E(ENAMETOOLONG, REC | PROF),
	E(ENOLCK, REC),
	E(ENOSYS, REC | PROF),
	E(ENOTEMPTY, REC | PROF),
	E(ELOOP, REC | PROF),
	E(ENOMSG, REC),
	E(ENODATA, REC),
	E(ETIME, REC),
	E(ENOLINK, REC),
	E(EPROTO, REC),
	E(EOVERFLOW, REC),
	E(EBADFD, REC),
	E(ELIBBAD, REC),
	E(EILSEQ, REC),
	E(EUSERS, REC),
	E(ENOTSOCK, REC | PROF),
	E(EMSGSIZE, REC),
	E(EPROTONOSUPPORT, REC | PROF),
	E(ESOCKTNOSUPPORT, PROF),
	E(EOPNOTSUPP, REC | PROF),
	E(ENOTSUP, PROF),
	E(EAFNOSUPPORT, REC | PROF),
	E(EADDRINUSE, REC),
	E(EADDRNOTAVAIL, REC | PROF),
	E(ENETDOWN, REC | PROF),
	E(ENETUNREACH, REC | PROF),
	E(ECONNABORTED, REC),
	E(ECONNRESET, REC),
	E(ENOBUFS, REC),
	E(EISCONN, REC),
	E(ENOTCONN, REC),
	E(ETIMEDOUT, REC),
	E(ECONNREFUSED, REC | PROF),
	E(EHOSTUNREACH, REC),
	E(EALREADY, REC),
	E(EINPROGRESS, REC),
	E(ESTALE, REC),
	E(EDQUOT, REC),
	E(ECANCELED, REC),
	E(EOWNERDEAD, REC),
	E(ENOTRECOVERABLE, REC),
	E(ENOPROTOOPT, PROF),
	E(EPFNOSUPPORT, PROF),
};
#undef E

const char *nsb_errno_name_for(int err, unsigned use)
{
	/* Widen before negating: -INT_MIN does not fit an int. */
	long e = err < 0 ? -(long)err : err;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].value == e && (names[i].uses & use))
			return names[i].name;
	return NULL;
}

const char *nsb_errno_name(int err)
{
	return nsb_errno_name_for(err, NSB_ERRNAME_RECORD);
}

bool nsb_errno_by_name(const char *name, unsigned use, int *ret)
{
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if ((names[i].uses & use) && strcmp(names[i].name, name) == 0) {
			*ret = names[i].value;
			return true;
		}
	return false;
}
