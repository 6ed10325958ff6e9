/*
 * sp_select.c - sacct's selection options, matched against job records
 * as sacct matches them against its database.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sp.h"
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

const char *
sp_select_opt_name(enum sp_select_opt opt)
{
	return opt_names[opt];
}

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

int
sp_select_any(const struct sp_select *s)
{
	if (s->failed)
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
	if (s->failed)
		need(c, r, "state");
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

int
sp_select_match(struct sp_select *s, const struct sp_job *j)
{
	const struct sp_names *l = s->list;

	if (s->failed && !sp_job_failed(j))
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
	if (s->given[SP_SEL_STATE] &&
	    !in_list(&l[SP_SEL_STATE], j->state.p, j->state.n))
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
	sp_intern_free(&s->nodes);
	sp_jobspec_free(&s->jobs);
}
