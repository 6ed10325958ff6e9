/*
 * Packed runs (sp_seed.h): a run read back is the run that was packed,
 * to the bit, whatever its numbers (unknown, whole below 2^32, anything
 * else) and ids; the compute read alone agrees; a workload's seeds
 * refuse to grow past SP_SEED_MAX_BYTES.
 */
#include <math.h>
#include <string.h>

#include "sp.h"
#include "sp_seed.h"
#include "tap.h"

static int
same_num(double a, double b)
{
	return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static int
same_slice(struct sp_slice a, struct sp_slice b)
{
	return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

static int
same_run(const struct sp_run *a, const struct sp_run *b)
{
	return sp_order_cmp(&a->o, &b->o) == 0 && a->o.task == b->o.task &&
	    a->o.attempt == b->o.attempt && a->st == b->st &&
	    a->noop == b->noop && a->hang == b->hang &&
	    a->failed == b->failed && a->io == b->io && a->sub == b->sub &&
	    same_slice(a->jobid, b->jobid) &&
	    same_slice(a->array_job, b->array_job) &&
	    same_num(a->elapsed_s, b->elapsed_s) &&
	    same_num(a->timelimit_s, b->timelimit_s) &&
	    same_num(a->total_cpu_s, b->total_cpu_s) &&
	    same_num(a->cpu_time_s, b->cpu_time_s) &&
	    same_num(a->alloc_gpus, b->alloc_gpus) &&
	    same_num(a->gpu_util, b->gpu_util) &&
	    same_num(a->gpu_h, b->gpu_h) && same_num(a->core_h, b->core_h) &&
	    same_num(a->limit_b, b->limit_b) && same_num(a->rss_b, b->rss_b) &&
	    same_num(a->cores, b->cores) && same_num(a->tasks, b->tasks) &&
	    same_num(a->cpt, b->cpt) && same_num(a->nodes, b->nodes);
}

static struct sp_run
run(const char *jobid, const char *array_job, double id, double el,
    double limit_b, double cores)
{
	struct sp_run r;

	memset(&r, 0, sizeof r);
	r.o = (struct sp_order){ 1767225600 + id, id, -1, 0 };
	r.st = SP_ST_COMPLETED;
	r.jobid = (struct sp_slice){ jobid, strlen(jobid) };
	r.array_job = (struct sp_slice){ array_job, strlen(array_job) };
	r.elapsed_s = el;
	r.timelimit_s = 3600;
	r.total_cpu_s = el * cores * 0.5;
	r.cpu_time_s = NAN;
	r.alloc_gpus = NAN;
	r.gpu_util = NAN;
	r.limit_b = limit_b;
	r.rss_b = limit_b / 3;
	r.cores = cores;
	r.tasks = 1;
	r.nodes = 1;
	sp_run_derive(&r);
	return r;
}

int
main(void)
{
	struct sp_run in[6], back;
	struct sp_pool p = { 0 };
	unsigned char *seeds = NULL;
	const unsigned char *at;
	size_t len = 0, before;
	char idbuf[SP_SEED_ID_BUF];
	int all = 1, compute = 1;

	plan_lazy();
	in[0] = run("51000001", "", 51000001, 61.5, 4294967296.0, 4);
	in[1] = run("0123", "", 123, 100, 2.5 * 1073741824.0, 8);
	in[2] = run("4000_3", "4000", 4000, 0.125, NAN, 1);
	in[2].o.task = 3;
	in[2].st = SP_ST_OUT_OF_MEMORY;
	in[2].failed = 1;
	in[3] = run("4001", "", 4001, 300, 3e9, 16);
	in[3].o.attempt = 2;
	in[3].noop = in[3].hang = 1;
	in[3].alloc_gpus = 2;
	in[3].gpu_util = 0.37;
	sp_run_derive(&in[3]);
	in[4] = run("12345678901234567", "", 12345678901234567.0, -5, 1, 2);
	in[5] = run("77+0", "", 77, NAN, NAN, NAN);
	for (int i = 0; i < 6; i++)
		ok(sp_seed_put(&p, &seeds, &len, &in[i]), "run %d packed", i);
	ok(len < 6 * sizeof(struct sp_run) / 2, "in %zu bytes, under half "
	   "of six runs' %zu", len, 6 * sizeof(struct sp_run));
	at = seeds;
	for (int i = 0; i < 6; i++) {
		at = sp_seed_get(at, &back, idbuf);
		all &= same_run(&in[i], &back);
	}
	ok(all, "every run reads back to the bit");
	ok(at == seeds + len, "and the last ends where the seeds end");
	at = seeds;
	for (int i = 0; i < 6; i++) {
		double g, c;

		at = sp_seed_compute(at, &g, &c);
		compute &= same_num(g, in[i].gpu_h) && same_num(c, in[i].core_h);
	}
	ok(compute, "the compute read alone is the run's");

	{
		/* Refused before a byte is read or copied. */
		struct sp_run r = run("1", "", 1, 1, 1, 1);
		unsigned char *full = seeds;
		size_t at_max = SP_SEED_MAX_BYTES - 10;

		before = len;
		r.array_job = (struct sp_slice){ "x", SP_SEED_MAX_BYTES + 1 };
		ok(!sp_seed_put(&p, &seeds, &len, &r) && len == before &&
		   seeds == full, "a text past SP_SEED_MAX_BYTES is refused");
		r.array_job = (struct sp_slice){ "", 0 };
		ok(!sp_seed_put(&p, &full, &at_max, &r) &&
		   at_max == SP_SEED_MAX_BYTES - 10 && full == seeds,
		   "so is a run that would pass it");
	}
	sp_pool_free(&p);
	return done_testing();
}
