#!/bin/bash
# scripts/deps decides what is missing from dpkg's own answers (fake dpkg,
# dpkg-query and apt-get first on PATH): a package whose host copy is
# installed is not missing, also when a foreign architecture's copy is
# installed beside it (multiarch: the bare name then matches both); a
# package installed only for another architecture, or not at all, is.
. "$(dirname "$0")/common.sh"
F=$TMPD/fakebin
mkdir -p "$F"
cat > "$F/dpkg" <<'SH'
#!/bin/sh
[ "$1" = --print-architecture ] && { echo amd64; exit 0; }
[ "$1" = --print-foreign-architectures ] && { echo "${FAKE_FOREIGN-arm64}"; exit 0; }
[ "$1" = --add-architecture ] && { echo "dpkg $*" >> "$FAKE_APT_LOG"; exit 0; }
[ "$1" = -x ] && PATH=/usr/bin:/bin exec /usr/bin/dpkg "$@"   # (not the fake tar)
exit 1
SH
# FAKE_DPKG: "name:arch" words installed; "name:all" for Architecture: all.
cat > "$F/dpkg-query" <<'SH'
#!/bin/bash
# -f '${Architecture}:...\n' prints a line per copy, as dpkg-query does.
q=${!#} out=
for w in $FAKE_DPKG; do
	case $q in
	*:*) [ "$w" = "$q" ] && out+=installed ;;
	*) [ "${w%%:*}" = "$q" ] || continue
	   case $2 in *Architecture*) out+="${w#*:}:installed"$'\n' ;; *) out+=installed ;; esac ;;
	esac
done
[ -n "$out" ] || { echo "dpkg-query: no packages found matching $q" >&2; exit 1; }
printf '%s' "$out"
SH
cat > "$F/apt-get" <<'SH'
#!/bin/sh
echo "$*" >> "$FAKE_APT_LOG"
if [ "$1" = download ]; then
	[ -n "${FAKE_DEB:-}" ] || { echo "E: Can't select candidate version from package $2" >&2; exit 100; }
	cp "$FAKE_DEB" .
fi
exit 0
SH
# FAKE_UID: the user scripts/deps runs as.
cat > "$F/id" <<'SH'
#!/bin/sh
[ "$1" = -u ] && { echo "${FAKE_UID:-0}"; exit 0; }
exec /usr/bin/id "$@"
SH
chmod +x "$F"/*
export FAKE_APT_LOG=$TMPD/apt.log
ALL="make:amd64 gcc:amd64 libc6-dev:amd64 gcc-12-multilib:amd64 flex:amd64 bison:amd64 bc:amd64 libelf-dev:amd64
	libssl-dev:amd64 cpio:amd64 ccache:amd64 python3:amd64 perl:amd64 rsync:amd64 xz-utils:amd64 gzip:amd64
	quilt:all qemu-system-x86:amd64 busybox-static:amd64 linux-source-6.12:all"
# The 6.12 base whatever KVER the caller runs with (make check KVER=6.1).
deps() { : > "$FAKE_APT_LOG"; RC=0; OUT=$(PATH=$F:$PATH KVER=6.12 FAKE_DPKG="$1" "$ROOT/scripts/deps" 2>&1) || RC=$?; }

deps "$ALL libcap-dev:amd64 libcap-dev:arm64"
check "deps: libcap-dev for the host and for arm64 is not missing ($OUT)" [ "$RC:$(cat "$FAKE_APT_LOG")" = 0: ]
deps "$ALL libcap-dev:arm64"
check "deps: libcap-dev for arm64 only is missing ($(cat "$FAKE_APT_LOG"))" \
	grep -q 'install .*libcap-dev' "$FAKE_APT_LOG"
deps "${ALL/quilt:all/} libcap-dev:amd64"
check "deps: an Architecture: all package that is not installed is missing, and only it ($(cat "$FAKE_APT_LOG"))" \
	[ "$(cat "$FAKE_APT_LOG")" = "install -y --no-install-recommends quilt" ]

# ARCH=arm64: the cross compilers, qemu-system-arm and libcap-dev:arm64
# (multiarch) besides, and the guest's busybox fetched and unpacked under
# build/, never installed.
ARM="gcc-aarch64-linux-gnu:amd64 libc6-dev-arm64-cross:all gcc-arm-linux-gnueabihf:amd64 libc6-dev-armhf-cross:all
	qemu-system-arm:amd64 libcap-dev:arm64 libcap-dev:amd64"
adeps() { : > "$FAKE_APT_LOG"; RC=0; OUT=$(cd "$TMPD" && PATH=$F:$PATH KVER=6.12 ARCH=arm64 FAKE_DPKG="$1" "$ROOT/scripts/deps" 2>&1) || RC=$?; }
if command -v aarch64-linux-gnu-gcc >/dev/null && command -v dpkg-deb >/dev/null; then
	P=$TMPD/pkg
	mkdir -p "$P/DEBIAN" "$P/bin"
	printf 'Package: busybox-static\nVersion: 1:1.35.0-4\nArchitecture: arm64\nMaintainer: t <t@t>\nDescription: t\n' > "$P/DEBIAN/control"
	echo 'int main(void) { return 0; }' | aarch64-linux-gnu-gcc -static -x c -o "$P/bin/busybox" -
	# (dpkg-deb runs tar: not the fake one of the host tests)
	PATH=/usr/bin:/bin dpkg-deb --build "$P" "$TMPD/busybox-static_1.35.0-4_arm64.deb" >/dev/null
	cp /bin/true "$P/bin/busybox"
	mkdir -p "$TMPD/bad"
	PATH=/usr/bin:/bin dpkg-deb --build "$P" "$TMPD/bad/busybox-static_1.35.0-4_arm64.deb" >/dev/null
	export FAKE_DEB=$TMPD/busybox-static_1.35.0-4_arm64.deb
	adeps "$ALL $ARM"
	check "deps: ARCH=arm64 with everything installed: nothing installed, busybox-static:arm64 downloaded ($OUT)" \
		[ "$RC:$(cat "$FAKE_APT_LOG")" = "0:download busybox-static:arm64" ]
	check "deps: ... and unpacked into build/, never installed" \
		eval '[ -f "$BUILD_DIR/busybox-arm64/bin/busybox" ] && [ ! -e "$BUILD_DIR/busybox-arm64.tmp" ] && ! grep -q "install\|dpkg -i" "$FAKE_APT_LOG"'
	adeps "$ALL $ARM"
	check "deps: ... once (an unpacked busybox is kept)" [ "$RC:$(cat "$FAKE_APT_LOG")" = 0: ]
	check "deps: x86_64 never fetches it" eval 'deps "$ALL libcap-dev:amd64"; ! grep -q download "$FAKE_APT_LOG"'
	rm -rf "$BUILD_DIR/busybox-arm64"
	FAKE_DEB=$TMPD/bad/busybox-static_1.35.0-4_arm64.deb adeps "$ALL $ARM"
	check "deps: a busybox that is not a static arm64 program is refused" \
		eval '[ "$RC" = 1 ] && grep -q "has no static arm64 bin/busybox" <<<"$OUT" && [ ! -e "$BUILD_DIR/busybox-arm64" ]'
	FAKE_DEB= adeps "$ALL $ARM"
	check "deps: a failed download fails, naming the multiarch setup" \
		eval '[ "$RC" = 1 ] && grep -q "apt-get download busybox-static:arm64 failed (arm64 must be a dpkg architecture" <<<"$OUT"'
	adeps "$ALL ${ARM/libcap-dev:arm64/}"
	check "deps: ARCH=arm64 without libcap-dev:arm64: installed (as root), then busybox fetched" \
		[ "$RC:$(cat "$FAKE_APT_LOG" | paste -s -d '|')" = "0:install -y --no-install-recommends libcap-dev:arm64|download busybox-static:arm64" ]
	rm -rf "$BUILD_DIR/busybox-arm64"
	FAKE_FOREIGN= adeps "$ALL ${ARM/libcap-dev:arm64/}"
	check "deps: no arm64 dpkg architecture yet: added, lists updated, then the install (as root)" \
		[ "$RC:$(cat "$FAKE_APT_LOG" | paste -s -d '|')" = "0:dpkg --add-architecture arm64|update -q|install -y --no-install-recommends libcap-dev:arm64|download busybox-static:arm64" ]
	FAKE_UID=1000 FAKE_FOREIGN= adeps "$ALL ${ARM/qemu-system-arm:amd64/}"
	check "deps: not root: the one line to run, multiarch first, and nothing done" \
		eval '[ "$RC" = 1 ] && grep -q "as root run: dpkg --add-architecture arm64 && apt-get update && apt-get install -y --no-install-recommends qemu-system-arm$" <<<"$OUT" && [ ! -s "$FAKE_APT_LOG" ]'
else
	skip "deps: ARCH=arm64: no aarch64-linux-gnu-gcc or dpkg-deb to make a fake busybox-static:arm64 with"
fi
exit 0
