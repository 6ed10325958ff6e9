/*
 * sp_change.h - a workload's requests by value, and what the newest
 * change of a request did (issue 22's follow-up; design.md "Findings").
 *
 * A history keeps, for --time and --mem, one entry per value the runs
 * asked for: how many runs asked it, when the first and the newest of
 * them ran, and how many of them ended in the flag's own failure (a
 * timeout for --time, a kill for memory for --mem).  The table grows
 * with the distinct values, not with the runs, and nothing in it depends
 * on the order the runs arrive in.
 *
 * The change is the newest request against the value asked just before
 * it: clean only when every run of the newest value ran after the last
 * run of the one before (a request that went back to an earlier value
 * has no clean "since", and no verdict).  Its verdict:
 *
 *   held       a raise after failures, with at least SP_CHANGE_MIN_SINCE
 *              runs since and no failure among them
 *   hurt       a cut after which a larger share of the runs failed (for
 *              --time, timed out while computing) than before it
 *   no effect  failures before and since, and no smaller a share since,
 *              over at least SP_CHANGE_MIN_SINCE runs since
 */
#ifndef SP_CHANGE_H
#define SP_CHANGE_H

#include <stddef.h>
#include <stdint.h>
#include "sp_pool.h"
#include "sp_run.h"
#include "sp_suggest.h"
#include "sp_u64map.h"

/* The runs that asked one value of one flag. */
struct sp_asked {
	double value;
	struct sp_order first, last;
	const char *first_id, *last_id;	/* owned (sp_pool_own_str) */
	int32_t runs;
	int32_t fails;		/* the flag's failure: TIMEOUT, OUT_OF_MEMORY */
	int32_t hung;		/* of the fails, those that computed nothing */
};

/* The values one flag was asked at. */
struct sp_asked_set {
	struct sp_asked *v;
	size_t n, cap;
	struct sp_u64map map;	/* past a few values */
};

/* The flags a change is followed for. */
enum { SP_CHANGE_TIME, SP_CHANGE_MEM, SP_CHANGE_N };

struct sp_asked_sets {
	struct sp_asked_set s[SP_CHANGE_N];
};

/* Adds run r, which asked time_s and mem_b (NaN: not known). */
void sp_asked_add(struct sp_asked_sets **sets, struct sp_pool *pool,
		  const struct sp_run *r, double time_s, double mem_b);
void sp_asked_free(struct sp_asked_sets **sets, struct sp_pool *pool);

/*
 * The runs of a that failed in a way that speaks to flag f's request:
 * the kills for memory; for --time the timeouts that were computing.
 */
long sp_change_telling(enum sp_flag f, const struct sp_asked *a);

enum sp_change_verdict { SP_CHANGE_NONE, SP_CHANGE_HELD, SP_CHANGE_HURT,
			 SP_CHANGE_NO_EFFECT };

struct sp_change {
	enum sp_flag flag;
	enum sp_change_verdict verdict;
	int raise;			/* since's value above before's */
	const struct sp_asked *before, *since;	/* NULL: no clean change */
};

/*
 * The newest change of flag f (--time or --mem) in sets, whose newest
 * run asked newest (NaN: not known), into *c; returns c->verdict.  An
 * unclean or absent change leaves before and since NULL.
 */
enum sp_change_verdict sp_change_of(const struct sp_asked_sets *sets,
				    enum sp_flag f, double newest,
				    struct sp_change *c);

#endif
