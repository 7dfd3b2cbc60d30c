// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: every row of the errors table, one case each
 *
 * Version 3 adds the rows of the extensible set: a size below the first
 * layout or a non-zero __reserved is EINVAL, a non-zero byte past the
 * kernel's struct (or a size above a page) is E2BIG. Each of those cases
 * then makes the same call with the set made valid, which must install:
 * the error came from the field under test, read where version 3 puts it.
 * uapi_test.c has the full matrix of sizes, tails and their order.
 *
 * After an error nothing has changed: the mode, no mask lines in
 * /proc/self/status (or, on a tightening, the old mask and action), and
 * where the mask under test denies getppid, getppid still runs. The rows
 * of nr_masks above the kernel's ABIs list valid arches only, and the same
 * set with nr_masks 2 then installs. The rows that install a mask in filter
 * mode check that it is there: /proc shows it with its action, and getppid,
 * which it denies, takes that action.
 */

#include "common.h"

#include <sys/mount.h>

enum ptr_kind { PTR_OK, PTR_BAD, PTR_NULL };
enum arch_kind { ARCH_NONE, ARCH_SELF, ARCH_OTHER, ARCH_BOGUS };
enum prior_mode { PRIOR_NONE, PRIOR_FILTER, PRIOR_MASK };

struct entry {
	enum arch_kind arch;
	unsigned int nbits;
	enum ptr_kind bits;
	bool all_set;
};

FIXTURE(errors) {};

FIXTURE_VARIANT(errors) {
	bool use_seccomp;
	enum prior_mode prior;
	int expected_errno;	/* 0: the call succeeds */
	/* prctl(PR_SET_SECCOMP, 3, bits, nbits, arg5) */
	unsigned long nbits;
	enum ptr_kind bits;
	unsigned long arg5;
	/* seccomp(SECCOMP_SET_MODE_MASK, flags, set) */
	unsigned int flags;
	unsigned int action;
	unsigned int nr_masks;
	/* version 3: set.size (sizeof when !size_given), __reserved, tail */
	bool size_given;
	__u32 size;
	__u32 reserved;
	unsigned int tail_byte;	/* a non-zero byte at this offset (> 23) */
	enum ptr_kind set;
	enum ptr_kind masks;
	/*
	 * The mask under test (prctl's, and that of each ARCH_SELF entry)
	 * denies getppid: after an error, getppid must still run; after a
	 * success, it must take the action of the call.
	 */
	bool deny_getppid;
	/* Only the first @masks_readable entries are mapped (0: all are). */
	unsigned int masks_readable;
	/* After the EINVAL, the set with this nr_masks installs (0: none). */
	unsigned int valid_nr_masks;
	struct entry e[3];
};

FIXTURE_SETUP(errors) {}
FIXTURE_TEARDOWN(errors) {}

/*
 * EINVAL. The largest nbits is that of the ABI: SELF_MAX_BITS (1040 for
 * AArch32, whose private calls have the bits past 1024), OTHER_MAX_BITS.
 */
FIXTURE_VARIANT_ADD(errors, prctl_nbits_above_max_is_einval) {
	.expected_errno = EINVAL,
	.nbits = SELF_MAX_BITS + 1,
};

FIXTURE_VARIANT_ADD(errors, seccomp_nbits_above_max_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SELF_MAX_BITS + 1 } },
};

#ifdef TWO_ABIS
/* The other ABI's largest nbits, with a valid mask of this one. */
FIXTURE_VARIANT_ADD(errors, seccomp_other_abi_nbits_above_max_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 2,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS },
	       { ARCH_OTHER, OTHER_MAX_BITS + 1 } },
};
#endif

/* Version 2: the fifth argument is the action; 1 is no action. */
FIXTURE_VARIANT_ADD(errors, prctl_invalid_action_is_einval) {
	.expected_errno = EINVAL,
	.nbits = SECCOMP_MASK_MAX_BITS,
	.arg5 = 1,
};

FIXTURE_VARIANT_ADD(errors, seccomp_unknown_flag_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.flags = 1U << 2,	/* version 3: 1 is TSYNC, 2 SPEC_ALLOW */
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_invalid_action_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.action = 1,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/*
 * Actions with a bit that no action has, each of which would be valid
 * with that bit masked off: the whole 32-bit value is checked, not
 * SECCOMP_RET_ACTION (0x7fff0000) or some other part of it. The mask
 * denies getppid: it must still run after the EINVAL.
 */
/* KILL_PROCESS's bit 31 on TRAP: TRAP under SECCOMP_RET_ACTION. */
FIXTURE_VARIANT_ADD(errors, prctl_trap_with_bit_31_is_einval) {
	.expected_errno = EINVAL,
	.nbits = SECCOMP_MASK_MAX_BITS,
	.arg5 = 0x80030000,
	.deny_getppid = true,
};

FIXTURE_VARIANT_ADD(errors, seccomp_trap_with_bit_31_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.action = 0x80030000,
	.nr_masks = 1,
	.deny_getppid = true,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/* Bit 31 on ERRNO | 1: ERRNO | 1 under SECCOMP_RET_ACTION. */
FIXTURE_VARIANT_ADD(errors, prctl_errno_with_bit_31_is_einval) {
	.expected_errno = EINVAL,
	.nbits = SECCOMP_MASK_MAX_BITS,
	.arg5 = 0x80000000 | SECCOMP_RET_ERRNO | 1,
	.deny_getppid = true,
};

FIXTURE_VARIANT_ADD(errors, seccomp_errno_with_bit_31_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.action = 0x80000000 | SECCOMP_RET_ERRNO | 1,
	.nr_masks = 1,
	.deny_getppid = true,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/* Bit 30 alone: 0, the kill action, without it. */
FIXTURE_VARIANT_ADD(errors, prctl_bit_30_alone_is_einval) {
	.expected_errno = EINVAL,
	.nbits = SECCOMP_MASK_MAX_BITS,
	.arg5 = 0x40000000,
	.deny_getppid = true,
};

FIXTURE_VARIANT_ADD(errors, seccomp_bit_30_alone_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.action = 0x40000000,
	.nr_masks = 1,
	.deny_getppid = true,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/* ERRNO | 1 with bit 20 more in the action part (0x00150001). */
FIXTURE_VARIANT_ADD(errors, prctl_errno_with_bit_20_is_einval) {
	.expected_errno = EINVAL,
	.nbits = SECCOMP_MASK_MAX_BITS,
	.arg5 = SECCOMP_RET_ERRNO | 0x00100000 | 1,
	.deny_getppid = true,
};

FIXTURE_VARIANT_ADD(errors, seccomp_errno_with_bit_20_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.action = SECCOMP_RET_ERRNO | 0x00100000 | 1,
	.nr_masks = 1,
	.deny_getppid = true,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/*
 * The same on a tightening (the new mask the old one, so a subset):
 * EINVAL, not EPERM, and the old mask and kill action stay.
 */
FIXTURE_VARIANT_ADD(errors, prctl_tighten_trap_with_bit_31_is_einval) {
	.prior = PRIOR_MASK,
	.expected_errno = EINVAL,
	.nbits = SECCOMP_MASK_MAX_BITS,
	.arg5 = 0x80030000,
	.deny_getppid = true,
};

FIXTURE_VARIANT_ADD(errors, seccomp_tighten_trap_with_bit_31_is_einval) {
	.use_seccomp = true,
	.prior = PRIOR_MASK,
	.expected_errno = EINVAL,
	.action = 0x80030000,
	.nr_masks = 1,
	.deny_getppid = true,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_nr_masks_zero_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 0,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/*
 * nr_masks above the kernel's ABIs. Every entry has a valid arch (the
 * first two are this ABI and the other one, entries past them repeat
 * this ABI) and the same set with nr_masks 2 installs: the EINVAL is not
 * that of an unknown arch. x86-64 has two ABIs, so a third readable entry
 * with a valid arch is necessarily a duplicate, also EINVAL: these rows
 * would stay EINVAL without the nr_masks check, and catch a kernel that
 * reads only the first two entries (min(nr_masks, ABIs)) and installs.
 */
FIXTURE_VARIANT_ADD(errors, seccomp_nr_masks_3_third_repeats_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 3,
	.valid_nr_masks = 2,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS },
	       { ARCH_OTHER, SECCOMP_MASK_MAX_BITS },
	       { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_nr_masks_above_abis_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 1000,
	.valid_nr_masks = 2,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS },
	       { ARCH_OTHER, SECCOMP_MASK_MAX_BITS },
	       { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_huge_nr_masks_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 0xffffffff,
	.valid_nr_masks = 2,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS },
	       { ARCH_OTHER, SECCOMP_MASK_MAX_BITS },
	       { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/*
 * Only the nr_masks check can reject this one: the two entries are the
 * kernel's two ABIs and the third lies on an unmapped page. A kernel
 * without the check (or with it after the copy of the entries) answers
 * EFAULT, one that reads min(nr_masks, ABIs) entries installs. The
 * series' documentation orders the checks so (step 7, nr_masks, before
 * step 8, masks readable), as filter mode checks fprog.len before it
 * copies the filter.
 */
FIXTURE_VARIANT_ADD(errors, seccomp_nr_masks_3_third_unmapped_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 3,
	.masks_readable = 2,
	.valid_nr_masks = 2,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS },
	       { ARCH_OTHER, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_unknown_arch_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 1,
	.e = { { ARCH_BOGUS, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_arch_listed_twice_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 2,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS },
	       { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/* Version 3: the set's size and reserved word. */
FIXTURE_VARIANT_ADD(errors, seccomp_set_size_below_first_layout_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.size_given = true,
	.size = SECCOMP_MASK_SET_SIZE_VER0 - 1,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_set_reserved_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.reserved = 1,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/*
 * Version 2: masks stack on a filter; the mode stays 2. The mask is
 * really installed: /proc shows it (the other ABI's empty) with its
 * action, and getppid, which it denies, takes that action although the
 * filter allows everything.
 */
FIXTURE_VARIANT_ADD(errors, prctl_in_filter_mode_is_valid) {
	.prior = PRIOR_FILTER,
	.expected_errno = 0,
	.nbits = SECCOMP_MASK_MAX_BITS,
	.deny_getppid = true,
};

FIXTURE_VARIANT_ADD(errors, seccomp_in_filter_mode_is_valid) {
	.use_seccomp = true,
	.prior = PRIOR_FILTER,
	.expected_errno = 0,
	.nr_masks = 1,
	.deny_getppid = true,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, prctl_in_filter_mode_with_errno_action_is_valid) {
	.prior = PRIOR_FILTER,
	.expected_errno = 0,
	.nbits = SECCOMP_MASK_MAX_BITS,
	.arg5 = SECCOMP_RET_ERRNO | DENY_ERRNO,
	.deny_getppid = true,
};

FIXTURE_VARIANT_ADD(errors, seccomp_in_filter_mode_with_errno_action_is_valid) {
	.use_seccomp = true,
	.prior = PRIOR_FILTER,
	.expected_errno = 0,
	.action = SECCOMP_RET_ERRNO | DENY_ERRNO,
	.nr_masks = 1,
	.deny_getppid = true,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/* EFAULT */
FIXTURE_VARIANT_ADD(errors, prctl_bits_unreadable_is_efault) {
	.expected_errno = EFAULT,
	.nbits = 64,
	.bits = PTR_BAD,
};

FIXTURE_VARIANT_ADD(errors, seccomp_bits_unreadable_is_efault) {
	.use_seccomp = true,
	.expected_errno = EFAULT,
	.nr_masks = 1,
	.e = { { ARCH_SELF, 64, PTR_BAD } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_set_unreadable_is_efault) {
	.use_seccomp = true,
	.expected_errno = EFAULT,
	.set = PTR_BAD,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_masks_unreadable_is_efault) {
	.use_seccomp = true,
	.expected_errno = EFAULT,
	.masks = PTR_BAD,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/* E2BIG (version 3) */
FIXTURE_VARIANT_ADD(errors, seccomp_set_nonzero_byte_past_the_struct_is_e2big) {
	.use_seccomp = true,
	.expected_errno = E2BIG,
	.size_given = true,
	.size = 32,
	.tail_byte = 24,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_set_size_above_a_page_is_e2big) {
	.use_seccomp = true,
	.expected_errno = E2BIG,
	.size_given = true,
	.size = 4097,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/* Not an error (version 3): a larger set whose extra bytes are 0. */
FIXTURE_VARIANT_ADD(errors, seccomp_set_larger_with_zero_tail_is_valid) {
	.use_seccomp = true,
	.expected_errno = 0,
	.size_given = true,
	.size = 32,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/* EPERM */
FIXTURE_VARIANT_ADD(errors, prctl_superset_is_eperm) {
	.prior = PRIOR_MASK,
	.expected_errno = EPERM,
	.nbits = SECCOMP_MASK_MAX_BITS,
};

FIXTURE_VARIANT_ADD(errors, seccomp_superset_is_eperm) {
	.use_seccomp = true,
	.prior = PRIOR_MASK,
	.expected_errno = EPERM,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/* Not errors: no bits to read when nbits is 0. */
FIXTURE_VARIANT_ADD(errors, seccomp_null_bits_with_zero_nbits_is_valid) {
	.use_seccomp = true,
	.expected_errno = 0,
	.nr_masks = 2,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS },
	       { ARCH_OTHER, 0, PTR_NULL } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_bad_bits_with_zero_nbits_is_valid) {
	.use_seccomp = true,
	.expected_errno = 0,
	.nr_masks = 2,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS },
	       { ARCH_OTHER, 0, PTR_BAD } },
};

static __u32 arch_value(enum arch_kind kind)
{
	switch (kind) {
	case ARCH_SELF:
		return SELF_ARCH;
	case ARCH_OTHER:
#ifdef TWO_ABIS
		return OTHER_ARCH;
#else
		return 0;
#endif
	case ARCH_BOGUS:
		/* No kernel runs Alpha syscalls next to this ABI. */
		return AUDIT_ARCH_ALPHA;
	default:
		return 0;
	}
}

/* An address with nothing mapped. */
static void *unmapped_address(void)
{
	void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p, 4096);
	return p;
}

static void *ptr(enum ptr_kind kind, void *ok, void *bad)
{
	switch (kind) {
	case PTR_BAD:
		return bad;
	case PTR_NULL:
		return NULL;
	default:
		return ok;
	}
}

/* Does the variant break the version 3 header of the set? */
static bool header_fault(const struct _fixture_variant_errors *v)
{
	return (v->size_given && (v->size < SECCOMP_MASK_SET_SIZE_VER0 ||
				  v->size > 4096)) ||
	       v->reserved || v->tail_byte;
}

/* The action the call under test passes. */
static __u32 call_action(const struct _fixture_variant_errors *v)
{
	return v->use_seccomp ? v->action : (__u32)v->arg5;
}

/* Does the child end killed by SIGSYS at its CHILD_DENIED() call? */
static bool ends_denied(const struct _fixture_variant_errors *v)
{
	if (v->expected_errno)
		return v->prior == PRIOR_MASK;
	return v->deny_getppid && !call_action(v);
}

/* Does /proc/self/status show @want as the mask of the other x86 ABI? */
static bool other_abi_line_is(const char *want)
{
	return status_is(0, self_is_compat() ? "Seccomp_mask" :
			 "Seccomp_mask_compat", want);
}

TEST_F(errors, call)
{
	static struct seccomp_mask e[1024];
	static struct mask m[3];
	/* The set and up to a page past it (size 4097 reads nothing). */
	static __u64 setbuf[8192 / 8];
	struct seccomp_mask *masks = e;
	struct mask all, prior, sub, *prctl_mask;
	unsigned char *page = NULL;
	bool other_abi, other_listed = false;
	pid_t ppid = getpid();
	void *bad;
	pid_t pid;
	int i;

	if (!require_mask(_metadata))
		return;
	other_abi = other_abi_available();
	for (i = 0; i < 3; i++) {
		if (variant->e[i].arch != ARCH_OTHER)
			continue;
		if (!other_abi)
			SKIP_UNLESS_REQUIRED(return,
					     "the kernel has no second ABI (%s)",
					     OTHER_ABI_WHY);
		other_listed = true;
	}
	bad = unmapped_address();
	ASSERT_TRUE(!!bad);
	mask_all(&all, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&prior, __NR_getppid);
	mask_all_but(&sub, __NR_getppid);
	prctl_mask = variant->deny_getppid ? &sub : &all;

	for (i = 0; i < 3; i++) {
		if (variant->deny_getppid && variant->e[i].arch == ARCH_SELF)
			m[i] = sub;
		else
			mask_all(&m[i], SECCOMP_MASK_MAX_BITS);
		mask_entry(&e[i], arch_value(variant->e[i].arch), &m[i]);
		e[i].nbits = variant->e[i].nbits;
		e[i].bits = (uintptr_t)ptr(variant->e[i].bits, m[i].bits, bad);
	}
	/* Entries beyond the listed ones repeat this ABI. */
	for (; i < 1024; i++)
		mask_entry(&e[i], SELF_ARCH, &all);
	/* The readable entries end where the mapping ends. */
	if (variant->masks_readable) {
		size_t len = variant->masks_readable * sizeof(e[0]);

		page = page_before_hole();
		ASSERT_TRUE(!!page);
		masks = memcpy(page + 4096 - len, e, len);
	}

	pid = fork_child(_metadata);
	if (pid == 0) {
		struct seccomp_mask_set set = {
			.nr_masks = variant->nr_masks,
			.action = variant->action,
			.masks = (uintptr_t)ptr(variant->masks, masks, bad),
		};
		struct seccomp_mask_set *s = (void *)setbuf;
		char status[8192];
		int mode = 0, ret;

		set.size = variant->size_given ? variant->size : sizeof(set);
		set.__reserved = variant->reserved;
		memcpy(s, &set, sizeof(set));
		if (variant->tail_byte)
			((unsigned char *)setbuf)[variant->tail_byte] = 1;

		CHILD_ASSERT(set_nnp() == 0);
		if (variant->prior == PRIOR_FILTER) {
			CHILD_ASSERT(filter_allow_all() == 0);
			mode = 2;
		} else if (variant->prior == PRIOR_MASK) {
			CHILD_ASSERT(mask_prctl(&prior) == 0);
			mode = 3;
		}

		errno = 0;
		if (variant->use_seccomp)
			ret = sys_seccomp(SECCOMP_SET_MODE_MASK, variant->flags,
					  ptr(variant->set, s, bad));
		else
			ret = prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK,
				    ptr(variant->bits, prctl_mask->bits, bad),
				    variant->nbits, variant->arg5);

		if (variant->expected_errno) {
			CHILD_ASSERT(ret == -1);
			CHILD_ASSERT(errno == variant->expected_errno);
			/* Nothing changed. */
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == mode);
			if (mode == 3) {
				/* The old mask and kill action still hold. */
				CHILD_ASSERT(status_shows_mask(0, &prior));
				CHILD_ASSERT(status_shows_action(0, 0));
				CHILD_DENIED(syscall(__NR_getppid));
				_exit(10);
			}
			/* No mask: no mask lines, and getppid still runs. */
			CHILD_ASSERT(!read_status(0, status, sizeof(status)));
			CHILD_ASSERT(!strstr(status, "Seccomp_mask"));
			if (variant->deny_getppid)
				CHILD_ASSERT(syscall(__NR_getppid) == ppid);
			if (header_fault(variant)) {
				/* The same set, its header made valid, installs. */
				memset(setbuf, 0, sizeof(setbuf));
				set.size = sizeof(set);
				set.__reserved = 0;
				memcpy(s, &set, sizeof(set));
				CHILD_ASSERT(sys_seccomp(SECCOMP_SET_MODE_MASK,
							 variant->flags, s) == 0);
				CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
			}
			if (variant->valid_nr_masks) {
				/* The same entries, fewer of them, install. */
				set.nr_masks = variant->valid_nr_masks;
				memcpy(s, &set, sizeof(set));
				ret = sys_seccomp(SECCOMP_SET_MODE_MASK,
						  variant->flags, s);
				CHILD_ASSERT(ret == 0);
				mode = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
				CHILD_ASSERT(mode == 3);
			}
		} else {
			__u32 action = call_action(variant);

			CHILD_ASSERT(ret == 0);
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) ==
				     (mode == 2 ? 2 : 3));
			if (variant->deny_getppid) {
				/* Installed: /proc shows mask and action... */
				CHILD_ASSERT(status_shows_mask(0, &sub));
				CHILD_ASSERT(status_shows_action(0, action));
				if (other_abi && !other_listed && mode != 3)
					CHILD_ASSERT(other_abi_line_is(""));
				/* ...and getppid takes that action. */
				if (!action) {
					CHILD_DENIED(syscall(__NR_getppid));
					_exit(10);
				}
				errno = 0;
				CHILD_ASSERT(syscall(__NR_getppid) == -1);
				CHILD_ASSERT(errno ==
					     (int)(action & SECCOMP_RET_DATA));
			}
		}
		_exit(0);
	}
	if (page)
		munmap(page, 4096);
	if (ends_denied(variant))
		ASSERT_CHILD_DENIED(pid);
	else
		ASSERT_CHILD_OK(pid);
}

/*
 * nbits at its edges. The buffer has every bit set, past nbits too: only
 * the first nbits count, the number nbits is denied, nbits - 1 allowed.
 */
FIXTURE(nbits) {};

FIXTURE_VARIANT(nbits) {
	unsigned int nbits;
	bool use_seccomp;
};

FIXTURE_VARIANT_ADD(nbits, prctl_0) { .nbits = 0 };
FIXTURE_VARIANT_ADD(nbits, seccomp_0) { .nbits = 0, .use_seccomp = true };
FIXTURE_VARIANT_ADD(nbits, prctl_1) { .nbits = 1 };
FIXTURE_VARIANT_ADD(nbits, seccomp_1) { .nbits = 1, .use_seccomp = true };
FIXTURE_VARIANT_ADD(nbits, prctl_1023) { .nbits = 1023 };
FIXTURE_VARIANT_ADD(nbits, seccomp_1023) { .nbits = 1023, .use_seccomp = true };
FIXTURE_VARIANT_ADD(nbits, prctl_1024) { .nbits = 1024 };
FIXTURE_VARIANT_ADD(nbits, seccomp_1024) { .nbits = 1024, .use_seccomp = true };

FIXTURE_SETUP(nbits) {}
FIXTURE_TEARDOWN(nbits) {}

TEST_F(nbits, first_nbits_count_and_set_bits_past_them_are_ignored)
{
	unsigned int n = variant->nbits;
	int unimplemented;
	struct mask m;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	unimplemented = unimplemented_errno();
	ASSERT_LT(0, unimplemented);
	memset(m.bits, 0xff, sizeof(m.bits));
	m.nbits = n;
	pid = fork_child(_metadata);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		if (variant->use_seccomp)
			CHILD_ASSERT(mask_seccomp1(SELF_ARCH, &m) == 0);
		else
			CHILD_ASSERT(mask_prctl(&m) == 0);
		if (n == 1) {
			/* 0: read(-1) (x86-64) or restart_syscall (ia32). */
			syscall(0, -1, NULL, 0);
		} else if (n > 1) {
			/* n - 1 is a number no kernel implements. */
			errno = 0;
			CHILD_ASSERT(syscall(n - 1) == -1 &&
				     errno == unimplemented);
		}
		/* 1 is write (x86-64) or exit (ia32): must not run either. */
		CHILD_DENIED(syscall(n, -1, NULL, 0));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

/*
 * A bits buffer that ends exactly where the mapping ends is valid; one
 * that ends one byte past it is EFAULT, and installs nothing.
 */
FIXTURE(buffer_end) {
	unsigned char *page;	/* the last mapped page: the next one is not */
};

FIXTURE_VARIANT(buffer_end) {
	unsigned int nbits;
	bool use_seccomp;
	bool one_byte_past;
};

FIXTURE_VARIANT_ADD(buffer_end, prctl_1024_at_end_is_valid) { .nbits = 1024 };

FIXTURE_VARIANT_ADD(buffer_end, prctl_1024_one_byte_past_is_efault) {
	.nbits = 1024, .one_byte_past = true,
};

FIXTURE_VARIANT_ADD(buffer_end, seccomp_1024_at_end_is_valid) {
	.nbits = 1024, .use_seccomp = true,
};

FIXTURE_VARIANT_ADD(buffer_end, seccomp_1024_one_byte_past_is_efault) {
	.nbits = 1024, .use_seccomp = true, .one_byte_past = true,
};

/* 9 bits: 2 bytes, the second holding one bit. */
FIXTURE_VARIANT_ADD(buffer_end, prctl_9_at_end_is_valid) { .nbits = 9 };

FIXTURE_VARIANT_ADD(buffer_end, prctl_9_one_byte_past_is_efault) {
	.nbits = 9, .one_byte_past = true,
};

FIXTURE_VARIANT_ADD(buffer_end, seccomp_9_at_end_is_valid) { .nbits = 9, .use_seccomp = true };

FIXTURE_VARIANT_ADD(buffer_end, seccomp_9_one_byte_past_is_efault) {
	.nbits = 9, .use_seccomp = true, .one_byte_past = true,
};

#if ARM64_BUILD == 32
/* The AArch32 mask's 1040 bits: 130 bytes, the last two the private calls. */
FIXTURE_VARIANT_ADD(buffer_end, prctl_1040_at_end_is_valid) { .nbits = 1040 };

FIXTURE_VARIANT_ADD(buffer_end, prctl_1040_one_byte_past_is_efault) {
	.nbits = 1040, .one_byte_past = true,
};

FIXTURE_VARIANT_ADD(buffer_end, seccomp_1040_at_end_is_valid) {
	.nbits = 1040, .use_seccomp = true,
};

FIXTURE_VARIANT_ADD(buffer_end, seccomp_1040_one_byte_past_is_efault) {
	.nbits = 1040, .use_seccomp = true, .one_byte_past = true,
};
#endif

FIXTURE_SETUP(buffer_end)
{
	self->page = page_before_hole();
	ASSERT_TRUE(!!self->page);
	memset(self->page, 0xff, 4096);
}

FIXTURE_TEARDOWN(buffer_end)
{
	page_put(self->page);
}

TEST_F(buffer_end, bits_up_to_the_last_mapped_byte)
{
	unsigned int bytes = (variant->nbits + 7) / 8;
	unsigned char *bits;
	pid_t pid;

	bits = self->page + 4096 - bytes + variant->one_byte_past;
	pid = fork_mask_child(_metadata);
	if (pid < 0)
		return;
	if (pid == 0) {
		struct seccomp_mask e = {
			.arch = SELF_ARCH,
			.nbits = variant->nbits,
			.bits = (uintptr_t)bits,
		};
		struct seccomp_mask_set set = {
			.size = sizeof(struct seccomp_mask_set),
			.nr_masks = 1,
			.masks = (uintptr_t)&e,
		};
		long ret;

		CHILD_ASSERT(set_nnp() == 0);
		if (variant->use_seccomp)
			ret = sys_seccomp(SECCOMP_SET_MODE_MASK, 0, &set);
		else
			ret = prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK, bits,
				    variant->nbits, 0);
		if (variant->one_byte_past) {
			CHILD_ASSERT(ret == -1 && errno == EFAULT);
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
			_exit(0);
		}
		CHILD_ASSERT(ret == 0);
		if (variant->nbits > __NR_getppid) {
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
			_exit(0);
		}
		/* 9 bits: the getpid, exit and exit_group bits are out. */
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	if (!variant->one_byte_past && variant->nbits <= __NR_getppid)
		ASSERT_CHILD_DENIED(pid);
	else
		ASSERT_CHILD_OK(pid);
}

/*
 * ENOMEM: fail the Nth allocation of the call (fail-nth with failslab),
 * for every N until the call succeeds; each failure must be exactly
 * ENOMEM and leave the task unchanged, on both ABIs.
 */
#define DEBUGFS "/sys/kernel/debug"
#define FAILSLAB_WAIT DEBUGFS "/failslab/ignore-gfp-wait"
#define FAILSLAB_VERBOSE DEBUGFS "/failslab/verbose"

FIXTURE(enomem) {
	char saved_wait[16];
	char saved_verbose[16];
	bool restore;
};

FIXTURE_SETUP(enomem)
{
	const char *why = NULL;

	if (access(FAILSLAB_WAIT, F_OK))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	if (access("/proc/self/fail-nth", F_OK))
		why = "CONFIG_FAULT_INJECTION not enabled (no /proc/self/fail-nth)";
	else if (!read_file(FAILSLAB_WAIT, self->saved_wait,
			    sizeof(self->saved_wait)))
		why = "CONFIG_FAILSLAB or CONFIG_FAULT_INJECTION_DEBUG_FS not enabled";
	if (why && !mask_required())
		SKIP(return, "%s", why);
	/* This directory's config enables them: a CI kernel has them. */
	ASSERT_TRUE(!why) {
		TH_LOG("SECCOMP_MASK_REQUIRED=1: %s", why);
	}
	ASSERT_TRUE(read_file(FAILSLAB_VERBOSE, self->saved_verbose,
			      sizeof(self->saved_verbose)));
	self->restore = true;
	ASSERT_TRUE(write_file(FAILSLAB_WAIT, "N"));
	/* No stack dump in the kernel log for each injected failure. */
	ASSERT_TRUE(write_file(FAILSLAB_VERBOSE, "0"));
}

FIXTURE_TEARDOWN(enomem)
{
	if (self->restore) {
		write_file(FAILSLAB_WAIT, self->saved_wait);
		write_file(FAILSLAB_VERBOSE, self->saved_verbose);
	}
}

FIXTURE_VARIANT(enomem) {
	bool use_seccomp;
	bool tighten;
	bool other_abi;		/* prctl() through the other ABI's entry */
};

FIXTURE_VARIANT_ADD(enomem, prctl_install) { .use_seccomp = false };
FIXTURE_VARIANT_ADD(enomem, seccomp_install) { .use_seccomp = true };
FIXTURE_VARIANT_ADD(enomem, prctl_tighten) { .use_seccomp = false, .tighten = true };
FIXTURE_VARIANT_ADD(enomem, seccomp_tighten) { .use_seccomp = true, .tighten = true };

#ifdef X86_BUILD
FIXTURE_VARIANT_ADD(enomem, other_abi_prctl_install) { .other_abi = true };
FIXTURE_VARIANT_ADD(enomem, other_abi_prctl_tighten) { .other_abi = true, .tighten = true };

/* PR_SET_SECCOMP through the other x86 ABI: its mask, or -errno. */
static long other_abi_prctl(const struct mask *m)
{
	const unsigned char *bits = m->bits;
#if X86_BUILD == 64
	/* int $0x80 takes pointers below 4 GiB. */
	static unsigned char *low;

	if (!low)
		low = low_page();
	if (!low)
		return -ENOMEM;
	memcpy(low, m->bits, (m->nbits + 7) / 8);
	bits = low;
#endif
	return other_sys(OTHER_NR_prctl, PR_SET_SECCOMP, SECCOMP_MODE_MASK,
			 (long)bits, m->nbits, 0);
}

/* exit_group through the other x86 ABI. */
static void other_abi_exit(int code)
{
	other_call(OTHER_NR_exit_group, code, 0, 0);
	_exit(code);
}
#endif

/* The mask a tightening variant starts from: every ABI it uses. */
static int enomem_prior(const struct _fixture_variant_enomem *variant,
			const struct mask *old)
{
#ifdef X86_BUILD
	if (variant->other_abi) {
		const __u32 arch[2] = { ARCH_X86_64, ARCH_I386 };
		const struct mask *both[2] = { old, old };

		return mask_seccomp(2, arch, both);
	}
#endif
	return mask_prctl(old);
}

/* The call under test: 0, or -1 with errno. */
static int enomem_install(const struct _fixture_variant_enomem *variant,
			  const struct mask *m)
{
#ifdef X86_BUILD
	if (variant->other_abi) {
		long r = other_abi_prctl(m);

		/* Installed: this ABI's mask is empty now. */
		if (!variant->tighten && r == 0)
			other_abi_exit(1);
		errno = r < 0 ? -r : 0;
		return r ? -1 : 0;
	}
#endif
	if (variant->use_seccomp)
		return mask_seccomp1(SELF_ARCH, m);
	return mask_prctl(m);
}

TEST_F(enomem, failed_allocation_is_enomem_and_changes_nothing)
{
	struct mask old, new;
	int nth, saw_enomem = 0;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
#ifdef X86_BUILD
	if (variant->other_abi && !other_abi_available())
		SKIP_UNLESS_REQUIRED(return,
				     "the kernel has no second ABI (CONFIG_IA32_EMULATION)");
#endif
	mask_all(&old, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&new, __NR_getppid);

	for (nth = 1; nth < 100; nth++) {
		int status;

		pid = fork_child(_metadata);
		if (pid == 0) {
			char path[64], n[16];
			int fd, ret, err;

			CHILD_ASSERT(set_nnp() == 0);
			if (variant->tighten)
				CHILD_ASSERT(enomem_prior(variant, &old) == 0);
			snprintf(path, sizeof(path),
				 "/proc/self/task/%ld/fail-nth",
				 (long)syscall(__NR_gettid));
			fd = open(path, O_WRONLY | O_CLOEXEC);
			CHILD_ASSERT(fd >= 0);
			snprintf(n, sizeof(n), "%d", nth);
			CHILD_ASSERT(write(fd, n, strlen(n)) > 0);
			ret = enomem_install(variant, &new);
			err = errno;
			CHILD_ASSERT(write(fd, "0", 1) > 0);
			if (ret == 0)
				_exit(1);	/* no allocation failed */
			errno = err;
			CHILD_ASSERT(err == ENOMEM);
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) ==
				     (variant->tighten ? 3 : 0));
			/* getppid is still allowed: nothing changed. */
			CHILD_ASSERT(syscall(__NR_getppid) == getppid());
			_exit(0);
		}
		status = child_wait(_metadata, pid);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
			break;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			TH_LOG("failing allocation %d", nth);
			child_describe(_metadata, status, __LINE__);
			ASSERT_TRUE(0);
		}
		saw_enomem++;
	}
	ASSERT_GT(100, nth);
	/* The call allocates: failing its first allocation must be seen. */
	ASSERT_LT(0, saw_enomem);
}

TEST_HARNESS_MAIN
