/*
 * advice.c - what the next submission should ask for.  By default the
 * changes: every raise first (a raise prevents the next failure), the
 * largest change first among its kind, then the holds (advice to leave a
 * request as it is and change something else), then the lowers; the
 * changes and the holds each up to their own count, so that a long list
 * of raises never hides a hold.  With --all, every verdict, workload by
 * workload in the rollup's order.  Each is a comment saying how many runs
 * it rests on and why, for --time and --mem one saying what the replay
 * measured (sp-size's risk), then the #SBATCH line to paste.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sp_units.h"

enum kind { RAISE, HOLD, LOWER, OTHER };

struct item {
	enum kind kind;
	double change;		/* how many times more, or less */
	size_t place;		/* the workload's place in the rollup */
	size_t seq;		/* the order read */
	char *text;		/* its lines, ready to print */
};

struct shelf {
	struct item *v;
	size_t n, cap, top;	/* top 0: every one */
	size_t total;
};

static int
before(const struct item *a, const struct item *b)
{
	if (a->kind != b->kind)
		return a->kind < b->kind;
	if (a->change != b->change)
		return a->change > b->change;
	if (a->place != b->place)
		return a->place < b->place;
	return a->seq < b->seq;
}

static int
by_rank(const void *x, const void *y)
{
	const struct item *a = x, *b = y;

	return before(a, b) ? -1 : before(b, a) ? 1 : 0;
}

/*
 * Whether an item is among the shelf's best so far: only those are
 * rendered (a million jobs give some 200,000 verdicts for a dozen lines).
 */
static int
wanted(const struct shelf *s, const struct item *it)
{
	return s->top == 0 || s->n < s->top || before(it, &s->v[s->n - 1]);
}

/* Keeps a wanted item, in place of the shelf's last when it is full. */
static void
shelve(struct shelf *s, struct item *it)
{
	size_t at;

	if (s->top == 0 || s->n < s->top) {
		s->v = sp_xgrow(s->v, &s->cap, s->n + 1, sizeof *s->v);
		at = s->n++;
	} else {
		free(s->v[s->n - 1].text);
		at = s->n - 1;
	}
	/* The whole list (top 0) is sorted once at the end instead. */
	while (s->top > 0 && at > 0 && before(it, &s->v[at - 1])) {
		s->v[at] = s->v[at - 1];
		at--;
	}
	s->v[at] = *it;
}

/* A request or a suggestion in one unit per flag: bytes, seconds, or a
 * count; NaN when it cannot be read. */
static double
amount(struct sp_slice flag, struct sp_slice text)
{
	const char *eq = memchr(text.p, '=', text.n);
	double v;
	char scope;

	if (eq != NULL) {
		text.n -= (size_t)(eq + 1 - text.p);
		text.p = eq + 1;
	}
	if (sp_slice_eq(flag, "--mem"))
		return sp_parse_mem(text.p, text.n, 1024.0 * 1024, 1, &v,
				    &scope) == SP_VAL_OK ? v : NAN;
	if (sp_slice_eq(flag, "--time"))
		return sp_parse_duration(text.p, text.n, &v) == SP_VAL_OK ?
		       v : NAN;
	return field_num(text);
}

struct acols {
	int key, wl, flag, runs, verdict, requested, suggestion, sbatch,
	    basis, caution, risk;
};

static void
resolve(struct acols *c, const struct sp_reader *r)
{
	c->key = sp_reader_need(r, "workload_key", "sp-group");
	c->wl = sp_reader_col(r, "workload");
	c->flag = sp_reader_need(r, "flag", "sp-size");
	c->runs = sp_reader_need(r, "runs", "sp-size");
	c->verdict = sp_reader_need(r, "verdict", "sp-size");
	c->requested = sp_reader_need(r, "requested_text", "sp-size");
	c->suggestion = sp_reader_need(r, "suggestion", "sp-size");
	c->sbatch = sp_reader_need(r, "sbatch", "sp-size");
	c->basis = sp_reader_need(r, "basis", "sp-size");
	c->caution = sp_reader_need(r, "caution", "sp-size");
	/* sp-size's older records had no risk: then none is said. */
	c->risk = sp_reader_col(r, "risk");
}

static enum kind
kind_of(struct sp_slice v)
{
	if (sp_slice_eq(v, "raise"))
		return RAISE;
	if (sp_slice_eq(v, "lower"))
		return LOWER;
	if (sp_slice_eq(v, "hold") || sp_slice_eq(v, "capped"))
		return HOLD;
	return OTHER;
}

/* "# name, 8 runs: raise --time from 00:35:00; why" and the #SBATCH line. */
static char *
render(const struct sp_reader *r, const struct acols *c,
       const struct labels *l, enum kind k)
{
	struct sp_buf b = { 0 };
	double runs = field_num(r->f[c->runs]);

	sp_buf_adds(&b, "# ");
	labels_name(l, &b, r->f[c->key], c->wl >= 0 ? r->f[c->wl] :
		    r->f[c->key]);
	if (!isnan(runs))
		sp_buf_printf(&b, ", %.0f run%s", runs, runs == 1 ? "" : "s");
	sp_buf_adds(&b, ": ");
	field_text(&b, r->f[c->verdict]);
	sp_buf_addc(&b, ' ');
	field_text(&b, r->f[c->flag]);
	if (r->f[c->requested].n > 0) {
		sp_buf_adds(&b, k == RAISE || k == LOWER ? " from " : " at ");
		field_text(&b, r->f[c->requested]);
	}
	sp_buf_adds(&b, "; ");
	field_text(&b, r->f[c->basis]);
	if (k == HOLD && r->f[c->caution].n > 0) {
		sp_buf_adds(&b, "; ");
		field_text(&b, r->f[c->caution]);
	}
	/* What the replay measured, its own line: the comment is long. */
	if (c->risk >= 0 && r->f[c->risk].n > 0) {
		sp_buf_adds(&b, "\n# ");
		field_text(&b, r->f[c->risk]);
	}
	if (r->f[c->sbatch].n > 0) {
		sp_buf_addc(&b, '\n');
		field_text(&b, r->f[c->sbatch]);
	}
	return b.p;	/* never NULL: "# " is in it; the item owns it now */
}

struct tally {
	struct sp_intern workloads, short_of_runs;
	size_t judged, refused;
};

/* Why there is nothing to show, in one line. */
static void
nothing(const struct tally *t, int all)
{
	size_t n = t->workloads.n, shorts = t->short_of_runs.n;

	if (n == 0)
		printf("No advice: no run has ended.\n");
	else if (t->judged == 0 && n == 1)
		printf("No advice yet: the one workload has fewer than the %d "
		       "usable runs a verdict needs.\n", SP_SIZE_MIN_RUNS);
	else if (t->judged == 0)
		printf("No advice yet: none of the %zu workloads has the %d "
		       "usable runs a verdict needs.\n", n, SP_SIZE_MIN_RUNS);
	else if (all)
		return;
	else if (shorts == 0)
		printf("Nothing to change: every request is within %.0f%% of "
		       "what its history supports.\n", SP_SIZE_CHANGE * 100);
	else
		printf("Nothing to change where the history suffices: every "
		       "request judged is within %.0f%% of what its history "
		       "supports; %zu of the %zu workloads %s a request with "
		       "fewer than the %d usable runs a verdict needs.\n",
		       SP_SIZE_CHANGE * 100, shorts, n,
		       shorts == 1 ? "has" : "have", SP_SIZE_MIN_RUNS);
}

static void
print_kind(const struct shelf *s, enum kind k)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].kind == k)
			printf("%s\n", s->v[i].text);
}

static void
shelf_free(struct shelf *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].text);
	free(s->v);
}

int
part_advice(const struct opts *o)
{
	struct labels l;
	struct sp_reader r;
	struct acols c;
	struct tally t;
	struct shelf changes = { 0 }, holds = { 0 };
	size_t seq = 0, left;
	struct shelf *shelf;

	memset(&t, 0, sizeof t);
	labels_load(&l, o);
	input_open(&r, o, IN_ADVICE);
	resolve(&c, &r);
	changes.top = o->all ? 0 : top_of(o, SP_REPORT_CHANGES);
	holds.top = o->all ? 0 : SP_REPORT_HOLDS;
	while (sp_next_or_die(&r)) {
		struct sp_slice key = r.f[c.key];
		enum kind k = kind_of(r.f[c.verdict]);
		long place = sp_intern_find(&l.keys, key.p, key.n);
		struct item it;

		sp_intern(&t.workloads, key.p, key.n);
		if (sp_slice_eq(r.f[c.verdict], "refuse")) {
			t.refused++;
			sp_intern(&t.short_of_runs, key.p, key.n);
			continue;
		}
		t.judged++;
		if (k == OTHER && !o->all)
			continue;
		it.kind = o->all ? OTHER : k;
		it.change = 1;
		it.place = place < 0 ? (size_t)-1 : (size_t)place;
		it.seq = seq++;
		if (!o->all && (k == RAISE || k == LOWER)) {
			double was = amount(r.f[c.flag], r.f[c.requested]);
			double will = amount(r.f[c.flag], r.f[c.suggestion]);

			if (was > 0 && will > 0)
				it.change = k == RAISE ? will / was :
					    was / will;
			/* Machines that fail the work: before any size. */
			if (sp_slice_eq(r.f[c.flag], "--exclude"))
				it.change = INFINITY;
		}
		shelf = k == HOLD && !o->all ? &holds : &changes;
		shelf->total++;
		if (!wanted(shelf, &it))
			continue;
		it.text = render(&r, &c, &l, k);
		shelve(shelf, &it);
	}
	sp_reader_close(&r);
	if (o->all)
		sp_sort(changes.v, changes.n, sizeof *changes.v, by_rank);
	if (changes.n + holds.n == 0)
		nothing(&t, o->all);
	if (o->all) {
		print_kind(&changes, OTHER);
		if (t.refused > 0 && t.judged > 0)
			printf("%zu refused: fewer than %d usable runs of the "
			       "workload\n", t.refused, SP_SIZE_MIN_RUNS);
	} else {
		print_kind(&changes, RAISE);
		print_kind(&holds, HOLD);
		print_kind(&changes, LOWER);
	}
	left = changes.total - changes.n + holds.total - holds.n;
	if (left > 0)
		printf("%zu more%s%s\n", left, o->more ? ": " : "",
		       o->more ? o->more : "");
	shelf_free(&changes);
	shelf_free(&holds);
	sp_intern_free(&t.workloads);
	sp_intern_free(&t.short_of_runs);
	labels_free(&l);
	return SP_EXIT_OK;
}
