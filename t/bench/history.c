/*
 * history - a seedable history of job records whose truth is known, with
 * the run-to-run spread real workloads show (issue 31, item 3).
 *
 *	history [--seed N] [--jobs N]
 *
 * Writes job records (sp-fetch's columns that sp-group and sp-size
 * read) on standard output: N of them (default 100,000), and the rest of
 * the submission in hand when N is reached (an array is written whole).  Every workload has its own median runtime
 * and peak, drawn lognormal; each run's need is lognormal around them,
 * with a log-scale spread from a few percent to 80%; a quarter of the
 * workloads grow run by run; a tenth are arrays over uneven shards (a
 * task's shard is the same size in every submission).  Users guess
 * generously, in round figures, some too low; after a timeout they
 * double --time, after a memory kill they add half to --mem, and they
 * never lower either.  Most runs are submitted once the one before has
 * ended; some in bursts that overlap.  A few runs fail or are cancelled
 * on their own.
 *
 * The same seed gives the same records, byte for byte, on any machine:
 * the generator is its own (splitmix64), and every draw is made in a
 * fixed order.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GIB (1024.0 * 1024 * 1024)
#define MIB (1024.0 * 1024)

static uint64_t rng;

static uint64_t
next_u64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1). */
static double
unif(void)
{
	return ((double)(next_u64() >> 11) + 0.5) / 9007199254740992.0;
}

static double
between(double lo, double hi)
{
	return lo + (hi - lo) * unif();
}

/* Log-uniform between lo and hi. */
static double
log_between(double lo, double hi)
{
	return exp(between(log(lo), log(hi)));
}

static double
normal(void)
{
	double u = unif(), v = unif();

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* A user's round figure at or above x, from a list of the usual ones. */
static double
round_up(double x, const double *steps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (steps[i] >= x)
			return steps[i];
	return steps[n - 1] * ceil(x / steps[n - 1]);
}


static const double time_steps[] = {
	900, 1800, 3600, 7200, 4 * 3600, 8 * 3600, 12 * 3600, 24 * 3600,
	48 * 3600, 72 * 3600, 7 * 86400
};
static const double mem_steps[] = {
	1 * GIB, 2 * GIB, 4 * GIB, 8 * GIB, 16 * GIB, 32 * GIB, 64 * GIB,
	128 * GIB, 256 * GIB, 512 * GIB
};
#define NSTEPS(a) (sizeof a / sizeof *a)

struct workload {
	char user[16], name[32];
	int gpu, cores, gpus, array, tasks;
	double med_t, med_m;		/* the medians of the need */
	double sd_t, sd_m;		/* their log-scale spread */
	double grow_t, grow_m;		/* growth per run (1: none) */
	double req_t, req_m;		/* the request now */
	double shard[64];		/* an array task's shard size */
	int runs;
	int timed_out, oom;		/* in the submission just made */
};

/* What the user does once a submission has ended. */
static void
react(struct workload *w)
{
	if (w->timed_out)
		w->req_t *= 2;
	if (w->oom)
		w->req_m = round_up(w->req_m * 1.5, mem_steps, NSTEPS(mem_steps));
	w->timed_out = w->oom = 0;
}

static long long jobid = 7000000;

static void
stamp(char *out, size_t n, double t)
{
	time_t s = (time_t)t;
	struct tm tm;

	gmtime_r(&s, &tm);
	strftime(out, n, "%Y-%m-%dT%H:%M:%S", &tm);
}

/* One run; returns when it ended.  Its outcome moves the request. */
static double
run(struct workload *w, int k, int task, long long array_id, double submit)
{
	double scale = 1, need_t, need_m, el, rss, start, end, cpu;
	const char *state = "COMPLETED";
	int exit_code = 0;
	char sub[32], st[32], en[32], id[48];
	double fate = unif();

	if (task >= 0)
		scale = w->shard[task];
	need_t = w->med_t * scale * pow(w->grow_t, k) * exp(w->sd_t * normal());
	need_m = w->med_m * sqrt(scale) * pow(w->grow_m, k) *
	    exp(w->sd_m * normal());
	if (need_t < 5)
		need_t = 5;
	if (need_m < 20 * MIB)
		need_m = 20 * MIB;
	start = submit + floor(-log(unif()) * 600);
	el = floor(need_t);
	rss = need_m;
	if (need_m > w->req_m) {
		/* Killed when it reached the limit, somewhere in its run. */
		state = "OUT_OF_MEMORY";
		exit_code = 0;
		el = floor(need_t * between(0.05, 0.9));
		if (el > w->req_t)
			el = w->req_t;
		rss = w->req_m;
	} else if (need_t > w->req_t) {
		state = "TIMEOUT";
		el = w->req_t;
		rss = need_m * between(0.8, 1.0);
	} else if (fate < 0.03) {
		state = "FAILED";
		exit_code = 1;
		el = floor(need_t * between(0.01, 1.0));
		rss = need_m * between(0.3, 1.0);
	} else if (fate < 0.05) {
		state = "CANCELLED";
		el = floor(need_t * between(0.01, 1.0));
		rss = need_m * between(0.3, 1.0);
	}
	end = start + el;
	cpu = el * w->cores * between(0.5, 0.95);
	stamp(sub, sizeof sub, submit);
	stamp(st, sizeof st, start);
	stamp(en, sizeof en, end);
	if (task >= 0)
		snprintf(id, sizeof id, "%lld_%d", array_id, task);
	else
		snprintf(id, sizeof id, "%lld", jobid);
	printf("%s\t%lld\t", id, jobid);
	if (task >= 0)
		printf("%lld\t%d\t", array_id, task);
	else
		printf("\t\t");
	printf("%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t0\t%.0f\t%.0f\t%d\t%d\t1\t"
	       "%d\t1\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\n",
	       w->name, w->user, w->gpu ? "gpu" : "cpu", state, exit_code,
	       sub, st, en, el, w->req_t, w->cores, w->cores, w->gpus,
	       w->req_m, w->req_m, floor(rss), cpu, el * w->cores);
	jobid++;
	w->timed_out |= strcmp(state, "TIMEOUT") == 0;
	w->oom |= strcmp(state, "OUT_OF_MEMORY") == 0;
	return end;
}

static void
make_workload(struct workload *w, int i, int users)
{
	static const char *const verbs[] = { "train", "eval", "prep", "sim",
		"align", "render", "fit", "merge" };
	double guess;
	int n;

	memset(w, 0, sizeof *w);
	snprintf(w->user, sizeof w->user, "u%02d", (int)(unif() * users));
	/* Letters only: sp-group folds digits, and would merge them. */
	n = snprintf(w->name, sizeof w->name, "%s-",
		     verbs[(size_t)(unif() * 8)]);
	do {
		w->name[n++] = (char)('a' + i % 26);
		i /= 26;
	} while (i > 0 && n < (int)sizeof w->name - 1);
	w->name[n] = '\0';
	w->gpu = unif() < 0.3;
	w->gpus = w->gpu ? 1 << (int)(unif() * 4) : 0;
	w->cores = 1 << (int)(unif() * 6);
	w->med_t = exp(log(3600) + 1.2 * normal());
	if (w->med_t < 60)
		w->med_t = 60;
	if (w->med_t > 2 * 86400)
		w->med_t = 2 * 86400;
	w->med_m = exp(log(4 * GIB) + 1.0 * normal());
	if (w->med_m < 100 * MIB)
		w->med_m = 100 * MIB;
	if (w->med_m > 300 * GIB)
		w->med_m = 300 * GIB;
	/* From a few percent to 80%, as often small as large. */
	w->sd_t = log_between(0.03, 0.8);
	w->sd_m = log_between(0.03, 0.8);
	w->grow_t = w->grow_m = 1;
	if (unif() < 0.25) {
		w->grow_t = 1 + between(0.002, 0.02);
		w->grow_m = 1 + between(0, 0.01);
	}
	w->array = unif() < 0.1;
	w->runs = (int)log_between(2, 100);
	if (w->array) {
		double sd = between(0.1, 0.6);

		w->tasks = (int)log_between(5, 64);
		for (int t = 0; t < w->tasks; t++)
			w->shard[t] = exp(sd * normal());
		w->runs = (int)log_between(2, 20);
	}
	/* Generous on the whole, in round figures; one user in five
	 * guesses low. */
	guess = unif() < 0.2 ? between(0.7, 1.3) : exp(log(2.5) +
	    0.5 * normal());
	w->req_t = round_up(w->med_t * guess, time_steps, NSTEPS(time_steps));
	guess = unif() < 0.2 ? between(0.7, 1.3) : exp(log(2.5) +
	    0.5 * normal());
	w->req_m = round_up(w->med_m * guess, mem_steps, NSTEPS(mem_steps));
}

static _Noreturn void
usage(void)
{
	fputs("usage: history [--seed N] [--jobs N]\n", stderr);
	exit(2);
}

int
main(int argc, char **argv)
{
	unsigned long long seed = 1;
	long jobs = 100000, written = 0;
	double t0 = 1767225600.0;	/* 2026-01-01 */

	for (int i = 1; i < argc; i++) {
		char *end;

		if (i + 1 >= argc)
			usage();
		if (strcmp(argv[i], "--seed") == 0)
			seed = strtoull(argv[++i], &end, 10);
		else if (strcmp(argv[i], "--jobs") == 0)
			jobs = strtol(argv[++i], &end, 10);
		else
			usage();
		if (*end != '\0' || jobs < 1)
			usage();
	}
	rng = seed * 0x2545f4914f6cdd1dULL + 1;
	printf("jobid\tjobid_raw\tarray_job\tarray_task\tname\tuser\t"
	       "partition\tstate\texit_code\tsubmit\tstart\tend\topen\t"
	       "elapsed_s\ttimelimit_s\treq_cpus\talloc_cpus\tntasks\t"
	       "alloc_gpus\tnnodes\tmem_limit_node_b\tmem_limit_total_b\t"
	       "max_rss_b\ttotal_cpu_s\tcpu_time_s\n");
	for (int i = 0; written < jobs; i++) {
		struct workload w;
		double t = t0 + between(0, 30 * 86400);

		make_workload(&w, i, 40);
		for (int k = 0; k < w.runs && written < jobs; k++) {
			double last = t;

			if (w.array) {
				long long id = jobid;

				for (int task = 0; task < w.tasks; task++) {
					double e = run(&w, k, task, id, t);

					last = e > last ? e : last;
					written++;
				}
			} else if (unif() < 0.15) {
				/* A burst: a few at once, the same request. */
				int burst = 2 + (int)(unif() * 4);

				for (int b = 0; b < burst; b++) {
					double e = run(&w, k, -1, 0, t + b);

					last = e > last ? e : last;
					written++;
				}
			} else {
				last = run(&w, k, -1, 0, t);
				written++;
			}
			react(&w);
			t = last + floor(-log(unif()) * 4 * 3600) + 1;
		}
	}
	return 0;
}
