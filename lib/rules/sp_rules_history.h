/*
 * sp_rules_history.h - the rules that read one workload's history
 * (sp_hist.h): the failures no single run shows (design.md "Findings";
 * reference-rules.md 2.4).  The rules that read one job are
 * sp_rules_job.h; both write sp_finding.h's findings.
 *
 *   repeat-failure    the same work failing again and again
 *   memory-search     --mem settled by trial and error (critical when a
 *                     size already killed later completed)
 *   memory-unchanged  killed for memory again at an unchanged --mem
 *   requeue-repeat    attempts thrown away by requeues
 *   array-probes      an array sized from probes that sit low in the
 *                     array's own population (the article's figure 5)
 *   noop-allocations  allocations that computed nothing
 *   near-limit        a completed run that nearly hit its --time
 *   indistinct-runs   (alone, info) no user or no job name: no rule
 *                     across the runs applies
 *
 * Each finding names its workload and the runs it rests on (jobids).
 */
#ifndef SP_RULES_HISTORY_H
#define SP_RULES_HISTORY_H

#include "sp_advice.h"
#include "sp_finding.h"
#include "sp_hist.h"

/*
 * Appends the findings of one workload, in the order of the list above.
 * The site only colours the wording (the time advice near-limit points
 * at).
 */
void sp_rules_history(struct sp_findings *out, const struct sp_hist *h,
		      const struct sp_size_site *site);
/*
 * Once every workload's findings are in: most severe first; then by
 * kind, most telling first (memory-search, memory-unchanged,
 * array-probes, near-limit, repeat-failure, requeue-repeat,
 * noop-allocations); then as the workloads are ordered.
 */
void sp_rules_history_sort(struct sp_findings *f);

#endif
