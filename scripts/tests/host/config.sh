#!/bin/bash
# Config validation (scripts/config-check): an option a fragment asks for
# that olddefconfig dropped is named with its `depends on`; an undefined
# symbol is an error unless annotated optional; configs/fragments is the
# one list.
. "$(dirname "$0")/common.sh"
K=$TMPD/tree
mkdir -p "$K/kernel"
printf 'config FOO\n\tbool "foo"\n\nconfig BAR\n\tbool "bar"\n\tdepends on BAZ\n\nconfig BAZ\n\tdef_bool n\n' > "$K/kernel/Kconfig"
printf 'CONFIG_FOO=y\nCONFIG_BAR=y\n' > "$TMPD/a.config"
printf '# harness: optional-if-undefined NEWSYM\nCONFIG_NEWSYM=y\n' > "$TMPD/b.config"
printf 'CONFIG_FOO=y\n' > "$TMPD/dotconfig"
RC=0; "$ROOT/scripts/config-check" "$K" "$TMPD/dotconfig" "$TMPD/a.config" "$TMPD/b.config" > "$TMPD/out" 2>&1 || RC=$?
check "config: a dropped option fails" [ "$RC" = 1 ]
check "config: ... named with its depends on" \
	grep -q 'CONFIG_BAR=y requested by a.config but .config has n -- kernel/Kconfig:4: depends on BAZ' "$TMPD/out"
check "config: an optional undefined symbol is a notice" grep -q 'notice: CONFIG_NEWSYM is not defined' "$TMPD/out"
printf 'CONFIG_FOO=y\nCONFIG_BAR=y\n' > "$TMPD/dotconfig"
RC=0; "$ROOT/scripts/config-check" "$K" "$TMPD/dotconfig" "$TMPD/a.config" > "$TMPD/out" 2>&1 || RC=$?
check "config: a complete .config passes" [ "$RC" = 0 ]
printf 'CONFIG_UNDEFINED_X=y\n' > "$TMPD/c.config"
RC=0; "$ROOT/scripts/config-check" "$K" "$TMPD/dotconfig" "$TMPD/c.config" > "$TMPD/out" 2>&1 || RC=$?
check "config: an undefined symbol without annotation fails" \
	eval '[ "$RC" = 1 ] && grep -q "CONFIG_UNDEFINED_X (from c.config) is not defined by any Kconfig" "$TMPD/out"'
# The fragment list: every listed fragment exists; the main .config stages
# all read it (no other list of fragments in the scripts or the Makefile).
RC=0; (cd "$ROOT" && . scripts/lib.sh && base_fragments) > "$TMPD/frags" 2>&1 || RC=$?
check "config: configs/fragments lists existing fragments" eval '[ "$RC" = 0 ] && [ -s "$TMPD/frags" ]'
check "config: no second list of fragments in Makefile or scripts/" \
	eval '! grep -n "guest\.config.*tests\.config" "$ROOT/Makefile" "$ROOT"/scripts/* 2>/dev/null | grep -v "^[^:]*:[0-9]*:#"'
finish
