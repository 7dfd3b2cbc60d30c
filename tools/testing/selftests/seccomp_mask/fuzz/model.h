/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seccomp_mask_fuzz: the ABIs of an x86-64 kernel and their syscall numbers, raw syscalls
 * through a chosen ABI and entry, the random numbers, and the reference
 * model of one task: which syscalls its masks allow.
 *
 * Part of seccomp_mask_fuzz.c, which includes the parts in this order:
 * model.h, arena.h, ops.h, probes.h, child.h, runner.h, threads.h.
 */
#ifndef _SECCOMP_MASK_FUZZ_MODEL_H
#define _SECCOMP_MASK_FUZZ_MODEL_H

#define MAXB		SECCOMP_MASK_MAX_BITS
#define MASK_BYTES	(MAXB / 8)
#define PG		4096UL

/* The two ABIs of an x86-64 kernel, indexed like the kernel does. */
enum { ABI64, ABI32, NABI };
#if X86_BUILD == 64
#define NATIVE		ABI64
#define BUILD		"64"
#else
#define NATIVE		ABI32
#define BUILD		"32"
#endif
static const uint32_t abi_arch[NABI] = { AUDIT_ARCH_X86_64, AUDIT_ARCH_I386 };
static const char *const abi_name[NABI] = { "x86_64", "i386" };

struct abi_nrs {
	int prctl, seccomp, capset, openat, read, close, fork, wait4,
	    exit_group, execve, getpid, futex, sched_yield;
};

static const struct abi_nrs NR[NABI] = {
	[ABI64] = { 157, 317, 126, 257, 0, 3, 57, 61, 231, 59, 39, 202, 24 },
	[ABI32] = { 172, 354, 185, 295, 3, 6, 2, 114, 252, 11, 20, 240, 158 },
};

/* Syscalls that are harmless with the arguments the probes give them. */
static const int harmless[NABI][12] = {
	/* getpid getppid getuid gettid sched_yield getpgrp close dup read write times getsid */
	[ABI64] = { 39, 110, 102, 186, 24, 111, 3, 32, 0, 1, 100, 124 },
	[ABI32] = { 20, 64, 199, 224, 158, 65, 6, 41, 3, 4, 43, 147 },
};

/* Unimplemented below 463 (above, everything up to 1023 is). */
static const int unimpl32[] = { 17, 31, 32, 35, 44, 53, 56, 58, 98, 112, 127,
				130, 137, 167, 169, 188, 189, 253, 273 };
#define NR64_URETPROBE	335
#define X32_BIT		0x40000000

/* Raw syscalls through a chosen ABI and entry: return value or -errno. */

enum how { H_SYSCALL, H_INT80, H_VDSO, H_FARJMP };
static const char *const how_name[] = { "syscall", "int $0x80", "vdso", "far jump+syscall" };

static long do_sys(int abi, int how, long nr, long a, long b, long c, long d, long e)
{
	if (abi == ABI64)
		return sys64(nr, a, b, c, d, e);
#if X86_BUILD == 32
	if (how == H_VDSO) {
		long r = syscall(nr, a, b, c, d, e);

		return r == -1 ? -errno : r;
	}
#else
	(void)how;	/* int $0x80 is the only ia32 entry of the 64-bit build */
#endif
	return sys32(nr, a, b, c, d, e);
}

static int how_for(int abi)
{
#if X86_BUILD == 64
	return abi == ABI64 ? H_SYSCALL : H_INT80;
#else
	return abi == ABI64 ? H_FARJMP : H_INT80;
#endif
}

/* Random numbers: xorshift64*, one stream per attempt. */

static uint64_t rs;

static uint64_t rnd(void)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return rs * 0x2545F4914F6CDD1DULL;
}

static unsigned int rn(unsigned int n) { return n ? rnd() % n : 0; }
static bool chance(unsigned int pct) { return rn(100) < pct; }

static uint64_t mix(uint64_t seed, uint64_t i)
{
	uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (i + 1);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return (z ^ (z >> 31)) | 1;
}

/* The reference model of one task. */

struct model {
	int mode;		/* PR_GET_SECCOMP: 0, 2 (filters) or 3 (masks only) */
	bool masked;		/* masks installed (version 2: also in mode 2) */
	int nfilters;
	bool nnp, cap;
	uint8_t mask[NABI][MASK_BYTES];
};

static bool have_ia32 = true;	/* the 32-bit build needs it anyway */
static int nabis = NABI;

/*
 * What a number the kernel does not implement returns through each ABI
 * with no mask in force (-ENOSYS): an allowed one must return the same.
 */
static long unimpl_ret[NABI];

static bool bit(const uint8_t *m, unsigned long n)
{
	return n < MAXB && (m[n / 8] >> (n % 8)) & 1;
}

static void setbit(uint8_t *m, unsigned int n)
{
	m[n / 8] |= 1 << (n % 8);
}

static bool allowed(const struct model *m, int abi, long nr)
{
	if (!m->masked)
		return true;
	/* version 2: -1, how a tracer skips a syscall, is never denied */
	if (nr == -1)
		return true;
#ifdef HAVE_URETPROBE
	if (abi == ABI64 && nr == NR64_URETPROBE)
		return true;
#endif
	return nr >= 0 && bit(m->mask[abi], nr);
}

static bool subset(const uint8_t *a, const uint8_t *b)
{
	for (int i = 0; i < MASK_BYTES; i++)
		if (a[i] & ~b[i])
			return false;
	return true;
}

/* The kernel's %*pbl format of a 1024-bit mask. */
static void fmt_mask(const uint8_t *m, char *buf, size_t len)
{
	size_t pos = 0;
	unsigned int i = 0, s;

	buf[0] = '\0';
	while (i < MAXB) {
		if (!bit(m, i)) {
			i++;
			continue;
		}
		s = i;
		while (i + 1 < MAXB && bit(m, i + 1))
			i++;
		if (pos < len)
			pos += snprintf(buf + pos, len - pos, s == i ? "%s%u" : "%s%u-%u",
					pos ? "," : "", s, i);
		i++;
	}
}

#endif /* _SECCOMP_MASK_FUZZ_MODEL_H */
