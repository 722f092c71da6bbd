/*
 * A shared library for the dlopen test: chstk marks one copy exec and one
 * noexec. glibc (2.36) makes the caller's stack executable before it opens
 * the exec one, which exec-shield level 3 must refuse.
 */
int xstack_answer(void);

int xstack_answer(void)
{
	return 42;
}
