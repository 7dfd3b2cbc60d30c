// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode, version 2: SECCOMP_MASK_FLAG_TSYNC.
 *
 * The caller's resulting masks and action reach every thread of its
 * group, all or nothing. A thread that cannot take them (strict mode, or
 * masks that are not a superset of the new ones, of each ABI, or a
 * stronger action) makes the call return its TID, as the caller's pid
 * namespace numbers it, and then nothing changes anywhere. With
 * no_new_privs, every thread gets it.
 *
 * Each thread of these tests is a worker that waits for commands on a
 * pipe, so that it can be looked at in /proc and made to call getppid
 * after the main thread's install.
 *
 * On arm64 a thread makes the getppid of the other ABI through the
 * mask_helper of the other execution state, which a child it forks (and
 * which has that thread's masks) executes (helper.h's other_probe()).
 */

/* common.h first: it defines _GNU_SOURCE (unshare) for a compile by hand. */
#include "common.h"

#include <pthread.h>
#include <sched.h>

#ifdef TWO_ABIS

#define TSYNC_ERRNO	9	/* the action the tests install: ERRNO 9 */

/*
 * getppid through the other ABI: the value or -errno. On arm64 the helper
 * a forked child executes makes it: its parent is this process, whose
 * own parent is what the call means here (a -errno, or a helper that did
 * not run, is returned as it is).
 */
#ifndef X86_BUILD
/*
 * This process's pid and parent, noted by worker_start() before the
 * workers run: a worker whose own mask denies getpid() cannot ask.
 */
static pid_t worker_pid, worker_ppid;
#endif

static long other_getppid(void)
{
#ifdef X86_BUILD
	return abi_call(OTHER_ARCH, NR64_getppid, NR32_getppid, 0, 0, 0);
#else
	long ret = other_probe(OTHER_NR_getppid, OWN_CALL_ARG0);

	if (worker_pid > 0)
		return ret == worker_pid ? worker_ppid : ret;
	return ret == getpid() ? getppid() : ret;
#endif
}

/* For mask_denying(): a mask that allows everything, one that is empty. */
#define DENIES_NOTHING	(-1)
#define DENIES_ALL	(-2)

/*
 * A mask that allows every syscall but @denied (or one of the above), of
 * this ABI, or with @other of the other one (OTHER_MAX_BITS bits: on
 * arm64 AArch32's private calls too, which its helper's start-up needs).
 */
static void mask_denying_abi(struct mask *m, int denied, bool other)
{
	unsigned int nbits = other ? OTHER_MAX_BITS : SECCOMP_MASK_MAX_BITS;

	if (denied == DENIES_ALL)
		mask_none(m, nbits);
	else
		mask_all_abi_but(m, nbits, denied == DENIES_NOTHING ? -1 :
				 denied);
}

/* mask_denying_abi() of this program's ABI. */
static void mask_denying(struct mask *m, int denied)
{
	mask_denying_abi(m, denied, false);
}

/* The commands of the workers: getppid (both ABIs), nnp; 'm' (child.h). */
static bool worker_run(struct cmd_thread *w, char cmd)
{
	switch (cmd) {
	case 'p':
		w->ret = own_call(__NR_getppid);
		return true;
	case 'o':
		w->ret = other_getppid();
		return true;
	case 'n':
		w->ret = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
		return true;
	default:
		return false;
	}
}

/* In a child: start @w, which runs @setup; it must return 0. */
static void worker_start(struct cmd_thread *w, int (*setup)(void))
{
#ifndef X86_BUILD
	/* 0 if this thread may not ask: other_getppid() then asks itself. */
	worker_pid = getpid();
	worker_ppid = getppid();
	if (worker_pid <= 0 || worker_ppid <= 0)
		worker_pid = 0;
#endif
	cmd_thread_start(w, setup, worker_run, 0);
}

static void worker_stop(struct cmd_thread *w)
{
	CHILD_ASSERT(write(w->go[1], "q", 1) == 1);
	CHILD_ASSERT(pthread_join(w->thread, NULL) == 0);
}

/* All but getppid, with ERRNO 9, for this ABI, with @flags. */
static long install_own(unsigned int flags)
{
	struct mask m;

	mask_all_but(&m, __NR_getppid);
	return mask_seccomp_self(flags, SECCOMP_RET_ERRNO | TSYNC_ERRNO, &m);
}

/*
 * All but getppid, with ERRNO 9, for both ABIs, with @flags: the new
 * masks of both are checked against those of every other thread.
 */
static long install_both(unsigned int flags)
{
	struct mask own, oth;

	mask_all_but(&own, __NR_getppid);
	mask_denying_abi(&oth, OTHER_NR_getppid, true);
	return mask_seccomp_own_other(flags, SECCOMP_RET_ERRNO | TSYNC_ERRNO,
				      2, &own, &oth);
}

/* Has @tid got what install_own() installs, on top of mode @mode? */
static bool has_install(pid_t tid, const char *mode)
{
	struct mask m;

	mask_all_but(&m, __NR_getppid);
	return status_is(tid, "Seccomp", mode) && status_shows_mask(tid, &m) &&
	       status_shows_action(tid, SECCOMP_RET_ERRNO | TSYNC_ERRNO);
}

/* Is the mask of the other ABI of @tid (0: self) the one denying @denied? */
static bool shows_other_mask(pid_t tid, int denied)
{
	struct mask m;
	char list[4096];

	mask_denying_abi(&m, denied, true);
	mask_format(&m, list, sizeof(list));
	return status_is(tid, mask_line(true), list);
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

	pid = fork_mask_threads_child(_metadata);
	if (pid < 0)
		return;
	if (pid == 0) {
		struct cmd_thread w[NR_WORKERS];
		struct mask own, oth;
		const char *oth_line = mask_line(true);
		char list[4096];
		int i;

		for (i = 0; i < NR_WORKERS; i++)
			worker_start(&w[i], NULL);
		CHILD_ASSERT(set_nnp() == 0);
		/* First the caller alone: this ABI all, the other all but 7. */
		mask_all(&own, SECCOMP_MASK_MAX_BITS);
		mask_denying_abi(&oth, 7, true);
		CHILD_ASSERT(mask_seccomp_own_other(0, SECCOMP_RET_ERRNO |
						    TSYNC_ERRNO, other ? 2 : 1,
						    &own, &oth) == 0);
		for (i = 0; i < NR_WORKERS; i++) {
			CHILD_ASSERT(cmd_thread_ask(&w[i], 'm') == 0);
			CHILD_ASSERT(cmd_thread_ask(&w[i], 'p') == ppid);
		}
		/* Then a TSYNC tightening of this ABI only. */
		CHILD_ASSERT(install_own(SECCOMP_MASK_FLAG_TSYNC) == 0);
		CHILD_ASSERT(has_install(0, "3"));
		mask_format(&oth, list, sizeof(list));
		for (i = 0; i < NR_WORKERS; i++) {
			CHILD_ASSERT(has_install(w[i].tid, "3"));
			if (other)
				CHILD_ASSERT(status_is(w[i].tid, oth_line,
						       list));
			CHILD_ASSERT(cmd_thread_ask(&w[i], 'm') == 3);
			CHILD_ASSERT(cmd_thread_ask(&w[i], 'p') == -TSYNC_ERRNO);
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
	pid_t pid = fork_mask_threads_child(_metadata);

	if (pid < 0)
		return;
	if (pid == 0) {
		struct cmd_thread w[NR_WORKERS];
		int i;

		for (i = 0; i < NR_WORKERS; i++)
			worker_start(&w[i], NULL);
		CHILD_ASSERT(set_nnp() == 0);
		for (i = 0; i < NR_WORKERS; i++) {
			CHILD_ASSERT(cmd_thread_ask(&w[i], 'n') == 0);
			CHILD_ASSERT(status_is(w[i].tid, "NoNewPrivs", "0"));
		}
		CHILD_ASSERT(install_own(SECCOMP_MASK_FLAG_TSYNC) == 0);
		for (i = 0; i < NR_WORKERS; i++) {
			CHILD_ASSERT(cmd_thread_ask(&w[i], 'n') == 1);
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

/* A mask of this ABI only (prctl): that of the other ABI is empty. */
static int sibling_mask(int denied, __u32 action)
{
	struct mask m;

	mask_denying(&m, denied);
	return mask_prctl_action(&m, action);
}

/* Masks of both ABIs, with ERRNO 9, the first install of the sibling. */
static int sibling_masks(int denied, int other_denied)
{
	struct mask own, oth;

	mask_denying(&own, denied);
	mask_denying_abi(&oth, other_denied, true);
	return (int)mask_seccomp_own_other(0, SECCOMP_RET_ERRNO | TSYNC_ERRNO,
					   2, &own, &oth);
}

/* The sibling's mask does not allow getpid, which install_own()'s allows. */
static int sibling_not_a_superset(void)
{
	return sibling_mask(__NR_getpid, SECCOMP_RET_ERRNO | TSYNC_ERRNO);
}

static int sibling_kill(void)
{
	return sibling_mask(DENIES_NOTHING, SECCOMP_RET_KILL_PROCESS);
}

static int sibling_trap(void)
{
	return sibling_mask(DENIES_NOTHING, SECCOMP_RET_TRAP);
}

static int sibling_same(void)
{
	return sibling_mask(DENIES_NOTHING, SECCOMP_RET_ERRNO | TSYNC_ERRNO);
}

static int sibling_other_errno(void)
{
	return sibling_mask(DENIES_NOTHING, SECCOMP_RET_ERRNO | 3);
}

static int sibling_log(void)
{
	return sibling_mask(DENIES_NOTHING, SECCOMP_RET_LOG);
}

static int sibling_filter(void)
{
	return filter_allow_all();
}

/*
 * The sibling's mask of this ABI is a superset of install_both()'s, its
 * mask of the other ABI does not allow getpid, which install_both()'s
 * allows: a kernel that checks only the caller's ABI lets it take them.
 */
static int sibling_other_abi_not_a_superset(void)
{
	return sibling_masks(DENIES_NOTHING, OTHER_NR_getpid);
}

/* The reverse: this ABI's mask is the narrower one, the other's is fine. */
static int sibling_own_abi_not_a_superset(void)
{
	return sibling_masks(__NR_getpid, DENIES_NOTHING);
}

static int sibling_both_abis_supersets(void)
{
	return sibling_masks(DENIES_NOTHING, DENIES_NOTHING);
}

FIXTURE(sibling) {};

struct sibling_case {
	int (*setup)(void);
	bool takes;		/* can the sibling take the masks? */
	const char *mode;	/* the sibling's Seccomp: line */
	/* If it has masks (mode 3), as its setup installs them: */
	__u32 action;		/* its Seccomp_mask_action */
	int denied;		/* mask_denying() of its mask of this ABI */
	int other_denied;	/* and of its mask of the other ABI */
	/* Does the TSYNC call list both ABIs (install_both())? */
	bool both;
};

FIXTURE_VARIANT(sibling) {
	struct sibling_case c;
};

FIXTURE_VARIANT_ADD(sibling, none) { .c = { .setup = NULL, .takes = true, .mode = "0" } };

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
		.denied = __NR_getpid,
		.other_denied = DENIES_ALL,
	},
};

FIXTURE_VARIANT_ADD(sibling, kill_is_stronger) {
	.c = {
		.setup = sibling_kill,
		.takes = false,
		.mode = "3",
		.action = SECCOMP_RET_KILL_PROCESS,
		.denied = DENIES_NOTHING,
		.other_denied = DENIES_ALL,
	},
};

FIXTURE_VARIANT_ADD(sibling, trap_is_stronger) {
	.c = {
		.setup = sibling_trap,
		.takes = false,
		.mode = "3",
		.action = SECCOMP_RET_TRAP,
		.denied = DENIES_NOTHING,
		.other_denied = DENIES_ALL,
	},
};

FIXTURE_VARIANT_ADD(sibling, same_action_superset) {
	.c = {
		.setup = sibling_same,
		.takes = true,
		.mode = "3",
		.action = SECCOMP_RET_ERRNO | TSYNC_ERRNO,
		.denied = DENIES_NOTHING,
		.other_denied = DENIES_ALL,
	},
};

FIXTURE_VARIANT_ADD(sibling, other_errno_superset) {
	.c = {
		.setup = sibling_other_errno,
		.takes = true,
		.mode = "3",
		.action = SECCOMP_RET_ERRNO | 3,
		.denied = DENIES_NOTHING,
		.other_denied = DENIES_ALL,
	},
};

FIXTURE_VARIANT_ADD(sibling, log_superset) {
	.c = {
		.setup = sibling_log,
		.takes = true,
		.mode = "3",
		.action = SECCOMP_RET_LOG,
		.denied = DENIES_NOTHING,
		.other_denied = DENIES_ALL,
	},
};

FIXTURE_VARIANT_ADD(sibling, filter) {
	.c = {
		.setup = sibling_filter,
		.takes = true,
		.mode = "2",
	},
};

/*
 * The subset rule holds per ABI: the TSYNC call lists both ABIs, and the
 * sibling's mask of one of them, only, is not a superset of the new one.
 */
FIXTURE_VARIANT_ADD(sibling, other_abi_not_a_superset) {
	.c = {
		.setup = sibling_other_abi_not_a_superset,
		.takes = false,
		.mode = "3",
		.action = SECCOMP_RET_ERRNO | TSYNC_ERRNO,
		.denied = DENIES_NOTHING,
		.other_denied = OTHER_NR_getpid,
		.both = true,
	},
};

FIXTURE_VARIANT_ADD(sibling, own_abi_not_a_superset_other_is) {
	.c = {
		.setup = sibling_own_abi_not_a_superset,
		.takes = false,
		.mode = "3",
		.action = SECCOMP_RET_ERRNO | TSYNC_ERRNO,
		.denied = __NR_getpid,
		.other_denied = DENIES_NOTHING,
		.both = true,
	},
};

/* A sibling that installed this ABI's mask only has an empty other one. */
FIXTURE_VARIANT_ADD(sibling, other_abi_empty) {
	.c = {
		.setup = sibling_same,
		.takes = false,
		.mode = "3",
		.action = SECCOMP_RET_ERRNO | TSYNC_ERRNO,
		.denied = DENIES_NOTHING,
		.other_denied = DENIES_ALL,
		.both = true,
	},
};

/* Both ABIs' masks supersets: the sibling takes both new ones. */
FIXTURE_VARIANT_ADD(sibling, both_abis_supersets) {
	.c = {
		.setup = sibling_both_abis_supersets,
		.takes = true,
		.mode = "3",
		.action = SECCOMP_RET_ERRNO | TSYNC_ERRNO,
		.denied = DENIES_NOTHING,
		.other_denied = DENIES_NOTHING,
		.both = true,
	},
};

FIXTURE_SETUP(sibling)
{
	if (!require_mask_threads(_metadata))
		return;
	if (variant->c.both)
		require_other_abi(_metadata);
}

FIXTURE_TEARDOWN(sibling) {}

/*
 * In a child: is the sibling as its setup left it? @other: check its
 * mask of the other ABI too.
 */
static bool sibling_unchanged(struct cmd_thread *s, const struct sibling_case *c,
			      bool other)
{
	struct mask m;

	if (!status_is(s->tid, "Seccomp", c->mode))
		return false;
	if (strcmp(c->mode, "3"))
		return has_no_mask(s->tid);
	mask_denying(&m, c->denied);
	if (!status_shows_mask(s->tid, &m) ||
	    !status_shows_action(s->tid, c->action))
		return false;
	return !other || shows_other_mask(s->tid, c->other_denied);
}

/* In a child: install_both()'s mask of the other ABI reached all three. */
static void other_abi_taken(struct cmd_thread *s, struct cmd_thread *bystander)
{
	CHILD_ASSERT(shows_other_mask(0, OTHER_NR_getppid));
	CHILD_ASSERT(shows_other_mask(bystander->tid, OTHER_NR_getppid));
	CHILD_ASSERT(shows_other_mask(s->tid, OTHER_NR_getppid));
	CHILD_ASSERT(other_getppid() == -TSYNC_ERRNO);
	CHILD_ASSERT(cmd_thread_ask(bystander, 'o') == -TSYNC_ERRNO);
	CHILD_ASSERT(cmd_thread_ask(s, 'o') == -TSYNC_ERRNO);
}

TEST_F(sibling, takes_the_masks_or_fails_the_call_with_its_tid)
{
	const struct sibling_case *c = &variant->c;
	bool other = other_abi_available();
	pid_t pid, ppid = getpid();

	pid = fork_child(_metadata);
	if (pid == 0) {
		struct cmd_thread s, bystander;
		long ret;

		CHILD_ASSERT(set_nnp() == 0);
		worker_start(&bystander, NULL);
		worker_start(&s, c->setup);
		if (c->both)
			ret = install_both(SECCOMP_MASK_FLAG_TSYNC);
		else
			ret = install_own(SECCOMP_MASK_FLAG_TSYNC);
		if (c->takes) {
			CHILD_ASSERT(ret == 0);
			CHILD_ASSERT(has_install(0, "3"));
			CHILD_ASSERT(has_install(bystander.tid, "3"));
			CHILD_ASSERT(has_install(s.tid, !strcmp(c->mode, "2") ?
						 "2" : "3"));
			CHILD_ASSERT(cmd_thread_ask(&s, 'p') == -TSYNC_ERRNO);
			CHILD_ASSERT(cmd_thread_ask(&bystander, 'p') ==
				     -TSYNC_ERRNO);
			CHILD_ASSERT(own_call(__NR_getppid) == -TSYNC_ERRNO);
			if (c->both)
				other_abi_taken(&s, &bystander);
		} else {
			/* The sibling's TID, and no change anywhere. */
			CHILD_ASSERT(ret == s.tid);
			CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
			CHILD_ASSERT(has_no_mask(0));
			CHILD_ASSERT(has_no_mask(bystander.tid));
			CHILD_ASSERT(cmd_thread_ask(&bystander, 'm') == 0);
			CHILD_ASSERT(cmd_thread_ask(&bystander, 'p') == ppid);
			CHILD_ASSERT(own_call(__NR_getppid) == ppid);
			CHILD_ASSERT(sibling_unchanged(&s, c, other));
			/* Every mask of a sibling in mode 3 allows getppid. */
			if (!strcmp(c->mode, "3"))
				CHILD_ASSERT(cmd_thread_ask(&s, 'p') == ppid);
			if (c->both) {
				/* Denied by the new masks, yet it runs. */
				CHILD_ASSERT(other_getppid() == ppid);
				CHILD_ASSERT(cmd_thread_ask(&bystander, 'o') ==
					     ppid);
				if (c->other_denied != DENIES_ALL)
					CHILD_ASSERT(cmd_thread_ask(&s, 'o') ==
						     ppid);
			}
		}
		worker_stop(&s);
		worker_stop(&bystander);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * The caller's resulting mask of an ABI that the TSYNC call does not list
 * is its current one, and is checked as well: a sibling whose mask of
 * that ABI is narrower cannot take it, although the new mask of the ABI
 * listed is a subset of the sibling's.
 */
static int sibling_narrows_other_abi(void)
{
	const __u32 arch = OTHER_ARCH;
	struct mask oth;
	const struct mask *m = &oth;

	mask_denying_abi(&oth, OTHER_NR_getpid, true);
	return (int)mask_seccomp_set(0, SECCOMP_RET_ERRNO | TSYNC_ERRNO, 1,
				     &arch, &m);
}

TEST(the_abi_not_listed_is_checked_too)
{
	pid_t pid, ppid = getpid();

	if (!require_mask_threads(_metadata) ||
	    !require_other_abi(_metadata))
		return;
	pid = fork_child(_metadata);
	if (pid == 0) {
		struct cmd_thread s, bystander;
		struct mask all, other_all;
		pid_t tid[2];
		int i;

		CHILD_ASSERT(set_nnp() == 0);
		mask_all(&all, SECCOMP_MASK_MAX_BITS);
		mask_denying_abi(&other_all, DENIES_NOTHING, true);
		CHILD_ASSERT(mask_seccomp_own_other(0, SECCOMP_RET_ERRNO |
						    TSYNC_ERRNO, 2, &all,
						    &other_all) == 0);
		worker_start(&bystander, NULL);
		worker_start(&s, sibling_narrows_other_abi);
		CHILD_ASSERT(shows_other_mask(s.tid, OTHER_NR_getpid));
		/* This ABI's new mask is a subset of the sibling's. */
		CHILD_ASSERT(install_own(SECCOMP_MASK_FLAG_TSYNC) == s.tid);
		/* Nothing changed: the caller and the bystander allow all. */
		tid[0] = 0;
		tid[1] = bystander.tid;
		for (i = 0; i < 2; i++) {
			CHILD_ASSERT(status_is(tid[i], "Seccomp", "3"));
			CHILD_ASSERT(status_shows_mask(tid[i], &all));
			CHILD_ASSERT(shows_other_mask(tid[i], DENIES_NOTHING));
			CHILD_ASSERT(status_shows_action(tid[i],
							 SECCOMP_RET_ERRNO |
							 TSYNC_ERRNO));
		}
		CHILD_ASSERT(status_shows_mask(s.tid, &all));
		CHILD_ASSERT(shows_other_mask(s.tid, OTHER_NR_getpid));
		CHILD_ASSERT(own_call(__NR_getppid) == ppid);
		CHILD_ASSERT(cmd_thread_ask(&bystander, 'p') == ppid);
		CHILD_ASSERT(cmd_thread_ask(&s, 'p') == ppid);
		CHILD_ASSERT(cmd_thread_ask(&s, 'o') == ppid);
		worker_stop(&s);
		worker_stop(&bystander);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * The TID that TSYNC returns is the one the caller's pid namespace gives
 * the thread (task_pid_vnr()), as gettid() in that thread says: not its
 * TID in the initial pid namespace, nor in the test's.
 */
#define PIDNS_NO_PRIVILEGE	90
#define PIDNS_UNAVAILABLE	91

/* The sibling's TID in the pid namespace of the /proc mount (the test's). */
static pid_t pidns_outer_tid;

static int sibling_strict_outer_tid(void)
{
	char link[64], *p;
	ssize_t n = readlink("/proc/thread-self", link, sizeof(link) - 1);

	if (n <= 0)
		return -1;
	link[n] = '\0';
	p = strstr(link, "/task/");
	if (!p)
		return -1;
	pidns_outer_tid = atoi(p + strlen("/task/"));
	return sibling_strict();
}

/* Pid 1 of a new pid namespace: its second thread cannot take the masks. */
static void pidns_init(void)
{
	struct cmd_thread s, bystander;
	pid_t ppid = getppid();
	long ret;

	CHILD_ASSERT(getpid() == 1);
	CHILD_ASSERT(ppid == 0);	/* the parent is outside */
	CHILD_ASSERT(set_nnp() == 0);
	worker_start(&bystander, NULL);
	worker_start(&s, sibling_strict_outer_tid);
	/* Here the threads are 2 and 3; outside, they have other TIDs. */
	CHILD_ASSERT(bystander.tid > 1 && s.tid > 1 && s.tid != bystander.tid);
	CHILD_ASSERT(pidns_outer_tid > 0 && pidns_outer_tid != s.tid);
	ret = install_own(SECCOMP_MASK_FLAG_TSYNC);
	CHILD_ASSERT(ret == s.tid);
	CHILD_ASSERT(ret != pidns_outer_tid);
	CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
	CHILD_ASSERT(has_no_mask(0));
	CHILD_ASSERT(cmd_thread_ask(&bystander, 'm') == 0);
	CHILD_ASSERT(cmd_thread_ask(&bystander, 'p') == ppid);
	CHILD_ASSERT(own_call(__NR_getppid) == ppid);
	worker_stop(&s);
	worker_stop(&bystander);
	_exit(0);
}

TEST(tid_is_the_one_of_the_callers_pid_namespace)
{
	int status;
	pid_t pid = fork_mask_threads_child(_metadata);

	if (pid < 0)
		return;
	if (pid == 0) {
		pid_t init;
		int st;

		/* As root; else as root of a new user namespace. */
		if (unshare(CLONE_NEWPID) &&
		    (errno != EPERM || unshare(CLONE_NEWUSER | CLONE_NEWPID)))
			_exit(errno == EPERM || errno == EACCES ||
			      errno == ENOSPC ? PIDNS_NO_PRIVILEGE :
			      PIDNS_UNAVAILABLE);
		init = child_fork();
		CHILD_ASSERT(init >= 0);
		if (init == 0)
			pidns_init();
		CHILD_ASSERT(waitpid_timeout(init, &st, 0,
					     CHILD_TIMEOUT_MS / 2) == init);
		/* Its failure, which the shared page names. */
		if (WIFEXITED(st) && WEXITSTATUS(st) == CHILD_FAILED)
			_exit(CHILD_FAILED);
		CHILD_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		_exit(0);
	}
	status = child_wait(_metadata, pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == PIDNS_NO_PRIVILEGE)
		SKIP(return, "no privilege for a new pid namespace");
	if (WIFEXITED(status) && WEXITSTATUS(status) == PIDNS_UNAVAILABLE)
		SKIP_UNLESS_REQUIRED(return,
				     "CONFIG_PID_NS not enabled (unshare(CLONE_NEWPID) failed)");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		child_describe(_metadata, status, __LINE__);
		ASSERT_TRUE(0);
	}
}

/* Flags other than SECCOMP_MASK_FLAG_TSYNC and _SPEC_ALLOW are EINVAL. */
FIXTURE(flags) {};
FIXTURE_SETUP(flags) { require_mask(_metadata); }
FIXTURE_TEARDOWN(flags) {}

FIXTURE_VARIANT(flags) {
	unsigned int flags;
};

FIXTURE_VARIANT_ADD(flags, bit_2) { .flags = 1U << 2 };
FIXTURE_VARIANT_ADD(flags, tsync_and_bit_2) { .flags = SECCOMP_MASK_FLAG_TSYNC | (1U << 2) };
FIXTURE_VARIANT_ADD(flags, bit_31) { .flags = 1U << 31 };
FIXTURE_VARIANT_ADD(flags, all) { .flags = ~0U };

TEST_F(flags, unknown_is_einval_and_installs_nothing)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		errno = 0;
		CHILD_ASSERT(install_own(variant->flags) == -1);
		CHILD_ASSERT(errno == EINVAL);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
		CHILD_ASSERT(has_no_mask(0));
		/* The one known flag is taken (one thread: nothing to sync). */
		CHILD_ASSERT(install_own(SECCOMP_MASK_FLAG_TSYNC) == 0);
		CHILD_ASSERT(has_install(0, "3"));
		/* Also in mode 3, where nothing changes either. */
		errno = 0;
		CHILD_ASSERT(install_own(variant->flags) == -1);
		CHILD_ASSERT(errno == EINVAL);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

#else

TEST(tsync)
{
	SKIP(return, "the TSYNC tests know the ABIs of x86-64 and arm64 only");
}

#endif

TEST_HARNESS_MAIN
