/*
 * sp_run.c - one run as the cross-run rules read it, and when it ran.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sp_const.h"
#include "sp_intern.h"
#include "sp_run.h"
#include "sp_units.h"

/* The leading digits of a field as a number; NaN when there are none. */
static double
leading_number(struct sp_slice s)
{
	double v = 0;
	size_t i;

	for (i = 0; i < s.n && s.p[i] >= '0' && s.p[i] <= '9'; i++)
		v = v * 10 + (s.p[i] - '0');
	return i ? v : NAN;
}

static int
cmp_double(double a, double b)
{
	return a < b ? -1 : a > b;
}

void
sp_order_of(struct sp_order *o, const struct sp_job *j)
{
	double id, task;

	if (j->start_known)
		o->when = (double)j->start_t;
	else if (j->submit_known)
		o->when = (double)j->submit_t;
	else
		o->when = -INFINITY;
	id = leading_number(j->jobid_raw);
	if (isnan(id))
		id = leading_number(j->jobid);
	o->id = isnan(id) ? -INFINITY : id;
	task = leading_number(j->array_task);
	o->task = isnan(task) || task > INT32_MAX ? -1 : (int32_t)task;
	o->attempt = !isnan(j->attempt) && j->attempt >= 0 &&
	    j->attempt < INT32_MAX ? (int32_t)j->attempt : 0;
}

int
sp_order_cmp(const struct sp_order *a, const struct sp_order *b)
{
	int c;

	if ((c = cmp_double(a->when, b->when)) != 0)
		return c;
	if ((c = cmp_double(a->id, b->id)) != 0)
		return c;
	if (a->task != b->task)
		return a->task < b->task ? -1 : 1;
	return a->attempt < b->attempt ? -1 : a->attempt > b->attempt;
}

void
sp_run_derive(struct sp_run *r)
{
	/* Never 0: 0 means a job of its own. */
	r->sub = r->array_job.n ?
	    sp_hash_bytes(r->array_job.p, r->array_job.n) | 1 : 0;
	r->gpu_h = r->elapsed_s * r->alloc_gpus / 3600.0;
	r->core_h = r->elapsed_s * r->cores / 3600.0;
	r->cpt = r->cores / r->tasks;
	r->computed = !r->noop && sp_noop_known(r->elapsed_s, r->total_cpu_s);
}

int
sp_run_peak_trusted(const struct sp_run *r)
{
	return r->computed && sp_known(r->rss_b) && sp_known(r->limit_b) &&
	    r->rss_b <= r->limit_b;
}

double
sp_run_array_need(const struct sp_run *r)
{
	/* A task killed at its limit needed at least that much. */
	if (r->st == SP_ST_OUT_OF_MEMORY && sp_known(r->limit_b))
		return r->limit_b;
	if (sp_run_peak_trusted(r))
		return r->rss_b;
	return NAN;
}

/*
 * The array a run is a task of: its array_job, else the array its id
 * names (123_4, as sacct prints a task), so a record without the field
 * is not taken for a job of its own.
 */
static struct sp_slice
array_of(const struct sp_job *j)
{
	const char *us;
	size_t n;

	if (j->array_job.n > 0 || j->jobid.n == 0)
		return j->array_job;
	us = memchr(j->jobid.p, '_', j->jobid.n);
	n = us ? (size_t)(us - j->jobid.p) : 0;
	for (size_t i = 0; i < n; i++)
		if (j->jobid.p[i] < '0' || j->jobid.p[i] > '9')
			return (struct sp_slice){ j->jobid.p, 0 };
	return (struct sp_slice){ j->jobid.p, n };
}

void
sp_run_of(struct sp_run *r, const struct sp_job *j)
{
	r->jobid = j->jobid;
	r->array_job = array_of(j);
	sp_order_of(&r->o, j);
	r->st = sp_state_of(j->state);
	r->noop = sp_job_noop(j);
	/* sp_job_hang and sp_job_failed, from the state read once: with
	 * none recorded, whether one explains the idle CPU is unknown. */
	r->hang = r->noop && j->state.n > 0 &&
	    !sp_state_explains_idle(r->st);
	r->failed = sp_state_failed(r->st);
	r->io = sp_job_io_explains(j);
	r->elapsed_s = j->elapsed_s;
	r->timelimit_s = j->timelimit_s;
	r->total_cpu_s = j->total_cpu_s;
	r->cpu_time_s = j->cpu_time_s;
	r->alloc_gpus = sp_job_gpus(j);
	r->gpu_util = j->gpu_util;
	/* The one job's view reads the same limit (sp_jobcalc). */
	r->limit_b = sp_job_mem_limit_node(j);
	r->rss_b = sp_positive(j->max_rss_b) ? j->max_rss_b : NAN;
	r->cores = sp_job_cores(j);
	/* Per task needs the tasks: one per node would be a guess (a job
	 * of 16 tasks on one node is not one task of 96 cores). */
	r->tasks = sp_positive(j->ntasks) ? j->ntasks : NAN;
	r->nodes = sp_positive(j->nnodes) ? j->nnodes : 1;
	sp_run_derive(r);
}
