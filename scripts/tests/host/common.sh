# shellcheck shell=bash
# Helpers of the harness' host tests (sourced by scripts/tests/host/*.sh).
# Each test file prints "pass NAME" or "fail NAME: WHY" lines ("skip NAME:
# WHY" for what cannot be checked yet: shown, not counted); it works in
# a temporary directory of its own (BUILD_DIR in it, a fake kernel and
# initramfs, the fake qemu-system-x86_64 first on PATH, KVER and ARCH
# unset: the default base and architecture unless a test names one) and
# removes it.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/harness-host-test.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT
export TMPDIR=$TMPD/tmp BUILD_DIR=$TMPD/build QEMU_ACCEL=tcg
mkdir -p "$TMPDIR"
# Debian's python3 first (the one scripts/deps installs; a pyenv shim costs a
# second or two per call), the fakes before everything.
export PATH=$ROOT/scripts/tests/fake:/usr/bin:$PATH
unset KVER ARCH PATCHES HARNESS_LOCK_HELD KSRC KSFT_ARGS HARNESS_MASK_REQUIRED FAKE_QEMU FAKE_QEMU_OUT \
	FAKE_QEMU_STATUS JOBS MAKEFLAGS MFLAGS MAKELEVEL CHECK_TIMEOUT BOOT_TIMEOUT CMD
KOBJ=$TMPD/obj
KIMG=$KOBJ/arch/x86/boot/bzImage
INITRD=$TMPD/initramfs.cpio.gz
mkdir -p "$KOBJ/arch/x86/boot"
echo 'not a kernel' > "$KIMG"
echo 'CONFIG_SECCOMP_MASK=y' > "$KOBJ/.config"
echo 'not an initramfs' | gzip > "$INITRD"
LOGS=$BUILD_DIR/logs
NFAIL=0

pass() { echo "pass $*"; }
fail() { echo "fail $*"; NFAIL=$((NFAIL + 1)); }
skip() { echo "skip $*"; }
# check NAME COND...: pass when the command succeeds
check() { local n=$1; shift; if "$@"; then pass "$n"; else fail "$n: '$*' is false"; fi; }
# boot_fake ARGS...: scripts/boot on the fake kernel; sets RC
boot_fake() { RC=0; "$ROOT/scripts/boot" --kernel "$KIMG" --initrd "$INITRD" "$@" > "$TMPD/boot.log" 2>&1 || RC=$?; }
# alive PIDFILE: any process of the file still running (a zombie is dead;
# waits up to 1 s for killed ones to go)
alive() {
	local p i st
	for i in 1 2 3 4 5 6 7 8 9 10; do
		local any=
		for p in $(cat "$1" 2>/dev/null); do
			st=$(ps -o stat= -p "$p" 2>/dev/null) || continue
			case $st in Z*|'') ;; *) any=1 ;; esac
		done
		[ -z "$any" ] && return 1
		sleep 0.1
	done
	return 0
}
finish() { exit $((NFAIL > 0)); }
