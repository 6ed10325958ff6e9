#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sp_const.h"
#include "sp_text.h"
#include "sp_util.h"
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

void
sp_term_clean(const struct sp_term *t, struct sp_buf *b, const char *s,
	      size_t n, int keep_newlines)
{
	sp_text_clean(b, s, n, SP_TEXT_TAB_SPACE |
		      (keep_newlines ? SP_TEXT_KEEP_LF : 0) |
		      (t->ascii ? SP_TEXT_ASCII : 0));
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

void
sp_term_fitted(const struct sp_term *t, struct sp_buf *b, const char *s,
	       size_t n, size_t cells)
{
	if (!t->tty || cells == 0 || sp_text_width(s, n) <= cells) {
		sp_buf_add(b, s, n);
		return;
	}
	sp_buf_add(b, s, sp_text_fit(s, n, cells - 1));
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
		cut = sp_text_fit(s, n, room);
		for (k = cut; k > cut / 2; k--)
			if (soft_break(s[k - 1]))
				break;
		if (k > cut / 2)
			cut = k;
		sp_buf_add(b, s, cut);
		cells -= sp_text_width(s, cut);
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
		cells = sp_text_width(s + start, end - start);
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

void
sp_term_say(FILE *out, const char *fmt, ...)
{
	struct sp_buf text = { 0 }, b = { 0 };
	struct sp_term t = { 0 };
	const char *p, *nl;
	va_list ap;

	va_start(ap, fmt);
	sp_buf_vprintf(&text, fmt, ap);
	va_end(ap);
	t.width = sp_term_width(fileno(out));
	if (t.width <= 0) {
		fputs(sp_buf_str(&text), out);
		sp_buf_free(&text);
		return;
	}
	if (t.width < SP_SHOW_MIN_WIDTH)
		t.width = SP_SHOW_MIN_WIDTH;
	/* Line by line: an empty one stays empty, with no indent. */
	for (p = sp_buf_str(&text); *p; p = nl ? nl + 1 : p + strlen(p)) {
		struct sp_buf line = { 0 };

		nl = strchr(p, '\n');
		sp_buf_add(&line, p, nl ? (size_t)(nl - p) : strlen(p));
		if (line.len)
			sp_term_wrap(&t, &b, sp_buf_str(&line), 0, 2);
		if (nl)
			sp_buf_addc(&b, '\n');
		sp_buf_free(&line);
		if (!nl)
			break;
	}
	fputs(sp_buf_str(&b), out);
	sp_buf_free(&b);
	sp_buf_free(&text);
}
