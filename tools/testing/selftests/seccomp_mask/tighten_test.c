// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: tightening an installed mask
 */

#include "common.h"

FIXTURE(tighten) {};

FIXTURE_VARIANT(tighten) {
	bool use_seccomp;
};

FIXTURE_VARIANT_ADD(tighten, prctl) {
	.use_seccomp = false,
};

FIXTURE_VARIANT_ADD(tighten, seccomp) {
	.use_seccomp = true,
};

FIXTURE_SETUP(tighten) {}
FIXTURE_TEARDOWN(tighten) {}

TEST_F(tighten, subset_works_and_is_enforced)
{
	struct mask old, new;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	mask_all(&old, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&new, __NR_getppid);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &old) == 0);
		CHILD_ASSERT(syscall(__NR_getppid) == getppid());
		CHILD_ASSERT(mask_install(variant->use_seccomp, &new) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

TEST_F(tighten, same_mask_again_works)
{
	struct mask m;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	mask_all_but(&m, __NR_getppid);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &m) == 0);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &m) == 0);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

TEST_F(tighten, superset_fails_with_eperm_and_keeps_old_mask)
{
	struct mask old, new;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	mask_all_but(&old, __NR_getppid);
	mask_all(&new, SECCOMP_MASK_MAX_BITS);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &old) == 0);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &new) == -1 && errno == EPERM);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

TEST_F(tighten, longer_mask_with_zero_extra_bits_works)
{
	struct mask old, new;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	/* Old: 0 .. 511 all set. New: 1024 bits, 0 .. 511 set but getppid. */
	mask_all(&old, 512);
	ASSERT_LT(__NR_getppid, 512);
	mask_all(&new, 512);
	new.nbits = SECCOMP_MASK_MAX_BITS;
	mask_clear(&new, __NR_getppid);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &old) == 0);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &new) == 0);
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

TEST_F(tighten, longer_mask_with_a_set_extra_bit_fails_with_eperm)
{
	struct mask old, new;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	mask_all(&old, 512);
	mask_all(&new, 512);
	new.nbits = SECCOMP_MASK_MAX_BITS;
	mask_set(&new, NR_UNIMPLEMENTED);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &old) == 0);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &new) == -1 && errno == EPERM);
		/* The old mask holds: NR_UNIMPLEMENTED is outside it. */
		CHILD_DENIED(syscall(NR_UNIMPLEMENTED));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

TEST_F(tighten, shorter_mask_works_and_cuts_the_tail)
{
	struct mask old, new;
	int expected;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	mask_all(&old, SECCOMP_MASK_MAX_BITS);
	mask_all(&new, 512);
	expected = unimplemented_errno();
	ASSERT_LT(0, expected);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &old) == 0);
		CHILD_ASSERT(syscall(NR_UNIMPLEMENTED) == -1 &&
			     errno == expected);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &new) == 0);
		CHILD_DENIED(syscall(NR_UNIMPLEMENTED));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

#ifdef X86_BUILD
/* The masks of the two x86 ABIs are independent. */
static void expect_status(struct __test_metadata *const _metadata,
			  pid_t pid, const char *key, const struct mask *m)
{
	char buf[8192], val[4096], want[4096];

	ASSERT_EQ(0, read_status(pid, buf, sizeof(buf)));
	ASSERT_TRUE(status_field(buf, key, val, sizeof(val))) {
		TH_LOG("no %s: line", key);
	}
	mask_format(m, want, sizeof(want));
	ASSERT_STREQ(want, val);
}

TEST(abi_masks_are_independent)
{
	struct mask self_old, self_new, other, empty;
	struct handshake hs;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (!require_other_abi(_metadata))
		return;
	mask_all(&self_old, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&self_new, __NR_getppid);
	mask_none(&other, 64);
	mask_set(&other, 3);
	mask_set(&other, 60);
	mask_none(&empty, 0);
	ASSERT_EQ(0, handshake_init(&hs));
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		const __u32 arch[2] = { SELF_ARCH, OTHER_ARCH };
		const struct mask *both[2] = { &self_old, &other };

		handshake_child_begin(&hs);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp(2, arch, both) == 0);
		/* Tightening this ABI leaves the other one alone. */
		CHILD_ASSERT(mask_prctl(&self_new) == 0);
		/* Tightening the other ABI to empty leaves this one alone. */
		CHILD_ASSERT(mask_seccomp1(OTHER_ARCH, &empty) == 0);
		CHILD_ASSERT(handshake_child_ready(&hs));
		_exit(0);
	}
	ASSERT_TRUE(handshake_wait_child(&hs));
	expect_status(_metadata, pid, mask_line(false), &self_new);
	expect_status(_metadata, pid, mask_line(true), &empty);
	handshake_release_child(&hs);
	ASSERT_CHILD_OK(pid);
}

TEST(seccomp_with_several_masks_is_all_or_nothing)
{
	struct mask self_old, self_new, other_old, other_new;
	struct handshake hs;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (!require_other_abi(_metadata))
		return;
	mask_all(&self_old, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&self_new, __NR_getppid);	/* a subset */
	mask_none(&other_old, 64);
	mask_set(&other_old, 1);
	mask_none(&other_new, 64);
	mask_set(&other_new, 1);
	mask_set(&other_new, 2);		/* not a subset */
	ASSERT_EQ(0, handshake_init(&hs));
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		const __u32 arch[2] = { SELF_ARCH, OTHER_ARCH };
		const struct mask *old[2] = { &self_old, &other_old };
		const struct mask *new[2] = { &self_new, &other_new };

		handshake_child_begin(&hs);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp(2, arch, old) == 0);
		CHILD_ASSERT(mask_seccomp(2, arch, new) == -1 &&
			     errno == EPERM);
		/* The subset part was not applied either. */
		CHILD_ASSERT(syscall(__NR_getppid) == getppid());
		CHILD_ASSERT(handshake_child_ready(&hs));
		_exit(0);
	}
	ASSERT_TRUE(handshake_wait_child(&hs));
	expect_status(_metadata, pid, mask_line(false), &self_old);
	expect_status(_metadata, pid, mask_line(true), &other_old);
	handshake_release_child(&hs);
	ASSERT_CHILD_OK(pid);
}
#endif

TEST_HARNESS_MAIN
