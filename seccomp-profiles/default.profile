# nsbox default profile (see nsbox-profile(5)).
#
# Everything is allowed except what lets a process leave or reshape its
# sandbox, reach into other processes, or use kernel interfaces that no
# sandboxed program needs and that have a long record of bugs.  Syscalls
# that exist only on another ABI (x32 numbers, the i386 int 0x80 entry) are
# refused before any rule is looked at: the filter only knows x86_64.

include groups
default allow

# chown and set*id calls naming a uid or gid other than the caller's own (or
# -1, "unchanged") fail with EPERM, as they would outside for anyone but
# root, instead of the EINVAL of an id the user namespace does not map.
# nsbox builds this check from the caller's ids (see nsbox-profile(5)).
unmapped-ids errno EPERM

# Mounts and roots: the sandbox's filesystem view is final.
@mount errno EPERM

# Namespaces: no new user namespace (the door to capabilities inside it), no
# new mount, PID, network, IPC, UTS, cgroup or time namespace.  clone3 passes
# its flags in memory that seccomp cannot read, so it answers ENOSYS and libc
# falls back to clone, whose flags are checked here.  clone's flags are an
# unsigned long but the kernel reads only the low 32 bits: each mask below
# has no high bits, so high garbage cannot hide a flag.
# quiet: libc tries clone3 on every thread and fork and falls back to
# clone by design; reporting it would only be noise (nsbox-profile(5)).
clone3 errno ENOSYS quiet
clone errno EPERM if arg0 & CLONE_NEWUSER == CLONE_NEWUSER
clone errno EPERM if arg0 & CLONE_NEWNS == CLONE_NEWNS
clone errno EPERM if arg0 & CLONE_NEWPID == CLONE_NEWPID
clone errno EPERM if arg0 & CLONE_NEWNET == CLONE_NEWNET
clone errno EPERM if arg0 & CLONE_NEWIPC == CLONE_NEWIPC
clone errno EPERM if arg0 & CLONE_NEWUTS == CLONE_NEWUTS
clone errno EPERM if arg0 & CLONE_NEWCGROUP == CLONE_NEWCGROUP
unshare errno EPERM if arg0 & CLONE_NEWUSER == CLONE_NEWUSER
unshare errno EPERM if arg0 & CLONE_NEWNS == CLONE_NEWNS
unshare errno EPERM if arg0 & CLONE_NEWPID == CLONE_NEWPID
unshare errno EPERM if arg0 & CLONE_NEWNET == CLONE_NEWNET
unshare errno EPERM if arg0 & CLONE_NEWIPC == CLONE_NEWIPC
unshare errno EPERM if arg0 & CLONE_NEWUTS == CLONE_NEWUTS
unshare errno EPERM if arg0 & CLONE_NEWCGROUP == CLONE_NEWCGROUP
unshare errno EPERM if arg0 & CLONE_NEWTIME == CLONE_NEWTIME

# Administrator interfaces: modules, reboot and kexec, swap, raw I/O
# ports, accounting, quotas, the kernel log, open_by_handle_at (it bypasses
# path-based confinement), host names, setns, bpf, fanotify.
@privileged errno EPERM
@keyring errno EPERM
@debug errno EPERM
userfaultfd errno EPERM
# io_uring answers as if the kernel had none, so libraries fall back.
@io-uring errno ENOSYS
@obsolete errno ENOSYS

# Setuid and setgid bits.  The sandbox's files are the host's inodes: a bit
# set here makes a host program that runs as its owner (root, for a root
# caller), and a nosuid mount inside does not travel with the inode.  So no
# call may set S_ISUID or S_ISGID: chmod and its relatives, open and creat
# creating a file, mkdir, mknod.  The mode is a umode_t, the kernel reads
# its low 16 bits, and a mask of one bit ignores whatever lies above it.
# open's mode only counts when the call creates: with O_CREAT or
# __O_TMPFILE (0x400000, the kernel's own bit; glibc's O_TMPFILE adds
# O_DIRECTORY).  openat2 passes its mode inside struct open_how, in memory
# that seccomp cannot read: it answers ENOSYS, as on a kernel before 5.6,
# and libraries fall back to openat, whose mode is checked here.
chmod errno EPERM if arg1 & S_ISUID == S_ISUID
chmod errno EPERM if arg1 & S_ISGID == S_ISGID
fchmod errno EPERM if arg1 & S_ISUID == S_ISUID
fchmod errno EPERM if arg1 & S_ISGID == S_ISGID
fchmodat errno EPERM if arg2 & S_ISUID == S_ISUID
fchmodat errno EPERM if arg2 & S_ISGID == S_ISGID
fchmodat2 errno EPERM if arg2 & S_ISUID == S_ISUID
fchmodat2 errno EPERM if arg2 & S_ISGID == S_ISGID
creat errno EPERM if arg1 & S_ISUID == S_ISUID
creat errno EPERM if arg1 & S_ISGID == S_ISGID
open errno EPERM if arg1 & O_CREAT == O_CREAT and arg2 & S_ISUID == S_ISUID
open errno EPERM if arg1 & O_CREAT == O_CREAT and arg2 & S_ISGID == S_ISGID
open errno EPERM if arg1 & 0x400000 == 0x400000 and arg2 & S_ISUID == S_ISUID
open errno EPERM if arg1 & 0x400000 == 0x400000 and arg2 & S_ISGID == S_ISGID
openat errno EPERM if arg2 & O_CREAT == O_CREAT and arg3 & S_ISUID == S_ISUID
openat errno EPERM if arg2 & O_CREAT == O_CREAT and arg3 & S_ISGID == S_ISGID
openat errno EPERM if arg2 & 0x400000 == 0x400000 and arg3 & S_ISUID == S_ISUID
openat errno EPERM if arg2 & 0x400000 == 0x400000 and arg3 & S_ISGID == S_ISGID
# quiet: openat2 is probed and replaced by openat (its RESOLVE_ flags
# live in memory seccomp cannot read); an expected fallback, not a finding.
openat2 errno ENOSYS quiet
mkdir errno EPERM if arg1 & S_ISUID == S_ISUID
mkdir errno EPERM if arg1 & S_ISGID == S_ISGID
mkdirat errno EPERM if arg2 & S_ISUID == S_ISUID
mkdirat errno EPERM if arg2 & S_ISGID == S_ISGID
mknod errno EPERM if arg1 & S_ISUID == S_ISUID
mknod errno EPERM if arg1 & S_ISGID == S_ISGID
mknodat errno EPERM if arg2 & S_ISUID == S_ISUID
mknodat errno EPERM if arg2 & S_ISGID == S_ISGID

# Leases and dnotify: a read lease on a file bound from the host (even
# read-only) stalls the host's writers for lease-break-time; F_NOTIFY
# watches host directories.  fcntl's command is an unsigned int: compare
# its low 32 bits.
fcntl errno EPERM if arg1 & 0xffffffff == F_SETLEASE
fcntl errno EPERM if arg1 & 0xffffffff == F_NOTIFY

# Terminal injection: TIOCSTI pushes bytes into the input of the terminal
# the sandbox may share with its caller, TIOCLINUX can do the same on a
# virtual console.  ioctl's request is an unsigned int, so compare only the
# low 32 bits: a request with high bits set reaches the same kernel code.
ioctl errno EPERM if arg1 & 0xffffffff == TIOCSTI
ioctl errno EPERM if arg1 & 0xffffffff == TIOCLINUX

# Socket families: only AF_UNIX, AF_INET, AF_INET6 and NETLINK_ROUTE
# sockets (which libc uses for getaddrinfo and getifaddrs) are left.  The
# first rule refuses every family number above AF_NETLINK and, because it
# compares all 64 bits, any value with high bits set, whatever its low half.
socket errno EAFNOSUPPORT if arg0 > AF_NETLINK
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_AX25
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_IPX
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_APPLETALK
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_NETROM
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_BRIDGE
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_ATMPVC
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_X25
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_ROSE
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_DECnet
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_NETBEUI
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_SECURITY
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_KEY
socket errno EAFNOSUPPORT if arg0 == AF_NETLINK and arg2 != NETLINK_ROUTE
# SOCK_PACKET on AF_INET is the legacy spelling of a packet socket (the
# kernel turns it into AF_PACKET): refused like AF_PACKET itself.  The type
# carries SOCK_NONBLOCK and SOCK_CLOEXEC above the kernel's SOCK_TYPE_MASK
# (0xf), so only its low four bits are compared.
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_INET and arg1 & 0xf == SOCK_PACKET
socket errno EAFNOSUPPORT if arg0 & 0xffffffff == AF_INET6 and arg1 & 0xf == SOCK_PACKET
socketpair errno EAFNOSUPPORT if arg0 != AF_UNIX

# personality: only PER_LINUX and the query 0xffffffff.  The kernel reads
# an unsigned int; libseccomp cannot compare one argument twice in a rule,
# so "neither all zeros nor all ones in the low 32 bits" is written as "some
# bit is set and the bit after it, going round from bit 31 to bit 0, is
# clear": a value with both a 1 and a 0 has such a pair, 0 and 0xffffffff
# have none.  One rule per bit, 32 in all.
personality errno EPERM if arg0 & 0x3 == 0x1
personality errno EPERM if arg0 & 0x6 == 0x2
personality errno EPERM if arg0 & 0xc == 0x4
personality errno EPERM if arg0 & 0x18 == 0x8
personality errno EPERM if arg0 & 0x30 == 0x10
personality errno EPERM if arg0 & 0x60 == 0x20
personality errno EPERM if arg0 & 0xc0 == 0x40
personality errno EPERM if arg0 & 0x180 == 0x80
personality errno EPERM if arg0 & 0x300 == 0x100
personality errno EPERM if arg0 & 0x600 == 0x200
personality errno EPERM if arg0 & 0xc00 == 0x400
personality errno EPERM if arg0 & 0x1800 == 0x800
personality errno EPERM if arg0 & 0x3000 == 0x1000
personality errno EPERM if arg0 & 0x6000 == 0x2000
personality errno EPERM if arg0 & 0xc000 == 0x4000
personality errno EPERM if arg0 & 0x18000 == 0x8000
personality errno EPERM if arg0 & 0x30000 == 0x10000
personality errno EPERM if arg0 & 0x60000 == 0x20000
personality errno EPERM if arg0 & 0xc0000 == 0x40000
personality errno EPERM if arg0 & 0x180000 == 0x80000
personality errno EPERM if arg0 & 0x300000 == 0x100000
personality errno EPERM if arg0 & 0x600000 == 0x200000
personality errno EPERM if arg0 & 0xc00000 == 0x400000
personality errno EPERM if arg0 & 0x1800000 == 0x800000
personality errno EPERM if arg0 & 0x3000000 == 0x1000000
personality errno EPERM if arg0 & 0x6000000 == 0x2000000
personality errno EPERM if arg0 & 0xc000000 == 0x4000000
personality errno EPERM if arg0 & 0x18000000 == 0x8000000
personality errno EPERM if arg0 & 0x30000000 == 0x10000000
personality errno EPERM if arg0 & 0x60000000 == 0x20000000
personality errno EPERM if arg0 & 0xc0000000 == 0x40000000
personality errno EPERM if arg0 & 0x80000001 == 0x80000000
