// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --seccomp-learn's profile writer and merge (supervisor/learn.h): the file
 * parses as a profile, allows exactly what was used, groups a wholly used
 * built-in group inline, and a second learning merges into it.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "supervisor/learn.h"

static struct nsb_learned *learned(void)
{
	struct nsb_learned *l = calloc(1, sizeof(*l));

	cr_assert(l != NULL);
	l->runs = 1;
	return l;
}

static void use(struct nsb_learned *l, int nr, uint64_t n)
{
	l->used[nr] = true;
	l->counts[nr] += n;
}

/* Write l to a temporary file; its path (static). */
static const char *write_file(const struct nsb_learned *l, const char *what)
{
	static char path[] = "/tmp/nsbox-learn-XXXXXX";
	struct nsb_error e = {0};

	strcpy(path, "/tmp/nsbox-learn-XXXXXX");
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	cr_assert(f != NULL);
	cr_assert(eq(int, nsb_learn_write(f, l, what, &e), 0), "%s", e.message);
	cr_assert(eq(int, fclose(f), 0));
	return path;
}

static bool allowed(const struct nsb_profile *p, int nr)
{
	for (size_t i = 0; i < p->n_rules; i++)
		if (p->rules[i].nr == nr && p->rules[i].action.kind == NSB_ACTION_ALLOW)
			return true;
	return false;
}

Test(learn, the_file_is_a_profile_of_what_was_used)
{
	struct nsb_learned *l = learned();
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};

	use(l, SYS_read, 12);
	use(l, SYS_execve, 1);
	/* every syscall of @keyring */
	use(l, SYS_add_key, 1);
	use(l, SYS_keyctl, 2);
	use(l, SYS_request_key, 3);
	const char *path = write_file(l, "python3 script.py");

	char *text = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r");
	cr_assert(f != NULL);
	cr_assert(getdelim(&text, &len, '\0', f) > 0);
	fclose(f);
	cr_expect(strstr(text, "from 1 run, the last: python3 script.py\n") != NULL, "%s", text);
	cr_expect(strstr(text, "\ndefault errno EPERM\n") != NULL, "%s", text);
	cr_expect(strstr(text, "\nread allow # 12 calls\n") != NULL, "%s", text);
	cr_expect(strstr(text, "\nexecve allow # 1 call\n") != NULL, "%s", text);
	cr_expect(strstr(text, "group @keyring\n") != NULL, "%s", text);
	cr_expect(strstr(text, "(6 calls)") != NULL, "%s", text);
	cr_expect(strstr(text, "\nkeyctl allow") == NULL, "grouped twice: %s", text);
	cr_expect(strstr(text, "# nsbox-learn: runs=1 read=12") != NULL, "%s", text);
	free(text);

	cr_assert(eq(int, nsb_profile_load(path, &p, &e), 0), "%s", e.message);
	cr_expect(eq(int, (int)p->default_action.kind, (int)NSB_ACTION_ERRNO));
	cr_expect(allowed(p, SYS_read) && allowed(p, SYS_execve) && allowed(p, SYS_keyctl));
	/* nsbox's own handoff is always there */
	cr_expect(allowed(p, SYS_sendmsg) && allowed(p, SYS_close));
	cr_expect(not(allowed(p, SYS_mount)));
	nsb_profile_free(p);
	unlink(path);
	free(l);
}

Test(learn, a_second_run_merges_into_the_file)
{
	struct nsb_learned *l = learned(), *m = learned();
	struct nsb_error e = {0};

	use(l, SYS_read, 5);
	use(l, SYS_keyctl, 1); /* @keyring only in part: its own line */
	const char *path = write_file(l, "first");

	m->runs = 1;
	use(m, SYS_read, 2);
	use(m, SYS_write, 3);
	cr_assert(eq(int, nsb_learn_merge(path, m, &e), 0), "%s", e.message);
	cr_expect(eq(u32, m->runs, 2));
	cr_expect(eq(u64, m->counts[SYS_read], 7));
	cr_expect(eq(u64, m->counts[SYS_write], 3));
	cr_expect(m->used[SYS_keyctl]);
	cr_expect(eq(u64, m->counts[SYS_keyctl], 1));
	cr_expect(m->used[SYS_sendmsg] && m->used[SYS_close]);
	cr_expect(not(m->used[SYS_mount]));
	unlink(path);
	free(l);
	free(m);
}

Test(learn, no_file_merges_nothing_and_a_broken_one_is_an_error)
{
	struct nsb_learned *l = learned();
	struct nsb_error e = {0};

	cr_expect(eq(int, nsb_learn_merge("/nonexistent/learned.profile", l, &e), 0));
	cr_expect(eq(u32, l->runs, 1));

	char path[] = "/tmp/nsbox-learn-bad-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert(write(fd, "nonsense here\n", 14) == 14);
	close(fd);
	cr_expect(nsb_learn_merge(path, l, &e) < 0);
	cr_expect(strstr(e.hint, "fix or remove") != NULL, "%s", e.hint);
	unlink(path);
	free(l);
}

Test(learn, the_program_notifies_all_but_the_handoff)
{
	struct nsb_bpf b = {0};
	struct nsb_error e = {0};
	struct seccomp_data d = {.arch = nsb_seccomp_arch(), .nr = SYS_read};

	cr_assert(eq(int, nsb_seccomp_learn_program(&b, &e), 0));
	cr_expect(b.learn && b.notify);
	cr_expect(eq(u32, nsb_bpf_eval(b.insns, b.n_insns, &d), SECCOMP_RET_USER_NOTIF));
	d.nr = SYS_sendmsg;
	cr_expect(eq(u32, nsb_bpf_eval(b.insns, b.n_insns, &d), SECCOMP_RET_ALLOW));
	d.nr = SYS_close;
	cr_expect(eq(u32, nsb_bpf_eval(b.insns, b.n_insns, &d), SECCOMP_RET_ALLOW));
	d.nr = 0x40000000 | SYS_read;
	cr_expect(eq(u32, nsb_bpf_eval(b.insns, b.n_insns, &d), SECCOMP_RET_ERRNO | ENOSYS));
	d.arch = 0x40000003; /* i386 */
	d.nr = SYS_read;
	cr_expect(eq(u32, nsb_bpf_eval(b.insns, b.n_insns, &d), SECCOMP_RET_ERRNO | ENOSYS));
	nsb_bpf_free(&b);
}
