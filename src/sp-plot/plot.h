/*
 * plot.h - sp-plot's parts, bottom up: an SVG writer (svg.c), what the
 * figures share (figure.c), the figures (one kind a file, each a reader
 * of one stage's records and a small function that draws already
 * computed numbers), the kinds and one drawn (plot.c), and the page
 * (page.c).
 *
 * Coordinates are SVG user units, a CSS pixel at 100%.  A figure draws
 * its body from y = 0 down and sets how far it went (svg.bottom); the
 * title above it and the caption below are placed by svg_finish, which
 * alone knows how many lines each wraps to.
 */
#ifndef PLOT_H
#define PLOT_H

#include <stddef.h>

#include "sp.h"
#include "sp_pool.h"

#define PLOT_WIDTH	640.0
#define PLOT_MARGIN	16.0
#define PLOT_FONT	12	/* labels, ticks */
#define PLOT_SMALL	11	/* the caption, notes beside marks */
#define PLOT_TITLE	15
/* Labels longer than this many characters are cut with an ellipsis. */
#define PLOT_LABEL_MAX	28
/* Rows in a figure of one row per item (workloads, submissions, nodes). */
#define PLOT_ROWS_MAX	12
#define PLOT_WALK_MAX	40

/*
 * The Okabe-Ito colours, chosen to be told apart by colour-blind readers,
 * paired so that the marks a figure contrasts also differ in lightness
 * (grey print).  No colour is the only sign of anything: each goes with
 * a shape, a pattern or a label.
 */
enum ink {
	INK_TEXT, INK_MUTED, INK_AXIS, INK_GRID, INK_FAINT, INK_PAPER,
	INK_BLUE, INK_SKY, INK_ORANGE, INK_VERMILLION, INK_GREEN,
	INK_PURPLE, INK_YELLOW, INK_N
};
const char *plot_ink(enum ink i);

enum mark { MARK_CIRCLE, MARK_SQUARE, MARK_TRIANGLE, MARK_DIAMOND,
	    MARK_CROSS, MARK_RING };
enum pattern { PAT_SOLID, PAT_HATCH, PAT_DOTS, PAT_GRID, PAT_N };
enum anchor { ANCHOR_START, ANCHOR_MIDDLE, ANCHOR_END };

struct svg {
	char id[32];		/* prefix of every id, unique in a page */
	double bottom;		/* the lowest y the body used */
	struct sp_buf defs, body, tmp;
	unsigned char defined[PAT_N][INK_N];
	struct sp_pool keep;	/* the figure's rows and words: plot_keep */
};

/* Data to pixels: linear, or logarithmic (d0 > 0). */
struct scale {
	double d0, d1, p0, p1;
	int log;
};

void scale_linear(struct scale *s, double d0, double d1, double p0,
		  double p1);
void scale_log(struct scale *s, double d0, double d1, double p0, double p1);
double scale_at(const struct scale *s, double v);

/* A tick: where, and its label (ours: plain text). */
struct tick {
	double v;
	char label[24];
};

/* Formats a tick's value: a count, a share, GiB, a duration. */
typedef void (*tick_fmt)(struct sp_buf *b, double v);
void fmt_count(struct sp_buf *b, double v);
void fmt_share(struct sp_buf *b, double v);	/* 0..1 as "40%" */
void fmt_gib(struct sp_buf *b, double v);	/* GiB as "32 GiB" */
/*
 * Round ticks for a linear scale from 0 or lo to hi, at most max of them:
 * 1, 2 or 5 times a power of ten.  Returns how many; *top is the last.
 */
size_t ticks_linear(struct tick *t, size_t max, double lo, double hi,
		    tick_fmt fmt, double *top);

void svg_init(struct svg *g, const char *id);
void svg_free(struct svg *g);

/* Marks.  A pattern fills with lines or dots of the ink on white. */
void svg_rect(struct svg *g, double x, double y, double w, double h,
	      enum ink fill, enum pattern p, enum ink stroke);
void svg_line(struct svg *g, double x1, double y1, double x2, double y2,
	      enum ink ink, double width, int dashed);
void svg_polyline(struct svg *g, const double *xy, size_t npoints,
		  enum ink ink, double width);
void svg_mark(struct svg *g, enum mark m, double x, double y, double r,
	      enum ink ink);

/*
 * Text, escaped here and nowhere else.  svg_text takes raw UTF-8 (a
 * record's field already decoded, or ours); svg_field a record's field
 * in its escaped form, cut to max characters (0: whole).
 */
void svg_text(struct svg *g, double x, double y, enum anchor a, int size,
	      int bold, enum ink ink, const char *s);
void svg_textf(struct svg *g, double x, double y, enum anchor a, int size,
	       int bold, enum ink ink, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));
/*
 * A group of marks: a class (ours, plain words: tests and style sheets
 * find rows by it) and a tooltip a browser shows on hover (raw text,
 * escaped here; NULL for none).
 */
void svg_group(struct svg *g, const char *cls, const char *tip);
void svg_group_end(struct svg *g);
/* Estimated width of text in the figures' sans-serif at a size. */
double text_width(const char *s, int size);
/* A record's field decoded into b (appends), cut to max characters. */
void field_text(struct sp_buf *b, struct sp_slice f, size_t max);

/* Axes: the line, ticks with labels, faint grid lines across the plot. */
void axis_x(struct svg *g, const struct scale *s, double y, double grid_top,
	    const struct tick *t, size_t n, const char *label);
void axis_y(struct svg *g, const struct scale *s, double x,
	    double grid_right, const struct tick *t, size_t n,
	    const char *label);

/* A legend entry: a mark or a swatch, then its words; returns the x after. */
double legend_mark(struct svg *g, double x, double y, enum mark m,
		   enum ink ink, const char *words);
double legend_swatch(struct svg *g, double x, double y, enum ink ink,
		     enum pattern p, const char *words);

/*
 * The whole figure into out: the <svg> element, its title and caption
 * (also as <title> and <desc> for a screen reader), the body between.
 */
void svg_finish(struct svg *g, struct sp_buf *out, const char *title,
		const char *caption);

/* ------------------------------------------------------------ figures */

struct plot_opts {
	const char *workload;	/* --workload KEY */
	const char *job;	/* --job ID */
	const char *findings;	/* --findings FILE */
	const char *probes;	/* --probes ID,... */
	const char *id;		/* the svg's id prefix */
};

/*
 * A kind reads its stage's records from r (opened, header read), and
 * either draws into g and returns 1, or returns 0 with why it has nothing
 * to draw in why.  Bad input (a missing column, a field that is not a
 * number) ends the program with status 2.
 */
struct plot_kind {
	const char *name;
	const char *reads;	/* the stage, for --help and messages */
	const char *what;	/* the figure, for a page that has none */
	int (*draw)(struct sp_reader *r, const struct plot_opts *o,
		    struct svg *g, struct sp_buf *title,
		    struct sp_buf *caption, struct sp_buf *why);
};

/* plot.c */
const struct plot_kind *plot_kind(const char *name);
extern const struct plot_kind plot_kinds[];
/*
 * Draws one kind from the records in paths (none: standard input) into
 * out.  1 drawn, 0 nothing to draw (why says).
 */
int plot_draw(const struct plot_kind *k, char *const *paths, size_t npaths,
	      const struct plot_opts *o, struct sp_buf *out,
	      struct sp_buf *why);

/* figure.c */
/* A number field: 1 and *v, 0 unknown, or the file:line message, exit 2. */
int plot_num(const struct sp_reader *r, int col, double *v);
/*
 * What a figure keeps past its records (its rows, their labels) lives
 * as long as the figure: svg_free frees it all, so that a figure may
 * return at any point.  plot_keep is a field as field_text gives it,
 * plot_keep_str n bytes as they are, plot_grow an array of *cap
 * elements grown to hold need.
 */
const char *plot_keep(struct svg *g, struct sp_slice f, size_t max);
const char *plot_keep_str(struct svg *g, const char *s, size_t n);
void *plot_grow(struct svg *g, void *v, size_t *cap, size_t need,
		size_t elem);
/* "1 run" / "2 runs" into b. */
void plot_count(struct sp_buf *b, double n, const char *one,
		const char *many);

/* One thing a caption says the figure left out: n of them. */
struct plot_omit {
	double n;
	const char *one, *many;
};

/*
 * The clause a caption ends on for what the figure does not draw:
 * lead (" Left out:"), then each count above zero of v (ended by an
 * entry with no name), "; " between, and a full stop.  Nothing when
 * nothing was left out.
 */
void plot_left_out(struct sp_buf *caption, const char *lead,
		   const struct plot_omit *v);

/* Finding records (sp-size --findings): the first of a code, any order. */
struct plot_finding {
	char *key;		/* workload_key */
	char *jobids;		/* space-separated, decoded */
};
int plot_find_finding(const char *path, const char *code,
		      struct plot_finding *f);
void plot_finding_free(struct plot_finding *f);

/*
 * One workload of job records: the key asked for (--workload, or a
 * finding's), or, when none was, the one the records hold: a second
 * workload in them is the user's to choose, and ends the program (2).
 */
struct plot_sel {
	const char *key;	/* NULL: any (no workload_key column) */
	int given;
	int ckey;
	struct sp_jobcols c;
};

/* key: kept by the caller as long as s (a figure's: plot_keep). */
void plot_sel_open(struct plot_sel *s, const struct sp_reader *r,
		   const char *key);
/* The next record of the workload parsed into j; 0 at the end.  The key
 * found when none was given is kept in g. */
int plot_sel_next(struct plot_sel *s, struct sp_reader *r, struct sp_job *j,
		  struct svg *g);

#define PLOT_KIND(name) \
	int plot_##name(struct sp_reader *r, const struct plot_opts *o, \
			struct svg *g, struct sp_buf *title, \
			struct sp_buf *caption, struct sp_buf *why)
PLOT_KIND(runtime);
PLOT_KIND(share);
PLOT_KIND(job);
PLOT_KIND(walk);
PLOT_KIND(array);
PLOT_KIND(failures);
PLOT_KIND(verdicts);
PLOT_KIND(advice);
PLOT_KIND(cost);
PLOT_KIND(idle);
PLOT_KIND(nodes);

/* -------------------------------------------------------------- page */

enum block_kind { BLOCK_TEXT, BLOCK_FIGURE };
struct page_block {
	enum block_kind kind;
	const char *path;
	const struct plot_kind *figure;
};

struct page {
	const char *title;
	const char *findings;
	struct page_block *blocks;
	size_t n, cap;
};

/* The page into out; figures without data are said where they would be. */
void page_write(const struct page *p, struct sp_buf *out);

#endif
