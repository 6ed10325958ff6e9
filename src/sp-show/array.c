/*
 * array.c - an array named by its own id (sp-show -j 52581003), shown
 * as one: a verdict over its tasks, the tasks by state, elapsed time and
 * peak memory as min / median / max with a small histogram, the tasks
 * that did not complete grouped by why, then one row a task.  Never one
 * post-mortem a task: an array of 142 tasks is one screen and a table,
 * not 142 screens.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "show.h"
#include "sp_postmortem.h"

/* Why a task did not complete, in the order the view lists them. */
enum why { WHY_NONE, WHY_MEMORY, WHY_TIME, WHY_SIGNAL, WHY_NODE,
	   WHY_FAILED, WHY_CANCELLED, WHY_OTHER, WHY_COUNT };

static const char *const why_text[WHY_COUNT] = { "", "for memory",
	"at the time limit", "by a signal", "node failure", "failed",
	"cancelled", "other" };

struct task {
	char *cells[NTABLE_COLS];	/* its row of the task table */
	char *state;
	uint64_t order;			/* the task's number, to sort by */
	char *task;			/* the task part of its id: 3, [5-9] */
	double elapsed_s;
	double max_rss_b;		/* NaN where not a footprint */
	double mem_limit_b;
	enum why why;
	int severity;			/* its worst finding, -1 none */
	const char *code;		/* that finding's code (static) */
};

struct array {
	size_t spec;			/* the -j id that names it */
	char *id;			/* the array's id, as named */
	struct sp_buf name, user, partition;
	struct task *t;
	size_t n;
	size_t cap;
};

static enum why
why_of(const struct sp_job *j)
{
	if (sp_job_state_is(j, "COMPLETED") || sp_job_is_open(j))
		return WHY_NONE;
	if (sp_job_state_is(j, "OUT_OF_MEMORY"))
		return WHY_MEMORY;
	if (sp_job_state_is(j, "TIMEOUT") || sp_job_state_is(j, "DEADLINE"))
		return WHY_TIME;
	if (sp_job_state_is(j, "NODE_FAIL") || sp_job_state_is(j, "BOOT_FAIL"))
		return WHY_NODE;
	if (sp_job_state_is(j, "CANCELLED") || sp_job_state_is(j, "PREEMPTED"))
		return WHY_CANCELLED;
	if (j->signal > 0 && j->signal <= SP_SIGNAL_MAX)
		return WHY_SIGNAL;
	if (sp_job_state_is(j, "FAILED"))
		return WHY_FAILED;
	return WHY_OTHER;
}

static char *
decoded(struct sp_slice s)
{
	struct sp_buf b = { 0 };

	sp_field_decode(&b, s.p, s.n);
	sp_buf_add(&b, "", 0);
	return b.p;
}

/* The array a task belongs to, by the -j id that named it. */
static struct array *
array_for(struct run *R, size_t spec, const struct sp_job *j)
{
	struct array *a;

	for (size_t i = 0; i < R->narrays; i++)
		if (R->arrays[i].spec == spec)
			return &R->arrays[i];
	R->arrays = sp_xgrow(R->arrays, &R->arrayscap, R->narrays + 1,
			     sizeof *R->arrays);
	a = &R->arrays[R->narrays++];
	memset(a, 0, sizeof *a);
	a->spec = spec;
	a->id = sp_xstrdup(R->o->ids.v[spec].text);
	sp_field_decode(&a->name, j->name.p, j->name.n);
	sp_field_decode(&a->user, j->user.p, j->user.n);
	sp_field_decode(&a->partition, j->partition.p, j->partition.n);
	return a;
}

int
array_member(const struct run *R, const struct held *h)
{
	const struct sp_jobid *id;
	const struct sp_job *j = &h->alloc.j;

	if (R->o->mode != MODE_VIEW || R->o->fmt != SP_FMT_PLAIN ||
	    h->spec < 0)
		return 0;
	id = &R->o->ids.v[h->spec];
	/* A bare id that is the task's array's: the array is asked for. */
	return id->kind == SP_JOBID_JOB && id->step == NULL &&
	       j->array_task.n > 0 && j->array_job.n > 0 &&
	       strtoull(j->array_job.p, NULL, 10) == id->job;
}

void
array_add(struct run *R, const struct shown *s)
{
	const struct sp_job *j = &s->h->alloc.j;
	struct array *a = array_for(R, (size_t)s->h->spec, j);
	struct task *t;
	char *task = decoded(j->array_task);

	a->t = sp_xgrow(a->t, &a->cap, a->n + 1, sizeof *a->t);
	t = &a->t[a->n++];
	memset(t, 0, sizeof *t);
	table_cells(&R->term, j, s->calc, t->cells);
	t->state = decoded(j->state);
	t->task = task;
	t->order = strtoull(task + (task[0] == '['), NULL, 10);
	t->elapsed_s = j->elapsed_s;
	t->max_rss_b = s->calc->rss_above_limit ? NAN : j->max_rss_b;
	t->mem_limit_b = s->calc->mem_limit_b;
	t->why = why_of(j);
	t->severity = s->findings->n > 0 ? (int)s->findings->v[0].severity :
		      -1;
	t->code = s->findings->n > 0 ? s->findings->v[0].code : NULL;
}

/* ------------------------------------------------------------------ */
/* Drawing                                                            */

static int
by_task(const void *x, const void *y)
{
	const struct task *a = x, *b = y;

	return a->order < b->order ? -1 : a->order > b->order;
}

static void
clean(const struct run *R, struct sp_buf *b, const struct sp_buf *text)
{
	sp_term_clean(&R->term, b, sp_buf_str(text), text->len, 0);
}

/* "44_[3-4,7]": the tasks of one group, ranges compressed. */
static void
task_list(const struct run *R, struct sp_buf *b, const struct array *a,
	  enum why why)
{
	size_t n = 0, i = 0, lead;
	struct sp_buf text = { 0 };

	sp_buf_adds(&text, a->id);
	sp_buf_adds(&text, "_[");
	lead = text.len;
	while (i < a->n) {
		size_t k;

		if (a->t[i].why != why) {
			i++;
			continue;
		}
		if (n++)
			sp_buf_addc(&text, ',');
		if (a->t[i].task[0] == '[') {
			/* a record of tasks not yet run: its set as it is */
			size_t len = strlen(a->t[i].task);

			sp_buf_add(&text, a->t[i].task + 1, len > 1 ? len - 2 : 0);
			i++;
			continue;
		}
		for (k = i; k + 1 < a->n && a->t[k + 1].why == why &&
		     a->t[k + 1].task[0] != '[' &&
		     a->t[k + 1].order == a->t[k].order + 1; k++)
			;
		sp_buf_adds(&text, a->t[i].task);
		if (k > i) {
			sp_buf_addc(&text, '-');
			sp_buf_adds(&text, a->t[k].task);
		}
		i = k + 1;
	}
	sp_buf_addc(&text, ']');
	if (strcspn(text.p + lead, ",-]") == text.len - lead - 1) {
		/* one task: 800_6, not 800_[6] */
		memmove(text.p + lead - 1, text.p + lead, text.len - lead - 1);
		text.len -= 2;
		text.p[text.len] = '\0';
	}
	sp_term_clean(&R->term, b, text.p, text.len, 0);
	sp_buf_free(&text);
}

/* Counts a task's states in the order they first appear. */
static void
states(const struct run *R, struct sp_buf *b, const struct array *a)
{
	const char **seen = sp_xcalloc(a->n + 1, sizeof *seen);
	size_t nseen = 0;

	for (size_t i = 0; i < a->n; i++) {
		size_t k;

		for (k = 0; k < nseen && strcmp(seen[k], a->t[i].state); k++)
			;
		if (k == nseen)
			seen[nseen++] = a->t[i].state;
	}
	for (size_t k = 0; k < nseen; k++) {
		size_t count = 0;

		for (size_t i = 0; i < a->n; i++)
			count += strcmp(a->t[i].state, seen[k]) == 0;
		if (k)
			sp_buf_printf(b, " %s ", sp_term_glyph(&R->term,
							       SP_G_DOT));
		sp_buf_printf(b, "%zu ", count);
		sp_term_clean(&R->term, b, seen[k], strlen(seen[k]), 0);
	}
	free(seen);
}

/*
 * min, median and max of the known values, then a histogram of them in
 * SP_SHOW_HIST_BINS cells from min to max.
 */
static void
spread(const struct run *R, struct sp_buf *b, struct sp_buf *hist, double *v,
       size_t n, void (*fmt)(struct sp_buf *, double))
{
	size_t m = 0, bins[SP_SHOW_HIST_BINS] = { 0 }, most = 0;
	double lo, hi;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[m++] = v[i];
	if (m == 0) {
		sp_buf_adds(b, "n/a");
		return;
	}
	lo = sp_percentile(v, m, 0);
	hi = sp_percentile(v, m, 1);
	sp_buf_adds(b, "min ");
	fmt(b, lo);
	sp_buf_printf(b, " %s median ", sp_term_glyph(&R->term, SP_G_DOT));
	fmt(b, sp_percentile(v, m, 0.5));
	sp_buf_printf(b, " %s max ", sp_term_glyph(&R->term, SP_G_DOT));
	fmt(b, hi);
	if (m < SP_SHOW_HIST_MIN || !(hi > lo))
		return;
	for (size_t i = 0; i < m; i++) {
		size_t k = (size_t)((v[i] - lo) / (hi - lo) * SP_SHOW_HIST_BINS);

		if (k >= SP_SHOW_HIST_BINS)
			k = SP_SHOW_HIST_BINS - 1;
		if (++bins[k] > most)
			most = bins[k];
	}
	for (size_t k = 0; k < SP_SHOW_HIST_BINS; k++) {
		/* Any task at all shows: level 1 at least. */
		int level = bins[k] == 0 ? 0 :
		    1 + (int)((double)bins[k] * (SP_TERM_SPARK_LEVELS - 2) /
			      (double)most + 0.5);

		sp_buf_adds(hist, sp_term_spark(&R->term, level));
	}
}

enum { LABEL = 14 };

/* A label, then its value wrapped under the value's column. */
static void
line(const struct run *R, struct sp_buf *b, const char *label,
     const char *value)
{
	sp_buf_adds(b, label);
	for (size_t i = strlen(label); i < LABEL; i++)
		sp_buf_addc(b, ' ');
	sp_term_wrap(&R->term, b, value, LABEL, LABEL);
	sp_buf_addc(b, '\n');
}

/* The same, then a histogram kept whole (its empty cells are spaces a
 * wrap would fold), on the line's end where it fits. */
static void
line_hist(const struct run *R, struct sp_buf *b, const char *label,
	  const char *value, const struct sp_buf *hist)
{
	size_t start, col;

	line(R, b, label, value);
	if (hist->len == 0)
		return;
	b->len--;		/* the line's end, for now */
	for (start = b->len; start > 0 && b->p[start - 1] != '\n'; start--)
		;
	col = sp_text_width(b->p + start, b->len - start);
	if (col + 2 + SP_SHOW_HIST_BINS <= (size_t)R->term.width) {
		sp_buf_adds(b, "  ");
	} else {
		sp_buf_addc(b, '\n');
		for (size_t i = 0; i < LABEL; i++)
			sp_buf_addc(b, ' ');
	}
	sp_buf_add(b, hist->p, hist->len);
	sp_buf_addc(b, '\n');
}

/* The worst finding over the tasks, and how many tasks have it first. */
static void
verdict(const struct run *R, struct sp_buf *b, const struct array *a)
{
	int worst = -1;
	const char *code = NULL;
	size_t best = 0;

	for (size_t i = 0; i < a->n; i++)
		if (a->t[i].severity > worst)
			worst = a->t[i].severity;
	if (worst < 0) {
		sp_term_painted(&R->term, b, SP_P_GOOD,
				"nothing needs attention");
		return;
	}
	for (size_t i = 0; i < a->n; i++) {
		size_t count = 0;

		if (a->t[i].severity != worst)
			continue;
		for (size_t k = 0; k < a->n; k++)
			count += a->t[k].severity == worst &&
				 strcmp(a->t[k].code, a->t[i].code) == 0;
		if (count > best) {
			best = count;
			code = a->t[i].code;
		}
	}
	{
		struct sp_buf t = { 0 };

		sp_buf_printf(&t, "%s: %s",
			      sp_severity_name((enum sp_severity)worst), code);
		sp_term_painted(&R->term, b, worst == SP_SEV_CRITICAL ?
				SP_P_CRITICAL : worst == SP_SEV_WARNING ?
				SP_P_WARNING : SP_P_INFO, t.p);
		sp_buf_printf(b, " in %zu of %zu", best, a->n);
		sp_buf_free(&t);
	}
}

/*
 * The array's id and name, then what it was and the verdict; on a
 * terminal too narrow for one line, these go on the next, wrapped at
 * words under an indent.
 */
static void
head_line(const struct run *R, const struct array *a, struct sp_buf *b)
{
	struct sp_buf rest = { 0 };
	size_t start = b->len, cells;
	int sets = 0;

	sp_term_painted(&R->term, b, SP_P_BOLD, a->id);
	sp_buf_adds(b, "  ");
	clean(R, b, &a->name);
	/* A record of tasks not yet run stands for several: say records. */
	for (size_t i = 0; i < a->n && !sets; i++)
		sets = a->t[i].task[0] == '[';
	sp_buf_printf(&rest, "array, %zu %s%s %s ", a->n,
		      sets ? "record" : "task", a->n == 1 ? "" : "s",
		      sp_term_glyph(&R->term, SP_G_DOT));
	verdict(R, &rest, a);
	cells = sp_text_width(b->p + start, b->len - start) + 2 +
		sp_text_width(rest.p, rest.len);
	if (R->term.tty && cells > (size_t)R->term.width) {
		sp_buf_adds(b, "\n  ");
		sp_term_wrap(&R->term, b, rest.p, 2, 2);
	} else {
		sp_buf_adds(b, "  ");
		sp_buf_add(b, rest.p, rest.len);
	}
	sp_buf_addc(b, '\n');
	sp_buf_free(&rest);
}

static void
draw(struct run *R, struct array *a, struct sp_buf *b)
{
	struct sp_buf t = { 0 }, hist = { 0 };
	double *v = sp_xcalloc(a->n + 1, sizeof *v);
	struct table tab;
	const char *said = NULL;

	sp_sort(a->t, a->n, sizeof *a->t, by_task);

	head_line(R, a, b);
	clean(R, &t, &a->user);
	if (a->partition.len) {
		sp_buf_adds(&t, ", partition ");
		clean(R, &t, &a->partition);
	}
	sp_term_wrap(&R->term, b, t.p, 0, 2);
	sp_buf_adds(b, "\n\n");

	sp_buf_clear(&t);
	states(R, &t, a);
	line(R, b, "tasks", sp_buf_str(&t));
	sp_buf_clear(&t);
	for (size_t i = 0; i < a->n; i++)
		v[i] = a->t[i].elapsed_s;
	spread(R, &t, &hist, v, a->n, sp_fmt_duration);
	line_hist(R, b, "elapsed", sp_buf_str(&t), &hist);
	sp_buf_clear(&t);
	sp_buf_clear(&hist);
	for (size_t i = 0; i < a->n; i++)
		v[i] = a->t[i].max_rss_b;
	spread(R, &t, &hist, v, a->n, sp_fmt_bytes);
	line_hist(R, b, "peak memory", sp_buf_str(&t), &hist);
	for (int why = WHY_MEMORY; why < WHY_COUNT; why++) {
		size_t count = 0;
		const char *label = why <= WHY_NODE ? "killed" :
				    "not completed";

		for (size_t i = 0; i < a->n; i++)
			count += a->t[i].why == (enum why)why;
		if (count == 0)
			continue;
		sp_buf_clear(&t);
		sp_buf_printf(&t, "%zu %s: ", count, why_text[why]);
		task_list(R, &t, a, (enum why)why);
		/* The label once, over the lines of its kind. */
		line(R, b, label == said ? "" : label, t.p);
		said = label;
	}
	sp_buf_addc(b, '\n');

	table_init(&tab, table_names, table_right, NTABLE_COLS);
	for (size_t i = 0; i < a->n; i++) {
		table_add(&tab, a->t[i].cells);
		memset(a->t[i].cells, 0, sizeof a->t[i].cells);
	}
	table_draw(&tab, &R->term, b);
	table_free(&tab);
	sp_buf_free(&t);
	sp_buf_free(&hist);
	free(v);
}

static void
array_free(struct array *a)
{
	for (size_t i = 0; i < a->n; i++) {
		for (size_t c = 0; c < NTABLE_COLS; c++)
			free(a->t[i].cells[c]);
		free(a->t[i].state);
		free(a->t[i].task);
	}
	free(a->t);
	free(a->id);
	sp_buf_free(&a->name);
	sp_buf_free(&a->user);
	sp_buf_free(&a->partition);
}

void
array_draw_all(struct run *R)
{
	for (size_t i = 0; i < R->narrays; i++) {
		sp_buf_clear(&R->out);
		separate(R, &R->out);
		draw(R, &R->arrays[i], &R->out);
		fwrite(R->out.p, 1, R->out.len, stdout);
		R->shown++;
		array_free(&R->arrays[i]);
	}
	free(R->arrays);
	R->arrays = NULL;
	R->narrays = 0;
}
