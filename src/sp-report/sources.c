/*
 * sources.c - where the runs came from (sp-attr): the split of the
 * record the headline gives, and the workloads of each session or log,
 * most compute first, the runs of no known source last.  Reads the rows
 * of sp-group --rollup --by source[,source_dir]: one per workload and
 * source, the sources' rows together.
 */
#include <math.h>
#include <string.h>

#include "report.h"

#define SESSION_PREFIX	"claude-code:"
#define SESSION_SHOWN	8	/* a session id's letters that name it */
#define WORKLOADS_NAMED	3	/* a source's workloads named; the rest counted */

static int
is_session(struct sp_slice s)
{
	size_t n = sizeof SESSION_PREFIX - 1;

	return s.n > n && memcmp(s.p, SESSION_PREFIX, n) == 0;
}

void
split_load(struct split *s, const struct opts *o)
{
	struct sp_reader r;
	struct sp_intern seen = { 0 };
	int src, runs;

	memset(s, 0, sizeof *s);
	input_open(&r, o, IN_SOURCES);
	src = sp_reader_need(&r, "source", "sp-group --rollup --by source");
	runs = sp_reader_need(&r, "runs", "sp-group --rollup --by source");
	while (sp_next_or_die(&r)) {
		struct sp_slice v = r.f[src];
		double n = field_num(r.f[runs]);
		long k = isnan(n) ? 0 : (long)n;
		size_t before = seen.n;

		s->runs += k;
		if (v.n == 0)
			continue;
		s->attributed += k;
		sp_intern(&seen, v.p, v.n);
		if (is_session(v)) {
			s->session_runs += k;
			s->sessions += seen.n > before;
		} else {
			s->file_runs += k;
			s->files += seen.n > before;
		}
	}
	sp_reader_close(&r);
	sp_intern_free(&seen);
}

void
split_text(struct sp_buf *b, const struct split *s)
{
	if (s->attributed == 0) {
		sp_buf_adds(b, "No allocation is attributable: no transcript "
			    "or log read names one of their jobs.");
		return;
	}
	sp_buf_printf(b, "%ld of %ld allocations are attributable: ",
		      s->attributed, s->runs);
	if (s->session_runs > 0)
		sp_buf_printf(b, "%ld to %ld %s", s->session_runs, s->sessions,
			      s->sessions == 1 ? "session" : "sessions");
	if (s->session_runs > 0 && s->file_runs > 0)
		sp_buf_adds(b, ", ");
	if (s->file_runs > 0) {
		sp_buf_printf(b, "%ld to ", s->file_runs);
		if (s->files == 1)
			sp_buf_adds(b, "a log");
		else
			sp_buf_printf(b, "%ld logs", s->files);
	}
	sp_buf_addc(b, '.');
}

void
source_name(struct sp_buf *b, struct sp_slice source)
{
	size_t n = sizeof SESSION_PREFIX - 1;

	if (source.n == 0) {
		sp_buf_adds(b, "(no source)");
	} else if (is_session(source)) {
		struct sp_slice id = { source.p + n, source.n - n };

		if (id.n > SESSION_SHOWN)
			id.n = SESSION_SHOWN;
		sp_buf_adds(b, "session ");
		field_text(b, id);
	} else {
		field_text(b, source);
	}
}

/* One source, summed over its rows. */
struct source {
	struct sp_buf source, dir;	/* record form */
	long runs, failed, workloads;
	double gpu_h, compute, share;
	int gpu_known;
	struct sp_buf names;		/* its first workloads' labels */
};

struct cols {
	int source, dir, runs, failed, gpu_h, compute, share, label;
};

static void
source_reset(struct source *x)
{
	sp_buf_clear(&x->source);
	sp_buf_clear(&x->dir);
	sp_buf_clear(&x->names);
	x->runs = x->failed = x->workloads = 0;
	x->gpu_h = x->compute = x->share = 0;
	x->gpu_known = 0;
}

static void
source_free(struct source *x)
{
	sp_buf_free(&x->source);
	sp_buf_free(&x->dir);
	sp_buf_free(&x->names);
}

static int
same_source(const struct source *x, const struct sp_reader *r,
	    const struct cols *c)
{
	struct sp_slice s = r->f[c->source];
	struct sp_slice d = sp_reader_field(r, c->dir);

	return x->source.len == s.n && x->dir.len == d.n &&
	       memcmp(sp_buf_str(&x->source), s.p, s.n) == 0 &&
	       memcmp(sp_buf_str(&x->dir), d.p, d.n) == 0;
}

static void
source_add(struct source *x, const struct sp_reader *r, const struct cols *c)
{
	double v;

	if (x->workloads == 0) {
		sp_buf_add(&x->source, r->f[c->source].p, r->f[c->source].n);
		if (c->dir >= 0)
			sp_buf_add(&x->dir, r->f[c->dir].p, r->f[c->dir].n);
	}
	x->workloads++;
	v = field_num(r->f[c->runs]);
	x->runs += isnan(v) ? 0 : (long)v;
	v = field_num(r->f[c->failed]);
	x->failed += isnan(v) ? 0 : (long)v;
	v = field_num(r->f[c->gpu_h]);
	if (!isnan(v)) {
		x->gpu_h += v;
		x->gpu_known = 1;
	}
	v = field_num(r->f[c->compute]);
	x->compute += isnan(v) ? 0 : v;
	v = field_num(r->f[c->share]);
	x->share += isnan(v) ? 0 : v;
	if (x->workloads <= WORKLOADS_NAMED) {
		if (x->workloads > 1)
			sp_buf_adds(&x->names, ", ");
		field_text(&x->names, r->f[c->label]);
	}
}

struct out {
	const struct opts *o;
	struct sp_writer w;
	int started;			/* the plain table waits for a row */
	size_t top, shown, more;
	long more_runs;
	struct source none;		/* no known source: written last */
};

static void
write_source(struct out *t, const struct source *x)
{
	struct sp_slice s = { sp_buf_str(&x->source), x->source.len };
	struct sp_slice d = { sp_buf_str(&x->dir), x->dir.len };
	struct sp_buf b = { 0 };

	if (t->o->fmt == SP_FMT_PLAIN) {
		static const char *const cols[] = { "source", "directory",
			"runs", "failed", "gpu_h", "share", "workloads", NULL };

		if (!t->started)
			table_start(&t->w, t->o, cols);
		t->started = 1;
		source_name(&b, s);
		sp_writer_raw(&t->w, b.p ? b.p : "", b.len);
		sp_buf_clear(&b);
		field_text(&b, d);
		sp_writer_raw(&t->w, b.p ? b.p : "", b.len);
		sp_writer_int(&t->w, x->runs);
		sp_writer_int(&t->w, x->failed);
		sp_writer_num(&t->w, x->gpu_known ? x->gpu_h : NAN);
		sp_writer_num(&t->w, x->share);
		sp_buf_clear(&b);
		sp_buf_add(&b, sp_buf_str(&x->names), x->names.len);
		if (x->workloads > WORKLOADS_NAMED)
			sp_buf_printf(&b, " +%ld",
				      x->workloads - WORKLOADS_NAMED);
		sp_writer_raw(&t->w, b.p ? b.p : "", b.len);
	} else {
		sp_writer_slice(&t->w, s);
		sp_writer_slice(&t->w, d);
		sp_writer_str(&t->w, s.n == 0 ? "none" : is_session(s) ?
			      "session" : "file");
		sp_writer_int(&t->w, x->workloads);
		sp_writer_int(&t->w, x->runs);
		sp_writer_int(&t->w, x->failed);
		sp_writer_num(&t->w, x->gpu_known ? x->gpu_h : NAN);
		sp_writer_num(&t->w, x->compute);
		sp_writer_num(&t->w, x->share);
		sp_writer_raw(&t->w, sp_buf_str(&x->names), x->names.len);
	}
	sp_writer_end(&t->w);
	sp_buf_free(&b);
}

/* A source's rows are over: kept for the end, written, or counted. */
static void
flush(struct out *t, struct source *x)
{
	if (x->workloads == 0)
		return;
	if (x->source.len == 0) {
		struct source keep = t->none;

		t->none = *x;
		*x = keep;
	} else if (t->top == 0 || t->shown < t->top) {
		write_source(t, x);
		t->shown++;
	} else {
		t->more++;
		t->more_runs += x->runs;
	}
	source_reset(x);
}

int
part_sources(const struct opts *o)
{
	static const char *const rec_cols[] = { "source", "source_dir",
		"kind", "workloads", "runs", "failed", "gpu_h", "compute",
		"share", "labels", NULL };
	struct sp_reader r;
	struct cols c;
	struct out t;
	struct source x = { 0 };

	memset(&t, 0, sizeof t);
	t.o = o;
	t.top = o->fmt == SP_FMT_PLAIN ? top_of(o, SP_REPORT_SOURCES) : 0;
	input_open(&r, o, IN_SOURCES);
	c.source = sp_reader_need(&r, "source", "sp-group --rollup --by source");
	c.dir = sp_reader_col(&r, "source_dir");
	c.runs = sp_reader_need(&r, "runs", "sp-group --rollup");
	c.failed = sp_reader_need(&r, "failed", "sp-group --rollup");
	c.gpu_h = sp_reader_need(&r, "gpu_h", "sp-group --rollup");
	c.compute = sp_reader_need(&r, "compute", "sp-group --rollup");
	c.share = sp_reader_need(&r, "share", "sp-group --rollup");
	c.label = sp_reader_need(&r, "label", "sp-group --rollup");
	if (o->fmt != SP_FMT_PLAIN) {
		sp_writer_init(&t.w, stdout, o->fmt);
		for (const char *const *k = rec_cols; *k; k++)
			if (strcmp(*k, "workloads") == 0)
				sp_writer_column_kind(&t.w, *k, SP_KIND_NUMBER);
			else
				sp_writer_column(&t.w, *k);
		sp_writer_header(&t.w);
	}
	while (sp_next_or_die(&r)) {
		if (x.workloads > 0 && !same_source(&x, &r, &c))
			flush(&t, &x);
		source_add(&x, &r, &c);
	}
	flush(&t, &x);
	if (t.none.workloads > 0)
		write_source(&t, &t.none);
	if (o->fmt == SP_FMT_PLAIN && !t.started)
		printf("None with a run that ended.\n");
	else
		sp_writer_finish(&t.w);
	if (t.more > 0)
		printf("%zu more sources (%ld runs)\n", t.more, t.more_runs);
	sp_reader_close(&r);
	source_free(&x);
	source_free(&t.none);
	return SP_EXIT_OK;
}
