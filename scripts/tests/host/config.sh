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
# --arch: a symbol only another architecture's arch/*/Kconfig defines is
# named as such (it belongs in that architecture's fragment).
mkdir -p "$K/arch/x86" "$K/arch/arm64"
printf 'config X86_ONLY\n\tbool "x"\n' > "$K/arch/x86/Kconfig"
printf 'config ARM64_ONLY\n\tbool "a"\n\tdepends on FOO\n' > "$K/arch/arm64/Kconfig"
printf 'CONFIG_X86_ONLY=y\nCONFIG_ARM64_ONLY=y\n' > "$TMPD/d.config"
printf 'CONFIG_FOO=y\n' > "$TMPD/dotconfig"
RC=0; "$ROOT/scripts/config-check" --arch arm64 "$K" "$TMPD/dotconfig" "$TMPD/d.config" > "$TMPD/out" 2>&1 || RC=$?
check "config: --arch arm64: an x86-only symbol fails as defined only for another architecture" \
	eval '[ "$RC" = 1 ] && grep -q "CONFIG_X86_ONLY (from d.config) is defined only for another architecture (arch/x86/Kconfig:1), not for arch/arm64" "$TMPD/out"'
check "config: --arch arm64: a dropped arm64 symbol is named with its depends on" \
	grep -q "CONFIG_ARM64_ONLY=y requested by d.config but .config has n -- arch/arm64/Kconfig:1: depends on FOO" "$TMPD/out"
RC=0; "$ROOT/scripts/config-check" "$K" "$TMPD/dotconfig" "$TMPD/d.config" > "$TMPD/out" 2>&1 || RC=$?
check "config: without --arch every arch/ counts (as before)" \
	eval '[ "$RC" = 1 ] && grep -q "CONFIG_X86_ONLY=y requested by d.config but .config has n -- arch/x86/Kconfig:1" "$TMPD/out"'
# The fragments of each architecture: configs/arch-ARCH.config after
# configs/fragments, then the base's and the base's of that architecture;
# an extra fragment's NAME-ARCH.config follows it; a fragment marked for
# another architecture is refused.
frags() { (cd "$ROOT" && . scripts/lib.sh && base_fragments | sed "s#^$ROOT/##" | paste -s -d ' '); }
check "config: x86_64's fragments" [ "$(frags)" = "configs/guest.config configs/tests.config configs/seccomp-mask.config configs/arch-x86_64.config configs/base-6.12.config configs/base-6.12-x86_64.config" ]
check "config: ARCH=arm64's fragments" [ "$(ARCH=arm64 frags)" = "configs/guest.config configs/tests.config configs/seccomp-mask.config configs/arch-arm64.config configs/base-6.12.config" ]
check "config: KVER=6.1 x86_64's fragments" [ "$(KVER=6.1 frags)" = "configs/guest.config configs/tests.config configs/seccomp-mask.config configs/arch-x86_64.config configs/base-6.1.config configs/base-6.1-x86_64.config" ]
check "config: KVER=6.1 ARCH=arm64's fragments (the 6.1 base has the arm64 port too)" \
	[ "$(KVER=6.1 ARCH=arm64 frags)" = "configs/guest.config configs/tests.config configs/seccomp-mask.config configs/arch-arm64.config configs/base-6.1.config" ]
RC=0; (cd "$ROOT" && ARCH=sparc scripts/config "$K" "$TMPD/obj") > "$TMPD/out" 2>&1 || RC=$?
check "config: an unknown ARCH is refused" eval '[ "$RC" = 1 ] && grep -q "ARCH=sparc: the harness builds x86_64 (the default) or arm64 guests" "$TMPD/out"'
RC=0; (cd "$ROOT" && ARCH=arm64 scripts/config "$K" "$TMPD/obj" configs/matrix/no-ia32.config) > "$TMPD/out" 2>&1 || RC=$?
check "config: an x86_64 matrix fragment is refused for ARCH=arm64" \
	eval '[ "$RC" = 1 ] && grep -q "no-ia32.config is for ARCH=x86_64 only, not arm64" "$TMPD/out"'
check "config: configs/debug.config is followed by configs/debug-x86_64.config on x86_64 only" \
	eval '[ "$(cd "$ROOT" && . scripts/lib.sh && arch_fragments configs/debug.config | paste -s -d " ")" = "configs/debug.config configs/debug-x86_64.config" ] &&
	      [ "$(cd "$ROOT" && ARCH=arm64 . scripts/lib.sh && arch_fragments configs/debug.config | paste -s -d " ")" = "configs/debug.config" ]'
# Every fragment of every architecture's lists and every extra one exists
# and each symbol is set once per list (no fragment silently overriding
# another one's choice).
dups=
for a in x86_64 arm64; do
	for k in 6.12 6.1; do
		fl=$( (cd "$ROOT" && ARCH=$a KVER=$k . scripts/lib.sh && base_fragments && arch_fragments configs/debug.config) 2>/dev/null) || continue
		d=$(sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p' -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1/p' $fl | sort | uniq -d |
			grep -v -x -e CONFIG_SLUB_DEBUG -e CONFIG_DEBUG_KERNEL -e CONFIG_COMPAT_32BIT_TIME || true)
		[ -z "$d" ] || dups="$dups $a/$k:$(echo $d)"
	done
done
check "config: no symbol is set by two fragments of one architecture's list, but the debug ones meant to repeat${dups:+ (twice:$dups)}" [ -z "$dups" ]
# The fragment list: every listed fragment exists; the main .config stages
# all read it (no other list of fragments in the scripts or the Makefile).
RC=0; (cd "$ROOT" && . scripts/lib.sh && base_fragments) > "$TMPD/frags" 2>&1 || RC=$?
check "config: configs/fragments lists existing fragments" eval '[ "$RC" = 0 ] && [ -s "$TMPD/frags" ]'
check "config: no second list of fragments in Makefile or scripts/" \
	eval '! grep -n "guest\.config.*tests\.config" "$ROOT/Makefile" "$ROOT"/scripts/* 2>/dev/null | grep -v "^[^:]*:[0-9]*:#"'
finish
