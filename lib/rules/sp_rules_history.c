/*
 * sp_rules_history.c - the rules that read a workload's history: the
 * failures no single run shows.
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
#include "sp_rules_history.h"
#include "sp_suggest.h"

static int resolved(struct sp_draft *d, const struct sp_hist *h,
		    enum sp_flag f);

/* Adds the drafted finding about workload h. */
static void
add(struct sp_findings *out, struct sp_draft *d, const struct sp_hist *h,
    const char *code, enum sp_severity sev)
{
	struct sp_finding *f = sp_findings_add(out, code, sev, d);

	f->key = h->key;
	f->keylen = h->keylen;
}

/* The ids of a top-k list, best first or oldest first. */
static void
add_ids(struct sp_draft *d, const struct sp_topk *t, int by_order)
{
	struct sp_ref *v;
	size_t n = sp_topk_sorted(t, &v, by_order);

	for (size_t i = 0; i < n; i++)
		sp_draft_id(d, v[i].jobid);
	free(v);
}

static const char *
plural(double n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The most common state of a count table; a tie goes to the name that
 * sorts later (TIMEOUT over FAILED), so the choice never depends on order. */
static enum sp_state
dominant(const long *counts, int failed_only)
{
	enum sp_state best = SP_ST_OTHER;
	long n = -1;

	for (int s = 0; s < SP_ST_N; s++) {
		if (failed_only && !sp_state_failed((enum sp_state)s))
			continue;
		if (counts[s] > n || (counts[s] == n && counts[s] > 0 &&
		    strcmp(sp_state_name((enum sp_state)s),
			   sp_state_name(best)) > 0)) {
			best = (enum sp_state)s;
			n = counts[s];
		}
	}
	return best;
}

static void
repeat_failure(struct sp_findings *out, struct sp_draft *d,
	       const struct sp_hist *h, const struct sp_size_site *site)
{
	const struct sp_hist_more *m = sp_hist_more(h);
	struct sp_buf t = { 0 };
	long fails = 0, runs = h->runs, states[SP_ST_N];
	enum sp_state dom;
	double share;

	for (int s = 0; s < SP_ST_N; s++) {
		states[s] = h->states[s];
		if (sp_state_failed((enum sp_state)s))
			fails += states[s];
	}
	if (runs < SP_REPEAT_MIN_RUNS || fails < SP_REPEAT_MIN_FAILURES ||
	    fails < SP_REPEAT_MIN_SHARE * runs)
		return;
	share = (double)fails / runs;
	dom = dominant(states, 1);
	sp_buf_printf(&d->ev, "%ld of %ld runs failed; %ld %s %s.",
		      fails, runs, states[dom],
		      plural(states[dom], "was", "were"),
		      sp_state_name(dom));
	if (h->one_array == 1)
		sp_buf_printf(&d->ev, " All %ld are tasks of one array "
			      "(job %s).", runs, h->array0_master);
	if (dom == SP_ST_TIMEOUT && h->states[dom] == fails &&
	    !isnan(m->timeout_limit_min) &&
	    m->timeout_limit_min == m->timeout_limit_max) {
		sp_fmt_hms(&t, m->timeout_limit_max);
		sp_buf_printf(&d->ev, " Every one used the same "
			      "--time=%s.", sp_buf_str(&t));
	}
	if (m->fail_gpu_h > 1)
		sp_buf_printf(&d->ev, " The failures held %.1f "
			      "GPU-hours.", m->fail_gpu_h);

	if (m->fail_hung * 2 >= fails) {
		long other = fails - m->fail_hung;

		sp_buf_printf(&d->act, "%ld of these consumed under %.0f "
			      "CPU-seconds: they hung, and raising the limit "
			      "will not help; fix the blocking call (sp-hang "
			      "lists them).", m->fail_hung, SP_NOOP_MAX_CPU_S);
		if (other > 0) {
			sp_buf_printf(&d->act, " The other %ld did compute",
				      other);
			if (h->comp_timeouts > 0) {
				sp_buf_clear(&t);
				sp_fmt_hms(&t, h->comp_timeout_limit_s);
				sp_buf_printf(&d->act, "; the timeouts among "
					      "them were cut off at up to %s",
					      sp_buf_str(&t));
			}
			sp_buf_addc(&d->act, '.');
		}
	} else if (dom == SP_ST_TIMEOUT && h->comp_timeouts == 0) {
		/* A timeout of unknown cause may have hung: no raise. */
		sp_buf_adds(&d->act, "No timeout is known to have been "
			    "computing (no CPU time, total_cpu_s, in the record, "
			    "or too short to tell), so a longer --time may only "
			    "buy a longer hang: the runs' CPU time (sacct's "
			    "TotalCPU) or their logs tell which.");
	} else if (dom == SP_ST_TIMEOUT) {
		sp_buf_clear(&t);
		sp_fmt_hms(&t, h->comp_timeout_limit_s);
		sp_buf_printf(&d->act, "Raise --time above %s (sp-size "
			      "--time says by how much).", sp_buf_str(&t));
	} else if (dom == SP_ST_OUT_OF_MEMORY) {
		sp_buf_adds(&d->act, "Killed for memory: see the memory "
			    "finding and sp-size --mem.");
	} else if (h->one_array == 1) {
		sp_buf_adds(&d->act, "One array submission, not repeated "
			    "ones: reproduce a single task.");
	} else if (h->states[SP_ST_COMPLETED] > 0) {
		sp_buf_printf(&d->act, "Reproduce interactively. Not "
			      "deterministic: %ld of %ld runs completed; compare "
			      "them with the failures.",
			      states[SP_ST_COMPLETED], runs);
	} else if (site->missing & 1u << SP_COL_ARRAY) {
		/* Tasks of one array would be one submission, not repeats. */
		sp_buf_adds(&d->act, "Reproduce interactively. Whether the "
			    "runs are tasks of one array is unknown (the input "
			    "has no array_job), so whether the failure repeats "
			    "across submissions is too.");
	} else {
		sp_buf_adds(&d->act, "Stop resubmitting; the failure is "
			    "deterministic. Reproduce interactively.");
	}
	add_ids(d, &m->fail_ids, 0);
	if ((dom == SP_ST_OUT_OF_MEMORY && resolved(d, h, SP_FLAG_MEM)) ||
	    (dom == SP_ST_TIMEOUT && resolved(d, h, SP_FLAG_TIME)))
		add(out, d, h, "repeat-failure", SP_SEV_INFO);
	else
		add(out, d, h, "repeat-failure", share > SP_REPEAT_CRIT_SHARE
		    ? SP_SEV_CRITICAL : SP_SEV_WARNING);
	sp_buf_free(&t);
}

static int
by_first(const void *a, const void *b)
{
	const struct sp_oomsub *x = *(const struct sp_oomsub *const *)a;
	const struct sp_oomsub *y = *(const struct sp_oomsub *const *)b;

	return sp_order_cmp(&x->first, &y->first);
}

struct step {
	double limit_b;
	long n;
};

static void
walk_step(struct sp_buf *b, const struct step *s)
{
	if (b->len > 0)
		sp_buf_adds(b, " -> ");
	sp_mem_spell(b, s->limit_b);
	if (s->n > 1)
		sp_buf_printf(b, " x%ld", s->n);
}

static void
memory(struct sp_findings *out, struct sp_draft *d,
       const struct sp_hist *h, const struct sp_size_site *site)
{
	int arrays_unknown = (site->missing & 1u << SP_COL_ARRAY) != 0;
	const struct sp_hist_more *m = sp_hist_more(h);
	const struct sp_oomsub **v;
	const char *done = NULL;
	struct step *steps;
	size_t nsteps = 0, n = m->noomsubs;
	struct sp_buf walk = { 0 }, t = { 0 };
	int up = 1, down = 1;
	long contra;

	if (n < SP_MEMSEARCH_MIN_KILLS)
		return;
	v = sp_xcalloc(n, sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = &m->oomsubs[i];
	sp_sort(v, n, sizeof *v, by_first);
	steps = sp_xcalloc(n, sizeof *steps);
	for (size_t i = 0; i < n; i++) {
		if (nsteps > 0 && steps[nsteps - 1].limit_b == v[i]->limit_b) {
			steps[nsteps - 1].n++;
			continue;
		}
		if (nsteps > 0) {
			up &= v[i]->limit_b > steps[nsteps - 1].limit_b;
			down &= v[i]->limit_b < steps[nsteps - 1].limit_b;
		}
		steps[nsteps].limit_b = v[i]->limit_b;
		steps[nsteps++].n = 1;
	}
	for (size_t i = 0; i < nsteps; i++) {
		if (nsteps > SP_MEMWALK_MAX && i == SP_MEMWALK_HEAD) {
			sp_buf_printf(&walk, " -> ... %zu more ...",
				      nsteps - SP_MEMWALK_HEAD - SP_MEMWALK_TAIL);
			i = nsteps - SP_MEMWALK_TAIL - 1;
			continue;
		}
		walk_step(&walk, &steps[i]);
	}

	contra = sp_hist_contradiction(h, &done);
	if (nsteps > 1)
		sp_buf_printf(&d->ev, "%zu submissions were killed for "
			      "memory at %zu different --mem values, in order: "
			      "%s.", n, nsteps, sp_buf_str(&walk));
	else {
		sp_mem_spell(&t, steps[0].limit_b);
		sp_buf_printf(&d->ev, "%zu submissions were killed for "
			      "memory, all at --mem=%s; nothing changed between "
			      "them.", n, sp_buf_str(&t));
		sp_buf_clear(&t);
	}
	if (arrays_unknown)
		sp_buf_adds(&d->ev, " The input has no array_job: the tasks of "
			    "one array count here as submissions of their own.");
	if (contra >= 0 && arrays_unknown) {
		sp_mem_spell(&t, m->oomsubs[contra].limit_b);
		sp_buf_printf(&d->ev, " Job %s later completed at %s, a size "
			      "killed before (job %s).", done, sp_buf_str(&t),
			      m->oomsubs[contra].jobid);
		sp_buf_adds(&d->act, "If the two are tasks of one array, their "
			    "inputs differ; if not, memory is not the deciding "
			    "variable: find what else changed.");
		sp_draft_id(d, done);
	} else if (contra >= 0) {
		sp_mem_spell(&t, m->oomsubs[contra].limit_b);
		sp_buf_printf(&d->ev, " Job %s later COMPLETED at %s, a "
			      "size already killed (job %s).", done,
			      sp_buf_str(&t), m->oomsubs[contra].jobid);
		struct sp_advice adv = { 0 };

		sp_buf_adds(&d->act, "Memory is not the deciding variable: "
			    "find what else changed (workers, batch size, input "
			    "shard); ");
		/* The size is the advice's, so every screen names one. */
		sp_size_advise(h, site, SP_FLAG_MEM, &adv);
		if (sp_known(adv.target)) {
			sp_buf_clear(&t);
			sp_mem_spell(&t, adv.target);
			sp_buf_printf(&d->act, "no increment beyond %s, and "
				      "nothing below it: a smaller request "
				      "dies as the killed runs did.",
				      sp_buf_str(&t));
		} else {
			sp_buf_adds(&d->act, "no further increment.");
		}
		sp_advice_free(&adv);
		sp_draft_id(d, done);
	} else if (nsteps == 1) {
		sp_buf_adds(&d->act, "Measure the peak once (a live reading), "
			    "then set --mem from it; resubmitting unchanged will "
			    "be killed again.");
	} else if (up || down) {
		sp_mem_spell(&t, h->kill_limit_b);
		sp_buf_printf(&d->act, "Stop stepping: jump well past the "
			      "largest failure (%s), then tighten from a "
			      "measurement.", sp_buf_str(&t));
	} else {
		sp_buf_adds(&d->act, "The search moves both ways and is not "
			    "converging: measure the peak once with a live "
			    "reading instead of guessing.");
	}
	for (size_t i = 0; i < n; i++)
		sp_draft_id(d, v[i]->jobid);
	add(out, d, h, nsteps > 1 ? "memory-search" : "memory-unchanged",
	    contra >= 0 && !arrays_unknown ? SP_SEV_CRITICAL :
	    contra < 0 && resolved(d, h, SP_FLAG_MEM) ? SP_SEV_INFO :
	    SP_SEV_WARNING);
	free(v);
	free(steps);
	sp_buf_free(&walk);
	sp_buf_free(&t);
}

static void
requeue(struct sp_findings *out, struct sp_draft *d,
	const struct sp_hist *h)
{
	const struct sp_hist_more *m = sp_hist_more(h);
	long jobs = h->runs - (m->attempts - m->requeued);
	long abandoned = m->attempts - m->requeued;
	struct sp_buf t = { 0 };
	enum sp_state dom;

	if (m->requeued < SP_REQUEUE_MIN_JOBS ||
	    m->requeued < SP_REQUEUE_MIN_SHARE * jobs)
		return;
	dom = dominant(m->abandoned_states, 0);
	sp_fmt_duration(&t, m->abandoned_s);
	sp_buf_printf(&d->ev, "%ld of %ld jobs were requeued, %ld "
		      "attempts in all; %ld of the %ld abandoned attempts ended "
		      "%s; they ran %s.", m->requeued, jobs, m->attempts,
		      m->abandoned_states[dom], abandoned, sp_state_name(dom),
		      sp_buf_str(&t));
	if (dom == SP_ST_NODE_FAIL)
		sp_buf_adds(&d->act, "The node failed, not the job: see "
			    "sp-nodes for the machines.");
	else if (dom == SP_ST_PREEMPTED || dom == SP_ST_CANCELLED)
		sp_buf_adds(&d->act, "Queue policy: use a higher-priority "
			    "QOS, or checkpoint so that a requeue resumes.");
	else
		sp_buf_adds(&d->act, "Without a checkpoint a requeue starts "
			    "over: checkpoint, or find why it is requeued.");
	add_ids(d, &m->requeue_ids, 0);
	add(out, d, h, "requeue-repeat", SP_SEV_WARNING);
	sp_buf_free(&t);
}

/* The SP_PROBE_MAX newest single runs before the array began, in the
 * order they ran. */
static size_t
probes_before(const struct sp_hist *h, const struct sp_array *a,
	      struct sp_single **out)
{
	struct sp_single *v;
	size_t n = sp_singles_sorted(&h->singles, &v), k = 0, first = n;

	while (first > 0 && k < SP_PROBE_MAX) {
		first--;
		if (sp_order_cmp(&v[first].o, &a->first) < 0)
			k++;
	}
	*out = sp_xcalloc(SP_PROBE_MAX, sizeof **out);
	k = 0;
	for (size_t i = first; i < n; i++)
		if (sp_order_cmp(&v[i].o, &a->first) < 0)
			(*out)[k++] = v[i];
	free(v);
	return k;
}

static void
array_probes(struct sp_findings *out, struct sp_draft *d,
	     const struct sp_hist *h)
{
	const struct sp_hist_more *m = sp_hist_more(h);
	struct sp_buf t = { 0 };

	if (m->npop < SP_PROBE_MIN_POPULATION)
		return;
	for (size_t ai = 0; ai < m->narrays; ai++) {
		const struct sp_array *a = &m->arrays[ai];
		struct sp_single *p;
		size_t np, below = 0;
		double top = 0, popmax = 0, share;
	
		if (a->kills < SP_PROBE_MIN_KILLS)
			continue;
		np = probes_before(h, a, &p);
		for (size_t i = 0; i < np; i++)
			if (p[i].peak_b > top)
				top = p[i].peak_b;
		for (size_t i = 0; i < m->npop; i++) {
			below += m->pop[i] <= (float)top;
			if (m->pop[i] > popmax)
				popmax = m->pop[i];
		}
		share = (double)below / (double)m->npop;
		if (np == 0 || share > SP_PROBE_LOW_SHARE) {
			free(p);
			continue;
		}
		sp_buf_clear(&t);
		sp_mem_spell(&t, a->limit_b);
		sp_buf_printf(&d->ev, "Array %s (%ld tasks, --mem=%s) had "
			      "%ld killed for memory. Before it, %zu single %s "
			      "peaked at ", a->master, a->tasks,
			      sp_buf_str(&t), a->kills, np,
			      plural((double)np, "run", "runs"));
		for (size_t i = 0; i < np; i++) {
			if (i > 0)
				sp_buf_adds(&d->ev,
					    i + 1 == np ? " and " : ", ");
			sp_fmt_bytes(&d->ev, p[i].peak_b);
		}
		sp_buf_printf(&d->ev, ". Across the workload's %zu array "
			      "tasks (a killed task counts at its limit) the "
			      "highest probe is at or above only %zu (%.0f%%); "
			      "the tasks reach ", m->npop, below, share * 100);
		sp_fmt_bytes(&d->ev, popmax);
		sp_buf_addc(&d->ev, '.');
		sp_buf_adds(&d->act, "Size an array from its population, not "
			    "from a sample: run the largest inputs first, or "
			    "request above the population's peak");
		if (popmax > a->limit_b) {
			sp_buf_clear(&t);
			sp_mem_spell(&t, sp_suggest_mem(popmax));
			sp_buf_printf(&d->act, " (--mem=%s covers the largest "
				      "seen, x %.2f)", sp_buf_str(&t),
				      SP_MEM_MARGIN);
		}
		sp_buf_adds(&d->act, ". MaxRSS reads high; a live reading "
			    "of the largest task measures it.");
		sp_draft_id(d, a->master);
		for (size_t i = 0; i < np; i++)
			sp_draft_id(d, p[i].jobid);
		add(out, d, h, "array-probes", resolved(d, h, SP_FLAG_MEM) ?
		    SP_SEV_INFO : SP_SEV_WARNING);
		free(p);
	}
	sp_buf_free(&t);
}

static void
noop_allocations(struct sp_findings *out, struct sp_draft *d,
		 const struct sp_hist *h)
{
	const struct sp_hist_more *m = sp_hist_more(h);
	struct sp_buf t = { 0 };

	if (h->hang == 0)
		return;
	sp_fmt_hms(&t, SP_NOOP_MIN_ELAPSED_S);
	sp_buf_printf(&d->ev, "%ld of %ld %s ran over %s while "
		      "consuming under %.0f CPU-seconds", (long)h->hang,
		      (long)h->runs,
		      plural(h->runs, "run", "runs"), sp_buf_str(&t),
		      SP_NOOP_MAX_CPU_S);
	if (h->hang > 1 && m->hang_gpu_h > 0)
		sp_buf_printf(&d->ev, "; together they held %.1f "
			      "GPU-hours", m->hang_gpu_h);
	if (m->hang_short > 0) {
		sp_buf_clear(&t);
		sp_fmt_hms(&t, SP_NOOP_NOTICED_S);
		sp_buf_printf(&d->ev, "; %ld %s killed within %s, so "
			      "%s noticed: the cost is in the long ones",
			      m->hang_short, plural(m->hang_short, "was",
			      "were"), sp_buf_str(&t),
			      plural(m->hang_short, "it was", "they were"));
	}
	if (m->hang_io > 0)
		sp_buf_printf(&d->ev, "; %ld moved data fast enough to "
			      "explain the idle CPU", m->hang_io);
	sp_buf_addc(&d->ev, '.');
	sp_buf_adds(&d->act, "Find the blocking call (a data read, a lock, "
		    "a rendezvous, a prompt): sp-hang lists each allocation, "
		    "and sp-nodes tells whether a machine is to blame.");
	add_ids(d, &m->hangs, 0);
	add(out, d, h, "noop-allocations", SP_SEV_WARNING);
	sp_buf_free(&t);
}

static void
near_limit(struct sp_findings *out, struct sp_draft *d,
	   const struct sp_hist *h, const struct sp_size_site *site)
{
	const struct sp_hist_more *m = sp_hist_more(h);
	struct sp_buf t1 = { 0 }, t2 = { 0 }, t3 = { 0 };
	const struct sp_ref *w;
	struct sp_advice adv = { 0 };
	double req = h->req[SP_FLAG_TIME];

	if (m->near.n == 0)
		return;
	/* Already asked for enough room: the close call is history. */
	if (!isnan(req) && h->longest.a < (1 - SP_NEAR_LIMIT_SHARE) * req)
		return;
	w = sp_topk_best(&m->near);
	sp_fmt_duration(&t1, w->a);
	sp_fmt_hms(&t2, w->b);
	sp_fmt_duration(&t3, w->b - w->a);
	sp_buf_printf(&d->ev, "%ld completed %s finished within %.0f%% "
		      "of %s --time; job %s took %s of %s (%s to spare).",
		      m->near.seen, plural(m->near.seen, "run", "runs"),
		      SP_NEAR_LIMIT_SHARE * 100,
		      plural(m->near.seen, "its", "their"), w->jobid,
		      sp_buf_str(&t1), sp_buf_str(&t2), sp_buf_str(&t3));
	sp_size_advise(h, site, SP_FLAG_TIME, &adv);
	if (adv.verdict == SP_V_HOLD) {
		sp_buf_adds(&d->act, "Fix the hang first: the timeouts "
			    "computed nothing, and a longer limit buys a longer "
			    "hang; then size --time from the runs that "
			    "completed.");
	} else {
		sp_buf_adds(&d->act, "Raise --time before a slower run is "
			    "cut off");
		/* A keep carries a figure only when the newest run
		 * recorded no request, and that figure is the room. */
		if (adv.suggestion.len > 0)
			sp_buf_printf(&d->act, ": %s",
				      sp_buf_str(&adv.suggestion));
		sp_buf_addc(&d->act, '.');
	}
	sp_advice_free(&adv);
	add_ids(d, &m->near, 0);
	add(out, d, h, "near-limit", SP_SEV_WARNING);
	sp_buf_free(&t1);
	sp_buf_free(&t2);
	sp_buf_free(&t3);
}

/* ------------------------------------------------- changed requests */

/* "--mem 8G -> 16G on 2026-06-01": the change, and the day of the first
 * run at the new request when it is known. */
static void
change_head(struct sp_buf *b, const struct sp_change *c)
{
	struct sp_buf t = { 0 };

	sp_buf_printf(b, "%s ", sp_flag_name(c->flag));
	sp_suggest_spell(b, c->flag, c->before->value);
	sp_buf_adds(b, " -> ");
	sp_suggest_spell(b, c->flag, c->since->value);
	if (isfinite(c->since->first.when)) {
		sp_fmt_time(&t, (int64_t)c->since->first.when);
		sp_buf_printf(b, " on %.10s", sp_buf_str(&t));
	}
	sp_buf_free(&t);
}

/* What the flag's failure is called: "killed for memory", "timed out". */
static const char *
failed_as(enum sp_flag f)
{
	return f == SP_FLAG_MEM ? "killed for memory" : "timed out";
}

static void
change_ids(struct sp_draft *d, const struct sp_change *c)
{
	sp_draft_id(d, c->before->last_id);
	sp_draft_id(d, c->since->first_id);
	if (c->since->runs > 1)
		sp_draft_id(d, c->since->last_id);
}

/* "Restore --time=04:00:00, the request before the change." */
static void
restore(struct sp_buf *b, const struct sp_change *c)
{
	sp_buf_printf(b, "Restore %s=", sp_flag_name(c->flag));
	sp_suggest_spell(b, c->flag, c->before->value);
	sp_buf_printf(b, ", the request before the change (sp-size %s sizes "
		      "it from the runs).", sp_flag_name(c->flag));
}

static void
change_held(struct sp_draft *d, const struct sp_change *c)
{
	const struct sp_asked *b = c->before, *s = c->since;
	long nb = sp_change_telling(c->flag, b);

	change_head(&d->ev, c);
	sp_buf_printf(&d->ev, ": %ld %s since, none %s; %ld of %ld before "
		      "%s.", (long)s->runs, plural(s->runs, "run", "runs"),
		      failed_as(c->flag), nb, (long)b->runs,
		      c->flag == SP_FLAG_MEM ? plural(nb, "was", "were") :
		      "timed out while computing");
}

static void
change_hurt(struct sp_draft *d, const struct sp_change *c)
{
	const struct sp_asked *b = c->before, *s = c->since;
	long ns = sp_change_telling(c->flag, s);
	long nb = sp_change_telling(c->flag, b);

	change_head(&d->ev, c);
	sp_buf_printf(&d->ev, ": %ld of %ld %s since %s%s%s, ", ns,
		      (long)s->runs, plural(s->runs, "run", "runs"),
		      c->flag == SP_FLAG_MEM ? plural(ns, "was ", "were ") :
		      "", failed_as(c->flag), c->flag == SP_FLAG_TIME ?
		      " while computing" : "");
	if (nb == 0)
		sp_buf_printf(&d->ev, "none of %ld before.", (long)b->runs);
	else
		sp_buf_printf(&d->ev, "%ld of %ld before.", nb, (long)b->runs);
	restore(&d->act, c);
}

static void
change_no_effect(struct sp_draft *d, const struct sp_change *c)
{
	const struct sp_asked *b = c->before, *s = c->since;
	int mem = c->flag == SP_FLAG_MEM;

	change_head(&d->ev, c);
	sp_buf_printf(&d->ev, " did not stop the %s: %d of %d runs since %s"
		      "%s, as %d of %d before %s.",
		      mem ? "kills" : "timeouts", s->fails, s->runs,
		      mem ? plural(s->fails, "was ", "were ") : "",
		      failed_as(c->flag), b->fails, b->runs,
		      mem ? plural(b->fails, "was", "were") : "did");
	if (!mem && s->hung * 2 >= s->fails)
		sp_buf_printf(&d->act, "%d of the timeouts since computed "
			      "nothing: they hung, and no --time helps; fix "
			      "the blocking call (sp-hang lists them).",
			      s->hung);
	else if (!c->raise)
		restore(&d->act, c);
	else if (mem)
		sp_buf_adds(&d->act, "The step did not reach the peak: "
			    "measure it once (a live reading) and set --mem "
			    "from it, or find what else grows (workers, batch "
			    "size, input).");
	else
		sp_buf_adds(&d->act, "They still time out while computing: "
			    "size --time from the runs that completed "
			    "(sp-size --time), not by steps, or find what made "
			    "the work longer.");
}

/* What the newest change of --time and of --mem did, one finding each. */
static void
followup(struct sp_findings *out, struct sp_draft *d, const struct sp_hist *h)
{
	static const enum sp_flag flags[] = { SP_FLAG_TIME, SP_FLAG_MEM };

	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
		struct sp_change c;

		switch (sp_change_of(h->asked, flags[i], h->req[flags[i]],
				     &c)) {
		case SP_CHANGE_HELD:
			change_held(d, &c);
			change_ids(d, &c);
			add(out, d, h, "change-held", SP_SEV_INFO);
			break;
		case SP_CHANGE_HURT:
			change_hurt(d, &c);
			change_ids(d, &c);
			add(out, d, h, "change-hurt", SP_SEV_WARNING);
			break;
		case SP_CHANGE_NO_EFFECT:
			change_no_effect(d, &c);
			change_ids(d, &c);
			add(out, d, h, "change-no-effect", SP_SEV_WARNING);
			break;
		case SP_CHANGE_NONE:
			break;
		}
	}
}

/*
 * A finding about failures of flag f that a later change of f ended (a
 * raise that held): the draft says so ahead of its old evidence, and
 * loses its action.  Returns 1 when it did, and the finding is info.
 */
static int
resolved(struct sp_draft *d, const struct sp_hist *h, enum sp_flag f)
{
	struct sp_change c;
	struct sp_buf ev = { 0 };

	if (sp_change_of(h->asked, f, h->req[f], &c) != SP_CHANGE_HELD)
		return 0;
	sp_buf_adds(&ev, "Resolved by ");
	change_head(&ev, &c);
	sp_buf_printf(&ev, " (%d %s since, none %s). Found before the change: %s",
		      c.since->runs, plural(c.since->runs, "run", "runs"),
		      failed_as(f), sp_buf_str(&d->ev));
	sp_buf_clear(&d->ev);
	sp_buf_add(&d->ev, ev.p, ev.len);
	sp_buf_clear(&d->act);
	sp_buf_free(&ev);
	return 1;
}

void
sp_rules_history(struct sp_findings *out, const struct sp_hist *h,
		 const struct sp_size_site *site)
{
	struct sp_draft d = { 0 };

	if (sp_advice_indistinct(h, &d.ev)) {
		/* Runs that may be unrelated have no history to read. */
		sp_buf_clear(&d.ev);
		sp_buf_adds(&d.ev, "This key ");
		sp_advice_indistinct(h, &d.ev);
		sp_buf_addc(&d.ev, '.');
		sp_buf_adds(&d.act, "No finding across runs and no sizing: "
			    "fetch with JobName and User (sacct --format) to "
			    "group the runs into workloads; each job's own "
			    "findings still stand.");
		add(out, &d, h, "indistinct-runs", SP_SEV_INFO);
		sp_draft_free(&d);
		return;
	}
	repeat_failure(out, &d, h, site);
	memory(out, &d, h, site);
	requeue(out, &d, h);
	array_probes(out, &d, h);
	noop_allocations(out, &d, h);
	near_limit(out, &d, h, site);
	followup(out, &d, h);
	sp_draft_free(&d);
}

/*
 * The kinds, most telling first within a severity: a memory request
 * settled by trial and error before the others; the allocations that
 * computed nothing last, as every report already leads with them.
 */
static const char *const kind_order[] = { "memory-search",
	"memory-unchanged", "array-probes", "near-limit", "repeat-failure",
	"requeue-repeat", "noop-allocations", NULL };

void
sp_rules_history_sort(struct sp_findings *f)
{
	sp_findings_sort_by(f, 0, kind_order);
}
