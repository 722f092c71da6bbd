/*
 * profiles.c - what each distribution's build flags promise (--profile),
 * as data: one row a promise, each with the flag that makes it, the
 * machines and images it holds for, the property of --require that shows
 * it in the file (hardening.c), and the line of the distribution's own
 * source that makes it. A promise the file cannot show (warnings, -O2,
 * switches only the compiler's DW_AT_producer records) is listed, with
 * why, and never judged. The research behind each row, and what a binary
 * shows of each flag, is elfscan(1), PROFILES.
 */
#include <elf.h>
#include <string.h>

#include "verdict.h"
#include "xalloc.h"

/* What elfscan does with a promise. */
enum check {
	CHECKED,	/* its property is required */
	ALWAYS,		/* elfscan's own findings judge it, profile or not */
	NO_PROPERTY,	/* the file shows it, but no property of elfscan's */
	INVISIBLE,	/* the file does not show it */
	UNMET,		/* the flag is given but cannot take effect */
	UNVERIFIED,	/* whether it takes effect was not read */
	UNPROMISED,	/* the distribution does not give it (a note) */
};

static const char *const check_words[] = {
	[CHECKED] = NULL,
	[ALWAYS] = "always checked: elfscan's own findings",
	[NO_PROPERTY] = "not checked: elfscan has no property for it",
	[INVISIBLE] = "not checked: not visible in the file",
	[UNMET] = "not checked: the flag cannot take effect",
	[UNVERIFIED] = "not checked: not verified",
	[UNPROMISED] = "not promised",
};

struct promise {
	const char *profiles;	/* the profiles that make it, by name,
				   separated by spaces */
	enum check check;
	const char *property;	/* --require's word (CHECKED) */
	unsigned machine;	/* the machine it holds on; 0: every one */
	unsigned except[4];	/* but these */
	bool programs;		/* programs only */
	const char *flags;
	const char *why;	/* what the file shows, or why not */
	const char *source;
};

/*
 * The sources, each read at one commit (or version) for its line numbers:
 * Fedora's redhat-rpm-config 271 from the fedora-riscv mirror (branch
 * rawhide-rv64, 2024-01-10), whose flags agree with the 2025 rawhide text
 * of HastD/redhat-rpm-config (129b11d7 buildflags.md, 29331d86 macros);
 * RHEL 9's redhat-rpm-config 201 from the openela-main mirror (el9); dpkg
 * 1.22.22 (Debian 13) as shipped in libdpkg-perl; Debian's gcc-14
 * 14.2.0-19 source, whose derivative=Ubuntu branches are Ubuntu's gcc;
 * the OpenSSF guide at ossf/wg-best-practices-os-developers@65be2c03.
 */
#define FEDORA "redhat-rpm-config 271 (fedora-riscv/redhat-rpm-config@232c8f1e) "
#define FEDORA_NOW "redhat-rpm-config (HastD/redhat-rpm-config@29331d86) macros "
#define EL9 "redhat-rpm-config 201 (openela-main/redhat-rpm-config@7a9ea594, el9) SOURCES/"
#define EL10 "derived, c10s not read: CentOS Stream 10 branched from Fedora 40: " FEDORA
#define DPKG "dpkg 1.22.22 scripts/Dpkg/Vendor/Debian.pm:"
#define UGCC "gcc-14 14.2.0-19 (Debian's source, derivative=Ubuntu) debian/"
#define OSSF "ossf/wg-best-practices-os-developers@65be2c03 docs/Compiler-Hardening-Guides/Compiler-Options-Hardening-Guide-for-C-and-C++.md:"

#define X86_64 EM_X86_64
#define I386 EM_386
#define AARCH64 EM_AARCH64

static const struct {
	const char *name, *what;
} profiles[] = {
	{ "fedora", "Fedora's package builds: redhat-rpm-config, rawhide" },
	{ "rhel9", "Red Hat Enterprise Linux 9: redhat-rpm-config 201" },
	{ "rhel10", "Red Hat Enterprise Linux 10: Fedora's flags as of its branch (derived)" },
	{ "debian", "Debian 13 package builds: dpkg-buildflags' defaults" },
	{ "debian-all", "Debian 13 package builds with DEB_BUILD_MAINT_OPTIONS=hardening=+all" },
	{ "ubuntu", "Ubuntu 24.04 and later: its gcc's defaults and dpkg-buildflags" },
	{ "openssf", "the OpenSSF Compiler Options Hardening Guide for C and C++" },
};
#define NPROFILES (sizeof(profiles) / sizeof(profiles[0]))

static const struct promise promises[] = {
	/* Fedora: the hardened specs give -fPIE and -pie to gcc, which
	   keeps them from -r, -shared, -static and -fpic links. */
	{ "fedora", CHECKED, "pie", 0, {0}, false, "-fPIE -pie",
	  "-specs=redhat-hardened-cc1, -specs=redhat-hardened-ld",
	  FEDORA "macros:324 %_hardening_gcc_cflags" },
	{ "fedora", CHECKED, "gnu-relro", 0, {0}, false, "-Wl,-z,relro", NULL,
	  FEDORA "macros:82 %build_ldflags" },
	{ "fedora", CHECKED, "relro", 0, {0}, false, "-Wl,-z,now", NULL,
	  FEDORA "macros:328 %_hardening_ldflags" },
	{ "fedora", CHECKED, "canary", 0, {0}, false,
	  "-fstack-protector-strong", NULL,
	  FEDORA "macros:326 %_hardening_cflags" },
	{ "fedora", CHECKED, "fortify", 0, {0}, false,
	  "-Wp,-D_FORTIFY_SOURCE=3", "__*_chk imports; not the level",
	  FEDORA "macros:394-395 %_fortify_level 3" },
	{ "fedora", CHECKED, "ibt", X86_64, {0}, false, "-fcf-protection", NULL,
	  FEDORA "macros:150 %__cflags_arch_x86_64_common" },
	{ "fedora", CHECKED, "shstk", X86_64, {0}, false, "-fcf-protection",
	  NULL, FEDORA "macros:150 %__cflags_arch_x86_64_common" },
	{ "fedora", CHECKED, "ibt", I386, {0}, false, "-fcf-protection", NULL,
	  FEDORA "rpmrc:6 optflags: i686" },
	{ "fedora", CHECKED, "shstk", I386, {0}, false, "-fcf-protection", NULL,
	  FEDORA "rpmrc:6 optflags: i686" },
	{ "fedora", CHECKED, "bti", AARCH64, {0}, false,
	  "-mbranch-protection=standard", NULL,
	  FEDORA "rpmrc:17 optflags: aarch64" },
	{ "fedora", CHECKED, "pac", AARCH64, {0}, false,
	  "-mbranch-protection=standard", NULL,
	  FEDORA "rpmrc:17 optflags: aarch64" },
	{ "fedora", ALWAYS, NULL, 0, {0}, false,
	  "--error-rwx-segments --error-execstack",
	  "exec-stack, wx-segment",
	  "redhat-rpm-config buildflags.md, Individual linker flags "
	  "(HastD/redhat-rpm-config@129b11d7)" },
	{ "fedora", NO_PROPERTY, NULL, 0, {0}, false,
	  "-fstack-clash-protection (not riscv64, armhfp)",
	  "probes in the prologues of large frames",
	  FEDORA "rpmrc:6, 8, 13, 15, 17" },
	{ "fedora", NO_PROPERTY, NULL, 0, {0}, false,
	  "-Wp,-D_GLIBCXX_ASSERTIONS",
	  "an import of std::__glibcxx_assert_fail, where an assertion "
	  "survives", FEDORA "macros:407 %_preprocessor_defines" },
	{ "fedora", NO_PROPERTY, NULL, 0, {0}, false,
	  "-Wl,-z,pack-relative-relocs", "DT_RELR",
	  FEDORA_NOW "%_ld_pack_relocs_flags" },
	{ "fedora", NO_PROPERTY, NULL, 0, {0}, false,
	  "-specs=redhat-annobin-cc1",
	  "annobin notes, moved to the -debuginfo file",
	  FEDORA "macros:342-343 %_annotated_build" },
	{ "fedora", INVISIBLE, NULL, 0, {0}, false,
	  "-O2 -fexceptions -g -grecord-gcc-switches",
	  "only DW_AT_producer and annobin notes record them",
	  FEDORA "macros:405 %_general_options" },
	{ "fedora", INVISIBLE, NULL, 0, {0}, false,
	  "-flto=auto -ffat-lto-objects", "only DW_AT_producer and annobin notes record them",
	  FEDORA_NOW "%_gcc_lto_cflags" },
	{ "fedora", INVISIBLE, NULL, 0, {0}, false,
	  "-Wall -Werror=format-security -Werror=implicit-function-declaration "
	  "-Werror=implicit-int -Werror=int-conversion "
	  "-Werror=incompatible-pointer-types", "only annobin notes record them",
	  FEDORA "macros:406 %_warning_options" },
	{ "fedora", INVISIBLE, NULL, 0, {0}, false,
	  "-fno-omit-frame-pointer",
	  "only DW_AT_producer records it",
	  FEDORA "macros:358 %_include_frame_pointers" },

	/* RHEL 9. */
	{ "rhel9", CHECKED, "pie", 0, {0}, false, "-fPIE -pie",
	  "-specs=redhat-hardened-cc1, -specs=redhat-hardened-ld",
	  EL9 "macros:285, 289" },
	{ "rhel9", CHECKED, "gnu-relro", 0, {0}, false, "-Wl,-z,relro", NULL,
	  EL9 "macros:69" },
	{ "rhel9", CHECKED, "relro", 0, {0}, false, "-Wl,-z,now", NULL,
	  EL9 "macros:289" },
	{ "rhel9", CHECKED, "canary", 0, {0}, false,
	  "-fstack-protector-strong", NULL, EL9 "macros:287" },
	{ "rhel9", CHECKED, "fortify", 0, {0}, false, "-Wp,-D_FORTIFY_SOURCE=2",
	  "__*_chk imports; not the level", EL9 "macros:336" },
	{ "rhel9", CHECKED, "ibt", X86_64, {0}, false, "-fcf-protection", NULL,
	  EL9 "rpmrc:9 optflags: x86_64" },
	{ "rhel9", CHECKED, "shstk", X86_64, {0}, false, "-fcf-protection",
	  NULL, EL9 "rpmrc:9 optflags: x86_64" },
	{ "rhel9", CHECKED, "ibt", I386, {0}, false, "-fcf-protection", NULL,
	  EL9 "rpmrc:6 optflags: i686" },
	{ "rhel9", CHECKED, "shstk", I386, {0}, false, "-fcf-protection", NULL,
	  EL9 "rpmrc:6 optflags: i686" },
	{ "rhel9", UNPROMISED, NULL, AARCH64, {0}, false,
	  "-mbranch-protection", "absent from optflags: aarch64",
	  EL9 "rpmrc:77" },
	{ "rhel9", NO_PROPERTY, NULL, 0, {0}, false,
	  "-fstack-clash-protection (i686, x86_64, ppc64le, s390x, aarch64)",
	  "probes in the prologues of large frames",
	  EL9 "rpmrc:6, 9, 32, 75, 77" },
	{ "rhel9", NO_PROPERTY, NULL, 0, {0}, false,
	  "-Wp,-D_GLIBCXX_ASSERTIONS",
	  "an import of std::__glibcxx_assert_fail, where an assertion "
	  "survives", EL9 "macros:336" },
	{ "rhel9", NO_PROPERTY, NULL, 0, {0}, false,
	  "-specs=redhat-annobin-cc1",
	  "annobin notes, moved to the -debuginfo file", EL9 "macros:301-302" },
	{ "rhel9", INVISIBLE, NULL, 0, {0}, false,
	  "-O2 -flto=auto -ffat-lto-objects -fexceptions -g "
	  "-grecord-gcc-switches", "only DW_AT_producer and annobin notes record them",
	  EL9 "macros:330, 334" },
	{ "rhel9", INVISIBLE, NULL, 0, {0}, false,
	  "-Wall -Werror=format-security", "only annobin notes record them",
	  EL9 "macros:335" },
	{ "rhel9", INVISIBLE, NULL, X86_64, {0}, false, "-march=x86-64-v2",
	  "the instructions used", EL9 "macros:113" },

	/* RHEL 10: Fedora's, as of the branch; i686 is gone. annobin's el10
	   profile requires BTI on AArch64 (hardened.c:3323-3326). */
	{ "rhel10", CHECKED, "pie", 0, {0}, false, "-fPIE -pie",
	  "-specs=redhat-hardened-cc1, -specs=redhat-hardened-ld",
	  EL10 "macros:324" },
	{ "rhel10", CHECKED, "gnu-relro", 0, {0}, false, "-Wl,-z,relro", NULL,
	  EL10 "macros:82" },
	{ "rhel10", CHECKED, "relro", 0, {0}, false, "-Wl,-z,now", NULL,
	  EL10 "macros:328" },
	{ "rhel10", CHECKED, "canary", 0, {0}, false,
	  "-fstack-protector-strong", NULL, EL10 "macros:326" },
	{ "rhel10", CHECKED, "fortify", 0, {0}, false,
	  "-Wp,-D_FORTIFY_SOURCE=3", "__*_chk imports; not the level",
	  EL10 "macros:394-395" },
	{ "rhel10", CHECKED, "ibt", X86_64, {0}, false, "-fcf-protection",
	  NULL, EL10 "macros:150" },
	{ "rhel10", CHECKED, "shstk", X86_64, {0}, false, "-fcf-protection",
	  NULL, EL10 "macros:150" },
	{ "rhel10", CHECKED, "bti", AARCH64, {0}, false,
	  "-mbranch-protection=standard", NULL,
	  EL10 "rpmrc:17; annobin hardened.c:3323-3326 (el10)" },
	{ "rhel10", CHECKED, "pac", AARCH64, {0}, false,
	  "-mbranch-protection=standard", NULL, EL10 "rpmrc:17" },
	{ "rhel10", ALWAYS, NULL, 0, {0}, false,
	  "--error-rwx-segments --error-execstack", "exec-stack, wx-segment",
	  "redhat-rpm-config buildflags.md, Individual linker flags "
	  "(HastD/redhat-rpm-config@129b11d7)" },
	{ "rhel10", NO_PROPERTY, NULL, 0, {0}, false,
	  "-fstack-clash-protection", "probes in the prologues of large frames",
	  EL10 "rpmrc:8, 13, 15, 17" },
	{ "rhel10", NO_PROPERTY, NULL, 0, {0}, false,
	  "-Wp,-D_GLIBCXX_ASSERTIONS",
	  "an import of std::__glibcxx_assert_fail, where an assertion "
	  "survives", EL10 "macros:407" },
	{ "rhel10", NO_PROPERTY, NULL, 0, {0}, false,
	  "-specs=redhat-annobin-cc1",
	  "annobin notes, moved to the -debuginfo file", EL10 "macros:342-343" },
	{ "rhel10", INVISIBLE, NULL, 0, {0}, false,
	  "-O2 -flto=auto -ffat-lto-objects -fexceptions -g "
	  "-grecord-gcc-switches", "only DW_AT_producer and annobin notes record them",
	  EL10 "macros:405" },
	{ "rhel10", INVISIBLE, NULL, 0, {0}, false,
	  "-Wall -Werror=format-security", "only annobin notes record them",
	  EL10 "macros:406" },
	{ "rhel10", INVISIBLE, NULL, X86_64, {0}, false, "-march=x86-64-v3",
	  "the instructions used",
	  FEDORA_NOW "%__cflags_arch_x86_64_level (rhel > 9)" },
	{ "rhel10", UNPROMISED, NULL, 0, {0}, false, "-fno-omit-frame-pointer",
	  "only from RHEL 11 on",
	  FEDORA "macros:358 %_include_frame_pointers" },

	/* Debian: dpkg-buildflags; its gcc makes a PIE by itself and
	   nothing else (the distro specs are Ubuntu's only). */
	{ "debian debian-all", CHECKED, "pie", 0, {0}, false, "-fPIE -pie",
	  "gcc's default (--enable-default-pie); dpkg's pie feature builtin",
	  DPKG "153-165" },
	{ "debian debian-all", CHECKED, "gnu-relro", 0,
	  { EM_IA_64, EM_PARISC }, false, "-Wl,-z,relro", NULL,
	  DPKG "395-397, 597-645" },
	{ "debian-all", CHECKED, "relro", 0, { EM_IA_64, EM_PARISC }, false,
	  "-Wl,-z,now", "bindnow, which hardening=+all turns on",
	  DPKG "153-165, 597-645" },
	{ "debian", UNPROMISED, NULL, 0, {0}, false, "-Wl,-z,now",
	  "bindnow is off but with hardening=+all (debian-all)",
	  DPKG "153-165" },
	{ "debian debian-all", CHECKED, "canary", 0,
	  { EM_IA_64, EM_ALPHA, EM_PARISC, EM_ALTERA_NIOS2 }, false,
	  "-fstack-protector-strong", NULL, DPKG "384-390, 597-645" },
	{ "debian debian-all", CHECKED, "fortify", 0, {0}, false,
	  "-D_FORTIFY_SOURCE=2", "__*_chk imports; not the level",
	  DPKG "406-411" },
	{ "debian debian-all", CHECKED, "bti", AARCH64, {0}, false,
	  "-mbranch-protection=standard",
	  "Debian 13 (dpkg 1.22); the start files of libc6-dev 2.41-12 "
	  "carry BTI and PAC", DPKG "398-403, 636-645" },
	{ "debian debian-all", CHECKED, "pac", AARCH64, {0}, false,
	  "-mbranch-protection=standard", "Debian 13 (dpkg 1.22)",
	  DPKG "398-403, 636-645" },
	{ "debian debian-all", UNMET, NULL, X86_64, {0}, false,
	  "-fcf-protection (dpkg 1.22)",
	  "the start files of libc6-dev (2.36 in Debian 12, 2.41 in "
	  "Debian 13: Scrt1.o, crti.o) carry no IBT or SHSTK property, so "
	  "the linker gives none to any program",
	  DPKG "398-403, 636-645" },
	{ "debian debian-all", NO_PROPERTY, NULL, 0, {0}, false,
	  "-fstack-clash-protection (amd64, arm64, armhf, armel; dpkg 1.22)",
	  "probes in the prologues of large frames", DPKG "391-394" },
	{ "debian debian-all", INVISIBLE, NULL, 0, {0}, false,
	  "-Wformat -Werror=format-security -Wdate-time "
	  "-Werror=implicit-function-declaration",
	  "warnings leave nothing in the file", DPKG "597-645" },
	{ "debian debian-all", INVISIBLE, NULL, 0, {0}, false, "-O2 -g",
	  "only DW_AT_producer, in the debugging information, records it", "dpkg 1.22.22 scripts/Dpkg/Vendor/Debian.pm "
	  "(default CFLAGS)" },

	/* Ubuntu: its gcc's distro specs, then dpkg's Ubuntu vendor. */
	{ "ubuntu", CHECKED, "pie", 0, {0}, false, "-fPIE -pie",
	  "gcc's default (16.10, all machines from 17.10)",
	  "https://documentation.ubuntu.com/security/docs/security-features/"
	  "process-memory/compiler-flags, Built as PIE" },
	{ "ubuntu", CHECKED, "gnu-relro", 0, {0}, false, "-z relro",
	  "gcc's default", UGCC "rules.patch:346-347; "
	  "patches/gcc-distro-specs.diff:101-107" },
	{ "ubuntu", CHECKED, "relro", 0, {0}, true, "-z now",
	  "gcc's default with -pie: programs only, libraries get partial "
	  "RELRO", UGCC "rules.patch:348-349; "
	  "patches/gcc-distro-specs.diff:93-99, 136" },
	{ "ubuntu", CHECKED, "canary", 0, {0}, false,
	  "-fstack-protector-strong", "gcc's default",
	  UGCC "rules.patch:324-330" },
	{ "ubuntu", CHECKED, "fortify", 0, {0}, false, "-D_FORTIFY_SOURCE=3",
	  "gcc's default at -O1 and above (24.04); __*_chk imports",
	  UGCC "rules.patch:340-344" },
	{ "ubuntu", UNVERIFIED, NULL, X86_64, {0}, false, "-fcf-protection",
	  "gcc's default; whether Ubuntu's start files carry IBT and SHSTK "
	  "was not read", UGCC "rules.defs:504-508" },
	{ "ubuntu", UNVERIFIED, NULL, AARCH64, {0}, false,
	  "-mbranch-protection=standard",
	  "dpkg 1.22's; whether Ubuntu's start files carry BTI and PAC was "
	  "not read", DPKG "398-403" },
	{ "ubuntu", NO_PROPERTY, NULL, 0, {0}, false,
	  "-fstack-clash-protection", "probes in the prologues of large frames",
	  UGCC "rules.defs:498-503" },
	{ "ubuntu", INVISIBLE, NULL, 0, {0}, false,
	  "-flto=auto -ffat-lto-objects (amd64, arm64, ppc64el, s390x)",
	  "only DW_AT_producer, in the debugging information, records it",
	  "dpkg 1.22.22 scripts/Dpkg/Vendor/Ubuntu.pm:104-115" },
	{ "ubuntu", INVISIBLE, NULL, 0, {0}, false, "-Wformat -Wformat-security",
	  "warnings leave nothing in the file", UGCC "rules.patch:331-332" },

	/* The OpenSSF guide: its TL;DR (lines 23-49) and Table 2. */
	{ "openssf", CHECKED, "pie", 0, {0}, false, "-fPIE -pie", NULL,
	  OSSF "237 (Table 2), 38-49" },
	{ "openssf", CHECKED, "gnu-relro", 0, {0}, false, "-Wl,-z,relro", NULL,
	  OSSF "236" },
	{ "openssf", CHECKED, "relro", 0, {0}, false, "-Wl,-z,now", NULL,
	  OSSF "236" },
	{ "openssf", CHECKED, "canary", 0, {0}, false,
	  "-fstack-protector-strong", NULL, OSSF "231" },
	{ "openssf", CHECKED, "fortify", 0, {0}, false,
	  "-U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=3",
	  "__*_chk imports; not the level", OSSF "226" },
	{ "openssf", CHECKED, "ibt", X86_64, {0}, false, "-fcf-protection=full",
	  NULL, OSSF "232" },
	{ "openssf", CHECKED, "shstk", X86_64, {0}, false,
	  "-fcf-protection=full", NULL, OSSF "232" },
	{ "openssf", CHECKED, "bti", AARCH64, {0}, false,
	  "-mbranch-protection=standard", NULL, OSSF "233" },
	{ "openssf", CHECKED, "pac", AARCH64, {0}, false,
	  "-mbranch-protection=standard", NULL, OSSF "233" },
	{ "openssf", CHECKED, "rpath", 0, {0}, false, "no -Wl,-rpath",
	  "discouraged; checked as --require rpath is: no unsafe entry",
	  OSSF "1298 (Table 3)" },
	{ "openssf", ALWAYS, NULL, 0, {0}, false, "-Wl,-z,noexecstack",
	  "exec-stack", OSSF "235" },
	{ "openssf", NO_PROPERTY, NULL, 0, {0}, false, "-fPIC -shared",
	  "no DT_TEXTREL", OSSF "238" },
	{ "openssf", NO_PROPERTY, NULL, 0, {0}, false, "-Wl,-z,nodlopen",
	  "DF_1_NOOPEN", OSSF "234" },
	{ "openssf", NO_PROPERTY, NULL, 0, {0}, false,
	  "-fstack-clash-protection", "probes in the prologues of large frames",
	  OSSF "230" },
	{ "openssf", NO_PROPERTY, NULL, 0, {0}, false, "-D_GLIBCXX_ASSERTIONS",
	  "an import of std::__glibcxx_assert_fail, where an assertion "
	  "survives", OSSF "227" },
	{ "openssf", NO_PROPERTY, NULL, 0, {0}, false,
	  "-D_LIBCPP_HARDENING_MODE=_LIBCPP_HARDENING_MODE_FAST",
	  "a reference to std::__libcpp_verbose_abort", OSSF "228" },
	{ "openssf", NO_PROPERTY, NULL, 0, {0}, false,
	  "-Wl,--as-needed -Wl,--no-copy-dt-needed-entries",
	  "no unused DT_NEEDED", OSSF "245" },
	{ "openssf", INVISIBLE, NULL, 0, {0}, false,
	  "-O2 -Wall -Wformat -Wformat=2 -Wconversion -Wimplicit-fallthrough "
	  "-Werror=format-security", "warnings leave nothing in the file",
	  OSSF "23-33, 212-220" },
	{ "openssf", INVISIBLE, NULL, 0, {0}, false, "-fstrict-flex-arrays=3",
	  "only annobin notes record it", OSSF "229" },
	{ "openssf", INVISIBLE, NULL, 0, {0}, false,
	  "-fno-delete-null-pointer-checks -fno-strict-overflow "
	  "-fno-strict-aliasing -ftrivial-auto-var-init=zero -fexceptions",
	  "only DW_AT_producer records them", OSSF "239-243" },
	{ "openssf", INVISIBLE, NULL, 0, {0}, false,
	  "-fzero-init-padding-bits=all",
	  "zeroed padding looks like any other", OSSF "246" },
};

const char *
profile_name(size_t i)
{
	return i < NPROFILES ? profiles[i].name : NULL;
}

/* Is name one of the space-separated words of list? */
static bool
made_by(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)) != NULL; p += len)
		if ((p == list || p[-1] == ' ') &&
		    (p[len] == ' ' || p[len] == '\0'))
			return true;
	return false;
}

static bool
known(const char *name)
{
	size_t i;

	for (i = 0; i < NPROFILES; i++)
		if (strcmp(profiles[i].name, name) == 0)
			return true;
	return false;
}

int
profile_require(const char *name, struct require **req, size_t *n)
{
	const struct promise *p;
	struct require *r;
	size_t i;

	if (!known(name))
		return -1;
	for (i = 0; i < sizeof(promises) / sizeof(promises[0]); i++) {
		p = &promises[i];
		if (p->check != CHECKED || !made_by(p->profiles, name))
			continue;
		*req = xrealloc(*req, (*n + 1) * sizeof(**req));
		r = &(*req)[(*n)++];
		memset(r, 0, sizeof(*r));
		r->findings = require_finding(p->property,
		    strlen(p->property));
		r->machine = p->machine;
		memcpy(r->except, p->except, sizeof(r->except));
		r->programs = p->programs;
	}
	return 0;
}

/* Where a promise holds: "any", a machine, or "not" and the machines it
   skips; "/programs" when only programs. */
static const char *
where(const struct promise *p, char *buf, size_t len)
{
	char name[16];
	size_t i, have;

	if (p->machine != 0)
		have = (size_t)snprintf(buf, len, "%s",
		    machine_name(p->machine, name, sizeof(name)));
	else if (p->except[0] == 0)
		have = (size_t)snprintf(buf, len, "any");
	else
		for (i = 0, have = 0; i < 4 && p->except[i] != 0 &&
		    have < len; i++)
			have += (size_t)snprintf(buf + have, len - have,
			    "%s%s", i ? "," : "not:",
			    machine_name(p->except[i], name, sizeof(name)));
	if (p->programs && have < len)
		snprintf(buf + have, len - have, "/programs");
	return buf;
}

static void
print_one(FILE *f, const char *name)
{
	const struct promise *p;
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(promises) / sizeof(promises[0]); i++) {
		p = &promises[i];
		if (!made_by(p->profiles, name))
			continue;
		fprintf(f, "%-10s %-9s %-27s %s\n", name,
		    p->check == CHECKED ? p->property : "-",
		    where(p, buf, sizeof(buf)), p->flags);
		if (p->check != CHECKED)
			fprintf(f, "%49s%s: %s\n", "", check_words[p->check],
			    p->why);
		else if (p->why != NULL)
			fprintf(f, "%49s%s\n", "", p->why);
		fprintf(f, "%49ssource: %s\n", "", p->source);
	}
}

void
profile_print(FILE *f, const char *const *names, size_t n)
{
	size_t i, k;

	fprintf(f, "%-10s %-9s %-27s %s\n", "PROFILE", "PROPERTY", "WHERE",
	    "FLAGS");
	for (i = 0; i < NPROFILES; i++)
		for (k = 0; k < n || (n == 0 && k == 0); k++)
			if (n == 0 || strcmp(names[k], profiles[i].name) == 0) {
				fprintf(f, "%s: %s\n", profiles[i].name,
				    profiles[i].what);
				print_one(f, profiles[i].name);
				break;
			}
}
