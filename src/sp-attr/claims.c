/*
 * claims.c - every job id found, with the sources that claim it.
 *
 * A job id is kept once in an open-addressed table; its claims form a
 * chain in one array, in the order they were found.  A source claims an
 * id once per cluster it names (its earliest time kept), so the memory
 * grows with the ids found, never with the size of what was read.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "attr.h"

void
attr_claims_init(struct attr_claims *c)
{
	memset(c, 0, sizeof *c);
}

void
attr_claims_free(struct attr_claims *c)
{
	sp_intern_free(&c->sources);
	sp_intern_free(&c->dirs);
	sp_intern_free(&c->clusters);
	free(c->v);
	free(c->slot);
	memset(c, 0, sizeof *c);
}

static size_t
job_hash(uint32_t job, size_t mask)
{
	uint64_t h = (uint64_t)job * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & mask;
}

/* The slot of job: holding its first claim + 1, or 0 (free). */
static size_t *
job_slot(const struct attr_claims *c, uint32_t job)
{
	size_t mask = c->slotcap - 1, i;

	if (c->slotcap == 0)
		return NULL;
	for (i = job_hash(job, mask);; i = (i + 1) & mask)
		if (c->slot[i] == 0 || c->v[c->slot[i] - 1].job == job)
			return &c->slot[i];
}

static void
grow_slots(struct attr_claims *c)
{
	size_t old = c->slotcap, *was = c->slot;

	c->slotcap = old ? old * 2 : 1024;
	c->slot = sp_xcalloc(c->slotcap, sizeof *c->slot);
	for (size_t i = 0; i < old; i++)
		if (was[i] != 0)
			*job_slot(c, c->v[was[i] - 1].job) = was[i];
	free(was);
}

void
attr_claim_add(struct attr_claims *c, uint32_t job, const char *cluster,
	       size_t cluster_n, size_t source, long dir, int64_t at,
	       int at_known)
{
	long cl = cluster_n ? (long)sp_intern(&c->clusters, cluster,
					      cluster_n) : -1;
	struct attr_claim *x;
	size_t *slot, last = 0;

	if ((c->jobs + 1) * 2 > c->slotcap)
		grow_slots(c);
	slot = job_slot(c, job);
	for (size_t k = *slot; k != 0; k = c->v[k - 1].next) {
		x = &c->v[k - 1];
		last = k;
		if (x->source != source || x->cluster != cl)
			continue;
		if (at_known && (!x->at_known || at < x->at)) {
			x->at = at;
			x->at_known = 1;
			x->dir = dir;
		}
		return;
	}
	c->v = sp_xgrow(c->v, &c->cap, c->n + 1, sizeof *c->v);
	x = &c->v[c->n];
	x->job = job;
	x->cluster = cl;
	x->source = source;
	x->dir = dir;
	x->at = at_known ? at : 0;
	x->at_known = at_known;
	x->seen = c->n;
	x->next = 0;
	c->n++;
	if (last == 0) {
		*slot = c->n;
		c->jobs++;
	} else {
		c->v[last - 1].next = c->n;
	}
}

/* a is the better claim: timed before untimed, earlier, found first. */
static int
better(const struct attr_claim *a, const struct attr_claim *b)
{
	if (a->at_known != b->at_known)
		return a->at_known;
	if (a->at_known && a->at != b->at)
		return a->at < b->at;
	return a->seen < b->seen;
}

static int64_t
distance(int64_t a, int64_t b)
{
	return a > b ? a - b : b - a;
}

void
attr_claims_find(const struct attr_claims *c, uint32_t job,
		 const char *cluster, size_t cluster_n, int64_t submit,
		 int submit_known, struct attr_found *out)
{
	const size_t *slot = job_slot(c, job);
	/* A record's cluster no claim names matches only unnamed claims. */
	long cl = cluster_n ? sp_intern_find(&c->clusters, cluster,
					     cluster_n) : -1;
	int any = 0;

	memset(out, 0, sizeof *out);
	if (slot == NULL)
		return;
	for (size_t k = *slot; k != 0; k = c->v[k - 1].next) {
		const struct attr_claim *x = &c->v[k - 1];

		if (cluster_n && x->cluster >= 0 && x->cluster != cl)
			continue;
		any = 1;
		if (submit_known && x->at_known &&
		    distance(x->at, submit) > SP_ATTR_WINDOW_S)
			continue;
		if (out->claim == NULL || better(x, out->claim))
			out->claim = x;
	}
	out->far = any && out->claim == NULL;
	if (out->claim == NULL)
		return;
	/* A rival: another source whose claim applied as well. */
	for (size_t k = *slot; k != 0; k = c->v[k - 1].next) {
		const struct attr_claim *x = &c->v[k - 1];

		if (x->source == out->claim->source ||
		    (cluster_n && x->cluster >= 0 && x->cluster != cl) ||
		    (submit_known && x->at_known &&
		     distance(x->at, submit) > SP_ATTR_WINDOW_S))
			continue;
		out->rival = x;
		break;
	}
}

struct order {
	uint32_t job;
	const char *cluster;
	size_t seen;
};

static int
by_job(const void *pa, const void *pb)
{
	const struct order *a = pa, *b = pb;
	int k;

	if (a->job != b->job)
		return a->job < b->job ? -1 : 1;
	if ((a->cluster == NULL) != (b->cluster == NULL))
		return a->cluster == NULL ? -1 : 1;
	if (a->cluster && (k = strcmp(a->cluster, b->cluster)) != 0)
		return k;
	return a->seen < b->seen ? -1 : a->seen > b->seen;
}

size_t *
attr_claims_sorted(const struct attr_claims *c)
{
	struct order *o = sp_xcalloc(c->n, sizeof *o);
	size_t *idx = sp_xcalloc(c->n, sizeof *idx);

	for (size_t i = 0; i < c->n; i++) {
		o[i].job = c->v[i].job;
		o[i].cluster = c->v[i].cluster >= 0 ?
			       sp_intern_str(&c->clusters,
					     (size_t)c->v[i].cluster) : NULL;
		o[i].seen = i;
	}
	sp_sort(o, c->n, sizeof *o, by_job);
	for (size_t i = 0; i < c->n; i++)
		idx[i] = o[i].seen;
	free(o);
	return idx;
}

void
attr_claims_dump(const struct attr_claims *c, struct sp_buf *b)
{
	size_t *o = attr_claims_sorted(c);

	for (size_t i = 0; i < c->n; i++) {
		const struct attr_claim *x = &c->v[o[i]];

		sp_buf_printf(b, "%lu %s %s ", (unsigned long)x->job,
			      x->cluster >= 0 ? sp_intern_str(&c->clusters,
				  (size_t)x->cluster) : "-",
			      sp_intern_str(&c->sources, x->source));
		if (x->at_known)
			sp_fmt_time(b, x->at);
		else
			sp_buf_adds(b, "-");
		sp_buf_printf(b, " %s\n", x->dir >= 0 ?
			      sp_intern_str(&c->dirs, (size_t)x->dir) : "-");
	}
	free(o);
}

/*
 * A claim from the file being scanned, named by its session when the
 * line says one, else by the file; the scan and the JSON walk both make
 * them.
 */
void
attr_scan_claim(struct attr_scan *s, uint32_t job, const char *cluster,
		size_t cluster_n, const char *session, size_t session_n,
		const char *dir, size_t dir_n, int64_t at, int at_known)
{
	size_t source;
	long d = -1;

	if (session != NULL) {
		sp_buf_clear(&s->src);
		sp_buf_adds(&s->src, ATTR_SESSION_PREFIX);
		sp_buf_add(&s->src, session, session_n);
		source = sp_intern(&s->claims->sources, s->src.p, s->src.len);
		if (dir != NULL)
			d = (long)sp_intern(&s->claims->dirs, dir, dir_n);
	} else if (s->path_session >= 0) {
		source = (size_t)s->path_session;
	} else {
		source = s->path_source;
	}
	attr_claim_add(s->claims, job, cluster, cluster_n, source, d, at,
		       at_known);
}
