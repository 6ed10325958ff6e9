/*
 * sp_stats.h - the statistics the node table and sizing rest on.
 */
#ifndef SP_STATS_H
#define SP_STATS_H

#include <stddef.h>

#define SP_Z95 1.959963984540054

/* Wilson score interval for k successes in n trials. */
void sp_wilson(long k, long n, double z, double *lo, double *hi);

/*
 * Fisher's exact test on the 2x2 table
 *        bad   good
 *   row  a     b
 *   rest c     d
 * doubled: min(1, 2 x the one-sided p in the direction observed, by the
 * hypergeometric law, summed in log space so tens of thousands of
 * trials do not overflow).  NaN for a negative count.
 */
double sp_fisher_doubled(long a, long b, long c, long d);

/* Benjamini-Hochberg at level alpha: reject[i] = 1 for the rejected. */
void sp_bh(const double *p, size_t n, double alpha, unsigned char *reject);

/* Nearest-rank percentile of v (sorted in place), q in [0,1]. */
double sp_percentile(double *v, size_t n, double q);

#endif
