#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The `make run` demo of the seccomp mask mode (the guest's /demo.sh).
# Needs /usr/bin/mask-exec, /usr/bin/int80 and /profiles/cat.profile; on
# arm64 /usr/bin/status32 (a static AArch32 program) instead of int80.

# A profile as a mask-exec LIST: its syscall names, without comments.
profile() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "/profiles/$1.profile" | tr -s ' \n' ','; }
without() { echo "$1" | tr ',' '\n' | grep -vx "$2" | tr '\n' ','; }
say() { printf '\n%s\n' "$*" | fold -s -w 78; }
show() { printf '  $ %s\n' "$*"; }
nlog() { dmesg | grep -c 'type=1326'; }
# The kernel's audit line of the last kill, once kauditd has printed it.
lastlog() {
	i=0
	while [ "$(nlog)" -le "$1" ] && [ $i -lt 30 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	dmesg | grep 'type=1326' | tail -n 1 | sed -e 's/^\[[ 0-9.]*\] //' -e 's/^/    /'
}
# arm64: steps 3 and 4, a profile learned in the guest (busybox ls) and
# an AArch32 program with the ARM-private set_tls.
arm64_demo() {
	say "3. mask-exec can also learn a profile from this kernel: --learn runs the program with every syscall allowed and logged (the log action), reads the audit records and writes the syscalls it made. ls -l / learned, then run under its profile with the kill action:"
	show "mask-exec --learn /tmp/ls.profile -- ls -l /"
	mask-exec --learn /tmp/ls.profile -- ls -l / > /tmp/demo.ls
	status $?
	show "mask-exec --profile /tmp/ls.profile --action kill -- ls -l /"
	mask-exec --profile /tmp/ls.profile --action kill -- ls -l / > /tmp/demo.ls
	rc=$?
	sed -n '1,3s/^/    /p' /tmp/demo.ls
	echo "    ..."
	status $rc
	echo "  -> $(grep -vc '^[#[]' /tmp/ls.profile) syscalls learned:" \
		"$(grep -v '^[#[]' /tmp/ls.profile | tr '\n' ' ')"

	say "4. An arm64 CPU also runs 32-bit AArch32 programs, whose syscalls are those of another table (AUDIT_ARCH_ARM, the compat mask), plus the ARM-private calls 0x0f0000+k past it; the mask gives those the bits 1024+k. status32 is a static AArch32 program that prints its seccomp lines; unmasked:"
	show status32
	status32
	status $?
	say "Its learned profile has an [aarch64] part (mask-exec's execve into it) and an [arm] part, which has set_tls (0x0f0005): glibc's AArch32 start-up sets the thread pointer with it:"
	show "mask-exec --learn /tmp/status32.profile -- status32"
	mask-exec --learn /tmp/status32.profile -- status32 > /tmp/demo.status32
	status $?
	grep -v '^#' /tmp/status32.profile | tr '\n' ' ' | fold -s -w 74 | sed 's/^/    /'
	echo
	say "Under it with the kill action, status32 runs and sees set_tls as bit 1029 of its compat mask:"
	show "mask-exec --profile /tmp/status32.profile --action kill -- status32"
	mask-exec --profile /tmp/status32.profile --action kill -- status32 > /tmp/demo.status32
	rc=$?
	sed 's/^/    /' /tmp/demo.status32
	status $rc
	say "Without set_tls it is killed at start-up; the audit record has the real number (syscall=983045 is 0x0f0005, arch=40000028 is AArch32):"
	sed '/^set_tls$/d' /tmp/status32.profile > /tmp/status32-no-tls.profile
	show "mask-exec --profile /tmp/status32-no-tls.profile --action kill -- status32"
	n=$(nlog)
	mask-exec --profile /tmp/status32-no-tls.profile --action kill -- status32
	status $?
	show "dmesg | grep type=1326"
	lastlog "$n"

	say "More: mask-exec --help; /profiles holds masks of real programs; make check runs them."
}
status() {
	if [ "$1" -gt 128 ]; then
		echo "  -> killed by signal $(($1 - 128))$([ "$1" = 159 ] && echo ' (SIGSYS, "Bad system call")'); exit status $1"
	else
		echo "  -> exit status $1"
	fi
}

CAT=$(profile cat)
ncat=$(echo "$CAT" | tr ',' '\n' | grep -c .)
if [ "$(uname -m)" = aarch64 ]; then
	OPENAT="syscall=56 is openat in the aarch64 table, arch=c00000b7"
else
	OPENAT="syscall=257 is openat in the x86_64 table, arch=c000003e"
fi

echo "=== seccomp mask mode (mode 3), on $(uname -sr) ==="
say "A process in mask mode may only make the system calls in its mask, one bit per syscall number; anything else kills it. mask-exec (samples/seccomp) puts a program under a mask and starts it."

say "1. cat, allowed only the $ncat syscalls of /profiles/cat.profile, prints the seccomp lines of its own /proc status (Seccomp: 3 is mask mode; Seccomp_mask lists the allowed 64-bit syscall numbers; the compat line is empty: no 32-bit syscall allowed):"
show "mask-exec --allow \"\$(cat profile)\" -- cat /proc/self/status | grep Seccomp"
mask-exec --allow "$CAT" -- cat /proc/self/status > /tmp/demo.status
rc=$?
grep Seccomp /tmp/demo.status | sed 's/^/    /'
status $rc
say "The same mask by name, as mask-exec --print --names shows it:"
mask-exec --print --names --allow "$CAT" | sed 's/^/    /'

say "2. The same cat without openat in its mask: the kernel kills it at the call it may not make, and logs the syscall number ($OPENAT):"
show "mask-exec --allow \"\$(cat profile minus openat)\" -- cat /proc/self/status"
n=$(nlog)
mask-exec --allow "$(without "$CAT" openat)" -- cat /proc/self/status
status $?
show "dmesg | grep type=1326"
lastlog "$n"

if [ "$(uname -m)" = aarch64 ]; then
	arm64_demo
	exit 0
fi

say "3. A 64-bit program can also enter the kernel through int \$0x80, the 32-bit (i386) gate, whose syscall numbers are different. The mask is per syscall table, so this old hole stays closed. int80 asks for its pid both ways; unmasked:"
show int80
int80
status $?
say "Allowed getpid only in the 64-bit table, it is killed at the int \$0x80 call (the log shows arch=40000003, i386, syscall=20, getpid there):"
show "mask-exec --allow execve,write,getpid,exit_group -- int80"
n=$(nlog)
mask-exec --allow execve,write,getpid,exit_group -- int80
status $?
show "dmesg | grep type=1326"
lastlog "$n"

say "More: mask-exec --help; /profiles holds masks of real programs; make check runs them."
exit 0
