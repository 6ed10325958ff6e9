/*
 * sp-backtest - the advice replayed against what happened next.
 *
 * Reads job records that carry workload_key (sp-group adds it).  For
 * every usable run with at least SP_BACKTEST_MIN_BEFORE usable runs of
 * its workload that ended before it was submitted, the --time and --mem
 * advice is computed from exactly those earlier runs, by the library
 * code sp-size uses, and judged on the run: out of sample, as a user who
 * followed it would have met it.  Two other policies are judged on the
 * same runs: the run's own request, and the largest figure seen times a
 * fixed margin.  One record per workload, flag and policy; --summary one
 * per flag, policy and evidence level.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_opt.h"
#include "sp_site.h"
#include "sp_backtest.h"

static const char usage_text[] =
	"usage: sp-backtest [--summary] [--time] [--mem]\n"
	"                   [--tsv | --plain | --json | --csv] [file ...]\n"
	"       sp-backtest --headline [--time] [--mem] [file ...]\n";

static const char help_text[] =
	"\n"
	"Replays the --time and --mem advice out of sample: each run judged "
	"on\n"
	"the advice its workload's earlier runs gave, beside the run's own\n"
	"request and the largest figure seen x 1.25 (time) or x 1.3 "
	"(memory).\n"
	"      --summary           one record per flag, policy and evidence "
	"level\n"
	"                          (runs before: 3, 4-5, 6-10, 11+, all)\n"
	"      --headline          one line: had the advice been followed "
	"since the\n"
	"                          first run judged, the kills avoided, runs "
	"cut off\n"
	"                          and memory not reserved\n"
	"      --time, --mem       only these flags (both by default)\n"
	"      --tsv, --plain, --json, --csv\n"
	"                          records with a header (the default),\n"
	"                          aligned text, JSON Lines, CSV\n";

enum { OPT_SUMMARY = 0x2000, OPT_TIME, OPT_MEM, OPT_HEADLINE };

struct options {
	int summary;
	int headline;
	int flags[SP_BT_FLAG_N];
	enum sp_format fmt;
};

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		{ "time", no_argument, NULL, OPT_TIME },
		{ "mem", no_argument, NULL, OPT_MEM },
		{ "headline", no_argument, NULL, OPT_HEADLINE },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text };
	int ch, any = 0;

	memset(o, 0, sizeof *o);
	while ((ch = sp_getopt(argc, argv, "", longopts, NULL,
			       &common)) != -1) {
		switch (ch) {
		case OPT_SUMMARY:
			o->summary = 1;
			break;
		case OPT_HEADLINE:
			o->headline = 1;
			break;
		case OPT_TIME:
		case OPT_MEM:
			o->flags[ch == OPT_TIME ? SP_BT_TIME : SP_BT_MEM] = 1;
			any = 1;
			break;
		}
	}
	if (!any)
		o->flags[SP_BT_TIME] = o->flags[SP_BT_MEM] = 1;
	o->fmt = common.fmt;
	if (o->headline && (o->summary || common.fmt_opt != NULL))
		sp_die(SP_EXIT_USAGE, "--headline is one line of text: no "
		       "--summary, --tsv, --plain, --json or --csv");
}

/* The columns the advice and the judgement read; the others unknown. */
static void
resolve(struct sp_jobcols *c, struct sp_reader *r)
{
	sp_reader_need(r, "workload_key", "sp-group");
	sp_reader_need(r, "state", "sp-fetch");
	sp_reader_need(r, "elapsed_s", "sp-fetch");
	sp_reader_need(r, "submit", "sp-fetch");
	sp_jobcols_only(c, r, "jobid", "jobid_raw", "array_job", "array_task",
	    "step", "attempt", "state", "submit", "start", "end", "open",
	    "elapsed_s", "timelimit_s", "req_cpus", "alloc_cpus", "ntasks",
	    "alloc_gpus", "nnodes", "mem_limit_node_b", "mem_limit_total_b",
	    "max_rss_b", "total_cpu_s", "cpu_time_s", "read_b", "write_b",
	    "gpu_util", "workload_key", NULL);
	sp_jobcols_want(r, c);
}

static void
read_runs(struct sp_reader *r, struct sp_bt_input *in)
{
	struct sp_jobcols c;
	struct sp_job j;

	resolve(&c, r);
	in->missing = sp_cols_missing(&c);
	while (sp_next_or_die(r)) {
		sp_job_parse(&j, &c, r);
		sp_bt_keep(in, &j);
	}
}

static const char *
records(long n)
{
	return n == 1 ? "record" : "records";
}

/* What was left out, each reason said once, with its count. */
static void
left_out(const struct sp_bt_input *in)
{
	if (in->open > 0)
		sp_warn("left out %ld open %s (never ended)", in->open,
			records(in->open));
	if (in->no_key > 0)
		sp_warn("left out %ld %s with no workload_key", in->no_key,
			records(in->no_key));
	if (in->no_elapsed > 0)
		sp_warn("left out %ld %s with no elapsed time (elapsed_s)",
			in->no_elapsed, records(in->no_elapsed));
	if (in->stateless > 0)
		sp_warn("left out %ld %s with no state", in->stateless,
			records(in->stateless));
	if (in->unknown_state > 0)
		sp_warn("left out %ld %s in a state the replay does not know "
			"(the first: '%s')", in->unknown_state,
			records(in->unknown_state), in->unknown_name);
	if (in->no_submit > 0)
		sp_warn("left out %ld %s with no submit time", in->no_submit,
			records(in->no_submit));
	if (in->no_end > 0)
		sp_warn("left out %ld %s with neither an end nor a start time",
			in->no_end, records(in->no_end));
	if (in->end_first > 0)
		sp_warn("left out %ld %s that end before they were submitted",
			in->end_first, records(in->end_first));
}

static void
header(struct sp_writer *w, int summary)
{
	static const char *const tail[] = { "judged", "cut_off",
		"killed_again", "given_room", "no_figure", NULL };

	if (summary) {
		sp_writer_column(w, "flag");
		sp_writer_column(w, "policy");
		sp_writer_column_kind(w, "runs_before", SP_KIND_TEXT);
		sp_writer_column_kind(w, "workloads", SP_KIND_NUMBER);
	} else {
		sp_writer_column(w, "workload_key");
		sp_writer_column(w, "flag");
		sp_writer_column(w, "policy");
		sp_writer_column_kind(w, "runs_before", SP_KIND_NUMBER);
	}
	for (const char *const *c = tail; *c; c++)
		sp_writer_column_kind(w, *c, SP_KIND_NUMBER);
	sp_writer_column_kind(w, "overask", SP_KIND_NUMBER);
	sp_writer_column_kind(w, "unused_gib_h", SP_KIND_HOURS);
	sp_writer_header(w);
}

static void
summary(struct sp_bt_out *out)
{
	for (int f = 0; f < SP_BT_FLAG_N; f++) {
		if (!out->flags[f])
			continue;
		for (int p = 0; p < SP_BT_POLICY_N; p++)
			for (int l = 0; l < SP_BT_LEVEL_N; l++) {
				sp_writer_str(out->w,
					      sp_bt_flag_text((enum sp_bt_flag)f));
				sp_writer_str(out->w,
					sp_bt_policy_name((enum sp_bt_policy)p));
				sp_writer_str(out->w, sp_bt_level_name(l));
				sp_writer_int(out->w,
					      out->level[f][p][l].workloads);
				sp_bt_write_tally(out->w, &out->level[f][p][l],
					       (enum sp_bt_flag)f);
				sp_writer_end(out->w);
			}
	}
}

int
main(int argc, char **argv)
{
	struct options o;
	struct sp_reader r;
	struct sp_writer w;
	struct sp_site s;
	struct sp_bt_input in;
	static struct sp_bt_out out;

	sp_setprog(argv[0]);
	sp_stdout_init();
	parse_options(argc, argv, &o);
	memset(&in, 0, sizeof in);
	sp_open_or_die(&r, argv + optind, (size_t)(argc - optind));
	read_runs(&r, &in);
	sp_site_load(&s);
	sp_site_warn(&s);
	out.summary = o.summary || o.headline;
	memcpy(out.flags, o.flags, sizeof out.flags);
	if (o.headline) {
		struct sp_bt_headline h;
		struct sp_buf b = { 0 };

		sp_bt_replay(&in, &s, &out);
		sp_bt_headline_of(&out, &h);
		sp_bt_headline_text(&b, &h);
		printf("%s\n", sp_buf_str(&b));
		sp_buf_free(&b);
	} else {
		sp_writer_init(&w, stdout, o.fmt);
		out.w = &w;
		header(&w, o.summary);
		sp_bt_replay(&in, &s, &out);
		if (o.summary)
			summary(&out);
		sp_writer_finish(&w);
	}
	left_out(&in);
	sp_bt_input_free(&in);
	sp_site_free(&s);
	sp_reader_close(&r);
	sp_stdout_close();
	return SP_EXIT_OK;
}
