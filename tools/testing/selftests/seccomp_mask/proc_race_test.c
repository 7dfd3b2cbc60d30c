// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode, version 2: /proc/<pid>/status never shows a state
 * that did not exist.
 *
 * Many children wait for a signal, then install a mask and tighten it a
 * few times, each state with masks and an action of its own, while the
 * parent re-reads their status files. Every read must be one state: mode
 * 0 without mask lines, or mode 3 with the mask lines and the action line
 * of one and the same install. Inconsistent: "Seccomp: 0" with mask
 * lines, "Seccomp: 3" without them, lines of two different states.
 */

#include <pthread.h>

#include "common.h"

#ifdef X86_BUILD

#define NR_CHILDREN	16
#define NR_STATES	8	/* state k: ERRNO k + 1, bits 900 .. 900+k-1 clear */
#define STATE_FIRST_CLEARED	900
#define RACE_SECONDS	4
/* A round ends when every child is in its last state; this bounds it. */
#define ROUND_MS	5000

/* The mask of state @k, the same for both ABIs. */
static void state_mask(struct mask *m, int k)
{
	int i;

	mask_all(m, SECCOMP_MASK_MAX_BITS);
	for (i = 0; i < k; i++)
		mask_clear(m, STATE_FIRST_CLEARED + i);
}

/* In a child: install state 0, then tighten to every other state. */
static void every_state(bool both)
{
	const __u32 arch[2] = { SELF_ARCH, OTHER_ARCH };
	struct mask m;
	int k;

	for (k = 0; k < NR_STATES; k++) {
		const struct mask *both_m[2] = { &m, &m };

		state_mask(&m, k);
		CHILD_ASSERT(mask_seccomp_set(0, SECCOMP_RET_ERRNO | (k + 1),
					      both ? 2 : 1, arch, both_m) == 0);
	}
}

/* In a child: wait for SIGUSR1, go through every state, then wait. */
static void racer(int ready, int never, bool both)
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
	every_state(both);
	/* Killed by the parent while it waits here. */
	CHILD_ASSERT(read(never, &c, 1) == 1);
	_exit(0);
}

struct race {
	char fmt[NR_STATES][64];	/* the mask line of each state */
	const char *own_line;
	const char *other_line;		/* NULL: no line for another ABI */
	bool both;
	int reads;
	int bad;
	int final;			/* reads that saw the last state */
};

/* Which state one read of a status file shows; -1 for mode 0, -2: bad. */
static int classify(struct race *r, const char *buf, char *why, size_t len)
{
	char mode[16], own[128], other[128], action[64];
	bool has_own, has_other, has_action;
	int k;

	if (!status_field(buf, "Seccomp", mode, sizeof(mode))) {
		snprintf(why, len, "no Seccomp: line");
		return -2;
	}
	has_own = status_field(buf, r->own_line, own, sizeof(own));
	has_other = r->other_line &&
		    status_field(buf, r->other_line, other, sizeof(other));
	has_action = status_field(buf, "Seccomp_mask_action", action,
				  sizeof(action));
	if (!strcmp(mode, "0")) {
		if (has_own || has_other || has_action || strstr(buf, "Seccomp_mask")) {
			snprintf(why, len, "Seccomp: 0 with mask lines");
			return -2;
		}
		return -1;
	}
	if (strcmp(mode, "3")) {
		snprintf(why, len, "Seccomp: %s", mode);
		return -2;
	}
	if (!has_own || !has_action || (r->other_line && !has_other)) {
		snprintf(why, len, "Seccomp: 3 without every mask line (%s%s%s)",
			 has_own ? "" : r->own_line,
			 has_action ? "" : " Seccomp_mask_action",
			 !r->other_line || has_other ? "" : r->other_line);
		return -2;
	}
	if (sscanf(action, "errno %d", &k) != 1 || k < 1 || k > NR_STATES) {
		snprintf(why, len, "Seccomp_mask_action: %s", action);
		return -2;
	}
	k--;
	if (strcmp(own, r->fmt[k]) ||
	    (has_other && strcmp(other, r->both ? r->fmt[k] : ""))) {
		snprintf(why, len,
			 "lines of different states: action errno %d, %s %.64s, %s %.64s",
			 k + 1, r->own_line, own, r->other_line ?: "-",
			 has_other ? other : "-");
		return -2;
	}
	return k;
}

/* One round: start the children, signal them, read until all are done. */
static void round_run(struct __test_metadata *const _metadata,
		      struct race *r)
{
	pid_t pids[NR_CHILDREN];
	bool done[NR_CHILDREN] = {};
	int ready[2], never[2], i, left;
	double deadline;
	char c;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(never));
	for (i = 0; i < NR_CHILDREN; i++) {
		pids[i] = child_fork();
		if (pids[i] == 0)
			racer(ready[1], never[0], r->both);
		if (pids[i] < 0)
			break;
	}
	left = i;
	for (i = 0; i < left; i++)
		if (read(ready[0], &c, 1) != 1)
			break;
	if (i == left && left == NR_CHILDREN) {
		for (i = 0; i < NR_CHILDREN; i++)
			kill(pids[i], SIGUSR1);
		deadline = now() + ROUND_MS / 1000.0;
		while (left && now() < deadline) {
			for (i = 0; i < NR_CHILDREN; i++) {
				char buf[8192], why[256];
				int k;

				if (done[i])
					continue;
				if (read_status(pids[i], buf, sizeof(buf))) {
					r->bad++;
					TH_LOG("child %d: no status", pids[i]);
					done[i] = true;
					left--;
					continue;
				}
				r->reads++;
				k = classify(r, buf, why, sizeof(why));
				if (k == -2 && r->bad++ < 5)
					TH_LOG("child %d: %s", pids[i], why);
				if (k == NR_STATES - 1) {
					r->final++;
					done[i] = true;
					left--;
				}
			}
		}
	}
	/* Every child is killed and reaped, whatever happened. */
	for (i = 0; i < NR_CHILDREN && pids[i] > 0; i++) {
		int status;

		kill(pids[i], SIGKILL);
		if (waitpid(pids[i], &status, 0) == pids[i] &&
		    !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)) {
			r->bad++;
			child_describe(_metadata, status, __LINE__);
		}
	}
	close(ready[0]);
	close(ready[1]);
	close(never[0]);
	close(never[1]);
	EXPECT_EQ(0, left) {
		TH_LOG("%d children did not reach their last state in %d ms",
		       left, ROUND_MS);
	}
}

static void race_init(struct race *r)
{
	int k;

	memset(r, 0, sizeof(*r));
	r->both = other_abi_available();
	r->own_line = mask_line(false);
	/* A 64-bit kernel has both lines. */
	if (kernel_is_64bit())
		r->other_line = mask_line(true);
	for (k = 0; k < NR_STATES; k++) {
		struct mask m;

		state_mask(&m, k);
		mask_format(&m, r->fmt[k], sizeof(r->fmt[k]));
	}
}

TEST(status_is_always_one_state)
{
	struct race r;
	double end;
	int rounds = 0;

	if (!require_mask(_metadata))
		return;
	race_init(&r);
	end = now() + RACE_SECONDS;
	while (now() < end && !r.bad) {
		round_run(_metadata, &r);
		rounds++;
	}
	TH_LOG("%d rounds of %d children, %d reads, %d inconsistent",
	       rounds, NR_CHILDREN, r.reads, r.bad);
	EXPECT_EQ(0, r.bad);
	EXPECT_EQ(rounds * NR_CHILDREN, r.final);
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
	long spin;

	__atomic_store_n(&relay->reads, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&relay->tid, syscall(__NR_gettid), __ATOMIC_SEQ_CST);
	for (spin = 0; spin < 10000000 &&
	     !__atomic_load_n(&relay->reads, __ATOMIC_SEQ_CST); spin++)
		;
	every_state(relay->both);
	__atomic_add_fetch(&relay->racers, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

TEST(thread_status_is_always_one_state)
{
	char buf[8192], why[256];
	struct race r;
	double end;
	pid_t pid;
	int status;

	if (!require_mask(_metadata) || !require_threads(_metadata))
		return;
	race_init(&r);
	relay = mmap(NULL, sizeof(*relay), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(relay != MAP_FAILED);
	relay->both = r.both;
	pid = child_fork();
	ASSERT_LE(0, pid);
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
	end = now() + RACE_SECONDS;
	while (now() < end && r.bad < 5) {
		pid_t tid = __atomic_load_n(&relay->tid, __ATOMIC_SEQ_CST);

		/* Not started yet, or gone: its TID has no status. */
		if (!tid || read_status(tid, buf, sizeof(buf)))
			continue;
		__atomic_add_fetch(&relay->reads, 1, __ATOMIC_SEQ_CST);
		r.reads++;
		if (classify(&r, buf, why, sizeof(why)) == -2 && r.bad++ < 5)
			TH_LOG("thread %d: %s", tid, why);
	}
	kill(pid, SIGKILL);
	status = child_wait(_metadata, pid);
	TH_LOG("%d racer threads, %d reads, %d inconsistent",
	       relay->racers, r.reads, r.bad);
	EXPECT_EQ(0, r.bad);
	EXPECT_LT(0, relay->racers);
	/* Killed by the parent, not ended by a failure of its own. */
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
		child_describe(_metadata, status, __LINE__);
	}
	munmap(relay, sizeof(*relay));
}

#else

TEST(proc_race)
{
	SKIP(return, "the /proc race test is x86-specific");
}

#endif

TEST_HARNESS_MAIN
