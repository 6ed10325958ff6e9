/*
 * sp_backtest.h - the advice replayed out of sample: the runs kept until
 * every one is read, the replay that judges each advice on the run that
 * came next (sp-backtest), and what it measured, said beside the advice
 * (sp-size, the report, the dashboard): one home for both.
 */
#ifndef SP_BACKTEST_H_LIB
#define SP_BACKTEST_H_LIB

#include <stddef.h>
#include <stdint.h>

#include "sp_advice.h"
#include "sp_buf.h"
#include "sp_intern.h"
#include "sp_job.h"
#include "sp_pool.h"
#include "sp_record.h"
#include "sp_run.h"
#include "sp_site.h"

/* The flags a run can be cut off by, and the policies judged. */
enum sp_bt_flag { SP_BT_TIME, SP_BT_MEM, SP_BT_FLAG_N };
enum sp_bt_policy { SP_BT_ADVICE, SP_BT_REQUESTED, SP_BT_RULE, SP_BT_POLICY_N };
/* The evidence levels of --summary: 3, 4-5, 6-10, 11+ runs before, all. */
enum { SP_BT_LEVEL_N = 5 };

/* One usable run, kept: its numbers, and when it was submitted and
 * ended (epoch seconds). */
struct sp_bt_run {
	struct sp_run r;
	int64_t submit, end;
	uint32_t wl;			/* its workload's number */
	uint32_t seq;			/* the order it was read in */
};

/* What one policy did to one flag over some runs. */
struct sp_bt_tally {
	long workloads;			/* --summary: the workloads judged */
	long judged, cut_off, killed_again, given_room, no_figure;
	long over_n;			/* completed runs with an overask */
	double over_log;		/* sum of ln(limit / need) */
	double unused_gib_h;		/* --mem: reserved, never used */
	long most_before;		/* the most runs a judged run had
					 * before it; 0: none judged */
};

struct sp_bt_input {
	struct sp_bt_run *v;
	size_t n, cap;
	struct sp_intern keys;		/* workload keys, numbered */
	struct sp_pool pool;		/* the runs' job ids */
	unsigned missing;		/* sp_cols_missing of the input */
	/* what was left out, and why */
	long no_key, no_submit, no_end, end_first, unknown_state, stateless;
	long open, no_elapsed;
	char *unknown_name;		/* the first unknown state seen */
};

struct sp_bt_out {
	struct sp_writer *w;		/* NULL: no records written */
	int summary;
	int flags[SP_BT_FLAG_N];
	struct sp_bt_tally level[SP_BT_FLAG_N][SP_BT_POLICY_N][SP_BT_LEVEL_N];
	/* With keep_wl, the advice's tally of each workload and flag:
	 * wl[k * SP_BT_FLAG_N + f] for workload number k of the input's
	 * keys (sp_bt_free frees it). */
	int keep_wl;
	struct sp_bt_tally *wl;
	size_t nwl;
	/* The submit time of the earliest run judged; have_first 0: none. */
	int have_first;
	int64_t first_judged;
};

/* Keeps record j as a run of in, or counts why it is left out. */
void sp_bt_keep(struct sp_bt_input *in, const struct sp_job *j);
void sp_bt_input_free(struct sp_bt_input *in);
void sp_bt_out_free(struct sp_bt_out *out);

const char *sp_bt_flag_text(enum sp_bt_flag f);
const char *sp_bt_policy_name(enum sp_bt_policy p);
const char *sp_bt_level_name(int level);

/* Replays every workload of in, writing a record per workload, flag and
 * policy (or adding to out->level for --summary). */
void sp_bt_replay(struct sp_bt_input *in, const struct sp_site *site,
	       struct sp_bt_out *out);
/* One tally's columns from judged on, as the records write them. */
void sp_bt_write_tally(struct sp_writer *w, const struct sp_bt_tally *t,
		    enum sp_bt_flag f);

/*
 * What the replay measured of an advice of flag f from runs runs of the
 * workload with key: its own replay when it judged at least
 * SP_BACKTEST_RISK_MIN_JUDGED runs, else every workload's at the evidence
 * level of runs.  known 0: nothing to say (no figure judged, fewer than
 * SP_BACKTEST_MIN_BEFORE runs, a flag the replay does not judge).
 */
struct sp_bt_risk {
	int known;
	int own;			/* 1: the workload's own replay */
	int level;			/* the evidence level of runs */
	long runs;			/* the runs the advice rests on */
	long cut_off, judged;
};

/* An input's runs and their replay, kept for the risk of each advice:
 * sp_bt_keep each record into in, then sp_bt_risks_run. */
struct sp_bt_risks {
	struct sp_bt_input in;
	struct sp_bt_out out;
};

/* Replays rk->in with the advice's tallies kept (rk->out zeroed first);
 * missing: the input's sp_cols_missing. */
void sp_bt_risks_run(struct sp_bt_risks *rk, const struct sp_site *site,
		     unsigned missing);
void sp_bt_risks_free(struct sp_bt_risks *rk);
/* rk NULL: nothing known. */
void sp_bt_risk_of(const struct sp_bt_risks *rk, const char *key,
		   size_t keylen, enum sp_flag f, long runs,
		   struct sp_bt_risk *r);
/* The risk as the advice line says it; empty when unknown. */
void sp_bt_risk_text(struct sp_buf *b, const struct sp_bt_risk *r);

/*
 * The replay's one line, out of sample, from out's "all" rows: had the
 * advice been followed since the first judged run, the kills the
 * user's own requests met and how many the advice gave more room, the
 * completed runs it cut off, and the GiB-hours of memory it would not
 * have reserved.  Unknown figures are n/a.
 */
struct sp_bt_headline {
	int have_first;
	int64_t first;			/* the first judged run's submit */
	long judged;			/* runs judged, either flag */
	long kills, avoided, cut_off;	/* -1: unknown */
	double not_reserved_gib_h;	/* NaN: unknown */
};

void sp_bt_headline_of(const struct sp_bt_out *out, struct sp_bt_headline *h);
void sp_bt_headline_text(struct sp_buf *b, const struct sp_bt_headline *h);

#endif
