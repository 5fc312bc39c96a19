// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nouserns COMMAND [ARG...]: run COMMAND where user namespaces are refused
 * the way container runtimes refuse them, by a seccomp filter: unshare and
 * clone with CLONE_NEWUSER fail with EPERM, clone3 (whose flags seccomp
 * cannot read) with ENOSYS.  For the tests of --isolation and nsbox doctor;
 * static, like the probe, so that it runs anywhere.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if !defined(__x86_64__)
#error "nouserns knows x86-64 only"
#endif

#define ERRNO(x) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (x))

int main(int argc, char **argv)
{
	struct sock_filter prog[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1),
		ERRNO(ENOSYS),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_unshare, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 3),
		/* The flags: the low word of args[0] on little-endian. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER, 0, 1),
		ERRNO(EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog fp = {.len = sizeof(prog) / sizeof(prog[0]), .filter = prog};

	if (argc < 2) {
		fprintf(stderr, "usage: nouserns COMMAND [ARG...]\n");
		return 125;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp) < 0) {
		fprintf(stderr, "nouserns: install the filter: %s\n", strerror(errno));
		return 125;
	}
	execv(argv[1], argv + 1);
	fprintf(stderr, "nouserns: exec '%s': %s\n", argv[1], strerror(errno));
	return 127;
}
