// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the threads of one process tighten their masks at the
 * same time, every way the contract allows, while another process reads
 * their /proc status:
 *
 * - TIGHTENERS threads tighten their own masks with prctl(), with no lock
 *   between them: each replaces its own allowlist;
 * - the forker does the same and forks after each tightening: its child
 *   must have mode 3 and a mask no wider than the forker's, and tightens
 *   its own mask CHILD_STEPS times while the forker's siblings go on;
 * - the TSYNC thread tightens with SECCOMP_MASK_FLAG_TSYNC, which replaces
 *   the allowlist of every thread; or, legitimately, is refused with the
 *   TID of a thread whose own tightening got further (counted, and that
 *   thread's status must then show a narrower mask);
 * - a reader process reads the status of every thread: each read must be
 *   one consistent state (mode 3; this ABI's mask, the other ABI's empty
 *   one and the action of this test's installs), never wider than the one
 *   it read before of the same thread.
 *
 * Every mask is one of a chain: mask n (-1 .. RANGE - 1) has the numbers
 * TIGHTEN_FIRST_CLEARED .. TIGHTEN_FIRST_CLEARED + n cleared, numbers no
 * kernel implements. Each operation takes n from the clock (one more
 * number every SOFT_SECONDS / RANGE, the last one from then on), so the
 * masks of different threads keep crossing each other and any two are
 * comparable. After each operation the thread reads its own status: never
 * wider than what it installed or what it showed before, never a mask no
 * thread has installed yet; a prctl() may be refused (EPERM) only when a
 * TSYNC already gave the thread a narrower mask, and the TSYNC thread's
 * mask is exactly its own last one. At the end every thread's status must
 * be no wider than its last install, its own last reads and the last
 * TSYNC (the main thread's and the TSYNC thread's: exactly the last TSYNC),
 * the main thread's own tightening must kill it at a number it cleared,
 * and the kernel log must stay free of warnings: an unreadable /dev/kmsg
 * skips the test (fails it in required mode), and a read of it that
 * fails before its end fails the test (the log was not checked).
 *
 * The run starts once every thread runs. It ends after SOFT_SECONDS when
 * every kind of operation has reached its minimum (MIN_*), else as soon
 * as they have; if they have not after HARD_SECONDS, the test fails: it
 * did not stress what it says. The count of each kind is printed.
 */

#include <dirent.h>
#include <pthread.h>

#include "common.h"

#define TIGHTENERS	4
#define FORKER		TIGHTENERS		/* workers[FORKER] */
#define TSYNCER		(TIGHTENERS + 1)	/* workers[TSYNCER] */
#define WORKERS		(TIGHTENERS + 2)
#define CHILD_STEPS	4	/* own tightenings of each forked child */
/* How long a forked child may take, at the most. */
#define FORKED_CHILD_MS	5000
/*
 * The run: at least SOFT_SECONDS, at most HARD_SECONDS (the harness
 * gives a TEST() 30 s, setup and teardown included).
 */
#define SOFT_SECONDS	3
#define HARD_SECONDS	15
/*
 * The minimums: on the normal TCG guest (2 vCPUs, 8 busy tasks) each
 * kind makes several times as many in SOFT_SECONDS; the debug kernel,
 * several times slower, has HARD_SECONDS for them. Below them the run
 * raced too little to mean anything.
 */
#define MIN_OWN		50	/* own tightenings of each tightener */
#define MIN_TSYNCS	20	/* successful TSYNCs */
#define MIN_FORKS	10	/* forks whose child passed, and the forker's own tightenings */
#define MIN_READS	200	/* the reader's reads of a thread in mode 3 */

#define TIGHTEN_FIRST_CLEARED	512
#define TIGHTEN_LAST_CLEARED	(NR_UNIMPLEMENTED - 1)
#define RANGE		(TIGHTEN_LAST_CLEARED - TIGHTEN_FIRST_CLEARED + 1)

/* What read_state() returns besides a chain index (-1 .. RANGE - 1). */
#define ST_BAD		(-2)	/* inconsistent: see @why */
#define ST_MODE0	(-3)	/* mode 0, no mask lines */
#define ST_GONE		(-4)	/* cannot be read */

struct counts {
	unsigned long ok;	/* installs that succeeded */
	unsigned long refused;	/* EPERM (own), a TID (TSYNC) */
	unsigned long checks;	/* reads of its own status */
};

/* What the processes tell the test (a shared page). */
struct stress_result {
	double t0;		/* the start of the run (CLOCK_MONOTONIC) */
	int t0_set;
	int done;		/* the run and its checks are over */
	int met;		/* every minimum was reached */
	double elapsed;
	struct counts w[WORKERS];
	unsigned long forks;	/* forked children that passed */
	unsigned long child_steps;	/* their own tightenings */
	int last_tsync;		/* the chain index of the last TSYNC */
	int tasks_checked;
	int failed;
	char what[512];		/* the first failed check */
	/* The reader's. */
	unsigned long reads, changes;
	int reader_tasks;
	char reader_what[512];
};

struct worker {
	pthread_t thread;
	pid_t tid;
	int installed;	/* its last own install (the TSYNC thread's: TSYNC) */
	int floor;	/* the narrowest mask its own status showed */
};

static struct stress_result *result;
static struct worker workers[WORKERS];
static pthread_barrier_t started, stopped;
static int stop;
static int release_fds[2];	/* the workers wait here after the run */
static pid_t main_tid;

/* Record the first failure, then end the process as CHILD_ASSERT does. */
static __printf(2, 3) void stress_fail(int line, const char *fmt, ...)
{
	int expected = 0;
	va_list ap;

	if (__atomic_compare_exchange_n(&result->failed, &expected, 1, false,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		va_start(ap, fmt);
		vsnprintf(result->what, sizeof(result->what), fmt, ap);
		va_end(ap);
	}
	child_fail(line, "a stress check (see the line \"stress: ...\")");
}

#define STRESS_FAIL(...)	stress_fail(__LINE__, __VA_ARGS__)

static void count(unsigned long *c)
{
	__atomic_add_fetch(c, 1, __ATOMIC_RELAXED);
}

static unsigned long counted(unsigned long *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

/* Mask @n of the chain. */
static void chain_mask(struct mask *m, int n)
{
	int i;

	mask_all(m, SECCOMP_MASK_MAX_BITS);
	for (i = 0; i <= n; i++)
		mask_clear(m, TIGHTEN_FIRST_CLEARED + i);
}

/* Which mask of the chain @m is; ST_BAD when it is none of them. */
static int chain_index(const struct mask *m)
{
	int n = -1;
	unsigned int i;

	while (n + 1 < RANGE && !mask_test(m, TIGHTEN_FIRST_CLEARED + n + 1))
		n++;
	for (i = 0; i < SECCOMP_MASK_MAX_BITS; i++) {
		bool cleared = i >= TIGHTEN_FIRST_CLEARED &&
			       (int)(i - TIGHTEN_FIRST_CLEARED) <= n;

		if (mask_test(m, i) == cleared)
			return ST_BAD;
	}
	return n;
}

/* The chain index the clock gives now: the newest mask there can be. */
static int clock_index(void)
{
	int n = (now() - result->t0) * RANGE / SOFT_SECONDS;

	return n < 0 ? 0 : n < RANGE ? n : RANGE - 1;
}

/*
 * Parse a bitmap list ("0-3,15") into @m; false when it is malformed or
 * not ascending.
 */
static bool parse_list(const char *s, struct mask *m)
{
	long prev = -1;

	mask_none(m, SECCOMP_MASK_MAX_BITS);
	while (*s) {
		char *end;
		long a, b;

		a = strtol(s, &end, 10);
		if (end == s || a <= prev || a >= SECCOMP_MASK_MAX_BITS)
			return false;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b <= a ||
			    b >= SECCOMP_MASK_MAX_BITS)
				return false;
			s = end;
		}
		for (; a <= b; a++)
			mask_set(m, a);
		prev = b;
		if (*s == ',')
			s++;
		else if (*s)
			return false;
	}
	return true;
}

/*
 * Read the status file @path: the chain index of this ABI's mask when it
 * shows one consistent state of this test (mode 3, no filter, this ABI's
 * mask one of the chain, the other ABI's empty, the action kill_process);
 * ST_MODE0 for mode 0 without mask lines; ST_GONE when it cannot be read;
 * else ST_BAD and @why.
 */
static int read_state(const char *path, char *why, size_t len)
{
	char buf[8192], val[4096], mode[16];
	ssize_t n, off = 0;
	struct mask m;
	bool other;
	int fd, idx;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ST_GONE;
	while ((n = read(fd, buf + off, sizeof(buf) - 1 - off)) > 0)
		off += n;
	close(fd);
	if (n < 0 || !off)
		return ST_GONE;
	buf[off] = '\0';
	if (!status_field(buf, "Seccomp", mode, sizeof(mode))) {
		snprintf(why, len, "no Seccomp: line");
		return ST_BAD;
	}
	if (!strcmp(mode, "0")) {
		if (strstr(buf, "Seccomp_mask")) {
			snprintf(why, len, "Seccomp: 0 with mask lines");
			return ST_BAD;
		}
		return ST_MODE0;
	}
	/*
	 * The kill at the final denied call marks the dying thread with
	 * the kernel-internal SECCOMP_MODE_DEAD (4) until it has exited;
	 * any other time, 4 is wrong.
	 */
	if (!strcmp(mode, "4") &&
	    __atomic_load_n(&result->done, __ATOMIC_ACQUIRE))
		return ST_GONE;
	if (strcmp(mode, "3")) {
		snprintf(why, len, "Seccomp: %s, expected 3", mode);
		return ST_BAD;
	}
	if (status_field(buf, "Seccomp_filters", val, sizeof(val)) &&
	    strcmp(val, "0")) {
		snprintf(why, len, "Seccomp: 3 with Seccomp_filters: %.64s", val);
		return ST_BAD;
	}
	if (!status_field(buf, mask_line(false), val, sizeof(val))) {
		snprintf(why, len, "Seccomp: 3 without a %s line",
			 mask_line(false));
		return ST_BAD;
	}
	idx = parse_list(val, &m) ? chain_index(&m) : ST_BAD;
	if (idx == ST_BAD) {
		snprintf(why, len, "%s: '%.200s' is no mask this test installs",
			 mask_line(false), val);
		return ST_BAD;
	}
	/* The ABI no call listed has the empty mask of the first install. */
	other = status_field(buf, mask_line(true), val, sizeof(val));
	if ((self_is_compat() && !other) || (other && val[0])) {
		snprintf(why, len, "%s: '%.200s', expected an empty line",
			 mask_line(true), other ? val : "(none)");
		return ST_BAD;
	}
	if (!status_field(buf, "Seccomp_mask_action", val, sizeof(val)) ||
	    strcmp(val, "kill_process")) {
		snprintf(why, len, "Seccomp_mask_action: '%.64s', expected kill_process",
			 val);
		return ST_BAD;
	}
	return idx;
}

/*
 * A consistent state of the status file @path, or the test fails. With
 * @clocked (the stress process), no newer than the clock allows.
 */
static int state_of(const char *who, const char *path, bool clocked)
{
	char why[300];
	int s = read_state(path, why, sizeof(why));

	if (s == ST_GONE)
		STRESS_FAIL("%s: cannot read %s", who, path);
	if (s == ST_MODE0)
		STRESS_FAIL("%s: Seccomp: 0 after an install", who);
	if (s == ST_BAD)
		STRESS_FAIL("%s: %s", who, why);
	if (clocked && s > clock_index())
		STRESS_FAIL("%s: mask %d, which no thread has installed yet (the clock is at %d)",
			    who, s, clock_index());
	return s;
}

/* The state of the thread @tid of this process. */
static int task_state(pid_t tid)
{
	char path[64], who[32];

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	snprintf(who, sizeof(who), "thread %d", tid);
	return state_of(who, path, true);
}

/*
 * After its own install of mask @n, or its refusal: a worker's status is
 * no wider than what it installed (if it did) or showed before, and
 * narrower than @n if it was refused.
 */
static void check_own(struct worker *w, int n, bool refused)
{
	int s = task_state(w->tid);

	count(&result->w[w - workers].checks);
	if (s < w->floor)
		STRESS_FAIL("thread %d: its status showed mask %d, now the wider mask %d",
			    w->tid, w->floor, s);
	if (!refused && s < n)
		STRESS_FAIL("thread %d installed mask %d, its status shows the wider mask %d",
			    w->tid, n, s);
	if (refused && s <= n)
		STRESS_FAIL("thread %d: tightening to %d refused (EPERM), status shows %d",
			    w->tid, n, s);
	w->floor = s;
}

/* A tightener's or the forker's own tightening to mask @n. */
static void own_step(struct worker *w, int n)
{
	struct mask m;

	chain_mask(&m, n);
	if (!mask_prctl(&m)) {
		count(&result->w[w - workers].ok);
		w->installed = n;
		check_own(w, n, false);
	} else if (errno == EPERM) {
		/* Only if a TSYNC has given it a narrower mask meanwhile. */
		count(&result->w[w - workers].refused);
		check_own(w, n, true);
	} else {
		STRESS_FAIL("thread %d: tightening to mask %d: %s", w->tid, n,
			    strerror(errno));
	}
}

/* Is @tid a thread of this process other than the caller @w? */
static bool is_sibling(pid_t tid, const struct worker *w)
{
	int i;

	if (tid == main_tid)
		return true;
	for (i = 0; i < WORKERS; i++)
		if (&workers[i] != w && workers[i].tid == tid)
			return true;
	return false;
}

/* The TSYNC thread's tightening of every thread to mask @n. */
static void tsync_step(struct worker *w, int n)
{
	struct mask m;
	long ret;
	int s;

	chain_mask(&m, n);
	ret = mask_seccomp_self(SECCOMP_MASK_FLAG_TSYNC, 0, &m);
	if (ret < 0)
		STRESS_FAIL("TSYNC to mask %d: %s", n, strerror(errno));
	if (ret == 0) {
		count(&result->w[TSYNCER].ok);
		w->installed = n;
		__atomic_store_n(&result->last_tsync, n, __ATOMIC_RELAXED);
	} else {
		/* A thread that got further on its own: it must show it. */
		count(&result->w[TSYNCER].refused);
		if (!is_sibling(ret, w))
			STRESS_FAIL("TSYNC to mask %d refused with %ld, not a sibling TID",
				    n, ret);
		s = task_state(ret);
		if (s <= n)
			STRESS_FAIL("TSYNC to %d refused by %ld, whose status shows %d",
				    n, ret, s);
	}
	/* Only this thread changes its own mask: exactly its last one. */
	s = task_state(w->tid);
	count(&result->w[TSYNCER].checks);
	if (s != w->installed)
		STRESS_FAIL("TSYNC to mask %d %s, the caller's status shows mask %d, expected %d",
			    n, ret ? "refused" : "done", s, w->installed);
	w->floor = s;
}

/*
 * The forker's child: it has mode 3 and a mask no wider than the
 * forker's (@floor), then tightens it CHILD_STEPS times on its own,
 * while the forker's siblings go on tightening theirs. Only its own
 * tightenings change its mask: its status must show each exactly.
 */
static __noreturn void forked_child(int floor)
{
	struct mask m;
	int s, n, i;
	long mode = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);

	if (mode != 3)
		STRESS_FAIL("forked child: PR_GET_SECCOMP is %ld, expected 3",
			    mode);
	s = state_of("forked child", "/proc/self/status", true);
	if (s < floor)
		STRESS_FAIL("forked child: mask %d, wider than the forker's mask %d",
			    s, floor);
	/* Its own masks, ahead of the clock: one more number each time. */
	for (i = 0; i < CHILD_STEPS; i++) {
		n = s + 1 < RANGE ? s + 1 : s;
		chain_mask(&m, n);
		if (mask_prctl(&m))
			STRESS_FAIL("forked child: tightening from mask %d to %d: %s",
				    s, n, strerror(errno));
		s = state_of("forked child", "/proc/self/status", false);
		if (s != n)
			STRESS_FAIL("forked child installed mask %d, its status shows mask %d",
				    n, s);
		count(&result->child_steps);
	}
	_exit(0);
}

static void fork_step(struct worker *w)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0)
		forked_child(w->floor);
	if (pid < 0)
		STRESS_FAIL("fork: %s", strerror(errno));
	if (waitpid_timeout(pid, &status, 0, FORKED_CHILD_MS) != pid)
		STRESS_FAIL("the forked child %d still ran after %d ms", pid,
			    FORKED_CHILD_MS);
	/* Its own failure is recorded already. */
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_FAILED)
		_exit(CHILD_FAILED);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		STRESS_FAIL("the forked child ended with status 0x%x", status);
	count(&result->forks);
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	char c;

	/* Published by the barrier: no one looks a TID up before it. */
	w->tid = syscall(__NR_gettid);
	pthread_barrier_wait(&started);
	/* The main thread sets the start of the run in between. */
	pthread_barrier_wait(&started);
	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		int n = clock_index();

		if (w == &workers[TSYNCER]) {
			tsync_step(w, n);
		} else {
			own_step(w, n);
			if (w == &workers[FORKER])
				fork_step(w);
		}
	}
	pthread_barrier_wait(&stopped);
	/* Stay alive, and in the task list, until the main thread looked. */
	while (read(release_fds[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static bool minimums_met(void)
{
	int i;

	for (i = 0; i < TIGHTENERS; i++)
		if (counted(&result->w[i].ok) < MIN_OWN)
			return false;
	/* The forker tightens before each fork: its own count as well. */
	return counted(&result->w[FORKER].ok) >= MIN_FORKS &&
	       counted(&result->w[TSYNCER].ok) >= MIN_TSYNCS &&
	       counted(&result->forks) >= MIN_FORKS &&
	       counted(&result->reads) >= MIN_READS;
}

/*
 * After the run, every worker stopped: each thread's mask is no wider
 * than its last install, what its own status showed and the last TSYNC;
 * the TSYNC thread's and the main thread's are exactly the last TSYNC.
 */
static void check_final(void)
{
	int tsync = workers[TSYNCER].installed, seen = 0, s, i;
	struct dirent *d;
	DIR *dir = opendir("/proc/self/task");

	if (!dir)
		STRESS_FAIL("cannot open /proc/self/task: %s", strerror(errno));
	while ((d = readdir(dir))) {
		pid_t tid = atoi(d->d_name);
		struct worker *w = NULL;

		if (d->d_name[0] == '.')
			continue;
		for (i = 0; i < WORKERS; i++)
			if (workers[i].tid == tid)
				w = &workers[i];
		if (!w && tid != main_tid)
			STRESS_FAIL("thread %d in /proc/self/task is none of this test's",
				    tid);
		s = task_state(tid);
		if ((!w || w == &workers[TSYNCER]) && s != tsync)
			STRESS_FAIL("thread %d (%s) at end: mask %d, last TSYNC %d",
				    tid, w ? "TSYNC" : "main", s, tsync);
		if (w && (s < w->installed || s < w->floor || s < tsync))
			STRESS_FAIL("thread %d at end: mask %d < install %d/read %d/TSYNC %d",
				    tid, s, w->installed, w->floor, tsync);
		seen++;
	}
	closedir(dir);
	if (seen != WORKERS + 1)
		STRESS_FAIL("/proc/self/task has %d threads, expected %d", seen,
			    WORKERS + 1);
	result->tasks_checked = seen;
}

/* The stress process. */
static __noreturn void stress(void)
{
	struct timespec step = { 0, 10 * 1000 * 1000 };
	double soft, hard;
	struct mask m;
	int i;

	main_tid = syscall(__NR_gettid);
	CHILD_ASSERT(pipe(release_fds) == 0);
	CHILD_ASSERT(set_nnp() == 0);
	chain_mask(&m, -1);
	CHILD_ASSERT(mask_prctl(&m) == 0);
	CHILD_ASSERT(pthread_barrier_init(&started, NULL, WORKERS + 1) == 0);
	CHILD_ASSERT(pthread_barrier_init(&stopped, NULL, WORKERS + 1) == 0);
	for (i = 0; i < WORKERS; i++) {
		workers[i].installed = -1;
		workers[i].floor = -1;
		CHILD_ASSERT(pthread_create(&workers[i].thread, NULL, worker_fn,
					    &workers[i]) == 0);
	}
	/* Every worker runs and waits: the run starts now. */
	pthread_barrier_wait(&started);
	result->t0 = now();
	__atomic_store_n(&result->t0_set, 1, __ATOMIC_RELEASE);
	soft = result->t0 + SOFT_SECONDS;
	hard = result->t0 + HARD_SECONDS;
	pthread_barrier_wait(&started);
	for (;;) {
		double t = now();
		bool met = minimums_met();

		if ((t >= soft && met) || t >= hard) {
			result->met = met;
			break;
		}
		nanosleep(&step, NULL);
	}
	result->elapsed = now() - result->t0;
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	pthread_barrier_wait(&stopped);

	check_final();
	close(release_fds[1]);
	for (i = 0; i < WORKERS; i++)
		CHILD_ASSERT(pthread_join(workers[i].thread, NULL) == 0);
	__atomic_store_n(&result->done, 1, __ATOMIC_RELEASE);

	/* This thread's own tightening, then a number it cleared. */
	chain_mask(&m, RANGE - 1);
	CHILD_ASSERT(mask_prctl(&m) == 0);
	CHILD_ASSERT(state_of("main thread", "/proc/self/status", true) == RANGE - 1);
	CHILD_DENIED(syscall(TIGHTEN_FIRST_CLEARED));
	_exit(0);
}

#define MAX_TIDS	64

/*
 * The reader process: read every thread's status of @pid until the run
 * is over. Each read is one consistent state, no wider than the read
 * before of the same thread, never back to mode 0. 0 when all held.
 */
static int status_reader(pid_t pid)
{
	static struct {
		long tid;
		int last;
	} seen[MAX_TIDS];
	double hard = now() + HARD_SECONDS + 10;
	char path[64], file[128], why[300];
	struct dirent *d;
	int ntids = 0, i, s;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	while (!__atomic_load_n(&result->done, __ATOMIC_ACQUIRE) &&
	       now() < hard) {
		dir = opendir(path);
		if (!dir)
			break;
		while ((d = readdir(dir))) {
			long tid = atol(d->d_name);

			if (d->d_name[0] == '.')
				continue;
			snprintf(file, sizeof(file), "%s/%.32s/status", path,
				 d->d_name);
			s = read_state(file, why, sizeof(why));
			if (s == ST_GONE)
				continue;
			if (s == ST_BAD) {
				snprintf(result->reader_what,
					 sizeof(result->reader_what),
					 "task %ld: %s", tid, why);
				return 1;
			}
			for (i = 0; i < ntids && seen[i].tid != tid; i++)
				;
			if (i == ntids) {
				if (ntids == MAX_TIDS)
					continue;
				seen[ntids].tid = tid;
				seen[ntids++].last = ST_MODE0;
				result->reader_tasks = ntids;
			}
			if (s == ST_MODE0) {
				if (seen[i].last == ST_MODE0)
					continue;
				snprintf(result->reader_what,
					 sizeof(result->reader_what),
					 "task %ld: Seccomp: 0 after mask %d",
					 tid, seen[i].last);
				return 3;
			}
			if (s < seen[i].last) {
				snprintf(result->reader_what,
					 sizeof(result->reader_what),
					 "task %ld: mask %d after the narrower mask %d",
					 tid, s, seen[i].last);
				return 3;
			}
			if (__atomic_load_n(&result->t0_set, __ATOMIC_ACQUIRE) &&
			    s > clock_index()) {
				snprintf(result->reader_what,
					 sizeof(result->reader_what),
					 "task %ld: mask %d, which no thread has installed yet",
					 tid, s);
				return 3;
			}
			if (seen[i].last != ST_MODE0 && s != seen[i].last)
				result->changes++;
			seen[i].last = s;
			count(&result->reads);
		}
		closedir(dir);
	}
	return 0;
}

TEST(tighten_fork_and_read_status_concurrently)
{
	int status = 0, rstatus = 0, kmsg, warned, kmsg_err, i;
	struct counts *c;
	char what[1024];
	pid_t pid, rpid, ret, rret;

	if (!require_mask_threads(_metadata))
		return;
	/* The log check is part of the test: without it, it does not run. */
	kmsg = kmsg_open_at_end();
	if (kmsg < 0)
		SKIP_UNLESS_REQUIRED(return,
				     "/dev/kmsg cannot be read (%s): this test checks the kernel log",
				     strerror(errno));
	result = mmap(NULL, sizeof(*result), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(result != MAP_FAILED);
	memset(result, 0, sizeof(*result));
	result->last_tsync = -1;

	pid = fork_child(_metadata);
	if (pid == 0)
		stress();
	rpid = fork();
	if (rpid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		_exit(status_reader(pid));
	}
	if (rpid < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	ASSERT_LE(0, rpid);

	ret = waitpid_timeout(pid, &status, 0, (HARD_SECONDS + 8) * 1000);
	/* However the stress process ended, the reader stops. */
	__atomic_store_n(&result->done, 1, __ATOMIC_RELEASE);
	rret = waitpid_timeout(rpid, &rstatus, 0, 3000);

	if (result->elapsed)
		TH_LOG("stress: %.1f s (at least %d, at most %d), every minimum %s",
		       result->elapsed, SOFT_SECONDS, HARD_SECONDS,
		       result->met ? "reached" : "NOT reached");
	else
		TH_LOG("stress: the run did not end");
	for (i = 0; i < TIGHTENERS; i++) {
		c = &result->w[i];
		TH_LOG("tightener %d: %lu own, %lu refused (EPERM), %lu status checks",
		       i, c->ok, c->refused, c->checks);
	}
	c = &result->w[FORKER];
	TH_LOG("forker: %lu own, %lu refused, %lu checks; %lu forks, %lu child tightenings",
	       c->ok, c->refused, c->checks, result->forks,
	       result->child_steps);
	c = &result->w[TSYNCER];
	TH_LOG("TSYNC: %lu done, %lu refused (TID), %lu status checks; last mask %d",
	       c->ok, c->refused, c->checks, result->last_tsync);
	TH_LOG("/proc reader: %lu reads of %d threads, %lu changes; %d checked at end",
	       result->reads, result->reader_tasks, result->changes,
	       result->tasks_checked);
	if (result->what[0])
		TH_LOG("stress: %s", result->what);
	if (result->reader_what[0])
		TH_LOG("reader: %s", result->reader_what);

	ASSERT_EQ(pid, ret) {
		TH_LOG("the stress process still ran %d s after its start: killed",
		       HARD_SECONDS + 8);
	}
	/* It ended at its denied call, every check before it passed. */
	EXPECT_TRUE(denied_call_killed(_metadata, status, __LINE__));
	EXPECT_TRUE(rret == rpid && WIFEXITED(rstatus) &&
		    WEXITSTATUS(rstatus) == 0) {
		TH_LOG("the reader ended with status 0x%x", rstatus);
	}
	EXPECT_TRUE(result->met) {
		TH_LOG("too little in %d s: needs %d own each, %d TSYNCs, %d forks, %d reads",
		       HARD_SECONDS, MIN_OWN, MIN_TSYNCS, MIN_FORKS, MIN_READS);
	}
	EXPECT_EQ(WORKERS + 1, result->tasks_checked);
	/* The log check never passes without having read the log. */
	warned = kmsg_warnings(kmsg, what, sizeof(what));
	kmsg_err = errno;
	EXPECT_NE(-1, warned) {
		TH_LOG("/dev/kmsg could not be read to its end (%s): the kernel log is not checked",
		       strerror(kmsg_err));
	}
	EXPECT_NE(1, warned) {
		TH_LOG("kernel log: %s", what);
	}
	close(kmsg);
	munmap(result, sizeof(*result));
}

TEST_HARNESS_MAIN
