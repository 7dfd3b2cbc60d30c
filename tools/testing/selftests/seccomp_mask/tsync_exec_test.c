// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: SECCOMP_MASK_FLAG_TSYNC against a concurrent execve()
 * in another thread of the same process (the contract: TSYNC is "all or
 * nothing, serialized against execve as filter TSYNC is").
 *
 * Each round is a process of four threads under mask state 0. One thread
 * (the tsyncer) tightens every thread with TSYNC, state after state,
 * MAX_STATE times; another (the execer) waits until the tsyncer has
 * started its TSYNC number CUT_SPREAD at the most (a different one in
 * each round) and then execs this program (/proc/self/exe); the other
 * two just wait. The exec kills the tsyncer, in user space or in a TSYNC
 * (which waits for the exec's cred_guard_mutex, killably), and the new
 * image, run by a constructor of this file before the harness' main(),
 * reports which state it is in.
 *
 * State k (0 .. MAX_STATE) is the mask of this program's ABI with the
 * numbers PROBE_FIRST .. PROBE_FIRST + k - 1 cleared (numbers no kernel
 * implements) and the action SECCOMP_RET_ERRNO | (STATE_ERRNO + k): one
 * allowlist, told apart by its mask and by its action alike. The new
 * image must be fully in one state:
 * - mode 3, no filter, no_new_privs, one thread;
 * - the Seccomp_mask_action line names state k, and the mask line of its
 *   ABI is exactly the mask of state k (the other ABI's is empty);
 * - every probe agrees: PROBE_FIRST + i returns -(STATE_ERRNO + k) for
 *   i < k (denied, with state k's action) and what an unimplemented
 *   number returns (-ENOSYS) for i >= k (allowed);
 * and k must be one the tsyncer's TSYNCs allow: at least the last TSYNC
 * that returned to it (that one reached every thread, the execer
 * included, and execve keeps the masks), at most the last it started.
 * Every TSYNC that returned must have returned 0: no thread of this test
 * ever refuses the masks (the contract's only reason for a TID), and a
 * TSYNC interrupted by the exec never returns to user space.
 *
 * A round must not hang: its process must report and exit within
 * ROUND_MS, or the test fails (a TSYNC that waits for the exec's mutex
 * unkillably deadlocks with the exec waiting for it to die). The kernel
 * log must stay free of warnings (lockdep on the debug kernel): an
 * unreadable /dev/kmsg skips the test, once every round passed (fails it
 * with SECCOMP_MASK_REQUIRED=1).
 *
 * ROUNDS rounds, or as many as RUN_SECONDS allow. So that a pass means
 * the exec did interrupt the TSYNCs, at least MIN_CUT rounds must end
 * with the tsyncer not done (the exec came before its last TSYNC), of
 * at least MIN_ROUNDS. The count of each outcome is printed.
 *
 * Two variants: the main thread execs (a sibling is the tsyncer), or a
 * sibling execs (the main thread is the tsyncer, and the exec makes the
 * execer the group leader).
 */

#include <poll.h>
#include <pthread.h>
#include <sched.h>

#include "common.h"

#define PROBE_FIRST	600	/* the numbers the states clear, in order */
#define MAX_STATE	255
#define STATE_ERRNO	1000	/* state k's action: ERRNO (STATE_ERRNO + k) */
#define NR_IDLE		2	/* threads that only wait */
#define CUT_SPREAD	16	/* the execer waits for TSYNC 1 .. CUT_SPREAD */
#define ROUNDS		64
#define MIN_ROUNDS	16
#define MIN_CUT		8
#define RUN_SECONDS	40	/* no round starts after this */
#define ROUND_MS	15000	/* a round's process reports and exits */
/* Two variants in the 180 s of the program: each well below 90 s. */
#define TEST_SECONDS	(RUN_SECONDS + ROUND_MS / 1000 + 20)

#define REPORT_ENV	"SECCOMP_MASK_TSYNC_EXEC_FD"
#define REPORT_MAGIC	0x7e5c

/* What the new image writes to the pipe. */
struct image_report {
	int magic;
	int state;		/* from its action line; -1: none */
	char what[240];		/* empty: fully in that state */
};

/* What the round's threads tell the test (a shared page). */
struct round_shared {
	int attempt;		/* the TSYNC started last (1 .. MAX_STATE) */
	int done;		/* the TSYNC that returned 0 last */
	int finished;		/* the tsyncer made every TSYNC */
	int failed_state;	/* the TSYNC that did not return 0 */
	long tsync_ret;
	int tsync_errno;
};

static struct round_shared *sh;

/*
 * State @k's mask: every number of this ABI but the @k from PROBE_FIRST
 * on, up to its largest nbits (SELF_MAX_BITS: an AArch32 image's start-up
 * calls set_tls, bit 1029).
 */
static void state_mask(struct mask *m, int k)
{
	int i;

	mask_all(m, SELF_MAX_BITS);
	for (i = 0; i < k; i++)
		mask_clear(m, PROBE_FIRST + i);
}

static __u32 state_action(int k)
{
	return SECCOMP_RET_ERRNO | (STATE_ERRNO + k);
}

static long install_state(unsigned int flags, const struct mask *m, int k)
{
	return mask_seccomp_self(flags, state_action(k), m);
}

/* Does the "@key:" line of @buf read @want? Else say what it reads. */
static bool image_line(const char *buf, const char *key, const char *want,
		       struct image_report *rep)
{
	char val[4096];

	if (!status_field(buf, key, val, sizeof(val))) {
		snprintf(rep->what, sizeof(rep->what), "no %s line", key);
		return false;
	}
	if (strcmp(val, want)) {
		snprintf(rep->what, sizeof(rep->what),
			 "%s is '%.80s', expected '%.80s'", key, val, want);
		return false;
	}
	return true;
}

/* In the new image: which state it is in, and whether fully. */
static void image_check(struct image_report *rep)
{
	char buf[8192], val[4096], want[4096];
	long mode = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
	int k, i, e, unimpl = unimplemented_errno();
	struct mask m;
	long ret;

	rep->state = -1;
	if (unimpl <= 0) {
		snprintf(rep->what, sizeof(rep->what),
			 "no errno from an unimplemented syscall number (%d)",
			 unimpl);
		return;
	}
	if (mode != 3) {
		snprintf(rep->what, sizeof(rep->what),
			 "PR_GET_SECCOMP is %ld, expected 3", mode);
		return;
	}
	if (read_status(0, buf, sizeof(buf))) {
		snprintf(rep->what, sizeof(rep->what),
			 "cannot read /proc/self/status: %s", strerror(errno));
		return;
	}
	if (!status_field(buf, "Seccomp_mask_action", val, sizeof(val)) ||
	    sscanf(val, "errno %d", &e) != 1 || e < STATE_ERRNO ||
	    e > STATE_ERRNO + MAX_STATE) {
		snprintf(rep->what, sizeof(rep->what),
			 "Seccomp_mask_action is no state's action");
		return;
	}
	k = e - STATE_ERRNO;
	rep->state = k;
	state_mask(&m, k);
	mask_format(&m, want, sizeof(want));
	if (!image_line(buf, "Seccomp", "3", rep) ||
	    !image_line(buf, "Seccomp_filters", "0", rep) ||
	    !image_line(buf, "NoNewPrivs", "1", rep) ||
	    !image_line(buf, "Threads", "1", rep) ||
	    !image_line(buf, mask_line(false), want, rep))
		return;
	/* The ABI no install listed has the empty mask of the first one. */
	if ((self_is_compat() ||
	     status_field(buf, mask_line(true), val, sizeof(val))) &&
	    !image_line(buf, mask_line(true), "", rep))
		return;
	/* What the mask enforces is that state too, action included. */
	for (i = 0; i < MAX_STATE; i++) {
		int want_errno = i < k ? STATE_ERRNO + k : unimpl;

		errno = 0;
		ret = syscall(PROBE_FIRST + i);
		if (ret != -1 || errno != want_errno) {
			snprintf(rep->what, sizeof(rep->what),
				 "status shows state %d, but syscall %d returned %ld, errno %d (expected errno %d)",
				 k, PROBE_FIRST + i, ret, errno, want_errno);
			return;
		}
	}
}

/*
 * The new image of a round, before the harness' main(): report on the
 * pipe named in the environment, and exit.
 */
static void __attribute__((constructor)) image_main(void)
{
	const char *fd_env = getenv(REPORT_ENV);
	struct image_report rep;

	if (!fd_env)
		return;
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	memset(&rep, 0, sizeof(rep));
	rep.magic = REPORT_MAGIC;
	image_check(&rep);
	_exit(write(atoi(fd_env), &rep, sizeof(rep)) == sizeof(rep) ? 0 : 3);
}

/* The tsyncer: TSYNC to state 1, 2, ... MAX_STATE, until killed. */
static void *tsyncer(void *arg)
{
	struct mask m;
	long ret;
	int k;

	state_mask(&m, 0);
	for (k = 1; k <= MAX_STATE; k++) {
		mask_clear(&m, PROBE_FIRST + k - 1);
		__atomic_store_n(&sh->attempt, k, __ATOMIC_SEQ_CST);
		ret = install_state(SECCOMP_MASK_FLAG_TSYNC, &m, k);
		if (ret) {
			sh->tsync_errno = ret < 0 ? errno : 0;
			sh->tsync_ret = ret;
			__atomic_store_n(&sh->failed_state, k, __ATOMIC_SEQ_CST);
			break;
		}
		__atomic_store_n(&sh->done, k, __ATOMIC_SEQ_CST);
		/* On one CPU, let the execer run between two TSYNCs. */
		sched_yield();
	}
	__atomic_store_n(&sh->finished, 1, __ATOMIC_SEQ_CST);
	for (;;)
		pause();
	return arg;
}

static int report_fd;
static int cut_at;

/* The execer: once TSYNC @cut_at has started, exec this program. */
static void *execer(void *arg)
{
	double deadline = now() + ROUND_MS / 2000.0;
	char env[64];
	char *const argv[] = { "tsync_exec_image", NULL };
	char *const envp[] = { env, NULL };

	snprintf(env, sizeof(env), "%s=%d", REPORT_ENV, report_fd);
	while (__atomic_load_n(&sh->attempt, __ATOMIC_SEQ_CST) < cut_at &&
	       !__atomic_load_n(&sh->finished, __ATOMIC_SEQ_CST)) {
		if (now() >= deadline)
			child_fail(__LINE__, "the tsyncer started its TSYNCs in time");
		sched_yield();
	}
	execve("/proc/self/exe", argv, envp);
	child_fail(__LINE__, "execve(\"/proc/self/exe\") == 0");
	return arg;
}

static void *idle(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/* A round's process; the main thread execs or is the tsyncer. */
static void __noreturn round_child(bool leader_execs)
{
	pthread_t t;
	struct mask m;
	int i;

	CHILD_ASSERT(set_nnp() == 0);
	state_mask(&m, 0);
	CHILD_ASSERT(install_state(0, &m, 0) == 0);
	for (i = 0; i < NR_IDLE; i++)
		CHILD_ASSERT(pthread_create(&t, NULL, idle, NULL) == 0);
	CHILD_ASSERT(pthread_create(&t, NULL, leader_execs ? tsyncer : execer,
				    NULL) == 0);
	if (leader_execs)
		execer(NULL);
	else
		tsyncer(NULL);
	_exit(CHILD_FAILED);
}

/* The outcomes of the rounds. */
struct tally {
	int rounds;
	int finished;		/* the tsyncer made every TSYNC first */
	int cut;		/* the exec came before its last TSYNC */
	int between;		/* image = the last TSYNC that returned */
	int applied;		/* image = a TSYNC that never returned */
	int not_applied;	/* image = the one before the TSYNC started */
	long tsyncs;		/* TSYNCs that returned 0 */
	int lo, hi;		/* the states the images were in */
};

static void tally_log(struct __test_metadata *const _metadata,
		      const struct tally *t, double secs)
{
	TH_LOG("%d rounds in %.1f s (bound: %d or %d s); %ld TSYNCs returned 0",
	       t->rounds, secs, ROUNDS, RUN_SECONDS, t->tsyncs);
	if (t->rounds)
		TH_LOG("the new images were in states %d to %d", t->lo, t->hi);
	TH_LOG("exec before the last TSYNC: %d rounds (at least %d), the image in the state of",
	       t->cut, MIN_CUT);
	TH_LOG("  the last TSYNC that returned %d, one that never returned %d, an earlier one %d",
	       t->between, t->applied, t->not_applied);
	TH_LOG("exec after every TSYNC: %d rounds", t->finished);
}

FIXTURE(tsync_exec) {};

FIXTURE_VARIANT(tsync_exec) {
	bool leader_execs;
};

/* The main thread execs; a sibling makes the TSYNCs. */
FIXTURE_VARIANT_ADD(tsync_exec, leader_execs) { .leader_execs = true };

/* A sibling execs (and becomes the leader); the main thread TSYNCs. */
FIXTURE_VARIANT_ADD(tsync_exec, sibling_execs) { .leader_execs = false };

FIXTURE_SETUP(tsync_exec) { require_mask_threads(_metadata); }
FIXTURE_TEARDOWN(tsync_exec) {}

TEST_F_TIMEOUT(tsync_exec, image_is_fully_in_one_state, TEST_SECONDS)
{
	struct tally t = { .lo = MAX_STATE, .hi = -1 };
	int kmsg, kmsg_errno = 0, fds[2], status, warned;
	double start = now(), end;
	struct image_report rep;
	char what[1024];
	ssize_t n;
	pid_t pid;

	/* Opened first: the log of every round is checked. */
	kmsg = kmsg_open_at_end();
	if (kmsg < 0)
		kmsg_errno = errno;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(sh != MAP_FAILED);

	while (t.rounds < ROUNDS && now() - start < RUN_SECONDS) {
		memset(sh, 0, sizeof(*sh));
		memset(&rep, 0, sizeof(rep));
		cut_at = 1 + t.rounds % CUT_SPREAD;
		ASSERT_EQ(0, pipe(fds));
		report_fd = fds[1];
		pid = fork_child(_metadata);
		if (pid == 0) {
			close(fds[0]);
			round_child(variant->leader_execs);
		}
		close(fds[1]);
		end = now() + ROUND_MS / 1000.0;
		n = read_until(fds[0], &rep, sizeof(rep), end);
		close(fds[0]);
		if (n == -2)
			kill(pid, SIGKILL);
		ASSERT_EQ(pid, waitpid_timeout(pid, &status, 0,
					       (end - now()) * 1000 + 1000));

		if (n != sizeof(rep) || !WIFEXITED(status) ||
		    WEXITSTATUS(status) || rep.magic != REPORT_MAGIC ||
		    sh->tsync_ret || rep.what[0] || rep.state < sh->done ||
		    rep.state > sh->attempt) {
			tally_log(_metadata, &t, now() - start);
			TH_LOG("round %d (exec at TSYNC %d): last TSYNC started %d, returned %d%s",
			       t.rounds, cut_at, sh->attempt, sh->done,
			       sh->finished ? ", all made" : "");
		}
		/* No hang: the exec and the TSYNCs both end. */
		ASSERT_NE(-2, n) {
			TH_LOG("round %d: no report in %d ms: the process hangs (killed)",
			       t.rounds, ROUND_MS);
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			child_describe(_metadata, status, __LINE__);
		ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
		ASSERT_EQ((ssize_t)sizeof(rep), n);
		ASSERT_EQ(REPORT_MAGIC, rep.magic);

		/* Each TSYNC that came back to user space returned 0. */
		ASSERT_EQ(0, sh->tsync_ret) {
			TH_LOG("round %d: TSYNC %d returned %ld (errno %d: %s), expected 0",
			       t.rounds, sh->failed_state, sh->tsync_ret,
			       sh->tsync_errno, strerror(sh->tsync_errno));
		}
		/* The new image is fully in one state ... */
		ASSERT_STREQ("", rep.what) {
			TH_LOG("round %d: the new image (state %d) is not fully in one state: %s",
			       t.rounds, rep.state, rep.what);
		}
		/* ... that the TSYNCs made: all of one, or none of it. */
		ASSERT_TRUE(rep.state >= sh->done && rep.state <= sh->attempt) {
			TH_LOG("round %d: image in state %d; TSYNC %d returned, %d started last",
			       t.rounds, rep.state, sh->done, sh->attempt);
		}

		t.rounds++;
		t.tsyncs += sh->done;
		if (rep.state < t.lo)
			t.lo = rep.state;
		if (rep.state > t.hi)
			t.hi = rep.state;
		if (sh->finished) {
			t.finished++;
			continue;
		}
		t.cut++;
		if (rep.state == sh->done && rep.state == sh->attempt)
			t.between++;
		else if (rep.state == sh->attempt)
			t.applied++;
		else
			t.not_applied++;
	}
	tally_log(_metadata, &t, now() - start);

	/* Not vacuous: enough rounds, enough execs amid the TSYNCs. */
	ASSERT_LE(MIN_ROUNDS, t.rounds) {
		TH_LOG("fewer than %d rounds in %d s", MIN_ROUNDS, RUN_SECONDS);
	}
	ASSERT_LE(MIN_CUT, t.cut) {
		TH_LOG("fewer than %d execs before the tsyncer's last TSYNC: nothing raced",
		       MIN_CUT);
	}
	munmap(sh, sizeof(*sh));

	/* Lockdep, a hung task, a WARN: nothing in the log since. */
	if (kmsg < 0)
		SKIP_UNLESS_REQUIRED(return,
				     "/dev/kmsg cannot be read (%s): every round passed, the kernel log was not checked",
				     strerror(kmsg_errno));
	warned = kmsg_warnings(kmsg, what, sizeof(what));
	kmsg_errno = errno;
	close(kmsg);
	ASSERT_NE(-1, warned) {
		TH_LOG("/dev/kmsg could not be read to its end (%s): the kernel log is not checked",
		       strerror(kmsg_errno));
	}
	ASSERT_NE(1, warned) {
		TH_LOG("kernel log: %s", what);
	}
}

TEST_HARNESS_MAIN
