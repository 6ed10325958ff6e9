/*
 * sp_finding.c - what a rule found, and lists of findings.
 */
#include <stdlib.h>
#include <string.h>

#include "sp_const.h"
#include "sp_finding.h"

const char *
sp_severity_name(enum sp_severity s)
{
	switch (s) {
	case SP_SEV_CRITICAL:
		return "critical";
	case SP_SEV_WARNING:
		return "warning";
	case SP_SEV_INFO:
		break;
	}
	return "info";
}

const char *
sp_severity_label(enum sp_severity s)
{
	switch (s) {
	case SP_SEV_CRITICAL:
		return "CRITICAL";
	case SP_SEV_WARNING:
		return "WARNING";
	case SP_SEV_INFO:
		break;
	}
	return "INFO";
}

void
sp_draft_id(struct sp_draft *d, const char *id)
{
	if (id == NULL || *id == '\0' || d->nids >= SP_FINDING_MAX_IDS)
		return;
	if (d->nids > 0)
		sp_buf_addc(&d->ids, ' ');
	sp_buf_adds(&d->ids, id);
	d->nids++;
}

void
sp_draft_free(struct sp_draft *d)
{
	sp_buf_free(&d->ev);
	sp_buf_free(&d->act);
	sp_buf_free(&d->ids);
	d->nids = 0;
}

/* The buffer's text, which the caller now owns; the buffer is empty. */
static char *
take(struct sp_buf *b)
{
	char *p = b->p != NULL ? b->p : sp_xstrdup("");

	memset(b, 0, sizeof *b);
	return p;
}

struct sp_finding *
sp_findings_add(struct sp_findings *out, const char *code,
		enum sp_severity sev, struct sp_draft *d)
{
	struct sp_finding *f;

	out->v = sp_xgrow(out->v, &out->cap, out->n + 1, sizeof *out->v);
	f = &out->v[out->n];
	memset(f, 0, sizeof *f);
	f->code = code;
	f->severity = sev;
	f->seq = out->n++;
	f->evidence = take(&d->ev);
	f->action = d->act.len > 0 ? take(&d->act) : NULL;
	sp_buf_clear(&d->act);
	f->jobids = d->nids > 0 ? take(&d->ids) : NULL;
	sp_buf_clear(&d->ids);
	d->nids = 0;
	return f;
}

/* The place of a code in kinds; past the last for one not listed. */
static size_t
kind_rank(const char *const *kinds, const char *code)
{
	size_t i = 0;

	while (kinds != NULL && kinds[i] != NULL && strcmp(kinds[i], code) != 0)
		i++;
	return i;
}

/* Stable and linear: a pass per severity and kind, the most severe and
 * the first kind first. */
void
sp_findings_sort_by(struct sp_findings *f, size_t from,
		    const char *const *kinds)
{
	struct sp_finding *v;
	size_t n, k = 0, nkinds = kind_rank(kinds, "");
	size_t *rank;

	if (from >= f->n || f->n - from < 2)
		return;
	n = f->n - from;
	v = sp_xcalloc(n, sizeof *v);
	rank = sp_xcalloc(n, sizeof *rank);
	for (size_t i = 0; i < n; i++)
		rank[i] = kind_rank(kinds, f->v[from + i].code);
	for (int sev = SP_SEV_CRITICAL; sev >= SP_SEV_INFO; sev--)
		for (size_t r = 0; r <= nkinds; r++)
			for (size_t i = 0; i < n; i++)
				if ((int)f->v[from + i].severity == sev &&
				    rank[i] == r)
					v[k++] = f->v[from + i];
	memcpy(f->v + from, v, n * sizeof *v);
	free(rank);
	free(v);
}

void
sp_findings_sort(struct sp_findings *f, size_t from)
{
	sp_findings_sort_by(f, from, NULL);
}

int
sp_findings_worst(const struct sp_findings *f)
{
	int worst = -1;

	for (size_t i = 0; i < f->n; i++)
		if ((int)f->v[i].severity > worst)
			worst = (int)f->v[i].severity;
	return worst;
}

void
sp_findings_free(struct sp_findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].evidence);
		free(f->v[i].action);
		free(f->v[i].jobids);
	}
	free(f->v);
	memset(f, 0, sizeof *f);
}
