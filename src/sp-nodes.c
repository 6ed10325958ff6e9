/*
 * sp-nodes - which machines fail one workload.
 *
 * Reads job records that carry workload_key (sp-group), gives every node
 * of each record's expanded NodeList one placement, and writes one node
 * record per node of one workload: its rate, Wilson interval, the rate of
 * every other placement of that workload, the doubled one-sided Fisher p,
 * and a verdict that survives Benjamini-Hochberg across the tested rows.
 * With --exclude it prints the "#SBATCH --exclude=" line instead.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_opt.h"
#include "sp_nodes.h"
#include "sp_pager.h"
#include "sp_term.h"

static const char usage_text[] =
	"usage: sp-nodes [--metric hang|failure] "
	"[--workload KEY | --all-workloads]\n"
	"                [--exclude] [--tsv | --plain | --json | --csv] "
	"[--no-pager]\n"
	"                [file ...]\n";

static const char help_text[] =
	"\n"
	"One record per node of one workload: its rate, interval and verdict:\n"
	"      --metric m          what counts as bad: hang (the default) or\n"
	"                          failure\n"
	"      --workload KEY      the table of this workload\n"
	"      --all-workloads     every workload's placements pooled\n"
	"      --exclude           the #SBATCH --exclude= line instead\n"
	SP_PAGED_FORMATS_HELP;

struct options {
	enum sp_node_metric metric;
	const char *workload;
	int all;
	int exclude;
	int no_pager;
	enum sp_format fmt;
	char **files;
	size_t nfiles;
};

/* What the table is about, for the label columns and the notes. */
struct scope {
	long wi;		/* -1: every workload pooled */
	const char *user;
	const char *workload;
	const char *key;
	size_t others;		/* workloads not shown */
	size_t nworkloads;
};

enum { OPT_METRIC = 0x2000, OPT_WORKLOAD, OPT_ALL, OPT_EXCLUDE };

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "metric", required_argument, NULL, OPT_METRIC },
		{ "workload", required_argument, NULL, OPT_WORKLOAD },
		{ "all-workloads", no_argument, NULL, OPT_ALL },
		{ "exclude", no_argument, NULL, OPT_EXCLUDE },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text };
	const char *metric = "hang";
	int c;

	memset(o, 0, sizeof *o);
	common.no_pager = &o->no_pager;
	while ((c = sp_getopt(argc, argv, "", longopts, NULL,
			      &common)) != -1) {
		switch (c) {
		case OPT_METRIC:
			metric = optarg;
			break;
		case OPT_WORKLOAD:
			o->workload = optarg;
			break;
		case OPT_ALL:
			o->all = 1;
			break;
		case OPT_EXCLUDE:
			o->exclude = 1;
			break;
		}
	}
	o->fmt = common.fmt;
	/* --plain asked for is text as it comes, as slurmpast --plain:
	 * no pager (one is for the terminal's default). */
	if (common.fmt_opt != NULL)
		o->no_pager = 1;
	if (strcmp(metric, "hang") == 0)
		o->metric = SP_METRIC_HANG;
	else if (strcmp(metric, "failure") == 0)
		o->metric = SP_METRIC_FAILURE;
	else
		sp_die(SP_EXIT_USAGE, "--metric is hang or failure, not '%s'",
		       metric);
	if (o->workload && o->all)
		sp_die(SP_EXIT_USAGE, "--workload and --all-workloads "
		       "exclude each other");
	o->files = argv + optind;
	o->nfiles = (size_t)(argc - optind);
}

/*
 * The columns a placement is judged by (sp_nodes_add, sp_node_outcome
 * and the sp_job predicates they call); every other one stays unknown,
 * so no time goes to numbers nothing reads.
 */
static void
resolve(struct sp_jobcols *c, const struct sp_reader *r)
{
	sp_jobcols_only(c, r, "step", "open", "end", "state",
	    "elapsed_s", "total_cpu_s", "read_b", "write_b",
	    "alloc_gpus", "nodelist", "name", "user", "partition",
	    "workload", "workload_key", NULL);
}

static void
read_placements(struct sp_nodes *t, const struct options *o)
{
	struct sp_reader r;
	struct sp_jobcols c;
	struct sp_job j;

	sp_open_or_die(&r, o->files, o->nfiles);
	sp_jobcols_need(&r, "sp-fetch", "state", "elapsed_s", "total_cpu_s",
			"nodelist", NULL);
	sp_jobcols_need(&r, "sp-group", "workload_key", NULL);
	resolve(&c, &r);
	sp_jobcols_want(&r, &c);
	while (sp_next_or_die(&r)) {
		long cut = sp_nodes_cut(t);

		sp_job_parse(&j, &c, &r);
		sp_nodes_add(t, &j);
		/* Never silent; named once, then counted. */
		if (cut == 0 && sp_nodes_cut(t) == 1)
			sp_warn("%s:%lu: node list past %d names: only the "
				"names that fit were counted", r.name, r.line,
				SP_HOSTLIST_MAX);
	}
	if (sp_nodes_cut(t) > 1)
		sp_warn("%ld node lists in all were cut the same way",
			sp_nodes_cut(t));
	sp_reader_close(&r);
}

static void
choose_scope(const struct sp_nodes *t, const struct options *o,
	     struct scope *s)
{
	size_t i, n = sp_nodes_nworkloads(t);
	const struct sp_nodes_workload *w;

	memset(s, 0, sizeof *s);
	s->nworkloads = n;
	if (o->workload) {
		s->wi = sp_nodes_find(t, o->workload, strlen(o->workload));
		if (s->wi < 0)
			sp_die(SP_EXIT_USAGE, "no placements of workload "
			       "'%s' in the input (under --metric %s)",
			       o->workload, sp_node_metric_name(o->metric));
	} else if (o->all) {
		s->wi = -1;
	} else {
		s->wi = sp_nodes_dominant(t);
	}
	if (s->wi >= 0) {
		w = sp_nodes_workload(t, (size_t)s->wi);
		s->user = w->user;
		s->workload = w->workload;
		s->key = w->key;
		s->others = n - 1;
		return;
	}
	/* Pooled: one user if there is one, "*" standing for all. */
	s->workload = s->key = "*";
	s->user = n ? sp_nodes_workload(t, 0)->user : "*";
	for (i = 1; i < n; i++)
		if (strcmp(sp_nodes_workload(t, i)->user, s->user) != 0)
			s->user = "*";
}

static const char *
bad_words(enum sp_node_metric m)
{
	return m == SP_METRIC_FAILURE ? "failed" : "computed nothing";
}

/* The hold or verdict of a row, in words. */
static void
row_hold_note(struct sp_buf *b, const struct sp_node_row *row,
	      const struct sp_node_table *tab)
{
	const char *rows = tab->tested == 1 ? "row" : "rows";

	switch (row->s.hold) {
	case SP_HOLD_THIN:
		sp_buf_printf(b, "%ld placement%s; %d needed for a test",
			      row->s.trials, row->s.trials == 1 ? "" : "s",
			      SP_NODES_MIN_TRIALS);
		return;
	case SP_HOLD_ALONE:
		sp_buf_adds(b, "no other node ran this workload");
		return;
	case SP_HOLD_CORRECTION:
		sp_buf_printf(b, "held back: the interval clears the "
			      "comparison, but p does not survive the "
			      "correction for %zu tested %s", tab->tested, rows);
		return;
	case SP_HOLD_INTERVAL:
		sp_buf_printf(b, "held back: p survives the correction for "
			      "%zu tested %s, but the interval reaches the "
			      "comparison", tab->tested, rows);
		return;
	case SP_HOLD_NONE:
		break;
	}
	if (row->s.verdict == SP_VERDICT_INCONCLUSIVE)
		sp_buf_adds(b, "within chance of the comparison");
	else
		sp_buf_printf(b, "p survives the correction for %zu tested "
			      "%s and the interval clears the comparison",
			      tab->tested, rows);
}

/* Why a row stands as it does, in words. */
static void
row_note(struct sp_buf *b, const struct sp_node_row *row,
	 const struct sp_node_table *tab)
{
	sp_buf_clear(b);
	if (row->s.trials == 0 && row->unjudged > 0) {
		sp_buf_printf(b, "%ld placement%s, none judged: no CPU time "
			      "recorded", row->unjudged,
			      row->unjudged == 1 ? "" : "s");
		return;
	}
	row_hold_note(b, row, tab);
	if (row->unjudged > 0)
		sp_buf_printf(b, "; %ld more not judged (no CPU time "
			      "recorded)", row->unjudged);
}

static const char *const columns[] = { "user", "workload", "workload_key",
	"node", "trials", "bad", "rate", "ci_low", "ci_high", "comparison",
	"p", "verdict", "bad_gpu_h", "note", NULL };

/*
 * The table exists only once the whole input is read, so the header
 * waits too: an input error never leaves a header behind it.  On screen
 * the workload is named once, above the table, not in every row.
 */
static void
start_rows(struct sp_writer *w, const struct options *o)
{
	/* A row a person reads on one line: the notes under the table say
	 * why; p, the hours and each row's note are in the records. */
	static const char *const plain[] = { "node", "trials", "bad", "rate",
		"ci_low", "ci_high", "comparison", "verdict", NULL };

	sp_writer_init(w, stdout, o->fmt);
	sp_writer_plain_columns(w, plain);
	for (size_t i = o->fmt == SP_FMT_PLAIN ? 3 : 0; columns[i]; i++)
		sp_writer_column(w, columns[i]);
	sp_writer_header(w);
}

static void
write_rows(struct sp_writer *w, const struct sp_node_table *tab,
	   const struct scope *s, const struct options *o)
{
	struct sp_buf note = { 0 };

	for (size_t i = 0; i < tab->nrows; i++) {
		const struct sp_node_row *row = &tab->rows[i];

		if (o->fmt != SP_FMT_PLAIN) {
			sp_writer_str(w, s->user);
			sp_writer_str(w, s->workload);
			sp_writer_str(w, s->key);
		}
		sp_writer_str(w, row->node);
		sp_writer_int(w, row->s.trials);
		/* Of no judged placement, how many were bad is unknown. */
		if (row->s.trials > 0)
			sp_writer_int(w, row->s.bad);
		else
			sp_writer_empty(w);
		sp_writer_num(w, row->s.rate);
		sp_writer_num(w, row->s.ci_low);
		sp_writer_num(w, row->s.ci_high);
		sp_writer_num(w, row->s.comparison);
		sp_writer_num(w, row->s.p);
		sp_writer_str(w, sp_node_verdict_name(row->s.verdict));
		sp_writer_num(w, row->bad_gpu_h);
		row_note(&note, row, tab);
		sp_writer_str(w, sp_buf_str(&note));
		sp_writer_end(w);
	}
	sp_buf_free(&note);
}

/* Appends why there is no node to exclude; 0 when there is one. */
static int
why_none(struct sp_buf *b, const struct sp_node_table *tab,
	 const struct options *o)
{
	long most = 0;

	if (tab->nrows == 0) {
		sp_buf_adds(b, "no usable job record with a node list");
		return 1;
	}
	if (tab->trials == 0 && tab->unjudged_runs > 0) {
		sp_buf_printf(b, "the record has no CPU time (total_cpu_s) "
			      "to judge hangs by: none of %ld run%s could be "
			      "judged", tab->unjudged_runs,
			      tab->unjudged_runs == 1 ? "" : "s");
		return 1;
	}
	if (tab->bad == 0 && tab->unjudged_runs > 0) {
		sp_buf_printf(b, "the record has no CPU time (total_cpu_s) "
			      "to judge hangs by: %ld of %ld runs could not "
			      "be judged, and no judged one computed nothing",
			      tab->unjudged_runs,
			      tab->runs + tab->unjudged_runs);
		return 1;
	}
	if (tab->bad == 0) {
		sp_buf_printf(b, "nothing to attribute to a node: no "
			      "placement %s", bad_words(o->metric));
		return 1;
	}
	if (tab->tested == 0) {
		for (size_t i = 0; i < tab->nrows; i++)
			if (tab->rows[i].s.trials > most)
				most = tab->rows[i].s.trials;
		sp_buf_printf(b, "no node has the %d placements a comparison "
			      "needs (the most is %ld)", SP_NODES_MIN_TRIALS,
			      most);
		return 1;
	}
	if (tab->worse == 0) {
		sp_buf_printf(b, "no node is worse than the rest after "
			      "correcting for %zu tested row%s", tab->tested,
			      tab->tested == 1 ? "" : "s");
		return 1;
	}
	return 0;
}

/* Writes b and empties it. */
static void
put(struct sp_buf *b)
{
	fwrite(b->p, 1, b->len, stdout);
	sp_buf_clear(b);
}

/*
 * The line for a job script; under --json one object instead, which a
 * script can read without knowing the comment syntax:
 * {"sbatch":"#SBATCH --exclude=...","nodes":[...],"more":0}, or
 * {"sbatch":null,"why":"..."} when there is no node to exclude.
 */
static void
print_exclude(const struct sp_node_table *tab, const struct options *o,
	      const struct scope *s)
{
	struct sp_names worse = { 0 };
	struct sp_buf line = { 0 }, out = { 0 }, safe = { 0 };
	size_t more = 0;
	int json = o->fmt == SP_FMT_JSON;
	/* A pooled table says which node ran more of a failing workload,
	 * not which node is bad: its nodes are no line to paste. */
	int confounded = s->wi < 0 && s->nworkloads > 1;

	if (why_none(&line, tab, o)) {
		if (json) {
			sp_buf_adds(&out, "{\"sbatch\":null,\"why\":");
			sp_json_string(&out, line.p, line.len);
			sp_buf_adds(&out, "}\n");
		} else {
			sp_buf_adds(&out, "# no --exclude: ");
			sp_text_clean(&out, line.p, line.len, 0);
			sp_buf_addc(&out, '\n');
		}
		put(&out);
		sp_buf_free(&out);
		sp_buf_free(&line);
		return;
	}
	/* The rows are worst first, so the cap keeps the worst. */
	for (size_t i = 0; i < tab->nrows; i++) {
		const char *node = tab->rows[i].node;

		if (tab->rows[i].s.verdict != SP_VERDICT_WORSE)
			continue;
		if (worse.n < SP_NODES_EXCLUDE_MAX)
			sp_names_add(&worse, node, strlen(node));
		else
			more++;
	}
	sp_buf_adds(&line, "#SBATCH --exclude=");
	sp_hostlist_compress(&worse, &line);
	/* The line is for a script: a node name's control bytes shown,
	 * never a second line. */
	sp_text_clean(&safe, line.p, line.len, 0);
	if (json) {
		sp_buf_adds(&out, "{\"sbatch\":");
		if (confounded)
			sp_buf_printf(&out, "null,\"why\":\"the rows pool %zu "
				      "workloads: confounded\"", s->nworkloads);
		else
			sp_json_string(&out, line.p, line.len);
		sp_buf_adds(&out, ",\"nodes\":[");
		for (size_t i = 0; i < worse.n; i++) {
			const char *node = sp_names_at(&worse, i);

			if (i)
				sp_buf_addc(&out, ',');
			sp_json_string(&out, node, strlen(node));
		}
		sp_buf_printf(&out, "],\"more\":%zu}\n", more);
		put(&out);
	} else if (confounded) {
		printf("# not to paste: the rows pool %zu workloads "
		       "(confounded), so a node that ran more of a failing one "
		       "looks worse; drop --all-workloads to compare like with "
		       "like: %s\n", s->nworkloads,
		       sp_buf_str(&safe) + strlen("#SBATCH "));
	} else {
		/* Which workload the line is for, and why: a comment,
		 * harmless where the line is pasted, so its record text
		 * made safe: a line break in a name would end it. */
		sp_buf_adds(&out, "# ");
		sp_text_clean(&out, s->workload, strlen(s->workload), 0);
		sp_buf_adds(&out, " (");
		sp_text_clean(&out, s->user, strlen(s->user), 0);
		sp_buf_adds(&out, "): leave out ");
		for (size_t i = 0; i < worse.n; i++) {
			const char *node = sp_names_at(&worse, i);

			sp_buf_adds(&out, i ? ", " : "");
			sp_text_clean(&out, node, strlen(node), 0);
		}
		sp_buf_adds(&out, ", worse than the other machines for it\n");
		put(&out);
		printf("%s\n", sp_buf_str(&safe));
		if (more)
			printf("# %zu more worse node%s not listed (sp-nodes "
			       "shows them all)\n", more, more == 1 ? "" : "s");
	}
	sp_names_free(&worse);
	sp_buf_free(&out);
	sp_buf_free(&safe);
	sp_buf_free(&line);
}

static void
print_empty(const struct sp_node_table *tab, const struct options *o)
{
	struct sp_buf line = { 0 };

	why_none(&line, tab, o);
	sp_term_say(stdout, "%s\n", sp_buf_str(&line));
	sp_buf_free(&line);
}

/* "a, b and c" of the rows with this verdict or hold. */
static void
list_nodes(struct sp_buf *b, const struct sp_node_table *tab,
	   enum sp_node_verdict v, int held)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < tab->nrows; i++)
		n += held ? (tab->rows[i].s.hold == SP_HOLD_CORRECTION ||
			     tab->rows[i].s.hold == SP_HOLD_INTERVAL) :
			    tab->rows[i].s.verdict == v;
	for (size_t i = 0; i < tab->nrows; i++) {
		const struct sp_node_row *r = &tab->rows[i];
		int hit = held ? (r->s.hold == SP_HOLD_CORRECTION ||
				  r->s.hold == SP_HOLD_INTERVAL) :
				 r->s.verdict == v;

		if (!hit)
			continue;
		if (k)
			sp_buf_adds(b, k + 1 == n ? " and " : ", ");
		sp_text_clean(b, r->node, strlen(r->node), 0);
		k++;
	}
}

/* " (45 placements there computed nothing, holding 689.0 GPU-hours)" */
static void
worse_cost(struct sp_buf *b, const struct sp_node_table *tab,
	   const struct options *o)
{
	long bad = 0;
	double gpu_h = NAN;

	for (size_t i = 0; i < tab->nrows; i++) {
		const struct sp_node_row *r = &tab->rows[i];

		if (r->s.verdict != SP_VERDICT_WORSE)
			continue;
		bad += r->s.bad;
		if (!isnan(r->bad_gpu_h))
			gpu_h = (isnan(gpu_h) ? 0 : gpu_h) + r->bad_gpu_h;
	}
	sp_buf_printf(b, " (%ld placement%s there %s", bad,
		      bad == 1 ? "" : "s", bad_words(o->metric));
	if (!isnan(gpu_h) && gpu_h > 0)
		sp_buf_printf(b, ", holding %.1f GPU-hours", gpu_h);
	sp_buf_addc(b, ')');
}

static void
plain_scope(const struct sp_node_table *tab, const struct scope *s,
	    const struct options *o)
{
	struct sp_buf b = { 0 };

	if (s->wi >= 0) {
		sp_buf_adds(&b, "workload ");
		sp_text_clean(&b, s->key, strlen(s->key), 0);
	} else {
		sp_buf_printf(&b, "every workload pooled (%zu)",
			      s->nworkloads);
	}
	if (tab->runs == 0 && tab->unjudged_runs > 0) {
		/* Not "0 runs computed nothing": nothing was judged. */
		sp_buf_printf(&b, ", metric %s: %ld run%s, %ld placement%s on "
			      "%zu node%s, none judged: no CPU time recorded",
			      sp_node_metric_name(o->metric),
			      tab->unjudged_runs,
			      tab->unjudged_runs == 1 ? "" : "s", tab->unjudged,
			      tab->unjudged == 1 ? "" : "s", tab->nrows,
			      tab->nrows == 1 ? "" : "s");
		sp_term_say(stdout, "%s\n\n", sp_buf_str(&b));
		sp_buf_free(&b);
		return;
	}
	sp_buf_printf(&b, ", metric %s: %ld run%s%s, %ld placement%s on %zu "
		      "node%s; %ld run%s %s", sp_node_metric_name(o->metric),
		      tab->runs, tab->runs == 1 ? "" : "s",
		      tab->unjudged_runs ? " judged" : "", tab->trials,
		      tab->trials == 1 ? "" : "s", tab->nrows,
		      tab->nrows == 1 ? "" : "s", tab->bad_runs,
		      tab->bad_runs == 1 ? "" : "s", bad_words(o->metric));
	if (tab->unjudged_runs > 0)
		sp_buf_printf(&b, "; %ld more run%s not judged (no CPU time "
			      "recorded)", tab->unjudged_runs,
			      tab->unjudged_runs == 1 ? "" : "s");
	sp_term_say(stdout, "%s\n\n", sp_buf_str(&b));
	sp_buf_free(&b);
}

static void
plain_notes(const struct sp_node_table *tab, const struct scope *s,
	    const struct options *o)
{
	struct sp_buf b = { 0 };

	putchar('\n');
	sp_term_say(stdout,
	    "%zu of %zu node%s tested, Benjamini-Hochberg at %.0f%%; "
	       "%zu untested (under %d placements, or nothing to compare "
	       "with)\n", tab->tested, tab->nrows, tab->nrows == 1 ? "" : "s",
	       SP_NODES_FDR * 100, tab->untested, SP_NODES_MIN_TRIALS);
	if (tab->worse) {
		list_nodes(&b, tab, SP_VERDICT_WORSE, 0);
		worse_cost(&b, tab, o);
		sp_term_say(stdout,
		    "worse than every other node: %s\n", sp_buf_str(&b));
		sp_buf_clear(&b);
	} else if (why_none(&b, tab, o)) {
		sp_term_say(stdout, "%s\n", sp_buf_str(&b));
		sp_buf_clear(&b);
	}
	if (tab->better) {
		list_nodes(&b, tab, SP_VERDICT_BETTER, 0);
		sp_term_say(stdout,
		    "better than every other node: %s\n", sp_buf_str(&b));
		sp_buf_clear(&b);
	}
	if (tab->held_back) {
		list_nodes(&b, tab, SP_VERDICT_UNTESTED, 1);
		sp_term_say(stdout,
		    "held back: %s (%zu interval%s stand%s out on %s own, "
		       "not after the correction: with many rows, about one "
		       "in twenty does by chance)\n", sp_buf_str(&b),
		       tab->held_back, tab->held_back == 1 ? "" : "s",
		       tab->held_back == 1 ? "s" : "", tab->held_back == 1 ?
		       "its" : "their");
		sp_buf_clear(&b);
	}
	if (s->wi < 0 && s->nworkloads > 1)
		sp_term_say(stdout,
		    "confounded: the rows pool %zu workloads, so a node "
		       "that ran more of a failing one looks worse; drop "
		       "--all-workloads to compare like with like\n",
		       s->nworkloads);
	else if (s->others)
		sp_term_say(stdout,
		    "%zu other workload%s not shown: --workload KEY picks "
		       "one, --all-workloads pools them (confounded)\n",
		       s->others, s->others == 1 ? "" : "s");
	sp_buf_free(&b);
}

/*
 * Options, then the placements of every record, then one workload's
 * table (or the pooled one) as node records, a screen, or the line.
 */
int
main(int argc, char **argv)
{
	struct options o;
	struct sp_nodes *t;
	struct sp_node_table tab;
	struct sp_writer w;
	struct scope s;

	sp_setprog(argv[0]);
	sp_stdout_init();
	parse_options(argc, argv, &o);

	t = sp_nodes_new(o.metric);
	read_placements(t, &o);
	choose_scope(t, &o, &s);
	sp_nodes_table(t, s.wi, &tab);
	/* The input is read: what is shown may be paged (the pager keeps
	 * the terminal's width in COLUMNS). */
	sp_pager_start(o.no_pager);

	if (s.wi < 0 && s.nworkloads > 1 &&
	    (o.exclude || o.fmt != SP_FMT_PLAIN))
		sp_warn("--all-workloads pools %zu workloads: the result is "
			"confounded by the work each node happened to run",
			s.nworkloads);
	if (o.exclude) {
		print_exclude(&tab, &o, &s);
	} else if (o.fmt == SP_FMT_PLAIN && tab.nrows == 0) {
		/* An empty table on screen says why, and nothing else. */
		print_empty(&tab, &o);
	} else {
		/* --plain holds its table until finish: the scope goes first. */
		start_rows(&w, &o);
		if (o.fmt == SP_FMT_PLAIN)
			plain_scope(&tab, &s, &o);
		write_rows(&w, &tab, &s, &o);
		sp_writer_finish(&w);
		if (o.fmt == SP_FMT_PLAIN)
			plain_notes(&tab, &s, &o);
	}
	sp_node_table_free(&tab);
	sp_nodes_free(t);
	sp_pager_end();
	return SP_EXIT_OK;
}
