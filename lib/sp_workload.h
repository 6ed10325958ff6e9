/*
 * sp_workload.h - how runs are grouped into workloads.
 *
 * A workload is the job name with every run of ASCII digits folded to
 * '#' (s1e20, s2e47 -> s#e#), nothing else; the key adds who ran it, where,
 * and whether it held GPUs.  Resource sizes are never part of the key:
 * raising --mem must not split the history it learns from.
 */
#ifndef SP_WORKLOAD_H
#define SP_WORKLOAD_H

#include <stddef.h>
#include "sp_util.h"

/* Appends the folded name; an empty name folds to "?". */
void sp_workload_fold(struct sp_buf *out, const char *name, size_t n);
/* 1 when a folded name holds a letter (else the label is a raw name). */
int sp_workload_has_letter(const char *fold, size_t n);
/*
 * Appends "user/partition/gpu|cpu/workload".  User and partition never
 * hold '/', and the workload comes last, so the key is injective.
 * Empty user or partition become "?".
 */
void sp_workload_key(struct sp_buf *out, const char *user, size_t userlen,
		     const char *partition, size_t partlen, int gpu,
		     const char *workload, size_t wlen);

#endif
