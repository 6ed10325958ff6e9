/*
 * sp_rules_live.c - what a running job says before it ends
 * (sp_rules_live.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_util.h"
#include "sp_const.h"
#include "sp_units.h"
#include "sp_hostlist.h"
#include "sp_stats.h"
#include "sp_record.h"
#include "sp_state.h"
#include "sp_job.h"
#include "sp_suggest.h"
#include "sp_rules_live.h"

/* At least this many completed runs make a workload's "usual". */
#define USUAL_MIN_RUNS	SP_SIZE_MIN_RUNS

struct live_ctx {
	struct sp_findings *out;
	const struct sp_job *j;
	const struct sp_live *l;
	const struct sp_hist *h;	/* NULL: no usable history */
	const struct sp_size_site *site;
	struct sp_draft d;
	struct sp_words w;
	struct sp_buf id;		/* the job's id, as text */
	struct sp_advice a;
};

static const char *
plural(double n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void
add(struct live_ctx *c, const char *code, enum sp_severity sev)
{
	struct sp_finding *f;

	sp_draft_id(&c->d, sp_buf_str(&c->id));
	f = sp_findings_add(c->out, code, sev, &c->d);
	f->key = c->j->workload_key.p;
	f->keylen = c->j->workload_key.n;
}

/* The live figures' moment, for evidence: " (live, read at T)". */
static void
read_at(struct live_ctx *c, struct sp_buf *b)
{
	sp_buf_adds(b, " (live, read at ");
	sp_buf_add(b, c->l->at.p, c->l->at.n);
	sp_buf_adds(b, ")");
}

/*
 * The workload's advice for a flag into c->a; 1 when its target asks
 * more than this job's limit.
 */
static int
asks_more(struct live_ctx *c, enum sp_flag flag, double limit)
{
	return c->h != NULL &&
	       sp_size_advise(c->h, c->site, flag, &c->a) == 0 &&
	       sp_known(c->a.target) && c->a.target > limit;
}

/* The next submission's line for the memory the workload's advice
 * asks, when more than this job's limit; empty otherwise. */
static const char *
next_mem(struct live_ctx *c, double limit)
{
	return asks_more(c, SP_FLAG_MEM, limit) && c->a.sbatch.len > 0 ?
	       sp_buf_str(&c->a.sbatch) : "";
}

/* Memory and CPU so far, and when read. */
static void
live_so_far(struct live_ctx *c, struct sp_buf *ev)
{
	const struct sp_job *j = c->j;
	const struct sp_live *l = c->l;
	double cores = sp_job_cores(j), limit_b = j->mem_limit_node_b;

	sp_buf_printf(ev, "; memory %s", sp_bytes(&c->w, l->rss_b));
	if (sp_positive(limit_b) && sp_known(l->rss_b))
		sp_buf_printf(ev, " of its %s limit (%s)",
			      sp_bytes(&c->w, limit_b),
			      sp_pct(&c->w, l->rss_b / limit_b));
	if (l->step.n > 0) {
		sp_buf_adds(ev, " in step ");
		sp_buf_add(ev, l->step.p, l->step.n);
	}
	sp_buf_printf(ev, "; CPU %s so far", sp_dur(&c->w, l->cpu_s));
	if (sp_positive(cores) && sp_positive(j->elapsed_s) &&
	    sp_known(l->cpu_s))
		sp_buf_printf(ev, " on %g %s (%s busy)", cores,
			      plural(cores, "core", "cores"),
			      sp_pct(&c->w, l->cpu_s / (cores * j->elapsed_s)));
	read_at(c, ev);
}

static void
job_so_far(struct live_ctx *c)
{
	const struct sp_job *j = c->j;
	const struct sp_live *l = c->l;
	struct sp_buf *ev = &c->d.ev;

	sp_buf_printf(ev, "running for %s", sp_dur(&c->w, j->elapsed_s));
	if (sp_positive(j->timelimit_s) && sp_known(j->elapsed_s))
		sp_buf_printf(ev, " of its %s limit (%s), %s left",
			      sp_dur(&c->w, j->timelimit_s),
			      sp_pct(&c->w, j->elapsed_s / j->timelimit_s),
			      sp_dur(&c->w, j->timelimit_s > j->elapsed_s ?
				     j->timelimit_s - j->elapsed_s : 0));
	if (!l->fetched) {
		sp_buf_adds(ev, "; no live figures: read without sp-fetch "
			    "--live");
	} else if (!l->known) {
		sp_buf_adds(ev, "; no live figures: ");
		sp_buf_add(ev, l->why.p, l->why.n);
	} else {
		live_so_far(c, ev);
	}
	add(c, "running", SP_SEV_INFO);
}

/* The live reading only: a history of kills at this size is live-oom's. */
static void
near_mem(struct live_ctx *c)
{
	const struct sp_live *l = c->l;
	double limit = c->j->mem_limit_node_b;
	const char *next;

	if (!l->known || !sp_known(l->rss_b) || !sp_positive(limit) ||
	    l->rss_b < SP_LIVE_NEAR_MEM_SHARE * limit)
		return;
	sp_buf_printf(&c->d.ev, "its memory is %s, %s of its %s limit",
		      sp_bytes(&c->w, l->rss_b),
		      sp_pct(&c->w, l->rss_b / limit),
		      sp_bytes(&c->w, limit));
	read_at(c, &c->d.ev);
	sp_buf_adds(&c->d.act, "it may be killed for memory before it "
		    "ends; a memory limit cannot be raised while it runs");
	next = next_mem(c, limit);
	if (*next)
		sp_buf_printf(&c->d.act, "; the next submission: %s", next);
	add(c, "live-near-mem", SP_SEV_WARNING);
}

static void
noop(struct live_ctx *c)
{
	const struct sp_job *j = c->j;
	const struct sp_live *l = c->l;
	double gpus = sp_job_gpus(j);

	if (!l->known || !sp_noop(j->elapsed_s, l->cpu_s))
		return;
	sp_buf_printf(&c->d.ev, "running for %s with %s of CPU so far",
		      sp_dur(&c->w, j->elapsed_s), sp_dur(&c->w, l->cpu_s));
	if (sp_positive(gpus))
		sp_buf_printf(&c->d.ev, ", holding %g %s", gpus,
			      plural(gpus, "GPU", "GPUs"));
	read_at(c, &c->d.ev);
	if (c->h != NULL && c->h->noop > 0)
		sp_buf_printf(&c->d.ev, "; %d earlier %s of its workload "
			      "computed nothing", (int)c->h->noop,
			      plural(c->h->noop, "run", "runs"));
	sp_buf_printf(&c->d.act, "look at what it waits for (its output, "
		      "a lock, a peer, input); if it is stuck, scancel %s",
		      sp_buf_str(&c->id));
	add(c, "live-noop", sp_positive(gpus) ? SP_SEV_CRITICAL :
	    SP_SEV_WARNING);
}

static void
outlive(struct live_ctx *c)
{
	const struct sp_job *j = c->j;
	const struct sp_hist *h = c->h;
	double limit = j->timelimit_s, want;
	size_t over = 0;

	if (h == NULL || h->ndone == 0 || !sp_positive(limit))
		return;
	for (size_t i = 0; i < h->ndone; i++)
		over += h->done_s[i] > limit;
	if (over == 0)
		return;
	sp_buf_printf(&c->d.ev, "%zu of its workload's %zu completed %s "
		      "took longer than its %s limit (the longest %s",
		      over, h->ndone, plural((double)h->ndone, "run",
		      "runs"), sp_dur(&c->w, limit),
		      sp_dur(&c->w, h->longest.a));
	if (h->longest.jobid)
		sp_buf_printf(&c->d.ev, ", job %s", h->longest.jobid);
	sp_buf_adds(&c->d.ev, ")");
	if (sp_known(j->elapsed_s))
		sp_buf_printf(&c->d.ev, "; %s left", sp_dur(&c->w,
			      limit > j->elapsed_s ? limit - j->elapsed_s :
			      0));
	/* The advice's figure (longest + margin) even when it keeps the
	 * workload's newest request: this job asked less. */
	want = asks_more(c, SP_FLAG_TIME, limit) ? c->a.target :
	       h->longest.a;
	sp_buf_printf(&c->d.act, "an administrator can give it the time "
		      "now (scontrol update JobId=%s TimeLimit=%s; a user "
		      "may only lower a limit)", sp_buf_str(&c->id),
		      sp_hms(&c->w, want));
	sp_buf_printf(&c->d.act, "; the next submission: #SBATCH --time=%s",
		      sp_hms(&c->w, want));
	add(c, "live-outlive", 2 * over > h->ndone ? SP_SEV_CRITICAL :
	    SP_SEV_WARNING);
}

static void
oom(struct live_ctx *c)
{
	const struct sp_hist *h = c->h;
	double limit = c->j->mem_limit_node_b;
	int killed, above;
	const char *next;

	if (h == NULL || !sp_positive(limit))
		return;
	killed = h->kills > 0 && sp_known(h->kill_limit_b) &&
		 h->kill_limit_b >= limit;
	above = sp_known(h->peak.a) && h->peak.a > limit;
	if (!killed && !above)
		return;
	if (killed)
		sp_buf_printf(&c->d.ev, "its workload was killed for memory "
			      "%d %s, at limits up to %s; this job's limit "
			      "is %s", (int)h->kills,
			      plural(h->kills, "time", "times"),
			      sp_bytes(&c->w, h->kill_limit_b),
			      sp_bytes(&c->w, limit));
	else
		sp_buf_printf(&c->d.ev, "a run of its workload%s%s peaked at "
			      "%s, above this job's %s limit",
			      h->peak.jobid ? " (job " : "",
			      h->peak.jobid ? h->peak.jobid : "",
			      sp_bytes(&c->w, h->peak.a),
			      sp_bytes(&c->w, limit));
	sp_buf_adds(&c->d.act, "it will likely be killed for memory; a "
		    "memory limit cannot be raised while it runs");
	next = next_mem(c, limit);
	if (*next)
		sp_buf_printf(&c->d.act, "; resubmit with %s", next);
	add(c, "live-oom", killed ? SP_SEV_CRITICAL : SP_SEV_WARNING);
}

static void
past_usual(struct live_ctx *c)
{
	const struct sp_job *j = c->j;
	const struct sp_live *l = c->l;
	const struct sp_hist *h = c->h;
	int time_past, mem_past;

	if (h == NULL || h->ndone < USUAL_MIN_RUNS)
		return;
	time_past = sp_known(j->elapsed_s) && sp_known(h->longest.a) &&
		    j->elapsed_s > h->longest.a;
	mem_past = l->known && sp_known(l->rss_b) && sp_known(h->peak.a) &&
		   h->peak.a > 0 && l->rss_b > h->peak.a;
	if (!time_past && !mem_past)
		return;
	if (time_past)
		sp_buf_printf(&c->d.ev, "running for %s, longer than any of "
			      "its workload's %zu completed runs (the longest "
			      "%s)", sp_dur(&c->w, j->elapsed_s), h->ndone,
			      sp_dur(&c->w, h->longest.a));
	if (mem_past) {
		sp_buf_printf(&c->d.ev, "%smemory %s, above every peak of "
			      "its workload (the largest %s)",
			      time_past ? "; " : "",
			      sp_bytes(&c->w, l->rss_b),
			      sp_bytes(&c->w, h->peak.a));
		read_at(c, &c->d.ev);
	}
	sp_buf_adds(&c->d.act, "compare it with its workload's earlier "
		    "runs: a larger input, or a run that no longer "
		    "converges");
	add(c, "live-past-usual", SP_SEV_WARNING);
}

void
sp_rules_live(struct sp_findings *out, const struct sp_job *j,
	      const struct sp_live *l, const struct sp_hist *h,
	      const struct sp_size_site *site, int so_far)
{
	struct live_ctx c;

	memset(&c, 0, sizeof c);
	c.out = out;
	c.j = j;
	c.l = l;
	c.h = h != NULL && h->runs > 0 ? h : NULL;
	c.site = site;
	sp_buf_add(&c.id, j->jobid.p, j->jobid.n);
	if (so_far)
		job_so_far(&c);
	near_mem(&c);
	noop(&c);
	outlive(&c);
	oom(&c);
	past_usual(&c);
	sp_draft_free(&c.d);
	sp_words_free(&c.w);
	sp_buf_free(&c.id);
	sp_advice_free(&c.a);
}

void
sp_rules_live_in(struct sp_findings *out, const struct sp_job *j,
		 const struct sp_live *l, struct sp_histset *set,
		 const struct sp_site *s, int so_far)
{
	const struct sp_hist *h = NULL;
	struct sp_size_site site;
	long wl = -1;

	if (set != NULL)
		wl = sp_histset_lookup(set, j->workload_key.p,
				       j->workload_key.n);
	if (wl >= 0)
		h = sp_histset_hist(set, (size_t)wl);
	if (h != NULL)
		sp_size_site_of(s, h, &site);
	else
		sp_size_site_unknown(&site);
	/* A verdict that needs a column the input lacks says so. */
	if (set != NULL) {
		site.missing = set->missing;
		site.empty = set->empty;
	}
	sp_rules_live(out, j, l, h, &site, so_far);
}
