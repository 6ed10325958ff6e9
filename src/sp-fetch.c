/*
 * sp-fetch - the scheduler's accounting record as job records: one line
 * per allocation attempt, its steps folded in (with --steps, a line per
 * step as well).  The record comes from one sacct query, from a saved
 * "sacct --parsable2" dump (--input), or from the synthetic history
 * (--demo); all three go through the same parser (lib/sp_sacct.c).
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
#include "sp_demo.h"
#include "sp_exec.h"
#include "sp_sacct.h"
#include "sp-fetch/fetch.h"

static const char usage_text[] =
"usage: sp-fetch [-u user[,user ...] | --all-users] [-S time] [-E time]\n"
"                [-p partition] [-A account] [-j jobid[,jobid ...]]\n"
"                [--state list | --failed] [--steps] [--stats file]\n"
"                [--site file] [--tsv | --plain | --json | --csv]\n"
"       sp-fetch --input file [--fields list] [--steps] [--stats file]\n"
"                [--site file] [--tsv | --plain | --json | --csv]\n"
"       sp-fetch --demo [--demo-jobs n] [--steps] [--stats file]\n"
"                [--site file] [--tsv | --plain | --json | --csv]\n"
"       sp-fetch --demo-sacct [--demo-jobs n]\n";

/* sacct's failure states, for --failed. */
#define FAILED_STATES "FAILED,TIMEOUT,OUT_OF_MEMORY,NODE_FAIL,BOOT_FAIL,DEADLINE"
#define DEFAULT_SINCE "now-7days"
#define READ_CHUNK (1 << 20)

enum {
	OPT_VERSION = 0x2000, OPT_ALL_USERS, OPT_STATE, OPT_FAILED,
	OPT_STEPS, OPT_INPUT, OPT_FIELDS, OPT_DEMO, OPT_DEMO_JOBS,
	OPT_DEMO_SACCT, OPT_STATS, OPT_SITE
};

struct opts {
	const char *user;
	int all_users;
	const char *since;
	const char *until;
	const char *partition;
	const char *account;
	const char *jobs;
	const char *state;
	int failed;
	int steps;
	const char *input;
	const char *fields;
	int demo;
	long demo_jobs;
	int demo_sacct;
	const char *stats;	/* --stats: where the counts go */
	const char *site;	/* --site: where the site facts go */
	int format_set;
	enum sp_format fmt;
	const char *query_opt;	/* the first option that only sacct takes */
	struct sp_buf since_buf;
	struct sp_buf user_buf;
};

/* Everything one run writes through. */
struct run {
	struct sp_writer w;
	int header_done;
	unsigned long records;
	FILE *stats;		/* --stats, or NULL */
	const char *stats_name;
};

static void __attribute__((noreturn))
usage(int status)
{
	fputs(usage_text, status == 0 ? stdout : stderr);
	exit(status);
}

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
since_value(struct opts *o, const char *v)
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

static void
query_option(struct opts *o, const char *name)
{
	if (o->query_opt == NULL)
		o->query_opt = name;
}

static int
parse_options(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "user", required_argument, NULL, 'u' },
		{ "all-users", no_argument, NULL, OPT_ALL_USERS },
		{ "since", required_argument, NULL, 'S' },
		{ "until", required_argument, NULL, 'E' },
		{ "partition", required_argument, NULL, 'p' },
		{ "account", required_argument, NULL, 'A' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "state", required_argument, NULL, OPT_STATE },
		{ "failed", no_argument, NULL, OPT_FAILED },
		{ "steps", no_argument, NULL, OPT_STEPS },
		{ "input", required_argument, NULL, OPT_INPUT },
		{ "fields", required_argument, NULL, OPT_FIELDS },
		{ "demo", no_argument, NULL, OPT_DEMO },
		{ "demo-jobs", required_argument, NULL, OPT_DEMO_JOBS },
		{ "demo-sacct", no_argument, NULL, OPT_DEMO_SACCT },
		{ "stats", required_argument, NULL, OPT_STATS },
		{ "site", required_argument, NULL, OPT_SITE },
		SP_FORMAT_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	int c;
	long v;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hu:S:E:p:A:j:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(SP_EXIT_OK);
		case OPT_VERSION:
			sp_print_version();
			exit(SP_EXIT_OK);
		case 'u':
			o->user = nonempty("-u", optarg);
			query_option(o, "-u");
			break;
		case OPT_ALL_USERS:
			o->all_users = 1;
			query_option(o, "--all-users");
			break;
		case 'S':
			o->since = since_value(o, nonempty("-S", optarg));
			query_option(o, "-S");
			break;
		case 'E':
			o->until = nonempty("-E", optarg);
			query_option(o, "-E");
			break;
		case 'p':
			o->partition = nonempty("-p", optarg);
			query_option(o, "-p");
			break;
		case 'A':
			o->account = nonempty("-A", optarg);
			query_option(o, "-A");
			break;
		case 'j':
			o->jobs = nonempty("-j", optarg);
			query_option(o, "-j");
			break;
		case OPT_STATE:
			o->state = nonempty("--state", optarg);
			query_option(o, "--state");
			break;
		case OPT_FAILED:
			o->failed = 1;
			query_option(o, "--failed");
			break;
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
		case OPT_STATS:
			o->stats = nonempty("--stats", optarg);
			break;
		case OPT_SITE:
			o->site = nonempty("--site", optarg);
			break;
		case ':':
			sp_die(SP_EXIT_USAGE, "option '%s' needs a value",
			    argv[optind - 1]);
		default:
			if (sp_format_option(c, &o->fmt)) {
				o->format_set = 1;
				break;
			}
			sp_die_unknown_option(optopt, argv[optind - 1]);
		}
	}
	return optind;
}

static void
validate(struct opts *o)
{
	if (o->user && o->all_users)
		sp_die(SP_EXIT_USAGE, "-u and --all-users ask for different "
		    "things: give one");
	if (o->state && o->failed)
		sp_die(SP_EXIT_USAGE, "--state and --failed ask for different "
		    "things: give one");
	if (o->input && o->demo)
		sp_die(SP_EXIT_USAGE, "--input and --demo are two sources: "
		    "give one");
	if ((o->input || o->demo) && o->query_opt)
		sp_die(SP_EXIT_USAGE, "%s asks sacct, which %s does not "
		    "(filter the records instead)", o->query_opt,
		    o->input ? "--input" : "--demo");
	if (o->fields && !o->input)
		sp_die(SP_EXIT_USAGE, "--fields names the columns of an "
		    "--input dump");
	if (o->demo_sacct && (o->steps || o->format_set))
		sp_die(SP_EXIT_USAGE, "--demo-sacct writes sacct's own text: "
		    "no --steps or output format");
}

/* You: the login name, else SLURM_JOB_USER, else the numeric uid. */
static const char *
default_user(struct opts *o)
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

/* ----------------------------------------------------------- records */

/*
 * The header goes out with the first record, or at a successful end:
 * a sacct that fails before answering leaves standard output empty, so
 * the next stage stops too ("no header line") instead of reading none.
 */
static void
header(struct run *run)
{
	if (run->header_done)
		return;
	run->header_done = 1;
	sp_writer_header(&run->w);
}

/*
 * The two common cases written without a detour (most fields are whole
 * numbers and text without escapes); the output is the same bytes as
 * sp_writer_num and sp_writer_raw give, which take every other case.
 */
static void
put_num(struct sp_writer *w, double v)
{
	char tmp[32], *p = tmp + sizeof tmp;
	unsigned long long u;

	if (isnan(v)) {
		sp_writer_field(w, "", 0);
		return;
	}
	if (v != trunc(v) || fabs(v) >= 1e15) {
		sp_writer_num(w, v);
		return;
	}
	u = (unsigned long long)fabs(v);
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	sp_writer_field(w, p, (size_t)(tmp + sizeof tmp - p));
}

static void
put_text(struct sp_writer *w, const char *p, size_t n)
{
	if (sp_field_clean_len(p, n) == n)
		sp_writer_field(w, p, n);
	else
		sp_writer_raw(w, p, n);
}

static void
emit(void *ctx, const struct sp_sacct_rec *rec)
{
	struct run *run = ctx;
	int i;

	header(run);
	for (i = 0; i < SP_JC_COUNT; i++) {
		if (sp_sacct_col_is_num(i))
			put_num(&run->w, rec->num[i]);
		else
			put_text(&run->w, rec->text[i].p, rec->text[i].n);
	}
	sp_writer_end(&run->w);
	run->records++;
}

static void
parser_init(struct sp_sacct *ps, struct run *run, const struct opts *o,
	    int delim, const char *fields)
{
	struct sp_sacct_config cfg;

	memset(&cfg, 0, sizeof cfg);
	cfg.delim = delim;
	cfg.fields = fields;
	cfg.steps = o->steps;
	cfg.emit = emit;
	cfg.ctx = run;
	sp_sacct_init(ps, &cfg);
}

/* What the parser met, each kind one line; never silent. */
static void
report_drops(struct run *run, const struct sp_sacct *ps)
{
	if (fetch_report(ps, run->records, run->stats) != 0 ||
	    (run->stats != NULL && fclose(run->stats) != 0))
		sp_die(SP_EXIT_USAGE, "%s:", run->stats_name);
	run->stats = NULL;
}

/* --------------------------------------------------------- --input */

static void
fetch_input(struct run *run, const struct opts *o)
{
	struct sp_sacct ps;
	struct sp_buf err = { 0 };
	const char *name = strcmp(o->input, "-") == 0 ? "<stdin>" : o->input;
	int fd = strcmp(o->input, "-") == 0 ? 0 : open(o->input, O_RDONLY);
	char *buf;
	ssize_t n;

	if (fd < 0)
		sp_die(SP_EXIT_USAGE, "%s:", o->input);
	buf = sp_xmalloc(READ_CHUNK);
	parser_init(&ps, run, o, SP_SACCT_DETECT, o->fields);
	for (;;) {
		n = read(fd, buf, READ_CHUNK);
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
		report_drops(run, &ps);
		if (run->records == 0)
			sp_warn("no jobs in %s", name);
	}
	sp_sacct_free(&ps);
	if (err.len)
		sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&err));
}

/* ---------------------------------------------------------- children */

/*
 * Reads a child's stdout through the parser.  Returns 0 when the whole
 * stream was read and the child succeeded (the last group is written),
 * else -1 with the group in progress dropped; *bytes says how much came.
 */
static int
read_child(struct sp_exec *x, struct sp_sacct *ps, size_t *bytes)
{
	char *buf = sp_xmalloc(READ_CHUNK);
	ssize_t n;
	int rc = 0;

	*bytes = 0;
	while ((n = sp_exec_read(x, buf, READ_CHUNK)) > 0) {
		*bytes += (size_t)n;
		if (sp_sacct_feed(ps, buf, (size_t)n) != 0) {
			rc = -1;
			break;
		}
	}
	free(buf);
	if (n < 0)
		rc = -1;
	if (sp_exec_finish(x) != 0)
		rc = -1;
	if (rc == 0 && sp_sacct_finish(ps) != 0)
		rc = -1;
	if (rc != 0)
		sp_sacct_abandon(ps);
	return rc;
}

static int
demo_child(FILE *out, void *arg)
{
	return sp_demo_write(out, *(long *)arg);
}

static void
fetch_demo(struct run *run, const struct opts *o)
{
	struct sp_exec x;
	struct sp_sacct ps;
	struct sp_buf why = { 0 };
	long njobs = o->demo_jobs;
	size_t bytes;

	parser_init(&ps, run, o, '|', NULL);
	if (sp_exec_start_fn(&x, "demo", demo_child, &njobs, 1e9) != 0)
		sp_die(SP_EXIT_USAGE, "cannot start the demo: %s",
		    strerror(x.exec_errno));
	if (read_child(&x, &ps, &bytes) != 0) {
		if (ps.err.len)
			sp_buf_adds(&why, sp_buf_str(&ps.err));
		else
			sp_exec_describe(&x, &why);
		sp_die(SP_EXIT_USAGE, "the demo history failed: %s",
		    sp_buf_str(&why));
	}
	report_drops(run, &ps);
	sp_exec_free(&x);
	sp_sacct_free(&ps);
	sp_buf_free(&why);
}

/* ------------------------------------------------------------- sacct */

static int
contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return 1;
	return 0;
}

/* The text after marker on its line, trimmed, into out. */
static void
after(const char *text, const char *marker, struct sp_buf *out)
{
	const char *p = strstr(text, marker);
	const char *e;

	if (p == NULL)
		return;
	p += strlen(marker);
	while (*p == ' ')
		p++;
	e = strchr(p, '\n');
	if (e == NULL)
		e = p + strlen(p);
	while (e > p && (e[-1] == ' ' || e[-1] == '\r'))
		e--;
	sp_buf_add(out, p, (size_t)(e - p));
}

/*
 * The known ways sacct fails, as one line that says what to do.
 * Returns 0 when the text is none of them.
 */
static int
known_failure(const char *err, const struct opts *o, struct sp_buf *msg)
{
	struct sp_buf what = { 0 };
	int found = 1;

	if (contains_ci(err, "accounting storage is disabled")) {
		sp_buf_adds(msg, "Slurm accounting storage is disabled on "
		    "this cluster (AccountingStorageType=accounting_storage/"
		    "none), so there is no job history to read: ask the "
		    "admins, or try --demo");
	/* A dead munged also makes sacct say "Problem talking to the
	 * database", so the cause must be recognised before the symptom. */
	} else if (contains_ci(err, "munge")) {
		sp_buf_adds(msg, "sacct cannot authenticate: munge is not "
		    "running on this node (Munge encode failed): try a login "
		    "node, or ask the admins to start munged");
	} else if (contains_ci(err, "Problem talking to the database")) {
		after(err, "Problem talking to the database:", &what);
		sp_buf_printf(msg, "sacct cannot reach the accounting "
		    "database, slurmdbd (%s): try again later, or tell the "
		    "admins", what.len ? sp_buf_str(&what) : "no answer");
	} else if (contains_ci(err, "Invalid time specification")) {
		after(err, "):", &what);
		sp_buf_printf(msg, "sacct refused the time '%s': it takes "
		    "now-Ndays or now-Nweeks (also hours, minutes) or a date "
		    "YYYY-MM-DD[THH:MM:SS], not months or years",
		    what.len ? sp_buf_str(&what) :
		    o->since ? o->since : DEFAULT_SINCE);
	} else if (contains_ci(err, "Invalid user") ||
	    contains_ci(err, "Unknown user")) {
		after(err, "user id:", &what);
		if (what.len == 0)
			after(err, "user:", &what);
		sp_buf_printf(msg, "sacct does not know the user '%s': it "
		    "wants a login name, and this node may not resolve yours "
		    "(check: getent passwd $(id -u)), or give -u <login>",
		    what.len ? sp_buf_str(&what) : o->user ? o->user : "");
	} else if (contains_ci(err, "configuration source") ||
	    contains_ci(err, "slurm.conf")) {
		sp_buf_adds(msg, "sacct finds no Slurm configuration on this "
		    "node: run on a login node of the cluster, or set "
		    "SLURM_CONF");
	} else
		found = 0;
	sp_buf_free(&what);
	return found;
}

static void
timeout_message(struct sp_buf *msg, const struct sp_exec *x)
{
	sp_buf_adds(msg, "sacct did not answer within ");
	sp_exec_fmt_seconds(msg, x->timeout_s);
	sp_buf_adds(msg, ": narrow the window with -S, or raise "
	    "SLURMPAST_TIMEOUT");
}

/* One line for a sacct that could not give its answer, then exit 2. */
static void __attribute__((noreturn))
sacct_failed(const struct sp_exec *x, const struct opts *o,
	     const struct run *run, const struct sp_sacct *ps)
{
	struct sp_buf msg = { 0 }, line = { 0 };

	if (x->exec_errno == ENOENT)
		sp_die(SP_EXIT_USAGE, "sacct is not on PATH: load your site's "
		    "Slurm module (module load slurm), or try --demo");
	if (x->exec_errno)
		sp_die(SP_EXIT_USAGE, "cannot run sacct: %s",
		    strerror(x->exec_errno));
	if (x->timed_out)
		timeout_message(&msg, x);
	else if (ps != NULL && ps->failed)
		sp_buf_printf(&msg, "sacct's output: %s", sp_buf_str(&ps->err));
	else if (!known_failure(sp_buf_str(&x->err), o, &msg)) {
		sp_buf_adds(&msg, "sacct failed (");
		sp_exec_describe(x, &msg);
		sp_exec_err_line(x, &line);
		if (line.len) {
			sp_buf_adds(&msg, ": ");
			sp_buf_add(&msg, line.p, line.len);
		}
		sp_buf_addc(&msg, ')');
	}
	if (run != NULL && run->records > 0)
		sp_buf_printf(&msg, "; the %lu records written before it are "
		    "not the whole answer", run->records);
	sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&msg));
}

/* Asks the site which fields its sacct has (sacct --helpformat). */
static void
negotiate(const struct opts *o, double timeout, struct sp_buf *format)
{
	char *argv[] = { "sacct", "--helpformat", NULL };
	struct sp_exec x;
	struct sp_buf out = { 0 }, msg = { 0 };
	int ok = sp_exec_capture(&x, argv, timeout, &out) == 0;

	if (!ok) {
		if (x.exec_errno || x.timed_out ||
		    known_failure(sp_buf_str(&x.err), o, &msg))
			sacct_failed(&x, o, NULL, NULL);
		/* A probe that fails otherwise: ask under primary spellings. */
	}
	if (sp_sacct_format(ok ? sp_buf_str(&out) : NULL, out.len, format,
	    &msg) != 0)
		sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&msg));
	sp_exec_free(&x);
	sp_buf_free(&out);
	sp_buf_free(&msg);
}

struct argv {
	char **v;
	size_t n, cap;
};

static void
arg(struct argv *a, const char *s)
{
	a->v = sp_xgrow(a->v, &a->cap, a->n + 2, sizeof *a->v);
	a->v[a->n++] = (char *)s;
	a->v[a->n] = NULL;
}

/*
 * The one query, in sacct's own spellings.  With -j the defaults (you,
 * the last 7 days) do not apply: the ids say which jobs.  A state filter
 * always comes with an end time, without which sacct returns nothing.
 */
static void
build_query(struct argv *a, const struct opts *o, const char *format,
	    const char *user, const char *since, const char *jobs,
	    int with_delim, struct sp_buf *fmtarg)
{
	const char *state = o->failed ? FAILED_STATES : o->state;

	sp_buf_clear(fmtarg);
	sp_buf_printf(fmtarg, "--format=%s", format);
	a->n = 0;
	arg(a, "sacct");
	arg(a, "-D");
	arg(a, "--parsable2");
	arg(a, "--noheader");
	arg(a, sp_buf_str(fmtarg));
	if (with_delim)
		arg(a, "--delimiter=\x1f");
	if (o->all_users)
		arg(a, "--allusers");
	else if (user) {
		arg(a, "-u");
		arg(a, user);
	}
	if (since) {
		arg(a, "-S");
		arg(a, since);
	}
	if (state) {
		arg(a, "--state");
		arg(a, state);
	}
	if (o->until || state) {
		arg(a, "-E");
		arg(a, o->until ? o->until : "now");
	}
	if (o->partition) {
		arg(a, "-r");
		arg(a, o->partition);
	}
	if (o->account) {
		arg(a, "-A");
		arg(a, o->account);
	}
	if (jobs) {
		arg(a, "-j");
		arg(a, jobs);
	}
}

/* sacct's answer to an option it does not have (an old --delimiter). */
static int
refused_option(const struct sp_exec *x)
{
	const char *err = sp_buf_str(&x->err);

	return (x->exit_code != 0 || x->term_signal) && !x->timed_out &&
	    (contains_ci(err, "unrecognized option") ||
	    contains_ci(err, "invalid option"));
}

static void
empty_answer(const struct opts *o, const char *user, const char *since,
	     const char *jobs)
{
	struct sp_buf msg = { 0 };

	if (jobs) {
		sp_warn("no accounting records for: %s", jobs);
		return;
	}
	sp_buf_printf(&msg, "no jobs for %s since %s",
	    o->all_users ? "any user" : user, since);
	if (o->until)
		sp_buf_printf(&msg, " until %s", o->until);
	if (o->failed)
		sp_buf_adds(&msg, " matching --failed");
	else if (o->state)
		sp_buf_printf(&msg, " in state %s", o->state);
	if (o->partition)
		sp_buf_printf(&msg, " in partition %s", o->partition);
	if (o->account)
		sp_buf_printf(&msg, " in account %s", o->account);
	sp_warn("%s", sp_buf_str(&msg));
	sp_buf_free(&msg);
}

static void
fetch_sacct(struct run *run, const struct opts *o, double timeout,
	    const char *user, const char *since, const char *jobs)
{
	struct sp_buf format = { 0 }, fmtarg = { 0 };
	struct argv a = { 0 };
	struct sp_exec x;
	struct sp_sacct ps;
	size_t bytes;
	int with_delim;

	negotiate(o, timeout, &format);
	for (with_delim = 1;; with_delim = 0) {
		build_query(&a, o, sp_buf_str(&format), user, since, jobs,
		    with_delim, &fmtarg);
		parser_init(&ps, run, o, with_delim ? 0x1f : '|',
		    sp_buf_str(&format));
		if (sp_exec_start(&x, a.v, timeout) != 0)
			sacct_failed(&x, o, run, NULL);
		if (read_child(&x, &ps, &bytes) == 0)
			break;
		/* Retried once, only for the option it does not know. */
		if (with_delim && bytes == 0 && run->records == 0 &&
		    refused_option(&x)) {
			sp_exec_free(&x);
			sp_sacct_free(&ps);
			continue;
		}
		sacct_failed(&x, o, run, &ps);
	}
	report_drops(run, &ps);
	if (run->records == 0)
		empty_answer(o, user, since, jobs);
	sp_exec_free(&x);
	sp_sacct_free(&ps);
	sp_buf_free(&format);
	sp_buf_free(&fmtarg);
	free(a.v);
}

/* ---------------------------------------------------------------- main */

int
main(int argc, char **argv)
{
	struct opts o;
	struct run run;
	struct fetch_site site;
	struct sp_buf msg = { 0 }, jobs = { 0 };
	const char *user = NULL, *since = NULL;
	double timeout = 0;
	int i;

	sp_setprog(argv[0]);
	memset(&o, 0, sizeof o);
	o.fmt = SP_FMT_TSV;
	if (parse_options(&o, argc, argv) < argc)
		sp_die(SP_EXIT_USAGE, "unexpected argument '%s' (job ids go "
		    "with -j, dumps with --input)", argv[optind]);
	validate(&o);
	if (!o.input && !o.demo) {
		if (sp_exec_timeout(&timeout, &msg) != 0)
			sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&msg));
		if (o.jobs) {
			sp_sacct_jobs_arg(o.jobs, &jobs);
			user = o.user;
			since = o.since;
		} else {
			user = o.all_users ? NULL :
			    o.user ? o.user : default_user(&o);
			since = o.since ? o.since : DEFAULT_SINCE;
		}
	}
	sp_stdout_init();
	if (o.demo_sacct) {
		if (sp_demo_write(stdout, o.demo_jobs) != 0)
			sp_die(SP_EXIT_FAIL, "<stdout>:");
		sp_stdout_close();
		return SP_EXIT_OK;
	}

	memset(&run, 0, sizeof run);
	if (o.stats != NULL) {
		run.stats_name = o.stats;
		run.stats = fopen(o.stats, "w");
		if (run.stats == NULL)
			sp_die(SP_EXIT_USAGE, "--stats: %s:", o.stats);
	}
	sp_writer_init(&run.w, stdout, o.fmt);
	for (i = 0; sp_job_column_names[i] != NULL; i++)
		sp_writer_column(&run.w, sp_job_column_names[i]);

	/* The demo's cluster is no real one: nothing to ask about it. */
	fetch_site_start(&site, o.site, NULL, !o.demo);
	if (o.input)
		fetch_input(&run, &o);
	else if (o.demo)
		fetch_demo(&run, &o);
	else
		fetch_sacct(&run, &o, timeout, user, since,
		    o.jobs ? sp_buf_str(&jobs) : NULL);
	fetch_site_finish(&site);

	header(&run);
	sp_writer_finish(&run.w);
	sp_stdout_close();
	sp_buf_free(&msg);
	sp_buf_free(&jobs);
	sp_buf_free(&o.since_buf);
	sp_buf_free(&o.user_buf);
	return SP_EXIT_OK;
}
