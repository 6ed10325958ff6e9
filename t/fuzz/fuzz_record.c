/*
 * fuzz_record.c - the record reader (header, records, fields) and the job
 * view on top of it, over any bytes.
 *
 * Properties beyond "no crash, no leak": every field is a NUL-terminated
 * slice free of TAB and LF; encoding a field and decoding it again gives
 * the same bytes; text made safe for a terminal holds no control
 * character and only valid UTF-8; a parsed number is finite; a failure
 * always leaves a message.
 */
#include <math.h>
#include <string.h>

#include "sp.h"
#include "fuzz.h"

static void
check_field(struct sp_slice f)
{
	struct sp_buf enc = { 0 }, dec = { 0 }, safe = { 0 };
	double v;

	FUZZ_CHECK(f.p[f.n] == '\0', "field is NUL-terminated");
	FUZZ_CHECK(memchr(f.p, '\t', f.n) == NULL, "field holds no TAB");
	FUZZ_CHECK(memchr(f.p, '\n', f.n) == NULL, "field holds no LF");

	/* Raw bytes -> record form -> raw bytes is the identity. */
	sp_field_encode(&enc, f.p, f.n);
	FUZZ_CHECK(memchr(sp_buf_str(&enc), '\t', enc.len) == NULL,
		   "encoded field holds no TAB");
	sp_field_decode(&dec, sp_buf_str(&enc), enc.len);
	FUZZ_CHECK(dec.len == f.n && memcmp(sp_buf_str(&dec), f.p, f.n) == 0,
		   "decode(encode(x)) == x");

	/* Decoding the field as it stands must not crash either. */
	sp_buf_clear(&dec);
	sp_field_decode(&dec, f.p, f.n);
	FUZZ_CHECK(dec.len <= f.n, "decoding never grows a field");

	sp_text_clean(&safe, f.p, f.n, 0);
	fuzz_check_display_safe(sp_buf_str(&safe), safe.len);
	(void)sp_text_width(f.p, f.n);

	switch (sp_field_num(f, &v)) {
	case 1:
		FUZZ_CHECK(isfinite(v), "a parsed number is finite");
		break;
	case 0:
		FUZZ_CHECK(f.n == 0, "only an empty field is unknown");
		break;
	default:
		FUZZ_CHECK(f.n > 0, "an empty field is not bad");
		break;
	}
	sp_buf_free(&enc);
	sp_buf_free(&dec);
	sp_buf_free(&safe);
}

static void
check_job(struct sp_reader *r, const struct sp_jobcols *c)
{
	struct sp_job j;

	if (sp_job_parse_checked(&j, c, r) < 0) {
		FUZZ_CHECK(r->err.len > 0, "a refused record says why");
		return;
	}
	(void)sp_job_usable(&j);
	(void)sp_job_failed(&j);
	(void)sp_job_noop(&j);
	(void)sp_job_hang(&j);
	(void)sp_job_io_explains(&j);
	(void)sp_job_cores(&j);
	(void)sp_job_gpus(&j);
	(void)sp_job_core_hours(&j);
	(void)sp_job_gpu_hours(&j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sp_reader r;
	struct sp_jobcols c;
	FILE *fp = fuzz_stream(data, size);
	int rc;

	if (fp == NULL)
		return 0;
	if (sp_reader_open_stream(&r, fp, "<fuzz>") < 0) {
		FUZZ_CHECK(r.err.len > 0, "a refused header says why");
		goto out;
	}
	FUZZ_CHECK(r.ncols >= 1, "a header has a column");
	for (size_t i = 0; i < r.ncols; i++) {
		int at = sp_reader_col(&r, r.cols[i]);

		FUZZ_CHECK(at >= 0 && (size_t)at <= i,
			   "a column is found by its name");
		FUZZ_CHECK(r.cols[i][0] != '\0', "a column has a name");
	}
	sp_jobcols_resolve(&c, &r);
	while ((rc = sp_reader_next(&r)) == 1) {
		for (size_t i = 0; i < r.ncols; i++)
			check_field(r.f[i]);
		check_job(&r, &c);
	}
	if (rc < 0)
		FUZZ_CHECK(r.err.len > 0, "a refused record says why");
out:
	sp_reader_close(&r);
	fclose(fp);
	return 0;
}
