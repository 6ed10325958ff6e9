/*
 * sp_cost.h - what acting on the advice is worth (the article's figure 9).
 *
 * Every run of a workload whose flag got a verdict, re-costed as
 * requested, as used, as recommended (raise and lower followed, keep and
 * capped as each run asked) and accepting only reductions (lower
 * followed, nothing else).
 */
#ifndef SP_COST_H
#define SP_COST_H

#include "sp_advice.h"
#include "sp_hist.h"

enum sp_cost_kind { SP_COST_MEM, SP_COST_CPU, SP_COST_TIME, SP_COST_N };

struct sp_cost {
	long runs[SP_COST_N];
	double requested[SP_COST_N];	/* GiB-hours, core-hours, limit-hours */
	double used[SP_COST_N];
	double recommended[SP_COST_N];
	double reductions[SP_COST_N];
};

void sp_cost_init(struct sp_cost *c);
/* Adds a workload, given its advice for --mem, --cpus-per-task, --time. */
void sp_cost_add(struct sp_cost *c, const struct sp_hist *h,
		 const struct sp_advice *mem, const struct sp_advice *cpus,
		 const struct sp_advice *time);

#endif
