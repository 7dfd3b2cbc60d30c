// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: fork, vfork, clone, threads and execve share the mask
 */

#include <pthread.h>
#include <sched.h>

#include "common.h"

static struct mask deny_getppid;

static void install_deny_getppid(void)
{
	mask_all_but(&deny_getppid, __NR_getppid);
	CHILD_ASSERT(set_nnp() == 0);
	CHILD_ASSERT(mask_prctl(&deny_getppid) == 0);
}

/*
 * fork_mask_child() (fork_mask_threads_child() with @threads), and the
 * child installs the mask (install_deny_getppid()): the pid in the
 * parent, 0 in the child, -1 when the test is skipped.
 */
static pid_t fork_denying_getppid(struct __test_metadata *const _metadata,
				  bool threads)
{
	pid_t pid = threads ? fork_mask_threads_child(_metadata) :
		    fork_mask_child(_metadata);

	if (pid == 0)
		install_deny_getppid();
	return pid;
}

/* In the child: its child reached CHILD_DENIED() and did not return. */
static bool grandchild_died_at_denied_call(void)
{
	return __atomic_load_n(&child_report->denied_line, __ATOMIC_SEQ_CST) &&
	       !__atomic_load_n(&child_report->denied_returned,
				__ATOMIC_SEQ_CST);
}

/*
 * In the child, with the mask installed: its own child, made by vfork()
 * with @use_vfork, else by fork(), dies by SIGSYS at its denied getppid.
 * (The vforked one makes no call before that one.)
 */
static void grandchild_dies_at_getppid(bool use_vfork)
{
	int status;
	pid_t gc;

	gc = use_vfork ? vfork() : fork();
	CHILD_ASSERT(gc >= 0);
	if (gc == 0) {
		if (!use_vfork)
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	CHILD_ASSERT(waitpid(gc, &status, 0) == gc);
	CHILD_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS);
	CHILD_ASSERT(grandchild_died_at_denied_call());
}

/*
 * The masked child's own child, made by vfork() with @use_vfork, else by
 * fork(), has the mask: it dies at the denied call, and the masked child
 * lives on, still in mode 3.
 */
static void assert_grandchild_inherits(struct __test_metadata *const _metadata,
				       bool use_vfork)
{
	pid_t pid = fork_denying_getppid(_metadata, false);

	if (pid < 0)
		return;
	if (pid == 0) {
		grandchild_dies_at_getppid(use_vfork);
		/* The parent is unaffected by its child's kill. */
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

TEST(fork_child_inherits_the_mask)
{
	assert_grandchild_inherits(_metadata, false);
}

TEST(vfork_child_inherits_the_mask)
{
	assert_grandchild_inherits(_metadata, true);
}

static int thread_mode = -1;

static int clone_thread_fn(void *arg)
{
	__atomic_store_n(&thread_mode, prctl(PR_GET_SECCOMP, 0, 0, 0, 0),
			 __ATOMIC_SEQ_CST);
	CHILD_DENIED(syscall(__NR_getppid));
	/* Not reached: the whole process is killed. */
	__atomic_store_n(&thread_mode, -2, __ATOMIC_SEQ_CST);
	syscall(__NR_exit, 0);
	return 0;
}

TEST(clone_thread_shares_the_mask_and_its_kill_takes_the_process)
{
	pid_t pid = fork_mask_child(_metadata);

	if (pid < 0)
		return;
	if (pid == 0) {
		const size_t size = 64 * 1024;
		char *stack = malloc(size);
		int i;

		CHILD_ASSERT(stack);
		install_deny_getppid();
		CHILD_ASSERT(clone(clone_thread_fn, stack + size,
				   CLONE_VM | CLONE_FS | CLONE_FILES |
				   CLONE_SIGHAND | CLONE_THREAD |
				   CLONE_SYSVSEM, NULL) > 0);
		/* Give the thread ten seconds to take this thread down. */
		for (i = 0; i < 1000; i++)
			usleep(10000);
		_exit(__atomic_load_n(&thread_mode, __ATOMIC_SEQ_CST) == -2 ?
		      3 : 4);
	}
	ASSERT_CHILD_DENIED(pid);
}

/* The threads of the two tests below. */
static void *pthread_fn(void *arg)
{
	int *mode = arg;

	*mode = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
	return NULL;
}

static void *sleeper_fn(void *arg)
{
	for (;;)
		pause();
	return NULL;
}

static void *denier_fn(void *arg)
{
	usleep(10000);
	CHILD_DENIED(syscall(__NR_getppid));
	return NULL;
}

TEST(pthread_shares_the_mask)
{
	pid_t pid = fork_denying_getppid(_metadata, true);

	if (pid < 0)
		return;
	if (pid == 0) {
		pthread_t t;
		int mode = -1;

		CHILD_ASSERT(pthread_create(&t, NULL, pthread_fn, &mode) == 0);
		CHILD_ASSERT(pthread_join(t, NULL) == 0);
		CHILD_ASSERT(mode == 3);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

TEST(denied_call_in_one_thread_kills_every_thread)
{
	pid_t pid = fork_denying_getppid(_metadata, true);

	if (pid < 0)
		return;
	if (pid == 0) {
		pthread_t t[4];
		int i;

		for (i = 0; i < 3; i++)
			CHILD_ASSERT(pthread_create(&t[i], NULL, sleeper_fn,
						    NULL) == 0);
		CHILD_ASSERT(pthread_create(&t[3], NULL, denier_fn, NULL) == 0);
		/* If only the denier died, the join returns and we exit 0. */
		CHILD_ASSERT(pthread_join(t[3], NULL) == 0);
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
}

FIXTURE(execve) {
	char helper[PATH_MAX];
	int nr_getpid;		/* in the helper's ABI */
	int nr_getppid;		/* in the helper's ABI */
	int marker[2];		/* the helper's 'b'efore and 'a'fter */
};

FIXTURE_VARIANT(execve) {
	bool other_abi;		/* exec the helper of the other ABI */
};

FIXTURE_VARIANT_ADD(execve, same_abi) { .other_abi = false };

/* x86: the other x86 ABI; arm64: the other execution state (helper.h). */
#ifdef TWO_ABIS
FIXTURE_VARIANT_ADD(execve, other_abi) { .other_abi = true };
#endif

FIXTURE_SETUP(execve)
{
	self->marker[0] = -1;
	self->marker[1] = -1;
	self->nr_getpid = __NR_getpid;
	self->nr_getppid = __NR_getppid;
#ifdef TWO_ABIS
	if (variant->other_abi) {
		if (!other_abi_available())
			SKIP_UNLESS_REQUIRED(return,
					     "the kernel has no second ABI (%s)",
					     OTHER_ABI_WHY);
		self->nr_getpid = OTHER_NR_getpid;
		self->nr_getppid = OTHER_NR_getppid;
	}
#endif
	if (!helper_path(self->helper, sizeof(self->helper), variant->other_abi))
		SKIP_UNLESS_REQUIRED(return, "%s not built next to this program",
				     variant->other_abi ?
				     "the other ABI's mask_helper" : "mask_helper");
	ASSERT_EQ(0, pipe(self->marker));
}

FIXTURE_TEARDOWN(execve)
{
	if (self->marker[0] >= 0)
		close(self->marker[0]);
	if (self->marker[1] >= 0)
		close(self->marker[1]);
}

/* The helper's "-s KEY=VALUE": the status line of @m must read its bits. */
static void status_arg(char *buf, size_t len, const char *key,
		       const struct mask *m)
{
	char bits[4096];

	mask_format(m, bits, sizeof(bits));
	snprintf(buf, len, "%s=%s", key, bits);
}

/*
 * In the child: deny getppid in both ABIs (or this one) with @action,
 * then exec the helper with "3", the -s checks of every mask line of
 * /proc/self/status that this install sets (so that the helper checks
 * the masks and the action that execve kept), and @extra (NULL-ended).
 * Each mask allows every other number up to its ABI's largest nbits: an
 * AArch32 helper's start-up calls set_tls (bit 1029).
 */
static void __noreturn exec_helper(const char *helper, __u32 action,
				   const char *const extra[])
{
	static char lines[3][4200];
	char act[64];
	const char *argv[32];
	int argc = 0, nlines = 1, i;

	argv[argc++] = helper;
	argv[argc++] = "3";
	action_format(action, act, sizeof(act));
	snprintf(lines[0], sizeof(lines[0]), "Seccomp_mask_action=%s", act);
	argv[argc++] = "-s";
	argv[argc++] = lines[0];
	mask_all_abi_but(&deny_getppid, SELF_MAX_BITS, __NR_getppid);
	CHILD_ASSERT(set_nnp() == 0);
#ifdef ARM64_BUILD
	if (other_abi_available()) {
		static struct mask other;

		mask_all_abi_but(&other, OTHER_MAX_BITS, OTHER_NR_getppid);
		status_arg(lines[1], sizeof(lines[1]), mask_line(false),
			   &deny_getppid);
		status_arg(lines[2], sizeof(lines[2]), mask_line(true), &other);
		CHILD_ASSERT(mask_seccomp_own_other(0, action, 2, &deny_getppid,
						    &other) == 0);
		nlines = 2;
	}
#elif defined(X86_BUILD)
	if (other_abi_available()) {
		/* Both ABIs work: a 64-bit kernel, x86-64 its native one. */
		static struct mask m64, m32;
		const __u32 arch[2] = { ARCH_X86_64, ARCH_I386 };
		const struct mask *both[2] = { &m64, &m32 };

		mask_all_but(&m64, NR64_getppid);
		mask_all_but(&m32, NR32_getppid);
		status_arg(lines[1], sizeof(lines[1]), "Seccomp_mask", &m64);
		status_arg(lines[2], sizeof(lines[2]), "Seccomp_mask_compat",
			   &m32);
		CHILD_ASSERT(mask_seccomp_set(0, action, 2, arch, both) == 0);
		nlines = 2;
	}
#endif
	if (nlines == 1) {
		/* This ABI only: its mask line. */
		status_arg(lines[1], sizeof(lines[1]), mask_line(false),
			   &deny_getppid);
		CHILD_ASSERT(mask_prctl_action(&deny_getppid, action) == 0);
	}
	for (i = 1; i <= nlines; i++) {
		argv[argc++] = "-s";
		argv[argc++] = lines[i];
	}
	for (i = 0; extra[i] && argc < (int)ARRAY_SIZE(argv) - 1; i++)
		argv[argc++] = extra[i];
	CHILD_ASSERT(!extra[i]);
	argv[argc] = NULL;
	execve(helper, (char *const *)argv, environ);
	CHILD_ASSERT(!"execve failed");
	_exit(1);
}

/*
 * The mask and its action survive execve: the mode, every mask line, and
 * an allowed call (getpid, which returns the pid forked) in the helper.
 */
TEST_F(execve, keeps_the_mask)
{
	pid_t pid = fork_mask_child(_metadata);

	if (pid < 0)
		return;
	if (pid == 0) {
		char getpid_is[32];
		const char *const extra[] = { "-c", getpid_is, NULL };

		snprintf(getpid_is, sizeof(getpid_is), "%d=%d",
			 self->nr_getpid, getpid());
		exec_helper(self->helper, 0, extra);
	}
	ASSERT_CHILD_OK(pid);
}

/* The kill action survives execve: the denied getppid kills the helper. */
TEST_F(execve, denied_call_after_execve_is_killed)
{
	char nr[16], fd[16], got[8];
	int status;
	ssize_t n;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	snprintf(nr, sizeof(nr), "%d", self->nr_getppid);
	snprintf(fd, sizeof(fd), "%d", self->marker[1]);
	pid = fork_child(_metadata);
	if (pid == 0) {
		char getpid_is[32];
		const char *const extra[] = {
			"-c", getpid_is, "-f", fd, "-k", nr, NULL
		};

		close(self->marker[0]);
		snprintf(getpid_is, sizeof(getpid_is), "%d=%d",
			 self->nr_getpid, getpid());
		exec_helper(self->helper, 0, extra);
	}
	close(self->marker[1]);
	self->marker[1] = -1;
	status = child_wait(_metadata, pid);
	n = read(self->marker[0], got, sizeof(got) - 1);
	got[n > 0 ? n : 0] = '\0';
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS) {
		child_describe(_metadata, status, __LINE__);
	}
	/* Killed at the denied call: after 'b', before 'a'. */
	ASSERT_STREQ("b", got);
}

/*
 * An action other than the kill survives execve too: in the helper, the
 * denied getppid returns exactly -MASK_ERRNO, getpid runs, and the
 * Seccomp_mask_action line reads "errno 5".
 */
TEST_F(execve, keeps_the_errno_action)
{
	pid_t pid = fork_mask_child(_metadata);

	if (pid < 0)
		return;
	if (pid == 0) {
		char getpid_is[32], getppid_is[32];
		const char *const extra[] = {
			"-c", getpid_is, "-c", getppid_is, NULL
		};

		snprintf(getpid_is, sizeof(getpid_is), "%d=%d",
			 self->nr_getpid, getpid());
		snprintf(getppid_is, sizeof(getppid_is), "%d=%d",
			 self->nr_getppid, -MASK_ERRNO);
		exec_helper(self->helper, SECCOMP_RET_ERRNO | MASK_ERRNO,
			    extra);
	}
	ASSERT_CHILD_OK(pid);
}

TEST_HARNESS_MAIN
