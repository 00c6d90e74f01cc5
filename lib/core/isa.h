/* isa: which instruction-set path the vector loops take, decided at run
 * time, so that one binary built for plain x86-64 runs everywhere and
 * still uses AVX2 or AVX-512 where the processor has them.
 *
 * Paths, each a superset of the one before:
 *   base    any x86-64 (and any other machine);
 *   avx2    AVX2, BMI1, BMI2, LZCNT and POPCNT (Haswell, Zen 1 and later);
 *   avx512  also AVX-512 F, VL, BW, DQ, CD, VBMI, VBMI2 and VPOPCNTDQ
 *           (Ice Lake, Zen 4 and later), with the operating system
 *           saving the vector registers.
 * The machine's best path is used unless the environment variable
 * YOMI_ISA names a lower one (base, avx2 or avx512): for comparing the
 * paths, which make the same games draw for draw. A path the machine
 * lacks is an error (exit 2). Modules with vector loops keep one table of
 * functions per path and pick theirs through isa_path. */
#ifndef YOMI_ISA_H
#define YOMI_ISA_H

#include <stdbool.h>

typedef enum { ISA_BASE, ISA_AVX2, ISA_AVX512, ISA_NPATHS } isa_path_id;

/* The best path this machine has. */
isa_path_id isa_machine(void);
/* The path in use: isa_machine(), or YOMI_ISA's (checked at the first
 * call), or the one isa_force set. Inline: the dispatchers ask it at
 * every call. */
extern int isa_current; /* -1 until decided */
isa_path_id isa_decide(void);
static inline isa_path_id isa_path(void)
{
	return isa_current >= 0 ? (isa_path_id)isa_current : isa_decide();
}
/* Makes P the path in use from now on (unit tests run every path); P
 * must be one the machine has. */
void isa_force(isa_path_id p);
/* For --version: "vector path: P (this machine's best: B; YOMI_ISA ...)". */
void isa_print_version(void);
/* "base", "avx2", "avx512". */
const char *isa_name(isa_path_id p);
/* The regions of a file compiled for a path: functions defined between
 * ISA_BEGIN_AVX2 (or ISA_BEGIN_AVX512) and ISA_END may use that path's
 * instructions, and are called only when isa_path() is that path or
 * above. */
#define ISA_TARGET_AVX2 "avx2,bmi,bmi2,lzcnt,popcnt"
#define ISA_TARGET_AVX512 \
	"avx2,bmi,bmi2,lzcnt,popcnt,avx512f,avx512vl,avx512bw,avx512dq,avx512cd,avx512vbmi,avx512vbmi2,avx512vpopcntdq"
#define ISA_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define ISA_BEGIN(t) ISA_PRAGMA(clang attribute push(__attribute__((target(t))), apply_to = function))
#define ISA_END _Pragma("clang attribute pop")
#else
#define ISA_BEGIN(t) _Pragma("GCC push_options") ISA_PRAGMA(GCC target(t))
#define ISA_END _Pragma("GCC pop_options")
#endif
#define ISA_BEGIN_AVX2 ISA_BEGIN(ISA_TARGET_AVX2)
#define ISA_BEGIN_AVX512 ISA_BEGIN(ISA_TARGET_AVX512)

/* AMD before Zen 3 runs PDEP and PEXT in microcode, slower than a loop. */
bool isa_slow_pdep(void);

#endif
