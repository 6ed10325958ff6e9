#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sp_intern.h"
#include "sp_util.h"

/*
 * Eight bytes a step (FNV's byte a step was a chain of 40 dependent
 * multiplies per workload key, paid on every record), mixed at the end
 * so every input bit reaches the low bits a table index takes.
 */
uint64_t
sp_hash_bytes(const char *p, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ULL ^ n, w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
		h ^= h >> 31;
	}
	w = 0;
	while (n > 0) {
		n--;
		w = w << 8 | (unsigned char)p[n];
	}
	h = (h ^ w) * 0x94D049BB133111EBULL;
	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ULL;
	return h ^ (h >> 32);
}

/*
 * A slot holds the string's number + 1 in its low half and the high
 * half of its hash above: a probe that meets another string tells it
 * by the slot alone, without reaching the string (two cache misses each
 * when the table is larger than the cache, as at 200,000 workloads).
 */
#define SLOT_NUM(v) ((size_t)((v) & 0xFFFFFFFFu))
#define SLOT_TAG(h) ((uint64_t)(h) & 0xFFFFFFFF00000000ULL)

/* The slot holding the string, or the empty one where it would go. */
static size_t
probe(const struct sp_intern *t, const char *p, size_t n, uint64_t h)
{
	size_t mask = t->slotcap - 1, i = (size_t)h & mask;

	for (;; i = (i + 1) & mask) {
		uint64_t v = t->slot[i];
		size_t e = SLOT_NUM(v);

		if (e == 0 || (SLOT_TAG(v) == SLOT_TAG(h) &&
			       t->e[e - 1].n == n &&
			       memcmp(t->e[e - 1].s, p, n) == 0))
			return i;
	}
}

/* Keeps the table at most half full, so a probe ends soon. */
static void
grow(struct sp_intern *t)
{
	uint64_t *old = t->slot;
	size_t oldcap = t->slotcap;

	if ((t->n + 1) * 2 <= t->slotcap)
		return;
	t->slotcap = oldcap ? oldcap * 2 : 64;
	t->slot = sp_xcalloc(t->slotcap, sizeof *t->slot);
	for (size_t i = 0; i < oldcap; i++) {
		size_t e = SLOT_NUM(old[i]), j;

		if (e == 0)
			continue;
		j = (size_t)t->e[e - 1].hash & (t->slotcap - 1);
		while (t->slot[j] != 0)
			j = (j + 1) & (t->slotcap - 1);
		t->slot[j] = old[i];
	}
	free(old);
}

size_t
sp_intern(struct sp_intern *t, const char *p, size_t n)
{
	uint64_t h = sp_hash_bytes(p, n);
	size_t i;

	grow(t);
	i = probe(t, p, n, h);
	if (t->slot[i])
		return SLOT_NUM(t->slot[i]) - 1;
	/* The number must fit its half of the slot. */
	if (t->n >= 0xFFFFFFFEu)
		sp_die(SP_EXIT_USAGE, "more than 4 billion distinct names");
	t->e = sp_xgrow(t->e, &t->cap, t->n + 1, sizeof *t->e);
	t->e[t->n].s = sp_pool_str(&t->pool, p, n);
	t->e[t->n].n = n;
	t->e[t->n].hash = h;
	t->slot[i] = SLOT_TAG(h) | ++t->n;
	return t->n - 1;
}

long
sp_intern_find(const struct sp_intern *t, const char *p, size_t n)
{
	size_t e;

	if (t->slotcap == 0)
		return -1;
	e = SLOT_NUM(t->slot[probe(t, p, n, sp_hash_bytes(p, n))]);
	return e ? (long)(e - 1) : -1;
}

const char *
sp_intern_str(const struct sp_intern *t, size_t i)
{
	return i < t->n ? t->e[i].s : NULL;
}

void
sp_intern_free(struct sp_intern *t)
{
	sp_pool_free(&t->pool);
	free(t->e);
	free(t->slot);
	memset(t, 0, sizeof *t);
}
