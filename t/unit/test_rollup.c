/*
 * The rollup (sp_rollup.h): what each workload's row sums, which records
 * it leaves out and says so, its shares, label and orders.
 */
#include <math.h>

#include "sp.h"
#include "sp_rollup.h"
#include "tap.h"
#include "testjob.h"

static void
run(struct sp_job *j, const char *id, const char *name, const char *state,
    double elapsed, double cpus, double gpus, double cpu_s)
{
	tj_init(j);
	tj_set(j, "jobid", id);
	tj_set(j, "jobid_raw", id);
	tj_set(j, "name", name);
	tj_set(j, "state", state);
	tj_set(j, "start", "2026-01-05T10:00:00");
	tj_set(j, "end", "2026-01-05T11:00:00");
	tj_num(j, "open", 0);
	tj_num(j, "elapsed_s", elapsed);
	tj_num(j, "alloc_cpus", cpus);
	tj_num(j, "alloc_gpus", gpus);
	tj_num(j, "total_cpu_s", cpu_s);
}

static void
sums(void)
{
	struct sp_rollup ru;
	struct sp_job j;
	const struct sp_rollup_wl *a, *b;
	struct sp_buf label = { 0 };
	long ia, ib;

	sp_rollup_init(&ru);
	run(&j, "1", "s1e20", "COMPLETED", 3600, 4, 1, 7200);
	ia = sp_rollup_add(&ru, "u/gpu/gpu/s#e#", 14, &j);
	run(&j, "2", "s2e47", "FAILED", 3600, 4, 1, 1);
	is_int(ia, sp_rollup_add(&ru, "u/gpu/gpu/s#e#", 14, &j),
	       "one key, one workload");
	run(&j, "3", "prep", "COMPLETED", 1800, 2, 0, 3000);
	ib = sp_rollup_add(&ru, "u/cpu/cpu/prep", 14, &j);
	ok(ib != ia, "another key, another workload");
	run(&j, "4", "prep", "RUNNING", 60, 2, 0, 10);
	tj_num(&j, "open", 1);
	is_int(-1, sp_rollup_add(&ru, "u/cpu/cpu/prep", 14, &j),
	       "an open record is no run");
	run(&j, "5", "prep", "FAILED", NAN, 2, 0, 10);
	is_int(-1, sp_rollup_add(&ru, "u/cpu/cpu/prep", 14, &j),
	       "nor one without an elapsed time");
	run(&j, "5", "prep", "COMPLETED", 60, 2, 0, 10);
	tj_set(&j, "step", "batch");
	is_int(-1, sp_rollup_add(&ru, "u/cpu/cpu/prep", 14, &j),
	       "nor a step");
	is_int(1, ru.open, "the open record counted");
	is_int(1, ru.unusable, "the record with no time counted");
	sp_rollup_finish(&ru);

	a = &ru.v[ia];
	b = &ru.v[ib];
	is_int(2, a->runs, "two runs");
	is_int(1, a->failed, "one failed");
	is_int(1, a->noop, "the failure that computed nothing is a no-op");
	is_int(1, sp_rollup_noop_known(a), "and that is known");
	is_double(2, a->gpu_h, 1e-9, "two GPU-hours");
	is_double(8, a->core_h, 1e-9, "eight core-hours");
	is_double(sp_compute(2, 8), a->compute, 1e-9, "the compute");
	is_double(a->compute / (a->compute + b->compute), a->share, 1e-12,
		  "its share of the whole");
	is_int(2, a->names, "two raw names");
	sp_rollup_label(&label, a, sp_rollup_key_workload(sp_rollup_key(&ru,
			a)));
	is_string("s#e#", sp_buf_str(&label), "a fold with letters labels");
	sp_buf_clear(&label);
	sp_rollup_label(&label, b, "prep");
	is_string("prep", sp_buf_str(&label), "one raw name labels itself");

	sp_rollup_sort(&ru, SP_ROLLUP_NAME);
	is_string("u/cpu/cpu/prep", sp_rollup_key(&ru, &ru.v[0]),
		  "by name: prep first");
	sp_rollup_sort(&ru, SP_ROLLUP_COST);
	is_string("u/gpu/gpu/s#e#", sp_rollup_key(&ru, &ru.v[0]),
		  "by cost: the GPU work first");
	sp_buf_free(&label);
	sp_rollup_free(&ru);
}

int
main(void)
{
	plan_lazy();
	sums();
	return done_testing();
}
