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
 *
 * The strict-mode tests check upstream behaviour and pass without the
 * series: they stay because the series rewrites the syscall entry path
 * that strict mode goes through, and they fail if it judges strict mode
 * by the task's ABI. They are not mask tests.
 */

#include "common.h"

FIXTURE(hole) {
	char dir[64];
	char *file;	/* below 4 GiB in 64-bit builds, for int $0x80 */
};

FIXTURE_SETUP(hole)
{
	int fd;

	self->file = low_page();
	ASSERT_TRUE(!!self->file);
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

#ifdef X86_BUILD
/*
 * One test per hole, for both builds; the names say which way the call
 * crosses: int $0x80 from a 64-bit task, or a far jump to the 64-bit
 * code segment and "syscall" from a 32-bit one.
 */
#if X86_BUILD == 64
#define KILLED_BY_MASK \
	int80_chmod_from_64bit_task_is_killed_by_mask
#define CHECKED_AGAINST_OTHER_MASK \
	int80_chmod_from_64bit_task_is_checked_against_ia32_mask
#define KILLED_BY_STRICT_MODE \
	int80_chmod_from_64bit_task_is_killed_by_strict_mode
#define ALLOWED_CHMOD_RETURNS \
	allowed_int80_chmod_from_64bit_task_returns
#else
#define KILLED_BY_MASK \
	farjump_syscall_from_32bit_task_is_killed_by_mask
#define CHECKED_AGAINST_OTHER_MASK \
	farjump_syscall_from_32bit_task_is_checked_against_64bit_mask
#define KILLED_BY_STRICT_MODE \
	farjump_syscall_from_32bit_task_is_killed_by_strict_mode
#define ALLOWED_CHMOD_RETURNS \
	allowed_farjump_chmod_from_32bit_task_returns
#endif

/* Can this task make calls of the other ABI at all? */
static bool require_other_entry(struct __test_metadata *const _metadata)
{
#if X86_BUILD == 64
	return require_ia32(_metadata);
#else
	if (!kernel_is_64bit())
		SKIP(return false, "a 32-bit kernel has no 64-bit code segment");
	return true;
#endif
}

/* require_mask(), then require_other_entry(). */
static bool require_mask_other_entry(struct __test_metadata *const _metadata)
{
	return require_mask(_metadata) && require_other_entry(_metadata);
}

/* fork_masked_x86() with @own for this program's ABI, @other for the other. */
static pid_t fork_masked_own_other(struct __test_metadata *const _metadata,
				   const struct mask *own,
				   const struct mask *other)
{
#if X86_BUILD == 64
	return fork_masked_x86(_metadata, own, other);
#else
	return fork_masked_x86(_metadata, other, own);
#endif
}

/* chmod() of @file through the other ABI's entry. */
static long other_chmod(const char *file, long mode)
{
	return other_call(OTHER_NR_chmod, (long)file, mode, 0);
}

/*
 * This ABI's mask allows every number: the other ABI's chmod number is
 * allowed in it too (64-bit 15, rt_sigreturn; ia32 90, old mmap). The
 * call through the other entry is checked against the other ABI's mask,
 * which is empty.
 */
TEST_F(hole, KILLED_BY_MASK)
{
	struct mask m;

	if (!require_mask_other_entry(_metadata))
		return;
	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	ASSERT_TRUE(mask_test(&m, OTHER_NR_chmod));
	ASSERT_MASK_DENIES(false, &m, other_chmod(self->file, 0777));
	assert_mode_0600(_metadata, self->file);
}

/* The same, with the other ABI's mask given: it allows all but chmod. */
TEST_F(hole, CHECKED_AGAINST_OTHER_MASK)
{
	struct mask own, other;
	pid_t pid;

	if (!require_mask_other_entry(_metadata))
		return;
	mask_all(&own, SECCOMP_MASK_MAX_BITS);
	mask_all_but(&other, OTHER_NR_chmod);
	pid = fork_masked_own_other(_metadata, &own, &other);
	if (pid == 0) {
		/* The other ABI's getpid is allowed by its mask. */
		CHILD_ASSERT(other_call(OTHER_NR_getpid, 0, 0, 0) == getpid());
		CHILD_DENIED(other_chmod(self->file, 0777));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
	assert_mode_0600(_metadata, self->file);
}

TEST_F(hole, KILLED_BY_STRICT_MODE)
{
	if (!require_other_entry(_metadata))
		return;
	ASSERT_STRICT_DENIES(false, other_chmod(self->file, 0777));
	assert_mode_0600(_metadata, self->file);
}

/*
 * Strict mode allows ia32 read (3); 64-bit 3 is close, which strict mode
 * must not allow to a 32-bit task either.
 */
#if X86_BUILD == 32
TEST_F(hole, farjump_close_from_32bit_task_is_killed_by_strict_mode)
{
	if (require_other_entry(_metadata))
		ASSERT_STRICT_DENIES(false, other_call(NR64_close, 0, 0, 0));
}
#endif

/*
 * Survive-only: a call of the other ABI that its mask allows returns
 * normally and has its effect.
 */
TEST_F(hole, ALLOWED_CHMOD_RETURNS)
{
	struct mask own, other;
	struct stat st;
	pid_t pid;

	if (!require_mask_other_entry(_metadata))
		return;
	/* This ABI's chmod (__NR_chmod) is denied, the other ABI's allowed. */
	mask_all_but(&own, __NR_chmod);
	MASK_ONLY(&other, SECCOMP_MASK_MAX_BITS, OTHER_NR_chmod,
		  OTHER_NR_getpid);
	pid = fork_masked_own_other(_metadata, &own, &other);
	if (pid == 0) {
		CHILD_ASSERT(other_call(OTHER_NR_getpid, 0, 0, 0) == getpid());
		CHILD_ASSERT(other_chmod(self->file, 0640) == 0);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
	ASSERT_EQ(0, stat(self->file, &st));
	EXPECT_EQ(0640, st.st_mode & 07777);
}
#endif

TEST_HARNESS_MAIN
