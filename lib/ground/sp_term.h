/*
 * sp_term.h - what a program needs to draw on a terminal safely.
 *
 * Text that came from a record or a log file is never trusted: it goes
 * through sp_term_clean(), which shows control characters (an escape
 * sequence in a job name, a bidi override in a log) as visible text
 * instead of letting the terminal obey them.
 */
#ifndef SP_TERM_H
#define SP_TERM_H

#include <stddef.h>
#include <stdio.h>
#include "sp_text.h"
#include "sp_util.h"

/* The glyphs a view draws with, and their one-cell ASCII folds. */
enum sp_glyph {
	SP_G_SOLID,	/* a used cell of a gauge */
	SP_G_FAINT,	/* a requested, unused cell */
	SP_G_DOT,	/* separator between items on one line */
	SP_G_ARROW,	/* leads an action; "from -> to" */
	SP_G_ELLIPSIS,	/* text cut short */
	SP_G_BAR,	/* quotes a log line */
	SP_G_DASH,	/* em dash in prose */
	SP_G_RULE,	/* horizontal rule between jobs */
	SP_G_COUNT
};

/* Colours a view uses, by meaning rather than by hue. */
enum sp_paint {
	SP_P_NONE,
	SP_P_BOLD,
	SP_P_FAINT,
	SP_P_CRITICAL,
	SP_P_WARNING,
	SP_P_INFO,
	SP_P_GOOD,
	SP_P_COUNT
};

struct sp_term {
	int width;	/* columns to lay out for */
	int color;	/* 1: SGR escapes are written */
	int ascii;	/* 1: glyphs fold to ASCII, other text too */
	int tty;	/* 1: a terminal, where text too wide is cut with
			 * an ellipsis; into a pipe nothing is cut */
};

/*
 * Decides the three settings for output on fd.  width_opt > 0 (--width)
 * wins, else $COLUMNS, else the terminal's size, else the default.
 * Colour needs a terminal, no NO_COLOR (non-empty), TERM not "dumb", and
 * no_color 0.  ASCII when ascii_opt is set or the locale's character set
 * is not UTF-8 (call setlocale(LC_CTYPE, "") first).
 */
void sp_term_setup(struct sp_term *t, int fd, int width_opt, int no_color,
		   int ascii_opt);
/* The width to fit output on fd to: $COLUMNS, else the terminal's; 0
 * when neither is known (a pipe, and no COLUMNS): no limit. */
int sp_term_width(int fd);
/* 1 when the locale's character set can draw the glyphs. */
int sp_term_locale_utf8(void);

const char *sp_term_glyph(const struct sp_term *t, enum sp_glyph g);
/*
 * One cell of a sparkline, level 0 (nothing) to SP_TERM_SPARK_LEVELS - 1
 * (full): block elements, or in ASCII " .:-=+*#".
 */
#define SP_TERM_SPARK_LEVELS 9
const char *sp_term_spark(const struct sp_term *t, int level);

/* Appends the escape that starts (or, for SP_P_NONE, ends) a paint. */
void sp_term_paint(const struct sp_term *t, struct sp_buf *b,
		   enum sp_paint p);
/* Appends s in paint p and resets, or plainly without colour. */
void sp_term_painted(const struct sp_term *t, struct sp_buf *b,
		     enum sp_paint p, const char *s);

/*
 * Appends untrusted bytes made safe to print (sp_text_clean): C0
 * controls and DEL as "\x1b", C1 controls and the bidi controls as
 * "\u009b", invalid UTF-8 as "\xff".  TAB becomes one space; LF stays LF
 * when keep_newlines, else "\x0a".  In ASCII mode every other non-ASCII
 * character becomes '?', one cell for one.
 */
void sp_term_clean(const struct sp_term *t, struct sp_buf *b, const char *s,
		   size_t n, int keep_newlines);

/* A field in record form (escapes \t \n \r \\) decoded, then made
 * safe as sp_term_clean does: the one way record text reaches a screen. */
void sp_term_field(const struct sp_term *t, struct sp_buf *b, const char *p,
		   size_t n, int keep_newlines);

/*
 * Appends clean text in at most cells columns: whole when it fits, else
 * cut with an ellipsis on a terminal; into a pipe whole, always.
 */
void sp_term_fitted(const struct sp_term *t, struct sp_buf *b, const char *s,
		    size_t n, size_t cells);

/*
 * Appends clean text word-wrapped to the terminal width: the first line
 * after first_indent cells already written, every further line indented
 * by indent spaces.  A word is never broken unless it is wider than a
 * whole line; then it breaks after a comma or slash near the line's end
 * where it has one.  LF in the text starts a new line.  Ends without a
 * newline.  Linear in the text's length.
 */
void sp_term_wrap(const struct sp_term *t, struct sp_buf *b, const char *s,
		  size_t first_indent, size_t indent);

/*
 * A program's --plain prose, printf-like, to out: on a terminal (or with
 * $COLUMNS) each line wrapped at words to the width under a hanging
 * indent of two; into a pipe as it is.  Give the newlines in fmt.
 */
void sp_term_say(FILE *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
