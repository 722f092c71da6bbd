# Rules for kernel/ (included by the top-level Makefile.am).
#
# The exec-shield patch series for Debian 12's linux-source-6.1, and the
# config fragment that turns it on in a tinyconfig kernel.

kernel_patches = \
	kernel/0001-exec-add-exec-shield-a-system-wide-policy-for-execut.patch \
	kernel/0002-exec-let-no-stack-become-executable-at-exec-shield-l.patch \
	kernel/0003-exec-shield-log-the-programs-whose-executable-stack-.patch \
	kernel/0004-x86-mm-map-the-libraries-of-ia32-processes-in-the-AS.patch
EXTRA_DIST += \
	$(kernel_patches) \
	kernel/exec-shield.config
