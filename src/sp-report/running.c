/*
 * running.c - the jobs running now, as sp-size --running writes them:
 * each job so far under its id and its workload's name for people, then
 * what its workload's history says it will do, most severe first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define INDENT "          "	/* under "critical  " */

/* One job's warnings, most severe first, the order found among equals. */
struct warning {
	int rank;
	struct sp_buf text;
};

struct job {
	struct sp_buf head;		/* its line and its "so far" */
	struct warning *v;
	size_t n, cap;
};

static void
job_flush(struct job *j)
{
	/* A stable sort of a few: insertion. */
	for (size_t i = 1; i < j->n; i++)
		for (size_t k = i; k > 0 && j->v[k].rank > j->v[k - 1].rank;
		     k--) {
			struct warning t = j->v[k];

			j->v[k] = j->v[k - 1];
			j->v[k - 1] = t;
		}
	if (j->head.len > 0)
		printf("%s\n", sp_buf_str(&j->head));
	for (size_t i = 0; i < j->n; i++) {
		printf("%s\n", sp_buf_str(&j->v[i].text));
		sp_buf_free(&j->v[i].text);
	}
	j->n = 0;
	sp_buf_clear(&j->head);
}

static int
text(struct sp_reader *r, const struct labels *l)
{
	int key = sp_reader_need(r, "workload_key", "sp-group");
	int wl = sp_reader_col(r, "workload");
	int id = sp_reader_need(r, "jobid", "sp-size --running");
	int code = sp_reader_need(r, "code", "sp-size --running");
	int sev = sp_reader_need(r, "severity", "sp-size --running");
	int evidence = sp_reader_need(r, "evidence", "sp-size --running");
	int action = sp_reader_need(r, "action", "sp-size --running");
	struct sp_slice none = { "", 0 };
	struct sp_buf last = { 0 };
	struct job j = { 0 };
	size_t jobs = 0;
	int worst = 0;

	while (sp_next_or_die(r)) {
		int rank = severity_rank(r->f[sev]);
		struct warning *w;

		if (jobs == 0 || last.len != r->f[id].n ||
		    memcmp(last.p, r->f[id].p, last.len) != 0) {
			job_flush(&j);
			jobs++;
			sp_buf_clear(&last);
			sp_buf_add(&last, r->f[id].p, r->f[id].n);
			sp_buf_adds(&j.head, "job ");
			field_text(&j.head, r->f[id]);
			sp_buf_adds(&j.head, ", ");
			labels_name(l, &j.head, r->f[key],
				    wl >= 0 ? r->f[wl] : none);
		}
		if (sp_slice_eq(r->f[code], "running")) {
			sp_buf_adds(&j.head, "\n" INDENT);
			field_lines(&j.head, r->f[evidence], INDENT);
			continue;
		}
		if (rank > worst)
			worst = rank;
		j.v = sp_xgrow(j.v, &j.cap, j.n + 1, sizeof *j.v);
		w = &j.v[j.n++];
		memset(w, 0, sizeof *w);
		w->rank = rank;
		sp_buf_printf(&w->text, "%-8s  ", severity_word(rank));
		field_text(&w->text, r->f[code]);
		sp_buf_adds(&w->text, "\n" INDENT);
		field_lines(&w->text, r->f[evidence], INDENT);
		if (r->f[action].n > 0) {
			sp_buf_adds(&w->text, "\n" INDENT);
			field_lines(&w->text, r->f[action], INDENT);
		}
	}
	job_flush(&j);
	if (jobs == 0)
		printf("No job of the window is running.\n");
	free(j.v);
	sp_buf_free(&j.head);
	sp_buf_free(&last);
	return worst;
}

int
part_running(const struct opts *o)
{
	struct labels l;
	struct sp_reader r;
	int worst;

	input_open(&r, o, IN_RUNNING);
	if (o->fmt == SP_FMT_PLAIN) {
		labels_load(&l, o);
		worst = text(&r, &l);
		labels_free(&l);
	} else {
		worst = severity_records(&r, o);
	}
	sp_reader_close(&r);
	return worst >= 3 ? SP_EXIT_FAIL : SP_EXIT_OK;
}
