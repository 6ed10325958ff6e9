/*
 * cost.c - the article's figure 9: every run re-costed as requested, as
 * used, as recommended, and accepting only the reductions, one panel a
 * resource (sp-size --cost).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define NRES 3
#define NWAYS 4

static const char *const ways[NWAYS] = { "requested", "used",
	"recommended", "reductions only" };
static const char *const columns[NWAYS] = { "requested", "used",
	"recommended", "reductions_only" };
static const enum ink inks[NWAYS] = { INK_FAINT, INK_TEXT, INK_BLUE,
	INK_ORANGE };
static const enum pattern pats[NWAYS] = { PAT_SOLID, PAT_SOLID, PAT_SOLID,
	PAT_HATCH };

struct resource {
	const char *name, *unit;
	double v[NWAYS], runs;
};

struct cost {
	struct resource r[NRES];
	size_t n;
	double unknown, extra;
};

static void
read_cost(struct sp_reader *r, struct cost *c, struct svg *g)
{
	int cres = sp_reader_need(r, "resource", "sp-size --cost");
	int cunit = sp_reader_need(r, "unit", "sp-size --cost");
	int cruns = sp_reader_need(r, "runs", "sp-size --cost");
	int col[NWAYS];

	for (int k = 0; k < NWAYS; k++)
		col[k] = sp_reader_need(r, columns[k], "sp-size --cost");
	memset(c, 0, sizeof *c);
	while (sp_next_or_die(r)) {
		struct resource *x;

		/* sp-size writes memory, cpu and time; a fourth is not ours. */
		if (c->n == NRES) {
			c->extra++;
			continue;
		}
		x = &c->r[c->n];
		for (int k = 0; k < NWAYS; k++)
			if (plot_num(r, col[k], &x->v[k]) != 1)
				x->v[k] = NAN;
		if (plot_num(r, cruns, &x->runs) != 1)
			x->runs = NAN;
		/* A resource re-costed from nothing has nothing to show. */
		if (!(x->v[0] > 0)) {
			c->unknown++;
			continue;
		}
		x->name = plot_keep(g, r->f[cres], 12);
		x->unit = plot_keep(g, r->f[cunit], 16);
		c->n++;
	}
}

static void
amount(struct sp_buf *b, double v)
{
	if (v >= 1e6)
		sp_buf_printf(b, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		sp_buf_printf(b, "%.0fk", v / 1e3);
	else
		sp_buf_printf(b, "%.0f", v);
}

static void
draw(struct svg *g, const struct cost *c)
{
	double left = 130, right = PLOT_WIDTH - 150, top = 40, barh = 13,
	       gap = 3, head = 20, panel = head + NWAYS * (barh + gap) + 14,
	       most = 1, xtop, x;
	struct scale sx;
	struct tick xt[8];
	size_t nx;
	struct sp_buf b = { 0 };

	for (size_t i = 0; i < c->n; i++)
		for (int k = 0; k < NWAYS; k++)
			if (c->r[i].v[k] / c->r[i].v[0] > most)
				most = c->r[i].v[k] / c->r[i].v[0];
	nx = ticks_linear(xt, 6, 0, most, fmt_share, &xtop);
	scale_linear(&sx, 0, xtop, left, right);
	axis_x(g, &sx, top + panel * (double)c->n, top - 6, xt, nx,
	       "share of what was requested");
	for (size_t i = 0; i < c->n; i++) {
		const struct resource *res = &c->r[i];
		double y = top + panel * (double)i;

		svg_text(g, PLOT_MARGIN, y + 11, ANCHOR_START, PLOT_FONT, 1,
			 INK_TEXT, res->name);
		svg_text(g, PLOT_MARGIN + text_width(res->name, PLOT_FONT) * 1.1 + 8,
			 y + 11, ANCHOR_START, PLOT_SMALL, 0, INK_MUTED,
			 res->unit);
		for (int k = 0; k < NWAYS; k++) {
			double f = res->v[k] / res->v[0];
			double by = y + head + (barh + gap) * k;

			svg_text(g, left - 6, by + 10, ANCHOR_END, PLOT_SMALL, 0,
				 INK_TEXT, ways[k]);
			if (isnan(f)) {
				svg_text(g, left + 4, by + 10, ANCHOR_START,
					 PLOT_SMALL, 0, INK_MUTED, "n/a");
				continue;
			}
			svg_rect(g, left, by, scale_at(&sx, f) - left, barh,
				 inks[k], pats[k], k == 0 ? INK_AXIS : INK_PAPER);
			sp_buf_clear(&b);
			amount(&b, res->v[k]);
			sp_buf_printf(&b, " (%.0f%%)", f * 100);
			svg_text(g, scale_at(&sx, f) + 5, by + 10, ANCHOR_START,
				 PLOT_SMALL, k == 2, INK_TEXT, sp_buf_str(&b));
		}
	}
	x = PLOT_MARGIN;
	for (int k = 0; k < NWAYS; k++)
		x = legend_swatch(g, x, 12, inks[k], pats[k], ways[k]);
	sp_buf_free(&b);
}

PLOT_KIND(cost)
{
	struct cost c;

	(void)o;
	read_cost(r, &c, g);
	if (c.n == 0) {
		sp_buf_adds(why, "no resource with a request to re-cost (no "
			    "workload has a verdict)");
		return 0;
	}
	draw(g, &c);
	sp_buf_adds(title, "The value of following the advice");
	sp_buf_adds(caption, "Every run of a workload with a verdict, "
		    "re-costed by sp-size --cost as requested, as used, under "
		    "the request its own history recommends, and accepting "
		    "only the recommendations that reduce a request; each "
		    "resource as a share of what was requested. Used memory "
		    "is the MaxRSS peak held for the run's length: an upper "
		    "bound, so the real gap is wider.");
	plot_left_out(caption, " Left out:", (const struct plot_omit[]){
		{ c.unknown, "resource with nothing requested",
		  "resources with nothing requested" },
		{ 0, NULL, NULL } });
	plot_left_out(caption, " Left out:", (const struct plot_omit[]){
		{ c.extra, "record past the three resources",
		  "records past the three resources" },
		{ 0, NULL, NULL } });
	return 1;
}
