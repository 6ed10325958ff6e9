/*
 * sp_jobcalc.c - the values derived from one job's record.
 */
#include <math.h>

#include "sp_jobcalc.h"
#include "sp_suggest.h"
#include "sp_units.h"

/* Steps that ran the job's own work: everything but .extern. */
static int
work_step(const struct sp_job *s)
{
	return !sp_slice_eq(s->step, "extern");
}

void
sp_jobcalc(struct sp_jobcalc *c, const struct sp_job *j,
	   const struct sp_job *steps, size_t nsteps,
	   const struct sp_site *site)
{
	double freq = site != NULL && site->known ? site->gather_freq_s : NAN;

	c->open = sp_job_is_open(j);
	c->noop = sp_job_noop(j);
	c->noop_known = sp_job_noop_known(j);
	c->cores = sp_job_cores(j);
	c->gpus = j->alloc_gpus;	/* NaN: not recorded, never "none" */
	c->nodes = j->nnodes;
	c->tasks = j->ntasks;
	for (size_t i = 0; i < nsteps && !sp_known(j->ntasks); i++)
		if (work_step(&steps[i]))
			c->tasks = sp_nan_max(c->tasks, steps[i].ntasks);
	/* Per task needs the tasks: one a node would be a guess. */
	c->cpus_per_task = c->tasks > 0 ? c->cores / c->tasks : NAN;

	c->cpu_capacity_s = j->cpu_time_s;
	if (sp_known(j->elapsed_s) && sp_known(c->cores))
		c->cpu_capacity_s = sp_nan_max(c->cpu_capacity_s,
					    j->elapsed_s * c->cores);
	for (size_t i = 0; i < nsteps; i++)
		if (work_step(&steps[i]))
			c->cpu_capacity_s = sp_nan_max(c->cpu_capacity_s,
						    steps[i].cpu_time_s);
	c->cpu_util = c->cpu_capacity_s > 0 ?
		      j->total_cpu_s / c->cpu_capacity_s : NAN;
	c->busy_cores = j->elapsed_s > 0 ? j->total_cpu_s / j->elapsed_s :
					   NAN;
	c->sys_fraction = NAN;
	if (sp_known(j->sys_cpu_s) && j->total_cpu_s >= 1 &&
	    j->sys_cpu_s <= j->total_cpu_s)
		c->sys_fraction = j->sys_cpu_s / j->total_cpu_s;
	c->walltime_used = j->timelimit_s > 0 && j->elapsed_s >= 0 ?
			   j->elapsed_s / j->timelimit_s : NAN;

	c->mem_limit_b = sp_job_mem_limit_node(j);
	c->rss_above_limit = j->max_rss_b > c->mem_limit_b;
	c->mem_used = sp_known(j->max_rss_b) && c->mem_limit_b > 0 &&
		      !c->rss_above_limit ? j->max_rss_b / c->mem_limit_b : NAN;

	c->io_b = NAN;
	if (sp_known(j->read_b) || sp_known(j->write_b))
		c->io_b = (sp_known(j->read_b) ? j->read_b : 0) +
			  (sp_known(j->write_b) ? j->write_b : 0);
	c->io_rate = j->elapsed_s > 0 ? c->io_b / j->elapsed_s : NAN;

	c->straggler = NAN;
	if (j->ave_cpu_s > 0 && sp_known(j->min_cpu_s))
		c->straggler = (j->ave_cpu_s - j->min_cpu_s) / j->ave_cpu_s;
	for (size_t i = 0; i < nsteps && !sp_known(c->straggler); i++)
		if (work_step(&steps[i]) && steps[i].ntasks > 1 &&
		    steps[i].ave_cpu_s > 0 && sp_known(steps[i].min_cpu_s))
			c->straggler = (steps[i].ave_cpu_s -
					steps[i].min_cpu_s) /
				       steps[i].ave_cpu_s;
	c->imbalance = j->rss_imbalance;
	for (size_t i = 0; i < nsteps && !sp_known(j->rss_imbalance); i++)
		if (work_step(&steps[i]) && steps[i].ave_rss_b > 0 &&
		    sp_known(steps[i].max_rss_b))
			c->imbalance = sp_nan_max(c->imbalance,
					       steps[i].max_rss_b /
					       steps[i].ave_rss_b);

	c->wait_s = j->wait_s;
	if (!sp_known(c->wait_s) && j->submit_known && j->start_known &&
	    j->start_t >= j->submit_t)
		c->wait_s = (double)(j->start_t - j->submit_t);
	c->samples = sp_samples(j->elapsed_s, freq);
	/* 0 GPUs held is 0 GPU-hours, known; only unknown GPUs are NaN. */
	c->gpu_hours = sp_job_gpu_hours(j);
	c->core_hours = sp_job_core_hours(j);
}

