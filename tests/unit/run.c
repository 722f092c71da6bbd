/*
 * run.c - running a Check suite, for the unit tests (apart from elfgen.c,
 * so that the fuzz seed generator links without Check).
 */
#include <check.h>

#include "elfgen.h"

int
gen_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
