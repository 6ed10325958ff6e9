/*
 * demo.c - the synthetic accounting history behind --demo: the long
 * tail, and it and the named cases (demo_cases.c) merged into one
 * history, written as sacct writes it (demo_rows.c).
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
