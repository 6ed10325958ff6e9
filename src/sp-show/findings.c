/*
 * findings.c - sp-show --findings: the finding records of every job, in
 * sp-size --findings' columns, so the two streams concatenate.
 */
#include <string.h>

#include "show.h"
#include "sp_workload.h"

void
findings_header(struct run *R)
{
	static const char *const cols[] = { "user", "workload",
		"workload_key", "jobid", "code", "severity", "evidence",
		"action", NULL };

	sp_writer_init(&R->w, stdout, R->fmt);
	sp_writer_columns(&R->w, cols);
	sp_writer_header(&R->w);
}

void
findings_rows(struct run *R, const struct shown *s)
{
	const struct sp_job *j = &s->h->alloc.j;
	const struct sp_findings *f = s->findings;
	struct sp_buf workload = { 0 }, key = { 0 };

	if (f->n == 0)
		return;
	/* Fields stay in record form: the fold of escaped text is exact. */
	if (R->cols.workload >= 0)
		sp_buf_add(&workload, j->workload.p, j->workload.n);
	else
		sp_workload_fold(&workload, j->name.p, j->name.n);
	if (R->cols.workload_key >= 0)
		sp_buf_add(&key, j->workload_key.p, j->workload_key.n);
	else
		sp_workload_key(&key, j->user.p, j->user.n, j->partition.p,
				j->partition.n, sp_job_gpu_kind(j),
				sp_buf_str(&workload), workload.len);
	for (size_t i = 0; i < f->n; i++) {
		sp_writer_slice(&R->w, j->user);
		sp_writer_field(&R->w, sp_buf_str(&workload), workload.len);
		sp_writer_field(&R->w, sp_buf_str(&key), key.len);
		sp_writer_slice(&R->w, j->jobid);
		sp_writer_str(&R->w, f->v[i].code);
		sp_writer_str(&R->w, sp_severity_name(f->v[i].severity));
		sp_writer_raw(&R->w, f->v[i].evidence,
			      strlen(f->v[i].evidence));
		if (f->v[i].action != NULL)
			sp_writer_raw(&R->w, f->v[i].action,
				      strlen(f->v[i].action));
		else
			sp_writer_empty(&R->w);
		sp_writer_end(&R->w);
	}
	sp_buf_free(&workload);
	sp_buf_free(&key);
}
