/*
 * The pool (sp_pool.h): what it keeps stays where it was put, aligned,
 * until the pool is freed; what is given back is found again by the next
 * request of its size class; a grown array keeps its elements.
 */
#include <stdint.h>
#include <string.h>

#include "sp.h"
#include "sp_pool.h"
#include "tap.h"

static void
strings(void)
{
	struct sp_pool p = { 0 };
	const char *s[2000];
	char want[32];
	int same = 1;

	for (int i = 0; i < 2000; i++) {
		snprintf(want, sizeof want, "job-%d", i);
		s[i] = sp_pool_str(&p, want, strlen(want));
	}
	for (int i = 0; i < 2000; i++) {
		snprintf(want, sizeof want, "job-%d", i);
		same &= strcmp(s[i], want) == 0;
	}
	ok(same, "2000 strings stay where they were put");
	ok(p.n > 1, "across more than one block (%zu)", p.n);
	is_string("ab", sp_pool_str(&p, "abc", 2), "a copy of n bytes, "
		  "terminated");
	is_string("", sp_pool_str(&p, "", 0), "an empty string");
	sp_pool_free(&p);
	is_int(0, (long long)p.n, "freed: no block left");
}

static void
alloc_release(void)
{
	struct sp_pool p = { 0 };
	void *a, *b, *c, *big;
	int aligned = 1;

	for (size_t n = 1; n < 300; n += 7) {
		a = sp_pool_alloc(&p, n);
		aligned &= ((uintptr_t)a & 15) == 0;
		memset(a, 0xab, n);
	}
	ok(aligned, "every object is 16-byte aligned");
	a = sp_pool_alloc(&p, 40);
	sp_pool_release(&p, a, 40);
	b = sp_pool_alloc(&p, 48);
	ok(a == b, "given back, found again by the same size class");
	c = sp_pool_alloc(&p, 48);
	ok(c != b, "and only once");
	big = sp_pool_alloc(&p, 3 * 1024 * 1024);
	memset(big, 1, 3 * 1024 * 1024);
	ok(big != NULL, "a request larger than a block gets its own");
	sp_pool_release(&p, NULL, 10);
	ok(1, "giving back NULL is nothing");
	a = sp_pool_zalloc(&p, 100);
	ok(((unsigned char *)a)[0] == 0 && ((unsigned char *)a)[99] == 0,
	   "zalloc is zeroed");
	sp_pool_free(&p);
}

static void
grow(void)
{
	struct sp_pool p = { 0 };
	int *v = NULL;
	size_t cap = 0;
	int same = 1;

	for (int i = 0; i < 1000; i++) {
		v = sp_pool_grow(&p, v, &cap, (size_t)i + 1, sizeof *v);
		v[i] = i * 3;
	}
	for (int i = 0; i < 1000; i++)
		same &= v[i] == i * 3;
	ok(same, "a grown array keeps its elements");
	is_int(1024, (long long)cap, "doubling from one: 1000 need 1024");
	ok(sp_pool_grow(&p, v, &cap, 10, sizeof *v) == v,
	   "no growth when it fits");
	sp_pool_free(&p);
}

static void
owned(void)
{
	struct sp_pool p = { 0 };
	const char *a = sp_pool_own_str(&p, "51000123", 8), *b;

	is_string("51000123", a, "an owned string");
	sp_pool_drop_str(&p, a);
	b = sp_pool_own_str(&p, "51000124", 8);
	ok(a == b, "dropped, its space is taken by the next of its size");
	sp_pool_drop_str(&p, NULL);
	sp_pool_free(&p);
}

int
main(void)
{
	plan_lazy();
	strings();
	alloc_release();
	grow();
	owned();
	return done_testing();
}
