/*
 * svg.c - SVG by hand: scales, marks, text escaped in one place, axes,
 * legends, and the frame (title, caption) around a figure's body.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp_xml.h"
#include "plot.h"

/* Extra lines of title and caption. */
#define LINE_GAP	1.35
#define TITLE_TOP	22.0

static const char *const inks[INK_N] = {
	[INK_TEXT] = "#1a1a1a",
	[INK_MUTED] = "#595959",
	[INK_AXIS] = "#404040",
	[INK_GRID] = "#e3e3e3",
	[INK_FAINT] = "#c8c8c8",
	[INK_PAPER] = "#ffffff",
	[INK_BLUE] = "#0072b2",
	[INK_SKY] = "#56b4e9",
	[INK_ORANGE] = "#e69f00",
	[INK_VERMILLION] = "#d55e00",
	[INK_GREEN] = "#009e73",
	[INK_PURPLE] = "#cc79a7",
	[INK_YELLOW] = "#f0e442",
};

const char *
plot_ink(enum ink i)
{
	return inks[i];
}

/* ------------------------------------------------------------ scales */

void
scale_linear(struct scale *s, double d0, double d1, double p0, double p1)
{
	s->d0 = d0;
	s->d1 = d1 > d0 ? d1 : d0 + 1;
	s->p0 = p0;
	s->p1 = p1;
	s->log = 0;
}

void
scale_log(struct scale *s, double d0, double d1, double p0, double p1)
{
	s->d0 = log(d0);
	s->d1 = d1 > d0 ? log(d1) : log(d0) + 1;
	s->p0 = p0;
	s->p1 = p1;
	s->log = 1;
}

double
scale_at(const struct scale *s, double v)
{
	double d = s->log ? log(v > 0 ? v : 1e-300) : v;
	double f = (d - s->d0) / (s->d1 - s->d0);

	/* Nothing is drawn outside its plot, whatever a record holds. */
	if (!(f >= 0))
		f = 0;
	if (f > 1)
		f = 1;
	return s->p0 + f * (s->p1 - s->p0);
}

/* ------------------------------------------------------------- ticks */

void
fmt_count(struct sp_buf *b, double v)
{
	if (fabs(v) >= 1e6 && fmod(v, 1e6) == 0)
		sp_buf_printf(b, "%.0fM", v / 1e6);
	else if (fabs(v) >= 1e4 && fmod(v, 1e3) == 0)
		sp_buf_printf(b, "%.0fk", v / 1e3);
	else
		sp_buf_printf(b, "%g", v);
}

void
fmt_share(struct sp_buf *b, double v)
{
	sp_buf_printf(b, "%g%%", round(v * 1000) / 10);
}

void
fmt_gib(struct sp_buf *b, double v)
{
	if (v >= 1024 && fmod(v, 1024) == 0)
		sp_buf_printf(b, "%g TiB", v / 1024);
	else
		sp_buf_printf(b, "%g GiB", v);
}

static void
tick_label(struct tick *t, double v, tick_fmt fmt)
{
	struct sp_buf b = { 0 };

	t->v = v;
	fmt(&b, v);
	snprintf(t->label, sizeof t->label, "%s", sp_buf_str(&b));
	sp_buf_free(&b);
}

size_t
ticks_linear(struct tick *t, size_t max, double lo, double hi, tick_fmt fmt,
	     double *top)
{
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	double span, unit, step = 1, v;
	size_t n = 0;

	if (!(hi > lo))
		hi = lo + 1;
	span = hi - lo;
	unit = pow(10, floor(log10(span / (double)(max > 1 ? max - 1 : 1))));
	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
		step = steps[i] * unit;
		if (ceil(span / step) + 1 <= (double)max)
			break;
	}
	for (v = floor(lo / step) * step; n < max; v += step) {
		tick_label(&t[n++], fabs(v) < step / 1e6 ? 0 : v, fmt);
		if (v >= hi - step / 1e6)
			break;
	}
	*top = t[n - 1].v;
	return n;
}

/* ------------------------------------------------------------- marks */

void
svg_init(struct svg *g, const char *id)
{
	memset(g, 0, sizeof *g);
	snprintf(g->id, sizeof g->id, "%s", id);
}

void
svg_free(struct svg *g)
{
	sp_buf_free(&g->defs);
	sp_buf_free(&g->body);
	sp_buf_free(&g->tmp);
	sp_pool_free(&g->keep);
}

static void
num(struct sp_buf *b, double v)
{
	/* Two decimals are finer than any screen; no "-0", and nothing
	 * an SVG reader cannot parse. */
	if (!isfinite(v))
		v = 0;
	v = round(v * 100) / 100;
	if (v == 0)
		v = 0;
	sp_buf_printf(b, "%g", v);
}

static void
attr(struct sp_buf *b, const char *name, double v)
{
	sp_buf_printf(b, " %s=\"", name);
	num(b, v);
	sp_buf_addc(b, '"');
}

/* The fill of a pattern, defined once per figure. */
static void
fill(struct svg *g, enum ink ink, enum pattern p)
{
	static const char *const names[PAT_N] = { "solid", "hatch", "dots",
						  "grid" };

	if (p == PAT_SOLID) {
		sp_buf_printf(&g->body, " fill=\"%s\"", inks[ink]);
		return;
	}
	sp_buf_printf(&g->body, " fill=\"url(#%s-%s-%d)\"", g->id, names[p],
		      (int)ink);
	if (g->defined[p][ink])
		return;
	g->defined[p][ink] = 1;
	sp_buf_printf(&g->defs, "<pattern id=\"%s-%s-%d\" width=\"6\" "
		      "height=\"6\" patternUnits=\"userSpaceOnUse\"%s>"
		      "<rect width=\"6\" height=\"6\" fill=\"#fff\"/>",
		      g->id, names[p], (int)ink,
		      p == PAT_HATCH ? " patternTransform=\"rotate(45)\"" : "");
	switch (p) {
	case PAT_HATCH:
		sp_buf_printf(&g->defs, "<rect width=\"3\" height=\"6\" "
			      "fill=\"%s\"/>", inks[ink]);
		break;
	case PAT_DOTS:
		sp_buf_printf(&g->defs, "<circle cx=\"3\" cy=\"3\" r=\"2\" "
			      "fill=\"%s\"/>", inks[ink]);
		break;
	case PAT_GRID:
		sp_buf_printf(&g->defs, "<path d=\"M0 0H6M0 0V6\" stroke=\"%s\" "
			      "stroke-width=\"2.5\"/>", inks[ink]);
		break;
	case PAT_SOLID:
	case PAT_N:
		break;
	}
	sp_buf_adds(&g->defs, "</pattern>");
}

static void
below(struct svg *g, double y)
{
	if (y > g->bottom)
		g->bottom = y;
}

void
svg_rect(struct svg *g, double x, double y, double w, double h,
	 enum ink ink, enum pattern p, enum ink stroke)
{
	if (!(w > 0) || !(h > 0))
		return;
	sp_buf_adds(&g->body, "<rect");
	attr(&g->body, "x", x);
	attr(&g->body, "y", y);
	attr(&g->body, "width", w);
	attr(&g->body, "height", h);
	fill(g, ink, p);
	if (stroke != INK_PAPER)
		sp_buf_printf(&g->body, " stroke=\"%s\"", inks[stroke]);
	sp_buf_adds(&g->body, "/>\n");
	below(g, y + h);
}

void
svg_line(struct svg *g, double x1, double y1, double x2, double y2,
	 enum ink ink, double width, int dashed)
{
	sp_buf_adds(&g->body, "<line");
	attr(&g->body, "x1", x1);
	attr(&g->body, "y1", y1);
	attr(&g->body, "x2", x2);
	attr(&g->body, "y2", y2);
	sp_buf_printf(&g->body, " stroke=\"%s\"", inks[ink]);
	attr(&g->body, "stroke-width", width);
	if (dashed)
		sp_buf_adds(&g->body, " stroke-dasharray=\"4 3\"");
	sp_buf_adds(&g->body, "/>\n");
	below(g, fmax(y1, y2));
}

void
svg_polyline(struct svg *g, const double *xy, size_t npoints, enum ink ink,
	     double width)
{
	if (npoints == 0)
		return;
	sp_buf_adds(&g->body, "<polyline fill=\"none\"");
	sp_buf_printf(&g->body, " stroke=\"%s\"", inks[ink]);
	attr(&g->body, "stroke-width", width);
	sp_buf_adds(&g->body, " stroke-linejoin=\"round\" points=\"");
	for (size_t i = 0; i < npoints; i++) {
		if (i)
			sp_buf_addc(&g->body, ' ');
		num(&g->body, xy[2 * i]);
		sp_buf_addc(&g->body, ',');
		num(&g->body, xy[2 * i + 1]);
		below(g, xy[2 * i + 1]);
	}
	sp_buf_adds(&g->body, "\"/>\n");
}

/* One command of a path's d attribute: "M10 20", "L30 40". */
static void
path_to(struct sp_buf *b, const char *cmd, double x, double y)
{
	sp_buf_adds(b, cmd);
	num(b, x);
	sp_buf_addc(b, ' ');
	num(b, y);
}

/* A solid mark's paint: its ink, and a thin white edge that parts it
 * from a neighbour it overlaps. */
static void
paint_solid(struct sp_buf *b, enum ink ink)
{
	sp_buf_printf(b, " fill=\"%s\" stroke=\"#fff\" stroke-width=\"0.8\"",
		      inks[ink]);
}

/*
 * Shapes of one size by area, each with a white edge so that marks that
 * overlap stay apart; a ring and a cross are drawn as lines.
 */
void
svg_mark(struct svg *g, enum mark m, double x, double y, double r,
	 enum ink ink)
{
	struct sp_buf *b = &g->body;
	double s = r * 0.886;	/* a square of the circle's area */
	double t = r * 1.3;

	switch (m) {
	case MARK_CIRCLE:
	case MARK_RING:
		sp_buf_adds(b, "<circle");
		attr(b, "cx", x);
		attr(b, "cy", y);
		attr(b, "r", r);
		if (m == MARK_RING)
			sp_buf_printf(b, " fill=\"#fff\" stroke=\"%s\" "
				      "stroke-width=\"2\"", inks[ink]);
		else
			paint_solid(b, ink);
		break;
	case MARK_SQUARE:
		sp_buf_adds(b, "<rect");
		attr(b, "x", x - s);
		attr(b, "y", y - s);
		attr(b, "width", 2 * s);
		attr(b, "height", 2 * s);
		paint_solid(b, ink);
		break;
	case MARK_TRIANGLE:
	case MARK_DIAMOND:
	case MARK_CROSS:
		sp_buf_adds(b, "<path d=\"");
		if (m == MARK_TRIANGLE) {
			path_to(b, "M", x, y - t);
			path_to(b, "L", x + t, y + t * 0.75);
			sp_buf_adds(b, "H");
			num(b, x - t);
			sp_buf_adds(b, "Z\"");
		} else if (m == MARK_DIAMOND) {
			path_to(b, "M", x, y - t);
			path_to(b, "L", x + t, y);
			path_to(b, "L", x, y + t);
			path_to(b, "L", x - t, y);
			sp_buf_adds(b, "Z\"");
		} else {
			path_to(b, "M", x - r, y - r);
			path_to(b, "L", x + r, y + r);
			path_to(b, "M", x + r, y - r);
			path_to(b, "L", x - r, y + r);
			sp_buf_adds(b, "\"");
		}
		if (m == MARK_CROSS)
			sp_buf_printf(b, " fill=\"none\" stroke=\"%s\" "
				      "stroke-width=\"2.2\"", inks[ink]);
		else
			paint_solid(b, ink);
		break;
	}
	sp_buf_adds(b, "/>\n");
	below(g, y + t);
}

/* -------------------------------------------------------------- text */

double
text_width(const char *s, int size)
{
	/* A sans-serif's average advance, a little generous: a label that
	 * is thought longer than it is only leaves room. */
	return (double)sp_text_width(s, strlen(s)) * size * 0.6;
}

void
field_text(struct sp_buf *b, struct sp_slice f, size_t max)
{
	struct sp_buf raw = { 0 };

	sp_field_decode(&raw, f.p, f.n);
	if (max > 0 && sp_text_width(raw.p, raw.len) > max) {
		/* Cut at a character's start, leaving a cell for the
		 * ellipsis. */
		sp_buf_add(b, raw.p, sp_text_fit(raw.p, raw.len, max - 1));
		sp_buf_adds(b, "\xe2\x80\xa6");
	} else {
		sp_buf_adds(b, sp_buf_str(&raw));
	}
	sp_buf_free(&raw);
}

static const char *const anchors[] = { "start", "middle", "end" };

static void
text_open(struct sp_buf *b, double x, double y, enum anchor a, int size,
	  int bold, enum ink ink)
{
	sp_buf_adds(b, "<text");
	attr(b, "x", x);
	attr(b, "y", y);
	if (a != ANCHOR_START)
		sp_buf_printf(b, " text-anchor=\"%s\"", anchors[a]);
	if (size != PLOT_FONT)
		sp_buf_printf(b, " font-size=\"%d\"", size);
	if (bold)
		sp_buf_adds(b, " font-weight=\"bold\"");
	if (ink != INK_TEXT)
		sp_buf_printf(b, " fill=\"%s\"", inks[ink]);
	sp_buf_addc(b, '>');
}

void
svg_text(struct svg *g, double x, double y, enum anchor a, int size,
	 int bold, enum ink ink, const char *s)
{
	text_open(&g->body, x, y, a, size, bold, ink);
	sp_xml_text(&g->body, s, strlen(s));
	sp_buf_adds(&g->body, "</text>\n");
	below(g, y + size * 0.3);
}

void
svg_textf(struct svg *g, double x, double y, enum anchor a, int size,
	  int bold, enum ink ink, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	sp_buf_clear(&g->tmp);
	if (n > 0) {
		sp_buf_reserve(&g->tmp, (size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(g->tmp.p, (size_t)n + 1, fmt, ap);
		va_end(ap);
		g->tmp.len = (size_t)n;
	}
	svg_text(g, x, y, a, size, bold, ink, sp_buf_str(&g->tmp));
}

void
svg_group(struct svg *g, const char *cls, const char *tip)
{
	sp_buf_printf(&g->body, "<g class=\"%s\">", cls);
	if (tip) {
		sp_buf_adds(&g->body, "<title>");
		sp_xml_text(&g->body, tip, strlen(tip));
		sp_buf_adds(&g->body, "</title>");
	}
	sp_buf_addc(&g->body, '\n');
}

void
svg_group_end(struct svg *g)
{
	sp_buf_adds(&g->body, "</g>\n");
}

/* ------------------------------------------------------------- axes */

void
axis_x(struct svg *g, const struct scale *s, double y, double grid_top,
       const struct tick *t, size_t n, const char *label)
{
	for (size_t i = 0; i < n; i++) {
		double x = scale_at(s, t[i].v);

		if (grid_top < y)
			svg_line(g, x, grid_top, x, y, INK_GRID, 1, 0);
		svg_line(g, x, y, x, y + 4, INK_AXIS, 1, 0);
		svg_text(g, x, y + 16, ANCHOR_MIDDLE, PLOT_SMALL, 0, INK_MUTED,
			 t[i].label);
	}
	svg_line(g, fmin(s->p0, s->p1), y, fmax(s->p0, s->p1), y, INK_AXIS, 1,
		 0);
	if (label)
		svg_text(g, (s->p0 + s->p1) / 2, y + 32, ANCHOR_MIDDLE,
			 PLOT_FONT, 0, INK_TEXT, label);
}

void
axis_y(struct svg *g, const struct scale *s, double x, double grid_right,
       const struct tick *t, size_t n, const char *label)
{
	for (size_t i = 0; i < n; i++) {
		double y = scale_at(s, t[i].v);

		if (grid_right > x)
			svg_line(g, x, y, grid_right, y, INK_GRID, 1, 0);
		svg_line(g, x - 4, y, x, y, INK_AXIS, 1, 0);
		svg_text(g, x - 6, y + 4, ANCHOR_END, PLOT_SMALL, 0, INK_MUTED,
			 t[i].label);
	}
	svg_line(g, x, fmin(s->p0, s->p1), x, fmax(s->p0, s->p1), INK_AXIS, 1,
		 0);
	if (label)
		svg_text(g, PLOT_MARGIN, fmin(s->p0, s->p1) - 10, ANCHOR_START,
			 PLOT_FONT, 0, INK_TEXT, label);
}

double
legend_mark(struct svg *g, double x, double y, enum mark m, enum ink ink,
	    const char *words)
{
	svg_mark(g, m, x + 5, y - 4, 4.5, ink);
	svg_text(g, x + 14, y, ANCHOR_START, PLOT_SMALL, 0, INK_TEXT, words);
	return x + 14 + text_width(words, PLOT_SMALL) + 14;
}

double
legend_swatch(struct svg *g, double x, double y, enum ink ink,
	      enum pattern p, const char *words)
{
	svg_rect(g, x, y - 10, 12, 12, ink, p, INK_AXIS);
	svg_text(g, x + 17, y, ANCHOR_START, PLOT_SMALL, 0, INK_TEXT, words);
	return x + 17 + text_width(words, PLOT_SMALL) + 14;
}

/* ----------------------------------------------------------- frame */

/*
 * Splits text into lines of at most width at size, at spaces: the start
 * and length of each go to starts/lens (grown).  Returns how many.
 */
static size_t
wrap(const char *s, double width, int size, size_t **starts, size_t **lens,
     size_t *cap)
{
	size_t per = (size_t)(width / (size * 0.58));
	size_t n = 0, len = strlen(s), at = 0;

	if (per < 8)
		per = 8;
	while (at < len) {
		/* As much as fits, broken at its last space if it has one. */
		size_t i = at + sp_text_fit(s + at, len - at, per), cut = 0;
		size_t end;

		for (size_t k = at; k < i; k++)
			if (s[k] == ' ')
				cut = k;
		end = i >= len ? len : cut > at ? cut : i;
		*starts = sp_xgrow(*starts, cap, n + 1, sizeof **starts);
		*lens = sp_xrealloc(*lens, *cap * sizeof **lens);
		(*starts)[n] = at;
		(*lens)[n] = end - at;
		n++;
		at = end;
		while (at < len && s[at] == ' ')
			at++;
	}
	return n;
}

static double
lines(struct sp_buf *b, const char *s, double y, int size, int bold,
      enum ink ink)
{
	size_t *starts = NULL, *lens = NULL, cap = 0;
	size_t n = wrap(s, PLOT_WIDTH - 2 * PLOT_MARGIN, size, &starts, &lens,
			&cap);

	for (size_t i = 0; i < n; i++) {
		text_open(b, PLOT_MARGIN, y, ANCHOR_START, size, bold, ink);
		sp_xml_text(b, s + starts[i], lens[i]);
		sp_buf_adds(b, "</text>\n");
		y += size * LINE_GAP;
	}
	free(starts);
	free(lens);
	return y;
}

void
svg_finish(struct svg *g, struct sp_buf *out, const char *title,
	   const char *caption)
{
	struct sp_buf head = { 0 }, foot = { 0 };
	double top = lines(&head, title, TITLE_TOP, PLOT_TITLE, 1, INK_TEXT);
	double body_top = top + 14;
	double end = lines(&foot, caption, body_top + g->bottom + 22,
			   PLOT_SMALL, 0, INK_MUTED);
	double height = ceil(end);

	sp_buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		      "viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
		      "role=\"img\" aria-labelledby=\"%s-title %s-desc\" "
		      "font-family=\"sans-serif\" font-size=\"%d\">\n",
		      PLOT_WIDTH, height, PLOT_WIDTH, height, g->id, g->id,
		      PLOT_FONT);
	sp_buf_printf(out, "<title id=\"%s-title\">", g->id);
	sp_xml_text(out, title, strlen(title));
	sp_buf_printf(out, "</title>\n<desc id=\"%s-desc\">", g->id);
	sp_xml_text(out, caption, strlen(caption));
	sp_buf_adds(out, "</desc>\n");
	if (g->defs.len)
		sp_buf_printf(out, "<defs>%s</defs>\n", sp_buf_str(&g->defs));
	sp_buf_adds(out, "<rect width=\"100%\" height=\"100%\" "
		    "fill=\"#fff\"/>\n");
	sp_buf_adds(out, sp_buf_str(&head));
	sp_buf_printf(out, "<g transform=\"translate(0 %.0f)\">\n", body_top);
	sp_buf_adds(out, sp_buf_str(&g->body));
	sp_buf_adds(out, "</g>\n");
	sp_buf_adds(out, sp_buf_str(&foot));
	sp_buf_adds(out, "</svg>\n");
	sp_buf_free(&head);
	sp_buf_free(&foot);
}
