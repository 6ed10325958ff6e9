/*
 * test_stats.c - the statistics against published and exactly computed
 * values: Wilson (Newcombe 1998, method 3), Fisher (the tea-tasting table,
 * exact hypergeometric sums), Benjamini-Hochberg, nearest-rank percentile.
 */
#include <math.h>
#include <stdlib.h>

#include "sp.h"
#include "tap.h"

static void
test_wilson(void)
{
	double lo, hi;

	/* Newcombe, Statistics in Medicine 17 (1998), Table II, method 3. */
	sp_wilson(81, 263, SP_Z95, &lo, &hi);
	is_double(0.2553, lo, 5e-5, "wilson 81/263 low");
	is_double(0.3662, hi, 5e-5, "wilson 81/263 high");
	sp_wilson(15, 148, SP_Z95, &lo, &hi);
	is_double(0.0624, lo, 5e-5, "wilson 15/148 low");
	is_double(0.1605, hi, 5e-5, "wilson 15/148 high");
	sp_wilson(0, 20, SP_Z95, &lo, &hi);
	is_double(0.0, lo, 0, "wilson 0/20 low is exactly 0");
	is_double(0.1611, hi, 5e-5, "wilson 0/20 high");
	sp_wilson(1, 29, SP_Z95, &lo, &hi);
	is_double(0.0061, lo, 5e-5, "wilson 1/29 low");
	is_double(0.1718, hi, 5e-5, "wilson 1/29 high");

	/* The demo's hung node: every placement bad. */
	sp_wilson(12, 12, SP_Z95, &lo, &hi);
	is_double(0.757506, lo, 1e-6, "wilson 12/12 low");
	is_double(1.0, hi, 0, "wilson 12/12 high is exactly 1");

	sp_wilson(0, 0, SP_Z95, &lo, &hi);
	ok(isnan(lo) && isnan(hi), "wilson with no trials is unknown");
	sp_wilson(3, 2, SP_Z95, &lo, &hi);
	ok(isnan(lo) && isnan(hi), "wilson with k > n is unknown");
	sp_wilson(-1, 2, SP_Z95, &lo, &hi);
	ok(isnan(lo) && isnan(hi), "wilson with k < 0 is unknown");
}

static void
test_fisher(void)
{
	double p;

	/* One bad placement in 10 against none in 500: twice
	 * C(509,9)/C(510,10). */
	is_double(20.0 / 510.0, sp_fisher_doubled(1, 9, 0, 500), 1e-12,
		  "fisher doubled 1/10 vs 0/500 = 20/510");

	/* Fisher's lady tasting tea: 3 of 4 right, one-sided P = 17/70. */
	is_double(34.0 / 70.0, sp_fisher_doubled(3, 1, 1, 3), 1e-12,
		  "fisher tea table doubled = 34/70");
	/* The same table seen from the other row reads the other way. */
	is_double(34.0 / 70.0, sp_fisher_doubled(1, 3, 3, 1), 1e-12,
		  "fisher doubled is symmetric in the direction");

	/* cot-exp: 12 of 12 hung on one node, 2 of 8 elsewhere. */
	is_double(2.0 * 91.0 / 125970.0, sp_fisher_doubled(12, 0, 2, 6),
		  1e-12, "fisher doubled 12/12 vs 2/8 = 182/125970");

	/* 10,000 placements: lgamma keeps every term finite (the exact
	 * sum, in integers: 2 x 0.02782684505153967). */
	p = sp_fisher_doubled(60, 4940, 40, 4960);
	is_double(0.05565369010307934, p, 1e-9,
		  "fisher doubled 60/5000 vs 40/5000");
	p = sp_fisher_doubled(100, 0, 0, 10000);
	ok(p >= 0 && p < 1e-200, "fisher doubled far tail is ~0, not NaN");

	/* Degenerate tables carry no evidence: p = 1. */
	is_double(1.0, sp_fisher_doubled(0, 10, 0, 40), 0,
		  "fisher doubled with no bad placements = 1");
	is_double(1.0, sp_fisher_doubled(10, 0, 40, 0), 0,
		  "fisher doubled with every placement bad = 1");
	is_double(1.0, sp_fisher_doubled(3, 7, 0, 0), 0,
		  "fisher doubled with an empty comparison = 1");
	is_double(1.0, sp_fisher_doubled(0, 0, 3, 7), 0,
		  "fisher doubled with an empty row = 1");
	is_double(1.0, sp_fisher_doubled(2, 8, 4, 16), 0,
		  "fisher doubled with equal rates = 1");
	is_double(1.0, sp_fisher_doubled(2, 3, 1, 2), 0,
		  "fisher doubled is capped at 1");
	ok(isnan(sp_fisher_doubled(-1, 3, 1, 2)),
	   "fisher with a negative count is unknown");
	ok(isnan(sp_fisher_doubled(1, -3, 1, 2)),
	   "fisher with a negative count in another cell is unknown");
}

static int
rejected(const unsigned char *r, size_t n)
{
	int k = 0;

	for (size_t i = 0; i < n; i++)
		k += r[i];
	return k;
}

static void
test_bh(void)
{
	double p3[] = { 0.4, 0.001, 0.6 };
	double p40[40];
	double ties[] = { 0.03, 0.01, 0.03, 0.04 };
	double unknown[] = { 0.01, NAN, 0.02 };
	unsigned char r[40];

	sp_bh(p3, 3, 0.05, r);
	ok(r[0] == 0 && r[1] == 1 && r[2] == 0,
	   "bh [0.001, 0.4, 0.6] rejects only the first");

	p40[0] = 0.02;
	for (int i = 1; i < 40; i++)
		p40[i] = 0.5;
	sp_bh(p40, 40, 0.05, r);
	is_int(0, rejected(r, 40), "bh [0.02] + 39 x [0.5] rejects nothing");
	sp_bh(p40, 1, 0.05, r);
	is_int(1, r[0], "bh [0.02] alone is rejected");

	/* Step-up: 0.04 <= 4/4 x 0.05 carries every smaller p with it. */
	sp_bh(ties, 4, 0.05, r);
	is_int(4, rejected(r, 4), "bh step-up rejects all four");

	/* 0.01 <= 1/2 x 0.05 and 0.02 <= 2/2 x 0.05: NaN is not a test. */
	sp_bh(unknown, 3, 0.05, r);
	ok(r[0] == 1 && r[1] == 0 && r[2] == 1,
	   "bh leaves an unknown p out of the count");

	sp_bh(NULL, 0, 0.05, r);
	ok(1, "bh on nothing returns");
}

static void
test_percentile(void)
{
	/* The textbook nearest-rank example. */
	double v[] = { 50, 15, 40, 20, 35 };
	double w[20];
	double none[] = { NAN, NAN };
	double some[] = { 3, NAN, 1, 2 };

	is_double(15, sp_percentile(v, 5, 0.05), 0, "p5 of 15..50 = 15");
	is_double(20, sp_percentile(v, 5, 0.30), 0, "p30 = 20");
	is_double(20, sp_percentile(v, 5, 0.40), 0, "p40 = 20");
	is_double(35, sp_percentile(v, 5, 0.50), 0, "p50 = 35");
	is_double(50, sp_percentile(v, 5, 1.0), 0, "p100 = 50");
	is_double(15, sp_percentile(v, 5, 0.0), 0, "p0 = the smallest");
	for (int i = 0; i < 20; i++)
		w[i] = 20 - i;
	is_double(19, sp_percentile(w, 20, 0.95), 0,
		  "p95 of 1..20 = 19, not pushed up by rounding");
	is_double(10, sp_percentile(w, 20, 0.5), 0, "p50 of 1..20 = 10");
	ok(isnan(sp_percentile(w, 0, 0.5)), "percentile of nothing is unknown");
	ok(isnan(sp_percentile(none, 2, 0.5)),
	   "percentile of unknowns is unknown");
	is_double(2, sp_percentile(some, 4, 0.5), 0,
		  "percentile skips unknown values");
}

int
main(void)
{
	plan_lazy();
	test_wilson();
	test_fisher();
	test_bh();
	test_percentile();
	return done_testing();
}
