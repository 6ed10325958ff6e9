/*
 * sp_select.c - sacct's selection options, matched against job records
 * as sacct matches them against its database.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sp_util.h"
#include "sp_const.h"
#include "sp_units.h"
#include "sp_hostlist.h"
#include "sp_stats.h"
#include "sp_record.h"
#include "sp_state.h"
#include "sp_job.h"
#include "sp_intern.h"
#include "sp_select.h"

static const char *const opt_names[SP_SEL_N] = { "-u", "-A", "-r", "-s",
	"--name", "-N", "-q", "-M", "-j" };

/* The column each option reads (the user's uid, and the columns of a job
 * id beside jobid, are read beside it). */
static const char *const opt_columns[SP_SEL_N] = { "user", "account",
	"partition", "state", "name", "nodelist", "qos", "cluster", "jobid" };

/* sacct's -s: every state it takes, and the abbreviations it prints. */
static const struct {
	const char *abbrev, *name;
} states[] = {
	{ "BF", "BOOT_FAIL" }, { "CA", "CANCELLED" }, { "CD", "COMPLETED" },
	{ "CF", "CONFIGURING" }, { "CG", "COMPLETING" }, { "DL", "DEADLINE" },
	{ "F", "FAILED" }, { "NF", "NODE_FAIL" }, { "OOM", "OUT_OF_MEMORY" },
	{ "PD", "PENDING" }, { "PR", "PREEMPTED" }, { "R", "RUNNING" },
	{ "RQ", "REQUEUED" }, { "RS", "RESIZING" }, { "RV", "REVOKED" },
	{ "S", "SUSPENDED" }, { "TO", "TIMEOUT" },
};

/* A state as sacct's -s takes it (any case, or abbreviated), or NULL. */
static const char *
state_name(const char *v, size_t n)
{
	for (size_t i = 0; i < sizeof states / sizeof states[0]; i++) {
		const char *a = states[i].abbrev, *f = states[i].name;

		if ((strlen(a) == n && strncasecmp(a, v, n) == 0) ||
		    (strlen(f) == n && strncasecmp(f, v, n) == 0))
			return f;
	}
	return NULL;
}

/* The nodes asked for go in a hash: a record's nodes are each looked up. */
static int
add_nodes(struct sp_select *s, const char *v, size_t n, struct sp_buf *err)
{
	struct sp_names *l = &s->list[SP_SEL_NODES];

	if (sp_hostlist_expand(v, n, l) < 0) {
		sp_buf_printf(err, "-N: the hostlist '%.*s' names too many "
			      "nodes", (int)n, v);
		return -1;
	}
	for (size_t i = 0; i < l->n; i++)
		sp_intern(&s->nodes, sp_names_at(l, i),
			  strlen(sp_names_at(l, i)));
	return 0;
}

/* One value of a comma list. */
static int
add_value(struct sp_select *s, enum sp_select_opt opt, const char *v,
	  size_t n, struct sp_buf *err)
{
	struct sp_buf enc = { 0 };

	if (n == 0) {
		sp_buf_printf(err, "%s: an empty value in the list",
			      opt_names[opt]);
		return -1;
	}
	if (opt == SP_SEL_STATE) {
		const char *name = state_name(v, n);

		if (name == NULL) {
			sp_buf_printf(err, "-s: unknown state '%.*s' (sacct's "
				      "states: CD COMPLETED, F FAILED, TO "
				      "TIMEOUT, OOM OUT_OF_MEMORY, CA CANCELLED, "
				      "NF NODE_FAIL, ...; see sacct(1))",
				      (int)n, v);
			return -1;
		}
		sp_names_add(&s->list[opt], name, strlen(name));
		return 0;
	}
	if (opt == SP_SEL_CLUSTER && n == 3 && strncasecmp(v, "all", 3) == 0) {
		s->given[opt] = 0;	/* every cluster, as sacct -M all */
		return 0;
	}
	sp_field_encode(&enc, v, n);
	sp_names_add(&s->list[opt], sp_buf_str(&enc), enc.len);
	sp_buf_free(&enc);
	return 0;
}

int
sp_select_add(struct sp_select *s, enum sp_select_opt opt, const char *arg,
	      struct sp_buf *err)
{
	const char *p = arg, *end = arg + strlen(arg);

	if (opt == SP_SEL_STATE && s->failed) {
		sp_buf_adds(err, "-s and --failed both choose states: "
			    "give one");
		return -1;
	}
	s->given[opt] = 1;
	if (opt == SP_SEL_JOBS) {
		if (p == end) {
			sp_buf_adds(err, "-j: no job named");
			return -1;
		}
		return sp_jobspec_add(&s->jobs, arg, err);
	}
	/* A hostlist has commas inside its brackets: it is one value. */
	if (opt == SP_SEL_NODES) {
		if (p == end) {
			sp_buf_adds(err, "-N: no node named");
			return -1;
		}
		return add_nodes(s, p, (size_t)(end - p), err);
	}
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;

		if (add_value(s, opt, p, (size_t)(stop - p), err) < 0)
			return -1;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	/* "-M all,c1" is still every cluster. */
	if (opt == SP_SEL_CLUSTER && !s->given[opt])
		sp_names_clear(&s->list[opt]);
	return 0;
}

int
sp_select_not_state(struct sp_select *s, const char *arg, struct sp_buf *err)
{
	const char *p = arg, *end = arg + strlen(arg);

	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		const char *name = state_name(p, (size_t)(stop - p));

		if (name == NULL) {
			sp_buf_printf(err, "--not-state: unknown state '%.*s' "
				      "(sacct's states, as -s takes them)",
				      (int)(stop - p), p);
			return -1;
		}
		sp_names_add(&s->not_state, name, strlen(name));
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	s->has_not_state = 1;
	return 0;
}

int
sp_select_failed(struct sp_select *s, struct sp_buf *err)
{
	if (s->given[SP_SEL_STATE]) {
		sp_buf_adds(err, "-s and --failed both choose states: "
			    "give one");
		return -1;
	}
	s->failed = 1;
	return 0;
}

/* "7days", "3 hours", "90": N and a unit as Slurm's parse_time takes. */
static int
delta(const char *p, int64_t *out)
{
	static const struct {
		const char *word;
		int64_t seconds;
	} units[] = {
		{ "seconds", 1 }, { "minutes", 60 }, { "hours", 3600 },
		{ "days", 86400 }, { "weeks", 604800 },
	};
	int64_t n = 0;
	const char *digits = p;
	size_t len, i;

	while (*p >= '0' && *p <= '9') {
		if (n > INT64_MAX / 10 / 604800)
			return -1;
		n = n * 10 + (*p++ - '0');
	}
	if (p == digits)
		return -1;
	while (*p == ' ')
		p++;
	if (*p == '\0') {
		*out = n;
		return 0;
	}
	/* The word, or its plural; sacct takes nothing else. */
	len = strlen(p);
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		size_t w = strlen(units[i].word);

		if ((len == w || len == w - 1) &&
		    strncasecmp(p, units[i].word, len) == 0) {
			*out = n * units[i].seconds;
			return 0;
		}
	}
	return -1;
}

/* n digits at p as a number, or -1. */
static int
digits(const char *p, size_t n)
{
	int v = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

/* HH:MM[:SS], the whole of s[0..n), as seconds into the day; -1 if not. */
static int64_t
clock_time(const char *s, size_t n)
{
	int h, m, sec = 0;

	if ((n != 5 && n != 8) || s[2] != ':' || (n == 8 && s[5] != ':'))
		return -1;
	h = digits(s, 2);
	m = digits(s + 3, 2);
	if (n == 8)
		sec = digits(s + 6, 2);
	if (h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 59)
		return -1;
	return h * 3600 + m * 60 + sec;
}

/*
 * sacct's dates without a year first: MMDD[YY], MM/DD[/YY], MM.DD[.YY],
 * the whole of s[0..n), as the day's midnight; a missing year is the
 * year of now, YY is 20YY.  0, or -1.
 */
static int
month_day(const char *s, size_t n, int64_t now, int64_t *out)
{
	int mo, d, y = -1, cm, cd;
	int64_t days, cy;

	if (n == 4 || n == 6) {
		mo = digits(s, 2);
		d = digits(s + 2, 2);
		if (n == 6)
			y = digits(s + 4, 2);
	} else if ((n == 5 || n == 8) && (s[2] == '/' || s[2] == '.') &&
		   (n == 5 || s[5] == s[2])) {
		mo = digits(s, 2);
		d = digits(s + 3, 2);
		if (n == 8)
			y = digits(s + 6, 2);
	} else {
		return -1;
	}
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || (n == 6 || n == 8 ?
	    y < 0 : 0))
		return -1;
	sp_civil_from_days((now - ((now % 86400) + 86400) % 86400) / 86400,
			   &cy, &cm, &cd);
	if (y >= 0)
		cy = 2000 + y;
	days = sp_days_from_civil(cy, mo, d);
	/* No 31st of April: the day must be the date it names. */
	{
		int64_t yy;
		int mm, dd;

		sp_civil_from_days(days, &yy, &mm, &dd);
		if (mm != mo || dd != d)
			return -1;
	}
	*out = days * 86400;
	return 0;
}

int
sp_select_time(const char *spec, int64_t now, int64_t *out)
{
	char iso[20];
	size_t n = strlen(spec);
	int64_t d, day = now - ((now % 86400) + 86400) % 86400, tod;
	const char *dash;

	if (strcasecmp(spec, "now") == 0) {
		*out = now;
		return 0;
	}
	if (strncasecmp(spec, "now", 3) == 0 &&
	    (spec[3] == '-' || spec[3] == '+')) {
		if (delta(spec + 4, &d) != 0)
			return -1;
		*out = spec[3] == '-' ? now - d : now + d;
		return 0;
	}
	if (strcasecmp(spec, "today") == 0 || strcasecmp(spec, "midnight") == 0) {
		*out = day;
		return 0;
	}
	if (strcasecmp(spec, "noon") == 0) {
		*out = day + 43200;
		return 0;
	}
	/* HH:MM[:SS]: today at that time. */
	if ((tod = clock_time(spec, n)) >= 0) {
		*out = day + tod;
		return 0;
	}
	/* MMDD[YY], MM/DD[/YY], MM.DD[.YY], each [-HH:MM[:SS]]. */
	dash = strchr(spec, '-');
	if (n < 10 || spec[4] != '-' || spec[7] != '-') {
		size_t dn = dash ? (size_t)(dash - spec) : n;

		if (month_day(spec, dn, now, &d) != 0)
			return -1;
		tod = 0;
		if (dash && (tod = clock_time(dash + 1, n - dn - 1)) < 0)
			return -1;
		*out = d + tod;
		return 0;
	}
	/* YYYY-MM-DD, and the time of day completed with zeros. */
	if (n != 10 && n != 16 && n != 19)
		return -1;
	memcpy(iso, "0000-00-00T00:00:00", sizeof iso);
	memcpy(iso, spec, n);
	return sp_parse_time(iso, 19, out) == SP_VAL_OK ? 0 : -1;
}

int
sp_select_window(struct sp_select *s, const char *since, const char *until,
		 int64_t now, struct sp_buf *err)
{
	static const char forms[] = "YYYY-MM-DD[THH:MM[:SS]], MMDD[YY], "
		"MM/DD[/YY] or MM.DD[.YY] with [-HH:MM[:SS]], HH:MM[:SS], "
		"today, midnight, noon, or now-N with seconds, minutes, "
		"hours, days or weeks";

	if (since != NULL) {
		if (sp_select_time(since, now, &s->since) != 0) {
			sp_buf_printf(err, "-S: '%s' is not a time (%s)",
				      since, forms);
			return -1;
		}
		s->has_since = 1;
	}
	if (until != NULL) {
		if (sp_select_time(until, now, &s->until) != 0) {
			sp_buf_printf(err, "-E: '%s' is not a time (%s)",
				      until, forms);
			return -1;
		}
		s->has_until = 1;
	}
	if (s->has_since && s->has_until && s->until < s->since) {
		sp_buf_printf(err, "-E %s is before -S %s", until, since);
		return -1;
	}
	s->window = s->has_since || s->has_until;
	return 0;
}

int
sp_select_any(const struct sp_select *s)
{
	if (s->failed || s->window || s->has_not_state)
		return 1;
	for (int i = 0; i < SP_SEL_N; i++)
		if (s->given[i])
			return 1;
	return 0;
}

/* Sets the index of a column in c by its name, as sp_jobcols_only does. */
static void
need(struct sp_jobcols *c, const struct sp_reader *r, const char *name)
{
	int i = sp_reader_need(r, name, "sp-fetch");

	if (strcmp(name, "user") == 0) c->user = i;
	else if (strcmp(name, "account") == 0) c->account = i;
	else if (strcmp(name, "partition") == 0) c->partition = i;
	else if (strcmp(name, "state") == 0) c->state = i;
	else if (strcmp(name, "name") == 0) c->name = i;
	else if (strcmp(name, "nodelist") == 0) c->nodelist = i;
	else if (strcmp(name, "qos") == 0) c->qos = i;
	else if (strcmp(name, "cluster") == 0) c->cluster = i;
	else if (strcmp(name, "jobid") == 0) c->jobid = i;
}

void
sp_select_columns(const struct sp_select *s, struct sp_jobcols *c,
		  const struct sp_reader *r)
{
	for (int i = 0; i < SP_SEL_N; i++)
		if (s->given[i])
			need(c, r, opt_columns[i]);
	if (s->failed || s->has_not_state)
		need(c, r, "state");
	/* The window reads whichever of the times a record has. */
	if (s->window) {
		c->submit = sp_reader_col(r, "submit");
		c->eligible = sp_reader_col(r, "eligible");
		c->start = sp_reader_col(r, "start");
		c->end = sp_reader_col(r, "end");
		c->state = sp_reader_col(r, "state");
	}
	/* A numeric -u value may name the uid; the column is optional. */
	if (s->given[SP_SEL_USER])
		c->uid = sp_reader_col(r, "uid");
	/* An array task or a step is known by these where they are kept. */
	if (s->given[SP_SEL_JOBS]) {
		c->jobid_raw = sp_reader_col(r, "jobid_raw");
		c->array_job = sp_reader_col(r, "array_job");
		c->array_task = sp_reader_col(r, "array_task");
		c->step = sp_reader_col(r, "step");
	}
}

static int
in_list(const struct sp_names *l, const char *p, size_t n)
{
	for (size_t i = 0; i < l->n; i++) {
		const char *v = sp_names_at(l, i);

		if (strlen(v) == n && memcmp(v, p, n) == 0)
			return 1;
	}
	return 0;
}

/* A numeric -u value that is the record's uid. */
static int
uid_in_list(const struct sp_names *l, double uid)
{
	if (isnan(uid))
		return 0;
	for (size_t i = 0; i < l->n; i++) {
		long v;

		if (sp_strtol_full(sp_names_at(l, i), &v) == 0 &&
		    (double)v == uid)
			return 1;
	}
	return 0;
}

/* A job asked of several partitions lists them all: any one will do. */
static int
partition_in_list(const struct sp_names *l, struct sp_slice f)
{
	const char *p = f.p, *end = f.p + f.n;

	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;

		if (in_list(l, p, (size_t)(stop - p)))
			return 1;
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
}

static int
nodes_meet(struct sp_select *s, struct sp_slice nodelist)
{
	sp_names_clear(&s->scratch);
	/* Past the cap the nodes that fit are still compared. */
	(void)sp_hostlist_expand(nodelist.p, nodelist.n, &s->scratch);
	for (size_t i = 0; i < s->scratch.n; i++) {
		const char *node = sp_names_at(&s->scratch, i);

		if (sp_intern_find(&s->nodes, node, strlen(node)) >= 0)
			return 1;
	}
	return 0;
}

/* lo <= t <= hi, each bound only where there is one. */
static int
between(int64_t t, int has_lo, int64_t lo, int has_hi, int64_t hi)
{
	return (!has_lo || t >= lo) && (!has_hi || t <= hi);
}

/*
 * When the job became eligible: Eligible, else (a dump without it) the
 * start of a job that ran, which it cannot precede.  0 when unknown: a job
 * never eligible (held) is in no window, as in sacct.
 */
static int
eligible_at(const struct sp_job *j, int64_t *t)
{
	if (j->eligible_known)
		*t = j->eligible_t;
	else if (j->start_known)
		*t = j->start_t;
	else
		return 0;
	return 1;
}

/* Waiting, or running, or ended in the state, during the window. */
static int
state_in_window(const struct sp_select *s, const char *state,
		const struct sp_job *j)
{
	int64_t el, S = s->since, E = s->until;
	int hs = s->has_since, he = s->has_until;

	if (strcmp(state, "PENDING") == 0) {
		if (!eligible_at(j, &el))
			return 0;
		if (!hs)
			return el < E;
		return (j->start_known ? S >= el && S <= j->start_t :
		    !j->end_known || S <= j->end_t) ||
		    (he && between(el, 1, S, 1, E));
	}
	if (strcmp(state, "RUNNING") == 0 || strcmp(state, "SUSPENDED") == 0) {
		if (!j->start_known)
			return 0;
		if (!hs)
			return j->start_t < E;
		return (S >= j->start_t && (!j->end_known || S <= j->end_t)) ||
		    (he && between(j->start_t, 1, S, 1, E));
	}
	return sp_slice_eq(j->state, state) && j->end_known &&
	    between(j->end_t, hs, S, he, E);
}

/* Eligible or running during the window (sacct without -s). */
static int
in_window(const struct sp_select *s, const struct sp_job *j)
{
	int64_t el;

	if (!eligible_at(j, &el))
		return 0;
	if (s->has_until && el >= s->until)
		return 0;
	return !s->has_since || !j->end_known || j->end_t >= s->since;
}

static int
window_match(const struct sp_select *s, const struct sp_job *j)
{
	const struct sp_names *l = &s->list[SP_SEL_STATE];

	if (!s->given[SP_SEL_STATE] && !s->failed)
		return in_window(s, j);
	if (s->failed)
		return sp_job_failed(j) && j->end_known &&
		    between(j->end_t, s->has_since, s->since, s->has_until,
		    s->until);
	for (size_t i = 0; i < l->n; i++)
		if (state_in_window(s, sp_names_at(l, i), j))
			return 1;
	return 0;
}

int
sp_select_match(struct sp_select *s, const struct sp_job *j)
{
	const struct sp_names *l = s->list;

	if (s->window && !window_match(s, j))
		return 0;

	if (s->failed && !s->window && !sp_job_failed(j))
		return 0;
	if (s->given[SP_SEL_USER] &&
	    !in_list(&l[SP_SEL_USER], j->user.p, j->user.n) &&
	    !uid_in_list(&l[SP_SEL_USER], j->uid))
		return 0;
	if (s->given[SP_SEL_ACCOUNT] &&
	    !in_list(&l[SP_SEL_ACCOUNT], j->account.p, j->account.n))
		return 0;
	if (s->given[SP_SEL_PARTITION] &&
	    !partition_in_list(&l[SP_SEL_PARTITION], j->partition))
		return 0;
	if (s->given[SP_SEL_STATE] && !s->window &&
	    !in_list(&l[SP_SEL_STATE], j->state.p, j->state.n))
		return 0;
	if (s->has_not_state &&
	    in_list(&s->not_state, j->state.p, j->state.n))
		return 0;
	if (s->given[SP_SEL_NAME] &&
	    !in_list(&l[SP_SEL_NAME], j->name.p, j->name.n))
		return 0;
	if (s->given[SP_SEL_QOS] &&
	    !in_list(&l[SP_SEL_QOS], j->qos.p, j->qos.n))
		return 0;
	if (s->given[SP_SEL_CLUSTER] &&
	    !in_list(&l[SP_SEL_CLUSTER], j->cluster.p, j->cluster.n))
		return 0;
	if (s->given[SP_SEL_NODES] && !nodes_meet(s, j->nodelist))
		return 0;
	if (s->given[SP_SEL_JOBS] && !sp_jobspec_match(&s->jobs, j, NULL))
		return 0;
	return 1;
}

void
sp_select_free(struct sp_select *s)
{
	for (int i = 0; i < SP_SEL_N; i++)
		sp_names_free(&s->list[i]);
	sp_names_free(&s->scratch);
	sp_names_free(&s->not_state);
	sp_intern_free(&s->nodes);
	sp_jobspec_free(&s->jobs);
}
