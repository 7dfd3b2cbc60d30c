/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: shared helpers, by concern
 *
 *   abi.h      this program's ABI, syscall numbers, raw syscalls
 *   child.h    children, CHILD_ASSERT(), CHILD_DENIED() and how a child ended
 *   helper.h   mask_helper, and through it the other ABI's calls on arm64
 *   install.h  masks, and installing them (prctl(), seccomp(2))
 *   proc.h     /proc/<pid>/status, sysctl files, /dev/kmsg, audit records
 *   require.h  skip (or fail, SECCOMP_MASK_REQUIRED=1) without a feature
 *   tracer.h   (not included here) a tracer's start, and its changes of a
 *              stopped syscall
 *
 * Programs with a main() of their own (the fuzzer, the lifetime test)
 * define SECCOMP_MASK_NO_HARNESS before including this file: they get
 * every helper but those that report through the kselftest harness.
 */

#ifndef _SELFTESTS_SECCOMP_MASK_COMMON_H
#define _SELFTESTS_SECCOMP_MASK_COMMON_H

#include "abi.h"
#include "child.h"
#include "helper.h"
#include "install.h"
#include "proc.h"
#include "require.h"

#endif /* _SELFTESTS_SECCOMP_MASK_COMMON_H */
