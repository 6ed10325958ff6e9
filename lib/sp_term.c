#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sp_const.h"
#include "sp_record.h"
#include "sp_term.h"

static const char *const glyph_utf8[SP_G_COUNT] = {
	"\u2588", "\u2591", "\u00b7", "\u2192", "\u2026", "\u2502", "\u2014",
	"\u2500"
};
static const char *const glyph_ascii[SP_G_COUNT] = {
	"#", ".", ".", ">", "~", "|", "-", "-"
};

/* SGR parameters per paint; SP_P_NONE resets. */
static const char *const paint_sgr[SP_P_COUNT] = {
	"0", "1", "2", "1;31", "33", "36", "32"
};

int
sp_term_locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs != NULL && (strcasecmp(cs, "UTF-8") == 0 ||
			      strcasecmp(cs, "utf8") == 0);
}

static int
width_from_env(void)
{
	const char *s = getenv("COLUMNS");
	long v;

	if (s == NULL || sp_strtol_full(s, &v) != 0 || v <= 0 || v > 10000)
		return 0;
	return (int)v;
}

static int
width_from_tty(int fd)
{
	struct winsize ws;

	if (!isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0)
		return 0;
	return ws.ws_col;
}

int
sp_term_width(int fd)
{
	int w = width_from_env();

	return w > 0 ? w : width_from_tty(fd);
}

void
sp_term_setup(struct sp_term *t, int fd, int width_opt, int no_color,
	      int ascii_opt)
{
	const char *nc = getenv("NO_COLOR");
	const char *term = getenv("TERM");

	t->width = width_opt;
	if (t->width <= 0)
		t->width = width_from_env();
	if (t->width <= 0)
		t->width = width_from_tty(fd);
	if (t->width <= 0)
		t->width = SP_SHOW_DEFAULT_WIDTH;
	if (t->width < SP_SHOW_MIN_WIDTH)
		t->width = SP_SHOW_MIN_WIDTH;

	t->tty = isatty(fd);
	t->color = !no_color && t->tty && !(nc != NULL && *nc != '\0') &&
		   !(term != NULL && strcmp(term, "dumb") == 0);
	t->ascii = ascii_opt || !sp_term_locale_utf8();
}

const char *
sp_term_glyph(const struct sp_term *t, enum sp_glyph g)
{
	if ((unsigned)g >= SP_G_COUNT)
		return "";
	return t->ascii ? glyph_ascii[g] : glyph_utf8[g];
}

const char *
sp_term_spark(const struct sp_term *t, int level)
{
	static const char *const utf8[SP_TERM_SPARK_LEVELS] = { " ",
		"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586",
		"\u2587", "\u2588" };
	static const char *const ascii[SP_TERM_SPARK_LEVELS] = { " ", "_",
		".", ":", "-", "=", "+", "*", "#" };

	if (level < 0)
		level = 0;
	if (level >= SP_TERM_SPARK_LEVELS)
		level = SP_TERM_SPARK_LEVELS - 1;
	return t->ascii ? ascii[level] : utf8[level];
}

void
sp_term_paint(const struct sp_term *t, struct sp_buf *b, enum sp_paint p)
{
	if (!t->color || (unsigned)p >= SP_P_COUNT)
		return;
	sp_buf_printf(b, "\033[%sm", paint_sgr[p]);
}

void
sp_term_painted(const struct sp_term *t, struct sp_buf *b, enum sp_paint p,
		const char *s)
{
	sp_term_paint(t, b, p);
	sp_buf_adds(b, s);
	if (p != SP_P_NONE)
		sp_term_paint(t, b, SP_P_NONE);
}

/*
 * Decodes one UTF-8 character: its length, with *cp set, or 0 for an
 * invalid sequence (overlong, surrogate, beyond U+10FFFF, cut short).
 */
size_t
sp_term_utf8(const char *str, size_t n, unsigned long *cp)
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

void
sp_term_clean(const struct sp_term *t, struct sp_buf *b, const char *s,
	      size_t n, int keep_newlines)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, len;
	unsigned long cp;

	while (i < n) {
		if (u[i] == '\n' && keep_newlines) {
			sp_buf_addc(b, '\n');
			i++;
		} else if (u[i] == '\t') {
			sp_buf_addc(b, ' ');
			i++;
		} else if (u[i] < 0x20 || u[i] == 0x7f) {
			sp_buf_printf(b, "\\x%02x", u[i]);
			i++;
		} else if (u[i] < 0x80) {
			sp_buf_addc(b, (char)u[i]);
			i++;
		} else if ((len = sp_term_utf8(s + i, n - i, &cp)) == 0) {
			sp_buf_printf(b, "\\x%02x", u[i]);
			i++;
		} else if (is_invisible_control(cp)) {
			sp_buf_printf(b, "\\u%04lx", cp);
			i += len;
		} else if (t->ascii) {
			sp_buf_addc(b, '?');
			i += len;
		} else {
			sp_buf_add(b, s + i, len);
			i += len;
		}
	}
}

void
sp_term_field(const struct sp_term *t, struct sp_buf *b, const char *p,
	      size_t n, int keep_newlines)
{
	struct sp_buf d = { 0 };

	sp_field_decode(&d, p, n);
	sp_term_clean(t, b, sp_buf_str(&d), d.len, keep_newlines);
	sp_buf_free(&d);
}

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
	if ((len = sp_term_utf8(s, n, &cp)) == 0) {
		*cells = 1;
		return 1;
	}
	*cells = cp_cells(cp);
	return len;
}

size_t
sp_term_cells(const char *s, size_t n)
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
sp_term_fit(const char *s, size_t n, size_t cells)
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

void
sp_term_fitted(const struct sp_term *t, struct sp_buf *b, const char *s,
	       size_t n, size_t cells)
{
	if (!t->tty || cells == 0 || sp_term_cells(s, n) <= cells) {
		sp_buf_add(b, s, n);
		return;
	}
	sp_buf_add(b, s, sp_term_fit(s, n, cells - 1));
	sp_buf_adds(b, sp_term_glyph(t, SP_G_ELLIPSIS));
}

static void
add_spaces(struct sp_buf *b, size_t n)
{
	while (n-- > 0)
		sp_buf_addc(b, ' ');
}

/* Starts a continuation line. */
static void
new_line(struct sp_buf *b, size_t indent, size_t *col, int *fresh)
{
	sp_buf_addc(b, '\n');
	add_spaces(b, indent);
	*col = indent;
	*fresh = 1;
}

/* Where a word too long for a line may break: after a list's comma or a
 * path's slash, else where the room ends. */
static int
soft_break(char c)
{
	return c == ',' || c == '/' || c == ';';
}

/*
 * A word wider than the room left: broken over lines, each piece as long
 * as the room allows (after a comma or slash where one is near the end).
 * Every byte is looked at a bounded number of times, so a word of
 * megabytes costs time in proportion.
 */
static void
long_word(struct sp_buf *b, const char *s, size_t n, size_t cells,
	  size_t width, size_t indent, size_t *col, int *fresh)
{
	while (*col + cells > width) {
		size_t room = width > *col ? width - *col : 0, cut, k;

		if (room == 0 || (!*fresh && room < 2)) {
			new_line(b, indent, col, fresh);
			continue;
		}
		cut = sp_term_fit(s, n, room);
		for (k = cut; k > cut / 2; k--)
			if (soft_break(s[k - 1]))
				break;
		if (k > cut / 2)
			cut = k;
		sp_buf_add(b, s, cut);
		cells -= sp_term_cells(s, cut);
		s += cut;
		n -= cut;
		new_line(b, indent, col, fresh);
	}
	sp_buf_add(b, s, n);
	*col += cells;
	*fresh = 0;
}

/* Wraps one paragraph (no LF inside); *fresh: nothing yet on this line. */
static void
wrap_line(struct sp_buf *b, const char *s, size_t n, size_t width,
	  size_t indent, size_t *col, int *fresh)
{
	size_t i = 0;

	while (i < n) {
		size_t start, end, cells;

		while (i < n && s[i] == ' ')
			i++;
		if (i >= n)
			break;
		start = i;
		while (i < n && s[i] != ' ')
			i++;
		end = i;
		cells = sp_term_cells(s + start, end - start);
		/* A word that fits a line of its own is never broken. */
		if (*col + !*fresh + cells > width &&
		    (!*fresh || (*col > indent && indent + cells <= width)))
			new_line(b, indent, col, fresh);
		if (!*fresh) {
			sp_buf_addc(b, ' ');
			(*col)++;
		}
		long_word(b, s + start, end - start, cells, width, indent,
			  col, fresh);
	}
}

void
sp_term_wrap(const struct sp_term *t, struct sp_buf *b, const char *s,
	     size_t first_indent, size_t indent)
{
	size_t width = (size_t)t->width, col = first_indent;
	const char *nl;
	int fresh = 1;

	for (;;) {
		nl = strchr(s, '\n');
		wrap_line(b, s, nl ? (size_t)(nl - s) : strlen(s), width,
			  indent, &col, &fresh);
		if (nl == NULL)
			break;
		new_line(b, indent, &col, &fresh);
		s = nl + 1;
	}
}
