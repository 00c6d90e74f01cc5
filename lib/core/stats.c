#include "core/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The decimal text S (N bytes, no sign) as digits D times 10^POW, where
 * D has no leading or trailing zeros (D == 0 for zero): returns false if
 * S is not a number. *NSIG: D's digits; D is kept while it has at most
 * 18 (beyond, *NSIG says so and D is not used). */
static bool stats_digits(const char *s, size_t n, uint64_t *d, int *nsig, int *pow)
{
	size_t i = 0, mant = 0;
	int frac = 0, zeros = 0; /* fractional digits; trailing zeros seen */
	bool point = false;
	*d = 0, *nsig = 0;
	for (; i < n; i++) {
		if (s[i] == '.' && !point) {
			point = true;
			continue;
		}
		if (s[i] < '0' || s[i] > '9')
			break;
		mant++;
		frac += point;
		if (s[i] == '0') {
			zeros += *nsig > 0; /* leading zeros count for nothing */
			continue;
		}
		/* The zeros before this digit belong to D. */
		for (; zeros > 0; zeros--, ++*nsig)
			if (*nsig < 19)
				*d *= 10;
		if (++*nsig <= 18)
			*d = *d * 10 + (uint64_t)(s[i] - '0');
	}
	if (mant == 0)
		return false;
	long e = 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		bool eneg = false;
		if (++i < n && (s[i] == '-' || s[i] == '+'))
			eneg = s[i++] == '-';
		size_t start = i;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (e < 100000)
				e = e * 10 + (s[i] - '0');
		if (i == start)
			return false;
		e = eneg ? -e : e;
	}
	if (i != n)
		return false;
	long p = e - frac + zeros;
	*pow = p < -100000 ? -100000 : p > 100000 ? 100000 : (int)p;
	return true;
}

/* Any number that is not a short plain integer: exact (a count of 10^-6
 * units in an int64) whenever its value is one, exponent or not. */
static stats_kind stats_parse_general(const char *s, size_t n, stats_num *out)
{
	size_t i = 0;
	bool neg = false;
	if (s[i] == '-' || s[i] == '+')
		neg = s[i++] == '-';
	uint64_t d;
	int nsig, pow;
	if (!stats_digits(s + i, n - i, &d, &nsig, &pow))
		return STATS_BAD;
	/* fixed = D * 10^(pow + 6), when that is a whole number that fits. */
	int shift = pow + STATS_DECIMALS;
	bool exact = nsig <= 18 && (d == 0 || (shift >= 0 && shift <= 19));
	int64_t f = (int64_t)d;
	for (int k = 0; exact && d && k < shift; k++)
		exact = !__builtin_mul_overflow(f, 10, &f);
	if (exact) {
		out->fixed = neg ? -f : f;
		out->exact = true;
		/* fixed / 10^6 is correctly rounded while fixed is a double
		 * exactly; beyond, strtod is. */
		if (f <= (int64_t)1 << 53) {
			out->v = (double)out->fixed / STATS_SCALE;
			return STATS_NUM;
		}
	} else {
		out->fixed = 0;
		out->exact = false;
	}
	char buf[128];
	if (n >= sizeof buf)
		return STATS_BAD;
	memcpy(buf, s, n);
	buf[n] = '\0';
	out->v = strtod(buf, NULL);
	return isfinite(out->v) ? STATS_NUM : STATS_BAD;
}

stats_kind stats_parse(const char *s, size_t n, stats_num *out)
{
	if (n == 0 || (n == 2 && s[0] == 'N' && s[1] == 'A'))
		return STATS_MISSING;
	if (n <= 12) { /* the common case, a short plain integer: no checks needed */
		int64_t v = 0;
		size_t j = s[0] == '-';
		if (j < n) {
			while (j < n && s[j] >= '0' && s[j] <= '9')
				v = v * 10 + (s[j++] - '0');
			if (j == n) {
				v = s[0] == '-' ? -v : v;
				out->fixed = v * STATS_SCALE;
				out->v = (double)v;
				out->exact = true;
				return STATS_NUM;
			}
		}
	}
	return stats_parse_general(s, n, out);
}

void stats_init(stats_acc *a)
{
	memset(a, 0, sizeof *a);
	a->exact = true;
	a->min = INFINITY;
	a->max = -INFINITY;
}

/* Welford's update of the running mean and the sum of squared deviations
 * with X, the N-th value, both taken from the first value (the shift):
 * values near one another far from 0 then differ exactly, and the mean of
 * the differences keeps digits that a mean near the values would round
 * away. A spread past the double range stays Inf. */
static void spread_add(stats_acc *a, double x)
{
	if (a->n == 1)
		a->shift = x;
	if (isinf(a->m2))
		return;
	double d = (x - a->shift) - a->wmean;
	a->wmean += d / (double)a->n;
	a->m2 += d * ((x - a->shift) - a->wmean);
	if (!isfinite(a->m2) || !isfinite(a->wmean))
		a->m2 = INFINITY;
}

/* Neumaier's compensated sum: what each addition rounds away goes to
 * *COMP, so the sum is good to the last digit or so whatever the order
 * and size of the values. In long double, so that no sum of doubles
 * overflows (an Inf sum, from a partial of yomi before 2026-11-28,
 * stays Inf). */
static void sum_add(long double *sum, long double *comp, long double x)
{
	long double t = *sum + x;
	if (isfinite(t))
		*comp += fabsl(*sum) >= fabsl(x) ? (*sum - t) + x : (x - t) + *sum;
	*sum = t;
}

/* An exact state made inexact: its sums as a double sum and a spread,
 * before the value or the merge that does not fit. */
static void to_inexact(stats_acc *a)
{
	stats_set_spread(a, (long double)a->isum / STATS_SCALE, 0, stats_m2(a));
	a->exact = false;
}

void stats_add(stats_acc *a, const stats_num *x)
{
	if (x->v < a->min)
		a->min = x->v;
	if (x->v > a->max)
		a->max = x->v;
	if (a->exact) {
		/* |fixed| < 2^63, so its square fits. */
		__int128 f = x->fixed, s, q;
		if (x->exact && !__builtin_add_overflow(a->isum, f, &s) &&
		    !__builtin_add_overflow(a->isumsq, f * f, &q)) {
			a->n++;
			a->isum = s;
			a->isumsq = q;
			return;
		}
		to_inexact(a);
	}
	a->n++;
	sum_add(&a->dsum, &a->dcomp, x->v);
	spread_add(a, x->v);
}

/* Chan's merge of B's running mean and squared deviations into A's
 * (before the counts are added): every term is at least 0, so no spread
 * cancels. */
static void spread_merge(stats_acc *a, const stats_acc *b)
{
	if (!b->n)
		return;
	if (!a->n) {
		a->shift = b->shift;
		a->wmean = b->wmean;
		a->m2 = b->m2;
		return;
	}
	/* The difference of the means, shifts first (exact when close). */
	double na = (double)a->n, nb = (double)b->n;
	double d = (b->shift - a->shift) + (b->wmean - a->wmean);
	a->wmean += d * (nb / (na + nb));
	/* d (d w), not d d w: d d can pass the double range where the
	 * spread does not. */
	a->m2 += b->m2 + d * (d * (na * nb / (na + nb)));
	if (!isfinite(a->m2) || !isfinite(a->wmean))
		a->m2 = INFINITY;
}

bool stats_merges_exactly(const stats_acc *a, const stats_acc *b)
{
	__int128 t;
	return a->exact && b->exact && !__builtin_add_overflow(a->isum, b->isum, &t) &&
	       !__builtin_add_overflow(a->isumsq, b->isumsq, &t);
}

void stats_merge(stats_acc *a, const stats_acc *b)
{
	a->na += b->na;
	if (b->min < a->min)
		a->min = b->min;
	if (b->max > a->max)
		a->max = b->max;
	if (stats_merges_exactly(a, b)) {
		a->n += b->n;
		a->isum += b->isum;
		a->isumsq += b->isumsq;
		return;
	}
	stats_acc c = *b;
	if (c.exact)
		to_inexact(&c);
	if (a->exact)
		to_inexact(a);
	spread_merge(a, &c);
	sum_add(&a->dsum, &a->dcomp, c.dsum);
	a->dcomp += c.dcomp;
	a->n += c.n;
}

long double stats_sum(const stats_acc *a)
{
	if (a->exact)
		return (long double)a->isum / STATS_SCALE;
	return a->dsum + a->dcomp;
}

double stats_mean(const stats_acc *a)
{
	if (a->n == 0)
		return NAN;
	if (a->exact)
		return (double)((long double)a->isum / ((long double)STATS_SCALE * a->n));
	return (double)(stats_sum(a) / (long double)a->n);
}

/* n * S2 - S1^2 of exact sums, in 10^-12 units, into *NUM; false when it
 * does not fit 128 bits. */
static bool exact_nm2(const stats_acc *a, __int128 *num)
{
	__int128 ns2, s1s1;
	return !__builtin_mul_overflow((__int128)a->n, a->isumsq, &ns2) &&
	       !__builtin_mul_overflow(a->isum, a->isum, &s1s1) &&
	       !__builtin_sub_overflow(ns2, s1s1, num);
}

/* Where n S2 - S1^2 does not fit: S1 = q n + r gives it as n D - r^2,
 * D = S2 - q (S1 + r), which fits whenever S2 does (r^2 < n^2 fits too).
 * False when D does not: no data gives such sums. */
static bool exact_split(const stats_acc *a, __int128 *d, __int128 *r)
{
	__int128 n = a->n, q = a->isum / n, t;
	*r = a->isum % n;
	return !__builtin_add_overflow(a->isum, *r, &t) && !__builtin_mul_overflow(q, t, &t) &&
	       !__builtin_sub_overflow(a->isumsq, t, d);
}

/* The exact sums' squared deviations, divided by DIV (n or n(n - 1)
 * times 10^12 for the units): n S2 - S1^2 while it fits, else n D - r^2
 * (exact_split), where only r^2 / n, below n, is left to round. */
static long double exact_spread(const stats_acc *a, long double div)
{
	__int128 num, d, r;
	if (exact_nm2(a, &num))
		return (long double)num / div;
	if (!exact_split(a, &d, &r))
		return NAN;
	long double n = (long double)a->n;
	long double v = ((long double)d - (long double)(r * r) / n) * (n / div);
	return v < 0 ? 0 : v;
}

double stats_var(const stats_acc *a)
{
	if (a->n < 2)
		return NAN;
	long double n = (long double)a->n;
	if (a->exact)
		return (double)exact_spread(a, 1e12L * n * (n - 1));
	return a->m2 / (double)(a->n - 1);
}

double stats_m2(const stats_acc *a)
{
	if (!a->n)
		return 0;
	if (a->exact)
		return (double)exact_spread(a, 1e12L * (long double)a->n);
	return a->m2;
}

bool stats_exact_possible(const stats_acc *a)
{
	if (!a->n)
		return !a->isum && !a->isumsq;
	__int128 num, d, r;
	if (exact_nm2(a, &num))
		return num >= 0;
	/* n D - r^2 >= 0; n D fits once D < n. */
	if (!exact_split(a, &d, &r) || d < 0)
		return false;
	return d >= a->n || d * a->n >= r * r;
}

void stats_set_spread(stats_acc *a, long double sum, double lo, double m2)
{
	a->dsum = sum;
	a->dcomp = lo;
	a->m2 = m2;
	a->shift = a->wmean = 0;
	if (!a->n)
		return;
	/* The mean to the last digit: the shift, and what sum - shift n (one
	 * rounding, by fma) and lo leave over. */
	long double n = (long double)a->n;
	if (a->min == a->max) {
		/* Equal values: their mean is the minimum, with no rounding
		 * for a merge to take for a spread. */
		a->shift = a->min;
		return;
	}
	a->shift = (double)(sum / n);
	if (isfinite(a->shift))
		a->wmean = (double)((fmal(-(long double)a->shift, n, sum) + lo) / n);
}

bool stats_parse_wide(const char *s, size_t n, long double *out)
{
	size_t i = n && (s[0] == '-' || s[0] == '+');
	uint64_t d;
	int nsig, pow;
	char buf[128];
	if (n >= sizeof buf || !stats_digits(s + i, n - i, &d, &nsig, &pow))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	/* Within the double range the text is a double's (its shortest
	 * digits, which a long double reads as another value). */
	double v = strtod(buf, NULL);
	*out = isfinite(v) ? v : strtold(buf, NULL);
	return isfinite(*out);
}

void stats_format_fixed(__int128 v, int scale_digits, char *buf, size_t n)
{
	char tmp[64];
	int len = 0;
	bool neg = v < 0;
	unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
	do {
		tmp[len++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u > 0 || len <= scale_digits);
	/* tmp holds the digits backwards; the last scale_digits are decimals. */
	int frac_end = 0; /* trailing zero decimals to drop */
	while (frac_end < scale_digits && tmp[frac_end] == '0')
		frac_end++;
	size_t k = 0;
	if (neg && k + 1 < n)
		buf[k++] = '-';
	for (int i = len - 1; i >= scale_digits && k + 1 < n; i--)
		buf[k++] = tmp[i];
	if (frac_end < scale_digits && k + 1 < n) {
		buf[k++] = '.';
		for (int i = scale_digits - 1; i >= frac_end && k + 1 < n; i--)
			buf[k++] = tmp[i];
	}
	buf[k] = '\0';
	if (strcmp(buf, "-0") == 0)
		strcpy(buf, "0");
}

bool stats_parse_fixed(const char *s, int scale_digits, __int128 *out)
{
	bool neg = *s == '-';
	if (neg)
		s++;
	__int128 v = 0;
	int frac = -1;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || frac >= scale_digits)
			return false;
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *s - '0', &v))
			return false;
		if (frac >= 0)
			frac++;
	}
	for (int k = frac < 0 ? 0 : frac; k < scale_digits; k++)
		if (__builtin_mul_overflow(v, 10, &v))
			return false;
	*out = neg ? -v : v;
	return true;
}

double stats_z(double level)
{
	/* Solve Phi(z) = 1 - (1 - level) / 2 by Newton's method on erfc,
	 * which libm computes to full double precision. */
	double p = 1 - (1 - level) / 2, z = 0;
	for (int i = 0; i < 100; i++) {
		double cdf = 0.5 * erfc(-z / M_SQRT2);
		double pdf = exp(-z * z / 2) / sqrt(2 * M_PI);
		double step = (cdf - p) / pdf;
		z -= step;
		if (fabs(step) < 1e-15 * (1 + fabs(z)))
			break;
	}
	return z;
}

void stats_wilson(double k, double n, double z, double *lo, double *hi)
{
	if (n <= 0) {
		*lo = *hi = NAN;
		return;
	}
	double p = k / n, z2 = z * z;
	double d = 1 + z2 / n;
	double c = (p + z2 / (2 * n)) / d;
	double h = z / d * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
	*lo = c - h < 0 ? 0 : c - h;
	*hi = c + h > 1 ? 1 : c + h;
	if (k == 0)
		*lo = 0; /* exactly, not a rounding error away from it */
	if (k == n)
		*hi = 1;
}

void stats_rate_diff(double k1, double n1, double k2, double n2, double z, double *d, double *lo,
		     double *hi)
{
	if (n1 <= 0 || n2 <= 0) {
		*d = *lo = *hi = NAN;
		return;
	}
	double p1 = k1 / n1, p2 = k2 / n2, l1, u1, l2, u2;
	stats_wilson(k1, n1, z, &l1, &u1);
	stats_wilson(k2, n2, z, &l2, &u2);
	*d = p1 - p2;
	*lo = *d - sqrt((p1 - l1) * (p1 - l1) + (u2 - p2) * (u2 - p2));
	*hi = *d + sqrt((u1 - p1) * (u1 - p1) + (p2 - l2) * (p2 - l2));
}

double stats_elo(double s)
{
	if (s <= 0)
		return -INFINITY;
	if (s >= 1)
		return INFINITY;
	return -400 * log10(1 / s - 1);
}

double stats_quantile(const double *v, size_t n, double p)
{
	if (n == 0)
		return NAN;
	/* R's quantile(type = 7) step by step, so results agree to the bit:
	 * index = 1 + (n - 1) p, then (1 - h) x[lo] + h x[hi]. */
	double index = 1 + (double)(n - 1) * p;
	double lo = floor(index), hi = ceil(index);
	double xl = v[(size_t)lo - 1], xh = v[(size_t)hi - 1];
	if (index > lo && xh != xl) {
		double h = index - lo;
		return (1 - h) * xl + h * xh;
	}
	return xl;
}
