/*
 * sp_suggest.h - the figure each flag's rule gives, written once.
 *
 *   --time           the longest completed run x sp_margin (from their
 *                    spread and number; SP_TIME_MARGIN below 3 runs),
 *                    rounded up to SP_TIME_STEP_SHORT_S under
 *                    SP_TIME_STEP_SWITCH_S, else to SP_TIME_STEP_LONG_S;
 *                    the largest limit a run timed out at while computing,
 *                    x SP_TIME_MARGIN the same way, is a floor
 *   --mem            the largest trustworthy peak x sp_margin (from the
 *                    peaks' spread and number; SP_MEM_MARGIN below 3),
 *                    whole GiB up (under a GiB, SP_MEM_SMALL_STEP up); the
 *                    largest limit killed for memory, x SP_MEM_MARGIN the
 *                    same way, is a floor
 *   --cpus-per-task  the busiest run's busy cores per task x SP_CPU_MARGIN,
 *                    whole cores up; under SP_CPU_RAISE_MIN_BUSY busy no
 *                    margin (SP_CPU_NOISE of a core not counted)
 *   --gpus           the same over busy GPUs, SP_GPU_MARGIN and SP_GPU_NOISE
 *
 * The evidence is a history (sp_hist.h): a workload's, or one run's as a
 * history of one (sp_hist_one).  sp-size's advice, the findings across
 * runs, the one-job findings and sp-show take their figures from here,
 * so they cannot disagree about a rule; which evidence a caller passes
 * (a job's own run, or its workload's history) is the caller's choice.
 * Whether a figure is enough to act on (how many runs, which verdict) is
 * the advice's business (sp_advice.h), not this one's.
 */
#ifndef SP_SUGGEST_H
#define SP_SUGGEST_H

#include "sp_util.h"

enum sp_flag { SP_FLAG_TIME, SP_FLAG_MEM, SP_FLAG_CPUS, SP_FLAG_GPUS,
	       SP_FLAG_N };
/* The node rule's flag: advice (sp_verdict.h), never a size. */
#define SP_FLAG_EXCLUDE	SP_FLAG_N
/* "--time", "--mem", "--cpus-per-task", "--gpus", "--exclude". */
const char *sp_flag_name(enum sp_flag f);

struct sp_hist;

struct sp_suggestion {
	enum sp_flag flag;
	double value;		/* the figure; NaN: the evidence gives none */
	double fit;		/* what the runs that ran through give */
	double floor;		/* what the runs cut off give: timeouts that
				 * computed, kills for memory; NaN none */
	long runs;		/* the runs the figure rests on */
	double margin;		/* what fit adds to the largest run's
				 * figure (sp_margin); NaN none */
};

/* The figure the history h gives for flag f, into *s; returns s->value. */
double sp_suggest(const struct sp_hist *h, enum sp_flag f,
		  struct sp_suggestion *s);

/* The rules on one number, for evidence that is not a history. */
/* --time for a run that took elapsed_s (margin and step applied). */
double sp_suggest_time(double elapsed_s);
/* --mem for a peak (or a killed limit) of peak_b bytes per node. */
double sp_suggest_mem(double peak_b);
/* --cpus-per-task or --gpus for busy cores per task, or busy GPUs. */
double sp_suggest_busy(enum sp_flag f, double busy);
/* The margin a flag's rule adds to one number: 1.25 is a quarter more. */
double sp_suggest_margin(enum sp_flag f);
/*
 * The margin --time's or --mem's rule adds to the largest of n runs
 * whose figures spread by sd on a log scale (sp_spread_sd): the more
 * they vary and the fewer they are, the more.  Below SP_SIZE_MIN_RUNS
 * runs, or with the spread unknown, the one-number margin.
 */
double sp_margin(enum sp_flag f, long n, double sd);

/* A duration rounded up to the step its size calls for. */
double sp_round_time(double s);

/*
 * How many memory samples a run of elapsed_s took at most under
 * JobAcctGatherFrequency freq_s; NaN when either is unknown.  At
 * SP_MEM_THIN_SAMPLES or fewer (sp_thin) its peak may be low.
 */
double sp_samples(double elapsed_s, double freq_s);
int sp_thin(double samples);

/*
 * A figure as its flag takes it, appended: "02:30:00", "42G", "4".
 * sp_mem_spell is --mem's syntax for any size: "32G", "500M", else
 * whole KiB up "K"; nothing for an unknown or non-positive size.
 */
void sp_suggest_spell(struct sp_buf *b, enum sp_flag f, double value);
void sp_mem_spell(struct sp_buf *b, double bytes);

#endif
