/*
 * demo_int.h - the parts of sp-fetch's synthetic history (--demo) that
 * its files share: the fixed reference, the random numbers, the cluster,
 * and the model of a job.  demo.h is its entry.
 */
#ifndef DEMO_INT_H
#define DEMO_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sp.h"
#include "demo.h"

struct tailent;

/* ------------------------------------------------------------------ */
/* Fixed reference: the history and the moment it was read.           */

#define DEMO_SEED	0x5eed51a7c0ffee11ULL
#define CLUSTER		"tessera"
/* Job ids follow submit time: one id every ID_SECONDS from T0. */
#define ID_BASE		51000000L
#define ID_SECONDS	2
#define MAX_NODES	4
#define MAX_STEPS	4
#define GIB_K		1048576LL	/* KiB in a GiB */
#define GIB_M		1024LL		/* MiB in a GiB */
/* Rows are flushed to the stream in blocks of this size. */
#define OUT_CAP		(1 << 20)

static inline int64_t
at(int mo, int d, int h, int mi, int s)
{
	return sp_days_from_civil(2026, mo, d) * 86400 + h * 3600 + mi * 60 + s;
}

#define T0		at(1, 5, 0, 0, 0)
#define NOW		at(3, 16, 9, 30, 0)
/* Tail jobs end well before the record was read. */
#define TAIL_END	(NOW - 3 * 86400)

/* ------------------------------------------------------------------ */
/* splitmix64: small, fast, and the same everywhere.                  */

static inline uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct rng {
	uint64_t s;
};

static inline uint64_t
rnext(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return mix64(r->s);
}

static inline void
rseed(struct rng *r, uint64_t a, uint64_t b)
{
	r->s = mix64(DEMO_SEED ^ mix64(a * 0x9e3779b97f4a7c15ULL + b));
}

/* Uniform in [0, 1). */
static inline double
runit(struct rng *r)
{
	return (double)(rnext(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform integer in [lo, hi]. */
static inline int64_t
rint_in(struct rng *r, int64_t lo, int64_t hi)
{
	if (hi <= lo)
		return lo;
	return lo + (int64_t)(rnext(r) % (uint64_t)(hi - lo + 1));
}

static inline double
rdbl(struct rng *r, double lo, double hi)
{
	return lo + (hi - lo) * runit(r);
}

/* 1 with probability permille/1000. */
static inline int
rchance(struct rng *r, int permille)
{
	return (int)(rnext(r) % 1000) < permille;
}

/* ------------------------------------------------------------------ */
/* The cluster: demo_users, demo_partitions, nodes.                             */

struct duser {
	const char *name;
	long uid;
	const char *account;
};

enum { ALICE, BOB, CAROL, NUSERS };

extern const struct duser demo_users[NUSERS];

enum { P_GPU, P_CPU };
extern const char *const demo_partitions[];

/*
 * Nodes by global index: g001-g040 (64 cores, 4 GPUs, 512 GiB),
 * g041-g044 (128 cores, 8 GPUs, 1 TiB), c001-c120 (48 cores, 384 GiB).
 */
#define NG_SMALL	40
#define NG		44
#define NC		120

static inline int
G(int n)
{
	return n - 1;
}

static inline int
C(int n)
{
	return NG + n - 1;
}

static inline char
node_prefix(int idx)
{
	return idx < NG ? 'g' : 'c';
}

static inline int
node_number(int idx)
{
	return idx < NG ? idx + 1 : idx - NG + 1;
}

/* ------------------------------------------------------------------ */
/* The model: one allocation attempt and its steps.                   */

enum state {
	ST_COMPLETED, ST_FAILED, ST_TIMEOUT, ST_OOM, ST_CANCELLED,
	ST_NODE_FAIL, ST_RUNNING, ST_PENDING
};

extern const char *const demo_state_names[];

/* What slurmctld records as the reason a job is where it is. */
extern const char *const demo_state_reasons[];

enum { STEP_BATCH, STEP_EXTERN, STEP_INTERACTIVE, STEP_SRUN };
enum { LINK_NEW, LINK_SAME_ID };
enum { LOG_DEFAULT, LOG_NAMED, LOG_NONE };
enum { FL_MAIN, FL_BACKFILL, FL_SUBMIT, FL_NONE };
/* How the scheduler started the job; nothing for one that never ran. */
extern const char *const demo_flag_names[];

struct dstep {
	int kind, index;
	int state, code, sig;
	int cpus, tasks, nnodes;	/* on the job's first nnodes nodes */
	int gpus;
	int64_t start, end;		/* end < 0: still running */
	int64_t user_ms, sys_ms;
	int64_t ave_cpu_s, min_cpu_s, max_cpu_s;
	int min_task, min_node;
	int stats;			/* 0: no usage recorded at all */
	int64_t rss_k;			/* < 0: never sampled */
	int64_t ave_rss_k, vm_k, pages, read_b, write_b;
	int rss_task, rss_node;
	int gpu_util;
	int64_t gpu_mem_m;
	const char *cmd;		/* srun's program */
};

struct djob {
	int64_t key;		/* merge order: the first attempt's submit */
	int seq;		/* order among entries sharing a key */
	size_t ord;		/* order of creation, the last tie-break */
	int link;
	int array_n, array_i;	/* array size and task; 0 when not one */
	long id, raw, master;
	int user, part;
	size_t name, script, dir;	/* offsets in a string arena */
	int cpus, nnodes, gpus;
	int64_t mem_m;		/* per node */
	int limit_min;
	int64_t submit, eligible, start, end;	/* start < 0 pending */
	int state, code, sig;
	long cancelled_by;	/* -1: not cancelled */
	int flags, log, constraint, wrap;
	int placed;		/* 0: never ran (pending, or cancelled first) */
	int node[MAX_NODES];
	int nsteps;
	struct dstep step[MAX_STEPS];
};

/* What a case asks for; build() turns it into a job and its steps. */
struct jspec {
	const char *name, *script, *dir;
	int user, part, cpus, gpus, nnodes;
	int64_t mem_m;
	int limit_min;
	int64_t submit, wait, elapsed;	/* elapsed < 0: still running */
	int state, code, sig;
	long cancelled_by;
	int64_t cpu_ms;		/* work CPU; < 0: util x cores x elapsed */
	double util;
	int64_t sys_ms;		/* < 0: sys_frac of the work CPU */
	double sys_frac;
	int64_t rss_k;		/* work-step peak; < 0: never sampled */
	int64_t ave_rss_k;	/* 0: the peak (one task) */
	int64_t read_b, write_b, pages;
	int gpu_util;
	int node;		/* first node; the others follow it */
	int srun_tasks;		/* 0: the work runs in the batch step */
	const char *srun_cmd;
	int64_t ave_cpu_s, min_cpu_s;	/* > 0: the srun step's spread */
	int min_task;
	int interactive, log, constraint, wrap;
	int array_n, array_i;
	int link;
	int64_t key;
	int seq;
	int pending;		/* still waiting to start */
	int unplaced;		/* cancelled before it started */
	uint64_t salt;		/* varies the small details */
};

static inline void
spec_init(struct jspec *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu_ms = -1;
	s->sys_ms = -1;
	s->sys_frac = 0.05;
	s->util = 0.5;
	s->rss_k = 4 * GIB_K;
	s->cancelled_by = -1;
	s->nnodes = 1;
	s->key = -1;
	s->wait = 30;
	s->gpu_util = 80;
}

struct demo {
	struct djob *named;
	size_t nnamed, capnamed;
	struct sp_buf strs;	/* names of the named jobs */
	struct sp_buf scratch;	/* names of the tail job being written */
	struct tailent *tail;
	size_t ntail, captail;
	long ntailwl;
	struct sp_buf namebuf;	/* a tail name being composed */
	/* output */
	FILE *f;
	char *buf;
	size_t len;
	int err;
	int64_t day;
	char date[12];
	/* id assignment */
	long last_id, prev_id, prev_raw, prev_master;
};

/* demo_rows.c: the rows, as sacct prints them. */
void demo_write_header(struct demo *d);
void demo_write_job(struct demo *d, const struct djob *j, const char *sb);
/* The output still in the buffer, written. */
void demo_flush(struct demo *d);
/* A job's CPU time in ms: 0 the total, else user (1) or system (2). */
int64_t demo_job_cpu_ms(const struct djob *j, int which);

/* demo.c: a job and its steps from what a case asks for. */
void demo_build(struct djob *j, const struct jspec *s, struct sp_buf *arena);

/* demo_cases.c: the named cases, each adding its jobs to d. */
void demo_case_tokenizer(struct demo *d);
void demo_case_corpus(struct demo *d);
void demo_case_reasoning(struct demo *d);
void demo_case_increases(struct demo *d);
void demo_case_eval(struct demo *d);
void demo_case_idle(struct demo *d);
void demo_case_nodes(struct demo *d);
void demo_case_reference(struct demo *d);
void demo_case_cpu_shapes(struct demo *d);
void demo_case_tests(struct demo *d);
void demo_case_requeue(struct demo *d);
void demo_case_odd_records(struct demo *d);

#endif
