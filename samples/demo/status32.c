// SPDX-License-Identifier: GPL-2.0
/*
 * status32: an AArch32 program for the arm64 guest, which prints its pid
 * and the seccomp lines of its own /proc/self/status.  An arm64 kernel
 * with CONFIG_COMPAT runs it in AArch32 state: its syscalls are those of
 * the AUDIT_ARCH_ARM table, the compat mask's (Seccomp_mask_compat).
 *
 * Its glibc start-up sets the thread pointer with the ARM-private syscall
 * set_tls (0x0f0005), past the AArch32 table: the mask mode gives it bit
 * 1024 + 5 = 1029 of the AUDIT_ARCH_ARM mask, so a mask must allow it for
 * the program to start at all, and /proc/self/status shows it as 1029.
 *
 * Built statically with arm-linux-gnueabihf-gcc by scripts/build-samples
 * (ARCH=arm64 only).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void say(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDOUT_FILENO, s, n);

		if (w <= 0)
			exit(1);
		s += w;
		n -= w;
	}
}

static void say_number(long v)
{
	char buf[24];
	int i = sizeof(buf);

	do {
		buf[--i] = '0' + v % 10;
		v /= 10;
	} while (v && i > 0);
	say(buf + i, sizeof(buf) - i);
}

int main(void)
{
	static char buf[16384];
	size_t len = 0;
	char *line, *end;
	ssize_t n;
	int fd;

	say("status32: AArch32 (arm) pid ", 28);
	say_number(getpid());
	say("\n", 1);
	fd = open("/proc/self/status", O_RDONLY);
	if (fd < 0)
		return 1;
	while (len < sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	for (line = buf; *line; line = end) {
		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		if (!strncmp(line, "Seccomp", 7))
			say(line, end - line);
	}
	return 0;
}
