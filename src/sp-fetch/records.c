/*
 * records.c - sp-fetch's records written: the header with the first,
 * each record as TSV in one write or through the writer's other formats.
 * Below every reader of sp-fetch (the parser's sink, --live, --input in
 * parallel), above nothing of it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sp.h"
#include "sp_sacct.h"
#include "fetch.h"

/*
 * The header goes out with the first record, or at a successful end:
 * a sacct that fails before answering leaves standard output empty, so
 * the next stage stops too ("no header line") instead of reading none.
 */
void
fetch_header(struct fetch_run *run)
{
	if (run->header_done)
		return;
	run->header_done = 1;
	sp_writer_header(&run->w);
}

/*
 * The two common cases written without a detour (most fields are whole
 * numbers and text without escapes); the output is the same bytes as
 * sp_writer_num and sp_writer_raw give, which take every other case.
 */
static void
put_num(struct sp_writer *w, double v)
{
	char tmp[SP_UINT_DIGITS + 1], *p;

	if (isnan(v)) {
		sp_writer_field(w, "", 0);
		return;
	}
	if (v != trunc(v) || fabs(v) >= 1e15) {
		sp_writer_num(w, v);
		return;
	}
	p = sp_uint_digits(tmp + sizeof tmp, (uint64_t)fabs(v));
	if (v < 0)
		*--p = '-';
	sp_writer_field(w, p, (size_t)(tmp + sizeof tmp - p));
}

static void
put_text(struct sp_writer *w, const char *p, size_t n)
{
	if (sp_field_clean_len(p, n) == n)
		sp_writer_field(w, p, n);
	else
		sp_writer_raw(w, p, n);
}

/* Which columns are numbers (sp_job.h's kind N). */
static const char col_num[SP_JC_COUNT] = {
#define SP_X(name, kind) #kind[0] == 'N',
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
};

/*
 * A number is written as its digits in a scratch of NUM_SCRATCH bytes,
 * ending NUM_COPY bytes in, and copied NUM_COPY bytes at once (a copy of
 * a fixed size is a few moves; one of the digits' length, a call): the
 * bytes past the digits land in the room reserved ahead, overwritten
 * by the next field.
 */
#define NUM_COPY 24
#define NUM_SCRATCH (2 * NUM_COPY)

void
fetch_tsv_record(struct sp_buf *b, const struct sp_sacct_rec *rec)
{
	size_t need = SP_JC_COUNT * NUM_COPY + 1 + NUM_COPY, i;
	char *o;

	for (i = 0; i < SP_JC_COUNT; i++)
		need += 2 * rec->text[i].n;
	sp_buf_reserve(b, need);
	o = b->p + b->len;
	for (i = 0; i < SP_JC_COUNT; i++) {
		if (i)
			*o++ = '\t';
		if (col_num[i]) {
			double v = rec->num[i];
			char tmp[NUM_SCRATCH], *d;

			uint64_t u;

			if (isnan(v))
				continue;
			/* An integer below 1e15 converts both ways unchanged:
			 * cheaper than trunc(), the same answer. */
			if (fabs(v) >= 1e15 ||
			    (double)(u = (uint64_t)fabs(v)) != fabs(v)) {
				b->len = (size_t)(o - b->p);
				sp_fmt_num(b, v);
				o = b->p + b->len;
				continue;
			}
			d = sp_uint_digits(tmp + NUM_COPY, u);
			if (v < 0)
				*--d = '-';
			memcpy(o, d, NUM_COPY);
			o += tmp + NUM_COPY - d;
		} else {
			struct sp_slice t = rec->text[i];

			/* Most text columns of most records are empty. */
			if (t.n == 0)
				continue;
			if (sp_field_clean_len(t.p, t.n) == t.n) {
				memcpy(o, t.p, t.n);
				o += t.n;
				continue;
			}
			b->len = (size_t)(o - b->p);
			sp_field_encode(b, t.p, t.n);
			o = b->p + b->len;
		}
	}
	*o++ = '\n';
	b->len = (size_t)(o - b->p);
}

/* A record in a format other than TSV, through the writer. */
void
fetch_writer_record(struct sp_writer *w, const struct sp_sacct_rec *rec)
{
	int i;

	for (i = 0; i < SP_JC_COUNT; i++) {
		if (sp_sacct_col_is_num(i))
			put_num(w, rec->num[i]);
		else
			put_text(w, rec->text[i].p, rec->text[i].n);
	}
	sp_writer_end(w);
}
