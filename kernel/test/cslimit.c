/*
 * cslimit: report what the code segment limit lets a 32-bit process run,
 * for cslimit-init.c to judge.
 *
 *   cslimit copies        the limit (lsl on %cs), the highest executable
 *                         address in /proc/self/maps, and whether a `ret'
 *                         copied into the stack, a malloc'd block, an
 *                         anonymous PROT_READ|PROT_WRITE mapping and .data
 *                         runs
 *   cslimit mprotect      the limit through mprotect(), munmap() and
 *                         mremap() of mappings above it
 *   cslimit smp           the same seen by a second thread on another CPU,
 *                         and a signal handler above that CPU's limit
 *   cslimit fork          copies, in a child
 *   cslimit exec PROG     raise the limit, then exec PROG copies
 *   cslimit pingpong N    N round trips over pipes with a child whose limit
 *                         differs, each checking its own limit every time
 *   cslimit signal        handlers run and return (sigreturn)
 *   cslimit bench N       time pipe round trips and mmap()/munmap()
 *   cslimit maps          /proc/self/maps, and the limit
 *   cslimit uprobe N      call uprobe_target() N times, where the booted
 *                         test has put a uprobe, then report where the
 *                         "[uprobes]" page went, and copies
 *   cslimit segments      the code segments the limit leaves alone: a
 *                         flat one of our own in the LDT, and vm86 mode
 *
 * Every line is "key value ..."; the probe judges nothing itself. It is
 * built static (-m32) and marked exec and noexec by chstk.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <asm/ldt.h>
#include <asm/vm86.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL
#define RET 0xc3
#define LRET 0xcb

static __thread sigjmp_buf *jump;

/* .data: initialized, so not .bss */
static unsigned char data_copy[64] = { 1 };

/* The limit of the code segment as this CPU's GDT has it now. */
static unsigned long cs_limit(void)
{
	unsigned long limit, sel;

	__asm__ volatile("mov %%cs, %0" : "=r"(sel));
	__asm__ volatile("lsl %1, %0" : "=r"(limit) : "r"(sel) : "cc");
	return limit;
}

/* The end of the highest executable mapping, as the kernel lists it. */
static unsigned long maps_exec_end(void)
{
	char line[512], perm[8];
	unsigned long start, end, top = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%lx-%lx %7s", &start, &end, perm) == 3 &&
		    perm[2] == 'x' && end > top)
			top = end;
	fclose(f);
	return top;
}

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(*jump, 1);
}

static void catch_segv(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
}

/*
 * Call the code at p, which starts with a far return (put_ret()), through
 * the code segment of selector: "run" if it returned, "segv" if it
 * faulted. A far call loads %cs from the GDT (or the LDT) and checks the
 * target against that segment's limit; a processor checks a near call
 * too, but qemu's emulator (TCG, 7.2) checks the limit only on far jumps
 * and calls, so under qemu the verdicts rest on far calls.
 */
static const char *call_via(void *p, unsigned short selector)
{
	struct {
		unsigned long offset;
		unsigned short selector;
	} __attribute__((packed)) target;
	sigjmp_buf jb;

	target.offset = (unsigned long)p;
	target.selector = selector;
	jump = &jb;
	if (sigsetjmp(jb, 1))
		return "segv";
	__asm__ volatile("lcall *%0" : : "m"(target) : "memory");
	return "run";
}

/* call_via() our own code segment, the GDT's user one. */
static const char *call(void *p)
{
	unsigned long cs;

	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	return call_via(p, (unsigned short)cs);
}

/* A near call of p + 1, a near return: what a processor also checks. */
static const char *near_call(void *p)
{
	sigjmp_buf jb;
	void (*volatile fn)(void) = (void (*)(void))((char *)p + 1);

	jump = &jb;
	if (sigsetjmp(jb, 1))
		return "segv";
	fn();
	return "run";
}

static unsigned char *put_ret(unsigned char *p)
{
	p[0] = LRET;
	p[1] = RET;
	__builtin___clear_cache((char *)p, (char *)p + 2);
	return p;
}

static void *page(int prot)
{
	void *p = mmap(NULL, PAGE, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("error mmap: %s\n", strerror(errno));
		exit(1);
	}
	return p;
}

/*
 * An executable page where the top-down allocator puts data: high.
 * (mmap() with PROT_EXEC would put it in the ASCII armor, low.)
 */
static void *high_exec_page(void)
{
	void *p = page(PROT_READ | PROT_WRITE);

	mprotect(p, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC);
	return p;
}

static void limits(void)
{
	printf("limit 0x%08lx\n", cs_limit());
	printf("exec-end 0x%08lx\n", maps_exec_end());
	printf("cpu %d\n", sched_getcpu());
}

static int copies(void)
{
	unsigned char stack_copy[64];
	unsigned char *heap = malloc(64);
	unsigned char *anon = page(PROT_READ | PROT_WRITE);

	catch_segv();
	limits();
	printf("heap 0x%08lx\n", (unsigned long)heap);
	printf("data 0x%08lx\n", (unsigned long)data_copy);
	printf("copy-stack %s\n", call(put_ret(stack_copy)));
	printf("copy-heap %s\n", call(put_ret(heap)));
	printf("copy-anon %s\n", call(put_ret(anon)));
	printf("copy-data %s\n", call(put_ret(data_copy)));
	printf("near-stack %s\n", near_call(stack_copy));
	printf("near-heap %s\n", near_call(heap));
	printf("near-anon %s\n", near_call(anon));
	printf("near-data %s\n", near_call(data_copy));
	return 0;
}

static void show(const char *step, void *p, const char *name)
{
	printf("%s limit 0x%08lx %s %s\n", step, cs_limit(), name, call(p));
}

static int mprotect_steps(void)
{
	unsigned char *heap = aligned_alloc(PAGE, PAGE);
	unsigned char *a = page(PROT_READ | PROT_WRITE);
	unsigned char *b = page(PROT_READ | PROT_WRITE);
	unsigned char *c = page(PROT_READ | PROT_WRITE);
	unsigned long base = cs_limit();

	catch_segv();
	printf("base 0x%08lx\n", base);
	printf("pages heap 0x%08lx a 0x%08lx b 0x%08lx c 0x%08lx\n",
	       (unsigned long)heap, (unsigned long)a, (unsigned long)b,
	       (unsigned long)c);
	put_ret(heap);
	put_ret(a);
	put_ret(b);
	put_ret(c);
	show("start", heap, "heap");
	mprotect(heap, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC);
	show("heap-x", heap, "heap");
	mprotect(heap, PAGE, PROT_READ | PROT_WRITE);
	show("heap-nox", heap, "heap");
	/* a is the highest, b below it: b runs while the limit covers a. */
	mprotect(a, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC);
	show("a-x", a, "a");
	show("a-x", b, "b");
	mprotect(a, PAGE, PROT_READ | PROT_WRITE);
	show("a-nox", b, "b");
	mprotect(a, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC);
	show("a-x2", b, "b");
	munmap(a, PAGE);
	show("a-unmapped", b, "b");
	/* PROT_EXEC at mmap() time: in the armor, below the limit */
	a = page(PROT_READ | PROT_WRITE | PROT_EXEC);
	printf("x-armor page 0x%08lx\n", (unsigned long)a);
	put_ret(a);
	show("x-armor", a, "x");
	show("x-armor", b, "b");
	munmap(a, PAGE);
	/* mremap an executable page from the top down below b */
	a = high_exec_page();
	put_ret(a);
	show("a-x3", b, "b");
	if (mremap(a, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, c) == MAP_FAILED)
		printf("error mremap: %s\n", strerror(errno));
	show("a-moved", b, "b");
	show("a-moved", c, "c");
	printf("end limit 0x%08lx exec-end 0x%08lx\n", cs_limit(),
	       maps_exec_end());
	return 0;
}

/* ---- smp: a second thread on another CPU ---- */

static volatile int command, done, handled;
static volatile const char *result;
static volatile unsigned long thread_limit;
static unsigned char *code_b;
static int thread_cpu;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Spins in user mode, on CPU 1, and calls b when told to. */
static void *second(void *arg)
{
	(void)arg;
	pin(1);
	thread_cpu = sched_getcpu();
	for (;;) {
		int cmd;

		while ((cmd = command) == done)
			;
		if (cmd < 0)
			return NULL;
		result = call(code_b);
		thread_limit = cs_limit();
		done = cmd;
	}
}

static void ask(const char *step)
{
	command++;
	while (done != command)
		;
	printf("%s thread-cpu %d limit 0x%08lx b %s\n", step, thread_cpu,
	       thread_limit, result);
}

static int smp(void)
{
	pthread_t t;
	unsigned char *a = page(PROT_READ | PROT_WRITE);
	unsigned char *s;
	struct sigaction sa;
	int i;

	code_b = page(PROT_READ | PROT_WRITE);
	put_ret(a);
	put_ret(code_b);
	catch_segv();
	pin(0);
	printf("main-cpu %d\n", sched_getcpu());
	pthread_create(&t, NULL, second, NULL);
	ask("start");
	/* raised here, on CPU 0; CPU 1 finds out by a #GP */
	mprotect(a, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC);
	ask("raised");
	/* lowered here while CPU 1 spins with the high limit loaded */
	munmap(a, PAGE);
	ask("lowered");
	/*
	 * A handler above CPU 1's limit: "movl $1, handled; ret". Its
	 * delivery is an IRET to an address above the stale limit.
	 */
	s = page(PROT_READ | PROT_WRITE);
	s[0] = 0xc7;
	s[1] = 0x05;
	memcpy(s + 2, &(unsigned long){ (unsigned long)&handled }, 4);
	memcpy(s + 6, &(unsigned long){ 1 }, 4);
	s[10] = RET;
	mprotect(s, PAGE, PROT_READ | PROT_EXEC);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = (void (*)(int))s;
	sigaction(SIGUSR1, &sa, NULL);
	pthread_kill(t, SIGUSR1);
	for (i = 0; i < 100000000 && !handled; i++)
		;
	printf("iret handled %d\n", handled);
	command = -1;
	pthread_join(t, NULL);
	return 0;
}

static int fork_child(void)
{
	pid_t pid;
	int status;

	printf("parent-limit 0x%08lx\n", cs_limit());
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		copies();
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("child-status %d\n", status);
	return 0;
}

static int exec_prog(const char *prog)
{
	unsigned char *a = high_exec_page();

	printf("before-exec limit 0x%08lx page 0x%08lx\n", cs_limit(),
	       (unsigned long)a);
	fflush(stdout);
	execl(prog, prog, "copies", (char *)NULL);
	printf("error exec %s: %s\n", prog, strerror(errno));
	return 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The parent keeps its limit; the child raises its own to the top with an
 * executable page. Both on CPU 0, so that every round trip switches this
 * CPU's descriptor twice.
 */
static int pingpong(long n, int timed)
{
	int down[2], up[2];
	unsigned long mine, theirs = 0;
	long i, bad = 0;
	char c = 0;
	pid_t pid;
	double t0;

	if (pipe(down) || pipe(up))
		return 1;
	pin(0);
	pid = fork();
	if (pid == 0) {
		high_exec_page();
		mine = cs_limit();
		write(up[1], &mine, sizeof(mine));
		for (i = 0; i < n; i++) {
			if (read(down[0], &c, 1) != 1)
				break;
			bad += cs_limit() != mine;
			write(up[1], &c, 1);
		}
		write(up[1], &bad, sizeof(bad));
		_exit(0);
	}
	mine = cs_limit();
	read(up[0], &theirs, sizeof(theirs));
	t0 = now();
	for (i = 0; i < n; i++) {
		write(down[1], &c, 1);
		if (read(up[0], &c, 1) != 1)
			break;
		bad += cs_limit() != mine;
	}
	t0 = now() - t0;
	printf("pingpong parent-limit 0x%08lx child-limit 0x%08lx\n", mine,
	       theirs);
	printf("pingpong parent-bad %ld\n", bad);
	read(up[0], &bad, sizeof(bad));
	printf("pingpong child-bad %ld\n", bad);
	if (timed)
		printf("bench pingpong-us %.2f\n", t0 * 1e6 / n);
	waitpid(pid, NULL, 0);
	return 0;
}

static volatile int caught;

static void on_usr1(int sig)
{
	caught += sig == SIGUSR1;
}

static int signals(void)
{
	struct sigaction sa;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	for (i = 0; i < 3; i++)
		raise(SIGUSR1);
	printf("signal caught %d limit 0x%08lx\n", caught, cs_limit());
	return 0;
}

/*
 * The function the booted test probes (cslimit-init.c; check-kernel.sh
 * finds its file offset with readelf). Its first instruction, a load,
 * is one that uprobes cannot emulate: each hit runs it out of line, in the
 * "[uprobes]" page, which the kernel maps executable at the first hit.
 */
__asm__(".text\n"
	".globl uprobe_target\n"
	".type uprobe_target, @function\n"
	"uprobe_target:\n"
	"\tmovl 4(%esp), %eax\n"
	"\taddl $1, %eax\n"
	"\tret\n"
	".size uprobe_target, .-uprobe_target\n");
int uprobe_target(int x);

static int uprobe(long n)
{
	char line[512];
	unsigned long start, end, xol_start = 0, xol_end = 0;
	long i, sum = 0;
	FILE *f;

	for (i = 0; i < n; i++)
		sum += uprobe_target((int)i);
	printf("uprobe-sum %ld\n", sum);
	printf("uprobe-want %ld\n", n * (n + 1) / 2);
	f = fopen("/proc/self/maps", "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, "[uprobes]") != NULL &&
		    sscanf(line, "%lx-%lx", &start, &end) == 2) {
			xol_start = start;
			xol_end = end;
		}
	if (f != NULL)
		fclose(f);
	printf("xol 0x%08lx-0x%08lx\n", xol_start, xol_end);
	return copies();
}

/*
 * A flat 32-bit code segment in entry 0 of our LDT: the limit is ours to
 * choose, and the kernel does not look at it. Its selector (table LDT,
 * privilege 3), or 0 if modify_ldt() refused.
 */
static unsigned short ldt_code_segment(void)
{
	struct user_desc d;

	memset(&d, 0, sizeof(d));
	d.entry_number = 0;
	d.base_addr = 0;
	d.limit = 0xfffff;
	d.seg_32bit = 1;
	d.contents = MODIFY_LDT_CONTENTS_CODE;
	d.limit_in_pages = 1;
	d.useable = 1;
	if (syscall(SYS_modify_ldt, 1, &d, sizeof(d)) != 0) {
		printf("ldt-set error %s\n", strerror(errno));
		return 0;
	}
	printf("ldt-set ok\n");
	return (0 << 3) | 4 | 3;	/* index 0, LDT, RPL 3 */
}

#define VM86_BASE 0x10000UL
#define VM86_INT 0x66

/*
 * Real mode in vm86(): "mov $0x1234, %ax; int $0x66" at 64 KiB (segment
 * 0x1000), the interrupt revectored so that vm86() returns with it. "run"
 * if it returned so with %ax set, else what it returned.
 */
static const char *vm86_run(char *why, size_t size)
{
	static const unsigned char code[] = {
		0xb8, 0x34, 0x12,	/* mov $0x1234, %ax */
		0xcd, VM86_INT,		/* int $0x66 */
	};
	struct vm86plus_struct v;
	unsigned char *low;
	long r;

	low = mmap((void *)VM86_BASE, PAGE,
		   PROT_READ | PROT_WRITE | PROT_EXEC,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (low != (void *)VM86_BASE) {
		snprintf(why, size, "mmap-%s", strerror(errno));
		return why;
	}
	memcpy(low, code, sizeof(code));
	memset(&v, 0, sizeof(v));
	v.regs.cs = v.regs.ds = v.regs.es = v.regs.ss = VM86_BASE >> 4;
	v.regs.eip = 0;
	v.regs.esp = PAGE - 16;
	v.cpu_type = CPU_386;
	v.int_revectored.__map[VM86_INT >> 5] |= 1U << (VM86_INT & 31);
	r = syscall(SYS_vm86, VM86_ENTER, &v);
	munmap(low, PAGE);
	if (r < 0)
		snprintf(why, size, "vm86-%s", strerror(errno));
	else if (VM86_TYPE(r) != VM86_INTx || VM86_ARG(r) != VM86_INT)
		snprintf(why, size, "returned-type-%d-arg-0x%x",
			 (int)VM86_TYPE(r), (unsigned)VM86_ARG(r));
	else if ((v.regs.eax & 0xffff) != 0x1234)
		snprintf(why, size, "ax-0x%04lx", v.regs.eax & 0xffff);
	else
		return "run";
	return why;
}

/*
 * What the limit does not cover, and that it stays in force around it:
 * the heap copy through our LDT segment, and through %cs after it; real
 * mode in vm86(), and the heap copy through %cs after that.
 */
static int segments(void)
{
	unsigned char *heap = put_ret(malloc(64));
	unsigned short ldt;
	char why[64];

	catch_segv();
	limits();
	ldt = ldt_code_segment();
	printf("ldt-heap %s\n", ldt != 0 ? call_via(heap, ldt) : "no-ldt");
	printf("ldt-then-heap %s\n", call(heap));
	printf("vm86 %s\n", vm86_run(why, sizeof(why)));
	printf("vm86-then-heap %s\n", call(heap));
	printf("limit-after 0x%08lx\n", cs_limit());
	return 0;
}

static int bench(long n)
{
	long i;
	double t0;
	void *p;

	pingpong(n, 1);
	t0 = now();
	for (i = 0; i < n; i++) {
		p = page(PROT_READ | PROT_WRITE);
		munmap(p, PAGE);
	}
	printf("bench mmap-rw-us %.2f\n", (now() - t0) * 1e6 / n);
	t0 = now();
	for (i = 0; i < n; i++) {
		p = page(PROT_READ | PROT_EXEC);
		munmap(p, PAGE);
	}
	printf("bench mmap-x-us %.2f\n", (now() - t0) * 1e6 / n);
	t0 = now();
	for (i = 0; i < n; i++) {
		p = high_exec_page();
		munmap(p, PAGE);
	}
	printf("bench mprotect-x-munmap-us %.2f\n", (now() - t0) * 1e6 / n);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int r = 2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(cmd, "copies") == 0)
		r = copies();
	else if (strcmp(cmd, "mprotect") == 0)
		r = mprotect_steps();
	else if (strcmp(cmd, "smp") == 0)
		r = smp();
	else if (strcmp(cmd, "fork") == 0)
		r = fork_child();
	else if (strcmp(cmd, "exec") == 0 && argc > 2)
		r = exec_prog(argv[2]);
	else if (strcmp(cmd, "pingpong") == 0 && argc > 2)
		r = pingpong(atol(argv[2]), 0);
	else if (strcmp(cmd, "signal") == 0)
		r = signals();
	else if (strcmp(cmd, "bench") == 0 && argc > 2)
		r = bench(atol(argv[2]));
	else if (strcmp(cmd, "uprobe") == 0 && argc > 2)
		r = uprobe(atol(argv[2]));
	else if (strcmp(cmd, "segments") == 0)
		r = segments();
	else if (strcmp(cmd, "maps") == 0) {
		FILE *f = fopen("/proc/self/maps", "r");
		char line[512];

		while (f && fgets(line, sizeof(line), f))
			printf("maps %s", line);
		printf("limit 0x%08lx\n", cs_limit());
		r = 0;
	} else
		fprintf(stderr, "cslimit: %s: unknown command\n", cmd);
	return r;
}
