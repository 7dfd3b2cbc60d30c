# mask-exec profile of busybox sh: the x86-64 syscalls of workload
# wl_sh in profiles/workloads.sh.  Found with profiles/trace sh.
# needed: pipe2 (make check removes it: SIGSYS expected)
# traced: strace -f on Linux 6.18.44-fc-v1147, BusyBox v1.35.0 (Debian 1:1.35.0-4+deb12u1+b1)
arch_prctl
brk
clock_gettime  # on the 6.1 guest kernel the vDSO falls back to the syscall (audit: 228)
clone
close
dup2
execve
exit_group
fcntl
getpid
getppid
getrandom
getuid
lseek
mmap
mprotect
mremap
munmap
newfstatat
openat
pipe2
prctl
prlimit64
read
readlink
rseq
rt_sigaction
rt_sigreturn
set_robust_list
set_tid_address
sysinfo
uname
wait4
write
