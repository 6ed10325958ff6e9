/*
 * machines.c - a workload's machines: the node table of sp-nodes (the
 * hang metric, this workload only), each node's rate with its Wilson 95%
 * interval drawn as a bar on one scale, the rate of every other placement
 * marked on it, and the verdict that survived Benjamini-Hochberg.  A node
 * with no bad placement draws no interval: a long bar beside 0.0% read as
 * a high rate, whatever its few trials allow.  A legend line says so.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "browse.h"

/* Cells of the bar; the scale ends at the widest interval, in tenths. */
#define BAR_CELLS	20

struct machines {
	struct sp_node_table tab;
	int have;
	double scale;		/* the rate at the bar's right end */
	size_t nodew;
};

static struct machines *
machines_state(struct browse *B, size_t wl, void **state)
{
	struct machines *s = *state;
	const char *key;
	long wi;

	if (s != NULL)
		return s;
	s = *state = sp_xcalloc(1, sizeof *s);
	key = sp_rollup_key(&B->m->ru, model_row(B->m, wl));
	wi = sp_nodes_find(B->m->nodes, key, strlen(key));
	s->nodew = 4;
	s->scale = 0.1;
	if (wi < 0)
		return s;
	sp_nodes_table(B->m->nodes, wi, &s->tab);
	s->have = 1;
	for (size_t i = 0; i < s->tab.nrows; i++) {
		const struct sp_node_row *r = &s->tab.rows[i];
		size_t w = strlen(r->node);

		if (w > s->nodew)
			s->nodew = w > 16 ? 16 : w;
		/* The tested rows set the scale: an untested node's
		 * interval is wide by its few placements, and is cut. */
		if ((s->tab.tested == 0 ||
		     r->s.verdict != SP_VERDICT_UNTESTED) &&
		    isfinite(r->s.ci_high) && r->s.ci_high > s->scale)
			s->scale = r->s.ci_high;
	}
	s->scale = ceil(s->scale * 10) / 10;
	if (s->scale > 1)
		s->scale = 1;
	return s;
}

/* One summary line and the legend, then a row a node. */
static size_t
count(struct browse *B, size_t wl, void **state)
{
	struct machines *s = machines_state(B, wl, state);

	return 1 + (s->have ? 1 + s->tab.nrows : 0);
}

static void
columns(struct browse *B, size_t wl, void **state, struct sp_buf *b)
{
	struct machines *s = machines_state(B, wl, state);

	text_cell(&B->term, b, "node", 4, s->nodew, 0);
	/* As wide as a row's cells, the bar's ends labelled. */
	sp_buf_printf(b, " %6s %4s %6s  0%%", "trials", "bad", "rate");
	for (int k = 0; k < BAR_CELLS - 6; k++)
		sp_buf_addc(b, ' ');
	sp_buf_printf(b, "%3.0f%%  verdict", s->scale * 100);
}

static int
cell_of(double rate, double scale)
{
	int c = (int)floor(rate / scale * BAR_CELLS);

	return c < 0 ? 0 : c >= BAR_CELLS ? BAR_CELLS - 1 : c;
}

/* The interval as solid cells on a faint track, the comparison a bar. */
static void
bar(struct browse *B, const struct sp_node_stat *st, double scale,
    struct sp_buf *b)
{
	int lo = cell_of(st->ci_low, scale), hi = cell_of(st->ci_high, scale);

	if (st->bad == 0)
		lo = BAR_CELLS, hi = -1;
	int cmp = isfinite(st->comparison) ? cell_of(st->comparison, scale) :
		  -1;

	for (int c = 0; c < BAR_CELLS; c++) {
		if (c == cmp && (c < lo || c > hi))
			sp_buf_adds(b, sp_term_glyph(&B->term, SP_G_BAR));
		else if (c >= lo && c <= hi)
			sp_buf_adds(b, sp_term_glyph(&B->term, SP_G_SOLID));
		else
			sp_buf_adds(b, sp_term_glyph(&B->term, SP_G_FAINT));
	}
}

static void
line(struct browse *B, size_t wl, void **state, size_t i, struct sp_buf *b)
{
	struct machines *s = machines_state(B, wl, state);
	const struct sp_node_row *r;
	struct sp_buf t = { 0 };
	enum sp_paint paint;

	if (i == 0) {
		if (!s->have) {
			sp_buf_adds(b, "No placement to judge: no run of this "
				    "workload names a node it ran on.");
			return;
		}
		sp_buf_printf(b, "%ld placements, %ld computed nothing, on "
			      "%zu nodes: %zu tested, %zu worse, %zu better",
			      s->tab.trials, s->tab.bad, s->tab.nrows,
			      s->tab.tested, s->tab.worse, s->tab.better);
		return;
	}
	if (i == 1) {
		sp_buf_printf(b, "bar: %s the rate's 95%% interval, %s the "
			      "other nodes' rate; no bad run: empty",
			      sp_term_glyph(&B->term, SP_G_SOLID),
			      sp_term_glyph(&B->term, SP_G_BAR));
		return;
	}
	r = &s->tab.rows[i - 2];
	sp_term_clean(&B->term, &t, r->node, strlen(r->node), 0);
	text_cell(&B->term, b, t.p ? t.p : "", t.len, s->nodew, 0);
	sp_buf_printf(b, " %6ld %4ld ", r->s.trials, r->s.bad);
	sp_buf_clear(&t);
	sp_fmt_percent(&t, r->s.rate);
	text_cell(&B->term, b, t.p, t.len, 6, 1);
	sp_buf_adds(b, "  ");
	paint = r->s.verdict == SP_VERDICT_WORSE ? SP_P_CRITICAL :
		r->s.verdict == SP_VERDICT_BETTER ? SP_P_GOOD : SP_P_NONE;
	sp_term_paint(&B->term, b, paint);
	bar(B, &r->s, s->scale, b);
	sp_term_paint(&B->term, b, SP_P_NONE);
	sp_buf_adds(b, "  ");
	sp_term_paint(&B->term, b, paint);
	sp_buf_adds(b, sp_node_verdict_name(r->s.verdict));
	sp_term_paint(&B->term, b, SP_P_NONE);
	sp_buf_free(&t);
}

static void
free_machines(void *state)
{
	struct machines *s = state;

	if (s->have)
		sp_node_table_free(&s->tab);
	free(s);
}

const struct pane_ops pane_machines = {
	"machines", 0, NULL, count, line, columns, NULL, free_machines
};
