# nsbox default profile (see nsbox-profile(5)).
#
# Everything is allowed except what lets a process leave or reshape its
# sandbox, reach into other processes, or use kernel interfaces that no
# sandboxed program needs and that have a long record of bugs.  Syscalls
# that exist only on another ABI (x32 numbers, the i386 int 0x80 entry) are
# refused before any rule is looked at: the filter only knows x86_64.

include groups
default allow

# Mounts and roots: the sandbox's filesystem view is final.
@mount errno EPERM

# Namespaces: no new user namespace (the door to capabilities inside it), no
# new mount, PID, network, IPC, UTS, cgroup or time namespace.  clone3 passes
# its flags in memory that seccomp cannot read, so it answers ENOSYS and libc
# falls back to clone, whose flags are checked here.  clone's flags are an
# unsigned long but the kernel reads only the low 32 bits: each mask below
# has no high bits, so high garbage cannot hide a flag.
clone3 errno ENOSYS
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
socketpair errno EAFNOSUPPORT if arg0 != AF_UNIX

# personality: only PER_LINUX and the query 0xffffffff.  The kernel reads
# an unsigned int; libseccomp cannot compare one argument twice in a rule,
# so "neither all zeros nor all ones in the low 32 bits" is written as "two
# neighbouring bits differ": one pair of rules per pair of bits.
personality errno EPERM if arg0 & 0x3 == 0x1
personality errno EPERM if arg0 & 0x3 == 0x2
personality errno EPERM if arg0 & 0x6 == 0x2
personality errno EPERM if arg0 & 0x6 == 0x4
personality errno EPERM if arg0 & 0xc == 0x4
personality errno EPERM if arg0 & 0xc == 0x8
personality errno EPERM if arg0 & 0x18 == 0x8
personality errno EPERM if arg0 & 0x18 == 0x10
personality errno EPERM if arg0 & 0x30 == 0x10
personality errno EPERM if arg0 & 0x30 == 0x20
personality errno EPERM if arg0 & 0x60 == 0x20
personality errno EPERM if arg0 & 0x60 == 0x40
personality errno EPERM if arg0 & 0xc0 == 0x40
personality errno EPERM if arg0 & 0xc0 == 0x80
personality errno EPERM if arg0 & 0x180 == 0x80
personality errno EPERM if arg0 & 0x180 == 0x100
personality errno EPERM if arg0 & 0x300 == 0x100
personality errno EPERM if arg0 & 0x300 == 0x200
personality errno EPERM if arg0 & 0x600 == 0x200
personality errno EPERM if arg0 & 0x600 == 0x400
personality errno EPERM if arg0 & 0xc00 == 0x400
personality errno EPERM if arg0 & 0xc00 == 0x800
personality errno EPERM if arg0 & 0x1800 == 0x800
personality errno EPERM if arg0 & 0x1800 == 0x1000
personality errno EPERM if arg0 & 0x3000 == 0x1000
personality errno EPERM if arg0 & 0x3000 == 0x2000
personality errno EPERM if arg0 & 0x6000 == 0x2000
personality errno EPERM if arg0 & 0x6000 == 0x4000
personality errno EPERM if arg0 & 0xc000 == 0x4000
personality errno EPERM if arg0 & 0xc000 == 0x8000
personality errno EPERM if arg0 & 0x18000 == 0x8000
personality errno EPERM if arg0 & 0x18000 == 0x10000
personality errno EPERM if arg0 & 0x30000 == 0x10000
personality errno EPERM if arg0 & 0x30000 == 0x20000
personality errno EPERM if arg0 & 0x60000 == 0x20000
personality errno EPERM if arg0 & 0x60000 == 0x40000
personality errno EPERM if arg0 & 0xc0000 == 0x40000
personality errno EPERM if arg0 & 0xc0000 == 0x80000
personality errno EPERM if arg0 & 0x180000 == 0x80000
personality errno EPERM if arg0 & 0x180000 == 0x100000
personality errno EPERM if arg0 & 0x300000 == 0x100000
personality errno EPERM if arg0 & 0x300000 == 0x200000
personality errno EPERM if arg0 & 0x600000 == 0x200000
personality errno EPERM if arg0 & 0x600000 == 0x400000
personality errno EPERM if arg0 & 0xc00000 == 0x400000
personality errno EPERM if arg0 & 0xc00000 == 0x800000
personality errno EPERM if arg0 & 0x1800000 == 0x800000
personality errno EPERM if arg0 & 0x1800000 == 0x1000000
personality errno EPERM if arg0 & 0x3000000 == 0x1000000
personality errno EPERM if arg0 & 0x3000000 == 0x2000000
personality errno EPERM if arg0 & 0x6000000 == 0x2000000
personality errno EPERM if arg0 & 0x6000000 == 0x4000000
personality errno EPERM if arg0 & 0xc000000 == 0x4000000
personality errno EPERM if arg0 & 0xc000000 == 0x8000000
personality errno EPERM if arg0 & 0x18000000 == 0x8000000
personality errno EPERM if arg0 & 0x18000000 == 0x10000000
personality errno EPERM if arg0 & 0x30000000 == 0x10000000
personality errno EPERM if arg0 & 0x30000000 == 0x20000000
personality errno EPERM if arg0 & 0x60000000 == 0x20000000
personality errno EPERM if arg0 & 0x60000000 == 0x40000000
personality errno EPERM if arg0 & 0xc0000000 == 0x40000000
personality errno EPERM if arg0 & 0xc0000000 == 0x80000000
