/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: the ABI tables
 *
 * The ABI of this program (SELF_ARCH, X86_BUILD), the syscall numbers the
 * tests use, and raw syscalls through a chosen x86 ABI.
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
#include <unistd.h>

#ifndef SYS_SECCOMP
#define SYS_SECCOMP		1
#endif

#ifndef PR_SET_NO_NEW_PRIVS
#define PR_SET_NO_NEW_PRIVS	38
#endif

/*
 * The ABI this program's own syscalls go through; on x86, X86_BUILD says
 * whether this is the 64-bit or the 32-bit build.
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
#define SELF_ARCH		AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define SELF_ARCH		AUDIT_ARCH_RISCV64
#elif defined(__s390x__)
#define SELF_ARCH		AUDIT_ARCH_S390X
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SELF_ARCH		AUDIT_ARCH_PPC64LE
#elif defined(__arm__)
#define SELF_ARCH		AUDIT_ARCH_ARM
#else
#error "unknown architecture: add its AUDIT_ARCH_* here"
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

/* A call through this program's ABI, -errno on failure. */
static inline long own_call(long nr)
{
	return abi_call(SELF_ARCH, nr, nr, 0, 0, 0);
}
#endif

#endif /* _SELFTESTS_SECCOMP_MASK_ABI_H */
