/*
 * sp_verdict.c - one workload's verdict: the findings across runs, the
 * severity they give, and the advice of every flag.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_backtest.h"
#include "sp_const.h"
#include "sp_hostlist.h"
#include "sp_rules_history.h"
#include "sp_text.h"
#include "sp_verdict.h"

void
sp_wl_verdict(const struct sp_hist *h, const struct sp_size_site *site,
	      int advice, struct sp_wl_verdict *v)
{
	/* An earlier verdict's findings go; its advice buffers stay. */
	sp_findings_free(&v->findings);
	sp_rules_history(&v->findings, h, site);
	v->severity = sp_findings_worst(&v->findings);
	/* Below critical, a finding the record could not make might have
	 * been there: a column the rules read is missing, a run's state
	 * or whether it computed is not in the record. */
	if (v->severity < SP_SEV_CRITICAL && site->missing != 0)
		v->severity = SP_WL_UNKNOWN;
	else if (v->severity < 0)
		v->severity = h->stateless > 0 || h->noop_unknown > 0 ?
		    SP_WL_UNKNOWN : SP_WL_OK;
	for (int f = 0; f < SP_FLAG_N; f++)
		v->has[f] = advice &&
		    sp_size_advise(h, site, (enum sp_flag)f, &v->adv[f]) == 0;
}

void
sp_wl_verdict_free(struct sp_wl_verdict *v)
{
	sp_findings_free(&v->findings);
	for (int f = 0; f < SP_FLAG_N; f++)
		sp_advice_free(&v->adv[f]);
}

static const char *const words[] = { "ok", "info", "warning", "critical" };

const char *
sp_wl_severity_name(int severity)
{
	return severity >= SP_WL_OK && severity <= SP_SEV_CRITICAL ?
	    words[severity + 1] : "";
}

int
sp_wl_severity_rank(const char *word, size_t n)
{
	for (int i = 0; i < 4; i++)
		if (strlen(words[i]) == n && memcmp(words[i], word, n) == 0)
			return i - 1;
	return -2;
}

void
sp_wl_site(const struct sp_site *s, const struct sp_histset *set,
	   const struct sp_hist *h, struct sp_size_site *out)
{
	sp_size_site_of(s, h, out);
	out->missing = set->missing;
	out->empty = set->empty;
}

int
sp_wl_exclude(const struct sp_node_table *tab, enum sp_node_metric m,
	      struct sp_advice *a)
{
	struct sp_names worse = { 0 };
	struct sp_buf list = { 0 };
	size_t n = 0, more = 0;

	sp_advice_reset(a, SP_FLAG_EXCLUDE);
	a->verdict = SP_V_RAISE;
	a->runs = tab->runs;
	/* The rows are worst first, so the cap keeps the worst. */
	for (size_t i = 0; i < tab->nrows; i++) {
		const char *node = tab->rows[i].node;

		if (tab->rows[i].s.verdict != SP_VERDICT_WORSE)
			continue;
		n++;
		if (worse.n >= SP_NODES_EXCLUDE_MAX) {
			more++;
			continue;
		}
		sp_names_add(&worse, node, strlen(node));
		if (a->observed.len > 0)
			sp_buf_adds(&a->observed, ", ");
		/* A name's control bytes shown, never a second line. */
		sp_text_clean(&a->observed, node, strlen(node), 0);
	}
	if (n == 0) {
		a->verdict = SP_V_REFUSE;
		sp_names_free(&worse);
		return 0;
	}
	a->target = (double)n;
	sp_hostlist_compress(&worse, &list);
	sp_buf_adds(&a->suggestion, "--exclude=");
	sp_text_clean(&a->suggestion, list.p, list.len, 0);
	sp_buf_printf(&a->sbatch, "#SBATCH %s", sp_buf_str(&a->suggestion));
	sp_buf_printf(&a->basis, "leave out %s, worse than the other machines "
		      "for it (%s metric, %ld runs, %zu %s tested)",
		      sp_buf_str(&a->observed), sp_node_metric_name(m),
		      tab->runs, tab->tested, tab->tested == 1 ? "node" :
		      "nodes");
	if (more > 0)
		sp_buf_printf(&a->basis, "; %zu more worse %s not listed "
			      "(sp-nodes shows them all)", more,
			      more == 1 ? "node" : "nodes");
	sp_names_free(&worse);
	sp_buf_free(&list);
	return 1;
}

int
sp_wl_exclude_of(const struct sp_nodes *nodes, struct sp_histset *set,
		 size_t i, struct sp_advice *a)
{
	const struct sp_hist *h = sp_histset_hist(set, i);
	const struct sp_nodes_workload *nw;
	struct sp_node_table tab;
	struct sp_buf why = { 0 };
	long wi = sp_nodes_find(nodes, h->key, h->keylen);
	int named, apart;

	if (wi < 0)
		return 0;
	/* A table needs a bad placement and a node placed often enough:
	 * most workloads have neither, and a table reads every cell. */
	nw = sp_nodes_workload(nodes, (size_t)wi);
	apart = !sp_advice_indistinct(h, &why);
	sp_buf_free(&why);
	if (nw->bad == 0 || nw->trials < SP_NODES_MIN_TRIALS || !apart)
		return 0;
	sp_nodes_table(nodes, wi, &tab);
	named = sp_wl_exclude(&tab, sp_nodes_metric(nodes), a);
	sp_node_table_free(&tab);
	return named;
}

void
sp_wl_verdict_finding(const struct sp_hist *h,
		      const struct sp_size_site *site,
		      const struct sp_advice *exclude,
		      const struct sp_bt_risks *risks, struct sp_findings *out)
{
	struct sp_wl_verdict v = { 0 };
	struct sp_draft d = { 0 };

	sp_wl_verdict(h, site, 1, &v);
	/* The flags in sp-size's order, the node rule's --exclude last. */
	for (int f = 0; f <= SP_FLAG_N; f++) {
		const struct sp_advice *a = f < SP_FLAG_N ? &v.adv[f] : exclude;

		/* Every line the advice gives: a change, or the figure
		 * where the runs asked for nothing. */
		if (a == NULL || (f < SP_FLAG_N && !v.has[f]) ||
		    a->sbatch.len == 0)
			continue;
		/* Each change with the runs it rests on: a flag the record
		 * cannot judge leaves the others' numbers as they are. */
		sp_buf_printf(&d.ev, "%s %s %s", d.ev.len > 0 ? ";" :
			      "", sp_verdict_name(a->verdict),
			      sp_flag_name(a->flag));
		if (a->requested_txt.len > 0)
			sp_buf_printf(&d.ev, " from %s",
				      sp_buf_str(&a->requested_txt));
		sp_buf_printf(&d.ev, " (%ld %s): %s", a->runs,
			      a->runs == 1 ? "run" : "runs",
			      sp_buf_str(&a->basis));
		if (!isnan(a->target)) {
			struct sp_bt_risk r;

			sp_bt_risk_of(risks, h->key, h->keylen, a->flag,
				      a->runs, &r);
			if (r.known)
				sp_buf_adds(&d.ev, "; ");
			sp_bt_risk_text(&d.ev, &r);
		}
		if (d.act.len > 0)
			sp_buf_adds(&d.act, "  ");
		sp_buf_add(&d.act, a->sbatch.p, a->sbatch.len);
	}
	if (d.act.len > 0) {
		struct sp_buf head = { 0 };

		/* The evidence so far is the changes; the lead goes first. */
		sp_buf_printf(&head, "Its workload's verdict (sp-size; the "
			      "workload's severity: %s):",
			      v.severity == SP_WL_UNKNOWN ? "unknown" :
			      sp_wl_severity_name(v.severity));
		sp_buf_add(&head, d.ev.p, d.ev.len);
		sp_buf_addc(&head, '.');
		sp_buf_clear(&d.ev);
		sp_buf_add(&d.ev, head.p, head.len);
		sp_buf_free(&head);
		sp_findings_add(out, "workload-advice", SP_SEV_INFO, &d);
	}
	sp_draft_free(&d);
	sp_wl_verdict_free(&v);
}

void
sp_wl_memo_init(struct sp_wl_memo *m, struct sp_histset *set,
		const struct sp_nodes *nodes, const struct sp_site *site)
{
	memset(m, 0, sizeof *m);
	m->set = set;
	m->nodes = nodes;
	m->site = site;
	m->n = set->n;
	m->v = sp_xcalloc(m->n ? m->n : 1, sizeof *m->v);
	m->made = sp_xcalloc(m->n ? m->n : 1, 1);
}

const struct sp_findings *
sp_wl_memo_get(struct sp_wl_memo *m, size_t i)
{
	const struct sp_hist *h;
	struct sp_size_site site;
	struct sp_advice ex = { 0 };
	int named;

	if (i >= m->n)
		return NULL;
	if (m->made[i])
		return &m->v[i];
	m->made[i] = 1;
	h = sp_histset_hist(m->set, i);
	sp_wl_site(m->site, m->set, h, &site);
	named = m->nodes != NULL && sp_wl_exclude_of(m->nodes, m->set, i, &ex);
	sp_wl_verdict_finding(h, &site, named ? &ex : NULL, m->set->risks,
			      &m->v[i]);
	sp_advice_free(&ex);
	return &m->v[i];
}

void
sp_wl_memo_free(struct sp_wl_memo *m)
{
	for (size_t i = 0; i < m->n; i++)
		sp_findings_free(&m->v[i]);
	free(m->v);
	free(m->made);
	memset(m, 0, sizeof *m);
}
