/*
 * The re-costing of the article's figure 9: every run of a workload with
 * a verdict, as requested, used, recommended and with reductions only.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sp.h"
#include "sp_advice.h"
#include "sp_cost.h"
#include "tap.h"

#include "testhist.h"

static struct sp_size_site site;

static void
cost(void)
{
	struct sp_cost c;
	struct sp_advice a[3] = { { 0 } };
	const struct sp_hist *h;

	/* Three runs of 1 h on 4 cores, 2 busy, 32G asked, 10 GiB peak,
	 * 8 h asked: lower on all three. */
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "3600", .lim = "28800",
		    .cpus = "4", .tasks = "1", .cpu = "7200", .mem = G(32), .rss = G(10));
	load();
	h = hist("u/p/cpu/w");
	sp_size_advise(h, &site, SP_FLAG_MEM, &a[0]);
	sp_size_advise(h, &site, SP_FLAG_CPUS, &a[1]);
	sp_size_advise(h, &site, SP_FLAG_TIME, &a[2]);
	sp_cost_init(&c);
	sp_cost_add(&c, h, &a[0], &a[1], &a[2]);
	is_int(3, c.runs[SP_COST_MEM], "cost: three runs in the memory panel");
	is_double(96, c.requested[SP_COST_MEM], 1e-9, "cost: 32 GiB x 3 h");
	is_double(30, c.used[SP_COST_MEM], 1e-9, "cost: 10 GiB x 3 h used");
	is_double(57, c.recommended[SP_COST_MEM], 1e-9, "cost: 19G (10 GiB x 1.90, 3 runs) x 3 h recommended");
	is_double(57, c.reductions[SP_COST_MEM], 1e-9, "cost: a lower is a reduction");
	is_double(12, c.requested[SP_COST_CPU], 1e-9, "cost: 4 cores x 3 h");
	is_double(6, c.used[SP_COST_CPU], 1e-9, "cost: 2 cores x 3 h burned");
	is_double(9, c.recommended[SP_COST_CPU], 1e-9, "cost: 2 busy x 1.2 -> 3 cores x 3 h");
	is_double(9, c.reductions[SP_COST_CPU], 1e-9, "cost: 3 of 4 cores is a reduction");
	is_double(24, c.requested[SP_COST_TIME], 1e-9, "cost: 8 h x 3 limit-hours");
	is_double(3, c.used[SP_COST_TIME], 1e-9, "cost: 1 h x 3 elapsed");
	is_double(6, c.recommended[SP_COST_TIME], 1e-9, "cost: 02:00:00 (1 h x 1.90, 3 runs) x 3");
	for (int k = 0; k < 3; k++)
		sp_advice_free(&a[k]);

	/* A raise counts in recommended but not in reductions. */
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "3600", .lim = "3600",
		    .cpus = "1", .tasks = "1", .cpu = "3600");
	load();
	h = hist("u/p/cpu/w");
	sp_size_advise(h, &site, SP_FLAG_MEM, &a[0]);
	sp_size_advise(h, &site, SP_FLAG_CPUS, &a[1]);
	sp_size_advise(h, &site, SP_FLAG_TIME, &a[2]);
	sp_cost_init(&c);
	sp_cost_add(&c, h, &a[0], &a[1], &a[2]);
	is_double(6, c.recommended[SP_COST_TIME], 1e-9, "cost: a raise to 02:00:00 is followed");
	is_double(3, c.reductions[SP_COST_TIME], 1e-9, "cost: but not among reductions");
	is_int(0, c.runs[SP_COST_MEM], "cost: a refusal is not re-costed");
	for (int k = 0; k < 3; k++)
		sp_advice_free(&a[k]);
}


int
main(void)
{
	plan_lazy();
	sp_size_site_unknown(&site);
	cost();
	sp_histset_free(&set);
	sp_buf_free(&rows);
	return done_testing();
}
