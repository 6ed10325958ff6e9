/*
 * runs.c - a workload's runs, newest first: id, state, elapsed, peak
 * memory, CPU use, node, and the worst of the job's own findings (the
 * same sp-show finds).  A record is parsed back only when its line is
 * drawn, and its findings are looked for once, so a workload of a
 * hundred thousand runs opens at once.  Enter shows the job.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "browse.h"

/* Columns sized on the newest runs, at most this many read for it. */
#define SIZE_SAMPLE	500

enum { R_ID, R_STATE, R_ELAPSED, R_PEAK, R_CPU, R_NODE, R_N };

static const char *const titles[R_N] = { "jobid", "state", "elapsed",
	"peak mem", "CPU", "node" };
static const size_t widest[R_N] = { 20, 13, 11, 10, 6, 16 };

struct runs {
	size_t width[R_N];
	struct kept k;
};

static size_t
rec_of(struct browse *B, size_t wl, size_t i)
{
	return B->m->runs[B->m->info[wl].run0 + i];
}

/* The cells of run i (all clean text). */
static void
cells(struct browse *B, struct runs *s, size_t rec, struct sp_buf *c)
{
	const struct sp_job *j;
	struct sp_analysis a;

	model_parse(B->m, rec, &s->k);
	j = &s->k.job;
	/* The figures alone: no log read, no rule run. */
	sp_postmortem_analyse(&a, j, s->k.steps, s->k.nsteps, &B->m->site,
			      NULL, NULL, NULL, 1);
	for (int k = 0; k < R_N; k++)
		sp_buf_clear(&c[k]);
	text_field(&B->term, &c[R_ID], j->jobid);
	text_field(&B->term, &c[R_STATE], j->state);
	sp_fmt_duration(&c[R_ELAPSED], j->elapsed_s);
	sp_fmt_bytes(&c[R_PEAK], j->max_rss_b);
	sp_fmt_percent(&c[R_CPU], a.calc.cpu_util);
	sp_analysis_free(&a);
	text_field(&B->term, &c[R_NODE], j->nodelist);
	for (int k = 0; k < R_N; k++)
		if (c[k].len == 0)
			sp_buf_adds(&c[k], "n/a");
}

static struct runs *
runs_state(struct browse *B, size_t wl, void **state)
{
	struct runs *s = *state;
	struct sp_buf c[R_N];
	size_t n = B->m->info[wl].nruns;

	if (s != NULL)
		return s;
	s = *state = sp_xcalloc(1, sizeof *s);
	memset(c, 0, sizeof c);
	for (int k = 0; k < R_N; k++)
		s->width[k] = strlen(titles[k]);
	for (size_t i = 0; i < n && i < SIZE_SAMPLE; i++) {
		cells(B, s, rec_of(B, wl, i), c);
		for (int k = 0; k < R_N; k++) {
			size_t w = sp_text_width(c[k].p, c[k].len);

			if (w > s->width[k])
				s->width[k] = w < widest[k] ? w : widest[k];
		}
	}
	for (int k = 0; k < R_N; k++)
		sp_buf_free(&c[k]);
	return s;
}

static size_t
count(struct browse *B, size_t wl, void **state)
{
	(void)state;
	return B->m->info[wl].nruns;
}

static int
right_aligned(int k)
{
	return k == R_ELAPSED || k == R_PEAK || k == R_CPU;
}

static void
columns(struct browse *B, size_t wl, void **state, struct sp_buf *b)
{
	struct runs *s = runs_state(B, wl, state);

	for (int k = 0; k < R_N; k++) {
		text_cell(&B->term, b, titles[k], strlen(titles[k]),
			  s->width[k], right_aligned(k));
		sp_buf_addc(b, ' ');
	}
	sp_buf_adds(b, "finding");
}

static void
line(struct browse *B, size_t wl, void **state, size_t i, struct sp_buf *b)
{
	struct runs *s = runs_state(B, wl, state);
	size_t rec = rec_of(B, wl, i);
	struct sp_buf c[R_N];
	const char *code;
	int worst;

	memset(c, 0, sizeof c);
	cells(B, s, rec, c);
	for (int k = 0; k < R_N; k++) {
		if (k == R_STATE && !sp_job_state_is(&s->k.job, "COMPLETED"))
			sp_term_paint(&B->term, b, sp_job_failed(&s->k.job) ?
				      SP_P_CRITICAL : SP_P_WARNING);
		text_cell(&B->term, b, c[k].p, c[k].len, s->width[k],
			  right_aligned(k));
		if (k == R_STATE)
			sp_term_paint(&B->term, b, SP_P_NONE);
		sp_buf_addc(b, ' ');
		sp_buf_free(&c[k]);
	}
	worst = model_worst(B->m, rec, &code);
	if (worst >= 0 && code != NULL) {
		sp_term_paint(&B->term, b, text_pattern_paint(worst));
		sp_buf_adds(b, code);
		sp_term_paint(&B->term, b, SP_P_NONE);
	}
}

static struct view *
enter(struct browse *B, size_t wl, void **state, size_t i)
{
	(void)state;
	return job_open(B, rec_of(B, wl, i), wl);
}

static void
free_runs(void *state)
{
	struct runs *s = state;

	kept_free(&s->k);
	free(s);
}

const struct pane_ops pane_runs = {
	"runs", 1, NULL, count, line, columns, enter, free_runs
};
