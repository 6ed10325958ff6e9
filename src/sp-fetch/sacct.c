/*
 * sacct.c - the one sacct query: the fields the site's sacct has, the
 * options in sacct's own spellings, run by execvp in a process group of
 * its own, read as it streams, and every way it fails said in one line
 * that says what to do.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "sp.h"
#include "fetch.h"

int
fetch_read_store(struct sp_exec *x, struct fetch_store *st, size_t *bytes)
{
	char *buf = sp_xmalloc(FETCH_READ_CHUNK);
	ssize_t n;
	int rc = 0;

	*bytes = 0;
	while ((n = sp_exec_read(x, buf, FETCH_READ_CHUNK)) > 0) {
		*bytes += (size_t)n;
		if (fetch_store_feed(st, buf, (size_t)n) != 0) {
			rc = -1;
			break;
		}
	}
	free(buf);
	if (n < 0)
		rc = -1;
	if (sp_exec_finish(x) != 0)
		rc = -1;
	if (rc == 0 && fetch_store_finish(st) != 0)
		rc = -1;
	if (rc != 0)
		fetch_store_abandon(st);
	return rc;
}

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
known_failure(const char *err, const struct fetch_opts *o, struct sp_buf *msg)
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
		    o->since ? o->since : FETCH_DEFAULT_SINCE);
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
sacct_failed(const struct sp_exec *x, const struct fetch_opts *o,
	     const struct fetch_run *run, const struct sp_sacct *ps)
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
		sp_buf_printf(&msg, "; the %lu %s written before it %s not "
		    "the whole answer", run->records, run->records == 1 ?
		    "record" : "records", run->records == 1 ? "is" : "are");
	sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&msg));
}

/* Asks the site which fields its sacct has (sacct --helpformat). */
static void
negotiate(const struct fetch_opts *o, double timeout, struct sp_buf *format)
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

static void
pair(struct argv *a, const char *opt, const char *value)
{
	arg(a, opt);
	arg(a, value);
}

/*
 * The one query, in sacct's own spellings.  With -j the defaults (you,
 * the last 7 days) do not apply: the ids say which jobs.  A state filter
 * always comes with an end time, without which sacct returns nothing.
 * -X is not passed: the records are allocations anyway, and sacct would
 * then leave out the steps their figures come from.
 */
static void
build_query(struct argv *a, const struct fetch_opts *o, const char *format,
	    const char *user, const char *since, const char *jobs,
	    int with_delim, struct sp_buf *fmtarg, struct sp_buf *states)
{
	const char *state = o->state;

	if (o->failed) {
		sp_buf_clear(states);
		sp_state_failed_list(states);
		state = sp_buf_str(states);
	}
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
	else if (user)
		pair(a, "-u", user);
	if (since)
		pair(a, "-S", since);
	if (state)
		pair(a, "--state", state);
	if (o->until || state)
		pair(a, "-E", o->until ? o->until : "now");
	if (o->partition)
		pair(a, "-r", o->partition);
	if (o->account)
		pair(a, "-A", o->account);
	if (o->names)
		pair(a, "--name", o->names);
	if (o->nodes)
		pair(a, "-N", o->nodes);
	if (o->qos)
		pair(a, "-q", o->qos);
	if (o->all_clusters)
		arg(a, "-L");
	else if (o->clusters)
		pair(a, "-M", o->clusters);
	if (jobs)
		pair(a, "-j", jobs);
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

/* An option and its value, as said back in a message. */
static void
also(struct sp_buf *msg, const char *what, const char *v)
{
	if (v != NULL)
		sp_buf_printf(msg, " %s %s", what, v);
}

static void
empty_answer(const struct fetch_opts *o, const char *user, const char *since,
	     const char *jobs)
{
	struct sp_buf msg = { 0 };

	if (jobs) {
		sp_warn("no accounting records for: %s", jobs);
		return;
	}
	sp_buf_printf(&msg, "no jobs for %s since %s",
	    o->all_users ? "any user" : user, since);
	also(&msg, "until", o->until);
	if (o->failed)
		sp_buf_adds(&msg, " matching --failed");
	else
		also(&msg, "in state", o->state);
	also(&msg, "in partition", o->partition);
	also(&msg, "in account", o->account);
	also(&msg, "named", o->names);
	also(&msg, "on nodes", o->nodes);
	also(&msg, "in QOS", o->qos);
	also(&msg, "on cluster", o->clusters);
	sp_warn("%s", sp_buf_str(&msg));
	sp_buf_free(&msg);
}

/* -v: the store, and what of the window it already holds. */
static void
say_store(const struct fetch_store *st)
{
	struct sp_buf since = { 0 }, asked = { 0 };

	if (st->oldnext == NULL && st->old == NULL) {
		sp_warn("store: %s, nothing of this window yet", st->path);
		return;
	}
	sp_fmt_time(&since, st->old_since);
	sp_fmt_time(&asked, st->old_asked);
	sp_warn("store: %s, jobs since %s as of %s: sacct is asked from %s",
	    st->path, sp_buf_str(&since), sp_buf_str(&asked), st->ask_since);
	sp_buf_free(&since);
	sp_buf_free(&asked);
}

/* -v: the query as asked, one line. */
static void
say_query(const struct argv *a)
{
	struct sp_buf b = { 0 };
	size_t i;

	for (i = 0; i < a->n; i++) {
		const char *v = a->v[i];

		if (i)
			sp_buf_addc(&b, ' ');
		/* The field list is long and always the same. */
		if (strncmp(v, "--format=", 9) == 0)
			v = "--format=...";
		else if (strcmp(v, "--delimiter=\x1f") == 0)
			v = "--delimiter=0x1F";
		sp_buf_adds(&b, v);
	}
	sp_warn("asked: %s", sp_buf_str(&b));
	sp_buf_free(&b);
}

void
fetch_sacct(struct fetch_run *run, double timeout, const char *user,
	    const char *since, const char *jobs)
{
	struct sp_buf format = { 0 }, fmtarg = { 0 }, states = { 0 };
	struct fetch_store store;
	struct argv a = { 0 };
	struct sp_exec x;
	struct sp_sacct ps;
	const struct fetch_opts *o = run->o;
	size_t bytes;
	int with_delim;

	/* What sacct says is as of now: a job that just ended may not have
	 * its usage written yet. */
	run->settling = 1;
	run->settle_after = sp_civil_local((int64_t)time(NULL)) -
	    SP_USAGE_SETTLE_S;
	negotiate(o, timeout, &format);
	fetch_store_init(&store, run, user, since, sp_buf_str(&format));
	if (o->verbose && store.path != NULL)
		say_store(&store);
	for (with_delim = 1;; with_delim = 0) {
		build_query(&a, o, sp_buf_str(&format), user, store.ask_since,
		    jobs, with_delim, &fmtarg, &states);
		fetch_parser_init(&ps, run, with_delim ? 0x1f : '|',
		    sp_buf_str(&format));
		/* An old sacct's '|' answer is read as it comes. */
		fetch_store_begin(&store, &ps, with_delim);
		if (o->verbose)
			say_query(&a);
		if (sp_exec_start(&x, a.v, timeout) != 0)
			sacct_failed(&x, o, run, NULL);
		if (fetch_read_store(&x, &store, &bytes) == 0)
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
	fetch_said(run, &ps);
	if (run->records == 0)
		empty_answer(o, user, since, jobs);
	sp_exec_free(&x);
	sp_sacct_free(&ps);
	sp_buf_free(&format);
	sp_buf_free(&fmtarg);
	sp_buf_free(&states);
	fetch_store_free(&store);
	free(a.v);
}
