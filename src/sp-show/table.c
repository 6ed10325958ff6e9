/*
 * table.c - sp-show --table: one row a job, as seff and reportseff users
 * expect (jobid, name, state, elapsed, and how much of each request was
 * used), TSV with a header into a pipe, aligned to the window on a
 * terminal; and the aligned table itself, which the array view draws
 * too, and the rule between two things shown.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "show.h"

/* ------------------------------------------------------------------ */
/* An aligned table, fitted to the window                             */

void
table_init(struct table *t, const char *const *names, const int *right,
	   size_t ncols)
{
	memset(t, 0, sizeof *t);
	t->names = names;
	t->right = right;
	t->ncols = ncols;
}

void
table_add(struct table *t, char **cells)
{
	t->cells = sp_xgrow(t->cells, &t->cap, (t->nrows + 1) * t->ncols,
			    sizeof *t->cells);
	memcpy(t->cells + t->nrows * t->ncols, cells,
	       t->ncols * sizeof *cells);
	t->nrows++;
}

void
table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof *t);
}

static void
cell(const struct sp_term *term, struct sp_buf *b, const char *s,
     size_t width, int right, int last)
{
	size_t n = strlen(s), cells = sp_text_width(s, n);

	if (cells > width) {
		/* On a terminal cut to the width; into a pipe whole. */
		sp_term_fitted(term, b, s, n, width);
		return;
	}
	if (right)
		for (size_t i = cells; i < width; i++)
			sp_buf_addc(b, ' ');
	sp_buf_add(b, s, n);
	if (!right && !last)
		for (size_t i = cells; i < width; i++)
			sp_buf_addc(b, ' ');
}

/*
 * Each column as wide as its widest cell.  On a terminal, a table wider
 * than the window gives way in its text columns but the first (the
 * row's name), the widest first and none narrower than its name, whose
 * cells are cut with an ellipsis; a table that still cannot fit has each
 * line cut at the window.
 */
void
table_draw(const struct table *t, const struct sp_term *term,
	   struct sp_buf *out)
{
	size_t *w = sp_xcalloc(t->ncols, sizeof *w), total = 0;
	struct sp_buf row = { 0 };

	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = strlen(t->names[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			const char *s = t->cells[r * t->ncols + c];
			size_t n = sp_text_width(s, strlen(s));

			if (n > w[c])
				w[c] = n;
		}
		total += w[c] + (c ? 2 : 0);
	}
	while (term->tty && total > (size_t)term->width) {
		size_t widest = t->ncols, floor, give;

		/* The first column (the job id) names the row: it is
		 * never cut, the line's end is. */
		for (size_t c = 1; c < t->ncols; c++)
			if (!t->right[c] && w[c] > strlen(t->names[c]) &&
			    (widest == t->ncols || w[c] > w[widest]))
				widest = c;
		if (widest == t->ncols)
			break;
		floor = strlen(t->names[widest]);
		give = w[widest] - floor;
		if (give > total - (size_t)term->width)
			give = total - (size_t)term->width;
		w[widest] -= give;
		total -= give;
	}
	for (size_t r = 0; r <= t->nrows; r++) {
		sp_buf_clear(&row);
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = r == 0 ? t->names[c] :
					t->cells[(r - 1) * t->ncols + c];

			if (c)
				sp_buf_adds(&row, "  ");
			cell(term, &row, s, w[c], t->right[c],
			     c + 1 == t->ncols);
		}
		while (row.len > 0 && row.p[row.len - 1] == ' ')
			row.p[--row.len] = '\0';
		if (term->tty)
			sp_term_fitted(term, out, row.p ? row.p : "", row.len,
				       (size_t)term->width);
		else
			sp_buf_add(out, row.p ? row.p : "", row.len);
		sp_buf_addc(out, '\n');
	}
	sp_buf_free(&row);
	free(w);
}

/* ------------------------------------------------------------------ */
/* --table                                                            */

static const char *const table_cols[] = { "jobid", "name", "state",
	"elapsed_s", "time_eff", "cpu_eff", "mem_eff", "gpu_eff", "exit_code"
};
/* The same columns as people read them, in --plain. */
const char *const table_names[NTABLE_COLS] = { "jobid", "name", "state",
	"elapsed", "time_eff", "cpu_eff", "mem_eff", "gpu_eff", "exit" };
const int table_right[NTABLE_COLS] = { 0, 0, 0, 1, 1, 1, 1, 1, 1 };

enum { NTABLE = NTABLE_COLS };

/*
 * How much of each request a job used: elapsed of its time limit, CPU
 * time of what its cores could give, peak memory of its limit per node
 * (unknown where the peak reads above it: no footprint), GPU busy where
 * it held GPUs.  NaN when unknown.
 */
static void
efficiencies(const struct sp_job *j, const struct sp_jobcalc *c, double *eff)
{
	eff[0] = c->walltime_used;
	eff[1] = c->cpu_util;
	eff[2] = c->rss_above_limit ? NAN : c->mem_used;
	eff[3] = c->gpus > 0 ? j->gpu_util : NAN;
}

static char *
clean_cell(const struct sp_term *term, struct sp_slice s)
{
	struct sp_buf d = { 0 }, c = { 0 };

	sp_field_decode(&d, s.p, s.n);
	sp_term_clean(term, &c, sp_buf_str(&d), d.len, 0);
	sp_buf_free(&d);
	if (c.p == NULL)
		sp_buf_adds(&c, "");
	return c.p;
}

void
table_cells(const struct sp_term *term, const struct sp_job *j,
	    const struct sp_jobcalc *c, char **cells)
{
	struct sp_buf b = { 0 };
	double eff[4];

	efficiencies(j, c, eff);
	cells[0] = clean_cell(term, j->jobid);
	cells[1] = clean_cell(term, j->name);
	cells[2] = clean_cell(term, j->state);
	if (isnan(j->elapsed_s))
		sp_buf_adds(&b, "n/a");
	else
		sp_fmt_duration(&b, j->elapsed_s);
	cells[3] = b.p;
	for (int i = 0; i < 4; i++) {
		struct sp_buf e = { 0 };

		if (isnan(eff[i]))
			sp_buf_adds(&e, "n/a");
		else
			sp_fmt_percent(&e, eff[i]);
		cells[4 + i] = e.p;
	}
	memset(&b, 0, sizeof b);
	if (isnan(j->exit_code))
		sp_buf_adds(&b, "n/a");
	else
		sp_fmt_num(&b, j->exit_code);
	cells[8] = b.p;
}

void
jobtable_begin(struct run *R)
{
	if (R->fmt == SP_FMT_PLAIN) {
		table_init(&R->table, table_names, table_right, NTABLE);
		return;
	}
	sp_writer_init(&R->w, stdout, R->fmt);
	for (size_t i = 0; i < NTABLE; i++)
		sp_writer_column(&R->w, table_cols[i]);
	sp_writer_header(&R->w);
}

void
jobtable_row(struct run *R, const struct shown *s)
{
	const struct sp_job *j = &s->h->alloc.j;
	double eff[4];

	if (R->fmt == SP_FMT_PLAIN) {
		char *cells[NTABLE];

		table_cells(&R->term, j, s->calc, cells);
		table_add(&R->table, cells);
		return;
	}
	efficiencies(j, s->calc, eff);
	sp_writer_slice(&R->w, j->jobid);
	sp_writer_slice(&R->w, j->name);
	sp_writer_slice(&R->w, j->state);
	sp_writer_num(&R->w, j->elapsed_s);
	for (int i = 0; i < 4; i++)
		sp_writer_num(&R->w, eff[i]);
	sp_writer_num(&R->w, j->exit_code);
	sp_writer_end(&R->w);
}

void
jobtable_end(struct run *R)
{
	if (R->fmt != SP_FMT_PLAIN) {
		sp_writer_finish(&R->w);
		return;
	}
	sp_buf_clear(&R->out);
	table_draw(&R->table, &R->term, &R->out);
	fwrite(R->out.p, 1, R->out.len, stdout);
	table_free(&R->table);
}

/* Below what both the post-mortems and the array view draw. */
void
separate(const struct run *R, struct sp_buf *b)
{
	if (R->shown == 0)
		return;
	sp_buf_addc(b, '\n');
	for (int i = 0; i < R->term.width; i++)
		sp_buf_adds(b, sp_term_glyph(&R->term, SP_G_RULE));
	sp_buf_adds(b, "\n\n");
}
