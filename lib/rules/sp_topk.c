/*
 * sp_topk.c - the runs a rule may name, kept in bounded lists.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_const.h"
#include "sp_topk.h"
#include "sp_util.h"

static int
cmp_double(double a, double b)
{
	return a < b ? -1 : a > b;
}

static const char *
keep_id(struct sp_pool *p, struct sp_slice s)
{
	return sp_pool_str(p, s.p, s.n);
}

/* --------------------------------------------------------------- refs */

struct sp_ref
sp_ref_make(const struct sp_order *o, double score, double a, double b,
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

/* Which of two refs ranks higher: score, then the newer; -1, 0, 1. */
static int
ref_cmp(const struct sp_ref *x, const struct sp_ref *y)
{
	int c = cmp_double(x->score, y->score);

	return c ? c : sp_order_cmp(&x->o, &y->o);
}

/* -------------------------------------------------------------- heaps */

/*
 * Both lists are min-heaps: v[0] is the element given up first, and
 * lower(a, b) says a is given up before b.  Elements are at most an
 * sp_ref.
 */
typedef int (*lower_fn)(const void *, const void *);

static void
swap(char *a, char *b, size_t size)
{
	char tmp[sizeof(struct sp_ref)];

	memcpy(tmp, a, size);
	memcpy(a, b, size);
	memcpy(b, tmp, size);
}

static void
heap_down(void *base, size_t n, size_t size, size_t i, lower_fn lower)
{
	char *v = base;

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < n && lower(v + l * size, v + m * size))
			m = l;
		if (r < n && lower(v + r * size, v + m * size))
			m = r;
		if (m == i)
			return;
		swap(v + i * size, v + m * size, size);
		i = m;
	}
}

static void
heap_up(void *base, size_t size, size_t i, lower_fn lower)
{
	char *v = base;

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!lower(v + i * size, v + p * size))
			return;
		swap(v + i * size, v + p * size, size);
		i = p;
	}
}

static int
ref_lower(const void *a, const void *b)
{
	return ref_cmp(a, b) < 0;
}

static int
single_lower(const void *a, const void *b)
{
	const struct sp_single *x = a, *y = b;

	return sp_order_cmp(&x->o, &y->o) < 0;
}

/* -------------------------------------------------------------- top-k */

void
sp_topk_offer(struct sp_topk *t, uint32_t k, struct sp_pool *pool,
	      const struct sp_ref *cand, struct sp_slice id)
{
	t->k = k;
	t->seen++;
	if (t->n < k) {
		if (t->n == t->cap) {
			size_t cap = t->cap;

			t->v = sp_pool_grow(pool, t->v, &cap,
					    (size_t)t->n + 1, sizeof *t->v);
			t->cap = (uint32_t)cap;
		}
		t->v[t->n] = *cand;
		t->v[t->n].jobid = keep_id(pool, id);
		heap_up(t->v, sizeof *t->v, t->n++, ref_lower);
		return;
	}
	if (k == 0 || ref_cmp(cand, &t->v[0]) <= 0)
		return;
	t->v[0] = *cand;
	t->v[0].jobid = keep_id(pool, id);
	heap_down(t->v, t->n, sizeof *t->v, 0, ref_lower);
}

const struct sp_ref *
sp_topk_best(const struct sp_topk *t)
{
	const struct sp_ref *w;

	if (t->n == 0)
		return NULL;
	/* The root of the heap is the kept ref that ranks lowest. */
	w = &t->v[0];
	for (size_t i = 1; i < t->n; i++)
		if (ref_cmp(&t->v[i], w) > 0)
			w = &t->v[i];
	return w;
}

void
sp_topk_release(struct sp_pool *pool, struct sp_topk *t)
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

/* --------------------------------------------------------------- best */

void
sp_best_init(struct sp_best *b)
{
	b->a = b->b = b->id = NAN;
	b->jobid = NULL;
}

/* Keeps the run with the higher a; a tie goes to the higher job id, then
 * the later text, so the choice never depends on the input's order. */
void
sp_best_offer(struct sp_best *b, struct sp_pool *pool, double a, double bb,
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
	sp_pool_drop_str(pool, b->jobid);
	b->a = a;
	b->b = bb;
	b->id = o->id;
	b->jobid = sp_pool_own_str(pool, jobid.p, jobid.n);
}

void
sp_best_release(struct sp_pool *pool, struct sp_best *b)
{
	sp_pool_drop_str(pool, b->jobid);
	b->jobid = NULL;
}

/* ------------------------------------------------------------ singles */

/*
 * Grown by half once past a few, up to SP_PROBE_KEEP exactly: these
 * lists are the largest part of the histories, and doubling left a
 * third of them unused.
 */
static void
singles_grow(struct sp_singles *t, struct sp_pool *pool)
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
void
sp_singles_offer(struct sp_singles *t, struct sp_pool *pool,
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
		heap_up(t->v, sizeof *t->v, t->n++, single_lower);
		return;
	}
	if (sp_order_cmp(&c.o, &t->v[0].o) <= 0)
		return;
	c.jobid = keep_id(pool, id);
	t->v[0] = c;
	heap_down(t->v, t->n, sizeof *t->v, 0, single_lower);
}

void
sp_singles_release(struct sp_pool *pool, struct sp_singles *t)
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
