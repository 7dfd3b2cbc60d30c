# shellcheck shell=bash
# Common helpers for the stage scripts.  Sourced, never run.
#
# Every stage reads its inputs, writes only below $B (build/), and skips its
# work when a stamp of its inputs says nothing changed.

set -euo pipefail
# Parallel jobs of every build a stage runs: JOBS=N, else the -jN of the
# calling make (`make -j4 check`), else nproc.
if [ -z "${JOBS:-}" ]; then
	for _w in ${MAKEFLAGS:-}; do
		case $_w in -j[0-9]*) JOBS=${_w#-j} ;; --jobs=[0-9]*) JOBS=${_w#--jobs=} ;; esac
	done
	unset _w
fi
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
case $JOBS in
''|*[!0-9]*|0*) printf '%s: error: JOBS=%s: must be a positive number of parallel jobs\n' "$(basename "$0")" "$JOBS" >&2; exit 1 ;;
esac
export JOBS
# Stages call make themselves with their own -j; do not inherit the caller's
# jobserver or flags.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The kernel versions the series is made for, one directory of patches
# each (patches/<base>/series).  KVER selects the base of every stage; a
# version matches a base when it is the base or one of its stable updates
# (6.12 matches 6.12 and 6.12.118).
SUPPORTED_BASES="6.12 6.1"
KVER=${KVER:-6.12}
case " $SUPPORTED_BASES " in
*" $KVER "*) ;;
*) printf '%s: error: KVER=%s: the series has a base for Linux %s only (patches/<base>/)\n' \
	"$(basename "$0")" "$KVER" "${SUPPORTED_BASES// /, }" >&2; exit 1 ;;
esac
export KVER
# ARCH selects the guest's architecture for every stage: x86_64 (the
# default; x86 and amd64 mean it too) or arm64 (aarch64), whose compat ABI
# is AArch32 and which is cross-built and booted on QEMU's virt machine
# under TCG.  Everything that differs between them is set here, once.
case ${ARCH:-x86_64} in
x86_64|x86|amd64) ARCH=x86_64 ;;
arm64|aarch64) ARCH=arm64 ;;
*) printf '%s: error: ARCH=%s: the harness builds x86_64 (the default) or arm64 guests\n' \
	"$(basename "$0")" "$ARCH" >&2; exit 1 ;;
esac
export ARCH
if [ "$ARCH" = arm64 ]; then
	ARCH_BASES="6.12 6.1"      # the bases configs/ has the arm64 options of
	ARCH_SUFFIX=-arm64         # build/<base>-arm64, baselines/<base>-arm64
	SRCARCH=arm64              # the kernel's arch/ directory
	KCROSS=aarch64-linux-gnu-  # CROSS_COMPILE of the kernel and the tests
	# The compat vDSO's and the 32-bit (AArch32) tests' compiler.
	KCROSS_COMPAT=arm-linux-gnueabihf-
	KIMAGE_TARGET=Image KIMAGE=arch/arm64/boot/Image
	QEMU_BIN=qemu-system-aarch64 QEMU_PKG=qemu-system-arm
	# TCG emulates an arm64 guest on an x86 host more slowly than an x86
	# one: the default bounds of the guest runs (not those a variable
	# sets) are this many times x86's.
	TIMEOUT_SCALE=3
else
	TIMEOUT_SCALE=1
	ARCH_BASES=$SUPPORTED_BASES
	ARCH_SUFFIX= SRCARCH=x86 KCROSS= KCROSS_COMPAT=
	KIMAGE_TARGET=bzImage KIMAGE=arch/x86/boot/bzImage
	QEMU_BIN=qemu-system-x86_64 QEMU_PKG=qemu-system-x86
fi
case " $ARCH_BASES " in
*" $KVER "*) ;;
*) printf '%s: error: ARCH=%s: configs/ has the %s options for Linux %s only, not for KVER=%s\n' \
	"$(basename "$0")" "$ARCH" "$ARCH" "${ARCH_BASES// /, }" "$KVER" >&2; exit 1 ;;
esac
# The make variables of every build of the guest's kernel (config, image,
# headers): KMAKE=(ARCH=... [CROSS_COMPILE=... CROSS_COMPILE_COMPAT=...]),
# CC comes from setup_ccache.
KMAKE=(ARCH="$ARCH")
[ -z "$KCROSS" ] || KMAKE+=(CROSS_COMPILE="$KCROSS" CROSS_COMPILE_COMPAT="$KCROSS_COMPAT")
# Everything generated for one base goes below build/<base>/ (BUILD_DIR=dir:
# exactly there), so that switching bases never rebuilds the other one;
# another architecture's below build/<base>-<arch>/ (build/6.12-arm64/).
B=${BUILD_DIR:-$ROOT/build/$KVER$ARCH_SUFFIX}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
# The arm64 guest's busybox: Debian's busybox-static for arm64, which
# scripts/deps fetches (apt-get download) and unpacks (dpkg -x) here, never
# installed over the host's (HARNESS_BUSYBOX=FILE: another one).
GUEST_BUSYBOX_DIR=$B/busybox-arm64
GUEST_BUSYBOX=${HARNESS_BUSYBOX:-$GUEST_BUSYBOX_DIR/bin/busybox}
# The upstream selftests' results on the unpatched kernel (make baseline)
# and the seccomp_mask skips a run may have, per base and architecture.
BASELINE_DIR=$ROOT/baselines/$KVER$ARCH_SUFFIX
MASK_SKIPS=$ROOT/baselines/seccomp_mask-skips$ARCH_SUFFIX.txt
# The series of the base (PATCHES=dir: another series directory).
PDIR=${PATCHES:-$ROOT/patches/$KVER}
LINUX=${HARNESS_LINUX:-$B/linux}   # patched copy of the source
OBJ=$B/obj              # O= objects of the patched kernel
KST=$B/kselftest        # installed kselftests
LOGS=$B/logs
STAMPS=$B/stamps
NPROC=$JOBS
PROG=$(basename "$0")

# The config fragments of every kernel the harness builds, merged in this
# order onto tinyconfig: the list lives in configs/fragments only (the
# options of every architecture), then configs/arch-$ARCH.config (the
# architecture's own: console, compat ABI), configs/base-$KVER.config (what
# the base needs in its own option names) and, when it exists,
# configs/base-$KVER-$ARCH.config (the base's options of one architecture).
# base_fragments prints their absolute paths, one a line.
base_fragments() {
	local f
	[ -f "$ROOT/configs/fragments" ] || die "configs/fragments is missing"
	while read -r f; do
		case $f in ''|'#'*) continue ;; esac
		[ -f "$ROOT/configs/$f" ] || die "configs/fragments lists $f, but configs/$f does not exist"
		echo "$ROOT/configs/$f"
	done < "$ROOT/configs/fragments"
	[ -f "$ROOT/configs/arch-$ARCH.config" ] ||
		die "configs/arch-$ARCH.config is missing (the options of ARCH=$ARCH)"
	echo "$ROOT/configs/arch-$ARCH.config"
	[ -f "$ROOT/configs/base-$KVER.config" ] ||
		die "configs/base-$KVER.config is missing (the options of the $KVER base)"
	echo "$ROOT/configs/base-$KVER.config"
	[ ! -f "$ROOT/configs/base-$KVER-$ARCH.config" ] || echo "$ROOT/configs/base-$KVER-$ARCH.config"
}
# arch_fragments FRAGMENT...: each extra fragment (configs/debug.config,
# configs/matrix/NAME.config), each followed by its architecture's part
# NAME-$ARCH.config beside it when there is one (configs/debug-x86_64.config).
arch_fragments() {
	local f
	for f in "$@"; do
		echo "$f"
		[ ! -f "${f%.config}-$ARCH.config" ] || echo "${f%.config}-$ARCH.config"
	done
}
# fragment_arch FRAGMENT: the architectures a fragment is for ("# harness:
# arch x86_64 ..."; none: every one).  fragment_for_arch FRAGMENT: true when
# it is for $ARCH.
fragment_arch() { sed -n 's/^# harness: arch[[:space:]]\{1,\}//p' "$1" | head -n1; }
fragment_for_arch() { local a; a=$(fragment_arch "$1"); [ -z "$a" ] || [[ " $a " == *" $ARCH "* ]]; }

msg()  { printf '%s: %s\n' "$PROG" "$*" >&2; }
note() { printf '%s: notice: %s\n' "$PROG" "$*" >&2; }
die()  { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }

# ensure_build_dir: build/ exists, is writable and has some free space.
ensure_build_dir() {
	local need_mb=${1:-0} avail
	mkdir -p "$B" 2>/dev/null || die "cannot create build directory $B"
	[ -w "$B" ] && touch "$B/.writable" 2>/dev/null ||
		die "build directory $B is not writable"
	mkdir -p "$LOGS" "$STAMPS" 2>/dev/null ||
		die "cannot create $LOGS (disk full or not writable?)"
	if [ "$need_mb" -gt 0 ]; then
		avail=$(df -Pm "$B" | awk 'NR==2 {print $4}')
		[ "${avail:-0}" -ge "$need_mb" ] ||
			die "not enough free disk space in $B: ${avail} MiB free, need ${need_mb} MiB"
	fi
}

# The staleness model (one for every stage): a stage skips its work only
# when its stamp holds the hash of everything it reads -- the content of
# its inputs, the identity of the source tree it is given (tree_id), its own
# script, lib.sh and the compiler's version (stage_id).  Stages never read
# another stage's stamp or log: a tree carries its identity in the file
# .harness-tree-id that the stage which made it wrote (scripts/ksrc for the
# extracted source, scripts/series for the patched copy).
stage_id() {
	cat "$0" "$ROOT/scripts/lib.sh"
	gcc --version 2>/dev/null | head -n1
	if [ -n "$KCROSS" ]; then
		"${KCROSS}gcc" --version 2>/dev/null | head -n1
		"${KCROSS_COMPAT}gcc" --version 2>/dev/null | head -n1
	fi
}
# tree_id DIR: the identity of a kernel source tree.  A tree the harness
# made names itself; a user's KSRC is identified by its git state (commit,
# index, changes), or without git by the size and mtime of every file.
tree_id() {
	local d=$1
	if [ -f "$d/.harness-tree-id" ]; then
		cat "$d/.harness-tree-id"
	elif git -C "$d" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
	     [ "$(git -C "$d" rev-parse --show-toplevel)" = "$(cd "$d" && pwd -P)" ]; then
		git -C "$d" rev-parse HEAD
		git -C "$d" status --porcelain=v1 | hash_stdin
		git -C "$d" diff HEAD | hash_stdin
	else
		(cd "$d" && find . -path ./.git -prune -o -type f -printf '%P %s %T@\n' | LC_ALL=C sort | hash_stdin)
	fi
}
# content_id DIR...: the content of every file below DIR (sorted names).
content_id() {
	local d
	for d in "$@"; do
		[ -e "$d" ] || { echo "missing $d"; continue; }
		(cd "$d" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum)
		(cd "$d" && find . -type l -printf '%P -> %l\n' | LC_ALL=C sort)
	done
}

# stamp_ok NAME HASH: true when the stamp NAME holds HASH.
stamp_ok()    { [ -f "$STAMPS/$1" ] && [ "$(cat "$STAMPS/$1")" = "$2" ]; }
stamp_write() { mkdir -p "$STAMPS"; printf '%s\n' "$2" > "$STAMPS/$1.tmp" && mv "$STAMPS/$1.tmp" "$STAMPS/$1"; }
stamp_clear() { rm -f "$STAMPS/$1"; }

# hash of stdin
hash_stdin() { sha256sum | cut -c1-64; }

# run_logged LOG CMD...: run CMD with its output in LOG (after a first line
# "+ CMD", the exact command, quoted); on failure show the tail of the log
# and a one-line reason.  Disk-full is recognised.
run_logged() {
	local log=$1 rc=0; shift
	printf '+ %s\n' "${*@Q}" > "$log" 2>/dev/null || true
	"$@" >> "$log" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] && return 0
	if grep -q 'No space left on device' "$log" 2>/dev/null; then
		die "disk full while running '$*' (see $log)"
	fi
	tail -n 40 "$log" >&2 || true
	die "'$*' failed with status $rc (whole log: $log)"
}

# ccache: kept under build/ so a fresh clone (CI) works and nothing outside
# build/ is written.  KCC: the guest kernel's compiler (the cross compiler
# for arm64), with ccache.
setup_ccache() {
	if [ "${NO_CCACHE:-0}" != 1 ] && command -v ccache >/dev/null 2>&1; then
		export CCACHE_DIR=${CCACHE_DIR:-$B/ccache}
		export CCACHE_BASEDIR=$B
		export CCACHE_NOHASHDIR=1
		export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
		KCC="ccache ${KCROSS}gcc"
	else
		KCC=${KCROSS}gcc
	fi
}

# check_guest_elves PATH...: every ELF file below PATH is a static executable
# of the guest's architecture (for arm64: AArch64, or ARM for the compat
# ABI's programs); prints " FILE (WHY)" for each one that is not, and
# fails then.
check_guest_elves() {
	local f m ok bad=
	if [ "$ARCH" = arm64 ]; then ok='|AArch64|ARM|'; else ok='|Advanced Micro Devices X86-64|Intel 80386|'; fi
	while IFS= read -r -d '' f; do
		[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
		m=$(LC_ALL=C readelf -h "$f" 2>/dev/null | sed -n 's/^ *Machine: *//p')
		if [ -z "$m" ] || [[ $ok != *"|$m|"* ]]; then
			bad="$bad ${f#"$1"/} (${m:-not readable}: not $ARCH)"
		elif LC_ALL=C readelf -l "$f" 2>/dev/null | grep -c 'program interpreter' >/dev/null; then
			bad="$bad ${f#"$1"/} (dynamically linked)"
		fi
	done < <(find "$@" -type f -print0)
	[ -z "$bad" ] || { printf '%s\n' "$bad"; return 1; }
}
# logname DIR: a log-file stem for a directory under build/ (obj, baseline-obj)
logname() { local r=${1#"$B"/}; echo "${r//\//-}"; }

# The kernel source stage prints the pristine tree; cache it per process.
pristine_src() {
	"$ROOT/scripts/ksrc"
}

# One stage at a time per build directory: several make invocations (two
# terminals, or engineers sharing a checkout) would otherwise build into the
# same O= tree or re-apply the series under each other.  The lock is taken
# once per process tree (stage scripts that run other stages inherit it) and
# released when the stage exits.
if [ -z "${HARNESS_LOCK_HELD:-}" ] && mkdir -p "$B" 2>/dev/null &&
	{ exec 9>>"$B/.harness.lock"; } 2>/dev/null; then
	if ! flock -n 9; then
		note "waiting for another harness stage using $B"
		flock 9
	fi
	export HARNESS_LOCK_HELD=1
fi
