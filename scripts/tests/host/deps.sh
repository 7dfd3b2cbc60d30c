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
[ "$1" = --print-foreign-architectures ] && { echo arm64; exit 0; }
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
exit 0
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
exit 0
