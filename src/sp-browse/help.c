/*
 * help.c - ?: every key and what it does, read from the key map (keys.c),
 * so the screen cannot say what the keys do not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "browse.h"

static const enum req main_keys[] = { REQ_BACK, REQ_NONE };

static void
title(struct view *v, struct sp_buf *b)
{
	sp_buf_printf(b, "slurmpast %s keys", sp_term_glyph(&v->B->term,
		      SP_G_DOT));
}

/* The requests with words, in the order of the enum. */
static size_t
count(struct view *v)
{
	size_t n = 0;

	(void)v;
	for (int r = REQ_NONE + 1; r < REQ_N; r++)
		n += key_info((enum req)r) != NULL;
	return n;
}

static void
line(struct view *v, size_t i, struct sp_buf *b)
{
	const struct keyinfo *k = NULL;

	for (int r = REQ_NONE + 1; r < REQ_N; r++) {
		if ((k = key_info((enum req)r)) == NULL)
			continue;
		if (i-- == 0)
			break;
	}
	if (k == NULL)
		return;
	sp_term_paint(&v->B->term, b, SP_P_BOLD);
	text_cell(&v->B->term, b, k->keys, strlen(k->keys), key_width() + 2,
		  0);
	sp_term_paint(&v->B->term, b, SP_P_NONE);
	sp_buf_adds(b, k->help);
}

void
help_keys(FILE *f)
{
	const struct keyinfo *k;
	int w = (int)key_width();

	for (int r = REQ_NONE + 1; r < REQ_N; r++)
		if ((k = key_info((enum req)r)) != NULL)
			fprintf(f, "  %-*s  %s\n", w, k->keys, k->help);
}

static const struct view_ops ops = {
	"keys", main_keys, title, NULL, NULL, count, line, NULL, NULL, NULL,
	NULL
};

struct view *
help_open(struct browse *B)
{
	return view_new(B, &ops, NULL, 0);
}
