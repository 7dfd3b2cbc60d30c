#!/bin/bash
# ARCH=arm64 (the AArch64 guest with its AArch32 compat ABI) on the host:
# what ARCH selects (build directory, image, cross compilers, QEMU), the
# boot contract on the virt machine with a fake qemu-system-aarch64 (the
# status and job channels are virtio-console ports; every fail-closed case
# of host/boot.sh), the guest's harness-port, the kernel and kselftest
# stages' make commands with a fake make, the initramfs (the arm64
# busybox, only guest ELF files) and that x86_64 stays the default.
. "$(dirname "$0")/common.sh"

# --- what ARCH selects ---------------------------------------------------------
# lib.sh's variables ("HARNESS_LOCK_HELD=1: nothing is created in build/")
libvar() { (unset BUILD_DIR; export HARNESS_LOCK_HELD=1; cd "$ROOT" && . scripts/lib.sh && eval "echo \"$1\"") 2>&1; }
check "arm64: x86_64 is the default; its build directory stays build/<base>" \
	[ "$(libvar '$ARCH $B')" = "x86_64 $ROOT/build/6.12" ]
check "arm64: ARCH=arm64 builds in build/<base>-arm64" [ "$(ARCH=arm64 libvar '$ARCH $B')" = "arm64 $ROOT/build/6.12-arm64" ]
check "arm64: ARCH=aarch64 means arm64, ARCH=x86 and amd64 x86_64" \
	eval '[ "$(ARCH=aarch64 libvar "\$ARCH")" = arm64 ] && [ "$(ARCH=x86 libvar "\$ARCH \$B")" = "x86_64 $ROOT/build/6.12" ] &&
	      [ "$(ARCH=amd64 libvar "\$ARCH")" = x86_64 ]'
check "arm64: the kernel's make variables" \
	[ "$(ARCH=arm64 libvar '${KMAKE[*]} $KIMAGE_TARGET $KIMAGE')" = "ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CROSS_COMPILE_COMPAT=arm-linux-gnueabihf- Image arch/arm64/boot/Image" ]
check "arm64: x86_64's are as before (ARCH=x86_64 only, bzImage)" \
	[ "$(libvar '${KMAKE[*]} $KIMAGE_TARGET $KIMAGE')" = "ARCH=x86_64 bzImage arch/x86/boot/bzImage" ]
check "arm64: ccache wraps the cross compiler" \
	[ "$(ARCH=arm64 libvar '$(command -v ccache >/dev/null && setup_ccache && echo $KCC || echo ccache aarch64-linux-gnu-gcc)')" = "ccache aarch64-linux-gnu-gcc" ]
check "arm64: its baseline and expected skips are its own" \
	[ "$(ARCH=arm64 libvar '$BASELINE_DIR $MASK_SKIPS')" = "$ROOT/baselines/6.12-arm64 $ROOT/baselines/seccomp_mask-skips-arm64.txt" ]
check "arm64: KVER=6.1 ARCH=arm64 has its own build directory and baseline (build/6.1-arm64, baselines/6.1-arm64)" \
	[ "$(KVER=6.1 ARCH=arm64 libvar '$ARCH $B $BASELINE_DIR $MASK_SKIPS')" = "arm64 $ROOT/build/6.1-arm64 $ROOT/baselines/6.1-arm64 $ROOT/baselines/seccomp_mask-skips-arm64.txt" ]
check "arm64: x86_64's baseline and skips stay" \
	[ "$(libvar '$BASELINE_DIR $MASK_SKIPS')" = "$ROOT/baselines/6.12 $ROOT/baselines/seccomp_mask-skips.txt" ]
check "arm64: the Makefile's build directory follows ARCH (make clean)" \
	eval '[[ $(make -s -n --no-print-directory -C "$ROOT" clean ARCH=arm64 BUILD_DIR=) == "rm -rf build/6.12-arm64/obj "* ]] &&
	      [[ $(make -s -n --no-print-directory -C "$ROOT" clean KVER=6.1 ARCH=arm64 BUILD_DIR=) == "rm -rf build/6.1-arm64/obj "* ]] &&
	      [[ $(make -s -n --no-print-directory -C "$ROOT" clean BUILD_DIR=) == "rm -rf build/6.12/obj "* ]]'
check "arm64: make kernel-image's path (build-kernel --print-image)" \
	[ "$(ARCH=arm64 "$ROOT/scripts/build-kernel" --print-image "$TMPD/o")" = "$TMPD/o/arch/arm64/boot/Image" ]

# --- boot on the virt machine (fake qemu-system-aarch64) -----------------------
AOBJ=$TMPD/aobj
AIMG=$AOBJ/arch/arm64/boot/Image
mkdir -p "$(dirname "$AIMG")"
echo 'not a kernel' > "$AIMG"
echo 'CONFIG_SECCOMP_MASK=y' > "$AOBJ/.config"
aboot() { RC=0; ARCH=arm64 FAKE_QEMU_ARGS=$TMPD/qemu.args "$ROOT/scripts/boot" --kernel "$AIMG" --initrd "$INITRD" "$@" > "$TMPD/boot.log" 2>&1 || RC=$?; }
has_args() {	# has_args ARG...: these consecutive arguments were passed to QEMU
	python3 - "$TMPD/qemu.args" "$@" <<'PY'
import sys
args = open(sys.argv[1]).read().split('\n')[:-1]
want = sys.argv[2:]
sys.exit(not any(args[i:i + len(want)] == want for i in range(len(args))))
PY
}
aboot --name a --cmd true
check "arm64 boot: guest status 0 -> exit 0, result 'exit 0'" \
	eval '[ "$RC" = 0 ] && [ "$(cat "$LOGS/a.result")" = "exit 0" ]'
check "arm64 boot: the job output arrives over the virtio port harness.out" grep -q '^ok 1 selftests: seccomp_mask: base_test_64' "$LOGS/a.out"
check "arm64 boot: the status line arrives over the virtio port harness.status" grep -q '^harness-exit 0 [0-9a-f]\{16\}$' "$LOGS/a.status"
check "arm64 boot: the console (ttyAMA0) is logged" grep -q 'Linux version' "$LOGS/a.console.log"
check "arm64 boot: the job names its channels virtio:harness.status and virtio:harness.out" \
	eval '[ "$(cat "$BUILD_DIR/job-a/harness/status")" = virtio:harness.status ] && [ "$(cat "$BUILD_DIR/job-a/harness/out")" = virtio:harness.out ]'
check "arm64 boot: qemu-system-aarch64 -M virt (the .run file has the command)" \
	eval 'grep -q "^qemu .qemu-system-aarch64. .*.-M. .virt. " "$LOGS/a.run" && has_args -M virt'
check "arm64 boot: TCG with -cpu cortex-a72 (AArch32 at EL0), -smp 2 as it is" \
	eval 'has_args -accel tcg -cpu cortex-a72 && has_args -smp 2'
check "arm64 boot: one serial port (the PL011 console), the channels on a virtio-serial device" \
	eval '[ "$(grep -cx -- -serial "$TMPD/qemu.args")" = 1 ] && has_args -device virtio-serial-device,id=vser &&
	      has_args -device virtserialport,bus=vser.0,chardev=status,name=harness.status &&
	      has_args -device virtserialport,bus=vser.0,chardev=out,name=harness.out'
check "arm64 boot: console=ttyAMA0, no x86 parameters" \
	eval 'grep -A1 -x -- -append "$TMPD/qemu.args" | tail -n1 | grep -q "^console=ttyAMA0 panic=-1 " &&
	      ! grep -q "ttyS0\|spec_store_bypass_disable" "$TMPD/qemu.args"'
check "arm64 boot: the default bound is three times x86's (TCG emulates arm64 more slowly)" grep -qx 'timeout 2700' "$LOGS/a.run"
check "arm64 boot: .config next to arch/arm64/boot/Image -> mask required" [ "$(cat "$BUILD_DIR/job-a/harness/mask_required")" = 1 ]
check "arm64 boot: nothing in SECCOMP_MASK_SPEC_SKIP (the spec cases are not built for arm64)" \
	[ ! -s "$BUILD_DIR/job-a/harness/spec_skip" ]
QEMU_CPU=max aboot --name a --cmd true
check "arm64 boot: QEMU_CPU chooses the CPU; nothing to skip either" \
	eval 'has_args -cpu max && [ ! -s "$BUILD_DIR/job-a/harness/spec_skip" ]'
aboot --name a --cmd true --out stdio
check "arm64 boot --out stdio: the output reaches the terminal and the log" \
	eval 'grep -q "^ok 1 selftests" "$TMPD/boot.log" && grep -q "^ok 1 selftests" "$LOGS/a.out"'
check "arm64 boot --out stdio: the port's chardev is a file, never stdio (at stdin's EOF QEMU closes the port and the guest's writes block)" \
	eval 'grep -q "file,id=out,path=" "$LOGS/a.run" && ! grep -q "stdio,id=out" "$LOGS/a.run"'
FAKE_QEMU_STATUS=3 aboot --name a --cmd 'exit 3'
check "arm64 boot: guest status 3 -> exit 3" eval '[ "$RC" = 3 ] && [ "$(cat "$LOGS/a.result")" = "exit 3" ]'
FAKE_QEMU=partial aboot --name a --cmd true
check "arm64 boot: partial TAP, no status -> 125, nostatus" eval '[ "$RC" = 125 ] && [ "$(cat "$LOGS/a.result")" = nostatus ]'
FAKE_QEMU=stale aboot --name a --cmd true
check "arm64 boot: a status line of another run is not taken -> 125" eval '[ "$RC" = 125 ] && [ "$(cat "$LOGS/a.result")" = nostatus ]'
FAKE_QEMU=oops aboot --name a --cmd true
check "arm64 boot: Oops on the console -> 126" [ "$RC" = 126 ]
FAKE_QEMU=early aboot --name a --cmd true
check "arm64 boot: QEMU exits early -> 125 with its error shown" \
	eval '[ "$RC" = 125 ] && grep -q "^qemu: qemu-system-aarch64: " "$TMPD/boot.log"'
# A status written where an x86 guest writes it (ttyS1) is lost here: a
# guest that did not use the job's channel fails closed.
mkdir -p "$TMPD/wrong"
cat > "$TMPD/wrong/qemu-system-aarch64" <<EOF
#!/bin/bash
# The fake, with the job's status channel replaced by an x86 serial port.
for a in "\$@"; do case \$a in *.initrd) echo /dev/ttyS1 > "\${a%.initrd}/harness/status" ;; esac; done
exec "$ROOT/scripts/tests/fake/qemu-system-aarch64" "\$@"
EOF
chmod +x "$TMPD/wrong/qemu-system-aarch64"
PATH=$TMPD/wrong:$PATH aboot --name a --cmd true
check "arm64 boot: a status on a channel the machine does not have is no status -> 125" \
	eval '[ "$RC" = 125 ] && [ "$(cat "$LOGS/a.result")" = nostatus ] && [ ! -s "$LOGS/a.status" ]'
aboot --name a --cmd true
QEMU_ACCEL=kvm aboot --name a --cmd true
check "arm64 boot: QEMU_ACCEL=kvm on this $(uname -m) host -> 125, 'error ...KVM runs an arm64 guest on an arm64 host only'" \
	eval '[ "$(uname -m)" = aarch64 ] || { [ "$RC" = 125 ] && grep -q "^error QEMU_ACCEL=kvm but KVM is unusable: KVM runs an arm64 guest on an arm64 host only" "$LOGS/a.result"; }'
check "arm64 boot: ... the previous run's result and output are gone" eval '[ ! -e "$LOGS/a.out" ]'
ARCH=arm64 "$ROOT/scripts/boot" --name a --cmd true --initrd "$INITRD" > "$TMPD/boot.log" 2>&1 && RC=0 || RC=$?
check "arm64 boot: the default kernel is build/.../arch/arm64/boot/Image (missing here -> 125)" \
	eval '[ "$RC" = 125 ] && grep -q "^error no kernel image $BUILD_DIR/obj/arch/arm64/boot/Image" "$LOGS/a.result"'
# x86_64's boot is untouched by the arm64 fake: ttyS ports, no virtio.
FAKE_QEMU_ARGS=$TMPD/qemu.args boot_fake --name x --cmd true
check "arm64: x86_64's boot keeps three serial ports and ttyS0, and its 900 s bound" \
	eval '[ "$RC" = 0 ] && grep -qx "timeout 900" "$LOGS/x.run" && [ "$(grep -cx -- -serial "$TMPD/qemu.args")" = 3 ] && ! grep -q virtserialport "$TMPD/qemu.args" &&
	      [ "$(cat "$BUILD_DIR/job-x/harness/status")" = /dev/ttyS1 ] && grep -q "^console=ttyS0,115200 " "$TMPD/qemu.args"'

# --- the guest's harness-port ----------------------------------------------------
HP=$ROOT/scripts/guest/harness-port
S=$TMPD/sys D=$TMPD/dev
mkdir -p "$S/class/virtio-ports/vport0p1" "$S/class/virtio-ports/vport0p2" "$D"
echo harness.status > "$S/class/virtio-ports/vport0p1/name"
echo harness.out > "$S/class/virtio-ports/vport0p2/name"
ln -s /dev/null "$D/vport0p1"; ln -s /dev/null "$D/vport0p2"
hp() { HARNESS_SYSFS=$S HARNESS_DEV=$D HARNESS_PORT_WAIT=${W:-3} sh "$HP" "$@"; }
check "harness-port: virtio:NAME is the port QEMU named so" \
	eval '[ "$(hp virtio:harness.status)" = "$D/vport0p1" ] && [ "$(hp virtio:harness.out)" = "$D/vport0p2" ]'
check "harness-port: a serial port is taken as it is" [ "$(hp /dev/ttyS1)" = /dev/ttyS1 ]
check "harness-port: a port QEMU did not name fails (after the wait)" eval '! hp virtio:harness.other >/dev/null'
rm "$D/vport0p2"
check "harness-port: a named port without its device node fails" eval '! hp virtio:harness.out >/dev/null'
( sleep 0.3; ln -s /dev/null "$D/vport0p2" ) &
check "harness-port: a port the driver adds later is waited for" eval '[ "$(W=30 hp virtio:harness.out)" = "$D/vport0p2" ]'
wait
check "harness-port: anything else fails" eval '! hp bogus >/dev/null && ! hp virtio: >/dev/null'

# --- kernel and kselftest stages with a fake make ---------------------------------
F=$TMPD/fakebin
mkdir -p "$F"
cat > "$F/make" <<'SH'
#!/bin/bash
# A fake make: logs its arguments (one line per call), makes the files the
# stage then looks for.
printf '%s\n' "$*" >> "$FAKE_MAKE_LOG"
o= inst= tgt=
for a in "$@"; do
	case $a in O=*) o=${a#O=} ;; INSTALL_PATH=*) inst=${a#INSTALL_PATH=} ;; Image|bzImage|install|headers) tgt=$a ;; esac
done
case $tgt in
Image) mkdir -p "$o/arch/arm64/boot" && echo image > "$o/arch/arm64/boot/Image" ;;
headers) mkdir -p "$o/usr/include/linux" && echo '/* */' > "$o/usr/include/linux/seccomp.h" ;;
install)
	mkdir -p "$inst/seccomp_mask"
	printf '#!/bin/sh\n' > "$inst/run_kselftest.sh"; chmod +x "$inst/run_kselftest.sh"
	printf '%s\n' ${FAKE_KSFT_LIST:-seccomp:seccomp_bpf seccomp_mask:base_test_64 seccomp_mask:base_test_32} > "$inst/kselftest-list.txt"
	[ -z "${FAKE_KSFT_ELF:-}" ] || cp "$FAKE_KSFT_ELF" "$inst/seccomp_mask/base_test_64" ;;
esac
SH
chmod +x "$F/make"
SRC=$TMPD/src
mkdir -p "$SRC/tools/testing/selftests/seccomp_mask" "$SRC/kernel"
echo 'int x;' > "$SRC/kernel/seccomp.c"
mkdir -p "$AOBJ/usr"
export FAKE_MAKE_LOG=$TMPD/make.log
stage() { RC=0; : > "$FAKE_MAKE_LOG"; PATH=$F:$PATH ARCH=arm64 NO_CCACHE=1 "$@" > "$TMPD/stage.log" 2>&1 || RC=$?; }
stage "$ROOT/scripts/build-kernel" "$SRC" "$AOBJ"
check "arm64 build-kernel: make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CROSS_COMPILE_COMPAT=arm-linux-gnueabihf- CC=aarch64-linux-gnu-gcc Image" \
	eval '[ "$RC" = 0 ] && [ "$(cat "$FAKE_MAKE_LOG")" = "-C $SRC O=$AOBJ ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CROSS_COMPILE_COMPAT=arm-linux-gnueabihf- CC=aarch64-linux-gnu-gcc -j$(nproc) Image" ]'
check "arm64 build-kernel: its log starts with the exact command" \
	[ "$(head -qn1 "$LOGS"/kernel-*aobj.log 2>/dev/null)" = "+ 'make' '-C' '$SRC' 'O=$AOBJ' 'ARCH=arm64' 'CROSS_COMPILE=aarch64-linux-gnu-' 'CROSS_COMPILE_COMPAT=arm-linux-gnueabihf-' 'CC=aarch64-linux-gnu-gcc' '-j$(nproc)' 'Image'" ]
stage "$ROOT/scripts/build-tests" "$SRC" "$AOBJ" "$TMPD/kst"
check "arm64 build-tests: the arm64 headers, then the arm ones for the compat programs" \
	eval '[ "$RC" = 0 ] && grep -qx -- "-C $SRC O=$AOBJ ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CROSS_COMPILE_COMPAT=arm-linux-gnueabihf- -j$(nproc) headers" "$FAKE_MAKE_LOG" &&
	      grep -qx -- "-C $SRC O=$AOBJ/compat-headers ARCH=arm -j$(nproc) headers" "$FAKE_MAKE_LOG"'
check "arm64 build-tests: the kselftests cross-built statically, KHDR_INCLUDES_COMPAT for the AArch32 ones" \
	grep -qx -- "-C $SRC/tools/testing/selftests O=$AOBJ ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CROSS_COMPILE_COMPAT=arm-linux-gnueabihf- TARGETS=seccomp seccomp_mask KHDR_INCLUDES=-isystem $AOBJ/usr/include KHDR_INCLUDES_COMPAT=-isystem $AOBJ/compat-headers/usr/include USERLDFLAGS=-static -j$(nproc) install INSTALL_PATH=$TMPD/kst" "$FAKE_MAKE_LOG"
FORCE=1 FAKE_KSFT_ELF=/bin/true stage "$ROOT/scripts/build-tests" "$SRC" "$AOBJ" "$TMPD/kst"
check "arm64 build-tests: a host program among the tests fails the stage, named" \
	eval '[ "$RC" = 1 ] && grep -q "not a static arm64 guest program: seccomp_mask/base_test_64 (Advanced Micro Devices X86-64: not arm64)" "$TMPD/stage.log"'
FORCE=1 FAKE_KSFT_LIST="seccomp:seccomp_bpf seccomp_mask:base_test_64" stage "$ROOT/scripts/build-tests" "$SRC" "$AOBJ" "$TMPD/kst"
check "arm64 build-tests: no _32 programs (no AArch32 compiler) fails the stage" \
	eval '[ "$RC" = 1 ] && grep -q "no seccomp_mask _32 programs were built" "$TMPD/stage.log"'

# --- the initramfs: the arm64 busybox, guest programs only -----------------------
if command -v aarch64-linux-gnu-gcc >/dev/null && command -v arm-linux-gnueabihf-gcc >/dev/null; then
	echo 'int main(void) { return 0; }' > "$TMPD/t.c"
	aarch64-linux-gnu-gcc -static -o "$TMPD/busybox64" "$TMPD/t.c" &&
	arm-linux-gnueabihf-gcc -static -o "$TMPD/prog32" "$TMPD/t.c" || fail "arm64 initramfs: cannot build the test programs"
	K=$TMPD/ksft
	mkdir -p "$K/seccomp_mask"
	printf '#!/bin/sh\n' > "$K/run_kselftest.sh"; chmod +x "$K/run_kselftest.sh"
	echo seccomp_mask:base_test_32 > "$K/kselftest-list.txt"
	cp "$TMPD/prog32" "$K/seccomp_mask/base_test_32"
	echo x86 > "$TMPD/x86-file"; echo arm > "$TMPD/arm-file"
	printf '%s\n' "$TMPD/x86-file /x86-only 644 arch=x86_64" "$TMPD/arm-file /arm-only 644 arch=x86_64,arm64" \
		"$TMPD/arm-file /both" > "$TMPD/manifest"
	ir() { RC=0; ARCH=arm64 HARNESS_BUSYBOX=$TMPD/busybox64 GUEST_FILES=$TMPD/manifest "$ROOT/scripts/initramfs" "$K" "$TMPD/ir.cpio.gz" > "$TMPD/ir.log" 2>&1 || RC=$?; }
	ir
	list=$(zcat "$TMPD/ir.cpio.gz" 2>/dev/null | cpio -t --quiet 2>/dev/null)
	check "arm64 initramfs: built with the arm64 busybox as /bin/busybox and /bin/sh" \
		eval '[ "$RC" = 0 ] && grep -qx "bin/busybox" <<<"$list" && grep -qx "bin/sh" <<<"$list" && ! grep -qx "bin/mount" <<<"$list"'
	check "arm64 initramfs: /init and its harness-port" eval 'grep -qx init <<<"$list" && grep -qx usr/bin/harness-port <<<"$list"'
	check "arm64 initramfs: a guest file marked arch=x86_64 is left out, arch=...,arm64 and unmarked ones are in" \
		eval '! grep -qx x86-only <<<"$list" && grep -qx arm-only <<<"$list" && grep -qx both <<<"$list"'
	cp /bin/true "$K/seccomp_mask/hostprog"
	ir
	check "arm64 initramfs: a host program in the image fails it, named" \
		eval '[ "$RC" = 1 ] && grep -q "kselftest/seccomp_mask/hostprog (Advanced Micro Devices X86-64: not arm64)" "$TMPD/ir.log"'
	rm "$K/seccomp_mask/hostprog"
	RC=0; ARCH=arm64 HARNESS_BUSYBOX=$(command -v busybox) "$ROOT/scripts/initramfs" "$K" "$TMPD/ir.cpio.gz" > "$TMPD/ir.log" 2>&1 || RC=$?
	check "arm64 initramfs: the host's busybox is refused" \
		eval '[ "$RC" = 1 ] && grep -q "is not a static arm64 busybox" "$TMPD/ir.log"'
	RC=0; ARCH=arm64 "$ROOT/scripts/initramfs" "$K" "$TMPD/ir.cpio.gz" > "$TMPD/ir.log" 2>&1 || RC=$?
	check "arm64 initramfs: without scripts/deps' busybox it fails, saying so" \
		eval '[ "$RC" = 1 ] && grep -q "no arm64 busybox $BUILD_DIR/busybox-arm64/bin/busybox: run scripts/deps" "$TMPD/ir.log"'
	RC=0; HARNESS_BUSYBOX=$TMPD/busybox64 GUEST_FILES=$TMPD/manifest "$ROOT/scripts/initramfs" "$K" "$TMPD/ir.cpio.gz" > "$TMPD/ir.log" 2>&1 || RC=$?
	list=$(zcat "$TMPD/ir.cpio.gz" 2>/dev/null | cpio -t --quiet 2>/dev/null)
	check "arm64: x86_64's initramfs keeps the host busybox's links and the x86_64 guest files" \
		eval '[ "$RC" = 0 ] && grep -qx "bin/mount" <<<"$list" && grep -qx x86-only <<<"$list" && grep -qx arm-only <<<"$list"'
else
	skip "arm64 initramfs: no aarch64-linux-gnu-gcc or arm-linux-gnueabihf-gcc to make guest programs with"
fi
finish
