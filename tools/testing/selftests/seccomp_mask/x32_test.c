// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode, version 2: the x32 ABI, which has no mask.
 *
 * prctl() called through x32 is EINVAL and installs nothing (it used to
 * install the x86-64 mask). In mask mode every x32 call is denied, even
 * when the bit of its number without X32_SYSCALL_BIT is set: it is
 * checked with the x32 bit, outside every mask, against the x86-64 ABI
 * it came in through.
 *
 * Built for x86-64 only: a 32-bit program has no x32 entry.
 */

#include "common.h"

#if X86_BUILD != 64
#error "x32_test is built for x86-64 only"
#endif

/*
 * x32 getpid: the PID on a kernel with CONFIG_X86_X32_ABI, else what a
 * syscall number the kernel does not know returns.
 */
static long x32_getpid(void)
{
	return x32_syscall(NR64_getpid, 0, 0, 0);
}

/* require_mask(), then a kernel with x32 calls. */
static bool require_mask_x32(struct __test_metadata *const _metadata)
{
	long ret;

	if (!require_mask(_metadata))
		return false;
	ret = x32_getpid();
	if (ret == -unimplemented_errno())
		SKIP_UNLESS_REQUIRED(return false,
				     "CONFIG_X86_X32_ABI not enabled (x32 getpid: ENOSYS)");
	ASSERT_EQ(getpid(), ret);
	return true;
}

/* Without seccomp, an x32 call runs. */
TEST(x32_getpid_runs_without_a_mask)
{
	if (!require_mask_x32(_metadata))
		return;
	EXPECT_EQ(getpid(), x32_getpid());
}

/* prctl() through x32: EINVAL, with any action, and nothing installed. */
FIXTURE(x32_prctl) {};

FIXTURE_VARIANT(x32_prctl) {
	__u32 action;
};

FIXTURE_VARIANT_ADD(x32_prctl, kill) { .action = 0 };
FIXTURE_VARIANT_ADD(x32_prctl, errno) { .action = SECCOMP_RET_ERRNO | MASK_ERRNO };

FIXTURE_SETUP(x32_prctl) { require_mask_x32(_metadata); }
FIXTURE_TEARDOWN(x32_prctl) {}

TEST_F(x32_prctl, is_einval_and_installs_nothing)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		char buf[8192];
		struct mask m;
		long ret;

		mask_all(&m, SECCOMP_MASK_MAX_BITS);
		CHILD_ASSERT(set_nnp() == 0);
		ret = sys64(NR64_prctl | X32_SYSCALL_BIT, PR_SET_SECCOMP,
			    SECCOMP_MODE_MASK, (long)m.bits, m.nbits,
			    variant->action);
		/* A failure reports what it returned (0: installed). */
		errno = ret < 0 ? -ret : 0;
		CHILD_ASSERT(ret == -EINVAL);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
		CHILD_ASSERT(read_status(0, buf, sizeof(buf)) == 0);
		CHILD_ASSERT(!strstr(buf, "Seccomp_mask"));
		/* x32 calls still run. */
		CHILD_ASSERT(x32_getpid() == getpid());
		/* The same prctl() through x86-64 is taken. */
		CHILD_ASSERT(mask_prctl_action(&m, variant->action) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * In mask mode, x32 getpid is denied although the x86-64 mask allows
 * everything, 39 (getpid) included. Whether the kernel has x32 or not:
 * without it, the x32 number is still seen by seccomp before ENOSYS.
 */
FIXTURE(x32_call) {};
FIXTURE_SETUP(x32_call) { require_mask(_metadata); }
FIXTURE_TEARDOWN(x32_call) {}

FIXTURE_VARIANT(x32_call) {
	__u32 action;
};

FIXTURE_VARIANT_ADD(x32_call, kill) { .action = 0 };
FIXTURE_VARIANT_ADD(x32_call, trap) { .action = SECCOMP_RET_TRAP };
FIXTURE_VARIANT_ADD(x32_call, errno) { .action = SECCOMP_RET_ERRNO | MASK_ERRNO };

TEST_F(x32_call, is_denied_even_with_the_native_bit_set)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		struct mask m;
		long ret;

		mask_all(&m, SECCOMP_MASK_MAX_BITS);
		CHILD_ASSERT(mask_test(&m, NR64_getpid));
		CHILD_ASSERT(catch_sigsys() == 0);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl_action(&m, variant->action) == 0);
		CHILD_ASSERT(sys64(NR64_getpid, 0, 0, 0, 0, 0) == getpid());
		CHILD_DENIED(x32_getpid());
		ret = child_report->denied_ret;
		if (variant->action == SECCOMP_RET_TRAP) {
			/* The x32 number, the x86-64 ABI. */
			CHILD_ASSERT(sigsys_seen.count == 1);
			CHILD_ASSERT(sigsys_seen.code == SYS_SECCOMP);
			CHILD_ASSERT(sigsys_seen.nr ==
				     (NR64_getpid | X32_SYSCALL_BIT));
			CHILD_ASSERT(sigsys_seen.arch == AUDIT_ARCH_X86_64);
			CHILD_ASSERT(sigsys_seen.err == 0);
		} else {
			CHILD_ASSERT(ret == -MASK_ERRNO);
			CHILD_ASSERT(sigsys_seen.count == 0);
		}
		_exit(0);
	}
	if (variant->action == 0)
		ASSERT_CHILD_DENIED(pid);
	else
		ASSERT_CHILD_OK(pid);
}

TEST_HARNESS_MAIN
