/*
 * sp_hist.h - one workload's history, as the cross-run rules read it.
 *
 * A struct sp_hist gathers, run by run, what the sizing rules
 * (sp_suggest.h, sp_advice.h) and the findings across runs
 * (sp_rules_history.h) need of one workload: counts, sums, maxima and
 * short bounded lists (sp_topk.h), so memory grows with workloads rather
 * than jobs (under a kilobyte each; the parts few workloads need are
 * allocated when first needed).  Two lists keep four bytes per run,
 * because their rules need a distribution: the times of completed runs
 * (the p95) and the peaks of array tasks (an array's own population,
 * array-probes).  Nothing depends on the order the runs arrive in, so a
 * history split by workload_key and analysed in parts gives the same
 * records.
 */
#ifndef SP_HIST_H
#define SP_HIST_H

#include <stddef.h>
#include <stdint.h>
#include "sp_change.h"
#include "sp_pool.h"
#include "sp_run.h"
#include "sp_suggest.h"
#include "sp_topk.h"
#include "sp_u64map.h"

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
 * How much a figure varies from run to run, on a log scale: n values'
 * mean and sum of squared deviations of their logarithms, kept one
 * value at a time (Welford), so a history never rereads its runs.
 */
struct sp_spread {
	long n;
	double mean, m2;
};

void sp_spread_add(struct sp_spread *s, double x);
/* The sample standard deviation of the logarithms; NaN below 2. */
double sp_spread_sd(const struct sp_spread *s);

/*
 * A history's counters.  Each is at most the history's runs, which stay
 * below INT32_MAX (sp_hist_add_run refuses more), so 32 bits hold them.
 */
typedef int32_t sp_count;

struct sp_hist {
	const char *key;		/* workload_key, in the pool */
	struct sp_pool *pool;
	struct sp_hist_more *more;	/* NULL until needed */
	uint32_t keylen;
	int gpu;			/* the key's gpu|cpu: 1, 0, -1 "?" */

	long open, unusable;		/* left out */
	/* Runs whose record holds no state: each could have completed, timed
	 * out or been killed, so no verdict that reads states is given. */
	long stateless;
	sp_count runs;			/* usable allocation records */
	sp_count states[SP_ST_N];
	sp_count noop, hang, problems;
	/* Runs over SP_NOOP_MIN_ELAPSED_S with no CPU time in the record:
	 * whether they computed is unknown, so no rule reads their figures
	 * as a computing run's. */
	sp_count noop_unknown;
	/* ... kept apart, so a rule can tell whether they could change its
	 * figure: completed ones and the longest, peaks within the limit
	 * (and above it) and the largest, GPU runs and the busiest. */
	sp_count unk_done, unk_trusted, unk_untrusted, unk_gpu;
	double unk_longest_s, unk_peak_b, unk_gpu_busy;
	int have_newest;
	double gpu_h, core_h;
	/* The newest run, and what it asked for (NaN unknown). */
	struct sp_order newest;
	double req[SP_FLAG_N];
	/* The least any run asked for (NaN none): the only comparison left
	 * when the newest run recorded no request. */
	double req_least[SP_FLAG_N];
	/* --time and --mem by the value asked: what a change did. */
	struct sp_asked_sets *asked;	/* NULL until a run asks */

	/* --time */
	float *done_s;			/* completed, computing, elapsed > 0 */
	size_t ndone, donecap;
	struct sp_best longest;		/* a = elapsed, b = its limit */
	/* The spread of done_s on a log scale, kept as the runs come
	 * (Welford): mean and sum of squared deviations of ln elapsed. */
	struct sp_spread done_spread;
	double comp_timeout_limit_s;	/* the largest; NaN none */
	sp_count timeouts, hung_timeouts, comp_timeouts;
	/* Timeouts whose cause the record cannot tell (sp_timeout_cause):
	 * no CPU time in it, or too short to tell a hang from a wait; and
	 * the largest limit among them (NaN none). */
	sp_count cpu_unknown_timeouts, short_timeouts;
	double unsure_timeout_limit_s;

	/* --mem (per node) */
	sp_count mem_runs;		/* a reading, or a kill at a limit */
	sp_count mem_measured, mem_trusted, mem_untrusted;
	sp_count mem_lived;		/* trusted peaks of runs not killed */
	/* Runs with a peak or a memory kill but no known limit (none in
	 * the record, or one --mem-update may have moved): no figure. */
	sp_count mem_nolimit;
	sp_count multinode;
	sp_count kills;			/* OOM-killed with a known limit */
	/* --cpus-per-task, --gpus */
	sp_count cpu_runs, gpu_runs, gpu_util_runs;
	/* --cost: how many usable runs had the numbers known */
	sp_count cost_time_n, cost_cpu_n, cost_mem_n;
	/* every run one array? 1 yes, 0 no, -1 none seen */
	int one_array;
	struct sp_best peak;		/* a = MaxRSS, b = its limit */
	/* The spread of the trusted peaks of runs not killed (mem_lived). */
	struct sp_spread peak_spread;
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

/* The workload a key names: user/partition/gpu|cpu/workload. */
void sp_hist_init(struct sp_hist *h, struct sp_pool *pool,
		  const char *key, size_t keylen);
/* The same for a key already kept in the pool (not copied). */
void sp_hist_init_kept(struct sp_hist *h, struct sp_pool *pool,
		       const char *key, size_t keylen);
/* Adds one run. */
void sp_hist_add_run(struct sp_hist *h, const struct sp_run *r);
/* After the last run: closes what waits for the next one. */
void sp_hist_finish(struct sp_hist *h);
/*
 * One run as a history of one, finished: the evidence a single job
 * gives the rules that otherwise read a workload's history.
 */
void sp_hist_one(struct sp_hist *h, struct sp_pool *pool,
		 const struct sp_run *r);
/* Gives back what the history keeps in its pool. */
void sp_hist_free(struct sp_hist *h);
/* Gives back the job ids it owns (the best runs, the completions). */
void sp_hist_drop_ids(struct sp_hist *h);

/* The partition a history's key names; empty when the key is not one
 * sp-group wrote. */
struct sp_slice sp_hist_partition(const struct sp_hist *h);
/* The rare parts; an empty set when the workload never needed them. */
const struct sp_hist_more *sp_hist_more(const struct sp_hist *h);
/*
 * The contradiction: a run that completed at a per-node limit an earlier
 * submission had been killed at (never a task of that same array).
 * Returns the earliest such kill's index in oomsubs and sets *done to the
 * completion's job id, or returns -1.
 */
long sp_hist_contradiction(const struct sp_hist *h, const char **done);
/*
 * The known-good size of a memory hold: the smallest per-node limit at
 * which a run completed after a submission killed at that limit or a
 * larger one (never a task of that same array).  Sets *size to it and
 * *done to the completion's job id, and returns that kill's index in
 * oomsubs; -1 (and *size NaN) when there is none.
 */
long sp_hist_known_good(const struct sp_hist *h, double *size,
			const char **done);
/* The workload's compute (sp_compute of its GPU- and core-hours). */
double sp_hist_compute(const struct sp_hist *h);

#endif
