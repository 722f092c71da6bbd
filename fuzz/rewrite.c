/*
 * rewrite.c - fuzz target for the rewrite path. Any bytes, on a memfd, are
 * rewritten by chstk_rewrite_fd() with each of the five operations into
 * another memfd. Whatever the input, the library must not crash, leak or
 * touch memory it does not own, and its answer must hold when checked by
 * scanning again:
 *
 *  - nothing to change (0): the output is empty, and the input scans with
 *    every image already in the state the operation gives;
 *  - written (1): the output scans with as many images as the input, every
 *    one readable and in chstk_op_result()'s state, and rewriting it again
 *    changes nothing; it is not much bigger than the input (a rewrite adds
 *    a program header table or a section name, never gigabytes);
 *  - an error: a well-formed one, and written is false (what went to the
 *    output is for the caller to throw away, as chstk_update() does).
 */
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static struct fuzz_scan before, after;

static void
check_written(int out, size_t size, enum chstk_op op,
    const struct chstk_result *res)
{
	struct chstk_result again;
	struct chstk_error err;
	unsigned i, n;
	int again_out, r;

	must(res->written);
	must(res->changed > 0 && res->changed <= res->images);
	must(fuzz_size(out) <= 3 * (uint64_t)size + (UINT64_C(4) << 20));
	fuzz_scan_fd(out, &after);
	must(after.r == 0);
	must(after.bad == 0);
	must(after.images == before.images);
	must(after.images == res->images);
	n = after.images < FUZZ_MAX_IMAGES ? after.images : FUZZ_MAX_IMAGES;
	for (i = 0; i < n; i++)
		must(after.state[i] == chstk_op_result(op, before.state[i]));

	again_out = fuzz_memfd(NULL, 0);
	r = chstk_rewrite_fd(out, again_out, op, &again, &err);
	must(r == 0);
	must(fuzz_size(again_out) == 0);
	close(again_out);
}

static void
check_unchanged(int out, enum chstk_op op, const struct chstk_result *res)
{
	unsigned i, n;

	must(!res->written && res->changed == 0);
	must(fuzz_size(out) == 0);
	must(before.r == 0 && before.bad == 0);
	n = before.images < FUZZ_MAX_IMAGES ? before.images : FUZZ_MAX_IMAGES;
	for (i = 0; i < n; i++)
		must(chstk_op_result(op, before.state[i]) == before.state[i]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum chstk_op ops[] = {
		CHSTK_OP_SET_EXEC, CHSTK_OP_SET_NOEXEC, CHSTK_OP_CLEAR_EXEC,
		CHSTK_OP_CLEAR_NOEXEC, CHSTK_OP_SET_DEFAULT,
	};
	struct chstk_result res;
	struct chstk_error err;
	size_t i;
	int in, out, r;

	fuzz_scan_mem(data, size, &before);
	in = fuzz_memfd(data, size);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		out = fuzz_memfd(NULL, 0);
		r = chstk_rewrite_fd(in, out, ops[i], &res, &err);
		if (r == 1)
			check_written(out, size, ops[i], &res);
		else if (r == 0)
			check_unchanged(out, ops[i], &res);
		else
			fuzz_check_error(r, &err);
		must(r < 0 ? !res.written : err.code == CHSTK_OK);
		close(out);
	}
	close(in);
	return 0;
}
