/*
 * sp-show - one job's post-mortem: the record drawn against its own
 * limits, every field it holds, the tail of its logs, and what went
 * wrong with what to do next.  With --json every value of the job; with
 * --findings the finding records of every job in the input.
 *
 * The input is read twice (through a spool, so standard input works):
 * once to learn the history of every node, once to show the jobs
 * (src/sp-show/input.c).
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp-show/show.h"
#include "sp_opt.h"
#include "sp_pager.h"
#include "sp_postmortem.h"
#include "sp_live.h"
#include "sp_rules_live.h"

static const char usage_text[] =
"usage: sp-show [--findings | --table] [--plain | --json | --tsv | --csv]\n"
"               [--all] [--ascii] [--no-color] [--no-pager] [--no-logs]\n"
"               [--log-dir dir] [--width n] [-j jobid[,jobid ...]]\n"
"               [--jobs-from file] [file ...]\n";

static const char help_text[] =
"\n"
"One job's post-mortem from job records (sp-fetch), for every job named\n"
"with -j, or every job of the input; an array named by its id is shown\n"
"as one: its tasks' table and what they have in common.\n"
"  -j, --job ids           only these jobs: 123, 123_4, 123_[1-3,7], 123+1,\n"
"                          lists\n"
"      --jobs-from file    only the jobs a file lists (as -j, any number a\n"
"                          line): more than a command line holds\n"
"      --findings          finding records of every job, as sp-size\n"
"                          --findings\n"
"      --table             one row a job: elapsed, time, CPU, memory, GPU\n"
"                          use\n"
"      --plain             read by people: the post-mortem, an aligned\n"
"                          table\n"
"      --json              JSON: one object a job (every value) or a row\n"
"      --tsv, --csv        records (--findings, --table); TSV into a pipe\n"
"      --all               also every field in words, the steps, 20 log\n"
"                          lines\n"
"      --no-logs           look for no log file\n"
"      --log-dir dir       look for logs in dir first (repeatable)\n"
"      --width n           lay out for n columns (at least 40)\n"
"      --no-pager          never page, even on a terminal\n"
"      --ascii             ASCII only\n"
"      --no-color          no colour, even on a terminal\n";

enum {
	OPT_FINDINGS = 0x2000, OPT_TABLE, OPT_WIDTH, OPT_ALL, OPT_NO_PAGER,
	OPT_JOBS_FROM
};

/* ------------------------------------------------------------------ */
/* Options                                                            */

static void
add_ids(struct opts *o, const char *list)
{
	struct sp_buf err = { 0 };

	if (sp_jobspec_add(&o->ids, list, &err) != 0)
		sp_die(SP_EXIT_USAGE, "-j: %s", sp_buf_str(&err));
}

/* Ids beyond what one argument may hold (128 KiB on Linux): a file of
 * lists, any number a line, read as one list (one index built). */
static void
add_ids_from(struct opts *o, const char *path)
{
	FILE *fp = fopen(path, "r");
	struct sp_buf list = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (fp == NULL)
		sp_die(SP_EXIT_USAGE, "--jobs-from: %s: %s", path,
		       strerror(errno));
	while ((n = getline(&line, &cap, fp)) > 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		if (n == 0)
			continue;
		if (list.len > 0)
			sp_buf_addc(&list, ',');
		sp_buf_add(&list, line, (size_t)n);
	}
	if (ferror(fp))
		sp_die(SP_EXIT_USAGE, "--jobs-from: %s: %s", path,
		       strerror(errno));
	free(line);
	fclose(fp);
	/* Nothing listed must not read as nothing asked: every job. */
	if (list.len == 0)
		sp_die(SP_EXIT_USAGE, "--jobs-from: %s lists no job id", path);
	add_ids(o, sp_buf_str(&list));
	sp_buf_free(&list);
}

static void
set_mode(struct opts *o, enum mode m)
{
	if (o->mode != MODE_VIEW && o->mode != m)
		sp_die(SP_EXIT_USAGE, "--findings and --table are different "
		       "outputs: choose one");
	o->mode = m;
}

/* The format each output takes when none is asked for, and the ones it
 * cannot take. */
static void
settle_format(struct opts *o)
{
	if (o->mode == MODE_VIEW && o->fmt_set &&
	    (o->fmt == SP_FMT_TSV || o->fmt == SP_FMT_CSV))
		sp_die(SP_EXIT_USAGE, "--tsv and --csv are for --findings and "
		       "--table: the post-mortem is --plain or --json");
	if (o->fmt_set)
		return;
	if (o->mode == MODE_VIEW)
		o->fmt = SP_FMT_PLAIN;
	else if (o->mode == MODE_TABLE && isatty(STDOUT_FILENO))
		o->fmt = SP_FMT_PLAIN;	/* aligned on a terminal */
	else
		o->fmt = SP_FMT_TSV;
}

static int
parse_options(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "job", required_argument, NULL, 'j' },
		{ "jobs-from", required_argument, NULL, OPT_JOBS_FROM },
		{ "findings", no_argument, NULL, OPT_FINDINGS },
		{ "table", no_argument, NULL, OPT_TABLE },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "no-pager", no_argument, NULL, OPT_NO_PAGER },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text,
				  .fmt = SP_FMT_PLAIN, .logs = &o->logs,
				  .term = &o->term };
	int c;
	long v;

	while ((c = sp_getopt(argc, argv, "j:", longopts, NULL,
			      &common)) != -1) {
		switch (c) {
		case 'j':
			add_ids(o, optarg);
			break;
		case OPT_JOBS_FROM:
			add_ids_from(o, optarg);
			break;
		case OPT_FINDINGS:
			set_mode(o, MODE_FINDINGS);
			break;
		case OPT_TABLE:
			set_mode(o, MODE_TABLE);
			break;
		case OPT_ALL:
			o->all = 1;
			break;
		case OPT_NO_PAGER:
			o->no_pager = 1;
			break;
		case OPT_WIDTH:
			if (sp_strtol_full(optarg, &v) != 0 || v <= 0 ||
			    v > 10000)
				sp_die(SP_EXIT_USAGE, "--width: not a width in "
				       "columns: '%s'", optarg);
			if (v < SP_SHOW_MIN_WIDTH)
				sp_die(SP_EXIT_USAGE, "--width: at least %d "
				       "columns, not %ld", SP_SHOW_MIN_WIDTH, v);
			o->width = (int)v;
			break;
		}
	}
	o->fmt = common.fmt;
	o->fmt_set = common.fmt_opt != NULL;
	settle_format(o);
	o->id_seen = sp_xcalloc(o->ids.n ? o->ids.n : 1, 1);
	return optind;
}

/* ------------------------------------------------------------------ */
/* One job, start to end                                              */

/* A rule between two jobs' post-mortems, then the next one. */
static void
view_job(struct run *R, const struct shown *s)
{
	struct sp_postmortem pm;
	struct sp_buf *b = &R->out;

	separate(R, b);
	memset(&pm, 0, sizeof pm);
	pm.job = &s->h->alloc.j;
	pm.steps = s->steps;
	pm.nsteps = s->h->nsteps;
	pm.calc = s->calc;
	pm.logs = s->logs;
	pm.findings = s->findings;
	pm.cols = R->r.cols;
	pm.fields = s->h->alloc.f;
	pm.nfields = s->h->alloc.nf;
	pm.all = R->o->all;
	sp_postmortem_draw(&R->term, &pm, b);
}

/* One wanted job: worked out (only its figures for --table), shown. */
static void
show(struct run *R, struct held *h)
{
	struct sp_job *steps = NULL;
	struct sp_analysis a;
	struct shown s;
	int worst;

	if (h->nsteps > 0) {
		steps = sp_xcalloc(h->nsteps, sizeof *steps);
		for (size_t i = 0; i < h->nsteps; i++)
			steps[i] = h->steps[i].j;
	}
	if (R->o->mode == MODE_TABLE) {
		sp_postmortem_analyse(&a, &h->alloc.j, steps, h->nsteps,
				      &R->site, NULL, NULL, NULL, 1);
	} else {
		/* A running job's figures of the moment, when read. */
		struct sp_live l;
		int live = sp_live_from_fields(&l, R->r.cols, h->alloc.f,
					       h->alloc.nf);

		sp_postmortem_analyse_live(&a, &h->alloc.j, steps, h->nsteps,
					   &R->site,
					   R->o->logs.off ? NULL : &R->logctx,
					   R->history,
					   R->have_workloads ?
					   &R->memo : NULL,
					   live ? &l : NULL);
	}
	s.h = h;
	s.steps = steps;
	s.calc = &a.calc;
	s.logs = &a.logs;
	s.findings = &a.findings;
	sp_buf_clear(&R->out);
	if (array_member(R, h))
		array_add(R, &s);
	else if (R->o->mode == MODE_TABLE)
		jobtable_row(R, &s);
	else if (R->o->mode == MODE_FINDINGS)
		findings_rows(R, &s);
	else if (R->fmt == SP_FMT_JSON)
		json_job(R, &s);
	else
		view_job(R, &s);
	if (R->out.len > 0) {
		fwrite(R->out.p, 1, R->out.len, stdout);
		R->shown++;
	}
	worst = sp_findings_worst(&a.findings);
	if (worst > R->worst)
		R->worst = worst;
	sp_analysis_free(&a);
	free(steps);
}

static void
free_opts(struct opts *o)
{
	sp_jobspec_free(&o->ids);
	free(o->id_seen);
	free(o->logs.dirs);
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct run R;
	char **files, *missing;
	size_t nfiles;
	int first, status;

	setlocale(LC_CTYPE, "");
	sp_setprog(argv[0]);
	sp_stdout_init();
	memset(&o, 0, sizeof o);
	first = parse_options(&o, argc, argv);

	memset(&R, 0, sizeof R);
	R.o = &o;
	R.worst = -1;
	sp_term_setup(&R.term, STDOUT_FILENO, o.width, o.term.no_color,
		      o.term.ascii);
	sp_site_load(&R.site);
	sp_site_warn(&R.site);
	sp_logctx_init(&R.logctx, 1);
	for (size_t i = 0; i < o.logs.ndirs; i++)
		sp_logctx_add_dir(&R.logctx, o.logs.dirs[i]);
	R.history = sp_node_history_new();
	R.nodes = sp_nodes_new(SP_METRIC_HANG);

	files = argv + first;
	nfiles = (size_t)(argc - first);
	input_first(&R, files, nfiles);
	/* The input is sound: what is shown from here may be paged. */
	sp_pager_start(o.no_pager);
	R.fmt = o.fmt;
	if (o.mode == MODE_FINDINGS)
		findings_header(&R);
	else if (o.mode == MODE_TABLE)
		jobtable_begin(&R);
	input_second(&R, show);
	if (o.mode == MODE_FINDINGS)
		sp_writer_finish(&R.w);
	else if (o.mode == MODE_TABLE)
		jobtable_end(&R);
	array_draw_all(&R);

	status = R.worst == SP_SEV_CRITICAL ? SP_EXIT_FAIL : SP_EXIT_OK;
	sp_node_history_free(R.history);
	sp_wl_memo_free(&R.memo);
	sp_nodes_free(R.nodes);
	sp_histset_free(&R.workloads);
	sp_bt_risks_free(&R.risks);
	sp_logctx_free(&R.logctx);
	sp_site_free(&R.site);
	sp_buf_free(&R.out);
	missing = input_missing_ids(&o);
	free_opts(&o);
	sp_pager_end();
	if (missing != NULL) {
		sp_warn("no job %s in the input", missing);
		free(missing);
		return SP_EXIT_USAGE;
	}
	return status;
}

