/*
 * front.h - the front door's own parts: what was asked (options.c), the
 * stages run and collected (stages.c), the window read once and viewed
 * (fetch.c), the sections (sections.c) and how the answer is shown
 * (outputs.c).
 *
 * Every rule, threshold and state list lives in the stages; the front
 * door only chooses which of them run, runs the independent ones side by
 * side, and puts their sections together.  A stage that fails gives its
 * own one line on standard error (as ours) and exit status 2, never half
 * a screen.  Every value from the command line reaches a stage as one
 * argument of execvp: nothing is read by a shell.
 */
#ifndef SP_FRONT_H
#define SP_FRONT_H

#include <stdio.h>
#include <sys/types.h>

#include "sp_util.h"

/* The sections, in the one order they are shown, whatever the order asked. */
enum section {
	SEC_OVERVIEW, SEC_RUNNING, SEC_PATTERNS, SEC_PROBLEMS, SEC_HANGS,
	SEC_NODES, SEC_SIZING, SEC_COST, SEC_BACKTEST, SEC_ADVICE, SEC_COUNT
};

/* A growable argument vector, NULL-terminated for execvp. */
struct args {
	char **v;
	size_t n, cap;
};

void args_add(struct args *a, const char *s);
void args_addf(struct args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void args_free(struct args *a);

/* A list of words given one at a time (--log-dir, --attribute paths). */
struct words {
	char **v;
	size_t n, cap;
};

struct front {
	/* The window: which history is read. */
	const char *user, *since, *until, *clusters;
	int all_users, all_clusters;
	/* The view: which jobs and workloads are shown. */
	const char *partition, *account, *state, *names, *nodelist, *qos,
		*not_state;
	int failed, attributed;
	struct sp_buf ids;		/* job ids, comma-separated */
	/* What is shown and how. */
	int sections[SEC_COUNT];	/* asked for (1), then to show */
	int any_section, default_screen;
	const char *top, *sort, *metric, *width;
	int all_workloads, json, plain, html, table, csv, no_color, ascii,
		no_pager, no_logs;
	const char *html_out;
	struct words log_dirs, sources;
	int attribute;
	/* The history. */
	int demo, site;
	const char *input, *input_name, *fields;
	/* --advise FILE [--diff | --in-place] [--add]. */
	const char *advise, *advise_out;
	int advise_add;

	/* Worked out from the above. */
	int view;			/* a view option was given */
	int fixed;			/* the demo or a saved dump */
	int live;			/* sacct's jobs running now read live */
	int running_now, running_started;
	int tty, color, table_records;
	const char *out;		/* --plain or --json, for the parts */
	char *demo_now;			/* the demo's clock, with a window */
	int critical;			/* a critical finding shown: exit 1 */

	/* Where the stages' files are. */
	char *tmp;
	const char *judged, *shown;		/* the grouped records, viewed */
	const char *findings_stage;	/* the stage that writes findings */
	pid_t chain_pid;		/* the problem jobs' chain */
};

extern struct front F;

/* options.c */
void front_parse(int argc, char **argv);
void front_check(void);
void front_check_values(void);
void front_derive(void);
void front_view_args(struct args *a);
void front_view_words(struct sp_buf *b);
void front_log_args(struct args *a);

/* stages.c */
const char *tmp_path(const char *name);
const char *stage_find(const char *name, const char *errfile);
void stages_init(const char *argv0);
void stages_stop(void);
int run(const char *out, const char *in, struct args *a);
void start(const char *out, const char *in, struct args *a);
int collect(const char *out);
int settle(const char *name, int status, const char *errfile);
void failed(const char *name, int status, const char *errfile)
	__attribute__((noreturn));
int stage_fd(int in, int out, int err, struct args *a, const char *errfile);
pid_t spawn(const char *path, struct args *a, int in, int out, int err);
pid_t spawn_at(const char *dir, const char *path, struct args *a, int in,
	       int out, int err);
void stages_forget(void);
void child_track(pid_t pid);
int open_or_die(const char *path, int flags);
void warnings_all(void);
const char *warnings_text(void);
int wait_status(pid_t pid);
void as_ours_file(const char *path, FILE *to);
void warnings(void);
void chain_record(const char *out, int status, const char *name);
int no_records(const char *path);
void put(const char *path);

/* fetch.c */
void demo_clock(void);
void fetch(void);
void empty_window(void);
void view(void);
void nothing_said(void) __attribute__((noreturn));
void source_words(struct sp_buf *b, struct sp_buf *window);

/* sections.c */
void start_stages(void);
void nothing_ended(void);
void demo_label(FILE *out);
void section(enum section s, FILE *out);
void section_headline(FILE *out);

/* outputs.c */
void show_jobs(void) __attribute__((noreturn));
void table_jobs(void) __attribute__((noreturn));
void advise_script(void) __attribute__((noreturn));
void browse_dashboard(void) __attribute__((noreturn));
void screen(void) __attribute__((noreturn));
void html_page(void) __attribute__((noreturn));
void json(void) __attribute__((noreturn));

#endif
