/*
 * sp_postmortem.h - one job's post-mortem drawn as text for a terminal
 * of a given width: sp-show prints it, the dashboard shows it in a
 * window.  Everything drawn is made safe first (sp_term_clean): no byte
 * of a record or a log reaches the terminal as a control.
 */
#ifndef SP_POSTMORTEM_H
#define SP_POSTMORTEM_H

#include <stddef.h>
#include "sp_job.h"
#include "sp_logs.h"
#include "sp_rules_job.h"
#include "sp_site.h"
#include "sp_term.h"
#include "sp_util.h"

/* What one post-mortem reads; only job and calc are required. */
struct sp_postmortem {
	const struct sp_job *job;	/* the allocation */
	const struct sp_job *steps;	/* its step records, or NULL */
	size_t nsteps;
	const struct sp_jobcalc *calc;
	const struct sp_logs *logs;	/* NULL: not looked for */
	const struct sp_findings *findings;
	/* Every field of the record in record form, by column name. */
	char *const *cols;
	const struct sp_slice *fields;
	size_t nfields;
	int all;		/* also every field and the steps */
};

struct sp_wl_memo;
struct sp_logctx;
struct sp_node_history;

/*
 * What one job's post-mortem rests on, worked out once: its figures, its
 * logs (none looked for when logs is NULL: --no-logs), its findings (the
 * node note among them when a history is given; the figures their
 * actions name from the job's workload in workloads, every workload of
 * the input (wl->set; its workload's advice made once in wl), or one
 * run's own when wl is NULL: no workload_key).
 * figures_only: the figures alone (a table needs no more), no log read,
 * no rule run.
 */
struct sp_analysis {
	struct sp_jobcalc calc;
	struct sp_logs logs;
	struct sp_findings findings;
	struct sp_buf note;
};

void sp_postmortem_analyse(struct sp_analysis *a, const struct sp_job *j,
			   const struct sp_job *steps, size_t nsteps,
			   const struct sp_site *site, struct sp_logctx *logs,
			   struct sp_node_history *history,
			   struct sp_wl_memo *wl, int figures_only);
/*
 * The same for a job read live (sp-fetch --live's columns in l, NULL
 * when not read): its findings of the moment against its workload's
 * history (sp_rules_live) join the record's, most severe first.
 */
void sp_postmortem_analyse_live(struct sp_analysis *a, const struct sp_job *j,
				const struct sp_job *steps, size_t nsteps,
				const struct sp_site *site,
				struct sp_logctx *logs,
				struct sp_node_history *history,
				struct sp_wl_memo *wl,
				const struct sp_live *l);
void sp_analysis_free(struct sp_analysis *a);

/*
 * Appends the post-mortem to out, laid out for t (its width, colour and
 * glyphs), every line ending in LF, read top-down: the verdict line (id,
 * name, state, how it ended, the worst finding), who ran it where and
 * when, the gauges (time, CPU, memory, GPUs), the findings most severe
 * first, the end of its log; with all, every field in words and the
 * steps.  Linear in the size of the record and the logs' tails.
 */
void sp_postmortem_draw(const struct sp_term *t,
			const struct sp_postmortem *pm, struct sp_buf *out);

/*
 * A column's number in human units by its name (sp_column_kind):
 * seconds as a duration, bytes in KiB/MiB/GiB, fractions in percent,
 * hours with h, _hz in GHz.  Returns 0 (nothing written) for a column
 * of no such kind or a number that is not finite.
 */
int sp_postmortem_human(struct sp_buf *b, const char *col, double v);

#endif
