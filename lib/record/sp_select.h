/*
 * sp_select.h - sacct's selection options over job records.
 *
 * sacct chooses jobs by id, user, account, partition, state, name, node,
 * QOS and cluster; the same options, with the same meaning, choose among
 * records already fetched (a saved dump, the demo, or the window the
 * front door read once).  Within one option the values are alternatives
 * (a comma list); across options every one given must hold.
 */
#ifndef SP_SELECT_H
#define SP_SELECT_H

#include "sp_hostlist.h"
#include "sp_intern.h"
#include "sp_job.h"
#include "sp_jobspec.h"
#include "sp_util.h"

enum sp_select_opt {
	SP_SEL_USER,		/* -u: login names or numeric uids */
	SP_SEL_ACCOUNT,		/* -A */
	SP_SEL_PARTITION,	/* -r */
	SP_SEL_STATE,		/* -s: names or sacct's abbreviations */
	SP_SEL_NAME,		/* --name: job names, exactly */
	SP_SEL_NODES,		/* -N: a hostlist; any node in common */
	SP_SEL_QOS,		/* -q */
	SP_SEL_CLUSTER,		/* -M: "all" selects every cluster */
	SP_SEL_JOBS,		/* -j: ids in every form sacct prints */
	SP_SEL_N
};

/*
 * The options themselves, as sp-fetch (which hands them to sacct) and
 * sp-select (which applies them to records) both take them: sacct's
 * letters, and its long names with their aliases.  A program puts
 * SP_SELECT_SHORTOPTS into its getopt string and SP_SELECT_OPTIONS into
 * its table, and answers 'j', 'u', 'A', 'r', 's', 'N', 'q', 'M',
 * SP_SEL_OPT_FAILED and SP_SEL_OPT_NAME.
 */
enum { SP_SEL_OPT_FAILED = 0x1800, SP_SEL_OPT_NAME };
#define SP_SELECT_SHORTOPTS "j:u:A:r:s:N:q:M:"
#define SP_SELECT_OPTIONS \
	{ "jobs", required_argument, NULL, 'j' }, \
	{ "user", required_argument, NULL, 'u' }, \
	{ "accounts", required_argument, NULL, 'A' }, \
	{ "account", required_argument, NULL, 'A' }, \
	{ "partition", required_argument, NULL, 'r' }, \
	{ "state", required_argument, NULL, 's' }, \
	{ "failed", no_argument, NULL, SP_SEL_OPT_FAILED }, \
	{ "name", required_argument, NULL, SP_SEL_OPT_NAME }, \
	{ "nodelist", required_argument, NULL, 'N' }, \
	{ "qos", required_argument, NULL, 'q' }, \
	{ "clusters", required_argument, NULL, 'M' }

/* The rest of sacct's window, as sp-fetch and slurmpast read it: every
 * user, the time window, every cluster, allocations (always so). */
#define SP_WINDOW_OPTIONS \
	{ "allusers", no_argument, NULL, 'a' }, \
	{ "all-users", no_argument, NULL, 'a' }, \
	{ "starttime", required_argument, NULL, 'S' }, \
	{ "since", required_argument, NULL, 'S' }, \
	{ "endtime", required_argument, NULL, 'E' }, \
	{ "until", required_argument, NULL, 'E' }, \
	{ "allclusters", no_argument, NULL, 'L' }, \
	{ "allocations", no_argument, NULL, 'X' }

struct sp_select {
	/* Each list in record form (escaped as the records are). */
	struct sp_names list[SP_SEL_N];
	int given[SP_SEL_N];
	int failed;		/* --failed: the states sp_job_failed names */
	/* --not-state (reportseff's, not sacct's): the states left out */
	struct sp_names not_state;
	int has_not_state;
	/* -S/-E (sp_select_window): civil seconds, as sp_parse_time. */
	int window;
	int has_since, has_until;
	int64_t since, until;
	struct sp_intern nodes;		/* -N's nodes, to look up */
	struct sp_jobspec jobs;		/* -j's ids (sp_jobspec) */
	struct sp_names scratch;	/* a record's nodes, while matching */
};

/*
 * Adds the values of one option (a comma list).  0, or -1 with a message
 * in err (an empty value, a state sacct does not know, a hostlist too
 * large).  Repeating an option adds to its list.
 */
int sp_select_add(struct sp_select *s, enum sp_select_opt opt,
		  const char *arg, struct sp_buf *err);
/*
 * -S and -E (either may be NULL), in sacct's time syntax:
 * YYYY-MM-DD[THH:MM[:SS]], MMDD[YY], MM/DD[/YY] and MM.DD[.YY] (the
 * year of now when none is given, YY as 20YY) each with [-HH:MM[:SS]],
 * HH:MM[:SS] (today), now[{+|-}N[seconds|minutes|hours|days|
 * weeks]], today, midnight, noon; now is this machine's civil time
 * (sp_civil_local).  A job is then selected as sacct selects it: one that
 * was eligible or running during the window; with -s, one that was in
 * the state during it (PENDING: waiting, RUNNING: running, any other:
 * ended in that state within it).  0, or -1 with a message in err.
 */
int sp_select_window(struct sp_select *s, const char *since,
		     const char *until, int64_t now, struct sp_buf *err);
/* A time in sacct's syntax (above) as civil seconds: 0, or -1. */
int sp_select_time(const char *spec, int64_t now, int64_t *out);

/*
 * --not-state: the jobs whose state is none of these (a comma list of
 * sacct's names or abbreviations, as -s), as reportseff takes it.  0, or
 * -1 with a message in err.
 */
int sp_select_not_state(struct sp_select *s, const char *arg,
			struct sp_buf *err);
/* --failed; with -s given, or -s after it, a usage error in err. */
int sp_select_failed(struct sp_select *s, struct sp_buf *err);
/* 1 when any option narrows the selection. */
int sp_select_any(const struct sp_select *s);

/*
 * The columns matching reads, set in c (every other one left as it is);
 * dies (exit 2) naming a column the selection needs and r lacks.
 */
void sp_select_columns(const struct sp_select *s, struct sp_jobcols *c,
		       const struct sp_reader *r);
/* 1 when the parsed record is selected. */
int sp_select_match(struct sp_select *s, const struct sp_job *j);

void sp_select_free(struct sp_select *s);

#endif
