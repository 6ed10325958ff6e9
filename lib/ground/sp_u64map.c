/*
 * sp_u64map.c - open addressing from a 64-bit key to an index, in a pool.
 */
#include <string.h>

#include "sp_u64map.h"

static size_t
slot(const struct sp_u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1;
	size_t i = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 17) & mask;

	while (m->vals[i] != 0 && m->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

long
sp_u64map_get(const struct sp_u64map *m, uint64_t key)
{
	size_t i;

	if (m->cap == 0)
		return -1;
	i = slot(m, key);
	return m->vals[i] ? (long)(m->vals[i] - 1) : -1;
}

void
sp_u64map_put(struct sp_pool *pool, struct sp_u64map *m, uint64_t key,
	      size_t val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap) {
		struct sp_u64map old = *m;

		m->cap = old.cap ? old.cap * 2 : 16;
		m->keys = sp_pool_zalloc(pool, m->cap * sizeof *m->keys);
		m->vals = sp_pool_zalloc(pool, m->cap * sizeof *m->vals);
		for (size_t k = 0; k < old.cap; k++) {
			if (old.vals[k] == 0)
				continue;
			i = slot(m, old.keys[k]);
			m->keys[i] = old.keys[k];
			m->vals[i] = old.vals[k];
		}
		sp_pool_release(pool, old.keys, old.cap * sizeof *old.keys);
		sp_pool_release(pool, old.vals, old.cap * sizeof *old.vals);
	}
	i = slot(m, key);
	if (m->vals[i] == 0)
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val + 1;
}

void
sp_u64map_free(struct sp_pool *pool, struct sp_u64map *m)
{
	sp_pool_release(pool, m->keys, m->cap * sizeof *m->keys);
	sp_pool_release(pool, m->vals, m->cap * sizeof *m->vals);
	memset(m, 0, sizeof *m);
}

uint64_t
sp_u64map_double_key(double v)
{
	uint64_t k;

	memcpy(&k, &v, sizeof k);
	return k;
}
