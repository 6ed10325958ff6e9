/*
 * sp_histset.c - every workload of an input, by workload_key.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_histset.h"
#include "sp_intern.h"
#include "sp_seed.h"
#include "sp_units.h"

static int
cmp_double(double a, double b)
{
	return a < b ? -1 : a > b;
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
	w->key = sp_pool_str(&s->pool, key, n);
	w->keylen = (uint32_t)n;
	s->slot[i].idx = (uint32_t)++s->n;
	s->slot[i].hash = hash;
	return s->n - 1;
}

/* Packs run r into w's seeds; 0 when they would grow too large. */
static int
seed_add(struct sp_pool *pool, struct sp_wl *w, const struct sp_run *r)
{
	size_t len = w->seedlen;

	if (!sp_seed_put(pool, &w->seed, &len, r))
		return 0;
	w->seedlen = (unsigned)len;
	w->nseed++;
	return 1;
}

void
sp_histset_add(struct sp_histset *s, size_t i, const struct sp_job *j)
{
	struct sp_wl *w = &s->v[i];
	struct sp_run r, seeded;
	const unsigned char *p;
	char idbuf[SP_SEED_ID_BUF];

	if (sp_job_is_step(j))
		return;
	if (sp_job_is_open(j)) {
		w->open++;
		return;
	}
	if (isnan(j->elapsed_s)) {
		w->unusable++;
		return;
	}
	w->stateless += j->state.n == 0;
	sp_run_of(&r, j);
	if (w->h != NULL) {
		sp_hist_add_run(w->h, &r);
		return;
	}
	if (w->nseed < SP_SEEDS && seed_add(&s->pool, w, &r))
		return;
	w->h = new_hist(s);
	sp_hist_init_kept(w->h, &s->pool, w->key, w->keylen);
	p = w->seed;
	for (size_t k = 0; k < w->nseed; k++) {
		p = sp_seed_get(p, &seeded, idbuf);
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
			w->h->stateless = w->stateless;
			sp_hist_finish(w->h);
			w->compute = sp_hist_compute(w->h);
			continue;
		}
		/* Summed as a history would sum them. */
		p = w->seed;
		for (size_t k = 0; k < w->nseed; k++) {
			double g, c;

			p = sp_seed_compute(p, &g, &c);
			if (sp_positive(g))
				gpu_h += g;
			if (sp_positive(c))
				core_h += c;
		}
		w->compute = sp_compute(gpu_h, core_h);
	}
	/* The slots name positions: the set is read-only from here. */
	free(s->slot);
	s->slot = NULL;
	s->slotcap = 0;
	if (s->n > 1)
		sp_sort(s->v, s->n, sizeof *s->v, by_compute);
}

long
sp_histset_lookup(struct sp_histset *s, const char *key, size_t n)
{
	uint32_t hash = (uint32_t)sp_hash_bytes(key, n);
	size_t mask, i;

	if (s->n == 0)
		return -1;
	if (s->slot == NULL) {
		/* The finished order: index every workload once. */
		for (s->slotcap = 64; s->slotcap < s->n * 2; s->slotcap *= 2)
			;
		s->slot = sp_xcalloc(s->slotcap, sizeof *s->slot);
		mask = s->slotcap - 1;
		for (size_t k = 0; k < s->n; k++) {
			uint32_t h = (uint32_t)sp_hash_bytes(s->v[k].key,
							     s->v[k].keylen);

			for (i = h & mask; s->slot[i].idx; i = (i + 1) & mask)
				;
			s->slot[i].idx = (uint32_t)(k + 1);
			s->slot[i].hash = h;
		}
	}
	mask = s->slotcap - 1;
	for (i = hash & mask; s->slot[i].idx; i = (i + 1) & mask) {
		const struct sp_wl *w = &s->v[s->slot[i].idx - 1];

		if (s->slot[i].hash == hash && w->keylen == n &&
		    memcmp(w->key, key, n) == 0)
			return (long)s->slot[i].idx - 1;
	}
	return -1;
}

const struct sp_hist *
sp_histset_hist(struct sp_histset *s, size_t i)
{
	struct sp_wl *w = &s->v[i];
	struct sp_hist *h = &s->scratch;
	const unsigned char *p;
	char idbuf[SP_SEED_ID_BUF];

	if (w->h != NULL)
		return w->h;
	if (s->scratch_used) {
		sp_hist_drop_ids(h);
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
		sp_hist_init_kept(h, &s->pool, w->key, w->keylen);
		h->done_s = done;
		h->donecap = donecap;
		h->doneat = doneat;
		h->doneatcap = doneatcap;
		h->singles.v = singles;
		h->singles.cap = singlescap;
	} else {
		sp_hist_init_kept(h, &s->pool, w->key, w->keylen);
	}
	s->scratch_used = 1;
	p = w->seed;
	for (size_t k = 0; k < w->nseed; k++) {
		struct sp_run r;

		p = sp_seed_get(p, &r, idbuf);
		sp_hist_add_run(&s->scratch, &r);
	}
	sp_hist_finish(&s->scratch);
	s->scratch.open = w->open;
	s->scratch.unusable = w->unusable;
	s->scratch.stateless = w->stateless;
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
	sp_pool_free(&s->pool);
	memset(s, 0, sizeof *s);
}
