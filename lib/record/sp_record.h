/*
 * sp_record.h - the record format: the only API between programs.
 *
 * One record per line, fields separated by TAB, a header line first.
 * Fields stay in their escaped form (\t \n \r \\) everywhere in the
 * middle of a pipeline; only the edges decode (sp_field_decode).
 */
#ifndef SP_RECORD_H
#define SP_RECORD_H

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include "sp_text.h"
#include "sp_util.h"

/*
 * A field: a slice into the reader's line buffer, valid until the next
 * read.  Fields are split in place, so p[n] is always a NUL.
 */
struct sp_slice {
	const char *p;
	size_t n;
};

struct sp_reader {
	/* inputs: a list of paths, "-" for standard input */
	char **paths;
	size_t npaths;
	size_t pathi;
	FILE *fp;
	const char *name;	/* the current file, "<stdin>" for - */
	unsigned long line;	/* line number in the current file */

	/* the header of the first file */
	char **cols;
	size_t ncols;
	char *header_line;	/* raw text, to skip repeated headers */
	size_t header_len;

	/* the current record: a line inside blk, LF replaced by NUL */
	char *buf;
	size_t len;
	struct sp_slice *f;	/* ncols slices */
	size_t fcap;

	/* input read in large blocks; lines are split where they lie */
	char *blk;
	size_t blkcap;
	size_t blklen;		/* bytes of blk holding input */
	size_t blkpos;		/* start of the unread part */
	int eof;		/* the current file has no more bytes */

	/*
	 * The columns the caller reads (sp_reader_want): next_want[i] is the
	 * first wanted column at or after i, SIZE_MAX past the last; NULL
	 * while every column is wanted.  partial: the current record's
	 * other fields are not split yet (sp_reader_split_all).
	 */
	size_t *next_want;
	int partial;

	/* the last error, for callers that do not want to exit */
	struct sp_buf err;
};

/*
 * Opens the inputs (none means standard input) and reads the header.
 * Returns 0, or -1 with r->err set ("file:line: message").
 */
int sp_reader_open(struct sp_reader *r, char *const *paths, size_t npaths);
/* Same over an already open stream (tests, fuzzing). */
int sp_reader_open_stream(struct sp_reader *r, FILE *fp, const char *name);
/* 1 a record is in r->f, 0 at the end of all inputs, -1 on error. */
int sp_reader_next(struct sp_reader *r);
void sp_reader_close(struct sp_reader *r);

/*
 * Declares a column the caller reads (col < 0: nothing).  Once one is
 * declared, a record is split only as far as its declared columns need:
 * every other field is unspecified until sp_reader_split_all.  The
 * fields are still counted and checked, so errors stay the same.
 */
void sp_reader_want(struct sp_reader *r, int col);
/* Makes every field of the current record readable (pass-through). */
void sp_reader_split_all(struct sp_reader *r);

/* The index of a column, or -1. */
int sp_reader_col(const struct sp_reader *r, const char *name);
/* The index of a column, or dies (exit 2) naming the stage that adds it. */
int sp_reader_need(const struct sp_reader *r, const char *name,
		   const char *added_by);
/* The record's field in column col (sp_reader_col); empty, that is
 * unknown, when the input has no such column (col < 0). */
static inline struct sp_slice
sp_reader_field(const struct sp_reader *r, int col)
{
	/* A column not declared (sp_reader_want) would hold an earlier
	 * record's text, not unknown: a caller's mistake, said loudly. */
	assert(col < 0 || !r->partial || r->next_want[col] == (size_t)col);
	return col >= 0 ? r->f[col] : (struct sp_slice){ "", 0 };
}
/* Dying versions for programs: open + header, next record. */
void sp_open_or_die(struct sp_reader *r, char *const *paths, size_t npaths);
int sp_next_or_die(struct sp_reader *r);
/*
 * A record's field that is not what its column holds: "file:line: field
 * 'name' is not WHAT: "value"" (the value cut at 40 bytes, made safe for
 * a terminal) in r's err buffer.  Returns -1.
 */
int sp_reader_bad_field(struct sp_reader *r, const char *name,
			struct sp_slice value, const char *what);
/* "prog: file:line: message" and exit 2, for bad values in a record. */
void sp_reader_die(const struct sp_reader *r, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

/* Field helpers.  An empty field means unknown; sp_text.h has the
 * escapes (sp_field_decode, sp_field_encode). */
int sp_slice_eq(struct sp_slice s, const char *lit);
/*
 * Reads a field as a number: 1 and *out set, 0 for an empty field
 * (unknown), -1 when it is not a plain decimal.
 */
int sp_field_num(struct sp_slice s, double *out);

/* Output formats every program offers. */
enum sp_format { SP_FMT_TSV, SP_FMT_PLAIN, SP_FMT_JSON, SP_FMT_CSV };

/* How a column is shown by --plain and typed by --json (by its name). */
enum sp_kind { SP_KIND_TEXT, SP_KIND_NUMBER, SP_KIND_SECONDS,
	       SP_KIND_BYTES, SP_KIND_HOURS, SP_KIND_FRACTION };
enum sp_kind sp_column_kind(const char *name);

struct sp_writer {
	FILE *out;
	enum sp_format fmt;
	char **cols;
	enum sp_kind *kinds;
	size_t ncols;
	size_t colcap;		/* allocated entries of cols and kinds */
	size_t fieldi;		/* fields written in the current record */
	int header_done;
	struct sp_buf scratch;
	/* --plain keeps every row to align the columns */
	struct sp_buf plain;
	size_t *plain_off;	/* start of each cell in plain */
	size_t nplain;
	size_t plaincap;
	size_t width;		/* --plain fits in this many cells; 0 any */
	const char *const *plain_only;	/* --plain shows these; NULL all */
	struct sp_buf rawbuf;	/* escaping for sp_writer_raw/num */
	struct sp_buf line;	/* the TSV record being written */
};

/*
 * --plain fits its table to the width of the terminal out writes to, or
 * to $COLUMNS: the widest text columns are shortened, their cells cut
 * with an ellipsis, never below their name; numbers are never cut.  Into
 * a pipe without COLUMNS the table is whole.
 */
void sp_writer_init(struct sp_writer *w, FILE *out, enum sp_format fmt);
/* Another width to fit --plain to (a --width option); 0: no limit. */
void sp_writer_width(struct sp_writer *w, size_t width);
/*
 * The columns --plain shows, a list ending in NULL, kept by the caller:
 * a person reads a row of a screen, not the record's every column (the
 * other formats keep them all).  Columns not written are ignored.
 */
void sp_writer_plain_columns(struct sp_writer *w, const char *const *names);
void sp_writer_column(struct sp_writer *w, const char *name);
/* Each column of a list ending in NULL, in order. */
void sp_writer_columns(struct sp_writer *w, const char *const *names);
/* A column whose kind its name does not tell (a count named "jobs"). */
void sp_writer_column_kind(struct sp_writer *w, const char *name,
			   enum sp_kind kind);
/* Every column of a reader, in order (pass-through). */
void sp_writer_columns_from(struct sp_writer *w, const struct sp_reader *r);
/* Writes the header and flushes it, so a pipeline fails fast. */
void sp_writer_header(struct sp_writer *w);
/* A field in record form (already escaped). */
void sp_writer_field(struct sp_writer *w, const char *p, size_t n);
void sp_writer_slice(struct sp_writer *w, struct sp_slice s);
void sp_writer_str(struct sp_writer *w, const char *s);
/* Raw bytes that still need escaping (names from sacct, messages). */
void sp_writer_raw(struct sp_writer *w, const char *p, size_t n);
void sp_writer_printf(struct sp_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A number: NaN is written as an empty field (unknown). */
void sp_writer_num(struct sp_writer *w, double v);
void sp_writer_int(struct sp_writer *w, long long v);
void sp_writer_empty(struct sp_writer *w);
/* Every field of the reader's current record (pass-through). */
void sp_writer_fields_from(struct sp_writer *w, const struct sp_reader *r);
void sp_writer_end(struct sp_writer *w);
/* Flushes (--plain prints its table here) and frees. */
void sp_writer_finish(struct sp_writer *w);

/*
 * The --tsv/--plain/--json/--csv options: a program's getopt_long table
 * includes SP_FORMAT_OPTIONS and its switch hands unknown values to
 * sp_format_option(), which returns 1 if it took the option.
 */
enum { SP_OPT_PLAIN = 0x1000, SP_OPT_JSON, SP_OPT_CSV, SP_OPT_TSV };
#define SP_FORMAT_OPTIONS \
	{ "plain", no_argument, NULL, SP_OPT_PLAIN }, \
	{ "json", no_argument, NULL, SP_OPT_JSON }, \
	{ "csv", no_argument, NULL, SP_OPT_CSV }, \
	{ "tsv", no_argument, NULL, SP_OPT_TSV }
int sp_format_option(int opt, enum sp_format *fmt);

#endif
