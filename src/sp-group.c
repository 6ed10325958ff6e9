/*
 * sp-group - the workload each run belongs to.
 *
 * Every job record gets two columns on its right: workload, the job name
 * with every run of ASCII digits folded to '#', and workload_key, which
 * adds who ran it, where, and whether it held GPUs.  Records stream
 * through; step records take their allocation's workload.  With --rollup
 * the output is one record per workload instead, most compute first;
 * with --by COLUMN[,COLUMN...], one per workload and value of the columns
 * (with sp-attr's source, the workloads of each session), the values most
 * compute first.
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_opt.h"
#include "sp_pager.h"
#include "sp_rollup.h"
#include "sp_verdict.h"
#include "sp_workload.h"

static const char usage_text[] =
	"usage: sp-group [--rollup [--sort key] [--by column[,column ...]]]\n"
	"                [--tsv | --plain | --json | --csv] [--no-pager] "
	"[file ...]\n";

static const char help_text[] =
	"\n"
	"Adds workload and workload_key to every job record; or, with\n"
	"--rollup, writes one record per workload instead:\n"
	"  -r, --rollup            one record per workload, most compute first\n"
	"  -s, --sort key          order the rollup by cost, failures, rate,\n"
	"                          recent, runs or name\n"
	"      --by column[,...]   a rollup for each value of these columns\n"
	SP_PAGED_FORMATS_HELP;

struct options {
	int rollup;
	int sort_given;
	enum sp_rollup_sort sort;
	const char *by;		/* --by: the columns that split workloads */
	int no_pager;
	enum sp_format fmt;
};

/*
 * --by: a rollup for each value of the columns (their fields joined by
 * TAB, which no field holds), written one after the other, the values
 * whose runs used the most compute first and those with the first column
 * unknown (empty) last.
 */
struct groups {
	int *col;
	size_t ncol;
	struct sp_intern values;
	struct sp_buf key;
	struct sp_rollup *ru;		/* by value number */
	size_t cap;
	double total;			/* every value's compute */
};

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "rollup", no_argument, NULL, 'r' },
		{ "sort", required_argument, NULL, 's' },
		{ "by", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text };
	int ch;

	memset(o, 0, sizeof *o);
	common.no_pager = &o->no_pager;
	while ((ch = sp_getopt(argc, argv, "rs:", longopts, NULL,
			       &common)) != -1) {
		switch (ch) {
		case 'r':
			o->rollup = 1;
			break;
		case 'b':
			if (*optarg == '\0')
				sp_die(SP_EXIT_USAGE, "--by: no column named");
			o->by = optarg;
			break;
		case 's': {
			int k;

			for (k = 0; sp_rollup_sort_names[k]; k++)
				if (strcmp(optarg, sp_rollup_sort_names[k]) == 0)
					break;
			if (sp_rollup_sort_names[k] == NULL)
				sp_die(SP_EXIT_USAGE, "--sort: unknown key '%s' "
				       "(cost, failures, rate, recent, runs or "
				       "name)", optarg);
			o->sort = (enum sp_rollup_sort)k;
			o->sort_given = 1;
			break;
		}
		}
	}
	o->fmt = common.fmt;
	/* --plain asked for is text as it comes, as slurmpast --plain:
	 * no pager (one is for the terminal's default). */
	if (common.fmt_opt != NULL)
		o->no_pager = 1;
	if (o->sort_given && !o->rollup)
		sp_die(SP_EXIT_USAGE, "--sort orders the workloads of --rollup; "
		       "add --rollup");
	if (o->by && !o->rollup)
		sp_die(SP_EXIT_USAGE, "--by splits the workloads of --rollup; "
		       "add --rollup");
}

/* ------------------------------------------------------------ streaming */

struct cols {
	int name, user, partition, alloc_gpus, step, jobid;
	int workload, workload_key;
};

static void
resolve(struct cols *c, const struct sp_reader *r)
{
	/* Only the name is needed; an absent user or partition is unknown. */
	c->name = sp_reader_need(r, "name", "sp-fetch");
	c->user = sp_reader_col(r, "user");
	c->partition = sp_reader_col(r, "partition");
	c->alloc_gpus = sp_reader_col(r, "alloc_gpus");
	c->step = sp_reader_col(r, "step");
	c->jobid = sp_reader_col(r, "jobid");
	c->workload = sp_reader_col(r, "workload");
	c->workload_key = sp_reader_col(r, "workload_key");
}

/* resolve, and the reader told these are the columns read. */
static void
resolve_wanted(struct cols *c, struct sp_reader *r)
{
	resolve(c, r);
	sp_reader_want(r, c->name);
	sp_reader_want(r, c->user);
	sp_reader_want(r, c->partition);
	sp_reader_want(r, c->alloc_gpus);
	sp_reader_want(r, c->step);
	sp_reader_want(r, c->jobid);
	sp_reader_want(r, c->workload);
	sp_reader_want(r, c->workload_key);
}

/* Folds the record's name and builds its key. */
static void
key_of(const struct sp_reader *r, const struct cols *c, struct sp_buf *wl,
       struct sp_buf *key)
{
	struct sp_slice name = sp_reader_field(r, c->name);
	struct sp_slice user = sp_reader_field(r, c->user);
	struct sp_slice part = sp_reader_field(r, c->partition);
	struct sp_slice g = sp_reader_field(r, c->alloc_gpus);
	double gpus;
	int gpu;

	if (sp_field_num(g, &gpus) < 0)
		sp_reader_die(r, "field 'alloc_gpus' is not a number");
	/* No alloc_gpus (no column, or an empty field): unknown, "?". */
	gpu = g.n == 0 ? -1 : gpus > 0;
	sp_workload_of(wl, key, name.p, name.n, user.p, user.n, part.p, part.n,
		       gpu);
}

/* The record with its workload and key, in place or added at the end. */
static void
pass_record(struct sp_writer *w, const struct sp_reader *r,
	    const struct cols *c, const struct sp_buf *wl,
	    const struct sp_buf *key)
{
	if (c->workload < 0 && c->workload_key < 0) {
		sp_writer_fields_from(w, r);
	} else {
		for (size_t i = 0; i < r->ncols; i++) {
			if ((int)i == c->workload)
				sp_writer_field(w, wl->p, wl->len);
			else if ((int)i == c->workload_key)
				sp_writer_field(w, key->p, key->len);
			else
				sp_writer_slice(w, r->f[i]);
		}
	}
	if (c->workload < 0)
		sp_writer_field(w, wl->p, wl->len);
	if (c->workload_key < 0)
		sp_writer_field(w, key->p, key->len);
}

static void
stream(struct sp_reader *r, struct sp_writer *w)
{
	struct sp_buf wl = { 0 }, key = { 0 }, alloc = { 0 };
	struct cols c;
	int have_alloc = 0;

	resolve(&c, r);
	sp_writer_columns_from(w, r);
	if (c.workload < 0)
		sp_writer_column(w, "workload");
	if (c.workload_key < 0)
		sp_writer_column(w, "workload_key");
	sp_writer_header(w);
	while (sp_next_or_die(r)) {
		struct sp_slice step = sp_reader_field(r, c.step);
		struct sp_slice id = sp_reader_field(r, c.jobid);

		/* A step belongs to the allocation it follows. */
		if (!(step.n > 0 && have_alloc && id.n == alloc.len &&
		      memcmp(id.p, alloc.p, id.n) == 0))
			key_of(r, &c, &wl, &key);
		if (step.n == 0) {
			sp_buf_clear(&alloc);
			sp_buf_add(&alloc, id.p, id.n);
			have_alloc = 1;
		}
		pass_record(w, r, &c, &wl, &key);
		sp_writer_end(w);
	}
	sp_buf_free(&wl);
	sp_buf_free(&key);
	sp_buf_free(&alloc);
}

/* --------------------------------------------------------------- rollup */

/* The rollup of the record's value of --by's column. */
static struct sp_rollup *
group_of(struct groups *g, const struct sp_reader *r)
{
	size_t before = g->values.n, i;

	sp_buf_clear(&g->key);
	for (size_t k = 0; k < g->ncol; k++) {
		if (k > 0)
			sp_buf_addc(&g->key, '\t');
		sp_buf_add(&g->key, r->f[g->col[k]].p, r->f[g->col[k]].n);
	}
	i = sp_intern(&g->values, sp_buf_str(&g->key), g->key.len);

	if (g->values.n > before) {
		g->ru = sp_xgrow(g->ru, &g->cap, g->values.n, sizeof *g->ru);
		sp_rollup_init(&g->ru[i]);
	}
	return &g->ru[i];
}

/* Every record into ru, or with g into the rollup of its value; and into
 * set, whose verdicts give each workload its severity. */
static void
read_rollup(struct sp_reader *r, struct sp_rollup *ru, struct groups *g,
	    struct sp_histset *set)
{
	struct sp_buf wl = { 0 }, key = { 0 };
	unsigned seen = 0;
	struct sp_jobcols c;
	struct cols kc;
	struct sp_job j;

	if (sp_reader_col(r, "workload_key") < 0)
		resolve_wanted(&kc, r);
	/* Parse only what the rollup reads: the rest stays unknown. */
	sp_jobcols_only(&c, r, "jobid", "jobid_raw", "array_job",
	    "array_task", "step", "attempt", "name", "state", "submit",
	    "start", "end", "open", "elapsed_s", "timelimit_s", "req_cpus",
	    "alloc_cpus", "ntasks", "alloc_gpus", "nnodes",
	    "mem_limit_node_b", "mem_limit_total_b", "max_rss_b",
	    "total_cpu_s", "cpu_time_s", "read_b", "write_b", "gpu_util",
	    "workload", "workload_key", NULL);
	sp_jobcols_want(r, &c);
	for (size_t k = 0; g != NULL && k < g->ncol; k++)
		sp_reader_want(r, g->col[k]);
	while (sp_next_or_die(r)) {
		sp_job_parse(&j, &c, r);
		sp_cols_seen(&c, r, &seen);
		if (g != NULL)
			ru = group_of(g, r);
		/* A key already on the record wins: awk may have merged two. */
		if (c.workload_key >= 0) {
			sp_rollup_add(ru, j.workload_key.p, j.workload_key.n,
				      &j);
			sp_histset_add(set, sp_histset_find(set,
				       j.workload_key.p, j.workload_key.n), &j);
		} else if (!sp_job_is_step(&j)) {
			key_of(r, &kc, &wl, &key);
			sp_rollup_add(ru, key.p, key.len, &j);
			sp_histset_add(set, sp_histset_find(set, key.p,
				       key.len), &j);
		}
	}
	sp_buf_free(&wl);
	sp_buf_free(&key);
	set->missing = sp_cols_unseen(&c, seen);
	set->empty = sp_cols_empty(&c, seen);
	sp_histset_finish(set);
}

/* A workload's severity: its verdict's, from its whole history. */
static const char *
severity_of(struct sp_histset *set, const char *key)
{
	long i = sp_histset_lookup(set, key, strlen(key));
	struct sp_wl_verdict v = { 0 };
	struct sp_size_site site;
	const struct sp_hist *h;
	int sev;

	if (i < 0)
		return "";
	h = sp_histset_hist(set, (size_t)i);
	sp_wl_site(NULL, set, h, &site);
	sp_wl_verdict(h, &site, 0, &v);
	sev = v.severity;
	sp_wl_verdict_free(&v);
	return sp_wl_severity_name(sev);
}

static void
write_time(struct sp_writer *w, int known, int64_t t, struct sp_buf *b)
{
	if (!known) {
		sp_writer_empty(w);
		return;
	}
	sp_buf_clear(b);
	sp_fmt_time(b, t);
	sp_writer_field(w, b->p, b->len);
}

/* A count of runs by how they ended: unknown where a state is. */
static void
by_state(struct sp_writer *w, const struct sp_rollup_wl *x, long n)
{
	if (x->stateless > 0)
		sp_writer_empty(w);
	else
		sp_writer_int(w, n);
}

/* The header, after --by's columns if any (by_columns). */
static void
write_header(struct sp_writer *w)
{
	static const char *const cols[] = { "user", "workload",
		"workload_key", "label", "partition", "names", "runs",
		"completed", "failed", "cancelled", "noop", "problems", "gpu_h",
		"core_h", "compute", "share", "cum_share", "severity", "first",
		"last", NULL };

	sp_writer_columns(w, cols);
	sp_writer_header(w);
}

/*
 * The rows of ru; with value (--by), each led by it and its share taken
 * of total, every value's compute, cum running on from *cum.
 */
static void
write_rollup(struct sp_rollup *ru, struct sp_writer *w,
	     const struct sp_slice *value, double total, double *cum,
	     struct sp_histset *set)
{
	struct sp_buf b = { 0 };

	for (size_t i = 0; i < ru->n; i++) {
		const struct sp_rollup_wl *x = &ru->v[i];
		const char *key = sp_rollup_key(ru, x);
		const char *wl = sp_rollup_key_workload(key);
		const char *s1 = strchr(key, '/');
		const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
		double share = x->share;

		if (value != NULL) {
			/* One field a column of --by. */
			const char *p = value->p, *end = value->p + value->n;

			for (;;) {
				const char *t = memchr(p, '\t',
						       (size_t)(end - p));

				sp_writer_field(w, p, (size_t)((t ? t : end) -
							       p));
				if (t == NULL)
					break;
				p = t + 1;
			}
			share = total > 0 ? x->compute / total : NAN;
		}
		sp_buf_clear(&b);
		if (s1 && s2 && wl != key) {
			sp_writer_field(w, key, (size_t)(s1 - key));
			sp_writer_str(w, wl);
			sp_writer_str(w, key);
			sp_rollup_label(&b, x, wl);
			sp_writer_field(w, b.p, b.len);
			sp_writer_field(w, s1 + 1, (size_t)(s2 - s1 - 1));
		} else {
			sp_writer_empty(w);
			sp_writer_str(w, key);
			sp_writer_str(w, key);
			sp_rollup_label(&b, x, key);
			sp_writer_field(w, b.p, b.len);
			sp_writer_empty(w);
		}
		if (x->nameless > 0)
			sp_writer_empty(w);
		else
			sp_writer_int(w, x->names);
		sp_writer_int(w, x->runs);
		/* A run with no state could have ended any way. */
		by_state(w, x, x->completed);
		by_state(w, x, x->failed);
		by_state(w, x, x->cancelled);
		/* Unknown when no run that could have hung was judged. */
		if (sp_rollup_noop_known(x))
			sp_writer_int(w, x->noop);
		else
			sp_writer_empty(w);
		/* A failure or a hang: unknown where either is. */
		if (sp_rollup_noop_known(x))
			by_state(w, x, x->problems);
		else
			sp_writer_empty(w);
		sp_writer_num(w, x->gpu_known ? x->gpu_h : NAN);
		sp_writer_num(w, x->core_known ? x->core_h : NAN);
		sp_writer_num(w, x->compute);
		sp_writer_num(w, share);
		if (!isnan(share))
			*cum += share;
		sp_writer_num(w, isnan(share) ? NAN : *cum);
		sp_writer_str(w, severity_of(set, key));
		write_time(w, x->first_known, x->first, &b);
		write_time(w, x->last_known, x->last, &b);
		sp_writer_end(w);
	}
	sp_buf_free(&b);
}

/* The stage that adds a column --by may name, for the message. */
static const char *
added_by(const char *col)
{
	if (strncmp(col, "source", 6) == 0)
		return "sp-attr";
	if (strncmp(col, "workload", 8) == 0)
		return "sp-group";
	return "sp-fetch";
}

/* The columns of --by's comma list, found, and first in the header. */
static void
by_columns(struct groups *g, const struct sp_reader *r, const char *list,
	   struct sp_writer *w)
{
	char *names = sp_xstrdup(list), *name, *save = NULL;
	size_t cap = 0;

	for (name = strtok_r(names, ",", &save); name != NULL;
	     name = strtok_r(NULL, ",", &save)) {
		g->col = sp_xgrow(g->col, &cap, g->ncol + 1, sizeof *g->col);
		g->col[g->ncol++] = sp_reader_need(r, name, added_by(name));
		sp_writer_column(w, name);
	}
	if (g->ncol == 0)
		sp_die(SP_EXIT_USAGE, "--by: no column named");
	free(names);
}

struct group_order {
	size_t value;
	const char *text;
	double compute;
};

/* Most compute first, the unknown value last, then by value. */
static int
by_compute(const void *pa, const void *pb)
{
	const struct group_order *a = pa, *b = pb;
	int ua = *a->text == '\0' || *a->text == '\t';
	int ub = *b->text == '\0' || *b->text == '\t';

	if (ua != ub)
		return ua ? 1 : -1;
	if (a->compute != b->compute)
		return a->compute > b->compute ? -1 : 1;
	return strcmp(a->text, b->text);
}

/*
 * --rollup --by: a rollup a value, each sorted as --sort says, written in
 * the values' order; what was left out is summed into ru.
 */
static void
rollup_by(struct sp_reader *r, struct sp_rollup *ru, const struct options *o,
	  struct sp_writer *w, struct sp_histset *set)
{
	struct groups g;
	struct group_order *order;
	double cum = 0;

	memset(&g, 0, sizeof g);
	by_columns(&g, r, o->by, w);
	read_rollup(r, NULL, &g, set);
	order = sp_xcalloc(g.values.n, sizeof *order);
	for (size_t i = 0; i < g.values.n; i++) {
		sp_rollup_finish(&g.ru[i]);
		sp_rollup_sort(&g.ru[i], o->sort);
		g.total += g.ru[i].total;
		ru->open += g.ru[i].open;
		ru->unusable += g.ru[i].unusable;
		order[i].value = i;
		order[i].text = sp_intern_str(&g.values, i);
		order[i].compute = g.ru[i].total;
	}
	sp_sort(order, g.values.n, sizeof *order, by_compute);
	write_header(w);
	for (size_t i = 0; i < g.values.n; i++) {
		struct sp_slice v = { order[i].text, strlen(order[i].text) };

		write_rollup(&g.ru[order[i].value], w, &v, g.total, &cum,
			     set);
	}
	for (size_t i = 0; i < g.values.n; i++)
		sp_rollup_free(&g.ru[i]);
	free(g.ru);
	free(g.col);
	free(order);
	sp_intern_free(&g.values);
	sp_buf_free(&g.key);
}

/*
 * The columns a person reads on one line of a screen: a job's own and
 * its workload; a workload's runs, failures, cost and severity, after
 * --by's columns (the rest is in the records).  The list lives until the
 * writer is done.
 */
static const char *const plain_jobs[] = { "jobid", "user", "partition",
	"state", "name", "workload", NULL };
static const char *const plain_rollup[] = { "user", "workload", "partition",
	"runs", "failed", "gpu_h", "core_h", "share", "severity" };
#define PLAIN_ROLLUP_N (sizeof plain_rollup / sizeof plain_rollup[0])

static const char **
plain_columns(const struct options *o, char **names)
{
	const char **plain;
	size_t n = 0, cap = 0;
	char *save = NULL;

	*names = NULL;
	if (!o->rollup)
		return NULL;
	plain = sp_xgrow(NULL, &cap, PLAIN_ROLLUP_N + 1, sizeof *plain);
	if (o->by != NULL) {
		*names = sp_xstrdup(o->by);
		for (char *name = strtok_r(*names, ",", &save); name != NULL;
		     name = strtok_r(NULL, ",", &save)) {
			plain = sp_xgrow(plain, &cap, n + PLAIN_ROLLUP_N + 1,
					 sizeof *plain);
			plain[n++] = name;
		}
	}
	for (size_t i = 0; i < PLAIN_ROLLUP_N; i++)
		plain[n++] = plain_rollup[i];
	plain[n] = NULL;
	return plain;
}

int
main(int argc, char **argv)
{
	struct options o;
	struct sp_reader r;
	struct sp_writer w;
	const char **plain;
	char *by_names;

	sp_setprog(argv[0]);
	sp_stdout_init();
	parse_options(argc, argv, &o);

	sp_open_or_die(&r, argv + optind, (size_t)(argc - optind));
	sp_writer_init(&w, stdout, o.fmt);
	plain = plain_columns(&o, &by_names);
	sp_writer_plain_columns(&w, plain != NULL ? plain : plain_jobs);
	/* The header is read and the width taken: what is shown may be
	 * paged. */
	sp_pager_start(o.no_pager);
	if (o.rollup) {
		struct sp_rollup ru;
		struct sp_histset set = { 0 };

		sp_rollup_init(&ru);
		if (o.by) {
			rollup_by(&r, &ru, &o, &w, &set);
		} else {
			double cum = 0;

			read_rollup(&r, &ru, NULL, &set);
			sp_rollup_finish(&ru);
			sp_rollup_sort(&ru, o.sort);
			write_header(&w);
			write_rollup(&ru, &w, NULL, 0, &cum, &set);
		}
		sp_histset_free(&set);
		sp_writer_finish(&w);
		if (ru.open > 0)
			sp_warn("left out %ld open %s (never ended)", ru.open,
				ru.open == 1 ? "record" : "records");
		if (ru.unusable > 0)
			sp_warn("left out %ld %s with no elapsed time",
				ru.unusable, ru.unusable == 1 ? "record" :
				"records");
		sp_rollup_free(&ru);
	} else {
		stream(&r, &w);
		sp_writer_finish(&w);
	}
	free(plain);
	free(by_names);
	sp_reader_close(&r);
	sp_pager_end();
	return SP_EXIT_OK;
}
