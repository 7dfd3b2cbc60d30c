#!/bin/bash
# Ctrl-C at any stage stops the whole run within 2 s, kills QEMU and its
# children, releases the build directory's lock and leaves no temp dir.
. "$(dirname "$0")/common.sh"
CC=$ROOT/scripts/tests/host/ctrl-c.py

# make -> scripts/run-tests -> scripts/boot -> (fake) QEMU that hangs
printf 't:\n\t@%s/scripts/run-tests --name sig --kernel %s --initrd %s\n' "$ROOT" "$KIMG" "$INITRD" > "$TMPD/Makefile"
out=$(FAKE_QEMU=hang FAKE_QEMU_PIDS=$TMPD/pids python3 "$CC" "$TMPD/pids" "$TMPD/sig.log" make -s -C "$TMPD" t)
check "Ctrl-C during a guest run: the fake QEMU was running" [ -s "$TMPD/pids" ]
read -r _ rc secs <<<"$out"
check "Ctrl-C during a guest run: make ends (exit $rc)" [ "$rc" != hung ]
check "Ctrl-C during a guest run: within 2 s (took $secs s)" python3 -c "import sys; sys.exit(not $secs <= 2)" 2>/dev/null
check "Ctrl-C during a guest run: QEMU and its children are killed" eval '! alive "$TMPD/pids"'
check "Ctrl-C during a guest run: the lock is free" flock -n "$BUILD_DIR/.harness.lock" true
check "Ctrl-C during a guest run: no summary line claims a result" eval '! grep -q "passed, 0 failed" "$TMPD/sig.log"'
check "Ctrl-C during a guest run: no temp dir left" eval '[ -z "$(ls -A "$TMPDIR")" ]'
rm -f "$TMPD/pids"

# SIGTERM to scripts/boot alone (a CI runner's kill) also stops QEMU.
FAKE_QEMU=hang FAKE_QEMU_PIDS=$TMPD/pids "$ROOT/scripts/boot" --kernel "$KIMG" --initrd "$INITRD" \
	--name term --cmd true > /dev/null 2>&1 &
bp=$!
for _ in $(seq 50); do [ -s "$TMPD/pids" ] && break; sleep 0.1; done
sleep 0.3
kill -TERM $bp; wait $bp; rc=$?
check "SIGTERM to boot: it dies of it (exit $rc)" [ "$rc" -ge 128 ]
check "SIGTERM to boot: QEMU and its children are killed" eval '! alive "$TMPD/pids"'
check "SIGTERM to boot: the result says so" grep -q '^error interrupted by SIGTERM' "$LOGS/term.result"
rm -f "$TMPD/pids"

# Ctrl-C while the source tarball is extracted: no .extract.PID stays.
echo fake > "$TMPD/linux-source-6.12.tar.xz"
out=$(KSRC_TARBALL=$TMPD/linux-source-6.12.tar.xz FAKE_TAR_STARTED=$TMPD/tar-started \
	python3 "$CC" "$TMPD/tar-started" "$TMPD/ksrc.log" "$ROOT/scripts/ksrc")
read -r _ rc secs <<<"$out"
check "Ctrl-C during the extraction: ksrc ends within 2 s (exit $rc, $secs s)" \
	python3 -c "import sys; sys.exit(not ('$rc' != 'hung' and $secs <= 2))"
check "Ctrl-C during the extraction: no .extract.* directory left" \
	eval '[ -z "$(ls -d "$BUILD_DIR"/src/.extract.* 2>/dev/null)" ]'
check "Ctrl-C during the extraction: the lock is free" flock -n "$BUILD_DIR/.harness.lock" true
finish
