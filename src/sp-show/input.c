/*
 * input.c - sp-show's two passes over its inputs.  The first checks
 * every record and feeds the node history (a job's note needs the whole
 * window before the first job is shown); the second holds each wanted
 * allocation with the step records that follow it and hands it on.  A
 * pipe is spooled to a file so that it can be read twice.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "show.h"
#include "sp_advice.h"

/* ------------------------------------------------------------------ */
/* Held records                                                       */

static void
rec_take(struct rec *dst, const struct sp_reader *r,
	 const struct sp_jobcols *cols)
{
	struct sp_reader shim;

	sp_buf_clear(&dst->arena);
	dst->nf = r->ncols;
	dst->off = sp_xrealloc(dst->off, (r->ncols + 1) * sizeof *dst->off);
	dst->f = sp_xrealloc(dst->f, (r->ncols + 1) * sizeof *dst->f);
	for (size_t i = 0; i < r->ncols; i++) {
		dst->off[i] = dst->arena.len;
		sp_buf_add(&dst->arena, r->f[i].p, r->f[i].n);
		sp_buf_addc(&dst->arena, '\0');
	}
	/* The arena is complete: slices into it stay put from here. */
	for (size_t i = 0; i < r->ncols; i++) {
		dst->f[i].p = dst->arena.p + dst->off[i];
		dst->f[i].n = r->f[i].n;
	}
	/* The record was checked on the first pass; parse the copy. */
	memset(&shim, 0, sizeof shim);
	shim.f = dst->f;
	shim.ncols = dst->nf;
	shim.name = r->name;
	shim.line = r->line;
	sp_job_parse(&dst->j, cols, &shim);
	sp_buf_free(&shim.err);
}

static void
rec_free(struct rec *r)
{
	sp_buf_free(&r->arena);
	free(r->off);
	free(r->f);
	memset(r, 0, sizeof *r);
}

static void
held_free(struct held *h)
{
	rec_free(&h->alloc);
	for (size_t i = 0; i < h->cap; i++)
		rec_free(&h->steps[i]);
	free(h->steps);
	memset(h, 0, sizeof *h);
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                      */

/* Whether -j asks for the record; *spec: the first id that names it. */
static int
wanted(struct opts *o, const struct sp_job *j, int *spec)
{
	*spec = -1;
	if (o->ids.n == 0)
		return 1;
	*spec = (int)sp_jobspec_find(&o->ids, j, o->id_seen);
	return *spec >= 0;
}

static int
same_job(const struct sp_job *step, const struct sp_job *alloc)
{
	return (step->jobid.n > 0 && step->jobid.n == alloc->jobid.n &&
		memcmp(step->jobid.p, alloc->jobid.p, step->jobid.n) == 0) ||
	       (step->jobid_raw.n > 0 && step->jobid_raw.n ==
		alloc->jobid_raw.n && memcmp(step->jobid_raw.p,
		alloc->jobid_raw.p, step->jobid_raw.n) == 0);
}

/* ------------------------------------------------------------------ */
/* The two passes                                                     */

static void
spool_write(FILE *spool, const char *p, size_t n)
{
	if (n > 0 && fwrite(p, 1, n, spool) != n)
		sp_die(SP_EXIT_USAGE, "spool file:");
}

/*
 * The inputs as the first pass found them, for the second to read again:
 * each file's identity, size and time (standard input's for "-"), and
 * where standard input stood (-1 when it is not read).
 */
struct reread {
	struct stat *st;
	size_t n;
	off_t stdin_at;
};

static int
input_stat(const char *path, struct stat *st)
{
	if (strcmp(path, "-") == 0)
		return fstat(STDIN_FILENO, st);
	return stat(path, st);
}

/*
 * Whether the second pass can read the inputs again where they lie:
 * regular files only (a pipe is gone once read).  Standard input, when
 * it is one of them, is read again from where it stood.
 */
static int
rereadable(char **files, size_t nfiles, struct reread *rr)
{
	static char *only_stdin[] = { "-" };

	if (nfiles == 0) {
		files = only_stdin;
		nfiles = 1;
	}
	rr->st = sp_xcalloc(nfiles, sizeof *rr->st);
	rr->n = nfiles;
	rr->stdin_at = -1;
	for (size_t i = 0; i < nfiles; i++) {
		if (input_stat(files[i], &rr->st[i]) != 0 ||
		    !S_ISREG(rr->st[i].st_mode))
			return 0;
		if (strcmp(files[i], "-") == 0) {
			rr->stdin_at = lseek(STDIN_FILENO, 0, SEEK_CUR);
			if (rr->stdin_at < 0)
				return 0;
		}
	}
	return 1;
}

/* A file that changed between the passes would give records unchecked. */
static void
same_inputs_or_die(char **files, size_t nfiles, const struct reread *rr)
{
	static char *only_stdin[] = { "-" };
	struct stat now;

	if (nfiles == 0)
		files = only_stdin;
	for (size_t i = 0; i < rr->n; i++) {
		const struct stat *then = &rr->st[i];
		const char *name = strcmp(files[i], "-") == 0 ? "<stdin>" :
		    files[i];

		if (input_stat(files[i], &now) != 0 ||
		    now.st_dev != then->st_dev || now.st_ino != then->st_ino ||
		    now.st_size != then->st_size ||
		    now.st_mtim.tv_sec != then->st_mtim.tv_sec ||
		    now.st_mtim.tv_nsec != then->st_mtim.tv_nsec)
			sp_die(SP_EXIT_USAGE, "%s: changed while it was read "
			       "(read a copy, or through a pipe)", name);
	}
}

/* The current record, whole, as one write to the spool. */
static void
spool_record(FILE *spool, struct sp_buf *line, char *const *f_or_cols,
	     const struct sp_slice *f, size_t n)
{
	sp_buf_clear(line);
	for (size_t i = 0; i < n; i++) {
		if (i)
			sp_buf_addc(line, '\t');
		if (f != NULL)
			sp_buf_add(line, f[i].p, f[i].n);
		else
			sp_buf_adds(line, f_or_cols[i]);
	}
	sp_buf_addc(line, '\n');
	spool_write(spool, line->p, line->len);
}

/*
 * First pass: every record is checked and every allocation feeds the
 * node history (the note needs the whole window before the first job).
 * When the inputs cannot be read twice, the records also go to a spool
 * the second pass reads back; spool is NULL otherwise.
 */
static void
first_pass(struct run *R, char **files, size_t nfiles, FILE *spool)
{
	struct sp_reader r;
	struct sp_jobcols cols;
	struct sp_job j;
	struct sp_buf line = { 0 };
	unsigned seen = 0;

	sp_open_or_die(&r, files, nfiles);
	sp_jobcols_need(&r, "sp-fetch", "jobid", "state", NULL);
	sp_jobcols_resolve(&cols, &r);
	R->have_workloads = cols.workload_key >= 0;
	R->workloads.missing = sp_cols_missing(&cols);
	if (spool != NULL)
		spool_record(spool, &line, r.cols, NULL, r.ncols);
	while (sp_next_or_die(&r)) {
		sp_job_parse(&j, &cols, &r);
		sp_cols_seen(&cols, &r, &seen);
		if (!sp_job_is_step(&j))
			sp_node_history_add(R->history, &j);
		if (R->have_workloads) {
			sp_bt_keep(&R->risks.in, &j);
			sp_histset_add(&R->workloads,
				       sp_histset_find(&R->workloads,
						       j.workload_key.p,
						       j.workload_key.n), &j);
			sp_nodes_add(R->nodes, &j);
		}
		if (spool != NULL)
			spool_record(spool, &line, NULL, r.f, r.ncols);
	}
	sp_reader_close(&r);
	sp_buf_free(&line);
	/* A column every run has, never filled, is missing too (as sp-size
	 * reads it). */
	R->workloads.missing = sp_cols_unseen(&cols, seen);
	R->workloads.empty = sp_cols_empty(&cols, seen);
	sp_histset_finish(&R->workloads);
	sp_wl_memo_init(&R->memo, &R->workloads, R->nodes, &R->site);
	if (R->have_workloads) {
		sp_bt_risks_run(&R->risks, &R->site, R->workloads.missing);
		R->workloads.risks = &R->risks;
	}
	if (spool == NULL)
		return;
	if (fflush(spool) != 0 || ferror(spool))
		sp_die(SP_EXIT_USAGE, "spool file:");
	rewind(spool);
}

/* The second pass's reader: the spool, or the inputs once more. */
static void
reopen(struct run *R, char **files, size_t nfiles, FILE *spool,
       const struct reread *rr)
{
	if (spool != NULL) {
		if (sp_reader_open_stream(&R->r, spool, "<spool>") != 0)
			sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&R->r.err));
		return;
	}
	same_inputs_or_die(files, nfiles, rr);
	if (rr->stdin_at >= 0 &&
	    lseek(STDIN_FILENO, rr->stdin_at, SEEK_SET) < 0)
		sp_die(SP_EXIT_USAGE, "<stdin>: cannot read it again:");
	sp_open_or_die(&R->r, files, nfiles);
}

typedef void show_fn(struct run *, struct held *);

static void
finish_held(struct run *R, struct held *h, show_fn *show)
{
	if (h->active)
		show(R, h);
	h->active = 0;
	h->nsteps = 0;
}

static void
second_pass(struct run *R, show_fn *show)
{
	struct held h;
	struct sp_job j;

	memset(&h, 0, sizeof h);
	sp_jobcols_resolve(&R->cols, &R->r);
	while (sp_next_or_die(&R->r)) {
		sp_job_parse(&j, &R->cols, &R->r);
		if (!sp_job_is_step(&j)) {
			finish_held(R, &h, show);
			if (!wanted(R->o, &j, &h.spec))
				continue;
			rec_take(&h.alloc, &R->r, &R->cols);
			h.active = 1;
		} else if (h.active && same_job(&j, &h.alloc.j)) {
			if (h.nsteps == h.cap) {
				size_t old = h.cap;

				h.steps = sp_xgrow(h.steps, &h.cap,
						   h.nsteps + 1,
						   sizeof *h.steps);
				memset(h.steps + old, 0,
				       (h.cap - old) * sizeof *h.steps);
			}
			rec_take(&h.steps[h.nsteps++], &R->r, &R->cols);
		}
	}
	finish_held(R, &h, show);
	held_free(&h);
}

char *
input_missing_ids(const struct opts *o)
{
	struct sp_buf missing = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < o->ids.n; i++) {
		if (o->id_seen[i])
			continue;
		if (n++)
			sp_buf_adds(&missing, ", ");
		sp_buf_adds(&missing, o->ids.v[i].text);
	}
	return missing.p;
}


void
input_first(struct run *R, char **files, size_t nfiles)
{
	struct reread rr;

	R->spool = NULL;
	if (!rereadable(files, nfiles, &rr))
		R->spool = sp_spool_open();
	first_pass(R, files, nfiles, R->spool);
	reopen(R, files, nfiles, R->spool, &rr);
	free(rr.st);
}

void
input_second(struct run *R, show_fn *show)
{
	second_pass(R, show);
	sp_reader_close(&R->r);
	if (R->spool != NULL)
		fclose(R->spool);
	R->spool = NULL;
}
