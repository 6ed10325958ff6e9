/*
 * sp_change.c - a workload's requests by value, and what the newest
 * change of a request did.
 */
#include <math.h>
#include <string.h>

#include "sp_change.h"
#include "sp_const.h"
#include "sp_units.h"

/* Past this many values, a flag's are found through a map. */
#define LINEAR_MAX 8

static long
find(const struct sp_asked_set *s, double value)
{
	if (s->n <= LINEAR_MAX) {
		for (size_t i = 0; i < s->n; i++)
			if (s->v[i].value == value)
				return (long)i;
		return -1;
	}
	return sp_u64map_get(&s->map, sp_u64map_double_key(value));
}

static struct sp_asked *
entry(struct sp_asked_set *s, struct sp_pool *pool, double value)
{
	long i = find(s, value);
	struct sp_asked *a;

	if (i >= 0)
		return &s->v[i];
	s->v = sp_pool_grow(pool, s->v, &s->cap, s->n + 1, sizeof *s->v);
	a = &s->v[s->n++];
	memset(a, 0, sizeof *a);
	a->value = value;
	if (s->n == LINEAR_MAX + 1) {
		for (size_t k = 0; k < s->n; k++)
			sp_u64map_put(pool, &s->map,
				      sp_u64map_double_key(s->v[k].value), k);
	} else if (s->n > LINEAR_MAX + 1) {
		sp_u64map_put(pool, &s->map, sp_u64map_double_key(value),
			      s->n - 1);
	}
	return a;
}

static void
add_one(struct sp_asked_set *s, struct sp_pool *pool, const struct sp_run *r,
	double value, int fail)
{
	struct sp_asked *a;

	if (!sp_positive(value))
		return;
	a = entry(s, pool, value);
	if (a->runs == 0 || sp_order_cmp(&r->o, &a->first) < 0) {
		sp_pool_drop_str(pool, a->first_id);
		a->first = r->o;
		a->first_id = sp_pool_own_str(pool, r->jobid.p, r->jobid.n);
	}
	if (a->runs == 0 || sp_order_cmp(&r->o, &a->last) > 0) {
		sp_pool_drop_str(pool, a->last_id);
		a->last = r->o;
		a->last_id = sp_pool_own_str(pool, r->jobid.p, r->jobid.n);
	}
	a->runs++;
	a->fails += fail;
	a->hung += fail && r->hang;
}

void
sp_asked_add(struct sp_asked_sets **sets, struct sp_pool *pool,
	     const struct sp_run *r, double time_s, double mem_b)
{
	if (!sp_positive(time_s) && !sp_positive(mem_b))
		return;
	if (*sets == NULL)
		*sets = sp_pool_zalloc(pool, sizeof **sets);
	add_one(&(*sets)->s[SP_CHANGE_TIME], pool, r, time_s,
		r->st == SP_ST_TIMEOUT);
	add_one(&(*sets)->s[SP_CHANGE_MEM], pool, r, mem_b,
		r->st == SP_ST_OUT_OF_MEMORY);
}

void
sp_asked_free(struct sp_asked_sets **sets, struct sp_pool *pool)
{
	if (*sets == NULL)
		return;
	for (int k = 0; k < SP_CHANGE_N; k++) {
		struct sp_asked_set *s = &(*sets)->s[k];

		for (size_t i = 0; i < s->n; i++) {
			sp_pool_drop_str(pool, s->v[i].first_id);
			sp_pool_drop_str(pool, s->v[i].last_id);
		}
		sp_pool_release(pool, s->v, s->cap * sizeof *s->v);
		sp_u64map_free(pool, &s->map);
	}
	sp_pool_release(pool, *sets, sizeof **sets);
	*sets = NULL;
}

/* A hang is cut off at any limit: only a timeout that computed speaks
 * to --time. */
long
sp_change_telling(enum sp_flag f, const struct sp_asked *a)
{
	return f == SP_FLAG_TIME ? (long)a->fails - a->hung : a->fails;
}

/* a of an against b of bn, as shares: -1, 0, 1 (no division). */
static int
share_cmp(long a, long an, long b, long bn)
{
	long long x = (long long)a * bn, y = (long long)b * an;

	return (x > y) - (x < y);
}

enum sp_change_verdict
sp_change_of(const struct sp_asked_sets *sets, enum sp_flag f, double newest,
	     struct sp_change *c)
{
	const struct sp_asked_set *s;
	const struct sp_asked *since, *before = NULL;
	long i, ts, tb;

	memset(c, 0, sizeof *c);
	c->flag = f;
	c->verdict = SP_CHANGE_NONE;
	if (sets == NULL || (f != SP_FLAG_TIME && f != SP_FLAG_MEM) ||
	    !sp_positive(newest))
		return c->verdict;
	s = &sets->s[f == SP_FLAG_TIME ? SP_CHANGE_TIME : SP_CHANGE_MEM];
	if ((i = find(s, newest)) < 0)
		return c->verdict;
	since = &s->v[i];
	for (size_t k = 0; k < s->n; k++)
		if (&s->v[k] != since && (before == NULL ||
		    sp_order_cmp(&s->v[k].last, &before->last) > 0))
			before = &s->v[k];
	if (before == NULL || sp_order_cmp(&since->first, &before->last) <= 0)
		return c->verdict;
	c->before = before;
	c->since = since;
	c->raise = since->value > before->value;

	ts = sp_change_telling(f, since);
	tb = sp_change_telling(f, before);
	if (!c->raise && ts > 0 && share_cmp(ts, since->runs, tb,
					     before->runs) > 0)
		c->verdict = SP_CHANGE_HURT;
	else if (before->fails > 0 && since->fails > 0 &&
		 since->runs >= SP_CHANGE_MIN_SINCE &&
		 share_cmp(since->fails, since->runs, before->fails,
			   before->runs) >= 0)
		c->verdict = SP_CHANGE_NO_EFFECT;
	else if (c->raise && tb > 0 && since->fails == 0 &&
		 since->runs >= SP_CHANGE_MIN_SINCE)
		c->verdict = SP_CHANGE_HELD;
	return c->verdict;
}
