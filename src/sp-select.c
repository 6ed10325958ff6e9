/*
 * sp-select - the job records sacct's selection options choose.
 *
 * Passes through the records that every option given matches, with
 * sacct's meaning: -j, -u, -A, -r, -s, --name, -N, -q and -M, and
 * --failed; and --attributed, the jobs sp-attr found a source for.
 * --keys writes the workload of each chosen record instead, once each;
 * --workloads FILE keeps only the records of the workloads FILE lists.
 * Together they let a report show some records while judging every run
 * of the workloads they belong to:
 *
 *	sp-select -r gpu --failed --keys jobs >keys
 *	sp-select --workloads keys jobs >judged
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_opt.h"
#include "sp_intern.h"
#include "sp_select.h"

static const char usage_text[] =
"usage: sp-select [-j jobid[,jobid ...]] [-u user[,user ...]]\n"
"                 [-A account[,account ...]]\n"
"                 [-r partition[,partition ...]] [-s state[,state ...] | --failed]\n"
"                 [--name name[,name ...]] [-N nodelist] [-q qos[,qos ...]]\n"
"                 [-M cluster[,cluster ...]] [--not-state state[,state ...]]\n"
"                 [--attributed]\n"
"                 [--keys | --workloads file]\n"
"                 [--tsv | --plain | --json | --csv] [file ...]\n";

static const char help_text[] =
"\n"
"Selection (sacct's meaning; a comma list is alternatives, options combine):\n"
"  -j, --jobs list        these jobs: 123, 123_4, 123_[1-3,7], 123+1, ...\n"
"  -u, --user list        jobs of these users (login names or uids)\n"
"  -A, --accounts list    jobs charged to these accounts\n"
"  -r, --partition list   jobs of these partitions\n"
"  -s, --state list       jobs that ended in these states (CD, F, TO, OOM, ...)\n"
"      --failed           jobs that failed (FAILED, TIMEOUT, OUT_OF_MEMORY,\n"
"                         NODE_FAIL, BOOT_FAIL, DEADLINE)\n"
"      --name list        jobs with these names, exactly\n"
"  -N, --nodelist list    jobs that ran on any of these nodes (a hostlist)\n"
"  -q, --qos list         jobs of these QOS\n"
"  -M, --clusters list    jobs of these clusters (all: every one)\n"
"      --not-state list   jobs in none of these states (reportseff's option)\n"
"      --attributed       jobs whose source is known (the column sp-attr adds)\n"
"Output:\n"
"      --keys             the workload_key of each chosen record, once\n"
"      --workloads file   only the records of the workloads file lists\n"
"                         (its workload_key column)\n"
"      --tsv, --plain, --json, --csv   the output format (default --tsv)\n";

enum { OPT_KEYS = 0x2000, OPT_WORKLOADS, OPT_ATTRIBUTED, OPT_NOT_STATE };

struct options {
	struct sp_select sel;
	int keys;
	int attributed;
	const char *workloads;
	enum sp_format fmt;
	int fmt_given;
	char **files;
	size_t nfiles;
};

static void
selection(struct options *o, enum sp_select_opt opt, const char *arg)
{
	struct sp_buf err = { 0 };

	if (sp_select_add(&o->sel, opt, arg, &err) < 0)
		sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&err));
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		SP_SELECT_OPTIONS,
		{ "keys", no_argument, NULL, OPT_KEYS },
		{ "attributed", no_argument, NULL, OPT_ATTRIBUTED },
		{ "not-state", required_argument, NULL, OPT_NOT_STATE },
		{ "workloads", required_argument, NULL, OPT_WORKLOADS },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text };
	struct sp_buf err = { 0 };
	int ch;

	memset(o, 0, sizeof *o);
	while ((ch = sp_getopt(argc, argv, SP_SELECT_SHORTOPTS, longopts, NULL,
			       &common)) != -1) {
		switch (ch) {
		case 'j': selection(o, SP_SEL_JOBS, optarg); break;
		case 'u': selection(o, SP_SEL_USER, optarg); break;
		case 'A': selection(o, SP_SEL_ACCOUNT, optarg); break;
		case 'r': selection(o, SP_SEL_PARTITION, optarg); break;
		case 's': selection(o, SP_SEL_STATE, optarg); break;
		case SP_SEL_OPT_NAME: selection(o, SP_SEL_NAME, optarg); break;
		case 'N': selection(o, SP_SEL_NODES, optarg); break;
		case 'q': selection(o, SP_SEL_QOS, optarg); break;
		case 'M': selection(o, SP_SEL_CLUSTER, optarg); break;
		case SP_SEL_OPT_FAILED:
			if (sp_select_failed(&o->sel, &err) < 0)
				sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&err));
			break;
		case OPT_NOT_STATE:
			if (sp_select_not_state(&o->sel, optarg, &err) < 0)
				sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&err));
			break;
		case OPT_KEYS:
			o->keys = 1;
			break;
		case OPT_ATTRIBUTED:
			o->attributed = 1;
			break;
		case OPT_WORKLOADS:
			if (*optarg == '\0')
				sp_die(SP_EXIT_USAGE, "--workloads: no file named");
			o->workloads = optarg;
			break;
		}
	}
	o->fmt = common.fmt;
	o->fmt_given = common.fmt_opt != NULL;
	if (o->keys && o->workloads != NULL)
		sp_die(SP_EXIT_USAGE, "--keys and --workloads are different "
		       "outputs: choose one");
	o->files = argv + optind;
	o->nfiles = (size_t)(argc - optind);
}

/* The workload keys a file lists, in its workload_key column. */
static void
read_workloads(const char *path, struct sp_intern *keys)
{
	char *paths[1];
	struct sp_reader r;
	int col;

	paths[0] = (char *)path;
	sp_open_or_die(&r, paths, 1);
	col = sp_reader_need(&r, "workload_key", "sp-group");
	while (sp_next_or_die(&r))
		sp_intern(keys, r.f[col].p, r.f[col].n);
	sp_reader_close(&r);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct sp_reader r;
	struct sp_writer w;
	struct sp_jobcols c;
	struct sp_job j;
	struct sp_intern wanted = { 0 }, seen = { 0 };
	int keycol = -1, srccol = -1;

	sp_setprog(argv[0]);
	sp_stdout_init();
	parse_options(argc, argv, &o);
	if (o.workloads != NULL)
		read_workloads(o.workloads, &wanted);

	sp_open_or_die(&r, o.files, o.nfiles);
	sp_jobcols_only(&c, &r, NULL);
	sp_select_columns(&o.sel, &c, &r);
	if (o.keys || o.workloads != NULL)
		keycol = sp_reader_need(&r, "workload_key", "sp-group");
	if (o.attributed)
		srccol = sp_reader_need(&r, "source", "sp-attr");
	sp_jobcols_want(&r, &c);
	sp_reader_want(&r, keycol);
	sp_reader_want(&r, srccol);
	sp_writer_init(&w, stdout, o.fmt);
	if (o.keys)
		sp_writer_column(&w, "workload_key");
	else
		sp_writer_columns_from(&w, &r);
	sp_writer_header(&w);

	while (sp_next_or_die(&r)) {
		struct sp_slice key = keycol >= 0 ? r.f[keycol] :
		    (struct sp_slice){ "", 0 };

		if (o.workloads != NULL &&
		    sp_intern_find(&wanted, key.p, key.n) < 0)
			continue;
		/* Attributed: sp-attr found where it was submitted from. */
		if (srccol >= 0 && r.f[srccol].n == 0)
			continue;
		if (sp_select_any(&o.sel)) {
			sp_job_parse(&j, &c, &r);
			if (!sp_select_match(&o.sel, &j))
				continue;
		}
		if (o.keys) {
			size_t before = seen.n;

			if (sp_intern(&seen, key.p, key.n) == before) {
				sp_writer_field(&w, key.p, key.n);
				sp_writer_end(&w);
			}
			continue;
		}
		sp_writer_fields_from(&w, &r);
		sp_writer_end(&w);
	}
	sp_writer_finish(&w);
	sp_intern_free(&wanted);
	sp_intern_free(&seen);
	sp_select_free(&o.sel);
	sp_reader_close(&r);
	sp_stdout_close();
	return SP_EXIT_OK;
}
