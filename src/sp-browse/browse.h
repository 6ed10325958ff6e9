/*
 * browse.h - what the files of sp-browse share.
 *
 * The model (model.c) holds every record of the input and what the
 * library says of it: the rollup, each workload's history, the node
 * tables.  The screens are views in the manner of tig: one file each,
 * one struct view with its position, a struct view_ops table saying how
 * it counts, draws and answers requests, and a key map that is data
 * (keys.c).  ui.c draws whichever view is on top through ncurses and
 * runs the loop; plain.c writes the first screen as text where there is
 * no terminal to browse on.  Nothing here is used by another program.
 */
#ifndef SP_BROWSE_H
#define SP_BROWSE_H

#include <stddef.h>
#include <stdint.h>

#include "sp.h"
#include "sp_advice.h"
#include "sp_headline.h"
#include "sp_backtest.h"
#include "sp_histset.h"
#include "sp_intern.h"
#include "sp_live.h"
#include "sp_logs.h"
#include "sp_nodes.h"
#include "sp_postmortem.h"
#include "sp_rollup.h"
#include "sp_rules_history.h"
#include "sp_rules_job.h"
#include "sp_rules_live.h"
#include "sp_opt.h"
#include "sp_site.h"
#include "sp_term.h"
#include "sp_verdict.h"

/* ------------------------------------------------------------ options */

struct opts {
	int plain;		/* the text, never the dashboard */
	int next;		/* --next: each workload's next: line */
	const char *source;	/* where the records came from, in words */
	struct sp_term_opts term;	/* --ascii, --no-color */
	struct sp_log_opts logs;	/* --no-logs, --log-dir */
	char **files;
	size_t nfiles;
};

/* -------------------------------------------------------------- model */

/* One allocation record, kept as read: its fields one after another,
 * each ending in a NUL, then those of its step records, if any. */
struct rec {
	size_t off;		/* in the arena */
	uint32_t nsteps;
	int32_t wl;		/* its workload's number, -1 not a run */
};

/* What the screens need of one workload beyond its rollup row. */
struct wlinfo {
	long hist;		/* its number in the history set, -1 none */
	size_t run0, nruns;	/* its runs in model.runs, newest first */
	int sev;		/* its worst finding across runs, -1 none */
	char *label;		/* made safe to draw */
	char *user;		/* made safe to draw */
	char *part;
	size_t user_id, part_id;	/* in model.users, model.parts */
	size_t label_cells, user_cells, part_cells;
};

/* A record parsed back from the arena, with its steps. */
struct kept {
	struct sp_job job;
	struct sp_slice *f;		/* every field of the allocation */
	struct sp_job *steps;
	size_t nsteps, stepcap;
	struct sp_slice *scratch;	/* the fields of the step parsed last */
};

/* A job running now (sp-fetch --live): its record, its live columns, and
 * what its workload's history says it will do (sp_rules_live). */
struct live_job {
	size_t rec;
	int32_t wl;		/* its workload's number, -1 none */
	struct sp_job job;	/* slices into the arena */
	struct sp_live l;
	struct sp_findings warnings;	/* most severe first */
};

struct model {
	/* the input */
	char **cols;
	size_t ncols;
	struct sp_jobcols jc;
	char *arena;
	size_t arenalen, arenacap;
	struct rec *recs;
	size_t nrecs, reccap;
	long steps_dropped;	/* steps that did not follow their job */

	/* what the library makes of it */
	struct sp_rollup ru;
	struct wlinfo *info;		/* by rollup number */
	size_t *runs;			/* record numbers, by workload */
	struct sp_histset set;
	struct sp_nodes *nodes;		/* the hang metric, as sp-nodes */
	struct sp_wl_memo memo;		/* each workload's advice, once */
	struct sp_node_history *history;
	struct sp_site site;
	struct sp_logctx logctx;
	int no_logs;
	struct sp_intern users, parts;
	size_t *users_by_name, *parts_by_name;	/* their numbers, A to Z */

	/* the jobs running now, as the records came */
	struct sp_livecols livecols;	/* -1 each: not read with --live */
	struct live_job *live;
	size_t nlive, livecap;

	/* what a run's line shows, worked out when first drawn */
	signed char *worst;		/* -2 not yet, -1 none */
	const char **worst_code;

	/* the advice replayed out of sample (sp_backtest.h): the risk
	 * beside each advice and the headline's last line */
	struct sp_bt_risks bt;

	/* the headline's figures (sp_headline.h) */
	struct sp_headline head;
	const char **head_users;
	size_t nhead_users;
	int64_t first, last;
	int first_known, last_known;
	struct sp_buf head_first, head_last;
};

void model_load(struct model *m, const struct opts *o);
void model_free(struct model *m);
/* The rollup row and the rest of workload i (rollup number). */
const struct sp_rollup_wl *model_row(const struct model *m, size_t i);
/* The history of workload i, or NULL; valid until the next call. */
const struct sp_hist *model_hist(struct model *m, size_t i);
/* What the site tells the rules about workload i's history. */
void model_size_site(struct model *m, const struct sp_hist *h,
		     struct sp_size_site *out);
/* Record r parsed back into k (its buffers reused). */
void model_parse(struct model *m, size_t r, struct kept *k);
void kept_free(struct kept *k);
/* A job's figures, logs and findings, as sp-show works them out
 * (sp_analysis_free after). */
void model_analyse(struct model *m, const struct kept *k,
		   struct sp_analysis *a);
/* The worst one-job finding of record r: -1 none; *code its code. */
int model_worst(struct model *m, size_t r, const char **code);

/* --------------------------------------------------------------- text */

/* A field in record form, decoded and made safe to draw (appended). */
void text_field(const struct sp_term *t, struct sp_buf *b, struct sp_slice s);
/* Appends s padded with spaces (or cut) to exactly cells columns;
 * right-aligned when right. */
void text_cell(const struct sp_term *t, struct sp_buf *b, const char *s,
	       size_t n, size_t cells, int right);
/* Columns the clean text takes on the screen (wide glyphs two). */
size_t text_cells(const char *s, size_t n);
/* A title: head, then name cut with an ellipsis so that tail (clean
 * text, all three) still fits the width. */
void text_title(const struct sp_term *t, struct sp_buf *b, const char *head,
		const char *name, const char *tail);
/* The paint of a finding by its severity (-1: none). */
enum sp_paint text_pattern_paint(int sev);
/* Hours with one decimal, "n/a" unknown. */
void text_hours(struct sp_buf *b, double h, int known);

/* Text laid out once, read a line at a time (the panes of prose, the
 * post-mortem): every line ends in LF in text. */
struct lines {
	struct sp_buf text;
	size_t *start;
	size_t n, cap;
};

/* Indexes the lines of l->text (after it is written). */
void lines_index(struct lines *l);
/* Appends line i (without its LF). */
void lines_get(const struct lines *l, size_t i, struct sp_buf *b);
void lines_free(struct lines *l);

/* --------------------------------------------------------------- keys */

enum req {
	REQ_NONE, REQ_UP, REQ_DOWN, REQ_PGUP, REQ_PGDN, REQ_HOME, REQ_END,
	REQ_ENTER, REQ_BACK, REQ_QUIT, REQ_HELP, REQ_SORT, REQ_SORT_BACK,
	REQ_REVERSE, REQ_FILTER, REQ_SEARCH, REQ_NEXT, REQ_PREV, REQ_COPY,
	REQ_TAB, REQ_BACKTAB, REQ_PANE1, REQ_PANE2, REQ_PANE3, REQ_PANE4,
	REQ_REDRAW, REQ_RUNNING, REQ_N
};

/* The keys one request answers to, and what it does, in words. */
struct keyinfo {
	const char *keys;	/* "q Esc" */
	const char *brief;	/* the bottom line's word */
	const char *help;	/* the help screen's sentence */
};

/* The request a key makes (ncurses key codes), REQ_NONE for none. */
enum req key_request(int key);
const struct keyinfo *key_info(enum req r);
/* The widest list of keys (bytes, all ASCII). */
size_t key_width(void);
/* Every key and what it does, as --help lists them. */
void help_keys(FILE *f);

/* --------------------------------------------------------------- views */

struct browse;
struct view;

struct view_ops {
	const char *name;
	/* The requests the bottom line offers here, REQ_NONE-terminated. */
	const enum req *main_keys;
	/* The title: what the screen is about (appended). */
	void (*title)(struct view *v, struct sp_buf *b);
	/* Fixed lines under the title: how many, and line i into b. */
	size_t (*nheader)(struct view *v);
	void (*header)(struct view *v, size_t i, struct sp_buf *b);
	/* The body: how many lines, and line i into b. */
	size_t (*count)(struct view *v);
	void (*line)(struct view *v, size_t i, struct sp_buf *b);
	/* Whether line i holds text that matches needle (lower case). */
	int (*match)(struct view *v, size_t i, const char *needle);
	/* A request the frame does not answer itself: 1 when taken. */
	int (*request)(struct view *v, enum req r);
	/* The width changed: lay out again. */
	void (*relayout)(struct view *v);
	void (*free)(struct view *v);
};

struct view {
	const struct view_ops *ops;
	struct view *parent;	/* the view that opened it */
	struct browse *B;
	size_t top;		/* the first body line shown */
	size_t cur;		/* the selected line */
	int cursor;		/* 1: a line is selected; 0: the page scrolls */
	void *data;
};

struct browse {
	struct model *m;
	const struct opts *o;
	struct sp_term term;	/* width, colour and glyphs to draw with */
	struct view *view;	/* the one on top */
	int rows;		/* the terminal's size */
	struct sp_buf msg;	/* said on the bottom line until a key */
	struct sp_buf needle;	/* the last search, lower case */
	struct sp_buf copied;	/* #SBATCH lines to print at exit */
	int clipboard;		/* the terminal takes OSC 52 */
	struct sp_buf osc;	/* an OSC 52 sequence to send, once */
	int done;
};

/* stack.c: body lines the screen has room for under the view's header. */
size_t view_height(const struct view *v);
/* Pushes a view opened from the one on top. */
void view_push(struct browse *B, struct view *v);
/* Closes the view on top, and frees it. */
void view_pop(struct browse *B);
struct view *view_new(struct browse *B, const struct view_ops *ops,
		      void *data, int cursor);
/* Keeps the cursor on screen, and the page inside the body. */
void view_settle(struct view *v);
/* Moves the cursor (or, in a view without one, the page) by d lines. */
void view_move_by(struct view *v, long d);
/* Says msg on the bottom line until the next key (printf-like). */
void browse_say(struct browse *B, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The screens. */
struct view *workloads_open(struct browse *B);
struct view *workload_open(struct browse *B, size_t wl);
/* wl NO_WL: a job whose workload has no row (only open records). */
#define NO_WL ((size_t)-1)
struct view *job_open(struct browse *B, size_t rec, size_t wl);
struct view *help_open(struct browse *B);
struct view *running_open(struct browse *B);

/* 1 when the records were read with sp-fetch --live (they are of now). */
int running_fetched(const struct model *m);
/* "Running now: 4 jobs; 3 critical, 1 warning" (appended, clean). */
void running_summary(const struct model *m, struct sp_buf *b);

/* Which workloads the first screen shows: -1 every user, partition. */
struct wfilter {
	int failed_only;
	long user, part;	/* numbers in model.users, model.parts */
};

/* The filter's choices; changed(owner) is called on every change. */
struct view *filter_open(struct browse *B, struct wfilter *f,
			 void (*changed)(struct view *), struct view *owner);
/* "failed only, user alice" (appended, clean). */
void filter_describe(struct browse *B, const struct wfilter *f,
		     struct sp_buf *b);

/* A finding as the findings pane lays it out, indent columns in
 * (appended, for the width); with_jobs: the runs it names too. */
void finding_text(struct browse *B, struct sp_buf *b,
		  const struct sp_finding *p, size_t indent, int with_jobs);

/* The workload's #SBATCH lines that change a request (appended). */
size_t advice_sbatch(struct browse *B, size_t wl, struct sp_buf *out);
/* The workload screen's "next:" line (the #SBATCH lines y copies, two
 * spaces apart), appended; returns how many lines. */
size_t advice_next(struct browse *B, size_t wl, struct sp_buf *b);
/* Copies them: kept for the exit, and to the clipboard where it can. */
void copy_sbatch(struct browse *B, size_t wl);

/*
 * The panes of one workload (workload.c switches between them).  A pane
 * of prose gives only build (its text laid out once, for the width);
 * a table gives count and line, and keeps what it needs in *state.
 */
struct pane_ops {
	const char *name;
	int cursor;
	void (*build)(struct browse *B, size_t wl, struct lines *out);
	size_t (*count)(struct browse *B, size_t wl, void **state);
	void (*line)(struct browse *B, size_t wl, void **state, size_t i,
		     struct sp_buf *b);
	/* Column titles above the body, or NULL. */
	void (*columns)(struct browse *B, size_t wl, void **state,
			struct sp_buf *b);
	/* Enter on line i: a view to push, or NULL. */
	struct view *(*enter)(struct browse *B, size_t wl, void **state,
			      size_t i);
	void (*free)(void *state);
};

extern const struct pane_ops pane_runs, pane_advice, pane_findings,
	pane_machines;

/* ----------------------------------------------------------- outputs */

/* stack.c: the terminal's own sequence that sets its clipboard to the
 * base64 text (terminfo Ms, OSC 52), appended. */
void ui_selection(struct sp_buf *b, const char *base64);
/* Runs the dashboard on the terminal; returns the exit status. */
int ui_run(struct model *m, const struct opts *o);
/* The first screen as text on standard output (no terminal, TERM=dumb). */
int plain_run(struct model *m, const struct opts *o);
/* --next: a record a workload, the first screen's order: its next: line
 * as the workload screen shows it. */
int next_run(struct model *m, const struct opts *o);
/* The headline (one or two lines) and the window, appended, clean. */
void headline_lines(const struct model *m, const struct opts *o,
		    struct sp_buf *lead, struct sp_buf *window);

#endif
