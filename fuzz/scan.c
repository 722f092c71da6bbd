/*
 * scan.c - fuzz target for the read path. Any bytes are scanned from
 * memory (chstk_scan_mem) and from a file (chstk_scan_fd on a memfd, where
 * libelf reads archive members in place): neither may crash, hang, leak or
 * touch memory it does not own (the sanitizers see to that), every report
 * must be possible (common.c), and the two must agree: the same images in
 * the same states. So must a scan of the bytes as a stream of known size
 * (chstk_scan_stream, fed in pieces of changing sizes), which keeps only
 * what it will read again; of unknown size it must keep the promises.
 * A callback that asks to stop must stop the scan.
 */
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static struct fuzz_scan mem, fd, stream, unsized;

static int
stop_at_first(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	unsigned *calls = arg;

	(void)member, (void)info, (void)err;
	(*calls)++;
	return 42;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct chstk_error err;
	unsigned calls = 0;
	int in, r;

	fuzz_scan_mem(data, size, &mem);
	in = fuzz_memfd(data, size);
	fuzz_scan_fd(in, &fd);
	close(in);

	must(mem.r >= 0 || mem.images == 0 || fuzz_is_archive(data, size));
	must((mem.r < 0) == (fd.r < 0));
	must(mem.images == fd.images);
	must(memcmp(mem.state, fd.state, mem.images < FUZZ_MAX_IMAGES ?
	    mem.images : FUZZ_MAX_IMAGES) == 0);

	fuzz_scan_stream(data, size, true, &stream);
	must(stream.r == mem.r);
	must(stream.images == mem.images);
	must(memcmp(mem.state, stream.state, mem.images < FUZZ_MAX_IMAGES ?
	    mem.images : FUZZ_MAX_IMAGES) == 0);
	fuzz_scan_stream(data, size, false, &unsized);

	r = chstk_scan_mem(data, size, stop_at_first, &calls, &err);
	must(mem.images == 0 ? r == mem.r && calls == 0 : r == 42 && calls == 1);
	return 0;
}
