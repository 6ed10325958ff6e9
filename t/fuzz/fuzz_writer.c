/*
 * fuzz_writer.c - the TSV, JSON, CSV and --plain writers, by round trip.
 *
 * The input is read as records (TSV with a header); every record is
 * written in all four formats at once, and each output is read back by a
 * parser that is not the writer's: TSV by the record reader, JSON by the
 * small validating parser below, CSV by libcsv.  Each must give back the
 * same columns and fields: TSV byte for byte, CSV decoded, JSON decoded
 * with invalid UTF-8 shown as U+FFFD, an empty field as null and a number
 * only in a numeric column and only as the field's own text.  --plain must
 * reach a terminal with no control character and only valid UTF-8.
 */
#include <string.h>

#include <csv.h>

#include "sp.h"
#include "fuzz.h"

/* The records as read: every field in record form, row after row. */
struct table {
	char **cols;
	size_t ncols;
	char **cell;
	size_t ncell, cap;
};

static void
table_free(struct table *t)
{
	for (size_t i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	for (size_t i = 0; i < t->ncell; i++)
		free(t->cell[i]);
	free(t->cols);
	free(t->cell);
}

/* Invalid UTF-8 bytes become U+FFFD one by one, as the JSON writer does. */
static void
utf8_fix(struct sp_buf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		int len = fuzz_utf8_len(p + i, n - i);

		if (len == 0) {
			sp_buf_add(out, "\xef\xbf\xbd", 3);
			i++;
		} else {
			sp_buf_add(out, s + i, (size_t)len);
			i += (size_t)len;
		}
	}
}

/* ------------------------------------------------------- a JSON reader */

struct json {
	const char *p, *end;
};

static int
hex4(struct json *j, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++, j->p++) {
		char c = j->p < j->end ? *j->p : 0;

		*out <<= 4;
		if (c >= '0' && c <= '9')
			*out |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*out |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*out |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static void
put_utf8(struct sp_buf *b, unsigned cp)
{
	if (cp < 0x80) {
		sp_buf_addc(b, (char)cp);
	} else if (cp < 0x800) {
		sp_buf_addc(b, (char)(0xc0 | cp >> 6));
		sp_buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		sp_buf_addc(b, (char)(0xe0 | cp >> 12));
		sp_buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
		sp_buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	} else {
		sp_buf_addc(b, (char)(0xf0 | cp >> 18));
		sp_buf_addc(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
		sp_buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
		sp_buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	}
}

/* A JSON string (RFC 8259), decoded into out; -1 when it is not one. */
static int
json_string(struct json *j, struct sp_buf *out)
{
	if (j->p >= j->end || *j->p != '"')
		return -1;
	j->p++;
	while (j->p < j->end && *j->p != '"') {
		const unsigned char *u = (const unsigned char *)j->p;
		unsigned cp, lo;
		int len;

		if (*u < 0x20)
			return -1;	/* raw control characters are invalid */
		if (*u != '\\') {
			len = fuzz_utf8_len(u, (size_t)(j->end - j->p));
			if (len == 0)
				return -1;
			sp_buf_add(out, j->p, (size_t)len);
			j->p += len;
			continue;
		}
		if (++j->p >= j->end)
			return -1;
		switch (*j->p++) {
		case '"': sp_buf_addc(out, '"'); break;
		case '\\': sp_buf_addc(out, '\\'); break;
		case '/': sp_buf_addc(out, '/'); break;
		case 'b': sp_buf_addc(out, '\b'); break;
		case 'f': sp_buf_addc(out, '\f'); break;
		case 'n': sp_buf_addc(out, '\n'); break;
		case 'r': sp_buf_addc(out, '\r'); break;
		case 't': sp_buf_addc(out, '\t'); break;
		case 'u':
			if (hex4(j, &cp) < 0)
				return -1;
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return -1;	/* a lone low surrogate */
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (j->end - j->p < 6 || j->p[0] != '\\' ||
				    j->p[1] != 'u')
					return -1;
				j->p += 2;
				if (hex4(j, &lo) < 0 || lo < 0xdc00 ||
				    lo > 0xdfff)
					return -1;
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (lo - 0xdc00);
			}
			put_utf8(out, cp);
			break;
		default:
			return -1;
		}
	}
	if (j->p >= j->end)
		return -1;
	j->p++;
	return 0;
}

/* A JSON number; its text is left in [*start, j->p). */
static int
json_number(struct json *j, const char **start)
{
	const char *p = j->p, *e = j->end, *d;

	*start = p;
	if (p < e && *p == '-')
		p++;
	if (p < e && *p == '0')
		p++;
	else if (p < e && *p >= '1' && *p <= '9')
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	else
		return -1;
	if (p < e && *p == '.') {
		d = ++p;
		while (p < e && *p >= '0' && *p <= '9')
			p++;
		if (p == d)
			return -1;
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < e && (*p == '+' || *p == '-'))
			p++;
		d = p;
		while (p < e && *p >= '0' && *p <= '9')
			p++;
		if (p == d)
			return -1;
	}
	j->p = p;
	return 0;
}

/* One JSON Lines object against one record of the table. */
static void
check_json_object(struct json *j, const struct table *t, size_t row,
		  const enum sp_kind *kinds)
{
	struct sp_buf key = { 0 }, want = { 0 }, val = { 0 }, dec = { 0 };

	FUZZ_CHECK(j->p < j->end && *j->p == '{', "a record is an object");
	j->p++;
	for (size_t c = 0; c < t->ncols; c++) {
		const char *field = t->cell[row * t->ncols + c];
		size_t n = strlen(field);

		if (c > 0) {
			FUZZ_CHECK(j->p < j->end && *j->p == ',',
				   "members are separated by commas");
			j->p++;
		}
		sp_buf_clear(&key);
		sp_buf_clear(&want);
		FUZZ_CHECK(json_string(j, &key) == 0, "a key is a string");
		utf8_fix(&want, t->cols[c], strlen(t->cols[c]));
		FUZZ_CHECK(key.len == want.len &&
			   memcmp(sp_buf_str(&key), sp_buf_str(&want),
				  key.len) == 0,
			   "keys are the column names, in order");
		FUZZ_CHECK(j->p < j->end && *j->p == ':', "a colon");
		j->p++;
		if (j->p < j->end && *j->p == 'n') {
			FUZZ_CHECK(j->end - j->p >= 4 &&
				   memcmp(j->p, "null", 4) == 0, "null");
			j->p += 4;
			FUZZ_CHECK(n == 0, "null is an empty field");
		} else if (j->p < j->end && *j->p == '"') {
			sp_buf_clear(&val);
			sp_buf_clear(&dec);
			sp_buf_clear(&want);
			FUZZ_CHECK(json_string(j, &val) == 0,
				   "a value is a valid string");
			FUZZ_CHECK(n > 0, "an empty field is null, not \"\"");
			sp_field_decode(&dec, field, n);
			utf8_fix(&want, sp_buf_str(&dec), dec.len);
			FUZZ_CHECK(val.len == want.len &&
				   memcmp(sp_buf_str(&val), sp_buf_str(&want),
					  val.len) == 0,
				   "a string is the decoded field");
		} else {
			const char *start;

			FUZZ_CHECK(json_number(j, &start) == 0,
				   "a value is null, a string or a number");
			FUZZ_CHECK(kinds[c] != SP_KIND_TEXT,
				   "a text column is never a number");
			FUZZ_CHECK((size_t)(j->p - start) == n &&
				   memcmp(start, field, n) == 0,
				   "a number is the field's own text");
		}
	}
	FUZZ_CHECK(j->p < j->end && *j->p == '}', "the object ends");
	j->p++;
	FUZZ_CHECK(j->p < j->end && *j->p == '\n', "one object a line");
	j->p++;
	sp_buf_free(&key);
	sp_buf_free(&want);
	sp_buf_free(&val);
	sp_buf_free(&dec);
}

static void
check_json(const char *out, size_t len, const struct table *t,
	   const enum sp_kind *kinds)
{
	struct json j = { out, out + len };
	size_t rows = t->ncell / t->ncols;

	for (size_t r = 0; r < rows; r++)
		check_json_object(&j, t, r, kinds);
	FUZZ_CHECK(j.p == j.end, "nothing after the last record");
}

/* ----------------------------------------------------------- CSV back */

struct csv_back {
	const struct table *t;
	size_t row;		/* 0 is the header */
	size_t col;
	struct sp_buf want;
};

static void
csv_field(void *p, size_t n, void *data)
{
	struct csv_back *b = data;
	const struct table *t = b->t;
	const char *raw;

	FUZZ_CHECK(b->col < t->ncols, "no more CSV fields than columns");
	sp_buf_clear(&b->want);
	if (b->row == 0) {
		raw = t->cols[b->col];
		sp_buf_adds(&b->want, raw);
	} else {
		FUZZ_CHECK((b->row - 1) * t->ncols < t->ncell,
			   "no more CSV rows than records");
		raw = t->cell[(b->row - 1) * t->ncols + b->col];
		sp_field_decode(&b->want, raw, strlen(raw));
	}
	FUZZ_CHECK(n == b->want.len &&
		   (n == 0 || memcmp(p, b->want.p, n) == 0),
		   "a CSV field is the decoded field");
	b->col++;
}

static void
csv_row(int c, void *data)
{
	struct csv_back *b = data;

	(void)c;
	FUZZ_CHECK(b->col == b->t->ncols, "a CSV row has every column");
	b->row++;
	b->col = 0;
}

static void
check_csv(const char *out, size_t len, const struct table *t)
{
	struct csv_parser p;
	struct csv_back b = { t, 0, 0, { 0 } };

	FUZZ_CHECK(csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) == 0,
		   "csv_init");
	FUZZ_CHECK(csv_parse(&p, out, len, csv_field, csv_row, &b) == len,
		   "libcsv reads the CSV writer's output");
	FUZZ_CHECK(csv_fini(&p, csv_field, csv_row, &b) == 0,
		   "the CSV output is complete");
	csv_free(&p);
	FUZZ_CHECK(b.row == 1 + t->ncell / t->ncols,
		   "one CSV row a record, after the header");
	sp_buf_free(&b.want);
}

/* ----------------------------------------------------------- TSV back */

static void
check_tsv(const char *out, size_t len, const struct table *t)
{
	FILE *fp = fmemopen((void *)out, len, "r");
	struct sp_reader r;
	size_t row = 0;
	int rc;

	FUZZ_CHECK(fp != NULL, "fmemopen");
	FUZZ_CHECK(sp_reader_open_stream(&r, fp, "<tsv>") == 0,
		   "the TSV output has its header");
	FUZZ_CHECK(r.ncols == t->ncols, "the same columns");
	for (size_t c = 0; c < t->ncols; c++)
		FUZZ_CHECK(strcmp(r.cols[c], t->cols[c]) == 0,
			   "the same column names");
	while ((rc = sp_reader_next(&r)) == 1) {
		FUZZ_CHECK(row < t->ncell / t->ncols, "no extra TSV record");
		for (size_t c = 0; c < t->ncols; c++)
			FUZZ_CHECK(strcmp(r.f[c].p,
					  t->cell[row * t->ncols + c]) == 0,
				   "a TSV field comes back byte for byte");
		row++;
	}
	FUZZ_CHECK(rc == 0, "the TSV output reads to its end");
	FUZZ_CHECK(row == t->ncell / t->ncols, "every TSV record");
	sp_reader_close(&r);
	fclose(fp);
}

/* Every --plain line, the header's included, is safe on a terminal. */
static void
check_plain(const char *out, size_t len)
{
	const char *p = out, *end = out + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		FUZZ_CHECK(nl != NULL, "--plain lines end in LF");
		fuzz_check_display_safe(p, (size_t)(nl - p));
		p = nl + 1;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum sp_format fmts[] = { SP_FMT_TSV, SP_FMT_JSON,
		SP_FMT_CSV, SP_FMT_PLAIN };
	enum { NFMT = sizeof fmts / sizeof fmts[0] };
	struct sp_writer w[NFMT];
	char *out[NFMT] = { 0 };
	size_t outlen[NFMT] = { 0 };
	FILE *mem[NFMT];
	struct table t = { 0 };
	struct sp_reader r;
	FILE *fp = fuzz_stream(data, size);
	enum sp_kind *kinds;
	int rc;

	if (fp == NULL)
		return 0;
	if (sp_reader_open_stream(&r, fp, "<fuzz>") < 0) {
		sp_reader_close(&r);
		fclose(fp);
		return 0;
	}
	t.ncols = r.ncols;
	t.cols = sp_xcalloc(r.ncols, sizeof *t.cols);
	kinds = sp_xcalloc(r.ncols, sizeof *kinds);
	for (size_t c = 0; c < r.ncols; c++) {
		t.cols[c] = sp_xstrdup(r.cols[c]);
		kinds[c] = sp_column_kind(r.cols[c]);
	}
	for (int f = 0; f < NFMT; f++) {
		mem[f] = open_memstream(&out[f], &outlen[f]);
		FUZZ_CHECK(mem[f] != NULL, "open_memstream");
		sp_writer_init(&w[f], mem[f], fmts[f]);
		sp_writer_columns_from(&w[f], &r);
		sp_writer_header(&w[f]);
	}
	while ((rc = sp_reader_next(&r)) == 1) {
		t.cell = sp_xgrow(t.cell, &t.cap, t.ncell + r.ncols,
				  sizeof *t.cell);
		for (size_t c = 0; c < r.ncols; c++)
			t.cell[t.ncell++] = sp_xstrndup(r.f[c].p, r.f[c].n);
		for (int f = 0; f < NFMT; f++) {
			sp_writer_fields_from(&w[f], &r);
			sp_writer_end(&w[f]);
		}
	}
	for (int f = 0; f < NFMT; f++) {
		sp_writer_finish(&w[f]);
		fclose(mem[f]);
	}
	/* Only what was read whole is compared; an error stops both. */
	check_tsv(out[0], outlen[0], &t);
	check_json(out[1], outlen[1], &t, kinds);
	check_csv(out[2], outlen[2], &t);
	check_plain(out[3], outlen[3]);

	for (int f = 0; f < NFMT; f++)
		free(out[f]);
	free(kinds);
	table_free(&t);
	sp_reader_close(&r);
	fclose(fp);
	return 0;
}
