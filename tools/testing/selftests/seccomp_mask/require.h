/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: what the kernel under test must have
 *
 * With SECCOMP_MASK_REQUIRED=1 in the environment (the harness sets it
 * when the kernel under test has CONFIG_SECCOMP_MASK=y), a missing or
 * broken mask mode fails every test instead of skipping it.
 */

#ifndef _SELFTESTS_SECCOMP_MASK_REQUIRE_H
#define _SELFTESTS_SECCOMP_MASK_REQUIRE_H

#include "abi.h"
#include "child.h"
#include "helper.h"
#include "install.h"

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

/*
 * For a fixture's setup: require_mask(), then page_before_hole(), which
 * must not fail; NULL when the test is skipped. The teardown page_put()s it.
 */
static inline unsigned char *
require_mask_page(struct __test_metadata *const _metadata)
{
	unsigned char *page;

	if (!require_mask(_metadata))
		return NULL;
	page = page_before_hole();
	ASSERT_TRUE(!!page);
	return page;
}
#endif

#ifndef SECCOMP_MASK_NO_HARNESS
/* require_mask(), then require_threads(). */
static inline bool require_mask_threads(struct __test_metadata *const _metadata)
{
	return require_mask(_metadata) && require_threads(_metadata);
}

/*
 * require_mask(), then fork_child(): the pid in the parent, 0 in the
 * child, and -1 when the test is skipped (no mask mode): the test then
 * returns.
 */
static inline pid_t fork_mask_child(struct __test_metadata *const _metadata)
{
	return require_mask(_metadata) ? fork_child(_metadata) : -1;
}

/* fork_mask_child() for fork_masked(): -1 when the test is skipped. */
static inline pid_t fork_mask_masked(struct __test_metadata *const _metadata,
				     bool use_seccomp, const struct mask *m)
{
	return require_mask(_metadata) ?
	       fork_masked(_metadata, use_seccomp, m) : -1;
}

/* fork_mask_child(), with require_mask_threads() for require_mask(). */
static inline pid_t
fork_mask_threads_child(struct __test_metadata *const _metadata)
{
	return require_mask_threads(_metadata) ? fork_child(_metadata) : -1;
}
#endif

#if X86_BUILD == 64
/*
 * Does the kernel run ia32 syscalls? Without CONFIG_IA32_EMULATION (or
 * with ia32_emulation=0), int $0x80 gets the task a SIGSEGV.
 */
static inline bool ia32_available(void)
{
	int status;
	pid_t pid = child_fork();

	if (pid == 0)
		_exit(other_call(OTHER_NR_getpid, 0, 0, 0) == getpid() ? 0 : 1);
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

/*
 * Does the kernel have the ABI that is not this build's own, working? On
 * arm64: can this program execute the mask_helper of the other execution
 * state (helper.h)? False on other architectures.
 */
static inline bool other_abi_available(void)
{
#if X86_BUILD == 64
	return ia32_available();
#elif X86_BUILD == 32
	return kernel_is_64bit();
#elif defined(ARM64_BUILD)
	return arm64_other_state_available();
#else
	return false;
#endif
}

/* Why other_abi_available() may be false, for a skip. */
#if X86_BUILD == 64
#define OTHER_ABI_WHY	"CONFIG_IA32_EMULATION not enabled: int $0x80 does not work"
#elif X86_BUILD == 32
#define OTHER_ABI_WHY	"a 32-bit kernel: no CONFIG_64BIT"
#elif ARM64_BUILD == 64
#define OTHER_ABI_WHY	"mask_helper_32 does not run: no CONFIG_COMPAT, no AArch32 at EL0, or not built"
#elif ARM64_BUILD == 32
#define OTHER_ABI_WHY	"mask_helper_64 does not run: not an arm64 kernel, or not built"
#else
#define OTHER_ABI_WHY	"one ABI only"
#endif

#ifndef SECCOMP_MASK_NO_HARNESS
/*
 * The second ABI (other_abi_available()): false without it, with the test
 * skipped, or failed with SECCOMP_MASK_REQUIRED=1 (the harness kernel has
 * CONFIG_IA32_EMULATION or CONFIG_COMPAT, and builds the mask_helpers).
 */
static inline bool require_other_abi(struct __test_metadata *const _metadata)
{
	if (!other_abi_available())
		SKIP_UNLESS_REQUIRED(return false,
				     "the kernel has no second ABI (%s)",
				     OTHER_ABI_WHY);
	return true;
}

/*
 * require_mask(), then, when @other_abi, require_other_abi(): false, with
 * the test skipped (or failed: required), without either.
 */
static inline bool require_mask_with_abi(struct __test_metadata *const _metadata,
					 bool other_abi)
{
	if (!require_mask(_metadata))
		return false;
	return !other_abi || require_other_abi(_metadata);
}
#endif

#endif /* _SELFTESTS_SECCOMP_MASK_REQUIRE_H */
