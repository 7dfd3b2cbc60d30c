// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: SECCOMP_MASK_FLAG_TSYNC replacing the allowlists of
 * threads that are reading them at syscall entry.
 *
 * A TSYNC replaces the allowlist of every other thread and frees the old
 * one (with kfree_rcu() once the last thread let go of it) while those
 * threads may be in the middle of their lock-free test of it: the inline
 * check at syscall entry (include/linux/entry-common.h), seccomp_mask_check()
 * and, in filter mode, seccomp_mask_check_filtered(). Eight threads loop
 * on syscalls, half on getpid (allowed: in mask mode the inline check,
 * when seccomp is the only syscall entry work of the thread) and
 * half on getppid (masked out, with an ERRNO action: seccomp_mask_check(),
 * which also reads the action from the allowlist), and check every result,
 * while the main thread re-installs the same masks and action with TSYNC,
 * again and again: each call is a valid tightening (the same sets) and
 * replaces every thread's allowlist. The filter_mode variant stacks the
 * masks on an allow-all filter, where getpid takes the inline test of
 * __secure_computing() (seccomp_mask_check_filtered()) instead. After the
 * loop every thread's /proc/self/task/TID/status must show the masks and
 * the action. On the debug kernel (KASAN, PREEMPT) a reader that the grace
 * period does not cover shows as a use-after-free report.
 *
 * The loop ends after MAX_TSYNCS calls or SECCOMP_MASK_STRESS_SECONDS
 * seconds (default DEFAULT_SECONDS), whichever comes first. So that it
 * cannot pass without racing anything, it fails unless at least MIN_TSYNCS
 * calls succeeded and every thread made at least MIN_CALLS checked calls
 * between the first and the last of them. The counts are printed.
 */

#include <dirent.h>
#include <pthread.h>
#include <sys/resource.h>

#include "common.h"

#define NR_READERS	8	/* even: half allowed calls, half denied */
#define STRESS_ERRNO	EPERM	/* the action: SECCOMP_RET_ERRNO | EPERM */
#define MAX_TSYNCS	100000UL
/* Per variant: a normal TCG run of both takes about a quarter minute. */
#define DEFAULT_SECONDS	5
#define MAX_SECONDS	300
#define MIN_TSYNCS	1000UL
#define MIN_CALLS	1000UL
/*
 * The readers run at a lower priority, so that the caller of the TSYNCs
 * keeps most of a CPU however many readers share it (a slow or loaded
 * machine still makes far more TSYNCs than the minimum); the readers
 * still take every CPU that is left.
 */
#define READER_NICE	10
/* The harness' alarm, above the longest run the variable allows. */
#define TEST_SECONDS	(MAX_SECONDS + 60)

struct reader {
	pthread_t thread;
	pid_t tid;
	bool denied;		/* getppid, which the mask denies; else getpid */
	unsigned long calls;	/* written by the reader only */
};

/* What the child tells the parent (a shared page). */
struct stress_result {
	unsigned long tsyncs;
	double elapsed;
	unsigned long calls[NR_READERS];	/* in all */
	unsigned long window[NR_READERS];	/* between first and last TSYNC */
	bool denied[NR_READERS];
	int tasks_checked;
	/* The first wrong result of a reader. */
	int bad_reader;
	long bad_ret;
	int bad_errno;
	unsigned long bad_call;
	/* A failed TSYNC. */
	long tsync_ret;
	int tsync_errno;
	char what[512];		/* the /proc line that was wrong */
};

static struct stress_result *result;
static struct reader readers[NR_READERS];
static struct mask the_mask;	/* all but getppid */
static pid_t self_pid;
static int stop;
static int release_fds[2];	/* readers wait here after the loop */

/* The same masks and action every time: a valid tightening, a new allowlist. */
static long install_the_mask(unsigned int flags)
{
	return mask_seccomp_self(flags, SECCOMP_RET_ERRNO | STRESS_ERRNO,
				 &the_mask);
}

static void *reader_fn(void *arg)
{
	struct reader *r = arg;
	unsigned long n = 0;
	char c;

	/* Per thread on Linux: the nice value of this reader only. */
	if (setpriority(PRIO_PROCESS, syscall(__NR_gettid), READER_NICE))
		child_fail(__LINE__, "setpriority(PRIO_PROCESS, tid, READER_NICE) == 0");
	__atomic_store_n(&r->tid, syscall(__NR_gettid), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		long ret;
		bool ok;

		errno = 0;
		if (r->denied) {
			ret = syscall(__NR_getppid);
			ok = ret == -1 && errno == STRESS_ERRNO;
		} else {
			ret = syscall(__NR_getpid);
			ok = ret == self_pid;
		}
		if (!ok) {
			int expected = 0;

			/* The first one to fail reports; the process exits. */
			if (__atomic_compare_exchange_n(&result->bad_reader,
							&expected,
							(int)(r - readers) + 1,
							false, __ATOMIC_SEQ_CST,
							__ATOMIC_SEQ_CST)) {
				result->bad_ret = ret;
				result->bad_errno = errno;
				result->bad_call = n;
			}
			child_fail(__LINE__, r->denied ?
				   "getppid() == -1 with errno EPERM" :
				   "getpid() == the pid");
		}
		__atomic_store_n(&r->calls, ++n, __ATOMIC_RELEASE);
	}
	/* Stay alive, and in the task list, until the main thread looked. */
	while (read(release_fds[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* Read /proc/self/task/@tid/status into @buf. */
static bool task_status(const char *tid, char *buf, size_t len)
{
	char path[64];
	ssize_t n, off = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%s/status", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	while ((n = read(fd, buf + off, len - 1 - off)) > 0)
		off += n;
	close(fd);
	buf[off] = '\0';
	return n == 0;
}

/* Does the "@key:" line of @buf read @want? Else say which and what. */
static bool line_is(const char *tid, const char *buf, const char *key,
		    const char *want)
{
	char val[4096];

	if (!status_field(buf, key, val, sizeof(val))) {
		snprintf(result->what, sizeof(result->what),
			 "task %s: no %s line", tid, key);
		return false;
	}
	if (strcmp(val, want)) {
		snprintf(result->what, sizeof(result->what),
			 "task %s: %s is '%.200s', expected '%.200s'", tid, key,
			 val, want);
		return false;
	}
	return true;
}

/*
 * Does the task @tid of this process show the masks and the action of
 * install_the_mask(), in mode @mode with @filters filters?
 */
static bool task_shows_install(const char *tid, const char *mode,
			       const char *filters)
{
	const char *own = self_is_compat() ? "Seccomp_mask_compat" :
		"Seccomp_mask";
	const char *other = self_is_compat() ? "Seccomp_mask" :
		"Seccomp_mask_compat";
	char buf[8192], want[4096], val[4096];

	if (!task_status(tid, buf, sizeof(buf))) {
		snprintf(result->what, sizeof(result->what),
			 "task %s: cannot read its status: %s", tid,
			 strerror(errno));
		return false;
	}
	mask_format(&the_mask, want, sizeof(want));
	if (!line_is(tid, buf, "Seccomp", mode) ||
	    !line_is(tid, buf, "Seccomp_filters", filters) ||
	    !line_is(tid, buf, own, want))
		return false;
	/* The ABI no call listed got the empty mask at the first install. */
	if ((self_is_compat() || status_field(buf, other, val, sizeof(val))) &&
	    !line_is(tid, buf, other, ""))
		return false;
	action_format(SECCOMP_RET_ERRNO | STRESS_ERRNO, want, sizeof(want));
	return line_is(tid, buf, "Seccomp_mask_action", want);
}

/*
 * Every task of this process, and no other, shows what install_the_mask()
 * installs.
 */
static int every_task_shows_install(const char *mode, const char *filters)
{
	struct dirent *d;
	int i, seen = 0, found[NR_READERS] = { 0 }, main_found = 0;
	DIR *dir = opendir("/proc/self/task");

	if (!dir) {
		snprintf(result->what, sizeof(result->what),
			 "cannot open /proc/self/task: %s", strerror(errno));
		return -1;
	}
	while ((d = readdir(dir))) {
		long t;

		if (d->d_name[0] == '.')
			continue;
		t = atol(d->d_name);
		if (t == self_pid)
			main_found++;
		for (i = 0; i < NR_READERS; i++)
			if (t == readers[i].tid)
				found[i]++;
		if (!task_shows_install(d->d_name, mode, filters)) {
			closedir(dir);
			return -1;
		}
		seen++;
	}
	closedir(dir);
	for (i = 0; i < NR_READERS; i++) {
		if (found[i] != 1) {
			snprintf(result->what, sizeof(result->what),
				 "reader %d (TID %d) is not in /proc/self/task",
				 i, readers[i].tid);
			return -1;
		}
	}
	if (main_found != 1 || seen != NR_READERS + 1) {
		snprintf(result->what, sizeof(result->what),
			 "/proc/self/task has %d tasks, expected %d", seen,
			 NR_READERS + 1);
		return -1;
	}
	return seen;
}

static unsigned long calls_of(int i)
{
	return __atomic_load_n(&readers[i].calls, __ATOMIC_ACQUIRE);
}

/*
 * Wait until every reader has made a call; false once CHILD_TIMEOUT_MS of
 * CLOCK_MONOTONIC have passed without it.
 */
static bool readers_running(void)
{
	struct timespec step = { 0, 1000 * 1000 };
	double deadline = now() + CHILD_TIMEOUT_MS / 1000.0;
	int i;

	for (;;) {
		for (i = 0; i < NR_READERS; i++)
			if (!calls_of(i))
				break;
		if (i == NR_READERS)
			return true;
		if (now() >= deadline)
			return false;
		nanosleep(&step, NULL);
	}
}

/* The child: everything under the masks. Exits 0 when all held. */
static void run_stress(bool filter, double seconds)
{
	unsigned long first[NR_READERS];
	double t0, deadline;
	int i;

	self_pid = getpid();
	mask_all_but(&the_mask, __NR_getppid);
	CHILD_ASSERT(pipe(release_fds) == 0);
	CHILD_ASSERT(set_nnp() == 0);
	if (filter)
		CHILD_ASSERT(filter_allow_all() == 0);
	/* The threads start with the masks (they share this allowlist). */
	CHILD_ASSERT(install_the_mask(0) == 0);
	CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == (filter ? 2 : 3));
	for (i = 0; i < NR_READERS; i++) {
		readers[i].denied = i % 2;
		result->denied[i] = readers[i].denied;
		CHILD_ASSERT(pthread_create(&readers[i].thread, NULL, reader_fn,
					    &readers[i]) == 0);
	}
	CHILD_ASSERT(readers_running());

	for (i = 0; i < NR_READERS; i++)
		first[i] = calls_of(i);
	t0 = now();
	deadline = t0 + seconds;
	while (result->tsyncs < MAX_TSYNCS && now() < deadline) {
		long ret = install_the_mask(SECCOMP_MASK_FLAG_TSYNC);

		if (ret) {
			/* -1 and an errno, or the TID of a thread that refused. */
			result->tsync_ret = ret;
			result->tsync_errno = ret < 0 ? errno : 0;
			child_fail(__LINE__, "install_the_mask(SECCOMP_MASK_FLAG_TSYNC) == 0");
		}
		result->tsyncs++;
	}
	result->elapsed = now() - t0;
	for (i = 0; i < NR_READERS; i++)
		result->window[i] = calls_of(i) - first[i];

	/* Stop the readers; they stay alive for /proc. */
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	result->tasks_checked = every_task_shows_install(filter ? "2" : "3",
							 filter ? "1" : "0");
	CHILD_ASSERT(result->tasks_checked == NR_READERS + 1);
	close(release_fds[1]);
	for (i = 0; i < NR_READERS; i++) {
		CHILD_ASSERT(pthread_join(readers[i].thread, NULL) == 0);
		result->calls[i] = readers[i].calls;
	}
	/* And this thread, the caller of every TSYNC. */
	errno = 0;
	CHILD_ASSERT(syscall(__NR_getppid) == -1 && errno == STRESS_ERRNO);
	CHILD_ASSERT(syscall(__NR_getpid) == self_pid);
	_exit(0);
}

/* SECCOMP_MASK_STRESS_SECONDS, or the default; 0 when it is not valid. */
static double stress_seconds(void)
{
	const char *e = getenv("SECCOMP_MASK_STRESS_SECONDS");
	char *end;
	double s;

	if (!e || !*e)
		return DEFAULT_SECONDS;
	s = strtod(e, &end);
	if (*end || !(s >= 1 && s <= MAX_SECONDS))
		return 0;
	return s;
}

/* Minimum and maximum count of the allowed or the denied readers. */
static void range(const unsigned long *v, bool denied, unsigned long *lo,
		  unsigned long *hi)
{
	int i;

	*lo = ULONG_MAX;
	*hi = 0;
	for (i = 0; i < NR_READERS; i++) {
		if (result->denied[i] != denied)
			continue;
		if (v[i] < *lo)
			*lo = v[i];
		if (v[i] > *hi)
			*hi = v[i];
	}
}

FIXTURE(tsync_stress) {};

FIXTURE_VARIANT(tsync_stress) {
	bool filter;
};

/* Mask mode: getpid takes the inline check at syscall entry. */
FIXTURE_VARIANT_ADD(tsync_stress, mask_mode) { .filter = false };

/* Masks stacked on a filter: seccomp_mask_check_filtered(). */
FIXTURE_VARIANT_ADD(tsync_stress, filter_mode) { .filter = true };

FIXTURE_SETUP(tsync_stress) { require_mask_threads(_metadata); }
FIXTURE_TEARDOWN(tsync_stress) {}

TEST_F_TIMEOUT(tsync_stress, every_tsync_replaces_allowlists_under_readers,
	       TEST_SECONDS)
{
	unsigned long alo, ahi, dlo, dhi, walo, wahi, wdlo, wdhi;
	double seconds = stress_seconds();
	struct utsname u;
	int status, i;
	pid_t pid, ret;

	ASSERT_NE(0, seconds) {
		TH_LOG("SECCOMP_MASK_STRESS_SECONDS='%s': a number of seconds from 1 to %d",
		       getenv("SECCOMP_MASK_STRESS_SECONDS"), MAX_SECONDS);
	}
	result = mmap(NULL, sizeof(*result), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(result != MAP_FAILED);
	memset(result, 0, sizeof(*result));

	pid = fork_child(_metadata);
	if (pid == 0)
		run_stress(variant->filter, seconds);

	ret = waitpid_timeout(pid, &status, 0, (seconds + 60) * 1000);
	ASSERT_EQ(pid, ret) {
		TH_LOG("the child was still running %g s after its time bound: killed",
		       seconds + 60);
	}

	range(result->calls, false, &alo, &ahi);
	range(result->calls, true, &dlo, &dhi);
	range(result->window, false, &walo, &wahi);
	range(result->window, true, &wdlo, &wdhi);
	if (uname(&u))
		snprintf(u.version, sizeof(u.version), "?");
	TH_LOG("tsync stress: %s: %lu TSYNCs in %.1f s (bound: %lu or %g s)",
	       variant->filter ? "filter mode" : "mask mode", result->tsyncs,
	       result->elapsed, MAX_TSYNCS, seconds);
	TH_LOG("tsync stress: calls while they ran, per thread: getpid %lu-%lu, getppid %lu-%lu",
	       walo, wahi, wdlo, wdhi);
	TH_LOG("tsync stress: calls in all: getpid %lu-%lu, getppid %lu-%lu",
	       alo, ahi, dlo, dhi);
	TH_LOG("tsync stress: %d tasks checked in /proc; kernel %s",
	       result->tasks_checked, u.version);
	if (result->bad_reader) {
		i = result->bad_reader - 1;
		TH_LOG("reader %d (%s) got %ld, errno %d (%s), at its call %lu",
		       i, result->denied[i] ? "getppid: expected -1, EPERM" :
		       "getpid: expected the pid", result->bad_ret,
		       result->bad_errno, strerror(result->bad_errno),
		       result->bad_call);
	}
	if (result->tsync_ret)
		TH_LOG("TSYNC %lu returned %ld (errno %d: %s), expected 0",
		       result->tsyncs + 1, result->tsync_ret,
		       result->tsync_errno, strerror(result->tsync_errno));
	if (result->what[0])
		TH_LOG("/proc: %s", result->what);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		child_describe(_metadata, status, __LINE__);
		ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}

	/* Not vacuous: enough TSYNCs, every reader busy while they ran. */
	EXPECT_LE(MIN_TSYNCS, result->tsyncs) {
		TH_LOG("fewer than %lu TSYNCs: nothing was stressed",
		       MIN_TSYNCS);
	}
	for (i = 0; i < NR_READERS; i++) {
		EXPECT_LE(MIN_CALLS, result->window[i]) {
			TH_LOG("reader %d made %lu calls while the TSYNCs ran, fewer than %lu",
			       i, result->window[i], MIN_CALLS);
		}
	}
	munmap(result, sizeof(*result));
}

TEST_HARNESS_MAIN
