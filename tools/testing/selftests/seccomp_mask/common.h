/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: shared helpers
 *
 * Every test runs the code under a mask in a child (child_fork()) and
 * checks how that child ended (ASSERT_CHILD_OK(), ASSERT_CHILD_KILLED()).
 * In the child, CHILD_ASSERT() records the failing line in a page shared
 * with the parent and exits, so the parent's report names it.
 */

#ifndef _SELFTESTS_SECCOMP_MASK_COMMON_H
#define _SELFTESTS_SECCOMP_MASK_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdbool.h>
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
#include <unistd.h>

#include "../kselftest_harness.h"

/* Fallbacks for building against headers without the mask mode. */
#ifndef SECCOMP_MODE_MASK
#define SECCOMP_MODE_MASK	3
#define SECCOMP_SET_MODE_MASK	4
#define SECCOMP_MASK_MAX_BITS	1024

struct seccomp_mask {
	__u32 arch;
	__u32 nbits;
	__aligned_u64 bits;
};

struct seccomp_mask_set {
	__u32 nr_masks;
	__u32 reserved;
	__aligned_u64 masks;
};
#endif

#ifndef SECCOMP_SET_MODE_FILTER
#define SECCOMP_SET_MODE_FILTER	1
#endif

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
#if X86_BUILD == 64 && defined(__ILP32__)
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
#define NR32_exit_group		252
#define NR64_write		1
#define NR64_close		3
#define NR64_getpid		39
#define NR64_chmod		90
#define NR64_getppid		110
#define NR64_exit_group		231
#define X32_SYSCALL_BIT		0x40000000
#endif

/* A syscall number no kernel implements, below SECCOMP_MASK_MAX_BITS. */
#define NR_UNIMPLEMENTED	1000

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

#define CHILD_FAILED		99

/* What a failed CHILD_ASSERT() tells the parent. */
struct child_report {
	int line;
	int err;
	char expr[240];
};

static struct child_report *child_report;

static void __attribute__((constructor)) child_report_init(void)
{
	child_report = mmap(NULL, sizeof(*child_report),
			    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			    -1, 0);
	if (child_report == MAP_FAILED)
		abort();
}

/* Only async-signal-safe work: this may run in a masked or vforked child. */
static inline void child_fail(int line, const char *expr)
{
	size_t i;

	child_report->line = line;
	child_report->err = errno;
	for (i = 0; expr[i] && i < sizeof(child_report->expr) - 1; i++)
		child_report->expr[i] = expr[i];
	child_report->expr[i] = '\0';
	_exit(CHILD_FAILED);
}

#define CHILD_ASSERT(cond)					\
	do {							\
		if (!(cond))					\
			child_fail(__LINE__, #cond);		\
	} while (0)

static inline pid_t child_fork(void)
{
	memset(child_report, 0, sizeof(*child_report));
	fflush(stdout);
	fflush(stderr);
	return fork();
}

static inline int child_wait(struct __test_metadata *const _metadata, pid_t pid)
{
	int status;

	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	return status;
}

static inline void child_describe(struct __test_metadata *const _metadata,
				  int status, int line)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_FAILED &&
	    child_report->line)
		TH_LOG("line %d: child failed at line %d: %s (errno %d: %s)",
		       line, child_report->line, child_report->expr,
		       child_report->err, strerror(child_report->err));
	else if (WIFEXITED(status))
		TH_LOG("line %d: child exited with %d", line,
		       WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		TH_LOG("line %d: child killed by signal %d (%s)", line,
		       WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		TH_LOG("line %d: child status 0x%x", line, status);
}

static inline void __assert_child_ok(struct __test_metadata *const _metadata,
				     pid_t pid, int line)
{
	int status = child_wait(_metadata, pid);

	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		child_describe(_metadata, status, line);
		ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

static inline void
__assert_child_killed(struct __test_metadata *const _metadata, pid_t pid,
		      int sig, int line)
{
	int status = child_wait(_metadata, pid);

	if (!WIFSIGNALED(status) || WTERMSIG(status) != sig) {
		TH_LOG("line %d: expected the child killed by signal %d (%s)",
		       line, sig, strsignal(sig));
		child_describe(_metadata, status, line);
		ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig);
	}
}

/* Wait for @pid; it must have exited with 0. */
#define ASSERT_CHILD_OK(pid) __assert_child_ok(_metadata, pid, __LINE__)
/* Wait for @pid; it must have been killed by @sig. */
#define ASSERT_CHILD_KILLED(pid, sig) \
	__assert_child_killed(_metadata, pid, sig, __LINE__)

/* A mask: @nbits bits, syscall n is bit n % 8 of byte n / 8. */
struct mask {
	unsigned int nbits;
	unsigned char bits[SECCOMP_MASK_MAX_BITS / 8 + 8];
};

static inline void mask_none(struct mask *m, unsigned int nbits)
{
	memset(m, 0, sizeof(*m));
	m->nbits = nbits;
}

/* All @nbits bits set. */
static inline void mask_all(struct mask *m, unsigned int nbits)
{
	unsigned int i;

	mask_none(m, nbits);
	for (i = 0; i < nbits; i++)
		m->bits[i / 8] |= 1 << (i % 8);
}

static inline void mask_set(struct mask *m, unsigned int nr)
{
	m->bits[nr / 8] |= 1 << (nr % 8);
}

static inline void mask_clear(struct mask *m, unsigned int nr)
{
	m->bits[nr / 8] &= ~(1 << (nr % 8));
}

static inline bool mask_test(const struct mask *m, unsigned int nr)
{
	return nr < m->nbits && (m->bits[nr / 8] & (1 << (nr % 8)));
}

/* Everything up to SECCOMP_MASK_MAX_BITS allowed but @nr. */
static inline void mask_all_but(struct mask *m, unsigned int nr)
{
	mask_all(m, SECCOMP_MASK_MAX_BITS);
	mask_clear(m, nr);
}

/* The set bits in the kernel's bitmap list format (%*pbl): "0-3,15". */
static inline void mask_format(const struct mask *m, char *buf, size_t len)
{
	unsigned int i = 0, start;
	size_t pos = 0;

	buf[0] = '\0';
	while (i < m->nbits) {
		if (!mask_test(m, i)) {
			i++;
			continue;
		}
		start = i;
		while (i + 1 < m->nbits && mask_test(m, i + 1))
			i++;
		if (start == i)
			pos += snprintf(buf + pos, len - pos, "%s%u",
					pos ? "," : "", start);
		else
			pos += snprintf(buf + pos, len - pos, "%s%u-%u",
					pos ? "," : "", start, i);
		i++;
	}
}

static inline void mask_entry(struct seccomp_mask *e, __u32 arch, const struct mask *m)
{
	memset(e, 0, sizeof(*e));
	e->arch = arch;
	e->nbits = m->nbits;
	e->bits = (uintptr_t)m->bits;
}

static inline int sys_seccomp(unsigned int op, unsigned int flags, void *args)
{
	return syscall(__NR_seccomp, op, flags, args);
}

static inline int set_nnp(void)
{
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

/* Install or tighten the mask of this program's ABI through prctl(). */
static inline int mask_prctl(const struct mask *m)
{
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK, m->bits, m->nbits, 0);
}

/* Install or tighten the masks of @n ABIs through seccomp(2). */
static inline int mask_seccomp(unsigned int n, const __u32 *arch,
			       const struct mask *const *m)
{
	struct seccomp_mask e[4];
	struct seccomp_mask_set set = {
		.nr_masks = n,
		.masks = (uintptr_t)e,
	};
	unsigned int i;

	for (i = 0; i < n && i < 4; i++)
		mask_entry(&e[i], arch[i], m[i]);
	return sys_seccomp(SECCOMP_SET_MODE_MASK, 0, &set);
}

static inline int mask_seccomp1(__u32 arch, const struct mask *m)
{
	return mask_seccomp(1, &arch, &m);
}

/* An allow-everything BPF filter (mode 2). */
static inline int filter_allow_all(void)
{
	struct sock_filter insn[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = 1,
		.filter = insn,
	};

	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

/* Drop CAP_SYS_ADMIN from the effective set, without libcap. */
static inline int drop_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(__NR_capget, &hdr, data))
		return -1;
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &=
		~CAP_TO_MASK(CAP_SYS_ADMIN);
	return syscall(__NR_capset, &hdr, data);
}

/* Does the kernel have the ABI that is not this program's own? */
static inline bool kernel_is_64bit(void)
{
	struct utsname u;

	return !uname(&u) && !strcmp(u.machine, "x86_64");
}

/*
 * Can this program use threads? glibc's futex calls of 32-bit programs
 * need CONFIG_COMPAT_32BIT_TIME on a 64-bit kernel, and abort without it.
 */
static inline bool require_threads(struct __test_metadata *const _metadata)
{
	unsigned int word = 0;

	if (syscall(__NR_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) < 0)
		SKIP(return false, "CONFIG_COMPAT_32BIT_TIME not enabled (futex: %s)",
		     strerror(errno));
	return true;
}

/*
 * Is this program's ABI the compat one, so that its mask is shown on the
 * Seccomp_mask_compat line?
 */
static inline bool self_is_compat(void)
{
#if X86_BUILD == 32
	return kernel_is_64bit();
#else
	return false;
#endif
}

/*
 * Probe for the mask mode with a valid call in a throwaway child: a kernel
 * without it answers EINVAL to mode 3 and to operation 4, a kernel with it
 * installs the mask. Returns 1 when supported, 0 when not, and -errno for
 * any other answer.
 */
static inline int mask_probe(void)
{
	struct mask m;
	int status, ret;
	pid_t pid;

	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0)
		return 0;
	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	pid = child_fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (set_nnp())
			_exit(2);
		ret = mask_prctl(&m);
		if (ret == 0)
			_exit(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3 ? 0 : 3);
		if (errno != EINVAL)
			_exit(100 + errno);
		if (mask_seccomp1(SELF_ARCH, &m) == 0 || errno != EINVAL)
			_exit(4);
		_exit(1);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -ECHILD;
	switch (WEXITSTATUS(status)) {
	case 0:
		return 1;
	case 1:
		return 0;
	default:
		return -WEXITSTATUS(status);
	}
}

/* False, with the test marked skipped, when the mask mode is missing. */
static inline bool require_mask(struct __test_metadata *const _metadata)
{
	int probe = mask_probe();

	if (probe == 0)
		SKIP(return false, "CONFIG_SECCOMP_MASK not enabled (mode 3 answers EINVAL)");
	ASSERT_EQ(1, probe) {
		TH_LOG("the mask mode probe gave an unexpected answer");
	}
	return true;
}

#if X86_BUILD == 64
/* A 32-bit (ia32) syscall from 64-bit code. Pointers must be below 4 GiB. */
static inline long int80(long nr, long a, long b, long c)
{
	long ret;

	asm volatile ("int $0x80"
		      : "=a" (ret)
		      : "a" (nr), "b" (a), "c" (b), "d" (c)
		      : "r8", "r9", "r10", "r11", "memory");
	return ret;
}

/* A page below 4 GiB, for int80() pointer arguments. */
static inline void *low_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * Does the kernel run ia32 syscalls? Without CONFIG_IA32_EMULATION (or
 * with ia32_emulation=0), int $0x80 gets the task a SIGSEGV.
 */
static inline bool ia32_available(void)
{
	int status;
	pid_t pid = child_fork();

	if (pid == 0)
		_exit(int80(NR32_getpid, 0, 0, 0) == getpid() ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static inline bool require_ia32(struct __test_metadata *const _metadata)
{
	if (!ia32_available())
		SKIP(return false, "CONFIG_IA32_EMULATION not enabled (int $0x80 does not work)");
	return true;
}
#endif

#if X86_BUILD == 32
/*
 * A 64-bit syscall from 32-bit code: far jump into the 64-bit code segment
 * (__USER_CS), "syscall", and an indirect far jump back to __USER32_CS
 * (not lretq, which QEMU's TCG mishandles with SMAP on).
 */
static inline long syscall64(long nr, long a, long b, long c)
{
	long ret = nr;

	asm volatile ("jmp $0x33, $1f\n\t"
		      "1:\n\t"
		      ".code64\n\t"
		      "movl %%edi, %%edi\n\t"
		      "movl %%esi, %%esi\n\t"
		      "movl %%edx, %%edx\n\t"
		      "syscall\n\t"
		      "subq $8, %%rsp\n\t"
		      "movl $2f, (%%rsp)\n\t"
		      "movl $0x23, 4(%%rsp)\n\t"
		      "ljmpl *(%%rsp)\n\t"
		      "2:\n\t"
		      ".code32\n\t"
		      "addl $8, %%esp\n\t"
		      : "+a" (ret), "+D" (a), "+S" (b), "+d" (c)
		      :
		      : "ecx", "memory");
	return ret;
}
#endif

/* Read /proc/<pid>/status (pid 0: self) into @buf. */
static inline int read_status(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n, off = 0;
	int fd;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + off, len - 1 - off)) > 0)
		off += n;
	close(fd);
	if (n < 0)
		return -1;
	buf[off] = '\0';
	return 0;
}

/*
 * The value of the "@key:\t" line of a status buffer, copied into @val;
 * returns false when there is no such line.
 */
static inline bool status_field(const char *buf, const char *key, char *val,
				size_t len)
{
	size_t klen = strlen(key);
	const char *p = buf, *end;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':' &&
		    p[klen + 1] == '\t') {
			p += klen + 2;
			end = strchrnul(p, '\n');
			snprintf(val, len, "%.*s", (int)(end - p), p);
			return true;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

#endif /* _SELFTESTS_SECCOMP_MASK_COMMON_H */
