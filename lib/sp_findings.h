/*
 * sp_findings.h - what one job's record says went wrong, and what to do
 * about it (reference-rules.md section 2.2).
 *
 * The engine reads one allocation, the step records that follow it (if
 * sp-fetch ran with --steps), the site's gather settings and the tails of
 * the job's logs, and writes findings {code, severity, evidence, action}.
 * A healthy job gets none: restraint is part of the contract.  Every
 * threshold is in sp_const.h under "One job".
 */
#ifndef SP_FINDINGS_H
#define SP_FINDINGS_H

#include <stddef.h>
#include "sp_job.h"
#include "sp_logs.h"
#include "sp_site.h"
#include "sp_util.h"

struct sp_hist;

enum sp_severity { SP_SEV_INFO, SP_SEV_WARNING, SP_SEV_CRITICAL };

struct sp_finding {
	const char *code;	/* "timeout-hang", ...: static */
	enum sp_severity severity;
	char *evidence;		/* raw text (may hold log lines, LF) */
	char *action;		/* NULL when there is nothing to do */
};

struct sp_findings {
	struct sp_finding *v;
	size_t n;
	size_t cap;
};

/* Everything the engine may look at; only job is required. */
struct sp_diag {
	const struct sp_job *job;
	const struct sp_job *steps;	/* its step records, or NULL */
	size_t nsteps;
	const struct sp_site *site;	/* NULL: the site is unknown */
	const struct sp_logs *logs;	/* NULL or !looked: none read */
	const char *node_note;		/* sp_node_history_note, or NULL */
	/*
	 * The job's workload (sp-group's workload_key), whose advice the
	 * actions' figures are when it has a verdict (sp_pick): its
	 * history, or NULL, with why in no_workload (NULL: not read).
	 */
	const struct sp_hist *workload;
	const char *no_workload;
};

/*
 * Values derived from one record (reference-rules.md section 1.4), NaN
 * when unknown.  The view draws them and the rules judge them, so both
 * agree by construction.
 */
struct sp_jobcalc {
	double cores;		/* allocated CPUs */
	double gpus;		/* 0 when the record names none */
	double tasks;		/* ntasks, else the widest step */
	double nodes;
	double cpus_per_task;	/* cores / (tasks, else nodes, else 1) */
	double cpu_capacity_s;	/* max(CPUTime, elapsed x cores, steps) */
	double cpu_util;	/* total CPU / capacity */
	double busy_cores;	/* total CPU / elapsed */
	double sys_fraction;	/* system / total; NaN under 1 s of CPU */
	double walltime_used;	/* elapsed / limit */
	double mem_limit_b;	/* per node */
	double mem_used;	/* MaxRSS / limit; NaN when above it */
	int rss_above_limit;	/* MaxRSS exceeds the per-node limit */
	double io_b;		/* read + write */
	double io_rate;		/* per second of elapsed */
	double straggler;	/* (AveCPU - MinCPU) / AveCPU */
	double imbalance;	/* one task's MaxRSS over the mean */
	double wait_s;		/* queue wait */
	double samples;		/* memory samples at most; NaN unknown */
	double gpu_hours;	/* NaN without GPUs */
	double core_hours;
	int noop;		/* computed nothing (sp_job_noop) */
	int noop_known;		/* ... can be told (sp_job_noop_known) */
	int open;
};

void sp_jobcalc(struct sp_jobcalc *c, const struct sp_job *j,
		const struct sp_job *steps, size_t nsteps,
		const struct sp_site *site);

/* Runs every rule in the reference's order, then sorts most severe first
 * (stable, so rule order stays within a severity).  Appends to out. */
void sp_diagnose(const struct sp_diag *d, struct sp_findings *out);
void sp_findings_free(struct sp_findings *f);
/* The highest severity present, or -1 for none. */
int sp_findings_worst(const struct sp_findings *f);

/* "critical", "warning", "info" (records, JSON) and upper case (views). */
const char *sp_severity_name(enum sp_severity s);
const char *sp_severity_label(enum sp_severity s);

/*
 * The caveats of the site's gather type, as one sentence each: what
 * MaxRSS measures here, and what TotalCPU misses.  Appended to b.
 */
void sp_caveat_rss(struct sp_buf *b, const struct sp_site *site);
void sp_caveat_cpu(struct sp_buf *b, const struct sp_site *site);

/* The name of signal n ("SIGKILL"), or NULL when it has none here. */
const char *sp_signal_name(int n);

#endif
