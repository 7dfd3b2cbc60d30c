/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: the uapi of the mask mode, version 2 of
 * the contract, for every program of this directory.
 *
 * Include it before anything else that includes <linux/seccomp.h>. The
 * installed headers may be those of a kernel without the mask mode, or of
 * one that still has the version 1 struct seccomp_mask_set (a field
 * "reserved" where version 2 has "action"): the header's own struct
 * seccomp_mask_set is renamed out of the way while it is included, and
 * the version 2 layout, which is the same in both versions, is declared
 * here.
 */

#ifndef _SELFTESTS_SECCOMP_MASK_UAPI_FALLBACK_H
#define _SELFTESTS_SECCOMP_MASK_UAPI_FALLBACK_H

#include <linux/types.h>

#define seccomp_mask_set seccomp_mask_set_installed_header
#include <linux/seccomp.h>
#undef seccomp_mask_set

#ifndef SECCOMP_MODE_MASK
#define SECCOMP_MODE_MASK	3
#define SECCOMP_SET_MODE_MASK	4
#define SECCOMP_MASK_MAX_BITS	1024

struct seccomp_mask {
	__u32 arch;		/* AUDIT_ARCH_* of the table @bits indexes */
	__u32 nbits;		/* 0 .. SECCOMP_MASK_MAX_BITS */
	__aligned_u64 bits;	/* (nbits + 7) / 8 bytes */
};
#endif

struct seccomp_mask_set {
	__u32 nr_masks;		/* 1 .. number of ABIs */
	__u32 action;		/* 0: kill the process (version 1: reserved) */
	__aligned_u64 masks;	/* nr_masks struct seccomp_mask */
};

#ifndef SECCOMP_MASK_FLAG_TSYNC
#define SECCOMP_MASK_FLAG_TSYNC	1UL
#endif

#ifndef SECCOMP_SET_MODE_STRICT
#define SECCOMP_SET_MODE_STRICT	0
#endif
#ifndef SECCOMP_SET_MODE_FILTER
#define SECCOMP_SET_MODE_FILTER	1
#endif

#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif
#ifndef SECCOMP_RET_KILL_THREAD
#define SECCOMP_RET_KILL_THREAD	0x00000000U
#endif
#ifndef SECCOMP_RET_TRAP
#define SECCOMP_RET_TRAP	0x00030000U
#endif
#ifndef SECCOMP_RET_ERRNO
#define SECCOMP_RET_ERRNO	0x00050000U
#endif
#ifndef SECCOMP_RET_USER_NOTIF
#define SECCOMP_RET_USER_NOTIF	0x7fc00000U
#endif
#ifndef SECCOMP_RET_TRACE
#define SECCOMP_RET_TRACE	0x7ff00000U
#endif
#ifndef SECCOMP_RET_LOG
#define SECCOMP_RET_LOG		0x7ffc0000U
#endif
#ifndef SECCOMP_RET_ALLOW
#define SECCOMP_RET_ALLOW	0x7fff0000U
#endif
#ifndef SECCOMP_RET_DATA
#define SECCOMP_RET_DATA	0x0000ffffU
#endif

#endif /* _SELFTESTS_SECCOMP_MASK_UAPI_FALLBACK_H */
