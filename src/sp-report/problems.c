/*
 * problems.c - the jobs that failed or held an allocation and computed
 * nothing (only the failed ones with --failed-only), newest first, each
 * with why: what it held and for how long, or the most severe of its own
 * findings (sp-show --findings).  As records, one a job, and only the
 * listed jobs are kept: the rest are counted.  As text, the jobs that
 * say the same thing are one line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* Up to this many listed jobs are kept in order as they come (an
 * insertion each); a longer list is sorted once at the end. */
#define KEEP_IN_ORDER 1024

struct prow {
	char *when;		/* start, else submit: ISO 8601 */
	uint64_t id;		/* the numeric job id, to order ties */
	size_t seq;		/* the order read, to order the rest */
	char *jobid, *name, *user, *key, *state, *why;
};

struct plist {
	struct prow *v;
	size_t n, cap;
	size_t top;		/* 0: keep every one */
	size_t total, seq;
};

/* Newer first: the later start, then the higher id, then read first. */
static int
newer(const struct prow *a, const struct prow *b)
{
	int c = strcmp(a->when, b->when);

	if (c != 0)
		return c > 0;
	if (a->id != b->id)
		return a->id > b->id;
	return a->seq < b->seq;
}

static int
by_newness(const void *x, const void *y)
{
	const struct prow *a = x, *b = y;

	return newer(a, b) ? -1 : newer(b, a) ? 1 : 0;
}

static void
row_free(struct prow *p)
{
	free(p->when);
	free(p->jobid);
	free(p->name);
	free(p->user);
	free(p->key);
	free(p->state);
	free(p->why);
}

/* Keeps the row if it is among the top newest so far. */
static void
offer(struct plist *l, struct prow *p)
{
	size_t at;

	l->total++;
	p->seq = l->seq++;
	if (l->top == 0 || l->top > KEEP_IN_ORDER) {
		/* Every one is kept, and sorted once at the end. */
		l->v = sp_xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
		l->v[l->n++] = *p;
		return;
	}
	if (l->n < l->top) {
		l->v = sp_xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
		at = l->n++;
	} else if (newer(p, &l->v[l->n - 1])) {
		row_free(&l->v[l->n - 1]);
		at = l->n - 1;
	} else {
		row_free(p);
		return;
	}
	while (at > 0 && newer(p, &l->v[at - 1])) {
		l->v[at] = l->v[at - 1];
		at--;
	}
	l->v[at] = *p;
}

struct pcols {
	int jobid, jobid_raw, cluster, submit, start, name, user, key, state,
	    open, why;
};

static void
resolve(struct pcols *c, const struct sp_reader *r, const char *added_by)
{
	c->jobid = sp_reader_need(r, "jobid", added_by);
	c->state = sp_reader_need(r, "state", added_by);
	c->jobid_raw = sp_reader_col(r, "jobid_raw");
	c->cluster = sp_reader_col(r, "cluster");
	c->submit = sp_reader_col(r, "submit");
	c->start = sp_reader_col(r, "start");
	c->name = sp_reader_col(r, "name");
	c->user = sp_reader_col(r, "user");
	c->key = sp_reader_col(r, "workload_key");
	c->open = sp_reader_col(r, "open");
	c->why = sp_reader_col(r, "why");
}

static char *
dup_slice(struct sp_slice s)
{
	return sp_xstrndup(s.p, s.n);
}

/* The same job in both inputs: its id, cluster and submit time. */
static void
job_key(struct sp_buf *b, const struct sp_reader *r, const struct pcols *c)
{
	struct sp_slice id = sp_reader_field(r, c->jobid);
	struct sp_slice cl = sp_reader_field(r, c->cluster);
	struct sp_slice sub = sp_reader_field(r, c->submit);

	sp_buf_clear(b);
	sp_buf_add(b, id.p, id.n);
	sp_buf_addc(b, '\t');
	sp_buf_add(b, cl.p, cl.n);
	sp_buf_addc(b, '\t');
	sp_buf_add(b, sub.p, sub.n);
}

static int
state_failed(struct sp_slice s)
{
	return sp_state_failed(sp_state_of(s));
}

static void
make_row(struct prow *p, const struct sp_reader *r, const struct pcols *c,
	 int with_why)
{
	struct sp_slice start = sp_reader_field(r, c->start);
	struct sp_slice raw = sp_reader_field(r, c->jobid_raw);
	struct sp_slice when = start.n ? start : sp_reader_field(r, c->submit);

	memset(p, 0, sizeof *p);
	if (raw.n == 0)
		raw = sp_reader_field(r, c->jobid);
	p->when = dup_slice(when);
	p->id = strtoull(raw.p, NULL, 10);
	p->jobid = dup_slice(sp_reader_field(r, c->jobid));
	p->name = dup_slice(sp_reader_field(r, c->name));
	p->user = dup_slice(sp_reader_field(r, c->user));
	p->key = dup_slice(sp_reader_field(r, c->key));
	p->state = dup_slice(sp_reader_field(r, c->state));
	p->why = dup_slice(sp_reader_field(r, with_why ? c->why : -1));
}

/* The hangs, then the failed records that are not hangs too. */
static void
gather(struct plist *l, const struct opts *o)
{
	struct sp_reader r;
	struct pcols c;
	struct sp_intern failed_hangs = { 0 };
	struct sp_buf key = { 0 };
	struct prow p;

	input_open(&r, o, IN_HANGS);
	resolve(&c, &r, "sp-hang");
	while (sp_next_or_die(&r)) {
		int failed = state_failed(r.f[c.state]);

		if (sp_slice_eq(sp_reader_field(&r, c.open), "1"))
			continue;
		if (failed) {
			job_key(&key, &r, &c);
			sp_intern(&failed_hangs, key.p, key.len);
		} else if (o->failed_only) {
			continue;
		}
		make_row(&p, &r, &c, 1);
		offer(l, &p);
	}
	sp_reader_close(&r);

	input_open(&r, o, IN_FAILED);
	resolve(&c, &r, "sp-select --failed");
	while (sp_next_or_die(&r)) {
		if (sp_slice_eq(sp_reader_field(&r, c.open), "1") ||
		    !state_failed(r.f[c.state]))
			continue;
		job_key(&key, &r, &c);
		if (sp_intern_find(&failed_hangs, key.p, key.len) >= 0)
			continue;
		make_row(&p, &r, &c, 0);
		offer(l, &p);
	}
	sp_reader_close(&r);
	sp_intern_free(&failed_hangs);
	sp_buf_free(&key);
	if (l->top == 0 || l->top > KEEP_IN_ORDER) {
		sp_sort(l->v, l->n, sizeof *l->v, by_newness);
		while (l->top > 0 && l->n > l->top)
			row_free(&l->v[--l->n]);
	}
}

/* Each listed job's most severe finding, "code: evidence". */
struct joined {
	struct sp_intern ids;
	int *rank;
	char **text;
	size_t cap;
};

static void
join_findings(struct joined *j, const struct plist *l, const struct opts *o)
{
	struct sp_reader r;
	int id, code, sev, ev;

	memset(j, 0, sizeof *j);
	for (size_t i = 0; i < l->n; i++)
		sp_intern(&j->ids, l->v[i].jobid, strlen(l->v[i].jobid));
	j->cap = j->ids.n;
	j->rank = sp_xcalloc(j->cap + 1, sizeof *j->rank);
	j->text = sp_xcalloc(j->cap + 1, sizeof *j->text);
	/* No job listed: nothing to join, whatever the file holds. */
	if (o->in[IN_JOBFINDINGS] == NULL || l->n == 0)
		return;
	input_open(&r, o, IN_JOBFINDINGS);
	id = sp_reader_need(&r, "jobid", "sp-show --findings");
	code = sp_reader_need(&r, "code", "sp-show --findings");
	sev = sp_reader_need(&r, "severity", "sp-show --findings");
	ev = sp_reader_need(&r, "evidence", "sp-show --findings");
	while (sp_next_or_die(&r)) {
		long i = sp_intern_find(&j->ids, r.f[id].p, r.f[id].n);
		int rank = severity_rank(r.f[sev]);
		struct sp_buf b = { 0 };

		if (i < 0 || (j->text[i] != NULL && rank <= j->rank[i]))
			continue;
		sp_buf_add(&b, r.f[code].p, r.f[code].n);
		sp_buf_adds(&b, ": ");
		sp_buf_add(&b, r.f[ev].p, r.f[ev].n);
		free(j->text[i]);
		j->text[i] = sp_xstrdup(sp_buf_str(&b));
		j->rank[i] = rank;
		sp_buf_free(&b);
	}
	sp_reader_close(&r);
}

static void
joined_free(struct joined *j)
{
	for (size_t i = 0; i < j->cap; i++)
		free(j->text[i]);
	free(j->text);
	free(j->rank);
	sp_intern_free(&j->ids);
}

/* A field as one line of a cell: decoded, safe, its line breaks spaces. */
static void
cell(struct sp_buf *b, const char *field)
{
	size_t at = b->len;

	field_lines(b, (struct sp_slice){ field, strlen(field) }, "");
	for (size_t i = at; i < b->len; i++)
		if (b->p[i] == '\n')
			b->p[i] = ' ';
}

/* Each job a record, every column: for a program, one line a job. */
static void
write_records(const struct plist *l, const struct joined *j,
	      const struct opts *o)
{
	static const char *const cols[] = { "jobid", "name", "user",
		"workload_key", "state", "started", "why", "finding",
		"severity", NULL };
	struct sp_writer w;

	table_start(&w, o, cols);
	for (size_t i = 0; i < l->n; i++) {
		const struct prow *p = &l->v[i];
		long k = sp_intern_find(&j->ids, p->jobid, strlen(p->jobid));
		int known = k >= 0 && j->text[k] != NULL;

		sp_writer_str(&w, p->jobid);
		sp_writer_str(&w, p->name);
		sp_writer_str(&w, p->user);
		sp_writer_str(&w, p->key);
		sp_writer_str(&w, p->state);
		sp_writer_str(&w, p->when);
		sp_writer_str(&w, p->why);
		sp_writer_str(&w, known ? j->text[k] : "");
		sp_writer_str(&w, known ? severity_word(j->rank[k]) : "");
		sp_writer_end(&w);
	}
	sp_writer_finish(&w);
}

/* What a job's line says: what it held, else its own finding. */
static const char *
saying(const struct prow *p, const struct joined *j)
{
	long k = sp_intern_find(&j->ids, p->jobid, strlen(p->jobid));

	if (*p->why)
		return p->why;
	return k >= 0 && j->text[k] ? j->text[k] : "";
}

/*
 * Jobs whose lines would say the same thing (one name, one state, one
 * text) are one line: newest first by their newest job, with how many
 * they are and the first SP_REPORT_FOLD_IDS of their ids.  Twenty-five
 * copies of one sentence hide the one job that differs.
 */
struct fold {
	size_t first;		/* the newest job's row */
	size_t n;		/* jobs */
	size_t ids[SP_REPORT_FOLD_IDS];	/* the rows named, newest first */
};

static struct fold *
fold_rows(const struct plist *l, const struct joined *j, size_t *nfolds)
{
	struct sp_intern seen = { 0 };
	struct sp_buf key = { 0 };
	struct fold *f = NULL;
	size_t cap = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct prow *p = &l->v[i];
		size_t before = seen.n, g;

		sp_buf_clear(&key);
		sp_buf_adds(&key, p->name);
		sp_buf_addc(&key, '\t');
		sp_buf_adds(&key, p->state);
		sp_buf_addc(&key, '\t');
		sp_buf_adds(&key, saying(p, j));
		g = sp_intern(&seen, key.p, key.len);
		if (g == before) {
			f = sp_xgrow(f, &cap, g + 1, sizeof *f);
			memset(&f[g], 0, sizeof f[g]);
			f[g].first = i;
		}
		if (f[g].n < SP_REPORT_FOLD_IDS)
			f[g].ids[f[g].n] = i;
		f[g].n++;
	}
	*nfolds = seen.n;
	sp_intern_free(&seen);
	sp_buf_free(&key);
	return f;
}

/* The first --top lines; returns how many jobs they hold. */
static size_t
write_folded(const struct plist *l, const struct joined *j,
	     const struct opts *o)
{
	static const char *const cols[] = { "jobid", "name", "state",
		"started", "finding", NULL };
	struct sp_writer w;
	struct sp_buf b = { 0 };
	size_t nf, shown = 0, top = top_of(o, SP_REPORT_PROBLEMS);
	struct fold *f = fold_rows(l, j, &nf);

	table_start(&w, o, cols);
	for (size_t g = 0; g < nf && (top == 0 || g < top); g++) {
		const struct prow *p = &l->v[f[g].first];
		size_t named = f[g].n < SP_REPORT_FOLD_IDS ? f[g].n :
			       SP_REPORT_FOLD_IDS;

		sp_buf_clear(&b);
		if (f[g].n == 1)
			sp_buf_adds(&b, p->jobid);
		else
			sp_buf_printf(&b, "%zu jobs", f[g].n);
		sp_writer_str(&w, sp_buf_str(&b));
		sp_writer_str(&w, p->name);
		sp_writer_str(&w, p->state);
		sp_writer_str(&w, p->when);
		sp_buf_clear(&b);
		cell(&b, saying(p, j));
		if (f[g].n > 1) {
			sp_buf_adds(&b, *saying(p, j) ? " (" : "(");
			for (size_t k = 0; k < named; k++) {
				if (k > 0)
					sp_buf_adds(&b, k + 1 < named ||
						    f[g].n > named ?
						    ", " : " and ");
				cell(&b, l->v[f[g].ids[k]].jobid);
			}
			if (f[g].n > named)
				sp_buf_printf(&b, " and %zu more",
					      f[g].n - named);
			sp_buf_addc(&b, ')');
		}
		sp_writer_raw(&w, b.p ? b.p : "", b.len);
		sp_writer_end(&w);
		shown += f[g].n;
	}
	sp_writer_finish(&w);
	sp_buf_free(&b);
	free(f);
	return shown;
}

/* The workloads of the jobs listed, once each, for sp-select --workloads. */
static void
write_keys(FILE *f, const struct plist *l)
{
	struct sp_intern seen = { 0 };

	fputs("workload_key\n", f);
	for (size_t i = 0; i < l->n; i++) {
		size_t before = seen.n;

		if (sp_intern(&seen, l->v[i].key, strlen(l->v[i].key)) ==
		    before)
			fprintf(f, "%s\n", l->v[i].key);
	}
	sp_intern_free(&seen);
}

/*
 * --keys-to: the workloads into their own file beside the ids, so that
 * a caller who wants both (slurmpast) gathers the problems once.
 */
static void
keys_to(const char *path, const struct plist *l)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		sp_die(SP_EXIT_USAGE, "--keys-to: %s:", path);
	write_keys(f, l);
	if (ferror(f) | fclose(f))
		sp_die(SP_EXIT_USAGE, "--keys-to: %s:", path);
}

int
part_problems(const struct opts *o)
{
	struct plist l;
	struct joined j;

	memset(&l, 0, sizeof l);
	/* The text folds every job (write_folded), so --ids and --keys
	 * with --plain list every one: --top counts its lines. */
	l.top = o->fmt == SP_FMT_PLAIN ? 0 : top_of(o, SP_REPORT_PROBLEMS);
	gather(&l, o);
	if (o->ids) {
		for (size_t i = 0; i < l.n; i++)
			printf("%s%s", i ? "," : "", l.v[i].jobid);
		if (l.n)
			putchar('\n');
		if (o->keys_to != NULL)
			keys_to(o->keys_to, &l);
	} else if (o->keys) {
		write_keys(stdout, &l);
	} else if (o->fmt == SP_FMT_PLAIN && l.total == 0) {
		printf("No job failed or sat idle.\n");
	} else {
		size_t shown = l.n;

		join_findings(&j, &l, o);
		if (o->fmt == SP_FMT_PLAIN)
			shown = write_folded(&l, &j, o);
		else
			write_records(&l, &j, o);
		joined_free(&j);
		if (o->fmt == SP_FMT_PLAIN && l.total > shown)
			printf("%zu more%s%s\n", l.total - shown,
			       o->more ? ": " : "", o->more ? o->more : "");
		/* A program reading the records is told what it lacks. */
		if (o->fmt == SP_FMT_JSON && l.total > l.n) {
			struct sp_buf b = { 0 };

			if (o->more)
				sp_json_string(&b, o->more, strlen(o->more));
			printf("{\"left_out\":%zu,\"more\":%s}\n",
			       l.total - l.n, o->more ? sp_buf_str(&b) :
			       "null");
			sp_buf_free(&b);
		}
	}
	for (size_t i = 0; i < l.n; i++)
		row_free(&l.v[i]);
	free(l.v);
	return SP_EXIT_OK;
}
