// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode, version 3: the feature query,
 * seccomp(SECCOMP_GET_MASK_FEATURES, 0, &features).
 *
 * The groups and the rule each guards (build/v3/uapi.txt):
 *
 * query.reports_this_kernel_and_changes_nothing: the query needs no
 *	privilege and no no_new_privs, works in mode 0, 2 (filter), 3 (mask
 *	mode, the query allowed by the mask) and with masks stacked under a
 *	filter, changes nothing (PR_GET_SECCOMP, no_new_privs and the
 *	Seccomp and NoNewPrivs lines of /proc/self/status are the same
 *	before and after; a mask in force still denies), and fills in the
 *	exact values of an x86-64 kernel with IA32_EMULATION: size 56,
 *	set_size 24, flags 0x3, actions 0xf, nr_arches 2, x86_64 then i386
 *	with 1024 bits each, the entries past nr_arches 0; of an arm64
 *	kernel with COMPAT: the same but aarch64 with 1024 bits then arm
 *	with 1040 (its private calls). The output fields hold garbage on
 *	input ("may hold anything").
 * strict_mode_kills_the_query: "works in every mode but strict": strict
 *	mode kills the query (SIGKILL) as any other call.
 * size.*: the struct's own size rules: below 56 EINVAL; 56 filled and
 *	56 written back, the bytes past it untouched; 64 with a zero tail
 *	filled, 56 written back, bytes 56..63 still zero; 4096 with a zero
 *	tail filled; a non-zero byte past 56 E2BIG; above a page E2BIG;
 *	flags other than 0 EINVAL; NULL or a struct running past the
 *	mapping EFAULT. Every error case then queries with size 56, which
 *	must work.
 * report.*: the report and the kernel agree: each reported flag
 *	installs a mask and every other flag bit (1 << 2 among them) is
 *	EINVAL; each reported action installs and shows in
 *	Seccomp_mask_action, an unreported one is EINVAL; the reported
 *	arches all install at once at their max_bits, max_bits + 1 is
 *	EINVAL for each, so is an arch not reported and nr_masks
 *	nr_arches + 1; a set of the reported set_size installs.
 *
 * A version 2 kernel answers EINVAL to operation 5 (and to flag 0x2, and
 * to any set of the version 3 layout): every case fails there.
 */

#include "common.h"

#define FEATURES_SIZE	SECCOMP_MASK_FEATURES_SIZE_VER0

static long features_call(unsigned int flags, void *f)
{
	return syscall(__NR_seccomp, SECCOMP_GET_MASK_FEATURES, flags, f);
}

/*
 * The seccomp state a task shows: its mode, no_new_privs and every
 * "Seccomp..." and "NoNewPrivs" line of /proc/self/status.
 */
static bool seccomp_state(char *out, size_t len)
{
	int n = snprintf(out, len, "mode %d nnp %d\n",
			 prctl(PR_GET_SECCOMP, 0, 0, 0, 0),
			 prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));

	return n > 0 && (size_t)n < len &&
	       seccomp_lines(0, true, out + n, len - n);
}

/*
 * The ABIs of the kernel, native first, and their largest nbits: x86-64
 * with IA32_EMULATION, arm64 with COMPAT (the AArch32 mask has the bits
 * of the 16 ARM-private calls past 1024).
 */
#ifdef X86_BUILD
#define KERNEL_ARCH0		AUDIT_ARCH_X86_64
#define KERNEL_MAX_BITS0	SECCOMP_MASK_MAX_BITS
#define KERNEL_ARCH1		AUDIT_ARCH_I386
#define KERNEL_MAX_BITS1	SECCOMP_MASK_MAX_BITS
#elif defined(ARM64_BUILD)
#define KERNEL_ARCH0		AUDIT_ARCH_AARCH64
#define KERNEL_MAX_BITS0	SECCOMP_MASK_MAX_BITS
#define KERNEL_ARCH1		AUDIT_ARCH_ARM
#define KERNEL_MAX_BITS1	(SECCOMP_MASK_MAX_BITS + 16)
#endif

#ifdef TWO_ABIS
/*
 * Are the values of @f those build/v3/uapi.txt gives for an x86-64 kernel
 * with IA32_EMULATION (the contract's "Architectures" for arm64 with
 * COMPAT)? In a child: CHILD_ASSERT() names the first wrong one.
 */
static void child_check_values(const struct seccomp_mask_features *f)
{
	CHILD_ASSERT(f->size == FEATURES_SIZE);
	CHILD_ASSERT(f->set_size == SECCOMP_MASK_SET_SIZE_VER0);
	CHILD_ASSERT(f->flags == (SECCOMP_MASK_FLAG_TSYNC |
				  SECCOMP_MASK_FLAG_SPEC_ALLOW));
	CHILD_ASSERT(f->actions == (SECCOMP_MASK_ACTION_KILL_PROCESS |
				    SECCOMP_MASK_ACTION_TRAP |
				    SECCOMP_MASK_ACTION_ERRNO |
				    SECCOMP_MASK_ACTION_LOG));
	CHILD_ASSERT(f->nr_arches == 2);
	CHILD_ASSERT(f->arches[0].arch == KERNEL_ARCH0);
	CHILD_ASSERT(f->arches[0].max_bits == KERNEL_MAX_BITS0);
	CHILD_ASSERT(f->arches[1].arch == KERNEL_ARCH1);
	CHILD_ASSERT(f->arches[1].max_bits == KERNEL_MAX_BITS1);
	CHILD_ASSERT(f->arches[2].arch == 0 && f->arches[2].max_bits == 0);
	CHILD_ASSERT(f->arches[3].arch == 0 && f->arches[3].max_bits == 0);
}
#else
static void child_check_values(const struct seccomp_mask_features *f)
{
}
#endif

/*
 * require_mask(), then the second ABI (ia32; on arm64 AArch32), which the
 * exact values need: fail (required) or skip without it.
 */
static bool require_mask_two_abi_kernel(struct __test_metadata *const _metadata)
{
	if (!require_mask(_metadata))
		return false;
#ifdef TWO_ABIS
	if (other_abi_available())
		return true;
	if (!mask_required())
		SKIP(return false,
		     "no second ABI (%s): the exact values are those of a kernel with it",
		     OTHER_ABI_WHY);
	ASSERT_TRUE(false) {
		TH_LOG("SECCOMP_MASK_REQUIRED=1: no working second ABI (%s),",
		       OTHER_ABI_WHY);
		TH_LOG("which the exact values of the query assume");
	}
	return true;
#else
	SKIP(return false, "the exact values are those of an x86-64 or arm64 kernel");
#endif
}

enum prior { P_NONE, P_FILTER, P_MASK, P_MASK_THEN_FILTER };

FIXTURE(query) {};

FIXTURE_VARIANT(query) {
	enum prior prior;
	bool nnp;		/* else installed with CAP_SYS_ADMIN */
	bool drop_cap;		/* then no CAP_SYS_ADMIN for the query */
};

FIXTURE_VARIANT_ADD(query, mode_0_unprivileged) { .prior = P_NONE, .drop_cap = true };
FIXTURE_VARIANT_ADD(query, mode_0_no_new_privs) { .prior = P_NONE, .nnp = true };
FIXTURE_VARIANT_ADD(query, filter_mode_unprivileged) { .prior = P_FILTER, .drop_cap = true };
FIXTURE_VARIANT_ADD(query, mask_mode_unprivileged) { .prior = P_MASK, .drop_cap = true };
FIXTURE_VARIANT_ADD(query, mask_mode_no_new_privs) { .prior = P_MASK, .nnp = true };

FIXTURE_VARIANT_ADD(query, mask_under_filter_unprivileged) {
	.prior = P_MASK_THEN_FILTER, .drop_cap = true,
};

FIXTURE_SETUP(query) { require_mask_two_abi_kernel(_metadata); }
FIXTURE_TEARDOWN(query) {}

TEST_F(query, reports_this_kernel_and_changes_nothing)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		struct seccomp_mask_features f;
		char before[4096], after[4096];
		struct mask m;
		int mode = 0;

		mask_all_but(&m, __NR_getppid);
		if (variant->nnp)
			CHILD_ASSERT(set_nnp() == 0);
		if (variant->prior == P_MASK ||
		    variant->prior == P_MASK_THEN_FILTER) {
			CHILD_ASSERT(mask_prctl(&m) == 0);
			mode = 3;
		}
		if (variant->prior == P_FILTER ||
		    variant->prior == P_MASK_THEN_FILTER) {
			CHILD_ASSERT(filter_allow_all() == 0);
			mode = 2;
		}
		if (variant->drop_cap) {
			CHILD_ASSERT(drop_cap_sys_admin() == 0);
			CHILD_ASSERT(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 0);
			/* Really unprivileged: an install is EACCES. */
			errno = 0;
			CHILD_ASSERT(mask_prctl(&m) == -1 && errno == EACCES);
		}
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == mode);
		CHILD_ASSERT(seccomp_state(before, sizeof(before)));

		/* The fields the kernel fills may hold anything on input. */
		memset(&f, 0xa5, sizeof(f));
		f.size = FEATURES_SIZE;
		CHILD_ASSERT(features_call(0, &f) == 0);
		child_check_values(&f);

		CHILD_ASSERT(seccomp_state(after, sizeof(after)));
		CHILD_ASSERT(!strcmp(before, after));
		if (mode == 0) {
			/* Nothing installed: getppid runs. */
			CHILD_ASSERT(syscall(__NR_getppid) == getppid());
			_exit(0);
		}
		if (variant->prior == P_FILTER) {
			/* Still the filter alone, no mask lines. */
			CHILD_ASSERT(!strstr(after, "Seccomp_mask"));
			_exit(0);
		}
		/* The mask still denies. */
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	if (variant->prior == P_MASK || variant->prior == P_MASK_THEN_FILTER)
		ASSERT_CHILD_DENIED(pid);
	else
		ASSERT_CHILD_OK(pid);
}

TEST(strict_mode_kills_the_query)
{
	struct seccomp_mask_features f;

	if (!require_mask(_metadata))
		return;
	/* In mode 0 the query works... */
	ASSERT_EQ(0, mask_features(&f));
	ASSERT_EQ(FEATURES_SIZE, f.size);
	/* ...in strict mode it is killed, as any call but read and write. */
	ASSERT_STRICT_DENIES(false, mask_features(&f));
}

/* The struct's own size rules. */
FIXTURE(size) {
	unsigned char *page;	/* the next page is not mapped */
};

FIXTURE_VARIANT(size) {
	struct size_case c;	/* err 0: filled; nonzero_at >= 56 */
	bool canary;		/* 8 bytes after the struct that must stay */
	unsigned int flags;
	bool null;
};

/* { { .size, .err, .nonzero_at, .over_hole }, .canary, .flags, .null } */
FIXTURE_VARIANT_ADD(size, size_0_is_einval) { { 0, EINVAL } };
FIXTURE_VARIANT_ADD(size, size_24_is_einval) { { 24, EINVAL } };
FIXTURE_VARIANT_ADD(size, size_55_is_einval) { { 55, EINVAL } };
FIXTURE_VARIANT_ADD(size, size_56_is_filled_and_nothing_past_it) { { 56, 0, 0, 0 }, true };
FIXTURE_VARIANT_ADD(size, size_56_ending_at_the_mapping_is_filled) { { 56 } };
FIXTURE_VARIANT_ADD(size, size_64_zero_tail_is_filled_56) { { 64, 0, 0, 0 }, true };
FIXTURE_VARIANT_ADD(size, size_4096_zero_tail_is_filled_56) { { 4096 } };
FIXTURE_VARIANT_ADD(size, size_64_nonzero_at_56_is_e2big) { { 64, E2BIG, 56 } };
FIXTURE_VARIANT_ADD(size, size_64_nonzero_at_63_is_e2big) { { 64, E2BIG, 63 } };
FIXTURE_VARIANT_ADD(size, size_4096_nonzero_at_4095_is_e2big) { { 4096, E2BIG, 4095 } };
FIXTURE_VARIANT_ADD(size, size_4097_is_e2big) { { 4097, E2BIG } };
FIXTURE_VARIANT_ADD(size, size_0xffffffff_is_e2big) { { 0xffffffff, E2BIG } };
FIXTURE_VARIANT_ADD(size, flags_1_is_einval) { { 56, EINVAL, 0, 0 }, false, 1 };
FIXTURE_VARIANT_ADD(size, flags_bit_31_is_einval) { { 56, EINVAL, 0, 0 }, false, 1U << 31 };
FIXTURE_VARIANT_ADD(size, null_is_efault) { { 56, EFAULT, 0, 0 }, false, 0, true };
FIXTURE_VARIANT_ADD(size, size_56_last_byte_unmapped_is_efault) { { 56, EFAULT, 0, 1 } };
FIXTURE_VARIANT_ADD(size, size_64_tail_unmapped_is_efault) { { 64, EFAULT, 0, 4 } };

FIXTURE_SETUP(size) { self->page = require_mask_page(_metadata); }
FIXTURE_TEARDOWN(size) { page_put(self->page); }

TEST_F(size, rules)
{
	const unsigned int canary = variant->canary ? 8 : 0;
	const struct size_case *c = &variant->c;
	struct seccomp_mask_features *f, good;
	size_t span, avail, i;
	unsigned char *at;

	/*
	 * The struct ends where the mapping ends (@over_hole bytes past it),
	 * or @canary bytes before; the page around it 0x5a, its fields 0xa5.
	 */
	span = c->size < FEATURES_SIZE ? FEATURES_SIZE : c->size;
	at = place_sized(self->page, c, FEATURES_SIZE, canary, 0x5a, &avail);
	memset(at, 0xa5, avail < FEATURES_SIZE ? avail : FEATURES_SIZE);
	f = (struct seccomp_mask_features *)at;
	f->size = c->size;

	errno = 0;
	if (c->err) {
		ASSERT_EQ(-1, features_call(variant->flags,
					    variant->null ? NULL : f));
		ASSERT_EQ(c->err, errno);
		/* The same query with a valid size and flags works. */
		ASSERT_EQ(0, mask_features(&good)) {
			TH_LOG("a query of size 56, flags 0: %s", strerror(errno));
		}
		EXPECT_EQ(FEATURES_SIZE, good.size);
		return;
	}
	ASSERT_EQ(0, features_call(variant->flags, f)) {
		TH_LOG("size %u: %s", c->size, strerror(errno));
	}
	/* min(size, 56) bytes written; size says how many. */
	EXPECT_EQ(FEATURES_SIZE, f->size);
	EXPECT_EQ(SECCOMP_MASK_SET_SIZE_VER0, f->set_size);
	EXPECT_NE(0, f->flags);
	EXPECT_NE(0, f->actions);
	EXPECT_LE(1, f->nr_arches);
	EXPECT_GE(SECCOMP_MASK_FEATURES_MAX_ARCHES, f->nr_arches);
	/* Every byte the kernel filled is the value, not the garbage. */
	ASSERT_EQ(0, mask_features(&good));
	EXPECT_EQ(0, memcmp(&good, f, FEATURES_SIZE));
	/* The zero tail stays zero, the bytes past the size untouched. */
	for (i = FEATURES_SIZE; i < span; i++)
		ASSERT_EQ(0, at[i]) {
			TH_LOG("byte %zu of the struct changed", i);
		}
	for (i = 0; i < canary; i++)
		ASSERT_EQ(0x5a, at[span + i]) {
			TH_LOG("byte %zu past the struct's %zu written", i, span);
		}
}

/* The report and the kernel agree. */
static const __u32 action_of_bit[] = {
	SECCOMP_RET_KILL_PROCESS,	/* SECCOMP_MASK_ACTION_KILL_PROCESS */
	SECCOMP_RET_TRAP,		/* SECCOMP_MASK_ACTION_TRAP */
	SECCOMP_RET_ERRNO | 1,		/* SECCOMP_MASK_ACTION_ERRNO */
	SECCOMP_RET_LOG,		/* SECCOMP_MASK_ACTION_LOG */
};

/*
 * In a child: install the masks of the reported arches, each all set up
 * to its max_bits (@wider: + 1 for entry @which; @extra: one more entry,
 * of an arch not reported), with @flags and @action.
 */
static long install_reported(const struct seccomp_mask_features *f,
			     unsigned int flags, __u32 action, int which,
			     __u32 extra)
{
	static unsigned char bits[SECCOMP_MASK_MAX_BITS / 8 + 64];
	struct seccomp_mask e[SECCOMP_MASK_FEATURES_MAX_ARCHES + 1];
	struct seccomp_mask_set set = {
		.size = sizeof(set),
		.nr_masks = f->nr_arches,
		.action = action,
		.masks = (uintptr_t)e,
	};
	unsigned int i;

	memset(bits, 0xff, sizeof(bits));
	for (i = 0; i < f->nr_arches && i < SECCOMP_MASK_FEATURES_MAX_ARCHES; i++) {
		e[i].arch = f->arches[i].arch;
		e[i].nbits = f->arches[i].max_bits + ((int)i == which);
		e[i].bits = (uintptr_t)bits;
	}
	if (extra) {
		e[i].arch = extra;
		e[i].nbits = SECCOMP_MASK_MAX_BITS;
		e[i].bits = (uintptr_t)bits;
		set.nr_masks++;
	}
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK, flags, &set);
}

FIXTURE(report) {
	struct seccomp_mask_features f;
};

FIXTURE_SETUP(report)
{
	if (!require_mask(_metadata))
		return;
	ASSERT_EQ(0, mask_features(&self->f)) {
		TH_LOG("SECCOMP_GET_MASK_FEATURES: %s (a version 2 kernel answers EINVAL)",
		       strerror(errno));
	}
	ASSERT_EQ(FEATURES_SIZE, self->f.size);
	ASSERT_LE(1, self->f.nr_arches);
	ASSERT_GE(SECCOMP_MASK_FEATURES_MAX_ARCHES, self->f.nr_arches);
	ASSERT_EQ(SECCOMP_MASK_MAX_BITS, self->f.arches[0].max_bits);
	/* The flags argument is 32 bits: a flag above could not be passed. */
	ASSERT_EQ(0, self->f.flags >> 32);
}

FIXTURE_TEARDOWN(report) {}

/*
 * The result of @call, an install, made in a child with no_new_privs: 0
 * or its errno. The child exits 0, or 100 + errno (CHILD_FAILED is 99).
 */
#define CHILD_INSTALL(call)						\
	({								\
		pid_t __pid = child_fork();				\
		int __status;						\
									\
		ASSERT_LE(0, __pid);					\
		if (__pid == 0) {					\
			CHILD_ASSERT(set_nnp() == 0);			\
			errno = 0;					\
			if ((call) == 0)				\
				_exit(0);				\
			_exit(errno > 0 && errno < 150 ? 100 + errno : 250); \
		}							\
		__status = child_wait(_metadata, __pid);		\
		ASSERT_TRUE(WIFEXITED(__status) &&			\
			    (WEXITSTATUS(__status) == 0 ||		\
			     WEXITSTATUS(__status) >= 100)) {		\
			child_describe(_metadata, __status, __LINE__);	\
		}							\
		WEXITSTATUS(__status) ? WEXITSTATUS(__status) - 100 : 0; \
	})

TEST_F(report, each_flag_installs_and_no_other)
{
	unsigned int bit;
	int err;

	for (bit = 0; bit < 32; bit++) {
		err = CHILD_INSTALL(install_reported(&self->f, 1U << bit, 0,
						     -1, 0));
		if (self->f.flags & (1ULL << bit)) {
			EXPECT_EQ(0, err) {
				TH_LOG("reported flag %#x: %s", 1U << bit,
				       strerror(err));
			}
		} else {
			EXPECT_EQ(EINVAL, err) {
				TH_LOG("flag %#x, not reported: %s", 1U << bit,
				       err ? strerror(err) : "installed");
			}
		}
	}
	/* The first bit version 3 does not define. */
	EXPECT_EQ(0, self->f.flags & (1ULL << 2));
	err = CHILD_INSTALL(install_reported(&self->f, 1U << 2, 0, -1, 0));
	EXPECT_EQ(EINVAL, err);
}

TEST_F(report, each_action_installs_and_no_other)
{
	unsigned int bit;

	for (bit = 0; bit < 32; bit++) {
		bool reported = self->f.actions & (1U << bit);
		__u32 action;
		pid_t pid;

		if (bit >= ARRAY_SIZE(action_of_bit)) {
			EXPECT_FALSE(reported) {
				TH_LOG("action bit %u is reported but has no meaning in version 3",
				       bit);
			}
			continue;
		}
		action = action_of_bit[bit];
		pid = fork_child(_metadata);
		if (pid == 0) {
			long ret;

			CHILD_ASSERT(set_nnp() == 0);
			errno = 0;
			ret = install_reported(&self->f, 0, action, -1, 0);
			if (!reported) {
				CHILD_ASSERT(ret == -1 && errno == EINVAL);
				_exit(0);
			}
			CHILD_ASSERT(ret == 0);
			CHILD_ASSERT(status_shows_action(0, action));
			_exit(0);
		}
		ASSERT_CHILD_OK(pid);
	}
}

TEST_F(report, each_arch_installs_up_to_its_max_bits)
{
	unsigned int i;
	pid_t pid;
	int err;

	/* All of them at once, each at its max_bits: all allowed. */
	pid = fork_child(_metadata);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(install_reported(&self->f, 0, 0, -1, 0) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		CHILD_ASSERT(syscall(__NR_getppid) == getppid());
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
	for (i = 0; i < self->f.nr_arches; i++) {
		err = CHILD_INSTALL(install_reported(&self->f, 0, 0, i, 0));
		EXPECT_EQ(EINVAL, err) {
			TH_LOG("arch %#x: nbits max_bits + 1 (%u) is not EINVAL",
			       self->f.arches[i].arch,
			       self->f.arches[i].max_bits + 1);
		}
	}
	/* One more ABI than reported: one the kernel does not have. */
	err = CHILD_INSTALL(install_reported(&self->f, 0, 0, -1,
					     AUDIT_ARCH_ALPHA));
	EXPECT_EQ(EINVAL, err);
}

TEST_F(report, a_set_of_set_size_installs)
{
	static __u64 buf[4096 / 8];
	struct seccomp_mask_set set = { .nr_masks = 1 };
	struct seccomp_mask e;
	struct mask m;
	pid_t pid;

	ASSERT_LE(SECCOMP_MASK_SET_SIZE_VER0, self->f.set_size);
	ASSERT_GE(4096, self->f.set_size);
	mask_all_but(&m, __NR_getppid);
	mask_entry(&e, SELF_ARCH, &m);
	set.size = self->f.set_size;
	set.masks = (uintptr_t)&e;
	memcpy(buf, &set, sizeof(set));
	pid = fork_child(_metadata);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(sys_seccomp(SECCOMP_SET_MODE_MASK, 0, buf) == 0);
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

TEST_HARNESS_MAIN
