// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the /proc/<pid>/status lines
 */

#include <grp.h>

#include "common.h"

/*
 * The status of a child in seccomp @mode (0; 1 strict; 2 an allow-all
 * filter; 3 the @n masks @m of the ABIs @arch), read by this task to its
 * end into @buf while the child waits.
 */
static void child_status(struct __test_metadata *const _metadata, int mode,
			 unsigned int n, const __u32 *arch, const struct mask *const *m,
			 char *buf, size_t len)
{
	struct handshake hs;
	pid_t pid;
	int ret;

	ASSERT_EQ(0, handshake_init(&hs));
	pid = fork_child(_metadata);
	if (pid == 0) {
		handshake_child_begin(&hs);
		CHILD_ASSERT(set_nnp() == 0);
		if (mode == 3)
			CHILD_ASSERT(mask_seccomp(n, arch, m) == 0);
		if (mode == 2)
			CHILD_ASSERT(filter_allow_all() == 0);
		if (mode == 1)
			CHILD_ASSERT(prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT,
					   0, 0, 0) == 0);
		/* Strict mode allows read, write and exit only; so do the masks. */
		if (!handshake_child_ready(&hs))
			syscall(__NR_exit, 1);
		syscall(__NR_exit, 0);
	}
	ASSERT_TRUE(handshake_wait_child(&hs));
	ret = read_status(pid, buf, len);
	handshake_release_child(&hs);
	ASSERT_EQ(0, ret) {
		TH_LOG("read_status: %s", strerror(errno));
	}
	ASSERT_CHILD_OK(pid);
}

#ifdef TWO_ABIS
/* The Seccomp lines of a status buffer, from "Seccomp:" to the end. */
static const char *seccomp_block(const char *buf)
{
	const char *p = strstr(buf, "\nSeccomp:\t");

	return p ? p + 1 : NULL;
}

static void expect_block(struct __test_metadata *const _metadata,
			 const char *buf, const char *want)
{
	const char *block = seccomp_block(buf);

	ASSERT_TRUE(!!block);
	ASSERT_EQ(0, strncmp(block, want, strlen(want))) {
		TH_LOG("expected:\n%s", want);
		TH_LOG("got:\n%.*s", (int)strlen(want) + 40, block);
	}
}

/*
 * The contract's example: 64-bit mask 0-3,15,39,60,231 (read, write,
 * open, close, rt_sigreturn, getpid, exit, exit_group) and ia32 mask
 * 1,3-4,252 (exit, read, write, exit_group), read by another task.
 * arm64: AArch64 mask 56-57,63-64,93-94,139,172 (openat, close, read,
 * write, exit, exit_group, rt_sigreturn, getpid) and AArch32 mask of 1040
 * bits 1,3-4,248,1026,1029 (exit, read, write, exit_group, and the
 * ARM-private cacheflush and set_tls, shown as their bits).
 */
#ifdef X86_BUILD
#define NATIVE_ARCH	ARCH_X86_64
#define COMPAT_ARCH	ARCH_I386
#define NATIVE_NBITS	512
#define COMPAT_NBITS	256
#define COMPAT_MAX_BITS	SECCOMP_MASK_MAX_BITS
#define NATIVE_LIST	"0-3,15,39,60,231"
#define COMPAT_LIST	"1,3-4,252"
static const unsigned int native_nrs[] = { 0, 1, 2, 3, 15, 39, 60, 231 };
static const unsigned int compat_nrs[] = { 1, 3, 4, 252 };
#else
#define NATIVE_ARCH	ARCH_AARCH64
#define COMPAT_ARCH	ARCH_ARM
#define NATIVE_NBITS	512
#define COMPAT_NBITS	ARM_MAX_BITS
#define COMPAT_MAX_BITS	ARM_MAX_BITS
#define NATIVE_LIST	"56-57,63-64,93-94,139,172"
#define COMPAT_LIST	"1,3-4,248,1026,1029"
static const unsigned int native_nrs[] = { 56, 57, 63, 64, 93, 94, 139, 172 };
static const unsigned int compat_nrs[] = {
	1, 3, 4, 248, ARM_PRIVATE_BIT(ARM_NR_cacheflush),
	ARM_PRIVATE_BIT(ARM_NR_set_tls),
};
#endif

TEST(status_shows_both_masks_to_another_task)
{
	const __u32 arch[2] = { NATIVE_ARCH, COMPAT_ARCH };
	struct mask native, compat;
	const struct mask *m[2] = { &native, &compat };
	char buf[8192];

	if (!require_mask_with_abi(_metadata, true))
		return;
	mask_only(&native, NATIVE_NBITS, native_nrs, ARRAY_SIZE(native_nrs));
	mask_only(&compat, COMPAT_NBITS, compat_nrs, ARRAY_SIZE(compat_nrs));
	child_status(_metadata, 3, 2, arch, m, buf, sizeof(buf));
	expect_block(_metadata, buf,
		     "Seccomp:\t3\n"
		     "Seccomp_filters:\t0\n"
		     "Seccomp_mask:\t" NATIVE_LIST "\n"
		     "Seccomp_mask_compat:\t" COMPAT_LIST "\n"
		     "Seccomp_mask_action:\tkill_process\n");
}

/*
 * The longest lines: every other bit of both masks, each a list of about
 * 500 numbers (2 KiB), shown whole to another task. The status file is
 * then over 4 KiB; a reader's single page must not be enough for it.
 */
TEST(status_shows_the_longest_mask_lines_whole)
{
	const unsigned int nbits[2] = { SECCOMP_MASK_MAX_BITS, COMPAT_MAX_BITS };
	const unsigned int *nrs[2] = { native_nrs, compat_nrs };
	const size_t n_nrs[2] = { ARRAY_SIZE(native_nrs), ARRAY_SIZE(compat_nrs) };
	const __u32 arch[2] = { NATIVE_ARCH, COMPAT_ARCH };
	struct mask mk[2];
	const struct mask *m[2] = { &mk[0], &mk[1] };
	char list[2][4096], want[16384], buf[16384];
	unsigned int i;
	int abi;

	if (!require_mask_with_abi(_metadata, true))
		return;
	/* the even numbers, and the calls the child makes after its install */
	for (abi = 0; abi < 2; abi++) {
		mask_none(&mk[abi], nbits[abi]);
		for (i = 0; i < nbits[abi]; i += 2)
			mask_set(&mk[abi], i);
		for (i = 0; i < n_nrs[abi]; i++)
			mask_set(&mk[abi], nrs[abi][i]);
		mask_format(&mk[abi], list[abi], sizeof(list[abi]));
		ASSERT_LT(2000, strlen(list[abi]));
	}
	snprintf(want, sizeof(want),
		 "Seccomp:\t3\nSeccomp_filters:\t0\nSeccomp_mask:\t%s\nSeccomp_mask_compat:\t%s\nSeccomp_mask_action:\tkill_process\n",
		 list[0], list[1]);
	child_status(_metadata, 3, 2, arch, m, buf, sizeof(buf));
	/* over 4 KiB: a reader's single page is not enough */
	ASSERT_LT(4096, strlen(buf));
	expect_block(_metadata, buf, want);
}

/* Read by the task itself; the ABI it did not list shows the empty mask. */
TEST(status_shows_own_mask_and_empty_other_mask_to_self)
{
	struct mask m;
	pid_t pid;

	if (!require_mask_with_abi(_metadata, true))
		return;
	mask_all_but(&m, __NR_getppid);
	mask_clear(&m, NR_UNIMPLEMENTED);
	pid = fork_child(_metadata);
	if (pid == 0) {
		char buf[8192], list[4096], want[8192];

		mask_format(&m, list, sizeof(list));
		if (!self_is_compat())
			snprintf(want, sizeof(want),
				 "Seccomp:\t3\nSeccomp_filters:\t0\nSeccomp_mask:\t%s\nSeccomp_mask_compat:\t\nSeccomp_mask_action:\tkill_process\n",
				 list);
		else
			snprintf(want, sizeof(want),
				 "Seccomp:\t3\nSeccomp_filters:\t0\nSeccomp_mask:\t\nSeccomp_mask_compat:\t%s\nSeccomp_mask_action:\tkill_process\n",
				 list);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&m) == 0);
		CHILD_ASSERT(read_status(0, buf, sizeof(buf)) == 0);
		CHILD_ASSERT(seccomp_block(buf));
		CHILD_ASSERT(!strncmp(seccomp_block(buf), want, strlen(want)));
		_exit(0);
	}
	ASSERT_CHILD_OK(pid);
}

/*
 * "The lines are readable by whoever may read the status file, like the
 * Seccomp: line": a reader of another user, with no capability at all,
 * sees the mask lines of a task that is neither root nor the reader.
 */
#define TARGET_ID	65533
#define READER_ID	65534

/* The lines a reader compares; the mask lines and the target's Uid. */
#define VIEW_KEYS	5
#define VIEW_UID	4
static const char *const view_keys[VIEW_KEYS] = {
	"Seccomp", "Seccomp_mask", "Seccomp_mask_compat",
	"Seccomp_mask_action", "Uid",
};

/* What one task read in /proc/<pid>/status, and who it was. */
struct status_view {
	int read_errno;			/* 0: the status file was read */
	uid_t uid[3];			/* real, effective, saved */
	gid_t gid[3];
	int ngroups;
	bool no_caps;			/* none effective or permitted */
	bool found[VIEW_KEYS];
	char val[VIEW_KEYS][512];
};

/*
 * Become uid and gid @id with no supplementary group: leaving uid 0
 * (without SECBIT_KEEP_CAPS) clears every capability. A credential change
 * clears the parent death signal: it is set again.
 */
static bool become_user(uid_t id)
{
	return !setgroups(0, NULL) && !setresgid(id, id, id) &&
	       !setresuid(id, id, id) &&
	       !prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
}

static bool caps_empty(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	int i;

	if (syscall(__NR_capget, &hdr, data))
		return false;
	for (i = 0; i < 2; i++)
		if (data[i].effective || data[i].permitted)
			return false;
	return true;
}

/* Read /proc/@pid/status (0: self) into @v, with the reader's credentials. */
static void status_view_fill(pid_t pid, struct status_view *v)
{
	char buf[8192];
	int i;

	memset(v, 0, sizeof(*v));
	getresuid(&v->uid[0], &v->uid[1], &v->uid[2]);
	getresgid(&v->gid[0], &v->gid[1], &v->gid[2]);
	v->ngroups = getgroups(0, NULL);
	v->no_caps = caps_empty();
	if (read_status(pid, buf, sizeof(buf))) {
		v->read_errno = errno ? errno : EIO;
		return;
	}
	for (i = 0; i < VIEW_KEYS; i++)
		v->found[i] = status_field(buf, view_keys[i], v->val[i],
					   sizeof(v->val[i]));
}

static bool read_full(int fd, void *buf, size_t len)
{
	size_t off = 0;
	ssize_t n;

	while (off < len) {
		n = read(fd, (char *)buf + off, len - off);
		if (n <= 0)
			return false;
		off += n;
	}
	return true;
}

TEST(status_mask_lines_readable_by_an_unprivileged_other_user)
{
	const __u32 action = SECCOMP_RET_ERRNO | MASK_ERRNO;
	struct status_view self_view, reader_view;
	char want[VIEW_KEYS][4096], uid_prefix[32];
	struct mask own, other;
	struct handshake hs;
	pid_t target, reader;
	int results[2], i;

	if (!require_mask(_metadata))
		return;
	if (geteuid() != 0)
		SKIP(return, "needs root: to run the target and the reader as two other users");
	if (!require_other_abi(_metadata))
		return;
	/* Distinct masks: all of this ABI but getppid; 4 calls of the other. */
	mask_all_but(&own, __NR_getppid);
	MASK_ONLY(&other, 256, 1, 3, 60, 231);
	snprintf(want[0], sizeof(want[0]), "3");
	for (i = 1; i <= 2; i++)
		mask_format(!strcmp(view_keys[i], mask_line(false)) ?
			    &own : &other, want[i], sizeof(want[i]));
	action_format(action, want[3], sizeof(want[3]));
	snprintf(uid_prefix, sizeof(uid_prefix), "%d\t", TARGET_ID);

	ASSERT_EQ(0, pipe(results));
	ASSERT_EQ(0, handshake_init(&hs));
	target = fork_child(_metadata);
	if (target == 0) {
		struct status_view v;

		handshake_child_begin(&hs);
		close(results[0]);
		CHILD_ASSERT(become_user(TARGET_ID));
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp_own_other(0, action, 2, &own,
						    &other) == 0);
		/* In force, with its action. */
		CHILD_ASSERT(syscall(__NR_getppid) == -1 && errno == MASK_ERRNO);
		status_view_fill(0, &v);
		CHILD_ASSERT(write(results[1], &v, sizeof(v)) == sizeof(v));
		CHILD_ASSERT(handshake_child_ready(&hs));
		_exit(0);
	}
	if (!handshake_wait_child(&hs)) {
		ASSERT_CHILD_OK(target);
		ASSERT_TRUE(false);
	}
	ASSERT_TRUE(read_full(results[0], &self_view, sizeof(self_view)));

	reader = fork_child(_metadata);
	if (reader == 0) {
		struct status_view v;

		close(results[0]);
		close(hs.ready[0]);
		close(hs.done[1]);
		CHILD_ASSERT(become_user(READER_ID));
		status_view_fill(target, &v);
		CHILD_ASSERT(write(results[1], &v, sizeof(v)) == sizeof(v));
		_exit(0);
	}
	close(results[1]);
	ASSERT_CHILD_OK(reader);
	ASSERT_TRUE(read_full(results[0], &reader_view, sizeof(reader_view)));
	close(results[0]);
	handshake_release_child(&hs);
	ASSERT_CHILD_OK(target);

	/* Three users: root (the test), the target and the reader. */
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(TARGET_ID, self_view.uid[i]);
		ASSERT_EQ(TARGET_ID, self_view.gid[i]);
		ASSERT_EQ(READER_ID, reader_view.uid[i]);
		ASSERT_EQ(READER_ID, reader_view.gid[i]);
	}
	ASSERT_EQ(0, reader_view.ngroups);
	ASSERT_TRUE(reader_view.no_caps) {
		TH_LOG("the reader still has capabilities");
	}
	ASSERT_EQ(0, self_view.read_errno);
	ASSERT_EQ(0, reader_view.read_errno) {
		TH_LOG("uid %d cannot read /proc/%d/status: %s (is /proc mounted with hidepid?)",
		       READER_ID, target, strerror(reader_view.read_errno));
	}
	/* The reader sees the task of another user: uid TARGET_ID. */
	ASSERT_TRUE(reader_view.found[VIEW_UID]);
	ASSERT_EQ(0, strncmp(reader_view.val[VIEW_UID], uid_prefix,
			     strlen(uid_prefix))) {
		TH_LOG("Uid: %s", reader_view.val[VIEW_UID]);
	}
	for (i = 0; i < VIEW_UID; i++) {
		/* The target's own read shows its state... */
		ASSERT_TRUE(self_view.found[i]) {
			TH_LOG("the target's own read has no %s: line",
			       view_keys[i]);
		}
		ASSERT_STREQ(want[i], self_view.val[i]) {
			TH_LOG("%s: of the target's own read", view_keys[i]);
		}
		/* ...and the other user sees exactly the same line. */
		ASSERT_TRUE(reader_view.found[i]) {
			TH_LOG("uid %d reading /proc/%d/status sees no %s: line",
			       READER_ID, target, view_keys[i]);
		}
		ASSERT_STREQ(self_view.val[i], reader_view.val[i]) {
			TH_LOG("%s: as uid %d reads it", view_keys[i],
			       READER_ID);
		}
	}
}
#endif

/*
 * A task that has exited but is not reaped yet still shows mode 3, and
 * its exact mask list.
 */
TEST(status_of_a_zombie_shows_mode_3_and_its_mask)
{
	struct timespec step = { 0, 1000 * 1000 };
	char buf[8192], val[4096], want[4096];
	double deadline;
	siginfo_t info;
	struct mask m;
	pid_t pid;

	mask_all_but(&m, __NR_getppid);
	mask_clear(&m, NR_UNIMPLEMENTED);
	mask_format(&m, want, sizeof(want));
	pid = fork_mask_child(_metadata);
	if (pid < 0)
		return;
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&m) == 0);
		_exit(0);
	}
	/* Wait for the zombie, without reaping it, until a deadline. */
	deadline = now() + CHILD_TIMEOUT_MS / 1000.0;
	for (;;) {
		memset(&info, 0, sizeof(info));
		ASSERT_EQ(0, waitid(P_PID, pid, &info,
				    WEXITED | WNOWAIT | WNOHANG));
		if (info.si_pid == pid || now() >= deadline)
			break;
		nanosleep(&step, NULL);
	}
	ASSERT_EQ(pid, info.si_pid) {
		TH_LOG("the child did not exit within %d ms: killed",
		       CHILD_TIMEOUT_MS);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	ASSERT_EQ(0, read_status(pid, buf, sizeof(buf)));
	ASSERT_CHILD_OK(pid);
	ASSERT_TRUE(status_field(buf, "Seccomp", val, sizeof(val)));
	ASSERT_STREQ("3", val);
	ASSERT_TRUE(status_field(buf, self_is_compat() ? "Seccomp_mask_compat" :
				 "Seccomp_mask", val, sizeof(val))) {
		TH_LOG("a zombie shows Seccomp: 3 but no mask line");
	}
	ASSERT_STREQ(want, val);
}

/*
 * No mask lines in modes 0, 1 and 2. Passes without the series: the
 * control of the tests above.
 */
FIXTURE(no_mask_lines) {};

FIXTURE_VARIANT(no_mask_lines) {
	int mode;
};

FIXTURE_VARIANT_ADD(no_mask_lines, mode_0) { .mode = 0 };
FIXTURE_VARIANT_ADD(no_mask_lines, mode_1_strict) { .mode = 1 };
FIXTURE_VARIANT_ADD(no_mask_lines, mode_2_filter) { .mode = 2 };

FIXTURE_SETUP(no_mask_lines) {}
FIXTURE_TEARDOWN(no_mask_lines) {}

TEST_F(no_mask_lines, status_has_no_mask_lines)
{
	char buf[8192], val[64], want[8];

	child_status(_metadata, variant->mode, 0, NULL, NULL, buf, sizeof(buf));
	ASSERT_TRUE(status_field(buf, "Seccomp", val, sizeof(val)));
	snprintf(want, sizeof(want), "%d", variant->mode);
	EXPECT_STREQ(want, val);
	EXPECT_TRUE(!strstr(buf, "Seccomp_mask"));
}

TEST_HARNESS_MAIN
