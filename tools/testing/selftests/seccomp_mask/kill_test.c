// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: what a kill records, for a call through this
 * program's own ABI and through the other ABI: the siginfo in the
 * NT_SIGINFO note of the core dump and the seccomp audit record; and
 * which actions of the mask /proc/sys/kernel/seccomp/actions_logged lets
 * it log (logged.*).
 *
 * On arm64 the call through the other ABI is made by the mask_helper of
 * the other execution state, which the child becomes (helper.h): the pid
 * is the child's, its core dump is one of the other ELF class.
 */

#include <linux/elf.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <time.h>

#include "common.h"

#ifdef TWO_ABIS

/* On arm64, the other ABI's calls are the helper's (helper.h). */
#ifdef ARM64_BUILD
#define ARM64_OTHER_VIA_HELPER	1
#else
#define ARM64_OTHER_VIA_HELPER	0
#endif

/* What the kill must record: the ABI and the number of the denied call. */
struct expected_kill {
	__u32 arch;
	int nr;
	int compat;
};

#ifdef X86_BUILD
static struct expected_kill expected(bool other_abi)
{
	bool x86_64 = (X86_BUILD == 64) != other_abi;
	struct expected_kill e = {
		.arch = x86_64 ? ARCH_X86_64 : ARCH_I386,
		.nr = x86_64 ? NR64_getppid : NR32_getppid,
		/* ia32 calls are compat calls on a 64-bit kernel only. */
		.compat = !x86_64 && kernel_is_64bit(),
	};

	return e;
}

/* The masks of deny_getppid(): getppid clear in both ABIs' numbers. */
static void getppid_masks(struct mask *own, struct mask *other)
{
	mask_all_but(own, NR64_getppid);
	mask_clear(own, NR32_getppid);
	*other = *own;
}
#else
static struct expected_kill expected(bool other_abi)
{
	bool aarch64 = (ARM64_BUILD == 64) != other_abi;
	struct expected_kill e = {
		.arch = aarch64 ? ARCH_AARCH64 : ARCH_ARM,
		.nr = aarch64 ? NRA64_getppid : NRA32_getppid,
		/* AArch32 calls are the compat calls of arm64. */
		.compat = !aarch64,
	};

	return e;
}

/* The masks of deny_getppid(): each ABI's getppid clear. */
static void getppid_masks(struct mask *own, struct mask *other)
{
	mask_all_but(own, __NR_getppid);
	mask_all_abi_but(other, OTHER_MAX_BITS, OTHER_NR_getppid);
}
#endif

/*
 * In a child: mask getppid in both ABIs (this program's only, when the
 * kernel has no other), with @action for the denied calls.
 */
static void deny_getppid(__u32 action)
{
	struct mask own, other;
	int ret;

	getppid_masks(&own, &other);
	CHILD_ASSERT(set_nnp() == 0);
	if (other_abi_available())
		ret = mask_seccomp_own_other(0, action, 2, &own, &other);
	else
		ret = mask_prctl_action(&own, action);
	CHILD_ASSERT(ret == 0);
}

#ifdef ARM64_BUILD
/*
 * In a child: deny getppid with @action (deny_getppid()), then become the
 * helper of the other execution state, which makes its getppid (first
 * argument OWN_CALL_ARG0) and checks what @action makes of it: with the
 * kill, "-f" @marker_fd and "-k"; with the trap, that it is trapped; with
 * the errno, that it returns -errno; with the log, that it runs.
 */
static void __noreturn other_getppid_takes(__u32 action, int marker_fd)
{
	static struct helper_cmd cmd;
	static char path[PATH_MAX];
	const long nr = OTHER_NR_getppid, a0 = OWN_CALL_ARG0;

	CHILD_ASSERT(helper_path(path, sizeof(path), true));
	helper_cmd_init(&cmd, path, "3");
	helper_cmd_getppid_takes(&cmd, nr, a0, action, marker_fd);
	deny_getppid(action);
	helper_exec(&cmd);
}
#endif

/*
 * In a child: mask getppid in both ABIs, then call it through the ABI the
 * variant names (on arm64, that of the other state in its helper, which
 * writes to @marker_fd). Does not return.
 */
static void masked_getppid(bool other_abi, int marker_fd)
{
#ifdef ARM64_BUILD
	if (other_abi)
		other_getppid_takes(0, marker_fd);
#endif
	deny_getppid(0);
	if (other_abi)
#ifdef X86_BUILD
		CHILD_DENIED(other_call(OTHER_NR_getppid, 0, 0, 0));
#else
		CHILD_ASSERT(!"no call through the other ABI");
#endif
	else
		CHILD_DENIED(syscall(__NR_getppid));
	_exit(0);
}

/*
 * In the parent: was the child of masked_getppid() (status @status)
 * killed by SIGSYS right at its denied call? On arm64 through the other
 * ABI, the helper's marker @mk says where.
 */
static bool masked_getppid_killed(struct __test_metadata *const _metadata,
				  bool other_abi, int status,
				  struct helper_marker *mk, int line)
{
	char got[16];

	if (!other_abi || !ARM64_OTHER_VIA_HELPER)
		return denied_call_killed(_metadata, status, line);
	helper_marker_read(mk, got, sizeof(got));
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS &&
	    !strcmp(got, "b"))
		return true;
	TH_LOG("line %d: the helper wrote \"%s\", expected \"b\" and a SIGSYS",
	       line, got);
	child_describe(_metadata, status, line);
	return false;
}

/* core_pattern pointed at a file for the duration of a test. */
static char saved_pattern[256];
static char core_dir[64];

/*
 * The fields of the siginfo of an NT_SIGINFO note that the test reads,
 * wherever the note's ELF class puts them: a core dump of the other
 * execution state on arm64 is of the other class, its siginfo of the
 * other layout (the union after three ints, 8-aligned in a 64-bit one;
 * _sigsys: the call address, then _syscall and _arch).
 */
struct core_sig {
	int signo;
	int code;
	int syscall;
	unsigned int arch;
};

/* Read the siginfo of the note @desc (@len bytes) of ELF class @cls. */
static bool core_sig_parse(const unsigned char *desc, size_t len, int cls,
			   struct core_sig *cs)
{
	size_t sys = cls == ELFCLASS64 ? 24 : 16;

	if (len < sys + 8)
		return false;
	memcpy(&cs->signo, desc, 4);
	memcpy(&cs->code, desc + 8, 4);
	memcpy(&cs->syscall, desc + sys, 4);
	memcpy(&cs->arch, desc + sys + 4, 4);
	return true;
}

/* The siginfo of the NT_SIGINFO note of an ELF core, of either class. */
static bool core_siginfo(const char *path, struct core_sig *cs)
{
	unsigned char ident[EI_NIDENT];
	bool found = false;
	unsigned long phoff, phentsize, phnum, type, offset, filesz;
	int fd, cls;
	unsigned long i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (pread(fd, ident, sizeof(ident), 0) != sizeof(ident) ||
	    memcmp(ident, ELFMAG, SELFMAG))
		goto out;
	cls = ident[EI_CLASS];
	if (cls == ELFCLASS64) {
		struct elf64_hdr eh;

		if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
		    eh.e_type != ET_CORE)
			goto out;
		phoff = eh.e_phoff;
		phentsize = eh.e_phentsize;
		phnum = eh.e_phnum;
	} else if (cls == ELFCLASS32) {
		struct elf32_hdr eh;

		if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
		    eh.e_type != ET_CORE)
			goto out;
		phoff = eh.e_phoff;
		phentsize = eh.e_phentsize;
		phnum = eh.e_phnum;
	} else {
		goto out;
	}
	for (i = 0; i < phnum && !found; i++) {
		unsigned char *notes;
		size_t off;

		if (cls == ELFCLASS64) {
			struct elf64_phdr ph;

			if (pread(fd, &ph, sizeof(ph), phoff + i * phentsize) !=
			    sizeof(ph))
				continue;
			type = ph.p_type;
			offset = ph.p_offset;
			filesz = ph.p_filesz;
		} else {
			struct elf32_phdr ph;

			if (pread(fd, &ph, sizeof(ph), phoff + i * phentsize) !=
			    sizeof(ph))
				continue;
			type = ph.p_type;
			offset = ph.p_offset;
			filesz = ph.p_filesz;
		}
		if (type != PT_NOTE)
			continue;
		notes = malloc(filesz);
		if (!notes ||
		    pread(fd, notes, filesz, offset) != (ssize_t)filesz) {
			free(notes);
			goto out;
		}
		/* struct elf32_note and elf64_note: the same three words. */
		for (off = 0; off + sizeof(struct elf32_note) <= filesz;) {
			struct elf32_note *nh = (struct elf32_note *)(notes + off);
			size_t name = off + sizeof(*nh);
			size_t desc = name + ((nh->n_namesz + 3) & ~3);

			if (desc + nh->n_descsz > filesz)
				break;
			if (nh->n_type == NT_SIGINFO &&
			    !strcmp((char *)notes + name, "CORE")) {
				found = core_sig_parse(notes + desc,
						       nh->n_descsz, cls, cs);
				break;
			}
			off = desc + ((nh->n_descsz + 3) & ~3);
		}
		free(notes);
	}
out:
	close(fd);
	return found;
}

FIXTURE(core) {
	bool restore;
};

FIXTURE_VARIANT(core) {
	bool other_abi;
};

FIXTURE_VARIANT_ADD(core, own_abi) { .other_abi = false };
FIXTURE_VARIANT_ADD(core, other_abi) { .other_abi = true };

#define CORE_PATTERN "/proc/sys/kernel/core_pattern"

FIXTURE_SETUP(core)
{
	char pattern[128];

	if (geteuid() != 0)
		SKIP(return, "needs root to set %s", CORE_PATTERN);
	if (!read_file(CORE_PATTERN, saved_pattern, sizeof(saved_pattern)))
		SKIP_UNLESS_REQUIRED(return, "CONFIG_COREDUMP not enabled (no %s)",
				     CORE_PATTERN);
	snprintf(core_dir, sizeof(core_dir), "/tmp/seccomp_mask_core.XXXXXX");
	ASSERT_TRUE(!!mkdtemp(core_dir));
	snprintf(pattern, sizeof(pattern), "%s/core.%%p", core_dir);
	ASSERT_TRUE(write_file(CORE_PATTERN, pattern));
	self->restore = true;
}

FIXTURE_TEARDOWN(core)
{
	if (self->restore)
		write_file(CORE_PATTERN, saved_pattern);
	rmdir(core_dir);
}

TEST_F(core, siginfo_note_names_syscall_and_abi)
{
	struct expected_kill e = expected(variant->other_abi);
	struct helper_marker mk;
	struct core_sig si = { 0 };
	char path[128];
	int status;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (variant->other_abi && !require_other_abi(_metadata))
		return;
	ASSERT_EQ(0, helper_marker_open(&mk));
	pid = fork_child(_metadata);
	if (pid == 0) {
		struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };

		close(mk.fd[0]);
		CHILD_ASSERT(setrlimit(RLIMIT_CORE, &rl) == 0);
		CHILD_ASSERT(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) == 0);
		masked_getppid(variant->other_abi, mk.fd[1]);
	}
	close(mk.fd[1]);
	status = child_wait(_metadata, pid);
	snprintf(path, sizeof(path), "%s/core.%d", core_dir, pid);
	ASSERT_TRUE(masked_getppid_killed(_metadata, variant->other_abi,
					  status, &mk, __LINE__));
	EXPECT_TRUE(WCOREDUMP(status));
	ASSERT_TRUE(core_siginfo(path, &si)) {
		TH_LOG("no NT_SIGINFO note in %s", path);
	}
	unlink(path);
	EXPECT_EQ(SIGSYS, si.signo);
	EXPECT_EQ(SYS_SECCOMP, si.code);
	EXPECT_EQ(e.nr, si.syscall);
	EXPECT_EQ(e.arch, si.arch);
}

/*
 * The audit record, from the audit netlink socket: this process registers
 * as the audit daemon for the test, so printk's rate limit cannot drop
 * the record. Returns the netlink errno of AUDIT_SET.
 */
static int audit_set_pid(int fd, __u32 pid)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr nlh;
		struct audit_status s;
	} req;
	char buf[8192];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	ssize_t n;

	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = NLMSG_LENGTH(sizeof(req.s));
	req.nlh.nlmsg_type = AUDIT_SET;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.s.mask = AUDIT_STATUS_PID;
	req.s.pid = pid;
	if (sendto(fd, &req, req.nlh.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		if (n >= (ssize_t)NLMSG_HDRLEN && nlh->nlmsg_type == NLMSG_ERROR)
			return ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
	}
}

static int audit_register(void)
{
	struct timeval tv = { .tv_sec = 5 };
	int fd;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    audit_set_pid(fd, getpid())) {
		close(fd);
		return -1;
	}
	return fd;
}

static void audit_unregister(int fd)
{
	audit_set_pid(fd, 0);
	close(fd);
}

/*
 * Did a child's call leave a seccomp audit record (type 1326)? Any answer
 * is only meaningful against a later record that must come: after the
 * child's call, a second child (the marker) makes a call that a BPF
 * filter, not the mask, answers with an action actions_logged does log.
 * The kernel queues a record in the very syscall that logs it, and the
 * marker starts after the first child was reaped, so audit delivers any
 * record of the first child before the marker's: none before the marker's
 * is none at all. No fixed wait is involved: the wait ends with the
 * marker's record, or at a deadline.
 */

/* How long a record may take to come: past printk's rate-limit interval, 5 s. */
#define AUDIT_WAIT_S		6

/* The names actions_logged takes, in the kernel's order ("allow" cannot be logged). */
static const char *const logged_names[] = {
	"kill_process", "kill_thread", "trap", "errno", "user_notif", "trace",
	"log",
};

enum audit_read {
	AUDIT_READ_TIMEOUT,
	AUDIT_READ_RECORD,
	AUDIT_READ_LOST,
};

/*
 * The next seccomp record (type 1326) from the audit netlink socket
 * @netlink or, when that is -1, from /dev/kmsg (@kmsg), before @deadline.
 * AUDIT_READ_LOST: records may have been dropped since the last one read,
 * by printk's rate limit ("callbacks suppressed"), the audit backlog
 * ("audit_lost="), an overwritten printk ring (EPIPE) or a full socket
 * buffer (ENOBUFS).
 */
static enum audit_read next_seccomp_record(int kmsg, int netlink,
					   double deadline, char *rec,
					   size_t len)
{
	struct pollfd pfd = {
		.fd = netlink >= 0 ? netlink : kmsg,
		.events = POLLIN,
	};
	char buf[8192];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

	for (;;) {
		double left = deadline - now();
		ssize_t n;
		char *msg;

		if (netlink >= 0)
			n = recv(netlink, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		else
			n = read(kmsg, buf, sizeof(buf) - 1);
		if (n < 0 && (errno == EPIPE || errno == ENOBUFS))
			return AUDIT_READ_LOST;
		if (n <= 0) {
			if (left <= 0)
				return AUDIT_READ_TIMEOUT;
			poll(&pfd, 1, (int)(left * 1000) + 1);
			continue;
		}
		buf[n] = '\0';
		if (netlink >= 0) {
			if (n < (ssize_t)NLMSG_HDRLEN ||
			    nlh->nlmsg_type != AUDIT_SECCOMP)
				continue;
			/*
			 * One record per datagram; audit sets nlmsg_len to
			 * the length of the text alone, so take the
			 * datagram's length instead.
			 */
			snprintf(rec, len, "%.*s", (int)(n - NLMSG_HDRLEN),
				 (char *)NLMSG_DATA(nlh));
			return AUDIT_READ_RECORD;
		}
		msg = strchr(buf, ';');
		if (!msg)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = '\0';
		if (strstr(msg, "callbacks suppressed") ||
		    strstr(msg, "audit_lost="))
			return AUDIT_READ_LOST;
		if (strstr(msg, "type=1326")) {
			snprintf(rec, len, "%s", msg);
			return AUDIT_READ_RECORD;
		}
	}
}

enum audit_outcome {
	AUDIT_NO_RECORD,
	AUDIT_HAS_RECORD,
	AUDIT_UNKNOWN,
};

/*
 * Did @pid leave a seccomp record before the one of the marker @marker?
 * AUDIT_HAS_RECORD with the record in @rec; AUDIT_NO_RECORD when the
 * marker's came first and nothing was dropped; AUDIT_UNKNOWN when the
 * marker's did not come within AUDIT_WAIT_S, or records were dropped
 * before it.
 */
static enum audit_outcome audit_outcome(int kmsg, int netlink, pid_t pid,
					pid_t marker, char *rec, size_t len)
{
	double deadline = now() + AUDIT_WAIT_S;
	char key[32], marker_key[32];
	bool lost = false;

	snprintf(key, sizeof(key), " pid=%d ", pid);
	snprintf(marker_key, sizeof(marker_key), " pid=%d ", marker);
	for (;;) {
		switch (next_seccomp_record(kmsg, netlink, deadline, rec,
					    len)) {
		case AUDIT_READ_TIMEOUT:
			return AUDIT_UNKNOWN;
		case AUDIT_READ_LOST:
			lost = true;
			break;
		case AUDIT_READ_RECORD:
			if (strstr(rec, key))
				return AUDIT_HAS_RECORD;
			if (strstr(rec, marker_key))
				return lost ? AUDIT_UNKNOWN : AUDIT_NO_RECORD;
			break;
		}
	}
}

/* No core file of the children that are killed on purpose. */
static void no_core(void)
{
	struct rlimit rl = { 0, 0 };

	CHILD_ASSERT(setrlimit(RLIMIT_CORE, &rl) == 0);
}

/* Does @action kill the process: SECCOMP_RET_KILL_PROCESS, or version 1's 0? */
static bool action_kills(__u32 action)
{
	return !action || action == SECCOMP_RET_KILL_PROCESS;
}

/*
 * In a child: deny getppid with @action (deny_getppid()), call it through
 * the ABI the variant names and check that the call took @action. Exits 0
 * when @action lets the process live.
 */
static void getppid_takes(bool other_abi, __u32 action, int marker_fd)
{
	struct expected_kill e = expected(other_abi);
	pid_t ppid = getppid();
	long ret;

	no_core();
#ifdef ARM64_BUILD
	if (other_abi)
		other_getppid_takes(action, marker_fd);
#endif
	CHILD_ASSERT(catch_sigsys() == 0);
	deny_getppid(action);
#ifdef X86_BUILD
	CHILD_DENIED(abi_call(e.arch, NR64_getppid, NR32_getppid, 0, 0, 0));
#else
	CHILD_DENIED(own_call(e.nr));
#endif
	ret = child_report->denied_ret;
	switch (action & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_LOG:
		/* Runs. */
		CHILD_ASSERT(ret == ppid);
		CHILD_ASSERT(sigsys_seen.count == 0);
		break;
	case SECCOMP_RET_ERRNO:
		CHILD_ASSERT(ret == -(long)(action & SECCOMP_RET_DATA));
		CHILD_ASSERT(sigsys_seen.count == 0);
		break;
	case SECCOMP_RET_TRAP:
		CHILD_ASSERT(sigsys_seen.count == 1);
		CHILD_ASSERT(sigsys_seen.nr == e.nr);
		CHILD_ASSERT(sigsys_seen.arch == e.arch);
		break;
	default:
		CHILD_ASSERT(!"the denied call did not kill the process");
	}
	_exit(0);
}

/*
 * In a child: the marker, a getppid through this program's ABI that a BPF
 * filter answers with @ret (SECCOMP_RET_LOG or SECCOMP_RET_KILL_PROCESS).
 * No mask: the code under test cannot drop or delay the marker's record.
 */
static void marker_getppid(__u32 ret)
{
	const struct filter_rule rule = { __NR_getppid, ret };
	pid_t ppid = getppid();

	no_core();
	CHILD_ASSERT(set_nnp() == 0);
	CHILD_ASSERT(filter_install(-1, &rule, 1) == 0);
	CHILD_DENIED(syscall(__NR_getppid));
	CHILD_ASSERT(ret == SECCOMP_RET_LOG);
	CHILD_ASSERT(child_report->denied_ret == ppid);
	_exit(0);
}

/*
 * Fork a child that runs @call (which does not return): it must end as
 * @action makes it end, killed at its CHILD_DENIED() call or with 0.
 * The child's pid.
 */
#define RUN_CHILD(action, call)						\
	({								\
		pid_t __pid = fork_child(_metadata);			\
		if (__pid == 0)						\
			call;						\
		if (action_kills(action))				\
			ASSERT_CHILD_DENIED(__pid);			\
		else							\
			ASSERT_CHILD_OK(__pid);				\
		__pid;							\
	})

/*
 * RUN_CHILD() of getppid_takes(): the child must end as @action makes it
 * end; on arm64 through the other ABI, the helper's marker says where a
 * kill came. The child's pid.
 */
static pid_t run_getppid_takes(struct __test_metadata *const _metadata,
			       bool other_abi, __u32 action)
{
	struct helper_marker mk;
	int status;
	pid_t pid;

	if (!other_abi || !ARM64_OTHER_VIA_HELPER)
		return RUN_CHILD(action, getppid_takes(other_abi, action, -1));
	ASSERT_EQ(0, helper_marker_open(&mk));
	pid = fork_child(_metadata);
	if (pid == 0) {
		close(mk.fd[0]);
		getppid_takes(other_abi, action, mk.fd[1]);
	}
	if (action_kills(action)) {
		close(mk.fd[1]);
		status = child_wait(_metadata, pid);
		ASSERT_TRUE(masked_getppid_killed(_metadata, other_abi, status,
						  &mk, __LINE__));
	} else {
		close(mk.fd[1]);
		close(mk.fd[0]);
		ASSERT_CHILD_OK(pid);
	}
	return pid;
}

/*
 * A child calls getppid, which its mask denies with @action, through the
 * ABI @other_abi names; then the marker child, whose getppid a filter
 * answers with @marker_action. Did the first child's call leave a record
 * (in @rec) before the marker's, read from the audit socket @netlink or,
 * when that is -1, from /dev/kmsg (@kmsg)? Through /dev/kmsg, an unknown
 * answer (printk's rate limit) is tried again with new children, in a new
 * interval of the rate limit: audit_outcome() waited past its 5 s, or
 * read the "callbacks suppressed" that begins one. Fails the test when no
 * attempt gets an answer.
 */
static bool call_recorded(struct __test_metadata *const _metadata, int kmsg,
			  int netlink, bool other_abi, __u32 action,
			  __u32 marker_action, char *rec, size_t len)
{
	int attempt, attempts = kmsg >= 0 ? 3 : 1;
	enum audit_outcome outcome = AUDIT_UNKNOWN;
	pid_t pid, marker;

	for (attempt = 0; attempt < attempts; attempt++) {
		if (kmsg >= 0)
			ASSERT_LE(0, lseek(kmsg, 0, SEEK_END));
		pid = run_getppid_takes(_metadata, other_abi, action);
		marker = RUN_CHILD(marker_action, marker_getppid(marker_action));
		outcome = audit_outcome(kmsg, netlink, pid, marker, rec, len);
		if (outcome != AUDIT_UNKNOWN)
			break;
		TH_LOG("attempt %d: %s: no record of marker %d (after %d) in %d s, or lost",
		       attempt + 1,
		       netlink >= 0 ? "the audit socket" : "/dev/kmsg",
		       marker, pid, AUDIT_WAIT_S);
	}
	ASSERT_NE(AUDIT_UNKNOWN, outcome) {
		TH_LOG("the marker's record never came: nothing can be concluded");
	}
	return outcome == AUDIT_HAS_RECORD;
}

/*
 * Three rounds of children at most (kmsg), each bounded: well within the
 * timeout, so that the teardown always runs.
 */
#define AUDIT_TIMEOUT		90

FIXTURE(audit) {
	int kmsg;
	int netlink;
};

FIXTURE_VARIANT(audit) {
	bool other_abi;
};

FIXTURE_VARIANT_ADD(audit, own_abi) { .other_abi = false };
FIXTURE_VARIANT_ADD(audit, other_abi) { .other_abi = true };

#define ACTIONS_LOGGED "/proc/sys/kernel/seccomp/actions_logged"

FIXTURE_SETUP(audit)
{
	char logged[256];

	self->kmsg = -1;
	self->netlink = -1;
	if (access("/proc/self/loginuid", F_OK))
		SKIP_UNLESS_REQUIRED(return,
				     "CONFIG_AUDIT not enabled (no /proc/self/loginuid)");
	ASSERT_TRUE(read_file(ACTIONS_LOGGED, logged, sizeof(logged)));
	ASSERT_TRUE(!!strstr(logged, "kill_process")) {
		TH_LOG("%s: %s", ACTIONS_LOGGED, logged);
	}
	self->netlink = audit_register();
	if (self->netlink >= 0)
		return;
	TH_LOG("cannot register as the audit daemon: reading /dev/kmsg");
	self->kmsg = kmsg_open_at_end();
	if (self->kmsg < 0)
		SKIP_UNLESS_REQUIRED(return, "cannot read /dev/kmsg: %s",
				     strerror(errno));
}

FIXTURE_TEARDOWN(audit)
{
	if (self->kmsg >= 0)
		close(self->kmsg);
	if (self->netlink >= 0)
		audit_unregister(self->netlink);
}

/* The record of expected(@other_abi)'s call, with @sig and action @code. */
static void check_record(struct __test_metadata *const _metadata,
			 const char *rec, bool other_abi, int sig, __u32 code)
{
	struct expected_kill e = expected(other_abi);

	expect_audit_field(_metadata, rec, "syscall", "%d", e.nr);
	expect_audit_field(_metadata, rec, "arch", "%x", e.arch);
	expect_audit_field(_metadata, rec, "compat", "%d", e.compat);
	expect_audit_field(_metadata, rec, "sig", "%d", sig);
	expect_audit_field(_metadata, rec, "code", "0x%x", code);
}

/*
 * The record of a kill by version 1's action 0, which actions_logged
 * logs as kill_process (the setup checked it names it): a first child's
 * call, then the marker's, which a filter kills (call_recorded()).
 */
TEST_F_TIMEOUT(audit, record_names_syscall_abi_and_compat, AUDIT_TIMEOUT)
{
	char rec[1024];

	if (!require_mask(_metadata))
		return;
	if (variant->other_abi && !require_other_abi(_metadata))
		return;
	ASSERT_TRUE(call_recorded(_metadata, self->kmsg, self->netlink,
				  variant->other_abi, 0,
				  SECCOMP_RET_KILL_PROCESS, rec, sizeof(rec))) {
		TH_LOG("no type=1326 record of the killed child before the marker's: %s",
		       rec);
	}
	TH_LOG("%s", rec);

	/* SIGSYS, killed as by SECCOMP_RET_KILL_PROCESS. */
	check_record(_metadata, rec, variant->other_abi, SIGSYS,
		     SECCOMP_RET_KILL_PROCESS);
}

/*
 * actions_logged decides, for the mask as for filters, whether a call is
 * logged: a kill when it names kill_process, the log action when it names
 * log. TRAP and ERRNO are logged for a filter only when it was installed
 * with SECCOMP_FILTER_FLAG_LOG, which the mask has no equivalent of: as
 * for a filter without it, they are never logged, whatever actions_logged
 * says. The setup saves actions_logged, the teardown restores it.
 */
FIXTURE(logged) {
	pid_t owner;		/* the process that has kmsg and netlink */
	int kmsg;
	int netlink;
	bool saved;
	bool ready;
	char actions[256];
};

FIXTURE_VARIANT(logged) {
	bool other_abi;
};

FIXTURE_VARIANT_ADD(logged, own_abi) { .other_abi = false };
FIXTURE_VARIANT_ADD(logged, other_abi) { .other_abi = true };

FIXTURE_SETUP(logged)
{
	self->owner = getpid();
	self->kmsg = -1;
	self->netlink = -1;
	if (geteuid() != 0)
		SKIP(return, "needs root to write %s", ACTIONS_LOGGED);
	if (access("/proc/self/loginuid", F_OK))
		SKIP_UNLESS_REQUIRED(return,
				     "CONFIG_AUDIT not enabled (no /proc/self/loginuid)");
	ASSERT_TRUE(read_file(ACTIONS_LOGGED, self->actions,
			      sizeof(self->actions)));
	self->saved = true;
	self->netlink = audit_register();
	if (self->netlink < 0) {
		TH_LOG("cannot register as the audit daemon: reading /dev/kmsg");
		self->kmsg = kmsg_open_at_end();
		if (self->kmsg < 0)
			SKIP_UNLESS_REQUIRED(return, "cannot read /dev/kmsg: %s",
					     strerror(errno));
	}
	self->ready = true;
}

/*
 * The teardown must run whatever became of the test. The 6.12 harness
 * runs the test in a child, but its FIXTURE_TEARDOWN() after a failed
 * ASSERT_*() only when the child's "pid_t child", set after setjmp() and
 * not volatile, survives the longjmp(), which -O2 does not guarantee (it
 * does not: the teardown is skipped). Its FIXTURE_TEARDOWN_PARENT() runs
 * once in whichever process gets there: the parent, or that child when
 * it takes itself for the parent. An older harness (6.1) has no
 * FIXTURE_TEARDOWN_PARENT(), and runs FIXTURE_TEARDOWN() after the
 * longjmp() in the process of the test. The file descriptors are those
 * of the process that ran the setup: only it closes them.
 */
#ifdef FIXTURE_TEARDOWN_PARENT
FIXTURE_TEARDOWN_PARENT(logged)
#else
FIXTURE_TEARDOWN(logged)
#endif
{
	char line[sizeof(self->actions) + 1], now_logged[256];
	bool restored;

	if (self->saved) {
		/* A newline ends the value, an empty one included. */
		snprintf(line, sizeof(line), "%s\n", self->actions);
		restored = write_file(ACTIONS_LOGGED, line) &&
			   read_file(ACTIONS_LOGGED, now_logged,
				     sizeof(now_logged)) &&
			   !strcmp(now_logged, self->actions);
		/*
		 * Not an EXPECT_*() with a handler: after a failed ASSERT_*()
		 * the harness's trigger is still set and would run it.
		 */
		if (!restored)
			TH_LOG("could not restore %s to \"%s\"",
			       ACTIONS_LOGGED, self->actions);
		EXPECT_TRUE(restored);
	}
	if (getpid() != self->owner)
		return;
	if (self->kmsg >= 0)
		close(self->kmsg);
	if (self->netlink >= 0)
		audit_unregister(self->netlink);
}

/* Set actions_logged to every action but @without (NULL: every one). */
static void log_all_but(struct __test_metadata *const _metadata,
			const char *without)
{
	char want[256], got[256];
	size_t i, pos = 0;

	want[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(logged_names); i++)
		if (!without || strcmp(without, logged_names[i]))
			pos += snprintf(want + pos, sizeof(want) - pos, "%s%s",
					pos ? " " : "", logged_names[i]);
	ASSERT_TRUE(write_file(ACTIONS_LOGGED, want)) {
		TH_LOG("cannot write \"%s\" to %s: %s", want, ACTIONS_LOGGED,
		       strerror(errno));
	}
	ASSERT_TRUE(read_file(ACTIONS_LOGGED, got, sizeof(got)));
	ASSERT_STREQ(want, got);
}

/*
 * With actions_logged set to every action but @without, call_recorded()
 * with @action: did the call leave a record (in @rec)? The marker's
 * action is one actions_logged names: log when kill_process is left out,
 * else kill_process.
 */
static bool call_logged(struct __test_metadata *const _metadata,
			struct _test_data_logged *self, bool other_abi,
			__u32 action, const char *without, char *rec,
			size_t len)
{
	__u32 marker_action = without && !strcmp(without, "kill_process") ?
		SECCOMP_RET_LOG : SECCOMP_RET_KILL_PROCESS;

	log_all_but(_metadata, without);
	return call_recorded(_metadata, self->kmsg, self->netlink, other_abi,
			     action, marker_action, rec, len);
}

/* Is the mask mode there, and the ABI the variant names? */
static bool logged_ready(struct __test_metadata *const _metadata,
			 struct _test_data_logged *self, bool other_abi)
{
	/* An older harness runs the test after a SKIP() in the setup. */
	if (!self->ready || !require_mask(_metadata))
		return false;
	return !other_abi || require_other_abi(_metadata);
}

/*
 * logged_ready(), then call_logged() with @action, and actions_logged
 * without @without (NULL: with every action): the call must be logged
 * (its record that of a SIGSYS for a kill, of no signal for a log) with
 * @logged, else it must not be.
 */
static void expect_logged(struct __test_metadata *const _metadata,
			  struct _test_data_logged *self, bool other_abi,
			  __u32 action, const char *without, bool logged)
{
	char rec[1024], act[64];
	bool got;

	if (!logged_ready(_metadata, self, other_abi))
		return;
	action_format(action, act, sizeof(act));
	got = call_logged(_metadata, self, other_abi, action, without, rec,
			  sizeof(rec));
	if (!logged) {
		/* TRAP and ERRNO: as a filter's without SECCOMP_FILTER_FLAG_LOG. */
		ASSERT_FALSE(got) {
			TH_LOG("the %s action was logged, actions_logged %s%s: %s",
			       act, without ? "without " : "with every action",
			       without ? without : "", rec);
		}
		return;
	}
	ASSERT_TRUE(got) {
		TH_LOG("no record of the %s action before the marker's (%s)",
		       act, rec);
	}
	check_record(_metadata, rec, other_abi,
		     action == SECCOMP_RET_KILL_PROCESS ? SIGSYS : 0, action);
}

TEST_F_TIMEOUT(logged, kill_logged_with_kill_process, AUDIT_TIMEOUT)
{
	expect_logged(_metadata, self, variant->other_abi,
		      SECCOMP_RET_KILL_PROCESS, NULL, true);
}

TEST_F_TIMEOUT(logged, kill_not_logged_without_kill_process, AUDIT_TIMEOUT)
{
	expect_logged(_metadata, self, variant->other_abi,
		      SECCOMP_RET_KILL_PROCESS, "kill_process", false);
}

TEST_F_TIMEOUT(logged, log_logged_with_log, AUDIT_TIMEOUT)
{
	expect_logged(_metadata, self, variant->other_abi, SECCOMP_RET_LOG,
		      NULL, true);
}

TEST_F_TIMEOUT(logged, log_not_logged_without_log, AUDIT_TIMEOUT)
{
	expect_logged(_metadata, self, variant->other_abi, SECCOMP_RET_LOG,
		      "log", false);
}

/* As for a filter without SECCOMP_FILTER_FLAG_LOG: trap in actions_logged or not. */
TEST_F_TIMEOUT(logged, trap_not_logged_even_with_trap, AUDIT_TIMEOUT)
{
	expect_logged(_metadata, self, variant->other_abi, SECCOMP_RET_TRAP,
		      NULL, false);
}

TEST_F_TIMEOUT(logged, errno_not_logged_even_with_errno, AUDIT_TIMEOUT)
{
	expect_logged(_metadata, self, variant->other_abi,
		      SECCOMP_RET_ERRNO | MASK_ERRNO, NULL, false);
}

#endif

/*
 * The kill is SECCOMP_RET_KILL_PROCESS: no handler of SIGSYS runs, and
 * neither ignoring nor blocking SIGSYS saves the process.
 */
FIXTURE(sigsys) {};

FIXTURE_VARIANT(sigsys) {
	bool handler;
	bool ignore;
	bool block;
};

FIXTURE_VARIANT_ADD(sigsys, handler) { .handler = true };
FIXTURE_VARIANT_ADD(sigsys, ignored) { .ignore = true };
FIXTURE_VARIANT_ADD(sigsys, blocked) { .block = true };
FIXTURE_VARIANT_ADD(sigsys, handler_and_blocked) { .handler = true, .block = true };

FIXTURE_SETUP(sigsys) {}
FIXTURE_TEARDOWN(sigsys) {}

static int *sigsys_handled;

static void sigsys_handler(int sig, siginfo_t *si, void *uc)
{
	__atomic_store_n(sigsys_handled, 1, __ATOMIC_SEQ_CST);
}

TEST_F(sigsys, process_is_killed_at_the_denied_call_anyway)
{
	struct mask m;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	sigsys_handled = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(sigsys_handled != MAP_FAILED);
	*sigsys_handled = 0;
	mask_all_but(&m, __NR_getppid);
	pid = fork_child(_metadata);
	if (pid == 0) {
		struct sigaction sa = { .sa_flags = SA_SIGINFO };
		sigset_t set;

		if (variant->handler)
			sa.sa_sigaction = sigsys_handler;
		else
			sa.sa_handler = SIG_IGN;
		if (variant->handler || variant->ignore)
			CHILD_ASSERT(sigaction(SIGSYS, &sa, NULL) == 0);
		if (variant->block) {
			sigemptyset(&set);
			sigaddset(&set, SIGSYS);
			CHILD_ASSERT(sigprocmask(SIG_BLOCK, &set, NULL) == 0);
		}
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&m) == 0);
		CHILD_DENIED(syscall(__NR_getppid));
		_exit(0);
	}
	ASSERT_CHILD_DENIED(pid);
	EXPECT_EQ(0, *sigsys_handled) {
		TH_LOG("the SIGSYS handler ran");
	}
	munmap(sigsys_handled, 4096);
}

TEST_HARNESS_MAIN
