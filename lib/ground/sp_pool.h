/*
 * sp_pool.h - memory kept for the whole run, in blocks that never move.
 *
 * Strings (workload keys, the job ids a rule may name) and the growing
 * parts of hundreds of thousands of small tables each cost no malloc
 * here, and freeing them all at exit is freeing a few hundred blocks
 * rather than walking every table.  A pointer into the pool stays valid
 * until the pool is freed.  An array that grows gives its old space back
 * to a free list of its size class, where the next array of that size
 * finds it.  A zeroed struct sp_pool is an empty pool.
 */
#ifndef SP_POOL_H
#define SP_POOL_H

#include <stddef.h>

#define SP_POOL_CLASSES 320

struct sp_pool {
	char **blocks;
	size_t n, cap;
	char *cur;			/* the block being filled */
	size_t used, size;		/* in cur */
	void *avail[SP_POOL_CLASSES];	/* given back, by size class */
};

/* A copy of n bytes and a NUL, kept until the pool is freed. */
const char *sp_pool_str(struct sp_pool *p, const char *s, size_t n);
/* n bytes, aligned for any object, uninitialised; never NULL. */
void *sp_pool_alloc(struct sp_pool *p, size_t n);
/* The same, zeroed. */
void *sp_pool_zalloc(struct sp_pool *p, size_t n);
/* Gives back what sp_pool_alloc(p, n) returned, for reuse; NULL is fine. */
void sp_pool_release(struct sp_pool *p, void *v, size_t n);
/*
 * An array of *cap elements grown to hold need, doubling from one: most
 * of the small tables need one or two elements, and sp_xgrow's first
 * step of sixteen, times a few hundred thousand tables, would be most
 * of the memory.  The old space is given back.
 */
void *sp_pool_grow(struct sp_pool *p, void *v, size_t *cap, size_t need,
		   size_t elem);
/* A NUL-terminated copy that may be given back (sp_pool_drop_str). */
const char *sp_pool_own_str(struct sp_pool *p, const char *s, size_t n);
/* Gives back what sp_pool_own_str returned; NULL is fine. */
void sp_pool_drop_str(struct sp_pool *p, const char *s);
void sp_pool_free(struct sp_pool *p);

#endif
