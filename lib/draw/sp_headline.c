/*
 * sp_headline.c - the first lines of a report on a history.
 */
#include <math.h>
#include <string.h>

#include "sp_const.h"
#include "sp_headline.h"
#include "sp_units.h"

void
sp_headline_init(struct sp_headline *h)
{
	memset(h, 0, sizeof *h);
	h->unknown_states = h->shown = h->running_critical = -1;
	h->gpu_h = h->idle_gpu_h = NAN;
	h->idle_key_gpu_h = h->idle_key_total_h = NAN;
}

/* As many digits as a figure of its size deserves: 1568, 9.4. */
static void
round_figure(struct sp_buf *b, double x)
{
	sp_buf_printf(b, x >= 10 ? "%.0f" : "%.1f", x);
}

/* Idle GPU-hours worth leading with: a share of all, or many. */
static int
idle_leads(double idle, double of)
{
	return idle > 0 && (idle >= SP_IDLE_LEAD_SHARE * of ||
			    idle >= SP_IDLE_LEAD_GPU_H);
}

/* "; 2 running jobs critical now", after whatever led. */
static void
running_clause(const struct sp_headline *h, struct sp_buf *text)
{
	if (h->running_critical <= 0)
		return;
	sp_buf_printf(text, "; %ld running job%s critical now",
		      h->running_critical, h->running_critical == 1 ? "" : "s");
}

static const char *lead(const struct sp_headline *h, struct sp_buf *text,
			struct sp_buf *more);

const char *
sp_headline_lead(const struct sp_headline *h, struct sp_buf *text,
		 struct sp_buf *more)
{
	const char *kind = lead(h, text, more);

	running_clause(h, text);
	return kind;
}

static const char *
lead(const struct sp_headline *h, struct sp_buf *text, struct sp_buf *more)
{
	double k = h->idle_key_gpu_h, of = h->idle_key_total_h;

	if (idle_leads(h->idle_gpu_h, h->gpu_h)) {
		round_figure(text, h->gpu_h);
		sp_buf_adds(text, " GPU-hours, ");
		round_figure(text, h->idle_gpu_h);
		sp_buf_adds(text, " of them in allocations that never "
			    "computed");
		if (h->idle_name != NULL && *h->idle_name && of > 0 &&
		    k >= SP_IDLE_NAMED_MIN_GPU_H && idle_leads(k, of)) {
			round_figure(more, k);
			sp_buf_printf(more, " of them in %s (", h->idle_name);
			sp_fmt_percent(more, k / of);
			sp_buf_adds(more, " of its ");
			round_figure(more, of);
			sp_buf_adds(more, " GPU-hours).");
		}
		return "idle";
	}
	if (h->runs == 0) {
		sp_buf_adds(text, "No job has ended yet");
		return "none";
	}
	if (h->failed > 0) {
		/* A state nothing here knows is neither success nor
		 * failure: out of the count, and said below. */
		long of = h->runs - (h->unknown_states > 0 &&
				     h->unknown_states < h->runs ?
				     h->unknown_states : 0);

		sp_buf_printf(text, "%ld of %ld jobs failed", h->failed, of);
		return "failed";
	}
	if (h->running_critical > 0)
		sp_buf_printf(text, "%ld jobs ended, none failed", h->runs);
	else
		sp_buf_printf(text, "%ld jobs, nothing flagged", h->runs);
	return "ok";
}

static void
users_text(const struct sp_headline *h, struct sp_buf *b)
{
	size_t n = h->nusers;

	if (n > SP_HEADLINE_NAMED_USERS) {
		sp_buf_printf(b, "%zu users", n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			sp_buf_adds(b, i + 1 == n ? " and " : ", ");
		sp_buf_adds(b, h->users[i]);
	}
}

void
sp_headline_window(const struct sp_headline *h, struct sp_buf *b)
{
	sp_buf_printf(b, "%ld %s", h->runs, h->runs == 1 ? "job" : "jobs");
	if (h->nusers > 0) {
		sp_buf_adds(b, " of ");
		users_text(h, b);
	}
	if (h->first != NULL && h->last != NULL)
		sp_buf_printf(b, ", %.10s to %.10s", h->first, h->last);
	else
		sp_buf_adds(b, ", none ended");
	if (h->source != NULL && *h->source)
		sp_buf_printf(b, ", %s", h->source);
	sp_buf_printf(b, ", in %ld %s", h->workloads,
		      h->workloads == 1 ? "workload" : "workloads");
	if (h->shown >= 0)
		sp_buf_printf(b, ": every run of the workload%s of the %ld "
			      "job%s shown (%s)", h->workloads == 1 ? "" : "s",
			      h->shown, h->shown == 1 ? "" : "s",
			      h->view ? h->view : "");
	if (h->open > 0)
		sp_buf_printf(b, "; %ld still running or pending, left out",
			      h->open);
	sp_buf_addc(b, '.');
}
