// SPDX-License-Identifier: GPL-2.0
/*
 * seccomp_mask_fuzz: a bounded fuzzer of the seccomp mask mode (mode 3)
 * against a reference model of its contract.
 *
 * Every attempt is a random sequence of calls of
 *	prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK, bits, nbits, arg5)
 *	seccomp(SECCOMP_SET_MODE_MASK, flags, &set)
 * and of their neighbours (filter and strict mode, PR_GET_SECCOMP, bad
 * modes and operations, no_new_privs, dropping CAP_SYS_ADMIN), made from
 * both ABIs of a 64-bit kernel: the 64-bit build uses `syscall` and
 * `int $0x80`, the 32-bit build the vDSO, `int $0x80` and a far jump to
 * 64-bit code. Arguments are random and boundary values: nbits 0, 1, 7, 8,
 * 1024, 1025, huge; NULL, unmapped, PROT_NONE, read-only, page-straddling
 * pointers and objects ending exactly at a page that is not readable;
 * random flags and reserved fields; duplicate and unknown arches; nr_masks
 * 0 and huge.
 *
 * The parent generates the attempt and, from the contract alone, what the
 * kernel must answer: the errno (any of those the contract allows when
 * several rules are broken at once) or success, which masks are in force
 * afterwards, and which call is the first one a mask denies (the process
 * must die by SIGSYS right there). A child runs the calls and writes what
 * happened into shared memory (without syscalls of its own). The parent
 * checks every answer, reads the child's /proc/<pid>/status at a
 * checkpoint, has the child read /proc/self/status when its masks allow
 * it, and probes the masks: grandchildren (or the child itself when fork
 * is denied) make allowed and denied syscalls of both ABIs, numbers the
 * kernel does not implement (the answer they get with no mask), numbers
 * >= 1024, x32 numbers and -1 (denied), and the uretprobe syscall (never
 * denied).
 *
 * A second phase runs several threads of one process that install and
 * tighten their own masks at once (each against its own model) while
 * another thread forks children that exec this program under a mask (the
 * exec'd image checks its masks and that a denied syscall kills it) and
 * another process keeps reading /proc/<pid>/task/<tid>/status of all of
 * them.
 *
 * Usage: seccomp_mask_fuzz_{64,32} [-t SECONDS] [-n ATTEMPTS] [-s SEED]
 *                                   [-a ATTEMPT] [-v]
 * Defaults: 3 seconds, or $SECCOMP_MASK_FUZZ_SECONDS, $SECCOMP_MASK_FUZZ_SEED.
 * -a replays one attempt of a seed (as printed with a disagreement).
 * The seed is printed first; every disagreement is printed with the seed,
 * the attempt, the exact arguments and what the contract demands.
 */
#define SECCOMP_MASK_NO_HARNESS
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/resource.h>

#include "common.h"

#ifndef X86_BUILD
int main(void)
{
	ksft_print_header();
	ksft_exit_skip("the fuzzer knows the x86 ABIs only\n");
}
#else

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

/* ------------------------------------------------------------------ */
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

/* ------------------------------------------------------------------ */
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

/* ------------------------------------------------------------------ */
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
	if (abi == ABI64 && nr == NR64_URETPROBE)
		return true;
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

/* ------------------------------------------------------------------ */
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
		return b + 1 * PG - 1 - rn(len - 1);
	case P_END_RW_NONE:
		return b + 2 * PG - len;
	case P_OVER_NONE:
		return len < 2 ? b + 2 * PG : b + 2 * PG - 1 - rn(len - 1);
	case P_IN_NONE:
		return b + 2 * PG + 256 + rn(8) * 8;
	case P_STR_RO:
		return b + 4 * PG - 1 - rn(len - 1);
	case P_END_RO_UNMAP:
		return b + 5 * PG - len;
	case P_OVER_UNMAP:
		return len < 2 ? b + 5 * PG : b + 5 * PG - 1 - rn(len - 1);
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

/* ------------------------------------------------------------------ */
/* Operations. */

enum optype {
	OP_PRCTL_MASK, OP_SECCOMP_MASK, OP_FILTER, OP_STRICT, OP_GET, OP_NNP,
	OP_DROPCAP, OP_BADMODE, OP_BADOP, NOPTYPES
};

static const char *const op_name[] = {
	"prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK)", "seccomp(SECCOMP_SET_MODE_MASK)",
	"prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, allow-all)", "strict mode",
	"prctl(PR_GET_SECCOMP)", "prctl(PR_SET_NO_NEW_PRIVS)",
	"capset(-CAP_SYS_ADMIN)", "prctl(PR_SET_SECCOMP, bad mode)",
	"seccomp(bad op)",
};

#define MAXOPS 8
#define MAXERR 6

struct op {
	int type, abi, how;
	long nr;
	long arg[5];
	/* expectation */
	bool death;		/* the mask denies this very call */
	bool any_ret;		/* success: any return value >= 0 */
	long ret;		/* success: this return value */
	int nerr, err[MAXERR];	/* failure: one of these */
};

struct probe {
	int abi, how;
	long nr;
	int kind;		/* 0 implemented, 1 unimplemented, 2 never allowed, 3 uretprobe */
	bool allowed;
};

#define MAXPROBES 6

/*
 * What the child reports, without syscalls; shared with the parent. The
 * int and long fields are written and read while other processes or
 * threads run: every access goes through shm_get(), shm_set() or
 * shm_inc(). The two strings are read only after their writer is gone.
 */
struct shm {
	int started, done;	/* ops */
	long ret[MAXOPS];
	int at_checkpoint, go;
	int self_len;
	char self_status[4096];
	int probes_started;
	int p_started[MAXPROBES], p_returned[MAXPROBES], p_waited[MAXPROBES];
	long p_ret[MAXPROBES];
	int p_status[MAXPROBES];
	/* threads phase */
	int t_started[4], t_done[4];
	long t_ret[4][MAXOPS];
	int t_tid[4];
	int t_release, t_ready;
	int fork_execs, fork_bad, fork_badstatus, reads, read_bad;
	char read_bad_line[256];
};

#define shm_get(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define shm_set(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define shm_inc(p)	__atomic_fetch_add(p, 1, __ATOMIC_SEQ_CST)

struct attempt {
	uint64_t seed;
	int nops;
	struct op ops[MAXOPS];
	struct model before[MAXOPS + 1];	/* model before op i; [nops] = final */
	int death;				/* index of the op that must kill, or -1 */
	bool selfread;
	bool use_fork;
	int nprobes;
	struct probe probes[MAXPROBES];
	int exit_abi;
	uint64_t status_path;			/* "/proc/self/status" in the arena */
	char desc[MAXOPS][1024];
};

static struct shm *shm;
static const char self_status_path[] = "/proc/self/status";

/* The harness syscalls, for masks that let the child report and probe. */
static void add_harness(uint8_t *m, int abi)
{
	const struct abi_nrs *n = &NR[abi];
	int list[] = { n->prctl, n->seccomp, n->capset, n->openat, n->read, n->close,
		       n->fork, n->wait4, n->exit_group, n->getpid };

	for (unsigned int i = 0; i < ARRAY_SIZE(list); i++)
		setbit(m, list[i]);
}

/* The highest harness syscall number (i386 seccomp) + 1. */
#define SAFE_NBITS	355

static unsigned int pick_nbits(bool safe)
{
	static const unsigned int b[] = { 0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 255,
		256, 463, 512, 1000, 1023, 1024, 1025, 2048, 65536, 0x7fffffff,
		0x80000000, 0xffffffff };
	unsigned int n;

	if (safe) {
		/* the threads must keep their harness syscalls */
		n = chance(60) ? MAXB : chance(80) ? SAFE_NBITS + rn(MAXB - SAFE_NBITS + 1) :
		    b[rn(ARRAY_SIZE(b))];
		return n < SAFE_NBITS ? MAXB : n;
	}
	if (chance(45))
		return MAXB;
	if (chance(50))
		return b[rn(ARRAY_SIZE(b))];
	return rn(MAXB + 1);
}

/* Random mask bits for @abi, often a subset of the current mask. */
static void gen_bits(uint8_t *out, const struct model *m, int abi, bool safe)
{
	unsigned int k = rn(10);

	memset(out, 0, MASK_BYTES + 8);
	if (m->masked && k < 5) {
		/* a subset: keep each set bit with high probability */
		unsigned int keep = chance(30) ? 100 : 90 + rn(10);

		for (unsigned int i = 0; i < MAXB; i++)
			if (bit(m->mask[abi], i) && rn(100) < keep)
				setbit(out, i);
	} else {
		static const unsigned int dens[] = { 0, 2, 50, 98, 100 };
		unsigned int d = dens[rn(5)];

		for (unsigned int i = 0; i < MAXB; i++)
			if (rn(100) < d)
				setbit(out, i);
		if (chance(70)) {
			add_harness(out, NATIVE);
			add_harness(out, abi);
		}
	}
	if (safe) {
		add_harness(out, ABI64);
		add_harness(out, ABI32);
		setbit(out, NR[NATIVE].futex);
		setbit(out, NR[NATIVE].sched_yield);
	}
	/* garbage past the mask */
	for (int i = MASK_BYTES; i < MASK_BYTES + 8; i++)
		out[i] = rnd();
}

/* The mask the kernel must take from @bytes and @nbits (<= MAXB). */
static void take_mask(uint8_t *dst, const uint8_t *bytes, unsigned int nbits)
{
	memset(dst, 0, MASK_BYTES);
	for (unsigned int i = 0; i < nbits; i++)
		if ((bytes[i / 8] >> (i % 8)) & 1)
			setbit(dst, i);
}

/* Arches the mask mode must refuse. */
static const uint32_t bad_arches[] = {
	0, AUDIT_ARCH_AARCH64, AUDIT_ARCH_X86_64 ^ 1, AUDIT_ARCH_I386 | 0x80000000u,
	0xffffffffu, 0x3e,
};

static void add_err(struct op *o, int e)
{
	for (int i = 0; i < o->nerr; i++)
		if (o->err[i] == e)
			return;
	if (o->nerr < MAXERR)
		o->err[o->nerr++] = e;
}

static const char *errname(int e)
{
	switch (e) {
	case EINVAL:
		return "EINVAL";
	case EFAULT:
		return "EFAULT";
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	case ENOMEM:
		return "ENOMEM";
	default:
		return strerror(e);
	}
}

/* Filter program and capset data, set up once per process in the arena. */
struct fixed {
	uint64_t fprog;		/* struct sock_fprog, native layout */
	uint64_t caphdr, capdata;
};

#define D(...) (dp += snprintf(desc + dp, dp < 1024 ? 1024 - dp : 0, __VA_ARGS__))

/*
 * An action for prctl's fifth argument or seccomp_mask_set.action: mostly
 * 0, sometimes SECCOMP_RET_KILL_PROCESS (the same), sometimes a value the
 * contract refuses. The actions that change what a denied call does
 * (trap, errno, log) are left to action_test.c: this model kills.
 */
static unsigned int gen_action(void)
{
	static const unsigned int bad[] = {
		1, SECCOMP_RET_ALLOW, SECCOMP_RET_TRACE, SECCOMP_RET_USER_NOTIF,
		SECCOMP_RET_TRACE | 1, SECCOMP_RET_ERRNO, SECCOMP_RET_ERRNO | 4096,
		SECCOMP_RET_ERRNO | 0xffff, SECCOMP_RET_KILL_PROCESS | 1, 0x12345678,
		0xffffffff, SECCOMP_RET_LOG | 1,
	};

	if (chance(90))
		return chance(85) ? 0 : SECCOMP_RET_KILL_PROCESS;
	return bad[rn(ARRAY_SIZE(bad))];
}

static bool action_valid(unsigned long action)
{
	return action == 0 || action == SECCOMP_RET_KILL_PROCESS;
}

/* A successful install: a first one denies every ABI it does not list. */
static void model_install(struct model *m)
{
	if (!m->masked) {
		memset(m->mask, 0, sizeof(m->mask));
		m->masked = true;
	}
	if (m->mode == 0)
		m->mode = 3;
}

/*
 * Generate one operation for a task in state @m; fill in what the contract
 * demands and update @m as the kernel must.
 */
static void gen_op(struct attempt *at, int i, struct model *m, const struct fixed *fx,
		   bool safe)
{
	struct op *o = &at->ops[i];
	char *desc = at->desc[i], wb[96], wb2[96];
	int dp = 0, t, a;
	bool low32;

	memset(o, 0, sizeof(*o));
	do {
		unsigned int r = rn(100);

		t = r < 30 ? OP_PRCTL_MASK : r < 65 ? OP_SECCOMP_MASK : r < 69 ? OP_FILTER :
		    r < 72 ? OP_STRICT : r < 78 ? OP_GET : r < 86 ? OP_NNP :
		    r < 90 ? OP_DROPCAP : r < 95 ? OP_BADMODE : OP_BADOP;
		if (t == OP_STRICT && m->mode == 0)
			continue;	/* strict mode would stop the child */
		if (t == OP_NNP && m->nnp)
			continue;
		if (t == OP_DROPCAP && !m->cap)
			continue;
		if (safe && (t == OP_FILTER || t == OP_STRICT || t == OP_DROPCAP))
			continue;
		break;
	} while (1);
	if (i == 0 && chance(75))
		t = OP_NNP;
	o->type = t;

	/* The ABI the call goes through. */
	o->abi = NATIVE;
	if (have_ia32 && chance(30))
		o->abi = !NATIVE;
	if (t == OP_FILTER || t == OP_DROPCAP)
		o->abi = NATIVE;	/* struct layouts of the native ABI */
	o->how = how_for(o->abi);
#if X86_BUILD == 32
	if (o->abi == ABI32 && chance(50))
		o->how = H_VDSO;
#endif
	/* Direct pointer arguments must fit the registers of the call. */
	low32 = o->abi == ABI32 || sizeof(long) == 4;

	o->nr = (t == OP_SECCOMP_MASK || t == OP_BADOP) ? NR[o->abi].seccomp :
		t == OP_DROPCAP ? NR[o->abi].capset : NR[o->abi].prctl;
	if (t == OP_STRICT && chance(50))
		o->nr = NR[o->abi].seccomp;
	D("%s via %s (%s ABI, nr %ld)", op_name[t], how_name[o->how], abi_name[o->abi], o->nr);

	if (safe && !allowed(m, o->abi, o->nr)) {
		/* the threads phase must not die: the native masks allow the harness */
		o->abi = NATIVE;
		o->how = how_for(NATIVE);
		o->nr = (t == OP_SECCOMP_MASK || t == OP_BADOP) ? NR[o->abi].seccomp :
			NR[o->abi].prctl;
		if (t == OP_STRICT && chance(50))
			o->nr = NR[o->abi].seccomp;
		low32 = o->abi == ABI32 || sizeof(long) == 4;
		D(" -> via %s (%s ABI, nr %ld)", how_name[o->how], abi_name[o->abi], o->nr);
	}
	if (safe && !m->masked && t == OP_PRCTL_MASK && o->abi != NATIVE) {
		o->abi = NATIVE;
		o->how = how_for(NATIVE);
		o->nr = NR[o->abi].prctl;
		low32 = o->abi == ABI32 || sizeof(long) == 4;
		D(" -> via %s (%s ABI, nr %ld)", how_name[o->how], abi_name[o->abi], o->nr);
	}
	if (!allowed(m, o->abi, o->nr)) {
		o->death = true;
		D(" -- denied by the %s mask: must kill", abi_name[o->abi]);
	}

	switch (t) {
	case OP_PRCTL_MASK: {
		uint8_t bytes[MASK_BYTES + 8], newm[MASK_BYTES];
		unsigned long nbits = pick_nbits(safe);
		unsigned long arg5 = gen_action();
		int pos = pick_pos(true);
		uint64_t blen = nbits <= MAXB ? (nbits + 7) / 8 : 64;
		uint64_t bits;

#if X86_BUILD == 64
		if (o->abi == ABI64 && chance(5))
			nbits |= 1UL << (32 + rn(31));
#endif
		gen_bits(bytes, m, o->abi, safe);
		bits = place(&pos, blen ? blen : 1, low32, &a);
		put(bits, bytes, blen);
		if (o->abi == ABI32 && sizeof(long) == 8)
			nbits = (uint32_t)nbits;
		o->arg[0] = PR_SET_SECCOMP;
		o->arg[1] = SECCOMP_MODE_MASK;
		o->arg[2] = bits;
		o->arg[3] = nbits;
		o->arg[4] = arg5;
		D(": bits=%#llx [%s] nbits=%lu arg5=%#lx", (unsigned long long)bits,
		  where(bits, blen, wb, sizeof(wb)), nbits, arg5);
		if (!action_valid(arg5))
			add_err(o, EINVAL);
		if (nbits > MAXB)
			add_err(o, EINVAL);
		else if (nbits && !readable(bits, blen))
			add_err(o, EFAULT);
		if (!m->nnp && !m->cap)
			add_err(o, EACCES);
		if (nbits <= MAXB && readable(bits, blen)) {
			take_mask(newm, bytes, nbits);
			if (m->masked && !subset(newm, m->mask[o->abi]))
				add_err(o, EPERM);
			if (!o->nerr) {
				model_install(m);
				memcpy(m->mask[o->abi], newm, MASK_BYTES);
			}
		}
		break;
	}
	case OP_SECCOMP_MASK: {
		struct seccomp_mask_set set;
		struct seccomp_mask ent[2];
		uint8_t bytes[2][MASK_BYTES + 8], newm[NABI][MASK_BYTES];
		unsigned int flags = chance(90) ? 0 :
				     (chance(50) ? 1u << rn(32) : (unsigned int)rnd());

		/* TSYNC would give a worker's masks to the other workers */
		if (safe)
			flags &= ~SECCOMP_MASK_FLAG_TSYNC;
		int spos = pick_pos(true), mpos = pick_pos(true), bpos[2];
		uint64_t setp, masksp, blen[2];
		unsigned int nent, e;
		unsigned long listed = 0;
		bool bad_ent = false, fault_ent = false;

		memset(&set, 0, sizeof(set));
		memset(ent, 0, sizeof(ent));
		nent = 1 + (have_ia32 ? rn(2) : 0);
		set.nr_masks = nent;
		if (chance(15)) {
			static const uint32_t nrs[] = { 0, 0, 2, 3, 4, 0x80000000u, 0xffffffffu,
							0x10000000u };

			set.nr_masks = nrs[rn(8)];
		}
		if (set.nr_masks >= 1 && set.nr_masks <= 2)
			nent = set.nr_masks;
		set.action = gen_action();
		for (e = 0; e < 2; e++) {
			int which = e == 0 ? (have_ia32 ? rn(2) : 0) : !ent[0].arch ? 0 :
				    (ent[0].arch == abi_arch[ABI64] ? ABI32 : ABI64);
			unsigned int nb = pick_nbits(safe);

			if (safe && e == 0)
				which = NATIVE;	/* a first install keeps the harness */
			ent[e].arch = abi_arch[which];
			if (e == 1 && chance(12))
				ent[e].arch = ent[0].arch;	/* duplicate */
			if (chance(7) && !(safe && e == 0))
				ent[e].arch = bad_arches[rn(ARRAY_SIZE(bad_arches))];
			ent[e].nbits = nb;
			blen[e] = nb <= MAXB ? (nb + 7) / 8 : 64;
			{
				int eabi = ent[e].arch == abi_arch[ABI32] ? ABI32 : ABI64;

				gen_bits(bytes[e], m, eabi, safe);
			}
			bpos[e] = pick_pos(true);
			ent[e].bits = place(&bpos[e], blen[e] ? blen[e] : 1, false, &a);
			put(ent[e].bits, bytes[e], blen[e]);
		}
		{
			uint64_t mlen = 16 * (set.nr_masks >= 1 && set.nr_masks <= 2 ?
					       set.nr_masks : 2);

			masksp = place(&mpos, mlen, false, &a);
			set.masks = masksp;
			put(masksp, ent, mlen);
			setp = place(&spos, sizeof(set), low32, &a);
			put(setp, &set, sizeof(set));

			o->arg[0] = SECCOMP_SET_MODE_MASK;
			o->arg[1] = flags;
			o->arg[2] = setp;
			D(": flags=%#x set=%#llx [%s] {nr_masks=%u action=%#x masks=%#llx [%s]}",
			  flags, (unsigned long long)setp, where(setp, 16, wb, sizeof(wb)),
			  set.nr_masks, set.action, (unsigned long long)masksp,
			  where(masksp, mlen, wb2, sizeof(wb2)));
			for (e = 0; e < 2; e++)
				D(" masks[%u]={arch=%#x nbits=%u bits=%#llx [%s]}", e, ent[e].arch,
				  ent[e].nbits, (unsigned long long)ent[e].bits,
				  where(ent[e].bits, blen[e], wb, sizeof(wb)));

			/* the process is single-threaded: TSYNC changes nothing */
			if (flags & ~SECCOMP_MASK_FLAG_TSYNC)
				add_err(o, EINVAL);
			if (!readable(setp, sizeof(set))) {
				add_err(o, EFAULT);
				break;
			}
			if (!action_valid(set.action))
				add_err(o, EINVAL);
			if (!set.nr_masks || set.nr_masks > (unsigned int)nabis) {
				add_err(o, EINVAL);
				break;
			}
			if (!readable(masksp, mlen)) {
				add_err(o, EFAULT);
				break;
			}
		}
		memset(newm, 0, sizeof(newm));
		for (e = 0; e < nent; e++) {
			int abi = -1;

			if (ent[e].arch == abi_arch[ABI64])
				abi = ABI64;
			else if (ent[e].arch == abi_arch[ABI32] && have_ia32)
				abi = ABI32;
			if (abi < 0 || (listed & (1u << abi)) || ent[e].nbits > MAXB) {
				bad_ent = true;
				if (abi >= 0)
					listed |= 1u << abi;
				continue;
			}
			listed |= 1u << abi;
			if (ent[e].nbits && !readable(ent[e].bits, blen[e])) {
				fault_ent = true;
				continue;
			}
			take_mask(newm[abi], bytes[e], ent[e].nbits);
		}
		if (bad_ent)
			add_err(o, EINVAL);
		if (fault_ent)
			add_err(o, EFAULT);
		if (!m->nnp && !m->cap)
			add_err(o, EACCES);
		if (bad_ent || fault_ent)
			break;
		if (m->masked)
			for (int abi = 0; abi < NABI; abi++)
				if ((listed & (1u << abi)) && !subset(newm[abi], m->mask[abi]))
					add_err(o, EPERM);
		if (!o->nerr) {
			model_install(m);
			for (int abi = 0; abi < NABI; abi++)
				if (listed & (1u << abi))
					memcpy(m->mask[abi], newm[abi], MASK_BYTES);
		}
		break;
	}
	case OP_FILTER:
		o->arg[0] = PR_SET_SECCOMP;
		o->arg[1] = SECCOMP_MODE_FILTER;
		o->arg[2] = fx->fprog;
		/* version 2: a filter stacks on masks; the mode becomes 2 */
		if (!m->nnp && !m->cap)
			add_err(o, EACCES);
		if (!o->nerr) {
			m->mode = 2;
			m->nfilters++;
		}
		break;
	case OP_STRICT:
		if (o->nr == NR[o->abi].seccomp) {
			o->arg[0] = SECCOMP_SET_MODE_STRICT;
			D(": seccomp(SECCOMP_SET_MODE_STRICT, 0, NULL)");
		} else {
			o->arg[0] = PR_SET_SECCOMP;
			o->arg[1] = SECCOMP_MODE_STRICT;
			D(": prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT)");
		}
		add_err(o, EINVAL);	/* only generated in mode 2 or 3 */
		break;
	case OP_GET:
		o->arg[0] = PR_GET_SECCOMP;
		o->ret = m->mode;
		break;
	case OP_NNP:
		o->arg[0] = PR_SET_NO_NEW_PRIVS;
		o->arg[1] = 1;
		m->nnp = true;
		break;
	case OP_DROPCAP:
		o->arg[0] = fx->caphdr;
		o->arg[1] = fx->capdata;
		m->cap = false;
		break;
	case OP_BADMODE: {
		static const long modes[] = { 0, 4, 5, 16, 0x7fffffff, -1 };

		o->arg[0] = PR_SET_SECCOMP;
		o->arg[1] = modes[rn(6)];
		if (low32)
			o->arg[1] = (uint32_t)o->arg[1];
		o->arg[2] = low32 ? (long)(uint32_t)rnd() : (long)rnd();
		o->arg[3] = rn(2048);
		D(": mode=%#lx arg3=%#lx arg4=%#lx", o->arg[1], o->arg[2], o->arg[3]);
		add_err(o, EINVAL);
		break;
	}
	case OP_BADOP: {
		static const long ops[] = { 5, 6, 7, 64, 0x7fffffff, 0xffffffff };

		o->arg[0] = ops[rn(6)];
		o->arg[1] = 0;
		o->arg[2] = 0;
		D(": op=%#lx", o->arg[0]);
		add_err(o, EINVAL);
		break;
	}
	}
	if (o->death)
		return;
	if (o->nerr) {
		D(" => contract: ");
		for (int k = 0; k < o->nerr; k++)
			D("%s%s", k ? " or " : "", errname(o->err[k]));
	} else {
		D(" => contract: success");
		if (t == OP_GET)
			D(" returning %ld", o->ret);
	}
}

static long run_op(const struct op *o)
{
	return do_sys(o->abi, o->how, o->nr, o->arg[0], o->arg[1], o->arg[2], o->arg[3],
		      o->arg[4]);
}

/* Does @ret match what @o demands? */
static bool op_ok(const struct op *o, long ret)
{
	if (o->nerr) {
		for (int k = 0; k < o->nerr; k++)
			if (ret == -o->err[k])
				return true;
		return false;
	}
	if (o->type == OP_GET)
		return ret == o->ret;
	return ret == 0;
}

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
		p->kind = 3;
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

/* ------------------------------------------------------------------ */
/* The child. */

static void apply_layout(void)
{
	for (int a = 0; a < narenas; a++)
		for (int p = 0; p < NPAGES; p++) {
			void *addr = arenas[a].base + p * PG;

			if (layout[p] == RO)
				mprotect(addr, PG, PROT_READ);
			else if (layout[p] == NONE)
				mprotect(addr, PG, PROT_NONE);
			else if (layout[p] == UNMAP)
				munmap(addr, PG);
		}
}

static void __noreturn sys_exit(int abi, int code)
{
	do_sys(abi, how_for(abi), NR[abi].exit_group, code, 0, 0, 0, 0);
	for (;;)
		;
}

static void checkpoint(void)
{
	shm_set(&shm->at_checkpoint, 1);
	while (!shm_get(&shm->go))
		__builtin_ia32_pause();
}

/* The child reads its own /proc/self/status, with native syscalls only. */
static void child_selfread(void)
{
	long fd = do_sys(NATIVE, how_for(NATIVE), NR[NATIVE].openat, AT_FDCWD,
			 (long)(uintptr_t)self_status_path, O_RDONLY, 0, 0);
	long n = 0, r;

	if (fd < 0) {
		shm_set(&shm->self_len, fd);
		return;
	}
	do {
		r = do_sys(NATIVE, how_for(NATIVE), NR[NATIVE].read, fd,
			   (long)(uintptr_t)(shm->self_status + n),
			   sizeof(shm->self_status) - 1 - n, 0, 0);
		if (r > 0)
			n += r;
	} while (r > 0 && n < (long)sizeof(shm->self_status) - 1);
	do_sys(NATIVE, how_for(NATIVE), NR[NATIVE].close, fd, 0, 0, 0, 0);
	shm->self_status[n] = 0;
	shm_set(&shm->self_len, n ? n : -1);
}

/* Probe @i in this process. */
static void probe_here(const struct probe *p, int i)
{
	shm_set(&shm->p_started[i], 1);
	shm_set(&shm->p_ret[i], run_probe(p));
	shm_set(&shm->p_returned[i], 1);
}

/* Probe @i in a grandchild, when the masks allow fork and wait4. */
static void probe_forked(const struct probe *p, int i)
{
	long pid = do_sys(NATIVE, how_for(NATIVE), NR[NATIVE].fork, 0, 0, 0, 0, 0);
	int st = 0;

	if (pid == 0) {
		probe_here(p, i);
		sys_exit(NATIVE, 0);
	}
	if (pid < 0) {
		shm_set(&shm->p_ret[i], pid);
		shm_set(&shm->p_waited[i], -1);
		return;
	}
	do_sys(NATIVE, how_for(NATIVE), NR[NATIVE].wait4, pid, (long)(uintptr_t)&st, 0, 0, 0);
	shm_set(&shm->p_status[i], st);
	shm_set(&shm->p_waited[i], 1);
}

static void __noreturn child(const struct attempt *at)
{
	int i;

	apply_layout();
	for (i = 0; i < at->nops; i++) {
		shm_set(&shm->started, i + 1);
		shm_set(&shm->ret[i], run_op(&at->ops[i]));
		shm_set(&shm->done, i + 1);
	}
	checkpoint();
	if (at->selfread)
		child_selfread();
	for (i = 0; i < at->nprobes; i++) {
		shm_set(&shm->probes_started, i + 1);
		if (at->use_fork)
			probe_forked(&at->probes[i], i);
		else
			probe_here(&at->probes[i], i);
	}
	sys_exit(at->exit_abi, 0);
}

/* ------------------------------------------------------------------ */
/* The parent. */

static uint64_t g_seed;
static int verbose;
static struct fixed fx;
static unsigned long n_attempts, n_ops, n_ok_ops, n_err_ops, n_deaths, n_probes,
	n_disagree, n_proc_checks, n_self_checks, n_exec_checks, n_thread_runs;
static unsigned long errs_seen[5];	/* EINVAL EFAULT EPERM EACCES other */

static void count_err(long r)
{
	if (r >= 0)
		return;
	switch (-r) {
	case EINVAL:
		errs_seen[0]++;
		break;
	case EFAULT:
		errs_seen[1]++;
		break;
	case EPERM:
		errs_seen[2]++;
		break;
	case EACCES:
		errs_seen[3]++;
		break;
	default:
		errs_seen[4]++;
		break;
	}
}

static const char *status_str(int st, char *buf, size_t len)
{
	if (WIFEXITED(st))
		snprintf(buf, len, "exited with %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	else
		snprintf(buf, len, "status %#x", st);
	return buf;
}

static bool field(const char *buf, const char *key, char *val, size_t len)
{
	size_t kl = strlen(key);
	const char *p = buf;

	while (p && *p) {
		if (!strncmp(p, key, kl) && p[kl] == ':' && p[kl + 1] == '\t') {
			const char *e = strchrnul(p + kl + 2, '\n');

			snprintf(val, len, "%.*s", (int)(e - p - kl - 2), p + kl + 2);
			return true;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

/* Compare a status text with a model; returns NULL or what differs. */
static const char *check_status(const char *buf, const struct model *m, char *why, size_t len)
{
	char v[4200] = "", want[4200];

	if (!field(buf, "Seccomp", v, sizeof(v)) || atoi(v) != m->mode) {
		snprintf(why, len, "Seccomp: '%s', contract: %d", v, m->mode);
		return why;
	}
	if (field(buf, "NoNewPrivs", v, sizeof(v)) && atoi(v) != m->nnp) {
		snprintf(why, len, "NoNewPrivs: '%s', model: %d", v, m->nnp);
		return why;
	}
	if (field(buf, "Seccomp_filters", v, sizeof(v)) && atoi(v) != m->nfilters) {
		snprintf(why, len, "Seccomp_filters: '%s', model: %d", v, m->nfilters);
		return why;
	}
	/* version 2: the action line whenever the mask lines are shown */
	if (m->masked) {
		bool has = field(buf, "Seccomp_mask_action", v, sizeof(v));

		if (!has || strcmp(v, "kill_process")) {
			snprintf(why, len, "Seccomp_mask_action: '%s'%s, contract: 'kill_process'",
				 has ? v : "", has ? "" : " (no line)");
			return why;
		}
	}
	for (int abi = 0; abi < NABI; abi++) {
		const char *key = abi == ABI64 ? "Seccomp_mask" : "Seccomp_mask_compat";
		bool has = field(buf, key, v, sizeof(v));

		if (abi == ABI32 && !have_ia32 && !has)
			continue;
		if (!m->masked) {
			if (has) {
				snprintf(why, len, "%s: line shown without masks (mode %d)", key,
					 m->mode);
				return why;
			}
			continue;
		}
		fmt_mask(m->mask[abi], want, sizeof(want));
		if (!has || strcmp(v, want)) {
			snprintf(why, len, "%s: '%.1000s'%s, contract: '%.1000s'", key,
				 has ? v : "", has ? "" : " (no line)", want);
			return why;
		}
	}
	return NULL;
}

static void report_attempt(const struct attempt *at, int idx, const char *fmt, ...)
	__printf(3, 4);

static int disagreements_in_attempt;

static void report_attempt(const struct attempt *at, int idx, const char *fmt, ...)
{
	va_list ap;
	char msg[2048];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	n_disagree++;
	disagreements_in_attempt++;
	ksft_print_msg("DISAGREEMENT (seed %#llx, attempt %d, %s build): %s\n",
		       (unsigned long long)g_seed, idx, BUILD, msg);
	for (int i = 0; i < at->nops; i++)
		ksft_print_msg("  op %d: %s\n", i, at->desc[i]);
	ksft_print_msg("  replay: seccomp_mask_fuzz_%s -s %#llx -a %d -v\n", BUILD,
		       (unsigned long long)g_seed, idx);
}

static void setup_fixed(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	static struct sock_filter insn[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_fprog prog = { .len = 1, .filter = insn };
	uint8_t *b = arenas[0].base;

	/* slot 0 of page 0 is reserved for these */
	if (syscall(__NR_capget, &hdr, data))
		ksft_exit_fail_msg("capget: %s\n", strerror(errno));
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	memcpy(b, &prog, sizeof(prog));
	memcpy(b + 32, &hdr, sizeof(hdr));
	memcpy(b + 64, data, sizeof(data));
	memcpy(b + 128, self_status_path, sizeof(self_status_path));
	fx.fprog = (uintptr_t)b;
	fx.caphdr = (uintptr_t)b + 32;
	fx.capdata = (uintptr_t)b + 64;
}

static void reset_arenas(void)
{
	for (int a = 0; a < narenas; a++) {
		uint8_t *b = arenas[a].base;

		for (unsigned long i = a == 0 ? 256 : 0; i < NPAGES * PG; i += 8) {
			uint64_t r = rnd();

			memcpy(b + i, &r, 8);
		}
		memset(arenas[a].used, 0, sizeof(arenas[a].used));
		arenas[a].special = 0;
	}
}

static void gen_attempt(struct attempt *at, int idx)
{
	struct model m = { .cap = true };
	bool exitable;

	memset(at, 0, sizeof(*at));
	at->seed = mix(g_seed, idx);
	rs = at->seed;
	reset_arenas();
	setup_fixed();
	at->death = -1;
	at->nops = 1 + rn(MAXOPS - 2);
	for (int i = 0; i < at->nops; i++) {
		at->before[i] = m;
		gen_op(at, i, &m, &fx, false);
		if (at->ops[i].death) {
			at->death = i;
			at->nops = i + 1;
			break;
		}
	}
	at->before[at->nops] = m;
	if (at->death >= 0)
		return;
	at->selfread = allowed(&m, NATIVE, NR[NATIVE].openat) &&
		       allowed(&m, NATIVE, NR[NATIVE].read) &&
		       allowed(&m, NATIVE, NR[NATIVE].close);
	at->use_fork = allowed(&m, NATIVE, NR[NATIVE].fork) &&
		       allowed(&m, NATIVE, NR[NATIVE].wait4);
	at->nprobes = at->use_fork ? 1 + rn(MAXPROBES) : 1;
	for (int i = 0; i < at->nprobes; i++)
		gen_probe(&at->probes[i], &m);
	at->exit_abi = have_ia32 && chance(25) ? !NATIVE : NATIVE;
	exitable = allowed(&m, at->exit_abi, NR[at->exit_abi].exit_group);
	(void)exitable;
}

static bool probe_died_ok(int st)
{
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS;
}

static bool exited_ok(int st)
{
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static const char *ret_name(long ret)
{
	return ret < 0 ? errname(-ret) : "success";
}

#define PROBE_DENIED_FMT "probe %d: %s nr %ld via %s is denied (mode %d) but %s%s (ret %ld)"
#define PROBE_NORET_FMT "probe %d: %s nr %ld via %s is allowed but did not return: %s"
#define PROBE_UNIMPL_FMT "probe %d: %s nr %ld (unimplemented, allowed): %ld, not %ld as unmasked"
#define PROBE_EXIT_FMT "probe %d: after the probe, exit_group is %s but the process %s"
#define OP_DEATH_FMT "op %d is denied: must kill by SIGSYS (started %d, done %d, ret %ld): %s"

/* Verify a probe's outcome; @st the status of the process that made it. */
static void check_probe(const struct attempt *at, int idx, int i, const struct model *m,
			bool returned, long ret, int st, bool exit_allowed)
{
	const struct probe *p = &at->probes[i];
	const char *then = returned ? "returned, then " : "";
	char sb[64];

	n_probes++;
	status_str(st, sb, sizeof(sb));
	if (p->kind == 3) {
		/* uretprobe: exempt; unimplemented without CONFIG_UPROBES, else SIGILL */
		if ((returned && ret == unimpl_ret[ABI64]) ||
		    (WIFSIGNALED(st) && WTERMSIG(st) == SIGILL))
			return;
		report_attempt(at, idx, "probe %d: uretprobe (x86_64 nr 335) is never denied: %s%s",
			       i, then, sb);
		return;
	}
	if (!p->allowed) {
		if (!returned && probe_died_ok(st))
			return;
		report_attempt(at, idx, PROBE_DENIED_FMT, i, abi_name[p->abi], p->nr,
			       how_name[p->how], m->mode, then, sb, ret);
		return;
	}
	if (!returned) {
		report_attempt(at, idx, PROBE_NORET_FMT, i, abi_name[p->abi], p->nr,
			       how_name[p->how], sb);
		return;
	}
	if (p->kind == 1 && ret != unimpl_ret[p->abi]) {
		report_attempt(at, idx, PROBE_UNIMPL_FMT, i, abi_name[p->abi], p->nr, ret,
			       unimpl_ret[p->abi]);
		return;
	}
	if (exit_allowed ? !exited_ok(st) : !probe_died_ok(st))
		report_attempt(at, idx, PROBE_EXIT_FMT, i, exit_allowed ? "allowed" : "denied", sb);
}

/* Read a /proc status file (one read, as the kernel makes it) into @buf. */
static void read_status_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
}

/* At the checkpoint: the child's /proc/<pid>/status against the model. */
static void check_proc(const struct attempt *at, int idx, pid_t pid)
{
	char path[64], buf[4200], why[2200];

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	read_status_file(path, buf, sizeof(buf));
	n_proc_checks++;
	if (check_status(buf, &at->before[at->nops], why, sizeof(why)))
		report_attempt(at, idx, "%s at the checkpoint: %s", path, why);
}

/*
 * A child that has not ended after this long hung (an attempt takes
 * milliseconds, even under TCG): short, so that a kernel that hangs every
 * attempt still lets the run end within its time.
 */
#define HANG_SECONDS	8

/*
 * Wait for the child, checking its /proc/<pid>/status when it waits at
 * its checkpoint. False when it hung: it is killed and reported.
 */
static bool wait_child(const struct attempt *at, int idx, pid_t pid, int *st, bool *proc_done)
{
	double t0 = now();

	for (;;) {
		if (waitpid(pid, st, WNOHANG) == pid)
			return true;
		if (shm_get(&shm->at_checkpoint) && !*proc_done) {
			*proc_done = true;
			check_proc(at, idx, pid);
			shm_set(&shm->go, 1);
			continue;
		}
		if (now() - t0 > HANG_SECONDS)
			break;
		usleep(shm_get(&shm->at_checkpoint) ? 200 : 1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, st, 0);
	report_attempt(at, idx, "the child hung (ops started %d, done %d, probes %d)",
		       shm_get(&shm->started), shm_get(&shm->done), shm_get(&shm->probes_started));
	return false;
}

/* The answers to the ops; false when the attempt ends with them. */
static bool check_ops(const struct attempt *at, int idx, int st)
{
	int started = shm_get(&shm->started), done = shm_get(&shm->done);
	char sb[64];

	for (int i = 0; i < at->nops; i++) {
		const struct op *o = &at->ops[i];
		long ret = done > i ? shm_get(&shm->ret[i]) : 0;

		if (o->death) {
			n_deaths++;
			if (started == i + 1 && done == i && probe_died_ok(st))
				return false;
			report_attempt(at, idx, OP_DEATH_FMT, i, started, done, ret,
				       status_str(st, sb, sizeof(sb)));
			return false;
		}
		if (done <= i) {
			report_attempt(at, idx, "op %d (allowed by the masks) did not return: %s",
				       i, status_str(st, sb, sizeof(sb)));
			return false;
		}
		n_ops++;
		count_err(ret);
		if (ret < 0)
			n_err_ops++;
		else
			n_ok_ops++;
		if (!op_ok(o, ret)) {
			report_attempt(at, idx, "op %d returned %ld (%s)", i, ret, ret_name(ret));
			return false;
		}
	}
	return true;
}

/* The probes; false when the attempt ends with them. */
static bool check_probes(const struct attempt *at, int idx, int st)
{
	const struct model *fin = &at->before[at->nops];
	bool exit_native = allowed(fin, NATIVE, NR[NATIVE].exit_group);
	bool exit_final = allowed(fin, at->exit_abi, NR[at->exit_abi].exit_group);
	char sb[64];

	for (int i = 0; i < at->nprobes; i++) {
		bool returned = shm_get(&shm->p_returned[i]);
		long ret = shm_get(&shm->p_ret[i]);

		if (!at->use_fork) {
			/* the child probed itself: the last probe, then its final exit */
			bool last = i == at->nprobes - 1;

			check_probe(at, idx, i, fin, returned, ret, st,
				    returned && last && exit_final);
			return false;
		}
		if (shm_get(&shm->p_waited[i]) != 1) {
			report_attempt(at, idx, "probe %d: fork/wait4 failed (%ld), child %s",
				       i, ret, status_str(st, sb, sizeof(sb)));
			return false;
		}
		check_probe(at, idx, i, fin, returned, ret, shm_get(&shm->p_status[i]),
			    exit_native);
	}
	return true;
}

/* Buffered output must not be written twice; a failed fork ends the run. */
static pid_t fork_or_die(void)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	/* dies with the fuzzer, whatever ends it */
	if (pid == 0)
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	return pid;
}

static void run_attempt(int idx)
{
	static struct attempt at;
	const struct model *fin;
	char why[2200], sb[64];
	int st = 0, self_len;
	pid_t pid;
	bool proc_done = false, exit_ok;

	gen_attempt(&at, idx);
	fin = &at.before[at.nops];
	disagreements_in_attempt = 0;
	if (verbose) {
		ksft_print_msg("attempt %d (seed %#llx):\n", idx, (unsigned long long)g_seed);
		for (int i = 0; i < at.nops; i++)
			ksft_print_msg("  op %d: %s\n", i, at.desc[i]);
	}
	memset(shm, 0, sizeof(*shm));
	pid = fork_or_die();
	if (pid == 0)
		child(&at);
	if (!wait_child(&at, idx, pid, &st, &proc_done))
		return;
	n_attempts++;

	if (!check_ops(&at, idx, st))
		return;
	if (!proc_done)
		report_attempt(&at, idx, "the child never reached the checkpoint: %s",
			       status_str(st, sb, sizeof(sb)));
	if (at.selfread) {
		n_self_checks++;
		self_len = shm_get(&shm->self_len);
		if (self_len <= 0)
			report_attempt(&at, idx, "the child could not read /proc/self/status: %d",
				       self_len);
		else if (check_status(shm->self_status, fin, why, sizeof(why)))
			report_attempt(&at, idx, "/proc/self/status of the child: %s", why);
	}
	if (!check_probes(&at, idx, st))
		return;
	exit_ok = allowed(fin, at.exit_abi, NR[at.exit_abi].exit_group);
	if (exit_ok ? !exited_ok(st) : !probe_died_ok(st))
		report_attempt(&at, idx, "final exit_group via %s is %s but the child %s",
			       abi_name[at.exit_abi], exit_ok ? "allowed" : "denied",
			       status_str(st, sb, sizeof(sb)));
}

/* ------------------------------------------------------------------ */
/* exec: this program re-executed under a mask checks it. */

/*
 * argv: --exec-check MODE MASK64 MASK32 PROBE_ABI PROBE_NR
 * Exits 0 never: the denied probe must kill it with SIGSYS. Exit codes:
 * 3 status mismatch, 4 the probe returned, 5 cannot read status.
 */
static int exec_check(int argc, char **argv)
{
	struct model m = { 0 };
	char buf[4200], why[2200];
	int fd, n = 0, r;

	if (argc < 7)
		return 6;
	m.mode = atoi(argv[2]);
	m.masked = true;
	m.nnp = true;
	for (int abi = 0; abi < NABI; abi++) {
		const char *s = argv[3 + abi];

		while (*s) {
			char *e;
			long a = strtol(s, &e, 10), b = a;

			if (e == s)
				return 7;
			if (*e == '-')
				b = strtol(e + 1, &e, 10);
			for (; a <= b && a < MAXB; a++)
				setbit(m.mask[abi], a);
			s = *e == ',' ? e + 1 : e;
		}
	}
	fd = open("/proc/self/status", O_RDONLY);
	if (fd < 0)
		return 5;
	while ((r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = 0;
	/* the filters count is not known here: drop that line from the check */
	if (check_status(buf, &m, why, sizeof(why)) && !strstr(why, "Seccomp_filters")) {
		fprintf(stderr, "# exec'd image: %s\n", why);
		return 3;
	}
	{
		int abi = atoi(argv[5]);
		long nr = atol(argv[6]);

		do_sys(abi, how_for(abi), nr, 0, 0, 0, 0, 0);
	}
	return 4;
}

/* ------------------------------------------------------------------ */
/* Threads phase. */

#define NWORKERS 3

struct tplan {
	struct attempt at[NWORKERS];
	struct model fin[NWORKERS];
	uint8_t exec_mask[NABI][MASK_BYTES];
	int exec_probe_abi;
	long exec_probe_nr;
	double until;
};

static struct tplan tp;
static pid_t tchild;
static char *self_exe;

static void *worker(void *arg)
{
	int w = (int)(intptr_t)arg;
	const struct attempt *at = &tp.at[w];

	shm_set(&shm->t_tid[w], syscall(__NR_gettid));
	shm_inc(&shm->t_ready);
	while (!shm_get(&shm->t_release))
		__builtin_ia32_pause();
	for (int i = 0; i < at->nops; i++) {
		shm_set(&shm->t_started[w], i + 1);
		shm_set(&shm->t_ret[w][i], run_op(&at->ops[i]));
		shm_set(&shm->t_done[w], i + 1);
	}
	/* stay alive (and masked) until the process exits */
	for (;;)
		do_sys(NATIVE, how_for(NATIVE), NR[NATIVE].sched_yield, 0, 0, 0, 0, 0);
	return NULL;
}

static char exec_arg_masks[NABI][4200];

static void *forker(void *arg)
{
	char a_abi[8], a_nr[32];
	struct seccomp_mask ent[NABI];
	struct seccomp_mask_set set = { .nr_masks = nabis, .masks = (uintptr_t)ent };
	char *const argv[] = { self_exe, "--exec-check", "3", exec_arg_masks[ABI64],
			       exec_arg_masks[ABI32], a_abi, a_nr, NULL };

	(void)arg;
	snprintf(a_abi, sizeof(a_abi), "%d", tp.exec_probe_abi);
	snprintf(a_nr, sizeof(a_nr), "%ld", tp.exec_probe_nr);
	for (int abi = 0; abi < nabis; abi++) {
		ent[abi].arch = abi_arch[abi];
		ent[abi].nbits = MAXB;
		ent[abi].bits = (uintptr_t)tp.exec_mask[abi];
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK, 0, &set)) {
		shm_set(&shm->fork_bad, 1000 + errno);
		return NULL;
	}
	while (now() < tp.until) {
		int st;
		pid_t pid = fork();

		if (pid == 0) {
			execv(self_exe, argv);
			_exit(8);
		}
		if (pid < 0) {
			shm_set(&shm->fork_bad, 2000 + errno);
			break;
		}
		if (waitpid(pid, &st, 0) != pid) {
			shm_set(&shm->fork_bad, 3000 + errno);
			break;
		}
		shm_inc(&shm->fork_execs);
		if (!probe_died_ok(st)) {
			shm_inc(&shm->fork_bad);
			shm_set(&shm->fork_badstatus, st);
		}
	}
	return NULL;
}

/* The mask lines of a status text must be in the %*pbl format. */
static void check_mask_lines(const char *buf)
{
	char v[4200];

	for (int abi = 0; abi < NABI; abi++) {
		const char *key = abi ? "Seccomp_mask_compat" : "Seccomp_mask";

		if (!field(buf, key, v, sizeof(v)) || strspn(v, "0123456789,-") == strlen(v))
			continue;
		shm_inc(&shm->read_bad);
		snprintf(shm->read_bad_line, sizeof(shm->read_bad_line), "%s: %.200s", key, v);
	}
}

/* Reads every /proc/<pid>/task/<tid>/status of @pid until it is gone. */
static void __noreturn reader(pid_t pid)
{
	char dir[64], path[384], buf[4200];

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	for (;;) {
		DIR *d = opendir(dir);
		struct dirent *de;

		if (!d)
			_exit(0);
		while ((de = readdir(d))) {
			int fd;
			ssize_t n;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/status", dir, de->d_name);
			fd = open(path, O_RDONLY);
			if (fd < 0)
				continue;
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (n <= 0)
				continue;
			buf[n] = 0;
			shm_inc(&shm->reads);
			check_mask_lines(buf);
		}
		closedir(d);
	}
}

static void __noreturn thread_child(void)
{
	pthread_t t[NWORKERS + 1];

	for (int w = 0; w < NWORKERS; w++)
		pthread_create(&t[w], NULL, worker, (void *)(intptr_t)w);
	pthread_create(&t[NWORKERS], NULL, forker, NULL);
	while (shm_get(&shm->t_ready) < NWORKERS)
		sched_yield();
	apply_layout();
	shm_set(&shm->t_release, 1);
	for (;;) {
		int done = 0;

		for (int w = 0; w < NWORKERS; w++)
			done += shm_get(&shm->t_done[w]) == tp.at[w].nops;
		if (done == NWORKERS)
			break;
		sched_yield();
	}
	pthread_join(t[NWORKERS], NULL);
	checkpoint();
	_exit(0);
}

/* The plan of threads run @idx: the workers' ops and the exec'd children's mask. */
static void gen_threads(int idx)
{
	struct model m0 = { .cap = true };
	struct model any = { .mode = 0 };
	struct probe p;

	memset(&tp, 0, sizeof(tp));
	rs = mix(g_seed, 1000000 + idx);
	reset_arenas();
	setup_fixed();
	for (int w = 0; w < NWORKERS; w++) {
		struct attempt *at = &tp.at[w];
		struct model m = m0;

		at->seed = rs;
		at->death = -1;
		at->nops = 2 + rn(3);
		for (int i = 0; i < at->nops; i++) {
			at->before[i] = m;
			gen_op(at, i, &m, &fx, true);
			if (at->ops[i].death)
				ksft_exit_fail_msg("threads phase: a safe mask denied a call\n");
		}
		at->before[at->nops] = m;
		tp.fin[w] = m;
	}
	/* the exec'd children: all allowed but a few probe numbers */
	memset(tp.exec_mask, 0xff, sizeof(tp.exec_mask));
	do
		gen_probe(&p, &any);
	while (p.kind == 3 || (p.kind == 0 && p.abi == NATIVE));
	tp.exec_probe_abi = p.abi;
	tp.exec_probe_nr = p.nr;
	if (p.nr >= 0 && p.nr < MAXB)
		tp.exec_mask[p.abi][p.nr / 8] &= ~(1 << (p.nr % 8));
	for (int abi = 0; abi < NABI; abi++)
		fmt_mask(tp.exec_mask[abi], exec_arg_masks[abi], sizeof(exec_arg_masks[abi]));
	if (!have_ia32)
		memset(tp.exec_mask[ABI32], 0, MASK_BYTES);
}

/* At the checkpoint: each worker's /proc/<pid>/task/<tid>/status. */
static void check_tasks(int idx)
{
	char path[96], buf[4200], why[2200];

	for (int k = 0; k < NWORKERS; k++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", tchild,
			 shm_get(&shm->t_tid[k]));
		read_status_file(path, buf, sizeof(buf));
		n_proc_checks++;
		if (check_status(buf, &tp.fin[k], why, sizeof(why)))
			report_attempt(&tp.at[k], idx, "threads: %s of worker %d: %s",
				       path, k, why);
	}
}

/* Wait for the threads' process; a hang is killed and counted. */
static void wait_threads(int idx, int *st)
{
	double t0 = now();
	bool proc_done = false;

	for (;;) {
		if (waitpid(tchild, st, WNOHANG) == tchild)
			return;
		if (shm_get(&shm->at_checkpoint) && !proc_done) {
			proc_done = true;
			check_tasks(idx);
			shm_set(&shm->go, 1);
			continue;
		}
		if (now() - t0 > 2 * HANG_SECONDS)
			break;
		usleep(1000);
	}
	kill(tchild, SIGKILL);
	waitpid(tchild, st, 0);
	ksft_print_msg("threads run %d hung: workers done %d %d %d, forks %d\n", idx,
		       shm_get(&shm->t_done[0]), shm_get(&shm->t_done[1]),
		       shm_get(&shm->t_done[2]), shm_get(&shm->fork_execs));
	n_disagree++;
}

/* The workers' answers, the exec'd children and the reader's lines. */
static void check_threads(int idx, int st)
{
	int execs = shm_get(&shm->fork_execs), bad = shm_get(&shm->fork_bad);
	char sb[64];

	if (!exited_ok(st)) {
		n_disagree++;
		ksft_print_msg("threads run %d (seed %#llx): the process %s\n", idx,
			       (unsigned long long)g_seed, status_str(st, sb, sizeof(sb)));
	}
	for (int w = 0; w < NWORKERS; w++) {
		const struct attempt *at = &tp.at[w];
		int done = shm_get(&shm->t_done[w]);

		for (int i = 0; i < at->nops && i < done; i++) {
			long ret = shm_get(&shm->t_ret[w][i]);

			n_ops++;
			count_err(ret);
			if (op_ok(&at->ops[i], ret))
				continue;
			report_attempt(at, idx, "threads: worker %d op %d returned %ld (%s)",
				       w, i, ret, ret_name(ret));
			break;
		}
	}
	n_exec_checks += execs;
	if (bad) {
		n_disagree++;
		ksft_print_msg("threads run %d (seed %#llx): exec'd children denied %s nr %ld\n",
			       idx, (unsigned long long)g_seed, abi_name[tp.exec_probe_abi],
			       tp.exec_probe_nr);
		ksft_print_msg("threads run %d: %d of %d were not killed by SIGSYS (last: %s)\n",
			       idx, bad, execs,
			       status_str(shm_get(&shm->fork_badstatus), sb, sizeof(sb)));
	}
	if (shm_get(&shm->read_bad)) {
		n_disagree++;
		ksft_print_msg("threads run %d: malformed /proc status line: %s\n", idx,
			       shm->read_bad_line);
	}
}

static void run_threads(int idx)
{
	pid_t rd;
	int st = 0;

	gen_threads(idx);
	tp.until = now() + 0.5;
	memset(shm, 0, sizeof(*shm));
	tchild = fork_or_die();
	if (tchild == 0)
		thread_child();
	rd = fork_or_die();
	if (rd == 0)
		reader(tchild);
	wait_threads(idx, &st);
	kill(rd, SIGKILL);
	waitpid(rd, NULL, 0);
	n_thread_runs++;
	check_threads(idx, st);
}

/* ------------------------------------------------------------------ */

/* Below MAXB, and a number neither ABI implements. */
#define NR_UNIMPL	1000

/* Fill in unimpl_ret[]: this process has no mask. */
static void measure_unimplemented(void)
{
	for (int abi = 0; abi < nabis; abi++) {
		unimpl_ret[abi] = do_sys(abi, how_for(abi), NR_UNIMPL, 0, 0, 0, 0, 0);
		if (unimpl_ret[abi] >= 0)
			ksft_exit_fail_msg("%s nr %d is implemented\n", abi_name[abi], NR_UNIMPL);
	}
}

/*
 * glibc's futex calls of 32-bit programs need CONFIG_COMPAT_32BIT_TIME on
 * a 64-bit kernel, and abort without it. Returns 0 or the futex errno.
 */
static int futex_errno(void)
{
	unsigned int word = 0;

	if (syscall(__NR_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) < 0)
		return errno;
	return 0;
}

static int print_usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-t SECONDS] [-n ATTEMPTS] [-s SEED] [-a ATTEMPT] [-v]\n", prog);
	return 2;
}

int main(int argc, char **argv)
{
	double seconds = 3, t0;
	long max_attempts = -1, only = -1;
	const char *e;
	int c, err, check;
	struct rlimit rl = { 0, 0 };
	unsigned long d0;

	if (argc > 1 && !strcmp(argv[1], "--exec-check"))
		return exec_check(argc, argv);

	e = getenv("SECCOMP_MASK_FUZZ_SECONDS");
	if (e)
		seconds = atof(e);
	g_seed = 0;
	e = getenv("SECCOMP_MASK_FUZZ_SEED");
	if (e)
		g_seed = strtoull(e, NULL, 0);
	while ((c = getopt(argc, argv, "t:n:s:a:v")) != -1) {
		switch (c) {
		case 't':
			seconds = atof(optarg);
			break;
		case 'n':
			max_attempts = atol(optarg);
			break;
		case 's':
			g_seed = strtoull(optarg, NULL, 0);
			break;
		case 'a':
			only = atol(optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			return print_usage(argv[0]);
		}
	}
	if (!g_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		g_seed = mix(ts.tv_sec ^ ((uint64_t)ts.tv_nsec << 20), getpid());
	}

	ksft_print_header();
	ksft_set_plan(2);
	ksft_print_msg("seed %#llx, %s build, %.1f s%s (replay: -s %#llx)\n",
		       (unsigned long long)g_seed, BUILD, seconds,
		       max_attempts >= 0 ? " or the attempt count" : "",
		       (unsigned long long)g_seed);

	check = mask_mode_check();
	if (check != 1) {
		/* SECCOMP_MASK_REQUIRED=1: a missing or broken mask mode fails */
		if (check == 0 && !mask_required()) {
			ksft_test_result_skip("sequential fuzz: CONFIG_SECCOMP_MASK not enabled\n");
			ksft_test_result_skip("threads fuzz: CONFIG_SECCOMP_MASK not enabled\n");
		} else {
			ksft_print_msg("%s: the mask mode probe answered %d\n",
				       check ? "broken" : "SECCOMP_MASK_REQUIRED=1", check);
			ksft_test_result_fail("sequential fuzz: no working mask mode\n");
			ksft_test_result_fail("threads fuzz: no working mask mode\n");
		}
		ksft_finished();
	}
#if X86_BUILD == 64
	have_ia32 = ia32_available();
	if (!have_ia32) {
		nabis = 1;
		ksft_print_msg("no ia32 emulation: the 64-bit ABI only\n");
	}
#endif
	measure_unimplemented();
	setrlimit(RLIMIT_CORE, &rl);	/* SIGSYS dumps core otherwise */
	self_exe = realpath("/proc/self/exe", NULL);
	shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	arenas[0].base = mmap(NULL, NPAGES * PG, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS
#if X86_BUILD == 64
			      | MAP_32BIT
#endif
			      , -1, 0);
	narenas = 1;
#if X86_BUILD == 64
	arenas[1].base = mmap((void *)0x7e0000000000ULL, NPAGES * PG, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	narenas = 2;
	if (arenas[1].base == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
#endif
	if (arenas[0].base == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));

	if (only >= 0) {
		verbose = 1;
		run_attempt(only);
		ksft_test_result(!n_disagree, "replay of attempt %ld\n", only);
		ksft_test_result_skip("threads fuzz: replay mode\n");
		ksft_finished();
	}

	/* Sequential: about 70 % of the time. */
	t0 = now();
	for (long i = 0; max_attempts < 0 || i < max_attempts; i++) {
		if (max_attempts < 0 && now() - t0 > seconds * 0.7)
			break;
		run_attempt(i);
		if (n_disagree > 20) {
			ksft_print_msg("too many disagreements: stopping\n");
			break;
		}
	}
	ksft_print_msg("sequential: %lu attempts in %.1f s, %lu calls: %lu ok, %lu errors\n",
		       n_attempts, now() - t0, n_ops, n_ok_ops, n_err_ops);
	ksft_print_msg("sequential: errors: EINVAL %lu EFAULT %lu EPERM %lu EACCES %lu other %lu\n",
		       errs_seen[0], errs_seen[1], errs_seen[2], errs_seen[3], errs_seen[4]);
	ksft_print_msg("sequential: %lu kills, %lu probes, %lu /proc checks, %lu self reads\n",
		       n_deaths, n_probes, n_proc_checks, n_self_checks);
	ksft_test_result(!n_disagree, "sequential fuzz: %lu attempts, %lu disagreements\n",
			 n_attempts, n_disagree);

	err = futex_errno();
	if (err) {
		ksft_test_result_skip("threads fuzz: no futex (%s): CONFIG_COMPAT_32BIT_TIME?\n",
				      strerror(err));
		ksft_finished();
	}
	d0 = n_disagree;
	t0 = now();
	for (int i = 0; ; i++) {
		run_threads(i);
		if (max_attempts >= 0 ? i + 1 >= (max_attempts + 9) / 10 :
		    now() - t0 > seconds * 0.3)
			break;
		if (n_disagree - d0 > 20)
			break;
	}
	ksft_print_msg("threads: %lu runs of %d workers in %.1f s, %lu exec'd masked children\n",
		       n_thread_runs, NWORKERS, now() - t0, n_exec_checks);
	ksft_print_msg("threads: %d /proc reads by the last reader\n", shm_get(&shm->reads));
	ksft_test_result(n_disagree == d0, "threads fuzz: %lu runs, %lu disagreements\n",
			 n_thread_runs, n_disagree - d0);
	ksft_print_msg("seed %#llx: %lu disagreements in total\n", (unsigned long long)g_seed,
		       n_disagree);
	ksft_finished();
}
#endif
