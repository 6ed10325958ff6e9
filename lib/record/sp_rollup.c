/*
 * sp_rollup.c - every workload of a history summed into one row.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_const.h"
#include "sp_rollup.h"
#include "sp_workload.h"

const char *const sp_rollup_sort_names[] = { "cost", "failures", "rate",
	"recent", "runs", "name", NULL };

void
sp_rollup_init(struct sp_rollup *ru)
{
	memset(ru, 0, sizeof *ru);
}

static struct sp_rollup_wl *
workload(struct sp_rollup *ru, const char *key, size_t n)
{
	size_t i = sp_intern(&ru->keys, key, n);

	if (i == ru->n) {
		ru->v = sp_xgrow(ru->v, &ru->cap, ru->n + 1, sizeof *ru->v);
		memset(&ru->v[i], 0, sizeof ru->v[i]);
		ru->v[i].key = i;
		ru->n++;
	}
	return &ru->v[i];
}

/* Counts a name once per workload; returns the name as kept. */
static const char *
count_name(struct sp_rollup *ru, struct sp_rollup_wl *w, struct sp_slice name)
{
	struct sp_buf *scratch = &ru->scratch;
	size_t before = ru->names.n, id, prefix;

	/* One table for every workload: "number/name" (digits by hand:
	 * this runs once a record). */
	char digits[32], *d = digits + sizeof digits;
	size_t k = w->key;

	/* Runs of a workload mostly share a name: no lookup for a repeat. */
	if (w->last_name != NULL && name.n == w->last_name_n &&
	    memcmp(name.p, w->last_name, name.n) == 0)
		return w->last_name;

	*--d = '/';
	do
		*--d = (char)('0' + k % 10);
	while ((k /= 10) != 0);
	sp_buf_clear(scratch);
	sp_buf_add(scratch, d, (size_t)(digits + sizeof digits - d));
	prefix = scratch->len;
	sp_buf_add(scratch, name.p, name.n);
	id = sp_intern(&ru->names, scratch->p, scratch->len);
	if (ru->names.n > before)
		w->names++;
	w->last_name = sp_intern_str(&ru->names, id) + prefix;
	w->last_name_n = name.n;
	return w->last_name;
}

static void
add_run(struct sp_rollup *ru, struct sp_rollup_wl *w, const struct sp_job *j)
{
	struct sp_order o;
	double gh = sp_job_gpu_hours(j), ch = sp_job_core_hours(j);
	int64_t first, last;
	int first_known, last_known;
	/* noop is sp-hang's rule: a state that explains it is no hang. */
	int failed = sp_job_failed(j), noop = sp_job_hang(j);
	const char *name;

	w->runs++;
	w->stateless += j->state.n == 0;
	w->completed += sp_job_state_is(j, "COMPLETED");
	w->failed += failed;
	w->cancelled += sp_job_state_is(j, "CANCELLED");
	w->noop += noop;
	if (sp_job_hang_known(j)) {
		w->hang_judged++;
		w->hang_judged_long += j->elapsed_s > SP_NOOP_MIN_ELAPSED_S &&
				       !isnan(j->total_cpu_s);
	} else if (sp_job_usable(j)) {
		w->hang_unjudged++;
		w->hang_maybe += sp_job_noop(j);
	}
	w->problems += failed || noop;
	if (!isnan(gh)) {
		w->gpu_h += gh;
		w->gpu_known = 1;
	}
	if (!isnan(ch)) {
		w->core_h += ch;
		w->core_known = 1;
	}
	first_known = j->start_known || j->submit_known;
	first = j->start_known ? j->start_t : j->submit_t;
	last_known = j->end_known || first_known;
	last = j->end_known ? j->end_t : first;
	if (first_known && (!w->first_known || first < w->first)) {
		w->first = first;
		w->first_known = 1;
	}
	if (last_known && (!w->last_known || last > w->last)) {
		w->last = last;
		w->last_known = 1;
	}
	w->nameless += j->name.n == 0;
	name = count_name(ru, w, j->name);
	sp_order_of(&o, j);
	if (!w->have_newest || sp_order_cmp(&o, &w->newest) > 0) {
		w->newest = o;
		w->have_newest = 1;
		w->newest_name = name;
	}
}

long
sp_rollup_add(struct sp_rollup *ru, const char *key, size_t n,
	      const struct sp_job *j)
{
	struct sp_rollup_wl *w;

	if (sp_job_is_step(j))
		return -1;
	if (sp_job_is_open(j)) {
		ru->open++;
		return -1;
	}
	if (!sp_job_usable(j)) {
		ru->unusable++;
		return -1;
	}
	w = workload(ru, key, n);
	add_run(ru, w, j);
	return (long)w->key;
}

void
sp_rollup_finish(struct sp_rollup *ru)
{
	ru->total = 0;
	for (size_t i = 0; i < ru->n; i++) {
		struct sp_rollup_wl *x = &ru->v[i];
		long decided = x->completed + x->failed;

		x->compute = sp_compute(x->gpu_h, x->core_h);
		x->fail_rate = decided ? (double)x->failed / decided : 0;
		/* Over the runs that could be judged: unknown is not 0. */
		x->noop_rate = x->hang_judged ?
			       (double)x->noop / x->hang_judged : 0;
		x->keystr = sp_rollup_key(ru, x);
		ru->total += x->compute;
	}
	for (size_t i = 0; i < ru->n; i++)
		ru->v[i].share = ru->total > 0 ? ru->v[i].compute / ru->total :
				 NAN;
}

static int
cmp_num(double a, double b)
{
	return a < b ? -1 : a > b;
}

const char *
sp_rollup_key(const struct sp_rollup *ru, const struct sp_rollup_wl *w)
{
	return sp_intern_str(&ru->keys, w->key);
}

const char *
sp_rollup_key_workload(const char *key)
{
	const char *p = key;

	for (int k = 0; k < 3; k++) {
		const char *s = strchr(p, '/');

		if (s == NULL)
			return key;
		p = s + 1;
	}
	return p;
}

static int
cmp_lower(const char *a, const char *b)
{
	for (;; a++, b++) {
		int x = (unsigned char)*a, y = (unsigned char)*b;

		if (x >= 'A' && x <= 'Z')
			x += 'a' - 'A';
		if (y >= 'A' && y <= 'Z')
			y += 'a' - 'A';
		if (x != y || x == 0)
			return x - y;
	}
}

static int
by_sort(const void *pa, const void *pb)
{
	const struct sp_rollup_wl *a = pa, *b = pb;
	const char *ka = a->keystr, *kb = b->keystr;
	int c = 0;

	switch (a->sort) {
	case SP_ROLLUP_COST:
		if ((c = -cmp_num(a->compute, b->compute)) == 0)
			c = -cmp_num(a->runs, b->runs);
		break;
	case SP_ROLLUP_FAILURES:
		if ((c = -cmp_num(a->problems, b->problems)) == 0)
			c = -cmp_num(a->compute, b->compute);
		break;
	case SP_ROLLUP_RATE:
		if ((c = -cmp_num(a->fail_rate, b->fail_rate)) == 0)
			c = -cmp_num(a->runs, b->runs);
		break;
	case SP_ROLLUP_RECENT:
		if ((c = -cmp_num((double)a->last, (double)b->last)) == 0)
			c = strcmp(sp_rollup_key_workload(ka),
				   sp_rollup_key_workload(kb));
		break;
	case SP_ROLLUP_RUNS:
		if ((c = -cmp_num(a->runs, b->runs)) == 0)
			c = strcmp(sp_rollup_key_workload(ka),
				   sp_rollup_key_workload(kb));
		break;
	case SP_ROLLUP_NAME:
		c = cmp_lower(sp_rollup_key_workload(ka),
			      sp_rollup_key_workload(kb));
		break;
	}
	/* The key last, so the order never depends on the input's. */
	return c ? c : strcmp(ka, kb);
}

void
sp_rollup_sort(struct sp_rollup *ru, enum sp_rollup_sort by)
{
	for (size_t i = 0; i < ru->n; i++)
		ru->v[i].sort = by;
	sp_sort(ru->v, ru->n, sizeof *ru->v, by_sort);
}

int
sp_rollup_noop_known(const struct sp_rollup_wl *w)
{
	/* A run that computed nothing, its state unknown, may be a hang. */
	if (w->hang_maybe > 0)
		return 0;
	return w->hang_judged_long || (w->hang_judged && !w->hang_unjudged);
}

void
sp_rollup_label(struct sp_buf *b, const struct sp_rollup_wl *w,
		const char *workload)
{
	const char *newest = w->newest_name ? w->newest_name : "";

	if (w->names == 1 && *newest != '\0') {
		sp_buf_adds(b, newest);
	} else if (!sp_workload_has_letter(workload, strlen(workload)) &&
		   *newest != '\0') {
		if (w->names > 1)
			sp_buf_printf(b, "%s+%ld", newest, w->names - 1);
		else
			sp_buf_adds(b, newest);
	} else {
		sp_buf_adds(b, workload);
	}
}

void
sp_rollup_free(struct sp_rollup *ru)
{
	free(ru->v);
	sp_intern_free(&ru->keys);
	sp_intern_free(&ru->names);
	sp_buf_free(&ru->scratch);
}
