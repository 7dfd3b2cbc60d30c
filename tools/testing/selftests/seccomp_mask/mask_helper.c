// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the program inherit_test executes under a mask, to
 * see that execve() kept the mask itself, not only mode 3.
 *
 * Usage: mask_helper MODE [-s KEY=VALUE]... [-c NR=RET]... [-f FD] [-k NR]
 *
 *   MODE          PR_GET_SECCOMP must answer MODE.
 *   -s KEY=VALUE  /proc/self/status must have the line "KEY:\tVALUE"
 *                 (the parent passes the Seccomp_mask, Seccomp_mask_compat
 *                 and Seccomp_mask_action lines of the masks it installed).
 *   -c NR=RET     syscall NR of this program's ABI, without arguments,
 *                 must return exactly RET, a negative RET being -errno: a
 *                 call the mask allows returns its value (getpid: the pid
 *                 the parent forked), one the mask denies with
 *                 SECCOMP_RET_ERRNO | e returns -e.
 *   -k NR         last: syscall NR, which the mask must kill (the parent
 *                 checks the SIGSYS). With -f FD, 'b' is written to FD
 *                 right before that call and 'a' right after it, so that
 *                 the test can tell a kill at this call from one before or
 *                 after it.
 *
 * The checks run in that order, the -c calls in the order given. Exits 0
 * when they all hold; 1: the mode, 2: a usage error, 3: FD could not be
 * written, 4: a status line, 5: a call, 6: the -k call returned. A line
 * on stderr says what was expected and what was found.
 */

#define SECCOMP_MASK_NO_HARNESS
#include "common.h"

#define MAX_CHECKS	8

/* Syscall @nr of this program's ABI, without arguments: -errno on failure. */
static long own_abi_call(long nr)
{
#ifdef X86_BUILD
	return own_call(nr);
#else
	long ret = syscall(nr);

	return ret == -1 ? -errno : ret;
#endif
}

/* "NR=RET" into @nr and @ret. */
static bool parse_call(const char *arg, long *nr, long *ret)
{
	char *end;

	errno = 0;
	*nr = strtol(arg, &end, 0);
	if (errno || end == arg || *end != '=')
		return false;
	arg = end + 1;
	*ret = strtol(arg, &end, 0);
	return !errno && end != arg && !*end;
}

static bool parse_nr(const char *arg, long *nr)
{
	char *end;

	errno = 0;
	*nr = strtol(arg, &end, 0);
	return !errno && end != arg && !*end;
}

int main(int argc, char **argv)
{
	static char status[16384], val[4096], key[256];
	const char *lines[MAX_CHECKS];
	long call_nr[MAX_CHECKS], call_ret[MAX_CHECKS];
	int nlines = 0, ncalls = 0, fd = -1, mode, opt, i;
	long kill_nr = -1, ret;
	bool do_kill = false;

	if (argc < 2)
		return 2;
	mode = atoi(argv[1]);
	optind = 2;
	while ((opt = getopt(argc, argv, "+s:c:f:k:")) != -1) {
		switch (opt) {
		case 's':
			if (nlines == MAX_CHECKS || !strchr(optarg, '='))
				return 2;
			lines[nlines++] = optarg;
			break;
		case 'c':
			if (ncalls == MAX_CHECKS ||
			    !parse_call(optarg, &call_nr[ncalls],
					&call_ret[ncalls]))
				return 2;
			ncalls++;
			break;
		case 'f':
			fd = atoi(optarg);
			break;
		case 'k':
			if (!parse_nr(optarg, &kill_nr))
				return 2;
			do_kill = true;
			break;
		default:
			return 2;
		}
	}
	if (optind != argc)
		return 2;

	ret = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
	if (ret != mode) {
		fprintf(stderr, "mask_helper: PR_GET_SECCOMP is %ld, not %d\n",
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
		ret = own_abi_call(call_nr[i]);
		if (ret != call_ret[i]) {
			fprintf(stderr, "mask_helper: syscall %ld returned %ld, expected %ld\n",
				call_nr[i], ret, call_ret[i]);
			return 5;
		}
	}

	if (do_kill) {
		if (fd >= 0 && write(fd, "b", 1) != 1)
			return 3;
		ret = own_abi_call(kill_nr);
		if (fd >= 0 && write(fd, "a", 1) != 1)
			return 3;
		fprintf(stderr, "mask_helper: syscall %ld returned %ld, expected a kill\n",
			kill_nr, ret);
		return 6;
	}
	return 0;
}
