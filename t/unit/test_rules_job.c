/*
 * The single-job findings, each with the reference's cases: restraint on
 * a healthy job, blocked versus slow, an impossible OOM figure versus a
 * sampled floor, signals by name, cancellation by whom, log findings
 * gated on GPUs and ranks, the traceback ending at its exception line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_rules_job.h"
#include "sp_hist.h"
#include "tap.h"
#include "testjob.h"

#define GiB (1024.0 * 1024 * 1024)

static struct sp_site site_unknown = { .known = 0,
	.gather = SP_GATHER_UNKNOWN, .gather_freq_s = NAN };
static struct sp_site site_linux = { .known = 1,
	.gather = SP_GATHER_LINUX, .gather_freq_s = NAN };
static struct sp_site site_cgroup = { .known = 1,
	.gather = SP_GATHER_CGROUP, .gather_freq_s = NAN,
	.gpuutil_tracked = 1 };

/* A completed, well-sized run: the demo's midtrain. */
static void
healthy(struct sp_job *j)
{
	tj_init(j);
	tj_set(j, "jobid", "5100021");
	tj_set(j, "name", "midtrain");
	tj_set(j, "user", "youzhi");
	tj_num(j, "uid", 940740146);
	tj_set(j, "state", "COMPLETED");
	tj_num(j, "exit_code", 0);
	tj_num(j, "signal", 0);
	tj_num(j, "open", 0);
	tj_num(j, "elapsed_s", 6769);
	tj_num(j, "timelimit_s", 7200);
	tj_num(j, "alloc_cpus", 4);
	tj_num(j, "req_cpus", 4);
	tj_num(j, "ntasks", 1);
	tj_num(j, "nnodes", 1);
	tj_num(j, "alloc_gpus", 3);
	tj_num(j, "mem_limit_node_b", 200 * GiB);
	tj_num(j, "mem_limit_total_b", 200 * GiB);
	tj_num(j, "max_rss_b", 193517740.0 * 1024);
	tj_num(j, "total_cpu_s", 19899);
	tj_num(j, "sys_cpu_s", 936);
	tj_num(j, "cpu_time_s", 27076);
	tj_num(j, "read_b", 112.7e9);
	tj_num(j, "write_b", 139.6e9);
	tj_set(j, "nodelist", "midway3-0600");
}

struct result {
	struct sp_findings f;
};

static void
run(struct sp_findings *f, const struct sp_job *j, const struct sp_site *s,
    const struct sp_logs *logs, const char *note)
{
	struct sp_diag d;

	memset(&d, 0, sizeof d);
	d.job = j;
	d.site = s;
	d.logs = logs;
	d.node_note = note;
	sp_findings_free(f);
	sp_rules_job(&d, f);
}

static const struct sp_finding *
find(const struct sp_findings *f, const char *code)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->v[i].code, code) == 0)
			return &f->v[i];
	return NULL;
}

static int
has(const struct sp_findings *f, const char *code, enum sp_severity sev,
    const char *text)
{
	const struct sp_finding *x = find(f, code);

	if (x == NULL || x->severity != sev)
		return 0;
	if (text != NULL && strstr(x->evidence, text) == NULL &&
	    (x->action == NULL || strstr(x->action, text) == NULL)) {
		diag("%s: no \"%s\" in: %s / %s", code, text, x->evidence,
		     x->action ? x->action : "(no action)");
		return 0;
	}
	return 1;
}

static void
codes(const struct sp_findings *f, struct sp_buf *b)
{
	sp_buf_clear(b);
	for (size_t i = 0; i < f->n; i++) {
		if (i)
			sp_buf_addc(b, ' ');
		sp_buf_adds(b, f->v[i].code);
	}
	if (b->p == NULL)
		sp_buf_adds(b, "");
}

/* A log found in memory: one file whose tail is text. */
static void
fake_log(struct sp_logs *l, struct sp_log *file, const char *text)
{
	memset(l, 0, sizeof *l);
	memset(file, 0, sizeof *file);
	l->looked = 1;
	l->v = file;
	l->n = 1;
	l->cap = 1;
	file->path = (char *)"/logs/x.err";
	file->status = SP_LOG_FOUND;
	file->role = SP_ROLE_ERROR;
	file->tail.p = (char *)text;
	file->tail.len = strlen(text);
}

static void
test_restraint(struct sp_findings *f, struct sp_buf *b)
{
	struct sp_job j;

	healthy(&j);
	run(f, &j, &site_linux, NULL, NULL);
	codes(f, b);
	is_string("", b->p, "a healthy job gets no finding at all");
	is_int(-1, sp_findings_worst(f), "and no severity");
}

static void
test_walltime(struct sp_findings *f)
{
	struct sp_job j;

	healthy(&j);
	tj_set(&j, "state", "TIMEOUT");
	tj_num(&j, "elapsed_s", 1826);
	tj_num(&j, "timelimit_s", 1800);
	tj_num(&j, "total_cpu_s", 0.5);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "timeout-hang", SP_SEV_CRITICAL, "Do not raise --time"),
	   "a timeout that used 0.5 s of CPU hung: do not raise --time");
	ok(!find(f, "noop-allocation") && !find(f, "cpu-overrequest"),
	   "and it is not also an idle allocation");

	tj_num(&j, "total_cpu_s", 1780 * 4);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "timeout-real", SP_SEV_CRITICAL, "Raise --time well above "
	       "00:30:00"), "a timeout that computed: raise --time");
	ok(!find(f, "timeout-hang"), "and it did not hang");

	/* Issue 14, item 3: no CPU time in the record (XDMoD's dumps) is
	 * no evidence of work; a hung job would be told to hang longer. */
	tj_num(&j, "total_cpu_s", NAN);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "timeout-real") && !find(f, "timeout-hang"),
	   "CPU time unknown: neither working nor hung");
	ok(has(f, "timeout", SP_SEV_WARNING, "CPU time (total_cpu_s) is not "
	       "in this record"), "only a timeout, saying the CPU time is "
	   "unknown");
	ok(has(f, "timeout", SP_SEV_WARNING, "Find out before raising "
	       "--time"), "with no raise");

	/* Issue 15, item 10: 87 s and 0.00 s of CPU (a sleep) is below the
	 * hang rule's floor: a short timeout of unknown cause. */
	tj_num(&j, "elapsed_s", 87);
	tj_num(&j, "timelimit_s", 60);
	tj_num(&j, "total_cpu_s", 0);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "timeout-real") && !find(f, "timeout-hang"),
	   "87 s with no CPU: not working, and too short to call a hang");
	ok(has(f, "timeout", SP_SEV_WARNING, "too short to tell a hang from "
	       "a wait"), "a short timeout of unknown cause");
	tj_num(&j, "total_cpu_s", 80);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "timeout-real", SP_SEV_CRITICAL, "while working"),
	   "87 s with 80 s of CPU was working");

	healthy(&j);
	tj_num(&j, "elapsed_s", 4032);
	tj_num(&j, "timelimit_s", 43200);
	tj_num(&j, "total_cpu_s", 4032 * 3);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "walltime-slack", SP_SEV_INFO, "--time=01:30:00"),
	   "a run that used 9%% of its limit: --time=01:30:00");
	ok(has(f, "walltime-slack", SP_SEV_INFO, "(9.3%)"),
	   "with the share used");
	tj_num(&j, "elapsed_s", 1000);
	tj_num(&j, "timelimit_s", 3600);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "walltime-slack", SP_SEV_INFO, "--time=00:25:00"),
	   "under an hour the suggestion rounds to 5 minutes");
	/* 480 s x 1.25 is 600 s and a rounding error: sp-size's rule
	 * calls that 00:10:00, and so does one job's finding now. */
	tj_num(&j, "elapsed_s", 480.00000008);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "walltime-slack", SP_SEV_INFO, "--time=00:10:00 (this run "
	       "plus 25%, one run's estimate: its workload's other runs were "
	       "not read)"), "a rounding error above a step is that step");
	tj_num(&j, "elapsed_s", 2400);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "walltime-slack"), "two thirds of the limit is no slack");
	/* Issue 15, item 11: 2 minutes of 5 is 2:30, which rounds up to
	 * the 5 minutes it had: no "tighter" current value. */
	tj_num(&j, "elapsed_s", 120);
	tj_num(&j, "timelimit_s", 300);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "walltime-slack"), "never the current --time as a change");
}

static void
test_memory(struct sp_findings *f)
{
	struct sp_job j;
	struct sp_site thin = site_linux;
	int memory_findings = 0;

	healthy(&j);
	tj_set(&j, "state", "OUT_OF_MEMORY");
	tj_num(&j, "elapsed_s", 1200);
	tj_num(&j, "mem_limit_node_b", 32 * GiB);
	tj_num(&j, "max_rss_b", 33.5 * GiB);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "host-oom", SP_SEV_CRITICAL, "do not size --mem from it"),
	   "OOM with MaxRSS above the limit: the figure is impossible");
	ok(has(f, "host-oom", SP_SEV_CRITICAL, "upper bound"),
	   "with the linux gather caveat");
	ok(has(f, "host-oom", SP_SEV_CRITICAL, "Raise --mem to 42G (the size "
	       "that was killed plus 30%, one run's estimate"),
	   "and --mem 30%% over the killed size, said to be one run's");
	for (size_t i = 0; i < f->n; i++)
		memory_findings += strcmp(f->v[i].code, "rss-above-limit") == 0 ||
				   strcmp(f->v[i].code, "memory-slack") == 0;
	is_int(0, memory_findings, "no other memory finding follows an OOM");

	tj_num(&j, "max_rss_b", 30 * GiB);
	tj_num(&j, "elapsed_s", 60);
	thin.gather_freq_s = 30;
	run(f, &j, &thin, NULL, NULL);
	ok(has(f, "host-oom", SP_SEV_CRITICAL, "Samples are a floor"),
	   "OOM below the limit: the sample is a floor");
	ok(has(f, "host-oom", SP_SEV_CRITICAL, "At most 3 samples"),
	   "thin sampling is said (60 s at 30 s: 3 samples)");
	tj_num(&j, "max_rss_b", NAN);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "host-oom", SP_SEV_CRITICAL, "before any memory sample"),
	   "OOM with no sample at all");

	healthy(&j);
	tj_num(&j, "mem_limit_node_b", 64 * GiB);
	tj_num(&j, "max_rss_b", 92 * GiB);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "rss-above-limit", SP_SEV_WARNING, "cannot be this job's "
	       "footprint"), "MaxRSS above the limit without a kill");
	ok(has(f, "rss-above-limit", SP_SEV_WARNING, "upper bound"),
	   "linux: an upper bound");
	run(f, &j, &site_cgroup, NULL, NULL);
	ok(has(f, "rss-above-limit", SP_SEV_WARNING, "high-water mark"),
	   "cgroup: the cgroup's own high-water mark");
	run(f, &j, &site_unknown, NULL, NULL);
	ok(has(f, "rss-above-limit", SP_SEV_WARNING, "not known here"),
	   "unknown site: says so");

	healthy(&j);
	tj_num(&j, "mem_limit_node_b", 64 * GiB);
	tj_num(&j, "max_rss_b", 10 * GiB);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "memory-slack", SP_SEV_INFO, "--mem=13G"),
	   "10 GiB of 64: --mem=13G");
	ok(has(f, "memory-slack", SP_SEV_INFO, "54.0 GiB never used"),
	   "naming what was never used");
	ok(has(f, "memory-slack", SP_SEV_INFO, "(the peak plus 30%, one "
	       "run's estimate"),
	   "the margin is said as the rule has it");
	/* A peak a hair above 10 GiB is 13G plus float noise: sp-size's
	 * rule says 13G, and so does one job's finding now. */
	tj_num(&j, "max_rss_b", nextafter(10 * GiB, INFINITY));
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "memory-slack", SP_SEV_INFO, "--mem=13G"),
	   "a rounding error above a whole GiB is that GiB");
	tj_num(&j, "mem_limit_node_b", 8 * GiB);
	tj_num(&j, "max_rss_b", 1 * GiB);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "memory-slack"), "7 GiB unused is not worth a finding");
}

static void
test_noop(struct sp_findings *f)
{
	struct sp_job j;

	/* The demo's node-evaluation: 42 hours, 2 GPUs, 0.54 s of CPU. */
	healthy(&j);
	tj_set(&j, "state", "CANCELLED");
	tj_set(&j, "cancelled_by", "940740146");
	tj_num(&j, "alloc_gpus", 2);
	tj_num(&j, "alloc_cpus", 8);
	tj_num(&j, "elapsed_s", 151200);
	tj_num(&j, "timelimit_s", 129600);
	tj_num(&j, "total_cpu_s", 0.54);
	tj_num(&j, "sys_cpu_s", 0.1);
	tj_num(&j, "read_b", 1e6);
	tj_num(&j, "write_b", 1e6);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "noop-allocation", SP_SEV_CRITICAL, "84.0 GPU-hours"),
	   "an idle allocation names its GPU-hours");
	ok(has(f, "noop-allocation", SP_SEV_CRITICAL, "detach"),
	   "linux: TotalCPU may have missed a detached pool");
	ok(has(f, "cancelled", SP_SEV_INFO, "by its owner"),
	   "cancelled by its owner");
	ok(f->n > 0 && strcmp(f->v[0].code, "noop-allocation") == 0,
	   "most severe first");
	run(f, &j, &site_cgroup, NULL, NULL);
	ok(has(f, "noop-allocation", SP_SEV_CRITICAL, "Nothing was computed"),
	   "cgroup: nothing was computed");

	tj_num(&j, "read_b", 18.4 * 1024 * GiB);
	run(f, &j, &site_cgroup, NULL, NULL);
	ok(has(f, "noop-allocation", SP_SEV_WARNING, "moving data"),
	   "18.4 TiB moved: it was moving data");
	ok(!strstr(find(f, "noop-allocation")->evidence, "Nothing was "
		   "computed") && !strstr(find(f, "noop-allocation")->action,
					 "blocking"),
	   "and no claim that nothing was computed");

	tj_set(&j, "state", "NODE_FAIL");
	tj_num(&j, "read_b", 0);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "noop-allocation") && find(f, "node-failed"),
	   "NODE_FAIL explains the idle CPU itself");
}

static void
test_cpu(struct sp_findings *f)
{
	struct sp_job j;

	/* The demo's tokenize-shards. */
	healthy(&j);
	tj_num(&j, "alloc_gpus", 0);
	tj_num(&j, "alloc_cpus", 16);
	tj_num(&j, "elapsed_s", 3600);
	tj_num(&j, "timelimit_s", 7200);
	tj_num(&j, "cpu_time_s", 57600);
	tj_num(&j, "total_cpu_s", 7200);
	tj_num(&j, "sys_cpu_s", 4800);
	tj_num(&j, "mem_limit_node_b", 32 * GiB);
	tj_num(&j, "max_rss_b", 20 * GiB);
	tj_num(&j, "read_b", 340 * GiB);
	tj_num(&j, "write_b", 90 * GiB);
	run(f, &j, &site_linux, NULL, NULL);
	/* Two cores busy: sp-size's rule, a fifth more, whole cores up. */
	ok(has(f, "cpu-overrequest", SP_SEV_WARNING, "--cpus-per-task=3"),
	   "12.5%% of 16 cores: --cpus-per-task=3, as sp-size would say");
	ok(has(f, "cpu-overrequest", SP_SEV_WARNING, "about 2.0 cores"),
	   "about 2.0 cores of real work");
	ok(has(f, "system-cpu-heavy", SP_SEV_WARNING, "66.7%"),
	   "two thirds of the CPU in the kernel");
	ok(has(f, "io-heavy", SP_SEV_WARNING, "122.3 MiB/s"),
	   "430 GiB in an hour is heavy I/O");

	tj_num(&j, "read_b", 340 * GiB);
	tj_num(&j, "elapsed_s", 36000);
	tj_num(&j, "timelimit_s", 72000);
	tj_num(&j, "cpu_time_s", 576000);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "io-heavy"), "volume alone is not heavy I/O");

	healthy(&j);
	tj_num(&j, "alloc_cpus", 1);
	tj_num(&j, "cpu_time_s", 6769);
	tj_num(&j, "total_cpu_s", 60);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "cpu-overrequest"), "one core cannot be over-requested");

	healthy(&j);
	tj_num(&j, "elapsed_s", 100);
	tj_num(&j, "timelimit_s", 150);
	tj_num(&j, "total_cpu_s", 12);
	tj_num(&j, "cpu_time_s", 400);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "cpu-overrequest"), "under two minutes is too short to "
	   "judge");

	/* Figure 3: 48.7% of the CPU in the kernel. */
	healthy(&j);
	tj_num(&j, "total_cpu_s", 5400);
	tj_num(&j, "sys_cpu_s", 2630);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "system-cpu-heavy", SP_SEV_WARNING, "48.7%"), "48.7%% "
	   "kernel");
	tj_num(&j, "total_cpu_s", 50);
	tj_num(&j, "sys_cpu_s", 40);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "system-cpu-heavy"), "under a minute of CPU is no "
	   "evidence");
}

static void
test_parallel(struct sp_findings *f)
{
	struct sp_job j;

	/* The demo's ddp-pretrain. */
	healthy(&j);
	tj_set(&j, "state", "FAILED");
	tj_num(&j, "exit_code", 1);
	tj_num(&j, "ntasks", 8);
	tj_num(&j, "alloc_cpus", 32);
	tj_num(&j, "alloc_gpus", 4);
	tj_num(&j, "elapsed_s", 5400);
	tj_num(&j, "timelimit_s", 10800);
	tj_num(&j, "total_cpu_s", 28800);
	tj_num(&j, "cpu_time_s", 172800);
	tj_num(&j, "ave_cpu_s", 3600);
	tj_num(&j, "min_cpu_s", 720);
	tj_set(&j, "min_cpu_node", "midway3-0433");
	tj_set(&j, "min_cpu_task", "5");
	tj_num(&j, "rss_imbalance", 2.5);
	tj_num(&j, "max_pages", 820000);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "straggler", SP_SEV_WARNING, "80.0% less CPU"),
	   "the slowest task used 80%% less CPU");
	ok(has(f, "straggler", SP_SEV_WARNING, "task 5 on midway3-0433"),
	   "naming the task and node");
	ok(has(f, "task-memory-imbalance", SP_SEV_INFO, "2.5x"),
	   "one task held 2.5x the mean");
	ok(has(f, "paging", SP_SEV_WARNING, "820000 major page faults"),
	   "paging");
	ok(has(f, "paging", SP_SEV_WARNING, "Raise --mem or shrink the "
	       "working set"), "a peak at 92%% of the limit: raise --mem");
	tj_num(&j, "max_rss_b", 20 * GiB);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "paging", SP_SEV_WARNING, "Do not raise --mem"),
	   "a peak at 10%% of the limit: memory was not short");
	ok(has(f, "paging", SP_SEV_WARNING, "memory-mapped input"),
	   "and what else faults is named");
	/* Issue 15, item 9: slurm2sql's job 43974388, 2,048 faults in 3.5
	 * hours at 10%% of its limit. */
	tj_num(&j, "max_pages", 2048);
	tj_num(&j, "elapsed_s", 12600);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "paging"), "2048 faults in 3.5 hours cost seconds");
	ok(has(f, "exit-nonzero-nolog", SP_SEV_WARNING, "uncaught exception"),
	   "exit 1 and no log: an uncaught exception looks like this");
	ok(has(f, "exit-nonzero-nolog", SP_SEV_WARNING, "no log was read"),
	   "no logs looked at: says it was not read");
	tj_num(&j, "alloc_gpus", 0);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "exit-nonzero-nolog", SP_SEV_WARNING, "(Python)."),
	   "no GPU held: an uncaught exception, and no GPU words");
	ok(strstr(find(f, "exit-nonzero-nolog")->evidence, "GPU") == NULL,
	   "  not a GPU out of memory");
	tj_num(&j, "alloc_gpus", 2);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "exit-nonzero-nolog", SP_SEV_WARNING, "a GPU out of memory"),
	   "GPUs held: a GPU out of memory looks the same");
	tj_num(&j, "ntasks", 1);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "straggler") && !find(f, "task-memory-imbalance"),
	   "one task cannot straggle");
}

static void
test_states(struct sp_findings *f)
{
	struct sp_job j;

	healthy(&j);
	tj_set(&j, "state", "CANCELLED");
	tj_num(&j, "elapsed_s", 600);
	tj_set(&j, "cancelled_by", "0");
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "cancelled-by-other", SP_SEV_INFO, "Cancelled by root"),
	   "cancelled by uid 0: by root, not by you");
	tj_set(&j, "cancelled_by", "1234");
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "cancelled-by-other", SP_SEV_INFO, "getent passwd 1234"),
	   "another uid: find who holds it");
	tj_set(&j, "cancelled_by", "");
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "cancelled", SP_SEV_INFO, "does not say by whom"),
	   "unknown canceller: plainly cancelled");
	ok(find(f, "cancelled")->action == NULL, "with nothing to do");
	tj_set(&j, "cancelled_by", "1234");
	tj_num(&j, "uid", NAN);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "cancelled", SP_SEV_INFO, "uid 1234"),
	   "with the owner's uid unknown, no accusation");

	healthy(&j);
	tj_set(&j, "state", "NODE_FAIL");
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "node-failed", SP_SEV_WARNING, "Not your code"),
	   "node failure");
	tj_set(&j, "state", "BOOT_FAIL");
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "boot-failed", SP_SEV_WARNING, NULL), "boot failure");
	tj_set(&j, "state", "DEADLINE");
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "deadline", SP_SEV_CRITICAL, "A longer --time changes "
	       "nothing"), "deadline");
	tj_set(&j, "state", "PREEMPTED");
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "preempted", SP_SEV_INFO, "--requeue"), "preempted");
}

static void
test_signals(struct sp_findings *f)
{
	struct sp_job j;

	healthy(&j);
	tj_set(&j, "state", "FAILED");
	tj_num(&j, "exit_code", 0);
	tj_num(&j, "signal", 9);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "sigkill", SP_SEV_CRITICAL, "Killed by SIGKILL (signal 9)"),
	   "signal 9 is SIGKILL, by name");
	tj_num(&j, "signal", 11);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "signal-kill", SP_SEV_CRITICAL, "SIGSEGV"), "11 is SIGSEGV");
	tj_num(&j, "signal", 0);
	tj_num(&j, "exit_code", 137);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "sigkill", SP_SEV_CRITICAL, "128 + 9"), "exit 137 is the "
	   "shell's report of SIGKILL");
	ok(has(f, "exit-nonzero-nolog", SP_SEV_WARNING, "to confirm it"),
	   "and no log to confirm it");
	tj_num(&j, "exit_code", 139);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "signal-kill", SP_SEV_CRITICAL, "SIGSEGV"), "139 is SIGSEGV");
	tj_num(&j, "exit_code", 127);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "command-not-found", SP_SEV_CRITICAL, "module load"),
	   "127: command not found");
	ok(!find(f, "signal-kill") && !find(f, "sigkill"), "127 is no signal");
	tj_num(&j, "exit_code", 2);
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "exit-nonzero-nolog", SP_SEV_WARNING, "Exited 2, but"),
	   "another code: exited N, no log");

	tj_set(&j, "state", "TIMEOUT");
	tj_num(&j, "exit_code", 0);
	tj_num(&j, "signal", 15);
	tj_num(&j, "elapsed_s", 7300);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "signal-kill"), "TIMEOUT's SIGTERM is the timeout's");
	tj_set(&j, "state", "CANCELLED");
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "signal-kill"), "CANCELLED's signal is the cancel's");
	tj_set(&j, "state", "OUT_OF_MEMORY");
	tj_num(&j, "signal", 9);
	run(f, &j, &site_linux, NULL, NULL);
	ok(!find(f, "sigkill"), "an OOM kill is host-oom, not sigkill");
	is_string("SIGXFSZ", sp_signal_name(25), "25 is SIGXFSZ");
	ok(sp_signal_name(99) == NULL, "99 has no name");
}

static void
test_logs(struct sp_findings *f)
{
	struct sp_job j;
	struct sp_logs l;
	struct sp_log file;
	const struct sp_finding *x;
	static const char cuda[] =
		"epoch 1\ntorch.OutOfMemoryError: CUDA out of memory. Tried "
		"to allocate 2.00 GiB\n";
	static const char nccl_fault[] =
		"[rank1]:[E ProcessGroupNCCL.cpp:563] Watchdog caught "
		"collective operation timeout: WorkNCCL(SeqNum=9)\n";
	static const char nccl_benign[] =
		"NCCL version 2.18.1+cuda12.1\ninit backend=nccl\n"
		"Warning: destroy_process_group() was not called\n";
	static const char two_tracebacks[] =
		"Traceback (most recent call last):\n"
		"  File \"a.py\", line 1, in <module>\n"
		"KeyError: 'first'\n"
		"retrying\n"
		"[rank0]: Traceback (most recent call last):\n"
		"[rank0]:   File \"train.py\", line 9, in <module>\n"
		"[rank0]:     main()\n"
		"[rank0]: ValueError: bad shape\n"
		"srun: error: node7: task 0: Exited with exit code 1\n"
		"cleanup done\n";
	static const char long_tb[] =
		"Traceback (most recent call last):\n"
		"  File \"t.py\", line 1, in <module>\n    a()\n"
		"  File \"t.py\", line 2, in a\n    b()\n"
		"  File \"t.py\", line 3, in b\n    c()\n"
		"  File \"t.py\", line 4, in c\n    raise RuntimeError('x')\n"
		"RuntimeError: x\ntrailing noise\n";
	static const char plain[] = "a\n\nb\nc\nd\ne\nf\ng\n\n";

	healthy(&j);
	tj_set(&j, "state", "FAILED");
	tj_num(&j, "exit_code", 1);
	tj_num(&j, "alloc_gpus", 1);
	fake_log(&l, &file, cuda);
	run(f, &j, &site_linux, &l, NULL);
	ok(has(f, "cuda-oom", SP_SEV_CRITICAL, "Raising --mem changes "
	       "nothing"), "CUDA OOM on a GPU job");
	ok(!find(f, "exit-nonzero-nolog") && !find(f, "log-tail"),
	   "a log that explains it: no nolog, no tail");
	tj_num(&j, "alloc_gpus", 0);
	run(f, &j, &site_linux, &l, NULL);
	ok(!find(f, "cuda-oom"), "no CUDA OOM on a job without GPUs");
	ok(has(f, "log-tail", SP_SEV_INFO, "CUDA out of memory"),
	   "the failure's log tail instead");

	tj_num(&j, "alloc_gpus", 2);
	fake_log(&l, &file, nccl_fault);
	run(f, &j, &site_linux, &l, NULL);
	ok(has(f, "nccl", SP_SEV_CRITICAL, "victim"), "an NCCL watchdog "
	   "timeout on two GPUs");
	tj_num(&j, "alloc_gpus", 1);
	tj_num(&j, "ntasks", 1);
	tj_num(&j, "nnodes", 1);
	run(f, &j, &site_linux, &l, NULL);
	ok(!find(f, "nccl"), "one GPU, one task, one node: no collective");
	tj_num(&j, "alloc_gpus", 2);
	fake_log(&l, &file, nccl_benign);
	run(f, &j, &site_linux, &l, NULL);
	ok(!find(f, "nccl"), "NCCL version, backend=nccl and the destroy "
	   "warning are no faults");

	fake_log(&l, &file, "ModuleNotFoundError: No module named 'torch'\n");
	run(f, &j, &site_linux, &l, NULL);
	ok(has(f, "import-error", SP_SEV_CRITICAL, "No module named 'torch'"),
	   "import error, quoting the line");

	fake_log(&l, &file, two_tracebacks);
	run(f, &j, &site_linux, &l, NULL);
	x = find(f, "traceback");
	is_string("The last Python traceback in the log:\n"
		  "Traceback (most recent call last):\n"
		  "  File \"train.py\", line 9, in <module>\n"
		  "    main()\n"
		  "ValueError: bad shape", x ? x->evidence : NULL,
		  "the last traceback, rank prefixes gone, ending at the "
		  "exception line");
	fake_log(&l, &file, long_tb);
	run(f, &j, &site_linux, &l, NULL);
	x = find(f, "traceback");
	is_string("The last Python traceback in the log:\n"
		  "Traceback (most recent call last):\n...\n"
		  "    c()\n"
		  "  File \"t.py\", line 4, in c\n"
		  "    raise RuntimeError('x')\n"
		  "RuntimeError: x", x ? x->evidence : NULL,
		  "a long traceback: the header, an ellipsis, the last four");

	fake_log(&l, &file, plain);
	run(f, &j, &site_linux, &l, NULL);
	x = find(f, "log-tail");
	is_string("The last lines of /logs/x.err:\nb\nc\nd\ne\nf\ng",
		  x ? x->evidence : NULL, "log-tail: the last six non-blank "
		  "lines");
	ok(!find(f, "exit-nonzero-nolog"), "a log was found");

	healthy(&j);
	fake_log(&l, &file, two_tracebacks);
	run(f, &j, &site_linux, &l, NULL);
	is_int(0, (long long)f->n, "a job that completed with 0 is not "
	       "judged by its log");

	healthy(&j);
	tj_set(&j, "state", "FAILED");
	tj_num(&j, "exit_code", 1);
	memset(&l, 0, sizeof l);
	l.looked = 1;
	run(f, &j, &site_linux, &l, NULL);
	ok(has(f, "exit-nonzero-nolog", SP_SEV_WARNING, "no log was found"),
	   "looked and found none: says so");

	/* Issue 15, item 12: FAILED, exit 1, an empty log, no finding. */
	fake_log(&l, &file, "\n  \n");
	run(f, &j, &site_linux, &l, NULL);
	ok(has(f, "exit-nonzero", SP_SEV_WARNING,
	       "Exited 1, and its log (/logs/x.err) is empty."),
	   "an empty log: a non-zero exit is still a finding");
	is_int(1, (long long)f->n, "  the only one");
	tj_set(&j, "state", "SPECIAL_EXIT");
	tj_num(&j, "exit_code", 2);
	fake_log(&l, &file, "working\n");
	run(f, &j, &site_linux, &l, NULL);
	ok(has(f, "exit-nonzero", SP_SEV_WARNING, "nothing in its log"),
	   "a state no rule knows, exit 2: said too");
}

static void
test_gpu(struct sp_findings *f)
{
	struct sp_job j;

	healthy(&j);
	tj_num(&j, "gpu_util", 0.02);
	run(f, &j, &site_cgroup, NULL, NULL);
	ok(has(f, "gpu-idle", SP_SEV_CRITICAL, "2.0%"), "2%% busy: idle");
	tj_num(&j, "gpu_util", 0.3);
	run(f, &j, &site_cgroup, NULL, NULL);
	ok(has(f, "gpu-underused", SP_SEV_WARNING, "30.0%"), "30%%: underused");
	tj_num(&j, "gpu_util", 0.5);
	run(f, &j, &site_cgroup, NULL, NULL);
	ok(!find(f, "gpu-underused") && !find(f, "gpu-idle"), "50%% is fine");

	healthy(&j);
	tj_num(&j, "total_cpu_s", 300);
	run(f, &j, &site_unknown, NULL, NULL);
	ok(has(f, "gpu-suspect-idle", SP_SEV_WARNING, "not recorded by "
	       "Slurm"), "no GPU figure and an idle CPU: suspect, confirm");
	run(f, &j, &site_linux, NULL, NULL);
	ok(has(f, "gpu-suspect-idle", SP_SEV_WARNING, "AutoDetect=nvml"),
	   "a site without gpuutil: says what it needs");
	run(f, &j, &site_cgroup, NULL, NULL);
	ok(has(f, "gpu-suspect-idle", SP_SEV_WARNING, "for this job"),
	   "a site that tracks it: not recorded for this job");
	tj_num(&j, "alloc_gpus", 0);
	run(f, &j, &site_unknown, NULL, NULL);
	ok(!find(f, "gpu-suspect-idle"), "no GPUs, no GPU finding");
}

/* A history of the given jobs, as sp-show builds one from its input. */
static void
history_of(struct sp_hist *h, struct sp_pool *pool, const struct sp_job *v,
	   size_t n)
{
	sp_hist_init(h, pool, "u/p/cpu/w", 9);
	for (size_t i = 0; i < n; i++) {
		struct sp_run r;

		sp_run_of(&r, &v[i]);
		sp_hist_add_run(h, &r);
	}
	sp_hist_finish(h);
}

static void
run_in(struct sp_findings *f, const struct sp_job *j, const struct sp_hist *h)
{
	struct sp_diag d;

	memset(&d, 0, sizeof d);
	d.job = j;
	d.site = &site_linux;
	d.workload = h;
	sp_findings_free(f);
	sp_rules_job(&d, f);
}

/*
 * Issue 14, item 4: one job against its workload.  Its actions name the
 * workload's advice, and say it rests on the workload's runs; a one-run
 * figure is only for a job whose workload has no verdict.
 */
static void
test_workload(struct sp_findings *f)
{
	struct sp_job runs[4];
	struct sp_pool pool = { 0 };
	struct sp_hist h;
	static const double took[4] = { 59090, 50000, 52000, 46371 };
	static const char *const ids[4] = { "1", "2", "3", "4" };

	/* train-web: the longest of the runs took 16:24:50 of 2 days; the
	 * one shown took 12:52:51, which alone would say 16:15:00. */
	for (int i = 0; i < 4; i++) {
		healthy(&runs[i]);
		tj_set(&runs[i], "jobid", ids[i]);
		tj_num(&runs[i], "elapsed_s", took[i]);
		tj_num(&runs[i], "timelimit_s", 172800);
		tj_num(&runs[i], "total_cpu_s", took[i] * 3);
	}
	history_of(&h, &pool, runs, 4);
	run_in(f, &runs[3], &h);
	ok(has(f, "walltime-slack", SP_SEV_INFO, "--time=1-02:30:00 (sp-size's "
	       "advice from 4 runs of this workload)"),
	   "walltime-slack names the workload's 1-02:30:00 (x 1.60, 4 runs), "
	   "not 16:15:00");
	run(f, &runs[3], &site_linux, NULL, NULL);
	ok(has(f, "walltime-slack", SP_SEV_INFO, "--time=16:15:00 (this run "
	       "plus 25%, one run's estimate"), "alone, one run's, said so");

	/* The workload's runs keep the request: one short run is no reason
	 * to cut it. */
	for (int i = 0; i < 3; i++)
		tj_num(&runs[i], "elapsed_s", 150000);
	sp_hist_free(&h);
	history_of(&h, &pool, runs, 4);
	run_in(f, &runs[3], &h);
	ok(!find(f, "walltime-slack"), "no slack where the workload keeps "
	   "the request");

	/* Too few runs for a verdict: one run's figure, and why. */
	sp_hist_free(&h);
	history_of(&h, &pool, runs + 2, 2);
	run_in(f, &runs[3], &h);
	ok(has(f, "walltime-slack", SP_SEV_INFO, "one run's estimate: sp-size "
	       "has no verdict for its workload, which needs 3 completed "
	       "runs; there were 2"), "a workload without a verdict: one "
	   "run's figure, with the reason");
	sp_hist_free(&h);
	sp_pool_free(&pool);
}

static void
test_other(struct sp_findings *f)
{
	struct sp_job j;
	struct sp_jobcalc c;

	healthy(&j);
	run(f, &j, &site_linux, NULL, "midway3-0600 failed 12 of 12 "
	    "placements there");
	ok(has(f, "node-history", SP_SEV_INFO, "failed 12 of 12"),
	   "a node note becomes node-history");

	healthy(&j);
	tj_set(&j, "state", "RUNNING");
	tj_num(&j, "open", 1);
	tj_num(&j, "total_cpu_s", 0);
	tj_num(&j, "elapsed_s", 5356800);
	run(f, &j, &site_linux, NULL, NULL);
	is_int(1, (long long)f->n, "an open record gets one finding");
	ok(has(f, "open-record", SP_SEV_INFO, "End=Unknown"),
	   "open-record, and no phantom idle allocation");

	healthy(&j);
	tj_num(&j, "max_rss_b", 300 * GiB);
	tj_set(&j, "submit", "2026-11-12T10:00:00");
	tj_set(&j, "start", "2026-11-12T10:05:00");
	sp_jobcalc(&c, &j, NULL, 0, &site_linux);
	ok(isnan(c.mem_used) && c.rss_above_limit, "MaxRSS above the limit "
	   "has no percentage");
	is_double(300, c.wait_s, 0, "the queue wait from submit and start");
	is_double(4, c.cpus_per_task, 0, "cpus per task");
	is_double(19899.0 / 27076, c.cpu_util, 1e-9, "CPU use over CPUTime");
}

int
main(void)
{
	struct sp_findings f = { 0 };
	struct sp_buf b = { 0 };

	plan_lazy();
	test_restraint(&f, &b);
	test_walltime(&f);
	test_memory(&f);
	test_noop(&f);
	test_cpu(&f);
	test_parallel(&f);
	test_states(&f);
	test_signals(&f);
	test_logs(&f);
	test_gpu(&f);
	test_workload(&f);
	test_other(&f);
	sp_findings_free(&f);
	sp_buf_free(&b);
	return done_testing();
}
