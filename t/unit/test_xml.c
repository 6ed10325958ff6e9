/*
 * sp_xml_text: markup escaped, what XML cannot hold shown, everything
 * else passed through byte for byte; random bytes always come out as
 * text an XML parser takes (checked here by the rules of XML 1.0 Char).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_xml.h"
#include "tap.h"

static void
xml_is(const char *in, size_t n, const char *want, const char *what)
{
	struct sp_buf b = { 0 };

	sp_xml_text(&b, in, n);
	is_string(want, sp_buf_str(&b), "%s", what);
	sp_buf_free(&b);
}

/* 1 when s is a sequence of XML 1.0 Chars with no markup character. */
static int
xml_clean(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i], cp, len;

		if (c < 0x80) {
			if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
			    c == '<' || c == '>' || c == '"' || c == '\'')
				return 0;
			i++;
			continue;
		}
		len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
		if (i + len > n)
			return 0;
		cp = c & (0x7f >> len);
		for (unsigned k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe ||
		    cp == 0xffff || cp > 0x10ffff)
			return 0;
		i += len;
	}
	return 1;
}

int
main(void)
{
	plan_lazy();
	xml_is("train-web", 9, "train-web", "plain text passes");
	xml_is("<script>alert('x')</script>", 27,
	       "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;",
	       "markup is text");
	xml_is("a&b\"c", 5, "a&amp;b&quot;c", "ampersand and quote");
	xml_is("\x1b[31mred", 8, "\\x1b[31mred", "an escape sequence shown");
	xml_is("a\tb\nc", 5, "a\\x09b\\x0ac", "tab and newline shown");
	xml_is("nul\0x", 5, "nul\\x00x", "a NUL shown, not cut at");
	xml_is("caf\xc3\xa9", 5, "caf\xc3\xa9", "UTF-8 passes");
	xml_is("Latin-1 caf\xe9", 12, "Latin-1 caf\\xe9", "invalid UTF-8 shown");
	xml_is("\xc2\x9b" "csi", 5, "\\u009bcsi", "a C1 control shown");
	xml_is("x\xef\xbf\xbey\xef\xbf\xbf", 8, "x\\ufffey\\uffff",
	       "U+FFFE and U+FFFF shown");
	xml_is("\xef\xbf\xbd\xef\x80\x80", 6, "\xef\xbf\xbd\xef\x80\x80",
	       "U+FFFD and U+F000 pass");
	xml_is("\xef", 1, "\\xef", "a lone lead byte");

	srand(20261201);
	for (int round = 0; round < 2000; round++) {
		unsigned char in[64];
		size_t n = (size_t)(rand() % 64);
		struct sp_buf b = { 0 };
		char *exact = malloc(n ? n : 1);

		for (size_t i = 0; i < n; i++)
			in[i] = (unsigned char)(rand() % 256);
		/* An exact-length copy: ASan sees any read past it. */
		memcpy(exact, in, n);
		sp_xml_text(&b, exact, n);
		if (!xml_clean((const unsigned char *)sp_buf_str(&b), b.len)) {
			ok(0, "random bytes give clean XML text (round %d)",
			   round);
			free(exact);
			sp_buf_free(&b);
			break;
		}
		free(exact);
		sp_buf_free(&b);
		if (round == 1999)
			ok(1, "2000 random inputs give clean XML text");
	}
	return done_testing();
}
