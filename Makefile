# seccomp_mask harness.  Targets only: each runs stage scripts in scripts/,
# which skip their work when their inputs did not change (stamps in build/).
#
#   source -> series -> config -> kernel -> tests -> initramfs -> boot -> results
#
# Variables (environment or make command line):
#   KVER=6.12|6.1         the kernel base of every target (default 6.12): its
#                         series is patches/$(KVER)/, its builds build/$(KVER)/
#   ARCH=x86_64|arm64     the guest's architecture for every target (default
#                         x86_64); arm64 (either base) is cross-built and boots
#                         on qemu-system-aarch64 -M virt (TCG), its builds in
#                         build/$(KVER)-arm64/, its baseline baselines/$(KVER)-arm64/
#   KSRC=/path/to/linux   use your own kernel tree (read-only, Linux $(KVER).y)
#                         instead of the Debian linux-source-$(KVER) tarball
#   JOBS=N                parallel jobs of every build (default: make's -jN, else nproc)
#   QEMU_ACCEL=kvm|tcg    force the accelerator (default: probe KVM, else TCG)
#   CMD='...'             make run: run one command in the guest (make exits 0
#                         or 2; scripts/guest-run returns the command's status)
#   KSFT_ARGS='-t c:t'    make check: arguments for run_kselftest.sh
#   HARNESS_MASK_REQUIRED=1|0  override SECCOMP_MASK_REQUIRED in the guest
#                         (default: CONFIG_SECCOMP_MASK of the booted kernel)
#   HARNESS_SELF_TESTS=0  make check: leave out the harness self-tests (.ci/run's
#                         later parts; its first part ran them)
#   BUILD_DIR=dir         everything generated goes there (default build/$(KVER)/,
#                         build/$(KVER)-arm64/ with ARCH=arm64)

SHELL := /bin/bash
S := scripts
KVER ?= 6.12
export KVER ARCH KSRC QEMU_ACCEL CMD KSFT_ARGS BUILD_DIR BOOT_TIMEOUT CHECK_TIMEOUT \
	SECCOMP_BENCHMARK_SAMPLES QEMU_MEM QEMU_SMP QEMU_CPU KERNEL_CMDLINE GUEST_FILES DEMO \
	JOBS HARNESS_MASK_REQUIRED BENCH_CONFIG

# (scripts/lib.sh checks ARCH and KVER; build/<base>-arm64 for arm64)
BUILD      := $(if $(BUILD_DIR),$(BUILD_DIR),build/$(KVER)$(if $(filter arm64 aarch64,$(ARCH)),-arm64))

# The stages run in order; each runs its own parallel builds.
.NOTPARALLEL:

.PHONY: all build deps ksrc series config kernel kernel-image tests initramfs \
	run check check-host drift patches baseline checkpatch bisect-check \
	build-matrix check-debug check-unpatched bench mutants clean distclean help

all: build

build: deps
	@$(S)/series >/dev/null
	@$(S)/config $(BUILD)/linux $(BUILD)/obj
	@$(S)/build-kernel
	@$(S)/build-tests
	@$(S)/build-samples
	@$(S)/initramfs

deps:
	@$(S)/deps

ksrc: deps
	@$(S)/ksrc

series: deps
	@$(S)/series

config: deps
	@$(S)/series >/dev/null
	@$(S)/config $(BUILD)/linux $(BUILD)/obj

kernel: config
	@$(S)/build-kernel

# `make -s kernel-image` prints only the image path on stdout.
kernel-image: kernel
	@$(S)/build-kernel --print-image

tests: kernel
	@$(S)/build-tests

initramfs: tests
	@$(S)/build-samples
	@$(S)/initramfs

# Interactive shell on a terminal (after /demo.sh, if the initramfs has one);
# CMD='...' runs one command (make itself exits 0 when its status is 0, else
# 2 after boot's line "guest ... result: exit N"; scripts/guest-run CMD
# returns the command's own status); no terminal and no CMD: /demo.sh if the
# initramfs has one, else boot, print uname and exit 0.  DEMO=0 skips /demo.sh.
run: build
	@if [ -n "$$CMD" ]; then \
		exec $(S)/boot --name run --cmd "$$CMD" --out stdio; \
	elif [ -t 0 ] && [ -t 1 ]; then \
		exec $(S)/boot --name run --mode shell; \
	else \
		exec $(S)/boot --name run --mode default --out stdio; \
	fi

# Host self-tests of the harness (no kernel, seconds): TAP parser and console
# scanner against recorded logs, boot/Ctrl-C with a fake QEMU, .ci/run,
# config validation, series stamp, KSRC refusal, drift, README vs help.
check-host:
	@$(S)/tests/run

# The seccomp_mask selftests and their generated patch must agree.
drift:
	@if [ -x $(S)/gen-mirror-patch ]; then \
		$(S)/gen-mirror-patch --check && $(S)/cover-letter --check; \
	else \
		echo "drift: notice: scripts/gen-mirror-patch does not exist yet; drift check skipped" >&2; \
	fi

patches:
	@if [ -x $(S)/gen-mirror-patch ]; then $(S)/gen-mirror-patch && $(S)/cover-letter; \
	else echo "patches: error: scripts/gen-mirror-patch does not exist yet" >&2; exit 1; fi

# Every step goes through scripts/stage: whatever fails, the output ends
# with the "N passed, N failed, N skipped" line.
check:
	@$(S)/stage deps $(S)/deps
	@if [ "$(HARNESS_SELF_TESTS)" = 0 ]; then \
		echo "check: the harness self-tests are left out (HARNESS_SELF_TESTS=0)" >&2; \
	else $(S)/stage self-tests $(S)/tests/run; fi
	@$(S)/stage drift $(MAKE) -s --no-print-directory drift
	@$(S)/stage build $(MAKE) -s --no-print-directory build
	@$(S)/run-tests --name check

check-debug: deps ; @$(S)/check-debug

# Negative control: the unpatched kernel (make baseline's build) with the
# seccomp_mask tests in required mode; succeeds only if they fail there.
check-unpatched: deps build ; @$(S)/check-unpatched

# Mutation testing (scripts/mutants, mutants/): added separately.
mutants: deps
	@if [ -x $(S)/mutants ]; then $(S)/mutants; \
	else echo "mutants: error: scripts/mutants does not exist yet" >&2; exit 1; fi

# Boot once: mask vs no seccomp vs BPF filters -> build/bench/ (scripts/bench);
# BENCH_CONFIG=configs/preempt.config: a kernel of its own with that fragment
# too -> build/bench-config/preempt/.
bench: deps build ; @$(S)/bench

# Record the upstream selftests on the UNPATCHED kernel (same config) into
# baselines/seccomp.txt; build/baseline/ keeps its own objects.
baseline: deps
	@$(S)/baseline

checkpatch:
	@$(S)/deps python3-ply python3-git
	@$(S)/checkpatch

bisect-check: deps
	@$(S)/bisect-check

build-matrix: deps
	@$(S)/build-matrix

clean:
	rm -rf $(BUILD)/obj $(BUILD)/linux $(BUILD)/kselftest $(BUILD)/initramfs* \
		$(BUILD)/job-* $(BUILD)/logs $(BUILD)/stamps $(BUILD)/series-snapshot \
		$(BUILD)/baseline $(BUILD)/bisect $(BUILD)/matrix $(BUILD)/accel-probe* \
		$(BUILD)/debug-obj $(BUILD)/debug-kselftest $(BUILD)/debug-initramfs* \
		$(BUILD)/samples $(BUILD)/bench $(BUILD)/bench-before $(BUILD)/bench-config \
		$(BUILD)/mutants

# Also drops the extracted source, the compiler cache and (arm64) the
# fetched guest busybox.
distclean: clean
	rm -rf $(BUILD)/src $(BUILD)/ccache $(BUILD)/busybox-arm64

help:
	@echo 'seccomp_mask: kernel patch series + build/boot/test harness'
	@echo
	@echo '  make               build kernel (patched), kselftests, initramfs'
	@echo '  make run           build and boot: shell on a terminal; CMD="..." runs one'
	@echo '                     command (make exits 0 or 2: scripts/guest-run returns the'
	@echo '                     command'"'"'s status); else /demo.sh or uname'
	@echo '                     (DEMO=0: no /demo.sh, also not before the shell)'
	@echo '  make check         harness self-tests, drift check, build, run all selftests'
	@echo '                     in the guest, compare with baselines/; ends with'
	@echo '                     "N passed, N failed, N skipped"'
	@echo '  make check-debug   debug kernel (PREEMPT, KASAN, UBSAN, lockdep, kmemleak):'
	@echo '                     selftests, fuzzer and leak test; any report fails (20 min cold)'
	@echo '  make check-unpatched  negative control: the seccomp_mask tests must FAIL on'
	@echo '                     the unpatched kernel (required mode)'
	@echo '  make mutants       mutation testing of the tests (scripts/mutants)'
	@echo '  make bench         mask mode vs no seccomp vs BPF filters -> build/bench/'
	@echo '  make kernel-image  build the kernel; with -s prints only the image path'
	@echo '  make baseline      record the upstream seccomp selftests on the unpatched kernel'
	@echo '  make checkpatch    checkpatch.pl --strict on every patch of the series'
	@echo '  make bisect-check  apply the series patch by patch and build each prefix'
	@echo '  make build-matrix  build with SECCOMP_MASK=n, SECCOMP_FILTER=n, IA32_EMULATION=n'
	@echo '                     (arm64: COMPAT=n), PREEMPT_DYNAMIC=y (W=1)'
	@echo '  make patches       regenerate the generated patches (scripts/gen-mirror-patch)'
	@echo '  make drift         check that the generated patches match their sources'
	@echo '  make check-host    the harness self-tests only (no kernel)'
	@echo '  make clean         remove build products (keeps source and ccache)'
	@echo '  make distclean     also remove the extracted source and ccache'
	@echo '  make help          this text'
	@echo
	@echo 'scripts/guest-run CMD  build, boot, run CMD in the guest, exit with its status'
	@echo 'Stages (scripts/): deps ksrc series config build-kernel build-tests initramfs boot tap run-tests'
	@echo 'Every target takes KVER=6.12 (default) or KVER=6.1: the kernel base (patches/KVER/,'
	@echo 'build/KVER/), e.g. make check KVER=6.1'
	@echo 'and ARCH=x86_64 (default) or ARCH=arm64 (either base): the guest'"'"'s architecture,'
	@echo 'cross-built, on qemu-system-aarch64 -M virt (build/KVER-arm64/), e.g. make check ARCH=arm64'
	@echo 'Variables: KVER ARCH KSRC JOBS QEMU_ACCEL CMD KSFT_ARGS BUILD_DIR BOOT_TIMEOUT CHECK_TIMEOUT'
	@echo '           HARNESS_MASK_REQUIRED HARNESS_SELF_TESTS SECCOMP_BENCHMARK_SAMPLES QEMU_MEM QEMU_SMP'
	@echo '           QEMU_CPU KERNEL_CMDLINE GUEST_FILES DEMO BENCH_CONFIG'
