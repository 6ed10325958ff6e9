/*
 * The workloads of an input: the same answers whatever order the runs
 * arrive in, and a workload kept packed (sp_seed.h) rebuilt to the bit.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sp.h"
#include "sp_advice.h"
#include "sp_histset.h"
#include "tap.h"

#include "testhist.h"

static struct sp_size_site site;
static struct sp_advice adv;

/* The same answers whatever order the runs arrive in. */
static void
order_free(void)
{
	static const double lim[] = { 48, 32, 32, 17, 12, 12, 14, 16, 18, 32 };
	struct sp_buf first = { 0 };

	for (int pass = 0; pass < 2; pass++) {
		for (int k = 0; k < 10; k++) {
			int i = pass ? 9 - k : k;

			ROW(.id = N(7000 + i), .state = i == 0 ? "CANCELLED" :
			    i == 9 ? "COMPLETED" : "OUT_OF_MEMORY", .el = "1200",
			    .mem = G(lim[i]), .rss = G(i == 9 ? 24 : 1),
			    .cpus = "16", .cpu = "2000", .lim = "3600");
		}
		load();
		sp_size_advise(hist("u/p/cpu/w"), &site, SP_FLAG_MEM, &adv);
		if (pass == 0)
			sp_buf_adds(&first, sp_buf_str(&adv.basis));
		else
			is_string(sp_buf_str(&first), sp_buf_str(&adv.basis),
				  "order: reversed input, same basis");
	}
	sp_buf_free(&first);
}

/* The same double, bit for bit, or both unknown. */
static int
same_num(double a, double b)
{
	return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static int
same_best(const struct sp_best *a, const struct sp_best *b)
{
	return same_num(a->a, b->a) && same_num(a->b, b->b) &&
	    same_num(a->id, b->id) && (a->jobid == NULL) == (b->jobid == NULL) &&
	    (a->jobid == NULL || strcmp(a->jobid, b->jobid) == 0);
}

/*
 * A workload of few runs is kept packed and rebuilt on demand: the
 * rebuilt history is the one its records make, to the bit, on numbers
 * packed in four bytes and in eight, unknown ones, ids that are and are
 * not their number written plainly, array tasks and requeued attempts.
 */
static void
seeds_exact(void)
{
	struct sp_pool pool = { 0 };
	struct sp_hist d;
	const struct sp_hist *h;
	const char *k = "u/p/cpu/seeds";
	enum sp_flag flags[] = { SP_FLAG_TIME, SP_FLAG_MEM, SP_FLAG_CPUS,
				 SP_FLAG_GPUS };
	struct sp_advice da = { 0 };
	int same = 1;

	ROW(.id = "0123", .state = "COMPLETED", .el = "61.5", .lim = "3600",
	    .cpus = "4", .tasks = "2", .nodes = "1", .mem = G(4),
	    .rss = "123456789", .cpu = "200.25", .cput = "246", .key = k);
	ROW(.id = "4000_3", .aj = "4000", .at = "3", .state = "OUT_OF_MEMORY",
	    .el = "100", .lim = "7200", .mem = G(2), .rss = G(2.5),
	    .cpus = "8", .cpu = "10", .key = k);
	ROW(.id = "4001", .att = "1", .state = "COMPLETED", .el = "300",
	    .mem = G(3), .rss = G(1.5), .cpus = "8", .cpu = "2000", .key = k);
	ROW(.id = "4001", .state = "FAILED", .el = "30", .mem = G(3),
	    .cpus = "8", .cpu = "20", .key = k);
	ROW(.id = "12345678901234567", .state = "FAILED", .el = "5",
	    .lim = "60", .cpus = "1", .cpu = "0", .key = k);
	ROW(.id = "77", .start = "2026-01-02T03:04:05", .state = "COMPLETED",
	    .el = "1800", .lim = "1900", .gpus = "2", .gutil = "0.37",
	    .cpus = "16", .tasks = "16", .nodes = "2", .mem = G(8),
	    .rss = G(6), .cpu = "20000.5", .cput = "28800", .key = k);
	ROW(.id = "78+0", .state = "TIMEOUT", .el = "1900", .lim = "1900",
	    .cpus = "16", .cpu = "5", .key = k);
	ROW(.id = "79", .state = "COMPLETED", .el = "0", .lim = "60",
	    .cpus = "2", .key = k);
	sp_hist_init(&d, &pool, k, strlen(k));
	direct = &d;
	load();
	direct = NULL;
	sp_hist_finish(&d);
	h = hist(k);
	ok(h != NULL && h != &d && h->runs == 8 && d.runs == 8,
	   "seeds: eight runs either way");
	if (h == NULL)
		goto out;
	for (int s = 0; s < SP_ST_N; s++)
		same &= h->states[s] == d.states[s];
	for (int f = 0; f < SP_FLAG_N; f++)
		same &= same_num(h->req[f], d.req[f]) &&
		    same_num(h->req_least[f], d.req_least[f]);
	same &= sp_order_cmp(&h->newest, &d.newest) == 0 &&
	    h->newest.task == d.newest.task &&
	    h->newest.attempt == d.newest.attempt;
	ok(same, "seeds: states, requests and the newest run");
	ok(same_best(&h->longest, &d.longest) && same_best(&h->peak, &d.peak) &&
	   same_best(&h->busiest, &d.busiest) &&
	   same_best(&h->gpu_busiest, &d.gpu_busiest),
	   "seeds: the best runs, ids included");
	ok(same_num(h->gpu_h, d.gpu_h) && same_num(h->core_h, d.core_h) &&
	   same_num(h->limit_s, d.limit_s) &&
	   same_num(h->elapsed_s, d.elapsed_s) &&
	   same_num(h->core_s, d.core_s) && same_num(h->cpu_s, d.cpu_s) &&
	   same_num(h->task_s, d.task_s) && same_num(h->mem_bs, d.mem_bs) &&
	   same_num(h->used_bs, d.used_bs) && same_num(h->node_s, d.node_s),
	   "seeds: the cost sums");
	ok(sp_hist_more(h)->requeued == 1 && sp_hist_more(&d)->requeued == 1 &&
	   sp_hist_more(h)->narrays == 1 &&
	   strcmp(sp_hist_more(h)->arrays[0].master, "4000") == 0 &&
	   h->kills == d.kills && h->mem_untrusted == d.mem_untrusted,
	   "seeds: the requeue, the array and the kill");
	for (size_t f = 0; f < sizeof flags / sizeof *flags; f++) {
		int a = sp_size_advise(h, &site, flags[f], &adv);
		int b = sp_size_advise(&d, &site, flags[f], &da);

		is_string(a < 0 ? "-" : sp_buf_str(&adv.basis),
			  b < 0 ? "-" : sp_buf_str(&da.basis),
			  "seeds: %s basis", sp_flag_name(flags[f]));
		is_string(a < 0 ? "-" : sp_buf_str(&adv.observed),
			  b < 0 ? "-" : sp_buf_str(&da.observed),
			  "seeds: %s observed", sp_flag_name(flags[f]));
	}
out:
	sp_advice_free(&da);
	sp_hist_free(&d);
	sp_pool_free(&pool);
}


int
main(void)
{
	plan_lazy();
	sp_size_site_unknown(&site);
	order_free();
	seeds_exact();
	sp_advice_free(&adv);
	sp_histset_free(&set);
	sp_buf_free(&rows);
	return done_testing();
}
