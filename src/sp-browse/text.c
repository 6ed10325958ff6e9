/*
 * text.c - the few ways the screens put numbers and record text into
 * cells: every byte from a record made safe first (sp_term_field), every
 * width counted in terminal columns (sp_text_width).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "browse.h"

void
text_field(const struct sp_term *t, struct sp_buf *b, struct sp_slice s)
{
	sp_term_field(t, b, s.p, s.n, 0);
}

size_t
text_cells(const char *s, size_t n)
{
	return sp_text_width(s, n);
}

void
text_cell(const struct sp_term *t, struct sp_buf *b, const char *s, size_t n,
	  size_t cells, int right)
{
	size_t w = sp_text_width(s, n);

	if (w > cells) {
		size_t keep = cells > 0 ? sp_text_fit(s, n, cells - 1) : 0;

		sp_buf_add(b, s, keep);
		w = sp_text_width(s, keep);
		if (cells > 0) {
			sp_buf_adds(b, sp_term_glyph(t, SP_G_ELLIPSIS));
			w++;
		}
		while (w++ < cells)
			sp_buf_addc(b, ' ');
		return;
	}
	if (right)
		for (size_t k = w; k < cells; k++)
			sp_buf_addc(b, ' ');
	sp_buf_add(b, s, n);
	if (!right)
		for (size_t k = w; k < cells; k++)
			sp_buf_addc(b, ' ');
}

void
text_title(const struct sp_term *t, struct sp_buf *b, const char *head,
	   const char *name, const char *tail)
{
	size_t fixed = sp_text_width(head, strlen(head)) +
		       sp_text_width(tail, strlen(tail));
	size_t room = (size_t)t->width > fixed + 8 ? (size_t)t->width - fixed :
		      8;

	sp_buf_adds(b, head);
	sp_term_fitted(t, b, name, strlen(name), room);
	sp_buf_adds(b, tail);
}

enum sp_paint
text_pattern_paint(int sev)
{
	switch (sev) {
	case SP_SEV_CRITICAL: return SP_P_CRITICAL;
	case SP_SEV_WARNING: return SP_P_WARNING;
	case SP_SEV_INFO: return SP_P_INFO;
	default: return SP_P_NONE;
	}
}

void
text_hours(struct sp_buf *b, double h, int known)
{
	if (!known || !isfinite(h))
		sp_buf_adds(b, "n/a");
	else
		sp_fmt_fixed(b, h, 1);
}

void
lines_index(struct lines *l)
{
	size_t from = 0;

	l->n = 0;
	for (size_t k = 0; k < l->text.len; k++) {
		if (l->text.p[k] != '\n')
			continue;
		l->start = sp_xgrow(l->start, &l->cap, l->n + 2,
				    sizeof *l->start);
		l->start[l->n++] = from;
		from = k + 1;
	}
	if (from < l->text.len) {
		/* A last line without its LF still counts. */
		sp_buf_addc(&l->text, '\n');
		l->start = sp_xgrow(l->start, &l->cap, l->n + 2,
				    sizeof *l->start);
		l->start[l->n++] = from;
	}
	if (l->n > 0)
		l->start[l->n] = l->text.len;
}

void
lines_get(const struct lines *l, size_t i, struct sp_buf *b)
{
	if (i >= l->n)
		return;
	sp_buf_add(b, l->text.p + l->start[i],
		   l->start[i + 1] - l->start[i] - 1);
}

void
lines_free(struct lines *l)
{
	sp_buf_free(&l->text);
	free(l->start);
	memset(l, 0, sizeof *l);
}
