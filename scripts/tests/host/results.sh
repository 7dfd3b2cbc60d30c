#!/bin/bash
# Fail closed: scripts/run-tests (make check's guest run) never reports an
# earlier run's results, and every guest run that does not end with the
# guest's own status fails with one clear line.  check-unpatched's verdicts.
. "$(dirname "$0")/common.sh"
rt() { RC=0; "$ROOT/scripts/run-tests" --name check --kernel "$KIMG" --initrd "$INITRD" \
	--baseline none > "$TMPD/rt.out" 2> "$TMPD/rt.err" || RC=$?; }

rt
check "run-tests: a green run passes" eval '[ "$RC" = 0 ] && [ "$(tail -n1 "$TMPD/rt.out")" = "1 passed, 0 failed, 0 skipped" ]'
cp -a "$LOGS" "$TMPD/green-logs"
for how in "FAKE_QEMU=early:did not report|without reporting" "FAKE_QEMU=hang CHECK_TIMEOUT=1:timed out" \
	   "FAKE_QEMU=partial:without reporting" "FAKE_QEMU=stale:without reporting" \
	   "QEMU_ACCEL=bogus:was not started: QEMU_ACCEL must be" "FAKE_QEMU=oops:kernel problem"; do
	envs=${how%%:*} want=${how#*:}
	rm -rf "$LOGS"; cp -a "$TMPD/green-logs" "$LOGS"	# the green run's results are there
	env $envs "$ROOT/scripts/run-tests" --name check --kernel "$KIMG" --initrd "$INITRD" \
		--baseline none > "$TMPD/rt.out" 2> "$TMPD/rt.err"; RC=$?
	check "run-tests after a green run, $envs: fails" [ "$RC" != 0 ]
	check "run-tests after a green run, $envs: no old result" eval '! grep -q "^1 passed, 0 failed" "$TMPD/rt.out"'
	check "run-tests after a green run, $envs: one FAIL line says why" grep -Eq "^FAIL .*($want)" "$TMPD/rt.out"
done
# A skip of a seccomp_mask test not in baselines/seccomp_mask-skips.txt fails.
printf '%s\n' 'TAP version 13' '1..1' '# selftests: seccomp_mask: base_test_64' '# TAP version 13' '# 1..1' \
	'# ok 1 base.install # SKIP mask mode not supported' 'ok 1 selftests: seccomp_mask: base_test_64' > "$TMPD/skip.tap"
FAKE_QEMU_OUT=$TMPD/skip.tap rt
check "run-tests: an unexpected seccomp_mask skip fails make check" \
	eval '[ "$RC" != 0 ] && grep -q "^FAIL seccomp_mask:base_test_64:base.install: unexpected skip" "$TMPD/rt.out"'

# check-unpatched: OK only when seccomp_mask tests fail; passes are listed.
cu() { RC=0; "$ROOT/scripts/check-unpatched" --kernel "$KIMG" --initrd "$INITRD" > "$TMPD/cu.out" 2>&1 || RC=$?; }
printf '%s\n' 'TAP version 13' '1..2' '# selftests: seccomp_mask: base_test_64' '# TAP version 13' '# 1..2' \
	'# not ok 1 base.install' '# ok 2 base.other' 'not ok 1 selftests: seccomp_mask: base_test_64 # exit=1' \
	'# selftests: seccomp_mask: seccomp_mask_benchmark_64' '# TAP version 13' '# 1..2' '# not ok 1 a' '# not ok 2 b' \
	'not ok 2 selftests: seccomp_mask: seccomp_mask_benchmark_64 # exit=1' > "$TMPD/unp.tap"
FAKE_QEMU_OUT=$TMPD/unp.tap FAKE_QEMU_STATUS=1 cu
check "check-unpatched: failing mask tests -> OK (exit 0)" [ "$RC" = 0 ]
check "check-unpatched: the guest was told SECCOMP_MASK_REQUIRED=1" [ "$(cat "$BUILD_DIR/job-check-unpatched/harness/mask_required")" = 1 ]
check "check-unpatched: counts (benchmark = one result), passes listed" \
	eval 'grep -q "^  PASS seccomp_mask:base_test_64:base.other" "$TMPD/cu.out" &&
	      [ "$(tail -n1 "$TMPD/cu.out")" = "check-unpatched: OK: 2 of 3 seccomp_mask tests failed on the unpatched kernel (2 of 2 programs), 1 passed, 0 skipped" ]'
cu
check "check-unpatched: mask tests that pass -> FAIL (exit 1)" \
	eval '[ "$RC" = 1 ] && tail -n1 "$TMPD/cu.out" | grep -q "^check-unpatched: FAIL: 0 of 1 seccomp_mask tests failed"'
FAKE_QEMU=early cu
check "check-unpatched: a guest without status proves nothing -> FAIL" \
	eval '[ "$RC" = 1 ] && tail -n1 "$TMPD/cu.out" | grep -q "^check-unpatched: FAIL: the guest run did not complete (nostatus"'
# scripts/guest-run returns the guest command's own status (make run can't).
mkdir -p "$TMPD/bin" "$BUILD_DIR/obj/arch/x86/boot"
printf '#!/bin/sh\nexit 0\n' > "$TMPD/bin/make"; chmod +x "$TMPD/bin/make"
cp "$KIMG" "$BUILD_DIR/obj/arch/x86/boot/bzImage"; cp "$INITRD" "$BUILD_DIR/initramfs.cpio.gz"
RC=0; PATH=$TMPD/bin:$PATH FAKE_QEMU_STATUS=3 "$ROOT/scripts/guest-run" 'exit 3' > /dev/null 2>&1 || RC=$?
check "guest-run: exits with the command's status (3)" [ "$RC" = 3 ]
RC=0; PATH=$TMPD/bin:$PATH FAKE_QEMU=early "$ROOT/scripts/guest-run" true > /dev/null 2>&1 || RC=$?
check "guest-run: a guest without status -> 125" [ "$RC" = 125 ]
finish
