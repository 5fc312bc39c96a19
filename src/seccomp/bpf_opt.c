// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A shorter seccomp program with the same answers (pure; the supervisor for a
 * profile file, profile_embed for the built-in ones).  libseccomp's output
 * repeats itself: it loads an argument again before every comparison, tests
 * the high word of an argument against a zero mask (always true) for every
 * 32-bit comparison, and compares a masked word for equality where one jset
 * would do.  The kernel pays for each instruction three times: the JIT
 * compiles it when init installs the filter, the action cache runs it for
 * every syscall number at that moment, and each call the cache cannot answer
 * runs it again.
 *
 * Each pass below keeps the answer to every seccomp_data, and works from
 * facts about the accumulator A only (X and the scratch words are never
 * touched, nor is any instruction that reads them removed unless it only
 * writes A):
 *   fold      a comparison whose outcome A's known value decides becomes a
 *             jump (`and #0` makes A 0; jt == jf needs no comparison);
 *   jset      `and #m; jeq #0` is `jset #m` with the branches swapped, and
 *             `and #m; jeq #m` is `jset #m` when m is one bit; only where
 *             nothing reads A after the comparison (A then keeps the word
 *             instead of the masked word) and nothing else jumps between;
 *   reload    a load of the word A already holds on every path is dropped;
 *   dead      a write of A that nothing reads before the next write is
 *             dropped (never a division by X, which can end the program);
 *   thread    a jump to a jump goes straight to the end of the chain, and a
 *             jump to a return becomes that return;
 * and then what is no longer reached, and the empty jumps, leave.  Jumps only
 * go forward, so each analysis is one pass in order (A's value) or in reverse
 * (whether A is read).  Removing instructions only shortens jumps; threading
 * is done only where the jump still fits its 8 bits before removal.
 *
 * The result's shape is checked again (nsb_bpf_valid) before it replaces
 * the input; tests/unit/test_bpf_opt.c compares the answers of both programs
 * on the shipped and fixture profiles and on generated programs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "seccomp/filter.h"

#define MAX_ROUNDS 32

enum {
	AV_NONE,   /* not reached (yet) */
	AV_ANY,	   /* unknown */
	AV_CONST,  /* A == k */
	AV_LOAD,   /* A == the word at offset k of seccomp_data */
	AV_MASKED, /* A == that word & m, m != 0 */
};

struct aval {
	uint8_t kind;
	uint32_t k;
	uint32_t m;
};

struct opt {
	struct sock_filter *p;
	size_t n;
	struct aval *in; /* A on entry, per instruction; AV_NONE: unreached */
	bool *live;	 /* A read after the instruction, before any write */
	uint16_t *preds; /* edges into the instruction from reached ones */
	uint32_t *remap; /* compaction: new index of the first kept one at or after */
};

static const struct aval any = {AV_ANY, 0, 0};

static bool is_jump(const struct sock_filter *f)
{
	return BPF_CLASS(f->code) == BPF_JMP;
}

static bool is_ja(const struct sock_filter *f)
{
	return f->code == (BPF_JMP | BPF_JA);
}

static void set_ja(struct sock_filter *f, uint32_t off)
{
	*f = (struct sock_filter){.code = BPF_JMP | BPF_JA, .k = off};
}

/* The successors of instruction i: 0, 1 or 2 (a comparison's jt, jf). */
static size_t succs(const struct sock_filter *f, size_t i, size_t out[2])
{
	if (BPF_CLASS(f->code) == BPF_RET)
		return 0;
	if (is_ja(f)) {
		out[0] = i + 1 + f->k;
		return 1;
	}
	if (is_jump(f)) {
		out[0] = i + 1 + f->jt;
		out[1] = i + 1 + f->jf;
		return 2;
	}
	out[0] = i + 1;
	return 1;
}

static bool alu_op_ok(const struct sock_filter *f)
{
	switch (BPF_OP(f->code)) {
	case BPF_ADD:
	case BPF_SUB:
	case BPF_MUL:
	case BPF_OR:
	case BPF_AND:
	case BPF_XOR:
	case BPF_LSH:
	case BPF_RSH:
	case BPF_NEG:
		return true;
	case BPF_DIV:
	case BPF_MOD:
		return BPF_SRC(f->code) == BPF_X || f->k != 0;
	}
	return false;
}

static bool jump_op_ok(const struct sock_filter *f, size_t rest)
{
	if (is_ja(f))
		return f->k < rest;
	switch (BPF_OP(f->code)) {
	case BPF_JEQ:
	case BPF_JGT:
	case BPF_JGE:
	case BPF_JSET:
		return f->jt < rest && f->jf < rest;
	}
	return false;
}

/*
 * What the kernel's seccomp checker admits, and nothing the passes do not
 * know: every other program is left as it is.  rest: the instructions after
 * this one, which every jump must land in.
 */
static bool insn_ok(const struct sock_filter *f, size_t rest)
{
	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS:
		return f->k % 4 == 0 && f->k <= sizeof(struct seccomp_data) - 4;
	case BPF_LD | BPF_IMM:
	case BPF_LDX | BPF_IMM:
	case BPF_LD | BPF_W | BPF_LEN:
	case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_MISC | BPF_TAX:
	case BPF_MISC | BPF_TXA:
	case BPF_RET | BPF_K:
	case BPF_RET | BPF_A:
		return true;
	case BPF_LD | BPF_MEM:
	case BPF_LDX | BPF_MEM:
	case BPF_ST:
	case BPF_STX:
		return f->k < BPF_MEMWORDS;
	}
	if (BPF_CLASS(f->code) == BPF_ALU)
		return alu_op_ok(f);
	if (is_jump(f))
		return jump_op_ok(f, rest);
	return false;
}

bool nsb_bpf_valid(const struct sock_filter *p, size_t n)
{
	if (n == 0 || n > NSB_SECCOMP_MAX_INSNS || BPF_CLASS(p[n - 1].code) != BPF_RET)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!insn_ok(&p[i], n - i - 1))
			return false;
	return true;
}

/* ---- what A holds ------------------------------------------------------ */

static bool aval_eq(struct aval a, struct aval b)
{
	return a.kind == b.kind && a.k == b.k && a.m == b.m;
}

static struct aval merge(struct aval a, struct aval b)
{
	if (a.kind == AV_NONE)
		return b;
	if (b.kind == AV_NONE || aval_eq(a, b))
		return a;
	return any;
}

static struct aval masked(uint32_t off, uint32_t m)
{
	if (m == 0)
		return (struct aval){AV_CONST, 0, 0};
	return (struct aval){AV_MASKED, off, m};
}

static struct aval transfer(const struct sock_filter *f, struct aval a)
{
	switch (f->code) {
	case BPF_LD | BPF_W | BPF_ABS:
		return (struct aval){AV_LOAD, f->k, 0};
	case BPF_LD | BPF_IMM:
		return (struct aval){AV_CONST, f->k, 0};
	case BPF_LD | BPF_W | BPF_LEN:
		return (struct aval){AV_CONST, sizeof(struct seccomp_data), 0};
	case BPF_ALU | BPF_AND | BPF_K:
		if (a.kind == AV_CONST)
			return (struct aval){AV_CONST, a.k & f->k, 0};
		if (a.kind == AV_LOAD)
			return masked(a.k, f->k);
		if (a.kind == AV_MASKED)
			return masked(a.k, a.m & f->k);
		return f->k == 0 ? masked(0, 0) : any;
	}
	if (BPF_CLASS(f->code) == BPF_LD || BPF_CLASS(f->code) == BPF_ALU ||
	    f->code == (BPF_MISC | BPF_TXA))
		return any;
	return a; /* jumps, stores, X's loads, tax */
}

/* A on entry to every instruction, reachability, and the edges into each. */
static void analyse_forward(struct opt *o)
{
	for (size_t i = 0; i < o->n; i++) {
		o->in[i] = (struct aval){AV_NONE, 0, 0};
		o->preds[i] = 0;
	}
	o->in[0] = any;
	for (size_t i = 0; i < o->n; i++) {
		size_t s[2] = {0, 0};

		if (o->in[i].kind == AV_NONE)
			continue;
		struct aval out = transfer(&o->p[i], o->in[i]);
		size_t ns = succs(&o->p[i], i, s);
		for (size_t k = 0; k < ns; k++) {
			o->in[s[k]] = merge(o->in[s[k]], out);
			o->preds[s[k]]++;
		}
	}
}

static bool reads_a(const struct sock_filter *f)
{
	switch (BPF_CLASS(f->code)) {
	case BPF_ALU:
	case BPF_ST:
		return true;
	case BPF_JMP:
		return !is_ja(f);
	case BPF_RET:
		return BPF_RVAL(f->code) == BPF_A;
	case BPF_MISC:
		return BPF_MISCOP(f->code) == BPF_TAX;
	}
	return false;
}

static bool writes_a(const struct sock_filter *f)
{
	return BPF_CLASS(f->code) == BPF_LD || BPF_CLASS(f->code) == BPF_ALU ||
	       f->code == (BPF_MISC | BPF_TXA);
}

/* Whether A is read after each instruction before it is written again. */
static void analyse_liveness(struct opt *o)
{
	for (size_t i = o->n; i-- > 0;) {
		size_t s[2] = {0, 0}, ns = succs(&o->p[i], i, s);
		bool live = false;

		for (size_t k = 0; k < ns; k++) {
			const struct sock_filter *t = &o->p[s[k]];
			live = live || reads_a(t) || (!writes_a(t) && o->live[s[k]]);
		}
		o->live[i] = live;
	}
}

static void analyse(struct opt *o)
{
	analyse_forward(o);
	analyse_liveness(o);
}

/* ---- the passes -------------------------------------------------------- */

/* Whether the comparison f on A (known as a) is decided, and which way. */
static bool decided(const struct sock_filter *f, struct aval a, bool *taken)
{
	uint32_t k = f->k;

	if (BPF_SRC(f->code) != BPF_K)
		return false;
	if (a.kind == AV_CONST)
		return nsb_bpf_compare(BPF_OP(f->code), a.k, k, taken);
	/* A == word & m: no bit outside m, and never more than m. */
	if (a.kind == AV_MASKED) {
		*taken = false;
		return (BPF_OP(f->code) == BPF_JSET && (a.m & k) == 0) ||
		       (BPF_OP(f->code) == BPF_JEQ && (k & ~a.m) != 0) ||
		       (BPF_OP(f->code) == BPF_JGT && a.m <= k) ||
		       (BPF_OP(f->code) == BPF_JGE && a.m < k);
	}
	return false;
}

static bool pass_fold(struct opt *o)
{
	bool changed = false;

	for (size_t i = 0; i < o->n; i++) {
		struct sock_filter *f = &o->p[i];
		bool taken;

		if (o->in[i].kind == AV_NONE || !is_jump(f) || is_ja(f))
			continue;
		if (f->jt == f->jf)
			set_ja(f, f->jt);
		else if (decided(f, o->in[i], &taken))
			set_ja(f, taken ? f->jt : f->jf);
		else
			continue;
		changed = true;
	}
	return changed;
}

static bool pass_jset(struct opt *o)
{
	bool changed = false;

	for (size_t i = 0; i + 1 < o->n; i++) {
		struct sock_filter *and = &o->p[i], *cmp = &o->p[i + 1];
		uint32_t m = and->k;

		if (o->in[i].kind == AV_NONE || and->code != (BPF_ALU | BPF_AND | BPF_K) ||
		    cmp->code != (BPF_JMP | BPF_JEQ | BPF_K) || o->preds[i + 1] != 1 ||
		    o->live[i + 1] || m == 0)
			continue;
		if (cmp->k == 0) {
			uint8_t jt = cmp->jt;
			cmp->jt = cmp->jf;
			cmp->jf = jt;
		} else if (cmp->k != m || (m & (m - 1)) != 0) {
			continue;
		}
		cmp->code = BPF_JMP | BPF_JSET | BPF_K;
		cmp->k = m;
		set_ja(and, 0);
		changed = true;
	}
	return changed;
}

static bool pass_reload(struct opt *o)
{
	bool changed = false;

	for (size_t i = 0; i < o->n; i++) {
		struct sock_filter *f = &o->p[i];
		struct aval a = o->in[i];

		if ((f->code == (BPF_LD | BPF_W | BPF_ABS) && a.kind == AV_LOAD && a.k == f->k) ||
		    (f->code == (BPF_LD | BPF_IMM) && a.kind == AV_CONST && a.k == f->k)) {
			set_ja(f, 0);
			changed = true;
		}
	}
	return changed;
}

static bool pass_dead(struct opt *o)
{
	bool changed = false;

	for (size_t i = 0; i < o->n; i++) {
		struct sock_filter *f = &o->p[i];
		bool traps = BPF_CLASS(f->code) == BPF_ALU && BPF_SRC(f->code) == BPF_X &&
			     (BPF_OP(f->code) == BPF_DIV || BPF_OP(f->code) == BPF_MOD);

		if (o->in[i].kind == AV_NONE || !writes_a(f) || o->live[i] || traps)
			continue;
		set_ja(f, 0);
		changed = true;
	}
	return changed;
}

/* Where a jump to t ends up through any chain of unconditional jumps. */
static size_t chain_end(const struct opt *o, size_t t)
{
	while (is_ja(&o->p[t]))
		t += 1 + o->p[t].k;
	return t;
}

static bool retarget8(const struct opt *o, size_t i, uint8_t *off)
{
	size_t t = chain_end(o, i + 1 + *off);

	if (t == i + 1 + *off || t - i - 1 > 255)
		return false;
	*off = (uint8_t)(t - i - 1);
	return true;
}

static bool pass_thread(struct opt *o)
{
	bool changed = false;

	for (size_t i = 0; i < o->n; i++) {
		struct sock_filter *f = &o->p[i];

		if (o->in[i].kind == AV_NONE || !is_jump(f))
			continue;
		if (is_ja(f)) {
			size_t t = chain_end(o, i + 1 + f->k);
			if (BPF_CLASS(o->p[t].code) == BPF_RET) {
				*f = o->p[t];
				changed = true;
			} else if (t != i + 1 + f->k) {
				f->k = (uint32_t)(t - i - 1);
				changed = true;
			}
			continue;
		}
		changed |= retarget8(o, i, &f->jt);
		changed |= retarget8(o, i, &f->jf);
	}
	return changed;
}

/* ---- compaction -------------------------------------------------------- */

static bool kept(const struct opt *o, size_t i)
{
	return o->in[i].kind != AV_NONE && !(is_ja(&o->p[i]) && o->p[i].k == 0);
}

/* Drop what is not reached and the empty jumps; -ERANGE if a jump would
 * not fit (never expected: jumps only get shorter). */
static int compact(struct opt *o)
{
	size_t m = 0;

	for (size_t i = 0; i < o->n; i++)
		m += kept(o, i);
	/* remap[t]: the new index of the first kept instruction at or after t,
	 * which is where a jump to t, or a fall-through into it, now goes. */
	uint32_t next = (uint32_t)m;
	for (size_t i = o->n; i-- > 0;) {
		if (kept(o, i))
			next--;
		o->remap[i] = next;
	}
	size_t w = 0;
	for (size_t i = 0; i < o->n; i++) {
		struct sock_filter f = o->p[i];
		size_t s[2] = {0, 0};

		if (!kept(o, i))
			continue;
		if (is_ja(&f)) {
			succs(&f, i, s);
			f.k = o->remap[s[0]] - (uint32_t)w - 1;
		} else if (is_jump(&f)) {
			succs(&f, i, s);
			size_t jt = o->remap[s[0]] - w - 1, jf = o->remap[s[1]] - w - 1;
			if (jt > 255 || jf > 255)
				return -ERANGE;
			f.jt = (uint8_t)jt;
			f.jf = (uint8_t)jf;
		}
		o->p[w++] = f;
	}
	o->n = w;
	return 0;
}

/*
 * One round of every pass; whether any changed something.  fold, jset and
 * reload share an analysis: fold only makes comparisons unconditional and
 * jset only turns a masked word that nothing reads into the word, so what
 * the analysis says A holds stays true, or less is known than is true,
 * which only leaves a reload for the next round.  dead needs whether A is
 * read as it is after reload (a dropped reload makes the load before it
 * live), and thread reads only the program and what is reached.
 */
static int round_of_passes(struct opt *o, bool *changed)
{
	analyse(o);
	*changed = pass_fold(o);
	*changed |= pass_jset(o);
	*changed |= pass_reload(o);
	analyse(o);
	*changed |= pass_dead(o);
	*changed |= pass_thread(o);
	analyse_forward(o);
	size_t before = o->n;
	int r = compact(o);
	/* Removal can leave a jump to the very next instruction: another round
	 * drops it. */
	*changed |= o->n < before;
	return r;
}

int nsb_bpf_optimize(struct sock_filter *p, size_t n)
{
	if (!nsb_bpf_valid(p, n))
		return (int)n;

	struct opt o = {.p = malloc(n * sizeof(*p)), .n = n};
	o.in = calloc(n, sizeof(*o.in));
	o.live = calloc(n, sizeof(*o.live));
	o.preds = calloc(n, sizeof(*o.preds));
	o.remap = calloc(n, sizeof(*o.remap));
	int r = -ENOMEM;

	if (o.p && o.in && o.live && o.preds && o.remap) {
		bool changed = true;

		memcpy(o.p, p, n * sizeof(*p));
		r = 0;
		for (int round = 0; round < MAX_ROUNDS && changed && r == 0; round++)
			r = round_of_passes(&o, &changed);
		/* Anything unexpected: the input stays, which is as correct. */
		if (r == 0 && o.n <= n && nsb_bpf_valid(o.p, o.n))
			memcpy(p, o.p, o.n * sizeof(*p));
		else
			o.n = n;
		r = (int)o.n;
	}
	free(o.p);
	free(o.in);
	free(o.live);
	free(o.preds);
	free(o.remap);
	return r;
}
