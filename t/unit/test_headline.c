/*
 * The headline (sp_headline.h): which line leads, and the window, the
 * same for sp-report and the dashboard.
 */
#include <math.h>

#include "sp.h"
#include "sp_headline.h"
#include "tap.h"

static const char *
lead(const struct sp_headline *h, struct sp_buf *text, struct sp_buf *more)
{
	sp_buf_clear(text);
	sp_buf_clear(more);
	return sp_headline_lead(h, text, more);
}

static void
leads(void)
{
	struct sp_headline h;
	struct sp_buf t = { 0 }, m = { 0 };

	sp_headline_init(&h);
	is_string("none", lead(&h, &t, &m), "no run: none");
	is_string("No job has ended yet", sp_buf_str(&t), "and says so");
	h.runs = 10;
	is_string("ok", lead(&h, &t, &m), "no failure: ok");
	is_string("10 jobs, nothing flagged", sp_buf_str(&t), "said so");
	h.failed = 3;
	h.unknown_states = 2;
	is_string("failed", lead(&h, &t, &m), "failures lead");
	is_string("3 of 8 jobs failed", sp_buf_str(&t),
		  "out of the runs whose state is known");
	h.gpu_h = 2000;
	h.idle_gpu_h = 150;
	is_string("idle", lead(&h, &t, &m),
		  "idle GPU-hours lead past SP_IDLE_LEAD_GPU_H");
	is_string("2000 GPU-hours, 150 of them in allocations that never "
		  "computed", sp_buf_str(&t), "the idle line");
	is_int(0, (long long)m.len, "no workload named without one");
	h.idle_name = "rollout";
	h.idle_key_gpu_h = 120;
	h.idle_key_total_h = 400;
	lead(&h, &t, &m);
	is_string("120 of them in rollout (30.0% of its 400 GPU-hours).",
		  sp_buf_str(&m), "the workload that held most");
	h.idle_gpu_h = 50;
	is_string("failed", lead(&h, &t, &m),
		  "under both the share and the hours, failures lead");
	sp_buf_free(&t);
	sp_buf_free(&m);
}

static void
window(void)
{
	static const char *const users[] = { "alice", "bob", "carol", "dan" };
	struct sp_headline h;
	struct sp_buf b = { 0 };

	sp_headline_init(&h);
	h.runs = 12;
	h.workloads = 3;
	h.users = users;
	h.nusers = 3;
	h.first = "2026-01-05T10:00:00";
	h.last = "2026-03-13T11:00:00";
	h.open = 2;
	sp_headline_window(&h, &b);
	is_string("12 jobs of alice, bob and carol, 2026-01-05 to 2026-03-13, "
		  "in 3 workloads; 2 still running or pending, left out.",
		  sp_buf_str(&b), "the window in words");
	sp_buf_clear(&b);
	h.nusers = 4;
	h.first = h.last = NULL;
	h.open = 0;
	h.source = "read from dump.txt";
	sp_headline_window(&h, &b);
	is_string("12 jobs of 4 users, none ended, read from dump.txt, in 3 "
		  "workloads.", sp_buf_str(&b), "more users are counted");
	sp_buf_clear(&b);
	h.runs = 1;
	h.workloads = 1;
	h.nusers = 1;
	h.source = NULL;
	sp_headline_window(&h, &b);
	is_string("1 job of alice, none ended, in 1 workload.",
		  sp_buf_str(&b), "one job, one workload: no plural");
	sp_buf_free(&b);
}

int
main(void)
{
	plan_lazy();
	leads();
	window();
	return done_testing();
}
