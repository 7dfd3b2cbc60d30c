/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seccomp_mask_fuzz: the ABIs of an x86-64 or arm64 kernel and their syscall numbers, raw
 * syscalls through a chosen ABI and entry, the random numbers, and the
 * reference model of one task: which syscalls its masks allow.
 *
 * Part of seccomp_mask_fuzz.c, which includes the parts in this order:
 * model.h, arena.h, ops.h, probes.h, child.h, runner.h, threads.h.
 */
#ifndef _SECCOMP_MASK_FUZZ_MODEL_H
#define _SECCOMP_MASK_FUZZ_MODEL_H

/*
 * MAXB: the bits of a table's numbers, SECCOMP_MASK_MAX_BITS. MAXB_ALL:
 * those of the largest mask of any ABI, the room of the model's masks:
 * on arm64 the AArch32 mask has 16 more, those of the ARM-private calls
 * 0x0f0000 + k (bit 1024 + k). abi_maxb[]: each ABI's largest nbits.
 */
#define MAXB		SECCOMP_MASK_MAX_BITS
#ifdef ARM64_BUILD
#define MAXB_ALL	ARM_MAX_BITS
#else
#define MAXB_ALL	MAXB
#endif
#define MASK_BYTES	(MAXB_ALL / 8)
#define PG		4096UL

/*
 * The two ABIs of an x86-64 (arm64) kernel, indexed like the kernel does:
 * ABI64 the native one (x86_64, AArch64), ABI32 the compat one (i386,
 * AArch32).
 */
enum { ABI64, ABI32, NABI };

/* This program's ABI: X86_BUILD or ARM64_BUILD is its word size. */
#if (defined(X86_BUILD) && X86_BUILD == 64) || \
	(defined(ARM64_BUILD) && ARM64_BUILD == 64)
#define NATIVE		ABI64
#define BUILD		"64"
#else
#define NATIVE		ABI32
#define BUILD		"32"
#endif

/* The numbers the model makes each ABI's calls by. */
struct abi_nrs {
	int prctl, seccomp, capset, openat, read, close, fork, wait4,
	    exit_group, execve, getpid, futex, sched_yield;
};

#ifdef X86_BUILD
static const uint32_t abi_arch[NABI] = { AUDIT_ARCH_X86_64, AUDIT_ARCH_I386 };
static const char *const abi_name[NABI] = { "x86_64", "i386" };
static const unsigned int abi_maxb[NABI] = { MAXB, MAXB };

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

/* The first argument of fork (the 64-bit one has no flags). */
#define FORK_ARG0	0

/* The highest harness syscall number (i386 seccomp) + 1. */
#define SAFE_NBITS	355

static inline void cpu_relax(void)
{
	__builtin_ia32_pause();
}

#else /* ARM64_BUILD */

static const uint32_t abi_arch[NABI] = { AUDIT_ARCH_AARCH64, AUDIT_ARCH_ARM };
static const char *const abi_name[NABI] = { "aarch64", "arm" };
static const unsigned int abi_maxb[NABI] = { MAXB, ARM_MAX_BITS };

/* AArch64 has no fork: clone (220) with SIGCHLD (FORK_ARG0) is one. */
static const struct abi_nrs NR[NABI] = {
	[ABI64] = { 167, 277, 91, 56, 63, 57, 220, 260, 94, 221, 172, 98, 124 },
	[ABI32] = { 172, 383, 185, 322, 3, 6, 2, 114, 248, 11, 20, 240, 158 },
};

/* Syscalls that are harmless with the arguments the probes give them. */
static const int harmless[NABI][12] = {
	/* getpid getppid getuid gettid sched_yield getpgid(0) close dup read write times getsid */
	[ABI64] = { 172, 173, 174, 178, 124, 155, 57, 23, 63, 64, 153, 156 },
	/* getpid getppid getuid32 gettid sched_yield getpgrp close dup read write times getsid */
	[ABI32] = { 20, 64, 199, 224, 158, 65, 6, 41, 3, 4, 43, 147 },
};

/*
 * Unimplemented below 463 (above, everything up to 1023 is): AArch64 244
 * to 259 (the unused architecture range) and 295 to 401; AArch32 the
 * holes of its table (6.12) and its sys_ni_syscall entries.
 */
static const int unimpl32[] = { 7, 13, 17, 18, 22, 25, 27, 28, 30, 31, 32, 35, 44, 48,
				53, 56, 58, 59, 68, 69, 76, 82, 84, 89, 90, 98, 101, 102,
				109, 110, 112, 113, 117, 123, 127, 130, 134, 137, 149,
				166, 167, 169, 188, 189, 222, 223, 249, 254, 255, 313 };
#define X32_BIT		0x40000000

/*
 * Raw syscalls through this program's own ABI only: an arm64 task cannot
 * make those of the other execution state (probes and operations never
 * pick it: call_other is false).
 */
enum how { H_SVC };
static const char *const how_name[] = { "svc #0" };

static long do_sys(int abi, int how, long nr, long a, long b, long c, long d, long e)
{
	(void)abi;
	(void)how;
	return own_sys(nr, a, b, c, d, e);
}

static int how_for(int abi)
{
	(void)abi;
	return H_SVC;
}

#if ARM64_BUILD == 64
#define FORK_ARG0	SIGCHLD
#else
#define FORK_ARG0	0
#endif

/* The highest harness syscall number (AArch32 seccomp) + 1. */
#define SAFE_NBITS	384

static inline void cpu_relax(void)
{
	asm volatile ("yield" ::: "memory");
}

#endif /* ARM64_BUILD */

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

/*
 * have_ia32: the kernel has the compat ABI (ia32, AArch32), whose masks
 * are installed and shown; the 32-bit builds need it anyway. call_other:
 * this program can make calls through the other ABI (x86: int $0x80, a
 * far jump; never on arm64).
 */
static bool have_ia32 = true;
static bool call_other = true;
static int nabis = NABI;

/*
 * What a number the kernel does not implement returns through each ABI
 * with no mask in force (-ENOSYS): an allowed one must return the same.
 */
static long unimpl_ret[NABI];

static bool bit(const uint8_t *m, unsigned long n)
{
	return n < MAXB_ALL && (m[n / 8] >> (n % 8)) & 1;
}

/*
 * The bit of syscall @nr in the mask of @abi, or -1 for a number outside
 * every mask: the numbers of the table below MAXB, and on arm64 the
 * ARM-private calls of AArch32 (0x0f0000 + k: bit 1024 + k).
 */
static long mask_bit(int abi, long nr)
{
	if (nr >= 0 && nr < MAXB)
		return nr;
#ifdef ARM64_BUILD
	if (abi == ABI32 && nr >= ARM_PRIVATE_BASE &&
	    nr < ARM_PRIVATE_BASE + ARM_PRIVATE_NR)
		return MAXB + nr - ARM_PRIVATE_BASE;
#endif
	return -1;
}

/* Clear the bits of @m past the largest nbits of @abi. */
static void clamp_mask(uint8_t *m, int abi)
{
	for (unsigned int i = abi_maxb[abi]; i < MAXB_ALL; i++)
		m[i / 8] &= ~(1 << (i % 8));
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
	return mask_bit(abi, nr) >= 0 && bit(m->mask[abi], mask_bit(abi, nr));
}

static bool subset(const uint8_t *a, const uint8_t *b)
{
	for (int i = 0; i < MASK_BYTES; i++)
		if (a[i] & ~b[i])
			return false;
	return true;
}

/* The kernel's %*pbl format of a mask (its bits past an ABI's nbits clear). */
static void fmt_mask(const uint8_t *m, char *buf, size_t len)
{
	size_t pos = 0;
	unsigned int i = 0, s;

	buf[0] = '\0';
	while (i < MAXB_ALL) {
		if (!bit(m, i)) {
			i++;
			continue;
		}
		s = i;
		while (i + 1 < MAXB_ALL && bit(m, i + 1))
			i++;
		if (pos < len)
			pos += snprintf(buf + pos, len - pos, s == i ? "%s%u" : "%s%u-%u",
					pos ? "," : "", s, i);
		i++;
	}
}

#endif /* _SECCOMP_MASK_FUZZ_MODEL_H */
