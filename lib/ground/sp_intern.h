/*
 * sp_intern.h - strings numbered in the order they were first seen, for
 * the stages that count per workload or per node: a record's key is
 * looked up once and the count lives in an array under its number.
 */
#ifndef SP_INTERN_H
#define SP_INTERN_H

#include <stddef.h>
#include <stdint.h>
#include "sp_pool.h"

struct sp_interned {
	const char *s;		/* NUL-terminated, in pool */
	size_t n;
	uint64_t hash;		/* kept: a table that grows rehashes none */
};

struct sp_intern {
	struct sp_interned *e;	/* e[i]: the i-th string */
	size_t n;
	size_t cap;
	uint64_t *slot;		/* open addressing: number + 1, 0 empty,
				 * and the hash's high half (sp_intern.c) */
	size_t slotcap;
	struct sp_pool pool;	/* the strings: no malloc each */
};

/* The number of the n bytes at p, adding them when new. */
size_t sp_intern(struct sp_intern *t, const char *p, size_t n);
/* The number, or -1 when never seen. */
long sp_intern_find(const struct sp_intern *t, const char *p, size_t n);
const char *sp_intern_str(const struct sp_intern *t, size_t i);
void sp_intern_free(struct sp_intern *t);
/* The hash both the intern table and sp_size's workload table use. */
uint64_t sp_hash_bytes(const char *p, size_t n);

#endif
