/*
 * sp_rules_live.h - what a running job says before it ends: its live
 * figures (sp_live.h) against its limits, and against its workload's
 * history (sp_hist.h).  Findings (sp_finding.h), one job each:
 *
 *   running          the job so far (info): elapsed against its --time,
 *                    live memory against its --mem, CPU busy so far,
 *                    when read; or why there are no live figures
 *   live-near-mem    its live peak at SP_LIVE_NEAR_MEM_SHARE of its limit
 *                    or more (critical when the workload was killed for
 *                    memory at that limit or above)
 *   live-noop        computing nothing now: past the hang rule's floor
 *                    with CPU under its threshold (critical with GPUs)
 *   live-outlive     will outlive its --time: completed runs of the
 *                    workload took longer than its limit (critical when
 *                    most did)
 *   live-oom         will run out of memory: the workload was killed for
 *                    memory at its limit or above (critical), or a run
 *                    peaked above its limit
 *   live-past-usual  already past the workload's longest completed run,
 *                    or above its largest peak
 *
 * The history rules never see a running job (it is open); these never
 * see a finished one.
 */
#ifndef SP_RULES_LIVE_H
#define SP_RULES_LIVE_H

#include "sp_advice.h"
#include "sp_finding.h"
#include "sp_hist.h"
#include "sp_histset.h"
#include "sp_job.h"
#include "sp_live.h"

/*
 * Appends the findings of one running job j with its live columns l, in
 * the order above; "running" only with so_far (sp-show draws the job so
 * far as gauges).  h is its workload's history (NULL or no runs: the
 * history's findings are not had); site colours the advice the actions
 * quote.
 */
void sp_rules_live(struct sp_findings *out, const struct sp_job *j,
		   const struct sp_live *l, const struct sp_hist *h,
		   const struct sp_size_site *site, int so_far);
/*
 * The same, with j's workload history looked for in set (NULL: none to
 * read) and the site s says of it: what sp-size --running, sp-show and
 * sp-browse each ask of a running job.
 */
void sp_rules_live_in(struct sp_findings *out, const struct sp_job *j,
		      const struct sp_live *l, struct sp_histset *set,
		      const struct sp_site *s, int so_far);

#endif
