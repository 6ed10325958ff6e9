/*
 * running.c - R: the jobs running now, as slurmpast's "Running now" has
 * them: each job so far (time against its limit, live memory against
 * its limit, CPU so far, when sstat read them), then what its workload's
 * history says it will do, the warnings of sp-size --running (the model
 * asks sp_rules_live, as that stage does), most severe first.  Why sstat
 * gave no figures is said once, above the jobs.  Only records read with
 * sp-fetch --live are of now: a saved history's open records are not
 * running.  Enter shows the job under the cursor.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "browse.h"

struct runv {
	struct lines l;
	size_t *job_of;		/* each line's job, nlive for none */
	int laid;
};

static const enum req main_keys[] = { REQ_ENTER, REQ_SEARCH, REQ_HELP,
	REQ_BACK, REQ_NONE };

static const char *
jobs_word(size_t n)
{
	return n == 1 ? "job" : "jobs";
}

int
running_fetched(const struct model *m)
{
	return sp_livecols_present(&m->livecols);
}

void
running_summary(const struct model *m, struct sp_buf *b)
{
	size_t by[3] = { 0 };

	for (size_t i = 0; i < m->nlive; i++) {
		int worst = sp_findings_worst(&m->live[i].warnings);

		if (worst >= 0)
			by[worst]++;
	}
	sp_buf_printf(b, "Running now: %zu %s; ", m->nlive,
		      jobs_word(m->nlive));
	if (by[SP_SEV_CRITICAL] + by[SP_SEV_WARNING] == 0) {
		sp_buf_adds(b, "no warning");
		return;
	}
	if (by[SP_SEV_CRITICAL] > 0)
		sp_buf_printf(b, "%zu critical", by[SP_SEV_CRITICAL]);
	if (by[SP_SEV_CRITICAL] > 0 && by[SP_SEV_WARNING] > 0)
		sp_buf_adds(b, ", ");
	if (by[SP_SEV_WARNING] > 0)
		sp_buf_printf(b, "%zu %s", by[SP_SEV_WARNING],
			      by[SP_SEV_WARNING] == 1 ? "warning" :
			      "warnings");
}

/* "of its limit (share)", or "of n/a" where the limit is unknown. */
static void
against(struct sp_buf *b, struct sp_words *w, double v, double limit,
	const char *(*form)(struct sp_words *, double))
{
	sp_buf_printf(b, "%s of %s", form(w, v), sp_positive(limit) ?
		      form(w, limit) : "n/a");
	if (sp_positive(limit) && sp_known(v))
		sp_buf_printf(b, " (%s)", sp_pct(w, v / limit));
}

/* The job's figures so far, in one paragraph. */
static void
so_far(struct browse *B, const struct live_job *x, struct sp_buf *b)
{
	const struct sp_job *j = &x->job;
	const struct sp_live *l = &x->l;
	const char *dot = sp_term_glyph(&B->term, SP_G_DOT);
	struct sp_words w = { 0 };
	double cores = sp_job_cores(j);

	sp_buf_adds(b, "time ");
	against(b, &w, j->elapsed_s, j->timelimit_s, sp_dur);
	sp_buf_printf(b, " %s memory ", dot);
	against(b, &w, l->known ? l->rss_b : NAN, j->mem_limit_node_b,
		sp_bytes);
	sp_buf_printf(b, " %s CPU %s so far", dot,
		      sp_dur(&w, l->known ? l->cpu_s : NAN));
	if (sp_positive(cores))
		sp_buf_printf(b, " on %g %s", cores, cores == 1 ? "core" :
			      "cores");
	if (l->known) {
		sp_buf_printf(b, " %s read at ", dot);
		sp_buf_add(b, l->at.p, l->at.n);
	}
	sp_words_free(&w);
}

static void
wrapped(struct browse *B, struct sp_buf *b, const char *s, size_t indent)
{
	struct sp_buf clean = { 0 };

	sp_term_clean(&B->term, &clean, s, strlen(s), 0);
	for (size_t k = 0; k < indent; k++)
		sp_buf_addc(b, ' ');
	sp_term_wrap(&B->term, b, clean.p ? clean.p : "", indent, indent);
	sp_buf_addc(b, '\n');
	sp_buf_free(&clean);
}

/* Why sstat gave no figures, once for every job it gave none for. */
static void
missing(struct browse *B, struct sp_buf *text)
{
	const struct model *m = B->m;
	struct sp_buf line = { 0 };

	for (size_t i = 0; i < m->nlive; i++) {
		const struct sp_live *l = &m->live[i].l;
		size_t n = 0;
		int said = 0;

		if (l->known)
			continue;
		for (size_t k = 0; k < m->nlive; k++) {
			const struct sp_live *o = &m->live[k].l;

			if (o->known || o->why.n != l->why.n ||
			    memcmp(o->why.p, l->why.p, l->why.n) != 0)
				continue;
			said |= k < i;
			n++;
		}
		if (said)
			continue;
		sp_buf_clear(&line);
		sp_buf_printf(&line, "No live figures for %zu %s: ", n,
			      jobs_word(n));
		if (l->why.n > 0)
			text_field(&B->term, &line, l->why);
		else
			sp_buf_adds(&line, "the records say no reason");
		wrapped(B, text, sp_buf_str(&line), 0);
	}
	sp_buf_free(&line);
}

/* Lines in text from byte from on, counted onto *n; returns text's end. */
static size_t
count_lines(const struct sp_buf *text, size_t from, size_t *n)
{
	for (size_t k = from; k < text->len; k++)
		*n += text->p[k] == '\n';
	return text->len;
}

static void
layout(struct view *v)
{
	struct browse *B = v->B;
	struct runv *s = v->data;
	const struct model *m = B->m;
	struct sp_buf *text = &s->l.text, line = { 0 };
	size_t *start = sp_xcalloc(m->nlive + 1, sizeof *start);
	size_t seen = 0, nl = 0;

	lines_free(&s->l);
	if (!running_fetched(m))
		sp_buf_adds(text, "No job is shown running: these records "
			    "were not read with sp-fetch --live, so none is "
			    "of now.\n");
	else if (m->nlive == 0)
		sp_buf_adds(text, "No job of the window is running.\n");
	missing(B, text);
	if (text->len > 0 && m->nlive > 0)
		sp_buf_addc(text, '\n');
	for (size_t i = 0; i < m->nlive; i++) {
		const struct live_job *x = &m->live[i];

		seen = count_lines(text, seen, &nl);
		start[i] = nl;
		sp_term_paint(&B->term, text, SP_P_BOLD);
		text_field(&B->term, text, x->job.jobid);
		sp_term_paint(&B->term, text, SP_P_NONE);
		sp_buf_adds(text, "  ");
		if (x->wl >= 0)
			sp_buf_adds(text, m->info[x->wl].label);
		else
			text_field(&B->term, text, x->job.name);
		sp_buf_addc(text, '\n');
		sp_buf_clear(&line);
		so_far(B, x, &line);
		wrapped(B, text, sp_buf_str(&line), 2);
		sp_buf_addc(text, '\n');
		for (size_t k = 0; k < x->warnings.n; k++)
			/* Under its job: no need to name it. */
			finding_text(B, text, &x->warnings.v[k], 2, 0);
	}
	lines_index(&s->l);
	start[m->nlive] = s->l.n;
	free(s->job_of);
	s->job_of = sp_xcalloc(s->l.n + 1, sizeof *s->job_of);
	for (size_t i = 0; i < s->l.n; i++)
		s->job_of[i] = m->nlive;
	for (size_t j = 0; j < m->nlive; j++)
		for (size_t i = start[j]; i < start[j + 1]; i++)
			s->job_of[i] = j;
	s->laid = 1;
	free(start);
	sp_buf_free(&line);
}

static struct runv *
laid_out(struct view *v)
{
	struct runv *s = v->data;

	if (!s->laid)
		layout(v);
	return s;
}

static void
title(struct view *v, struct sp_buf *b)
{
	size_t n = v->B->m->nlive;

	sp_buf_printf(b, "slurmpast %s running now %s %zu %s",
		      sp_term_glyph(&v->B->term, SP_G_DOT),
		      sp_term_glyph(&v->B->term, SP_G_DOT), n, jobs_word(n));
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
	struct runv *s = laid_out(v);
	const struct model *m = v->B->m;
	size_t j;

	if (r != REQ_ENTER)
		return 0;
	j = v->cur < s->l.n ? s->job_of[v->cur] : m->nlive;
	if (j < m->nlive)
		view_push(v->B, job_open(v->B, m->live[j].rec,
					 m->live[j].wl >= 0 ?
					 (size_t)m->live[j].wl : NO_WL));
	return 1;
}

static void
relayout(struct view *v)
{
	((struct runv *)v->data)->laid = 0;
}

static void
free_runv(struct view *v)
{
	struct runv *s = v->data;

	lines_free(&s->l);
	free(s->job_of);
	free(s);
}

static const struct view_ops ops = {
	"running", main_keys, title, NULL, NULL, count, line, NULL, request,
	relayout, free_runv
};

struct view *
running_open(struct browse *B)
{
	return view_new(B, &ops, sp_xcalloc(1, sizeof(struct runv)), 1);
}
