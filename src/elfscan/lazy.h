/*
 * lazy.h - libarchive, loaded when the first container is met.
 *
 * libarchive and what it brings (libxml2, ICU, the compressors) cost more
 * resident memory at start-up than the rest of a scan of a file system;
 * most scans meet no container. So elfscan is not linked with it: the
 * files that read containers include this header after <archive.h> and
 * <archive_entry.h>, which turns each libarchive function they use into a
 * pointer of one table, of the same type, filled by lazy_archive_load()
 * with dlopen and dlsym. Call it before the first libarchive call of a
 * container; it loads once, from any thread.
 */
#ifndef LAZY_H
#define LAZY_H

#include <archive.h>
#include <archive_entry.h>

#define LAZY_ARCHIVE_FUNCTIONS(X) \
	X(archive_entry_filetype) X(archive_entry_hardlink) \
	X(archive_entry_pathname) X(archive_entry_pathname_utf8) \
	X(archive_entry_size) X(archive_entry_size_is_set) \
	X(archive_entry_symlink) X(archive_errno) X(archive_error_string) \
	X(archive_filter_count) X(archive_read_data) X(archive_read_free) \
	X(archive_read_new) X(archive_read_next_header) X(archive_read_open) \
	X(archive_read_open_fd) X(archive_read_support_filter_bzip2) \
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
extern struct lazy_archive lazy_archive;

/* Load libarchive, once. Returns 0, or -1 with *why saying why (a static
   string); later calls return the same. */
int lazy_archive_load(const char **why);

#ifndef LAZY_NO_REDIRECT
#define archive_entry_filetype lazy_archive.archive_entry_filetype
#define archive_entry_hardlink lazy_archive.archive_entry_hardlink
#define archive_entry_pathname lazy_archive.archive_entry_pathname
#define archive_entry_pathname_utf8 lazy_archive.archive_entry_pathname_utf8
#define archive_entry_size lazy_archive.archive_entry_size
#define archive_entry_size_is_set lazy_archive.archive_entry_size_is_set
#define archive_entry_symlink lazy_archive.archive_entry_symlink
#define archive_errno lazy_archive.archive_errno
#define archive_error_string lazy_archive.archive_error_string
#define archive_filter_count lazy_archive.archive_filter_count
#define archive_read_data lazy_archive.archive_read_data
#define archive_read_free lazy_archive.archive_read_free
#define archive_read_new lazy_archive.archive_read_new
#define archive_read_next_header lazy_archive.archive_read_next_header
#define archive_read_open lazy_archive.archive_read_open
#define archive_read_open_fd lazy_archive.archive_read_open_fd
#define archive_read_support_filter_bzip2 lazy_archive.archive_read_support_filter_bzip2
#define archive_read_support_filter_gzip lazy_archive.archive_read_support_filter_gzip
#define archive_read_support_filter_lzma lazy_archive.archive_read_support_filter_lzma
#define archive_read_support_filter_rpm lazy_archive.archive_read_support_filter_rpm
#define archive_read_support_filter_xz lazy_archive.archive_read_support_filter_xz
#define archive_read_support_filter_zstd lazy_archive.archive_read_support_filter_zstd
#define archive_read_support_format_ar lazy_archive.archive_read_support_format_ar
#define archive_read_support_format_cpio lazy_archive.archive_read_support_format_cpio
#define archive_read_support_format_tar lazy_archive.archive_read_support_format_tar
#define archive_read_support_format_zip_streamable lazy_archive.archive_read_support_format_zip_streamable
#endif

#endif
