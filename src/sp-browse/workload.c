/*
 * workload.c - the second screen: one workload, in four panes under one
 * header: its runs newest first (runs.c), its advice, its findings
 * across runs (advice.c) and its machines (machines.c).  Tab and the
 * digits change pane; each pane keeps its place.  The header says what
 * the next submission should change, which y copies.
 */
#include <stdlib.h>
#include <string.h>

#include "browse.h"

#define NPANES 4

static const struct pane_ops *const panes[NPANES] = {
	&pane_runs, &pane_advice, &pane_findings, &pane_machines
};

struct wlview {
	size_t wl;
	int pane;
	void *state[NPANES];
	size_t top[NPANES], cur[NPANES];
	struct sp_buf next;	/* the #SBATCH lines, one line */
	size_t nnext;
};

static const enum req main_keys[] = { REQ_ENTER, REQ_TAB, REQ_SEARCH,
	REQ_COPY, REQ_HELP, REQ_BACK, REQ_NONE };

static void
title(struct view *v, struct sp_buf *b)
{
	struct wlview *s = v->data;
	const struct wlinfo *x = &v->B->m->info[s->wl];
	const char *dot = sp_term_glyph(&v->B->term, SP_G_DOT);

	struct sp_buf head = { 0 }, tail = { 0 };

	sp_buf_printf(&head, "slurmpast %s ", dot);
	sp_buf_printf(&tail, " %s %s %s %s", dot, x->user, dot, x->part);
	text_title(&v->B->term, b, sp_buf_str(&head), x->label,
		   sp_buf_str(&tail));
	sp_buf_free(&head);
	sp_buf_free(&tail);
}

static size_t
nheader(struct view *v)
{
	struct wlview *s = v->data;

	return panes[s->pane]->columns != NULL ? 4 : 3;
}

static void
facts(struct browse *B, size_t wl, struct sp_buf *b)
{
	const struct sp_rollup_wl *w = model_row(B->m, wl);
	const char *dot = sp_term_glyph(&B->term, SP_G_DOT);

	/* The first screen's columns, in its words. */
	sp_buf_printf(b, "%ld run%s %s %ld failed %s ", w->runs,
		      w->runs == 1 ? "" : "s", dot, w->failed, dot);
	if (sp_rollup_noop_known(w))
		sp_buf_printf(b, "%ld noop", w->noop);
	else
		sp_buf_adds(b, "noop n/a");
	sp_buf_printf(b, " %s ", dot);
	text_hours(b, w->gpu_h, w->gpu_known);
	sp_buf_printf(b, " GPU-h %s ", dot);
	text_hours(b, w->core_h, w->core_known);
	sp_buf_printf(b, " core-h %s ", dot);
	sp_fmt_percent(b, w->share);
	sp_buf_adds(b, " share");
}

static void
tabs(struct view *v, struct sp_buf *b)
{
	struct wlview *s = v->data;

	for (int p = 0; p < NPANES; p++) {
		if (p > 0)
			sp_buf_adds(b, "   ");
		if (p == s->pane)
			sp_term_paint(&v->B->term, b, SP_P_BOLD);
		else
			sp_term_paint(&v->B->term, b, SP_P_FAINT);
		sp_buf_printf(b, "%d %s%s%s", p + 1, p == s->pane ? "[" : "",
			      panes[p]->name, p == s->pane ? "]" : "");
		sp_term_paint(&v->B->term, b, SP_P_NONE);
	}
}

static void
header(struct view *v, size_t i, struct sp_buf *b)
{
	struct wlview *s = v->data;
	struct browse *B = v->B;

	switch (i) {
	case 0:
		facts(B, s->wl, b);
		break;
	case 1:
		sp_buf_add(b, s->next.p, s->next.len);
		break;
	case 2:
		tabs(v, b);
		break;
	default:
		sp_term_paint(&B->term, b, SP_P_BOLD);
		panes[s->pane]->columns(B, s->wl, &s->state[s->pane], b);
		sp_term_paint(&B->term, b, SP_P_NONE);
	}
}

/* A pane of prose, laid out when first shown. */
static struct lines *
prose(struct view *v)
{
	struct wlview *s = v->data;
	struct lines *l = s->state[s->pane];

	if (l == NULL) {
		l = s->state[s->pane] = sp_xcalloc(1, sizeof *l);
		panes[s->pane]->build(v->B, s->wl, l);
		lines_index(l);
	}
	return l;
}

static size_t
count(struct view *v)
{
	struct wlview *s = v->data;

	if (panes[s->pane]->build != NULL)
		return prose(v)->n;
	return panes[s->pane]->count(v->B, s->wl, &s->state[s->pane]);
}

static void
line(struct view *v, size_t i, struct sp_buf *b)
{
	struct wlview *s = v->data;

	if (panes[s->pane]->build != NULL)
		lines_get(prose(v), i, b);
	else
		panes[s->pane]->line(v->B, s->wl, &s->state[s->pane], i, b);
}

static void
switch_to(struct view *v, int p)
{
	struct wlview *s = v->data;

	s->top[s->pane] = v->top;
	s->cur[s->pane] = v->cur;
	s->pane = (p + NPANES) % NPANES;
	v->top = s->top[s->pane];
	v->cur = s->cur[s->pane];
	v->cursor = panes[s->pane]->cursor;
}

static int
request(struct view *v, enum req r)
{
	struct wlview *s = v->data;
	struct view *to;

	switch (r) {
	case REQ_TAB: switch_to(v, s->pane + 1); return 1;
	case REQ_BACKTAB: switch_to(v, s->pane - 1); return 1;
	case REQ_PANE1: case REQ_PANE2: case REQ_PANE3: case REQ_PANE4:
		switch_to(v, (int)(r - REQ_PANE1));
		return 1;
	case REQ_COPY:
		copy_sbatch(v->B, s->wl);
		return 1;
	case REQ_ENTER:
		if (panes[s->pane]->enter == NULL || count(v) == 0)
			return 1;
		to = panes[s->pane]->enter(v->B, s->wl, &s->state[s->pane],
					   v->cur);
		if (to != NULL)
			view_push(v->B, to);
		return 1;
	default:
		return 0;
	}
}

/* The width changed: every pane lays out again when next drawn. */
static void
relayout(struct view *v)
{
	struct wlview *s = v->data;

	for (int p = 0; p < NPANES; p++) {
		if (s->state[p] == NULL)
			continue;
		if (panes[p]->build != NULL) {
			lines_free(s->state[p]);
			free(s->state[p]);
		} else {
			panes[p]->free(s->state[p]);
		}
		s->state[p] = NULL;
	}
}

static void
free_view(struct view *v)
{
	struct wlview *s = v->data;

	relayout(v);
	sp_buf_free(&s->next);
	free(s);
}

static const struct view_ops ops = {
	"workload", main_keys, title, nheader, header, count, line, NULL,
	request, relayout, free_view
};

struct view *
workload_open(struct browse *B, size_t wl)
{
	struct wlview *s = sp_xcalloc(1, sizeof *s);

	s->wl = wl;
	s->nnext = advice_next(B, wl, &s->next);
	return view_new(B, &ops, s, panes[0]->cursor);
}
