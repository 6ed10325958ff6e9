/*
 * findings.c - the findings across runs as sp-size --findings orders
 * them (most severe, then most telling, first), each under its
 * workload's name for people, with its evidence and what to do.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

#define INDENT "          "	/* under "critical  " */

static int
text(struct sp_reader *r, const struct labels *l, const struct opts *o)
{
	size_t top = top_of(o, SP_REPORT_FINDINGS), shown = 0, left = 0;
	int worst = 0;
	int key = sp_reader_need(r, "workload_key", "sp-group");
	int wl = sp_reader_col(r, "workload");
	int code = sp_reader_need(r, "code", "sp-size --findings");
	int sev = sp_reader_need(r, "severity", "sp-size --findings");
	int evidence = sp_reader_need(r, "evidence", "sp-size --findings");
	int action = sp_reader_need(r, "action", "sp-size --findings");
	struct sp_buf b = { 0 };

	while (sp_next_or_die(r)) {
		int rank = severity_rank(r->f[sev]);

		if (top > 0 && shown >= top) {
			left++;
			continue;
		}
		/* Only what is shown sets the status. */
		if (rank > worst)
			worst = rank;
		shown++;
		sp_buf_clear(&b);
		sp_buf_printf(&b, "%-8s  ", severity_word(rank));
		labels_name(l, &b, r->f[key], sp_reader_field(r, wl));
		sp_buf_adds(&b, ": ");
		field_text(&b, r->f[code]);
		sp_buf_adds(&b, "\n" INDENT);
		field_lines(&b, r->f[evidence], INDENT);
		if (r->f[action].n > 0) {
			sp_buf_adds(&b, "\n" INDENT);
			field_lines(&b, r->f[action], INDENT);
		}
		printf("%s\n", sp_buf_str(&b));
	}
	if (shown == 0)
		printf("No failure repeats across runs.\n");
	if (left > 0)
		printf("%zu more findings%s%s\n", left, o->more ? ": " : "",
		       o->more ? o->more : "");
	sp_buf_free(&b);
	return worst;
}

int
severity_records(struct sp_reader *r, const struct opts *o)
{
	struct sp_writer w;
	size_t top = top_of(o, 0), shown = 0;
	int sev = sp_reader_need(r, "severity", "sp-size --findings");
	int worst = 0;

	sp_writer_init(&w, stdout, o->fmt);
	sp_writer_columns_from(&w, r);
	sp_writer_header(&w);
	while (sp_next_or_die(r)) {
		int rank = severity_rank(r->f[sev]);

		if (top > 0 && shown >= top)
			continue;
		if (rank > worst)
			worst = rank;
		shown++;
		sp_writer_fields_from(&w, r);
		sp_writer_end(&w);
	}
	sp_writer_finish(&w);
	return worst;
}

int
part_findings(const struct opts *o)
{
	struct labels l;
	struct sp_reader r;
	int worst;

	input_open(&r, o, IN_FINDINGS);
	if (o->fmt == SP_FMT_PLAIN) {
		labels_load(&l, o);
		worst = text(&r, &l, o);
		labels_free(&l);
	} else {
		worst = severity_records(&r, o);
	}
	sp_reader_close(&r);
	return worst >= 3 ? SP_EXIT_FAIL : SP_EXIT_OK;
}
