/*
 * lazy.h - libarchive, loaded when the first container is met, and
 * libxml2, when the first rpm-md repository is (repo-rpm.c).
 *
 * libarchive and what it brings (libxml2, ICU, the compressors) cost more
 * resident memory at start-up than the rest of a scan of a file system;
 * most scans meet no container. So elfscan is not linked with it: each
 * libarchive function elfscan uses is listed once, below, and becomes a
 * pointer of the same type in one table, libarchive, filled by
 * lazy_archive_load() with dlopen and dlsym; the files that read
 * containers call libarchive.archive_read_new() and the like. A function
 * called but not listed is no member of the table: the build fails. Call
 * lazy_archive_load() before the first libarchive call of a container; it
 * loads once, from any thread. libxml2 the same way: libxml2.xmlReaderForIO()
 * and the like, after lazy_xml_load(), where configure found it
 * (HAVE_LIBXML2).
 */
#ifndef LAZY_H
#define LAZY_H

#include <archive.h>
#include <archive_entry.h>

#define LAZY_ARCHIVE_FUNCTIONS(X) \
	X(archive_entry_filetype) X(archive_entry_hardlink) \
	X(archive_entry_pathname) X(archive_entry_pathname_utf8) \
	X(archive_entry_perm) \
	X(archive_entry_size) X(archive_entry_size_is_set) \
	X(archive_entry_sparse_count) \
	X(archive_entry_symlink) X(archive_errno) X(archive_error_string) \
	X(archive_filter_bytes) X(archive_filter_count) X(archive_format) \
	X(archive_read_data) X(archive_read_free) \
	X(archive_read_new) X(archive_read_next_header) X(archive_read_open) \
	X(archive_read_open_fd) X(archive_read_open_memory) \
	X(archive_read_support_format_raw) X(archive_read_support_filter_bzip2) \
	X(archive_read_support_filter_gzip) X(archive_read_support_filter_lzma) \
	X(archive_read_support_filter_rpm) X(archive_read_support_filter_xz) \
	X(archive_read_support_filter_zstd) X(archive_read_support_format_ar) \
	X(archive_read_support_format_cpio) X(archive_read_support_format_tar) \
	X(archive_read_support_format_zip_streamable)

struct lazy_archive {
#define LAZY_POINTER(f) __typeof__(f) *f;
	LAZY_ARCHIVE_FUNCTIONS(LAZY_POINTER)
#undef LAZY_POINTER
};
extern struct lazy_archive libarchive;

/* Load libarchive, once. Returns 0, or -1 with *why saying why (a static
   string); later calls return the same. */
int lazy_archive_load(const char **why);

#ifdef HAVE_LIBXML2
#include <libxml/xmlreader.h>

#define LAZY_XML_FUNCTIONS(X) \
	X(xmlFreeTextReader) X(xmlInitParser) X(xmlReaderForIO) \
	X(xmlReaderForMemory) \
	X(xmlSetGenericErrorFunc) X(xmlTextReaderConstLocalName) \
	X(xmlTextReaderConstName) X(xmlTextReaderConstNamespaceUri) \
	X(xmlTextReaderConstValue) X(xmlTextReaderDepth) \
	X(xmlTextReaderIsEmptyElement) X(xmlTextReaderMoveToElement) \
	X(xmlTextReaderMoveToFirstAttribute) \
	X(xmlTextReaderMoveToNextAttribute) X(xmlTextReaderNodeType) \
	X(xmlTextReaderRead) X(xmlTextReaderSetStructuredErrorHandler)

struct lazy_xml {
#define LAZY_POINTER(f) __typeof__(f) *f;
	LAZY_XML_FUNCTIONS(LAZY_POINTER)
#undef LAZY_POINTER
};
extern struct lazy_xml libxml2;

/* Load libxml2, once, its messages to stderr silenced (a reader's come to
   the handler it sets). Returns 0, or -1 with *why saying why (a static
   string); later calls return the same. */
int lazy_xml_load(const char **why);
#endif

#endif
