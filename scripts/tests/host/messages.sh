#!/bin/bash
# The commit message of every patch of every base (patches/<base>/series,
# up to the first "---" line) has no placeholder left: XXX, TODO, FIXME,
# TBD or a [[...]] marker (a figure still to be measured, a sentence
# still to be written).  The diffs are not read: a selftest's mkstemp()
# template is XXXXXX.  The check itself is tried on a message with one.
. "$(dirname "$0")/common.sh"

# (awk has no \b: the word boundary is spelt out)
placeholders='(^|[^A-Za-z0-9_])(XXX|TODO|FIXME|TBD)|\[\['
# holes FILE...: "FILE:LINE: TEXT" for each placeholder in a message
holes() {
	awk -v re="$placeholders" '
		FNR == 1 { body = 1 }
		body && /^---$/ { body = 0 }
		body && $0 ~ re { print FILENAME ":" FNR ": " $0 }' "$@"
}

for s in "$ROOT"/patches/*/series; do
	base=$(basename "$(dirname "$s")")
	mapfile -t files < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' \
		-e "s|^|$ROOT/patches/$base/|" "$s")
	[ -f "$ROOT/patches/$base/0000-cover-letter.patch" ] &&
		files+=("$ROOT/patches/$base/0000-cover-letter.patch")
	out=$(holes "${files[@]}" | sed "s|^$ROOT/||")
	check "messages: no placeholder in the ${#files[@]} commit messages of patches/$base/${out:+ (${out%%$'\n'*})}" \
		[ -z "$out" ]
done

printf 'Subject: [PATCH] x\n\nIt costs XXX instructions.\n---\n+char t[] = "XXXXXX";\n' > "$TMPD/a.patch"
printf 'Subject: [PATCH] y\n\nIt costs 18 instructions.\n---\n+char t[] = "/tmp/x.XXXXXX"; /* TODO */\n' > "$TMPD/b.patch"
out=$(holes "$TMPD/a.patch" "$TMPD/b.patch")
check "messages: ... a placeholder in a message is found, with its file and line" \
	[ "$out" = "$TMPD/a.patch:3: It costs XXX instructions." ]
finish
