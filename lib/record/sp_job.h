/*
 * sp_job.h - the job record (design.md, "Job record") as C sees it.
 *
 * sp-fetch writes SP_JOB_COLUMNS in this order; every other stage resolves
 * the columns it needs by name (sp_jobcols_resolve) and parses one record
 * into a struct sp_job.  Numbers that are unknown are NaN, never 0.
 */
#ifndef SP_JOB_H
#define SP_JOB_H

#include <stddef.h>
#include <stdint.h>
#include "sp_record.h"
#include "sp_const.h"

/*
 * X(column, kind) for every job-record column, in output order.
 * kind: S = text slice, N = number, T = timestamp (text, parsed to epoch).
 */
#define SP_JOB_COLUMNS(X) \
	X(jobid, S) X(jobid_raw, S) X(array_job, S) X(array_task, S) \
	X(step, S) X(attempt, N) X(name, S) X(user, S) X(uid, N) \
	X(account, S) X(partition, S) X(qos, S) X(cluster, S) \
	X(state, S) X(exit_code, N) X(signal, N) X(derived_exit_code, N) \
	X(cancelled_by, S) X(reason, S) \
	X(submit, T) X(eligible, T) X(start, T) X(end, T) X(open, N) \
	X(elapsed_s, N) X(timelimit_s, N) \
	X(req_cpus, N) X(alloc_cpus, N) X(ntasks, N) X(alloc_gpus, N) \
	X(nnodes, N) X(nodelist, S) X(req_mem, S) \
	X(mem_limit_node_b, N) X(mem_limit_total_b, N) \
	X(max_rss_b, N) X(max_rss_step, S) X(max_rss_node, S) \
	X(ave_rss_b, N) X(rss_imbalance, N) X(max_vmsize_b, N) \
	X(total_cpu_s, N) X(user_cpu_s, N) X(sys_cpu_s, N) X(cpu_time_s, N) \
	X(ave_cpu_s, N) X(min_cpu_s, N) X(min_cpu_node, S) X(min_cpu_task, S) \
	X(ave_cpu_freq_hz, N) \
	X(read_b, N) X(write_b, N) X(max_pages, N) \
	X(gpu_util, N) X(gpu_mem_b, N) X(energy_j, N) \
	X(req_tres, S) X(alloc_tres, S) X(constraints, S) \
	X(workdir, S) X(stdout, S) X(stderr, S) X(submit_line, S) \
	X(comment, S) X(flags, S) \
	X(wait_s, N)

/* Column indices in the reader; -1 when the input lacks the column. */
struct sp_jobcols {
#define SP_X(name, kind) int name;
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
	int workload;		/* added by sp-group */
	int workload_key;	/* added by sp-group */
};

/* One record, parsed.  Slices point into the reader's buffer. */
struct sp_job {
#define SP_XS_S(name) struct sp_slice name;
#define SP_XS_N(name) double name;
#define SP_XS_T(name) struct sp_slice name; int64_t name##_t; int name##_known;
#define SP_X(name, kind) SP_XS_##kind(name)
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
#undef SP_XS_S
#undef SP_XS_N
#undef SP_XS_T
	struct sp_slice workload;
	struct sp_slice workload_key;
};

/*
 * Every text field made empty (unknown), the numbers and times kept: for
 * a record kept past its line, whose slices point into the reader's
 * buffer that the next record overwrites.
 */
void sp_job_drop_text(struct sp_job *j);

/* The column names, in order, NULL-terminated. */
extern const char *const sp_job_column_names[];

void sp_jobcols_resolve(struct sp_jobcols *c, const struct sp_reader *r);
/*
 * Only the named columns (NULL-terminated), every other one absent, so
 * sp_job_parse spends nothing on numbers the caller never reads:
 * sp_jobcols_only(c, r, "state", "elapsed_s", NULL).
 */
void sp_jobcols_only(struct sp_jobcols *c, const struct sp_reader *r, ...);
/*
 * Tells r that c's columns are the ones read (sp_reader_want): the
 * others are split only for a pass-through.
 */
void sp_jobcols_want(struct sp_reader *r, const struct sp_jobcols *c);
/*
 * Dies (exit 2) unless every named column is present:
 * sp_jobcols_need(r, "sp-fetch", "state", "elapsed_s", NULL).
 */
void sp_jobcols_need(const struct sp_reader *r, const char *added_by, ...);

/*
 * Parses the current record.  A number column that holds text that is
 * not a plain decimal is bad input: dies with "file:line: field 'x' is not
 * a number: "1:00"".  Absent columns are unknown.
 */
void sp_job_parse(struct sp_job *j, const struct sp_jobcols *c,
		  const struct sp_reader *r);
/* The same without dying: 0, or -1 with the message in r's err buffer. */
int sp_job_parse_checked(struct sp_job *j, const struct sp_jobcols *c,
			 struct sp_reader *r);

/* A step record (sp-fetch --steps) rather than an allocation. */
int sp_job_is_step(const struct sp_job *j);
/* Open: never ended (RUNNING/PENDING with End Unknown). */
int sp_job_is_open(const struct sp_job *j);
/*
 * Whether the job ever started on a node: 0 for a record that shows it
 * never did (PENDING, no CPU allocated, or no node and no time elapsed:
 * cancelled while pending, which sacct gives a start equal to its end).
 */
int sp_job_ran(const struct sp_job *j);
/* Usable by cross-run analysis: an allocation, closed, elapsed known. */
int sp_job_usable(const struct sp_job *j);
/* The state is a failure (sp_state_failed: FAILED TIMEOUT OUT_OF_MEMORY
 * NODE_FAIL BOOT_FAIL DEADLINE). */
int sp_job_failed(const struct sp_job *j);
int sp_job_state_is(const struct sp_job *j, const char *state);
/*
 * The hang rule on two figures, the one home of its thresholds: ran over
 * SP_NOOP_MIN_ELAPSED_S with CPU under SP_NOOP_MAX_CPU_S (0 when either
 * is unknown); and whether it can tell (a short run needs no CPU time).
 * Finished or still running, a record or a live reading.
 */
int sp_noop(double elapsed_s, double cpu_s);
int sp_noop_known(double elapsed_s, double cpu_s);
/* Computed nothing: closed, elapsed > 300 s, work-step CPU < 10 s. */
int sp_job_noop(const struct sp_job *j);
/*
 * ... and its state does not already explain it (OOM, NODE_FAIL, ...); 0
 * where the state is not recorded (sp_job_hang_known says so).
 */
int sp_job_hang(const struct sp_job *j);
/*
 * Whether sp_job_hang can be answered at all: 1 for a closed allocation
 * with elapsed known that ran SP_NOOP_MIN_ELAPSED_S or less, has
 * total_cpu_s, or ended in a state that explains an idle CPU; 0 when its
 * CPU time is unknown (sacct dumps without TotalCPU), or it computed
 * nothing and its state is not recorded, open, or a step.
 * Where it is 0, sp_job_hang's 0 means "unknown", not "computed".
 */
int sp_job_hang_known(const struct sp_job *j);
/*
 * Why a run ended in TIMEOUT, as far as its record can tell.  Only a
 * run that used SP_NOOP_MAX_CPU_S of CPU or more was cut off while
 * computing, and only that says the work needs more time; one that ran
 * over SP_NOOP_MIN_ELAPSED_S using less hung (sp_job_noop); one that used
 * less in a shorter time is too short to tell a hang from a wait; and
 * where the record has no CPU time (or, with little, no elapsed time)
 * the cause is unknown.
 */
enum sp_timeout { SP_TO_COMPUTING, SP_TO_HUNG, SP_TO_SHORT, SP_TO_UNKNOWN };
enum sp_timeout sp_timeout_cause(double elapsed_s, double total_cpu_s);
/*
 * Whether sp_job_noop can be answered: a closed allocation with elapsed
 * known that ran SP_NOOP_MIN_ELAPSED_S or less, or has total_cpu_s.
 */
int sp_job_noop_known(const struct sp_job *j);
/* Moving data fast enough to explain the idle CPU. */
int sp_job_io_explains(const struct sp_job *j);
/*
 * What kind of idleness a record shows, sp-hang's classes: none (it
 * computed, or cannot be said to have idled), hung, blocked (a hang that
 * ran to its time limit), moving data (idle CPU explained by the data
 * moved: not a hang), explained (the state says why: OOM, NODE_FAIL, ...).
 * Hung and blocked are the hangs every stage counts as idle time.
 */
enum sp_hang_kind { SP_HANG_NONE, SP_HANG_HUNG, SP_HANG_BLOCKED,
		    SP_HANG_MOVING, SP_HANG_EXPLAINED };
enum sp_hang_kind sp_job_hang_kind(const struct sp_job *j);
/* Hangs of one kind counted, with the hours they held (NaN until a
 * known value is added: unknown is not none). */
struct sp_hang_tally {
	long count;
	double gpu_h;
	double core_h;
};

void sp_hang_tally_init(struct sp_hang_tally *t);
void sp_hang_tally_add(struct sp_hang_tally *t, double gpu_h, double core_h);
/*
 * The order of workloads by the hangs they held (qsort's sign): most
 * GPU-hours first, then core-hours, then hangs, then the key; the first
 * is the workload a headline names.
 */
int sp_hang_tally_cmp(const struct sp_hang_tally *a, const char *key_a,
		      const struct sp_hang_tally *b, const char *key_b);
/* Cores: alloc_cpus, else req_cpus; NaN when neither is known. */
double sp_job_cores(const struct sp_job *j);
/*
 * The memory limit per node: mem_limit_node_b, else the allocation's
 * total over its nodes (--mem is per node); NaN unknown or 0.
 */
double sp_job_mem_limit_node(const struct sp_job *j);
/* GPUs held: alloc_gpus, NaN unknown. */
double sp_job_gpus(const struct sp_job *j);
/* The gpu|cpu part of a workload key: 1 GPUs held, 0 none, -1 unknown. */
int sp_job_gpu_kind(const struct sp_job *j);
/* elapsed x cores / 3600 and elapsed x gpus / 3600 (NaN when unknown). */
double sp_job_core_hours(const struct sp_job *j);
double sp_job_gpu_hours(const struct sp_job *j);
/*
 * Compute = GPU-hours x SP_GPU_CORE_RATIO + core-hours, the one figure
 * every stage ranks work by; an unknown part counts as none.
 */
double sp_compute(double gpu_h, double core_h);

#endif
