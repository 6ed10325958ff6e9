/*
 * testhist.h - job records written as text and read into workload
 * histories, for the unit tests of the cross-run rules:
 *
 *	ROW(.id = "1", .state = "COMPLETED", .el = "3600", .mem = G(32));
 *	load();
 *	h = hist("u/p/cpu/w");
 *
 * A NULL field is empty (unknown); the key defaults to u/p/cpu/w.  The
 * rows go through the record reader and sp_histset as sp-size reads
 * them; with direct set, load() also adds every usable record to that
 * history without the set.
 */
#ifndef TESTHIST_H
#define TESTHIST_H

#include <stdio.h>
#include <string.h>

#include "sp.h"
#include "sp_histset.h"

#define GIB 1073741824.0

/* One job record; a NULL field is empty (unknown). */
struct R {
	const char *id, *aj, *at, *att, *state, *start, *el, *lim, *cpus,
	    *tasks, *nodes, *gpus, *mem, *rss, *cpu, *cput, *gutil, *key;
};

static const char header[] __attribute__((unused)) =
	"jobid\tarray_job\tarray_task\tattempt\tstate\t"
	"start\telapsed_s\ttimelimit_s\talloc_cpus\tntasks\tnnodes\t"
	"alloc_gpus\tmem_limit_node_b\tmax_rss_b\ttotal_cpu_s\tcpu_time_s\t"
	"gpu_util\tworkload_key\n";

static struct sp_buf rows __attribute__((unused));

static inline void
field(const char *s, int last)
{
	sp_buf_adds(&rows, s ? s : "");
	sp_buf_addc(&rows, last ? '\n' : '\t');
}

static inline void
row(struct R r)
{
	field(r.id, 0);
	field(r.aj, 0);
	field(r.at, 0);
	field(r.att, 0);
	field(r.state, 0);
	field(r.start, 0);
	field(r.el, 0);
	field(r.lim, 0);
	field(r.cpus, 0);
	field(r.tasks, 0);
	field(r.nodes, 0);
	field(r.gpus, 0);
	field(r.mem, 0);
	field(r.rss, 0);
	field(r.cpu, 0);
	field(r.cput, 0);
	field(r.gutil, 0);
	field(r.key ? r.key : "u/p/cpu/w", 1);
}

#define ROW(...) row((struct R){ __VA_ARGS__ })

/* Numbers as text, from a ring long enough for one ROW. */
static inline const char *
N(double v)
{
	static char ring[32][40];
	static int i;

	i = (i + 1) % 32;
	snprintf(ring[i], sizeof ring[i], "%.17g", v);
	return ring[i];
}

static inline const char *
G(double gib)
{
	return N(gib * GIB);
}

static struct sp_histset set __attribute__((unused));
/* When set, load() also adds every record to it directly. */
static struct sp_hist *direct __attribute__((unused));

/* Reads the rows gathered so far into a fresh set. */
static inline void
load(void)
{
	struct sp_reader r;
	struct sp_jobcols c;
	struct sp_job j;
	struct sp_buf text = { 0 };
	FILE *fp;

	sp_histset_free(&set);
	sp_buf_adds(&text, header);
	sp_buf_add(&text, rows.p, rows.len);
	fp = fmemopen(text.p, text.len, "r");
	if (sp_reader_open_stream(&r, fp, "rows") < 0)
		sp_die(2, "%s", sp_buf_str(&r.err));
	sp_jobcols_resolve(&c, &r);
	while (sp_reader_next(&r) == 1) {
		sp_job_parse(&j, &c, &r);
		sp_histset_add(&set, sp_histset_find(&set, j.workload_key.p,
			       j.workload_key.n), &j);
		if (direct != NULL && sp_job_usable(&j)) {
			struct sp_run run;

			sp_run_of(&run, &j);
			sp_hist_add_run(direct, &run);
		}
	}
	sp_histset_finish(&set);
	sp_reader_close(&r);
	fclose(fp);
	sp_buf_free(&text);
	sp_buf_clear(&rows);
}

static inline const struct sp_hist *
hist(const char *key)
{
	for (size_t i = 0; i < set.n; i++)
		if (strcmp(set.v[i].key, key) == 0)
			return sp_histset_hist(&set, i);
	return NULL;
}

#endif
