/* A minimal TAP producer for the C unit tests.
 *
 * A test file is a set of static functions, one per behaviour checked,
 * and a table of them that main hands to unit_main:
 *
 *	static void test_perft_known_counts(void) { CHECK(...); }
 *	static const unit_test tests[] = { UNIT_TEST(perft_known_counts) };
 *	int main(int argc, char **argv) { return UNIT_MAIN(tests, argc, argv); }
 *
 * Each CHECK is one TAP line ("ok N - ..." or "not ok N - ..."), so
 * tests/run counts them with the bats results; a "# name" line before
 * each test's checks says which test they belong to. A test that makes
 * no check at all fails: it cannot have tested anything.
 *
 * Usage: test_x [-l] [NAME...]. Without names every test runs in table
 * order; with names only those, in the order given (the test_ prefix may
 * be left off or not). -l lists the names. The exit status is 1 when a
 * check failed, 2 for an unknown name. */
#ifndef YOMI_UNIT_H
#define YOMI_UNIT_H

#include <stdio.h>
#include <string.h>

typedef struct {
	const char *name;
	void (*fn)(void);
} unit_test;

#define UNIT_TEST(name) {#name, test_##name}
#define UNIT_MAIN(tests, argc, argv) \
	unit_main(tests, sizeof(tests) / sizeof((tests)[0]), argc, argv)

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

static inline void unit_run_one(const unit_test *t)
{
	int before = unit_n;
	printf("# %s\n", t->name);
	fflush(stdout);
	t->fn();
	if (unit_n == before)
		CHECK(0, "%s made no check", t->name);
	fflush(stdout);
}

static inline const unit_test *unit_find(const unit_test *tests, size_t n, const char *name)
{
	if (strncmp(name, "test_", 5) == 0)
		name += 5;
	for (size_t i = 0; i < n; i++)
		if (strcmp(tests[i].name, name) == 0)
			return &tests[i];
	return NULL;
}

static inline int unit_main(const unit_test *tests, size_t n, int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "-l") == 0) {
		for (size_t i = 0; i < n; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	for (int a = 1; a < argc; a++) {
		if (!unit_find(tests, n, argv[a])) {
			fprintf(stderr, "%s: no test named %s (-l lists them)\n", argv[0], argv[a]);
			return 2;
		}
	}
	if (argc > 1) {
		for (int a = 1; a < argc; a++)
			unit_run_one(unit_find(tests, n, argv[a]));
	} else {
		for (size_t i = 0; i < n; i++)
			unit_run_one(&tests[i]);
	}
	printf("1..%d\n", unit_n);
	return unit_failed ? 1 : 0;
}

#endif
