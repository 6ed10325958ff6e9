/*
 * verdicts.c - the article's figure 7: sp-size's verdicts, flag by flag,
 * the refusals counted beside the bars rather than drawn in them (advice
 * records).
 */
#include <math.h>
#include <string.h>

#include "plot.h"

#define NFLAGS 5
#define NVERDICTS 5

static const char *const flags[NFLAGS] = { "--time", "--mem",
	"--cpus-per-task", "--gpus", "--exclude" };
static const char *const verdicts[NVERDICTS] = { "raise", "lower", "keep",
	"hold", "capped" };
static const enum ink inks[NVERDICTS] = { INK_VERMILLION, INK_BLUE,
	INK_FAINT, INK_ORANGE, INK_PURPLE };
static const enum pattern pats[NVERDICTS] = { PAT_HATCH, PAT_SOLID,
	PAT_SOLID, PAT_DOTS, PAT_GRID };

struct tally {
	double n[NFLAGS][NVERDICTS];
	double refused[NFLAGS], rows[NFLAGS];
	double other;		/* a flag or verdict this figure does not know */
	double judged;
};

static int
index_of(const char *const *names, size_t n, struct sp_slice s)
{
	for (size_t i = 0; i < n; i++)
		if (sp_slice_eq(s, names[i]))
			return (int)i;
	return -1;
}

static void
read_advice(struct sp_reader *r, struct tally *t)
{
	int cflag = sp_reader_need(r, "flag", "sp-size");
	int cverdict = sp_reader_need(r, "verdict", "sp-size");

	memset(t, 0, sizeof *t);
	while (sp_next_or_die(r)) {
		int f = index_of(flags, NFLAGS, r->f[cflag]);
		int v = index_of(verdicts, NVERDICTS, r->f[cverdict]);

		if (f < 0) {
			t->other++;
			continue;
		}
		t->rows[f]++;
		if (sp_slice_eq(r->f[cverdict], "refuse"))
			t->refused[f]++;
		else if (v < 0)
			t->other++;
		else {
			t->n[f][v]++;
			t->judged++;
		}
	}
}

static void
draw(struct svg *g, const struct tally *t)
{
	double left = 150, right = PLOT_WIDTH - PLOT_MARGIN, top = 44,
	       rowh = 52, most = 0, xtop, x = PLOT_MARGIN, y;
	struct scale sx;
	struct tick xt[8];
	size_t nx, row = 0;

	for (int f = 0; f < NFLAGS; f++) {
		double sum = 0;

		for (int v = 0; v < NVERDICTS; v++)
			sum += t->n[f][v];
		most = fmax(most, sum);
	}
	nx = ticks_linear(xt, 6, 0, most, fmt_count, &xtop);
	scale_linear(&sx, 0, xtop, left, right);
	for (int f = 0; f < NFLAGS; f++)
		row += t->rows[f] > 0;
	/* The grid first, under the bars. */
	axis_x(g, &sx, top + rowh * (double)row, top - 6, xt, nx,
	       "workloads with a verdict");
	row = 0;
	for (int f = 0; f < NFLAGS; f++) {
		double base = 0;

		if (t->rows[f] == 0)
			continue;
		y = top + rowh * (double)row++;
		svg_text(g, left - 8, y + 13, ANCHOR_END, PLOT_FONT, 1,
			 INK_TEXT, flags[f]);
		svg_textf(g, left - 8, y + 27, ANCHOR_END, PLOT_SMALL, 0,
			  INK_MUTED, "%.0f refused", t->refused[f]);
		for (int v = 0; v < NVERDICTS; v++) {
			double x0 = scale_at(&sx, base);
			double x1 = scale_at(&sx, base + t->n[f][v]);

			base += t->n[f][v];
			if (t->n[f][v] == 0)
				continue;
			svg_rect(g, x0, y, x1 - x0, 24, inks[v], pats[v],
				 INK_PAPER);
			/* The count where it fits; the legend names the
			 * segment, never its colour alone. */
			if (x1 - x0 >= 30)
				svg_textf(g, (x0 + x1) / 2, y + 38,
					  ANCHOR_MIDDLE, PLOT_SMALL, 0,
					  INK_TEXT, "%.0f %s", t->n[f][v],
					  verdicts[v]);
		}
	}
	for (int v = 0; v < NVERDICTS; v++)
		x = legend_swatch(g, x, 12, inks[v], pats[v], verdicts[v]);
}

PLOT_KIND(verdicts)
{
	struct tally t;
	double refused = 0;

	(void)o;
	read_advice(r, &t);
	for (int f = 0; f < NFLAGS; f++)
		refused += t.refused[f];
	if (t.judged == 0) {
		if (refused > 0)
			sp_buf_printf(why, "every one of %.0f verdicts was a "
				      "refusal (too few usable runs)", refused);
		else
			sp_buf_adds(why, "no verdict in the advice records");
		return 0;
	}
	draw(g, &t);
	sp_buf_printf(title, "Verdicts by flag: %.0f, and %.0f refusals",
		      t.judged, refused);
	sp_buf_adds(caption, "sp-size's verdict for each workload and flag. "
		    "The refusals (fewer than the usable runs a verdict needs) "
		    "are left out of the bars and counted beside them: most "
		    "workloads are run once or twice. Hold: the record says "
		    "the request is not the variable; capped: at the "
		    "partition's ceiling.");
	plot_left_out(caption, " Left out:", (const struct plot_omit[]){
		{ t.other, "record of a flag or verdict this figure does not "
		  "know", "records of a flag or verdict this figure does not "
		  "know" },
		{ 0, NULL, NULL } });
	return 1;
}
