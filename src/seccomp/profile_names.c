// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The profile parser's lookup tables (pure, any process): named constants for
 * condition values, and the architectures libseccomp knows (errno names are
 * errname.c's).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <linux/netlink.h>
#include <seccomp.h>

#include "base/macro.h"
#include "seccomp/profile_names.h"

/* No pointer: the tables stay in .rodata, shared (base/macro.h). */
struct named_value {
	char name[24];
	uint64_t value;
};

#define NV(x)                                         \
	{                                             \
#x, (uint64_t)(x) + NSB_FITS0(#x, 24) \
	}

/* Named constants for condition values.  They come from this host's headers,
 * which is right because filters are only ever built for the native arch. */
static const struct named_value constants[] _cold_data_ = {
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
	char name[12];
} arches[] = {
	{SCMP_ARCH_X86_64, "x86_64"},	{SCMP_ARCH_X86, "i386"},
	{SCMP_ARCH_X32, "x32"},		{SCMP_ARCH_AARCH64, "aarch64"},
	{SCMP_ARCH_ARM, "arm"},		{SCMP_ARCH_PPC64LE, "ppc64le"},
	{SCMP_ARCH_S390X, "s390x"},	{SCMP_ARCH_MIPS64, "mips64"},
	{SCMP_ARCH_RISCV64, "riscv64"},
};

bool nsb_profile_constant(const char *name, uint64_t *ret)
{
	for (size_t i = 0; i < ARRAY_SIZE(constants); i++)
		if (strcmp(constants[i].name, name) == 0) {
			*ret = constants[i].value;
			return true;
		}
	return false;
}

const char *nsb_profile_arch_name(uint32_t token)
{
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i].token == token)
			return arches[i].name;
	return "this architecture";
}

const char *nsb_profile_other_arch(uint32_t native, const char *syscall)
{
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++) {
		if (arches[i].token == native)
			continue;
		if (seccomp_syscall_resolve_name_arch(arches[i].token, syscall) >= 0)
			return arches[i].name;
	}
	return NULL;
}
