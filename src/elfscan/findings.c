/*
 * findings.c - each kind of finding elfscan gives, once: its name in the
 * text, JSON and SARIF outputs, its SARIF rule (level, security-severity
 * for code scanning's sorting) and its texts: what it means, why it
 * matters, how to fix it. In the order of enum finding: the stack's, then
 * what --require asks for, a root's, --diff's, running processes', and a
 * last one --require asks for.
 */
#include "verdict.h"

static const struct finding_kind kinds[] = {
	{ "exec-stack", "ExecutableStack", "error", "7.5",
	  "The stack will be executable.",
	  "The program or library gets an executable stack, by its marking "
	  "or by the system's default for an unmarked image: code injected "
	  "on the stack can run.",
	  "Mark the file non-executable with 'chstk -E FILE' when it does not "
	  "run code on its stack; rebuild its objects with "
	  "'-Wa,--noexecstack' and link with '-z noexecstack' so that the "
	  "marking comes from the build. If it truly needs an executable "
	  "stack (nested functions of GCC, some JITs), list it in the "
	  "--allow file.", "image" },
	{ "read-implies-exec", "ReadImpliesExec", "error", "8.0",
	  "Every readable mapping will be executable.",
	  "An unmarked program on a machine whose kernel then sets "
	  "READ_IMPLIES_EXEC: not only the stack but every readable "
	  "mapping of the process can be executed.",
	  "Mark the program with 'chstk -E FILE', or rebuild it with "
	  "'-Wa,--noexecstack' and '-z noexecstack': a marked program does "
	  "not get READ_IMPLIES_EXEC.", "image" },
	{ "dlopen-refused", "DlopenRefused", "error", "6.0",
	  "glibc 2.41 and later refuse to dlopen this library.",
	  "A shared object that asks for an executable stack: glibc 2.41 "
	  "and later refuse to load it with dlopen, and earlier versions "
	  "make every thread stack of the process executable when it is "
	  "loaded.",
	  "Mark the library with 'chstk -E FILE', or rebuild it with "
	  "'-Wa,--noexecstack' and link it with '-z noexecstack'.", "image" },
	{ "unknown-default", "UnknownDefault", "warning", "3.0",
	  "The stack of this unmarked image depends on the machine.",
	  "The image carries no stack marking, and its stack depends on the "
	  "CPU or the C library, which the file cannot tell.",
	  "Give the image an explicit marking: 'chstk -E FILE', or build "
	  "with '-Wa,--noexecstack' and '-z noexecstack'.", "image" },
	{ "no-gnu-stack-note", "NoGnuStackNote", "warning", "5.0",
	  "The object has no .note.GNU-stack section.",
	  "A relocatable object without a .note.GNU-stack section: GNU ld "
	  "makes every program or library it is linked into ask for an "
	  "executable stack.",
	  "Assemble with '-Wa,--noexecstack', or add "
	  "'.section .note.GNU-stack,\"\",@progbits' to the assembly "
	  "source; 'chstk -E FILE' adds the note to the object.", "image" },
	{ "wx-segment", "WritableExecutableSegment", "warning", "6.5",
	  "A segment is both writable and executable.",
	  "A loadable segment (or, in an object, an allocated section) is "
	  "writable and executable at once: code written to it can run.",
	  "Link with '-z separate-code' and find the section that asks for "
	  "write and execute (an assembly .section with \"awx\" flags, or a "
	  "linker script); no marking fixes this.", "image" },
	{ "malformed", "MalformedElf", "warning", "4.0",
	  "The ELF file does not parse, or is cut short.",
	  "The file starts like an ELF file but a header, count, offset or "
	  "size in it is invalid, or its segments or section headers run "
	  "past its end, or it is an ar archive damaged part of the way: "
	  "neither this scanner nor, likely, the loader or linker can read "
	  "it whole.",
	  "Rebuild the file, or remove it when it is not meant to be an ELF "
	  "program, library or object.", "image" },
	/* What --require found missing (hardening.c; elfscan(1),
	   HARDENING, gives the rule behind each). */
	{ "no-pie", "NotPositionIndependent", "warning", "5.0",
	  "The program is not position-independent.",
	  "A program linked as ET_EXEC is loaded at the address it was "
	  "linked for: address space layout randomization cannot move its "
	  "code and data, so an attacker knows where they lie.",
	  "Compile with '-fPIE' and link with '-pie' (the default of GCC on "
	  "Debian and Fedora); a static program with '-static-pie'.", "image" },
	{ "no-full-relro", "NoFullRelro", "warning", "5.0",
	  "The image lacks full RELRO.",
	  "Without a GNU_RELRO segment the relocated data (GOT, dynamic "
	  "section) stays writable; with one but without immediate binding "
	  "(partial RELRO) the lazily bound part of the GOT stays writable: "
	  "an overwrite there redirects a call.",
	  "Link with '-Wl,-z,relro,-z,now'.", "image" },
	{ "no-canary", "NoStackProtector", "warning", "5.5",
	  "No function of the image is protected by a canary.",
	  "None of the stack protector's symbols (__stack_chk_fail and the "
	  "others elfscan(1) lists) is in the image's symbol tables, and, in "
	  "a stripped static program, none of its code checks the guard: no "
	  "function checks a canary before it returns, so a stack buffer "
	  "overflow can overwrite a return address unnoticed. (An image "
	  "without any array on a stack needs none.)",
	  "Compile with '-fstack-protector-strong'.", "image" },
	{ "no-fortify", "NotFortified", "warning", "4.0",
	  "Fortifiable functions are called without their checks.",
	  "The image calls functions of glibc that _FORTIFY_SOURCE replaces "
	  "with checking variants (memcpy by __memcpy_chk and the like) and "
	  "calls none of those variants: it was built without "
	  "_FORTIFY_SOURCE, or without optimization.",
	  "Compile with '-O2 -D_FORTIFY_SOURCE=3' (or =2).", "image" },
	{ "unsafe-rpath", "UnsafeSearchPath", "error", "7.0",
	  "The library search path has an unsafe entry.",
	  "An RPATH or RUNPATH entry that is empty or relative (searched "
	  "from the current directory, not the image's) or under a "
	  "directory anyone can write to (/tmp, /var/tmp, /dev/shm) lets "
	  "someone else supply the libraries the image loads.",
	  "Drop the entry, or make it absolute to a directory only root "
	  "writes to, or relative to $ORIGIN; 'patchelf --remove-rpath "
	  "FILE' removes the search path from a built file.", "image" },
	{ "no-ibt", "NoIndirectBranchTracking", "note", "3.0",
	  "The image is not marked for x86 IBT.",
	  "Its GNU property note does not mark the image compatible with "
	  "indirect branch tracking (Intel CET IBT): a process that loads "
	  "it runs without it, and an indirect jump may land on any "
	  "instruction.",
	  "Compile and link every object with '-fcf-protection=full' (or "
	  "'branch'); one object without the marking removes it from the "
	  "whole image.", "image" },
	{ "no-shstk", "NoShadowStack", "note", "3.0",
	  "The image is not marked for x86 shadow stacks.",
	  "Its GNU property note does not mark the image compatible with "
	  "shadow stacks (Intel CET SHSTK): a process that loads it runs "
	  "without one, and a return address overwritten on the stack is "
	  "not caught.",
	  "Compile and link every object with '-fcf-protection=full' (or "
	  "'return').", "image" },
	{ "no-bti", "NoBranchTargetIdentification", "note", "3.0",
	  "The image is not marked for AArch64 BTI.",
	  "Its GNU property note does not mark the image compatible with "
	  "branch target identification: its pages are not guarded, and an "
	  "indirect branch may land on any instruction.",
	  "Compile and link every object with "
	  "'-mbranch-protection=standard' (or 'bti').", "image" },
	{ "no-pac", "NoPointerAuthentication", "note", "3.0",
	  "The image is not marked for AArch64 PAC.",
	  "Its GNU property note does not say that the image signs its "
	  "return addresses (pointer authentication): an overwritten return "
	  "address is used as it is.",
	  "Compile every object with '-mbranch-protection=standard' (or "
	  "'pac-ret').", "image" },
	{ "not-stripped", "NotStripped", "note", "1.0",
	  "The image keeps its symbol table.",
	  "A .symtab section is left in the image: it names every function "
	  "and object with its address, a map for whoever studies the file, "
	  "and takes space.",
	  "Strip the file ('strip --strip-unneeded FILE'; packages: the "
	  "distribution's strip step, which keeps the debugging symbols in "
	  "a separate package).", "image" },
	/* The verdicts of a root (system.c; elfscan(1), SYSTEM VERDICTS). */
	{ "stack-made-exec", "ProcessExecutableStack", "error", "7.0",
	  "A library makes the stack of the processes that load it "
	  "executable.",
	  "A library that a program loads at start-up asks for an "
	  "executable stack: the root's glibc then makes the stack of the "
	  "whole process, and of every thread, executable, however the "
	  "program itself is marked.",
	  "Fix the library: rebuild its assembly sources with "
	  "'-Wa,--noexecstack' (or add '.section .note.GNU-stack,\"\","
	  "@progbits' to them) and link it with '-z noexecstack'; "
	  "'chstk -E LIBRARY' marks the built file when its code does not "
	  "run on the stack.", "verdict" },
	{ "startup-refused", "StartupRefused", "error", "8.0",
	  "The program will not start.",
	  "With glibc.rtld.execstack=0 in its environment, glibc refuses "
	  "to start a program that asks for an executable stack, itself or "
	  "through a library it loads at start-up: it exits with 'cannot "
	  "enable executable stack'.",
	  "Mark the program and its libraries non-executable ('chstk -E "
	  "FILE'), or rebuild them with '-Wa,--noexecstack' and "
	  "'-z noexecstack'; or take glibc.rtld.execstack=0 out of "
	  "GLIBC_TUNABLES where the program runs.", "verdict" },
	{ "plugin-refused", "PluginRefused", "error", "7.0",
	  "The host's dlopen will refuse this plugin.",
	  "A module that its host program loads with dlopen (a Python "
	  "extension, a PAM, NSS or gconv module, a Node addon) asks for an "
	  "executable stack, itself or through a library it needs: the "
	  "root's glibc (2.41 and later) refuses to load it, and the "
	  "feature it brings fails ('cannot enable executable stack as "
	  "shared object requires').",
	  "Fix the module: rebuild its assembly sources with "
	  "'-Wa,--noexecstack' and link it with '-z noexecstack', or mark "
	  "it with 'chstk -E MODULE' when its code does not run on the "
	  "stack. GLIBC_TUNABLES=glibc.rtld.execstack=2 (where it exists) "
	  "loads it, at the price of an executable stack everywhere.", "verdict" },
	{ "plugin-exec-stack", "PluginExecutableStack", "error", "6.5",
	  "Loading this plugin makes its host's stack executable.",
	  "A module that its host program loads with dlopen asks for an "
	  "executable stack: the root's glibc (before 2.41) makes the stack "
	  "of the host process, and of every thread, executable when it "
	  "loads it; glibc 2.41 and later refuse it instead.",
	  "Fix the module: rebuild it with '-Wa,--noexecstack' and "
	  "'-z noexecstack', or mark it with 'chstk -E MODULE' when its "
	  "code does not run on the stack.", "verdict" },
	{ "unresolved-library", "UnresolvedLibrary", "warning", "5.0",
	  "A library the program needs is not found.",
	  "The root's dynamic linker would look for the library where it "
	  "looks (the RPATH and RUNPATH of the programs and libraries "
	  "needing it, the root's ld.so.cache, its default directories) "
	  "and find none: the program does not start on this root, and "
	  "nothing can be said of what the library would do.",
	  "Install what provides the library, or correct the RUNPATH of "
	  "what needs it; 'ldd PROGRAM' run inside the root names the same "
	  "library 'not found'.", "verdict" },
	{ "tunable-exec-stack", "TunableForcesExecutableStack", "error",
	  "7.5",
	  "GLIBC_TUNABLES makes every stack executable.",
	  "glibc.rtld.execstack=2 in an environment the root sets makes "
	  "glibc give every process that inherits it an executable stack "
	  "from its start, whether anything it loads asks for one or not.",
	  "Take glibc.rtld.execstack=2 out of the file that sets it, and "
	  "fix the libraries it was set for: rebuild them with "
	  "'-Wa,--noexecstack' or mark them with 'chstk -E FILE'.", "verdict" },
	{ "mdwe-breaks", "MemoryDenyWriteExecuteBreaks", "error", "6.0",
	  "MemoryDenyWriteExecute=yes breaks the service.",
	  "A service with MemoryDenyWriteExecute=yes runs a program that "
	  "the kernel or the dynamic linker cannot load without memory that "
	  "is writable and executable, or that gains execute: a writable "
	  "and executable segment, text relocations, a request for an "
	  "executable stack, READ_IMPLIES_EXEC, glibc.rtld.execstack=2. "
	  "The service is killed at exec or exits 127 at start, or runs "
	  "without being able to start a thread.",
	  "Fix the file at fault: mark an executable-stack request away "
	  "with 'chstk -E FILE' when its code does not run on the stack, or "
	  "rebuild with '-Wa,--noexecstack' and '-z noexecstack'; rebuild "
	  "code with text relocations as position-independent ('-fPIC'); "
	  "link with '-z separate-code' and drop \"awx\" sections; give an "
	  "i386 program a stack marking ('-z noexecstack'). Or set MemoryDenyWriteExecute=no "
	  "in a drop-in for the service (systemctl edit).", "verdict" },
	/* --diff (diff.c). */
	{ "regression", "HardeningRegression", "error", "6.0",
	  "The new build lost a defence the old one had.",
	  "Compared with the previous build of the same file, this one has "
	  "lost a defence (RELRO, PIE, the stack protector, FORTIFY_SOURCE, "
	  "CET or BTI/PAC marking), gained an executable stack or a "
	  "writable and executable segment, or a library search path: a "
	  "build flag was dropped, or an object without the marking was "
	  "linked in.",
	  "Find what changed in the build between the two versions (the "
	  "compiler and linker flags, a new assembly file, a new static "
	  "library) and restore the flag: elfscan(1), HARDENING, says which "
	  "flag gives which defence.", "regression" },
	/* Running processes (proc.c; elfscan(1), Running processes). */
	{ "proc-exec-stack", "RunningExecutableStack", "error", "7.5",
	  "The process runs with an executable stack.",
	  "The main stack of the running process is executable now, as a "
	  "file it loaded asks (by its marking, or by glibc's default for an "
	  "unmarked file) or as GLIBC_TUNABLES in its environment sets: "
	  "code injected on the stack can run.",
	  "Fix the file the message names: rebuild it with "
	  "'-Wa,--noexecstack' and '-z noexecstack', or mark it with "
	  "'chstk -E FILE' when its code does not run on the stack, then "
	  "restart the process. Where its environment asks, take "
	  "glibc.rtld.execstack=2 out of GLIBC_TUNABLES.", "process" },
	{ "proc-unasked-exec-stack", "RunningUnaskedExecutableStack", "error",
	  "8.0",
	  "The process's stack is executable, though nothing it loaded asks "
	  "for it.",
	  "The main stack of the running process is executable, but neither "
	  "its program nor a library it loaded asks for an executable stack, "
	  "and neither does its environment: the process, or code injected "
	  "into it, made the stack executable at run time (mprotect, a JIT).",
	  "Find what calls mprotect with PROT_EXEC on the stack: 'strace -f "
	  "-e trace=mprotect' on the program shows the calls. No marking of "
	  "a file changes this.", "process" },
	{ "proc-rwx-memory", "RunningWritableExecutableMemory", "warning",
	  "6.0",
	  "The process has writable and executable memory.",
	  "A mapping of the running process other than its main stack is "
	  "writable and executable at once: the stack of a thread that "
	  "glibc made executable, a writable and executable segment of a "
	  "file, every mapping under READ_IMPLIES_EXEC, or anonymous memory "
	  "that a JIT or the program made so at run time.",
	  "For a thread's stack, fix what asks for an executable stack (see "
	  "proc-exec-stack); for a file's segment, relink the file with "
	  "'-z separate-code'; a JIT should map its code writable or "
	  "executable, never both. systemd's MemoryDenyWriteExecute=yes "
	  "refuses such memory to a service.", "process" },
	/* What --require asks of annocheck's tests of the binary alone
	   (hardening.c; elfscan(1), HARDENING). */
	{ "text-relocations", "TextRelocations", "warning", "5.0",
	  "The image has text relocations.",
	  "The dynamic linker must write into the image's code to relocate "
	  "it (DT_TEXTREL or DF_TEXTREL): its code pages are made writable "
	  "for a while and stop being shared between processes, and "
	  "SELinux (execmod) and MemoryDenyWriteExecute= refuse to load it.",
	  "Compile every object with '-fPIC' (a library) or '-fPIE' (a "
	  "program); in assembly, address data relative to the program "
	  "counter or through the GOT. Linking with '-Wl,-z,text' names the "
	  "objects at fault.", "image" },
	{ "multiple-dynamic", "MultipleDynamicSegments", "warning", "5.0",
	  "The image has more than one dynamic segment or section.",
	  "glibc's loader takes the last dynamic segment, readers such as "
	  "readelf, annocheck and this scanner the first: what a review sees "
	  "is not what is loaded. No linker writes two unless a linker "
	  "script asks.",
	  "Relink with the linker's default script, or list the dynamic "
	  "segment once in the script's PHDRS.", "image" },
	{ "bad-property-note", "MalformedPropertyNote", "warning", "4.0",
	  "The GNU property note is malformed.",
	  "glibc ignores a property note that is misaligned, sized wrongly or "
	  "whose properties are out of order, and with it the IBT, SHSTK or "
	  "BTI it asks for; the arm64 kernel refuses to run a program whose "
	  "property segment does not start with a well-formed one.",
	  "Relink with a current linker and do not edit the note by hand; "
	  "'readelf -n FILE' shows it.", "image" },
	{ "no-endbr", "NoLandingPad", "note", "3.0",
	  "Code reached by an indirect branch lacks a landing pad.",
	  "The program's entry point, or a function the image exports, does "
	  "not start with ENDBR64 or ENDBR32 (x86) or a BTI landing pad "
	  "(AArch64): where indirect branch tracking is enforced, a call "
	  "through a pointer to it faults. Its object was compiled or "
	  "assembled without control-flow protection.",
	  "Compile with '-fcf-protection=full' (x86) or "
	  "'-mbranch-protection=standard' (AArch64); start each global "
	  "function of an assembly source with _CET_ENDBR (<cet.h>) or "
	  "'bti c'.", "image" },
	{ "no-bti-plt", "NoBtiPlt", "note", "3.0",
	  "The AArch64 image lacks DT_AARCH64_BTI_PLT.",
	  "The linker adds the tag when its PLT entries start with a BTI "
	  "landing pad, which it does only when every input object is "
	  "marked for BTI: without it, calls through the PLT are not "
	  "protected by branch target identification.",
	  "Compile every object with '-mbranch-protection=standard', or "
	  "link with '-z force-bti' once they all are.", "image" },
	{ "odd-segment", "OddSegmentFlags", "warning", "4.0",
	  "A segment has flags that make no sense for its type.",
	  "An executable TLS segment (its template is data, copied for each "
	  "thread: nothing in it should run), or a GNU_STACK segment without "
	  "read and write: no linker writes these unless a linker script or "
	  "an edit of the file asks.",
	  "Correct the FLAGS of the linker script's PHDRS, or relink with "
	  "the linker's default script.", "image" },
	{ "relro-gap", "RelroGap", "warning", "5.0",
	  "GNU_RELRO does not cover all the data it should.",
	  "The dynamic section, the GOT (and with immediate binding "
	  ".got.plt), the init, fini or preinit arrays or .data.rel.ro lie "
	  "partly outside the GNU_RELRO segment: they stay writable "
	  "after relocation, and an overwrite there redirects a call.",
	  "Link with '-Wl,-z,relro' and the linker's default script; a "
	  "script of one's own must place these sections before "
	  "DATA_SEGMENT_RELRO_END.", "image" },
	{ "run-path-outside", "RunPathOutsideSystem", "warning", "4.0",
	  "A library search path leads outside the system's directories.",
	  "An RPATH or RUNPATH entry neither under /usr nor relative to "
	  "$ORIGIN, or one that climbs with '..', makes the loader look for "
	  "libraries where the distribution installs none (/opt, /home, a "
	  "build directory): whoever controls that directory supplies them. "
	  "This is annocheck's run-path test, after rpm's check-rpaths.",
	  "Install the libraries under /usr/lib and link without '-rpath', "
	  "or with a $ORIGIN-relative path without '..'; 'patchelf "
	  "--remove-rpath FILE' removes it from a built file.", "image" },
	{ "suspicious-symbol", "SuspiciousSymbolName", "warning", "5.0",
	  "A symbol name holds characters that can hide what it says.",
	  "A control character, bytes that are no UTF-8, or a zero-width or "
	  "bidirectional format character (Trojan Source, CVE-2021-42574) "
	  "in a symbol's name: a name can look like another in a listing "
	  "or a review, and the reader sees other code than the linker "
	  "binds.",
	  "Rename the symbol in the source; 'readelf --wide --syms FILE' "
	  "lists the names, elfscan's JSON output shows the first escaped.",
	  "image" },
	/* What --require gnu-relro found missing (hardening.c), and the
	   profiles that promise partial RELRO only (profiles.c). */
	{ "no-relro", "NoRelro", "warning", "5.5",
	  "The image has no GNU_RELRO segment.",
	  "Without a GNU_RELRO segment the data the dynamic linker "
	  "relocates (the GOT, the dynamic section, the constructors' "
	  "table) stays writable for the whole life of the process: an "
	  "overwrite there redirects a call.",
	  "Link with '-Wl,-z,relro' (and '-Wl,-z,now' for full RELRO).",
	  "image" },
	/* What --require found missing of the compiler's defences, by the
	   evidence (evidence.c; elfscan(1), HARDENING). */
	{ "no-stack-clash", "NoStackClashProtection", "warning", "5.0",
	  "Stack frames are not probed against a stack clash.",
	  "The image's code allocates a stack frame of a page or more at "
	  "once, without touching each page (or annobin's notes or the "
	  "compilers' recorded options say -fstack-clash-protection was not "
	  "used): a frame that large can jump over the guard page below the "
	  "stack into other memory, which an attacker who controls the size "
	  "can aim.",
	  "Compile with '-fstack-clash-protection' (Fedora's and Ubuntu's "
	  "default; Debian's dpkg-buildflags adds it with "
	  "'hardening=+all').", "image" },
	{ "not-optimized", "NotOptimized", "note", "2.0",
	  "The image was compiled below -O2.",
	  "annobin's notes or the compilers' recorded options say some of "
	  "the image was compiled with -O0, -O1 or -Og: _FORTIFY_SOURCE's "
	  "checks need the optimizer, and most of them are missing below "
	  "-O2.",
	  "Compile with '-O2' (the distributions' default flags).", "image" },
	{ "no-auto-var-init", "NoAutoVarInit", "note", "2.0",
	  "Automatic variables are not initialized.",
	  "annobin's notes or the compilers' recorded options say the image "
	  "was compiled without -ftrivial-auto-var-init: a variable read "
	  "before it is written holds whatever the stack held, which can "
	  "leak data or be steered.",
	  "Compile with '-ftrivial-auto-var-init=zero' (GCC 12 and Clang "
	  "8 and later; the OpenSSF guide recommends it).", "image" },
};

_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == F_COUNT,
    "one kind a finding bit");

const struct finding_kind *
finding_kind(unsigned i)
{
	return &kinds[i < F_COUNT ? i : F_COUNT - 1];
}
