// SPDX-License-Identifier: GPL-2.0
/*
 * seccomp_mask_fuzz: a bounded fuzzer of the seccomp mask mode (mode 3)
 * against a reference model of its contract.
 *
 * Every attempt is a random sequence of calls of
 *	prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK, bits, nbits, arg5)
 *	seccomp(SECCOMP_SET_MODE_MASK, flags, &set)
 * and of their neighbours (filter and strict mode, PR_GET_SECCOMP, bad
 * modes and operations, no_new_privs, dropping CAP_SYS_ADMIN), made from
 * both ABIs of a 64-bit x86 kernel: the 64-bit build uses `syscall` and
 * `int $0x80`, the 32-bit build the vDSO, `int $0x80` and a far jump to
 * 64-bit code. On arm64 each build makes the calls of its own ABI (a
 * task cannot make those of the other execution state) and installs the
 * masks of both; AArch32 probes its private calls 0x0f0000 + k (bit
 * 1024 + k) too, and nbits are checked against each ABI's largest (1040
 * for AArch32). Arguments are random and boundary values: nbits 0, 1, 7, 8,
 * 1024, 1025, huge; NULL, unmapped, PROT_NONE, read-only, page-straddling
 * pointers and objects ending exactly at a page that is not readable;
 * random flags and reserved fields; invalid actions, valid ones with a
 * bit no action has among them; duplicate and unknown arches; nr_masks
 * 0 and huge; version 3: the set's size (below the first layout, larger
 * with a zero or non-zero tail, above a page), its __reserved word, the
 * SPEC_ALLOW flag, and operation 5 (the feature query) with NULL.
 *
 * The parent generates the attempt and, from the contract alone, what the
 * kernel must answer: the errno (any of those the contract allows when
 * several rules are broken at once) or success, which masks are in force
 * afterwards, and which call is the first one a mask denies (the process
 * must die by SIGSYS right there). A child runs the calls and writes what
 * happened into shared memory (without syscalls of its own). The parent
 * checks every answer, reads the child's /proc/<pid>/status at a
 * checkpoint, has the child read /proc/self/status when its masks allow
 * it, and probes the masks: grandchildren (or the child itself when fork
 * is denied) make allowed and denied syscalls of both ABIs, numbers the
 * kernel does not implement (the answer they get with no mask), numbers
 * >= 1024, x32 numbers and negative ones, -2 and INT_MIN among them
 * (denied), -1 (never denied) and the uretprobe syscall (never denied;
 * before 6.11 an unimplemented number).
 *
 * A second phase runs several threads of one process that install and
 * tighten their own masks at once (each against its own model) while
 * another thread forks children that exec this program under a mask (the
 * exec'd image checks its masks and that a denied syscall kills it) and
 * another process keeps reading /proc/<pid>/task/<tid>/status of all of
 * them.
 *
 * Usage: seccomp_mask_fuzz_{64,32} [-t SECONDS] [-n ATTEMPTS] [-s SEED]
 *                                   [-a ATTEMPT] [-v]
 * Defaults: 3 seconds, or $SECCOMP_MASK_FUZZ_SECONDS; a random seed, or
 * $SECCOMP_MASK_FUZZ_SEED (0 is a random one); no count, or
 * $SECCOMP_MASK_FUZZ_ATTEMPTS. The options override the environment.
 * -a replays one attempt of a seed (as printed with a disagreement).
 * The seed is printed first; every disagreement is printed with the seed,
 * the attempt, the exact arguments and what the contract demands; a
 * sequential attempt that disagreed then runs once more, and the run
 * says whether it disagreed again (a wrong kernel answers wrongly again,
 * a hiccup of the harness or the emulator may not).
 *
 * A count (-n, $SECCOMP_MASK_FUZZ_ATTEMPTS) bounds the run by work instead
 * of time, which varies under TCG and load: ATTEMPTS sequential attempts,
 * then ATTEMPTS / 10 (rounded up, at least 1) thread runs whose forker execs
 * FORK_EXECS children each (for 0.5 s otherwise); the seconds are ignored.
 * With a seed and a count a run is deterministic: two runs of one build on
 * one kernel generate and check the same attempts (operations, their
 * arguments, the contents of the argument pages, probes, final exit ABI),
 * the same plans of the thread runs and the same number of exec'd
 * children; the header and the summary print the seed and the counts.
 * What is left to chance: where the argument pages are (ASLR: a pointer,
 * also one stored in those pages, differs by their address, not by its
 * place in their layout), how the threads phase's workers, forker and
 * /proc reader interleave (each worker is checked against its own model,
 * so the verdict does not depend on it; the reader's count of reads
 * does), and, on a faulty kernel only, the hang limits (a child killed
 * after HANG_SECONDS) and the stop after 20 disagreements. The ABIs run
 * depend on the kernel (no ia32 emulation: the 64-bit one only).
 */
#define SECCOMP_MASK_NO_HARNESS
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/resource.h>

#include "common.h"
#include "options.h"

#ifndef TWO_ABIS
int main(void)
{
	ksft_print_header();
	ksft_exit_skip("the fuzzer knows the ABIs of x86-64 and arm64 only\n");
}
#else

#include "fuzz/model.h"
#include "fuzz/arena.h"
#include "fuzz/ops.h"
#include "fuzz/probes.h"
#include "fuzz/child.h"
#include "fuzz/runner.h"
#include "fuzz/threads.h"

/* Below MAXB, and a number neither ABI implements. */
#define NR_UNIMPL	1000

/*
 * Fill in unimpl_ret[]: this process has no mask. Without calls through
 * the other ABI (arm64), only this one's.
 */
static void measure_unimplemented(void)
{
	for (int abi = 0; abi < nabis; abi++) {
		if (!call_other && abi != NATIVE)
			continue;
		unimpl_ret[abi] = do_sys(abi, how_for(abi), NR_UNIMPL, 0, 0, 0, 0, 0);
		if (unimpl_ret[abi] >= 0)
			ksft_exit_fail_msg("%s nr %d is implemented\n", abi_name[abi], NR_UNIMPL);
	}
}

/*
 * glibc's futex calls of 32-bit programs need CONFIG_COMPAT_32BIT_TIME on
 * a 64-bit kernel, and abort without it. Returns 0 or the futex errno.
 */
static int futex_errno(void)
{
	unsigned int word = 0;

	if (syscall(__NR_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) < 0)
		return errno;
	return 0;
}

static int print_usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-t SECONDS] [-n ATTEMPTS] [-s SEED] [-a ATTEMPT] [-v]\n", prog);
	return 2;
}

int main(int argc, char **argv)
{
	double seconds = 3, t0;
	long max_attempts = -1, only = -1;
	/* -n and $SECCOMP_MASK_FUZZ_ATTEMPTS: a count of attempts, >= 0. */
	const struct opt opts[] = {
		{ 't', OPT_DOUBLE, &seconds, getenv("SECCOMP_MASK_FUZZ_SECONDS") },
		{ 'n', OPT_COUNT, &max_attempts, getenv("SECCOMP_MASK_FUZZ_ATTEMPTS") },
		{ 's', OPT_U64, &g_seed, getenv("SECCOMP_MASK_FUZZ_SEED") },
		{ 'a', OPT_LONG, &only, NULL },
		{ 'v', OPT_FLAG, &verbose, NULL },
	};
	int err, check;
	struct rlimit rl = { 0, 0 };
	unsigned long d0;

	if (argc > 1 && !strcmp(argv[1], "--exec-check"))
		return exec_check(argc, argv);

	g_seed = 0;
	if (opts_parse(argc, argv, opts, ARRAY_SIZE(opts)))
		return print_usage(argv[0]);
	if (!g_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		g_seed = mix(ts.tv_sec ^ ((uint64_t)ts.tv_nsec << 20), getpid());
	}

	ksft_print_header();
	ksft_set_plan(2);
	if (max_attempts >= 0) {
		/* the bounded, deterministic mode: the forker's execs too */
		fork_execs = FORK_EXECS;
		ksft_print_msg("seed %#llx, %s, %ld tries, %ld threads (replay -s %#llx -n %ld)\n",
			       (unsigned long long)g_seed, BUILD, max_attempts,
			       max_attempts ? (max_attempts + 9) / 10 : 1,
			       (unsigned long long)g_seed, max_attempts);
	} else {
		ksft_print_msg("seed %#llx, %s build, %.1f s (replay: -s %#llx)\n",
			       (unsigned long long)g_seed, BUILD, seconds,
			       (unsigned long long)g_seed);
	}

	check = mask_mode_check();
	if (check != 1) {
		/* SECCOMP_MASK_REQUIRED=1: a missing or broken mask mode fails */
		if (check == 0 && !mask_required()) {
			ksft_test_result_skip("sequential fuzz: CONFIG_SECCOMP_MASK not enabled\n");
			ksft_test_result_skip("threads fuzz: CONFIG_SECCOMP_MASK not enabled\n");
		} else {
			ksft_print_msg("%s: the mask mode probe answered %d\n",
				       check ? "broken" : "SECCOMP_MASK_REQUIRED=1", check);
			ksft_test_result_fail("sequential fuzz: no working mask mode\n");
			ksft_test_result_fail("threads fuzz: no working mask mode\n");
		}
		ksft_finished();
	}
#if X86_BUILD == 64
	have_ia32 = ia32_available();
	if (!have_ia32) {
		nabis = 1;
		ksft_print_msg("no ia32 emulation: the 64-bit ABI only\n");
	}
#endif
	call_other = have_ia32;
#ifdef ARM64_BUILD
	/* Masks of both ABIs, calls of this one only. */
	call_other = false;
#if ARM64_BUILD == 64
	have_ia32 = other_abi_available();
	if (!have_ia32) {
		nabis = 1;
		ksft_print_msg("no AArch32 (%s): the AArch64 ABI only\n",
			       OTHER_ABI_WHY);
	}
#endif
#endif
	measure_unimplemented();
	setrlimit(RLIMIT_CORE, &rl);	/* SIGSYS dumps core otherwise */
	self_exe = realpath("/proc/self/exe", NULL);
	shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	arenas[0].base = mmap(NULL, NPAGES * PG, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS
#if X86_BUILD == 64
			      | MAP_32BIT
#endif
			      , -1, 0);
	narenas = 1;
#if X86_BUILD == 64
	arenas[1].base = mmap((void *)0x7e0000000000ULL, NPAGES * PG, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	narenas = 2;
	if (arenas[1].base == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
#endif
	if (arenas[0].base == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));

	if (only >= 0) {
		verbose = 1;
		run_attempt(only);
		ksft_test_result(!n_disagree, "replay of attempt %ld\n", only);
		ksft_test_result_skip("threads fuzz: replay mode\n");
		ksft_finished();
	}

	/* Sequential: about 70 % of the time. */
	t0 = now();
	for (long i = 0; max_attempts < 0 || i < max_attempts; i++) {
		if (max_attempts < 0 && now() - t0 > seconds * 0.7)
			break;
		run_attempt_again(i);
		if (n_disagree > 20) {
			ksft_print_msg("too many disagreements: stopping\n");
			break;
		}
	}
	ksft_print_msg("sequential: %lu attempts in %.1f s, %lu calls: %lu ok, %lu errors\n",
		       n_attempts, now() - t0, n_ops, n_ok_ops, n_err_ops);
	ksft_print_msg("sequential: errors: EINVAL %lu EFAULT %lu EPERM %lu EACCES %lu other %lu\n",
		       errs_seen[0], errs_seen[1], errs_seen[2], errs_seen[3], errs_seen[4]);
	ksft_print_msg("sequential: %lu kills, %lu probes, %lu /proc checks, %lu self reads\n",
		       n_deaths, n_probes, n_proc_checks, n_self_checks);
	ksft_test_result(!n_disagree, "sequential fuzz: %lu attempts, %lu disagreements\n",
			 n_attempts, n_disagree);

	err = futex_errno();
	if (err) {
		ksft_test_result_skip("threads fuzz: no futex (%s): CONFIG_COMPAT_32BIT_TIME?\n",
				      strerror(err));
		ksft_finished();
	}
	d0 = n_disagree;
	t0 = now();
	for (int i = 0; ; i++) {
		run_threads(i);
		if (max_attempts >= 0 ? i + 1 >= (max_attempts + 9) / 10 :
		    now() - t0 > seconds * 0.3)
			break;
		if (n_disagree - d0 > 20)
			break;
	}
	ksft_print_msg("threads: %lu runs of %d workers in %.1f s, %lu exec'd masked children\n",
		       n_thread_runs, NWORKERS, now() - t0, n_exec_checks);
	ksft_print_msg("threads: %d /proc reads by the last reader\n", shm_get(&shm->reads));
	ksft_test_result(n_disagree == d0, "threads fuzz: %lu runs, %lu disagreements\n",
			 n_thread_runs, n_disagree - d0);
	ksft_print_msg("seed %#llx: %lu attempts, %lu thread runs, %lu disagreements in total\n",
		       (unsigned long long)g_seed, n_attempts, n_thread_runs, n_disagree);
	ksft_finished();
}
#endif
