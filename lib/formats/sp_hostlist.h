/*
 * sp_hostlist.h - Slurm hostlists, expanded exactly as
 * "scontrol show hostnames" does, and compressed for --exclude.
 */
#ifndef SP_HOSTLIST_H
#define SP_HOSTLIST_H

#include <stddef.h>
#include "sp_util.h"

/* The most names one list may expand to; past it expansion stops. */
#define SP_HOSTLIST_MAX 65536
/* ... and the most text they may take (256 bytes a name, NULs included),
 * so a long name in a wide range cannot exhaust memory either. */
#define SP_HOSTLIST_MAX_BYTES ((size_t)SP_HOSTLIST_MAX * 256)

/* A list of names: one arena of NUL-separated strings plus offsets. */
struct sp_names {
	struct sp_buf text;
	size_t *off;
	size_t n;
	size_t cap;
};

const char *sp_names_at(const struct sp_names *v, size_t i);
/* 1 when name is one of v's (a linear search: lists of nodes are short). */
int sp_names_has(const struct sp_names *v, const char *name);
void sp_names_add(struct sp_names *v, const char *s, size_t n);
void sp_names_clear(struct sp_names *v);
void sp_names_free(struct sp_names *v);

/*
 * Appends the names of a hostlist ("node[1-3,7],gpu[01-02]-ib").  Empty
 * and "None assigned" give none.  Returns 0, or -1 when the list would
 * exceed SP_HOSTLIST_MAX names or SP_HOSTLIST_MAX_BYTES (the names that
 * fit are kept).  Where scontrol would refuse the whole list, what can be
 * read is kept: a non-numeric or reversed item stays text (node[a-b] is
 * "nodea-b"), an unclosed '[' stays literal (sp_hostlist.c has the rules).
 */
int sp_hostlist_expand(const char *s, size_t n, struct sp_names *out);

/* "midway3-[0385,0432-0433]": groups by prefix and digit width, sorted. */
void sp_hostlist_compress(const struct sp_names *in, struct sp_buf *out);

#endif
