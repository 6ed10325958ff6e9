/*
 * idle.c - the article's figure 10: the allocations that held their
 * resources and computed nothing, as a share of the record (of the
 * allocations, of the GPU-hours and core-hours they held), and the
 * workloads that held most of them (sp-hang --summary).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define IDLE_WORKLOADS	8

struct totals {
	double runs, count, gpu_h, core_h;
};

struct wl {
	double count, runs, gpu_h, core_h;
	const char *label;
};

struct idle {
	struct totals record, hangs;
	double unjudged, open, explained, moving;
	int have_record, have_hangs;
	struct wl v[IDLE_WORKLOADS];
	size_t n;
	double more;
};

static double
num_or_nan(const struct sp_reader *r, int col)
{
	double v;

	return plot_num(r, col, &v) == 1 ? v : NAN;
}

static void
read_summary(struct sp_reader *r, struct idle *t, struct svg *g)
{
	const char *stage = "sp-hang --summary";
	int csection = sp_reader_need(r, "section", stage);
	int cruns = sp_reader_need(r, "runs", stage);
	int ccount = sp_reader_need(r, "count", stage);
	int cgpu = sp_reader_need(r, "held_gpu_h", stage);
	int ccore = sp_reader_need(r, "held_core_h", stage);
	int cwl = sp_reader_need(r, "workload", stage);

	memset(t, 0, sizeof *t);
	while (sp_next_or_die(r)) {
		struct sp_slice s = r->f[csection];
		struct totals x = { num_or_nan(r, cruns),
			num_or_nan(r, ccount), num_or_nan(r, cgpu),
			num_or_nan(r, ccore) };

		if (sp_slice_eq(s, "record")) {
			t->record = x;
			t->have_record = 1;
		} else if (sp_slice_eq(s, "hangs")) {
			t->hangs = x;
			t->have_hangs = 1;
		} else if (sp_slice_eq(s, "unjudged")) {
			t->unjudged = x.count;
		} else if (sp_slice_eq(s, "open")) {
			t->open = x.count;
		} else if (sp_slice_eq(s, "explained")) {
			t->explained = x.count;
		} else if (sp_slice_eq(s, "moving")) {
			t->moving = x.count;
		} else if (sp_slice_eq(s, "workload")) {
			struct wl *w;

			/* Most GPU-hours first, as sp-hang writes them. */
			if (t->n == IDLE_WORKLOADS) {
				t->more++;
				continue;
			}
			w = &t->v[t->n++];
			w->count = x.count;
			w->runs = x.runs;
			w->gpu_h = x.gpu_h;
			w->core_h = x.core_h;
			w->label = plot_keep(g, r->f[cwl], PLOT_LABEL_MAX - 4);
		}
	}
}

static void
hours(struct sp_buf *b, double h)
{
	sp_buf_printf(b, h >= 100 ? "%.0f" : "%.1f", h);
}

/* One share bar: the whole faint, the part computing nothing solid. */
static void
share_row(struct svg *g, const struct scale *sx, double y, const char *what,
	  double part, double whole, const char *unit, int counts)
{
	double x0 = scale_at(sx, 0);
	struct sp_buf b = { 0 };

	svg_text(g, x0 - 8, y + 12, ANCHOR_END, PLOT_SMALL, 0, INK_TEXT, what);
	svg_rect(g, x0, y, scale_at(sx, 1) - x0, 16, INK_FAINT, PAT_SOLID,
		 INK_PAPER);
	if (!(whole > 0) || isnan(part)) {
		svg_text(g, x0 + 6, y + 12, ANCHOR_START, PLOT_SMALL, 0,
			 INK_MUTED, "n/a: none recorded");
		return;
	}
	svg_rect(g, x0, y, fmax(1.5, scale_at(sx, part / whole) - x0), 16,
		 INK_VERMILLION, PAT_HATCH, INK_VERMILLION);
	if (counts) {
		sp_buf_printf(&b, "%.0f of %.0f", part, whole);
	} else {
		hours(&b, part);
		sp_buf_adds(&b, " of ");
		hours(&b, whole);
	}
	sp_buf_printf(&b, " %s (", unit);
	sp_fmt_percent(&b, part / whole);
	sp_buf_addc(&b, ')');
	/* The hours printed inside the bar, on the faint part. */
	svg_text(g, scale_at(sx, 1) - 6, y + 12, ANCHOR_END, PLOT_SMALL, 1,
		 INK_TEXT, sp_buf_str(&b));
	sp_buf_free(&b);
}

static double
draw_shares(struct svg *g, const struct idle *t)
{
	double left = 150, right = PLOT_WIDTH - PLOT_MARGIN, top = 36;
	struct scale sx;

	scale_linear(&sx, 0, 1, left, right);
	svg_text(g, PLOT_MARGIN, top - 10, ANCHOR_START, PLOT_FONT, 1,
		 INK_TEXT, "Share of the record that computed nothing");
	share_row(g, &sx, top, "allocations", t->hangs.count, t->record.runs,
		  "allocations", 1);
	share_row(g, &sx, top + 24, "GPU-hours held", t->hangs.gpu_h,
		  t->record.gpu_h, "GPU-hours", 0);
	share_row(g, &sx, top + 48, "core-hours held", t->hangs.core_h,
		  t->record.core_h, "core-hours", 0);
	return top + 72;
}

static void
draw_workloads(struct svg *g, const struct idle *t, double top, int gpu)
{
	double left = 200, right = PLOT_WIDTH - 120, rowh = 20, most = 0,
	       xtop;
	struct scale sx;
	struct tick xt[8];
	size_t nx;

	for (size_t i = 0; i < t->n; i++)
		most = fmax(most, gpu ? t->v[i].gpu_h : t->v[i].core_h);
	svg_text(g, PLOT_MARGIN, top + 16, ANCHOR_START, PLOT_FONT, 1, INK_TEXT,
		 gpu ? "GPU-hours held computing nothing, by workload" :
		 "Core-hours held computing nothing, by workload");
	top += 30;
	nx = ticks_linear(xt, 6, 0, most, fmt_count, &xtop);
	scale_linear(&sx, 0, xtop, left, right);
	axis_x(g, &sx, top + rowh * (double)t->n + 2, top - 4, xt, nx,
	       gpu ? "GPU-hours" : "core-hours");
	for (size_t i = 0; i < t->n; i++) {
		const struct wl *w = &t->v[i];
		double y = top + rowh * (double)i + 2, v = gpu ? w->gpu_h :
							   w->core_h;

		svg_text(g, left - 8, y + 12, ANCHOR_END, PLOT_SMALL, 0,
			 INK_TEXT, w->label);
		if (!isnan(v))
			svg_rect(g, scale_at(&sx, 0), y,
				 fmax(1.5, scale_at(&sx, v) - scale_at(&sx, 0)),
				 15, INK_VERMILLION, PAT_HATCH, INK_VERMILLION);
		svg_textf(g, scale_at(&sx, isnan(v) ? 0 : v) + 6, y + 12,
			  ANCHOR_START, PLOT_SMALL, 0, INK_TEXT,
			  "%.0f of %.0f runs", w->count, w->runs);
	}
}

PLOT_KIND(idle)
{
	struct idle t;
	int gpu;

	(void)o;
	read_summary(r, &t, g);
	if (!t.have_record || !t.have_hangs || !(t.record.runs > 0)) {
		sp_buf_adds(why, "no closed allocation in the summary");
	} else if (!(t.hangs.count > 0)) {
		if (t.unjudged > 0)
			sp_buf_printf(why, "no allocation computed nothing "
				      "among those judged; %.0f over 300 s "
				      "had no CPU time recorded, so for them it "
				      "is unknown", t.unjudged);
		else
			sp_buf_printf(why, "no allocation computed nothing "
				      "(of %.0f)", t.record.runs);
	} else {
		gpu = t.record.gpu_h > 0;
		draw_workloads(g, &t, draw_shares(g, &t), gpu);
		sp_buf_adds(title, "Allocations that held their resources and "
			    "computed nothing");
		sp_buf_printf(caption, "From sp-hang --summary: an allocation "
			      "computed nothing when it ran over %.0f s while "
			      "its work steps used under %.0f CPU-seconds, and "
			      "its state does not already say why. The faint "
			      "bar is the whole record, the solid part what "
			      "those allocations held.", SP_NOOP_MIN_ELAPSED_S,
			      SP_NOOP_MAX_CPU_S);
		if (t.more > 0)
			sp_buf_printf(caption, " %.0f more workload%s with "
				      "one are not drawn.", t.more,
				      t.more == 1 ? "" : "s");
		if (t.unjudged > 0)
			sp_buf_printf(caption, " Not judged: %.0f over %.0f s "
				      "with no CPU time recorded.", t.unjudged,
				      SP_NOOP_MIN_ELAPSED_S);
		if (t.explained + t.moving > 0)
			sp_buf_printf(caption, " Not counted: %.0f whose "
				      "state says why, %.0f moving data.",
				      t.explained, t.moving);
		plot_left_out(caption, " Left out:", (const struct plot_omit[]){
			{ t.open, "never ended", "never ended" },
			{ 0, NULL, NULL } });
	}
	return t.have_record && t.hangs.count > 0 && t.record.runs > 0;
}
