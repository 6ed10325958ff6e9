/*
 * sp_units.h - sacct's units and the human forms back.
 *
 * Every parser returns SP_VAL_OK with *out set, SP_VAL_UNKNOWN for the
 * sentinels that mean "not recorded" (empty, Unknown, None, UNLIMITED,
 * Partition_Limit, INVALID, N/A, (null), NaN, inf), or SP_VAL_BAD for text
 * that is not of the grammar.  Unknown is never turned into zero.
 */
#ifndef SP_UNITS_H
#define SP_UNITS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include "sp_const.h"
#include "sp_util.h"

enum sp_val { SP_VAL_BAD = -1, SP_VAL_UNKNOWN = 0, SP_VAL_OK = 1 };

/* Unknown is NaN, never zero: a number known, and one known above zero. */
static inline int
sp_known(double v)
{
	return !isnan(v);
}

static inline int
sp_positive(double v)
{
	return !isnan(v) && v > 0;
}

/* The larger of two numbers, either of them unknown. */
static inline double
sp_nan_max(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return a > b ? a : b;
}

/* The binary units Slurm counts memory in (its K, M and G are 1024s). */
#define SP_KIB 1024.0
#define SP_MIB (1024.0 * SP_KIB)
#define SP_GIB (1024.0 * SP_MIB)


/* 1 when the text is one of sacct's "no value" sentinels (case-insensitive). */
int sp_is_sentinel(const char *s, size_t n);

/*
 * 0 when s[0..n) cannot be a sentinel by its first byte: every sentinel
 * starts with one of these (any case), and no digit does.  Inline, since
 * every text field of every row is asked; sp_is_sentinel asks it first.
 */
static inline int
sp_may_be_sentinel(const char *s, size_t n)
{
	if (n == 0)
		return 1;
	switch (s[0] | 0x20) {
	case 'u': case 'n': case 'p': case 'i': case '(': case '-': case '+':
		return 1;
	default:
		return 0;
	}
}

/*
 * sacct memory: K M G T P are powers of 1024, a bare number is MiB
 * (ReqMem) -- or bytes where sacct prints bytes (MaxRSS with no suffix is
 * bytes: pass bare_unit = 1).  A trailing 'n' or 'c' is a scope, returned
 * in *scope ('n', 'c' or 0).  The per-CPU flag bit 2^31 that old Slurm
 * leaks into ReqMem is removed (and implies scope 'c').  "0n"/"0c"/"0" in
 * ReqMem means unknown: pass zero_unknown = 1.
 */
enum sp_val sp_parse_mem(const char *s, size_t n, double bare_unit,
			 int zero_unknown, double *bytes, char *scope);

/*
 * sacct durations: D-HH:MM:SS, D-HH, D-HH:MM, HH:MM:SS, MM:SS(.mmm) (two
 * parts are always minutes:seconds), SS(.mmm).  UNLIMITED and the other
 * sentinels are unknown.
 */
enum sp_val sp_parse_duration(const char *s, size_t n, double *seconds);
/*
 * The CPU time in a TRES usage list (sacct's and sstat's TRESUsageInTot,
 * "cpu=02:00:00,energy=0,mem=1104K"): the duration after "cpu=", or
 * SP_VAL_UNKNOWN when the list has none.
 */
enum sp_val sp_parse_tres_cpu(const char *s, size_t n, double *seconds);

/* ISO 8601 "2026-11-29T14:03:11" (sacct's standard format), as UTC-free
 * local civil time mapped to seconds since the epoch by timegm(). */
enum sp_val sp_parse_time(const char *s, size_t n, int64_t *epoch);
/*
 * Days since 1970-01-01 of a proleptic Gregorian date (any year), and
 * back: the calendar arithmetic every date of the toolkit goes through.
 */
int64_t sp_days_from_civil(int64_t y, int64_t m, int64_t d);
void sp_civil_from_days(int64_t days, int64_t *y, int *m, int *d);
/* The same civil time back, "2026-11-29T14:03:11". */
void sp_fmt_time(struct sp_buf *b, int64_t epoch);
/*
 * An instant (seconds since the epoch) as this machine's civil time, in
 * the form sp_parse_time gives: sacct prints the cluster's civil time, so
 * a file's mtime or a transcript's UTC stamp is compared this way.
 */
int64_t sp_civil_local(int64_t epoch);

/* Human forms, appended to b.  A non-finite value (and, except for a
 * percentage, a negative one or one past SP_UNITS_MAX) appends "n/a". */
/* "0.54s" below 1 s, "12.3s" below 60 s, else "01:52:49" or "1-02:00:00". */
void sp_fmt_duration(struct sp_buf *b, double seconds);
/* Always HH:MM:SS, or D-HH:MM:SS from 24 hours (sbatch --time syntax);
 * a fraction of a second rounds up, as a limit must. */
void sp_fmt_hms(struct sp_buf *b, double seconds);
/* "512 B", "1.0 KiB" ... "42.0 GiB", promoted at 1023.95 of a unit. */
void sp_fmt_bytes(struct sp_buf *b, double bytes);
/* fraction 0..1 as "<0.1%", ">99.9%", "48.7%". */
void sp_fmt_percent(struct sp_buf *b, double fraction);
/* (sp_fmt_num and sp_fmt_fixed, the plain numbers, are in sp_buf.h.) */

/*
 * Human forms for a sentence's %s, each written into the next of eight
 * buffers in turn, so one sentence may hold eight:
 *	sp_buf_printf(b, "Used %s of its %s limit (%s).", sp_dur(w, el),
 *		      sp_dur(w, limit), sp_pct(w, el / limit));
 * A zeroed struct sp_words is ready; sp_words_free when done.
 */
struct sp_words {
	struct sp_buf b[8];
	unsigned next;
};

const char *sp_dur(struct sp_words *w, double seconds);	/* duration */
const char *sp_hms(struct sp_words *w, double seconds);	/* HH:MM:SS */
const char *sp_bytes(struct sp_words *w, double bytes);
const char *sp_pct(struct sp_words *w, double fraction);
/* Any other form: sp_form(w, sp_mem_spell, b). */
const char *sp_form(struct sp_words *w,
		    void (*form)(struct sp_buf *, double), double v);
/* The next buffer itself, emptied, for words of another making. */
struct sp_buf *sp_words_buf(struct sp_words *w);
void sp_words_free(struct sp_words *w);

#endif
