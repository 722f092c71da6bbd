# tests/packaging/hello-spec.sh - sourced by rpm.sh (through common.sh) and
# packages.sh: the one spec file their rpmbuild runs build.

# write_spec FILE [PREAMBLE-LINE [INSTALL-LINE [debuginfo]]]: the spec of
# a package of two programs built from hello.c (in %_sourcedir), hello-exec
# linked with -z execstack and hello without; with debuginfo, built with
# -g, and a -debuginfo package holds their detached debugging files.
write_spec() {
	cat >"$1" <<EOF
${2:-}
Name: chstk-hello
Version: 1
Release: 1
Summary: two programs, one linked with an executable stack
License: MIT

%description
A package for the tests of brp-chstk.

${4:+%debug_package}

%build
gcc ${4:+-g} -o hello %{_sourcedir}/hello.c
gcc ${4:+-g} -z execstack -o hello-exec %{_sourcedir}/hello.c

%install
mkdir -p %{buildroot}%{_bindir}
install -m 755 hello hello-exec %{buildroot}%{_bindir}/
${3:-}

%files
%{_bindir}/*
EOF
}
