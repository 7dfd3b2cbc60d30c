# mask-exec profile of busybox wc: the x86-64 syscalls of workload
# wl_wc in profiles/workloads.sh.  Found with profiles/trace wc.
# needed: read (make check removes it: SIGSYS expected)
# traced: strace -f on Linux 6.18.44-fc-v1147, BusyBox v1.35.0 (Debian 1:1.35.0-4+deb12u1+b1)
arch_prctl
brk
clock_gettime  # on the 6.1 guest kernel the vDSO falls back to the syscall (audit: 228)
close
execve
exit_group
getrandom
getuid
mprotect
newfstatat
openat
prctl
prlimit64
read
readlink
rseq
set_robust_list
set_tid_address
write
