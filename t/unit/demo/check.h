/*
 * check.h - the demo's checker (test_demo.c) and its named cases
 * (cases.c): what the checker keeps of every allocation, which the case
 * checks read.
 */
#ifndef DEMO_CHECK_H
#define DEMO_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "sp_buf.h"

#define NFIELDS		59
#define KIB_PER_GIB	1048576.0

struct fld {
	const char *p;
	size_t n;
};

/* One allocation, for the case checks at the default size. */
struct arec {
	char jobid[32], name[64], user[16], part[8], state[40], exit[16];
	char nodes[24], reqmem[16], limit[16];
	long long raw, uid, cpus, gpus, elapsed, limit_s, nnodes;
	int64_t submit, start, end;
	int64_t cpu_ms, user_ms, sys_ms;
	int64_t work_cpu_ms;		/* every step but .extern */
	double reqmem_k, max_rss_k;	/* -1: no step sampled */
	long long max_pages, read_b, steps_ave_cpu_s, steps_min_cpu_s;
	int open, pending;
};

struct checker {
	int64_t now, first;
	/* violations per invariant, and the first row that broke it */
	long bad[32];
	char why[32][160];
	long rows, allocs, steps, continuations;
	/* the allocation the following steps belong to */
	struct fld a[NFIELDS];
	struct sp_buf arow;
	int have_alloc;
	int64_t a_start, a_end, a_cpu_ms, a_steps_cpu_ms;
	long long a_cpus;
	/* id reuse: the previous allocation's id and user */
	char prev_id[32], prev_user[16];
	long requeues, recycles;
	long long max_raw;
	/* kept at the default size only */
	int keep;
	struct arec *rec;
	size_t nrec, caprec;
	uint64_t hash;
};

void test_tokenizer(const struct checker *c);
void test_corpus(const struct checker *c);
void test_reasoning(const struct checker *c);
void test_increases(const struct checker *c);
void test_figure3(const struct checker *c);
void test_idle(const struct checker *c);
void test_nodes(const struct checker *c);
void test_reference(const struct checker *c);
void test_habits(const struct checker *c);
void test_mix(const struct checker *c);

#endif
