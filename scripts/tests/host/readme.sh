#!/bin/bash
# README.md against the repository: its target list is `make help`'s, its
# series table of every base is its patches/<base>/series
# (KVER=<base> scripts/readme-series, the whole table), every relative
# link resolves inside the repository (nothing outside it), and the C
# example for sandbox authors compiles (against the installed headers, or
# when they lack the mask mode the version 3 uapi declared here).
. "$(dirname "$0")/common.sh"
R=$ROOT/README.md
readme_targets=$(sed -n '/^## Targets/,/^## /p' "$R" | sed -n 's/^    make \([a-z][a-z-]*\).*/\1/p' | sort -u)
help_targets=$(make -s --no-print-directory -C "$ROOT" help | sed -n 's/^  make \([a-z][a-z-]*\).*/\1/p' | sort -u)
check "readme: the targets are make help's" [ "$readme_targets" = "$help_targets" ]
[ "$readme_targets" = "$help_targets" ] || diff <(echo "$readme_targets") <(echo "$help_targets") | sed 's/^/  readme vs help: /'
check "readme: 'make' (no target) is listed" grep -q '^    make  ' "$R"
readme=$(cat "$R") bases='' stale=''
for s in "$ROOT"/patches/*/series; do
	b=$(basename "$(dirname "$s")")
	bases="$bases $b"
	table=$(KVER=$b "$ROOT/scripts/readme-series")
	[[ "$readme" == *"$table"* ]] || stale="$stale $b"
done
check "readme: the series table of every base ($bases ) is its patches/<base>/series (KVER=<base> scripts/readme-series)${stale:+ (not for:$stale)}" \
	eval '[ -n "$bases" ] && [ -z "$stale" ]'
check "readme: no link leaves the repository" eval '! grep -nE "\]\(\.\./|\.\./shared" "$R"'
bad=
for l in $(grep -o '](\([^)#]*\))' "$R" | sed 's/^](\(.*\))$/\1/' | grep -v '^[a-z]*://'); do
	[ -e "$ROOT/$l" ] || bad="$bad $l"
done
check "readme: every relative link exists${bad:+ (missing:$bad)}" [ -z "$bad" ]
bad=
for d in "$ROOT"/docs/*.md; do
	for l in $(grep -o '](\([^)#]*\))' "$d" | sed 's/^](\(.*\))$/\1/' | grep -v '^[a-z]*://'); do
		[ -e "$ROOT/docs/$l" ] || bad="$bad $(basename "$d"):$l"
	done
done
check "docs: every relative link exists${bad:+ (missing:$bad)}" [ -z "$bad" ]
sed -n '/^```c$/,/^```$/p' "$R" | sed '1d;$d' > "$TMPD/example.c"
{
	echo '#include <linux/seccomp.h>'
	echo '#ifndef SECCOMP_MODE_MASK'
	echo '#include <linux/types.h>'
	echo '#define SECCOMP_MODE_MASK 3'
	echo '#define SECCOMP_SET_MODE_MASK 4'
	echo '#define SECCOMP_MASK_MAX_BITS 1024'
	echo '#define SECCOMP_GET_MASK_FEATURES 5'
	echo '#define SECCOMP_MASK_FLAG_TSYNC (1UL << 0)'
	echo '#define SECCOMP_MASK_FLAG_SPEC_ALLOW (1UL << 1)'
	echo '#define SECCOMP_MASK_ACTION_KILL_PROCESS (1U << 0)'
	echo '#define SECCOMP_MASK_ACTION_TRAP (1U << 1)'
	echo '#define SECCOMP_MASK_ACTION_ERRNO (1U << 2)'
	echo '#define SECCOMP_MASK_ACTION_LOG (1U << 3)'
	echo 'struct seccomp_mask { __u32 arch; __u32 nbits; __aligned_u64 bits; };'
	echo 'struct seccomp_mask_set { __u32 size; __u32 nr_masks; __u32 action; __u32 __reserved;'
	echo '	__aligned_u64 masks; };'
	echo 'struct seccomp_mask_arch { __u32 arch; __u32 max_bits; };'
	echo 'struct seccomp_mask_features { __u32 size; __u32 set_size; __aligned_u64 flags;'
	echo '	__u32 actions; __u32 nr_arches; struct seccomp_mask_arch arches[4]; };'
	echo '#endif'
} > "$TMPD/uapi-fallback.h"
check "readme: the C example compiles (-Wall -Wextra -Werror)" \
	gcc -Wall -Wextra -Werror -fsyntax-only -include "$TMPD/uapi-fallback.h" "$TMPD/example.c"
finish
