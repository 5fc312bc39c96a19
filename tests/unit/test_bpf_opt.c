// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsb_bpf_optimize (seccomp/bpf_opt.c): the shortened program must answer
 * every seccomp_data as libseccomp's does.  Evidence: the shipped profiles
 * and every fixture profile, compiled both ways and run (nsb_bpf_eval) on
 * every syscall number of four arches with arguments drawn from the
 * program's own constants; thousands of generated programs, each with its
 * optimized copy, on inputs drawn the same way; and small programs that pin
 * each rewrite and each case the passes must leave alone.  The kernel's
 * side (the shortened default profile, installed, refusing and allowing
 * real calls) is tests/unit/test_seccomp.c's and the integration suites'.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>

#include "base/macro.h"
#include "seccomp/filter.h"

#define ST(code, k)	     ((struct sock_filter)BPF_STMT((code), (k)))
#define JMP(code, k, jt, jf) ((struct sock_filter)BPF_JUMP((code), (k), (jt), (jf)))
#define LD_ABS(off)	     ST(BPF_LD | BPF_W | BPF_ABS, (off))
#define RET(k)		     ST(BPF_RET | BPF_K, (k))
#define ARG_LO(i)	     (16 + 8 * (i))
#define ARG_HI(i)	     (20 + 8 * (i))

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* ---- inputs drawn from a program's constants ---------------------------- */

struct pool {
	uint32_t v[1024];
	size_t n;
};

static void pool_add(struct pool *p, uint32_t v)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i] == v)
			return;
	if (p->n < ARRAY_SIZE(p->v))
		p->v[p->n++] = v;
}

/* Every constant a comparison or a mask of the program uses, its
 * neighbours and its complement, and the edges. */
static void pool_fill(struct pool *p, const struct sock_filter *insns, size_t n)
{
	uint32_t edges[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};

	p->n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(edges); i++)
		pool_add(p, edges[i]);
	for (size_t i = 0; i < n; i++) {
		uint16_t cls = BPF_CLASS(insns[i].code);
		uint32_t k = insns[i].k;
		if ((cls == BPF_JMP && BPF_OP(insns[i].code) != BPF_JA) || cls == BPF_ALU) {
			pool_add(p, k);
			pool_add(p, k + 1);
			pool_add(p, k - 1);
			pool_add(p, ~k);
		}
	}
}

static uint32_t draw(const struct pool *p)
{
	uint32_t r = next_rand();

	if (r % 4 == 0)
		return next_rand();
	if (r % 4 == 1)
		return p->v[next_rand() % p->n] | (next_rand() & next_rand() & next_rand());
	return p->v[next_rand() % p->n];
}

static void fill_args(struct seccomp_data *d, const struct pool *p)
{
	for (int i = 0; i < 6; i++) {
		/* most calls carry a zero high word; the filters test it first */
		uint64_t hi = next_rand() % 2 ? 0 : draw(p);
		d->args[i] = hi << 32 | draw(p);
	}
	d->instruction_pointer = (uint64_t)next_rand() << 32 | next_rand();
}

/* ---- the shipped profiles ------------------------------------------------ */

static unsigned differences(const struct nsb_bpf *raw, const struct nsb_bpf *opt)
{
	const uint32_t arches[] = {AUDIT_ARCH_X86_64, AUDIT_ARCH_I386, AUDIT_ARCH_AARCH64, 0};
	struct pool pool;
	unsigned wrong = 0;

	pool_fill(&pool, raw->insns, raw->n_insns);
	for (size_t a = 0; a < ARRAY_SIZE(arches); a++)
		for (uint32_t nr = 0; nr < 600; nr++) {
			uint32_t nrs[] = {nr, nr | 0x40000000u, ~nr};
			for (size_t v = 0; v < ARRAY_SIZE(nrs); v++) {
				struct seccomp_data d = {.nr = (int)nrs[v], .arch = arches[a]};
				bool reads;
				uint32_t want =
					nsb_bpf_eval_args(raw->insns, raw->n_insns, &d, &reads);
				int rounds = reads ? 3000 : 4;

				wrong += nsb_bpf_eval(opt->insns, opt->n_insns, &d) != want;
				for (int k = 0; k < rounds; k++) {
					fill_args(&d, &pool);
					wrong += nsb_bpf_eval(opt->insns, opt->n_insns, &d) !=
						 nsb_bpf_eval(raw->insns, raw->n_insns, &d);
				}
			}
		}
	return wrong;
}

static void compare_profile(const char *path, size_t *ret_raw, size_t *ret_opt)
{
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};
	struct nsb_bpf raw = {0}, opt = {0};

	cr_assert(eq(int, nsb_profile_load(path, &p, &e), 0), "%s: %s", path, e.message);
	cr_assert(eq(int, nsb_seccomp_compile_unshortened(p, &raw, &e), 0), "%s", e.message);
	cr_assert(eq(int, nsb_seccomp_compile(p, &opt, &e), 0), "%s", e.message);
	cr_expect(le(sz, opt.n_insns, raw.n_insns), "%s", path);
	cr_expect(nsb_bpf_valid(opt.insns, opt.n_insns), "%s", path);
	cr_expect(eq(u32, differences(&raw, &opt), 0), "%s: answers differ", path);
	*ret_raw = raw.n_insns;
	*ret_opt = opt.n_insns;
	nsb_bpf_free(&raw);
	nsb_bpf_free(&opt);
	nsb_profile_free(p);
}

Test(bpf_opt, shipped_profiles_answer_as_libseccomp_does_in_fewer_instructions)
{
	const char *names[] = {"default", "strict"};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char path[512];
		size_t raw, opt;

		snprintf(path, sizeof(path), "%s/seccomp-profiles/%s.profile", NSB_SRCDIR,
			 names[i]);
		compare_profile(path, &raw, &opt);
		cr_expect(lt(sz, opt, raw), "%s: %zu -> %zu", names[i], raw, opt);
		/* the default's argument rules: a fifth of its instructions
		 * were libseccomp's repetitions (386 -> 292 when this was
		 * written); strict is mostly a list of numbers */
		if (i == 0)
			cr_expect(le(sz, opt * 5, raw * 4), "%s: %zu -> %zu", names[i], raw, opt);
	}
}

/* Every fixture profile the parser takes (the others are there for its
 * errors): other shapes of rule, actions and defaults. */
Test(bpf_opt, fixture_profiles_answer_as_libseccomp_does)
{
	const char *dir = NSB_SRCDIR "/tests/unit/fixtures/profiles";
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned compared = 0;

	cr_assert(d != NULL, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		char path[1024];
		struct nsb_profile *p = NULL;
		struct nsb_error e = {0};
		size_t raw, opt;

		size_t len = strlen(de->d_name);
		if (len < 8 || strcmp(de->d_name + len - 8, ".profile") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (nsb_profile_load(path, &p, &e) < 0)
			continue;
		nsb_profile_free(p);
		compare_profile(path, &raw, &opt);
		compared++;
	}
	closedir(d);
	cr_expect(gt(u32, compared, 0));
}

/* ---- generated programs ---------------------------------------------------- */

static const uint32_t gen_consts[] = {
	0,   1,	  2,	      0x40,	  0x80,	      0x400,	  0x800,      0xa,
	0xf, 0x3, 0xc000003e, 0x40000000, 0xffffffff, 0x80000000, 0x7fff0000, 0x50001};

static uint32_t gen_const(void)
{
	return gen_consts[next_rand() % ARRAY_SIZE(gen_consts)];
}

static uint8_t gen_off(size_t rest)
{
	size_t lim = rest < 256 ? rest : 256;
	return (uint8_t)(next_rand() % lim);
}

/* One instruction at i of n that the kernel's checker would take. */
static struct sock_filter gen_insn(size_t i, size_t n)
{
	static const uint16_t alu[] = {BPF_AND, BPF_AND, BPF_AND, BPF_OR,
				       BPF_ADD, BPF_XOR, BPF_RSH, BPF_DIV};
	static const uint16_t cmp[] = {BPF_JEQ, BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET};
	size_t rest = n - i - 1;
	uint32_t r = next_rand() % 16;

	if (r < 5)
		return LD_ABS(4 * (next_rand() % 8));
	if (r < 7) {
		uint16_t op = alu[next_rand() % ARRAY_SIZE(alu)];
		bool x = next_rand() % 4 == 0;
		uint32_t k = op == BPF_DIV ? 1 + next_rand() % 3 : gen_const();
		if (op == BPF_RSH)
			k %= 32;
		return ST(BPF_ALU | op | (x ? BPF_X : BPF_K), x ? 0 : k);
	}
	if (r < 11) {
		uint16_t op = cmp[next_rand() % ARRAY_SIZE(cmp)];
		bool x = next_rand() % 8 == 0;
		return JMP(BPF_JMP | op | (x ? BPF_X : BPF_K), gen_const(), gen_off(rest),
			   gen_off(rest));
	}
	switch (r) {
	case 11:
		return ST(BPF_JMP | BPF_JA, next_rand() % rest);
	case 12:
		return next_rand() % 2 ? ST(BPF_LD | BPF_IMM, gen_const()) : RET(gen_const());
	case 13:
		return next_rand() % 2 ? ST(BPF_MISC | BPF_TAX, 0) : ST(BPF_MISC | BPF_TXA, 0);
	case 14:
		return next_rand() % 2 ? ST(BPF_ST, next_rand() % 4)
				       : ST(BPF_LDX | BPF_MEM, next_rand() % 4);
	}
	return next_rand() % 2 ? ST(BPF_LDX | BPF_IMM, next_rand() % 3)
			       : ST(BPF_LD | BPF_MEM, next_rand() % 4);
}

static size_t gen_program(struct sock_filter *p, size_t cap)
{
	size_t n = 2 + next_rand() % (cap - 1);

	for (size_t i = 0; i + 1 < n; i++)
		p[i] = gen_insn(i, n);
	p[n - 1] = next_rand() % 2 ? ST(BPF_RET | BPF_A, 0) : RET(gen_const());
	return n;
}

/*
 * Programs shaped like libseccomp's: blocks of "load a word, perhaps mask
 * it, compare", each comparison going to a later block, into the middle of
 * one (where A holds something else), or to one of the returns at the end
 * (some of which return A itself).  The comparisons use the mask, its
 * neighbours and zero, so that each rewrite's edge cases come up.
 */
static size_t gen_rules(struct sock_filter *p, size_t cap)
{
	static const uint32_t masks[] = {0,	1,	    0x40,	0x800,	   0x3,
					 0xc00, 0x80000001, 0xfffffff0, 0xffffffff};
	size_t blocks = 2 + next_rand() % 10, rets = 1 + next_rand() % 4;
	size_t start[16], len[16], n = 0;

	for (size_t b = 0; b < blocks; b++) {
		start[b] = n;
		len[b] = 1 + (next_rand() % 5 != 0) + (next_rand() % 3 != 0);
		n += len[b];
	}
	cr_assert(lt(sz, n + rets, cap));
	for (size_t b = 0; b < blocks; b++) {
		size_t i = start[b];
		uint32_t m = masks[next_rand() % ARRAY_SIZE(masks)];
		static const uint16_t ops[] = {BPF_JEQ, BPF_JEQ, BPF_JEQ,
					       BPF_JGT, BPF_JGE, BPF_JSET};
		uint32_t ks[] = {m, m, 0, 0, m + 1, m - 1, gen_const()};

		if (len[b] == 3 || (len[b] == 2 && next_rand() % 2))
			p[i++] = LD_ABS(4 * (next_rand() % 8));
		if (i < start[b] + len[b] - 1)
			p[i++] = ST(BPF_ALU | BPF_AND | BPF_K, m);
		/* a target: a later block's start or its middle, or a return */
		size_t t[2];
		for (int k = 0; k < 2; k++) {
			uint32_t r = next_rand() % 8;
			if (b + 1 < blocks && r < 5) {
				size_t to = b + 1 + next_rand() % (blocks - b - 1);
				t[k] = start[to] + (r == 0 ? next_rand() % len[to] : 0);
			} else {
				t[k] = n + next_rand() % rets;
			}
		}
		p[i] = JMP(BPF_JMP | ops[next_rand() % ARRAY_SIZE(ops)],
			   ks[next_rand() % ARRAY_SIZE(ks)], (uint8_t)(t[0] - i - 1),
			   (uint8_t)(t[1] - i - 1));
	}
	for (size_t r = 0; r < rets; r++)
		p[n + r] = r == 0 && next_rand() % 2 ? ST(BPF_RET | BPF_A, 0) : RET(gen_const());
	return n + rets;
}

Test(bpf_opt, generated_programs_keep_their_answers)
{
	struct sock_filter raw[300], opt[300];
	struct pool pool;
	unsigned wrong = 0, shorter = 0, programs = 8000;

	pool.n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(gen_consts); i++) {
		pool_add(&pool, gen_consts[i]);
		pool_add(&pool, gen_consts[i] + 1);
		pool_add(&pool, gen_consts[i] - 1);
	}
	for (unsigned k = 0; k < programs; k++) {
		size_t n = k % 2 ? gen_rules(raw, ARRAY_SIZE(raw))
				 : gen_program(raw, k % 4 ? 40 : ARRAY_SIZE(raw));

		cr_assert(nsb_bpf_valid(raw, n), "generator made an invalid program");
		memcpy(opt, raw, n * sizeof(*raw));
		int m = nsb_bpf_optimize(opt, n);
		cr_assert(gt(int, m, 0));
		cr_assert(le(int, m, (int)n));
		cr_assert(nsb_bpf_valid(opt, (size_t)m), "program %u: invalid result", k);
		shorter += (size_t)m < n;
		for (int t = 0; t < 200; t++) {
			struct seccomp_data d = {.nr = (int)draw(&pool), .arch = draw(&pool)};
			fill_args(&d, &pool);
			wrong += nsb_bpf_eval(opt, (size_t)m, &d) != nsb_bpf_eval(raw, n, &d);
		}
	}
	cr_expect(eq(u32, wrong, 0));
	/* the generator's programs are full of dead and unreached code */
	cr_expect(gt(u32, shorter, programs / 2), "%u of %u shortened", shorter, programs);
}

/* ---- each rewrite, and what stays --------------------------------------- */

static int optimize(struct sock_filter *p, size_t n)
{
	struct sock_filter copy[64];
	int m;

	cr_assert(le(sz, n, ARRAY_SIZE(copy)));
	memcpy(copy, p, n * sizeof(*p));
	m = nsb_bpf_optimize(p, n);
	cr_assert(gt(int, m, 0));
	/* the answers of the small programs below, on their own constants */
	struct pool pool;
	pool_fill(&pool, copy, n);
	for (int t = 0; t < 5000; t++) {
		struct seccomp_data d = {.nr = (int)draw(&pool), .arch = draw(&pool)};
		fill_args(&d, &pool);
		cr_assert(eq(u32, nsb_bpf_eval(p, (size_t)m, &d), nsb_bpf_eval(copy, n, &d)));
	}
	return m;
}

Test(bpf_opt, a_zero_mask_test_of_the_high_word_disappears)
{
	/* libseccomp's 32-bit comparison of arg0: hi & 0 == 0 (always), then
	 * the low word */
	struct sock_filter p[] = {
		LD_ABS(ARG_HI(0)),
		ST(BPF_ALU | BPF_AND | BPF_K, 0),
		JMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
		LD_ABS(ARG_LO(0)),
		JMP(BPF_JMP | BPF_JEQ | BPF_K, 5, 0, 1),
		RET(SECCOMP_RET_ERRNO | 1),
		RET(SECCOMP_RET_ALLOW),
	};

	cr_expect(eq(int, optimize(p, ARRAY_SIZE(p)), 4));
	cr_expect(eq(u32, p[0].k, ARG_LO(0)));
}

Test(bpf_opt, a_masked_equality_becomes_a_jset_and_the_reload_goes)
{
	/* O_CREAT then O_TMPFILE, each on a fresh load of the same word */
	struct sock_filter p[] = {
		LD_ABS(ARG_LO(1)),
		ST(BPF_ALU | BPF_AND | BPF_K, 0x40),
		JMP(BPF_JMP | BPF_JEQ | BPF_K, 0x40, 3, 0),
		LD_ABS(ARG_LO(1)),
		ST(BPF_ALU | BPF_AND | BPF_K, 0x400000),
		JMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),
		RET(SECCOMP_RET_ERRNO | 1),
		RET(SECCOMP_RET_ALLOW),
	};

	cr_expect(eq(int, optimize(p, ARRAY_SIZE(p)), 5));
	cr_expect(eq(u16, p[1].code, BPF_JMP | BPF_JSET | BPF_K));
	cr_expect(eq(u16, p[2].code, BPF_JMP | BPF_JSET | BPF_K));
}

Test(bpf_opt, a_two_bit_mask_compared_with_one_bit_stays)
{
	/* and #3; jeq #1 is "bit 0 set and bit 1 clear": no jset says that */
	struct sock_filter p[] = {
		LD_ABS(ARG_LO(0)),
		ST(BPF_ALU | BPF_AND | BPF_K, 0x3),
		JMP(BPF_JMP | BPF_JEQ | BPF_K, 0x1, 0, 1),
		RET(SECCOMP_RET_ERRNO | 1),
		RET(SECCOMP_RET_ALLOW),
	};

	cr_expect(eq(int, optimize(p, ARRAY_SIZE(p)), 5));
}

Test(bpf_opt, a_masked_word_that_is_returned_keeps_its_mask)
{
	/* ret A reads the masked word: the and must stay */
	struct sock_filter p[] = {
		LD_ABS(ARG_LO(0)),
		ST(BPF_ALU | BPF_AND | BPF_K, 0x40),
		JMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		RET(SECCOMP_RET_ALLOW),
		ST(BPF_RET | BPF_A, 0),
	};

	cr_expect(eq(int, optimize(p, ARRAY_SIZE(p)), 5));
}

Test(bpf_opt, a_second_load_of_the_same_word_goes_and_the_first_stays)
{
	struct sock_filter p[] = {
		LD_ABS(ARG_LO(2)),
		LD_ABS(ARG_LO(2)),
		ST(BPF_RET | BPF_A, 0),
	};

	cr_expect(eq(int, optimize(p, ARRAY_SIZE(p)), 2));
	cr_expect(eq(u16, p[0].code, BPF_LD | BPF_W | BPF_ABS));
	cr_expect(eq(u32, p[0].k, ARG_LO(2)));
}

Test(bpf_opt, a_division_by_x_stays_though_its_result_is_unused)
{
	/* x == 0: the kernel ends the program there (a kill), and the
	 * interpreter answers the same */
	struct sock_filter p[] = {
		ST(BPF_LDX | BPF_IMM, 0),
		ST(BPF_ALU | BPF_DIV | BPF_X, 0),
		RET(SECCOMP_RET_ALLOW),
	};

	cr_expect(eq(int, optimize(p, ARRAY_SIZE(p)), 3));
	cr_expect(eq(u16, p[1].code, BPF_ALU | BPF_DIV | BPF_X));
}

Test(bpf_opt, jumps_through_jumps_and_to_returns_go_straight)
{
	struct sock_filter p[] = {
		LD_ABS(0),
		JMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1),
		ST(BPF_JMP | BPF_JA, 1),
		ST(BPF_JMP | BPF_JA, 0),
		RET(SECCOMP_RET_ALLOW),
	};

	/* both ways end in the same return: no comparison, no load */
	cr_expect(eq(int, optimize(p, ARRAY_SIZE(p)), 1));
	cr_expect(eq(u16, p[0].code, BPF_RET | BPF_K));
	cr_expect(eq(u32, p[0].k, SECCOMP_RET_ALLOW));
}

Test(bpf_opt, what_the_passes_do_not_know_is_left_as_it_is)
{
	/* a half-word load: the kernel's seccomp checker refuses it, and so
	 * nothing here rewrites such a program */
	struct sock_filter p[] = {
		ST(BPF_LD | BPF_H | BPF_ABS, 0),
		LD_ABS(0),
		RET(SECCOMP_RET_ALLOW),
	};
	struct sock_filter copy[ARRAY_SIZE(p)];

	memcpy(copy, p, sizeof(p));
	cr_expect(not(nsb_bpf_valid(p, ARRAY_SIZE(p))));
	cr_expect(eq(int, nsb_bpf_optimize(p, ARRAY_SIZE(p)), 3));
	cr_expect(eq(int, memcmp(p, copy, sizeof(p)), 0));
	/* nor one whose last instruction is not a return, or that jumps out */
	struct sock_filter q[] = {LD_ABS(0), JMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 5, 0), RET(0)};
	cr_expect(not(nsb_bpf_valid(q, ARRAY_SIZE(q))));
	cr_expect(not(nsb_bpf_valid(q, 2)));
}
