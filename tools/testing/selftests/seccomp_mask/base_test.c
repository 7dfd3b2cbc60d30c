// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: install, enforce, privileges, modes and numbers
 */

#include <sched.h>

#include "common.h"

/* Install through prctl() or seccomp(2); a variant picks which. */
FIXTURE(install) {
	char dir[64];
	char file[96];
};

FIXTURE_VARIANT(install) {
	bool use_seccomp;
};

FIXTURE_VARIANT_ADD(install, prctl) { .use_seccomp = false };
FIXTURE_VARIANT_ADD(install, seccomp) { .use_seccomp = true };

FIXTURE_SETUP(install)
{
	int fd;

	snprintf(self->dir, sizeof(self->dir), "/tmp/seccomp_mask.XXXXXX");
	ASSERT_TRUE(!!mkdtemp(self->dir));
	snprintf(self->file, sizeof(self->file), "%s/file", self->dir);
	fd = open(self->file, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
}

FIXTURE_TEARDOWN(install)
{
	unlink(self->file);
	rmdir(self->dir);
}

TEST_F(install, allowed_calls_work_and_denied_call_kills_process)
{
	struct mask m;
	pid_t pid;

	mask_all_but(&m, __NR_getppid);
	pid = fork_mask_masked(_metadata, variant->use_seccomp, &m);
	if (pid < 0)
		return;
	if (pid == 0) {
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) ==
			     SECCOMP_MODE_MASK);
		CHILD_ASSERT(syscall(__NR_getpid) == getpid());
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

TEST_F(install, denied_unlink_leaves_the_file)
{
	struct stat st;
	struct mask m;

	if (!require_mask(_metadata))
		return;
	mask_all_but(&m, __NR_unlinkat);
#ifdef __NR_unlink
	mask_clear(&m, __NR_unlink);
#endif
#ifdef __NR_unlink
	ASSERT_MASK_DENIES(variant->use_seccomp, &m,
			   syscall(__NR_unlink, self->file));
#else
	ASSERT_MASK_DENIES(variant->use_seccomp, &m,
			   syscall(__NR_unlinkat, AT_FDCWD, self->file, 0));
#endif
	ASSERT_EQ(0, stat(self->file, &st));
}

TEST_F(install, denied_write_writes_nothing)
{
	struct stat st;
	struct mask m;
	int fd;

	if (!require_mask(_metadata))
		return;
	fd = open(self->file, O_WRONLY);
	ASSERT_LE(0, fd);
	mask_all_but(&m, __NR_write);
	ASSERT_MASK_DENIES(variant->use_seccomp, &m,
			   syscall(__NR_write, fd, "denied", 6));
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(0, st.st_size);
	close(fd);
}

#ifdef X86_BUILD
/* The other x86 ABI, not listed, gets the empty mask: getpid is killed. */
TEST_F(install, unlisted_abi_gets_the_empty_mask)
{
	struct mask m;
	pid_t pid;

	if (!require_mask(_metadata) || !require_other_abi(_metadata))
		return;
	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	pid = fork_masked(_metadata, variant->use_seccomp, &m);
	if (pid == 0) {
		char buf[4096], val[64];

		CHILD_ASSERT(read_status(0, buf, sizeof(buf)) == 0);
		CHILD_ASSERT(status_field(buf, mask_line(true), val,
					  sizeof(val)));
		CHILD_ASSERT(val[0] == '\0');
		CHILD_DENIED(other_call(OTHER_NR_getpid, 0, 0, 0));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}
#endif

#ifdef ARM64_BUILD
/*
 * The other execution state, not listed, gets the empty mask: the
 * program of that state this child executes (every bit of its own ABI
 * set) is killed at its first syscall, in glibc's start-up, before its
 * main() writes anything.
 */
TEST_F(install, unlisted_abi_gets_the_empty_mask)
{
	struct helper_marker mk;
	struct mask m;
	pid_t pid;

	if (!require_mask(_metadata) || !require_other_abi(_metadata))
		return;
	ASSERT_EQ(0, helper_marker_open(&mk));
	mask_all(&m, SELF_MAX_BITS);
	pid = fork_masked(_metadata, variant->use_seccomp, &m);
	if (pid == 0) {
		static struct helper_cmd cmd;
		static char path[PATH_MAX];
		char buf[4096], val[64];

		close(mk.fd[0]);
		CHILD_ASSERT(helper_path(path, sizeof(path), true));
		CHILD_ASSERT(read_status(0, buf, sizeof(buf)) == 0);
		CHILD_ASSERT(status_field(buf, mask_line(true), val,
					  sizeof(val)));
		CHILD_ASSERT(val[0] == '\0');
		helper_cmd_init(&cmd, path, "any");
		helper_cmd_add(&cmd, "-f");
		helper_cmd_add(&cmd, "%d", mk.fd[1]);
		helper_cmd_add(&cmd, "-k");
		helper_cmd_add(&cmd, "%d", OTHER_NR_getpid);
		helper_exec(&cmd);
	}
	ASSERT_HELPER_DENIED_AT_START(pid, &mk);
}
#endif

TEST(get_seccomp_returns_3_in_mask_mode)
{
	struct mask m;
	pid_t pid;

	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	pid = fork_mask_child(_metadata);
	if (pid < 0)
		return;
	if (pid == 0) {
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&m) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/* Privileges: no_new_privs or CAP_SYS_ADMIN, else EACCES. */

FIXTURE(privilege) {};

FIXTURE_VARIANT(privilege) {
	bool use_seccomp;
};

FIXTURE_VARIANT_ADD(privilege, prctl) { .use_seccomp = false };
FIXTURE_VARIANT_ADD(privilege, seccomp) { .use_seccomp = true };

FIXTURE_SETUP(privilege) {}
FIXTURE_TEARDOWN(privilege) {}

/*
 * In a child without no_new_privs: it drops CAP_SYS_ADMIN, and the
 * install of @m is EACCES and installs nothing.
 */
static void child_install_is_eacces(bool use_seccomp, const struct mask *m)
{
	int ret;

	CHILD_ASSERT(drop_cap_sys_admin() == 0);
	ret = mask_install(use_seccomp, m);
	CHILD_ASSERT(ret == -1 && errno == EACCES);
	CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
}

TEST_F(privilege, eacces_without_nnp_and_without_cap_sys_admin)
{
	struct mask m;
	pid_t pid;

	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	pid = fork_mask_child(_metadata);
	if (pid < 0)
		return;
	if (pid == 0) {
		child_install_is_eacces(variant->use_seccomp, &m);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

TEST_F(privilege, cap_sys_admin_without_nnp_is_enough)
{
	struct mask m;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (geteuid() != 0)
		SKIP(return, "needs CAP_SYS_ADMIN (run as root)");
	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	pid = fork_child(_metadata);
	if (pid == 0) {
		CHILD_ASSERT(mask_install(variant->use_seccomp, &m) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * CAP_SYS_ADMIN counts in the caller's user namespace: without it in the
 * initial one the call is EACCES, in a new user namespace (where the
 * caller has every capability) it works, without no_new_privs.
 */
TEST_F(privilege, cap_sys_admin_in_a_new_user_namespace_is_enough)
{
	struct mask m;
	int status;
	pid_t pid;

	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	pid = fork_mask_child(_metadata);
	if (pid < 0)
		return;
	if (pid == 0) {
		child_install_is_eacces(variant->use_seccomp, &m);
		if (unshare(CLONE_NEWUSER))
			_exit(77);
		CHILD_ASSERT(mask_install(variant->use_seccomp, &m) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		_exit(0);
	}
	status = child_wait(_metadata, pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		SKIP_UNLESS_REQUIRED(return,
				     "CONFIG_USER_NS not enabled (unshare(CLONE_NEWUSER) failed)");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		child_describe(_metadata, status, __LINE__);
		ASSERT_TRUE(0);
	}
}

TEST(nnp_without_cap_sys_admin_is_enough)
{
	struct mask m;
	pid_t pid;

	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	pid = fork_mask_child(_metadata);
	if (pid < 0)
		return;
	if (pid == 0) {
		CHILD_ASSERT(drop_cap_sys_admin() == 0);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&m) == 0);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/* Modes never change once set: mask and strict/filter exclude each other. */
TEST(strict_over_mask_fails_with_einval)
{
	struct mask m;
	pid_t pid;

	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	pid = fork_mask_masked(_metadata, false, &m);
	if (pid < 0)
		return;
	if (pid == 0) {
		CHILD_ASSERT(prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT,
				   0, 0, 0) == -1 && errno == EINVAL);
		CHILD_ASSERT(sys_seccomp(SECCOMP_SET_MODE_STRICT, 0, NULL) ==
			     -1 && errno == EINVAL);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * Version 2: masks and filters stack, both ways. A filter over masks
 * makes the mode 2 and keeps the masks; masks over a filter keep mode 2.
 * Either way the mask still denies.
 */
FIXTURE(stacking) {};

FIXTURE_VARIANT(stacking) {
	bool mask_first;
	bool use_seccomp;
};

FIXTURE_VARIANT_ADD(stacking, filter_over_mask_prctl) { .mask_first = true };
FIXTURE_VARIANT_ADD(stacking, filter_over_mask_seccomp) { .mask_first = true, .use_seccomp = true };
FIXTURE_VARIANT_ADD(stacking, mask_over_filter_prctl) { .mask_first = false };
FIXTURE_VARIANT_ADD(stacking, mask_over_filter_seccomp) { .use_seccomp = true };

FIXTURE_SETUP(stacking) {}
FIXTURE_TEARDOWN(stacking) {}

TEST_F(stacking, is_allowed_and_the_mask_still_denies)
{
	struct mask m;
	pid_t pid;

	mask_all_but(&m, __NR_getppid);
	pid = fork_mask_child(_metadata);
	if (pid < 0)
		return;
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		if (variant->mask_first) {
			CHILD_ASSERT(mask_prctl(&m) == 0);
			/* An allow-all filter, through seccomp(2) or prctl(). */
			CHILD_ASSERT(filter_install(variant->use_seccomp ? 0 : -1,
						    NULL, 0) == 0);
		} else {
			CHILD_ASSERT(filter_allow_all() == 0);
			CHILD_ASSERT(mask_install(variant->use_seccomp, &m) == 0);
		}
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2);
		CHILD_ASSERT(syscall(__NR_getpid) == getpid());
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

/*
 * Mode 2 is still the BPF filter, whatever the unused fourth and fifth
 * prctl() registers hold. Upstream behaviour, which passes without the
 * series: it fails if mode 2 with a fourth argument became a mask request.
 */
TEST(mode_2_with_garbage_in_arg4_installs_a_filter)
{
	struct sock_filter insn[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 1, .filter = insn };
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		char buf[4096], val[64];

		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(syscall(__NR_prctl, PR_SET_SECCOMP,
				     SECCOMP_MODE_FILTER, &prog,
				     0x5a5a5a5aUL, 0xa5a5a5a5UL) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2);
		CHILD_ASSERT(read_status(0, buf, sizeof(buf)) == 0);
		CHILD_ASSERT(status_field(buf, "Seccomp_filters", val,
					  sizeof(val)));
		CHILD_ASSERT(!strcmp(val, "1"));
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * Numbers: beyond nbits is a kill, a set bit for a number the kernel does
 * not implement gets the usual answer for such a number.
 */
TEST(number_at_nbits_is_killed)
{
	struct mask m;
	char c;

	if (!require_mask(_metadata))
		return;
	/*
	 * Bits 0 .. getrandom - 1 all set: getrandom is the first number
	 * outside, exit_group is inside.
	 */
	mask_all(&m, __NR_getrandom);
	ASSERT_LT(__NR_exit_group, __NR_getrandom);
	ASSERT_MASK_DENIES(false, &m, syscall(__NR_getrandom, &c, 1, 0));
}

TEST(number_beyond_max_bits_is_killed)
{
	struct mask m;

	if (!require_mask(_metadata))
		return;
	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	ASSERT_MASK_DENIES(false, &m, syscall(SECCOMP_MASK_MAX_BITS + 5000));
}

TEST(set_bit_for_unimplemented_number_is_not_a_kill)
{
	struct mask m;
	int expected;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	expected = unimplemented_errno();
	ASSERT_LT(0, expected);
	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	pid = fork_masked(_metadata, false, &m);
	if (pid == 0) {
		errno = 0;
		CHILD_ASSERT(syscall(NR_UNIMPLEMENTED) == -1);
		CHILD_ASSERT(errno == expected);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

#if X86_BUILD == 64
TEST(x32_number_is_killed_even_when_low_bits_are_allowed)
{
	struct mask m;
	pid_t pid;

	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	pid = fork_mask_masked(_metadata, false, &m);
	if (pid < 0)
		return;
	if (pid == 0) {
		CHILD_ASSERT(syscall(__NR_getppid) == getppid());
		CHILD_DENIED(x32_syscall(__NR_getppid, 0, 0, 0));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}
#endif

#ifdef X86_BUILD
/*
 * prctl() through the other ABI's entry installs the mask of that ABI;
 * this ABI, not listed, gets the empty mask.
 */
TEST(prctl_through_the_other_abi_installs_that_abis_mask)
{
	unsigned char *bits;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (!require_other_abi(_metadata))
		return;
	bits = low_page();
	ASSERT_TRUE(!!bits);
	memset(bits, 0xff, SECCOMP_MASK_MAX_BITS / 8);
	pid = fork_child(_metadata);
	if (pid == 0) {
		pid_t me = getpid();

		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(other_sys(OTHER_NR_prctl, PR_SET_SECCOMP,
				       SECCOMP_MODE_MASK, (long)bits,
				       SECCOMP_MASK_MAX_BITS, 0) == 0);
		/* No syscall of this ABI from here on, but the denied one. */
		if (other_call(OTHER_NR_prctl, PR_GET_SECCOMP, 0, 0) != 3 ||
		    other_call(OTHER_NR_getpid, 0, 0, 0) != me)
			other_call(OTHER_NR_exit_group, 3, 0, 0);
		CHILD_DENIED(syscall(__NR_getpid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

/*
 * A set bit for a number the kernel does not implement, in the other
 * ABI's mask: the call through that ABI gets -ENOSYS, it is not killed.
 */
TEST(set_bit_for_unimplemented_number_of_the_other_abi_is_enosys)
{
	struct mask m;
	int expected;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	/* The errno of an unimplemented number, without a mask. */
	expected = unimplemented_errno();
	ASSERT_LT(0, expected);
	if (!require_other_abi(_metadata))
		return;
	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	pid = fork_masked_x86(_metadata, &m, &m);
	if (pid == 0) {
		CHILD_ASSERT(abi_call(OTHER_ARCH, NR_UNIMPLEMENTED,
				      NR_UNIMPLEMENTED, 0, 0, 0) == -expected);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * Number 335 with its bit clear in both masks: the native (x86-64)
 * uretprobe syscall is never denied (outside a uretprobe trampoline it
 * gets SIGILL, or -ENOSYS without CONFIG_UPROBES), while 335 through
 * int $0x80 is ia32 rt_tgsigqueueinfo and is denied. A kernel without
 * the uretprobe syscall (before 6.11) has no exception: its native 335
 * is denied like any other clear bit, and the never-denied variant is
 * compiled out.
 */
FIXTURE(uretprobe) {};

FIXTURE_VARIANT(uretprobe) {
	bool x86_64;	/* through the 64-bit entry, else through the ia32 one */
	bool denied;	/* the call must be denied */
};

#ifdef HAVE_URETPROBE
FIXTURE_VARIANT_ADD(uretprobe, x86_64_number_is_never_denied) { .x86_64 = true, .denied = false };
#else
FIXTURE_VARIANT_ADD(uretprobe, x86_64_number_335_is_denied_without_uretprobe) {
	.x86_64 = true,
	.denied = true,
};
#endif

FIXTURE_VARIANT_ADD(uretprobe, ia32_number_335_is_denied) { .x86_64 = false, .denied = true };

FIXTURE_SETUP(uretprobe) {}
FIXTURE_TEARDOWN(uretprobe) {}

TEST_F(uretprobe, bit_clear)
{
	struct mask m;
	int status;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (!require_other_abi(_metadata))
		return;
	mask_all_but(&m, NR64_uretprobe);
	ASSERT_EQ(NR64_uretprobe, NR32_rt_tgsigqueueinfo);
	pid = fork_masked_x86(_metadata, &m, &m);
	if (pid == 0) {
		if (variant->x86_64 && !variant->denied) {
			sys64(NR64_uretprobe, 0, 0, 0, 0, 0);
			_exit(0);
		}
		if (variant->x86_64)
			CHILD_DENIED(sys64(NR64_uretprobe, 0, 0, 0, 0, 0));
		else
			CHILD_DENIED(sys32(NR32_rt_tgsigqueueinfo, 0, 0, 0, 0, 0));
		_exit(0);
	}
	if (variant->denied) {
		ASSERT_CHILD_DENIED(pid);
		return;
	}
	status = child_wait(_metadata, pid);
	ASSERT_TRUE((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
		    (WIFSIGNALED(status) && WTERMSIG(status) == SIGILL)) {
		child_describe(_metadata, status, __LINE__);
	}
}
#endif

#ifdef ARM64_BUILD
/*
 * prctl() from the other execution state installs the mask of that ABI:
 * the helper of that state installs every bit of its ABI through its own
 * prctl(); its /proc lines show that mask and the empty one of this ABI,
 * which was not listed; and the program of this state that it executes
 * next is killed at its first syscall.
 */
TEST(prctl_through_the_other_abi_installs_that_abis_mask)
{
	struct helper_marker mk;
	struct mask other, empty;
	pid_t pid;

	if (!require_mask(_metadata) || !require_other_abi(_metadata))
		return;
	mask_all(&other, OTHER_MAX_BITS);
	mask_none(&empty, 0);
	ASSERT_EQ(0, helper_marker_open(&mk));
	pid = fork_child(_metadata);
	if (pid == 0) {
		static struct helper_cmd cmd;
		static char path[PATH_MAX];

		close(mk.fd[0]);
		CHILD_ASSERT(helper_path(path, sizeof(path), true));
		helper_cmd_init(&cmd, path, "3");
		helper_cmd_add(&cmd, "-p");
		helper_cmd_add(&cmd, "-1/0");
		helper_cmd_status(&cmd, mask_line(true), &other);
		helper_cmd_status(&cmd, mask_line(false), &empty);
		helper_cmd_add(&cmd, "-c");
		helper_cmd_add(&cmd, "%d=%d", OTHER_NR_getppid, getppid());
		helper_cmd_add(&cmd, "-f");
		helper_cmd_add(&cmd, "%d", mk.fd[1]);
		helper_cmd_add(&cmd, "-x");
		CHILD_ASSERT(set_nnp() == 0);
		helper_exec(&cmd);
	}
	ASSERT_HELPER_EXEC_DENIED_AT_START(pid, &mk);
}

/*
 * A set bit for a number the kernel does not implement, in the other
 * ABI's mask: the call through that ABI (in the helper of that state)
 * gets what it gets without a mask, -ENOSYS; it is not killed.
 */
TEST(set_bit_for_unimplemented_number_of_the_other_abi_is_enosys)
{
	struct mask own, other;
	long unimplemented;
	pid_t pid;

	if (!require_mask(_metadata) || !require_other_abi(_metadata))
		return;
	/* Without a mask, in the helper of the other state: as in this one. */
	unimplemented = other_probe(NR_UNIMPLEMENTED, 0);
	ASSERT_GT(0, unimplemented);
	ASSERT_EQ(-unimplemented_errno(), unimplemented);
	mask_all(&own, SELF_MAX_BITS);
	mask_all(&other, OTHER_MAX_BITS);
	pid = fork_child(_metadata);
	if (pid == 0) {
		static struct helper_cmd cmd;
		static char path[PATH_MAX];

		CHILD_ASSERT(helper_path(path, sizeof(path), true));
		helper_cmd_init(&cmd, path, "3");
		helper_cmd_add(&cmd, "-c");
		helper_cmd_add(&cmd, "%d=%ld", NR_UNIMPLEMENTED, unimplemented);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp_own_other(0, 0, 2, &own, &other) == 0);
		helper_exec(&cmd);
	}
	ASSERT_HELPER_OK(pid);
}
#endif

#if ARM64_BUILD == 64
/*
 * The ARM-private bits of an AArch32 mask that an AArch64 task installs
 * through seccomp(2), next to its own: the AArch32 program it executes,
 * mask_helper_32, is judged by exactly those bits, bit 1024 + k for the
 * syscall 0x0f0000 + k (arm_private_test_32 checks the masks an AArch32
 * task installs). Bit 1029 is set, and with the errno action:
 *
 *   set_tls (0x0f0005) runs: the helper's glibc start-up calls it, and
 *	does not go on after an error;
 *   cacheflush (0x0f0002) runs with bit 1026, as its own answer to a
 *	range that ends before it starts shows (-EINVAL), and is denied
 *	without it;
 *   the private calls next to those two, whose bits are clear, and the
 *	numbers 1026 and 1029, outside the mask whatever its bits, are
 *	denied;
 *   Seccomp_mask_compat lists the private bits as 1026 and 1029.
 */
FIXTURE(arm_private_from_aarch64) {
	char helper[PATH_MAX];
};

FIXTURE_VARIANT(arm_private_from_aarch64) {
	bool cacheflush;	/* bit 1026 set, besides set_tls's 1029 */
};

FIXTURE_VARIANT_ADD(arm_private_from_aarch64, set_tls_alone) {
	.cacheflush = false,
};

FIXTURE_VARIANT_ADD(arm_private_from_aarch64, set_tls_and_cacheflush) {
	.cacheflush = true,
};

FIXTURE_SETUP(arm_private_from_aarch64)
{
	if (!require_mask(_metadata) || !require_other_abi(_metadata))
		return;
	ASSERT_TRUE(helper_path(self->helper, sizeof(self->helper), true));
}

FIXTURE_TEARDOWN(arm_private_from_aarch64) {}

TEST_F(arm_private_from_aarch64, the_aarch32_program_gets_exactly_its_bits)
{
	const __u32 action = SECCOMP_RET_ERRNO | MASK_ERRNO;
	/* The calls made: private ones (0x0f0000 + k), and two numbers. */
	static const long nrs[] = {
		ARM_PRIVATE_BASE + 1, ARM_NR_cacheflush, ARM_PRIVATE_BASE + 3,
		ARM_PRIVATE_BASE + 4, ARM_NR_get_tls,
		ARM_PRIVATE_BIT(ARM_NR_cacheflush),
		ARM_PRIVATE_BIT(ARM_NR_set_tls),
	};
	/* Of the 16 private bits, set_tls's (k = 5) and cacheflush's (2). */
	unsigned int bits = (1U << 5) | (variant->cacheflush ? 1U << 2 : 0);
	struct mask own, arm;
	pid_t pid;

	mask_all(&own, SELF_MAX_BITS);
	mask_arm_private(&arm, bits);
	pid = fork_child(_metadata);
	if (pid == 0) {
		static struct helper_cmd cmd;
		char act[32];
		size_t i;

		helper_cmd_init(&cmd, self->helper, "3");
		helper_cmd_status(&cmd, mask_line(true), &arm);
		helper_cmd_status(&cmd, mask_line(false), &own);
		action_format(action, act, sizeof(act));
		helper_cmd_add(&cmd, "-s");
		helper_cmd_add(&cmd, "Seccomp_mask_action=%s", act);
		/* Each with 1 as its first argument: cacheflush's start. */
		for (i = 0; i < ARRAY_SIZE(nrs); i++) {
			bool runs = nrs[i] == ARM_NR_cacheflush &&
				    variant->cacheflush;

			helper_cmd_add(&cmd, "-c");
			helper_cmd_add(&cmd, "%ld,1=%d", nrs[i],
				       runs ? -EINVAL : -MASK_ERRNO);
		}
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp_own_other(0, action, 2, &own,
						    &arm) == 0);
		helper_exec(&cmd);
	}
	ASSERT_HELPER_OK(pid);
}
#endif

TEST_HARNESS_MAIN
