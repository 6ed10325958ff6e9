/*
 * Findings across runs (reference-rules.md 2.4 and the article): each
 * rule with its numbers, the array that is one submission and never
 * "deterministic", the contradiction that makes memory-search critical,
 * and the array sized from two low probes (figure 5).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_rules_history.h"
#include "sp_histset.h"
#include "tap.h"

#include "testhist.h"

static struct sp_size_site site;
static struct sp_findings found;

/* Loads the rows and finds what they show, most severe first. */
static void
find(void)
{
	load();
	sp_findings_free(&found);
	for (size_t i = 0; i < set.n; i++)
		sp_rules_history(&found, sp_histset_hist(&set, i), &site);
	sp_rules_history_sort(&found);
}

static const struct sp_finding *
get(const char *code)
{
	for (size_t i = 0; i < found.n; i++)
		if (strcmp(found.v[i].code, code) == 0)
			return &found.v[i];
	return NULL;
}

static const char *
sev(const struct sp_finding *p)
{
	return p ? sp_severity_name(p->severity) : "none";
}

static const char *
ev(const struct sp_finding *p)
{
	return p ? p->evidence : "(none)";
}

static const char *
act(const struct sp_finding *p)
{
	return p ? (p->action ? p->action : "") : "(none)";
}

static const char *
ids(const struct sp_finding *p)
{
	return p ? (p->jobids ? p->jobids : "") : "(none)";
}

static void
repeat_failure(void)
{
	const struct sp_finding *p;

	/* cot-exp: 14 hung timeouts at one limit, 6 completions. */
	for (int i = 0; i < 20; i++) {
		int hung = (i % 5 != 0 && i % 5 != 4) || i == 0 || i == 5;

		ROW(.id = N(5100001 + i), .state = hung ? "TIMEOUT" : "COMPLETED",
		    .el = hung ? "1826" : "1780", .lim = "1800",
		    .cpu = hung ? "0.5" : "1780", .gpus = "1", .cpus = "6",
		    .key = "y/test/gpu/cot-exp");
	}
	find();
	p = get("repeat-failure");
	is_string("warning", sev(p), "repeat: 14 of 20 is a warning (not over 80%%)");
	is_string("14 of 20 runs failed; 14 were TIMEOUT. Every one used the same --time=00:30:00. The failures held 7.1 GPU-hours.",
		  ev(p), "repeat: evidence");
	is_string("14 of these consumed under 10 CPU-seconds: they hung, and raising the limit will not help; fix the blocking call (sp-hang lists them).",
		  act(p), "repeat: hung, not slow");
	is_string("5100019 5100018 5100017 5100014 5100013 5100012 5100009 5100008 5100007 5100006",
		  ids(p), "repeat: the newest ten failures");
	ok(get("noop-allocations") != NULL, "repeat: the hangs are also noop-allocations");

	/* Nine of ten failed, one completed: critical, not deterministic. */
	for (int i = 0; i < 10; i++)
		ROW(.id = N(i + 1), .state = i == 3 ? "COMPLETED" : "FAILED", .el = "60", .cpu = "50");
	find();
	p = get("repeat-failure");
	is_string("critical", sev(p), "repeat: 9 of 10 is critical");
	is_string("Reproduce interactively. Not deterministic: 1 of 10 runs completed; compare them with the failures.",
		  act(p), "repeat: not deterministic");

	for (int i = 0; i < 5; i++)
		ROW(.id = N(i + 1), .state = "FAILED", .el = "60", .cpu = "50");
	find();
	is_string("Stop resubmitting; the failure is deterministic. Reproduce interactively.",
		  act(get("repeat-failure")), "repeat: five of five is deterministic");

	/* One array where 2 of 8 tasks completed: never "deterministic". */
	for (int i = 0; i < 8; i++)
		ROW(.id = N(600 + i), .aj = "500", .at = N(i),
		    .state = i < 2 ? "COMPLETED" : "FAILED", .el = "60", .cpu = "50");
	find();
	p = get("repeat-failure");
	is_string("6 of 8 runs failed; 6 were FAILED. All 8 are tasks of one array (job 500).",
		  ev(p), "repeat: one array named");
	is_string("One array submission, not repeated ones: reproduce a single task.",
		  act(p), "repeat: one array, reproduce a task");

	for (int i = 0; i < 5; i++)
		ROW(.id = N(i + 1), .state = i ? "FAILED" : "COMPLETED", .el = "60", .cpu = "50");
	ROW(.id = "9", .state = "CANCELLED", .el = "60", .cpu = "50");
	find();
	ok(get("repeat-failure") == NULL, "repeat: four failures are not five");

	/* A tie between TIMEOUT and FAILED goes to TIMEOUT. */
	for (int i = 0; i < 6; i++)
		ROW(.id = N(i + 1), .state = i % 2 ? "TIMEOUT" : "FAILED", .el = "600",
		    .lim = N(600 + 60 * i), .cpu = "500");
	find();
	is_string("6 of 6 runs failed; 3 were TIMEOUT.", ev(get("repeat-failure")), "repeat: the tie goes to TIMEOUT");
	is_string("Raise --time above 00:15:00 (sp-size --time says by how much).",
		  act(get("repeat-failure")), "repeat: timeouts that computed");

	/* Issue 14, item 3: with no CPU time in the records the timeouts
	 * may have hung; a raise would buy a longer hang. */
	for (int i = 0; i < 6; i++)
		ROW(.id = N(i + 1), .state = "TIMEOUT", .el = "3600",
		    .lim = "3600");
	find();
	ok(strstr(act(get("repeat-failure")), "No timeout is known to have been computing") != NULL,
	   "repeat: timeouts of unknown cause, no raise");
	ok(strstr(act(get("repeat-failure")), "Raise") == NULL, "repeat: no \"Raise\"");

	/* Ids an array task's record may carry hold commas: a space
	 * separates them, and ten ids are ten, whatever they hold. */
	for (int i = 0; i < 12; i++) {
		char id[32];

		snprintf(id, sizeof id, "41039%02d_[1,5]", i);
		ROW(.id = id, .state = "FAILED", .el = "60", .cpu = "50",
		    .start = i < 9 ? "2026-01-01T00:00:00" : "2026-01-02T00:00:00",
		    .key = "y/test/cpu/commas");
	}
	find();
	p = get("repeat-failure");
	is_string("4103911_[1,5] 4103910_[1,5] 4103909_[1,5] 4103908_[1,5] "
		  "4103907_[1,5] 4103906_[1,5] 4103905_[1,5] 4103904_[1,5] "
		  "4103903_[1,5] 4103902_[1,5]", ids(p),
		  "repeat: ids with commas, ten of them, space-separated");
}

static void
memory(void)
{
	static const double lim[] = { 48, 32, 32, 17, 12, 12, 14, 16, 18, 32 };
	const struct sp_finding *p;

	for (int i = 0; i < 10; i++)
		ROW(.id = N(7000 + i), .state = i == 0 ? "CANCELLED" : i == 9 ?
		    "COMPLETED" : "OUT_OF_MEMORY", .el = "1200",
		    .mem = G(lim[i]), .rss = G(i == 9 ? 24 : lim[i] + 0.1),
		    .cpus = "16", .cpu = "2000");
	find();
	p = get("memory-search");
	is_string("critical", sev(p), "memory-search: critical on the contradiction");
	is_string("8 submissions were killed for memory at 6 different --mem values, in order: 32G x2 -> 17G -> 12G x2 -> 14G -> 16G -> 18G. Job 7009 later COMPLETED at 32G, a size already killed (job 7001).",
		  ev(p), "memory-search: the walk and the contradiction");
	is_string("Memory is not the deciding variable: find what else changed (workers, batch size, input shard); no increment beyond 32G, and nothing below it: a smaller request dies as the killed runs did.",
		  act(p), "memory-search: no increment beyond the size known to complete");
	is_string("7009 7001 7002 7003 7004 7005 7006 7007 7008", ids(p), "memory-search: the completion, then the kills");
	is_string("critical", found.n ? sp_severity_name(found.v[0].severity) : "", "memory-search: sorted first");
	is_string("warning", sev(get("repeat-failure")), "memory-search: 8 of 10 failed is a warning");
	is_string("Killed for memory: see the memory finding and sp-size --mem.",
		  act(get("repeat-failure")), "memory-search: repeat-failure points at it");

	ROW(.id = "1", .state = "OUT_OF_MEMORY", .el = "60", .cpu = "60", .mem = G(4));
	ROW(.id = "2", .state = "OUT_OF_MEMORY", .el = "60", .cpu = "60", .mem = G(6));
	ROW(.id = "3", .state = "OUT_OF_MEMORY", .el = "60", .cpu = "60", .mem = G(8));
	find();
	p = get("memory-search");
	is_string("warning", sev(p), "memory-search: a warning without a contradiction");
	is_string("Stop stepping: jump well past the largest failure (8G), then tighten from a measurement.",
		  act(p), "memory-search: monotone");

	ROW(.id = "1", .state = "OUT_OF_MEMORY", .el = "60", .cpu = "60", .mem = G(8));
	ROW(.id = "2", .state = "OUT_OF_MEMORY", .el = "60", .cpu = "60", .mem = G(4));
	ROW(.id = "3", .state = "OUT_OF_MEMORY", .el = "60", .cpu = "60", .mem = G(6));
	find();
	is_string("The search moves both ways and is not converging: measure the peak once with a live reading instead of guessing.",
		  act(get("memory-search")), "memory-search: both ways");

	for (int i = 0; i < 12; i++)
		ROW(.id = N(i + 1), .state = "OUT_OF_MEMORY", .el = "60", .cpu = "60", .mem = G(i + 1));
	find();
	is_string("12 submissions were killed for memory at 12 different --mem values, in order: 1G -> 2G -> 3G -> 4G -> ... 5 more ... -> 10G -> 11G -> 12G.",
		  ev(get("memory-search")), "memory-search: a long walk is cut");

	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "OUT_OF_MEMORY", .el = "60", .cpu = "60", .mem = G(6));
	find();
	p = get("memory-unchanged");
	is_string("warning", sev(p), "memory-unchanged: three kills at one limit");
	is_string("3 submissions were killed for memory, all at --mem=6G; nothing changed between them.",
		  ev(p), "memory-unchanged: evidence");
	ok(get("memory-search") == NULL, "memory-unchanged: not a search");

	ROW(.id = "1", .state = "OUT_OF_MEMORY", .el = "60", .cpu = "60", .mem = G(6));
	ROW(.id = "2", .state = "OUT_OF_MEMORY", .el = "60", .cpu = "60", .mem = G(6));
	find();
	ok(get("memory-unchanged") == NULL, "memory-unchanged: two kills are not enough");
}

static void
array_probes(void)
{
	const struct sp_finding *p;

	/* Two probes at 8G peaking 1.00 and 0.72 GiB, then an array of 142
	 * at 6G whose peaks spread from 0.5 to 12 GiB, then the rerun at 16G. */
	ROW(.id = "8001", .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(8), .rss = G(1.00));
	ROW(.id = "8002", .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(8), .rss = G(0.72));
	for (int i = 0; i < 142; i++) {
		double peak = 0.5 + 11.5 * i / 141.0;

		ROW(.id = N(9001 + i), .aj = "9000", .at = N(i),
		    .state = peak > 6 ? "OUT_OF_MEMORY" : "COMPLETED", .el = "600", .cpu = "600",
		    .mem = G(6), .rss = G(peak > 6 ? 5.9 : peak));
	}
	for (int i = 0; i < 142; i++)
		ROW(.id = N(9501 + i), .aj = "9500", .at = N(i), .state = "COMPLETED",
		    .el = "600", .cpu = "600", .mem = G(16), .rss = G(0.5 + 11.5 * i / 141.0));
	find();
	p = get("array-probes");
	/* Issue 22: the rerun at 16G ended the kills, so the finding says
	 * the failure is resolved instead of repeating the alarm. */
	is_string("info", sev(p), "array-probes: found, resolved by the rerun");
	is_string("Resolved by --mem 6G -> 16G (142 runs since, none killed for memory). "
		  "Found before the change: "
		  "Array 9000 (142 tasks, --mem=6G) had 74 killed for memory. Before it, 2 single runs peaked at 1.0 GiB and 737.3 MiB. Across the workload's 284 array tasks (a killed task counts at its limit) the highest probe is at or above only 14 (5%); the tasks reach 12.0 GiB.",
		  ev(p), "array-probes: evidence, after what resolved it");
	is_string("", act(p), "array-probes: resolved, nothing to do");
	is_string("9000 8001 8002", ids(p), "array-probes: the array and its probes");
	ok(get("memory-unchanged") == NULL && get("memory-search") == NULL,
	   "array-probes: one array is one submission, not a memory walk");

	/* The same array, rerun as one task at 16G: too few runs since to
	 * call the change a fix, so the alarm stands with its action. */
	ROW(.id = "8001", .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(8), .rss = G(1.00));
	ROW(.id = "8002", .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(8), .rss = G(0.72));
	for (int i = 0; i < 142; i++) {
		double peak = 0.5 + 11.5 * i / 141.0;

		ROW(.id = N(9001 + i), .aj = "9000", .at = N(i),
		    .state = peak > 6 ? "OUT_OF_MEMORY" : "COMPLETED", .el = "600",
		    .cpu = "600", .mem = G(6), .rss = G(peak > 6 ? 5.9 : peak));
	}
	ROW(.id = "9501", .aj = "9500", .at = "0", .state = "COMPLETED",
	    .el = "600", .cpu = "600", .mem = G(16), .rss = G(12));
	find();
	p = get("array-probes");
	is_string("warning", sev(p), "array-probes: one run since is not a fix");
	is_string("Array 9000 (142 tasks, --mem=6G) had 74 killed for memory. Before it, 2 single runs peaked at 1.0 GiB and 737.3 MiB. Across the workload's 143 array tasks (a killed task counts at its limit) the highest probe is at or above only 7 (5%); the tasks reach 12.0 GiB.",
		  ev(p), "array-probes: evidence");
	is_string("Size an array from its population, not from a sample: run the largest inputs first, or request above the population's peak (--mem=16G covers the largest seen, x 1.30). MaxRSS reads high; a live reading of the largest task measures it.",
		  act(p), "array-probes: action");
	ok(get("change-held") == NULL, "array-probes: no change-held on one run");

	/* Probes that sat high in the population are no finding. */
	ROW(.id = "8001", .state = "COMPLETED", .el = "600", .cpu = "600", .mem = G(16), .rss = G(11));
	for (int i = 0; i < 142; i++) {
		double peak = 0.5 + 11.5 * i / 141.0;

		ROW(.id = N(9001 + i), .aj = "9000", .at = N(i),
		    .state = peak > 6 ? "OUT_OF_MEMORY" : "COMPLETED", .el = "600", .cpu = "600",
		    .mem = G(6), .rss = G(peak > 6 ? 5.9 : peak));
	}
	find();
	ok(get("array-probes") == NULL, "array-probes: a high probe is no finding");
}

static void
requeue(void)
{
	const struct sp_finding *p;

	for (int i = 1; i <= 3; i++) {
		ROW(.id = N(i), .att = "0", .state = "NODE_FAIL", .el = "600", .cpu = "600");
		ROW(.id = N(i), .att = "1", .state = "COMPLETED", .el = "900", .cpu = "900");
	}
	for (int i = 4; i <= 10; i++)
		ROW(.id = N(i), .att = "0", .state = "COMPLETED", .el = "900", .cpu = "900");
	find();
	p = get("requeue-repeat");
	is_string("3 of 10 jobs were requeued, 6 attempts in all; 3 of the 3 abandoned attempts ended NODE_FAIL; they ran 00:30:00.",
		  ev(p), "requeue: evidence");
	is_string("The node failed, not the job: see sp-nodes for the machines.", act(p), "requeue: the node");
	is_string("3 2 1", ids(p), "requeue: the jobs");

	for (int i = 1; i <= 2; i++) {
		ROW(.id = N(i), .att = "0", .state = "PREEMPTED", .el = "600", .cpu = "600");
		ROW(.id = N(i), .att = "1", .state = "COMPLETED", .el = "900", .cpu = "900");
	}
	find();
	ok(get("requeue-repeat") == NULL, "requeue: two requeued jobs are not enough");
}

static void
noop(void)
{
	const struct sp_finding *p;

	for (int i = 0; i < 3; i++)
		ROW(.id = N(i + 1), .state = "TIMEOUT", .el = "3600", .lim = "3600",
		    .cpu = "1", .gpus = "2", .cpus = "8", .key = "u/p/gpu/w");
	ROW(.id = "4", .state = "CANCELLED", .el = "600", .cpu = "2", .gpus = "2", .cpus = "8", .key = "u/p/gpu/w");
	ROW(.id = "5", .state = "OUT_OF_MEMORY", .el = "600", .cpu = "2", .gpus = "2", .cpus = "8", .key = "u/p/gpu/w");
	ROW(.id = "6", .state = "COMPLETED", .el = "600", .cpu = "2000", .gpus = "2", .cpus = "8", .key = "u/p/gpu/w");
	find();
	p = get("noop-allocations");
	is_string("4 of 6 runs ran over 00:05:00 while consuming under 10 CPU-seconds; together they held 6.3 GPU-hours; 1 was killed within 00:15:00, so it was noticed: the cost is in the long ones.",
		  ev(p), "noop: evidence (the OOM-killed one is explained)");
	is_string("3 2 1 4", ids(p), "noop: most compute first");
}

static void
near_limit(void)
{
	const struct sp_finding *p;

	ROW(.id = "1", .state = "COMPLETED", .el = "20000", .lim = "28800", .cpu = "19000");
	ROW(.id = "2", .state = "COMPLETED", .el = "28724", .lim = "28800", .cpu = "28000");
	ROW(.id = "3", .state = "COMPLETED", .el = "21000", .lim = "28800", .cpu = "20000");
	find();
	p = get("near-limit");
	is_string("1 completed run finished within 10% of its --time; job 2 took 07:58:44 of 08:00:00 (00:01:16 to spare).",
		  ev(p), "near-limit: evidence");
	is_string("Raise --time before a slower run is cut off: --time=15:30:00.", act(p), "near-limit: action (28724 s x 1.92, three runs)");

	ROW(.id = "1", .state = "COMPLETED", .el = "20000", .lim = "28800", .cpu = "19000");
	ROW(.id = "2", .state = "COMPLETED", .el = "28724", .lim = "28800", .cpu = "28000");
	ROW(.id = "3", .state = "COMPLETED", .el = "21000", .lim = "43200", .cpu = "20000");
	find();
	ok(get("near-limit") == NULL, "near-limit: the newest request already leaves room");
}

/* Issue 22, the follow-up: runs before a change of request on the last
 * days of May, the runs since from 2026-06-01 on. */
static const char *
day(int before, int i)
{
	static char ring[8][32];
	static int k;

	k = (k + 1) % 8;
	snprintf(ring[k], sizeof ring[k], "2026-%s-%02dT%02d:00:00",
		 before ? "05" : "06", before ? 20 + i / 10 : 1 + i / 10,
		 i % 10);
	return ring[k];
}

static void
changes(void)
{
	const struct sp_finding *p;

	/* A raise that held: five kills at 8G, six completions at 16G. */
	for (int i = 0; i < 5; i++)
		ROW(.id = N(100 + i), .start = day(1, i), .state = "OUT_OF_MEMORY",
		    .el = "600", .mem = G(8), .rss = G(8.1), .cpu = "500");
	for (int i = 0; i < 6; i++)
		ROW(.id = N(200 + i), .start = day(0, i), .state = "COMPLETED",
		    .el = "900", .mem = G(16), .rss = G(11), .cpu = "800");
	find();
	p = get("change-held");
	is_string("info", sev(p), "held: info");
	is_string("--mem 8G -> 16G on 2026-06-01: 6 runs since, none killed for memory; 5 of 5 before were.",
		  ev(p), "held: the runs on each side");
	is_string("", act(p), "held: nothing to do");
	is_string("104 200 205", ids(p), "held: the last before, the first and newest since");
	p = get("memory-unchanged");
	is_string("info", sev(p), "held: the old alarm is resolved");
	is_string("Resolved by --mem 8G -> 16G on 2026-06-01 (6 runs since, none killed for memory). "
		  "Found before the change: 5 submissions were killed for memory, all at --mem=8G; nothing changed between them.",
		  ev(p), "held: resolved, then what was found");
	is_string("", act(p), "held: the resolved finding asks nothing");
	ok(get("change-hurt") == NULL && get("change-no-effect") == NULL,
	   "held: no other verdict");

	/* The same with a single run since: too early to call it held. */
	for (int i = 0; i < 5; i++)
		ROW(.id = N(100 + i), .start = day(1, i), .state = "OUT_OF_MEMORY",
		    .el = "600", .mem = G(8), .rss = G(8.1), .cpu = "500");
	ROW(.id = "200", .start = day(0, 0), .state = "COMPLETED", .el = "900",
	    .mem = G(16), .rss = G(11), .cpu = "800");
	find();
	ok(get("change-held") == NULL, "held: one run since is not enough");
	is_string("warning", sev(get("memory-unchanged")), "held: the alarm stands until then");

	/* A cut that hurt: --time 04:00:00 -> 02:00:00. */
	for (int i = 0; i < 5; i++)
		ROW(.id = N(300 + i), .start = day(1, i), .state = "COMPLETED",
		    .el = N(9000 + 60 * i), .lim = "14400", .cpu = "8800");
	for (int i = 0; i < 4; i++)
		ROW(.id = N(400 + i), .start = day(0, i),
		    .state = i == 1 ? "COMPLETED" : "TIMEOUT",
		    .el = i == 1 ? "6000" : "7230", .lim = "7200",
		    .cpu = i == 1 ? "5900" : "7100");
	find();
	p = get("change-hurt");
	is_string("warning", sev(p), "hurt: a warning");
	is_string("--time 04:00:00 -> 02:00:00 on 2026-06-01: 3 of 4 runs since timed out while computing, none of 5 before.",
		  ev(p), "hurt: the runs on each side");
	is_string("Restore --time=04:00:00, the request before the change (sp-size --time sizes it from the runs).",
		  act(p), "hurt: the action restores");
	is_string("304 400 403", ids(p), "hurt: ids");

	/* A cut after which the runs still complete is no finding. */
	for (int i = 0; i < 5; i++)
		ROW(.id = N(300 + i), .start = day(1, i), .state = "COMPLETED",
		    .el = "3000", .lim = "14400", .cpu = "2900");
	for (int i = 0; i < 4; i++)
		ROW(.id = N(400 + i), .start = day(0, i), .state = "COMPLETED",
		    .el = "3000", .lim = "7200", .cpu = "2900");
	find();
	ok(get("change-hurt") == NULL && get("change-held") == NULL &&
	   get("change-no-effect") == NULL, "a cut that did no harm: nothing");

	/* A raise that did nothing: killed at 8G, killed again at 12G. */
	for (int i = 0; i < 3; i++)
		ROW(.id = N(500 + i), .start = day(1, i), .state = "OUT_OF_MEMORY",
		    .el = "600", .mem = G(8), .rss = G(8.1), .cpu = "500");
	for (int i = 0; i < 3; i++)
		ROW(.id = N(600 + i), .start = day(0, i), .state = "OUT_OF_MEMORY",
		    .el = "600", .mem = G(12), .rss = G(12.1), .cpu = "500");
	find();
	p = get("change-no-effect");
	is_string("warning", sev(p), "no effect: a warning");
	is_string("--mem 8G -> 12G on 2026-06-01 did not stop the kills: 3 of 3 runs since were killed for memory, as 3 of 3 before were.",
		  ev(p), "no effect: the runs on each side");
	is_string("The step did not reach the peak: measure it once (a live reading) and set --mem from it, or find what else grows (workers, batch size, input).",
		  act(p), "no effect: measure");
	is_string("warning", sev(get("memory-search")), "no effect: the memory alarm stands");

	/* A raise of --time over runs that hang: the hang repeats. */
	for (int i = 0; i < 5; i++)
		ROW(.id = N(700 + i), .start = day(1, i), .state = "TIMEOUT",
		    .el = "1830", .lim = "1800", .cpu = "1");
	for (int i = 0; i < 3; i++)
		ROW(.id = N(800 + i), .start = day(0, i), .state = "TIMEOUT",
		    .el = "3630", .lim = "3600", .cpu = "1");
	find();
	p = get("change-no-effect");
	is_string("--time 00:30:00 -> 01:00:00 on 2026-06-01 did not stop the timeouts: 3 of 3 runs since timed out, as 5 of 5 before did.",
		  ev(p), "no effect: hung timeouts on each side");
	is_string("3 of the timeouts since computed nothing: they hung, and no --time helps; fix the blocking call (sp-hang lists them).",
		  act(p), "no effect: a hang, not a limit");
	is_string("critical", sev(get("repeat-failure")), "no effect: repeat-failure stands");

	/* A raise of --time that ended timeouts that computed: the repeated
	 * failure is resolved. */
	for (int i = 0; i < 6; i++)
		ROW(.id = N(900 + i), .start = day(1, i), .state = "TIMEOUT",
		    .el = "1830", .lim = "1800", .cpu = "1790");
	for (int i = 0; i < 4; i++)
		ROW(.id = N(950 + i), .start = day(0, i), .state = "COMPLETED",
		    .el = "2400", .lim = "3600", .cpu = "2390");
	find();
	is_string("--time 00:30:00 -> 01:00:00 on 2026-06-01: 4 runs since, none timed out; 6 of 6 before timed out while computing.",
		  ev(get("change-held")), "held: --time");
	p = get("repeat-failure");
	is_string("info", sev(p), "held: repeat-failure resolved");
	is_string("Resolved by --time 00:30:00 -> 01:00:00 on 2026-06-01 (4 runs since, none timed out). "
		  "Found before the change: 6 of 10 runs failed; 6 were TIMEOUT. Every one used the same --time=00:30:00.",
		  ev(p), "held: repeat-failure says what resolved it");

	/* Back to a request used before: no clean "since", no verdict. */
	ROW(.id = "1", .start = day(1, 0), .state = "OUT_OF_MEMORY", .el = "60", .mem = G(8));
	ROW(.id = "2", .start = day(1, 1), .state = "OUT_OF_MEMORY", .el = "60", .mem = G(8));
	ROW(.id = "3", .start = day(1, 2), .state = "COMPLETED", .el = "60", .mem = G(16), .rss = G(9));
	ROW(.id = "4", .start = day(0, 0), .state = "OUT_OF_MEMORY", .el = "60", .mem = G(8));
	ROW(.id = "5", .start = day(0, 1), .state = "OUT_OF_MEMORY", .el = "60", .mem = G(8));
	find();
	ok(get("change-held") == NULL && get("change-hurt") == NULL &&
	   get("change-no-effect") == NULL, "back to an earlier request: no verdict");
	is_string("warning", sev(get("memory-unchanged")), "back to an earlier request: the alarm stands");

	/* The runs arrive in any order: the same findings. */
	for (int i = 5; i >= 0; i--)
		ROW(.id = N(200 + i), .start = day(0, i), .state = "COMPLETED",
		    .el = "900", .mem = G(16), .rss = G(11), .cpu = "800");
	for (int i = 4; i >= 0; i--)
		ROW(.id = N(100 + i), .start = day(1, i), .state = "OUT_OF_MEMORY",
		    .el = "600", .mem = G(8), .rss = G(8.1), .cpu = "500");
	find();
	is_string("--mem 8G -> 16G on 2026-06-01: 6 runs since, none killed for memory; 5 of 5 before were.",
		  ev(get("change-held")), "held: the newest first gives the same");
	is_string("104 200 205", ids(get("change-held")), "held: the same ids");
}

int
main(void)
{
	plan_lazy();
	sp_size_site_unknown(&site);
	repeat_failure();
	memory();
	array_probes();
	requeue();
	noop();
	near_limit();
	changes();
	sp_findings_free(&found);
	sp_histset_free(&set);
	sp_buf_free(&rows);
	return done_testing();
}
