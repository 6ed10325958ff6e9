/*
 * sp_headline.h - the first lines of a report on a history, the same
 * wherever they are shown (sp-report's headline, the dashboard's first
 * screen): what leads (the GPU-hours held by allocations that computed
 * nothing when they are many, else the failures, else that nothing was
 * flagged), then the window (how many jobs, whose, when, in how many
 * workloads, what a view shows, and what was left out).
 */
#ifndef SP_HEADLINE_H
#define SP_HEADLINE_H

#include <stddef.h>
#include "sp_util.h"

/* What the headline says, gathered by the caller; text is clean. */
struct sp_headline {
	long runs, failed, workloads, open;
	long unknown_states;	/* states nothing here knows; -1 unknown */
	long shown;		/* jobs a view shows; -1 no view */
	long running_critical;	/* running jobs with a critical warning of
				 * the moment (sp-size --running); -1 not
				 * read */
	double gpu_h;		/* every closed allocation's; NaN unknown */
	double idle_gpu_h;	/* of those that computed nothing (hung or
				 * blocked: sp_job_hang_kind) */
	const char *idle_name;	/* the workload that held most, or NULL */
	double idle_key_gpu_h;	/* ... of the idle hours */
	double idle_key_total_h;	/* ... of all its GPU-hours */
	const char *const *users;	/* whose, in the order to name them */
	size_t nusers;
	const char *first, *last;	/* ISO 8601, or NULL: none ended */
	const char *source;	/* where the records came from, or NULL */
	const char *view;	/* the view's selection in words, or NULL */
};

/* An empty headline: nothing counted, everything else unknown. */
void sp_headline_init(struct sp_headline *h);
/*
 * The first line into text, and the second (empty when there is none)
 * into more, both appended; returns what leads: "idle", "failed", "ok"
 * or "none".  Running jobs with a critical warning are said after it,
 * in the same line: "nothing flagged" is never said above them.
 */
const char *sp_headline_lead(const struct sp_headline *h,
			     struct sp_buf *text, struct sp_buf *more);
/* The window as one sentence, appended. */
void sp_headline_window(const struct sp_headline *h, struct sp_buf *b);

#endif
