// SPDX-License-Identifier: GPL-2.0
/*
 * mask-exec: run a program under a seccomp syscall mask (SECCOMP_MODE_MASK).
 *
 *	mask-exec [--allow LIST] [--allow-compat LIST] [--print [--names]]
 *		  [--] PROG [ARGS...]
 *
 * LIST holds syscall names, numbers and ranges of numbers, separated by
 * commas or white space: "read,write,exit_group,60-62".  Names are resolved
 * with tables generated at build time from the syscall tables of the kernel
 * tree (arch/x86/entry/syscalls/syscall_{64,32}.tbl).  --allow lists the
 * native x86-64 syscalls, --allow-compat the ia32 ones (int $0x80, sysenter,
 * 32-bit syscall); both may be given more than once.  An ABI without a list
 * is denied everything.
 *
 * mask-exec sets no_new_privs, installs the masks of both ABIs with one
 * seccomp(SECCOMP_SET_MODE_MASK) call and executes PROG, found in $PATH
 * before the mask is installed.  The native list must therefore contain
 * execve.  Afterwards mask-exec makes no other syscall, unless execve fails.
 *
 * --print shows the masks in the format of /proc/<pid>/status and exits
 * without installing anything; with --names each allowed syscall is shown
 * by its name instead of its number.
 *
 * Exit status: that of PROG; 125 when mask-exec itself fails (bad usage, an
 * unknown syscall name, the kernel refusing the masks), 126 when PROG cannot
 * be executed and 127 when it is not found, as env(1) does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/seccomp.h>

#include "mask-exec-names.h"

#define ARRAY_SIZE(x)		(sizeof(x) / sizeof(*(x)))
#define EXIT_FAIL		125
#define EXIT_CANNOT_RUN		126
#define EXIT_NOT_FOUND		127
#define MASK_BYTES		(SECCOMP_MASK_MAX_BITS / 8)
#define MAX_NAME		64
#define MAX_SUGGEST		3
#define NR_EXECVE		59

struct abi {
	const char *option;		/* command line option of this ABI */
	const char *name;		/* name of the ABI in messages */
	const char *status;		/* its line in /proc/<pid>/status */
	unsigned int arch;		/* AUDIT_ARCH_* */
	const char * const *names;	/* syscall names by number */
	unsigned int nr_names;
	int given;			/* a list was given */
	unsigned char bits[MASK_BYTES];
};

static struct abi abis[2] = {
	{
		.option = "--allow",
		.name = "x86_64",
		.status = "Seccomp_mask",
		.arch = AUDIT_ARCH_X86_64,
		.names = syscall_names_64,
		.nr_names = ARRAY_SIZE(syscall_names_64),
	},
	{
		.option = "--allow-compat",
		.name = "i386",
		.status = "Seccomp_mask_compat",
		.arch = AUDIT_ARCH_I386,
		.names = syscall_names_32,
		.nr_names = ARRAY_SIZE(syscall_names_32),
	},
};

static void show_help(FILE *f)
{
	fprintf(f,
		"usage: mask-exec [--allow LIST] [--allow-compat LIST] [--print [--names]]\n"
		"                 [--] PROG [ARGS...]\n"
		"Run PROG with only the listed syscalls allowed (seccomp mask mode).\n"
		"LIST: syscall names, numbers and ranges, e.g. read,write,exit_group,60-62\n"
		"  --allow LIST         allowed x86-64 syscalls (must include execve)\n"
		"  --allow-compat LIST  allowed ia32 syscalls (int $0x80); default: none\n"
		"  --print              show the masks as /proc/PID/status would; run nothing\n"
		"  --names              with --print: syscall names instead of numbers\n"
		"Exit status: PROG's; 125 mask-exec failed, 126 PROG not executable,\n"
		"127 PROG not found.\n");
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

	if (nr >= 0) {
		fprintf(stderr,
			"mask-exec: %s: '%s' is not an %s syscall; it is %s syscall %d (use %s)\n",
			abi->option, name, abi->name, other->name, nr, other->option);
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
		if (lo > hi || hi >= SECCOMP_MASK_MAX_BITS) {
			if (dash)
				*dash = '-';
			fprintf(stderr, "mask-exec: %s: '%s': numbers are 0-%d, low to high\n",
				abi->option, item, SECCOMP_MASK_MAX_BITS - 1);
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
	unsigned int n = SECCOMP_MASK_MAX_BITS;

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

static int install(void)
{
	struct seccomp_mask masks[ARRAY_SIZE(abis)];
	struct seccomp_mask_set set = { 0 };
	unsigned int i;

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
	if (!syscall(__NR_seccomp, SECCOMP_SET_MODE_MASK, 0, &set))
		return 0;
	switch (errno) {
	case EINVAL:
		fprintf(stderr,
			"mask-exec: seccomp(SECCOMP_SET_MODE_MASK): %s: the kernel has no mask mode (CONFIG_SECCOMP_MASK), no ia32 ABI, or this process already uses another seccomp mode\n",
			strerror(errno));
		break;
	case EPERM:
		fprintf(stderr,
			"mask-exec: seccomp(SECCOMP_SET_MODE_MASK): %s: a mask may only be narrowed, and this one allows syscalls the current mask denies\n",
			strerror(errno));
		break;
	default:
		perror("mask-exec: seccomp(SECCOMP_SET_MODE_MASK)");
		break;
	}
	return -1;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "allow", required_argument, NULL, 'a' },
		{ "allow-compat", required_argument, NULL, 'c' },
		{ "print", no_argument, NULL, 'p' },
		{ "names", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, errors = 0, print = 0, names = 0, ret;
	char path[PATH_MAX];

	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		switch (opt) {
		case 'a':
			errors += add_list(&abis[0], optarg);
			break;
		case 'c':
			errors += add_list(&abis[1], optarg);
			break;
		case 'p':
			print = 1;
			break;
		case 'n':
			names = 1;
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
		fprintf(stderr, "mask-exec: %d error%s in the syscall lists; nothing executed\n",
			errors, errors > 1 ? "s" : "");
		return EXIT_FAIL;
	}
	if (print) {
		print_mask(&abis[0], names);
		print_mask(&abis[1], names);
		return fflush(stdout) ? EXIT_FAIL : 0;
	}
	if (optind >= argc) {
		show_help(stderr);
		return EXIT_FAIL;
	}
	if (!abis[0].given || !is_set(&abis[0], NR_EXECVE)) {
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
	if (install())
		return EXIT_FAIL;

	execv(path, argv + optind);
	/* Only reported if the mask allows write; else SIGSYS ends us here. */
	ret = errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
	fprintf(stderr, "mask-exec: %s: %s\n", path, strerror(errno));
	return ret;
}
