#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest test (TAP): real busybox programs under mask-exec with their profiles.
#
# For every profile NAME in $PROFILE_DIR (default: the directory of
# workloads.sh, /profiles in the guest):
#   NAME_output_matches        the workload wl_NAME run under
#                              mask-exec --allow <profile> gives the same
#                              stdout, stderr and exit status as unmasked
#                              (gzip: the .gz files and the round trip are
#                              compared byte for byte)
#   NAME_killed_without_SYSC   the same with the profile's "# needed:"
#                              syscall removed ends by SIGSYS
# plus four checks of mask-exec itself (--print, an unknown name, a name of
# the other ABI, PROG's exit status).
# Installed by profiles/guest-files as /kselftest/mask_profiles/.
P=${PROFILE_DIR:-/profiles}
W=${WORK_DIR:-/tmp/mask-profiles}
. "$P/workloads.sh"

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; }
diag() { sed 's/^/# /'; }
same() { cmp "$1" "$2" > "$W/cmp.out" 2>&1 || { diag < "$W/cmp.out"; return 1; }; }
needed() { sed -n 's/^# needed: *\([a-z0-9_]*\).*/\1/p' "$P/$1.profile"; }
check() { if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi; }

profiles=
for p in $PROFILES; do
	[ -f "$P/$p.profile" ] && profiles="$profiles $p"
done
set -- $profiles
echo "TAP version 13"
echo "1..$((4 + 2 * $#))"

if ! command -v mask-exec > /dev/null; then
	i=0
	while [ $i -lt $((4 + 2 * $#)) ]; do
		ok "mask_profiles # SKIP mask-exec is not installed"
		i=$((i + 1))
	done
	exit 0
fi
setup_workdir "$W"

# --print: the /proc list format, no program run.
out=$(mask-exec --print --allow read,write,open,close,15,39,60-62 --allow-compat 1 2>&1)
exp=$(printf 'Seccomp_mask:\t0-3,15,39,60-62\nSeccomp_mask_compat:\t1')
[ "$out" = "$exp" ]
r=$?
[ $r = 0 ] || echo "$out" | diag
check $r mask_exec_print

# An unknown name: exit status 125, a suggestion, nothing executed.
rm -f "$W/touched"
out=$(mask-exec --allow execve,opn,exit_group -- touch "$W/touched" 2>&1)
r=$?
echo "$out" | diag
[ $r = 125 ] && [ ! -e "$W/touched" ] && echo "$out" | grep -q 'did you mean open'
check $? mask_exec_unknown_name

# A name of the other ABI only: said so, exit status 125.
out=$(mask-exec --allow execve,mmap2 -- true 2>&1)
r=$?
echo "$out" | diag
[ $r = 125 ] && echo "$out" | grep -q "'mmap2' is not an x86_64 syscall; it is i386 syscall 192"
check $? mask_exec_other_abi_name

# Does this kernel have the mask mode at all?
mask-exec --allow execve,exit_group,exit -- true 2> "$W/probe.err"
r=$?
if [ $r = 125 ]; then
	diag < "$W/probe.err"
	ok "mask_exec_exit_status # SKIP mask-exec cannot install a mask"
	for p; do
		ok "${p}_output_matches # SKIP mask-exec cannot install a mask"
		ok "${p}_killed_without_$(needed "$p") # SKIP mask-exec cannot install a mask"
	done
	exit $((failed != 0))
fi

# PROG's exit status is mask-exec's.
mask-exec --allow "$(sed 's/#.*//' "$P/sh.profile")" -- sh -c 'exit 7'
r=$?
[ $r = 7 ] || echo "status $r, expected 7" | diag
[ $r = 7 ]
check $? mask_exec_exit_status

for p; do
	list=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$P/$p.profile")
	needed=$(needed "$p")

	"wl_$p" plain > "$W/$p.plain" 2> "$W/$p.plain.err"
	rp=$?
	"wl_$p" masked mask-exec --allow "$list" -- > "$W/$p.masked" 2> "$W/$p.masked.err"
	rm=$?
	r=0
	if [ $rp != 0 ] || [ ! -s "$W/$p.plain" ]; then
		echo "unmasked run failed (status $rp) or printed nothing" | diag
		r=1
	fi
	if [ $rm != $rp ]; then
		echo "status $rm under the mask, $rp without" | diag
		[ $rm -gt 128 ] && echo "killed by signal $((rm - 128))" | diag
		dmesg | grep 'type=1326' | tail -n 1 | diag
		r=1
	fi
	same "$W/$p.plain" "$W/$p.masked" || r=1
	same "$W/$p.plain.err" "$W/$p.masked.err" || r=1
	if [ "$p" = gzip ]; then
		same "$W/plain.gz" "$W/masked.gz" || r=1
		same "$W/input" "$W/gzip.masked" || r=1
	fi
	diag < "$W/$p.masked.err"
	check $r "${p}_output_matches"

	if [ -z "$needed" ] || ! echo "$list" | grep -qx "$needed"; then
		not_ok "${p}_killed_without_$needed # profile has no '# needed:' syscall of its list"
		continue
	fi
	less=$(echo "$list" | grep -vx "$needed")
	"wl_$p" cut mask-exec --allow "$less" -- > /dev/null 2> "$W/$p.cut.err"
	r=$?
	if [ $r = 159 ]; then
		echo "without $needed: killed by SIGSYS (status 159)" | diag
		check 0 "${p}_killed_without_$needed"
	else
		echo "without $needed: status $r, expected 159 (SIGSYS)" | diag
		diag < "$W/$p.cut.err"
		check 1 "${p}_killed_without_$needed"
	fi
done
exit $((failed != 0))
