#!/bin/bash
# scripts/build-samples for ARCH=arm64 on a tree without arm64's syscall
# .tbl files (the 6.1 base: they came with 6.11): mask-exec's AArch32
# names from arch/arm/tools/syscall.tbl, its AArch64 names from the
# syscall_64.tbl it makes from the installed asm/unistd.h with the cross
# compiler's preprocessor (here the host's gcc behind fake cross
# compilers, which write no program).  A number the preprocessor leaves
# an expression fails the stage.
. "$(dirname "$0")/common.sh"

S=$TMPD/src O=$TMPD/kobj OUT=$TMPD/samples F=$TMPD/fakecc
mkdir -p "$S/samples/seccomp" "$S/include/uapi/linux" "$S/include/uapi/asm-generic" \
	"$S/arch/arm64/include/uapi/asm" "$S/arch/arm/tools" "$S/arch/arm/include/uapi/asm" \
	"$O/usr/include/asm" "$O/usr/include/linux" "$F"
cp "$ROOT/samples/seccomp/mask-exec-names.sh" "$S/samples/seccomp/"
echo 'int main(void) { return 0; }' > "$S/samples/seccomp/mask-exec.c"
echo '/* uapi */' > "$S/include/uapi/linux/seccomp.h"
cp "$S/include/uapi/linux/seccomp.h" "$O/usr/include/linux/seccomp.h"
echo '/* generic */' > "$S/include/uapi/asm-generic/unistd.h"
echo '/* arm64 */' > "$S/arch/arm64/include/uapi/asm/unistd.h"
# The installed header: plain numbers, one through a __NR3264_ name (as
# asm-generic's fcntl), and the two __NR_ names that are no syscalls.
cat > "$O/usr/include/asm/unistd.h" <<'EOF'
#define __NR_io_setup 0
#define __NR3264_fcntl 25
#define __NR_fcntl __NR3264_fcntl
#define __NR_openat 56
#define __NR_arch_specific_syscall 244
#define __NR_set_mempolicy_home_node 450
#undef __NR_syscalls
#define __NR_syscalls 451
EOF
printf '%s\n' '# <num> <abi> <name> [<entry point> [<oabi compat entry point>]]' \
	'0	common	restart_syscall		sys_restart_syscall' \
	'5	common	open			sys_open' \
	'13	oabi	time			sys_time32' \
	'341	common	arm_sync_file_range	sys_sync_file_range2' > "$S/arch/arm/tools/syscall.tbl"
printf '%s\n' '#define __ARM_NR_BASE			(__NR_SYSCALL_BASE+0x0f0000)' \
	'#define __ARM_NR_cacheflush		(__ARM_NR_BASE+2)' \
	'#define __ARM_NR_set_tls		(__ARM_NR_BASE+5)' > "$S/arch/arm/include/uapi/asm/unistd.h"
# Fake cross compilers: the host's preprocessor for -E, an empty output
# file for a compile.
for c in aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc; do
	cat > "$F/$c" <<'EOF'
#!/bin/bash
case " $* " in
*" --version "*) echo "fake $(basename "$0") 0"; exit 0 ;;
*" -E "*) exec gcc "$@" ;;
esac
while [ $# -gt 0 ]; do [ "$1" = -o ] && { : > "$2"; exit 0; }; shift; done
exit 0
EOF
	chmod +x "$F/$c"
done
bs() { RC=0; PATH=$F:$PATH NO_CCACHE=1 KVER=6.1 ARCH=arm64 "$ROOT/scripts/build-samples" "$S" "$O" "$OUT" > "$TMPD/bs.out" 2>&1 || RC=$?; }

bs
check "samples: arm64 without .tbl files (6.1): build-samples succeeds" [ "$RC" = 0 ]
check "samples: ... syscall_64.tbl has every __NR_ syscall with its number, in order, the __NR3264_ one resolved" \
	[ "$(cat "$OUT/syscall_64.tbl" 2>/dev/null)" = "$(printf '0\tcommon\tio_setup\n25\tcommon\tfcntl\n56\tcommon\topenat\n450\tcommon\tset_mempolicy_home_node')" ]
h=$OUT/mask-exec-names.h
check "samples: ... the AArch64 names come from it" \
	eval 'sed -n "/syscall_names_64/,/^};/p" "$h" | grep -qx "	\[25\] = \"fcntl\"," &&
	      ! grep -q "arch_specific_syscall\|\"syscalls\"" "$h"'
check "samples: ... the AArch32 names from arch/arm/tools/syscall.tbl (common entries only) and the ARM-private ones as 1024 + k" \
	eval '[ "$(sed -n "/syscall_names_32/,/^};/p" "$h" | grep -c "^	\[")" = 5 ] &&
	      sed -n "/syscall_names_32/,/^};/p" "$h" | grep -qx "	\[341\] = \"arm_sync_file_range\"," &&
	      sed -n "/syscall_names_32/,/^};/p" "$h" | grep -qx "	\[1029\] = \"set_tls\"," &&
	      ! grep -q "\"time\"" "$h"'
# A number that is no plain number: an error naming it, no table.
echo '#define __NR_odd (__NR_openat + 1)' >> "$O/usr/include/asm/unistd.h"
rm -rf "$OUT"
bs
check "samples: a __NR_ number left an expression fails the stage" \
	eval '[ "$RC" != 0 ] && grep -rq "not a number: MASK_EXEC_NR odd" "$BUILD_DIR/logs" && [ ! -f "$OUT/syscall_64.tbl" ]'
finish
