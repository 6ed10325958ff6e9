/*
 * fetch.h - sp-fetch's parts: the options and the run every file shares
 * (sp-fetch.c: options, records, --input, --demo), asking sacct
 * (sacct.c), choosing records as sacct would (select.c), saying what was
 * read (report.c), and the site facts (site.c).
 */
#ifndef SP_FETCH_H
#define SP_FETCH_H

#include <stdio.h>
#include "sp_exec.h"
#include "sp_sacct.h"
#include "sp_select.h"

#define FETCH_READ_CHUNK (1 << 20)
/* The window when none is given (sacct's own is today since midnight). */
#define FETCH_DEFAULT_SINCE "now-7days"

/* The options, as given; sacct's selection with sacct's meaning. */
struct fetch_opts {
	const char *user;	/* -u */
	int all_users;		/* -a */
	const char *since;	/* -S, a bare -7days made now-7days */
	const char *until;	/* -E */
	const char *partition;	/* -r */
	const char *account;	/* -A */
	const char *state;	/* -s */
	int failed;		/* --failed */
	const char *names;	/* --name */
	const char *nodes;	/* -N */
	const char *qos;	/* -q */
	const char *clusters;	/* -M */
	int all_clusters;	/* -L */
	const char *jobs;	/* -j */
	int allocations;	/* -X: what the records are anyway */
	int steps;
	const char *input;
	const char *fields;
	int demo;
	long demo_jobs;
	int demo_sacct;
	int demo_clock;		/* --demo-clock */
	const char *stats;	/* --stats: where the counts go */
	const char *site;	/* --site: where the site facts go */
	int local_site;		/* --local-site: a dump of this cluster */
	int refresh;		/* --refresh: the store not read */
	int no_cache;		/* --no-cache: no store at all */
	const char *transcripts;	/* --transcripts: the demo's sources */
	int live;		/* --live: sstat's figures beside */
	int verbose;
	int format_set;
	enum sp_format fmt;
	struct sp_buf since_buf;
	struct sp_buf user_buf;
};

struct fetch_store;

/* Everything one run writes through. */
struct fetch_run {
	const struct fetch_opts *o;
	struct sp_writer w;
	int header_done;
	unsigned long records;	/* allocation records written */
	unsigned long unselected;	/* records the selection left out */
	FILE *stats;		/* --stats, or NULL */
	/* The selection applied to the records (select.c). */
	struct sp_select sel;
	int selecting;
	int alloc_kept;		/* the last allocation was selected */
	struct sp_buf enc;	/* record-form text while matching */
	struct sp_buf line;	/* the TSV record being written */
	struct sp_buf *out;	/* where TSV records go; NULL: stdout */
	struct demo_transcripts *transcripts;	/* --transcripts, or NULL */
	struct fetch_live *live;	/* --live, or NULL */
	/* From sacct (settling 1): a job that ended after settle_after
	 * (civil time) with no CPU time has its usage not yet recorded. */
	int settling;
	int64_t settle_after;
	unsigned long unsettled;	/* such jobs written */
	int last_unsettled;		/* the last allocation was one */
};

/* records.c */
/*
 * The record as a TSV line, appended to b: the bytes sp_writer gives
 * (escapes, numbers), written without it, a field at a time being most
 * of the cost of writing.
 */
void fetch_tsv_record(struct sp_buf *b, const struct sp_sacct_rec *rec);
/* The record through the writer (--plain, --json, --csv). */
void fetch_writer_record(struct sp_writer *w, const struct sp_sacct_rec *rec);
/* The header line, once, before the first record (or at the end). */
void fetch_header(struct fetch_run *run);

/* emit.c */
/* The parser, set up to hand each record to the run. */
void fetch_parser_init(struct sp_sacct *ps, struct fetch_run *run,
		       int delim, const char *fields);
/* -v: the delimiter a dump was read with. */
void fetch_say_delimiter(const struct sp_sacct *ps, const char *name);
/* A fixed history without a record to write: what was asked, said. */
void fetch_none_in(const struct fetch_run *run, const char *what);
/* What the parser met, said; --stats written.  Dies if that fails. */
void fetch_said(struct fetch_run *run, const struct sp_sacct *ps);

/* parallel.c */
/*
 * --input of a regular file, read in parts at once (one per core, at
 * most four) and written in the file's order, the same bytes one core
 * writes.  Returns 0 when it read the file, 1 when it is not for parts
 * (a pipe, a small file, CSV, an output other than TSV, one core): read
 * it on one core.
 */
int fetch_input_parallel(struct fetch_run *run, int fd, const char *name);

/* sacct.c */
/*
 * Reads a child's stdout through a store (store.c; fetch_store_begin
 * with ordered 0 passes it straight to the parser).  Returns 0 when the
 * whole stream was read and the child succeeded (the last group is
 * written), else -1 with the group in progress dropped; *bytes says how
 * much came.
 */
int fetch_read_store(struct sp_exec *x, struct fetch_store *st,
		     size_t *bytes);
/* The one sacct query, its records written; dies (exit 2) if it fails. */
void fetch_sacct(struct fetch_run *run, double timeout, const char *user,
		 const char *since, const char *jobs);

/* select.c */
/*
 * Sets up the selection the options make over records already fetched
 * (--input, --demo: every option; from sacct: -j's exact ids, sacct
 * having chosen the rest).  Dies (exit 2) on a value that is no use.
 */
void fetch_select_init(struct fetch_run *run, int fixed);
/* 1 when the record is selected (a step: when its allocation was). */
int fetch_selected(struct fetch_run *run, const struct sp_sacct_rec *rec);
void fetch_select_free(struct fetch_run *run);

/* report.c */
/*
 * Everything the parser counted, each kind one line on standard error
 * when it happened ("sp-fetch: read 846 rows short of ..."), and, with
 * stats not NULL, every kind as a row of a small record file (key,
 * count, message: sp-fetch(1), --stats).  unselected is the number of
 * records the selection left out, unsettled the jobs whose usage was
 * not yet recorded.  Returns 0, or -1 when writing stats failed.
 */
int fetch_report(const struct sp_sacct *ps, unsigned long records,
		 unsigned long unselected, unsigned long unsettled,
		 FILE *stats);

/*
 * store.c: what sacct answers, units put in Submit order (ties by
 * cluster and JobIDRaw), merged with the store of finished records.
 */
struct unit;
struct fetch_store {
	struct fetch_run *run;
	struct sp_sacct probe;		/* the columns of sacct's answer */
	struct sp_sacct *ps;		/* where the units go */
	int ordering;			/* units put in order (0x1F answers) */
	int enabled;			/* a store is read and written */
	struct sp_buf key, pathb;
	const char *path;
	const char *ask_since;		/* -S to ask sacct */
	struct sp_buf since_text;
	int64_t now, since;		/* the window asked: [since, now] */
	int64_t cut;			/* units that ended before: settled */
	int64_t old_since, old_asked, new_since;
	struct sp_select window;	/* the window, and -s's states */
	int filter_new;			/* sacct asked wider than the window */
	FILE *old;
	struct unit *oldnext;
	struct unit **sec;		/* the units of one Submit second */
	size_t nsec, seccap;
	int unsorted;
	struct unit *cur;		/* the unit being read */
	struct sp_buf job, partial;
	FILE *tmp;			/* the new store */
	char *tmppath;
	unsigned long units;
};

/*
 * Works out whether the query has a store (the options, the window,
 * --refresh, --no-cache, SLURMPAST_NO_CACHE) and opens it; ask_since is
 * then the -S to ask sacct (the store's last query less the overlap, or
 * since as given).  format is the --format list asked.
 */
void fetch_store_init(struct fetch_store *st, struct fetch_run *run,
		      const char *user, const char *since, const char *format);
/* Where the answer goes (ordered 0: straight to the parser, as read). */
void fetch_store_begin(struct fetch_store *st, struct sp_sacct *ps,
		       int ordered);
/* sacct's bytes; its records reach ps in order, the store's between. */
int fetch_store_feed(struct fetch_store *st, const char *buf, size_t n);
/* The answer is whole: the rest written, the new store renamed in. */
int fetch_store_finish(struct fetch_store *st);
/* sacct failed: nothing more written, no new store. */
void fetch_store_abandon(struct fetch_store *st);
void fetch_store_free(struct fetch_store *st);

/* site.c: --site FILE, the site facts asked beside sacct. */
struct fetch_site {
	const char *path;	/* NULL: no --site */
	const char *cluster;	/* -M, NULL: this one */
	struct sp_exec x;	/* the child asking */
	int running;
};

/*
 * Starts asking (ask 0: nothing to ask, every fact written unknown).
 * Dies (exit 2) when it cannot start.
 */
void fetch_site_start(struct fetch_site *fs, const char *path,
		      const char *cluster, int ask);
/*
 * Waits for the answer: FILE is written; one line on stderr names the
 * facts not had.  Dies (exit 2) when FILE could not be written.
 */
void fetch_site_finish(struct fetch_site *fs);

/*
 * live.c: sp-fetch --live.  Between begin and finish every record goes
 * to a spool instead of standard output, the running ones noted;
 * finish asks sstat once (within timeout, at most SP_LIVE_TIMEOUT_S),
 * says why figures are missing, and writes the header and every record
 * with its live columns.  Dies (exit 2) when the spool or standard
 * output fails.
 */
struct fetch_live;
void fetch_live_begin(struct fetch_run *run);
void fetch_live_record(struct fetch_run *run, const struct sp_sacct_rec *rec);
void fetch_live_finish(struct fetch_run *run, double timeout);

/*
 * sp-fetch --demo --transcripts DIR (transcripts.c): Claude Code session
 * transcripts, a driver's log and a shell history for part of the demo
 * history, written from its records as they go by.  Dies (exit 2) when a
 * file cannot be written.
 */
struct demo_transcripts;
struct demo_transcripts *transcripts_open(const char *dir);
void transcripts_job(struct demo_transcripts *t,
		     const struct sp_sacct_rec *rec);
void transcripts_close(struct demo_transcripts *t);

#endif
