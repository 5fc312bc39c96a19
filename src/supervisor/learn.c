// SPDX-License-Identifier: GPL-2.0-or-later
/* --seccomp-learn: the observing program, and the profile a run's counts make (learn.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <seccomp.h>

#include "base/fmt.h"
#include "base/sha256.h"
#include "base/util.h"
#include "seccomp/builtin.h"
#include "supervisor/learn.h"

#define LEARN_LINE "# nsbox-learn:"

int nsb_seccomp_learn_program(struct nsb_bpf *ret, struct nsb_error *e)
{
	const struct sock_filter prog[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nsb_seccomp_arch(), 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
		/* x32 numbers (bit 30): another ABI, as the profiles treat it */
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
#endif
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_sendmsg, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_close, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct nsb_bpf b = {0};

	b.insns = malloc(sizeof(prog));
	if (!b.insns)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PROFILE, "the learning filter");
	memcpy(b.insns, prog, sizeof(prog));
	b.n_insns = ARRAY_SIZE(prog);
	b.notify = true;
	b.learn = true;
	b.profile = strdup("learn");
	if (!b.profile) {
		free(b.insns);
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PROFILE, "the learning filter");
	}
	nsb_format(b.default_action, sizeof(b.default_action), "allow");
	nsb_sha256_hex(b.insns, sizeof(prog), b.sha256);
	*ret = b;
	return 0;
}

static char *syscall_name(int nr)
{
	return seccomp_syscall_resolve_num_arch(nsb_seccomp_arch(), nr);
}

/* "# nsbox-learn: runs=2 read=12 write=3" lines: what earlier runs counted. */
static void merge_counts(FILE *f, struct nsb_learned *l)
{
	char line[1100];
	unsigned runs = 0;

	while (fgets(line, sizeof(line), f)) {
		char *save = NULL;
		if (strncmp(line, LEARN_LINE, strlen(LEARN_LINE)) != 0)
			continue;
		for (char *tok = strtok_r(line + strlen(LEARN_LINE), " \n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save)) {
			char *eq = strchr(tok, '=');
			if (!eq)
				continue;
			*eq = '\0';
			uint64_t n = nsb_strtoull10(eq + 1, NULL);
			if (strcmp(tok, "runs") == 0) {
				runs = n < 1000000 ? (unsigned)n : 1000000;
				continue;
			}
			int nr = seccomp_syscall_resolve_name_arch(nsb_seccomp_arch(), tok);
			if (nr >= 0 && nr < NSB_LEARN_MAX_NR) {
				l->used[nr] = true;
				l->counts[nr] += n;
			}
		}
	}
	l->runs += runs ? runs : 1;
}

int nsb_learn_merge(const char *path, struct nsb_learned *l, struct nsb_error *e)
{
	_cleanup_(nsb_profile_freep) struct nsb_profile *p = NULL;
	struct stat st;
	int r;

	if (stat(path, &st) < 0 && errno == ENOENT)
		return 0;
	r = nsb_profile_load(path, &p, e);
	if (r < 0)
		return nsb_error_hint(
			e, "--seccomp-learn merges into an existing FILE: fix or remove '%s'",
			path);
	/* Every unconditional allow of the file stays allowed, hand-written
	 * ones included. */
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct nsb_rule *rule = &p->rules[i];
		if (rule->action.kind == NSB_ACTION_ALLOW && rule->n_conds == 0 && rule->nr >= 0 &&
		    rule->nr < NSB_LEARN_MAX_NR)
			l->used[rule->nr] = true;
	}
	FILE *f = fopen(path, "re");
	if (!f)
		return nsb_error_set(e, -errno, NSB_STAGE_PROFILE, "--seccomp-learn '%s'", path);
	merge_counts(f, l);
	fclose(f);
	return 0;
}

/* nsbox's built-in groups (the `groups` text), parsed. */
static int builtin_groups(struct nsb_profile **ret, struct nsb_error *e)
{
	const struct nsb_builtin_profile *bp = nsb_builtin_profile("groups");

	if (!bp)
		return nsb_error_setx(e, -ENOENT, NSB_STAGE_PROFILE, "no built-in groups");
	/* The groups file has definitions only: a default makes it a profile. */
	static const char head[] = "default allow\n";
	_cleanup_free_ char *text = malloc(sizeof(head) + bp->text_len);
	if (!text)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PROFILE, "read the built-in groups");
	memcpy(text, head, sizeof(head) - 1);
	memcpy(text + sizeof(head) - 1, bp->text, bp->text_len);
	FILE *f = fmemopen(text, sizeof(head) - 1 + bp->text_len, "r");
	if (!f)
		return nsb_error_set(e, -errno, NSB_STAGE_PROFILE, "read the built-in groups");
	int r = nsb_profile_parse(f, "groups", NULL, NULL, ret, e);
	fclose(f);
	return r;
}

/* A group every syscall of which was used: defined inline (the file must
 * stand alone) and allowed as a whole. */
static void write_group(FILE *out, const struct nsb_group *g, const struct nsb_learned *l,
			bool *covered)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < g->n_nrs; i++)
		sum += l->counts[g->nrs[i]];
	fprintf(out,
		"\n# %s: every syscall of nsbox's group was used (%" PRIu64 " calls)\ngroup %s\n",
		g->name, sum, g->name);
	for (size_t i = 0; i < g->n_nrs; i++) {
		char *name = syscall_name(g->nrs[i]);
		fprintf(out, "\t%s\n", name ? name : "?");
		free(name);
		covered[g->nrs[i]] = true;
	}
	fprintf(out, "end\n%s allow\n", g->name);
}

static bool whole_group(const struct nsb_group *g, const struct nsb_learned *l)
{
	if (g->n_nrs < 2)
		return false;
	for (size_t i = 0; i < g->n_nrs; i++)
		if (g->nrs[i] < 0 || g->nrs[i] >= NSB_LEARN_MAX_NR || !l->used[g->nrs[i]])
			return false;
	return true;
}

/* The counts again, for the next merge, in lines the parser skips. */
static void write_counts(FILE *out, const struct nsb_learned *l)
{
	int len = fprintf(out, "\n%s runs=%u", LEARN_LINE, l->runs);

	for (int nr = 0; nr < NSB_LEARN_MAX_NR; nr++) {
		if (!l->used[nr])
			continue;
		char *name = syscall_name(nr);
		if (!name)
			continue;
		if (len > 900)
			len = fprintf(out, "\n%s", LEARN_LINE);
		len += fprintf(out, " %s=%" PRIu64, name, l->counts[nr]);
		free(name);
	}
	fputc('\n', out);
}

int nsb_learn_write(FILE *out, const struct nsb_learned *l, const char *what, struct nsb_error *e)
{
	_cleanup_(nsb_profile_freep) struct nsb_profile *groups = NULL;
	bool covered[NSB_LEARN_MAX_NR] = {false};
	int r = builtin_groups(&groups, e);

	if (r < 0)
		return r;
	if (!groups)
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_PROFILE, "no built-in groups");
	fprintf(out,
		"# Learned by nsbox --seccomp-learn from %u run%s, the last: %s\n"
		"# It covers only the paths those runs took: a branch they never reached\n"
		"# may need a syscall that is refused here (it shows in the record's\n"
		"# violations).  Learn again into this file to add a run's syscalls.\n"
		"default errno EPERM\n"
		"\n# nsbox's own: init hands the seccomp listener to the supervisor with these.\n"
		"sendmsg allow\nclose allow\n",
		l->runs, l->runs == 1 ? "" : "s", what);
	covered[SYS_sendmsg] = covered[SYS_close] = true;
	for (size_t i = 0; i < groups->n_groups; i++)
		if (whole_group(&groups->groups[i], l))
			write_group(out, &groups->groups[i], l, covered);
	fputc('\n', out);
	for (int nr = 0; nr < NSB_LEARN_MAX_NR; nr++) {
		if (!l->used[nr] || covered[nr])
			continue;
		char *name = syscall_name(nr);
		if (name)
			fprintf(out, "%s allow # %" PRIu64 " call%s\n", name, l->counts[nr],
				l->counts[nr] == 1 ? "" : "s");
		free(name);
	}
	if (l->other)
		fprintf(out, "# %" PRIu64 " calls of numbers past %d were not recorded\n", l->other,
			NSB_LEARN_MAX_NR);
	write_counts(out, l);
	if (ferror(out))
		return nsb_error_set(e, -EIO, NSB_STAGE_PROFILE, "write the learned profile");
	return 0;
}
