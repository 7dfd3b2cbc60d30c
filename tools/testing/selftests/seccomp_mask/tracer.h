/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: what a tracer changes at a syscall stop of
 * its tracee, the syscall number and the return value, on each ABI
 *
 *   x86:     PTRACE_POKEUSER of orig_rax/rax (orig_eax/eax);
 *   AArch64: the NT_ARM_SYSTEM_CALL regset for the number, the
 *            NT_PRSTATUS one for x0;
 *   AArch32: PTRACE_SET_SYSCALL for the number, PTRACE_GETREGS and
 *            PTRACE_SETREGS for r0 (an AArch32 tracer of an AArch32
 *            tracee: the compat ptrace of arm64).
 *
 * Change the number before the return value: on arm64 a changed number
 * also resyncs orig_x0 with x0.
 *
 * tracer_start() is how each tracer begins: its tracee is a child that
 * made PTRACE_TRACEME and stopped itself with raise(SIGSTOP).
 */

#ifndef _SELFTESTS_SECCOMP_MASK_TRACER_H
#define _SELFTESTS_SECCOMP_MASK_TRACER_H

#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>

#include "abi.h"
#include "child.h"

#ifdef ARM64_BUILD
#ifndef NT_PRSTATUS
#define NT_PRSTATUS		1
#endif
#ifndef NT_ARM_SYSTEM_CALL
#define NT_ARM_SYSTEM_CALL	0x404
#endif
/* The requests of the 32-bit arm ptrace, which arm64's compat one has. */
#define ARM_PTRACE_GETREGS	12
#define ARM_PTRACE_SETREGS	13
#define ARM_PTRACE_SET_SYSCALL	23
#endif

#ifdef X86_BUILD
/* x86: the saved registers of the number and of the return value. */
#if X86_BUILD == 64
#define TRACER_NR_REG		orig_rax
#define TRACER_RET_REG		rax
#else
#define TRACER_NR_REG		orig_eax
#define TRACER_RET_REG		eax
#endif
/* Write @val to the saved register @reg of @pid: 0 or -1. */
#define TRACER_POKE_REG(pid, reg, val)				\
	ptrace(PTRACE_POKEUSER, (pid),				\
	       offsetof(struct user_regs_struct, reg), (val))
#endif

/* Make the syscall of @pid, stopped at its entry, number @nr: 0 or -1. */
static inline int tracer_set_nr(pid_t pid, long nr)
{
#ifdef X86_BUILD
	return TRACER_POKE_REG(pid, TRACER_NR_REG, nr);
#elif ARM64_BUILD == 64
	int n = nr;
	struct iovec iov = { .iov_base = &n, .iov_len = sizeof(n) };

	return ptrace(PTRACE_SETREGSET, pid, NT_ARM_SYSTEM_CALL, &iov);
#elif ARM64_BUILD == 32
	return ptrace(ARM_PTRACE_SET_SYSCALL, pid, NULL, (void *)nr);
#else
	errno = EOPNOTSUPP;
	return -1;
#endif
}

/* Make the return value of the syscall of @pid @val: 0 or -1. */
static inline int tracer_set_ret(pid_t pid, long val)
{
#ifdef X86_BUILD
	return TRACER_POKE_REG(pid, TRACER_RET_REG, val);
#elif ARM64_BUILD == 64
	struct user_regs_struct regs;
	struct iovec iov = { .iov_base = &regs, .iov_len = sizeof(regs) };

	if (ptrace(PTRACE_GETREGSET, pid, NT_PRSTATUS, &iov))
		return -1;
	regs.regs[0] = val;
	return ptrace(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov);
#elif ARM64_BUILD == 32
	unsigned long regs[18];

	if (ptrace(ARM_PTRACE_GETREGS, pid, NULL, regs))
		return -1;
	regs[0] = val;
	return ptrace(ARM_PTRACE_SETREGS, pid, NULL, regs);
#else
	errno = EOPNOTSUPP;
	return -1;
#endif
}

#ifndef SECCOMP_MASK_NO_HARNESS
/*
 * In the tracer: wait for the tracee @pid to stop at its raise(SIGSTOP)
 * after PTRACE_TRACEME, set its ptrace @options and resume it with @req
 * (PTRACE_SYSCALL, PTRACE_CONT).
 */
static inline void tracer_start(struct __test_metadata *const _metadata,
				pid_t pid, long options, int req)
{
	int status;

	ASSERT_EQ(pid, waitpid_timeout(pid, &status, 0, CHILD_TIMEOUT_MS));
	ASSERT_TRUE(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	ASSERT_EQ(0, ptrace(PTRACE_SETOPTIONS, pid, 0, options));
	ASSERT_EQ(0, ptrace(req, pid, 0, 0));
}
#endif

#endif /* _SELFTESTS_SECCOMP_MASK_TRACER_H */
