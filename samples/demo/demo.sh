#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The `make run` demo of the seccomp mask mode (the guest's /demo.sh).
# Needs /usr/bin/mask-exec, /usr/bin/int80 and /profiles/cat.profile.

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
status() {
	if [ "$1" -gt 128 ]; then
		echo "  -> killed by signal $(($1 - 128))$([ "$1" = 159 ] && echo ' (SIGSYS, "Bad system call")'); exit status $1"
	else
		echo "  -> exit status $1"
	fi
}

CAT=$(profile cat)
ncat=$(echo "$CAT" | tr ',' '\n' | grep -c .)

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

say "2. The same cat without openat in its mask: the kernel kills it at the call it may not make, and logs the syscall number (syscall=257 is openat in the x86_64 table, arch=c000003e):"
show "mask-exec --allow \"\$(cat profile minus openat)\" -- cat /proc/self/status"
n=$(nlog)
mask-exec --allow "$(without "$CAT" openat)" -- cat /proc/self/status
status $?
show "dmesg | grep type=1326"
lastlog "$n"

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
