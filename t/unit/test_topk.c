/*
 * The bounded lists of runs a rule may name (sp_topk.h): the k best by
 * score whatever order they arrive in, ties to the newer run; the best
 * by one number, ties to the higher job id; the newest singles.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_topk.h"
#include "tap.h"

static struct sp_order
at(double when, double id)
{
	return (struct sp_order){ when, id, -1, 0 };
}

static struct sp_slice
id(const char *s)
{
	return (struct sp_slice){ s, strlen(s) };
}

/* The first letters of the ids, space-separated. */
static const char *
names(const struct sp_ref *v, size_t n)
{
	static char out[64];
	size_t k = 0;

	for (size_t i = 0; i < n && k + 2 < sizeof out; i++) {
		if (i > 0)
			out[k++] = ' ';
		out[k++] = v[i].jobid[0];
	}
	out[k] = '\0';
	return out;
}

static void
topk(void)
{
	static const double score[] = { 5, 1, 9, 3, 9, 7, 2, 8 };
	static const char *const ids[] = { "a", "b", "c", "d", "e", "f",
					   "g", "h" };
	struct sp_pool p = { 0 };
	struct sp_topk fwd = { 0 }, rev = { 0 };
	struct sp_ref *v, *w;
	size_t n, m;
	int same = 1;

	for (int i = 0; i < 8; i++) {
		struct sp_order o = at(100 + i, 1000 + i);
		struct sp_ref r = sp_ref_make(&o, score[i], i, 0, 0);

		sp_topk_offer(&fwd, 3, &p, &r, id(ids[i]));
	}
	for (int i = 7; i >= 0; i--) {
		struct sp_order o = at(100 + i, 1000 + i);
		struct sp_ref r = sp_ref_make(&o, score[i], i, 0, 0);

		sp_topk_offer(&rev, 3, &p, &r, id(ids[i]));
	}
	n = sp_topk_sorted(&fwd, &v, 0);
	m = sp_topk_sorted(&rev, &w, 0);
	is_int(3, (long long)n, "three kept of eight");
	is_int(8, fwd.seen, "eight seen");
	is_string("e c h", names(v, n), "best first, the tie to the newer");
	for (size_t i = 0; i < n && i < m; i++)
		same &= strcmp(v[i].jobid, w[i].jobid) == 0;
	ok(same && n == m, "the same three whatever the order");
	is_string("e", sp_topk_best(&fwd)->jobid, "the best is e");
	free(v);
	free(w);
	n = sp_topk_sorted(&fwd, &v, 1);
	is_string("c e h", names(v, n), "oldest first");
	free(v);
	ok(sp_topk_best(&(struct sp_topk){ 0 }) == NULL, "an empty list has "
	   "no best");
	sp_pool_free(&p);
}

static void
best(void)
{
	struct sp_pool p = { 0 };
	struct sp_best b;
	struct sp_order o1 = at(1, 7), o2 = at(2, 9), o3 = at(3, 9);

	sp_best_init(&b);
	ok(b.jobid == NULL && isnan(b.a), "none yet");
	sp_best_offer(&b, &p, 10, 1, &o1, id("7"));
	sp_best_offer(&b, &p, 5, 2, &o2, id("9"));
	is_string("7", b.jobid, "the higher number stays");
	sp_best_offer(&b, &p, 10, 3, &o2, id("9"));
	is_string("9", b.jobid, "a tie goes to the higher job id");
	sp_best_offer(&b, &p, 10, 4, &o3, id("9_1"));
	is_string("9_1", b.jobid, "then to the later text");
	sp_best_offer(&b, &p, 10, 5, &o3, id("9"));
	is_string("9_1", b.jobid, "whatever order they come in");
	is_double(4, b.b, 0, "the second number is the kept run's");
	sp_best_release(&p, &b);
	ok(b.jobid == NULL, "released");
	sp_pool_free(&p);
}

static void
singles(void)
{
	struct sp_pool p = { 0 };
	struct sp_singles s = { 0 };
	struct sp_single *v;
	char buf[16];
	size_t n;

	for (int i = 0; i < 200; i++) {
		int k = (i * 37) % 200;	/* every one of 0..199, shuffled */
		struct sp_order o = at(k, k);

		snprintf(buf, sizeof buf, "%d", k);
		sp_singles_offer(&s, &p, &o, k * 1.0, id(buf));
	}
	n = sp_singles_sorted(&s, &v);
	is_int(SP_PROBE_KEEP, (long long)n, "SP_PROBE_KEEP kept");
	ok(n > 0 && v[0].o.when == 200 - SP_PROBE_KEEP &&
	   v[n - 1].o.when == 199, "the newest, oldest first");
	ok(s.cap == SP_PROBE_KEEP, "and no room beyond them");
	free(v);
	sp_pool_free(&p);
}

int
main(void)
{
	plan_lazy();
	topk();
	best();
	singles();
	return done_testing();
}
