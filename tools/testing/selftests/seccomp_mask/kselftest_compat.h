/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: what an older ../kselftest.h lacks.
 * Include it after ../kselftest.h or ../kselftest_harness.h. The
 * attribute macros are there since 6.5; the 6.1 header has neither.
 * Without them both attributes are left out: the same source built
 * against a newer header checks the formats and the noreturn functions.
 */

#ifndef _SELFTESTS_SECCOMP_MASK_KSELFTEST_COMPAT_H
#define _SELFTESTS_SECCOMP_MASK_KSELFTEST_COMPAT_H

#ifndef __noreturn
#define __noreturn
#endif
#ifndef __printf
#define __printf(...)
#endif

/*
 * A SKIP() in FIXTURE_SETUP() must end the test there, as it does with
 * the 6.12 harness: its SKIP() sets _metadata->exit_code to KSFT_SKIP,
 * and the fixture wrapper runs the test body only while exit_code is 0.
 *
 * The 6.1 harness (the one whose __EXPECT() counts steps with
 * __INC_STEP(), which reads _metadata->passed) has no exit_code: its
 * SKIP() sets passed = 1 and skip = 1, and the wrapper runs the body
 * unless passed is 0. So a setup that skips (require_mask() without the
 * mask mode, a missing ABI, no root) goes on into the body, which then
 * runs against a kernel it was told to skip, and can hang or report what
 * it finds there (the harness still reports SKIP, since skip wins in
 * __run_test(), but the body ran).
 *
 * Here SKIP() also clears passed. In setup, the wrapper then returns
 * before the body (and before the teardown, as 6.12 does for a setup that
 * did not complete). Elsewhere it changes nothing that is reported: the
 * test process of the 6.1 harness exits with 255 (SKIP) whenever skip is
 * set, whatever passed says, and the parent takes its verdict from that
 * exit status alone. (passed also stops the step count, which only a
 * failure reports.)
 */
#if defined(__INC_STEP) && defined(SKIP)
#undef SKIP
#define SKIP(statement, fmt, ...) do { \
	snprintf(_metadata->results->reason, \
		 sizeof(_metadata->results->reason), fmt, ##__VA_ARGS__); \
	if (TH_LOG_ENABLED) { \
		fprintf(TH_LOG_STREAM, "#      SKIP      %s\n", \
			_metadata->results->reason); \
	} \
	_metadata->passed = 0; \
	_metadata->skip = 1; \
	_metadata->trigger = 0; \
	statement; \
} while (0)
#endif

#endif /* _SELFTESTS_SECCOMP_MASK_KSELFTEST_COMPAT_H */
