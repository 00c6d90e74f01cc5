/* A minimal TAP producer for the C unit tests: each CHECK is one test
 * line, so tests/run counts them with the bats results. */
#ifndef YOMI_UNIT_H
#define YOMI_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_n, unit_failed;

#define CHECK(cond, ...)                                                          \
	do {                                                                      \
		unit_n++;                                                         \
		if (cond) {                                                       \
			printf("ok %d - ", unit_n);                               \
		} else {                                                          \
			unit_failed++;                                            \
			printf("not ok %d - %s:%d: ", unit_n, __FILE__, __LINE__); \
		}                                                                 \
		printf(__VA_ARGS__);                                              \
		putchar('\n');                                                    \
	} while (0)

#define CHECK_STR(got, want, ...)                                                  \
	do {                                                                       \
		const char *g_ = (got), *w_ = (want);                              \
		CHECK(g_ && strcmp(g_, w_) == 0, __VA_ARGS__);                     \
		if (!g_ || strcmp(g_, w_) != 0)                                    \
			printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", w_); \
	} while (0)

static inline int unit_done(void)
{
	printf("1..%d\n", unit_n);
	return unit_failed ? 1 : 0;
}

#endif
