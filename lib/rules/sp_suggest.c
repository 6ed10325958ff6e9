/*
 * sp_suggest.c - the figure each flag's rule gives, written once.
 */
#include <math.h>

#include "sp_const.h"
#include "sp_hist.h"
#include "sp_suggest.h"
#include "sp_units.h"

static const char *const flag_names[SP_FLAG_N] = {
	"--time", "--mem", "--cpus-per-task", "--gpus"
};

const char *
sp_flag_name(enum sp_flag f)
{
	if (f == SP_FLAG_EXCLUDE)
		return "--exclude";
	return (unsigned)f < SP_FLAG_N ? flag_names[f] : "?";
}

double
sp_round_time(double s)
{
	double step = s < SP_TIME_STEP_SWITCH_S ? SP_TIME_STEP_SHORT_S :
	    SP_TIME_STEP_LONG_S;

	return ceil(s / step - SP_SUGGEST_STEP_SLACK) * step;
}

/*
 * Memory rounded up as --mem is given: whole GiB from one GiB up, below
 * it a multiple of SP_MEM_SMALL_STEP (50M, 100M, ...).
 */
static double
round_mem(double b)
{
	double m;

	if (b > SP_GIB)
		return ceil(b / SP_GIB - SP_SUGGEST_GIB_SLACK) * SP_GIB;
	/* Under a GiB a whole GiB can be five times the need: round steps
	 * of MiB instead, up to the GiB itself. */
	m = ceil(b / SP_MEM_SMALL_STEP - SP_SUGGEST_GIB_SLACK) *
	    SP_MEM_SMALL_STEP;
	if (m < SP_MEM_SMALL_STEP)
		m = SP_MEM_SMALL_STEP;
	return m > SP_GIB ? SP_GIB : m;
}

double
sp_suggest_margin(enum sp_flag f)
{
	switch (f) {
	case SP_FLAG_TIME: return SP_TIME_MARGIN;
	case SP_FLAG_MEM: return SP_MEM_MARGIN;
	case SP_FLAG_CPUS: return SP_CPU_MARGIN;
	case SP_FLAG_GPUS: return SP_GPU_MARGIN;
	default: return NAN;
	}
}

double
sp_suggest_time(double elapsed_s)
{
	return sp_round_time(elapsed_s * SP_TIME_MARGIN);
}

double
sp_suggest_mem(double peak_b)
{
	return round_mem(peak_b * SP_MEM_MARGIN);
}

/* Busy units to a request: no margin where it would double it. */
double
sp_suggest_busy(enum sp_flag f, double busy)
{
	double noise = f == SP_FLAG_GPUS ? SP_GPU_NOISE : SP_CPU_NOISE;
	double x;

	if (busy < SP_CPU_RAISE_MIN_BUSY)
		x = ceil(busy - noise);
	else
		x = ceil(busy * sp_suggest_margin(f) - SP_SUGGEST_STEP_SLACK);
	return x < 1 ? 1 : x;
}

/*
 * The history's margin (sp_suggest.h, sp-size(1) "The margins"): the
 * next run exceeds the largest of n alike runs by a share that grows
 * with their spread and shrinks as the largest of more runs already sits
 * further out in their distribution; a spread read from few runs may be
 * low by chance, so it counts as at least the prior's, fading as they
 * add up.  Calibrated by sp-backtest (t/bench/RESULTS.md).
 */
double
sp_margin(enum sp_flag f, long n, double sd)
{
	double floor_sd, e, m, lo;

	if ((f != SP_FLAG_TIME && f != SP_FLAG_MEM) ||
	    n < SP_SIZE_MIN_RUNS || !sp_known(sd))
		return sp_suggest_margin(f);
	floor_sd = SP_SPREAD_PRIOR_SD * sqrt(SP_SPREAD_PRIOR_RUNS /
	    ((double)(n - 1) + SP_SPREAD_PRIOR_RUNS));
	if (sd < floor_sd)
		sd = floor_sd;
	e = SP_SPREAD_Z + SP_SPREAD_FEW / (double)n -
	    SP_SPREAD_MAX_SHARE * sqrt(2 * log((double)n));
	m = exp(sd * (e > 0 ? e : 0));
	/* Runs this unlike are two kinds of work under one name more often
	 * than one wide distribution: past this, more margin bought almost
	 * no cut-offs back in the replay. */
	if (m > SP_SPREAD_MARGIN_MAX)
		m = SP_SPREAD_MARGIN_MAX;
	lo = f == SP_FLAG_TIME ? SP_TIME_MARGIN_MIN : SP_MEM_MARGIN_MIN;
	return m > lo ? m : lo;
}

static void
suggest_time(const struct sp_hist *h, struct sp_suggestion *s)
{
	s->runs = (long)h->ndone;
	s->margin = sp_margin(SP_FLAG_TIME, (long)h->ndone,
			      sp_spread_sd(&h->done_spread));
	if (h->ndone > 0)
		s->fit = sp_round_time(h->longest.a * s->margin);
	if (h->comp_timeouts > 0)
		s->floor = sp_suggest_time(h->comp_timeout_limit_s);
	s->value = s->fit;
	if (!isnan(s->floor) && !(s->value >= s->floor))
		s->value = s->floor;
}

/*
 * A kill sets a floor; the peaks of the runs that were not killed raise
 * it only when SP_SIZE_MIN_RUNS of them agree, since a peak read from
 * fewer is no match for a limit the kernel enforced.
 */
static void
suggest_mem(const struct sp_hist *h, struct sp_suggestion *s)
{
	s->margin = sp_margin(SP_FLAG_MEM, h->peak_spread.n,
			      sp_spread_sd(&h->peak_spread));
	if (h->mem_trusted > 0)
		s->fit = round_mem(h->peak.a * s->margin);
	if (h->kills > 0) {
		s->runs = h->mem_runs;
		s->floor = sp_suggest_mem(h->kill_limit_b);
		s->value = s->floor;
		if (h->mem_trusted >= SP_SIZE_MIN_RUNS && s->fit > s->floor)
			s->value = s->fit;
	} else {
		s->runs = h->mem_trusted;
		s->value = s->fit;
	}
}

double
sp_suggest(const struct sp_hist *h, enum sp_flag f, struct sp_suggestion *s)
{
	s->flag = f;
	s->value = s->fit = s->floor = s->margin = NAN;
	s->runs = 0;
	switch (f) {
	case SP_FLAG_TIME:
		suggest_time(h, s);
		break;
	case SP_FLAG_MEM:
		suggest_mem(h, s);
		break;
	case SP_FLAG_CPUS:
		s->runs = h->cpu_runs;
		if (h->cpu_runs > 0)
			s->fit = sp_suggest_busy(f, h->busiest.a);
		s->value = s->fit;
		break;
	case SP_FLAG_GPUS:
		s->runs = h->gpu_util_runs;
		if (h->gpu_util_runs > 0)
			s->fit = sp_suggest_busy(f, h->gpu_busiest.a);
		s->value = s->fit;
		break;
	default:
		break;
	}
	return s->value;
}

double
sp_samples(double elapsed_s, double freq_s)
{
	if (!(freq_s > 0) || !(elapsed_s >= 0))
		return NAN;
	return floor(elapsed_s / freq_s) + 1;
}

int
sp_thin(double samples)
{
	return samples <= SP_MEM_THIN_SAMPLES;
}

void
sp_mem_spell(struct sp_buf *b, double bytes)
{
	if (!(bytes > 0) || !isfinite(bytes))
		return;
	if (fmod(bytes, SP_GIB) == 0)
		sp_buf_printf(b, "%.0fG", bytes / SP_GIB);
	else if (fmod(bytes, SP_MIB) == 0)
		sp_buf_printf(b, "%.0fM", bytes / SP_MIB);
	else
		sp_buf_printf(b, "%.0fK", ceil(bytes / 1024.0));
}

void
sp_suggest_spell(struct sp_buf *b, enum sp_flag f, double value)
{
	switch (f) {
	case SP_FLAG_TIME:
		sp_fmt_hms(b, value);
		break;
	case SP_FLAG_MEM:
		sp_mem_spell(b, value);
		break;
	default:
		sp_buf_printf(b, "%g", value);
		break;
	}
}
