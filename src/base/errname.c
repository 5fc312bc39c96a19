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
static const struct {
	int value;
	const char *name;
	unsigned uses;
} names[] = {
	{EPERM, "EPERM", REC | PROF},
	{ENOENT, "ENOENT", REC | PROF},
	{ESRCH, "ESRCH", REC | PROF},
	{EINTR, "EINTR", REC | PROF},
	{EIO, "EIO", REC | PROF},
	{ENXIO, "ENXIO", REC | PROF},
	{E2BIG, "E2BIG", REC | PROF},
	{ENOEXEC, "ENOEXEC", REC | PROF},
	{EBADF, "EBADF", REC | PROF},
	{ECHILD, "ECHILD", REC | PROF},
	{EAGAIN, "EAGAIN", REC | PROF},
	{ENOMEM, "ENOMEM", REC | PROF},
	{EACCES, "EACCES", REC | PROF},
	{EFAULT, "EFAULT", REC | PROF},
	{ENOTBLK, "ENOTBLK", REC},
	{EBUSY, "EBUSY", REC | PROF},
	{EEXIST, "EEXIST", REC | PROF},
	{EXDEV, "EXDEV", REC | PROF},
	{ENODEV, "ENODEV", REC | PROF},
	{ENOTDIR, "ENOTDIR", REC | PROF},
	{EISDIR, "EISDIR", REC | PROF},
	{EINVAL, "EINVAL", REC | PROF},
	{ENFILE, "ENFILE", REC | PROF},
	{EMFILE, "EMFILE", REC | PROF},
	{ENOTTY, "ENOTTY", REC | PROF},
	{ETXTBSY, "ETXTBSY", REC | PROF},
	{EFBIG, "EFBIG", REC | PROF},
	{ENOSPC, "ENOSPC", REC | PROF},
	{ESPIPE, "ESPIPE", REC | PROF},
	{EROFS, "EROFS", REC | PROF},
	{EMLINK, "EMLINK", REC | PROF},
	{EPIPE, "EPIPE", REC | PROF},
	{EDOM, "EDOM", REC},
	{ERANGE, "ERANGE", REC | PROF},
	{EDEADLK, "EDEADLK", REC},
	{ENAMETOOLONG, "ENAMETOOLONG", REC | PROF},
	{ENOLCK, "ENOLCK", REC},
	{ENOSYS, "ENOSYS", REC | PROF},
	{ENOTEMPTY, "ENOTEMPTY", REC | PROF},
	{ELOOP, "ELOOP", REC | PROF},
	{ENOMSG, "ENOMSG", REC},
	{ENODATA, "ENODATA", REC},
	{ETIME, "ETIME", REC},
	{ENOLINK, "ENOLINK", REC},
	{EPROTO, "EPROTO", REC},
	{EOVERFLOW, "EOVERFLOW", REC},
	{EBADFD, "EBADFD", REC},
	{ELIBBAD, "ELIBBAD", REC},
	{EILSEQ, "EILSEQ", REC},
	{EUSERS, "EUSERS", REC},
	{ENOTSOCK, "ENOTSOCK", REC | PROF},
	{EMSGSIZE, "EMSGSIZE", REC},
	{EPROTONOSUPPORT, "EPROTONOSUPPORT", REC | PROF},
	{ESOCKTNOSUPPORT, "ESOCKTNOSUPPORT", PROF},
	{EOPNOTSUPP, "EOPNOTSUPP", REC | PROF},
	{ENOTSUP, "ENOTSUP", PROF},
	{EAFNOSUPPORT, "EAFNOSUPPORT", REC | PROF},
	{EADDRINUSE, "EADDRINUSE", REC},
	{EADDRNOTAVAIL, "EADDRNOTAVAIL", REC | PROF},
	{ENETDOWN, "ENETDOWN", REC | PROF},
	{ENETUNREACH, "ENETUNREACH", REC | PROF},
	{ECONNABORTED, "ECONNABORTED", REC},
	{ECONNRESET, "ECONNRESET", REC},
	{ENOBUFS, "ENOBUFS", REC},
	{EISCONN, "EISCONN", REC},
	{ENOTCONN, "ENOTCONN", REC},
	{ETIMEDOUT, "ETIMEDOUT", REC},
	{ECONNREFUSED, "ECONNREFUSED", REC | PROF},
	{EHOSTUNREACH, "EHOSTUNREACH", REC},
	{EALREADY, "EALREADY", REC},
	{EINPROGRESS, "EINPROGRESS", REC},
	{ESTALE, "ESTALE", REC},
	{EDQUOT, "EDQUOT", REC},
	{ECANCELED, "ECANCELED", REC},
	{EOWNERDEAD, "EOWNERDEAD", REC},
	{ENOTRECOVERABLE, "ENOTRECOVERABLE", REC},
	{ENOPROTOOPT, "ENOPROTOOPT", PROF},
	{EPFNOSUPPORT, "EPFNOSUPPORT", PROF},
};

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
