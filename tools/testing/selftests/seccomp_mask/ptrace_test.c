// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the mask is checked after a ptrace tracer has had its
 * chance to change the syscall number at syscall entry.
 */

#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#include "common.h"

#define MAGIC 0x5ecc0

FIXTURE(rewrite) {};

FIXTURE_VARIANT(rewrite) {
	int from;	/* the number the tracee uses, with MAGIC as arg 0 */
	int to;		/* the number the tracer makes of it */
	bool killed;
};

FIXTURE_VARIANT_ADD(rewrite, allowed_into_denied_is_killed) {
	.from = __NR_getpid,
	.to = __NR_getppid,
	.killed = true,
};

FIXTURE_VARIANT_ADD(rewrite, denied_into_allowed_survives) {
	.from = __NR_getppid,
	.to = __NR_getpid,
	.killed = false,
};

FIXTURE_SETUP(rewrite) {}
FIXTURE_TEARDOWN(rewrite) {}

TEST_F(rewrite, syscall_number_at_entry)
{
#ifdef X86_BUILD
	struct __ptrace_syscall_info info;
	int status, rewritten = 0;
	struct mask m;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	mask_all_but(&m, __NR_getppid);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(ptrace(PTRACE_TRACEME, 0, 0, 0) == 0);
		CHILD_ASSERT(raise(SIGSTOP) == 0);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&m) == 0);
		CHILD_ASSERT(syscall(variant->from, MAGIC) == getpid());
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	ASSERT_EQ(0, ptrace(PTRACE_SETOPTIONS, pid, 0,
			    PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL));
	ASSERT_EQ(0, ptrace(PTRACE_SYSCALL, pid, 0, 0));
	for (;;) {
		int sig = 0;

		ASSERT_EQ(pid, waitpid(pid, &status, 0));
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
#if X86_BUILD == 64
				long off = offsetof(struct user_regs_struct,
						    orig_rax);
#else
				long off = offsetof(struct user_regs_struct,
						    orig_eax);
#endif
				ASSERT_EQ(0, ptrace(PTRACE_POKEUSER, pid, off,
						    variant->to));
				rewritten++;
			}
		}
		ASSERT_EQ(0, ptrace(PTRACE_SYSCALL, pid, 0, sig));
	}
	EXPECT_EQ(1, rewritten);
	if (variant->killed) {
		EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS) {
			child_describe(_metadata, status, __LINE__);
		}
	} else {
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			child_describe(_metadata, status, __LINE__);
		}
	}
#else
	SKIP(return, "changing the syscall number is x86-specific here");
#endif
}

TEST_HARNESS_MAIN
