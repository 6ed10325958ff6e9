/*
 * sp_advice.c - the verdict on each flag of one workload, and why.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sp_advice.h"
#include "sp_const.h"
#include "sp_stats.h"
#include "sp_units.h"
#include "sp_workload.h"

static const char *const verdict_names[] = {
	"raise", "lower", "keep", "refuse", "hold", "capped"
};

const char *
sp_verdict_name(enum sp_verdict v)
{
	return verdict_names[v];
}

static const char *const col_names[SP_COL_N] = {
	"timelimit_s", "mem_limit_node_b", "max_rss_b", "ntasks",
	"total_cpu_s", "alloc_cpus", "alloc_gpus", "gpu_util", "array_job",
	"state", "elapsed_s", "jobid"
};

static const char *
sp_col_name(enum sp_col c)
{
	return (unsigned)c < SP_COL_N ? col_names[c] : "?";
}

/* Where each of the columns above is in the input; -1 absent. */
static void
cols_at(const struct sp_jobcols *c, int at[SP_COL_N])
{
	const int v[SP_COL_N] = {
		c->timelimit_s, c->mem_limit_node_b >= 0 ? c->mem_limit_node_b :
		c->mem_limit_total_b, c->max_rss_b, c->ntasks,
		c->total_cpu_s, c->alloc_cpus >= 0 ? c->alloc_cpus :
		c->req_cpus, c->alloc_gpus, c->gpu_util, c->array_job,
		c->state, c->elapsed_s, c->jobid
	};

	memcpy(at, v, sizeof v);
}

unsigned
sp_cols_missing(const struct sp_jobcols *c)
{
	int at[SP_COL_N];
	unsigned m = 0;

	cols_at(c, at);
	for (int i = 0; i < SP_COL_N; i++)
		if (at[i] < 0)
			m |= 1u << i;
	return m;
}

void
sp_cols_seen(const struct sp_jobcols *c, const struct sp_reader *r,
	     unsigned *seen)
{
	int at[SP_COL_N];

	if ((*seen & SP_COLS_ALWAYS) == SP_COLS_ALWAYS)
		return;
	cols_at(c, at);
	for (int i = 0; i < SP_COL_N; i++)
		if (at[i] >= 0 && r->f[at[i]].n > 0)
			*seen |= 1u << i;
}

unsigned
sp_cols_unseen(const struct sp_jobcols *c, unsigned seen)
{
	return sp_cols_missing(c) | (SP_COLS_ALWAYS & ~seen);
}

unsigned
sp_cols_empty(const struct sp_jobcols *c, unsigned seen)
{
	return SP_COLS_ALWAYS & ~seen & ~sp_cols_missing(c);
}

/* The columns each flag's verdict reads. */
static unsigned
flag_needs(enum sp_flag f)
{
	unsigned every = 1u << SP_COL_STATE | 1u << SP_COL_ELAPSED;

	switch (f) {
	case SP_FLAG_TIME:
		return every | 1u << SP_COL_TIMELIMIT;
	case SP_FLAG_MEM:
		return every | 1u << SP_COL_MEM_LIMIT | 1u << SP_COL_RSS;
	case SP_FLAG_CPUS:
		return every | 1u << SP_COL_NTASKS | 1u << SP_COL_CPU |
		    1u << SP_COL_CORES;
	case SP_FLAG_GPUS:
		return every | 1u << SP_COL_GPUS | 1u << SP_COL_GPU_UTIL;
	default:
		return 0;
	}
}

void
sp_size_site_unknown(struct sp_size_site *s)
{
	s->gather = SP_GATHER_UNKNOWN;
	s->gather_freq_s = NAN;
	s->gpuutil_tracked = -1;
	s->ceiling_cores = NAN;
	s->ceiling_mem_b = NAN;
	s->missing = 0;
	s->empty = 0;
}

void
sp_size_site_of(const struct sp_site *s, const struct sp_hist *h,
		struct sp_size_site *out)
{
	struct sp_slice part;

	sp_size_site_unknown(out);
	if (s == NULL)
		return;
	if (s->known) {
		out->gather = s->gather;
		out->gather_freq_s = s->gather_freq_s;
		out->gpuutil_tracked = s->gpuutil_tracked;
	}
	part = sp_hist_partition(h);
	if (part.n == 0 || (part.n == 1 && part.p[0] == '?'))
		return;
	sp_site_partition_ceiling(s, part.p, part.n, &out->ceiling_cores,
				  &out->ceiling_mem_b);
}

void
sp_advice_free(struct sp_advice *a)
{
	sp_buf_free(&a->requested_txt);
	sp_buf_free(&a->suggestion);
	sp_buf_free(&a->sbatch);
	sp_buf_free(&a->observed);
	sp_buf_free(&a->basis);
	sp_buf_free(&a->caution);
	sp_words_free(&a->words);
}

/* Appends one clause to a "; "-separated list. */
static void
clause(struct sp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
clause(struct sp_buf *b, const char *fmt, ...)
{
	va_list ap;

	if (b->len > 0)
		sp_buf_adds(b, "; ");
	va_start(ap, fmt);
	sp_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

/* A core or GPU count: "0", "under 0.05", "0.07", "3.4". */
static void
fmt_busy(struct sp_buf *b, double x)
{
	if (!sp_known(x))
		return;
	if (x <= 0)
		sp_buf_adds(b, "0");
	else if (x < SP_BUSY_SHOWN_MIN)
		sp_buf_printf(b, "under %g", SP_BUSY_SHOWN_MIN);
	else if (x < SP_BUSY_FINE_BELOW)
		sp_buf_printf(b, "%.2f", x);
	else
		sp_buf_printf(b, "%.1f", x);
}

/* A size in --mem's own syntax, for a clause's %s. */
static const char *
t_mem(struct sp_words *ws, double b)
{
	return sp_form(ws, sp_mem_spell, b);
}

static const char *
plural(double n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The MaxRSS caveat every memory line carries, by gather type. */
static void
mem_caveat(struct sp_buf *b, enum sp_gather g)
{
	switch (g) {
	case SP_GATHER_LINUX:
		clause(b, "MaxRSS reads high under jobacct_gather/linux, which "
		       "counts shared pages once per process: an upper bound; "
		       "a live reading of the running job measures the real "
		       "footprint");
		break;
	case SP_GATHER_CGROUP:
		clause(b, "MaxRSS is the cgroup's high-water mark here, page "
		       "cache included, so it can read high; a live reading of "
		       "the running job measures the real footprint");
		break;
	default:
		clause(b, "MaxRSS reads high where jobacct_gather/linux counts "
		       "shared pages once per process (the gather type here is "
		       "unknown): an upper bound; a live reading of the "
		       "running job measures the real footprint");
		break;
	}
}

static enum sp_verdict
judge(double target, double current)
{
	if (!sp_known(current))
		return SP_V_RAISE;
	if (target > current * (1 + SP_SIZE_CHANGE))
		return SP_V_RAISE;
	if (target < current * (1 - SP_SIZE_CHANGE))
		return SP_V_LOWER;
	return SP_V_KEEP;
}

/* A request or a figure as its flag takes it. */
static const char *
t_request(struct sp_words *ws, enum sp_flag f, double v)
{
	struct sp_buf *t = sp_words_buf(ws);

	sp_suggest_spell(t, f, v);
	return sp_buf_str(t);
}

/*
 * The verdict for a->target against the newest run's request.  A
 * direction needs a request: when the newest run recorded none (a
 * partition default, say), raise only if an earlier run asked for
 * clearly less than the target; otherwise keep, with the figure offered
 * as what the history supports (unasked() says so).
 */
static enum sp_verdict
judge_newest(const struct sp_hist *h, struct sp_advice *a, struct sp_words *ws)
{
	double least = h->req_least[a->flag];

	if (sp_known(a->requested))
		return judge(a->target, a->requested);
	if (sp_known(least) && judge(a->target, least) == SP_V_RAISE) {
		clause(&a->basis, "the newest run recorded no request (a "
		       "partition default, say), but earlier runs asked for as "
		       "little as %s", t_request(ws, a->flag, least));
		return SP_V_RAISE;
	}
	clause(&a->basis, "the newest run recorded no request (a partition "
	       "default, say), so no direction: the suggestion is what the "
	       "history supports");
	return SP_V_KEEP;
}

/* Kept only because there was no request to compare with. */
static int
unasked(const struct sp_advice *a)
{
	return a->verdict == SP_V_KEEP && !sp_known(a->requested) &&
	    sp_known(a->target);
}

/* The target as the line to paste. */
static void
suggest(struct sp_advice *a, struct sp_words *ws)
{
	const char *value = t_request(ws, a->flag, a->target);

	sp_buf_printf(&a->suggestion, "%s=%s", sp_flag_name(a->flag), value);
	sp_buf_printf(&a->sbatch, "#SBATCH %s=%s", sp_flag_name(a->flag),
		      value);
}

int
sp_verdict_actionable(enum sp_verdict v)
{
	return v == SP_V_RAISE || v == SP_V_LOWER;
}

/* Runs no rule reads as computing ones: their CPU time is unknown. */
static void
computed_unknown(const struct sp_hist *h, struct sp_buf *b)
{
	if (h->noop_unknown > 0)
		clause(b, "%ld %s no CPU time (total_cpu_s) in %s record, so "
		       "whether %s computed is unknown: left out",
		       (long)h->noop_unknown,
		       plural(h->noop_unknown, "run has", "runs have"),
		       plural(h->noop_unknown, "its", "their"),
		       plural(h->noop_unknown, "it", "they"));
}

/* The hang veto: enough timeouts that computed nothing hold --time. */
static int
vetoes(long hung, long timeouts, long runs)
{
	return hung >= SP_TIME_VETO_MIN_HUNG &&
	    hung >= SP_TIME_VETO_TIMEOUT_SHARE * timeouts &&
	    hung >= SP_TIME_VETO_RUN_SHARE * runs;
}

/* Timeouts the record cannot tell a hang from a run cut off computing. */
static long
unsure(const struct sp_hist *h)
{
	return (long)h->cpu_unknown_timeouts + h->short_timeouts;
}

/* Refused: the rule needs SP_SIZE_MIN_RUNS runs of a kind, and had few. */
static void
too_few(struct sp_advice *a, const char *runs, long have)
{
	a->verdict = SP_V_REFUSE;
	clause(&a->basis, "needs %d %s; there %s %ld", SP_SIZE_MIN_RUNS, runs,
	       have == 1 ? "was" : "were", have);
}

/* What those timeouts are, and why their cause is unknown. */
static void
unsure_timeouts(const struct sp_hist *h, struct sp_buf *b, struct sp_words *ws)
{
	long unk = h->cpu_unknown_timeouts, shrt = h->short_timeouts;
	long n = unk + shrt;

	if (n == 0)
		return;
	clause(b, "%ld %s timed out at up to %s", n, plural(n, "run", "runs"),
	       sp_hms(ws, h->unsure_timeout_limit_s));
	if (shrt == 0) {
		sp_buf_printf(b, ", and CPU time (total_cpu_s) is not in %s "
			      "record: whether %s computing or hung is unknown",
			      plural(n, "its", "their"),
			      plural(n, "it was", "they were"));
		return;
	}
	if (unk > 0)
		sp_buf_printf(b, ": %ld with no CPU time (total_cpu_s) in %s "
			      "record and %ld", unk,
			      plural(unk, "its", "their"), shrt);
	sp_buf_printf(b, " using under %.0f CPU-seconds in under %s, so "
		      "whether %s computing or hung is unknown",
		      SP_NOOP_MAX_CPU_S,
		      sp_hms(ws, SP_NOOP_MIN_ELAPSED_S),
		      plural(n, "it was", "they were"));
}

static void
advise_time(const struct sp_hist *h, struct sp_advice *a,
	    struct sp_words *ws)
{
	long hung = h->hung_timeouts, touts = h->timeouts;
	double req = h->req[SP_FLAG_TIME];
	double longest, p95;
	struct sp_suggestion s;
	double *v;

	a->runs = (long)h->ndone;
	if (vetoes(hung, touts, h->runs)) {
		a->verdict = SP_V_HOLD;
		a->runs = touts;
		sp_buf_printf(&a->observed, "%ld of %ld timeouts computed "
			      "nothing", hung, touts);
		clause(&a->basis, "blocked, not slow: %ld of the %ld "
		       "timeouts (of %ld runs) used under %.0f "
		       "CPU-seconds, and a longer limit buys a longer "
		       "hang", hung, touts, (long)h->runs,
		       SP_NOOP_MAX_CPU_S);
		if (h->comp_timeouts > 0)
			clause(&a->basis, "the other %ld did compute and were "
			       "cut off at up to %s", (long)h->comp_timeouts,
			       sp_hms(ws, h->comp_timeout_limit_s));
		clause(&a->caution, "fix the blocking call (a data read, a "
		       "lock, a rendezvous, a prompt); sp-hang lists the runs");
		return;
	}
	/* Timeouts of unknown cause that, hung, would hold --time: which
	 * verdict applies, the record cannot say. */
	if (unsure(h) > 0 && vetoes(hung + unsure(h), touts, h->runs)) {
		a->verdict = SP_V_REFUSE;
		a->runs = touts;
		unsure_timeouts(h, &a->basis, ws);
		clause(&a->basis, "had they hung, as many hung timeouts would "
		       "hold --time (a longer limit buys a longer hang)");
		clause(&a->caution, "the runs' CPU time (sacct's TotalCPU), or "
		       "their logs, tell a hang from a run cut off computing");
		return;
	}
	if (h->ndone < SP_SIZE_MIN_RUNS) {
		too_few(a, "completed runs", (long)h->ndone);
		computed_unknown(h, &a->basis);
		if (h->ndone > 0) {
			sp_fmt_duration(&a->observed, h->longest.a);
			a->observed_v = h->longest.a;
		}
		if (h->comp_timeouts > 0)
			clause(&a->caution, "%ld %s timed out while computing "
			       "at up to %s: too short, by how much the record "
			       "cannot say", (long)h->comp_timeouts,
			       plural(h->comp_timeouts, "run", "runs"),
			       sp_hms(ws, h->comp_timeout_limit_s));
		unsure_timeouts(h, &a->caution, ws);
		return;
	}
	longest = h->longest.a;
	if (h->unk_done > 0 && h->unk_longest_s > longest) {
		/* Had they computed, the figure would rest on them. */
		a->verdict = SP_V_REFUSE;
		clause(&a->basis, "longest of %zu completed runs took %s",
		       h->ndone, sp_dur(ws, longest));
		clause(&a->basis, "%ld more completed with no CPU time "
		       "(total_cpu_s) in %s record, up to %s: whether %s "
		       "computed decides the figure", (long)h->unk_done,
		       plural(h->unk_done, "its", "their"),
		       sp_dur(ws, h->unk_longest_s),
		       plural(h->unk_done, "it", "they"));
		return;
	}
	sp_suggest(h, SP_FLAG_TIME, &s);
	p95 = longest;
	if (!a->figure_only) {
		v = sp_xcalloc(h->ndone, sizeof *v);
		for (size_t i = 0; i < h->ndone; i++)
			v[i] = h->done_s[i];
		p95 = sp_percentile(v, h->ndone, SP_TIME_P95);
		free(v);
	}

	sp_fmt_duration(&a->observed, longest);
	a->observed_v = longest;
	clause(&a->basis, "longest of %zu completed runs took %s",
	       h->ndone, sp_dur(ws, longest));
	if (fabs(longest - p95) > fmax(SP_TIME_P95_SHOW_S,
				       SP_TIME_P95_SHOW_SHARE * longest))
		sp_buf_printf(&a->basis, " (p95 %s)", sp_dur(ws, p95));
	if (s.value > s.fit)
		clause(&a->basis, "%ld %s timed out while computing at %s, so "
		       "at least %s", (long)h->comp_timeouts,
		       plural(h->comp_timeouts, "run", "runs"),
		       sp_hms(ws, h->comp_timeout_limit_s),
		       sp_hms(ws, s.floor));
	/* A timeout of unknown cause is no floor: it may have hung.  Nor
	 * can the completed runs be trusted where its limit would have
	 * raised their figure: it may have been cut off computing. */
	if (unsure(h) > 0 &&
	    sp_suggest_time(h->unsure_timeout_limit_s) > s.value) {
		a->verdict = SP_V_REFUSE;
		unsure_timeouts(h, &a->basis, ws);
		clause(&a->basis, "so %s may be too short, and a longer "
		       "limit may only buy a longer hang", sp_hms(ws, s.value));
		clause(&a->caution, "the runs' CPU time (sacct's TotalCPU), or "
		       "their logs, tell a hang from a run cut off computing");
		return;
	}
	a->target = s.value;
	a->verdict = judge_newest(h, a, ws);
	/* Inside the band, but the longest run nearly hit this very limit:
	 * the next slower input is cut off, so a small raise is worth it. */
	if (a->verdict == SP_V_KEEP && a->target > req &&
	    longest >= (1 - SP_NEAR_LIMIT_SHARE) * req) {
		a->verdict = SP_V_RAISE;
		clause(&a->basis, "raised although within %.0f%% of the "
		       "request: the longest run left under %.0f%% of it",
		       SP_SIZE_CHANGE * 100, SP_NEAR_LIMIT_SHARE * 100);
	}
	if (sp_verdict_actionable(a->verdict) || unasked(a))
		suggest(a, ws);
	else if (a->target != a->requested)
		clause(&a->basis, "%s would do, within %.0f%% of the request",
		       sp_hms(ws, a->target), SP_SIZE_CHANGE * 100);
	if (h->comp_timeouts > 0)
		clause(&a->caution, "%ld %s timed out while computing: %s limit "
		       "x %.2f is a floor, not a fit", (long)h->comp_timeouts,
		       plural(h->comp_timeouts, "run", "runs"),
		       plural(h->comp_timeouts, "its", "their"),
		       SP_TIME_MARGIN);
	if (hung > 0)
		clause(&a->caution, "%ld %s consumed almost no CPU and %s left "
		       "out of %s", hung, plural(hung, "timeout", "timeouts"),
		       plural(hung, "is", "are"),
		       h->comp_timeouts > 0 ? "that floor" :
		       "the figure above");
	if (unsure(h) > 0) {
		unsure_timeouts(h, &a->caution, ws);
		clause(&a->caution, "no floor is taken from %s",
		       plural(unsure(h), "it", "them"));
	}
	computed_unknown(h, &a->caution);
	if (sp_hist_more(h)->near.n > 0) {
		const struct sp_topk *near = &sp_hist_more(h)->near;
		/* The tightest: the highest share of its limit used. */
		const struct sp_ref *w = sp_topk_best(near);

		clause(&a->caution, "job %s finished %s inside its %s limit",
		       w->jobid, sp_dur(ws, w->b - w->a), sp_hms(ws, w->b));
		if (near->seen > 1)
			sp_buf_printf(&a->caution, " (%ld runs finished within "
				      "%.0f%% of their limit)", near->seen,
				      SP_NEAR_LIMIT_SHARE * 100);
	}
}

static void
thin_caution(const struct sp_hist *h, const struct sp_size_site *site,
	     struct sp_advice *a, struct sp_words *ws)
{
	double f = site->gather_freq_s, s = h->shortest_trusted_s;
	double samples = sp_samples(s, f);

	if (sp_known(samples)) {
		if (sp_thin(samples))
			clause(&a->caution, "thinly sampled: the shortest run "
			       "had at most %.0f %s in %s "
			       "(JobAcctGatherFrequency=%gs), so its peak may "
			       "be low%s", samples,
			       plural(samples, "sample", "samples"),
			       sp_dur(ws, s), f, a->verdict == SP_V_LOWER ?
			       ": lower with care" : "");
	} else if (a->verdict == SP_V_LOWER) {
		clause(&a->caution, "the sampling interval is unknown here, so "
		       "a short run's peak may be low: lower with care");
	}
}

static void
mem_ceiling(const struct sp_size_site *site, struct sp_advice *a,
	    struct sp_words *ws)
{
	double ceiling = site->ceiling_mem_b;

	if (!sp_positive(ceiling) || !(a->target > ceiling))
		return;
	/* It wants more than the partition's nodes have; a request at what
	 * they have (in whole GiB) is capped, never "raised" to itself. */
	if (sp_known(a->requested) &&
	    a->requested >= floor(ceiling / SP_GIB) * SP_GIB) {
		a->verdict = SP_V_CAPPED;
		clause(&a->basis, "at this partition's ceiling of %s per node: "
		       "a larger request needs a partition with larger nodes",
		       sp_bytes(ws, ceiling));
	} else {
		if (sp_known(a->requested))
			a->verdict = SP_V_RAISE;
		clause(&a->caution, "the partition's largest node has %s: "
		       "capped there", sp_bytes(ws, ceiling));
	}
	a->target = floor(ceiling / SP_GIB) * SP_GIB;
}

/*
 * Whether the runs with no CPU time could change --mem's figure, target
 * (read from the others), had they computed: their readings above the
 * limit making MaxRSS untrustworthy, or a peak above the ones read.
 */
static int
mem_unknown_matters(const struct sp_hist *h, double target)
{
	double peak;

	if (h->unk_trusted + h->unk_untrusted == 0)
		return 0;
	if (h->kills == 0 && h->unk_untrusted > 0 &&
	    h->mem_untrusted + h->unk_untrusted >= SP_MEM_UNTRUSTED_DOMINATE *
	    (h->mem_measured + h->unk_untrusted))
		return 1;
	if (!(h->unk_trusted > 0) ||
	    (h->mem_trusted > 0 && !(h->unk_peak_b > h->peak.a)))
		return 0;
	if (h->kills > 0 &&
	    h->mem_trusted + h->unk_trusted < SP_SIZE_MIN_RUNS)
		return 0;	/* too few peaks to raise a floor either way */
	peak = h->unk_peak_b;
	return sp_suggest_mem(peak) > target || !sp_known(target);
}

/*
 * The hold: memory already succeeded at a size that was killed, so it is
 * not the deciding variable, and no increment goes beyond the smallest
 * size that completed after that size or a larger one was killed.  A
 * request below it, or below the largest trustworthy peak x the margin,
 * dies again: it is raised there, with the hold's reason.
 */
static void
mem_hold(const struct sp_hist *h, const struct sp_size_site *site,
	 struct sp_advice *a, struct sp_words *ws)
{
	const char *done;
	double good;
	long k = sp_hist_known_good(h, &good, &done);
	const struct sp_oomsub *e;
	int peaks;

	a->verdict = SP_V_HOLD;
	if (k < 0)	/* cannot be: the contradiction is one such */
		return;
	e = &sp_hist_more(h)->oomsubs[k];
	/* The peaks count only when no run of unknown CPU time could
	 * outdo them: else the size held at is the size that completed. */
	peaks = h->mem_trusted > 0 && h->unk_trusted + h->unk_untrusted == 0;
	a->target = good;
	if (peaks && sp_suggest_mem(h->peak.a) > a->target)
		a->target = sp_suggest_mem(h->peak.a);
	if (e->limit_b > good)
		clause(&a->basis, "job %s completed at %s after a run was "
		       "killed for memory at %s (job %s)", done,
		       t_mem(ws, good), t_mem(ws, e->limit_b), e->jobid);
	else
		clause(&a->basis, "job %s completed at %s, a size already "
		       "killed for memory (job %s)", done, t_mem(ws, good),
		       e->jobid);
	sp_buf_printf(&a->basis, ": memory is not the deciding variable, so "
		      "no increment beyond %s", t_mem(ws, good));
	if (peaks)
		clause(&a->basis, "the largest peak within its limit, %s (job "
		       "%s), x %.2f %s", sp_bytes(ws, h->peak.a), h->peak.jobid,
		       SP_MEM_MARGIN, a->target > good ? "is larger still: "
		       "held there" : "fits in it");
	if (sp_known(a->requested) && a->requested < a->target) {
		a->verdict = SP_V_RAISE;
		clause(&a->basis, "%s is below that and dies as the killed "
		       "runs did: raised to the hold's %s",
		       sp_buf_str(&a->requested_txt),
		       t_request(ws, a->flag, a->target));
		suggest(a, ws);
	} else if (!sp_known(a->requested)) {
		suggest(a, ws);
	}
	clause(&a->caution, "find what else changed between the runs "
	       "(workers, batch size, input shard)");
	mem_caveat(&a->caution, site->gather);
}

/* Refused for too few runs of the kind the --mem rule reads. */
static void
mem_too_few(const struct sp_hist *h, const struct sp_size_site *site,
	    struct sp_advice *a, const char *runs, long have)
{
	too_few(a, runs, have);
	if (h->mem_untrusted > 0)
		clause(&a->basis, "%ld more read above %s limit",
		       (long)h->mem_untrusted,
		       plural(h->mem_untrusted, "its", "their"));
	if (h->mem_nolimit > 0)
		clause(&a->basis, "%ld more with no known limit",
		       (long)h->mem_nolimit);
	computed_unknown(h, &a->basis);
	mem_caveat(&a->caution, site->gather);
}

static void
advise_mem(const struct sp_hist *h, const struct sp_size_site *site,
	   struct sp_advice *a, struct sp_words *ws)
{
	struct sp_suggestion s;
	const char *done;
	long contra;

	a->runs = h->mem_runs;
	/* The peak is the number even where the kills are the words. */
	if (h->mem_trusted > 0)
		a->observed_v = h->peak.a;
	if (h->kills > 0)
		sp_buf_printf(&a->observed, "%ld %s at up to %s",
			      (long)h->kills, plural(h->kills, "kill", "kills"),
			      t_mem(ws, h->kill_limit_b));
	else if (h->mem_trusted > 0)
		sp_fmt_bytes(&a->observed, h->peak.a);

	/* Trial and error that already succeeded at a killed size: memory is
	 * not the variable.  One or two kills beside a success are more
	 * likely inputs that differ: the floor below still applies. */
	contra = sp_hist_contradiction(h, &done);
	if (contra >= 0 &&
	    sp_hist_more(h)->noomsubs >= SP_MEMSEARCH_MIN_KILLS) {
		const struct sp_oomsub *e = &sp_hist_more(h)->oomsubs[contra];

		/* Without array_job the two may be tasks of one array,
		 * inputs that differ: a hold or a floor, the record
		 * cannot say which. */
		a->verdict = site->missing & 1u << SP_COL_ARRAY ?
		    SP_V_REFUSE : SP_V_HOLD;
		if (a->verdict == SP_V_REFUSE) {
			clause(&a->basis, "job %s completed at %s, a size "
			       "killed before (job %s); unless they are tasks "
			       "of one array, memory is not the deciding "
			       "variable, and the input has no array_job to "
			       "tell", done, t_mem(ws, e->limit_b), e->jobid);
			return;
		}
		mem_hold(h, site, a, ws);
		return;
	}
	if (h->mem_runs < SP_SIZE_MIN_RUNS) {
		mem_too_few(h, site, a, "runs with a peak or a kill at a "
			    "known limit", (long)h->mem_runs);
		return;
	}
	sp_suggest(h, SP_FLAG_MEM, &s);
	if (h->kills > 0) {
		a->target = s.value;
		clause(&a->basis, "%ld %s killed for memory at up to %s; "
		       "that x %.2f is a floor", (long)h->kills,
		       plural(h->kills, "run was", "runs were"),
		       t_mem(ws, h->kill_limit_b), SP_MEM_MARGIN);
		if (s.value > s.floor)
			clause(&a->basis, "the runs that were not killed peaked "
			       "higher still, at %s (job %s)",
			       sp_bytes(ws, h->peak.a), h->peak.jobid);
		if (contra >= 0)
			clause(&a->caution, "job %s later completed at %s, a "
			       "size that was killed: the need varies between "
			       "runs%s", done,
			       t_mem(ws,
			       sp_hist_more(h)->oomsubs[contra].limit_b),
			       site->missing & 1u << SP_COL_ARRAY ? " (or they "
			       "are tasks of one array: the input has no "
			       "array_job)" : "");
		clause(&a->caution, "a killed run's MaxRSS is a sample short of "
		       "its real peak");
	} else if (h->mem_measured > 0 && h->mem_untrusted >=
		   SP_MEM_UNTRUSTED_DOMINATE * h->mem_measured) {
		a->verdict = SP_V_REFUSE;
		clause(&a->basis, "MaxRSS exceeds the limit on %ld of %ld "
		       "runs without being killed: not a footprint at all",
		       (long)h->mem_untrusted, (long)h->mem_measured);
		mem_caveat(&a->caution, site->gather);
		return;
	} else if (h->mem_trusted < SP_SIZE_MIN_RUNS) {
		mem_too_few(h, site, a, "runs with a peak within their limit",
			    (long)h->mem_trusted);
		return;
	} else {
		a->runs = h->mem_trusted;
		a->target = s.value;
		clause(&a->basis, "largest peak of %ld runs within their "
		       "limit: %s (job %s), x %.2f",
		       (long)h->mem_trusted, sp_bytes(ws, h->peak.a),
		       h->peak.jobid, s.margin);
	}
	if (mem_unknown_matters(h, a->target)) {
		a->verdict = SP_V_REFUSE;
		a->target = a->observed_v = NAN;
		sp_buf_clear(&a->observed);
		clause(&a->basis, "%ld more %s no CPU time (total_cpu_s) in "
		       "%s record, peaking at up to %s: whether %s computed "
		       "decides the figure", (long)(h->unk_trusted +
		       h->unk_untrusted), plural(h->unk_trusted +
		       h->unk_untrusted, "run has", "runs have"),
		       plural(h->unk_trusted + h->unk_untrusted, "its",
		       "their"), sp_bytes(ws, h->unk_peak_b),
		       plural(h->unk_trusted + h->unk_untrusted, "it",
		       "they"));
		mem_caveat(&a->caution, site->gather);
		return;
	}
	a->verdict = judge_newest(h, a, ws);
	if (a->verdict == SP_V_LOWER && h->kills > 0 &&
	    h->mem_lived < SP_SIZE_MIN_RUNS &&
	    h->states[SP_ST_COMPLETED] >= SP_SIZE_MIN_RUNS) {
		/* Runs lived, but the record has no peak of theirs: what
		 * they needed is unknown, not a reason to keep. */
		a->verdict = SP_V_REFUSE;
		clause(&a->basis, "that floor, %s, is under the request, "
		       "and %ld completed runs have no peak (max_rss_b) in "
		       "the record to say whether less would do",
		       t_mem(ws, a->target),
		       (long)h->states[SP_ST_COMPLETED]);
		a->target = a->observed_v = NAN;
		sp_buf_clear(&a->observed);
		mem_caveat(&a->caution, site->gather);
		return;
	}
	if (a->verdict == SP_V_LOWER && h->kills > 0 &&
	    h->mem_lived < SP_SIZE_MIN_RUNS) {
		/* A kill bounds the need from below only: without the
		 * peaks of runs that lived, nothing says less would do. */
		a->verdict = SP_V_KEEP;
		clause(&a->basis, "that floor, %s, is under the request, "
		       "and too few runs that lived have a peak (max_rss_b) "
		       "to say less would do", t_mem(ws, a->target));
		a->target = NAN;
	}
	mem_ceiling(site, a, ws);
	if (sp_verdict_actionable(a->verdict) || unasked(a))
		suggest(a, ws);
	else if (a->verdict == SP_V_KEEP && sp_known(a->target) &&
		 a->target != a->requested)
		clause(&a->basis, "%s would do, within %.0f%% of the request",
		       t_mem(ws, a->target), SP_SIZE_CHANGE * 100);
	if (h->mem_untrusted > 0)
		clause(&a->caution, "%ld %s left out: MaxRSS above the limit "
		       "without a kill", (long)h->mem_untrusted,
		       plural(h->mem_untrusted, "run", "runs"));
	computed_unknown(h, &a->caution);
	thin_caution(h, site, a, ws);
	if (h->multinode > 0)
		clause(&a->caution, "per node: %ld %s used several nodes, so "
		       "the allocation's total is larger", (long)h->multinode,
		       plural(h->multinode, "run", "runs"));
	mem_caveat(&a->caution, site->gather);
}

static void
cpu_caveat(struct sp_buf *b, enum sp_gather g)
{
	if (g == SP_GATHER_CGROUP)
		return;
	clause(b, "TotalCPU %s detached worker pools: a lower bound",
	       g == SP_GATHER_LINUX ? "misses" : "may miss");
}

static void
advise_cpus(const struct sp_hist *h, const struct sp_size_site *site,
	    struct sp_advice *a, struct sp_words *ws)
{
	double req = h->req[SP_FLAG_CPUS];
	double busy, ceiling = site->ceiling_cores;
	struct sp_suggestion s;
	const char *bt;
	int inverted = 0;

	a->runs = h->cpu_runs;
	if (h->cpu_runs < SP_SIZE_MIN_RUNS) {
		too_few(a, "runs with a CPU reading", (long)h->cpu_runs);
		return;
	}
	busy = h->busiest.a;
	a->observed_v = busy;
	a->target = sp_suggest(h, SP_FLAG_CPUS, &s);
	bt = sp_form(ws, fmt_busy, busy);
	sp_buf_printf(&a->observed, "%s %s busy per task at peak across %ld "
		      "runs", bt, strcmp(bt, "1.0") ? "cores" : "core",
		      (long)h->cpu_runs);
	clause(&a->basis, "the busiest run (job %s) kept %s of its %g "
	       "%s per task busy", h->busiest.jobid, bt, h->busiest.b,
	       plural(h->busiest.b, "core", "cores"));
	a->verdict = judge_newest(h, a, ws);
	if (busy >= SP_CPU_RAISE_MIN_BUSY && sp_positive(ceiling) &&
	    a->target > ceiling) {
		/* It wants more than the partition's nodes have. */
		if (sp_known(req) && req >= ceiling) {
			a->verdict = SP_V_CAPPED;
			clause(&a->basis, "at this partition's ceiling of %g "
			       "cores per node: a larger request needs a "
			       "partition with more cores per node", ceiling);
		} else {
			if (sp_known(req))
				a->verdict = SP_V_RAISE;
			clause(&a->caution, "%g wanted, but the partition's "
			       "largest node has %g cores: capped there",
			       a->target, ceiling);
		}
		a->target = ceiling;
	} else if (a->verdict == SP_V_RAISE && busy < SP_CPU_RAISE_MIN_BUSY) {
		a->verdict = SP_V_KEEP;
		inverted = 1;
		clause(&a->basis, "one saturated core is no evidence that a "
		       "second would help: raising needs %.0f or more cores busy",
		       SP_CPU_RAISE_MIN_BUSY);
	}
	if (sp_verdict_actionable(a->verdict) || unasked(a)) {
		suggest(a, ws);
	} else if (a->verdict == SP_V_KEEP && a->target != req && !inverted) {
		clause(&a->basis, "%g would do, within %.0f%% of the request",
		       a->target, SP_SIZE_CHANGE * 100);
	}
	if (a->verdict == SP_V_LOWER) {
		cpu_caveat(&a->caution, site->gather);
		if (h->gpu > 0)
			clause(&a->caution, "a GPU job: data-loader workers may "
			       "need these cores at moments the average hides");
	}
	if (h->tasks_max > 1)
		clause(&a->caution, "per task: this workload runs up to %g "
		       "tasks", h->tasks_max);
}

static void
advise_gpus(const struct sp_hist *h, const struct sp_size_site *site,
	    struct sp_advice *a, struct sp_words *ws)
{
	double req = h->req[SP_FLAG_GPUS];
	double busy, held;
	struct sp_suggestion s;
	const char *bt;

	a->runs = h->gpu_runs;
	if (h->gpu_runs < SP_SIZE_MIN_RUNS) {
		too_few(a, "runs that held GPUs and computed",
			(long)h->gpu_runs);
		computed_unknown(h, &a->basis);
		return;
	}
	if (h->gpu_util_runs < SP_SIZE_MIN_RUNS) {
		a->verdict = SP_V_REFUSE;
		clause(&a->basis, "GPU utilization (gpu_util) is recorded for %ld "
		       "of %ld runs; without it the record cannot size "
		       "--gpus", (long)h->gpu_util_runs,
		       (long)h->gpu_runs);
		clause(&a->caution, "%s", site->gpuutil_tracked == 1 ?
		       "this cluster gathers it, but not for these runs" :
		       site->gpuutil_tracked == 0 ?
		       "this cluster does not gather it (AccountingStorageTRES "
		       "needs gres/gpuutil)" :
		       "Slurm records it where AccountingStorageTRES includes "
		       "gres/gpuutil");
		return;
	}
	a->runs = h->gpu_util_runs;
	busy = h->gpu_busiest.a;
	a->observed_v = busy;
	held = h->gpu_busiest.b;
	if (h->unk_gpu > 0 && h->unk_gpu_busy > busy) {
		a->verdict = SP_V_REFUSE;
		clause(&a->basis, "%ld more %s GPUs with no CPU time "
		       "(total_cpu_s) in %s record, up to %s busy: whether %s "
		       "computed decides the figure", (long)h->unk_gpu,
		       plural(h->unk_gpu, "run held", "runs held"),
		       plural(h->unk_gpu, "its", "their"),
		       sp_form(ws, fmt_busy, h->unk_gpu_busy),
		       plural(h->unk_gpu, "it", "they"));
		return;
	}
	a->target = sp_suggest(h, SP_FLAG_GPUS, &s);
	bt = sp_form(ws, fmt_busy, busy);
	sp_buf_printf(&a->observed, "%s %s busy at peak across %ld runs", bt,
		      strcmp(bt, "1.0") ? "GPUs" : "GPU",
		      (long)h->gpu_util_runs);
	clause(&a->basis, "the busiest run (job %s) kept %s of its %g "
	       "%s busy", h->gpu_busiest.jobid, bt, held,
	       plural(held, "GPU", "GPUs"));
	a->verdict = judge_newest(h, a, ws);
	if (a->verdict == SP_V_RAISE) {
		a->verdict = SP_V_KEEP;
		clause(&a->basis, "a busy GPU is no evidence that another would "
		       "help: the code decides how many it can use, so the "
		       "record never raises --gpus");
	}
	if (a->verdict == SP_V_LOWER || unasked(a)) {
		suggest(a, ws);
		if (a->verdict == SP_V_LOWER)
			clause(&a->caution, "utilization is averaged over the "
			       "run and its GPUs: if each rank drives one GPU, "
			       "fewer GPUs changes the layout, and a low figure "
			       "there points at the input pipeline");
	} else if (a->verdict == SP_V_KEEP && a->target < req) {
		clause(&a->basis, "%g would do, within %.0f%% of the request",
		       a->target, SP_SIZE_CHANGE * 100);
	}
}

/*
 * A verdict without a column it reads would be another number: refused,
 * naming what is missing.  So is --gpus where sp-group could not tell
 * whether the runs held GPUs.
 */
int
sp_advice_indistinct(const struct sp_hist *h, struct sp_buf *why)
{
	struct sp_wlkey k;
	int nouser, noname;

	if (h->key == NULL ||
	    sp_workload_key_split(h->key, h->keylen, &k) != 0)
		return 0;
	nouser = k.userlen == 1 && k.user[0] == '?';
	noname = k.wlen == 1 && k.workload[0] == '?';
	if (!nouser && !noname)
		return 0;
	sp_buf_printf(why, "groups %ld %s the record cannot tell apart: it "
		      "has no %s, so they may be unrelated jobs, and no figure "
		      "across them means anything", (long)h->runs,
		      plural(h->runs, "run", "runs"), nouser && noname ?
		      "job name (JobName) and no user (User)" : nouser ?
		      "user (User)" : "job name (JobName)");
	return 1;
}

static int
refuse_missing(const struct sp_hist *h, const struct sp_size_site *site,
	       struct sp_advice *a, struct sp_words *ws)
{
	unsigned m = site->missing & flag_needs(a->flag);
	int n = 0, k = 0;
	struct sp_buf *t;

	if (a->flag == SP_FLAG_GPUS && h->gpu < 0 &&
	    !(m & 1u << SP_COL_GPUS)) {
		clause(&a->basis, "whether the runs held GPUs is unknown: "
		       "their alloc_gpus was not recorded (sp-group marked the "
		       "key's gpu|cpu part '?')");
		return 1;
	}
	if (m == 0 && h->stateless > 0 &&
	    flag_needs(a->flag) & 1u << SP_COL_STATE) {
		/* An empty field is the missing column, run by run. */
		clause(&a->basis, "%ld of %ld %s no state in the record "
		       "(state): whether %s completed, timed out or was "
		       "killed decides the figure", h->stateless,
		       (long)h->runs, plural(h->runs, "run has",
		       "runs have"), plural(h->stateless, "it", "each"));
		return 1;
	}
	if (m == 0)
		return 0;
	/* A column absent, and one present that no record fills: each
	 * said for what it is. */
	for (int pass = 0; pass < 2; pass++) {
		unsigned these = pass == 0 ? m & ~site->empty : m & site->empty;

		if (these == 0)
			continue;
		n = k = 0;
		for (int i = 0; i < SP_COL_N; i++)
			n += (these >> i) & 1;
		t = sp_words_buf(ws);
		for (int i = 0; i < SP_COL_N; i++) {
			if (!(these >> i & 1))
				continue;
			if (k++)
				sp_buf_adds(t, k == n ? " and " : ", ");
			sp_buf_printf(t, "'%s'", sp_col_name((enum sp_col)i));
		}
		if (pass == 0)
			clause(&a->basis, "the input has no column %s, which "
			       "the %s rule reads (sp-fetch writes %s)",
			       sp_buf_str(t), sp_flag_name(a->flag),
			       n == 1 ? "it" : "them");
		else
			clause(&a->basis, "the input's %s %s %s no value in "
			       "any record, and the %s rule reads %s",
			       n == 1 ? "column" : "columns", sp_buf_str(t),
			       n == 1 ? "has" : "have", sp_flag_name(a->flag),
			       n == 1 ? "it" : "them");
	}
	return 1;
}

void
sp_advice_reset(struct sp_advice *a, enum sp_flag flag)
{
	/* The buffers of an earlier answer are reused, not reallocated. */
	sp_buf_clear(&a->requested_txt);
	sp_buf_clear(&a->suggestion);
	sp_buf_clear(&a->sbatch);
	sp_buf_clear(&a->observed);
	sp_buf_clear(&a->basis);
	sp_buf_clear(&a->caution);
	a->flag = flag;
	a->verdict = SP_V_REFUSE;
	a->runs = 0;
	a->requested = a->target = a->observed_v = NAN;
}

int
sp_size_advise(const struct sp_hist *h, const struct sp_size_site *site,
	       enum sp_flag flag, struct sp_advice *a)
{
	struct sp_words *ws = &a->words;

	sp_advice_reset(a, flag);
	if ((unsigned)flag >= SP_FLAG_N || (flag == SP_FLAG_GPUS && !h->gpu))
		return -1;
	/* The newest run's request, not the largest. */
	a->requested = h->req[flag];
	if (sp_known(a->requested))
		sp_suggest_spell(&a->requested_txt, flag, a->requested);
	if (sp_advice_indistinct(h, &a->basis) ||
	    refuse_missing(h, site, a, ws))
		return 0;
	switch (flag) {
	case SP_FLAG_TIME:
		advise_time(h, a, ws);
		break;
	case SP_FLAG_MEM:
		advise_mem(h, site, a, ws);
		break;
	case SP_FLAG_CPUS:
		advise_cpus(h, site, a, ws);
		break;
	case SP_FLAG_GPUS:
		advise_gpus(h, site, a, ws);
		break;
	default:
		break;
	}
	/* Where no figure is given, the one read from the runs it could
	 * read is a part, and the runs it could not might lie beyond it. */
	if ((a->verdict == SP_V_REFUSE || a->verdict == SP_V_HOLD) &&
	    h->noop_unknown > 0) {
		a->observed_v = NAN;
		sp_buf_clear(&a->observed);
	}
	return 0;
}


/* ------------------------------------------------------------ one job */

double
sp_pick(const struct sp_hist *wl, const struct sp_size_site *site,
	const struct sp_hist *one, enum sp_flag f, struct sp_pick *p)
{
	struct sp_suggestion s;

	p->flag = f;
	p->from = SP_PICK_NONE;
	p->value = NAN;
	p->runs = 0;
	sp_buf_clear(&p->text);
	p->adv.verdict = SP_V_REFUSE;
	if (wl == NULL)
		sp_buf_clear(&p->adv.basis);
	if (wl != NULL && sp_size_advise(wl, site, f, &p->adv) == 0 &&
	    p->adv.verdict != SP_V_REFUSE) {
		p->from = SP_PICK_WORKLOAD;
		p->runs = p->adv.runs;
		/* Where the request stands, the figure is the request. */
		if (sp_verdict_actionable(p->adv.verdict) ||
		    !sp_known(p->adv.requested))
			p->value = p->adv.target;
		else if (p->adv.verdict == SP_V_HOLD)
			p->value = p->adv.target;	/* the known-good size */
		else
			p->value = p->adv.requested;
	} else if (one != NULL && sp_known(sp_suggest(one, f, &s))) {
		p->from = SP_PICK_RUN;
		p->value = s.value;
		p->runs = 1;
	}
	if (sp_known(p->value))
		sp_suggest_spell(&p->text, f, p->value);
	return p->value;
}

void
sp_pick_free(struct sp_pick *p)
{
	sp_advice_free(&p->adv);
	sp_buf_free(&p->text);
}

void
sp_pick_source(struct sp_buf *b, const struct sp_pick *p,
	       const char *why_alone)
{
	switch (p->from) {
	case SP_PICK_WORKLOAD:
		sp_buf_printf(b, "sp-size's advice from %ld %s of this "
			      "workload", p->runs, plural(p->runs, "run",
			      "runs"));
		break;
	case SP_PICK_RUN:
	case SP_PICK_NONE:
		sp_buf_adds(b, "one run's estimate: ");
		if (p->adv.basis.len > 0)
			sp_buf_printf(b, "sp-size has no verdict for its "
				      "workload, which %s",
				      sp_buf_str(&p->adv.basis));
		else if (why_alone != NULL)
			sp_buf_adds(b, why_alone);
		else
			sp_buf_adds(b, "its workload's other runs were not "
				    "read");
		break;
	}
}
