/*
 * sp_patterns.h - the failures no single run shows (design.md "Findings";
 * reference-rules.md 2.4): read off one workload's history (sp_hist.h).
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
 */
#ifndef SP_PATTERNS_H
#define SP_PATTERNS_H

#include <stddef.h>
#include "sp_advice.h"
#include "sp_hist.h"
#include "sp_util.h"

enum sp_pattern_sev { SP_PAT_CRITICAL, SP_PAT_WARNING, SP_PAT_INFO };
const char *sp_pattern_sev_name(enum sp_pattern_sev s);

struct sp_pattern {
	const char *code;
	enum sp_pattern_sev severity;
	const char *key;		/* the workload it is about (pool) */
	size_t keylen;
	struct sp_buf jobids;		/* comma-separated, at most
					 * SP_FINDING_MAX_IDS */
	struct sp_buf evidence, action;
	size_t seq;			/* the order it was found in */
};

struct sp_pattern_list {
	struct sp_pattern *v;
	size_t n, cap;
};

/*
 * Appends the findings of one workload, in the order of the list above.
 * The site only colours the wording (the time advice near-limit points
 * at).
 */
void sp_patterns_find(struct sp_pattern_list *out, const struct sp_hist *h,
		      const struct sp_size_site *site);
/* Most severe first; then by kind, most telling first (memory-search,
 * memory-unchanged, array-probes, near-limit, repeat-failure,
 * requeue-repeat, noop-allocations); then as the workloads are ordered. */
void sp_pattern_list_sort(struct sp_pattern_list *f);
void sp_pattern_list_free(struct sp_pattern_list *f);

#endif
