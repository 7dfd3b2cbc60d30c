// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the /proc/<pid>/status lines
 */

#include "common.h"

#ifdef X86_BUILD
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
 */
TEST(status_shows_both_masks_to_another_task)
{
	static const unsigned int native_nrs[] = { 0, 1, 2, 3, 15, 39, 60, 231 };
	static const unsigned int compat_nrs[] = { 1, 3, 4, 252 };
	struct mask native, compat;
	char buf[8192];
	struct handshake hs;
	unsigned int i;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (!other_abi_available())
		SKIP(return, "the kernel has no second ABI (CONFIG_IA32_EMULATION)");
	mask_none(&native, 512);
	for (i = 0; i < ARRAY_SIZE(native_nrs); i++)
		mask_set(&native, native_nrs[i]);
	mask_none(&compat, 256);
	for (i = 0; i < ARRAY_SIZE(compat_nrs); i++)
		mask_set(&compat, compat_nrs[i]);
	ASSERT_EQ(0, handshake_init(&hs));
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		const __u32 arch[2] = { ARCH_X86_64, ARCH_I386 };
		const struct mask *m[2] = { &native, &compat };

		handshake_child_begin(&hs);
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_seccomp(2, arch, m) == 0);
		CHILD_ASSERT(handshake_child_ready(&hs));
		_exit(0);
	}
	ASSERT_TRUE(handshake_wait_child(&hs));
	ASSERT_EQ(0, read_status(pid, buf, sizeof(buf)));
	expect_block(_metadata, buf,
		     "Seccomp:\t3\n"
		     "Seccomp_filters:\t0\n"
		     "Seccomp_mask:\t0-3,15,39,60,231\n"
		     "Seccomp_mask_compat:\t1,3-4,252\n"
		     "Seccomp_mask_action:\tkill_process\n");
	handshake_release_child(&hs);
	ASSERT_CHILD_OK(pid);
}

/* Read by the task itself; the ABI it did not list shows the empty mask. */
TEST(status_shows_own_mask_and_empty_other_mask_to_self)
{
	struct mask m;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	if (!other_abi_available())
		SKIP(return, "the kernel has no second ABI (CONFIG_IA32_EMULATION)");
	mask_all_but(&m, __NR_getppid);
	mask_clear(&m, NR_UNIMPLEMENTED);
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char buf[8192], list[4096], want[8192];

		mask_format(&m, list, sizeof(list));
		if (X86_BUILD == 64)
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
#endif

/*
 * A task that has exited but is not reaped yet still shows mode 3, and
 * its exact mask list.
 */
TEST(status_of_a_zombie_shows_mode_3_and_its_mask)
{
	char buf[8192], val[4096], want[4096];
	siginfo_t info;
	struct mask m;
	int i;
	pid_t pid;

	if (!require_mask(_metadata))
		return;
	mask_all_but(&m, __NR_getppid);
	mask_clear(&m, NR_UNIMPLEMENTED);
	mask_format(&m, want, sizeof(want));
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		CHILD_ASSERT(set_nnp() == 0);
		CHILD_ASSERT(mask_prctl(&m) == 0);
		_exit(0);
	}
	/* Wait (bounded) for the zombie, without reaping it. */
	for (i = 0; i < CHILD_TIMEOUT_MS; i++) {
		memset(&info, 0, sizeof(info));
		ASSERT_EQ(0, waitid(P_PID, pid, &info,
				    WEXITED | WNOWAIT | WNOHANG));
		if (info.si_pid == pid)
			break;
		usleep(1000);
	}
	ASSERT_EQ(pid, info.si_pid) {
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

/* No mask lines in modes 0, 1 and 2. */
FIXTURE(no_mask_lines) {};

FIXTURE_VARIANT(no_mask_lines) {
	int mode;
};

FIXTURE_VARIANT_ADD(no_mask_lines, mode_0) {
	.mode = 0,
};

FIXTURE_VARIANT_ADD(no_mask_lines, mode_1_strict) {
	.mode = 1,
};

FIXTURE_VARIANT_ADD(no_mask_lines, mode_2_filter) {
	.mode = 2,
};

FIXTURE_SETUP(no_mask_lines) {}
FIXTURE_TEARDOWN(no_mask_lines) {}

TEST_F(no_mask_lines, status_has_no_mask_lines)
{
	char buf[8192], val[64], want[8];
	struct handshake hs;
	pid_t pid;

	ASSERT_EQ(0, handshake_init(&hs));
	pid = child_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		handshake_child_begin(&hs);
		CHILD_ASSERT(set_nnp() == 0);
		if (variant->mode == 2)
			CHILD_ASSERT(filter_allow_all() == 0);
		if (variant->mode == 1)
			CHILD_ASSERT(prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT,
					   0, 0, 0) == 0);
		/* Strict mode allows read, write and exit only. */
		if (!handshake_child_ready(&hs))
			syscall(__NR_exit, 1);
		syscall(__NR_exit, 0);
	}
	ASSERT_TRUE(handshake_wait_child(&hs));
	ASSERT_EQ(0, read_status(pid, buf, sizeof(buf)));
	ASSERT_TRUE(status_field(buf, "Seccomp", val, sizeof(val)));
	snprintf(want, sizeof(want), "%d", variant->mode);
	EXPECT_STREQ(want, val);
	EXPECT_TRUE(!strstr(buf, "Seccomp_mask"));
	handshake_release_child(&hs);
	ASSERT_CHILD_OK(pid);
}

TEST_HARNESS_MAIN
