/*
 * plain.c - the first screen as text, for a terminal that cannot browse
 * (TERM=dumb, no /dev/tty) and for --plain: the headline, the line on
 * the jobs running now when one runs, then every
 * workload in the dashboard's order, most compute first, as an aligned
 * table (sp_writer's --plain, fitted to the terminal).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "browse.h"

/* The rollup's rows in the first screen's order, most compute first (a
 * copy: the model's rows stay put). */
static struct sp_rollup_wl *
first_order(const struct model *m)
{
	struct sp_rollup_wl *rows = sp_xcalloc(m->ru.n ? m->ru.n : 1,
					       sizeof *rows);
	struct sp_rollup sorted = m->ru;

	memcpy(rows, m->ru.v, m->ru.n * sizeof *rows);
	sorted.v = rows;
	sp_rollup_sort(&sorted, SP_ROLLUP_COST);
	return rows;
}

/* The table's header written, and its rows in the first screen's order. */
static struct sp_rollup_wl *
table_open(struct sp_writer *w, enum sp_format fmt, const char *const *cols,
	   const struct model *m)
{
	sp_writer_init(w, stdout, fmt);
	sp_writer_columns(w, cols);
	sp_writer_header(w);
	return first_order(m);
}

/* A row's first three fields: the workload as the dashboard names it,
 * its user and partition (label is scratch). */
static void
put_names(struct sp_writer *w, const struct model *m,
	  const struct sp_rollup_wl *x, struct sp_buf *label)
{
	const struct wlinfo *info = &m->info[x->key];
	const char *key = sp_rollup_key(&m->ru, x);

	sp_buf_clear(label);
	sp_rollup_label(label, x, sp_rollup_key_workload(key));
	sp_writer_field(w, label->p, label->len);
	sp_writer_str(w, sp_intern_str(&m->users, info->user_id));
	sp_writer_str(w, sp_intern_str(&m->parts, info->part_id));
}

int
next_run(struct model *m, const struct opts *o)
{
	static const char *const cols[] = { "workload", "user", "partition",
		"workload_key", "next", NULL };
	struct browse B;
	struct sp_buf label = { 0 }, next = { 0 };
	struct sp_writer w;
	struct sp_rollup_wl *rows;

	/* The workload screen's own text, never painted: a record. */
	memset(&B, 0, sizeof B);
	B.m = m;
	B.o = o;
	sp_term_setup(&B.term, 1, 0, 1, o->term.ascii);
	rows = table_open(&w, SP_FMT_TSV, cols, m);
	for (size_t i = 0; i < m->ru.n; i++) {
		const struct sp_rollup_wl *x = &rows[i];

		put_names(&w, m, x, &label);
		sp_writer_str(&w, sp_rollup_key(&m->ru, x));
		sp_buf_clear(&next);
		advice_next(&B, x->key, &next);
		sp_writer_field(&w, next.p, next.len);
		sp_writer_end(&w);
	}
	sp_writer_finish(&w);
	free(rows);
	sp_buf_free(&label);
	sp_buf_free(&next);
	return SP_EXIT_OK;
}

int
plain_run(struct model *m, const struct opts *o)
{
	static const char *const cols[] = { "workload", "user", "partition",
		"runs", "failed", "noop", "gpu_h", "core_h", "share",
		"severity", NULL };
	struct sp_term t;
	struct sp_buf lead = { 0 }, window = { 0 }, label = { 0 };
	struct sp_writer w;
	struct sp_rollup_wl *rows;

	sp_term_setup(&t, 1, 0, 1, o->term.ascii);
	headline_lines(m, o, &lead, &window);
	printf("%s\n%s\n", sp_buf_str(&lead), sp_buf_str(&window));
	if (m->nlive > 0) {
		sp_buf_clear(&label);
		running_summary(m, &label);
		printf("%s\n", sp_buf_str(&label));
	}
	putchar('\n');
	rows = table_open(&w, SP_FMT_PLAIN, cols, m);
	for (size_t i = 0; i < m->ru.n; i++) {
		const struct sp_rollup_wl *x = &rows[i];

		put_names(&w, m, x, &label);
		sp_writer_int(&w, x->runs);
		sp_writer_int(&w, x->failed);
		if (sp_rollup_noop_known(x))
			sp_writer_int(&w, x->noop);
		else
			sp_writer_empty(&w);
		sp_writer_num(&w, x->gpu_known ? x->gpu_h : NAN);
		sp_writer_num(&w, x->core_known ? x->core_h : NAN);
		sp_writer_num(&w, x->share);
		/* The verdict's word: "ok" when it found nothing. */
		sp_writer_str(&w, sp_wl_severity_name(m->info[x->key].sev));
		sp_writer_end(&w);
	}
	sp_writer_finish(&w);
	free(rows);
	sp_buf_free(&lead);
	sp_buf_free(&window);
	sp_buf_free(&label);
	return SP_EXIT_OK;
}
