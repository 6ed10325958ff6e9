/*
 * runtime.c - the article's figure 1: how long each run lasted, on a log
 * scale, every closed allocation of the record (job records).
 */
#include <math.h>
#include <string.h>

#include "plot.h"

/* Bars per decade of seconds, and the longest run drawn (100 days). */
#define BINS_PER_DECADE	4
#define DECADES		7
#define NBINS		(BINS_PER_DECADE * DECADES)

enum outcome { OUT_DONE, OUT_FAILED, OUT_OTHER, OUT_N };

struct runtime {
	double n[NBINS][OUT_N];
	double runs, open, unknown, steps;
	int last;		/* the highest bin used */
};

static int
bin_of(double s)
{
	int b = s < 1 ? 0 : (int)floor(log10(s) * BINS_PER_DECADE);

	return b >= NBINS ? NBINS - 1 : b;
}

static void
read_runs(struct sp_reader *r, struct runtime *t)
{
	struct sp_jobcols c;
	struct sp_job j;

	sp_reader_need(r, "elapsed_s", "sp-fetch");
	sp_reader_need(r, "state", "sp-fetch");
	sp_jobcols_only(&c, r, "step", "open", "end", "state", "elapsed_s",
			NULL);
	memset(t, 0, sizeof *t);
	while (sp_next_or_die(r)) {
		enum outcome o;
		int b;

		sp_job_parse(&j, &c, r);
		if (sp_job_is_step(&j)) {
			t->steps++;
			continue;
		}
		if (sp_job_is_open(&j)) {
			t->open++;
			continue;
		}
		if (isnan(j.elapsed_s)) {
			t->unknown++;
			continue;
		}
		o = sp_job_state_is(&j, "COMPLETED") ? OUT_DONE :
		    sp_job_failed(&j) ? OUT_FAILED : OUT_OTHER;
		b = bin_of(j.elapsed_s);
		t->n[b][o]++;
		t->runs++;
		if (b > t->last)
			t->last = b;
	}
}

/* Round durations to mark the log axis with. */
static size_t
duration_ticks(struct tick *t, double top)
{
	static const struct { double s; const char *label; } at[] = {
		{ 1, "1 s" }, { 10, "10 s" }, { 60, "1 min" },
		{ 600, "10 min" }, { 3600, "1 h" }, { 36000, "10 h" },
		{ 86400, "1 day" }, { 864000, "10 days" },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
		if (at[i].s > top)
			break;
		t[n].v = at[i].s;
		snprintf(t[n].label, sizeof t[n].label, "%s", at[i].label);
		n++;
	}
	return n;
}

static void
draw(struct svg *g, const struct runtime *t)
{
	static const enum ink inks[OUT_N] = { INK_BLUE, INK_VERMILLION,
					      INK_ORANGE };
	static const enum pattern pats[OUT_N] = { PAT_SOLID, PAT_HATCH,
						  PAT_DOTS };
	static const char *const words[OUT_N] = { "completed", "failed",
						  "cancelled or other" };
	double left = 64, right = PLOT_WIDTH - PLOT_MARGIN, top = 40,
	       bottom = 250, most = 0, ytop, xtop;
	struct scale sx, sy;
	struct tick xt[8], yt[8];
	size_t nx, ny;
	double x = left;

	for (int b = 0; b <= t->last; b++) {
		double sum = 0;

		for (int o = 0; o < OUT_N; o++)
			sum += t->n[b][o];
		if (sum > most)
			most = sum;
	}
	/* Whole decades: the axis starts at 1 s and ends past the longest. */
	xtop = pow(10, ceil((t->last + 1) / (double)BINS_PER_DECADE));
	if (xtop < 100)
		xtop = 100;
	scale_log(&sx, 1, xtop, left, right);
	ny = ticks_linear(yt, 6, 0, most, fmt_count, &ytop);
	scale_linear(&sy, 0, ytop, bottom, top);
	nx = duration_ticks(xt, xtop);
	axis_y(g, &sy, left, right, yt, ny, "runs");
	for (int b = 0; b <= t->last; b++) {
		double x0 = scale_at(&sx, pow(10, b / (double)BINS_PER_DECADE));
		double x1 = scale_at(&sx, pow(10, (b + 1) /
					  (double)BINS_PER_DECADE));
		double base = 0;

		for (int o = 0; o < OUT_N; o++) {
			double y0 = scale_at(&sy, base);
			double y1 = scale_at(&sy, base + t->n[b][o]);

			svg_rect(g, x0 + 0.5, y1, x1 - x0 - 1, y0 - y1,
				 inks[o], pats[o], INK_PAPER);
			base += t->n[b][o];
		}
	}
	axis_x(g, &sx, bottom, bottom, xt, nx, "elapsed (log scale)");
	for (int o = 0; o < OUT_N; o++)
		x = legend_swatch(g, x, 12, inks[o], pats[o], words[o]);
}

PLOT_KIND(runtime)
{
	struct runtime t;

	(void)o;
	read_runs(r, &t);
	if (t.runs == 0) {
		sp_buf_adds(why, "no closed allocation with an elapsed time "
			    "in the records");
		return 0;
	}
	draw(g, &t);
	sp_buf_adds(title, "How long each run lasted: ");
	plot_count(title, t.runs, "run", "runs");
	sp_buf_printf(caption, "Every closed allocation in the job records "
		      "(sp-fetch), by elapsed time on a log scale, %d bars a "
		      "decade; a run under 1 s is in the first bar. Failed: "
		      "FAILED, TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, BOOT_FAIL or "
		      "DEADLINE.", BINS_PER_DECADE);
	plot_left_out(caption, " Left out:", (const struct plot_omit[]){
		{ t.open, "record never ended", "records never ended" },
		{ t.unknown, "record with no elapsed time",
		  "records with no elapsed time" },
		{ 0, NULL, NULL } });
	return 1;
}
