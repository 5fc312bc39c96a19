# nsbox syscall groups (see nsbox-profile(5)).
#
# Named sets of x86_64 syscalls for other profiles to `include groups` and
# use as @name.  This file defines groups only: no default, no rules.
# Membership is nsbox's own, chosen from the kernel's x86_64 syscall table.

# Attach, detach and rearrange filesystems: the legacy call, the new mount
# API, and the two ways of changing a process's root.
group @mount
	mount umount2 pivot_root chroot
	fsopen fsconfig fsmount fspick move_mount open_tree mount_setattr
end

# Loading and unloading kernel code.
group @module
	init_module finit_module delete_module
end

# Direct access to I/O ports.
group @raw-io
	ioperm iopl
end

# Ending or replacing the running kernel.
group @reboot
	reboot kexec_load kexec_file_load
end

# Swap devices.
group @swap
	swapon swapoff
end

# The kernel keyring, shared by every process of a user.
group @keyring
	add_key keyctl request_key
end

# Setting the system clock.
group @clock
	adjtimex clock_adjtime clock_settime settimeofday
end

# Looking into, or reaching into, another process.
group @debug
	ptrace process_vm_readv process_vm_writev perf_event_open pidfd_getfd
	lookup_dcookie
end

# Emulating other CPU modes (only the LDT on x86_64).
group @cpu-emulation
	modify_ldt
end

# Entries the kernel keeps only as numbers, or that answer ENOSYS anyway.
group @obsolete
	_sysctl afs_syscall create_module get_kernel_syms getpmsg putpmsg
	query_module security tuxcall uselib ustat vserver sysfs nfsservctl
end

# io_uring: a second syscall surface that seccomp cannot see into.
group @io-uring
	io_uring_setup io_uring_enter io_uring_register
end

# Operations that are the administrator's, not a sandboxed program's:
# accounting, quotas, the kernel log, file handles that bypass path checks,
# host and domain names, namespace entry, eBPF and fanotify.  @clock is left
# out: adjtimex with no modes is an ordinary read of the clock state, and
# setting the clock already needs CAP_SYS_TIME in the initial namespace.
group @privileged
	@module @raw-io @reboot @swap
	acct quotactl quotactl_fd syslog open_by_handle_at
	sethostname setdomainname setns bpf fanotify_init vhangup
end
