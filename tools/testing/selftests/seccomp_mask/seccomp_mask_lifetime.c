// SPDX-License-Identifier: GPL-2.0
/*
 * seccomp_mask_lifetime: leak and lifetime check of the seccomp masks.
 *
 * Churns through installs, tightenings, failed tightenings (EPERM,
 * EFAULT, EINVAL: the error paths free a mask they allocated), forks
 * (which share masks), execs (which keep them), /proc/<pid>/status reads
 * of masked tasks and of their zombies, and exits of masked tasks: by
 * default for 2 seconds, `-n 100000 -t 120` for the full run of
 * make check-debug (or $SECCOMP_MASK_LIFETIME_OPS / _SECONDS).
 *
 * Then, after every task was reaped, it waits for RCU (the masks are
 * freed with kfree_rcu(), which may batch for a few seconds) and checks
 * that the "seccomp_masks" slab cache of /proc/slabinfo is back where it
 * started (the kfree_rcu batches drained and KASAN's quarantine flushed):
 * active objects before, at the peak and after are printed.
 * Kernels without /proc/slabinfo (CONFIG_SLUB_DEBUG=n) skip that check.
 * A third check reads the status of a masked zombie: the contract shows
 * the Seccomp_mask lines whenever Seccomp: is 3.
 * Kmemleak, when the kernel has it, is scanned by the harness afterwards.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/seccomp.h>

#include "../kselftest.h"

#ifndef SECCOMP_MODE_MASK
#define SECCOMP_MODE_MASK	3
#define SECCOMP_SET_MODE_MASK	4
#define SECCOMP_MASK_MAX_BITS	1024

struct seccomp_mask {
	__u32 arch;
	__u32 nbits;
	__aligned_u64 bits;
};

struct seccomp_mask_set {
	__u32 nr_masks;
	__u32 reserved;
	__aligned_u64 masks;
};
#endif

#define MAXB		SECCOMP_MASK_MAX_BITS
#define CACHE		"seccomp_masks"
/* Tightenings clear bits of numbers no kernel implements. */
#define FIRST_FREE_NR	600
#define TIGHTENINGS	12
#define FORKS		6

#define NO_SLAB_FMT "no %s line in /proc/slabinfo (CONFIG_SLUB_DEBUG=n?): slab figures unavailable\n"
#define CHURN_FMT "churn: %ld operations in %.1f s: %ld installs, %ld tightenings, %ld failed calls, %ld forks, %ld execs, %ld exits, %ld /proc reads, %u masked processes\n"
#define SLAB_FMT "%s active_objs: before %ld, peak during the churn %ld, after %ld (%d s after the last exit; allowed slack %ld)\n"

/* Shared between processes: accessed with the __atomic builtins. */
struct counters {
	long ops, installs, tightenings, failed, forks, execs, exits, reads, errors;
	int last_err_line, last_err_errno;
};

#define LOAD(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

static struct counters *cnt;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			__atomic_add_fetch(&cnt->errors, 1, __ATOMIC_SEQ_CST); \
			STORE(cnt->last_err_line, __LINE__);		\
			STORE(cnt->last_err_errno, errno);		\
		}							\
	} while (0)

static void add(long *c, long n)
{
	__atomic_add_fetch(c, n, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&cnt->ops, n, __ATOMIC_SEQ_CST);
}

/* Active objects and objects per slab of the cache; false when unknown. */
static bool slab_figures(long *active, long *total, long *perslab)
{
	char line[512];
	bool found = false;
	FILE *f;
	int fd;

	/* flush the per-cpu slabs, so that active objects are closer to used ones */
	fd = open("/sys/kernel/slab/" CACHE "/shrink", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "1", 1) < 0)
			;
		close(fd);
	}
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char name[64];
		long a, t, size, per;

		if (sscanf(line, "%63s %ld %ld %ld %ld", name, &a, &t, &size, &per) == 5 &&
		    !strcmp(name, CACHE)) {
			*active = a;
			*total = t;
			*perslab = per;
			found = true;
		}
	}
	fclose(f);
	return found;
}

static int mask_prctl(const uint8_t *bits, unsigned int nbits)
{
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK, bits, nbits, 0);
}

static void clear_bit(uint8_t *m, unsigned int n)
{
	m[n / 8] &= ~(1 << (n % 8));
}

static void read_status(pid_t pid)
{
	char path[64], buf[4096];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	if (read(fd, buf, sizeof(buf)) > 0)
		add(&cnt->reads, 1);
	close(fd);
}

/* One masked process: install, tighten, fail, fork, exec, exit. */
static void __noreturn worker(const char *self, unsigned int round)
{
	static uint8_t bits[MAXB / 8], wider[MAXB / 8];
	struct seccomp_mask ent = { 0 };
	struct seccomp_mask_set set = { .nr_masks = 1, .masks = (uintptr_t)&ent };
	unsigned int i;

	memset(bits, 0xff, sizeof(bits));
	CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
	CHECK(mask_prctl(bits, MAXB) == 0);
	add(&cnt->installs, 1);
	for (i = 0; i < TIGHTENINGS; i++) {
		clear_bit(bits, FIRST_FREE_NR + (round + i) % 300);
		CHECK(mask_prctl(bits, MAXB) == 0);
		add(&cnt->tightenings, 1);
	}
	/* error paths after the allocation: EPERM, EFAULT; and EINVAL */
	memset(wider, 0xff, sizeof(wider));
	CHECK(mask_prctl(wider, MAXB) == -1 && errno == EPERM);
	CHECK(mask_prctl((void *)8, MAXB) == -1 && errno == EFAULT);
	ent.arch = 0x12345678;
	ent.nbits = MAXB;
	ent.bits = (uintptr_t)bits;
	CHECK(syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK, 0, &set) == -1 && errno == EINVAL);
	add(&cnt->failed, 3);

	for (i = 0; i < FORKS; i++) {
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			if (i == 0 && round % 8 == 0) {
				/* exec keeps the masks; the new image exits at once */
				execl(self, self, "--exit", NULL);
				_exit(3);
			}
			if (i % 2) {
				clear_bit(bits, FIRST_FREE_NR + 300 + i);
				if (mask_prctl(bits, MAXB))
					_exit(2);
			}
			_exit(0);
		}
		CHECK(pid > 0);
		if (pid < 0)
			break;
		add(&cnt->forks, 1);
		if (i % 2) {
			add(&cnt->tightenings, 1);
			/* read the status of a zombie or a live masked task */
			read_status(pid);
		}
		CHECK(waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		if (i == 0 && round % 8 == 0)
			add(&cnt->execs, 1);
		add(&cnt->exits, 1);
	}
	add(&cnt->exits, 1);
	_exit(0);
}

/*
 * The contract shows Seccomp_mask lines whenever Seccomp: is 3. A masked
 * task that has exited but is not reaped yet (a zombie) still says
 * "Seccomp:\t3": its mask lines must still be there.
 */
static void zombie_status(void)
{
	static uint8_t bits[MAXB / 8];
	char path[64], buf[4096];
	const char *why = NULL;
	siginfo_t si;
	pid_t pid;
	int fd, st;
	ssize_t n;

	memset(bits, 0xff, sizeof(bits));
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		_exit(mask_prctl(bits, MAXB) ? 1 : 0);
	}
	if (pid < 0 || waitid(P_PID, pid, &si, WEXITED | WNOWAIT)) {
		ksft_test_result_skip("zombie: fork/waitid: %s\n", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	waitpid(pid, &st, 0);
	if (n <= 0)
		why = "cannot read its status";
	else if (!strstr(buf, "\nSeccomp:\t3\n"))
		why = "not in mode 3";
	else if (!strstr(buf, "\nSeccomp_mask:\t"))
		why = "Seccomp:\t3 without a Seccomp_mask: line";
	if (why) {
		char *p = strstr(buf, "Seccomp:"), *e;

		ksft_print_msg("zombie %d: %s; its status from Seccomp: on:\n", pid, why);
		for (int i = 0; p && *p && i < 4; i++, p = e + 1) {
			e = strchrnul(p, '\n');
			ksft_print_msg("  %.*s\n", (int)(e - p), p);
			if (!*e)
				break;
		}
	}
	ksft_test_result(!why, "zombie: a masked, exited, unreaped task shows its masks%s%s\n",
			 why ? ": " : "", why ? why : "");
}

int main(int argc, char **argv)
{
	double seconds = 2, t0, t;
	long max_ops = 100000, before = -1, total0 = 0, per = 0, peak = -1, after = -1,
	     a, tot, p;
	bool have_slab;
	unsigned int round = 0;
	const char *e;
	char self[4096];
	int c, tries;
	ssize_t n;

	if (argc > 1 && !strcmp(argv[1], "--exit"))
		return 0;
	e = getenv("SECCOMP_MASK_LIFETIME_SECONDS");
	if (e)
		seconds = atof(e);
	e = getenv("SECCOMP_MASK_LIFETIME_OPS");
	if (e)
		max_ops = atol(e);
	while ((c = getopt(argc, argv, "t:n:")) != -1) {
		switch (c) {
		case 't':
			seconds = atof(optarg);
			break;
		case 'n':
			max_ops = atol(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-t SECONDS] [-n OPERATIONS]\n", argv[0]);
			return 2;
		}
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = 0;

	ksft_print_header();
	ksft_set_plan(3);
	cnt = mmap(NULL, sizeof(*cnt), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cnt == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));

	/* Is the mask mode there? */
	{
		pid_t pid = fork();
		int st;
		static uint8_t all[MAXB / 8];

		if (pid == 0) {
			memset(all, 0xff, sizeof(all));
			prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
			_exit(mask_prctl(all, MAXB) ? 1 : 0);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
			ksft_test_result_skip("churn: CONFIG_SECCOMP_MASK not enabled\n");
			ksft_test_result_skip("zombie: CONFIG_SECCOMP_MASK not enabled\n");
			ksft_test_result_skip("slab: CONFIG_SECCOMP_MASK not enabled\n");
			ksft_finished();
		}
	}

	have_slab = slab_figures(&before, &total0, &per);
	if (have_slab)
		ksft_print_msg("before: %s active_objs %ld num_objs %ld objperslab %ld\n", CACHE,
			       before, total0, per);
	else
		ksft_print_msg(NO_SLAB_FMT, CACHE);

	t0 = now();
	ksft_print_msg("churn: up to %ld operations or %.0f s\n", max_ops, seconds);
	while (LOAD(cnt->ops) < max_ops && now() - t0 < seconds) {
		pid_t pid = fork();
		int st;

		if (pid == 0)
			worker(self, round);
		if (pid < 0) {
			ksft_print_msg("fork: %s\n", strerror(errno));
			break;
		}
		if (round % 4 == 1 && have_slab && slab_figures(&a, &tot, &p) && a > peak)
			peak = a;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
			__atomic_add_fetch(&cnt->errors, 1, __ATOMIC_SEQ_CST);
			ksft_print_msg("worker %u: status %#x\n", round, st);
		}
		round++;
	}
	t = now() - t0;
	ksft_print_msg(CHURN_FMT, cnt->ops, t, cnt->installs, cnt->tightenings, cnt->failed,
		       cnt->forks, cnt->execs, cnt->exits, cnt->reads, round);
	if (cnt->errors)
		ksft_print_msg("%ld unexpected results, last at line %d (errno %d: %s)\n",
			       cnt->errors, cnt->last_err_line, cnt->last_err_errno,
			       strerror(cnt->last_err_errno));
	ksft_test_result(!cnt->errors, "churn: %ld operations, %ld unexpected results\n",
			 cnt->ops, cnt->errors);

	zombie_status();
	if (!have_slab) {
		ksft_test_result_skip("slab: /proc/slabinfo has no %s line\n", CACHE);
		ksft_finished();
	}
	/*
	 * Every task is reaped. kfree_rcu() frees after a grace period and
	 * batches for up to 5 s more; KASAN's quarantine keeps freed objects
	 * allocated until the cache is shrunk (slab_figures() does). Poll for
	 * up to 120 s, asking the kfree_rcu shrinker to drain its batches.
	 */
	for (tries = 0; tries < 120; tries++) {
		int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

		if (fd >= 0) {
			if (write(fd, "2", 1) < 0)
				;
			close(fd);
		}
		sleep(1);
		if (!slab_figures(&after, &tot, &p))
			break;
		if (after <= before)
			break;
	}
	{
		/* per-cpu slabs may keep a few free objects counted as active */
		long slack = per * (2 * sysconf(_SC_NPROCESSORS_ONLN) + 1);

		ksft_print_msg(SLAB_FMT, CACHE, before, peak, after, tries + 1, slack);
		ksft_test_result(after >= 0 && after <= before + slack,
				 "slab: %s active objects before %ld, after %ld\n", CACHE, before,
				 after);
	}
	ksft_finished();
}
