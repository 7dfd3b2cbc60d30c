#!/bin/bash
# scripts/cover-letter: the committed cover letter matches the series; a
# changed patch makes --check fail (exit 1, one line naming the file) and a
# regeneration fixes it; the letter's own text survives; a letter with a
# [[placeholder]] or without a shortlog line is refused (exit 2).  Runs on
# a copy of the project's patches in a project of its own.
. "$(dirname "$0")/common.sh"
mainb=$ROOT/build
src=${KSRC:-}
if [ -z "$src" ] && [ -f "$mainb/src/linux-source-6.12/kernel/seccomp.c" ]; then
	src=$mainb/src/linux-source-6.12
fi
if [ -z "$src" ]; then
	# A fresh clone has none yet: extract it into the project's build/
	# (where make check's later stages look for it), not into this test's
	# own BUILD_DIR, which is removed at the end.
	# The real tar, not the fake one of the host tests.
	src=$(PATH=${PATH#"$ROOT/scripts/tests/fake:"} BUILD_DIR=$mainb \
		"$ROOT/scripts/ksrc" 2> "$TMPD/ksrc.err") || src=
fi
if [ ! -f "${src:-/nonexistent}/kernel/seccomp.c" ]; then
	fail "cover: no pristine kernel source (KSRC or build/src) to apply the series to: $(tail -n1 "$TMPD/ksrc.err" 2>/dev/null)"
	exit 0
fi
P=$TMPD/proj
mkdir -p "$P/scripts" "$P/patches"
cp "$ROOT/scripts/cover-letter" "$P/scripts/"
cp "$ROOT"/patches/* "$P/patches/"
git -C "$P" init -q
cl() { RC=0; (cd "$P" && KSRC=$src scripts/cover-letter "$@") > "$TMPD/cl.out" 2>&1 || RC=$?; }

cl --check
check "cover: the committed cover letter matches the series" [ "$RC" = 0 ]

# A patch's subject changes: the shortlog no longer matches.
first=$(sed -n '1p' "$P/patches/series")
sed -i '0,/^Subject: \[PATCH\] /s//Subject: [PATCH] Renamed: /' "$P/patches/$first"
cl --check
check "cover: --check fails (exit 1) when a patch changed" [ "$RC" = 1 ]
check "cover: ... with one line naming the file" \
	grep -q '^cover-letter: patches/0000-cover-letter.patch is out of date' "$TMPD/cl.out"
text=$(sed -n '/^Subject:/,/^[^[:space:]].* ([0-9]*):$/p' "$P/patches/0000-cover-letter.patch" | sed '$d')
cl
check "cover: regenerating succeeds" [ "$RC" = 0 ]
check "cover: ... and the shortlog has the new subject" \
	grep -q '^  Renamed: ' "$P/patches/0000-cover-letter.patch"
check "cover: ... and keeps the letter's text" \
	eval '[ "$text" = "$(sed -n "/^Subject:/,/^[^[:space:]].* ([0-9]*):$/p" "$P/patches/0000-cover-letter.patch" | sed "\$d")" ]'
cl --check
check "cover: ... after which --check passes" [ "$RC" = 0 ]

# A figure left as a placeholder: the letter is not ready.
cp "$P/patches/0000-cover-letter.patch" "$TMPD/cover.ok"
sed -i '0,/^$/s//[[FIGURE_TO_MEASURE]]\n/' "$P/patches/0000-cover-letter.patch"
cl --check
check "cover: a letter with a [[placeholder]] is refused (exit 2)" [ "$RC" = 2 ]
check "cover: ... naming it" grep -q '^cover-letter: error: .*\[\[FIGURE_TO_MEASURE\]\]' "$TMPD/cl.out"
cp "$TMPD/cover.ok" "$P/patches/0000-cover-letter.patch"

# A letter whose text cannot be told from the generated part.
sed -i '/^[^[:space:]].* ([0-9]*):$/d' "$P/patches/0000-cover-letter.patch"
cl --check
check "cover: a letter without a shortlog line is refused (exit 2)" [ "$RC" = 2 ]
check "cover: ... with one error line" eval '[ "$(grep -c "^cover-letter: error: " "$TMPD/cl.out")" = 1 ]'
exit 0
