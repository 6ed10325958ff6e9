/*
 * sp_jobcalc.h - the values derived from one job's record
 * (reference-rules.md section 1.4), NaN when unknown.  The view draws
 * them and the rules judge them, so both agree by construction.
 */
#ifndef SP_JOBCALC_H
#define SP_JOBCALC_H

#include <stddef.h>
#include "sp_job.h"
#include "sp_site.h"

struct sp_jobcalc {
	double cores;		/* allocated CPUs */
	double gpus;		/* NaN when the record holds none */
	double tasks;		/* ntasks, else the widest step */
	double nodes;
	double cpus_per_task;	/* cores / tasks; NaN tasks unknown */
	double cpu_capacity_s;	/* max(CPUTime, elapsed x cores, steps) */
	double cpu_util;	/* total CPU / capacity */
	double busy_cores;	/* total CPU / elapsed */
	double sys_fraction;	/* system / total; NaN under 1 s of CPU */
	double walltime_used;	/* elapsed / limit */
	double mem_limit_b;	/* per node */
	double mem_used;	/* MaxRSS / limit; NaN when above it */
	int rss_above_limit;	/* MaxRSS exceeds the per-node limit */
	double io_b;		/* read + write */
	double io_rate;		/* per second of elapsed */
	double straggler;	/* (AveCPU - MinCPU) / AveCPU */
	double imbalance;	/* one task's MaxRSS over the mean */
	double wait_s;		/* queue wait */
	double samples;		/* memory samples at most; NaN unknown */
	double gpu_hours;	/* NaN without GPUs */
	double core_hours;
	int noop;		/* computed nothing (sp_job_noop) */
	int noop_known;		/* ... can be told (sp_job_noop_known) */
	int open;
};

void sp_jobcalc(struct sp_jobcalc *c, const struct sp_job *j,
		const struct sp_job *steps, size_t nsteps,
		const struct sp_site *site);

#endif
