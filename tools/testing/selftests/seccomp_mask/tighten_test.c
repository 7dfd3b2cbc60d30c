// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: tightening an installed mask
 */

#include <grp.h>

#include "common.h"

FIXTURE(tighten) {};

FIXTURE_VARIANT(tighten) {
	bool use_seccomp;
};

FIXTURE_VARIANT_ADD(tighten, prctl) { .use_seccomp = false };
FIXTURE_VARIANT_ADD(tighten, seccomp) { .use_seccomp = true };

FIXTURE_SETUP(tighten) {}
FIXTURE_TEARDOWN(tighten) {}

/*
 * fork_masked() with @old, and the child tightens to @new: that returns 0
 * (@err 0) or fails with @err, and the child stays in mode 3. The pid in
 * the parent, 0 in the child.
 */
static pid_t fork_tightened(struct __test_metadata *const _metadata,
			    bool use_seccomp, const struct mask *old,
			    const struct mask *new, int err)
{
	pid_t pid = fork_masked(_metadata, use_seccomp, old);
	int ret;

	if (pid == 0) {
		ret = mask_install(use_seccomp, new);
		if (err)
			CHILD_ASSERT(ret == -1 && errno == err);
		else
			CHILD_ASSERT(ret == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
	}
	return pid;
}

/*
 * fork_tightened(), and then the child's call @nr must be denied: the
 * child killed by SIGSYS right at it (as ASSERT_MASK_DENIES()).
 */
#define ASSERT_TIGHTENED_DENIES(use_seccomp, old, new, err, nr)	\
	do {								\
		pid_t __pid = fork_tightened(_metadata, use_seccomp,	\
					     old, new, err);		\
									\
		if (__pid == 0) {					\
			CHILD_DENIED(syscall(nr));			\
			_exit(0);					\
		}							\
		__assert_child_denied(_metadata, __pid, __LINE__);	\
	} while (0)

TEST_F(tighten, subset_works_and_is_enforced)
{
	struct mask old, new;
	pid_t pid;

	mask_all(&old, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&new, __NR_getppid);
	pid = fork_mask_masked(_metadata, variant->use_seccomp, &old);
	if (pid < 0)
		return;
	if (pid == 0) {
		CHILD_ASSERT(syscall(__NR_getppid) == getppid());
		CHILD_ASSERT(mask_install(variant->use_seccomp, &new) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

/*
 * In a child: install @m, the mask of this program's ABI, with @action;
 * where the kernel has a second ABI, through seccomp(2) with all but its
 * getppid for that one, so that a tightening that lists this ABI alone
 * has a mask that is not empty to keep.
 */
static void install_own_and_other(const struct mask *m, __u32 action)
{
#ifdef TWO_ABIS
	struct mask other;

	if (other_abi_available()) {
		mask_all_abi_but(&other, OTHER_MAX_BITS, OTHER_NR_getppid);
		CHILD_ASSERT(mask_seccomp_own_other(0, action, 2, m,
						    &other) == 0);
		return;
	}
#endif
	CHILD_ASSERT(mask_install_action(false, m, action) == 0);
}

/*
 * The same mask again, with the same action (ERRNO), through the
 * variant's call: that works and changes nothing. The Seccomp lines of
 * /proc/self/status (the mask of each ABI, the action) read the same
 * before and after; getpid, in the mask, runs; getppid, out of it, still
 * gets the errno. The same mask once more with the kill, a stronger
 * action: the masks of both ABIs still read the same, and getppid now
 * kills right at the call.
 */
TEST_F(tighten, same_mask_again_works)
{
	const __u32 deny = SECCOMP_RET_ERRNO | MASK_ERRNO;
	struct mask m;
	pid_t pid;

	mask_all_but(&m, __NR_getppid);
	pid = fork_mask_child(_metadata);
	if (pid == 0) {
		char before[8192], after[8192], other[4096];
		pid_t self = getpid();

		CHILD_ASSERT(set_nnp() == 0);
		install_own_and_other(&m, deny);
		CHILD_ASSERT(seccomp_lines(0, false, before, sizeof(before)));
		CHILD_ASSERT(mask_install_action(variant->use_seccomp, &m,
						 deny) == 0);
		CHILD_ASSERT(seccomp_lines(0, false, after, sizeof(after)));
		CHILD_ASSERT(!strcmp(before, after));
		CHILD_ASSERT(status_shows_mask(0, &m));
		CHILD_ASSERT(status_shows_action(0, deny));
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		CHILD_ASSERT(syscall(__NR_getpid) == self);
		errno = 0;
		CHILD_ASSERT(syscall(__NR_getppid) == -1 && errno == MASK_ERRNO);

		CHILD_ASSERT(mask_install_action(variant->use_seccomp, &m,
						 0) == 0);
		CHILD_ASSERT(status_shows_mask(0, &m));
		/* The other ABI's line, unlisted, where the kernel has one. */
		CHILD_ASSERT(!status_field(before, mask_line(true), other,
					   sizeof(other)) ||
			     status_is(0, mask_line(true), other));
		CHILD_ASSERT(status_shows_action(0, 0));
		CHILD_ASSERT(syscall(__NR_getpid) == self);
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	if (pid > 0)
		ASSERT_CHILD_DENIED(pid);
}

TEST_F(tighten, superset_fails_with_eperm_and_keeps_old_mask)
{
	struct mask old, new;

	if (!require_mask(_metadata))
		return;
	mask_all_but(&old, __NR_getppid);
	mask_all(&new, SECCOMP_MASK_MAX_BITS);
	ASSERT_TIGHTENED_DENIES(variant->use_seccomp, &old, &new, EPERM,
				__NR_getppid);
}

/* Old: 0 .. 511 all set. New: the same bits, in a 1024-bit mask. */
static void masks_512_and_longer(struct mask *old, struct mask *new)
{
	mask_all(old, 512);
	mask_all(new, 512);
	new->nbits = SECCOMP_MASK_MAX_BITS;
}

TEST_F(tighten, longer_mask_with_zero_extra_bits_works)
{
	struct mask old, new;

	if (!require_mask(_metadata))
		return;
	/* New: 0 .. 511 set but getppid. */
	masks_512_and_longer(&old, &new);
	ASSERT_LT(__NR_getppid, 512);
	mask_clear(&new, __NR_getppid);
	ASSERT_TIGHTENED_DENIES(variant->use_seccomp, &old, &new, 0,
				__NR_getppid);
}

TEST_F(tighten, longer_mask_with_a_set_extra_bit_fails_with_eperm)
{
	struct mask old, new;

	if (!require_mask(_metadata))
		return;
	masks_512_and_longer(&old, &new);
	mask_set(&new, NR_UNIMPLEMENTED);
	/* The old mask holds: NR_UNIMPLEMENTED is outside it. */
	ASSERT_TIGHTENED_DENIES(variant->use_seccomp, &old, &new, EPERM,
				NR_UNIMPLEMENTED);
}

TEST_F(tighten, shorter_mask_works_and_cuts_the_tail)
{
	struct mask old, new;
	int expected;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	mask_all(&old, SECCOMP_MASK_MAX_BITS);
	mask_all(&new, 512);
	expected = unimplemented_errno();
	ASSERT_LT(0, expected);
	pid = fork_masked(_metadata, variant->use_seccomp, &old);
	if (pid == 0) {
		CHILD_ASSERT(syscall(NR_UNIMPLEMENTED) == -1 &&
			     errno == expected);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &new) == 0);
		CHILD_DENIED(syscall(NR_UNIMPLEMENTED));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

/*
 * Privilege: "the caller needs no_new_privs, or CAP_SYS_ADMIN in its user
 * namespace, else EACCES", on every install, a tightening included (as
 * for filters, where every filter needs it). CAP_SYS_ADMIN goes by
 * capset(), or with every capability by leaving root for UNPRIV_ID. The
 * prctl variant tightens this program's ABI, the seccomp one both x86
 * ABIs in one call.
 */
#define UNPRIV_ID	65534

FIXTURE(tighten_privilege) {};

FIXTURE_VARIANT(tighten_privilege) {
	bool use_seccomp;
	bool setuid;		/* else capset() */
};

FIXTURE_VARIANT_ADD(tighten_privilege, prctl_capset) { .use_seccomp = false, .setuid = false };
FIXTURE_VARIANT_ADD(tighten_privilege, prctl_setuid) { .use_seccomp = false, .setuid = true };
FIXTURE_VARIANT_ADD(tighten_privilege, seccomp_capset) { .use_seccomp = true, .setuid = false };
FIXTURE_VARIANT_ADD(tighten_privilege, seccomp_setuid) { .use_seccomp = true, .setuid = true };

FIXTURE_SETUP(tighten_privilege) {}
FIXTURE_TEARDOWN(tighten_privilege) {}

/* False, with the test skipped (or failed), when it cannot run here. */
static bool priv_can_run(struct __test_metadata *const _metadata,
			 bool use_seccomp)
{
	if (!require_mask(_metadata))
		return false;
	if (geteuid() != 0)
		SKIP(return false, "needs CAP_SYS_ADMIN and setuid (run as root)");
#ifdef TWO_ABIS
	if (use_seccomp && !require_other_abi(_metadata))
		return false;
#endif
	return true;
}

/* The first masks (everything) and the tightening (all but getppid). */
struct priv_masks {
	struct mask self_old, self_new;
	struct mask other_old, other_new;
};

static void priv_masks_init(struct priv_masks *pm)
{
	mask_all(&pm->self_old, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&pm->self_new, __NR_getppid);
	mask_all(&pm->other_old, OTHER_MAX_BITS);
#ifdef TWO_ABIS
	mask_all_abi_but(&pm->other_new, OTHER_MAX_BITS, OTHER_NR_getppid);
#else
	mask_all(&pm->other_new, SECCOMP_MASK_MAX_BITS);
#endif
}

/*
 * priv_can_run(), @pm initialized, then fork_child(): the pid in the
 * parent, 0 in the child, -1 when the test is skipped (or failed).
 */
static pid_t priv_fork(struct __test_metadata *const _metadata,
		       bool use_seccomp, struct priv_masks *pm)
{
	if (!priv_can_run(_metadata, use_seccomp))
		return -1;
	priv_masks_init(pm);
	return fork_child(_metadata);
}

/* Install (@tight false) or tighten through the variant's entry point. */
static int priv_install(bool use_seccomp, const struct priv_masks *pm,
			bool tight)
{
	const struct mask *self = tight ? &pm->self_new : &pm->self_old;

#ifdef TWO_ABIS
	if (use_seccomp)
		return mask_seccomp_own_other(0, 0, 2, self, tight ?
					      &pm->other_new : &pm->other_old);
#endif
	return mask_install(use_seccomp, self);
}

/* Does /proc/self/status show the first masks, or the tightened ones? */
static bool priv_shows(bool use_seccomp, const struct priv_masks *pm,
		       bool tight)
{
	char want[4096];

	if (!status_is(0, "Seccomp", "3") ||
	    !status_shows_mask(0, tight ? &pm->self_new : &pm->self_old) ||
	    !status_shows_action(0, 0))
		return false;
#ifdef TWO_ABIS
	if (use_seccomp) {
		mask_format(tight ? &pm->other_new : &pm->other_old, want,
			    sizeof(want));
		return status_is(0, mask_line(true), want);
	}
#endif
	(void)want;
	return true;
}

/*
 * Leave CAP_SYS_ADMIN: capset(), or uid and gid UNPRIV_ID with no
 * supplementary group (leaving uid 0 clears every capability; it also
 * clears the parent death signal, which is set again).
 */
static bool drop_privilege(bool setuid)
{
	if (!setuid)
		return drop_cap_sys_admin() == 0;
	return !setgroups(0, NULL) &&
	       !setresgid(UNPRIV_ID, UNPRIV_ID, UNPRIV_ID) &&
	       !setresuid(UNPRIV_ID, UNPRIV_ID, UNPRIV_ID) &&
	       !prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
}

/*
 * Is CAP_SYS_ADMIN out of the effective set, and with @setuid, is the
 * task UNPRIV_ID with no capability at all?
 */
static bool privilege_dropped(bool setuid)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(__NR_capget, &hdr, data))
		return false;
	if (data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &
	    CAP_TO_MASK(CAP_SYS_ADMIN))
		return false;
	if (!setuid)
		return true;
	return getuid() == UNPRIV_ID && geteuid() == UNPRIV_ID &&
	       !data[0].effective && !data[1].effective &&
	       !data[0].permitted && !data[1].permitted;
}

/*
 * Installed with CAP_SYS_ADMIN and without no_new_privs, then without
 * CAP_SYS_ADMIN: a tightening is EACCES and changes nothing. With
 * no_new_privs set, the same tightening then works.
 */
TEST_F(tighten_privilege, without_nnp_or_cap_sys_admin_is_eacces)
{
	struct priv_masks pm;
	pid_t pid = priv_fork(_metadata, variant->use_seccomp, &pm);

	if (pid == 0) {
		char before[8192], after[8192];
		pid_t ppid = getppid();
		int ret;

		CHILD_ASSERT(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 0);
		CHILD_ASSERT(priv_install(variant->use_seccomp, &pm, false) == 0);
		CHILD_ASSERT(drop_privilege(variant->setuid));
		CHILD_ASSERT(privilege_dropped(variant->setuid));
		CHILD_ASSERT(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 0);
		CHILD_ASSERT(seccomp_lines(0, false, before, sizeof(before)));

		errno = 0;
		ret = priv_install(variant->use_seccomp, &pm, true);
		CHILD_ASSERT(ret == -1 && errno == EACCES);

		/* Nothing changed: the lines, and what the masks allow. */
		CHILD_ASSERT(seccomp_lines(0, false, after, sizeof(after)));
		CHILD_ASSERT(!strcmp(before, after));
		CHILD_ASSERT(priv_shows(variant->use_seccomp, &pm, false));
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		CHILD_ASSERT(syscall(__NR_getppid) == ppid);
#ifdef X86_BUILD
		if (variant->use_seccomp)
			CHILD_ASSERT(abi_call(OTHER_ARCH, NR64_getppid,
					      NR32_getppid, 0, 0, 0) == ppid);
#elif defined(ARM64_BUILD)
		/* In the other state's helper, whose parent is this child. */
		if (variant->use_seccomp)
			CHILD_ASSERT(other_probe(OTHER_NR_getppid, 0) ==
				     getpid());
#endif

		/* The same tightening, with no_new_privs: it was valid. */
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(priv_install(variant->use_seccomp, &pm, true) == 0);
		CHILD_ASSERT(priv_shows(variant->use_seccomp, &pm, true));
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	if (pid > 0)
		ASSERT_CHILD_DENIED(pid);
}

/*
 * Installed with no_new_privs: a tightening without CAP_SYS_ADMIN works
 * and narrows, no_new_privs being enough.
 */
TEST_F(tighten_privilege, with_nnp_without_cap_sys_admin_works)
{
	struct priv_masks pm;
	pid_t pid = priv_fork(_metadata, variant->use_seccomp, &pm);

	if (pid == 0) {
		pid_t ppid = getppid();

		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(priv_install(variant->use_seccomp, &pm, false) == 0);
		CHILD_ASSERT(drop_privilege(variant->setuid));
		CHILD_ASSERT(privilege_dropped(variant->setuid));
		CHILD_ASSERT(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1);
		CHILD_ASSERT(syscall(__NR_getppid) == ppid);

		CHILD_ASSERT(priv_install(variant->use_seccomp, &pm, true) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		CHILD_ASSERT(priv_shows(variant->use_seccomp, &pm, true));
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	if (pid > 0)
		ASSERT_CHILD_DENIED(pid);
}

#ifdef TWO_ABIS
/* The masks of the two ABIs are independent. */
static void expect_status(struct __test_metadata *const _metadata,
			  pid_t pid, const char *key, const struct mask *m)
{
	char buf[8192], val[4096], want[4096];

	ASSERT_EQ(0, read_status(pid, buf, sizeof(buf)));
	ASSERT_TRUE(status_field(buf, key, val, sizeof(val))) {
		TH_LOG("no %s: line", key);
	}
	mask_format(m, want, sizeof(want));
	ASSERT_STREQ(want, val);
}

/*
 * Once the child @pid is ready (@hs), its masks must be @self and
 * @other; then it exits with 0.
 */
static void expect_masks_and_release(struct __test_metadata *const _metadata,
				     struct handshake *hs, pid_t pid,
				     const struct mask *self,
				     const struct mask *other)
{
	ASSERT_TRUE(handshake_wait_child(hs));
	expect_status(_metadata, pid, mask_line(false), self);
	expect_status(_metadata, pid, mask_line(true), other);
	handshake_release_child(hs);
	ASSERT_CHILD_OK(pid);
}

/* This ABI's masks in these tests: all, then all but getppid (a subset). */
static struct mask self_old, self_new;

/*
 * A child, in a handshake (@hs) with the parent, that installs self_old
 * and @other, the masks of both ABIs, through seccomp(2): the pid in
 * the parent, 0 in the child, -1 when the test is skipped (no mask mode,
 * or no second ABI).
 */
static pid_t fork_own_other(struct __test_metadata *const _metadata,
			    struct handshake *hs, const struct mask *other)
{
	pid_t pid;

	if (!require_mask(_metadata) || !require_other_abi(_metadata))
		return -1;
	mask_all(&self_old, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&self_new, __NR_getppid);
	ASSERT_EQ(0, handshake_init(hs));
	pid = fork_child(_metadata);
	if (pid == 0) {
		handshake_child_begin(hs);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp_own_other(0, 0, 2, &self_old,
						    other) == 0);
	}
	return pid;
}

TEST(abi_masks_are_independent)
{
	struct mask other, empty;
	struct handshake hs;
	pid_t pid;

	MASK_ONLY(&other, 64, 3, 60);
	mask_none(&empty, 0);
	pid = fork_own_other(_metadata, &hs, &other);
	if (pid == 0) {
		/* Tightening this ABI leaves the other one alone. */
		CHILD_ASSERT(mask_prctl(&self_new) == 0);
		/* Tightening the other ABI to empty leaves this one alone. */
		CHILD_ASSERT(mask_seccomp1(OTHER_ARCH, &empty) == 0);
		CHILD_ASSERT(handshake_child_ready(&hs));
		_exit(0);
	}
	if (pid > 0)
		expect_masks_and_release(_metadata, &hs, pid, &self_new,
					 &empty);
}

TEST(seccomp_with_several_masks_is_all_or_nothing)
{
	struct mask other_old, other_new;
	struct handshake hs;
	pid_t pid;

	MASK_ONLY(&other_old, 64, 1);
	MASK_ONLY(&other_new, 64, 1, 2);	/* not a subset */
	pid = fork_own_other(_metadata, &hs, &other_old);
	if (pid == 0) {
		/* self_new is a subset, other_new is not. */
		CHILD_ASSERT(mask_seccomp_own_other(0, 0, 2, &self_new,
						    &other_new) == -1 &&
			     errno == EPERM);
		/* The subset part was not applied either. */
		CHILD_ASSERT(syscall(__NR_getppid) == getppid());
		CHILD_ASSERT(handshake_child_ready(&hs));
		_exit(0);
	}
	if (pid > 0)
		expect_masks_and_release(_metadata, &hs, pid, &self_old,
					 &other_old);
}
#endif

TEST_HARNESS_MAIN
