/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: the ABI tables
 *
 * The ABI of this program (SELF_ARCH, X86_BUILD or ARM64_BUILD), the
 * other ABI of its kernel (OTHER_ARCH), the syscall numbers the tests use,
 * the largest nbits of each ABI, raw syscalls through this program's ABI
 * (own_sys()) and, on x86, through a chosen x86 ABI; what a TRAP and a
 * tracer's skip leave where the return value goes.
 */

#ifndef _SELFTESTS_SECCOMP_MASK_ABI_H
#define _SELFTESTS_SECCOMP_MASK_ABI_H

/* lib.mk passes -D_GNU_SOURCE=; a compile by hand may not (strchrnul). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "uapi_fallback.h"

/*
 * HAVE_URETPROBE (the Makefile defines it when the uapi headers have
 * __NR_uretprobe): the x86-64 uretprobe syscall (335), which seccomp never
 * denies, came with Linux 6.11. On older kernels (the 6.1 series) 335 is
 * just an unimplemented number, and the tests of the exception are
 * compiled out.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef SYS_SECCOMP
#define SYS_SECCOMP		1
#endif

#ifndef PR_SET_NO_NEW_PRIVS
#define PR_SET_NO_NEW_PRIVS	38
#endif

/*
 * The ABI this program's own syscalls go through. On x86, X86_BUILD says
 * whether this is the 64-bit or the 32-bit build; on arm64, ARM64_BUILD
 * whether it is the AArch64 (64) or the AArch32 (32) one: an AArch32
 * program is built for the compat ABI of an arm64 kernel (the mask mode
 * exists on no 32-bit arm kernel). TWO_ABIS: a build for one of the two
 * ABIs of a 64-bit kernel, which has OTHER_ARCH.
 */
#if defined(__x86_64__) && defined(__ILP32__)
#error "x32 builds are not supported"
#elif defined(__x86_64__)
#define X86_BUILD		64
#define SELF_ARCH		AUDIT_ARCH_X86_64
#elif defined(__i386)
#define X86_BUILD		32
#define SELF_ARCH		AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define ARM64_BUILD		64
#define SELF_ARCH		AUDIT_ARCH_AARCH64
#elif defined(__arm__)
#define ARM64_BUILD		32
#define SELF_ARCH		AUDIT_ARCH_ARM
#elif defined(__riscv) && __riscv_xlen == 64
#define SELF_ARCH		AUDIT_ARCH_RISCV64
#elif defined(__s390x__)
#define SELF_ARCH		AUDIT_ARCH_S390X
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SELF_ARCH		AUDIT_ARCH_PPC64LE
#else
#error "unknown architecture: add its AUDIT_ARCH_* here"
#endif

#if defined(X86_BUILD) || defined(ARM64_BUILD)
#define TWO_ABIS
#endif

/* x86: the two ABIs a 64-bit kernel has, and the ia32 numbers used. */
#ifdef X86_BUILD
#define ARCH_X86_64		AUDIT_ARCH_X86_64
#define ARCH_I386		AUDIT_ARCH_I386
#define NR32_exit		1
#define NR32_write		4
#define NR32_chmod		15
#define NR32_getpid		20
#define NR32_getppid		64
#define NR32_prctl		172
#define NR32_exit_group		252
#define NR64_write		1
#define NR64_close		3
#define NR64_getpid		39
#define NR64_chmod		90
#define NR64_getppid		110
#define NR64_prctl		157
#define NR64_exit_group		231
#define NR64_uretprobe		335
#define NR32_rt_tgsigqueueinfo	335
#define X32_SYSCALL_BIT		0x40000000
#endif

/*
 * arm64: the AArch64 (native) and AArch32 (compat) ABIs of an arm64
 * kernel, and the numbers of each table the tests use; a build checks
 * those of its own table against its <asm/unistd.h>. The ARM-private
 * syscalls 0x0f0000 + k (k < 16) of AArch32 are bit 1024 + k of the
 * AUDIT_ARCH_ARM mask, which may have 1040 bits.
 */
#ifdef ARM64_BUILD
#define ARCH_AARCH64		AUDIT_ARCH_AARCH64
#define ARCH_ARM		AUDIT_ARCH_ARM
#define NRA64_close		57
#define NRA64_write		64
#define NRA64_exit_group	94
#define NRA64_prctl		167
#define NRA64_getpid		172
#define NRA64_getppid		173
#define NRA64_getuid		174
#define NRA32_exit		1
#define NRA32_write		4
#define NRA32_close		6
#define NRA32_getpid		20
#define NRA32_getuid		24
#define NRA32_getppid		64
#define NRA32_prctl		172
#define NRA32_exit_group	248
#define ARM_PRIVATE_BASE	0x0f0000
#define ARM_PRIVATE_NR		16
#define ARM_PRIVATE_END		(ARM_PRIVATE_BASE + 0x800)
#define ARM_NR_breakpoint	(ARM_PRIVATE_BASE + 1)
#define ARM_NR_cacheflush	(ARM_PRIVATE_BASE + 2)
#define ARM_NR_set_tls		(ARM_PRIVATE_BASE + 5)
#define ARM_NR_get_tls		(ARM_PRIVATE_BASE + 6)
/* The bit of the ARM-private syscall @nr (0x0f0000 + k) in the ARM mask. */
#define ARM_PRIVATE_BIT(nr)	(SECCOMP_MASK_MAX_BITS + (nr) - ARM_PRIVATE_BASE)
#define ARM_MAX_BITS		(SECCOMP_MASK_MAX_BITS + ARM_PRIVATE_NR)

#if ARM64_BUILD == 64
static_assert(NRA64_close == __NR_close && NRA64_write == __NR_write &&
	      NRA64_exit_group == __NR_exit_group &&
	      NRA64_prctl == __NR_prctl && NRA64_getpid == __NR_getpid &&
	      NRA64_getppid == __NR_getppid && NRA64_getuid == __NR_getuid,
	      "the AArch64 numbers above are those of the uapi headers");
#else
static_assert(NRA32_exit == __NR_exit && NRA32_write == __NR_write &&
	      NRA32_close == __NR_close && NRA32_getpid == __NR_getpid &&
	      NRA32_getuid == __NR_getuid && NRA32_getppid == __NR_getppid &&
	      NRA32_prctl == __NR_prctl &&
	      NRA32_exit_group == __NR_exit_group,
	      "the AArch32 numbers above are those of the uapi headers");
static_assert(ARM_NR_cacheflush == __ARM_NR_cacheflush &&
	      ARM_NR_set_tls == __ARM_NR_set_tls,
	      "the ARM-private numbers above are those of the uapi headers");
#endif

/* The ABI that is not this program's own, and numbers of its table. */
#if ARM64_BUILD == 64
#define OTHER_ARCH		ARCH_ARM
#define OTHER_NR_getpid		NRA32_getpid
#define OTHER_NR_getppid	NRA32_getppid
#define OTHER_NR_prctl		NRA32_prctl
#define OTHER_NR_exit_group	NRA32_exit_group
#define SELF_MAX_BITS		SECCOMP_MASK_MAX_BITS
#define OTHER_MAX_BITS		ARM_MAX_BITS
#else
#define OTHER_ARCH		ARCH_AARCH64
#define OTHER_NR_getpid		NRA64_getpid
#define OTHER_NR_getppid	NRA64_getppid
#define OTHER_NR_prctl		NRA64_prctl
#define OTHER_NR_exit_group	NRA64_exit_group
#define SELF_MAX_BITS		ARM_MAX_BITS
#define OTHER_MAX_BITS		SECCOMP_MASK_MAX_BITS
#endif
#endif /* ARM64_BUILD */

/*
 * The largest nbits of the mask of this program's ABI, and of the other
 * one: SECCOMP_MASK_MAX_BITS, but 1040 for AArch32 (its private calls).
 */
#ifndef SELF_MAX_BITS
#define SELF_MAX_BITS		SECCOMP_MASK_MAX_BITS
#define OTHER_MAX_BITS		SECCOMP_MASK_MAX_BITS
#endif

/* A syscall number no kernel implements, below SECCOMP_MASK_MAX_BITS. */
#define NR_UNIMPLEMENTED	1000

/* The errno of the tests' masks with SECCOMP_RET_ERRNO (EIO). */
#define MASK_ERRNO		5

/*
 * The errno of the errno action of errors_test and negative_test: ENOMSG,
 * neither ENOSYS nor a common one.
 */
#define DENY_ERRNO		42

/*
 * The errno of a syscall number the kernel does not implement, taken in a
 * child that has no seccomp mode: a set bit must let such a number through
 * to the same answer.
 */
static inline int unimplemented_errno(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(syscall(NR_UNIMPLEMENTED) == -1 ? errno : 0);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Does the kernel have the ABI that is not this program's own? */
static inline bool kernel_is_64bit(void)
{
	struct utsname u;

	return !uname(&u) && !strcmp(u.machine, "x86_64");
}

/*
 * Raw syscalls through a chosen x86 ABI, whatever this build's own is:
 * sys64() through the 64-bit table, sys32() through the ia32 one. They
 * return the value or -errno, and touch nothing of libc (no errno).
 *
 * 64-bit build: sys64() is "syscall", sys32() is int $0x80 (pointer
 * arguments must be below 4 GiB: low_page()), x32_syscall() is "syscall"
 * with the x32 bit set.
 * 32-bit build: sys32() is int $0x80, sys64() a far jump into the 64-bit
 * code segment (__USER_CS), "syscall", and an indirect far jump back to
 * __USER32_CS (not lretq, which QEMU's TCG mishandles with SMAP on); its
 * arguments are zero-extended, d goes to r10 and e to r8.
 */
#ifdef X86_BUILD
/* The registers int $0x80 clobbers: r8-r11 too in a 64-bit program. */
#if X86_BUILD == 64
#define INT80_CLOBBERS		"r8", "r9", "r10", "r11", "memory"
#else
#define INT80_CLOBBERS		"memory"
#endif

static inline long sys32(long nr, long a, long b, long c, long d, long e)
{
	long ret;

	asm volatile ("int $0x80"
		      : "=a" (ret)
		      : "a" (nr), "b" (a), "c" (b), "d" (c), "S" (d), "D" (e)
		      : INT80_CLOBBERS);
	return ret;
}

/*
 * A page below 4 GiB, for the pointer arguments of int $0x80 from a
 * 64-bit program (every page of a 32-bit program is): NULL on failure.
 */
static inline void *low_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}
#endif

#if X86_BUILD == 64
static inline long sys64(long nr, long a, long b, long c, long d, long e)
{
	register long r10 asm("r10") = d;
	register long r8 asm("r8") = e;
	long ret;

	asm volatile ("syscall"
		      : "=a" (ret)
		      : "a" (nr), "D" (a), "S" (b), "d" (c), "r" (r10), "r" (r8)
		      : "rcx", "r11", "memory");
	return ret;
}

/* An x32 syscall: the 64-bit entry, X32_SYSCALL_BIT in the number. */
static inline long x32_syscall(long nr, long a, long b, long c)
{
	return sys64(nr | X32_SYSCALL_BIT, a, b, c, 0, 0);
}
#endif

#if X86_BUILD == 32
static inline long sys64(long nr, long a, long b, long c, long d, long e)
{
	long ret = nr;

	asm volatile ("jmp $0x33, $1f\n\t"
		      "1:\n\t"
		      ".code64\n\t"
		      "movl %%edi, %%edi\n\t"
		      "movl %%esi, %%esi\n\t"
		      "movl %%edx, %%edx\n\t"
		      "movl %%ecx, %%r10d\n\t"
		      "movl %%ebx, %%r8d\n\t"
		      "syscall\n\t"
		      "subq $8, %%rsp\n\t"
		      "movl $2f, (%%rsp)\n\t"
		      "movl $0x23, 4(%%rsp)\n\t"
		      "ljmpl *(%%rsp)\n\t"
		      "2:\n\t"
		      ".code32\n\t"
		      "addl $8, %%esp\n\t"
		      : "+a" (ret), "+D" (a), "+S" (b), "+d" (c), "+c" (d), "+b" (e)
		      :
		      : "memory");
	return ret;
}
#endif

#ifdef X86_BUILD
/* The x86 ABI that is not this program's own, and numbers of its table. */
#if X86_BUILD == 64
#define OTHER_ARCH		ARCH_I386
#define OTHER_NR_chmod		NR32_chmod
#define OTHER_NR_getpid		NR32_getpid
#define OTHER_NR_getppid	NR32_getppid
#define OTHER_NR_prctl		NR32_prctl
#define OTHER_NR_exit_group	NR32_exit_group
#else
#define OTHER_ARCH		ARCH_X86_64
#define OTHER_NR_chmod		NR64_chmod
#define OTHER_NR_getpid		NR64_getpid
#define OTHER_NR_getppid	NR64_getppid
#define OTHER_NR_prctl		NR64_prctl
#define OTHER_NR_exit_group	NR64_exit_group
#endif

/*
 * Syscall @nr64 (its x86-64 number) or @nr32 (its ia32 number) through
 * the ABI @arch, as sys64() and sys32() make it.
 */
static inline long abi_call(__u32 arch, long nr64, long nr32, long a, long b,
			    long c)
{
	if (arch == ARCH_X86_64)
		return sys64(nr64, a, b, c, 0, 0);
	return sys32(nr32, a, b, c, 0, 0);
}

/*
 * Syscall @nr of the other x86 ABI's table (OTHER_NR_*) through that
 * ABI's entry (int $0x80, or the far jump and syscall): the value or
 * -errno. Pointer arguments must be below 4 GiB (low_page()).
 */
static inline long other_sys(long nr, long a, long b, long c, long d, long e)
{
#if X86_BUILD == 64
	return sys32(nr, a, b, c, d, e);
#else
	return sys64(nr, a, b, c, d, e);
#endif
}

/* other_sys() with three arguments. */
static inline long other_call(long nr, long a, long b, long c)
{
	return other_sys(nr, a, b, c, 0, 0);
}

#endif

/*
 * arm64: a raw syscall through this program's own ABI (an arm64 task
 * cannot make one of the other state's: execve() of a program of that
 * state is the only crossing). AArch64: svc #0 with the number in x8;
 * AArch32 (EABI): svc #0 with the number in r7, which Thumb code keeps as
 * its frame pointer: it is saved in ip, which the kernel preserves. The
 * value or -errno, nothing of libc.
 */
#if ARM64_BUILD == 64
static inline long own_sys(long nr, long a, long b, long c, long d, long e)
{
	register long x8 asm("x8") = nr;
	register long x0 asm("x0") = a;
	register long x1 asm("x1") = b;
	register long x2 asm("x2") = c;
	register long x3 asm("x3") = d;
	register long x4 asm("x4") = e;

	asm volatile ("svc #0"
		      : "+r" (x0)
		      : "r" (x8), "r" (x1), "r" (x2), "r" (x3), "r" (x4)
		      : "memory");
	return x0;
}
#elif ARM64_BUILD == 32
static inline long own_sys(long nr, long a, long b, long c, long d, long e)
{
	register long r0 asm("r0") = a;
	register long r1 asm("r1") = b;
	register long r2 asm("r2") = c;
	register long r3 asm("r3") = d;
	register long r4 asm("r4") = e;

	asm volatile ("mov ip, r7\n\t"
		      "mov r7, %[nr]\n\t"
		      "svc #0\n\t"
		      "mov r7, ip"
		      : "+r" (r0)
		      : [nr] "r" (nr), "r" (r1), "r" (r2), "r" (r3), "r" (r4)
		      : "ip", "memory");
	return r0;
}
#elif defined(X86_BUILD)
/* Syscall @nr of this program's own x86 ABI: the value or -errno. */
static inline long own_sys(long nr, long a, long b, long c, long d, long e)
{
#if X86_BUILD == 64
	return sys64(nr, a, b, c, d, e);
#else
	return sys32(nr, a, b, c, d, e);
#endif
}
#else
static inline long own_sys(long nr, long a, long b, long c, long d, long e)
{
	long ret = syscall(nr, a, b, c, d, e);

	return ret == -1 ? -errno : ret;
}
#endif

/*
 * The first argument of own_call(). The number own_call() makes takes no
 * argument; on arm64 a SECCOMP_RET_TRAP leaves the first argument where
 * the value goes (trap_return()), which this one tells from a 0.
 */
#ifdef ARM64_BUILD
#define OWN_CALL_ARG0		0x5ecc
#else
#define OWN_CALL_ARG0		0
#endif

/* A call through this program's ABI, no arguments: -errno on failure. */
static inline long own_call(long nr)
{
	return own_sys(nr, OWN_CALL_ARG0, 0, 0, 0, 0);
}

/*
 * What a call that SECCOMP_RET_TRAP skipped returns when the SIGSYS
 * handler left the context alone, and what the handler finds in the
 * context's return register (UC_RET_REG()): the syscall's registers are
 * rolled back as for a filter's TRAP. On x86 that puts the number @nr
 * back in rax (eax); on arm64 it puts the first argument @a0 (orig_x0)
 * back in x0 (r0).
 */
static inline long trap_return(long nr, long a0)
{
#ifdef ARM64_BUILD
	return a0;
#else
	return nr;
#endif
}

/* trap_return() of own_call(@nr). */
static inline long trap_return_own(long nr)
{
	return trap_return(nr, OWN_CALL_ARG0);
}

/* The return register in the ucontext_t *@uc of a signal handler. */
#if defined(__x86_64__)
#define UC_RET_REG(uc)		((uc)->uc_mcontext.gregs[REG_RAX])
#elif defined(__i386__)
#define UC_RET_REG(uc)		((uc)->uc_mcontext.gregs[REG_EAX])
#elif defined(__aarch64__)
#define UC_RET_REG(uc)		((uc)->uc_mcontext.regs[0])
#elif defined(__arm__)
#define UC_RET_REG(uc)		((uc)->uc_mcontext.arm_r0)
#endif

/*
 * What a call returns when a tracer made its number -1 (a skip) and left
 * its return value alone: the same as without seccomp. x86 set it to
 * @enosys (-ENOSYS) at entry; arm64 only does so for a syscall(-1) the
 * task itself made, so a skip keeps the first argument @a0 in x0 (r0).
 */
static inline long tracer_skip_return(long enosys, long a0)
{
#ifdef ARM64_BUILD
	return a0;
#else
	return enosys;
#endif
}

#endif /* _SELFTESTS_SECCOMP_MASK_ABI_H */
