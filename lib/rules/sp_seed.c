/*
 * sp_seed.c - runs packed into a few bytes each.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sp_seed.h"

/*
 * A workload's seeds are packed one after another, some 70 bytes a run
 * rather than an sp_run's 200: a number is left out when unknown and
 * takes four bytes when a whole number below 2^32 (most counts, times
 * and limits), eight otherwise, exactly as read; a job id that is its
 * numeric id written plainly is left out; texts follow inline.  What
 * sp_run_derive computes is not kept.  A seed is
 *	state, flags, tags (2 bits a number), the numbers, the task and
 *	attempt when not -1 and 0, the texts' lengths and bytes.
 */
enum { SEED_NAN, SEED_U32, SEED_F64 };
#define SEED_NUMS 13
#define SEED_NOOP 0x01
#define SEED_HANG 0x02
#define SEED_FAILED 0x04
#define SEED_IO 0x08
#define SEED_PLAIN_ID 0x10	/* the job id is o.id's digits */
#define SEED_NO_ARRAY 0x20
#define SEED_TASK (1u << 30)	/* in the tags: a task is kept */
#define SEED_ATTEMPT (1u << 31)
/* The most a seed's fixed part takes. */
#define SEED_FIXED (2 + 4 + SEED_NUMS * 8 + 8 + 8)

static unsigned char *
put_num(unsigned char *p, uint32_t *tags, int i, double v)
{
	uint32_t u;

	if (isnan(v))
		return p;
	if (v >= 0 && v < 4294967296.0 && !signbit(v) &&
	    (double)(u = (uint32_t)v) == v) {
		*tags |= (uint32_t)SEED_U32 << (2 * i);
		memcpy(p, &u, 4);
		return p + 4;
	}
	*tags |= (uint32_t)SEED_F64 << (2 * i);
	memcpy(p, &v, 8);
	return p + 8;
}

static const unsigned char *
get_num(const unsigned char *p, uint32_t tags, int i, double *v)
{
	uint32_t u;

	switch ((tags >> (2 * i)) & 3) {
	case SEED_U32:
		memcpy(&u, p, 4);
		*v = u;
		return p + 4;
	case SEED_F64:
		memcpy(v, p, 8);
		return p + 8;
	default:
		*v = NAN;
		return p;
	}
}

/* Whether a job id is its numeric id written plainly (no sign, no
 * leading zero, few enough digits to be exact). */
static int
plain_id(struct sp_slice s, double id)
{
	double v = 0;

	if (s.n == 0 || s.n > 15 || (s.n > 1 && s.p[0] == '0'))
		return 0;
	for (size_t i = 0; i < s.n; i++) {
		if (s.p[i] < '0' || s.p[i] > '9')
			return 0;
		v = v * 10 + (s.p[i] - '0');
	}
	return v == id;
}

int
sp_seed_put(struct sp_pool *pool, unsigned char **seeds, size_t *seedlen,
	    const struct sp_run *r)
{
	unsigned char fixed[SEED_FIXED], *p = fixed + 6, *seed;
	const double num[SEED_NUMS] = {
		r->o.when, r->o.id, r->elapsed_s, r->timelimit_s,
		r->total_cpu_s, r->cpu_time_s, r->alloc_gpus, r->gpu_util,
		r->limit_b, r->rss_b, r->cores, r->tasks, r->nodes
	};
	uint32_t tags = 0, n;
	int plain = plain_id(r->jobid, r->o.id);
	size_t fixlen, len;

	for (int i = 0; i < SEED_NUMS; i++)
		p = put_num(p, &tags, i, num[i]);
	if (r->o.task != -1) {
		tags |= SEED_TASK;
		memcpy(p, &r->o.task, 4);
		p += 4;
	}
	if (r->o.attempt != 0) {
		tags |= SEED_ATTEMPT;
		memcpy(p, &r->o.attempt, 4);
		p += 4;
	}
	fixed[0] = (unsigned char)r->st;
	fixed[1] = (unsigned char)((r->noop ? SEED_NOOP : 0) |
	    (r->hang ? SEED_HANG : 0) | (r->failed ? SEED_FAILED : 0) |
	    (r->io ? SEED_IO : 0) | (plain ? SEED_PLAIN_ID : 0) |
	    (r->array_job.n == 0 ? SEED_NO_ARRAY : 0));
	memcpy(fixed + 2, &tags, 4);
	fixlen = (size_t)(p - fixed);
	len = fixlen + (plain ? 0 : 4 + r->jobid.n) +
	    (r->array_job.n ? 4 + r->array_job.n : 0);
	if (r->jobid.n > SP_SEED_MAX_BYTES ||
	    r->array_job.n > SP_SEED_MAX_BYTES ||
	    len > SP_SEED_MAX_BYTES - *seedlen)
		return 0;
	seed = sp_pool_alloc(pool, *seedlen + len);
	if (*seedlen > 0)
		memcpy(seed, *seeds, *seedlen);
	sp_pool_release(pool, *seeds, *seedlen);
	p = seed + *seedlen;
	memcpy(p, fixed, fixlen);
	p += fixlen;
	if (!plain) {
		n = (uint32_t)r->jobid.n;
		memcpy(p, &n, 4);
		memcpy(p + 4, r->jobid.p, n);
		p += 4 + n;
	}
	if (r->array_job.n) {
		n = (uint32_t)r->array_job.n;
		memcpy(p, &n, 4);
		memcpy(p + 4, r->array_job.p, n);
	}
	*seeds = seed;
	*seedlen += len;
	return 1;
}

const unsigned char *
sp_seed_compute(const unsigned char *p, double *gpu_h, double *core_h)
{
	double num[SEED_NUMS];
	unsigned flags = p[1];
	uint32_t tags, n;

	memcpy(&tags, p + 2, 4);
	p += 6;
	for (int i = 0; i < SEED_NUMS; i++)
		p = get_num(p, tags, i, &num[i]);
	p += (tags & SEED_TASK ? 4 : 0) + (tags & SEED_ATTEMPT ? 4 : 0);
	if (!(flags & SEED_PLAIN_ID)) {
		memcpy(&n, p, 4);
		p += 4 + n;
	}
	if (!(flags & SEED_NO_ARRAY)) {
		memcpy(&n, p, 4);
		p += 4 + n;
	}
	/* elapsed_s x alloc_gpus, elapsed_s x cores */
	*gpu_h = num[2] * num[6] / 3600.0;
	*core_h = num[2] * num[10] / 3600.0;
	return p;
}

const unsigned char *
sp_seed_get(const unsigned char *p, struct sp_run *r,
	    char idbuf[SP_SEED_ID_BUF])
{
	double num[SEED_NUMS];
	unsigned flags = p[1];
	uint32_t tags, n;

	r->st = (enum sp_state)p[0];
	r->noop = (flags & SEED_NOOP) != 0;
	r->hang = (flags & SEED_HANG) != 0;
	r->failed = (flags & SEED_FAILED) != 0;
	r->io = (flags & SEED_IO) != 0;
	memcpy(&tags, p + 2, 4);
	p += 6;
	for (int i = 0; i < SEED_NUMS; i++)
		p = get_num(p, tags, i, &num[i]);
	r->o.when = num[0];
	r->o.id = num[1];
	r->elapsed_s = num[2];
	r->timelimit_s = num[3];
	r->total_cpu_s = num[4];
	r->cpu_time_s = num[5];
	r->alloc_gpus = num[6];
	r->gpu_util = num[7];
	r->limit_b = num[8];
	r->rss_b = num[9];
	r->cores = num[10];
	r->tasks = num[11];
	r->nodes = num[12];
	r->o.task = -1;
	r->o.attempt = 0;
	if (tags & SEED_TASK) {
		memcpy(&r->o.task, p, 4);
		p += 4;
	}
	if (tags & SEED_ATTEMPT) {
		memcpy(&r->o.attempt, p, 4);
		p += 4;
	}
	if (flags & SEED_PLAIN_ID) {
		/* At most 15 digits, so exact in a double and a uint64_t. */
		uint64_t v = (uint64_t)r->o.id;
		char *e = idbuf + SP_SEED_ID_BUF, *d = e;

		do {
			*--d = (char)('0' + v % 10);
			v /= 10;
		} while (v > 0);
		r->jobid = (struct sp_slice){ d, (size_t)(e - d) };
	} else {
		memcpy(&n, p, 4);
		r->jobid = (struct sp_slice){ (const char *)p + 4, n };
		p += 4 + n;
	}
	if (flags & SEED_NO_ARRAY) {
		r->array_job = (struct sp_slice){ "", 0 };
	} else {
		memcpy(&n, p, 4);
		r->array_job = (struct sp_slice){ (const char *)p + 4, n };
		p += 4 + n;
	}
	sp_run_derive(r);
	return p;
}

