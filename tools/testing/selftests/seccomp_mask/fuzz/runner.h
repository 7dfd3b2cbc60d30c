/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seccomp_mask_fuzz: the parent: runs the attempts, checks every answer, the status
 * files and the probes against the model; the exec check.
 *
 * Part of seccomp_mask_fuzz.c, which includes the parts in this order:
 * model.h, arena.h, ops.h, probes.h, child.h, runner.h, threads.h.
 */
#ifndef _SECCOMP_MASK_FUZZ_RUNNER_H
#define _SECCOMP_MASK_FUZZ_RUNNER_H

/* The parent. */

static uint64_t g_seed;
static int verbose;
static struct fixed fx;
static unsigned long n_attempts, n_ops, n_ok_ops, n_err_ops, n_deaths, n_probes,
	n_disagree, n_proc_checks, n_self_checks, n_exec_checks, n_thread_runs;
static unsigned long errs_seen[5];	/* EINVAL EFAULT EPERM EACCES other */

static void count_err(long r)
{
	static const long counted[] = { EINVAL, EFAULT, EPERM, EACCES };
	unsigned int i;

	if (r >= 0)
		return;
	/* The index of -@r in counted[], or that of "other". */
	for (i = 0; i < ARRAY_SIZE(counted) && counted[i] != -r; i++)
		;
	errs_seen[i]++;
}

static const char *status_str(int st, char *buf, size_t len)
{
	if (WIFEXITED(st))
		snprintf(buf, len, "exited with %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	else
		snprintf(buf, len, "status %#x", st);
	return buf;
}

static bool field(const char *buf, const char *key, char *val, size_t len)
{
	size_t kl = strlen(key);
	const char *p = buf;

	while (p && *p) {
		if (!strncmp(p, key, kl) && p[kl] == ':' && p[kl + 1] == '\t') {
			const char *e = strchrnul(p + kl + 2, '\n');

			snprintf(val, len, "%.*s", (int)(e - p - kl - 2), p + kl + 2);
			return true;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

/* Compare a status text with a model; returns NULL or what differs. */
static const char *check_status(const char *buf, const struct model *m, char *why, size_t len)
{
	char v[STATUS_MAX / 2] = "", want[STATUS_MAX / 2];

	if (!field(buf, "Seccomp", v, sizeof(v)) || atoi(v) != m->mode) {
		snprintf(why, len, "Seccomp: '%s', contract: %d", v, m->mode);
		return why;
	}
	if (field(buf, "NoNewPrivs", v, sizeof(v)) && atoi(v) != m->nnp) {
		snprintf(why, len, "NoNewPrivs: '%s', model: %d", v, m->nnp);
		return why;
	}
	if (field(buf, "Seccomp_filters", v, sizeof(v)) && atoi(v) != m->nfilters) {
		snprintf(why, len, "Seccomp_filters: '%s', model: %d", v, m->nfilters);
		return why;
	}
	/* version 2: the action line whenever the mask lines are shown */
	if (m->masked) {
		bool has = field(buf, "Seccomp_mask_action", v, sizeof(v));

		if (!has || strcmp(v, "kill_process")) {
			snprintf(why, len, "Seccomp_mask_action: '%s'%s, contract: 'kill_process'",
				 has ? v : "", has ? "" : " (no line)");
			return why;
		}
	}
	for (int abi = 0; abi < NABI; abi++) {
		const char *key = abi == ABI64 ? "Seccomp_mask" : "Seccomp_mask_compat";
		bool has = field(buf, key, v, sizeof(v));

		if (abi == ABI32 && !have_ia32 && !has)
			continue;
		if (!m->masked) {
			if (has) {
				snprintf(why, len, "%s: line shown without masks (mode %d)", key,
					 m->mode);
				return why;
			}
			continue;
		}
		fmt_mask(m->mask[abi], want, sizeof(want));
		if (!has || strcmp(v, want)) {
			snprintf(why, len, "%s: '%.1000s'%s, contract: '%.1000s'", key,
				 has ? v : "", has ? "" : " (no line)", want);
			return why;
		}
	}
	return NULL;
}

static void report_attempt(const struct attempt *at, int idx, const char *fmt, ...)
	__printf(3, 4);

static int disagreements_in_attempt;
/* run_attempt_again(): the second run of an attempt, reported in one line each */
static bool running_again;

static void report_attempt(const struct attempt *at, int idx, const char *fmt, ...)
{
	va_list ap;
	char msg[2048];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	n_disagree++;
	disagreements_in_attempt++;
	if (running_again) {
		ksft_print_msg("  again: %s\n", msg);
		return;
	}
	ksft_print_msg("DISAGREEMENT (seed %#llx, attempt %d, %s build): %s\n",
		       (unsigned long long)g_seed, idx, BUILD, msg);
	for (int i = 0; i < at->nops; i++)
		ksft_print_msg("  op %d: %s\n", i, at->desc[i]);
	ksft_print_msg("  replay: seccomp_mask_fuzz_%s -s %#llx -a %d -v\n", BUILD,
		       (unsigned long long)g_seed, idx);
}

static void setup_fixed(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	static struct sock_filter insn[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_fprog prog = { .len = 1, .filter = insn };
	uint8_t *b = arenas[0].base;

	/* slot 0 of page 0 is reserved for these */
	if (syscall(__NR_capget, &hdr, data))
		ksft_exit_fail_msg("capget: %s\n", strerror(errno));
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	memcpy(b, &prog, sizeof(prog));
	memcpy(b + 32, &hdr, sizeof(hdr));
	memcpy(b + 64, data, sizeof(data));
	memcpy(b + 128, self_status_path, sizeof(self_status_path));
	fx.fprog = (uintptr_t)b;
	fx.caphdr = (uintptr_t)b + 32;
	fx.capdata = (uintptr_t)b + 64;
}

static void reset_arenas(void)
{
	for (int a = 0; a < narenas; a++) {
		uint8_t *b = arenas[a].base;

		for (unsigned long i = a == 0 ? 256 : 0; i < NPAGES * PG; i += 8) {
			uint64_t r = rnd();

			memcpy(b + i, &r, 8);
		}
		memset(arenas[a].used, 0, sizeof(arenas[a].used));
		arenas[a].special = 0;
	}
}

static void gen_attempt(struct attempt *at, int idx)
{
	struct model m = { .cap = true };
	bool exitable;

	memset(at, 0, sizeof(*at));
	at->seed = mix(g_seed, idx);
	rs = at->seed;
	reset_arenas();
	setup_fixed();
	at->death = -1;
	at->nops = 1 + rn(MAXOPS - 2);
	for (int i = 0; i < at->nops; i++) {
		at->before[i] = m;
		gen_op(at, i, &m, &fx, false);
		if (at->ops[i].death) {
			at->death = i;
			at->nops = i + 1;
			break;
		}
	}
	at->before[at->nops] = m;
	if (at->death >= 0)
		return;
	at->selfread = allowed(&m, NATIVE, NR[NATIVE].openat) &&
		       allowed(&m, NATIVE, NR[NATIVE].read) &&
		       allowed(&m, NATIVE, NR[NATIVE].close);
	at->use_fork = allowed(&m, NATIVE, NR[NATIVE].fork) &&
		       allowed(&m, NATIVE, NR[NATIVE].wait4);
	at->nprobes = at->use_fork ? 1 + rn(MAXPROBES) : 1;
	for (int i = 0; i < at->nprobes; i++)
		gen_probe(&at->probes[i], &m);
	at->exit_abi = call_other && chance(25) ? !NATIVE : NATIVE;
	exitable = allowed(&m, at->exit_abi, NR[at->exit_abi].exit_group);
	(void)exitable;
}

static bool probe_died_ok(int st)
{
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS;
}

static bool exited_ok(int st)
{
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static const char *ret_name(long ret)
{
	return ret < 0 ? errname(-ret) : "success";
}

#define PROBE_DENIED_FMT "probe %d: %s nr %ld via %s is denied (mode %d) but %s%s (ret %ld)"
#define PROBE_NORET_FMT "probe %d: %s nr %ld via %s is allowed but did not return: %s"
#define PROBE_UNIMPL_FMT "probe %d: %s nr %ld (unimplemented, allowed): %ld, not %ld as unmasked"
#define PROBE_EXIT_FMT "probe %d: after the probe, exit_group is %s but the process %s"
#define OP_DEATH_FMT "op %d is denied: must kill by SIGSYS (started %d, done %d, ret %ld): %s"

/* Verify a probe's outcome; @st the status of the process that made it. */
static void check_probe(const struct attempt *at, int idx, int i, const struct model *m,
			bool returned, long ret, int st, bool exit_allowed)
{
	const struct probe *p = &at->probes[i];
	const char *then = returned ? "returned, then " : "";
	char sb[64];

	n_probes++;
	status_str(st, sb, sizeof(sb));
	if (p->kind == 3) {
		/* uretprobe: exempt; unimplemented without CONFIG_UPROBES, else SIGILL */
		if ((returned && ret == unimpl_ret[ABI64]) ||
		    (WIFSIGNALED(st) && WTERMSIG(st) == SIGILL))
			return;
		report_attempt(at, idx, "probe %d: uretprobe (x86_64 nr 335) is never denied: %s%s",
			       i, then, sb);
		return;
	}
	if (!p->allowed) {
		if (!returned && probe_died_ok(st))
			return;
		report_attempt(at, idx, PROBE_DENIED_FMT, i, abi_name[p->abi], p->nr,
			       how_name[p->how], m->mode, then, sb, ret);
		return;
	}
	if (!returned) {
		report_attempt(at, idx, PROBE_NORET_FMT, i, abi_name[p->abi], p->nr,
			       how_name[p->how], sb);
		return;
	}
	if (p->kind == 1 && ret != unimpl_ret[p->abi]) {
		report_attempt(at, idx, PROBE_UNIMPL_FMT, i, abi_name[p->abi], p->nr, ret,
			       unimpl_ret[p->abi]);
		return;
	}
	if (exit_allowed ? !exited_ok(st) : !probe_died_ok(st))
		report_attempt(at, idx, PROBE_EXIT_FMT, i, exit_allowed ? "allowed" : "denied", sb);
}

/*
 * Read a /proc status file to its end into @buf: its length, -1 when it
 * cannot be read, -2 when it does not fit (then @buf holds a truncated
 * text that must not be compared).
 */
static ssize_t read_status_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = 0, r = -1;

	if (fd >= 0) {
		while ((r = read(fd, buf + n, len - 1 - n)) > 0)
			n += r;
		close(fd);
	}
	buf[n] = 0;
	if (r < 0)
		return -1;
	return n == (ssize_t)len - 1 ? -2 : n;
}

/* At the checkpoint: the child's /proc/<pid>/status against the model. */
static void check_proc(const struct attempt *at, int idx, pid_t pid)
{
	char path[64], buf[STATUS_MAX], why[2200];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	n = read_status_file(path, buf, sizeof(buf));
	n_proc_checks++;
	if (n < 0)
		report_attempt(at, idx, "%s at the checkpoint: %s", path,
			       n == -2 ? "longer than the buffer" : strerror(errno));
	else if (check_status(buf, &at->before[at->nops], why, sizeof(why)))
		report_attempt(at, idx, "%s at the checkpoint: %s", path, why);
}

/*
 * A child that has not ended after this long hung (an attempt takes
 * milliseconds, even under TCG): short, so that a kernel that hangs every
 * attempt still lets the run end within its time.
 */
#define HANG_SECONDS	8

/*
 * Wait for the child, checking its /proc/<pid>/status when it waits at
 * its checkpoint. False when it hung: it is killed and reported.
 */
static bool wait_child(const struct attempt *at, int idx, pid_t pid, int *st, bool *proc_done)
{
	double t0 = now();

	for (;;) {
		if (waitpid(pid, st, WNOHANG) == pid)
			return true;
		if (shm_get(&shm->at_checkpoint) && !*proc_done) {
			*proc_done = true;
			check_proc(at, idx, pid);
			shm_set(&shm->go, 1);
			continue;
		}
		if (now() - t0 > HANG_SECONDS)
			break;
		usleep(shm_get(&shm->at_checkpoint) ? 200 : 1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, st, 0);
	report_attempt(at, idx, "the child hung (ops started %d, done %d, probes %d)",
		       shm_get(&shm->started), shm_get(&shm->done), shm_get(&shm->probes_started));
	return false;
}

/* The answers to the ops; false when the attempt ends with them. */
static bool check_ops(const struct attempt *at, int idx, int st)
{
	int started = shm_get(&shm->started), done = shm_get(&shm->done);
	char sb[64];

	for (int i = 0; i < at->nops; i++) {
		const struct op *o = &at->ops[i];
		long ret = done > i ? shm_get(&shm->ret[i]) : 0;

		if (o->death) {
			n_deaths++;
			if (started == i + 1 && done == i && probe_died_ok(st))
				return false;
			report_attempt(at, idx, OP_DEATH_FMT, i, started, done, ret,
				       status_str(st, sb, sizeof(sb)));
			return false;
		}
		if (done <= i) {
			report_attempt(at, idx, "op %d (allowed by the masks) did not return: %s",
				       i, status_str(st, sb, sizeof(sb)));
			return false;
		}
		n_ops++;
		count_err(ret);
		if (ret < 0)
			n_err_ops++;
		else
			n_ok_ops++;
		if (!op_ok(o, ret)) {
			report_attempt(at, idx, "op %d returned %ld (%s)", i, ret, ret_name(ret));
			return false;
		}
	}
	return true;
}

/* The probes; false when the attempt ends with them. */
static bool check_probes(const struct attempt *at, int idx, int st)
{
	const struct model *fin = &at->before[at->nops];
	bool exit_native = allowed(fin, NATIVE, NR[NATIVE].exit_group);
	bool exit_final = allowed(fin, at->exit_abi, NR[at->exit_abi].exit_group);
	char sb[64];

	for (int i = 0; i < at->nprobes; i++) {
		bool returned = shm_get(&shm->p_returned[i]);
		long ret = shm_get(&shm->p_ret[i]);

		if (!at->use_fork) {
			/* the child probed itself: the last probe, then its final exit */
			bool last = i == at->nprobes - 1;

			check_probe(at, idx, i, fin, returned, ret, st,
				    returned && last && exit_final);
			return false;
		}
		if (shm_get(&shm->p_waited[i]) != 1) {
			report_attempt(at, idx, "probe %d: fork/wait4 failed (%ld), child %s",
				       i, ret, status_str(st, sb, sizeof(sb)));
			return false;
		}
		check_probe(at, idx, i, fin, returned, ret, shm_get(&shm->p_status[i]),
			    exit_native);
	}
	return true;
}

/* Buffered output must not be written twice; a failed fork ends the run. */
static pid_t fork_or_die(void)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	/* dies with the fuzzer, whatever ends it */
	if (pid == 0)
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	return pid;
}

static void run_attempt(int idx)
{
	static struct attempt at;
	const struct model *fin;
	char why[2200], sb[64];
	int st = 0, self_len;
	pid_t pid;
	bool proc_done = false, exit_ok;

	gen_attempt(&at, idx);
	fin = &at.before[at.nops];
	disagreements_in_attempt = 0;
	if (verbose) {
		ksft_print_msg("attempt %d (seed %#llx):\n", idx, (unsigned long long)g_seed);
		for (int i = 0; i < at.nops; i++)
			ksft_print_msg("  op %d: %s\n", i, at.desc[i]);
	}
	memset(shm, 0, sizeof(*shm));
	pid = fork_or_die();
	if (pid == 0)
		child(&at);
	if (!wait_child(&at, idx, pid, &st, &proc_done))
		return;
	n_attempts++;

	if (!check_ops(&at, idx, st))
		return;
	if (!proc_done)
		report_attempt(&at, idx, "the child never reached the checkpoint: %s",
			       status_str(st, sb, sizeof(sb)));
	if (at.selfread) {
		n_self_checks++;
		self_len = shm_get(&shm->self_len);
		if (self_len <= 0)
			report_attempt(&at, idx, "the child could not read /proc/self/status: %s",
				       self_len == -2 ? "longer than the buffer" : "no data");
		else if (check_status(shm->self_status, fin, why, sizeof(why)))
			report_attempt(&at, idx, "/proc/self/status of the child: %s", why);
	}
	if (!check_probes(&at, idx, st))
		return;
	exit_ok = allowed(fin, at.exit_abi, NR[at.exit_abi].exit_group);
	if (exit_ok ? !exited_ok(st) : !probe_died_ok(st))
		report_attempt(&at, idx, "final exit_group via %s is %s but the child %s",
			       abi_name[at.exit_abi], exit_ok ? "allowed" : "denied",
			       status_str(st, sb, sizeof(sb)));
}

/*
 * Run attempt @idx; after a disagreement run it once more (the same
 * operations, arguments and probes: only the arenas' addresses and the
 * timing differ) and say whether the disagreement came back: a kernel
 * that answers wrongly answers wrongly again, a harness or emulator
 * hiccup may not. The second run's disagreements are printed, not
 * counted.
 */
static void run_attempt_again(int idx)
{
	unsigned long d0 = n_disagree, d1, a1;

	run_attempt(idx);
	if (n_disagree == d0)
		return;
	d1 = n_disagree;
	a1 = n_attempts;
	running_again = true;
	run_attempt(idx);
	running_again = false;
	ksft_print_msg("attempt %d run again: %s\n", idx, n_disagree > d1 ?
		       "it disagrees again (deterministic)" :
		       "no disagreement this time (timing, or the environment)");
	n_disagree = d1;
	n_attempts = a1;
}

/* exec: this program re-executed under a mask checks it. */

/*
 * argv: --exec-check MODE MASK64 MASK32 PROBE_ABI PROBE_NR
 * Exits 0 never: the denied probe must kill it with SIGSYS. Exit codes:
 * 3 status mismatch, 4 the probe returned, 5 cannot read status (or it
 * does not fit the buffer).
 */
static int exec_check(int argc, char **argv)
{
	struct model m = { 0 };
	char buf[STATUS_MAX], why[2200];

	if (argc < 7)
		return 6;
	m.mode = atoi(argv[2]);
	m.masked = true;
	m.nnp = true;
	for (int abi = 0; abi < NABI; abi++) {
		const char *s = argv[3 + abi];

		while (*s) {
			char *e;
			long a = strtol(s, &e, 10), b = a;

			if (e == s)
				return 7;
			if (*e == '-')
				b = strtol(e + 1, &e, 10);
			for (; a <= b && a < MAXB_ALL; a++)
				setbit(m.mask[abi], a);
			s = *e == ',' ? e + 1 : e;
		}
	}
	if (read_status_file("/proc/self/status", buf, sizeof(buf)) < 0)
		return 5;
	/* the filters count is not known here: drop that line from the check */
	if (check_status(buf, &m, why, sizeof(why)) && !strstr(why, "Seccomp_filters")) {
		fprintf(stderr, "# exec'd image: %s\n", why);
		return 3;
	}
	{
		int abi = atoi(argv[5]);
		long nr = atol(argv[6]);

		do_sys(abi, how_for(abi), nr, 0, 0, 0, 0, 0);
	}
	return 4;
}

#endif /* _SECCOMP_MASK_FUZZ_RUNNER_H */
