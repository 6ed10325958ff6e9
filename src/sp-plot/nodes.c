/*
 * nodes.c - the article's figure 11: the rate of bad placements of one
 * workload on each machine, with its Wilson interval and the same
 * workload's rate on every other machine (the machine under test left
 * out), the machines sp-nodes judged worse or better marked (node
 * records).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

/* More tested machines than this are cut, the worst kept. */
#define NODES_ROWS_MAX	30

enum verdict { V_WORSE, V_BETTER, V_INCONCLUSIVE, V_OTHER };

struct node {
	double trials, bad, rate, lo, hi, comparison;
	enum verdict v;
	const char *name;
};

struct nodes {
	struct node *v;
	size_t n, cap;
	double untested, unknown, more, placements;
	size_t worse, better;
	const char *workload, *user;
	int pooled;
};

static enum verdict
verdict_of(struct sp_slice s)
{
	if (sp_slice_eq(s, "worse"))
		return V_WORSE;
	if (sp_slice_eq(s, "better"))
		return V_BETTER;
	if (sp_slice_eq(s, "inconclusive"))
		return V_INCONCLUSIVE;
	return V_OTHER;
}

static void
read_nodes(struct sp_reader *r, struct nodes *t, struct svg *g)
{
	const char *stage = "sp-nodes";
	int cnode = sp_reader_need(r, "node", stage);
	int ctrials = sp_reader_need(r, "trials", stage);
	int cbad = sp_reader_need(r, "bad", stage);
	int crate = sp_reader_need(r, "rate", stage);
	int clo = sp_reader_need(r, "ci_low", stage);
	int chi = sp_reader_need(r, "ci_high", stage);
	int ccmp = sp_reader_need(r, "comparison", stage);
	int cverdict = sp_reader_need(r, "verdict", stage);
	int cwl = sp_reader_col(r, "workload");
	int cuser = sp_reader_col(r, "user");

	memset(t, 0, sizeof *t);
	while (sp_next_or_die(r)) {
		struct node x = { 0 };

		if (!t->workload && cwl >= 0) {
			t->workload = plot_keep(g, r->f[cwl], PLOT_LABEL_MAX);
			t->pooled = sp_slice_eq(r->f[cwl], "*");
		}
		if (!t->user && cuser >= 0)
			t->user = plot_keep(g, r->f[cuser], 12);
		x.v = verdict_of(r->f[cverdict]);
		if (plot_num(r, ctrials, &x.trials) == 1)
			t->placements += x.trials;
		if (x.v == V_OTHER) {
			t->untested++;
			continue;
		}
		if (plot_num(r, crate, &x.rate) != 1 ||
		    plot_num(r, clo, &x.lo) != 1 ||
		    plot_num(r, chi, &x.hi) != 1) {
			t->unknown++;
			continue;
		}
		if (plot_num(r, ccmp, &x.comparison) != 1)
			x.comparison = NAN;
		if (plot_num(r, cbad, &x.bad) != 1)
			x.bad = NAN;
		/* sp-nodes writes the worst first: the cut keeps them. */
		if (t->n == NODES_ROWS_MAX) {
			t->more++;
			continue;
		}
		t->worse += x.v == V_WORSE;
		t->better += x.v == V_BETTER;
		x.name = plot_keep(g, r->f[cnode], 16);
		t->v = plot_grow(g, t->v, &t->cap, t->n + 1, sizeof *t->v);
		t->v[t->n++] = x;
	}
}

static void
draw(struct svg *g, const struct nodes *t)
{
	static const enum mark marks[] = { MARK_TRIANGLE, MARK_SQUARE,
					   MARK_CIRCLE };
	static const enum ink inks[] = { INK_VERMILLION, INK_BLUE, INK_MUTED };
	static const char *const words[] = { "worse", "better", "" };
	static const char *const classes[] = { "node worse", "node better",
					       "node inconclusive" };
	double left = 90, right = PLOT_WIDTH - 110, top = 44, rowh = 18;
	double most = 0, xtop, x;
	double bottom = top + rowh * (double)t->n + 4;
	struct scale sx;
	struct tick xt[8];
	size_t nx;

	for (size_t i = 0; i < t->n; i++)
		most = fmax(most, fmax(t->v[i].hi, t->v[i].comparison));
	nx = ticks_linear(xt, 6, 0, most, fmt_share, &xtop);
	scale_linear(&sx, 0, xtop, left, right);
	axis_x(g, &sx, bottom, top - 6, xt, nx,
	       "rate of bad placements, with its 95% Wilson interval");
	for (size_t i = 0; i < t->n; i++) {
		const struct node *n = &t->v[i];
		double y = top + rowh * (double)i + rowh / 2;
		double xl = scale_at(&sx, n->lo), xh = scale_at(&sx, n->hi);
		struct sp_buf tip = { 0 };

		sp_buf_printf(&tip, "%s: %.0f of %.0f placements bad (", n->name,
			      n->bad, n->trials);
		sp_fmt_percent(&tip, n->rate);
		sp_buf_adds(&tip, "), every other machine ");
		sp_fmt_percent(&tip, n->comparison);
		if (n->v != V_INCONCLUSIVE)
			sp_buf_printf(&tip, ": %s", words[n->v]);
		svg_group(g, classes[n->v], sp_buf_str(&tip));
		sp_buf_free(&tip);
		svg_text(g, left - 10, y + 4, ANCHOR_END, PLOT_SMALL,
			 n->v == V_WORSE, INK_TEXT, n->name);
		svg_line(g, xl, y, xh, y, INK_AXIS, 1.5, 0);
		svg_line(g, xl, y - 4, xl, y + 4, INK_AXIS, 1.5, 0);
		svg_line(g, xh, y - 4, xh, y + 4, INK_AXIS, 1.5, 0);
		if (!isnan(n->comparison)) {
			double xc = scale_at(&sx, n->comparison);

			svg_line(g, xc, y - 7, xc, y + 7, INK_ORANGE, 3, 0);
		}
		svg_mark(g, marks[n->v], scale_at(&sx, n->rate), y, 4.5,
			 inks[n->v]);
		if (isnan(n->bad))
			svg_textf(g, right + 8, y + 4, ANCHOR_START, PLOT_SMALL,
				  0, INK_MUTED, "n/a of %.0f", n->trials);
		else
			svg_textf(g, right + 8, y + 4, ANCHOR_START, PLOT_SMALL,
				  0, INK_MUTED, "%.0f of %.0f", n->bad,
				  n->trials);
		if (n->v != V_INCONCLUSIVE)
			svg_text(g, right + 70, y + 4, ANCHOR_START,
				 PLOT_SMALL, 1, inks[n->v], words[n->v]);
		svg_group_end(g);
	}
	x = legend_mark(g, PLOT_MARGIN, 12, MARK_TRIANGLE, INK_VERMILLION,
			"worse");
	x = legend_mark(g, x, 12, MARK_SQUARE, INK_BLUE, "better");
	x = legend_mark(g, x, 12, MARK_CIRCLE, INK_MUTED, "inconclusive");
	svg_line(g, x + 5, 5, x + 5, 15, INK_ORANGE, 3, 0);
	svg_text(g, x + 14, 12, ANCHOR_START, PLOT_SMALL, 0, INK_TEXT,
		 "every other machine");
}

PLOT_KIND(nodes)
{
	struct nodes t;

	(void)o;
	read_nodes(r, &t, g);
	if (t.n == 0) {
		if (t.untested == 1)
			sp_buf_adds(why, "no machine was tested: the one "
				    "machine had too few placements, or nothing "
				    "to compare with");
		else if (t.untested > 1)
			sp_buf_printf(why, "no machine was tested: all %.0f "
				      "had too few placements, or nothing to "
				      "compare with", t.untested);
		else
			sp_buf_adds(why, "no node record to draw");
		return 0;
	}
	draw(g, &t);
	sp_buf_adds(title, "Bad placements by machine");
	if (t.pooled)
		sp_buf_adds(title, ": every workload pooled");
	else if (t.workload)
		sp_buf_printf(title, ": %s%s%s%s", t.workload,
			      t.user ? " (" : "", t.user ? t.user : "",
			      t.user ? ")" : "");
	sp_buf_printf(caption, "From sp-nodes: how often one workload's "
		      "placements on each machine went bad (computed nothing, "
		      "or failed under --metric failure), %.0f placements in "
		      "all, so that differences in the work cannot pass for "
		      "differences between machines. Bars are 95%% Wilson "
		      "intervals; the thick tick is the same workload on "
		      "every other machine, this one left out. Worse or "
		      "better: p survives Benjamini-Hochberg across the "
		      "tested rows and the interval clears the tick (%zu "
		      "worse, %zu better).", t.placements, t.worse, t.better);
	if (t.pooled)
		sp_buf_adds(caption, " Pooled across workloads, the rows are "
			    "confounded by the work each machine ran.");
	if (t.untested > 0)
		sp_buf_printf(caption, " %.0f machine%s with too few "
			      "placements to test %s left out.", t.untested,
			      t.untested == 1 ? "" : "s",
			      t.untested == 1 ? "is" : "are");
	if (t.more > 0)
		sp_buf_printf(caption, " %.0f more tested machine%s not "
			      "drawn.", t.more, t.more == 1 ? "" : "s");
	if (t.unknown > 0)
		sp_buf_printf(caption, " %.0f row%s with no rate left out.",
			      t.unknown, t.unknown == 1 ? "" : "s");
	return 1;
}
