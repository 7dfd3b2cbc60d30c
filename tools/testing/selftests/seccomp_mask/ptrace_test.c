// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the mask is checked after a ptrace tracer has had its
 * chance to change the syscall number at syscall entry; a number of -1
 * (how a tracer skips a syscall) is never denied.
 *
 * A skip whose return value the tracer leaves alone returns what it does
 * without seccomp (tracer_skip_return()): x86 has -ENOSYS in rax from the
 * entry on, arm64 keeps the first argument in x0 (r0).
 *
 * A call the mask allows still stops for its tracer, at its entry and at
 * its exit (stops.*): the inline check of the mask (x86:
 * syscall_enter_from_user_mode_work(); arm64: el0_svc_common(), which
 * then skips syscall_trace_exit() too) is only for a task whose only
 * syscall work is seccomp, and a tracer that PTRACE_SYSCALL makes the
 * tracee's during the call, at an event stop, still gets the exit stop.
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
	tracer_start(_metadata, pid, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL,
		     PTRACE_SYSCALL);
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

/*
 * The syscall stops of a call the mask allows: the control without a
 * mask (what any kernel does), and the same with a mask of all but
 * getppid, which needs the mask mode.
 */
FIXTURE(stops) {};

FIXTURE_VARIANT(stops) {
	bool mask;
};

FIXTURE_VARIANT_ADD(stops, no_mask) { .mask = false };
FIXTURE_VARIANT_ADD(stops, mask) { .mask = true };

FIXTURE_SETUP(stops)
{
	if (variant->mask)
		require_mask(_metadata);
}

FIXTURE_TEARDOWN(stops) {}

/* In the tracee: stop for the tracer, then the variant's mask. */
static void stops_tracee_setup(bool mask)
{
	struct mask m;

	mask_all_but(&m, __NR_getppid);
	CHILD_ASSERT(ptrace(PTRACE_TRACEME, 0, 0, 0) == 0);
	CHILD_ASSERT(raise(SIGSTOP) == 0);
	if (mask) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&m) == 0);
	}
}

/* What the tracer of trace_stops() saw. */
struct stops_seen {
	int entries;		/* entry stops of getpid(MAGIC) */
	__u32 arch;		/* the ABI of the last one */
	int events;		/* PTRACE_EVENT_VFORK_DONE stops */
	unsigned long msg;	/* the last one's message: the child's pid */
	int exits;		/* exit stops where one was due */
	long rval;		/* the last one's return value */
	bool is_error;
	int others;		/* other syscall stops where an exit was due */
};

/*
 * Trace @pid, stopped at its raise(SIGSTOP), until it is gone, resuming
 * it with @req (PTRACE_SYSCALL: every syscall stop; PTRACE_CONT: none
 * but those asked for below) and passing its signals on. An exit stop is
 * due at the next syscall stop after an entry stop of getpid(MAGIC) and
 * after a PTRACE_EVENT_VFORK_DONE stop, which the tracer resumes with
 * PTRACE_SYSCALL: that is when the tracee gets the ptrace syscall work,
 * in the middle of its vfork(). @status: how it ended.
 */
static void trace_stops(struct __test_metadata *const _metadata, pid_t pid,
			int req, struct stops_seen *seen, int *status)
{
	struct __ptrace_syscall_info info;
	bool exit_due = false;
	int stops;

	memset(seen, 0, sizeof(*seen));
	tracer_start(_metadata, pid, PTRACE_O_TRACESYSGOOD |
		     PTRACE_O_TRACEVFORKDONE | PTRACE_O_EXITKILL, req);
	for (stops = 0; stops < MAX_STOPS; stops++) {
		int sig = 0;

		/* On a timeout, the tracee is killed and reaped. */
		ASSERT_EQ(pid, waitpid_timeout(pid, status, 0,
					       CHILD_TIMEOUT_MS));
		if (!WIFSTOPPED(*status))
			break;
		if (*status >> 8 ==
		    (SIGTRAP | (PTRACE_EVENT_VFORK_DONE << 8))) {
			seen->events++;
			ASSERT_EQ(0, ptrace(PTRACE_GETEVENTMSG, pid, 0,
					    &seen->msg));
			exit_due = true;
		} else if (WSTOPSIG(*status) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(*status);
		} else {
			memset(&info, 0, sizeof(info));
			ASSERT_LT(0, ptrace(PTRACE_GET_SYSCALL_INFO, pid,
					    sizeof(info), &info));
			if (exit_due) {
				exit_due = false;
				if (info.op == PTRACE_SYSCALL_INFO_EXIT) {
					seen->exits++;
					seen->rval = info.exit.rval;
					seen->is_error = info.exit.is_error;
				} else {
					seen->others++;
				}
			} else if (info.op == PTRACE_SYSCALL_INFO_ENTRY &&
				   info.entry.nr == __NR_getpid &&
				   info.entry.args[0] == MAGIC) {
				seen->entries++;
				seen->arch = info.arch;
				exit_due = true;
			}
		}
		ASSERT_EQ(0, ptrace(exit_due ? PTRACE_SYSCALL : req, pid, 0,
				    sig));
	}
	if (stops == MAX_STOPS) {
		kill(pid, SIGKILL);
		waitpid(pid, status, 0);
		ASSERT_LT(stops, MAX_STOPS);
	}
}

/*
 * fork_child() a tracee that runs @tracee(@mask), which begins with
 * stops_tracee_setup(@mask), then exits 0; trace_stops() it with @req.
 * Its pid; the tracee must have exited 0.
 */
static pid_t run_stops(struct __test_metadata *const _metadata, bool mask,
		       void (*tracee)(bool mask), int req,
		       struct stops_seen *seen)
{
	pid_t pid = fork_child(_metadata);
	int status;

	if (pid == 0) {
		tracee(mask);
		_exit(0);
	}
	trace_stops(_metadata, pid, req, seen, &status);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		child_describe(_metadata, status, __LINE__);
	}
	return pid;
}

/* The tracee of allowed_call_stops_at_entry_and_exit: getpid(MAGIC). */
static void getpid_tracee(bool mask)
{
	/* Before: a libc call could find MAGIC left in a register. */
	pid_t me = getpid();

	stops_tracee_setup(mask);
	CHILD_ASSERT(own_sys(__NR_getpid, MAGIC, 0, 0, 0, 0) == me);
}

/*
 * An allowed getpid() of the traced tracee, through its own ABI, stops
 * at its entry and then at its exit, with its value. Both stops are
 * counted: an inline check taken for a traced task would skip both, one
 * that skipped the exit work only would leave no exit stop.
 */
TEST_F(stops, allowed_call_stops_at_entry_and_exit)
{
	struct stops_seen seen;
	pid_t pid;

	pid = run_stops(_metadata, variant->mask, getpid_tracee,
			PTRACE_SYSCALL, &seen);
	EXPECT_EQ(1, seen.entries);
	EXPECT_EQ(SELF_ARCH, seen.arch);
	EXPECT_EQ(0, seen.others);
	EXPECT_EQ(1, seen.exits);
	EXPECT_EQ(pid, seen.rval);
	EXPECT_FALSE(seen.is_error);
}

/*
 * The tracee of tracing_begun_in_an_allowed_call_stops_at_its_exit: a
 * vfork() whose child exits 0.
 */
static void vfork_tracee(bool mask)
{
	int child_status;
	pid_t child;

	stops_tracee_setup(mask);
	child = vfork();
	if (child == 0)
		_exit(0);
	CHILD_ASSERT(child > 0);
	CHILD_ASSERT(waitpid(child, &child_status, 0) == child);
	CHILD_ASSERT(WIFEXITED(child_status) &&
		     WEXITSTATUS(child_status) == 0);
}

/*
 * A tracer that starts tracing syscalls in the middle of an allowed call
 * still gets its exit stop. The tracee runs untraced (PTRACE_CONT, no
 * syscall work but seccomp: on arm64 the mask's inline check takes its
 * vfork()) until the PTRACE_EVENT_VFORK_DONE stop inside the vfork(),
 * where the tracer resumes it with PTRACE_SYSCALL. The next syscall stop
 * must be the vfork()'s exit, with the child's pid: the syscall work is
 * read again after the call, whatever the entry skipped.
 */
TEST_F(stops, tracing_begun_in_an_allowed_call_stops_at_its_exit)
{
	struct stops_seen seen;

	run_stops(_metadata, variant->mask, vfork_tracee, PTRACE_CONT, &seen);
	EXPECT_EQ(1, seen.events);
	EXPECT_EQ(0, seen.others);
	EXPECT_EQ(1, seen.exits);
	EXPECT_LT(0, seen.msg);
	EXPECT_EQ((long)seen.msg, seen.rval);
	EXPECT_FALSE(seen.is_error);
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
