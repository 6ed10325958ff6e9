/*
 * The u64 map (sp_u64map.h): every key put is found with its index, a
 * key never put is -1, growing keeps them all, a put twice is replaced.
 */
#include <math.h>

#include "sp.h"
#include "sp_u64map.h"
#include "tap.h"

int
main(void)
{
	struct sp_pool p = { 0 };
	struct sp_u64map m = { 0 };
	int all = 1, none = 1;

	plan_lazy();
	is_int(-1, sp_u64map_get(&m, 7), "an empty map finds nothing");
	for (uint64_t k = 0; k < 5000; k++)
		sp_u64map_put(&p, &m, k * 0x10000001ULL, (size_t)k);
	for (uint64_t k = 0; k < 5000; k++)
		all &= sp_u64map_get(&m, k * 0x10000001ULL) == (long)k;
	for (uint64_t k = 5000; k < 6000; k++)
		none &= sp_u64map_get(&m, k * 0x10000001ULL) == -1;
	ok(all, "5000 keys, each with its index, after growing");
	ok(none, "keys never put are not found");
	is_int(5000, (long long)m.n, "5000 entries");
	sp_u64map_put(&p, &m, 0x10000001ULL, 42);
	is_int(42, sp_u64map_get(&m, 0x10000001ULL), "a second put replaces");
	is_int(5000, (long long)m.n, "and adds no entry");
	ok(sp_u64map_double_key(32.0 * 1073741824.0) ==
	   sp_u64map_double_key(34359738368.0), "equal doubles, equal keys");
	ok(sp_u64map_double_key(1.0) != sp_u64map_double_key(2.0),
	   "different doubles, different keys");
	sp_u64map_free(&p, &m);
	is_int(0, (long long)m.cap, "freed");
	sp_pool_free(&p);
	return done_testing();
}
