/*
 * options.c - what was asked, as sacct reads it (-u bob, -ubob,
 * --user=bob, --user bob), and every refusal that needs no record:
 * options that cannot go together, and the values, checked by the stages
 * that will read them, before sacct runs.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "front.h"
#include "sp_select.h"

static const char usage_text[] =
	"usage: slurmpast [-u user[,user ...] | -a] [-S time] [-E time]\n"
	"                 [-M cluster[,cluster ...] | -L] [-r partition[,partition ...]]\n"
	"                 [-A account[,account ...]] [-s state[,state ...] | --failed]\n"
	"                 [--name name[,name ...]] [-N nodelist] [-q qos[,qos ...]]\n"
	"                 [--not-state state[,state ...]] [-X] [--top count] [--overview] [--running] [--patterns]\n"
	"                 [--problems] [--hangs] [--nodes] [--sizing] [--cost]\n"
	"                 [--sort key]\n"
	"                 [--metric hang|failure] [--all-workloads]\n"
	"                 [--plain | --json | --html [file]] [--table] [--csv]\n"
	"                 [--no-color] [--ascii] [--width n] [--no-pager] [--no-logs]\n"
	"                 [--log-dir dir] [--attribute [dir] | --attribute=dir]\n"
	"                 [--attributed] [--demo | --input file [--fields list] [--site]]\n"
	"                 [-j jobid[,jobid ...]] [jobid ...]\n"
	"       slurmpast --advise file [--diff | --in-place] [--add] [-u user]\n"
	"                 [-S time] [-E time] [-M cluster[,cluster ...]]\n"
	"                 [--demo | --input file [--fields list]]\n"
	"\n"
	"The window: which history is read (sacct's meaning)\n"
	"  -u, --user list          these users' jobs (default: yours)\n"
	"  -a, --allusers           every user's jobs (also --all-users)\n"
	"  -S, --starttime time     from this time (default: a week ago; also --since)\n"
	"  -E, --endtime time       until this time (also --until)\n"
	"  -M, --clusters list      these clusters' jobs (all: every one)\n"
	"  -L, --allclusters        every cluster's jobs (-M all)\n"
	"The view: which jobs and workloads are shown (sacct's meaning); what is\n"
	"said about a workload shown always rests on every run of it in the window\n"
	"  -r, --partition list     jobs of these partitions\n"
	"  -A, --accounts list      jobs of these accounts (also --account)\n"
	"  -s, --state list         jobs that ended in these states (CD, F, TO, OOM, ...)\n"
	"      --failed             jobs that failed\n"
	"      --name list          jobs with these names\n"
	"  -N, --nodelist list      jobs that ran on these nodes (a hostlist)\n"
	"  -q, --qos list           jobs of these QOS\n"
	"      --not-state list     jobs in none of these states (reportseff's)\n"
	"  -X, --allocations        allocations only: always so, steps are folded in\n"
	"  -j, --jobs list          the post-mortem of these jobs (as jobid ...)\n"
	"Sections (default: the headline, workloads, running jobs, findings, problem\n"
	"jobs, advice)\n"
	"      --overview           the headline and the workloads by compute\n"
	"      --running            the jobs running now, their live figures (sstat)\n"
	"                           and what their workload's history says they will do\n"
	"      --patterns           every finding across runs\n"
	"      --problems           the jobs that failed or computed nothing\n"
	"      --hangs              the allocations that computed nothing\n"
	"      --nodes              the machines that fail one workload\n"
	"      --sizing             the advice for every workload and flag\n"
	"      --cost               what following the advice would change\n"
	"The next submission: the advice written into its batch script\n"
	"      --advise file        the script with its #SBATCH lines rewritten\n"
	"                           (sp-size --script), for the user of -u or you\n"
	"      --diff               with --advise: the change as a unified diff\n"
	"      --in-place           with --advise: the script rewritten, file~ kept\n"
	"      --add                with --advise: flags the script lacks added\n"
	"      --top count          problem jobs listed (0: every one)\n"
	"      --sort key           workloads by cost, failures, rate, recent, runs, name\n"
	"      --metric hang|failure  what counts as bad for the machines\n"
	"      --all-workloads      machines compared over every workload (confounded)\n"
	"Output\n"
	"      --plain              text: no colour, no pager, no dashboard\n"
	"      --json               every section's records as JSON Lines\n"
	"      --table              one row a job the view shows (reportseff's table,\n"
	"                           sp-show --table), not the report\n"
	"      --csv                that table as CSV\n"
	"      --html [file]        the report as one HTML page, its figures beside it,\n"
	"                           into file (a path ending in .html or .htm, or\n"
	"                           --html=file) or to standard output\n"
	"      --no-color           no colour (also NO_COLOR, TERM=dumb)\n"
	"      --ascii              the post-mortem's gauges in ASCII\n"
	"      --width n            lay out for n columns\n"
	"      --no-pager           never through a pager ($SLURMPAST_PAGER, $PAGER, less)\n"
	"                           nor the dashboard: the text, all at once\n"
	"      --no-logs            do not look for the jobs' log files\n"
	"      --log-dir dir        look for log files in dir too (repeatable)\n"
	"Where the jobs came from\n"
	"      --attribute [dir]    which session or log submitted each job (sp-attr):\n"
	"                           the transcripts and logs in dir, or your Claude\n"
	"                           Code transcripts; the split in the headline, the\n"
	"                           workloads by session, --cost for that part too\n"
	"      --attributed         only the attributable jobs are shown (a view)\n"
	"History\n"
	"      --demo               the built-in synthetic history, not sacct\n"
	"      --input file         a saved sacct --parsable2 dump (- for stdin)\n"
	"      --fields list        the fields of a dump saved without its header\n"
	"      --site               the dump is this cluster's: use this machine's\n"
	"                           site facts (scontrol, sinfo); without it a dump\n"
	"                           asks this machine's Slurm nothing\n"
	"  -h, --help               this text\n"
	"      --version            the version\n"
;

/* The long options without a short one. */
enum {
	OPT_NOT_STATE = 0x100, OPT_TOP, OPT_SORT,
	OPT_METRIC, OPT_WIDTH, OPT_LOG_DIR, OPT_INPUT, OPT_FIELDS,
	OPT_ADVISE, OPT_ATTRIBUTE, OPT_ATTRIBUTED, OPT_HTML, OPT_VERSION,
	OPT_DEMO, OPT_JSON, OPT_PLAIN, OPT_NO_COLOR, OPT_ASCII, OPT_TABLE,
	OPT_CSV, OPT_NO_PAGER, OPT_NO_LOGS, OPT_ALL_WORKLOADS, OPT_SITE,
	OPT_DIFF, OPT_IN_PLACE, OPT_ADD,
	/* what means something else to sacct, refused (refused()) */
	OPT_PARSABLE2, OPT_LIMIT,
	/* the sections: OPT_SECTION + enum section, the last */
	OPT_SECTION
};

/* A section's option: OPT_SECTION + its enum section. */
static const struct option longopts[] = {
	SP_SELECT_OPTIONS,
	SP_WINDOW_OPTIONS,
	{ "not-state", required_argument, NULL, OPT_NOT_STATE },
	{ "overview", no_argument, NULL, OPT_SECTION + SEC_OVERVIEW },
	{ "running", no_argument, NULL, OPT_SECTION + SEC_RUNNING },
	{ "patterns", no_argument, NULL, OPT_SECTION + SEC_PATTERNS },
	{ "problems", no_argument, NULL, OPT_SECTION + SEC_PROBLEMS },
	{ "hangs", no_argument, NULL, OPT_SECTION + SEC_HANGS },
	{ "nodes", no_argument, NULL, OPT_SECTION + SEC_NODES },
	{ "sizing", no_argument, NULL, OPT_SECTION + SEC_SIZING },
	{ "cost", no_argument, NULL, OPT_SECTION + SEC_COST },
	{ "advise", required_argument, NULL, OPT_ADVISE },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "in-place", no_argument, NULL, OPT_IN_PLACE },
	{ "add", no_argument, NULL, OPT_ADD },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "all-workloads", no_argument, NULL, OPT_ALL_WORKLOADS },
	{ "plain", no_argument, NULL, OPT_PLAIN },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "table", no_argument, NULL, OPT_TABLE },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "html", optional_argument, NULL, OPT_HTML },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "no-colour", no_argument, NULL, OPT_NO_COLOR },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "no-pager", no_argument, NULL, OPT_NO_PAGER },
	{ "no-logs", no_argument, NULL, OPT_NO_LOGS },
	{ "log-dir", required_argument, NULL, OPT_LOG_DIR },
	{ "attribute", optional_argument, NULL, OPT_ATTRIBUTE },
	{ "attributed", no_argument, NULL, OPT_ATTRIBUTED },
	{ "demo", no_argument, NULL, OPT_DEMO },
	{ "input", required_argument, NULL, OPT_INPUT },
	{ "fields", required_argument, NULL, OPT_FIELDS },
	{ "site", no_argument, NULL, OPT_SITE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "parsable", optional_argument, NULL, 'p' },
	{ "parsable2", optional_argument, NULL, OPT_PARSABLE2 },
	{ "long", optional_argument, NULL, 'l' },
	{ "noheader", optional_argument, NULL, 'n' },
	{ "limit", optional_argument, NULL, OPT_LIMIT },
	{ "format", optional_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 }
};

static const char shortopts[] = ":u:aS:E:M:Lr:A:s:N:q:Xj:hpPlno";

/* The options that mean something else to sacct, refused with the one
 * that means it here; opt as it was named. */
static void
refused(int ch, const char *opt)
{
	switch (ch) {
	case 'p':
		sp_die(SP_EXIT_USAGE, "-p is sacct's --parsable: the partition is -r (--partition), and --json gives records");
	case 'P': case OPT_PARSABLE2:
		sp_die(SP_EXIT_USAGE, "%s is sacct's --parsable2: --json gives records, sp-fetch the TSV ones", opt);
	case 'l':
		sp_die(SP_EXIT_USAGE, "%s chooses sacct's columns: slurmpast reads the fields it needs", opt);
	case 'n':
		sp_die(SP_EXIT_USAGE, "-n is sacct's --noheader: the problem jobs listed are --top N");
	case OPT_LIMIT:
		sp_die(SP_EXIT_USAGE, "--limit is now --top");
	case 'o':
		sp_die(SP_EXIT_USAGE, "%s: slurmpast reads the fields it needs; a dump with other fields is read with --input FILE --fields LIST", opt);
	}
}

static void
words_add(struct words *w, const char *s)
{
	w->v = sp_xgrow(w->v, &w->cap, w->n + 1, sizeof *w->v);
	w->v[w->n++] = (char *)s;
}

/* Job ids, checked by the stage that reads them. */
static void
add_ids(const char *list)
{
	if (!*list)
		sp_die(SP_EXIT_USAGE, "an empty job id");
	if (F.ids.len)
		sp_buf_addc(&F.ids, ',');
	sp_buf_adds(&F.ids, list);
}

/* The option as it was named: "--account", "-u". */
static void
opt_name(struct sp_buf *b, int ch, int longindex)
{
	sp_buf_clear(b);
	if (longindex >= 0)
		sp_buf_printf(b, "--%s", longopts[longindex].name);
	else
		sp_buf_printf(b, "-%c", ch);
}

/* A word after --html or --attribute is theirs when it can be nothing
 * else: no job id has a slash, nor ends in .html. */
static int
html_path(const char *w)
{
	size_t n = strlen(w);
	static const char *const ends[] = { ".html", ".htm", ".HTML", ".HTM" };

	if (*w == '-')
		return 0;
	if (strchr(w, '/'))
		return 1;
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
		size_t e = strlen(ends[i]);
		if (n > e && strcmp(w + n - e, ends[i]) == 0)
			return 1;
	}
	return 0;
}

static int
attribute_path(const char *w)
{
	return *w != '-' && (strchr(w, '/') || access(w, F_OK) == 0);
}

/* The option's value, never empty. */
static const char *
valued(const char *value, const char *opt)
{
	if (!*value)
		sp_die(SP_EXIT_USAGE, "%s: no value given", opt);
	return value;
}

/* getopt_long refused a word: a value given to an option that takes
 * none, a value missing, or an option unknown. */
static void
not_an_option(int ch, char **argv)
{
	const char *word = argv[optind - 1];
	const char *eq = strchr(word, '=');

	if (ch == ':') {
		for (const struct option *o = longopts; o->name; o++)
			if (strncmp(word, "--", 2) == 0 &&
			    strcmp(word + 2, o->name) == 0)
				sp_die(SP_EXIT_USAGE, "%s needs a value", word);
		sp_die(SP_EXIT_USAGE, "-%c needs a value", optopt);
	}
	if (strncmp(word, "--", 2) == 0 && eq)
		for (const struct option *o = longopts; o->name; o++)
			if (strlen(o->name) == (size_t)(eq - word - 2) &&
			    strncmp(word + 2, o->name, eq - word - 2) == 0)
				sp_die(SP_EXIT_USAGE, "%.*s takes no value",
				       (int)(eq - word), word);
	sp_die_unknown_option(strncmp(word, "--", 2) == 0 ? 0 : optopt, word);
}

static void
diff_or_in_place(const char *opt)
{
	if (F.advise_out && strcmp(F.advise_out, opt) != 0)
		sp_die(SP_EXIT_USAGE, "--diff and --in-place are different outputs: choose one");
	F.advise_out = opt;
}

static void
one_option(int ch, int longindex, char **argv, int argc)
{
	struct sp_buf name = { 0 };

	opt_name(&name, ch, longindex);
	refused(ch, sp_buf_str(&name));
	switch (ch) {
	case 'u': F.user = valued(optarg, name.p); break;
	case 'S': F.since = valued(optarg, name.p); break;
	case 'E': F.until = valued(optarg, name.p); break;
	case 'M': F.clusters = valued(optarg, name.p); break;
	case 'r': F.partition = valued(optarg, name.p); break;
	case 'A': F.account = valued(optarg, name.p); break;
	case 's': F.state = valued(optarg, name.p); break;
	case SP_SEL_OPT_NAME: F.names = valued(optarg, name.p); break;
	case 'N': F.nodelist = valued(optarg, name.p); break;
	case 'q': F.qos = valued(optarg, name.p); break;
	case OPT_NOT_STATE: F.not_state = valued(optarg, name.p); break;
	case 'j': add_ids(valued(optarg, name.p)); break;
	case OPT_TOP: F.top = valued(optarg, name.p); break;
	case OPT_SORT: F.sort = valued(optarg, name.p); break;
	case OPT_METRIC: F.metric = valued(optarg, name.p); break;
	case OPT_WIDTH: F.width = valued(optarg, name.p); break;
	case OPT_INPUT: F.input = valued(optarg, name.p); break;
	case OPT_FIELDS: F.fields = valued(optarg, name.p); break;
	case OPT_ADVISE: F.advise = valued(optarg, name.p); break;
	case OPT_LOG_DIR: words_add(&F.log_dirs, valued(optarg, name.p)); break;
	case OPT_ATTRIBUTE:
		/* The files or directories to read, as --attribute=DIR or a
		 * path after it; none: the user's transcripts. */
		F.attribute = 1;
		if (optarg) {
			if (!*optarg)
				sp_die(SP_EXIT_USAGE, "--attribute: no file or directory named");
			words_add(&F.sources, optarg);
		} else if (optind < argc && attribute_path(argv[optind])) {
			words_add(&F.sources, argv[optind++]);
		}
		break;
	case OPT_HTML:
		/* The page into a file, as --html=FILE or a path after it;
		 * none: standard output. */
		F.html = 1;
		if (optarg) {
			if (!*optarg)
				sp_die(SP_EXIT_USAGE, "--html: no file named");
			F.html_out = optarg;
		} else if (optind < argc && html_path(argv[optind])) {
			F.html_out = argv[optind++];
		}
		break;
	case OPT_ATTRIBUTED: F.attribute = F.attributed = 1; break;
	case 'h': fputs(usage_text, stdout); sp_stdout_close(); exit(0);
	case OPT_VERSION:
		printf("slurmpast %s\n", SP_VERSION);
		sp_stdout_close();
		exit(0);
	case 'a': F.all_users = 1; break;
	case SP_SEL_OPT_FAILED: F.failed = 1; break;
	case 'X': break;	/* every record is an allocation */
	case 'L': F.all_clusters = 1; break;
	case OPT_DEMO: F.demo = 1; break;
	case OPT_JSON: F.json = 1; break;
	case OPT_TABLE: F.table = 1; break;
	case OPT_CSV: F.csv = F.table = 1; break;	/* the jobs' table */
	case OPT_PLAIN: F.plain = 1; break;
	case OPT_NO_COLOR: F.no_color = 1; break;
	case OPT_ASCII: F.ascii = 1; break;
	case OPT_NO_PAGER: F.no_pager = 1; break;
	case OPT_NO_LOGS: F.no_logs = 1; break;
	case OPT_ALL_WORKLOADS: F.all_workloads = 1; break;
	case OPT_SITE: F.site = 1; break;
	case OPT_DIFF: diff_or_in_place("--diff"); break;
	case OPT_IN_PLACE: diff_or_in_place("--in-place"); break;
	case OPT_ADD: F.advise_add = 1; break;
	default:
		if (ch >= OPT_SECTION && ch < OPT_SECTION + SEC_COUNT) {
			F.sections[ch - OPT_SECTION] = 1;
			F.any_section = 1;
			break;
		}
		not_an_option(ch, argv);
	}
	sp_buf_free(&name);
}

void
front_parse(int argc, char **argv)
{
	int ch, longindex;

	opterr = 0;
	for (;;) {
		longindex = -1;
		ch = getopt_long(argc, argv, shortopts, longopts, &longindex);
		if (ch == -1)
			break;
		if (ch == '?' || ch == ':')
			not_an_option(ch, argv);
		one_option(ch, longindex, argv, argc);
	}
	for (; optind < argc; optind++)
		add_ids(argv[optind]);
}

/* The view options, as sp-select reads them. */
void
front_view_args(struct args *a)
{
	if (F.partition) args_addf(a, "--partition=%s", F.partition);
	if (F.account) args_addf(a, "--accounts=%s", F.account);
	if (F.state) args_addf(a, "--state=%s", F.state);
	if (F.failed) args_add(a, "--failed");
	if (F.names) args_addf(a, "--name=%s", F.names);
	if (F.nodelist) args_addf(a, "--nodelist=%s", F.nodelist);
	if (F.qos) args_addf(a, "--qos=%s", F.qos);
	if (F.not_state) args_addf(a, "--not-state=%s", F.not_state);
	if (F.attributed) args_add(a, "--attributed");
}

/* sp-show's and sp-browse's log options. */
void
front_log_args(struct args *a)
{
	if (F.no_logs)
		args_add(a, "--no-logs");
	for (size_t i = 0; i < F.log_dirs.n; i++)
		args_addf(a, "--log-dir=%s", F.log_dirs.v[i]);
}

/* The view in words, for the window line. */
void
front_view_words(struct sp_buf *b)
{
	struct sp_buf w = { 0 };

	if (F.partition) sp_buf_printf(&w, ", partition %s", F.partition);
	if (F.account) sp_buf_printf(&w, ", account %s", F.account);
	if (F.state) sp_buf_printf(&w, ", state %s", F.state);
	if (F.failed) sp_buf_adds(&w, ", failed");
	if (F.names) sp_buf_printf(&w, ", name %s", F.names);
	if (F.nodelist) sp_buf_printf(&w, ", nodes %s", F.nodelist);
	if (F.qos) sp_buf_printf(&w, ", qos %s", F.qos);
	if (F.not_state) sp_buf_printf(&w, ", not state %s", F.not_state);
	if (F.attributed) sp_buf_adds(&w, ", attributable");
	sp_buf_clear(b);
	if (w.len > 2)
		sp_buf_adds(b, w.p + 2);
	while (b->len && b->p[b->len - 1] == '\n')
		b->p[--b->len] = '\0';
	sp_buf_free(&w);
}

static void
die_if(int cond, const char *msg)
{
	if (cond)
		sp_die(SP_EXIT_USAGE, "%s", msg);
}

/* --advise: a script that can be read, and nothing a screen would show. */
static void
check_advise(void)
{
	struct stat st;

	if (!F.advise) {
		die_if(F.advise_out || F.advise_add,
		       "--diff, --in-place and --add write the advice into a script: add --advise FILE");
		return;
	}
	die_if(F.ids.len || F.any_section || F.view || F.json || F.html ||
	       F.all_users,
	       "--advise writes a script: leave out job ids, sections, the view options, --json, --html and -a");
	die_if(F.user && strchr(F.user, ','),
	       "--advise is one user's script: give one -u");
	if (stat(F.advise, &st) != 0 || !S_ISREG(st.st_mode) ||
	    access(F.advise, R_OK) != 0)
		sp_die(SP_EXIT_USAGE, "%s: cannot read it", F.advise);
}

/* The options that cannot go together, refused before anything runs. */
void
front_check(void)
{
	int plain_or_json = F.json || F.plain;

	die_if(F.user && F.all_users,
	       "-u and -a ask for different things: choose one");
	if (F.all_clusters) {
		die_if(F.clusters != NULL,
		       "-M and -L ask for different things: choose one");
		F.clusters = "all";
	}
	die_if(F.state && F.failed,
	       "-s and --failed both choose states: give one");
	die_if(F.demo && F.input,
	       "--demo and --input are different histories: choose one");
	die_if(F.demo && F.site,
	       "--site: the demo's cluster is no real one; --site is for a dump of this cluster");
	die_if(F.fields && !F.input,
	       "--fields names the columns of an --input dump");
	die_if(F.json && F.plain,
	       "--plain and --json are different outputs: choose one");
	die_if(F.csv && plain_or_json,
	       "--csv is an output of its own: leave out --plain and --json");
	die_if(F.table && (F.any_section || F.advise),
	       "--table is one row a job: leave out sections and --advise");
	die_if(F.table && F.html,
	       "--table and --html are different outputs: choose one");
	die_if(F.html && plain_or_json,
	       "--html is an output of its own: leave out --plain and --json");
	die_if(F.html && (F.ids.len || F.any_section),
	       "--html is one page of every section: leave out job ids and section options");
	F.view = F.partition || F.account || F.state || F.failed || F.names ||
		F.nodelist || F.qos || F.not_state || F.attributed;
	die_if(F.ids.len && F.any_section,
	       "job ids and sections ask for different things: choose one");
	die_if(F.ids.len && F.view,
	       "job ids and the view options (-r, -A, -s, --failed, ...) ask for different things: choose one");
	die_if(F.ids.len && F.attribute,
	       "--attribute splits a window of jobs: leave out the job ids");
	die_if(F.demo && F.sources.n,
	       "the demo brings its own transcripts: --attribute takes no path with --demo");
	check_advise();
	if (F.log_dirs.n && (F.no_logs || F.demo)) {
		sp_warn("--log-dir has no effect with --no-logs or --demo");
		F.log_dirs.n = 0;
	}
}

/* A header alone: the records the value checks read. */
static const char no_records_header[] =
	"jobid\tjobid_raw\tuser\tuid\taccount\tpartition\tstate\tname\t"
	"nodelist\tqos\tcluster\telapsed_s\ttotal_cpu_s\tworkload_key\t"
	"source\n";

/*
 * A value the stages would refuse is refused now, before sacct runs, by
 * the stage that will read it, over a header alone: the selection by
 * sp-select, the order by sp-group, the metric by sp-nodes, the count and
 * the width by sp-report.
 */
void
front_check_values(void)
{
	struct args a = { 0 };
	const char *none = tmp_path("none"), *checked = tmp_path("checked");
	FILE *f;

	args_add(&a, "sp-select");
	if (F.ids.len) args_addf(&a, "--jobs=%s", F.ids.p);
	if (F.user) args_addf(&a, "--user=%s", F.user);
	if (F.clusters) args_addf(&a, "--clusters=%s", F.clusters);
	front_view_args(&a);
	if (a.n == 1 && !F.sort && !F.metric && !F.top && !F.width)
		goto done;	/* nothing to check, nothing to run */
	if (!(f = fopen(none, "w")) || fputs(no_records_header, f) < 0 ||
	    fclose(f) != 0)
		sp_die(SP_EXIT_USAGE, "%s:", none);
	if (a.n > 1)
		run(checked, none, &a);
	args_free(&a);
	if (F.sort) {
		args_add(&a, "sp-group");
		args_add(&a, "--rollup");
		args_addf(&a, "--sort=%s", F.sort);
		run(checked, none, &a);
		args_free(&a);
	}
	if (F.metric) {
		args_add(&a, "sp-nodes");
		args_addf(&a, "--metric=%s", F.metric);
		run(checked, none, &a);
		args_free(&a);
	}
	if (F.top || F.width) {
		args_add(&a, "sp-report");
		args_add(&a, "screen");
		if (F.top) args_addf(&a, "--top=%s", F.top);
		if (F.width) args_addf(&a, "--width=%s", F.width);
		run(checked, "/dev/null", &a);
	}
done:
	args_free(&a);
}

static int
all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/*
 * What follows from what was asked: the history's nature, and how the
 * answer is shown: to a person at a terminal, fitted to it, in colour and
 * through a pager when longer than the screen (--plain: no colour, no
 * pager, but fitted still); else as it is.
 */
void
front_derive(void)
{
	const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");
	const char *columns = getenv("COLUMNS");
	static char width_text[24];
	struct winsize ws;

	/* --json is for a program: one call gives it everything, every
	 * problem job too, unless --top says how many. */
	if (F.json && !F.top)
		F.top = "0";
	F.fixed = F.demo || F.input;
	F.input_name = F.input;
	/* The demo's cluster is no real one, and a saved dump is another
	 * cluster's record unless --site says it is this one's: this
	 * machine's Slurm is asked nothing about either. */
	if (F.demo)
		F.no_logs = 1;	/* the demo's log files are on no disk */
	if (F.demo || (F.input && !F.site))
		setenv("SLURMPAST_NO_SITE", "1", 1);
	F.tty = isatty(STDOUT_FILENO);
	F.color = F.tty && !F.plain && !F.json && !F.no_color &&
		!(no_color && *no_color) && term && *term &&
		strcmp(term, "dumb") != 0;
	if (!F.width && F.tty) {
		if (columns && *columns)
			F.width = columns;
		else if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
			 ws.ws_col > 0) {
			snprintf(width_text, sizeof width_text, "%u",
				 (unsigned)ws.ws_col);
			F.width = width_text;
		}
		if (F.width && !all_digits(F.width))
			F.width = NULL;
	}
	/* --table's rows as records (sp-show writes TSV into a pipe). */
	F.table_records = F.table &&
		(F.json || F.csv || (!F.tty && !F.plain));
	/* Every stage and part reads it: their tables and prose fit it. */
	if (F.width)
		setenv("COLUMNS", F.width, 1);
	F.out = F.json ? "--json" : "--plain";
}
