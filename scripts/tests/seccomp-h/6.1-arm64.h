/* 6.1-arm64: include/linux/seccomp.h of 6.1 + patches/6.1 (with the arm64 patches 14-20), lines 137-165 (scripts/tests/host/bench.sh) */

/**
 * struct seccomp_allowlist - the syscalls a task with seccomp masks may make
 *
 * @bits: one bitmap per ABI, indexed by seccomp_mask_abi(): bit n set
 *        allows syscall n. Bits past the syscall table are kept, so that
 *        an allowed but unimplemented syscall fails with -ENOSYS; bits
 *        from seccomp_mask_max_bits() of the ABI on are always clear.
 * @action: the SECCOMP_RET_* action that a denied syscall gets.
 * @usage: the number of tasks using this allowlist.
 * @rcu: delays the free until no reader can still hold it: other tasks
 *       read an allowlist under rcu_read_lock(), a thread tests its own
 *       with preemption disabled because a TSYNC may replace it.
 *
 * The bitmaps come first and the structure is cache line aligned, so that
 * @usage, which every fork() and exit of a task writes, never shares a
 * cache line with the bits that the task's siblings read at every syscall.
 *
 * An allowlist never changes once a task uses it: fork() shares it and a
 * tightening installs a new one, so syscall entry needs no lock.
 */
struct seccomp_allowlist {
	unsigned long bits[SECCOMP_MASK_NR_ABIS][BITS_TO_LONGS(SECCOMP_MASK_BITMAP_BITS)];
	u32 action;
	refcount_t usage;
	struct rcu_head rcu;
} ____cacheline_aligned;

/* Returns the index of the ABI @arch into seccomp_allowlist.bits, or -EINVAL. */
