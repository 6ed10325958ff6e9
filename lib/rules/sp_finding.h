/*
 * sp_finding.h - what a rule found: one type, one severity order, for
 * the findings of one job (sp_rules_job.h) and those across the runs of
 * a workload (sp_rules_history.h).
 *
 * A finding is {code, severity, evidence, action}; a finding across runs
 * also names its workload and the runs it rests on.  Severity is ordered
 * INFO < WARNING < CRITICAL, and every list is shown most severe first,
 * the order the rules found them in among equals.
 */
#ifndef SP_FINDING_H
#define SP_FINDING_H

#include <stddef.h>
#include "sp_util.h"

enum sp_severity { SP_SEV_INFO, SP_SEV_WARNING, SP_SEV_CRITICAL };

/* "critical", "warning", "info" (records, JSON) and upper case (views). */
const char *sp_severity_name(enum sp_severity s);
const char *sp_severity_label(enum sp_severity s);

struct sp_finding {
	const char *code;	/* "timeout-hang", ...: static */
	enum sp_severity severity;
	char *evidence;		/* raw text (may hold log lines, LF) */
	char *action;		/* NULL when there is nothing to do */
	/*
	 * The runs a finding across runs rests on, at most
	 * SP_FINDING_MAX_IDS, separated by one space: a job id holds no
	 * space, but may hold a comma (4103947_[1,5] is one id).  NULL for
	 * a finding about one job.
	 */
	char *jobids;
	const char *key;	/* the workload it is about; NULL for one job */
	size_t keylen;
	size_t seq;		/* the order it was found in */
};

struct sp_findings {
	struct sp_finding *v;
	size_t n, cap;
};

/* A finding being written: its texts, then sp_findings_add. */
struct sp_draft {
	struct sp_buf ev, act, ids;
	size_t nids;
};

/* A run the finding names, after those already named (up to
 * SP_FINDING_MAX_IDS; NULL or empty names none). */
void sp_draft_id(struct sp_draft *d, const char *id);
void sp_draft_free(struct sp_draft *d);

/*
 * Adds a finding with the draft's texts (an empty action is none), and
 * empties the draft for the next one.  Returns the finding, to set its
 * workload.
 */
struct sp_finding *sp_findings_add(struct sp_findings *out, const char *code,
				   enum sp_severity sev, struct sp_draft *d);
/* Sorts the findings from index from on: most severe first, stable. */
void sp_findings_sort(struct sp_findings *f, size_t from);
/* The same, and within a severity by the codes' order in kinds
 * (NULL-terminated; a code not listed comes after those listed). */
void sp_findings_sort_by(struct sp_findings *f, size_t from,
			 const char *const *kinds);
/* The highest severity present, or -1 for none. */
int sp_findings_worst(const struct sp_findings *f);
void sp_findings_free(struct sp_findings *f);

#endif
