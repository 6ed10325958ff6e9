/*
 * sp_advice.h - what one workload's history says its next request should
 * be (design.md "Advice"; reference-rules.md 2.6).
 *
 * The figure comes from sp_suggest; the advice adds the verdict against
 * the newest run's request (raise, lower, keep, refuse below
 * SP_SIZE_MIN_RUNS runs, hold where the evidence says the request is not
 * the variable, capped at the partition's ceiling) and the sentences
 * that say why and what to beware of.
 */
#ifndef SP_ADVICE_H
#define SP_ADVICE_H

#include "sp_hist.h"
#include "sp_job.h"
#include "sp_site.h"
#include "sp_suggest.h"
#include "sp_units.h"
#include "sp_util.h"

/*
 * The columns the verdicts read beyond state and elapsed_s, as bits of
 * sp_size_site.missing.  A verdict that needs a column its input lacks
 * is a refusal naming it, never a figure made without it.
 */
enum sp_col {
	SP_COL_TIMELIMIT, SP_COL_MEM_LIMIT, SP_COL_RSS, SP_COL_NTASKS,
	SP_COL_CPU, SP_COL_CORES, SP_COL_GPUS, SP_COL_GPU_UTIL,
	SP_COL_ARRAY, SP_COL_STATE, SP_COL_ELAPSED, SP_COL_JOBID, SP_COL_N
};
/* The bits of the columns c (as resolved) lacks. */
unsigned sp_cols_missing(const struct sp_jobcols *c);
/*
 * Adds to *seen the bits of the columns of c whose field in the current
 * record of r holds a value.  After the last record, a column every
 * finished run has (SP_COLS_ALWAYS) that was never seen is missing as
 * much as an absent one (a dump read with --fields that lacks the field
 * has it empty on every row): sp_cols_unseen(c, seen) gives both.  An
 * empty array_job or gpu_util everywhere is no gap: no arrays, no GPUs.
 */
void sp_cols_seen(const struct sp_jobcols *c, const struct sp_reader *r,
		  unsigned *seen);
#define SP_COLS_ALWAYS	(1u << SP_COL_TIMELIMIT | 1u << SP_COL_MEM_LIMIT | \
			 1u << SP_COL_CPU | 1u << SP_COL_CORES | \
			 1u << SP_COL_STATE | 1u << SP_COL_ELAPSED | \
			 1u << SP_COL_JOBID)
unsigned sp_cols_unseen(const struct sp_jobcols *c, unsigned seen);
/* Of those, the columns c has that no record filled: a refusal says the
 * column has no value, not that the input lacks it. */
unsigned sp_cols_empty(const struct sp_jobcols *c, unsigned seen);

/* What the site tells the rules; NaN or SP_GATHER_UNKNOWN when unknown. */
struct sp_size_site {
	enum sp_gather gather;		/* the MaxRSS and TotalCPU caveats */
	double gather_freq_s;		/* thin sampling */
	int gpuutil_tracked;		/* -1 unknown */
	double ceiling_cores;		/* the partition's largest node */
	double ceiling_mem_b;
	unsigned missing;		/* 1 << sp_col: the input lacks it */
	unsigned empty;			/* of missing, those it names but
					 * never fills (sp_cols_empty) */
};

void sp_size_site_unknown(struct sp_size_site *s);
/* What the site s (loaded, or not) tells the rules about workload h: its
 * gather settings and its partition's ceiling. */
void sp_size_site_of(const struct sp_site *s, const struct sp_hist *h,
		     struct sp_size_site *out);

/*
 * 1 when the key of h cannot tell its runs apart (sp-group wrote '?' for
 * its user or its job name: no User or no JobName in the record), so the
 * runs may be unrelated jobs and no rule across them applies; why says
 * so, as a clause.  Sizing refuses and the findings across runs are
 * one info finding, indistinct-runs.
 */
int sp_advice_indistinct(const struct sp_hist *h, struct sp_buf *why);

enum sp_verdict { SP_V_RAISE, SP_V_LOWER, SP_V_KEEP, SP_V_REFUSE,
		  SP_V_HOLD, SP_V_CAPPED };
const char *sp_verdict_name(enum sp_verdict v);
/* raise or lower: the request should change. */
int sp_verdict_actionable(enum sp_verdict v);

struct sp_advice {
	enum sp_flag flag;
	enum sp_verdict verdict;
	long runs;			/* the runs the rule read */
	double requested;		/* NaN unknown */
	double target;			/* NaN: no figure */
	/* The figure the rule read, as a number in the flag's unit (the
	 * longest completed run, the largest trustworthy peak, the busy
	 * cores per task or GPUs); NaN when the rule read none. */
	double observed_v;
	struct sp_buf requested_txt, suggestion, sbatch;
	struct sp_buf observed, basis, caution;
	struct sp_words words;		/* the advice's own, reused */
	/* Set by a caller that reads the verdict and the figures only
	 * (sp-backtest asks once a run): what only the words need, and
	 * costs more than the figure (the p95 of every completed run), is
	 * skipped.  sp_size_advise never changes it. */
	int figure_only;
};

void sp_advice_free(struct sp_advice *a);

/*
 * The advice of one flag into *a, which is zeroed ({ 0 }) or holds an
 * earlier answer (its buffers are reused); sp_advice_free when done.
 * Returns 0, or -1 when the flag does not apply (--gpus for a workload
 * that holds no GPUs).
 */
/* An advice record emptied for flag: no figure, every text cleared,
 * verdict refuse; its buffers kept for reuse. */
void sp_advice_reset(struct sp_advice *a, enum sp_flag flag);
int sp_size_advise(const struct sp_hist *h, const struct sp_size_site *site,
		   enum sp_flag flag, struct sp_advice *a);

/*
 * The figure one job's findings name for a flag (design.md: one job's
 * suggestion is its workload's when the workload has a verdict).  With
 * the job's workload history wl, its advice (sp_size_advise) is taken
 * whenever it is a verdict on the request (raise, lower, keep, capped:
 * SP_PICK_WORKLOAD) or a hold (SP_PICK_WORKLOAD, no figure); without wl,
 * or where the workload's advice refuses (too few runs), the figure is
 * the one run's own (sp_suggest over one, a history of one:
 * SP_PICK_RUN), which a finding must label as such.
 */
enum sp_pick_from { SP_PICK_NONE, SP_PICK_WORKLOAD, SP_PICK_RUN };

struct sp_pick {
	enum sp_flag flag;
	enum sp_pick_from from;
	double value;			/* NaN: no figure */
	long runs;			/* the runs the figure rests on */
	struct sp_advice adv;		/* the workload's advice, when read */
	struct sp_buf text;		/* value as its flag takes it */
};

/*
 * The pick for flag f into *p, which is zeroed ({ 0 }) or holds an
 * earlier pick; sp_pick_free when done.  wl may be NULL.  Returns
 * p->value.
 */
double sp_pick(const struct sp_hist *wl, const struct sp_size_site *site,
	       const struct sp_hist *one, enum sp_flag f, struct sp_pick *p);
void sp_pick_free(struct sp_pick *p);
/*
 * Where a picked figure comes from, as a parenthesis for an action:
 * "sp-size's advice from 993 runs of this workload", or "one run's
 * estimate: sp-size has no verdict for its workload, which needs 3
 * completed runs; there were 2".
 * why_alone says why there is no workload (NULL: none was read).
 */
void sp_pick_source(struct sp_buf *b, const struct sp_pick *p,
		    const char *why_alone);

#endif
