// SPDX-License-Identifier: GPL-2.0
/*
 * Seccomp mask mode: the program inherit_test executes under a mask.
 *
 * Usage: mask_helper MODE [NR]
 * Exits 0 when PR_GET_SECCOMP answers MODE, 1 otherwise; with NR, makes
 * syscall NR first (the mask is expected to kill it).
 */

#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	if (argc > 2)
		syscall(atol(argv[2]));
	return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == atoi(argv[1]) ? 0 : 1;
}
