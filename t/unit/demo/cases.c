/*
 * cases.c - every named case of the demo, with the numbers the article
 * and the original tool's demo give it, read off what the checker
 * (test_demo.c) kept of the default history.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp_util.h"
#include "tap.h"
#include "check.h"

/* ------------------------------------------------------------------ */
/* The named cases, at the default size.                               */

static void
fold(const char *name, char *out, size_t cap)
{
	size_t n = 0;

	for (const char *p = name; *p && n + 1 < cap; ) {
		if (isdigit((unsigned char)*p)) {
			out[n++] = '#';
			while (isdigit((unsigned char)*p))
				p++;
		} else {
			out[n++] = *p++;
		}
	}
	out[n] = 0;
}

static int
in_workload(const struct arec *r, const char *user, const char *fname)
{
	char f[64];

	fold(r->name, f, sizeof(f));
	return strcmp(r->user, user) == 0 && strcmp(f, fname) == 0;
}

/* Runs of one workload in output (job id) order; closed ones only
 * unless open is set. */
static size_t
runs_of(const struct checker *c, const char *user, const char *fname,
	const struct arec **out, size_t cap, int open)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nrec; i++) {
		const struct arec *r = &c->rec[i];

		if (in_workload(r, user, fname) && (open || !r->open) &&
		    n < cap)
			out[n++] = r;
	}
	return n;
}

static const struct arec *
job_named(const struct checker *c, const char *name)
{
	for (size_t i = 0; i < c->nrec; i++)
		if (strcmp(c->rec[i].name, name) == 0)
			return &c->rec[i];
	return NULL;
}

/* Computed nothing: closed, over 300 s, under 10 s of work-step CPU,
 * in a state that does not already explain it. */
static int
hung(const struct arec *r)
{
	return !r->open && r->elapsed > 300 && r->work_cpu_ms < 10000 &&
	    strcmp(r->state, "OUT_OF_MEMORY") != 0 &&
	    strcmp(r->state, "NODE_FAIL") != 0;
}

static int
state_is(const struct arec *r, const char *s)
{
	return strcmp(r->state, s) == 0;
}

static double
gib(double kib)
{
	return kib / KIB_PER_GIB;
}

#define MAXRUNS 2048

void
test_tokenizer(const struct checker *c)
{
	static const char *const want_mem =
	    "48G 32G 32G 17G 12G 12G 14G 16G 18G 32G";
	const struct arec *r[MAXRUNS];
	size_t n = runs_of(c, "alice", "rc-tok-github_code", r, MAXRUNS, 0);
	struct sp_buf walk = { 0 };
	int oom = 0, over = 0;
	int64_t el = 0;

	is_int(10, (long long)n, "tokenizer: ten submissions");
	if (n != 10)
		return;
	for (size_t i = 0; i < n; i++) {
		sp_buf_printf(&walk, "%s%s", i ? " " : "", r[i]->reqmem);
		oom += state_is(r[i], "OUT_OF_MEMORY") &&
		    strcmp(r[i]->exit, "0:125") == 0;
		over += r[i]->max_rss_k > r[i]->reqmem_k;
		el += r[i]->elapsed;
	}
	is_string(want_mem, sp_buf_str(&walk),
		  "tokenizer: --mem walks 48G down to 12G and back to 32G");
	is_string("CANCELLED by 41203", r[0]->state,
		  "tokenizer: the 48G run was cancelled by its owner");
	is_int(8, oom, "tokenizer: eight memory kills (0:125)");
	ok(r[1]->max_rss_k < 0 && r[2]->max_rss_k < 0,
	   "tokenizer: runs two and three died before any sample");
	is_int(6, over, "tokenizer: the other six kills read above the limit");
	is_string("COMPLETED", r[9]->state, "tokenizer: the last completes");
	is_double(24.0, gib(r[9]->max_rss_k), 1e-9,
		  "tokenizer: ... at 32G, peaking at 24 GiB");
	is_int(16, r[9]->cpus, "tokenizer: a sixteen-core allocation");
	ok(el >= 3400 && el <= 3700,
	   "tokenizer: an hour of allocation (%" PRId64 " s)", el);
	ok(r[9]->end - r[0]->submit >= 8 * 3600 + 1800 &&
	   r[9]->end - r[0]->submit <= 9 * 3600 + 1800,
	   "tokenizer: nine hours of wall clock, one evening");
	sp_buf_free(&walk);
}

static int
array_task(const struct arec *r, long long *master)
{
	const char *u = strchr(r->jobid, '_');

	if (!u)
		return -1;
	*master = atoll(r->jobid);
	return atoi(u + 1);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void
test_corpus(const struct checker *c)
{
	const struct arec *r[MAXRUNS];
	size_t n = runs_of(c, "alice", "scan-corpus", r, MAXRUNS, 0);
	double probe[2] = { 0, 0 }, rerun[142] = { 0 };
	int killed[142] = { 0 };
	long long masters[2] = { -1, -1 };
	int nprobe = 0, ntask[2] = { 0, 0 }, oom[2] = { 0, 0 }, over6 = 0;
	int killed_low = 0, below[2] = { 0, 0 }, complete[2] = { 0, 0 };
	int64_t lost = 0, rerun_submit = -1, rerun_end = 0;
	const char *mem[2] = { "", "" };

	for (size_t i = 0; i < n; i++) {
		long long m;
		int t = array_task(r[i], &m), a;

		if (t < 0) {
			if (nprobe < 2 && strcmp(r[i]->reqmem, "8G") == 0)
				probe[nprobe] = gib(r[i]->max_rss_k);
			nprobe++;
			continue;
		}
		a = masters[0] < 0 || masters[0] == m ? 0 : 1;
		masters[a] = m;
		if (t < 0 || t >= 142)
			continue;
		ntask[a]++;
		mem[a] = r[i]->reqmem;
		complete[a] += state_is(r[i], "COMPLETED");
		if (a == 0) {
			killed[t] = state_is(r[i], "OUT_OF_MEMORY");
			if (state_is(r[i], "OUT_OF_MEMORY")) {
				oom[0]++;
				lost += r[i]->elapsed;
			}
		} else {
			rerun[t] = gib(r[i]->max_rss_k);
			rerun_submit = r[i]->submit;
			if (r[i]->end > rerun_end)
				rerun_end = r[i]->end;
		}
	}
	is_int(2, nprobe, "corpus: two single-task probes");
	is_double(1.00, probe[0], 0.0005, "corpus: probe one peaks 1.00 GiB");
	is_double(0.72, probe[1], 0.0005, "corpus: probe two peaks 0.72 GiB");
	ok(ntask[0] == 142 && strcmp(mem[0], "6G") == 0,
	   "corpus: a 142-task array at --mem=6G");
	is_int(71, oom[0], "corpus: 71 of its tasks killed for memory");
	is_int(0, oom[1], "corpus: none killed in the rerun");
	is_double(37.0, (double)lost / 3600, 1e-9,
		  "corpus: 37 hours of task time destroyed");
	ok(ntask[1] == 142 && complete[1] == 142 &&
	   strcmp(mem[1], "12G") == 0,
	   "corpus: the rerun at 12G completes every task");
	ok(rerun_end - rerun_submit <= 41 * 60,
	   "corpus: ... within 41 minutes (%" PRId64 " s)",
	   rerun_end - rerun_submit);
	for (int t = 0; t < 142; t++) {
		over6 += rerun[t] > 6.0;
		killed_low += killed[t] && rerun[t] <= 6.0;
		below[0] += rerun[t] < probe[0];
		below[1] += rerun[t] < probe[1];
	}
	is_int(59, over6, "corpus: 59 shards peak above 6 GiB");
	is_int(12, killed_low, "corpus: 12 more were killed by a brief spike");
	ok(below[0] + 1 <= 142 / 5 && below[1] + 1 <= 142 / 5,
	   "corpus: both probes sit in the smallest fifth (ranks %d, %d)",
	   below[0] + 1, below[1] + 1);
	qsort(rerun, 142, sizeof(rerun[0]), cmp_double);
	ok(rerun[141] / probe[0] > 6.5 && rerun[141] / probe[0] < 7.5,
	   "corpus: the probes read about a seventh of the largest shard");
}

void
test_reasoning(const struct checker *c)
{
	const struct arec *r[MAXRUNS];
	size_t n = runs_of(c, "alice", "reasoning-exp", r, MAXRUNS, 0);
	int to = 0, blocked = 0, done = 0, same_limit = 1;
	double el = 0;

	for (size_t i = 0; i < n; i++) {
		if (state_is(r[i], "TIMEOUT")) {
			to++;
			blocked += hung(r[i]);
			same_limit &= r[i]->limit_s == 1800;
			el += (double)r[i]->elapsed;
		}
		done += state_is(r[i], "COMPLETED");
	}
	is_int(99, to, "reasoning: 99 timeouts");
	is_int(99, blocked, "reasoning: every one blocked (under 10 CPU-s)");
	ok(same_limit, "reasoning: all at the same 30-minute limit");
	is_int(38, done, "reasoning: among 38 runs that completed");
	is_double(50.0, el / 3600, 1e-9, "reasoning: 50 GPU-hours timed out");
	is_double(300.0, el * 6 / 3600, 1e-9, "reasoning: 300 core-hours");
}

static const struct arec *
newest(const struct arec **r, size_t n)
{
	const struct arec *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (!best || r[i]->submit > best->submit)
			best = r[i];
	return best;
}

void
test_increases(const struct checker *c)
{
	const struct arec *r[MAXRUNS], *peak = NULL;
	size_t n;
	long long longest = 0;
	int done = 0;

	n = runs_of(c, "bob", "moe-gating-r#", r, MAXRUNS, 0);
	for (size_t i = 0; i < n; i++) {
		done += state_is(r[i], "COMPLETED");
		if (!peak || r[i]->max_rss_k > peak->max_rss_k)
			peak = r[i];
	}
	ok(n == 5 && done == 5, "gating: five runs, none failed");
	if (n == 5) {
		is_string("24G", newest(r, n)->reqmem,
			  "gating: the newest run asks 24G");
		is_double(34.56, gib(peak->max_rss_k), 0.0005,
			  "gating: an earlier run peaked at 34.56 GiB");
		is_string("48G", peak->reqmem, "gating: ... under a 48G limit");
	}

	n = runs_of(c, "carol", "ablate-warmup-#", r, MAXRUNS, 0);
	done = 0;
	for (size_t i = 0; i < n; i++) {
		done += state_is(r[i], "COMPLETED");
		if (r[i]->elapsed > longest)
			longest = r[i]->elapsed;
	}
	ok(n == 8 && done == 8, "warmup family: eight runs, none failed");
	if (n == 8)
		is_string("00:35:00", newest(r, n)->limit,
			  "warmup family: recent runs ask 35 minutes");
	is_int(4 * 3600 + 600, longest,
	       "warmup family: its longest completed run took 4:10:00");

	n = runs_of(c, "alice", "pretrain-slice-#", r, MAXRUNS, 0);
	done = 0;
	longest = 0;
	for (size_t i = 0; i < n; i++) {
		done += state_is(r[i], "COMPLETED") && r[i]->limit_s == 28800;
		if (r[i]->elapsed > longest)
			longest = r[i]->elapsed;
	}
	ok(n == 4 && done == 4, "pretraining slice: four runs at 8 hours");
	is_int(28800 - 76, longest,
	       "pretraining slice: finished 1:16 inside the limit");
}

void
test_figure3(const struct checker *c)
{
	const struct arec *r = job_named(c, "eval-ckpt-4000");
	const struct arec *p = job_named(c, "eval-ckpt-7000");

	ok(r != NULL, "figure 3: eval-ckpt-4000 is there");
	if (!r)
		return;
	is_string("COMPLETED", r->state, "figure 3: it completed");
	is_int(1, r->gpus, "figure 3: on a single card");
	ok((double)r->elapsed / (double)r->limit_s < 0.05,
	   "figure 3: the time limit is far above need (%lld of %lld s)",
	   r->elapsed, r->limit_s);
	ok(r->max_rss_k > r->reqmem_k,
	   "figure 3: MaxRSS (%.1f GiB) above the limit without a kill",
	   gib(r->max_rss_k));
	is_double(0.487, (double)r->sys_ms / (double)r->cpu_ms, 1e-9,
		  "figure 3: 48.7 %% of its CPU in the kernel");
	ok(p && p->pending, "eval-ckpt-7000 is still pending");
}

void
test_idle(const struct checker *c)
{
	const struct arec *ne = job_named(c, "node-evaluation");
	const struct arec *io = job_named(c, "stage-shards");
	int longs = 0, shorts = 0, cancelled = 0;

	ok(ne && hung(ne), "node-evaluation computed nothing");
	if (ne) {
		is_string("CANCELLED by 41203", ne->state,
			  "node-evaluation: cancelled by its owner");
		is_double(84.0, (double)(ne->elapsed * ne->gpus) / 3600, 1e-9,
			  "node-evaluation: 84 GPU-hours held");
		is_int(540, ne->work_cpu_ms, "node-evaluation: 0.54 s of CPU");
	}
	for (size_t i = 0; i < c->nrec; i++) {
		const struct arec *r = &c->rec[i];

		if (!hung(r) || r->gpus == 0 ||
		    (strcmp(r->name, "interactive") != 0 &&
		     strcmp(r->name, "jupyter") != 0 &&
		     strcmp(r->name, "debug-gpu") != 0 &&
		     strcmp(r->name, "node-evaluation") != 0))
			continue;
		longs += r->elapsed >= 8 * 3600;
		shorts += r->elapsed <= 900;
		cancelled += strncmp(r->state, "CANCELLED", 9) == 0;
	}
	ok(longs >= 3, "idle GPUs: long allocations that computed nothing");
	ok(shorts >= 3, "idle GPUs: short ones, already noticed");
	is_int(1, cancelled, "idle GPUs: one of them cancelled");
	ok(io && io->work_cpu_ms < 10000 && io->elapsed > 300 &&
	   (double)io->read_b >= 10.0 * (1 << 30) &&
	   (double)io->read_b / (double)io->elapsed >= 100.0 * (1 << 20),
	   "stage-shards: idle CPU explained by 300 GiB of I/O");
}

/* Wilson, one-sided Fisher doubled, Benjamini-Hochberg: the node
 * table's statistics, written out here to judge the demo's numbers. */
static void
wilson(long k, long n, double *lo, double *hi)
{
	double z = 1.959963984540054, p = (double)k / (double)n;
	double d = 1 + z * z / (double)n;
	double mid = (p + z * z / (2.0 * (double)n)) / d;
	double h = z * sqrt(p * (1 - p) / (double)n +
	    z * z / (4.0 * (double)n * (double)n)) / d;

	*lo = mid - h;
	*hi = mid + h;
}

static double
lchoose(long n, long k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) -
	    lgamma((double)(n - k) + 1);
}

static double
fisher_doubled(long a, long b, long c, long d, int greater)
{
	long row = a + b, col = a + c, n = a + b + c + d;
	long lo = col - (n - row) > 0 ? col - (n - row) : 0;
	long hi = row < col ? row : col;
	double p = 0;

	for (long x = greater ? a : lo; x <= (greater ? hi : a); x++)
		p += exp(lchoose(row, x) + lchoose(n - row, col - x) -
			 lchoose(n, col));
	return 2 * p < 1 ? 2 * p : 1;
}

struct noderow {
	char node[24];
	long trials, bad;
	double gpu_h_bad, p, lo, hi, comp;
	int tested, reject;
};

void
test_nodes(const struct checker *c)
{
	struct noderow row[64];
	int nrow = 0, ntested = 0, untested = 0;
	long trials = 0, bad = 0, most_other = 0;
	double ps[64], thr = -1, base;
	struct sp_buf worse = { 0 }, better = { 0 }, held = { 0 };
	long worse_hangs = 0;
	double worse_gpu_h = 0;

	memset(row, 0, sizeof(row));
	for (size_t i = 0; i < c->nrec; i++) {
		const struct arec *r = &c->rec[i];
		int k;

		if (r->open || !in_workload(r, "alice", "rollout-gen"))
			continue;
		for (k = 0; k < nrow && strcmp(row[k].node, r->nodes); k++)
			;
		if (k == nrow && nrow < 64)
			snprintf(row[nrow++].node, sizeof(row[0].node), "%s",
				 r->nodes);
		row[k].trials++;
		trials++;
		if (hung(r)) {
			row[k].bad++;
			bad++;
			row[k].gpu_h_bad += (double)(r->elapsed * r->gpus) / 3600;
		}
	}
	is_int(1098, trials, "nodes: rollout-gen has 1,098 placements");
	is_int(19, nrow, "nodes: ... over 19 nodes");
	base = (double)bad / (double)trials;
	for (int k = 0; k < nrow; k++) {
		struct noderow *x = &row[k];
		long ob = bad - x->bad, ot = trials - x->trials;

		if (x->trials < 10) {
			untested++;
			continue;
		}
		x->tested = 1;
		x->comp = (double)ob / (double)ot;
		wilson(x->bad, x->trials, &x->lo, &x->hi);
		x->p = fisher_doubled(x->bad, x->trials - x->bad, ob, ot - ob,
		    (double)x->bad / (double)x->trials > x->comp);
		ps[ntested++] = x->p;
	}
	qsort(ps, (size_t)ntested, sizeof(ps[0]), cmp_double);
	for (int i = 0; i < ntested; i++)
		if (ps[i] <= 0.05 * (i + 1) / ntested)
			thr = ps[i];
	for (int k = 0; k < nrow; k++) {
		struct noderow *x = &row[k];
		double rate = (double)x->bad / (double)x->trials;

		if (!x->tested)
			continue;
		x->reject = x->p <= thr;
		if (x->reject && rate > x->comp && x->lo > x->comp) {
			sp_buf_printf(&worse, " %s", x->node);
			worse_hangs += x->bad;
			worse_gpu_h += x->gpu_h_bad;
		} else if (x->reject && rate < x->comp && x->hi < x->comp) {
			sp_buf_printf(&better, " %s/%ld", x->node, x->trials);
		} else if (x->lo > base || x->hi < base) {
			sp_buf_printf(&held, " %s", x->node);
		}
	}
	is_int(11, ntested, "nodes: eleven nodes tested");
	is_int(8, untested, "nodes: eight too thin to test");
	/* Rows in first-seen order; sort-free comparison by content. */
	ok(strstr(sp_buf_str(&worse), "g003") &&
	   strstr(sp_buf_str(&worse), "g011") &&
	   strstr(sp_buf_str(&worse), "g017") && worse.len == 15,
	   "nodes: g003, g011, g017 are worse after Benjamini-Hochberg "
	   "(got%s)", sp_buf_str(&worse));
	is_string(" g041/403", sp_buf_str(&better),
		  "nodes: the large node g041, 403 placements, is better");
	is_string(" g005", sp_buf_str(&held),
		  "nodes: g005 clears the baseline but not the correction");
	is_int(45, worse_hangs, "nodes: 45 hangs on the three nodes");
	is_double(689.0, worse_gpu_h, 0.001, "nodes: ... holding 689 GPU-hours");

	/* It is the workload a node table picks: the most hangs. */
	for (size_t i = 0; i < c->nrec; i++) {
		const struct arec *r = &c->rec[i];
		char f[64];
		long n = 0;

		if (!hung(r) || in_workload(r, "alice", "rollout-gen"))
			continue;
		fold(r->name, f, sizeof(f));
		for (size_t j = 0; j < c->nrec; j++)
			n += hung(&c->rec[j]) &&
			    in_workload(&c->rec[j], r->user, f);
		if (n > most_other)
			most_other = n;
	}
	ok(bad > most_other, "nodes: rollout-gen has the most hangs "
	   "(%ld against %ld)", bad, most_other);
	sp_buf_free(&worse);
	sp_buf_free(&better);
	sp_buf_free(&held);
}

void
test_reference(const struct checker *c)
{
	const struct arec *r[MAXRUNS], *x;
	size_t n;
	int hung_bad = 0, on_bad = 0, hung_good = 0, on_good = 0, done = 0;
	int ok_all = 1;

	/* cot-exp */
	n = runs_of(c, "alice", "cot-exp", r, MAXRUNS, 0);
	for (size_t i = 0; i < n; i++) {
		int bad_node = strcmp(r[i]->nodes, "g027") == 0;

		on_bad += bad_node;
		on_good += !bad_node;
		hung_bad += bad_node && hung(r[i]) &&
		    state_is(r[i], "TIMEOUT");
		hung_good += !bad_node && hung(r[i]) &&
		    state_is(r[i], "TIMEOUT");
		if (state_is(r[i], "COMPLETED"))
			done += r[i]->cpu_ms == 1780000;
		ok_all &= r[i]->limit_s == 1800 && r[i]->gpus == 1 &&
		    r[i]->cpus == 6 && strcmp(r[i]->reqmem, "80G") == 0;
	}
	ok(n == 20 && ok_all, "cot-exp: 20 runs, 6 CPU, 1 GPU, 80G, 30 min");
	ok(on_bad == 12 && hung_bad == 12,
	   "cot-exp: 12 runs on g027, every one a hung timeout");
	ok(on_good == 8 && hung_good == 2,
	   "cot-exp: 8 on g031, two of them hung");
	is_int(6, done, "cot-exp: six completed with 00:29:40 of CPU");

	/* midtrain */
	n = runs_of(c, "alice", "midtrain", r, MAXRUNS, 0);
	done = 0;
	for (size_t i = 0; i < n; i++)
		done += state_is(r[i], "COMPLETED") &&
		    r[i]->limit_s == 7200 && r[i]->gpus == 3 &&
		    strcmp(r[i]->nodes, "g033") == 0;
	is_int(14, done, "midtrain: 14 clean runs, 3 GPUs, 2 hours, g033");
	if (n == 14) {
		x = newest(r, n);
		is_int(6769, x->elapsed, "midtrain: longest run 6769 s");
		is_int(19899000, x->work_cpu_ms, "midtrain: CPU 05:31:39");
		is_int(936000, x->sys_ms, "midtrain: system 15:36");
		is_double(184.55, gib(x->max_rss_k), 0.01,
			  "midtrain: MaxRSS 184.6 GiB");
		is_double(112.7, (double)x->read_b / (1 << 30), 0.0001,
			  "midtrain: read 112.7 GiB");
	}

	/* att-speed-# */
	n = runs_of(c, "alice", "att-speed-#", r, MAXRUNS, 0);
	done = 0;
	for (size_t i = 0; i < n; i++)
		done += state_is(r[i], "COMPLETED") &&
		    r[i]->elapsed == 2400 && r[i]->limit_s == 3600 &&
		    r[i]->work_cpu_ms == 18000000 &&
		    gib(r[i]->max_rss_k) == 38.0;
	is_int(7, done, "att-speed-#: seven names, one workload, all clean");

	/* tokenize-shards */
	n = runs_of(c, "alice", "tokenize-shards", r, MAXRUNS, 0);
	done = 0;
	for (size_t i = 0; i < n; i++)
		done += r[i]->elapsed == 3600 && r[i]->limit_s == 7200 &&
		    r[i]->cpu_ms == 7200000 && r[i]->sys_ms == 4800000 &&
		    r[i]->read_b == 340LL << 30 && r[i]->cpus == 16;
	is_int(4, done, "tokenize-shards: 4 runs, 2/3 of CPU in the kernel, "
	       "340 GiB read");

	x = job_named(c, "ddp-pretrain");
	ok(x && state_is(x, "FAILED") && strcmp(x->exit, "1:0") == 0 &&
	   x->elapsed == 5400 && x->limit_s == 10800 && x->gpus == 4,
	   "ddp-pretrain: FAILED 1:0 after 5400 s of 3 hours");
	ok(x && x->steps_ave_cpu_s == 3600 && x->steps_min_cpu_s == 720,
	   "ddp-pretrain: AveCPU 1 h, MinCPU 12 min (an 80 %% straggler)");

	x = job_named(c, "soup-merge");
	ok(x && x->max_pages == 820000 && x->elapsed == 4200 &&
	   x->work_cpu_ms == 3900000,
	   "soup-merge: 820,000 major faults, 01:05:00 of CPU in 4200 s");
}

void
test_habits(const struct checker *c)
{
	int running = 0, pending = 0, root = 0, tests = 0, users = 0;
	int saturated = 0, gpu = 0, cpu = 0;
	const char *names[3] = { "alice", "bob", "carol" };
	static const char *const testw[] = {
		"test", "test-ddp", "quick_test", "test#", "mytest"
	};

	is_int(5, c->requeues, "requeues: five attempts before the final one");
	is_int(1, c->recycles, "a recycled job id: same JobID, another user");
	for (size_t i = 0; i < c->nrec; i++) {
		const struct arec *r = &c->rec[i];

		running += r->open && state_is(r, "RUNNING");
		pending += r->pending;
		root += state_is(r, "CANCELLED by 0");
		gpu += strcmp(r->part, "gpu") == 0;
		cpu += strcmp(r->part, "cpu") == 0;
	}
	is_int(3, running, "three records still RUNNING, End Unknown");
	is_int(1, pending, "one still pending");
	is_int(1, root, "one cancelled by root");
	ok(gpu > 0 && cpu > 0, "GPU and CPU partitions");
	for (int u = 0; u < 3; u++) {
		int seen = 0;

		for (size_t i = 0; i < c->nrec && !seen; i++)
			seen = strcmp(c->rec[i].user, names[u]) == 0;
		users += seen;
	}
	is_int(3, users, "three users");
	for (size_t k = 0; k < sizeof(testw) / sizeof(testw[0]); k++) {
		const struct arec *r[MAXRUNS];
		size_t n = 0;
		int failed = 0;

		for (int u = 0; u < 3 && n == 0; u++)
			n = runs_of(c, names[u], testw[k], r, MAXRUNS, 0);
		for (size_t i = 0; i < n; i++)
			failed += state_is(r[i], "FAILED");
		tests += n >= 5 && failed * 2 >= (int)n;
	}
	is_int(5, tests, "five exploratory test workloads fail half the time");
	for (size_t k = 0; k < 2; k++) {
		const struct arec *r[MAXRUNS];
		size_t n = runs_of(c, k ? "alice" : "carol",
				   k ? "json-to-arrow" : "dedup-shards", r,
				   MAXRUNS, 0);
		int busy = n >= 3;

		for (size_t i = 0; i < n; i++)
			busy &= r[i]->cpus == 1 &&
			    (double)r[i]->cpu_ms >= 950.0 * (double)r[i]->elapsed;
		saturated += busy;
	}
	is_int(2, saturated, "two single-core workloads saturate their core");
}

/* The whole record's shape: names, workloads, where the compute is. */
struct wl {
	char key[96];
	double compute;
	int runs;
};

static int
cmp_wl(const void *a, const void *b)
{
	const struct wl *x = a, *y = b;

	return x->compute > y->compute ? -1 : x->compute < y->compute;
}

void
test_mix(const struct checker *c)
{
	struct wl *w = sp_xcalloc(c->nrec, sizeof(*w));
	char **names = sp_xcalloc(c->nrec, sizeof(*names));
	size_t nw = 0, nn = 0;
	double total = 0, bottom = 0;
	int small = 0;

	for (size_t i = 0; i < c->nrec; i++) {
		const struct arec *r = &c->rec[i];
		char f[64], key[96];
		size_t k;

		if (r->open)
			continue;
		for (k = 0; k < nn && strcmp(names[k], r->name); k++)
			;
		if (k == nn)
			names[nn++] = sp_xstrdup(r->name);
		fold(r->name, f, sizeof(f));
		snprintf(key, sizeof(key), "%s/%s/%s/%s", r->user, r->part,
			 r->gpus ? "gpu" : "cpu", f);
		for (k = 0; k < nw && strcmp(w[k].key, key); k++)
			;
		if (k == nw)
			snprintf(w[nw++].key, sizeof(w[0].key), "%s", key);
		w[k].compute += (double)r->elapsed *
		    (double)(r->gpus * 16 + r->cpus) / 3600;
		w[k].runs++;
		total += (double)r->elapsed *
		    (double)(r->gpus * 16 + r->cpus) / 3600;
	}
	qsort(w, nw, sizeof(*w), cmp_wl);
	for (size_t k = 0; k < nw; k++) {
		if (k + 270 >= nw)
			bottom += w[k].compute;
		small += w[k].runs <= 2;
	}
	is_int(523, (long long)nn, "523 distinct job names");
	is_int(470, (long long)nw, "... fold into 470 workloads");
	ok(w[0].compute / total > 0.15 && w[0].compute / total < 0.18,
	   "the costliest workload is about a sixth of the compute (%.3f, %s)",
	   w[0].compute / total, w[0].key);
	ok(bottom / total > 0.055 && bottom / total < 0.08,
	   "the bottom 270 workloads hold about 7 %% of it (%.3f)",
	   bottom / total);
	ok(small >= 250, "most workloads ran once or twice (%d)", small);
	for (size_t k = 0; k < nn; k++)
		free(names[k]);
	free(names);
	free(w);
}
