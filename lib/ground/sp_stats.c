#include <math.h>
#include <stdlib.h>

#include "sp_stats.h"
#include "sp_util.h"

void
sp_wilson(long k, long n, double z, double *lo, double *hi)
{
	double p, z2, denom, centre, half;

	if (n <= 0 || k < 0 || k > n || !(z > 0)) {
		*lo = *hi = NAN;
		return;
	}
	p = (double)k / (double)n;
	z2 = z * z;
	denom = 1.0 + z2 / (double)n;
	centre = (p + z2 / (2.0 * (double)n)) / denom;
	half = z * sqrt(p * (1.0 - p) / (double)n +
			z2 / (4.0 * (double)n * (double)n)) / denom;
	*lo = centre - half;
	*hi = centre + half;
	/* At k = 0 or k = n the bound is exact; rounding must not cross it. */
	if (k == 0 || *lo < 0.0)
		*lo = 0.0;
	if (k == n || *hi > 1.0)
		*hi = 1.0;
}

/* log of the binomial coefficient; lgamma keeps 10^5 trials finite. */
static double
log_choose(double n, double k)
{
	return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0);
}

/*
 * One-sided Fisher exact test on the 2x2 table
 *        bad   good
 *   row  a     b
 *   rest c     d
 * greater = 1: P(A >= a), else P(A <= a), by the hypergeometric law,
 * summed in log space so tens of thousands of trials do not overflow.
 */
static double
fisher_one_sided(long a, long b, long c, long d, int greater)
{
	double total, rowsize, marked, logdenom, lmax, sum;
	long lo, hi, from, to, x;

	if (a < 0 || b < 0 || c < 0 || d < 0)
		return NAN;
	/*
	 * A, the row's bad count, is hypergeometric: rowsize draws from
	 * total items of which marked are bad.  Its support is [lo, hi].
	 */
	total = (double)a + b + c + d;
	rowsize = (double)a + b;
	marked = (double)a + c;
	lo = (long)fmax(0.0, rowsize - (total - marked));
	hi = (long)fmin(marked, rowsize);
	if (greater) {
		from = a;
		to = hi;
	} else {
		from = lo;
		to = a;
	}
	if (from > to)
		return 0.0;
	logdenom = log_choose(total, rowsize);
	/* Sum exp(term - lmax) so that no term underflows before the end. */
	lmax = -INFINITY;
	for (x = from; x <= to; x++) {
		double t = log_choose(marked, (double)x) +
		    log_choose(total - marked, rowsize - (double)x);
		if (t > lmax)
			lmax = t;
	}
	sum = 0.0;
	for (x = from; x <= to; x++) {
		double t = log_choose(marked, (double)x) +
		    log_choose(total - marked, rowsize - (double)x);
		sum += exp(t - lmax);
	}
	return fmin(1.0, exp(lmax + log(sum) - logdenom));
}

double
sp_fisher_doubled(long a, long b, long c, long d)
{
	double row, rest, p;

	if (a < 0 || b < 0 || c < 0 || d < 0)
		return NAN;
	if (a + b == 0 || c + d == 0 || a + c == 0 || b + d == 0)
		return 1.0;
	/* Compare a/(a+b) with c/(c+d) without dividing. */
	row = (double)a * (double)(c + d);
	rest = (double)c * (double)(a + b);
	if (row == rest)
		return 1.0;
	p = fisher_one_sided(a, b, c, d, row > rest);
	return fmin(1.0, 2.0 * p);
}

struct ranked {
	double p;
	size_t i;
};

static int
by_p(const void *va, const void *vb)
{
	const struct ranked *a = va, *b = vb;

	if (a->p < b->p)
		return -1;
	if (a->p > b->p)
		return 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

void
sp_bh(const double *p, size_t n, double alpha, unsigned char *reject)
{
	struct ranked *r;
	size_t m = 0, i, cut = 0;

	for (i = 0; i < n; i++)
		reject[i] = 0;
	if (n == 0)
		return;
	/* An unknown p is no test at all: it neither counts nor rejects. */
	r = sp_xcalloc(n, sizeof *r);
	for (i = 0; i < n; i++) {
		if (isnan(p[i]))
			continue;
		r[m].p = p[i];
		r[m].i = i;
		m++;
	}
	sp_sort(r, m, sizeof *r, by_p);
	for (i = 0; i < m; i++)
		if (r[i].p <= alpha * (double)(i + 1) / (double)m)
			cut = i + 1;
	for (i = 0; i < cut; i++)
		reject[r[i].i] = 1;
	free(r);
}

static int
by_value_nan_last(const void *va, const void *vb)
{
	double a = *(const double *)va, b = *(const double *)vb;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return a < b ? -1 : a > b;
}

double
sp_percentile(double *v, size_t n, double q)
{
	size_t m = 0, rank;
	double x;

	if (n == 0 || isnan(q))
		return NAN;
	sp_sort(v, n, sizeof *v, by_value_nan_last);
	while (m < n && !isnan(v[m]))
		m++;
	if (m == 0)
		return NAN;
	/*
	 * Nearest rank: the smallest value with at least q of the sample at
	 * or below it.  q x m that is an integer up to rounding (0.95 x 20)
	 * must not be pushed up a rank by the error in q.
	 */
	x = q * (double)m;
	if (fabs(x - nearbyint(x)) < 1e-9)
		x = nearbyint(x);
	x = ceil(x);
	if (x < 1.0)
		x = 1.0;
	rank = x > (double)m ? m : (size_t)x;
	return v[rank - 1];
}
