/*
 * workloads.c - the first screen: the headline, then every workload by
 * compute, as sp-group --rollup sums them, with its worst finding across
 * runs as severity; a line on the jobs running now, when one runs (R
 * shows them, running.c).  s and < move the sort along the columns (numbers
 * largest first, names from A), S reverses it; f filters (filter.c); /
 * searches the names; Enter opens the workload.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "browse.h"

enum col { C_NAME, C_USER, C_PART, C_RUNS, C_FAILED, C_NOOP, C_GPU, C_CORE,
	   C_SHARE, C_SEV, C_N };

static const struct {
	const char *title;
	const char *sorted;	/* "by ..." in the title */
	int numeric;		/* right-aligned, largest first */
} column[C_N] = {
	[C_NAME] = { "workload", "name", 0 },
	[C_USER] = { "user", "user", 0 },
	[C_PART] = { "part", "partition", 0 },
	[C_RUNS] = { "runs", "runs", 1 },
	[C_FAILED] = { "failed", "failed runs", 1 },
	[C_NOOP] = { "noop", "runs that computed nothing", 1 },
	[C_GPU] = { "GPU-h", "GPU-hours", 1 },
	[C_CORE] = { "core-h", "core-hours", 1 },
	[C_SHARE] = { "share", "share of compute", 1 },
	[C_SEV] = { "severity", "severity", 1 },
};

/* The name column gets what the others leave, at least this much. */
#define NAME_MIN	12

struct wls {
	size_t *order;		/* the rows shown, by rollup number */
	size_t n;
	enum col sort;
	int reverse;
	struct wfilter filter;
	int show[C_N];
	size_t width[C_N];
	size_t natural[C_N];	/* the widest cell of each column */
	struct lines head;	/* the headline, wrapped to the width */
	uint32_t *base;		/* each row's place in the default order */
	uint32_t *textrank[C_N];	/* ... by a column of text, once */
};

/* The headline's lines at most: the rest of the screen is the table. */
#define HEAD_MAX	6

static const enum req main_keys[] = { REQ_ENTER, REQ_SORT, REQ_FILTER,
	REQ_SEARCH, REQ_COPY, REQ_HELP, REQ_BACK, REQ_NONE };

/* The text of one cell (clean), painted where it says a severity. */
static void
cell(struct browse *B, size_t wl, enum col c, struct sp_buf *b)
{
	const struct sp_rollup_wl *w = model_row(B->m, wl);
	const struct wlinfo *x = &B->m->info[wl];

	switch (c) {
	case C_NAME: sp_buf_adds(b, x->label); break;
	case C_USER: sp_buf_adds(b, x->user); break;
	case C_PART: sp_buf_adds(b, x->part); break;
	case C_RUNS: sp_buf_printf(b, "%ld", w->runs); break;
	case C_FAILED: sp_buf_printf(b, "%ld", w->failed); break;
	case C_NOOP:
		if (sp_rollup_noop_known(w))
			sp_buf_printf(b, "%ld", w->noop);
		else
			sp_buf_adds(b, "n/a");
		break;
	case C_GPU: text_hours(b, w->gpu_h, w->gpu_known); break;
	case C_CORE: text_hours(b, w->core_h, w->core_known); break;
	case C_SHARE:
		if (isnan(w->share))
			sp_buf_adds(b, "n/a");
		else
			sp_fmt_percent(b, w->share);
		break;
	case C_SEV:
		sp_buf_adds(b, sp_wl_severity_name(x->sev));
		break;
	default: break;
	}
}

/* The lead in bold, then the window, each wrapped at words. */
static void
headline_layout(struct view *v)
{
	struct browse *B = v->B;
	struct wls *s = v->data;
	struct sp_buf lead = { 0 }, window = { 0 };

	lines_free(&s->head);
	headline_lines(B->m, B->o, &lead, &window);
	sp_term_paint(&B->term, &s->head.text, SP_P_BOLD);
	sp_term_wrap(&B->term, &s->head.text, sp_buf_str(&lead), 0, 0);
	sp_term_paint(&B->term, &s->head.text, SP_P_NONE);
	sp_buf_addc(&s->head.text, '\n');
	sp_term_wrap(&B->term, &s->head.text, sp_buf_str(&window), 0, 0);
	sp_buf_addc(&s->head.text, '\n');
	lines_index(&s->head);
	if (s->head.n > HEAD_MAX)
		s->head.n = HEAD_MAX;
	sp_buf_free(&lead);
	sp_buf_free(&window);
}

/* Each column's widest cell (its title among them), measured once. */
static void
measure(struct view *v)
{
	struct browse *B = v->B;
	struct wls *s = v->data;
	struct sp_buf b = { 0 };

	for (int c = 0; c < C_N; c++) {
		s->natural[c] = strlen(column[c].title);
		for (size_t i = 0; i < B->m->ru.n; i++) {
			const struct wlinfo *x = &B->m->info[i];
			size_t w;

			if (c == C_NAME)
				w = x->label_cells;
			else if (c == C_USER)
				w = x->user_cells;
			else if (c == C_PART)
				w = x->part_cells;
			else {
				sp_buf_clear(&b);
				cell(B, i, (enum col)c, &b);
				w = b.len;
			}
			if (w > s->natural[c])
				s->natural[c] = w;
		}
	}
	/* Names of people and places stay short: a long one is cut. */
	for (int c = C_USER; c <= C_PART; c++)
		if (s->natural[c] > 12)
			s->natural[c] = 12;
	sp_buf_free(&b);
}

/*
 * Widths for the terminal: each column its widest cell (the sorted one
 * a cell more, for the arrow), the name what is left; user and
 * partition only when rows differ in them.  When even the narrowest
 * name would not fit, columns leave in the order of drop[], the least
 * telling first.
 */
static void
layout(struct view *v)
{
	static const enum col drop[] = { C_CORE, C_NOOP, C_PART, C_USER,
		C_GPU };
	struct browse *B = v->B;
	struct wls *s = v->data;
	size_t used, width = (size_t)B->term.width;

	for (int c = 0; c < C_N; c++) {
		s->show[c] = 1;
		s->width[c] = s->natural[c] + ((enum col)c == s->sort);
	}
	s->show[C_USER] = B->m->users.n > 1;
	s->show[C_PART] = B->m->parts.n > 1;
	for (size_t d = 0;; d++) {
		used = 0;
		for (int c = 0; c < C_N; c++)
			if (c != C_NAME && s->show[c])
				used += s->width[c] + 1;
		if (used + NAME_MIN <= width ||
		    d == sizeof drop / sizeof drop[0])
			break;
		if (drop[d] != s->sort)
			s->show[drop[d]] = 0;
	}
	s->width[C_NAME] = width > used + NAME_MIN ? width - used : NAME_MIN;
	/* No wider than the longest name: the figures stay near it. */
	if (s->width[C_NAME] > s->natural[C_NAME] + (s->sort == C_NAME))
		s->width[C_NAME] = s->natural[C_NAME] + (s->sort == C_NAME);
	headline_layout(v);
}

/* ------------------------------------------------------ sort, filter */

/*
 * A row as the sort sees it: one number, ascending, then the row's
 * place in the default order (most compute first, then the key), so no
 * order is the input's and no comparison touches a string.
 */
struct sortkey {
	double v;
	uint32_t base;
	uint32_t wl;
};

static int
cmp_sortkey(const void *pa, const void *pb)
{
	const struct sortkey *a = pa, *b = pb;

	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return (a->base > b->base) - (a->base < b->base);
}

/* The default order: most compute first, then the key. */
struct by_compute {
	double compute;
	const char *key;
	uint32_t wl;
};

static int
cmp_compute(const void *pa, const void *pb)
{
	const struct by_compute *a = pa, *b = pb;

	if (a->compute != b->compute)
		return a->compute < b->compute ? 1 : -1;
	return strcmp(a->key, b->key);
}

/* Each row's place in the default order, worked out once. */
static void
base_ranks(struct view *v)
{
	struct model *m = v->B->m;
	struct wls *s = v->data;
	struct by_compute *k = sp_xcalloc(m->ru.n ? m->ru.n : 1, sizeof *k);

	for (size_t i = 0; i < m->ru.n; i++) {
		k[i].compute = m->ru.v[i].compute;
		k[i].key = m->ru.v[i].keystr;
		k[i].wl = (uint32_t)i;
	}
	sp_sort(k, m->ru.n, sizeof *k, cmp_compute);
	s->base = sp_xcalloc(m->ru.n ? m->ru.n : 1, sizeof *s->base);
	for (size_t i = 0; i < m->ru.n; i++)
		s->base[k[i].wl] = (uint32_t)i;
	free(k);
}

struct by_text {
	const char *text;
	uint32_t base;
	uint32_t wl;
};

static int
cmp_text(const void *pa, const void *pb)
{
	const struct by_text *a = pa, *b = pb;
	int c = strcmp(a->text, b->text);

	return c ? c : (a->base > b->base) - (a->base < b->base);
}

static const char *
text_of(const struct model *m, size_t wl, enum col c)
{
	const struct wlinfo *x = &m->info[wl];

	return c == C_NAME ? x->label : c == C_USER ? x->user : x->part;
}

/* Each row's place by a column of text, worked out when first sorted. */
static const uint32_t *
text_ranks(struct view *v, enum col c)
{
	struct model *m = v->B->m;
	struct wls *s = v->data;
	struct by_text *k;

	if (s->textrank[c] != NULL)
		return s->textrank[c];
	k = sp_xcalloc(m->ru.n ? m->ru.n : 1, sizeof *k);
	for (size_t i = 0; i < m->ru.n; i++) {
		k[i].text = text_of(m, i, c);
		k[i].base = s->base[i];
		k[i].wl = (uint32_t)i;
	}
	sp_sort(k, m->ru.n, sizeof *k, cmp_text);
	s->textrank[c] = sp_xcalloc(m->ru.n ? m->ru.n : 1,
				    sizeof *s->textrank[c]);
	for (size_t i = 0; i < m->ru.n; i++)
		s->textrank[c][k[i].wl] = (uint32_t)i;
	free(k);
	return s->textrank[c];
}

static double
sort_number(struct browse *B, size_t wl, enum col c)
{
	const struct sp_rollup_wl *w = model_row(B->m, wl);
	int sev = B->m->info[wl].sev;

	switch (c) {
	case C_RUNS: return (double)w->runs;
	case C_FAILED: return (double)w->failed;
	/* Unknown sorts below every known figure. */
	case C_NOOP: return sp_rollup_noop_known(w) ? (double)w->noop : -1;
	case C_GPU: return w->gpu_known ? w->gpu_h : -1;
	case C_CORE: return w->core_known ? w->core_h : -1;
	case C_SHARE: return w->compute;
	case C_SEV: return sev;	/* unknown, ok, then info to critical */
	default: return 0;
	}
}

static int
passes(struct browse *B, const struct wfilter *f, size_t wl)
{
	const struct wlinfo *x = &B->m->info[wl];

	if (f->failed_only && model_row(B->m, wl)->failed == 0)
		return 0;
	if (f->user >= 0 && x->user_id != (size_t)f->user)
		return 0;
	if (f->part >= 0 && x->part_id != (size_t)f->part)
		return 0;
	return 1;
}

/* The rows again after a sort or a filter; the cursor stays on its
 * workload when that is still shown. */
static void
arrange(struct view *v)
{
	struct browse *B = v->B;
	struct wls *s = v->data;
	const uint32_t *rank = NULL;
	struct sortkey *k;
	size_t n = 0, keepwl = s->n > 0 ? s->order[v->cur] : (size_t)-1;
	/* Ascending: a number largest first, a name from A; S turns it. */
	double dir = s->reverse ? -1 : 1;

	if (s->sort == C_NAME || s->sort == C_USER || s->sort == C_PART)
		rank = text_ranks(v, s->sort);
	k = sp_xcalloc(B->m->ru.n ? B->m->ru.n : 1, sizeof *k);
	for (size_t i = 0; i < B->m->ru.n; i++) {
		if (!passes(B, &s->filter, i))
			continue;
		k[n].wl = (uint32_t)i;
		k[n].base = s->base[i];
		k[n].v = rank != NULL ? dir * rank[i] :
			 -dir * sort_number(B, i, s->sort);
		n++;
	}
	sp_sort(k, n, sizeof *k, cmp_sortkey);
	s->n = n;
	v->cur = 0;
	for (size_t i = 0; i < n; i++) {
		s->order[i] = k[i].wl;
		if (k[i].wl == keepwl)
			v->cur = i;
	}
	free(k);
	v->top = v->cur > view_height(v) / 2 ? v->cur - view_height(v) / 2 :
		 0;
}

/* Filter changes come back here (filter.c). */
static void
refilter(struct view *v)
{
	arrange(v);
}

static void
sort_step(struct view *v, int step)
{
	struct wls *s = v->data;
	int c = (int)s->sort;

	/* Every column but user and partition where all rows share one. */
	do
		c = (c + step + C_N) % C_N;
	while ((c == C_USER && v->B->m->users.n < 2) ||
	       (c == C_PART && v->B->m->parts.n < 2));
	s->sort = (enum col)c;
	s->reverse = 0;
	layout(v);
	arrange(v);
}

/* --------------------------------------------------------------- ops */

static void
title(struct view *v, struct sp_buf *b)
{
	struct wls *s = v->data;
	const struct wfilter *f = &s->filter;

	sp_buf_printf(b, "slurmpast %s %zu workload%s", sp_term_glyph(
		      &v->B->term, SP_G_DOT), s->n, s->n == 1 ? "" : "s");
	if (s->n != v->B->m->ru.n)
		sp_buf_printf(b, " of %zu", v->B->m->ru.n);
	sp_buf_printf(b, " %s by %s%s", sp_term_glyph(&v->B->term, SP_G_DOT),
		      column[s->sort].sorted, s->reverse ? ", reversed" : "");
	if (f->failed_only || f->user >= 0 || f->part >= 0) {
		sp_buf_printf(b, " %s ", sp_term_glyph(&v->B->term,
			      SP_G_DOT));
		filter_describe(v->B, f, b);
	}
}

/* The line on the jobs running now: only when one runs. */
static int
has_running(const struct view *v)
{
	return v->B->m->nlive > 0;
}

static size_t
nheader(struct view *v)
{
	return ((struct wls *)v->data)->head.n + (size_t)has_running(v) + 1;
}

static void
header(struct view *v, size_t i, struct sp_buf *b)
{
	struct browse *B = v->B;
	struct wls *s = v->data;

	if (i < s->head.n) {
		lines_get(&s->head, i, b);
		return;
	}
	if (i == s->head.n && has_running(v)) {
		running_summary(B->m, b);
		sp_buf_adds(b, " (R shows them)");
		return;
	}
	sp_term_paint(&B->term, b, SP_P_BOLD);
	for (int c = 0; c < C_N; c++) {
		struct sp_buf t = { 0 };

		if (!s->show[c])
			continue;
		if (c != C_NAME)
			sp_buf_addc(b, ' ');
		sp_buf_adds(&t, column[c].title);
		if ((enum col)c == s->sort)
			sp_buf_adds(&t, (column[c].numeric != 0) != s->reverse ?
				    (B->term.ascii ? "v" : "\u25be") :
				    (B->term.ascii ? "^" : "\u25b4"));
		text_cell(&B->term, b, t.p, t.len, s->width[c],
			  column[c].numeric && c != C_SEV);
		sp_buf_free(&t);
	}
	sp_term_paint(&B->term, b, SP_P_NONE);
}

static size_t
count(struct view *v)
{
	return ((struct wls *)v->data)->n;
}

static void
line(struct view *v, size_t i, struct sp_buf *b)
{
	struct browse *B = v->B;
	struct wls *s = v->data;
	size_t wl = s->order[i];
	struct sp_buf t = { 0 };

	for (int c = 0; c < C_N; c++) {
		if (!s->show[c])
			continue;
		if (c != C_NAME)
			sp_buf_addc(b, ' ');
		sp_buf_clear(&t);
		cell(B, wl, (enum col)c, &t);
		if (c == C_SEV)
			sp_term_paint(&B->term, b,
				      text_pattern_paint(B->m->info[wl].sev));
		text_cell(&B->term, b, t.p ? t.p : "", t.len, s->width[c],
			  column[c].numeric && c != C_SEV);
		if (c == C_SEV)
			sp_term_paint(&B->term, b, SP_P_NONE);
	}
	sp_buf_free(&t);
}

static int
match(struct view *v, size_t i, const char *needle)
{
	const char *label = v->B->m->info[((struct wls *)v->data)->order[i]]
			    .label;
	size_t k = strlen(needle);

	for (const char *p = label; *p; p++) {
		size_t j = 0;

		while (j < k && p[j] && ((p[j] >= 'A' && p[j] <= 'Z') ?
		       p[j] + 'a' - 'A' : p[j]) == needle[j])
			j++;
		if (j == k)
			return 1;
	}
	return k == 0;
}

static int
request(struct view *v, enum req r)
{
	struct wls *s = v->data;

	switch (r) {
	case REQ_ENTER:
		if (s->n > 0)
			view_push(v->B, workload_open(v->B, s->order[v->cur]));
		return 1;
	case REQ_SORT:
		sort_step(v, 1);
		return 1;
	case REQ_SORT_BACK:
		sort_step(v, -1);
		return 1;
	case REQ_REVERSE:
		s->reverse = !s->reverse;
		arrange(v);
		return 1;
	case REQ_FILTER:
		view_push(v->B, filter_open(v->B, &s->filter, refilter, v));
		return 1;
	case REQ_COPY:
		if (s->n > 0)
			copy_sbatch(v->B, s->order[v->cur]);
		return 1;
	default:
		return 0;
	}
}

static void
relayout(struct view *v)
{
	layout(v);
}

static void
free_wls(struct view *v)
{
	struct wls *s = v->data;

	free(s->order);
	free(s->base);
	for (int c = 0; c < C_N; c++)
		free(s->textrank[c]);
	lines_free(&s->head);
	free(s);
}

static const struct view_ops ops = {
	"workloads", main_keys, title, nheader, header, count, line, match,
	request, relayout, free_wls
};

struct view *
workloads_open(struct browse *B)
{
	struct wls *s = sp_xcalloc(1, sizeof *s);
	struct view *v = view_new(B, &ops, s, 1);

	s->order = sp_xcalloc(B->m->ru.n ? B->m->ru.n : 1, sizeof *s->order);
	s->sort = C_SHARE;
	s->filter.user = s->filter.part = -1;
	base_ranks(v);
	measure(v);
	layout(v);
	arrange(v);
	return v;
}
