/*
 * What a terminal is given (sp_term.h): text from a record made safe,
 * and its width in cells, wide and combining characters included, so
 * that a column of names lines up whatever script they are in.
 */
#include <string.h>

#include "sp.h"
#include "sp_term.h"
#include "tap.h"

static size_t
cells(const char *s)
{
	return sp_text_width(s, strlen(s));
}

static void
widths(void)
{
	is_int(5, (long long)cells("train"), "ASCII: a cell a byte");
	is_int(4, (long long)cells("caf\xc3\xa9"), "a precomposed accent: one");
	is_int(4, (long long)cells("cafe\xcc\x81"),
	       "a combining accent takes no cell");
	is_int(4, (long long)cells("\xe8\xae\xad\xe7\xbb\x83"),
	       "two CJK characters: two cells each");
	is_int(2, (long long)cells("\xf0\x9f\x9a\x80"), "an emoji drawn wide");
	is_int(3, (long long)cells("\033[1mabc\033[0m"),
	       "the paint's escapes take none");
	is_int(1, (long long)cells("\xff"), "a stray byte: one, as shown");
}

static void
fitting(void)
{
	const char *cjk = "a\xe8\xae\xad\xe7\xbb\x83";	/* a + two wide */

	is_int(1, (long long)sp_text_fit(cjk, strlen(cjk), 2),
	       "a wide character that would straddle the edge stays out");
	is_int(4, (long long)sp_text_fit(cjk, strlen(cjk), 3),
	       "it goes in when both its cells fit");
	is_int(7, (long long)sp_text_fit(cjk, strlen(cjk), 5),
	       "all of it in five");
}

/* What the two JSON readers (sp-attr, sp-submit) decode \uXXXX with. */
static void
code_points(void)
{
	char c[4];
	size_t n;

	is_int(15, sp_hex_digit('f'), "a hex digit, small");
	is_int(10, sp_hex_digit('A'), "a hex digit, capital");
	is_int(-1, sp_hex_digit('g'), "not a hex digit");
	n = sp_utf8_put(c, 0x41);
	ok(n == 1 && c[0] == 'A', "U+0041: one byte");
	n = sp_utf8_put(c, 0xe9);
	ok(n == 2 && memcmp(c, "\xc3\xa9", 2) == 0, "U+00E9: two");
	n = sp_utf8_put(c, 0x8bad);
	ok(n == 3 && memcmp(c, "\xe8\xae\xad", 3) == 0, "U+8BAD: three");
	n = sp_utf8_put(c, 0x1f680);
	ok(n == 4 && memcmp(c, "\xf0\x9f\x9a\x80", 4) == 0,
	   "U+1F680: four");
}

static void
fields(void)
{
	struct sp_term t = { 80, 0, 0, 1 };
	struct sp_buf b = { 0 };
	const char *f = "\033]0;x\007a\\tb\\\\c\\nd";

	sp_term_field(&t, &b, f, strlen(f), 0);
	is_string("\\x1b]0;x\\x07a b\\c\\x0ad", sp_buf_str(&b),
		  "a field decoded, then nothing in it obeyed");
	sp_buf_clear(&b);
	sp_term_field(&t, &b, "x\\ny", 4, 1);
	is_string("x\ny", sp_buf_str(&b), "a line break kept when asked");
	sp_buf_free(&b);
}

int
main(void)
{
	plan_lazy();
	widths();
	fitting();
	code_points();
	fields();
	return done_testing();
}
