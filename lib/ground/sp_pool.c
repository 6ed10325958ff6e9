/*
 * sp_pool.c - memory kept for the whole run, in blocks that never move.
 */
#include <stdlib.h>
#include <string.h>

#include "sp_pool.h"
#include "sp_util.h"

/* Big enough that a million-job input needs a few hundred blocks; each
 * is its own mapping, so freeing one is cheap. */
#define POOL_BLOCK (1024 * 1024)
/* The first block is small and each next one twice the last, up to
 * POOL_BLOCK: a pool that holds one job's history costs a page, not a
 * megabyte. */
#define POOL_FIRST 4096
/* Objects are aligned as malloc aligns them. */
#define POOL_ALIGN 16
/* Up to this size the classes are POOL_ALIGN apart (the records a
 * history keeps are a few hundred bytes, its list of singles a few
 * kilobytes, and rounding them to a power of two would waste a third);
 * above it, powers of two. */
#define POOL_FINE 4096

static size_t
pool_class(size_t n, size_t *size)
{
	size_t c, s;

	if (n <= POOL_FINE) {
		c = n ? (n + POOL_ALIGN - 1) / POOL_ALIGN : 1;
		*size = c * POOL_ALIGN;
		return c;
	}
	c = POOL_FINE / POOL_ALIGN;
	for (s = POOL_FINE; s < n; s *= 2, c++)
		if (s > ((size_t)-1) / 4)
			sp_die(SP_EXIT_USAGE, "out of memory");
	*size = s;
	return c;
}

/* n bytes at the given alignment (a power of two up to POOL_ALIGN). */
static char *
pool_bytes(struct sp_pool *p, size_t n, size_t align)
{
	size_t at = (p->used + align - 1) & ~(align - 1);
	size_t next;
	char *b;

	if (p->cur != NULL && at + n <= p->size) {
		p->used = at + n;
		return p->cur + at;
	}
	next = p->cur == NULL ? POOL_FIRST :
	    p->size < POOL_BLOCK ? p->size * 2 : POOL_BLOCK;
	/* A large request gets a block of its own; the current one goes on
	 * filling.  Otherwise at most a quarter of a block is left unused. */
	b = sp_xmalloc(n > next / 4 ? n : next);
	p->blocks = sp_xgrow(p->blocks, &p->cap, p->n + 1, sizeof *p->blocks);
	p->blocks[p->n++] = b;
	if (n > next / 4)
		return b;
	p->cur = b;
	p->size = next;
	p->used = n;
	return b;
}

const char *
sp_pool_str(struct sp_pool *p, const char *s, size_t n)
{
	char *d = pool_bytes(p, n + 1, 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

void *
sp_pool_alloc(struct sp_pool *p, size_t n)
{
	size_t size, c = pool_class(n, &size);
	void *v = p->avail[c];

	if (v != NULL) {
		memcpy(&p->avail[c], v, sizeof v);
		return v;
	}
	return pool_bytes(p, size, POOL_ALIGN);
}

void *
sp_pool_zalloc(struct sp_pool *p, size_t n)
{
	void *v = sp_pool_alloc(p, n);

	memset(v, 0, n);
	return v;
}

void
sp_pool_release(struct sp_pool *p, void *v, size_t n)
{
	size_t size, c;

	if (v == NULL)
		return;
	c = pool_class(n, &size);
	memcpy(v, &p->avail[c], sizeof v);
	p->avail[c] = v;
}

void *
sp_pool_grow(struct sp_pool *p, void *v, size_t *cap, size_t need,
	     size_t elem)
{
	size_t n = *cap ? *cap : 1;
	void *q;

	if (need <= *cap)
		return v;
	while (n < need) {
		if (n > ((size_t)-1) / 2 / elem)
			sp_die(SP_EXIT_USAGE, "out of memory");
		n *= 2;
	}
	q = sp_pool_alloc(p, n * elem);
	if (*cap > 0)
		memcpy(q, v, *cap * elem);
	sp_pool_release(p, v, *cap * elem);
	*cap = n;
	return q;
}

/*
 * A string a later run may replace (the best run by some number, the
 * newest completion at a limit) is kept in a size class, and the one it
 * replaces goes back to the pool: such strings change on a good share
 * of all records (t/bench/RESULTS.md has what keeping them cost).
 */
const char *
sp_pool_own_str(struct sp_pool *p, const char *s, size_t n)
{
	char *d = sp_pool_alloc(p, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

void
sp_pool_drop_str(struct sp_pool *p, const char *s)
{
	if (s != NULL)
		sp_pool_release(p, (char *)s, strlen(s) + 1);
}

void
sp_pool_free(struct sp_pool *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->blocks[i]);
	free(p->blocks);
	memset(p, 0, sizeof *p);
}
