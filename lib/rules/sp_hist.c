/*
 * sp_hist.c - one workload's history, run by run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_const.h"
#include "sp_hist.h"
#include "sp_intern.h"
#include "sp_job.h"
#include "sp_units.h"

/* A per-node limit as a key of the completions' index. */
static uint64_t
limit_key(double limit_b)
{
	return sp_u64map_double_key(limit_b);
}

static const char *
keep_id(struct sp_pool *p, struct sp_slice s)
{
	return sp_pool_str(p, s.p, s.n);
}

/* A run's id that a later run may replace (sp_pool_own_str). */
static const char *
own_id(struct sp_hist *h, const struct sp_run *r)
{
	return sp_pool_own_str(h->pool, r->jobid.p, r->jobid.n);
}

/* ------------------------------------------------------------ spread */

void
sp_spread_add(struct sp_spread *s, double x)
{
	double l, d;

	if (!(x > 0) || !isfinite(x))
		return;
	l = log(x);
	s->n++;
	d = l - s->mean;
	s->mean += d / (double)s->n;
	s->m2 += d * (l - s->mean);
}

double
sp_spread_sd(const struct sp_spread *s)
{
	if (s->n < 2)
		return NAN;
	return sqrt(s->m2 > 0 ? s->m2 / (double)(s->n - 1) : 0);
}

/* ------------------------------------------------------------ history */

/* Where the key's first three '/' are; fewer than three: not a key
 * sp-group wrote, and the whole of it names the work. */
static int
key_seps(const char *key, size_t n, const char *s[3])
{
	int k = 0;

	for (const char *q = key; q < key + n && k < 3; q++)
		if (*q == '/')
			s[k++] = q;
	return k == 3;
}

static void
split_key(struct sp_hist *h)
{
	const char *s[3];

	if (!key_seps(h->key, h->keylen, s))
		h->gpu = 0;
	else if (s[2] - s[1] - 1 == 1 && s[1][1] == '?')
		h->gpu = -1;	/* sp-group could not tell */
	else
		h->gpu = s[2] - s[1] - 1 == 3 && memcmp(s[1] + 1, "gpu", 3) == 0;
}

struct sp_slice
sp_hist_partition(const struct sp_hist *h)
{
	const char *s[3];

	if (!key_seps(h->key, h->keylen, s))
		return (struct sp_slice){ h->key, 0 };
	return (struct sp_slice){ s[0] + 1, (size_t)(s[1] - s[0] - 1) };
}

void
sp_hist_init_kept(struct sp_hist *h, struct sp_pool *pool, const char *key,
		  size_t keylen)
{
	memset(h, 0, sizeof *h);
	h->pool = pool;
	if (keylen > UINT32_MAX)
		sp_die(SP_EXIT_USAGE, "a workload key longer than 4 GB");
	h->key = key;
	h->keylen = (uint32_t)keylen;
	split_key(h);
	for (int f = 0; f < SP_FLAG_N; f++)
		h->req[f] = h->req_least[f] = NAN;
	sp_best_init(&h->longest);
	sp_best_init(&h->peak);
	sp_best_init(&h->busiest);
	sp_best_init(&h->gpu_busiest);
	h->comp_timeout_limit_s = NAN;
	h->unsure_timeout_limit_s = NAN;
	h->unk_longest_s = h->unk_peak_b = h->unk_gpu_busy = NAN;
	h->kill_limit_b = NAN;
	h->shortest_trusted_s = NAN;
	h->tasks_max = NAN;
	h->one_array = -1;
}

void
sp_hist_init(struct sp_hist *h, struct sp_pool *pool, const char *key,
	     size_t keylen)
{
	if (keylen > UINT32_MAX)
		sp_die(SP_EXIT_USAGE, "a workload key longer than 4 GB");
	sp_hist_init_kept(h, pool, sp_pool_str(pool, key, keylen), keylen);
}

static struct sp_hist_more *
more(struct sp_hist *h)
{
	if (h->more == NULL) {
		h->more = sp_pool_zalloc(h->pool, sizeof *h->more);
		h->more->timeout_limit_min = NAN;
		h->more->timeout_limit_max = NAN;
	}
	return h->more;
}

const struct sp_hist_more *
sp_hist_more(const struct sp_hist *h)
{
	static const struct sp_hist_more none = {
		.timeout_limit_min = NAN, .timeout_limit_max = NAN
	};

	return h->more ? h->more : &none;
}

/* Once is enough: what it gives back it forgets. */
void
sp_hist_drop_ids(struct sp_hist *h)
{
	struct sp_best *b[] = { &h->longest, &h->peak, &h->busiest,
				&h->gpu_busiest };

	for (size_t i = 0; i < sizeof b / sizeof *b; i++)
		sp_best_release(h->pool, b[i]);
	for (size_t i = 0; i < h->ndoneat; i++) {
		sp_pool_drop_str(h->pool, h->doneat[i].best_id);
		sp_pool_drop_str(h->pool, h->doneat[i].other_id);
	}
	h->ndoneat = 0;
}

void
sp_hist_free(struct sp_hist *h)
{
	struct sp_hist_more *m = h->more;
	struct sp_pool *p = h->pool;

	sp_hist_drop_ids(h);
	sp_pool_release(p, h->done_s, h->donecap * sizeof *h->done_s);
	sp_pool_release(p, h->doneat, h->doneatcap * sizeof *h->doneat);
	sp_singles_release(p, &h->singles);
	sp_asked_free(&h->asked, p);
	if (m != NULL) {
		sp_topk_release(p, &m->near);
		sp_pool_release(p, m->oomsubs,
				m->oomsubcap * sizeof *m->oomsubs);
		sp_u64map_free(p, &m->doneat_map);
		sp_topk_release(p, &m->fail_ids);
		sp_topk_release(p, &m->requeue_ids);
		sp_pool_release(p, m->arrays, m->arraycap * sizeof *m->arrays);
		sp_u64map_free(p, &m->array_map);
		sp_pool_release(p, m->pop, m->popcap * sizeof *m->pop);
		sp_topk_release(p, &m->hangs);
		sp_pool_release(p, m, sizeof *m);
	}
	memset(h, 0, sizeof *h);
}

double
sp_hist_compute(const struct sp_hist *h)
{
	return sp_compute(h->gpu_h, h->core_h);
}


static void
push_float(struct sp_pool *pool, float **v, size_t *n, size_t *cap,
	   double x)
{
	*v = sp_pool_grow(pool, *v, cap, *n + 1, sizeof **v);
	(*v)[(*n)++] = (float)x;
}

/* *m = the larger of *m and x, where NaN is none yet. */
static void
max_into(double *m, double x)
{
	if (!sp_known(*m) || x > *m)
		*m = x;
}

static void
add_time(struct sp_hist *h, const struct sp_run *r)
{
	double limit = r->timelimit_s, cut;

	if (r->st == SP_ST_COMPLETED && r->computed && r->elapsed_s > 0) {
		push_float(h->pool, &h->done_s, &h->ndone, &h->donecap,
			   r->elapsed_s);
		sp_spread_add(&h->done_spread, r->elapsed_s);
		sp_best_offer(&h->longest, h->pool, r->elapsed_s, limit,
			      &r->o, r->jobid);
		if (sp_positive(limit) &&
		    r->elapsed_s >= (1 - SP_NEAR_LIMIT_SHARE) * limit) {
			struct sp_ref c = sp_ref_make(&r->o,
			    r->elapsed_s / limit, r->elapsed_s, limit, r->sub);

			sp_topk_offer(&more(h)->near, SP_FINDING_MAX_IDS,
				      h->pool, &c, r->jobid);
		}
	} else if (r->st == SP_ST_COMPLETED && !r->noop && r->elapsed_s > 0) {
		h->unk_done++;
		max_into(&h->unk_longest_s, r->elapsed_s);
	}
	if (r->st != SP_ST_TIMEOUT)
		return;
	h->timeouts++;
	cut = sp_positive(limit) ? limit : r->elapsed_s;
	switch (sp_timeout_cause(r->elapsed_s, r->total_cpu_s)) {
	case SP_TO_HUNG:
		h->hung_timeouts++;
		return;
	case SP_TO_COMPUTING:
		h->comp_timeouts++;
		max_into(&h->comp_timeout_limit_s, cut);
		return;
	case SP_TO_SHORT:
		h->short_timeouts++;
		break;
	case SP_TO_UNKNOWN:
		h->cpu_unknown_timeouts++;
		break;
	}
	max_into(&h->unsure_timeout_limit_s, cut);
}

static long
array_find(const struct sp_hist_more *m, uint64_t sub)
{
	if (m->narrays <= 8) {
		for (size_t i = 0; i < m->narrays; i++)
			if (m->arrays[i].hash == sub)
				return (long)i;
		return -1;
	}
	return sp_u64map_get(&m->array_map, sub);
}

static struct sp_array *
array_of(struct sp_hist *h, uint64_t sub)
{
	long i;

	if (h->more == NULL)
		return NULL;
	i = array_find(h->more, sub);
	return i < 0 ? NULL : &h->more->arrays[i];
}

static void
add_oomsub(struct sp_hist *h, const struct sp_run *r)
{
	struct sp_array *a = r->sub ? array_of(h, r->sub) : NULL;
	struct sp_hist_more *m = more(h);
	struct sp_oomsub *e;

	if (a != NULL && a->oomsub >= 0) {
		e = &m->oomsubs[a->oomsub];
		e->kills++;
		if (sp_order_cmp(&r->o, &e->first) < 0)
			e->first = r->o;
		if (r->limit_b > e->limit_b)
			e->limit_b = r->limit_b;
		return;
	}
	m->oomsubs = sp_pool_grow(h->pool, m->oomsubs, &m->oomsubcap,
				  m->noomsubs + 1, sizeof *m->oomsubs);
	e = &m->oomsubs[m->noomsubs];
	e->first = r->o;
	e->limit_b = r->limit_b;
	e->sub = r->sub;
	e->kills = 1;
	if (a != NULL) {
		e->jobid = a->master;
		a->oomsub = (long)m->noomsubs;
	} else {
		e->jobid = keep_id(h->pool, r->jobid);
	}
	m->noomsubs++;
}

/* Past this many, completions and arrays are found through a map. */
#define LINEAR_MAX 8

/* The completions at a limit, or -1. */
static long
doneat_find(const struct sp_hist *h, double limit_b)
{
	if (h->ndoneat <= LINEAR_MAX) {
		for (size_t i = 0; i < h->ndoneat; i++)
			if (h->doneat[i].limit_b == limit_b)
				return (long)i;
		return -1;
	}
	return sp_u64map_get(&h->more->doneat_map, limit_key(limit_b));
}

/*
 * Completions at a limit: best is the newest; other the newest from any
 * submission but best's, so an array's own tasks never hide another
 * submission that completed after a kill.
 */
static void
add_doneat(struct sp_hist *h, const struct sp_run *r)
{
	long i = doneat_find(h, r->limit_b);
	struct sp_doneat *d;

	if (i < 0) {
		h->doneat = sp_pool_grow(h->pool, h->doneat, &h->doneatcap,
				 h->ndoneat + 1, sizeof *h->doneat);
		d = &h->doneat[h->ndoneat];
		memset(d, 0, sizeof *d);
		d->limit_b = r->limit_b;
		d->best_o = r->o;
		d->best_sub = r->sub;
		d->best_id = own_id(h, r);
		h->ndoneat++;
		if (h->ndoneat == LINEAR_MAX + 1) {
			struct sp_hist_more *m = more(h);

			for (size_t k = 0; k < h->ndoneat; k++)
				sp_u64map_put(h->pool, &m->doneat_map,
				    limit_key(h->doneat[k].limit_b), k);
		} else if (h->ndoneat > LINEAR_MAX + 1) {
			sp_u64map_put(h->pool, &h->more->doneat_map,
				      limit_key(r->limit_b), h->ndoneat - 1);
		}
		return;
	}
	d = &h->doneat[i];
	if (r->sub != 0 && r->sub == d->best_sub) {
		if (sp_order_cmp(&r->o, &d->best_o) > 0) {
			sp_pool_drop_str(h->pool, d->best_id);
			d->best_o = r->o;
			d->best_id = own_id(h, r);
		}
	} else if (sp_order_cmp(&r->o, &d->best_o) > 0) {
		sp_pool_drop_str(h->pool, d->other_id);
		d->other_o = d->best_o;
		d->other_sub = d->best_sub;
		d->other_id = d->best_id;
		d->best_o = r->o;
		d->best_sub = r->sub;
		d->best_id = own_id(h, r);
	} else if (d->other_id == NULL ||
		   sp_order_cmp(&r->o, &d->other_o) > 0) {
		sp_pool_drop_str(h->pool, d->other_id);
		d->other_o = r->o;
		d->other_sub = r->sub;
		d->other_id = own_id(h, r);
	}
}

static void
add_mem(struct sp_hist *h, const struct sp_run *r)
{
	int lim = sp_known(r->limit_b), rss = sp_known(r->rss_b);

	if (lim && (r->st == SP_ST_OUT_OF_MEMORY || (r->computed && rss)))
		h->mem_runs++;
	else if (!lim && (r->st == SP_ST_OUT_OF_MEMORY || (r->computed && rss)))
		h->mem_nolimit++;
	if (r->computed && lim && rss && r->rss_b <= r->limit_b) {
		h->mem_measured++;
		h->mem_trusted++;
		h->mem_lived += r->st != SP_ST_OUT_OF_MEMORY;
		if (r->st != SP_ST_OUT_OF_MEMORY)
			sp_spread_add(&h->peak_spread, r->rss_b);
		sp_best_offer(&h->peak, h->pool, r->rss_b, r->limit_b, &r->o,
			      r->jobid);
		if (!sp_known(h->shortest_trusted_s) ||
		    r->elapsed_s < h->shortest_trusted_s)
			h->shortest_trusted_s = r->elapsed_s;
	} else if (r->computed && lim && rss && r->st != SP_ST_OUT_OF_MEMORY) {
		/* Above the limit without a kill: no footprint.  A killed
		 * run's reading above its limit is the kill's, counted
		 * there. */
		h->mem_measured++;
		h->mem_untrusted++;
	} else if (!r->noop && !r->computed && lim && rss) {
		if (r->rss_b <= r->limit_b) {
			h->unk_trusted++;
			max_into(&h->unk_peak_b, r->rss_b);
		} else if (r->st != SP_ST_OUT_OF_MEMORY) {
			h->unk_untrusted++;
		}
	}
	if (r->nodes > 1)
		h->multinode++;
	if (r->st == SP_ST_OUT_OF_MEMORY && lim) {
		h->kills++;
		if (!sp_known(h->kill_limit_b) || r->limit_b > h->kill_limit_b)
			h->kill_limit_b = r->limit_b;
		add_oomsub(h, r);
	}
	if (r->st == SP_ST_COMPLETED && lim)
		add_doneat(h, r);
}

static void
add_cpu(struct sp_hist *h, const struct sp_run *r)
{
	double denom, busy;

	if (!sp_known(h->tasks_max) || r->tasks > h->tasks_max)
		h->tasks_max = r->tasks;
	if (!r->computed || !sp_known(r->cpt) || !sp_known(r->total_cpu_s))
		return;
	denom = r->elapsed_s * r->cores;
	if (sp_known(r->cpu_time_s) && r->cpu_time_s > denom)
		denom = r->cpu_time_s;
	if (!(denom > 0))
		return;
	busy = r->total_cpu_s / denom * r->cpt;
	h->cpu_runs++;
	sp_best_offer(&h->busiest, h->pool, busy, r->cpt, &r->o, r->jobid);
}

static void
add_gpu(struct sp_hist *h, const struct sp_run *r)
{
	double g = r->alloc_gpus, util = r->gpu_util;

	if (!sp_positive(g) || r->noop)
		return;
	if (!r->computed) {
		h->unk_gpu++;
		if (sp_known(util) && util >= 0)
			max_into(&h->unk_gpu_busy, (util > 1 ? 1 : util) * g);
		return;
	}
	h->gpu_runs++;
	if (!sp_known(util) || util < 0)
		return;
	/* gpu_util is the share of the allocation's GPUs kept busy. */
	h->gpu_util_runs++;
	sp_best_offer(&h->gpu_busiest, h->pool, (util > 1 ? 1 : util) * g, g,
		   &r->o, r->jobid);
}

static void
add_cost(struct sp_hist *h, const struct sp_run *r)
{
	double el = r->elapsed_s;

	if (sp_positive(r->timelimit_s)) {
		h->cost_time_n++;
		h->limit_s += r->timelimit_s;
		h->elapsed_s += el;
	}
	if (sp_known(r->cores) && sp_known(r->total_cpu_s) &&
	    sp_known(r->tasks)) {
		h->cost_cpu_n++;
		h->core_s += r->cores * el;
		h->cpu_s += r->total_cpu_s;
		h->task_s += r->tasks * el;
	}
	if (sp_known(r->limit_b) && sp_known(r->rss_b)) {
		double used = r->rss_b < r->limit_b ? r->rss_b : r->limit_b;

		h->cost_mem_n++;
		h->mem_bs += r->limit_b * r->nodes * el;
		h->used_bs += used * r->nodes * el;
		h->node_s += r->nodes * el;
	}
}

static void
add_failure(struct sp_hist *h, const struct sp_run *r)
{
	struct sp_hist_more *m;
	struct sp_ref c;
	double gh;

	if (r->sub == 0) {
		h->one_array = 0;
	} else if (h->one_array == -1) {
		h->one_array = 1;
		h->array0 = r->sub;
		h->array0_master = keep_id(h->pool, r->array_job);
	} else if (h->one_array == 1 && r->sub != h->array0) {
		h->one_array = 0;
	}
	if (!r->failed)
		return;
	m = more(h);
	if (r->noop)
		m->fail_hung++;
	gh = r->gpu_h;
	if (sp_positive(gh))
		m->fail_gpu_h += gh;
	c = sp_ref_make(&r->o, 0, NAN, NAN, r->sub);
	sp_topk_offer(&m->fail_ids, SP_FINDING_MAX_IDS, h->pool, &c, r->jobid);
	if (r->st == SP_ST_TIMEOUT && sp_positive(r->timelimit_s)) {
		if (!sp_known(m->timeout_limit_min) ||
		    r->timelimit_s < m->timeout_limit_min)
			m->timeout_limit_min = r->timelimit_s;
		if (!sp_known(m->timeout_limit_max) ||
		    r->timelimit_s > m->timeout_limit_max)
			m->timeout_limit_max = r->timelimit_s;
	}
}

/*
 * Requeued attempts share a job id and arrive together (sp-fetch writes
 * them so, and a split by workload_key keeps them so): a group of records
 * with one id is one job, its highest attempt the one that stood.  Only a
 * hash of the id is kept until the group turns out to be a requeue.
 */
static void
rq_close(struct sp_hist *h)
{
	struct sp_hist_more *m;

	if (h->rq_count == 0)
		return;
	if (h->rq_count >= 2 || h->rq_max_attempt >= 1) {
		long attempts = h->rq_count;
		struct sp_ref c = sp_ref_make(&h->rq_order, 0, NAN, NAN, 0);

		m = more(h);
		if (h->rq_count == 1)
			m->rq_states[h->rq_first_state]++;
		if (h->rq_max_attempt + 1 > attempts)
			attempts = (long)h->rq_max_attempt + 1;
		m->requeued++;
		m->attempts += attempts;
		m->abandoned_s += h->rq_sum_elapsed - h->rq_max_elapsed;
		m->rq_states[h->rq_max_state]--;
		for (int s = 0; s < SP_ST_N; s++)
			m->abandoned_states[s] += m->rq_states[s];
		sp_topk_offer(&m->requeue_ids, SP_FINDING_MAX_IDS, h->pool, &c,
			   (struct sp_slice){ h->rq_jobid,
			   strlen(h->rq_jobid) });
		memset(m->rq_states, 0, sizeof m->rq_states);
	}
	h->rq_count = 0;
	h->rq_jobid = NULL;
	h->rq_max_attempt = -1;
	h->rq_sum_elapsed = 0;
}

static void
add_requeue(struct sp_hist *h, const struct sp_run *r)
{
	uint64_t hash;

	if (r->jobid.n == 0)
		return;
	hash = sp_hash_bytes(r->jobid.p, r->jobid.n);
	if (h->rq_count == 0 || hash != h->rq_hash) {
		rq_close(h);
		h->rq_hash = hash;
		h->rq_first_state = r->st;
	} else {
		struct sp_hist_more *m = more(h);

		/* The second record of one id: a requeue after all. */
		if (h->rq_count == 1) {
			m->rq_states[h->rq_first_state]++;
			h->rq_jobid = keep_id(h->pool, r->jobid);
		}
		m->rq_states[r->st]++;
	}
	if (r->o.attempt >= 1 && h->rq_jobid == NULL)
		h->rq_jobid = keep_id(h->pool, r->jobid);
	h->rq_count++;
	h->rq_sum_elapsed += r->elapsed_s;
	if (r->o.attempt > h->rq_max_attempt) {
		h->rq_max_attempt = r->o.attempt;
		h->rq_max_elapsed = r->elapsed_s;
		h->rq_max_state = r->st;
		h->rq_order = r->o;
	}
}

static void
add_array(struct sp_hist *h, const struct sp_run *r)
{
	struct sp_hist_more *m;
	struct sp_array *a;
	double need;
	long i;

	if (r->sub == 0) {
		if (r->st == SP_ST_COMPLETED && sp_run_peak_trusted(r))
			sp_singles_offer(&h->singles, h->pool, &r->o, r->rss_b,
					 r->jobid);
		return;
	}
	m = more(h);
	i = array_find(m, r->sub);
	if (i < 0) {
		m->arrays = sp_pool_grow(h->pool, m->arrays, &m->arraycap,
					 m->narrays + 1, sizeof *m->arrays);
		a = &m->arrays[m->narrays];
		memset(a, 0, sizeof *a);
		a->hash = r->sub;
		a->master = keep_id(h->pool, r->array_job);
		a->first = r->o;
		a->limit_b = NAN;
		a->oomsub = -1;
		m->narrays++;
		if (m->narrays == 9)
			for (size_t k = 0; k < m->narrays; k++)
				sp_u64map_put(h->pool, &m->array_map,
					      m->arrays[k].hash, k);
		else if (m->narrays > 9)
			sp_u64map_put(h->pool, &m->array_map, r->sub,
				      m->narrays - 1);
	} else {
		a = &m->arrays[i];
	}
	a->tasks++;
	if (sp_order_cmp(&r->o, &a->first) < 0)
		a->first = r->o;
	if (sp_known(r->limit_b) &&
	    (!sp_known(a->limit_b) || r->limit_b > a->limit_b))
		a->limit_b = r->limit_b;
	if (r->st == SP_ST_OUT_OF_MEMORY)
		a->kills++;
	need = sp_run_array_need(r);
	if (sp_known(need))
		push_float(h->pool, &m->pop, &m->npop, &m->popcap, need);
}

static void
add_hang(struct sp_hist *h, const struct sp_run *r)
{
	double gh, ch;
	struct sp_hist_more *m;
	struct sp_ref c;

	if (!r->hang)
		return;
	m = more(h);
	gh = r->gpu_h;
	ch = r->core_h;
	if (r->elapsed_s <= SP_NOOP_NOTICED_S)
		m->hang_short++;
	if (r->io)
		m->hang_io++;
	if (sp_positive(gh))
		m->hang_gpu_h += gh;
	c = sp_ref_make(&r->o, sp_compute(sp_positive(gh) ? gh : 0, ch), gh,
			r->elapsed_s, r->sub);
	sp_topk_offer(&m->hangs, SP_FINDING_MAX_IDS, h->pool, &c, r->jobid);
}

void
sp_hist_add_run(struct sp_hist *h, const struct sp_run *r)
{
	double asked[SP_FLAG_N];

	if (h->runs == INT32_MAX - 1)
		sp_die(SP_EXIT_USAGE, "%.*s: more than %ld runs of one "
		       "workload", (int)(h->keylen < 256 ? h->keylen : 256),
		       h->key, (long)INT32_MAX - 1);
	h->runs++;
	h->states[r->st]++;
	h->noop += r->noop;
	h->noop_unknown += !r->noop && !r->computed;
	h->hang += r->hang;
	h->problems += r->failed || r->noop;
	if (sp_positive(r->gpu_h))
		h->gpu_h += r->gpu_h;
	if (sp_positive(r->core_h))
		h->core_h += r->core_h;
	/* What the newest run asked for is the request (not the largest). */
	asked[SP_FLAG_TIME] = sp_positive(r->timelimit_s) ? r->timelimit_s : NAN;
	asked[SP_FLAG_MEM] = r->limit_b;
	asked[SP_FLAG_CPUS] = sp_positive(r->cpt) ? r->cpt : NAN;
	asked[SP_FLAG_GPUS] = sp_positive(r->alloc_gpus) ? r->alloc_gpus : NAN;
	if (!h->have_newest || sp_order_cmp(&r->o, &h->newest) > 0) {
		h->newest = r->o;
		h->have_newest = 1;
		for (int f = 0; f < SP_FLAG_N; f++)
			h->req[f] = asked[f];
	}
	for (int f = 0; f < SP_FLAG_N; f++)
		if (sp_positive(asked[f]) && !(h->req_least[f] <= asked[f]))
			h->req_least[f] = asked[f];
	sp_asked_add(&h->asked, h->pool, r, asked[SP_FLAG_TIME],
		     asked[SP_FLAG_MEM]);

	add_array(h, r);	/* first: the kills below look their array up */
	add_time(h, r);
	add_mem(h, r);
	add_cpu(h, r);
	add_gpu(h, r);
	add_cost(h, r);
	add_failure(h, r);
	add_requeue(h, r);
	add_hang(h, r);
}

void
sp_hist_finish(struct sp_hist *h)
{
	rq_close(h);
}

void
sp_hist_one(struct sp_hist *h, struct sp_pool *pool, const struct sp_run *r)
{
	sp_hist_init_kept(h, pool, "", 0);
	sp_hist_add_run(h, r);
	sp_hist_finish(h);
}

long
sp_hist_contradiction(const struct sp_hist *h, const char **done)
{
	const struct sp_hist_more *m = sp_hist_more(h);
	long found = -1;

	*done = NULL;
	for (size_t i = 0; i < m->noomsubs; i++) {
		const struct sp_oomsub *e = &m->oomsubs[i];
		long k = doneat_find(h, e->limit_b);
		const struct sp_doneat *d;

		if (k < 0)
			continue;
		if (found >= 0 &&
		    sp_order_cmp(&e->first, &m->oomsubs[found].first) >= 0)
			continue;
		d = &h->doneat[k];
		if (d->best_id != NULL &&
		    sp_order_cmp(&d->best_o, &e->first) > 0 &&
		    !(e->sub != 0 && d->best_sub == e->sub)) {
			found = (long)i;
			*done = d->best_id;
		} else if (d->other_id != NULL &&
			   sp_order_cmp(&d->other_o, &e->first) > 0 &&
			   !(e->sub != 0 && d->other_sub == e->sub)) {
			found = (long)i;
			*done = d->other_id;
		}
	}
	return found;
}

/* A kill's limit and its place in oomsubs, to sort the largest first. */
struct kill_at {
	double limit_b;
	size_t i;
};

static int
kill_desc(const void *a, const void *b)
{
	double x = ((const struct kill_at *)a)->limit_b;
	double y = ((const struct kill_at *)b)->limit_b;

	return (x < y) - (x > y);
}

static int
done_desc(const void *a, const void *b)
{
	double x = ((const struct sp_doneat *)a)->limit_b;
	double y = ((const struct sp_doneat *)b)->limit_b;

	return (x < y) - (x > y);
}

/* The earliest kill so far, and the earliest of any other submission,
 * so that a completion is never matched with its own array's kills. */
struct earliest {
	long k[2];
};

static void
earliest_add(struct earliest *e, const struct sp_oomsub *ks, long i)
{
	const struct sp_oomsub *x = &ks[i];

	if (e->k[0] < 0 || sp_order_cmp(&x->first, &ks[e->k[0]].first) < 0) {
		if (e->k[0] >= 0 && !(x->sub != 0 && x->sub == ks[e->k[0]].sub))
			e->k[1] = e->k[0];
		e->k[0] = i;
	} else if (!(x->sub != 0 && x->sub == ks[e->k[0]].sub) &&
		   (e->k[1] < 0 ||
		    sp_order_cmp(&x->first, &ks[e->k[1]].first) < 0)) {
		e->k[1] = i;
	}
}

/* The earliest kill of another submission than sub before o, or -1. */
static long
earliest_before(const struct earliest *e, const struct sp_oomsub *ks,
		uint64_t sub, const struct sp_order *o)
{
	for (int j = 0; j < 2; j++) {
		long i = e->k[j];

		if (i < 0)
			return -1;
		if (sub != 0 && ks[i].sub == sub)
			continue;
		return sp_order_cmp(&ks[i].first, o) < 0 ? i : -1;
	}
	return -1;
}

long
sp_hist_known_good(const struct sp_hist *h, double *size, const char **done)
{
	const struct sp_hist_more *m = sp_hist_more(h);
	size_t nk = m->noomsubs, nd = h->ndoneat, at = 0;
	struct kill_at *kidx;
	struct sp_doneat *d;
	struct earliest e = { { -1, -1 } };
	long found = -1;

	*size = NAN;
	*done = NULL;
	if (nk == 0 || nd == 0)
		return -1;
	kidx = sp_xcalloc(nk, sizeof *kidx);
	for (size_t i = 0; i < nk; i++)
		kidx[i] = (struct kill_at){ m->oomsubs[i].limit_b, i };
	qsort(kidx, nk, sizeof *kidx, kill_desc);
	d = sp_xcalloc(nd, sizeof *d);
	memcpy(d, h->doneat, nd * sizeof *d);
	qsort(d, nd, sizeof *d, done_desc);
	/* Down the completed sizes, with every kill at or above each. */
	for (size_t i = 0; i < nd; i++) {
		long k = -1;

		while (at < nk && kidx[at].limit_b >= d[i].limit_b)
			earliest_add(&e, m->oomsubs, (long)kidx[at++].i);
		if (d[i].best_id != NULL &&
		    (k = earliest_before(&e, m->oomsubs, d[i].best_sub,
					 &d[i].best_o)) >= 0)
			*done = d[i].best_id;
		else if (d[i].other_id != NULL &&
			 (k = earliest_before(&e, m->oomsubs, d[i].other_sub,
					      &d[i].other_o)) >= 0)
			*done = d[i].other_id;
		if (k >= 0) {
			found = k;
			*size = d[i].limit_b;
		}
	}
	free(d);
	free(kidx);
	return found;
}
