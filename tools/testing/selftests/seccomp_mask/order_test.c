// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the order of the error checks
 *
 * A call with two faults returns the error of the check that runs first:
 * the arguments, then the privilege, then the allocation and the copy of
 * the bits, then the state of the task. Each case has exactly two faults;
 * a kernel that checks them in another order returns the other errno.
 *
 * Version 3 puts the checks of the extensible set in front, in this order
 * (build/v3/uapi.txt): the flags (EINVAL); reading set->size (EFAULT); a
 * size below the first layout (EINVAL); a size above a page (E2BIG);
 * copy_struct_from_user(): a non-zero byte past the kernel's struct
 * (E2BIG) or the size bytes not readable (EFAULT); a non-zero __reserved
 * (EINVAL); then the version 2 checks. The cases "..._before_..." below
 * guard each step against the next ones. Where both faults give the same
 * errno (reserved and a bad action: EINVAL either way) the case only
 * guards that the pair fails that way and installs nothing.
 *
 * Every case ends with a valid version 3 set installed by seccomp(2): the
 * kernel reads the set where version 3 puts its fields, and the faulty
 * call left the task able to take it.
 */

#include "common.h"

/* The faults a case combines. */
enum fault {
	F_NONE,
	F_FLAGS,		/* an unknown seccomp(2) flag */
	F_NBITS,		/* nbits one above the ABI's maximum */
	F_ACTION,		/* SECCOMP_RET_ERRNO | 0 */
	F_ARCH,			/* an arch the kernel does not have */
	F_SET,			/* the set is not readable */
	F_BITS,			/* the bits are not readable */
	F_PRIV,			/* no no_new_privs, no CAP_SYS_ADMIN */
	F_WIDER,		/* a tightening that widens the mask */
	/* version 3 */
	F_SIZE_SMALL,		/* set.size 16, below the first layout */
	F_SIZE_HUGE,		/* set.size 4097, above a page */
	F_TAIL,			/* set.size 32, a non-zero byte at 24 */
	F_TAIL_FAULT,		/* set.size 32, bytes 28..31 not readable */
	F_STRUCT_FAULT,		/* only set.size readable, bytes 4.. not */
	F_RESERVED,		/* set.__reserved 1 */
	F_MASKS,		/* the masks are not readable */
};

struct order_case {
	bool use_seccomp;
	enum fault a, b;
	int expected_errno;
};

FIXTURE(order) {
	unsigned char *page;	/* the next page is not mapped */
};

FIXTURE_VARIANT(order) {
	struct order_case c;
};

/* { .use_seccomp, .a, .b, .expected_errno } */

/* Arguments before privilege. */
FIXTURE_VARIANT_ADD(order, prctl_nbits_before_privilege) {
	{ false, F_NBITS, F_PRIV, EINVAL },
};

FIXTURE_VARIANT_ADD(order, prctl_action_before_privilege) {
	{ false, F_ACTION, F_PRIV, EINVAL },
};

FIXTURE_VARIANT_ADD(order, seccomp_flags_before_privilege) {
	{ true, F_FLAGS, F_PRIV, EINVAL },
};

FIXTURE_VARIANT_ADD(order, seccomp_arch_before_privilege) {
	{ true, F_ARCH, F_PRIV, EINVAL },
};

FIXTURE_VARIANT_ADD(order, seccomp_set_before_privilege) {
	{ true, F_SET, F_PRIV, EFAULT },
};

FIXTURE_VARIANT_ADD(order, seccomp_flags_before_set) {
	{ true, F_FLAGS, F_SET, EINVAL },
};

/* Privilege before the copy of the bits. */
FIXTURE_VARIANT_ADD(order, prctl_privilege_before_bits) {
	{ false, F_PRIV, F_BITS, EACCES },
};

FIXTURE_VARIANT_ADD(order, seccomp_privilege_before_bits) {
	{ true, F_PRIV, F_BITS, EACCES },
};

/* Arguments before the copy of the bits. */
FIXTURE_VARIANT_ADD(order, prctl_action_before_bits) {
	{ false, F_ACTION, F_BITS, EINVAL },
};

FIXTURE_VARIANT_ADD(order, seccomp_arch_before_bits) {
	{ true, F_ARCH, F_BITS, EINVAL },
};

/* The copy of the bits before the state of the task. */
FIXTURE_VARIANT_ADD(order, prctl_bits_before_subset) {
	{ false, F_BITS, F_WIDER, EFAULT },
};

FIXTURE_VARIANT_ADD(order, seccomp_bits_before_subset) {
	{ true, F_BITS, F_WIDER, EFAULT },
};

/* Version 3, step 1: the flags before anything of the set. */
FIXTURE_VARIANT_ADD(order, seccomp_flags_before_size_above_page) {
	{ true, F_FLAGS, F_SIZE_HUGE, EINVAL },
};

FIXTURE_VARIANT_ADD(order, seccomp_flags_before_tail) {
	{ true, F_FLAGS, F_TAIL, EINVAL },
};

FIXTURE_VARIANT_ADD(order, seccomp_flags_before_struct_fault) {
	{ true, F_FLAGS, F_STRUCT_FAULT, EINVAL },
};

/* Steps 3 and 4: the size before the copy of the struct. */
FIXTURE_VARIANT_ADD(order, seccomp_size_below_first_layout_before_struct_fault) {
	{ true, F_SIZE_SMALL, F_STRUCT_FAULT, EINVAL },
};

FIXTURE_VARIANT_ADD(order, seccomp_size_above_page_before_struct_fault) {
	{ true, F_SIZE_HUGE, F_STRUCT_FAULT, E2BIG },
};

FIXTURE_VARIANT_ADD(order, seccomp_size_above_page_before_reserved) {
	{ true, F_SIZE_HUGE, F_RESERVED, E2BIG },
};

FIXTURE_VARIANT_ADD(order, seccomp_size_below_first_layout_before_privilege) {
	{ true, F_SIZE_SMALL, F_PRIV, EINVAL },
};

FIXTURE_VARIANT_ADD(order, seccomp_size_below_first_layout_before_masks) {
	{ true, F_SIZE_SMALL, F_MASKS, EINVAL },
};

/* Step 5: the tail before the reserved word and the version 2 checks. */
FIXTURE_VARIANT_ADD(order, seccomp_tail_before_reserved) {
	{ true, F_TAIL, F_RESERVED, E2BIG },
};

FIXTURE_VARIANT_ADD(order, seccomp_tail_fault_before_reserved) {
	{ true, F_TAIL_FAULT, F_RESERVED, EFAULT },
};

FIXTURE_VARIANT_ADD(order, seccomp_tail_before_action) {
	{ true, F_TAIL, F_ACTION, E2BIG },
};

FIXTURE_VARIANT_ADD(order, seccomp_tail_before_arch) {
	{ true, F_TAIL, F_ARCH, E2BIG },
};

FIXTURE_VARIANT_ADD(order, seccomp_tail_before_privilege) {
	{ true, F_TAIL, F_PRIV, E2BIG },
};

FIXTURE_VARIANT_ADD(order, seccomp_tail_before_subset) {
	{ true, F_TAIL, F_WIDER, E2BIG },
};

FIXTURE_VARIANT_ADD(order, seccomp_tail_fault_before_privilege) {
	{ true, F_TAIL_FAULT, F_PRIV, EFAULT },
};

/* Step 6: the reserved word before the version 2 checks. */
FIXTURE_VARIANT_ADD(order, seccomp_reserved_with_action) {
	{ true, F_RESERVED, F_ACTION, EINVAL },
};

FIXTURE_VARIANT_ADD(order, seccomp_reserved_before_masks) {
	{ true, F_RESERVED, F_MASKS, EINVAL },
};

FIXTURE_VARIANT_ADD(order, seccomp_reserved_before_privilege) {
	{ true, F_RESERVED, F_PRIV, EINVAL },
};

FIXTURE_VARIANT_ADD(order, seccomp_reserved_before_bits) {
	{ true, F_RESERVED, F_BITS, EINVAL },
};

FIXTURE_VARIANT_ADD(order, seccomp_reserved_before_subset) {
	{ true, F_RESERVED, F_WIDER, EINVAL },
};

FIXTURE_SETUP(order) { self->page = require_mask_page(_metadata); }
FIXTURE_TEARDOWN(order) { page_put(self->page); }

static bool has(const struct order_case *v, enum fault f)
{
	return v->a == f || v->b == f;
}

/*
 * Where the set goes in @page (whose next page is unmapped), and how many
 * of its bytes are written there: all of them but those past the page.
 */
static struct seccomp_mask_set *
place_faulty_set(const struct order_case *v, unsigned char *page,
		 const struct seccomp_mask_set *set)
{
	unsigned char *at = page;
	size_t len = sizeof(*set);

	memset(page, 0, 4096);
	if (has(v, F_STRUCT_FAULT)) {
		at = page + 4096 - sizeof(set->size);
		len = sizeof(set->size);
	} else if (has(v, F_TAIL_FAULT)) {
		/* The 24 bytes and 4 of the 8 zero tail bytes are readable. */
		at = page + 4096 - 28;
	}
	memcpy(at, set, len);
	if (has(v, F_TAIL))
		at[24] = 1;
	return (struct seccomp_mask_set *)at;
}

/* The call of the case, with its two faults. */
static long faulty_call(const struct order_case *v, unsigned char *page,
			void *bad)
{
	struct mask m;
	struct seccomp_mask e;
	struct seccomp_mask_set set = {
		.size = sizeof(struct seccomp_mask_set),
		.nr_masks = 1,
	};
	struct seccomp_mask_set *s;

	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	if (!has(v, F_WIDER))
		mask_clear(&m, __NR_getppid);
	if (has(v, F_NBITS))
		m.nbits = SELF_MAX_BITS + 1;
	if (has(v, F_ACTION))
		set.action = SECCOMP_RET_ERRNO;
	mask_entry(&e, has(v, F_ARCH) ? 0x12345678 : SELF_ARCH, &m);
	if (has(v, F_BITS))
		e.bits = (uintptr_t)bad;
	set.masks = (uintptr_t)(has(v, F_MASKS) ? bad : (void *)&e);
	if (has(v, F_SIZE_SMALL))
		set.size = 16;
	if (has(v, F_SIZE_HUGE))
		set.size = 4097;
	if (has(v, F_TAIL) || has(v, F_TAIL_FAULT))
		set.size = 32;
	if (has(v, F_RESERVED))
		set.__reserved = 1;

	if (!v->use_seccomp)
		return prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK,
			     (void *)(uintptr_t)e.bits, m.nbits, set.action);
	s = place_faulty_set(v, page, &set);
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK,
		       has(v, F_FLAGS) ? 0x80 : 0, has(v, F_SET) ? bad : s);
}

TEST_F(order, first_check_wins)
{
	const struct order_case *c = &variant->c;
	char buf[4096];
	struct mask m;
	pid_t pid;
	void *bad;

	/* An unmapped page: any copy from it faults. */
	bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(bad != MAP_FAILED);
	ASSERT_EQ(0, munmap(bad, 4096));

	pid = fork_child(_metadata);
	if (pid == 0) {
		if (has(c, F_PRIV))
			CHILD_ASSERT(drop_cap_sys_admin() == 0);
		else
			CHILD_ASSERT(set_nnp() == 0);
		mask_all_but(&m, __NR_getppid);
		if (has(c, F_WIDER)) {
			/* Mask mode, getppid denied: the faulty call widens it. */
			CHILD_ASSERT(mask_install(c->use_seccomp, &m) == 0);
		}
		errno = 0;
		CHILD_ASSERT(faulty_call(c, self->page, bad) == -1);
		CHILD_ASSERT(errno == c->expected_errno);
		/* And nothing changed. */
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) ==
			     (has(c, F_WIDER) ? SECCOMP_MODE_MASK : 0));
		CHILD_ASSERT(read_status(0, buf, sizeof(buf)) == 0);
		if (!has(c, F_WIDER))
			CHILD_ASSERT(!strstr(buf, "Seccomp_mask"));
		if (c->use_seccomp) {
			/* A valid version 3 set installs (or keeps) the mask. */
			CHILD_ASSERT(set_nnp() == 0);
			CHILD_ASSERT(mask_seccomp1(SELF_ARCH, &m) == 0);
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) ==
				     SECCOMP_MODE_MASK);
			CHILD_ASSERT(status_shows_mask(0, &m));
		}
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

TEST_HARNESS_MAIN
