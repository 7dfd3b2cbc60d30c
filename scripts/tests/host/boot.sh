#!/bin/bash
# scripts/boot with a fake QEMU: the result file and the exit status for
# every way a guest run can end (the contract in scripts/boot's header).
. "$(dirname "$0")/common.sh"

boot_fake --name t --cmd true
check "boot: guest status 0 -> exit 0" [ "$RC" = 0 ]
check "boot: result 'exit 0'" [ "$(cat "$LOGS/t.result")" = "exit 0" ]
check "boot: job output arrives" grep -q '^ok 1 selftests: seccomp_mask: base_test_64' "$LOGS/t.out"
check "boot: .config with CONFIG_SECCOMP_MASK=y -> mask required" [ "$(cat "$BUILD_DIR/job-t/harness/mask_required")" = 1 ]

boot_fake --name t --cmd true --out stdio
check "boot --out stdio (make run CMD=): the output reaches the terminal and the log" \
	eval 'grep -q "^ok 1 selftests" "$TMPD/boot.log" && grep -q "^ok 1 selftests" "$LOGS/t.out"'

FAKE_QEMU_STATUS=3 boot_fake --name t --cmd 'exit 3'
check "boot: guest status 3 -> exit 3" [ "$RC" = 3 ]
check "boot: result 'exit 3'" [ "$(cat "$LOGS/t.result")" = "exit 3" ]

HARNESS_MASK_REQUIRED=0 boot_fake --name t --cmd true
check "boot: HARNESS_MASK_REQUIRED=0 overrides the .config" [ "$(cat "$BUILD_DIR/job-t/harness/mask_required")" = 0 ]
echo '# CONFIG_SECCOMP_MASK is not set' > "$KOBJ/.config"
boot_fake --name t --cmd true
check "boot: CONFIG_SECCOMP_MASK unset -> not required" [ "$(cat "$BUILD_DIR/job-t/harness/mask_required")" = 0 ]
HARNESS_MASK_REQUIRED=1 boot_fake --name t --cmd true
check "boot: HARNESS_MASK_REQUIRED=1 forces it" [ "$(cat "$BUILD_DIR/job-t/harness/mask_required")" = 1 ]
HARNESS_MASK_REQUIRED=yes boot_fake --name t --cmd true
check "boot: HARNESS_MASK_REQUIRED=yes is refused (125)" [ "$RC" = 125 ]
check "boot: ... with an 'error' result" grep -q '^error HARNESS_MASK_REQUIRED must be 1 or 0' "$LOGS/t.result"
echo 'CONFIG_SECCOMP_MASK=y' > "$KOBJ/.config"

FAKE_QEMU=early boot_fake --name t --cmd true
check "boot: QEMU exits early -> 125" [ "$RC" = 125 ]
check "boot: ... result nostatus" [ "$(cat "$LOGS/t.result")" = nostatus ]
check "boot: ... QEMU's error is shown" grep -q '^qemu: qemu-system-x86_64: -accel kvm' "$TMPD/boot.log"

FAKE_QEMU=partial boot_fake --name t --cmd true
check "boot: partial TAP, no status -> 125" [ "$RC" = 125 ]

FAKE_QEMU=stale boot_fake --name t --cmd true
check "boot: a status line of another run is not taken -> 125" [ "$RC" = 125 ]
check "boot: ... result nostatus" [ "$(cat "$LOGS/t.result")" = nostatus ]

FAKE_QEMU=oops boot_fake --name t --cmd true
check "boot: Oops on the console -> 126" [ "$RC" = 126 ]

start=$(date +%s)
FAKE_QEMU=hang FAKE_QEMU_PIDS=$TMPD/pids boot_fake --name t --cmd true --timeout 2
check "boot: hang -> 124 after the timeout" [ "$RC" = 124 ]
check "boot: ... result 'timeout 2'" [ "$(cat "$LOGS/t.result")" = "timeout 2" ]
check "boot: ... within 60 s (not the 300 s QEMU would hang; slack for a loaded host)" [ $(( $(date +%s) - start )) -le 60 ]
check "boot: ... QEMU and its child are gone" eval '! alive "$TMPD/pids"'

boot_fake --name t --cmd true
QEMU_ACCEL=bogus boot_fake --name t --cmd true
check "boot: bad QEMU_ACCEL -> 125" [ "$RC" = 125 ]
check "boot: ... the previous run's result and output are gone" \
	eval '[ "$(cat "$LOGS/t.result")" != "exit 0" ] && [ ! -e "$LOGS/t.out" ]'
boot_fake --name t --cmd true --kernel "$TMPD/no-such-image"
check "boot: missing kernel image -> 125 with an 'error' result" \
	eval '[ "$RC" = 125 ] && grep -q "^error no kernel image" "$LOGS/t.result"'
if ! [ -r /dev/kvm ] || ! [ -w /dev/kvm ]; then
	boot_fake --name t --cmd true
	QEMU_ACCEL=kvm boot_fake --name t --cmd true
	check "boot: QEMU_ACCEL=kvm without KVM -> 125, result 'error ...KVM is unusable'" \
		eval '[ "$RC" = 125 ] && grep -q "^error QEMU_ACCEL=kvm but KVM is unusable" "$LOGS/t.result"'
fi
finish
