/*
 * demo.c - the synthetic accounting history behind --demo: a job built
 * from its spec, the long tail, and the two merged into one history.
 *
 * Two parts are merged.  The named cases -- every story the article and
 * the original tool's demo tell, with their numbers -- are hand-placed
 * jobs kept in one array.  The long tail is drawn from a fixed-seed
 * generator: only a 16-byte (time, workload, run) entry is kept per job,
 * so a million jobs cost 16 MB, and each is expanded into rows as it is
 * written.  Both streams are merged by submit time, job ids are handed
 * out in that order, and every allocation is printed with its steps as
 * "sacct --parsable2 -D" prints it.
 *
 * Everything derives from a fixed seed and fixed dates, and no libm
 * function is called, so the bytes are the same on every run.
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

/* ------------------------------------------------------------------ */
/* The long tail: hundreds of workloads, most run once or twice.        */

struct tailent {
	int64_t t;
	uint32_t w, r;
};

/*
 * One period of the tail is the default mix: a dozen heavy workloads
 * that hold most of the compute, mid-sized ones run a few to a couple of
 * dozen times, and small ones run once or twice.  Larger histories repeat
 * the mix with fresh names.
 */
#define TAIL_PERIOD	435
#define TAIL_HEAVY	12
/* The demo_partitions' MaxTime, two days. */
#define TAIL_MAX_LIMIT_MIN 2880
/* The longest a tail job waits in the queue. */
#define TAIL_MAX_WAIT	21610
#define TAIL_MID	140

static const char *const tail_verbs[30] = {
	"eval", "train", "prep", "bench", "sweep", "ft", "infer", "embed",
	"tok", "dedup", "filter", "sample", "score", "convert", "merge",
	"shard", "probe", "index", "plot", "check", "distill", "align",
	"rerank", "parse", "export", "quant", "prune", "render", "mine",
	"label",
};

static const char *const tail_nouns[32] = {
	"gsm8k", "mmlu", "wiki", "c4", "code", "math", "arxiv", "books",
	"web", "reddit", "pubmed", "github", "stack", "news", "dialog", "vqa",
	"coco", "imnet", "audio", "speech", "proteins", "mol", "graph",
	"tables", "law", "patents", "forum", "qa", "docs", "slides", "tiles",
	"maps",
};

static const int heavy_runs[TAIL_HEAVY] = {
	22, 18, 12, 10, 9, 8, 8, 7, 6, 6, 5, 4
};

struct tailwl {
	long w, period;
	int combo, tier, user, part, cpus, gpus, nnodes, node_lo, node_n;
	int64_t mem_m;
	int limit_min, runs, variants, style, array, srun, log;
	int64_t el_lo, el_hi;
	double util_lo, util_hi, sys_frac, rss_lo, rss_hi;
	int p_fail, p_timeout, p_oom, p_cancel, p_hang;
	int64_t first, gap;
};

static int
pick(struct rng *r, const int *v, int n)
{
	return v[rint_in(r, 0, n - 1)];
}

/* Rounded up to a step of minutes, never under one step. */
static int
limit_for(int64_t seconds, int step_min)
{
	int64_t m = (seconds + 59) / 60;

	m = (m + step_min - 1) / step_min * step_min;
	return (int)(m < step_min ? step_min : m);
}

static void
tail_heavy(struct tailwl *t, long local, struct rng *r)
{
	t->part = P_GPU;
	t->runs = heavy_runs[local];
	t->srun = 1;
	t->sys_frac = 0.04;
	t->rss_lo = 0.45;
	t->rss_hi = 0.8;
	t->p_fail = 50;
	t->p_cancel = 40;
	if (local == 0) {
		/* The costliest workload: two 8-GPU nodes for a day. */
		t->gpus = 16;
		t->nnodes = 2;
		t->cpus = 192;
		t->mem_m = 800 * GIB_M;
		t->node_lo = G(41);
		t->node_n = 4;
		t->limit_min = 2880;
		t->el_lo = 30000;
		t->el_hi = 60000;
		t->util_lo = 0.25;
		t->util_hi = 0.4;
		t->user = ALICE;
	} else {
		switch (local % 3) {
		case 0:
			t->gpus = 8;
			t->cpus = 64;
			t->mem_m = 600 * GIB_M;
			t->node_lo = G(41);
			t->node_n = 4;
			break;
		case 1:
			t->gpus = 4;
			t->cpus = 32;
			t->mem_m = 256 * GIB_M;
			t->node_lo = G(1);
			t->node_n = NG_SMALL;
			break;
		default:
			t->gpus = 8;
			t->nnodes = 2;
			t->cpus = 64;
			t->mem_m = 256 * GIB_M;
			t->node_lo = G(1);
			t->node_n = NG_SMALL;
			break;
		}
		t->el_hi = rint_in(r, 6 * 3600, 24 * 3600);
		t->el_lo = t->el_hi / 2;
		t->limit_min = limit_for((int64_t)((double)t->el_hi *
		    rdbl(r, 1.1, 2.0)), 60);
		t->util_lo = 0.3;
		t->util_hi = 0.7;
		t->user = local < 6 ? ALICE : local < 9 ? BOB : CAROL;
	}
	if (t->nnodes == 0)
		t->nnodes = 1;
	t->gap = rint_in(r, 36, 72) * 3600;
	t->variants = rchance(r, 900) ? 1 : (int)rint_in(r, 2, 4);
}

static void
tail_sized(struct tailwl *t, struct rng *r, int mid)
{
	static const int gpus[] = { 1, 1, 1, 1, 2, 2, 4 };
	static const int per_gpu[] = { 4, 8, 16 };
	static const int gpu_mem[] = { 32, 48, 64, 96 };
	static const int cpus[] = { 1, 2, 4, 8, 16, 32 };
	static const int cpu_mem[] = { 2, 4, 8 };
	double u = runit(r);

	t->nnodes = 1;
	if (rchance(r, mid ? 650 : 700)) {
		t->part = P_GPU;
		t->gpus = mid ? pick(r, gpus, 7) : rchance(r, 600) ? 1 : 2;
		t->cpus = t->gpus * pick(r, per_gpu, 3);
		t->mem_m = t->gpus * pick(r, gpu_mem, 4) * GIB_M;
		t->node_lo = G(1);
		t->node_n = NG_SMALL;
		t->util_lo = rdbl(r, 0.15, 0.4);
		t->util_hi = t->util_lo + 0.25;
		t->srun = t->gpus > 1 && rchance(r, 500);
	} else {
		t->part = P_CPU;
		t->cpus = mid ? pick(r, cpus, 6) : pick(r, cpus + 3, 3);
		t->mem_m = (t->cpus < 2 ? 2 : t->cpus) *
		    pick(r, cpu_mem, 3) * GIB_M;
		t->node_lo = C(1);
		t->node_n = NC;
		t->util_lo = t->cpus == 1 ? 0.9 : rdbl(r, 0.2, 0.8);
		t->util_hi = t->cpus == 1 ? 0.99 : t->util_lo + 0.15;
	}
	t->sys_frac = rchance(r, 50) ? rdbl(r, 0.3, 0.5) : rdbl(r, 0.02, 0.15);
	t->rss_lo = rdbl(r, 0.1, 0.7);
	t->rss_hi = t->rss_lo + 0.15;
	if (rchance(r, 40)) {
		/* MaxRSS above the limit without a kill: shared pages. */
		t->rss_lo = 1.1;
		t->rss_hi = 1.5;
	}
	if (mid) {
		t->runs = 3 + (int)(u * u * 23.0);
		t->el_hi = 3600 + (int64_t)(u * u * 54000.0 * runit(r));
		t->gap = rint_in(r, 2, 72) * 3600;
		if (t->part == P_CPU && t->runs >= 4 && rchance(r, 150))
			t->array = t->runs;
		t->variants = t->array || !rchance(r, 30) ? 1 :
		    (int)(t->runs < 4 ? t->runs : rint_in(r, 2, 6));
		if (t->variants > 4)
			t->variants = 4;
	} else {
		double v = runit(r);

		t->runs = rchance(r, 700) ? 1 : 2;
		t->el_hi = 9000 + (int64_t)(v * 97200.0);
		t->gap = rint_in(r, 1, 120) * 3600;
		t->variants = t->runs == 2 && rchance(r, 20) ? 2 : 1;
	}
	t->el_lo = (int64_t)((double)t->el_hi * rdbl(r, 0.3, 0.9));
	t->limit_min = limit_for((int64_t)((double)t->el_hi *
	    rdbl(r, 1.05, 4.0)), 30);
	if (t->limit_min > TAIL_MAX_LIMIT_MIN)
		t->limit_min = TAIL_MAX_LIMIT_MIN;
	if (rchance(r, 200)) {
		t->p_fail = 250;
		t->p_timeout = 100;
		t->p_oom = 25;
		t->p_cancel = 50;
	} else {
		t->p_fail = 25;
		t->p_timeout = 15;
		t->p_oom = 4;
		t->p_cancel = 30;
	}
	t->p_hang = t->part == P_GPU ? 150 : 0;
}

static void
tail_params(struct tailwl *t, long w)
{
	struct rng r;
	long local = w % TAIL_PERIOD;
	double u;
	int64_t window = TAIL_END - T0 - 86400, span;

	memset(t, 0, sizeof(*t));
	rseed(&r, 0x7a11, (uint64_t)w);
	t->w = w;
	t->period = w / TAIL_PERIOD;
	t->combo = (int)((local * 389 + 241) % 960);
	t->tier = local < TAIL_HEAVY ? 0 : local < TAIL_HEAVY + TAIL_MID ? 1 : 2;
	u = runit(&r);
	t->user = u < 0.6 ? ALICE : u < 0.85 ? BOB : CAROL;
	t->log = rchance(&r, 400) ? LOG_NAMED : LOG_DEFAULT;
	t->style = (int)rint_in(&r, 0, 4);
	if (t->tier == 0)
		tail_heavy(t, local, &r);
	else
		tail_sized(t, &r, t->tier == 1);
	span = (t->array ? 0 : t->runs - 1) * t->gap;
	if (span > window / 2) {
		t->gap = window / 2 / (t->runs > 1 ? t->runs - 1 : 1);
		span = (t->array ? 0 : t->runs - 1) * t->gap;
	}
	/* Room after the last submit for its jitter, queue wait and a run
	 * to the limit, so that every tail job ends before TAIL_END. */
	span += t->gap / 3 + TAIL_MAX_WAIT + (int64_t)t->limit_min * 60 + 120;
	t->first = T0 + 21600 + rint_in(&r, 0, TAIL_END - T0 - span - 21600);
}

static void
put_letters(struct sp_buf *b, long v)
{
	char t[16];
	int n = 0;

	do {
		t[n++] = (char)('a' + v % 26);
		v /= 26;
	} while (v > 0);
	while (n > 0)
		sp_buf_addc(b, t[--n]);
}

/* verb-noun[-period letters][variant digits]: folds apart by design. */
static const char *
tail_name(struct sp_buf *b, const struct tailwl *t, int variant)
{
	sp_buf_clear(b);
	sp_buf_adds(b, tail_verbs[t->combo % 30]);
	sp_buf_addc(b, '-');
	sp_buf_adds(b, tail_nouns[t->combo / 30]);
	if (t->period > 0) {
		sp_buf_addc(b, '-');
		put_letters(b, t->period);
	}
	if (t->variants > 1) {
		switch (t->style) {
		case 0:
			sp_buf_printf(b, "-%d", variant + 1);
			break;
		case 1:
			sp_buf_printf(b, "_v%d", variant + 2);
			break;
		case 2:
			sp_buf_printf(b, "-s%de%d", variant + 1,
				      10 + variant * 37 % 90);
			break;
		case 3:
			sp_buf_printf(b, "-lr%de-4", variant + 1);
			break;
		default:
			sp_buf_printf(b, "-2026-0%d-%02d", 1 + variant / 28,
				      1 + variant % 28);
			break;
		}
	}
	return sp_buf_str(b);
}

static void
tail_push(struct demo *d, int64_t t, long w, int r)
{
	d->tail = sp_xgrow(d->tail, &d->captail, d->ntail + 1,
			   sizeof(*d->tail));
	d->tail[d->ntail].t = t;
	d->tail[d->ntail].w = (uint32_t)w;
	d->tail[d->ntail].r = (uint32_t)r;
	d->ntail++;
}

static int
cmp_tail(const void *a, const void *b)
{
	const struct tailent *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->w != y->w)
		return x->w < y->w ? -1 : 1;
	return x->r < y->r ? -1 : x->r > y->r;
}

/* budget < 0: the default tail, one period; else about that many jobs. */
static void
tail_plan(struct demo *d, long budget)
{
	struct tailwl t;
	long w, total = 0;

	for (w = 0; budget < 0 ? w < TAIL_PERIOD : total < budget; w++) {
		tail_params(&t, w);
		for (int r = 0; r < t.runs; r++) {
			struct rng jr;
			int64_t when;

			rseed(&jr, 0x7a3e, (uint64_t)w * 4096 + (uint64_t)r);
			when = t.first + (t.array ? r / t.array : r) * t.gap;
			if (!t.array)
				when += rint_in(&jr, 0, t.gap / 3);
			tail_push(d, when, w, r);
		}
		total += t.runs;
	}
	d->ntailwl = w;
	sp_sort(d->tail, d->ntail, sizeof(*d->tail), cmp_tail);
}

static void
tail_job(struct demo *d, const struct tailent *e, const struct tailwl *t,
	 struct djob *j)
{
	struct rng r;
	struct jspec s;
	int roll, gpu = t->part == P_GPU;
	int64_t limit_s = (int64_t)t->limit_min * 60;

	rseed(&r, 0x7a110000 + (uint64_t)t->w, e->r);
	spec_init(&s);
	s.name = tail_name(&d->namebuf, t, (int)(e->r % (uint32_t)t->variants));
	s.user = t->user;
	s.part = t->part;
	s.cpus = t->cpus;
	s.gpus = t->gpus;
	s.nnodes = t->nnodes;
	s.mem_m = t->mem_m;
	s.limit_min = t->limit_min;
	s.log = t->log;
	s.submit = e->t;
	s.seq = (int)e->r;
	s.salt = (uint64_t)t->w * 4096 + e->r;
	if (t->array) {
		s.array_n = t->array;
		s.array_i = (int)(e->r % (uint32_t)t->array);
		s.wait = 2 + s.array_i * rint_in(&r, 1, 4);
	} else {
		double u = runit(&r);

		s.wait = gpu ? 10 + (int64_t)(u * u * u * 21600.0) :
		    1 + (int64_t)(u * u * u * 3600.0);
	}
	s.node = t->node_lo + (int)rint_in(&r, 0, t->node_n - t->nnodes);
	s.util = rdbl(&r, t->util_lo, t->util_hi);
	s.sys_frac = t->sys_frac;
	s.gpu_util = (int)rint_in(&r, 40, 95);
	s.rss_k = (int64_t)((double)t->mem_m * 1024.0 *
	    rdbl(&r, t->rss_lo, t->rss_hi));
	s.srun_tasks = t->srun ? (gpu ? t->gpus : t->nnodes) : 0;
	roll = (int)rint_in(&r, 0, 999);
	if (roll < t->p_fail) {
		static const int codes[] = { 1, 1, 1, 2, 127, 1 };

		s.state = ST_FAILED;
		s.code = codes[rint_in(&r, 0, 5)];
		s.elapsed = rint_in(&r, 5, 5 + t->el_hi / 3);
	} else if ((roll -= t->p_fail) < t->p_timeout) {
		s.state = ST_TIMEOUT;
		s.elapsed = limit_s + rint_in(&r, 5, 60);
		if (rchance(&r, t->p_hang)) {
			s.cpu_ms = rint_in(&r, 200, 9000);
			s.gpu_util = 0;
		}
	} else if ((roll -= t->p_timeout) < t->p_oom) {
		s.state = ST_OOM;
		s.elapsed = rint_in(&r, 30, t->el_hi);
		s.rss_k = (int64_t)((double)t->mem_m * 1024.0 *
		    rdbl(&r, 0.95, 1.04));
	} else if ((roll -= t->p_oom) < t->p_cancel) {
		s.state = ST_CANCELLED;
		s.cancelled_by = demo_users[t->user].uid;
		s.elapsed = rint_in(&r, 30, t->el_hi);
	} else {
		s.elapsed = rint_in(&r, t->el_lo, t->el_hi);
	}
	if (s.state != ST_TIMEOUT && s.elapsed >= limit_s)
		s.elapsed = limit_s - rint_in(&r, 1, 120);
	if (s.elapsed < 1)
		s.elapsed = 1;
	sp_buf_clear(&d->scratch);
	demo_build(j, &s, &d->scratch);
}

/* ------------------------------------------------------------------ */
/* Merging, job ids, and the whole history.                            */

static int
cmp_named(const void *a, const void *b)
{
	const struct djob *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/*
 * Ids follow submit time (one every ID_SECONDS, other demo_users' jobs in the
 * gaps).  An array takes one id per task: the first task gets the next
 * one, the last task keeps the array's own, as slurmctld splits them.
 * A requeued attempt or a recycled id repeats the one before it.
 */
static void
assign_id(struct demo *d, struct djob *j)
{
	if (j->link == LINK_SAME_ID) {
		j->id = d->prev_id;
		j->raw = d->prev_raw;
		j->master = d->prev_master;
	} else if (j->array_n > 0 && j->array_i > 0) {
		j->master = d->prev_master;
		j->raw = j->array_i == j->array_n - 1 ? j->master :
		    j->master + 1 + j->array_i;
		j->id = j->raw;
	} else {
		long t = ID_BASE + (long)((j->key - T0) / ID_SECONDS);
		long id = t > d->last_id ? t : d->last_id + 1;

		j->master = id;
		j->id = j->raw = id;
		if (j->array_n > 1)
			j->raw = id + 1;
		d->last_id = id + (j->array_n > 1 ? j->array_n - 1 : 0);
	}
	d->prev_id = j->id;
	d->prev_raw = j->raw;
	d->prev_master = j->master;
}

static void
emit(struct demo *d)
{
	struct djob job;
	struct tailwl t;
	size_t i = 0, k = 0;

	t.w = -1;
	demo_write_header(d);
	while ((i < d->nnamed || k < d->ntail) && !d->err) {
		if (k >= d->ntail ||
		    (i < d->nnamed && d->named[i].key <= d->tail[k].t)) {
			assign_id(d, &d->named[i]);
			demo_write_job(d, &d->named[i], d->strs.p);
			i++;
		} else {
			if (t.w != (long)d->tail[k].w)
				tail_params(&t, (long)d->tail[k].w);
			tail_job(d, &d->tail[k], &t, &job);
			assign_id(d, &job);
			demo_write_job(d, &job, d->scratch.p);
			k++;
		}
	}
	demo_flush(d);
}

int64_t
sp_demo_now(void)
{
	return NOW;
}

int
sp_demo_write(FILE *out, long njobs)
{
	struct demo d;
	int rc;

	memset(&d, 0, sizeof(d));
	d.f = out;
	d.buf = sp_xmalloc(OUT_CAP);
	d.day = -1;
	d.last_id = ID_BASE - 1;

	demo_case_tokenizer(&d);
	demo_case_corpus(&d);
	demo_case_reasoning(&d);
	demo_case_increases(&d);
	demo_case_eval(&d);
	demo_case_idle(&d);
	demo_case_nodes(&d);
	demo_case_reference(&d);
	demo_case_cpu_shapes(&d);
	demo_case_tests(&d);
	demo_case_requeue(&d);
	demo_case_odd_records(&d);
	sp_sort(d.named, d.nnamed, sizeof(*d.named), cmp_named);

	tail_plan(&d, njobs <= 0 ? -1 :
	    njobs > (long)d.nnamed ? njobs - (long)d.nnamed : 0);
	emit(&d);

	rc = d.err || fflush(out) != 0 || ferror(out) ? -1 : 0;
	free(d.buf);
	free(d.named);
	free(d.tail);
	sp_buf_free(&d.strs);
	sp_buf_free(&d.scratch);
	sp_buf_free(&d.namebuf);
	return rc;
}
