/*
 * sp_size.h - what one workload's history says about its next request
 * (design.md "Advice"; reference-rules.md 2.6), and what acting on it is
 * worth (the article's figure 9).
 *
 * A struct sp_hist gathers, run by run, what the sizing rules and the
 * findings across runs (sp_patterns.h) need of one workload: counts,
 * sums, maxima and short bounded lists, so memory grows with workloads
 * rather than jobs.  Two lists keep four bytes per run, because their
 * rules need a distribution: the times of completed runs (the p95) and
 * the peaks of array tasks (an array's own population, array-probes).
 * Nothing depends on the order the runs arrive in, so a history split by
 * workload_key and analysed in parts gives the same records.
 */
#ifndef SP_SIZE_H
#define SP_SIZE_H

#include <stddef.h>
#include <stdint.h>
#include "sp_job.h"
#include "sp_site.h"
#include "sp_util.h"

/*
 * When a run happened, for "newest" and for walks in submission order:
 * start (else submit), then the numeric job id, array task and attempt.
 */
struct sp_order {
	double when, id, task, attempt;
};

void sp_order_of(struct sp_order *o, const struct sp_job *j);
int sp_order_cmp(const struct sp_order *a, const struct sp_order *b);

/* A run a rule may name: its id, two numbers, and its submission. */
struct sp_ref {
	struct sp_order o;
	double score;		/* what a top-k list ranks by */
	double a, b;
	uint64_t sub;		/* array hash, 0 for a job of its own */
	char *jobid;		/* NULL: none */
};

/* The k best refs by (score, order); k fixed at init. */
struct sp_topk {
	struct sp_ref *v;
	size_t n, k;
	long seen;
};

/* Open addressing from a 64-bit key to an index. */
struct sp_u64map {
	uint64_t *keys;
	size_t *vals;		/* index + 1, 0 empty */
	size_t cap, n;
};

/* The states the rules tell apart; SP_ST_OTHER is everything else. */
enum sp_state {
	SP_ST_COMPLETED, SP_ST_FAILED, SP_ST_TIMEOUT, SP_ST_OUT_OF_MEMORY,
	SP_ST_NODE_FAIL, SP_ST_BOOT_FAIL, SP_ST_DEADLINE, SP_ST_CANCELLED,
	SP_ST_PREEMPTED, SP_ST_REQUEUED, SP_ST_OTHER, SP_ST_N
};

enum sp_state sp_state_of(const struct sp_job *j);
const char *sp_state_name(enum sp_state s);

/* A submission killed for memory: one job, or all the tasks of an array. */
struct sp_oomsub {
	struct sp_order first;	/* its earliest kill */
	double limit_b;
	uint64_t sub;
	char *jobid;		/* the first kill (an array: its master id) */
	long kills;
};

/* Completions at one per-node limit: the newest, and the newest of any
 * other submission (so an array's own tasks never contradict it). */
struct sp_doneat {
	double limit_b;
	struct sp_ref best, other;
};

/* One array submission of the workload. */
struct sp_array {
	uint64_t hash;
	char *master;
	long tasks, kills;
	double limit_b;		/* the largest per-node limit of its tasks */
	struct sp_order first;	/* its earliest task */
	long oomsub;		/* its entry in oomsubs, -1 none */
};

enum sp_flag { SP_FLAG_TIME, SP_FLAG_MEM, SP_FLAG_CPUS, SP_FLAG_GPUS,
	       SP_FLAG_N };
const char *sp_flag_name(enum sp_flag f);	/* "--time" ... */

struct sp_hist {
	char *key;			/* workload_key, as the record has it */
	size_t keylen;
	struct sp_slice user, partition, workload;	/* into key */
	int gpu;

	long runs;			/* usable allocation records */
	long open, unusable;		/* left out */
	long states[SP_ST_N];
	long noop, hang, problems;
	double gpu_h, core_h;
	struct sp_order newest;
	int have_newest;

	/* The newest known request of each flag. */
	struct {
		struct sp_order at;
		double v;
		int known;
	} req[SP_FLAG_N];

	/* --time */
	float *done_s;			/* completed, computing, elapsed > 0 */
	size_t ndone, donecap;
	struct sp_ref longest;		/* a = elapsed, b = its limit */
	long timeouts, hung_timeouts, comp_timeouts;
	double comp_timeout_limit_s;	/* the largest; NaN none */
	struct sp_topk near;		/* completed within the near share */

	/* --mem (per node) */
	long mem_runs;			/* a reading or a kill at a known limit */
	long mem_measured, mem_trusted, mem_untrusted;
	struct sp_ref peak;		/* a = MaxRSS, b = its limit */
	double shortest_trusted_s;
	long multinode;
	long kills;			/* OOM-killed with a known limit */
	double kill_limit_b;		/* the largest; NaN none */
	struct sp_oomsub *oomsubs;
	size_t noomsubs, oomsubcap;
	struct sp_doneat *doneat;
	size_t ndoneat, doneatcap;
	struct sp_u64map doneat_map;

	/* --cpus-per-task */
	long cpu_runs;
	struct sp_ref busiest;		/* a = busy cores per task, b = cpt */
	double tasks_max;

	/* --gpus */
	long gpu_runs, gpu_util_runs;
	struct sp_ref gpu_busiest;	/* a = busy GPUs, b = GPUs held */

	/* --cost: sums over usable runs with the numbers known */
	long cost_time_n, cost_cpu_n, cost_mem_n;
	double limit_s, elapsed_s;	/* time */
	double core_s, cpu_s, task_s;	/* cores x elapsed, CPU, tasks x el. */
	double mem_bs, used_bs, node_s;	/* limit x nodes x el., ... */

	/* findings */
	long fail_hung;
	double fail_gpu_h;
	struct sp_topk fail_ids;	/* the newest failures */
	double timeout_limit_min, timeout_limit_max;
	int one_array;			/* 1 all runs one array, 0 not, -1 none */
	uint64_t array0;
	char *array0_master;
	/* requeues: attempts of one job arrive together */
	char *rq_jobid;
	long rq_count;
	double rq_max_attempt, rq_max_elapsed, rq_sum_elapsed;
	enum sp_state rq_max_state;
	struct sp_order rq_order;	/* its standing attempt */
	long rq_states[SP_ST_N];
	long requeued, attempts;
	double abandoned_s;
	long abandoned_states[SP_ST_N];
	struct sp_topk requeue_ids;
	/* arrays and the probes before them */
	struct sp_array *arrays;
	size_t narrays, arraycap;
	struct sp_u64map array_map;
	float *pop;			/* array tasks' peaks */
	size_t npop, popcap;
	struct sp_topk singles;		/* the newest single runs' peaks */
	/* allocations that computed nothing */
	long hang_short, hang_io;
	double hang_gpu_h;
	struct sp_topk hangs;
};

/* The workload a key names: user/partition/gpu|cpu/workload. */
void sp_hist_init(struct sp_hist *h, const char *key, size_t keylen);
/* Adds one record; step records are ignored, open ones counted. */
void sp_hist_add(struct sp_hist *h, const struct sp_job *j);
/* After the last record: closes what waits for the next one. */
void sp_hist_finish(struct sp_hist *h);
void sp_hist_free(struct sp_hist *h);
/*
 * The contradiction: a run that completed at a per-node limit an earlier
 * submission had been killed at (never a task of that same array).
 * Returns the earliest such kill's index in oomsubs and sets *done to the
 * completion, or returns -1.
 */
long sp_hist_contradiction(const struct sp_hist *h, const struct sp_ref **done);
/* A copy of a top-k list, best first (by_order 0) or oldest first; free it. */
size_t sp_topk_sorted(const struct sp_topk *t, struct sp_ref **out,
		      int by_order);
/* GPU-hours x SP_GPU_CORE_RATIO + core-hours. */
double sp_hist_compute(const struct sp_hist *h);

/* Every workload of an input, by key, in the order first seen. */
struct sp_histset {
	struct sp_hist **v;
	size_t n, cap;
	size_t *slot;			/* index + 1, 0 empty */
	size_t slotcap;
};

struct sp_hist *sp_histset_get(struct sp_histset *s, const char *key,
			       size_t n);
/*
 * After the last record: finishes every workload and sorts them most
 * compute first, then by key (the order every output uses).  No get after.
 */
void sp_histset_finish(struct sp_histset *s);
void sp_histset_free(struct sp_histset *s);

/* What the site tells the rules; NaN or SP_GATHER_UNKNOWN when unknown. */
struct sp_size_site {
	enum sp_gather gather;		/* the MaxRSS and TotalCPU caveats */
	double gather_freq_s;		/* thin sampling */
	int gpuutil_tracked;		/* -1 unknown */
	double ceiling_cores;		/* the partition's largest node */
	double ceiling_mem_b;
};

void sp_size_site_unknown(struct sp_size_site *s);

enum sp_verdict { SP_V_RAISE, SP_V_LOWER, SP_V_KEEP, SP_V_REFUSE,
		  SP_V_HOLD, SP_V_CAPPED };
const char *sp_verdict_name(enum sp_verdict v);

struct sp_advice {
	enum sp_flag flag;
	enum sp_verdict verdict;
	long runs;			/* the runs the rule read */
	double requested;		/* NaN unknown */
	double target;			/* NaN: no figure */
	struct sp_buf requested_txt, suggestion, sbatch;
	struct sp_buf observed, basis, caution;
};

void sp_advice_free(struct sp_advice *a);

/*
 * The advice of one flag.  Returns 0, or -1 when the flag does not apply
 * (--gpus for a workload that holds no GPUs); *a is then left empty.
 */
int sp_size_advise(const struct sp_hist *h, const struct sp_size_site *site,
		   enum sp_flag flag, struct sp_advice *a);

/*
 * Figure 9: every run of a workload whose flag got a verdict, re-costed
 * as requested, as used, as recommended (raise and lower followed, keep
 * and capped as each run asked) and accepting only reductions (lower
 * followed, nothing else).
 */
enum sp_cost_kind { SP_COST_MEM, SP_COST_CPU, SP_COST_TIME, SP_COST_N };

struct sp_cost {
	long runs[SP_COST_N];
	double requested[SP_COST_N];	/* GiB-hours, core-hours, limit-hours */
	double used[SP_COST_N];
	double recommended[SP_COST_N];
	double reductions[SP_COST_N];
};

void sp_cost_init(struct sp_cost *c);
/* Adds a workload, given its advice for --mem, --cpus-per-task, --time. */
void sp_cost_add(struct sp_cost *c, const struct sp_hist *h,
		 const struct sp_advice *mem, const struct sp_advice *cpus,
		 const struct sp_advice *time);

/* Text forms the rules and their readers share. */
/* --mem syntax of a request: "32G", "500M", else whole KiB up "K". */
void sp_size_fmt_mem(struct sp_buf *b, double bytes);
/* A core or GPU count: "0", "under 0.05", "0.04", "3.4". */
void sp_size_fmt_busy(struct sp_buf *b, double x);
/* The MaxRSS caveat every memory line carries, by gather type. */
void sp_size_mem_caveat(struct sp_buf *b, enum sp_gather g);

#endif
