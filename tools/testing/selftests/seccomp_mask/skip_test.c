// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode, version 2: a syscall number of -1 is never denied.
 *
 * A tracer skips a syscall by setting its number to -1 at the syscall
 * entry stop. The mask is checked after the tracer, and -1 runs nothing:
 * the tracee is not killed, trapped or given the mask's errno; the call
 * returns what a syscall number the kernel does not know returns, or the
 * value the tracer set. A change the tracer makes at the event of a
 * filter's SECCOMP_RET_TRACE is checked by the mask as well.
 *
 * "What a syscall number the kernel does not know returns" is that of a
 * tracer's skip without seccomp (tracer_skip_return()): -ENOSYS on x86;
 * on arm64 the first argument, which x0 (r0) keeps.
 */

#include "common.h"
#include "tracer.h"

#ifdef TWO_ABIS

#define MAGIC		0x5ecc1
#define TRACER_RET	42

FIXTURE(skip) {};

struct skip_case {
	__u32 action;
	bool int80;		/* the ia32 call of a 64-bit program */
	bool set_ret;		/* the tracer also sets the return value */
};

FIXTURE_VARIANT(skip) {
	struct skip_case c;
};

FIXTURE_VARIANT_ADD(skip, kill) { .c = { .action = 0 } };
FIXTURE_VARIANT_ADD(skip, kill_tracer_sets_return) { .c = { .action = 0, .set_ret = true } };
FIXTURE_VARIANT_ADD(skip, errno) { .c = { .action = SECCOMP_RET_ERRNO | MASK_ERRNO } };
FIXTURE_VARIANT_ADD(skip, trap) { .c = { .action = SECCOMP_RET_TRAP } };

#if X86_BUILD == 64
FIXTURE_VARIANT_ADD(skip, kill_int80) { .c = { .action = 0, .int80 = true } };

FIXTURE_VARIANT_ADD(skip, errno_int80_tracer_sets_return) {
	.c = {
		.action = SECCOMP_RET_ERRNO | MASK_ERRNO,
		.int80 = true,
		.set_ret = true,
	},
};
#endif

FIXTURE_SETUP(skip)
{
	if (!require_mask(_metadata))
		return;
#if X86_BUILD == 64
	if (variant->c.int80)
		require_ia32(_metadata);
#endif
}

FIXTURE_TEARDOWN(skip) {}

/*
 * In the tracee: getppid, denied by the mask, through the variant's ABI,
 * with MAGIC as its first argument so that the tracer knows it.
 */
static long denied_getppid(const struct skip_case *c)
{
#ifdef X86_BUILD
	__u32 arch = c->int80 ? ARCH_I386 : SELF_ARCH;

	return abi_call(arch, NR64_getppid, NR32_getppid, MAGIC, 0, 0);
#else
	return own_sys(__NR_getppid, MAGIC, 0, 0, 0, 0);
#endif
}

static void tracee(const struct skip_case *c, long enosys)
{
	long want = c->set_ret ? TRACER_RET : tracer_skip_return(enosys, MAGIC);
	struct mask m;

	mask_all_but(&m, __NR_getppid);
	CHILD_ASSERT(ptrace(PTRACE_TRACEME, 0, 0, 0) == 0);
	CHILD_ASSERT(raise(SIGSTOP) == 0);
	CHILD_ASSERT(catch_sigsys() == 0);
	CHILD_ASSERT(set_nnp() == 0);
	CHILD_ASSERT(mask_prctl_action(&m, c->action) == 0);
	/* The tracer makes this one -1. */
	CHILD_DENIED(denied_getppid(c));
	CHILD_ASSERT(child_report->denied_ret == want);
	CHILD_ASSERT(sigsys_seen.count == 0);
	/* The mask is still there: the same call, not skipped, is denied. */
	if (c->action == (SECCOMP_RET_ERRNO | MASK_ERRNO))
		CHILD_ASSERT(own_sys(__NR_getppid, 0, 0, 0, 0, 0) ==
			     -MASK_ERRNO);
	_exit(0);
}

/*
 * Trace @pid until it is gone. At each stop for the MAGIC call (its
 * syscall entry under PTRACE_SYSCALL or, with @seccomp_event, the event of
 * a filter's SECCOMP_RET_TRACE), make its number @nr and, with @set_ret,
 * its return value TRACER_RET. Returns how many times; @status: its end.
 */
static int trace_magic(struct __test_metadata *const _metadata, pid_t pid,
		       bool seccomp_event, long nr, bool set_ret, int *status)
{
	int req = seccomp_event ? PTRACE_CONT : PTRACE_SYSCALL;
	struct __ptrace_syscall_info info;
	int changed = 0;

	tracer_start(_metadata, pid, PTRACE_O_TRACESYSGOOD |
		     PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL, req);
	/* Every stop until the tracee is gone; a timeout kills it. */
	for (;;) {
		bool event;
		int sig;

		ASSERT_EQ(pid, waitpid_timeout(pid, status, 0,
					       CHILD_TIMEOUT_MS));
		if (!WIFSTOPPED(*status))
			break;
		event = *status >> 8 == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8));
		if (!event && WSTOPSIG(*status) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(*status);
			ASSERT_EQ(0, ptrace(req, pid, 0, sig));
			continue;
		}
		memset(&info, 0, sizeof(info));
		ASSERT_LT(0, ptrace(PTRACE_GET_SYSCALL_INFO, pid,
				    sizeof(info), &info));
		if ((info.op == PTRACE_SYSCALL_INFO_ENTRY &&
		     info.entry.args[0] == MAGIC) ||
		    (info.op == PTRACE_SYSCALL_INFO_SECCOMP &&
		     info.seccomp.args[0] == MAGIC)) {
			ASSERT_EQ(0, tracer_set_nr(pid, nr));
			if (set_ret)
				ASSERT_EQ(0, tracer_set_ret(pid, TRACER_RET));
			changed++;
		}
		ASSERT_EQ(0, ptrace(req, pid, 0, 0));
	}
	return changed;
}

/* In the parent: the tracee exited 0, or what it did instead. */
static void expect_tracee_ok(struct __test_metadata *const _metadata,
			     int status, long want)
{
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		child_describe(_metadata, status, __LINE__);
		if (child_report->denied_returned)
			TH_LOG("the changed call returned %ld, not %ld",
			       child_report->denied_ret, want);
	}
}

TEST_F(skip, syscall_minus_1_is_not_denied)
{
	/* What a syscall number the kernel does not know returns. */
	long enosys = -unimplemented_errno();
	int status, skipped;
	pid_t pid;

	ASSERT_GT(0, enosys);
	pid = fork_child(_metadata);
	if (pid == 0)
		tracee(&variant->c, enosys);
	skipped = trace_magic(_metadata, pid, false, -1, variant->c.set_ret,
			      &status);
	EXPECT_EQ(1, skipped);
	expect_tracee_ok(_metadata, status,
			 variant->c.set_ret ? TRACER_RET :
			 tracer_skip_return(enosys, MAGIC));
}

/*
 * A filter's SECCOMP_RET_TRACE lets the tracer change the call, which is
 * then checked again: by the mask too. getpid, which the mask allows and
 * the filter traces, made getppid, which the mask denies (ERRNO 5); or
 * made -1, which is never denied.
 */
FIXTURE(trace_event) {};
FIXTURE_SETUP(trace_event) { require_mask(_metadata); }
FIXTURE_TEARDOWN(trace_event) {}

FIXTURE_VARIANT(trace_event) {
	long nr;
	bool unimplemented;	/* returns what -1 returns */
};

FIXTURE_VARIANT_ADD(trace_event, changed_to_a_denied_call) { .nr = __NR_getppid };
FIXTURE_VARIANT_ADD(trace_event, changed_to_minus_1) { .nr = -1, .unimplemented = true };

/* The filter: SECCOMP_RET_TRACE for this ABI's getpid. */
static long trace_getpid_filter(void)
{
	const struct filter_rule rule = { __NR_getpid, SECCOMP_RET_TRACE };

	return filter_install(-1, &rule, 1);
}

TEST_F(trace_event, change_is_checked_by_the_mask)
{
	long want = variant->unimplemented ?
		    tracer_skip_return(-unimplemented_errno(), MAGIC) :
		    -MASK_ERRNO;
	int status;
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		struct mask m;

		mask_all_but(&m, __NR_getppid);
		CHILD_ASSERT(ptrace(PTRACE_TRACEME, 0, 0, 0) == 0);
		CHILD_ASSERT(raise(SIGSTOP) == 0);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl_action(&m, SECCOMP_RET_ERRNO |
					       MASK_ERRNO) == 0);
		CHILD_ASSERT(trace_getpid_filter() == 0);
		CHILD_DENIED(own_sys(__NR_getpid, MAGIC, 0, 0, 0, 0));
		CHILD_ASSERT(child_report->denied_ret == want);
		_exit(0);
	}
	EXPECT_EQ(1, trace_magic(_metadata, pid, true, variant->nr, false,
				 &status));
	expect_tracee_ok(_metadata, status, want);
}

#else

TEST(skip)
{
	SKIP(return, "changing the syscall number is known for x86-64 and arm64 only here");
}

#endif

TEST_HARNESS_MAIN
