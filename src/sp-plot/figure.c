/*
 * figure.c - what every figure shares: what it keeps, numbers from
 * fields, counts and what was left out in words, a finding looked up in
 * sp-size --findings, and the records of one workload chosen.
 */
#include <stdlib.h>
#include <string.h>

#include "plot.h"

int
plot_num(const struct sp_reader *r, int col, double *v)
{
	int rc;

	if (col < 0)
		return 0;
	rc = sp_field_num(r->f[col], v);
	if (rc < 0)
		sp_reader_die(r, "field '%s' is not a number: \"%.*s\"",
			      r->cols[col], (int)(r->f[col].n > 40 ? 40 :
			      r->f[col].n), r->f[col].p);
	return rc;
}

const char *
plot_keep(struct svg *g, struct sp_slice f, size_t max)
{
	struct sp_buf b = { 0 };
	const char *s;

	field_text(&b, f, max);
	s = plot_keep_str(g, sp_buf_str(&b), b.len);
	sp_buf_free(&b);
	return s;
}

const char *
plot_keep_str(struct svg *g, const char *s, size_t n)
{
	return sp_pool_str(&g->keep, s, n);
}

void *
plot_grow(struct svg *g, void *v, size_t *cap, size_t need, size_t elem)
{
	return sp_pool_grow(&g->keep, v, cap, need, elem);
}

void
plot_count(struct sp_buf *b, double n, const char *one, const char *many)
{
	sp_buf_printf(b, "%.0f %s", n, n == 1 ? one : many);
}

void
plot_left_out(struct sp_buf *caption, const char *lead,
	      const struct plot_omit *v)
{
	int any = 0;

	for (; v->one != NULL; v++) {
		if (!(v->n > 0))
			continue;
		sp_buf_adds(caption, any ? ";" : lead);
		sp_buf_addc(caption, ' ');
		plot_count(caption, v->n, v->one, v->many);
		any = 1;
	}
	if (any)
		sp_buf_addc(caption, '.');
}

/* ---------------------------------------------------------- findings */

int
plot_find_finding(const char *path, const char *code, struct plot_finding *f)
{
	struct sp_reader r;
	char *paths[] = { (char *)path };
	struct sp_buf b = { 0 };
	int ccode, ckey, cids, found = 0;

	memset(f, 0, sizeof *f);
	sp_open_or_die(&r, paths, 1);
	ccode = sp_reader_need(&r, "code", "sp-size --findings");
	ckey = sp_reader_need(&r, "workload_key", "sp-size --findings");
	cids = sp_reader_need(&r, "jobid", "sp-size --findings");
	/* Read to the end all the same: a bad record is bad input. */
	while (sp_next_or_die(&r)) {
		if (found || !sp_slice_eq(r.f[ccode], code))
			continue;
		f->key = sp_xstrndup(r.f[ckey].p, r.f[ckey].n);
		sp_buf_clear(&b);
		sp_field_decode(&b, r.f[cids].p, r.f[cids].n);
		f->jobids = sp_xstrdup(sp_buf_str(&b));
		found = 1;
	}
	sp_buf_free(&b);
	sp_reader_close(&r);
	return found;
}

void
plot_finding_free(struct plot_finding *f)
{
	free(f->key);
	free(f->jobids);
	memset(f, 0, sizeof *f);
}

/* --------------------------------------------------- one workload */

void
plot_sel_open(struct plot_sel *s, const struct sp_reader *r, const char *key)
{
	memset(s, 0, sizeof *s);
	s->given = key != NULL;
	s->key = key;
	s->ckey = key ? sp_reader_need(r, "workload_key", "sp-group") :
		  sp_reader_col(r, "workload_key");
	sp_jobcols_resolve(&s->c, r);
}

/* 1 when the current record is of the workload. */
static int
sel_keep(struct plot_sel *s, const struct sp_reader *r, struct svg *g)
{
	struct sp_slice k;

	if (s->ckey < 0)
		return 1;
	k = r->f[s->ckey];
	if (s->given)
		return sp_slice_eq(k, s->key);
	if (!s->key)
		s->key = plot_keep_str(g, k.p, k.n);
	else if (!sp_slice_eq(k, s->key))
		sp_die(SP_EXIT_USAGE, "the records hold more than one "
		       "workload: name one with --workload KEY or --findings "
		       "FILE");
	return 1;
}

int
plot_sel_next(struct plot_sel *s, struct sp_reader *r, struct sp_job *j,
	      struct svg *g)
{
	while (sp_next_or_die(r)) {
		if (!sel_keep(s, r, g))
			continue;
		sp_job_parse(j, &s->c, r);
		return 1;
	}
	return 0;
}
