// SPDX-License-Identifier: GPL-2.0
/*
 * What the seccomp mask mode costs, against no seccomp and BPF filters:
 * per syscall, per install, per fork and in kernel memory per task; a
 * mask stacked on filters; a denied call under each action; TSYNC; and
 * the cache line that a mask's refcount may share with its bits.
 *
 * Strictly speaking, this is not a test (in the manner of
 * ../seccomp/seccomp_benchmark.c): it asserts nothing about timing. Every
 * measurement runs in a fresh child that installs its sandbox and then
 * measures; the parent collects the results through a shared page. A
 * sandboxed child never needs a syscall besides the measured ones (it
 * spins when done and the parent kills it), so a mask may allow a single
 * syscall.
 *
 * Without arguments (the kselftest runner) it runs a short pass only, to
 * prove that every case works. For numbers:
 *
 *   seccomp_mask_benchmark [-t MS | -s SAMPLES] [-r ROUNDS] [-k INSTALLS]
 *                          [-f FORKS] [-m TASKS] [-c CALLS] [-g GROUPS]
 *                          [-j FILE]
 *   seccomp_mask_benchmark SAMPLES          (as seccomp_benchmark)
 *
 *   -t MS       calibrate: SAMPLES syscalls take MS ms without seccomp
 *   -s SAMPLES  syscalls per measurement (all syscall cases)
 *   -b BATCHES  a measurement is the fastest of BATCHES batches (20) of
 *               SAMPLES / BATCHES calls each, but at most about 1 ms each
 *   -r ROUNDS   every case is measured ROUNDS times, rounds interleaved;
 *               the summary is the median with min and max
 *   -k N        installs per round (each in a fresh child)
 *   -f N        fork+exit+wait per measurement (the median is kept)
 *   -m N        sandboxed tasks alive per memory measurement
 *   -c CALLS    getpid calls per reader thread of a cacheline measurement
 *   -g LIST     only these groups: syscall,masksize,chart,install,fork,
 *               memory,stack,action,tsync,cacheline (default: all)
 *   -j FILE     write every raw measurement as JSON to FILE
 *
 * On x86 the program is built twice: the _64 binary measures the native
 * ABI, the _32 binary the compat (ia32) ABI of the same kernel; on arm64
 * likewise, AArch64 and AArch32. Time is CLOCK_MONOTONIC on every
 * architecture (no cycle counter).
 *
 * The groups added for version 2 of the contract:
 *   stack      a 1-syscall mask stacked on a cached filter and on a filter
 *              that loads an argument (not cached), against the filter
 *              alone (the filters also allow prctl, which installs the mask)
 *   action     a denied mseal(0, 0, 1) under the errno, trap (a SIGSYS
 *              handler that returns) and log actions, per call; the kill
 *              action as fork + die against fork + _exit
 *   tsync      seccomp(SECCOMP_SET_MODE_MASK, SECCOMP_MASK_FLAG_TSYNC) of
 *              a 100-syscall mask against SECCOMP_FILTER_FLAG_TSYNC of the
 *              equivalent filter, in a fresh process of 1, 8 or 64 threads
 *   cacheline  N reader threads (one per CPU but the first) call getpid
 *              under a mask while the first thread creates and joins
 *              threads, each of which takes and drops a reference on the
 *              mask ("churn"), against the same without the churn
 *              ("quiet"): the cost of the refcount sharing a cache line
 *              with the bits. Real time only means something here (an
 *              instruction count sees no cache traffic).
 */
#define _GNU_SOURCE
/* The uapi of the mask mode (version 3), whatever the headers have. */
#include "uapi_fallback.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/futex.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "../kselftest.h"

#include "kselftest_compat.h"
#include "options.h"

#ifndef PR_SET_NO_NEW_PRIVS
#define PR_SET_NO_NEW_PRIVS	38
#endif

#if defined(__x86_64__) && !defined(__ILP32__)
#define SELF_ARCH	AUDIT_ARCH_X86_64
#define ABI_NAME	"x86_64"
#elif defined(__i386__)
#define SELF_ARCH	AUDIT_ARCH_I386
#define ABI_NAME	"i386 (compat)"
#elif defined(__aarch64__)
#define SELF_ARCH	AUDIT_ARCH_AARCH64
#define ABI_NAME	"aarch64"
#elif defined(__arm__)
/* An AArch32 program: the compat ABI of an arm64 kernel. */
#define SELF_ARCH	AUDIT_ARCH_ARM
#define ABI_NAME	"arm (AArch32 compat)"
#else
#error "add this architecture's AUDIT_ARCH"
#endif

/*
 * The "late" syscall: mseal(0, 0, 1), the last entry of both x86 tables
 * (462), and of the AArch64 and AArch32 ones (462 as well). It fails with
 * -EINVAL on its first test (flags != 0), before any lock or lookup, so
 * it costs about what getpid costs, and it has no effect whatever
 * happens.
 */
#ifndef __NR_mseal
#define __NR_mseal	462	/* unimplemented before 6.10 (the 6.1 series) */
#endif
#define NR_LATE		__NR_mseal

/* Its errno without seccomp (EINVAL; ENOSYS where 462 is unimplemented). */
static int late_ran_errno;

#define MAX_ROUNDS	64
#define MAX_CASES	128
#define MASK_BYTES	(SECCOMP_MASK_MAX_BITS / 8)

/* ------------------------------------------------------------------ */
/* Sets of syscall numbers, masks and filters                         */

struct nrset {
	uint8_t bits[MASK_BYTES];	/* the mask layout: bit n%8 of byte n/8 */
	int count;
};

static void set_add(struct nrset *s, long nr)
{
	if (nr < 0 || nr >= SECCOMP_MASK_MAX_BITS)
		return;
	if (!(s->bits[nr / 8] & (1 << (nr % 8)))) {
		s->bits[nr / 8] |= 1 << (nr % 8);
		s->count++;
	}
}

static bool set_has(const struct nrset *s, long nr)
{
	return nr >= 0 && nr < SECCOMP_MASK_MAX_BITS &&
	       (s->bits[nr / 8] & (1 << (nr % 8)));
}

static int set_nbits(const struct nrset *s)
{
	int n;

	for (n = SECCOMP_MASK_MAX_BITS; n > 0; n--)
		if (set_has(s, n - 1))
			break;
	return n;
}

/* Syscalls needed beside the measured one when the clock is no vDSO call. */
static struct nrset support;
static bool vdso_clock;

static void add_clock(struct nrset *s)
{
#ifdef __NR_clock_gettime
	set_add(s, __NR_clock_gettime);
#endif
#ifdef __NR_clock_gettime64
	set_add(s, __NR_clock_gettime64);
#endif
}

/*
 * What a child that forks, waits, writes and blocks needs through glibc:
 * fork() is rt_sigprocmask + clone + set_robust_list in the child, _exit()
 * is exit_group, waitpid() is wait4 or waitpid; the repeated installs
 * need prctl.
 */
static void add_essentials(struct nrset *s)
{
	long nrs[] = {
		__NR_read, __NR_write, __NR_exit, __NR_exit_group, __NR_getpid,
		__NR_clone, __NR_rt_sigprocmask, __NR_set_robust_list,
		__NR_wait4, __NR_prctl,
#ifdef __NR_waitpid
		__NR_waitpid,
#endif
#ifdef __NR_fork
		__NR_fork,
#endif
#ifdef __NR_clone3
		__NR_clone3,
#endif
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(nrs); i++)
		set_add(s, nrs[i]);
}

/* A set of exactly @n syscalls: @must plus the lowest other numbers. */
static void set_fill(struct nrset *s, int n)
{
	long nr;

	for (nr = 0; s->count < n && nr < SECCOMP_MASK_MAX_BITS; nr++)
		set_add(s, nr);
}

/* "set100": the 100 syscalls of the install, fork and memory cases. */
static void set100(struct nrset *s, long target)
{
	memset(s, 0, sizeof(*s));
	*s = support;
	add_essentials(s);
	set_add(s, target);
	set_fill(s, 100);
}

struct prog {
	struct sock_filter insn[BPF_MAXINSNS];
	unsigned short len;
};

static void emit(struct prog *p, struct sock_filter f)
{
	if (p->len >= BPF_MAXINSNS)
		ksft_exit_fail_msg("BPF program too long\n");
	p->insn[p->len++] = f;
}

/* Kill other ABIs, then load the syscall number. */
static void bpf_prologue(struct prog *p)
{
	p->len = 0;
	emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					     offsetof(struct seccomp_data, arch)));
	emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
					     SELF_ARCH, 1, 0));
	emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					     SECCOMP_RET_KILL_PROCESS));
	emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					     offsetof(struct seccomp_data, nr)));
}

/*
 * One rule: allow @nr. With @argload, the rule loads an argument first:
 * the action cache then cannot prove the result constant for @nr, and
 * every call of @nr runs the BPF program.
 */
static void bpf_allow(struct prog *p, long nr, bool argload)
{
	emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
					     nr, 0, argload ? 2 : 1));
	if (argload)
		emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						     offsetof(struct seccomp_data, args[0])));
	emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					     SECCOMP_RET_ALLOW));
}

/*
 * A linear allow-list of @rules rules with @target last (the worst case
 * of a linear list): the support syscalls first (and prctl, for a filter
 * that more filters are stacked on), then fillers.
 */
static void bpf_list(struct prog *p, long target, int rules, bool argload,
		     bool prctl_too)
{
	struct nrset used = support, first = support;
	int n = 0;
	long nr;

	if (prctl_too)
		set_add(&first, __NR_prctl);
	bpf_prologue(p);
	for (nr = 0; nr < SECCOMP_MASK_MAX_BITS; nr++) {
		if (set_has(&first, nr)) {
			bpf_allow(p, nr, false);
			set_add(&used, nr);
			n++;
		}
	}
	set_add(&used, target);
	for (nr = 0; n < rules - 1 && nr < SECCOMP_MASK_MAX_BITS; nr++) {
		if (set_has(&used, nr))
			continue;
		bpf_allow(p, nr, false);
		n++;
	}
	bpf_allow(p, target, argload);
	emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					     SECCOMP_RET_KILL_PROCESS));
}

/* The allow-list equivalent of the mask @s. */
static void bpf_from_set(struct prog *p, const struct nrset *s)
{
	long nr;

	bpf_prologue(p);
	for (nr = 0; nr < SECCOMP_MASK_MAX_BITS; nr++)
		if (set_has(s, nr))
			bpf_allow(p, nr, false);
	emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					     SECCOMP_RET_KILL_PROCESS));
}

/* ------------------------------------------------------------------ */
/* Sandboxes                                                          */

/* SB_FILTER_MASK: the filters, then the mask stacked on them. */
enum sb_mode { SB_NONE, SB_MASK, SB_FILTER, SB_FILTER_MASK };

struct sandbox {
	enum sb_mode mode;
	struct nrset mask;		/* SB_MASK, SB_FILTER_MASK */
	unsigned int action;		/* of the mask: 0 is kill the process */
	struct prog *filter[4];		/* SB_FILTER*: installed in order */
	int nfilters;
};

static bool sb_has_mask(const struct sandbox *sb)
{
	return sb->mode == SB_MASK || sb->mode == SB_FILTER_MASK;
}

static bool sb_has_filter(const struct sandbox *sb)
{
	return sb->mode == SB_FILTER || sb->mode == SB_FILTER_MASK;
}

/* nbits of a mask: up to the highest set bit, rounded up to 64 bits. */
static unsigned long mask_nbits(const struct nrset *s)
{
	return (set_nbits(s) + 63) / 64 * 64;
}

static long install_mask_action(const struct nrset *s, unsigned int action)
{
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK, s->bits, mask_nbits(s),
		     action);
}

static long install_mask(const struct nrset *s)
{
	return install_mask_action(s, 0);
}

static long install_filter(const struct prog *p)
{
	struct sock_fprog fprog = {
		.len = p->len,
		.filter = (struct sock_filter *)p->insn,
	};

	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0);
}

/* Returns 0 or the errno of the failed install. */
static int sandbox_install(const struct sandbox *sb)
{
	int i;

	if (sb->mode == SB_NONE)
		return 0;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return errno;
	if (sb->mode == SB_MASK)
		return install_mask_action(&sb->mask, sb->action) ? errno : 0;
	for (i = 0; i < sb->nfilters; i++)
		if (install_filter(sb->filter[i]))
			return errno;
	if (sb->mode == SB_FILTER_MASK &&
	    install_mask_action(&sb->mask, sb->action))
		return errno;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Children and the shared page                                       */

struct shared {
	int done;			/* set by the child when finished */
	int err;			/* errno of a failed step, or -1 */
	double value;			/* the result */
	double extra[8];
	char why[160];
};

static double median(const double *v, int n);

static struct shared *shm;
static int ncpus = 1;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	if (ncpus < 2)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void __noreturn child_spin(void)
{
	for (;;)
		__asm__ volatile("" ::: "memory");
}

/* A failed child reports and spins too: it may not be allowed to exit. */
static void __noreturn child_die(int err, const char *why)
{
	shm->err = err ? err : -1;
	snprintf(shm->why, sizeof(shm->why), "%s", why);
	__atomic_store_n(&shm->done, 1, __ATOMIC_RELEASE);
	child_spin();
}

/*
 * The end of every measuring child: publish, then spin without a single
 * syscall (the sandbox may allow none) until the parent kills it.
 */
static void __noreturn child_done(double value)
{
	shm->value = value;
	__atomic_store_n(&shm->done, 1, __ATOMIC_RELEASE);
	child_spin();
}

/*
 * Runs @fn(@arg) in a fresh child pinned to the last CPU; returns 0 and
 * the child's value in *@value, or -1 with the reason in shm->why.
 */
static int run_child(void (*fn)(const void *), const void *arg,
		     double *value, int timeout_s)
{
	unsigned long long deadline = now_ns() + timeout_s * 1000000000ULL;
	struct timespec tick = { 0, 5000000 };
	int status = 0, ret = -1;
	pid_t pid, w;

	memset(shm, 0, sizeof(*shm));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid == 0) {
		pin(ncpus - 1);
		fn(arg);
		child_die(0, "child returned");
	}
	for (;;) {
		if (__atomic_load_n(&shm->done, __ATOMIC_ACQUIRE))
			break;
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid) {
			if (__atomic_load_n(&shm->done, __ATOMIC_ACQUIRE))
				break;
			snprintf(shm->why, sizeof(shm->why),
				 "child died: %s %d before reporting",
				 WIFSIGNALED(status) ? "signal" : "exit",
				 WIFSIGNALED(status) ? WTERMSIG(status) :
				 WEXITSTATUS(status));
			return -1;
		}
		if (now_ns() > deadline) {
			snprintf(shm->why, sizeof(shm->why),
				 "timed out after %d s", timeout_s);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		/* Back off: on one CPU, every wakeup interrupts the child. */
		nanosleep(&tick, NULL);
		if (tick.tv_nsec < 80000000)
			tick.tv_nsec *= 2;
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	if (shm->err)
		return -1;
	*value = shm->value;
	ret = 0;
	return ret;
}

/* ------------------------------------------------------------------ */
/* The measurements                                                   */

static unsigned long long samples = 2000;
static int rounds = 1, installs = 3, forks = 10, memtasks = 10;
/*
 * A syscall measurement is split into batches and reports the fastest
 * one: interruptions (the tick, the parent, the host preempting an
 * emulated CPU) only ever add time. One batch when the clock is coarse.
 */
static int batches = 20;
static double clock_step_ns;

#define MAX_ITER	4096
static double iter_ns[MAX_ITER];	/* per-iteration times of a child */

struct syscall_arg {
	const struct sandbox *sb;
	long nr;
};

static long expect_of(long nr)
{
	return nr == NR_LATE ? -1 : getpid();
}

/*
 * ns per call of @nr; getpid() or mseal(0, 0, 1) = -EINVAL. A batch is
 * samples / batches calls, but at most about 1 ms worth (measured on a
 * pilot batch), so that a batch fits between two timer ticks.
 */
#define BATCH_MAX_NS	1000000ULL
static void measure_syscall(const void *a)
{
	const struct syscall_arg *arg = a;
	long nr = arg->nr, expect = expect_of(nr), ret;
	unsigned long long i, n = samples / batches, pilot = 16, t0, t1;
	double best = 0, est;
	int b, err;

	err = sandbox_install(arg->sb);
	if (err)
		child_die(err, "install failed");
	for (i = 0; i < pilot; i++)
		syscall(nr, 0, 0, 1);
	t0 = now_ns();
	for (i = 0; i < pilot; i++)
		syscall(nr, 0, 0, 1);
	est = (double)(now_ns() - t0) / pilot;
	if (clock_step_ns <= 10000 && est > 0 && n * est > BATCH_MAX_NS)
		n = BATCH_MAX_NS / est > 16 ? BATCH_MAX_NS / est : 16;
	for (i = 0; i < n / 4; i++)
		syscall(nr, 0, 0, 1);
	for (b = 0; b < batches; b++) {
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			ret = syscall(nr, 0, 0, 1);
			if (ret != expect)
				child_die(errno, "unexpected syscall result");
		}
		t1 = now_ns();
		if (!b || t1 - t0 < best)
			best = t1 - t0;
	}
	shm->extra[0] = n;
	child_done(best / n);
}

/* What a denied call returns, by the action of the mask that denies it. */
enum denied { DENY_ERRNO, DENY_TRAP, DENY_LOG };
#define DENY_ERRNO_VALUE	EDOM	/* a value mseal never returns */

struct denied_arg {
	const struct sandbox *sb;
	enum denied how;
};

static unsigned long traps;	/* SIGSYS of this thread, atomic */

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_code == 1 /* SYS_SECCOMP */ && si->si_syscall == NR_LATE)
		__atomic_add_fetch(&traps, 1, __ATOMIC_RELAXED);
}

/* Did a denied call do what @how says (@want_traps: SIGSYS so far)? */
static bool denied_ok(enum denied how, long ret, unsigned long long want_traps)
{
	switch (how) {
	case DENY_ERRNO:
		return ret == -1 && errno == DENY_ERRNO_VALUE;
	case DENY_TRAP:
		return __atomic_load_n(&traps, __ATOMIC_RELAXED) == want_traps;
	case DENY_LOG:	/* it ran: the answer it has without seccomp */
		return ret == -1 && errno == late_ran_errno;
	}
	return false;
}

/*
 * ns per denied mseal(0, 0, 1), measured as measure_syscall() measures
 * an allowed call (in a loop of its own, so that the allowed cases keep
 * exactly the loop that version 1 measured).
 */
static void measure_denied(const void *a)
{
	const struct denied_arg *arg = a;
	unsigned long long i, n = samples / batches, pilot = 16, t0, t1;
	unsigned long long want = 0;
	struct sigaction sa;
	double best = 0, est;
	int b, err;
	long ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	if (arg->how == DENY_TRAP && sigaction(SIGSYS, &sa, NULL))
		child_die(errno, "sigaction");
	err = sandbox_install(arg->sb);
	if (err)
		child_die(err, "install failed");
	for (i = 0; i < pilot; i++) {
		ret = syscall(NR_LATE, 0, 0, 1);
		if (!denied_ok(arg->how, ret, ++want))
			child_die(errno, "the denied call did not act as its action says");
	}
	t0 = now_ns();
	for (i = 0; i < pilot; i++)
		syscall(NR_LATE, 0, 0, 1);
	want += pilot;
	est = (double)(now_ns() - t0) / pilot;
	if (clock_step_ns <= 10000 && est > 0 && n * est > BATCH_MAX_NS)
		n = BATCH_MAX_NS / est > 16 ? BATCH_MAX_NS / est : 16;
	for (b = 0; b < batches; b++) {
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			ret = syscall(NR_LATE, 0, 0, 1);
			if (!denied_ok(arg->how, ret, ++want))
				child_die(errno, "the denied call did not act as its action says");
		}
		t1 = now_ns();
		if (!b || t1 - t0 < best)
			best = t1 - t0;
	}
	shm->extra[0] = n;
	child_done(best / n);
}

/* ns for one install, the first one of a fresh child */
static void measure_install_once(const void *a)
{
	const struct sandbox *sb = a;
	unsigned long long t0, t1;
	long ret;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		child_die(errno, "no_new_privs");
	t0 = now_ns();
	if (sb->mode == SB_MASK)
		ret = install_mask(&sb->mask);
	else
		ret = install_filter(sb->filter[0]);
	t1 = now_ns();
	if (ret)
		child_die(errno, "install failed");
	child_done(t1 - t0);
}

/*
 * ns per install, repeated in one process: the mask is tightened with
 * itself (a new copy each time), the filter is stacked once more each
 * time (the stack grows: 32 filters of 100 rules stay below the kernel's
 * limit of instructions per path).
 */
#define REPEAT_INSTALLS	32
static void measure_install_repeat(const void *a)
{
	const struct sandbox *sb = a;
	unsigned long long t0;
	int i, n = REPEAT_INSTALLS;
	long ret;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		child_die(errno, "no_new_privs");
	if (sb->mode == SB_MASK && install_mask(&sb->mask))
		child_die(errno, "first install failed");
	for (i = 0; i < n; i++) {
		t0 = now_ns();
		if (sb->mode == SB_MASK)
			ret = install_mask(&sb->mask);
		else
			ret = install_filter(sb->filter[0]);
		iter_ns[i] = now_ns() - t0;
		if (ret)
			child_die(errno, "install failed");
	}
	child_done(median(iter_ns, n));
}

struct fork_arg {
	const struct sandbox *sb;
	bool die;	/* the child makes a denied call instead of _exit() */
	bool nodump;	/* no core dump (RLIMIT_CORE 0, not dumpable) */
};

/*
 * ns per fork + _exit + waitpid with the sandbox active (median); with
 * @die, fork + a denied mseal(0, 0, 1) that kills the child + waitpid.
 */
static void measure_fork(const void *a)
{
	const struct fork_arg *arg = a;
	const struct rlimit nocore = { 0, 0 };
	unsigned long long t0;
	int i, err, status;
	pid_t pid;

	if (arg->nodump && (setrlimit(RLIMIT_CORE, &nocore) ||
			    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)))
		child_die(errno, "no core dumps");
	err = sandbox_install(arg->sb);
	if (err)
		child_die(err, "install failed");
	for (i = -3; i < forks; i++) {
		t0 = now_ns();
		pid = fork();
		if (pid < 0)
			child_die(errno, "fork");
		if (pid == 0) {
			if (arg->die)
				syscall(NR_LATE, 0, 0, 1);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid)
			child_die(errno, "waitpid");
		if (arg->die ? !WIFSIGNALED(status) || WTERMSIG(status) != SIGSYS :
			       !WIFEXITED(status))
			child_die(0, arg->die ? "the denied call did not kill the grandchild" :
				   "grandchild did not exit");
		if (i >= 0)
			iter_ns[i] = now_ns() - t0;
	}
	child_done(median(iter_ns, forks));
}

/* ------------------------------------------------------------------ */
/* TSYNC                                                              */

struct tsync_arg {
	const struct sandbox *sb;
	int threads;		/* in the process, the caller included */
};

static uint32_t tsync_word;
static int tsync_started;

static void *tsync_thread(void *a)
{
	(void)a;
	__atomic_add_fetch(&tsync_started, 1, __ATOMIC_RELEASE);
	for (;;)	/* futex is in the mask: a spurious wakeup waits again */
		syscall(__NR_futex, &tsync_word, FUTEX_WAIT, 0, NULL, NULL, 0);
	return NULL;
}

/*
 * ns for one TSYNC install by the first thread of a fresh process with
 * @threads threads (the others blocked in futex): the mask through
 * seccomp(SECCOMP_SET_MODE_MASK, SECCOMP_MASK_FLAG_TSYNC), the filter
 * through seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC).
 */
static void measure_tsync(const void *a)
{
	const struct tsync_arg *arg = a;
	const struct sandbox *sb = arg->sb;
	struct timespec settle = { 0, 20000000 };
	struct seccomp_mask m = {
		.arch = SELF_ARCH,
		.nbits = mask_nbits(&sb->mask),
		.bits = (uintptr_t)sb->mask.bits,
	};
	struct seccomp_mask_set set = {
		.size = sizeof(struct seccomp_mask_set),
		.nr_masks = 1,
		.action = sb->action,
		.masks = (uintptr_t)&m,
	};
	/* Small stacks, but never below the libc's minimum (128 KiB on arm64). */
	long stack = sysconf(_SC_THREAD_STACK_MIN) > 65536 ?
		     sysconf(_SC_THREAD_STACK_MIN) : 65536;
	struct sock_fprog fprog;
	unsigned long long t0, t1;
	pthread_attr_t attr;
	pthread_t t;
	long ret;
	int i;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		child_die(errno, "no_new_privs");
	if (pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, stack))
		child_die(0, "pthread_attr");
	for (i = 1; i < arg->threads; i++)
		if (pthread_create(&t, &attr, tsync_thread, NULL))
			child_die(0, "pthread_create");
	while (__atomic_load_n(&tsync_started, __ATOMIC_ACQUIRE) < arg->threads - 1)
		sched_yield();
	nanosleep(&settle, NULL);	/* let them block in futex */
	if (sb_has_mask(sb)) {
		t0 = now_ns();
		ret = syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK,
			      SECCOMP_MASK_FLAG_TSYNC, &set);
		t1 = now_ns();
	} else {
		fprog.len = sb->filter[0]->len;
		fprog.filter = (struct sock_filter *)sb->filter[0]->insn;
		t0 = now_ns();
		ret = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
			      SECCOMP_FILTER_FLAG_TSYNC, &fprog);
		t1 = now_ns();
	}
	if (ret > 0)
		child_die(0, "TSYNC failed on a thread (returned its TID)");
	if (ret)
		child_die(errno, "TSYNC install failed");
	child_done(t1 - t0);
}

/* ------------------------------------------------------------------ */
/* The refcount's cache line                                          */

#define MAX_READERS	16

struct cacheline_arg {
	const struct sandbox *sb;
	int readers;
	bool churn;
};

static unsigned long long cl_calls = 2000;
static int cl_ready, cl_go, cl_finished;
static double cl_ns[MAX_READERS];

static void *cl_reader(void *a)
{
	int idx = (int)(intptr_t)a;
	unsigned long long i, t0;
	pid_t pid = getpid();

	pin(ncpus > 1 ? 1 + idx % (ncpus - 1) : 0);
	__atomic_add_fetch(&cl_ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&cl_go, __ATOMIC_ACQUIRE))
		;
	t0 = now_ns();
	for (i = 0; i < cl_calls; i++)
		if (syscall(__NR_getpid) != pid)
			child_die(errno, "getpid?");
	cl_ns[idx] = (double)(now_ns() - t0) / cl_calls;
	__atomic_add_fetch(&cl_finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *cl_nothing(void *a)
{
	return a;
}

/*
 * ns per getpid of @readers threads (the mean of each one's mean) on the
 * CPUs but the first, while the first thread, on CPU 0, creates and joins
 * threads (@churn) or waits for them. extra[1]: the threads created.
 */
static void measure_cacheline(const void *a)
{
	const struct cacheline_arg *arg = a;
	pthread_t r[MAX_READERS], t;
	unsigned long long created = 0;
	double sum = 0;
	int i, err;

	pin(0);
	err = sandbox_install(arg->sb);
	if (err)
		child_die(err, "install failed");
	for (i = 0; i < arg->readers; i++)
		if (pthread_create(&r[i], NULL, cl_reader, (void *)(intptr_t)i))
			child_die(0, "pthread_create");
	while (__atomic_load_n(&cl_ready, __ATOMIC_ACQUIRE) < arg->readers)
		sched_yield();
	__atomic_store_n(&cl_go, 1, __ATOMIC_RELEASE);
	while (arg->churn &&
	       __atomic_load_n(&cl_finished, __ATOMIC_ACQUIRE) < arg->readers) {
		if (pthread_create(&t, NULL, cl_nothing, NULL) ||
		    pthread_join(t, NULL))
			child_die(0, "create/join");
		created++;
	}
	for (i = 0; i < arg->readers; i++) {
		pthread_join(r[i], NULL);
		sum += cl_ns[i];
	}
	shm->extra[1] = created;
	child_done(sum / arg->readers);
}

/* ------------------------------------------------------------------ */
/* Kernel memory per sandboxed task                                   */

struct meminfo {
	long long slab, sunreclaim, vmalloc, percpu, used;	/* bytes */
	long long masks;	/* seccomp_allowlist objects (slabinfo), or -1 */
};

static void read_meminfo(struct meminfo *m)
{
	char line[256], name[64];
	long long v, total = 0, free_ = 0;
	FILE *f;

	memset(m, 0, sizeof(*m));
	m->masks = -1;
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63[^:]: %lld", name, &v) != 2)
			continue;
		v *= 1024;
		if (!strcmp(name, "Slab"))
			m->slab = v;
		else if (!strcmp(name, "SUnreclaim"))
			m->sunreclaim = v;
		else if (!strcmp(name, "VmallocUsed"))
			m->vmalloc = v;
		else if (!strcmp(name, "Percpu"))
			m->percpu = v;
		else if (!strcmp(name, "MemTotal"))
			total = v;
		else if (!strcmp(name, "MemFree"))
			free_ = v;
	}
	fclose(f);
	m->used = total - free_;
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		long long active, num, objsize;

		if (sscanf(line, "seccomp_allowlist %lld %lld %lld",
			   &active, &num, &objsize) == 3 ||
		    sscanf(line, "seccomp_masks %lld %lld %lld",
			   &active, &num, &objsize) == 3)
			m->masks = active * objsize;
	}
	fclose(f);
}

/*
 * Starts @memtasks children and lets them settle; then each installs @sb
 * itself (SB_NONE: does nothing, the control) and blocks again. Returns
 * the growth of kernel memory between the two states per child (bytes)
 * in @out: [0] used (MemTotal - MemFree), [1] Slab, [2] SUnreclaim,
 * [3] VmallocUsed, [4] Percpu, [5] seccomp_masks slab (-1: no slabinfo).
 * Only the sandboxes differ between the two readings: the tasks
 * themselves already exist.
 */
static int measure_memory(const struct sandbox *sb, double out[6])
{
	struct timespec settle = { 0, 200000000 };
	int ready[2], go[2], end[2], i, n = 0, err = 0, status;
	struct meminfo before, after;
	pid_t *pids;
	char c;

	pids = calloc(memtasks, sizeof(*pids));
	if (!pids || pipe(ready) || pipe(go) || pipe(end))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	for (i = 0; i < memtasks; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			break;
		if (pids[i] == 0) {
			close(ready[0]);
			close(go[1]);
			close(end[1]);
			c = 'R';
			if (write(ready[1], &c, 1) != 1)
				_exit(1);
			/* 'I': install and report; then wait for EOF on end. */
			if (read(go[0], &c, 1) != 1 || c != 'I')
				_exit(1);
			c = sandbox_install(sb) ? 'E' : 'R';
			if (write(ready[1], &c, 1) != 1)
				_exit(1);
			if (read(end[0], &c, 1) < 0)
				_exit(1);
			_exit(0);
		}
		n++;
	}
	close(ready[1]);
	close(go[0]);
	close(end[0]);
	for (i = 0; i < n; i++)
		if (read(ready[0], &c, 1) != 1 || c != 'R')
			err = 1;
	/* Let deferred (RCU) frees of earlier measurements finish. */
	nanosleep(&settle, NULL);
	read_meminfo(&before);
	c = 'I';
	for (i = 0; i < n; i++)
		if (write(go[1], &c, 1) != 1)
			err = 1;
	for (i = 0; i < n; i++)
		if (read(ready[0], &c, 1) != 1 || c != 'R')
			err = 1;
	read_meminfo(&after);
	close(end[1]);
	close(go[1]);
	close(ready[0]);
	for (i = 0; i < n; i++)
		waitpid(pids[i], &status, 0);
	free(pids);
	if (err || n != memtasks)
		return -1;
	out[0] = (double)(after.used - before.used) / n;
	out[1] = (double)(after.slab - before.slab) / n;
	out[2] = (double)(after.sunreclaim - before.sunreclaim) / n;
	out[3] = (double)(after.vmalloc - before.vmalloc) / n;
	out[4] = (double)(after.percpu - before.percpu) / n;
	out[5] = before.masks < 0 ? -1 :
		 (double)(after.masks - before.masks) / n;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Cases                                                              */

enum kind { K_SYSCALL, K_INSTALL_ONCE, K_INSTALL_REPEAT, K_FORK, K_MEMORY,
	    K_DENIED, K_TSYNC, K_CACHELINE };

static const char *const mem_fields[6] = {
	"used", "slab", "sunreclaim", "vmalloc", "percpu", "seccomp_masks",
};

struct bcase {
	char name[64];
	const char *group;	/* syscall masksize chart install fork memory */
	const char *sys;	/* measured syscall */
	long nr;
	const char *mode;	/* none mask filter-cached filter-arg ... */
	int param;		/* rules, mask bits or filters */
	enum kind kind;
	struct sandbox sb;
	enum denied how;	/* K_DENIED */
	bool die, nodump;	/* K_FORK */
	bool churn;		/* K_CACHELINE */
	const char *unit;
	double v[MAX_ROUNDS];
	double aux[MAX_ROUNDS];	/* K_CACHELINE: threads created */
	double mem[MAX_ROUNDS][6];
	int n;
	unsigned long long calls;	/* K_SYSCALL: calls per batch */
	bool skipped, failed;
	char why[256];
};

static struct bcase cases[MAX_CASES];
static int ncases;
static const char *groups =
	"syscall,masksize,chart,install,fork,memory,stack,action,tsync,cacheline";

static bool group_on(const char *g)
{
	const char *p = groups;
	size_t l = strlen(g);

	while ((p = strstr(p, g))) {
		if ((p == groups || p[-1] == ',') && (p[l] == ',' || !p[l]))
			return true;
		p += l;
	}
	return false;
}

static struct prog *new_prog(void)
{
	struct prog *p = calloc(1, sizeof(*p));

	if (!p)
		ksft_exit_fail_msg("out of memory\n");
	return p;
}

static struct bcase *add_case(const char *group, const char *sys, long nr,
			      const char *mode, int param, enum kind kind)
{
	struct bcase *c;

	if (!group_on(group))
		return NULL;
	if (ncases >= MAX_CASES)
		ksft_exit_fail_msg("too many cases\n");
	c = &cases[ncases++];
	c->group = group;
	c->sys = sys;
	c->nr = nr;
	c->mode = mode;
	c->param = param;
	c->kind = kind;
	c->unit = kind == K_MEMORY ? "bytes/task" :
		  kind == K_SYSCALL || kind == K_DENIED ||
		  kind == K_CACHELINE ? "ns/call" :
		  kind == K_FORK ? "ns/fork" : "ns/install";
	if (param)
		snprintf(c->name, sizeof(c->name), "%s/%s/%s-%d", group, sys,
			 mode, param);
	else
		snprintf(c->name, sizeof(c->name), "%s/%s/%s", group, sys,
			 mode);
	return c;
}

/* A mask of @nbits syscalls containing @nr (0: all bits). */
static void sb_mask(struct sandbox *sb, long nr, int nbits)
{
	memset(sb, 0, sizeof(*sb));
	sb->mode = SB_MASK;
	if (!nbits) {
		memset(sb->mask.bits, 0xff, sizeof(sb->mask.bits));
		sb->mask.count = SECCOMP_MASK_MAX_BITS;
		return;
	}
	if (nbits == 100) {
		set100(&sb->mask, nr);
		return;
	}
	sb->mask = support;
	set_add(&sb->mask, nr);
	set_fill(&sb->mask, nbits);
}

/*
 * @nfilters filters of @rules rules; all but the last one installed also
 * allow prctl, which installs the next one.
 */
static void sb_filters(struct sandbox *sb, long nr, int rules, bool argload,
		       int nfilters)
{
	int i;

	memset(sb, 0, sizeof(*sb));
	sb->mode = SB_FILTER;
	sb->nfilters = nfilters;
	if (nfilters > 1) {
		sb->filter[0] = new_prog();
		bpf_list(sb->filter[0], nr, rules, argload, true);
	}
	for (i = 1; i < nfilters - 1; i++)
		sb->filter[i] = sb->filter[0];
	sb->filter[nfilters - 1] = new_prog();
	bpf_list(sb->filter[nfilters - 1], nr, rules, argload, false);
}

static void sb_filter_set(struct sandbox *sb, const struct nrset *s,
			  int nfilters)
{
	int i;

	memset(sb, 0, sizeof(*sb));
	sb->mode = SB_FILTER;
	sb->nfilters = nfilters;
	sb->filter[0] = new_prog();
	bpf_from_set(sb->filter[0], s);
	for (i = 1; i < nfilters; i++)
		sb->filter[i] = sb->filter[0];
}

static void add_syscall_cases(const char *sys, long nr)
{
	struct bcase *c;

	c = add_case("syscall", sys, nr, "none", 0, K_SYSCALL);
	if (c)
		c->sb.mode = SB_NONE;
	c = add_case("syscall", sys, nr, "mask", 0, K_SYSCALL);
	if (c)
		sb_mask(&c->sb, nr, 1);
	c = add_case("syscall", sys, nr, "filter-cached", 0, K_SYSCALL);
	if (c)
		sb_filters(&c->sb, nr, 1, false, 1);
	c = add_case("syscall", sys, nr, "filter-arg", 0, K_SYSCALL);
	if (c)
		sb_filters(&c->sb, nr, 1, true, 1);
	c = add_case("syscall", sys, nr, "linear300-cached", 0, K_SYSCALL);
	if (c)
		sb_filters(&c->sb, nr, 300, false, 1);
	c = add_case("syscall", sys, nr, "linear300-arg", 0, K_SYSCALL);
	if (c)
		sb_filters(&c->sb, nr, 300, true, 1);
	c = add_case("syscall", sys, nr, "stack4-cached", 0, K_SYSCALL);
	if (c)
		sb_filters(&c->sb, nr, 1, false, 4);
	c = add_case("syscall", sys, nr, "stack4-arg", 0, K_SYSCALL);
	if (c)
		sb_filters(&c->sb, nr, 1, true, 4);
}

/* A filter that allows @nr (and prctl, which installs the mask next). */
static void sb_filter_prctl(struct sandbox *sb, long nr, bool argload)
{
	memset(sb, 0, sizeof(*sb));
	sb->mode = SB_FILTER;
	sb->nfilters = 1;
	sb->filter[0] = new_prog();
	bpf_list(sb->filter[0], nr, 1, argload, true);
}

/*
 * The stack group: the filter alone, and a mask of the measured syscall
 * (and the clock, if the clock is a syscall) installed on top of it.
 */
static void add_stack_cases(const char *sys, long nr)
{
	static const char *const names[2][2] = {
		{ "filter-cached", "mask-on-filter-cached" },
		{ "filter-arg", "mask-on-filter-arg" },
	};
	struct bcase *c;
	int arg;

	for (arg = 0; arg < 2; arg++) {
		c = add_case("stack", sys, nr, names[arg][0], 0, K_SYSCALL);
		if (c)
			sb_filter_prctl(&c->sb, nr, arg);
		c = add_case("stack", sys, nr, names[arg][1], 0, K_SYSCALL);
		if (c) {
			sb_filter_prctl(&c->sb, nr, arg);
			c->sb.mode = SB_FILTER_MASK;
			c->sb.mask = support;
			set_add(&c->sb.mask, nr);
		}
	}
}

/*
 * The action group: a mask that denies mseal(0, 0, 1) with each action
 * (it allows rt_sigreturn, for the trap handler); the kill action as
 * fork + die against fork + _exit, both without core dumps.
 */
static void add_action_cases(void)
{
	static const struct {
		const char *name;
		enum denied how;
		unsigned int action;
	} acts[] = {
		{ "errno", DENY_ERRNO, SECCOMP_RET_ERRNO | DENY_ERRNO_VALUE },
		{ "trap", DENY_TRAP, SECCOMP_RET_TRAP },
		{ "log", DENY_LOG, SECCOMP_RET_LOG },
	};
	struct nrset s100;
	struct bcase *c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(acts); i++) {
		c = add_case("action", "mseal", NR_LATE, acts[i].name, 0, K_DENIED);
		if (!c)
			continue;
		c->how = acts[i].how;
		c->sb.mode = SB_MASK;
		c->sb.action = acts[i].action;
		c->sb.mask = support;
		set_add(&c->sb.mask, __NR_rt_sigreturn);
#ifdef __NR_sigreturn
		set_add(&c->sb.mask, __NR_sigreturn);
#endif
	}
	set100(&s100, __NR_getpid);
	for (i = 0; i < 2; i++) {
		c = add_case("action", "set100", 0, i ? "fork-kill" : "fork-exit", 0, K_FORK);
		if (!c)
			continue;
		c->sb.mode = SB_MASK;
		c->sb.mask = s100;
		c->die = i;
		c->nodump = true;
	}
}

/* The tsync group: 1, 8 and 64 threads; the mask allows futex. */
static void add_tsync_cases(void)
{
	static const int threads[] = { 1, 8, 64 };
	struct nrset s;
	struct bcase *c;
	unsigned int i;

	set100(&s, __NR_futex);
	for (i = 0; i < ARRAY_SIZE(threads); i++) {
		c = add_case("tsync", "set100", 0, "mask", threads[i], K_TSYNC);
		if (c) {
			c->sb.mode = SB_MASK;
			c->sb.mask = s;
		}
		c = add_case("tsync", "set100", 0, "filter", threads[i], K_TSYNC);
		if (c)
			sb_filter_set(&c->sb, &s, 1);
	}
}

/* The cacheline group: one reader per CPU but the first (at least one). */
static void add_cacheline_cases(void)
{
	int readers = ncpus > 1 ? ncpus - 1 : 1;
	struct bcase *c;
	int churn;

	if (readers > MAX_READERS)
		readers = MAX_READERS;
	for (churn = 0; churn < 2; churn++) {
		c = add_case("cacheline", "getpid", __NR_getpid,
			     churn ? "churn" : "quiet", readers, K_CACHELINE);
		if (c) {
			sb_mask(&c->sb, __NR_getpid, 0);
			c->churn = churn;
		}
	}
}

static void build_cases(void)
{
	static const int chart_rules[] = { 10, 30, 100 };
	struct nrset s100;
	struct bcase *c;
	unsigned int i;

	add_syscall_cases("getpid", __NR_getpid);
	add_syscall_cases("mseal", NR_LATE);

	/* Mask size: 1 is the syscall case above; 100 and all here. */
	c = add_case("masksize", "getpid", __NR_getpid, "mask", 100, K_SYSCALL);
	if (c)
		sb_mask(&c->sb, __NR_getpid, 100);
	c = add_case("masksize", "getpid", __NR_getpid, "mask", SECCOMP_MASK_MAX_BITS, K_SYSCALL);
	if (c)
		sb_mask(&c->sb, __NR_getpid, 0);

	/* Filter length, cache defeated (1 and 300 rules are above). */
	for (i = 0; i < ARRAY_SIZE(chart_rules); i++) {
		c = add_case("chart", "getpid", __NR_getpid, "linear-arg", chart_rules[i],
			     K_SYSCALL);
		if (c)
			sb_filters(&c->sb, __NR_getpid, chart_rules[i], true, 1);
	}

	set100(&s100, __NR_getpid);
	c = add_case("install", "set100", 0, "mask", 0, K_INSTALL_ONCE);
	if (c) {
		c->sb.mode = SB_MASK;
		c->sb.mask = s100;
	}
	c = add_case("install", "set100", 0, "filter", 0, K_INSTALL_ONCE);
	if (c)
		sb_filter_set(&c->sb, &s100, 1);
	c = add_case("install", "set100", 0, "mask-repeat", 0, K_INSTALL_REPEAT);
	if (c) {
		c->sb.mode = SB_MASK;
		c->sb.mask = s100;
	}
	c = add_case("install", "set100", 0, "filter-repeat", 0, K_INSTALL_REPEAT);
	if (c)
		sb_filter_set(&c->sb, &s100, 1);

	c = add_case("fork", "set100", 0, "none", 0, K_FORK);
	if (c)
		c->sb.mode = SB_NONE;
	c = add_case("fork", "set100", 0, "mask", 0, K_FORK);
	if (c) {
		c->sb.mode = SB_MASK;
		c->sb.mask = s100;
	}
	c = add_case("fork", "set100", 0, "filter", 0, K_FORK);
	if (c)
		sb_filter_set(&c->sb, &s100, 1);
	c = add_case("fork", "set100", 0, "stack4", 0, K_FORK);
	if (c)
		sb_filter_set(&c->sb, &s100, 4);

	c = add_case("memory", "set100", 0, "none", 0, K_MEMORY);
	if (c)
		c->sb.mode = SB_NONE;
	c = add_case("memory", "set100", 0, "mask", 0, K_MEMORY);
	if (c) {
		c->sb.mode = SB_MASK;
		c->sb.mask = s100;
	}
	c = add_case("memory", "set100", 0, "filter", 0, K_MEMORY);
	if (c)
		sb_filter_set(&c->sb, &s100, 1);

	add_stack_cases("getpid", __NR_getpid);
	add_action_cases();
	add_tsync_cases();
	add_cacheline_cases();
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	static double s[MAX_ITER];
	int i;

	if (n <= 0)
		return 0;
	for (i = 0; i < n; i++)
		s[i] = v[i];
	qsort(s, n, sizeof(s[0]), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static void run_case(struct bcase *c)
{
	struct syscall_arg sa = { &c->sb, c->nr };
	struct denied_arg da = { &c->sb, c->how };
	struct fork_arg fa = { &c->sb, c->die, c->nodump };
	struct tsync_arg ta = { &c->sb, c->param };
	struct cacheline_arg ca = { &c->sb, c->param, c->churn };
	static double vals[1024];
	double v = 0;
	int i, k = 0, ret = 0;

	if (c->failed || c->skipped || c->n >= MAX_ROUNDS)
		return;
	switch (c->kind) {
	case K_SYSCALL:
		ret = run_child(measure_syscall, &sa, &v, 600);
		if (!ret)
			c->calls = shm->extra[0];
		break;
	case K_DENIED:
		ret = run_child(measure_denied, &da, &v, 600);
		if (!ret)
			c->calls = shm->extra[0];
		break;
	case K_FORK:
		ret = run_child(measure_fork, &fa, &v, 600);
		break;
	case K_TSYNC:
		for (i = 0; i < installs && i < 1024 && !ret; i++) {
			ret = run_child(measure_tsync, &ta, &vals[k], 120);
			if (!ret)
				k++;
		}
		v = median(vals, k);
		break;
	case K_CACHELINE:
		ret = run_child(measure_cacheline, &ca, &v, 600);
		if (!ret)
			c->aux[c->n] = shm->extra[1];
		break;
	case K_INSTALL_REPEAT:
		ret = run_child(measure_install_repeat, &c->sb, &v, 600);
		break;
	case K_INSTALL_ONCE:
		for (i = 0; i < installs && i < 1024 && !ret; i++) {
			ret = run_child(measure_install_once, &c->sb, &vals[k], 60);
			if (!ret)
				k++;
		}
		v = median(vals, k);
		break;
	case K_MEMORY:
		ret = measure_memory(&c->sb, c->mem[c->n]);
		if (ret)
			snprintf(shm->why, sizeof(shm->why),
				 "a task could not install its sandbox");
		v = c->mem[c->n][0];
		break;
	}
	if (ret) {
		c->failed = true;
		snprintf(c->why, sizeof(c->why), "%s%s%s", shm->why,
			 shm->err > 0 ? ": " : "",
			 shm->err > 0 ? strerror(shm->err) : "");
		return;
	}
	c->v[c->n++] = v;
}

/* ------------------------------------------------------------------ */
/* Environment                                                        */

static void probe_vdso_clock(void)
{
	struct sock_filter f[8];
	struct sock_fprog prog = { .filter = f };
	struct nrset clk = { 0 };
	int n = 0, status;
	long nr;
	pid_t pid;

	/* clock_gettime syscalls fail with EPERM: only the vDSO succeeds. */
	add_clock(&clk);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		 offsetof(struct seccomp_data, nr));
	for (nr = 0; nr < SECCOMP_MASK_MAX_BITS; nr++) {
		if (!set_has(&clk, nr))
			continue;
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			 nr, 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
			 SECCOMP_RET_ERRNO | EPERM);
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = n;

	memset(shm, 0, sizeof(*shm));
	pid = fork();
	if (pid == 0) {
		struct timespec ts;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(2);
		_exit(clock_gettime(CLOCK_MONOTONIC, &ts) ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	vdso_clock = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	memset(&support, 0, sizeof(support));
	if (!vdso_clock)
		add_clock(&support);
}

/* 0 when this kernel has the mask mode, else the errno of an install. */
static int probe_mask(void)
{
	static const uint8_t all[MASK_BYTES] = { [0 ... MASK_BYTES - 1] = 0xff };
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			_exit(errno);
		_exit(prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK, all,
			    SECCOMP_MASK_MAX_BITS, 0) ? errno : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static void cpu_model(char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			snprintf(buf, len, "%s", strchr(line, ':') + 2);
			buf[strcspn(buf, "\n")] = 0;
			break;
		}
	}
	fclose(f);
}

/* The smallest step of CLOCK_MONOTONIC that we can observe, in ns. */
static double clock_step(void)
{
	unsigned long long t0, t1, best = ~0ULL;
	int i;

	for (i = 0; i < 5; i++) {
		t0 = now_ns();
		while ((t1 = now_ns()) == t0)
			;
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	return best;
}

static unsigned long long calibrate(unsigned long long ms)
{
	unsigned long long n = 0, step = 997, t0 = now_ns(), t;
	pid_t pid = getpid();
	unsigned long long i;

	do {
		for (i = 0; i < step; i++)
			if (syscall(__NR_getpid) != pid)
				ksft_exit_fail_msg("getpid?\n");
		n += step;
		t = now_ns() - t0;
	} while (t < ms * 1000000ULL / 4);
	return n * (ms * 1000000ULL) / t;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

#define JSON_CASE_FMT ", \"group\": \"%s\", \"syscall\": \"%s\", \"nr\": %ld, \"mode\": \"%s\", \"param\": %d, \"unit\": \"%s\", "

static void write_json(const char *path, const struct utsname *u,
		       const char *model, const char *csrc, double res_ns,
		       double secs)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int i, r, k;

	if (!f) {
		ksft_print_msg("cannot write %s: %s\n", path, strerror(errno));
		return;
	}
	fprintf(f, "{\n  \"program\": \"seccomp_mask_benchmark\",\n");
	fprintf(f, "  \"abi\": ");
	json_str(f, ABI_NAME);
	fprintf(f, ",\n  \"arch\": \"0x%x\",\n  \"kernel\": ", SELF_ARCH);
	json_str(f, u->release);
	fprintf(f, ",\n  \"uname\": ");
	{
		char un[512];

		snprintf(un, sizeof(un), "%s %s %s %s", u->sysname,
			 u->release, u->version, u->machine);
		json_str(f, un);
	}
	fprintf(f, ",\n  \"cpu_model\": ");
	json_str(f, model);
	fprintf(f, ",\n  \"cpus\": %d,\n  \"clocksource\": ", ncpus);
	json_str(f, csrc);
	fprintf(f, ",\n  \"clock_getres_ns\": %.0f,\n", res_ns);
	fprintf(f, "  \"clock_step_ns\": %.0f,\n", clock_step_ns);
	fprintf(f, "  \"batches\": %d,\n", batches);
	fprintf(f, "  \"vdso_clock\": %s,\n", vdso_clock ? "true" : "false");
	fprintf(f, "  \"samples\": %llu,\n  \"rounds\": %d,\n", samples, rounds);
	fprintf(f, "  \"installs_per_round\": %d,\n  \"repeat_installs\": %d,\n",
		installs, REPEAT_INSTALLS);
	fprintf(f, "  \"forks\": %d,\n  \"memory_tasks\": %d,\n", forks, memtasks);
	fprintf(f, "  \"cacheline_calls\": %llu,\n", cl_calls);
	fprintf(f, "  \"late_syscall\": {\"name\": \"mseal\", \"nr\": %d},\n",
		NR_LATE);
	fprintf(f, "  \"seconds\": %.1f,\n  \"cases\": [\n", secs);
	for (i = 0; i < ncases; i++) {
		struct bcase *c = &cases[i];

		fprintf(f, "    {\"name\": ");
		json_str(f, c->name);
		fprintf(f, JSON_CASE_FMT, c->group, c->sys, c->nr, c->mode, c->param, c->unit);
		if (c->kind == K_SYSCALL || c->kind == K_DENIED)
			fprintf(f, "\"calls_per_batch\": %llu, ", c->calls);
		if (c->kind == K_CACHELINE)
			fprintf(f, "\"calls_per_thread\": %llu, ", cl_calls);
		if (sb_has_mask(&c->sb))
			fprintf(f, "\"mask_bits_set\": %d, \"mask_action\": \"0x%x\", ",
				c->sb.mask.count, c->sb.action);
		if (sb_has_filter(&c->sb))
			fprintf(f, "\"filters\": %d, \"filter_insns\": %d, ",
				c->sb.nfilters, c->sb.filter[c->sb.nfilters - 1]->len);
		fprintf(f, "\"status\": \"%s\", ", c->failed ? "fail" :
			c->skipped ? "skip" : "ok");
		if (c->failed || c->skipped) {
			fprintf(f, "\"why\": ");
			json_str(f, c->why);
			fprintf(f, ", ");
		}
		fprintf(f, "\"values\": [");
		for (r = 0; r < c->n; r++)
			fprintf(f, "%s%.3f", r ? ", " : "", c->v[r]);
		fprintf(f, "]");
		if (c->kind == K_CACHELINE) {
			fprintf(f, ", \"threads_created\": [");
			for (r = 0; r < c->n; r++)
				fprintf(f, "%s%.0f", r ? ", " : "", c->aux[r]);
			fprintf(f, "]");
		}
		if (c->kind == K_MEMORY) {
			fprintf(f, ", \"memory\": {");
			for (k = 0; k < 6; k++) {
				fprintf(f, "%s\"%s\": [", k ? ", " : "",
					mem_fields[k]);
				for (r = 0; r < c->n; r++)
					fprintf(f, "%s%.1f", r ? ", " : "",
						c->mem[r][k]);
				fprintf(f, "]");
			}
			fprintf(f, "}");
		}
		fprintf(f, "}%s\n", i + 1 < ncases ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
	if (f != stdout)
		fclose(f);
}

static double case_min(const struct bcase *c)
{
	double m = c->v[0];
	int r;

	for (r = 1; r < c->n; r++)
		if (c->v[r] < m)
			m = c->v[r];
	return m;
}

static double case_max(const struct bcase *c)
{
	double m = c->v[0];
	int r;

	for (r = 1; r < c->n; r++)
		if (c->v[r] > m)
			m = c->v[r];
	return m;
}

#define PASS_FMT "%s: %llu syscalls per measurement (fastest of %d batches), %d round(s), %d installs, %d forks, %d tasks\n"
#define USAGE_FMT "usage: %s [-t MS | -s SAMPLES] [-r ROUNDS] [-k INSTALLS] [-f FORKS] [-m TASKS] [-c CALLS] [-g GROUPS] [-j FILE] | [SAMPLES]\n"

static void usage(const char *argv0)
{
	fprintf(stderr, USAGE_FMT, argv0);
	exit(KSFT_FAIL);
}

int main(int argc, char *argv[])
{
	unsigned long long calib_ms = 0, t_start;
	const char *json = NULL;
	char model[128], csrc[64];
	struct timespec res;
	struct utsname u;
	bool quick = argc == 1;
	const struct opt opts[] = {
		{ 't', OPT_ULL, &calib_ms }, { 's', OPT_ULL, &samples },
		{ 'r', OPT_INT, &rounds }, { 'b', OPT_INT, &batches },
		{ 'k', OPT_INT, &installs }, { 'f', OPT_INT, &forks },
		{ 'm', OPT_INT, &memtasks }, { 'c', OPT_ULL, &cl_calls },
		{ 'g', OPT_STR, &groups }, { 'j', OPT_STR, &json },
	};
	int r, i, mask_err;
	bool required;

	setbuf(stdout, NULL);
	if (opts_parse(argc, argv, opts, ARRAY_SIZE(opts)))
		usage(argv[0]);
	if (optind < argc)
		samples = strtoull(argv[optind++], NULL, 0);
	if (optind < argc || !samples || rounds < 1 || rounds > MAX_ROUNDS ||
	    batches < 1 || installs < 1 || installs > 1024 || forks < 1 || forks > MAX_ITER ||
	    memtasks < 1 || !cl_calls)
		usage(argv[0]);

	shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	/* No seccomp mode yet: the errno of the late call when it runs. */
	if (syscall(NR_LATE, 0, 0, 1) != -1)
		ksft_exit_fail_msg("mseal(0, 0, 1) succeeded\n");
	late_ran_errno = errno;
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus < 1)
		ncpus = 1;
	pin(0);

	uname(&u);
	cpu_model(model, sizeof(model));
	read_first_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			csrc, sizeof(csrc));
	clock_getres(CLOCK_MONOTONIC, &res);
	probe_vdso_clock();
	clock_step_ns = clock_step();
	if (clock_step_ns > 10000)
		batches = 1;
	if (calib_ms)
		samples = calibrate(calib_ms);
	if (samples < (unsigned long long)batches)
		batches = 1;
	build_cases();
	mask_err = probe_mask();
	/* The harness sets this when the kernel has CONFIG_SECCOMP_MASK=y. */
	required = getenv("SECCOMP_MASK_REQUIRED") &&
		   !strcmp(getenv("SECCOMP_MASK_REQUIRED"), "1");
	for (i = 0; mask_err && i < ncases; i++) {
		if (sb_has_mask(&cases[i].sb)) {
			const char *reason = mask_err > 0 ? strerror(mask_err) : "?";

			/* Required: a missing mask mode fails, never skips. */
			if (required)
				cases[i].failed = true;
			else
				cases[i].skipped = true;
			snprintf(cases[i].why, sizeof(cases[i].why),
				 "no mask mode in this kernel (%s)", reason);
		}
	}

	ksft_print_header();
	ksft_set_plan(ncases);
	ksft_print_msg("%s, ABI %s, %d CPUs, %s\n", u.release, ABI_NAME, ncpus,
		       model);
	ksft_print_msg("clock: %s, steps of %.0f ns (clock_getres %ld ns), %s\n",
		       csrc[0] ? csrc : "?", clock_step_ns, res.tv_nsec,
		       vdso_clock ? "vDSO (no syscall)" :
		       "a syscall (masks and filters allow clock_gettime)");
	ksft_print_msg(PASS_FMT, quick ? "quick pass" : "benchmark", samples, batches,
		       rounds, installs, forks, memtasks);

	t_start = now_ns();
	for (r = 0; r < rounds; r++) {
		/* Rotate the order so that no case always runs first. */
		for (i = 0; i < ncases; i++)
			run_case(&cases[(i + r) % ncases]);
		if (rounds > 1)
			ksft_print_msg("round %d/%d done (%.0f s)\n", r + 1,
				       rounds, (now_ns() - t_start) / 1e9);
	}

	for (i = 0; i < ncases; i++) {
		struct bcase *c = &cases[i];

		if (c->skipped) {
			ksft_test_result_skip("%s: %s\n", c->name, c->why);
		} else if (c->failed) {
			ksft_test_result_fail("%s: %s\n", c->name, c->why);
		} else {
			ksft_print_msg("%-40s %12.1f %-10s [%.1f .. %.1f]\n",
				       c->name, median(c->v, c->n), c->unit,
				       case_min(c), case_max(c));
			ksft_test_result_pass("%s\n", c->name);
		}
	}
	if (json)
		write_json(json, &u, model, csrc, res.tv_nsec,
			   (now_ns() - t_start) / 1e9);
	ksft_finished();
	return 0;
}
