/*
 * share.c - the article's figure 2: the cumulative share of compute
 * across the workloads, most expensive first (sp-group --rollup).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

struct share {
	double *cum;		/* cum_share of each workload, in rank order */
	size_t n, cap;
	double unknown;		/* workloads with no cum_share */
	double top_share;	/* the most expensive one's own share */
	const char *top_label;
};

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
read_rollup(struct sp_reader *r, struct share *s, struct svg *g)
{
	int ccum = sp_reader_need(r, "cum_share", "sp-group --rollup");
	int cshare = sp_reader_need(r, "share", "sp-group --rollup");
	int clabel = sp_reader_need(r, "label", "sp-group --rollup");
	double best = -1;

	memset(s, 0, sizeof *s);
	while (sp_next_or_die(r)) {
		double cum, own;

		if (plot_num(r, ccum, &cum) != 1) {
			s->unknown++;
			continue;
		}
		s->cum = plot_grow(g, s->cum, &s->cap, s->n + 1, sizeof *s->cum);
		s->cum[s->n++] = cum;
		/* The rollup is most compute first; a reordered one is not
		 * trusted to be: the largest share is looked for. */
		if (plot_num(r, cshare, &own) == 1 && own > best) {
			best = own;
			s->top_share = own;
			s->top_label = plot_keep(g, r->f[clabel],
						 PLOT_LABEL_MAX);
		}
	}
	/* The cumulative share only grows along the ranking. */
	sp_sort(s->cum, s->n, sizeof *s->cum, by_value);
}

/* How many workloads it takes to reach a share of the compute. */
static size_t
reach(const struct share *s, double share)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->cum[i] >= share - 1e-9)
			return i + 1;
	return s->n;
}

static void
mark_reach(struct svg *g, const struct share *s, const struct scale *sx,
	   const struct scale *sy, double share)
{
	size_t k = reach(s, share);
	double x = scale_at(sx, (double)k), y = scale_at(sy, share);

	if (s->cum[s->n - 1] < share - 1e-9)
		return;
	svg_line(g, scale_at(sx, 0), y, x, y, INK_MUTED, 1, 1);
	svg_line(g, x, y, x, scale_at(sy, 0), INK_MUTED, 1, 1);
	svg_mark(g, MARK_CIRCLE, x, y, 4, INK_BLUE);
	svg_textf(g, x + 8, y + 16, ANCHOR_START, PLOT_SMALL, 0, INK_TEXT,
		  "%zu of %zu workload%s: %.0f%%", k, s->n,
		  s->n == 1 ? "" : "s", share * 100);
}

static void
draw(struct svg *g, const struct share *s)
{
	double left = 64, right = PLOT_WIDTH - PLOT_MARGIN, top = 24,
	       bottom = 250, ytop, xtop;
	struct scale sx, sy;
	struct tick xt[8], yt[8];
	size_t nx, ny;
	double *xy = sp_xcalloc(2 * (s->n + 1), sizeof *xy);

	nx = ticks_linear(xt, 7, 0, (double)s->n, fmt_count, &xtop);
	ny = ticks_linear(yt, 6, 0, 1, fmt_share, &ytop);
	scale_linear(&sx, 0, xtop, left, right);
	scale_linear(&sy, 0, ytop, bottom, top);
	axis_y(g, &sy, left, right, yt, ny, "share of all compute");
	axis_x(g, &sx, bottom, top, xt, nx,
	       "workloads, most expensive first");
	xy[0] = scale_at(&sx, 0);
	xy[1] = scale_at(&sy, 0);
	for (size_t i = 0; i < s->n; i++) {
		xy[2 * (i + 1)] = scale_at(&sx, (double)(i + 1));
		xy[2 * (i + 1) + 1] = scale_at(&sy, s->cum[i]);
	}
	svg_polyline(g, xy, s->n + 1, INK_BLUE, 2.5);
	mark_reach(g, s, &sx, &sy, 0.5);
	mark_reach(g, s, &sx, &sy, 0.9);
	free(xy);
}

PLOT_KIND(share)
{
	struct share s;
	double last;

	(void)o;
	read_rollup(r, &s, g);
	if (s.n == 0) {
		sp_buf_adds(why, "no workload with a share of the compute in "
			    "the rollup");
		return 0;
	}
	draw(g, &s);
	last = s.cum[s.n - 1];
	sp_buf_adds(title, "Cumulative share of compute across ");
	plot_count(title, (double)s.n, "workload", "workloads");
	sp_buf_printf(caption, "The workloads of sp-group --rollup, most "
		      "compute first; compute is GPU-hours x %g + core-hours. "
		      "The most expensive, %s, is %.1f%% on its own.",
		      SP_GPU_CORE_RATIO, s.top_label ? s.top_label : "",
		      s.top_share * 100);
	if (s.n >= 4) {
		size_t half = s.n / 2;
		double bottom_share = last - s.cum[s.n - half - 1];

		sp_buf_printf(caption, " The bottom %zu are the last %.1f%% "
			      "between them.", half, bottom_share * 100);
	}
	if (fabs(last - 1) > 0.001)
		sp_buf_printf(caption, " The curve ends at %.1f%%: the rollup "
			      "holds part of a larger whole.", last * 100);
	plot_left_out(caption, " Left out:", (const struct plot_omit[]){
		{ s.unknown, "workload with no share",
		  "workloads with no share" },
		{ 0, NULL, NULL } });
	return 1;
}
