/*
 * job.c - the third screen: one job's post-mortem, drawn by the library
 * as sp-show draws it (the verdict, who and where, the gauges, the
 * findings, the end of its log) for the window's width, and scrolled.
 */
#include <stdlib.h>
#include <string.h>

#include "browse.h"

struct jobv {
	size_t rec, wl;
	struct lines l;
	int laid;		/* l holds the post-mortem for the width */
};

static const enum req main_keys[] = { REQ_PGDN, REQ_SEARCH, REQ_COPY,
	REQ_HELP, REQ_BACK, REQ_NONE };

static void
draw_postmortem(struct browse *B, struct jobv *s)
{
	struct kept k = { 0 };
	struct sp_analysis a;
	struct sp_postmortem pm;

	model_parse(B->m, s->rec, &k);
	model_analyse(B->m, &k, &a);
	memset(&pm, 0, sizeof pm);
	pm.job = &k.job;
	pm.steps = k.steps;
	pm.nsteps = k.nsteps;
	pm.calc = &a.calc;
	pm.logs = &a.logs;
	pm.findings = &a.findings;
	pm.cols = B->m->cols;
	pm.fields = k.f;
	pm.nfields = B->m->ncols;
	lines_free(&s->l);
	sp_postmortem_draw(&B->term, &pm, &s->l.text);
	lines_index(&s->l);
	s->laid = 1;
	sp_analysis_free(&a);
	kept_free(&k);
}

static struct jobv *
laid_out(struct view *v)
{
	struct jobv *s = v->data;

	if (!s->laid)
		draw_postmortem(v->B, s);
	return s;
}

static void
title(struct view *v, struct sp_buf *b)
{
	struct jobv *s = v->data;
	struct kept k = { 0 };
	const char *dot = sp_term_glyph(&v->B->term, SP_G_DOT);

	struct sp_buf head = { 0 }, tail = { 0 };

	model_parse(v->B->m, s->rec, &k);
	sp_buf_printf(&head, "slurmpast %s ", dot);
	sp_buf_printf(&tail, " %s job ", dot);
	text_field(&v->B->term, &tail, k.job.jobid);
	if (s->wl == NO_WL) {
		struct sp_buf name = { 0 };

		text_field(&v->B->term, &name, k.job.name);
		text_title(&v->B->term, b, sp_buf_str(&head),
			   sp_buf_str(&name), sp_buf_str(&tail));
		sp_buf_free(&name);
	} else {
		text_title(&v->B->term, b, sp_buf_str(&head),
			   v->B->m->info[s->wl].label, sp_buf_str(&tail));
	}
	sp_buf_free(&head);
	sp_buf_free(&tail);
	kept_free(&k);
}

static size_t
count(struct view *v)
{
	return laid_out(v)->l.n;
}

static void
line(struct view *v, size_t i, struct sp_buf *b)
{
	lines_get(&laid_out(v)->l, i, b);
}

static int
request(struct view *v, enum req r)
{
	struct jobv *s = v->data;

	if (r == REQ_COPY && s->wl == NO_WL) {
		browse_say(v->B, "nothing to copy: no run of its workload "
			   "has ended");
		return 1;
	}
	if (r == REQ_COPY) {
		copy_sbatch(v->B, s->wl);
		return 1;
	}
	return 0;
}

static void
relayout(struct view *v)
{
	((struct jobv *)v->data)->laid = 0;
}

static void
free_job(struct view *v)
{
	struct jobv *s = v->data;

	lines_free(&s->l);
	free(s);
}

static const struct view_ops ops = {
	"job", main_keys, title, NULL, NULL, count, line, NULL, request,
	relayout, free_job
};

struct view *
job_open(struct browse *B, size_t rec, size_t wl)
{
	struct jobv *s = sp_xcalloc(1, sizeof *s);

	s->rec = rec;
	s->wl = wl;
	return view_new(B, &ops, s, 0);
}
