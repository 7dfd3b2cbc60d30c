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

#endif /* _SELFTESTS_SECCOMP_MASK_KSELFTEST_COMPAT_H */
