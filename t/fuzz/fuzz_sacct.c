/*
 * fuzz_sacct.c - the sacct --parsable2 parser and step folding.
 *
 * The first byte of the input chooses the configuration (delimiter or
 * its detection, CSV, --steps, a --fields list instead of a header line,
 * and a chunk size); the rest is sacct's text.  Properties:
 *   - any chunking gives the same records, the same counts and the same
 *     verdict as one push of the whole text (the parser says it takes any);
 *   - abandoning instead of finishing writes a prefix of those records
 *     (a cut sacct never adds a record a whole one would not have);
 *   - a number is finite or unknown (NaN), never infinite;
 *   - what sp-fetch would write from the records, the next stage reads:
 *     every record parses with sp_job_parse_checked.
 */
#include <math.h>
#include <string.h>

#include "sp.h"
#include "sp_sacct.h"
#include "fuzz.h"

/* A headerless field list, as --fields gives it. */
static const char fields[] = "JobID,JobIDRaw,JobName,User,State,Partition,"
	"Submit,Start,End,Elapsed,Timelimit,ReqMem,ReqTRES,AllocTRES,NCPUS,"
	"NNodes,NodeList,ExitCode,TotalCPU,MaxRSS,CPUTime";

struct sink {
	struct sp_buf sig;	/* every record, serialised exactly */
	unsigned long n;
	struct sp_writer *w;	/* as sp-fetch writes them, or NULL */
};

static void
emit(void *ctx, const struct sp_sacct_rec *rec)
{
	struct sink *s = ctx;

	for (int i = 0; i < SP_JC_COUNT; i++) {
		if (sp_sacct_col_is_num(i)) {
			double v = rec->num[i];

			FUZZ_CHECK(isnan(v) || isfinite(v),
				   "a number is finite or unknown");
			if (isnan(v))
				sp_buf_adds(&s->sig, "nan;");
			else
				sp_buf_printf(&s->sig, "%a;", v);
			if (s->w)
				sp_writer_num(s->w, v);
		} else {
			struct sp_slice t = rec->text[i];

			FUZZ_CHECK(t.n == 0 || t.p != NULL, "a text slice");
			sp_buf_printf(&s->sig, "%zu:", t.n);
			sp_buf_add(&s->sig, t.p, t.n);
			if (s->w)
				sp_writer_raw(s->w, t.p, t.n);
		}
	}
	sp_buf_addc(&s->sig, '\n');
	if (s->w)
		sp_writer_end(s->w);
	s->n++;
}

enum how { WHOLE, CHUNKED, ABANDONED };

/* Parses text one way; returns 0, or -1 when the parser refused it. */
static int
parse(const struct sp_sacct_config *base, const char *text, size_t n,
      enum how how, size_t chunk, struct sink *s,
      struct sp_sacct_stats *st)
{
	struct sp_sacct p;
	struct sp_sacct_config cfg = *base;
	int rc = 0;

	cfg.emit = emit;
	cfg.ctx = s;
	sp_sacct_init(&p, &cfg);
	if (how == CHUNKED) {
		for (size_t at = 0; at < n && rc == 0; at += chunk)
			rc = sp_sacct_feed(&p, text + at,
					   n - at < chunk ? n - at : chunk);
	} else if (n > 0) {
		rc = sp_sacct_feed(&p, text, n);
	}
	if (rc == 0 && how != ABANDONED)
		rc = sp_sacct_finish(&p);
	else
		sp_sacct_abandon(&p);
	if (rc != 0)
		FUZZ_CHECK(p.err.len > 0, "a refusal says why");
	FUZZ_CHECK(rc == 0 || rc == -1, "0 or -1");
	*st = p.st;
	sp_sacct_free(&p);
	return rc;
}

/* The records as sp-fetch writes them must be read by the next stage. */
static void
check_next_stage(const char *tsv, size_t len, unsigned long want)
{
	FILE *fp = fmemopen((void *)tsv, len, "r");
	struct sp_reader r;
	struct sp_jobcols c;
	struct sp_job j;
	unsigned long got = 0;
	int rc;

	FUZZ_CHECK(fp != NULL, "fmemopen");
	FUZZ_CHECK(sp_reader_open_stream(&r, fp, "<sp-fetch>") == 0,
		   "sp-fetch output has its header");
	sp_jobcols_resolve(&c, &r);
	while ((rc = sp_reader_next(&r)) == 1) {
		if (sp_job_parse_checked(&j, &c, &r) != 0) {
			fprintf(stderr, "%s\n", sp_buf_str(&r.err));
			FUZZ_CHECK(0, "the next stage reads sp-fetch's record");
		}
		got++;
	}
	if (rc < 0)
		fprintf(stderr, "%s\n", sp_buf_str(&r.err));
	FUZZ_CHECK(rc == 0, "sp-fetch output reads to its end");
	FUZZ_CHECK(got == want, "every record comes back");
	sp_reader_close(&r);
	fclose(fp);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t chunks[] = { 1, 2, 3, 5, 7, 11, 16, 31, 64, 100,
		127, 256, 509, 1024, 4093, 8192 };
	static const int delims[] = { SP_SACCT_DETECT, '|', 0x1f,
		SP_SACCT_CSV };
	struct sp_sacct_config cfg;
	struct sink whole = { { 0 }, 0, NULL }, cut = { { 0 }, 0, NULL },
		    cut2 = { { 0 }, 0, NULL };
	struct sp_sacct_stats st_whole, st_cut, st_ab;
	struct sp_writer w;
	char *tsv = NULL;
	size_t tsvlen = 0, n, chunk;
	const char *text;
	FILE *mem;
	int rc_whole, rc_cut;

	if (size == 0)
		return 0;
	memset(&cfg, 0, sizeof cfg);
	cfg.delim = delims[data[0] & 3];
	cfg.steps = (data[0] & 4) != 0;
	cfg.fields = (data[0] & 8) ? fields : NULL;
	chunk = chunks[data[0] >> 4];
	text = (const char *)data + 1;
	n = size - 1;

	mem = open_memstream(&tsv, &tsvlen);
	FUZZ_CHECK(mem != NULL, "open_memstream");
	sp_writer_init(&w, mem, SP_FMT_TSV);
	for (int i = 0; i < SP_JC_COUNT; i++)
		sp_writer_column(&w, sp_job_column_names[i]);
	sp_writer_header(&w);
	whole.w = &w;

	rc_whole = parse(&cfg, text, n, WHOLE, 0, &whole, &st_whole);
	rc_cut = parse(&cfg, text, n, CHUNKED, chunk, &cut, &st_cut);
	FUZZ_CHECK(rc_whole == rc_cut, "chunking keeps the verdict");
	if (rc_whole == 0) {
		FUZZ_CHECK(whole.sig.len == cut.sig.len &&
			   memcmp(sp_buf_str(&whole.sig), sp_buf_str(&cut.sig),
				  whole.sig.len) == 0,
			   "chunking keeps every record");
		FUZZ_CHECK(memcmp(&st_whole, &st_cut, sizeof st_whole) == 0,
			   "chunking keeps the counts");
		FUZZ_CHECK(st_whole.allocations <= whole.n,
			   "allocations are among the records");
	}

	(void)parse(&cfg, text, n, ABANDONED, 0, &cut2, &st_ab);
	FUZZ_CHECK(cut2.sig.len <= whole.sig.len &&
		   memcmp(sp_buf_str(&cut2.sig), sp_buf_str(&whole.sig),
			  cut2.sig.len) == 0,
		   "an abandoned parse writes a prefix of the whole");

	sp_writer_finish(&w);
	fclose(mem);
	if (rc_whole == 0)
		check_next_stage(tsv, tsvlen, whole.n);

	free(tsv);
	sp_buf_free(&whole.sig);
	sp_buf_free(&cut.sig);
	sp_buf_free(&cut2.sig);
	return 0;
}
