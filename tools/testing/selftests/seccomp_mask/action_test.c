// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode, version 2: what a denied call gets under each action
 * (0 or SECCOMP_RET_KILL_PROCESS, TRAP, ERRNO | e, LOG), set through
 * prctl() and seccomp(2), for a call through either x86 ABI; the actions
 * that are EINVAL; how a tightening may change the action; the
 * Seccomp_mask_action line of /proc/<pid>/status.
 *
 * The denied call is a one-byte write() to a pipe: whether the byte is
 * there afterwards tells whether the call ran.
 *
 * On arm64 a task cannot make a call of the other execution state: the
 * other_abi variants execute the mask_helper of that state (helper.h),
 * whose denied call is getppid, with OWN_CALL_ARG0 as its first argument
 * (what a TRAP leaves in x0/r0); it runs when it returns the pid of its
 * parent.
 *
 * Version 3 (build/v3/uapi.txt, "TRAP"): trap_regs.* guard that a TRAP
 * rolls the registers back as a filter's TRAP does. The SIGSYS handler of
 * a denied getppid gets si_code SYS_SECCOMP, si_syscall its number,
 * si_arch the ABI, si_errno 0, and a context whose return register
 * (REG_RAX, REG_EAX) holds the syscall number (on arm64: x0, r0, holds
 * the first argument, as for a filter's TRAP there); the call then
 * returns what that register holds when the handler returns: the number
 * (the first argument) when the handler leaves it, 0x1234 when the
 * handler writes that. The masks are
 * installed through seccomp(2) with the version 3 set: on a version 2
 * kernel these cases fail. Every other TRAP here (the denied write of
 * each action test and tightening, the one in a thread) catches SIGSYS
 * with the same handler, and checks the context's register and what the
 * call returned too.
 */

#include "common.h"

#include <pthread.h>
#include <ucontext.h>

#ifdef TWO_ABIS

/* The pipe the denied write goes to; on x86 the byte is below 4 GiB. */
struct target {
	int rd;
	int wr;
	char *buf;
};

#ifdef X86_BUILD
static int write_nr(__u32 arch)
{
	return arch == ARCH_X86_64 ? NR64_write : NR32_write;
}

static int getppid_nr(__u32 arch)
{
	return arch == ARCH_X86_64 ? NR64_getppid : NR32_getppid;
}

static void *target_page(void)
{
	return low_page();
}
#else
static int write_nr(__u32 arch)
{
	return arch == ARCH_AARCH64 ? NRA64_write : NRA32_write;
}

static int getppid_nr(__u32 arch)
{
	return arch == ARCH_AARCH64 ? NRA64_getppid : NRA32_getppid;
}

static void *target_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}
#endif

static bool target_open(struct target *t)
{
	int fds[2];

	t->buf = target_page();
	if (!t->buf || pipe2(fds, O_NONBLOCK | O_CLOEXEC))
		return false;
	t->buf[0] = 'm';
	t->rd = fds[0];
	t->wr = fds[1];
	return true;
}

static void target_close(struct target *t)
{
	close(t->rd);
	close(t->wr);
	munmap(t->buf, 4096);
}

/* For a fixture's setup: require_mask(), then open the target. */
static void require_mask_target(struct __test_metadata *const _metadata,
				struct target *t)
{
	if (require_mask(_metadata))
		ASSERT_TRUE(target_open(t));
}

/*
 * require_mask() (require_mask_threads() with @threads), open the target
 * @t, then fork_child(): -1 when the test is skipped. The test
 * target_close()s @t.
 */
static pid_t fork_target_child(struct __test_metadata *const _metadata,
			       struct target *t, bool threads)
{
	if (threads ? !require_mask_threads(_metadata) :
		      !require_mask(_metadata))
		return -1;
	ASSERT_TRUE(target_open(t));
	return fork_child(_metadata);
}

/* For a fixture's teardown: close the target, if the setup opened it. */
static void target_put(struct target *t)
{
	if (t->buf)
		target_close(t);
}

/* Did a write reach the pipe? Empties it. */
static bool target_written(struct target *t)
{
	char c;

	return read(t->rd, &c, 1) == 1;
}

/*
 * The write the mask denies, through @arch (on arm64 this program's own
 * ABI only); -errno on failure.
 */
static long denied_write(struct target *t, __u32 arch)
{
#ifdef X86_BUILD
	return abi_call(arch, NR64_write, NR32_write, t->wr, (long)t->buf, 1);
#else
	return own_sys(write_nr(arch), t->wr, (long)t->buf, 1, 0, 0);
#endif
}

/*
 * Deny write in both ABIs with @action: through prctl() this program's
 * ABI only (the other one gets the empty mask), through seccomp(2) both
 * ABIs when @both.
 */
static int deny_write(bool via_seccomp, bool both, unsigned long action)
{
	struct mask own, other;

	mask_all_but(&own, write_nr(SELF_ARCH));
	mask_all_abi_but(&other, OTHER_MAX_BITS, write_nr(OTHER_ARCH));
	if (!via_seccomp)
		return mask_prctl_action(&own, action);
	return mask_seccomp_own_other(0, action, both ? 2 : 1, &own, &other);
}

/*
 * The SIGSYS handler of every test here: sigsys_record() (common.h), and
 * the return register of the handler's context, which a TRAP rolls back
 * to the syscall number (arm64: the first argument); the handler writes
 * trap_reg_write into it unless that is 0.
 */
static long long trap_reg_seen;	/* the context's return register */
static long trap_reg_write;	/* written into it; 0: left alone */

static void trap_regs_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	sigsys_record(sig, si, ctx);
	trap_reg_seen = UC_RET_REG(uc);
	if (trap_reg_write)
		UC_RET_REG(uc) = trap_reg_write;
}

/* catch_sigsys() with trap_regs_handler(), which writes @write. */
static int catch_sigsys_regs(long write)
{
	struct sigaction sa = {
		.sa_sigaction = trap_regs_handler,
		.sa_flags = SA_SIGINFO,
	};

	memset(&sigsys_seen, 0, sizeof(sigsys_seen));
	trap_reg_seen = -1;
	trap_reg_write = write;
	return sigaction(SIGSYS, &sa, NULL);
}

static bool is_kill(__u32 action)
{
	return action == 0 || action == SECCOMP_RET_KILL_PROCESS;
}

/*
 * In a child under a mask that denies write with @action: make the
 * denied write through @arch and check what became of it. Returns only
 * when the action lets the process live, and then exits 0.
 */
static void denied_write_takes(struct target *t, __u32 arch, __u32 action)
{
	long ret;

	CHILD_ASSERT(catch_sigsys_regs(0) == 0);
	CHILD_DENIED(denied_write(t, arch));
	ret = child_report->denied_ret;
	switch (action & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_TRAP:
		/* Skipped; SIGSYS to this thread, which goes on. */
		CHILD_ASSERT(sigsys_seen.count == 1);
		/*
		 * Version 3: rolled back, the handler's context holds the
		 * number (arm64: the first argument) where the value goes,
		 * and the call, whose handler left it, returns it.
		 */
		CHILD_ASSERT(trap_reg_seen == trap_return(write_nr(arch), t->wr));
		CHILD_ASSERT(ret == trap_return(write_nr(arch), t->wr));
		CHILD_ASSERT(sigsys_seen.code == SYS_SECCOMP);
		CHILD_ASSERT(sigsys_seen.nr == write_nr(arch));
		CHILD_ASSERT(sigsys_seen.arch == arch);
		CHILD_ASSERT(sigsys_seen.err == 0);
		CHILD_ASSERT(sigsys_seen.tid == syscall(__NR_gettid));
		CHILD_ASSERT(!target_written(t));
		break;
	case SECCOMP_RET_ERRNO:
		/* Skipped, returns -e, no signal. */
		CHILD_ASSERT(ret == -(long)(action & SECCOMP_RET_DATA));
		CHILD_ASSERT(sigsys_seen.count == 0);
		CHILD_ASSERT(!target_written(t));
		break;
	case SECCOMP_RET_LOG:
		/* Runs. */
		CHILD_ASSERT(ret == 1);
		CHILD_ASSERT(sigsys_seen.count == 0);
		CHILD_ASSERT(target_written(t));
		break;
	default:
		CHILD_ASSERT(!"the denied write did not kill the process");
	}
	_exit(0);
}

/* In the parent: how the child of denied_write_takes() must have ended. */
static void assert_denied_write_took(struct __test_metadata *const _metadata,
				     pid_t pid, struct target *t,
				     __u32 action)
{
	if (is_kill(action)) {
		/* Killed in the denied write, which did not run. */
		ASSERT_CHILD_DENIED(pid);
		EXPECT_FALSE(target_written(t));
	} else {
		ASSERT_CHILD_OK(pid);
	}
}

/* Every action, set through either entry, for a call through either ABI. */
FIXTURE(action) {
	struct target t;
};

FIXTURE_VARIANT(action) {
	bool via_seccomp;
	bool other_abi;
};

FIXTURE_VARIANT_ADD(action, prctl_own_abi) { .via_seccomp = false, .other_abi = false };
FIXTURE_VARIANT_ADD(action, seccomp_own_abi) { .via_seccomp = true, .other_abi = false };
FIXTURE_VARIANT_ADD(action, prctl_other_abi) { .via_seccomp = false, .other_abi = true };
FIXTURE_VARIANT_ADD(action, seccomp_other_abi) { .via_seccomp = true, .other_abi = true };

FIXTURE_SETUP(action)
{
	if (require_mask_with_abi(_metadata, variant->other_abi))
		ASSERT_TRUE(target_open(&self->t));
}

FIXTURE_TEARDOWN(action) { target_put(&self->t); }

#ifdef ARM64_BUILD
/*
 * arm64: the denied call through the other ABI, in the helper of the
 * other execution state, which this child becomes. Through prctl(), the
 * helper installs the mask of its own ABI itself (-p: every bit but
 * getppid, with @action): the mask of this program's ABI, not listed, is
 * then empty. Through seccomp(2), this child installs both, this ABI's
 * denying write and the other's getppid. Then the helper checks the mode,
 * the action line, that getpid runs, and what its denied getppid got.
 */
static void check_action_exec(struct __test_metadata *const _metadata,
			      bool via_seccomp, __u32 action)
{
	const long nr = OTHER_NR_getppid, a0 = OWN_CALL_ARG0;
	struct helper_marker mk;
	char act[64];
	pid_t pid;

	ASSERT_EQ(0, helper_marker_open(&mk));
	action_format(action, act, sizeof(act));
	pid = fork_child(_metadata);
	if (pid == 0) {
		static struct helper_cmd cmd;
		static char path[PATH_MAX];
		struct mask own, other;

		close(mk.fd[0]);
		CHILD_ASSERT(helper_path(path, sizeof(path), true));
		helper_cmd_init(&cmd, path, "3");
		if (!via_seccomp) {
			helper_cmd_add(&cmd, "-p");
			helper_cmd_add(&cmd, "%ld/%#x", nr, action);
		}
		helper_cmd_add(&cmd, "-s");
		helper_cmd_add(&cmd, "Seccomp_mask_action=%s", act);
		helper_cmd_add(&cmd, "-c");
		helper_cmd_add(&cmd, "%d=%d", OTHER_NR_getpid, getpid());
		helper_cmd_getppid_takes(&cmd, nr, a0, action, mk.fd[1]);
		CHILD_ASSERT(set_nnp() == 0);
		if (via_seccomp) {
			mask_all_but(&own, write_nr(SELF_ARCH));
			mask_all_abi_but(&other, OTHER_MAX_BITS, nr);
			CHILD_ASSERT(mask_seccomp_own_other(0, action, 2, &own,
							    &other) == 0);
		}
		helper_exec(&cmd);
	}
	ASSERT_HELPER_KILLED_AT_IF(pid, &mk, is_kill(action));
}
#endif

static void check_action(struct __test_metadata *const _metadata,
			 struct target *t, bool via_seccomp, bool other_abi,
			 __u32 action)
{
	__u32 arch = other_abi ? OTHER_ARCH : SELF_ARCH;
	bool both = via_seccomp && other_abi_available();
	pid_t pid;

#ifdef ARM64_BUILD
	if (other_abi) {
		check_action_exec(_metadata, via_seccomp, action);
		return;
	}
#endif
	pid = fork_child(_metadata);

	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(deny_write(via_seccomp, both, action) == 0);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 3);
		CHILD_ASSERT(status_shows_action(0, action));
		/* The mask of the ABI of the call decides: getpid runs. */
#ifdef X86_BUILD
		if (both)
			CHILD_ASSERT(abi_call(arch, NR64_getpid, NR32_getpid,
					      0, 0, 0) == getpid());
#else
		(void)both;
#endif
		denied_write_takes(t, arch, action);
	}
	assert_denied_write_took(_metadata, pid, t, action);
}

TEST_F(action, zero_kills_the_process)
{
	check_action(_metadata, &self->t, variant->via_seccomp,
		     variant->other_abi, 0);
}

TEST_F(action, kill_process_kills_the_process)
{
	check_action(_metadata, &self->t, variant->via_seccomp,
		     variant->other_abi, SECCOMP_RET_KILL_PROCESS);
}

TEST_F(action, trap_skips_the_call_and_signals_the_thread)
{
	check_action(_metadata, &self->t, variant->via_seccomp,
		     variant->other_abi, SECCOMP_RET_TRAP);
}

TEST_F(action, errno_1_skips_the_call_and_returns_it)
{
	check_action(_metadata, &self->t, variant->via_seccomp,
		     variant->other_abi, SECCOMP_RET_ERRNO | 1);
}

TEST_F(action, errno_4095_skips_the_call_and_returns_it)
{
	check_action(_metadata, &self->t, variant->via_seccomp,
		     variant->other_abi, SECCOMP_RET_ERRNO | 4095);
}

TEST_F(action, log_runs_the_call)
{
	check_action(_metadata, &self->t, variant->via_seccomp,
		     variant->other_abi, SECCOMP_RET_LOG);
}

/* A denied call in one thread, with a thread blocked in another. */
struct threaded {
	struct target *t;
	int block[2];
	pid_t tid;
};

static void *denied_write_thread(void *arg)
{
	struct threaded *th = arg;

	th->tid = syscall(__NR_gettid);
	CHILD_DENIED(denied_write(th->t, SELF_ARCH));
	return NULL;
}

static void run_threaded(struct threaded *th, __u32 action)
{
	pthread_t thread;
	char c;

	CHILD_ASSERT(pipe(th->block) == 0);
	CHILD_ASSERT(catch_sigsys_regs(0) == 0);
	CHILD_ASSERT(set_nnp() == 0);
	CHILD_ASSERT(deny_write(false, false, action) == 0);
	CHILD_ASSERT(pthread_create(&thread, NULL, denied_write_thread,
				    th) == 0);
	CHILD_ASSERT(pthread_join(thread, NULL) == 0);
	if (is_kill(action))
		/* Not reached if the kill took the whole process. */
		CHILD_ASSERT(read(th->block[0], &c, 1) == 1);
}

/*
 * The denied write in a thread, with @action, KILL_PROCESS or TRAP: the
 * kill takes every thread, the TRAP signals that thread alone.
 */
static void check_threaded(struct __test_metadata *const _metadata,
			   __u32 action)
{
	struct target t = {};
	struct threaded th = { .t = &t };
	pid_t pid;

	pid = fork_target_child(_metadata, &t, true);
	if (pid < 0)
		return;
	if (pid == 0) {
		/* A kill: the main thread waits in read() for a byte that never comes. */
		run_threaded(&th, action);
		if (is_kill(action))
			_exit(0);
		/* The thread went on after its handler. */
		CHILD_ASSERT(child_report->denied_returned);
		CHILD_ASSERT(sigsys_seen.count == 1);
		CHILD_ASSERT(sigsys_seen.tid == th.tid);
		CHILD_ASSERT(th.tid != syscall(__NR_gettid));
		CHILD_ASSERT(sigsys_seen.code == SYS_SECCOMP);
		CHILD_ASSERT(sigsys_seen.nr == write_nr(SELF_ARCH));
		CHILD_ASSERT(sigsys_seen.arch == SELF_ARCH);
		CHILD_ASSERT(sigsys_seen.err == 0);
		/* Rolled back in that thread: its call returned the number. */
		CHILD_ASSERT(trap_reg_seen ==
			     trap_return(write_nr(SELF_ARCH), t.wr));
		CHILD_ASSERT(child_report->denied_ret ==
			     trap_return(write_nr(SELF_ARCH), t.wr));
		CHILD_ASSERT(!target_written(&t));
		_exit(0);
	}
	if (is_kill(action))
		assert_denied_write_took(_metadata, pid, &t, action);
	else
		ASSERT_CHILD_OK(pid);
	target_close(&t);
}

TEST(kill_process_in_a_thread_kills_every_thread)
{
	check_threaded(_metadata, SECCOMP_RET_KILL_PROCESS);
}

TEST(trap_in_a_thread_signals_that_thread)
{
	check_threaded(_metadata, SECCOMP_RET_TRAP);
}

/* Every action value but the four is EINVAL, and installs nothing. */
FIXTURE(invalid) {
	struct target t;
};

FIXTURE_VARIANT(invalid) {
	unsigned long action;
	bool prctl_only;	/* not a __u32: seccomp(2) cannot pass it */
};

FIXTURE_VARIANT_ADD(invalid, trace) { .action = SECCOMP_RET_TRACE };
FIXTURE_VARIANT_ADD(invalid, user_notif) { .action = SECCOMP_RET_USER_NOTIF };
FIXTURE_VARIANT_ADD(invalid, allow) { .action = SECCOMP_RET_ALLOW };
FIXTURE_VARIANT_ADD(invalid, errno_0) { .action = SECCOMP_RET_ERRNO | 0 };
FIXTURE_VARIANT_ADD(invalid, errno_4096) { .action = SECCOMP_RET_ERRNO | 4096 };
FIXTURE_VARIANT_ADD(invalid, errno_65535) { .action = SECCOMP_RET_ERRNO | 0xffff };
FIXTURE_VARIANT_ADD(invalid, kill_thread_with_data) { .action = SECCOMP_RET_KILL_THREAD | 1 };
FIXTURE_VARIANT_ADD(invalid, kill_process_with_data) { .action = SECCOMP_RET_KILL_PROCESS | 1 };
FIXTURE_VARIANT_ADD(invalid, trap_with_data) { .action = SECCOMP_RET_TRAP | 1 };
FIXTURE_VARIANT_ADD(invalid, log_with_data) { .action = SECCOMP_RET_LOG | 1 };
FIXTURE_VARIANT_ADD(invalid, unknown_0x00010000) { .action = 0x00010000 };
FIXTURE_VARIANT_ADD(invalid, unknown_0xffff0000) { .action = 0xffff0000 };

#if X86_BUILD == 64 || ARM64_BUILD == 64
FIXTURE_VARIANT_ADD(invalid, log_with_bit_32_through_prctl) {
	.action = (1UL << 32) | SECCOMP_RET_LOG,
	.prctl_only = true,
};
#endif

FIXTURE_SETUP(invalid) { require_mask_target(_metadata, &self->t); }
FIXTURE_TEARDOWN(invalid) { target_put(&self->t); }

/* In a child: @action is EINVAL through prctl() (and seccomp(2)). */
static void deny_write_is_einval(unsigned long action, bool prctl_only)
{
	errno = 0;
	CHILD_ASSERT(deny_write(false, false, action) == -1);
	CHILD_ASSERT(errno == EINVAL);
	if (prctl_only)
		return;
	errno = 0;
	CHILD_ASSERT(deny_write(true, false, action) == -1);
	CHILD_ASSERT(errno == EINVAL);
}

TEST_F(invalid, is_einval_and_changes_nothing)
{
	const __u32 valid = SECCOMP_RET_ERRNO | 1;
	char buf[8192];
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		/* First install: EINVAL, still mode 0, no mask lines. */
		deny_write_is_einval(variant->action, variant->prctl_only);
		CHILD_ASSERT(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 0);
		CHILD_ASSERT(read_status(0, buf, sizeof(buf)) == 0);
		CHILD_ASSERT(!strstr(buf, "Seccomp_mask"));
		/* A valid action is taken... */
		CHILD_ASSERT(deny_write(false, false, valid) == 0);
		/* ...and an invalid tightening leaves it as it was. */
		deny_write_is_einval(variant->action, variant->prctl_only);
		CHILD_ASSERT(status_shows_action(0, valid));
		denied_write_takes(&self->t, SELF_ARCH, valid);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * A tightening passes its action again and may keep it or make it
 * stronger, KILL_PROCESS > TRAP > ERRNO > LOG; a weaker one is EPERM and
 * changes nothing, the mask included.
 */
FIXTURE(tighten) {
	struct target t;
};

struct tighten_case {
	__u32 from;
	__u32 to;
	bool ok;
};

FIXTURE_VARIANT(tighten) {
	struct tighten_case c;
};

#define KILL		SECCOMP_RET_KILL_PROCESS
#define TRAP		SECCOMP_RET_TRAP
#define ERRNO(e)	(SECCOMP_RET_ERRNO | (e))
#define LOG		SECCOMP_RET_LOG

FIXTURE_VARIANT_ADD(tighten, kill_to_kill) { { KILL, KILL, true } };
FIXTURE_VARIANT_ADD(tighten, zero_to_kill) { { 0, KILL, true } };
FIXTURE_VARIANT_ADD(tighten, kill_to_zero) { { KILL, 0, true } };
FIXTURE_VARIANT_ADD(tighten, kill_to_trap) { { KILL, TRAP, false } };
FIXTURE_VARIANT_ADD(tighten, kill_to_errno) { { KILL, ERRNO(1), false } };
FIXTURE_VARIANT_ADD(tighten, zero_to_errno) { { 0, ERRNO(1), false } };
FIXTURE_VARIANT_ADD(tighten, kill_to_log) { { KILL, LOG, false } };
FIXTURE_VARIANT_ADD(tighten, trap_to_kill) { { TRAP, KILL, true } };
FIXTURE_VARIANT_ADD(tighten, trap_to_zero) { { TRAP, 0, true } };
FIXTURE_VARIANT_ADD(tighten, trap_to_trap) { { TRAP, TRAP, true } };
FIXTURE_VARIANT_ADD(tighten, trap_to_errno) { { TRAP, ERRNO(1), false } };
FIXTURE_VARIANT_ADD(tighten, trap_to_log) { { TRAP, LOG, false } };
FIXTURE_VARIANT_ADD(tighten, errno_to_kill) { { ERRNO(1), KILL, true } };
FIXTURE_VARIANT_ADD(tighten, errno_to_trap) { { ERRNO(1), TRAP, true } };
FIXTURE_VARIANT_ADD(tighten, errno_1_to_4095) { { ERRNO(1), ERRNO(4095), true } };
FIXTURE_VARIANT_ADD(tighten, errno_4095_to_1) { { ERRNO(4095), ERRNO(1), true } };
FIXTURE_VARIANT_ADD(tighten, errno_to_log) { { ERRNO(1), LOG, false } };
FIXTURE_VARIANT_ADD(tighten, errno_to_zero) { { ERRNO(1), 0, true } };
FIXTURE_VARIANT_ADD(tighten, log_to_kill) { { LOG, KILL, true } };
FIXTURE_VARIANT_ADD(tighten, log_to_trap) { { LOG, TRAP, true } };
FIXTURE_VARIANT_ADD(tighten, log_to_errno) { { LOG, ERRNO(7), true } };
FIXTURE_VARIANT_ADD(tighten, log_to_log) { { LOG, LOG, true } };
FIXTURE_VARIANT_ADD(tighten, log_to_zero) { { LOG, 0, true } };
FIXTURE_VARIANT_ADD(tighten, zero_to_trap) { { 0, TRAP, false } };

FIXTURE_SETUP(tighten) { require_mask_target(_metadata, &self->t); }
FIXTURE_TEARDOWN(tighten) { target_put(&self->t); }

static void check_tighten(struct __test_metadata *const _metadata,
			  struct target *t,
			  const struct tighten_case *c, bool via_seccomp)
{
	__u32 effective = c->ok ? c->to : c->from;
	pid_t pid, ppid = getpid();

	pid = fork_child(_metadata);
	if (pid == 0) {
		struct mask first, second;
		int ret;

		/* The second mask also denies getppid. */
		mask_all_but(&first, write_nr(SELF_ARCH));
		second = first;
		mask_clear(&second, __NR_getppid);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(deny_write(via_seccomp, false,
					c->from) == 0);
		errno = 0;
		if (via_seccomp)
			ret = mask_seccomp_self(0, c->to, &second);
		else
			ret = mask_prctl_action(&second, c->to);
		if (c->ok) {
			CHILD_ASSERT(ret == 0);
			CHILD_ASSERT(status_shows_mask(0, &second));
		} else {
			CHILD_ASSERT(ret == -1 && errno == EPERM);
			/* Nothing changed: getppid still runs. */
			CHILD_ASSERT(status_shows_mask(0, &first));
			CHILD_ASSERT(syscall(__NR_getppid) == ppid);
		}
		CHILD_ASSERT(status_shows_action(0, effective));
		denied_write_takes(t, SELF_ARCH, effective);
	}
	assert_denied_write_took(_metadata, pid, t, effective);
}

TEST_F(tighten, through_prctl)
{
	check_tighten(_metadata, &self->t, &variant->c, false);
}

TEST_F(tighten, through_seccomp)
{
	check_tighten(_metadata, &self->t, &variant->c, true);
}

/* A stronger action with a mask that is not a subset: EPERM, no change. */
TEST(tighten_with_a_wider_mask_keeps_the_action)
{
	struct target t = {};
	pid_t pid;

	pid = fork_target_child(_metadata, &t, false);
	if (pid < 0)
		return;
	if (pid == 0) {
		struct mask wider;

		mask_all(&wider, SECCOMP_MASK_MAX_BITS);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(deny_write(false, false, SECCOMP_RET_LOG) == 0);
		errno = 0;
		CHILD_ASSERT(mask_prctl_action(&wider, SECCOMP_RET_TRAP) == -1);
		CHILD_ASSERT(errno == EPERM);
		CHILD_ASSERT(status_shows_action(0, SECCOMP_RET_LOG));
		denied_write_takes(&t, SELF_ARCH, SECCOMP_RET_LOG);
	}
	ASSERT_CHILD_OK(pid);
	target_close(&t);
}

/*
 * Version 3: TRAP rolls the registers back. A raw getppid through either
 * ABI (abi_call(), own_call(): the value of the return register as the
 * kernel left it, no libc errno translation); on arm64, that of the other
 * ABI in the helper of the other execution state (helper.h).
 */
FIXTURE(trap_regs) {};

FIXTURE_VARIANT(trap_regs) {
	bool other_abi;
	long write;		/* 0: the handler leaves the context alone */
};

FIXTURE_VARIANT_ADD(trap_regs, own_abi_handler_leaves_the_number) {
	.other_abi = false, .write = 0,
};

FIXTURE_VARIANT_ADD(trap_regs, own_abi_handler_writes_0x1234) {
	.other_abi = false, .write = 0x1234,
};

/*
 * 64-bit build: int $0x80; 32-bit build: a far jump and syscall; arm64:
 * the helper of the other execution state.
 */
FIXTURE_VARIANT_ADD(trap_regs, other_abi_handler_leaves_the_number) {
	.other_abi = true, .write = 0,
};

FIXTURE_VARIANT_ADD(trap_regs, other_abi_handler_writes_0x1234) {
	.other_abi = true, .write = 0x1234,
};

FIXTURE_SETUP(trap_regs)
{
	require_mask_with_abi(_metadata, variant->other_abi);
}

FIXTURE_TEARDOWN(trap_regs) {}

TEST_F(trap_regs, rolled_back_into_the_handler_context)
{
	__u32 arch = variant->other_abi ? OTHER_ARCH : SELF_ARCH;
	long nr = getppid_nr(arch);
	bool other = other_abi_available();
	pid_t pid = fork_child(_metadata);

	if (pid == 0) {
		struct mask own, other_mask;
		long ret;

		mask_all_but(&own, getppid_nr(SELF_ARCH));
		mask_all_abi_but(&other_mask, OTHER_MAX_BITS,
				 getppid_nr(OTHER_ARCH));
#ifdef ARM64_BUILD
		if (variant->other_abi) {
			static struct helper_cmd cmd;
			static char path[PATH_MAX];
			long a0 = OWN_CALL_ARG0;

			CHILD_ASSERT(helper_path(path, sizeof(path), true));
			helper_cmd_init(&cmd, path, "3");
			if (variant->write) {
				helper_cmd_add(&cmd, "-W");
				helper_cmd_add(&cmd, "%ld", variant->write);
			}
			helper_cmd_add(&cmd, "-t");
			helper_cmd_add(&cmd, "%ld,%ld=%ld", nr, a0,
				       variant->write ? variant->write :
				       trap_return(nr, a0));
			CHILD_ASSERT(set_nnp() == 0);
			CHILD_ASSERT(mask_seccomp_own_other(0, SECCOMP_RET_TRAP,
							    2, &own,
							    &other_mask) == 0);
			helper_exec(&cmd);
		}
#endif
		CHILD_ASSERT(catch_sigsys_regs(variant->write) == 0);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp_own_other(0, SECCOMP_RET_TRAP,
						    other ? 2 : 1,
						    &own, &other_mask) == 0);
#ifdef X86_BUILD
		ret = abi_call(arch, NR64_getppid, NR32_getppid, 0, 0, 0);
#else
		ret = own_call(nr);
#endif
		CHILD_ASSERT(sigsys_seen.count == 1);
		CHILD_ASSERT(sigsys_seen.code == SYS_SECCOMP);
		CHILD_ASSERT(sigsys_seen.nr == nr);
		CHILD_ASSERT(sigsys_seen.arch == arch);
		CHILD_ASSERT(sigsys_seen.err == 0);
		/*
		 * The handler's context holds the number (arm64: the first
		 * argument) where the value goes.
		 */
		CHILD_ASSERT(trap_reg_seen == trap_return_own(nr));
		/* The call returns what the register holds after the handler. */
		CHILD_ASSERT(ret == (variant->write ? variant->write :
				     trap_return_own(nr)));
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

#else

TEST(actions)
{
	SKIP(return, "the action tests know the ABIs of x86-64 and arm64 only");
}

#endif

TEST_HARNESS_MAIN
