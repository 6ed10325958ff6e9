/*
 * sp_sacct_int.h - what the files of the sacct reader share (sp_sacct.c,
 * sp_sacct_fields.c, sp_sacct_values.c, sp_sacct_fold.c).  Not an API:
 * no other file includes it.  The small value readers are inline here
 * because the reader calls them for every field of every row.
 */
#ifndef SP_SACCT_INT_H
#define SP_SACCT_INT_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sp_sacct.h"
#include "sp_units.h"

static inline struct sp_slice
sl(const char *p, size_t n)
{
	struct sp_slice s;

	s.p = p;
	s.n = n;
	return s;
}

static const struct sp_slice empty_slice = { "", 0 };

static inline int
eq(struct sp_slice a, struct sp_slice b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

static inline int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static inline int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\v' || c == '\f';
}

/* A sacct sentinel (Unknown, None, INVALID ...) becomes empty. */
static inline struct sp_slice
known_text(struct sp_slice s)
{
	/* Most values are told by their first byte, without a call. */
	if (!sp_may_be_sentinel(s.p, s.n))
		return s;
	return sp_is_sentinel(s.p, s.n) ? empty_slice : s;
}

/* A timestamp is carried as printed, but only when it is one. */
static inline struct sp_slice
known_time(struct sp_slice s)
{
	return sp_parse_time(s.p, s.n, NULL) == SP_VAL_OK ? s : empty_slice;
}

/*
 * A count or raw number: unsigned decimal digits only.  Slurm's NO_VAL
 * and INFINITE words (32 and 64 bit) mean "no value", never a count.
 */
static inline double
count(struct sp_slice s)
{
	uint64_t v = 0;
	size_t i;

	if (s.n == 0 || s.n > 20)
		return NAN;
	for (i = 0; i < s.n; i++) {
		if (!is_digit((unsigned char)s.p[i]))
			return NAN;
		if (i >= 18 && v > (UINT64_MAX - 9) / 10)
			return NAN;
		v = v * 10 + (uint64_t)(s.p[i] - '0');
	}
	if (v == UINT64_C(4294967294) || v == UINT64_C(4294967295) ||
	    (double)v > SP_UNITS_MAX)
		return NAN;
	return (double)v;
}

static inline double
duration(struct sp_slice s)
{
	double v;

	return sp_parse_duration(s.p, s.n, &v) == SP_VAL_OK ? v : NAN;
}

/* Bytes where sacct prints bytes: a bare number is bytes, K M G powers of 1024. */
static inline double
bytes(struct sp_slice s)
{
	double v;

	return sp_parse_mem(s.p, s.n, 1.0, 0, &v, NULL) == SP_VAL_OK ? v : NAN;
}

/* "code:signal" */
static inline void
exit_pair(struct sp_slice s, double *code, double *sig)
{
	const char *colon = s.n ? memchr(s.p, ':', s.n) : NULL;

	*code = NAN;
	*sig = NAN;
	if (colon == NULL) {
		*code = count(s);
		return;
	}
	*code = count(sl(s.p, (size_t)(colon - s.p)));
	*sig = count(sl(colon + 1, s.n - (size_t)(colon - s.p) - 1));
}


/* --------------------------------------------------------- the fields */

/* The blanks and CR around a name in a header, gone. */
void sp_sacct_trim(const char **s, size_t *n);
/* Case-insensitive: the n bytes at s are the word. */
int sp_sacct_same_ci(const char *s, size_t n, const char *word);

/* What a field holds, for placing the fields of an over-long row. */
enum sp_sacct_kind {
	SP_SACCT_K_ANY,		/* not known: anything fits */
	SP_SACCT_K_TEXT,	/* free text: names, comments, command lines */
	SP_SACCT_K_PATH,	/* free text, and an absolute path */
	SP_SACCT_K_JOBID, SP_SACCT_K_WORD, SP_SACCT_K_NODES,
	SP_SACCT_K_COUNT, SP_SACCT_K_TIME, SP_SACCT_K_DURATION,
	SP_SACCT_K_MEM, SP_SACCT_K_STATE, SP_SACCT_K_EXIT, SP_SACCT_K_TRES
};

/* The kind of a field named in a header or --fields. */
int sp_sacct_kind(const char *name, size_t n);
/* 1 for the kinds a delimiter inside a value can have split. */
int sp_sacct_kind_holds_text(int kind);
/* 1 when the value reads as what sacct prints for the kind. */
int sp_sacct_kind_fits(int kind, struct sp_slice v);

/* --------------------------------------------------------- the values */

/* The value of key (klen bytes) in TRES text "k=v,k=v"; bare_unit as
 * sp_parse_mem. */
double sp_sacct_tres_amount_n(struct sp_slice t, const char *key,
			      size_t klen, double bare_unit);

/* The same for a key whose length the compiler knows (a literal). */
static inline double
sp_sacct_tres_amount(struct sp_slice t, const char *key, double bare_unit)
{
	return sp_sacct_tres_amount_n(t, key, strlen(key), bare_unit);
}
/* A state Slurm ends a job in (COMPLETED, FAILED ...). */
int sp_sacct_state_final(struct sp_slice state);
/* A state after which sacct -D may print another attempt. */
int sp_sacct_state_requeues(struct sp_slice state);

/* ---------------------------------------------------------- the rows */

/* The fields of row i of the group in hand, as slices. */
void sp_sacct_view(const struct sp_sacct *p, size_t i, struct sp_slice *v);
/*
 * The fields a step is read for (its JobID and what row_measures reads),
 * SP_SF_NONE ended; the step view sets only those of them the input
 * has, into v set empty before the first step.
 */
extern const int sp_sacct_measured[];
#define SP_SF_NONE (-1)
/*
 * Step row i's measured fields into v.  The reader owns the rows and
 * hands this to the fold, which so needs nothing else of the reader.
 */
typedef void sp_sacct_step_view(const struct sp_sacct *p, size_t i,
				struct sp_slice *v);

/* ------------------------------------------------------- the folding */

/* The values a row carries by itself (allocation or step). */
void sp_sacct_row_values(const struct sp_slice *v, struct sp_sacct_rec *r);
/*
 * An allocation's record: its own row's values (r, from
 * sp_sacct_row_values), then what its nsteps step rows, rows first ...,
 * of the group say.
 */
void sp_sacct_fold(struct sp_sacct *p, sp_sacct_step_view *view_step,
		   const struct sp_slice *av, size_t first, size_t nsteps,
		   struct sp_sacct_rec *r);
/* A step's own record, with its allocation's identity and limits. */
void sp_sacct_step_record(const struct sp_slice *sv,
			  const struct sp_sacct_rec *alloc,
			  struct sp_sacct_rec *r);

#endif
