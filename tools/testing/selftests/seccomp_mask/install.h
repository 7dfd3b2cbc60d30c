/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: masks and how they are installed
 */

#ifndef _SELFTESTS_SECCOMP_MASK_INSTALL_H
#define _SELFTESTS_SECCOMP_MASK_INSTALL_H

#include "abi.h"

/* A mask: @nbits bits, syscall n is bit n % 8 of byte n / 8. */
struct mask {
	unsigned int nbits;
	unsigned char bits[SECCOMP_MASK_MAX_BITS / 8 + 8];
};

static inline void mask_none(struct mask *m, unsigned int nbits)
{
	memset(m, 0, sizeof(*m));
	m->nbits = nbits;
}

/* All @nbits bits set. */
static inline void mask_all(struct mask *m, unsigned int nbits)
{
	unsigned int i;

	mask_none(m, nbits);
	for (i = 0; i < nbits; i++)
		m->bits[i / 8] |= 1 << (i % 8);
}

static inline void mask_set(struct mask *m, unsigned int nr)
{
	m->bits[nr / 8] |= 1 << (nr % 8);
}

static inline void mask_clear(struct mask *m, unsigned int nr)
{
	m->bits[nr / 8] &= ~(1 << (nr % 8));
}

static inline bool mask_test(const struct mask *m, unsigned int nr)
{
	return nr < m->nbits && (m->bits[nr / 8] & (1 << (nr % 8)));
}

/* @nbits bits, only those of the @n numbers @nrs set. */
static inline void mask_only(struct mask *m, unsigned int nbits,
			     const unsigned int *nrs, size_t n)
{
	size_t i;

	mask_none(m, nbits);
	for (i = 0; i < n; i++)
		mask_set(m, nrs[i]);
}

/* mask_only() with the numbers listed: MASK_ONLY(&m, 64, 1, 3, 60). */
#define MASK_ONLY(m, nbits, ...)					\
	mask_only(m, nbits, (const unsigned int[]){ __VA_ARGS__ },	\
		  sizeof((const unsigned int[]){ __VA_ARGS__ }) /	\
		  sizeof(unsigned int))

/* Everything up to SECCOMP_MASK_MAX_BITS allowed but @nr. */
static inline void mask_all_but(struct mask *m, unsigned int nr)
{
	mask_all(m, SECCOMP_MASK_MAX_BITS);
	mask_clear(m, nr);
}

/*
 * Everything up to SECCOMP_MASK_MAX_BITS allowed but the @n numbers from
 * @first on.
 */
static inline void mask_all_but_n(struct mask *m, unsigned int first, int n)
{
	int i;

	mask_all(m, SECCOMP_MASK_MAX_BITS);
	for (i = 0; i < n; i++)
		mask_clear(m, first + i);
}

#ifdef ARM64_BUILD
/*
 * The AArch32 mask of 1040 bits: every number of its table (bits 0 to
 * 1023), and of its 16 ARM-private bits (bit 1024 + k for the syscall
 * 0x0f0000 + k) only those whose k is set in @bits.
 */
static inline void mask_arm_private(struct mask *m, unsigned int bits)
{
	int k;

	mask_all(m, ARM_MAX_BITS);
	for (k = 0; k < ARM_PRIVATE_NR; k++)
		if (!(bits & (1U << k)))
			mask_clear(m, SECCOMP_MASK_MAX_BITS + k);
}
#endif

/* The set bits in the kernel's bitmap list format (%*pbl): "0-3,15". */
static inline void mask_format(const struct mask *m, char *buf, size_t len)
{
	unsigned int i = 0, start;
	size_t pos = 0;

	buf[0] = '\0';
	while (i < m->nbits) {
		if (!mask_test(m, i)) {
			i++;
			continue;
		}
		start = i;
		while (i + 1 < m->nbits && mask_test(m, i + 1))
			i++;
		if (start == i)
			pos += snprintf(buf + pos, len - pos, "%s%u",
					pos ? "," : "", start);
		else
			pos += snprintf(buf + pos, len - pos, "%s%u-%u",
					pos ? "," : "", start, i);
		i++;
	}
}

static inline void mask_entry(struct seccomp_mask *e, __u32 arch, const struct mask *m)
{
	memset(e, 0, sizeof(*e));
	e->arch = arch;
	e->nbits = m->nbits;
	e->bits = (uintptr_t)m->bits;
}

static inline int sys_seccomp(unsigned int op, unsigned int flags, void *args)
{
	return syscall(__NR_seccomp, op, flags, args);
}

static inline int set_nnp(void)
{
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

/* Install or tighten the mask of this program's ABI through prctl(). */
static inline int mask_prctl(const struct mask *m)
{
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK, m->bits, m->nbits, 0);
}

/* Install or tighten the mask of this program's ABI, with an action. */
static inline int mask_prctl_action(const struct mask *m, unsigned long action)
{
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK, m->bits, m->nbits,
		     action);
}

/*
 * Install or tighten the masks of @n ABIs through seccomp(2), with @flags
 * and @action. With SECCOMP_MASK_FLAG_TSYNC, a positive return is the TID
 * of the thread that could not take them.
 */
static inline long mask_seccomp_set(unsigned int flags, __u32 action,
				    unsigned int n, const __u32 *arch,
				    const struct mask *const *m)
{
	struct seccomp_mask e[4];
	/* Version 3: the size first (uapi_fallback.h declares the layout). */
	struct seccomp_mask_set set = {
		.size = sizeof(struct seccomp_mask_set),
		.nr_masks = n,
		.action = action,
		.masks = (uintptr_t)e,
	};
	unsigned int i;

	for (i = 0; i < n && i < 4; i++)
		mask_entry(&e[i], arch[i], m[i]);
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK, flags, &set);
}

/* mask_seccomp_set() with @m alone, the mask of this program's ABI. */
static inline long mask_seccomp_self(unsigned int flags, __u32 action,
				     const struct mask *m)
{
	return mask_seccomp_set(flags, action, 1, (const __u32[]){ SELF_ARCH },
				&m);
}

/* Install or tighten the masks of @n ABIs through seccomp(2). */
static inline int mask_seccomp(unsigned int n, const __u32 *arch,
			       const struct mask *const *m)
{
	return mask_seccomp_set(0, 0, n, arch, m);
}

static inline int mask_seccomp1(__u32 arch, const struct mask *m)
{
	return mask_seccomp(1, &arch, &m);
}

/*
 * Version 3: the feature query, seccomp(SECCOMP_GET_MASK_FEATURES, 0, @f)
 * with @f zeroed and its size that of this program's struct. 0, or -1
 * with errno.
 */
static inline int mask_features(struct seccomp_mask_features *f)
{
	memset(f, 0, sizeof(*f));
	f->size = sizeof(*f);
	return syscall(__NR_seccomp, SECCOMP_GET_MASK_FEATURES, 0, f);
}

/*
 * Two pages mapped read-write, the second one unmapped again: the first
 * page, whose last byte is the last readable one; NULL on failure. The
 * caller munmap()s the page.
 */
static inline unsigned char *page_before_hole(void)
{
	unsigned char *p = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (munmap(p + 4096, 4096)) {
		munmap(p, 2 * 4096);
		return NULL;
	}
	return p;
}

/*
 * A size case of an extensible struct: its size, the errno expected of
 * the call (0: taken), a non-zero byte there in its tail (0: none), and
 * how many of its bytes are past the mapping.
 */
struct size_case {
	__u32 size;
	int err;
	unsigned int nonzero_at;
	unsigned int over_hole;
};

/*
 * Lay the struct of @c, whose first @min bytes the caller writes, out in
 * @page (of page_before_hole()), the rest of which is @fill: it ends
 * @c->over_hole bytes past the mapping, or @gap bytes before its end; a
 * size above a page starts at the page, so that its bytes past the first
 * 4096 are not mapped; a size below @min spans @min bytes all the same.
 * Its mapped bytes past @min are zero, but for 0x80 at @c->nonzero_at.
 * Where it starts; *@avail, how many bytes are mapped from there.
 */
static inline unsigned char *place_sized(unsigned char *page,
					 const struct size_case *c, size_t min,
					 size_t gap, int fill, size_t *avail)
{
	size_t span = c->size < min ? min : c->size;
	unsigned char *at = page;
	size_t i;

	if (span <= 4096)
		at = page + 4096 - span - gap + c->over_hole;
	*avail = page + 4096 - at;
	memset(page, fill, 4096);
	for (i = min; i < span && i < *avail; i++)
		at[i] = i == c->nonzero_at ? 0x80 : 0;
	return at;
}

/* munmap() the page of page_before_hole(), if any. */
static inline void page_put(unsigned char *page)
{
	if (page)
		munmap(page, 4096);
}

#ifdef TWO_ABIS
/*
 * mask_seccomp_set() with @own, the mask of this program's ABI, and with
 * @n 2 @other, that of the other ABI (x86, or arm64).
 */
static inline long mask_seccomp_own_other(unsigned int flags, __u32 action,
					  unsigned int n,
					  const struct mask *own,
					  const struct mask *other)
{
	const __u32 arch[2] = { SELF_ARCH, OTHER_ARCH };
	const struct mask *m[2] = { own, other };

	return mask_seccomp_set(flags, action, n, arch, m);
}
#endif

/*
 * Install or tighten this program's ABI's mask, with @action (0: the
 * version 1 kill), through seccomp(2) with @use_seccomp, else prctl().
 */
static inline int mask_install_action(bool use_seccomp, const struct mask *m,
				      __u32 action)
{
	if (use_seccomp)
		return mask_seccomp_self(0, action, m);
	return mask_prctl_action(m, action);
}

/* Install or tighten this program's ABI's mask, through either call. */
static inline int mask_install(bool use_seccomp, const struct mask *m)
{
	return mask_install_action(use_seccomp, m, 0);
}

#ifdef X86_BUILD
/*
 * Install or tighten the masks of both x86 ABIs through seccomp(2): @m64
 * for x86-64, @m32 for ia32.
 */
static inline int mask_seccomp_x86(const struct mask *m64,
				   const struct mask *m32)
{
	const __u32 arch[2] = { ARCH_X86_64, ARCH_I386 };
	const struct mask *m[2] = { m64, m32 };

	return mask_seccomp(2, arch, m);
}
#endif

/* A rule of filter_install(): @ret for this program's ABI's syscall @nr. */
struct filter_rule {
	unsigned int nr;
	__u32 ret;
};

#define FILTER_RULES_MAX	4

/*
 * A BPF filter (mode 2) that returns each of the @n @rules' ret for its
 * syscall of this program's ABI and allows everything else, the calls of
 * the other ABIs included; with @n 0, a single SECCOMP_RET_ALLOW.
 * Through prctl() when @flags is -1, else through seccomp(2) with @flags.
 * 0, or -1 with errno.
 */
static inline long filter_install(long flags, const struct filter_rule *rules,
				  unsigned int n)
{
	struct sock_filter insn[3 + 2 * FILTER_RULES_MAX + 1];
	struct sock_fprog prog = { .filter = insn };
	unsigned int i, len = 0;

	if (n > FILTER_RULES_MAX) {
		errno = E2BIG;
		return -1;
	}
	if (n) {
		insn[len++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				offsetof(struct seccomp_data, arch));
		/* Another ABI: past the rules, to the allow. */
		insn[len++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
				SELF_ARCH, 0, 2 * n + 1);
		insn[len++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				offsetof(struct seccomp_data, nr));
	}
	for (i = 0; i < n; i++) {
		insn[len++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
				rules[i].nr, 0, 1);
		insn[len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
				rules[i].ret);
	}
	insn[len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						   SECCOMP_RET_ALLOW);
	prog.len = len;
	if (flags < 0)
		return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

/* An allow-everything BPF filter (mode 2), through prctl(). */
static inline int filter_allow_all(void)
{
	return filter_install(-1, NULL, 0);
}

/* Drop CAP_SYS_ADMIN from the effective set, without libcap. */
static inline int drop_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(__NR_capget, &hdr, data))
		return -1;
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &=
		~CAP_TO_MASK(CAP_SYS_ADMIN);
	return syscall(__NR_capset, &hdr, data);
}

#endif /* _SELFTESTS_SECCOMP_MASK_INSTALL_H */
