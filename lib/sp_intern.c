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

/* The slot holding the string, or the empty one where it would go. */
static size_t
probe(const struct sp_intern *t, const char *p, size_t n)
{
	size_t mask = t->slotcap - 1, i = sp_hash_bytes(p, n) & mask;

	for (;; i = (i + 1) & mask) {
		size_t e = t->slot[i];

		if (e == 0 || (t->e[e - 1].n == n &&
			       memcmp(t->e[e - 1].s, p, n) == 0))
			return i;
	}
}

/* Keeps the table at most half full, so a probe ends soon. */
static void
grow(struct sp_intern *t)
{
	size_t *old = t->slot, oldcap = t->slotcap;

	if ((t->n + 1) * 2 <= t->slotcap)
		return;
	t->slotcap = oldcap ? oldcap * 2 : 64;
	t->slot = sp_xcalloc(t->slotcap, sizeof *t->slot);
	for (size_t i = 0; i < oldcap; i++) {
		size_t e = old[i], j;

		if (e == 0)
			continue;
		j = sp_hash_bytes(t->e[e - 1].s, t->e[e - 1].n) &
		    (t->slotcap - 1);
		while (t->slot[j] != 0)
			j = (j + 1) & (t->slotcap - 1);
		t->slot[j] = e;
	}
	free(old);
}

size_t
sp_intern(struct sp_intern *t, const char *p, size_t n)
{
	size_t i;

	grow(t);
	i = probe(t, p, n);
	if (t->slot[i])
		return t->slot[i] - 1;
	t->e = sp_xgrow(t->e, &t->cap, t->n + 1, sizeof *t->e);
	t->e[t->n].s = sp_xstrndup(p, n);
	t->e[t->n].n = n;
	t->slot[i] = ++t->n;
	return t->n - 1;
}

long
sp_intern_find(const struct sp_intern *t, const char *p, size_t n)
{
	size_t e;

	if (t->slotcap == 0)
		return -1;
	e = t->slot[probe(t, p, n)];
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
	for (size_t i = 0; i < t->n; i++)
		free(t->e[i].s);
	free(t->e);
	free(t->slot);
	memset(t, 0, sizeof *t);
}
