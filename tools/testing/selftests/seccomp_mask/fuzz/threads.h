/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seccomp_mask_fuzz: the threads phase: workers that tighten their own masks at once, a
 * forker that execs masked children, a reader of their status files.
 *
 * Part of seccomp_mask_fuzz.c, which includes the parts in this order:
 * model.h, arena.h, ops.h, probes.h, child.h, runner.h, threads.h.
 */
#ifndef _SECCOMP_MASK_FUZZ_THREADS_H
#define _SECCOMP_MASK_FUZZ_THREADS_H

/* Threads phase. */

#define NWORKERS 3

/*
 * The children the forker execs in one run: FORK_EXECS in the bounded mode
 * (-n: fork_execs), else as many as 0.5 s allows (tens under TCG).
 */
#define FORK_EXECS 8
static int fork_execs;

struct tplan {
	struct attempt at[NWORKERS];
	struct model fin[NWORKERS];
	uint8_t exec_mask[NABI][MASK_BYTES];
	int exec_probe_abi;
	long exec_probe_nr;
	double until;
};

static struct tplan tp;
static pid_t tchild;
static char *self_exe;

static void *worker(void *arg)
{
	int w = (int)(intptr_t)arg;
	const struct attempt *at = &tp.at[w];

	shm_set(&shm->t_tid[w], syscall(__NR_gettid));
	shm_inc(&shm->t_ready);
	while (!shm_get(&shm->t_release))
		cpu_relax();
	for (int i = 0; i < at->nops; i++) {
		shm_set(&shm->t_started[w], i + 1);
		shm_set(&shm->t_ret[w][i], run_op(&at->ops[i]));
		shm_set(&shm->t_done[w], i + 1);
	}
	/* stay alive (and masked) until the process exits */
	for (;;)
		do_sys(NATIVE, how_for(NATIVE), NR[NATIVE].sched_yield, 0, 0, 0, 0, 0);
	return NULL;
}

static char exec_arg_masks[NABI][4200];

static void *forker(void *arg)
{
	char a_abi[8], a_nr[32];
	struct seccomp_mask ent[NABI];
	struct seccomp_mask_set set = {
		.size = sizeof(struct seccomp_mask_set),
		.nr_masks = nabis,
		.masks = (uintptr_t)ent,
	};
	char *const argv[] = { self_exe, "--exec-check", "3", exec_arg_masks[ABI64],
			       exec_arg_masks[ABI32], a_abi, a_nr, NULL };

	(void)arg;
	snprintf(a_abi, sizeof(a_abi), "%d", tp.exec_probe_abi);
	snprintf(a_nr, sizeof(a_nr), "%ld", tp.exec_probe_nr);
	for (int abi = 0; abi < nabis; abi++) {
		ent[abi].arch = abi_arch[abi];
		/* all of an ABI's bits: an AArch32 image's start-up calls set_tls */
		ent[abi].nbits = abi_maxb[abi];
		ent[abi].bits = (uintptr_t)tp.exec_mask[abi];
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK, 0, &set)) {
		shm_set(&shm->fork_bad, 1000 + errno);
		return NULL;
	}
	for (int n = 0; fork_execs ? n < fork_execs : now() < tp.until; n++) {
		int st;
		pid_t pid = fork();

		if (pid == 0) {
			execv(self_exe, argv);
			_exit(8);
		}
		if (pid < 0) {
			shm_set(&shm->fork_bad, 2000 + errno);
			break;
		}
		if (waitpid(pid, &st, 0) != pid) {
			shm_set(&shm->fork_bad, 3000 + errno);
			break;
		}
		shm_inc(&shm->fork_execs);
		if (!probe_died_ok(st)) {
			shm_inc(&shm->fork_bad);
			shm_set(&shm->fork_badstatus, st);
		}
	}
	return NULL;
}

/* The mask lines of a status text must be in the %*pbl format. */
static void check_mask_lines(const char *buf)
{
	char v[STATUS_MAX / 2];

	for (int abi = 0; abi < NABI; abi++) {
		const char *key = abi ? "Seccomp_mask_compat" : "Seccomp_mask";

		if (!field(buf, key, v, sizeof(v)) || strspn(v, "0123456789,-") == strlen(v))
			continue;
		shm_inc(&shm->read_bad);
		snprintf(shm->read_bad_line, sizeof(shm->read_bad_line), "%s: %.200s", key, v);
	}
}

/* Reads every /proc/<pid>/task/<tid>/status of @pid until it is gone. */
static void __noreturn reader(pid_t pid)
{
	static char buf[STATUS_MAX];
	char dir[64], path[384];

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	for (;;) {
		DIR *d = opendir(dir);
		struct dirent *de;

		if (!d)
			_exit(0);
		while ((de = readdir(d))) {
			ssize_t n;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/status", dir, de->d_name);
			n = read_status_file(path, buf, sizeof(buf));
			if (n == -2) {
				shm_inc(&shm->read_bad);
				snprintf(shm->read_bad_line, sizeof(shm->read_bad_line),
					 "%.200s: longer than the buffer", path);
				continue;
			}
			if (n <= 0)
				continue;
			shm_inc(&shm->reads);
			check_mask_lines(buf);
		}
		closedir(d);
	}
}

static void __noreturn thread_child(void)
{
	pthread_t t[NWORKERS + 1];

	for (int w = 0; w < NWORKERS; w++)
		pthread_create(&t[w], NULL, worker, (void *)(intptr_t)w);
	pthread_create(&t[NWORKERS], NULL, forker, NULL);
	while (shm_get(&shm->t_ready) < NWORKERS)
		sched_yield();
	apply_layout();
	shm_set(&shm->t_release, 1);
	for (;;) {
		int done = 0;

		for (int w = 0; w < NWORKERS; w++)
			done += shm_get(&shm->t_done[w]) == tp.at[w].nops;
		if (done == NWORKERS)
			break;
		sched_yield();
	}
	pthread_join(t[NWORKERS], NULL);
	checkpoint();
	_exit(0);
}

/* The plan of threads run @idx: the workers' ops and the exec'd children's mask. */
static void gen_threads(int idx)
{
	struct model m0 = { .cap = true };
	struct model any = { .mode = 0 };
	struct probe p;

	memset(&tp, 0, sizeof(tp));
	rs = mix(g_seed, 1000000 + idx);
	reset_arenas();
	setup_fixed();
	for (int w = 0; w < NWORKERS; w++) {
		struct attempt *at = &tp.at[w];
		struct model m = m0;

		at->seed = rs;
		at->death = -1;
		at->nops = 2 + rn(3);
		for (int i = 0; i < at->nops; i++) {
			at->before[i] = m;
			gen_op(at, i, &m, &fx, true);
			if (at->ops[i].death)
				ksft_exit_fail_msg("threads phase: a safe mask denied a call\n");
		}
		at->before[at->nops] = m;
		tp.fin[w] = m;
	}
	/* the exec'd children: all allowed but one probe (not -1: never denied) */
	memset(tp.exec_mask, 0xff, sizeof(tp.exec_mask));
	for (int abi = 0; abi < NABI; abi++)
		clamp_mask(tp.exec_mask[abi], abi);
	do
		gen_probe(&p, &any);
	while (p.kind == 3 || (p.kind == 0 && p.abi == NATIVE) || p.nr == -1);
	tp.exec_probe_abi = p.abi;
	tp.exec_probe_nr = p.nr;
	if (mask_bit(p.abi, p.nr) >= 0)
		tp.exec_mask[p.abi][mask_bit(p.abi, p.nr) / 8] &=
			~(1 << (mask_bit(p.abi, p.nr) % 8));
	for (int abi = 0; abi < NABI; abi++)
		fmt_mask(tp.exec_mask[abi], exec_arg_masks[abi], sizeof(exec_arg_masks[abi]));
	if (!have_ia32)
		memset(tp.exec_mask[ABI32], 0, MASK_BYTES);
}

/* At the checkpoint: each worker's /proc/<pid>/task/<tid>/status. */
static void check_tasks(int idx)
{
	char path[96], buf[STATUS_MAX], why[2200];

	for (int k = 0; k < NWORKERS; k++) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", tchild,
			 shm_get(&shm->t_tid[k]));
		n = read_status_file(path, buf, sizeof(buf));
		n_proc_checks++;
		if (n < 0)
			report_attempt(&tp.at[k], idx, "threads: %s of worker %d: %s", path, k,
				       n == -2 ? "longer than the buffer" : strerror(errno));
		else if (check_status(buf, &tp.fin[k], why, sizeof(why)))
			report_attempt(&tp.at[k], idx, "threads: %s of worker %d: %s",
				       path, k, why);
	}
}

/* Wait for the threads' process; a hang is killed and counted. */
static void wait_threads(int idx, int *st)
{
	double t0 = now();
	bool proc_done = false;

	for (;;) {
		if (waitpid(tchild, st, WNOHANG) == tchild)
			return;
		if (shm_get(&shm->at_checkpoint) && !proc_done) {
			proc_done = true;
			check_tasks(idx);
			shm_set(&shm->go, 1);
			continue;
		}
		if (now() - t0 > 2 * HANG_SECONDS)
			break;
		usleep(1000);
	}
	kill(tchild, SIGKILL);
	waitpid(tchild, st, 0);
	ksft_print_msg("threads run %d hung: workers done %d %d %d, forks %d\n", idx,
		       shm_get(&shm->t_done[0]), shm_get(&shm->t_done[1]),
		       shm_get(&shm->t_done[2]), shm_get(&shm->fork_execs));
	n_disagree++;
}

/* The workers' answers, the exec'd children and the reader's lines. */
static void check_threads(int idx, int st)
{
	int execs = shm_get(&shm->fork_execs), bad = shm_get(&shm->fork_bad);
	char sb[64];

	if (!exited_ok(st)) {
		n_disagree++;
		ksft_print_msg("threads run %d (seed %#llx): the process %s\n", idx,
			       (unsigned long long)g_seed, status_str(st, sb, sizeof(sb)));
	}
	for (int w = 0; w < NWORKERS; w++) {
		const struct attempt *at = &tp.at[w];
		int done = shm_get(&shm->t_done[w]);

		for (int i = 0; i < at->nops && i < done; i++) {
			long ret = shm_get(&shm->t_ret[w][i]);

			n_ops++;
			count_err(ret);
			if (op_ok(&at->ops[i], ret))
				continue;
			report_attempt(at, idx, "threads: worker %d op %d returned %ld (%s)",
				       w, i, ret, ret_name(ret));
			break;
		}
	}
	n_exec_checks += execs;
	if (bad) {
		n_disagree++;
		ksft_print_msg("threads run %d (seed %#llx): exec'd children denied %s nr %ld\n",
			       idx, (unsigned long long)g_seed, abi_name[tp.exec_probe_abi],
			       tp.exec_probe_nr);
		ksft_print_msg("threads run %d: %d of %d were not killed by SIGSYS (last: %s)\n",
			       idx, bad, execs,
			       status_str(shm_get(&shm->fork_badstatus), sb, sizeof(sb)));
	}
	if (shm_get(&shm->read_bad)) {
		n_disagree++;
		ksft_print_msg("threads run %d: malformed /proc status line: %s\n", idx,
			       shm->read_bad_line);
	}
}

static void run_threads(int idx)
{
	pid_t rd;
	int st = 0;

	gen_threads(idx);
	tp.until = now() + 0.5;
	memset(shm, 0, sizeof(*shm));
	tchild = fork_or_die();
	if (tchild == 0)
		thread_child();
	rd = fork_or_die();
	if (rd == 0)
		reader(tchild);
	wait_threads(idx, &st);
	kill(rd, SIGKILL);
	waitpid(rd, NULL, 0);
	n_thread_runs++;
	check_threads(idx, st);
}

#endif /* _SECCOMP_MASK_FUZZ_THREADS_H */
