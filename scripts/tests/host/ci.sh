#!/bin/bash
# .ci/run sums the summaries of make check and make check-debug (fake make).
. "$(dirname "$0")/common.sh"
mkdir -p "$TMPD/bin"
cat > "$TMPD/bin/make" <<'MK'
#!/bin/bash
cat "$FAKE_MAKE_DIR/$1.txt"; exit "$(cat "$FAKE_MAKE_DIR/$1.rc")"
MK
chmod +x "$TMPD/bin/make"
export FAKE_MAKE_DIR=$TMPD
ci() {	# ci CHECK_OUT CHECK_RC DEBUG_OUT DEBUG_RC: sets RC, LAST
	printf '%b' "$1" > "$TMPD/check.txt"; echo "$2" > "$TMPD/check.rc"
	printf '%b' "$3" > "$TMPD/check-debug.txt"; echo "$4" > "$TMPD/check-debug.rc"
	RC=0; PATH=$TMPD/bin:$PATH "$ROOT/.ci/run" > "$TMPD/ci.out" 2>&1 || RC=$?
	LAST=$(tail -n1 "$TMPD/ci.out")
}
ci 'x\n355 passed, 0 failed, 15 skipped\n' 0 '176 passed, 0 failed, 8 skipped\n' 0
check "ci: two green parts are summed, exit 0 ($LAST)" eval '[ "$RC" = 0 ] && [ "$LAST" = "531 passed, 0 failed, 23 skipped" ]'
ci '10 passed, 2 failed, 1 skipped\n' 2 '5 passed, 0 failed, 0 skipped\n' 0
check "ci: a failure in one part fails the sum ($LAST)" eval '[ "$RC" = 1 ] && [ "$LAST" = "15 passed, 2 failed, 1 skipped" ]'
ci 'build failed\n' 2 '5 passed, 0 failed, 0 skipped\n' 0
check "ci: a part without a summary counts as 1 failed ($LAST)" eval '[ "$RC" = 1 ] && [ "$LAST" = "5 passed, 1 failed, 0 skipped" ]'
ci '3 passed, 0 failed, 0 skipped\n' 2 '5 passed, 0 failed, 0 skipped\n' 0
check "ci: a failed make with 0 failed counts as 1 failed ($LAST)" eval '[ "$RC" = 1 ] && [ "$LAST" = "8 passed, 1 failed, 0 skipped" ]'
ci '1 passed, 0 failed, 0 skipped\nlater: 7 passed, 0 failed, 0 skipped\n2 passed, 0 failed, 0 skipped\n' 0 '' 0
check "ci: the last summary line of a part counts ($LAST)" eval '[ "$LAST" = "2 passed, 1 failed, 0 skipped" ]'
check "ci: its logs go to BUILD_DIR" [ -f "$BUILD_DIR/logs/ci-check.out" ]
finish
