/*
 * sp-fetch - the scheduler's accounting record as job records: one line
 * per allocation attempt, its steps folded in (with --steps, a line per
 * step as well).  The record comes from one sacct query, from a saved
 * "sacct --parsable2" dump (--input), or from the synthetic history
 * (--demo); all three go through the same parser (lib/record/sp_sacct.c), and
 * sacct's selection options choose among them with sacct's meaning
 * (passed to sacct, or applied to the records: src/sp-fetch/select.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp.h"
#include "sp_exec.h"
#include "sp_opt.h"
#include "sp_live.h"
#include "sp_sacct.h"
#include "sp-fetch/demo.h"
#include "sp-fetch/fetch.h"

static const char usage_text[] =
"usage: sp-fetch [-u user[,user ...] | -a] [-S time] [-E time]\n"
"                [-r partition[,...]] [-A account[,...]]\n"
"                [-s state[,...] | --failed] [-j jobid[,jobid ...]]\n"
"                [--name name[,...]] [-N nodelist] [-q qos[,...]]\n"
"                [-M cluster[,...] | -L] [-X | --steps] [-v]\n"
"                [--refresh | --no-cache] [--stats file] [--site file]\n"
"                [--live]\n"
"                [--tsv | --plain | --json | --csv]\n"
"       sp-fetch --input file [--fields list] [--site file [--local-site]]\n"
"                [selection ...]\n"
"       sp-fetch --demo [--demo-jobs n] [--transcripts dir] [selection ...]\n"
"       sp-fetch --demo-sacct [--demo-jobs n]\n"
"       sp-fetch --demo-clock\n";

static const char help_text[] =
"\n"
"Every selection option chooses which records are fetched, with sacct's\n"
"meaning: passed to sacct, or applied to the records of --input and --demo.\n"
"  -u, --user list         jobs of these users (login names or uids;\n"
"                          default: you, when sacct is asked)\n"
"  -a, --allusers          every user's jobs\n"
"  -S, --starttime time    the window's start: jobs eligible or running\n"
"                          since (default now-7days when sacct is asked)\n"
"  -E, --endtime time      the window's end\n"
"  -r, --partition list    jobs of these partitions\n"
"  -A, --accounts list     jobs charged to these accounts\n"
"  -s, --state list        jobs in these states during the window\n"
"                          (CD, F, TO, OOM, CA, NF, ...)\n"
"      --failed            -s FAILED,TIMEOUT,OUT_OF_MEMORY,NODE_FAIL,\n"
"                          BOOT_FAIL,DEADLINE\n"
"  -j, --jobs list         these jobs: 123, 123_4, 123_[1-3,7], 123+1, ...\n"
"      --name list         jobs with these names, exactly\n"
"  -N, --nodelist list     jobs that ran on any of these nodes (a hostlist)\n"
"  -q, --qos list          jobs of these QOS\n"
"  -M, --clusters list     jobs of these clusters (all: every one)\n"
"  -L, --allclusters       jobs of every cluster\n"
"  -X, --allocations       allocations only: what the records are anyway\n"
"Sources:\n"
"      --input file        a saved sacct dump ('|', TAB, 0x1F or CSV; - is\n"
"                          standard input) instead of asking sacct\n"
"      --fields list       the fields of a dump without a header line\n"
"      --demo              the built-in synthetic history\n"
"      --demo-jobs n       its size, about n allocations, never fewer than\n"
"                          its 1,729 named cases (implies --demo)\n"
"      --demo-sacct        write the demo as the sacct text it stands for\n"
"      --demo-clock        write the moment the demo was read: with --demo,\n"
"                          now, today and now-N count back from it\n"
"      --transcripts dir   also write where part of the demo was submitted\n"
"                          from (sessions, a driver's log), for sp-attr\n"
"The store of finished records (sacct asked only for what is new):\n"
"      --refresh           ask sacct for the whole window, and keep that\n"
"      --no-cache          neither read nor write the store\n"
"Output:\n"
"      --steps             a record per step after each allocation's\n"
"      --stats file        what was read and what could not be, as records\n"
"      --site file         also ask the site facts, kept in file for the\n"
"                          later stages (SLURMPAST_SITE); with --input\n"
"                          written unknown, nothing asked\n"
"      --local-site        with --input and --site: the dump is this\n"
"                          cluster's, so ask this machine's Slurm\n"
"      --live              the running jobs' memory and CPU so far, from\n"
"                          one sstat call (live_rss_b, live_rss_step,\n"
"                          live_cpu_s, live_at; live_why where unknown)\n"
"  -v, --verbose           say the query asked, or the delimiter found\n"
"      --tsv, --plain, --json, --csv   the output format (default --tsv)\n";

enum {
	OPT_STEPS = 0x2000, OPT_INPUT, OPT_FIELDS,
	OPT_DEMO, OPT_DEMO_JOBS, OPT_DEMO_SACCT, OPT_STATS, OPT_SITE,
	OPT_LOCAL_SITE,
	OPT_SACCT_ONLY, OPT_REFRESH, OPT_NO_CACHE,
	OPT_TRANSCRIPTS, OPT_LIVE, OPT_DEMO_CLOCK
};

/* ----------------------------------------------------------- options */

static const char *
nonempty(const char *opt, const char *v)
{
	if (*v == '\0')
		sp_die(SP_EXIT_USAGE, "%s needs a value, not an empty one", opt);
	return v;
}

/* "-7days", "-1day", "- 3 weeks": sacct wants them as now-7days. */
static const char *
since_value(struct fetch_opts *o, const char *v)
{
	const char *p = v + 1;
	const char *digits, *unit;

	if (v[0] != '-')
		return v;
	while (*p == ' ')
		p++;
	digits = p;
	while (*p >= '0' && *p <= '9')
		p++;
	if (p == digits)
		sp_die(SP_EXIT_USAGE, "-S needs a time, not the option '%s'", v);
	while (*p == ' ')
		p++;
	unit = p;
	sp_buf_clear(&o->since_buf);
	sp_buf_adds(&o->since_buf, "now-");
	sp_buf_add(&o->since_buf, digits, (size_t)(unit - digits));
	/* Spaces between the number and its unit go. */
	while (o->since_buf.len > 4 && o->since_buf.p[o->since_buf.len - 1] == ' ')
		o->since_buf.len--;
	sp_buf_adds(&o->since_buf, unit);
	return sp_buf_str(&o->since_buf);
}

/*
 * sacct's options that choose how sacct prints, not which jobs: each
 * would mean something else here, so each is refused, saying what to do.
 */
static void __attribute__((noreturn))
sacct_only(const char *name)
{
	const char *p = name;
	char opt[32];

	while (*p == '-')
		p++;
	snprintf(opt, sizeof opt, "%s%s", p[1] ? "--" : "-", p);
	if (strcmp(p, "p") == 0 || strcmp(p, "parsable") == 0)
		sp_die(SP_EXIT_USAGE, "%s is sacct's --parsable: sp-fetch's "
		    "records are always parsable (TSV; --csv, --json); a "
		    "partition is -r", opt);
	if (strcmp(p, "P") == 0 || strcmp(p, "parsable2") == 0)
		sp_die(SP_EXIT_USAGE, "%s is sacct's --parsable2: sp-fetch's "
		    "records are always parsable (TSV; --csv, --json)", opt);
	if (strcmp(p, "n") == 0 || strcmp(p, "noheader") == 0)
		sp_die(SP_EXIT_USAGE, "%s is sacct's --noheader: sp-fetch "
		    "keeps its header line, by which every stage finds its "
		    "columns (tail -n +2 drops it)", opt);
	sp_die(SP_EXIT_USAGE, "%s chooses sacct's columns: sp-fetch writes "
	    "every column of the job record, named in its header (pick "
	    "them by name with awk, or --json and jq)", opt);
}

static void
parse_options(struct fetch_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		SP_SELECT_OPTIONS,
		SP_WINDOW_OPTIONS,
		{ "verbose", no_argument, NULL, 'v' },
		{ "steps", no_argument, NULL, OPT_STEPS },
		{ "input", required_argument, NULL, OPT_INPUT },
		{ "fields", required_argument, NULL, OPT_FIELDS },
		{ "demo", no_argument, NULL, OPT_DEMO },
		{ "demo-jobs", required_argument, NULL, OPT_DEMO_JOBS },
		{ "demo-sacct", no_argument, NULL, OPT_DEMO_SACCT },
		{ "demo-clock", no_argument, NULL, OPT_DEMO_CLOCK },
		{ "stats", required_argument, NULL, OPT_STATS },
		{ "site", required_argument, NULL, OPT_SITE },
		{ "local-site", no_argument, NULL, OPT_LOCAL_SITE },
		{ "refresh", no_argument, NULL, OPT_REFRESH },
		{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
		{ "transcripts", required_argument, NULL, OPT_TRANSCRIPTS },
		{ "live", no_argument, NULL, OPT_LIVE },
		{ "parsable", no_argument, NULL, OPT_SACCT_ONLY },
		{ "parsable2", no_argument, NULL, OPT_SACCT_ONLY },
		{ "noheader", no_argument, NULL, OPT_SACCT_ONLY },
		{ "format", required_argument, NULL, OPT_SACCT_ONLY },
		{ "long", no_argument, NULL, OPT_SACCT_ONLY },
		{ "brief", no_argument, NULL, OPT_SACCT_ONLY },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text };
	char shortname[3] = "-?";
	int c, li;
	long v;

	while ((li = -1, c = sp_getopt(argc, argv,
	    SP_SELECT_SHORTOPTS "aS:E:LXvpPno:lb",
	    longopts, &li, &common)) != -1) {
		switch (c) {
		case 'u':
			o->user = nonempty("-u", optarg);
			break;
		case 'a':
			o->all_users = 1;
			break;
		case 'S':
			o->since = since_value(o, nonempty("-S", optarg));
			break;
		case 'E':
			o->until = nonempty("-E", optarg);
			break;
		case 'r':
			o->partition = nonempty("-r", optarg);
			break;
		case 'A':
			o->account = nonempty("-A", optarg);
			break;
		case 's':
			o->state = nonempty("-s", optarg);
			break;
		case SP_SEL_OPT_FAILED:
			o->failed = 1;
			break;
		case 'j':
			o->jobs = nonempty("-j", optarg);
			break;
		case SP_SEL_OPT_NAME:
			o->names = nonempty("--name", optarg);
			break;
		case 'N':
			o->nodes = nonempty("-N", optarg);
			break;
		case 'q':
			o->qos = nonempty("-q", optarg);
			break;
		case 'M':
			o->clusters = nonempty("-M", optarg);
			break;
		case 'L':
			o->all_clusters = 1;
			break;
		case 'X':
			o->allocations = 1;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 'p': case 'P': case 'n': case 'o': case 'l': case 'b':
			shortname[1] = (char)c;
			sacct_only(shortname);
		case OPT_SACCT_ONLY:
			sacct_only(longopts[li].name);
		case OPT_STEPS:
			o->steps = 1;
			break;
		case OPT_INPUT:
			o->input = nonempty("--input", optarg);
			break;
		case OPT_FIELDS:
			o->fields = nonempty("--fields", optarg);
			break;
		case OPT_DEMO:
			o->demo = 1;
			break;
		case OPT_DEMO_JOBS:
			if (sp_strtol_full(optarg, &v) != 0 || v < 0)
				sp_die(SP_EXIT_USAGE, "--demo-jobs: not a number "
				    "of jobs: '%s'", optarg);
			o->demo_jobs = v;
			o->demo = 1;
			break;
		case OPT_DEMO_SACCT:
			o->demo_sacct = 1;
			o->demo = 1;
			break;
		case OPT_DEMO_CLOCK:
			o->demo_clock = 1;
			break;
		case OPT_STATS:
			o->stats = nonempty("--stats", optarg);
			break;
		case OPT_SITE:
			o->site = nonempty("--site", optarg);
			break;
		case OPT_LOCAL_SITE:
			o->local_site = 1;
			break;
		case OPT_REFRESH:
			o->refresh = 1;
			break;
		case OPT_NO_CACHE:
			o->no_cache = 1;
			break;
		case OPT_TRANSCRIPTS:
			o->transcripts = nonempty("--transcripts", optarg);
			break;
		case OPT_LIVE:
			o->live = 1;
			break;
		}
	}
	o->fmt = common.fmt;
	o->format_set = common.fmt_opt != NULL;
	if (optind < argc)
		sp_die(SP_EXIT_USAGE, "unexpected argument '%s' (job ids go "
		    "with -j, dumps with --input)", argv[optind]);
}

static void
validate(struct fetch_opts *o)
{
	if (o->user && o->all_users)
		sp_die(SP_EXIT_USAGE, "-u and -a ask for different things: "
		    "give one");
	if (o->state && o->failed)
		sp_die(SP_EXIT_USAGE, "-s and --failed ask for different "
		    "things: give one");
	if (o->clusters && o->all_clusters)
		sp_die(SP_EXIT_USAGE, "-M and -L ask for different things: "
		    "give one");
	if (o->refresh && o->no_cache)
		sp_die(SP_EXIT_USAGE, "--refresh writes the store, --no-cache "
		    "does not: give one");
	if (o->allocations && o->steps)
		sp_die(SP_EXIT_USAGE, "-X asks for allocations only, --steps "
		    "for their steps too: give one");
	if (o->input && o->demo)
		sp_die(SP_EXIT_USAGE, "--input and --demo are two sources: "
		    "give one");
	if (o->fields && !o->input)
		sp_die(SP_EXIT_USAGE, "--fields names the columns of an "
		    "--input dump");
	if (o->transcripts && (!o->demo || o->demo_sacct))
		sp_die(SP_EXIT_USAGE, "--transcripts writes where the demo's "
		    "jobs came from: add --demo");
	if (o->local_site && (!o->input || !o->site))
		sp_die(SP_EXIT_USAGE, "--local-site asks this machine's Slurm "
		    "about a dump's cluster: it goes with --input and --site");
	if (o->live && (o->input || o->demo))
		sp_die(SP_EXIT_USAGE, "--live reads the jobs running now "
		    "from sstat: not with %s", o->input ? "--input" :
		    "--demo");
	if (o->demo_clock && (o->input || o->demo || o->live ||
	    o->stats || o->site || o->since || o->until))
		sp_die(SP_EXIT_USAGE, "--demo-clock writes the demo's clock "
		    "alone: give it by itself");
	if (o->demo_sacct && (o->steps || o->format_set || o->stats ||
	    o->site))
		sp_die(SP_EXIT_USAGE, "--demo-sacct writes sacct's own text: "
		    "no --steps, --stats, --site or output format");
}

/* You: the login name, else SLURM_JOB_USER, else the numeric uid. */
static const char *
default_user(struct fetch_opts *o)
{
	struct passwd *pw = getpwuid(getuid());
	const char *env;

	if (pw != NULL && pw->pw_name != NULL && *pw->pw_name)
		return pw->pw_name;
	env = getenv("SLURM_JOB_USER");
	if (env != NULL && *env)
		return env;
	sp_buf_printf(&o->user_buf, "%lu", (unsigned long)getuid());
	return sp_buf_str(&o->user_buf);
}

/* --------------------------------------------------------- --input */

static void
fetch_input(struct fetch_run *run)
{
	const struct fetch_opts *o = run->o;
	struct sp_sacct ps;
	struct sp_buf err = { 0 };
	const char *name = strcmp(o->input, "-") == 0 ? "<stdin>" : o->input;
	int fd = strcmp(o->input, "-") == 0 ? 0 : open(o->input, O_RDONLY);
	char *buf;
	ssize_t n;

	if (fd < 0)
		sp_die(SP_EXIT_USAGE, "%s:", o->input);
	if (fetch_input_parallel(run, fd, name) == 0) {
		close(fd);
		return;
	}
	buf = sp_xmalloc(FETCH_READ_CHUNK);
	fetch_parser_init(&ps, run, SP_SACCT_DETECT, o->fields);
	for (;;) {
		n = read(fd, buf, FETCH_READ_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			sp_buf_printf(&err, "%s: %s", name, strerror(errno));
			break;
		}
		if (n == 0) {
			if (sp_sacct_finish(&ps) != 0)
				sp_buf_printf(&err, "%s: %s", name,
				    sp_buf_str(&ps.err));
			break;
		}
		if (sp_sacct_feed(&ps, buf, (size_t)n) != 0) {
			sp_buf_printf(&err, "%s: %s", name, sp_buf_str(&ps.err));
			break;
		}
	}
	free(buf);
	if (fd != 0)
		close(fd);
	if (err.len == 0) {
		if (o->verbose)
			fetch_say_delimiter(&ps, name);
		fetch_said(run, &ps);
		if (run->records == 0)
			fetch_none_in(run, name);
	}
	sp_sacct_free(&ps);
	if (err.len)
		sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&err));
}

/* ------------------------------------------------------------ --demo */

static int
demo_child(FILE *out, void *arg)
{
	return sp_demo_write(out, *(long *)arg);
}

static void
fetch_demo(struct fetch_run *run)
{
	struct sp_exec x;
	struct sp_sacct ps;
	struct fetch_store direct;
	struct sp_buf why = { 0 };
	long njobs = run->o->demo_jobs;
	size_t bytes;

	fetch_parser_init(&ps, run, '|', NULL);
	/* The demo is read as it comes: its order is its own. */
	memset(&direct, 0, sizeof direct);
	fetch_store_begin(&direct, &ps, 0);
	if (sp_exec_start_fn(&x, "demo", demo_child, &njobs, 1e9) != 0)
		sp_die(SP_EXIT_USAGE, "cannot start the demo: %s",
		    strerror(x.exec_errno));
	if (fetch_read_store(&x, &direct, &bytes) != 0) {
		if (ps.err.len)
			sp_buf_adds(&why, sp_buf_str(&ps.err));
		else
			sp_exec_describe(&x, &why);
		sp_die(SP_EXIT_USAGE, "the demo history failed: %s",
		    sp_buf_str(&why));
	}
	fetch_said(run, &ps);
	if (run->records == 0)
		fetch_none_in(run, "the demo");
	sp_exec_free(&x);
	sp_sacct_free(&ps);
	sp_buf_free(&why);
}

/* ---------------------------------------------------------------- main */

int
main(int argc, char **argv)
{
	struct fetch_opts o;
	struct fetch_run run;
	struct fetch_site site;
	struct sp_buf msg = { 0 }, jobs = { 0 };
	const char *user = NULL, *since = NULL, *cluster = NULL;
	double timeout = 0;
	int i, fixed;

	sp_setprog(argv[0]);
	memset(&o, 0, sizeof o);
	o.fmt = SP_FMT_TSV;
	parse_options(&o, argc, argv);
	validate(&o);
	fixed = o.input != NULL || o.demo;
	if (!fixed) {
		if (sp_exec_timeout(&timeout, &msg) != 0)
			sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&msg));
		if (o.jobs) {
			sp_sacct_jobs_arg(o.jobs, &jobs);
			user = o.user;
			since = o.since;
		} else {
			user = o.all_users ? NULL :
			    o.user ? o.user : default_user(&o);
			since = o.since ? o.since : FETCH_DEFAULT_SINCE;
		}
		/* The site facts are one cluster's: one named with -M. */
		if (o.clusters && strchr(o.clusters, ',') == NULL &&
		    strcmp(o.clusters, "all") != 0)
			cluster = o.clusters;
	}
	sp_stdout_init();
	if (o.demo_clock) {
		sp_fmt_time(&msg, sp_demo_now());
		printf("%s\n", sp_buf_str(&msg));
		sp_buf_free(&msg);
		sp_stdout_close();
		return SP_EXIT_OK;
	}
	if (o.demo_sacct) {
		if (sp_demo_write(stdout, o.demo_jobs) != 0)
			sp_die(SP_EXIT_USAGE, "<stdout>:");
		sp_stdout_close();
		return SP_EXIT_OK;
	}

	memset(&run, 0, sizeof run);
	run.o = &o;
	fetch_select_init(&run, fixed);
	if (o.stats != NULL) {
		run.stats = fopen(o.stats, "w");
		if (run.stats == NULL)
			sp_die(SP_EXIT_USAGE, "--stats: %s:", o.stats);
	}
	if (o.transcripts != NULL)
		run.transcripts = transcripts_open(o.transcripts);
	sp_writer_init(&run.w, stdout, o.fmt);
	for (i = 0; sp_job_column_names[i] != NULL; i++)
		sp_writer_column(&run.w, sp_job_column_names[i]);
	if (o.live) {
		for (i = 0; sp_live_column_names[i] != NULL; i++)
			sp_writer_column(&run.w, sp_live_column_names[i]);
		fetch_live_begin(&run);
	}

	/*
	 * The demo's cluster is no real one, and a saved dump is another
	 * cluster's record unless told it is this one's: nothing to ask.
	 */
	fetch_site_start(&site, o.site, cluster,
	    !o.demo && (!o.input || o.local_site) &&
	    (o.clusters == NULL || cluster != NULL) && !o.all_clusters);
	if (o.input)
		fetch_input(&run);
	else if (o.demo)
		fetch_demo(&run);
	else
		fetch_sacct(&run, timeout, user, since,
		    o.jobs ? sp_buf_str(&jobs) : NULL);
	if (run.live != NULL)
		fetch_live_finish(&run, timeout);
	fetch_site_finish(&site);

	fetch_header(&run);
	sp_writer_finish(&run.w);
	if (run.transcripts != NULL)
		transcripts_close(run.transcripts);
	sp_stdout_close();
	fetch_select_free(&run);
	sp_buf_free(&run.line);
	sp_buf_free(&msg);
	sp_buf_free(&jobs);
	sp_buf_free(&o.since_buf);
	sp_buf_free(&o.user_buf);
	return SP_EXIT_OK;
}
