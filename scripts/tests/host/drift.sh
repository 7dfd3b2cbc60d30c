#!/bin/bash
# The drift check (gen-mirror-patch --check) compares content whatever the
# git identity of who runs it: another identity, none at all (HOME without
# .gitconfig, GIT_CONFIG_NOSYSTEM=1).  Run on a small project of its own.
. "$(dirname "$0")/common.sh"
export GIT_CONFIG_NOSYSTEM=1 HOME=$TMPD/home
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL EMAIL MIRROR_IDENTITY
mkdir -p "$HOME"
P=$TMPD/proj
mkdir -p "$P/scripts/mirror" "$P/patches" "$P/tools/demo"
cp "$ROOT/scripts/gen-mirror-patch" "$P/scripts/"
printf 'M:\tProject Maintainers <maint@example.org>\n' > "$P/MAINTAINERS"
printf 'patch = 0001-demo.patch\nsubject = demo: Add it\nmessage = scripts/mirror/demo.msg\npaths = tools/demo\n' > "$P/scripts/mirror/demo.spec"
printf 'The demo.\n' > "$P/scripts/mirror/demo.msg"
printf 'hello\n' > "$P/tools/demo/a.txt"
echo 0001-demo.patch > "$P/patches/series"
g() { git -C "$P" -c user.name=Setup -c user.email=setup@x "$@"; }
g init -q && g add -A && g commit -qm init
gm() { RC=0; (cd "$P" && env "$@" scripts/gen-mirror-patch "${GM_ARGS[@]}") > "$TMPD/gm.out" 2>&1 || RC=$?; }
GM_ARGS=(); gm X=1
check "drift: a new patch is generated without any git identity" eval '[ "$RC" = 0 ] && [ -s "$P/patches/0001-demo.patch" ]'
check "drift: ... author from MAINTAINERS" grep -q '^From: Project Maintainers <maint@example.org>' "$P/patches/0001-demo.patch"
check "drift: ... and its Signed-off-by" grep -q '^Signed-off-by: Project Maintainers <maint@example.org>' "$P/patches/0001-demo.patch"
g add -A && g commit -qm patch
# Someone re-signs the committed patch (a different identity): kept.
sed -i 's/Project Maintainers <maint@example.org>/A Developer <dev@example.org>/' "$P/patches/0001-demo.patch"
g commit -qam resign
GM_ARGS=(--check)
gm X=1
check "drift: --check with no git identity at all passes" [ "$RC" = 0 ]
gm GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=Other GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=other@x
check "drift: --check with another git identity passes" [ "$RC" = 0 ]
printf 'hello, changed\n' > "$P/tools/demo/a.txt"; g add -A
gm X=1
check "drift: a changed source is drift (exit 1, the patch named)" \
	eval '[ "$RC" = 1 ] && grep -q "patches/0001-demo.patch differs" "$TMPD/gm.out"'
GM_ARGS=()
gm X=1
check "drift: regenerating keeps the committed author and trailers" \
	eval 'grep -q "^From: A Developer <dev@example.org>" "$P/patches/0001-demo.patch" &&
	      grep -q "^Signed-off-by: A Developer <dev@example.org>" "$P/patches/0001-demo.patch"'
gm MIRROR_IDENTITY=nonsense
check "drift: a malformed MIRROR_IDENTITY is one error" eval '[ "$RC" = 2 ] && grep -q "MIRROR_IDENTITY=.nonsense. is not" "$TMPD/gm.out"'
finish
