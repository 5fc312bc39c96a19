// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A classic BPF interpreter for seccomp programs (pure, supervisor): the
 * supervisor runs the installed program on a notification's seccomp_data to
 * learn which errno the matching rule carries (filter.c says where it is).
 * Only what the kernel's seccomp checker admits is implemented; anything
 * else, an out-of-range load or a jump past the end answers KILL_PROCESS,
 * never a made-up allow.  Jumps only go forward, so the run is bounded by n.
 */
#include <stddef.h>
#include <stdint.h>

#include "base/macro.h"
#include "seccomp/filter.h"

_waiting_ static uint32_t alu(uint16_t op, uint32_t a, uint32_t x, bool *bad)
{
	switch (op) {
	case BPF_ADD:
		return a + x;
	case BPF_SUB:
		return a - x;
	case BPF_MUL:
		return a * x;
	case BPF_DIV:
		if (x == 0)
			*bad = true;
		return x ? a / x : 0;
	case BPF_MOD:
		if (x == 0)
			*bad = true;
		return x ? a % x : 0;
	case BPF_AND:
		return a & x;
	case BPF_OR:
		return a | x;
	case BPF_XOR:
		return a ^ x;
	case BPF_LSH:
		return x < 32 ? a << x : 0;
	case BPF_RSH:
		return x < 32 ? a >> x : 0;
	case BPF_NEG:
		return -a;
	}
	*bad = true;
	return 0;
}

static bool jump_taken(uint16_t op, uint32_t a, uint32_t v, bool *bad)
{
	bool taken = false;

	if (!nsb_bpf_compare(op, a, v, &taken))
		*bad = true;
	return taken;
}

_waiting_ uint32_t nsb_bpf_eval_args(const struct sock_filter *insns, size_t n,
				     const struct seccomp_data *d, bool *ret_reads_args)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = {0};
	bool bad = false;

	*ret_reads_args = false;
	for (size_t pc = 0; pc < n && !bad; pc++) {
		const struct sock_filter *f = &insns[pc];
		uint32_t src = BPF_SRC(f->code) == BPF_X ? x : f->k;

		switch (BPF_CLASS(f->code)) {
		case BPF_LD:
			if (f->code == (BPF_LD | BPF_W | BPF_ABS) && f->k % 4 == 0 &&
			    f->k + 4 <= sizeof(*d)) {
				a = *(const uint32_t *)((const char *)d + f->k);
				/* Beyond nr and arch: the call site or an argument. */
				if (f->k >= offsetof(struct seccomp_data, instruction_pointer))
					*ret_reads_args = true;
			} else if (f->code == (BPF_LD | BPF_W | BPF_LEN))
				a = sizeof(*d);
			else if (f->code == (BPF_LD | BPF_IMM))
				a = f->k;
			else if (f->code == (BPF_LD | BPF_MEM) && f->k < BPF_MEMWORDS)
				a = mem[f->k];
			else
				bad = true;
			break;
		case BPF_LDX:
			if (f->code == (BPF_LDX | BPF_W | BPF_LEN))
				x = sizeof(*d);
			else if (f->code == (BPF_LDX | BPF_IMM))
				x = f->k;
			else if (f->code == (BPF_LDX | BPF_MEM) && f->k < BPF_MEMWORDS)
				x = mem[f->k];
			else
				bad = true;
			break;
		case BPF_ST:
		case BPF_STX:
			if (f->k >= BPF_MEMWORDS)
				bad = true;
			else
				mem[f->k] = BPF_CLASS(f->code) == BPF_ST ? a : x;
			break;
		case BPF_ALU:
			a = alu(BPF_OP(f->code), a, src, &bad);
			break;
		case BPF_JMP:
			if (BPF_OP(f->code) == BPF_JA)
				pc += f->k;
			else
				pc += jump_taken(BPF_OP(f->code), a, src, &bad) ? f->jt : f->jf;
			break;
		case BPF_RET:
			if (BPF_RVAL(f->code) == BPF_K)
				return f->k;
			if (BPF_RVAL(f->code) == BPF_A)
				return a;
			bad = true;
			break;
		case BPF_MISC:
			if (BPF_MISCOP(f->code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		}
	}
	return SECCOMP_RET_KILL_PROCESS;
}

_waiting_ uint32_t nsb_bpf_eval(const struct sock_filter *insns, size_t n,
				const struct seccomp_data *d)
{
	bool reads;

	return nsb_bpf_eval_args(insns, n, d, &reads);
}
