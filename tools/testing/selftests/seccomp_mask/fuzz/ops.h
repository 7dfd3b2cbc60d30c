/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seccomp_mask_fuzz: the operations of an attempt and what the contract demands of each:
 * the generators of prctl() and seccomp() calls and of their neighbours.
 *
 * Part of seccomp_mask_fuzz.c, which includes the parts in this order:
 * model.h, arena.h, ops.h, probes.h, child.h, runner.h, threads.h.
 */
#ifndef _SECCOMP_MASK_FUZZ_OPS_H
#define _SECCOMP_MASK_FUZZ_OPS_H

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
	"seccomp(bad op, or op 5 with NULL)",
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
 * Room for a whole /proc/<pid>/status: about 1.5 KiB of other lines and
 * up to two mask lines of about 2.5 KiB each (every other bit of 1040,
 * the longest %*pbl list).  A status text that fills it is a harness
 * error, never compared.
 */
#define STATUS_MAX	16384

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
	char self_status[STATUS_MAX];
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

/*
 * nbits: mostly MAXB, else one of the edges (on arm64 those of the
 * AArch32 mask's 1040 bits too), else any. The model takes each ABI's
 * largest nbits (abi_maxb[]).
 */
static unsigned int pick_nbits(bool safe)
{
	static const unsigned int b[] = { 0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 255,
		256, 463, 512, 1000, 1023, 1024, 1025, 2048, 65536, 0x7fffffff,
		0x80000000, 0xffffffff,
#ifdef ARM64_BUILD
		1032, 1039, 1040, 1041, 1048,
#endif
	};
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

		for (unsigned int i = 0; i < abi_maxb[abi]; i++)
			if (bit(m->mask[abi], i) && rn(100) < keep)
				setbit(out, i);
	} else {
		static const unsigned int dens[] = { 0, 2, 50, 98, 100 };
		unsigned int d = dens[rn(5)];

		for (unsigned int i = 0; i < abi_maxb[abi]; i++)
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

/* The mask the kernel must take from @bytes and @nbits (<= the ABI's). */
static void take_mask(uint8_t *dst, const uint8_t *bytes, unsigned int nbits)
{
	memset(dst, 0, MASK_BYTES);
	for (unsigned int i = 0; i < nbits; i++)
		if ((bytes[i / 8] >> (i % 8)) & 1)
			setbit(dst, i);
}

/* Arches the mask mode must refuse. */
#ifdef X86_BUILD
static const uint32_t bad_arches[] = {
	0, AUDIT_ARCH_AARCH64, AUDIT_ARCH_X86_64 ^ 1, AUDIT_ARCH_I386 | 0x80000000u,
	0xffffffffu, 0x3e,
};
#else
static const uint32_t bad_arches[] = {
	0, AUDIT_ARCH_X86_64, AUDIT_ARCH_AARCH64 ^ 1, AUDIT_ARCH_ARMEB,
	0xffffffffu, 0xb7,
};
#endif

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
	case E2BIG:
		return "E2BIG";
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
 * contract refuses (EINVAL): among them valid actions with a bit no action
 * has (bit 31 on TRAP, ERRNO | 1 and LOG, bit 30 alone, bit 20 on ERRNO |
 * 1), which a kernel that checks SECCOMP_RET_ACTION, or the action part
 * under a mask, takes for the valid one. The actions that change what a
 * denied call does (trap, errno, log) are left to action_test.c: this
 * model kills.
 */
static unsigned int gen_action(void)
{
	static const unsigned int bad[] = {
		1, SECCOMP_RET_ALLOW, SECCOMP_RET_TRACE, SECCOMP_RET_USER_NOTIF,
		SECCOMP_RET_TRACE | 1, SECCOMP_RET_ERRNO, SECCOMP_RET_ERRNO | 4096,
		SECCOMP_RET_ERRNO | 0xffff, SECCOMP_RET_KILL_PROCESS | 1, 0x12345678,
		0xffffffff, SECCOMP_RET_LOG | 1,
		0x80000000 | SECCOMP_RET_TRAP, 0x80000000 | SECCOMP_RET_ERRNO | 1,
		0x80000000 | SECCOMP_RET_LOG, 0x40000000,
		SECCOMP_RET_ERRNO | 0x00100000 | 1,
	};

	if (chance(90))
		return chance(85) ? 0 : SECCOMP_RET_KILL_PROCESS;
	return bad[rn(ARRAY_SIZE(bad))];
}

/* The whole value, all 32 bits (64 for prctl's): 0 or KILL_PROCESS. */
static bool action_valid(unsigned long action)
{
	return action == 0 || action == SECCOMP_RET_KILL_PROCESS;
}

/*
 * Version 3: the size of the set. Mostly that of the version 3 struct;
 * else one below it (EINVAL), a larger one whose extra bytes the tail
 * generator fills (up to SET_MAX_PLACED, which fits an arena slot), or
 * one above a page (E2BIG before anything is read).
 */
#define SET_MAX_PLACED	200

static uint32_t gen_set_size(void)
{
	static const uint32_t sizes[] = {
		0, 1, 4, 8, 16, 20, 23,
		25, 28, 31, 32, 33, 40, 48, 64, 128, SET_MAX_PLACED,
		4097, 4100, 8192, 65536, 0x7fffffff, 0x80000000u, 0xffffffffu,
	};

	if (chance(80))
		return sizeof(struct seccomp_mask_set);
	return sizes[rn(ARRAY_SIZE(sizes))];
}

/*
 * The bytes past the kernel's 24 of a set of @size (<= SET_MAX_PLACED):
 * mostly zero, else one non-zero byte somewhere, else garbage.
 */
static void gen_set_tail(uint8_t *tail, uint32_t len)
{
	memset(tail, 0, len);
	if (!len || chance(70))
		return;
	if (chance(70)) {
		tail[chance(30) ? 0 : chance(30) ? len - 1 : rn(len)] = 1 + rn(255);
		return;
	}
	for (uint32_t i = 0; i < len; i++)
		tail[i] = rnd();
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
	if (call_other && chance(30))
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
		uint64_t blen = nbits <= abi_maxb[o->abi] ? (nbits + 7) / 8 : 64;
		uint64_t bits;

#if X86_BUILD == 64 || ARM64_BUILD == 64
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
		if (nbits > abi_maxb[o->abi])
			add_err(o, EINVAL);
		else if (nbits && !readable(bits, blen))
			add_err(o, EFAULT);
		if (!m->nnp && !m->cap)
			add_err(o, EACCES);
		if (nbits <= abi_maxb[o->abi] && readable(bits, blen)) {
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
		uint8_t setbuf[SET_MAX_PLACED];
		const unsigned int known = SECCOMP_MASK_FLAG_TSYNC |
					   SECCOMP_MASK_FLAG_SPEC_ALLOW;
		unsigned int flags = chance(90) ?
				     (chance(20) ? SECCOMP_MASK_FLAG_SPEC_ALLOW : 0) :
				     (chance(50) ? 1u << rn(32) : (unsigned int)rnd());

		/* TSYNC would give a worker's masks to the other workers */
		if (safe)
			flags &= ~SECCOMP_MASK_FLAG_TSYNC;
		int spos = pick_pos(true), mpos = pick_pos(true), bpos[2];
		uint64_t setp, masksp, blen[2], setlen;
		unsigned int nent, e;
		unsigned long listed = 0;
		bool bad_ent = false, fault_ent = false;

		memset(&set, 0, sizeof(set));
		memset(ent, 0, sizeof(ent));
		set.size = gen_set_size();
		if (chance(6))
			set.__reserved = chance(50) ? 1u << rn(32) : (uint32_t)rnd();
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
			{
				int eabi = ent[e].arch == abi_arch[ABI32] ? ABI32 : ABI64;

				blen[e] = nb <= abi_maxb[eabi] ? (nb + 7) / 8 : 64;
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
			/* The set and the tail its size says it has. */
			setlen = set.size >= sizeof(set) && set.size <= SET_MAX_PLACED ?
				 set.size : sizeof(set);
			memcpy(setbuf, &set, sizeof(set));
			gen_set_tail(setbuf + sizeof(set), setlen - sizeof(set));
			setp = place(&spos, setlen, low32, &a);
			put(setp, setbuf, setlen);

			o->arg[0] = SECCOMP_SET_MODE_MASK;
			o->arg[1] = flags;
			o->arg[2] = setp;
			D(": flags=%#x set=%#llx [%s] {size=%u nr_masks=%u action=%#x",
			  flags, (unsigned long long)setp, where(setp, setlen, wb, sizeof(wb)),
			  set.size, set.nr_masks, set.action);
			D(" __reserved=%#x masks=%#llx [%s]}", set.__reserved,
			  (unsigned long long)masksp, where(masksp, mlen, wb2, sizeof(wb2)));
			if (setlen > sizeof(set)) {
				D(" tail[24..%u]=", (unsigned int)setlen - 1);
				for (uint64_t k = sizeof(set); k < setlen; k++)
					if (setbuf[k])
						D("[%u]=%#x ", (unsigned int)k, setbuf[k]);
			}
			for (e = 0; e < 2; e++)
				D(" masks[%u]={arch=%#x nbits=%u bits=%#llx [%s]}", e, ent[e].arch,
				  ent[e].nbits, (unsigned long long)ent[e].bits,
				  where(ent[e].bits, blen[e], wb, sizeof(wb)));

			/*
			 * Version 3: the checks of the flags and of the set's
			 * header come first, in this order, each one error
			 * only (build/v3/uapi.txt). The process is
			 * single-threaded: TSYNC changes nothing, nor does
			 * SPEC_ALLOW what the model sees.
			 */
			if (flags & ~known) {
				add_err(o, EINVAL);
				break;
			}
			if (!readable(setp, sizeof(set.size))) {
				add_err(o, EFAULT);
				break;
			}
			if (set.size < SECCOMP_MASK_SET_SIZE_VER0) {
				add_err(o, EINVAL);
				break;
			}
			if (set.size > PG) {
				add_err(o, E2BIG);
				break;
			}
			{
				/*
				 * copy_struct_from_user(): a non-zero byte past
				 * 24 is E2BIG, the size bytes not readable
				 * EFAULT. Which one when both: the kernel's
				 * scan order, not the contract's, decides.
				 */
				bool nz_readable = false, nz = false;
				uint64_t k;

				for (k = sizeof(set); k < setlen; k++) {
					nz |= setbuf[k] != 0;
					if (readable(setp + k, 1))
						nz_readable |= setbuf[k] != 0;
				}
				if (!readable(setp, setlen)) {
					add_err(o, EFAULT);
					if (nz_readable)
						add_err(o, E2BIG);
					break;
				}
				if (nz) {
					add_err(o, E2BIG);
					break;
				}
			}
			if (set.__reserved) {
				add_err(o, EINVAL);
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
			if (abi < 0 || (listed & (1u << abi)) ||
			    ent[e].nbits > abi_maxb[abi]) {
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
		/*
		 * Version 3: 5 is SECCOMP_GET_MASK_FEATURES: flags other
		 * than 0 are EINVAL, a NULL struct EFAULT.
		 */
		if (o->arg[0] == SECCOMP_GET_MASK_FEATURES && chance(50))
			o->arg[1] = 1u << rn(32);
		D(": op=%#lx flags=%#lx arg=NULL", o->arg[0], o->arg[1]);
		if (o->arg[0] == SECCOMP_GET_MASK_FEATURES && !o->arg[1])
			add_err(o, EFAULT);
		else
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

#endif /* _SECCOMP_MASK_FUZZ_OPS_H */
