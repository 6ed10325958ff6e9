/*
 * select.c - sacct's selection options over the records sp-fetch reads
 * from a dump or the demo (lib/record/sp_select: the same meaning sacct gives
 * them, the window included), and -j's exact ids over what sacct answers
 * (asked for an array's tasks, sacct answers the whole array).
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "sp.h"
#include "sp_units.h"
#include "fetch.h"
#include "demo.h"

static void
add(struct fetch_run *run, enum sp_select_opt opt, const char *v)
{
	struct sp_buf err = { 0 };

	if (v != NULL && sp_select_add(&run->sel, opt, v, &err) != 0)
		sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&err));
}

void
fetch_select_init(struct fetch_run *run, int fixed)
{
	const struct fetch_opts *o = run->o;
	struct sp_buf err = { 0 };

	memset(&run->sel, 0, sizeof run->sel);
	add(run, SP_SEL_JOBS, o->jobs);
	if (fixed) {
		add(run, SP_SEL_USER, o->user);
		add(run, SP_SEL_PARTITION, o->partition);
		add(run, SP_SEL_ACCOUNT, o->account);
		add(run, SP_SEL_STATE, o->state);
		add(run, SP_SEL_NAME, o->names);
		add(run, SP_SEL_NODES, o->nodes);
		add(run, SP_SEL_QOS, o->qos);
		if (!o->all_clusters)
			add(run, SP_SEL_CLUSTER, o->clusters);
		if (o->failed && sp_select_failed(&run->sel, &err) != 0)
			sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&err));
		if ((o->since || o->until) && sp_select_window(&run->sel,
		    o->since, o->until, o->demo ? sp_demo_now() :
		    sp_civil_local((int64_t)time(NULL)), &err) != 0)
			sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&err));
	}
	run->selecting = sp_select_any(&run->sel);
}

/* The text columns matching reads, and where each is in the record. */
static const int texts[] = {
	SP_JC_jobid, SP_JC_jobid_raw, SP_JC_array_job, SP_JC_array_task,
	SP_JC_step, SP_JC_name, SP_JC_user, SP_JC_account, SP_JC_partition,
	SP_JC_qos, SP_JC_cluster, SP_JC_state, SP_JC_nodelist
};
#define NTEXTS (sizeof texts / sizeof texts[0])

static void
when(struct sp_slice s, int64_t *t, int *known)
{
	*known = sp_parse_time(s.p, s.n, t) == SP_VAL_OK;
}

/*
 * The record as a later stage would parse it: text in record form (a
 * field holding a TAB or newline escaped, as the selection's values are),
 * the times parsed.
 */
static void
as_job(struct fetch_run *run, const struct sp_sacct_rec *rec,
       struct sp_job *j)
{
	struct sp_slice v[NTEXTS];
	size_t off[NTEXTS], i;

	sp_buf_clear(&run->enc);
	for (i = 0; i < NTEXTS; i++) {
		struct sp_slice t = rec->text[texts[i]];

		v[i] = t;
		off[i] = (size_t)-1;
		if (sp_field_clean_len(t.p, t.n) != t.n) {
			off[i] = run->enc.len;
			sp_field_encode(&run->enc, t.p, t.n);
			v[i].n = run->enc.len - off[i];
		}
	}
	for (i = 0; i < NTEXTS; i++)
		if (off[i] != (size_t)-1)
			v[i].p = run->enc.p + off[i];
	memset(j, 0, sizeof *j);
	j->jobid = v[0];
	j->jobid_raw = v[1];
	j->array_job = v[2];
	j->array_task = v[3];
	j->step = v[4];
	j->name = v[5];
	j->user = v[6];
	j->account = v[7];
	j->partition = v[8];
	j->qos = v[9];
	j->cluster = v[10];
	j->state = v[11];
	j->nodelist = v[12];
	j->uid = rec->num[SP_JC_uid];
	j->open = rec->num[SP_JC_open];
	j->elapsed_s = rec->num[SP_JC_elapsed_s];
	when(rec->text[SP_JC_submit], &j->submit_t, &j->submit_known);
	when(rec->text[SP_JC_eligible], &j->eligible_t, &j->eligible_known);
	when(rec->text[SP_JC_start], &j->start_t, &j->start_known);
	when(rec->text[SP_JC_end], &j->end_t, &j->end_known);
}

int
fetch_selected(struct fetch_run *run, const struct sp_sacct_rec *rec)
{
	struct sp_job j;

	if (!run->selecting)
		return 1;
	/* A step goes with its allocation; -j may name one step of it. */
	if (rec->text[SP_JC_step].n > 0) {
		if (!run->alloc_kept)
			return 0;
		if (!run->sel.given[SP_SEL_JOBS])
			return 1;
		as_job(run, rec, &j);
		return sp_jobspec_match(&run->sel.jobs, &j, NULL);
	}
	as_job(run, rec, &j);
	run->alloc_kept = sp_select_match(&run->sel, &j);
	if (!run->alloc_kept)
		run->unselected++;
	return run->alloc_kept;
}

void
fetch_select_free(struct fetch_run *run)
{
	sp_select_free(&run->sel);
	sp_buf_free(&run->enc);
}
