/*
 * replay.c - each workload's runs in the order they were submitted, each
 * judged on the advice its workload's earlier runs gave.
 *
 * The history the advice reads (sp_hist) only ever grows, so it is
 * grown run by run as the runs end, never rebuilt: a workload of n runs
 * costs two sorts and n additions, and an advice only when a run ended
 * since the last one was asked (the tasks of an array, submitted
 * together, share one).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_backtest.h"
#include "sp_const.h"
#include "sp_hist.h"
#include "sp_state.h"
#include "sp_units.h"

static const char *const policy_names[SP_BT_POLICY_N] = {
	"advice", "requested", "rule"
};
static const char *const level_names[SP_BT_LEVEL_N] = {
	"3", "4-5", "6-10", "11+", "all"
};

const char *
sp_bt_flag_text(enum sp_bt_flag f)
{
	return f == SP_BT_TIME ? "--time" : "--mem";
}

const char *
sp_bt_policy_name(enum sp_bt_policy p)
{
	return policy_names[p];
}

const char *
sp_bt_level_name(int level)
{
	return level_names[level];
}

static int
level_of(long before)
{
	return before <= 3 ? 0 : before <= 5 ? 1 : before <= 10 ? 2 : 3;
}

/* What a run says about a flag: the need it showed by ending on its own,
 * or the limit it was killed at. */
enum outcome { OUT_NONE, OUT_NEED, OUT_KILLED };

static enum outcome
outcome_of(const struct sp_run *r, enum sp_bt_flag f, double *x)
{
	int own_end = r->st == SP_ST_COMPLETED || r->st == SP_ST_FAILED;

	if (f == SP_BT_TIME) {
		if (own_end) {
			*x = r->elapsed_s;
			return OUT_NEED;
		}
		if (r->st == SP_ST_TIMEOUT) {
			/* Cut at its limit; the elapsed time is that limit
			 * where the record has none. */
			*x = sp_positive(r->timelimit_s) ? r->timelimit_s :
			    r->elapsed_s;
			return OUT_KILLED;
		}
		return OUT_NONE;
	}
	if (own_end && sp_known(r->rss_b) && sp_known(r->limit_b) &&
	    r->rss_b <= r->limit_b) {
		*x = r->rss_b;
		return OUT_NEED;
	}
	if (r->st == SP_ST_OUT_OF_MEMORY && sp_known(r->limit_b)) {
		*x = r->limit_b;
		return OUT_KILLED;
	}
	return OUT_NONE;
}

/* One judgement of limit on run r into t. */
static void
judge(struct sp_bt_tally *t, const struct sp_run *r, enum sp_bt_flag f,
      enum outcome o, double x, double limit, long before)
{
	t->judged++;
	if (before > t->most_before)
		t->most_before = before;
	if (!sp_known(limit)) {
		t->no_figure++;
		return;
	}
	if (o == OUT_KILLED) {
		if (limit <= x)
			t->killed_again++;
		else
			t->given_room++;
		return;
	}
	if (x > limit)
		t->cut_off++;
	if (x > 0) {
		t->over_n++;
		t->over_log += log(limit / x);
	}
	if (f == SP_BT_MEM && limit > x && r->elapsed_s > 0)
		t->unused_gib_h += (limit - x) / SP_GIB * r->elapsed_s /
		    3600.0 * (sp_positive(r->nodes) ? r->nodes : 1);
}

static void
tally_add(struct sp_bt_tally *to, const struct sp_bt_tally *t)
{
	to->workloads += t->workloads;
	to->judged += t->judged;
	to->cut_off += t->cut_off;
	to->killed_again += t->killed_again;
	to->given_room += t->given_room;
	to->no_figure += t->no_figure;
	to->over_n += t->over_n;
	to->over_log += t->over_log;
	to->unused_gib_h += t->unused_gib_h;
	if (t->most_before > to->most_before)
		to->most_before = t->most_before;
}

void
sp_bt_write_tally(struct sp_writer *w, const struct sp_bt_tally *t, enum sp_bt_flag f)
{
	sp_writer_int(w, t->judged);
	sp_writer_int(w, t->cut_off);
	sp_writer_int(w, t->killed_again);
	sp_writer_int(w, t->given_room);
	sp_writer_int(w, t->no_figure);
	sp_writer_num(w, t->over_n > 0 ? exp(t->over_log / (double)t->over_n) :
		      NAN);
	/* Time reserves no memory: not zero, not a figure. */
	sp_writer_num(w, f == SP_BT_MEM && t->judged > 0 ? t->unused_gib_h : NAN);
}

/* ------------------------------------------------------------ one workload */

static int
by_submit(const void *a, const void *b)
{
	const struct sp_bt_run *x = *(const struct sp_bt_run *const *)a;
	const struct sp_bt_run *y = *(const struct sp_bt_run *const *)b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
by_end(const void *a, const void *b)
{
	const struct sp_bt_run *x = *(const struct sp_bt_run *const *)a;
	const struct sp_bt_run *y = *(const struct sp_bt_run *const *)b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The replay's state for one workload: the earlier runs' history and
 * what the naive rule reads of them. */
struct wl_state {
	struct sp_hist h;
	double longest_done;		/* the rule's: NaN none */
	double top_peak;
	int dirty;			/* a run was added since the advice */
	double advice[SP_BT_FLAG_N];
};

static void
add_earlier(struct wl_state *s, const struct sp_run *r)
{
	double x;

	sp_hist_add_run(&s->h, r);
	s->dirty = 1;
	if (outcome_of(r, SP_BT_TIME, &x) == OUT_NEED &&
	    r->st == SP_ST_COMPLETED && !(s->longest_done >= x))
		s->longest_done = x;
	if (outcome_of(r, SP_BT_MEM, &x) == OUT_NEED && !(s->top_peak >= x))
		s->top_peak = x;
}

/* The limit each policy gives run r for flag f. */
static double
policy_limit(struct wl_state *s, const struct sp_run *r, enum sp_bt_flag f,
	     enum sp_bt_policy p)
{
	switch (p) {
	case SP_BT_ADVICE:
		return s->advice[f];
	case SP_BT_REQUESTED:
		if (f == SP_BT_TIME)
			return sp_positive(r->timelimit_s) ? r->timelimit_s :
			    NAN;
		return sp_positive(r->limit_b) ? r->limit_b : NAN;
	case SP_BT_RULE:
		return f == SP_BT_TIME ? s->longest_done * SP_BACKTEST_RULE_TIME :
		    s->top_peak * SP_BACKTEST_RULE_MEM;
	default:
		return NAN;
	}
}

static void
write_workload(struct sp_bt_out *out, const char *key,
	       struct sp_bt_tally t[SP_BT_FLAG_N][SP_BT_POLICY_N])
{
	for (int f = 0; f < SP_BT_FLAG_N; f++) {
		if (!out->flags[f])
			continue;
		for (int p = 0; p < SP_BT_POLICY_N; p++) {
			sp_writer_str(out->w, key);
			sp_writer_str(out->w, sp_bt_flag_text((enum sp_bt_flag)f));
			sp_writer_str(out->w, policy_names[p]);
			if (t[f][p].most_before > 0)
				sp_writer_int(out->w, t[f][p].most_before);
			else
				sp_writer_empty(out->w);
			sp_bt_write_tally(out->w, &t[f][p], (enum sp_bt_flag)f);
			sp_writer_end(out->w);
		}
	}
}

static void
replay_one(struct sp_bt_run **sub, struct sp_bt_run **end, size_t n,
	   size_t wl, const char *key, const struct sp_size_site *site,
	   struct sp_pool *pool, struct sp_pick pick[SP_BT_FLAG_N],
	   struct sp_bt_out *out)
{
	static const enum sp_flag as_sp[SP_BT_FLAG_N] = { SP_FLAG_TIME,
						       SP_FLAG_MEM };
	struct sp_bt_tally t[SP_BT_FLAG_N][SP_BT_POLICY_N];
	struct sp_bt_tally lv[SP_BT_FLAG_N][SP_BT_POLICY_N][SP_BT_LEVEL_N];
	struct wl_state s;
	size_t e = 0;

	memset(t, 0, sizeof t);
	memset(lv, 0, sizeof lv);
	memset(&s, 0, sizeof s);
	sp_hist_init(&s.h, pool, key, strlen(key));
	s.longest_done = s.top_peak = NAN;
	sp_sort(sub, n, sizeof *sub, by_submit);
	sp_sort(end, n, sizeof *end, by_end);
	for (size_t i = 0; i < n; i++) {
		const struct sp_bt_run *run = sub[i];
		long before;

		/* Only what had ended when this run was submitted. */
		while (e < n && end[e]->end < run->submit)
			add_earlier(&s, &end[e++]->r);
		before = s.h.runs;
		if (before < SP_BACKTEST_MIN_BEFORE)
			continue;
		if (s.dirty) {
			for (int f = 0; f < SP_BT_FLAG_N; f++)
				if (out->flags[f])
					s.advice[f] = sp_pick(&s.h, site, NULL,
					    as_sp[f], &pick[f]);
			s.dirty = 0;
		}
		for (int f = 0; f < SP_BT_FLAG_N; f++) {
			double x;
			enum outcome o;

			if (!out->flags[f])
				continue;
			o = outcome_of(&run->r, (enum sp_bt_flag)f, &x);
			if (o == OUT_NONE)
				continue;
			for (int p = 0; p < SP_BT_POLICY_N; p++) {
				struct sp_bt_tally one = { 0 };
				double lim = policy_limit(&s, &run->r,
				    (enum sp_bt_flag)f, (enum sp_bt_policy)p);

				judge(&one, &run->r, (enum sp_bt_flag)f, o, x, lim,
				      before);
				if (!out->have_first ||
				    run->submit < out->first_judged) {
					out->have_first = 1;
					out->first_judged = run->submit;
				}
				tally_add(&t[f][p], &one);
				tally_add(&lv[f][p][level_of(before)], &one);
				tally_add(&lv[f][p][SP_BT_LEVEL_N - 1], &one);
			}
		}
	}
	sp_hist_free(&s.h);
	/* The levels, and how many workloads each rests on. */
	for (int f = 0; f < SP_BT_FLAG_N; f++)
		for (int p = 0; p < SP_BT_POLICY_N; p++)
			for (int l = 0; l < SP_BT_LEVEL_N; l++) {
				lv[f][p][l].workloads = lv[f][p][l].judged > 0;
				tally_add(&out->level[f][p][l], &lv[f][p][l]);
			}
	if (out->keep_wl)
		for (int f = 0; f < SP_BT_FLAG_N; f++)
			out->wl[wl * SP_BT_FLAG_N + (size_t)f] =
			    t[f][SP_BT_ADVICE];
	if (!out->summary && out->w != NULL)
		write_workload(out, key, t);
}

void
sp_bt_replay(struct sp_bt_input *in, const struct sp_site *site,
	  struct sp_bt_out *out)
{
	size_t nwl = in->keys.n;
	size_t *start = sp_xcalloc(nwl + 1, sizeof *start);
	struct sp_bt_run **sub = sp_xcalloc(in->n + 1, sizeof *sub);
	struct sp_bt_run **end = sp_xcalloc(in->n + 1, sizeof *end);
	struct sp_pick pick[SP_BT_FLAG_N];
	struct sp_pool pool = { 0 };

	memset(pick, 0, sizeof pick);
	if (out->keep_wl) {
		out->nwl = nwl;
		out->wl = sp_xcalloc(nwl * SP_BT_FLAG_N + 1, sizeof *out->wl);
	}
	for (int f = 0; f < SP_BT_FLAG_N; f++)
		pick[f].adv.figure_only = 1;
	/* The runs by workload, in the order they were read (a counting
	 * sort: no comparison of keys). */
	for (size_t i = 0; i < in->n; i++)
		start[in->v[i].wl + 1]++;
	for (size_t k = 0; k < nwl; k++)
		start[k + 1] += start[k];
	for (size_t i = 0; i < in->n; i++) {
		size_t at = start[in->v[i].wl]++;

		sub[at] = end[at] = &in->v[i];
	}
	for (size_t k = nwl; k > 0; k--)
		start[k] = start[k - 1];
	start[0] = 0;
	for (size_t k = 0; k < nwl; k++) {
		size_t n = start[k + 1] - start[k];
		const char *key = sp_intern_str(&in->keys, k);
		struct sp_hist probe;
		struct sp_size_site ss;

		/* With too few runs for any to have 3 before it, its records
		 * say it had none to judge. */
		/* The site's facts for the workload's partition, as sp-size
		 * finds them: from its key. */
		sp_hist_init(&probe, &pool, key, strlen(key));
		sp_size_site_of(site, &probe, &ss);
		sp_hist_free(&probe);
		ss.missing = in->missing;
		replay_one(sub + start[k], end + start[k], n, k, key, &ss, &pool,
			   pick, out);
	}
	for (int f = 0; f < SP_BT_FLAG_N; f++)
		sp_pick_free(&pick[f]);
	sp_pool_free(&pool);
	free(start);
	free(sub);
	free(end);
}

void
sp_bt_risks_run(struct sp_bt_risks *rk, const struct sp_site *site,
		unsigned missing)
{
	struct sp_bt_out *out = &rk->out;

	memset(out, 0, sizeof *out);
	out->flags[SP_BT_TIME] = out->flags[SP_BT_MEM] = 1;
	out->summary = 1;
	out->keep_wl = 1;
	rk->in.missing = missing;
	sp_bt_replay(&rk->in, site, out);
}

void
sp_bt_risks_free(struct sp_bt_risks *rk)
{
	sp_bt_out_free(&rk->out);
	sp_bt_input_free(&rk->in);
}

void
sp_bt_out_free(struct sp_bt_out *out)
{
	free(out->wl);
	out->wl = NULL;
	out->nwl = 0;
}

/* -------------------------------------------------------- the runs kept */

void
sp_bt_keep(struct sp_bt_input *in, const struct sp_job *j)
{
	struct sp_bt_run *k;
	enum sp_state st = sp_state_of(j->state);
	int64_t end;

	if (sp_job_is_step(j))
		return;
	if (sp_job_is_open(j)) {
		in->open++;
		return;
	}
	if (j->workload_key.n == 0) {
		in->no_key++;
		return;
	}
	if (isnan(j->elapsed_s)) {
		in->no_elapsed++;
		return;
	}
	if (j->state.n == 0) {
		in->stateless++;
		return;
	}
	if (st == SP_ST_OTHER) {
		if (in->unknown_state++ == 0)
			in->unknown_name = sp_xstrndup(j->state.p, j->state.n);
		return;
	}
	if (!j->submit_known) {
		in->no_submit++;
		return;
	}
	if (j->end_known)
		end = j->end_t;
	else if (j->start_known)
		end = j->start_t + (int64_t)j->elapsed_s;
	else {
		in->no_end++;
		return;
	}
	if (end < j->submit_t) {
		in->end_first++;
		return;
	}
	if (in->n >= UINT32_MAX)
		sp_die(SP_EXIT_USAGE, "more than %lu runs", (unsigned long)
		       UINT32_MAX);
	in->v = sp_xgrow(in->v, &in->cap, in->n + 1, sizeof *in->v);
	k = &in->v[in->n];
	sp_run_of(&k->r, j);
	/* The record's buffer moves on: the texts a history keeps, kept. */
	k->r.jobid.p = sp_pool_str(&in->pool, j->jobid.p, j->jobid.n);
	k->r.array_job.p = sp_pool_str(&in->pool, k->r.array_job.p,
				       k->r.array_job.n);
	k->submit = j->submit_t;
	k->end = end;
	k->wl = (uint32_t)sp_intern(&in->keys, j->workload_key.p,
				    j->workload_key.n);
	k->seq = (uint32_t)in->n++;
}

void
sp_bt_input_free(struct sp_bt_input *in)
{
	free(in->v);
	free(in->unknown_name);
	sp_intern_free(&in->keys);
	sp_pool_free(&in->pool);
	memset(in, 0, sizeof *in);
}

/* ------------------------------------------------- what the advice says */

void
sp_bt_risk_of(const struct sp_bt_risks *rk, const char *key, size_t keylen,
	      enum sp_flag f, long runs, struct sp_bt_risk *r)
{
	const struct sp_bt_out *out = rk != NULL ? &rk->out : NULL;
	const struct sp_bt_input *in = rk != NULL ? &rk->in : NULL;
	enum sp_bt_flag bf;
	const struct sp_bt_tally *t = NULL;
	long k;

	memset(r, 0, sizeof *r);
	if (f == SP_FLAG_TIME)
		bf = SP_BT_TIME;
	else if (f == SP_FLAG_MEM)
		bf = SP_BT_MEM;
	else
		return;
	if (out == NULL || runs < SP_BACKTEST_MIN_BEFORE || !out->flags[bf])
		return;
	r->runs = runs;
	r->level = level_of(runs);
	k = out->wl != NULL ? sp_intern_find(&in->keys, key, keylen) : -1;
	if (k >= 0 && (size_t)k < out->nwl) {
		t = &out->wl[(size_t)k * SP_BT_FLAG_N + bf];
		if (t->judged - t->no_figure >= SP_BACKTEST_RISK_MIN_JUDGED)
			r->own = 1;
		else
			t = NULL;
	}
	if (t == NULL)
		t = &out->level[bf][SP_BT_ADVICE][r->level];
	/* The runs the advice had a figure for are the ones it could
	 * have cut off. */
	r->judged = t->judged - t->no_figure;
	r->cut_off = t->cut_off;
	r->known = r->judged > 0;
}

void
sp_bt_risk_text(struct sp_buf *b, const struct sp_bt_risk *r)
{
	if (!r->known)
		return;
	sp_buf_printf(b, "from %ld %s; ", r->runs, r->runs == 1 ? "run" :
		      "runs");
	if (r->own)
		sp_buf_adds(b, "on this workload's history the advice");
	else
		sp_buf_printf(b, "on this history advice from %s runs",
			      level_names[r->level]);
	sp_buf_printf(b, " cut off %ld of %ld later %s", r->cut_off,
		      r->judged, r->judged == 1 ? "run" : "runs");
}

void
sp_bt_headline_of(const struct sp_bt_out *out, struct sp_bt_headline *h)
{
	enum { ALL = SP_BT_LEVEL_N - 1 };
	const struct sp_bt_tally *mem_adv = &out->level[SP_BT_MEM][SP_BT_ADVICE][ALL];
	const struct sp_bt_tally *mem_req =
	    &out->level[SP_BT_MEM][SP_BT_REQUESTED][ALL];

	memset(h, 0, sizeof *h);
	h->have_first = out->have_first;
	h->first = out->first_judged;
	h->kills = h->avoided = h->cut_off = -1;
	h->not_reserved_gib_h = NAN;
	for (int f = 0; f < SP_BT_FLAG_N; f++) {
		const struct sp_bt_tally *adv = &out->level[f][SP_BT_ADVICE][ALL];
		const struct sp_bt_tally *req =
		    &out->level[f][SP_BT_REQUESTED][ALL];

		if (!out->flags[f] || adv->judged == 0)
			continue;
		if (h->kills < 0)
			h->kills = h->avoided = h->cut_off = 0;
		h->judged += adv->judged;
		/* Under its own request a killed run is killed again. */
		h->kills += req->killed_again;
		h->avoided += adv->given_room;
		h->cut_off += adv->cut_off;
	}
	if (out->flags[SP_BT_MEM] && mem_adv->judged > 0 && mem_req->judged > 0)
		h->not_reserved_gib_h = mem_req->unused_gib_h -
		    mem_adv->unused_gib_h;
}

void
sp_bt_headline_text(struct sp_buf *b, const struct sp_bt_headline *h)
{
	struct sp_buf t = { 0 };

	if (!h->have_first || h->judged == 0) {
		sp_buf_printf(b, "Had the advice been followed: n/a (no run "
			      "had %d earlier runs of its workload to judge "
			      "it on)", SP_BACKTEST_MIN_BEFORE);
		return;
	}
	sp_fmt_time(&t, h->first);
	/* The day is enough: the clock of the first run says nothing. */
	sp_buf_adds(b, "Had the advice been followed since ");
	sp_buf_add(b, t.p, t.len > 10 ? 10 : t.len);
	sp_buf_printf(b, ": %ld of %ld kills avoided, %ld %s cut off, ",
		      h->avoided, h->kills, h->cut_off,
		      h->cut_off == 1 ? "run" : "runs");
	if (isnan(h->not_reserved_gib_h))
		sp_buf_adds(b, "n/a");
	else
		sp_fmt_fixed(b, fabs(h->not_reserved_gib_h), 0);
	sp_buf_adds(b, h->not_reserved_gib_h < 0 ?
		    " GiB-hours more reserved" : " GiB-hours not reserved");
	sp_buf_free(&t);
}
