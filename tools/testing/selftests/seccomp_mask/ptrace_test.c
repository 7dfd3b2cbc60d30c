// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the mask is checked after a ptrace tracer has had its
 * chance to change the syscall number at syscall entry; a number of -1
 * (how a tracer skips a syscall) is never denied.
 *
 * A skip whose return value the tracer leaves alone returns what it does
 * without seccomp (tracer_skip_return()): x86 has -ENOSYS in rax from the
 * entry on, arm64 keeps the first argument in x0 (r0).
 */

#include "common.h"
#include "tracer.h"

#ifdef TWO_ABIS

#define MAGIC 0x5ecc0
#define SKIP_RET 42

enum outcome { KILLED, RETURNS_PID, RETURNS_ENOSYS, RETURNS_SKIP_RET };

FIXTURE(rewrite) {};

FIXTURE_VARIANT(rewrite) {
	int from;	/* the number the tracee uses, with MAGIC as arg 0 */
	int to;		/* the number the tracer makes of it */
	bool set_ret;	/* the tracer also sets the return value */
	enum outcome outcome;
};

FIXTURE_VARIANT_ADD(rewrite, allowed_into_denied_is_killed) {
	.from = __NR_getpid, .to = __NR_getppid, .outcome = KILLED,
};

FIXTURE_VARIANT_ADD(rewrite, denied_into_allowed_survives) {
	.from = __NR_getppid, .to = __NR_getpid, .outcome = RETURNS_PID,
};

/*
 * Version 2: -1 is never denied; the call gets the unimplemented errno
 * (arm64: its first argument, as without seccomp).
 */
FIXTURE_VARIANT_ADD(rewrite, denied_into_minus_1_returns_enosys) {
	.from = __NR_getppid, .to = -1, .outcome = RETURNS_ENOSYS,
};

/* Version 2: ... or the value the tracer set. */
FIXTURE_VARIANT_ADD(rewrite, denied_into_minus_1_returns_the_tracers_value) {
	.from = __NR_getppid, .to = -1, .set_ret = true,
	.outcome = RETURNS_SKIP_RET,
};

FIXTURE_SETUP(rewrite) {}
FIXTURE_TEARDOWN(rewrite) {}

/* Stops of the tracee at the most, so that a broken kernel cannot loop. */
#define MAX_STOPS	1000

/*
 * require_mask(), then @m set to deny getppid: the errno of an
 * unimplemented number (which must be positive), 0 when skipped.
 */
static int require_mask_unimplemented(struct __test_metadata *const _metadata,
				      struct mask *m)
{
	int unimplemented = unimplemented_errno();

	if (!require_mask(_metadata))
		return 0;
	ASSERT_LT(0, unimplemented);
	mask_all_but(m, __NR_getppid);
	return unimplemented;
}

TEST_F(rewrite, syscall_number_at_entry)
{
	struct __ptrace_syscall_info info;
	int status, rewritten = 0, stops, unimplemented;
	struct mask m;
	pid_t pid;

	unimplemented = require_mask_unimplemented(_metadata, &m);
	if (!unimplemented)
		return;
	pid = fork_child(_metadata);
	if (pid == 0) {
		long ret;

		CHILD_ASSERT(ptrace(PTRACE_TRACEME, 0, 0, 0) == 0);
		CHILD_ASSERT(raise(SIGSTOP) == 0);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&m) == 0);
		if (variant->outcome == KILLED) {
			CHILD_DENIED(syscall(variant->from, MAGIC));
			_exit(0);
		}
		ret = syscall(variant->from, MAGIC);
		switch (variant->outcome) {
		case RETURNS_PID:
			CHILD_ASSERT(ret == getpid());
			break;
		case RETURNS_ENOSYS:
			if (tracer_skip_return(-unimplemented, MAGIC) < 0)
				CHILD_ASSERT(ret == -1 && errno == unimplemented);
			else
				CHILD_ASSERT(ret == tracer_skip_return(-unimplemented,
								       MAGIC));
			break;
		default:
			CHILD_ASSERT(ret == SKIP_RET);
			break;
		}
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid_timeout(pid, &status, 0, CHILD_TIMEOUT_MS));
	ASSERT_TRUE(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	ASSERT_EQ(0, ptrace(PTRACE_SETOPTIONS, pid, 0,
			    PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL));
	ASSERT_EQ(0, ptrace(PTRACE_SYSCALL, pid, 0, 0));
	for (stops = 0; stops < MAX_STOPS; stops++) {
		int sig = 0;

		/* On a timeout, the tracee is killed and reaped. */
		ASSERT_EQ(pid, waitpid_timeout(pid, &status, 0,
					       CHILD_TIMEOUT_MS));
		if (!WIFSTOPPED(status))
			break;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(status);
		} else {
			memset(&info, 0, sizeof(info));
			ASSERT_LT(0, ptrace(PTRACE_GET_SYSCALL_INFO, pid,
					    sizeof(info), &info));
			if (info.op == PTRACE_SYSCALL_INFO_ENTRY &&
			    info.entry.nr == variant->from &&
			    info.entry.args[0] == MAGIC) {
				ASSERT_EQ(0, tracer_set_nr(pid, variant->to));
				if (variant->set_ret)
					ASSERT_EQ(0, tracer_set_ret(pid, SKIP_RET));
				rewritten++;
			}
		}
		ASSERT_EQ(0, ptrace(PTRACE_SYSCALL, pid, 0, sig));
	}
	if (stops == MAX_STOPS) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		ASSERT_LT(stops, MAX_STOPS);
	}
	EXPECT_EQ(1, rewritten);
	if (variant->outcome == KILLED) {
		EXPECT_TRUE(denied_call_killed(_metadata, status, __LINE__));
	} else {
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			child_describe(_metadata, status, __LINE__);
		}
	}
}

/* Version 2: syscall(-1) made by the task itself is not denied either. */
TEST(own_minus_1_is_unimplemented_not_a_kill)
{
	int unimplemented;
	struct mask m;
	pid_t pid;

	unimplemented = require_mask_unimplemented(_metadata, &m);
	if (!unimplemented)
		return;
	pid = fork_masked(_metadata, false, &m);
	if (pid == 0) {
		errno = 0;
		CHILD_ASSERT(syscall(-1) == -1 && errno == unimplemented);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

#endif

TEST_HARNESS_MAIN
