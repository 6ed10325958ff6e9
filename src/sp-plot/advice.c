/*
 * advice.c - the article's figure 8: for the most expensive workloads
 * with a memory verdict, what the newest run requested, what the record
 * recommends, and the largest trustworthy peak it is derived from
 * (sp-size's advice records).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

struct row {
	double req_b, target_b, peak_b;
	const char *label, *user, *verdict;
};

struct advice {
	struct row *v;
	size_t n, cap;
	double more, refused, users;
	const char *user;
};

static void
read_advice(struct sp_reader *r, struct advice *a, struct svg *g)
{
	int cflag = sp_reader_need(r, "flag", "sp-size");
	int cverdict = sp_reader_need(r, "verdict", "sp-size");
	int cwl = sp_reader_need(r, "workload", "sp-size");
	int cuser = sp_reader_need(r, "user", "sp-size");
	int creq = sp_reader_need(r, "requested", "sp-size");
	int ctarget = sp_reader_need(r, "target", "sp-size");
	int cpeak = sp_reader_need(r, "observed", "sp-size");

	memset(a, 0, sizeof *a);
	while (sp_next_or_die(r)) {
		struct row *w;
		double v;

		if (!sp_slice_eq(r->f[cflag], "--mem"))
			continue;
		if (!a->user) {
			a->user = plot_keep(g, r->f[cuser], 0);
			a->users = 1;
		} else if (!sp_slice_eq(r->f[cuser], a->user)) {
			a->users = 2;
		}
		if (sp_slice_eq(r->f[cverdict], "refuse")) {
			a->refused++;
			continue;
		}
		/* The advice is most compute first: the first rows are the
		 * ones worth a picture. */
		if (a->n >= PLOT_ROWS_MAX) {
			a->more++;
			continue;
		}
		a->v = plot_grow(g, a->v, &a->cap, a->n + 1, sizeof *a->v);
		w = &a->v[a->n++];
		w->req_b = plot_num(r, creq, &v) == 1 && v > 0 ? v : NAN;
		w->target_b = plot_num(r, ctarget, &v) == 1 && v > 0 ? v : NAN;
		w->peak_b = plot_num(r, cpeak, &v) == 1 && v > 0 ? v : NAN;
		w->label = plot_keep(g, r->f[cwl], PLOT_LABEL_MAX - 6);
		w->user = plot_keep(g, r->f[cuser], 8);
		w->verdict = plot_keep(g, r->f[cverdict], 8);
	}
}

/* Powers of two GiB from below lo to above hi, at most 8 of them. */
static size_t
gib_ticks(struct tick *t, double lo, double hi, double *d0, double *d1)
{
	int p0 = (int)floor(log2(lo)), p1 = (int)ceil(log2(hi)), step = 1;
	size_t n = 0;

	if (p1 <= p0)
		p1 = p0 + 1;
	/* Labels some 60 pixels apart on a 280-pixel axis. */
	while ((p1 - p0) / step + 1 > 5)
		step *= 2;
	*d0 = pow(2, p0);
	*d1 = pow(2, p1);
	for (int p = p0; p <= p1 && n < 8; p += step) {
		struct sp_buf b = { 0 };

		t[n].v = pow(2, p);
		fmt_gib(&b, t[n].v);
		snprintf(t[n].label, sizeof t[n].label, "%s", sp_buf_str(&b));
		sp_buf_free(&b);
		n++;
	}
	return n;
}

static void
number(struct svg *g, double x, double y, double b, int bold)
{
	double gib = b / SP_GIB;

	if (isnan(b))
		svg_text(g, x, y, ANCHOR_END, PLOT_SMALL, 0, INK_MUTED, "n/a");
	else
		svg_textf(g, x, y, ANCHOR_END, PLOT_SMALL, bold, INK_TEXT,
			  gib < 9.95 ? "%.1f" : "%.0f", gib);
}

static void
draw(struct svg *g, const struct advice *a)
{
	double left = 160, right = 440, top = 60, rowh = 22;
	double lo = INFINITY, hi = 0, d0, d1, x;
	double cols[3] = { 490, 535, 580 };
	double bottom = top + rowh * (double)a->n + 4;
	struct scale sx;
	struct tick xt[8];
	size_t nx;
	struct sp_buf b = { 0 };

	for (size_t i = 0; i < a->n; i++) {
		double v[3] = { a->v[i].req_b, a->v[i].target_b,
				a->v[i].peak_b };

		for (int k = 0; k < 3; k++)
			if (!isnan(v[k])) {
				lo = fmin(lo, v[k] / SP_GIB);
				hi = fmax(hi, v[k] / SP_GIB);
			}
	}
	if (!(lo <= hi))
		lo = hi = 1;
	nx = gib_ticks(xt, lo, hi, &d0, &d1);
	scale_log(&sx, d0, d1, left, right);
	axis_x(g, &sx, bottom, top - 6, xt, nx,
	       "memory per node (log scale)");
	svg_text(g, cols[0], top - 10, ANCHOR_END, PLOT_SMALL, 1, INK_TEXT,
		 "asked");
	svg_text(g, cols[1], top - 10, ANCHOR_END, PLOT_SMALL, 1, INK_TEXT,
		 "peak");
	svg_text(g, cols[2], top - 10, ANCHOR_END, PLOT_SMALL, 1, INK_TEXT,
		 "advice");
	svg_text(g, cols[2], top - 24, ANCHOR_END, PLOT_SMALL, 0, INK_MUTED,
		 "GiB");
	for (size_t i = 0; i < a->n; i++) {
		const struct row *w = &a->v[i];
		double y = top + rowh * (double)i + rowh / 2;

		sp_buf_clear(&b);
		sp_buf_adds(&b, w->label);
		if (a->users > 1)
			sp_buf_printf(&b, " (%s)", w->user);
		svg_text(g, left - 10, y + 4, ANCHOR_END, PLOT_SMALL, 0,
			 INK_TEXT, sp_buf_str(&b));
		if (!isnan(w->req_b) && !isnan(w->target_b))
			svg_line(g, scale_at(&sx, w->req_b / SP_GIB), y,
				 scale_at(&sx, w->target_b / SP_GIB), y,
				 INK_FAINT, 2, 0);
		if (!isnan(w->peak_b)) {
			double px = scale_at(&sx, w->peak_b / SP_GIB);

			svg_line(g, px, y - 7, px, y + 7, INK_TEXT, 2, 0);
		}
		if (!isnan(w->req_b))
			svg_mark(g, MARK_RING, scale_at(&sx, w->req_b / SP_GIB), y,
				 4.5, INK_MUTED);
		if (!isnan(w->target_b))
			svg_mark(g, MARK_DIAMOND,
				 scale_at(&sx, w->target_b / SP_GIB), y, 4.5,
				 INK_BLUE);
		number(g, cols[0], y + 4, w->req_b, 0);
		number(g, cols[1], y + 4, w->peak_b, 1);
		number(g, cols[2], y + 4, w->target_b, 0);
		svg_text(g, cols[2] + 8, y + 4, ANCHOR_START, PLOT_SMALL,
			 strcmp(w->verdict, "keep") != 0, INK_TEXT, w->verdict);
	}
	x = legend_mark(g, PLOT_MARGIN, 12, MARK_RING, INK_MUTED,
			"asked (newest run)");
	x = legend_mark(g, x, 12, MARK_DIAMOND, INK_BLUE,
			"what the record advises");
	svg_line(g, x + 5, 4, x + 5, 14, INK_TEXT, 2, 0);
	svg_text(g, x + 14, 12, ANCHOR_START, PLOT_SMALL, 0, INK_TEXT,
		 "largest trustworthy peak");
	sp_buf_free(&b);
}

PLOT_KIND(advice)
{
	struct advice a;

	(void)o;
	read_advice(r, &a, g);
	if (a.n == 0) {
		if (a.refused > 0)
			sp_buf_printf(why, "every --mem verdict (%.0f) was a "
				      "refusal (too few usable runs)", a.refused);
		else
			sp_buf_adds(why, "no --mem advice in the records");
		return 0;
	}
	draw(g, &a);
	sp_buf_printf(title, "Memory: asked, advised, and the peak behind it "
		      "(%zu workload%s)", a.n, a.n == 1 ? "" : "s");
	sp_buf_printf(caption, "The workloads with a --mem verdict, most "
		      "compute first, from sp-size: the ring is what the newest "
		      "run requested, the diamond what the record recommends "
		      "(the largest trustworthy peak x a margin that grows "
		      "with how much the peaks vary and shrinks with how many "
		      "there are, in whole GiB; a floor from runs killed for "
		      "memory), the tick that peak; no diamond for a hold. "
		      "MaxRSS reads high, so a peak is an upper bound.");
	plot_left_out(caption, " Not drawn:", (const struct plot_omit[]){
		{ a.more, "more verdict", "more verdicts" },
		{ a.refused, "refusal", "refusals" },
		{ 0, NULL, NULL } });
	return 1;
}
