// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: what a kill records, for a call through this
 * program's own ABI and through the other x86 ABI: the siginfo in the
 * NT_SIGINFO note of the core dump and the seccomp audit record.
 */

#include <linux/elf.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <time.h>

#include "common.h"

#ifdef X86_BUILD

/* What the kill must record: the ABI and the number of the denied call. */
struct expected_kill {
	__u32 arch;
	int nr;
	int compat;
};

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

/*
 * In a child: mask getppid in both ABIs, then call it through the ABI the
 * variant names. Does not return.
 */
static void masked_getppid(bool other_abi)
{
	struct mask m;
	int ret;

	mask_all_but(&m, NR64_getppid);
	mask_clear(&m, NR32_getppid);
	CHILD_ASSERT(set_nnp() == 0);
	if (other_abi_available()) {
		const __u32 arch[2] = { ARCH_X86_64, ARCH_I386 };
		const struct mask *both[2] = { &m, &m };

		ret = mask_seccomp(2, arch, both);
	} else {
		ret = mask_prctl(&m);
	}
	CHILD_ASSERT(ret == 0);
#if X86_BUILD == 64
	if (other_abi)
		CHILD_DENIED(int80(NR32_getppid, 0, 0, 0));
	else
		CHILD_DENIED(syscall(NR64_getppid));
#else
	if (other_abi)
		CHILD_DENIED(syscall64(NR64_getppid, 0, 0, 0));
	else
		CHILD_DENIED(syscall(NR32_getppid));
#endif
	_exit(0);
}

/* core_pattern pointed at a file for the duration of a test. */
static char saved_pattern[256];
static char core_dir[64];

/* The ELF class of this program, and of its core dumps. */
#if X86_BUILD == 64
#define elf_ehdr elf64_hdr
#define elf_phdr elf64_phdr
#define elf_nhdr elf64_note
#else
#define elf_ehdr elf32_hdr
#define elf_phdr elf32_phdr
#define elf_nhdr elf32_note
#endif

/* The siginfo of the NT_SIGINFO note of an ELF core of this program. */
static bool core_siginfo(const char *path, siginfo_t *si)
{
	struct elf_ehdr eh;
	struct elf_phdr ph;
	bool found = false;
	int fd, i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_type != ET_CORE)
		goto out;
	for (i = 0; i < eh.e_phnum && !found; i++) {
		char *notes;
		size_t off;

		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * eh.e_phentsize)
		    != sizeof(ph) || ph.p_type != PT_NOTE)
			continue;
		notes = malloc(ph.p_filesz);
		if (!notes ||
		    pread(fd, notes, ph.p_filesz, ph.p_offset) !=
		    (ssize_t)ph.p_filesz) {
			free(notes);
			goto out;
		}
		for (off = 0; off + sizeof(struct elf_nhdr) <= ph.p_filesz;) {
			struct elf_nhdr *nh = (struct elf_nhdr *)(notes + off);
			size_t name = off + sizeof(*nh);
			size_t desc = name + ((nh->n_namesz + 3) & ~3);

			if (desc + nh->n_descsz > ph.p_filesz)
				break;
			if (nh->n_type == NT_SIGINFO &&
			    nh->n_descsz >= sizeof(*si) &&
			    !strcmp(notes + name, "CORE")) {
				memcpy(si, notes + desc, sizeof(*si));
				found = true;
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

FIXTURE_VARIANT_ADD(core, own_abi) {
	.other_abi = false,
};

FIXTURE_VARIANT_ADD(core, other_abi) {
	.other_abi = true,
};

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
	char path[128];
	siginfo_t si;
	int status;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (variant->other_abi && !require_other_abi(_metadata))
		return;
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };

		CHILD_ASSERT(setrlimit(RLIMIT_CORE, &rl) == 0);
		CHILD_ASSERT(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) == 0);
		masked_getppid(variant->other_abi);
	}
	status = child_wait(_metadata, pid);
	snprintf(path, sizeof(path), "%s/core.%d", core_dir, pid);
	ASSERT_TRUE(denied_call_killed(_metadata, status, __LINE__));
	EXPECT_TRUE(WCOREDUMP(status));
	ASSERT_TRUE(core_siginfo(path, &si)) {
		TH_LOG("no NT_SIGINFO note in %s", path);
	}
	unlink(path);
	EXPECT_EQ(SIGSYS, si.si_signo);
	EXPECT_EQ(SYS_SECCOMP, si.si_code);
	EXPECT_EQ(e.nr, si.si_syscall);
	EXPECT_EQ(e.arch, si.si_arch);
}

/*
 * The audit record, through printk when no audit daemon listens: find the
 * type=1326 record of @pid in what was logged since kmsg_open_at_end()
 * gave @fd, for 5 s at the most.
 */
static bool find_audit_record(int fd, pid_t pid, char *rec, size_t len)
{
	char buf[8192], key[32];
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	double deadline = now() + 5;

	snprintf(key, sizeof(key), " pid=%d ", pid);
	for (;;) {
		ssize_t n;

		while ((n = read(fd, buf, sizeof(buf) - 1)) > 0 ||
		       (n < 0 && errno == EPIPE)) {
			char *msg;

			if (n < 0)
				continue;
			buf[n] = '\0';
			msg = strchr(buf, ';');
			if (msg && strstr(msg, "type=1326") &&
			    strstr(msg, key)) {
				snprintf(rec, len, "%s", msg + 1);
				rec[strcspn(rec, "\n")] = '\0';
				return true;
			}
		}
		if (now() >= deadline)
			return false;
		nanosleep(&ts, NULL);
	}
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

/* Find the AUDIT_SECCOMP record of @pid; gives up after 5 s of silence. */
static bool receive_audit_record(int fd, pid_t pid, char *rec, size_t len)
{
	char buf[8192], key[32];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	ssize_t n;

	snprintf(key, sizeof(key), " pid=%d ", pid);
	while ((n = recv(fd, buf, sizeof(buf) - 1, 0)) > 0) {
		if (n < (ssize_t)NLMSG_HDRLEN || nlh->nlmsg_type != AUDIT_SECCOMP)
			continue;
		/*
		 * One record per datagram; audit sets nlmsg_len to the length
		 * of the text alone, so take the datagram's length instead.
		 */
		snprintf(rec, len, "%.*s", (int)(n - NLMSG_HDRLEN),
			 (char *)NLMSG_DATA(nlh));
		if (strstr(rec, key))
			return true;
	}
	return false;
}

/* The value of "@key=" in an audit record. */
static bool audit_field(const char *rec, const char *key, char *val,
			size_t len)
{
	char k[32];
	const char *p;

	snprintf(k, sizeof(k), " %s=", key);
	p = strstr(rec, k);
	if (!p)
		return false;
	p += strlen(k);
	snprintf(val, len, "%.*s", (int)strcspn(p, " "), p);
	return true;
}

FIXTURE(audit) {
	int kmsg;
	int netlink;
};

FIXTURE_VARIANT(audit) {
	bool other_abi;
};

FIXTURE_VARIANT_ADD(audit, own_abi) {
	.other_abi = false,
};

FIXTURE_VARIANT_ADD(audit, other_abi) {
	.other_abi = true,
};

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

TEST_F(audit, record_names_syscall_abi_and_compat)
{
	struct expected_kill e = expected(variant->other_abi);
	char rec[1024], val[64], want[64];
	int attempt, attempts;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (variant->other_abi && !require_other_abi(_metadata))
		return;
	/* printk is rate limited: more attempts after its interval. */
	attempts = self->netlink >= 0 ? 1 : 3;
	for (attempt = 0; attempt < attempts; attempt++) {
		if (attempt)
			sleep(6);
		pid = child_fork();
		ASSERT_LE(0, pid);
		if (pid == 0)
			masked_getppid(variant->other_abi);
		ASSERT_CHILD_DENIED(pid);
		if (self->netlink >= 0 ?
		    receive_audit_record(self->netlink, pid, rec, sizeof(rec)) :
		    find_audit_record(self->kmsg, pid, rec, sizeof(rec)))
			break;
	}
	ASSERT_LT(attempt, attempts) {
		TH_LOG("no type=1326 record for the killed child");
	}
	TH_LOG("%s", rec);

	ASSERT_TRUE(audit_field(rec, "sig", val, sizeof(val)));
	EXPECT_STREQ("31", val);
	ASSERT_TRUE(audit_field(rec, "arch", val, sizeof(val)));
	snprintf(want, sizeof(want), "%x", e.arch);
	EXPECT_STREQ(want, val);
	ASSERT_TRUE(audit_field(rec, "syscall", val, sizeof(val)));
	snprintf(want, sizeof(want), "%d", e.nr);
	EXPECT_STREQ(want, val);
	ASSERT_TRUE(audit_field(rec, "compat", val, sizeof(val)));
	snprintf(want, sizeof(want), "%d", e.compat);
	EXPECT_STREQ(want, val);
	/* Killed as by SECCOMP_RET_KILL_PROCESS. */
	ASSERT_TRUE(audit_field(rec, "code", val, sizeof(val)));
	EXPECT_STREQ("0x80000000", val);
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
FIXTURE_VARIANT_ADD(sigsys, handler_and_blocked) {
	.handler = true, .block = true,
};

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
	pid = child_fork();
	ASSERT_LE(0, pid);
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
