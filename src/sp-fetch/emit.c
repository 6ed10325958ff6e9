/*
 * emit.c - what sp-fetch does with each record the parser folds: the
 * selection, the usage not yet recorded, then --live or the writer; and
 * the parser set up to call it, and what was read said at the end.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sp.h"
#include "sp_sacct.h"
#include "fetch.h"

/*
 * A job that ended moments ago with no CPU time in its record: its usage
 * is not yet recorded (SP_USAGE_SETTLE_S), so unknown, never "none";
 * its steps with it.  Called for the selected records alone.  Returns
 * rec, or copy made so.
 */
static const struct sp_sacct_rec *
unsettled(struct fetch_run *run, const struct sp_sacct_rec *rec,
	  struct sp_sacct_rec *copy)
{
	struct sp_slice end = rec->text[SP_JC_end];
	int64_t t;

	if (!run->settling)
		return rec;
	if (rec->text[SP_JC_step].n == 0) {
		/* A state that explains an idle CPU (NODE_FAIL ...) is
		 * never taken for a hang: nothing to wait for. */
		run->last_unsettled = rec->num[SP_JC_open] == 0 &&
		    rec->num[SP_JC_elapsed_s] > 0 &&
		    !sp_state_explains_idle(sp_state_of(rec->text[SP_JC_state])) &&
		    !(rec->num[SP_JC_total_cpu_s] > 0) &&
		    sp_parse_time(end.p, end.n, &t) == SP_VAL_OK &&
		    t > run->settle_after;
		run->unsettled += (unsigned long)run->last_unsettled;
	}
	if (!run->last_unsettled)
		return rec;
	*copy = *rec;
	copy->num[SP_JC_total_cpu_s] = NAN;
	copy->num[SP_JC_user_cpu_s] = NAN;
	copy->num[SP_JC_sys_cpu_s] = NAN;
	return copy;
}

static void
emit(void *ctx, const struct sp_sacct_rec *rec)
{
	struct fetch_run *run = ctx;
	struct sp_sacct_rec copy;

	/* The demo's sources are its whole history's, whatever is chosen. */
	if (run->transcripts != NULL)
		transcripts_job(run->transcripts, rec);
	if (!fetch_selected(run, rec))
		return;
	rec = unsettled(run, rec, &copy);
	if (run->live != NULL) {
		fetch_live_record(run, rec);
		if (rec->text[SP_JC_step].n == 0)
			run->records++;
		return;
	}
	fetch_header(run);
	if (run->o->fmt == SP_FMT_TSV) {
		/* The pipeline's format: a record is one write of one line. */
		if (run->out != NULL)
			fetch_tsv_record(run->out, rec);
		else {
			sp_buf_clear(&run->line);
			fetch_tsv_record(&run->line, rec);
			if (fwrite(run->line.p, 1, run->line.len, stdout) !=
			    run->line.len)
				sp_die(SP_EXIT_FAIL, "<stdout>:");
		}
		if (rec->text[SP_JC_step].n == 0)
			run->records++;
		return;
	}
	fetch_writer_record(&run->w, rec);
	if (rec->text[SP_JC_step].n == 0)
		run->records++;
}

void
fetch_parser_init(struct sp_sacct *ps, struct fetch_run *run, int delim,
		  const char *fields)
{
	struct sp_sacct_config cfg;

	memset(&cfg, 0, sizeof cfg);
	cfg.delim = delim;
	cfg.fields = fields;
	cfg.steps = run->o->steps;
	cfg.emit = emit;
	cfg.ctx = run;
	sp_sacct_init(ps, &cfg);
}

void
fetch_said(struct fetch_run *run, const struct sp_sacct *ps)
{
	if (fetch_report(ps, run->records, run->unselected, run->unsettled,
	    run->stats) != 0 ||
	    (run->stats != NULL && fclose(run->stats) != 0))
		sp_die(SP_EXIT_USAGE, "%s:", run->o->stats);
	run->stats = NULL;
}

void
fetch_none_in(const struct fetch_run *run, const char *what)
{
	if (run->unselected > 0)
		sp_warn("no job in %s matches the selection (%lu %s not)",
		    what, run->unselected, run->unselected == 1 ? "does" :
		    "do");
	else
		sp_warn("no jobs in %s", what);
}

void
fetch_say_delimiter(const struct sp_sacct *ps, const char *name)
{
	const char *d = ps->delim == '|' ? "'|'" : ps->delim == '\t' ? "TAB" :
	    ps->delim == 0x1f ? "0x1F" : "a comma (CSV)";

	sp_warn("%s: fields delimited by %s, named by %s", name, d,
	    ps->cfg.fields != NULL ? "--fields" : "its first line");
}
