/*
 * sp_topk.h - the runs a rule may name, kept in bounded lists.
 *
 * A history cannot keep every run, so each rule keeps the few it may
 * name: the k best by a score (sp_topk), the best by one number
 * (sp_best), the newest runs of their own (sp_singles).  Ties are broken
 * by the runs' order and ids, so no choice depends on the order the
 * records arrive in.  Job ids are kept in the history's pool.
 */
#ifndef SP_TOPK_H
#define SP_TOPK_H

#include <stdint.h>
#include "sp_pool.h"
#include "sp_run.h"

/* A run a rule may name: its id, two numbers, and its submission. */
struct sp_ref {
	struct sp_order o;
	double score;		/* what a top-k list ranks by */
	double a, b;
	uint64_t sub;		/* array hash, 0 for a job of its own */
	const char *jobid;	/* in the pool; NULL: none */
};

struct sp_ref sp_ref_make(const struct sp_order *o, double score, double a,
			  double b, uint64_t sub);

/* The k best refs by (score, order); the list grows as refs arrive. */
struct sp_topk {
	struct sp_ref *v;	/* a min-heap: v[0] is given up first */
	uint32_t n, cap, k;
	long seen;		/* every ref offered */
};

/* Offers cand, named id, to a list of at most k. */
void sp_topk_offer(struct sp_topk *t, uint32_t k, struct sp_pool *pool,
		   const struct sp_ref *cand, struct sp_slice id);
/* The highest-ranked ref kept, or NULL. */
const struct sp_ref *sp_topk_best(const struct sp_topk *t);
/* A copy of the list, best first (by_order 0) or oldest first; free it. */
size_t sp_topk_sorted(const struct sp_topk *t, struct sp_ref **out,
		      int by_order);
void sp_topk_release(struct sp_pool *pool, struct sp_topk *t);

/* The best run by one number (ties: the higher job id, then its text). */
struct sp_best {
	double a, b, id;
	const char *jobid;	/* NULL: none yet; owned (sp_pool_own_str) */
};

void sp_best_init(struct sp_best *b);
/* Keeps the run if a ranks higher; bb is a second number kept with it. */
void sp_best_offer(struct sp_best *b, struct sp_pool *pool, double a,
		   double bb, const struct sp_order *o, struct sp_slice jobid);
/* Gives its job id back to the pool. */
void sp_best_release(struct sp_pool *pool, struct sp_best *b);

/*
 * A run of its own (no array) that completed with a trusted peak: all
 * array-probes reads of one.  Every workload keeps up to SP_PROBE_KEEP
 * of them, so they are kept small: no score or array, which a top-k
 * list would carry for nothing.
 */
struct sp_single {
	struct sp_order o;
	double peak_b;		/* MaxRSS per node */
	const char *jobid;	/* in the pool */
};

/* The SP_PROBE_KEEP newest singles, a min-heap by order. */
struct sp_singles {
	struct sp_single *v;
	uint32_t n, cap;
};

void sp_singles_offer(struct sp_singles *t, struct sp_pool *pool,
		      const struct sp_order *o, double peak_b,
		      struct sp_slice id);
/* A copy of the singles, oldest first; free it. */
size_t sp_singles_sorted(const struct sp_singles *t, struct sp_single **out);
void sp_singles_release(struct sp_pool *pool, struct sp_singles *t);

#endif
