/*
 * workloads.c - the workloads in the rollup's order (most compute
 * first), each with its verdict's severity as sp-group --rollup wrote it
 * (sp_wl_verdict: the most severe of its findings across runs, ok, or
 * unknown); from the findings only for a rollup without the column.
 */
#include <math.h>
#include <string.h>

#include "report.h"

static const char *const table_cols[] = { "workload", "user", "partition",
	"runs", "failed", "noop", "gpu_h", "core_h", "share", "severity",
	NULL };

/* The rank of a row's severity: the rollup's word, else the findings'. */
static int
rank_of(const struct sp_reader *r, int at, int key,
	const struct severities *sev)
{
	if (at < 0)
		return severity_of(sev, r->f[key]);
	if (r->f[at].n == 0)
		return -1;	/* unknown: shown empty */
	return severity_rank(r->f[at]);
}

/* Every rollup record, its severity the verdict's. */
static int
records(struct sp_reader *r, const struct severities *sev,
	const struct opts *o)
{
	struct sp_writer w;
	int key = sp_reader_need(r, "workload_key", "sp-group");
	int at = sp_reader_col(r, "severity"), worst = 0;

	sp_writer_init(&w, stdout, o->fmt);
	sp_writer_columns_from(&w, r);
	if (at < 0)
		sp_writer_column(&w, "severity");
	sp_writer_header(&w);
	while (sp_next_or_die(r)) {
		int rank = rank_of(r, at, key, sev);
		const char *word = severity_word(rank);

		if (rank > worst)
			worst = rank;
		for (size_t i = 0; i < r->ncols; i++)
			if ((int)i == at && rank < 0)
				sp_writer_empty(&w);	/* unknown */
			else if ((int)i == at)
				sp_writer_str(&w, word);
			else
				sp_writer_slice(&w, r->f[i]);
		if (at < 0)
			sp_writer_str(&w, word);
		sp_writer_end(&w);
	}
	sp_writer_finish(&w);
	return worst;
}

/* The first --top workloads as a table, the rest summed in one line;
 * returns the highest severity shown. */
static int
table(struct sp_reader *r, const struct severities *sev,
      const struct opts *o)
{
	struct sp_writer w = { 0 };
	size_t top = top_of(o, SP_REPORT_WORKLOADS), shown = 0, more = 0;
	long more_runs = 0;
	double more_share = 0;
	int key = sp_reader_need(r, "workload_key", "sp-group");
	int at = sp_reader_col(r, "severity");
	int c[9], worst = 0;
	static const char *const from[] = { "label", "user", "partition",
		"runs", "failed", "noop", "gpu_h", "core_h", "share" };

	for (int i = 0; i < 9; i++)
		c[i] = sp_reader_need(r, from[i], "sp-group --rollup");
	while (sp_next_or_die(r)) {
		double share = field_num(r->f[c[8]]);

		if (top == 0 || shown < top) {
			/* The header waits for a row: none has a line. */
			if (shown == 0)
				table_start(&w, o, table_cols);
			int rank = rank_of(r, at, key, sev);

			for (int i = 0; i < 9; i++)
				sp_writer_slice(&w, r->f[c[i]]);
			if (rank < 0)
				sp_writer_empty(&w);	/* n/a */
			else
				sp_writer_str(&w, severity_word(rank));
			if (rank > worst)
				worst = rank;
			sp_writer_end(&w);
			shown++;
			continue;
		}
		more++;
		more_runs += (long)field_num(r->f[c[3]]);
		more_share += isnan(share) ? 0 : share;
	}
	if (shown == 0) {
		printf("None with a run that ended.\n");
		return worst;
	}
	sp_writer_finish(&w);
	if (more > 0) {
		struct sp_buf b = { 0 };

		sp_fmt_percent(&b, more_share);
		printf("%zu more %s (%ld %s) holding %s of the compute\n",
		       more, more == 1 ? "workload" : "workloads", more_runs,
		       more_runs == 1 ? "run" : "runs", sp_buf_str(&b));
		sp_buf_free(&b);
	}
	return worst;
}

int
part_workloads(const struct opts *o)
{
	struct severities sev;
	struct sp_reader r;
	int status;

	severities_load(&sev, o);
	input_open(&r, o, IN_ROLLUP);
	/* A critical finding among the workloads shown: status 1. */
	if (o->fmt == SP_FMT_PLAIN) {
		status = table(&r, &sev, o) >= 3 ? SP_EXIT_FAIL : SP_EXIT_OK;
	} else {
		status = records(&r, &sev, o) >= 3 ? SP_EXIT_FAIL :
		    SP_EXIT_OK;
	}
	sp_reader_close(&r);
	severities_free(&sev);
	return status;
}
