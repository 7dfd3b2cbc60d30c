// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: every row of the errors table, one case each
 */

#include "common.h"

enum ptr_kind { PTR_OK, PTR_BAD, PTR_NULL };
enum arch_kind { ARCH_NONE, ARCH_SELF, ARCH_OTHER, ARCH_BOGUS };
enum prior_mode { PRIOR_NONE, PRIOR_FILTER, PRIOR_MASK };

struct entry {
	enum arch_kind arch;
	unsigned int nbits;
	enum ptr_kind bits;
	bool all_set;
};

FIXTURE(errors) {};

FIXTURE_VARIANT(errors) {
	bool use_seccomp;
	enum prior_mode prior;
	int expected_errno;	/* 0: the call succeeds */
	/* prctl(PR_SET_SECCOMP, 3, bits, nbits, arg5) */
	unsigned long nbits;
	enum ptr_kind bits;
	unsigned long arg5;
	/* seccomp(SECCOMP_SET_MODE_MASK, flags, set) */
	unsigned int flags;
	unsigned int reserved;
	unsigned int nr_masks;
	enum ptr_kind set;
	enum ptr_kind masks;
	struct entry e[3];
};

FIXTURE_SETUP(errors) {}
FIXTURE_TEARDOWN(errors) {}

/* EINVAL */
FIXTURE_VARIANT_ADD(errors, prctl_nbits_above_max_is_einval) {
	.expected_errno = EINVAL,
	.nbits = SECCOMP_MASK_MAX_BITS + 1,
};

FIXTURE_VARIANT_ADD(errors, seccomp_nbits_above_max_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS + 1 } },
};

FIXTURE_VARIANT_ADD(errors, prctl_arg5_nonzero_is_einval) {
	.expected_errno = EINVAL,
	.nbits = SECCOMP_MASK_MAX_BITS,
	.arg5 = 1,
};

FIXTURE_VARIANT_ADD(errors, seccomp_flags_nonzero_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.flags = 1,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_reserved_nonzero_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.reserved = 1,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_nr_masks_zero_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 0,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_nr_masks_above_abis_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 1000,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_unknown_arch_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 1,
	.e = { { ARCH_BOGUS, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_arch_listed_twice_is_einval) {
	.use_seccomp = true,
	.expected_errno = EINVAL,
	.nr_masks = 2,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS },
	       { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, prctl_in_filter_mode_is_einval) {
	.prior = PRIOR_FILTER,
	.expected_errno = EINVAL,
	.nbits = SECCOMP_MASK_MAX_BITS,
};

FIXTURE_VARIANT_ADD(errors, seccomp_in_filter_mode_is_einval) {
	.use_seccomp = true,
	.prior = PRIOR_FILTER,
	.expected_errno = EINVAL,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/* EFAULT */
FIXTURE_VARIANT_ADD(errors, prctl_bits_unreadable_is_efault) {
	.expected_errno = EFAULT,
	.nbits = 64,
	.bits = PTR_BAD,
};

FIXTURE_VARIANT_ADD(errors, seccomp_bits_unreadable_is_efault) {
	.use_seccomp = true,
	.expected_errno = EFAULT,
	.nr_masks = 1,
	.e = { { ARCH_SELF, 64, PTR_BAD } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_set_unreadable_is_efault) {
	.use_seccomp = true,
	.expected_errno = EFAULT,
	.set = PTR_BAD,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_masks_unreadable_is_efault) {
	.use_seccomp = true,
	.expected_errno = EFAULT,
	.masks = PTR_BAD,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/* EPERM */
FIXTURE_VARIANT_ADD(errors, prctl_superset_is_eperm) {
	.prior = PRIOR_MASK,
	.expected_errno = EPERM,
	.nbits = SECCOMP_MASK_MAX_BITS,
};

FIXTURE_VARIANT_ADD(errors, seccomp_superset_is_eperm) {
	.use_seccomp = true,
	.prior = PRIOR_MASK,
	.expected_errno = EPERM,
	.nr_masks = 1,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS } },
};

/* Not errors: no bits to read when nbits is 0. */
FIXTURE_VARIANT_ADD(errors, seccomp_null_bits_with_zero_nbits_is_valid) {
	.use_seccomp = true,
	.expected_errno = 0,
	.nr_masks = 2,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS },
	       { ARCH_OTHER, 0, PTR_NULL } },
};

FIXTURE_VARIANT_ADD(errors, seccomp_bad_bits_with_zero_nbits_is_valid) {
	.use_seccomp = true,
	.expected_errno = 0,
	.nr_masks = 2,
	.e = { { ARCH_SELF, SECCOMP_MASK_MAX_BITS },
	       { ARCH_OTHER, 0, PTR_BAD } },
};

static bool other_abi_available(void)
{
#if X86_BUILD == 64
	return ia32_available();
#elif X86_BUILD == 32
	return kernel_is_64bit();
#else
	return false;
#endif
}

static __u32 arch_value(enum arch_kind kind)
{
	switch (kind) {
	case ARCH_SELF:
		return SELF_ARCH;
	case ARCH_OTHER:
#if X86_BUILD == 64
		return AUDIT_ARCH_I386;
#elif X86_BUILD == 32
		return AUDIT_ARCH_X86_64;
#else
		return 0;
#endif
	case ARCH_BOGUS:
		/* No kernel runs Alpha syscalls next to this ABI. */
		return AUDIT_ARCH_ALPHA;
	default:
		return 0;
	}
}

/* An address with nothing mapped. */
static void *unmapped_address(void)
{
	void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p, 4096);
	return p;
}

static void *ptr(enum ptr_kind kind, void *ok, void *bad)
{
	switch (kind) {
	case PTR_BAD:
		return bad;
	case PTR_NULL:
		return NULL;
	default:
		return ok;
	}
}

TEST_F(errors, call)
{
	static struct seccomp_mask e[1024];
	static struct mask m[3];
	struct mask all, prior;
	void *bad;
	pid_t pid;
	int i;

	if (!require_mask(_metadata))
		return;
	for (i = 0; i < 3; i++)
		if (variant->e[i].arch == ARCH_OTHER && !other_abi_available())
			SKIP(return, "the kernel has no second ABI (CONFIG_IA32_EMULATION)");
	bad = unmapped_address();
	ASSERT_TRUE(!!bad);
	mask_all(&all, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&prior, __NR_getppid);

	for (i = 0; i < 3; i++) {
		mask_all(&m[i], SECCOMP_MASK_MAX_BITS);
		mask_entry(&e[i], arch_value(variant->e[i].arch), &m[i]);
		e[i].nbits = variant->e[i].nbits;
		e[i].bits = (uintptr_t)ptr(variant->e[i].bits, m[i].bits, bad);
	}
	/* Entries beyond the listed ones repeat this ABI. */
	for (; i < 1024; i++)
		mask_entry(&e[i], SELF_ARCH, &all);

	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct seccomp_mask_set set = {
			.nr_masks = variant->nr_masks,
			.reserved = variant->reserved,
			.masks = (uintptr_t)ptr(variant->masks, e, bad),
		};
		int mode = 0, ret;

		CHILD_ASSERT(set_nnp() == 0);
		if (variant->prior == PRIOR_FILTER) {
			CHILD_ASSERT(filter_allow_all() == 0);
			mode = 2;
		} else if (variant->prior == PRIOR_MASK) {
			CHILD_ASSERT(mask_prctl(&prior) == 0);
			mode = 3;
		}

		errno = 0;
		if (variant->use_seccomp)
			ret = sys_seccomp(SECCOMP_SET_MODE_MASK, variant->flags,
					  ptr(variant->set, &set, bad));
		else
			ret = prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK,
				    ptr(variant->bits, all.bits, bad),
				    variant->nbits, variant->arg5);

		if (variant->expected_errno) {
			CHILD_ASSERT(ret == -1);
			CHILD_ASSERT(errno == variant->expected_errno);
			/* Nothing changed. */
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == mode);
			if (mode == 3) {
				/* The old mask still holds. */
				syscall(__NR_getppid);
				_exit(10);
			}
		} else {
			CHILD_ASSERT(ret == 0);
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		}
		_exit(0);
	}
	if (variant->expected_errno && variant->prior == PRIOR_MASK)
		ASSERT_CHILD_KILLED(pid, SIGSYS);
	else
		ASSERT_CHILD_OK(pid);
}

/*
 * ENOMEM: fail the Nth allocation of the call (fail-nth with failslab),
 * for every N until the call succeeds; each failure must leave the task
 * unchanged.
 */
static bool write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s);
}

static bool read_file(const char *path, char *buf, size_t len)
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
	return true;
}

#define FAILSLAB_WAIT "/sys/kernel/debug/failslab/ignore-gfp-wait"
#define FAILSLAB_VERBOSE "/sys/kernel/debug/failslab/verbose"

FIXTURE(enomem) {
	char saved_wait[16];
	char saved_verbose[16];
	bool restore;
};

FIXTURE_SETUP(enomem)
{
	if (access("/proc/self/fail-nth", F_OK))
		SKIP(return, "CONFIG_FAULT_INJECTION not enabled (no /proc/self/fail-nth)");
	if (!read_file(FAILSLAB_WAIT, self->saved_wait,
		       sizeof(self->saved_wait)))
		SKIP(return, "no %s: CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS, debugfs?",
		     FAILSLAB_WAIT);
	ASSERT_TRUE(read_file(FAILSLAB_VERBOSE, self->saved_verbose,
			      sizeof(self->saved_verbose)));
	self->restore = true;
	ASSERT_TRUE(write_file(FAILSLAB_WAIT, "N"));
	/* No stack dump in the kernel log for each injected failure. */
	ASSERT_TRUE(write_file(FAILSLAB_VERBOSE, "0"));
}

FIXTURE_TEARDOWN(enomem)
{
	if (self->restore) {
		write_file(FAILSLAB_WAIT, self->saved_wait);
		write_file(FAILSLAB_VERBOSE, self->saved_verbose);
	}
}

FIXTURE_VARIANT(enomem) {
	bool use_seccomp;
	bool tighten;
};

FIXTURE_VARIANT_ADD(enomem, prctl_install) {
	.use_seccomp = false,
};

FIXTURE_VARIANT_ADD(enomem, seccomp_install) {
	.use_seccomp = true,
};

FIXTURE_VARIANT_ADD(enomem, prctl_tighten) {
	.use_seccomp = false,
	.tighten = true,
};

FIXTURE_VARIANT_ADD(enomem, seccomp_tighten) {
	.use_seccomp = true,
	.tighten = true,
};

TEST_F(enomem, failed_allocation_changes_nothing)
{
	struct mask old, new;
	int nth, saw_enomem = 0;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	mask_all(&old, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&new, __NR_getppid);

	for (nth = 1; nth < 100; nth++) {
		int status;

		pid = child_fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			char path[64], n[16];
			int fd, ret, err;

			CHILD_ASSERT(set_nnp() == 0);
			if (variant->tighten)
				CHILD_ASSERT(mask_prctl(&old) == 0);
			snprintf(path, sizeof(path),
				 "/proc/self/task/%ld/fail-nth",
				 (long)syscall(__NR_gettid));
			fd = open(path, O_WRONLY | O_CLOEXEC);
			CHILD_ASSERT(fd >= 0);
			snprintf(n, sizeof(n), "%d", nth);
			CHILD_ASSERT(write(fd, n, strlen(n)) > 0);
			if (variant->use_seccomp)
				ret = mask_seccomp1(SELF_ARCH, &new);
			else
				ret = mask_prctl(&new);
			err = errno;
			CHILD_ASSERT(write(fd, "0", 1) > 0);
			if (ret == 0)
				_exit(1);	/* no allocation failed */
			errno = err;
			/*
			 * EFAULT: CONFIG_FAULT_INJECTION_USERCOPY failed a
			 * copy instead of an allocation.
			 */
			CHILD_ASSERT(err == ENOMEM || err == EFAULT);
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) ==
				     (variant->tighten ? 3 : 0));
			/* getppid is still allowed: nothing changed. */
			CHILD_ASSERT(syscall(__NR_getppid) == getppid());
			_exit(err == ENOMEM ? 0 : 2);
		}
		status = child_wait(_metadata, pid);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
			break;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
			continue;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			TH_LOG("failing allocation %d", nth);
			child_describe(_metadata, status, __LINE__);
			ASSERT_TRUE(0);
		}
		saw_enomem++;
	}
	ASSERT_GT(100, nth);
	if (!saw_enomem)
		SKIP(return, "no allocation of the call could be failed");
}

TEST_HARNESS_MAIN
