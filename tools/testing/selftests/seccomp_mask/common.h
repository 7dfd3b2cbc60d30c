/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: shared helpers
 *
 * Every test runs the code under a mask in a child (child_fork()) and
 * checks how that child ended (ASSERT_CHILD_OK(), ASSERT_CHILD_KILLED()).
 * In the child, CHILD_ASSERT() records the failing line in a page shared
 * with the parent and exits, so the parent's report names it. A call the
 * mask must deny is made with CHILD_DENIED(), which marks that page right
 * before and right after the call: ASSERT_CHILD_DENIED() then proves the
 * child died by SIGSYS at that call, not before it and not after it.
 *
 * With SECCOMP_MASK_REQUIRED=1 in the environment (the harness sets it
 * when the kernel under test has CONFIG_SECCOMP_MASK=y), a missing or
 * broken mask mode fails every test instead of skipping it.
 *
 * Programs with a main() of their own (the fuzzer, the lifetime test)
 * define SECCOMP_MASK_NO_HARNESS before including this file: they get
 * every helper but those that report through the kselftest harness.
 */

#ifndef _SELFTESTS_SECCOMP_MASK_COMMON_H
#define _SELFTESTS_SECCOMP_MASK_COMMON_H

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

#ifndef SECCOMP_MASK_NO_HARNESS
#include "../kselftest_harness.h"
#else
#include "../kselftest.h"
#endif

#include "kselftest_compat.h"

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
	/* CHILD_DENIED(): the line of the call, and whether it returned. */
	int denied_line;
	int denied_returned;
	long denied_ret;
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

/* A child dies with the test, so that a failed test leaves none behind. */
static inline pid_t child_fork(void)
{
	pid_t pid;

	memset(child_report, 0, sizeof(*child_report));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0)
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	return pid;
}

/*
 * CLOCK_MONOTONIC in seconds: every bound on a wait is a deadline on this
 * clock, never a count of sleeps (a sleep under load, or under QEMU's TCG,
 * takes longer than asked; one a signal cuts short takes less).
 */
static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* How long a test waits for a child (or a ptrace stop) at the most. */
#define CHILD_TIMEOUT_MS	20000

/*
 * waitpid() for at most @ms milliseconds: past that, @pid is killed and
 * reaped, and the return is 0.
 */
static inline pid_t waitpid_timeout(pid_t pid, int *status, int options,
				    int ms)
{
	struct timespec step = { 0, 1000 * 1000 };
	double deadline = now() + ms / 1000.0;
	pid_t ret;

	for (;;) {
		ret = waitpid(pid, status, options | WNOHANG);
		if (ret)
			return ret;
		if (now() >= deadline)
			break;
		nanosleep(&step, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, status, options);
	return 0;
}

#ifndef SECCOMP_MASK_NO_HARNESS
static inline int child_wait(struct __test_metadata *const _metadata, pid_t pid)
{
	int status;
	pid_t ret = waitpid_timeout(pid, &status, 0, CHILD_TIMEOUT_MS);

	ASSERT_NE(0, ret) {
		TH_LOG("child %d still running after %d ms: killed", pid,
		       CHILD_TIMEOUT_MS);
	}
	ASSERT_EQ(pid, ret);
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

/*
 * In a child: make @call, which the mask must deny. The shared page says
 * which line made it (written right before) and whether it returned
 * (written right after), so that the parent can tell a kill at this call
 * from a kill at an earlier or a later one.
 */
#define CHILD_DENIED(call)						\
	do {								\
		__atomic_store_n(&child_report->denied_line, __LINE__,	\
				 __ATOMIC_SEQ_CST);			\
		child_report->denied_ret = (long)(call);		\
		__atomic_store_n(&child_report->denied_returned, 1,	\
				 __ATOMIC_SEQ_CST);			\
	} while (0)

/*
 * How the last CHILD_DENIED() went: true when the child was killed by
 * @sig at that call; false (and a log) if not.
 */
static inline bool denied_call_killed_by(struct __test_metadata *const _metadata,
					 int status, int sig, int line)
{
	int at = __atomic_load_n(&child_report->denied_line, __ATOMIC_SEQ_CST);
	int ret = __atomic_load_n(&child_report->denied_returned,
				  __ATOMIC_SEQ_CST);

	if (!at) {
		TH_LOG("line %d: the child did not reach its denied call",
		       line);
	} else if (ret) {
		TH_LOG("line %d: the denied call at line %d returned %ld",
		       line, at, child_report->denied_ret);
	} else if (!WIFSIGNALED(status) || WTERMSIG(status) != sig) {
		TH_LOG("line %d: the call at line %d did not return, yet no signal %d",
		       line, at, sig);
	} else {
		return true;
	}
	child_describe(_metadata, status, line);
	return false;
}

static inline bool denied_call_killed(struct __test_metadata *const _metadata,
				      int status, int line)
{
	return denied_call_killed_by(_metadata, status, SIGSYS, line);
}

static inline void
__assert_child_killed_at(struct __test_metadata *const _metadata, pid_t pid,
			 int sig, int line)
{
	int status = child_wait(_metadata, pid);

	ASSERT_TRUE(denied_call_killed_by(_metadata, status, sig, line));
}

#define __assert_child_denied(_metadata, pid, line) \
	__assert_child_killed_at(_metadata, pid, SIGSYS, line)

/*
 * Wait for @pid: it must have been killed by @sig at its CHILD_DENIED()
 * call (strict mode kills by SIGKILL).
 */
#define ASSERT_CHILD_KILLED_AT(pid, sig) \
	__assert_child_killed_at(_metadata, pid, sig, __LINE__)

/*
 * Wait for @pid: it must have been killed by SIGSYS at its CHILD_DENIED()
 * call: after reaching it, before it returned.
 */
#define ASSERT_CHILD_DENIED(pid) \
	__assert_child_denied(_metadata, pid, __LINE__)
#endif /* SECCOMP_MASK_NO_HARNESS */

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

/* Install or tighten the mask of this program's ABI, with an action. */
static inline int mask_prctl_action(const struct mask *m, unsigned long action)
{
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK, m->bits, m->nbits,
		     action);
}

/*
 * Install or tighten the masks of @n ABIs through seccomp(2), with @flags
 * and @action. With SECCOMP_MASK_FLAG_TSYNC, a positive return is the TID
 * of the thread that could not take them.
 */
static inline long mask_seccomp_set(unsigned int flags, __u32 action,
				    unsigned int n, const __u32 *arch,
				    const struct mask *const *m)
{
	struct seccomp_mask e[4];
	/* Version 3: the size first (uapi_fallback.h declares the layout). */
	struct seccomp_mask_set set = {
		.size = sizeof(struct seccomp_mask_set),
		.nr_masks = n,
		.action = action,
		.masks = (uintptr_t)e,
	};
	unsigned int i;

	for (i = 0; i < n && i < 4; i++)
		mask_entry(&e[i], arch[i], m[i]);
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK, flags, &set);
}

/* Install or tighten the masks of @n ABIs through seccomp(2). */
static inline int mask_seccomp(unsigned int n, const __u32 *arch,
			       const struct mask *const *m)
{
	return mask_seccomp_set(0, 0, n, arch, m);
}

static inline int mask_seccomp1(__u32 arch, const struct mask *m)
{
	return mask_seccomp(1, &arch, &m);
}

/*
 * Version 3: the feature query, seccomp(SECCOMP_GET_MASK_FEATURES, 0, @f)
 * with @f zeroed and its size that of this program's struct. 0, or -1
 * with errno.
 */
static inline int mask_features(struct seccomp_mask_features *f)
{
	memset(f, 0, sizeof(*f));
	f->size = sizeof(*f);
	return syscall(__NR_seccomp, SECCOMP_GET_MASK_FEATURES, 0, f);
}

/*
 * Two pages mapped read-write, the second one unmapped again: the first
 * page, whose last byte is the last readable one; NULL on failure. The
 * caller munmap()s the page.
 */
static inline unsigned char *page_before_hole(void)
{
	unsigned char *p = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (munmap(p + 4096, 4096)) {
		munmap(p, 2 * 4096);
		return NULL;
	}
	return p;
}

/* Install or tighten this program's ABI's mask, through either call. */
static inline int mask_install(bool use_seccomp, const struct mask *m)
{
	if (use_seccomp)
		return mask_seccomp1(SELF_ARCH, m);
	return mask_prctl(m);
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

/* Write @s to the file @path (a sysctl, a debugfs knob): true when all went. */
static inline bool write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s);
}

/* Read the file @path into @buf, without its first newline and what follows. */
static inline bool read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/*
 * /dev/kmsg, non-blocking, positioned after the last record logged so
 * far: what is read from it is what was logged since. -1 with errno when
 * it cannot be read.
 */
static inline int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int err;

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/*
 * Must the kernel under test have the mask mode? The harness exports
 * SECCOMP_MASK_REQUIRED=1 when it built the kernel with
 * CONFIG_SECCOMP_MASK=y: then a missing mask mode is a failure, not a skip.
 */
static inline bool mask_required(void)
{
	const char *e = getenv("SECCOMP_MASK_REQUIRED");

	return e && !strcmp(e, "1");
}

#ifndef SECCOMP_MASK_NO_HARNESS
/*
 * SKIP(@statement, @fmt, ...) for a kernel that lacks an option or a
 * feature the test needs, which @fmt names. With SECCOMP_MASK_REQUIRED=1
 * the test fails instead, with that reason: the harness builds its kernel
 * with every option these tests need (configs/tests.config and
 * configs/guest.config; this directory's config lists them). Only for
 * those: a missing privilege, an architecture the test is not written
 * for, or an option the harness kernel does not have stays a SKIP().
 */
#define SKIP_UNLESS_REQUIRED(statement, fmt, ...)			\
	do {								\
		skip_unless_required(_metadata, fmt, ##__VA_ARGS__);	\
		statement;						\
	} while (0)

/* SKIP_UNLESS_REQUIRED() but its @statement: returns only when skipped. */
static inline __printf(2, 3) void
skip_unless_required(struct __test_metadata *const _metadata,
		     const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (!mask_required())
		SKIP(return, "%s", why);
	ASSERT_TRUE(false) {
		TH_LOG("SECCOMP_MASK_REQUIRED=1, but %s", why);
	}
}

/*
 * Can this program use threads? glibc's futex calls of 32-bit programs
 * need CONFIG_COMPAT_32BIT_TIME on a 64-bit kernel, and abort without it.
 */
static inline bool require_threads(struct __test_metadata *const _metadata)
{
	unsigned int word = 0;

	if (syscall(__NR_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) < 0)
		SKIP_UNLESS_REQUIRED(return false,
				     "CONFIG_COMPAT_32BIT_TIME not enabled (futex: %s)",
				     strerror(errno));
	return true;
}
#endif

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
 * The /proc/<pid>/status line of the mask of this program's ABI, or with
 * @other_abi of the other x86 ABI: Seccomp_mask for the kernel's native
 * ABI, Seccomp_mask_compat for the compat one. (A macro: checkpatch takes
 * "static inline const" for a misplaced const.)
 */
#define mask_line(other_abi)						\
	(self_is_compat() != (other_abi) ? "Seccomp_mask_compat" :	\
	 "Seccomp_mask")

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

/*
 * The contract's detection: seccomp(SECCOMP_SET_MODE_MASK, 0, NULL) is
 * EFAULT with the mask mode, EINVAL without. Then mask_probe() must agree.
 * Returns 1 when the mask mode is there and works, 0 when the kernel has
 * none, and a negative value for any other answer (a broken mask mode).
 */
static inline int mask_mode_check(void)
{
	long ret = syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK, 0, NULL);
	int err = ret ? errno : 0;
	int probe;

	if (err != EFAULT && err != EINVAL)
		return -1000 - err;
	probe = mask_probe();
	if (err == EINVAL)
		return probe == 0 ? 0 : -2000 + probe;
	return probe;
}

#ifndef SECCOMP_MASK_NO_HARNESS
/*
 * False, with the test marked skipped, when the mask mode is missing; with
 * SECCOMP_MASK_REQUIRED=1, a missing or broken mask mode fails the test.
 */
static inline bool require_mask(struct __test_metadata *const _metadata)
{
	int check = mask_mode_check();

	if (check == 0)
		SKIP_UNLESS_REQUIRED(return false,
				     "the kernel has no mask mode (CONFIG_SECCOMP_MASK not enabled: mode 3 answers EINVAL)");
	ASSERT_EQ(1, check) {
		TH_LOG("the mask mode probe gave an unexpected answer (%d)",
		       check);
	}
	return true;
}
#endif

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

static inline long sys32(long nr, long a, long b, long c, long d, long e)
{
	long ret;

	asm volatile ("int $0x80"
		      : "=a" (ret)
		      : "a" (nr), "b" (a), "c" (b), "d" (c), "S" (d), "D" (e)
		      : "r8", "r9", "r10", "r11", "memory");
	return ret;
}

/* An x32 syscall: the 64-bit entry, X32_SYSCALL_BIT in the number. */
static inline long x32_syscall(long nr, long a, long b, long c)
{
	return sys64(nr | X32_SYSCALL_BIT, a, b, c, 0, 0);
}

/* A 32-bit (ia32) syscall from 64-bit code. Pointers must be below 4 GiB. */
static inline long int80(long nr, long a, long b, long c)
{
	return sys32(nr, a, b, c, 0, 0);
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

#ifndef SECCOMP_MASK_NO_HARNESS
static inline bool require_ia32(struct __test_metadata *const _metadata)
{
	if (!ia32_available())
		SKIP_UNLESS_REQUIRED(return false,
				     "CONFIG_IA32_EMULATION not enabled (int $0x80 does not work)");
	return true;
}
#endif
#endif

#if X86_BUILD == 32
static inline long sys32(long nr, long a, long b, long c, long d, long e)
{
	long ret;

	asm volatile ("int $0x80"
		      : "=a" (ret)
		      : "a" (nr), "b" (a), "c" (b), "d" (c), "S" (d), "D" (e)
		      : "memory");
	return ret;
}

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

/* A 64-bit syscall from 32-bit code. */
static inline long syscall64(long nr, long a, long b, long c)
{
	return sys64(nr, a, b, c, 0, 0);
}
#endif

/*
 * Does the kernel have the x86 ABI that is not this build's own, working?
 * False on other architectures.
 */
static inline bool other_abi_available(void)
{
#if X86_BUILD == 64
	return ia32_available();
#elif X86_BUILD == 32
	return kernel_is_64bit();
#else
	return false;
#endif
}

#if defined(X86_BUILD) && !defined(SECCOMP_MASK_NO_HARNESS)
/* False, with the test skipped (or failed: required), without that ABI. */
static inline bool require_other_abi(struct __test_metadata *const _metadata)
{
	const char *why = X86_BUILD == 64 ?
		"CONFIG_IA32_EMULATION not enabled: int $0x80 does not work" :
		"a 32-bit kernel: no CONFIG_64BIT";

	if (!other_abi_available())
		SKIP_UNLESS_REQUIRED(return false,
				     "the kernel has no second ABI (%s)", why);
	return true;
}
#endif

/*
 * A child that waits for the parent's word, for the parent to read its
 * status meanwhile. Each side closes the pipe ends it does not use, so
 * that either side ending (a failed assertion included) ends the other's
 * read at once: no wait on a dead peer.
 */
struct handshake {
	int ready[2];	/* child -> parent: installed */
	int done[2];	/* parent -> child: read, you may exit */
};

static inline int handshake_init(struct handshake *h)
{
	if (pipe(h->ready))
		return -1;
	if (pipe(h->done)) {
		close(h->ready[0]);
		close(h->ready[1]);
		return -1;
	}
	return 0;
}

/* In the child, right after fork(), before any mask (close is a syscall). */
static inline void handshake_child_begin(struct handshake *h)
{
	close(h->ready[0]);
	close(h->done[1]);
}

/* In the child: say ready, then wait until the parent closes its end. */
static inline bool handshake_child_ready(struct handshake *h)
{
	char c;

	return write(h->ready[1], "x", 1) == 1 && read(h->done[0], &c, 1) >= 0;
}

/* In the parent, after fork(): true when the child said it is ready. */
static inline bool handshake_wait_child(struct handshake *h)
{
	char c;

	close(h->ready[1]);
	close(h->done[0]);
	return read(h->ready[0], &c, 1) == 1;
}

/* In the parent: let the child go on (and exit). */
static inline void handshake_release_child(struct handshake *h)
{
	close(h->done[1]);
	close(h->ready[0]);
}

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

/*
 * Version 2: the action a denied call takes, as Seccomp_mask_action shows
 * it, and a SIGSYS handler that records what SECCOMP_RET_TRAP delivers.
 */
static inline void action_format(__u32 action, char *buf, size_t len)
{
	switch (action & SECCOMP_RET_ACTION_FULL) {
	case 0:
	case SECCOMP_RET_KILL_PROCESS:
		snprintf(buf, len, "kill_process");
		break;
	case SECCOMP_RET_TRAP:
		snprintf(buf, len, "trap");
		break;
	case SECCOMP_RET_ERRNO:
		snprintf(buf, len, "errno %u", action & SECCOMP_RET_DATA);
		break;
	case SECCOMP_RET_LOG:
		snprintf(buf, len, "log");
		break;
	default:
		snprintf(buf, len, "?");
	}
}

/* Does the "@key:" line of /proc/@pid/status (pid 0: self) read @want? */
static inline bool status_is(pid_t pid, const char *key, const char *want)
{
	char buf[8192], val[4096];

	return !read_status(pid, buf, sizeof(buf)) &&
	       status_field(buf, key, val, sizeof(val)) && !strcmp(val, want);
}

/* Is @m the mask of this program's ABI in /proc/@pid/status? */
static inline bool status_shows_mask(pid_t pid, const struct mask *m)
{
	char want[4096];

	mask_format(m, want, sizeof(want));
	return status_is(pid, mask_line(false), want);
}

/* Is @action the Seccomp_mask_action of /proc/@pid/status? */
static inline bool status_shows_action(pid_t pid, __u32 action)
{
	char want[64];

	action_format(action, want, sizeof(want));
	return status_is(pid, "Seccomp_mask_action", want);
}

struct sigsys_seen {
	int count;
	int code;
	int err;
	int nr;
	unsigned int arch;
	pid_t tid;
};

static struct sigsys_seen sigsys_seen;

static inline void sigsys_record(int sig, siginfo_t *si, void *ctx)
{
	sigsys_seen.count++;
	sigsys_seen.code = si->si_code;
	sigsys_seen.err = si->si_errno;
	sigsys_seen.nr = si->si_syscall;
	sigsys_seen.arch = si->si_arch;
	sigsys_seen.tid = syscall(__NR_gettid);
}

/* Catch SIGSYS with sigsys_record(). */
static inline int catch_sigsys(void)
{
	struct sigaction sa = {
		.sa_sigaction = sigsys_record,
		.sa_flags = SA_SIGINFO,
	};

	memset(&sigsys_seen, 0, sizeof(sigsys_seen));
	return sigaction(SIGSYS, &sa, NULL);
}

#ifdef X86_BUILD
/* The x86 ABI that is not this program's own. */
#if X86_BUILD == 64
#define OTHER_ARCH		ARCH_I386
#else
#define OTHER_ARCH		ARCH_X86_64
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

/* A call through this program's ABI, -errno on failure. */
static inline long own_call(long nr)
{
	return abi_call(SELF_ARCH, nr, nr, 0, 0, 0);
}
#endif

#endif /* _SELFTESTS_SECCOMP_MASK_COMMON_H */
