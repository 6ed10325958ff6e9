/*
 * headline.c - the first lines of the first screen: the library's
 * headline (sp_headline.h), the same sp-report leads the report with,
 * and the advice replayed out of sample in one line, as the report says
 * it under its advice (sp_backtest.h).
 */
#include "browse.h"

void
headline_lines(const struct model *m, const struct opts *o,
	       struct sp_buf *lead, struct sp_buf *window)
{
	struct sp_headline h = m->head;
	struct sp_bt_headline bt;
	struct sp_buf more = { 0 };

	h.source = o->source;
	sp_headline_lead(&h, lead, &more);
	if (more.len > 0) {
		sp_buf_addc(lead, '\n');
		sp_buf_add(lead, more.p, more.len);
	}
	sp_headline_window(&h, window);
	sp_bt_headline_of(&m->bt.out, &bt);
	sp_buf_addc(window, '\n');
	sp_bt_headline_text(window, &bt);
	sp_buf_free(&more);
}
