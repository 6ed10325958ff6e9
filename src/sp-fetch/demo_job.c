/*
 * demo_job.c - the demo's ground: its users, partitions and states, and
 * a job built from its spec (its steps, their usage and outcome).  The
 * named cases, the long tail and the rows written all stand on it.
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo_int.h"

const struct duser demo_users[NUSERS] = {
	{ "alice", 41203, "nlp-lab" },
	{ "bob", 41877, "vision-lab" },
	{ "carol", 42310, "nlp-lab" },
};

const char *const demo_partitions[] = { "gpu", "cpu" };

const char *const demo_state_names[] = {
	"COMPLETED", "FAILED", "TIMEOUT", "OUT_OF_MEMORY", "CANCELLED",
	"NODE_FAIL", "RUNNING", "PENDING"
};

const char *const demo_state_reasons[] = {
	"None", "NonZeroExitCode", "TimeLimit", "OutOfMemory", "None",
	"NodeDown", "None", "Priority"
};

const char *const demo_flag_names[] = {
	"SchedMain", "SchedBackfill", "SchedSubmit", ""
};

/* ------------------------------------------------------------------ */
/* Building a job from its spec: every figure agrees with the others.  */

static size_t
arena_add(struct sp_buf *a, const char *s)
{
	size_t off = a->len;

	sp_buf_add(a, s, strlen(s) + 1);
	return off;
}

static void
step_init(struct dstep *st, const struct djob *j, int kind, int cpus,
	  int tasks, int nnodes, int gpus)
{
	memset(st, 0, sizeof(*st));
	st->kind = kind;
	st->cpus = cpus;
	st->tasks = tasks;
	st->nnodes = nnodes;
	st->gpus = gpus;
	st->start = j->start;
	st->end = j->end;
	st->stats = j->state != ST_RUNNING && j->state != ST_NODE_FAIL;
}

/* How each step of a job ends, given how the job ended. */
static void
step_outcome(struct dstep *st, const struct djob *j)
{
	if (st->kind == STEP_EXTERN) {
		st->state = j->state == ST_RUNNING ? ST_RUNNING :
		    j->state == ST_NODE_FAIL ? ST_CANCELLED : ST_COMPLETED;
		return;
	}
	switch (j->state) {
	case ST_FAILED:
		st->state = ST_FAILED;
		st->code = j->code;
		st->sig = j->sig;
		break;
	case ST_OOM:
		st->state = ST_OOM;
		st->sig = 125;
		break;
	case ST_TIMEOUT:
	case ST_CANCELLED:
		st->state = ST_CANCELLED;
		st->sig = 15;
		break;
	case ST_NODE_FAIL:
		st->state = ST_CANCELLED;
		st->sig = 9;
		break;
	default:
		st->state = j->state;
		break;
	}
}

/* CPU seconds per task for AveCPU, MinCPU and the TRES maximum. */
static void
step_task_cpu(struct dstep *st, const struct jspec *s, struct rng *r)
{
	int64_t total = (st->user_ms + st->sys_ms) / 1000;

	st->min_task = 0;
	st->min_node = 0;
	if (st->tasks <= 1) {
		st->ave_cpu_s = st->min_cpu_s = st->max_cpu_s = total;
		return;
	}
	if (s->ave_cpu_s > 0) {
		st->ave_cpu_s = s->ave_cpu_s;
		st->min_cpu_s = s->min_cpu_s;
		st->min_task = s->min_task;
		/* The others share what the slowest did not use. */
		st->max_cpu_s = (total - st->min_cpu_s + st->tasks - 2) /
		    (st->tasks - 1);
	} else {
		st->ave_cpu_s = total / st->tasks;
		st->min_cpu_s = (int64_t)((double)st->ave_cpu_s *
		    rdbl(r, 0.86, 0.98));
		st->max_cpu_s = (int64_t)((double)st->ave_cpu_s *
		    rdbl(r, 1.01, 1.08)) + 1;
		st->min_task = (int)rint_in(r, 0, st->tasks - 1);
	}
	st->min_node = st->min_task * st->nnodes / st->tasks;
}

/* Memory, disk and GPU figures of a step that did the work. */
static void
step_work_usage(struct dstep *st, const struct jspec *s, struct rng *r,
		int gpu_job)
{
	/* A step that barely ran read little, unless it says otherwise. */
	int busy = st->user_ms + st->sys_ms >= 60000;

	st->rss_k = s->rss_k;
	if (s->rss_k < 0)
		return;
	st->ave_rss_k = s->ave_rss_k > 0 ? s->ave_rss_k :
	    st->tasks == 1 ? s->rss_k :
	    (int64_t)((double)s->rss_k * rdbl(r, 0.82, 0.95));
	st->rss_task = (int)rint_in(r, 0, st->tasks - 1);
	st->rss_node = st->rss_task * st->nnodes / st->tasks;
	/* CUDA maps a huge address space; CPU programs a modest one. */
	st->vm_k = gpu_job ? 1690000000LL + rint_in(r, 0, 90000000) +
	    s->rss_k : s->rss_k + s->rss_k / 4 + rint_in(r, 200000, 900000);
	st->pages = s->pages;
	st->read_b = s->read_b > 0 ? s->read_b :
	    rint_in(r, busy ? 20 : 1, busy ? 4000 : 40) << 20;
	st->write_b = s->write_b > 0 ? s->write_b :
	    rint_in(r, 1, busy ? 600 : 4) << 20;
	st->gpu_util = gpu_job ? s->gpu_util : 0;
	st->gpu_mem_m = !gpu_job ? 0 : s->gpu_util > 0 ?
	    rint_in(r, 9000, 70000) : rint_in(r, 0, 600);
}

static void
step_small_usage(struct dstep *st, struct rng *r, int extern_step)
{
	if (extern_step) {
		st->rss_k = rint_in(r, 1812, 2104);
		st->vm_k = rint_in(r, 4300, 4420);
		st->read_b = rint_in(r, 1900, 2100);
		st->write_b = 0;
	} else {
		st->rss_k = rint_in(r, 9000, 42000);
		st->vm_k = rint_in(r, 210000, 380000);
		st->read_b = rint_in(r, 1, 30) << 20;
		st->write_b = rint_in(r, 100, 5000) << 10;
	}
	st->ave_rss_k = st->rss_k;
}

/* Whole seconds once a figure reaches an hour: sacct drops the
 * milliseconds there, and the sums must still add up exactly. */
static void
round_cpu(struct djob *j)
{
	int64_t total = demo_job_cpu_ms(j, 0);

	if (total < 3600000)
		return;
	for (int i = 0; i < j->nsteps; i++) {
		j->step[i].user_ms = (j->step[i].user_ms + 500) / 1000 * 1000;
		j->step[i].sys_ms = (j->step[i].sys_ms + 500) / 1000 * 1000;
	}
}

static void
build_steps(struct djob *j, const struct jspec *s, struct rng *r)
{
	int64_t el = j->end - j->start, work_ms, sys_ms, cap;
	int per_node_cpus = j->cpus / j->nnodes, gpu_job = j->gpus > 0;
	struct dstep *work, *ext, *sr = NULL;

	work = &j->step[j->nsteps++];
	step_init(work, j, s->interactive ? STEP_INTERACTIVE : STEP_BATCH,
		  per_node_cpus, 1, 1, j->gpus / j->nnodes);
	ext = &j->step[j->nsteps++];
	step_init(ext, j, STEP_EXTERN, j->cpus, j->nnodes, j->nnodes,
		  j->gpus);
	if (s->srun_tasks > 0) {
		int64_t lead = rint_in(r, 2, 11), tail = 0;

		sr = &j->step[j->nsteps++];
		step_init(sr, j, STEP_SRUN, j->cpus, s->srun_tasks, j->nnodes,
			  j->gpus);
		sr->cmd = s->srun_cmd ? s->srun_cmd : "python";
		if (j->end >= 0) {
			if (j->state == ST_COMPLETED)
				tail = rint_in(r, 0, 3);
			if (lead + tail > el / 4)
				lead = tail = 0;
			sr->end = j->end - tail;
		}
		sr->start = j->start + lead;
	}
	for (int i = 0; i < j->nsteps; i++)
		step_outcome(&j->step[i], j);
	if (j->end < 0 || j->state == ST_NODE_FAIL)
		return;		/* nothing recorded yet, or ever */

	work_ms = s->cpu_ms >= 0 ? s->cpu_ms :
	    (int64_t)(s->util * j->cpus * (double)el * 1000.0);
	{
		struct dstep *w = sr ? sr : work;
		int64_t wel = w->end - w->start;

		cap = (int64_t)w->cpus * wel * 998;
		if (work_ms > cap)
			work_ms = cap;
	}
	sys_ms = s->sys_ms >= 0 ? s->sys_ms :
	    (int64_t)((double)work_ms * s->sys_frac);
	if (sys_ms > work_ms)
		sys_ms = work_ms;
	if (sr) {
		int64_t launch = rint_in(r, 300, 2500);

		if (launch > el * 200)
			launch = el * 200;
		if (work_ms + launch > (int64_t)j->cpus * el * 1000)
			launch = 0;
		sr->user_ms = work_ms - sys_ms;
		sr->sys_ms = sys_ms;
		work->sys_ms = launch * 2 / 5;
		work->user_ms = launch - work->sys_ms;
	} else {
		work->user_ms = work_ms - sys_ms;
		work->sys_ms = sys_ms;
	}
	round_cpu(j);
	for (int i = 0; i < j->nsteps; i++)
		step_task_cpu(&j->step[i], s, r);

	if (s->rss_k < 0) {
		/* Dead before the first sample: no step has a figure. */
		for (int i = 0; i < j->nsteps; i++)
			j->step[i].rss_k = -1;
		return;
	}
	step_small_usage(ext, r, 1);
	if (sr) {
		step_small_usage(work, r, 0);
		step_work_usage(sr, s, r, gpu_job);
	} else {
		step_work_usage(work, s, r, gpu_job);
	}
}

void
demo_build(struct djob *j, const struct jspec *s, struct sp_buf *arena)
{
	struct rng r;
	char buf[256];

	memset(j, 0, sizeof(*j));
	rseed(&r, s->salt, (uint64_t)s->submit);
	j->key = s->key >= 0 ? s->key : s->submit;
	j->seq = s->seq;
	j->link = s->link;
	j->array_n = s->array_n;
	j->array_i = s->array_i;
	j->user = s->user;
	j->part = s->part;
	j->cpus = s->cpus;
	j->nnodes = s->nnodes;
	j->gpus = s->gpus;
	j->mem_m = s->mem_m;
	j->limit_min = s->limit_min;
	j->name = arena_add(arena, s->name);
	if (s->script) {
		j->script = arena_add(arena, s->script);
	} else {
		snprintf(buf, sizeof(buf), "%s.sh", s->name);
		j->script = arena_add(arena, buf);
	}
	if (s->dir) {
		j->dir = arena_add(arena, s->dir);
	} else {
		snprintf(buf, sizeof(buf), "/home/%s/%s",
			 demo_users[s->user].name, s->name);
		j->dir = arena_add(arena, buf);
	}
	j->submit = s->submit;
	j->eligible = s->submit;
	j->state = s->state;
	j->code = s->code;
	j->sig = s->sig;
	if (s->state == ST_OOM)
		j->sig = 125;
	j->cancelled_by = s->cancelled_by;
	j->log = s->interactive ? LOG_NONE : s->log;
	j->constraint = s->constraint;
	j->wrap = s->wrap;
	j->flags = s->wait <= 1 ? FL_SUBMIT :
	    rchance(&r, 250) ? FL_BACKFILL : FL_MAIN;
	for (int i = 0; i < s->nnodes && i < MAX_NODES; i++)
		j->node[i] = s->node + i;
	if (s->pending) {
		j->state = ST_PENDING;
		j->start = j->end = -1;
		j->flags = FL_NONE;
		return;
	}
	j->start = s->submit + s->wait;
	if (s->unplaced) {
		j->end = j->start;
		j->flags = FL_NONE;
		return;
	}
	j->placed = 1;
	j->end = s->elapsed < 0 ? -1 : j->start + s->elapsed;
	build_steps(j, s, &r);
}

int64_t
demo_job_cpu_ms(const struct djob *j, int which)
{
	int64_t t = 0;

	for (int i = 0; i < j->nsteps; i++) {
		const struct dstep *s = &j->step[i];

		if (which != 2)
			t += s->user_ms;
		if (which != 1)
			t += s->sys_ms;
	}
	return t;
}
