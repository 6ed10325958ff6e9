/*
 * job.c - the article's figure 3: one run's request against its use,
 * each quantity with a ceiling drawn against that ceiling (job records).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_jobcalc.h"
#include "plot.h"

struct one {
	int found;
	double attempt, matches;
	struct sp_job j;		/* numbers only: the slices are gone */
	struct sp_jobcalc c;
	int oom;
	struct sp_buf jobid, name, state, node;
};

static int
is_asked(const struct sp_job *j, const char *id)
{
	return id == NULL || sp_slice_eq(j->jobid, id) ||
	       sp_slice_eq(j->jobid_raw, id);
}

static void
keep(struct one *t, const struct sp_job *j)
{
	t->found = 1;
	t->attempt = isnan(j->attempt) ? 0 : j->attempt;
	t->j = *j;
	sp_jobcalc(&t->c, j, NULL, 0, NULL);
	t->oom = sp_job_state_is(j, "OUT_OF_MEMORY");
	sp_buf_clear(&t->jobid);
	sp_buf_clear(&t->name);
	sp_buf_clear(&t->state);
	sp_buf_clear(&t->node);
	field_text(&t->jobid, j->jobid, PLOT_LABEL_MAX);
	field_text(&t->name, j->name, PLOT_LABEL_MAX);
	field_text(&t->state, j->state, PLOT_LABEL_MAX);
	field_text(&t->node, j->nodelist, PLOT_LABEL_MAX);
}

static void
read_job(struct sp_reader *r, const struct plot_opts *o, struct one *t)
{
	struct sp_jobcols c;
	struct sp_job j;
	struct sp_buf first = { 0 };

	sp_reader_need(r, "jobid", "sp-fetch");
	sp_reader_need(r, "elapsed_s", "sp-fetch");
	sp_jobcols_resolve(&c, r);
	memset(t, 0, sizeof *t);
	while (sp_next_or_die(r)) {
		sp_job_parse(&j, &c, r);
		if (sp_job_is_step(&j) || !is_asked(&j, o->job))
			continue;
		/* A job requeued is several attempts: the last one drawn. */
		if (t->found && sp_slice_eq(j.jobid, sp_buf_str(&first))) {
			if (!(j.attempt < t->attempt))
				keep(t, &j);
			continue;
		}
		t->matches++;
		if (t->matches == 1) {
			sp_buf_clear(&first);
			sp_buf_add(&first, j.jobid.p, j.jobid.n);
			keep(t, &j);
		}
	}
	sp_buf_free(&first);
	if (o->job && !t->found)
		sp_die(SP_EXIT_USAGE, "no job '%s' in the records", o->job);
	if (t->matches > 1)
		sp_die(SP_EXIT_USAGE, "%.0f jobs in the records: name one "
		       "with --job ID", t->matches);
}

/* One row: the label, the ceiling faint, the use solid, words below. */
static void
row(struct svg *g, double y, const char *label, double used, double ceiling,
    int draw_used, const char *words)
{
	double x = 110, w = PLOT_WIDTH - PLOT_MARGIN - x, h = 18;

	svg_text(g, PLOT_MARGIN, y + 14, ANCHOR_START, PLOT_FONT, 1, INK_TEXT,
		 label);
	if (ceiling > 0) {
		svg_rect(g, x, y, w, h, INK_FAINT, draw_used ? PAT_SOLID :
			 PAT_HATCH, INK_PAPER);
		if (draw_used && used > 0) {
			double f = used / ceiling;

			/* Something used shows, however little. */
			svg_rect(g, x, y, fmax(1.5, w * fmin(f, 1)), h,
				 INK_BLUE, PAT_SOLID, INK_PAPER);
			if (f > 1)
				svg_mark(g, MARK_TRIANGLE, x + w - 8, y + h / 2,
					 5, INK_VERMILLION);
		}
	} else {
		svg_text(g, x, y + 14, ANCHOR_START, PLOT_SMALL, 0, INK_MUTED,
			 "no ceiling recorded");
	}
	svg_text(g, x, y + h + 15, ANCHOR_START, PLOT_SMALL, 0, INK_TEXT,
		 words);
}

static void
say_duration(struct sp_buf *b, double used, double limit)
{
	sp_fmt_duration(b, used);
	sp_buf_adds(b, " of ");
	if (limit > 0) {
		sp_fmt_duration(b, limit);
		sp_buf_adds(b, " (");
		sp_fmt_percent(b, used / limit);
		sp_buf_addc(b, ')');
	} else {
		sp_buf_adds(b, "no recorded limit");
	}
}

static void
draw(struct svg *g, const struct one *t)
{
	const struct sp_job *j = &t->j;
	const struct sp_jobcalc *c = &t->c;
	struct sp_buf b = { 0 };
	double y = 0, step = 52;

	say_duration(&b, j->elapsed_s, j->timelimit_s);
	row(g, y, "time", j->elapsed_s, j->timelimit_s, !isnan(j->elapsed_s),
	    sp_buf_str(&b));
	y += step;

	sp_buf_clear(&b);
	sp_fmt_duration(&b, j->total_cpu_s);
	sp_buf_adds(&b, " of ");
	sp_fmt_duration(&b, c->cpu_capacity_s);
	sp_buf_adds(&b, " CPU time (");
	sp_fmt_percent(&b, c->cpu_util);
	sp_buf_adds(&b, "), ");
	if (isnan(c->cores))
		sp_buf_adds(&b, "cores n/a");
	else
		sp_buf_printf(&b, "%.1f of %g cores busy", c->busy_cores,
			      c->cores);
	if (!isnan(c->sys_fraction)) {
		sp_buf_adds(&b, "; the kernel's share ");
		sp_fmt_percent(&b, c->sys_fraction);
	}
	row(g, y, "CPU", j->total_cpu_s, c->cpu_capacity_s,
	    !isnan(j->total_cpu_s), sp_buf_str(&b));
	y += step;

	sp_buf_clear(&b);
	sp_buf_adds(&b, "MaxRSS ");
	sp_fmt_bytes(&b, j->max_rss_b);
	if (c->rss_above_limit) {
		sp_buf_adds(&b, ", above the ");
		sp_fmt_bytes(&b, c->mem_limit_b);
		sp_buf_adds(&b, " limit: not a footprint, no share drawn");
	} else {
		sp_buf_adds(&b, " of ");
		if (c->mem_limit_b > 0) {
			sp_fmt_bytes(&b, c->mem_limit_b);
			sp_buf_adds(&b, c->nodes > 1 ? " per node (" : " (");
			sp_fmt_percent(&b, c->mem_used);
			sp_buf_addc(&b, ')');
		} else {
			sp_buf_adds(&b, "no recorded limit");
		}
	}
	row(g, y, "memory", j->max_rss_b, c->mem_limit_b,
	    !c->rss_above_limit && !isnan(j->max_rss_b), sp_buf_str(&b));
	y += step;

	if (c->gpus > 0) {
		sp_buf_clear(&b);
		sp_buf_printf(&b, "%g GPU%s, busy ", c->gpus,
			      c->gpus == 1 ? "" : "s");
		sp_fmt_percent(&b, j->gpu_util);
		row(g, y, "GPU", j->gpu_util, 1, !isnan(j->gpu_util),
		    sp_buf_str(&b));
		y += step;
	}
	/* The key: what faint and solid mean, in words as well. */
	legend_swatch(g, legend_swatch(g, PLOT_MARGIN, y + 6, INK_FAINT,
				       PAT_SOLID, "the limit requested"),
		      y + 6, INK_BLUE, PAT_SOLID, "what the run used");
	sp_buf_free(&b);
}

PLOT_KIND(job)
{
	struct one t;

	read_job(r, o, &t);
	if (!t.found) {
		sp_buf_adds(why, "no job in the records");
	} else if (t.c.open) {
		sp_buf_adds(why, "the job has not ended: its use is not yet "
			    "known");
		t.found = 0;
	} else {
		draw(g, &t);
		sp_buf_printf(title, "Job %s", sp_buf_str(&t.jobid));
		if (t.name.len)
			sp_buf_printf(title, " (%s)", sp_buf_str(&t.name));
		sp_buf_adds(title, ": request against use");
		sp_buf_printf(caption, "One allocation from the job records "
			      "(sp-fetch), %s on %s: each quantity against the "
			      "ceiling the submission requested, the faint bar "
			      "the limit, the solid bar what the run used.",
			      t.state.len ? sp_buf_str(&t.state) :
			      "state unknown",
			      t.node.len ? sp_buf_str(&t.node) : "no node");
		if (t.c.rss_above_limit)
			sp_buf_printf(caption, " MaxRSS exceeds the limit and "
				      "the job was %s, so the figure cannot "
				      "be its footprint: no share is drawn.",
				      t.oom ? "killed (no working set reads "
				      "above its limit)" : "not killed");
		sp_buf_adds(caption, " sp-show gives its findings.");
	}
	sp_buf_free(&t.jobid);
	sp_buf_free(&t.name);
	sp_buf_free(&t.state);
	sp_buf_free(&t.node);
	return t.found;
}
