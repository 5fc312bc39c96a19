# nsbox strict profile (see nsbox-profile(5)).
#
# An allowlist: what is not named here fails with EPERM.  It is enough for
# shells and coreutils, python3 (ssl, sqlite3, subprocess, threading,
# multiprocessing, asyncio), gcc, make and git.  Everything the default
# profile refuses stays refused: namespace flags on clone, other socket
# families, terminal injection, personality changes, and every syscall of
# the groups in groups.profile (none of them is listed below).

include groups
default errno EPERM

# chown and set*id calls naming another uid or gid than the caller's own (or
# -1) fail with EPERM instead of the user namespace's EINVAL.
unmapped-ids errno EPERM

group @strict-files
	read write readv writev pread64 pwrite64 preadv pwritev preadv2 pwritev2
	lseek close close_range dup dup2 dup3 flock
	sendfile splice tee vmsplice copy_file_range
	stat fstat lstat newfstatat statx
	access faccessat faccessat2 readlink readlinkat getdents getdents64
	rmdir unlink unlinkat rename renameat renameat2
	link linkat symlink symlinkat
	chown fchown lchown fchownat umask
	truncate ftruncate fallocate fsync fdatasync sync syncfs sync_file_range
	utime utimes utimensat futimesat statfs fstatfs fadvise64 readahead
	chdir fchdir getcwd
	getxattr lgetxattr fgetxattr listxattr llistxattr flistxattr
	setxattr lsetxattr fsetxattr removexattr lremovexattr fremovexattr
	inotify_init inotify_init1 inotify_add_watch inotify_rm_watch
end

group @strict-memory
	brk mmap munmap mremap mprotect madvise msync mincore membarrier
	mlock mlock2 munlock mlockall munlockall memfd_create
	get_mempolicy set_mempolicy mbind
end

group @strict-process
	execve execveat exit exit_group wait4 waitid fork vfork
	kill tgkill tkill pidfd_open pidfd_send_signal
	getpid getppid gettid getuid geteuid getgid getegid getresuid getresgid
	getgroups getpgid getpgrp getsid setsid setpgid
	setuid setgid setreuid setregid setresuid setresgid setgroups setfsuid setfsgid
	capget capset prctl arch_prctl
	set_tid_address set_robust_list get_robust_list rseq
	prlimit64 getrlimit setrlimit getrusage times uname sysinfo getcpu
	sched_yield sched_getaffinity sched_setaffinity sched_getparam sched_setparam
	sched_getscheduler sched_setscheduler sched_get_priority_max sched_get_priority_min
	sched_rr_get_interval getpriority setpriority ioprio_get ioprio_set
	futex futex_waitv nanosleep clock_nanosleep clock_gettime clock_getres
	gettimeofday time getrandom
	alarm pause getitimer setitimer
	timer_create timer_settime timer_gettime timer_getoverrun timer_delete
	timerfd_create timerfd_settime timerfd_gettime
end

group @strict-signals
	rt_sigaction rt_sigprocmask rt_sigreturn rt_sigsuspend rt_sigpending
	rt_sigtimedwait rt_sigqueueinfo rt_tgsigqueueinfo sigaltstack
	signalfd signalfd4 restart_syscall
end

group @strict-events
	pipe pipe2 eventfd eventfd2 poll ppoll select pselect6
	epoll_create epoll_create1 epoll_ctl epoll_wait epoll_pwait epoll_pwait2
end

group @strict-network
	connect accept accept4 bind listen getsockname getpeername
	sendto recvfrom sendmsg recvmsg sendmmsg recvmmsg shutdown
	getsockopt setsockopt
end

group @strict-ipc
	shmget shmat shmdt shmctl semget semop semtimedop semctl
	msgget msgsnd msgrcv msgctl
	mq_open mq_unlink mq_timedsend mq_timedreceive mq_notify mq_getsetattr
end

@strict-files allow
@strict-memory allow
@strict-process allow
@strict-signals allow
@strict-events allow
@strict-network allow
@strict-ipc allow

# No setuid or setgid bit, by any call (see default.profile for why):
# modes are allowed only with both bits clear, and open, openat only when
# they create nothing (no O_CREAT, no __O_TMPFILE 0x400000) or with a mode
# without the bits.  openat2's mode is out of seccomp's sight: ENOSYS, and
# libraries fall back to openat.
chmod allow if arg1 & S_ISUID|S_ISGID == 0
fchmod allow if arg1 & S_ISUID|S_ISGID == 0
fchmodat allow if arg2 & S_ISUID|S_ISGID == 0
fchmodat2 allow if arg2 & S_ISUID|S_ISGID == 0
creat allow if arg1 & S_ISUID|S_ISGID == 0
open allow if arg1 & O_CREAT|0x400000 == 0
open allow if arg2 & S_ISUID|S_ISGID == 0
openat allow if arg2 & O_CREAT|0x400000 == 0
openat allow if arg3 & S_ISUID|S_ISGID == 0
# quiet: openat2 is probed and replaced by openat (its RESOLVE_ flags
# live in memory seccomp cannot read); an expected fallback, not a finding.
openat2 errno ENOSYS quiet
mkdir allow if arg1 & S_ISUID|S_ISGID == 0
mkdirat allow if arg2 & S_ISUID|S_ISGID == 0
mknod allow if arg1 & S_ISUID|S_ISGID == 0
mknodat allow if arg2 & S_ISUID|S_ISGID == 0

# fcntl: every command but F_SETLEASE (1024) and F_NOTIFY (1026).  The
# command is an unsigned int; each rule covers a block of low-32-bit values:
# 0..1023, 1025 (F_GETLEASE), 1027, 1028..1031, 1032..1039 and 1040..1055
# (the kernel's commands end at 1040 today).  Larger values answer EPERM.
fcntl allow if arg1 & 0xfffffc00 == 0
fcntl allow if arg1 & 0xffffffff == F_GETLEASE
fcntl allow if arg1 & 0xffffffff == 1027
fcntl allow if arg1 & 0xfffffffc == 1028
fcntl allow if arg1 & 0xfffffff8 == 1032
fcntl allow if arg1 & 0xfffffff0 == 1040

# clone only without namespace flags; clone3 answers ENOSYS so libc uses clone.
clone allow if arg0 & CLONE_NEWNS|CLONE_NEWCGROUP|CLONE_NEWUTS|CLONE_NEWIPC|CLONE_NEWUSER|CLONE_NEWPID|CLONE_NEWNET == 0
# quiet: libc tries clone3 on every thread and fork and falls back to
# clone by design; reporting it would only be noise (nsbox-profile(5)).
clone3 errno ENOSYS quiet

# Sockets: local, IP and NETLINK_ROUTE (getaddrinfo, getifaddrs).  Full
# 64-bit equality: a value with high bits set matches nothing here.  IP
# sockets only of types 0..7 (stream, datagram, raw, seqpacket...): that
# leaves out SOCK_PACKET (10), the legacy packet socket.  The mask tests
# bit 3 of the type only, so SOCK_NONBLOCK and SOCK_CLOEXEC stay allowed.
socket allow if arg0 == AF_UNIX
socket allow if arg0 == AF_INET and arg1 & 0x8 == 0
socket allow if arg0 == AF_INET6 and arg1 & 0x8 == 0
socket allow if arg0 == AF_NETLINK and arg2 == NETLINK_ROUTE
socketpair allow if arg0 == AF_UNIX

# personality: only PER_LINUX and the query.
personality allow if arg0 == PER_LINUX
personality allow if arg0 == 0xffffffff

# ioctl: terminal state, non-blocking and close-on-exec flags, reflink
# copies.  The request is an unsigned int: compare its low 32 bits.
ioctl allow if arg1 & 0xffffffff == TCGETS
ioctl allow if arg1 & 0xffffffff == TCSETS
ioctl allow if arg1 & 0xffffffff == TCSETSW
ioctl allow if arg1 & 0xffffffff == TCSETSF
ioctl allow if arg1 & 0xffffffff == TCFLSH
ioctl allow if arg1 & 0xffffffff == TCSBRK
ioctl allow if arg1 & 0xffffffff == TCXONC
ioctl allow if arg1 & 0xffffffff == TIOCGWINSZ
ioctl allow if arg1 & 0xffffffff == TIOCSWINSZ
ioctl allow if arg1 & 0xffffffff == TIOCGPGRP
ioctl allow if arg1 & 0xffffffff == TIOCSPGRP
ioctl allow if arg1 & 0xffffffff == TIOCGSID
ioctl allow if arg1 & 0xffffffff == TIOCOUTQ
ioctl allow if arg1 & 0xffffffff == TIOCGPTN
ioctl allow if arg1 & 0xffffffff == TIOCSPTLCK
ioctl allow if arg1 & 0xffffffff == TIOCGPTPEER
ioctl allow if arg1 & 0xffffffff == FIONREAD
ioctl allow if arg1 & 0xffffffff == FIONBIO
ioctl allow if arg1 & 0xffffffff == FIOCLEX
ioctl allow if arg1 & 0xffffffff == FIONCLEX
ioctl allow if arg1 & 0xffffffff == FIOASYNC
ioctl allow if arg1 & 0xffffffff == FICLONE
ioctl allow if arg1 & 0xffffffff == FICLONERANGE
ioctl allow if arg1 & 0xffffffff == FS_IOC_GETFLAGS
