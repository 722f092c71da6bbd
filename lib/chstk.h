/*
 * chstk.h - libchstk: read and write the stack-executability marking of ELF
 * files.
 *
 * The model is the 2003 chstk's: a file carries an "exec" flag (its stack
 * must be executable), a "noexec" flag (it must not be), or neither (the
 * system decides). The flags are stored the way today's toolchains store
 * them:
 *
 *   executables and shared objects  the PT_GNU_STACK program header:
 *                                   with PF_X = exec, without = noexec,
 *                                   absent = default
 *   relocatable objects             the .note.GNU-stack section: with
 *                                   SHF_EXECINSTR = exec, without = noexec,
 *                                   absent = default (the linker then asks
 *                                   for an executable stack)
 *   ar archives                     every ELF member, one by one
 *
 * Any ELF class, byte order and machine is handled. Nothing here prints or
 * exits: every function that can fail returns 0 (or a count) on success and
 * a negative enum chstk_errcode on failure, and fills the struct chstk_error
 * the caller lent it with a one-line message.
 *
 * Files are never modified in place: a changed file is written to a new file
 * beside the original, synced, and renamed over it, keeping owner, group,
 * mode and extended attributes. On any failure the original is untouched
 * and no temporary file is left. See chstk_update().
 *
 * The library is thread-safe: calls on different files may run concurrently.
 */
#ifndef CHSTK_H
#define CHSTK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The marking of one ELF image. */
enum chstk_state {
	CHSTK_DEFAULT = 0,	/* neither flag: the system's default */
	CHSTK_EXEC = 1,		/* the exec flag: an executable stack */
	CHSTK_NOEXEC = 2,	/* the noexec flag: a non-executable stack */
};

/* What chstk_update() does to each marking: the seed's five options. */
enum chstk_op {
	CHSTK_OP_SET_EXEC,	/* -e: exec, whatever it was */
	CHSTK_OP_SET_NOEXEC,	/* -E: noexec, whatever it was */
	CHSTK_OP_CLEAR_EXEC,	/* -d: exec becomes default; others stay */
	CHSTK_OP_CLEAR_NOEXEC,	/* -D: noexec becomes default; others stay */
	CHSTK_OP_SET_DEFAULT,	/* neither flag, whatever it was */
};

enum chstk_errcode {
	CHSTK_OK = 0,
	CHSTK_ERR_SYS = -1,		/* a system call failed (see sys_errno) */
	CHSTK_ERR_NOMEM = -2,		/* out of memory, or more than a
					   stream may keep */
	CHSTK_ERR_NOT_ELF = -3,		/* neither an ELF file nor an ar archive */
	CHSTK_ERR_TRUNCATED = -4,	/* a structure runs past the end */
	CHSTK_ERR_CORRUPT = -5,		/* a count, offset or size is invalid */
	CHSTK_ERR_UNSUPPORTED = -6,	/* valid, but cannot be marked */
	CHSTK_ERR_CHANGED = -7,		/* the written file did not verify */
	CHSTK_ERR_INVAL = -8,		/* a bad argument from the caller */
};

/*
 * An error, owned by the caller. msg is one line, lowercase, without the
 * file's name and without a final period: "what failed: why".
 */
struct chstk_error {
	int code;		/* an enum chstk_errcode, CHSTK_OK if none */
	int sys_errno;		/* errno for CHSTK_ERR_SYS, otherwise 0 */
	char msg[480];
};

/* What kind of ELF image it is, for the rules that decide its stack. */
enum chstk_kind {
	CHSTK_KIND_OTHER = 0,	/* core files, ET_NONE, OS-specific types */
	CHSTK_KIND_PROGRAM,	/* ET_EXEC, or a PIE (see pie below) */
	CHSTK_KIND_SHARED,	/* any other ET_DYN: a shared object */
	CHSTK_KIND_OBJECT,	/* ET_REL */
};

#define CHSTK_HEAD_LEN 20

/* What the library reads from one ELF image. */
struct chstk_info {
	enum chstk_state state;
	enum chstk_kind kind;
	unsigned elf_class;	/* ELFCLASS32 or ELFCLASS64 */
	unsigned data;		/* ELFDATA2LSB or ELFDATA2MSB */
	unsigned type;		/* e_type */
	unsigned machine;	/* e_machine */
	unsigned osabi;		/* e_ident[EI_OSABI] */
	uint32_t flags;		/* e_flags */
	uint32_t stack_flags;	/* p_flags of PT_GNU_STACK, or the sh_flags
				   of .note.GNU-stack; 0 when default */
	bool interp;		/* has PT_INTERP: needs a dynamic linker */
	bool pie;		/* an ET_DYN program: DT_FLAGS_1 has DF_1_PIE,
				   or PT_INTERP without DT_SONAME */
	unsigned loads;		/* PT_LOAD segments */
	unsigned wx;		/* PT_LOAD segments (or, in objects, SHF_ALLOC
				   sections) both writable and executable */
	bool has_exec_code;	/* some PT_LOAD is executable */
	uint64_t exec_limit;	/* the highest executable address, the
				   seed's exec-limit: the last byte of the
				   highest PF_X PT_LOAD; 0 if none */
	/* Where the marking is, as a byte range of the file (of the buffer
	   for chstk_scan_mem), for reports that point at it: the last
	   PT_GNU_STACK entry, or an object's .note.GNU-stack section header;
	   without one, the table it belongs in (the program or section
	   header table), or the ELF header when that table is empty. */
	uint64_t mark_offset, mark_size;
	/* The first writable and executable PT_LOAD entry (in an object,
	   the section header table); 0 and 0 when wx is 0. */
	uint64_t wx_offset, wx_size;
	/* With CHSTK_READ_HARDENING or CHSTK_READ_DYNAMIC
	   (chstk_scan_fd_with()), else NULL; with CHSTK_READ_DYNAMIC alone,
	   NULL too when the dynamic section or the interpreter's path cannot
	   be read (the image is reported all the same). */
	const struct chstk_hardening *hardening;
	/*
	 * Since interface 2 (libtool 2:0:2), below: the library fills this
	 * struct and lends it, so members are only ever added at its end.
	 */
	/* A PT_LOAD's bytes (p_offset + p_filesz) or the section header
	   table run past the end of the file (of the member, in an
	   archive): a file cut short, or a separate debug file that kept
	   its program's program headers (eu-strip -f; see sections). Never
	   set where the size is not known (a stream that does not say). */
	bool cut;
	/* Some executable PT_LOAD has bytes in the file and in memory
	   (p_filesz and p_memsz > 0). A separate debug file whose program
	   headers say so (objcopy --only-keep-debug) has none. */
	bool exec_in_file;
	/* The OS word of the image's NT_GNU_ABI_TAG note (owner "GNU", type
	   1, the .note.ABI-tag glibc's start files put in every program
	   they link) found in a PT_NOTE that lies in the file's first 64
	   KiB: 0 Linux, 1 GNU/Hurd, 2 Solaris, 3 FreeBSD; -1 without one. */
	int abi_tag;
	/* What the section headers say, when they were read: always for
	   objects; for programs and shared objects with
	   CHSTK_READ_HARDENING, or what a chstk_want_fn asks. NULL
	   otherwise. */
	const struct chstk_sections *sections;
	/* The image's first CHSTK_HEAD_LEN bytes as they are in the file
	   (e_ident, e_type, e_machine): what a binfmt_misc handler's magic
	   is matched against. */
	unsigned char head[CHSTK_HEAD_LEN];
};

/*
 * An image's section headers, summed up for a caller that tells what
 * reads an image: the sections that hold bytes of its program, its
 * symbols, and the two names that mark what no linker links.
 */
struct chstk_sections {
	unsigned count;		/* section headers, the null one excepted */
	unsigned alloc;		/* SHF_ALLOC sections */
	unsigned alloc_bytes;	/* of those, with bytes in the file: neither
				   SHT_NOBITS nor SHT_NOTE, and not empty */
	unsigned alloc_nobits;	/* of those, SHT_NOBITS and not empty (in a
				   separate debug file, every section of the
				   program it was taken from) */
	bool symtab;		/* has a SHT_SYMTAB section */
	uint64_t globals;	/* the first SHT_SYMTAB's entries past its
				   sh_info: its global and weak symbols,
				   defined or referenced; 0 without one */
	/* Objects only, by the names of sections that are not SHF_ALLOC: */
	bool lto;		/* one starts with ".gnu.lto_": GCC's
				   intermediate code for link-time
				   optimization */
	bool modname;		/* one is named ".modname": a GRUB module */
};

#define CHSTK_PATH_LEN 4096
/* The longest build-id kept (GNU ld's are 20 bytes, a UUID 16). */
#define CHSTK_BUILD_ID_MAX 64
/* The most compilation units read of one image, and bytes of code. */
#define CHSTK_UNITS_MAX 65536
#define CHSTK_CODE_MAX (256u << 20)

/* What annobin's notes say of one setting (struct chstk_hardening). */
struct chstk_annobin_value {
	int min, max;
};
/* The room for an image's dlopen notes (chstk_hardening.dlopen). */
#define CHSTK_DLOPEN_LEN 16384
/* The bytes of code read at an entry point or a function (CHSTK_READ_CODE):
   one ENDBR64 or ENDBR32, one AArch64 instruction. */
#define CHSTK_CODE_LEN 4

/* What is wrong with a GNU property note, by the rules of those who read
   it: glibc ignores the note (and so its IBT, SHSTK and BTI bits) on ALIGN,
   SIZE, ORDER, OVERRUN (elf/dl-load.c, _dl_process_pt_gnu_property); the
   arm64 kernel refuses to run the program on NOT_FIRST, SIZE, ORDER,
   OVERRUN (fs/binfmt_elf.c, parse_elf_properties); annocheck fails it on
   ALIGN, SIZE, OVERRUN, FEATURE, MANY (annobin's hardened.c,
   property_note_checker). */
enum chstk_property_fault {
	CHSTK_PROPERTY_OK = 0,
	CHSTK_PROPERTY_ALIGN,	/* its segment (section) is not aligned to 8
				   bytes in a 64-bit file, 4 in a 32-bit one */
	CHSTK_PROPERTY_NOT_FIRST,	/* another note comes first */
	CHSTK_PROPERTY_SIZE,	/* its descriptor is under 8 bytes, or not a
				   multiple of the alignment */
	CHSTK_PROPERTY_OVERRUN,	/* a property runs past the descriptor */
	CHSTK_PROPERTY_ORDER,	/* two properties not in ascending order of
				   type, or of the same type */
	CHSTK_PROPERTY_FEATURE,	/* an x86 or AArch64 FEATURE_1_AND property
				   whose data is not 4 bytes */
	CHSTK_PROPERTY_MANY,	/* more than one property note */
};

/* The sections PT_GNU_RELRO should cover (chstk_hardening.relro_*). */
enum {
	CHSTK_RELRO_DYNAMIC = 1,	/* SHT_DYNAMIC */
	CHSTK_RELRO_GOT = 2,		/* .got */
	CHSTK_RELRO_GOT_PLT = 4,	/* .got.plt: only with immediate
					   binding */
	CHSTK_RELRO_INIT_ARRAY = 8,	/* SHT_INIT_ARRAY */
	CHSTK_RELRO_FINI_ARRAY = 16,	/* SHT_FINI_ARRAY */
	CHSTK_RELRO_PREINIT_ARRAY = 32,	/* SHT_PREINIT_ARRAY */
	CHSTK_RELRO_DATA_REL_RO = 64,	/* .data.rel.ro */
};
#define CHSTK_RELRO_KINDS 7

/*
 * The image's other defences against overflows, and how it links, as its
 * file states them (what they are worth is the caller's to judge). Read
 * with CHSTK_READ_HARDENING: every field; with CHSTK_READ_DYNAMIC alone:
 * the dynamic section's fields, the interpreter and the dlopen notes, the
 * rest 0. A field
 * the image cannot have (a dynamic section in an object) is 0.
 */
struct chstk_hardening {
	bool gnu_relro;		/* has PT_GNU_RELRO */
	bool dynamic;		/* has PT_DYNAMIC (read up to DT_NULL) */
	bool bind_now;		/* DT_BIND_NOW, DF_BIND_NOW in DT_FLAGS or
				   DF_1_NOW in DT_FLAGS_1 */
	bool debug;		/* DT_DEBUG */
	uint64_t flags;		/* DT_FLAGS, 0 if absent */
	uint64_t flags_1;	/* DT_FLAGS_1, 0 if absent */
	bool has_rpath, has_runpath;	/* DT_RPATH, DT_RUNPATH */
	bool rpath_cut, runpath_cut;	/* longer than CHSTK_PATH_LEN - 1
					   bytes: the strings are cut */
	const char *rpath;	/* "" when absent; valid during the call */
	const char *runpath;
	bool property;		/* has a NT_GNU_PROPERTY_TYPE_0 note:
				   PT_GNU_PROPERTY, or an object's
				   .note.gnu.property */
	uint32_t x86_feature_1;	/* GNU_PROPERTY_X86_FEATURE_1_AND: bit 0
				   IBT, bit 1 SHSTK; 0 if absent */
	uint32_t aarch64_feature_1;	/* GNU_PROPERTY_AARCH64_FEATURE_1_AND:
					   bit 0 BTI, bit 1 PAC; 0 if absent */
	bool sections;		/* has section headers */
	bool symtab;		/* has a SHT_SYMTAB section: not stripped */
	bool dynsym;		/* has a SHT_DYNSYM section */
	/* What the dynamic linker reads to load it. The strings are valid
	   during the call. */
	bool textrel;		/* DT_TEXTREL, or DF_TEXTREL in DT_FLAGS */
	bool has_soname;	/* DT_SONAME */
	const char *soname;	/* "" when absent; cut like the paths */
	unsigned nneeded;	/* DT_NEEDED entries */
	bool needed_cut;	/* more names than fit in CHSTK_PATH_LEN bytes:
				   the list holds the first ones */
	/* The DT_NEEDED names in order, each ending in a NUL, the list
	   ending in an empty name: "libm.so.6\0libc.so.6\0\0". */
	const char *needed;
	const char *interp;	/* PT_INTERP's path, "" when none; cut to
				   CHSTK_PATH_LEN - 1 bytes */
	/* The libraries the image may dlopen, as systemd's ELF dlopen
	   metadata names them (the .note.dlopen section: notes of owner
	   "FDO", type 0x407c0c0a, in the PT_NOTE segments): each note's
	   descriptor, a JSON text, up to its first NUL, each ending in a
	   NUL, the list ending in an empty one: "[...]\0[...]\0\0"; "" when
	   none. Valid during the call. */
	const char *dlopen;
	bool dlopen_cut;	/* more than fit in CHSTK_DLOPEN_LEN bytes, or
				   a PT_NOTE segment not read (over 64 KiB,
				   or past the end of the file): the list
				   holds the notes read whole */
	/* For a program without PT_INTERP nor SHT_SYMTAB (a stripped static
	   program) for x86-64 or i386, the instructions in its executable
	   PT_LOADs that read the stack protector's guard into a register
	   (x86-64: mov, sub, xor or cmp of %fs:0x28; i386: of %gs:0x14),
	   the prologue's load and the epilogue's check of every protected
	   function. Read 64 KiB at a time, up to 64 MiB of code. -1 when
	   not counted: another kind of image or machine, or more code. */
	int64_t guard_reads;
	/* What annocheck's tests of the binary alone read besides (elfscan(1),
	   HARDENING, says what each is worth). */
	unsigned dynamic_segments;	/* PT_DYNAMIC entries */
	unsigned dynamic_sections;	/* SHT_DYNAMIC sections */
	bool aarch64_bti_plt;	/* AArch64: DT_AARCH64_BTI_PLT */
	bool aarch64_pac_plt;	/* AArch64: DT_AARCH64_PAC_PLT */
	bool tls_exec;		/* a PT_TLS of some size with PF_X */
	unsigned property_notes;	/* "GNU" NT_GNU_PROPERTY_TYPE_0 notes in
					   the property segment (section) */
	enum chstk_property_fault property_fault;	/* the first met */
	/* The sections PT_GNU_RELRO should cover, by CHSTK_RELRO_* bit:
	   those of some size present, and of those, the ones reaching out
	   of the last PT_GNU_RELRO (all of them when there is none). */
	unsigned relro_sections, relro_outside;
	bool writable_relocs;	/* .rel.got, .rela.got, .rel.plt or .rela.plt
				   has SHF_WRITE */
	bool go_buildid;	/* a .note.go.buildid section: Go's linker */
	char go_version[32];	/* the Go version .go.buildinfo states
				   inline ("go1.19.8"), "" when it does not
				   (no section, Go before 1.18, cut) */
	/* With CHSTK_READ_CODE too: the first bytes of code at the entry
	   point, when e_entry lies in an executable PT_LOAD's file image. */
	bool has_entry_code;
	unsigned char entry_code[CHSTK_CODE_LEN];
	/* The descriptor of its first NT_GNU_BUILD_ID note (in a PT_NOTE
	   segment), which names its separate debug file
	   (/usr/lib/debug/.build-id/XX/YYYY.debug); build_id_len 0 when
	   it has none, or one longer than CHSTK_BUILD_ID_MAX bytes. */
	unsigned char build_id[CHSTK_BUILD_ID_MAX];
	unsigned build_id_len;
	/* With CHSTK_READ_EVIDENCE, what its debugging information shows of
	   how it was built, with CHSTK_READ_CODE_SEARCH what its code shows; 0
	   otherwise (an_notes 0: the an_* values mean nothing). */
	bool dwarf;		/* has a .debug_info (or .zdebug_info)
				   section: chstk_scan_opts.unit saw its
				   compilation units */
	unsigned units;		/* compilation units handed over */
	bool units_cut;		/* more than CHSTK_UNITS_MAX: the rest
				   were not read */
	bool debug_alt;		/* has .gnu_debugaltlink: strings that lie
				   in that dwz file are not read */
	const char *evidence_error;	/* why its DWARF or code could not
					   be read, or ""; valid during the
					   call */
	bool code;		/* its executable code was read (x86-64
				   only): the counts below */
	bool code_cut;		/* more than CHSTK_CODE_MAX bytes of it:
				   the rest was not */
	unsigned trampolines;	/* GCC's nested-function trampolines built
				   on the stack (movl $0x90e3ff49, DISP(REG):
				   jmp *%r11 written to memory) */
	unsigned probed;	/* stack allocations probed a page at a time
				   (-fstack-clash-protection: sub $0x1000,
				   %rsp, then orq or movq $0x0,(%rsp)) */
	unsigned unprobed;	/* stack allocations of a page or more at
				   once, not probed (sub $N,%rsp, N >=
				   0x1000) */
	/* What annobin's notes say (.gnu.build.attributes, its ELF notes,
	   or .annobin.notes, its strings): each setting's lowest and highest
	   value over the notes that give it, -1 and -1 where none does. */
	unsigned an_notes;	/* notes read */
	struct chstk_annobin_value an_stack_prot;	/* -fstack-protector,
							   weakest first: 0
							   none, 1 explicit,
							   2 basic, 3 strong,
							   4 all */
	struct chstk_annobin_value an_stack_clash;	/* 0 or 1 */
	struct chstk_annobin_value an_cf_full;	/* -fcf-protection=full
						   (branch and return):
						   0 or 1 */
	struct chstk_annobin_value an_fortify;	/* _FORTIFY_SOURCE's level
						   (notes that LTO hid it
						   from are left out) */
	struct chstk_annobin_value an_glibcxx_assertions;	/* 0 or 1 */
	struct chstk_annobin_value an_optimize;	/* -O level, 0 to 3 */
	struct chstk_annobin_value an_lto;	/* -flto: 0 or 1 */
	struct chstk_annobin_value an_auto_var_init;	/* -ftrivial-auto-var-
							   init: 0 none, 1
							   pattern, 2 zero */
};

/* One symbol, as chstk_scan_opts.symbol sees it. */
struct chstk_sym {
	const char *name;	/* at most 1024 bytes, see cut */
	bool cut;		/* the name is longer and was cut */
	bool dynamic;		/* from SHT_DYNSYM, else from SHT_SYMTAB */
	bool undefined;		/* SHN_UNDEF: a reference */
	unsigned char type;	/* STT_* */
	unsigned char bind;	/* STB_* */
	/* With CHSTK_READ_CODE: for a function the image exports (a defined
	   STT_FUNC of the dynamic table, global or weak, of default or
	   protected visibility, whose value lies in an executable PT_LOAD's
	   file image), its first bytes of code; else NULL. */
	const unsigned char *code;
};

/*
 * Called for each named symbol of an image's dynamic symbol table, then of
 * its static one, before the image's chstk_scan_fn; arg is the scan's.
 * sym is valid only during the call. Return 0 to go on; any other value
 * stops the scan, and the scanner returns it.
 */
typedef int (*chstk_sym_fn)(void *arg, const struct chstk_sym *sym);

/* One compilation unit of an image's DWARF (DW_TAG_compile_unit or
   DW_TAG_skeleton_unit), as chstk_scan_opts.unit sees it. */
struct chstk_unit {
	const char *name;	/* DW_AT_name, "" when absent */
	const char *producer;	/* DW_AT_producer, "" when absent */
	bool name_cut, producer_cut;	/* longer than CHSTK_PATH_LEN - 1
					   bytes: cut */
	unsigned language;	/* DW_AT_language (DW_LANG_*), 0 when
				   absent */
	bool elsewhere;		/* a string of it lies in the dwz file
				   (DW_FORM_GNU_strp_alt), not read: "" */
	/* _FORTIFY_SOURCE as the unit's macro table (-g3: .debug_macro or
	   .debug_macinfo, imports followed) leaves it, the last define or
	   undefine winning, those of the sources over those outside any
	   (the command line's, the compiler's): its level, 0 when none defines it or an undefine
	   came last, CHSTK_FORTIFY_UNKNOWN when the unit has no macro table
	   or it could not be read to its end. A value above 3 is 3, one
	   that is not a number 1. */
	int fortify;
};
#define CHSTK_FORTIFY_UNKNOWN (-1)

/*
 * Called for each compilation unit of an image, in the order of
 * .debug_info, before the image's chstk_scan_fn; arg is the scan's. unit
 * is valid only during the call. Return 0 to go on; any other value
 * stops the scan, and the scanner returns it.
 */
typedef int (*chstk_unit_fn)(void *arg, const struct chstk_unit *unit);

/*
 * Called, when chstk_scan_opts.read has CHSTK_READ_WANT, for each image
 * once its headers are read, before what the CHSTK_READ_* bits it
 * returns ask of this image beyond the scan's: a caller that needs more
 * of a few images (their sections, their dynamic symbols) asks for it
 * there, without reading as much of every image. info is as the
 * image's chstk_scan_fn will get it, but kind and pie, which for an
 * ET_DYN are read after (CHSTK_KIND_SHARED and false until then),
 * hardening and sections. What is asked there and cannot be read is
 * left out (sections NULL, the symbols up to the damage): the image is
 * reported all the same. A stream (chstk_scan_stream_with) keeps the
 * whole image for it, and only when its size is known and at most
 * CHSTK_STREAM_KEEP.
 */
typedef unsigned (*chstk_want_fn)(void *arg, const struct chstk_info *info);

enum {
	CHSTK_READ_HARDENING = 1,	/* fill chstk_info.hardening */
	CHSTK_READ_DYNAMIC = 2,		/* only its dynamic linking: the
					   dynamic section and PT_INTERP */
	CHSTK_READ_SECTIONS = 4,	/* fill chstk_info.sections for
					   programs and shared objects too */
	CHSTK_READ_DYNSYM = 8,		/* hand the dynamic symbol table's
					   symbols to chstk_scan_opts.symbol
					   (with CHSTK_READ_HARDENING, every
					   symbol is) */
	CHSTK_READ_WANT = 16,		/* call chstk_scan_opts.want */
	CHSTK_READ_CODE = 32,		/* with CHSTK_READ_HARDENING: the
					   first bytes of code at the entry
					   point and at each exported function
					   (chstk_sym.code), a few bytes at
					   each address */
	/*
	 * With CHSTK_READ_HARDENING: also what the image shows of how it
	 * was built (the fields of struct chstk_hardening after build_id):
	 * its DWARF compilation units through libdw, handed to
	 * chstk_scan_opts.unit, and annobin's notes. Bounded: at most
	 * CHSTK_UNITS_MAX units, and DWARF sections copied and expanded up to
	 * 1 GiB. DWARF that cannot be read does not make the image
	 * unreadable: evidence_error says why. An object's DWARF is not read
	 * (its strings are named through relocations, which libdw does not
	 * apply). Costs little for an image without them: its section
	 * headers and their names, read again.
	 */
	CHSTK_READ_EVIDENCE = 64,
	/*
	 * With CHSTK_READ_HARDENING: also the x86-64 code of its executable
	 * segments (sections, in an object) searched for trampolines and
	 * stack probes, up to CHSTK_CODE_MAX bytes. Every byte of code is
	 * read: some 1 GB/s of code on this machine's cores.
	 */
	CHSTK_READ_CODE_SEARCH = 128,
};

/* What the chstk_scan_*_with() functions read beyond the marking. */
struct chstk_scan_opts {
	unsigned read;		/* CHSTK_READ_* bits */
	chstk_sym_fn symbol;	/* with CHSTK_READ_HARDENING or
				   CHSTK_READ_DYNSYM; may be NULL */
	/* chstk_scan_fd_with() only: a caller that has read the start of
	   the file already, to tell what it is (see chstk_format()), lends
	   its first head_len bytes, which the library takes from there
	   instead of reading them again. The first 1 KiB holds the headers
	   of nearly every ELF file. */
	const void *head;
	size_t head_len;
	/* chstk_scan_fd_with() only: the caller vouches that fd is a
	   regular file (it listed one and opened it so). The library then
	   asks its size (fstat) only for a check the bytes it holds cannot
	   answer, and a read past its end fails as a range check would. */
	bool regular;
	/* Since interface 2, read only with CHSTK_READ_WANT in read (a
	   caller built against an older header has no such member): asked
	   what more to read of each image. */
	chstk_want_fn want;
	chstk_unit_fn unit;	/* with CHSTK_READ_EVIDENCE; may be NULL */
};

/* "exec", "noexec" or "default". Never NULL. */
const char *chstk_state_name(enum chstk_state state);

/* The state op gives a file that is in state now. */
enum chstk_state chstk_op_result(enum chstk_op op, enum chstk_state now);

/*
 * Called by the scanners once for each ELF image: the file itself (member is
 * NULL) or each ELF member of an ar archive (member is its name; members
 * that are not ELF are not reported). When the image cannot be read, info is
 * NULL and err says why; otherwise err is NULL. Both are valid only during
 * the call. Return 0 to go on; any other value stops the scan, and the
 * scanner returns it.
 */
typedef int (*chstk_scan_fn)(void *arg, const char *member,
    const struct chstk_info *info, const struct chstk_error *err);

/*
 * Read the marking of the ELF file or ar archive open on fd (read-only is
 * enough; the offset is not used or changed) and call fn for each image.
 * Returns 0, what fn returned to stop, or a negative chstk_errcode when the
 * file as a whole cannot be read (err says why). A member that cannot be
 * read is reported to fn and the scan goes on; an archive whose structure
 * is damaged part of the way through (a bad member header) ends with an
 * error after fn has seen the members before the damage. An ELF file that
 * cannot be read is never reported to fn.
 */
int chstk_scan_fd(int fd, chstk_scan_fn fn, void *arg,
    struct chstk_error *err);

/* The same for an image in memory, which the library only reads. */
int chstk_scan_mem(const void *buf, size_t size, chstk_scan_fn fn, void *arg,
    struct chstk_error *err);

/*
 * chstk_scan_fd() and chstk_scan_mem() reading what o asks beyond the
 * marking. An image whose further reads fail (a dynamic section or symbol
 * table running past the end, a count no real file has) is reported to fn
 * as one that cannot be read; but one cut short (chstk_info.cut), whose
 * reads ran past the end, is reported without them (hardening NULL).
 */
int chstk_scan_fd_with(int fd, const struct chstk_scan_opts *o,
    chstk_scan_fn fn, void *arg, struct chstk_error *err);
int chstk_scan_mem_with(const void *buf, size_t size,
    const struct chstk_scan_opts *o, chstk_scan_fn fn, void *arg,
    struct chstk_error *err);

/* The same for a path (a symbolic link is followed). */
int chstk_scan_path(const char *path, chstk_scan_fn fn, void *arg,
    struct chstk_error *err);

/*
 * Where chstk_scan_stream() gets its bytes, in order from the first: up to
 * len bytes into buf. Returns the count, 0 at the end, or -1 when the
 * stream failed (its owner knows why; the library does not ask).
 */
typedef ssize_t (*chstk_read_fn)(void *arg, void *buf, size_t len);

/* The most bytes chstk_scan_stream() keeps of a stream at once. */
#define CHSTK_STREAM_KEEP (64u << 20)

/*
 * The same for an ELF file or ar archive read once, from its start, as
 * it comes out of a pipe or a compressed package: size bytes long, or
 * UINT64_MAX when the stream does not say. The library reads the stream
 * forward only and keeps what the scan needs: the headers of a program or
 * shared object (the bytes between its headers and its dynamic section
 * go by), an object whole, an archive member by member. An image that
 * would need more than CHSTK_STREAM_KEEP bytes kept fails with
 * CHSTK_ERR_NOMEM (for an archive member, fn is told so and the scan goes
 * on); a read that fails ends the scan with CHSTK_ERR_SYS (sys_errno 0:
 * the reason is the read function's owner's). Where the stream is left is
 * unspecified. The answers are those chstk_scan_mem()
 * gives on the same bytes, but for a stream of unknown size, where a
 * structure cut by the end of the stream is read as far as it goes.
 */
int chstk_scan_stream(chstk_read_fn read, void *read_arg, uint64_t size,
    chstk_scan_fn fn, void *arg, struct chstk_error *err);
/* The same reading what o asks beyond the marking, as
   chstk_scan_fd_with(). With CHSTK_READ_HARDENING or CHSTK_READ_DYNAMIC
   the symbol tables and strings may lie anywhere: an image is kept whole,
   within CHSTK_STREAM_KEEP. */
int chstk_scan_stream_with(chstk_read_fn read, void *read_arg,
    uint64_t size, const struct chstk_scan_opts *o, chstk_scan_fn fn,
    void *arg, struct chstk_error *err);

/* What a file is, by its first bytes, for a caller choosing a reader. */
enum chstk_format {
	CHSTK_FORMAT_OTHER = 0,	/* not one the library reads */
	CHSTK_FORMAT_ELF,	/* an ELF file: chstk_scan_*() */
	CHSTK_FORMAT_AR,	/* an ar archive: chstk_scan_*() */
	CHSTK_FORMAT_DEB,	/* a Debian package: an ar archive whose
				   files are in a compressed tar member; the
				   library refuses it */
};

/* The format the first n bytes of a file say: CHSTK_FORMAT_HEAD bytes
   are enough. */
#define CHSTK_FORMAT_HEAD 22
enum chstk_format chstk_format(const void *head, size_t n);

/* What chstk_update() or chstk_rewrite_fd() did. */
struct chstk_result {
	unsigned images;	/* ELF images looked at */
	unsigned changed;	/* of those, images whose marking changed */
	bool written;		/* a new file was written */
	unsigned long links;	/* chstk_update(): the file's hard-link count
				   before; the other links keep the old data */
};

/*
 * Apply op to every ELF image of the file at path; a symbolic link is
 * followed and stays a link. When nothing changes the file is not touched
 * (same inode, same times). Otherwise the new contents are written to a
 * temporary file in the same directory, checked, synced, given the
 * original's owner, group, mode (set-user-ID and set-group-ID included) and
 * extended attributes (capabilities, SELinux label, ACLs, user.*), and
 * renamed over the original. The rename gives the path a new inode: other
 * hard links to the file keep the old contents. What it needs is what the
 * rename needs: the directory writable, not the file (as execstack). A
 * file or directory marked immutable or append-only is refused before
 * anything is written (CHSTK_ERR_SYS, EPERM). A path that leads to no file
 * fails with "cannot open". res may be NULL.
 * Returns 0, or a negative chstk_errcode with err filled; then the file is
 * as it was and no temporary file remains.
 */
int chstk_update(const char *path, enum chstk_op op, struct chstk_result *res,
    struct chstk_error *err);

/*
 * The rewrite alone, for tests and fuzzers: read the ELF file or archive on
 * in_fd, apply op, and write the whole result to out_fd, which must be empty,
 * writable and seekable (a memfd or a temporary file). Returns 1 when the
 * result was written, 0 when nothing changes (out_fd is then left empty), or
 * a negative chstk_errcode. res may be NULL.
 */
int chstk_rewrite_fd(int in_fd, int out_fd, enum chstk_op op,
    struct chstk_result *res, struct chstk_error *err);

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *chstk_version(void);

#ifdef __cplusplus
}
#endif

#endif /* CHSTK_H */
