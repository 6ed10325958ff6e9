/*
 * demo_cases.c - the named cases: every story the article and the
 * original tool's demo tell, with their numbers, as hand-placed jobs.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo_int.h"

static void
add(struct demo *d, const struct jspec *s)
{
	d->named = sp_xgrow(d->named, &d->capnamed, d->nnamed + 1,
			    sizeof(*d->named));
	demo_build(&d->named[d->nnamed], s, &d->strs);
	d->named[d->nnamed].ord = d->nnamed;
	d->nnamed++;
}

static struct jspec
base(const char *name, int user, int part, int cpus, int gpus,
     int64_t mem_g, int limit_min)
{
	struct jspec s;

	spec_init(&s);
	s.name = name;
	s.user = user;
	s.part = part;
	s.cpus = cpus;
	s.gpus = gpus;
	s.mem_m = mem_g * GIB_M;
	s.limit_min = limit_min;
	s.state = ST_COMPLETED;
	return s;
}

/*
 * The tokenizer (article, figure 4; reference rc-tok-github_code): ten
 * submissions in one evening, --mem walking 48G down to 12G and back up;
 * eight memory kills, the first two (both at 32G) before any sample; the
 * last completes at 32G -- a size already killed twice -- peaking at 24G.
 */
void
demo_case_tokenizer(struct demo *d)
{
	static const struct {
		int mem_g, state, mo, day, h, mi;
		int64_t elapsed;
		int rss_permille;	/* of the limit; 0 none */
	} run[10] = {
		{ 48, ST_CANCELLED, 3, 3, 18, 41, 212, 0 },
		{ 32, ST_OOM, 3, 3, 19, 2, 27, 0 },
		{ 32, ST_OOM, 3, 3, 19, 9, 41, 0 },
		{ 17, ST_OOM, 3, 3, 19, 31, 344, 1021 },
		{ 12, ST_OOM, 3, 3, 20, 14, 298, 1034 },
		{ 12, ST_OOM, 3, 3, 21, 5, 317, 1012 },
		{ 14, ST_OOM, 3, 3, 22, 20, 352, 1027 },
		{ 16, ST_OOM, 3, 3, 23, 48, 371, 1018 },
		{ 18, ST_OOM, 3, 4, 1, 37, 389, 1009 },
		{ 32, ST_COMPLETED, 3, 4, 3, 21, 1200, 0 },
	};

	for (int i = 0; i < 10; i++) {
		struct jspec s = base("rc-tok-github_code", ALICE, P_CPU, 16,
				      0, run[i].mem_g, 480);

		s.script = "tok_github.sh";
		s.dir = "/home/alice/rc-tok";
		s.node = C(17);
		s.submit = at(run[i].mo, run[i].day, run[i].h, run[i].mi,
			      11 + i * 5);
		s.wait = 6 + i * 3;
		s.elapsed = run[i].elapsed;
		s.state = run[i].state;
		s.util = 0.62;
		s.sys_frac = 0.09;
		s.log = LOG_NAMED;
		s.salt = 0x70c0 + (uint64_t)i;
		if (i == 0) {
			s.cancelled_by = demo_users[ALICE].uid;
			s.util = 0.55;
			s.rss_k = 23488102;	/* 22.4 GiB */
		} else if (i == 9) {
			s.util = 0.71;
			s.rss_k = 24 * GIB_K;
		} else if (run[i].rss_permille == 0) {
			s.rss_k = -1;
		} else {
			s.rss_k = run[i].mem_g * GIB_K *
			    run[i].rss_permille / 1000;
		}
		add(d, &s);
	}
}

static void
shuffle_ints(int *v, int n, struct rng *r)
{
	for (int i = n - 1; i > 0; i--) {
		int k = (int)rint_in(r, 0, i), t = v[i];

		v[i] = v[k];
		v[k] = t;
	}
}

/*
 * The corpus array (article, figure 5): two single-task probes at 8G
 * peak at 1.00 and 0.72 GiB; the 142-task array sized from them at 6G
 * loses 71 tasks (37 hours) to memory; the rerun at 12G completes within
 * 41 minutes, and its per-task peaks put both probes in the smallest
 * fifth (59 shards above 6 GiB, 12 more killed by a brief spike).
 */
#define CORPUS_TASKS	142
#define CORPUS_LOST_S	133200		/* 37 hours of task time */

static void
corpus_peaks(int64_t *peak_k)
{
	static const struct {
		int n;
		double lo, hi;		/* GiB */
	} band[] = {
		{ 14, 0.38, 0.715 }, { 9, 0.73, 0.99 }, { 48, 1.05, 5.55 },
		{ 12, 5.62, 5.98 }, { 59, 6.03, 7.29 },
	};
	int order[CORPUS_TASKS], k = 0;
	int64_t sorted[CORPUS_TASKS];
	struct rng r;

	rseed(&r, 0xc0de, 142);
	for (size_t b = 0; b < sizeof(band) / sizeof(band[0]); b++)
		for (int i = 0; i < band[b].n; i++)
			sorted[k++] = (int64_t)(rdbl(&r, band[b].lo,
			    band[b].hi) * (double)GIB_K);
	sorted[CORPUS_TASKS - 1] = (int64_t)(7.30 * (double)GIB_K);
	for (int i = 0; i < CORPUS_TASKS; i++)
		order[i] = i;
	shuffle_ints(order, CORPUS_TASKS, &r);
	for (int i = 0; i < CORPUS_TASKS; i++)
		peak_k[i] = sorted[order[i]];
}

void
demo_case_corpus(struct demo *d)
{
	int64_t peak[CORPUS_TASKS], full[CORPUS_TASKS], lost = 0;
	int64_t killed_el[CORPUS_TASKS];
	int last_killed = -1;
	struct rng r;
	struct jspec s;

	corpus_peaks(peak);
	rseed(&r, 0xc0de, 6);
	/* The probes, a morning before the array. */
	for (int i = 0; i < 2; i++) {
		s = base("scan-corpus", ALICE, P_CPU, 2, 0, 8, 120);
		s.script = "scan_shard.sh";
		s.dir = "/scratch/alice/corpus-scan";
		s.submit = i == 0 ? at(2, 10, 10, 5, 12) : at(2, 10, 10, 48, 40);
		s.wait = 4;
		s.elapsed = i == 0 ? 1480 : 1320;
		s.rss_k = i == 0 ? GIB_K : 754975;	/* 1.00, 0.72 GiB */
		s.util = 0.9;
		s.sys_frac = 0.08;
		s.node = C(50 + i);
		s.salt = 0xb0be + (uint64_t)i;
		add(d, &s);
	}
	/* Who dies at 6G: every shard above it, and a dozen just under. */
	for (int i = 0; i < CORPUS_TASKS; i++) {
		double gib = (double)peak[i] / (double)GIB_K;

		full[i] = 1500 + (int64_t)(gib * 130.0) + rint_in(&r, 0, 200);
		killed_el[i] = 0;
		if (gib > 5.6) {
			killed_el[i] = (int64_t)((double)full[i] *
			    rdbl(&r, 0.66, 0.87));
			lost += killed_el[i];
			last_killed = i;
		}
	}
	/* Pin the destroyed task time to the article's 37 hours. */
	killed_el[last_killed] += CORPUS_LOST_S - lost;
	for (int i = 0; i < CORPUS_TASKS; i++) {
		s = base("scan-corpus", ALICE, P_CPU, 2, 0, 6, 120);
		s.script = "scan_shard.sh";
		s.dir = "/scratch/alice/corpus-scan";
		s.submit = at(2, 10, 14, 20, 7);
		s.array_n = CORPUS_TASKS;
		s.array_i = i;
		s.seq = i;
		s.wait = 3 + i * 3 / 2;
		s.util = 0.9;
		s.sys_frac = 0.08;
		s.node = C(50 + i % 22);
		s.salt = 0xa11a + (uint64_t)i;
		if (killed_el[i] > 0) {
			s.state = ST_OOM;
			s.elapsed = killed_el[i];
			s.rss_k = (int64_t)(6.0 * (double)GIB_K *
			    rdbl(&r, 0.90, 0.995));
		} else {
			s.elapsed = full[i];
			s.rss_k = peak[i];
		}
		add(d, &s);
	}
	/* The rerun, sized from the population: done in 41 minutes. */
	for (int i = 0; i < CORPUS_TASKS; i++) {
		double gib = (double)peak[i] / (double)GIB_K;

		s = base("scan-corpus", ALICE, P_CPU, 2, 0, 12, 120);
		s.script = "scan_shard.sh";
		s.dir = "/scratch/alice/corpus-scan";
		s.submit = at(2, 10, 16, 2, 30);
		s.array_n = CORPUS_TASKS;
		s.array_i = i;
		s.seq = i;
		s.wait = 2 + i / 4;
		s.elapsed = 1400 + (int64_t)(gib * 125.0) + rint_in(&r, 0, 100);
		s.rss_k = peak[i];
		s.util = 0.9;
		s.sys_frac = 0.08;
		s.node = C(72 + i % 22);
		s.salt = 0x2e2a + (uint64_t)i;
		add(d, &s);
	}
}

/*
 * The reasoning experiment (article, figure 6, third row): 99 timeouts
 * at an unchanged 30-minute limit, each blocked with almost no CPU
 * (50 GPU-hours, 300 core-hours between them), among 38 runs that
 * completed.
 */
#define REASON_RUNS	137
#define REASON_TIMEOUTS	99
#define REASON_TIMEOUT_S 180000		/* 50 GPU-h at one GPU */

void
demo_case_reasoning(struct demo *d)
{
	int outcome[REASON_RUNS], done = 0;
	int64_t sum = 0, span = 44LL * 86400 / REASON_RUNS;
	struct rng r;

	rseed(&r, 0x4ea5, 99);
	for (int i = 0; i < REASON_RUNS; i++)
		outcome[i] = i < REASON_TIMEOUTS;
	shuffle_ints(outcome, REASON_RUNS, &r);
	for (int i = 0; i < REASON_RUNS; i++) {
		struct jspec s = base("reasoning-exp", ALICE, P_GPU, 6, 1, 80,
				      30);

		s.script = "run_reasoning.sh";
		s.submit = at(1, 26, 9, 0, 0) + i * span +
		    rint_in(&r, 0, 10800);
		s.wait = rint_in(&r, 5, 900);
		s.node = G((int)rint_in(&r, 1, NG_SMALL));
		s.log = LOG_NAMED;
		s.salt = 0x4ea50000 + (uint64_t)i;
		if (outcome[i]) {
			s.state = ST_TIMEOUT;
			s.elapsed = 1800 + rint_in(&r, 5, 31);
			if (++done == REASON_TIMEOUTS)
				s.elapsed = REASON_TIMEOUT_S - sum;
			sum += s.elapsed;
			s.cpu_ms = rint_in(&r, 1200, 7900);
			s.gpu_util = 0;
			s.rss_k = rint_in(&r, 3250000, 3560000);
		} else {
			s.elapsed = rint_in(&r, 540, 1620);
			s.util = rdbl(&r, 0.5, 0.6);
			s.gpu_util = (int)rint_in(&r, 70, 90);
			s.rss_k = rint_in(&r, 3400000, 3900000);
		}
		add(d, &s);
	}
}

/*
 * Increases before any failure (article, figure 8 and after): the gating
 * experiment whose newest run asks 24G though an earlier one peaked at
 * 34.56G; a family whose recent runs ask 35 minutes though its longest
 * completed run took 4:10:00; a pretraining slice that finished 1:16
 * inside its 8-hour limit.
 */
void
demo_case_increases(struct demo *d)
{
	static const struct {
		int mem_g, day, mo;
		int64_t rss_k, elapsed;
	} gate[5] = {
		{ 48, 28, 1, 31582863, 3310 },	/* 30.12 GiB */
		{ 48, 30, 1, 36238787, 4790 },	/* 34.56 GiB */
		{ 48, 3, 2, 32547143, 4120 },	/* 31.04 GiB */
		{ 24, 6, 3, 20268974, 3650 },	/* 19.33 GiB */
		{ 24, 11, 3, 22932208, 3980 },	/* 21.87 GiB */
	};
	static const struct {
		int tag, mo, day, limit_min;
		int64_t elapsed;
	} warm[8] = {
		{ 100, 2, 2, 360, 12130 }, { 200, 2, 4, 360, 15000 },
		{ 400, 2, 6, 360, 13720 }, { 50, 3, 9, 35, 1092 },
		{ 25, 3, 10, 35, 1480 }, { 10, 3, 11, 35, 1865 },
		{ 5, 3, 12, 35, 1653 }, { 1, 3, 13, 35, 1310 },
	};
	static const struct {
		int mo, day;
		int64_t elapsed;
	} slice[4] = {
		{ 2, 15, 24072 }, { 2, 22, 25353 }, { 3, 1, 28724 },
		{ 3, 8, 24920 },
	};
	char name[64];

	for (int i = 0; i < 5; i++) {
		struct jspec s;

		snprintf(name, sizeof(name), "moe-gating-r%d", i + 1);
		s = base(name, BOB, P_GPU, 8, 1, gate[i].mem_g, 180);
		s.script = "gating.sh";
		s.dir = "/home/bob/moe-gating";
		s.submit = at(gate[i].mo, gate[i].day, 14, 10 + i, 3);
		s.wait = 40 + i * 17;
		s.elapsed = gate[i].elapsed;
		s.rss_k = gate[i].rss_k;
		s.node = G(4 + i * 5);
		s.salt = 0x9a7e + (uint64_t)i;
		add(d, &s);
	}
	for (int i = 0; i < 8; i++) {
		struct jspec s;

		snprintf(name, sizeof(name), "ablate-warmup-%d", warm[i].tag);
		s = base(name, CAROL, P_GPU, 8, 1, 40, warm[i].limit_min);
		s.script = "ablate.sh";
		s.dir = "/home/carol/ablate";
		s.submit = at(warm[i].mo, warm[i].day, 10, 2 + i, 30);
		s.wait = 25 + i * 11;
		s.elapsed = warm[i].elapsed;
		s.rss_k = (int64_t)(11.5 * (double)GIB_K) + i * 40961;
		s.util = 0.6;
		s.node = G(6 + i * 4);
		s.log = LOG_NAMED;
		s.salt = 0x3a3a + (uint64_t)i;
		add(d, &s);
	}
	for (int i = 0; i < 4; i++) {
		struct jspec s;

		snprintf(name, sizeof(name), "pretrain-slice-%d", i + 1);
		s = base(name, ALICE, P_GPU, 32, 4, 256, 480);
		s.script = "slice.sh";
		s.dir = "/scratch/alice/pretrain";
		s.submit = at(slice[i].mo, slice[i].day, 21, 30, 0);
		s.wait = 310 + i * 45;
		s.elapsed = slice[i].elapsed;
		s.rss_k = 188 * GIB_K + i * 1048577;
		s.util = 0.8;
		s.gpu_util = 93;
		s.srun_tasks = 4;
		s.node = G(10 + i * 7);
		s.log = LOG_NAMED;
		s.salt = 0x511c + (uint64_t)i;
		add(d, &s);
	}
}

/*
 * The evaluation of the article's figure 3 (eval-ckpt-4000): a day's
 * limit for a 42-minute run, MaxRSS of 46.3 GiB over a 32G limit without
 * a kill, 48.7 % of its CPU in the kernel.  Its siblings are ordinary;
 * one more is still pending.
 */
void
demo_case_eval(struct demo *d)
{
	static const struct {
		int tag, mo, day;
		int64_t elapsed;
	} run[6] = {
		{ 1000, 2, 20, 2311 }, { 2000, 2, 23, 2598 },
		{ 3000, 2, 26, 2450 }, { 4000, 3, 2, 2497 },
		{ 5000, 3, 5, 2660 }, { 6000, 3, 9, 2380 },
	};
	char name[64];
	struct jspec s;

	for (int i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "eval-ckpt-%d", run[i].tag);
		s = base(name, ALICE, P_GPU, 8, 1, 32, 1440);
		s.script = "eval_ckpt.sh";
		s.dir = "/home/alice/eval";
		s.submit = at(run[i].mo, run[i].day, 16, 40, 9 + i);
		s.wait = 12 + i * 9;
		s.elapsed = run[i].elapsed;
		s.node = G(21 + i);
		s.salt = 0xe7a1 + (uint64_t)i;
		if (run[i].tag == 4000) {
			s.cpu_ms = 10000000;
			s.sys_ms = 4870000;		/* 48.7 % */
			s.rss_k = 48548659;		/* 46.3 GiB */
			s.gpu_util = 61;
		} else {
			s.util = 0.35;
			s.sys_frac = 0.12;
			s.rss_k = (int64_t)((17.0 + i * 0.8) * (double)GIB_K);
			s.gpu_util = 64 + i;
		}
		add(d, &s);
	}
	s = base("eval-ckpt-7000", ALICE, P_GPU, 8, 1, 32, 1440);
	s.script = "eval_ckpt.sh";
	s.dir = "/home/alice/eval";
	s.submit = NOW - 2400;
	s.pending = 1;
	s.salt = 0xe7a7;
	add(d, &s);
}

/*
 * Allocations that held GPUs and computed nothing (article, figure 10),
 * long and short, one of them cancelled (the reference's node-evaluation:
 * 42 hours on two GPUs with 0.54 s of CPU).  One CPU job moved 600 GiB
 * with almost no CPU: I/O explains it, so it is no hang.
 */
void
demo_case_idle(struct demo *d)
{
	static const struct {
		const char *name;
		int user, cpus, gpus, state, limit_min, mo, day, h, mi;
		int64_t elapsed, cpu_ms;
	} run[] = {
		{ "interactive", BOB, 4, 1, ST_TIMEOUT, 480, 1, 21, 17, 5,
		  28831, 1900 },
		{ "interactive", BOB, 8, 2, ST_TIMEOUT, 720, 2, 11, 18, 40,
		  43227, 3400 },
		{ "interactive", BOB, 4, 1, ST_COMPLETED, 480, 2, 25, 10, 12,
		  540, 620 },
		{ "interactive", BOB, 4, 1, ST_COMPLETED, 480, 3, 3, 15, 33,
		  370, 1100 },
		{ "jupyter", BOB, 4, 1, ST_TIMEOUT, 1440, 2, 13, 9, 20,
		  86442, 4200 },
		{ "debug-gpu", CAROL, 4, 1, ST_COMPLETED, 60, 3, 4, 11, 2,
		  780, 400 },
	};
	struct jspec s;

	for (size_t i = 0; i < sizeof(run) / sizeof(run[0]); i++) {
		s = base(run[i].name, run[i].user, P_GPU, run[i].cpus,
			 run[i].gpus, 32 * run[i].gpus, run[i].limit_min);
		s.submit = at(run[i].mo, run[i].day, run[i].h, run[i].mi, 44);
		s.wait = 20 + (int64_t)i * 31;
		s.state = run[i].state;
		s.elapsed = run[i].elapsed;
		s.cpu_ms = run[i].cpu_ms;
		s.rss_k = 310000 + (int64_t)i * 23117;
		s.gpu_util = 0;
		s.interactive = strcmp(run[i].name, "interactive") == 0;
		s.node = G(12 + (int)i * 5);
		s.salt = 0x1d1e + (uint64_t)i;
		add(d, &s);
	}
	s = base("node-evaluation", ALICE, P_GPU, 8, 2, 64, 2880);
	s.script = "node_eval.sh";
	s.submit = at(3, 5, 8, 11, 30);
	s.wait = 42;
	s.state = ST_CANCELLED;
	s.cancelled_by = demo_users[ALICE].uid;
	s.elapsed = 151200;
	s.cpu_ms = 540;
	s.rss_k = 2411724;
	s.gpu_util = 0;
	s.node = G(27);
	s.salt = 0x90de;
	add(d, &s);

	s = base("stage-shards", CAROL, P_CPU, 4, 0, 16, 120);
	s.submit = at(2, 9, 7, 40, 0);
	s.wait = 8;
	s.elapsed = 2640;
	s.cpu_ms = 7500;
	s.rss_k = 1300000;
	s.read_b = 300LL << 30;
	s.write_b = 298LL << 30;
	s.node = C(101);
	s.salt = 0x57a6;
	add(d, &s);
}

/*
 * Node trouble inside one workload (article, figure 11): 1,098
 * placements of rollout-gen over 19 nodes.  Three nodes hang it far more
 * often (45 hangs holding 689 GPU-hours); the large node g041 takes 403
 * placements and is significantly better; g005 clears the baseline on its
 * own but not after correcting for eleven rows; eight nodes are too thin
 * to test.  It has more hangs than any other workload, so it is the one a
 * node table picks by default.
 */
#define NODE_BAD_GPU_S	1240200		/* 689 GPU-hours at two GPUs */

static const struct {
	int node, trials, hangs, bad;
} rollout_nodes[] = {
	{ 3, 52, 16, 1 }, { 11, 49, 15, 1 }, { 17, 47, 14, 1 },
	{ 41, 403, 8, 0 },
	{ 1, 71, 5, 0 }, { 2, 74, 6, 0 }, { 5, 69, 12, 0 }, { 7, 73, 6, 0 },
	{ 8, 72, 6, 0 }, { 9, 70, 6, 0 }, { 12, 74, 7, 0 },
	{ 13, 9, 1, 0 }, { 14, 8, 1, 0 }, { 15, 7, 0, 0 }, { 16, 6, 1, 0 },
	{ 18, 5, 0, 0 }, { 19, 4, 1, 0 }, { 20, 3, 0, 0 }, { 21, 2, 0, 0 },
};
#define ROLLOUT_RUNS	1098

void
demo_case_nodes(struct demo *d)
{
	int slot[ROLLOUT_RUNS], n = 0, nbad = 0;
	int64_t el[ROLLOUT_RUNS], sum = 0;
	int last_cancel = -1;
	int64_t span = 65LL * 86400 / ROLLOUT_RUNS;
	struct rng r;

	/* slot = node row * 2 + hung */
	for (size_t i = 0; i < sizeof(rollout_nodes) /
	     sizeof(rollout_nodes[0]); i++)
		for (int k = 0; k < rollout_nodes[i].trials; k++)
			slot[n++] = (int)i * 2 + (k < rollout_nodes[i].hangs);
	rseed(&r, 0x0de5, 1098);
	shuffle_ints(slot, n, &r);
	/* The hangs on the three bad nodes: mostly timeouts at 8 h, one in
	 * six cancelled by hand; their total is pinned to 689 GPU-hours. */
	for (int i = 0; i < n; i++) {
		el[i] = 0;
		if (!(slot[i] & 1) || !rollout_nodes[slot[i] / 2].bad)
			continue;
		if (nbad++ % 6 == 0) {
			el[i] = -rint_in(&r, 14400, 27000);
			last_cancel = i;
		} else {
			el[i] = 28800 + rint_in(&r, 10, 55);
		}
		sum += el[i] < 0 ? -el[i] : el[i];
	}
	sum -= -el[last_cancel];
	el[last_cancel] = -(NODE_BAD_GPU_S - sum);

	for (int i = 0; i < n; i++) {
		int row = slot[i] / 2, hung = slot[i] & 1;
		struct jspec s = base("rollout-gen", ALICE, P_GPU, 16, 2, 128,
				      480);

		s.script = "rollout.sh";
		s.dir = "/scratch/alice/rollouts";
		s.submit = at(1, 7, 8, 0, 0) + i * span + rint_in(&r, 0, 3600);
		s.wait = rint_in(&r, 3, 1800);
		s.node = G(rollout_nodes[row].node);
		s.log = LOG_NAMED;
		s.salt = 0x7011000 + (uint64_t)i;
		if (hung) {
			s.cpu_ms = rint_in(&r, 300, 8000);
			s.gpu_util = 0;
			s.rss_k = rint_in(&r, 9 * GIB_K, 12 * GIB_K);
			if (rollout_nodes[row].bad && el[i] > 0) {
				s.state = ST_TIMEOUT;
				s.elapsed = el[i];
			} else if (rollout_nodes[row].bad) {
				s.state = ST_CANCELLED;
				s.elapsed = -el[i];
			} else if (rchance(&r, 500)) {
				s.state = ST_CANCELLED;
				s.elapsed = rint_in(&r, 360, 880);
			} else {
				s.state = ST_TIMEOUT;
				s.elapsed = 28800 + rint_in(&r, 10, 55);
			}
			if (s.state == ST_CANCELLED)
				s.cancelled_by = demo_users[ALICE].uid;
		} else if (rchance(&r, 20)) {
			s.state = ST_FAILED;
			s.code = 1;
			s.elapsed = rint_in(&r, 300, 2400);
			s.util = 0.5;
			s.rss_k = rint_in(&r, 20 * GIB_K, 40 * GIB_K);
		} else {
			s.elapsed = rint_in(&r, 1200, 5400);
			s.util = rdbl(&r, 0.45, 0.85);
			s.gpu_util = (int)rint_in(&r, 75, 95);
			s.rss_k = rint_in(&r, 40 * GIB_K, 72 * GIB_K);
		}
		add(d, &s);
	}
}

/*
 * The original tool's demo workloads (reference §3), with its numbers.
 * node-evaluation is with the idle allocations above, rc-tok-github_code
 * is the tokenizer.
 */
void
demo_case_reference(struct demo *d)
{
	static const int att[7] = { 11, 17, 23, 28, 34, 40, 51 };
	char name[64];
	struct jspec s;
	struct rng r;

	rseed(&r, 0x3ef, 3);
	/* cot-exp: 12 runs hung on g027, 2 more hung and 6 completed on g031. */
	for (int i = 0; i < 20; i++) {
		int on_bad = i % 5 != 0 && i % 5 != 4;

		s = base("cot-exp", ALICE, P_GPU, 6, 1, 80, 30);
		s.script = "cot.sh";
		s.submit = at(2, 23, 9, 0, 0) + i * 35 * 60;
		s.wait = 15 + i;
		s.node = on_bad ? G(27) : G(31);
		s.rss_k = 1992294;		/* 1.9 GiB */
		s.salt = 0xc07 + (uint64_t)i;
		if (on_bad || i == 0 || i == 5) {
			s.state = ST_TIMEOUT;
			s.elapsed = 1826;
			s.cpu_ms = rint_in(&r, 420, 580);
			s.gpu_util = 0;
		} else {
			s.elapsed = 1785;
			s.cpu_ms = 1780000;		/* 00:29:40 */
			s.gpu_util = 71;
		}
		add(d, &s);
	}
	/* midtrain: 14 clean runs; the newest is the longest. */
	for (int i = 0; i < 14; i++) {
		s = base("midtrain", ALICE, P_GPU, 4, 3, 200, 120);
		s.script = "midtrain.sh";
		s.submit = at(1, 26, 10, 0, 0) + i * 164160;
		s.wait = 60 + i * 7;
		s.node = G(33);
		s.gpu_util = 85;
		s.salt = 0x111d + (uint64_t)i;
		if (i == 13) {
			s.elapsed = 6769;
			s.cpu_ms = 19899000;		/* 05:31:39 */
			s.sys_ms = 936000;		/* 00:15:36 */
			s.rss_k = 193517740;		/* 184.6 GiB */
			s.read_b = 121010703565LL;	/* 112.7 GiB */
			s.write_b = 149894358630LL;	/* 139.6 GiB */
		} else {
			s.elapsed = 6300 + (i * 31) % 400;
			s.util = rdbl(&r, 0.72, 0.73);
			s.sys_frac = 0.047;
			s.rss_k = rint_in(&r, 180 * GIB_K, 184 * GIB_K);
			s.read_b = rint_in(&r, 105, 112) << 30;
			s.write_b = rint_in(&r, 130, 139) << 30;
		}
		add(d, &s);
	}
	/* att-speed-#: seven names, one workload, nothing to say. */
	for (int i = 0; i < 7; i++) {
		snprintf(name, sizeof(name), "att-speed-%d", att[i]);
		s = base(name, ALICE, P_GPU, 12, 1, 96, 60);
		s.script = "att_speed.sh";
		s.dir = "/home/alice/att-speed";
		s.submit = at(2, 17, 13, 0, 0) + i * 50 * 60;
		s.wait = 30;
		s.elapsed = 2400;
		s.cpu_ms = 18000000;			/* 05:00:00 */
		s.sys_ms = 1080000;
		s.rss_k = 38 * GIB_K;
		s.node = G(22 + i);
		s.gpu_util = 88;
		s.salt = 0xa77 + (uint64_t)i;
		add(d, &s);
	}
	/* tokenize-shards: kernel-heavy, I/O-heavy, over-requested cores. */
	for (int i = 0; i < 4; i++) {
		s = base("tokenize-shards", ALICE, P_CPU, 16, 0, 32, 120);
		s.script = "tokenize.sh";
		s.submit = at(2, 24, 9, 0, 0) + i * 14 * 3600;
		s.wait = 9;
		s.elapsed = 3600;
		s.cpu_ms = 7200000;			/* 02:00:00 */
		s.sys_ms = 4800000;			/* 01:20:00 */
		s.read_b = 340LL << 30;
		s.write_b = 90LL << 30;
		s.rss_k = 9961472;			/* 9.5 GiB */
		s.node = C(44);
		s.salt = 0x70c5 + (uint64_t)i;
		add(d, &s);
	}
	/* ddp-pretrain: eight ranks, one of them a straggler, exit 1. */
	s = base("ddp-pretrain", ALICE, P_GPU, 32, 4, 160, 180);
	s.script = "ddp.sh";
	s.submit = at(2, 12, 11, 20, 0);
	s.wait = 75;
	s.state = ST_FAILED;
	s.code = 1;
	s.elapsed = 5400;
	s.srun_tasks = 8;
	s.cpu_ms = 28800000;				/* 08:00:00 */
	s.sys_ms = 1440000;
	s.ave_cpu_s = 3600;
	s.min_cpu_s = 720;
	s.min_task = 5;
	s.rss_k = 21 * GIB_K;
	s.ave_rss_k = 19 * GIB_K;
	s.node = G(42);
	s.gpu_util = 58;
	s.salt = 0xdd9;
	add(d, &s);
	/* soup-merge: paging, and more cores than it used. */
	s = base("soup-merge", ALICE, P_CPU, 8, 0, 48, 120);
	s.script = "soup.sh";
	s.submit = at(2, 19, 15, 4, 0);
	s.wait = 14;
	s.elapsed = 4200;
	s.cpu_ms = 3900000;				/* 01:05:00 */
	s.sys_frac = 0.08;
	s.pages = 820000;
	s.rss_k = 47290777;				/* 45.1 GiB */
	s.node = C(9);
	s.salt = 0x50a;
	add(d, &s);
}

/*
 * Habits of a real history: single-core jobs that saturate their core
 * (the CPU-advice trap), multi-threaded ones, exploratory "test" runs
 * that fail often, requeues after NODE_FAIL, a recycled job id, records
 * still open, a cancel by root, a submit line with a newline in it.
 */
void
demo_case_cpu_shapes(struct demo *d)
{
	static const struct {
		const char *name;
		int user, cpus, mem_g, limit_min, runs;
		int64_t el_lo, el_hi;
		double util_lo, util_hi;
		int first_day;		/* days after Jan 5 */
	} w[] = {
		{ "json-to-arrow", ALICE, 1, 8, 120, 8, 1200, 3000,
		  0.98, 0.99, 12 },
		{ "kmeans-embed", BOB, 16, 64, 360, 9, 7200, 14400,
		  0.78, 0.84, 20 },
		{ "compress-ckpt", CAROL, 8, 16, 120, 6, 1800, 3600,
		  0.93, 0.97, 33 },
		{ "render-plots", ALICE, 32, 64, 60, 5, 600, 1200,
		  0.05, 0.08, 41 },
	};
	struct rng r;
	struct jspec s;

	rseed(&r, 0xc9u, 1);
	for (int i = 0; i < 12; i++) {
		s = base("dedup-shards", CAROL, P_CPU, 1, 0, 4, 240);
		s.script = "dedup.sh";
		s.dir = "/scratch/carol/dedup";
		s.submit = at(2, 3, 8, 15, 0) + i * 243000 +
		    rint_in(&r, 0, 3600);
		s.wait = rint_in(&r, 2, 120);
		s.elapsed = rint_in(&r, 5400, 10800);
		s.util = rdbl(&r, 0.96, 0.995);
		s.sys_frac = 0.02;
		s.rss_k = rint_in(&r, 2200000, 3560000);
		s.node = C(60 + i);
		s.salt = 0xded0 + (uint64_t)i;
		add(d, &s);
	}
	for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
		for (int i = 0; i < w[k].runs; i++) {
			s = base(w[k].name, w[k].user, P_CPU, w[k].cpus, 0,
				 w[k].mem_g, w[k].limit_min);
			s.submit = T0 + w[k].first_day * 86400LL +
			    i * 2 * 86400LL + rint_in(&r, 28800, 64800);
			s.wait = rint_in(&r, 2, 300);
			s.elapsed = rint_in(&r, w[k].el_lo, w[k].el_hi);
			s.util = rdbl(&r, w[k].util_lo, w[k].util_hi);
			s.sys_frac = 0.03;
			s.rss_k = (int64_t)((double)w[k].mem_g * (double)GIB_K *
			    rdbl(&r, 0.35, 0.7));
			s.node = C(20 + (int)k * 7 + i % 5);
			s.salt = 0xc9c9 + k * 64 + (uint64_t)i;
			add(d, &s);
		}
	}
}

void
demo_case_tests(struct demo *d)
{
	static const struct {
		const char *name;
		int user, part, cpus, gpus, mem_g, limit_min, runs, fails;
		int first_day;
	} w[] = {
		{ "test", ALICE, P_CPU, 2, 0, 4, 10, 14, 9, 9 },
		{ "test-ddp", ALICE, P_GPU, 16, 2, 64, 30, 11, 7, 23 },
		{ "quick_test", BOB, P_GPU, 8, 1, 32, 20, 8, 6, 30 },
		{ "test#", CAROL, P_CPU, 4, 0, 8, 15, 12, 8, 15 },
		{ "mytest", ALICE, P_GPU, 4, 1, 16, 15, 7, 5, 50 },
	};
	/* Exit codes of the failures, in turn: an exception, a typo'd
	 * command, a usage error, a segfault. */
	static const int codes[][2] = {
		{ 1, 0 }, { 1, 0 }, { 127, 0 }, { 1, 0 }, { 2, 0 }, { 0, 11 },
	};
	char name[64];
	struct rng r;
	struct jspec s;

	rseed(&r, 0x7e57, 5);
	for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
		int fail[16];

		for (int i = 0; i < w[k].runs; i++)
			fail[i] = i < w[k].fails;
		shuffle_ints(fail, w[k].runs, &r);
		for (int i = 0; i < w[k].runs; i++) {
			const char *nm = w[k].name;

			if (strcmp(nm, "test#") == 0) {
				snprintf(name, sizeof(name), "test%d", i / 2 + 1);
				nm = name;
			}
			s = base(nm, w[k].user, w[k].part, w[k].cpus,
				 w[k].gpus, w[k].mem_g, w[k].limit_min);
			s.script = w[k].part == P_GPU ? "try_gpu.sh" : "try.sh";
			s.dir = w[k].user == BOB ? "/home/bob/scratchpad" :
			    w[k].user == CAROL ? "/home/carol/scratchpad" :
			    "/home/alice/scratchpad";
			s.submit = T0 + w[k].first_day * 86400LL +
			    i * 3 * 3600 + rint_in(&r, 0, 3000);
			s.wait = rint_in(&r, 1, 40);
			s.node = w[k].part == P_GPU ?
			    G((int)rint_in(&r, 1, NG_SMALL)) :
			    C((int)rint_in(&r, 1, NC));
			s.rss_k = rint_in(&r, 150000, 2500000);
			s.salt = 0x7e570 + k * 64 + (uint64_t)i;
			if (fail[i]) {
				int c = (i + (int)k) % 6;

				s.state = ST_FAILED;
				s.code = codes[c][0];
				s.sig = codes[c][1];
				s.elapsed = rint_in(&r, 3, 150);
				s.util = 0.4;
			} else {
				s.elapsed = rint_in(&r, 60, 280);
				s.util = 0.7;
			}
			if (w[k].part == P_GPU)
				s.gpu_util = (int)rint_in(&r, 20, 60);
			add(d, &s);
		}
	}
	/* A test run cancelled while it was still pending. */
	s = base("test", ALICE, P_CPU, 2, 0, 4, 10);
	s.script = "try.sh";
	s.dir = "/home/alice/scratchpad";
	s.submit = at(2, 26, 17, 2, 0);
	s.wait = 95;
	s.state = ST_CANCELLED;
	s.cancelled_by = demo_users[ALICE].uid;
	s.unplaced = 1;
	s.salt = 0x7e5e;
	add(d, &s);
}

/* finetune-vit-s#: four of twelve runs lost a node and were requeued
 * (s7 twice); sacct -D shows every attempt under the same id. */
void
demo_case_requeue(struct demo *d)
{
	static const int fails[12] = { 0, 0, 1, 0, 0, 1, 2, 0, 0, 1, 0, 0 };
	char name[64];
	struct rng r;

	rseed(&r, 0x4e9, 12);
	for (int i = 0; i < 12; i++) {
		int64_t submit = at(1, 13, 19, 0, 0) + i * 4 * 86400LL +
		    rint_in(&r, 0, 7200), key = submit;

		snprintf(name, sizeof(name), "finetune-vit-s%d", i % 3 + 1);
		for (int a = 0; a <= fails[i]; a++) {
			struct jspec s = base(name, BOB, P_GPU, 32, 4, 192,
					      720);

			s.script = "finetune.sh";
			s.dir = "/home/bob/vit";
			s.submit = submit;
			s.key = key;
			s.seq = a;
			s.link = a > 0 ? LINK_SAME_ID : LINK_NEW;
			s.wait = rint_in(&r, 60, 900);
			s.srun_tasks = 4;
			s.rss_k = rint_in(&r, 120 * GIB_K, 150 * GIB_K);
			s.gpu_util = 90;
			s.util = 0.6;
			s.salt = 0xf17e + (uint64_t)(i * 4 + a);
			if (a < fails[i]) {
				s.state = ST_NODE_FAIL;
				s.elapsed = rint_in(&r, 3600, 18000);
				s.node = (i + a) % 2 ? G(36) : G(38);
			} else {
				s.elapsed = rint_in(&r, 21600, 32400);
				s.node = G(29 + i % 4 * 2);
			}
			add(d, &s);
			/* Requeued: the next attempt is submitted as this
			 * one ends. */
			submit += s.wait + s.elapsed + rint_in(&r, 5, 60);
		}
	}
}

void
demo_case_odd_records(struct demo *d)
{
	struct jspec s;

	/* A recycled id: carol's January job and bob's March job share
	 * it (the controller's counter was reset in between). */
	s = base("plot-loss", CAROL, P_CPU, 1, 0, 2, 10);
	s.submit = at(1, 9, 16, 2, 0);
	s.wait = 3;
	s.elapsed = 95;
	s.util = 0.9;
	s.rss_k = 412000;
	s.node = C(3);
	s.salt = 0x9107;
	add(d, &s);
	s = base("resize-images", BOB, P_CPU, 4, 0, 8, 60);
	s.submit = at(3, 10, 11, 15, 0);
	s.key = at(1, 9, 16, 2, 0);
	s.seq = 1;
	s.link = LINK_SAME_ID;
	s.wait = 12;
	s.elapsed = 1710;
	s.util = 0.8;
	s.rss_k = 2900000;
	s.node = C(88);
	s.salt = 0x4e51;
	add(d, &s);

	/* Open records: still running when the history was read. */
	s = base("rollout-gen", ALICE, P_GPU, 16, 2, 128, 480);
	s.script = "rollout.sh";
	s.dir = "/scratch/alice/rollouts";
	s.log = LOG_NAMED;
	s.submit = NOW - 7980 - 140;
	s.wait = 140;
	s.elapsed = -1;
	s.state = ST_RUNNING;
	s.node = G(41);
	s.salt = 0x0be1;
	add(d, &s);
	s = base("interactive", BOB, P_GPU, 4, 1, 32, 480);
	s.interactive = 1;
	s.submit = NOW - 11100 - 35;
	s.wait = 35;
	s.elapsed = -1;
	s.state = ST_RUNNING;
	s.node = G(15);
	s.salt = 0x0be2;
	add(d, &s);
	s = base("dedup-shards", CAROL, P_CPU, 1, 0, 4, 240);
	s.script = "dedup.sh";
	s.dir = "/scratch/carol/dedup";
	s.submit = NOW - 2820 - 4;
	s.wait = 4;
	s.elapsed = -1;
	s.state = ST_RUNNING;
	s.node = C(72);
	s.salt = 0x0be3;
	add(d, &s);

	/* Cancelled by root during a maintenance window. */
	s = base("index-build", CAROL, P_CPU, 8, 0, 32, 360);
	s.submit = at(2, 28, 22, 15, 0);
	s.wait = 30;
	s.state = ST_CANCELLED;
	s.cancelled_by = 0;
	s.elapsed = 7340;
	s.util = 0.7;
	s.rss_k = 21 * GIB_K;
	s.node = C(95);
	s.salt = 0x4007;
	add(d, &s);

	/* The article's own example of a fold: s1e20 and s2e47 -> s#e#. */
	for (int i = 0; i < 2; i++) {
		s = base(i == 0 ? "s1e20" : "s2e47", BOB, P_GPU, 8, 1, 48, 240);
		s.script = "episode.sh";
		s.dir = "/home/bob/episodes";
		s.submit = at(2, 5 + 2 * i, 20, 30, 0);
		s.wait = 50;
		s.elapsed = i == 0 ? 8000 : 9100;
		s.util = 0.4;
		s.rss_k = 30 * GIB_K + i * 777777;
		s.node = G(30 + i);
		s.salt = 0x5e20 + (uint64_t)i;
		add(d, &s);
	}

	/* sbatch --wrap with a line break inside the command. */
	s = base("wrap", CAROL, P_CPU, 4, 0, 8, 60);
	s.dir = "/scratch/carol/shards";
	s.submit = at(3, 2, 10, 3, 0);
	s.wait = 7;
	s.elapsed = 1432;
	s.util = 0.85;
	s.rss_k = 5100000;
	s.wrap = 1;
	s.node = C(33);
	s.salt = 0x3a9;
	add(d, &s);
}
