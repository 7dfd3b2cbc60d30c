// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the program inherit_test executes under a mask.
 *
 * Usage: mask_helper MODE [NR [FD]]
 * Exits 0 when PR_GET_SECCOMP answers MODE, 1 otherwise; with NR, makes
 * syscall NR first (the mask is expected to kill it). With FD, writes 'b'
 * to FD right before that syscall and 'a' right after it, so that the
 * test can tell a kill at this call from one before or after it.
 */

#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd = argc > 3 ? atoi(argv[3]) : -1;

	if (argc < 2)
		return 2;
	if (argc > 2) {
		if (fd >= 0 && write(fd, "b", 1) != 1)
			return 3;
		syscall(atol(argv[2]));
		if (fd >= 0 && write(fd, "a", 1) != 1)
			return 3;
	}
	return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == atoi(argv[1]) ? 0 : 1;
}
