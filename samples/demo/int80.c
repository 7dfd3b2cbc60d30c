// SPDX-License-Identifier: GPL-2.0
/*
 * int80: a 64-bit program that asks for its pid twice, through the 64-bit
 * syscall instruction and through int $0x80, the gate of the 32-bit (i386)
 * syscall table that a 64-bit program may use too.  A seccomp mask is per
 * syscall table: allowing getpid in the 64-bit table does not allow the
 * i386 getpid (number 20 there), so under mask-exec --allow only the first
 * call succeeds and the second one kills the program with SIGSYS.
 *
 * No libc: its only syscalls are write, getpid and exit_group, which makes
 * its mask short.  Built with gcc -static -nostdlib.
 */
#define NR_WRITE	1
#define NR_GETPID	39
#define NR_EXIT_GROUP	231
#define NR_I386_GETPID	20

static long syscall3(long nr, long a, long b, long c)
{
	long ret;

	asm volatile ("syscall"
		      : "=a" (ret)
		      : "a" (nr), "D" (a), "S" (b), "d" (c)
		      : "rcx", "r11", "memory");
	return ret;
}

static long int80(long nr)
{
	long ret;

	asm volatile ("int $0x80"
		      : "=a" (ret)
		      : "a" (nr)
		      : "r8", "r9", "r10", "r11", "memory");
	return ret;
}

static void say(const char *s)
{
	long n = 0;

	while (s[n])
		n++;
	syscall3(NR_WRITE, 1, (long)s, n);
}

static void say_number(long v)
{
	char buf[24];
	int i = sizeof(buf) - 1;

	buf[i] = '\0';
	buf[--i] = '\n';
	if (v < 0) {
		say("error ");
		v = -v;
	}
	do {
		buf[--i] = '0' + v % 10;
		v /= 10;
	} while (v && i > 0);
	say(buf + i);
}

void int80_main(void);
void int80_main(void)
{
	say("int80: getpid() through syscall (x86_64 table, number 39) = ");
	say_number(syscall3(NR_GETPID, 0, 0, 0));
	say("int80: getpid() through int $0x80 (i386 table, number 20) = ");
	say_number(int80(NR_I386_GETPID));
	syscall3(NR_EXIT_GROUP, 0, 0, 0);
}

asm (".globl _start\n"
     "_start:\n"
     "	xor %ebp, %ebp\n"
     "	and $-16, %rsp\n"
     "	call int80_main\n"
     "	hlt\n");
