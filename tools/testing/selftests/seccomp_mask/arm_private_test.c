// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode on arm64: the ARM-private syscalls of AArch32, from
 * an AArch32 task (this program is built as arm_private_test_32 only;
 * base_test_64's arm_private_from_aarch64 checks the private bits of an
 * AArch32 mask that an AArch64 task installs).
 *
 * The contract (version 3, "Architectures"): the AUDIT_ARCH_ARM mask has
 * up to 1040 bits; the ARM-private syscall 0x0f0000 + k (k < 16) is its
 * bit 1024 + k, so that each is allowed on its own (glibc's start-up calls
 * set_tls, 0x0f0005: bit 1029; cacheflush, 0x0f0002, is bit 1026). The
 * numbers between the end of the AArch32 table and 1023 follow their
 * bits (a set one gives -ENOSYS); every other number from 1024 on is
 * outside the mask and denied: 1024 .. 0x0effff, and 0x0f0010 on. arm64
 * runs cacheflush and set_tls and answers -ENOSYS to the other numbers
 * below 0x0f0800 without a mask (SIGILL from there on).
 *
 * The groups:
 *
 * private.*: set_tls and cacheflush allowed by their bit alone (they run:
 *	the thread pointer is changed and read back, the cache of a buffer
 *	is flushed), and denied without it with the errno action (the
 *	thread pointer unchanged) and with the kill (SIGSYS at the call).
 * exactly.*: for each k, a mask with bit 1024 + k alone of the 16 lets
 *	0x0f0000 + k through to what it gets without a mask (0 for
 *	cacheflush and set_tls, -ENOSYS for the 14 others) and denies every
 *	other private call with the mask's errno; /proc shows 1024 + k.
 * numbers.*: 0x0f0010, 0x0f07ff, 0x0f0800, 0x0effff, 1024, 1029 (set_tls's
 *	bit, as a number), 1039 and 2000 are denied even with all 1040 bits
 *	set; 500, 1000 and 1023 follow their bits (-ENOSYS or the errno).
 *	Without a mask each is -ENOSYS, but 0x0f0800, which is killed by
 *	SIGILL at the call. The kill action kills at the call, with all
 *	bits set, or for 500, 1000 and 1023 with their own bit clear.
 * nbits.*: an AArch32 prctl() takes 1040 bits and not 1041; seccomp(2)
 *	from AArch32 takes 1040 for AUDIT_ARCH_ARM and 1024 for
 *	AUDIT_ARCH_AARCH64, not 1041 and 1025; the feature query reports
 *	{ AARCH64, 1024 } and { ARM, 1040 }.
 * tighten.*: the private bits are part of the subset rule.
 * trap.*: a TRAP of set_tls reports its number 0x0f0005, not its bit.
 * exec.*: an AArch32 program executed under an AArch32 mask without bit
 *	1029 dies in glibc's start-up; with it, it runs.
 */

#include "common.h"

#if ARM64_BUILD == 32

#define NR_PRIVATE(k)	(ARM_PRIVATE_BASE + (k))
#define BIT_PRIVATE(k)	(SECCOMP_MASK_MAX_BITS + (k))
#define DENY		(SECCOMP_RET_ERRNO | MASK_ERRNO)
/* A thread pointer value set_tls sets for a moment, then restores. */
#define TLS_PROBE	0x12345000UL

/* The thread pointer (TPIDRURO), which set_tls sets. */
static unsigned long read_tls(void)
{
	unsigned long v;

	asm volatile ("mrc p15, 0, %0, c13, c0, 3" : "=r" (v));
	return v;
}

/*
 * set_tls to @value: its return, and in *@seen the thread pointer it
 * left, before the old one is set again (glibc's errno and every other
 * thread-local variable live behind it: a CHILD_ASSERT() must not run
 * before that).
 */
static long set_tls_probe(unsigned long value, unsigned long *seen)
{
	unsigned long tls = read_tls();
	long ret = own_sys(ARM_NR_set_tls, value, 0, 0, 0, 0);

	*seen = read_tls();
	if (*seen != tls)
		own_sys(ARM_NR_set_tls, tls, 0, 0, 0, 0);
	return ret;
}

/* A buffer for cacheflush. */
static char flush_buf[4096];

/*
 * Private call k with arguments it takes without harm: set_tls the
 * current thread pointer, cacheflush a valid range; the others none.
 * The value or -errno.
 */
static long private_call(int k)
{
	unsigned long start = (unsigned long)flush_buf;

	if (NR_PRIVATE(k) == ARM_NR_set_tls)
		return own_sys(ARM_NR_set_tls, read_tls(), 0, 0, 0, 0);
	if (NR_PRIVATE(k) == ARM_NR_cacheflush)
		return own_sys(ARM_NR_cacheflush, start,
			       start + sizeof(flush_buf), 0, 0, 0);
	return own_sys(NR_PRIVATE(k), 0, 0, 0, 0, 0);
}

/*
 * What a number the kernel does not implement returns (-ENOSYS), measured
 * by measure_unimplemented() before a test forks.
 */
static long unimplemented;

static void measure_unimplemented(struct __test_metadata *const _metadata)
{
	unimplemented = -unimplemented_errno();
	ASSERT_GT(0, unimplemented);
}

/*
 * What private call k returns without a mask: arm64's compat_arm_syscall()
 * runs cacheflush and set_tls, and the others are not implemented.
 */
static long private_unmasked(int k)
{
	if (NR_PRIVATE(k) == ARM_NR_set_tls ||
	    NR_PRIVATE(k) == ARM_NR_cacheflush)
		return 0;
	return unimplemented;
}

/* fork_child(), and the child installs @m through prctl() with @action. */
static pid_t fork_private(struct __test_metadata *const _metadata,
			  const struct mask *m, __u32 action)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl_action(m, action) == 0);
	}
	return pid;
}

/* fork_private() of a mask of the 16 private bits @bits only. */
static pid_t fork_private_bits(struct __test_metadata *const _metadata,
			       unsigned int bits, __u32 action)
{
	struct mask m;

	mask_arm_private(&m, bits);
	return fork_private(_metadata, &m, action);
}

/* Wait for @pid, which must exit 0; else say which private bit @k it was. */
static void assert_bit_child_ok(struct __test_metadata *const _metadata,
				pid_t pid, int k, const char *how)
{
	int status = child_wait(_metadata, pid);

	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		TH_LOG("%s bit %d (syscall 0x%x)", how, BIT_PRIVATE(k),
		       NR_PRIVATE(k));
		child_describe(_metadata, status, __LINE__);
	}
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Without a mask: every private call below 0x0f0010 as arm64 answers it. */
TEST(private_calls_without_a_mask)
{
	pid_t pid;

	measure_unimplemented(_metadata);
	pid = fork_child(_metadata);

	if (pid == 0) {
		unsigned long tls = read_tls(), seen;
		int k;

		for (k = 0; k < ARM_PRIVATE_NR; k++)
			CHILD_ASSERT(private_call(k) == private_unmasked(k));
		/* set_tls does set the thread pointer. */
		CHILD_ASSERT(set_tls_probe(TLS_PROBE, &seen) == 0);
		CHILD_ASSERT(seen == TLS_PROBE);
		CHILD_ASSERT(read_tls() == tls);
		/* Past the private ones, and below them: -ENOSYS too. */
		CHILD_ASSERT(own_sys(NR_PRIVATE(16), 0, 0, 0, 0, 0) ==
			     unimplemented);
		CHILD_ASSERT(own_sys(ARM_PRIVATE_BASE - 1, 0, 0, 0, 0, 0) ==
			     unimplemented);
		CHILD_ASSERT(own_sys(ARM_PRIVATE_END - 1, 0, 0, 0, 0, 0) ==
			     unimplemented);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/* set_tls and cacheflush, each with its bit alone, and without it. */
FIXTURE(private) {};

FIXTURE_VARIANT(private) {
	long nr;		/* set_tls or cacheflush */
};

FIXTURE_VARIANT_ADD(private, set_tls) { .nr = ARM_NR_set_tls };
FIXTURE_VARIANT_ADD(private, cacheflush) { .nr = ARM_NR_cacheflush };

FIXTURE_SETUP(private)
{
	if (require_mask(_metadata))
		measure_unimplemented(_metadata);
}

FIXTURE_TEARDOWN(private) {}

/*
 * In a child: the variant's call runs: set_tls changes the thread pointer
 * (and sets it back), cacheflush returns 0.
 */
static void child_private_runs(long nr)
{
	unsigned long tls = read_tls(), seen;

	if (nr == ARM_NR_cacheflush) {
		CHILD_ASSERT(private_call(nr - ARM_PRIVATE_BASE) == 0);
		return;
	}
	CHILD_ASSERT(set_tls_probe(TLS_PROBE, &seen) == 0);
	CHILD_ASSERT(seen == TLS_PROBE);
	CHILD_ASSERT(read_tls() == tls);
}

TEST_F(private, allowed_by_its_bit_alone)
{
	int k = variant->nr - ARM_PRIVATE_BASE;
	pid_t pid = fork_private_bits(_metadata, 1U << k, DENY);

	if (pid == 0) {
		child_private_runs(variant->nr);
		/* The other one of the two is denied: its bit is clear. */
		CHILD_ASSERT(private_call(k == 5 ? 2 : 5) == -MASK_ERRNO);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

TEST_F(private, denied_without_its_bit_with_the_errno)
{
	int k = variant->nr - ARM_PRIVATE_BASE;
	/* Every other private bit set. */
	pid_t pid = fork_private_bits(_metadata, 0xffff & ~(1U << k), DENY);

	if (pid == 0) {
		unsigned long tls = read_tls(), seen = tls;
		unsigned long buf = (unsigned long)flush_buf;
		long ret;

		if (variant->nr == ARM_NR_set_tls)
			ret = set_tls_probe(TLS_PROBE, &seen);
		else
			ret = own_sys(variant->nr, buf, buf + 64, 0, 0, 0);
		CHILD_ASSERT(ret == -MASK_ERRNO);
		/* Skipped: the thread pointer is what it was. */
		CHILD_ASSERT(seen == tls);
		/* The other one of the two runs. */
		child_private_runs(k == 5 ? ARM_NR_cacheflush : ARM_NR_set_tls);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

TEST_F(private, killed_without_its_bit)
{
	int k = variant->nr - ARM_PRIVATE_BASE;
	pid_t pid = fork_private_bits(_metadata, 0xffff & ~(1U << k),
				      SECCOMP_RET_KILL_PROCESS);

	if (pid == 0) {
		CHILD_DENIED(private_call(k));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

/*
 * Exactly the bit: for each k, bit 1024 + k alone of the 16 lets
 * 0x0f0000 + k through, and no other private call.
 */
FIXTURE(exactly) {};
FIXTURE_SETUP(exactly)
{
	if (require_mask(_metadata))
		measure_unimplemented(_metadata);
}

FIXTURE_TEARDOWN(exactly) {}

TEST_F(exactly, each_private_bit_allows_its_own_call_only)
{
	int k, j;

	for (k = 0; k < ARM_PRIVATE_NR; k++) {
		char want[64];
		struct mask m;
		pid_t pid;

		mask_arm_private(&m, 1U << k);
		mask_format(&m, want, sizeof(want));
		pid = fork_private(_metadata, &m, DENY);
		if (pid == 0) {
			CHILD_ASSERT(status_is(0, "Seccomp_mask_compat", want));
			for (j = 0; j < ARM_PRIVATE_NR; j++) {
				long ret = private_call(j);

				if (j == k)
					CHILD_ASSERT(ret == private_unmasked(j));
				else
					CHILD_ASSERT(ret == -MASK_ERRNO);
			}
			_exit(0);
		}
		assert_bit_child_ok(_metadata, pid, k, "the private");
	}
}

TEST_F(exactly, each_clear_private_bit_denies_its_own_call_only)
{
	int k, j;

	for (k = 0; k < ARM_PRIVATE_NR; k++) {
		struct mask m;
		pid_t pid;

		mask_arm_private(&m, 0xffff & ~(1U << k));
		pid = fork_private(_metadata, &m, DENY);
		if (pid == 0) {
			for (j = 0; j < ARM_PRIVATE_NR; j++) {
				long ret = private_call(j);

				if (j == k)
					CHILD_ASSERT(ret == -MASK_ERRNO);
				else
					CHILD_ASSERT(ret == private_unmasked(j));
			}
			_exit(0);
		}
		assert_bit_child_ok(_metadata, pid, k, "every private bit but");
	}
}

/*
 * /proc shows the private bits as 1024 + k, next to the table's numbers,
 * to another task (the mask allows little more than read and write).
 */
TEST_F(exactly, status_shows_the_private_bits)
{
	char buf[8192], val[256];
	struct handshake hs;
	struct mask m;
	pid_t pid;

	MASK_ONLY(&m, ARM_MAX_BITS, 1, 3, 4, 248, 1023,
		  ARM_PRIVATE_BIT(ARM_NR_cacheflush),
		  ARM_PRIVATE_BIT(ARM_NR_set_tls), 1039);
	ASSERT_EQ(0, handshake_init(&hs));
	pid = fork_child(_metadata);
	if (pid == 0) {
		handshake_child_begin(&hs);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl_action(&m, DENY) == 0);
		if (!handshake_child_ready(&hs))
			syscall(__NR_exit, 1);
		syscall(__NR_exit, 0);
	}
	ASSERT_TRUE(handshake_wait_child(&hs));
	ASSERT_EQ(0, read_status(pid, buf, sizeof(buf)));
	handshake_release_child(&hs);
	ASSERT_CHILD_OK(pid);
	ASSERT_TRUE(status_field(buf, "Seccomp_mask_compat", val, sizeof(val)));
	EXPECT_STREQ("1,3-4,248,1023,1026,1029,1039", val);
	ASSERT_TRUE(status_field(buf, "Seccomp_mask", val, sizeof(val)));
	EXPECT_STREQ("", val);
	ASSERT_TRUE(status_field(buf, "Seccomp_mask_action", val, sizeof(val)));
	EXPECT_STREQ("errno 5", val);
}

/*
 * Numbers outside the private range: denied from 1024 on even with all
 * 1040 bits set; those between the table's end and 1023 follow their bit.
 */
FIXTURE(numbers) {};
FIXTURE_SETUP(numbers)
{
	if (require_mask(_metadata))
		measure_unimplemented(_metadata);
}

FIXTURE_TEARDOWN(numbers) {}

FIXTURE_VARIANT(numbers) {
	long nr;
	bool follows_its_bit;	/* else: always denied */
	bool sigill_unmasked;	/* without a mask: SIGILL, not -ENOSYS */
};

FIXTURE_VARIANT_ADD(numbers, private_end_0x0f0010) { .nr = 0x0f0010 };
FIXTURE_VARIANT_ADD(numbers, last_enosys_0x0f07ff) { .nr = 0x0f07ff };

FIXTURE_VARIANT_ADD(numbers, first_sigill_0x0f0800) {
	.nr = 0x0f0800, .sigill_unmasked = true,
};

FIXTURE_VARIANT_ADD(numbers, below_private_0x0effff) { .nr = 0x0effff };
FIXTURE_VARIANT_ADD(numbers, first_past_the_table_bits_1024) { .nr = 1024 };
FIXTURE_VARIANT_ADD(numbers, set_tls_bit_as_a_number_1029) { .nr = 1029 };
FIXTURE_VARIANT_ADD(numbers, last_private_bit_as_a_number_1039) { .nr = 1039 };
FIXTURE_VARIANT_ADD(numbers, number_2000) { .nr = 2000 };
FIXTURE_VARIANT_ADD(numbers, past_the_table_500) { .nr = 500, .follows_its_bit = true };
FIXTURE_VARIANT_ADD(numbers, past_the_table_1000) { .nr = 1000, .follows_its_bit = true };
FIXTURE_VARIANT_ADD(numbers, last_bit_of_the_table_1023) { .nr = 1023, .follows_its_bit = true };

/*
 * Without a mask: not implemented, or from 0x0f0800 on killed by SIGILL
 * at the call (arm64's compat_arm_syscall(); CHILD_DENIED() marks the
 * call, so that a kill before it or a return from it fails).
 */
TEST_F(numbers, unmasked_answer)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		if (variant->sigill_unmasked)
			CHILD_DENIED(own_sys(variant->nr, 0, 0, 0, 0, 0));
		else
			CHILD_ASSERT(own_sys(variant->nr, 0, 0, 0, 0, 0) ==
				     unimplemented);
		_exit(0);
	}
	if (variant->sigill_unmasked)
		ASSERT_CHILD_KILLED_AT(pid, SIGILL);
	else
		ASSERT_CHILD_OK(pid);
}

/* All 1040 bits set: the errno, but for those that follow their bit. */
TEST_F(numbers, with_every_bit_set)
{
	struct mask m;
	pid_t pid;

	mask_all(&m, ARM_MAX_BITS);
	pid = fork_private(_metadata, &m, DENY);
	if (pid == 0) {
		long ret = own_sys(variant->nr, 0, 0, 0, 0, 0);

		CHILD_ASSERT(ret == (variant->follows_its_bit ? unimplemented :
				     -MASK_ERRNO));
		/* The private calls are allowed all the while. */
		CHILD_ASSERT(private_call(5) == 0);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/* Its own bit clear (a number past 1023: nothing to clear): denied. */
TEST_F(numbers, with_its_bit_clear)
{
	struct mask m;
	pid_t pid;

	mask_all(&m, ARM_MAX_BITS);
	if (variant->nr < ARM_MAX_BITS)
		mask_clear(&m, variant->nr);
	pid = fork_private(_metadata, &m, DENY);
	if (pid == 0) {
		CHILD_ASSERT(own_sys(variant->nr, 0, 0, 0, 0, 0) == -MASK_ERRNO);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * The kill action: killed at the call, not SIGILL, even for 0x0f0800,
 * with every bit set; a number that follows its bit, with that bit clear.
 */
TEST_F(numbers, killed_with_the_kill_action)
{
	struct mask m;
	pid_t pid;

	mask_all(&m, ARM_MAX_BITS);
	if (variant->follows_its_bit)
		mask_clear(&m, variant->nr);
	pid = fork_private(_metadata, &m, SECCOMP_RET_KILL_PROCESS);
	if (pid == 0) {
		CHILD_DENIED(own_sys(variant->nr, 0, 0, 0, 0, 0));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

/* nbits of each ABI, from an AArch32 task. */
FIXTURE(nbits) {};
FIXTURE_SETUP(nbits) { require_mask(_metadata); }
FIXTURE_TEARDOWN(nbits) {}

/*
 * In a fresh child with no_new_privs: @call's result, 0 when it is 0, the
 * errno when not (255 when errno is 0).
 */
#define CHILD_RESULT(call)						\
	({								\
		pid_t __pid = fork_child(_metadata);			\
		int __status;						\
									\
		if (__pid == 0) {					\
			CHILD_ASSERT(set_nnp() == 0);			\
			errno = 0;					\
			if (call)					\
				_exit(errno ? errno : 255);		\
			_exit(0);					\
		}							\
		__status = child_wait(_metadata, __pid);		\
		ASSERT_TRUE(WIFEXITED(__status));			\
		WEXITSTATUS(__status);					\
	})

TEST_F(nbits, prctl_takes_1040_and_not_1041)
{
	static struct mask m;

	mask_all(&m, ARM_MAX_BITS);
	EXPECT_EQ(0, CHILD_RESULT(mask_prctl(&m)));
	m.nbits = ARM_MAX_BITS + 1;
	EXPECT_EQ(EINVAL, CHILD_RESULT(mask_prctl(&m)));
	/* And 1040 through prctl() shows all of them. */
	m.nbits = ARM_MAX_BITS;
	EXPECT_EQ(0, CHILD_RESULT(mask_prctl(&m) ||
				  !status_is(0, "Seccomp_mask_compat",
					     "0-1039")));
}

TEST_F(nbits, seccomp_takes_1040_for_arm_and_1024_for_aarch64)
{
	static struct mask arm, a64;
	const __u32 arch[2] = { ARCH_AARCH64, ARCH_ARM };
	const struct mask *both[2] = { &a64, &arm };

	mask_all(&arm, ARM_MAX_BITS);
	mask_all(&a64, SECCOMP_MASK_MAX_BITS);
	EXPECT_EQ(0, CHILD_RESULT(mask_seccomp1(ARCH_ARM, &arm)));
	EXPECT_EQ(0, CHILD_RESULT(mask_seccomp(2, arch, both) ||
				  !status_is(0, "Seccomp_mask", "0-1023") ||
				  !status_is(0, "Seccomp_mask_compat",
					     "0-1039")));
	arm.nbits = ARM_MAX_BITS + 1;
	EXPECT_EQ(EINVAL, CHILD_RESULT(mask_seccomp1(ARCH_ARM, &arm)));
	EXPECT_EQ(EINVAL, CHILD_RESULT(mask_seccomp(2, arch, both)));
	arm.nbits = ARM_MAX_BITS;
	a64.nbits = SECCOMP_MASK_MAX_BITS + 1;
	EXPECT_EQ(EINVAL, CHILD_RESULT(mask_seccomp1(ARCH_AARCH64, &a64)));
	EXPECT_EQ(EINVAL, CHILD_RESULT(mask_seccomp(2, arch, both)));
	/* 1040 is the ARM mask's: not the AArch64 one's. */
	a64.nbits = ARM_MAX_BITS;
	EXPECT_EQ(EINVAL, CHILD_RESULT(mask_seccomp1(ARCH_AARCH64, &a64)));
}

TEST_F(nbits, feature_query_reports_1024_and_1040)
{
	struct seccomp_mask_features f;

	ASSERT_EQ(0, mask_features(&f));
	ASSERT_EQ(2, f.nr_arches);
	EXPECT_EQ(AUDIT_ARCH_AARCH64, f.arches[0].arch);
	EXPECT_EQ(SECCOMP_MASK_MAX_BITS, f.arches[0].max_bits);
	EXPECT_EQ(AUDIT_ARCH_ARM, f.arches[1].arch);
	EXPECT_EQ(ARM_MAX_BITS, f.arches[1].max_bits);
}

/* The private bits are part of the subset rule of a tightening. */
FIXTURE(tighten) {};
FIXTURE_SETUP(tighten) { require_mask(_metadata); }
FIXTURE_TEARDOWN(tighten) {}

TEST_F(tighten, cutting_the_private_bits_works_and_denies_them)
{
	struct mask old, new;
	pid_t pid;

	mask_all(&old, ARM_MAX_BITS);
	mask_all(&new, SECCOMP_MASK_MAX_BITS);
	pid = fork_private(_metadata, &old, DENY);
	if (pid == 0) {
		CHILD_ASSERT(private_call(5) == 0);
		CHILD_ASSERT(mask_prctl_action(&new, DENY) == 0);
		CHILD_ASSERT(status_is(0, "Seccomp_mask_compat", "0-1023"));
		CHILD_ASSERT(private_call(5) == -MASK_ERRNO);
		CHILD_ASSERT(private_call(2) == -MASK_ERRNO);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * In a child whose mask denies private bit @k: installing @new, which
 * allows more, fails with EPERM, and @k stays denied.
 */
static void child_adding_is_eperm(const struct mask *new, int k)
{
	errno = 0;
	CHILD_ASSERT(mask_prctl_action(new, DENY) == -1 && errno == EPERM);
	CHILD_ASSERT(private_call(k) == -MASK_ERRNO);
}

TEST_F(tighten, adding_a_private_bit_is_eperm)
{
	struct mask old, new;
	pid_t pid;

	/* Old: 1040 bits, set_tls's clear; new: the same with it set. */
	mask_arm_private(&old, 0xffff & ~(1U << 5));
	mask_arm_private(&new, 0xffff);
	pid = fork_private(_metadata, &old, DENY);
	if (pid == 0) {
		child_adding_is_eperm(&new, 5);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);

	/* From 1024 bits, a longer mask with a private bit set too. */
	mask_all(&old, SECCOMP_MASK_MAX_BITS);
	mask_arm_private(&new, 1U << 2);
	pid = fork_private(_metadata, &old, DENY);
	if (pid == 0) {
		child_adding_is_eperm(&new, 2);
		/* The same bits with the private ones clear: a subset. */
		mask_arm_private(&new, 0);
		CHILD_ASSERT(mask_prctl_action(&new, DENY) == 0);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * A TRAP of a private call: si_syscall is its number 0x0f0005, not its
 * bit; si_arch AUDIT_ARCH_ARM; r0 holds the first argument again.
 */
TEST(trap_reports_the_private_number)
{
	struct mask m;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	mask_arm_private(&m, 0xffff & ~(1U << 5));
	pid = fork_child(_metadata);
	if (pid == 0) {
		unsigned long tls = read_tls(), seen;
		long ret;

		CHILD_ASSERT(catch_sigsys() == 0);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl_action(&m, SECCOMP_RET_TRAP) == 0);
		ret = set_tls_probe(TLS_PROBE, &seen);
		CHILD_ASSERT(sigsys_seen.count == 1);
		CHILD_ASSERT(sigsys_seen.code == SYS_SECCOMP);
		CHILD_ASSERT(sigsys_seen.nr == ARM_NR_set_tls);
		CHILD_ASSERT(sigsys_seen.arch == AUDIT_ARCH_ARM);
		CHILD_ASSERT(sigsys_seen.err == 0);
		CHILD_ASSERT(ret == (long)TLS_PROBE);
		CHILD_ASSERT(seen == tls);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * glibc's start-up of an AArch32 program calls set_tls: under an AArch32
 * mask without bit 1029 (every number of the table allowed) the program
 * this child executes, mask_helper_32, dies in its start-up; with the bit
 * (and nothing else of the private ones), it runs.
 */
FIXTURE(exec) {
	char helper[PATH_MAX];
};

FIXTURE_VARIANT(exec) {
	bool set_tls_bit;
};

FIXTURE_VARIANT_ADD(exec, without_the_set_tls_bit_dies_at_start) { .set_tls_bit = false };
FIXTURE_VARIANT_ADD(exec, with_the_set_tls_bit_alone_runs) { .set_tls_bit = true };

FIXTURE_SETUP(exec)
{
	if (!require_mask(_metadata))
		return;
	if (!helper_path(self->helper, sizeof(self->helper), false))
		SKIP_UNLESS_REQUIRED(return, "mask_helper_32 not built next to this program");
}

FIXTURE_TEARDOWN(exec) {}

TEST_F(exec, of_an_aarch32_program)
{
	struct helper_marker mk;
	struct mask m;
	pid_t pid;

	mask_arm_private(&m, variant->set_tls_bit ? 1U << 5 : 0);
	ASSERT_EQ(0, helper_marker_open(&mk));
	pid = fork_child(_metadata);
	if (pid == 0) {
		static struct helper_cmd cmd;
		char want[64];

		close(mk.fd[0]);
		mask_format(&m, want, sizeof(want));
		helper_cmd_init(&cmd, self->helper, "3");
		helper_cmd_add(&cmd, "-s");
		helper_cmd_add(&cmd, "Seccomp_mask_compat=%s", want);
		helper_cmd_add(&cmd, "-c");
		helper_cmd_add(&cmd, "%d=%d", __NR_getppid, getppid());
		helper_cmd_add(&cmd, "-f");
		helper_cmd_add(&cmd, "%d", mk.fd[1]);
		helper_cmd_add(&cmd, "-k");
		helper_cmd_add(&cmd, "%d", ARM_NR_cacheflush);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&m) == 0);
		helper_exec(&cmd);
	}
	if (variant->set_tls_bit)
		/* It ran, and its cacheflush (bit clear) was killed. */
		ASSERT_HELPER_KILLED_AT(pid, &mk, SIGSYS);
	else
		ASSERT_HELPER_DENIED_AT_START(pid, &mk);
}

#else

TEST(arm_private)
{
	SKIP(return, "the ARM-private calls exist for AArch32 programs only");
}

#endif

TEST_HARNESS_MAIN
