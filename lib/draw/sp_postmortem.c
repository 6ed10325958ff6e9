/*
 * sp_postmortem.c - one job's post-mortem, read top-down: the verdict,
 * who ran it where and when, the gauges, the findings (most severe
 * first), the end of its log; with all, every field in words and the
 * steps.  Nothing drawn is wider than the terminal: prose wraps at words
 * under a hanging indent, a value too long for a line breaks only where
 * it must, and on a terminal a quoted log line is cut with an ellipsis.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_util.h"
#include "sp_const.h"
#include "sp_units.h"
#include "sp_hostlist.h"
#include "sp_stats.h"
#include "sp_record.h"
#include "sp_state.h"
#include "sp_job.h"
#include "sp_suggest.h"
#include "sp_histset.h"
#include "sp_live.h"
#include "sp_nodes.h"
#include "sp_postmortem.h"
#include "sp_rules_live.h"
#include "sp_verdict.h"

/* What every drawing function reads. */
struct draw {
	const struct sp_term *term;
	const struct sp_postmortem *pm;
	const struct sp_job *j;
	const struct sp_jobcalc *c;
	/*
	 * A running job's figures of the moment (sp-fetch --live): sacct
	 * fills a step's CPU and memory only once it ends, so the gauges
	 * draw these instead, said to be live and when read; or why there
	 * are none.  live.fetched: a running job with live columns.
	 */
	struct sp_live live;
};

static void
live_now(const struct sp_postmortem *pm, struct sp_live *l)
{
	sp_live_from_fields(l, pm->cols, pm->fields, pm->nfields);
	if (!sp_live_running(pm->job))
		l->fetched = l->known = 0;
}

enum { GAUGE_LABEL_W = 8, FIELD_GAP = 2 };

static void
pad(struct sp_buf *b, size_t n)
{
	while (n-- > 0)
		sp_buf_addc(b, ' ');
}

/* Untrusted text made safe (escapes decoded first, then cleaned). */
static void
clean_slice(const struct draw *D, struct sp_buf *b, struct sp_slice s,
	    int keep_newlines)
{
	sp_term_field(D->term, b, s.p, s.n, keep_newlines);
}

static void
clean_str(const struct draw *D, struct sp_buf *b, const char *s)
{
	sp_term_clean(D->term, b, s, strlen(s), 1);
}

/* Wrapped text, then the line's end. */
static void
para(const struct draw *D, struct sp_buf *b, const char *text,
     size_t first_indent, size_t indent)
{
	sp_term_wrap(D->term, b, text, first_indent, indent);
	sp_buf_addc(b, '\n');
}

static void
heading(const struct draw *D, struct sp_buf *b, const char *title)
{
	sp_buf_addc(b, '\n');
	sp_term_painted(D->term, b, SP_P_BOLD, title);
	sp_buf_addc(b, '\n');
}

static void
dot(const struct draw *D, struct sp_buf *b)
{
	sp_buf_addc(b, ' ');
	sp_buf_adds(b, sp_term_glyph(D->term, SP_G_DOT));
	sp_buf_addc(b, ' ');
}

/*
 * Items of one line, each ended by ITEM_END: laid out joined by a dot,
 * a line broken only between items (an item wider than a line wraps at
 * its words), so "queued" and its figure stay together.
 */
#define ITEM_END '\037'

static void
item_end(struct sp_buf *t)
{
	sp_buf_addc(t, ITEM_END);
}

static void
items_at(const struct draw *D, struct sp_buf *b, const struct sp_buf *t,
	 size_t col, size_t indent)
{
	const char *p = sp_buf_str(t), *end = p + t->len;
	size_t width = (size_t)D->term->width;
	struct sp_buf one = { 0 };
	int first = 1;

	while (p < end) {
		const char *e = memchr(p, ITEM_END, (size_t)(end - p));
		size_t n = e ? (size_t)(e - p) : (size_t)(end - p);
		size_t cells = sp_text_width(p, n);

		if (col > indent && col + (first ? 0 : 3) + cells > width) {
			sp_buf_addc(b, '\n');
			pad(b, indent);
			col = indent;
		} else if (!first) {
			dot(D, b);
			col += 3;
		}
		first = 0;
		sp_buf_clear(&one);
		sp_buf_add(&one, p, n);
		if (col + cells <= width) {
			sp_buf_add(b, p, n);
			col += cells;
		} else {
			size_t from = b->len, i;

			sp_term_wrap(D->term, b, sp_buf_str(&one), col, indent);
			/* Where the wrapped item ended: on its last line. */
			for (i = b->len; i > from && b->p[i - 1] != '\n'; i--)
				;
			if (i > from)
				col = sp_text_width(b->p + i, b->len - i);
			else
				col += cells;
		}
		p += n + (e ? 1 : 0);
	}
	sp_buf_addc(b, '\n');
	sp_buf_free(&one);
}

/* Items that start a line. */
static void
items(const struct draw *D, struct sp_buf *b, const struct sp_buf *t,
      size_t indent)
{
	items_at(D, b, t, 0, indent);
}

static enum sp_paint
severity_paint(enum sp_severity s)
{
	switch (s) {
	case SP_SEV_CRITICAL:
		return SP_P_CRITICAL;
	case SP_SEV_WARNING:
		return SP_P_WARNING;
	default:
		return SP_P_INFO;
	}
}

static enum sp_paint
state_paint(const struct sp_job *j)
{
	if (sp_job_state_is(j, "COMPLETED"))
		return SP_P_GOOD;
	if (sp_job_failed(j))
		return SP_P_CRITICAL;
	return SP_P_WARNING;
}

/*
 * A line of text from a log or the evidence, from column col on: on a
 * terminal cut to the width with an ellipsis, into a pipe wrapped.
 */
static void
quoted_line(const struct draw *D, struct sp_buf *b, const char *s, size_t n,
	    size_t col)
{
	struct sp_buf t = { 0 };
	size_t room = (size_t)D->term->width > col + 1 ?
		      (size_t)D->term->width - col : 1;

	sp_term_clean(D->term, &t, s, n, 0);
	if (D->term->tty)
		sp_term_fitted(D->term, b, sp_buf_str(&t), t.len, room);
	else
		sp_term_wrap(D->term, b, sp_buf_str(&t), col, col);
	sp_buf_addc(b, '\n');
	sp_buf_free(&t);
}

/* ------------------------------------------------------------------ */
/* The verdict line                                                   */

/*
 * How the job ended, in words: a signal only when one killed it (an OOM
 * kill's 0:125 is Slurm's mark, not a signal).
 */
static void
ending(const struct draw *D, struct sp_buf *b)
{
	const struct sp_job *j = D->j;
	int sig = j->signal > 0 && j->signal <= SP_SIGNAL_MAX ?
		  (int)j->signal : 0;

	if (D->c->open) {
		sp_buf_adds(b, sp_job_ran(j) ? "not ended: figures so far" :
			    "not started yet");
		return;
	}
	if (!sp_job_ran(j)) {
		sp_buf_adds(b, "never started");
		return;
	}
	if (sp_job_state_is(j, "OUT_OF_MEMORY")) {
		sp_buf_adds(b, "killed for memory");
		return;
	}
	if (sp_job_state_is(j, "TIMEOUT")) {
		sp_buf_adds(b, "at its time limit");
		return;
	}
	sp_buf_adds(b, "exit ");
	if (isnan(j->exit_code))
		sp_buf_adds(b, "n/a");
	else
		sp_fmt_num(b, j->exit_code);
	if (sig > 0) {
		const char *name = sp_signal_name(sig);

		sp_buf_adds(b, ", killed by ");
		if (name)
			sp_buf_adds(b, name);
		else
			sp_buf_printf(b, "signal %d", sig);
	}
}

/* "critical: timeout-hang (+2)", or that nothing needs attention. */
static void
verdict(const struct draw *D, struct sp_buf *b)
{
	const struct sp_findings *f = D->pm->findings;
	struct sp_buf t = { 0 };

	if (f == NULL || f->n == 0) {
		sp_term_painted(D->term, b, SP_P_GOOD,
				"nothing needs attention");
		return;
	}
	sp_buf_printf(&t, "%s: %s", sp_severity_name(f->v[0].severity),
		      f->v[0].code);
	sp_term_painted(D->term, b, severity_paint(f->v[0].severity), t.p);
	if (f->n > 1)
		sp_buf_printf(b, " (+%zu)", f->n - 1);
	sp_buf_free(&t);
}

/*
 * The first line: id, name, state, how it ended, the worst finding.  On
 * a terminal the name gives way (cut) so the rest stays on the line; a
 * window too narrow for the rest takes it on the next.
 */
static void
verdict_line(const struct draw *D, struct sp_buf *b)
{
	const struct sp_job *j = D->j;
	struct sp_buf id = { 0 }, name = { 0 }, t = { 0 };
	size_t rest, idw, room, namew, at, width = (size_t)D->term->width;

	if (j->jobid.n)
		clean_slice(D, &id, j->jobid, 0);
	else
		sp_buf_adds(&id, "n/a");
	if (j->name.n)
		clean_slice(D, &name, j->name, 0);
	else
		sp_buf_adds(&name, "(no name)");

	/* The state and ending, then the verdict: two items after the name. */
	if (j->state.n) {
		struct sp_buf st = { 0 };

		clean_slice(D, &st, j->state, 0);
		sp_term_painted(D->term, &t, state_paint(j), st.p);
		sp_buf_free(&st);
	} else {
		sp_buf_adds(&t, "state n/a");
	}
	sp_buf_addc(&t, ' ');
	ending(D, &t);
	item_end(&t);
	verdict(D, &t);
	/* Two spaces before it, and a dot of 3 cells for the item's end. */
	rest = sp_text_width(t.p, t.len) + 2 + 2;
	idw = sp_text_width(id.p, id.len) + 2;
	room = width > idw + rest + 8 ? width - idw - rest :
	       width > idw + 8 ? width - idw : 8;

	sp_term_painted(D->term, b, SP_P_BOLD, sp_buf_str(&id));
	sp_buf_adds(b, "  ");
	at = b->len;
	sp_term_fitted(D->term, b, sp_buf_str(&name), name.len, room);
	namew = sp_text_width(b->p + at, b->len - at);
	if (idw + namew + rest <= width) {
		sp_buf_adds(b, "  ");
		items_at(D, b, &t, idw + namew + 2, 2);
	} else {
		/* The rest on a line of its own (into a pipe the name is
		 * whole, however long). */
		sp_buf_adds(b, "\n  ");
		items_at(D, b, &t, 2, 2);
	}
	sp_buf_free(&id);
	sp_buf_free(&name);
	sp_buf_free(&t);
}

/* Two ISO 8601 times of one day: the second is said by its time alone. */
static int
same_day(struct sp_slice a, struct sp_slice b)
{
	return a.n > 11 && b.n > 11 && a.p[10] == 'T' && b.p[10] == 'T' &&
	       memcmp(a.p, b.p, 11) == 0;
}

/* Who ran it, where, when, and how long it waited. */
static void
context_line(const struct draw *D, struct sp_buf *b)
{
	const struct sp_job *j = D->j;
	struct sp_buf t = { 0 };

	if (j->user.n)
		clean_slice(D, &t, j->user, 0);
	else
		sp_buf_adds(&t, "user n/a");
	if (j->partition.n) {
		sp_buf_adds(&t, ", partition ");
		clean_slice(D, &t, j->partition, 0);
	}
	item_end(&t);
	if (j->nodelist.n) {
		if (D->c->nodes > 1) {
			sp_fmt_num(&t, D->c->nodes);
			sp_buf_adds(&t, " nodes ");
		} else {
			sp_buf_adds(&t, "node ");
		}
		clean_slice(D, &t, j->nodelist, 0);
		item_end(&t);
	}
	if (j->start_known && sp_job_ran(j)) {
		sp_buf_adds(&t, "ran ");
		clean_slice(D, &t, j->start, 0);
		sp_buf_printf(&t, " %s ", sp_term_glyph(D->term, SP_G_ARROW));
		if (j->end_known && same_day(j->start, j->end))
			clean_slice(D, &t, (struct sp_slice){ j->end.p + 11,
				    j->end.n - 11 }, 0);
		else if (j->end_known)
			clean_slice(D, &t, j->end, 0);
		else
			sp_buf_adds(&t, "no end recorded");
		sp_buf_adds(&t, " (");
		sp_fmt_duration(&t, j->elapsed_s);
		sp_buf_adds(&t, ")");
		item_end(&t);
	} else if (j->submit_known) {
		sp_buf_adds(&t, "submitted ");
		clean_slice(D, &t, j->submit, 0);
		item_end(&t);
	}
	sp_buf_adds(&t, sp_job_ran(j) ? "queued " : "waited ");
	sp_fmt_duration(&t, D->c->wait_s);
	items(D, b, &t, 2);
	sp_buf_free(&t);
}

/* ------------------------------------------------------------------ */
/* Gauges                                                             */

/* The bar's width: what is left beside the label and about 50 cells of
 * figures, between 10 and 30. */
static size_t
bar_width(const struct draw *D)
{
	int w = D->term->width - GAUGE_LABEL_W - 2 - 50;

	if (w > 30)
		w = 30;
	if (w < 10)
		w = 10;
	return (size_t)w;
}

/*
 * The bar: what was used solid, the rest of the ceiling faint; over the
 * ceiling (or at the limit that ended the job), the whole bar critical.
 */
static void
bar(const struct draw *D, struct sp_buf *b, double used, double ceiling,
    int over)
{
	size_t width = bar_width(D), solid = 0;

	if (!(ceiling > 0)) {
		pad(b, width);
		return;
	}
	if (used > 0) {
		double f = used / ceiling;

		solid = (size_t)lround((f > 1 ? 1 : f) * (double)width);
		if (solid == 0)
			solid = 1;	/* something was used: show it */
	}
	if (over)
		solid = width;
	if (solid > 0) {
		if (over)
			sp_term_paint(D->term, b, SP_P_CRITICAL);
		for (size_t i = 0; i < solid; i++)
			sp_buf_adds(b, sp_term_glyph(D->term, SP_G_SOLID));
		if (over)
			sp_term_paint(D->term, b, SP_P_NONE);
	}
	if (solid < width) {
		sp_term_paint(D->term, b, SP_P_FAINT);
		for (size_t i = solid; i < width; i++)
			sp_buf_adds(b, sp_term_glyph(D->term, SP_G_FAINT));
		sp_term_paint(D->term, b, SP_P_NONE);
	}
}

static void
gauge(const struct draw *D, struct sp_buf *b, const char *label, double used,
      double ceiling, int over, const char *text)
{
	size_t at = GAUGE_LABEL_W + bar_width(D) + 2;

	sp_buf_adds(b, label);
	pad(b, GAUGE_LABEL_W - strlen(label));
	bar(D, b, used, ceiling, over);
	pad(b, 2);
	para(D, b, text, at, at);
}

/* " · live, read at T", or " · no live figure: why". */
static void
live_words(const struct draw *D, struct sp_buf *b)
{
	const struct sp_live *l = &D->live;

	if (!l->fetched)
		return;
	if (!l->known) {
		sp_buf_adds(b, " \xc2\xb7 no live figure: ");
		clean_slice(D, b, l->why, 0);
		return;
	}
	sp_buf_adds(b, " \xc2\xb7 live, read at ");
	clean_slice(D, b, l->at, 0);
}

/* A gauge's " of 2:00:00 (75%)" after its figure, or " of no recorded
 * limit": per says what the limit is for (" per node"), or "". */
static void
of_limit(struct sp_buf *t, void (*form)(struct sp_buf *, double),
	 double limit, const char *per, double used)
{
	sp_buf_adds(t, " of ");
	if (limit > 0) {
		form(t, limit);
		sp_buf_adds(t, per);
		sp_buf_adds(t, " (");
		sp_fmt_percent(t, used);
		sp_buf_adds(t, ")");
	} else {
		sp_buf_adds(t, "no recorded limit");
	}
}

static void
gauge_time(const struct draw *D, struct sp_buf *b)
{
	const struct sp_job *j = D->j;
	struct sp_buf t = { 0 };
	int over = sp_job_state_is(j, "TIMEOUT") ||
		   (j->timelimit_s > 0 && j->elapsed_s > j->timelimit_s);

	sp_fmt_duration(&t, j->elapsed_s);
	of_limit(&t, sp_fmt_duration, j->timelimit_s, "",
		 D->c->walltime_used);
	gauge(D, b, "time", j->elapsed_s, j->timelimit_s, over, t.p);
	sp_buf_free(&t);
}

static void
gauge_cpu(const struct draw *D, struct sp_buf *b)
{
	const struct sp_jobcalc *c = D->c;
	struct sp_buf t = { 0 };
	double cpu = D->j->total_cpu_s, util = c->cpu_util;
	double busy = c->busy_cores;

	if (D->live.fetched) {
		cpu = D->live.cpu_s;
		util = c->cpu_capacity_s > 0 ? cpu / c->cpu_capacity_s : NAN;
		busy = D->j->elapsed_s > 0 ? cpu / D->j->elapsed_s : NAN;
	}
	sp_fmt_duration(&t, cpu);
	sp_buf_adds(&t, " of ");
	sp_fmt_duration(&t, c->cpu_capacity_s);
	sp_buf_adds(&t, " (");
	sp_fmt_percent(&t, util);
	sp_buf_adds(&t, "), ");
	if (isnan(busy))
		sp_buf_adds(&t, "n/a");
	else
		sp_buf_printf(&t, "%.1f", busy);
	sp_buf_adds(&t, " of ");
	if (isnan(c->cores))
		sp_buf_adds(&t, "n/a");
	else
		sp_fmt_num(&t, c->cores);
	sp_buf_adds(&t, c->cores == 1 ? " core busy" : " cores busy");
	live_words(D, &t);
	gauge(D, b, "CPU", cpu, c->cpu_capacity_s, 0, t.p);
	sp_buf_free(&t);
}

/* A running job's memory now: the largest of its running steps. */
static void
gauge_memory_live(const struct draw *D, struct sp_buf *b)
{
	const struct sp_jobcalc *c = D->c;
	double rss = D->live.rss_b;
	struct sp_buf t = { 0 };

	sp_buf_adds(&t, "now ");
	sp_fmt_bytes(&t, rss);
	of_limit(&t, sp_fmt_bytes, c->mem_limit_b,
		 c->nodes > 1 ? " per node" : "",
		 c->mem_limit_b > 0 ? rss / c->mem_limit_b : NAN);
	live_words(D, &t);
	gauge(D, b, "memory", rss, c->mem_limit_b, rss > c->mem_limit_b,
	      t.p);
	sp_buf_free(&t);
}

static void
gauge_memory(const struct draw *D, struct sp_buf *b)
{
	const struct sp_job *j = D->j;
	const struct sp_jobcalc *c = D->c;
	struct sp_buf t = { 0 };
	int oom = sp_job_state_is(j, "OUT_OF_MEMORY");

	if (D->live.fetched) {
		gauge_memory_live(D, b);
		return;
	}
	sp_buf_adds(&t, "peak ");
	sp_fmt_bytes(&t, j->max_rss_b);
	if (c->rss_above_limit) {
		/* No percentage: the figure is not this job's footprint. */
		sp_buf_adds(&t, ", over its ");
		sp_fmt_bytes(&t, c->mem_limit_b);
		sp_buf_adds(&t, c->nodes > 1 ? " limit per node" : " limit");
		gauge(D, b, "memory", NAN, c->mem_limit_b, oom, t.p);
	} else if (!sp_known(j->max_rss_b)) {
		/* No peak recorded: no bar, neither full nor empty (an OOM
		 * kill says the limit was reached, not how the job got
		 * there). */
		of_limit(&t, sp_fmt_bytes, c->mem_limit_b,
			 c->nodes > 1 ? " per node" : "", c->mem_used);
		gauge(D, b, "memory", NAN, NAN, 0, t.p);
	} else {
		of_limit(&t, sp_fmt_bytes, c->mem_limit_b,
			 c->nodes > 1 ? " per node" : "", c->mem_used);
		gauge(D, b, "memory", j->max_rss_b, c->mem_limit_b, oom, t.p);
	}
	sp_buf_free(&t);
}

static void
gauge_gpu(const struct draw *D, struct sp_buf *b)
{
	const struct sp_job *j = D->j;
	struct sp_buf t = { 0 };

	sp_fmt_num(&t, j->alloc_gpus);
	sp_buf_adds(&t, j->alloc_gpus == 1 ? " GPU, " : " GPUs, ");
	sp_fmt_percent(&t, j->gpu_util);
	sp_buf_adds(&t, " busy, memory ");
	sp_fmt_bytes(&t, j->gpu_mem_b);
	gauge(D, b, "GPU", j->gpu_util, 1, 0, t.p);
	sp_buf_free(&t);
}

/* Quantities with no ceiling to draw against, on one line. */
static void
extras(const struct draw *D, struct sp_buf *b)
{
	const struct sp_job *j = D->j;
	struct sp_buf t = { 0 };

	sp_buf_adds(&t, "kernel ");
	sp_fmt_percent(&t, D->c->sys_fraction);
	sp_buf_adds(&t, " of CPU time");
	item_end(&t);
	sp_buf_adds(&t, "disk read ");
	sp_fmt_bytes(&t, j->read_b);
	sp_buf_adds(&t, ", wrote ");
	sp_fmt_bytes(&t, j->write_b);
	if (!(j->alloc_gpus > 0) || isnan(j->gpu_util)) {
		item_end(&t);
		if (isnan(j->alloc_gpus)) {
			sp_buf_adds(&t, "GPUs n/a");
		} else {
			sp_fmt_num(&t, j->alloc_gpus);
			sp_buf_adds(&t, j->alloc_gpus == 1 ? " GPU" : " GPUs");
			if (j->alloc_gpus > 0)
				sp_buf_adds(&t, ", use not recorded");
		}
	}
	items(D, b, &t, 2);
	sp_buf_free(&t);
}

static void
gauges(const struct draw *D, struct sp_buf *b)
{
	if (!sp_job_ran(D->j))
		return;		/* nothing was used: nothing to draw */
	sp_buf_addc(b, '\n');
	gauge_time(D, b);
	gauge_cpu(D, b);
	gauge_memory(D, b);
	if (D->j->alloc_gpus > 0 && !isnan(D->j->gpu_util))
		gauge_gpu(D, b);
	extras(D, b);
}

/* ------------------------------------------------------------------ */
/* Findings                                                           */

/*
 * One finding: its severity and code leading the evidence's first line
 * (prose, wrapped), the evidence's further lines (quoted from a log,
 * indentation kept) each on a line of its own, then the action.
 */
static void
finding(const struct draw *D, struct sp_buf *b, const struct sp_finding *f)
{
	const char *ev = f->evidence, *nl = strchr(ev, '\n');
	size_t n = nl ? (size_t)(nl - ev) : strlen(ev);
	const char *label = sp_severity_label(f->severity);
	/* log-tail quotes what the log's excerpt below shows already. */
	int below = strcmp(f->code, "log-tail") == 0 &&
		    D->pm->logs != NULL && D->pm->logs->n > 0;
	struct sp_buf t = { 0 };

	pad(b, 2);
	sp_term_painted(D->term, b, severity_paint(f->severity), label);
	sp_buf_addc(b, ' ');
	sp_buf_adds(&t, f->code);
	sp_buf_adds(&t, ": ");
	if (below && n > 0 && ev[n - 1] == ':')
		n--;
	sp_term_clean(D->term, &t, ev, n, 0);
	if (below) {
		sp_buf_adds(&t, " are under log, below.");
		nl = NULL;
	}
	para(D, b, sp_buf_str(&t), 3 + strlen(label), 4);
	while (nl != NULL) {
		ev = nl + 1;
		nl = strchr(ev, '\n');
		n = nl ? (size_t)(nl - ev) : strlen(ev);
		pad(b, 4);
		sp_term_painted(D->term, b, SP_P_FAINT,
				sp_term_glyph(D->term, SP_G_BAR));
		sp_buf_addc(b, ' ');
		quoted_line(D, b, ev, n, 6);
	}
	if (f->action != NULL) {
		sp_buf_clear(&t);
		sp_buf_adds(&t, sp_term_glyph(D->term, SP_G_ARROW));
		sp_buf_addc(&t, ' ');
		clean_str(D, &t, f->action);
		pad(b, 4);
		para(D, b, sp_buf_str(&t), 4, 6);
	}
	sp_buf_free(&t);
}

static void
findings(const struct draw *D, struct sp_buf *b)
{
	const struct sp_findings *f = D->pm->findings;

	if (f == NULL || f->n == 0)
		return;
	heading(D, b, "findings");
	for (size_t i = 0; i < f->n; i++)
		finding(D, b, &f->v[i]);
}

/* ------------------------------------------------------------------ */
/* The log                                                            */

/* Whether a finding quoted this log line already (its text, bar the
 * white space at either end). */
static int
quoted_above(const struct draw *D, const char *s, size_t n)
{
	const struct sp_findings *f = D->pm->findings;

	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (f == NULL || n == 0)
		return 0;
	for (size_t i = 0; i < f->n; i++) {
		const char *p = strchr(f->v[i].evidence, '\n');

		if (strcmp(f->v[i].code, "log-tail") == 0)
			continue;	/* drawn without its quotes */
		while (p != NULL) {
			const char *q = p + 1, *e = strchr(q, '\n');
			size_t m = e ? (size_t)(e - q) : strlen(q);

			while (m > 0 && (*q == ' ' || *q == '\t'))
				q++, m--;
			while (m > 0 && (q[m - 1] == ' ' || q[m - 1] == '\t'))
				m--;
			if (m == n && memcmp(q, s, n) == 0)
				return 1;
			p = e;
		}
	}
	return 0;
}

static void
log_file(const struct draw *D, struct sp_buf *b, const struct sp_log *l,
	 size_t lines)
{
	struct sp_buf t = { 0 };
	const char *from;
	size_t len;
	int skipping = 0;

	sp_buf_printf(&t, "%s ", sp_log_role_name(l->role));
	clean_str(D, &t, l->path);
	sp_buf_printf(&t, " (%s)", sp_log_how_text(l->how));
	if (l->status == SP_LOG_FOUND) {
		sp_buf_adds(&t, ", ");
		sp_fmt_bytes(&t, l->size_b);
	} else {
		sp_buf_adds(&t, ": ");
		sp_buf_adds(&t, sp_log_status_text(l->status));
		if (l->owner) {
			sp_buf_adds(&t, ", owned by ");
			clean_str(D, &t, l->owner);
		}
	}
	pad(b, 2);
	para(D, b, sp_buf_str(&t), 2, 4);
	sp_buf_free(&t);
	if (l->status != SP_LOG_FOUND)
		return;
	sp_log_last_lines(l, lines, &from, &len);
	if (len == 0) {
		sp_buf_adds(b, "    (empty)\n");
		return;
	}
	while (len > 0) {
		const char *nl = memchr(from, '\n', len);
		size_t n = nl ? (size_t)(nl - from) : len;
		int quoted = quoted_above(D, from, n);

		if (!quoted || !skipping) {
			pad(b, 4);
			sp_term_painted(D->term, b, SP_P_FAINT,
					sp_term_glyph(D->term, SP_G_BAR));
			sp_buf_addc(b, ' ');
			if (quoted)
				sp_term_painted(D->term, b, SP_P_FAINT,
						"(as quoted above)");
			else
				quoted_line(D, b, from, n, 6);
			if (quoted)
				sp_buf_addc(b, '\n');
		}
		skipping = quoted;
		from += n + (nl ? 1 : 0);
		len -= n + (nl ? 1 : 0);
	}
}

static void
logs(const struct draw *D, struct sp_buf *b)
{
	const struct sp_logs *l = D->pm->logs;
	size_t lines = D->pm->all ? SP_SHOW_LOG_LINES : SP_SHOW_LOG_EXCERPT;

	heading(D, b, "log");
	if (l == NULL || !l->looked) {
		sp_buf_adds(b, "  not read (--no-logs)\n");
		return;
	}
	if (l->not_started) {
		sp_buf_adds(b, "  none: the job never started, so it wrote "
			    "none\n");
		return;
	}
	if (l->expected.path != NULL)
		log_file(D, b, &l->expected, lines);
	for (size_t i = 0; i < l->n; i++)
		log_file(D, b, &l->v[i], lines);
	if (l->n == 0 && l->expected.path == NULL) {
		pad(b, 2);
		para(D, b, "none found: the record names no log, and none of "
		     "the usual places holds one (point --log-dir at the "
		     "logs)", 2, 4);
	}
}

/* ------------------------------------------------------------------ */
/* Every field (--all)                                                */

/* Each column's label in words, by group; a column of no group is shown
 * under "other" by its own name. */
struct label {
	const char *col;
	const char *words;
};

static const struct label l_identity[] = { { "jobid", "job id" },
	{ "jobid_raw", "raw job id" }, { "array_job", "array job" },
	{ "array_task", "array task" }, { "step", "step" },
	{ "attempt", "attempt" }, { "name", "name" }, { "user", "user" },
	{ "uid", "uid" }, { "account", "account" },
	{ "partition", "partition" }, { "qos", "QOS" },
	{ "cluster", "cluster" }, { "workload", "workload" },
	{ "workload_key", "workload key" }, { NULL, NULL } };
static const struct label l_outcome[] = { { "state", "state" },
	{ "exit_code", "exit code" }, { "signal", "signal" },
	{ "derived_exit_code", "derived exit code" },
	{ "cancelled_by", "cancelled by" }, { "reason", "reason" },
	{ "flags", "flags" }, { NULL, NULL } };
static const struct label l_timing[] = { { "submit", "submitted" },
	{ "eligible", "eligible" }, { "start", "started" },
	{ "end", "ended" }, { "wait_s", "queued" },
	{ "elapsed_s", "elapsed" }, { "timelimit_s", "time limit" },
	{ "open", "still open" }, { NULL, NULL } };
static const struct label l_request[] = { { "req_cpus", "CPUs asked" },
	{ "req_mem", "memory asked" },
	{ "mem_limit_node_b", "memory limit per node" },
	{ "mem_limit_total_b", "memory limit in all" },
	{ "req_tres", "TRES asked" }, { "constraints", "constraints" },
	{ NULL, NULL } };
static const struct label l_alloc[] = { { "alloc_cpus", "CPUs held" },
	{ "nnodes", "nodes" }, { "ntasks", "tasks" },
	{ "nodelist", "node list" }, { "alloc_tres", "TRES held" },
	{ NULL, NULL } };
static const struct label l_cpu[] = { { "total_cpu_s", "CPU time" },
	{ "user_cpu_s", "user CPU" }, { "sys_cpu_s", "kernel CPU" },
	{ "cpu_time_s", "CPU time held" },
	{ "ave_cpu_s", "mean task CPU" }, { "min_cpu_s", "least task CPU" },
	{ "min_cpu_node", "its node" }, { "min_cpu_task", "its task" },
	{ "ave_cpu_freq_hz", "mean CPU clock" }, { "energy_j", "energy" },
	{ NULL, NULL } };
static const struct label l_memory[] = { { "max_rss_b", "peak memory" },
	{ "max_rss_step", "peak's step" }, { "max_rss_node", "peak's node" },
	{ "ave_rss_b", "mean task memory" },
	{ "rss_imbalance", "task memory imbalance" },
	{ "max_vmsize_b", "peak virtual memory" },
	{ "max_pages", "major page faults" }, { NULL, NULL } };
static const struct label l_disk[] = { { "read_b", "disk read" },
	{ "write_b", "disk written" }, { NULL, NULL } };
static const struct label l_gpu[] = { { "alloc_gpus", "GPUs" },
	{ "gpu_util", "GPU busy" }, { "gpu_mem_b", "GPU memory" },
	{ NULL, NULL } };
static const struct label l_prov[] = { { "workdir", "work directory" },
	{ "stdout", "output file" }, { "stderr", "error file" },
	{ "submit_line", "submit line" }, { "comment", "comment" },
	{ NULL, NULL } };

static const struct {
	const char *title;
	const struct label *labels;
} groups[] = {
	{ "identity", l_identity }, { "outcome", l_outcome },
	{ "timing", l_timing }, { "request", l_request },
	{ "allocation", l_alloc }, { "CPU", l_cpu }, { "memory", l_memory },
	{ "disk", l_disk }, { "GPU", l_gpu }, { "provenance", l_prov }
};

enum { NGROUPS = sizeof groups / sizeof groups[0] };

/* The group of a column (NGROUPS for none) and its label. */
static size_t
group_of(const char *col, const char **words)
{
	for (size_t g = 0; g < NGROUPS; g++)
		for (const struct label *l = groups[g].labels; l->col; l++)
			if (strcmp(l->col, col) == 0) {
				*words = l->words;
				return g;
			}
	*words = col;
	return NGROUPS;
}

int
sp_postmortem_human(struct sp_buf *b, const char *col, double v)
{
	size_t n = strlen(col);

	if (!isfinite(v))
		return 0;
	if (n > 3 && strcmp(col + n - 3, "_hz") == 0) {
		sp_buf_printf(b, "%.2f GHz", v / 1e9);
		return 1;
	}
	switch (sp_column_kind(col)) {
	case SP_KIND_SECONDS:
		sp_fmt_duration(b, v);
		return 1;
	case SP_KIND_BYTES:
		sp_fmt_bytes(b, v);
		return 1;
	case SP_KIND_FRACTION:
		sp_fmt_percent(b, v);
		return 1;
	case SP_KIND_HOURS:
		sp_fmt_num(b, v);
		sp_buf_adds(b, " h");
		return 1;
	default:
		return 0;
	}
}

/* A field's value for people: human units, n/a when unknown. */
static void
field_value(const struct draw *D, struct sp_buf *b, const char *col,
	    struct sp_slice s)
{
	double v;

	if (s.n == 0) {
		sp_buf_adds(b, "n/a");
		return;
	}
	if (sp_column_kind(col) == SP_KIND_TEXT || sp_field_num(s, &v) != 1 ||
	    !sp_postmortem_human(b, col, v))
		clean_slice(D, b, s, 0);
	/* sacct's signal field holds marks that are none (an OOM kill's
	 * 0:125): said, so that no one reads a signal into it. */
	if (strcmp(col, "signal") == 0 && sp_field_num(s, &v) == 1 &&
	    v > SP_SIGNAL_MAX)
		sp_buf_adds(b, " (Slurm's mark, not a signal)");
}

/*
 * Rows of one group: short values two to a line when the width allows,
 * long ones on a line of their own, wrapped under their value column.
 */
struct rows {
	const struct draw *D;
	struct sp_buf *b;
	struct sp_buf left;	/* a half row waiting for its partner */
	size_t half;		/* a half row's width, 0: one to a line */
	size_t label_w;
};

static void
rows_flush(struct rows *w)
{
	if (w->left.len == 0)
		return;
	while (w->left.len > 0 && w->left.p[w->left.len - 1] == ' ')
		w->left.p[--w->left.len] = '\0';
	sp_buf_add(w->b, w->left.p, w->left.len);
	sp_buf_addc(w->b, '\n');
	sp_buf_clear(&w->left);
}

static void
rows_add(struct rows *w, const char *label, const char *value, size_t vlen)
{
	size_t lw = w->label_w, cells;

	/* A long value is never measured past what the half could hold. */
	cells = vlen > w->half * 4 ? w->half + 1 : sp_text_width(value, vlen);
	if (w->half > 0 && memchr(value, '\n', vlen) == NULL &&
	    2 + lw + cells + 2 <= w->half) {
		struct sp_buf *t = &w->left;
		int second = t->len > 0;

		sp_buf_adds(t, second ? "" : "  ");
		sp_buf_adds(t, label);
		pad(t, lw - sp_text_width(label, strlen(label)));
		sp_buf_add(t, value, vlen);
		if (second)
			rows_flush(w);
		else
			pad(t, w->half - (2 + lw + cells));
		return;
	}
	rows_flush(w);
	sp_buf_adds(w->b, "  ");
	sp_buf_adds(w->b, label);
	pad(w->b, lw - sp_text_width(label, strlen(label)));
	para(w->D, w->b, value, 2 + lw, 2 + lw);
}

static void
fields(const struct draw *D, struct sp_buf *b)
{
	const struct sp_postmortem *pm = D->pm;
	size_t *group = sp_xcalloc(pm->nfields + 1, sizeof *group);
	const char **words = sp_xcalloc(pm->nfields + 1, sizeof *words);
	struct rows w;
	struct sp_buf v = { 0 };

	memset(&w, 0, sizeof w);
	w.D = D;
	w.b = b;
	for (size_t i = 0; i < pm->nfields; i++)
		group[i] = group_of(pm->cols[i], &words[i]);
	w.half = (size_t)D->term->width / 2;
	for (size_t g = 0; g <= NGROUPS; g++) {
		int started = 0;

		/* Each group's labels as wide as its widest. */
		w.label_w = 0;
		for (size_t i = 0; i < pm->nfields; i++) {
			size_t n = sp_text_width(words[i], strlen(words[i])) +
				   FIELD_GAP;

			if (group[i] == g && n > w.label_w)
				w.label_w = n;
		}
		for (size_t i = 0; i < pm->nfields; i++) {
			if (group[i] != g)
				continue;
			if (!started) {
				heading(D, b, g < NGROUPS ? groups[g].title :
					"other");
				started = 1;
			}
			sp_buf_clear(&v);
			field_value(D, &v, pm->cols[i], pm->fields[i]);
			rows_add(&w, words[i], sp_buf_str(&v), v.len);
		}
		rows_flush(&w);
	}
	sp_buf_free(&v);
	sp_buf_free(&w.left);
	free(group);
	free(words);
}

static void
steps(const struct draw *D, struct sp_buf *b)
{
	struct sp_buf t = { 0 };

	if (D->pm->nsteps == 0)
		return;
	heading(D, b, "steps");
	for (size_t i = 0; i < D->pm->nsteps; i++) {
		const struct sp_job *s = &D->pm->steps[i];

		sp_buf_clear(&t);
		sp_buf_adds(&t, "  ");
		clean_slice(D, &t, s->step, 0);
		sp_buf_adds(&t, ": ");
		clean_slice(D, &t, s->state, 0);
		item_end(&t);
		sp_buf_adds(&t, "elapsed ");
		sp_fmt_duration(&t, s->elapsed_s);
		item_end(&t);
		sp_buf_adds(&t, "CPU ");
		sp_fmt_duration(&t, s->total_cpu_s);
		item_end(&t);
		sp_buf_adds(&t, "peak memory ");
		sp_fmt_bytes(&t, s->max_rss_b);
		item_end(&t);
		sp_buf_adds(&t, "tasks ");
		if (isnan(s->ntasks))
			sp_buf_adds(&t, "n/a");
		else
			sp_fmt_num(&t, s->ntasks);
		items(D, b, &t, 4);
	}
	sp_buf_free(&t);
}

void
sp_postmortem_analyse(struct sp_analysis *a, const struct sp_job *j,
		      const struct sp_job *steps, size_t nsteps,
		      const struct sp_site *site, struct sp_logctx *logs,
		      struct sp_node_history *history,
		      struct sp_wl_memo *wl, int figures_only)
{
	if (figures_only) {
		memset(a, 0, sizeof *a);
		sp_jobcalc(&a->calc, j, steps, nsteps, site);
		sp_logs_none(&a->logs);
		return;
	}
	sp_postmortem_analyse_live(a, j, steps, nsteps, site, logs, history,
				   wl, NULL);
}

void
sp_postmortem_analyse_live(struct sp_analysis *a, const struct sp_job *j,
			   const struct sp_job *steps, size_t nsteps,
			   const struct sp_site *site, struct sp_logctx *logs,
			   struct sp_node_history *history,
			   struct sp_wl_memo *wl,
			   const struct sp_live *l)
{
	struct sp_histset *workloads = wl != NULL ? wl->set : NULL;
	struct sp_diag d;
	long w;

	memset(a, 0, sizeof *a);
	sp_jobcalc(&a->calc, j, steps, nsteps, site);
	sp_logs_none(&a->logs);
	if (logs != NULL)
		sp_logs_find(logs, j, &a->logs);
	memset(&d, 0, sizeof d);
	d.job = j;
	d.steps = steps;
	d.nsteps = nsteps;
	d.site = site;
	d.logs = &a->logs;
	if (history != NULL && sp_node_history_note(history, j, &a->note) == 1) {
		/* The note is a clause; the finding makes it a sentence. */
		while (a->note.len > 0 && a->note.p[a->note.len - 1] == '.')
			a->note.p[--a->note.len] = '\0';
		d.node_note = a->note.p;
	}
	d.missing = workloads != NULL ? workloads->missing : 0;
	d.empty = workloads != NULL ? workloads->empty : 0;
	if (workloads == NULL) {
		d.no_workload = "the input has no workload_key, which sp-group "
		    "adds";
	} else if ((w = sp_histset_lookup(workloads, j->workload_key.p,
					  j->workload_key.n)) >= 0) {
		d.workload = sp_histset_hist(workloads, (size_t)w);
		d.verdict = sp_wl_memo_get(wl, (size_t)w);
		d.risks = workloads->risks;
	} else {
		d.no_workload = "its workload has no usable run in the input";
	}
	if (l != NULL && l->fetched && sp_live_running(j))
		d.live = l;
	sp_rules_job(&d, &a->findings);
	if (d.live != NULL) {
		sp_rules_live_in(&a->findings, j, l, workloads, site, 0);
		sp_findings_sort(&a->findings, 0);
	}
}

void
sp_analysis_free(struct sp_analysis *a)
{
	sp_findings_free(&a->findings);
	sp_logs_free(&a->logs);
	sp_buf_free(&a->note);
}

void
sp_postmortem_draw(const struct sp_term *t, const struct sp_postmortem *pm,
		   struct sp_buf *out)
{
	struct draw D;

	D.term = t;
	D.pm = pm;
	D.j = pm->job;
	D.c = pm->calc;
	live_now(pm, &D.live);
	verdict_line(&D, out);
	context_line(&D, out);
	gauges(&D, out);
	findings(&D, out);
	logs(&D, out);
	if (pm->all) {
		fields(&D, out);
		steps(&D, out);
	}
}
