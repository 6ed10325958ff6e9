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

#include "backtest.h"
#include "sp_const.h"
#include "sp_hist.h"
#include "sp_units.h"

static const char *const policy_names[BT_POLICY_N] = {
	"advice", "requested", "rule"
};
static const char *const level_names[BT_LEVEL_N] = {
	"3", "4-5", "6-10", "11+", "all"
};

const char *
bt_flag_text(enum bt_flag f)
{
	return f == BT_TIME ? "--time" : "--mem";
}

const char *
bt_policy_name(enum bt_policy p)
{
	return policy_names[p];
}

const char *
bt_level_name(int level)
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
outcome_of(const struct sp_run *r, enum bt_flag f, double *x)
{
	int own_end = r->st == SP_ST_COMPLETED || r->st == SP_ST_FAILED;

	if (f == BT_TIME) {
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
judge(struct bt_tally *t, const struct sp_run *r, enum bt_flag f,
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
	if (f == BT_MEM && limit > x && r->elapsed_s > 0)
		t->unused_gib_h += (limit - x) / SP_GIB * r->elapsed_s /
		    3600.0 * (sp_positive(r->nodes) ? r->nodes : 1);
}

static void
tally_add(struct bt_tally *to, const struct bt_tally *t)
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
bt_write_tally(struct sp_writer *w, const struct bt_tally *t, enum bt_flag f)
{
	sp_writer_int(w, t->judged);
	sp_writer_int(w, t->cut_off);
	sp_writer_int(w, t->killed_again);
	sp_writer_int(w, t->given_room);
	sp_writer_int(w, t->no_figure);
	sp_writer_num(w, t->over_n > 0 ? exp(t->over_log / (double)t->over_n) :
		      NAN);
	/* Time reserves no memory: not zero, not a figure. */
	sp_writer_num(w, f == BT_MEM && t->judged > 0 ? t->unused_gib_h : NAN);
}

/* ------------------------------------------------------------ one workload */

static int
by_submit(const void *a, const void *b)
{
	const struct bt_run *x = *(const struct bt_run *const *)a;
	const struct bt_run *y = *(const struct bt_run *const *)b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
by_end(const void *a, const void *b)
{
	const struct bt_run *x = *(const struct bt_run *const *)a;
	const struct bt_run *y = *(const struct bt_run *const *)b;

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
	double advice[BT_FLAG_N];
};

static void
add_earlier(struct wl_state *s, const struct sp_run *r)
{
	double x;

	sp_hist_add_run(&s->h, r);
	s->dirty = 1;
	if (outcome_of(r, BT_TIME, &x) == OUT_NEED &&
	    r->st == SP_ST_COMPLETED && !(s->longest_done >= x))
		s->longest_done = x;
	if (outcome_of(r, BT_MEM, &x) == OUT_NEED && !(s->top_peak >= x))
		s->top_peak = x;
}

/* The limit each policy gives run r for flag f. */
static double
policy_limit(struct wl_state *s, const struct sp_run *r, enum bt_flag f,
	     enum bt_policy p)
{
	switch (p) {
	case BT_ADVICE:
		return s->advice[f];
	case BT_REQUESTED:
		if (f == BT_TIME)
			return sp_positive(r->timelimit_s) ? r->timelimit_s :
			    NAN;
		return sp_positive(r->limit_b) ? r->limit_b : NAN;
	case BT_RULE:
		return f == BT_TIME ? s->longest_done * SP_BACKTEST_RULE_TIME :
		    s->top_peak * SP_BACKTEST_RULE_MEM;
	default:
		return NAN;
	}
}

static void
write_workload(struct bt_out *out, const char *key,
	       struct bt_tally t[BT_FLAG_N][BT_POLICY_N])
{
	for (int f = 0; f < BT_FLAG_N; f++) {
		if (!out->flags[f])
			continue;
		for (int p = 0; p < BT_POLICY_N; p++) {
			sp_writer_str(out->w, key);
			sp_writer_str(out->w, bt_flag_text((enum bt_flag)f));
			sp_writer_str(out->w, policy_names[p]);
			if (t[f][p].most_before > 0)
				sp_writer_int(out->w, t[f][p].most_before);
			else
				sp_writer_empty(out->w);
			bt_write_tally(out->w, &t[f][p], (enum bt_flag)f);
			sp_writer_end(out->w);
		}
	}
}

static void
replay_one(struct bt_run **sub, struct bt_run **end, size_t n,
	   const char *key, const struct sp_size_site *site,
	   struct sp_pool *pool, struct sp_pick pick[BT_FLAG_N],
	   struct bt_out *out)
{
	static const enum sp_flag as_sp[BT_FLAG_N] = { SP_FLAG_TIME,
						       SP_FLAG_MEM };
	struct bt_tally t[BT_FLAG_N][BT_POLICY_N];
	struct bt_tally lv[BT_FLAG_N][BT_POLICY_N][BT_LEVEL_N];
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
		const struct bt_run *run = sub[i];
		long before;

		/* Only what had ended when this run was submitted. */
		while (e < n && end[e]->end < run->submit)
			add_earlier(&s, &end[e++]->r);
		before = s.h.runs;
		if (before < SP_BACKTEST_MIN_BEFORE)
			continue;
		if (s.dirty) {
			for (int f = 0; f < BT_FLAG_N; f++)
				if (out->flags[f])
					s.advice[f] = sp_pick(&s.h, site, NULL,
					    as_sp[f], &pick[f]);
			s.dirty = 0;
		}
		for (int f = 0; f < BT_FLAG_N; f++) {
			double x;
			enum outcome o;

			if (!out->flags[f])
				continue;
			o = outcome_of(&run->r, (enum bt_flag)f, &x);
			if (o == OUT_NONE)
				continue;
			for (int p = 0; p < BT_POLICY_N; p++) {
				struct bt_tally one = { 0 };
				double lim = policy_limit(&s, &run->r,
				    (enum bt_flag)f, (enum bt_policy)p);

				judge(&one, &run->r, (enum bt_flag)f, o, x, lim,
				      before);
				tally_add(&t[f][p], &one);
				tally_add(&lv[f][p][level_of(before)], &one);
				tally_add(&lv[f][p][BT_LEVEL_N - 1], &one);
			}
		}
	}
	sp_hist_free(&s.h);
	/* The levels, and how many workloads each rests on. */
	for (int f = 0; f < BT_FLAG_N; f++)
		for (int p = 0; p < BT_POLICY_N; p++)
			for (int l = 0; l < BT_LEVEL_N; l++) {
				lv[f][p][l].workloads = lv[f][p][l].judged > 0;
				tally_add(&out->level[f][p][l], &lv[f][p][l]);
			}
	if (!out->summary)
		write_workload(out, key, t);
}

void
bt_replay(struct bt_input *in, const struct sp_site *site,
	  struct bt_out *out)
{
	size_t nwl = in->keys.n;
	size_t *start = sp_xcalloc(nwl + 1, sizeof *start);
	struct bt_run **sub = sp_xcalloc(in->n + 1, sizeof *sub);
	struct bt_run **end = sp_xcalloc(in->n + 1, sizeof *end);
	struct sp_pick pick[BT_FLAG_N];
	struct sp_pool pool = { 0 };

	memset(pick, 0, sizeof pick);
	for (int f = 0; f < BT_FLAG_N; f++)
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
		replay_one(sub + start[k], end + start[k], n, key, &ss, &pool,
			   pick, out);
	}
	for (int f = 0; f < BT_FLAG_N; f++)
		sp_pick_free(&pick[f]);
	sp_pool_free(&pool);
	free(start);
	free(sub);
	free(end);
}
