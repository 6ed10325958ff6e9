/*
 * report.h - what the files of sp-report share: its options, the inputs
 * it reads by their role, and the text it lays out.  Nothing here is
 * used by another program.
 */
#ifndef SP_REPORT_REPORT_H
#define SP_REPORT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "sp.h"
#include "sp_intern.h"

/* The records a part reads, each named by an option. */
enum role { IN_ROLLUP, IN_HANGSUM, IN_FINDINGS, IN_ADVICE, IN_HANGS,
	    IN_FAILED, IN_JOBFINDINGS, IN_EXCLUDE, IN_FETCHSTATS,
	    IN_SHOWN, IN_SOURCES, IN_RUNNING, IN_N };

struct opts {
	const char *part;
	const char *in[IN_N];
	enum sp_format fmt;
	int fmt_given;
	long top;		/* -1: the part's own default */
	const char *more;	/* what to run to see the rest */
	size_t width;		/* 0: as the output allows */
	/* headline */
	const char *view;
	const char *source;
	/* problems */
	int failed_only;
	int ids;
	int keys;
	const char *keys_to;	/* with ids: the keys into this file */
	/* advice */
	int all;
	/* screen */
	int color;
	int no_pager;
	const char **files;
	size_t nfiles;
};

/* Opens the input of a role, or dies naming the option that gives it. */
void input_open(struct sp_reader *r, const struct opts *o, enum role role);
const char *role_option(enum role role);

/*
 * A workload's name for people, by workload_key: its label, and whose it
 * is when the rollup holds several users.
 */
struct labels {
	struct sp_intern keys;
	char **label;		/* by key number */
	unsigned char *shared;	/* by key number: another key of its user
				 * has its label, in its partition too (1)
				 * or only in others (2) */
	size_t cap, sharedcap;
	int several_users;
};

void labels_load(struct labels *l, const struct opts *o);
/*
 * Appends the name of key (its workload, when the rollup lacks it), with
 * its user when the window has several, and, when another workload of
 * that user has the same name, its partition (or its key) as well.
 */
void labels_name(const struct labels *l, struct sp_buf *b,
		 struct sp_slice key, struct sp_slice workload);
void labels_free(struct labels *l);

/* The highest severity of a workload's findings across runs: 0 none,
 * 1 info, 2 warning, 3 critical. */
struct severities {
	struct sp_intern keys;
	unsigned char *sev;
	size_t cap;
	int worst;
};

void severities_load(struct severities *s, const struct opts *o);
int severity_of(const struct severities *s, struct sp_slice key);
int severity_rank(struct sp_slice name);
const char *severity_word(int rank);
void severities_free(struct severities *s);

/* A whole file of text, NUL-terminated; dies naming it if unreadable. */
char *slurp(const char *path, size_t *len);
/* The number of a field, NaN when empty or not a number. */
double field_num(struct sp_slice f);
/* The text of a field, decoded and made safe to show, appended. */
void field_text(struct sp_buf *b, struct sp_slice f);
/* The same with its line breaks kept, each next line after indent. */
void field_lines(struct sp_buf *b, struct sp_slice f, const char *indent);
/* How many of the part's records to show: --top, or its default. */
size_t top_of(const struct opts *o, size_t dflt);
/* A writer for the part's --plain table, fitted to --width. */
void table_start(struct sp_writer *w, const struct opts *o,
		 const char *const *cols);

/*
 * Where the runs came from (sp-group --rollup --by source over sp-attr's
 * records): the runs of every source, of the sessions and of the other
 * files, and how many sessions and files.
 */
struct split {
	long runs, attributed;
	long session_runs, sessions;
	long file_runs, files;
};

void split_load(struct split *s, const struct opts *o);
/* "7 of 10 allocations are attributable: 6 to 1 session, 1 to a log." */
void split_text(struct sp_buf *b, const struct split *s);
/* A source for people: "session 8065b7fa", a path, "(no source)". */
void source_name(struct sp_buf *b, struct sp_slice source);

/* The lines that leave machines out; always: also the line that says
 * why there are none. */
void exclude_lines(const struct opts *o, int always);

/*
 * The records themselves, the first --top of them (all by default), as
 * --tsv, --json or --csv; returns the highest severity written (0 to 3).
 */
int severity_records(struct sp_reader *r, const struct opts *o);

/* The parts; each returns the exit status. */
int part_headline(const struct opts *o);
int part_workloads(const struct opts *o);
int part_findings(const struct opts *o);
int part_problems(const struct opts *o);
int part_advice(const struct opts *o);
int part_exclude(const struct opts *o);
int part_sources(const struct opts *o);
int part_running(const struct opts *o);
int part_screen(const struct opts *o);

#endif
