// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode, version 2: SECCOMP_MASK_FLAG_TSYNC.
 *
 * The caller's resulting masks and action reach every thread of its
 * group, all or nothing. A thread that cannot take them (strict mode, or
 * masks that are not a superset of the new ones, or a stronger action)
 * makes the call return its TID, and then nothing changes anywhere. With
 * no_new_privs, every thread gets it.
 *
 * Each thread of these tests is a worker that waits for commands on a
 * pipe, so that it can be looked at in /proc and made to call getppid
 * after the main thread's install.
 */

#include <pthread.h>

#include "common.h"

#ifdef X86_BUILD

#define TSYNC_ERRNO	9	/* the action the tests install: ERRNO 9 */

struct worker {
	pthread_t thread;
	pid_t tid;
	int (*setup)(void);	/* run first, in the thread */
	int go[2];
	int done[2];
	long ret;		/* setup's return, then each command's */
};

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	char c;

	w->tid = syscall(__NR_gettid);
	w->ret = w->setup ? w->setup() : 0;
	/* Only read, write and exit: the worker may be in strict mode. */
	for (;;) {
		if (write(w->done[1], "d", 1) != 1 ||
		    read(w->go[0], &c, 1) != 1)
			syscall(__NR_exit, 1);
		switch (c) {
		case 'p':
			w->ret = own_call(__NR_getppid);
			break;
		case 'm':
			w->ret = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
			break;
		case 'n':
			w->ret = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
			break;
		default:
			syscall(__NR_exit, 0);
		}
	}
	return NULL;
}

/* In a child: start @w, which runs @setup; it must return 0. */
static void worker_start(struct worker *w, int (*setup)(void))
{
	char c;

	memset(w, 0, sizeof(*w));
	w->setup = setup;
	CHILD_ASSERT(pipe(w->go) == 0 && pipe(w->done) == 0);
	CHILD_ASSERT(pthread_create(&w->thread, NULL, worker_fn, w) == 0);
	CHILD_ASSERT(read(w->done[0], &c, 1) == 1);
	CHILD_ASSERT(w->ret == 0);
}

/* Have @w run command @cmd; its result. */
static long worker_do(struct worker *w, char cmd)
{
	char c;

	CHILD_ASSERT(write(w->go[1], &cmd, 1) == 1);
	CHILD_ASSERT(read(w->done[0], &c, 1) == 1);
	return w->ret;
}

static void worker_stop(struct worker *w)
{
	CHILD_ASSERT(write(w->go[1], "q", 1) == 1);
	CHILD_ASSERT(pthread_join(w->thread, NULL) == 0);
}

/* All but getppid, with ERRNO 9, for this ABI, with @flags. */
static long install(unsigned int flags)
{
	struct mask m;

	mask_all_but(&m, __NR_getppid);
	return mask_seccomp_set(flags, SECCOMP_RET_ERRNO | TSYNC_ERRNO, 1,
				(const __u32[]){ SELF_ARCH },
				(const struct mask *[]){ &m });
}

/* Has @tid got what install() installs, on top of mode @mode? */
static bool has_install(pid_t tid, const char *mode)
{
	struct mask m;

	mask_all_but(&m, __NR_getppid);
	return status_is(tid, "Seccomp", mode) && status_shows_mask(tid, &m) &&
	       status_shows_action(tid, SECCOMP_RET_ERRNO | TSYNC_ERRNO);
}

static bool has_no_mask(pid_t tid)
{
	char buf[8192];

	return !read_status(tid, buf, sizeof(buf)) &&
	       !strstr(buf, "Seccomp_mask");
}

#define NR_WORKERS	3

/*
 * The caller's resulting masks, those of ABIs the TSYNC call does not
 * list included, and its action reach every thread, which then denies.
 */
TEST(every_thread_gets_the_callers_resulting_masks_and_action)
{
	bool other = other_abi_available();
	pid_t pid, ppid = getpid();

	if (!require_mask(_metadata) || !require_threads(_metadata))
		return;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		const __u32 arch[2] = { SELF_ARCH, OTHER_ARCH };
		struct worker w[NR_WORKERS];
		struct mask own, oth;
		const struct mask *m[2] = { &own, &oth };
		const char *oth_line = mask_line(true);
		char list[4096];
		int i;

		for (i = 0; i < NR_WORKERS; i++)
			worker_start(&w[i], NULL);
		CHILD_ASSERT(set_nnp() == 0);
		/* First the caller alone: this ABI all, the other all but 7. */
		mask_all(&own, SECCOMP_MASK_MAX_BITS);
		mask_all_but(&oth, 7);
		CHILD_ASSERT(mask_seccomp_set(0, SECCOMP_RET_ERRNO |
					      TSYNC_ERRNO, other ? 2 : 1,
					      arch, m) == 0);
		for (i = 0; i < NR_WORKERS; i++) {
			CHILD_ASSERT(worker_do(&w[i], 'm') == 0);
			CHILD_ASSERT(worker_do(&w[i], 'p') == ppid);
		}
		/* Then a TSYNC tightening of this ABI only. */
		CHILD_ASSERT(install(SECCOMP_MASK_FLAG_TSYNC) == 0);
		CHILD_ASSERT(has_install(0, "3"));
		mask_format(&oth, list, sizeof(list));
		for (i = 0; i < NR_WORKERS; i++) {
			CHILD_ASSERT(has_install(w[i].tid, "3"));
			if (other)
				CHILD_ASSERT(status_is(w[i].tid, oth_line,
						       list));
			CHILD_ASSERT(worker_do(&w[i], 'm') == 3);
			CHILD_ASSERT(worker_do(&w[i], 'p') == -TSYNC_ERRNO);
		}
		for (i = 0; i < NR_WORKERS; i++)
			worker_stop(&w[i]);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/* no_new_privs goes with the masks to every thread. */
TEST(no_new_privs_reaches_every_thread)
{
	pid_t pid;

	if (!require_mask(_metadata) || !require_threads(_metadata))
		return;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct worker w[NR_WORKERS];
		int i;

		for (i = 0; i < NR_WORKERS; i++)
			worker_start(&w[i], NULL);
		CHILD_ASSERT(set_nnp() == 0);
		for (i = 0; i < NR_WORKERS; i++) {
			CHILD_ASSERT(worker_do(&w[i], 'n') == 0);
			CHILD_ASSERT(status_is(w[i].tid, "NoNewPrivs", "0"));
		}
		CHILD_ASSERT(install(SECCOMP_MASK_FLAG_TSYNC) == 0);
		for (i = 0; i < NR_WORKERS; i++) {
			CHILD_ASSERT(worker_do(&w[i], 'n') == 1);
			CHILD_ASSERT(status_is(w[i].tid, "NoNewPrivs", "1"));
			CHILD_ASSERT(has_install(w[i].tid, "3"));
		}
		for (i = 0; i < NR_WORKERS; i++)
			worker_stop(&w[i]);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/* What a sibling thread has when the main thread calls with TSYNC. */
static int sibling_strict(void)
{
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0);
}

static int sibling_mask(int denied, __u32 action)
{
	struct mask m;

	if (denied >= 0)
		mask_all_but(&m, denied);
	else
		mask_all(&m, SECCOMP_MASK_MAX_BITS);
	return mask_prctl_action(&m, action);
}

/* The sibling's mask does not allow getpid, which install()'s allows. */
static int sibling_not_a_superset(void)
{
	return sibling_mask(__NR_getpid, SECCOMP_RET_ERRNO | TSYNC_ERRNO);
}

static int sibling_kill(void)
{
	return sibling_mask(-1, SECCOMP_RET_KILL_PROCESS);
}

static int sibling_trap(void)
{
	return sibling_mask(-1, SECCOMP_RET_TRAP);
}

static int sibling_same(void)
{
	return sibling_mask(-1, SECCOMP_RET_ERRNO | TSYNC_ERRNO);
}

static int sibling_other_errno(void)
{
	return sibling_mask(-1, SECCOMP_RET_ERRNO | 3);
}

static int sibling_log(void)
{
	return sibling_mask(-1, SECCOMP_RET_LOG);
}

static int sibling_filter(void)
{
	return filter_allow_all();
}

FIXTURE(sibling) {};

struct sibling_case {
	int (*setup)(void);
	bool takes;		/* can the sibling take the masks? */
	const char *mode;	/* the sibling's Seccomp: line */
	__u32 action;		/* its Seccomp_mask_action, if it has masks */
};

FIXTURE_VARIANT(sibling) {
	struct sibling_case c;
};

FIXTURE_VARIANT_ADD(sibling, none) {
	.c = {
		.setup = NULL,
		.takes = true,
		.mode = "0",
	},
};

FIXTURE_VARIANT_ADD(sibling, strict) {
	.c = {
		.setup = sibling_strict,
		.takes = false,
		.mode = "1",
	},
};

FIXTURE_VARIANT_ADD(sibling, mask_not_a_superset) {
	.c = {
		.setup = sibling_not_a_superset,
		.takes = false,
		.mode = "3",
		.action = SECCOMP_RET_ERRNO | TSYNC_ERRNO,
	},
};

FIXTURE_VARIANT_ADD(sibling, kill_is_stronger) {
	.c = {
		.setup = sibling_kill,
		.takes = false,
		.mode = "3",
		.action = SECCOMP_RET_KILL_PROCESS,
	},
};

FIXTURE_VARIANT_ADD(sibling, trap_is_stronger) {
	.c = {
		.setup = sibling_trap,
		.takes = false,
		.mode = "3",
		.action = SECCOMP_RET_TRAP,
	},
};

FIXTURE_VARIANT_ADD(sibling, same_action_superset) {
	.c = {
		.setup = sibling_same,
		.takes = true,
		.mode = "3",
		.action = SECCOMP_RET_ERRNO | TSYNC_ERRNO,
	},
};

FIXTURE_VARIANT_ADD(sibling, other_errno_superset) {
	.c = {
		.setup = sibling_other_errno,
		.takes = true,
		.mode = "3",
		.action = SECCOMP_RET_ERRNO | 3,
	},
};

FIXTURE_VARIANT_ADD(sibling, log_superset) {
	.c = {
		.setup = sibling_log,
		.takes = true,
		.mode = "3",
		.action = SECCOMP_RET_LOG,
	},
};

FIXTURE_VARIANT_ADD(sibling, filter) {
	.c = {
		.setup = sibling_filter,
		.takes = true,
		.mode = "2",
	},
};

FIXTURE_SETUP(sibling)
{
	if (!require_mask(_metadata))
		return;
	require_threads(_metadata);
}

FIXTURE_TEARDOWN(sibling) {}

/* In a child: is the sibling as its setup left it? */
static bool sibling_unchanged(struct worker *s, const struct sibling_case *c)
{
	struct mask m;
	int denied = c->setup == sibling_not_a_superset ?
		     __NR_getpid : -1;

	if (!status_is(s->tid, "Seccomp", c->mode))
		return false;
	if (strcmp(c->mode, "3"))
		return has_no_mask(s->tid);
	if (denied >= 0)
		mask_all_but(&m, denied);
	else
		mask_all(&m, SECCOMP_MASK_MAX_BITS);
	return status_shows_mask(s->tid, &m) &&
	       status_shows_action(s->tid, c->action);
}

TEST_F(sibling, takes_the_masks_or_fails_the_call_with_its_tid)
{
	pid_t pid, ppid = getpid();

	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct worker s, bystander;
		long ret;

		CHILD_ASSERT(set_nnp() == 0);
		worker_start(&bystander, NULL);
		worker_start(&s, variant->c.setup);
		ret = install(SECCOMP_MASK_FLAG_TSYNC);
		if (variant->c.takes) {
			CHILD_ASSERT(ret == 0);
			CHILD_ASSERT(has_install(0, "3"));
			CHILD_ASSERT(has_install(bystander.tid, "3"));
			CHILD_ASSERT(has_install(s.tid, !strcmp(variant->c.mode, "2") ?
						 "2" : "3"));
			CHILD_ASSERT(worker_do(&s, 'p') == -TSYNC_ERRNO);
			CHILD_ASSERT(worker_do(&bystander, 'p') ==
				     -TSYNC_ERRNO);
			CHILD_ASSERT(own_call(__NR_getppid) == -TSYNC_ERRNO);
		} else {
			/* The sibling's TID, and no change anywhere. */
			CHILD_ASSERT(ret == s.tid);
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
			CHILD_ASSERT(has_no_mask(0));
			CHILD_ASSERT(has_no_mask(bystander.tid));
			CHILD_ASSERT(worker_do(&bystander, 'm') == 0);
			CHILD_ASSERT(worker_do(&bystander, 'p') == ppid);
			CHILD_ASSERT(own_call(__NR_getppid) == ppid);
			CHILD_ASSERT(sibling_unchanged(&s, &variant->c));
		}
		worker_stop(&s);
		worker_stop(&bystander);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/* Flags other than SECCOMP_MASK_FLAG_TSYNC and _SPEC_ALLOW are EINVAL. */
FIXTURE(flags) {};

FIXTURE_VARIANT(flags) {
	unsigned int flags;
};

FIXTURE_VARIANT_ADD(flags, bit_2) {
	.flags = 1U << 2,
};

FIXTURE_VARIANT_ADD(flags, tsync_and_bit_2) {
	.flags = SECCOMP_MASK_FLAG_TSYNC | (1U << 2),
};

FIXTURE_VARIANT_ADD(flags, bit_31) {
	.flags = 1U << 31,
};

FIXTURE_VARIANT_ADD(flags, all) {
	.flags = ~0U,
};

FIXTURE_SETUP(flags)
{
	require_mask(_metadata);
}

FIXTURE_TEARDOWN(flags) {}

TEST_F(flags, unknown_is_einval_and_installs_nothing)
{
	pid_t pid;

	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		errno = 0;
		CHILD_ASSERT(install(variant->flags) == -1);
		CHILD_ASSERT(errno == EINVAL);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
		CHILD_ASSERT(has_no_mask(0));
		/* The one known flag is taken (one thread: nothing to sync). */
		CHILD_ASSERT(install(SECCOMP_MASK_FLAG_TSYNC) == 0);
		CHILD_ASSERT(has_install(0, "3"));
		/* Also in mode 3, where nothing changes either. */
		errno = 0;
		CHILD_ASSERT(install(variant->flags) == -1);
		CHILD_ASSERT(errno == EINVAL);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

#else

TEST(tsync)
{
	SKIP(return, "the TSYNC tests are x86-specific");
}

#endif

TEST_HARNESS_MAIN
