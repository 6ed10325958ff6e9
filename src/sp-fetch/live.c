/*
 * live.c - sp-fetch --live: the running jobs' figures of the moment from
 * one sstat call, beside their accounting records (sp_live.h says what
 * each column holds).
 *
 * sstat is asked about jobs by id, and which jobs run is known only once
 * sacct has answered: so the records are kept in a spool as they come
 * (the pipeline's form, which sacct's store never sees), the running
 * ones noted, sstat asked once for all of them, and then every record
 * written with its live columns, in the order sacct gave.  Where sstat
 * cannot answer for a job, its figures are unknown and why is said: in
 * its live_why, and once on standard error for every job it holds for.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sp.h"
#include "sp_live.h"
#include "fetch.h"

/* At most this many job ids named in a message; the rest counted. */
#define NAMED_IDS 5

struct running {
	off_t at;		/* its line in the spool */
	char *jobid, *raw;
	double cpu_ended;	/* total_cpu_s: its ended steps' CPU */
	double rss_b, cpu_s;
	char *step;
	const char *why;	/* NULL: figures known */
};

struct fetch_live {
	FILE *spool;
	struct sp_buf line;
	struct running *v;
	size_t n, cap;
	struct sp_buf why;	/* a reason for every job, when one holds */
	struct sp_buf at;	/* live_at */
};

void
fetch_live_begin(struct fetch_run *run)
{
	struct fetch_live *l = sp_xcalloc(1, sizeof *l);

	l->spool = sp_spool_open();
	run->live = l;
}

static char *
dup_text(const struct sp_sacct_rec *rec, int jc)
{
	return sp_xstrndup(rec->text[jc].p, rec->text[jc].n);
}

void
fetch_live_record(struct fetch_run *run, const struct sp_sacct_rec *rec)
{
	struct fetch_live *l = run->live;

	if (rec->text[SP_JC_step].n == 0 && rec->num[SP_JC_open] == 1 &&
	    sp_slice_eq(rec->text[SP_JC_state], "RUNNING")) {
		struct running *r;

		l->v = sp_xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
		r = &l->v[l->n++];
		memset(r, 0, sizeof *r);
		r->at = ftello(l->spool);
		r->jobid = dup_text(rec, SP_JC_jobid);
		r->raw = dup_text(rec, SP_JC_jobid_raw);
		r->cpu_ended = rec->num[SP_JC_total_cpu_s];
		r->rss_b = r->cpu_s = NAN;
	}
	sp_buf_clear(&l->line);
	fetch_tsv_record(&l->line, rec);
	if (fwrite(l->line.p, 1, l->line.len, l->spool) != l->line.len)
		sp_die(SP_EXIT_USAGE, "spool file:");
}

/* ------------------------------------------------------------ sstat */

/*
 * sstat is asked by the raw id, one per job (an array task's 123_4 would
 * be read as its whole array), a heterogeneous component by its 123+1.
 */
static const char *
ask_id(const struct running *r)
{
	return strchr(r->jobid, '+') != NULL || *r->raw == '\0' ? r->jobid :
	       r->raw;
}

/* The ids from v[from] on, each once, that fit one --jobs= argument;
 * returns where the next list starts. */
static size_t
ids_arg(const struct fetch_live *l, struct sp_intern *seen, size_t from,
	struct sp_buf *b)
{
	size_t i, listed = 0;

	sp_buf_clear(b);
	sp_buf_adds(b, "--jobs=");
	for (i = from; i < l->n && b->len < SP_SSTAT_IDS_BYTES; i++) {
		const char *id = ask_id(&l->v[i]);
		size_t before = seen->n;

		sp_intern(seen, id, strlen(id));
		if (seen->n == before)
			continue;
		if (listed++ > 0)
			sp_buf_addc(b, ',');
		sp_buf_adds(b, id);
	}
	return listed > 0 ? i : l->n;
}

static int
refused_field(const struct sp_exec *x)
{
	return !x->timed_out && x->exec_errno == 0 &&
	       (x->exit_code != 0 || x->term_signal != 0) &&
	       strstr(sp_buf_str(&x->err), "Invalid field requested") != NULL;
}

/* Why sstat gave nothing at all, in l->why; 0 when it answered. */
static int
failed(struct fetch_live *l, const struct sp_exec *x, double timeout)
{
	struct sp_buf line = { 0 };

	if (x->exec_errno == ENOENT) {
		sp_buf_adds(&l->why, "sstat is not on PATH");
	} else if (x->exec_errno != 0) {
		sp_buf_printf(&l->why, "cannot run sstat: %s",
			      strerror(x->exec_errno));
	} else if (x->timed_out) {
		sp_buf_adds(&l->why, "sstat did not answer within ");
		sp_exec_fmt_seconds(&l->why, timeout);
		sp_buf_adds(&l->why, " (is the controller, slurmctld, up?)");
	} else if (x->exit_code != 0 || x->term_signal != 0) {
		sp_buf_adds(&l->why, "sstat failed (");
		sp_exec_describe(x, &l->why);
		sp_exec_err_line(x, &line);
		if (line.len) {
			sp_buf_adds(&l->why, ": ");
			sp_buf_add(&l->why, line.p, line.len);
		}
		sp_buf_addc(&l->why, ')');
	}
	sp_buf_free(&line);
	return l->why.len > 0;
}

/* Each running job's figures, or why there are none, from the answer. */
static void
figures(struct fetch_live *l, const char *fields, const struct sp_buf *out,
	const struct sp_buf *err)
{
	struct sp_sstat s;

	sp_sstat_read(&s, fields, sp_buf_str(out), out->len, sp_buf_str(err),
		      err->len);
	for (size_t i = 0; i < l->n; i++) {
		struct running *r = &l->v[i];
		const struct sp_sstat_job *j = sp_sstat_find(&s, r->raw,
							     strlen(r->raw));
		const char *step;
		enum sp_live_why w;

		if (j == NULL)
			j = sp_sstat_find(&s, r->jobid, strlen(r->jobid));
		w = sp_sstat_figures(&s, j, &r->rss_b, &step, &r->cpu_s);
		if (w != SP_LW_NONE) {
			r->why = sp_live_why_text(w);
			continue;
		}
		r->step = step ? sp_xstrdup(step) : NULL;
		/*
		 * The ended steps' CPU is sacct's, the running ones' sstat's.
		 * sacct asked always has TotalCPU: an open record without a
		 * total is one no step of which has ended with a reading.
		 */
		if (sp_known(r->cpu_s) && sp_known(r->cpu_ended))
			r->cpu_s += r->cpu_ended;
	}
	sp_sstat_free(&s);
}

/* sstat over one list of ids, its answer added to out and err; 0 when it
 * answered.  *fields falls back for an old sstat, once for every list. */
static int
ask_list(struct fetch_live *l, const struct fetch_opts *o, double timeout,
	 const char *ids, const char **fields, struct sp_buf *out,
	 struct sp_buf *err)
{
	struct sp_buf fmt = { 0 }, answer = { 0 };
	struct sp_exec x;
	char *argv[7];
	int rc;

	for (;;) {
		sp_buf_clear(&fmt);
		sp_buf_printf(&fmt, "--format=%s", *fields);
		argv[0] = "sstat";
		argv[1] = "--allsteps";
		argv[2] = "--parsable2";
		argv[3] = "--noheader";
		argv[4] = fmt.p;
		argv[5] = (char *)ids;
		argv[6] = NULL;
		if (o->verbose)
			sp_warn("asked: sstat --allsteps --parsable2 "
				"--noheader %s %s", fmt.p, ids);
		sp_buf_clear(&answer);
		sp_exec_capture(&x, argv, timeout, &answer);
		/* An old sstat without the TRES fields: once without them. */
		if (strcmp(*fields, SP_SSTAT_FIELDS_OLD) != 0 &&
		    refused_field(&x)) {
			sp_exec_free(&x);
			*fields = SP_SSTAT_FIELDS_OLD;
			continue;
		}
		break;
	}
	rc = failed(l, &x, timeout);
	sp_buf_add(out, answer.p, answer.len);
	sp_buf_add(err, x.err.p, x.err.len);
	sp_exec_free(&x);
	sp_buf_free(&answer);
	sp_buf_free(&fmt);
	return rc;
}

static void
ask_sstat(struct fetch_live *l, const struct fetch_opts *o, double timeout)
{
	struct sp_buf ids = { 0 }, out = { 0 }, err = { 0 };
	struct sp_intern seen = { 0 };
	const char *fields = SP_SSTAT_FIELDS;
	size_t next = 0;
	int answered = 1;

	if (timeout > SP_LIVE_TIMEOUT_S)
		timeout = SP_LIVE_TIMEOUT_S;
	if (o->clusters != NULL || o->all_clusters) {
		sp_buf_adds(&l->why, "sstat reads the jobs of the cluster it "
			    "runs on, not those of -M or -L");
		return;
	}
	while (answered && next < l->n) {
		next = ids_arg(l, &seen, next, &ids);
		if (strchr(ids.p, '=')[1] != '\0')
			answered = ask_list(l, o, timeout, ids.p, &fields,
					    &out, &err) == 0;
	}
	if (answered)
		figures(l, fields, &out, &err);
	sp_intern_free(&seen);
	sp_buf_free(&ids);
	sp_buf_free(&out);
	sp_buf_free(&err);
}

/* One line for each reason, naming (some of) the jobs it holds for. */
static void
say_why(const struct fetch_live *l)
{
	struct sp_intern reasons = { 0 };
	struct sp_buf b = { 0 };

	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].why != NULL)
			sp_intern(&reasons, l->v[i].why,
				  strlen(l->v[i].why));
	for (size_t k = 0; k < reasons.n; k++) {
		const char *why = sp_intern_str(&reasons, k);
		size_t jobs = 0, named = 0;

		for (size_t i = 0; i < l->n; i++)
			if (l->v[i].why && strcmp(l->v[i].why, why) == 0)
				jobs++;
		sp_buf_clear(&b);
		sp_buf_printf(&b, "no live figures for %s%zu running %s (",
			      jobs == l->n && jobs > 1 ? "the " : "", jobs,
			      jobs == 1 ? "job" : "jobs");
		for (size_t i = 0; i < l->n && named < NAMED_IDS; i++) {
			if (!l->v[i].why || strcmp(l->v[i].why, why) != 0)
				continue;
			sp_buf_adds(&b, named ? ", " : "");
			sp_buf_adds(&b, l->v[i].jobid);
			named++;
		}
		if (jobs > named)
			sp_buf_printf(&b, " and %zu more", jobs - named);
		sp_buf_printf(&b, "): %s", why);
		sp_warn("%s", sp_buf_str(&b));
	}
	sp_buf_free(&b);
	sp_intern_free(&reasons);
}

/* ------------------------------------------------------------ output */

/* The live columns of a record in record form, each after a TAB. */
static void
live_fields(const struct fetch_live *l, const struct running *r,
	    struct sp_buf *b)
{
	sp_buf_clear(b);
	if (r == NULL) {
		sp_buf_adds(b, "\t\t\t\t\t");
		return;
	}
	sp_buf_addc(b, '\t');
	if (r->why == NULL)
		sp_fmt_num(b, r->rss_b);
	sp_buf_addc(b, '\t');
	if (r->why == NULL && r->step != NULL)
		sp_field_encode(b, r->step, strlen(r->step));
	sp_buf_addc(b, '\t');
	if (r->why == NULL)
		sp_fmt_num(b, r->cpu_s);
	sp_buf_addc(b, '\t');
	if (r->why == NULL)
		sp_buf_add(b, l->at.p, l->at.len);
	sp_buf_addc(b, '\t');
	if (r->why != NULL)
		sp_field_encode(b, r->why, strlen(r->why));
}

/* A TSV line and its live columns through the writer (other formats). */
static void
write_fields(struct sp_writer *w, const char *p, size_t n)
{
	const char *end = p + n;

	for (;;) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));
		const char *e = tab ? tab : end;

		sp_writer_field(w, p, (size_t)(e - p));
		if (tab == NULL)
			break;
		p = tab + 1;
	}
}

static void
write_all(struct fetch_run *run)
{
	struct fetch_live *l = run->live;
	struct sp_buf live = { 0 };
	char *line = NULL;
	size_t cap = 0, next = 0;
	ssize_t n;

	fetch_header(run);
	if (fflush(l->spool) != 0 || fseeko(l->spool, 0, SEEK_SET) != 0)
		sp_die(SP_EXIT_USAGE, "spool file:");
	for (off_t at = 0; (n = getline(&line, &cap, l->spool)) > 0;
	     at += n) {
		const struct running *r = NULL;
		size_t len = (size_t)n;

		if (line[len - 1] == '\n')
			len--;
		if (next < l->n && l->v[next].at == at)
			r = &l->v[next++];
		live_fields(l, r, &live);
		if (run->o->fmt == SP_FMT_TSV) {
			sp_buf_addc(&live, '\n');
			if (fwrite(line, 1, len, stdout) != len ||
			    fwrite(live.p, 1, live.len, stdout) != live.len)
				sp_die(SP_EXIT_USAGE, "<stdout>:");
		} else {
			write_fields(&run->w, line, len);
			write_fields(&run->w, live.p + 1, live.len - 1);
			sp_writer_end(&run->w);
		}
	}
	if (ferror(l->spool))
		sp_die(SP_EXIT_USAGE, "spool file:");
	free(line);
	sp_buf_free(&live);
}

void
fetch_live_finish(struct fetch_run *run, double timeout)
{
	struct fetch_live *l = run->live;

	if (l->n > 0) {
		/* The moment read, as sacct prints times: the cluster's. */
		sp_fmt_time(&l->at, sp_civil_local((int64_t)time(NULL)));
		ask_sstat(l, run->o, timeout);
		for (size_t i = 0; l->why.len > 0 && i < l->n; i++)
			l->v[i].why = sp_buf_str(&l->why);
		say_why(l);
	}
	write_all(run);
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].jobid);
		free(l->v[i].raw);
		free(l->v[i].step);
	}
	fclose(l->spool);
	free(l->v);
	sp_buf_free(&l->line);
	sp_buf_free(&l->why);
	sp_buf_free(&l->at);
	free(l);
	run->live = NULL;
}
