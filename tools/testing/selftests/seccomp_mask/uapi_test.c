// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode, version 3: the extensible struct seccomp_mask_set.
 *
 * The set carries its size first and is read as sched_setattr() reads
 * struct sched_attr (build/v3/uapi.txt, rules 2 to 6 of
 * seccomp(SECCOMP_SET_MODE_MASK)). The groups and the rule each guards:
 *
 * set_size.install: one set per variant, placed so that it ends exactly
 *	where the mapping ends (the byte after its size bytes is not
 *	mapped: the kernel must read no byte past size):
 *	- size 0, 1, 16 (the version 2 struct), 23: below the first
 *	  layout, EINVAL (rule 3);
 *	- size 24, 32 and 4096 with a zero tail: accepted and behaving as
 *	  24, the mask really installed (mode 3, the /proc lines, a denied
 *	  call killed) (rule 5, "a size of 32 with 8 zero bytes ...");
 *	- a non-zero byte at 24, at 31 of a 32-byte set, at 24, 2048 and
 *	  4095 of a 4096-byte set: E2BIG (rule 5);
 *	- size 4097, 65536, 0xffffffff: E2BIG before anything past the
 *	  size is read, even when the bytes there are not mapped (rule 4);
 *	- the size bytes running past the mapping (by 1 byte of a 24-,
 *	  32- or 4096-byte set, or all but the size word): EFAULT (rule 5);
 *	- __reserved 1 or 0x80000000, also in a 32-byte set: EINVAL (rule 6).
 *	Every refused set installs nothing (mode 0, no mask lines, the call
 *	it would deny still runs); then the same set with a valid header
 *	installs, which proves the error came from the field under test.
 * larger_set_tightens_like_24: a larger set tightens like a 24-byte
 *	one, and the version 2 checks (subset, EPERM) still run after the
 *	header's.
 * detection.*: seccomp(SECCOMP_SET_MODE_MASK, flags, NULL) is EFAULT with
 *	flags 0, SPEC_ALLOW or TSYNC | SPEC_ALLOW (rule 2: reading
 *	set->size faults; the contract's detection still works), and EINVAL
 *	with an unknown flag (rule 1 before rule 2).
 *
 * On a version 2 kernel (nr_masks where version 3 has size) each case
 * fails: the valid sets are EINVAL there (nr_masks 24), flag 0x2 is
 * unknown, and no case ends without a valid set installed.
 */

#include "common.h"

FIXTURE(set_size) {
	unsigned char *page;	/* the next page is not mapped */
};

FIXTURE_VARIANT(set_size) {
	struct size_case c;	/* err 0: installed; nonzero_at >= 24 */
	__u32 reserved;
};

/* { { .size, .err, .nonzero_at, .over_hole }, .reserved } */

/* Rule 3: below the first layout. */
FIXTURE_VARIANT_ADD(set_size, size_0_is_einval) { { 0, EINVAL } };
FIXTURE_VARIANT_ADD(set_size, size_1_is_einval) { { 1, EINVAL } };
FIXTURE_VARIANT_ADD(set_size, size_16_of_the_version_2_struct_is_einval) { { 16, EINVAL } };
FIXTURE_VARIANT_ADD(set_size, size_23_is_einval) { { 23, EINVAL } };

/* Rule 5: larger sets with a zero tail behave as 24. */
FIXTURE_VARIANT_ADD(set_size, size_24_is_valid) { { 24 } };
FIXTURE_VARIANT_ADD(set_size, size_32_zero_tail_is_valid) { { 32 } };
FIXTURE_VARIANT_ADD(set_size, size_4096_zero_tail_is_valid) { { 4096 } };

/* Rule 5: a non-zero byte past the kernel's 24. */
FIXTURE_VARIANT_ADD(set_size, size_32_nonzero_at_24_is_e2big) { { 32, E2BIG, 24 } };
FIXTURE_VARIANT_ADD(set_size, size_32_nonzero_at_31_is_e2big) { { 32, E2BIG, 31 } };
FIXTURE_VARIANT_ADD(set_size, size_4096_nonzero_at_24_is_e2big) { { 4096, E2BIG, 24 } };
FIXTURE_VARIANT_ADD(set_size, size_4096_nonzero_at_2048_is_e2big) { { 4096, E2BIG, 2048 } };
FIXTURE_VARIANT_ADD(set_size, size_4096_nonzero_at_4095_is_e2big) { { 4096, E2BIG, 4095 } };

/* Rule 4: above a page, before any read past the size word. */
FIXTURE_VARIANT_ADD(set_size, size_4097_is_e2big) { { 4097, E2BIG } };
FIXTURE_VARIANT_ADD(set_size, size_65536_is_e2big) { { 65536, E2BIG } };
FIXTURE_VARIANT_ADD(set_size, size_0xffffffff_is_e2big) { { 0xffffffff, E2BIG } };

/* Rule 5: the size bytes not readable. */
FIXTURE_VARIANT_ADD(set_size, size_24_last_byte_unmapped_is_efault) { { 24, EFAULT, 0, 1 } };
FIXTURE_VARIANT_ADD(set_size, size_24_only_the_size_mapped_is_efault) { { 24, EFAULT, 0, 20 } };
FIXTURE_VARIANT_ADD(set_size, size_32_tail_unmapped_is_efault) { { 32, EFAULT, 0, 4 } };
FIXTURE_VARIANT_ADD(set_size, size_4096_last_byte_unmapped_is_efault) { { 4096, EFAULT, 0, 1 } };

/* Rule 6: the reserved word. */
FIXTURE_VARIANT_ADD(set_size, reserved_1_is_einval) { { 24, EINVAL, 0, 0 }, 1 };
FIXTURE_VARIANT_ADD(set_size, reserved_bit_31_is_einval) { { 24, EINVAL, 0, 0 }, 0x80000000 };
FIXTURE_VARIANT_ADD(set_size, size_32_reserved_1_is_einval) { { 32, EINVAL, 0, 0 }, 1 };

FIXTURE_SETUP(set_size) { self->page = require_mask_page(_metadata); }
FIXTURE_TEARDOWN(set_size) { page_put(self->page); }

/*
 * Write @set, of @c's size, into @page as place_sized() lays it out, the
 * rest of the page zero: a size below 24 still gets the whole 24-byte
 * header. Returns where the set starts.
 */
static struct seccomp_mask_set *place_set(unsigned char *page,
					  const struct seccomp_mask_set *set,
					  const struct size_case *c)
{
	size_t avail;
	unsigned char *at = place_sized(page, c, sizeof(*set), 0, 0, &avail);

	memcpy(at, set, avail < sizeof(*set) ? avail : sizeof(*set));
	return (struct seccomp_mask_set *)at;
}

/* The mask of these tests: everything but getppid, for this ABI. */
static void getppid_denied(struct mask *m, struct seccomp_mask *e)
{
	mask_all_but(m, __NR_getppid);
	mask_entry(e, SELF_ARCH, m);
}

TEST_F(set_size, install)
{
	struct seccomp_mask e;
	struct mask m;
	pid_t pid;

	getppid_denied(&m, &e);
	pid = fork_child(_metadata);
	if (pid == 0) {
		struct seccomp_mask_set set = {
			.size = variant->c.size,
			.nr_masks = 1,
			.__reserved = variant->reserved,
			.masks = (uintptr_t)&e,
		};
		struct seccomp_mask_set *s;
		char buf[8192];
		long ret;

		CHILD_ASSERT(set_nnp() == 0);
		s = place_set(self->page, &set, &variant->c);
		errno = 0;
		ret = sys_seccomp(SECCOMP_SET_MODE_MASK, 0, s);
		if (!variant->c.err) {
			CHILD_ASSERT(ret == 0);
		} else {
			CHILD_ASSERT(ret == -1);
			CHILD_ASSERT(errno == variant->c.err);
			/* Nothing installed. */
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
			CHILD_ASSERT(read_status(0, buf, sizeof(buf)) == 0);
			CHILD_ASSERT(!strstr(buf, "Seccomp_mask"));
			CHILD_ASSERT(syscall(__NR_getppid) == getppid());
			/* The same set with a valid header installs. */
			set.size = sizeof(set);
			set.__reserved = 0;
			s = place_set(self->page, &set,
				      &(const struct size_case){ sizeof(set) });
			CHILD_ASSERT(sys_seccomp(SECCOMP_SET_MODE_MASK, 0, s) == 0);
		}
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		CHILD_ASSERT(status_shows_mask(0, &m));
		CHILD_ASSERT(status_shows_action(0, 0));
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

/* A set in a buffer of @size bytes, the tail zero. */
static long install_sized(__u32 size, const struct mask *m)
{
	static __u64 buf[4096 / 8];
	struct seccomp_mask e;
	struct seccomp_mask_set set = {
		.size = size,
		.nr_masks = 1,
		.masks = (uintptr_t)&e,
	};

	mask_entry(&e, SELF_ARCH, m);
	memset(buf, 0, sizeof(buf));
	memcpy(buf, &set, sizeof(set));
	return sys_seccomp(SECCOMP_SET_MODE_MASK, 0, buf);
}

/*
 * A larger set tightens like a 24-byte one; the version 2 checks (subset:
 * EPERM) run after those of the header.
 */
TEST(larger_set_tightens_like_24)
{
	struct mask all, m;
	pid_t pid;

	mask_all(&all, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&m, __NR_getppid);
	pid = fork_mask_child(_metadata);
	if (pid < 0)
		return;
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(install_sized(4096, &all) == 0);
		CHILD_ASSERT(status_shows_mask(0, &all));
		CHILD_ASSERT(syscall(__NR_getppid) == getppid());
		/* Version 2 checks after the header: a 32-byte tightening. */
		CHILD_ASSERT(install_sized(32, &m) == 0);
		CHILD_ASSERT(status_shows_mask(0, &m));
		/* Widening back with a 4096-byte set: EPERM, no change. */
		errno = 0;
		CHILD_ASSERT(install_sized(4096, &all) == -1);
		CHILD_ASSERT(errno == EPERM);
		CHILD_ASSERT(status_shows_mask(0, &m));
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

/*
 * The detection probe with a NULL set. Flags are checked before the set
 * is read: SPEC_ALLOW (version 3) gets as far as the read of set->size.
 */
FIXTURE(detection) {};
FIXTURE_SETUP(detection) { require_mask(_metadata); }
FIXTURE_TEARDOWN(detection) {}

FIXTURE_VARIANT(detection) {
	unsigned int flags;
	int err;
};

FIXTURE_VARIANT_ADD(detection, no_flags_is_efault) { .flags = 0, .err = EFAULT };

FIXTURE_VARIANT_ADD(detection, spec_allow_is_efault) {
	.flags = SECCOMP_MASK_FLAG_SPEC_ALLOW, .err = EFAULT,
};

FIXTURE_VARIANT_ADD(detection, tsync_and_spec_allow_is_efault) {
	.flags = SECCOMP_MASK_FLAG_TSYNC | SECCOMP_MASK_FLAG_SPEC_ALLOW,
	.err = EFAULT,
};

FIXTURE_VARIANT_ADD(detection, unknown_flag_bit_2_is_einval) { .flags = 1U << 2, .err = EINVAL };

TEST_F(detection, null_set)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		struct mask m;

		CHILD_ASSERT(set_nnp() == 0);
		errno = 0;
		CHILD_ASSERT(sys_seccomp(SECCOMP_SET_MODE_MASK, variant->flags,
					 NULL) == -1);
		CHILD_ASSERT(errno == variant->err);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
		/* Version 3: op 5 answers, and a version 3 set installs. */
		errno = 0;
		CHILD_ASSERT(sys_seccomp(SECCOMP_GET_MASK_FEATURES, 0, NULL) == -1);
		CHILD_ASSERT(errno == EFAULT);
		mask_all_but(&m, __NR_getppid);
		CHILD_ASSERT(mask_seccomp1(SELF_ARCH, &m) == 0);
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

TEST_HARNESS_MAIN
