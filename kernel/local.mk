# Rules for kernel/ (included by the top-level Makefile.am).
#
# The exec-shield patch series for Debian's linux-source-6.1 and
# linux-source-6.12 (kernel/6.1/, kernel/6.12/; kernel/6.12-i386/ adds the
# code segment limit of native i386 kernels on top of kernel/6.12/, and
# kernel/targets/6.12-i386-nopae/ builds that kernel without PAE), and the
# harness that proves them by booting each patched kernel under qemu (and
# the i386 one under Bochs too). None of it is part of
# `make check`: building a kernel takes minutes. kernel/mdwe.sh, the
# MemoryDenyWriteExecute oracle, boots the stock 6.12 kernel for the
# system tests (tests/system/mdwe.sh), which build it the first time.
#
#   make check-kernel       build (or reuse) each kernel, boot it once per
#                           level and once switching levels; print the
#                           PASS/FAIL matrix of each; fail if a check fails
#   make bench-kernel       exec and mmap latency at levels 0 and 2; for
#                           i386, pipe round trips and mmap with the
#                           code segment limit and with NX
#   make checkpatch-kernel  the kernel's scripts/checkpatch.pl on each patch
#
# Settings, on the make command line: KERNEL_VERSIONS="6.12" picks the
# kernels (default: every kernel/*/kernel.conf); KERNEL_SERIES=none checks
# a kernel built without the series (the stock kernel fails the checks the
# series is for), KERNEL_SERIES=N one with its first N patches;
# KERNEL_IMAGE=bzImage boots a kernel built elsewhere (one version);
# KERNEL_CACHE=dir keeps built kernels elsewhere than
# $XDG_CACHE_HOME/chstk/kernel; LINUX_TARBALL (one version), CHSTK,
# KERNEL_JOBS, QEMU (instead of kernel.conf's), BOCHS (the Bochs of the
# i386 kernel's near-call boot; BOCHS=none leaves it out), ARMOR_LDSCRIPT
# (the script that links the d32small test program below 16 MiB; without
# it that program is skipped).

kernel_patches = \
	kernel/6.1/0001-exec-add-exec-shield-a-system-wide-policy-for-execut.patch \
	kernel/6.1/0002-exec-let-no-stack-become-executable-at-exec-shield-l.patch \
	kernel/6.1/0003-exec-shield-log-the-programs-whose-executable-stack-.patch \
	kernel/6.1/0004-x86-mm-map-the-libraries-of-ia32-processes-in-the-AS.patch \
	kernel/6.1/0005-x86-mm-load-ia32-PIE-programs-in-the-ASCII-armor-too.patch \
	kernel/6.12/0001-exec-add-exec-shield-a-system-wide-policy-for-execut.patch \
	kernel/6.12/0002-exec-let-no-stack-become-executable-at-exec-shield-l.patch \
	kernel/6.12/0003-exec-shield-log-the-programs-whose-executable-stack-.patch \
	kernel/6.12/0004-x86-mm-map-the-libraries-of-ia32-processes-in-the-AS.patch \
	kernel/6.12/0005-x86-mm-load-ia32-PIE-programs-in-the-ASCII-armor-too.patch \
	kernel/6.12-i386/0006-x86-mm-keep-_PAGE_NX-in-page-protections-on-32-bit-P.patch \
	kernel/6.12-i386/0007-x86-32-exec-shield-emulate-NX-with-the-code-segment-.patch
EXTRA_DIST += \
	$(kernel_patches) \
	kernel/6.1/exec-shield.config \
	kernel/6.1/kernel.conf \
	kernel/6.12/exec-shield.config \
	kernel/6.12/kernel.conf \
	kernel/6.12-i386/i386.config \
	kernel/6.12-i386/kernel.conf \
	kernel/targets/6.12-i386-nopae/kernel.conf \
	kernel/targets/6.12-i386-nopae/nopae.config \
	kernel/check-kernel.sh \
	kernel/matrix.awk \
	kernel/mdwe.sh \
	kernel/README.md \
	kernel/test/cslimit-init.c \
	kernel/test/cslimit.c \
	kernel/test/init.c \
	kernel/test/initlib.c \
	kernel/test/initlib.h \
	kernel/test/mdwe-exec.c \
	kernel/test/mdwe-init.c \
	kernel/test/probe.c \
	kernel/test/tramp.c \
	kernel/test/xstack.c

KERNEL_VERSIONS =
LINUX_TARBALL =
CHSTK = $(abs_top_builddir)/src/chstk/chstk$(EXEEXT)
KERNEL_SERIES =
KERNEL_IMAGE =
KERNEL_CACHE =
KERNEL_JOBS = 2
QEMU =
BOCHS = bochs
ARMOR_LDSCRIPT = $(abs_top_srcdir)/ld/elf_i386_small.x

# Everything the harness writes goes to kernel/work in the build tree.
kernel_env = \
	top_srcdir='$(abs_top_srcdir)' \
	workdir='$(abs_top_builddir)/kernel/work' \
	CHSTK='$(CHSTK)' \
	KERNEL_VERSIONS='$(KERNEL_VERSIONS)' \
	LINUX_TARBALL='$(LINUX_TARBALL)' \
	KERNEL_SERIES='$(KERNEL_SERIES)' \
	KERNEL_IMAGE='$(KERNEL_IMAGE)' \
	KERNEL_CACHE='$(KERNEL_CACHE)' \
	KERNEL_JOBS='$(KERNEL_JOBS)' \
	ARMOR_LDSCRIPT='$(ARMOR_LDSCRIPT)' \
	CC='$(CC)' \
	QEMU='$(QEMU)' \
	BOCHS='$(BOCHS)'

check-kernel: src/chstk/chstk$(EXEEXT)
	$(kernel_env) $(SHELL) $(srcdir)/kernel/check-kernel.sh check

bench-kernel: src/chstk/chstk$(EXEEXT)
	$(kernel_env) $(SHELL) $(srcdir)/kernel/check-kernel.sh bench

checkpatch-kernel:
	$(kernel_env) $(SHELL) $(srcdir)/kernel/check-kernel.sh checkpatch

clean-local: clean-local-kernel
clean-local-kernel:
	-rm -rf kernel/work

.PHONY: check-kernel bench-kernel checkpatch-kernel clean-local-kernel
