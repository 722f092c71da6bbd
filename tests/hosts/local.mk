# make check-hosts: the library, chstk and elfscan built for a big-endian
# host (s390x, cross-compiled, run under qemu-user) and a 32-bit one (i386),
# their unit tests run there, and their answers compared with this
# machine's (tests/hosts/check.sh). The foreign builds are VPATH builds of
# a distdir in build-hosts/; the foreign libraries (sysroot.sh) are cached
# in $XDG_CACHE_HOME/chstk (~/.cache/chstk without it), as the kernels are.
HOSTS = s390x i386
HOSTS_JOBS = 2
hosts_dir = $(abs_top_builddir)/build-hosts
hosts_scripts = tests/hosts/check.sh tests/hosts/build.sh \
	tests/hosts/sysroot.sh tests/hosts/equiv.sh tests/hosts/largefile.sh
EXTRA_DIST += $(hosts_scripts)

check-hosts: src/chstk/chstk$(EXEEXT) src/elfscan/elfscan$(EXEEXT) \
    fuzz/gen-seeds$(EXEEXT)
	rm -rf '$(hosts_dir)/src'
	mkdir -p '$(hosts_dir)'
	$(MAKE) $(AM_MAKEFLAGS) distdir distdir='$(hosts_dir)/src'
	$(AM_TESTS_ENVIRONMENT) \
	GEN_SEEDS='$(abs_top_builddir)/fuzz/gen-seeds$(EXEEXT)'; \
	UNIT_TESTS='$(unit_tests)'; HOSTS_JOBS='$(HOSTS_JOBS)'; \
	export GEN_SEEDS UNIT_TESTS HOSTS_JOBS; \
	$(SHELL) '$(srcdir)/tests/hosts/check.sh' '$(hosts_dir)/src' \
	    '$(hosts_dir)' "$${XDG_CACHE_HOME:-$$HOME/.cache}/chstk" \
	    $(HOSTS)

clean-local: clean-local-hosts
clean-local-hosts:
	rm -rf '$(hosts_dir)'
.PHONY: check-hosts clean-local-hosts
