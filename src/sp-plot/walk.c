/*
 * walk.c - the article's figure 4: one workload's submissions in the
 * order they ran, each with the memory it requested and the peak it
 * reached, the runs killed for memory marked (job records of one
 * workload; sp-size --findings names the workload of a memory search).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_jobcalc.h"
#include "sp_run.h"
#include "plot.h"

struct sub {
	struct sp_order order;
	double limit_b, peak_b;
	int killed;
	const char *jobid, *state;
};

struct walk {
	struct sub *v;
	size_t n, cap;
	double open, no_peak, no_limit;
	const char *key;	/* the workload drawn; NULL: the whole input */
	const char *label;
};

static void
add(struct walk *w, const struct sp_job *j, struct svg *g)
{
	struct sp_jobcalc c;
	struct sub *s;

	sp_jobcalc(&c, j, NULL, 0, NULL);
	w->v = plot_grow(g, w->v, &w->cap, w->n + 1, sizeof *w->v);
	s = &w->v[w->n++];
	sp_order_of(&s->order, j);
	s->limit_b = c.mem_limit_b;
	s->peak_b = j->max_rss_b;
	s->killed = sp_job_state_is(j, "OUT_OF_MEMORY");
	s->jobid = plot_keep(g, j->jobid, 16);
	s->state = plot_keep(g, j->state, 16);
	w->no_peak += isnan(s->peak_b);
	w->no_limit += isnan(s->limit_b);
}

/* The workload asked for: --workload, or a finding's; NULL: any one. */
static const char *
chosen_key(const struct plot_opts *o, struct svg *g)
{
	struct plot_finding f;
	const char *key;

	if (o->workload)
		return plot_keep_str(g, o->workload, strlen(o->workload));
	if (!o->findings)
		return NULL;
	if (!plot_find_finding(o->findings, "memory-search", &f) &&
	    !plot_find_finding(o->findings, "memory-unchanged", &f))
		return NULL;
	key = plot_keep_str(g, f.key, strlen(f.key));
	plot_finding_free(&f);
	return key;
}

static int
by_order(const void *a, const void *b)
{
	return sp_order_cmp(&((const struct sub *)a)->order,
			    &((const struct sub *)b)->order);
}

static void
read_walk(struct sp_reader *r, struct walk *w, struct svg *g)
{
	struct sp_job j;
	struct plot_sel sel;
	int clabel = sp_reader_col(r, "workload");

	sp_reader_need(r, "state", "sp-fetch");
	sp_reader_need(r, "max_rss_b", "sp-fetch");
	plot_sel_open(&sel, r, w->key);
	while (plot_sel_next(&sel, r, &j, g)) {
		if (sp_job_is_step(&j))
			continue;
		if (!sp_job_usable(&j)) {
			w->open++;
			continue;
		}
		if (!w->label && clabel >= 0)
			w->label = plot_keep(g, r->f[clabel], PLOT_LABEL_MAX);
		add(w, &j, g);
	}
	if (!w->key)
		w->key = sel.key;
	sp_sort(w->v, w->n, sizeof *w->v, by_order);
}

static void
draw(struct svg *g, const struct walk *w, size_t from)
{
	double left = 150, right = PLOT_WIDTH - 110, top = 44, rowh = 18;
	double most = 0, xtop;
	struct scale sx;
	struct tick xt[8];
	size_t nx, rows = w->n - from;
	double bottom = top + rowh * (double)rows + 6, x;

	for (size_t i = from; i < w->n; i++) {
		if (w->v[i].limit_b > most)
			most = w->v[i].limit_b;
		if (w->v[i].peak_b > most)
			most = w->v[i].peak_b;
	}
	nx = ticks_linear(xt, 7, 0, most / SP_GIB, fmt_gib, &xtop);
	scale_linear(&sx, 0, xtop, left, right);
	axis_x(g, &sx, bottom, top - 8, xt, nx,
	       "memory per node (MaxRSS and --mem)");
	for (size_t i = from; i < w->n; i++) {
		const struct sub *s = &w->v[i];
		double y = top + rowh * (double)(i - from) + rowh / 2;
		double xl = scale_at(&sx, s->limit_b / SP_GIB);
		double xp = scale_at(&sx, s->peak_b / SP_GIB);

		svg_group(g, s->killed ? "submission killed" : "submission",
			  NULL);
		svg_textf(g, PLOT_MARGIN, y + 4, ANCHOR_START, PLOT_SMALL, 0,
			  INK_TEXT, "%zu  %s", i + 1, s->jobid);
		if (!isnan(s->limit_b) && !isnan(s->peak_b))
			svg_line(g, xl, y, xp, y, INK_FAINT, 2, 0);
		if (!isnan(s->limit_b))
			svg_mark(g, MARK_RING, xl, y, 4.5, INK_MUTED);
		if (!isnan(s->peak_b))
			svg_mark(g, s->killed ? MARK_TRIANGLE : MARK_CIRCLE,
				 xp, y, 4.5, s->killed ? INK_VERMILLION :
				 INK_BLUE);
		svg_text(g, right + 10, y + 4, ANCHOR_START, PLOT_SMALL,
			 s->killed, s->killed ? INK_VERMILLION : INK_MUTED,
			 s->killed ? "killed (OOM)" : s->state);
		svg_group_end(g);
	}
	x = legend_mark(g, PLOT_MARGIN, 12, MARK_RING, INK_MUTED,
			"--mem requested");
	x = legend_mark(g, x, 12, MARK_CIRCLE, INK_BLUE, "peak (MaxRSS)");
	legend_mark(g, x, 12, MARK_TRIANGLE, INK_VERMILLION,
		    "peak of a run killed for memory");
}

PLOT_KIND(walk)
{
	struct walk w;
	size_t from, killed = 0;

	memset(&w, 0, sizeof w);
	w.key = chosen_key(o, g);
	if (!w.key && o->findings) {
		sp_buf_adds(why, "no memory-search or memory-unchanged "
			    "finding among sp-size's findings");
		return 0;
	}
	read_walk(r, &w, g);
	if (w.n == 0) {
		sp_buf_adds(why, "no closed allocation of the workload in the "
			    "records");
		return 0;
	}
	from = w.n > PLOT_WALK_MAX ? w.n - PLOT_WALK_MAX : 0;
	for (size_t i = 0; i < w.n; i++)
		killed += (size_t)w.v[i].killed;
	draw(g, &w, from);
	sp_buf_adds(title, "Memory, submission by submission: ");
	sp_buf_adds(title, w.label ? w.label : w.key && *w.key ? w.key :
		    "the records");
	sp_buf_printf(caption, "%zu submission%s of one workload in the order "
		      "they ran (job records, sp-fetch), each with the memory "
		      "it requested per node and the highest figure the "
		      "scheduler recorded; %zu %s killed for memory.",
		      w.n, w.n == 1 ? "" : "s", killed,
		      killed == 1 ? "was" : "were");
	if (from > 0)
		sp_buf_printf(caption, " The %zu newest are drawn; the first "
			      "%zu are left out.", w.n - from, from);
	plot_left_out(caption, " Not drawn:", (const struct plot_omit[]){
		{ w.no_peak, "peak (none sampled)", "peaks (none sampled)" },
		{ w.no_limit, "request (none recorded)",
		  "requests (none recorded)" },
		{ w.open, "record still open or with no elapsed time",
		  "records still open or with no elapsed time" },
		{ 0, NULL, NULL } });
	return 1;
}
