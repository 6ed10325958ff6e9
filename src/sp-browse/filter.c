/*
 * filter.c - which workloads the first screen shows: only those with a
 * failed run, one user's, one partition's (together, they all hold).
 * Enter or Space takes the line under the cursor; the first screen
 * follows at once, and q goes back to it.
 */
#include <stdlib.h>
#include <string.h>

#include "browse.h"

struct filt {
	struct wfilter *f;
	void (*changed)(struct view *);
	struct view *owner;
};

static const enum req main_keys[] = { REQ_ENTER, REQ_BACK, REQ_HELP,
	REQ_NONE };

/* Lines: failed only; every user, each user; every partition, each. */
static size_t
count(struct view *v)
{
	return 1 + 1 + v->B->m->users.n + 1 + v->B->m->parts.n;
}

static void
name_of(struct browse *B, const struct sp_intern *t, size_t i,
	struct sp_buf *b)
{
	const char *s = sp_intern_str(t, i);
	size_t n = strlen(s);

	if (n == 0 || (n == 1 && s[0] == '?'))
		sp_buf_adds(b, "(unknown)");
	else
		text_field(&B->term, b, (struct sp_slice){ s, n });
}

void
filter_describe(struct browse *B, const struct wfilter *f, struct sp_buf *b)
{
	const char *sep = "";

	if (f->failed_only) {
		sp_buf_adds(b, "failed only");
		sep = ", ";
	}
	if (f->user >= 0) {
		sp_buf_printf(b, "%suser ", sep);
		name_of(B, &B->m->users, (size_t)f->user, b);
		sep = ", ";
	}
	if (f->part >= 0) {
		sp_buf_printf(b, "%spartition ", sep);
		name_of(B, &B->m->parts, (size_t)f->part, b);
	}
}

static void
title(struct view *v, struct sp_buf *b)
{
	sp_buf_adds(b, "slurmpast ");
	sp_buf_adds(b, sp_term_glyph(&v->B->term, SP_G_DOT));
	sp_buf_adds(b, " which workloads to show");
}

static void
line(struct view *v, size_t i, struct sp_buf *b)
{
	struct filt *s = v->data;
	struct model *m = v->B->m;
	size_t users = m->users.n;

	if (i == 0) {
		sp_buf_printf(b, "[%c] failed only: the workloads with a "
			      "failed run", s->f->failed_only ? 'x' : ' ');
	} else if (i == 1) {
		sp_buf_printf(b, "(%c) every user", s->f->user < 0 ? '*' : ' ');
	} else if (i < 2 + users) {
		size_t u = m->users_by_name[i - 2];

		sp_buf_printf(b, "    (%c) ", s->f->user == (long)u ? '*' :
			      ' ');
		name_of(v->B, &m->users, u, b);
	} else if (i == 2 + users) {
		sp_buf_printf(b, "(%c) every partition",
			      s->f->part < 0 ? '*' : ' ');
	} else {
		size_t p = m->parts_by_name[i - 3 - users];

		sp_buf_printf(b, "    (%c) ", s->f->part == (long)p ? '*' :
			      ' ');
		name_of(v->B, &m->parts, p, b);
	}
}

static int
request(struct view *v, enum req r)
{
	struct filt *s = v->data;
	size_t i = v->cur, users = v->B->m->users.n;

	/* Space toggles here, as in a list of check boxes. */
	if (r != REQ_ENTER && r != REQ_PGDN)
		return 0;
	if (i == 0)
		s->f->failed_only = !s->f->failed_only;
	else if (i == 1)
		s->f->user = -1;
	else if (i < 2 + users)
		s->f->user = (long)v->B->m->users_by_name[i - 2];
	else if (i == 2 + users)
		s->f->part = -1;
	else
		s->f->part = (long)v->B->m->parts_by_name[i - 3 - users];
	s->changed(s->owner);
	return 1;
}

static void
free_filt(struct view *v)
{
	free(v->data);
}

static const struct view_ops ops = {
	"filter", main_keys, title, NULL, NULL, count, line, NULL, request,
	NULL, free_filt
};

struct view *
filter_open(struct browse *B, struct wfilter *f,
	    void (*changed)(struct view *), struct view *owner)
{
	struct filt *s = sp_xcalloc(1, sizeof *s);

	s->f = f;
	s->changed = changed;
	s->owner = owner;
	return view_new(B, &ops, s, 1);
}
