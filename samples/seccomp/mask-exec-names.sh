#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Generate the syscall name tables of mask-exec from the kernel's own
# syscall tables, so that the names always match the kernel being built.
# The C header is written to stdout.  $SRCARCH (as kbuild exports it)
# chooses the architecture, x86 when unset:
#
#   mask-exec-names.sh syscall_64.tbl syscall_32.tbl
#	x86: arch/x86/entry/syscalls/syscall_{64,32}.tbl.  The x86-64
#	table keeps the "common" and "64" entries (x32 numbers carry bit 30
#	and lie outside every mask); the i386 table keeps every entry.
#
#   SRCARCH=arm64 mask-exec-names.sh syscall_64.tbl syscall_32.tbl unistd.h
#	arm64: arch/arm64/tools/syscall_{64,32}.tbl and
#	arch/arm/include/uapi/asm/unistd.h.  The AArch64 table keeps the
#	ABIs arch/arm64/kernel/Makefile.syscalls builds it with ("common",
#	"64", "renameat", "rlimit", "memfd_secret"); the AArch32 table keeps
#	every entry ("common"), and gets the ARM-private syscalls
#	__ARM_NR_BASE + k of unistd.h (breakpoint, cacheflush, ..., set_tls)
#	as the numbers 1024 + k (SECCOMP_MASK_MAX_BITS + k): the bits the
#	mask mode gives them in the AUDIT_ARCH_ARM mask.  The header then
#	defines MASK_EXEC_NAMES_ARM64.

set -e

case ${SRCARCH:-x86} in
x86)
	if [ $# -ne 2 ]; then
		echo "usage: $0 syscall_64.tbl syscall_32.tbl" >&2
		exit 1
	fi
	;;
arm64)
	if [ $# -ne 3 ]; then
		echo "usage: SRCARCH=arm64 $0 syscall_64.tbl syscall_32.tbl unistd.h" >&2
		exit 1
	fi
	;;
*)
	echo "$0: SRCARCH=$SRCARCH: mask-exec knows the syscall tables of x86 and arm64 only" >&2
	exit 1
	;;
esac

# table FILE VAR ABIS [EXTRA]: the entries of the ABIS of FILE, and the
# lines of EXTRA ("NUMBER NAME") after them.
table() {
	awk -v var="$2" -v abis="$3" -v extra="$4" '
	BEGIN {
		n = split(abis, a, ",")
		for (i = 1; i <= n; i++)
			want[a[i]] = 1
		printf "static const char * const %s[] = {\n", var
	}
	/^[ \t]*#/ || NF < 3 { next }
	want[$2] { printf "\t[%d] = \"%s\",\n", $1, $3; names++ }
	END {
		if (!names) {
			printf "mask-exec-names.sh: no %s entries in %s\n",
				abis, FILENAME > "/dev/stderr"
			exit 1
		}
		if (extra != "") {
			n = split(extra, e, "\n")
			for (i = 1; i <= n; i++) {
				split(e[i], f, " ")
				printf "\t[%d] = \"%s\",\n", f[1], f[2]
			}
		}
		print "};"
	}' "$1"
}

if [ "${SRCARCH:-x86}" = x86 ]; then
	echo "/* Generated from the kernel's x86 syscall tables; do not edit. */"
	echo
	table "$1" syscall_names_64 common,64
	echo
	table "$2" syscall_names_32 i386
	exit 0
fi

# "#define __ARM_NR_name (__ARM_NR_BASE+k)" -> "1024+k name"
private=$(sed -n -E \
	's/^#define[ \t]+__ARM_NR_([a-z0-9_]+)[ \t]+\(__ARM_NR_BASE ?\+ ?([0-9]+)\).*/\2 \1/p' \
	"$3" | awk '$1 < 16 { print 1024 + $1, $2 }')
if [ -z "$private" ]; then
	echo "mask-exec-names.sh: no __ARM_NR_BASE+k syscalls in $3" >&2
	exit 1
fi
echo "/* Generated from the kernel's arm64 syscall tables; do not edit. */"
echo
echo "#define MASK_EXEC_NAMES_ARM64 1"
echo
table "$1" syscall_names_64 common,64,renameat,rlimit,memfd_secret
echo
echo "/* AArch32; the ARM-private syscall 0x0f0000 + k is number 1024 + k. */"
table "$2" syscall_names_32 common "$private"
