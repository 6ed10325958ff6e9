/*
 * stack.c - the views, one over another: a view made, opened over the
 * one on top, its cursor kept on screen and moved, closed; the line said
 * at the bottom; a selection for the terminal to copy.  Below every view
 * and the frame (ui.c) alike: a view opens another through here, never
 * through the frame, so the frame may know each view and no view it.
 */
#include <curses.h>
#include <stdarg.h>
#include <stdlib.h>

#include "browse.h"

#include <term.h>

size_t
view_height(const struct view *v)
{
	size_t head = v->ops->nheader ? v->ops->nheader((struct view *)v) : 0;
	int rows = v->B->rows - 2 - (int)head;

	return rows > 1 ? (size_t)rows : 1;
}

/* Keeps the cursor on screen, and the page inside the body. */
void
view_settle(struct view *v)
{
	size_t count = v->ops->count(v), h = view_height(v);

	if (count == 0) {
		v->cur = v->top = 0;
		return;
	}
	if (v->cur >= count)
		v->cur = count - 1;
	if (!v->cursor) {
		if (v->top + h > count)
			v->top = count > h ? count - h : 0;
		return;
	}
	if (v->cur < v->top)
		v->top = v->cur;
	if (v->cur >= v->top + h)
		v->top = v->cur - h + 1;
}

void
view_move_by(struct view *v, long d)
{
	size_t count = v->ops->count(v);
	size_t *p = v->cursor ? &v->cur : &v->top;

	if (count == 0)
		return;
	if (d < 0)
		*p = (size_t)-d > *p ? 0 : *p - (size_t)-d;
	else
		*p = *p + (size_t)d >= count ? count - 1 : *p + (size_t)d;
	view_settle(v);
}

struct view *
view_new(struct browse *B, const struct view_ops *ops, void *data, int cursor)
{
	struct view *v = sp_xcalloc(1, sizeof *v);

	v->ops = ops;
	v->B = B;
	v->data = data;
	v->cursor = cursor;
	return v;
}

void
view_push(struct browse *B, struct view *v)
{
	v->parent = B->view;
	B->view = v;
	view_settle(v);
}

void
view_pop(struct browse *B)
{
	struct view *v = B->view;

	B->view = v->parent;
	if (v->ops->free)
		v->ops->free(v);
	free(v);
	if (B->view != NULL)
		view_settle(B->view);
}

void
browse_say(struct browse *B, const char *fmt, ...)
{
	va_list ap;

	sp_buf_clear(&B->msg);
	va_start(ap, fmt);
	sp_buf_vprintf(&B->msg, fmt, ap);
	va_end(ap);
}

void
ui_selection(struct sp_buf *b, const char *base64)
{
	char *ms = tigetstr("Ms");

	if (ms != NULL && ms != (char *)-1)
		sp_buf_adds(b, tiparm(ms, "c", base64));
}
