#include "core/isa.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "core/util.h"

static const char *const names[ISA_NPATHS] = {"base", "avx2", "avx512"};

static int machine = -1;
int isa_current = -1;
static bool slow_pdep;

#if defined(__x86_64__) || defined(__i386__)
static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

static isa_path_id detect(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return ISA_BASE;
	bool osxsave = c >> 27 & 1, avx = c >> 28 & 1, popcnt = c >> 23 & 1;
	unsigned family = (a >> 8 & 0xF) + (a >> 20 & 0xFF);
	if (!osxsave || !avx || !popcnt)
		return ISA_BASE;
	uint64_t xcr0 = xgetbv0();
	if ((xcr0 & 6) != 6) /* the OS saves SSE and AVX state */
		return ISA_BASE;
	unsigned b7, c7;
	if (!__get_cpuid_count(7, 0, &a, &b7, &c7, &d))
		return ISA_BASE;
	unsigned ce = 0;
	if (__get_cpuid(0x80000001, &a, &b, &c, &d))
		ce = c;
	bool lzcnt = ce >> 5 & 1;
	bool avx2 = (b7 >> 3 & 1) && (b7 >> 5 & 1) && (b7 >> 8 & 1) && lzcnt;
	if (!avx2)
		return ISA_BASE;
	/* Zen 1 and 2 are family 0x17 (an AMD vendor string is implied by
	 * the family: Intel's are 6 and 15). */
	slow_pdep = family == 0x17;
	static const int f7b[] = {16, 17, 28, 30, 31}; /* F, DQ, CD, BW, VL */
	static const int f7c[] = {1, 6, 14};           /* VBMI, VBMI2, VPOPCNTDQ */
	bool avx512 = (xcr0 & 0xE0) == 0xE0;           /* opmask and ZMM state */
	for (size_t i = 0; i < sizeof f7b / sizeof *f7b; i++)
		avx512 &= b7 >> f7b[i] & 1;
	for (size_t i = 0; i < sizeof f7c / sizeof *f7c; i++)
		avx512 &= c7 >> f7c[i] & 1;
	return avx512 ? ISA_AVX512 : ISA_AVX2;
}
#else
static isa_path_id detect(void)
{
	return ISA_BASE;
}
#endif

isa_path_id isa_machine(void)
{
	if (machine < 0)
		machine = (int)detect();
	return (isa_path_id)machine;
}

bool isa_slow_pdep(void)
{
	isa_machine();
	return slow_pdep;
}

isa_path_id isa_decide(void)
{
	isa_path_id m = isa_machine();
	const char *env = getenv("YOMI_ISA");
	isa_current = (int)m;
	if (env && *env) {
		int p = -1;
		for (int i = 0; i < ISA_NPATHS; i++)
			if (!strcmp(env, names[i]))
				p = i;
		if (p < 0)
			die_usage("invalid YOMI_ISA '%s': expected base, avx2 or avx512", env);
		if (p > (int)m)
			die_usage("YOMI_ISA=%s: this machine has no %s (its best is %s)", env, env, names[m]);
		isa_current = p;
	}
	return (isa_path_id)isa_current;
}

void isa_force(isa_path_id p)
{
	if (p > isa_machine())
		die("internal error: path %s forced on a machine without it", isa_name(p));
	isa_current = (int)p;
}

const char *isa_name(isa_path_id p)
{
	return (unsigned)p < ISA_NPATHS ? names[p] : "?";
}

void isa_print_version(void)
{
	printf("vector path: %s (this machine's best: %s; YOMI_ISA=base, avx2 or avx512 picks a lower one)\n",
	       isa_name(isa_path()), isa_name(isa_machine()));
}
