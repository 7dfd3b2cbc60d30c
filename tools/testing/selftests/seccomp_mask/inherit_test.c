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

TEST(fork_child_inherits_the_mask)
{
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int status;
		pid_t gc;

		install_deny_getppid();
		gc = fork();
		CHILD_ASSERT(gc >= 0);
		if (gc == 0) {
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
			syscall(__NR_getppid);
			_exit(0);
		}
		CHILD_ASSERT(waitpid(gc, &status, 0) == gc);
		CHILD_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS);
		/* The parent is unaffected by its child's kill. */
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

TEST(vfork_child_inherits_the_mask)
{
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int status;
		pid_t gc;

		install_deny_getppid();
		gc = vfork();
		CHILD_ASSERT(gc >= 0);
		if (gc == 0) {
			syscall(__NR_getppid);
			_exit(0);
		}
		CHILD_ASSERT(waitpid(gc, &status, 0) == gc);
		CHILD_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

static int thread_mode = -1;

static int clone_thread_fn(void *arg)
{
	__atomic_store_n(&thread_mode, prctl(PR_GET_SECCOMP, 0, 0, 0, 0),
			 __ATOMIC_SEQ_CST);
	syscall(__NR_getppid);
	/* Not reached: the whole process is killed. */
	__atomic_store_n(&thread_mode, -2, __ATOMIC_SEQ_CST);
	syscall(__NR_exit, 0);
	return 0;
}

TEST(clone_thread_shares_the_mask_and_its_kill_takes_the_process)
{
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	pid = child_fork();
	ASSERT_LE(0, pid);
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
	ASSERT_CHILD_KILLED(pid, SIGSYS);
}

static void *pthread_fn(void *arg)
{
	int *mode = arg;

	*mode = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
	return NULL;
}

TEST(pthread_shares_the_mask)
{
	pid_t pid;

	if (!require_mask(_metadata) || !require_threads(_metadata))
		return;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pthread_t t;
		int mode = -1;

		install_deny_getppid();
		CHILD_ASSERT(pthread_create(&t, NULL, pthread_fn, &mode) == 0);
		CHILD_ASSERT(pthread_join(t, NULL) == 0);
		CHILD_ASSERT(mode == 3);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
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
	syscall(__NR_getppid);
	return NULL;
}

TEST(denied_call_in_one_thread_kills_every_thread)
{
	pid_t pid;

	if (!require_mask(_metadata) || !require_threads(_metadata))
		return;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pthread_t t[4];
		int i;

		install_deny_getppid();
		for (i = 0; i < 3; i++)
			CHILD_ASSERT(pthread_create(&t[i], NULL, sleeper_fn,
						    NULL) == 0);
		CHILD_ASSERT(pthread_create(&t[3], NULL, denier_fn, NULL) == 0);
		/* If only the denier died, the join returns and we exit 0. */
		CHILD_ASSERT(pthread_join(t[3], NULL) == 0);
		_exit(0);
	}
	ASSERT_CHILD_KILLED(pid, SIGSYS);
}

/* The helper built next to this program, with the same _32/_64 suffix. */
static bool helper_path(char *buf, size_t len)
{
	char exe[PATH_MAX - 32], *slash;
	const char *suffix = "";
	ssize_t n, blen;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	blen = strlen(slash);
	if (blen > 3 && (!strcmp(slash + blen - 3, "_32") ||
			 !strcmp(slash + blen - 3, "_64")))
		suffix = slash + blen - 3;
	*slash = '\0';
	snprintf(buf, len, "%s/mask_helper%s", exe, suffix);
	return !access(buf, X_OK);
}

FIXTURE(execve) {
	char helper[PATH_MAX];
};

FIXTURE_SETUP(execve)
{
	if (!helper_path(self->helper, sizeof(self->helper)))
		SKIP(return, "mask_helper not found next to this program");
}

FIXTURE_TEARDOWN(execve) {}

TEST_F(execve, keeps_the_mask)
{
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *const argv[] = { self->helper, "3", NULL };

		install_deny_getppid();
		execve(self->helper, argv, environ);
		CHILD_ASSERT(!"execve failed");
	}
	ASSERT_CHILD_OK(pid);
}

TEST_F(execve, denied_call_after_execve_is_killed)
{
	char nr[16];
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	snprintf(nr, sizeof(nr), "%d", __NR_getppid);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *const argv[] = { self->helper, "3", nr, NULL };

		install_deny_getppid();
		execve(self->helper, argv, environ);
		CHILD_ASSERT(!"execve failed");
	}
	ASSERT_CHILD_KILLED(pid, SIGSYS);
}

TEST_HARNESS_MAIN
