/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seccomp_mask_fuzz: argument memory: the pages the generated arguments point into, with
 * a fixed layout of readable, read-only and unmapped pages.
 *
 * Part of seccomp_mask_fuzz.c, which includes the parts in this order:
 * model.h, arena.h, ops.h, probes.h, child.h, runner.h, threads.h.
 */
#ifndef _SECCOMP_MASK_FUZZ_ARENA_H
#define _SECCOMP_MASK_FUZZ_ARENA_H

/* Argument memory: an arena of pages with a fixed layout, applied by the
 * child before its first call. The parent keeps a readable copy and knows
 * which ranges the kernel can read.
 */

enum pstate { RW, RO, NONE, UNMAP };
#define NPAGES 8
static const enum pstate layout[NPAGES] = { RW, RW, NONE, RO, RO, UNMAP, RW, UNMAP };
static const char *const pstate_name[] = { "rw", "ro", "PROT_NONE", "unmapped" };

struct arena {
	uint8_t *base;
	unsigned int used[NPAGES];	/* 16 slots of 256 bytes per page */
	unsigned int special;		/* special positions taken */
};

#define NARENA 2
static struct arena arenas[NARENA];	/* [0] below 4 GiB, [1] anywhere */
static int narenas;

static const char *where(uint64_t addr, uint64_t len, char *buf, size_t blen)
{
	for (int a = 0; a < narenas; a++) {
		uint64_t b = (uintptr_t)arenas[a].base;

		if (addr >= b && addr < b + NPAGES * PG) {
			unsigned int p = (addr - b) / PG;
			unsigned int q = len ? (addr + len - 1 - b) / PG : p;

			snprintf(buf, blen, "arena%d page %u+%#lx (%s)%s%s", a, p,
				 (unsigned long)((addr - b) % PG), pstate_name[layout[p]],
				 q != p ? " to " : "",
				 q != p ? (q < NPAGES ? pstate_name[layout[q]] : "beyond") : "");
			return buf;
		}
	}
	snprintf(buf, blen, "outside the arenas");
	return buf;
}

static bool readable(uint64_t addr, uint64_t len)
{
	if (!len)
		return true;
	for (int a = 0; a < narenas; a++) {
		uint64_t b = (uintptr_t)arenas[a].base;

		if (addr >= b && addr < b + NPAGES * PG) {
			if (addr + len > b + NPAGES * PG)
				return false;
			for (uint64_t p = (addr - b) / PG; p <= (addr + len - 1 - b) / PG; p++)
				if (layout[p] != RW && layout[p] != RO)
					return false;
			return true;
		}
	}
	return false;
}

/* Where an object goes. */
enum pos {
	P_RW, P_RO, P_STR_RW, P_END_RW_NONE, P_END_RO_UNMAP, P_END_RW_UNMAP,
	P_STR_RO,
	/* not (entirely) readable: */
	P_OVER_NONE, P_IN_NONE, P_OVER_UNMAP, P_IN_UNMAP, P_NULL, P_KERNEL,
	P_NONCANON, P_HIGH32,
	NPOS
};

#define FIRST_BAD P_OVER_NONE

static int pick_pos(bool good_bias)
{
	if (chance(good_bias ? 88 : 50)) {
		static const int good[] = { P_RW, P_RW, P_RW, P_RO, P_STR_RW, P_END_RW_NONE,
					    P_END_RO_UNMAP, P_END_RW_UNMAP, P_STR_RO };
		return good[rn(ARRAY_SIZE(good))];
	}
	return FIRST_BAD + rn(NPOS - FIRST_BAD);
}

static uint64_t slot(struct arena *ar, bool ro)
{
	static const int rwp[] = { 0, 1, 6 }, rop[] = { 3, 4 };

	for (int tries = 0; tries < 64; tries++) {
		int p = ro ? rop[rn(2)] : rwp[rn(3)];
		int s = 1 + rn(14);

		if (!(ar->used[p] & (1u << s))) {
			ar->used[p] |= 1u << s;
			return (uintptr_t)ar->base + p * PG + s * 256 + rn(8) * 8;
		}
	}
	for (int p = 0; p < NPAGES; p++)
		for (int s = 1; s < 15; s++)
			if ((layout[p] == RW || layout[p] == RO) && !(ar->used[p] & (1u << s))) {
				ar->used[p] |= 1u << s;
				return (uintptr_t)ar->base + p * PG + s * 256;
			}
	ksft_exit_fail_msg("arena full\n");
	return 0;	/* not reached (the 6.1 kselftest.h has no __noreturn) */
}

/*
 * An address for an object of @len bytes (<= 256) at position @pos in
 * arena @ar; @low32 when the address must fit a 32-bit register.
 */
static uint64_t place(int *posp, uint64_t len, bool low32, int *arp)
{
	int a = low32 || narenas == 1 ? 0 : rn(narenas);
	struct arena *ar = &arenas[a];
	uint64_t b = (uintptr_t)ar->base;
	int pos = *posp;

	*arp = a;
	if (pos >= P_STR_RW && pos <= P_IN_UNMAP && pos != P_IN_NONE && pos != P_IN_UNMAP) {
		/*
		 * One object per page edge: an object ending at the edge and
		 * one running over it would overlap.
		 */
		unsigned int edge = pos == P_END_RW_NONE || pos == P_OVER_NONE ? 1 :
				    pos == P_END_RO_UNMAP || pos == P_OVER_UNMAP ? 2 :
				    pos == P_END_RW_UNMAP ? 3 : pos == P_STR_RW ? 4 : 5;

		if (ar->special & (1u << edge) || (len < 2 && (pos == P_STR_RW || pos == P_STR_RO)))
			pos = P_RW;
		else
			ar->special |= 1u << edge;
	}
	*posp = pos;
	switch (pos) {
	case P_RW:
		return slot(ar, false);
	case P_RO:
		return slot(ar, true);
	case P_STR_RW:
	case P_STR_RO:
		return b + (pos == P_STR_RW ? 1 : 4) * PG - 1 - rn(len - 1);
	case P_END_RW_NONE:
	case P_END_RO_UNMAP:
		return b + (pos == P_END_RW_NONE ? 2 : 5) * PG - len;
	case P_OVER_NONE:
	case P_OVER_UNMAP:
		/* Running over the edge: at least its last byte is past it. */
		b += (pos == P_OVER_NONE ? 2 : 5) * PG;
		return len < 2 ? b : b - 1 - rn(len - 1);
	case P_IN_NONE:
		return b + 2 * PG + 256 + rn(8) * 8;
	case P_IN_UNMAP:
		return b + 5 * PG + 512;
	case P_END_RW_UNMAP:
		return b + 7 * PG - len;
	case P_NULL:
		return 0;
	case P_KERNEL:
		return low32 ? 0xfffff000UL : 0xffffffff81000000ULL;
	case P_NONCANON:
		return low32 ? 0xffffe800UL : 0x8000000000001000ULL;
	case P_HIGH32:
	default:
		return low32 ? 0xfffffff0UL : 0x00007ffffffff000ULL;
	}
}

/* Write @len bytes at @addr into the parent's copy when it is an arena address. */
static void put(uint64_t addr, const void *src, uint64_t len)
{
	for (int a = 0; a < narenas; a++) {
		uint64_t b = (uintptr_t)arenas[a].base;

		if (addr >= b && addr + len <= b + NPAGES * PG) {
			memcpy((void *)(uintptr_t)addr, src, len);
			return;
		}
	}
}

#endif /* _SECCOMP_MASK_FUZZ_ARENA_H */
