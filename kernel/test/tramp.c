/*
 * tramp: a GCC nested function whose address escapes, so that GCC builds
 * a trampoline for it on the stack. Exec Shield makes no exception for
 * trampolines: marked noexec, the call faults; marked exec, it prints
 * "tramp 42".
 */
#include <stdio.h>

static int apply(int (*f)(int), int v)
{
	return f(v);
}

int main(void)
{
	int base = 41;
	int add(int v)
	{
		return base + v;
	}

	printf("tramp %d\n", apply(add, 1));
	return 0;
}
