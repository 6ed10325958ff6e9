/*
 * ring.c - a file's recent Bash calls, by id: a transcript's answer
 * names the call it answers, and only the last ATTR_RING are kept.
 * Below both the scan and the JSON walk, which each add and find.
 */
#include <stdint.h>
#include <string.h>

#include "sp.h"
#include "attr.h"

struct attr_call *
attr_ring_find(struct attr_ring *r, const char *id, size_t n)
{
	for (size_t k = 0; k < r->n; k++) {
		struct attr_call *c = &r->e[k];

		if (c->id_n == n && memcmp(c->id, id, n) == 0)
			return c;
	}
	return NULL;
}

void
attr_ring_add(struct attr_ring *r, const char *id, size_t n, int kind)
{
	struct attr_call *c;

	if (n > sizeof c->id)
		return;		/* no id of Claude Code's is this long */
	c = &r->e[r->next];
	if (r->n == ATTR_RING && !c->answered &&
	    (c->kind & ATTR_CMD_PARSABLE))
		r->awaiting--;	/* its answer never came */
	memcpy(c->id, id, n);
	c->id_n = n;
	c->kind = kind;
	c->answered = 0;
	if (kind & ATTR_CMD_PARSABLE)
		r->awaiting++;
	r->next = (r->next + 1) % ATTR_RING;
	if (r->n < ATTR_RING)
		r->n++;
}
