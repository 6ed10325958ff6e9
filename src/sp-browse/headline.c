/*
 * headline.c - the first lines of the first screen: the library's
 * headline (sp_headline.h), the same sp-report leads the report with.
 */
#include "browse.h"

void
headline_lines(const struct model *m, const struct opts *o,
	       struct sp_buf *lead, struct sp_buf *window)
{
	struct sp_headline h = m->head;
	struct sp_buf more = { 0 };

	h.source = o->source;
	sp_headline_lead(&h, lead, &more);
	if (more.len > 0) {
		sp_buf_addc(lead, '\n');
		sp_buf_add(lead, more.p, more.len);
	}
	sp_headline_window(&h, window);
	sp_buf_free(&more);
}
