#!/bin/bash
# KSRC: version refusal (make kernelversion: a 6.1.y tree needs KVER=6.1,
# an unsupported version is refused whatever KVER), what is copied (no .git,
# no build output), the series stamp (re-applied exactly when the series or
# the source changes; the tree's identity follows); KVER refusal of an
# unsupported base by every stage; JOBS.
. "$(dirname "$0")/common.sh"
export GIT_CONFIG_NOSYSTEM=1 HOME=$TMPD/home GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
mkdir -p "$HOME"
mktree() {	# mktree DIR VERSION
	mkdir -p "$1/kernel"
	printf 'kernelversion:\n\t@echo %s\n' "$2" > "$1/Makefile"
	echo 'source "kernel/Kconfig"' > "$1/Kconfig"
	printf 'int seccomp;\n' > "$1/kernel/seccomp.c"
}
ks() { RC=0; KSRC=$1 "$ROOT/scripts/ksrc" > "$TMPD/ks.out" 2> "$TMPD/ks.err" || RC=$?; }
# 6.1.y is a base of its own: refused with the default KVER (6.12) with a
# message naming KVER=6.1, accepted with KVER=6.1.
mktree "$TMPD/old" 6.1.112
ks "$TMPD/old"
check "ksrc: a 6.1.y tree is refused with the default KVER (6.12)" [ "$RC" != 0 ]
check "ksrc: ... with a message naming KVER=6.1" \
	grep -q 'KSRC=.* is Linux 6.1.112, but KVER=6.12 selects the 6.12 series: add KVER=6.1' "$TMPD/ks.err"
KVER=6.1 ks "$TMPD/old"
check "ksrc: a 6.1.y tree is accepted with KVER=6.1" eval '[ "$RC" = 0 ] && [ "$(cat "$TMPD/ks.out")" = "$TMPD/old" ]'
mktree "$TMPD/older" 5.15.3
ks "$TMPD/older"
check "ksrc: a 5.15.3 tree is refused" [ "$RC" != 0 ]
check "ksrc: ... with a message naming the supported bases" \
	grep -q 'KSRC=.* is Linux 5.15.3; the series supports Linux 6.12, 6.1 ' "$TMPD/ks.err"
KVER=6.1 ks "$TMPD/older"
check "ksrc: ... also with KVER=6.1" [ "$RC" != 0 ]
mktree "$TMPD/near" 6.120.1
ks "$TMPD/near"
check "ksrc: 6.120.1 is not 6.12.y" [ "$RC" != 0 ]
KVER=6.1 ks "$TMPD/near"
check "ksrc: 6.120.1 is not 6.1.y either" [ "$RC" != 0 ]
mktree "$TMPD/near61" 6.10.2
KVER=6.1 ks "$TMPD/near61"
check "ksrc: 6.10.2 is not 6.1.y" [ "$RC" != 0 ]
ks "$TMPD/nonexistent"
check "ksrc: a missing directory: one error line" eval '[ "$RC" != 0 ] && [ "$(wc -l < "$TMPD/ks.err")" = 1 ]'

K=$TMPD/linux
mktree "$K" 6.12.3
printf '*.o\n.config\n' > "$K/.gitignore"
git -C "$K" init -q && git -C "$K" add -A && git -C "$K" commit -qm base
echo obj > "$K/kernel/seccomp.o"; echo CONFIG_X=y > "$K/.config"
ks "$K"
check "ksrc: a 6.12.y tree is accepted" eval '[ "$RC" = 0 ] && [ "$(cat "$TMPD/ks.out")" = "$K" ]'

P=$TMPD/patches
mkdir -p "$P"
mkpatch() {
	cat > "$P/0001-x.patch" <<PATCH
From: t <t@t>
Subject: [PATCH] x

---
 kernel/seccomp.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/kernel/seccomp.c b/kernel/seccomp.c
--- a/kernel/seccomp.c
+++ b/kernel/seccomp.c
@@ -1 +1,2 @@
 int seccomp;
+int $1;
PATCH
	echo 0001-x.patch > "$P/series"
}
se() { RC=0; KSRC=$K PATCHES=$P "$ROOT/scripts/series" > "$TMPD/se.out" 2> "$TMPD/se.err" || RC=$?; }
L=$BUILD_DIR/linux
mkpatch mask
se
check "series: applies onto a copy" eval '[ "$RC" = 0 ] && grep -q "int mask;" "$L/kernel/seccomp.c"'
check "series: the KSRC tree is not modified" eval '! grep -q "int mask;" "$K/kernel/seccomp.c"'
check "series: no .git copied" [ ! -e "$L/.git" ]
check "series: no build output copied" eval '[ ! -e "$L/kernel/seccomp.o" ] && [ ! -e "$L/.config" ]'
check "series: the patched tree names itself" [ -s "$L/.harness-tree-id" ]
id1=$(cat "$L/.harness-tree-id")
se
check "series: unchanged -> not re-applied" eval '[ "$RC" = 0 ] && ! grep -q syncing "$TMPD/se.err"'
mkpatch mask2
se
check "series: a changed patch -> re-applied" eval '[ "$RC" = 0 ] && grep -q "int mask2;" "$L/kernel/seccomp.c" && ! grep -q "int mask;" "$L/kernel/seccomp.c"'
id2=$(cat "$L/.harness-tree-id")
check "series: ... and the tree's identity changes" [ "$id1" != "$id2" ]
echo '/* upstream fix */' > "$K/kernel/fix.c"; git -C "$K" add kernel/fix.c; git -C "$K" commit -qm fix
se
check "series: a new commit in KSRC -> re-synced" eval '[ "$RC" = 0 ] && [ -f "$L/kernel/fix.c" ] && [ "$(cat "$L/.harness-tree-id")" != "$id2" ]'
printf '@@ broken\n' > "$P/0001-x.patch"
se
check "series: a patch that does not apply: an error naming it" eval '[ "$RC" != 0 ] && grep -q "error: patch 0001-x.patch does not apply" "$TMPD/se.err"'

# KVER: an unsupported base is refused by every stage (every script that
# sources lib.sh), before it does anything: one error line naming it.
bad='' nst=0
for f in "$ROOT"/scripts/*; do
	[ -f "$f" ] && [ -x "$f" ] && grep -q '^\. "$(dirname "$0")/lib.sh"' "$f" || continue
	nst=$((nst + 1))
	RC=0; KVER=5.4 BUILD_DIR=$TMPD/kv-build "$f" > "$TMPD/kv.out" 2> "$TMPD/kv.err" < /dev/null || RC=$?
	[ "$RC" != 0 ] && [ "$(wc -l < "$TMPD/kv.err")" = 1 ] &&
		grep -q "^$(basename "$f"): error: KVER=5.4: the series has a base for Linux 6.12, 6.1 only" "$TMPD/kv.err" ||
		bad="$bad $(basename "$f")(exit $RC: $(head -n1 "$TMPD/kv.err"))"
done
check "KVER: KVER=5.4 is refused by every stage ($nst) with one error line${bad:+ (not by:$bad)}" \
	eval '[ "$nst" -ge 15 ] && [ -z "$bad" ]'
check "KVER: ... which writes nothing for it" eval '[ -z "$(find "$TMPD/kv-build" -type f 2>/dev/null)" ]'
RC=0; make -s --no-print-directory -C "$ROOT" KVER=5.4 ksrc > "$TMPD/kv.out" 2> "$TMPD/kv.err" || RC=$?
check "KVER: make KVER=5.4 ksrc fails, naming it" eval '[ "$RC" != 0 ] && grep -q "error: KVER=5.4: " "$TMPD/kv.err"'

# JOBS: the -jN of make, or JOBS=N; a bad value is one error line.
j=$(cd "$ROOT" && MAKEFLAGS=' -j3 --jobserver-auth=3,4' bash -c '. scripts/lib.sh; echo $NPROC')
check "JOBS: make -j3 -> 3 jobs ($j)" [ "$j" = 3 ]
j=$(cd "$ROOT" && JOBS=5 MAKEFLAGS=' -j3' bash -c '. scripts/lib.sh; echo $NPROC')
check "JOBS: JOBS=5 wins ($j)" [ "$j" = 5 ]
RC=0; JOBS=many "$ROOT/scripts/ksrc" > /dev/null 2> "$TMPD/j.err" || RC=$?
check "JOBS: JOBS=many is refused with one line" eval '[ "$RC" != 0 ] && [ "$(wc -l < "$TMPD/j.err")" = 1 ]'
finish
