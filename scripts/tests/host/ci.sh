#!/bin/bash
# .ci/run installs the packages of every part first (make deps), then sums
# the summaries of make check, make check KVER=6.1 when CI_KVER_61=1, make
# check ARCH=arm64 (these two without the harness self-tests, which the
# first ran), make check KVER=6.1 ARCH=arm64 when CI_KVER_61_ARM64=1, and make
# check-debug with shorter windows (fake make); each part's time and the
# whole run's are reported.
. "$(dirname "$0")/common.sh"
unset CI_KVER_61 CI_ARM64 CI_CHECK_DEBUG CI_KVER_61_ARM64
mkdir -p "$TMPD/bin"
# The fake make: the output and status of `make TARGET [VAR=VALUE...]` are
# $FAKE_MAKE_DIR/TARGET[-VAR=VALUE...].txt and .rc.
cat > "$TMPD/bin/make" <<'MK'
#!/bin/bash
n=$(IFS=-; echo "$*" | sed -e 's/-HARNESS_SELF_TESTS=0//' -e 's/-DEBUG_[A-Z_]*=[0-9]*//g')
echo "$*" >> "$FAKE_MAKE_DIR/calls"
[ "$1 $2" != "-s deps" ] || exit 0
cat "$FAKE_MAKE_DIR/$n.txt"; exit "$(cat "$FAKE_MAKE_DIR/$n.rc")"
MK
chmod +x "$TMPD/bin/make"
export FAKE_MAKE_DIR=$TMPD
# the debug part's windows, as .ci/run passes them
dw='DEBUG_FUZZ_SECONDS=20 DEBUG_LIFETIME_SECONDS=40 DEBUG_STRESS_SECONDS=15'
ci() {	# ci CHECK_OUT CHECK_RC CHECK61_OUT CHECK61_RC DEBUG_OUT DEBUG_RC [ARM64_OUT ARM64_RC [ARM64_61_OUT ARM64_61_RC]]: sets RC, LAST
	printf '%b' "$1" > "$TMPD/check.txt"; echo "$2" > "$TMPD/check.rc"
	printf '%b' "$3" > "$TMPD/check-KVER=6.1.txt"; echo "$4" > "$TMPD/check-KVER=6.1.rc"
	printf '%b' "$5" > "$TMPD/check-debug.txt"; echo "$6" > "$TMPD/check-debug.rc"
	# (the arm64 part adds nothing unless given)
	printf '%b' "${7:-0 passed, 0 failed, 0 skipped\n}" > "$TMPD/check-ARCH=arm64.txt"; echo "${8:-0}" > "$TMPD/check-ARCH=arm64.rc"
	# (so does the 6.1 arm64 part)
	printf '%b' "${9:-0 passed, 0 failed, 0 skipped\n}" > "$TMPD/check-KVER=6.1-ARCH=arm64.txt"; echo "${10:-0}" > "$TMPD/check-KVER=6.1-ARCH=arm64.rc"
	rm -f "$TMPD/calls"
	RC=0; PATH=$TMPD/bin:$PATH "$ROOT/.ci/run" > "$TMPD/ci.out" 2>&1 || RC=$?
	LAST=$(tail -n1 "$TMPD/ci.out")
}
ci 'x\n355 passed, 0 failed, 15 skipped\n' 0 '340 passed, 0 failed, 14 skipped\n' 0 '176 passed, 0 failed, 8 skipped\n' 0 '300 passed, 0 failed, 20 skipped\n' 0 '290 passed, 0 failed, 21 skipped\n' 0
check "ci: by default, make check, make check ARCH=arm64 and make check-debug, summed ($LAST)" eval '[ "$RC" = 0 ] && [ "$LAST" = "831 passed, 0 failed, 43 skipped" ]'
check "ci: ... the packages of both bases and of arm64 first, then the parts in that order, check-debug with its windows" \
	eval '[ "$(paste -s -d, "$TMPD/calls")" = "-s deps KVER=6.1,-s deps ARCH=arm64,check,check ARCH=arm64 HARNESS_SELF_TESTS=0,check-debug $dw" ]'
# CI_KVER_61=1 adds part 2 (the summing checks below run with it).
export CI_KVER_61=1
ci 'x\n355 passed, 0 failed, 15 skipped\n' 0 '340 passed, 0 failed, 14 skipped\n' 0 '176 passed, 0 failed, 8 skipped\n' 0 '300 passed, 0 failed, 20 skipped\n' 0 '290 passed, 0 failed, 21 skipped\n' 0
check "ci: CI_KVER_61=1: four green parts are summed, exit 0 ($LAST)" eval '[ "$RC" = 0 ] && [ "$LAST" = "1171 passed, 0 failed, 57 skipped" ]'
check "ci: ... the packages first, then make check (with the self-tests), make check KVER=6.1 and ARCH=arm64 (without), make check-debug, in that order" \
	eval '[ "$(paste -s -d, "$TMPD/calls")" = "-s deps KVER=6.1,-s deps ARCH=arm64,check,check KVER=6.1 HARNESS_SELF_TESTS=0,check ARCH=arm64 HARNESS_SELF_TESTS=0,check-debug $dw" ]'
check "ci: ... each part named in the report" \
	eval 'grep -q "^ci: make check: 355 passed" "$TMPD/ci.out" && grep -q "^ci: make check KVER=6.1 HARNESS_SELF_TESTS=0: 340 passed" "$TMPD/ci.out" &&
	      grep -q "^ci: make check ARCH=arm64 HARNESS_SELF_TESTS=0: 300 passed" "$TMPD/ci.out" &&
	      grep -q "^ci: make check-debug $dw: 176 passed, .*(exit 0, [0-9]* s)$" "$TMPD/ci.out" &&
	      grep -q "^ci: [0-9]* s in all, the packages included$" "$TMPD/ci.out"'
export CI_KVER_61_ARM64=1
ci 'x\n355 passed, 0 failed, 15 skipped\n' 0 '340 passed, 0 failed, 14 skipped\n' 0 '176 passed, 0 failed, 8 skipped\n' 0 '300 passed, 0 failed, 20 skipped\n' 0 '290 passed, 0 failed, 21 skipped\n' 0
check "ci: CI_KVER_61_ARM64=1 adds make check KVER=6.1 ARCH=arm64 ($LAST)" \
	eval '[ "$RC" = 0 ] && [ "$LAST" = "1461 passed, 0 failed, 78 skipped" ] &&
	      [ "$(paste -s -d, "$TMPD/calls")" = "-s deps KVER=6.1,-s deps ARCH=arm64,check,check KVER=6.1 HARNESS_SELF_TESTS=0,check ARCH=arm64 HARNESS_SELF_TESTS=0,check KVER=6.1 ARCH=arm64 HARNESS_SELF_TESTS=0,check-debug $dw" ]'
ci '1 passed, 0 failed, 0 skipped\n' 0 '2 passed, 0 failed, 0 skipped\n' 0 '3 passed, 0 failed, 0 skipped\n' 0 '4 passed, 0 failed, 0 skipped\n' 0 'no guest\n' 2
check "ci: a 6.1 arm64 part without a summary counts as 1 failed ($LAST)" eval '[ "$RC" = 1 ] && [ "$LAST" = "10 passed, 1 failed, 0 skipped" ]'
rm -f "$TMPD/calls"; RC=0; CI_ARM64=0 PATH=$TMPD/bin:$PATH "$ROOT/.ci/run" > "$TMPD/ci.out" 2>&1 || RC=$?
check "ci: CI_ARM64=0 leaves out both arm64 parts" eval '[ "$RC" = 0 ] && [ "$(paste -s -d, "$TMPD/calls")" = "-s deps KVER=6.1,check,check KVER=6.1 HARNESS_SELF_TESTS=0,check-debug $dw" ]'
rm -f "$TMPD/calls"; RC=0; CI_KVER_61=0 CI_KVER_61_ARM64=0 PATH=$TMPD/bin:$PATH "$ROOT/.ci/run" > "$TMPD/ci.out" 2>&1 || RC=$?
check "ci: CI_KVER_61=0 leaves out part 2, not the 6.1 source" eval '[ "$RC" = 0 ] && [ "$(paste -s -d, "$TMPD/calls")" = "-s deps KVER=6.1,-s deps ARCH=arm64,check,check ARCH=arm64 HARNESS_SELF_TESTS=0,check-debug $dw" ]'
ci '1 passed, 0 failed, 0 skipped\n' 0 '2 passed, 0 failed, 0 skipped\n' 0 '3 passed, 0 failed, 0 skipped\n' 0 '4 passed, 5 failed, 0 skipped\n' 2
check "ci: a failure in the arm64 part fails the sum ($LAST)" eval '[ "$RC" = 1 ] && [ "$LAST" = "10 passed, 5 failed, 0 skipped" ]'
ci '1 passed, 0 failed, 0 skipped\n' 0 '2 passed, 0 failed, 0 skipped\n' 0 '3 passed, 0 failed, 0 skipped\n' 0 'no guest\n' 2
check "ci: an arm64 part without a summary counts as 1 failed ($LAST)" eval '[ "$RC" = 1 ] && [ "$LAST" = "6 passed, 1 failed, 0 skipped" ]'
rm -f "$TMPD/calls"; RC=0; CI_ARM64=0 CI_KVER_61=0 CI_CHECK_DEBUG=0 PATH=$TMPD/bin:$PATH "$ROOT/.ci/run" > "$TMPD/ci.out" 2>&1 || RC=$?
check "ci: CI_ARM64=0 CI_KVER_61=0 CI_CHECK_DEBUG=0 run make check only" eval '[ "$RC" = 0 ] && [ "$(paste -s -d, "$TMPD/calls")" = "-s deps KVER=6.1,check" ]'
rm -f "$TMPD/calls"
ci '10 passed, 2 failed, 1 skipped\n' 2 '7 passed, 0 failed, 0 skipped\n' 0 '5 passed, 0 failed, 0 skipped\n' 0
check "ci: a failure in one part fails the sum ($LAST)" eval '[ "$RC" = 1 ] && [ "$LAST" = "22 passed, 2 failed, 1 skipped" ]'
ci '10 passed, 0 failed, 1 skipped\n' 0 '7 passed, 3 failed, 0 skipped\n' 2 '5 passed, 0 failed, 0 skipped\n' 0
check "ci: a failure in the 6.1 part fails the sum ($LAST)" eval '[ "$RC" = 1 ] && [ "$LAST" = "22 passed, 3 failed, 1 skipped" ]'
ci 'build failed\n' 2 '4 passed, 0 failed, 0 skipped\n' 0 '5 passed, 0 failed, 0 skipped\n' 0
check "ci: a part without a summary counts as 1 failed ($LAST)" eval '[ "$RC" = 1 ] && [ "$LAST" = "9 passed, 1 failed, 0 skipped" ]'
ci '3 passed, 0 failed, 0 skipped\n' 0 '4 passed, 0 failed, 0 skipped\n' 2 '5 passed, 0 failed, 0 skipped\n' 0
check "ci: a failed make with 0 failed counts as 1 failed ($LAST)" eval '[ "$RC" = 1 ] && [ "$LAST" = "12 passed, 1 failed, 0 skipped" ]'
ci '1 passed, 0 failed, 0 skipped\nlater: 7 passed, 0 failed, 0 skipped\n2 passed, 0 failed, 0 skipped\n' 0 '3 passed, 0 failed, 0 skipped\n' 0 '' 0
check "ci: the last summary line of a part counts ($LAST)" eval '[ "$LAST" = "5 passed, 1 failed, 0 skipped" ]'
check "ci: its logs go to BUILD_DIR" [ -f "$BUILD_DIR/logs/ci-check.out" ]
check "ci: ... one per part" eval '[ -f "$BUILD_DIR/logs/ci-check-KVER-6.1.out" ] && [ -f "$BUILD_DIR/logs/ci-check-ARCH-arm64.out" ] &&
	[ -f "$BUILD_DIR/logs/ci-check-KVER-6.1-ARCH-arm64.out" ] && [ -f "$BUILD_DIR/logs/ci-check-debug.out" ]'
finish
