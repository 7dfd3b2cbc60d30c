#!/bin/bash
# The drift check (gen-mirror-patch --check) compares content whatever the
# git identity of who runs it: another identity, none at all (HOME without
# .gitconfig, GIT_CONFIG_NOSYSTEM=1), for every base of the series
# (patches/<base>/, the spec's patch numbered for its place in each base's
# series).  Run on a small project of its own.
. "$(dirname "$0")/common.sh"
export GIT_CONFIG_NOSYSTEM=1 HOME=$TMPD/home
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL EMAIL MIRROR_IDENTITY
mkdir -p "$HOME"
P=$TMPD/proj
mkdir -p "$P/scripts/mirror" "$P/patches/6.12" "$P/patches/6.1" "$P/tools/demo"
cp "$ROOT/scripts/gen-mirror-patch" "$P/scripts/"
printf 'M:\tProject Maintainers <maint@example.org>\n' > "$P/MAINTAINERS"
printf 'patch = demo.patch\nsubject = demo: Add it\nmessage = scripts/mirror/demo.msg\npaths = tools/demo\n' > "$P/scripts/mirror/demo.spec"
printf 'The demo.\n' > "$P/scripts/mirror/demo.msg"
printf 'hello\n' > "$P/tools/demo/a.txt"
# The demo patch is the first of the 6.12 series, the second of the 6.1 one.
echo 0001-demo.patch > "$P/patches/6.12/series"
printf '0001-other.patch\n0002-demo.patch\n' > "$P/patches/6.1/series"
A=$P/patches/6.12/0001-demo.patch B1=$P/patches/6.1/0002-demo.patch
g() { git -C "$P" -c user.name=Setup -c user.email=setup@x "$@"; }
g init -q && g add -A && g commit -qm init
gm() { RC=0; (cd "$P" && env "$@" scripts/gen-mirror-patch "${GM_ARGS[@]}") > "$TMPD/gm.out" 2>&1 || RC=$?; }
GM_ARGS=(); gm X=1
check "drift: a new patch is generated without any git identity, for every base" \
	eval '[ "$RC" = 0 ] && [ -s "$A" ] && [ -s "$B1" ]'
check "drift: ... numbered for its place in each base's series" \
	eval '[ ! -e "$P/patches/6.12/0002-demo.patch" ] && [ ! -e "$P/patches/6.1/0001-demo.patch" ]'
both() { grep -q "$1" "$A" && grep -q "$1" "$B1"; }	# both RE: in the patch of each base
check "drift: ... author from MAINTAINERS" both '^From: Project Maintainers <maint@example.org>'
check "drift: ... and its Signed-off-by" both '^Signed-off-by: Project Maintainers <maint@example.org>'
g add -A && g commit -qm patch
# Someone re-signs the committed patches (a different identity): kept.
sed -i 's/Project Maintainers <maint@example.org>/A Developer <dev@example.org>/' "$A" "$B1"
g commit -qam resign
GM_ARGS=(--check)
gm X=1
check "drift: --check with no git identity at all passes" [ "$RC" = 0 ]
gm GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=Other GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=other@x
check "drift: --check with another git identity passes" [ "$RC" = 0 ]
# One base's patch edited by hand: drift in that base only.
cp "$B1" "$TMPD/b1.ok"
sed -i 's/^+hello$/+hullo/' "$B1"
gm X=1
check "drift: a patch of one base edited by hand is drift (exit 1, only it named)" \
	eval '[ "$RC" = 1 ] && grep -q "patches/6.1/0002-demo.patch differs" "$TMPD/gm.out" && ! grep -q "patches/6.12/.* differs" "$TMPD/gm.out"'
gm BASES=6.12
check "drift: ... BASES=6.12 checks only the 6.12 base" [ "$RC" = 0 ]
cp "$TMPD/b1.ok" "$B1"
printf 'hello, changed\n' > "$P/tools/demo/a.txt"; g add -A
gm X=1
check "drift: a changed source is drift (exit 1, the patch of every base named)" \
	eval '[ "$RC" = 1 ] && grep -q "patches/6.12/0001-demo.patch differs" "$TMPD/gm.out" &&
	      grep -q "patches/6.1/0002-demo.patch differs" "$TMPD/gm.out"'
GM_ARGS=()
gm X=1
check "drift: regenerating keeps the committed author and trailers" \
	eval 'both "^From: A Developer <dev@example.org>" && both "^Signed-off-by: A Developer <dev@example.org>"'
check "drift: ... and the patches of both bases follow the source" both '^+hello, changed$'
gm MIRROR_IDENTITY=nonsense
check "drift: a malformed MIRROR_IDENTITY is one error" eval '[ "$RC" = 2 ] && grep -q "MIRROR_IDENTITY=.nonsense. is not" "$TMPD/gm.out"'
gm BASES=5.4
check "drift: BASES naming a base without a series is an error" eval '[ "$RC" = 2 ] && grep -q "patches/5.4/series does not exist" "$TMPD/gm.out"'
sed -i 's/^0002-demo.patch$/0002-demo-renamed.patch/' "$P/patches/6.1/series"
gm X=1
check "drift: a base whose series lacks the spec's patch is an error naming it" \
	eval '[ "$RC" = 2 ] && grep -q "patches/6.1/series has no line NNNN-demo.patch" "$TMPD/gm.out"'
sed -i 's/^patch = demo.patch$/patch = 0001-demo.patch/' "$P/scripts/mirror/demo.spec"
gm BASES=6.12
check "drift: a spec's patch given with its NNNN- number is an error" \
	eval '[ "$RC" = 2 ] && grep -q "give the name without its NNNN- number" "$TMPD/gm.out"'
finish
