#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Generate the syscall name tables of mask-exec from the kernel's own x86
# syscall tables, so that the names always match the kernel being built.
# Arguments: the x86-64 and the i386 syscall table (syscall_64.tbl and
# syscall_32.tbl); the C header is written to stdout.
#
# The x86-64 table keeps the "common" and "64" entries (x32 numbers carry
# bit 30 and lie outside every mask); the i386 table keeps every entry.

set -e

if [ $# -ne 2 ]; then
	echo "usage: $0 syscall_64.tbl syscall_32.tbl" >&2
	exit 1
fi

table() {
	awk -v var="$2" -v abis="$3" '
	BEGIN {
		n = split(abis, a, ",")
		for (i = 1; i <= n; i++)
			want[a[i]] = 1
		printf "static const char * const %s[] = {\n", var
	}
	/^[ \t]*#/ || NF < 3 { next }
	want[$2] { printf "\t[%d] = \"%s\",\n", $1, $3 }
	END { print "};" }' "$1"
}

echo "/* Generated from the kernel's x86 syscall tables; do not edit. */"
echo
table "$1" syscall_names_64 common,64
echo
table "$2" syscall_names_32 i386
