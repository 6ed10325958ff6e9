/*
 * sp_size.h - what one workload's history says about its next request
 * (design.md "Advice"; reference-rules.md 2.6), and what acting on it is
 * worth (the article's figure 9).
 *
 * A struct sp_hist gathers, run by run, what the sizing rules and the
 * findings across runs (sp_patterns.h) need of one workload: counts,
 * sums, maxima and short bounded lists, so memory grows with workloads
 * rather than jobs (under a kilobyte each; the parts few workloads need
 * are allocated when first needed).  Two lists keep four bytes per
 * run, because their rules need a distribution: the times of completed
 * runs (the p95) and the peaks of array tasks (an array's own
 * population, array-probes).
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
	double when, id;
	int32_t task, attempt;
};

void sp_order_of(struct sp_order *o, const struct sp_job *j);
int sp_order_cmp(const struct sp_order *a, const struct sp_order *b);

/*
 * Strings kept for the whole run (workload keys, the job ids a rule may
 * name) and the growing parts of every history, in blocks that never
 * move: a pointer into the pool stays valid until the pool is freed.
 * Hundreds of thousands of histories each own a few small arrays; kept
 * in the pool, they cost no malloc each, and freeing them all at exit is
 * freeing a few hundred blocks rather than walking every history.  An
 * array that grows gives its old space back to a free list of its size
 * class, where the next array of that size finds it.
 */
#define SP_POOL_CLASSES 320

struct sp_strpool {
	char **blocks;
	size_t n, cap;
	char *cur;			/* the block being filled */
	size_t used, size;		/* in cur */
	void *avail[SP_POOL_CLASSES];	/* given back, by size class */
};

const char *sp_strpool_add(struct sp_strpool *p, const char *s, size_t n);
/* n bytes, aligned for any object, uninitialised; never NULL. */
void *sp_pool_alloc(struct sp_strpool *p, size_t n);
/* Gives back what sp_pool_alloc(p, n) returned, for reuse; NULL is fine. */
void sp_pool_release(struct sp_strpool *p, void *v, size_t n);
void sp_strpool_free(struct sp_strpool *p);

/* A run a rule may name: its id, two numbers, and its submission. */
struct sp_ref {
	struct sp_order o;
	double score;		/* what a top-k list ranks by */
	double a, b;
	uint64_t sub;		/* array hash, 0 for a job of its own */
	const char *jobid;	/* in the pool; NULL: none */
};

/* The k best refs by (score, order); the list grows as refs arrive. */
struct sp_topk {
	struct sp_ref *v;
	uint32_t n, cap, k;
	long seen;
};

/*
 * A run of its own (no array) that completed with a trusted peak: all
 * array-probes reads of one.  Every workload keeps up to SP_PROBE_KEEP
 * of them, so they are kept small: no score or array, which a top-k
 * list would carry for nothing.
 */
struct sp_single {
	struct sp_order o;
	double peak_b;		/* MaxRSS per node */
	const char *jobid;	/* in the pool */
};

/* The SP_PROBE_KEEP newest singles, a min-heap by order. */
struct sp_singles {
	struct sp_single *v;
	uint32_t n, cap;
};

/* A copy of the singles, oldest first; free it. */
size_t sp_singles_sorted(const struct sp_singles *t, struct sp_single **out);

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
	const char *jobid;	/* the first kill (an array: its master id) */
	long kills;
};

/* Completions at one per-node limit: the newest, and the newest of any
 * other submission (so an array's own tasks never contradict it). */
struct sp_doneat {
	double limit_b;
	struct sp_order best_o, other_o;
	uint64_t best_sub, other_sub;
	const char *best_id, *other_id;	/* NULL: none */
};

/* One array submission of the workload. */
struct sp_array {
	uint64_t hash;
	const char *master;
	long tasks, kills;
	double limit_b;		/* the largest per-node limit of its tasks */
	struct sp_order first;	/* its earliest task */
	long oomsub;		/* its entry in oomsubs, -1 none */
};

enum sp_flag { SP_FLAG_TIME, SP_FLAG_MEM, SP_FLAG_CPUS, SP_FLAG_GPUS,
	       SP_FLAG_N };
const char *sp_flag_name(enum sp_flag f);	/* "--time" ... */

/*
 * The parts of a history few workloads need (kills, arrays, requeues,
 * failures, hangs, runs near their limit), allocated on first use so the
 * long tail of workloads run once or twice stays small.
 */
struct sp_hist_more {
	/* --time */
	struct sp_topk near;		/* completed within the near share */
	/* --mem: kills */
	struct sp_oomsub *oomsubs;
	size_t noomsubs, oomsubcap;
	/* an index of the completions by limit, once there are many */
	struct sp_u64map doneat_map;
	/* failures */
	long fail_hung;
	double fail_gpu_h;
	struct sp_topk fail_ids;	/* the newest failures */
	double timeout_limit_min, timeout_limit_max;
	/* requeues */
	long rq_states[SP_ST_N];	/* the open group's */
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
	/* allocations that computed nothing */
	long hang_short, hang_io;
	double hang_gpu_h;
	struct sp_topk hangs;
};

/*
 * One run as the rules read it, worked out once from its record; the two
 * texts point into the record (or the pool, for a run kept for later).
 */
struct sp_run {
	struct sp_order o;
	enum sp_state st;
	int noop, hang, failed, io;
	uint64_t sub;			/* array hash, 0 a job of its own */
	struct sp_slice jobid, array_job;
	double elapsed_s, timelimit_s, total_cpu_s, cpu_time_s;
	double alloc_gpus, gpu_util, gpu_h, core_h;
	double limit_b, rss_b;		/* per node; NaN unknown */
	double cores, tasks, cpt, nodes;
};

/* A usable record (an allocation, closed, elapsed known) as a run. */
void sp_run_of(struct sp_run *r, const struct sp_job *j);
/*
 * What an array task tells of its array's need (array-probes): its limit
 * when it was killed for memory, else its peak when that is trustworthy;
 * NaN when it tells nothing.
 */
double sp_run_array_need(const struct sp_run *r);

/* The best run by one number (ties: the higher job id, then its text). */
struct sp_best {
	double a, b, id;
	const char *jobid;		/* NULL: none yet */
};

/*
 * A history's counters.  Each is at most the history's runs, which stay
 * below INT32_MAX (sp_hist_add_run refuses more), so 32 bits hold them;
 * as longs they were a sixth of every history.
 */
typedef int32_t sp_count;

struct sp_hist {
	const char *key;		/* workload_key, in the pool */
	struct sp_strpool *pool;
	struct sp_hist_more *more;	/* NULL until needed */
	uint32_t keylen;
	int gpu;

	long open, unusable;		/* left out */
	sp_count runs;			/* usable allocation records */
	sp_count states[SP_ST_N];
	sp_count noop, hang, problems;
	int have_newest;
	double gpu_h, core_h;
	/* The newest run, and what it asked for (NaN unknown). */
	struct sp_order newest;
	double req[SP_FLAG_N];
	/* The least any run asked for (NaN none): the only comparison left
	 * when the newest run recorded no request. */
	double req_least[SP_FLAG_N];

	/* --time */
	float *done_s;			/* completed, computing, elapsed > 0 */
	size_t ndone, donecap;
	struct sp_best longest;		/* a = elapsed, b = its limit */
	double comp_timeout_limit_s;	/* the largest; NaN none */
	sp_count timeouts, hung_timeouts, comp_timeouts;

	/* --mem (per node) */
	sp_count mem_runs;		/* a reading or a kill at a known limit */
	sp_count mem_measured, mem_trusted, mem_untrusted;
	sp_count multinode;
	sp_count kills;			/* OOM-killed with a known limit */
	/* --cpus-per-task, --gpus */
	sp_count cpu_runs, gpu_runs, gpu_util_runs;
	/* --cost: how many usable runs had the numbers known */
	sp_count cost_time_n, cost_cpu_n, cost_mem_n;
	/* every run one array? 1 yes, 0 no, -1 none seen */
	int one_array;
	struct sp_best peak;		/* a = MaxRSS, b = its limit */
	double shortest_trusted_s;
	double kill_limit_b;		/* the largest; NaN none */
	struct sp_doneat *doneat;	/* completions, by limit */
	size_t ndoneat, doneatcap;
	struct sp_singles singles;	/* the newest single runs' peaks */

	struct sp_best busiest;		/* a = busy cores per task, b = cpt */
	double tasks_max;

	struct sp_best gpu_busiest;	/* a = busy GPUs, b = GPUs held */

	/* --cost: sums over usable runs with the numbers known */
	double limit_s, elapsed_s;	/* time */
	double core_s, cpu_s, task_s;	/* cores x elapsed, CPU, tasks x el. */
	double mem_bs, used_bs, node_s;	/* limit x nodes x el., ... */

	uint64_t array0;
	const char *array0_master;

	/* Requeued attempts share a job id and arrive together: the open
	 * group of records with one id. */
	uint64_t rq_hash;
	const char *rq_jobid;		/* kept once the group is a requeue */
	sp_count rq_count;
	enum sp_state rq_max_state, rq_first_state;
	double rq_max_attempt, rq_max_elapsed, rq_sum_elapsed;
	struct sp_order rq_order;	/* its standing attempt */
};

/* The partition a history's key names; empty when the key is not one
 * sp-group wrote. */
struct sp_slice sp_hist_partition(const struct sp_hist *h);

/* The workload a key names: user/partition/gpu|cpu/workload. */
void sp_hist_init(struct sp_hist *h, struct sp_strpool *pool,
		  const char *key, size_t keylen);
/* Adds one record; step records are ignored, open ones counted. */
void sp_hist_add(struct sp_hist *h, const struct sp_job *j);
/* Adds one usable run. */
void sp_hist_add_run(struct sp_hist *h, const struct sp_run *r);
/* After the last record: closes what waits for the next one. */
void sp_hist_finish(struct sp_hist *h);
void sp_hist_free(struct sp_hist *h);
/* The rare parts; an empty set when the workload never needed them. */
const struct sp_hist_more *sp_hist_more(const struct sp_hist *h);
/*
 * The contradiction: a run that completed at a per-node limit an earlier
 * submission had been killed at (never a task of that same array).
 * Returns the earliest such kill's index in oomsubs and sets *done to the
 * completion's job id, or returns -1.
 */
long sp_hist_contradiction(const struct sp_hist *h, const char **done);
/* A copy of a top-k list, best first (by_order 0) or oldest first; free it. */
size_t sp_topk_sorted(const struct sp_topk *t, struct sp_ref **out,
		      int by_order);
/* GPU-hours x SP_GPU_CORE_RATIO + core-hours. */
double sp_hist_compute(const struct sp_hist *h);

/*
 * Every workload of an input, by key.  A workload's first runs are kept
 * packed (SP_SEEDS of them, some 70 bytes each) and become a history
 * only when more arrive: most workloads are run a few times, and a
 * history with its lists is a kilobyte or more.  At 1M jobs fifteen
 * seeds rather than eight save 19 MB at the same CPU time (rebuilding
 * the small workloads on demand costs 3% more instructions at 100k,
 * paid back in fewer pages touched).  nseed has four bits.
 */
#define SP_SEEDS 15

struct sp_wl {
	const char *key;		/* in the pool */
	long open, unusable;		/* records left out */
	double compute;			/* set by sp_histset_finish */
	struct sp_hist *h;		/* NULL while the runs are few */
	unsigned char *seed;		/* the runs, packed (sp_size.c) */
	uint32_t keylen;		/* a field: below sp_record's limit */
	unsigned seedlen : 28, nseed : 4;	/* bytes, runs */
};

struct sp_histset {
	struct sp_wl *v;
	size_t n, cap;
	struct sp_slot {
		uint32_t idx;		/* index + 1, 0 empty */
		uint32_t hash;		/* its low bits: a probe rarely
					 * reads the key */
	} *slot;
	size_t slotcap;
	struct sp_strpool pool;
	struct sp_hist **blocks;	/* histories, in blocks that stay put */
	size_t nblocks, blockcap, blockused;
	struct sp_hist scratch;		/* a workload of few runs, on demand */
	int scratch_used;
};

/* The number of the workload with this key, added when new. */
size_t sp_histset_find(struct sp_histset *s, const char *key, size_t n);
/* Adds a record to workload i; steps are ignored, open ones counted. */
void sp_histset_add(struct sp_histset *s, size_t i, const struct sp_job *j);
/*
 * After the last record: finishes every workload and sorts them most
 * compute first, then by key (the order every output uses).  Nothing is
 * added after.
 */
void sp_histset_finish(struct sp_histset *s);
/* The history of workload i; one of few runs is built on demand and
 * stays valid until the next call. */
const struct sp_hist *sp_histset_hist(struct sp_histset *s, size_t i);
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
	/* The figure the rule read, as a number in the flag's unit (the
	 * longest completed run, the largest trustworthy peak, the busy
	 * cores per task or GPUs); NaN when the rule read none. */
	double observed_v;
	struct sp_buf requested_txt, suggestion, sbatch;
	struct sp_buf observed, basis, caution;
	struct sp_buf scratch[2];	/* the advice's own, reused */
};

void sp_advice_free(struct sp_advice *a);

/*
 * The advice of one flag into *a, which is zeroed ({ 0 }) or holds an
 * earlier answer (its buffers are reused); sp_advice_free when done.
 * Returns 0, or -1 when the flag does not apply (--gpus for a workload
 * that holds no GPUs).
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
