/*
 * What the replay (lib/rules/sp_backtest.c) says beside the advice: the risk
 * of one advice, from its workload's own replay or the whole history's
 * at its evidence level, and the report's one line from the all rows.
 * The replay's counts themselves are sp-backtest's (t/sp-backtest.bats).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sp.h"
#include "sp_backtest.h"
#include "sp_const.h"
#include "tap.h"

enum { ALL = SP_BT_LEVEL_N - 1 };

/* Two workloads: "own" with judged runs of its own, "few" with 2. */
static void
risks_make(struct sp_bt_risks *rk, long own_judged)
{
	memset(rk, 0, sizeof *rk);
	sp_intern(&rk->in.keys, "u/p/cpu/own", 11);
	sp_intern(&rk->in.keys, "u/p/cpu/few", 11);
	rk->out.flags[SP_BT_TIME] = rk->out.flags[SP_BT_MEM] = 1;
	rk->out.keep_wl = 1;
	rk->out.nwl = 2;
	rk->out.wl = sp_xcalloc(2 * SP_BT_FLAG_N, sizeof *rk->out.wl);
	rk->out.wl[0 * SP_BT_FLAG_N + SP_BT_TIME].judged = own_judged + 1;
	rk->out.wl[0 * SP_BT_FLAG_N + SP_BT_TIME].no_figure = 1;
	rk->out.wl[0 * SP_BT_FLAG_N + SP_BT_TIME].cut_off = 2;
	rk->out.wl[1 * SP_BT_FLAG_N + SP_BT_TIME].judged = 2;
	/* The level of 4-5 runs before, over every workload. */
	rk->out.level[SP_BT_TIME][SP_BT_ADVICE][1].judged = 113;
	rk->out.level[SP_BT_TIME][SP_BT_ADVICE][1].cut_off = 1;
}

static void
risk_line(const struct sp_bt_risks *rk, const char *key, enum sp_flag f,
	  long runs, const char *want, const char *what)
{
	struct sp_bt_risk r;
	struct sp_buf b = { 0 };

	sp_bt_risk_of(rk, key, strlen(key), f, runs, &r);
	sp_bt_risk_text(&b, &r);
	is_string(want, sp_buf_str(&b), "%s", what);
	sp_buf_free(&b);
}

static void
risk(void)
{
	struct sp_bt_risks rk;

	risks_make(&rk, SP_BACKTEST_RISK_MIN_JUDGED);
	risk_line(&rk, "u/p/cpu/own", SP_FLAG_TIME, 14,
		  "from 14 runs; on this workload's history the advice cut off "
		  "2 of 10 later runs",
		  "risk: the workload's own replay from 10 judged with a figure");
	risk_line(&rk, "u/p/cpu/few", SP_FLAG_TIME, 4,
		  "from 4 runs; on this history advice from 4-5 runs cut off "
		  "1 of 113 later runs",
		  "risk: too few of its own, the level's (the issue's words)");
	risk_line(&rk, "u/p/cpu/other", SP_FLAG_TIME, 5,
		  "from 5 runs; on this history advice from 4-5 runs cut off "
		  "1 of 113 later runs",
		  "risk: a workload the replay never saw, the level's");
	risk_line(&rk, "u/p/cpu/few", SP_FLAG_TIME, 2, "",
		  "risk: from 2 runs, no level: unknown");
	risk_line(&rk, "u/p/cpu/few", SP_FLAG_TIME, 8, "",
		  "risk: nothing judged at 6-10: unknown, not 0 of 0");
	risk_line(&rk, "u/p/cpu/own", SP_FLAG_CPUS, 14, "",
		  "risk: --cpus-per-task is not replayed");
	risk_line(NULL, "u/p/cpu/own", SP_FLAG_TIME, 14, "",
		  "risk: no replay kept: unknown");
	sp_bt_risks_free(&rk);

	/* One judged run short of the workload's own: the level speaks. */
	risks_make(&rk, SP_BACKTEST_RISK_MIN_JUDGED - 1);
	risk_line(&rk, "u/p/cpu/own", SP_FLAG_TIME, 12, "",
		  "risk: 9 of its own is too few, and 11+ judged nothing");
	rk.out.level[SP_BT_TIME][SP_BT_ADVICE][3].judged = 1;
	risk_line(&rk, "u/p/cpu/own", SP_FLAG_TIME, 12,
		  "from 12 runs; on this history advice from 11+ runs cut off "
		  "0 of 1 later run",
		  "risk: the 11+ level, one run");
	sp_bt_risks_free(&rk);
}

static void
headline_line(const struct sp_bt_out *out, const char *want, const char *what)
{
	struct sp_bt_headline h;
	struct sp_buf b = { 0 };

	sp_bt_headline_of(out, &h);
	sp_bt_headline_text(&b, &h);
	is_string(want, sp_buf_str(&b), "%s", what);
	sp_buf_free(&b);
}

static void
headline(void)
{
	static struct sp_bt_out out;
	struct sp_bt_tally *t;

	memset(&out, 0, sizeof out);
	out.flags[SP_BT_TIME] = out.flags[SP_BT_MEM] = 1;
	headline_line(&out, "Had the advice been followed: n/a (no run had 3 "
		      "earlier runs of its workload to judge it on)",
		      "headline: nothing judged");
	out.have_first = 1;
	/* 2026-01-07T09:30:00 */
	out.first_judged = 1767778200;
	t = out.level[SP_BT_TIME][SP_BT_REQUESTED];
	t[ALL].judged = 50;
	t[ALL].killed_again = 7;
	t = out.level[SP_BT_TIME][SP_BT_ADVICE];
	t[ALL].judged = 50;
	t[ALL].given_room = 3;
	t[ALL].killed_again = 4;
	t[ALL].cut_off = 1;
	t = out.level[SP_BT_MEM][SP_BT_REQUESTED];
	t[ALL].judged = 40;
	t[ALL].killed_again = 2;
	t[ALL].unused_gib_h = 1000.4;
	t = out.level[SP_BT_MEM][SP_BT_ADVICE];
	t[ALL].judged = 40;
	t[ALL].given_room = 2;
	t[ALL].unused_gib_h = 400;
	headline_line(&out, "Had the advice been followed since 2026-01-07: "
		      "5 of 9 kills avoided, 1 run cut off, 600 GiB-hours not "
		      "reserved", "headline: both flags added, the day alone");
	out.level[SP_BT_MEM][SP_BT_ADVICE][ALL].unused_gib_h = 1200.4;
	headline_line(&out, "Had the advice been followed since 2026-01-07: "
		      "5 of 9 kills avoided, 1 run cut off, 200 GiB-hours more "
		      "reserved", "headline: the advice reserving more says so");
	out.flags[SP_BT_MEM] = 0;
	headline_line(&out, "Had the advice been followed since 2026-01-07: "
		      "3 of 7 kills avoided, 1 run cut off, n/a GiB-hours not "
		      "reserved", "headline: --time alone reserves nothing: n/a");
}

int
main(void)
{
	plan_lazy();
	risk();
	headline();
	return done_testing();
}
