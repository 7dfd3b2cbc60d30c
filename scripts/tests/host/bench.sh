#!/bin/bash
# scripts/bench's "before" kernel: its layout patch (refcount and rcu head
# in front of the bitmaps) made from the series' include/linux/seccomp.h
# (scripts/bench --layout-patch) for the struct of every base and
# architecture (scripts/tests/seccomp-h/: 6.12, 6.1, 6.12 with its arm64
# patches 15-21 and 6.1 with its arm64 patches 14-20, whose bitmaps are
# BITS_TO_LONGS(SECCOMP_MASK_BITMAP_BITS)); one
# clear error when the struct has not exactly the members to move; and
# --build-before on a fake source tree: the kernel patches plus the
# generated one, applied in bench-before/linux.
. "$(dirname "$0")/common.sh"
FIX=$ROOT/scripts/tests/seccomp-h
USAGE=$'\trefcount_t usage;' RCU=$'\tstruct rcu_head rcu;'

# lp FILE: scripts/bench --layout-patch FILE; sets RC, out in lp.out/lp.err
lp() { RC=0; "$ROOT/scripts/bench" --layout-patch "$1" > "$TMPD/lp.out" 2> "$TMPD/lp.err" || RC=$?; }
# members FILE: the lines between "struct seccomp_allowlist {" and "}..."
members() { sed -n '/^struct seccomp_allowlist {$/,/^}/p' "$1" | sed '1d;$d'; }

for v in 6.12 6.1 6.12-arm64 6.1-arm64; do
	h=$FIX/$v.h
	[ -f "$h" ] || { fail "bench layout $v: no fixture $h"; continue; }
	tr=$TMPD/tree-$v
	mkdir -p "$tr/include/linux"
	cp "$h" "$tr/include/linux/seccomp.h"
	bits=$(members "$h" | grep 'bits\[')
	lp "$tr/include/linux/seccomp.h"
	check "bench layout $v: generated (exit 0, no message)" eval '[ "$RC" = 0 ] && [ ! -s "$TMPD/lp.err" ]'
	check "bench layout $v: the explanatory header first, then the diff with a/ b/ labels" \
		eval '[ "$(head -n1 "$TMPD/lp.out")" = "bench: the version 1 layout of struct seccomp_allowlist (benchmark only)" ] &&
		      grep -q "never in the series" "$TMPD/lp.out" &&
		      grep -qx -- "--- a/include/linux/seccomp.h" "$TMPD/lp.out" && grep -qx "+++ b/include/linux/seccomp.h" "$TMPD/lp.out"'
	check "bench layout $v: applies with patch -p1 --dry-run --fuzz=0" \
		eval 'patch -p1 --dry-run --fuzz=0 -d "$tr" < "$TMPD/lp.out" > "$TMPD/dry.log" 2>&1 && ! grep -qi "offset\|fuzz\|fail" "$TMPD/dry.log"'
	cp -r "$tr" "$tr-after"
	patch -s -p1 --fuzz=0 -d "$tr-after" < "$TMPD/lp.out" > /dev/null 2>&1
	check "bench layout $v: usage and rcu move in front of the bitmaps ($(grep -o 'BITS_TO_LONGS([A-Z_]*)' <<<"$bits"))" \
		[ "$(members "$tr-after/include/linux/seccomp.h")" = "$(printf '%s\n' "$USAGE" "$RCU" "$bits" $'\tu32 action;')" ]
	check "bench layout $v: before it, the series' own order (bits, action, usage, rcu)" \
		[ "$(members "$h")" = "$(printf '%s\n' "$bits" $'\tu32 action;' "$USAGE" "$RCU")" ]
	check "bench layout $v: nothing else changes" \
		eval 'diff <(grep -v -x -F -e "$USAGE" -e "$RCU" "$h") <(grep -v -x -F -e "$USAGE" -e "$RCU" "$tr-after/include/linux/seccomp.h") > /dev/null'
done
check "bench layout: the bitmaps line of patch 16 (arm64) is the one that broke the fixed patch" \
	grep -q 'BITS_TO_LONGS(SECCOMP_MASK_BITMAP_BITS)' "$FIX/6.12-arm64.h"

# A struct without exactly the two members to move (or with them in front
# already): one error line, nothing on stdout, non-zero.
bad() {	# bad NAME SED-SCRIPT WHAT-THE-ERROR-SAYS
	local says=$3
	sed "$2" "$FIX/6.12.h" > "$TMPD/bad.h"
	lp "$TMPD/bad.h"
	check "bench layout: $1 -> an error ($3), nothing printed" \
		eval '[ "$RC" != 0 ] && [ ! -s "$TMPD/lp.out" ] && [ "$(wc -l < "$TMPD/lp.err")" = 1 ] &&
		      grep -q "^bench: error: the before kernel.s layout patch: $TMPD/bad.h: .*$says" "$TMPD/lp.err"'
}
bad "no usage member" '/refcount_t usage;/d' 'has 0 "refcount_t usage;" and 1 "struct rcu_head rcu;" members, not one of each'
bad "no rcu member" '/struct rcu_head rcu;/d' 'has 1 "refcount_t usage;" and 0 "struct rcu_head rcu;" members, not one of each'
bad "neither" '/refcount_t usage;/d;/struct rcu_head rcu;/d' 'has 0 .* and 0 .* members'
bad "usage twice" 's/^\trefcount_t usage;$/&\n&/' 'has 2 "refcount_t usage;"'
bad "the version 1 layout already" '/^\tunsigned long bits/{h;d};/^\tu32 action;/{H;d};/^\tstruct rcu_head rcu;/G' 'usage or rcu in front of the bitmaps already'
bad "no bits member" '/^\tunsigned long bits/d' 'no bits member'
bad "no struct" 's/^struct seccomp_allowlist {/struct seccomp_other {/' 'no "struct seccomp_allowlist {" line'
bad "no closing line" '/^} ____cacheline_aligned;/d' 'no closing line'
lp "$TMPD/nonexistent.h"
check "bench layout: a missing header -> an error naming it" \
	eval '[ "$RC" != 0 ] && [ ! -s "$TMPD/lp.out" ] && grep -q "no $TMPD/nonexistent.h" "$TMPD/lp.err"'
RC=0; "$ROOT/scripts/bench" --layout-patch > /dev/null 2> "$TMPD/lp.err" || RC=$?
check "bench layout: --layout-patch without a file -> usage" eval '[ "$RC" != 0 ] && grep -q "usage: scripts/bench --layout-patch SECCOMP_H" "$TMPD/lp.err"'

# --build-before on a fake source tree (KSRC) and series (PATCHES): the
# kernel patches (not one that touches tools/ only) and the layout patch
# made from the series tree, applied in bench-before/linux; the build
# itself fails at the fake tree's config (no kernel is built here).
K=$TMPD/ksrc P=$TMPD/patches
mkdir -p "$K/kernel" "$K/include/linux" "$K/tools" "$P"
printf 'kernelversion:\n\t@echo 6.12.3\n' > "$K/Makefile"
echo 'source "kernel/Kconfig"' > "$K/Kconfig"
printf 'int seccomp;\n' > "$K/kernel/seccomp.c"
printf '/* seccomp */\n' > "$K/include/linux/seccomp.h"
printf 'tool\n' > "$K/tools/t"
mkseries() {	# mkseries HEADER: 0001 adds HEADER's lines to seccomp.h, 0002 touches tools/ only
	{ printf 'From: t <t@t>\nSubject: [PATCH 1/2] h\n\n---\n'
	  diff -u --label a/include/linux/seccomp.h --label b/include/linux/seccomp.h \
		"$K/include/linux/seccomp.h" <(cat "$K/include/linux/seccomp.h" "$1"); } > "$P/0001-h.patch"
	printf 'From: t <t@t>\nSubject: [PATCH 2/2] t\n\n---\n--- a/tools/t\n+++ b/tools/t\n@@ -1 +1,2 @@\n tool\n+more\n' > "$P/0002-t.patch"
	printf '0001-h.patch\n0002-t.patch\n' > "$P/series"
}
bb() { RC=0; DEPS_SKIP=1 KSRC=$K PATCHES=$P "$ROOT/scripts/bench" --build-before > "$TMPD/bb.out" 2> "$TMPD/bb.err" || RC=$?; }
BB=$BUILD_DIR/bench-before
mkseries "$FIX/6.12-arm64.h"
bb
check "bench --build-before: the layout patch made, then the build (fails at the fake tree)" \
	eval '! grep -q "layout patch\|does not apply" "$TMPD/bb.err" &&
	      grep -q "error: could not build the before kernel in $BB" "$TMPD/bb.err" && [ -s "$BB/linux/.harness-tree-id" ]'
check "bench --build-before: its series: the kernel patch and the layout patch (not the tools/ one)" \
	[ "$(cat "$BB/patches/series" 2>/dev/null)" = "$(printf '%s\n' 0001-h.patch 9999-bench-before-old-allowlist-layout.patch)" ]
check "bench --build-before: the layout patch is the one of the series tree's seccomp.h" \
	eval 'cat "$K/include/linux/seccomp.h" "$FIX/6.12-arm64.h" > "$TMPD/series.h" && lp "$TMPD/series.h" &&
	      cmp -s "$TMPD/lp.out" "$BB/patches/9999-bench-before-old-allowlist-layout.patch"'
check "bench --build-before: applied in bench-before/linux: usage and rcu in front of the bitmaps" \
	[ "$(members "$BB/linux/include/linux/seccomp.h" 2>/dev/null | head -n3)" = "$(printf '%s\n' "$USAGE" "$RCU" $'\tunsigned long bits[SECCOMP_MASK_NR_ABIS][BITS_TO_LONGS(SECCOMP_MASK_BITMAP_BITS)];')" ]
check "bench --build-before: the series tree (build/linux) keeps the series' layout" \
	[ "$(members "$BUILD_DIR/linux/include/linux/seccomp.h" 2>/dev/null | head -n1)" = $'\tunsigned long bits[SECCOMP_MASK_NR_ABIS][BITS_TO_LONGS(SECCOMP_MASK_BITMAP_BITS)];' ]
# A series whose struct has no rcu member: the layout error, no build.
sed '/struct rcu_head rcu;/d' "$FIX/6.12.h" > "$TMPD/norcu.h"
mkseries "$TMPD/norcu.h"
bb
check "bench --build-before: a struct without the members -> the layout error, not a build" \
	eval '[ "$RC" != 0 ] && grep -q "error: the before kernel.s layout patch: .*not one of each" "$TMPD/bb.err" &&
	      ! grep -q "could not build" "$TMPD/bb.err" && ! grep -q 9999 "$BB/patches/series"'
finish
