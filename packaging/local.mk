# Rules for packaging/ (included by the top-level Makefile.am): the hooks
# that run elfscan over what an rpm or a Debian package installs.

# rpm: the macros file where rpm reads add-ons, the brp script beside
# rpm's own (both under $(prefix)/lib/rpm, not $(libdir): rpm's directory
# is lib on every architecture).
rpmhookdir = $(prefix)/lib/rpm
rpmmacrosdir = $(rpmhookdir)/macros.d
rpmhook_SCRIPTS = packaging/rpm/brp-chstk
rpmmacros_DATA = packaging/rpm/macros.chstk

# debhelper: the command, its sequence addon where dh looks for addons,
# and its manual.
dhbindir = $(bindir)
dhbin_SCRIPTS = packaging/debhelper/dh_chstk
dhsequencedir = $(datadir)/perl5/Debian/Debhelper/Sequence
dist_dhsequence_DATA = packaging/debhelper/Debian/Debhelper/Sequence/chstk.pm
dist_man_MANS += man/dh_chstk.1

# The two hooks share one policy, hook-policy.pl, which make writes into
# each in place of its @hook_policy@ line: each installed hook is one
# script, and both are built from the same policy.
#
# The hooks run the installed tools: their paths are written in at make
# time, not by configure. packaging/dirs holds them and changes only when
# they do, so that "make install prefix=..." after "make" remakes the hooks.
packaging_policy = $(srcdir)/packaging/hook-policy.pl
packaging_inline = sed -e '/^@hook_policy[@]$$/{r $(packaging_policy)' -e 'd;}'
packaging_edit = sed \
	-e 's|@bindir[@]|$(bindir)|g' \
	-e 's|@rpmhookdir[@]|$(rpmhookdir)|g'
packaging_generated = packaging/rpm/brp-chstk packaging/rpm/macros.chstk \
	packaging/debhelper/dh_chstk
packaging/dirs: packaging-dirs-force
	$(AM_V_at)$(MKDIR_P) packaging && \
	echo '$(bindir) $(rpmhookdir)' >$@.tmp && \
	if cmp -s $@ $@.tmp; then rm -f $@.tmp; else mv $@.tmp $@; fi
packaging-dirs-force:
.PHONY: packaging-dirs-force
$(packaging_generated): packaging/dirs $(packaging_policy)
	$(AM_V_GEN)$(MKDIR_P) $(@D) && rm -f $@ $@.tmp $@.in.tmp && \
	$(packaging_inline) $(srcdir)/$@.in >$@.in.tmp && \
	$(packaging_edit) $@.in.tmp >$@.tmp && rm -f $@.in.tmp && \
	case $@ in *.chstk) ;; *) chmod +x $@.tmp ;; esac && \
	mv $@.tmp $@
packaging/rpm/brp-chstk: $(srcdir)/packaging/rpm/brp-chstk.in
packaging/rpm/macros.chstk: $(srcdir)/packaging/rpm/macros.chstk.in
packaging/debhelper/dh_chstk: $(srcdir)/packaging/debhelper/dh_chstk.in
CLEANFILES += $(packaging_generated) packaging/dirs
EXTRA_DIST += $(packaging_generated:=.in) packaging/hook-policy.pl

# make installcheck (and so distcheck): the installed hooks find the
# installed tools without help. (The tools find libchstk in a prefix the
# dynamic linker does not search through LD_LIBRARY_PATH.)
installcheck-local: installcheck-packaging
installcheck-packaging:
	LD_LIBRARY_PATH='$(libdir)'$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH} \
	top_srcdir='$(abs_top_srcdir)' CHSTK='$(bindir)/chstk' \
	ELFSCAN='$(bindir)/elfscan' BINDIR='$(bindir)' \
	RPMHOOKDIR='$(rpmhookdir)' PERL5DIR='$(datadir)/perl5' \
	    $(SHELL) $(srcdir)/tests/packaging/installed.sh
.PHONY: installcheck-packaging

# chstk itself as distribution packages: debian/ (dpkg-buildpackage) and
# chstk.spec (made by configure; rpmbuild -ta reads it from the tarball).
EXTRA_DIST += chstk.spec chstk.spec.in \
	debian/changelog debian/control debian/copyright debian/rules \
	debian/source/format debian/not-installed debian/libchstk0.symbols \
	debian/chstk.install debian/libchstk0.install \
	debian/libchstk-dev.install debian/dh-chstk.install

# make check-packages: builds the packages from the release tarball with
# dpkg-buildpackage and rpmbuild, judges them with lintian and rpmlint,
# installs them into a throwaway root and builds a package with each
# installed hook there, then removes them; and ./bootstrap deps, run in a
# throwaway fresh bookworm root, installs everything the tests use
# (tests/packaging/bootstrap.sh). It needs root (dpkg, chroot).
EXTRA_DIST += packaging/rpmlint.toml
check-packages: dist-gzip
	top_srcdir='$(abs_top_srcdir)' \
	TARBALL='$(abs_top_builddir)/$(distdir).tar.gz' \
	PACKAGE_VERSION='$(PACKAGE_VERSION)' \
	CHSTK='$(abs_top_builddir)/src/chstk/chstk' \
	    $(SHELL) $(srcdir)/tests/packaging/packages.sh
	top_srcdir='$(abs_top_srcdir)' \
	TARBALL='$(abs_top_builddir)/$(distdir).tar.gz' \
	CHSTK='$(abs_top_builddir)/src/chstk/chstk' \
	    $(SHELL) $(srcdir)/tests/packaging/bootstrap.sh
.PHONY: check-packages
