/*
 * backtest.h - sp-backtest's parts: the runs kept until every one is
 * read, and the replay that judges each advice on the run that came
 * next.
 */
#ifndef SP_BACKTEST_H
#define SP_BACKTEST_H

#include <stddef.h>
#include <stdint.h>

#include "sp.h"
#include "sp_advice.h"
#include "sp_intern.h"
#include "sp_pool.h"
#include "sp_run.h"

/* The flags a run can be cut off by, and the policies judged. */
enum bt_flag { BT_TIME, BT_MEM, BT_FLAG_N };
enum bt_policy { BT_ADVICE, BT_REQUESTED, BT_RULE, BT_POLICY_N };
/* The evidence levels of --summary: 3, 4-5, 6-10, 11+ runs before, all. */
enum { BT_LEVEL_N = 5 };

/* One usable run, kept: its numbers, and when it was submitted and
 * ended (epoch seconds). */
struct bt_run {
	struct sp_run r;
	int64_t submit, end;
	uint32_t wl;			/* its workload's number */
	uint32_t seq;			/* the order it was read in */
};

/* What one policy did to one flag over some runs. */
struct bt_tally {
	long workloads;			/* --summary: the workloads judged */
	long judged, cut_off, killed_again, given_room, no_figure;
	long over_n;			/* completed runs with an overask */
	double over_log;		/* sum of ln(limit / need) */
	double unused_gib_h;		/* --mem: reserved, never used */
	long most_before;		/* the most runs a judged run had
					 * before it; 0: none judged */
};

struct bt_input {
	struct bt_run *v;
	size_t n, cap;
	struct sp_intern keys;		/* workload keys, numbered */
	struct sp_pool pool;		/* the runs' job ids */
	unsigned missing;		/* sp_cols_missing of the input */
	/* what was left out, and why */
	long no_key, no_submit, no_end, end_first, unknown_state, stateless;
	long open, no_elapsed;
	char *unknown_name;		/* the first unknown state seen */
};

struct bt_out {
	struct sp_writer *w;
	int summary;
	int flags[BT_FLAG_N];
	struct bt_tally level[BT_FLAG_N][BT_POLICY_N][BT_LEVEL_N];
};

const char *bt_flag_text(enum bt_flag f);
const char *bt_policy_name(enum bt_policy p);
const char *bt_level_name(int level);

/* Replays every workload of in, writing a record per workload, flag and
 * policy (or adding to out->level for --summary). */
void bt_replay(struct bt_input *in, const struct sp_site *site,
	       struct bt_out *out);
/* One tally's columns from judged on, as the records write them. */
void bt_write_tally(struct sp_writer *w, const struct bt_tally *t,
		    enum bt_flag f);

#endif
