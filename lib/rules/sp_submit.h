/*
 * sp_submit.h - one submission judged against its workload's history
 * (sp-submit): does it repeat what already failed, and what does the
 * workload's advice say of what it asks?
 *
 * A submission repeats a failure (critical) when
 *   --mem    it asks, per node, at or below a size the workload was
 *            killed for memory at, and no run completed at or below what
 *            it asks since the newest of those kills;
 *   --time   the workload's longest completed run took longer than it
 *            asks, or a run timed out while computing at a limit at or
 *            above it, or sp-size holds --time (the timeouts hung: any
 *            limit buys the same hang);
 *   a node   it asks for (-w) a node the node rule names worse for the
 *            workload (sp-nodes --exclude).
 * A worse node the submission neither asks for nor excludes is said,
 * not critical: the scheduler may or may not place it there.
 * The figure to ask instead is the workload's verdict's (sp_wl_verdict,
 * the advice sp-size writes), and the nodes are its --exclude advice's:
 * never this module's own.  Where the advice would change what
 * this submission asks (raise or lower, by more than SP_SIZE_CHANGE),
 * that is said too, not critical.  A flag the submission does not set
 * is judged on what the workload's newest run was given, and said so.
 */
#ifndef SP_SUBMIT_H
#define SP_SUBMIT_H

#include "sp_advice.h"
#include "sp_hist.h"
#include "sp_hostlist.h"
#include "sp_util.h"
#include "sp_verdict.h"

/* What a submission asks for; NaN where it sets nothing (or unlimited). */
struct sp_submission {
	double mem_b;		/* per node */
	double time_s;
	double cpus;		/* per task */
	const char *mem_text;	/* as written ("4G"), NULL none */
	const char *time_text;
	const char *cpus_text;
	/* Why the memory per node cannot be told (--mem-per-cpu without
	 * the tasks settled, say); NULL when it can or is not asked. */
	const char *mem_why;
	const char *nodelist;	/* -w as written, NULL none */
	const char *exclude;	/* -x as written, NULL none */
};

struct sp_submit_verdict {
	int critical;		/* the submission repeats a failure */
	struct sp_buf text;	/* the sentences, one line each, ending in
				 * '\n'; empty when there is nothing to say */
};

/*
 * Judges sub against workload h (finished), named label on screen, with
 * now the civil time (sp_civil_local) for "2 hours ago": wv is h's
 * verdict (sp_wl_verdict, with its advice) and exclude its --exclude
 * advice (sp_wl_exclude_of; NULL: the node rule names none), whose
 * figures and lines are said as they are, never made again here.  v is
 * cleared first; sp_submit_verdict_free after.
 */
void sp_submit_judge(const struct sp_hist *h, const char *label,
		     const struct sp_wl_verdict *wv,
		     const struct sp_advice *exclude,
		     const struct sp_submission *sub, double now,
		     struct sp_submit_verdict *v);
void sp_submit_verdict_free(struct sp_submit_verdict *v);

#endif
