# mask-exec profile of busybox sort: the AArch64 syscalls of workload
# wl_sort in profiles/workloads.sh.  Found with ARCH=arm64 profiles/trace sort.
# needed: read (make check removes it: SIGSYS expected)
# traced: qemu-user's syscall log (qemu-aarch64-static 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)), BusyBox v1.35.0 (Debian 1:1.35.0-4+deb12u1+b1) arm64
brk
clock_gettime  # on the 6.1 guest kernel the vDSO falls back to the syscall (audit: 113)
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
readlinkat
rseq
set_robust_list
set_tid_address
sysinfo
write
