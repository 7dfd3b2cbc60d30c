// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode, version 2: /proc/<pid>/status never shows a state
 * that did not exist, while the task is changing it.
 *
 * A racer waits until the parent has read its status once (in mode 0),
 * then installs a mask and tightens it to every other state, each state
 * with masks and an action of its own, while the parent re-reads its
 * status file without a pause. Every read must be one state: mode 0
 * without mask lines, or mode 3 with the mask lines and the action line
 * of one and the same install, and never a state older than the one the
 * read before showed. Inconsistent: "Seccomp: 0" with mask lines,
 * "Seccomp: 3" without them, lines of two different states, a state that
 * goes back.
 *
 * A pass only means something if the reads did overlap the changes, so
 * each race counts what its reads caught: 0 -> 3 switches (a racer read
 * in mode 0, then in mode 3), reads of an intermediate state (after the
 * first install, before the last tightening: the racer was tightening
 * while the parent read it), and transitions (two reads in a row of one
 * racer in different states). A race runs for RACE_SECONDS and then on
 * until it has caught MIN_SWITCHES switches and MIN_INTERMEDIATE
 * intermediate reads; if HARD_SECONDS pass first, the race was not
 * exercised and the test fails. No fixed bound per round or per racer: a
 * racer only has to keep changing state (a racer stuck in one state for
 * STALL_SECONDS fails the test). The counts are printed.
 */

#include <poll.h>
#include <pthread.h>
#include <sched.h>

#include "common.h"

#ifdef TWO_ABIS

#define NR_CHILDREN	16	/* racer processes forked per round */
#define NR_STATES	8	/* state k: ERRNO k + 1, bits 900 .. 900+k-1 clear */
#define LAST_STATE	(NR_STATES - 1)
#define STATE_FIRST_CLEARED	900
/*
 * A race runs at least RACE_SECONDS, then until it has caught enough, but
 * no longer than HARD_SECONDS: the harness gives a TEST() 30 s in all,
 * setup and teardown included.
 */
#define RACE_SECONDS	4
#define HARD_SECONDS	20
/*
 * Enough to show that the reads overlap the tightenings. With the
 * handshake below nearly every racer gives a switch, and a racer that
 * tightens 7 times while it is read without a pause gives an
 * intermediate read far more often than one in five: on the normal TCG
 * guest both are reached within RACE_SECONDS, on the debug kernel
 * (KASAN, several times slower) well within HARD_SECONDS. A kernel, or
 * a machine, where the reads never overlap a change fails instead of
 * passing without having raced anything.
 */
#define MIN_SWITCHES	50
#define MIN_INTERMEDIATE	10
/* A racer that shows no new state for this long is stuck. */
#define STALL_SECONDS	10
/* A racer waits this long at most for the parent's first read of it. */
#define FIRST_READ_WAIT	1.0

/* What classify() returns besides a state 0 .. LAST_STATE. */
#define MODE_0		(-1)	/* no mask yet */
#define BAD		(-2)	/* inconsistent */
#define NONE		(-3)	/* not read yet */

/* In a racer: install state 0, then tighten to every other state. */
static void every_state(bool both)
{
	struct mask m;
	int k;

	for (k = 0; k < NR_STATES; k++) {
		mask_all_but_n(&m, STATE_FIRST_CLEARED, k);
		CHILD_ASSERT(mask_seccomp_own_other(0, SECCOMP_RET_ERRNO |
						    (k + 1), both ? 2 : 1,
						    &m, &m) == 0);
	}
}

/*
 * In a racer, in mode 0: wait until the parent has read this racer's
 * status (*@reads > 0), so that its reads are under way when the racer
 * starts to change; after FIRST_READ_WAIT go on anyway. It yields, so
 * that a racer woken on the parent's CPU lets the parent read.
 */
static void wait_first_read(int *reads)
{
	double end = now() + FIRST_READ_WAIT;

	while (!__atomic_load_n(reads, __ATOMIC_ACQUIRE) && now() < end)
		sched_yield();
}

struct race {
	char fmt[NR_STATES][64];	/* the mask line of each state */
	const char *own_line;
	const char *other_line;		/* NULL: no line for another ABI */
	bool both;
	int rounds;
	unsigned long racers;		/* racers read in their last state */
	unsigned long reads;
	unsigned long transitions;	/* two reads in a row, two states */
	unsigned long switches;		/* mode 0, then mode 3 */
	unsigned long intermediate;	/* reads of states 0 .. LAST_STATE-1 */
	int bad;
};

/* Did the race overlap the changes enough? */
static bool exercised(const struct race *r)
{
	return r->switches >= MIN_SWITCHES &&
	       r->intermediate >= MIN_INTERMEDIATE;
}

static void race_report(struct __test_metadata *const _metadata,
			const struct race *r, const char *form, double secs)
{
	if (r->rounds)
		TH_LOG("%s: %d rounds of %d, %lu racers through every state, %lu reads in %.1f s",
		       form, r->rounds, NR_CHILDREN, r->racers, r->reads, secs);
	else
		TH_LOG("%s: %lu racers through every state, %lu reads in %.1f s",
		       form, r->racers, r->reads, secs);
	TH_LOG("%s: %lu transitions, %lu 0 -> 3 switches, %lu intermediate reads, %lu failures",
	       form, r->transitions, r->switches, r->intermediate,
	       (unsigned long)r->bad);
	EXPECT_EQ(0, r->bad);
	EXPECT_TRUE(exercised(r)) {
		TH_LOG("%s: race not exercised: < %d switches or %d intermediate reads in %.1f s",
		       form, MIN_SWITCHES, MIN_INTERMEDIATE, secs);
	}
}

/* Which state one read of a status file shows; MODE_0, or BAD and @why. */
static int classify(struct race *r, const char *buf, char *why, size_t len)
{
	char mode[16], own[128], other[128], action[64];
	bool has_own, has_other, has_action;
	int k;

	if (!status_field(buf, "Seccomp", mode, sizeof(mode))) {
		snprintf(why, len, "no Seccomp: line");
		return BAD;
	}
	has_own = status_field(buf, r->own_line, own, sizeof(own));
	has_other = r->other_line &&
		    status_field(buf, r->other_line, other, sizeof(other));
	has_action = status_field(buf, "Seccomp_mask_action", action,
				  sizeof(action));
	if (!strcmp(mode, "0")) {
		if (has_own || has_other || has_action || strstr(buf, "Seccomp_mask")) {
			snprintf(why, len, "Seccomp: 0 with mask lines");
			return BAD;
		}
		return MODE_0;
	}
	if (strcmp(mode, "3")) {
		snprintf(why, len, "Seccomp: %s", mode);
		return BAD;
	}
	if (!has_own || !has_action || (r->other_line && !has_other)) {
		snprintf(why, len, "Seccomp: 3 without every mask line (%s%s%s)",
			 has_own ? "" : r->own_line,
			 has_action ? "" : " Seccomp_mask_action",
			 !r->other_line || has_other ? "" : r->other_line);
		return BAD;
	}
	if (sscanf(action, "errno %d", &k) != 1 || k < 1 || k > NR_STATES) {
		snprintf(why, len, "Seccomp_mask_action: %s", action);
		return BAD;
	}
	k--;
	if (strcmp(own, r->fmt[k]) ||
	    (has_other && strcmp(other, r->both ? r->fmt[k] : ""))) {
		snprintf(why, len,
			 "lines of different states: action errno %d, %s %.64s, %s %.64s",
			 k + 1, r->own_line, own, r->other_line ?: "-",
			 has_other ? other : "-");
		return BAD;
	}
	return k;
}

/*
 * Count one read of a racer that showed state @k (not BAD), after a read
 * of the same racer in state @prev (NONE: its first read). False when @k
 * is older than @prev: a racer only goes forward.
 */
static bool observe(struct race *r, int prev, int k)
{
	r->reads++;
	if (k >= 0 && k < LAST_STATE)
		r->intermediate++;
	if (prev == NONE || k == prev)
		return true;
	if (k < prev)
		return false;
	r->transitions++;
	if (prev == MODE_0)
		r->switches++;
	return true;
}

/* The parent's reads of each racer process since its round began. */
static int *first_reads;

/* A racer process: wait for SIGUSR1 and the first read, race, wait. */
static void racer(int i, int ready, int never, bool both)
{
	sigset_t set;
	int sig;
	char c;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	CHILD_ASSERT(sigprocmask(SIG_BLOCK, &set, NULL) == 0);
	CHILD_ASSERT(set_nnp() == 0);
	CHILD_ASSERT(write(ready, "r", 1) == 1);
	CHILD_ASSERT(sigwait(&set, &sig) == 0);
	wait_first_read(&first_reads[i]);
	every_state(both);
	/* Killed by the parent while it waits here. */
	CHILD_ASSERT(read(never, &c, 1) == 1);
	_exit(0);
}

/* Has the child @pid ended (a failure of its own)? It stays unreaped. */
static bool ended(pid_t pid)
{
	siginfo_t info = { .si_pid = 0 };

	return !waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) &&
	       info.si_pid == pid;
}

/*
 * Start racer @i (@pid) and read its status without a pause until it
 * shows its last state, until it is stuck, or until @hard.
 */
static void read_racer(struct __test_metadata *const _metadata,
		       struct race *r, int i, pid_t pid, double hard)
{
	char buf[8192], why[256];
	int prev = NONE, k;
	double changed = now();

	kill(pid, SIGUSR1);
	while (now() < hard) {
		if (read_status(pid, buf, sizeof(buf))) {
			if (r->bad++ < 5)
				TH_LOG("child %d: no status", pid);
			return;
		}
		__atomic_add_fetch(&first_reads[i], 1, __ATOMIC_RELEASE);
		k = classify(r, buf, why, sizeof(why));
		if (k == BAD) {
			if (r->bad++ < 5)
				TH_LOG("child %d: %s", pid, why);
			return;
		}
		if (!observe(r, prev, k)) {
			if (r->bad++ < 5)
				TH_LOG("child %d: state %d after state %d", pid,
				       k, prev);
			return;
		}
		if (k == LAST_STATE) {
			r->racers++;
			return;
		}
		if (k != prev) {
			changed = now();
		} else if (ended(pid)) {
			if (r->bad++ < 5)
				TH_LOG("child %d ended in state %d", pid, k);
			return;
		} else if (now() - changed > STALL_SECONDS) {
			if (r->bad++ < 5)
				TH_LOG("child %d: still in state %d after %d s",
				       pid, k, STALL_SECONDS);
			return;
		}
		prev = k;
	}
}

/*
 * One round: fork the racers; once all are ready, race them one after
 * the other (the parent reads the racer that is changing, on the other
 * CPU); then kill and reap them.
 */
static void round_run(struct __test_metadata *const _metadata,
		      struct race *r, double hard)
{
	pid_t pids[NR_CHILDREN];
	int ready[2], never[2], i, n, got = 0;
	struct pollfd pfd;
	char c;

	memset(first_reads, 0, NR_CHILDREN * sizeof(*first_reads));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(never));
	for (n = 0; n < NR_CHILDREN; n++) {
		pids[n] = child_fork();
		if (pids[n] == 0)
			racer(n, ready[1], never[0], r->both);
		if (pids[n] < 0)
			break;
	}
	/* Ready by the hard bound; a racer that died is reported below. */
	pfd.fd = ready[0];
	pfd.events = POLLIN;
	while (got < n) {
		int ms = (hard - now()) * 1000;

		if (ms <= 0 || poll(&pfd, 1, ms) != 1 ||
		    read(ready[0], &c, 1) != 1)
			break;
		got++;
	}
	if (n == NR_CHILDREN && got == n) {
		r->rounds++;
		for (i = 0; i < n && now() < hard; i++)
			read_racer(_metadata, r, i, pids[i], hard);
	}
	/* Every racer is killed and reaped, whatever happened. */
	for (i = 0; i < n; i++) {
		int status;

		kill(pids[i], SIGKILL);
		if (waitpid_timeout(pids[i], &status, 0, CHILD_TIMEOUT_MS) != pids[i] ||
		    !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)) {
			r->bad++;
			child_describe(_metadata, status, __LINE__);
		}
	}
	close(ready[0]);
	close(ready[1]);
	close(never[0]);
	close(never[1]);
	if (n < NR_CHILDREN && r->bad++ < 5)
		TH_LOG("could fork only %d of %d racers", n, NR_CHILDREN);
}

static void race_init(struct race *r)
{
	int k;

	memset(r, 0, sizeof(*r));
	r->both = other_abi_available();
	r->own_line = mask_line(false);
	/*
	 * A 64-bit x86 kernel has both lines; an arm64 one has the compat
	 * line with CONFIG_COMPAT, which running AArch32 programs needs.
	 */
#ifdef X86_BUILD
	if (kernel_is_64bit())
		r->other_line = mask_line(true);
#else
	if (r->both)
		r->other_line = mask_line(true);
#endif
	for (k = 0; k < NR_STATES; k++) {
		struct mask m;

		mask_all_but_n(&m, STATE_FIRST_CLEARED, k);
		mask_format(&m, r->fmt[k], sizeof(r->fmt[k]));
	}
}

/*
 * A reader and a racer at the same time need two CPUs (the harness'
 * guest has two); on one, a read could only overlap a change when the
 * scheduler preempts the racer between two tightenings.
 */
static bool require_two_cpus(struct __test_metadata *const _metadata)
{
	cpu_set_t set;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) < 2)
		SKIP_UNLESS_REQUIRED(return false,
				     "%d CPU: a reader and a racer cannot run at the same time",
				     CPU_COUNT(&set));
	return true;
}

TEST(status_is_always_one_state)
{
	double start, soft, hard;
	struct race r;

	if (!require_mask(_metadata) || !require_two_cpus(_metadata))
		return;
	race_init(&r);
	first_reads = mmap(NULL, NR_CHILDREN * sizeof(*first_reads),
			   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			   -1, 0);
	ASSERT_TRUE(first_reads != MAP_FAILED);
	start = now();
	soft = start + RACE_SECONDS;
	hard = start + HARD_SECONDS;
	while (!r.bad && now() < hard && (now() < soft || !exercised(&r)))
		round_run(_metadata, &r, hard);
	race_report(_metadata, &r, "processes", now() - start);
	munmap(first_reads, NR_CHILDREN * sizeof(*first_reads));
}

/*
 * The same race with many more installs: in a child whose main thread
 * stays in mode 0, one racer thread after the other announces its TID,
 * waits until the parent has read its status, and goes through every
 * state, while the parent reads the status of the current racer without
 * a pause.
 */
struct relay {
	pid_t tid;	/* the current racer */
	int reads;	/* the parent's reads of it */
	int racers;	/* racers that went through every state */
	bool both;
};

static struct relay *relay;

static void *racer_thread(void *arg)
{
	__atomic_store_n(&relay->reads, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&relay->tid, syscall(__NR_gettid), __ATOMIC_SEQ_CST);
	wait_first_read(&relay->reads);
	every_state(relay->both);
	__atomic_add_fetch(&relay->racers, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

TEST(thread_status_is_always_one_state)
{
	char buf[8192], why[256];
	double start, soft, hard, progress;
	int status, prev = NONE, racers = 0, k;
	pid_t pid, prev_tid = 0;
	bool reaped = false;
	struct race r;

	if (!require_mask_threads(_metadata) ||
	    !require_two_cpus(_metadata))
		return;
	race_init(&r);
	relay = mmap(NULL, sizeof(*relay), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(relay != MAP_FAILED);
	relay->both = r.both;
	pid = fork_child(_metadata);
	if (pid == 0) {
		pthread_t t;

		CHILD_ASSERT(set_nnp() == 0);
		/* Killed by the parent. */
		for (;;) {
			CHILD_ASSERT(pthread_create(&t, NULL, racer_thread,
						    NULL) == 0);
			CHILD_ASSERT(pthread_join(t, NULL) == 0);
		}
	}
	start = now();
	progress = start;
	soft = start + RACE_SECONDS;
	hard = start + HARD_SECONDS;
	while (r.bad < 5 && now() < hard && (now() < soft || !exercised(&r))) {
		pid_t tid = __atomic_load_n(&relay->tid, __ATOMIC_SEQ_CST);
		int n = __atomic_load_n(&relay->racers, __ATOMIC_SEQ_CST);

		if (n != racers) {
			racers = n;
			progress = now();
		} else if (now() - progress > STALL_SECONDS) {
			r.bad++;
			TH_LOG("no racer thread went through every state in %d s",
			       STALL_SECONDS);
			break;
		}
		/* Not started yet, or gone: its TID has no status. */
		if (!tid || read_status(tid, buf, sizeof(buf))) {
			/* Or the child ended: a failure of its own. */
			if (waitpid(pid, &status, WNOHANG) == pid) {
				reaped = true;
				r.bad++;
				TH_LOG("the child ended while it raced");
				break;
			}
			continue;
		}
		__atomic_add_fetch(&relay->reads, 1, __ATOMIC_SEQ_CST);
		k = classify(&r, buf, why, sizeof(why));
		if (k == BAD) {
			if (r.bad++ < 5)
				TH_LOG("thread %d: %s", tid, why);
			continue;
		}
		if (tid != prev_tid) {
			prev_tid = tid;
			prev = NONE;
		}
		if (!observe(&r, prev, k) && r.bad++ < 5)
			TH_LOG("thread %d: state %d after state %d", tid, k, prev);
		prev = k;
	}
	if (!reaped) {
		kill(pid, SIGKILL);
		status = child_wait(_metadata, pid);
	}
	r.racers = __atomic_load_n(&relay->racers, __ATOMIC_SEQ_CST);
	race_report(_metadata, &r, "threads", now() - start);
	/* Killed by the parent, not ended by a failure of its own. */
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
		child_describe(_metadata, status, __LINE__);
	}
	munmap(relay, sizeof(*relay));
}

#else

TEST(proc_race)
{
	SKIP(return, "the /proc race test knows the ABIs of x86-64 and arm64 only");
}

#endif

TEST_HARNESS_MAIN
