/*
 * tramp: a GCC nested function whose address escapes, so that GCC builds
 * a trampoline for it on the stack. Exec Shield makes no exception for
 * trampolines: marked noexec, the call faults; marked exec, it prints
 * "tramp 42". First it prints where the trampoline is and the limit of
 * its code segment (lsl on %cs), for a CPU that does not check the limit
 * on near calls (qemu's emulator).
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
	int (*volatile f)(int) = add;
	unsigned long limit, sel;

	__asm__ volatile("mov %%cs, %0" : "=r"(sel));
	__asm__ volatile("lsl %1, %0" : "=r"(limit) : "r"(sel) : "cc");
	printf("tramp-at 0x%08lx limit 0x%08lx\n", (unsigned long)f, limit);
	fflush(stdout);
	printf("tramp %d\n", apply(f, 1));
	return 0;
}
