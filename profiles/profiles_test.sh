#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest test (TAP): real busybox programs under mask-exec with their profiles.
#
# For every profile NAME in $PROFILE_DIR (default: the directory of
# workloads.sh, /profiles in the guest):
#   NAME_output_matches        the workload wl_NAME run under
#                              mask-exec --profile <profile> gives the same
#                              stdout, stderr and exit status as unmasked
#                              (gzip: the .gz files and the round trip are
#                              compared byte for byte)
#   NAME_killed_without_SYSC   the same with the profile's "# needed:"
#                              syscall removed ends by SIGSYS
#   NAME_learned               the workload run under mask-exec --learn
#                              gives the unmasked stdout and exit status and
#                              a profile, with no audit record lost
#   NAME_learned_profile_kill  the workload under the learned profile with
#                              --action kill: the unmasked stdout, stderr
#                              and exit status
#   NAME_stacked_on_filter     the workload under its profile, inside a
#                              process already confined by a container-style
#                              BPF filter (mask-exec --deny-filter with
#                              $CONTAINER_DENY): the unmasked results
# plus checks of mask-exec itself (--print, profile and name errors, PROG's
# exit status, --action errno, a mask stacked on a filter: /proc, the
# filter's errno for what the mask allows, the mask's kill first; --learn
# of both ABIs (int80), and --learn beside a registered audit daemon;
# --features, and --spec-allow on a mask stacked on a filter).
#
# On arm64 (uname -m aarch64) the same, with the AArch64 and AArch32 names
# (profile sections [aarch64] and [arm]), the arm64 profiles (installed as
# /profiles/NAME.profile from profiles/arm64/) and, for both ABIs,
# status32, a static AArch32 program: --learn of it gives a profile whose
# [aarch64] part is the execve into it and whose [arm] part has set_tls
# (the ARM-private 0x0f0005, bit 1029); under that profile with the kill
# action it shows Seccomp_mask_compat ending in 1029, and without set_tls
# it is killed by SIGSYS at its start-up.
#
# A kernel without the mask mode (or without version 2 of it: actions,
# stacking, the log action --learn needs; or without version 3: the
# feature query, SECCOMP_MASK_FLAG_SPEC_ALLOW) makes the tests that need
# it SKIP, or fail when SECCOMP_MASK_REQUIRED=1 (set by the harness when
# the kernel is built with CONFIG_SECCOMP_MASK=y).
# Installed by profiles/guest-files as /kselftest/mask_profiles/.
P=${PROFILE_DIR:-/profiles}
W=${WORK_DIR:-/tmp/mask-profiles}
REQUIRED=${SECCOMP_MASK_REQUIRED:-0}
. "$P/workloads.sh"

# The architecture's names: its ABIs (mask-exec's profile sections), the
# --print example and its /proc form, a misspelt name and mask-exec's
# suggestion, the --features lines of its ABIs.
if [ "$(uname -m)" = aarch64 ]; then
	NATIVE=aarch64 COMPAT=arm
	PRINT_ALLOW=read,write,openat,close,15,39,60-62 PRINT_COMPAT=1,set_tls
	PRINT_EXP=$(printf 'Seccomp_mask:\t15,39,56-57,60-64\nSeccomp_mask_compat:\t1,1029')
	TYPO=opnat SUGGESTED=openat
	GOOD_EXP=$(printf 'Seccomp_mask:\tclose,read,write\nSeccomp_mask_compat:\texit,read,write')
	FEATURES_ABIS=$(printf 'abi: aarch64 0xc00000b7 max_bits 1024\nabi: arm 0x40000028 max_bits 1040')
else
	NATIVE=x86_64 COMPAT=i386
	PRINT_ALLOW=read,write,open,close,15,39,60-62 PRINT_COMPAT=1
	PRINT_EXP=$(printf 'Seccomp_mask:\t0-3,15,39,60-62\nSeccomp_mask_compat:\t1')
	TYPO=opn SUGGESTED=open
	GOOD_EXP=$(printf 'Seccomp_mask:\tread,write,close\nSeccomp_mask_compat:\texit,read,write')
	FEATURES_ABIS=$(printf 'abi: x86_64 0xc000003e max_bits 1024\nabi: i386 0x40000003 max_bits 1024')
fi

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; }
diag() { sed 's/^/# /'; }
same() { cmp "$1" "$2" > "$W/cmp.out" 2>&1 || { diag < "$W/cmp.out"; return 1; }; }
needed() { sed -n 's/^# needed: *\([a-z0-9_]*\).*/\1/p' "$P/$1.profile"; }
check() { if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi; }
# missing TEST REASON: SKIP, or not ok when the mask mode is required.
missing() {
	if [ "$REQUIRED" = 1 ]; then
		not_ok "$1 # $2 (SECCOMP_MASK_REQUIRED=1)"
	else
		ok "$1 # SKIP $2"
	fi
}
# The names of a profile (x86-64 part) without comments and blank lines.
names() { sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$1"; }
# section FILE ABI: the names of one section of a learned profile.
section() {
	names "$1" | awk -v s="[$2]" '/^\[/ { on = $0 == s; next } on'
}
# status_is WANT GOT: say what differs.
status_is() {
	[ "$2" = "$1" ] && return 0
	echo "status $2, expected $1" | diag
	[ "$2" -gt 128 ] && echo "killed by signal $(($2 - 128))" | diag
	return 1
}
# learn_into FILE PROG...: PROG under mask-exec --learn, its profile added
# to FILE (a workload may run several programs).
learn_into() {
	lf=$1
	shift
	mask-exec --learn "$lf.part" -- "$@"
	lr=$?
	[ -f "$lf.part" ] && cat "$lf.part" >> "$lf" && rm -f "$lf.part"
	return $lr
}

# learn_both_abis (x86-64): --learn of both ABIs: int80 asks for its pid
# through syscall and through int $0x80; the learned profile has getpid in
# both parts and runs it under the kill action.
learn_both_abis_x86_64() {
	mask-exec --learn "$W/int80.profile" -- int80 > "$W/int80.learn" 2> "$W/int80.learn.err"
	rl=$?
	mask-exec --profile "$W/int80.profile" --action kill -- int80 > "$W/int80.kill" 2>&1
	rk=$?
	cat "$W/int80.learn.err" "$W/int80.kill" | diag
	r=0
	status_is 0 $rl || r=1
	status_is 0 $rk || r=1
	[ "$(section "$W/int80.profile" i386)" = getpid ] &&
		section "$W/int80.profile" x86_64 | grep -qx getpid || r=1
	[ "$(grep -c ' = [1-9][0-9]*$' "$W/int80.kill")" = 2 ] || r=1
	[ $r = 0 ] || diag < "$W/int80.profile"
	return $r
}

# learn_both_abis (arm64): mask-exec (AArch64) executes status32
# (AArch32).  The learned [aarch64] part is that execve alone, the [arm]
# part has set_tls by name (glibc's start-up, 0x0f0005).  Under that
# profile with the kill action status32 runs and sees its masks: execve
# (221) and, in the compat mask, set_tls as bit 1029.  Without set_tls it
# is killed by SIGSYS, and the kernel's audit record names the real
# number: arch=40000028 (AUDIT_ARCH_ARM) syscall=983045 (0x0f0005).
learn_both_abis_aarch64() {
	mask-exec --learn "$W/status32.profile" -- status32 > "$W/status32.learn" \
		2> "$W/status32.learn.err"
	rl=$?
	mask-exec --profile "$W/status32.profile" --action kill -- status32 > "$W/status32.kill" 2>&1
	rk=$?
	sed '/^set_tls$/d' "$W/status32.profile" > "$W/status32.cut.profile"
	# The kill's audit record, read from the kernel log after a marker:
	# without an audit daemon kauditd prints it through printk_ratelimit(),
	# whose burst the tests before may have used up (10 in 5 s), so the
	# limit is off for this run.
	mark="profiles_test: status32 without set_tls $$"
	prl=$(cat /proc/sys/kernel/printk_ratelimit)
	echo 0 > /proc/sys/kernel/printk_ratelimit
	echo "$mark" > /dev/kmsg
	mask-exec --profile "$W/status32.cut.profile" --action kill -- status32 \
		> "$W/status32.cut" 2>&1
	rc=$?
	# kauditd prints the record a moment later.
	i=0
	while ! dmesg | sed -n "/$mark/,\$p" | grep -q 'type=1326' && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	echo "$prl" > /proc/sys/kernel/printk_ratelimit
	dmesg | sed -n "/$mark/,\$p" | grep 'type=1326' | tail -n 1 > "$W/status32.audit"
	cat "$W/status32.learn.err" "$W/status32.kill" "$W/status32.cut" "$W/status32.audit" | diag
	r=0
	grep -q ' arch=40000028 .*syscall=983045 .*code=0x80000000' "$W/status32.audit" || r=1
	status_is 0 $rl || r=1
	status_is 0 $rk || r=1
	status_is 159 $rc || r=1
	[ "$(section "$W/status32.profile" aarch64)" = execve ] &&
		section "$W/status32.profile" arm | grep -qx set_tls || r=1
	grep -q '^status32: AArch32 (arm) pid [1-9]' "$W/status32.learn" &&
		grep -q '^status32: AArch32 (arm) pid [1-9]' "$W/status32.kill" &&
		grep -q '^Seccomp:	3$' "$W/status32.kill" &&
		grep -q '^Seccomp_mask:	221$' "$W/status32.kill" &&
		grep -qE '^Seccomp_mask_compat:	.*[,	]1029$' "$W/status32.kill" &&
		grep -q '^Seccomp_mask_action:	kill_process$' "$W/status32.kill" || r=1
	# Killed at its start-up: it printed nothing (the shell may say
	# "Bad system call").
	! grep -q '^status32' "$W/status32.cut" || r=1
	[ $r = 0 ] || diag < "$W/status32.profile"
	return $r
}

profiles=
for p in $PROFILES; do
	[ -f "$P/$p.profile" ] && profiles="$profiles $p"
done
set -- $profiles
fixed=13
echo "TAP version 13"
echo "1..$((fixed + 5 * $#))"

if ! command -v mask-exec > /dev/null; then
	i=0
	while [ $i -lt $((fixed + 5 * $#)) ]; do
		missing mask_profiles "mask-exec is not installed"
		i=$((i + 1))
	done
	exit $((failed != 0))
fi
setup_workdir "$W"

# --print: the /proc list format, no program run.
out=$(mask-exec --print --allow "$PRINT_ALLOW" --allow-compat "$PRINT_COMPAT" \
	--action errno=38 2>&1)
exp=$(printf '%s\nSeccomp_mask_action:\terrno 38' "$PRINT_EXP")
[ "$out" = "$exp" ]
r=$?
[ $r = 0 ] || echo "$out" | diag
check $r mask_exec_print

# An unknown name: exit status 125, a suggestion, nothing executed.
rm -f "$W/touched"
out=$(mask-exec --allow "execve,$TYPO,exit_group" -- touch "$W/touched" 2>&1)
r=$?
echo "$out" | diag
[ $r = 125 ] && [ ! -e "$W/touched" ] && echo "$out" | grep -q "did you mean $SUGGESTED"
check $? mask_exec_unknown_name

# A name of the other ABI only: said so, exit status 125.  On arm64 also an
# ARM-private one, with its number and its bit.
out=$(mask-exec --allow execve,mmap2 -- true 2>&1)
r=$?
echo "$out" | diag
[ $r = 125 ] && echo "$out" | grep -q "'mmap2' is not an $NATIVE syscall; it is $COMPAT syscall 192"
r=$?
if [ "$NATIVE" = aarch64 ]; then
	out=$(mask-exec --allow execve,set_tls -- true 2>&1)
	rp=$?
	echo "$out" | diag
	[ $rp = 125 ] &&
		echo "$out" | grep -q "'set_tls' is not an aarch64 syscall; it is arm syscall 0x0f0005, 1029 in its mask" ||
		r=1
fi
check $r mask_exec_other_abi_name

# A profile: both sections read, errors named by file and line.
printf 'read, write # a comment\n\n[%s]\nexit 3-4\n[%s]\nclose\n' "$COMPAT" "$NATIVE" > "$W/good.profile"
printf 'read\nmmap2\n[%s]\nwrite\n[x32]\n' "$COMPAT" > "$W/bad.profile"
out=$(mask-exec --print --names --profile "$W/good.profile" 2>&1)
exp=$(printf '%s\nSeccomp_mask_action:\tkill_process' "$GOOD_EXP")
r=0
[ "$out" = "$exp" ] || { echo "$out" | diag; r=1; }
out=$(mask-exec --profile "$W/bad.profile" -- true 2>&1)
rb=$?
echo "$out" | diag
[ $rb = 125 ] && echo "$out" | grep -q "bad.profile:2: 'mmap2' is not an $NATIVE syscall" &&
	echo "$out" | grep -q "bad.profile:5: '\[x32\]' is not" || r=1
check $r mask_exec_profile_format

# Does this kernel have the mask mode at all, and version 2 of it?
mask-exec --allow execve,exit_group,exit -- true 2> "$W/probe.err"
r=$?
v2=1
mask-exec --action errno=1 --profile "$P/sh.profile" -- true 2> "$W/probe2.err"
[ $? != 125 ] || v2=0
if [ $r = 125 ]; then
	diag < "$W/probe.err"
	why="mask-exec cannot install a mask"
	for t in mask_exec_exit_status mask_exec_action_errno mask_exec_stacked_status \
		mask_exec_filter_errno_under_mask mask_exec_mask_before_filter \
		mask_exec_learn_both_abis mask_exec_learn_multicast \
		mask_exec_features mask_exec_spec_allow; do
		missing "$t" "$why"
	done
	for p; do
		for t in output_matches "killed_without_$(needed "$p")" learned \
			learned_profile_kill stacked_on_filter; do
			missing "${p}_$t" "$why"
		done
	done
	exit $((failed != 0))
fi
[ $v2 = 1 ] || diag < "$W/probe2.err"
v2why="the kernel has version 1 of the mask mode (no actions, no stacking)"

# PROG's exit status is mask-exec's.
mask-exec --profile "$P/sh.profile" -- sh -c 'exit 7'
r=$?
status_is 7 $r
check $? mask_exec_exit_status

cat_list=$(names "$P/cat.profile")
if [ $v2 = 1 ]; then
	# --action errno=38: cat without openat fails to open with ENOSYS.
	mask-exec --allow "$(echo "$cat_list" | grep -vx openat)" --action errno=38 -- \
		cat "$W/input" > "$W/errno.out" 2> "$W/errno.err"
	r=$?
	diag < "$W/errno.err"
	status_is 1 $r && [ ! -s "$W/errno.out" ] &&
		grep -q 'Function not implemented' "$W/errno.err"
	check $? mask_exec_action_errno

	# A mask over a container-style filter: mode 2, one filter, the mask.
	mask-exec --deny-filter "$CONTAINER_DENY" -- \
		mask-exec --profile "$P/cat.profile" --action kill -- \
		cat /proc/self/status > "$W/status.out" 2> "$W/status.err"
	r=$?
	diag < "$W/status.err"
	status_is 0 $r &&
		grep -q "^Seccomp:	2$" "$W/status.out" &&
		grep -q "^Seccomp_filters:	1$" "$W/status.out" &&
		grep -q "^Seccomp_mask:	[0-9]" "$W/status.out" &&
		grep -q "^Seccomp_mask_action:	kill_process$" "$W/status.out"
	r=$?
	[ $r = 0 ] || grep '^Seccomp' "$W/status.out" | diag
	check $r mask_exec_stacked_status

	# What the mask allows goes on to the filter: openat fails with EPERM.
	# (--allow: the inner mask-exec could not open a profile.)
	mask-exec --deny-filter openat -- mask-exec --allow "$cat_list" --action kill -- \
		cat "$W/input" > "$W/filt.out" 2> "$W/filt.err"
	r=$?
	diag < "$W/filt.err"
	status_is 1 $r && [ ! -s "$W/filt.out" ] &&
		grep -q 'Operation not permitted' "$W/filt.err"
	check $? mask_exec_filter_errno_under_mask

	# What the mask denies never reaches the filter: killed, not EPERM.
	mask-exec --deny-filter getdents64 -- \
		mask-exec --allow "$(names "$P/ls.profile" | grep -vx getdents64)" --action kill -- \
		ls "$W/dir" > /dev/null 2> "$W/first.err"
	r=$?
	diag < "$W/first.err"
	status_is 159 $r
	check $? mask_exec_mask_before_filter

	if [ "$NATIVE" = aarch64 ]; then
		learn_both_abis_aarch64
	else
		learn_both_abis_x86_64
	fi
	check $? mask_exec_learn_both_abis

	# With an audit daemon registered (here another learner), --learn
	# reads the read-log multicast group instead, with the same result.
	rm -f "$W/a-started"
	mask-exec --learn "$W/daemon.profile" -- sh -c "touch $W/a-started; sleep 5" \
		> /dev/null 2> "$W/daemon.err" &
	dpid=$!
	i=0
	while [ ! -e "$W/a-started" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	mask-exec --learn "$W/mc.profile" -- ls -l "$W/dir" > "$W/mc.out" 2> "$W/mc.err"
	r=$?
	wait $dpid
	rd=$?
	cat "$W/daemon.err" "$W/mc.err" | diag
	ls -l "$W/dir" > "$W/mc.plain"
	status_is 0 $r && status_is 0 $rd && same "$W/mc.plain" "$W/mc.out" &&
		grep -q 'reading the read-log multicast group' "$W/mc.err" &&
		grep -q 'audit records, 0 lost$' "$W/mc.err" &&
		section "$W/mc.profile" "$NATIVE" | grep -qx getdents64 &&
		! section "$W/mc.profile" "$NATIVE" | grep -qxE "nanosleep|clock_nanosleep"
	check $? mask_exec_learn_multicast
else
	for t in mask_exec_action_errno mask_exec_stacked_status \
		mask_exec_filter_errno_under_mask mask_exec_mask_before_filter \
		mask_exec_learn_both_abis mask_exec_learn_multicast; do
		missing "$t" "$v2why"
	done
fi

# Version 3: --features prints what the kernel's feature query says (an
# x86-64 kernel with IA32_EMULATION, an arm64 one with COMPAT); a kernel
# before version 3 has none.
mask-exec --features > "$W/features.out" 2> "$W/features.err"
r=$?
if [ $r = 125 ] && grep -q 'no feature query' "$W/features.err"; then
	diag < "$W/features.err"
	v3why="the kernel predates version 3 of the mask mode (no feature query)"
	for t in mask_exec_features mask_exec_spec_allow; do
		missing "$t" "$v3why"
	done
else
	exp=$(printf 'set_size: 24\nflags: 0x3 tsync spec_allow\nactions: 0xf kill_process trap errno log\n%s' "$FEATURES_ABIS")
	[ $r = 0 ] && [ "$(cat "$W/features.out")" = "$exp" ]
	r=$?
	[ $r = 0 ] || cat "$W/features.out" "$W/features.err" | diag
	check $r mask_exec_features

	# --spec-allow: the filter (seccomp() with SECCOMP_FILTER_FLAG_SPEC_ALLOW)
	# and the mask over it (SECCOMP_MASK_FLAG_SPEC_ALLOW) are installed.
	mask-exec --spec-allow --deny-filter "$CONTAINER_DENY" -- \
		mask-exec --spec-allow --profile "$P/cat.profile" --action kill -- \
		cat /proc/self/status > "$W/spec.out" 2> "$W/spec.err"
	r=$?
	diag < "$W/spec.err"
	status_is 0 $r &&
		grep -q "^Seccomp:	2$" "$W/spec.out" &&
		grep -q "^Seccomp_filters:	1$" "$W/spec.out" &&
		grep -q "^Seccomp_mask:	[0-9]" "$W/spec.out" &&
		grep -q "^Seccomp_mask_action:	kill_process$" "$W/spec.out"
	r=$?
	[ $r = 0 ] || grep '^Seccomp' "$W/spec.out" | diag
	check $r mask_exec_spec_allow
fi

for p; do
	list=$(names "$P/$p.profile")
	needed=$(needed "$p")

	"wl_$p" plain > "$W/$p.plain" 2> "$W/$p.plain.err"
	rp=$?
	"wl_$p" masked mask-exec --profile "$P/$p.profile" -- > "$W/$p.masked" 2> "$W/$p.masked.err"
	rm=$?
	r=0
	if [ $rp != 0 ] || [ ! -s "$W/$p.plain" ]; then
		echo "unmasked run failed (status $rp) or printed nothing" | diag
		r=1
	fi
	if ! status_is $rp $rm; then
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
	else
		echo "$list" | grep -vx "$needed" > "$W/$p.cut.profile"
		"wl_$p" cut mask-exec --profile "$W/$p.cut.profile" -- > /dev/null 2> "$W/$p.cut.err"
		r=$?
		if [ $r = 159 ]; then
			echo "without $needed: killed by SIGSYS (status 159)" | diag
			check 0 "${p}_killed_without_$needed"
		else
			echo "without $needed: status $r, expected 159 (SIGSYS)" | diag
			diag < "$W/$p.cut.err"
			check 1 "${p}_killed_without_$needed"
		fi
	fi

	if [ $v2 != 1 ]; then
		for t in learned learned_profile_kill stacked_on_filter; do
			missing "${p}_$t" "$v2why"
		done
		continue
	fi

	# Learn the workload: it runs as unmasked, and gives a profile.
	lp=$W/$p.learned.profile
	rm -f "$lp"
	"wl_$p" learn learn_into "$lp" > "$W/$p.learn" 2> "$W/$p.learn.err"
	rl=$?
	r=0
	status_is $rp $rl || r=1
	same "$W/$p.plain" "$W/$p.learn" || r=1
	[ "$p" != gzip ] || same "$W/plain.gz" "$W/learn.gz" || r=1
	grep 'mask-exec:' "$W/$p.learn.err" | diag
	if ! grep -q 'audit records, 0 lost$' "$W/$p.learn.err" ||
	   grep 'mask-exec:' "$W/$p.learn.err" | grep -vq 'audit records, 0 lost$'; then
		r=1
	fi
	[ -s "$lp" ] || { echo "no profile learned" | diag; r=1; }
	if [ $r = 0 ]; then
		native=$(section "$lp" "$NATIVE" | sort -u)
		echo "learned $NATIVE: $(echo "$native" | wc -l) syscalls," \
			"$COMPAT: $(section "$lp" "$COMPAT" | sort -u | wc -l);" \
			"not in $p.profile: $(echo "$native" | grep -vxF "$list" | tr '\n' ' ')-;" \
			"in $p.profile only: $(echo "$list" | grep -vxF "$native" | tr '\n' ' ')-" |
			diag
	fi
	check $r "${p}_learned"

	# The learned profile with the kill action: the same results.
	"wl_$p" lkill mask-exec --profile "$lp" --action kill -- > "$W/$p.lkill" 2> "$W/$p.lkill.err"
	rk=$?
	r=0
	if [ ! -s "$lp" ]; then
		echo "no learned profile" | diag
		r=1
	elif ! status_is $rp $rk; then
		dmesg | grep 'type=1326' | tail -n 1 | diag
		r=1
	fi
	same "$W/$p.plain" "$W/$p.lkill" || r=1
	same "$W/$p.plain.err" "$W/$p.lkill.err" || r=1
	if [ "$p" = gzip ]; then
		same "$W/plain.gz" "$W/lkill.gz" || r=1
	fi
	diag < "$W/$p.lkill.err"
	check $r "${p}_learned_profile_kill"

	# Stacked on a container-style filter that the process already has.
	"wl_$p" stacked mask-exec --deny-filter "$CONTAINER_DENY" -- \
		mask-exec --profile "$P/$p.profile" --action kill -- \
		> "$W/$p.stacked" 2> "$W/$p.stacked.err"
	rs=$?
	r=0
	status_is $rp $rs || r=1
	same "$W/$p.plain" "$W/$p.stacked" || r=1
	same "$W/$p.plain.err" "$W/$p.stacked.err" || r=1
	if [ "$p" = gzip ]; then
		same "$W/plain.gz" "$W/stacked.gz" || r=1
	fi
	diag < "$W/$p.stacked.err"
	check $r "${p}_stacked_on_filter"
done
exit $((failed != 0))
