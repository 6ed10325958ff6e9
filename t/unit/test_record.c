/*
 * The record reader and writer: exact fields, every malformed input the
 * reader must refuse, escapes round-tripping, and each output format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp.h"
#include "tap.h"

/* Opens a reader over text; returns the open status. */
static int
open_text(struct sp_reader *r, FILE **fp, const char *text, size_t n)
{
	*fp = fmemopen((void *)text, n, "r");
	return sp_reader_open_stream(r, *fp, "in");
}

static void
test_basic(void)
{
	static const char text[] = "a\tb\tc\n1\t\t3\nx\\ty\tq\tr";
	struct sp_reader r;
	FILE *fp;

	is_int(0, open_text(&r, &fp, text, strlen(text)), "header read");
	is_int(3, (long long)r.ncols, "three columns");
	is_int(1, sp_reader_col(&r, "b"), "column b found by name");
	is_int(-1, sp_reader_col(&r, "z"), "absent column is -1");
	is_int(1, sp_reader_next(&r), "first record");
	is_string("1", r.f[0].p, "field a");
	is_int(0, (long long)r.f[1].n, "empty field is empty");
	is_string("3", r.f[2].p, "field c is NUL-terminated in place");
	is_int(1, sp_reader_next(&r), "record without a final newline");
	is_string("x\\ty", r.f[0].p, "escapes stay encoded");
	is_string("r", r.f[2].p, "last field");
	is_int(0, sp_reader_next(&r), "end of input");
	is_int(0, sp_reader_next(&r), "end stays the end");
	sp_reader_close(&r);
	fclose(fp);
}

static void
expect_error(const char *text, const char *want, const char *what)
{
	struct sp_reader r;
	FILE *fp;
	int rc;

	rc = open_text(&r, &fp, text, strlen(text) + (strstr(what, "NUL") ?
						       4 : 0));
	if (rc == 0)
		while ((rc = sp_reader_next(&r)) == 1)
			;
	is_int(-1, rc, "%s: refused", what);
	is_string(want, sp_buf_str(&r.err), "%s: message", what);
	sp_reader_close(&r);
	fclose(fp);
}

static void
test_malformed(void)
{
	expect_error("a\tb\n1\t2\n1\n", "in:3: 1 fields, the header has 2",
		     "too few fields");
	expect_error("a\tb\n1\t2\t3\n", "in:2: 3 fields, the header has 2",
		     "too many fields");
	expect_error("a\tb\n1\t2\r\n",
		     "in:2: carriage return before the line end (DOS line "
		     "endings? try: tr -d '\\r')", "CR before LF");
	expect_error("", "in: no header line (empty input)", "empty input");
	expect_error("a\t\tb\n", "in:1: header column 2 has no name",
		     "unnamed column");
}

static void
test_nul(void)
{
	static const char text[] = "a\nx\0y\n";
	struct sp_reader r;
	FILE *fp;

	is_int(0, open_text(&r, &fp, text, sizeof text - 1), "NUL: header");
	is_int(-1, sp_reader_next(&r), "NUL byte refused");
	is_string("in:2: NUL byte in the input (binary data?)",
		  sp_buf_str(&r.err), "NUL byte message");
	sp_reader_close(&r);
	fclose(fp);
}

static void
test_repeated_header(void)
{
	static const char text[] = "a\tb\n1\t2\na\tb\n3\t4\n";
	struct sp_reader r;
	FILE *fp;
	int n = 0;

	open_text(&r, &fp, text, strlen(text));
	while (sp_reader_next(&r) == 1)
		n++;
	is_int(2, n, "a header repeated mid-stream is skipped");
	sp_reader_close(&r);
	fclose(fp);
}

static void
test_long_line(void)
{
	size_t big = 10 * 1024 * 1024;
	char *text = malloc(big + 16);
	struct sp_reader r;
	FILE *fp;

	memcpy(text, "a\n", 2);
	memset(text + 2, 'x', big);
	text[2 + big] = '\n';
	open_text(&r, &fp, text, big + 3);
	is_int(1, sp_reader_next(&r), "a 10 MB line is one record");
	is_int((long long)big, (long long)r.f[0].n, "nothing truncated");
	sp_reader_close(&r);
	fclose(fp);
	free(text);
}

static void
test_many_columns(void)
{
	size_t n = 1000000;
	struct sp_buf b = { 0 };
	struct sp_reader r;
	FILE *fp;

	for (size_t i = 0; i < n; i++)
		sp_buf_printf(&b, "%sc%zu", i ? "\t" : "", i);
	sp_buf_addc(&b, '\n');
	for (size_t i = 0; i < n; i++)
		sp_buf_adds(&b, i ? "\t1" : "1");
	sp_buf_addc(&b, '\n');
	open_text(&r, &fp, b.p, b.len);
	is_int((long long)n, (long long)r.ncols, "a million columns");
	is_int(1, sp_reader_next(&r), "and their record");
	is_int(999999, sp_reader_col(&r, "c999999"), "last found by name");
	sp_reader_close(&r);
	fclose(fp);
	sp_buf_free(&b);
}

static void
test_files(void)
{
	char d[] = "/tmp/sp-test-XXXXXX", a[64], b[64], c[64], m[64];
	char *paths[2];
	struct sp_reader r;
	FILE *fp;
	int n = 0;

	if (mkdtemp(d) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(a, sizeof a, "%s/a", d);
	snprintf(b, sizeof b, "%s/b", d);
	snprintf(c, sizeof c, "%s/c", d);
	fp = fopen(a, "w"); fputs("x\ty\n1\t2\n", fp); fclose(fp);
	fp = fopen(b, "w"); fputs("x\ty\n3\t4\n", fp); fclose(fp);
	fp = fopen(c, "w"); fputs("x\tz\n3\t4\n", fp); fclose(fp);
	paths[0] = a;
	paths[1] = b;
	is_int(0, sp_reader_open(&r, paths, 2), "two files open");
	while (sp_reader_next(&r) == 1)
		n++;
	is_int(2, n, "records of both files, the second header dropped");
	sp_reader_close(&r);
	paths[1] = c;
	sp_reader_open(&r, paths, 2);
	while (sp_reader_next(&r) == 1)
		;
	ok(strstr(sp_buf_str(&r.err), "/c:1: header differs from the "
		  "first input's") != NULL, "a different header is refused");
	sp_reader_close(&r);
	snprintf(m, sizeof m, "%s/missing", d);
	paths[0] = m;
	is_int(-1, sp_reader_open(&r, paths, 1), "missing file refused");
	ok(strstr(sp_buf_str(&r.err), "/missing: No such file or directory")
	   != NULL, "missing file message");
	sp_reader_close(&r);
	unlink(a);
	unlink(b);
	unlink(c);
	rmdir(d);
}

static void
test_escapes(void)
{
	struct sp_buf enc = { 0 }, dec = { 0 };
	unsigned long long seed = 42;
	int good = 1;

	sp_field_encode(&enc, "a\tb\nc\rd\\e", 9);
	is_string("a\\tb\\nc\\rd\\\\e", sp_buf_str(&enc), "encode");
	sp_field_decode(&dec, enc.p, enc.len);
	is_string("a\tb\nc\rd\\e", sp_buf_str(&dec), "decode");
	sp_buf_clear(&dec);
	sp_field_decode(&dec, "x\\qy\\", 5);
	is_string("x\\qy\\", sp_buf_str(&dec),
		  "unknown escape and lone backslash kept");
	/* Property: decode(encode(s)) == s, and no TAB/LF/CR survive. */
	for (int round = 0; round < 2000; round++) {
		char raw[64];
		size_t n = (size_t)(round % 64);

		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ULL + 1;
			raw[i] = (char)(seed >> 56);
			if (raw[i] == 0)
				raw[i] = '\\';
		}
		sp_buf_clear(&enc);
		sp_buf_clear(&dec);
		sp_field_encode(&enc, raw, n);
		sp_field_decode(&dec, sp_buf_str(&enc), enc.len);
		if (dec.len != n || (n && memcmp(dec.p, raw, n) != 0) ||
		    memchr(sp_buf_str(&enc), '\t', enc.len) ||
		    memchr(sp_buf_str(&enc), '\n', enc.len) ||
		    memchr(sp_buf_str(&enc), '\r', enc.len))
			good = 0;
	}
	ok(good, "escapes round-trip 2000 random fields");
	sp_buf_free(&dec);
	sp_field_decode(&dec, "", 0);
	is_string("", sp_buf_str(&dec), "an empty field decodes to a string");
	sp_buf_free(&enc);
	sp_buf_free(&dec);
}

static void
num(const char *s, int want_rc, double want, const char *what)
{
	double v = -12345;
	int rc = sp_field_num((struct sp_slice){ s, strlen(s) }, &v);

	is_int(want_rc, rc, "number %s: status", what);
	if (want_rc == 1)
		is_double(want, v, 1e-9 * (want < 0 ? -want : want) + 1e-12,
			  "number %s: value", what);
}

static void
test_numbers(void)
{
	num("12", 1, 12, "integer");
	num("-3.5", 1, -3.5, "negative decimal");
	num("0.000001", 1, 1e-6, "small decimal");
	num("1e3", 1, 1000, "exponent");
	num("12345678901234567890", 1, 12345678901234567890.0, "20 digits");
	num("0.1234567890123456789", 1, 0.1234567890123456789, "long fraction");
	num("", 0, 0, "empty is unknown");
	num("1:00", -1, 0, "a duration is not a number");
	num("nan", -1, 0, "nan");
	num("inf", -1, 0, "inf");
	num(" 1", -1, 0, "leading blank");
	num("0x10", -1, 0, "hex");
	num("1.2.3", -1, 0, "two points");
	num(".", -1, 0, "lone point");
	num("-", -1, 0, "lone sign");
	num("1e999", -1, 0, "overflow");
}

/* Runs one record through a writer in a format; returns the text. */
static char *
write_one(enum sp_format fmt)
{
	char *out = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&out, &n);
	struct sp_writer w;

	sp_writer_init(&w, fp, fmt);
	sp_writer_column(&w, "name");
	sp_writer_column(&w, "elapsed_s");
	sp_writer_column(&w, "max_rss_b");
	sp_writer_column(&w, "rate");
	sp_writer_header(&w);
	sp_writer_raw(&w, "a\t\"b\"", 5);
	sp_writer_num(&w, 6769);
	sp_writer_empty(&w);
	sp_writer_num(&w, 0.25);
	sp_writer_end(&w);
	sp_writer_str(&w, "\x1b[31mred");
	sp_writer_str(&w, "1:00");
	sp_writer_num(&w, 45097156608.0);
	sp_writer_num(&w, 0.0004);
	sp_writer_end(&w);
	sp_writer_finish(&w);
	fclose(fp);
	return out;
}

/* One column whose name and values are the caller's. */
static char *
write_column(enum sp_format fmt, const char *name, const char *value)
{
	char *out = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&out, &n);
	struct sp_writer w;

	sp_writer_init(&w, fp, fmt);
	sp_writer_column(&w, name);
	sp_writer_header(&w);
	sp_writer_str(&w, value);
	sp_writer_end(&w);
	sp_writer_finish(&w);
	fclose(fp);
	return out;
}

static void
test_writer_edges(void)
{
	char *s;

	s = write_column(SP_FMT_CSV, "name", "");
	is_string("\"name\"\n\"\"\n", s,
		  "CSV: a lone empty field is \"\", not a skipped empty line");
	free(s);
	s = write_column(SP_FMT_PLAIN, "\x1b[2Jname", "x");
	is_string("\\x1b[2Jname\nx\n", s,
		  "plain: a column name's escapes are shown, not obeyed");
	free(s);
}

static void
test_writer(void)
{
	char *s;

	s = write_one(SP_FMT_TSV);
	is_string("name\telapsed_s\tmax_rss_b\trate\n"
		  "a\\t\"b\"\t6769\t\t0.25\n"
		  "\x1b[31mred\t1:00\t45097156608\t0.0004\n", s, "TSV");
	free(s);
	s = write_one(SP_FMT_JSON);
	is_string("{\"name\":\"a\\t\\\"b\\\"\",\"elapsed_s\":6769,"
		  "\"max_rss_b\":null,\"rate\":0.25}\n"
		  "{\"name\":\"\\u001b[31mred\",\"elapsed_s\":\"1:00\","
		  "\"max_rss_b\":45097156608,\"rate\":0.0004}\n", s,
		  "JSON: null for unknown, numbers typed, text escaped");
	free(s);
	s = write_one(SP_FMT_CSV);
	is_string("\"name\",\"elapsed_s\",\"max_rss_b\",\"rate\"\n"
		  "\"a\t\"\"b\"\"\",\"6769\",,\"0.25\"\n"
		  "\"\x1b[31mred\",\"1:00\",\"45097156608\",\"0.0004\"\n", s,
		  "CSV through libcsv");
	free(s);
	s = write_one(SP_FMT_PLAIN);
	is_string("name         elapsed_s  max_rss_b  rate\n"
		  "a \"b\"         01:52:49        n/a  25.0%\n"
		  "\\x1b[31mred       1:00   42.0 GiB  <0.1%\n", s,
		  "plain: human units, n/a, a field decoded (its tab a "
		  "space), control characters visible");
	free(s);
}

static void
test_sanitize(void)
{
	struct sp_buf b = { 0 };

	sp_text_clean(&b, "ok \xc3\xa9 \x1b]0;x\x07 \xc2\x9b \xff", 17, 0);
	is_string("ok \xc3\xa9 \\x1b]0;x\\x07 \\u009b \\xff", sp_buf_str(&b),
		  "escape sequences, C1 controls, bad UTF-8 shown visibly");
	sp_buf_free(&b);
}

int
main(void)
{
	plan_lazy();
	test_basic();
	test_malformed();
	test_nul();
	test_repeated_header();
	test_long_line();
	test_many_columns();
	test_files();
	test_escapes();
	test_numbers();
	test_writer();
	test_writer_edges();
	test_sanitize();
	return done_testing();
}
