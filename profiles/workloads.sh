# shellcheck shell=sh
# The busybox workloads the profiles in this directory were traced with and
# are checked with.  Sourced, by profiles/trace on the host (under strace)
# and by profiles/profiles_test.sh in the guest (under mask-exec).
#
# setup_workdir DIR   create the input files in DIR (deterministic content)
# wl_NAME TAG CMD...  run workload NAME with CMD... as launcher prefix
#                     (nothing, "strace ...", "mask-exec --profile ... --"
#                     or "mask-exec --learn ... --"; a workload may run
#                     several programs, each with the prefix);
#                     its output goes to stdout, its status is the workload's
# PROFILES            the names of the workloads
#
# Every program is run by its busybox applet name, the way the guest's
# /bin/NAME -> busybox links run it.  W is the work directory.

PROFILES="cat ls sh gzip sort wc"

# The x86-64 syscalls a container runtime's default seccomp profile denies
# (Docker's, whose filter fails them with EPERM and allows the rest; the ones
# it allows only with certain arguments, like clone and personality, left
# out).  profiles_test.sh runs the workloads under such a filter made by
# mask-exec --deny-filter, with their masks stacked on it.  On arm64: those
# of them that AArch64 has (no create_module, get_kernel_syms, ioperm, iopl,
# query_module, sysfs, _sysctl, uselib, ustat).
if [ "$(uname -m)" = aarch64 ]; then
	CONTAINER_DENY="acct add_key bpf clock_adjtime clock_settime
delete_module finit_module get_mempolicy init_module kcmp kexec_file_load
kexec_load keyctl lookup_dcookie mbind mount move_pages name_to_handle_at
nfsservctl open_by_handle_at perf_event_open pivot_root process_vm_readv
process_vm_writev ptrace quotactl reboot request_key set_mempolicy setns
settimeofday swapon swapoff umount2 unshare userfaultfd"
else
	CONTAINER_DENY="acct add_key bpf clock_adjtime clock_settime create_module
delete_module finit_module get_kernel_syms get_mempolicy init_module ioperm
iopl kcmp kexec_file_load kexec_load keyctl lookup_dcookie mbind mount
move_pages name_to_handle_at nfsservctl open_by_handle_at perf_event_open
pivot_root process_vm_readv process_vm_writev ptrace query_module quotactl
reboot request_key set_mempolicy setns settimeofday swapon swapoff sysfs
_sysctl umount2 unshare uselib userfaultfd ustat"
fi

setup_workdir() {
	W=$1
	rm -rf "$W"
	mkdir -p "$W/dir"
	# 3000 lines of pseudo-random words, the same on every machine.
	busybox awk 'BEGIN {
		x = 1
		for (i = 0; i < 3000; i++) {
			line = i
			for (j = 0; j < 6; j++) {
				x = (x * 75 + 74) % 65537
				line = line " w" (x % 500)
			}
			print line
		}
	}' > "$W/input"
	for f in alpha beta gamma; do
		echo "$f" > "$W/dir/$f"
	done
	mkdir "$W/dir/sub"
	chmod 640 "$W/dir/beta"
	touch -d '2024-11-17 14:15:08' "$W/dir"/* "$W/dir"
}

# cat: copy a regular file (busybox uses sendfile) and a /proc file (no
# sendfile there: read and write, with an mmap'ed buffer) to stdout.
wl_cat() { shift; "$@" cat "$W/input" /proc/self/personality; }

# ls -l: a directory listing with modes, owners (/etc/passwd, /etc/group),
# sizes and dates.
wl_ls() { shift; "$@" ls -l "$W/dir"; }

# sh -c with a pipeline: the shell forks the pipeline's applets.
wl_sh() {
	shift
	"$@" sh -c "tr -s ' ' '\\n' < $W/input | sort | uniq -c | sort -rn | head -n 8"
}

# gzip/gunzip round trip: compress to $W/TAG.gz, then decompress to stdout
# (compared byte for byte with the input by the caller).
wl_gzip() {
	t=$1
	shift
	"$@" gzip -c "$W/input" > "$W/$t.gz" || return
	"$@" gunzip -c "$W/$t.gz"
}

# sort by the first word, then numerically by the line number.
wl_sort() { shift; "$@" sort -k2,2 -k1,1n "$W/input"; }

# wc: lines, words, bytes.
wl_wc() { shift; "$@" wc "$W/input"; }
