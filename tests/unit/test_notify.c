// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reported refusals (issue 13), the pure parts: the `quiet` modifier, the
 * compiled program's USER_NOTIF returns carrying their errno, the
 * supervisor's BPF interpreter that reads them back, the plain form for
 * kernels without a listener, the caller's in-sandbox pid from
 * /proc/PID/status, the summary line and the record's entries.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/seccomp.h>

#include "core/result.h"
#include "seccomp/builtin.h"
#include "seccomp/filter.h"
#include "supervisor/notify.h"

#define EXPECT_STR(got, want) \
	cr_expect(strcmp((got), (want)) == 0, "'%s', expected '%s'", (got), (want))
#define NOTIFY(e) (SECCOMP_RET_USER_NOTIF | (e))
#define ERRNO(e)  (SECCOMP_RET_ERRNO | (e))

static struct nsb_bpf load(const char *name)
{
	struct nsb_bpf b = {0};
	struct nsb_error e = {0};

	cr_assert(eq(int, nsb_seccomp_load(name, &b, &e), 0), "%s", e.message);
	return b;
}

static uint32_t eval(const struct nsb_bpf *b, uint32_t arch, int nr, uint64_t a0)
{
	struct seccomp_data d = {.nr = nr, .arch = arch, .args = {a0}};

	return nsb_bpf_eval(b->insns, b->n_insns, &d);
}

static int parse_text(const char *text, struct nsb_profile **ret, struct nsb_error *e)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	cr_assert(f != NULL);
	int r = nsb_profile_parse(f, "mem.profile", NULL, NULL, ret, e);
	fclose(f);
	return r;
}

Test(notify, default_reports_its_errno_rules_and_keeps_quiet_ones_in_the_kernel)
{
	struct nsb_bpf b = load("default");

	cr_expect(b.notify);
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_mount, 0), NOTIFY(EPERM)));
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_unshare, 0x10000000), NOTIFY(EPERM)));
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_unshare, 0), SECCOMP_RET_ALLOW));
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_getpid, 0), SECCOMP_RET_ALLOW));
	/* quiet: answered by the kernel, never notified */
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_clone3, 0), ERRNO(ENOSYS)));
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_openat2, 0), ERRNO(ENOSYS)));
	/* a foreign ABI stays in the kernel */
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_I386, 1, 0), ERRNO(ENOSYS)));
	nsb_bpf_free(&b);
}

Test(notify, strict_reports_its_default)
{
	struct nsb_bpf b = load("strict");

	cr_expect(b.notify);
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_personality, 0x400000), NOTIFY(EPERM)));
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_personality, 0xffffffff),
		     SECCOMP_RET_ALLOW));
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_read, 0), SECCOMP_RET_ALLOW));
	nsb_bpf_free(&b);
}

Test(notify, the_builtin_table_says_it_notifies)
{
	/* Compiled at build time (profile_embed) with the same flag. */
	cr_expect(nsb_builtin_profile("default")->notify);
	cr_expect(nsb_builtin_profile("strict")->notify);
}

Test(notify, unnotify_gives_the_plain_errno_program)
{
	struct nsb_bpf b = load("default");

	cr_expect(nsb_seccomp_unnotify(b.insns, b.n_insns) > 0);
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_mount, 0), ERRNO(EPERM)));
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_getpid, 0), SECCOMP_RET_ALLOW));
	cr_expect(eq(sz, nsb_seccomp_unnotify(b.insns, b.n_insns), 0));
	nsb_bpf_free(&b);
}

Test(notify, a_malformed_program_answers_kill)
{
	struct seccomp_data d = {.nr = 1};
	struct sock_filter past_end[] = {
		BPF_JUMP(BPF_JMP | BPF_JA, 5, 0, 0),
	};
	struct sock_filter bad_load[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 4096),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_filter div0[] = {
		BPF_STMT(BPF_LD | BPF_IMM, 1),
		BPF_STMT(BPF_ALU | BPF_DIV | BPF_K, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_filter ok[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_STMT(BPF_ST, 3),
		BPF_STMT(BPF_LDX | BPF_MEM, 3),
		BPF_STMT(BPF_MISC | BPF_TXA, 0),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 1),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, NOTIFY(EACCES)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	cr_expect(eq(u32, nsb_bpf_eval(past_end, 1, &d), SECCOMP_RET_KILL_PROCESS));
	cr_expect(eq(u32, nsb_bpf_eval(bad_load, 2, &d), SECCOMP_RET_KILL_PROCESS));
	cr_expect(eq(u32, nsb_bpf_eval(div0, 3, &d), SECCOMP_RET_KILL_PROCESS));
	cr_expect(eq(u32, nsb_bpf_eval(ok, 8, &d), NOTIFY(EACCES)));
	d.nr = 2;
	cr_expect(eq(u32, nsb_bpf_eval(ok, 8, &d), SECCOMP_RET_ALLOW));
}

Test(notify, quiet_is_parsed_formatted_and_kept_apart)
{
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};
	char buf[64];

	cr_assert(eq(int,
		     parse_text("default errno EPERM quiet\nmount errno EACCES\n"
				"keyctl errno EPERM if arg0 == 1\n",
				&p, &e),
		     0),
		  "%s", e.message);
	cr_expect(p->default_action.quiet);
	cr_expect(not(p->rules[0].action.quiet));
	/* the same errno, reported: another action than the quiet default */
	cr_expect(not(p->rules[1].action.quiet));
	nsb_action_format(&p->default_action, buf, sizeof(buf));
	EXPECT_STR(buf, "errno EPERM quiet");

	struct nsb_bpf b = {0};
	cr_assert(eq(int, nsb_seccomp_compile(p, &b, &e), 0), "%s", e.message);
	cr_expect(b.notify);
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_getpid, 0), ERRNO(EPERM)));
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_mount, 0), NOTIFY(EACCES)));
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_keyctl, 1), NOTIFY(EPERM)));
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_keyctl, 2), ERRNO(EPERM)));
	nsb_bpf_free(&b);
	nsb_profile_free(p);
}

Test(notify, quiet_only_follows_errno)
{
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};

	cr_expect(parse_text("default allow\nmount kill quiet\n", &p, &e) < 0);
	cr_expect(strstr(e.message, "quiet") != NULL, "%s", e.message);
	nsb_profile_free(p);
}

Test(notify, a_profile_without_errno_rules_notifies_nothing)
{
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};
	struct nsb_bpf b = {0};

	cr_assert(eq(int, parse_text("default allow\nmount kill\n", &p, &e), 0), "%s", e.message);
	cr_assert(eq(int, nsb_seccomp_compile(p, &b, &e), 0), "%s", e.message);
	cr_expect(not(b.notify));
	nsb_bpf_free(&b);
	nsb_profile_free(p);
}

Test(notify, the_caller_is_named_as_seen_inside)
{
	int pid;
	char comm[16];

	nsb_notify_parse_status("Name:\tmake\nUmask:\t0022\nState:\tR (running)\nTgid:\t4242\n"
				"NStgid:\t4242\t7\nPid:\t4243\nNSpid:\t4243\t8\n",
				&pid, comm, sizeof(comm));
	cr_expect(eq(int, pid, 7));
	EXPECT_STR(comm, "make");
	nsb_notify_parse_status("Name:\ta-very-long-command-name\nNStgid:\t12\n", &pid, comm,
				sizeof(comm));
	cr_expect(eq(int, pid, 12));
	EXPECT_STR(comm, "a-very-long-com");
	nsb_notify_parse_status("garbage", &pid, comm, sizeof(comm));
	cr_expect(eq(int, pid, -1));
	EXPECT_STR(comm, "");
}

static struct nsb_seccomp_violation sample = {
	.syscall = "mount",
	.nr = 165,
	.action = "errno EPERM",
	.count = 3,
	.pid = 2,
	.comm = "probe",
	.args = {1, 2, 3, 0, 0, 18446744073709551615ULL},
	.ms = 12,
};

Test(notify, the_summary_line_names_what_was_refused)
{
	struct nsb_notify nt = {.fd = -1, .ent = &sample, .n_ent = 1, .total = 5, .unlisted = 2};
	char buf[512];

	cr_assert(eq(int, nsb_notify_summary(&nt, buf, sizeof(buf)), 1));
	EXPECT_STR(buf, "nsbox: seccomp refused 5 calls: mount x3 (errno EPERM), 2 more "
			"(\"violations\" in the record; --quiet hides this line)");
	/* cut, never overrun */
	cr_assert(eq(int, nsb_notify_summary(&nt, buf, 20), 1));
	cr_expect(eq(sz, strlen(buf), 19));
	nt.total = 0;
	cr_expect(eq(int, nsb_notify_summary(&nt, buf, sizeof(buf)), 0));
}

Test(notify, the_record_lists_each_entry_and_the_unlisted_count)
{
	struct nsb_result r;
	char *json = NULL;
	size_t len = 0;

	nsb_result_init(&r);
	r.seccomp_violations = &sample;
	r.n_seccomp_violations = 1;
	r.seccomp_unlisted = 9;
	r.has_violations_reporting = true;
	r.violations_reporting = true;
	cr_assert(eq(int, nsb_result_to_json(&r, &json, &len), 0));
	cr_expect(strstr(json,
			 "\"violations\":[{\"kind\":\"seccomp\",\"syscall\":\"mount\",\"nr\":165,"
			 "\"action\":\"errno EPERM\",\"count\":3,\"first\":{\"pid\":2,\"comm\":"
			 "\"probe\",\"args\":[1,2,3,0,0,18446744073709551615],\"ms\":12}},"
			 "{\"kind\":\"seccomp_unlisted\",\"count\":9}],"
			 "\"violations_reporting\":true,\"violations_reporting_reason\":null") !=
			  NULL,
		  "%s", json);
	free(json);
}

Test(notify, a_profile_refusing_the_handoff_is_installed_plain)
{
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};
	struct nsb_bpf b = {0};

	cr_assert(eq(int,
		     parse_text("default allow\nclose errno EPERM\nmount errno EPERM\n", &p, &e),
		     0),
		  "%s", e.message);
	cr_assert(eq(int, nsb_seccomp_compile(p, &b, &e), 0), "%s", e.message);
	cr_expect(b.notify);
	nsb_seccomp_keep_handoff(&b);
	cr_expect(not(b.notify));
	cr_expect(b.handoff_refused);
	cr_expect(eq(u32, eval(&b, AUDIT_ARCH_X86_64, SYS_mount, 0), ERRNO(EPERM)));
	nsb_bpf_free(&b);
	nsb_profile_free(p);

	/* the built-in profiles allow both */
	b = load("strict");
	nsb_seccomp_keep_handoff(&b);
	cr_expect(b.notify);
	cr_expect(not(b.handoff_refused));
	nsb_bpf_free(&b);
}
