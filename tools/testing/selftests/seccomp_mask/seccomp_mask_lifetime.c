// SPDX-License-Identifier: GPL-2.0
/*
 * seccomp_mask_lifetime: leak and lifetime check of the seccomp masks.
 *
 * Churns through installs, tightenings, failed tightenings (EPERM,
 * EFAULT, EINVAL: the error paths free a mask they allocated), forks
 * (which share masks), execs (which keep them), /proc/<pid>/status reads
 * of masked tasks and of their zombies, exits of masked tasks, TSYNCs,
 * TSYNCs against an exec and failed forks: by default for 2 seconds,
 * `-n 100000 -t 120` for the full run of make check-debug (or
 * $SECCOMP_MASK_LIFETIME_OPS / _SECONDS).
 *
 * TSYNC (one round in four): a thread group of five threads (the main
 * thread and a sibling sharing one allowlist, two siblings with one of
 * their own each, a sibling without masks) takes a TSYNC that replaces
 * all of them (each must be freed); then one sibling tightens on its own and a TSYNC it cannot
 * take (not a subset of its mask, or a weaker action) must return its
 * TID and change nothing (the allowlist it allocated is freed); then
 * TSYNCs it can take, before and after a thread exits with its
 * reference and a new one shares the current allowlist.
 *
 * TSYNC against an exec (one round in eight): the main thread of a masked
 * process execs this program, which exits at once, while a sibling makes
 * TSYNCs, each narrower; whichever wins, every allowlist the TSYNCs
 * replaced, and the one the new image keeps, must be freed.
 *
 * Failed forks (one round in four): a masked process (action ERRNO)
 * makes clone3() calls that fail inside copy_process() after
 * dup_task_struct() copied its task_struct, seccomp pointers included:
 * set_tid = its own, live, pid (EEXIST from alloc_pid(); EPERM without
 * CAP_SYS_ADMIN, also there), and CLONE_PIDFD with an unwritable pidfd
 * address (EFAULT from put_user(), after alloc_pid()). copy_process()
 * cannot fail after copy_seccomp() (6.1 and 6.12: "No more failure
 * paths after this point"), so these are the failed forks there are: the
 * new task's free_task() must drop no reference it did not take. Then it
 * forks children that exit (some after a tightening of their own); its
 * mask, action and /proc lines must be unchanged all along, the denied
 * call denied.
 *
 * Two tests run those alone, with every check: "tsync" (eight rounds:
 * each thread as the one that refuses, for both rules) and
 * "failed_fork" (FAILED_FORKS failed clones, then a drain of kfree_rcu,
 * then OK_FORKS children: an allowlist freed too early would be back in
 * the slab by then, overwritten by the freelist or by a child's new
 * allowlist, and the refcount underflow WARNs on the console).
 *
 * The masks live in the "seccomp_allowlist" slab cache. Its active
 * objects are read (after a shrink, which flushes the per-cpu slabs, so
 * that they count the objects in use) before the churn, once the frees
 * of earlier tests have landed, at a peak where HOLDERS masked processes
 * are alive at once (the peak must show at
 * least one object each: this is the right cache, and it is counted),
 * and after every task was reaped and RCU drained (the masks are freed
 * with kfree_rcu(), which may batch for a few seconds), the churn and the
 * tsync and failed_fork tests included: then they must be back where they
 * started, within LEAK_SLACK objects.
 * Kernels without /proc/slabinfo (CONFIG_SLUB_DEBUG=n), or whose cache is
 * merged into another one, skip that check, naming why.
 * The zombie check reads the status of a masked zombie: it shows mode 3 and
 * its exact mask.
 *
 * With SECCOMP_MASK_REQUIRED=1 in the environment, a kernel without a
 * working mask mode fails every check instead of skipping it.
 * Kmemleak, when the kernel has it, is scanned by the harness afterwards.
 */
#define SECCOMP_MASK_NO_HARNESS
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>

#include "common.h"
#include "options.h"

#define MAXB		SELF_MAX_BITS
#define CACHE		"seccomp_allowlist"
/* Masked processes alive at once at the peak. */
#define HOLDERS		32
/* Objects the cache may differ by after the churn: none leaked. */
#define LEAK_SLACK	2
/* Tightenings clear bits of numbers no kernel implements. */
#define FIRST_FREE_NR	600
#define TIGHTENINGS	12
#define FORKS		6
/* Threads besides the main one in a TSYNC round. */
#define TSYNC_THREADS	4
/* Failed forks, then forks, of a failed-fork round in the churn ... */
#define CHURN_FAILED_FORKS	8
#define CHURN_OK_FORKS		4
/* ... and of the failed_fork test. */
#define FAILED_FORKS	64
#define OK_FORKS	32
/* Rounds of the tsync test: each sibling refuses, for both rules. */
#define TSYNC_ROUNDS	(2 * TSYNC_THREADS)

#define NO_SLAB_FMT "no %s line in /proc/slabinfo (CONFIG_SLUB_DEBUG=n?): slab figures unavailable\n"
#define CHURN_FMT "churn: %ld operations in %.1f s: %ld installs, %ld tightenings, %ld failed calls, %ld forks, %ld execs, %ld exits, %ld /proc reads, %ld TSYNCs, %ld refused TSYNCs, %ld execs amid TSYNCs, %ld failed forks, %u masked processes\n"
#define SLAB_FMT "%s active_objs: before %ld, peak with the holders alive %ld, after %ld (%.0f s after the last exit; allowed slack %ld)\n"

/* Shared between processes: accessed with the __atomic builtins. */
struct counters {
	long ops, installs, tightenings, failed, forks, execs, exits, reads, errors;
	long tsyncs, tsync_refused, tsync_execs, failed_forks;
	/* how the failed forks failed */
	long eexist, eperm, efault;
	int first_err_line, first_err_errno, last_err_line, last_err_errno;
	char first_err_what[200];
};

#define LOAD(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

static struct counters *cnt;

/*
 * A failed check: counted, and the first one since reset_errors() named
 * (line, expression, errno). Async-signal-safe: no libc but the copy.
 */
static void check_failed(int line, const char *what)
{
	int err = errno;
	size_t i;

	if (__atomic_add_fetch(&cnt->errors, 1, __ATOMIC_SEQ_CST) == 1) {
		STORE(cnt->first_err_line, line);
		STORE(cnt->first_err_errno, err);
		for (i = 0; what[i] && i < sizeof(cnt->first_err_what) - 1; i++)
			cnt->first_err_what[i] = what[i];
		cnt->first_err_what[i] = '\0';
	}
	STORE(cnt->last_err_line, line);
	STORE(cnt->last_err_errno, err);
	errno = err;
}

#define CHECK(cond)							\
	do {								\
		if (!(cond))						\
			check_failed(__LINE__, #cond);			\
	} while (0)

static void reset_errors(void)
{
	STORE(cnt->errors, 0);
	STORE(cnt->first_err_line, 0);
	STORE(cnt->first_err_errno, 0);
	STORE(cnt->last_err_line, 0);
	STORE(cnt->last_err_errno, 0);
	cnt->first_err_what[0] = '\0';
}

static void add(long *c, long n)
{
	__atomic_add_fetch(c, n, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&cnt->ops, n, __ATOMIC_SEQ_CST);
}

/*
 * In the parent, after fork() gave @pid at @line: counts the fork, or
 * the failure (as CHECK(pid > 0) at @line would) and returns false.
 */
static bool fork_counted(pid_t pid, int line)
{
	if (pid <= 0)
		check_failed(line, "pid > 0");
	if (pid < 0)
		return false;
	add(&cnt->forks, 1);
	return true;
}

/* Active objects and objects per slab of the cache; false when unknown. */
static bool slab_figures(long *active, long *total, long *perslab)
{
	char line[512];
	bool found = false;
	FILE *f;
	int fd;

	/* flush the per-cpu slabs, so that active objects are closer to used ones */
	fd = open("/sys/kernel/slab/" CACHE "/shrink", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "1", 1) < 0)
			;
		close(fd);
	}
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char name[64];
		long a, t, size, per;

		if (sscanf(line, "%63s %ld %ld %ld %ld", name, &a, &t, &size, &per) == 5 &&
		    !strcmp(name, CACHE)) {
			*active = a;
			*total = t;
			*perslab = per;
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* Asks the kfree_rcu shrinker to drain its batches, then waits 1 s. */
static void drain_slab(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "2", 1) < 0)
			;
		close(fd);
	}
	sleep(1);
}

/* How long slab_settled() waits for the count to stop falling, at most. */
#define SETTLE_SECONDS	30
/* How long the slab test waits for the frees after the last exit, at most. */
#define DRAIN_SECONDS	120

/*
 * slab_figures() once the allowlists that earlier tests freed have left:
 * they may still wait for a grace period (kfree_rcu(), or tasks RCU after
 * a TSYNC). Waits until the count stops falling, for up to SETTLE_SECONDS
 * of CLOCK_MONOTONIC (not a count of drains: a drain under load takes
 * longer than its 1 s sleep), so that "before" counts what stays, not
 * what an earlier test left in flight. A count still falling then is
 * printed, not an error: the slab test allows for it (see main()).
 */
static bool slab_settled(long *active, long *total, long *perslab)
{
	double deadline = now() + SETTLE_SECONDS;
	long prev;

	if (!slab_figures(active, total, perslab))
		return false;
	for (;;) {
		prev = *active;
		drain_slab();
		if (!slab_figures(active, total, perslab))
			return false;
		if (*active >= prev)
			break;
		if (now() >= deadline) {
			ksft_print_msg("%s still falling after %d s (%ld, from %ld)\n",
				       CACHE, SETTLE_SECONDS, *active, prev);
			break;
		}
	}
	return true;
}

static int prctl_bits(const uint8_t *bits, unsigned int nbits)
{
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK, bits, nbits, 0);
}

static void clear_bit(uint8_t *m, unsigned int n)
{
	m[n / 8] &= ~(1 << (n % 8));
}

static void count_status_read(pid_t pid)
{
	char path[64], buf[4096];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	if (read(fd, buf, sizeof(buf)) > 0)
		add(&cnt->reads, 1);
	close(fd);
}

/* One masked process: install, tighten, fail, fork, exec, exit. */
static void __noreturn round_worker(const char *self, unsigned int round)
{
	static uint8_t bits[MAXB / 8], wider[MAXB / 8];
	struct seccomp_mask ent = { 0 };
	struct seccomp_mask_set set = {
		.size = sizeof(struct seccomp_mask_set),
		.nr_masks = 1,
		.masks = (uintptr_t)&ent,
	};
	unsigned int i;

	memset(bits, 0xff, sizeof(bits));
	CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
	CHECK(prctl_bits(bits, MAXB) == 0);
	add(&cnt->installs, 1);
	for (i = 0; i < TIGHTENINGS; i++) {
		clear_bit(bits, FIRST_FREE_NR + (round + i) % 300);
		CHECK(prctl_bits(bits, MAXB) == 0);
		add(&cnt->tightenings, 1);
	}
	/* error paths after the allocation: EPERM, EFAULT; and EINVAL */
	memset(wider, 0xff, sizeof(wider));
	CHECK(prctl_bits(wider, MAXB) == -1 && errno == EPERM);
	CHECK(prctl_bits((void *)8, MAXB) == -1 && errno == EFAULT);
	ent.arch = 0x12345678;
	ent.nbits = MAXB;
	ent.bits = (uintptr_t)bits;
	CHECK(syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK, 0, &set) == -1 && errno == EINVAL);
	add(&cnt->failed, 3);

	for (i = 0; i < FORKS; i++) {
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			if (i == 0 && round % 8 == 0) {
				/* exec keeps the masks; the new image exits at once */
				execl(self, self, "--exit", NULL);
				_exit(3);
			}
			if (i % 2) {
				clear_bit(bits, FIRST_FREE_NR + 300 + i);
				if (prctl_bits(bits, MAXB))
					_exit(2);
			}
			_exit(0);
		}
		if (!fork_counted(pid, __LINE__))
			break;
		if (i % 2) {
			add(&cnt->tightenings, 1);
			/* read the status of a zombie or a live masked task */
			count_status_read(pid);
		}
		CHECK(waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		if (i == 0 && round % 8 == 0)
			add(&cnt->execs, 1);
		add(&cnt->exits, 1);
	}
	add(&cnt->exits, 1);
	_exit(0);
}

/*
 * TSYNC rounds: the main thread commands TSYNC_THREADS siblings, each
 * of which tightens its own mask (prctl() applies to the calling thread
 * only) when told to, or exits.
 */
enum { T_TIGHTEN, T_EXIT };

struct tthread {
	pthread_t th;
	sem_t go, done;
	int cmd;
	struct mask m;
	__u32 action;
	int ret, err;
	pid_t tid;
	bool running;
};

static void sem_wait_intr(sem_t *s)
{
	while (sem_wait(s) && errno == EINTR)
		;
}

static void *tthread_main(void *arg)
{
	struct tthread *t = arg;

	t->tid = syscall(__NR_gettid);
	sem_post(&t->done);
	for (;;) {
		sem_wait_intr(&t->go);
		if (t->cmd == T_EXIT)
			return NULL;
		t->ret = mask_prctl_action(&t->m, t->action);
		t->err = errno;
		sem_post(&t->done);
	}
}

/* Starts @t and waits until it knows its TID. */
static bool tthread_start(struct tthread *t)
{
	if (sem_init(&t->go, 0, 0) || sem_init(&t->done, 0, 0))
		return false;
	if (pthread_create(&t->th, NULL, tthread_main, t))
		return false;
	t->running = true;
	sem_wait_intr(&t->done);
	return true;
}

/* Thread @t tightens its own mask to @m with @action: 0, or -1 with errno. */
static int tthread_tighten(struct tthread *t, const struct mask *m, __u32 action)
{
	if (!t->running) {
		errno = ESRCH;
		return -1;
	}
	t->cmd = T_TIGHTEN;
	t->m = *m;
	t->action = action;
	sem_post(&t->go);
	sem_wait_intr(&t->done);
	errno = t->err;
	return t->ret;
}

/* Thread @t exits (with whatever reference it holds), and is joined. */
static void tthread_stop(struct tthread *t)
{
	if (!t->running)
		return;
	t->cmd = T_EXIT;
	sem_post(&t->go);
	pthread_join(t->th, NULL);
	sem_destroy(&t->go);
	sem_destroy(&t->done);
	t->running = false;
}

/* TSYNC of the mask of this program's ABI: 0, -1 with errno, or a TID. */
static long tsync(const struct mask *m, __u32 action)
{
	const __u32 arch = SELF_ARCH;

	return mask_seccomp_set(SECCOMP_MASK_FLAG_TSYNC, action, 1, &arch, &m);
}

/* Does thread @tid (0: the main thread) show mode 3, @m and @action? */
static bool thread_shows(pid_t tid, const struct mask *m, __u32 action)
{
	add(&cnt->reads, 3);
	return status_is(tid, "Seccomp", "3") && status_shows_mask(tid, m) &&
	       status_shows_action(tid, action);
}

/* The k-th bit a TSYNC round clears: one no kernel implements. */
static unsigned int tbit(unsigned int round, unsigned int k)
{
	return FIRST_FREE_NR + (round * 8 + k) % 400;
}

/*
 * A TSYNC round (see the top of the file). Sibling f = round / 2 %
 * TSYNC_THREADS refuses the second TSYNC: by the subset rule in even
 * rounds, by the action rule in odd ones.
 */
static void __noreturn tsync_worker(unsigned int round)
{
	static struct tthread t[TSYNC_THREADS];
	const bool by_action = round & 1;
	const unsigned int f = round / 2 % TSYNC_THREADS;
	__u32 act = SECCOMP_RET_ERRNO | MASK_ERRNO;
	struct mask a, b, c, d, e, g, k;
	unsigned int i;
	long r;

	CHECK(set_nnp() == 0);
	/* t[0] starts without masks: the first TSYNC puts it in mode 3. */
	CHECK(tthread_start(&t[0]));
	mask_all(&a, MAXB);
	mask_clear(&a, tbit(round, 0));
	CHECK(mask_prctl_action(&a, act) == 0);
	add(&cnt->installs, 1);
	/* t[1..] share the main thread's allowlist; t[2..] then get their own. */
	for (i = 1; i < TSYNC_THREADS; i++)
		CHECK(tthread_start(&t[i]));
	for (i = 2; i < TSYNC_THREADS; i++) {
		b = a;
		mask_clear(&b, tbit(round, i));
		CHECK(tthread_tighten(&t[i], &b, act) == 0);
		CHECK(thread_shows(t[i].tid, &b, act));
		add(&cnt->tightenings, 1);
	}
	CHECK(thread_shows(t[1].tid, &a, act));

	/* A TSYNC that replaces every allowlist: each old one must go. */
	c = a;
	for (i = 2; i < TSYNC_THREADS + 1; i++)
		mask_clear(&c, tbit(round, i));
	CHECK(tsync(&c, act) == 0);
	add(&cnt->tsyncs, 1);
	CHECK(thread_shows(0, &c, act));
	for (i = 0; i < TSYNC_THREADS; i++)
		CHECK(thread_shows(t[i].tid, &c, act));

	/*
	 * Sibling f tightens on its own; a TSYNC it cannot take returns its
	 * TID, changes nothing, and frees the allowlist it allocated.
	 */
	d = c;
	if (by_action) {
		CHECK(tthread_tighten(&t[f], &d, SECCOMP_RET_KILL_PROCESS) == 0);
	} else {
		mask_clear(&d, tbit(round, 5));
		CHECK(tthread_tighten(&t[f], &d, act) == 0);
	}
	add(&cnt->tightenings, 1);
	e = c;
	mask_clear(&e, tbit(round, 6));
	r = tsync(&e, act);
	CHECK(r == t[f].tid);
	add(&cnt->tsync_refused, 1);
	CHECK(thread_shows(0, &c, act));
	for (i = 0; i < TSYNC_THREADS; i++)
		CHECK(thread_shows(t[i].tid, i == f ? &d : &c,
				   i == f && by_action ? SECCOMP_RET_KILL_PROCESS : act));

	/* One it can take: sibling f's allowlist and the shared one go. */
	g = e;
	mask_clear(&g, tbit(round, 5));
	if (by_action)
		act = SECCOMP_RET_KILL_PROCESS;
	CHECK(tsync(&g, act) == 0);
	add(&cnt->tsyncs, 1);
	CHECK(thread_shows(0, &g, act));
	for (i = 0; i < TSYNC_THREADS; i++)
		CHECK(thread_shows(t[i].tid, &g, act));

	/* A thread exits holding a reference; a new one shares; TSYNC again. */
	tthread_stop(&t[f]);
	CHECK(tthread_start(&t[f]));
	k = g;
	mask_clear(&k, tbit(round, 7));
	CHECK(tsync(&k, act) == 0);
	add(&cnt->tsyncs, 1);
	CHECK(thread_shows(0, &k, act));
	for (i = 0; i < TSYNC_THREADS; i++)
		CHECK(thread_shows(t[i].tid, &k, act));

	for (i = 0; i < TSYNC_THREADS; i++)
		tthread_stop(&t[i]);
	add(&cnt->exits, 1);
	_exit(0);
}

/* TSYNCs a sibling makes against the main thread's exec, at the most. */
#define TSYNC_EXEC_TSYNCS	200

static int tsync_exec_started;

/*
 * The sibling of a TSYNC-exec round: TSYNCs, each one narrower, until
 * the exec kills it (in user space, or waiting in a TSYNC for the exec's
 * cred_guard_mutex).
 */
static void *tsync_exec_sibling(void *arg)
{
	const __u32 act = SECCOMP_RET_ERRNO | MASK_ERRNO;
	struct mask m;
	int k;

	mask_all(&m, MAXB);
	for (k = 0; k < TSYNC_EXEC_TSYNCS; k++) {
		mask_clear(&m, FIRST_FREE_NR + k);
		if (tsync(&m, act)) {
			check_failed(__LINE__, "tsync(&m, act) == 0 against an exec");
			break;
		}
		add(&cnt->tsyncs, 1);
		__atomic_store_n(&tsync_exec_started, 1, __ATOMIC_RELEASE);
	}
	for (;;)
		pause();
	return arg;
}

/*
 * A TSYNC-exec round (one in eight): the main thread execs this program
 * ("--exit") while a sibling replaces both threads' allowlists with
 * TSYNCs. Whichever wins, each allowlist a TSYNC replaced, and the one
 * the new image keeps, must be freed in the end (the slab test counts
 * them); tsync_exec_test checks the state of the new image.
 */
static void __noreturn tsync_exec_worker(const char *self)
{
	double deadline = now() + CHILD_TIMEOUT_MS / 2000.0;
	struct mask m;
	pthread_t t;

	mask_all(&m, MAXB);
	CHECK(set_nnp() == 0);
	CHECK(mask_prctl_action(&m, SECCOMP_RET_ERRNO | MASK_ERRNO) == 0);
	add(&cnt->installs, 1);
	if (pthread_create(&t, NULL, tsync_exec_sibling, NULL)) {
		check_failed(__LINE__, "pthread_create() == 0");
		_exit(2);
	}
	/* Exec once its TSYNCs are under way. */
	while (!__atomic_load_n(&tsync_exec_started, __ATOMIC_ACQUIRE)) {
		if (now() >= deadline) {
			check_failed(__LINE__, "the sibling's first TSYNC in time");
			_exit(2);
		}
		sched_yield();
	}
	add(&cnt->tsync_execs, 1);
	add(&cnt->execs, 1);
	add(&cnt->exits, 1);
	execl(self, self, "--exit", NULL);
	check_failed(__LINE__, "execl(self, self, \"--exit\", NULL) == 0");
	_exit(3);
}

/* struct clone_args as of Linux 5.7 (CLONE_ARGS_SIZE_VER2), all bases. */
struct lt_clone_args {
	__u64 flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size,
	      tls, set_tid, set_tid_size, cgroup;
};

#ifndef __NR_clone3
#define __NR_clone3	435
#endif
#ifndef CLONE_PIDFD
#define CLONE_PIDFD	0x00001000
#endif

enum { FAIL_SET_TID, FAIL_PIDFD, FAIL_WAYS };

/*
 * A clone3() that fails inside copy_process(), after dup_task_struct():
 * FAIL_SET_TID asks for the pid @live, which is in use: EEXIST from
 * alloc_pid() (EPERM there without CAP_SYS_ADMIN in the pid namespace's
 * user namespace); FAIL_PIDFD has the pidfd written to an address of the
 * first page, never mapped: EFAULT from put_user(), after alloc_pid().
 * Returns what clone3() does: 0 in a child, if it did not fail.
 */
static long failing_clone(int way, pid_t live)
{
	struct lt_clone_args args;

	memset(&args, 0, sizeof(args));
	args.exit_signal = SIGCHLD;
	if (way == FAIL_SET_TID) {
		args.set_tid = (uintptr_t)&live;
		args.set_tid_size = 1;
	} else {
		args.flags = CLONE_PIDFD;
		args.pidfd = 8;
	}
	return syscall(__NR_clone3, &args, sizeof(args));
}

/*
 * In failfork_worker(): the Seccomp lines still read @lines, and @m with
 * @act is still in force.
 */
#define CHECK_UNCHANGED(lines, m, act)					\
	do {								\
		char __now[8192];					\
									\
		CHECK(seccomp_lines(0, false, __now, sizeof(__now)) &&	\
		      !strcmp(lines, __now));				\
		add(&cnt->reads, 1);					\
		CHECK(thread_shows(0, m, act));				\
	} while (0)

/*
 * A failed-fork round (see the top of the file): @nfail failed clones,
 * then, after a drain of kfree_rcu() if @drain, @nok children that exit,
 * every other one after a tightening of its own.
 */
static void __noreturn failfork_worker(unsigned int round, int nfail, int nok, bool drain)
{
	const __u32 act = SECCOMP_RET_ERRNO | MASK_ERRNO;
	char lines[8192];
	struct mask m, t;
	pid_t self = getpid();
	int i, st;
	long r;

	mask_all(&m, MAXB);
	mask_clear(&m, __NR_getppid);
	mask_clear(&m, FIRST_FREE_NR + round % 400);
	CHECK(set_nnp() == 0);
	CHECK(mask_prctl_action(&m, act) == 0);
	add(&cnt->installs, 1);
	CHECK(syscall(__NR_getppid) == -1 && errno == MASK_ERRNO);
	CHECK(thread_shows(0, &m, act));
	CHECK(seccomp_lines(0, false, lines, sizeof(lines)));
	add(&cnt->reads, 1);

	for (i = 0; i < nfail; i++) {
		int way = (round + i) % FAIL_WAYS;

		r = failing_clone(way, self);
		if (r == 0)
			_exit(0);	/* it did not fail: a child */
		if (r > 0) {
			waitpid(r, &st, 0);
			check_failed(__LINE__, "a clone3() meant to fail created a process");
			continue;
		}
		if (way == FAIL_SET_TID) {
			CHECK(errno == EEXIST || errno == EPERM);
			add(errno == EPERM ? &cnt->eperm : &cnt->eexist, 1);
		} else {
			CHECK(errno == EFAULT);
			add(&cnt->efault, 1);
		}
		add(&cnt->failed_forks, 1);
		/* still enforced, with its action */
		CHECK(syscall(__NR_getppid) == -1 && errno == MASK_ERRNO);
	}
	CHECK_UNCHANGED(lines, &m, act);

	/*
	 * An allowlist a failed fork dropped would be freed after a grace
	 * period: then the slab's freelist pointer, or the new allowlist of
	 * a child below, is in its bits.
	 */
	if (drain)
		drain_slab();
	for (i = 0; i < nok; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			if (syscall(__NR_getppid) != -1 || errno != MASK_ERRNO)
				_exit(2);
			if (i % 2 == 0) {
				t = m;
				mask_clear(&t, FIRST_FREE_NR + 400 + i % 20);
				if (mask_prctl_action(&t, act))
					_exit(3);
				if (syscall(__NR_getppid) != -1 || errno != MASK_ERRNO)
					_exit(4);
			}
			_exit(0);
		}
		if (!fork_counted(pid, __LINE__))
			break;
		if (i % 2 == 0)
			add(&cnt->tightenings, 1);
		CHECK(waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		add(&cnt->exits, 1);
		CHECK(syscall(__NR_getppid) == -1 && errno == MASK_ERRNO);
	}
	CHECK_UNCHANGED(lines, &m, act);
	add(&cnt->exits, 1);
	_exit(0);
}

/* A test result that is a skip, or a failure with SECCOMP_MASK_REQUIRED=1. */
static void result_missing(const char *name, const char *why)
{
	if (mask_required())
		ksft_test_result_fail("%s: SECCOMP_MASK_REQUIRED=1: %s\n", name, why);
	else
		ksft_test_result_skip("%s: %s\n", name, why);
}

/*
 * A masked task that has exited but is not reaped yet (a zombie) still
 * shows mode 3 and its exact mask: all of it but getppid.
 */
static void zombie_status(void)
{
	static uint8_t bits[MAXB / 8];
	char path[64], buf[4096], val[4096], want[64];
	const char *key = self_is_compat() ? "Seccomp_mask_compat" : "Seccomp_mask";
	struct timespec step = { 0, 1000 * 1000 };
	const char *why = NULL;
	double deadline;
	siginfo_t si;
	pid_t pid;
	int fd, st;
	ssize_t n;

	memset(bits, 0xff, sizeof(bits));
	clear_bit(bits, __NR_getppid);
	snprintf(want, sizeof(want), "0-%d,%d-%d", __NR_getppid - 1, __NR_getppid + 1,
		 MAXB - 1);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		_exit(prctl_bits(bits, MAXB) ? 1 : 0);
	}
	if (pid < 0) {
		ksft_test_result_fail("zombie: fork: %s\n", strerror(errno));
		return;
	}
	/* Wait for the zombie, without reaping it, until a deadline. */
	deadline = now() + CHILD_TIMEOUT_MS / 1000.0;
	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT | WNOHANG) || si.si_pid == pid)
			break;
		if (now() >= deadline)
			break;
		nanosleep(&step, NULL);
	}
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	if (si.si_pid != pid)
		kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	if (si.si_pid != pid)
		why = "did not exit in time (CHILD_TIMEOUT_MS)";
	else if (!WIFEXITED(st) || WEXITSTATUS(st))
		why = "could not install its mask";
	else if (n <= 0)
		why = "cannot read its status";
	else if (!strstr(buf, "\nSeccomp:\t3\n"))
		why = "not in mode 3";
	else if (!status_field(buf, key, val, sizeof(val)))
		why = "Seccomp:\t3 without its mask line";
	else if (strcmp(val, want))
		why = "a mask line that is not the mask it installed";
	if (why) {
		char *p = strstr(buf, "Seccomp:"), *e;

		ksft_print_msg("zombie %d: %s (want %s: %s); its status from Seccomp: on:\n",
			       pid, why, key, want);
		for (int i = 0; p && *p && i < 5; i++, p = e + 1) {
			e = strchrnul(p, '\n');
			ksft_print_msg("  %.*s\n", (int)(e - p), p);
			if (!*e)
				break;
		}
	}
	ksft_test_result(!why, "zombie: an unreaped masked task shows mode 3 and its mask%s%s\n",
			 why ? ": " : "", why ? why : "");
}

/*
 * HOLDERS masked processes alive at once, each with a mask of its own:
 * the active objects of the cache while they live, or -1.
 */
static long peak_with_holders(void)
{
	static uint8_t bits[MAXB / 8];
	pid_t pids[HOLDERS];
	int ready[2], done[2], i, n = 0;
	long a = -1, tot, per;
	char c;

	if (pipe(ready) || pipe(done))
		return -1;
	for (i = 0; i < HOLDERS; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
			close(ready[0]);
			close(done[1]);
			memset(bits, 0xff, sizeof(bits));
			clear_bit(bits, FIRST_FREE_NR + i);
			if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl_bits(bits, MAXB))
				_exit(1);
			if (write(ready[1], "x", 1) != 1)
				_exit(1);
			/* until the parent closes its end, or dies */
			_exit(read(done[0], &c, 1) < 0);
		}
		if (pids[i] < 0)
			break;
	}
	close(ready[1]);
	close(done[0]);
	for (n = 0; n < i; n++) {
		struct pollfd pfd = { .fd = ready[0], .events = POLLIN };

		if (poll(&pfd, 1, CHILD_TIMEOUT_MS) != 1 || read(ready[0], &c, 1) != 1)
			break;
	}
	if (n == HOLDERS && !slab_figures(&a, &tot, &per))
		a = -1;
	if (n != HOLDERS)
		ksft_print_msg("peak: only %d of %d masked holders got ready\n", n, HOLDERS);
	close(done[1]);
	close(ready[0]);
	for (n = 0; n < i; n++) {
		int st;

		if (waitpid_timeout(pids[n], &st, 0, CHILD_TIMEOUT_MS) != pids[n] ||
		    !WIFEXITED(st) || WEXITSTATUS(st))
			a = -1;
	}
	return a;
}

/*
 * Can this program use threads? glibc's futex calls of 32-bit programs
 * need CONFIG_COMPAT_32BIT_TIME on a 64-bit kernel, and abort without it.
 */
static bool threads_usable(char *why, size_t len)
{
	unsigned int word = 0;

	if (syscall(__NR_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) >= 0)
		return true;
	snprintf(why, len, "CONFIG_COMPAT_32BIT_TIME not enabled (futex: %s)", strerror(errno));
	return false;
}

/* Does clone3() fail where failfork_worker() needs it to? */
static bool clone3_usable(char *why, size_t len)
{
	long r = failing_clone(FAIL_SET_TID, getpid());
	int st;

	if (r == 0)
		_exit(0);
	if (r > 0) {
		waitpid(r, &st, 0);
		snprintf(why, len, "clone3() with set_tid = a live pid created a process");
		return false;
	}
	if (errno == EEXIST || errno == EPERM)
		return true;
	snprintf(why, len, "clone3() with set_tid = a live pid: %s, not EEXIST", strerror(errno));
	return false;
}

/*
 * Runs a TSYNC round (@failfork false) or the failed-fork round of the
 * test in a child of its own; false, with the first failed check printed,
 * when a check failed or the child did not exit with 0.
 */
static bool run_alone(const char *name, bool failfork, unsigned int round)
{
	pid_t pid;
	int st = 0;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (failfork)
			failfork_worker(round, FAILED_FORKS, OK_FORKS, true);
		tsync_worker(round);
	}
	if (pid < 0) {
		ksft_print_msg("%s: fork: %s\n", name, strerror(errno));
		return false;
	}
	if (waitpid_timeout(pid, &st, 0, CHILD_TIMEOUT_MS) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st)) {
		ksft_print_msg("%s round %u: status %#x (%s)\n", name, round, st,
			       WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "exited");
		return false;
	}
	if (LOAD(cnt->errors)) {
		ksft_print_msg("%s round %u: %ld failed checks, first line %d: %s (errno %d: %s)\n",
			       name, round, LOAD(cnt->errors), cnt->first_err_line,
			       cnt->first_err_what, cnt->first_err_errno,
			       strerror(cnt->first_err_errno));
		return false;
	}
	return true;
}

/*
 * TSYNC: the replaced allowlists of the siblings go (the slab test counts
 * them), a refused TSYNC returns the TID of the sibling that cannot take
 * it and changes nothing. Eight rounds: each sibling refuses once by the
 * subset rule and once by the action rule.
 */
static void tsync_test(void)
{
	unsigned int round;
	bool ok = true;

	for (round = 0; round < TSYNC_ROUNDS && ok; round++) {
		reset_errors();
		ok = run_alone("tsync", false, round);
	}
	ksft_test_result(ok, "tsync: %d rounds of %d threads, refusals change nothing%s\n",
			 TSYNC_ROUNDS, TSYNC_THREADS + 1, ok ? "" : ": FAILED (see above)");
}

/*
 * Item 8 of the contract's fork rule: a fork that fails after copying the
 * task leaves the parent's masks (and their reference count) intact.
 */
static void failed_fork_test(void)
{
	long f0 = LOAD(cnt->failed_forks), x0 = LOAD(cnt->eexist), p0 = LOAD(cnt->eperm),
	     e0 = LOAD(cnt->efault);
	bool ok;

	reset_errors();
	ok = run_alone("failed_fork", true, 1);
	ksft_print_msg("failed_fork: %ld failed clone3(): %ld EEXIST, %ld EPERM, %ld EFAULT\n",
		       LOAD(cnt->failed_forks) - f0, LOAD(cnt->eexist) - x0, LOAD(cnt->eperm) - p0,
		       LOAD(cnt->efault) - e0);
	ksft_test_result(ok, "failed_fork: %d failing and %d good forks: parent state kept%s\n",
			 FAILED_FORKS, OK_FORKS, ok ? "" : ": FAILED (see above)");
}

int main(int argc, char **argv)
{
	double seconds = 2, t0, t;
	long max_ops = 100000, before = -1, total0 = 0, per = 0, peak = -1, after = -1, base,
	     tot, p;
	bool have_slab, have_threads, have_clone3;
	char no_threads[128] = "", no_clone3[128] = "";
	unsigned int round = 0;
	const struct opt opts[] = {
		{ 't', OPT_DOUBLE, &seconds, getenv("SECCOMP_MASK_LIFETIME_SECONDS") },
		{ 'n', OPT_LONG, &max_ops, getenv("SECCOMP_MASK_LIFETIME_OPS") },
	};
	char self[4096];
	int check;
	ssize_t n;

	if (argc > 1 && !strcmp(argv[1], "--exit"))
		return 0;
	if (opts_parse(argc, argv, opts, ARRAY_SIZE(opts))) {
		fprintf(stderr, "usage: %s [-t SECONDS] [-n OPERATIONS]\n", argv[0]);
		return 2;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = 0;

	ksft_print_header();
	ksft_set_plan(5);
	cnt = mmap(NULL, sizeof(*cnt), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cnt == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));

	/* Is the mask mode there, and working? */
	check = mask_mode_check();
	if (check != 1) {
		char why[128];

		if (check)
			snprintf(why, sizeof(why), "the mask mode probe answered %d", check);
		else
			snprintf(why, sizeof(why), "CONFIG_SECCOMP_MASK not enabled");
		if (check && !mask_required())
			ksft_print_msg("%s\n", why);
		result_missing("churn", why);
		result_missing("zombie", why);
		result_missing("tsync", why);
		result_missing("failed_fork", why);
		result_missing("slab", why);
		ksft_finished();
	}

	have_threads = threads_usable(no_threads, sizeof(no_threads));
	have_clone3 = clone3_usable(no_clone3, sizeof(no_clone3));
	if (!have_threads)
		ksft_print_msg("no TSYNC rounds: %s\n", no_threads);
	if (!have_clone3)
		ksft_print_msg("no failed-fork rounds: %s\n", no_clone3);

	have_slab = slab_settled(&before, &total0, &per);
	if (have_slab)
		ksft_print_msg("before: %s active_objs %ld num_objs %ld objperslab %ld\n", CACHE,
			       before, total0, per);
	else
		ksft_print_msg(NO_SLAB_FMT, CACHE);
	if (have_slab)
		peak = peak_with_holders();

	t0 = now();
	ksft_print_msg("churn: up to %ld operations or %.0f s\n", max_ops, seconds);
	while (LOAD(cnt->ops) < max_ops && now() - t0 < seconds) {
		pid_t pid = fork();
		int st = 0;

		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
			if (round % 4 == 1 && have_threads)
				tsync_worker(round);
			if (round % 8 == 4 && have_threads)
				tsync_exec_worker(self);
			if (round % 4 == 3 && have_clone3)
				failfork_worker(round, CHURN_FAILED_FORKS, CHURN_OK_FORKS, false);
			round_worker(self, round);
		}
		if (pid < 0) {
			ksft_print_msg("fork: %s\n", strerror(errno));
			break;
		}
		if (waitpid_timeout(pid, &st, 0, CHILD_TIMEOUT_MS) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			check_failed(__LINE__, "a worker did not exit with 0 in time");
			ksft_print_msg("worker %u: status %#x\n", round, st);
		}
		round++;
	}
	t = now() - t0;
	ksft_print_msg(CHURN_FMT, cnt->ops, t, cnt->installs, cnt->tightenings, cnt->failed,
		       cnt->forks, cnt->execs, cnt->exits, cnt->reads, cnt->tsyncs,
		       cnt->tsync_refused, cnt->tsync_execs, cnt->failed_forks, round);
	if (cnt->errors)
		ksft_print_msg("%ld bad, first line %d: %s (errno %d: %s); last %d (%d: %s)\n",
			       cnt->errors, cnt->first_err_line, cnt->first_err_what,
			       cnt->first_err_errno, strerror(cnt->first_err_errno),
			       cnt->last_err_line, cnt->last_err_errno,
			       strerror(cnt->last_err_errno));
	ksft_test_result(!cnt->errors && round > 0,
			 "churn: %ld operations in %u rounds, %ld unexpected results\n",
			 cnt->ops, round, cnt->errors);

	zombie_status();
	if (have_threads)
		tsync_test();
	else
		result_missing("tsync", no_threads);
	if (have_clone3)
		failed_fork_test();
	else
		result_missing("failed_fork", no_clone3);
	if (!have_slab) {
		ksft_test_result_skip("slab: no %s in /proc/slabinfo (%s)\n", CACHE,
				      "CONFIG_SLUB_DEBUG not enabled, or the cache merged");
		ksft_finished();
	}
	/*
	 * Every task is reaped. kfree_rcu() frees after a grace period and
	 * batches for up to 5 s more; KASAN's quarantine keeps freed objects
	 * allocated until the cache is shrunk (slab_figures() does). Poll
	 * until DRAIN_SECONDS of CLOCK_MONOTONIC have passed, asking the
	 * kfree_rcu shrinker to drain its batches: objects still counted
	 * then are a leak.
	 */
	t0 = now();
	do {
		drain_slab();
		if (!slab_figures(&after, &tot, &p)) {
			after = -1;
			break;
		}
	} while (after > before + LEAK_SLACK && now() - t0 < DRAIN_SECONDS);
	ksft_print_msg(SLAB_FMT, CACHE, before, peak, after, now() - t0, (long)LEAK_SLACK);
	/*
	 * "before" may still count objects whose kfree_rcu() was pending
	 * (the debug kernel's grace periods are slow); the smaller of
	 * before and after is what the holders did not bring.
	 */
	base = after >= 0 && after < before ? after : before;
	if (peak < base + HOLDERS)
		ksft_print_msg("peak: %ld active objects with %d masked processes alive, %s %ld\n",
			       peak, HOLDERS, "not at least", base + HOLDERS);
	ksft_test_result(peak >= base + HOLDERS && after >= 0 &&
			 after <= before + LEAK_SLACK,
			 "slab: %s active objects before %ld, at the peak %ld, after %ld\n", CACHE,
			 before, peak, after);
	ksft_finished();
}
