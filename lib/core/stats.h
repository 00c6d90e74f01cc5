/* stats: number parsing for tables, accumulators that merge exactly,
 * quantiles and the Wilson score interval.
 *
 * Exactness: a number whose value is a whole count of 10^-6 units that
 * fits an int64 (at most STATS_DECIMALS decimals once any exponent is
 * applied: 1e-3 and 2.5E2 are, 1e-7 is not) is held as that count, and
 * sums and sums of squares of such numbers are kept in 128-bit integers.
 * So the same data gives bit-identical means and variances however it was
 * split into shards and merged. Other numbers (more decimals, larger,
 * sums past 128 bits) switch the accumulator to double arithmetic, which
 * is accurate but depends on the order of addition in its last digits. */
#ifndef YOMI_STATS_H
#define YOMI_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATS_DECIMALS 6
#define STATS_SCALE 1000000

typedef enum { STATS_NUM, STATS_MISSING, STATS_BAD } stats_kind;

typedef struct {
	double v;     /* the value */
	int64_t fixed; /* v * 10^6 when exact */
	bool exact;
} stats_num;

/* Parses a table cell: empty or NA is missing; otherwise a decimal number
 * (optional sign, digits, point, digits, exponent) or bad. */
stats_kind stats_parse(const char *s, size_t n, stats_num *out);

/* Count, sum, sum of squares, min and max of a column's numbers: exact
 * sums in integers while every value is a whole count of 10^-6 and they
 * fit; then floating point: the sum compensated (Neumaier's) in long
 * double, whose range no sum of doubles leaves (so 1e308 + 1e308 - 1e308
 * is 1e308, as R's sum has it), and the spread kept as Welford's running
 * mean and sum of squared deviations in doubles, taken from the first
 * value (the shift). Not the sum of squares: where the mean dwarfs
 * the spread, squares of the values would cancel the spread's digits. */
typedef struct {
	int64_t n, na;
	__int128 isum, isumsq;   /* in 10^-6 and 10^-12 units, while exact */
	long double dsum, dcomp; /* once inexact: the sum and what its
				  * additions rounded away */
	double shift, wmean, m2; /* and the mean of x - shift, the squared
				  * deviations (Inf past the double range) */
	double min, max;
	bool exact;
} stats_acc;

void stats_init(stats_acc *a);
void stats_add(stats_acc *a, const stats_num *x);
void stats_merge(stats_acc *a, const stats_acc *b);
/* The sum, in long double: past the double range where the values' sum
 * is, though their mean is not. */
long double stats_sum(const stats_acc *a);
double stats_mean(const stats_acc *a);
/* Sample variance (n - 1); NaN for fewer than two values. */
double stats_var(const stats_acc *a);
/* The sum of squared deviations from the mean (0 for no values), as the
 * inexact state's partial writes it. */
double stats_m2(const stats_acc *a);
/* Whether merging B into A keeps A exact: both exact, and the sums of
 * their sums within 128 bits. */
bool stats_merges_exactly(const stats_acc *a, const stats_acc *b);
/* Whether an exact state could come from data: the sum of squares at
 * least the square of the sum over n. */
bool stats_exact_possible(const stats_acc *a);
/* Sets the inexact sums of A's values (A->n of them, counted already,
 * their minimum and maximum set) from their sum SUM + LO (the rounded sum
 * and what it rounded away) and the sum M2 of their squared deviations
 * from the mean, as a partial gives them back. */
void stats_set_spread(stats_acc *a, long double sum, double lo, double m2);
/* Parses the decimal text S (N bytes) as stats_parse's numbers are
 * written: the double it names, or past the double range the long double
 * (a sum's); false on anything else. */
bool stats_parse_wide(const char *s, size_t n, long double *out);

/* Writes the exact sum (when a->exact) as a plain decimal into buf. */
void stats_format_fixed(__int128 v, int scale_digits, char *buf, size_t n);
/* Reads back what stats_format_fixed wrote; false on anything else. */
bool stats_parse_fixed(const char *s, int scale_digits, __int128 *out);

/* The normal quantile for a two-sided interval of LEVEL (0.95 -> 1.96). */
double stats_z(double level);
/* Wilson score interval for K successes in N trials (K may be fractional,
 * as for scores with draws), clamped to [0, 1]. */
void stats_wilson(double k, double n, double z, double *lo, double *hi);
/* The difference K1/N1 - K2/N2 of two independent rates and its interval
 * from the two Wilson intervals (Newcombe's hybrid score interval, his
 * method 10): NaN when either N is 0. */
void stats_rate_diff(double k1, double n1, double k2, double n2, double z, double *d, double *lo,
		     double *hi);
/* Elo difference implied by score share S (+-Inf at 1 and 0). */
double stats_elo(double s);
/* Quantile of sorted V[0..n) by R's default (type 7). */
double stats_quantile(const double *v, size_t n, double p);

#endif
