#!/bin/bash
# scripts/cover-letter, for every base (patches/<base>/series) that has a
# cover letter: the committed cover letter matches the series; a changed
# patch makes --check fail (exit 1, one line naming the file) and a
# regeneration fixes it; the letter's own text survives; a letter with a
# [[placeholder]] or without a shortlog line is refused (exit 2).  Runs on
# a copy of the project's patches in a project of its own.  A base without
# a cover letter yet is skipped, saying so ("skip ..."), not failed.
ksrc_kver=${KSRC:-} kver=${KVER:-6.12}	# (common.sh unsets KSRC)
. "$(dirname "$0")/common.sh"

# src_of BASE: the pristine source of a base, KSRC (for the base KVER
# selects), build/<base>/src, else extracted there by scripts/ksrc; sets src.
src_of() {
	local base=$1 mainb=$ROOT/build/$1
	src=
	[ "$base" = "$kver" ] && src=$ksrc_kver
	if [ -z "$src" ] && [ -f "$mainb/src/linux-source-$base/kernel/seccomp.c" ]; then
		src=$mainb/src/linux-source-$base
	fi
	if [ -z "$src" ]; then
		# A fresh clone has none yet: extract it into the project's
		# build/<base>/ (where make check's later stages look for it), not
		# into this test's own BUILD_DIR, which is removed at the end.
		# The real tar, not the fake one of the host tests.
		src=$(PATH=${PATH#"$ROOT/scripts/tests/fake:"} KVER=$base BUILD_DIR=$mainb \
			"$ROOT/scripts/ksrc" 2> "$TMPD/ksrc.err") || src=
	fi
}

one_base() {	# one_base BASE
local base=$1 c=cover
[ "$base" = 6.12 ] || c="cover $base"
local pd=patches/$base L=$P/patches/$base/0000-cover-letter.patch
src_of "$base"
if [ ! -f "${src:-/nonexistent}/kernel/seccomp.c" ]; then
	# The base make check runs for must have its source (scripts/deps
	# installs it); another base's is checked by that base's own run
	# (make check KVER=<base>), which installs it.
	if [ "$base" = "$kver" ]; then
		fail "$c: no pristine kernel source (KSRC or build/$base/src) to apply the series to: $(tail -n1 "$TMPD/ksrc.err" 2>/dev/null)"
	else
		skip "$c: not checked here: no source of $base on this machine (make check KVER=$base checks it)"
	fi
	return
fi
cl() { RC=0; (cd "$P" && KVER=$base KSRC=$src scripts/cover-letter "$@") > "$TMPD/cl.out" 2>&1 || RC=$?; }

cl --check
if [ "$RC" = 0 ]; then pass "$c: the committed cover letter matches the series"
else fail "$c: the committed cover letter does not match the series (exit $RC): $(grep -m1 '^cover-letter: ' "$TMPD/cl.out")"; fi

# A patch's subject changes: the shortlog no longer matches.
first=$(sed -n '1p' "$P/$pd/series")
sed -i '0,/^Subject: \[PATCH\] /s//Subject: [PATCH] Renamed: /' "$P/$pd/$first"
cl --check
check "$c: --check fails (exit 1) when a patch changed" [ "$RC" = 1 ]
check "$c: ... with one line naming the file" \
	grep -q "^cover-letter: $pd/0000-cover-letter.patch is out of date" "$TMPD/cl.out"
text=$(sed -n '/^Subject:/,/^[^[:space:]].* ([0-9]*):$/p' "$L" | sed '$d')
cl
check "$c: regenerating succeeds" [ "$RC" = 0 ]
check "$c: ... and the shortlog has the new subject" grep -q '^  Renamed: ' "$L"
check "$c: ... and keeps the letter's text" \
	eval '[ "$text" = "$(sed -n "/^Subject:/,/^[^[:space:]].* ([0-9]*):$/p" "$L" | sed "\$d")" ]'
cl --check
check "$c: ... after which --check passes" [ "$RC" = 0 ]

# A figure left as a placeholder: the letter is not ready.
cp "$L" "$TMPD/cover.ok"
sed -i '0,/^$/s//[[FIGURE_TO_MEASURE]]\n/' "$L"
cl --check
check "$c: a letter with a [[placeholder]] is refused (exit 2)" [ "$RC" = 2 ]
check "$c: ... naming it" grep -q '^cover-letter: error: .*\[\[FIGURE_TO_MEASURE\]\]' "$TMPD/cl.out"
cp "$TMPD/cover.ok" "$L"

# A letter whose text cannot be told from the generated part.
sed -i '/^[^[:space:]].* ([0-9]*):$/d' "$L"
cl --check
check "$c: a letter without a shortlog line is refused (exit 2)" [ "$RC" = 2 ]
check "$c: ... with one error line" eval '[ "$(grep -c "^cover-letter: error: " "$TMPD/cl.out")" = 1 ]'
}

P=$TMPD/proj
mkdir -p "$P/scripts"
cp "$ROOT/scripts/cover-letter" "$P/scripts/"
git -C "$P" init -q
nb=0
for s in "$ROOT"/patches/*/series; do
	[ -f "$s" ] || continue
	base=$(basename "$(dirname "$s")")
	if [ ! -f "$ROOT/patches/$base/0000-cover-letter.patch" ]; then
		skip "cover $base: patches/$base/0000-cover-letter.patch does not exist yet (not checked)"
		continue
	fi
	mkdir -p "$P/patches/$base"
	cp "$ROOT/patches/$base"/* "$P/patches/$base/"
	one_base "$base"
	nb=$((nb + 1))
done
check "cover: at least one base has a cover letter ($nb)" [ "$nb" -ge 1 ]
exit 0
