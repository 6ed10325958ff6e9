/*
 * sp_size.c - one workload's history, and what it says about --time,
 * --mem, --cpus-per-task and --gpus.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_intern.h"
#include "sp_size.h"

#define GIB 1073741824.0

/* ------------------------------------------------------------ helpers */

static int
known(double v)
{
	return !isnan(v);
}

static int
positive(double v)
{
	return !isnan(v) && v > 0;
}

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

/* ---------------------------------------------------------- the pool */

/* Big enough that a million-job input needs a few hundred blocks; each
 * is its own mapping, so freeing one is cheap. */
#define POOL_BLOCK (1024 * 1024)
/* Objects are aligned as malloc aligns them. */
#define POOL_ALIGN 16
/* Up to this size the classes are POOL_ALIGN apart (the records a
 * history keeps are a few hundred bytes, its list of singles a few
 * kilobytes, and rounding them to a power of two would waste a third);
 * above it, powers of two. */
#define POOL_FINE 4096

static size_t
pool_class(size_t n, size_t *size)
{
	size_t c, s;

	if (n <= POOL_FINE) {
		c = n ? (n + POOL_ALIGN - 1) / POOL_ALIGN : 1;
		*size = c * POOL_ALIGN;
		return c;
	}
	c = POOL_FINE / POOL_ALIGN;
	for (s = POOL_FINE; s < n; s *= 2, c++)
		if (s > ((size_t)-1) / 4)
			sp_die(SP_EXIT_USAGE, "out of memory");
	*size = s;
	return c;
}

/* n bytes at the given alignment (a power of two up to POOL_ALIGN). */
static char *
pool_bytes(struct sp_strpool *p, size_t n, size_t align)
{
	size_t at = (p->used + align - 1) & ~(align - 1);
	char *b;

	if (p->cur != NULL && at + n <= p->size) {
		p->used = at + n;
		return p->cur + at;
	}
	/* A large request gets a block of its own; the current one goes on
	 * filling.  Otherwise at most a quarter of a block is left unused. */
	b = sp_xmalloc(n > POOL_BLOCK / 4 ? n : POOL_BLOCK);
	p->blocks = sp_xgrow(p->blocks, &p->cap, p->n + 1, sizeof *p->blocks);
	p->blocks[p->n++] = b;
	if (n > POOL_BLOCK / 4)
		return b;
	p->cur = b;
	p->size = POOL_BLOCK;
	p->used = n;
	return b;
}

const char *
sp_strpool_add(struct sp_strpool *p, const char *s, size_t n)
{
	char *d = pool_bytes(p, n + 1, 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

void *
sp_pool_alloc(struct sp_strpool *p, size_t n)
{
	size_t size, c = pool_class(n, &size);
	void *v = p->avail[c];

	if (v != NULL) {
		memcpy(&p->avail[c], v, sizeof v);
		return v;
	}
	return pool_bytes(p, size, POOL_ALIGN);
}

void
sp_pool_release(struct sp_strpool *p, void *v, size_t n)
{
	size_t size, c;

	if (v == NULL)
		return;
	c = pool_class(n, &size);
	memcpy(v, &p->avail[c], sizeof v);
	p->avail[c] = v;
}

void
sp_strpool_free(struct sp_strpool *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->blocks[i]);
	free(p->blocks);
	memset(p, 0, sizeof *p);
}

static void *
pool_zalloc(struct sp_strpool *p, size_t n)
{
	void *v = sp_pool_alloc(p, n);

	memset(v, 0, n);
	return v;
}

/*
 * Grows a per-workload array from one element, doubling: most workloads
 * need one or two, and sp_xgrow's first step of sixteen, times a few
 * hundred thousand workloads, is most of the memory.
 */
static void *
grow(struct sp_strpool *pool, void *p, size_t *cap, size_t need,
     size_t elem)
{
	size_t n = *cap ? *cap : 1;
	void *q;

	if (need <= *cap)
		return p;
	while (n < need) {
		if (n > ((size_t)-1) / 2 / elem)
			sp_die(SP_EXIT_USAGE, "out of memory");
		n *= 2;
	}
	q = sp_pool_alloc(pool, n * elem);
	if (*cap > 0)
		memcpy(q, p, *cap * elem);
	sp_pool_release(pool, p, *cap * elem);
	*cap = n;
	return q;
}

static const char *
keep_id(struct sp_strpool *p, struct sp_slice s)
{
	return sp_strpool_add(p, s.p, s.n);
}

/*
 * An id a later run may replace (the best run by some number, the newest
 * completion at a limit) is kept in a size class, and the one it
 * replaces goes back to the pool: such ids change on a good share of
 * all records, and kept for good they were 20 MB at 1M jobs.
 */
static const char *
own_id(struct sp_strpool *p, struct sp_slice s)
{
	char *d = sp_pool_alloc(p, s.n + 1);

	memcpy(d, s.p, s.n);
	d[s.n] = '\0';
	return d;
}

static void
drop_id(struct sp_strpool *p, const char *id)
{
	if (id != NULL)
		sp_pool_release(p, (char *)id, strlen(id) + 1);
}

/* ------------------------------------------------------------- order */

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
	o->attempt = known(j->attempt) && j->attempt >= 0 &&
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

/* --------------------------------------------------------------- refs */

/* Which of two refs ranks higher: score, then the newer; -1, 0, 1. */
static int
ref_cmp(const struct sp_ref *x, const struct sp_ref *y)
{
	int c = cmp_double(x->score, y->score);

	return c ? c : sp_order_cmp(&x->o, &y->o);
}

static struct sp_ref
ref_make(const struct sp_order *o, double score, double a, double b,
	 uint64_t sub)
{
	struct sp_ref r;

	r.o = *o;
	r.score = score;
	r.a = a;
	r.b = b;
	r.sub = sub;
	r.jobid = NULL;
	return r;
}

static void
best_init(struct sp_best *b)
{
	b->a = b->b = b->id = NAN;
	b->jobid = NULL;
}

/* Keeps the run with the higher a; a tie goes to the higher job id, then
 * the later text, so the choice never depends on the input's order. */
static void
best_offer(struct sp_best *b, struct sp_strpool *pool, double a, double bb,
	   const struct sp_order *o, struct sp_slice jobid)
{
	int c;

	if (b->jobid != NULL) {
		if ((c = cmp_double(a, b->a)) == 0 &&
		    (c = cmp_double(o->id, b->id)) == 0) {
			size_t n = strlen(b->jobid);
			int d = memcmp(jobid.p, b->jobid,
				       jobid.n < n ? jobid.n : n);

			c = d ? d : cmp_double((double)jobid.n, (double)n);
		}
		if (c <= 0)
			return;
	}
	drop_id(pool, b->jobid);
	b->a = a;
	b->b = bb;
	b->id = o->id;
	b->jobid = own_id(pool, jobid);
}

/* ---------------------------------------------------------------- top-k */

static void
sift_down(struct sp_topk *t, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct sp_ref tmp;

		if (l < t->n && ref_cmp(&t->v[l], &t->v[m]) < 0)
			m = l;
		if (r < t->n && ref_cmp(&t->v[r], &t->v[m]) < 0)
			m = r;
		if (m == i)
			return;
		tmp = t->v[i];
		t->v[i] = t->v[m];
		t->v[m] = tmp;
		i = m;
	}
}

static void
sift_up(struct sp_topk *t, size_t i)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct sp_ref tmp;

		if (ref_cmp(&t->v[i], &t->v[p]) >= 0)
			return;
		tmp = t->v[i];
		t->v[i] = t->v[p];
		t->v[p] = tmp;
		i = p;
	}
}

/* A min-heap of the k best: the root is the one to give up first. */
static void
topk_offer(struct sp_topk *t, uint32_t k, struct sp_strpool *pool,
	   const struct sp_ref *cand, struct sp_slice id)
{
	t->k = k;
	t->seen++;
	if (t->n < k) {
		if (t->n == t->cap) {
			size_t cap = t->cap;

			t->v = grow(pool, t->v, &cap, (size_t)t->n + 1,
				    sizeof *t->v);
			t->cap = (uint32_t)cap;
		}
		t->v[t->n] = *cand;
		t->v[t->n].jobid = keep_id(pool, id);
		sift_up(t, t->n++);
		return;
	}
	if (k == 0 || ref_cmp(cand, &t->v[0]) <= 0)
		return;
	t->v[0] = *cand;
	t->v[0].jobid = keep_id(pool, id);
	sift_down(t, 0);
}

static void
topk_release(struct sp_strpool *pool, struct sp_topk *t)
{
	sp_pool_release(pool, t->v, (size_t)t->cap * sizeof *t->v);
}

static int
by_ref_desc(const void *a, const void *b)
{
	return -ref_cmp(a, b);
}

static int
by_ref_order(const void *a, const void *b)
{
	const struct sp_ref *x = a, *y = b;

	return sp_order_cmp(&x->o, &y->o);
}

size_t
sp_topk_sorted(const struct sp_topk *t, struct sp_ref **out, int by_order)
{
	*out = sp_xcalloc(t->n ? t->n : 1, sizeof **out);
	if (t->n > 0)
		memcpy(*out, t->v, t->n * sizeof **out);
	if (t->n > 1)
		sp_sort(*out, t->n, sizeof **out,
		      by_order ? by_ref_order : by_ref_desc);
	return t->n;
}

/* ------------------------------------------------------------ singles */

static void
singles_down(struct sp_singles *t, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct sp_single tmp;

		if (l < t->n && sp_order_cmp(&t->v[l].o, &t->v[m].o) < 0)
			m = l;
		if (r < t->n && sp_order_cmp(&t->v[r].o, &t->v[m].o) < 0)
			m = r;
		if (m == i)
			return;
		tmp = t->v[i];
		t->v[i] = t->v[m];
		t->v[m] = tmp;
		i = m;
	}
}

static void
singles_up(struct sp_singles *t, size_t i)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct sp_single tmp;

		if (sp_order_cmp(&t->v[i].o, &t->v[p].o) >= 0)
			return;
		tmp = t->v[i];
		t->v[i] = t->v[p];
		t->v[p] = tmp;
		i = p;
	}
}

/*
 * Grown by half once past a few, up to SP_PROBE_KEEP exactly: these
 * lists are the largest part of the histories, and doubling left a
 * third of them unused.
 */
static void
singles_grow(struct sp_singles *t, struct sp_strpool *pool)
{
	uint32_t cap = t->cap < 8 ? (t->cap ? t->cap * 2 : 1) :
	    t->cap + t->cap / 2;
	struct sp_single *v;

	if (cap > SP_PROBE_KEEP)
		cap = SP_PROBE_KEEP;
	v = sp_pool_alloc(pool, (size_t)cap * sizeof *v);
	if (t->n > 0)
		memcpy(v, t->v, (size_t)t->n * sizeof *v);
	sp_pool_release(pool, t->v, (size_t)t->cap * sizeof *v);
	t->v = v;
	t->cap = cap;
}

/* Keeps the SP_PROBE_KEEP newest; the root is the oldest kept. */
static void
singles_offer(struct sp_singles *t, struct sp_strpool *pool,
	      const struct sp_order *o, double peak_b, struct sp_slice id)
{
	struct sp_single c;

	c.o = *o;
	c.peak_b = peak_b;
	if (t->n < SP_PROBE_KEEP) {
		if (t->n == t->cap)
			singles_grow(t, pool);
		c.jobid = keep_id(pool, id);
		t->v[t->n] = c;
		singles_up(t, t->n++);
		return;
	}
	if (sp_order_cmp(&c.o, &t->v[0].o) <= 0)
		return;
	c.jobid = keep_id(pool, id);
	t->v[0] = c;
	singles_down(t, 0);
}

static void
singles_release(struct sp_strpool *pool, struct sp_singles *t)
{
	sp_pool_release(pool, t->v, (size_t)t->cap * sizeof *t->v);
}

static int
by_single_order(const void *a, const void *b)
{
	const struct sp_single *x = a, *y = b;

	return sp_order_cmp(&x->o, &y->o);
}

size_t
sp_singles_sorted(const struct sp_singles *t, struct sp_single **out)
{
	*out = sp_xcalloc(t->n ? t->n : 1, sizeof **out);
	if (t->n > 0)
		memcpy(*out, t->v, t->n * sizeof **out);
	if (t->n > 1)
		sp_sort(*out, t->n, sizeof **out, by_single_order);
	return t->n;
}

/* ------------------------------------------------------------- u64 map */

static size_t
u64map_slot(const struct sp_u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1;
	size_t i = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 17) & mask;

	while (m->vals[i] != 0 && m->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

static long
u64map_get(const struct sp_u64map *m, uint64_t key)
{
	size_t i;

	if (m->cap == 0)
		return -1;
	i = u64map_slot(m, key);
	return m->vals[i] ? (long)(m->vals[i] - 1) : -1;
}

static void
u64map_put(struct sp_strpool *pool, struct sp_u64map *m, uint64_t key,
	   size_t val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap) {
		struct sp_u64map old = *m;

		m->cap = old.cap ? old.cap * 2 : 16;
		m->keys = pool_zalloc(pool, m->cap * sizeof *m->keys);
		m->vals = pool_zalloc(pool, m->cap * sizeof *m->vals);
		for (size_t k = 0; k < old.cap; k++) {
			if (old.vals[k] == 0)
				continue;
			i = u64map_slot(m, old.keys[k]);
			m->keys[i] = old.keys[k];
			m->vals[i] = old.vals[k];
		}
		sp_pool_release(pool, old.keys, old.cap * sizeof *old.keys);
		sp_pool_release(pool, old.vals, old.cap * sizeof *old.vals);
	}
	i = u64map_slot(m, key);
	if (m->vals[i] == 0)
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val + 1;
}

static void
u64map_free(struct sp_strpool *pool, struct sp_u64map *m)
{
	sp_pool_release(pool, m->keys, m->cap * sizeof *m->keys);
	sp_pool_release(pool, m->vals, m->cap * sizeof *m->vals);
	memset(m, 0, sizeof *m);
}

static uint64_t
double_key(double v)
{
	uint64_t k;

	memcpy(&k, &v, sizeof k);
	return k;
}

/* -------------------------------------------------------------- states */

static const char *const state_names[SP_ST_N] = {
	"COMPLETED", "FAILED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL",
	"BOOT_FAIL", "DEADLINE", "CANCELLED", "PREEMPTED", "REQUEUED", "OTHER"
};

enum sp_state
sp_state_of(const struct sp_job *j)
{
	for (int s = 0; s < SP_ST_OTHER; s++)
		if (sp_slice_eq(j->state, state_names[s]))
			return (enum sp_state)s;
	return SP_ST_OTHER;
}

const char *
sp_state_name(enum sp_state s)
{
	return s < SP_ST_N ? state_names[s] : "OTHER";
}

static const char *const flag_names[SP_FLAG_N] = {
	"--time", "--mem", "--cpus-per-task", "--gpus"
};

const char *
sp_flag_name(enum sp_flag f)
{
	return f < SP_FLAG_N ? flag_names[f] : "?";
}

static const char *const verdict_names[] = {
	"raise", "lower", "keep", "refuse", "hold", "capped"
};

const char *
sp_verdict_name(enum sp_verdict v)
{
	return verdict_names[v];
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

	h->gpu = key_seps(h->key, h->keylen, s) && s[2] - s[1] - 1 == 3 &&
	    memcmp(s[1] + 1, "gpu", 3) == 0;
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
sp_hist_init(struct sp_hist *h, struct sp_strpool *pool, const char *key,
	     size_t keylen)
{
	memset(h, 0, sizeof *h);
	h->pool = pool;
	if (keylen > UINT32_MAX)
		sp_die(SP_EXIT_USAGE, "a workload key longer than 4 GB");
	h->key = sp_strpool_add(pool, key, keylen);
	h->keylen = (uint32_t)keylen;
	split_key(h);
	for (int f = 0; f < SP_FLAG_N; f++)
		h->req[f] = h->req_least[f] = NAN;
	best_init(&h->longest);
	best_init(&h->peak);
	best_init(&h->busiest);
	best_init(&h->gpu_busiest);
	h->comp_timeout_limit_s = NAN;
	h->kill_limit_b = NAN;
	h->shortest_trusted_s = NAN;
	h->tasks_max = NAN;
	h->one_array = -1;
}

static struct sp_hist_more *
more(struct sp_hist *h)
{
	if (h->more == NULL) {
		h->more = pool_zalloc(h->pool, sizeof *h->more);
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

/* Gives back the ids a history owns (own_id); once is enough. */
static void
hist_drop_ids(struct sp_hist *h)
{
	struct sp_best *b[] = { &h->longest, &h->peak, &h->busiest,
				&h->gpu_busiest };

	for (size_t i = 0; i < sizeof b / sizeof *b; i++) {
		drop_id(h->pool, b[i]->jobid);
		b[i]->jobid = NULL;
	}
	for (size_t i = 0; i < h->ndoneat; i++) {
		drop_id(h->pool, h->doneat[i].best_id);
		drop_id(h->pool, h->doneat[i].other_id);
	}
	h->ndoneat = 0;
}

void
sp_hist_free(struct sp_hist *h)
{
	struct sp_hist_more *m = h->more;
	struct sp_strpool *p = h->pool;

	hist_drop_ids(h);
	sp_pool_release(p, h->done_s, h->donecap * sizeof *h->done_s);
	sp_pool_release(p, h->doneat, h->doneatcap * sizeof *h->doneat);
	singles_release(p, &h->singles);
	if (m != NULL) {
		topk_release(p, &m->near);
		sp_pool_release(p, m->oomsubs,
				m->oomsubcap * sizeof *m->oomsubs);
		u64map_free(p, &m->doneat_map);
		topk_release(p, &m->fail_ids);
		topk_release(p, &m->requeue_ids);
		sp_pool_release(p, m->arrays, m->arraycap * sizeof *m->arrays);
		u64map_free(p, &m->array_map);
		sp_pool_release(p, m->pop, m->popcap * sizeof *m->pop);
		topk_release(p, &m->hangs);
		sp_pool_release(p, m, sizeof *m);
	}
	memset(h, 0, sizeof *h);
}

double
sp_hist_compute(const struct sp_hist *h)
{
	return h->gpu_h * SP_GPU_CORE_RATIO + h->core_h;
}


static void
push_float(struct sp_strpool *pool, float **v, size_t *n, size_t *cap,
	   double x)
{
	*v = grow(pool, *v, cap, *n + 1, sizeof **v);
	(*v)[(*n)++] = (float)x;
}

static void
add_time(struct sp_hist *h, const struct sp_run *r)
{
	const struct sp_run *j = r;
	double limit = j->timelimit_s;

	if (r->st == SP_ST_COMPLETED && !r->noop && j->elapsed_s > 0) {
		push_float(h->pool, &h->done_s, &h->ndone, &h->donecap,
			   j->elapsed_s);
		best_offer(&h->longest, h->pool, j->elapsed_s, limit, &r->o,
			   j->jobid);
		if (positive(limit) &&
		    j->elapsed_s >= (1 - SP_NEAR_LIMIT_SHARE) * limit) {
			struct sp_ref c = ref_make(&r->o, j->elapsed_s / limit,
						   j->elapsed_s, limit, r->sub);

			topk_offer(&more(h)->near, SP_FINDING_MAX_IDS, h->pool,
				   &c, j->jobid);
		}
	}
	if (r->st != SP_ST_TIMEOUT)
		return;
	h->timeouts++;
	if (r->noop) {
		h->hung_timeouts++;
	} else {
		double cut = positive(limit) ? limit : j->elapsed_s;

		h->comp_timeouts++;
		if (!known(h->comp_timeout_limit_s) ||
		    cut > h->comp_timeout_limit_s)
			h->comp_timeout_limit_s = cut;
	}
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
	return u64map_get(&m->array_map, sub);
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
	m->oomsubs = grow(h->pool, m->oomsubs, &m->oomsubcap, m->noomsubs + 1,
			  sizeof *m->oomsubs);
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
	return u64map_get(&h->more->doneat_map, double_key(limit_b));
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
		h->doneat = grow(h->pool, h->doneat, &h->doneatcap,
				 h->ndoneat + 1, sizeof *h->doneat);
		d = &h->doneat[h->ndoneat];
		memset(d, 0, sizeof *d);
		d->limit_b = r->limit_b;
		d->best_o = r->o;
		d->best_sub = r->sub;
		d->best_id = own_id(h->pool, r->jobid);
		h->ndoneat++;
		if (h->ndoneat == LINEAR_MAX + 1) {
			struct sp_hist_more *m = more(h);

			for (size_t k = 0; k < h->ndoneat; k++)
				u64map_put(h->pool, &m->doneat_map,
					   double_key(h->doneat[k].limit_b), k);
		} else if (h->ndoneat > LINEAR_MAX + 1) {
			u64map_put(h->pool, &h->more->doneat_map,
				   double_key(r->limit_b), h->ndoneat - 1);
		}
		return;
	}
	d = &h->doneat[i];
	if (r->sub != 0 && r->sub == d->best_sub) {
		if (sp_order_cmp(&r->o, &d->best_o) > 0) {
			drop_id(h->pool, d->best_id);
			d->best_o = r->o;
			d->best_id = own_id(h->pool, r->jobid);
		}
	} else if (sp_order_cmp(&r->o, &d->best_o) > 0) {
		drop_id(h->pool, d->other_id);
		d->other_o = d->best_o;
		d->other_sub = d->best_sub;
		d->other_id = d->best_id;
		d->best_o = r->o;
		d->best_sub = r->sub;
		d->best_id = own_id(h->pool, r->jobid);
	} else if (d->other_id == NULL ||
		   sp_order_cmp(&r->o, &d->other_o) > 0) {
		drop_id(h->pool, d->other_id);
		d->other_o = r->o;
		d->other_sub = r->sub;
		d->other_id = own_id(h->pool, r->jobid);
	}
}

static void
add_mem(struct sp_hist *h, const struct sp_run *r)
{
	int lim = known(r->limit_b), rss = known(r->rss_b);

	if (lim && (r->st == SP_ST_OUT_OF_MEMORY || (!r->noop && rss)))
		h->mem_runs++;
	if (!r->noop && lim && rss) {
		h->mem_measured++;
		if (r->rss_b <= r->limit_b) {
			h->mem_trusted++;
			best_offer(&h->peak, h->pool, r->rss_b, r->limit_b,
				   &r->o, r->jobid);
			if (!known(h->shortest_trusted_s) ||
			    r->elapsed_s < h->shortest_trusted_s)
				h->shortest_trusted_s = r->elapsed_s;
		} else {
			h->mem_untrusted++;
		}
	}
	if (r->nodes > 1)
		h->multinode++;
	if (r->st == SP_ST_OUT_OF_MEMORY && lim) {
		h->kills++;
		if (!known(h->kill_limit_b) || r->limit_b > h->kill_limit_b)
			h->kill_limit_b = r->limit_b;
		add_oomsub(h, r);
	}
	if (r->st == SP_ST_COMPLETED && lim)
		add_doneat(h, r);
}

static void
add_cpu(struct sp_hist *h, const struct sp_run *r)
{
	const struct sp_run *j = r;
	double denom, busy;

	if (!known(h->tasks_max) || r->tasks > h->tasks_max)
		h->tasks_max = r->tasks;
	if (r->noop || !known(r->cpt) || !known(j->total_cpu_s))
		return;
	denom = j->elapsed_s * r->cores;
	if (known(j->cpu_time_s) && j->cpu_time_s > denom)
		denom = j->cpu_time_s;
	if (!(denom > 0))
		return;
	busy = j->total_cpu_s / denom * r->cpt;
	h->cpu_runs++;
	best_offer(&h->busiest, h->pool, busy, r->cpt, &r->o, j->jobid);
}

static void
add_gpu(struct sp_hist *h, const struct sp_run *r)
{
	const struct sp_run *j = r;
	double g = j->alloc_gpus, util = j->gpu_util;

	if (!positive(g) || r->noop)
		return;
	h->gpu_runs++;
	if (!known(util) || util < 0)
		return;
	/* gpu_util is the share of the allocation's GPUs kept busy. */
	h->gpu_util_runs++;
	best_offer(&h->gpu_busiest, h->pool, (util > 1 ? 1 : util) * g, g,
		   &r->o, j->jobid);
}

static void
add_cost(struct sp_hist *h, const struct sp_run *r)
{
	const struct sp_run *j = r;
	double el = j->elapsed_s;

	if (positive(j->timelimit_s)) {
		h->cost_time_n++;
		h->limit_s += j->timelimit_s;
		h->elapsed_s += el;
	}
	if (known(r->cores) && known(j->total_cpu_s)) {
		h->cost_cpu_n++;
		h->core_s += r->cores * el;
		h->cpu_s += j->total_cpu_s;
		h->task_s += r->tasks * el;
	}
	if (known(r->limit_b) && known(r->rss_b)) {
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
	const struct sp_run *j = r;
	struct sp_hist_more *m;
	struct sp_ref c;
	double gh;

	if (r->sub == 0) {
		h->one_array = 0;
	} else if (h->one_array == -1) {
		h->one_array = 1;
		h->array0 = r->sub;
		h->array0_master = keep_id(h->pool, j->array_job);
	} else if (h->one_array == 1 && r->sub != h->array0) {
		h->one_array = 0;
	}
	if (!r->failed)
		return;
	m = more(h);
	if (r->noop)
		m->fail_hung++;
	gh = j->gpu_h;
	if (positive(gh))
		m->fail_gpu_h += gh;
	c = ref_make(&r->o, 0, NAN, NAN, r->sub);
	topk_offer(&m->fail_ids, SP_FINDING_MAX_IDS, h->pool, &c, j->jobid);
	if (r->st == SP_ST_TIMEOUT && positive(j->timelimit_s)) {
		if (!known(m->timeout_limit_min) ||
		    j->timelimit_s < m->timeout_limit_min)
			m->timeout_limit_min = j->timelimit_s;
		if (!known(m->timeout_limit_max) ||
		    j->timelimit_s > m->timeout_limit_max)
			m->timeout_limit_max = j->timelimit_s;
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
		struct sp_ref c = ref_make(&h->rq_order, 0, NAN, NAN, 0);

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
		topk_offer(&m->requeue_ids, SP_FINDING_MAX_IDS, h->pool, &c,
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
	const struct sp_run *j = r;
	uint64_t hash;

	if (j->jobid.n == 0)
		return;
	hash = sp_hash_bytes(j->jobid.p, j->jobid.n);
	if (h->rq_count == 0 || hash != h->rq_hash) {
		rq_close(h);
		h->rq_hash = hash;
		h->rq_first_state = r->st;
	} else {
		struct sp_hist_more *m = more(h);

		/* The second record of one id: a requeue after all. */
		if (h->rq_count == 1) {
			m->rq_states[h->rq_first_state]++;
			h->rq_jobid = keep_id(h->pool, j->jobid);
		}
		m->rq_states[r->st]++;
	}
	if (r->o.attempt >= 1 && h->rq_jobid == NULL)
		h->rq_jobid = keep_id(h->pool, j->jobid);
	h->rq_count++;
	h->rq_sum_elapsed += j->elapsed_s;
	if (r->o.attempt > h->rq_max_attempt) {
		h->rq_max_attempt = r->o.attempt;
		h->rq_max_elapsed = j->elapsed_s;
		h->rq_max_state = r->st;
		h->rq_order = r->o;
	}
}

/* A peak that is a footprint: the run computed and stayed in its limit. */
static int
run_peak_trusted(const struct sp_run *r)
{
	return !r->noop && known(r->rss_b) && known(r->limit_b) &&
	    r->rss_b <= r->limit_b;
}

static void
add_array(struct sp_hist *h, const struct sp_run *r)
{
	const struct sp_run *j = r;
	int trusted = run_peak_trusted(r);
	struct sp_hist_more *m;
	struct sp_array *a;
	double need;
	long i;

	if (r->sub == 0) {
		if (r->st == SP_ST_COMPLETED && trusted)
			singles_offer(&h->singles, h->pool, &r->o, r->rss_b,
				      j->jobid);
		return;
	}
	m = more(h);
	i = array_find(m, r->sub);
	if (i < 0) {
		m->arrays = grow(h->pool, m->arrays, &m->arraycap,
				 m->narrays + 1, sizeof *m->arrays);
		a = &m->arrays[m->narrays];
		memset(a, 0, sizeof *a);
		a->hash = r->sub;
		a->master = keep_id(h->pool, j->array_job);
		a->first = r->o;
		a->limit_b = NAN;
		a->oomsub = -1;
		m->narrays++;
		if (m->narrays == 9)
			for (size_t k = 0; k < m->narrays; k++)
				u64map_put(h->pool, &m->array_map,
					   m->arrays[k].hash, k);
		else if (m->narrays > 9)
			u64map_put(h->pool, &m->array_map, r->sub,
				   m->narrays - 1);
	} else {
		a = &m->arrays[i];
	}
	a->tasks++;
	if (sp_order_cmp(&r->o, &a->first) < 0)
		a->first = r->o;
	if (known(r->limit_b) && (!known(a->limit_b) || r->limit_b > a->limit_b))
		a->limit_b = r->limit_b;
	if (r->st == SP_ST_OUT_OF_MEMORY)
		a->kills++;
	need = sp_run_array_need(r);
	if (known(need))
		push_float(h->pool, &m->pop, &m->npop, &m->popcap, need);
}

double
sp_run_array_need(const struct sp_run *r)
{
	/* A task killed at its limit needed at least that much. */
	if (r->st == SP_ST_OUT_OF_MEMORY && known(r->limit_b))
		return r->limit_b;
	if (run_peak_trusted(r))
		return r->rss_b;
	return NAN;
}

static void
add_hang(struct sp_hist *h, const struct sp_run *r)
{
	const struct sp_run *j = r;
	double gh, ch;
	struct sp_hist_more *m;
	struct sp_ref c;

	if (!r->hang)
		return;
	m = more(h);
	gh = j->gpu_h;
	ch = j->core_h;
	if (j->elapsed_s <= SP_NOOP_NOTICED_S)
		m->hang_short++;
	if (j->io)
		m->hang_io++;
	if (positive(gh))
		m->hang_gpu_h += gh;
	c = ref_make(&r->o, (positive(gh) ? gh * SP_GPU_CORE_RATIO : 0) +
		     (known(ch) ? ch : 0), gh, j->elapsed_s, r->sub);
	topk_offer(&m->hangs, SP_FINDING_MAX_IDS, h->pool, &c, j->jobid);
}

/*
 * What a run's other numbers give: the same operations as sp_job's
 * (sp_job_gpu_hours, sp_job_core_hours), so a seed expanded later is
 * the run it was to the last bit.
 */
static void
run_derive(struct sp_run *r)
{
	/* Never 0: 0 means a job of its own. */
	r->sub = r->array_job.n ?
	    sp_hash_bytes(r->array_job.p, r->array_job.n) | 1 : 0;
	r->gpu_h = r->elapsed_s * r->alloc_gpus / 3600.0;
	r->core_h = r->elapsed_s * r->cores / 3600.0;
	r->cpt = r->cores / r->tasks;
}

/*
 * A workload's seeds are packed one after another, some 70 bytes a run
 * rather than an sp_run's 200: a number is left out when unknown and
 * takes four bytes when a whole number below 2^32 (most counts, times
 * and limits), eight otherwise, exactly as read; a job id that is its
 * numeric id written plainly is left out; texts follow inline.  What
 * run_derive computes is not kept.  A seed is
 *	state, flags, tags (2 bits a number), the numbers, the task and
 *	attempt when not -1 and 0, the texts' lengths and bytes.
 */
enum { SEED_NAN, SEED_U32, SEED_F64 };
#define SEED_NUMS 13
#define SEED_NOOP 0x01
#define SEED_HANG 0x02
#define SEED_FAILED 0x04
#define SEED_IO 0x08
#define SEED_PLAIN_ID 0x10	/* the job id is o.id's digits */
#define SEED_NO_ARRAY 0x20
#define SEED_TASK (1u << 30)	/* in the tags: a task is kept */
#define SEED_ATTEMPT (1u << 31)
/* The most a seed's fixed part takes. */
#define SEED_FIXED (2 + 4 + SEED_NUMS * 8 + 8 + 8)
/* Seeds of more bytes than this make a history (nseed and seedlen
 * share 32 bits). */
#define SEED_MAX_BYTES ((1u << 28) - 1)

static unsigned char *
put_num(unsigned char *p, uint32_t *tags, int i, double v)
{
	uint32_t u;

	if (isnan(v))
		return p;
	if (v >= 0 && v < 4294967296.0 && !signbit(v) &&
	    (double)(u = (uint32_t)v) == v) {
		*tags |= (uint32_t)SEED_U32 << (2 * i);
		memcpy(p, &u, 4);
		return p + 4;
	}
	*tags |= (uint32_t)SEED_F64 << (2 * i);
	memcpy(p, &v, 8);
	return p + 8;
}

static const unsigned char *
get_num(const unsigned char *p, uint32_t tags, int i, double *v)
{
	uint32_t u;

	switch ((tags >> (2 * i)) & 3) {
	case SEED_U32:
		memcpy(&u, p, 4);
		*v = u;
		return p + 4;
	case SEED_F64:
		memcpy(v, p, 8);
		return p + 8;
	default:
		*v = NAN;
		return p;
	}
}

/* Whether a job id is its numeric id written plainly (no sign, no
 * leading zero, few enough digits to be exact). */
static int
plain_id(struct sp_slice s, double id)
{
	double v = 0;

	if (s.n == 0 || s.n > 15 || (s.n > 1 && s.p[0] == '0'))
		return 0;
	for (size_t i = 0; i < s.n; i++) {
		if (s.p[i] < '0' || s.p[i] > '9')
			return 0;
		v = v * 10 + (s.p[i] - '0');
	}
	return v == id;
}

/* Appends run r to w's seeds; 0 when they would grow too large. */
static int
seed_put(struct sp_strpool *pool, struct sp_wl *w, const struct sp_run *r)
{
	unsigned char fixed[SEED_FIXED], *p = fixed + 6, *seed;
	const double num[SEED_NUMS] = {
		r->o.when, r->o.id, r->elapsed_s, r->timelimit_s,
		r->total_cpu_s, r->cpu_time_s, r->alloc_gpus, r->gpu_util,
		r->limit_b, r->rss_b, r->cores, r->tasks, r->nodes
	};
	uint32_t tags = 0, n;
	int plain = plain_id(r->jobid, r->o.id);
	size_t fixlen, len;

	for (int i = 0; i < SEED_NUMS; i++)
		p = put_num(p, &tags, i, num[i]);
	if (r->o.task != -1) {
		tags |= SEED_TASK;
		memcpy(p, &r->o.task, 4);
		p += 4;
	}
	if (r->o.attempt != 0) {
		tags |= SEED_ATTEMPT;
		memcpy(p, &r->o.attempt, 4);
		p += 4;
	}
	fixed[0] = (unsigned char)r->st;
	fixed[1] = (unsigned char)((r->noop ? SEED_NOOP : 0) |
	    (r->hang ? SEED_HANG : 0) | (r->failed ? SEED_FAILED : 0) |
	    (r->io ? SEED_IO : 0) | (plain ? SEED_PLAIN_ID : 0) |
	    (r->array_job.n == 0 ? SEED_NO_ARRAY : 0));
	memcpy(fixed + 2, &tags, 4);
	fixlen = (size_t)(p - fixed);
	len = fixlen + (plain ? 0 : 4 + r->jobid.n) +
	    (r->array_job.n ? 4 + r->array_job.n : 0);
	if (r->jobid.n > SEED_MAX_BYTES || r->array_job.n > SEED_MAX_BYTES ||
	    len > SEED_MAX_BYTES - w->seedlen)
		return 0;
	seed = sp_pool_alloc(pool, w->seedlen + len);
	if (w->seedlen > 0)
		memcpy(seed, w->seed, w->seedlen);
	sp_pool_release(pool, w->seed, w->seedlen);
	p = seed + w->seedlen;
	memcpy(p, fixed, fixlen);
	p += fixlen;
	if (!plain) {
		n = (uint32_t)r->jobid.n;
		memcpy(p, &n, 4);
		memcpy(p + 4, r->jobid.p, n);
		p += 4 + n;
	}
	if (r->array_job.n) {
		n = (uint32_t)r->array_job.n;
		memcpy(p, &n, 4);
		memcpy(p + 4, r->array_job.p, n);
	}
	w->seed = seed;
	w->seedlen += (unsigned)len;
	w->nseed++;
	return 1;
}

/*
 * The compute of a seed at p (its GPU-hours and core-hours, as
 * run_derive computes them), without the rest of the run; returns the
 * next seed.
 */
static const unsigned char *
seed_compute(const unsigned char *p, double *gpu_h, double *core_h)
{
	double num[SEED_NUMS];
	unsigned flags = p[1];
	uint32_t tags, n;

	memcpy(&tags, p + 2, 4);
	p += 6;
	for (int i = 0; i < SEED_NUMS; i++)
		p = get_num(p, tags, i, &num[i]);
	p += (tags & SEED_TASK ? 4 : 0) + (tags & SEED_ATTEMPT ? 4 : 0);
	if (!(flags & SEED_PLAIN_ID)) {
		memcpy(&n, p, 4);
		p += 4 + n;
	}
	if (!(flags & SEED_NO_ARRAY)) {
		memcpy(&n, p, 4);
		p += 4 + n;
	}
	/* elapsed_s x alloc_gpus, elapsed_s x cores */
	*gpu_h = num[2] * num[6] / 3600.0;
	*core_h = num[2] * num[10] / 3600.0;
	return p;
}

/* Room for a plain job id's digits. */
#define SEED_ID_BUF 24

/*
 * The run a seed at p packed, to the last bit; its texts point into the
 * seeds or into idbuf.  Returns the next seed.
 */
static const unsigned char *
seed_get(const unsigned char *p, struct sp_run *r, char idbuf[SEED_ID_BUF])
{
	double num[SEED_NUMS];
	unsigned flags = p[1];
	uint32_t tags, n;

	r->st = (enum sp_state)p[0];
	r->noop = (flags & SEED_NOOP) != 0;
	r->hang = (flags & SEED_HANG) != 0;
	r->failed = (flags & SEED_FAILED) != 0;
	r->io = (flags & SEED_IO) != 0;
	memcpy(&tags, p + 2, 4);
	p += 6;
	for (int i = 0; i < SEED_NUMS; i++)
		p = get_num(p, tags, i, &num[i]);
	r->o.when = num[0];
	r->o.id = num[1];
	r->elapsed_s = num[2];
	r->timelimit_s = num[3];
	r->total_cpu_s = num[4];
	r->cpu_time_s = num[5];
	r->alloc_gpus = num[6];
	r->gpu_util = num[7];
	r->limit_b = num[8];
	r->rss_b = num[9];
	r->cores = num[10];
	r->tasks = num[11];
	r->nodes = num[12];
	r->o.task = -1;
	r->o.attempt = 0;
	if (tags & SEED_TASK) {
		memcpy(&r->o.task, p, 4);
		p += 4;
	}
	if (tags & SEED_ATTEMPT) {
		memcpy(&r->o.attempt, p, 4);
		p += 4;
	}
	if (flags & SEED_PLAIN_ID) {
		/* At most 15 digits, so exact in a double and a uint64_t. */
		uint64_t v = (uint64_t)r->o.id;
		char *e = idbuf + SEED_ID_BUF, *d = e;

		do {
			*--d = (char)('0' + v % 10);
			v /= 10;
		} while (v > 0);
		r->jobid = (struct sp_slice){ d, (size_t)(e - d) };
	} else {
		memcpy(&n, p, 4);
		r->jobid = (struct sp_slice){ (const char *)p + 4, n };
		p += 4 + n;
	}
	if (flags & SEED_NO_ARRAY) {
		r->array_job = (struct sp_slice){ "", 0 };
	} else {
		memcpy(&n, p, 4);
		r->array_job = (struct sp_slice){ (const char *)p + 4, n };
		p += 4 + n;
	}
	run_derive(r);
	return p;
}

void
sp_run_of(struct sp_run *r, const struct sp_job *j)
{
	r->jobid = j->jobid;
	r->array_job = j->array_job;
	sp_order_of(&r->o, j);
	r->st = sp_state_of(j);
	r->noop = sp_job_noop(j);
	r->hang = sp_job_hang(j);
	r->failed = sp_job_failed(j);
	r->io = sp_job_io_explains(j);
	r->elapsed_s = j->elapsed_s;
	r->timelimit_s = j->timelimit_s;
	r->total_cpu_s = j->total_cpu_s;
	r->cpu_time_s = j->cpu_time_s;
	r->alloc_gpus = sp_job_gpus(j);
	r->gpu_util = j->gpu_util;
	r->limit_b = positive(j->mem_limit_node_b) ? j->mem_limit_node_b : NAN;
	r->rss_b = positive(j->max_rss_b) ? j->max_rss_b : NAN;
	r->cores = sp_job_cores(j);
	r->tasks = positive(j->ntasks) ? j->ntasks :
	    positive(j->nnodes) ? j->nnodes : 1;
	r->nodes = positive(j->nnodes) ? j->nnodes : 1;
	run_derive(r);
}

/* Whether a record is a run the rules read; counts it when it is not. */
static int
usable(struct sp_hist *h, const struct sp_job *j)
{
	if (sp_job_is_step(j))
		return 0;
	if (sp_job_is_open(j)) {
		h->open++;
		return 0;
	}
	if (!known(j->elapsed_s)) {
		h->unusable++;
		return 0;
	}
	return 1;
}

void
sp_hist_add(struct sp_hist *h, const struct sp_job *j)
{
	struct sp_run r;

	if (!usable(h, j))
		return;
	sp_run_of(&r, j);
	sp_hist_add_run(h, &r);
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
	h->hang += r->hang;
	h->problems += r->failed || r->noop;
	if (positive(r->gpu_h))
		h->gpu_h += r->gpu_h;
	if (positive(r->core_h))
		h->core_h += r->core_h;
	/* What the newest run asked for is the request (not the largest). */
	asked[SP_FLAG_TIME] = positive(r->timelimit_s) ? r->timelimit_s : NAN;
	asked[SP_FLAG_MEM] = r->limit_b;
	asked[SP_FLAG_CPUS] = positive(r->cpt) ? r->cpt : NAN;
	asked[SP_FLAG_GPUS] = positive(r->alloc_gpus) ? r->alloc_gpus : NAN;
	if (!h->have_newest || sp_order_cmp(&r->o, &h->newest) > 0) {
		h->newest = r->o;
		h->have_newest = 1;
		for (int f = 0; f < SP_FLAG_N; f++)
			h->req[f] = asked[f];
	}
	for (int f = 0; f < SP_FLAG_N; f++)
		if (positive(asked[f]) && !(h->req_least[f] <= asked[f]))
			h->req_least[f] = asked[f];

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
		if (d->best_id != NULL && sp_order_cmp(&d->best_o, &e->first) > 0 &&
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

/* ------------------------------------------------------------ the set */

#define HIST_BLOCK 256

static struct sp_hist *
new_hist(struct sp_histset *s)
{
	if (s->nblocks == 0 || s->blockused == HIST_BLOCK) {
		s->blocks = sp_xgrow(s->blocks, &s->blockcap, s->nblocks + 1,
				     sizeof *s->blocks);
		s->blocks[s->nblocks++] = sp_xcalloc(HIST_BLOCK,
						     sizeof **s->blocks);
		s->blockused = 0;
	}
	return &s->blocks[s->nblocks - 1][s->blockused++];
}

/* A history whose key is already in the pool. */
static void
hist_setup(struct sp_hist *h, struct sp_strpool *pool, const char *key,
	   size_t keylen)
{
	sp_hist_init(h, pool, "", 0);
	h->key = key;
	h->keylen = (uint32_t)keylen;
	split_key(h);
}

size_t
sp_histset_find(struct sp_histset *s, const char *key, size_t n)
{
	uint32_t hash = (uint32_t)sp_hash_bytes(key, n);
	size_t mask, i;
	struct sp_wl *w;

	/* The slots hold 32-bit indexes and place by the hash's 32 bits. */
	if (s->n >= (size_t)INT32_MAX - 1 || n > UINT32_MAX)
		sp_die(SP_EXIT_USAGE, "too many workloads");
	if ((s->n + 1) * 2 > s->slotcap) {
		size_t oldcap = s->slotcap;
		struct sp_slot *old = s->slot;

		s->slotcap = oldcap ? oldcap * 2 : 64;
		s->slot = sp_xcalloc(s->slotcap, sizeof *s->slot);
		for (size_t k = 0; k < oldcap; k++) {
			if (old[k].idx == 0)
				continue;
			i = old[k].hash & (s->slotcap - 1);
			while (s->slot[i].idx)
				i = (i + 1) & (s->slotcap - 1);
			s->slot[i] = old[k];
		}
		free(old);
	}
	mask = s->slotcap - 1;
	for (i = hash & mask; s->slot[i].idx; i = (i + 1) & mask) {
		if (s->slot[i].hash != hash)
			continue;
		w = &s->v[s->slot[i].idx - 1];
		if (w->keylen == n && memcmp(w->key, key, n) == 0)
			return s->slot[i].idx - 1;
	}
	s->v = sp_xgrow(s->v, &s->cap, s->n + 1, sizeof *s->v);
	w = &s->v[s->n];
	memset(w, 0, sizeof *w);
	w->key = sp_strpool_add(&s->pool, key, n);
	w->keylen = (uint32_t)n;
	s->slot[i].idx = (uint32_t)++s->n;
	s->slot[i].hash = hash;
	return s->n - 1;
}

void
sp_histset_add(struct sp_histset *s, size_t i, const struct sp_job *j)
{
	struct sp_wl *w = &s->v[i];
	struct sp_run r, seeded;
	const unsigned char *p;
	char idbuf[SEED_ID_BUF];

	if (sp_job_is_step(j))
		return;
	if (sp_job_is_open(j)) {
		w->open++;
		return;
	}
	if (!known(j->elapsed_s)) {
		w->unusable++;
		return;
	}
	sp_run_of(&r, j);
	if (w->h != NULL) {
		sp_hist_add_run(w->h, &r);
		return;
	}
	if (w->nseed < SP_SEEDS && seed_put(&s->pool, w, &r))
		return;
	w->h = new_hist(s);
	hist_setup(w->h, &s->pool, w->key, w->keylen);
	p = w->seed;
	for (size_t k = 0; k < w->nseed; k++) {
		p = seed_get(p, &seeded, idbuf);
		sp_hist_add_run(w->h, &seeded);
	}
	sp_pool_release(&s->pool, w->seed, w->seedlen);
	w->seed = NULL;
	w->seedlen = 0;
	w->nseed = 0;
	sp_hist_add_run(w->h, &r);
}

static int
by_compute(const void *a, const void *b)
{
	const struct sp_wl *x = a, *y = b;
	size_t n = x->keylen < y->keylen ? x->keylen : y->keylen;
	int c;

	if (x->compute != y->compute)
		return x->compute > y->compute ? -1 : 1;
	if ((c = memcmp(x->key, y->key, n)) != 0)
		return c;
	return cmp_double((double)x->keylen, (double)y->keylen);
}

void
sp_histset_finish(struct sp_histset *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct sp_wl *w = &s->v[i];
		double gpu_h = 0, core_h = 0;
		const unsigned char *p;

		if (w->h != NULL) {
			sp_hist_finish(w->h);
			w->compute = sp_hist_compute(w->h);
			continue;
		}
		/* Summed as a history would sum them. */
		p = w->seed;
		for (size_t k = 0; k < w->nseed; k++) {
			double g, c;

			p = seed_compute(p, &g, &c);
			if (positive(g))
				gpu_h += g;
			if (positive(c))
				core_h += c;
		}
		w->compute = gpu_h * SP_GPU_CORE_RATIO + core_h;
	}
	/* The slots name positions: the set is read-only from here. */
	free(s->slot);
	s->slot = NULL;
	s->slotcap = 0;
	if (s->n > 1)
		sp_sort(s->v, s->n, sizeof *s->v, by_compute);
}

const struct sp_hist *
sp_histset_hist(struct sp_histset *s, size_t i)
{
	struct sp_wl *w = &s->v[i];
	struct sp_hist *h = &s->scratch;
	const unsigned char *p;
	char idbuf[SEED_ID_BUF];

	if (w->h != NULL)
		return w->h;
	if (s->scratch_used) {
		hist_drop_ids(h);
		/* Keep the arrays a few runs fill; the rare parts go. */
		float *done = h->done_s;
		size_t donecap = h->donecap, doneatcap = h->doneatcap;
		struct sp_doneat *doneat = h->doneat;
		struct sp_single *singles = h->singles.v;
		uint32_t singlescap = h->singles.cap;

		h->done_s = NULL;
		h->doneat = NULL;
		h->singles.v = NULL;
		sp_hist_free(h);
		hist_setup(h, &s->pool, w->key, w->keylen);
		h->done_s = done;
		h->donecap = donecap;
		h->doneat = doneat;
		h->doneatcap = doneatcap;
		h->singles.v = singles;
		h->singles.cap = singlescap;
	} else {
		hist_setup(h, &s->pool, w->key, w->keylen);
	}
	s->scratch_used = 1;
	p = w->seed;
	for (size_t k = 0; k < w->nseed; k++) {
		struct sp_run r;

		p = seed_get(p, &r, idbuf);
		sp_hist_add_run(&s->scratch, &r);
	}
	sp_hist_finish(&s->scratch);
	s->scratch.open = w->open;
	s->scratch.unusable = w->unusable;
	return &s->scratch;
}

void
sp_histset_free(struct sp_histset *s)
{
	/* Every history keeps its parts in the pool: no walk over them. */
	for (size_t i = 0; i < s->nblocks; i++)
		free(s->blocks[i]);
	free(s->blocks);
	free(s->v);
	free(s->slot);
	sp_strpool_free(&s->pool);
	memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------- advice */

void
sp_size_site_unknown(struct sp_size_site *s)
{
	s->gather = SP_GATHER_UNKNOWN;
	s->gather_freq_s = NAN;
	s->gpuutil_tracked = -1;
	s->ceiling_cores = NAN;
	s->ceiling_mem_b = NAN;
}

void
sp_advice_free(struct sp_advice *a)
{
	sp_buf_free(&a->requested_txt);
	sp_buf_free(&a->suggestion);
	sp_buf_free(&a->sbatch);
	sp_buf_free(&a->observed);
	sp_buf_free(&a->basis);
	sp_buf_free(&a->caution);
	sp_buf_free(&a->scratch[0]);
	sp_buf_free(&a->scratch[1]);
}

/*
 * sp_units' human forms round each tier through snprintf, and the advice
 * prints hundreds of thousands of them: most of sp-size's time went
 * there.  These write the same text by integer arithmetic wherever the
 * rounding is beyond doubt, and hand every other value to sp_units, so
 * the two can never disagree by more than what test_size checks.
 */

/* Past these, v x 10^decimals has too few bits below the point to tell a
 * rounding tie (under 2^37: an error under 2^-15, far inside FIXED_TIE). */
static const double fixed_max[] = { 9007199254740992.0, 1e10, 1e9 };
#define FIXED_TIE 1e-4

/*
 * printf's "%.*f" of v (decimals 0..2) as the integer v x 10^decimals
 * rounds to; 0, or -1 when v is out of reach or too near a tie to call
 * without printf's exact arithmetic.
 */
static int
fixed_round(double v, int decimals, uint64_t *r)
{
	static const double scale[] = { 1, 10, 100 };
	double x, whole, frac;

	if (!(v >= 0) || signbit(v) || v >= fixed_max[decimals])
		return -1;
	x = v * scale[decimals];
	whole = floor(x);
	frac = x - whole;
	if (decimals == 0 ? frac == 0.5 : fabs(frac - 0.5) < FIXED_TIE)
		return -1;
	*r = (uint64_t)whole + (frac > 0.5);
	return 0;
}

/* Appends r / 10^decimals as "%.*f" would print it. */
static void
fixed_put(struct sp_buf *b, uint64_t r, int decimals)
{
	char tmp[32];
	size_t n = 0;

	do {
		if (n == (size_t)decimals && decimals > 0)
			tmp[n++] = '.';
		tmp[n++] = (char)('0' + r % 10);
		r /= 10;
	} while (r > 0 || n <= (size_t)decimals + (decimals > 0));
	sp_buf_reserve(b, n + 1);
	while (n > 0)
		b->p[b->len++] = tmp[--n];
	b->p[b->len] = '\0';
}

/* One formatting pass when the text fits what the buffer has (it
 * usually does: the buffers are reused), two when it must grow. */
static void
printf_vprintf(struct sp_buf *b, const char *fmt, va_list ap)
{
	size_t room;
	va_list aq;
	int n;

	sp_buf_reserve(b, 128);
	room = b->cap - b->len;
	va_copy(aq, ap);
	n = vsnprintf(b->p + b->len, room, fmt, aq);
	va_end(aq);
	if (n < 0) {
		b->p[b->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		sp_buf_reserve(b, (size_t)n + 1);
		vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

/* One conversion of a double through printf, e.g. spec "%.2f". */
static void
printf_double(struct sp_buf *b, const char *spec, double v)
{
	char tmp[64];
	int n = snprintf(tmp, sizeof tmp, spec, v);

	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		sp_buf_add(b, tmp, (size_t)n);
		return;
	}
	sp_buf_reserve(b, (size_t)n + 1);
	snprintf(b->p + b->len, (size_t)n + 1, spec, v);
	b->len += (size_t)n;
}

static void
put_signed(struct sp_buf *b, long long v)
{
	if (v < 0) {
		sp_buf_addc(b, '-');
		fixed_put(b, (uint64_t)0 - (uint64_t)v, 0);
	} else {
		fixed_put(b, (uint64_t)v, 0);
	}
}

/*
 * The advice's sentences, formatted without stdio for the conversions
 * they use (%s %d %ld %zu %g %.0f %.1f %.2f %%): vsnprintf's set-up
 * alone cost more than the text.  Numbers whose text is in any doubt go
 * to printf one by one; a format with anything else goes to printf
 * whole.
 */
static void
buf_vprintf(struct sp_buf *b, const char *fmt, va_list ap)
{
	static const char *const fixed_spec[] = { "%.0f", "%.1f", "%.2f" };
	size_t start = b->len;
	const char *p = fmt, *q;
	va_list aq;
	uint64_t r;
	double v;

	va_copy(aq, ap);
	for (;; p = q) {
		q = strchr(p, '%');
		if (q == NULL) {
			sp_buf_adds(b, p);
			break;
		}
		sp_buf_add(b, p, (size_t)(q - p));
		q++;
		if (*q == '%') {
			sp_buf_addc(b, '%');
			q++;
		} else if (*q == 's') {
			const char *str = va_arg(ap, const char *);

			sp_buf_adds(b, str ? str : "(null)");
			q++;
		} else if (*q == 'd') {
			put_signed(b, va_arg(ap, int));
			q++;
		} else if (q[0] == 'l' && q[1] == 'd') {
			put_signed(b, va_arg(ap, long));
			q += 2;
		} else if (q[0] == 'z' && q[1] == 'u') {
			fixed_put(b, va_arg(ap, size_t), 0);
			q += 2;
		} else if (*q == 'g') {
			v = va_arg(ap, double);
			/* A whole number under a million is its digits. */
			if (v >= 0 && v < 1e6 && v == floor(v) && !signbit(v))
				fixed_put(b, (uint64_t)v, 0);
			else
				printf_double(b, "%g", v);
			q++;
		} else if (q[0] == '.' && q[1] >= '0' && q[1] <= '2' &&
			   q[2] == 'f') {
			int d = q[1] - '0';

			v = va_arg(ap, double);
			if (fixed_round(v, d, &r) == 0)
				fixed_put(b, r, d);
			else
				printf_double(b, fixed_spec[d], v);
			q += 3;
		} else {
			b->len = start;
			b->p[start] = '\0';
			printf_vprintf(b, fmt, aq);
			break;
		}
	}
	va_end(aq);
}

static void
bprintf(struct sp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
bprintf(struct sp_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

/* Appends one clause to a "; "-separated list. */
static void
clause(struct sp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
clause(struct sp_buf *b, const char *fmt, ...)
{
	va_list ap;

	if (b->len > 0)
		sp_buf_adds(b, "; ");
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

/* The text of a number through a formatter, for use inside clauses. */
static const char *
t_hms(struct sp_buf *t, double s)
{
	sp_buf_clear(t);
	sp_fmt_hms(t, s);
	return sp_buf_str(t);
}

static const char *
t_dur(struct sp_buf *t, double s)
{
	sp_buf_clear(t);
	sp_fmt_duration(t, s);
	return sp_buf_str(t);
}

static const char *
t_bytes(struct sp_buf *t, double b)
{
	sp_buf_clear(t);
	sp_fmt_bytes(t, b);
	return sp_buf_str(t);
}

static const char *
t_mem(struct sp_buf *t, double b)
{
	sp_buf_clear(t);
	sp_size_fmt_mem(t, b);
	return sp_buf_str(t);
}

static const char *
t_busy(struct sp_buf *t, double x)
{
	sp_buf_clear(t);
	sp_size_fmt_busy(t, x);
	return sp_buf_str(t);
}

static const char *
plural(double n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void
sp_size_fmt_mem(struct sp_buf *b, double bytes)
{
	if (!positive(bytes))
		return;
	if (fmod(bytes, GIB) == 0)
		bprintf(b, "%.0fG", bytes / GIB);
	else if (fmod(bytes, 1048576.0) == 0)
		bprintf(b, "%.0fM", bytes / 1048576.0);
	else
		bprintf(b, "%.0fK", ceil(bytes / 1024.0));
}

void
sp_size_fmt_busy(struct sp_buf *b, double x)
{
	if (!known(x))
		return;
	if (x <= 0)
		sp_buf_adds(b, "0");
	else if (x < 0.05)
		sp_buf_adds(b, "under 0.05");
	else if (x < 0.1)
		bprintf(b, "%.2f", x);
	else
		bprintf(b, "%.1f", x);
}

void
sp_size_mem_caveat(struct sp_buf *b, enum sp_gather g)
{
	switch (g) {
	case SP_GATHER_LINUX:
		clause(b, "MaxRSS reads high under jobacct_gather/linux, which "
		       "counts shared pages once per process: an upper bound; "
		       "a live reading of the running job measures the real "
		       "footprint");
		break;
	case SP_GATHER_CGROUP:
		clause(b, "MaxRSS is the cgroup's high-water mark here, page "
		       "cache included, so it can read high; a live reading of "
		       "the running job measures the real footprint");
		break;
	default:
		clause(b, "MaxRSS reads high where jobacct_gather/linux counts "
		       "shared pages once per process (the gather type here is "
		       "unknown): an upper bound; a live reading of the "
		       "running job measures the real footprint");
		break;
	}
}

static enum sp_verdict
judge(double target, double current)
{
	if (!known(current))
		return SP_V_RAISE;
	if (target > current * (1 + SP_SIZE_CHANGE))
		return SP_V_RAISE;
	if (target < current * (1 - SP_SIZE_CHANGE))
		return SP_V_LOWER;
	return SP_V_KEEP;
}

/* A request as its flag takes it. */
static const char *
t_request(struct sp_buf *t, enum sp_flag f, double v)
{
	switch (f) {
	case SP_FLAG_TIME:
		return t_hms(t, v);
	case SP_FLAG_MEM:
		return t_mem(t, v);
	default:
		sp_buf_clear(t);
		bprintf(t, "%g", v);
		return sp_buf_str(t);
	}
}

/*
 * The verdict for a->target against the newest run's request.  A
 * direction needs a request: when the newest run recorded none (a
 * partition default, say), raise only if an earlier run asked for
 * clearly less than the target; otherwise keep, with the figure offered
 * as what the history supports (unasked() says so).
 */
static enum sp_verdict
judge_newest(const struct sp_hist *h, struct sp_advice *a, struct sp_buf *t)
{
	double least = h->req_least[a->flag];

	if (known(a->requested))
		return judge(a->target, a->requested);
	if (known(least) && judge(a->target, least) == SP_V_RAISE) {
		clause(&a->basis, "the newest run recorded no request (a "
		       "partition default, say), but earlier runs asked for as "
		       "little as %s", t_request(t, a->flag, least));
		return SP_V_RAISE;
	}
	clause(&a->basis, "the newest run recorded no request (a partition "
	       "default, say), so no direction: the suggestion is what the "
	       "history supports");
	return SP_V_KEEP;
}

/* Kept only because there was no request to compare with. */
static int
unasked(const struct sp_advice *a)
{
	return a->verdict == SP_V_KEEP && !known(a->requested) &&
	    known(a->target);
}

static void
suggest(struct sp_advice *a, const char *value)
{
	bprintf(&a->suggestion, "%s=%s", sp_flag_name(a->flag), value);
	bprintf(&a->sbatch, "#SBATCH %s=%s", sp_flag_name(a->flag),
		      value);
}

static int
actionable(enum sp_verdict v)
{
	return v == SP_V_RAISE || v == SP_V_LOWER;
}

/* A duration rounded up to the step its size calls for. */
static double
round_time(double s)
{
	double step = s < SP_TIME_STEP_SWITCH_S ? SP_TIME_STEP_SHORT_S :
	    SP_TIME_STEP_LONG_S;

	return ceil(s / step - 1e-9) * step;
}

static void
advise_time(const struct sp_hist *h, struct sp_advice *a, struct sp_buf *t,
	    struct sp_buf *t2)
{
	long hung = h->hung_timeouts, touts = h->timeouts;
	double req = h->req[SP_FLAG_TIME];
	double longest, target, floor = NAN, p95;
	double *v;

	a->requested = req;
	if (known(req))
		sp_fmt_hms(&a->requested_txt, req);
	a->runs = (long)h->ndone;
	if (hung >= SP_TIME_VETO_MIN_HUNG &&
	    hung >= SP_TIME_VETO_TIMEOUT_SHARE * touts &&
	    hung >= SP_TIME_VETO_RUN_SHARE * h->runs) {
		a->verdict = SP_V_HOLD;
		a->runs = touts;
		bprintf(&a->observed, "%ld of %ld timeouts computed "
			      "nothing", hung, touts);
		bprintf(&a->basis, "blocked, not slow: %ld of the %ld "
			      "timeouts (of %ld runs) used under %.0f "
			      "CPU-seconds, and a longer limit buys a longer "
			      "hang", hung, touts, (long)h->runs,
			      SP_NOOP_MAX_CPU_S);
		if (h->comp_timeouts > 0)
			clause(&a->basis, "the other %ld did compute and were "
			       "cut off at up to %s", (long)h->comp_timeouts,
			       t_hms(t, h->comp_timeout_limit_s));
		clause(&a->caution, "fix the blocking call (a data read, a "
		       "lock, a rendezvous, a prompt); sp-hang lists the runs");
		return;
	}
	if (h->ndone < SP_SIZE_MIN_RUNS) {
		a->verdict = SP_V_REFUSE;
		bprintf(&a->basis, "needs %d completed runs; there %s "
			      "%zu", SP_SIZE_MIN_RUNS,
			      h->ndone == 1 ? "was" : "were", h->ndone);
		if (h->ndone > 0) {
			sp_fmt_duration(&a->observed, h->longest.a);
			a->observed_v = h->longest.a;
		}
		if (h->comp_timeouts > 0)
			clause(&a->caution, "%ld %s timed out while computing "
			       "at up to %s: too short, by how much the record "
			       "cannot say", (long)h->comp_timeouts,
			       plural(h->comp_timeouts, "run", "runs"),
			       t_hms(t, h->comp_timeout_limit_s));
		return;
	}
	longest = h->longest.a;
	target = round_time(longest * SP_TIME_MARGIN);
	if (h->comp_timeouts > 0)
		floor = round_time(h->comp_timeout_limit_s * SP_TIME_MARGIN);
	v = sp_xcalloc(h->ndone, sizeof *v);
	for (size_t i = 0; i < h->ndone; i++)
		v[i] = h->done_s[i];
	p95 = sp_percentile(v, h->ndone, SP_TIME_P95);
	free(v);

	sp_fmt_duration(&a->observed, longest);
	a->observed_v = longest;
	bprintf(&a->basis, "longest of %zu completed runs took %s",
		      h->ndone, t_dur(t, longest));
	if (fabs(longest - p95) > fmax(SP_TIME_P95_SHOW_S,
				       SP_TIME_P95_SHOW_SHARE * longest))
		bprintf(&a->basis, " (p95 %s)", t_dur(t, p95));
	if (known(floor) && floor > target) {
		target = floor;
		clause(&a->basis, "%ld %s timed out while computing at %s, so "
		       "at least %s", (long)h->comp_timeouts,
		       plural(h->comp_timeouts, "run", "runs"),
		       t_hms(t, h->comp_timeout_limit_s), t_hms(t2, floor));
	}
	a->target = target;
	a->verdict = judge_newest(h, a, t);
	/* Inside the band, but the longest run nearly hit this very limit:
	 * the next slower input is cut off, so a small raise is worth it. */
	if (a->verdict == SP_V_KEEP && target > req &&
	    longest >= (1 - SP_NEAR_LIMIT_SHARE) * req) {
		a->verdict = SP_V_RAISE;
		clause(&a->basis, "raised although within %.0f%% of the "
		       "request: the longest run left under %.0f%% of it",
		       SP_SIZE_CHANGE * 100, SP_NEAR_LIMIT_SHARE * 100);
	}
	if (actionable(a->verdict) || unasked(a))
		suggest(a, t_hms(t, target));
	else
		clause(&a->basis, "%s would do, within %.0f%% of the request",
		       t_hms(t, target), SP_SIZE_CHANGE * 100);
	if (h->comp_timeouts > 0)
		clause(&a->caution, "%ld %s timed out while computing: %s limit "
		       "x %.2f is a floor, not a fit", (long)h->comp_timeouts,
		       plural(h->comp_timeouts, "run", "runs"),
		       plural(h->comp_timeouts, "its", "their"),
		       SP_TIME_MARGIN);
	if (hung > 0)
		clause(&a->caution, "%ld %s consumed almost no CPU and %s left "
		       "out of %s", hung, plural(hung, "timeout", "timeouts"),
		       plural(hung, "is", "are"),
		       h->comp_timeouts > 0 ? "that floor" :
		       "the figure above");
	if (sp_hist_more(h)->near.n > 0) {
		const struct sp_topk *near = &sp_hist_more(h)->near;
		const struct sp_ref *w = &near->v[0];

		/* The root of the heap is the kept run with the least room;
		 * the tightest is the one with the highest score. */
		for (size_t i = 1; i < near->n; i++)
			if (ref_cmp(&near->v[i], w) > 0)
				w = &near->v[i];
		clause(&a->caution, "job %s finished %s inside its %s limit",
		       w->jobid, t_dur(t, w->b - w->a), t_hms(t2, w->b));
		if (near->seen > 1)
			bprintf(&a->caution, " (%ld runs finished within "
				      "%.0f%% of their limit)", near->seen,
				      SP_NEAR_LIMIT_SHARE * 100);
	}
}

static void
thin_caution(const struct sp_hist *h, const struct sp_size_site *site,
	     struct sp_advice *a, struct sp_buf *t)
{
	double f = site->gather_freq_s, s = h->shortest_trusted_s;

	if (positive(f) && known(s)) {
		double samples = floor(s / f) + 1;

		if (samples <= SP_MEM_THIN_SAMPLES)
			clause(&a->caution, "thinly sampled: the shortest run "
			       "had at most %.0f %s in %s "
			       "(JobAcctGatherFrequency=%gs), so its peak may "
			       "be low%s", samples,
			       plural(samples, "sample", "samples"),
			       t_dur(t, s), f, a->verdict == SP_V_LOWER ?
			       ": lower with care" : "");
	} else if (a->verdict == SP_V_LOWER) {
		clause(&a->caution, "the sampling interval is unknown here, so "
		       "a short run's peak may be low: lower with care");
	}
}

/* Whole GiB, rounded up, at least one. */
static double
ceil_gib(double b)
{
	double g = ceil(b / GIB - 1e-12);

	return (g < 1 ? 1 : g) * GIB;
}

static void
mem_ceiling(const struct sp_size_site *site, struct sp_advice *a,
	    struct sp_buf *t)
{
	double ceiling = site->ceiling_mem_b;

	if (!positive(ceiling) || !(a->target > ceiling))
		return;
	/* It wants more than the partition's nodes have. */
	if (known(a->requested) && a->requested >= ceiling) {
		a->verdict = SP_V_CAPPED;
		clause(&a->basis, "at this partition's ceiling of %s per node: "
		       "a larger request needs a partition with larger nodes",
		       t_bytes(t, ceiling));
	} else {
		if (known(a->requested))
			a->verdict = SP_V_RAISE;
		clause(&a->caution, "the partition's largest node has %s: "
		       "capped there", t_bytes(t, ceiling));
	}
	a->target = floor(ceiling / GIB) * GIB;
}

static void
advise_mem(const struct sp_hist *h, const struct sp_size_site *site,
	   struct sp_advice *a, struct sp_buf *t)
{
	double req = h->req[SP_FLAG_MEM];
	const char *done;
	long contra;

	a->requested = req;
	sp_size_fmt_mem(&a->requested_txt, req);
	a->runs = h->mem_runs;
	/* The peak is the number even where the kills are the words. */
	if (h->mem_trusted > 0)
		a->observed_v = h->peak.a;
	if (h->kills > 0)
		bprintf(&a->observed, "%ld %s at up to %s", (long)h->kills,
			      plural(h->kills, "kill", "kills"),
			      t_mem(t, h->kill_limit_b));
	else if (h->mem_trusted > 0)
		sp_fmt_bytes(&a->observed, h->peak.a);

	/* Trial and error that already succeeded at a killed size: memory is
	 * not the variable.  One or two kills beside a success are more
	 * likely inputs that differ: the floor below still applies. */
	contra = sp_hist_contradiction(h, &done);
	if (contra >= 0 &&
	    sp_hist_more(h)->noomsubs >= SP_MEMSEARCH_MIN_KILLS) {
		const struct sp_oomsub *e = &sp_hist_more(h)->oomsubs[contra];

		a->verdict = SP_V_HOLD;
		bprintf(&a->basis, "job %s completed at %s, a size "
			      "already killed for memory (job %s): memory is not "
			      "the deciding variable, so no further increment",
			      done, t_mem(t, e->limit_b), e->jobid);
		clause(&a->caution, "find what else changed between the runs "
		       "(workers, batch size, input shard)");
		sp_size_mem_caveat(&a->caution, site->gather);
		return;
	}
	if (h->mem_runs < SP_SIZE_MIN_RUNS) {
		a->verdict = SP_V_REFUSE;
		bprintf(&a->basis, "needs %d runs with a peak or a kill "
			      "at a known limit; there %s %ld", SP_SIZE_MIN_RUNS,
			      h->mem_runs == 1 ? "was" : "were",
			      (long)h->mem_runs);
		if (h->mem_untrusted > 0)
			clause(&a->basis, "%ld more read above %s limit",
			       (long)h->mem_untrusted,
			       plural(h->mem_untrusted, "its", "their"));
		sp_size_mem_caveat(&a->caution, site->gather);
		return;
	}
	if (h->kills > 0) {
		double peak_target = NAN;

		a->target = ceil_gib(h->kill_limit_b * SP_MEM_MARGIN);
		bprintf(&a->basis, "%ld %s killed for memory at up to %s; "
			      "that x %.2f is a floor", (long)h->kills,
			      plural(h->kills, "run was", "runs were"),
			      t_mem(t, h->kill_limit_b), SP_MEM_MARGIN);
		if (h->mem_trusted >= SP_SIZE_MIN_RUNS)
			peak_target = ceil_gib(h->peak.a * SP_MEM_MARGIN);
		if (known(peak_target) && peak_target > a->target) {
			a->target = peak_target;
			clause(&a->basis, "the runs that were not killed peaked "
			       "higher still, at %s (job %s)",
			       t_bytes(t, h->peak.a), h->peak.jobid);
		}
		if (contra >= 0)
			clause(&a->caution, "job %s later completed at %s, a "
			       "size that was killed: the need varies between "
			       "runs", done,
			       t_mem(t,
			       sp_hist_more(h)->oomsubs[contra].limit_b));
		clause(&a->caution, "a killed run's MaxRSS is a sample short of "
		       "its real peak");
	} else if (h->mem_measured > 0 && h->mem_untrusted >=
		   SP_MEM_UNTRUSTED_DOMINATE * h->mem_measured) {
		a->verdict = SP_V_REFUSE;
		bprintf(&a->basis, "MaxRSS exceeds the limit on %ld of %ld "
			      "runs without being killed: not a footprint at all",
			      (long)h->mem_untrusted, (long)h->mem_measured);
		sp_size_mem_caveat(&a->caution, site->gather);
		return;
	} else if (h->mem_trusted < SP_SIZE_MIN_RUNS) {
		a->verdict = SP_V_REFUSE;
		bprintf(&a->basis, "needs %d runs with a peak within "
			      "their limit; there %s %ld", SP_SIZE_MIN_RUNS,
			      h->mem_trusted == 1 ? "was" : "were",
			      (long)h->mem_trusted);
		if (h->mem_untrusted > 0)
			clause(&a->basis, "%ld more read above %s limit",
			       (long)h->mem_untrusted,
			       plural(h->mem_untrusted, "its", "their"));
		sp_size_mem_caveat(&a->caution, site->gather);
		return;
	} else {
		a->runs = h->mem_trusted;
		a->target = ceil_gib(h->peak.a * SP_MEM_MARGIN);
		bprintf(&a->basis, "largest peak of %ld runs within their "
			      "limit: %s (job %s), x %.2f",
			      (long)h->mem_trusted, t_bytes(t, h->peak.a),
			      h->peak.jobid,
			      SP_MEM_MARGIN);
	}
	a->verdict = judge_newest(h, a, t);
	mem_ceiling(site, a, t);
	if (actionable(a->verdict) || unasked(a))
		suggest(a, t_mem(t, a->target));
	else if (a->verdict == SP_V_KEEP)
		clause(&a->basis, "%s would do, within %.0f%% of the request",
		       t_mem(t, a->target), SP_SIZE_CHANGE * 100);
	if (h->mem_untrusted > 0)
		clause(&a->caution, "%ld %s left out: MaxRSS above the limit "
		       "without a kill", (long)h->mem_untrusted,
		       plural(h->mem_untrusted, "run", "runs"));
	thin_caution(h, site, a, t);
	if (h->multinode > 0)
		clause(&a->caution, "per node: %ld %s used several nodes, so "
		       "the allocation's total is larger", (long)h->multinode,
		       plural(h->multinode, "run", "runs"));
	sp_size_mem_caveat(&a->caution, site->gather);
}

static void
cpu_caveat(struct sp_buf *b, enum sp_gather g)
{
	if (g == SP_GATHER_CGROUP)
		return;
	clause(b, "TotalCPU %s detached worker pools: a lower bound",
	       g == SP_GATHER_LINUX ? "misses" : "may miss");
}

/* Busy units to a request: no margin where it would double it. */
static double
busy_target(double busy, double margin, double noise)
{
	double x;

	if (busy < SP_CPU_RAISE_MIN_BUSY)
		x = ceil(busy - noise);
	else
		x = ceil(busy * margin - 1e-9);
	return x < 1 ? 1 : x;
}

static void
advise_cpus(const struct sp_hist *h, const struct sp_size_site *site,
	    struct sp_advice *a, struct sp_buf *t)
{
	double req = h->req[SP_FLAG_CPUS];
	double busy, ceiling = site->ceiling_cores;
	const char *bt;

	a->requested = req;
	if (known(req))
		bprintf(&a->requested_txt, "%g", req);
	a->runs = h->cpu_runs;
	if (h->cpu_runs < SP_SIZE_MIN_RUNS) {
		a->verdict = SP_V_REFUSE;
		bprintf(&a->basis, "needs %d runs with a CPU reading; "
			      "there %s %ld", SP_SIZE_MIN_RUNS,
			      h->cpu_runs == 1 ? "was" : "were",
			      (long)h->cpu_runs);
		return;
	}
	busy = h->busiest.a;
	a->observed_v = busy;
	a->target = busy_target(busy, SP_CPU_MARGIN, SP_CPU_NOISE);
	bt = t_busy(t, busy);
	bprintf(&a->observed, "%s %s busy per task at peak across %ld "
		      "runs", bt, strcmp(bt, "1.0") ? "cores" : "core",
		      (long)h->cpu_runs);
	bprintf(&a->basis, "the busiest run (job %s) kept %s of its %g "
		      "%s per task busy", h->busiest.jobid, bt, h->busiest.b,
		      plural(h->busiest.b, "core", "cores"));
	a->verdict = judge_newest(h, a, t);
	if (busy >= SP_CPU_RAISE_MIN_BUSY && positive(ceiling) &&
	    a->target > ceiling) {
		/* It wants more than the partition's nodes have. */
		if (known(req) && req >= ceiling) {
			a->verdict = SP_V_CAPPED;
			clause(&a->basis, "at this partition's ceiling of %g "
			       "cores per node: a larger request needs a "
			       "partition with more cores per node", ceiling);
		} else {
			if (known(req))
				a->verdict = SP_V_RAISE;
			clause(&a->caution, "%g wanted, but the partition's "
			       "largest node has %g cores: capped there",
			       a->target, ceiling);
		}
		a->target = ceiling;
	} else if (a->verdict == SP_V_RAISE && busy < SP_CPU_RAISE_MIN_BUSY) {
		a->verdict = SP_V_KEEP;
		clause(&a->basis, "one saturated core is no evidence that a "
		       "second would help: raising needs %.0f or more cores busy",
		       SP_CPU_RAISE_MIN_BUSY);
	}
	if (actionable(a->verdict) || unasked(a)) {
		struct sp_buf v = { 0 };

		bprintf(&v, "%g", a->target);
		suggest(a, sp_buf_str(&v));
		sp_buf_free(&v);
	} else if (a->verdict == SP_V_KEEP && a->target != req) {
		clause(&a->basis, "%g would do, within %.0f%% of the request",
		       a->target, SP_SIZE_CHANGE * 100);
	}
	if (a->verdict == SP_V_LOWER) {
		cpu_caveat(&a->caution, site->gather);
		if (h->gpu)
			clause(&a->caution, "a GPU job: data-loader workers may "
			       "need these cores at moments the average hides");
	}
	if (h->tasks_max > 1)
		clause(&a->caution, "per task: this workload runs up to %g "
		       "tasks", h->tasks_max);
}

static void
advise_gpus(const struct sp_hist *h, const struct sp_size_site *site,
	    struct sp_advice *a, struct sp_buf *t)
{
	double req = h->req[SP_FLAG_GPUS];
	double busy, held;
	const char *bt;

	a->requested = req;
	if (known(req))
		bprintf(&a->requested_txt, "%g", req);
	a->runs = h->gpu_runs;
	if (h->gpu_runs < SP_SIZE_MIN_RUNS) {
		a->verdict = SP_V_REFUSE;
		bprintf(&a->basis, "needs %d runs that held GPUs and "
			      "computed; there %s %ld", SP_SIZE_MIN_RUNS,
			      h->gpu_runs == 1 ? "was" : "were",
			      (long)h->gpu_runs);
		return;
	}
	if (h->gpu_util_runs < SP_SIZE_MIN_RUNS) {
		a->verdict = SP_V_REFUSE;
		bprintf(&a->basis, "GPU utilization is recorded for %ld "
			      "of %ld runs; without it the record cannot size "
			      "--gpus", (long)h->gpu_util_runs,
			      (long)h->gpu_runs);
		clause(&a->caution, "%s", site->gpuutil_tracked == 1 ?
		       "this cluster gathers it, but not for these runs" :
		       site->gpuutil_tracked == 0 ?
		       "this cluster does not gather it (AccountingStorageTRES "
		       "needs gres/gpuutil)" :
		       "Slurm records it where AccountingStorageTRES includes "
		       "gres/gpuutil");
		return;
	}
	a->runs = h->gpu_util_runs;
	busy = h->gpu_busiest.a;
	a->observed_v = busy;
	held = h->gpu_busiest.b;
	a->target = busy_target(busy, SP_GPU_MARGIN, SP_GPU_NOISE);
	bt = t_busy(t, busy);
	bprintf(&a->observed, "%s %s busy at peak across %ld runs", bt,
		      strcmp(bt, "1.0") ? "GPUs" : "GPU",
		      (long)h->gpu_util_runs);
	bprintf(&a->basis, "the busiest run (job %s) kept %s of its %g "
		      "%s busy", h->gpu_busiest.jobid, bt, held,
		      plural(held, "GPU", "GPUs"));
	a->verdict = judge_newest(h, a, t);
	if (a->verdict == SP_V_RAISE) {
		a->verdict = SP_V_KEEP;
		clause(&a->basis, "a busy GPU is no evidence that another would "
		       "help: the code decides how many it can use, so the "
		       "record never raises --gpus");
	}
	if (a->verdict == SP_V_LOWER || unasked(a)) {
		struct sp_buf v = { 0 };

		bprintf(&v, "%g", a->target);
		suggest(a, sp_buf_str(&v));
		sp_buf_free(&v);
		if (a->verdict == SP_V_LOWER)
			clause(&a->caution, "utilization is averaged over the "
			       "run and its GPUs: if each rank drives one GPU, "
			       "fewer GPUs changes the layout, and a low figure "
			       "there points at the input pipeline");
	} else if (a->verdict == SP_V_KEEP && a->target < req) {
		clause(&a->basis, "%g would do, within %.0f%% of the request",
		       a->target, SP_SIZE_CHANGE * 100);
	}
}

int
sp_size_advise(const struct sp_hist *h, const struct sp_size_site *site,
	       enum sp_flag flag, struct sp_advice *a)
{
	struct sp_buf *t = &a->scratch[0], *t2 = &a->scratch[1];

	/* The buffers of an earlier answer are reused, not reallocated. */
	sp_buf_clear(&a->requested_txt);
	sp_buf_clear(&a->suggestion);
	sp_buf_clear(&a->sbatch);
	sp_buf_clear(&a->observed);
	sp_buf_clear(&a->basis);
	sp_buf_clear(&a->caution);
	a->flag = flag;
	a->verdict = SP_V_REFUSE;
	a->runs = 0;
	a->requested = a->target = a->observed_v = NAN;
	switch (flag) {
	case SP_FLAG_TIME:
		advise_time(h, a, t, t2);
		break;
	case SP_FLAG_MEM:
		advise_mem(h, site, a, t);
		break;
	case SP_FLAG_CPUS:
		advise_cpus(h, site, a, t);
		break;
	case SP_FLAG_GPUS:
		if (!h->gpu)
			return -1;
		advise_gpus(h, site, a, t);
		break;
	default:
		return -1;
	}
	return 0;
}

/* --------------------------------------------------------------- cost */

void
sp_cost_init(struct sp_cost *c)
{
	memset(c, 0, sizeof *c);
}

static int
has_verdict(const struct sp_advice *a)
{
	return a != NULL && (actionable(a->verdict) ||
	    a->verdict == SP_V_KEEP || a->verdict == SP_V_CAPPED);
}

/* One panel: what the runs asked, used, and would ask as advised. */
static void
cost_panel(struct sp_cost *c, enum sp_cost_kind k, long n,
	   const struct sp_advice *a, double asked, double used,
	   double units)
{
	double advised = actionable(a->verdict) ? a->target * units : asked;

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
	double gibh = GIB * 3600.0;

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
