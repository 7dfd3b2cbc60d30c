// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the mask never skips the other syscall entry work.
 * A call the mask allows still goes through syscall user dispatch
 * (sud.*), is still audited (audit.*) and still fires the syscall
 * tracepoints at entry and exit (tracepoint.*), exactly as without a
 * mask. (ptrace, the fourth kind of entry work, is in ptrace_test.c: the
 * entry and the exit stop of an allowed call.)
 *
 * Where each part runs:
 * - audit.* and tracepoint.*: every build, both ABIs of both 64-bit
 *   kernels: x86-64 (_64) and ia32 (_32, int $0x80), AArch64 (_64) and
 *   AArch32 (_32, the compat ABI of arm64).
 * - sud.*: x86 only (X86_BUILD). Syscall user dispatch is part of the
 *   generic entry code, which arm64 (6.12) does not use: the tests are
 *   compiled out of the arm64 programs, not skipped.
 *
 * The order at syscall entry, x86 on both bases (kernel/entry/common.c,
 * syscall_trace_enter()): syscall user dispatch first, then ptrace, then
 * seccomp (the mask, then the filters), then the sys_enter tracepoint,
 * then audit; at exit (syscall_exit_work()) audit, the sys_exit
 * tracepoint, ptrace. arm64 (arch/arm64/kernel/ptrace.c,
 * syscall_trace_enter()): ptrace, seccomp, the sys_enter tracepoint,
 * audit; at exit (syscall_trace_exit()) audit, the sys_exit tracepoint,
 * ptrace. The inline shortcut of the mask (x86:
 * syscall_enter_from_user_mode_work(); arm64: el0_svc_common() in
 * arch/arm64/kernel/syscall.c, which then runs syscall_trace_exit() only
 * for the work the flags show after the call) is taken only when seccomp
 * is the only syscall work, so a task with dispatch on, an audit context
 * or the syscall tracepoints registered (by any perf event or trace
 * instance, on every task) always takes the slow path. Hence:
 *
 * - (x86) A call that dispatch blocks, allowed or denied by the mask, is
 *   rolled back and becomes a SIGSYS with si_code SYS_USER_DISPATCH: it
 *   never reaches the mask, which cannot deny what does not run (not
 *   even with the kill action). What the handler then does (here:
 *   nothing; in real use, the emulation, from the allowed range) is
 *   judged by the mask as any other call.
 * - (x86) A call dispatch lets through (selector ALLOW, or made from the
 *   allowed range) is judged by the mask as without dispatch.
 * - An allowed call is audited once, with its number, its ABI and its
 *   return value: an inline check taken for a task with an audit context
 *   would leave no record at all.
 * - An allowed call fires sys_enter and sys_exit once each, as counted by
 *   perf: an inline check taken while the tracepoints are registered
 *   would skip sys_enter (no event at all for the allowed calls).
 *
 * Every call the tests judge is a raw syscall of this program's ABI
 * (own_sys(), sud_call_*()): in the x86 32-bit program it goes through
 * int $0x80, the ia32 entry path; on arm64 through svc, in the AArch64
 * or the AArch32 state.
 */

#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>

#include "common.h"

#ifdef X86_BUILD

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH	59
#define PR_SYS_DISPATCH_OFF		0
#define PR_SYS_DISPATCH_ON		1
#define SYSCALL_DISPATCH_FILTER_ALLOW	0
#define SYSCALL_DISPATCH_FILTER_BLOCK	1
#endif

#ifndef SYS_USER_DISPATCH
#define SYS_USER_DISPATCH		2
#endif

/*
 * Two raw syscall stubs, long stub(nr, a, b, c), that return the value or
 * -errno: sud_call_out, whose syscall instruction lies outside the range
 * the tests let past dispatch, and sud_call_in, which is that range
 * ([sud_call_in, sud_call_in_end)). The kernel compares the address
 * after the syscall instruction: sud_call_out_ip for sud_call_out, which
 * is below sud_call_in. Every libc syscall is outside the range too.
 */
#if X86_BUILD == 64
/* The call: number and three arguments in, the syscall made. */
#define SUD_CALL_MAKE				\
	"	movq %rdi, %rax\n"		\
	"	movq %rsi, %rdi\n"		\
	"	movq %rdx, %rsi\n"		\
	"	movq %rcx, %rdx\n"		\
	"	syscall\n"
/* And back, right after the syscall instruction. */
#define SUD_CALL_RETURN				\
	"	ret\n"
#else
#define SUD_CALL_MAKE				\
	"	pushl %ebx\n"			\
	"	movl 8(%esp), %eax\n"		\
	"	movl 12(%esp), %ebx\n"		\
	"	movl 16(%esp), %ecx\n"		\
	"	movl 20(%esp), %edx\n"		\
	"	int $0x80\n"
#define SUD_CALL_RETURN				\
	"	popl %ebx\n"			\
	"	ret\n"
#endif

asm (".pushsection .text\n"
	".globl sud_call_out\n"
	".hidden sud_call_out\n"
	".type sud_call_out, @function\n"
	"sud_call_out:\n"
	SUD_CALL_MAKE
	".globl sud_call_out_ip\n"
	".hidden sud_call_out_ip\n"
	"sud_call_out_ip:\n"
	SUD_CALL_RETURN
	".size sud_call_out, . - sud_call_out\n"
	".globl sud_call_in\n"
	".hidden sud_call_in\n"
	".type sud_call_in, @function\n"
	"sud_call_in:\n"
	SUD_CALL_MAKE
	SUD_CALL_RETURN
	".size sud_call_in, . - sud_call_in\n"
	".globl sud_call_in_end\n"
	".hidden sud_call_in_end\n"
	"sud_call_in_end:\n"
	".popsection\n");

#define HIDDEN __attribute__((visibility("hidden")))
typedef long sud_call_fn(long nr, long a, long b, long c);
typedef void sud_label_fn(void);
HIDDEN sud_call_fn sud_call_out;
HIDDEN sud_call_fn sud_call_in;
/* Labels, not functions: only their addresses are used. */
HIDDEN sud_label_fn sud_call_out_ip;
HIDDEN sud_label_fn sud_call_in_end;

/*
 * The selector byte, and what the SIGSYS handler saw: shared with the
 * handler, hence the atomic stores to the selector (sud_select()) and
 * the signal fences around the stub calls.
 */
static char sud_selector = SYSCALL_DISPATCH_FILTER_ALLOW;

static void sud_select(char selector)
{
	__atomic_store_n(&sud_selector, selector, __ATOMIC_SEQ_CST);
}

struct sud_seen {
	int count;
	int code;
	int err;
	int nr;
	unsigned int arch;
	void *addr;
};

static struct sud_seen sud_seen;

static void sud_handler(int sig, siginfo_t *si, void *ctx)
{
	/* First: the handler's return (rt_sigreturn) must not be dispatched. */
	sud_select(SYSCALL_DISPATCH_FILTER_ALLOW);
	sud_seen.count++;
	sud_seen.code = si->si_code;
	sud_seen.err = si->si_errno;
	sud_seen.nr = si->si_syscall;
	sud_seen.arch = si->si_arch;
	sud_seen.addr = si->si_call_addr;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static void sud_reset(void)
{
	sud_seen.count = 0;
	sud_seen.code = 0;
	sud_seen.err = 0;
	sud_seen.nr = 0;
	sud_seen.arch = 0;
	sud_seen.addr = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/*
 * A call through one of the stubs with the selector at BLOCK, and the
 * selector back at ALLOW afterwards (if the handler has not put it back
 * already), so that the libc calls that follow are not dispatched.
 */
static long sud_block_call(bool in_range, long nr, long a, long b, long c)
{
	long ret;

	sud_reset();
	sud_select(SYSCALL_DISPATCH_FILTER_BLOCK);
	if (in_range)
		ret = sud_call_in(nr, a, b, c);
	else
		ret = sud_call_out(nr, a, b, c);
	sud_select(SYSCALL_DISPATCH_FILTER_ALLOW);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return ret;
}

/* In a child: the last sud_block_call(false, @nr, ...) was dispatched. */
#define CHILD_ASSERT_DISPATCHED(number, ret)				\
	do {								\
		long _number = (number);				\
								\
		CHILD_ASSERT(sud_seen.count == 1);			\
		CHILD_ASSERT(sud_seen.code == SYS_USER_DISPATCH);	\
		CHILD_ASSERT(sud_seen.err == 0);			\
		CHILD_ASSERT(sud_seen.nr == _number);			\
		CHILD_ASSERT(sud_seen.arch == SELF_ARCH);		\
		CHILD_ASSERT(sud_seen.addr == (void *)sud_call_out_ip);	\
		/* Rolled back: the number is where the return goes. */	\
		CHILD_ASSERT((ret) == _number);				\
	} while (0)

FIXTURE(sud) {};

FIXTURE_VARIANT(sud) {
	bool mask;	/* mask mode: everything allowed but getppid */
	__u32 action;	/* what the mask does to getppid */
};

/* The control: dispatch alone, which any kernel since 5.11 has (no mask test). */
FIXTURE_VARIANT_ADD(sud, no_mask) { .mask = false };
FIXTURE_VARIANT_ADD(sud, mask_errno) { .mask = true, .action = SECCOMP_RET_ERRNO | MASK_ERRNO };
FIXTURE_VARIANT_ADD(sud, mask_trap) { .mask = true, .action = SECCOMP_RET_TRAP };
FIXTURE_VARIANT_ADD(sud, mask_kill) { .mask = true, .action = SECCOMP_RET_KILL_PROCESS };

FIXTURE_SETUP(sud) {}
FIXTURE_TEARDOWN(sud) {}

/*
 * In a child: catch SIGSYS, install the variant's mask, then turn
 * dispatch on (selector ALLOW) with [sud_call_in, sud_call_in_end) as the
 * range let past it.
 */
static void sud_child_setup(bool mask, __u32 action, const struct mask *m)
{
	struct sigaction sa = {
		.sa_sigaction = sud_handler,
		.sa_flags = SA_SIGINFO,
	};

	CHILD_ASSERT(sigaction(SIGSYS, &sa, NULL) == 0);
	if (mask) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl_action(m, action) == 0);
	}
	CHILD_ASSERT((unsigned long)sud_call_out_ip <
		     (unsigned long)sud_call_in);
	sud_select(SYSCALL_DISPATCH_FILTER_ALLOW);
	CHILD_ASSERT(prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON,
			   (unsigned long)sud_call_in,
			   (unsigned long)sud_call_in_end -
			   (unsigned long)sud_call_in,
			   (char *)&sud_selector) == 0);
}

/*
 * The variant's child: fork_child(), and in the child sud_child_setup()
 * with a mask of all but getppid. The pid in the parent, 0 in the child,
 * -1 when the test is skipped (a mask variant without the mask mode).
 */
static pid_t fork_sud_child(struct __test_metadata *const _metadata,
			    bool mask, __u32 action)
{
	struct mask m;
	pid_t pid;

	if (mask && !require_mask(_metadata))
		return -1;
	mask_all_but(&m, __NR_getppid);
	pid = fork_child(_metadata);
	if (pid == 0)
		sud_child_setup(mask, action, &m);
	return pid;
}

/* The bytes waiting in the pipe whose read end is @fd. */
static int pipe_bytes(int fd)
{
	int n = -1;

	return ioctl(fd, FIONREAD, &n) ? -1 : n;
}

/*
 * An allowed call (write, with a visible effect) with the selector at
 * BLOCK, made outside the allowed range: dispatched, not run, even though
 * the mask allows it. With the selector at ALLOW, or from the allowed
 * range: it runs.
 */
TEST_F(sud, allowed_call_is_dispatched)
{
	pid_t pid = fork_sud_child(_metadata, variant->mask, variant->action);

	if (pid < 0)
		return;
	if (pid == 0) {
		long ret;
		int p[2];

		/* Dispatch is on, with the selector at ALLOW. */
		CHILD_ASSERT(pipe(p) == 0);
		ret = sud_block_call(false, __NR_write, p[1], (long)"abc", 3);
		CHILD_ASSERT_DISPATCHED(__NR_write, ret);
		CHILD_ASSERT(pipe_bytes(p[0]) == 0);

		sud_reset();
		ret = sud_call_out(__NR_write, p[1], (long)"abc", 3);
		CHILD_ASSERT(sud_seen.count == 0);
		CHILD_ASSERT(ret == 3);
		CHILD_ASSERT(pipe_bytes(p[0]) == 3);

		ret = sud_block_call(true, __NR_write, p[1], (long)"abc", 3);
		CHILD_ASSERT(sud_seen.count == 0);
		CHILD_ASSERT(ret == 3);
		CHILD_ASSERT(pipe_bytes(p[0]) == 6);
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * In a child: did a getppid() that dispatch let through get what the
 * variant's mask gives it (@parent: the value without a mask)?
 */
static bool mask_judged_getppid(bool mask, __u32 action, long ret,
				pid_t parent)
{
	if (!mask)
		return ret == parent && sud_seen.count == 0;
	if (action == SECCOMP_RET_TRAP)
		return ret == __NR_getppid && sud_seen.count == 1 &&
		       sud_seen.code == SYS_SECCOMP &&
		       sud_seen.nr == __NR_getppid &&
		       sud_seen.arch == SELF_ARCH;
	return ret == -MASK_ERRNO && sud_seen.count == 0;
}

/*
 * A denied call (getppid) with the selector at BLOCK, made outside the
 * allowed range: dispatch comes first, so it is dispatched (SIGSYS with
 * SYS_USER_DISPATCH, not the mask's errno, trap or kill) and never runs.
 * From the allowed range, or with the selector at ALLOW, the mask judges
 * it as without dispatch.
 */
TEST_F(sud, denied_call_is_dispatched_before_the_mask)
{
	pid_t parent = getpid();
	pid_t pid = fork_sud_child(_metadata, variant->mask, variant->action);

	if (pid < 0)
		return;
	if (pid == 0) {
		long ret;

		ret = sud_block_call(false, __NR_getppid, 0, 0, 0);
		CHILD_ASSERT_DISPATCHED(__NR_getppid, ret);

		if (variant->mask &&
		    variant->action == SECCOMP_RET_KILL_PROCESS) {
			sud_select(SYSCALL_DISPATCH_FILTER_BLOCK);
			CHILD_DENIED(sud_call_in(__NR_getppid, 0, 0, 0));
			_exit(0);
		}
		ret = sud_block_call(true, __NR_getppid, 0, 0, 0);
		CHILD_ASSERT(mask_judged_getppid(variant->mask, variant->action,
						 ret, parent));

		sud_reset();
		ret = sud_call_out(__NR_getppid, 0, 0, 0);
		CHILD_ASSERT(mask_judged_getppid(variant->mask, variant->action,
						 ret, parent));
		_exit(0);
	}
	if (variant->mask && variant->action == SECCOMP_RET_KILL_PROCESS)
		ASSERT_CHILD_DENIED(pid);
	else
		ASSERT_CHILD_OK(pid);
}

#endif /* X86_BUILD */

/*
 * Audit, through the audit netlink socket (no auditctl): this process
 * registers as the audit daemon, turns audit on, and adds an exit rule
 * for one getpid() of the child: its number, the child's pid, this ABI
 * and a magic first argument. Counted are the AUDIT_SYSCALL records of
 * the child; removing the rule afterwards logs an AUDIT_CONFIG_CHANGE
 * record, queued after the child's, which ends the count.
 *
 * A task gets an audit context (and with it the audit entry work) at
 * fork, once audit has ever been on (audit_ever_enabled, never reset).
 * Turning audit on would thus give every later task of this boot the
 * audit entry work, and the later tests would never see the inline
 * shortcut of the mask. So before that, a task rule (never audit a
 * task whose effective gid is not AUDIT_TEST_GID) keeps the context off
 * every task forked from then on but the child, forked with that gid.
 * The rule stays (removing it would give every later task a context):
 * the later tasks get what they had before audit was on, no context.
 */
#define AUDIT_TEST_GID	0x5ecc0
#define AUDIT_A0	0x5ecc0
/* A record's text is at most 8970 bytes (MAX_AUDIT_MESSAGE_LENGTH). */
#define AUDIT_BUF	9216
/* How long the records may take to come, at the most. */
#define AUDIT_WAIT_S	10

struct audit_conn {
	int fd;
	__u32 seq;
	/* the answer to request @seq */
	bool acked;
	int ack_err;
	bool got_status;
	struct audit_status status;
	/* what was changed, for audit_stop() */
	bool registered;
	bool enabled_here;
	pid_t rule_pid;
	/* the records of @pid */
	pid_t pid;
	int records;
	char rec[1024];
	bool want_removed;
	bool removed;
	bool lost;
};

/*
 * Read one message of the audit socket, by @deadline at the most: 1 when
 * there may be more, 0 at the deadline, -errno on a failure.
 */
static int audit_read_one(struct audit_conn *a, double deadline)
{
	union {
		struct nlmsghdr nlh;
		char raw[AUDIT_BUF];
	} buf;
	struct pollfd pfd = { .fd = a->fd, .events = POLLIN };
	double left = deadline - now();
	char key[32], *text;
	size_t len;
	ssize_t n;

	if (left <= 0)
		return 0;
	n = poll(&pfd, 1, (int)(left * 1000) + 1);
	if (n < 0)
		return errno == EINTR ? 1 : -errno;
	if (n == 0)
		return 0;
	n = recv(a->fd, &buf, sizeof(buf) - 1, MSG_DONTWAIT);
	if (n < 0) {
		if (errno == ENOBUFS)
			a->lost = true;
		else if (errno != EAGAIN && errno != EINTR)
			return -errno;
		return 1;
	}
	if (n < (ssize_t)NLMSG_HDRLEN)
		return 1;
	/* One message per datagram; records give the text's length only. */
	buf.raw[n] = '\0';
	text = NLMSG_DATA(&buf.nlh);
	len = n - NLMSG_HDRLEN;
	switch (buf.nlh.nlmsg_type) {
	case NLMSG_ERROR:
		if (buf.nlh.nlmsg_seq == a->seq &&
		    len >= sizeof(struct nlmsgerr)) {
			a->acked = true;
			a->ack_err = ((struct nlmsgerr *)text)->error;
		}
		break;
	case AUDIT_GET:
		memcpy(&a->status, text,
		       len < sizeof(a->status) ? len : sizeof(a->status));
		a->got_status = true;
		break;
	case AUDIT_SYSCALL:
		snprintf(key, sizeof(key), " pid=%d ", a->pid);
		if (a->pid > 0 && strstr(text, key)) {
			a->records++;
			snprintf(a->rec, sizeof(a->rec), "%s", text);
		}
		break;
	case AUDIT_CONFIG_CHANGE:
		snprintf(key, sizeof(key), " list=%d ", AUDIT_FILTER_EXIT);
		if (a->want_removed && strstr(text, " op=remove_rule") &&
		    strstr(text, key))
			a->removed = true;
		break;
	}
	return 1;
}

/* Send a request, and read until its answer: 0 or -errno. */
static int audit_request(struct audit_conn *a, __u16 type, const void *data,
			 size_t len)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	union {
		struct nlmsghdr nlh;
		char raw[NLMSG_SPACE(sizeof(struct audit_rule_data))];
	} req;
	double deadline = now() + AUDIT_WAIT_S;
	int ret;

	if (NLMSG_SPACE(len) > sizeof(req))
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = NLMSG_LENGTH(len);
	req.nlh.nlmsg_type = type;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.nlh.nlmsg_seq = ++a->seq;
	if (len)
		memcpy(NLMSG_DATA(&req.nlh), data, len);
	a->acked = false;
	a->ack_err = 0;
	a->got_status = false;
	if (sendto(a->fd, &req, req.nlh.nlmsg_len, 0,
		   (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	/* AUDIT_GET: the status comes from a kernel thread, maybe last. */
	while (!a->acked ||
	       (type == AUDIT_GET && !a->ack_err && !a->got_status)) {
		ret = audit_read_one(a, deadline);
		if (ret <= 0)
			return ret ? ret : -ETIMEDOUT;
	}
	return a->ack_err;
}

static int audit_set(struct audit_conn *a, __u32 mask, __u32 enabled,
		     __u32 pid)
{
	struct audit_status s;

	memset(&s, 0, sizeof(s));
	s.mask = mask;
	s.enabled = enabled;
	s.pid = pid;
	return audit_request(a, AUDIT_SET, &s, sizeof(s));
}

static void rule_field(struct audit_rule_data *r, __u32 field, __u32 op,
		       __u32 val)
{
	r->fields[r->field_count] = field;
	r->fieldflags[r->field_count] = op;
	r->values[r->field_count] = val;
	r->field_count++;
}

/* The task rule of the comment above (already there: fine). */
static int audit_task_rule(struct audit_conn *a)
{
	struct audit_rule_data r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.flags = AUDIT_FILTER_TASK;
	r.action = AUDIT_NEVER;
	rule_field(&r, AUDIT_EGID, AUDIT_NOT_EQUAL, AUDIT_TEST_GID);
	ret = audit_request(a, AUDIT_ADD_RULE, &r, sizeof(r));
	return ret == -EEXIST ? 0 : ret;
}

/* Add or delete (@type) the exit rule for the getpid() of @pid. */
static int audit_exit_rule(struct audit_conn *a, __u16 type, pid_t pid)
{
	struct audit_rule_data r;

	memset(&r, 0, sizeof(r));
	r.flags = AUDIT_FILTER_EXIT;
	r.action = AUDIT_ALWAYS;
	r.mask[__NR_getpid / 32] |= 1U << (__NR_getpid % 32);
	rule_field(&r, AUDIT_ARCH, AUDIT_EQUAL, SELF_ARCH);
	rule_field(&r, AUDIT_PID, AUDIT_EQUAL, pid);
	rule_field(&r, AUDIT_ARG0, AUDIT_EQUAL, AUDIT_A0);
	return audit_request(a, type, &r, sizeof(r));
}

/*
 * Register as the audit daemon and turn audit on; false (the test
 * skipped) when this kernel or this process cannot.
 */
static bool audit_start(struct __test_metadata *const _metadata,
			struct audit_conn *a)
{
	int ret;

	a->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (a->fd < 0)
		SKIP_UNLESS_REQUIRED(return false,
				     "no audit netlink socket (CONFIG_AUDIT not enabled, or audit=0): %s",
				     strerror(errno));
	ret = audit_request(a, AUDIT_GET, NULL, 0);
	if (ret == -EPERM || ret == -ECONNREFUSED)
		SKIP(return false,
		     "audit control needs CAP_AUDIT_CONTROL in the initial namespaces");
	ASSERT_EQ(0, ret);
	ASSERT_TRUE(a->got_status);
	if (a->status.enabled == 2)
		SKIP(return false, "the audit configuration is locked");
	ret = audit_task_rule(a);
	if (ret == -EINVAL)
		SKIP_UNLESS_REQUIRED(return false,
				     "CONFIG_AUDITSYSCALL not enabled (a task rule is EINVAL)");
	ASSERT_EQ(0, ret);
	ret = audit_set(a, AUDIT_STATUS_PID, 0, getpid());
	if (ret == -EEXIST)
		SKIP(return false, "an audit daemon is running");
	ASSERT_EQ(0, ret);
	a->registered = true;
	if (!a->status.enabled) {
		ASSERT_EQ(0, audit_set(a, AUDIT_STATUS_ENABLED, 1, 0));
		a->enabled_here = true;
	}
	return true;
}

/* Undo what audit_start() and the test changed, but the task rule. */
static void audit_stop(struct audit_conn *a)
{
	if (a->fd < 0)
		return;
	if (a->rule_pid)
		audit_exit_rule(a, AUDIT_DEL_RULE, a->rule_pid);
	if (a->enabled_here)
		audit_set(a, AUDIT_STATUS_ENABLED, 0, 0);
	if (a->registered)
		audit_set(a, AUDIT_STATUS_PID, 0, 0);
	close(a->fd);
	a->fd = -1;
}

FIXTURE(audit) {
	struct audit_conn a;
};

FIXTURE_VARIANT(audit) {
	bool mask;
};

/* The control: the same count without a mask (passes without the series). */
FIXTURE_VARIANT_ADD(audit, no_mask) { .mask = false };
FIXTURE_VARIANT_ADD(audit, mask) { .mask = true };

FIXTURE_SETUP(audit)
{
	memset(&self->a, 0, sizeof(self->a));
	self->a.fd = -1;
}

FIXTURE_TEARDOWN(audit)
{
	audit_stop(&self->a);
}

/*
 * The child's getpid(), which its mask allows, makes one AUDIT_SYSCALL
 * record, of this ABI (arch=), with its number, first argument and
 * return value. An inline check of the mask taken although the task has
 * an audit context (x86: SYSCALL_WORK_SYSCALL_AUDIT; arm64:
 * TIF_SYSCALL_AUDIT) skips audit_syscall_entry() and
 * audit_syscall_exit(): no record, which the count (1) catches. One that
 * skipped the exit only would leave the record to the task's exit
 * (__audit_free()), without success= and exit=, which the fields catch.
 */
TEST_F(audit, allowed_call_makes_one_syscall_record)
{
	struct audit_conn *a = &self->a;
	gid_t egid = getegid();
	struct handshake h;
	double deadline;
	struct mask m;
	pid_t pid;
	int ret;

	if (variant->mask && !require_mask(_metadata))
		return;
	if (!audit_start(_metadata, a))
		return;
	mask_all_but(&m, __NR_getppid);
	ASSERT_EQ(0, handshake_init(&h));
	/* The child's audit context: see the comment above. */
	ASSERT_EQ(0, setresgid(-1, AUDIT_TEST_GID, -1));
	pid = child_fork();
	if (pid == 0) {
		pid_t me = getpid();

		handshake_child_begin(&h);
		if (variant->mask) {
			CHILD_ASSERT(set_nnp() == 0);
			CHILD_ASSERT(mask_prctl_action(&m, SECCOMP_RET_ERRNO |
							   MASK_ERRNO) == 0);
		}
		CHILD_ASSERT(handshake_child_ready(&h));
		CHILD_ASSERT(own_sys(__NR_getpid, AUDIT_A0, 0, 0, 0, 0) == me);
		_exit(0);
	}
	ret = setresgid(-1, egid, -1);
	ASSERT_LE(0, pid);
	ASSERT_EQ(0, ret);
	if (!handshake_wait_child(&h)) {
		ASSERT_CHILD_OK(pid);
		ASSERT_TRUE(false);
	}
	a->pid = pid;
	ASSERT_EQ(0, audit_exit_rule(a, AUDIT_ADD_RULE, pid));
	a->rule_pid = pid;
	handshake_release_child(&h);
	ASSERT_CHILD_OK(pid);

	a->want_removed = true;
	ASSERT_EQ(0, audit_exit_rule(a, AUDIT_DEL_RULE, pid));
	a->rule_pid = 0;
	deadline = now() + AUDIT_WAIT_S;
	while (!a->removed && (ret = audit_read_one(a, deadline)) > 0)
		;
	ASSERT_TRUE(a->removed) {
		TH_LOG("no record of the rule's removal within %d s (%d)",
		       AUDIT_WAIT_S, ret);
	}
	ASSERT_FALSE(a->lost) {
		TH_LOG("the audit socket overflowed: records were lost");
	}
	ASSERT_EQ(1, a->records) {
		TH_LOG("AUDIT_SYSCALL records of the child's getpid(): %d",
		       a->records);
	}

	expect_audit_field(_metadata, a->rec, "arch", "%x", SELF_ARCH);
	expect_audit_field(_metadata, a->rec, "syscall", "%d", __NR_getpid);
	expect_audit_field(_metadata, a->rec, "success", "yes");
	expect_audit_field(_metadata, a->rec, "exit", "%d", pid);
	expect_audit_field(_metadata, a->rec, "a0", "%x", AUDIT_A0);
}

/*
 * The syscall tracepoints raw_syscalls:sys_enter and sys_exit, counted by
 * perf. The child opens a counting event of each (PERF_TYPE_TRACEPOINT,
 * with the event's id from tracefs) on itself, in one group, before it
 * installs its mask; then it reads both counts with one read(), makes
 * TP_CALLS getppid() calls and reads both counts again. Opening the events
 * registers the tracepoints, which gives every task their syscall work
 * (x86: SYSCALL_WORK_SYSCALL_TRACEPOINT; arm64: TIF_SYSCALL_TRACEPOINT)
 * until the last event is closed. The inline check of the mask must then
 * decline, and every allowed call make one event of each tracepoint. An
 * inline check taken anyway skips the sys_enter tracepoint of every
 * allowed call, the two reads' included: no sys_enter event at all
 * between them (the exit work still runs, on x86 as on arm64: the
 * sys_exit count alone would be right).
 *
 * The expected counts: a read's sys_enter fires before it reads the
 * counts, its sys_exit after. So the second read's values are the first
 * read's plus the first read's exit and the second read's entry, plus the
 * TP_CALLS getppid() calls: TP_CALLS + 1 sys_enter and TP_CALLS + 1
 * sys_exit events, with or without a mask.
 *
 * The mask allows exactly what the child calls after installing it:
 * read(), getppid() and exit_group(), with the kill action for anything
 * else. The child must have no other entry work for the mask variant to
 * tell: no audit context (the audit tests' task rule keeps it off every
 * task forked after them), no tracer, no syscall user dispatch.
 */
#define TRACEFS		"/sys/kernel/tracing"
#define DEBUGFS_TRACING	"/sys/kernel/debug/tracing"
#define TP_CALLS	1000

/* What the child read: nr (2), then the sys_enter and sys_exit counts. */
struct tp_counts {
	__u64 before[3];
	__u64 after[3];
};

FIXTURE(tracepoint) {
	bool mounted;	/* tracefs mounted on TRACEFS by the test */
	struct tp_counts *counts;
};

FIXTURE_VARIANT(tracepoint) {
	bool mask;
	bool filter;	/* an allow-all filter first, the mask stacked on it */
};

/* The control: the same counts without a mask (passes without the series). */
FIXTURE_VARIANT_ADD(tracepoint, no_mask) { .mask = false };
FIXTURE_VARIANT_ADD(tracepoint, mask) { .mask = true };
/* Mode 2, which never takes the inline check: the filters' entry path. */
FIXTURE_VARIANT_ADD(tracepoint, mask_on_filter) { .mask = true, .filter = true };

FIXTURE_SETUP(tracepoint)
{
	self->mounted = false;
	self->counts = mmap(NULL, sizeof(*self->counts),
			    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			    -1, 0);
	ASSERT_TRUE(self->counts != MAP_FAILED);
	memset(self->counts, 0, sizeof(*self->counts));
}

FIXTURE_TEARDOWN(tracepoint)
{
	if (self->mounted && umount(TRACEFS))
		TH_LOG("umount %s: %s", TRACEFS, strerror(errno));
	if (self->counts != MAP_FAILED)
		munmap(self->counts, sizeof(*self->counts));
}

/* The id of the trace event raw_syscalls/@name under @dir, or -errno. */
static long tp_event_id(const char *dir, const char *name)
{
	char path[128], buf[32], *end;
	long id;

	snprintf(path, sizeof(path), "%s/events/raw_syscalls/%s/id", dir, name);
	if (!read_file(path, buf, sizeof(buf)))
		return -errno;
	id = strtol(buf, &end, 10);
	return end == buf || *end || id <= 0 ? -EINVAL : id;
}

/*
 * The ids of raw_syscalls/sys_enter and sys_exit: tracefs on TRACEFS,
 * mounted there if it is not (then *@mounted is set: the teardown
 * unmounts it), else debugfs's tracing directory. False, with the test
 * skipped, when there are none or this process may not read them.
 */
static bool tp_event_ids(struct __test_metadata *const _metadata,
			 bool *mounted, long *enter_id, long *exit_id)
{
	const char *dir = TRACEFS;

	*enter_id = tp_event_id(dir, "sys_enter");
	if (*enter_id == -ENOENT && access(TRACEFS "/trace", F_OK) &&
	    !access(TRACEFS, F_OK)) {
		if (mount("nodev", TRACEFS, "tracefs", 0, NULL) == 0)
			*mounted = true;
		else if (errno == EPERM)
			SKIP(return false, "mounting tracefs needs CAP_SYS_ADMIN");
		*enter_id = tp_event_id(dir, "sys_enter");
	}
	if (*enter_id == -ENOENT) {
		dir = DEBUGFS_TRACING;
		*enter_id = tp_event_id(dir, "sys_enter");
	}
	*exit_id = *enter_id > 0 ? tp_event_id(dir, "sys_exit") : *enter_id;
	if (*exit_id == -EACCES || *exit_id == -EPERM)
		SKIP(return false, "the trace event ids under %s need root", dir);
	if (*exit_id < 0)
		SKIP_UNLESS_REQUIRED(return false,
				     "no raw_syscalls trace events in %s or %s (CONFIG_FTRACE_SYSCALLS not enabled): %s",
				     TRACEFS, DEBUGFS_TRACING, strerror(-*exit_id));
	return true;
}

/*
 * A counting perf event of the tracepoint @id on this task, any CPU, in
 * the group of @group (-1: its leader), enabled: its fd, or -errno.
 */
static int tp_event_open(long id, int group)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.read_format = PERF_FORMAT_GROUP;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, group,
		     PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

/* Both events, in one group: 0, or -errno with none left open. */
static int tp_events_open(long enter_id, long exit_id, int fd[2])
{
	fd[0] = tp_event_open(enter_id, -1);
	if (fd[0] < 0)
		return fd[0];
	fd[1] = tp_event_open(exit_id, fd[0]);
	if (fd[1] < 0) {
		close(fd[0]);
		return fd[1];
	}
	return 0;
}

/*
 * Can this process count the events? False, with the test skipped, when
 * it may not or the kernel cannot.
 */
static bool tp_events_work(struct __test_metadata *const _metadata,
			   long enter_id, long exit_id)
{
	int fd[2], ret = tp_events_open(enter_id, exit_id, fd);

	if (ret == -EACCES || ret == -EPERM)
		SKIP(return false,
		     "perf events of kernel tracepoints need CAP_PERFMON (or perf_event_paranoid): %s",
		     strerror(-ret));
	if (ret < 0)
		SKIP_UNLESS_REQUIRED(return false,
				     "no perf events of the syscall tracepoints (CONFIG_PERF_EVENTS or CONFIG_FTRACE_SYSCALLS not enabled): %s",
				     strerror(-ret));
	close(fd[1]);
	close(fd[0]);
	return true;
}

/*
 * TP_CALLS allowed getppid() calls make TP_CALLS + 1 events of each
 * tracepoint between the two reads (see above), with the mask as without.
 */
TEST_F(tracepoint, allowed_calls_make_one_sys_enter_and_sys_exit_event_each)
{
	struct tp_counts *c = self->counts;
	pid_t parent = getpid();
	long enter_id, exit_id;
	struct mask m;
	pid_t pid;

	if (variant->mask && !require_mask(_metadata))
		return;
	if (!tp_event_ids(_metadata, &self->mounted, &enter_id, &exit_id))
		return;
	if (!tp_events_work(_metadata, enter_id, exit_id))
		return;
	MASK_ONLY(&m, SECCOMP_MASK_MAX_BITS, __NR_read, __NR_getppid,
		  __NR_exit_group);
	pid = fork_child(_metadata);
	if (pid == 0) {
		int fd[2], i;

		CHILD_ASSERT(tp_events_open(enter_id, exit_id, fd) == 0);
		if (variant->mask) {
			CHILD_ASSERT(set_nnp() == 0);
			if (variant->filter)
				CHILD_ASSERT(filter_allow_all() == 0);
			CHILD_ASSERT(mask_prctl_action(&m,
						       SECCOMP_RET_KILL_PROCESS) == 0);
		}
		CHILD_ASSERT(own_sys(__NR_read, fd[0], (long)c->before,
				     sizeof(c->before), 0, 0) ==
			     sizeof(c->before));
		for (i = 0; i < TP_CALLS; i++)
			CHILD_ASSERT(own_sys(__NR_getppid, 0, 0, 0, 0, 0) == parent);
		CHILD_ASSERT(own_sys(__NR_read, fd[0], (long)c->after,
				     sizeof(c->after), 0, 0) ==
			     sizeof(c->after));
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);

	ASSERT_EQ(2, c->before[0]);
	ASSERT_EQ(2, c->after[0]);
	EXPECT_EQ(TP_CALLS + 1, c->after[1] - c->before[1]) {
		TH_LOG("sys_enter events: %llu before, %llu after",
		       (unsigned long long)c->before[1],
		       (unsigned long long)c->after[1]);
	}
	EXPECT_EQ(TP_CALLS + 1, c->after[2] - c->before[2]) {
		TH_LOG("sys_exit events: %llu before, %llu after",
		       (unsigned long long)c->before[2],
		       (unsigned long long)c->after[2]);
	}
}

TEST_HARNESS_MAIN
