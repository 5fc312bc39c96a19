// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dropping every capability: the bounding and ambient sets with prctl (one
 * call per capability, as libcap-ng would make them), the effective,
 * permitted and inheritable sets with libcap-ng.  libcap-ng reports failures as
 * its own small negative codes (see capng_apply(3)), not as errno values;
 * they are translated here, at the only place the library is called.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cap-ng.h>

#include "sandbox/caps.h"
#include "base/util.h"

/*
 * NOROOT: uid 0 gets no capabilities from execve.  NO_SETUID_FIXUP: changing
 * uids neither grants nor clears capabilities behind our back.
 * NO_CAP_AMBIENT_RAISE: nothing can refill the ambient set.  KEEP_CAPS stays
 * off.  Every one of them is locked, so the payload (uid 0 inside, with
 * CAP_SETPCAP until the last step) cannot turn them back.
 */
#define NSB_SECUREBITS                                                                           \
	(SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |                         \
	 SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE | \
	 SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED)

/*
 * Turn a failed capng_apply() into -errno.  libcap-ng leaves errno from the
 * failing prctl/capset in place for most codes; when it does not (the
 * library checked something itself), map its code to the closest errno.
 */
static int capng_to_errno(int rc, int saved_errno)
{
	if (saved_errno > 0)
		return -saved_errno;
	/* -1: library state not initialized; -4 and the rest: not permitted. */
	return rc == -1 ? -EINVAL : -EPERM;
}

static int apply_set(capng_select_t set, const char *what, struct nsb_error *e)
{
	int rc;

	errno = 0;
	rc = capng_apply(set);
	if (rc < 0) {
		int r = capng_to_errno(rc, errno);
		return nsb_error_set(e, r, NSB_STAGE_CAPS, "clear %s (libcap-ng error %d)", what,
				     rc);
	}
	return 0;
}

/*
 * Drop every capability from the bounding set, 0 up to the kernel's last
 * (past it PR_CAPBSET_DROP answers EINVAL).  Done here rather than with
 * capng_apply(CAPNG_SELECT_BOUNDS), which reads /proc/PID/status three
 * times around the same prctl calls; verify_empty reads the result back.
 */
static int drop_bounding_set(struct nsb_error *e)
{
	for (unsigned long cap = 0;; cap++) {
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0)
			continue;
		if (errno == EINVAL && cap > 0)
			return 0;
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CAPS,
				     "drop capability %lu from the bounding set", cap);
	}
}

/*
 * The bounding set as /proc/self/status shows it: three system calls where
 * PR_CAPBSET_READ needs one per capability.  This runs after the mounts, so
 * /proc is the sandbox's own; without it (0) the caller asks prctl.
 * Returns 1 when CapBnd was read and is empty.
 */
static int bounding_set_from_status(struct nsb_error *e)
{
	char buf[4096];
	_cleanup_close_ int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC | O_NOCTTY);
	ssize_t n;

	if (fd < 0)
		return 0;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	const char *line = strstr(buf, "\nCapBnd:");
	if (!line)
		return 0;
	line += strlen("\nCapBnd:");
	line += nsb_strspn(line, " \t");
	size_t len = nsb_strspn(line, "0123456789abcdef");
	if (len == 0)
		return 0;
	if (nsb_strspn(line, "0") < len)
		return nsb_error_setx(
			e, -EPERM, NSB_STAGE_CAPS,
			"capabilities still in the bounding set after dropping them (CapBnd %.*s)",
			(int)len, line);
	return 1;
}

/* Independent check through the kernel interfaces, not libcap-ng's state. */
static int verify_empty(struct nsb_error *e)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &hdr, data) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CAPS, "read capabilities back");
	for (size_t i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (data[i].effective || data[i].permitted || data[i].inheritable)
			return nsb_error_setx(e, -EPERM, NSB_STAGE_CAPS,
					      "capabilities still present after dropping them");

	int from_status = bounding_set_from_status(e);
	if (from_status != 0)
		return from_status < 0 ? from_status : 0;
	/* PR_CAPBSET_READ fails with EINVAL past the kernel's last capability. */
	for (unsigned long cap = 0;; cap++) {
		int r = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);
		if (r < 0 && errno == EINVAL && cap > 0)
			break;
		if (r < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CAPS,
					     "read bounding set capability %lu", cap);
		if (r > 0)
			return nsb_error_setx(
				e, -EPERM, NSB_STAGE_CAPS,
				"capability %lu still in the bounding set after dropping it", cap);
	}
	/*
	 * The ambient set needs no check of its own: the kernel keeps it a
	 * subset of permitted ∩ inheritable, both verified empty above.
	 */
	return 0;
}

int nsb_caps_drop_all(struct nsb_error *e)
{
	int bits, r;

	/*
	 * Order matters.  Securebits and the bounding set can only be changed
	 * while CAP_SETPCAP is effective, so they come first; the ambient set
	 * next; the effective/permitted/inheritable sets last, because clearing
	 * them removes CAP_SETPCAP itself.
	 */
	bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	if (bits < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CAPS, "read securebits");
	/* OR in, never replace: a locked bit set by someone before us must stay. */
	if (prctl(PR_SET_SECUREBITS, (unsigned long)bits | NSB_SECUREBITS, 0, 0, 0) < 0) {
		r = nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CAPS, "lock securebits (0x%x)",
				  (unsigned int)(bits | NSB_SECUREBITS));
		nsb_error_hint(e, "this needs CAP_SETPCAP in the sandbox's user namespace");
		return r;
	}

	r = drop_bounding_set(e);
	if (r < 0)
		return r;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_CAPS,
				     "clear ambient capability set");

	/* Empty libcap-ng's idea of the three sets and push it (one capset). */
	capng_clear(CAPNG_SELECT_CAPS);
	r = apply_set(CAPNG_SELECT_CAPS, "effective, permitted and inheritable capability sets", e);
	if (r < 0)
		return r;

	return verify_empty(e);
}

int nsb_no_new_privs(struct nsb_error *e)
{
	/*
	 * After this, execve never grants privileges (setuid bits and file
	 * capabilities are ignored), and it is inherited by every descendant
	 * and cannot be unset.  seccomp without CAP_SYS_ADMIN requires it.
	 */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_NO_NEW_PRIVS, "set no_new_privs");
	return 0;
}
