/*
 * array.c - the article's figure 5: every array task of one workload by
 * its memory, sorted, with the single runs the array was sized from (the
 * probes of sp-size's array-probes finding) marked at their place in
 * that order (job records of the workload).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_run.h"
#include "plot.h"

/* More tasks than this are drawn one in every so many. */
#define ARRAY_POINTS_MAX	1500

struct task {
	double need_b;
	int killed;
};

struct probe {
	const char *id;
	double peak_b;		/* NaN: not in the records, or no peak */
	size_t at;		/* tasks at or below its peak */
};

struct array {
	struct task *v;
	size_t n, cap;
	double untold;		/* tasks whose memory tells nothing */
	struct probe *probes;
	size_t nprobes, probecap;
	const char *master;	/* the array the finding names */
	double master_limit_b;
	const char *key, *label;
};

static int
by_need(const void *a, const void *b)
{
	double x = ((const struct task *)a)->need_b;
	double y = ((const struct task *)b)->need_b;

	return x < y ? -1 : x > y;
}

/* Probes lowest first; those with no peak last. */
static int
by_peak(const void *a, const void *b)
{
	double x = ((const struct probe *)a)->peak_b;
	double y = ((const struct probe *)b)->peak_b;

	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return x < y ? -1 : x > y;
}

/* Probes from --probes, or the finding's ids after the array's own. */
static void
add_probes(struct array *a, const char *list, const char *sep,
	   int skip_first, struct svg *g)
{
	char *copy = sp_xstrdup(list), *save = NULL;
	int first = 1;

	for (char *id = strtok_r(copy, sep, &save); id;
	     id = strtok_r(NULL, sep, &save)) {
		if (first && skip_first) {
			a->master = plot_keep_str(g, id, strlen(id));
			first = 0;
			continue;
		}
		first = 0;
		a->probes = plot_grow(g, a->probes, &a->probecap,
				      a->nprobes + 1, sizeof *a->probes);
		a->probes[a->nprobes].id = plot_keep_str(g, id, strlen(id));
		a->probes[a->nprobes].peak_b = NAN;
		a->probes[a->nprobes].at = 0;
		a->nprobes++;
	}
	free(copy);
}

/* The workload and the probes asked for; 0 when a finding was asked for
 * and there is none. */
static int
choose(struct array *a, const struct plot_opts *o, struct svg *g)
{
	struct plot_finding f;

	if (o->findings) {
		if (!plot_find_finding(o->findings, "array-probes", &f))
			return 0;
		a->key = plot_keep_str(g, f.key, strlen(f.key));
		if (!o->probes)
			/* A finding's ids are space-separated: one may
			 * hold a comma (4103947_[1,5]). */
			add_probes(a, f.jobids, " ", 1, g);
		plot_finding_free(&f);
	} else if (o->workload) {
		a->key = plot_keep_str(g, o->workload, strlen(o->workload));
	}
	if (o->probes)
		add_probes(a, o->probes, ",", 0, g);
	return 1;
}

static void
note_probe(struct array *a, const struct sp_job *j)
{
	for (size_t i = 0; i < a->nprobes; i++)
		if (sp_slice_eq(j->jobid, a->probes[i].id) ||
		    sp_slice_eq(j->jobid_raw, a->probes[i].id))
			a->probes[i].peak_b = j->max_rss_b;
}

static void
add_task(struct array *a, const struct sp_job *j, struct svg *g)
{
	struct sp_run run;
	double need;

	sp_run_of(&run, j);
	if (a->master && sp_slice_eq(j->array_job, a->master) &&
	    (isnan(a->master_limit_b) || run.limit_b > a->master_limit_b))
		a->master_limit_b = run.limit_b;
	need = sp_run_array_need(&run);
	if (isnan(need)) {
		a->untold++;
		return;
	}
	a->v = plot_grow(g, a->v, &a->cap, a->n + 1, sizeof *a->v);
	a->v[a->n].need_b = need;
	a->v[a->n].killed = run.st == SP_ST_OUT_OF_MEMORY;
	a->n++;
}

static void
read_array(struct sp_reader *r, struct array *a, struct svg *g)
{
	struct sp_job j;
	struct plot_sel sel;
	int clabel = sp_reader_col(r, "workload");

	sp_reader_need(r, "array_job", "sp-fetch");
	sp_reader_need(r, "max_rss_b", "sp-fetch");
	sp_reader_need(r, "mem_limit_node_b", "sp-fetch");
	plot_sel_open(&sel, r, a->key);
	a->master_limit_b = NAN;
	while (plot_sel_next(&sel, r, &j, g)) {
		if (!sp_job_usable(&j))
			continue;
		note_probe(a, &j);
		if (j.array_job.n == 0)
			continue;
		if (!a->label && clabel >= 0)
			a->label = plot_keep(g, r->f[clabel], PLOT_LABEL_MAX);
		add_task(a, &j, g);
	}
	if (!a->key)
		a->key = sel.key;
	sp_sort(a->v, a->n, sizeof *a->v, by_need);
	for (size_t i = 0; i < a->nprobes; i++)
		for (size_t k = 0; k < a->n; k++)
			a->probes[i].at += a->v[k].need_b <=
					   a->probes[i].peak_b;
	sp_sort(a->probes, a->nprobes, sizeof *a->probes, by_peak);
}

static void
draw(struct svg *g, const struct array *a)
{
	double left = 64, right = PLOT_WIDTH - PLOT_MARGIN, top = 44,
	       bottom = 270, most = 0, xtop, ytop, x, label_y = bottom + 14;
	struct scale sx, sy;
	struct tick xt[8], yt[8];
	size_t nx, ny, every = (a->n + ARRAY_POINTS_MAX - 1) /
			       ARRAY_POINTS_MAX;

	for (size_t i = 0; i < a->n; i++)
		most = fmax(most, a->v[i].need_b);
	for (size_t i = 0; i < a->nprobes; i++)
		if (!isnan(a->probes[i].peak_b))
			most = fmax(most, a->probes[i].peak_b);
	if (!isnan(a->master_limit_b))
		most = fmax(most, a->master_limit_b);
	nx = ticks_linear(xt, 7, 0, (double)a->n, fmt_count, &xtop);
	ny = ticks_linear(yt, 6, 0, most / SP_GIB, fmt_gib, &ytop);
	scale_linear(&sx, 0, xtop, left, right);
	scale_linear(&sy, 0, ytop, bottom, top);
	axis_y(g, &sy, left, right, yt, ny, "memory per node");
	axis_x(g, &sx, bottom, bottom, xt, nx,
	       "array tasks, sorted by memory");
	if (!isnan(a->master_limit_b)) {
		double y = scale_at(&sy, a->master_limit_b / SP_GIB);
		struct sp_buf b = { 0 };

		svg_line(g, left, y, right, y, INK_VERMILLION, 1, 1);
		sp_buf_adds(&b, "array ");
		sp_buf_adds(&b, a->master);
		sp_buf_adds(&b, " requested ");
		sp_fmt_bytes(&b, a->master_limit_b);
		/* On the left, where the sorted tasks are lowest. */
		svg_text(g, left + 6, y - 5, ANCHOR_START, PLOT_SMALL, 0,
			 INK_VERMILLION, sp_buf_str(&b));
		sp_buf_free(&b);
	}
	for (size_t i = 0; i < a->n; i += every ? every : 1) {
		const struct task *t = &a->v[i];

		svg_mark(g, t->killed ? MARK_TRIANGLE : MARK_CIRCLE,
			 scale_at(&sx, (double)(i + 1)),
			 scale_at(&sy, t->need_b / SP_GIB), 2.6,
			 t->killed ? INK_VERMILLION : INK_SKY);
	}
	/* Lowest first, each label above the one before: close probes
	 * never write over each other. */
	for (size_t i = 0; i < a->nprobes; i++) {
		const struct probe *p = &a->probes[i];
		double px, py;
		struct sp_buf b = { 0 };

		if (isnan(p->peak_b))
			continue;
		px = scale_at(&sx, (double)(p->at > 0 ? p->at : 1));
		py = scale_at(&sy, p->peak_b / SP_GIB);
		svg_group(g, "probe", NULL);
		svg_line(g, px, py, px, bottom, INK_TEXT, 1, 1);
		svg_mark(g, MARK_DIAMOND, px, py, 5.5, INK_TEXT);
		label_y = fmin(py - 10, label_y - 14);
		sp_buf_printf(&b, "probe %s: ", p->id);
		sp_fmt_bytes(&b, p->peak_b);
		svg_text(g, px + 9, label_y, ANCHOR_START, PLOT_SMALL, 1,
			 INK_TEXT, sp_buf_str(&b));
		svg_group_end(g);
		sp_buf_free(&b);
	}
	x = legend_mark(g, PLOT_MARGIN, 12, MARK_CIRCLE, INK_SKY,
			"a task's peak");
	x = legend_mark(g, x, 12, MARK_TRIANGLE, INK_VERMILLION,
			"killed for memory: at its limit, the least it needed");
	legend_mark(g, x, 12, MARK_DIAMOND, INK_TEXT, "probe");
}

static void
say_probes(struct sp_buf *caption, const struct array *a)
{
	size_t top = 0, missing = 0;
	double best = -1;

	for (size_t i = 0; i < a->nprobes; i++) {
		if (isnan(a->probes[i].peak_b)) {
			missing++;
		} else if (a->probes[i].peak_b > best) {
			best = a->probes[i].peak_b;
			top = a->probes[i].at;
		}
	}
	if (best >= 0)
		sp_buf_printf(caption, " The probes the array was sized from "
			      "are marked at their place in that order: the "
			      "highest is at or above %zu of the %zu tasks "
			      "(%.0f%%).", top, a->n,
			      100.0 * (double)top / (double)a->n);
	if (missing > 0)
		sp_buf_printf(caption, " %zu probe%s not in the records (or "
			      "with no peak).", missing,
			      missing == 1 ? " is" : "s are");
}

PLOT_KIND(array)
{
	struct array a;
	size_t killed = 0;

	memset(&a, 0, sizeof a);
	if (!choose(&a, o, g)) {
		sp_buf_adds(why, "no array-probes finding among sp-size's "
			    "findings");
		return 0;
	}
	read_array(r, &a, g);
	if (a.n == 0) {
		sp_buf_adds(why, "no array task with a trustworthy peak or a "
			    "kill in the records");
		return 0;
	}
	for (size_t i = 0; i < a.n; i++)
		killed += (size_t)a.v[i].killed;
	draw(g, &a);
	sp_buf_adds(title, "Array tasks by peak memory: ");
	sp_buf_adds(title, a.label ? a.label : a.key && *a.key ? a.key :
		    "the records");
	sp_buf_printf(caption, "The %zu array tasks of one workload (job "
		      "records, sp-fetch), sorted by memory per node; %zu "
		      "killed for memory are drawn at their limit, the least "
		      "they needed, as sp-size's array-probes finding counts "
		      "them.", a.n, killed);
	say_probes(caption, &a);
	plot_left_out(caption, " Left out:", (const struct plot_omit[]){
		{ a.untold, "task with no trustworthy peak (none recorded, or "
		  "above the limit without a kill)", "tasks with no "
		  "trustworthy peak (none recorded, or above the limit "
		  "without a kill)" },
		{ 0, NULL, NULL } });
	return 1;
}
