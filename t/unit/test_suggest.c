/*
 * The suggestion rules (sp_suggest.h), each with its numbers: margins,
 * steps, whole GiB, busy units, thin sampling, the spellings, and the
 * figures a history gives (a run of its own as a history of one).
 * Where the one-job findings and sp-size's advice once rounded apart,
 * the advice's rule is the one here, and the cases that told them apart
 * are pinned.
 */
#include <math.h>
#include <string.h>

#include "sp.h"
#include "sp_hist.h"
#include "tap.h"

#define MIB 1048576.0
#define GIB 1073741824.0

static const char *
spell(enum sp_flag f, double v)
{
	static struct sp_buf b;

	sp_buf_clear(&b);
	sp_suggest_spell(&b, f, v);
	return sp_buf_str(&b);
}

/* --mem's rounding alone: what sp_suggest_mem makes of the peak that,
 * with the margin, needs b. */
static double
rounded_mem(double b)
{
	return sp_suggest_mem(b / SP_MEM_MARGIN);
}

static void
rounding(void)
{
	is_double(0, sp_round_time(0), 0, "time: 0 stays 0");
	is_double(300, sp_round_time(1), 0, "time: a second is 5 minutes");
	is_double(300, sp_round_time(300), 0, "time: a step is itself");
	is_double(600, sp_round_time(301), 0, "time: past it, the next");
	is_double(3600, sp_round_time(3599), 0, "time: 5-minute steps up to "
		  "an hour");
	is_double(3600, sp_round_time(3600), 0, "time: an hour is an hour");
	is_double(4500, sp_round_time(3601), 0, "time: 15-minute steps from "
		  "an hour");
	is_double(600, sp_round_time(600 + 1e-7), 0, "time: a rounding error "
		  "above a step is that step");
	is_double(9000, sp_suggest_time(6769), 0, "time: 6769 s x 1.25 -> "
		  "02:30:00");
	/* The pinned disagreement: the one-job rule had no slack, and
	 * made this 00:15:00. */
	is_double(600, sp_suggest_time(480.00000008), 0, "time: 480 s and a "
		  "hair x 1.25 -> 00:10:00");

	is_double(50 * MIB, rounded_mem(0), 0, "mem: at least 50M");
	is_double(50 * MIB, rounded_mem(1), 0, "mem: a byte is 50M");
	is_double(200 * MIB, rounded_mem(150 * MIB + 1), 0, "mem: 150M and "
		  "a byte -> 200M, never 1G");
	is_double(200 * MIB, rounded_mem(200 * MIB), 0, "mem: 200M is 200M");
	is_double(1000 * MIB, rounded_mem(999 * MIB), 0, "mem: 999M -> "
		  "1000M");
	is_double(GIB, rounded_mem(1001 * MIB), 0, "mem: past 1000M the "
		  "next step is the GiB");
	is_double(GIB, rounded_mem(GIB), 0, "mem: 1G is 1G");
	is_double(2 * GIB, rounded_mem(GIB + 1), 0, "mem: a byte more is 2G");
	is_double(42 * GIB, rounded_mem(41.5 * GIB), 0, "mem: 41.5 -> 42G");
	is_double(42 * GIB, rounded_mem(42 * GIB), 0, "mem: 42G is 42G");
	is_double(43 * GIB, rounded_mem(42 * GIB + 1), 0, "mem: 42G and a "
		  "byte -> 43G");
	ok(isnan(rounded_mem(NAN)), "mem: unknown stays unknown");
	/* Issue 15, item 7: a 200M job killed was told 1G, five times it. */
	is_double(300 * MIB, sp_suggest_mem(200 * MIB), 0, "mem: 200M killed "
		  "x 1.3 -> 300M");
	is_double(13 * GIB, sp_suggest_mem(10 * GIB), 0, "mem: 10 GiB x 1.3 "
		  "-> 13G");
	/* The pinned disagreement: the one-job rule made this 14G. */
	is_double(13 * GIB, sp_suggest_mem(nextafter(10 * GIB, INFINITY)), 0,
		  "mem: 10 GiB and a hair x 1.3 -> 13G");

	is_double(1, sp_suggest_busy(SP_FLAG_CPUS, 0), 0, "cpus: at least 1");
	is_double(1, sp_suggest_busy(SP_FLAG_CPUS, 1.05), 0, "cpus: 1.05 busy "
		  "is one core");
	is_double(2, sp_suggest_busy(SP_FLAG_CPUS, 1.6), 0, "cpus: 1.6 -> 2, "
		  "no margin below two");
	/* The pinned disagreement: the one-job rule added no margin. */
	is_double(3, sp_suggest_busy(SP_FLAG_CPUS, 2.0), 0, "cpus: 2 busy x "
		  "1.2 -> 3");
	is_double(5, sp_suggest_busy(SP_FLAG_CPUS, 4), 0, "cpus: 4 x 1.2 -> 5");
	is_double(1, sp_suggest_busy(SP_FLAG_GPUS, 0.95), 0, "gpus: 0.95 busy "
		  "is one GPU");
	is_double(4, sp_suggest_busy(SP_FLAG_GPUS, 3), 0, "gpus: 3 x 1.2 -> 4");

	is_double(1.25, sp_suggest_margin(SP_FLAG_TIME), 0, "margin: time");
	is_double(1.30, sp_suggest_margin(SP_FLAG_MEM), 0, "margin: mem");
	is_double(1.20, sp_suggest_margin(SP_FLAG_CPUS), 0, "margin: cpus");
	is_double(1.20, sp_suggest_margin(SP_FLAG_GPUS), 0, "margin: gpus");
}

static void
sampling(void)
{
	is_double(3, sp_samples(60, 30), 0, "60 s at 30 s: 3 samples");
	is_double(1, sp_samples(0, 30), 0, "0 s: the one sample at the start");
	ok(isnan(sp_samples(60, NAN)), "an unknown interval: unknown");
	ok(isnan(sp_samples(60, 0)), "a zero interval: unknown");
	ok(isnan(sp_samples(NAN, 30)), "an unknown elapsed: unknown");
	ok(isnan(sp_samples(-1, 30)), "a negative elapsed: unknown");
	ok(sp_thin(5), "5 samples are thin");
	ok(!sp_thin(6), "6 are not");
	ok(!sp_thin(NAN), "unknown is not thin");
}

static void
spelling(void)
{
	is_string("02:30:00", spell(SP_FLAG_TIME, 9000), "--time 02:30:00");
	is_string("1-01:00:00", spell(SP_FLAG_TIME, 90000), "--time with days");
	is_string("32G", spell(SP_FLAG_MEM, 32 * GIB), "--mem 32G");
	is_string("500M", spell(SP_FLAG_MEM, 500 * 1048576.0), "--mem 500M");
	is_string("1K", spell(SP_FLAG_MEM, 1000), "--mem whole KiB up");
	is_string("2K", spell(SP_FLAG_MEM, 1025), "--mem 1025 B -> 2K");
	is_string("", spell(SP_FLAG_MEM, 0), "--mem: nothing for 0");
	is_string("", spell(SP_FLAG_MEM, NAN), "--mem: nothing for unknown");
	is_string("", spell(SP_FLAG_MEM, INFINITY), "--mem: nothing for "
		  "infinity");
	is_string("5", spell(SP_FLAG_CPUS, 5), "--cpus-per-task 5");
	is_string("2.5", spell(SP_FLAG_GPUS, 2.5), "a fraction as it is");
	is_string("--cpus-per-task", sp_flag_name(SP_FLAG_CPUS), "flag name");
	is_string("--exclude", sp_flag_name(SP_FLAG_EXCLUDE), "the node rule's flag");
	is_string("?", sp_flag_name(SP_FLAG_EXCLUDE + 1), "no such flag");
}

/* A run of its own, 4 cores, 1 task, known limits. */
static struct sp_run
run(double id, enum sp_state st, double el, double cpu, double limit_b,
    double rss_b)
{
	struct sp_run r;

	memset(&r, 0, sizeof r);
	r.o = (struct sp_order){ 1767225600 + id, id, -1, 0 };
	r.st = st;
	r.failed = sp_state_failed(st);
	r.jobid = (struct sp_slice){ "1", 1 };
	r.array_job = (struct sp_slice){ "", 0 };
	r.elapsed_s = el;
	r.timelimit_s = 7200;
	r.total_cpu_s = cpu;
	r.cpu_time_s = NAN;
	r.alloc_gpus = NAN;
	r.gpu_util = NAN;
	r.limit_b = limit_b;
	r.rss_b = rss_b;
	r.cores = 4;
	r.tasks = 1;
	r.nodes = 1;
	sp_run_derive(&r);
	return r;
}

static void
histories(void)
{
	struct sp_pool p = { 0 };
	struct sp_hist h;
	struct sp_suggestion s;
	struct sp_run r;

	r = run(1, SP_ST_COMPLETED, 1000, 500, 64 * GIB, 10 * GIB);
	sp_hist_one(&h, &p, &r);
	is_double(1500, sp_suggest(&h, SP_FLAG_TIME, &s), 0,
		  "one run of 1000 s: --time 00:25:00");
	is_int(1, s.runs, "resting on one run");
	ok(isnan(s.floor), "no floor");
	is_double(13 * GIB, sp_suggest(&h, SP_FLAG_MEM, &s), 0,
		  "its 10 GiB peak: 13G");
	is_double(1, sp_suggest(&h, SP_FLAG_CPUS, &s), 0,
		  "half a core busy of 4: one core");
	sp_hist_free(&h);
	r = run(1, SP_ST_COMPLETED, 1000, 2000, 64 * GIB, 10 * GIB);
	sp_hist_one(&h, &p, &r);
	is_double(3, sp_suggest(&h, SP_FLAG_CPUS, &s), 0,
		  "two cores busy of 4: 3, as sp-size says");
	ok(isnan(sp_suggest(&h, SP_FLAG_GPUS, &s)), "no GPUs, no figure");
	sp_hist_free(&h);

	r = run(2, SP_ST_OUT_OF_MEMORY, 600, 2000, 32 * GIB, NAN);
	sp_hist_one(&h, &p, &r);
	is_double(42 * GIB, sp_suggest(&h, SP_FLAG_MEM, &s), 0,
		  "killed at 32G: 42G, a floor");
	is_double(42 * GIB, s.floor, 0, "the floor is said");
	ok(isnan(sp_suggest(&h, SP_FLAG_TIME, &s)), "a kill says nothing of "
	   "--time");
	sp_hist_free(&h);

	/* A kill at 32G, then peaks of 40 GiB: two do not outweigh the
	 * kill, three do. */
	sp_hist_init(&h, &p, "u/p/cpu/w", 9);
	r = run(3, SP_ST_OUT_OF_MEMORY, 600, 2000, 32 * GIB, NAN);
	sp_hist_add_run(&h, &r);
	for (int i = 0; i < 3; i++) {
		r = run(4 + i, SP_ST_COMPLETED, 900, 2000, 64 * GIB, 40 * GIB);
		sp_hist_add_run(&h, &r);
		sp_suggest(&h, SP_FLAG_MEM, &s);
		is_double(i < 2 ? 42 * GIB : 76 * GIB, s.value, 0,
			  "kill and %d peaks of 40 GiB: %s", i + 1,
			  i < 2 ? "the floor" :
			  "the peaks, 40 GiB x 1.90 (three alike) = 76G");
	}
	is_int(4, s.runs, "resting on the four runs");
	sp_hist_free(&h);

	/* The history's margin (sp-size(1), "The margins"). */
	is_double(1.25, sp_margin(SP_FLAG_TIME, 2, 0.5), 0,
		  "margin: below 3 runs, the one-number margin");
	is_double(1.30, sp_margin(SP_FLAG_MEM, 3, NAN), 0,
		  "margin: no spread known, the one-number margin");
	is_double(exp(0.25 * sqrt(3.0 / 5) * (2.5 + 2 - 0.8 * sqrt(2 * log(3.0)))),
		  sp_margin(SP_FLAG_TIME, 3, 0), 1e-12,
		  "margin: three alike runs count the prior's spread (x 1.90)");
	is_double(exp(0.5 * (2.5 + 0.6 - 0.8 * sqrt(2 * log(10.0)))),
		  sp_margin(SP_FLAG_TIME, 10, 0.5), 1e-12,
		  "margin: ten runs that spread by 0.5 (x 2.00)");
	is_double(1.10, sp_margin(SP_FLAG_TIME, 1000, 0.01), 0,
		  "margin: many alike runs, --time's least");
	is_double(1.00, sp_margin(SP_FLAG_MEM, 1000, 0.01), 0,
		  "margin: many alike peaks, --mem's least");
	ok(sp_margin(SP_FLAG_MEM, 5, 0.4) > sp_margin(SP_FLAG_MEM, 5, 0.2) &&
	   sp_margin(SP_FLAG_MEM, 5, 0.4) > sp_margin(SP_FLAG_MEM, 50, 0.4),
	   "margin: more for more spread, less for more runs");

	/* Timeouts that computed set a floor; the hung one does not. */
	sp_hist_init(&h, &p, "u/p/cpu/w", 9);
	r = run(10, SP_ST_COMPLETED, 1000, 2000, NAN, NAN);
	sp_hist_add_run(&h, &r);
	r = run(11, SP_ST_TIMEOUT, 7200, 1, NAN, NAN);
	r.noop = 1;
	sp_hist_add_run(&h, &r);
	is_double(1500, sp_suggest(&h, SP_FLAG_TIME, &s), 0,
		  "a hung timeout sets no floor");
	r = run(12, SP_ST_TIMEOUT, 7200, 20000, NAN, NAN);
	sp_hist_add_run(&h, &r);
	is_double(9000, sp_suggest(&h, SP_FLAG_TIME, &s), 0,
		  "one that computed at 02:00:00 sets 02:30:00");
	is_double(1500, s.fit, 0, "the completed run's figure is kept");
	sp_hist_free(&h);

	/* Busy GPUs: 4 held at half use are 2 busy: 3. */
	r = run(20, SP_ST_COMPLETED, 1000, 2000, NAN, NAN);
	r.alloc_gpus = 4;
	r.gpu_util = 0.5;
	sp_run_derive(&r);
	sp_hist_one(&h, &p, &r);
	is_double(3, sp_suggest(&h, SP_FLAG_GPUS, &s), 0, "4 GPUs at 50%%: 3");
	sp_hist_free(&h);

	sp_hist_init(&h, &p, "u/p/cpu/w", 9);
	for (int f = 0; f < SP_FLAG_N; f++)
		ok(isnan(sp_suggest(&h, (enum sp_flag)f, &s)) && s.runs == 0,
		   "an empty history: no %s figure",
		   sp_flag_name((enum sp_flag)f));
	sp_hist_free(&h);
	sp_pool_free(&p);
}

int
main(void)
{
	plan_lazy();
	rounding();
	sampling();
	spelling();
	histories();
	return done_testing();
}
