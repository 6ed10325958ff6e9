/*
 * failures.c - the article's figure 6: the workloads with the most
 * failed runs, every run faint and the failed ones solid (sp-group
 * --rollup).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

struct wl {
	double runs, failed;
	size_t at;		/* input order, for ties */
	const char *label, *user;
};

struct failures {
	struct wl *v;
	size_t n, cap;
	double none, unknown, users;
	const char *user;	/* the first user seen */
};

static int
by_failed(const void *a, const void *b)
{
	const struct wl *x = a, *y = b;

	if (x->failed != y->failed)
		return x->failed > y->failed ? -1 : 1;
	if (x->runs != y->runs)
		return x->runs > y->runs ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static void
read_rollup(struct sp_reader *r, struct failures *f, struct svg *g)
{
	int cruns = sp_reader_need(r, "runs", "sp-group --rollup");
	int cfailed = sp_reader_need(r, "failed", "sp-group --rollup");
	int clabel = sp_reader_need(r, "label", "sp-group --rollup");
	int cuser = sp_reader_need(r, "user", "sp-group --rollup");
	size_t at = 0;

	memset(f, 0, sizeof *f);
	while (sp_next_or_die(r)) {
		double runs, failed;
		struct wl *w;

		if (!f->user) {
			f->user = plot_keep_str(g, r->f[cuser].p,
						 r->f[cuser].n);
			f->users = 1;
		} else if (f->users == 1 && !sp_slice_eq(r->f[cuser], f->user)) {
			f->users = 2;
		}
		if (plot_num(r, cfailed, &failed) != 1 ||
		    plot_num(r, cruns, &runs) != 1) {
			f->unknown++;
			continue;
		}
		if (failed <= 0) {
			f->none++;
			continue;
		}
		f->v = plot_grow(g, f->v, &f->cap, f->n + 1, sizeof *f->v);
		w = &f->v[f->n++];
		w->runs = runs;
		w->failed = failed;
		w->at = at++;
		w->label = plot_keep(g, r->f[clabel], PLOT_LABEL_MAX - 8);
		w->user = plot_keep(g, r->f[cuser], 8);
	}
	sp_sort(f->v, f->n, sizeof *f->v, by_failed);
}

/* The user in parentheses only when the rollup holds several. */
static const char *
label_of(const struct failures *f, const struct wl *w, struct sp_buf *b)
{
	sp_buf_clear(b);
	sp_buf_adds(b, w->label);
	if (f->users > 1)
		sp_buf_printf(b, " (%s)", w->user);
	return sp_buf_str(b);
}

static void
draw(struct svg *g, const struct failures *f, size_t rows)
{
	double left = 210, right = PLOT_WIDTH - 90, top = 40, rowh = 22;
	double most = 0, xtop, x;
	double bottom = top + rowh * (double)rows + 4;
	struct scale sx;
	struct tick xt[8];
	size_t nx;
	struct sp_buf b = { 0 };

	for (size_t i = 0; i < rows; i++)
		most = fmax(most, f->v[i].runs);
	nx = ticks_linear(xt, 6, 0, most, fmt_count, &xtop);
	scale_linear(&sx, 0, xtop, left, right);
	axis_x(g, &sx, bottom, top - 6, xt, nx, "runs");
	for (size_t i = 0; i < rows; i++) {
		const struct wl *w = &f->v[i];
		double y = top + rowh * (double)i + 3;
		double x0 = scale_at(&sx, 0);

		svg_text(g, left - 8, y + 12, ANCHOR_END, PLOT_SMALL, 0,
			 INK_TEXT, label_of(f, w, &b));
		svg_rect(g, x0, y, scale_at(&sx, w->runs) - x0, rowh - 6,
			 INK_FAINT, PAT_SOLID, INK_PAPER);
		svg_rect(g, x0, y, fmax(1.5, scale_at(&sx, w->failed) - x0),
			 rowh - 6, INK_VERMILLION, PAT_HATCH, INK_VERMILLION);
		svg_textf(g, scale_at(&sx, w->runs) + 6, y + 12,
			  ANCHOR_START, PLOT_SMALL, 0, INK_TEXT,
			  "%.0f of %.0f", w->failed, w->runs);
	}
	x = legend_swatch(g, PLOT_MARGIN, 12, INK_FAINT, PAT_SOLID,
			  "every run");
	legend_swatch(g, x, 12, INK_VERMILLION, PAT_HATCH,
		      "the runs that failed");
	sp_buf_free(&b);
}

PLOT_KIND(failures)
{
	struct failures f;
	size_t rows;

	(void)o;
	read_rollup(r, &f, g);
	if (f.n == 0) {
		sp_buf_adds(why, "no workload with a failed run in the rollup");
		return 0;
	}
	rows = f.n > PLOT_ROWS_MAX ? PLOT_ROWS_MAX : f.n;
	draw(g, &f, rows);
	if (rows < f.n)
		sp_buf_printf(title, "The %zu workloads with the most failures",
			      rows);
	else
		sp_buf_printf(title, "The workload%s with failures",
			      rows == 1 ? "" : "s");
	sp_buf_printf(caption, "Failed runs (FAILED, TIMEOUT, OUT_OF_MEMORY, "
		      "NODE_FAIL, BOOT_FAIL, DEADLINE) of each workload, from "
		      "sp-group --rollup: the faint bar is every run, the solid "
		      "bar the runs that failed.");
	if (rows < f.n)
		sp_buf_printf(caption, " %zu more workloads had a failure.",
			      f.n - rows);
	sp_buf_printf(caption, " %.0f had none.", f.none);
	plot_left_out(caption, " Left out:", (const struct plot_omit[]){
		{ f.unknown, "workload with no count",
		  "workloads with no count" },
		{ 0, NULL, NULL } });
	return 1;
}
