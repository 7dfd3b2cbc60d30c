/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: children and denials
 *
 * Every test runs the code under a mask in a child (child_fork()) and
 * checks how that child ended (ASSERT_CHILD_OK(), ASSERT_CHILD_KILLED()).
 * In the child, CHILD_ASSERT() records the failing line in a page shared
 * with the parent and exits, so the parent's report names it. A call the
 * mask must deny is made with CHILD_DENIED(), which marks that page right
 * before and right after the call: ASSERT_CHILD_DENIED() then proves the
 * child died by SIGSYS at that call, not before it and not after it.
 */

#ifndef _SELFTESTS_SECCOMP_MASK_CHILD_H
#define _SELFTESTS_SECCOMP_MASK_CHILD_H

#include <pthread.h>

#include "abi.h"
#include "install.h"

#ifndef SECCOMP_MASK_NO_HARNESS
#include "../kselftest_harness.h"
#else
#include "../kselftest.h"
#endif

#include "kselftest_compat.h"

#define CHILD_FAILED		99

/* What a failed CHILD_ASSERT() tells the parent. */
struct child_report {
	int line;
	int err;
	char expr[240];
	/* CHILD_DENIED(): the line of the call, and whether it returned. */
	int denied_line;
	int denied_returned;
	long denied_ret;
};

static struct child_report *child_report;

static void __attribute__((constructor)) child_report_init(void)
{
	child_report = mmap(NULL, sizeof(*child_report),
			    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			    -1, 0);
	if (child_report == MAP_FAILED)
		abort();
}

/* Only async-signal-safe work: this may run in a masked or vforked child. */
static inline void child_fail(int line, const char *expr)
{
	size_t i;

	child_report->line = line;
	child_report->err = errno;
	for (i = 0; expr[i] && i < sizeof(child_report->expr) - 1; i++)
		child_report->expr[i] = expr[i];
	child_report->expr[i] = '\0';
	_exit(CHILD_FAILED);
}

#define CHILD_ASSERT(cond)					\
	do {							\
		if (!(cond))					\
			child_fail(__LINE__, #cond);		\
	} while (0)

/* A child dies with the test, so that a failed test leaves none behind. */
static inline pid_t child_fork(void)
{
	pid_t pid;

	memset(child_report, 0, sizeof(*child_report));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0)
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	return pid;
}

/*
 * CLOCK_MONOTONIC in seconds: every bound on a wait is a deadline on this
 * clock, never a count of sleeps (a sleep under load, or under QEMU's TCG,
 * takes longer than asked; one a signal cuts short takes less).
 */
static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* How long a test waits for a child (or a ptrace stop) at the most. */
#define CHILD_TIMEOUT_MS	20000

/*
 * waitpid() for at most @ms milliseconds: past that, @pid is killed and
 * reaped, and the return is 0.
 */
static inline pid_t waitpid_timeout(pid_t pid, int *status, int options,
				    int ms)
{
	struct timespec step = { 0, 1000 * 1000 };
	double deadline = now() + ms / 1000.0;
	pid_t ret;

	for (;;) {
		ret = waitpid(pid, status, options | WNOHANG);
		if (ret)
			return ret;
		if (now() >= deadline)
			break;
		nanosleep(&step, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, status, options);
	return 0;
}

#ifndef SECCOMP_MASK_NO_HARNESS
static inline int child_wait(struct __test_metadata *const _metadata, pid_t pid)
{
	int status;
	pid_t ret = waitpid_timeout(pid, &status, 0, CHILD_TIMEOUT_MS);

	ASSERT_NE(0, ret) {
		TH_LOG("child %d still running after %d ms: killed", pid,
		       CHILD_TIMEOUT_MS);
	}
	ASSERT_EQ(pid, ret);
	return status;
}

static inline void child_describe(struct __test_metadata *const _metadata,
				  int status, int line)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_FAILED &&
	    child_report->line)
		TH_LOG("line %d: child failed at line %d: %s (errno %d: %s)",
		       line, child_report->line, child_report->expr,
		       child_report->err, strerror(child_report->err));
	else if (WIFEXITED(status))
		TH_LOG("line %d: child exited with %d", line,
		       WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		TH_LOG("line %d: child killed by signal %d (%s)", line,
		       WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		TH_LOG("line %d: child status 0x%x", line, status);
}

static inline void __assert_child_ok(struct __test_metadata *const _metadata,
				     pid_t pid, int line)
{
	int status = child_wait(_metadata, pid);

	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		child_describe(_metadata, status, line);
		ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

static inline void
__assert_child_killed(struct __test_metadata *const _metadata, pid_t pid,
		      int sig, int line)
{
	int status = child_wait(_metadata, pid);

	if (!WIFSIGNALED(status) || WTERMSIG(status) != sig) {
		TH_LOG("line %d: expected the child killed by signal %d (%s)",
		       line, sig, strsignal(sig));
		child_describe(_metadata, status, line);
		ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig);
	}
}

/* Wait for @pid; it must have exited with 0. */
#define ASSERT_CHILD_OK(pid) __assert_child_ok(_metadata, pid, __LINE__)
/* Wait for @pid; it must have been killed by @sig. */
#define ASSERT_CHILD_KILLED(pid, sig) \
	__assert_child_killed(_metadata, pid, sig, __LINE__)

/*
 * In a child: make @call, which the mask must deny. The shared page says
 * which line made it (written right before) and whether it returned
 * (written right after), so that the parent can tell a kill at this call
 * from a kill at an earlier or a later one.
 */
#define CHILD_DENIED(call)						\
	do {								\
		__atomic_store_n(&child_report->denied_line, __LINE__,	\
				 __ATOMIC_SEQ_CST);			\
		child_report->denied_ret = (long)(call);		\
		__atomic_store_n(&child_report->denied_returned, 1,	\
				 __ATOMIC_SEQ_CST);			\
	} while (0)

/*
 * How the last CHILD_DENIED() went: true when the child was killed by
 * @sig at that call; false (and a log) if not.
 */
static inline bool denied_call_killed_by(struct __test_metadata *const _metadata,
					 int status, int sig, int line)
{
	int at = __atomic_load_n(&child_report->denied_line, __ATOMIC_SEQ_CST);
	int ret = __atomic_load_n(&child_report->denied_returned,
				  __ATOMIC_SEQ_CST);

	if (!at) {
		TH_LOG("line %d: the child did not reach its denied call",
		       line);
	} else if (ret) {
		TH_LOG("line %d: the denied call at line %d returned %ld",
		       line, at, child_report->denied_ret);
	} else if (!WIFSIGNALED(status) || WTERMSIG(status) != sig) {
		TH_LOG("line %d: the call at line %d did not return, yet no signal %d",
		       line, at, sig);
	} else {
		return true;
	}
	child_describe(_metadata, status, line);
	return false;
}

static inline bool denied_call_killed(struct __test_metadata *const _metadata,
				      int status, int line)
{
	return denied_call_killed_by(_metadata, status, SIGSYS, line);
}

static inline void
__assert_child_killed_at(struct __test_metadata *const _metadata, pid_t pid,
			 int sig, int line)
{
	int status = child_wait(_metadata, pid);

	ASSERT_TRUE(denied_call_killed_by(_metadata, status, sig, line));
}

#define __assert_child_denied(_metadata, pid, line) \
	__assert_child_killed_at(_metadata, pid, SIGSYS, line)

/*
 * Wait for @pid: it must have been killed by @sig at its CHILD_DENIED()
 * call (strict mode kills by SIGKILL).
 */
#define ASSERT_CHILD_KILLED_AT(pid, sig) \
	__assert_child_killed_at(_metadata, pid, sig, __LINE__)

/*
 * Wait for @pid: it must have been killed by SIGSYS at its CHILD_DENIED()
 * call: after reaching it, before it returned.
 */
#define ASSERT_CHILD_DENIED(pid) \
	__assert_child_denied(_metadata, pid, __LINE__)

/* child_fork(), asserted: the pid in the parent, 0 in the child. */
static inline pid_t fork_child(struct __test_metadata *const _metadata)
{
	pid_t pid = child_fork();

	ASSERT_LE(0, pid);
	return pid;
}

/*
 * fork_child(), and the child sets no_new_privs and installs @m, the
 * mask of this program's ABI, through seccomp(2) with @use_seccomp, else
 * through prctl().
 */
static inline pid_t fork_masked(struct __test_metadata *const _metadata,
				bool use_seccomp, const struct mask *m)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_install(use_seccomp, m) == 0);
	}
	return pid;
}

#ifdef X86_BUILD
/* fork_masked() with the masks of both x86 ABIs, through seccomp(2). */
static inline pid_t fork_masked_x86(struct __test_metadata *const _metadata,
				    const struct mask *m64,
				    const struct mask *m32)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp_x86(m64, m32) == 0);
	}
	return pid;
}
#endif

/*
 * fork_child(), and the child enters strict mode, after no_new_privs with
 * @nnp. From there on the child may only read, write and exit (with
 * syscall(__NR_exit, 0), not _exit()).
 */
static inline pid_t fork_strict(struct __test_metadata *const _metadata,
				bool nnp)
{
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		if (nnp)
			CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT,
				   0, 0, 0) == 0);
	}
	return pid;
}

/*
 * In a child in strict mode (see fork_strict(), with @nnp), @call must
 * be denied: the child must be killed by strict mode (SIGKILL) right at
 * it.
 */
#define ASSERT_STRICT_DENIES(nnp, call)					\
	do {								\
		pid_t __pid = fork_strict(_metadata, nnp);		\
									\
		if (__pid == 0) {					\
			CHILD_DENIED(call);				\
			syscall(__NR_exit, 0);				\
		}							\
		__assert_child_killed_at(_metadata, __pid, SIGKILL,	\
					 __LINE__);			\
	} while (0)

/*
 * In a child with @m installed (see fork_masked()), @call must be denied:
 * the child must be killed by SIGSYS right at it.
 */
#define ASSERT_MASK_DENIES(use_seccomp, m, call)			\
	do {								\
		pid_t __pid = fork_masked(_metadata, use_seccomp, m);	\
									\
		if (__pid == 0) {					\
			CHILD_DENIED(call);				\
			_exit(0);					\
		}							\
		__assert_child_denied(_metadata, __pid, __LINE__);	\
	} while (0)
#endif /* SECCOMP_MASK_NO_HARNESS */

/*
 * A child that waits for the parent's word, for the parent to read its
 * status meanwhile. Each side closes the pipe ends it does not use, so
 * that either side ending (a failed assertion included) ends the other's
 * read at once: no wait on a dead peer.
 */
struct handshake {
	int ready[2];	/* child -> parent: installed */
	int done[2];	/* parent -> child: read, you may exit */
};

static inline int handshake_init(struct handshake *h)
{
	if (pipe(h->ready))
		return -1;
	if (pipe(h->done)) {
		close(h->ready[0]);
		close(h->ready[1]);
		return -1;
	}
	return 0;
}

/* In the child, right after fork(), before any mask (close is a syscall). */
static inline void handshake_child_begin(struct handshake *h)
{
	close(h->ready[0]);
	close(h->done[1]);
}

/* In the child: say ready, then wait until the parent closes its end. */
static inline bool handshake_child_ready(struct handshake *h)
{
	char c;

	return write(h->ready[1], "x", 1) == 1 && read(h->done[0], &c, 1) >= 0;
}

/* In the parent, after fork(): true when the child said it is ready. */
static inline bool handshake_wait_child(struct handshake *h)
{
	char c;

	close(h->ready[1]);
	close(h->done[0]);
	return read(h->ready[0], &c, 1) == 1;
}

/* In the parent: let the child go on (and exit). */
static inline void handshake_release_child(struct handshake *h)
{
	close(h->done[1]);
	close(h->ready[0]);
}

/*
 * A thread of a child that answers commands, one byte each: it runs
 * @setup first (its return in @ret), then for each command @run, which
 * sets @ret, or returns false to end the thread; 'm', the thread's
 * seccomp mode, is every such thread's. The loop itself makes only
 * read(), write() and exit(): the thread may be in strict mode.
 */
struct cmd_thread {
	pthread_t thread;
	pid_t tid;
	int (*setup)(void);
	bool (*run)(struct cmd_thread *t, char cmd);
	long arg;		/* for @run */
	int go[2];
	int done[2];
	long ret;
};

static inline void *cmd_thread_fn(void *arg)
{
	struct cmd_thread *t = arg;
	char c;

	t->tid = syscall(__NR_gettid);
	t->ret = t->setup ? t->setup() : 0;
	for (;;) {
		if (write(t->done[1], "d", 1) != 1 ||
		    read(t->go[0], &c, 1) != 1)
			syscall(__NR_exit, 1);
		if (c == 'm')
			t->ret = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
		else if (!t->run(t, c))
			syscall(__NR_exit, 0);
	}
	return NULL;
}

/* In a child: start @t, with @setup, @run and @arg; @setup must return 0. */
static inline void cmd_thread_start(struct cmd_thread *t, int (*setup)(void),
				    bool (*run)(struct cmd_thread *t, char cmd),
				    long arg)
{
	char c;

	memset(t, 0, sizeof(*t));
	t->setup = setup;
	t->run = run;
	t->arg = arg;
	CHILD_ASSERT(pipe(t->go) == 0 && pipe(t->done) == 0);
	CHILD_ASSERT(pthread_create(&t->thread, NULL, cmd_thread_fn, t) == 0);
	CHILD_ASSERT(read(t->done[0], &c, 1) == 1);
	CHILD_ASSERT(t->ret == 0);
}

/* In a child: have @t run command @cmd; its result. */
static inline long cmd_thread_ask(struct cmd_thread *t, char cmd)
{
	char c;

	CHILD_ASSERT(write(t->go[1], &cmd, 1) == 1);
	CHILD_ASSERT(read(t->done[0], &c, 1) == 1);
	return t->ret;
}

/* A SIGSYS handler that records what SECCOMP_RET_TRAP delivers. */
struct sigsys_seen {
	int count;
	int code;
	int err;
	int nr;
	unsigned int arch;
	pid_t tid;
};

static struct sigsys_seen sigsys_seen;

static inline void sigsys_record(int sig, siginfo_t *si, void *ctx)
{
	sigsys_seen.count++;
	sigsys_seen.code = si->si_code;
	sigsys_seen.err = si->si_errno;
	sigsys_seen.nr = si->si_syscall;
	sigsys_seen.arch = si->si_arch;
	sigsys_seen.tid = syscall(__NR_gettid);
}

/* Catch SIGSYS with sigsys_record(). */
static inline int catch_sigsys(void)
{
	struct sigaction sa = {
		.sa_sigaction = sigsys_record,
		.sa_flags = SA_SIGINFO,
	};

	memset(&sigsys_seen, 0, sizeof(sigsys_seen));
	return sigaction(SIGSYS, &sa, NULL);
}

#endif /* _SELFTESTS_SECCOMP_MASK_CHILD_H */
