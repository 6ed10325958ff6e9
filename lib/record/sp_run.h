/*
 * sp_run.h - one run as the cross-run rules read it, and when it ran.
 *
 * A record is worked out once into a struct sp_run (its state, whether
 * it computed, the numbers each rule reads) and then added to its
 * workload's history (sp_hist.h), or packed (sp_seed.h) until the
 * workload has runs enough to deserve a history.
 */
#ifndef SP_RUN_H
#define SP_RUN_H

#include <stdint.h>
#include "sp_job.h"
#include "sp_state.h"

/*
 * When a run happened, for "newest" and for walks in submission order:
 * start (else submit), then the numeric job id, array task and attempt.
 */
struct sp_order {
	double when, id;
	int32_t task, attempt;
};

void sp_order_of(struct sp_order *o, const struct sp_job *j);
int sp_order_cmp(const struct sp_order *a, const struct sp_order *b);

/*
 * One run, worked out once from its record; the two texts point into the
 * record (or into wherever the run was kept).
 */
struct sp_run {
	struct sp_order o;
	enum sp_state st;
	int noop, hang, failed, io;
	int computed;			/* known to have computed: not noop,
					 * and noop can be told */
	uint64_t sub;			/* array hash, 0 a job of its own */
	struct sp_slice jobid, array_job;
	double elapsed_s, timelimit_s, total_cpu_s, cpu_time_s;
	double alloc_gpus, gpu_util, gpu_h, core_h;
	double limit_b, rss_b;		/* per node; NaN unknown */
	double cores, tasks, cpt, nodes;
};

/* A usable record (an allocation, closed, elapsed known) as a run. */
void sp_run_of(struct sp_run *r, const struct sp_job *j);
/* A peak that is a footprint: the run computed and stayed in its limit. */
int sp_run_peak_trusted(const struct sp_run *r);
/*
 * What an array task tells of its array's need (array-probes): its limit
 * when it was killed for memory, else its peak when that is trustworthy;
 * NaN when it tells nothing.
 */
double sp_run_array_need(const struct sp_run *r);
/*
 * What a run's other numbers give (sub, gpu_h, core_h, cpt): the same
 * operations as sp_job's, so a run rebuilt from its numbers is the run
 * it was to the last bit.
 */
void sp_run_derive(struct sp_run *r);

#endif
