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
 * Empty user or partition become "?"; so does the gpu|cpu part when gpu
 * is negative (whether the run held GPUs is unknown: never guessed).
 */
void sp_workload_key(struct sp_buf *out, const char *user, size_t userlen,
		     const char *partition, size_t partlen, int gpu,
		     const char *workload, size_t wlen);
/*
 * The workload and key of a run called name (wl and key cleared first):
 * the one grouping, for a record (sp-group) and for a batch script
 * (sp-size --script).
 */
void sp_workload_of(struct sp_buf *wl, struct sp_buf *key, const char *name,
		    size_t namelen, const char *user, size_t userlen,
		    const char *partition, size_t partlen, int gpu);

/* A key's parts; each empty when the key is not one sp-group wrote. */
struct sp_wlkey {
	const char *user, *partition, *kind, *workload;
	size_t userlen, partlen, kindlen, wlen;
};
/* Splits a key of n bytes; returns 0, or -1 when it has no three '/'. */
int sp_workload_key_split(const char *key, size_t n, struct sp_wlkey *k);

#endif
