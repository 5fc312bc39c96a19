// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The unmapped-ids filter (supervisor, before fork): the hand-built program
 * for the `unmapped-ids` directive, and its joining with the profile's
 * program into one when that changes no answer.  No syscall: init only
 * installs what is built here (filter.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "seccomp/filter.h"

/* ---- the unmapped-ids filter ------------------------------------------- */

/*
 * Why a second program: "id != mine && id != -1" compares one argument twice,
 * which libseccomp 2.5 refuses in one rule, and the caller's ids are only
 * known at run time while the profile's program (and its sha256) should not
 * depend on who runs it.  So this one is written by hand, tiny and linear.
 *
 * It is installed before the profile's program.  The kernel runs every
 * filter and keeps the most severe answer (kill, then trap, then errno, then
 * allow), so this program's refusal beats the profile's "allow" and a kill
 * in the profile still kills; between two errno answers the filter installed
 * last wins, so the profile keeps the last word on its own refusals, and it
 * can refuse seccomp(2) itself (strict does) without stopping this one.
 */
/* The low 32 bits of argument i: uid_t and gid_t are all the kernel reads. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LO(i) ((uint32_t)(offsetof(struct seccomp_data, args) + 8 * (i)))
#else
#define ARG_LO(i) ((uint32_t)(offsetof(struct seccomp_data, args) + 8 * (i) + 4))
#endif

enum {
	ID_UID,
	ID_GID
};

static const struct {
	int nr;
	unsigned n_args;
	struct {
		unsigned char arg, kind;
	} args[3];
} id_calls[] = {
	/* In ascending order of number (nsb_seccomp_ids_build relies on it). */
	{SYS_chown, 2, {{1, ID_UID}, {2, ID_GID}}},
	{SYS_fchown, 2, {{1, ID_UID}, {2, ID_GID}}},
	{SYS_lchown, 2, {{1, ID_UID}, {2, ID_GID}}},
	{SYS_setuid, 1, {{0, ID_UID}}},
	{SYS_setgid, 1, {{0, ID_GID}}},
	{SYS_setreuid, 2, {{0, ID_UID}, {1, ID_UID}}},
	{SYS_setregid, 2, {{0, ID_GID}, {1, ID_GID}}},
	{SYS_setresuid, 3, {{0, ID_UID}, {1, ID_UID}, {2, ID_UID}}},
	{SYS_setresgid, 3, {{0, ID_GID}, {1, ID_GID}, {2, ID_GID}}},
	{SYS_fchownat, 2, {{2, ID_UID}, {3, ID_GID}}},
};

/* The kernel's return value for a refusing action. */
static uint32_t kernel_ret(const struct nsb_action *a)
{
	switch (a->kind) {
	case NSB_ACTION_ERRNO:
		return SECCOMP_RET_ERRNO | ((uint32_t)a->errno_value & SECCOMP_RET_DATA);
	case NSB_ACTION_TRAP:
		return SECCOMP_RET_TRAP;
	case NSB_ACTION_ALLOW:
	case NSB_ACTION_LOG:
	case NSB_ACTION_KILL:
		break;
	}
	/* The parser admits only errno, kill and trap here. */
	return SECCOMP_RET_KILL_PROCESS;
}

/* An output buffer that remembers running out of room. */
struct prog {
	struct sock_filter *buf;
	size_t size, n;
	bool full;
};

static size_t emit(struct prog *p, struct sock_filter insn)
{
	if (p->n >= p->size)
		p->full = true;
	else
		p->buf[p->n] = insn;
	return p->n++;
}

static size_t emit_stmt(struct prog *p, uint16_t code, uint32_t k)
{
	return emit(p, (struct sock_filter)BPF_STMT(code, k));
}

static size_t emit_jump(struct prog *p, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	return emit(p, (struct sock_filter)BPF_JUMP(code, k, jt, jf));
}

/* The offset of a forward jump from insn at to target (classic BPF has no
 * other kind, and a conditional one reaches at most 255 ahead). */
static int offset(size_t at, size_t target, uint8_t *ret)
{
	if (target <= at || target - at - 1 > 255)
		return -ENOBUFS;
	*ret = (uint8_t)(target - at - 1);
	return 0;
}

/*
 * The unmapped-ids program into p: deny[i] is the answer to id_calls[i] with
 * a foreign id.  Standalone (head false), every other call returns allow.
 * As the head of a joined program (head true), those jump instead to the
 * end of the head, where the profile's program follows, and nothing is
 * emitted there.
 */
static int ids_emit(uint32_t uid, uint32_t gid, const uint32_t *deny, bool head, struct prog *p)
{
	const size_t last = ARRAY_SIZE(id_calls) - 1;
	size_t to_end[ARRAY_SIZE(id_calls) + 1], n_to_end = 0;
	uint8_t below_off = 0, above_off = 0, last_off = 0;

	for (size_t i = 0; i < last; i++)
		if (id_calls[i].nr >= id_calls[i + 1].nr)
			return -EINVAL;

	/* Another ABI: not ours to judge (every profile refuses it).
	 * The SYS_ numbers below are this build's: the native arch is the one. */
	emit_stmt(p, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	emit_jump(p, BPF_JMP | BPF_JEQ | BPF_K, nsb_seccomp_arch(), 1, 0);
	if (head)
		to_end[n_to_end++] = emit_stmt(p, BPF_JMP | BPF_JA, 0);
	else
		emit_stmt(p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	/*
	 * Only the syscall number is read before a call is known to be one of
	 * ours: the kernel's action cache then sees that every other call is
	 * always allowed and skips this program for them.  x32 numbers (bit 30
	 * set) match nothing here; the profile's filter refuses them.
	 */
	emit_stmt(p, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	/*
	 * A syscall the profile cannot decide by number alone (openat, ioctl,
	 * fcntl...) runs this program too: get every number that is not ours
	 * to the answer in a few comparisons.  The table is sorted: below the
	 * first and above the last number, allow; above the second-to-last,
	 * only the last block (fchownat, far above the others) can match.
	 * Targets are patched in once known.
	 */
	size_t below = emit_jump(p, BPF_JMP | BPF_JGE | BPF_K, (uint32_t)id_calls[0].nr, 0, 0);
	size_t above = emit_jump(p, BPF_JMP | BPF_JGT | BPF_K, (uint32_t)id_calls[last].nr, 0, 0);
	size_t to_last =
		emit_jump(p, BPF_JMP | BPF_JGT | BPF_K, (uint32_t)id_calls[last - 1].nr, 0, 0);
	size_t last_block = 0;
	for (size_t i = 0; i < ARRAY_SIZE(id_calls); i++) {
		uint8_t block = (uint8_t)(4 * id_calls[i].n_args + 1);
		size_t at =
			emit_jump(p, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)id_calls[i].nr, 0, block);
		if (i == last)
			last_block = at;
		/* Each id: the caller's own or -1 goes on to the next, anything
		 * else is refused. */
		for (unsigned k = 0; k < id_calls[i].n_args; k++) {
			uint32_t own = id_calls[i].args[k].kind == ID_UID ? uid : gid;
			emit_stmt(p, BPF_LD | BPF_W | BPF_ABS, ARG_LO(id_calls[i].args[k].arg));
			emit_jump(p, BPF_JMP | BPF_JEQ | BPF_K, own, 2, 0);
			emit_jump(p, BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffu, 1, 0);
			emit_stmt(p, BPF_RET | BPF_K, deny[i]);
		}
		if (head)
			to_end[n_to_end++] = emit_stmt(p, BPF_JMP | BPF_JA, 0);
		else
			emit_stmt(p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	size_t allow = head ? p->n : emit_stmt(p, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	if (p->full)
		return -ENOBUFS;
	if (offset(below, allow, &below_off) < 0 || offset(above, allow, &above_off) < 0 ||
	    offset(to_last, last_block, &last_off) < 0)
		return -ENOBUFS;
	p->buf[below].jf = below_off;
	p->buf[above].jt = above_off;
	p->buf[to_last].jt = last_off;
	/* BPF_JA takes a 32-bit offset: it reaches any end. */
	for (size_t i = 0; i < n_to_end; i++)
		p->buf[to_end[i]].k = (uint32_t)(allow - to_end[i] - 1);
	return 0;
}

int nsb_seccomp_ids_build(uint32_t uid, uint32_t gid, const struct nsb_action *action,
			  struct sock_filter *buf, size_t size, size_t *ret_n)
{
	uint32_t deny[ARRAY_SIZE(id_calls)];
	struct prog p = {.buf = buf, .size = size};
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(id_calls); i++)
		deny[i] = kernel_ret(action);
	r = ids_emit(uid, gid, deny, false, &p);
	if (r < 0)
		return r;
	*ret_n = p.n;
	return 0;
}

/* ---- one program instead of two ---------------------------------------- */

/*
 * Why join: a call that the kernel's action cache cannot allow by number
 * (fcntl, openat, ioctl... every call the profile judges by argument) runs
 * every installed filter, and each run costs about as much as a short
 * program's instructions altogether (bench/seccomp.sh).  So when it can be
 * done without changing a single answer, the unmapped-ids program becomes
 * the head of one program whose allow exits jump to the profile's program.
 *
 * Two filters answer with the more severe of the two (the kernel compares
 * the actions as signed numbers, lowest wins; on a tie the filter installed
 * last, the profile, keeps its answer).  A joined program can only give that
 * answer when the head refuses if it knows what the profile would have said
 * for the same call: so it is done only when, for every call the head
 * refuses, the profile answers by number alone.  Found by running the
 * profile's program with the number and arch known and everything else
 * unknown: any instruction that needs an unknown value to decide gives up,
 * and the two programs are installed apart, as before.
 */
struct abs_val {
	bool known;
	uint32_t v;
};

static struct abs_val abs_load(uint32_t off, uint32_t nr)
{
	if (off == offsetof(struct seccomp_data, nr))
		return (struct abs_val){true, nr};
	if (off == offsetof(struct seccomp_data, arch))
		return (struct abs_val){true, nsb_seccomp_arch()};
	return (struct abs_val){false, 0};
}

static struct abs_val abs_alu(uint16_t op, struct abs_val a, struct abs_val b)
{
	if (!a.known || !b.known)
		return (struct abs_val){false, 0};
	switch (op) {
	case BPF_ADD:
		return (struct abs_val){true, a.v + b.v};
	case BPF_SUB:
		return (struct abs_val){true, a.v - b.v};
	case BPF_MUL:
		return (struct abs_val){true, a.v * b.v};
	case BPF_OR:
		return (struct abs_val){true, a.v | b.v};
	case BPF_AND:
		return (struct abs_val){true, a.v & b.v};
	case BPF_XOR:
		return (struct abs_val){true, a.v ^ b.v};
	case BPF_LSH:
		return (struct abs_val){b.v < 32, b.v < 32 ? a.v << b.v : 0};
	case BPF_RSH:
		return (struct abs_val){b.v < 32, b.v < 32 ? a.v >> b.v : 0};
	case BPF_NEG:
		return (struct abs_val){true, -a.v};
	}
	return (struct abs_val){false, 0}; /* division and the rest: not worth knowing */
}

/*
 * The profile's answer to syscall nr of the native arch whatever its
 * arguments, into *ret; -EAGAIN when it depends on more than the number.
 * Long: one case per instruction class, each a line or two.
 */
static int answer_by_number(const struct sock_filter *insns, size_t n, uint32_t nr, uint32_t *ret)
{
	struct abs_val a = {true, 0}, x = {true, 0}, mem[BPF_MEMWORDS] = {0};

	for (size_t i = 0; i < BPF_MEMWORDS; i++)
		mem[i].known = true; /* the kernel zeroes the scratch words */
	/* Classic BPF jumps only forward: at most n steps. */
	for (size_t pc = 0; pc < n; pc++) {
		const struct sock_filter *f = &insns[pc];
		struct abs_val src = BPF_SRC(f->code) == BPF_X ? x : (struct abs_val){true, f->k};
		bool taken;

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			a = abs_load(f->k, nr);
			continue;
		case BPF_LD | BPF_IMM:
			a = (struct abs_val){true, f->k};
			continue;
		case BPF_LDX | BPF_IMM:
			x = (struct abs_val){true, f->k};
			continue;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
		case BPF_ST:
		case BPF_STX:
			if (f->k >= BPF_MEMWORDS)
				return -EAGAIN;
			if (f->code == (BPF_LD | BPF_MEM))
				a = mem[f->k];
			else if (f->code == (BPF_LDX | BPF_MEM))
				x = mem[f->k];
			else
				mem[f->k] = f->code == BPF_ST ? a : x;
			continue;
		case BPF_MISC | BPF_TAX:
			x = a;
			continue;
		case BPF_MISC | BPF_TXA:
			a = x;
			continue;
		case BPF_RET | BPF_K:
			*ret = f->k;
			return 0;
		case BPF_RET | BPF_A:
			if (!a.known)
				return -EAGAIN;
			*ret = a.v;
			return 0;
		case BPF_JMP | BPF_JA:
			if (f->k >= n - pc - 1)
				return -EAGAIN;
			pc += f->k;
			continue;
		}
		if (BPF_CLASS(f->code) == BPF_ALU) {
			a = abs_alu(BPF_OP(f->code), a, src);
			continue;
		}
		if (BPF_CLASS(f->code) != BPF_JMP || !a.known || !src.known ||
		    !nsb_bpf_compare(BPF_OP(f->code), a.v, src.v, &taken))
			return -EAGAIN;
		pc += taken ? f->jt : f->jf;
	}
	return -EAGAIN; /* ran off the end: not a program the kernel takes */
}

/* What two filters answer: the more severe action, the profile's on a tie. */
static uint32_t two_filter_answer(uint32_t profile, uint32_t ids)
{
	return (int32_t)(ids & SECCOMP_RET_ACTION_FULL) <
			       (int32_t)(profile & SECCOMP_RET_ACTION_FULL)
		       ? ids
		       : profile;
}

int nsb_seccomp_join(const struct sock_filter *insns, size_t n, uint32_t uid, uint32_t gid,
		     const struct nsb_action *action, struct sock_filter **ret, size_t *ret_n)
{
	uint32_t deny[ARRAY_SIZE(id_calls)];
	struct sock_filter head[NSB_SECCOMP_IDS_INSNS];
	struct prog p = {.buf = head, .size = ARRAY_SIZE(head)};
	struct sock_filter *joined;
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(id_calls); i++) {
		uint32_t profile;
		r = answer_by_number(insns, n, (uint32_t)id_calls[i].nr, &profile);
		if (r < 0)
			return r;
		deny[i] = two_filter_answer(profile, kernel_ret(action));
	}
	r = ids_emit(uid, gid, deny, true, &p);
	if (r < 0)
		return r;
	if (p.n + n > NSB_SECCOMP_MAX_INSNS)
		return -E2BIG;
	joined = malloc((p.n + n) * sizeof(*joined));
	if (!joined)
		return -ENOMEM;
	memcpy(joined, head, p.n * sizeof(*joined));
	memcpy(joined + p.n, insns, n * sizeof(*joined));
	*ret = joined;
	*ret_n = p.n + n;
	return 0;
}

int nsb_seccomp_bind_ids(struct nsb_bpf *b, uint32_t uid, uint32_t gid, struct nsb_error *e)
{
	size_t n = 0;

	if (b->none || !b->ids_action[0])
		return 0;
	_cleanup_free_ struct sock_filter *insns = calloc(NSB_SECCOMP_IDS_INSNS, sizeof(*insns));
	if (!insns)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PROFILE,
				     "build the unmapped-ids filter");
	int r = nsb_seccomp_ids_build(uid, gid, &b->ids_act, insns, NSB_SECCOMP_IDS_INSNS, &n);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_PROFILE,
				     "build the unmapped-ids filter of profile '%s'", b->profile);
	free(b->ids);
	b->ids = TAKE_PTR(insns);
	b->n_ids = n;
	/* One program when it gives the same answers (see above); when it
	 * cannot, the two are installed apart. */
	free(b->joined);
	b->joined = NULL;
	b->n_joined = 0;
	r = nsb_seccomp_join(b->insns, b->n_insns, uid, gid, &b->ids_act, &b->joined, &b->n_joined);
	if (r == -ENOMEM)
		return nsb_error_set(e, r, NSB_STAGE_PROFILE, "join the unmapped-ids filter");
	return 0;
}
