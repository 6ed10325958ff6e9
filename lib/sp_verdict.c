/*
 * sp_verdict.c - one workload's verdict: the findings across runs, the
 * severity they give, and the advice of every flag.
 */
#include <string.h>

#include "sp_rules_history.h"
#include "sp_verdict.h"

void
sp_wl_verdict(const struct sp_hist *h, const struct sp_size_site *site,
	      int advice, struct sp_wl_verdict *v)
{
	/* An earlier verdict's findings go; its advice buffers stay. */
	sp_findings_free(&v->findings);
	sp_rules_history(&v->findings, h, site);
	v->severity = sp_findings_worst(&v->findings);
	if (v->severity < 0)
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
}
