/*
 * sp_u64map.h - open addressing from a 64-bit key to an index, in a pool.
 *
 * For the few histories whose lists outgrow a linear search (many
 * arrays, many limits a workload completed at); a zeroed map is empty.
 */
#ifndef SP_U64MAP_H
#define SP_U64MAP_H

#include <stddef.h>
#include <stdint.h>
#include "sp_pool.h"

struct sp_u64map {
	uint64_t *keys;
	size_t *vals;		/* index + 1, 0 empty */
	size_t cap, n;
};

/* The index stored under key, or -1. */
long sp_u64map_get(const struct sp_u64map *m, uint64_t key);
void sp_u64map_put(struct sp_pool *pool, struct sp_u64map *m, uint64_t key,
		   size_t val);
void sp_u64map_free(struct sp_pool *pool, struct sp_u64map *m);
/* A double's bits as a key: equal keys for equal numbers (not -0, NaN). */
uint64_t sp_u64map_double_key(double v);

#endif
