/*
 * sp-size - what the next submission of each workload should ask for.
 *
 * Reads job records that carry workload_key (sp-group adds it) and writes
 * one advice record per workload and flag: --time, --mem, --cpus-per-task
 * and, for workloads that hold GPUs, --gpus.  --findings writes instead
 * the failures no single run shows (--findings-to: into a file as well,
 * from the same reading); --cost re-costs every run as if the
 * advice had been followed (the article's figure 9), and with
 * --attributed only the runs sp-attr found a source for, under the advice
 * every run of their workload gives.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_opt.h"
#include "sp_pager.h"
#include "sp_intern.h"
#include "sp_rules_history.h"
#include "sp_site.h"
#include "sp_advice.h"
#include "sp_backtest.h"
#include "sp_cost.h"
#include "sp_histset.h"
#include "sp_live.h"
#include "sp_rules_live.h"
#include "sp_verdict.h"
#include "sp-size/size.h"

static const char usage_text[] =
	"usage: sp-size [--findings | --findings-to file | --running |\n"
	"               --cost [--attributed]]\n"
	"               [--time] [--mem] [--cpus-per-task] [--gpus]\n"
	"               [--tsv | --plain | --json | --csv] [--no-pager] "
	"[file ...]\n"
	"       sp-size --script script [--diff | --in-place "
	"[--backup suffix]]\n"
	"               [--add] [-u user] [--time] [--mem] "
	"[--cpus-per-task] [--gpus]\n"
	"               [file ...]\n";

static const char help_text[] =
	"\n"
	"Advice per workload and flag from job records that carry "
	"workload_key\n"
	"(sp-group), or the failures across runs, or the advice's worth; "
	"with\n"
	"--script, the advice written into a batch script's #SBATCH lines.\n"
	"      --findings          the failures no single run shows, one "
	"record each\n"
	"      --findings-to file  the advice, and the findings into file: "
	"one reading\n"
	"      --running           each running job so far, and what its "
	"workload's\n"
	"                          history says it will do (sp-fetch --live)\n"
	"      --cost              every run re-costed as if the advice had "
	"been\n"
	"                          followed\n"
	"      --attributed        with --cost: only the runs with a known "
	"source\n"
	"                          (sp-attr)\n"
	"      --time, --mem, --cpus-per-task, --gpus\n"
	"                          only these flags (any of them; all by "
	"default)\n"
	"      --script script     the advice applied to this batch script, "
	"printed\n"
	"      --diff              the change to the script as a unified diff\n"
	"                          (patch -p0)\n"
	"      --in-place          the script rewritten, the original kept as "
	"script~\n"
	"      --backup suffix     the original kept as script + suffix "
	"instead\n"
	"      --add               flags the script does not set added, where "
	"advised\n"
	"  -u, --user user         whose workload the script is (default: "
	"$USER)\n"
	"      --tsv, --plain, --json, --csv\n"
	"                          records with a header (the default into "
	"a pipe),\n"
	"                          aligned text (on a terminal, the columns "
	"a person\n"
	"                          reads, fitted to it and paged), JSON Lines, "
	"CSV\n"
	SP_PAGER_HELP;

enum mode { MODE_ADVICE, MODE_FINDINGS, MODE_RUNNING, MODE_COST,
	    MODE_SCRIPT };

enum { OPT_FINDINGS = 0x2000, OPT_COST, OPT_TIME, OPT_MEM, OPT_CPUS,
       OPT_GPUS, OPT_SCRIPT, OPT_DIFF, OPT_IN_PLACE, OPT_BACKUP, OPT_ADD,
       OPT_ATTRIBUTED, OPT_FINDINGS_TO, OPT_RUNNING };

struct options {
	enum mode mode;
	int modes_given;
	int flags[SP_FLAG_N];
	int any_flag;
	int attributed;		/* --cost of the attributable runs */
	const char *findings_to;	/* the advice, and the findings here */
	enum sp_format fmt;
	int fmt_given;
	int no_pager;
	struct script_opts script;
	int outs_given, backup_given;
};

/* --script's own options go with it, and it writes no records. */
static void
check_script(const struct options *o)
{
	const struct script_opts *so = &o->script;

	if (o->mode != MODE_SCRIPT) {
		if (o->outs_given || o->backup_given || so->add || so->user)
			sp_die(SP_EXIT_USAGE, "--diff, --in-place, --backup, "
			       "--add and -u apply the advice to a batch "
			       "script: add --script");
		return;
	}
	if (o->outs_given == 3)
		sp_die(SP_EXIT_USAGE, "--diff and --in-place are different "
		       "outputs; choose one");
	if (o->backup_given && so->out != SCRIPT_IN_PLACE)
		sp_die(SP_EXIT_USAGE, "--backup names --in-place's copy of the "
		       "original: add --in-place");
	if (o->backup_given && *so->backup == '\0')
		sp_die(SP_EXIT_USAGE, "--backup needs a suffix: the copy "
		       "cannot be the script itself");
	if (*so->path == '\0')
		sp_die(SP_EXIT_USAGE, "--script needs a file");
	if (o->fmt_given)
		sp_die(SP_EXIT_USAGE, "--script writes the script, not "
		       "records: no --tsv, --plain, --json or --csv");
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "findings", no_argument, NULL, OPT_FINDINGS },
		{ "findings-to", required_argument, NULL, OPT_FINDINGS_TO },
		{ "running", no_argument, NULL, OPT_RUNNING },
		{ "cost", no_argument, NULL, OPT_COST },
		{ "time", no_argument, NULL, OPT_TIME },
		{ "mem", no_argument, NULL, OPT_MEM },
		{ "cpus-per-task", no_argument, NULL, OPT_CPUS },
		{ "gpus", no_argument, NULL, OPT_GPUS },
		{ "script", required_argument, NULL, OPT_SCRIPT },
		{ "diff", no_argument, NULL, OPT_DIFF },
		{ "in-place", no_argument, NULL, OPT_IN_PLACE },
		{ "backup", required_argument, NULL, OPT_BACKUP },
		{ "add", no_argument, NULL, OPT_ADD },
		{ "user", required_argument, NULL, 'u' },
		{ "attributed", no_argument, NULL, OPT_ATTRIBUTED },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text };
	int ch;

	memset(o, 0, sizeof *o);
	common.no_pager = &o->no_pager;
	o->script.backup = "~";
	o->script.flags = o->flags;
	while ((ch = sp_getopt(argc, argv, "u:", longopts, NULL,
			       &common)) != -1) {
		switch (ch) {
		case OPT_FINDINGS:
			o->mode = MODE_FINDINGS;
			o->modes_given++;
			break;
		case OPT_FINDINGS_TO:
			if (*optarg == '\0')
				sp_die(SP_EXIT_USAGE, "--findings-to needs a "
				       "file");
			o->findings_to = optarg;
			break;
		case OPT_RUNNING:
			o->mode = MODE_RUNNING;
			o->modes_given++;
			break;
		case OPT_COST:
			o->mode = MODE_COST;
			o->modes_given++;
			break;
		case OPT_TIME:
		case OPT_MEM:
		case OPT_CPUS:
		case OPT_GPUS:
			o->flags[ch - OPT_TIME] = 1;
			o->any_flag = 1;
			break;
		case OPT_SCRIPT:
			o->mode = MODE_SCRIPT;
			o->modes_given++;
			o->script.path = optarg;
			break;
		case OPT_DIFF:
		case OPT_IN_PLACE:
			o->script.out = ch == OPT_DIFF ? SCRIPT_DIFF :
			    SCRIPT_IN_PLACE;
			o->outs_given |= ch == OPT_DIFF ? 1 : 2;
			break;
		case OPT_BACKUP:
			o->script.backup = optarg;
			o->backup_given = 1;
			break;
		case OPT_ADD:
			o->script.add = 1;
			break;
		case 'u':
			o->script.user = optarg;
			break;
		case OPT_ATTRIBUTED:
			o->attributed = 1;
			break;
		}
	}
	o->fmt = common.fmt;
	o->fmt_given = common.fmt_opt != NULL;
	/* --plain asked for is text as it comes, as slurmpast --plain:
	 * no pager (one is for the terminal's default). */
	if (o->fmt_given)
		o->no_pager = 1;
	if (o->modes_given > 1)
		sp_die(SP_EXIT_USAGE, "--findings, --running, --cost and "
		       "--script are different outputs; choose one");
	check_script(o);
	if (o->any_flag && o->mode != MODE_ADVICE && o->mode != MODE_SCRIPT)
		sp_die(SP_EXIT_USAGE, "--time, --mem, --cpus-per-task and --gpus "
		       "choose advice; they do not combine with --%s",
		       o->mode == MODE_COST ? "cost" :
		       o->mode == MODE_RUNNING ? "running" : "findings");
	if (o->findings_to != NULL && o->mode != MODE_ADVICE)
		sp_die(SP_EXIT_USAGE, "--findings-to writes the findings beside "
		       "the advice: no --findings, --running, --cost or "
		       "--script");
	if (o->attributed && o->mode != MODE_COST)
		sp_die(SP_EXIT_USAGE, "--attributed re-costs the attributable "
		       "runs: add --cost");
	if (!o->any_flag)
		for (int f = 0; f < SP_FLAG_N; f++)
			o->flags[f] = 1;
}

/* The columns the rules read; every other one stays unknown. */
static void
resolve(struct sp_jobcols *c, const struct sp_reader *r)
{
	sp_reader_need(r, "workload_key", "sp-group");
	sp_reader_need(r, "state", "sp-fetch");
	sp_reader_need(r, "elapsed_s", "sp-fetch");
	sp_jobcols_only(c, r, "jobid", "jobid_raw", "array_job", "array_task",
	    "step", "attempt", "state", "submit", "start", "end", "open",
	    "elapsed_s", "timelimit_s", "req_cpus", "alloc_cpus", "ntasks",
	    "alloc_gpus", "nnodes", "mem_limit_node_b", "mem_limit_total_b",
	    "max_rss_b",
	    "total_cpu_s", "cpu_time_s", "read_b", "write_b", "gpu_util",
	    "nodelist", "workload_key", NULL);
}

/*
 * The running jobs, kept for --running until the whole history is read:
 * the record's numbers, and its texts copied (the reader's buffer moves
 * on).
 */
struct kept {
	struct sp_job j;
	struct sp_live l;
	char *text[5];
};

struct running {
	struct kept *v;
	size_t n, cap;
	struct sp_livecols c;
};

static struct sp_slice
keep_text(char **slot, struct sp_slice s)
{
	*slot = sp_xstrndup(s.p, s.n);
	return (struct sp_slice){ *slot, s.n };
}

static void
keep_running(struct running *run, struct sp_reader *r,
	     const struct sp_job *j)
{
	struct kept *k;
	struct sp_live l;

	if (!sp_live_running(j))
		return;
	/* The live columns are read for the few running jobs only. */
	sp_reader_split_all(r);
	if (sp_live_parse(&l, &run->c, r) < 0)
		sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&r->err));
	run->v = sp_xgrow(run->v, &run->cap, run->n + 1, sizeof *run->v);
	k = &run->v[run->n++];
	memset(k, 0, sizeof *k);
	k->j = *j;
	sp_job_drop_text(&k->j);
	k->l = l;
	k->j.jobid = keep_text(&k->text[0], j->jobid);
	k->j.workload_key = keep_text(&k->text[1], j->workload_key);
	k->l.step = keep_text(&k->text[2], l.step);
	k->l.at = keep_text(&k->text[3], l.at);
	k->l.why = keep_text(&k->text[4], l.why);
}

static void
running_free(struct running *run)
{
	for (size_t i = 0; i < run->n; i++)
		for (int t = 0; t < 5; t++)
			free(run->v[i].text[t]);
	free(run->v);
}

/*
 * Every run into set; with part, the runs with a known source (sp-attr)
 * into part too.
 */
static void
read_history(struct sp_reader *r, struct sp_histset *set,
	     struct sp_histset *part, struct running *run,
	     struct sp_nodes *nodes, struct sp_bt_input *bt)
{
	struct sp_jobcols c;
	struct sp_job j;
	size_t last = 0;
	unsigned seen = 0;
	int have_last = 0;
	int src = part ? sp_reader_need(r, "source", "sp-attr") : -1;

	resolve(&c, r);
	sp_jobcols_want(r, &c);
	sp_reader_want(r, src);
	if (run)
		sp_livecols_resolve(&run->c, r);
	while (sp_next_or_die(r)) {
		/* Only indexed once there is a last: v is NULL before. */
		const struct sp_wl *w = have_last ? &set->v[last] : NULL;

		sp_job_parse(&j, &c, r);
		sp_cols_seen(&c, r, &seen);
		if (run)
			keep_running(run, r, &j);
		/* Consecutive runs of one workload are common: skip the hash. */
		if (w == NULL || w->keylen != j.workload_key.n ||
		    memcmp(w->key, j.workload_key.p, j.workload_key.n) != 0) {
			last = sp_histset_find(set, j.workload_key.p,
					       j.workload_key.n);
			have_last = 1;
		}
		sp_histset_add(set, last, &j);
		if (nodes != NULL)
			sp_nodes_add(nodes, &j);
		if (bt != NULL)
			sp_bt_keep(bt, &j);
		if (src >= 0 && r->f[src].n > 0)
			sp_histset_add(part, sp_histset_find(part,
			    j.workload_key.p, j.workload_key.n), &j);
	}
	set->missing = sp_cols_unseen(&c, seen);
	set->empty = sp_cols_empty(&c, seen);
	sp_histset_finish(set);
	if (part)
		sp_histset_finish(part);
}

static void
columns(struct sp_writer *w, const char *const *cols)
{
	for (; *cols; cols++)
		sp_writer_column(w, *cols);
	sp_writer_header(w);
}

/* user, workload and workload_key, from the key. */
static void
write_who(struct sp_writer *w, const char *key, size_t keylen)
{
	const char *end = key + keylen, *p = key, *cut[3];
	int k = 0;

	for (; p < end && k < 3; p++)
		if (*p == '/')
			cut[k++] = p;
	if (k < 3) {
		sp_writer_empty(w);
		sp_writer_field(w, key, keylen);
	} else {
		sp_writer_field(w, key, (size_t)(cut[0] - key));
		sp_writer_field(w, cut[2] + 1, (size_t)(end - cut[2] - 1));
	}
	sp_writer_field(w, key, keylen);
}

static void
write_buf(struct sp_writer *w, const struct sp_buf *b)
{
	sp_writer_field(w, b->p, b->len);
}

/* The unit of the figure columns (requested, target, observed). */
static const char *
flag_unit(enum sp_flag f)
{
	switch (f) {
	case SP_FLAG_TIME:
		return "seconds";
	case SP_FLAG_MEM:
		return "bytes";
	case SP_FLAG_CPUS:
		return "cores";
	case SP_FLAG_GPUS:
		return "GPUs";
	case SP_FLAG_EXCLUDE:
		return "nodes";
	default:
		return "";
	}
}

/*
 * The replay of the history read, for the risk beside each --time and
 * --mem advice; NULL when no advice of those flags is written.
 */
struct risk {
	struct sp_bt_risks rk;
	struct sp_buf text;
};

/* One advice record. */
static void
write_advice(struct sp_writer *w, const struct sp_hist *h,
	     const struct sp_advice *a, struct risk *rk)
{
	struct sp_bt_risk r = { 0 };

	/* Only a figure can cut a run off. */
	if (rk != NULL && !isnan(a->target))
		sp_bt_risk_of(&rk->rk, h->key, h->keylen, a->flag,
			      a->runs, &r);
	if (rk != NULL) {
		sp_buf_clear(&rk->text);
		sp_bt_risk_text(&rk->text, &r);
	}
	write_who(w, h->key, h->keylen);
	sp_writer_str(w, sp_flag_name(a->flag));
	sp_writer_int(w, a->runs);
	sp_writer_str(w, sp_verdict_name(a->verdict));
	write_buf(w, &a->requested_txt);
	write_buf(w, &a->suggestion);
	write_buf(w, &a->sbatch);
	write_buf(w, &a->observed);
	write_buf(w, &a->basis);
	write_buf(w, &a->caution);
	sp_writer_str(w, flag_unit(a->flag));
	sp_writer_num(w, a->requested);
	sp_writer_num(w, a->target);
	sp_writer_num(w, a->observed_v);
	if (r.known) {
		write_buf(w, &rk->text);
		sp_writer_int(w, r.cut_off);
		sp_writer_int(w, r.judged);
	} else {
		sp_writer_empty(w);
		sp_writer_empty(w);
		sp_writer_empty(w);
	}
	sp_writer_end(w);
}

static void
advice(const struct options *o, struct sp_histset *set, const struct sp_site *s,
       struct sp_nodes *nodes, struct risk *rk, struct sp_writer *w)
{
	static const char *const cols[] = { "user", "workload",
		"workload_key", "flag", "runs", "verdict", "requested_text",
		"suggestion", "sbatch", "observed_text", "basis", "caution",
		"unit", "requested", "target", "observed", "risk",
		"risk_cut_off", "risk_judged", NULL };
	/* A row a person reads on one line: the figures are in the texts. */
	static const char *const plain[] = { "user", "workload", "flag",
		"verdict", "requested_text", "suggestion", "basis", "risk",
		NULL };

	struct sp_advice a = { 0 };

	sp_writer_plain_columns(w, plain);
	columns(w, cols);
	for (size_t i = 0; i < set->n; i++) {
		const struct sp_hist *h = sp_histset_hist(set, i);
		struct sp_size_site site;

		if (h->runs == 0)
			continue;
		sp_wl_site(s, set, h, &site);
		for (int f = 0; f < SP_FLAG_N; f++) {
			if (!o->flags[f] ||
			    sp_size_advise(h, &site, (enum sp_flag)f, &a) < 0)
				continue;
			write_advice(w, h, &a, rk);
		}
		if (nodes != NULL &&
		    sp_wl_exclude_of(nodes, set, (size_t)i, &a))
			write_advice(w, h, &a, NULL);
	}
	sp_advice_free(&a);
}

/* The findings in the findings' columns; returns 1 when one is critical. */
static int
write_findings(const struct sp_findings *all, struct sp_writer *w)
{
	static const char *const cols[] = { "user", "workload",
		"workload_key", "jobid", "code", "severity", "evidence",
		"action", NULL };
	static const char *const plain[] = { "user", "workload", "jobid",
		"code", "severity", "evidence", NULL };
	int critical = 0;

	sp_writer_plain_columns(w, plain);
	columns(w, cols);
	/* The texts are in record form already: built from fields. */
	for (size_t i = 0; i < all->n; i++) {
		const struct sp_finding *f = &all->v[i];

		write_who(w, f->key, f->keylen);
		sp_writer_str(w, f->jobids ? f->jobids : "");
		sp_writer_str(w, f->code);
		sp_writer_str(w, sp_severity_name(f->severity));
		critical |= f->severity == SP_SEV_CRITICAL;
		sp_writer_str(w, f->evidence);
		sp_writer_str(w, f->action ? f->action : "");
		sp_writer_end(w);
	}
	return critical;
}

/*
 * Each running job so far, then its warnings, in the order the records
 * came; returns 1 when a warning is critical.
 */
static int
running(struct sp_histset *set, const struct running *run,
	const struct sp_site *s, struct sp_writer *w)
{
	struct sp_findings all = { 0 };
	int critical;

	for (size_t i = 0; i < run->n; i++)
		sp_rules_live_in(&all, &run->v[i].j, &run->v[i].l, set, s, 1);
	critical = write_findings(&all, w);
	sp_findings_free(&all);
	return critical;
}

/* Returns 1 when a finding is critical. */
static int
findings(struct sp_histset *set, const struct sp_site *s, struct sp_writer *w)
{
	struct sp_findings all = { 0 };
	int critical;

	for (size_t i = 0; i < set->n; i++) {
		const struct sp_hist *h = sp_histset_hist(set, i);
		struct sp_size_site site;

		sp_wl_site(s, set, h, &site);
		sp_rules_history(&all, h, &site);
	}
	sp_rules_history_sort(&all);
	critical = write_findings(&all, w);
	sp_findings_free(&all);
	return critical;
}

/*
 * --findings-to: the findings into their own file, from the histories
 * the advice was made of, so that a caller who wants both (slurmpast)
 * reads the records once.  Returns 1 when a finding is critical.
 */
static int
findings_to(const char *path, enum sp_format fmt, struct sp_histset *set,
	    const struct sp_site *s)
{
	struct sp_writer w;
	FILE *f = fopen(path, "w");
	int critical;

	if (f == NULL)
		sp_die(SP_EXIT_USAGE, "--findings-to: %s:", path);
	sp_writer_init(&w, f, fmt);
	critical = findings(set, s, &w);
	sp_writer_finish(&w);
	if (ferror(f) | fclose(f))
		sp_die(SP_EXIT_USAGE, "--findings-to: %s:", path);
	return critical;
}

/*
 * part: re-cost only its runs (the attributable ones), each workload
 * under the advice all its runs in set give.
 */
static void
cost(struct sp_histset *set, struct sp_histset *part,
     const struct sp_site *s, struct sp_writer *w)
{
	/* The units differ by row, so the row names its unit and the
	 * number columns carry none. */
	static const char *const cols[] = { "resource", "unit", "runs",
		"requested", "used", "recommended", "reductions_only",
		"note", NULL };
	static const char *const names[SP_COST_N] = { "memory", "cpu",
		"time" };
	static const char *const units[SP_COST_N] = { "GiB-hours",
		"core-hours", "limit-hours" };
	static const char *const notes[SP_COST_N] = {
		("used is the MaxRSS peak held for the run's length: an upper "
		 "bound, so the real gap is wider"),
		"used is the CPU time the work steps burned",
		"used is the wall clock the runs took"
	};
	struct sp_advice a[3] = { { 0 } };
	struct sp_intern parts = { 0 };	/* part's keys: number k is v[k] */
	struct sp_cost c;

	sp_cost_init(&c);
	for (size_t k = 0; part != NULL && k < part->n; k++)
		sp_intern(&parts, part->v[k].key, part->v[k].keylen);
	for (size_t i = 0; i < set->n; i++) {
		const struct sp_hist *h = sp_histset_hist(set, i);
		const struct sp_hist *costed = h;
		struct sp_size_site site;
		long k;

		if (h->runs == 0)
			continue;
		if (part != NULL) {
			k = sp_intern_find(&parts, set->v[i].key,
					   set->v[i].keylen);
			if (k < 0)
				continue;
			costed = sp_histset_hist(part, (size_t)k);
			if (costed->runs == 0)
				continue;
		}
		sp_wl_site(s, set, h, &site);
		sp_size_advise(h, &site, SP_FLAG_MEM, &a[0]);
		sp_size_advise(h, &site, SP_FLAG_CPUS, &a[1]);
		sp_size_advise(h, &site, SP_FLAG_TIME, &a[2]);
		sp_cost_add(&c, costed, &a[0], &a[1], &a[2]);
	}
	sp_intern_free(&parts);
	for (int k = 0; k < 3; k++)
		sp_advice_free(&a[k]);
	/* The figures are hours of a unit the row names: numbers. */
	for (const char *const *col = cols; *col; col++)
		if (strcmp(*col, "resource") == 0 || strcmp(*col, "unit") == 0 ||
		    strcmp(*col, "note") == 0 || strcmp(*col, "runs") == 0)
			sp_writer_column(w, *col);
		else
			sp_writer_column_kind(w, *col, SP_KIND_HOURS);
	sp_writer_header(w);
	for (int k = 0; k < SP_COST_N; k++) {
		sp_writer_str(w, names[k]);
		sp_writer_str(w, units[k]);
		sp_writer_int(w, c.runs[k]);
		sp_writer_num(w, c.requested[k]);
		sp_writer_num(w, c.used[k]);
		sp_writer_num(w, c.recommended[k]);
		sp_writer_num(w, c.reductions[k]);
		sp_writer_str(w, notes[k]);
		sp_writer_end(w);
	}
}

static void
left_out(const struct sp_histset *set)
{
	long open = 0, unusable = 0;

	for (size_t i = 0; i < set->n; i++) {
		open += set->v[i].open;
		unusable += set->v[i].unusable;
	}
	if (open > 0)
		sp_warn("left out %ld open %s (never ended)", open,
			open == 1 ? "record" : "records");
	if (unusable > 0)
		sp_warn("left out %ld %s with no elapsed time", unusable,
			unusable == 1 ? "record" : "records");
}

int
main(int argc, char **argv)
{
	struct options o;
	struct sp_reader r;
	struct sp_writer w;
	struct sp_histset set = { 0 }, part = { 0 };
	struct sp_site s;
	struct script_job job;
	struct running run = { 0 };
	struct sp_nodes *nodes = NULL;
	static struct risk risk;
	struct risk *rk = NULL;
	int critical = 0;

	sp_setprog(argv[0]);
	sp_stdout_init();
	parse_options(argc, argv, &o);
	/* The script first: one that cannot be read is said before any
	 * history is waited for. */
	if (o.mode == MODE_SCRIPT)
		script_read(&job, o.script.path);

	sp_open_or_die(&r, argv + optind, (size_t)(argc - optind));
	/* The node rule's --exclude joins the advice of every flag. */
	if ((o.mode == MODE_ADVICE || o.mode == MODE_SCRIPT) && !o.any_flag)
		nodes = sp_nodes_new(SP_METRIC_HANG);
	/* The risk beside the --time and --mem advice: the replay keeps
	 * every run, so only when that advice is written. */
	if (o.mode == MODE_ADVICE && (o.flags[SP_FLAG_TIME] ||
				      o.flags[SP_FLAG_MEM]))
		rk = &risk;
	read_history(&r, &set, o.attributed ? &part : NULL,
		     o.mode == MODE_RUNNING ? &run : NULL, nodes,
		     rk != NULL ? &rk->rk.in : NULL);
	sp_site_load(&s);
	sp_site_warn(&s);
	if (rk != NULL)
		sp_bt_risks_run(&rk->rk, &s, set.missing);
	if (o.mode == MODE_SCRIPT) {
		critical = script_run(&job, &o.script, &set, &s, nodes);
		if (nodes != NULL)
			sp_nodes_free(nodes);
		left_out(&set);
		script_free(&job);
		sp_site_free(&s);
		sp_histset_free(&set);
		sp_reader_close(&r);
		sp_stdout_close();
		return critical;
	}
	sp_writer_init(&w, stdout, o.fmt);
	/* The input is read and the width taken: what is shown may be
	 * paged. */
	sp_pager_start(o.no_pager);
	switch (o.mode) {
	case MODE_ADVICE:
		advice(&o, &set, &s, nodes, rk, &w);
		/* The file is records unless a format was asked for. */
		if (o.findings_to != NULL)
			critical = findings_to(o.findings_to, o.fmt_given ?
			    o.fmt : SP_FMT_TSV, &set, &s);
		break;
	case MODE_FINDINGS:
		critical = findings(&set, &s, &w);
		break;
	case MODE_RUNNING:
		critical = running(&set, &run, &s, &w);
		break;
	case MODE_COST:
		cost(&set, o.attributed ? &part : NULL, &s, &w);
		break;
	case MODE_SCRIPT:
		break;
	}
	sp_writer_finish(&w);
	/* The running jobs are what --running reads: none left out. */
	if (o.mode != MODE_RUNNING)
		left_out(&set);
	running_free(&run);
	if (rk != NULL) {
		sp_bt_risks_free(&rk->rk);
		sp_buf_free(&rk->text);
	}
	if (nodes != NULL)
		sp_nodes_free(nodes);
	sp_site_free(&s);
	sp_histset_free(&set);
	sp_histset_free(&part);
	sp_reader_close(&r);
	sp_pager_end();
	/* A critical finding is the answer the caller must not miss. */
	return critical ? SP_EXIT_FAIL : SP_EXIT_OK;
}
