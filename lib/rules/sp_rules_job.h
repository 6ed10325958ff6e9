/*
 * sp_rules_job.h - the rules that read one job's record: what went wrong
 * with it, and what to do about it (reference-rules.md section 2.2).
 *
 * The rules read one allocation, the step records that follow it (if
 * sp-fetch ran with --steps), the site's gather settings and the tails of
 * the job's logs, and write findings (sp_finding.h).  A healthy job gets
 * none: restraint is part of the contract.  Every threshold is in
 * sp_const.h under "One job"; every figure an action names comes from
 * the suggestion rules (sp_suggest.h, sp_pick), its workload's where it
 * has a verdict.  The rules across a workload's runs are
 * sp_rules_history.h.
 */
#ifndef SP_RULES_JOB_H
#define SP_RULES_JOB_H

#include <stddef.h>
#include "sp_finding.h"
#include "sp_job.h"
#include "sp_jobcalc.h"
#include "sp_live.h"
#include "sp_logs.h"
#include "sp_site.h"
#include "sp_util.h"

struct sp_hist;
struct sp_bt_risks;

/* Everything the rules may look at; only job is required. */
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
	/*
	 * The workload's workload-advice as sp_wl_memo_get made it once
	 * (its --exclude among the lines), appended as it is; NULL: made
	 * here from workload, without --exclude.
	 */
	const struct sp_findings *verdict;
	unsigned missing;		/* sp_cols_unseen of the input */
	unsigned empty;			/* sp_cols_empty of the input */
	/* The input's replayed advice (sp_backtest.h), or NULL. */
	const struct sp_bt_risks *risks;
	/*
	 * A running job's reading of the moment (sp-fetch --live), or
	 * NULL: not read.  Where sstat answered, the job is known to run
	 * and the open record is not a question for squeue.
	 */
	const struct sp_live *live;
};

/*
 * Runs every rule in the reference's order and appends what they find
 * to out, most severe first (stable, so rule order stays within a
 * severity).
 */
void sp_rules_job(const struct sp_diag *d, struct sp_findings *out);

#endif
