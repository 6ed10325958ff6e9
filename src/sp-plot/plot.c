/*
 * plot.c - what every figure shares: the kinds, columns by name, numbers
 * from fields, and a finding looked up in sp-size --findings.
 */
#include <stdlib.h>
#include <string.h>

#include "plot.h"

const struct plot_kind plot_kinds[] = {
	{ "runtime", "job records (sp-fetch)",
	  "how long each run lasted", plot_runtime },
	{ "share", "workload records (sp-group --rollup)",
	  "the cumulative share of compute", plot_share },
	{ "job", "job records (sp-fetch)",
	  "one job's request against use", plot_job },
	{ "memory-walk", "job records (sp-group)",
	  "the memory walk of one workload", plot_walk },
	{ "array", "job records (sp-group)",
	  "an array's tasks against its probes", plot_array },
	{ "failures", "workload records (sp-group --rollup)",
	  "the workloads with most failures", plot_failures },
	{ "verdicts", "advice records (sp-size)",
	  "the verdicts by flag", plot_verdicts },
	{ "advice", "advice records (sp-size)",
	  "memory asked against advised", plot_advice },
	{ "cost", "re-costing records (sp-size --cost)",
	  "the value of following the advice", plot_cost },
	{ "idle", "the summary of sp-hang --summary",
	  "the allocations that computed nothing", plot_idle },
	{ "nodes", "node records (sp-nodes)",
	  "bad placements by machine", plot_nodes },
	{ NULL, NULL, NULL, NULL }
};

const struct plot_kind *
plot_kind(const char *name)
{
	for (const struct plot_kind *k = plot_kinds; k->name; k++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

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

int
plot_draw(const struct plot_kind *k, char *const *paths, size_t npaths,
	  const struct plot_opts *o, struct sp_buf *out, struct sp_buf *why)
{
	struct sp_reader r;
	struct svg g;
	struct sp_buf title = { 0 }, caption = { 0 };
	int drawn;

	sp_open_or_die(&r, paths, npaths);
	svg_init(&g, o->id ? o->id : k->name);
	drawn = k->draw(&r, o, &g, &title, &caption, why);
	if (drawn)
		svg_finish(&g, out, sp_buf_str(&title), sp_buf_str(&caption));
	svg_free(&g);
	sp_buf_free(&title);
	sp_buf_free(&caption);
	sp_reader_close(&r);
	return drawn;
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
	s->key = key ? sp_xstrdup(key) : NULL;
	s->ckey = key ? sp_reader_need(r, "workload_key", "sp-group") :
		  sp_reader_col(r, "workload_key");
}

int
plot_sel_keep(struct plot_sel *s, const struct sp_reader *r)
{
	struct sp_slice k;

	if (s->ckey < 0)
		return 1;
	k = r->f[s->ckey];
	if (s->given)
		return sp_slice_eq(k, s->key);
	if (!s->key)
		s->key = sp_xstrndup(k.p, k.n);
	else if (!sp_slice_eq(k, s->key))
		sp_die(SP_EXIT_USAGE, "the records hold more than one "
		       "workload: name one with --workload KEY or --findings "
		       "FILE");
	return 1;
}

void
plot_sel_free(struct plot_sel *s)
{
	free(s->key);
	s->key = NULL;
}
