/*
 * sp_submit.c - a submission against its workload's history: the
 * repeats of a failure (critical) and what sp-size's advice says of it.
 */
#include <math.h>
#include <string.h>

#include "sp_const.h"
#include "sp_sbatch.h"
#include "sp_submit.h"
#include "sp_units.h"

struct judge {
	const struct sp_hist *h;
	const char *label;
	const struct sp_submission *sub;
	double now;
	/* The workload's verdict record, as every screen renders it. */
	const struct sp_advice *adv;
	const int *have;
	int said[SP_FLAG_N];
	struct sp_submit_verdict *v;
};

/* A size as --mem takes it: whole gigabytes when it is, else megabytes. */
static void
mem_text(struct sp_buf *b, double bytes)
{
	struct sp_sbmem as = { .unit = 'G', .tail = "" };

	if (!sp_known(bytes) || bytes < 1024) {
		sp_fmt_bytes(b, bytes);
		return;
	}
	sp_sbatch_mem_spell(b, &as, floor(bytes / 1024) * 1024);
}

static void
ago(struct sp_buf *b, double when, double now)
{
	double s = now - when;

	if (!sp_known(when) || !sp_known(now) || !isfinite(s) || s < 0)
		return;
	sp_buf_adds(b, " (last ");
	if (s < 2 * 60)
		sp_buf_adds(b, "just now");
	else if (s < 2 * 3600)
		sp_buf_printf(b, "%.0f minutes ago", floor(s / 60));
	else if (s < 2 * 86400)
		sp_buf_printf(b, "%.0f hours ago", floor(s / 3600));
	else
		sp_buf_printf(b, "%.0f days ago", floor(s / 86400));
	sp_buf_addc(b, ')');
}

static void
times(struct sp_buf *b, long n)
{
	if (n == 1)
		sp_buf_adds(b, "once");
	else if (n == 2)
		sp_buf_adds(b, "twice");
	else
		sp_buf_printf(b, "%ld times", n);
}

/* ": ask --mem=8G (sp-size)", or what sp-size says instead of a figure. */
static void
ask(struct judge *j, enum sp_flag f)
{
	const struct sp_advice *a = &j->adv[f];
	struct sp_buf *b = &j->v->text;

	if (!j->have[f])
		return;
	j->said[f] = 1;
	if (a->verdict == SP_V_HOLD || a->verdict == SP_V_REFUSE ||
	    a->suggestion.len == 0) {
		sp_buf_printf(b, "; sp-size %s %s: %s", a->verdict == SP_V_HOLD ?
			      "holds" : "gives no figure for",
			      sp_flag_name(f), sp_buf_str(&a->basis));
		return;
	}
	sp_buf_printf(b, ": ask %s (sp-size)", sp_buf_str(&a->suggestion));
}

/* ". This submission asks 4G." */
static void
asks(struct judge *j, enum sp_flag f, const char *text, double newest)
{
	struct sp_buf *b = &j->v->text;

	if (text != NULL) {
		sp_buf_printf(b, ". This submission asks %s.\n", text);
		return;
	}
	sp_buf_printf(b, ". This submission sets no %s", sp_flag_name(f));
	if (sp_known(newest)) {
		sp_buf_adds(b, "; its newest run was given ");
		if (f == SP_FLAG_MEM)
			mem_text(b, newest);
		else
			sp_fmt_hms(b, newest);
	}
	sp_buf_adds(b, ".\n");
}

static void
judge_mem(struct judge *j)
{
	const struct sp_hist *h = j->h;
	const struct sp_hist_more *m = sp_hist_more(h);
	const struct sp_submission *sub = j->sub;
	double r = sp_known(sub->mem_b) ? sub->mem_b : h->req[SP_FLAG_MEM];
	double lo = INFINITY, hi = -INFINITY, last = -INFINITY;
	struct sp_order newest = { 0 };
	const struct sp_advice *a = &j->adv[SP_FLAG_MEM];
	struct sp_buf *b = &j->v->text;
	long kills = 0, subs = 0;

	if (!sp_known(r) || r <= 0 || sub->mem_why != NULL)
		return;
	/* Slurm rounds a request to whole megabytes: a hair is the same. */
	for (size_t i = 0; i < m->noomsubs; i++) {
		const struct sp_oomsub *e = &m->oomsubs[i];

		if (e->limit_b < r * (1 - 1e-6))
			continue;
		kills += e->kills;
		if (subs++ == 0 || sp_order_cmp(&e->first, &newest) > 0)
			newest = e->first;
		lo = fmin(lo, e->limit_b);
		hi = fmax(hi, e->limit_b);
		last = fmax(last, e->first.when);
	}
	if (kills == 0)
		return;
	/* A completion at or below the request since then: the size is
	 * known to do, sometimes (the hold's case, not a repeat). */
	for (size_t i = 0; i < h->ndoneat; i++) {
		const struct sp_doneat *d = &h->doneat[i];

		if (d->limit_b > r * (1 + 1e-6))
			continue;
		if ((d->best_id != NULL &&
		     sp_order_cmp(&d->best_o, &newest) > 0) ||
		    (d->other_id != NULL &&
		     sp_order_cmp(&d->other_o, &newest) > 0))
			return;
	}
	j->v->critical = 1;
	sp_buf_printf(b, "%s: killed for memory ", j->label);
	times(b, kills);
	sp_buf_adds(b, " at ");
	mem_text(b, lo);
	if (hi > lo * (1 + 1e-6)) {
		sp_buf_adds(b, " to ");
		mem_text(b, hi);
	}
	ago(b, last, j->now);
	if (j->have[SP_FLAG_MEM] && sp_known(a->observed_v)) {
		sp_buf_adds(b, "; its runs peaked at ");
		sp_fmt_bytes(b, a->observed_v);
	}
	ask(j, SP_FLAG_MEM);
	asks(j, SP_FLAG_MEM, sub->mem_text, h->req[SP_FLAG_MEM]);
}

static void
judge_time(struct judge *j)
{
	const struct sp_hist *h = j->h;
	const struct sp_submission *sub = j->sub;
	double t = sp_known(sub->time_s) ? sub->time_s : h->req[SP_FLAG_TIME];
	const struct sp_advice *a = &j->adv[SP_FLAG_TIME];
	struct sp_buf *b = &j->v->text;

	if (j->have[SP_FLAG_TIME] && a->verdict == SP_V_HOLD) {
		/* Blocked, not slow: any limit buys the same hang. */
		j->v->critical = 1;
		sp_buf_printf(b, "%s: timed out without computing", j->label);
		ask(j, SP_FLAG_TIME);
		asks(j, SP_FLAG_TIME, sub->time_text, h->req[SP_FLAG_TIME]);
		return;
	}
	if (!sp_known(t) || t <= 0)
		return;
	if (sp_known(h->longest.a) && h->longest.a > t) {
		j->v->critical = 1;
		sp_buf_printf(b, "%s: its longest completed run took ",
			      j->label);
		sp_fmt_hms(b, h->longest.a);
		if (h->longest.jobid != NULL)
			sp_buf_printf(b, " (job %s)", h->longest.jobid);
		sp_buf_adds(b, ", longer than this limit");
	} else if (sp_known(h->comp_timeout_limit_s) &&
		   h->comp_timeout_limit_s >= t) {
		j->v->critical = 1;
		sp_buf_printf(b, "%s: timed out while computing ", j->label);
		times(b, h->comp_timeouts);
		sp_buf_adds(b, ", at limits up to ");
		sp_fmt_hms(b, h->comp_timeout_limit_s);
	} else {
		return;
	}
	ask(j, SP_FLAG_TIME);
	asks(j, SP_FLAG_TIME, sub->time_text, h->req[SP_FLAG_TIME]);
}

/*
 * The nodes the node rule names worse (the workload's --exclude advice,
 * its line as sp-size writes it): asked for, or not kept out.
 */
static void
judge_nodes(struct judge *j, const struct sp_advice *exclude)
{
	static const char pre[] = "--exclude=";
	const struct sp_submission *sub = j->sub;
	struct sp_names asked = { 0 }, out = { 0 }, hit = { 0 }, open = { 0 };
	struct sp_names worse_v = { 0 }, *worse = &worse_v;
	struct sp_buf *b = &j->v->text;
	const char *list;

	if (exclude == NULL || exclude->suggestion.len <= sizeof pre - 1 ||
	    strncmp(sp_buf_str(&exclude->suggestion), pre, sizeof pre - 1) != 0)
		return;
	list = sp_buf_str(&exclude->suggestion) + sizeof pre - 1;
	sp_hostlist_expand(list, strlen(list), worse);
	if (sub->nodelist != NULL)
		sp_hostlist_expand(sub->nodelist, strlen(sub->nodelist),
				   &asked);
	if (sub->exclude != NULL)
		sp_hostlist_expand(sub->exclude, strlen(sub->exclude), &out);
	for (size_t i = 0; i < worse->n; i++) {
		const char *node = sp_names_at(worse, i);

		if (sp_names_has(&asked, node))
			sp_names_add(&hit, node, strlen(node));
		else if (!sp_names_has(&out, node))
			sp_names_add(&open, node, strlen(node));
	}
	if (hit.n > 0) {
		struct sp_buf h = { 0 };

		j->v->critical = 1;
		sp_hostlist_compress(&hit, &h);
		sp_buf_printf(b, "%s: %s %s worse than the other machines for "
			      "it (sp-nodes): ask --exclude=%s. This "
			      "submission asks for %s.\n", j->label,
			      sp_buf_str(&h), hit.n == 1 ? "is" : "are",
			      list, sp_buf_str(&h));
		sp_buf_free(&h);
	} else if (open.n > 0 && asked.n == 0) {
		sp_buf_printf(b, "%s: sp-nodes advises --exclude=%s (worse "
			      "than the other machines for it). This "
			      "submission %s.\n", j->label, list,
			      sub->exclude ? "leaves some of them in" :
			      "excludes none");
	}
	sp_names_free(&worse_v);
	sp_names_free(&asked);
	sp_names_free(&out);
	sp_names_free(&hit);
	sp_names_free(&open);
}

/* Advice that would change what this submission asks, not a repeat. */
static void
advise(struct judge *j, enum sp_flag f, double asked, const char *text)
{
	const struct sp_advice *a = &j->adv[f];
	struct sp_buf *b = &j->v->text;

	if (!j->have[f] || j->said[f] || text == NULL || !sp_known(asked) ||
	    asked <= 0 || !sp_known(a->target) || a->suggestion.len == 0 ||
	    !(a->verdict == SP_V_RAISE || a->verdict == SP_V_LOWER ||
	      a->verdict == SP_V_KEEP))
		return;
	if (a->target <= asked * (1 + SP_SIZE_CHANGE) &&
	    a->target >= asked * (1 - SP_SIZE_CHANGE))
		return;
	sp_buf_printf(b, "%s: sp-size advises %s: %s. This submission asks "
		      "%s.\n", j->label, sp_buf_str(&a->suggestion),
		      sp_buf_str(&a->basis), text);
}

void
sp_submit_judge(const struct sp_hist *h, const char *label,
		const struct sp_wl_verdict *wv, const struct sp_advice *exclude,
		const struct sp_submission *sub, double now,
		struct sp_submit_verdict *v)
{
	struct judge j;

	memset(&j, 0, sizeof j);
	j.h = h;
	j.label = label;
	j.sub = sub;
	j.now = now;
	j.v = v;
	v->critical = 0;
	sp_buf_clear(&v->text);
	j.adv = wv->adv;
	j.have = wv->has;
	judge_mem(&j);
	judge_time(&j);
	judge_nodes(&j, exclude);
	advise(&j, SP_FLAG_MEM, sub->mem_b, sub->mem_text);
	advise(&j, SP_FLAG_TIME, sub->time_s, sub->time_text);
	advise(&j, SP_FLAG_CPUS, sub->cpus, sub->cpus_text);
}

void
sp_submit_verdict_free(struct sp_submit_verdict *v)
{
	sp_buf_free(&v->text);
}
