// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode, version 3: negative syscall numbers.
 *
 * Rule (build/v3/uapi.txt): every negative number but -1 is outside any
 * mask and denied, on both ABIs: it gets the mask's action even under a
 * mask with every bit set. -1 (how a tracer skips a syscall) is never
 * denied: it returns -ENOSYS as without seccomp. Without a mask each of
 * them returns -ENOSYS.
 *
 * Each case is one number made through one entry:
 *	libc:	 glibc's syscall() (64-bit: the syscall instruction; 32-bit:
 *		 the vDSO's __kernel_vsyscall, sysenter or syscall);
 *	raw:	 inline asm of this build's own ABI (64-bit: syscall; 32-bit:
 *		 int $0x80 with eax = the number);
 *	other:	 the other x86 ABI (64-bit build: int $0x80; 32-bit build: a
 *		 far jump to 64-bit code and syscall).
 * The numbers: -2, INT_MIN, and 0xbfffffff (-1 without bit 30, the x32
 * bit: a kernel that clears that bit before its -1 test takes it for -1).
 *
 * The number is an int on both x86 ABIs: the 64-bit entry takes eax
 * (movslq %eax in entry_64.S, do_syscall_64()'s int nr), int $0x80 from
 * 64-bit code zero-extends eax into orig_ax, and seccomp_data.nr, the
 * number filters see, is an int. So the 64-bit build also makes its
 * numbers with bits in the upper half of rax: 0xfffffffe (a positive
 * long, -2 as an int), LONG_MIN | 0x80000000 (INT_MIN) and, through
 * int $0x80, 0x12345678fffffffe (-2); for each, the -1 it is checked
 * against has the same upper half (0xffffffff, LONG_MIN | 0xffffffff,
 * 0x12345678ffffffff) and must not be denied either. The test
 * negative_long_is_its_low_32_bits checks the converse: a long that is
 * negative only in its upper half, such as LONG_MIN | getppid, is that
 * syscall, neither negative nor out of the mask.
 * The mask of both ABIs has every bit set (mask_all), installed through
 * seccomp(2). The groups and what each guards:
 *
 * negative.kill_action_kills_at_the_call: control first (no mask: the
 *	number and -1 return -ENOSYS); then under the full mask with the
 *	kill action -1 still returns -ENOSYS and the number kills the
 *	process by SIGSYS at that very call.
 * negative.kill_action_kills_under_a_filter: the same with an
 *	allow-everything BPF filter stacked on the masks (mode 2): the mask
 *	is checked first and denies the number.
 * negative.errno_action_returns_the_errno: with SECCOMP_RET_ERRNO | 42
 *	the number returns -42 (syscall(): -1 with errno 42, not ENOSYS),
 *	-1 returns -ENOSYS.
 * negative.trap_action_signals_the_number: with SECCOMP_RET_TRAP the
 *	number gets SIGSYS with si_code SYS_SECCOMP, si_syscall the number,
 *	si_arch the ABI of the entry, si_errno 0, and (the registers rolled
 *	back) the call returns the number; -1 gets no signal and -ENOSYS.
 *
 * On a version 2 kernel the seccomp(2) install of a version 3 set fails
 * (EINVAL: nr_masks 24), so every case fails there.
 *
 * arm64: libc is glibc's syscall(), raw is svc #0 (the number in x8, r7),
 * other is the call made by the mask_helper of the other execution state
 * (helper.h), which the child becomes. The number is an int on both
 * arm64 ABIs too: el0_svc_common() takes x8 as an int, so the AArch64
 * build has the cases of the upper half of the register; the AArch32
 * registers have none. The calls carry OWN_CALL_ARG0 as their first
 * argument, which a TRAP leaves where the value goes.
 */

#include "common.h"

#ifdef TWO_ABIS

enum entry { E_LIBC, E_RAW, E_OTHER };

FIXTURE(negative) {
	long enosys;	/* -ENOSYS: what an unimplemented number returns */
};

FIXTURE_VARIANT(negative) {
	enum entry entry;
	long nr;
	long skip;	/* the -1 of the same width (0: -1) */
};

FIXTURE_VARIANT_ADD(negative, libc_minus_2) { .entry = E_LIBC, .nr = -2 };
FIXTURE_VARIANT_ADD(negative, libc_int_min) { .entry = E_LIBC, .nr = INT_MIN };
FIXTURE_VARIANT_ADD(negative, raw_minus_2) { .entry = E_RAW, .nr = -2 };
FIXTURE_VARIANT_ADD(negative, raw_int_min) { .entry = E_RAW, .nr = INT_MIN };
FIXTURE_VARIANT_ADD(negative, other_abi_minus_2) { .entry = E_OTHER, .nr = -2 };
FIXTURE_VARIANT_ADD(negative, other_abi_int_min) { .entry = E_OTHER, .nr = INT_MIN };

/* -1 without bit 30 (the x32 bit) is not -1. */
FIXTURE_VARIANT_ADD(negative, raw_minus_1_without_bit_30) { .entry = E_RAW, .nr = ~0x40000000 };

FIXTURE_VARIANT_ADD(negative, other_abi_minus_1_without_bit_30) {
	.entry = E_OTHER, .nr = ~0x40000000,
};

#if X86_BUILD == 64 || ARM64_BUILD == 64
/* The number is eax (w8): the upper half of rax (x8) is no part of it. */
FIXTURE_VARIANT_ADD(negative, raw_minus_2_in_the_low_half) {
	.entry = E_RAW, .nr = 0xfffffffeL, .skip = 0xffffffffL,
};

FIXTURE_VARIANT_ADD(negative, raw_int_min_under_long_min) {
	.entry = E_RAW, .nr = LONG_MIN | 0x80000000L,
	.skip = LONG_MIN | 0xffffffffL,
};
#endif

#if X86_BUILD == 64
FIXTURE_VARIANT_ADD(negative, other_abi_minus_2_under_high_bits) {
	.entry = E_OTHER, .nr = 0x12345678fffffffeL,
	.skip = 0x12345678ffffffffL,
};
#endif

FIXTURE_SETUP(negative)
{
	if (!require_mask_with_abi(_metadata, variant->entry == E_OTHER))
		return;
	self->enosys = -unimplemented_errno();
	ASSERT_GT(0, self->enosys);
}

FIXTURE_TEARDOWN(negative) {}

/* The -1 (a tracer's skip) of the variant's width. */
static long skip_nr(const struct _fixture_variant_negative *v)
{
	return v->skip ? v->skip : -1;
}

/* The ABI a call through @e takes. */
static __u32 entry_arch(enum entry e)
{
	return e == E_OTHER ? OTHER_ARCH : SELF_ARCH;
}

/*
 * Syscall @nr, no arguments, through @e: the value the kernel left in the
 * return register, or -errno (libc).
 */
static long neg_call(enum entry e, long nr)
{
	long ret;

	switch (e) {
	case E_LIBC:
		errno = 0;
#ifdef ARM64_BUILD
		ret = syscall(nr, OWN_CALL_ARG0);
#else
		ret = syscall(nr);
#endif
		return ret == -1 ? -errno : ret;
	case E_RAW:
		return own_call(nr);
	default:
#if X86_BUILD == 64
		return sys32(nr, 0, 0, 0, 0, 0);
#elif X86_BUILD == 32
		return sys64(nr, 0, 0, 0, 0, 0);
#else
		/* arm64: in a forked helper of the other state. */
		return other_probe(nr, OWN_CALL_ARG0);
#endif
	}
}

/*
 * The number a TRAP leaves in the return register. The kernel rolls it
 * back to orig_ax: the number as the entry took it. int $0x80 from 64-bit
 * code keeps only eax (zero-extended into rax): compare 32 bits there.
 * (The 32-bit build's far-jumped syscall returns through eax anyway.)
 */
static bool is_rolled_back(enum entry e, long ret, long nr)
{
#if X86_BUILD == 64
	if (e == E_OTHER)
		return (int)ret == (int)nr;
#endif
	return ret == trap_return(nr, OWN_CALL_ARG0);
}

/* Full masks of both ABIs (this one only without the other), @action. */
static long install_full(__u32 action)
{
	struct mask all, other;

	mask_all(&all, SECCOMP_MASK_MAX_BITS);
	mask_all(&other, OTHER_MAX_BITS);
	return mask_seccomp_own_other(0, action,
				      other_abi_available() ? 2 : 1,
				      &all, &other);
}

/* fork_child(), and the child sets no_new_privs and install_full(@action). */
static pid_t fork_full(struct __test_metadata *const _metadata, __u32 action)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(install_full(action) == 0);
	}
	return pid;
}

#ifdef ARM64_BUILD
/*
 * arm64, through the other ABI: a child with the full masks of both ABIs
 * and @action (and an allow-everything filter with @filter) becomes the
 * helper of the other state. It checks that -1 is -ENOSYS (@enosys), then
 * makes @nr: @how 'k' (with the marker @mk: the kill at the call), 'c'
 * (it returns -DENY_ERRNO) or 't' (trapped, the registers rolled back).
 */
static void other_state_number(struct __test_metadata *const _metadata,
			       long nr, long enosys, __u32 action,
			       bool filter, char how)
{
	struct helper_marker mk;
	pid_t pid;

	ASSERT_EQ(0, helper_marker_open(&mk));
	pid = fork_child(_metadata);
	if (pid == 0) {
		static struct helper_cmd cmd;
		static char path[PATH_MAX];
		long a0 = OWN_CALL_ARG0;

		close(mk.fd[0]);
		CHILD_ASSERT(helper_path(path, sizeof(path), true));
		helper_cmd_init(&cmd, path, filter ? "2" : "3");
		helper_cmd_add(&cmd, "-c");
		helper_cmd_add(&cmd, "-1=%ld", enosys);
		switch (how) {
		case 'c':
			helper_cmd_add(&cmd, "-c");
			helper_cmd_add(&cmd, "%d,%ld=%d", (int)nr, a0,
				       -DENY_ERRNO);
			break;
		case 't':
			helper_cmd_add(&cmd, "-t");
			helper_cmd_add(&cmd, "%d,%ld=%ld", (int)nr, a0,
				       trap_return(nr, a0));
			break;
		default:
			helper_cmd_add(&cmd, "-f");
			helper_cmd_add(&cmd, "%d", mk.fd[1]);
			helper_cmd_add(&cmd, "-k");
			helper_cmd_add(&cmd, "%d,%ld", (int)nr, a0);
		}
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(install_full(action) == 0);
		if (filter)
			CHILD_ASSERT(filter_allow_all() == 0);
		helper_exec(&cmd);
	}
	ASSERT_HELPER_KILLED_AT_IF(pid, &mk, how == 'k');
}

#else
/* x86 makes the other ABI's calls itself. */
static void other_state_number(struct __test_metadata *const _metadata,
			       long nr, long enosys, __u32 action,
			       bool filter, char how)
{
}
#endif

/* Is @entry the other ABI of arm64, whose calls a helper makes? */
static bool other_state(enum entry entry)
{
#ifdef ARM64_BUILD
	return entry == E_OTHER;
#else
	return false;
#endif
}

/* In a child: the number next to the variant's (skip_nr()) is -ENOSYS. */
#define CHILD_ASSERT_SKIP_NR_ENOSYS()					\
	CHILD_ASSERT(neg_call(variant->entry, skip_nr(variant)) ==	\
		     self->enosys)

/*
 * In a child with the full masks: @minus_1, the -1 next to @nr
 * (skip_nr()), is never denied (it gets -ENOSYS); @nr is killed at the call.
 */
static void __noreturn child_minus_1_then_denied(enum entry entry, long nr,
						 long minus_1, long enosys)
{
	CHILD_ASSERT(neg_call(entry, minus_1) == enosys);
	CHILD_DENIED(neg_call(entry, nr));
	_exit(0);
}

TEST_F(negative, kill_action_kills_at_the_call)
{
	pid_t pid;

	/* Control: without a mask, -ENOSYS. */
	pid = fork_child(_metadata);
	if (pid == 0) {
		CHILD_ASSERT(neg_call(variant->entry, variant->nr) ==
			     self->enosys);
		CHILD_ASSERT_SKIP_NR_ENOSYS();
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);

	if (other_state(variant->entry)) {
		other_state_number(_metadata, variant->nr, self->enosys, 0,
				   false, 'k');
		return;
	}
	pid = fork_full(_metadata, 0);
	if (pid == 0) {
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		child_minus_1_then_denied(variant->entry, variant->nr,
					  skip_nr(variant), self->enosys);
	}
	ASSERT_CHILD_DENIED(pid);
}

TEST_F(negative, kill_action_kills_under_a_filter)
{
	pid_t pid;

	if (other_state(variant->entry)) {
		other_state_number(_metadata, variant->nr, self->enosys, 0,
				   true, 'k');
		return;
	}
	pid = fork_full(_metadata, 0);

	if (pid == 0) {
		CHILD_ASSERT(filter_allow_all() == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2);
		child_minus_1_then_denied(variant->entry, variant->nr,
					  skip_nr(variant), self->enosys);
	}
	ASSERT_CHILD_DENIED(pid);
}

TEST_F(negative, errno_action_returns_the_errno)
{
	pid_t pid;

	if (other_state(variant->entry)) {
		other_state_number(_metadata, variant->nr, self->enosys,
				   SECCOMP_RET_ERRNO | DENY_ERRNO, false, 'c');
		return;
	}
	pid = fork_full(_metadata, SECCOMP_RET_ERRNO | DENY_ERRNO);

	if (pid == 0) {
		long ret;

		CHILD_ASSERT_SKIP_NR_ENOSYS();
		if (variant->entry == E_LIBC) {
			errno = 0;
#ifdef ARM64_BUILD
			ret = syscall(variant->nr, OWN_CALL_ARG0);
#else
			ret = syscall(variant->nr);
#endif
			CHILD_ASSERT(ret == -1);
			CHILD_ASSERT(errno == DENY_ERRNO);
		}
		CHILD_ASSERT(neg_call(variant->entry, variant->nr) ==
			     -DENY_ERRNO);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

TEST_F(negative, trap_action_signals_the_number)
{
	pid_t pid;

	if (other_state(variant->entry)) {
		other_state_number(_metadata, variant->nr, self->enosys,
				   SECCOMP_RET_TRAP, false, 't');
		return;
	}
	pid = fork_full(_metadata, SECCOMP_RET_TRAP);

	if (pid == 0) {
		long ret;

		CHILD_ASSERT(catch_sigsys() == 0);
		CHILD_ASSERT_SKIP_NR_ENOSYS();
		CHILD_ASSERT(sigsys_seen.count == 0);
		ret = neg_call(variant->entry, variant->nr);
		CHILD_ASSERT(sigsys_seen.count == 1);
		CHILD_ASSERT(sigsys_seen.code == SYS_SECCOMP);
		CHILD_ASSERT(sigsys_seen.nr == (int)variant->nr);
		CHILD_ASSERT(sigsys_seen.arch == entry_arch(variant->entry));
		CHILD_ASSERT(sigsys_seen.err == 0);
		CHILD_ASSERT(sigsys_seen.tid == syscall(__NR_gettid));
		CHILD_ASSERT(is_rolled_back(variant->entry, ret, variant->nr));
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

#if X86_BUILD == 64 || ARM64_BUILD == 64
#ifdef ARM64_BUILD
#define NR64_getpid	NRA64_getpid
#define NR64_getppid	NRA64_getppid
#define sys64		own_sys
#endif
/*
 * A long that is negative only in the upper half of rax (x8) is not a
 * negative number: the kernel runs (and filters see) the syscall of eax.
 * Under a mask that denies getppid, with the errno action, LONG_MIN |
 * getppid is getppid, denied with the exact errno, and 0xffffffff00000000
 * | getpid is getpid, allowed.
 */
TEST(negative_long_is_its_low_32_bits)
{
	const long high = ~0xffffffffL;
	struct mask m;
	pid_t pid, ppid = getpid();

	mask_all_but(&m, NR64_getppid);

	/* Control: without a mask, each runs the syscall of its low half. */
	pid = fork_mask_child(_metadata);
	if (pid < 0)
		return;
	if (pid == 0) {
		CHILD_ASSERT(sys64(LONG_MIN | NR64_getppid, 0, 0, 0, 0, 0) ==
			     ppid);
		CHILD_ASSERT(sys64(high | NR64_getpid, 0, 0, 0, 0, 0) ==
			     getpid());
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);

	pid = fork_child(_metadata);
	if (pid == 0) {
		pid_t self = getpid();

		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl_action(&m, SECCOMP_RET_ERRNO |
						   DENY_ERRNO) == 0);
		/* getpid, allowed: the long is negative, the number is not. */
		CHILD_ASSERT(sys64(high | NR64_getpid, 0, 0, 0, 0, 0) == self);
		/* getppid, denied whatever the upper half: the errno action. */
		CHILD_ASSERT(sys64(LONG_MIN | NR64_getppid, 0, 0, 0, 0, 0) ==
			     -DENY_ERRNO);
		CHILD_ASSERT(syscall(__NR_getppid) == -1 && errno == DENY_ERRNO);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}
#endif

#else

TEST(negative)
{
	SKIP(return, "the negative number tests know the ABIs of x86-64 and arm64 only");
}

#endif

TEST_HARNESS_MAIN
