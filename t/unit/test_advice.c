/*
 * The sizing rules (reference-rules.md 2.6) with their numbers: newest
 * request, refusal, the hang veto, the computing floor, p95, the OOM
 * floor, MaxRSS above the limit, thin sampling, per-task CPUs, the
 * partition ceiling, the single-core non-inversion, --gpus, the hold on a
 * contradiction, no direction without a request.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_advice.h"
#include "sp_histset.h"
#include "tap.h"

#include "testhist.h"

static struct sp_size_site site;
static struct sp_advice adv;

static void
advise(const char *key, enum sp_flag f)
{
	const struct sp_hist *h = hist(key ? key : "u/p/cpu/w");

	if (h == NULL || sp_size_advise(h, &site, f, &adv) < 0)
		adv.verdict = (enum sp_verdict)-1;
}

static const char *
verdict(void)
{
	return (int)adv.verdict < 0 ? "none" : sp_verdict_name(adv.verdict);
}

static int
has(const struct sp_buf *b, const char *needle)
{
	return strstr(sp_buf_str(b), needle) != NULL;
}

/* ------------------------------------------------------------- --time */

static void
time_newest_not_largest(void)
{
	/* Old runs asked 8 h; the newest asks 40 min and two of them were
	 * cut off while computing.  The answer is raise, not lower. */
	ROW(.id = "101", .state = "COMPLETED", .el = "6000", .cpu = "6000", .lim = "28800");
	ROW(.id = "102", .state = "COMPLETED", .el = "6500", .cpu = "6500", .lim = "28800");
	ROW(.id = "103", .state = "COMPLETED", .el = "6769", .cpu = "6769", .lim = "28800");
	ROW(.id = "104", .state = "TIMEOUT", .el = "2400", .lim = "2400",
	    .cpu = "2300");
	ROW(.id = "105", .state = "TIMEOUT", .el = "2400", .lim = "2400",
	    .cpu = "2300");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("raise", verdict(), "time: the newest request is the current one");
	is_string("00:40:00", sp_buf_str(&adv.requested_txt), "time: requested is the newest, 00:40:00");
	is_string("--time=03:45:00", sp_buf_str(&adv.suggestion), "time: 6769 s x 1.90 (3 runs, the prior spread) -> 03:45:00");
	is_string("#SBATCH --time=03:45:00", sp_buf_str(&adv.sbatch), "time: the #SBATCH line");
	is_string("longest of 3 completed runs took 01:52:49", sp_buf_str(&adv.basis), "time: the basis");
	is_int(3, adv.runs, "time: three runs read");
	ok(has(&adv.caution, "2 runs timed out while computing: their limit x 1.25 is a floor, not a fit"), "time: computing timeouts named");
}

static void
no_request(void)
{
	/* The newest run recorded no --time (a partition default): the
	 * older ones asked 1 h, clearly under the 01:45:00 target
	 * (3000 s x 1.90: three runs that do not vary count the prior's
	 * spread). */
	ROW(.id = "1", .state = "COMPLETED", .el = "3000", .cpu = "3000", .lim = "3600");
	ROW(.id = "2", .state = "COMPLETED", .el = "3000", .cpu = "3000", .lim = "3600");
	ROW(.id = "3", .state = "COMPLETED", .el = "3000", .cpu = "3000");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("raise", verdict(), "no request: raise when an earlier run asked less");
	is_string("", sp_buf_str(&adv.requested_txt), "no request: requested stays unknown");
	is_string("--time=01:45:00", sp_buf_str(&adv.suggestion), "no request: the target suggested");
	is_string("longest of 3 completed runs took 00:50:00; the newest run recorded no request (a partition default, say), but earlier runs asked for as little as 01:00:00", sp_buf_str(&adv.basis), "no request: the basis names the earlier request");

	/* Older runs asked 2 h: no direction to claim. */
	ROW(.id = "1", .state = "COMPLETED", .el = "3000", .cpu = "3000", .lim = "7200");
	ROW(.id = "2", .state = "COMPLETED", .el = "3000", .cpu = "3000", .lim = "7200");
	ROW(.id = "3", .state = "COMPLETED", .el = "3000", .cpu = "3000");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("keep", verdict(), "no request: keep when no earlier run asked less");
	is_string("--time=01:45:00", sp_buf_str(&adv.suggestion), "no request: a keep still gives the figure");
	is_string("#SBATCH --time=01:45:00", sp_buf_str(&adv.sbatch), "no request: and the line to paste");
	is_string("longest of 3 completed runs took 00:50:00; the newest run recorded no request (a partition default, say), so no direction: the suggestion is what the history supports", sp_buf_str(&adv.basis), "no request: the basis says so");

	/* No run recorded one: keep, never a lower against an older 32G. */
	ROW(.id = "1", .state = "COMPLETED", .el = "3000", .cpu = "3000", .mem = G(32), .rss = G(10));
	ROW(.id = "2", .state = "COMPLETED", .el = "3000", .cpu = "3000", .mem = G(32), .rss = G(10));
	ROW(.id = "3", .state = "COMPLETED", .el = "3000", .cpu = "3000", .mem = G(32), .rss = G(10));
	ROW(.id = "4", .state = "COMPLETED", .el = "3000", .cpu = "3000", .rss = G(10));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("keep", verdict(), "no request: --mem keeps rather than lowers");
	is_string("--mem=19G", sp_buf_str(&adv.suggestion), "no request: --mem figure given (3 peaks with a limit: 10 GiB x 1.90)");
	ok(has(&adv.basis, "the newest run recorded no request"), "no request: --mem basis says so");
	advise(NULL, SP_FLAG_TIME);
	is_string("keep", verdict(), "no request: no known --time at all is a keep");
	is_string("--time=01:30:00", sp_buf_str(&adv.suggestion), "no request: with the figure (4 runs: 3000 s x 1.60)");
}

static void
time_refuse(void)
{
	ROW(.id = "1", .state = "COMPLETED", .el = "100", .cpu = "100", .lim = "3600");
	ROW(.id = "2", .state = "COMPLETED", .el = "200", .cpu = "200", .lim = "3600");
	ROW(.id = "3", .state = "FAILED", .el = "50", .cpu = "50", .lim = "3600");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("refuse", verdict(), "time: two completed runs are too few");
	is_string("needs 3 completed runs; there were 2", sp_buf_str(&adv.basis), "time: the refusal says how many");
	is_string("", sp_buf_str(&adv.suggestion), "time: no suggestion on a refusal");
	is_string("01:00:00", sp_buf_str(&adv.requested_txt), "time: requested still shown");
}

/* A column absent and one present with no value anywhere: each said for
 * what it is (issue 30). */
static void
missing_or_empty(void)
{
	ROW(.id = "1", .state = "COMPLETED", .el = "3000", .cpu = "3000", .lim = "3600");
	ROW(.id = "2", .state = "COMPLETED", .el = "3000", .cpu = "3000", .lim = "3600");
	ROW(.id = "3", .state = "COMPLETED", .el = "3000", .cpu = "3000", .lim = "3600");
	load();
	site.missing = 1u << SP_COL_TIMELIMIT;
	site.empty = 0;
	advise(NULL, SP_FLAG_TIME);
	is_string("refuse", verdict(), "missing: refused");
	is_string("the input has no column 'timelimit_s', which the --time rule reads (sp-fetch writes it)", sp_buf_str(&adv.basis), "missing: the column is named absent");
	site.empty = 1u << SP_COL_TIMELIMIT;
	advise(NULL, SP_FLAG_TIME);
	is_string("the input's column 'timelimit_s' has no value in any record, and the --time rule reads it", sp_buf_str(&adv.basis), "empty: the column is named empty, not absent");
	site.missing = 1u << SP_COL_TIMELIMIT | 1u << SP_COL_STATE;
	advise(NULL, SP_FLAG_TIME);
	is_string("the input has no column 'state', which the --time rule reads (sp-fetch writes it); the input's column 'timelimit_s' has no value in any record, and the --time rule reads it", sp_buf_str(&adv.basis), "both: each clause for what it is");
	sp_size_site_unknown(&site);
}

static void
time_hang_veto(void)
{
	/* cot-exp: 20 runs at a 30-minute limit, 14 timeouts with 0.5 s of
	 * CPU, 6 completions that computed. */
	for (int i = 0; i < 20; i++) {
		int hung = i % 5 != 0 && i % 5 != 4;

		if (i == 0 || i == 5)
			hung = 1;
		if (hung)
			ROW(.id = N(5100001 + i), .state = "TIMEOUT",
			    .el = "1826", .lim = "1800", .cpu = "0.5");
		else
			ROW(.id = N(5100001 + i), .state = "COMPLETED",
			    .el = "1780", .lim = "1800", .cpu = "1780");
	}
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("hold", verdict(), "veto: 14 hung timeouts of 20 runs hold --time");
	is_string("blocked, not slow: 14 of the 14 timeouts (of 20 runs) used under 10 CPU-seconds, and a longer limit buys a longer hang",
		  sp_buf_str(&adv.basis), "veto: the basis");
	is_string("14 of 14 timeouts computed nothing", sp_buf_str(&adv.observed), "veto: observed");
	is_string("", sp_buf_str(&adv.sbatch), "veto: nothing to paste");

	/* At the edge: 3 hung of 6 timeouts of 15 runs still holds ... */
	for (int i = 0; i < 15; i++) {
		if (i < 3)
			ROW(.id = N(i + 1), .state = "TIMEOUT", .el = "700",
			    .lim = "600", .cpu = "1");
		else if (i < 6)
			ROW(.id = N(i + 1), .state = "TIMEOUT", .el = "600",
			    .lim = "600", .cpu = "500");
		else
			ROW(.id = N(i + 1), .state = "COMPLETED", .el = "500",
			    .lim = "600", .cpu = "480");
	}
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("hold", verdict(), "veto: 3 hung, half the timeouts, 20%% of runs");
	is_string("blocked, not slow: 3 of the 6 timeouts (of 15 runs) used under 10 CPU-seconds, and a longer limit buys a longer hang; the other 3 did compute and were cut off at up to 00:10:00",
		  sp_buf_str(&adv.basis), "veto: the computing timeouts are named");

	/* ... two hung do not. */
	for (int i = 0; i < 15; i++) {
		if (i < 2)
			ROW(.id = N(i + 1), .state = "TIMEOUT", .el = "700",
			    .lim = "600", .cpu = "1");
		else
			ROW(.id = N(i + 1), .state = "COMPLETED", .el = "500",
			    .lim = "600", .cpu = "480");
	}
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("keep", verdict(), "veto: two hung timeouts are not a hang (13 runs of 500 s x 1.14 -> the 00:10:00 asked)");
	ok(has(&adv.caution, "2 timeouts consumed almost no CPU and are left out of the figure above"), "veto: hung timeouts left out, said so");
}

static void
time_computing_floor(void)
{
	ROW(.id = "1", .state = "COMPLETED", .el = "3000", .lim = "7200", .cpu = "2900");
	ROW(.id = "2", .state = "COMPLETED", .el = "2900", .lim = "7200", .cpu = "2800");
	ROW(.id = "3", .state = "COMPLETED", .el = "2800", .lim = "7200", .cpu = "2700");
	ROW(.id = "4", .state = "TIMEOUT", .el = "7200", .lim = "7200", .cpu = "7000");
	/* A hung timeout at a far longer limit never sets the floor. */
	ROW(.id = "5", .state = "TIMEOUT", .el = "20000", .lim = "20000", .cpu = "2");
	ROW(.id = "6", .state = "COMPLETED", .el = "2950", .lim = "7200", .cpu = "2800");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("raise", verdict(), "floor: 02:30:00 is beyond 02:00:00 x 1.2");
	is_double(9000, adv.target, 0, "floor: the computing timeout's limit x 1.25, rounded");
	is_string("longest of 4 completed runs took 00:50:00; 1 run timed out while computing at 02:00:00, so at least 02:30:00",
		  sp_buf_str(&adv.basis), "floor: the basis names it");
	ok(has(&adv.caution, "1 timeout consumed almost no CPU and is left out of that floor"), "floor: the hung one is left out");
}

/*
 * Issue 14, item 3 and issue 15, item 10: a timeout is evidence of work
 * only where its CPU time says so.  XDMoD's pozidriv.log has no TotalCPU:
 * its 3 timeouts at 3 days once raised --time to 3-18:00:00.
 */
static void
time_unknown_cause(void)
{
	for (int i = 0; i < 16; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "86400",
		    .lim = "259200", .cpu = "80000");
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 20), .state = "TIMEOUT", .el = "259223",
		    .lim = "259200");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("refuse", verdict(), "unknown cause: no raise from the timeouts, and no lower past them");
	is_string("", sp_buf_str(&adv.suggestion), "unknown cause: nothing to paste");
	is_string("longest of 16 completed runs took 1-00:00:00; 3 runs timed out at up to 3-00:00:00, and CPU time (total_cpu_s) is not in their record: whether they were computing or hung is unknown; so 1-02:45:00 may be too short, and a longer limit may only buy a longer hang",
		  sp_buf_str(&adv.basis), "unknown cause: the basis names the column and both risks");

	/* Among few runs the same three, had they hung, would hold. */
	for (int i = 0; i < 4; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "86400",
		    .lim = "259200", .cpu = "80000");
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 20), .state = "TIMEOUT", .el = "259223",
		    .lim = "259200");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("refuse", verdict(), "unknown cause: a hold or not, the record cannot say");
	ok(has(&adv.basis, "had they hung, as many hung timeouts would hold --time"), "unknown cause: the possible hold is said");

	/* Completed runs with no CPU time: whether they computed is
	 * unknown, so none is a measurement of the work. */
	for (int i = 0; i < 4; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "86400",
		    .lim = "259200");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("refuse", verdict(), "no CPU time: no completed run is read");
	is_string("needs 3 completed runs; there were 0; 4 runs have no CPU time (total_cpu_s) in their record, so whether they computed is unknown: left out",
		  sp_buf_str(&adv.basis), "no CPU time: said, naming the column");

	/* Timeouts far below what the completed runs need change nothing. */
	for (int i = 0; i < 4; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "7000",
		    .lim = "28800", .cpu = "6000");
	ROW(.id = "0", .state = "TIMEOUT", .el = "87", .lim = "60",
	    .cpu = "0");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("lower", verdict(), "a short idle timeout far below: the completed runs decide");
	is_string("--time=03:15:00", sp_buf_str(&adv.suggestion), "a short idle timeout far below: 7000 s x 1.60 (4 runs)");
	ok(has(&adv.caution, "1 run timed out at up to 00:01:00 using under 10 CPU-seconds in under 00:05:00, so whether it was computing or hung is unknown; no floor is taken from it"),
	   "a short idle timeout: said, and no floor");
}

static void
time_p95(void)
{
	for (int i = 0; i < 19; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "3600", .cpu = "3600", .lim = "7200");
	ROW(.id = "20", .state = "COMPLETED", .el = "7200", .cpu = "7200", .lim = "7200");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("longest of 20 completed runs took 02:00:00 (p95 01:00:00)", sp_buf_str(&adv.basis), "p95: shown when it differs");
	is_string("raise", verdict(), "p95: 02:00:00 x 1.25 = 02:30:00 > 02:24:00");
	ok(has(&adv.caution, "job 20 finished 0.00s inside its 02:00:00 limit"), "p95: the run that hit its limit is called out");

	for (int i = 0; i < 20; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED",
		    .el = N(i == 19 ? 3630 : 3600), .cpu = N(i == 19 ? 3630 : 3600), .lim = "7200");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("longest of 20 completed runs took 01:00:30",
		  sp_buf_str(&adv.basis), "p95: within 1%% of the longest, not shown");
	is_string("lower", verdict(), "p95: 01:30:00 < 01:36:00");
	is_string("--time=01:15:00", sp_buf_str(&adv.suggestion), "rounding: 3630 s x 1.10 (20 alike runs: the least margin) = 3993 s up to 15 minutes");

	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "1000", .cpu = "1000", .lim = "7200");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("--time=00:35:00", sp_buf_str(&adv.suggestion), "rounding: 1000 s x 1.90 = 1900 s up to 5 minutes under an hour");
}

static void
time_near_limit(void)
{
	/* 09:10:00 of a 10-hour limit, beside 29 runs of 08:20:00: x 1.10
	 * (alike runs, many: the least margin) is 10:15:00, inside the 20%
	 * band, but the run left under 10% of its limit, so it is raised. */
	ROW(.id = "1", .state = "COMPLETED", .el = "33000", .lim = "36000", .cpu = "30000");
	for (int i = 2; i <= 30; i++)
		ROW(.id = N(i), .state = "COMPLETED", .el = "30000", .lim = "36000", .cpu = "29000");
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("raise", verdict(), "near limit: raised inside the band");
	is_string("--time=10:15:00", sp_buf_str(&adv.suggestion), "near limit: 33000 s x 1.10 -> 10:15:00");
	is_string("longest of 30 completed runs took 09:10:00 (p95 08:20:00); raised although within 20% of the request: the longest run left under 10% of it",
		  sp_buf_str(&adv.basis), "near limit: the basis says why");
	is_string("job 1 finished 00:50:00 inside its 10:00:00 limit", sp_buf_str(&adv.caution), "near limit: the run is called out");
}

/* -------------------------------------------------------------- --mem */

static void
mem_oom_floor(void)
{
	/* Three kills at 32 GiB (their MaxRSS at the limit); the runs that
	 * completed peaked at 20: 20 x 1.90 = 38 stays under the floor. */
	ROW(.id = "1", .state = "OUT_OF_MEMORY", .el = "100", .cpu = "100", .mem = G(32), .rss = G(32.1));
	ROW(.id = "2", .state = "OUT_OF_MEMORY", .el = "100", .cpu = "100", .mem = G(32), .rss = G(32.5));
	ROW(.id = "3", .state = "OUT_OF_MEMORY", .el = "100", .cpu = "100", .mem = G(32), .rss = G(33));
	ROW(.id = "4", .state = "COMPLETED", .el = "1000", .cpu = "1000", .mem = G(48), .rss = G(20));
	ROW(.id = "5", .state = "COMPLETED", .el = "1000", .cpu = "1000", .mem = G(48), .rss = G(19));
	ROW(.id = "6", .state = "COMPLETED", .el = "1000", .cpu = "1000", .mem = G(32.5), .rss = G(18));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("raise", verdict(), "oom: 32 GiB x 1.3 = 41.6 -> 42G over 32.5G");
	is_string("--mem=42G", sp_buf_str(&adv.suggestion), "oom: the floor, whole GiB up");
	is_string("33280M", sp_buf_str(&adv.requested_txt), "oom: requested is the newest, not the largest (48G)");
	is_string("3 runs were killed for memory at up to 32G; that x 1.30 is a floor", sp_buf_str(&adv.basis), "oom: the basis");
	is_string("3 kills at up to 32G", sp_buf_str(&adv.observed), "oom: observed");
	ok(has(&adv.caution, "MaxRSS reads high"), "oom: the MaxRSS caveat is on the line");
	ok(has(&adv.caution, "a live reading of the running job measures the real footprint"), "oom: and a live reading measures it");

	/* The completed runs peaked higher still: they set the target,
	 * 40 GiB x 1.90 (three runs), a raise from 48G. */
	ROW(.id = "1", .state = "OUT_OF_MEMORY", .el = "100", .cpu = "100", .mem = G(16), .rss = G(15));
	ROW(.id = "2", .state = "COMPLETED", .el = "1000", .cpu = "1000", .mem = G(48), .rss = G(40));
	ROW(.id = "3", .state = "COMPLETED", .el = "1000", .cpu = "1000", .mem = G(48), .rss = G(39));
	ROW(.id = "4", .state = "COMPLETED", .el = "1000", .cpu = "1000", .mem = G(48), .rss = G(38));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("1 run was killed for memory at up to 16G; that x 1.30 is a floor; the runs that were not killed peaked higher still, at 40.0 GiB (job 2)",
		  sp_buf_str(&adv.basis), "oom: higher peaks win over the floor");
	is_double(76 * GIB, adv.target, 0, "oom: 40 GiB x 1.90 = 76G");
	is_string("raise", verdict(), "oom: 76G is beyond 48G x 1.2");
}

static void
mem_contradiction_hold(void)
{
	/* The tokenizer: 48G cancelled, kills at 32 32 17 12 12 14 16 18,
	 * then COMPLETED at 32G (a size killed twice) peaking at 24. */
	static const double lim[] = { 48, 32, 32, 17, 12, 12, 14, 16, 18, 32 };

	for (int i = 0; i < 10; i++)
		ROW(.id = N(7000 + i), .state = i == 0 ? "CANCELLED" : i == 9 ?
		    "COMPLETED" : "OUT_OF_MEMORY", .el = "1200",
		    .mem = G(lim[i]), .rss = G(i == 9 ? 24 : lim[i] + 0.1),
		    .cpus = "16", .tasks = "1", .cpu = "2000");
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("hold", verdict(), "contradiction: memory already succeeded at a killed size");
	is_string("job 7009 completed at 32G, a size already killed for memory (job 7001): memory is not the deciding variable, so no increment beyond 32G; the largest peak within its limit, 24.0 GiB (job 7009), x 1.30 fits in it",
		  sp_buf_str(&adv.basis), "contradiction: the basis names both jobs and the size");
	is_string("", sp_buf_str(&adv.suggestion), "contradiction: the request is the size: no other number");
	is_double(32 * GIB, adv.target, 0, "contradiction: the hold's size is the target");
	is_string("8 kills at up to 32G", sp_buf_str(&adv.observed), "contradiction: observed");

	/* Killed again below the size that completed: the newest request
	 * dies as the others did, so the hold raises it to that size. */
	for (int i = 0; i < 10; i++)
		ROW(.id = N(7000 + i), .state = i == 0 ? "CANCELLED" : i == 9 ?
		    "COMPLETED" : "OUT_OF_MEMORY", .el = "1200",
		    .mem = G(lim[i]), .rss = G(i == 9 ? 24 : lim[i] + 0.1),
		    .cpus = "16", .tasks = "1", .cpu = "2000");
	ROW(.id = "7010", .state = "OUT_OF_MEMORY", .el = "1200", .mem = G(18), .rss = G(18.1), .cpus = "16", .tasks = "1", .cpu = "2000");
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("raise", verdict(), "hold: a request below the known-good size is raised");
	is_string("#SBATCH --mem=32G", sp_buf_str(&adv.sbatch), "hold: to 32G, never 18G kept");
	ok(has(&adv.basis, "memory is not the deciding variable, so no increment beyond 32G"), "hold: the hold's reason");
	ok(has(&adv.basis, "18G is below that and dies as the killed runs did"), "hold: says why it is raised");

	/* Completed at 24G after 32G was killed: 24G is the smallest size
	 * known to complete after that size or a larger one died. */
	ROW(.id = "1", .state = "OUT_OF_MEMORY", .el = "100", .cpu = "100", .mem = G(32), .rss = G(32.1));
	ROW(.id = "2", .state = "OUT_OF_MEMORY", .el = "100", .cpu = "100", .mem = G(32), .rss = G(32.1));
	ROW(.id = "3", .state = "OUT_OF_MEMORY", .el = "100", .cpu = "100", .mem = G(16), .rss = G(16.1));
	ROW(.id = "4", .state = "COMPLETED", .el = "100", .cpu = "100", .mem = G(32), .rss = G(12));
	ROW(.id = "5", .state = "COMPLETED", .el = "100", .cpu = "100", .mem = G(24), .rss = G(15));
	ROW(.id = "6", .state = "OUT_OF_MEMORY", .el = "100", .cpu = "100", .mem = G(12), .rss = G(12.1));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("raise", verdict(), "hold: 12G is below the hold");
	is_string("#SBATCH --mem=24G", sp_buf_str(&adv.sbatch), "hold: the smallest size that completed after a larger kill");
	ok(has(&adv.basis, "job 5 completed at 24G after a run was killed for memory at 32G (job 1)"), "hold: a larger kill counts");

	/* One kill beside later successes at that size: the need varies
	 * between inputs; the floor holds, not a hold. */
	ROW(.id = "1", .state = "OUT_OF_MEMORY", .el = "100", .cpu = "100", .mem = G(96), .rss = G(97));
	ROW(.id = "2", .state = "COMPLETED", .el = "100", .cpu = "100", .mem = G(96), .rss = G(60));
	ROW(.id = "3", .state = "COMPLETED", .el = "100", .cpu = "100", .mem = G(96), .rss = G(50));
	ROW(.id = "4", .state = "COMPLETED", .el = "100", .cpu = "100", .mem = G(96), .rss = G(55));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("raise", verdict(), "contradiction: one kill is not trial and error");
	is_string("--mem=125G", sp_buf_str(&adv.suggestion), "contradiction: 96 x 1.3 = 124.8 -> 125G (the peaks: 60 x 1.90 = 114G)");
	ok(has(&adv.caution, "job 4 later completed at 96G, a size that was killed: the need varies between runs"),
	   "contradiction: said as a caution");

	/* A completion before the kills is no contradiction. */
	ROW(.id = "1", .state = "COMPLETED", .el = "100", .cpu = "100", .mem = G(8), .rss = G(5));
	ROW(.id = "2", .state = "OUT_OF_MEMORY", .el = "100", .cpu = "100", .mem = G(8), .rss = G(7));
	ROW(.id = "3", .state = "OUT_OF_MEMORY", .el = "100", .cpu = "100", .mem = G(8), .rss = G(7));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("raise", verdict(), "contradiction: a completion before the kill is not one");
	is_string("--mem=11G", sp_buf_str(&adv.suggestion), "contradiction: 8 x 1.3 = 10.4 -> 11G");

	/* Tasks of one array that fit beside tasks that were killed are
	 * different inputs, not a contradiction. */
	for (int i = 0; i < 6; i++)
		ROW(.id = N(900 + i), .aj = "900", .at = N(i),
		    .state = i % 2 ? "OUT_OF_MEMORY" : "COMPLETED", .el = "100", .cpu = "100",
		    .mem = G(6), .rss = G(i % 2 ? 5.9 : 3));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("raise", verdict(), "contradiction: never between tasks of one array");
}

static void
mem_rss_above_limit(void)
{
	/* Four of five readings exceed their limit without a kill. */
	for (int i = 0; i < 4; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(8), .rss = G(9 + i));
	ROW(.id = "5", .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(8), .rss = G(4));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("refuse", verdict(), "above limit: refused when it dominates");
	is_string("MaxRSS exceeds the limit on 4 of 5 runs without being killed: not a footprint at all",
		  sp_buf_str(&adv.basis), "above limit: the basis");
	ok(has(&adv.caution, "MaxRSS reads high"), "above limit: the caveat");

	/* One of six is excluded, and said so. */
	for (int i = 0; i < 5; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(32), .rss = G(10 + i));
	ROW(.id = "6", .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(32), .rss = G(40));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("lower", verdict(), "above limit: the rest still decide");
	is_string("--mem=21G", sp_buf_str(&adv.suggestion), "above limit: 14 GiB x 1.45 (5 peaks) = 20.3 -> 21G, not from 40");
	is_string("largest peak of 5 runs within their limit: 14.0 GiB (job 5), x 1.45",
		  sp_buf_str(&adv.basis), "above limit: the basis");
	ok(has(&adv.caution, "1 run left out: MaxRSS above the limit without a kill"), "above limit: the exclusion is said");
	ok(has(&adv.caution, "the sampling interval is unknown here"), "lower with an unknown interval is cautious");
}

/* Issue 15, item 8: a run killed for memory whose MaxRSS reads above
 * its limit is a kill, not a reading "above the limit without a kill". */
static void
mem_killed_not_untrusted(void)
{
	for (int i = 0; i < 5; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "600", .cpu = "600",
		    .mem = G(32), .rss = G(10 + i));
	for (int i = 0; i < 4; i++)
		ROW(.id = N(i + 6), .state = "OUT_OF_MEMORY", .el = "600", .cpu = "600",
		    .mem = G(8), .rss = G(9));
	ROW(.id = "10", .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(32),
	    .rss = G(40));
	load();
	advise(NULL, SP_FLAG_MEM);
	ok(has(&adv.caution, "1 run left out: MaxRSS above the limit without a kill"),
	   "killed runs above their limit are not counted as left out");
}

/*
 * Issue 14, item 2: an empty field is unknown, run by run.  A run with
 * no state could be a kill; a kill's floor alone never lowers a request
 * that runs with no peak lived at.
 */
static void
mem_unknown_fields(void)
{
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "OUT_OF_MEMORY", .el = "600",
		    .cpu = "600", .mem = G(6), .rss = G(6));
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 4), .state = "COMPLETED", .el = "600",
		    .cpu = "600", .mem = G(12));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("refuse", verdict(), "a kill's floor alone: no lower "
		  "(the peaks of the runs that lived are unknown)");
	is_string("", sp_buf_str(&adv.suggestion), "  and no figure");
	ok(isnan(adv.target), "  no target either");
	ok(has(&adv.basis, "that floor, 8G, is under the request, and 3 "
	       "completed runs have no peak (max_rss_b) in the record to say "
	       "whether less would do"), "  the basis says why");

	for (int i = 0; i < 4; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "600",
		    .cpu = "600", .mem = G(32), .rss = G(10));
	ROW(.id = "5", .state = "", .el = "600", .cpu = "600", .mem = G(32),
	    .rss = G(12));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("refuse", verdict(), "a run with no state: refuse");
	is_string("1 of 5 runs have no state in the record (state): whether "
		  "it completed, timed out or was killed decides the figure",
		  sp_buf_str(&adv.basis), "  naming the column");
	advise(NULL, SP_FLAG_TIME);
	is_string("refuse", verdict(), "  --time too");
}

/* Issue 15, item 7: under a GiB, MiB in round steps, never 1G. */
static void
mem_small(void)
{
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "OUT_OF_MEMORY", .el = "60", .cpu = "60",
		    .mem = N(200 * 1048576.0));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("raise", verdict(), "small: killed at 200M");
	is_string("--mem=300M", sp_buf_str(&adv.suggestion), "small: 200M x 1.3 = 260M -> 300M, not 1G");
	is_string("200M", sp_buf_str(&adv.requested_txt), "small: the request in the same spelling");
	is_double(300 * 1048576.0, adv.target, 0, "small: the number is the one spelled");
}

/* Issue 15, item 11: never the current value as a change. */
static void
keep_is_not_a_change(void)
{
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "36000",
		    .lim = "68400", .cpu = "30000", .mem = G(23), .rss = G(12));
	load();
	advise(NULL, SP_FLAG_TIME);
	is_string("keep", verdict(), "keep: 10 h x 1.90 (3 runs) is the 19:00:00 asked");
	is_string("longest of 3 completed runs took 10:00:00", sp_buf_str(&adv.basis), "keep: no \"19:00:00 would do\" for the 19:00:00 asked");
	advise(NULL, SP_FLAG_MEM);
	is_string("keep", verdict(), "keep: 12 GiB x 1.90 -> 23G, the 23G asked");
	ok(!has(&adv.basis, "would do"), "keep: no \"23G would do\"");

	/* One busy core never raises, nor says "2 would do, within 20%". */
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "3600",
		    .cpus = "1", .tasks = "1", .cpu = "5400");
	load();
	advise(NULL, SP_FLAG_CPUS);
	is_string("keep", verdict(), "inversion: keep");
	ok(!has(&adv.basis, "would do"), "inversion: 2 is not within 20%% of 1");
}

static void
mem_thin_sampling(void)
{
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = N(60 + 1000 * i), .cpu = N(60 + 1000 * i), .mem = G(64), .rss = G(10));
	load();
	site.gather = SP_GATHER_LINUX;
	site.gather_freq_s = 30;
	advise(NULL, SP_FLAG_MEM);
	is_string("lower", verdict(), "thin: 10 GiB x 1.3 = 13G of 64G");
	ok(has(&adv.caution, "thinly sampled: the shortest run had at most 3 samples in 00:01:00 (JobAcctGatherFrequency=30s), so its peak may be low: lower with care"),
	   "thin: 60 s at 30 s is at most 3 samples");
	ok(has(&adv.caution, "MaxRSS reads high under jobacct_gather/linux"), "thin: the linux caveat too");

	site.gather_freq_s = 10;
	advise(NULL, SP_FLAG_MEM);
	ok(!has(&adv.caution, "thinly sampled"), "thin: 7 samples are enough");
	sp_size_site_unknown(&site);
}

static void
mem_refuse(void)
{
	ROW(.id = "1", .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(8), .rss = G(4));
	ROW(.id = "2", .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(8), .rss = G(5));
	ROW(.id = "3", .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(8));
	load();
	advise(NULL, SP_FLAG_MEM);
	is_string("refuse", verdict(), "mem: two readings are too few");
	is_string("needs 3 runs with a peak or a kill at a known limit; there were 2", sp_buf_str(&adv.basis), "mem: the refusal says how many");
}

static void
mem_ceiling(void)
{
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(100), .rss = G(180));
	ROW(.id = "4", .state = "OUT_OF_MEMORY", .el = "600", .cpu = "600", .mem = G(192), .rss = G(150));
	load();
	site.ceiling_mem_b = 192 * GIB;
	advise(NULL, SP_FLAG_MEM);
	is_string("capped", verdict(), "mem ceiling: already at the node's memory");
	ok(has(&adv.basis, "at this partition's ceiling of 192.0 GiB per node"), "mem ceiling: said");
	sp_size_site_unknown(&site);
}

/* ------------------------------------------------------ --cpus-per-task */

static void
cpus_per_task(void)
{
	/* 16 cores over 2 tasks: 8 per task, 20% busy = 1.6 cores a task. */
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "1000",
		    .cpus = "16", .tasks = "2", .cpu = N(3200 - i * 100));
	load();
	advise(NULL, SP_FLAG_CPUS);
	is_string("lower", verdict(), "cpt: 1.6 busy of 8 per task");
	is_string("8", sp_buf_str(&adv.requested_txt), "cpt: requested per task");
	is_string("--cpus-per-task=2", sp_buf_str(&adv.suggestion), "cpt: 1.6 rounds up to 2, no margin below two cores");
	is_string("1.6 cores busy per task at peak across 3 runs", sp_buf_str(&adv.observed), "cpt: observed");
	is_string("the busiest run (job 1) kept 1.6 of its 8 cores per task busy", sp_buf_str(&adv.basis), "cpt: basis");
	ok(has(&adv.caution, "per task: this workload runs up to 2 tasks"), "cpt: per task said");
	ok(has(&adv.caution, "TotalCPU may miss detached worker pools: a lower bound"), "cpt: the lower-bound caveat on a lower");

	/* 4 cores busy of 4: 4.8 -> 5, raised. */
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "1000", .cpus = "4", .tasks = "1", .cpu = "4000");
	load();
	advise(NULL, SP_FLAG_CPUS);
	is_string("raise", verdict(), "cpt: four saturated cores raise");
	is_string("--cpus-per-task=5", sp_buf_str(&adv.suggestion), "cpt: 4 x 1.2 = 4.8 -> 5");

	ROW(.id = "1", .state = "COMPLETED", .el = "1000", .cpus = "4", .tasks = "1", .cpu = "4000");
	ROW(.id = "2", .state = "COMPLETED", .el = "1000", .cpus = "4", .tasks = "1", .cpu = "4000");
	load();
	advise(NULL, SP_FLAG_CPUS);
	is_string("refuse", verdict(), "cpt: two readings are too few");
	is_string("needs 3 runs with a CPU reading; there were 2", sp_buf_str(&adv.basis), "cpt: says how many");
}

static void
cpus_single_core(void)
{
	/* One saturated core: the article's inversion would say 2. */
	for (int i = 0; i < 5; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "1000", .cpus = "1", .tasks = "1", .cpu = "1000");
	load();
	advise(NULL, SP_FLAG_CPUS);
	is_string("keep", verdict(), "single core: a saturated core is kept at 1");
	is_double(1, adv.target, 0, "single core: the target is 1, not 2");
	is_string("1.0 core busy per task at peak across 5 runs", sp_buf_str(&adv.observed), "single core: 1 core, not 1 cores");
	is_string("the busiest run (job 5) kept 1.0 of its 1 core per task busy", sp_buf_str(&adv.basis), "single core: basis");

	/* Read above one core (the linux gather can): still no raise. */
	for (int i = 0; i < 5; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "1000", .cpus = "1", .tasks = "1", .cpu = "1500");
	load();
	advise(NULL, SP_FLAG_CPUS);
	is_string("keep", verdict(), "single core: 1.5 busy never raises");
	ok(has(&adv.basis, "one saturated core is no evidence that a second would help: raising needs 2 or more cores busy"),
	   "single core: the reason is given");

	/* Two cores asked, one used: lower to one. */
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "1000", .cpus = "2", .tasks = "1", .cpu = "1050");
	load();
	advise(NULL, SP_FLAG_CPUS);
	is_string("lower", verdict(), "single core: two asked, one busy");
	is_string("--cpus-per-task=1", sp_buf_str(&adv.suggestion), "single core: 1.05 busy is one core");
}

static void
cpus_ceiling(void)
{
	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "1000", .cpus = "48", .tasks = "1", .cpu = "47000");
	load();
	site.ceiling_cores = 48;
	advise(NULL, SP_FLAG_CPUS);
	is_string("capped", verdict(), "ceiling: 47 busy of 48 on 48-core nodes");
	ok(has(&adv.basis, "at this partition's ceiling of 48 cores per node: a larger request needs a partition with more cores per node"),
	   "ceiling: said");
	is_string("", sp_buf_str(&adv.sbatch), "ceiling: nothing to paste");

	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "1000", .cpus = "24", .tasks = "1", .cpu = "24000");
	load();
	site.ceiling_cores = 28;
	advise(NULL, SP_FLAG_CPUS);
	is_string("raise", verdict(), "ceiling: 24 -> 29 wanted");
	is_string("--cpus-per-task=28", sp_buf_str(&adv.suggestion), "ceiling: never beyond 28 cores");
	ok(has(&adv.caution, "29 wanted, but the partition's largest node has 28 cores: capped there"), "ceiling: the cap is said");
	sp_size_site_unknown(&site);
}

/* --------------------------------------------------------------- --gpus */

static void
gpus(void)
{
	const char *k = "u/p/gpu/w";

	for (int i = 0; i < 4; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "1000", .gpus = "4", .cpu = "900", .key = k);
	load();
	advise(k, SP_FLAG_GPUS);
	is_string("refuse", verdict(), "gpus: no utilization, no judgement");
	is_string("GPU utilization (gpu_util) is recorded for 0 of 4 runs; without it the record cannot size --gpus",
		  sp_buf_str(&adv.basis), "gpus: says why");
	advise(NULL, SP_FLAG_GPUS);
	advise("u/p/cpu/w", SP_FLAG_GPUS);
	is_string("none", verdict(), "gpus: no --gpus line for a CPU workload");

	for (int i = 0; i < 4; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "1000", .gpus = "4", .cpu = "900", .gutil = N(0.2 + 0.01 * i), .key = k);
	load();
	advise(k, SP_FLAG_GPUS);
	is_string("lower", verdict(), "gpus: 0.9 of 4 GPUs busy lowers");
	is_string("--gpus=1", sp_buf_str(&adv.suggestion), "gpus: to one");
	is_string("the busiest run (job 4) kept 0.9 of its 4 GPUs busy", sp_buf_str(&adv.basis), "gpus: basis");
	ok(has(&adv.caution, "fewer GPUs changes the layout"), "gpus: the layout caution");

	for (int i = 0; i < 4; i++)
		ROW(.id = N(i + 1), .state = "COMPLETED", .el = "1000", .gpus = "4", .cpu = "900", .gutil = "0.99", .key = k);
	load();
	advise(k, SP_FLAG_GPUS);
	is_string("keep", verdict(), "gpus: saturated GPUs are never raised");
	ok(has(&adv.basis, "the record never raises --gpus"), "gpus: and it says why");
}

/* No user or no job name in the record: the runs of a key may be
 * unrelated, so no flag is sized from them (issue 30, item 6). */
static void
indistinct(void)
{
	static const char *const keys[] = { "?/p/cpu/w", "u/p/cpu/?", "?/?/?/?" };

	for (int k = 0; k < 3; k++) {
		for (int i = 0; i < 5; i++)
			ROW(.id = N(i + 1), .state = "COMPLETED", .el = "1000", .lim = "3600", .cpus = "4", .tasks = "1", .cpu = "900", .mem = G(8), .rss = G(2), .key = keys[k]);
		load();
		advise(keys[k], SP_FLAG_TIME);
		is_string("refuse", verdict(), "indistinct: refused");
		advise(keys[k], SP_FLAG_MEM);
		is_string("refuse", verdict(), "indistinct: every flag");
		if (k == 1)
			ok(has(&adv.basis, "it has no job name (JobName), so"), "indistinct: names what is missing");
	}
	is_string("groups 5 runs the record cannot tell apart: it has no job name (JobName) and no user (User), so they may be unrelated jobs, and no figure across them means anything",
		  sp_buf_str(&adv.basis), "indistinct: says why");
	ROW(.id = "1", .state = "COMPLETED", .el = "1000", .lim = "3600", .key = "u/p/cpu/w");
	load();
	advise("u/p/cpu/w", SP_FLAG_TIME);
	ok(!has(&adv.basis, "cannot tell apart"), "indistinct: a named key is not");
}

int
main(void)
{
	plan_lazy();
	sp_size_site_unknown(&site);
	time_newest_not_largest();
	time_refuse();
	no_request();
	missing_or_empty();
	time_hang_veto();
	time_computing_floor();
	time_unknown_cause();
	time_p95();
	time_near_limit();
	mem_oom_floor();
	mem_contradiction_hold();
	indistinct();
	mem_rss_above_limit();
	mem_killed_not_untrusted();
	mem_unknown_fields();
	mem_small();
	keep_is_not_a_change();
	mem_thin_sampling();
	mem_refuse();
	mem_ceiling();
	cpus_per_task();
	cpus_single_core();
	cpus_ceiling();
	gpus();
	sp_advice_free(&adv);
	sp_histset_free(&set);
	sp_buf_free(&rows);
	return done_testing();
}
