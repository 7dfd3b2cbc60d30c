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

#ifdef X86_BUILD
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
		/* every negative number but -1 is denied; -X32_BIT - 1: -1 without bit 30 */
		static const long never[] = { MAXB, MAXB + 1, 4096, 0x7fffffff, -1, X32_BIT + 39,
					      X32_BIT + 1, -2, INT_MIN, -X32_BIT - 1 };

		p->kind = 2;
		p->nr = never[rn(ARRAY_SIZE(never))];
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

#else /* ARM64_BUILD */
/*
 * arm64: probes of this program's own ABI only. Besides the kinds of x86
 * (no uretprobe), AArch32 probes the ARM-private calls 0x0f0000 + k (bit
 * 1024 + k): cacheflush and set_tls are implemented (kind 0, made with
 * arguments that change nothing), the 14 others are not (kind 1); and
 * 0x0f0010, 0x0effff and 0x0f07ff are outside every mask (kind 2; -ENOSYS
 * unmasked, below 0x0f0800, where SIGILL starts: no AArch32 probe is
 * made from there on).
 */
static void gen_probe(struct probe *p, const struct model *m)
{
	unsigned int k = rn(100);

	p->abi = NATIVE;
	p->how = how_for(p->abi);
	if (k < 45) {
		p->kind = 0;
		p->nr = harmless[p->abi][rn(12)];
	} else if (k < 70) {
		p->kind = 1;
		if (p->abi == ABI64)
			p->nr = chance(50) ? (chance(30) ? 244 + rn(16) : 295 + rn(107)) :
					     463 + rn(MAXB - 463);
		else
			p->nr = chance(50) ? unimpl32[rn(ARRAY_SIZE(unimpl32))] :
					     463 + (int)rn(MAXB - 463);
	} else if (k < 90 || p->abi == ABI64) {
		/* every negative number but -1 is denied */
		static const long never64[] = { MAXB, MAXB + 1, 4096, 0x7fffffff, -1,
						X32_BIT + 39, X32_BIT + 1, -2, INT_MIN };
		/*
		 * AArch32 raises SIGILL from 0x0f0800 on, without a mask
		 * (a negative number is below it: -ENOSYS)
		 */
		static const long never32[] = { MAXB, MAXB + 1, 4096, ARM_PRIVATE_END - 1, -1,
						ARM_PRIVATE_BASE + ARM_PRIVATE_NR,
						ARM_PRIVATE_BASE - 1, -2, INT_MIN };

		p->kind = 2;
		p->nr = p->abi == ABI64 ? never64[rn(ARRAY_SIZE(never64))] :
					  never32[rn(ARRAY_SIZE(never32))];
		/* -1 is never denied: the unimplemented answer */
		if (p->nr == -1)
			p->kind = 1;
	} else {
		p->nr = ARM_PRIVATE_BASE + rn(ARM_PRIVATE_NR);
		p->kind = p->nr == ARM_NR_set_tls || p->nr == ARM_NR_cacheflush ? 0 : 1;
	}
	p->allowed = allowed(m, p->abi, p->nr);
}

#if ARM64_BUILD == 32
/* The thread pointer (TPIDRURO), which set_tls sets. */
static unsigned long read_tls(void)
{
	unsigned long v;

	asm volatile ("mrc p15, 0, %0, c13, c0, 3" : "=r" (v));
	return v;
}

static char flush_buf[64];
#endif

static long run_probe(const struct probe *p)
{
#if ARM64_BUILD == 32
	unsigned long buf = (unsigned long)flush_buf;

	/* set_tls: to the thread pointer it is; cacheflush: a valid range */
	if (p->nr == ARM_NR_set_tls)
		return do_sys(p->abi, p->how, p->nr, read_tls(), 0, 0, 0, 0);
	if (p->nr == ARM_NR_cacheflush)
		return do_sys(p->abi, p->how, p->nr, buf, buf + sizeof(flush_buf),
			      0, 0, 0);
#endif
	/* fd -1 for close/dup/read/write, NULL pointers, 0 elsewhere */
	long a = (p->kind == 0 && (p->nr == harmless[p->abi][6] || p->nr == harmless[p->abi][7] ||
				   p->nr == harmless[p->abi][8] || p->nr == harmless[p->abi][9]))
		 ? -1 : 0;

	return do_sys(p->abi, p->how, p->nr, a, 0, 0, 0, 0);
}
#endif /* ARM64_BUILD */

#ifdef X86_BUILD
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
#endif

#endif /* _SECCOMP_MASK_FUZZ_PROBES_H */
