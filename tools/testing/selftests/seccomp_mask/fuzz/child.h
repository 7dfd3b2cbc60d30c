/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seccomp_mask_fuzz: the child that runs an attempt and reports through shared memory,
 * without syscalls of its own.
 *
 * Part of seccomp_mask_fuzz.c, which includes the parts in this order:
 * model.h, arena.h, ops.h, probes.h, child.h, runner.h, threads.h.
 */
#ifndef _SECCOMP_MASK_FUZZ_CHILD_H
#define _SECCOMP_MASK_FUZZ_CHILD_H

/* The child. */

static void apply_layout(void)
{
	for (int a = 0; a < narenas; a++)
		for (int p = 0; p < NPAGES; p++) {
			void *addr = arenas[a].base + p * PG;

			if (layout[p] == RO)
				mprotect(addr, PG, PROT_READ);
			else if (layout[p] == NONE)
				mprotect(addr, PG, PROT_NONE);
			else if (layout[p] == UNMAP)
				munmap(addr, PG);
		}
}

static void __noreturn sys_exit(int abi, int code)
{
	do_sys(abi, how_for(abi), NR[abi].exit_group, code, 0, 0, 0, 0);
	for (;;)
		;
}

static void checkpoint(void)
{
	shm_set(&shm->at_checkpoint, 1);
	while (!shm_get(&shm->go))
		cpu_relax();
}

/* The child reads its own /proc/self/status, with native syscalls only. */
static void child_selfread(void)
{
	long fd = do_sys(NATIVE, how_for(NATIVE), NR[NATIVE].openat, AT_FDCWD,
			 (long)(uintptr_t)self_status_path, O_RDONLY, 0, 0);
	long n = 0, r;

	if (fd < 0) {
		shm_set(&shm->self_len, fd);
		return;
	}
	do {
		r = do_sys(NATIVE, how_for(NATIVE), NR[NATIVE].read, fd,
			   (long)(uintptr_t)(shm->self_status + n),
			   sizeof(shm->self_status) - 1 - n, 0, 0);
		if (r > 0)
			n += r;
	} while (r > 0 && n < (long)sizeof(shm->self_status) - 1);
	do_sys(NATIVE, how_for(NATIVE), NR[NATIVE].close, fd, 0, 0, 0, 0);
	shm->self_status[n] = 0;
	/* -1: nothing read; -2: the file did not fit (never compared) */
	shm_set(&shm->self_len, !n ? -1 : n == (long)sizeof(shm->self_status) - 1 ? -2 : n);
}

/* Probe @i in this process. */
static void probe_here(const struct probe *p, int i)
{
	shm_set(&shm->p_started[i], 1);
	shm_set(&shm->p_ret[i], run_probe(p));
	shm_set(&shm->p_returned[i], 1);
}

/* Probe @i in a grandchild, when the masks allow fork and wait4. */
static void probe_forked(const struct probe *p, int i)
{
	long pid = do_sys(NATIVE, how_for(NATIVE), NR[NATIVE].fork, FORK_ARG0, 0, 0, 0, 0);
	int st = 0;

	if (pid == 0) {
		probe_here(p, i);
		sys_exit(NATIVE, 0);
	}
	if (pid < 0) {
		shm_set(&shm->p_ret[i], pid);
		shm_set(&shm->p_waited[i], -1);
		return;
	}
	do_sys(NATIVE, how_for(NATIVE), NR[NATIVE].wait4, pid, (long)(uintptr_t)&st, 0, 0, 0);
	shm_set(&shm->p_status[i], st);
	shm_set(&shm->p_waited[i], 1);
}

static void __noreturn child(const struct attempt *at)
{
	int i;

	apply_layout();
	for (i = 0; i < at->nops; i++) {
		shm_set(&shm->started, i + 1);
		shm_set(&shm->ret[i], run_op(&at->ops[i]));
		shm_set(&shm->done, i + 1);
	}
	checkpoint();
	if (at->selfread)
		child_selfread();
	for (i = 0; i < at->nprobes; i++) {
		shm_set(&shm->probes_started, i + 1);
		if (at->use_fork)
			probe_forked(&at->probes[i], i);
		else
			probe_here(&at->probes[i], i);
	}
	sys_exit(at->exit_abi, 0);
}

#endif /* _SECCOMP_MASK_FUZZ_CHILD_H */
