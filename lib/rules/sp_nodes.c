/*
 * sp_nodes.c - placements per (workload, node) and their judgement.
 *
 * Memory grows with workloads x nodes, never with jobs: a record adds to
 * counters and is forgotten.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sp_util.h"
#include "sp_const.h"
#include "sp_units.h"
#include "sp_hostlist.h"
#include "sp_stats.h"
#include "sp_record.h"
#include "sp_state.h"
#include "sp_job.h"
#include "sp_intern.h"
#include "sp_nodes.h"
#include "sp_pool.h"
#include "sp_workload.h"

/* ------------------------------------------------------------ judging */

const char *
sp_node_verdict_name(enum sp_node_verdict v)
{
	switch (v) {
	case SP_VERDICT_WORSE: return "worse";
	case SP_VERDICT_BETTER: return "better";
	case SP_VERDICT_INCONCLUSIVE: return "inconclusive";
	case SP_VERDICT_UNTESTED: break;
	}
	return "untested";
}

const char *
sp_node_metric_name(enum sp_node_metric m)
{
	return m == SP_METRIC_FAILURE ? "failure" : "hang";
}

int
sp_node_outcome(const struct sp_job *j, enum sp_node_metric m)
{
	/* Ends that say nothing about the machine the job ran on. */
	static const char *const silent[] = { "CANCELLED", "OUT_OF_MEMORY",
		"PREEMPTED", "REQUEUED", NULL };

	if (!sp_job_usable(j) || j->nodelist.n == 0 ||
	    sp_slice_eq(j->nodelist, "None assigned"))
		return -1;
	if (m == SP_METRIC_HANG) {
		if (!sp_job_hang_known(j))
			return SP_NODE_UNJUDGED;
		return sp_job_hang(j) && !sp_job_io_explains(j);
	}
	for (const char *const *s = silent; *s; s++)
		if (sp_job_state_is(j, *s))
			return -1;
	if (sp_job_failed(j))
		return 1;
	/* Only a completed run is a good placement: a state slurmpast does
	 * not know (a site's own, a newer Slurm's) is no success. */
	return sp_job_state_is(j, "COMPLETED") ? 0 : -1;
}

/* Does the interval leave the comparison on one side? */
static int
clears(const struct sp_node_stat *s)
{
	return s->ci_low > s->comparison || s->ci_high < s->comparison;
}

size_t
sp_node_judge(struct sp_node_stat *s, size_t n)
{
	long total = 0, bad = 0;
	double *p;
	unsigned char *reject;
	size_t *tested, ntested = 0, i;

	for (i = 0; i < n; i++) {
		total += s[i].trials;
		bad += s[i].bad;
	}
	tested = sp_xcalloc(n, sizeof *tested);
	for (i = 0; i < n; i++) {
		struct sp_node_stat *x = &s[i];
		long rest = total - x->trials, restbad = bad - x->bad;

		x->rate = x->trials > 0 ? (double)x->bad / x->trials : NAN;
		sp_wilson(x->bad, x->trials, SP_NODES_Z, &x->ci_low,
			  &x->ci_high);
		x->comparison = rest > 0 ? (double)restbad / rest : NAN;
		x->p = NAN;
		x->verdict = SP_VERDICT_UNTESTED;
		x->hold = SP_HOLD_NONE;
		if (x->trials < SP_NODES_MIN_TRIALS) {
			x->hold = SP_HOLD_THIN;
			continue;
		}
		if (rest <= 0) {
			x->hold = SP_HOLD_ALONE;
			continue;
		}
		x->p = sp_fisher_doubled(x->bad, x->trials - x->bad, restbad,
					 rest - restbad);
		x->verdict = SP_VERDICT_INCONCLUSIVE;
		tested[ntested++] = i;
	}
	p = sp_xcalloc(ntested, sizeof *p);
	reject = sp_xcalloc(ntested, 1);
	for (i = 0; i < ntested; i++)
		p[i] = s[tested[i]].p;
	sp_bh(p, ntested, SP_NODES_FDR, reject);
	for (i = 0; i < ntested; i++) {
		struct sp_node_stat *x = &s[tested[i]];

		/* Both gates: the corrected test and the interval. */
		if (reject[i] && x->rate > x->comparison &&
		    x->ci_low > x->comparison)
			x->verdict = SP_VERDICT_WORSE;
		else if (reject[i] && x->rate < x->comparison &&
			 x->ci_high < x->comparison)
			x->verdict = SP_VERDICT_BETTER;
		else if (reject[i])
			x->hold = SP_HOLD_INTERVAL;
		else if (clears(x))
			x->hold = SP_HOLD_CORRECTION;
	}
	free(p);
	free(reject);
	free(tested);
	return ntested;
}

/* ------------------------------------------------------------ the table */

/* 900k of these at 1M jobs: 32-bit numbers (sp_nodes_add refuses
 * more workloads or nodes than they hold). */
struct cell {
	uint32_t wl;
	uint32_t node;
	long trials;
	long bad;
	long unjudged;
	double bad_gpu_h;	/* NaN until a known value is added */
	unsigned long last;	/* the record that last placed here */
};

struct sp_nodes {
	enum sp_node_metric metric;
	long usable;
	long cut;
	unsigned long serial;

	struct sp_intern wlkeys;	/* workload_key -> wl[] */
	struct sp_nodes_workload *wl;
	size_t wlcap;
	struct sp_intern nodes;		/* node name -> number */
	struct sp_pool strs;		/* the workloads' users */

	/* (workload, node) -> cell[], open addressing, cell + 1 */
	struct cell *cell;
	size_t ncell, cellcap;
	size_t *slot;
	size_t slotcap;

	/* scratch, reused for every record */
	size_t *placed;		/* the cells one record placed into */
	size_t placedcap;
	struct sp_names names;
	struct sp_buf key;
	struct sp_buf fold;
};

static size_t
hash_pair(size_t a, size_t b)
{
	uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15ULL ^ (uint64_t)b;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	return (size_t)(h ^ (h >> 29));
}

/* Keeps the cell index at most half full. */
static void
cells_reserve(struct sp_nodes *t)
{
	size_t *old = t->slot, oldcap = t->slotcap, mask;

	if ((t->ncell + 1) * 2 <= t->slotcap)
		return;
	t->slotcap = oldcap ? oldcap * 2 : 256;
	t->slot = sp_xcalloc(t->slotcap, sizeof *t->slot);
	mask = t->slotcap - 1;
	for (size_t i = 0; i < oldcap; i++) {
		const struct cell *c;
		size_t j;

		if (old[i] == 0)
			continue;
		c = &t->cell[old[i] - 1];
		j = hash_pair(c->wl, c->node) & mask;
		while (t->slot[j] != 0)
			j = (j + 1) & mask;
		t->slot[j] = old[i];
	}
	free(old);
}

static struct cell *
cell_of(struct sp_nodes *t, size_t wl, size_t node)
{
	size_t mask, i;
	struct cell *c;

	cells_reserve(t);
	mask = t->slotcap - 1;
	for (i = hash_pair(wl, node) & mask; t->slot[i]; i = (i + 1) & mask) {
		c = &t->cell[t->slot[i] - 1];
		if (c->wl == wl && c->node == node)
			return c;
	}
	t->cell = sp_xgrow(t->cell, &t->cellcap, t->ncell + 1,
			   sizeof *t->cell);
	c = &t->cell[t->ncell];
	memset(c, 0, sizeof *c);
	c->wl = (uint32_t)wl;
	c->node = (uint32_t)node;
	c->bad_gpu_h = NAN;
	t->slot[i] = ++t->ncell;
	t->wl[wl].nnodes++;
	return c;
}

struct sp_nodes *
sp_nodes_new(enum sp_node_metric m)
{
	struct sp_nodes *t = sp_xcalloc(1, sizeof *t);

	t->metric = m;
	return t;
}

void
sp_nodes_free(struct sp_nodes *t)
{
	if (t == NULL)
		return;
	free(t->wl);
	sp_pool_free(&t->strs);
	sp_intern_free(&t->wlkeys);
	sp_intern_free(&t->nodes);
	free(t->cell);
	free(t->slot);
	free(t->placed);
	sp_names_free(&t->names);
	sp_buf_free(&t->key);
	sp_buf_free(&t->fold);
	free(t);
}

long
sp_nodes_usable(const struct sp_nodes *t)
{
	return t->usable;
}

long
sp_nodes_cut(const struct sp_nodes *t)
{
	return t->cut;
}

size_t
sp_nodes_nworkloads(const struct sp_nodes *t)
{
	return t->wlkeys.n;
}

const struct sp_nodes_workload *
sp_nodes_workload(const struct sp_nodes *t, size_t i)
{
	return i < t->wlkeys.n ? &t->wl[i] : NULL;
}

long
sp_nodes_find(const struct sp_nodes *t, const char *key, size_t n)
{
	return sp_intern_find(&t->wlkeys, key, n);
}

/*
 * The job's workload_key, or the one sp-group would give it, and its
 * folded name.  Both stay valid until the next record.
 */
static void
job_key(struct sp_nodes *t, const struct sp_job *j, struct sp_slice *key,
	struct sp_slice *workload)
{
	sp_buf_clear(&t->fold);
	if (j->workload.n > 0)
		sp_buf_add(&t->fold, j->workload.p, j->workload.n);
	else
		sp_workload_fold(&t->fold, j->name.p, j->name.n);
	*workload = (struct sp_slice){ sp_buf_str(&t->fold), t->fold.len };
	if (j->workload_key.n > 0) {
		*key = j->workload_key;
		return;
	}
	sp_buf_clear(&t->key);
	sp_workload_key(&t->key, j->user.p, j->user.n, j->partition.p,
			j->partition.n, sp_job_gpu_kind(j), workload->p,
			workload->n);
	*key = (struct sp_slice){ sp_buf_str(&t->key), t->key.len };
}

static size_t
workload_id(struct sp_nodes *t, struct sp_slice key, struct sp_slice user,
	    struct sp_slice workload)
{
	size_t before = t->wlkeys.n, i = sp_intern(&t->wlkeys, key.p, key.n);
	struct sp_nodes_workload *w;
	size_t n;

	if (t->wlkeys.n == before)
		return i;
	t->wl = sp_xgrow(t->wl, &t->wlcap, t->wlkeys.n, sizeof *t->wl);
	w = &t->wl[i];
	memset(w, 0, sizeof *w);
	w->key = t->wlkeys.e[i].s;
	/* Every string of a workload is kept to the end, so the users go
	 * to a pool; the workload is nearly always the key's last part,
	 * NUL-terminated already (the key never moves). */
	w->user = (char *)sp_pool_str(&t->strs, user.p, user.n);
	n = t->wlkeys.e[i].n;
	if (workload.n <= n && (workload.n == n ||
	    w->key[n - workload.n - 1] == '/') &&
	    memcmp(w->key + n - workload.n, workload.p, workload.n) == 0)
		w->workload = w->key + n - workload.n;
	else
		w->workload = (char *)sp_pool_str(&t->strs, workload.p,
						     workload.n);
	return i;
}

int
sp_nodes_add(struct sp_nodes *t, const struct sp_job *j)
{
	struct sp_slice key, workload;
	struct sp_nodes_workload *w;
	size_t wi, i, nplaced = 0;
	double gpu_h;
	int bad;

	if (!sp_job_usable(j))
		return 0;
	t->usable++;
	bad = sp_node_outcome(j, t->metric);
	if (bad < 0 && bad != SP_NODE_UNJUDGED)
		return 0;
	sp_names_clear(&t->names);
	/* Past SP_HOSTLIST_MAX names the first ones still count. */
	if (sp_hostlist_expand(j->nodelist.p, j->nodelist.n, &t->names) < 0)
		t->cut++;
	if (t->names.n == 0)
		return 0;
	job_key(t, j, &key, &workload);
	wi = workload_id(t, key, j->user, workload);
	t->serial++;
	/* Cell numbers, not pointers: the cell array may move as it grows. */
	t->placed = sp_xgrow(t->placed, &t->placedcap, t->names.n,
			     sizeof *t->placed);
	for (i = 0; i < t->names.n; i++) {
		const char *name = sp_names_at(&t->names, i);
		size_t ni = sp_intern(&t->nodes, name, strlen(name));
		struct cell *c;

		if (wi >= UINT32_MAX || ni >= UINT32_MAX)
			sp_die(SP_EXIT_USAGE, "too many workloads or nodes");
		c = cell_of(t, wi, ni);

		if (c->last == t->serial)
			continue;
		c->last = t->serial;
		/* Placed, so the node shows, but in no count of the test. */
		if (bad == SP_NODE_UNJUDGED) {
			c->unjudged++;
			continue;
		}
		c->trials++;
		c->bad += bad;
		t->placed[nplaced++] = (size_t)(c - t->cell);
	}
	if (bad == SP_NODE_UNJUDGED) {
		t->wl[wi].unjudged_runs++;
		return 0;
	}
	t->wl[wi].trials += (long)nplaced;
	t->wl[wi].bad += bad * (long)nplaced;
	/* A bad run's GPU-hours, shared evenly by the nodes it held. */
	gpu_h = sp_job_gpu_hours(j);
	if (bad && !isnan(gpu_h)) {
		for (i = 0; i < nplaced; i++) {
			struct cell *c = &t->cell[t->placed[i]];

			c->bad_gpu_h = (isnan(c->bad_gpu_h) ? 0 : c->bad_gpu_h) +
				       gpu_h / (double)nplaced;
		}
	}
	w = &t->wl[wi];
	w->runs++;
	w->bad_runs += bad;
	return 1;
}

long
sp_nodes_dominant(const struct sp_nodes *t)
{
	long best = -1;

	for (size_t i = 0; i < t->wlkeys.n; i++) {
		const struct sp_nodes_workload *w = &t->wl[i], *b;
		long wr, br;

		if (best < 0) {
			best = (long)i;
			continue;
		}
		b = &t->wl[best];
		/* Runs the metric could not judge still say what the
		 * record is mostly made of. */
		wr = w->runs + w->unjudged_runs;
		br = b->runs + b->unjudged_runs;
		if (w->bad_runs > b->bad_runs ||
		    (w->bad_runs == b->bad_runs && wr > br) ||
		    (w->bad_runs == b->bad_runs && wr == br &&
		     strcmp(w->key, b->key) < 0))
			best = (long)i;
	}
	return best;
}

/* Tested rows first; then the highest rate, the most trials, the name. */
static int
by_row(const void *va, const void *vb)
{
	const struct sp_node_row *a = va, *b = vb;
	int ta = a->s.verdict != SP_VERDICT_UNTESTED;
	int tb = b->s.verdict != SP_VERDICT_UNTESTED;

	if (ta != tb)
		return tb - ta;
	/* No judged placement, no rate: those rows go last. */
	if (isnan(a->s.rate) != isnan(b->s.rate))
		return isnan(a->s.rate) ? 1 : -1;
	if (!isnan(a->s.rate) && a->s.rate != b->s.rate)
		return a->s.rate < b->s.rate ? 1 : -1;
	if (a->s.trials != b->s.trials)
		return a->s.trials < b->s.trials ? 1 : -1;
	if (a->unjudged != b->unjudged)
		return a->unjudged < b->unjudged ? 1 : -1;
	return strcmp(a->node, b->node);
}

void
sp_nodes_table(const struct sp_nodes *t, long wi, struct sp_node_table *out)
{
	struct sp_node_stat *st;
	size_t *row_of, i, n = 0;

	memset(out, 0, sizeof *out);
	/* row_of[node] = row + 1, so a pooled table sums a node's cells. */
	row_of = sp_xcalloc(t->nodes.n, sizeof *row_of);
	out->rows = sp_xcalloc(t->nodes.n, sizeof *out->rows);
	st = sp_xcalloc(t->nodes.n, sizeof *st);
	for (i = 0; i < t->ncell; i++) {
		const struct cell *c = &t->cell[i];

		if (wi >= 0 && c->wl != (size_t)wi)
			continue;
		if (row_of[c->node] == 0) {
			out->rows[n].node = t->nodes.e[c->node].s;
			out->rows[n].node_id = c->node;
			out->rows[n].bad_gpu_h = NAN;
			row_of[c->node] = ++n;
		}
		if (!isnan(c->bad_gpu_h)) {
			double *h = &out->rows[row_of[c->node] - 1].bad_gpu_h;

			*h = (isnan(*h) ? 0 : *h) + c->bad_gpu_h;
		}
		out->rows[row_of[c->node] - 1].unjudged += c->unjudged;
		st[row_of[c->node] - 1].trials += c->trials;
		st[row_of[c->node] - 1].bad += c->bad;
	}
	out->nrows = n;
	out->tested = sp_node_judge(st, n);
	for (i = 0; i < n; i++) {
		out->rows[i].s = st[i];
		if (st[i].bad == 0 && st[i].trials > 0)
			out->rows[i].bad_gpu_h = 0;
		out->trials += st[i].trials;
		out->unjudged += out->rows[i].unjudged;
		out->bad += st[i].bad;
		switch (st[i].verdict) {
		case SP_VERDICT_WORSE: out->worse++; break;
		case SP_VERDICT_BETTER: out->better++; break;
		case SP_VERDICT_UNTESTED: out->untested++; break;
		case SP_VERDICT_INCONCLUSIVE: break;
		}
		if (st[i].hold == SP_HOLD_CORRECTION ||
		    st[i].hold == SP_HOLD_INTERVAL)
			out->held_back++;
	}
	for (i = 0; i < t->wlkeys.n; i++) {
		if (wi >= 0 && i != (size_t)wi)
			continue;
		out->runs += t->wl[i].runs;
		out->bad_runs += t->wl[i].bad_runs;
		out->unjudged_runs += t->wl[i].unjudged_runs;
	}
	sp_sort(out->rows, n, sizeof *out->rows, by_row);
	free(st);
	free(row_of);
}

void
sp_node_table_free(struct sp_node_table *tab)
{
	free(tab->rows);
	memset(tab, 0, sizeof *tab);
}

/* ------------------------------------------------- the note for sp-show */

struct sp_node_history {
	struct sp_nodes *t;
	/* Judged tables per workload, built on demand, dropped on add. */
	struct sp_node_table *table;
	unsigned char *built;
	size_t ntable;
};

struct sp_node_history *
sp_node_history_new(void)
{
	struct sp_node_history *h = sp_xcalloc(1, sizeof *h);

	h->t = sp_nodes_new(SP_METRIC_FAILURE);
	return h;
}

static void
history_drop_tables(struct sp_node_history *h)
{
	for (size_t i = 0; i < h->ntable; i++)
		if (h->built[i])
			sp_node_table_free(&h->table[i]);
	free(h->table);
	free(h->built);
	h->table = NULL;
	h->built = NULL;
	h->ntable = 0;
}

void
sp_node_history_add(struct sp_node_history *h, const struct sp_job *j)
{
	if (h->ntable)
		history_drop_tables(h);
	sp_nodes_add(h->t, j);
}

static const struct sp_node_table *
history_table(struct sp_node_history *h, long wi)
{
	if (h->ntable != sp_nodes_nworkloads(h->t)) {
		history_drop_tables(h);
		h->ntable = sp_nodes_nworkloads(h->t);
		h->table = sp_xcalloc(h->ntable, sizeof *h->table);
		h->built = sp_xcalloc(h->ntable, 1);
	}
	if (!h->built[(size_t)wi]) {
		sp_nodes_table(h->t, wi, &h->table[(size_t)wi]);
		h->built[(size_t)wi] = 1;
	}
	return &h->table[(size_t)wi];
}

int
sp_node_history_note(struct sp_node_history *h, const struct sp_job *j,
		     struct sp_buf *out)
{
	struct sp_nodes *t = h->t;
	const struct sp_node_table *tab;
	const struct sp_nodes_workload *w;
	struct sp_slice key, workload;
	long wi;

	if (sp_nodes_usable(t) <= SP_NODES_NOTE_MIN_HISTORY ||
	    j->nodelist.n == 0)
		return 0;
	job_key(t, j, &key, &workload);
	wi = sp_nodes_find(t, key.p, key.n);
	if (wi < 0)
		return 0;
	w = sp_nodes_workload(t, (size_t)wi);
	tab = history_table(h, wi);
	if (tab->worse == 0)
		return 0;
	sp_names_clear(&t->names);
	(void)sp_hostlist_expand(j->nodelist.p, j->nodelist.n, &t->names);
	/* The job's nodes in its own order: the first worse one speaks. */
	for (size_t i = 0; i < t->names.n; i++) {
		const char *name = sp_names_at(&t->names, i);

		for (size_t r = 0; r < tab->nrows; r++) {
			const struct sp_node_row *row = &tab->rows[r];

			if (row->s.verdict != SP_VERDICT_WORSE ||
			    strcmp(row->node, name) != 0)
				continue;
			sp_buf_printf(out, "%s failed %ld of %ld placements "
				      "there (", name, row->s.bad,
				      row->s.trials);
			sp_fmt_percent(out, row->s.rate);
			sp_buf_adds(out, ", 95% CI ");
			sp_fmt_percent(out, row->s.ci_low);
			sp_buf_adds(out, " to ");
			sp_fmt_percent(out, row->s.ci_high);
			sp_buf_adds(out, ") against ");
			sp_fmt_percent(out, row->s.comparison);
			sp_buf_printf(out, " over %ld placements on every "
				      "other node for %s", tab->trials -
				      row->s.trials, w->workload);
			return 1;
		}
	}
	return 0;
}

void
sp_node_history_free(struct sp_node_history *h)
{
	if (h == NULL)
		return;
	history_drop_tables(h);
	sp_nodes_free(h->t);
	free(h);
}

enum sp_node_metric
sp_nodes_metric(const struct sp_nodes *t)
{
	return t->metric;
}
