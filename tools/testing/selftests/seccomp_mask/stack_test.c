// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode, version 2: masks stacked with BPF filters.
 *
 * A mask installed over filters keeps mode 2; filters installed over a
 * mask make mode 2 and keep the mask; /proc shows the mask lines either
 * way. The mask of the call's ABI is checked first: a call it denies takes
 * the mask's action and never reaches the filters, except with the log
 * action, which goes on to them; a call it allows runs the filters as
 * without a mask. Strict mode stays exclusive. A filter TSYNC reaches a
 * masked sibling thread, which keeps its mask.
 *
 * The filters answer with errnos the masks never use, so the errno a call
 * returns tells which of the two decided; where a SIGSYS is expected, the
 * other of the two answers with something else (an errno, or a TRAP whose
 * si_errno differs), so that the test tells which one sent it.
 */

#include <pthread.h>
#include <stddef.h>

#include "common.h"

#ifdef TWO_ABIS

/* The masks return MASK_ERRNO (common.h). */
#define FILTER_ERRNO	77	/* what the filters return for getppid */
#define FILTER_ERRNO2	78	/* and for getuid, which the masks allow */
/*
 * The data of the filters' SECCOMP_RET_TRAP, which the SIGSYS carries in
 * si_errno: a mask's TRAP carries 0.
 */
#define FILTER_TRAP_DATA	79

#define RET_MASK_ERRNO		(SECCOMP_RET_ERRNO | MASK_ERRNO)
#define RET_FILTER_ERRNO	(SECCOMP_RET_ERRNO | FILTER_ERRNO)
#define RET_FILTER_TRAP		(SECCOMP_RET_TRAP | FILTER_TRAP_DATA)

/*
 * A filter for this program's ABI: @ret for getppid, ERRNO 78 for getuid,
 * allow for everything else. Through prctl() when @flags is -1, else
 * through seccomp(2) with @flags.
 */
static long install_getppid_filter(long flags, __u32 ret)
{
	const struct filter_rule rules[] = {
		{ __NR_getppid, ret },
		{ __NR_getuid, SECCOMP_RET_ERRNO | FILTER_ERRNO2 },
	};

	return filter_install(flags, rules, ARRAY_SIZE(rules));
}

/* The mask: all but getppid, through prctl() or seccomp(2), with @action. */
static int install_getppid_mask(bool via_seccomp, __u32 action)
{
	struct mask m;

	mask_all_but(&m, __NR_getppid);
	return mask_install_action(via_seccomp, &m, action);
}

/*
 * The mask (ERRNO 5) and the filter (ERRNO 77 for getppid) stacked on
 * @tid (0: self): mode 2, and every line in /proc.
 */
static bool shows_stacked(pid_t tid)
{
	struct mask m;

	mask_all_but(&m, __NR_getppid);
	return status_is(tid, "Seccomp", "2") &&
	       status_is(tid, "Seccomp_filters", "1") &&
	       status_shows_mask(tid, &m) &&
	       status_shows_action(tid, SECCOMP_RET_ERRNO | MASK_ERRNO);
}

/* In a child's thread @tid, with both stacked: both are enforced. */
static void check_stacked(pid_t tid)
{
	CHILD_ASSERT(shows_stacked(tid));
	/* The mask decides getppid, which never reaches the filter. */
	CHILD_ASSERT(own_call(__NR_getppid) == -MASK_ERRNO);
	/* The mask allows getuid, and the filter decides it. */
	CHILD_ASSERT(own_call(__NR_getuid) == -FILTER_ERRNO2);
	CHILD_ASSERT(own_call(__NR_getpid) == getpid());
}

/* The mask with ERRNO 5, and the filter with ERRNO 77 for getppid. */
static int install_mask_errno(bool via_seccomp)
{
	return install_getppid_mask(via_seccomp, SECCOMP_RET_ERRNO | MASK_ERRNO);
}

static long install_filter_errno(long flags)
{
	return install_getppid_filter(flags, SECCOMP_RET_ERRNO | FILTER_ERRNO);
}

/* In a child with both stacked on itself: mode 2, and both enforced. */
static void check_stacked_self(void)
{
	CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2);
	check_stacked(0);
}

FIXTURE(mask_over_filter) {};
FIXTURE_SETUP(mask_over_filter) { require_mask(_metadata); }
FIXTURE_TEARDOWN(mask_over_filter) {}

FIXTURE_VARIANT(mask_over_filter) {
	bool use_seccomp;
};

FIXTURE_VARIANT_ADD(mask_over_filter, prctl) { .use_seccomp = false };
FIXTURE_VARIANT_ADD(mask_over_filter, seccomp) { .use_seccomp = true };

TEST_F(mask_over_filter, keeps_mode_2_and_both_apply)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(install_filter_errno(-1) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2);
		CHILD_ASSERT(install_mask_errno(variant->use_seccomp) == 0);
		check_stacked_self();
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/* Any way of installing a filter, with any flag, over a mask. */
FIXTURE(filter_over_mask) {};
FIXTURE_SETUP(filter_over_mask) { require_mask(_metadata); }
FIXTURE_TEARDOWN(filter_over_mask) {}

FIXTURE_VARIANT(filter_over_mask) {
	long flags;	/* -1: prctl() */
};

FIXTURE_VARIANT_ADD(filter_over_mask, prctl) { .flags = -1 };
FIXTURE_VARIANT_ADD(filter_over_mask, seccomp) { .flags = 0 };
FIXTURE_VARIANT_ADD(filter_over_mask, seccomp_tsync) { .flags = SECCOMP_FILTER_FLAG_TSYNC };
FIXTURE_VARIANT_ADD(filter_over_mask, seccomp_log) { .flags = SECCOMP_FILTER_FLAG_LOG };

FIXTURE_VARIANT_ADD(filter_over_mask, seccomp_spec_allow) {
	.flags = SECCOMP_FILTER_FLAG_SPEC_ALLOW,
};

FIXTURE_VARIANT_ADD(filter_over_mask, seccomp_new_listener) {
	.flags = SECCOMP_FILTER_FLAG_NEW_LISTENER,
};

TEST_F(filter_over_mask, gives_mode_2_and_keeps_the_mask)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		long expect = 0;

		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(install_mask_errno(false) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		/*
		 * NEW_LISTENER returns the listener's fd, the lowest free
		 * one; every other way returns 0 (TSYNC: no thread failed).
		 */
		if (variant->flags > 0 &&
		    (variant->flags & SECCOMP_FILTER_FLAG_NEW_LISTENER)) {
			expect = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			CHILD_ASSERT(expect >= 0 && close(expect) == 0);
		}
		CHILD_ASSERT(install_filter_errno(variant->flags) == expect);
		check_stacked_self();
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * Which of the mask and the filter decides getppid, which the mask
 * denies and the filter answers with @filter_ret. (Not order_test.c's
 * order of the error checks.)
 */
enum mask_filter_outcome {
	MASK_ERRNO_RETURNED,	/* -MASK_ERRNO */
	FILTER_ERRNO_RETURNED,	/* -FILTER_ERRNO */
	UNIMPLEMENTED,	/* what a syscall the kernel does not know returns */
	MASK_TRAPPED,	/* by the mask's TRAP: si_errno 0 */
	FILTER_TRAPPED,	/* by the filter's TRAP: si_errno its data */
	KILLED_AT_CALL,
	RUNS,
};

struct mask_filter_case {
	__u32 mask_action;
	__u32 filter_ret;
	enum mask_filter_outcome outcome;
};

FIXTURE(order) {};
FIXTURE_SETUP(order) { require_mask(_metadata); }
FIXTURE_TEARDOWN(order) {}

FIXTURE_VARIANT(order) {
	struct mask_filter_case c;
};

/* { the mask's action, the filter's return, the outcome } */
FIXTURE_VARIANT_ADD(order, mask_errno_before_filter_errno) {
	.c = { RET_MASK_ERRNO, RET_FILTER_ERRNO, MASK_ERRNO_RETURNED },
};

FIXTURE_VARIANT_ADD(order, mask_errno_before_filter_kill) {
	.c = { RET_MASK_ERRNO, SECCOMP_RET_KILL_PROCESS, MASK_ERRNO_RETURNED },
};

FIXTURE_VARIANT_ADD(order, mask_errno_before_filter_trap) {
	.c = { RET_MASK_ERRNO, RET_FILTER_TRAP, MASK_ERRNO_RETURNED },
};

FIXTURE_VARIANT_ADD(order, mask_errno_before_filter_trace) {
	.c = { RET_MASK_ERRNO, SECCOMP_RET_TRACE, MASK_ERRNO_RETURNED },
};

FIXTURE_VARIANT_ADD(order, mask_errno_before_filter_user_notif) {
	.c = { RET_MASK_ERRNO, SECCOMP_RET_USER_NOTIF, MASK_ERRNO_RETURNED },
};

FIXTURE_VARIANT_ADD(order, mask_trap_before_filter_errno) {
	.c = { SECCOMP_RET_TRAP, RET_FILTER_ERRNO, MASK_TRAPPED },
};

FIXTURE_VARIANT_ADD(order, mask_trap_before_filter_trap) {
	.c = { SECCOMP_RET_TRAP, RET_FILTER_TRAP, MASK_TRAPPED },
};

FIXTURE_VARIANT_ADD(order, mask_trap_before_filter_kill) {
	.c = { SECCOMP_RET_TRAP, SECCOMP_RET_KILL_PROCESS, MASK_TRAPPED },
};

FIXTURE_VARIANT_ADD(order, mask_kill_before_filter_errno) {
	.c = { SECCOMP_RET_KILL_PROCESS, RET_FILTER_ERRNO, KILLED_AT_CALL },
};

FIXTURE_VARIANT_ADD(order, mask_log_goes_on_to_filter_errno) {
	.c = { SECCOMP_RET_LOG, RET_FILTER_ERRNO, FILTER_ERRNO_RETURNED },
};

/* No tracer: the filter's TRACE skips the call. */
FIXTURE_VARIANT_ADD(order, mask_log_goes_on_to_filter_trace) {
	.c = { SECCOMP_RET_LOG, SECCOMP_RET_TRACE, UNIMPLEMENTED },
};

/*
 * The filter's TRAP, not its kill: a SIGSYS that kills would not tell the
 * filter's from a mask that wrongly kills instead of logging.
 */
FIXTURE_VARIANT_ADD(order, mask_log_goes_on_to_filter_trap) {
	.c = { SECCOMP_RET_LOG, RET_FILTER_TRAP, FILTER_TRAPPED },
};

FIXTURE_VARIANT_ADD(order, mask_log_goes_on_to_filter_allow) {
	.c = { SECCOMP_RET_LOG, SECCOMP_RET_ALLOW, RUNS },
};

FIXTURE_VARIANT_ADD(order, mask_zero_before_filter_allow) {
	.c = { 0, SECCOMP_RET_ALLOW, KILLED_AT_CALL },
};

static void check_order(struct __test_metadata *const _metadata,
			const struct mask_filter_case *c, bool mask_first)
{
	long enosys = -unimplemented_errno();
	pid_t pid, ppid = getpid();

	ASSERT_GT(0, enosys);
	pid = fork_child(_metadata);
	if (pid == 0) {
		long ret;

		CHILD_ASSERT(catch_sigsys() == 0);
		CHILD_ASSERT(set_nnp() == 0);
		if (mask_first)
			CHILD_ASSERT(install_getppid_mask(true,
							  c->mask_action) == 0);
		CHILD_ASSERT(install_getppid_filter(0, c->filter_ret) == 0);
		if (!mask_first)
			CHILD_ASSERT(install_getppid_mask(true,
							  c->mask_action) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2);
		/* Allowed by the mask: the filter decides, as without one. */
		CHILD_ASSERT(own_call(__NR_getuid) == -FILTER_ERRNO2);
		CHILD_DENIED(own_call(__NR_getppid));
		ret = child_report->denied_ret;
		switch (c->outcome) {
		case MASK_ERRNO_RETURNED:
			CHILD_ASSERT(ret == -MASK_ERRNO);
			CHILD_ASSERT(sigsys_seen.count == 0);
			break;
		case FILTER_ERRNO_RETURNED:
			CHILD_ASSERT(ret == -FILTER_ERRNO);
			CHILD_ASSERT(sigsys_seen.count == 0);
			break;
		case UNIMPLEMENTED:
			CHILD_ASSERT(ret == enosys);
			CHILD_ASSERT(sigsys_seen.count == 0);
			break;
		case MASK_TRAPPED:
		case FILTER_TRAPPED:
			CHILD_ASSERT(sigsys_seen.count == 1);
			CHILD_ASSERT(sigsys_seen.code == SYS_SECCOMP);
			CHILD_ASSERT(sigsys_seen.nr == __NR_getppid);
			CHILD_ASSERT(sigsys_seen.arch == SELF_ARCH);
			/* Which one: the mask's TRAP carries no data. */
			CHILD_ASSERT(sigsys_seen.err ==
				     (c->outcome == FILTER_TRAPPED ?
				      FILTER_TRAP_DATA : 0));
			/*
			 * Rolled back, handler left it: the call's number
			 * (arm64: its first argument).
			 */
			CHILD_ASSERT(ret == trap_return_own(__NR_getppid));
			break;
		case RUNS:
			CHILD_ASSERT(ret == ppid);
			CHILD_ASSERT(sigsys_seen.count == 0);
			break;
		default:
			CHILD_ASSERT(!"the call did not kill");
		}
		_exit(0);
	}
	if (c->outcome == KILLED_AT_CALL)
		ASSERT_CHILD_DENIED(pid);
	else
		ASSERT_CHILD_OK(pid);
}

TEST_F(order, mask_then_filter)
{
	check_order(_metadata, &variant->c, true);
}

TEST_F(order, filter_then_mask)
{
	check_order(_metadata, &variant->c, false);
}

/*
 * A call the mask allows runs every filter, the last one installed first.
 * The three answer getppid differently (the first filter ERRNO 77, the
 * mask ERRNO 5 if it wrongly denied, the last filter a TRAP with data), so
 * the SIGSYS's si_errno says that the last filter decided.
 */
TEST(allowed_call_runs_the_filters_as_without_a_mask)
{
	pid_t pid = fork_mask_child(_metadata);

	if (pid < 0)
		return;
	if (pid == 0) {
		struct mask m;
		long ret;

		mask_all(&m, SECCOMP_MASK_MAX_BITS);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(install_filter_errno(0) == 0);
		CHILD_ASSERT(mask_prctl_action(&m, SECCOMP_RET_ERRNO |
					       MASK_ERRNO) == 0);
		CHILD_ASSERT(install_getppid_filter(0, SECCOMP_RET_TRAP |
					    FILTER_TRAP_DATA) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2);
		CHILD_ASSERT(status_is(0, "Seccomp_filters", "2"));
		CHILD_ASSERT(catch_sigsys() == 0);
		CHILD_ASSERT(own_call(__NR_getuid) == -FILTER_ERRNO2);
		CHILD_ASSERT(own_call(__NR_getpid) == getpid());
		CHILD_ASSERT(sigsys_seen.count == 0);
		/* The filters' precedence: TRAP over ERRNO. */
		ret = own_call(__NR_getppid);
		CHILD_ASSERT(sigsys_seen.count == 1);
		CHILD_ASSERT(sigsys_seen.code == SYS_SECCOMP);
		CHILD_ASSERT(sigsys_seen.nr == __NR_getppid);
		CHILD_ASSERT(sigsys_seen.arch == SELF_ARCH);
		CHILD_ASSERT(sigsys_seen.err == FILTER_TRAP_DATA);
		/* Rolled back by the filter's TRAP: the call's number (x0). */
		CHILD_ASSERT(ret == trap_return_own(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/* Strict mode stays exclusive: strict over a mask is EINVAL. */
FIXTURE(strict_over_mask) {};
FIXTURE_SETUP(strict_over_mask) { require_mask(_metadata); }
FIXTURE_TEARDOWN(strict_over_mask) {}

FIXTURE_VARIANT(strict_over_mask) {
	bool with_filter;
	bool via_seccomp;
};

FIXTURE_VARIANT_ADD(strict_over_mask, prctl) { .via_seccomp = false };
FIXTURE_VARIANT_ADD(strict_over_mask, seccomp) { .via_seccomp = true };

FIXTURE_VARIANT_ADD(strict_over_mask, prctl_over_mask_and_filter) {
	.with_filter = true, .via_seccomp = false,
};

FIXTURE_VARIANT_ADD(strict_over_mask, seccomp_over_mask_and_filter) {
	.with_filter = true, .via_seccomp = true,
};

TEST_F(strict_over_mask, is_einval)
{
	int mode = variant->with_filter ? 2 : 3;
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		int ret;

		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(install_mask_errno(false) == 0);
		if (variant->with_filter)
			CHILD_ASSERT(install_filter_errno(-1) == 0);
		errno = 0;
		if (variant->via_seccomp)
			ret = sys_seccomp(SECCOMP_SET_MODE_STRICT, 0, NULL);
		else
			ret = prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT,
				    0, 0, 0);
		CHILD_ASSERT(ret == -1 && errno == EINVAL);
		/* Nothing changed: no strict mode, the mask still there. */
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == mode);
		CHILD_ASSERT(own_call(__NR_getppid) == -MASK_ERRNO);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * Mask over strict: strict mode allows neither prctl() nor seccomp(2),
 * so a mask request through either (after no_new_privs, the version 1
 * kill or an errno) is killed by strict mode (SIGKILL) at the call and
 * installs nothing. Upstream behaviour, which passes without the series:
 * it stays because the series adds a mode next to strict mode in the
 * syscall entry path and in the mode checks, and it fails if a mask
 * install under strict mode gets past strict mode's allowlist.
 */
TEST(mask_over_strict_is_killed_by_strict_mode)
{
	struct mask m;

	if (!require_mask(_metadata))
		return;
	mask_all(&m, SECCOMP_MASK_MAX_BITS);
	ASSERT_STRICT_DENIES(true, mask_prctl_action(&m, 0));
	ASSERT_STRICT_DENIES(true, mask_seccomp_self(0, SECCOMP_RET_ERRNO | 1,
						     &m));
}

/*
 * A filter TSYNC reaches a sibling thread that has a mask of its own (the
 * caller has none); the sibling keeps its mask under the new filter.
 */
struct sibling {
	int go[2];	/* the main thread to the sibling */
	int ready[2];	/* the sibling to the main thread */
	pid_t tid;
};

static void *masked_sibling(void *arg)
{
	struct sibling *s = arg;
	char c;

	s->tid = syscall(__NR_gettid);
	CHILD_ASSERT(install_mask_errno(false) == 0);
	CHILD_ASSERT(write(s->ready[1], "r", 1) == 1);
	CHILD_ASSERT(read(s->go[0], &c, 1) == 1);
	/* Under the filter the main thread installed, with its own mask. */
	check_stacked(s->tid);
	CHILD_ASSERT(write(s->ready[1], "d", 1) == 1);
	return NULL;
}

TEST(filter_tsync_reaches_a_masked_sibling_which_keeps_its_mask)
{
	pid_t pid = fork_mask_threads_child(_metadata);

	if (pid < 0)
		return;
	if (pid == 0) {
		struct sibling s;
		char c, buf[8192];
		pthread_t t;

		CHILD_ASSERT(pipe(s.go) == 0 && pipe(s.ready) == 0);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(pthread_create(&t, NULL, masked_sibling, &s) == 0);
		CHILD_ASSERT(read(s.ready[0], &c, 1) == 1);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
		CHILD_ASSERT(status_is(s.tid, "Seccomp", "3"));
		/* 0, not the TID of a thread that could not take it. */
		CHILD_ASSERT(install_filter_errno(SECCOMP_FILTER_FLAG_TSYNC) == 0);
		CHILD_ASSERT(shows_stacked(s.tid));
		CHILD_ASSERT(write(s.go[1], "g", 1) == 1);
		CHILD_ASSERT(read(s.ready[0], &c, 1) == 1 && c == 'd');
		CHILD_ASSERT(pthread_join(t, NULL) == 0);
		/* The caller got the filter and no mask. */
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2);
		CHILD_ASSERT(own_call(__NR_getppid) == -FILTER_ERRNO);
		CHILD_ASSERT(read_status(0, buf, sizeof(buf)) == 0);
		CHILD_ASSERT(!strstr(buf, "Seccomp_mask"));
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

#else

TEST(stacking)
{
	SKIP(return, "the stacking tests know the ABIs of x86-64 and arm64 only");
}

#endif

TEST_HARNESS_MAIN
