/*
 * sp-hang - allocations that computed nothing.
 *
 * Passes through the job records of allocations that ran over five
 * minutes while their work steps used under ten CPU-seconds, unless their
 * state already says why (OUT_OF_MEMORY, NODE_FAIL, PREEMPTED, BOOT_FAIL,
 * DEADLINE), adding what kind of idleness it was, why in words, and the
 * GPU- and core-hours held.  A run whose idle CPU is explained by the
 * data it moved passes through as kind moving-data and is not counted as
 * a hang.  --summary writes counts instead of records.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_opt.h"
#include "sp_intern.h"
#include "sp_pager.h"
#include "sp_term.h"
#include "sp_workload.h"

static const char usage_text[] =
	"usage: sp-hang [--summary] [--tsv | --plain | --json | --csv] "
	"[--no-pager]\n"
	"               [file ...]\n";

static const char help_text[] =
	"\n"
	"Passes through the records of the allocations that computed nothing,\n"
	"with their kind, why, and the GPU- and core-hours they held:\n"
	"      --summary           counts and the worst allocations instead\n"
	SP_PAGED_FORMATS_HELP;

struct options {
	int summary;
	int no_pager;
	enum sp_format fmt;
	char **files;
	size_t nfiles;
};


static const char *
kind_name(enum sp_hang_kind k)
{
	switch (k) {
	case SP_HANG_HUNG: return "hung";
	case SP_HANG_BLOCKED: return "blocked";
	case SP_HANG_MOVING: return "moving-data";
	default: return "";
	}
}

/* Hours, minutes, seconds with the hours unbounded: "42:00:00". */
static void
fmt_clock(struct sp_buf *b, double seconds)
{
	long long s;

	if (!isfinite(seconds) || seconds < 0) {
		sp_buf_adds(b, "n/a");
		return;
	}
	s = llround(seconds);
	sp_buf_printf(b, "%02lld:%02lld:%02lld", s / 3600, s / 60 % 60,
		      s % 60);
}

/* "2 GPUs", else "8 cores", else "its allocation". */
static void
held_what(struct sp_buf *b, const struct sp_job *j)
{
	double gpus = sp_job_gpus(j), cores = sp_job_cores(j);

	if (gpus > 0)
		sp_buf_printf(b, "%g GPU%s", gpus, gpus == 1 ? "" : "s");
	else if (cores > 0)
		sp_buf_printf(b, "%g core%s%s", cores, cores == 1 ? "" : "s",
			      isnan(gpus) ? " (and GPUs, if any: no alloc_gpus "
			      "in the record)" : "");
	else
		sp_buf_adds(b, "its allocation");
}

/* How the run ended, after "then". */
static void
how_it_ended(struct sp_buf *b, const struct sp_job *j)
{
	double by;

	if (sp_job_state_is(j, "CANCELLED")) {
		sp_buf_adds(b, "was cancelled");
		if (sp_field_num(j->cancelled_by, &by) == 1 && by == j->uid) {
			sp_buf_adds(b, " by its owner");
		} else if (j->cancelled_by.n > 0) {
			sp_buf_adds(b, " by uid ");
			sp_text_clean(b, j->cancelled_by.p,
					    j->cancelled_by.n, 0);
		}
	} else if (sp_job_state_is(j, "FAILED")) {
		sp_buf_adds(b, "failed");
		if (!isnan(j->exit_code))
			sp_buf_printf(b, " with exit code %g", j->exit_code);
	} else if (sp_job_state_is(j, "COMPLETED")) {
		sp_buf_adds(b, "completed");
	} else if (j->state.n > 0) {
		sp_buf_adds(b, "ended ");
		sp_text_clean(b, j->state.p, j->state.n, 0);
	} else {
		sp_buf_adds(b, "ended");
	}
}

static void
why(struct sp_buf *b, const struct sp_job *j, enum sp_hang_kind k)
{
	sp_buf_clear(b);
	if (k == SP_HANG_MOVING) {
		double moved = (isnan(j->read_b) ? 0 : j->read_b) +
			       (isnan(j->write_b) ? 0 : j->write_b);

		sp_buf_adds(b, "moving data, not hung: ");
		if (!isnan(j->read_b)) {
			sp_buf_adds(b, "read ");
			sp_fmt_bytes(b, j->read_b);
		}
		if (!isnan(j->write_b)) {
			sp_buf_adds(b, isnan(j->read_b) ? "wrote " :
				    " and wrote ");
			sp_fmt_bytes(b, j->write_b);
		}
		sp_buf_adds(b, " in ");
		fmt_clock(b, j->elapsed_s);
		/* One side unknown: what was moved is at least the other. */
		sp_buf_adds(b, isnan(j->read_b) || isnan(j->write_b) ?
			    " (at least " : " (");
		sp_fmt_bytes(b, moved / j->elapsed_s);
		sp_buf_adds(b, "/s");
		if (isnan(j->read_b) || isnan(j->write_b))
			sp_buf_printf(b, ": no %s in the record",
				      isnan(j->read_b) ? "read_b" : "write_b");
		sp_buf_adds(b, ") with ");
		sp_fmt_duration(b, j->total_cpu_s);
		sp_buf_adds(b, " of CPU");
		return;
	}
	if (k == SP_HANG_BLOCKED)
		sp_buf_adds(b, "blocked, not slow: ");
	sp_buf_adds(b, "held ");
	held_what(b, j);
	sp_buf_adds(b, " for ");
	fmt_clock(b, j->elapsed_s);
	sp_buf_adds(b, " with ");
	sp_fmt_duration(b, j->total_cpu_s);
	sp_buf_adds(b, " of CPU");
	if (k == SP_HANG_BLOCKED) {
		if (isnan(j->timelimit_s)) {
			sp_buf_adds(b, " until its time limit");
		} else {
			sp_buf_adds(b, " until its ");
			fmt_clock(b, j->timelimit_s);
			sp_buf_adds(b, " limit");
		}
		return;
	}
	sp_buf_adds(b, ", then ");
	how_it_ended(b, j);
}

/* ------------------------------------------------------------ summary */

struct worst {
	char *jobid;
	char *key;
	char *workload;
	char *state;
	char *why;
	double elapsed_s;
	double gpu_h;
	double core_h;
};

struct workload {
	char *workload;
	long runs;
	struct sp_hang_tally hangs;
};

struct summary {
	struct sp_hang_tally record;	/* every usable allocation */
	struct sp_hang_tally hangs;
	struct sp_hang_tally noticed;	/* killed within SP_NOOP_NOTICED_S */
	struct sp_hang_tally longer;
	struct sp_hang_tally blocked;
	struct sp_hang_tally moving;
	struct sp_hang_tally explained;
	/* closed allocations sp_job_hang_known cannot answer for: over
	 * SP_NOOP_MIN_ELAPSED_S with no CPU time recorded */
	struct sp_hang_tally unjudged;
	/* over SP_NOOP_MIN_ELAPSED_S with CPU time: judged by the rule,
	 * not by a state that explains it */
	long long_judged;
	long open;
	double moved_b;
	/* the worst SP_HANG_WORST, most GPU-hours first */
	struct worst worst[SP_HANG_WORST];
	size_t nworst;
	struct sp_intern keys;
	struct workload *wl;
	size_t wlcap;
	struct sp_buf key, fold;
};

static void
summary_init(struct summary *s)
{
	memset(s, 0, sizeof *s);
	sp_hang_tally_init(&s->record);
	sp_hang_tally_init(&s->hangs);
	sp_hang_tally_init(&s->noticed);
	sp_hang_tally_init(&s->longer);
	sp_hang_tally_init(&s->blocked);
	sp_hang_tally_init(&s->moving);
	sp_hang_tally_init(&s->explained);
	sp_hang_tally_init(&s->unjudged);
}

static void
worst_free(struct worst *w)
{
	free(w->jobid);
	free(w->key);
	free(w->workload);
	free(w->state);
	free(w->why);
}

static void
summary_free(struct summary *s)
{
	for (size_t i = 0; i < s->nworst; i++)
		worst_free(&s->worst[i]);
	for (size_t i = 0; i < s->keys.n; i++)
		free(s->wl[i].workload);
	free(s->wl);
	sp_intern_free(&s->keys);
	sp_buf_free(&s->key);
	sp_buf_free(&s->fold);
}

/* GPU-hours first (unknown as none), then wall clock. */
static int
worse_than(double gpu_a, double el_a, double gpu_b, double el_b)
{
	double ga = isnan(gpu_a) ? 0 : gpu_a, gb = isnan(gpu_b) ? 0 : gpu_b;

	if (ga != gb)
		return ga > gb;
	return el_a > el_b;
}

static char *
slice_dup(struct sp_slice s)
{
	return sp_xstrndup(s.p, s.n);
}

/* Keeps the list sorted and bounded: memory never grows with jobs. */
static void
keep_worst(struct summary *s, const struct sp_job *j, const char *key,
	   const char *text, double gpu_h, double core_h)
{
	size_t at = s->nworst;
	struct worst *w;

	while (at > 0 && worse_than(gpu_h, j->elapsed_s,
				    s->worst[at - 1].gpu_h,
				    s->worst[at - 1].elapsed_s))
		at--;
	if (at >= SP_HANG_WORST)
		return;
	if (s->nworst == SP_HANG_WORST)
		worst_free(&s->worst[--s->nworst]);
	memmove(&s->worst[at + 1], &s->worst[at],
		(s->nworst - at) * sizeof s->worst[0]);
	s->nworst++;
	w = &s->worst[at];
	w->jobid = slice_dup(j->jobid);
	w->key = sp_xstrdup(key);
	w->workload = sp_xstrdup(sp_buf_str(&s->fold));
	w->state = slice_dup(j->state);
	w->why = sp_xstrdup(text);
	w->elapsed_s = j->elapsed_s;
	w->gpu_h = gpu_h;
	w->core_h = core_h;
}

/* workload_key, or the key sp-group would give; the name to s->fold. */
static const char *
job_key(struct summary *s, const struct sp_job *j)
{
	sp_buf_clear(&s->fold);
	if (j->workload.n > 0)
		sp_buf_add(&s->fold, j->workload.p, j->workload.n);
	else
		sp_workload_fold(&s->fold, j->name.p, j->name.n);
	sp_buf_clear(&s->key);
	if (j->workload_key.n > 0)
		sp_buf_add(&s->key, j->workload_key.p, j->workload_key.n);
	else
		sp_workload_key(&s->key, j->user.p, j->user.n,
				j->partition.p, j->partition.n,
				sp_job_gpu_kind(j), s->fold.p, s->fold.len);
	return sp_buf_str(&s->key);
}

static struct workload *
workload_of(struct summary *s, const char *key)
{
	size_t before = s->keys.n, i = sp_intern(&s->keys, key, strlen(key));

	if (s->keys.n != before) {
		s->wl = sp_xgrow(s->wl, &s->wlcap, s->keys.n, sizeof *s->wl);
		s->wl[i].workload = sp_xstrdup(sp_buf_str(&s->fold));
		s->wl[i].runs = 0;
		sp_hang_tally_init(&s->wl[i].hangs);
	}
	return &s->wl[i];
}

static void
summary_add(struct summary *s, const struct sp_job *j,
	    enum sp_hang_kind k, const char *text)
{
	double gpu_h = sp_job_gpu_hours(j), core_h = sp_job_core_hours(j);
	const char *key = job_key(s, j);
	struct workload *w = workload_of(s, key);

	sp_hang_tally_add(&s->record, gpu_h, core_h);
	w->runs++;
	if (!sp_job_hang_known(j))
		sp_hang_tally_add(&s->unjudged, gpu_h, core_h);
	else if (j->elapsed_s > SP_NOOP_MIN_ELAPSED_S &&
		 !isnan(j->total_cpu_s))
		s->long_judged++;
	switch (k) {
	case SP_HANG_NONE:
		return;
	case SP_HANG_EXPLAINED:
		sp_hang_tally_add(&s->explained, gpu_h, core_h);
		return;
	case SP_HANG_MOVING:
		sp_hang_tally_add(&s->moving, gpu_h, core_h);
		s->moved_b += (isnan(j->read_b) ? 0 : j->read_b) +
			      (isnan(j->write_b) ? 0 : j->write_b);
		return;
	case SP_HANG_BLOCKED:
		sp_hang_tally_add(&s->blocked, gpu_h, core_h);
		break;
	case SP_HANG_HUNG:
		break;
	}
	sp_hang_tally_add(&s->hangs, gpu_h, core_h);
	sp_hang_tally_add(&w->hangs, gpu_h, core_h);
	if (j->elapsed_s <= SP_NOOP_NOTICED_S)
		sp_hang_tally_add(&s->noticed, gpu_h, core_h);
	else
		sp_hang_tally_add(&s->longer, gpu_h, core_h);
	keep_worst(s, j, key, text, gpu_h, core_h);
}

static const char *const summary_columns[] = { "section", "workload_key",
	"workload", "jobid", "state", "runs", "count", "elapsed_s",
	"held_gpu_h", "held_core_h", "share", "why", NULL };

static double
share_of(double gpu_h, const struct summary *s)
{
	if (isnan(s->record.gpu_h) || s->record.gpu_h <= 0)
		return NAN;
	return (isnan(gpu_h) ? 0 : gpu_h) / s->record.gpu_h;
}

/*
 * No allocation that ran long enough to be a hang could be judged: every
 * hang count is unknown, not 0 (the short ones answer nothing).
 */
static int
none_judged(const struct summary *s)
{
	return s->unjudged.count > 0 && s->long_judged == 0;
}

/*
 * One count row: section, its runs (or none), the tally and a why.
 * Unless known, the count and what it held are unknown (empty).
 */
static void
count_row_known(struct sp_writer *w, const struct summary *s,
		const char *section, const struct sp_hang_tally *t, const char *text,
		int known)
{
	/* No run of the kind held nothing: zero, not unknown. */
	double gpu_h = !known ? NAN : t->count ? t->gpu_h : 0;
	double core_h = !known ? NAN : t->count ? t->core_h : 0;

	sp_writer_str(w, section);
	sp_writer_empty(w);
	sp_writer_empty(w);
	sp_writer_empty(w);
	sp_writer_empty(w);
	sp_writer_int(w, s->record.count);
	if (known)
		sp_writer_int(w, t->count);
	else
		sp_writer_empty(w);
	sp_writer_empty(w);
	sp_writer_num(w, gpu_h);
	sp_writer_num(w, core_h);
	sp_writer_num(w, isnan(gpu_h) ? NAN : share_of(gpu_h, s));
	sp_writer_raw(w, text, strlen(text));
	sp_writer_end(w);
}

static void
count_row(struct sp_writer *w, const struct summary *s, const char *section,
	  const struct sp_hang_tally *t, const char *text)
{
	count_row_known(w, s, section, t, text, 1);
}

static int
by_gpu_hours(const void *va, const void *vb, const struct summary *s)
{
	size_t ia = *(const size_t *)va, ib = *(const size_t *)vb;

	return sp_hang_tally_cmp(&s->wl[ia].hangs, s->keys.e[ia].s,
				 &s->wl[ib].hangs, s->keys.e[ib].s);
}

/* qsort has no context argument; insertion sort keeps it simple. */
static size_t *
workloads_with_hangs(const struct summary *s, size_t *n)
{
	size_t *order = sp_xcalloc(s->keys.n, sizeof *order), k = 0;

	for (size_t i = 0; i < s->keys.n; i++) {
		size_t at = k;

		if (s->wl[i].hangs.count == 0)
			continue;
		while (at > 0 && by_gpu_hours(&i, &order[at - 1], s) < 0) {
			order[at] = order[at - 1];
			at--;
		}
		order[at] = i;
		k++;
	}
	*n = k;
	return order;
}

/* "N allocations ran over ...", never when none could be judged. */
static void
headline(struct sp_buf *b, const struct summary *s)
{
	if (none_judged(s)) {
		sp_buf_adds(b, "No allocation over ");
		fmt_clock(b, SP_NOOP_MIN_ELAPSED_S);
		sp_buf_printf(b, " could be judged: none of the %ld has CPU "
			      "time recorded (total_cpu_s), so whether any "
			      "computed nothing is unknown",
			      s->unjudged.count);
		return;
	}
	sp_buf_printf(b, "%ld allocation%s ran over ", s->hangs.count,
		      s->hangs.count == 1 ? "" : "s");
	fmt_clock(b, SP_NOOP_MIN_ELAPSED_S);
	sp_buf_printf(b, " with under %g CPU-seconds of work",
		      SP_NOOP_MAX_CPU_S);
	if (s->unjudged.count)
		sp_buf_printf(b, "; %ld more could not be judged (no CPU time "
			      "recorded)", s->unjudged.count);
}

static void
unjudged_why(struct sp_buf *b)
{
	sp_buf_clear(b);
	sp_buf_adds(b, "not judged: ran over ");
	fmt_clock(b, SP_NOOP_MIN_ELAPSED_S);
	sp_buf_adds(b, " with no CPU time recorded (total_cpu_s), so "
		    "whether they computed nothing is unknown");
}

static void
write_summary_records(const struct summary *s, enum sp_format fmt)
{
	struct sp_writer w;
	struct sp_buf b = { 0 };
	size_t *order, n;
	int known = !none_judged(s);

	sp_writer_init(&w, stdout, fmt);
	for (size_t i = 0; summary_columns[i]; i++)
		sp_writer_column(&w, summary_columns[i]);
	sp_writer_header(&w);

	count_row(&w, s, "record", &s->record,
		  "every closed allocation in the input");
	headline(&b, s);
	count_row_known(&w, s, "hangs", &s->hangs, sp_buf_str(&b), known);
	unjudged_why(&b);
	count_row(&w, s, "unjudged", &s->unjudged, sp_buf_str(&b));
	sp_buf_clear(&b);
	sp_buf_adds(&b, "ended within ");
	fmt_clock(&b, SP_NOOP_NOTICED_S);
	sp_buf_adds(&b, ": already noticed");
	count_row_known(&w, s, "noticed", &s->noticed, sp_buf_str(&b),
			known);
	sp_buf_clear(&b);
	sp_buf_adds(&b, "ran longer than ");
	fmt_clock(&b, SP_NOOP_NOTICED_S);
	sp_buf_adds(&b, ": the cost is in these");
	count_row_known(&w, s, "long", &s->longer, sp_buf_str(&b), known);
	count_row_known(&w, s, "blocked", &s->blocked, "timed out having "
			"computed nothing: blocked, not slow; a longer --time "
			"buys a longer hang", known);
	sp_buf_clear(&b);
	sp_buf_adds(&b, "not counted: idle CPU explained by the data moved (");
	sp_fmt_bytes(&b, s->moved_b);
	sp_buf_adds(&b, ")");
	count_row(&w, s, "moving", &s->moving, sp_buf_str(&b));
	count_row(&w, s, "explained", &s->explained, "not counted: the "
		  "state says why (OUT_OF_MEMORY, NODE_FAIL, PREEMPTED, "
		  "BOOT_FAIL, DEADLINE)");
	{
		/* Left out, so what they held is not stated. */
		struct sp_hang_tally open = { s->open, NAN, NAN };

		count_row(&w, s, "open", &open, "left out: never ended "
			  "(running or pending)");
	}
	for (size_t i = 0; i < s->nworst; i++) {
		const struct worst *x = &s->worst[i];

		sp_writer_str(&w, "worst");
		sp_writer_str(&w, x->key);
		sp_writer_str(&w, x->workload);
		sp_writer_str(&w, x->jobid);
		sp_writer_str(&w, x->state);
		sp_writer_empty(&w);
		sp_writer_int(&w, 1);
		sp_writer_num(&w, x->elapsed_s);
		sp_writer_num(&w, x->gpu_h);
		sp_writer_num(&w, x->core_h);
		sp_writer_num(&w, share_of(x->gpu_h, s));
		sp_writer_raw(&w, x->why, strlen(x->why));
		sp_writer_end(&w);
	}
	order = workloads_with_hangs(s, &n);
	for (size_t i = 0; i < n; i++) {
		const struct workload *x = &s->wl[order[i]];

		sp_writer_str(&w, "workload");
		sp_writer_str(&w, s->keys.e[order[i]].s);
		sp_writer_str(&w, x->workload);
		sp_writer_empty(&w);
		sp_writer_empty(&w);
		sp_writer_int(&w, x->runs);
		sp_writer_int(&w, x->hangs.count);
		sp_writer_empty(&w);
		sp_writer_num(&w, x->hangs.gpu_h);
		sp_writer_num(&w, x->hangs.core_h);
		sp_writer_num(&w, share_of(x->hangs.gpu_h, s));
		sp_buf_clear(&b);
		sp_buf_printf(&b, "%ld of %ld run%s computed nothing",
			      x->hangs.count, x->runs,
			      x->runs == 1 ? "" : "s");
		sp_writer_raw(&w, sp_buf_str(&b), b.len);
		sp_writer_end(&w);
	}
	free(order);
	sp_writer_finish(&w);
	sp_buf_free(&b);
}

/* Hours for prose: one decimal, unknown as n/a. */
static void
hours(struct sp_buf *b, double h)
{
	if (isnan(h))
		sp_buf_adds(b, "n/a");
	else
		sp_buf_printf(b, "%.1f", h);
}

static void
write_summary_plain(const struct summary *s)
{
	struct sp_buf b = { 0 };
	struct sp_writer w;
	size_t *order, n;

	headline(&b, s);
	sp_term_say(stdout, "%s.\n", sp_buf_str(&b));
	sp_buf_clear(&b);
	if (s->hangs.count > 0) {
		sp_buf_adds(&b, "They held ");
		hours(&b, s->hangs.gpu_h);
		sp_buf_adds(&b, " GPU-hours and ");
		hours(&b, s->hangs.core_h);
		sp_buf_adds(&b, " core-hours");
		if (!isnan(share_of(s->hangs.gpu_h, s))) {
			sp_buf_adds(&b, ": ");
			sp_fmt_percent(&b, share_of(s->hangs.gpu_h, s));
			sp_buf_adds(&b, " of the ");
			hours(&b, s->record.gpu_h);
			sp_buf_adds(&b, " GPU-hours in the record");
		}
		sp_term_say(stdout, "%s.\n", sp_buf_str(&b));
		sp_buf_clear(&b);
		fmt_clock(&b, SP_NOOP_NOTICED_S);
		sp_term_say(stdout,
		    "%ld ended within %s (already noticed); %ld ran "
		       "longer, holding ", s->noticed.count, sp_buf_str(&b),
		       s->longer.count);
		sp_buf_clear(&b);
		hours(&b, s->longer.count ? s->longer.gpu_h : 0);
		sp_term_say(stdout,
		    "%s GPU-hours: the cost is in the long ones.\n",
		       sp_buf_str(&b));
		sp_buf_clear(&b);
		if (s->blocked.count)
			sp_term_say(stdout,
			    "%ld timed out having computed nothing: "
			       "blocked, not slow; a longer --time buys a "
			       "longer hang.\n", s->blocked.count);
	}
	sp_fmt_bytes(&b, s->moved_b);
	sp_term_say(stdout,
	    "Not counted as hangs: %ld run%s moving data (%s moved), %ld "
	       "whose state says why; %ld open record%s left out.\n",
	       s->moving.count, s->moving.count == 1 ? "" : "s",
	       sp_buf_str(&b), s->explained.count, s->open,
	       s->open == 1 ? "" : "s");
	sp_buf_clear(&b);

	if (s->nworst) {
		sp_term_say(stdout,
		    "\nThe worst %zu, by GPU-hours held:\n\n", s->nworst);
		sp_writer_init(&w, stdout, SP_FMT_PLAIN);
		sp_writer_column(&w, "jobid");
		sp_writer_column(&w, "workload");
		/* A duration on the screen: no unit in its name. */
		sp_writer_column_kind(&w, "elapsed", SP_KIND_SECONDS);
		sp_writer_column(&w, "held_gpu_h");
		sp_writer_column(&w, "held_core_h");
		sp_writer_column(&w, "why");
		sp_writer_header(&w);
		for (size_t i = 0; i < s->nworst; i++) {
			const struct worst *x = &s->worst[i];

			sp_writer_str(&w, x->jobid);
			sp_writer_str(&w, x->workload);
			sp_writer_num(&w, x->elapsed_s);
			sp_writer_num(&w, x->gpu_h);
			sp_writer_num(&w, x->core_h);
			sp_writer_raw(&w, x->why, strlen(x->why));
			sp_writer_end(&w);
		}
		sp_writer_finish(&w);
	}
	order = workloads_with_hangs(s, &n);
	if (n) {
		sp_term_say(stdout, "\nBy workload:\n\n");
		sp_writer_init(&w, stdout, SP_FMT_PLAIN);
		sp_writer_column(&w, "workload_key");
		sp_writer_column(&w, "runs");
		sp_writer_column(&w, "count");
		sp_writer_column(&w, "held_gpu_h");
		sp_writer_column(&w, "held_core_h");
		sp_writer_column(&w, "share");
		sp_writer_header(&w);
		for (size_t i = 0; i < n; i++) {
			const struct workload *x = &s->wl[order[i]];

			sp_writer_str(&w, s->keys.e[order[i]].s);
			sp_writer_int(&w, x->runs);
			sp_writer_int(&w, x->hangs.count);
			sp_writer_num(&w, x->hangs.gpu_h);
			sp_writer_num(&w, x->hangs.core_h);
			sp_writer_num(&w, share_of(x->hangs.gpu_h, s));
			sp_writer_end(&w);
		}
		sp_writer_finish(&w);
	}
	free(order);
	sp_buf_free(&b);
}

/* ------------------------------------------------------------- main */

enum { OPT_SUMMARY = 0x2000 };

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text };
	int c;

	memset(o, 0, sizeof *o);
	common.no_pager = &o->no_pager;
	while ((c = sp_getopt(argc, argv, "", longopts, NULL,
			      &common)) != -1)
		if (c == OPT_SUMMARY)
			o->summary = 1;
	o->fmt = common.fmt;
	/* --plain asked for is text as it comes, as slurmpast --plain:
	 * no pager (one is for the terminal's default). */
	if (common.fmt_opt != NULL)
		o->no_pager = 1;
	o->files = argv + optind;
	o->nfiles = (size_t)(argc - optind);
}

/* The screen shows the run, not its seventy columns. */
static const char *const plain_columns[] = { "jobid", "user", "name",
	"state", "elapsed", "kind", "held_gpu_h", "held_core_h", "why",
	NULL };

static void
start_records(struct sp_writer *w, const struct sp_reader *r,
	      const struct options *o)
{
	sp_writer_init(w, stdout, o->fmt);
	if (o->fmt == SP_FMT_PLAIN) {
		/* elapsed is a duration (a day and more: 1-18:00:00), so
		 * its name carries no unit; its kind is said. */
		for (size_t i = 0; plain_columns[i]; i++)
			if (strcmp(plain_columns[i], "elapsed") == 0)
				sp_writer_column_kind(w, "elapsed",
						      SP_KIND_SECONDS);
			else
				sp_writer_column(w, plain_columns[i]);
	} else {
		sp_writer_columns_from(w, r);
		sp_writer_column(w, "kind");
		sp_writer_column(w, "why");
		sp_writer_column(w, "held_gpu_h");
		sp_writer_column(w, "held_core_h");
	}
	sp_writer_header(w);
}

static void
write_record(struct sp_writer *w, const struct sp_reader *r,
	     const struct sp_job *j, enum sp_hang_kind k, const char *text,
	     const struct options *o)
{
	if (o->fmt == SP_FMT_PLAIN) {
		sp_writer_slice(w, j->jobid);
		sp_writer_slice(w, j->user);
		sp_writer_slice(w, j->name);
		sp_writer_slice(w, j->state);
		sp_writer_num(w, j->elapsed_s);
	} else {
		sp_writer_fields_from(w, r);
	}
	if (o->fmt == SP_FMT_PLAIN) {
		sp_writer_str(w, kind_name(k));
		sp_writer_num(w, sp_job_gpu_hours(j));
		sp_writer_num(w, sp_job_core_hours(j));
		sp_writer_raw(w, text, strlen(text));
	} else {
		sp_writer_str(w, kind_name(k));
		sp_writer_raw(w, text, strlen(text));
		sp_writer_num(w, sp_job_gpu_hours(j));
		sp_writer_num(w, sp_job_core_hours(j));
	}
	sp_writer_end(w);
}

/*
 * The columns that decide a record's kind and feed --summary's tallies
 * (sp_job_usable, sp_job_hang_known, sp_job_hang_kind, summary_add,
 * job_key); every other one stays unknown.  Most records are no hang,
 * and parsing their other fifty columns was most of the time.
 */
static void
deciding_columns(struct sp_jobcols *c, const struct sp_reader *r)
{
	sp_jobcols_only(c, r, "step", "open", "end", "state",
	    "elapsed_s", "total_cpu_s", "read_b", "write_b",
	    "alloc_gpus", "alloc_cpus", "req_cpus", "name", "user",
	    "partition", "workload", "workload_key", NULL);
}

/*
 * Options; the header (passed through, plus four columns) before any
 * input is read; then every allocation classified once: passed through,
 * or tallied for --summary.
 */
int
main(int argc, char **argv)
{
	struct options o;
	struct sp_reader r;
	struct sp_jobcols all, c;
	struct sp_job j;
	struct sp_writer w;
	struct summary s;
	struct sp_buf text = { 0 };
	long unjudged = 0;
	int critical = 0;

	sp_setprog(argv[0]);
	sp_stdout_init();
	parse_options(argc, argv, &o);

	sp_open_or_die(&r, o.files, o.nfiles);
	sp_jobcols_need(&r, "sp-fetch", "state", "elapsed_s", "total_cpu_s",
			NULL);
	sp_jobcols_resolve(&all, &r);
	deciding_columns(&c, &r);
	sp_jobcols_want(&r, &c);
	summary_init(&s);
	if (!o.summary)
		start_records(&w, &r, &o);
	/* The width is taken (sp_writer_init) and the header read. */
	sp_pager_start(o.no_pager);

	while (sp_next_or_die(&r)) {
		enum sp_hang_kind k;

		sp_job_parse(&j, &c, &r);
		if (sp_job_is_step(&j))
			continue;
		if (sp_job_is_open(&j)) {
			s.open++;
			continue;
		}
		if (!sp_job_usable(&j))
			continue;
		unjudged += !sp_job_hang_known(&j);
		k = sp_job_hang_kind(&j);
		/* An allocation that computed nothing is a critical finding
		 * (noop-allocation, timeout-hang); one that moved data is not. */
		critical |= k == SP_HANG_HUNG || k == SP_HANG_BLOCKED;
		if (k != SP_HANG_NONE && k != SP_HANG_EXPLAINED) {
			/* A hang is told in full: every column, now. */
			sp_reader_split_all(&r);
			sp_job_parse(&j, &all, &r);
			why(&text, &j, k);
		}
		if (o.summary)
			summary_add(&s, &j, k, sp_buf_str(&text));
		else if (k != SP_HANG_NONE && k != SP_HANG_EXPLAINED)
			write_record(&w, &r, &j, k, sp_buf_str(&text), &o);
	}

	if (o.summary) {
		if (o.fmt == SP_FMT_PLAIN)
			write_summary_plain(&s);
		else
			write_summary_records(&s, o.fmt);
	} else {
		sp_writer_finish(&w);
		if (s.open)
			sp_warn("left out %ld open record%s (never ended)",
				s.open, s.open == 1 ? "" : "s");
		if (unjudged)
			sp_warn("could not judge %ld allocation%s: no CPU "
				"time recorded (total_cpu_s)", unjudged,
				unjudged == 1 ? "" : "s");
	}
	summary_free(&s);
	sp_buf_free(&text);
	sp_reader_close(&r);
	sp_pager_end();
	return critical ? SP_EXIT_FAIL : SP_EXIT_OK;
}
