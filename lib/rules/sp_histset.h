/*
 * sp_histset.h - every workload of an input, by workload_key.
 *
 * A workload's first runs are kept packed (sp_seed.h, SP_SEEDS of them)
 * and become a history (sp_hist.h) only when more arrive: most workloads
 * are run a few times, and a history with its lists is a kilobyte or
 * more (t/bench/RESULTS.md has the measurements behind SP_SEEDS).
 * nseed has four bits.
 */
#ifndef SP_HISTSET_H
#define SP_HISTSET_H

#include <stddef.h>
#include <stdint.h>
#include "sp_hist.h"
#include "sp_job.h"
#include "sp_pool.h"

#define SP_SEEDS 15

struct sp_bt_risks;

struct sp_wl {
	const char *key;		/* in the pool */
	long open, unusable;		/* records left out */
	long stateless;			/* runs whose state is not recorded */
	double compute;			/* set by sp_histset_finish */
	struct sp_hist *h;		/* NULL while the runs are few */
	unsigned char *seed;		/* the runs, packed (sp_seed.h) */
	uint32_t keylen;		/* a field: below sp_record's limit */
	unsigned seedlen : 28, nseed : 4;	/* bytes, runs */
};

struct sp_histset {
	struct sp_wl *v;
	size_t n, cap;
	struct sp_slot {
		uint32_t idx;		/* index + 1, 0 empty */
		uint32_t hash;		/* its low bits: a probe rarely
					 * reads the key */
	} *slot;
	size_t slotcap;
	struct sp_pool pool;
	struct sp_hist **blocks;	/* histories, in blocks that stay put */
	size_t nblocks, blockcap, blockused;
	struct sp_hist scratch;		/* a workload of few runs, on demand */
	int scratch_used;
	/* The columns the verdicts read that the input lacks (sp_cols_missing,
	 * set by the reader): carried to the advice, which refuses without
	 * them; empty: of those, the ones present that no record fills. */
	unsigned missing;
	unsigned empty;
	/* The advice replayed over the same input (sp_backtest.h), set by
	 * a caller that keeps it, or NULL: the risk of each advice. */
	const struct sp_bt_risks *risks;
};

/* The number of the workload with this key, added when new. */
size_t sp_histset_find(struct sp_histset *s, const char *key, size_t n);
/* Adds a record to workload i; steps are ignored, open ones counted. */
void sp_histset_add(struct sp_histset *s, size_t i, const struct sp_job *j);
/*
 * After the last record: finishes every workload and sorts them most
 * compute first, then by key (the order every output uses).  Nothing is
 * added after.
 */
void sp_histset_finish(struct sp_histset *s);
/*
 * After sp_histset_finish: the number of the workload with this key, or
 * -1 when the input had none (the index is rebuilt on the first call).
 */
long sp_histset_lookup(struct sp_histset *s, const char *key, size_t n);
/* The history of workload i; one of few runs is built on demand and
 * stays valid until the next call. */
const struct sp_hist *sp_histset_hist(struct sp_histset *s, size_t i);
void sp_histset_free(struct sp_histset *s);

#endif
