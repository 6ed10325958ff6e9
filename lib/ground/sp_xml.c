/*
 * sp_xml.c - XML character data from untrusted bytes.
 */
#include <string.h>

#include "sp_text.h"
#include "sp_util.h"
#include "sp_xml.h"

/* The bytes of s that need no entity, from the start. */
static size_t
plain_len(const char *s, size_t n)
{
	size_t i = 0;

	static const char special[] = "&<>\"'\xef";

	while (i < n && !memchr(special, s[i], sizeof special - 1))
		i++;
	return i;
}

void
sp_xml_text(struct sp_buf *b, const char *s, size_t n)
{
	struct sp_buf clean = { 0 };
	const char *p;
	size_t len;

	/* The terminal's rule first: what remains is valid UTF-8 without
	 * C0 or C1 controls. */
	sp_text_clean(&clean, s, n, 0);
	p = clean.p;
	len = clean.len;
	while (len > 0) {
		size_t k = plain_len(p, len);

		sp_buf_add(b, p, k);
		p += k;
		len -= k;
		if (len == 0)
			break;
		switch (*p) {
		case '&': sp_buf_adds(b, "&amp;"); break;
		case '<': sp_buf_adds(b, "&lt;"); break;
		case '>': sp_buf_adds(b, "&gt;"); break;
		case '"': sp_buf_adds(b, "&quot;"); break;
		case '\'': sp_buf_adds(b, "&#39;"); break;
		default:
			/* U+FFFE and U+FFFF (EF BF BE, EF BF BF) are no XML
			 * characters; the rest of U+F000-U+FFFF is. */
			if (len >= 3 && (unsigned char)p[1] == 0xbf &&
			    ((unsigned char)p[2] & 0xfe) == 0xbe) {
				sp_buf_printf(b, "\\u%04x",
					      0xfffe | ((unsigned char)p[2] & 1));
				p += 3;
				len -= 3;
				continue;
			}
			sp_buf_addc(b, *p);
			break;
		}
		p++;
		len--;
	}
	sp_buf_free(&clean);
}
