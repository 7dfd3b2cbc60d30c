/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seccomp_mask_fuzz: the probes: after the operations, syscalls of both ABIs that the
 * masks allow or deny, whose outcome the model knows.
 *
 * Part of seccomp_mask_fuzz.c, which includes the parts in this order:
 * model.h, arena.h, ops.h, probes.h, child.h, runner.h, threads.h.
 */
#ifndef _SECCOMP_MASK_FUZZ_PROBES_H
#define _SECCOMP_MASK_FUZZ_PROBES_H

static void gen_probe(struct probe *p, const struct model *m)
{
	unsigned int k = rn(100);

	p->abi = have_ia32 && chance(40) ? !NATIVE : NATIVE;
	if (p->abi == ABI64 && NATIVE == ABI32 && chance(50))
		p->abi = ABI32;	/* far jumps are slow under TCG: fewer of them */
	p->how = how_for(p->abi);
#if X86_BUILD == 32
	if (p->abi == ABI32 && chance(50))
		p->how = H_VDSO;
#endif
	if (k < 50) {
		p->kind = 0;
		p->nr = harmless[p->abi][rn(12)];
	} else if (k < 75) {
		p->kind = 1;
		if (p->abi == ABI64)
			p->nr = chance(50) ? 336 + rn(423 - 336 + 1) : 463 + rn(MAXB - 463);
		else
			p->nr = chance(50) ? unimpl32[rn(ARRAY_SIZE(unimpl32))] :
					     463 + (int)rn(MAXB - 463);
	} else if (k < 95) {
		static const long never[] = { MAXB, MAXB + 1, 4096, 0x7fffffff, -1, X32_BIT + 39,
					      X32_BIT + 1 };

		p->kind = 2;
		p->nr = never[rn(7)];
		if (p->abi == ABI32 && p->nr > 0x7fffffff)
			p->nr = MAXB;
		/* version 2: -1 is never denied: the unimplemented answer */
		if (p->nr == -1)
			p->kind = 1;
	} else {
#ifdef HAVE_URETPROBE
		p->kind = 3;
#else
		/* Before 6.11, 335 is an unimplemented x86-64 number. */
		p->kind = 1;
#endif
		p->abi = ABI64;
		p->how = how_for(ABI64);
		p->nr = NR64_URETPROBE;
	}
	p->allowed = allowed(m, p->abi, p->nr);
}

static long run_probe(const struct probe *p)
{
	/* fd -1 for close/dup/read/write, NULL pointers, 0 elsewhere */
	long a = (p->kind == 0 && (p->nr == harmless[p->abi][6] || p->nr == harmless[p->abi][7] ||
				   p->nr == harmless[p->abi][8] || p->nr == harmless[p->abi][9]))
		 ? -1 : 0;

	if (p->abi == ABI32)
		a = (uint32_t)a;
	return do_sys(p->abi, p->how, p->nr, a, 0, 0, 0, 0);
}

#endif /* _SECCOMP_MASK_FUZZ_PROBES_H */
