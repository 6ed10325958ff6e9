/*
 * sp-group - the workload each run belongs to.
 *
 * Every job record gets two columns on its right: workload, the job name
 * with every run of ASCII digits folded to '#', and workload_key, which
 * adds who ran it, where, and whether it held GPUs.  Records stream
 * through; step records take their allocation's workload.  With --rollup
 * the output is one record per workload instead, most compute first.
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_intern.h"
#include "sp_run.h"
#include "sp_workload.h"

static const char usage_text[] =
	"usage: sp-group [--rollup [--sort key]] [--tsv | --plain | --json | "
	"--csv] [file ...]\n";

enum sort_key { SORT_COST, SORT_FAILURES, SORT_RATE, SORT_RECENT,
		SORT_RUNS, SORT_NAME };

static const char *const sort_names[] = { "cost", "failures", "rate",
	"recent", "runs", "name", NULL };

struct options {
	int rollup;
	int sort_given;
	enum sort_key sort;
	enum sp_format fmt;
};

/* One workload of the rollup. */
struct wl {
	size_t key;			/* its number in the key table */
	long runs, completed, failed, cancelled, noop, problems;
	long hang_judged;		/* runs whose noop is known */
	long hang_unjudged;		/* over 5 minutes, no CPU time */
	long hang_judged_long;		/* over 5 minutes, CPU time known */
	long names;
	double gpu_h, core_h;
	int gpu_known, core_known;
	int64_t first, last;
	int first_known, last_known;
	struct sp_order newest;
	int have_newest;
	const char *newest_name;	/* in the names table */
	const char *last_name;		/* the last run's, in the table */
	size_t last_name_n;
	/* worked out at the end */
	double compute, fail_rate, noop_rate, share;
	const char *keystr;
	enum sort_key sort;
};

struct rollup {
	struct sp_intern keys;		/* workload_key -> number */
	struct sp_intern names;		/* (number, name) pairs seen */
	struct wl *v;
	size_t n, cap;
	long open, unusable;
	enum sort_key sort;
};

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "rollup", no_argument, NULL, 'r' },
		{ "sort", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		SP_FORMAT_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	memset(o, 0, sizeof *o);
	o->fmt = SP_FMT_TSV;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":rs:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'r':
			o->rollup = 1;
			break;
		case 's': {
			int k;

			for (k = 0; sort_names[k]; k++)
				if (strcmp(optarg, sort_names[k]) == 0)
					break;
			if (sort_names[k] == NULL)
				sp_die(SP_EXIT_USAGE, "--sort: unknown key '%s' "
				       "(cost, failures, rate, recent, runs or "
				       "name)", optarg);
			o->sort = (enum sort_key)k;
			o->sort_given = 1;
			break;
		}
		case 'h':
			fputs(usage_text, stdout);
			sp_stdout_close();
			exit(SP_EXIT_OK);
		case 'V':
			sp_print_version();
			sp_stdout_close();
			exit(SP_EXIT_OK);
		case ':':
			sp_die(SP_EXIT_USAGE, "option '%s' needs a value",
			       argv[optind - 1]);
		case '?':
			sp_die_unknown_option(optopt, argv[optind - 1]);
		default:
			if (!sp_format_option(ch, &o->fmt))
				sp_die_unknown_option(optopt,
						      argv[optind - 1]);
		}
	}
	if (o->sort_given && !o->rollup)
		sp_die(SP_EXIT_USAGE, "--sort orders the workloads of --rollup; "
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

static struct sp_slice
field(const struct sp_reader *r, int col)
{
	if (col < 0)
		return (struct sp_slice){ "", 0 };
	return r->f[col];
}

/* Folds the record's name and builds its key. */
static void
key_of(const struct sp_reader *r, const struct cols *c, struct sp_buf *wl,
       struct sp_buf *key)
{
	struct sp_slice name = field(r, c->name), user = field(r, c->user);
	struct sp_slice part = field(r, c->partition);
	struct sp_slice g = field(r, c->alloc_gpus);
	double gpus;
	int gpu;

	if (sp_field_num(g, &gpus) < 0)
		sp_reader_die(r, "field 'alloc_gpus' is not a number");
	gpu = g.n > 0 && gpus > 0;
	sp_buf_clear(wl);
	sp_buf_clear(key);
	sp_workload_fold(wl, name.p, name.n);
	sp_workload_key(key, user.p, user.n, part.p, part.n, gpu,
			sp_buf_str(wl), wl->len);
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
		struct sp_slice step = field(r, c.step);
		struct sp_slice id = field(r, c.jobid);

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

static struct wl *
workload(struct rollup *ru, const char *key, size_t n)
{
	size_t i = sp_intern(&ru->keys, key, n);

	if (i == ru->n) {
		ru->v = sp_xgrow(ru->v, &ru->cap, ru->n + 1, sizeof *ru->v);
		memset(&ru->v[i], 0, sizeof ru->v[i]);
		ru->v[i].key = i;
		ru->n++;
	}
	return &ru->v[i];
}

/* Counts a name once per workload; returns the name as kept. */
static const char *
count_name(struct rollup *ru, struct wl *w, struct sp_slice name,
	   struct sp_buf *scratch)
{
	size_t before = ru->names.n, id, prefix;

	/* One table for every workload: "number/name" (digits by hand:
	 * this runs once a record). */
	char digits[32], *d = digits + sizeof digits;
	size_t k = w->key;

	/* Runs of a workload mostly share a name: no lookup for a repeat. */
	if (w->last_name != NULL && name.n == w->last_name_n &&
	    memcmp(name.p, w->last_name, name.n) == 0)
		return w->last_name;

	*--d = '/';
	do
		*--d = (char)('0' + k % 10);
	while ((k /= 10) != 0);
	sp_buf_clear(scratch);
	sp_buf_add(scratch, d, (size_t)(digits + sizeof digits - d));
	prefix = scratch->len;
	sp_buf_add(scratch, name.p, name.n);
	id = sp_intern(&ru->names, scratch->p, scratch->len);
	if (ru->names.n > before)
		w->names++;
	w->last_name = sp_intern_str(&ru->names, id) + prefix;
	w->last_name_n = name.n;
	return w->last_name;
}

static void
add_run(struct rollup *ru, struct wl *w, const struct sp_job *j,
	struct sp_buf *scratch)
{
	struct sp_order o;
	double gh = sp_job_gpu_hours(j), ch = sp_job_core_hours(j);
	int64_t first, last;
	int first_known, last_known;
	/* noop is sp-hang's rule: a state that explains it is no hang. */
	int failed = sp_job_failed(j), noop = sp_job_hang(j);
	const char *name;

	w->runs++;
	w->completed += sp_job_state_is(j, "COMPLETED");
	w->failed += failed;
	w->cancelled += sp_job_state_is(j, "CANCELLED");
	w->noop += noop;
	if (sp_job_hang_known(j)) {
		w->hang_judged++;
		w->hang_judged_long += j->elapsed_s > SP_NOOP_MIN_ELAPSED_S &&
				       !isnan(j->total_cpu_s);
	} else if (sp_job_usable(j)) {
		w->hang_unjudged++;
	}
	w->problems += failed || noop;
	if (!isnan(gh)) {
		w->gpu_h += gh;
		w->gpu_known = 1;
	}
	if (!isnan(ch)) {
		w->core_h += ch;
		w->core_known = 1;
	}
	first_known = j->start_known || j->submit_known;
	first = j->start_known ? j->start_t : j->submit_t;
	last_known = j->end_known || first_known;
	last = j->end_known ? j->end_t : first;
	if (first_known && (!w->first_known || first < w->first)) {
		w->first = first;
		w->first_known = 1;
	}
	if (last_known && (!w->last_known || last > w->last)) {
		w->last = last;
		w->last_known = 1;
	}
	name = count_name(ru, w, j->name, scratch);
	sp_order_of(&o, j);
	if (!w->have_newest || sp_order_cmp(&o, &w->newest) > 0) {
		w->newest = o;
		w->have_newest = 1;
		w->newest_name = name;
	}
}

static void
read_rollup(struct sp_reader *r, struct rollup *ru)
{
	struct sp_buf wl = { 0 }, key = { 0 }, scratch = { 0 };
	struct sp_jobcols c;
	struct cols kc;
	struct sp_job j;

	if (sp_reader_col(r, "workload_key") < 0)
		resolve(&kc, r);
	/* Parse only what the rollup reads: the rest stays unknown. */
	sp_jobcols_only(&c, r, "jobid", "jobid_raw", "array_task",
	    "step", "attempt", "name", "state", "submit", "start",
	    "end", "open", "elapsed_s", "req_cpus", "alloc_cpus",
	    "alloc_gpus", "total_cpu_s", "workload", "workload_key",
	    NULL);
	while (sp_next_or_die(r)) {
		sp_job_parse(&j, &c, r);
		if (sp_job_is_step(&j))
			continue;
		if (sp_job_is_open(&j)) {
			ru->open++;
			continue;
		}
		if (!sp_job_usable(&j)) {
			ru->unusable++;
			continue;
		}
		/* A key already on the record wins: awk may have merged two. */
		if (c.workload_key >= 0) {
			add_run(ru, workload(ru, j.workload_key.p,
				j.workload_key.n), &j, &scratch);
		} else {
			key_of(r, &kc, &wl, &key);
			add_run(ru, workload(ru, key.p, key.len), &j, &scratch);
		}
	}
	sp_buf_free(&wl);
	sp_buf_free(&key);
	sp_buf_free(&scratch);
}

static int
cmp_num(double a, double b)
{
	return a < b ? -1 : a > b;
}

static const char *
key_str(const struct rollup *ru, const struct wl *w)
{
	return sp_intern_str(&ru->keys, w->key);
}

/* The workload part of a key: after its third '/'. */
static const char *
key_workload(const char *key)
{
	const char *p = key;

	for (int k = 0; k < 3; k++) {
		const char *s = strchr(p, '/');

		if (s == NULL)
			return key;
		p = s + 1;
	}
	return p;
}

static int
cmp_lower(const char *a, const char *b)
{
	for (;; a++, b++) {
		int x = (unsigned char)*a, y = (unsigned char)*b;

		if (x >= 'A' && x <= 'Z')
			x += 'a' - 'A';
		if (y >= 'A' && y <= 'Z')
			y += 'a' - 'A';
		if (x != y || x == 0)
			return x - y;
	}
}

static int
by_sort(const void *pa, const void *pb)
{
	const struct wl *a = pa, *b = pb;
	const char *ka = a->keystr, *kb = b->keystr;
	int c = 0;

	switch (a->sort) {
	case SORT_COST:
		if ((c = -cmp_num(a->compute, b->compute)) == 0)
			c = -cmp_num(a->runs, b->runs);
		break;
	case SORT_FAILURES:
		if ((c = -cmp_num(a->problems, b->problems)) == 0)
			c = -cmp_num(a->compute, b->compute);
		break;
	case SORT_RATE:
		if ((c = -cmp_num(a->fail_rate, b->fail_rate)) == 0)
			c = -cmp_num(a->runs, b->runs);
		break;
	case SORT_RECENT:
		if ((c = -cmp_num((double)a->last, (double)b->last)) == 0)
			c = strcmp(key_workload(ka), key_workload(kb));
		break;
	case SORT_RUNS:
		if ((c = -cmp_num(a->runs, b->runs)) == 0)
			c = strcmp(key_workload(ka), key_workload(kb));
		break;
	case SORT_NAME:
		c = cmp_lower(key_workload(ka), key_workload(kb));
		break;
	}
	/* The key last, so the order never depends on the input's. */
	return c ? c : strcmp(ka, kb);
}

static const char *
severity(const struct wl *w)
{
	if (w->runs >= SP_SEV_MIN_RUNS &&
	    (w->fail_rate >= SP_SEV_CRIT_FAIL_RATE ||
	     w->noop_rate >= SP_SEV_CRIT_NOOP_RATE))
		return "critical";
	if (w->fail_rate >= SP_SEV_WARN_FAIL_RATE ||
	    w->noop_rate >= SP_SEV_WARN_NOOP_RATE)
		return "warning";
	return "ok";
}

/* One raw name: itself; a fold with no letters: the newest raw name. */
static void
write_label(struct sp_writer *w, const struct wl *x, const char *workload)
{
	const char *newest = x->newest_name ? x->newest_name : "";

	if (x->names == 1 && *newest != '\0') {
		sp_writer_str(w, newest);
	} else if (!sp_workload_has_letter(workload, strlen(workload)) &&
		   *newest != '\0') {
		if (x->names > 1)
			sp_writer_printf(w, "%s+%ld", newest, x->names - 1);
		else
			sp_writer_str(w, newest);
	} else {
		sp_writer_str(w, workload);
	}
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

static void
write_rollup(struct rollup *ru, struct sp_writer *w)
{
	static const char *const cols[] = { "user", "workload",
		"workload_key", "label", "partition", "names", "runs",
		"completed", "failed", "cancelled", "noop", "problems", "gpu_h",
		"core_h", "compute", "share", "cum_share", "severity", "first",
		"last", NULL };
	struct sp_buf b = { 0 };
	double total = 0, cum = 0;

	for (size_t i = 0; i < ru->n; i++) {
		struct wl *x = &ru->v[i];
		long decided = x->completed + x->failed;

		x->compute = sp_compute(x->gpu_h, x->core_h);
		x->fail_rate = decided ? (double)x->failed / decided : 0;
		/* Over the runs that could be judged: unknown is not 0. */
		x->noop_rate = x->hang_judged ?
			       (double)x->noop / x->hang_judged : 0;
		x->keystr = key_str(ru, x);
		x->sort = ru->sort;
		total += x->compute;
	}
	sp_sort(ru->v, ru->n, sizeof *ru->v, by_sort);
	for (const char *const *c = cols; *c; c++)
		sp_writer_column(w, *c);
	sp_writer_header(w);
	for (size_t i = 0; i < ru->n; i++) {
		const struct wl *x = &ru->v[i];
		const char *key = key_str(ru, x), *wl = key_workload(key);
		const char *s1 = strchr(key, '/');
		const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
		double share = total > 0 ? x->compute / total : NAN;

		if (s1 && s2 && wl != key) {
			sp_writer_field(w, key, (size_t)(s1 - key));
			sp_writer_str(w, wl);
			sp_writer_str(w, key);
			write_label(w, x, wl);
			sp_writer_field(w, s1 + 1, (size_t)(s2 - s1 - 1));
		} else {
			sp_writer_empty(w);
			sp_writer_str(w, key);
			sp_writer_str(w, key);
			write_label(w, x, key);
			sp_writer_empty(w);
		}
		sp_writer_int(w, x->names);
		sp_writer_int(w, x->runs);
		sp_writer_int(w, x->completed);
		sp_writer_int(w, x->failed);
		sp_writer_int(w, x->cancelled);
		/* Unknown when no run that could have hung was judged. */
		if (x->hang_judged_long || (x->hang_judged &&
					    !x->hang_unjudged))
			sp_writer_int(w, x->noop);
		else
			sp_writer_empty(w);
		sp_writer_int(w, x->problems);
		sp_writer_num(w, x->gpu_known ? x->gpu_h : NAN);
		sp_writer_num(w, x->core_known ? x->core_h : NAN);
		sp_writer_num(w, x->compute);
		sp_writer_num(w, share);
		if (!isnan(share))
			cum += share;
		sp_writer_num(w, isnan(share) ? NAN : cum);
		sp_writer_str(w, severity(x));
		write_time(w, x->first_known, x->first, &b);
		write_time(w, x->last_known, x->last, &b);
		sp_writer_end(w);
	}
	sp_buf_free(&b);
}

static void
rollup_free(struct rollup *ru)
{
	free(ru->v);
	sp_intern_free(&ru->keys);
	sp_intern_free(&ru->names);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct sp_reader r;
	struct sp_writer w;

	sp_setprog(argv[0]);
	sp_stdout_init();
	parse_options(argc, argv, &o);

	sp_open_or_die(&r, argv + optind, (size_t)(argc - optind));
	sp_writer_init(&w, stdout, o.fmt);
	if (o.rollup) {
		struct rollup ru;

		memset(&ru, 0, sizeof ru);
		ru.sort = o.sort;
		read_rollup(&r, &ru);
		write_rollup(&ru, &w);
		sp_writer_finish(&w);
		if (ru.open > 0)
			sp_warn("left out %ld open %s (never ended)", ru.open,
				ru.open == 1 ? "record" : "records");
		if (ru.unusable > 0)
			sp_warn("left out %ld %s with no elapsed time",
				ru.unusable, ru.unusable == 1 ? "record" :
				"records");
		rollup_free(&ru);
	} else {
		stream(&r, &w);
		sp_writer_finish(&w);
	}
	sp_reader_close(&r);
	sp_stdout_close();
	return SP_EXIT_OK;
}
