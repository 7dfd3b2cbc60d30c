#!/bin/bash
# Every mutant of every base (mutants/<base>/, make mutants KVER=<base>)
# still applies, exactly (no fuzz), on top of that base's current series
# (patches/<base>/series), and says which rule and ABI it breaks: a series
# change that breaks a mutant fails make check, in seconds and without a
# build.  The files the series and the mutants touch are copied from the
# base's pristine source into a scratch tree, the series is applied there,
# and each mutant is tried with patch --dry-run (KVER=<base>
# scripts/mutants-refresh fixes most).
R=$(cd "$(dirname "$0")/../../.." && pwd)
# KSRC and BUILD_DIR are those of the base KVER selects (default 6.12).
ksrc_kver=${KSRC:-}
bd_kver=${BUILD_DIR:-}
case $bd_kver in ''|/*) ;; *) bd_kver=$R/$bd_kver ;; esac
kver=${KVER:-6.12} patches_kver=${PATCHES:-}
. "$(dirname "$0")/common.sh"

files_of() { sed -n -e 's#^--- a/\([^[:space:]]*\).*#\1#p' -e 's#^+++ b/\([^[:space:]]*\).*#\1#p' "$@" | sort -u; }

one_base() {	# one_base BASE
local base=$1 c="mutants $1"
local PD=$ROOT/patches/$base MD=$ROOT/mutants/$base
[ "$base" = "$kver" ] && [ -n "$patches_kver" ] && PD=$patches_kver
local SERIES MUT FILES m b p f out ok dups badarch src='' mainb=$R/build/$base tree=$TMPD/tree-$base
if [ ! -f "$PD/series" ]; then
	fail "$c: mutants/$base/ has no series to apply to ($PD/series does not exist)"
	return
fi
mapfile -t SERIES < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$PD/series" 2>/dev/null)
mapfile -t MUT < <(ls "$MD"/[0-9][0-9]-*.patch 2>/dev/null)

check "$c: at least 20 mutants in mutants/$base/ (${#MUT[@]})" [ ${#MUT[@]} -ge 20 ]
dups=$(for m in "${MUT[@]}"; do b=$(basename "$m" .patch); echo "${b#[0-9][0-9]-}"; done | sort | uniq -d)
check "$c: every mutant name is unique" [ -z "$dups" ]
for m in "${MUT[@]}"; do
	b=$(basename "$m" .patch)
	if grep -q '^# Breaks the rule' "$m" && grep -q '^# ABI: .' "$m" && grep -q '^# Mutation:' "$m"; then
		pass "$c: $b names its rule, ABI and mutation"
	else
		fail "$c: $b: its header lacks '# Breaks the rule', '# ABI:' or '# Mutation:'"
	fi
done
# scripts/mutants --list (no build, no lock) lists the base's mutants.
out=$(KVER=$base "$ROOT/scripts/mutants" --list 2>&1 | grep -c '^[0-9][0-9]-') || :
check "$c: KVER=$base scripts/mutants --list lists mutants/$base/ ($out)" [ "$out" = ${#MUT[@]} ]
# "# Arch:" names architectures only: scripts/mutants matches ARCH against
# the words of that line (a reason goes on the lines below it).
badarch=$(grep -h '^# Arch:' "${MUT[@]}" | grep -vxE '# Arch:( (x86_64|arm64))+' | head -n1) || :
check "$c: every '# Arch:' line names x86_64 or arm64 only${badarch:+ ($badarch)}" [ -z "$badarch" ]
if grep -qx '# Arch: arm64' "${MUT[@]}"; then
	# ARCH=arm64 lists them too, each arm64 one marked (nothing is built).
	out=$(ARCH=arm64 KVER=$base "$ROOT/scripts/mutants" --list 2>&1) || :
	check "$c: ARCH=arm64 scripts/mutants --list lists mutants/$base/, the arm64 ones marked ($(grep -c '^[0-9][0-9]-' <<<"$out"))" \
		eval '[ "$(grep -c "^[0-9][0-9]-" <<<"$out")" = ${#MUT[@]} ] &&
		      [ "$(grep -c "^    arch: arm64 only$" <<<"$out")" = "$(grep -lx "# Arch: arm64" "${MUT[@]}" | wc -l)" ]'
fi

# The pristine files: KSRC (for the base KVER selects), the main build's
# extraction (build/<base>/src, or BUILD_DIR's), else the tarball.
mkdir -p "$tree"
mapfile -t FILES < <(files_of "${SERIES[@]/#/$PD/}" "${MUT[@]}")
if [ "$base" = "$kver" ]; then
	src=$ksrc_kver
	[ -n "$bd_kver" ] && mainb=$bd_kver
fi
if [ -z "$src" ] && [ -f "$mainb/src/linux-source-$base/kernel/seccomp.c" ]; then
	src=$mainb/src/linux-source-$base
fi
if [ -n "$src" ]; then
	for f in "${FILES[@]}"; do
		[ -f "$src/$f" ] && mkdir -p "$tree/$(dirname "$f")" && cp "$src/$f" "$tree/$f"
	done
elif [ -f "/usr/src/linux-source-$base.tar.xz" ]; then
	(cd "$TMPD" && /bin/tar -xJf "/usr/src/linux-source-$base.tar.xz" --ignore-failed-read \
		"${FILES[@]/#/linux-source-$base/}" 2>/dev/null)
	[ -d "$TMPD/linux-source-$base" ] && cp -a "$TMPD/linux-source-$base/." "$tree/"
fi
if [ ! -f "$tree/kernel/seccomp.c" ]; then
	# As in cover.sh: another base's mutants are checked by that base's
	# own make check, which installs its source.
	if [ "$base" = "$kver" ]; then
		fail "$c: no pristine kernel source (KSRC, build/$base/src or /usr/src/linux-source-$base.tar.xz) to apply them to"
	else
		skip "$c: not checked here: no source of $base on this machine (make check KVER=$base checks it)"
	fi
	return
fi
ok=1
for p in "${SERIES[@]}"; do
	if ! out=$(patch -p1 -s -f --fuzz=0 --no-backup-if-mismatch -d "$tree" < "$PD/$p" 2>&1); then
		fail "$c: the series itself does not apply to the pristine files at $p: $(head -n1 <<<"$out")"
		ok=0; break
	fi
done
[ $ok = 1 ] || return
pass "$c: the whole series ($PD/series, ${#SERIES[@]} patches) applies with --fuzz=0"
for m in "${MUT[@]}"; do
	b=$(basename "$m" .patch)
	if out=$(patch -p1 --dry-run -s -f --fuzz=0 -d "$tree" < "$m" 2>&1); then
		pass "$c: $b applies on the series"
	else
		fail "$c: $b does not apply on the current series (KVER=$base scripts/mutants-refresh regenerates it, or names it for a hand): $(head -n1 <<<"$out")"
	fi
done
}

nb=0 missing=
for d in "$ROOT"/mutants/*/; do
	[ -d "$d" ] || continue
	one_base "$(basename "$d")"
	nb=$((nb + 1))
done
for s in "$ROOT"/patches/*/series; do
	b=$(basename "$(dirname "$s")")
	[ -d "$ROOT/mutants/$b" ] || missing="$missing $b"
done
check "mutants: every base with a series has its mutants/<base>/ ($nb)${missing:+ (none for:$missing)}" \
	eval '[ "$nb" -ge 1 ] && [ -z "$missing" ]'

# The fuzzer runs in every guest run, bounded and deterministic: its seed
# and count go on the kernel command line that scripts/mutants gives
# scripts/run-tests (KERNEL_CMDLINE, after the caller's), which --list
# shows; the fuzzer reads the same names.
# fz ENV...: scripts/mutants --list; sets RC (0 or 1), OUT and CMDLINE
# (what its last line says the guest's kernel command line gets).
fz() {
	RC=0; OUT=$(env "$@" "$ROOT/scripts/mutants" --list 2>&1) || RC=1
	CMDLINE=$(tail -n1 <<<"$OUT" | sed -n 's/.*(kernel command line: \(.*\))$/\1/p')
}
fz X=1
check "mutants: the fuzzer runs with a fixed seed and count by default ($CMDLINE)" \
	[ "$RC:$CMDLINE" = "0:SECCOMP_MASK_FUZZ_SEED=0x6d7574616e74 SECCOMP_MASK_FUZZ_ATTEMPTS=500" ]
fz KERNEL_CMDLINE=quiet MUTANT_FUZZ_SEED=0x1f2e MUTANT_FUZZ_ATTEMPTS=77
check "mutants: MUTANT_FUZZ_SEED and MUTANT_FUZZ_ATTEMPTS reach the guest's command line, after KERNEL_CMDLINE ($CMDLINE)" \
	[ "$RC:$CMDLINE" = "0:quiet SECCOMP_MASK_FUZZ_SEED=0x1f2e SECCOMP_MASK_FUZZ_ATTEMPTS=77" ]
for bad in MUTANT_FUZZ_SEED=0 MUTANT_FUZZ_SEED=0x0 'MUTANT_FUZZ_SEED=1 x' MUTANT_FUZZ_ATTEMPTS=0 MUTANT_FUZZ_ATTEMPTS=5s; do
	fz "$bad"
	check "mutants: $bad is refused" [ "$RC:$(grep -c "error: ${bad%%=*}=" <<<"$OUT")" = 1:1 ]
done
F=$ROOT/tools/testing/selftests/seccomp_mask/seccomp_mask_fuzz.c
for v in SECCOMP_MASK_FUZZ_SEED SECCOMP_MASK_FUZZ_ATTEMPTS; do
	check "mutants: the fuzzer reads $v" grep -qF "getenv(\"$v\")" "$F"
done
# A report seeds the results file of a subset run on a new machine: every
# verdict row of each committed report comes back, with its header, and a
# file that is not a report is refused with one error line.
for doc in "$ROOT"/docs/mutants.md "$ROOT"/docs/mutants-*.md; do
	[ -f "$doc" ] || continue
	d=${doc#"$ROOT"/}
	RC=0; OUT=$("$ROOT/scripts/mutants-results-from-doc" "$doc" 2>&1) || RC=1
	for v in CAUGHT SURVIVED ERROR; do
		n_doc=$(grep -c "^| [0-9][0-9]-[^|]* |.*| $v | " "$doc")
		n_res=$(awk -F'\t' -v v=$v '$1 == "mutant" && $3 == v' <<<"$OUT" | wc -l)
		check "mutants: $d seeds its $n_doc $v rows ($n_res)" [ "$RC:$n_res" = "0:$n_doc" ]
	done
	check "mutants: $d seeds its command, control and finished lines" \
		[ "$(awk -F'\t' '$1 == "command" || $1 == "control" || $1 == "finished"' <<<"$OUT" | cut -f1 | tr '\n' ' ')" = "command control finished " ]
done
RC=0; OUT=$("$ROOT/scripts/mutants-results-from-doc" "$ROOT/README.md" 2>&1) || RC=1
check "mutants: a file that is not a report does not seed ($OUT)" [ "$RC:$(grep -c '^error: ' <<<"$OUT")" = 1:1 ]
# Another architecture's mutant never counts toward this one's score: a
# result recorded for it (a run that named it) shows as not run.
t=$TMPD/report-arm64
mkdir -p "$t/mutants"
x86m=$(basename "$(grep -lx '# Arch: x86_64' "$ROOT"/mutants/6.12/*.patch | head -n1)" .patch)
genm=$(basename "$(grep -Lx '# Arch: .*' "$ROOT"/mutants/6.12/*.patch | head -n1)" .patch)
printf 'mutant\t%s\tSURVIVED\t79\tx\nmutant\t%s\tCAUGHT\t60\ty\n' "$x86m" "$genm" > "$t/mutants/results.txt"
RC=0; OUT=$(ARCH=arm64 KVER=6.12 BUILD_DIR=$t MUTANTS_REPORT=$t/report.md "$ROOT/scripts/mutants" --report 2>&1) || RC=1
check "mutants: ARCH=arm64 --report leaves $x86m (x86_64 only) out of the score, SURVIVED or not ($RC: $(grep -o 'Score: [^*]*' "$t/report.md" 2>/dev/null))" \
	eval '[ $RC = 0 ] && grep -q "^\*\*Score: 1/1 mutants caught;" "$t/report.md" &&
	      grep -q "^| $x86m |.*| not run (x86_64 only) |" "$t/report.md" && ! grep -q "^## Rules without a test" "$t/report.md"'
exit 0
