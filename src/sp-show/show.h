/*
 * show.h - what the files of sp-show share: its options, the records it
 * holds while it reads, and the run's state.  Nothing here is used by
 * another program; the drawing of one post-mortem is the library's
 * (sp_postmortem.h), for the dashboard draws it too.
 */
#ifndef SP_SHOW_SHOW_H
#define SP_SHOW_SHOW_H

#include <stddef.h>
#include <stdio.h>

#include "sp.h"
#include "sp_rules_job.h"
#include "sp_histset.h"
#include "sp_jobspec.h"
#include "sp_logs.h"
#include "sp_nodes.h"
#include "sp_opt.h"
#include "sp_backtest.h"
#include "sp_site.h"
#include "sp_term.h"
#include "sp_verdict.h"

/* What is shown; each in the format of fmt. */
enum mode { MODE_VIEW, MODE_FINDINGS, MODE_TABLE };

struct opts {
	enum mode mode;
	enum sp_format fmt;	/* the view: plain or JSON */
	int fmt_set;
	struct sp_jobspec ids;	/* job ids asked for, none: every job */
	unsigned char *id_seen;	/* per id: a record matched it */
	struct sp_log_opts logs;	/* --no-logs, --log-dir */
	int all;		/* --all: every field, the steps */
	int no_pager;
	struct sp_term_opts term;	/* --ascii, --no-color */
	int width;
};

/* A record held past the reader's next line: its own copy of each field. */
struct rec {
	struct sp_buf arena;
	size_t *off;
	struct sp_slice *f;
	size_t nf;
	struct sp_job j;
};

/* An allocation with the step records that followed it. */
struct held {
	struct rec alloc;
	struct rec *steps;
	size_t nsteps;
	size_t cap;
	int active;
	int spec;		/* the first -j id naming it; -1 without -j */
};

/* An aligned table of text cells, fitted to the window (table.c). */
struct table {
	const char *const *names;	/* the header */
	const int *right;		/* per column: align right */
	size_t ncols;
	char **cells;			/* row after row, owned */
	size_t nrows;
	size_t cap;
};

struct array;

/* Everything that lives for the whole run. */
struct run {
	struct opts *o;
	struct sp_reader r;	/* the second pass */
	FILE *spool;		/* what it reads, when the inputs cannot */
	struct sp_jobcols cols;
	struct sp_site site;
	struct sp_logctx logctx;
	struct sp_node_history *history;
	/* Every workload of the input (sp-group's workload_key): the
	 * figures a job's findings name are its workload's advice. */
	struct sp_histset workloads;
	int have_workloads;
	/* Every record's placements (the hang metric, as sp-size judges
	 * machines) and each workload's advice, made once. */
	struct sp_nodes *nodes;
	struct sp_wl_memo memo;
	/* Its runs, replayed: the risk beside each advice (sp_backtest.h). */
	struct sp_bt_risks risks;
	struct sp_term term;
	enum sp_format fmt;	/* of the output */
	struct sp_writer w;	/* --findings, --table */
	struct table table;	/* --table --plain */
	struct array *arrays;	/* arrays asked for by their own id */
	size_t narrays;
	size_t arrayscap;
	size_t shown;
	int worst;
	struct sp_buf out;	/* one job's rendering */
};

/* The job's analysis, as every output reads it. */
struct shown {
	const struct held *h;
	const struct sp_job *steps;	/* h's steps, parsed */
	const struct sp_jobcalc *calc;
	const struct sp_logs *logs;
	const struct sp_findings *findings;
};

/* table.c: a rule across the window before all but the first shown. */
void separate(const struct run *R, struct sp_buf *b);

/*
 * input.c: the first pass over the inputs (every record checked, the
 * node history fed), then the second, each wanted job to show().
 */
void input_first(struct run *R, char **files, size_t nfiles);
void input_second(struct run *R, void (*show)(struct run *, struct held *));
/* The ids asked for that no record matched, comma-separated, or NULL. */
char *input_missing_ids(const struct opts *o);

/* json.c: one JSON line for the job, into R->out. */
void json_job(struct run *R, const struct shown *s);

/* findings.c: --findings, the header and one job's rows. */
void findings_header(struct run *R);
void findings_rows(struct run *R, const struct shown *s);

/* table.c: the aligned table, and --table. */
enum { NTABLE_COLS = 9 };
extern const char *const table_names[NTABLE_COLS];
extern const int table_right[NTABLE_COLS];
void table_init(struct table *t, const char *const *names, const int *right,
		size_t ncols);
/* Takes the ncols cells (malloc'ed strings) of one row. */
void table_add(struct table *t, char **cells);
void table_draw(const struct table *t, const struct sp_term *term,
		struct sp_buf *out);
void table_free(struct table *t);
/* A job's row for people, NTABLE_COLS malloc'ed strings. */
void table_cells(const struct sp_term *term, const struct sp_job *j,
		 const struct sp_jobcalc *c, char **cells);
void jobtable_begin(struct run *R);
void jobtable_row(struct run *R, const struct shown *s);
void jobtable_end(struct run *R);

/* array.c: an array named by its own id, shown as one. */
int array_member(const struct run *R, const struct held *h);
void array_add(struct run *R, const struct shown *s);
void array_draw_all(struct run *R);

#endif
