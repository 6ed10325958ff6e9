/*
 * sp_seed.h - runs packed into a few bytes each, until they deserve a
 * history.
 *
 * Most workloads are run a few times, and a history with its lists is a
 * kilobyte or more; their runs are kept packed one after another
 * instead, some 70 bytes a run rather than an sp_run's 200, and become a
 * history (sp_histset.h) only when more arrive.  A run read back is the
 * run that was packed to the last bit.
 */
#ifndef SP_SEED_H
#define SP_SEED_H

#include <stddef.h>
#include "sp_pool.h"
#include "sp_run.h"

/* Packed runs of one workload never pass this many bytes. */
#define SP_SEED_MAX_BYTES ((1u << 28) - 1)
/* Room for a plain job id's digits. */
#define SP_SEED_ID_BUF 24

/*
 * Appends run r to the len bytes of packed runs at *seeds, which move
 * to a larger block of the pool; 0, with nothing changed, when they
 * would grow past SP_SEED_MAX_BYTES.
 */
int sp_seed_put(struct sp_pool *pool, unsigned char **seeds, size_t *len,
		const struct sp_run *r);
/*
 * The run packed at p; its texts point into the seeds or into idbuf.
 * Returns where the next run starts.
 */
const unsigned char *sp_seed_get(const unsigned char *p, struct sp_run *r,
				 char idbuf[SP_SEED_ID_BUF]);
/*
 * Only the GPU-hours and core-hours of the run packed at p, as
 * sp_run_derive computes them; returns where the next run starts.
 */
const unsigned char *sp_seed_compute(const unsigned char *p, double *gpu_h,
				     double *core_h);

#endif
