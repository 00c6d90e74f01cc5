/* Bounded number parsing, progress, the clock, and the statistics
 * accumulator. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "unit.h"
#include "core/progress.h"
#include "core/stats.h"
#include "core/util.h"

static void test_i64_accepts_in_range(void)
{
	int64_t v;
	CHECK(util_parse_i64("42", 0, 100, &v) && v == 42, "in range");
	CHECK(util_parse_i64("-5", -10, 10, &v) && v == -5, "negative");
}

static void test_i64_rejects_out_of_range(void)
{
	int64_t v;
	CHECK(!util_parse_i64("101", 0, 100, &v), "above range");
	CHECK(!util_parse_i64("-1", 0, 100, &v), "below range");
}

static void test_i64_rejects_malformed(void)
{
	int64_t v;
	CHECK(!util_parse_i64("", 0, 100, &v), "empty");
	CHECK(!util_parse_i64(" 4", 0, 100, &v), "leading blank");
	CHECK(!util_parse_i64("4 ", 0, 100, &v), "trailing blank");
	CHECK(!util_parse_i64("4x", 0, 100, &v), "trailing junk");
	CHECK(!util_parse_i64("0x10", 0, 100, &v), "hex");
}

static void test_i64_type_limits(void)
{
	int64_t v;
	CHECK(!util_parse_i64("99999999999999999999", INT64_MIN, INT64_MAX, &v), "overflow");
	CHECK(util_parse_i64("9223372036854775807", INT64_MIN, INT64_MAX, &v) && v == INT64_MAX,
	      "INT64_MAX");
}

static void test_u64_type_limits(void)
{
	uint64_t u;
	CHECK(util_parse_u64("18446744073709551615", UINT64_MAX, &u) && u == UINT64_MAX,
	      "UINT64_MAX");
	CHECK(!util_parse_u64("18446744073709551616", UINT64_MAX, &u), "u64 overflow");
	CHECK(!util_parse_u64("-1", UINT64_MAX, &u), "u64 rejects minus");
}

static void test_double_accepts_in_range(void)
{
	double d;
	CHECK(util_parse_double("0.5", 0, 1, &d) && d == 0.5, "double");
	CHECK(util_parse_double(".5", 0, 1, &d) && d == 0.5, "double without leading zero");
}

static void test_double_rejects_out_of_range_and_non_finite(void)
{
	double d;
	CHECK(!util_parse_double("1.5", 0, 1, &d), "double above range");
	CHECK(!util_parse_double("nan", -1e9, 1e9, &d), "nan");
	CHECK(!util_parse_double("inf", -1e300, 1e300, &d), "inf");
	CHECK(!util_parse_double("1e999", -1e300, 1e300, &d), "overflow to inf");
	CHECK(!util_parse_double("", 0, 1, &d), "empty double");
}

static void test_progress_rates_and_times(void)
{
	char b[32];
	static const struct {
		double x;
		const char *text;
	} rates[] = {{0, "0"}, {0.42, "0.42"}, {980, "980"}, {999.4, "999"}, {999.5, "1k"},
		     {53240, "53.2k"}, {1520000, "1.52M"}, {2.5e9, "2.5G"}, {7e12, "7e+03G"}};
	for (size_t i = 0; i < sizeof rates / sizeof *rates; i++) {
		progress_format_rate(rates[i].x, b, sizeof b);
		CHECK_STR(b, rates[i].text, "rate %g", rates[i].x);
	}
	progress_format_time(42.4, b, sizeof b);
	CHECK_STR(b, "0:42", "42 s");
	progress_format_time(3723, b, sizeof b);
	CHECK_STR(b, "1:02:03", "3723 s");
	progress_format_time(-1, b, sizeof b);
	CHECK_STR(b, "0:00", "below 0");
}

/* An accumulator of the texts in V (NULL-terminated). */
static stats_acc stats_of(const char *const *v)
{
	stats_acc a;
	stats_init(&a);
	for (; *v; v++) {
		stats_num x;
		stats_parse(*v, strlen(*v), &x);
		stats_add(&a, &x);
	}
	return a;
}

static void test_stats_spread_inexact(void)
{
	/* A million and a seventh decimal: inexact; the sum of the squares
	 * (3e12, good to 5e-4) would hold no digit of the spread (5e-14). */
	static const char *const all[] = {"1000000.5000001", "1000000.5000002",
					  "1000000.5000004", NULL};
	static const char *const one[] = {"1000000.5000001", NULL};
	static const char *const two[] = {"1000000.5000002", "1000000.5000004", NULL};
	stats_acc a = stats_of(all), b = stats_of(one), c = stats_of(two), e;
	stats_init(&e);
	CHECK(!a.exact && fabs(stats_var(&a) / 2.3333e-14 - 1) < 1e-2, "variance of three close values");
	stats_merge(&b, &c);
	CHECK(fabs(stats_var(&b) / stats_var(&a) - 1) < 1e-6 && stats_mean(&b) == stats_mean(&a),
	      "merged: the same spread and mean");
	stats_merge(&e, &a);
	CHECK(stats_var(&e) == stats_var(&a) && stats_m2(&e) == stats_m2(&a) &&
		      stats_mean(&e) == stats_mean(&a),
	      "merged into an empty one");
	double v = stats_var(&a), m2 = stats_m2(&a), mean = stats_mean(&a);
	stats_init(&e);
	stats_merge(&a, &e);
	CHECK(stats_var(&a) == v && stats_m2(&a) == m2 && stats_mean(&a) == mean,
	      "an empty one merged in changes nothing");
	/* A first value far from the rest: nothing is taken from it twice. */
	static const char *const outlier[] = {"1000000", "0.1234567", "0.1234567", "0.1234567", NULL};
	stats_acc o = stats_of(outlier);
	CHECK(fabs(stats_mean(&o) / 250000.092592525 - 1) < 1e-15 &&
		      fabs(stats_m2(&o) / 749999814814.9614 - 1) < 1e-12,
	      "an outlier first: mean and spread to the last digits");
	static const char *const huge[] = {"1e200", "2e200", NULL};
	stats_acc h = stats_of(huge);
	CHECK(isinf(stats_var(&h)) && stats_mean(&h) == 1.5e200, "squares past the range: Inf");
	stats_set_spread(&h, 6, 0, 2);
	CHECK(stats_mean(&h) == 3 && stats_var(&h) == 2, "a partial's spread set back");
}

/* The clock a deadline is kept on: it carries the nanoseconds (a clock of
 * whole seconds would not move over a 20 ms sleep), never runs back, and
 * the coarse form keeps within a few ticks of it. */
static void test_seconds_monotonic(void)
{
	double a = util_seconds(false);
	nanosleep(&(struct timespec){.tv_nsec = 20000000}, NULL);
	double b = util_seconds(false), c = util_seconds(true), d = util_seconds(false);
	CHECK(b - a >= 0.02 && b - a < 5, "a 20 ms sleep: %g s", b - a);
	CHECK(d >= b, "never back: %.9f then %.9f", b, d);
	CHECK(fabs(c - d) < 0.1, "coarse %.9f beside fine %.9f", c, d);
}

static const unit_test tests[] = {
	UNIT_TEST(progress_rates_and_times),
	UNIT_TEST(stats_spread_inexact),
	UNIT_TEST(seconds_monotonic),
	UNIT_TEST(i64_accepts_in_range),
	UNIT_TEST(i64_rejects_out_of_range),
	UNIT_TEST(i64_rejects_malformed),
	UNIT_TEST(i64_type_limits),
	UNIT_TEST(u64_type_limits),
	UNIT_TEST(double_accepts_in_range),
	UNIT_TEST(double_rejects_out_of_range_and_non_finite),
};

int main(int argc, char **argv)
{
	return UNIT_MAIN(tests, argc, argv);
}
