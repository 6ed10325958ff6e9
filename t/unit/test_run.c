/*
 * One run as the cross-run rules read it (sp_run.h): when it ran, in an
 * order that never depends on the input's, and the numbers worked out
 * of its record.
 */
#include <math.h>

#include "sp.h"
#include "sp_run.h"
#include "tap.h"
#include "testjob.h"

static void
order(void)
{
	struct sp_job j;
	struct sp_order a, b;

	tj_init(&j);
	tj_set(&j, "jobid", "51000123_4");
	tj_set(&j, "jobid_raw", "51000127");
	tj_set(&j, "array_task", "4");
	tj_set(&j, "submit", "2026-01-05T00:00:00");
	tj_num(&j, "attempt", 2);
	sp_order_of(&a, &j);
	is_double(51000127, a.id, 0, "the raw id first");
	is_int(4, a.task, "the array task");
	is_int(2, a.attempt, "the attempt");
	is_double((double)j.submit_t, a.when, 0, "submit without a start");
	tj_set(&j, "start", "2026-01-05T00:00:09");
	sp_order_of(&b, &j);
	is_double(a.when + 9, b.when, 0, "the start when there is one");
	ok(sp_order_cmp(&a, &b) < 0 && sp_order_cmp(&b, &a) > 0 &&
	   sp_order_cmp(&a, &a) == 0, "earlier first");
	tj_set(&j, "jobid_raw", "");
	tj_set(&j, "jobid", "abc");
	tj_set(&j, "array_task", "");
	tj_set(&j, "start", "");
	tj_set(&j, "submit", "");
	tj_num(&j, "attempt", NAN);
	sp_order_of(&a, &j);
	ok(isinf(a.when) && a.when < 0 && isinf(a.id) && a.task == -1 &&
	   a.attempt == 0, "nothing known: before everything");
	b.when = a.when;
	b.id = 5;
	ok(sp_order_cmp(&a, &b) < 0, "then by id");
}

static void
numbers(void)
{
	struct sp_job j;
	struct sp_run r, s;

	tj_init(&j);
	tj_set(&j, "jobid", "9_1");
	tj_set(&j, "array_job", "9");
	tj_set(&j, "state", "OUT_OF_MEMORY");
	tj_num(&j, "elapsed_s", 3600);
	tj_num(&j, "alloc_cpus", 8);
	tj_num(&j, "alloc_gpus", 2);
	tj_num(&j, "ntasks", 4);
	tj_num(&j, "nnodes", 2);
	tj_num(&j, "mem_limit_node_b", 0);
	tj_num(&j, "max_rss_b", 1e9);
	sp_run_of(&r, &j);
	is_int(SP_ST_OUT_OF_MEMORY, r.st, "the state");
	ok(r.failed && !r.noop && !r.hang, "failed, computed");
	ok(isnan(r.limit_b), "a limit of 0 is unknown");
	is_double(1e9, r.rss_b, 0, "the peak");
	is_double(2, r.cpt, 0, "8 cores over 4 tasks");
	is_double(2, r.gpu_h, 0, "2 GPU-hours");
	is_double(8, r.core_h, 0, "8 core-hours");
	ok(r.sub != 0, "a task of an array has its submission");
	tj_num(&j, "ntasks", NAN);
	sp_run_of(&s, &j);
	/* Issue 14, item 2: one task a node is a guess (16 tasks of 6
	 * cores made --cpus-per-task=46): per task is unknown. */
	ok(isnan(s.cpt), "without ntasks, per task is unknown");
	tj_num(&j, "nnodes", NAN);
	tj_set(&j, "array_job", "");
	sp_run_of(&s, &j);
	ok(isnan(s.cpt), "without either, per task is unknown");
	/* An empty array_job: the id 9_1 still says which array. */
	ok(s.sub == r.sub && s.array_job.n == 1,
	   "without array_job, a task is its id's array's");
	tj_set(&j, "jobid", "9");
	sp_run_of(&s, &j);
	is_int(0, (long long)s.sub, "a job of its own has no submission");
	tj_set(&j, "jobid", "x_1");
	sp_run_of(&s, &j);
	is_int(0, (long long)s.sub, "  nor an id that is no array's");
}

int
main(void)
{
	plan_lazy();
	order();
	numbers();
	return done_testing();
}
