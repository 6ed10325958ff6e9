/*
 * sp_text.c - text, once: UTF-8, text made safe, its width in cells, and
 * the escapes of TSV fields and JSON strings.
 */
#include <string.h>

#include "sp_scan.h"
#include "sp_text.h"

/* ------------------------------------------------------------- UTF-8 */

/*
 * Decodes one UTF-8 character at s: its length in bytes with *cp set, or
 * 0 for an invalid sequence (overlong, surrogate, past U+10FFFF, cut).
 */
static size_t
utf8_decode(const char *str, size_t n, unsigned long *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned long c;
	size_t len, i;

	if (n == 0)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	*cp = c;
	return len;
}

/* Characters that change how the terminal lays out what follows. */
static int
is_invisible_control(unsigned long cp)
{
	return (cp >= 0x80 && cp <= 0x9f) ||	/* C1, CSI among them */
	       (cp >= 0x202a && cp <= 0x202e) ||	/* bidi embeddings */
	       (cp >= 0x2066 && cp <= 0x2069) ||	/* bidi isolates */
	       cp == 0x200e || cp == 0x200f || cp == 0x061c ||
	       cp == 0xfeff;
}

/* ------------------------------------------------- safe for a screen */

void
sp_text_clean(struct sp_buf *b, const char *s, size_t n, unsigned how)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, len;
	unsigned long cp;

	while (i < n) {
		size_t clean = i;

		/* Printable ASCII, most of any text, in one piece. */
		while (clean < n && u[clean] >= 0x20 && u[clean] < 0x7f)
			clean++;
		if (clean > i) {
			sp_buf_add(b, s + i, clean - i);
			i = clean;
			continue;
		}
		if (u[i] == '\n' && (how & SP_TEXT_KEEP_LF)) {
			sp_buf_addc(b, '\n');
			i++;
		} else if (u[i] == '\t' && (how & SP_TEXT_TAB_SPACE)) {
			sp_buf_addc(b, ' ');
			i++;
		} else if (u[i] < 0x80) {
			/* C0 controls and DEL: an escape sequence shown,
			 * never obeyed. */
			sp_buf_printf(b, "\\x%02x", u[i]);
			i++;
		} else if ((len = utf8_decode(s + i, n - i, &cp)) == 0) {
			sp_buf_printf(b, "\\x%02x", u[i]);
			i++;
		} else if (is_invisible_control(cp)) {
			sp_buf_printf(b, "\\u%04lx", cp);
			i += len;
		} else if (how & SP_TEXT_ASCII) {
			sp_buf_addc(b, '?');
			i += len;
		} else {
			sp_buf_add(b, s + i, len);
			i += len;
		}
	}
}

/* ------------------------------------------------------------ width */

/* The length of the colour escape (ours: ESC [ digits ; m) at s, or 0.
 * Clean text holds no ESC, so every one found is ours. */
static size_t
sgr_len(const char *s, size_t n)
{
	size_t i = 2;

	if (n < 3 || s[0] != '\033' || s[1] != '[')
		return 0;
	while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';'))
		i++;
	return i < n && s[i] == 'm' ? i + 1 : 0;
}

/*
 * Cells one code point takes: none for a combining mark or a variation
 * selector, two for East Asian wide and fullwidth characters and the
 * emoji drawn wide, else one.  A table of ranges, not wcwidth(3), so the
 * layout does not depend on the locale the program runs in.
 */
static size_t
cp_cells(unsigned long c)
{
	static const unsigned long zero[][2] = {
		{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd },
		{ 0x0610, 0x061a }, { 0x064b, 0x065f }, { 0x0e31, 0x0e31 },
		{ 0x0e34, 0x0e3a }, { 0x0e47, 0x0e4e }, { 0x1ab0, 0x1aff },
		{ 0x1dc0, 0x1dff }, { 0x200b, 0x200b }, { 0x20d0, 0x20ff },
		{ 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f }, { 0xe0100, 0xe01ef }
	};
	static const unsigned long wide[][2] = {
		{ 0x1100, 0x115f }, { 0x231a, 0x231b }, { 0x2329, 0x232a },
		{ 0x23e9, 0x23ec }, { 0x25fd, 0x25fe }, { 0x2614, 0x2615 },
		{ 0x2648, 0x2653 }, { 0x26aa, 0x26ab }, { 0x26bd, 0x26be },
		{ 0x26c4, 0x26c5 }, { 0x26f2, 0x26f5 }, { 0x2705, 0x2705 },
		{ 0x270a, 0x270b }, { 0x2728, 0x2728 }, { 0x274c, 0x274c },
		{ 0x2753, 0x2755 }, { 0x2795, 0x2797 }, { 0x2b1b, 0x2b1c },
		{ 0x2e80, 0x303e }, { 0x3041, 0x33ff }, { 0x3400, 0x4dbf },
		{ 0x4e00, 0x9fff }, { 0xa000, 0xa4cf }, { 0xa960, 0xa97f },
		{ 0xac00, 0xd7a3 }, { 0xf900, 0xfaff }, { 0xfe10, 0xfe19 },
		{ 0xfe30, 0xfe6f }, { 0xff00, 0xff60 }, { 0xffe0, 0xffe6 },
		{ 0x16fe0, 0x18cff }, { 0x1b000, 0x1b2ff }, { 0x1f004, 0x1f004 },
		{ 0x1f0cf, 0x1f0cf }, { 0x1f18e, 0x1f18e }, { 0x1f191, 0x1f19a },
		{ 0x1f200, 0x1f251 }, { 0x1f300, 0x1f320 }, { 0x1f32d, 0x1f335 },
		{ 0x1f337, 0x1f37c }, { 0x1f37e, 0x1f393 }, { 0x1f3a0, 0x1f3ca },
		{ 0x1f3cf, 0x1f3d3 }, { 0x1f3e0, 0x1f3f0 }, { 0x1f3f4, 0x1f3f4 },
		{ 0x1f3f8, 0x1f43e }, { 0x1f440, 0x1f440 }, { 0x1f442, 0x1f4fc },
		{ 0x1f4ff, 0x1f53d }, { 0x1f54b, 0x1f54e }, { 0x1f550, 0x1f567 },
		{ 0x1f57a, 0x1f57a }, { 0x1f595, 0x1f596 }, { 0x1f5a4, 0x1f5a4 },
		{ 0x1f5fb, 0x1f64f }, { 0x1f680, 0x1f6c5 }, { 0x1f6cc, 0x1f6cc },
		{ 0x1f6d0, 0x1f6d2 }, { 0x1f6d5, 0x1f6d7 }, { 0x1f6eb, 0x1f6ec },
		{ 0x1f6f4, 0x1f6fc }, { 0x1f7e0, 0x1f7eb }, { 0x1f90c, 0x1f93a },
		{ 0x1f93c, 0x1f945 }, { 0x1f947, 0x1f9ff }, { 0x1fa70, 0x1faff },
		{ 0x20000, 0x2fffd }, { 0x30000, 0x3fffd }
	};

	if (c < 0x0300)
		return 1;
	for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
		if (c >= zero[i][0] && c <= zero[i][1])
			return 0;
	for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
		if (c >= wide[i][0] && c <= wide[i][1])
			return 2;
	return 1;
}

/* One character at s: its byte length, and its cells into *cells (an
 * invalid byte is one byte of one cell, as clean text never holds). */
static size_t
char_cells(const char *s, size_t n, size_t *cells)
{
	unsigned long cp;
	size_t len;

	if ((unsigned char)s[0] < 0x80) {
		*cells = 1;
		return 1;
	}
	if ((len = utf8_decode(s, n, &cp)) == 0) {
		*cells = 1;
		return 1;
	}
	*cells = cp_cells(cp);
	return len;
}

size_t
sp_text_width(const char *s, size_t n)
{
	size_t cells = 0, i = 0;

	while (i < n) {
		size_t e, c;

		if (s[i] == '\033' && (e = sgr_len(s + i, n - i)) > 0) {
			i += e;
			continue;
		}
		i += char_cells(s + i, n - i, &c);
		cells += c;
	}
	return cells;
}

size_t
sp_text_fit(const char *s, size_t n, size_t cells)
{
	size_t i = 0, used = 0;

	while (i < n) {
		size_t len, c, e;

		if (s[i] == '\033' && (e = sgr_len(s + i, n - i)) > 0) {
			i += e;
			continue;
		}
		len = char_cells(s + i, n - i, &c);
		if (used + c > cells)
			break;
		used += c;
		i += len;
	}
	return i;
}

/* ---------------------------------------------------- escapes: JSON */

int
sp_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t
sp_utf8_put(char out[4], unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

void
sp_json_string(struct sp_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	sp_buf_addc(b, '"');
	while (i < n) {
		unsigned long cp;
		size_t len = utf8_decode(s + i, n - i, &cp);

		if (len == 0) {
			sp_buf_adds(b, "\\ufffd");	/* invalid UTF-8 */
			i++;
			continue;
		}
		if (len > 1) {
			/* C1 controls (U+0080-U+009F, CSI among them) as
			 * escapes: a consumer that prints the value to a
			 * terminal must not have it obeyed. */
			if (cp <= 0x9f)
				sp_buf_printf(b, "\\u%04lx", cp);
			else
				sp_buf_add(b, s + i, len);
			i += len;
			continue;
		}
		switch (p[i]) {
		case '"': sp_buf_adds(b, "\\\""); break;
		case '\\': sp_buf_adds(b, "\\\\"); break;
		case '\n': sp_buf_adds(b, "\\n"); break;
		case '\r': sp_buf_adds(b, "\\r"); break;
		case '\t': sp_buf_adds(b, "\\t"); break;
		default:
			if (p[i] < 0x20 || p[i] == 0x7f)
				sp_buf_printf(b, "\\u%04x", p[i]);
			else
				sp_buf_addc(b, (char)p[i]);
		}
		i++;
	}
	sp_buf_addc(b, '"');
}

/* ----------------------------------------------- escapes: TSV fields */

void
sp_field_decode(struct sp_buf *b, const char *p, size_t n)
{
	size_t i = 0;

	sp_buf_reserve(b, n);
	while (i < n) {
		const char *bs = memchr(p + i, '\\', n - i);
		size_t run = bs ? (size_t)(bs - (p + i)) : n - i;

		sp_buf_add(b, p + i, run);
		i += run;
		if (i >= n)
			break;
		if (i + 1 < n) {
			char c = p[i + 1], out = 0;
			switch (c) {
			case 't': out = '\t'; break;
			case 'n': out = '\n'; break;
			case 'r': out = '\r'; break;
			case '\\': out = '\\'; break;
			}
			if (out) {
				sp_buf_addc(b, out);
				i += 2;
				continue;
			}
		}
		sp_buf_addc(b, '\\');
		i++;
	}
}

/* The letter after the backslash for each byte the format escapes. */
static const unsigned char field_escape[256] = {
	['\t'] = 't', ['\n'] = 'n', ['\r'] = 'r', ['\\'] = '\\',
};

size_t
sp_field_clean_len(const char *p, size_t n)
{
	size_t i = 0;

	/* Most text (paths, command lines) has nothing to escape. */
	for (; i + SP_SCAN_WIDTH <= n; i += SP_SCAN_WIDTH) {
		unsigned m = sp_scan_mask2(p + i, '\t', '\n') |
		    sp_scan_mask2(p + i, '\r', '\\');

		if (m != 0)
			return i + sp_scan_first(m);
	}
	/* A clean tail, the common case, at once; else find the byte. */
	if (n - i >= 4 && !sp_scan_short_any4(p + i, n - i, '\t', '\n', '\r',
	    '\\'))
		return n;
	while (i < n && field_escape[(unsigned char)p[i]] == 0)
		i++;
	return i;
}

void
sp_field_encode(struct sp_buf *b, const char *p, size_t n)
{
	size_t i = 0;

	sp_buf_reserve(b, n);
	while (i < n) {
		size_t clean = sp_field_clean_len(p + i, n - i);

		sp_buf_add(b, p + i, clean);
		i += clean;
		if (i < n) {
			char esc[2] = { '\\', (char)field_escape[(unsigned char)p[i]] };

			sp_buf_add(b, esc, 2);
			i++;
		}
	}
}
