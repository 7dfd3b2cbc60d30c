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
 * The masks live in the "seccomp_allowlist" slab cache. Its active
 * objects are read (after a shrink, which flushes the per-cpu slabs, so
 * that they count the objects in use) before the churn, once the frees
 * of earlier tests have landed, at a peak where HOLDERS masked processes
 * are alive at once (the peak must show at
 * least one object each: this is the right cache, and it is counted),
 * and after every task was reaped and RCU drained (the masks are freed
 * with kfree_rcu(), which may batch for a few seconds): then they must be
 * back where they started, within LEAK_SLACK objects.
 * Kernels without /proc/slabinfo (CONFIG_SLUB_DEBUG=n), or whose cache is
 * merged into another one, skip that check, naming why.
 * A third check reads the status of a masked zombie: it shows mode 3 and
 * its exact mask.
 *
 * With SECCOMP_MASK_REQUIRED=1 in the environment, a kernel without a
 * working mask mode fails every check instead of skipping it.
 * Kmemleak, when the kernel has it, is scanned by the harness afterwards.
 */
#define SECCOMP_MASK_NO_HARNESS
#include <poll.h>

#include "common.h"

#define MAXB		SECCOMP_MASK_MAX_BITS
#define CACHE		"seccomp_allowlist"
/* Masked processes alive at once at the peak. */
#define HOLDERS		32
/* Objects the cache may differ by after the churn: none leaked. */
#define LEAK_SLACK	2
/* Tightenings clear bits of numbers no kernel implements. */
#define FIRST_FREE_NR	600
#define TIGHTENINGS	12
#define FORKS		6

#define NO_SLAB_FMT "no %s line in /proc/slabinfo (CONFIG_SLUB_DEBUG=n?): slab figures unavailable\n"
#define CHURN_FMT "churn: %ld operations in %.1f s: %ld installs, %ld tightenings, %ld failed calls, %ld forks, %ld execs, %ld exits, %ld /proc reads, %u masked processes\n"
#define SLAB_FMT "%s active_objs: before %ld, peak with the holders alive %ld, after %ld (%d s after the last exit; allowed slack %ld)\n"

/* Shared between processes: accessed with the __atomic builtins. */
struct counters {
	long ops, installs, tightenings, failed, forks, execs, exits, reads, errors;
	int last_err_line, last_err_errno;
};

#define LOAD(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

static struct counters *cnt;

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

/* Asks the kfree_rcu shrinker to drain its batches, then waits 1 s. */
static void drain_slab(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "2", 1) < 0)
			;
		close(fd);
	}
	sleep(1);
}

/*
 * slab_figures() once the allowlists that earlier tests freed have left:
 * they may still wait for a grace period (kfree_rcu(), or tasks RCU after
 * a TSYNC). Waits until the count stops falling, for up to 30 s, so that
 * "before" counts what stays, not what an earlier test left in flight.
 */
static bool slab_settled(long *active, long *total, long *perslab)
{
	long prev;
	int tries;

	if (!slab_figures(active, total, perslab))
		return false;
	for (tries = 0; tries < 30; tries++) {
		prev = *active;
		drain_slab();
		if (!slab_figures(active, total, perslab))
			return false;
		if (*active >= prev)
			break;
	}
	return true;
}

static int prctl_bits(const uint8_t *bits, unsigned int nbits)
{
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_MASK, bits, nbits, 0);
}

static void clear_bit(uint8_t *m, unsigned int n)
{
	m[n / 8] &= ~(1 << (n % 8));
}

static void count_status_read(pid_t pid)
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
	struct seccomp_mask_set set = {
		.size = sizeof(struct seccomp_mask_set),
		.nr_masks = 1,
		.masks = (uintptr_t)&ent,
	};
	unsigned int i;

	memset(bits, 0xff, sizeof(bits));
	CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
	CHECK(prctl_bits(bits, MAXB) == 0);
	add(&cnt->installs, 1);
	for (i = 0; i < TIGHTENINGS; i++) {
		clear_bit(bits, FIRST_FREE_NR + (round + i) % 300);
		CHECK(prctl_bits(bits, MAXB) == 0);
		add(&cnt->tightenings, 1);
	}
	/* error paths after the allocation: EPERM, EFAULT; and EINVAL */
	memset(wider, 0xff, sizeof(wider));
	CHECK(prctl_bits(wider, MAXB) == -1 && errno == EPERM);
	CHECK(prctl_bits((void *)8, MAXB) == -1 && errno == EFAULT);
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
				if (prctl_bits(bits, MAXB))
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
			count_status_read(pid);
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

/* A test result that is a skip, or a failure with SECCOMP_MASK_REQUIRED=1. */
static void result_missing(const char *name, const char *why)
{
	if (mask_required())
		ksft_test_result_fail("%s: SECCOMP_MASK_REQUIRED=1: %s\n", name, why);
	else
		ksft_test_result_skip("%s: %s\n", name, why);
}

/*
 * A masked task that has exited but is not reaped yet (a zombie) still
 * shows mode 3 and its exact mask: all of it but getppid.
 */
static void zombie_status(void)
{
	static uint8_t bits[MAXB / 8];
	char path[64], buf[4096], val[4096], want[64];
	const char *key = self_is_compat() ? "Seccomp_mask_compat" : "Seccomp_mask";
	const char *why = NULL;
	siginfo_t si;
	pid_t pid;
	int fd, st, i;
	ssize_t n;

	memset(bits, 0xff, sizeof(bits));
	clear_bit(bits, __NR_getppid);
	snprintf(want, sizeof(want), "0-%d,%d-%d", __NR_getppid - 1, __NR_getppid + 1,
		 MAXB - 1);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		_exit(prctl_bits(bits, MAXB) ? 1 : 0);
	}
	if (pid < 0) {
		ksft_test_result_fail("zombie: fork: %s\n", strerror(errno));
		return;
	}
	/* Wait (bounded) for the zombie, without reaping it. */
	for (i = 0; i < CHILD_TIMEOUT_MS; i++) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT | WNOHANG) || si.si_pid == pid)
			break;
		usleep(1000);
	}
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	if (si.si_pid != pid)
		kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	if (si.si_pid != pid)
		why = "did not exit";
	else if (!WIFEXITED(st) || WEXITSTATUS(st))
		why = "could not install its mask";
	else if (n <= 0)
		why = "cannot read its status";
	else if (!strstr(buf, "\nSeccomp:\t3\n"))
		why = "not in mode 3";
	else if (!status_field(buf, key, val, sizeof(val)))
		why = "Seccomp:\t3 without its mask line";
	else if (strcmp(val, want))
		why = "a mask line that is not the mask it installed";
	if (why) {
		char *p = strstr(buf, "Seccomp:"), *e;

		ksft_print_msg("zombie %d: %s (want %s: %s); its status from Seccomp: on:\n",
			       pid, why, key, want);
		for (int i = 0; p && *p && i < 5; i++, p = e + 1) {
			e = strchrnul(p, '\n');
			ksft_print_msg("  %.*s\n", (int)(e - p), p);
			if (!*e)
				break;
		}
	}
	ksft_test_result(!why, "zombie: an unreaped masked task shows mode 3 and its mask%s%s\n",
			 why ? ": " : "", why ? why : "");
}

/*
 * HOLDERS masked processes alive at once, each with a mask of its own:
 * the active objects of the cache while they live, or -1.
 */
static long peak_with_holders(void)
{
	static uint8_t bits[MAXB / 8];
	pid_t pids[HOLDERS];
	int ready[2], done[2], i, n = 0;
	long a = -1, tot, per;
	char c;

	if (pipe(ready) || pipe(done))
		return -1;
	for (i = 0; i < HOLDERS; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
			close(ready[0]);
			close(done[1]);
			memset(bits, 0xff, sizeof(bits));
			clear_bit(bits, FIRST_FREE_NR + i);
			if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl_bits(bits, MAXB))
				_exit(1);
			if (write(ready[1], "x", 1) != 1)
				_exit(1);
			/* until the parent closes its end, or dies */
			_exit(read(done[0], &c, 1) < 0);
		}
		if (pids[i] < 0)
			break;
	}
	close(ready[1]);
	close(done[0]);
	for (n = 0; n < i; n++) {
		struct pollfd pfd = { .fd = ready[0], .events = POLLIN };

		if (poll(&pfd, 1, CHILD_TIMEOUT_MS) != 1 || read(ready[0], &c, 1) != 1)
			break;
	}
	if (n == HOLDERS && !slab_figures(&a, &tot, &per))
		a = -1;
	if (n != HOLDERS)
		ksft_print_msg("peak: only %d of %d masked holders got ready\n", n, HOLDERS);
	close(done[1]);
	close(ready[0]);
	for (n = 0; n < i; n++) {
		int st;

		if (waitpid_timeout(pids[n], &st, 0, CHILD_TIMEOUT_MS) != pids[n] ||
		    !WIFEXITED(st) || WEXITSTATUS(st))
			a = -1;
	}
	return a;
}

int main(int argc, char **argv)
{
	double seconds = 2, t0, t;
	long max_ops = 100000, before = -1, total0 = 0, per = 0, peak = -1, after = -1, base,
	     tot, p;
	bool have_slab;
	unsigned int round = 0;
	const char *e;
	char self[4096];
	int c, tries, check;
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

	/* Is the mask mode there, and working? */
	check = mask_mode_check();
	if (check != 1) {
		char why[128];

		if (check)
			snprintf(why, sizeof(why), "the mask mode probe answered %d", check);
		else
			snprintf(why, sizeof(why), "CONFIG_SECCOMP_MASK not enabled");
		if (check && !mask_required())
			ksft_print_msg("%s\n", why);
		result_missing("churn", why);
		result_missing("zombie", why);
		result_missing("slab", why);
		ksft_finished();
	}

	have_slab = slab_settled(&before, &total0, &per);
	if (have_slab)
		ksft_print_msg("before: %s active_objs %ld num_objs %ld objperslab %ld\n", CACHE,
			       before, total0, per);
	else
		ksft_print_msg(NO_SLAB_FMT, CACHE);
	if (have_slab)
		peak = peak_with_holders();

	t0 = now();
	ksft_print_msg("churn: up to %ld operations or %.0f s\n", max_ops, seconds);
	while (LOAD(cnt->ops) < max_ops && now() - t0 < seconds) {
		pid_t pid = fork();
		int st = 0;

		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
			worker(self, round);
		}
		if (pid < 0) {
			ksft_print_msg("fork: %s\n", strerror(errno));
			break;
		}
		if (waitpid_timeout(pid, &st, 0, CHILD_TIMEOUT_MS) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
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
	ksft_test_result(!cnt->errors && round > 0,
			 "churn: %ld operations in %u rounds, %ld unexpected results\n",
			 cnt->ops, round, cnt->errors);

	zombie_status();
	if (!have_slab) {
		ksft_test_result_skip("slab: no %s in /proc/slabinfo (%s)\n", CACHE,
				      "CONFIG_SLUB_DEBUG not enabled, or the cache merged");
		ksft_finished();
	}
	/*
	 * Every task is reaped. kfree_rcu() frees after a grace period and
	 * batches for up to 5 s more; KASAN's quarantine keeps freed objects
	 * allocated until the cache is shrunk (slab_figures() does). Poll for
	 * up to 120 s, asking the kfree_rcu shrinker to drain its batches.
	 */
	for (tries = 0; tries < 120; tries++) {
		drain_slab();
		if (!slab_figures(&after, &tot, &p))
			break;
		if (after <= before + LEAK_SLACK)
			break;
	}
	ksft_print_msg(SLAB_FMT, CACHE, before, peak, after, tries + 1, (long)LEAK_SLACK);
	/*
	 * "before" may still count objects whose kfree_rcu() was pending
	 * (the debug kernel's grace periods are slow); the smaller of
	 * before and after is what the holders did not bring.
	 */
	base = after >= 0 && after < before ? after : before;
	if (peak < base + HOLDERS)
		ksft_print_msg("peak: %ld active objects with %d masked processes alive, %s %ld\n",
			       peak, HOLDERS, "not at least", base + HOLDERS);
	ksft_test_result(peak >= base + HOLDERS && after >= 0 &&
			 after <= before + LEAK_SLACK,
			 "slab: %s active objects before %ld, at the peak %ld, after %ld\n", CACHE,
			 before, peak, after);
	ksft_finished();
}
