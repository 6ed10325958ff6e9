/*
 * sp-report - the parts of slurmpast's report, composed from the records
 * of the other stages.
 *
 * Each part reads the records it needs, each named by its role, and
 * decides what a reader sees first: which figure leads the headline, how
 * severe a workload is (its most severe finding across runs), which
 * findings, problem jobs and advice come first and how many fit, and how
 * a job's own finding joins its row.  --plain lays the part out as text;
 * the default is its records.  "screen" puts parts together for a
 * terminal.  The front door runs one part a section; any part can be run
 * by hand over saved records.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>

#include "sp-report/report.h"
#include "sp_opt.h"

static const char usage_text[] =
"usage: sp-report headline --rollup file --hang-summary file\n"
"                 [--fetch-stats file] [--shown file --view text] [--source text]\n"
"                 [--sources file]\n"
"                 [--tsv | --plain | --json | --csv]\n"
"       sp-report workloads --rollup file --findings file [--top n]\n"
"                 [--width n] [--tsv | --plain | --json | --csv]\n"
"       sp-report findings --rollup file --findings file [--top n] [--more text]\n"
"                 [--tsv | --plain | --json | --csv]\n"
"       sp-report problems --hangs file --failed file [--failed-only]\n"
"                 [--ids [--keys-to file] | --keys | --job-findings file]\n"
"                 [--top n] [--more text] [--width n]\n"
"                 [--tsv | --plain | --json | --csv]\n"
"       sp-report advice --rollup file --advice file [--all] [--top n]\n"
"                 [--more text]\n"
"       sp-report exclude --exclude file [--all]\n"
"       sp-report sources --sources file [--top n] [--width n]\n"
"                 [--tsv | --plain | --json | --csv]\n"
"       sp-report running --running file --rollup file\n"
"                 [--tsv | --plain | --json | --csv]\n"
"       sp-report screen [--width n] [--color] [--no-pager] file ...\n";

static const char help_text[] =
"\n"
"Parts:\n"
"  headline     what leads: idle GPU-hours, failures, or nothing flagged;\n"
"               then the window and what a view shows\n"
"  workloads    the workloads by compute, each as severe as its findings\n"
"  findings     the findings across runs, most severe and telling first\n"
"  problems     the jobs that failed or computed nothing, newest first,\n"
"               each with why\n"
"  advice       the changes to ask for, largest first (--all: every\n"
"               verdict, workload by workload)\n"
"  exclude      the nodes to leave out, and for which workload\n"
"  sources      the workloads of each session or log that submitted them\n"
"  running      the jobs running now, each so far, then what its\n"
"               workload's history says it will do\n"
"  screen       parts put together for a terminal: titles, colour,\n"
"               lines wrapped at words to the width\n"
"Inputs (records of the stages):\n"
"      --rollup file         sp-group --rollup\n"
"      --hang-summary file   sp-hang --summary\n"
"      --findings file       sp-size --findings\n"
"      --advice file         sp-size\n"
"      --hangs file          sp-hang, over the records shown\n"
"      --failed file         sp-select --failed, over the records shown\n"
"      --job-findings file   sp-show --findings, over the problem jobs\n"
"      --exclude file        sp-nodes --exclude\n"
"      --fetch-stats file    sp-fetch --stats: what could not be read\n"
"      --sources file        sp-group --rollup --by source,source_dir over\n"
"                            sp-attr's records (headline: their split)\n"
"      --running file        sp-size --running\n"
"Options:\n"
"      --top n               how many to show (0: all); each part has its own\n"
"      --more text           what to run to see the rest, said after them\n"
"      --shown file          the records a view shows (headline)\n"
"      --view text           the view, in words (headline)\n"
"      --source text         where the records came from (headline)\n"
"      --failed-only         only failed jobs are problems (problems)\n"
"      --ids                 the job ids of the problems listed, for sp-show\n"
"      --keys                their workloads, for sp-select --workloads\n"
"      --keys-to file        with --ids: their workloads too, into file\n"
"      --all                 every verdict (advice); why none (exclude)\n"
"      --width n             the width to lay out for\n"
"      --color               colour the screen's titles and severities\n"
"      --no-pager            the screen never through a pager\n"
"      --tsv, --plain, --json, --csv   records, or text (--plain)\n";

enum {
	OPT_TOP = 0x2000, OPT_MORE, OPT_VIEW, OPT_SOURCE,
	OPT_FAILED_ONLY, OPT_IDS, OPT_KEYS, OPT_KEYS_TO, OPT_ALL, OPT_WIDTH,
	OPT_COLOR, OPT_NO_PAGER,
	OPT_ROLE	/* + enum role */
};

static const struct {
	const char *name;
	int (*run)(const struct opts *);
} parts[] = {
	{ "headline", part_headline },
	{ "workloads", part_workloads },
	{ "findings", part_findings },
	{ "problems", part_problems },
	{ "advice", part_advice },
	{ "exclude", part_exclude },
	{ "sources", part_sources },
	{ "running", part_running },
	{ "screen", part_screen },
};

static long
count_value(const char *opt, const char *arg, long min)
{
	long v;

	if (sp_strtol_full(arg, &v) != 0 || v < min || v > 1000000000L)
		sp_die(SP_EXIT_USAGE, "%s: '%s' is not a count (%ld or more)",
		       opt, arg, min);
	return v;
}

static void
parse_options(int argc, char **argv, struct opts *o)
{
	static struct option longopts[] = {
		{ "rollup", required_argument, NULL, OPT_ROLE + IN_ROLLUP },
		{ "hang-summary", required_argument, NULL,
		  OPT_ROLE + IN_HANGSUM },
		{ "findings", required_argument, NULL,
		  OPT_ROLE + IN_FINDINGS },
		{ "advice", required_argument, NULL, OPT_ROLE + IN_ADVICE },
		{ "hangs", required_argument, NULL, OPT_ROLE + IN_HANGS },
		{ "failed", required_argument, NULL, OPT_ROLE + IN_FAILED },
		{ "job-findings", required_argument, NULL,
		  OPT_ROLE + IN_JOBFINDINGS },
		{ "exclude", required_argument, NULL, OPT_ROLE + IN_EXCLUDE },
		{ "fetch-stats", required_argument, NULL,
		  OPT_ROLE + IN_FETCHSTATS },
		{ "sources", required_argument, NULL, OPT_ROLE + IN_SOURCES },
		{ "running", required_argument, NULL, OPT_ROLE + IN_RUNNING },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "more", required_argument, NULL, OPT_MORE },
		{ "shown", required_argument, NULL, OPT_ROLE + IN_SHOWN },
		{ "view", required_argument, NULL, OPT_VIEW },
		{ "source", required_argument, NULL, OPT_SOURCE },
		{ "failed-only", no_argument, NULL, OPT_FAILED_ONLY },
		{ "ids", no_argument, NULL, OPT_IDS },
		{ "keys", no_argument, NULL, OPT_KEYS },
		{ "keys-to", required_argument, NULL, OPT_KEYS_TO },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "color", no_argument, NULL, OPT_COLOR },
		{ "no-pager", no_argument, NULL, OPT_NO_PAGER },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text };
	int ch;

	memset(o, 0, sizeof *o);
	o->top = -1;
	while ((ch = sp_getopt(argc, argv, "", longopts, NULL,
			       &common)) != -1) {
		if (ch >= OPT_ROLE && ch < OPT_ROLE + IN_N) {
			o->in[ch - OPT_ROLE] = optarg;
			continue;
		}
		switch (ch) {
		case OPT_TOP:
			o->top = count_value("--top", optarg, 0);
			break;
		case OPT_MORE:
			o->more = optarg;
			break;
		case OPT_VIEW:
			o->view = optarg;
			break;
		case OPT_SOURCE:
			o->source = optarg;
			break;
		case OPT_FAILED_ONLY:
			o->failed_only = 1;
			break;
		case OPT_IDS:
			o->ids = 1;
			break;
		case OPT_KEYS:
			o->keys = 1;
			break;
		case OPT_KEYS_TO:
			o->keys_to = optarg;
			break;
		case OPT_ALL:
			o->all = 1;
			break;
		case OPT_WIDTH:
			o->width = (size_t)count_value("--width", optarg,
						       SP_SHOW_MIN_WIDTH);
			break;
		case OPT_COLOR:
			o->color = 1;
			break;
		case OPT_NO_PAGER:
			o->no_pager = 1;
			break;
		}
	}
	o->fmt = common.fmt;
	o->fmt_given = common.fmt_opt != NULL;
	if (o->ids + o->keys + (o->in[IN_JOBFINDINGS] != NULL) > 1)
		sp_die(SP_EXIT_USAGE, "--ids, --keys and --job-findings are "
		       "different outputs: choose one");
	if (o->keys_to != NULL && !o->ids)
		sp_die(SP_EXIT_USAGE, "--keys-to writes the workloads beside "
		       "--ids: add --ids");
	o->files = (const char **)argv + optind;
	o->nfiles = (size_t)(argc - optind);
}

int
main(int argc, char **argv)
{
	struct opts o;
	const char *part;
	int status;

	sp_setprog(argv[0]);
	sp_stdout_init();
	/* The screen and the ellipsis of a cut cell draw in the locale's
	 * characters where it has them. */
	setlocale(LC_CTYPE, "");
	if (argc < 2 || argv[1][0] == '-') {
		parse_options(argc, argv, &o);
		sp_die(SP_EXIT_USAGE, "no part named: headline, workloads, "
		       "findings, problems, advice, exclude, sources or "
		       "screen");
	}
	part = argv[1];
	parse_options(argc - 1, argv + 1, &o);
	o.part = part;
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		if (strcmp(parts[i].name, part) != 0)
			continue;
		if (strcmp(part, "screen") != 0 && o.nfiles > 0)
			sp_die(SP_EXIT_USAGE, "%s reads its records from its "
			       "options, not '%s'", part, o.files[0]);
		/* The screen may be paged: it closes its own output. */
		status = parts[i].run(&o);
		if (strcmp(part, "screen") != 0)
			sp_stdout_close();
		return status;
	}
	sp_die(SP_EXIT_USAGE, "unknown part '%s': headline, workloads, "
	       "findings, problems, advice, exclude, sources or screen",
	       part);
}
