/*
 * sp_cost.c - what acting on the advice is worth (the article's figure 9).
 */
#include <string.h>

#include "sp_cost.h"
#include "sp_units.h"

void
sp_cost_init(struct sp_cost *c)
{
	memset(c, 0, sizeof *c);
}

static int
has_verdict(const struct sp_advice *a)
{
	return a != NULL && (sp_verdict_actionable(a->verdict) ||
	    a->verdict == SP_V_KEEP || a->verdict == SP_V_CAPPED);
}

/* One panel: what the runs asked, used, and would ask as advised. */
static void
cost_panel(struct sp_cost *c, enum sp_cost_kind k, long n,
	   const struct sp_advice *a, double asked, double used,
	   double units)
{
	double advised = sp_verdict_actionable(a->verdict) ?
	    a->target * units : asked;

	if (!has_verdict(a) || n == 0)
		return;
	c->runs[k] += n;
	c->requested[k] += asked;
	c->used[k] += used;
	c->recommended[k] += advised;
	c->reductions[k] += a->verdict == SP_V_LOWER ? advised : asked;
}

void
sp_cost_add(struct sp_cost *c, const struct sp_hist *h,
	    const struct sp_advice *mem, const struct sp_advice *cpus,
	    const struct sp_advice *time)
{
	double gibh = SP_GIB * 3600.0;

	if (mem != NULL)
		cost_panel(c, SP_COST_MEM, h->cost_mem_n, mem,
			   h->mem_bs / gibh, h->used_bs / gibh,
			   h->node_s / gibh);
	if (cpus != NULL)
		cost_panel(c, SP_COST_CPU, h->cost_cpu_n, cpus,
			   h->core_s / 3600.0, h->cpu_s / 3600.0,
			   h->task_s / 3600.0);
	if (time != NULL)
		cost_panel(c, SP_COST_TIME, h->cost_time_n, time,
			   h->limit_s / 3600.0, h->elapsed_s / 3600.0,
			   (double)h->cost_time_n / 3600.0);
}
