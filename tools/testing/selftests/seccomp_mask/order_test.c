// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the order of the error checks
 *
 * A call with two faults returns the error of the check that runs first:
 * the arguments, then the privilege, then the allocation and the copy of
 * the bits, then the state of the task. Each case has exactly two faults;
 * a kernel that checks them in another order returns the other errno.
 */

#include "common.h"

/* The faults a case combines. */
enum fault {
	F_NONE,
	F_FLAGS,		/* an unknown seccomp(2) flag */
	F_NBITS,		/* nbits SECCOMP_MASK_MAX_BITS + 1 */
	F_ACTION,		/* SECCOMP_RET_ERRNO | 0 */
	F_ARCH,			/* an arch the kernel does not have */
	F_SET,			/* the set is not readable */
	F_BITS,			/* the bits are not readable */
	F_PRIV,			/* no no_new_privs, no CAP_SYS_ADMIN */
	F_WIDER,		/* a tightening that widens the mask */
};

struct order_case {
	bool use_seccomp;
	enum fault a, b;
	int expected_errno;
};

FIXTURE(order) {};

FIXTURE_VARIANT(order) {
	struct order_case c;
};

/* Arguments before privilege. */
FIXTURE_VARIANT_ADD(order, prctl_nbits_before_privilege) {
	.c = {
		.a = F_NBITS, .b = F_PRIV, .expected_errno = EINVAL,
	},
};

FIXTURE_VARIANT_ADD(order, prctl_action_before_privilege) {
	.c = {
		.a = F_ACTION, .b = F_PRIV, .expected_errno = EINVAL,
	},
};

FIXTURE_VARIANT_ADD(order, seccomp_flags_before_privilege) {
	.c = {
		.use_seccomp = true,
		.a = F_FLAGS, .b = F_PRIV, .expected_errno = EINVAL,
	},
};

FIXTURE_VARIANT_ADD(order, seccomp_arch_before_privilege) {
	.c = {
		.use_seccomp = true,
		.a = F_ARCH, .b = F_PRIV, .expected_errno = EINVAL,
	},
};

FIXTURE_VARIANT_ADD(order, seccomp_set_before_privilege) {
	.c = {
		.use_seccomp = true,
		.a = F_SET, .b = F_PRIV, .expected_errno = EFAULT,
	},
};

FIXTURE_VARIANT_ADD(order, seccomp_flags_before_set) {
	.c = {
		.use_seccomp = true,
		.a = F_FLAGS, .b = F_SET, .expected_errno = EINVAL,
	},
};

/* Privilege before the copy of the bits. */
FIXTURE_VARIANT_ADD(order, prctl_privilege_before_bits) {
	.c = {
		.a = F_PRIV, .b = F_BITS, .expected_errno = EACCES,
	},
};

FIXTURE_VARIANT_ADD(order, seccomp_privilege_before_bits) {
	.c = {
		.use_seccomp = true,
		.a = F_PRIV, .b = F_BITS, .expected_errno = EACCES,
	},
};

/* Arguments before the copy of the bits. */
FIXTURE_VARIANT_ADD(order, prctl_action_before_bits) {
	.c = {
		.a = F_ACTION, .b = F_BITS, .expected_errno = EINVAL,
	},
};

FIXTURE_VARIANT_ADD(order, seccomp_arch_before_bits) {
	.c = {
		.use_seccomp = true,
		.a = F_ARCH, .b = F_BITS, .expected_errno = EINVAL,
	},
};

/* The copy of the bits before the state of the task. */
FIXTURE_VARIANT_ADD(order, prctl_bits_before_subset) {
	.c = {
		.a = F_BITS, .b = F_WIDER, .expected_errno = EFAULT,
	},
};

FIXTURE_VARIANT_ADD(order, seccomp_bits_before_subset) {
	.c = {
		.use_seccomp = true,
		.a = F_BITS, .b = F_WIDER, .expected_errno = EFAULT,
	},
};

FIXTURE_SETUP(order)
{
	require_mask(_metadata);
}

FIXTURE_TEARDOWN(order) {}

static bool has(const struct order_case *v, enum fault f)
{
	return v->a == f || v->b == f;
}

/* The call of the case, with its two faults. */
static long faulty_call(const struct order_case *v, void *bad)
{
	struct mask m;
	struct seccomp_mask e;
	struct seccomp_mask_set set = { .nr_masks = 1 };

	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	if (!has(v, F_WIDER))
		mask_clear(&m, __NR_getppid);
	if (has(v, F_NBITS))
		m.nbits = SECCOMP_MASK_MAX_BITS + 1;
	if (has(v, F_ACTION))
		set.action = SECCOMP_RET_ERRNO;
	mask_entry(&e, has(v, F_ARCH) ? 0x12345678 : SELF_ARCH, &m);
	if (has(v, F_BITS))
		e.bits = (uintptr_t)bad;
	set.masks = (uintptr_t)&e;

	if (!v->use_seccomp)
		return prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK,
			     (void *)(uintptr_t)e.bits, m.nbits, set.action);
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK,
		       has(v, F_FLAGS) ? 0x80 : 0, has(v, F_SET) ? bad : &set);
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

	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (has(c, F_PRIV))
			CHILD_ASSERT(drop_cap_sys_admin() == 0);
		else
			CHILD_ASSERT(set_nnp() == 0);
		if (has(c, F_WIDER)) {
			/* Mask mode, getppid denied: the faulty call widens it. */
			mask_all_but(&m, __NR_getppid);
			CHILD_ASSERT(mask_install(c->use_seccomp, &m) == 0);
		}
		errno = 0;
		CHILD_ASSERT(faulty_call(c, bad) == -1);
		CHILD_ASSERT(errno == c->expected_errno);
		/* And nothing changed. */
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) ==
			     (has(c, F_WIDER) ? SECCOMP_MODE_MASK : 0));
		CHILD_ASSERT(read_status(0, buf, sizeof(buf)) == 0);
		if (!has(c, F_WIDER))
			CHILD_ASSERT(!strstr(buf, "Seccomp_mask"));
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

TEST_HARNESS_MAIN
