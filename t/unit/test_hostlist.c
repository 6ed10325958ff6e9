/*
 * Hostlists: expansion against what "scontrol show hostnames" (Slurm
 * 22.05) prints, the places we deliberately read more than it does, the
 * caps on hostile input, and compression for --exclude.
 */
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "tap.h"

/* The names of a list joined by spaces; rc through *rc. */
static char *
expand(const char *s, int *rc, size_t *n)
{
	struct sp_names v = { 0 };
	struct sp_buf b = { 0 };
	size_t i;
	char *out;

	*rc = sp_hostlist_expand(s, strlen(s), &v);
	*n = v.n;
	for (i = 0; i < v.n; i++) {
		if (i > 0)
			sp_buf_addc(&b, ' ');
		sp_buf_adds(&b, sp_names_at(&v, i));
	}
	out = sp_xstrdup(sp_buf_str(&b));
	sp_buf_free(&b);
	sp_names_free(&v);
	return out;
}

static void
expand_is(const char *list, const char *want)
{
	size_t n;
	int rc;
	char *got = expand(list, &rc, &n);

	is_string(want, got, "expand \"%s\"", list);
	is_int(0, rc, "expand \"%s\" returns 0", list);
	free(got);
}

static void
compress_is(const char *const *names, size_t n, const char *want)
{
	struct sp_names v = { 0 };
	struct sp_buf b = { 0 };
	size_t i;

	for (i = 0; i < n; i++)
		sp_names_add(&v, names[i], strlen(names[i]));
	sp_buf_adds(&b, "--exclude=");
	sp_hostlist_compress(&v, &b);
	is_string(want, sp_buf_str(&b) + 10, "compress %zu names to \"%s\"", n,
		  want);
	sp_buf_free(&b);
	sp_names_free(&v);
}

#define COMPRESS_IS(want, ...) do { \
	static const char *const names_[] = { __VA_ARGS__ }; \
	compress_is(names_, sizeof names_ / sizeof names_[0], want); \
} while (0)

static void
test_names(void)
{
	struct sp_names v = { 0 };

	ok(sp_names_at(&v, 0) == NULL, "an empty list has no name 0");
	sp_names_add(&v, "node1junk", 5);
	sp_names_add(&v, "", 0);
	sp_names_add(&v, "n2", 2);
	is_int(3, (long long)v.n, "three names added");
	is_string("node1", sp_names_at(&v, 0), "a name is its slice only");
	is_string("", sp_names_at(&v, 1), "an empty name");
	is_string("n2", sp_names_at(&v, 2), "third name");
	ok(sp_names_at(&v, 3) == NULL, "past the end is NULL");
	sp_names_clear(&v);
	is_int(0, (long long)v.n, "cleared");
	sp_names_add(&v, "x", 1);
	is_string("x", sp_names_at(&v, 0), "reused after clear");
	sp_names_free(&v);
	sp_names_free(&v);
	ok(v.n == 0 && v.off == NULL, "freed twice safely");
}

/* Each of these is exactly what scontrol show hostnames 22.05 printed. */
static void
test_as_scontrol(void)
{
	expand_is("node[1-3]", "node1 node2 node3");
	expand_is("n[01-10]", "n01 n02 n03 n04 n05 n06 n07 n08 n09 n10");
	expand_is("n[1-2,5]", "n1 n2 n5");
	expand_is("a[0-1]b[0-1]", "a0b0 a0b1 a1b0 a1b1");
	expand_is("n[1-2],m[3-4]", "n1 n2 m3 m4");
	expand_is("n[001-3]", "n001 n002 n003");
	expand_is("n[1-010]", "n1 n2 n3 n4 n5 n6 n7 n8 n9 n10");
	expand_is("n[9-11]", "n9 n10 n11");
	expand_is("n[09-11]", "n09 n10 n11");
	expand_is("n[01-2]", "n01 n02");
	expand_is("n[0001-0003]", "n0001 n0002 n0003");
	expand_is("a,b c", "a b c");
	expand_is("a\tb", "a b");
	expand_is(",a,", "a");
	expand_is("n[1-2],,m", "n1 n2 m");
	expand_is("n1,n1", "n1 n1");
	expand_is("x]", "x]");
	expand_is("n[[1-2]", "n[1 n[2");
	expand_is("a]b[1-2]", "a]b1 a]b2");
	expand_is("[1-2]", "1 2");
	expand_is("n[1-2][3-4]", "n13 n14 n23 n24");
	expand_is("N[1-2]", "N1 N2");
	expand_is("n[18446744073709551615]", "n18446744073709551615");
	expand_is("n[4294967296-4294967297]", "n4294967296 n4294967297");
	expand_is("midway3-[0277-0279,0281]",
		  "midway3-0277 midway3-0278 midway3-0279 midway3-0281");
	expand_is("cpn-f16-[35,37,39-40]",
		  "cpn-f16-35 cpn-f16-37 cpn-f16-39 cpn-f16-40");
	expand_is("k10n26s01,k13n36s01,k13n37s01",
		  "k10n26s01 k13n36s01 k13n37s01");
}

/* Where 22.05 refuses the list and we keep the job's nodes instead. */
static void
test_beyond_scontrol(void)
{
	/* Suffixes: Slurm 23.11 reads them so; 22.05 says "Invalid". */
	expand_is("node[1-2]-ib", "node1-ib node2-ib");
	expand_is("gpu[01-02]-ib,cpu[1-2]", "gpu01-ib gpu02-ib cpu1 cpu2");
	expand_is("n[1-2]x[3-4]y", "n1x3y n1x4y n2x3y n2x4y");
	expand_is("n[1-3]x", "n1x n2x n3x");
	/* Items that are not increasing numeric ranges stay text. */
	expand_is("node[a-b]", "nodea-b");
	expand_is("node[3-1]", "node3-1");
	expand_is("n[a]", "na");
	expand_is("n[-1]", "n-1");
	expand_is("n[1--2]", "n1--2");
	expand_is("n[1-2x]", "n1-2x");
	expand_is("n[1.5]", "n1.5");
	expand_is("n[+1-2]", "n+1-2");
	expand_is("n[1-2,a]", "n1 n2 na");
	expand_is("n[18446744073709551616]", "n18446744073709551616");
	/* Empty items are skipped; an empty set is literal text. */
	expand_is("n[1,,2]", "n1 n2");
	expand_is("n[]", "n[]");
	expand_is("n[,]", "n[,]");
	/* An unclosed '[' is literal (22.05 prints "x]" and "n]"). */
	expand_is("x[", "x[");
	expand_is("n[1-2", "n[1-2");
	expand_is("n[1-2,5", "n[1-2 5");
	/* Three sets: leftmost slowest (22.05 varies the middle slowest). */
	expand_is("u[1-2]r[1-3]s[1-2]",
		  "u1r1s1 u1r1s2 u1r2s1 u1r2s2 u1r3s1 u1r3s2 "
		  "u2r1s1 u2r1s2 u2r2s1 u2r2s2 u2r3s1 u2r3s2");
	/* The end of uint64 is reached without wrapping. */
	expand_is("n[18446744073709551614-18446744073709551615]",
		  "n18446744073709551614 n18446744073709551615");
}

static void
test_none(void)
{
	static const char *const none[] = {
		"", "None assigned", "none assigned", "NONE ASSIGNED",
		"  None assigned ", " ", "\t", ",", ", ,",
	};
	size_t i, n;
	int rc;
	char *got;

	for (i = 0; i < sizeof none / sizeof none[0]; i++) {
		got = expand(none[i], &rc, &n);
		ok(n == 0 && rc == 0, "\"%s\" gives no nodes", none[i]);
		free(got);
	}
	expand_is("None", "None");
	/* Only the whole field means none; in a list it is two names. */
	got = expand("None assigned,n1", &rc, &n);
	ok(n == 3 && rc == 0, "\"None assigned,n1\" is three names (%zu)", n);
	free(got);
}

static void
test_real_lists(void)
{
	static const char xdmod[] =
	    "d07n07s02,d07n19s02,d07n25s01,d07n28s01,d07n29s01,d07n31s02,"
	    "d07n38s02,d09n04s[01-02],d09n05s02,d09n06s01,d09n07s01,"
	    "d09n08s[01-02],d09n09s01,d09n11s[01-02],d09n13s01,d09n14s01,"
	    "d09n15s01,d09n16s01,d09n17s01,d09n24s01,d09n25s02,d09n28s01,"
	    "d09n35s01,d09n38s02,d13n[03,05,07-08,16]";
	struct sp_names v = { 0 };
	struct sp_buf b = { 0 };

	/* The job ran on NNodes=32: the list must say so. */
	is_int(0, sp_hostlist_expand(xdmod, strlen(xdmod), &v),
	       "xdmod 32-node list expands");
	is_int(32, (long long)v.n, "to 32 names, its NNodes");
	is_string("d07n07s02", sp_names_at(&v, 0), "first");
	is_string("d09n04s01", sp_names_at(&v, 7), "a range's first");
	is_string("d09n04s02", sp_names_at(&v, 8), "a range's second");
	is_string("d13n16", sp_names_at(&v, 31), "last");
	sp_hostlist_compress(&v, &b);
	is_string("d07n07s02,d07n19s02,d07n25s01,d07n28s01,d07n29s01,"
		  "d07n31s02,d07n38s02,d09n04s[01-02],d09n05s02,d09n06s01,"
		  "d09n07s01,d09n08s[01-02],d09n09s01,d09n11s[01-02],"
		  "d09n13s01,d09n14s01,d09n15s01,d09n16s01,d09n17s01,"
		  "d09n24s01,d09n25s02,d09n28s01,d09n35s01,d09n38s02,"
		  "d13n[03,05,07-08,16]", sp_buf_str(&b),
		  "and compresses back to the same text");
	/* Appending: a second list lands after the first. */
	is_int(0, sp_hostlist_expand("cpn-f15-27", 10, &v), "append a list");
	is_int(33, (long long)v.n, "appended, not replaced");
	is_string("cpn-f15-27", sp_names_at(&v, 32), "appended name");
	/* Only the slice is read. */
	sp_names_clear(&v);
	is_int(0, sp_hostlist_expand("n[1-2]|junk", 6, &v), "a slice");
	is_int(2, (long long)v.n, "a slice: two names");
	sp_buf_free(&b);
	sp_names_free(&v);
}

static void
test_caps(void)
{
	struct sp_names v = { 0 };
	struct sp_buf long_list = { 0 };
	size_t i;
	int rc;

	rc = sp_hostlist_expand("n[1-65536]", 10, &v);
	is_int(0, rc, "exactly SP_HOSTLIST_MAX names is not capped");
	is_int(SP_HOSTLIST_MAX, (long long)v.n, "all 65536 kept");
	is_string("n65536", sp_names_at(&v, 65535), "the last one");
	sp_names_clear(&v);

	rc = sp_hostlist_expand("n[1-65537]", 10, &v);
	is_int(-1, rc, "one past the cap is -1");
	is_int(SP_HOSTLIST_MAX, (long long)v.n, "the first 65536 kept");
	sp_names_clear(&v);

	rc = sp_hostlist_expand("n[1-65536],x", 12, &v);
	is_int(-1, rc, "the cap counts across the list");
	is_string("n65536", sp_names_at(&v, v.n - 1), "x is not kept");
	sp_names_clear(&v);

	rc = sp_hostlist_expand("n[1-99999999]", 13, &v);
	is_int(-1, rc, "n[1-99999999] stops at the cap");
	is_int(SP_HOSTLIST_MAX, (long long)v.n, "with 65536 names");
	is_string("n1", sp_names_at(&v, 0), "from n1");
	is_string("n65536", sp_names_at(&v, v.n - 1), "to n65536");
	sp_names_clear(&v);

	rc = sp_hostlist_expand("u[1-2000]r[1-2000]", 18, &v);
	is_int(-1, rc, "u[1-2000]r[1-2000] stops at the cap");
	is_int(SP_HOSTLIST_MAX, (long long)v.n, "with 65536 names");
	is_string("u33r1536", sp_names_at(&v, v.n - 1),
		  "the 65536th of the product, leftmost slowest");
	sp_names_clear(&v);

	/* 10^20 combinations: the odometer stops, nothing is built first. */
	for (i = 0; i < 20; i++)
		sp_buf_adds(&long_list, "a[0-9]");
	rc = sp_hostlist_expand(long_list.p, long_list.len, &v);
	is_int(-1, rc, "twenty sets of ten stop at the cap");
	is_int(SP_HOSTLIST_MAX, (long long)v.n, "with 65536 names");
	sp_names_clear(&v);

	/* Long names: the byte cap binds before the name cap. */
	sp_buf_clear(&long_list);
	for (i = 0; i < 300; i++)
		sp_buf_addc(&long_list, 'a');
	sp_buf_adds(&long_list, "[1-65536]");
	rc = sp_hostlist_expand(long_list.p, long_list.len, &v);
	is_int(-1, rc, "300-byte names in a 65536 range are capped");
	ok(v.text.len <= SP_HOSTLIST_MAX_BYTES,
	   "their text stays within SP_HOSTLIST_MAX_BYTES (%zu)", v.text.len);
	ok(v.n > 50000 && v.n < SP_HOSTLIST_MAX,
	   "and the names that fit are kept (%zu)", v.n);
	sp_names_clear(&v);

	/* 100000 sets in one name: no recursion, one name. */
	sp_buf_clear(&long_list);
	for (i = 0; i < 100000; i++)
		sp_buf_adds(&long_list, "[7]");
	rc = sp_hostlist_expand(long_list.p, long_list.len, &v);
	is_int(0, rc, "a name of 100000 sets expands");
	is_int(1, (long long)v.n, "to one name");
	is_int(100000, (long long)strlen(sp_names_at(&v, 0)),
	       "of 100000 sevens");
	sp_names_clear(&v);

	/* 60000 unclosed brackets: each is looked at once. */
	sp_buf_clear(&long_list);
	for (i = 0; i < 60000; i++)
		sp_buf_adds(&long_list, ",[");
	rc = sp_hostlist_expand(long_list.p, long_list.len, &v);
	is_int(0, rc, "60000 unclosed brackets");
	is_int(60000, (long long)v.n, "each a literal name \"[\"");
	sp_buf_free(&long_list);
	sp_names_free(&v);
}

static void
test_compress(void)
{
	COMPRESS_IS("midway3-[0385,0432-0433]",
		    "midway3-0432", "midway3-0385", "midway3-0433");
	COMPRESS_IS("node7", "node7");
	COMPRESS_IS("abc", "abc");
	COMPRESS_IS("abc,node[1-2]", "node2", "abc", "node1");
	COMPRESS_IS("n[1-2]", "n1", "n1", "n2", "n2");
	COMPRESS_IS("n1", "n1", "n1");
	COMPRESS_IS("n[09-11]", "n10", "n09", "n11");
	/* One width a group, as the reference does: n9 is not n[9-11]. */
	COMPRESS_IS("n9,n[10-11]", "n11", "n9", "n10");
	COMPRESS_IS("n1,n01", "n01", "n1");
	COMPRESS_IS("node2,node[1-2]-ib", "node2-ib", "node1-ib", "node2");
	COMPRESS_IS("gpu-a,login", "login", "gpu-a");
	COMPRESS_IS("a0b[0-1],a1b[0-1]", "a1b1", "a0b0", "a1b0", "a0b1");
	COMPRESS_IS("n[1-3,5,7-8]", "n8", "n7", "n5", "n3", "n2", "n1");
	COMPRESS_IS("c[1-2],n[1-2]", "n2", "c2", "n1", "c1");
	COMPRESS_IS("n,n[1-2]", "n1", "n", "n2");
	COMPRESS_IS("n99999999999999999999", "n99999999999999999999");
	COMPRESS_IS("n[18446744073709551614-18446744073709551615]",
		    "n18446744073709551615", "n18446744073709551614");
	COMPRESS_IS("", "");
	{
		struct sp_names v = { 0 };
		struct sp_buf b = { 0 };

		sp_hostlist_compress(&v, &b);
		is_int(0, (long long)b.len, "no names append nothing");
		sp_buf_free(&b);
	}
}

/* compress(expand(x)) expands to the same set, sorted and unique. */
static void
test_round_trip(void)
{
	static const char *const lists[] = {
		"midway3-[0277-0279,0281],midway3-0385",
		"n[1-2000],n[1500-2500],m[01-09]",
		"a[0-1]b[0-1],node[1-2]-ib,login,n[9-11]",
		"n[1-65536]",
	};
	size_t i, j;

	for (i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		struct sp_names a = { 0 }, c = { 0 };
		struct sp_buf b1 = { 0 }, b2 = { 0 };
		int same = 1;

		sp_hostlist_expand(lists[i], strlen(lists[i]), &a);
		sp_hostlist_compress(&a, &b1);
		sp_hostlist_expand(b1.p, b1.len, &c);
		sp_hostlist_compress(&c, &b2);
		is_string(sp_buf_str(&b1), sp_buf_str(&b2),
			  "round trip of \"%s\" is stable", lists[i]);
		/* Every original name is in the re-expansion. */
		for (j = 0; j < a.n && same; j++) {
			size_t k;

			for (k = 0; k < c.n; k++)
				if (strcmp(sp_names_at(&a, j),
					   sp_names_at(&c, k)) == 0)
					break;
			same = k < c.n;
			if (i == 3 && j > 20)
				break;	/* enough for the large one */
		}
		ok(same, "every name of \"%s\" survives", lists[i]);
		sp_names_free(&a);
		sp_names_free(&c);
		sp_buf_free(&b1);
		sp_buf_free(&b2);
	}
}

int
main(void)
{
	plan_lazy();
	test_names();
	test_as_scontrol();
	test_beyond_scontrol();
	test_none();
	test_real_lists();
	test_caps();
	test_compress();
	test_round_trip();
	return done_testing();
}
