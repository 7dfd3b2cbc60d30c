// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the x86-64 32/64 holes of commit 5b1017404aea
 * ("x86-64: seccomp: fix 32/64 syscall hole"), rewritten for masks, and
 * the same holes against strict mode as regression tests.
 *
 * The ABI a syscall is checked against is the one the syscall came in
 * through, never the task's: a 64-bit task using int $0x80 makes ia32
 * syscalls, a 32-bit task that far-jumps into the 64-bit code segment and
 * uses "syscall" makes 64-bit ones.
 */

#include "common.h"

FIXTURE(hole) {
	char dir[64];
	char *file;	/* below 4 GiB in 64-bit builds, for int $0x80 */
};

FIXTURE_SETUP(hole)
{
	int fd;

#if X86_BUILD == 64
	self->file = low_page();
	ASSERT_TRUE(!!self->file);
#else
	self->file = malloc(128);
	ASSERT_TRUE(!!self->file);
#endif
	snprintf(self->dir, sizeof(self->dir), "/tmp/seccomp_mask.XXXXXX");
	ASSERT_TRUE(!!mkdtemp(self->dir));
	snprintf(self->file, 128, "%s/file", self->dir);
	fd = open(self->file, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fchmod(fd, 0600));
	ASSERT_EQ(0, close(fd));
}

FIXTURE_TEARDOWN(hole)
{
	unlink(self->file);
	rmdir(self->dir);
}

static void assert_mode_0600(struct __test_metadata *const _metadata,
			     const char *file)
{
	struct stat st;

	ASSERT_EQ(0, stat(file, &st));
	EXPECT_EQ(0600, st.st_mode & 07777);
}

/*
 * 64-bit mask allows 15 (rt_sigreturn); int $0x80 with 15 is ia32 chmod,
 * checked against the ia32 mask, which is empty.
 */
#if X86_BUILD == 64
TEST_F(hole, int80_chmod_from_64bit_task_is_killed_by_mask)
{
	struct mask m;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (!require_ia32(_metadata))
		return;
	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	ASSERT_TRUE(mask_test(&m, __NR_rt_sigreturn));
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&m) == 0);
		CHILD_DENIED(int80(NR32_chmod, (long)self->file, 0777, 0));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
	assert_mode_0600(_metadata, self->file);
}
#endif

/* The same, with the ia32 mask given explicitly and allowing all but 15. */
#if X86_BUILD == 64
TEST_F(hole, int80_chmod_from_64bit_task_is_checked_against_ia32_mask)
{
	struct mask native, compat;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (!require_ia32(_metadata))
		return;
	mask_all(&native, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&compat, NR32_chmod);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		const __u32 arch[2] = { ARCH_X86_64, ARCH_I386 };
		const struct mask *m[2] = { &native, &compat };

		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp(2, arch, m) == 0);
		/* ia32 getpid is allowed by the ia32 mask. */
		CHILD_ASSERT(int80(NR32_getpid, 0, 0, 0) == getpid());
		CHILD_DENIED(int80(NR32_chmod, (long)self->file, 0777, 0));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
	assert_mode_0600(_metadata, self->file);
}
#endif

#if X86_BUILD == 64
TEST_F(hole, int80_chmod_from_64bit_task_is_killed_by_strict_mode)
{
	pid_t pid;

	if (!require_ia32(_metadata))
		return;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT,
				   0, 0, 0) == 0);
		CHILD_DENIED(int80(NR32_chmod, (long)self->file, 0777, 0));
		syscall(__NR_exit, 0);
	}
	ASSERT_CHILD_KILLED_AT(pid, SIGKILL);
	assert_mode_0600(_metadata, self->file);
}
#endif

#if X86_BUILD == 32
static bool require_64bit_kernel(struct __test_metadata *const _metadata)
{
	if (!kernel_is_64bit())
		SKIP(return false, "a 32-bit kernel has no 64-bit code segment");
	return true;
}
#endif

/*
 * 32-bit mask allows everything, 90 included (ia32 old mmap); a far jump
 * to the 64-bit code segment and "syscall" with 90 is 64-bit chmod,
 * checked against the 64-bit mask, which is empty.
 */
#if X86_BUILD == 32
TEST_F(hole, farjump_syscall_from_32bit_task_is_killed_by_mask)
{
	struct mask m;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (!require_64bit_kernel(_metadata))
		return;
	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&m) == 0);
		CHILD_DENIED(syscall64(NR64_chmod, (long)self->file, 0777, 0));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
	assert_mode_0600(_metadata, self->file);
}
#endif

/* The same, with a 64-bit mask that allows all but chmod. */
#if X86_BUILD == 32
TEST_F(hole, farjump_syscall_from_32bit_task_is_checked_against_64bit_mask)
{
	struct mask native, compat;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (!require_64bit_kernel(_metadata))
		return;
	mask_all_but(&native, NR64_chmod);
	mask_all(&compat, SECCOMP_MASK_MAX_BITS);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		const __u32 arch[2] = { ARCH_X86_64, ARCH_I386 };
		const struct mask *m[2] = { &native, &compat };

		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp(2, arch, m) == 0);
		/* 64-bit getpid is allowed by the 64-bit mask. */
		CHILD_ASSERT(syscall64(NR64_getpid, 0, 0, 0) == getpid());
		CHILD_DENIED(syscall64(NR64_chmod, (long)self->file, 0777, 0));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
	assert_mode_0600(_metadata, self->file);
}
#endif

#if X86_BUILD == 32
TEST_F(hole, farjump_syscall_from_32bit_task_is_killed_by_strict_mode)
{
	pid_t pid;

	if (!require_64bit_kernel(_metadata))
		return;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT,
				   0, 0, 0) == 0);
		CHILD_DENIED(syscall64(NR64_chmod, (long)self->file, 0777, 0));
		syscall(__NR_exit, 0);
	}
	ASSERT_CHILD_KILLED_AT(pid, SIGKILL);
	assert_mode_0600(_metadata, self->file);
}
#endif

/*
 * Strict mode allows ia32 read (3); 64-bit 3 is close, which strict mode
 * must not allow to a 32-bit task either.
 */
#if X86_BUILD == 32
TEST_F(hole, farjump_close_from_32bit_task_is_killed_by_strict_mode)
{
	pid_t pid;

	if (!require_64bit_kernel(_metadata))
		return;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT,
				   0, 0, 0) == 0);
		CHILD_DENIED(syscall64(NR64_close, 0, 0, 0));
		syscall(__NR_exit, 0);
	}
	ASSERT_CHILD_KILLED_AT(pid, SIGKILL);
}
#endif

/*
 * Survive-only: a call of the other ABI that its mask allows returns
 * normally and has its effect.
 */
#if X86_BUILD == 64
TEST_F(hole, allowed_int80_chmod_from_64bit_task_returns)
{
	struct mask native, compat;
	struct stat st;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (!require_ia32(_metadata))
		return;
	mask_all_but(&native, NR64_chmod);
	mask_none(&compat, SECCOMP_MASK_MAX_BITS);
	mask_set(&compat, NR32_chmod);
	mask_set(&compat, NR32_getpid);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		const __u32 arch[2] = { ARCH_X86_64, ARCH_I386 };
		const struct mask *m[2] = { &native, &compat };

		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp(2, arch, m) == 0);
		CHILD_ASSERT(int80(NR32_getpid, 0, 0, 0) == getpid());
		CHILD_ASSERT(int80(NR32_chmod, (long)self->file, 0640, 0) == 0);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
	ASSERT_EQ(0, stat(self->file, &st));
	EXPECT_EQ(0640, st.st_mode & 07777);
}
#endif

#if X86_BUILD == 32
TEST_F(hole, allowed_farjump_chmod_from_32bit_task_returns)
{
	struct mask native, compat;
	struct stat st;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (!require_64bit_kernel(_metadata))
		return;
	mask_none(&native, SECCOMP_MASK_MAX_BITS);
	mask_set(&native, NR64_chmod);
	mask_set(&native, NR64_getpid);
	mask_all_but(&compat, NR32_chmod);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		const __u32 arch[2] = { ARCH_X86_64, ARCH_I386 };
		const struct mask *m[2] = { &native, &compat };

		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp(2, arch, m) == 0);
		CHILD_ASSERT(syscall64(NR64_getpid, 0, 0, 0) == getpid());
		CHILD_ASSERT(syscall64(NR64_chmod, (long)self->file, 0640, 0) ==
			     0);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
	ASSERT_EQ(0, stat(self->file, &st));
	EXPECT_EQ(0640, st.st_mode & 07777);
}
#endif

TEST_HARNESS_MAIN
