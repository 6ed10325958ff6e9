/*
 * advice.c - what a workload's history says: the advice of sp-size for
 * each flag (the #SBATCH line, the verdict, what it rests on, what to
 * beware of) and the findings across runs of sp-size --findings, most
 * severe first.  Both are the library's own words, laid out for the
 * width once and then read a line at a time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "browse.h"

static enum sp_paint
verdict_paint(enum sp_verdict v)
{
	switch (v) {
	case SP_V_RAISE: return SP_P_WARNING;
	case SP_V_LOWER: return SP_P_GOOD;
	case SP_V_CAPPED: return SP_P_CRITICAL;
	case SP_V_KEEP: return SP_P_FAINT;
	default: return SP_P_INFO;
	}
}

/* Text from the library (its own words and record values): made safe. */
static void
prose(struct browse *B, struct sp_buf *b, const struct sp_buf *text,
      size_t first, size_t indent)
{
	struct sp_buf clean = { 0 };

	sp_term_clean(&B->term, &clean, text->p ? text->p : "", text->len, 1);
	sp_term_wrap(&B->term, b, clean.p ? clean.p : "", first, indent);
	sp_buf_addc(b, '\n');
	sp_buf_free(&clean);
}

static void
pad(struct sp_buf *b, size_t n)
{
	while (n-- > 0)
		sp_buf_addc(b, ' ');
}

/* Calls each(flag's advice) for every flag the workload's advice has,
 * --exclude last (where the node rule names machines). */
static size_t
each_advice(struct browse *B, size_t wl,
	    void (*each)(struct browse *, const struct sp_hist *,
			 const struct sp_advice *, void *),
	    void *arg)
{
	const struct sp_hist *h = model_hist(B->m, wl);
	struct sp_size_site site;
	struct sp_advice a = { 0 };
	size_t n = 0;

	if (h == NULL || h->runs == 0)
		return 0;
	model_size_site(B->m, h, &site);
	for (int f = 0; f < SP_FLAG_N; f++) {
		if (sp_size_advise(h, &site, (enum sp_flag)f, &a) < 0)
			continue;
		each(B, h, &a, arg);
		n++;
	}
	/* The node rule's --exclude, as sp-size writes it. */
	if (sp_wl_exclude_of(B->m->nodes, &B->m->set,
			     (size_t)B->m->info[wl].hist, &a)) {
		each(B, h, &a, arg);
		n++;
	}
	sp_advice_free(&a);
	return n;
}

static void
advice_text(struct browse *B, const struct sp_hist *h,
	    const struct sp_advice *a, void *arg)
{
	struct sp_buf *b = arg;
	struct sp_bt_risk r = { 0 };
	struct sp_buf risk = { 0 };

	sp_term_paint(&B->term, b, SP_P_BOLD);
	sp_buf_printf(b, "%-16s", sp_flag_name(a->flag));
	sp_term_paint(&B->term, b, SP_P_NONE);
	sp_term_paint(&B->term, b, verdict_paint(a->verdict));
	sp_buf_printf(b, "%-7s", sp_verdict_name(a->verdict));
	sp_term_paint(&B->term, b, SP_P_NONE);
	sp_term_clean(&B->term, b, a->requested_txt.p ? a->requested_txt.p :
		      "n/a", a->requested_txt.len ? a->requested_txt.len : 3,
		      0);
	if (a->sbatch.len > 0) {
		sp_buf_printf(b, " %s ", sp_term_glyph(&B->term, SP_G_ARROW));
		sp_term_paint(&B->term, b, SP_P_BOLD);
		sp_term_clean(&B->term, b, a->sbatch.p, a->sbatch.len, 0);
		sp_term_paint(&B->term, b, SP_P_NONE);
	}
	sp_buf_addc(b, '\n');
	if (a->basis.len > 0) {
		sp_buf_adds(b, "  ");
		prose(B, b, &a->basis, 2, 2);
	}
	if (a->caution.len > 0) {
		sp_buf_adds(b, "  ");
		prose(B, b, &a->caution, 2, 2);
	}
	/* What the replay measured, as sp-size's risk column says it. */
	if (a->flag != SP_FLAG_EXCLUDE && !isnan(a->target))
		sp_bt_risk_of(&B->m->bt, h->key, h->keylen, a->flag,
			      a->runs, &r);
	sp_bt_risk_text(&risk, &r);
	if (risk.len > 0) {
		sp_buf_adds(b, "  ");
		prose(B, b, &risk, 2, 2);
	}
	sp_buf_free(&risk);
	sp_buf_addc(b, '\n');
}

static void
sbatch_line(struct browse *B, const struct sp_hist *h,
	    const struct sp_advice *a, void *arg)
{
	struct sp_buf *b = arg;

	(void)B;
	(void)h;
	/* Every line the advice gives, as sp-size and the report give it
	 * (a keep gives one only where the runs asked for nothing). */
	if (a->sbatch.len == 0)
		return;
	sp_buf_add(b, a->sbatch.p, a->sbatch.len);
	sp_buf_addc(b, '\n');
}

size_t
advice_sbatch(struct browse *B, size_t wl, struct sp_buf *out)
{
	size_t before = out->len, n = 0;

	each_advice(B, wl, sbatch_line, out);
	for (size_t k = before; k < out->len; k++)
		n += out->p[k] == '\n';
	return n;
}

size_t
advice_next(struct browse *B, size_t wl, struct sp_buf *b)
{
	struct sp_buf lines = { 0 };
	size_t n = advice_sbatch(B, wl, &lines);

	if (n == 0) {
		sp_buf_adds(b, "next: no request to change (2 says why)");
		sp_buf_free(&lines);
		return 0;
	}
	sp_buf_adds(b, "next: ");
	sp_term_paint(&B->term, b, SP_P_BOLD);
	/* One line: "#SBATCH --time=02:00:00  #SBATCH --mem=94G". */
	for (size_t k = 0; k < lines.len; k++) {
		if (lines.p[k] == '\n') {
			if (k + 1 < lines.len)
				sp_buf_adds(b, "  ");
		} else {
			sp_buf_addc(b, lines.p[k]);
		}
	}
	sp_term_paint(&B->term, b, SP_P_NONE);
	sp_buf_free(&lines);
	return n;
}

/* ----------------------------------------------------- the two panes */

static void
advice_build(struct browse *B, size_t wl, struct lines *l)
{
	if (each_advice(B, wl, advice_text, &l->text) == 0)
		sp_buf_adds(&l->text, "No advice: every run of this workload "
			    "is still open or has no elapsed time.\n");
}

void
finding_text(struct browse *B, struct sp_buf *b, const struct sp_finding *p,
	     size_t indent, int with_jobs)
{
	struct sp_buf text = { 0 };

	pad(b, indent);
	sp_term_paint(&B->term, b, text_pattern_paint((int)p->severity));
	sp_buf_printf(b, "%-8s ", sp_severity_name(p->severity));
	sp_term_paint(&B->term, b, SP_P_NONE);
	sp_term_paint(&B->term, b, SP_P_BOLD);
	sp_buf_adds(b, p->code);
	sp_term_paint(&B->term, b, SP_P_NONE);
	sp_buf_addc(b, '\n');
	if (with_jobs && p->jobids != NULL) {
		sp_buf_adds(&text, "jobs ");
		sp_buf_adds(&text, p->jobids);
		pad(b, indent + 2);
		prose(B, b, &text, indent + 2, indent + 2);
	}
	sp_buf_clear(&text);
	sp_buf_adds(&text, p->evidence);
	pad(b, indent + 2);
	prose(B, b, &text, indent + 2, indent + 2);
	if (p->action != NULL) {
		sp_buf_clear(&text);
		sp_buf_adds(&text, p->action);
		pad(b, indent + 2);
		sp_buf_printf(b, "%s ", sp_term_glyph(&B->term, SP_G_ARROW));
		prose(B, b, &text, indent + 4, indent + 4);
	}
	sp_buf_addc(b, '\n');
	sp_buf_free(&text);
}

static void
findings_build(struct browse *B, size_t wl, struct lines *l)
{
	const struct sp_hist *h = model_hist(B->m, wl);
	struct sp_findings list = { 0 };
	struct sp_size_site site;

	if (h != NULL) {
		model_size_site(B->m, h, &site);
		sp_rules_history(&list, h, &site);
		sp_rules_history_sort(&list);
	}
	for (size_t i = 0; i < list.n; i++)
		finding_text(B, &l->text, &list.v[i], 0, 1);
	if (list.n == 0)
		sp_buf_adds(&l->text, "No finding across the runs.\n");
	sp_findings_free(&list);
}

const struct pane_ops pane_advice = {
	"advice", 0, advice_build, NULL, NULL, NULL, NULL, NULL
};

const struct pane_ops pane_findings = {
	"findings", 0, findings_build, NULL, NULL, NULL, NULL, NULL
};
