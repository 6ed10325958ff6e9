/*
 * sp_rollup.h - every workload of a history summed into one row (design.md
 * "Workload"): its runs by how they ended, the allocations that computed
 * nothing, the GPU- and core-hours, the compute, its share,
 * its label and when it ran.  sp-group --rollup writes the rows; the
 * dashboard (sp-browse) lists and sorts them.
 */
#ifndef SP_ROLLUP_H
#define SP_ROLLUP_H

#include <stddef.h>
#include <stdint.h>
#include "sp_intern.h"
#include "sp_job.h"
#include "sp_run.h"
#include "sp_util.h"

/* The orders sp-group --sort names, most telling first within each. */
enum sp_rollup_sort { SP_ROLLUP_COST, SP_ROLLUP_FAILURES, SP_ROLLUP_RATE,
		      SP_ROLLUP_RECENT, SP_ROLLUP_RUNS, SP_ROLLUP_NAME };
/* "cost", "failures", ... by enum, NULL-terminated. */
extern const char *const sp_rollup_sort_names[];

/* One workload. */
struct sp_rollup_wl {
	size_t key;			/* its number in the key table */
	long runs, completed, failed, cancelled, noop, problems;
	long stateless;			/* runs with no state recorded: how
					 * they ended, and so the counts by
					 * state, are unknown */
	long hang_judged;		/* runs whose noop is known */
	long hang_unjudged;		/* over 5 minutes, no CPU time */
	long hang_judged_long;		/* over 5 minutes, CPU time known */
	long hang_maybe;		/* computed nothing, state unknown */
	long names;
	long nameless;			/* runs with no name: names unknown */
	double gpu_h, core_h;
	int gpu_known, core_known;
	int64_t first, last;
	int first_known, last_known;
	struct sp_order newest;
	int have_newest;
	const char *newest_name;	/* in the names table */
	const char *last_name;		/* the last run's, in the table */
	size_t last_name_n;
	/* worked out by sp_rollup_finish */
	double compute, fail_rate, noop_rate, share;
	const char *keystr;
	enum sp_rollup_sort sort;
};

struct sp_rollup {
	struct sp_intern keys;		/* workload_key -> number */
	struct sp_intern names;		/* (number, name) pairs seen */
	struct sp_rollup_wl *v;		/* by key number until sorted */
	size_t n, cap;
	long open, unusable;		/* records left out */
	double total;			/* every workload's compute */
	struct sp_buf scratch;
};

/* An empty rollup ({ 0 } is one too). */
void sp_rollup_init(struct sp_rollup *ru);
/*
 * Adds one record to the workload of key: returns the workload's number,
 * or -1 when the record is not a run (a step, uncounted; an open record
 * or one with no elapsed time, counted in open and unusable).
 */
long sp_rollup_add(struct sp_rollup *ru, const char *key, size_t n,
		   const struct sp_job *j);
/* After the last record: the compute, rates and shares. */
void sp_rollup_finish(struct sp_rollup *ru);
/* Orders v (sp-group's --sort), the key last so no order is the input's. */
void sp_rollup_sort(struct sp_rollup *ru, enum sp_rollup_sort by);
void sp_rollup_free(struct sp_rollup *ru);

/* The workload_key of a row (record form). */
const char *sp_rollup_key(const struct sp_rollup *ru,
			  const struct sp_rollup_wl *w);
/* The workload part of a key: after its third '/', else the whole key. */
const char *sp_rollup_key_workload(const char *key);
/* Whether noop means anything: a run that could have hung was judged. */
int sp_rollup_noop_known(const struct sp_rollup_wl *w);
/*
 * Appends the row's name for people (record form): one raw name is
 * itself; a fold without letters is the newest raw name (+N others);
 * else the folded workload.
 */
void sp_rollup_label(struct sp_buf *b, const struct sp_rollup_wl *w,
		     const char *workload);

#endif
