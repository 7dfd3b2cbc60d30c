// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the program the tests execute under a mask, to see
 * that execve() kept the mask itself, not only mode 3; and on arm64 the
 * program of the other execution state, through which a test makes the
 * calls of the other ABI (helper.h).
 *
 * Usage: mask_helper MODE [-p NR/ACTION] [-W VALUE] [-s KEY=VALUE]...
 *                    [-c CALL=RET]... [-t CALL=RET]... [-f FD]
 *                    [-k CALL | -r CALL | -x]
 *
 *   CALL          NR or NR,A0: syscall NR of this program's ABI, made raw
 *                 (no libc), with A0 (default 0) as its first argument and
 *                 0 as the others. NR may be negative.
 *   MODE          PR_GET_SECCOMP must answer MODE ("any": not checked),
 *                 after -p.
 *   -p NR/ACTION  first: install through prctl() the mask of this
 *                 program's ABI that allows every number up to its
 *                 largest nbits (1040 for AArch32) but NR (-1: none), with
 *                 ACTION (a number, 0x... allowed).
 *   -s KEY=VALUE  /proc/self/status must have the line "KEY:\tVALUE"
 *                 (the parent passes the Seccomp_mask, Seccomp_mask_compat
 *                 and Seccomp_mask_action lines of the masks it installed).
 *   -c CALL=RET   the call must return exactly RET, a negative RET being
 *                 -errno: a call the mask allows returns its value (getpid:
 *                 the pid the parent forked), one the mask denies with
 *                 SECCOMP_RET_ERRNO | e returns -e.
 *   -t CALL=RET   the call must be trapped (SECCOMP_RET_TRAP): exactly one
 *                 SIGSYS with si_code SYS_SECCOMP, si_syscall NR, si_arch
 *                 this ABI and si_errno 0, whose context holds the
 *                 rolled-back register (trap_return(NR, A0): the number on
 *                 x86, A0 on arm64); then the call returns exactly RET.
 *   -W VALUE      the SIGSYS handler writes VALUE into the context's
 *                 return register (default: it leaves it alone).
 *   -k CALL       last: the call, which the mask must kill (the parent
 *                 checks the SIGSYS). With -f FD, 'b' is written to FD
 *                 right before that call and 'a' right after it, so that
 *                 the test can tell a kill at this call from one before or
 *                 after it.
 *   -r CALL       last: 'b' to FD (-f), the call, then 'a' and its return
 *                 value in decimal and a newline; exit 0 (helper.h's
 *                 helper_probe()).
 *   -x            last: 'x' to FD (-f), then execve() the mask_helper of
 *                 the other ABI (mask_helper_32 from mask_helper_64 and
 *                 the reverse) with MODE "any"; exit 9 if that fails.
 *
 * The checks run in that order, the -c and -t calls in the order given.
 * Exits 0 when they all hold; 1: the mode, 2: a usage error, 3: FD could
 * not be written, 4: a status line, 5: a call, 6: the -k call returned,
 * 7: a trap, 8: the -p install, 9: the -x execve. A line on stderr says what was expected
 * and what was found.
 */

#define SECCOMP_MASK_NO_HARNESS
#include "common.h"

#define MAX_CHECKS	8

struct call {
	long nr;
	long a0;
	long ret;
	bool trap;
};

/* The SIGSYS handler of -t: what it saw, and what it writes (-W). */
static int sigsys_count;
static long sigsys_reg;
static siginfo_t sigsys_info;
static long reg_write;
static bool reg_written;

static void sigsys_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	sigsys_info = *si;
	__atomic_store_n(&sigsys_reg, (long)UC_RET_REG(uc), __ATOMIC_SEQ_CST);
	if (reg_written)
		UC_RET_REG(uc) = reg_write;
	__atomic_add_fetch(&sigsys_count, 1, __ATOMIC_SEQ_CST);
}

/* "NR" or "NR,A0" into @c; the rest must be @stop ('\0' or '='). */
static bool parse_nr(const char *arg, struct call *c, const char **rest)
{
	char *end;

	errno = 0;
	c->nr = strtol(arg, &end, 0);
	if (errno || end == arg)
		return false;
	c->a0 = 0;
	if (*end == ',') {
		arg = end + 1;
		c->a0 = strtol(arg, &end, 0);
		if (errno || end == arg)
			return false;
	}
	*rest = end;
	return true;
}

/* "CALL=RET" into @c. */
static bool parse_call(const char *arg, struct call *c)
{
	const char *rest;
	char *end;

	if (!parse_nr(arg, c, &rest) || *rest != '=')
		return false;
	arg = rest + 1;
	c->ret = strtol(arg, &end, 0);
	return !errno && end != arg && !*end;
}

static bool parse_last(const char *arg, struct call *c)
{
	const char *rest;

	return parse_nr(arg, c, &rest) && !*rest;
}

/* "NR/ACTION" of -p, and the install. */
static int prctl_install(const char *arg)
{
	static struct mask m;
	unsigned long action;
	char *end;
	long nr;

	errno = 0;
	nr = strtol(arg, &end, 0);
	if (errno || end == arg || *end != '/')
		return 2;
	arg = end + 1;
	action = strtoul(arg, &end, 0);
	if (errno || end == arg || *end)
		return 2;
	mask_all(&m, SELF_MAX_BITS);
	if (nr >= 0 && nr < SELF_MAX_BITS)
		mask_clear(&m, nr);
	if (mask_prctl_action(&m, action)) {
		fprintf(stderr, "mask_helper: prctl(PR_SET_SECCOMP, 3, ..., %u, %#lx): %s\n",
			m.nbits, action, strerror(errno));
		return 8;
	}
	return 0;
}

/* Make the call @c, which the mask traps: 0, or 7 with a line on stderr. */
static int trapped_call(const struct call *c)
{
	int count = __atomic_load_n(&sigsys_count, __ATOMIC_SEQ_CST);
	long ret = own_sys(c->nr, c->a0, 0, 0, 0, 0);
	long reg = trap_return(c->nr, c->a0);
	int got = __atomic_load_n(&sigsys_count, __ATOMIC_SEQ_CST) - count;
	long seen = __atomic_load_n(&sigsys_reg, __ATOMIC_SEQ_CST);

	if (got != 1 || sigsys_info.si_code != SYS_SECCOMP ||
	    sigsys_info.si_syscall != (int)c->nr ||
	    sigsys_info.si_arch != SELF_ARCH || sigsys_info.si_errno ||
	    seen != reg) {
		fprintf(stderr, "mask_helper: syscall %ld: %d SIGSYS, expected 1\n",
			c->nr, got);
		fprintf(stderr, "mask_helper: code %d syscall %d arch %#x errno %d register %ld,\n",
			sigsys_info.si_code, sigsys_info.si_syscall,
			sigsys_info.si_arch, sigsys_info.si_errno, seen);
		fprintf(stderr, "mask_helper: expected %d %d %#x 0 %ld\n",
			SYS_SECCOMP, (int)c->nr, SELF_ARCH, reg);
		return 7;
	}
	if (ret != c->ret) {
		fprintf(stderr, "mask_helper: trapped syscall %ld returned %ld, expected %ld\n",
			c->nr, ret, c->ret);
		return 7;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char status[16384], val[4096], key[256];
	const char *lines[MAX_CHECKS], *install = NULL;
	struct call calls[MAX_CHECKS], last;
	int nlines = 0, ncalls = 0, fd = -1, opt, i, err;
	struct sigaction sa = {
		.sa_sigaction = sigsys_handler,
		.sa_flags = SA_SIGINFO,
	};
	char last_kind = 0, *end;
	bool any_mode;
	long mode, ret;

	if (argc < 2)
		return 2;
	any_mode = !strcmp(argv[1], "any");
	mode = strtol(argv[1], &end, 10);
	if (!any_mode && (end == argv[1] || *end))
		return 2;
	optind = 2;
	while ((opt = getopt(argc, argv, "+p:W:s:c:t:f:k:r:x")) != -1) {
		switch (opt) {
		case 'p':
			install = optarg;
			break;
		case 'W':
			reg_write = strtol(optarg, NULL, 0);
			reg_written = true;
			break;
		case 's':
			if (nlines == MAX_CHECKS || !strchr(optarg, '='))
				return 2;
			lines[nlines++] = optarg;
			break;
		case 'c':
		case 't':
			if (ncalls == MAX_CHECKS ||
			    !parse_call(optarg, &calls[ncalls]))
				return 2;
			calls[ncalls++].trap = opt == 't';
			break;
		case 'f':
			fd = atoi(optarg);
			break;
		case 'k':
		case 'r':
			if (last_kind || !parse_last(optarg, &last))
				return 2;
			last_kind = opt;
			break;
		case 'x':
			if (last_kind)
				return 2;
			last_kind = opt;
			break;
		default:
			return 2;
		}
	}
	if (optind != argc || (last_kind == 'r' && fd < 0))
		return 2;

	if (sigaction(SIGSYS, &sa, NULL))
		return 2;
	if (install) {
		err = prctl_install(install);
		if (err)
			return err;
	}

	ret = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
	if (!any_mode && ret != mode) {
		fprintf(stderr, "mask_helper: PR_GET_SECCOMP is %ld, not %ld\n",
			ret, mode);
		return 1;
	}

	if (nlines && read_status(0, status, sizeof(status))) {
		fprintf(stderr, "mask_helper: /proc/self/status: %s\n",
			strerror(errno));
		return 4;
	}
	for (i = 0; i < nlines; i++) {
		const char *want = strchr(lines[i], '=') + 1;

		snprintf(key, sizeof(key), "%.*s",
			 (int)(want - 1 - lines[i]), lines[i]);
		if (!status_field(status, key, val, sizeof(val))) {
			fprintf(stderr, "mask_helper: no %s line, expected \"%s\"\n",
				key, want);
			return 4;
		}
		if (strcmp(val, want)) {
			fprintf(stderr, "mask_helper: %s is \"%s\", expected \"%s\"\n",
				key, val, want);
			return 4;
		}
	}

	for (i = 0; i < ncalls; i++) {
		if (calls[i].trap) {
			err = trapped_call(&calls[i]);
			if (err)
				return err;
			continue;
		}
		ret = own_sys(calls[i].nr, calls[i].a0, 0, 0, 0, 0);
		if (ret != calls[i].ret) {
			fprintf(stderr, "mask_helper: syscall %ld returned %ld, expected %ld\n",
				calls[i].nr, ret, calls[i].ret);
			return 5;
		}
	}

	if (last_kind == 'x') {
		char path[PATH_MAX];
		const char *args[3];

		if (!helper_path(path, sizeof(path), true)) {
			fprintf(stderr, "mask_helper: no mask_helper of the other ABI\n");
			return 9;
		}
		args[0] = path;
		args[1] = "any";
		args[2] = NULL;
		if (fd >= 0 && write(fd, "x", 1) != 1)
			return 3;
		execve(path, (char *const *)args, environ);
		fprintf(stderr, "mask_helper: execve %s: %s\n", path,
			strerror(errno));
		return 9;
	}
	if (last_kind) {
		char out[64];
		int n;

		if (fd >= 0 && write(fd, "b", 1) != 1)
			return 3;
		ret = own_sys(last.nr, last.a0, 0, 0, 0, 0);
		if (last_kind == 'r') {
			n = snprintf(out, sizeof(out), "a%ld\n", ret);
			return write(fd, out, n) == n ? 0 : 3;
		}
		if (fd >= 0 && write(fd, "a", 1) != 1)
			return 3;
		fprintf(stderr, "mask_helper: syscall %ld returned %ld, expected a kill\n",
			last.nr, ret);
		return 6;
	}
	return 0;
}
