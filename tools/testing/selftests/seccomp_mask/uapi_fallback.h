/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp mask mode selftests: the uapi of the mask mode, version 3 of
 * the contract, for every program of this directory.
 *
 * Include it before anything else that includes <linux/seccomp.h>. The
 * installed headers may be those of a kernel without the mask mode, of
 * one with the version 1 or 2 struct seccomp_mask_set (no size, no
 * reserved word: nr_masks first), or of one with version 3: the header's
 * own structs that changed or that version 3 adds (struct
 * seccomp_mask_set, struct seccomp_mask_arch, struct
 * seccomp_mask_features) are renamed out of the way while it is included,
 * and the version 3 layout is declared here. The constants are those of
 * version 3, which only adds to the earlier ones.
 */

#ifndef _SELFTESTS_SECCOMP_MASK_UAPI_FALLBACK_H
#define _SELFTESTS_SECCOMP_MASK_UAPI_FALLBACK_H

#include <assert.h>
#include <linux/types.h>

#define seccomp_mask_set seccomp_mask_set_installed_header
#define seccomp_mask_arch seccomp_mask_arch_installed_header
#define seccomp_mask_features seccomp_mask_features_installed_header
#include <linux/seccomp.h>
#undef seccomp_mask_features
#undef seccomp_mask_arch
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

/* Version 3: the operation of the feature query. */
#ifndef SECCOMP_GET_MASK_FEATURES
#define SECCOMP_GET_MASK_FEATURES	5
#endif

/*
 * Version 3 layout: extensible, read as sched_setattr() reads struct
 * sched_attr (its size first, then copy_struct_from_user()).
 */
struct seccomp_mask_set {
	__u32 size;		/* sizeof(struct seccomp_mask_set) of the caller */
	__u32 nr_masks;		/* 1 .. number of ABIs */
	__u32 action;		/* 0: kill the process */
	__u32 __reserved;	/* must be 0 */
	__aligned_u64 masks;	/* nr_masks struct seccomp_mask */
};

/* sizeof the first published (version 3) struct seccomp_mask_set */
#ifndef SECCOMP_MASK_SET_SIZE_VER0
#define SECCOMP_MASK_SET_SIZE_VER0	24
#endif

#ifndef SECCOMP_MASK_FLAG_TSYNC
#define SECCOMP_MASK_FLAG_TSYNC	0x1UL
#endif
#ifndef SECCOMP_MASK_FLAG_SPEC_ALLOW
#define SECCOMP_MASK_FLAG_SPEC_ALLOW	0x2UL
#endif

/* The bits of seccomp_mask_features.actions (version 3). */
#ifndef SECCOMP_MASK_ACTION_KILL_PROCESS
#define SECCOMP_MASK_ACTION_KILL_PROCESS	0x1U
#endif
#ifndef SECCOMP_MASK_ACTION_TRAP
#define SECCOMP_MASK_ACTION_TRAP		0x2U
#endif
#ifndef SECCOMP_MASK_ACTION_ERRNO
#define SECCOMP_MASK_ACTION_ERRNO		0x4U
#endif
#ifndef SECCOMP_MASK_ACTION_LOG
#define SECCOMP_MASK_ACTION_LOG			0x8U
#endif

struct seccomp_mask_arch {
	__u32 arch;		/* AUDIT_ARCH_* of an ABI the kernel has a mask for */
	__u32 max_bits;		/* the largest nbits that ABI's mask takes */
};

#ifndef SECCOMP_MASK_FEATURES_MAX_ARCHES
#define SECCOMP_MASK_FEATURES_MAX_ARCHES	4
#endif

struct seccomp_mask_features {
	__u32 size;		/* in: sizeof the caller's struct; out: bytes filled */
	__u32 set_size;		/* sizeof(struct seccomp_mask_set) of the kernel */
	__aligned_u64 flags;	/* SECCOMP_MASK_FLAG_* the kernel accepts */
	__u32 actions;		/* SECCOMP_MASK_ACTION_* the kernel accepts */
	__u32 nr_arches;	/* entries filled in @arches */
	struct seccomp_mask_arch arches[SECCOMP_MASK_FEATURES_MAX_ARCHES];
};

/* sizeof the first published struct seccomp_mask_features */
#ifndef SECCOMP_MASK_FEATURES_SIZE_VER0
#define SECCOMP_MASK_FEATURES_SIZE_VER0	56
#endif

#ifndef SECCOMP_SET_MODE_STRICT
#define SECCOMP_SET_MODE_STRICT	0
#endif
#ifndef SECCOMP_SET_MODE_FILTER
#define SECCOMP_SET_MODE_FILTER	1
#endif
#ifndef SECCOMP_FILTER_FLAG_TSYNC
#define SECCOMP_FILTER_FLAG_TSYNC	0x1UL
#endif
#ifndef SECCOMP_FILTER_FLAG_SPEC_ALLOW
#define SECCOMP_FILTER_FLAG_SPEC_ALLOW	0x4UL
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

static_assert(sizeof(struct seccomp_mask_set) == SECCOMP_MASK_SET_SIZE_VER0,
	      "struct seccomp_mask_set: the version 3 layout is 24 bytes");
static_assert(sizeof(struct seccomp_mask_features) ==
	      SECCOMP_MASK_FEATURES_SIZE_VER0,
	      "struct seccomp_mask_features: the version 3 layout is 56 bytes");

#endif /* _SELFTESTS_SECCOMP_MASK_UAPI_FALLBACK_H */
