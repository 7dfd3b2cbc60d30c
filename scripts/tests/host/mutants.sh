#!/bin/bash
# Every mutant of mutants/ (make mutants) still applies, exactly (no fuzz),
# on top of the current series, and says which rule and ABI it breaks: a
# series change that breaks a mutant fails make check, in seconds and without
# a build.  The files the series and the mutants touch are copied from the
# pristine source into a scratch tree, the series is applied there, and each
# mutant is tried with patch --dry-run (scripts/mutants-refresh fixes most).
R=$(cd "$(dirname "$0")/../../.." && pwd)
src=${KSRC:-}
mainb=${BUILD_DIR:-$R/build}
case $mainb in /*) ;; *) mainb=$R/$mainb ;; esac
. "$(dirname "$0")/common.sh"

PD=${PATCHES:-$ROOT/patches}
MD=$ROOT/mutants
files_of() { sed -n -e 's#^--- a/\([^[:space:]]*\).*#\1#p' -e 's#^+++ b/\([^[:space:]]*\).*#\1#p' "$@" | sort -u; }
mapfile -t SERIES < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$PD/series" 2>/dev/null)
mapfile -t MUT < <(ls "$MD"/[0-9][0-9]-*.patch 2>/dev/null)

check "mutants: at least 20 mutants in mutants/" [ ${#MUT[@]} -ge 20 ]
dups=$(for m in "${MUT[@]}"; do b=$(basename "$m" .patch); echo "${b#[0-9][0-9]-}"; done | sort | uniq -d)
check "mutants: every mutant name is unique" [ -z "$dups" ]
for m in "${MUT[@]}"; do
	b=$(basename "$m" .patch)
	if grep -q '^# Breaks the rule' "$m" && grep -q '^# ABI: .' "$m" && grep -q '^# Mutation:' "$m"; then
		pass "mutants: $b names its rule, ABI and mutation"
	else
		fail "mutants: $b: its header lacks '# Breaks the rule', '# ABI:' or '# Mutation:'"
	fi
done

# The pristine files: KSRC, the main build's extraction, else the tarball.
tree=$TMPD/tree
mkdir -p "$tree"
mapfile -t FILES < <(files_of "${SERIES[@]/#/$PD/}" "${MUT[@]}")
if [ -z "$src" ] && [ -f "$mainb/src/linux-source-6.12/kernel/seccomp.c" ]; then
	src=$mainb/src/linux-source-6.12
fi
if [ -n "$src" ]; then
	for f in "${FILES[@]}"; do
		[ -f "$src/$f" ] && mkdir -p "$tree/$(dirname "$f")" && cp "$src/$f" "$tree/$f"
	done
elif [ -f /usr/src/linux-source-6.12.tar.xz ]; then
	(cd "$TMPD" && /bin/tar -xJf /usr/src/linux-source-6.12.tar.xz --ignore-failed-read \
		"${FILES[@]/#/linux-source-6.12/}" 2>/dev/null)
	[ -d "$TMPD/linux-source-6.12" ] && cp -a "$TMPD/linux-source-6.12/." "$tree/"
fi
if [ ! -f "$tree/kernel/seccomp.c" ]; then
	fail "mutants: no pristine kernel source (KSRC, build/src or /usr/src/linux-source-6.12.tar.xz) to apply them to"
	exit 0
fi
ok=1
for p in "${SERIES[@]}"; do
	if ! out=$(patch -p1 -s -f --fuzz=0 --no-backup-if-mismatch -d "$tree" < "$PD/$p" 2>&1); then
		fail "mutants: the series itself does not apply to the pristine files at $p: $(head -n1 <<<"$out")"
		ok=0; break
	fi
done
[ $ok = 1 ] || exit 0
for m in "${MUT[@]}"; do
	b=$(basename "$m" .patch)
	if out=$(patch -p1 --dry-run -s -f --fuzz=0 -d "$tree" < "$m" 2>&1); then
		pass "mutants: $b applies on the series"
	else
		fail "mutants: $b does not apply on the current series (scripts/mutants-refresh regenerates it, or names it for a hand): $(head -n1 <<<"$out")"
	fi
done
