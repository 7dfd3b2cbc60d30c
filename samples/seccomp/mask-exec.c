// SPDX-License-Identifier: GPL-2.0
/*
 * mask-exec: run a program under a seccomp syscall mask (SECCOMP_MODE_MASK).
 *
 *	mask-exec [--allow LIST] [--allow-compat LIST] [--profile FILE]
 *		  [--action ACTION] [--deny-filter LIST] [--spec-allow]
 *		  [--] PROG [ARGS...]
 *	mask-exec --learn FILE [--deny-filter LIST] [--spec-allow]
 *		  [--] PROG [ARGS...]
 *	mask-exec --print [--names] [--allow LIST] [--allow-compat LIST]
 *		  [--profile FILE] [--action ACTION]
 *	mask-exec --features
 *
 * LIST holds syscall names, numbers and ranges of numbers, separated by
 * commas or white space: "read,write,exit_group,60-62".  Names are resolved
 * with tables generated at build time from the syscall tables of the kernel
 * tree (mask-exec-names.sh).  mask-exec is built for x86-64 and for arm64:
 *
 *  - x86-64: arch/x86/entry/syscalls/syscall_{64,32}.tbl.  --allow lists
 *    the native x86-64 syscalls, --allow-compat the ia32 ones (int $0x80,
 *    sysenter, 32-bit syscall).
 *  - arm64: arch/arm64/tools/syscall_{64,32}.tbl.  --allow lists the
 *    AArch64 syscalls, --allow-compat the AArch32 ones (those an AArch32
 *    program makes; an AArch64 one cannot).  The ARM-private syscalls
 *    0x0f0000 + k (k < 16: breakpoint, cacheflush, usr26, usr32, set_tls,
 *    get_tls, as arch/arm/include/uapi/asm/unistd.h names them) are the
 *    numbers 1024 + k of the AArch32 list, the bits the kernel gives them
 *    in the AUDIT_ARCH_ARM mask, as /proc/<pid>/status shows them (glibc's
 *    AArch32 start-up calls set_tls, 1029).
 *
 * Both options may be given more than once.  An ABI without a list is
 * denied everything.  Numbers are those of the mask's bits: 0-1023, and
 * 0-1039 in the AArch32 list.
 *
 * --profile FILE reads both lists from a profile: one or more LIST items a
 * line, '#' starts a comment, and a line "[i386]" ("[x86_64]") makes the
 * lines after it ia32 (x86-64) ones; the lines before the first such line
 * are x86-64 ones.  On arm64 the sections are "[aarch64]" and "[arm]".  A
 * profile gives both ABIs: one without lines is denied everything.
 *
 * --action says what a denied syscall gets: kill (SECCOMP_RET_KILL_PROCESS,
 * the process dies by SIGSYS), trap (SIGSYS to the thread, which may catch
 * it), errno=N (the call fails with errno N, 1 to 4095) or log (the call runs
 * and is logged).  Without --action the mask kills, and the call is the one
 * of version 1 of the interface (action 0), which every kernel with the mask
 * mode takes.
 *
 * mask-exec sets no_new_privs, installs the masks of both ABIs and the
 * action with one seccomp(SECCOMP_SET_MODE_MASK) call and executes PROG,
 * found in $PATH before the mask is installed.  The native list must
 * therefore contain execve.  Afterwards mask-exec makes no other syscall,
 * unless execve fails.  There is no TSYNC option: mask-exec installs the
 * masks while it has one thread, right before execve, so
 * SECCOMP_MASK_FLAG_TSYNC would change nothing.
 *
 * The call passes a struct seccomp_mask_set of version 3 of the interface
 * (its size first).  A kernel that predates version 3 (it has no
 * SECCOMP_GET_MASK_FEATURES) rejects that layout with EINVAL; mask-exec
 * then makes the call again with the layout of versions 1 and 2, so that
 * it runs on every kernel with the mask mode.
 *
 * --spec-allow passes SECCOMP_MASK_FLAG_SPEC_ALLOW: installing the masks
 * does not force the speculation mitigations (SSBD, STIBP) on PROG that
 * the kernel otherwise forces on a process that enters seccomp when it
 * runs with spec_store_bypass_disable=seccomp or spectre_v2_user=seccomp.
 * The --deny-filter filter is then installed with
 * SECCOMP_FILTER_FLAG_SPEC_ALLOW for the same reason.  Kernels before
 * version 3 have no such flag for masks: the call fails.
 *
 * --deny-filter LIST first installs a BPF filter that allows every syscall
 * but the listed native (x86-64, AArch64) ones, which fail with EPERM: a
 * container runtime's default profile in miniature.  The mask, if any,
 * stacks on it; without a mask list, only the filter is installed.
 *
 * --learn FILE runs PROG and every process it starts under a mask that
 * allows nothing with the log action: every syscall they make runs and is
 * logged as an AUDIT_SECCOMP record.  mask-exec itself stays unmasked,
 * reads the records from the audit netlink socket, as the audit daemon or,
 * when one runs, from the read-log multicast group, and when the last of
 * those processes has ended writes the syscalls they made to FILE as a
 * profile for --profile ("-" for stdout).  The learned processes get an
 * audit session of their own (a write to /proc/self/loginuid); only its
 * records count.  A lost record fails the run: mask-exec compares the
 * kernel's lost counter before and after and watches the socket for
 * overruns.  Needs CAP_AUDIT_CONTROL (or CAP_AUDIT_READ when an audit
 * daemon runs) and "log" in /proc/sys/kernel/seccomp/actions_logged.
 *
 * --print shows the masks and the action in the format of
 * /proc/<pid>/status and exits without installing anything; with --names
 * each allowed syscall is shown by its name instead of its number.
 *
 * --features asks the kernel what its mask mode takes
 * (seccomp(SECCOMP_GET_MASK_FEATURES), which needs no privilege and
 * changes nothing) and prints it, one item a line:
 *
 *	set_size: 24
 *	flags: 0x3 tsync spec_allow
 *	actions: 0xf kill_process trap errno log
 *	abi: x86_64 0xc000003e max_bits 1024
 *	abi: i386 0x40000003 max_bits 1024
 *
 * (on arm64: "abi: aarch64 0xc00000b7 max_bits 1024" and "abi: arm
 * 0x40000028 max_bits 1040", the ARM-private syscalls' bits included)
 *
 * set_size is the size of the kernel's struct seccomp_mask_set, flags the
 * SECCOMP_MASK_FLAG_* values it accepts and actions the actions, each as
 * a number and then by name (a bit without a name as its hexadecimal
 * value), and there is one abi line for each ABI the kernel has a mask
 * for: its name, its AUDIT_ARCH_* value and the largest nbits its mask
 * takes.  A kernel without the query (before version 3 of the interface,
 * or without the mask mode) makes mask-exec say so and exit with 125.
 *
 * Exit status: that of PROG (128 + the signal's number when --learn's PROG
 * is killed); 125 when mask-exec itself fails (bad usage, an unknown
 * syscall name, the kernel refusing the masks, a lost audit record, no
 * feature query), 126 when PROG cannot be executed and 127 when it is not
 * found, as env(1) does; 0 after --print and --features.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/types.h>

/*
 * The uapi of the mask mode comes from the kernel tree's installed
 * headers (usr/include).  Older headers lack it, or have the struct
 * seccomp_mask_set of an earlier version of the interface (no size
 * field): the headers' own structs of the mask mode's set and feature
 * query are renamed out of the way while they are included, and the
 * version 3 layouts, which this program uses, are declared below, with
 * the constants the headers may lack.
 */
#define seccomp_mask_set seccomp_mask_set_installed_header
#define seccomp_mask_arch seccomp_mask_arch_installed_header
#define seccomp_mask_features seccomp_mask_features_installed_header
#include <linux/seccomp.h>
#undef seccomp_mask_set
#undef seccomp_mask_arch
#undef seccomp_mask_features

#ifndef SECCOMP_MODE_MASK
#define SECCOMP_MODE_MASK		3
#define SECCOMP_SET_MODE_MASK		4
#define SECCOMP_MASK_MAX_BITS		1024

struct seccomp_mask {
	__u32 arch;		/* AUDIT_ARCH_* of the table @bits indexes */
	__u32 nbits;		/* 0 .. the arch's maximum */
	__aligned_u64 bits;	/* user address of (nbits + 7) / 8 bytes */
};
#endif

#ifndef SECCOMP_MASK_FLAG_TSYNC
#define SECCOMP_MASK_FLAG_TSYNC		1UL
#endif

#ifndef SECCOMP_GET_MASK_FEATURES
#define SECCOMP_GET_MASK_FEATURES	5
#define SECCOMP_MASK_FLAG_SPEC_ALLOW	2UL
#define SECCOMP_MASK_SET_SIZE_VER0	24
#define SECCOMP_MASK_ACTION_KILL_PROCESS	0x1U
#define SECCOMP_MASK_ACTION_TRAP		0x2U
#define SECCOMP_MASK_ACTION_ERRNO		0x4U
#define SECCOMP_MASK_ACTION_LOG			0x8U
#define SECCOMP_MASK_FEATURES_MAX_ARCHES	4
#define SECCOMP_MASK_FEATURES_SIZE_VER0	56
#endif

struct seccomp_mask_set {
	__u32 size;		/* sizeof(struct seccomp_mask_set) */
	__u32 nr_masks;		/* 1 .. number of ABIs */
	__u32 action;		/* 0: kill the process */
	__u32 __reserved;	/* must be 0 */
	__aligned_u64 masks;	/* user address of nr_masks struct seccomp_mask */
};

struct seccomp_mask_arch {
	__u32 arch;		/* AUDIT_ARCH_* of an ABI the kernel has a mask for */
	__u32 max_bits;		/* the largest nbits that ABI's mask takes */
};

struct seccomp_mask_features {
	__u32 size;		/* in: sizeof; out: bytes the kernel filled */
	__u32 set_size;		/* sizeof(struct seccomp_mask_set) of the kernel */
	__aligned_u64 flags;	/* SECCOMP_MASK_FLAG_* the kernel accepts */
	__u32 actions;		/* SECCOMP_MASK_ACTION_* the kernel accepts */
	__u32 nr_arches;	/* entries filled in @arches */
	struct seccomp_mask_arch arches[SECCOMP_MASK_FEATURES_MAX_ARCHES];
};

/* The struct seccomp_mask_set of versions 1 and 2 of the interface. */
struct seccomp_mask_set_v2 {
	__u32 nr_masks;
	__u32 action;
	__aligned_u64 masks;
};

static_assert(sizeof(struct seccomp_mask_set) == SECCOMP_MASK_SET_SIZE_VER0,
	      "struct seccomp_mask_set: the layout of version 3");
static_assert(sizeof(struct seccomp_mask_features) == SECCOMP_MASK_FEATURES_SIZE_VER0,
	      "struct seccomp_mask_features: the layout of version 3");

#ifndef SECCOMP_FILTER_FLAG_SPEC_ALLOW
#define SECCOMP_FILTER_FLAG_SPEC_ALLOW	4UL
#endif

#include "mask-exec-names.h"

#if defined(__aarch64__) != defined(MASK_EXEC_NAMES_ARM64)
#error "mask-exec-names.h was generated for another architecture (SRCARCH)"
#endif

/*
 * The two ABIs of each architecture: what the options, messages, profile
 * sections and /proc call them, their AUDIT_ARCH_* and their largest mask.
 */
#if defined(__x86_64__)
#define NATIVE_NAME		"x86_64"
#define NATIVE_ARCH		AUDIT_ARCH_X86_64
#define NATIVE_HELP		"x86-64"
#define COMPAT_NAME		"i386"
#define COMPAT_ARCH		AUDIT_ARCH_I386
#define COMPAT_HELP		"ia32 syscalls (int $0x80)"
#define COMPAT_PROFILE_HELP	"ia32"
#define COMPAT_KERNEL		"ia32"
#define COMPAT_MAX_BITS		SECCOMP_MASK_MAX_BITS
#define NR_EXECVE		59
#elif defined(__aarch64__)
#define NATIVE_NAME		"aarch64"
#define NATIVE_ARCH		AUDIT_ARCH_AARCH64
#define NATIVE_HELP		"AArch64"
#define COMPAT_NAME		"arm"
#define COMPAT_ARCH		AUDIT_ARCH_ARM
#define COMPAT_HELP		"AArch32 syscalls"
#define COMPAT_PROFILE_HELP	"AArch32"
#define COMPAT_KERNEL		"AArch32 (CONFIG_COMPAT)"
/*
 * The ARM-private syscalls 0x0f0000 + k, k < 16, are the bits
 * SECCOMP_MASK_MAX_BITS + k of the AUDIT_ARCH_ARM mask.
 */
#define COMPAT_PRIVATE_BASE	0x0f0000
#define COMPAT_PRIVATE_NR	16
#define COMPAT_MAX_BITS		(SECCOMP_MASK_MAX_BITS + COMPAT_PRIVATE_NR)
#define NR_EXECVE		221
#else
#error "mask-exec knows the syscall ABIs of x86-64 and arm64 only"
#endif

#define ARRAY_SIZE(x)		(sizeof(x) / sizeof(*(x)))
#define EXIT_FAIL		125
#define EXIT_CANNOT_RUN		126
#define EXIT_NOT_FOUND		127
/* The compat mask is the longer one, if any. */
#define MASK_BYTES		((COMPAT_MAX_BITS + 7) / 8)
#define MAX_NAME		64
#define MAX_SUGGEST		3
#define ERRNO_MAX		4095
#define WORD_SEP		" \t\n"
#define ACTIONS_LOGGED		"/proc/sys/kernel/seccomp/actions_logged"
#define NL_BUF			16384		/* > the longest audit record */
#define NL_RCVBUF		(8 << 20)	/* bytes of records the socket holds */
#define NL_TIMEOUT_MS		30000		/* for a reply of the kernel */
#define V1_ACTION \
	", or the kernel has only version 1 of the mask mode (no --action, no mask over a filter)"
#define V1_FILTER \
	", or this process has a BPF filter and the kernel only version 1 of the mask mode"

/* SECCOMP_MASK_FLAG_* of the seccomp(SECCOMP_SET_MODE_MASK) call. */
static unsigned long mask_flags;

struct abi {
	const char *option;		/* command line option of this ABI */
	const char *name;		/* name of the ABI in messages */
	const char *status;		/* its line in /proc/<pid>/status */
	const char *section;		/* its section of a profile */
	unsigned int arch;		/* AUDIT_ARCH_* */
	unsigned int max_bits;		/* the largest nbits of its mask */
	const char * const *names;	/* syscall names by number */
	unsigned int nr_names;
	int given;			/* a list was given */
	unsigned char bits[MASK_BYTES];
};

static struct abi abis[2] = {
	{
		.option = "--allow",
		.name = NATIVE_NAME,
		.status = "Seccomp_mask",
		.section = "[" NATIVE_NAME "]",
		.arch = NATIVE_ARCH,
		.max_bits = SECCOMP_MASK_MAX_BITS,
		.names = syscall_names_64,
		.nr_names = ARRAY_SIZE(syscall_names_64),
	},
	{
		.option = "--allow-compat",
		.name = COMPAT_NAME,
		.status = "Seccomp_mask_compat",
		.section = "[" COMPAT_NAME "]",
		.arch = COMPAT_ARCH,
		.max_bits = COMPAT_MAX_BITS,
		.names = syscall_names_32,
		.nr_names = ARRAY_SIZE(syscall_names_32),
	},
};

/* The native syscalls --deny-filter's BPF filter makes fail with EPERM. */
static struct abi deny = {
	.option = "--deny-filter",
	.name = NATIVE_NAME,
	.arch = NATIVE_ARCH,
	.max_bits = SECCOMP_MASK_MAX_BITS,
	.names = syscall_names_64,
	.nr_names = ARRAY_SIZE(syscall_names_64),
};

static_assert(ARRAY_SIZE(syscall_names_64) <= SECCOMP_MASK_MAX_BITS,
	      "a native syscall name past the mask");
static_assert(ARRAY_SIZE(syscall_names_32) <= COMPAT_MAX_BITS,
	      "a compat syscall name past the mask");

static void show_help(FILE *f)
{
	fprintf(f,
		"usage: mask-exec [--allow LIST] [--allow-compat LIST] [--profile FILE]\n"
		"                 [--action ACTION] [--deny-filter LIST] [--spec-allow]\n"
		"                 [--] PROG [ARGS...]\n"
		"       mask-exec --learn FILE [--deny-filter LIST] [--spec-allow]\n"
		"                 [--] PROG [ARGS...]\n"
		"       mask-exec --print [--names] [--allow LIST] [--allow-compat LIST]\n"
		"                 [--profile FILE] [--action ACTION]\n"
		"       mask-exec --features\n"
		"Run PROG with only the listed syscalls allowed (seccomp mask mode).\n"
		"LIST: syscall names, numbers and ranges, e.g. read,write,exit_group,60-62\n"
		"  --allow LIST         allowed " NATIVE_HELP " syscalls (must include execve)\n"
		"  --allow-compat LIST  allowed " COMPAT_HELP "; default: none\n"
#ifdef COMPAT_PRIVATE_BASE
		"                       (1024+k: the ARM-private syscall 0x0f0000+k)\n"
#endif
		"  --profile FILE       allowed syscalls of both ABIs from FILE: LIST items,\n"
		"                       '#' comments; lines after \"[" COMPAT_NAME "]\" are "
		COMPAT_PROFILE_HELP " ones\n"
		"  --action ACTION      what a denied syscall gets: kill (default: the\n"
		"                       process dies by SIGSYS), trap (SIGSYS to the thread),\n"
		"                       errno=N (fails with errno N, 1-4095), log (runs, logged)\n"
		"  --deny-filter LIST   first install a BPF filter failing the listed "
		NATIVE_HELP "\n"
		"                       syscalls with EPERM and allowing the rest; the mask,\n"
		"                       if any, stacks on it\n"
		"  --spec-allow         do not force the speculation mitigations on PROG\n"
		"                       (SECCOMP_MASK_FLAG_SPEC_ALLOW; the filter's too)\n"
		"  --learn FILE         run PROG and its children with every syscall logged,\n"
		"                       read the audit records and write the syscalls they\n"
		"                       made to FILE as a profile (- for stdout); fails if\n"
		"                       an audit record was lost\n"
		"  --print              show the masks as /proc/PID/status would; run nothing\n"
		"  --names              with --print: syscall names instead of numbers\n"
		"  --features           show what the kernel's mask mode takes (flags,\n"
		"                       actions, each ABI and its largest nbits); run nothing\n"
		"Exit status: PROG's (--learn: 128+N if killed by signal N); 125 mask-exec\n"
		"failed, 126 PROG not executable, 127 PROG not found.\n");
}

static int lookup(const struct abi *abi, const char *name)
{
	unsigned int i;

	for (i = 0; i < abi->nr_names; i++)
		if (abi->names[i] && !strcmp(abi->names[i], name))
			return i;
	return -1;
}

/* Levenshtein distance of two short strings. */
static unsigned int distance(const char *a, const char *b)
{
	unsigned int row[MAX_NAME + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la > MAX_NAME || lb > MAX_NAME)
		return UINT_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		unsigned int diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned int up = row[j];
			unsigned int best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* Explain why @name is not a syscall of @abi and suggest the closest names. */
static void unknown_name(const struct abi *abi, const char *name)
{
	const struct abi *other = abi == &abis[0] ? &abis[1] : &abis[0];
	unsigned int best = UINT_MAX, limit, d, i;
	int nr = lookup(other, name), shown = 0;

#ifdef COMPAT_PRIVATE_BASE
	if (nr >= SECCOMP_MASK_MAX_BITS) {
		fprintf(stderr,
			"mask-exec: %s: '%s' is not an %s syscall; it is %s syscall 0x%06x, %d in its mask (use %s)\n",
			abi->option, name, abi->name, other->name,
			COMPAT_PRIVATE_BASE + nr - SECCOMP_MASK_MAX_BITS, nr,
			strncmp(abi->option, "--", 2) ? other->section : other->option);
		return;
	}
#endif
	if (nr >= 0) {
		fprintf(stderr,
			"mask-exec: %s: '%s' is not an %s syscall; it is %s syscall %d (use %s)\n",
			abi->option, name, abi->name, other->name, nr,
			strncmp(abi->option, "--", 2) ? other->section : other->option);
		return;
	}
	fprintf(stderr, "mask-exec: %s: unknown %s syscall '%s'",
		abi->option, abi->name, name);
	/* Only suggest names that share at least half of the typed text. */
	limit = strlen(name) / 2 > 2 ? strlen(name) / 2 : 2;
	for (i = 0; i < abi->nr_names; i++) {
		if (!abi->names[i])
			continue;
		d = distance(name, abi->names[i]);
		if (d < best)
			best = d;
	}
	if (best <= limit) {
		for (i = 0; i < abi->nr_names && shown < MAX_SUGGEST; i++) {
			if (!abi->names[i] || distance(name, abi->names[i]) != best)
				continue;
			fprintf(stderr, "%s%s", shown ? ", " : "; did you mean ",
				abi->names[i]);
			shown++;
		}
		fprintf(stderr, "?");
	}
	fprintf(stderr, "\n");
}

static int parse_number(const char *s, unsigned long *nr)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*nr = strtoul(s, &end, 10);
	if (errno || *end)
		return -1;
	return 0;
}

/* Set the bits of one LIST item; return the number of errors. */
static int add_item(struct abi *abi, char *item)
{
	unsigned long lo, hi, n;
	char *dash;
	int nr;

	if (*item >= '0' && *item <= '9') {
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		if (parse_number(item, &lo) ||
		    (dash && parse_number(dash + 1, &hi))) {
			if (dash)
				*dash = '-';
			fprintf(stderr, "mask-exec: %s: '%s' is not a number or a range\n",
				abi->option, item);
			return 1;
		}
		if (!dash)
			hi = lo;
		if (lo > hi || hi >= abi->max_bits) {
			if (dash)
				*dash = '-';
			fprintf(stderr, "mask-exec: %s: '%s': numbers are 0-%u, low to high\n",
				abi->option, item, abi->max_bits - 1);
			return 1;
		}
	} else {
		nr = lookup(abi, item);
		if (nr < 0) {
			unknown_name(abi, item);
			return 1;
		}
		lo = nr;
		hi = nr;
	}
	for (n = lo; n <= hi; n++)
		abi->bits[n / 8] |= 1U << (n % 8);
	return 0;
}

static int add_list(struct abi *abi, char *list)
{
	char *item, *save = NULL;
	int errors = 0;

	abi->given = 1;
	for (item = strtok_r(list, ", \t\n", &save); item;
	     item = strtok_r(NULL, ", \t\n", &save))
		errors += add_item(abi, item);
	return errors;
}

static int is_set(const struct abi *abi, unsigned int nr)
{
	return abi->bits[nr / 8] & (1U << (nr % 8));
}

static unsigned int nbits(const struct abi *abi)
{
	unsigned int n = abi->max_bits;

	while (n && !is_set(abi, n - 1))
		n--;
	return n;
}

/* One line of /proc/<pid>/status: ranges as the kernel's %*pbl shows them. */
static void print_mask(const struct abi *abi, int names)
{
	unsigned int n = 0, end, i, nr = nbits(abi);
	const char *sep = "";

	printf("%s:\t", abi->status);
	while (n < nr) {
		if (!is_set(abi, n)) {
			n++;
			continue;
		}
		for (end = n; end + 1 < nr && is_set(abi, end + 1); end++)
			;
		if (!names && end > n)
			printf("%s%u-%u", sep, n, end);
		else if (!names)
			printf("%s%u", sep, n);
		for (i = n; names && i <= end; i++, sep = ",") {
			if (i < abi->nr_names && abi->names[i])
				printf("%s%s", sep, abi->names[i]);
			else
				printf("%s%u", sep, i);
		}
		sep = ",";
		n = end + 1;
	}
	printf("\n");
}

/* Find PROG as execvp() would, before the mask forbids looking around. */
static int find_program(const char *prog, char *path, size_t size)
{
	const char *dirs = getenv("PATH");
	struct stat st;
	int found = 0;
	size_t len;

	if (strchr(prog, '/')) {
		if ((size_t)snprintf(path, size, "%s", prog) >= size)
			return EXIT_NOT_FOUND;
		if (stat(path, &st))
			return errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
		return S_ISREG(st.st_mode) && !access(path, X_OK) ? 0 : EXIT_CANNOT_RUN;
	}
	if (!dirs || !*dirs)
		dirs = "/usr/local/bin:/usr/bin:/bin";
	while (*dirs) {
		len = strcspn(dirs, ":");
		if ((size_t)snprintf(path, size, "%.*s%s%s", (int)len, dirs,
				     len ? "/" : "", prog) < size &&
		    !stat(path, &st) && S_ISREG(st.st_mode)) {
			found = 1;
			if (!access(path, X_OK))
				return 0;
		}
		dirs += len + (dirs[len] == ':');
	}
	return found ? EXIT_CANNOT_RUN : EXIT_NOT_FOUND;
}

/* --action: the value of seccomp_mask_set.action; 0 when not given. */
static int parse_action(const char *s, unsigned int *action)
{
	unsigned long e;

	if (!strcmp(s, "kill")) {
		*action = SECCOMP_RET_KILL_PROCESS;
	} else if (!strcmp(s, "trap")) {
		*action = SECCOMP_RET_TRAP;
	} else if (!strcmp(s, "log")) {
		*action = SECCOMP_RET_LOG;
	} else if (!strncmp(s, "errno=", 6) && !parse_number(s + 6, &e) &&
		   e >= 1 && e <= ERRNO_MAX) {
		*action = SECCOMP_RET_ERRNO | e;
	} else {
		fprintf(stderr,
			"mask-exec: --action: '%s' is not kill, trap, errno=N (N 1-%d) or log\n",
			s, ERRNO_MAX);
		return -1;
	}
	return 0;
}

/* The Seccomp_mask_action line of /proc/<pid>/status. */
static void print_action(unsigned int action)
{
	switch (action & SECCOMP_RET_ACTION_FULL) {
	case 0:
	case SECCOMP_RET_KILL_PROCESS:
		printf("Seccomp_mask_action:\tkill_process\n");
		break;
	case SECCOMP_RET_TRAP:
		printf("Seccomp_mask_action:\ttrap\n");
		break;
	case SECCOMP_RET_ERRNO:
		printf("Seccomp_mask_action:\terrno %u\n", action & SECCOMP_RET_DATA);
		break;
	default:
		printf("Seccomp_mask_action:\tlog\n");
		break;
	}
}

/*
 * --profile: LIST items by line, '#' comments, [x86_64] and [i386] sections
 * ([aarch64] and [arm] on arm64).
 */
static int read_profile(const char *file)
{
	struct abi *abi = &abis[0];
	char line[4096], where[PATH_MAX + 16], *s, *end;
	int errors = 0, nr = 0;
	unsigned int i;
	FILE *f;

	f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "mask-exec: --profile %s: %s\n", file, strerror(errno));
		return 1;
	}
	abis[0].given = 1;
	abis[1].given = 1;
	while (fgets(line, sizeof(line), f)) {
		nr++;
		if (!strchr(line, '\n') && !feof(f)) {
			fprintf(stderr, "mask-exec: %s:%d: line too long\n", file, nr);
			errors++;
			break;
		}
		s = strchr(line, '#');
		if (s)
			*s = '\0';
		s = line + strspn(line, " \t\r\n");
		for (end = s + strlen(s); end > s && strchr(" \t\r\n", end[-1]); end--)
			;
		*end = '\0';
		if (*s != '[') {
			snprintf(where, sizeof(where), "%s:%d", file, nr);
			abis[0].option = where;
			abis[1].option = where;
			errors += add_list(abi, s);
			abis[0].option = "--allow";
			abis[1].option = "--allow-compat";
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(abis); i++)
			if (!strcmp(s, abis[i].section))
				break;
		if (i == ARRAY_SIZE(abis)) {
			fprintf(stderr, "mask-exec: %s:%d: '%s' is not %s or %s\n",
				file, nr, s, abis[0].section, abis[1].section);
			errors++;
			continue;
		}
		abi = &abis[i];
	}
	if (ferror(f)) {
		fprintf(stderr, "mask-exec: --profile %s: read error\n", file);
		errors++;
	}
	fclose(f);
	return errors;
}

/*
 * --deny-filter: a BPF filter that returns ERRNO(EPERM) for the listed
 * native syscalls and ALLOW for everything else, other ABIs included.
 */
static int install_deny_filter(void)
{
	struct sock_filter insns[4 + 2 * SECCOMP_MASK_MAX_BITS + 1];
	struct sock_fprog prog = { .filter = insns };
	unsigned int n = 0, nr, max = nbits(&deny);

	insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						  offsetof(struct seccomp_data, arch));
	insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						  deny.arch, 1, 0);
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						  offsetof(struct seccomp_data, nr));
	for (nr = 0; nr < max; nr++) {
		if (!is_set(&deny, nr))
			continue;
		insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1);
		insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
							  SECCOMP_RET_ERRNO | EPERM);
	}
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = n;
	if (mask_flags & SECCOMP_MASK_FLAG_SPEC_ALLOW) {
		if (!syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
			     SECCOMP_FILTER_FLAG_SPEC_ALLOW, &prog))
			return 0;
		perror("mask-exec: --deny-filter --spec-allow: seccomp(SECCOMP_SET_MODE_FILTER)");
		return -1;
	}
	if (!prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
		return 0;
	perror("mask-exec: --deny-filter: prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER)");
	return -1;
}

/*
 * seccomp(SECCOMP_GET_MASK_FEATURES) into @f; 0 or -1 with errno set
 * (EINVAL: a kernel before version 3 of the interface, or without the
 * mask mode).
 */
static int get_features(struct seccomp_mask_features *f)
{
	memset(f, 0, sizeof(*f));
	f->size = sizeof(*f);
	return syscall(__NR_seccomp, SECCOMP_GET_MASK_FEATURES, 0, f) ? -1 : 0;
}

/* " name" for each bit of @bits that has one, else " 0xBIT". */
static void print_bits(unsigned long long bits, const char * const *names,
		       unsigned int nr_names)
{
	unsigned int i;

	for (i = 0; i < 64; i++) {
		if (!(bits & (1ULL << i)))
			continue;
		if (i < nr_names)
			printf(" %s", names[i]);
		else
			printf(" 0x%llx", 1ULL << i);
	}
}

static const char *arch_name(unsigned int arch)
{
	switch (arch) {
	case AUDIT_ARCH_X86_64:
		return "x86_64";
	case AUDIT_ARCH_I386:
		return "i386";
	case AUDIT_ARCH_AARCH64:
		return "aarch64";
	case AUDIT_ARCH_ARM:
		return "arm";
	default:
		return NULL;
	}
}

/* --features: what this kernel's mask mode takes, one item a line. */
static int show_features(void)
{
	static const char * const flag_names[] = { "tsync", "spec_allow" };
	static const char * const action_names[] = {
		"kill_process", "trap", "errno", "log",
	};
	struct seccomp_mask_features f;
	unsigned int i, nr;
	const char *name;

	if (get_features(&f)) {
		if (errno == EINVAL) {
			fprintf(stderr,
				"mask-exec: no feature query (kernel before contract version 3)\n");
			return EXIT_FAIL;
		}
		perror("mask-exec: --features: seccomp(SECCOMP_GET_MASK_FEATURES)");
		return EXIT_FAIL;
	}
	printf("set_size: %u\n", f.set_size);
	printf("flags: 0x%llx", (unsigned long long)f.flags);
	print_bits(f.flags, flag_names, ARRAY_SIZE(flag_names));
	printf("\nactions: 0x%x", f.actions);
	print_bits(f.actions, action_names, ARRAY_SIZE(action_names));
	printf("\n");
	/* Only the entries the kernel filled, of those this struct has. */
	nr = f.nr_arches;
	if (nr > SECCOMP_MASK_FEATURES_MAX_ARCHES)
		nr = SECCOMP_MASK_FEATURES_MAX_ARCHES;
	for (i = 0; i < nr; i++) {
		if (f.size < offsetof(struct seccomp_mask_features, arches) +
			     (i + 1) * sizeof(f.arches[0]))
			break;
		name = arch_name(f.arches[i].arch);
		if (name)
			printf("abi: %s 0x%08x max_bits %u\n", name,
			       f.arches[i].arch, f.arches[i].max_bits);
		else
			printf("abi: 0x%08x 0x%08x max_bits %u\n", f.arches[i].arch,
			       f.arches[i].arch, f.arches[i].max_bits);
	}
	return fflush(stdout) ? EXIT_FAIL : 0;
}

/*
 * no_new_privs, the --deny-filter filter if asked for, then the masks:
 * the set of version 3, or on a kernel before version 3 (no feature
 * query) the one of versions 1 and 2.
 */
static int install(unsigned int action)
{
	struct seccomp_mask masks[ARRAY_SIZE(abis)];
	struct seccomp_mask_set set = { .size = sizeof(set), .action = action };
	struct seccomp_mask_set_v2 old_set;
	struct seccomp_mask_features f;
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(abis); i++) {
		if (!abis[i].given)
			continue;
		masks[set.nr_masks].arch = abis[i].arch;
		masks[set.nr_masks].nbits = nbits(&abis[i]);
		masks[set.nr_masks].bits = (uintptr_t)abis[i].bits;
		set.nr_masks++;
	}
	set.masks = (uintptr_t)masks;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		perror("mask-exec: prctl(PR_SET_NO_NEW_PRIVS)");
		return -1;
	}
	if (deny.given && install_deny_filter())
		return -1;
	if (!set.nr_masks || !syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK, mask_flags, &set))
		return 0;
	err = errno;
	if (err == EINVAL && get_features(&f) && errno == EINVAL) {
		/* A kernel before version 3: a set without size or reserved. */
		if (mask_flags & SECCOMP_MASK_FLAG_SPEC_ALLOW) {
			fprintf(stderr,
				"mask-exec: --spec-allow: the kernel has no SECCOMP_MASK_FLAG_SPEC_ALLOW (no mask mode, or one before version 3)\n");
			return -1;
		}
		old_set = (struct seccomp_mask_set_v2){
			.nr_masks = set.nr_masks,
			.action = set.action,
			.masks = set.masks,
		};
		if (!syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK, 0, &old_set))
			return 0;
		err = errno;
	}
	errno = err;
	switch (errno) {
	case EINVAL:
		fprintf(stderr,
			"mask-exec: seccomp(SECCOMP_SET_MODE_MASK): %s: the kernel has no mask mode (CONFIG_SECCOMP_MASK), no %s ABI, or this process uses strict mode%s\n",
			strerror(errno), COMPAT_KERNEL,
			action || deny.given ? V1_ACTION : V1_FILTER);
		break;
	case EPERM:
		fprintf(stderr,
			"mask-exec: seccomp(SECCOMP_SET_MODE_MASK): %s: a mask may only be narrowed and its action not weakened, and this one allows syscalls the current mask denies or has a weaker action\n",
			strerror(errno));
		break;
	default:
		perror("mask-exec: seccomp(SECCOMP_SET_MODE_MASK)");
		break;
	}
	return -1;
}

/* --learn: the audit netlink socket and what came from it. */
struct learn {
	int fd;
	int daemon;			/* registered as the audit daemon */
	unsigned int seq;		/* of the last request */
	int acked, ack_error;		/* its NLMSG_ERROR answer */
	int got_status;			/* its AUDIT_GET answer */
	struct audit_status status;
	unsigned int session;		/* the audit session of the learned tree */
	pid_t sentinel;			/* its record is the last one we wait for */
	int sentinel_seen;
	unsigned long records;		/* AUDIT_SECCOMP records of the session */
	unsigned long not_log;		/* of them, with another action than log */
	unsigned long x32;		/* of them, x32 or out of range syscalls */
	unsigned long overruns;		/* ENOBUFS or a truncated record */
	unsigned char bits[ARRAY_SIZE(abis)][MASK_BYTES];
};

/* The value of " KEY=" in an audit record. */
static int field(const char *text, const char *key, int base, long long *val)
{
	const char *p = strstr(text, key);
	char *end;

	if (!p)
		return -1;
	errno = 0;
	*val = strtoll(p + strlen(key), &end, base);
	return errno || end == p + strlen(key) ? -1 : 0;
}

/*
 * The bit of syscall @nr of @abi in its mask, or -1 when no mask can
 * allow it: x32 and negative numbers, those past the mask, and on arm64
 * every AArch32 number from SECCOMP_MASK_MAX_BITS on but the ARM-private
 * 0x0f0000 + k, which is bit SECCOMP_MASK_MAX_BITS + k.
 */
static int syscall_bit(const struct abi *abi, long long nr)
{
#ifdef COMPAT_PRIVATE_BASE
	if (abi == &abis[1] && nr >= SECCOMP_MASK_MAX_BITS) {
		if (nr < COMPAT_PRIVATE_BASE ||
		    nr >= COMPAT_PRIVATE_BASE + COMPAT_PRIVATE_NR)
			return -1;
		return SECCOMP_MASK_MAX_BITS + nr - COMPAT_PRIVATE_BASE;
	}
#endif
	if (nr < 0 || nr >= abi->max_bits)
		return -1;
	return nr;
}

static void learn_record(struct learn *l, char *text)
{
	long long ses, pid, arch, nr, code;
	unsigned int i;
	int bit;

	if (field(text, " ses=", 10, &ses) || field(text, " pid=", 10, &pid) ||
	    field(text, " arch=", 16, &arch) || field(text, " syscall=", 10, &nr) ||
	    field(text, " code=", 16, &code))
		return;
	if (pid == l->sentinel)
		l->sentinel_seen = 1;
	if (ses != l->session)
		return;
	l->records++;
	if (code != SECCOMP_RET_LOG)
		l->not_log++;
	for (i = 0; i < ARRAY_SIZE(abis); i++)
		if (arch == abis[i].arch)
			break;
	bit = i < ARRAY_SIZE(abis) ? syscall_bit(&abis[i], nr) : -1;
	if (bit < 0) {
		if (!l->x32++)
			fprintf(stderr,
				"mask-exec: --learn: no mask can allow arch %llx syscall %lld\n",
				arch, nr);
		return;
	}
	l->bits[i][bit / 8] |= 1U << (bit % 8);
}

/*
 * Receive one datagram: an audit record (each comes alone; as sent to the
 * audit daemon its nlmsg_len leaves out the header, so the datagram's length
 * counts), a reply to a request or an acknowledgment.  Returns 0 on
 * timeout (no waiting with @timeout_ms < 0: nothing to read), -1 on error.
 */
static int learn_recv(struct learn *l, int timeout_ms)
{
	static char buf[NL_BUF + 1];
	struct sockaddr_nl from;
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct iovec iov = { buf, NL_BUF };
	struct msghdr msg = {
		.msg_name = &from, .msg_namelen = sizeof(from),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	struct pollfd pfd = { l->fd, POLLIN, 0 };
	struct nlmsgerr *err;
	ssize_t n;

	if (timeout_ms >= 0) {
		n = poll(&pfd, 1, timeout_ms);
		if (n < 0)
			return errno == EINTR ? 1 : -1;
		if (!n)
			return 0;
	}
	n = recvmsg(l->fd, &msg, MSG_DONTWAIT);
	if (n < 0 && errno == ENOBUFS) {
		l->overruns++;
		return 1;
	}
	if (n < 0)
		return errno != EAGAIN && errno != EINTR ? -1 : timeout_ms >= 0;
	if (msg.msg_flags & MSG_TRUNC)
		l->overruns++;
	if ((size_t)n < NLMSG_HDRLEN || from.nl_pid || (msg.msg_flags & MSG_TRUNC))
		return 1;
	buf[n] = '\0';
	switch (nlh->nlmsg_type) {
	case AUDIT_SECCOMP:
		learn_record(l, buf + NLMSG_HDRLEN);
		break;
	case NLMSG_ERROR:
		err = NLMSG_DATA(nlh);
		if ((size_t)n >= NLMSG_HDRLEN + sizeof(*err) && err->msg.nlmsg_seq == l->seq) {
			l->acked = 1;
			l->ack_error = err->error;
		}
		break;
	case AUDIT_GET:
		if ((size_t)n >= NLMSG_HDRLEN + offsetof(struct audit_status, version) &&
		    nlh->nlmsg_seq == l->seq) {
			memset(&l->status, 0, sizeof(l->status));
			memcpy(&l->status, NLMSG_DATA(nlh),
			       (size_t)n - NLMSG_HDRLEN < sizeof(l->status) ?
			       (size_t)n - NLMSG_HDRLEN : sizeof(l->status));
			l->got_status = 1;
		}
		break;
	}
	return 1;
}

/* Send an audit request and wait for its answer; returns 0 or -errno. */
static int learn_request(struct learn *l, int type, const void *data, size_t len)
{
	struct {
		struct nlmsghdr nlh;
		struct audit_status s;
	} req = { 0 };
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct timespec t0, t;
	int waited;

	req.nlh.nlmsg_len = NLMSG_LENGTH(len);
	req.nlh.nlmsg_type = type;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.nlh.nlmsg_seq = ++l->seq;
	memcpy(&req.s, data, len);
	l->acked = 0;
	l->got_status = 0;
	if (sendto(l->fd, &req, req.nlh.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!l->acked || (type == AUDIT_GET && !l->ack_error && !l->got_status)) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		waited = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
		if (waited > NL_TIMEOUT_MS)
			return -ETIMEDOUT;
		if (learn_recv(l, NL_TIMEOUT_MS - waited) < 0)
			return -errno;
	}
	return l->ack_error;
}

static int learn_status(struct learn *l)
{
	int e = learn_request(l, AUDIT_GET, NULL, 0);

	if (e)
		fprintf(stderr, "mask-exec: --learn: AUDIT_GET: %s\n", strerror(-e));
	return e ? -1 : 0;
}

/* Register as the audit daemon, or listen to the read-log multicast group. */
static int learn_open(struct learn *l)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
	struct audit_status s = { .mask = AUDIT_STATUS_PID, .pid = getpid() };
	int size = NL_RCVBUF, group = AUDIT_NLGRP_READLOG, e;

	l->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (l->fd < 0) {
		fprintf(stderr,
			"mask-exec: --learn: audit netlink socket: %s (a kernel without CONFIG_AUDIT, or booted with audit=0?)\n",
			strerror(errno));
		return -1;
	}
	if (setsockopt(l->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(l->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(l->fd, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("mask-exec: --learn: bind");
		return -1;
	}
	e = learn_request(l, AUDIT_SET, &s, sizeof(s));
	if (!e) {
		l->daemon = 1;
		return 0;
	}
	if (e != -EEXIST) {
		fprintf(stderr,
			"mask-exec: --learn: registering as the audit daemon: %s (needs CAP_AUDIT_CONTROL)\n",
			strerror(-e));
		return -1;
	}
	/* An audit daemon runs: read its records as they are multicast. */
	fprintf(stderr,
		"mask-exec: --learn: an audit daemon runs: reading the read-log multicast group\n");
	if (setsockopt(l->fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group))) {
		fprintf(stderr,
			"mask-exec: --learn: an audit daemon runs, and joining the read-log group failed: %s (needs CAP_AUDIT_READ)\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

static void learn_close(struct learn *l)
{
	struct audit_status s = { .mask = AUDIT_STATUS_PID, .pid = 0 };

	if (l->daemon && learn_request(l, AUDIT_SET, &s, sizeof(s)))
		fprintf(stderr, "mask-exec: --learn: could not unregister as the audit daemon\n");
	close(l->fd);
}

/* "log" must be among the actions the kernel logs. */
static int check_actions_logged(void)
{
	char buf[256], *w, *save = NULL;
	FILE *f = fopen(ACTIONS_LOGGED, "r");

	if (!f || !fgets(buf, sizeof(buf), f)) {
		fprintf(stderr, "mask-exec: --learn: %s: %s\n", ACTIONS_LOGGED,
			f ? "empty" : strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	for (w = strtok_r(buf, WORD_SEP, &save); w; w = strtok_r(NULL, WORD_SEP, &save))
		if (!strcmp(w, "log"))
			return 0;
	fprintf(stderr,
		"mask-exec: --learn: %s lacks \"log\": the kernel would not log the syscalls\n",
		ACTIONS_LOGGED);
	return -1;
}

/* In a child: a new audit session, so that its records can be told apart. */
static int new_session(unsigned int *session)
{
	char buf[32];
	unsigned long uid;
	int fd, n;

	fd = open("/proc/self/loginuid", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	uid = strtoul(buf, NULL, 10);
	if (n <= 0 || uid == (unsigned int)-1)
		uid = getuid();
	n = snprintf(buf, sizeof(buf), "%lu", uid);
	if (lseek(fd, 0, SEEK_SET) || write(fd, buf, n) != n) {
		close(fd);
		return -1;
	}
	close(fd);
	fd = open("/proc/self/sessionid", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	*session = strtoul(buf, NULL, 10);
	return 0;
}

/* The mask --learn puts on its children: nothing allowed, every call logged. */
static int install_log_mask(void)
{
	abis[0].given = 1;
	abis[1].given = 1;
	memset(abis[0].bits, 0, sizeof(abis[0].bits));
	memset(abis[1].bits, 0, sizeof(abis[1].bits));
	return install(SECCOMP_RET_LOG);
}

static void write_profile(FILE *f, struct learn *l, char **argv)
{
	struct utsname u;
	unsigned int i, nr;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	fprintf(f, "# mask-exec profile learned by mask-exec --learn of:\n#  ");
	for (; *argv; argv++)
		fprintf(f, " %s", *argv);
	fprintf(f, "\n# learned: Linux %s, %lu audit records, 0 lost\n", u.release, l->records);
	for (i = 0; i < ARRAY_SIZE(abis); i++) {
		fprintf(f, "%s\n", abis[i].section);
		for (nr = 0; nr < abis[i].max_bits; nr++) {
			if (!(l->bits[i][nr / 8] & (1U << (nr % 8))))
				continue;
			if (nr < abis[i].nr_names && abis[i].names[nr])
				fprintf(f, "%s\n", abis[i].names[nr]);
			else
				fprintf(f, "%u\n", nr);
		}
	}
}

/* Reap every child that has ended; the status of @child goes to @status. */
static int reap(pid_t child, int *status)
{
	pid_t pid;
	int s;

	while ((pid = waitpid(-1, &s, WNOHANG)) > 0)
		if (pid == child)
			*status = WIFEXITED(s) ? WEXITSTATUS(s) : 128 + WTERMSIG(s);
	return pid < 0 && errno == ECHILD ? 1 : 0;
}

static int learn_run(const char *file, const char *path, char **argv)
{
	static struct learn l;
	sigset_t chld, old;
	int sfd = -1, pipefd[2], status = EXIT_FAIL, done = 0, lost, r = 0, ret = EXIT_FAIL;
	unsigned int lost_before;
	struct pollfd pfd[2];
	pid_t child;
	FILE *out;

	if (check_actions_logged() || learn_open(&l))
		return EXIT_FAIL;
	if (learn_status(&l))
		goto out;
	lost_before = l.status.lost;
	/* Orphaned grandchildren become our children: all are waited for. */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (!prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) &&
	    !sigprocmask(SIG_BLOCK, &chld, &old))
		sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0 || pipe2(pipefd, O_CLOEXEC)) {
		perror("mask-exec: --learn");
		goto out;
	}
	child = fork();
	if (child < 0) {
		perror("mask-exec: --learn: fork");
		goto out;
	}
	if (!child) {
		close(l.fd);
		close(pipefd[0]);
		if (new_session(&l.session)) {
			perror("mask-exec: --learn: a new audit session (/proc/self/loginuid)");
			_exit(EXIT_FAIL);
		}
		if (write(pipefd[1], &l.session, sizeof(l.session)) != sizeof(l.session))
			_exit(EXIT_FAIL);
		close(pipefd[1]);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (install_log_mask())
			_exit(EXIT_FAIL);
		execv(path, argv);
		fprintf(stderr, "mask-exec: %s: %s\n", path, strerror(errno));
		_exit(errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &l.session, sizeof(l.session)) != sizeof(l.session)) {
		/* The child failed before its mask and said why. */
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
		goto out;
	}
	close(pipefd[0]);

	/* Collect records until the child and all its descendants are gone. */
	pfd[0] = (struct pollfd){ l.fd, POLLIN, 0 };
	pfd[1] = (struct pollfd){ sfd, POLLIN, 0 };
	while (!done) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR) {
			perror("mask-exec: --learn: poll");
			goto out;
		}
		while (pfd[0].revents && (r = learn_recv(&l, -1)) > 0)
			;
		if (r < 0) {
			perror("mask-exec: --learn: recvmsg");
			goto out;
		}
		if (pfd[1].revents) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) > 0)
				;
			done = reap(child, &status);
		}
	}

	/*
	 * Every record of the tree is queued by now.  A last masked process
	 * of our own makes one more; when it arrives, the queue has been
	 * delivered up to there.
	 */
	l.sentinel = fork();
	if (l.sentinel < 0) {
		perror("mask-exec: --learn: fork");
		goto out;
	}
	if (!l.sentinel) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		_exit(install_log_mask() ? 1 : 0);
	}
	while (!l.sentinel_seen) {
		r = learn_recv(&l, NL_TIMEOUT_MS);
		if (r < 0) {
			perror("mask-exec: --learn: recvmsg");
			goto out;
		}
		if (!r) {
			fprintf(stderr,
				"mask-exec: --learn: no audit record of a logged syscall within %d s (a kernel without CONFIG_AUDITSYSCALL or without the log action?)\n",
				NL_TIMEOUT_MS / 1000);
			goto out;
		}
	}
	while (waitpid(l.sentinel, NULL, 0) < 0 && errno == EINTR)
		;
	if (learn_status(&l))
		goto out;
	lost = l.status.lost - lost_before;
	if (l.daemon && l.status.pid != (unsigned int)getpid()) {
		fprintf(stderr,
			"mask-exec: --learn: another process became the audit daemon meanwhile: records may be lost\n");
		goto out;
	}
	if (lost || l.overruns) {
		fprintf(stderr,
			"mask-exec: --learn: %d audit records lost by the kernel, %lu overruns of the socket: no profile written\n",
			lost, l.overruns);
		goto out;
	}
	if (!l.records || l.not_log) {
		fprintf(stderr,
			"mask-exec: --learn: %lu records of the learned processes, %lu of them not of the log action: no profile written\n",
			l.records, l.not_log);
		goto out;
	}
	fprintf(stderr, "mask-exec: --learn: %lu audit records, 0 lost\n", l.records);
	out = strcmp(file, "-") ? fopen(file, "w") : stdout;
	if (!out) {
		fprintf(stderr, "mask-exec: --learn %s: %s\n", file, strerror(errno));
		goto out;
	}
	write_profile(out, &l, argv);
	if (fflush(out) || ferror(out) || (out != stdout && fclose(out))) {
		fprintf(stderr, "mask-exec: --learn %s: write error\n", file);
		goto out;
	}
	ret = status;
out:
	learn_close(&l);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "allow", required_argument, NULL, 'a' },
		{ "allow-compat", required_argument, NULL, 'c' },
		{ "profile", required_argument, NULL, 'f' },
		{ "action", required_argument, NULL, 'A' },
		{ "deny-filter", required_argument, NULL, 'd' },
		{ "learn", required_argument, NULL, 'l' },
		{ "print", no_argument, NULL, 'p' },
		{ "names", no_argument, NULL, 'n' },
		{ "spec-allow", no_argument, NULL, 'S' },
		{ "features", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, errors = 0, print = 0, names = 0, features = 0, others = 0, ret;
	const char *learn_file = NULL;
	unsigned int action = 0;
	char path[PATH_MAX];

	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		others += opt != 'F';
		switch (opt) {
		case 'a':
			errors += add_list(&abis[0], optarg);
			break;
		case 'c':
			errors += add_list(&abis[1], optarg);
			break;
		case 'f':
			errors += read_profile(optarg);
			break;
		case 'A':
			errors += !!parse_action(optarg, &action);
			break;
		case 'd':
			errors += add_list(&deny, optarg);
			break;
		case 'l':
			learn_file = optarg;
			break;
		case 'p':
			print = 1;
			break;
		case 'n':
			names = 1;
			break;
		case 'S':
			mask_flags |= SECCOMP_MASK_FLAG_SPEC_ALLOW;
			break;
		case 'F':
			features = 1;
			break;
		case 'h':
			show_help(stdout);
			return 0;
		default:
			show_help(stderr);
			return EXIT_FAIL;
		}
	}
	if (errors) {
		fprintf(stderr, "mask-exec: %d error%s in the arguments; nothing executed\n",
			errors, errors > 1 ? "s" : "");
		return EXIT_FAIL;
	}
	if (features) {
		if (others || optind < argc) {
			fprintf(stderr,
				"mask-exec: --features takes no other option and no program\n");
			return EXIT_FAIL;
		}
		return show_features();
	}
	if (learn_file && (print || action || abis[0].given || abis[1].given)) {
		fprintf(stderr,
			"mask-exec: --learn makes its own mask: no --print, --action, --allow, --allow-compat or --profile with it\n");
		return EXIT_FAIL;
	}
	if (print) {
		print_mask(&abis[0], names);
		print_mask(&abis[1], names);
		print_action(action);
		return fflush(stdout) ? EXIT_FAIL : 0;
	}
	if (optind >= argc) {
		show_help(stderr);
		return EXIT_FAIL;
	}
	if (!learn_file && (abis[0].given || abis[1].given || !deny.given) &&
	    !is_set(&abis[0], NR_EXECVE)) {
		fprintf(stderr,
			"mask-exec: %s must include execve (%d): %s could not be started under the mask\n",
			abis[0].option, NR_EXECVE, argv[optind]);
		return EXIT_FAIL;
	}
	ret = find_program(argv[optind], path, sizeof(path));
	if (ret) {
		fprintf(stderr, "mask-exec: %s: %s\n", argv[optind],
			ret == EXIT_NOT_FOUND ? "not found" : "not executable");
		return ret;
	}
	if (learn_file)
		return learn_run(learn_file, path, argv + optind);
	if (install(action))
		return EXIT_FAIL;

	execv(path, argv + optind);
	/* Only reported if the mask allows write; else SIGSYS ends us here. */
	ret = errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
	fprintf(stderr, "mask-exec: %s: %s\n", path, strerror(errno));
	return ret;
}
