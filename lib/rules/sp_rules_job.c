/*
 * sp_rules_job.c - the rules that read one job's record.  Each reads
 * the derived values of sp_jobcalc and says what it saw (evidence) and
 * what to do (action) in sentences a user can act on without this
 * program; the figures an action names come from sp_pick.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sp_advice.h"
#include "sp_const.h"
#include "sp_hist.h"
#include "sp_record.h"
#include "sp_rules_job.h"
#include "sp_state.h"
#include "sp_suggest.h"
#include "sp_units.h"
#include "sp_verdict.h"

static enum sp_gather
gather_of(const struct sp_site *site)
{
	return site != NULL && site->known ? site->gather : SP_GATHER_UNKNOWN;
}

/*
 * The caveats of the site's gather type, as one sentence each: what
 * MaxRSS measures here, and what TotalCPU misses.  Appended to b.
 */
static void
caveat_rss(struct sp_buf *b, const struct sp_site *site)
{
	switch (gather_of(site)) {
	case SP_GATHER_LINUX:
		sp_buf_adds(b, "Under jobacct_gather/linux MaxRSS adds up the "
			    "resident pages of every process, counting shared "
			    "pages once per process: an upper bound.");
		break;
	case SP_GATHER_CGROUP:
		sp_buf_adds(b, "Under jobacct_gather/cgroup MaxRSS is the "
			    "cgroup's own high-water mark, page cache "
			    "included.");
		break;
	default:
		sp_buf_adds(b, "How this cluster gathers memory is not known "
			    "here; MaxRSS may count shared pages once per "
			    "process, so read it as an upper bound.");
		break;
	}
}

static void
caveat_cpu(struct sp_buf *b, const struct sp_site *site)
{
	switch (gather_of(site)) {
	case SP_GATHER_LINUX:
		sp_buf_adds(b, "Under jobacct_gather/linux TotalCPU misses "
			    "worker processes that detach from the job's "
			    "process tree: a lower bound.");
		break;
	case SP_GATHER_CGROUP:
		sp_buf_adds(b, "Under jobacct_gather/cgroup TotalCPU counts "
			    "detached workers too.");
		break;
	default:
		sp_buf_adds(b, "How this cluster gathers CPU time is not known "
			    "here; TotalCPU may miss workers that detach from "
			    "the job's process tree.");
		break;
	}
}

/*
 * This job as the cross-run rules read a run, with what this view
 * measured where it knows more than the record alone (the widest step's
 * tasks, the steps' CPU time, a limit given only in total): the figures
 * an action suggests rest on the numbers its evidence quotes.
 */
static void
view_run(struct sp_run *r, const struct sp_job *j,
	 const struct sp_jobcalc *c)
{
	sp_run_of(r, j);
	r->limit_b = c->mem_limit_b;
	r->rss_b = j->max_rss_b >= 0 ? j->max_rss_b : NAN;
	r->cpt = c->cpus_per_task;
	r->cpu_time_s = c->cpu_capacity_s;
}

/* ------------------------------------------------------------------ */
/* Rules                                                              */

struct ctx {
	const struct sp_diag *d;
	const struct sp_job *j;
	struct sp_jobcalc c;
	struct sp_findings *out;
	size_t from;		/* this job's first finding in out */
	struct sp_draft dr;	/* the finding being written */
	struct sp_words w;	/* its numbers in words */
	char *state;		/* decoded */
	/* The evidence the figures of the actions rest on: this job as a
	 * history of one, read by the rules sp-size reads a workload by. */
	struct sp_pool pool;
	struct sp_hist one;
	/* The figures the actions name (sp_pick): the workload's advice
	 * where it has a verdict, else this run's own; read on first use. */
	struct sp_size_site wsite;
	struct sp_pick picks[SP_FLAG_N];
	unsigned picked;
	struct sp_buf src;	/* where a figure comes from, in words */
};

/* Writes the evidence, then the action, of the finding being written. */
static void
ev(struct ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void
act(struct ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
ev(struct ctx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sp_buf_vprintf(&x->dr.ev, fmt, ap);
	va_end(ap);
}

static void
act(struct ctx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sp_buf_vprintf(&x->dr.act, fmt, ap);
	va_end(ap);
}

/* Adds the finding written so far. */
static void
add(struct ctx *x, const char *code, enum sp_severity sev)
{
	sp_findings_add(x->out, code, sev, &x->dr);
}

static int
state_is(const struct ctx *x, const char *s)
{
	return strcmp(x->state, s) == 0;
}

static int
thin(const struct ctx *x)
{
	return sp_thin(x->c.samples);
}

/* The margin a flag's rule adds, in percent. */
static double
margin_pct(enum sp_flag f)
{
	return (sp_suggest_margin(f) - 1) * 100;
}

/* The figure an action names for flag f (sp_pick). */
static const struct sp_pick *
pick(struct ctx *x, enum sp_flag f)
{
	struct sp_pick *p = &x->picks[f];

	if (!(x->picked & 1u << f)) {
		sp_pick(x->d->workload, &x->wsite, &x->one, f, p);
		x->picked |= 1u << f;
	}
	return p;
}

/*
 * Where a picked figure comes from: "sp-size's advice from 21 runs of
 * this workload", or, for one run's own, how it is made (margin) and
 * why it stands alone.
 */
static const char *
source(struct ctx *x, const struct sp_pick *p, const char *what)
{
	sp_buf_clear(&x->src);
	if (p->from == SP_PICK_RUN && (p->flag == SP_FLAG_CPUS ||
				       p->flag == SP_FLAG_GPUS))
		sp_buf_printf(&x->src, "%s, rounded up, ", what);
	else if (p->from == SP_PICK_RUN)
		sp_buf_printf(&x->src, "%s plus %.0f%%, ", what,
			      margin_pct(p->flag));
	sp_pick_source(&x->src, p, x->d->no_workload);
	return sp_buf_str(&x->src);
}

/*
 * Whether the pick asks for less than the job had: a figure below its
 * request from this run alone, or the workload's own lower.  Where the
 * workload's runs keep (or raise) the request, one short run is no
 * reason to cut it.
 */
static int
tighter(const struct sp_pick *p, double current)
{
	if (!sp_known(p->value) || !(p->value < current))
		return 0;
	return p->from == SP_PICK_RUN ||
	    (p->from == SP_PICK_WORKLOAD && p->adv.verdict == SP_V_LOWER);
}


/* " At most N samples in E: the peak may be higher than any of them." */
static void
say_thin(struct ctx *x, struct sp_buf *b)
{
	if (thin(x))
		sp_buf_printf(b, " At most %.0f samples were taken in %s, so "
			      "the real peak may lie between them.",
			      x->c.samples, sp_dur(&x->w, x->j->elapsed_s));
}

static void
rule_open(struct ctx *x)
{
	const struct sp_live *l = x->d->live;

	if (l != NULL && l->known) {
		/* sstat read its steps: it runs, no squeue needed. */
		ev(x, "State=%s, read at %.*s (sstat): its figures are so far, "
		   "not its end.", x->state, (int)l->at.n, l->at.p);
		act(x, "Read it again when it ends for its whole record.");
	} else {
		ev(x, "State=%s with End=Unknown: the elapsed time runs to "
		   "the moment of the query, not to an end.", x->state);
		act(x, "Check squeue: if the job still runs, read it again "
		    "when it ends; if squeue has never heard of it, the "
		    "record is an artefact left by the controller and "
		    "nothing is running.");
	}
	add(x, "open-record", SP_SEV_INFO);
}

/* The CPU caveat only where it changes the reading (not cgroup). */
static void
say_cpu_doubt(struct ctx *x, struct sp_buf *b)
{
	if (gather_of(x->d->site) != SP_GATHER_CGROUP) {
		sp_buf_addc(b, ' ');
		caveat_cpu(b, x->d->site);
	}
}

/* What a job cut off while computing should ask for next. */
static void
timeout_action(struct ctx *x)
{
	const struct sp_job *j = x->j;
	const struct sp_pick *p = pick(x, SP_FLAG_TIME);
	enum sp_verdict v = p->adv.verdict;

	if (p->from == SP_PICK_WORKLOAD && v == SP_V_HOLD) {
		act(x, "Do not raise --time yet: most of this workload's "
		    "timeouts computed nothing, and a longer limit buys a "
		    "longer hang (sp-size holds it, from %.0f runs). Find "
		    "the blocking call first.", (double)p->runs);
	} else if (p->from == SP_PICK_WORKLOAD && v == SP_V_KEEP &&
		   p->value > j->timelimit_s) {
		act(x, "This workload now asks for --time=%s, which "
		    "its %.0f runs support (sp-size keeps it).",
		    sp_buf_str(&p->text), (double)p->runs);
	} else if (p->from == SP_PICK_WORKLOAD && p->value > j->timelimit_s) {
		act(x, "Raise --time to %s (%s).",
		    sp_buf_str(&p->text), source(x, p, "this run"));
	} else {
		act(x, "Raise --time well above %s: a timed-out run "
		    "only shows the work takes longer than that, not how much "
		    "longer.", sp_hms(&x->w, j->timelimit_s));
	}
	act(x, " Checkpoint, so the next timeout loses less.");
}

/*
 * A timeout whose record cannot tell a hang from work cut off: only a
 * timeout, with no raise (a hung job would be told to hang longer).
 */
static void
rule_timeout_unsure(struct ctx *x, enum sp_timeout cause)
{
	const struct sp_job *j = x->j;

	ev(x, "Ran out of wall clock at its %s limit after %s.",
	   sp_dur(&x->w, j->timelimit_s), sp_dur(&x->w, j->elapsed_s));
	if (cause == SP_TO_UNKNOWN)
		ev(x, " %s is not in this record, so whether it was working "
		   "or hung cannot be told.", sp_known(j->total_cpu_s) ?
		   "Its elapsed time (elapsed_s)" : "CPU time (total_cpu_s)");
	else
		ev(x, " It used %s of CPU in under %s: too short to "
		   "tell a hang from a wait.", sp_dur(&x->w, j->total_cpu_s),
		   sp_dur(&x->w, SP_NOOP_MIN_ELAPSED_S));
	act(x, "Find out before raising --time: a longer limit only "
	    "helps work that was cut off; a hung job would just hang longer. "
	    "The log's last lines%s say which.", cause == SP_TO_UNKNOWN ?
	    ", or the CPU time (sacct -o TotalCPU)," : "");
	add(x, "timeout", SP_SEV_WARNING);
}

static void
rule_walltime(struct ctx *x)
{
	const struct sp_job *j = x->j;

	if (state_is(x, "TIMEOUT")) {
		enum sp_timeout cause = sp_timeout_cause(j->elapsed_s,
							 j->total_cpu_s);

		if (cause == SP_TO_UNKNOWN || cause == SP_TO_SHORT) {
			rule_timeout_unsure(x, cause);
			return;
		}
		if (cause == SP_TO_HUNG) {
			ev(x, "Held the allocation for %s, to its limit, but "
			   "used %s of CPU: blocked, not slow.",
			   sp_dur(&x->w, j->elapsed_s),
			   sp_dur(&x->w, j->total_cpu_s));
			say_cpu_doubt(x, &x->dr.ev);
			act(x, "Do not raise --time: a longer limit "
			    "buys a longer hang. Find what it waited on: a "
			    "data read that never returned, a lock, ranks "
			    "waiting for each other, an interactive prompt.");
			add(x, "timeout-hang", SP_SEV_CRITICAL);
			return;
		}
		ev(x, "Ran out of wall clock at its %s limit while working "
		   "(%s of CPU).", sp_dur(&x->w, j->timelimit_s),
		   sp_dur(&x->w, j->total_cpu_s));
		timeout_action(x);
		add(x, "timeout-real", SP_SEV_CRITICAL);
		return;
	}
	if (state_is(x, "COMPLETED") && !x->c.noop &&
	    x->c.walltime_used < SP_FIND_WALLTIME_SLACK) {
		const struct sp_pick *p = pick(x, SP_FLAG_TIME);

		/* Nothing to do where the figure is no tighter. */
		if (!tighter(p, j->timelimit_s))
			return;
		ev(x, "Used %s of its %s limit (%s).",
		   sp_dur(&x->w, j->elapsed_s), sp_dur(&x->w, j->timelimit_s),
		   sp_pct(&x->w, x->c.walltime_used));
		act(x, "A tighter --time=%s (%s) starts sooner: short "
		    "jobs fit the scheduler's backfill gaps.",
		    sp_buf_str(&p->text), source(x, p, "this run"));
		add(x, "walltime-slack", SP_SEV_INFO);
	}
}

/* "keeps --mem=800G", "raises --mem to 94G": a workload's verdict. */
static const char *
verdict_words(struct ctx *x, const struct sp_pick *p)
{
	const char *flag = sp_flag_name(p->flag), *v = sp_buf_str(&p->text);

	sp_buf_clear(&x->src);
	switch (p->adv.verdict) {
	case SP_V_RAISE:
		sp_buf_printf(&x->src, "raises %s to %s", flag, v);
		break;
	case SP_V_LOWER:
		sp_buf_printf(&x->src, "lowers %s to %s", flag, v);
		break;
	case SP_V_CAPPED:
		sp_buf_printf(&x->src, "caps %s at %s", flag, v);
		break;
	default:
		sp_buf_printf(&x->src, "keeps %s=%s", flag, v);
		break;
	}
	return sp_buf_str(&x->src);
}

static const char *const hold_less = "hold less at once: fewer "
	"dataloader workers, a smaller prefetch or cache.";

/* What a job killed for memory at limit should ask for next. */
static void
oom_action(struct ctx *x, double limit)
{
	const struct sp_pick *p = pick(x, SP_FLAG_MEM);
	enum sp_verdict v = p->adv.verdict;

	if (p->from == SP_PICK_WORKLOAD && v == SP_V_HOLD &&
	    sp_known(p->value) && !(sp_known(limit) && limit >= p->value)) {
		/* Killed below the size known to complete: that size. */
		act(x, "Raise --mem to %s, the size this workload is held "
		    "at: %s (sp-size, from %.0f runs of this workload). Find "
		    "what else changed between the runs: workers, batch size, "
		    "input shard.", sp_buf_str(&p->text),
		    sp_buf_str(&p->adv.basis), (double)p->runs);
	} else if (p->from == SP_PICK_WORKLOAD && v == SP_V_HOLD) {
		act(x, "Do not raise --mem: %s (sp-size holds it, "
		    "from %.0f runs of this workload). Find what else changed "
		    "between the runs: workers, batch size, input shard.",
		    sp_buf_str(&p->adv.basis), (double)p->runs);
	} else if (p->from == SP_PICK_WORKLOAD && v == SP_V_CAPPED) {
		act(x, "This workload asks for --mem=%s, as much as "
		    "the partition's nodes have (sp-size caps it there, from "
		    "%.0f runs): %s Or use a partition with larger nodes.",
		    sp_buf_str(&p->text), (double)p->runs, hold_less);
	} else if (p->from == SP_PICK_WORKLOAD && v == SP_V_KEEP &&
		   sp_known(p->value)) {
		act(x, "This workload now asks for --mem=%s, which its %.0f "
		    "runs support (sp-size keeps it); if that is killed too, "
		    "%s", sp_buf_str(&p->text), (double)p->runs, hold_less);
	} else if (sp_known(p->value) && sp_known(limit) &&
		   p->value > limit) {
		act(x, "Raise --mem to %s (%s), or %s",
		    sp_buf_str(&p->text),
		    source(x, p, "the size that was killed"), hold_less);
	} else {
		act(x, "Raise --mem, or %s", hold_less);
	}
}

static void
rule_memory(struct ctx *x)
{
	const struct sp_job *j = x->j;
	double limit = x->c.mem_limit_b, rss = j->max_rss_b;

	if (state_is(x, "OUT_OF_MEMORY")) {
		if (!sp_known(limit)) {
			ev(x, "Killed for memory; the record does "
			   "not say what the limit was.");
		} else if (x->c.rss_above_limit) {
			ev(x, "Killed for memory at %s per node. "
			   "MaxRSS reads %s, above that limit, which no "
			   "working set can do: do not size --mem from it. ",
			   sp_bytes(&x->w, limit), sp_bytes(&x->w, rss));
			caveat_rss(&x->dr.ev, x->d->site);
		} else if (sp_known(rss)) {
			ev(x, "Killed for memory at %s per node; the highest "
			   "sample was %s (%s). Samples are a floor: the "
			   "peak reached the limit between them.",
			   sp_bytes(&x->w, limit), sp_bytes(&x->w, rss),
			   sp_pct(&x->w, x->c.mem_used));
			say_thin(x, &x->dr.ev);
		} else {
			ev(x, "Killed for memory at %s per node before any "
			   "memory sample was taken.", sp_bytes(&x->w, limit));
		}
		oom_action(x, limit);
		add(x, "host-oom", SP_SEV_CRITICAL);
		return;
	}
	if (x->c.rss_above_limit) {
		if (x->j->state.n == 0)
			ev(x, "MaxRSS reads %s, above the %s limit per node, "
			   "and the state is not recorded (state): killed for "
			   "it or not, the figure cannot be the footprint. ",
			   sp_bytes(&x->w, rss), sp_bytes(&x->w, limit));
		else
			ev(x, "MaxRSS reads %s, above the %s limit per node, "
			   "yet the job was not killed: the figure cannot be "
			   "this job's footprint. ", sp_bytes(&x->w, rss),
			   sp_bytes(&x->w, limit));
		caveat_rss(&x->dr.ev, x->d->site);
		act(x, "Do not size --mem from it. Measure the working "
		    "set live while the job runs (sstat, the cgroup's "
		    "memory.peak, or slurmwatch).");
		add(x, "rss-above-limit", SP_SEV_WARNING);
		return;
	}
	if (state_is(x, "COMPLETED") && !x->c.noop &&
	    x->c.mem_used < SP_FIND_MEM_SLACK &&
	    limit - rss >= SP_FIND_MEM_SLACK_MIN_B) {
		const struct sp_pick *p = pick(x, SP_FLAG_MEM);

		if (!tighter(p, limit))
			return;
		ev(x, "Peak %s of %s per node (%s): %s never used.",
		   sp_bytes(&x->w, rss), sp_bytes(&x->w, limit),
		   sp_pct(&x->w, x->c.mem_used), sp_bytes(&x->w, limit - rss));
		say_thin(x, &x->dr.ev);
		act(x, "Try --mem=%s (%s). ", sp_buf_str(&p->text),
		    source(x, p, "the peak"));
		caveat_rss(&x->dr.act, x->d->site);
		add(x, "memory-slack", SP_SEV_INFO);
	}
}

/* States whose own finding explains idle CPU: the CPU rules stay out. */
static int
cpu_exempt(const struct ctx *x)
{
	enum sp_state st = sp_state_of(x->j->state);

	return st == SP_ST_TIMEOUT || sp_state_explains_idle(st);
}

static void
say_gpus(struct ctx *x, struct sp_buf *b)
{
	if (!(x->c.gpus > 0))
		return;
	sp_buf_printf(b, " with %.0f GPU%s", x->c.gpus,
		      x->c.gpus == 1 ? "" : "s");
	if (sp_known(x->c.gpu_hours))
		sp_buf_printf(b, " (%.1f GPU-hours)", x->c.gpu_hours);
}

/* Whether only one of read and write is known: the total is a floor. */
static int
io_partial(const struct sp_job *j)
{
	return sp_known(j->read_b) != sp_known(j->write_b);
}

/* "read 300.0 GiB and wrote 298.0 GiB", naming a side not recorded. */
static void
say_moved(struct ctx *x, int first)
{
	const struct sp_job *j = x->j;

	if (sp_known(j->read_b) && sp_known(j->write_b))
		ev(x, "%s %s and wrote %s", first ? "Read" : "read",
		   sp_bytes(&x->w, j->read_b), sp_bytes(&x->w, j->write_b));
	else if (sp_known(j->read_b))
		ev(x, "%s %s (writes not recorded: no write_b)",
		   first ? "Read" : "read", sp_bytes(&x->w, j->read_b));
	else
		ev(x, "%s %s (reads not recorded: no read_b)",
		   first ? "Wrote" : "wrote", sp_bytes(&x->w, j->write_b));
}

static void
rule_noop(struct ctx *x)
{
	const struct sp_job *j = x->j;
	enum sp_gather g = gather_of(x->d->site);

	ev(x, "Held the allocation for %s", sp_dur(&x->w, j->elapsed_s));
	say_gpus(x, &x->dr.ev);
	ev(x, " and used %s of CPU in all.", sp_dur(&x->w, j->total_cpu_s));
	if (sp_job_io_explains(j)) {
		/* Moving data is work; "nothing was computed" would be false. */
		ev(x, " It computed almost nothing because it was moving "
		   "data: ");
		say_moved(x, 0);
		ev(x, " (%s%s/s).", io_partial(j) ? "at least " : "",
		   sp_bytes(&x->w, x->c.io_rate));
		act(x, "If the transfer is the job, give it a "
		    "transfer node or fewer resources; if not, stage the data "
		    "before the allocation starts.");
		add(x, "noop-allocation", SP_SEV_WARNING);
		return;
	}
	if (x->j->state.n == 0) {
		/* A timeout, a kill or a node failure would explain it. */
		ev(x, " Its state is not recorded (state), so whether how it "
		   "ended explains the idle CPU cannot be told.");
		act(x, "Read its state (sacct -j ID -o State) before looking "
		    "for a blocking call.");
		add(x, "noop-allocation", SP_SEV_WARNING);
		return;
	}
	if (g == SP_GATHER_CGROUP) {
		ev(x, " Nothing was computed.");
		act(x, "Find the blocking call: a data read that "
		    "never returned, a lock, ranks waiting for each other, "
		    "an interactive prompt. sp-hang lists every such "
		    "allocation.");
	} else {
		ev(x, " No CPU time was attributed to it. ");
		caveat_cpu(&x->dr.ev, x->d->site);
		act(x, "If the work ran in a pool that detaches from "
		    "the job (daemonised workers, some container runtimes), "
		    "it was not counted; otherwise find the blocking call: a "
		    "data read that never returned, a lock, ranks waiting "
		    "for each other, an interactive prompt.");
	}
	add(x, "noop-allocation", SP_SEV_CRITICAL);
}

/* What a job that idled its cores should ask for next. */
static void
cpu_action(struct ctx *x)
{
	const struct sp_pick *p = pick(x, SP_FLAG_CPUS);
	double cpt = x->c.cpus_per_task;

	if (tighter(p, cpt)) {
		act(x, "Try --cpus-per-task=%s (%s), unless dataloader "
		    "workers or a detached pool do the work%s.",
		    sp_buf_str(&p->text), source(x, p, "this run's busy cores "
		    "per task"), x->c.tasks > 1 ? " (it is per task)" : "");
	} else if (p->from == SP_PICK_WORKLOAD && sp_known(p->value)) {
		act(x, "Across this workload's %.0f runs sp-size %s: "
		    "the cores this run left idle are its own (its input, or a "
		    "wait on I/O or on another job).", (double)p->runs,
		    verdict_words(x, p));
	} else if (!sp_known(cpt)) {
		act(x, "How many cores each task had is unknown (the record "
		    "has no ntasks), so no --cpus-per-task is suggested: find "
		    "what the cores waited on first.");
	} else if (x->c.tasks > 1 && sp_known(p->value)) {
		/* Never the current value as a change. */
		act(x, "--cpus-per-task is already %s: the idle cores are "
		    "whole tasks, so ask for fewer tasks (--ntasks), unless "
		    "the work needs them all at moments the average hides.",
		    sp_buf_str(&p->text));
	}
}

static void
rule_cpu(struct ctx *x)
{
	const struct sp_job *j = x->j;

	if (x->c.open || cpu_exempt(x))
		return;
	if (x->c.noop) {
		rule_noop(x);
		return;
	}
	if (!(j->elapsed_s >= SP_FIND_CPU_MIN_ELAPSED_S) ||
	    !(x->c.cores > 1) || !(x->c.cpu_util < SP_FIND_CPU_OVERREQUEST))
		return;
	ev(x, "Used %s of %.0f cores", sp_pct(&x->w, x->c.cpu_util),
	   x->c.cores);
	if (x->c.tasks > 1)
		ev(x, " across %.0f tasks", x->c.tasks);
	ev(x, ", about %.1f cores of real work.", x->c.busy_cores);
	say_cpu_doubt(x, &x->dr.ev);
	cpu_action(x);
	add(x, "cpu-overrequest", SP_SEV_WARNING);
}

static void
rule_kernel(struct ctx *x)
{
	const struct sp_job *j = x->j;

	if (x->c.open || x->c.noop || !(j->total_cpu_s >= SP_FIND_SYS_MIN_CPU_S) ||
	    !(x->c.sys_fraction >= SP_FIND_SYS_FRACTION))
		return;
	ev(x, "%s of its CPU time went to the kernel (%s of %s), not to the "
	   "program itself.", sp_pct(&x->w, x->c.sys_fraction),
	   sp_dur(&x->w, j->sys_cpu_s), sp_dur(&x->w, j->total_cpu_s));
	act(x, "That is system-call overhead, usually I/O in small "
	    "pieces or many small files: read in larger blocks, pack small "
	    "files into one (tar, HDF5, WebDataset), keep hot data on "
	    "node-local disk.");
	add(x, "system-cpu-heavy", SP_SEV_WARNING);
}

static void
rule_io(struct ctx *x)
{
	const struct sp_job *j = x->j;

	if (x->c.open || !(x->c.io_b >= SP_IO_MIN_BYTES) ||
	    !(x->c.io_rate >= SP_IO_MIN_RATE))
		return;
	say_moved(x, 1);
	ev(x, " in %s: %s%s/s sustained.", sp_dur(&x->w, j->elapsed_s),
	   io_partial(j) ? "at least " : "", sp_bytes(&x->w, x->c.io_rate));
	act(x, "Check which storage it hit: stage the data to the "
	    "fast scratch tier or node-local disk before the work starts.");
	add(x, "io-heavy", SP_SEV_WARNING);
}

static char *
text(struct sp_slice s)
{
	struct sp_buf b = { 0 };

	sp_field_decode(&b, s.p, s.n);
	sp_buf_add(&b, "", 0);	/* an empty field leaves b unterminated */
	return b.p;
}

static void
rule_parallel(struct ctx *x)
{
	const struct sp_job *j = x->j;

	if (!(x->c.tasks > 1))
		return;
	if (x->c.straggler >= SP_FIND_STRAGGLER_SPREAD) {
		char *task = text(j->min_cpu_task), *node = text(j->min_cpu_node);

		ev(x, "The slowest task");
		if (*task && *node)
			ev(x, " (task %s on %s)", task, node);
		else if (*node)
			ev(x, " (on %s)", node);
		ev(x, " used %s less CPU than the average task (%s against "
		   "%s).", sp_pct(&x->w, x->c.straggler),
		   sp_dur(&x->w, j->min_cpu_s), sp_dur(&x->w, j->ave_cpu_s));
		act(x, "The other tasks waited for it: look for "
		    "uneven shards of data, a slow or shared node, or one "
		    "rank doing extra work.");
		add(x, "straggler", SP_SEV_WARNING);
		free(task);
		free(node);
	}
	if (x->c.imbalance >= SP_FIND_TASK_MEM_IMBALANCE) {
		ev(x, "One task held %.1fx the tasks' mean memory (MaxRSS "
		   "%s).", x->c.imbalance, sp_bytes(&x->w, j->max_rss_b));
		act(x, "--mem is set by that one task: spread what it "
		    "holds (a rank gathering every result is the usual "
		    "cause), or give it a node of its own.");
		add(x, "task-memory-imbalance", SP_SEV_INFO);
	}
}

/*
 * Major faults matter at a rate, not a count: 2,048 over hours cost
 * seconds.  And they come from memory pressure only near the limit;
 * below it they are files read through memory (mmap'd input, a cold page
 * cache), which more memory does not cure.
 */
static void
rule_paging(struct ctx *x)
{
	const struct sp_job *j = x->j;
	double pages = j->max_pages, used = x->c.mem_used;
	const struct sp_pick *p;

	if (!(pages >= SP_FIND_PAGING_MIN_PAGES) || !(j->elapsed_s > 0) ||
	    !(pages / j->elapsed_s >= SP_FIND_PAGING_MIN_RATE))
		return;
	ev(x, "%.0f major page faults in %s (%.1f a second): the job "
	   "waited on the disk for pages.", pages, sp_dur(&x->w, j->elapsed_s),
	   pages / j->elapsed_s);
	if (sp_known(used) && used < SP_FIND_PAGING_NEAR_LIMIT) {
		ev(x, " Its peak, %s, stayed at %s of the limit, so memory "
		   "was not short.", sp_bytes(&x->w, j->max_rss_b),
		   sp_pct(&x->w, used));
		act(x, "Do not raise --mem for this: faults far below "
		    "the limit come from files read through memory (a "
		    "memory-mapped input, a cold page cache on first read). "
		    "Read the input sequentially, or stage it to node-local "
		    "disk.");
	} else {
		p = pick(x, SP_FLAG_MEM);
		if (sp_known(used))
			ev(x, " Its peak reached %s of the limit.",
			   sp_pct(&x->w, used));
		act(x, "Raise --mem");
		if (p->from == SP_PICK_WORKLOAD &&
		    p->adv.verdict == SP_V_RAISE)
			act(x, " to %s (%s)", sp_buf_str(&p->text),
			    source(x, p, "the peak"));
		act(x, " or shrink the working set%s; a memory-mapped "
		    "input or a cold page cache faults the same way.",
		    sp_known(used) ? "" : " if the peak was near the limit");
	}
	add(x, "paging", SP_SEV_WARNING);
}

static void
rule_cancelled(struct ctx *x)
{
	const struct sp_job *j = x->j;
	char *by = text(j->cancelled_by), *user = text(j->user);
	double byuid;
	int numeric = sp_strtod_full(by, &byuid) == 0;
	int self = 0, root = 0, other = 0;

	if (numeric) {
		root = byuid == 0;
		self = sp_known(j->uid) && byuid == j->uid;
		other = !self && !root && sp_known(j->uid);
	} else if (*by) {
		root = strcmp(by, "root") == 0;
		self = *user && strcmp(by, user) == 0;
		other = !self && !root && *user;
	}
	if (root && !(sp_known(j->uid) && j->uid == 0)) {
		char *id = text(j->jobid);

		ev(x, "Cancelled by root after %s, not by you: "
		   "maintenance, a QOS or association limit, or a dependency "
		   "that could never be met.", sp_dur(&x->w, j->elapsed_s));
		act(x, "If the reason is not clear, ask the "
		    "administrators (sacct -j %s -o Reason shows the "
		    "scheduler's).", *id ? id : "ID");
		add(x, "cancelled-by-other", SP_SEV_INFO);
		free(id);
	} else if (other) {
		ev(x, "Cancelled after %s by %s%s, another user.",
		   sp_dur(&x->w, j->elapsed_s), numeric ? "uid " : "", by);
		if (numeric)
			act(x, "Find who holds that uid (getent "
			    "passwd %s): a colleague, a workflow manager's "
			    "account, an administrator.", by);
		else
			act(x, "Ask %s why: a colleague, a workflow "
			    "manager's account, an administrator.", by);
		add(x, "cancelled-by-other", SP_SEV_INFO);
	} else {
		ev(x, "Cancelled after %s, not failed",
		   sp_dur(&x->w, j->elapsed_s));
		if (self)
			ev(x, " (by its owner).");
		else if (*by)
			ev(x, " (by %s%s).", numeric ? "uid " : "",
			   by);
		else
			ev(x, "; the record does not say by whom (no "
			   "cancelled_by).");
		add(x, "cancelled", SP_SEV_INFO);
	}
	free(by);
	free(user);
}

/* The exit code read as the shell's 128+N report of a signal, or 0. */
static int
shell_signal(double code)
{
	if (code > 128 && code < 160 && sp_signal_name((int)code - 128))
		return (int)code - 128;
	return 0;
}

static const char *
signal_advice(int sig)
{
	switch (sig) {
	case 9:
		return "Something outside the program killed it: a wrapper's "
		       "timeout, a watchdog, or the node's OOM killer "
		       "(memory outside the job's cgroup). Check the log's "
		       "last lines and the node's kernel log.";
	case 11:
	case 7:
		return "A crash in native code (a C extension, a driver, a "
		       "library built for another CPU): rerun with "
		       "faulthandler or under gdb to see where.";
	case 6:
		return "The program aborted itself (an assertion, abort(), a "
		       "C++ exception nobody caught): the log's last lines "
		       "say which.";
	case 15:
	case 1:
	case 2:
		return "It was asked to stop: look for a wrapper, a timeout "
		       "command, or a person or workflow that sent it.";
	case 24:
	case 25:
		return "A resource limit (ulimit) of the job's shell was "
		       "exceeded: check ulimit -a inside the job.";
	default:
		return "Look for a wrapper, a watchdog or a timeout that "
		       "sends signals.";
	}
}

/* 1 when the job ended with a state whose own finding explains it. */
static int
state_rules(struct ctx *x)
{
	const struct sp_job *j = x->j;

	if (state_is(x, "CANCELLED")) {
		rule_cancelled(x);
	} else if (state_is(x, "NODE_FAIL")) {
		ev(x, "A node failed under the job after %s; the usage "
		   "figures are near zero or missing.",
		   sp_dur(&x->w, j->elapsed_s));
		act(x, "Not your code: resubmit. If one node keeps "
		    "failing your jobs, sp-nodes shows whether it is worse "
		    "than the rest.");
		add(x, "node-failed", SP_SEV_WARNING);
	} else if (state_is(x, "BOOT_FAIL")) {
		ev(x, "The node never came up for the job; none of "
		   "its work ran.");
		act(x, "Resubmit; tell the administrators if it "
		    "happens again on the same node.");
		add(x, "boot-failed", SP_SEV_WARNING);
	} else if (state_is(x, "DEADLINE")) {
		ev(x, "Killed at its --deadline after %s, not at its "
		   "time limit.", sp_dur(&x->w, j->elapsed_s));
		act(x, "A longer --time changes nothing: move the "
		    "deadline or start the work earlier.");
		add(x, "deadline", SP_SEV_CRITICAL);
	} else if (state_is(x, "PREEMPTED")) {
		ev(x, "Preempted after %s: a job of higher priority "
		   "took the nodes back.", sp_dur(&x->w, j->elapsed_s));
		act(x, "Checkpoint and submit with --requeue, or use "
		    "a QOS that is not preemptible.");
		add(x, "preempted", SP_SEV_INFO);
	} else {
		return 0;
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* What the logs say                                                  */

struct line {
	const char *p;
	size_t n;
};

/* Case-insensitive search within one line. */
static int
line_has(struct line l, const char *needle, int nocase)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= l.n; i++)
		if ((nocase ? strncasecmp(l.p + i, needle, k) :
			      strncmp(l.p + i, needle, k)) == 0)
			return 1;
	return 0;
}

/* The text of every log found, error first: a line at a time. */
struct logscan {
	const struct sp_logs *logs;
	size_t file;
	size_t off;
};

static int
next_line(struct logscan *s, struct line *l)
{
	while (s->logs != NULL && s->file < s->logs->n) {
		const struct sp_buf *t = &s->logs->v[s->file].tail;
		const char *nl;

		if (s->off >= t->len) {
			s->file++;
			s->off = 0;
			continue;
		}
		l->p = t->p + s->off;
		nl = memchr(l->p, '\n', t->len - s->off);
		l->n = nl ? (size_t)(nl - l->p) : t->len - s->off;
		s->off += l->n + 1;
		return 1;
	}
	return 0;
}

/* The last line holding any marker; 1 when one was found. */
static int
find_marker(const struct sp_logs *logs, const char *const *markers,
	    int nocase, struct line *found)
{
	struct logscan s = { logs, 0, 0 };
	struct line l;
	int any = 0;

	while (next_line(&s, &l)) {
		for (const char *const *m = markers; *m; m++) {
			if (line_has(l, *m, nocase)) {
				*found = l;
				any = 1;
				break;
			}
		}
	}
	return any;
}

/* A line of a log quoted in evidence: trimmed, cut if very long. */
static void
say_line(struct sp_buf *b, struct line l)
{
	enum { MAX = 300 };

	while (l.n > 0 && (l.p[0] == ' ' || l.p[0] == '\t')) {
		l.p++;
		l.n--;
	}
	while (l.n > 0 && (l.p[l.n - 1] == ' ' || l.p[l.n - 1] == '\t'))
		l.n--;
	if (l.n > MAX) {
		sp_buf_add(b, l.p, MAX);
		sp_buf_adds(b, "...");
	} else {
		sp_buf_add(b, l.p, l.n);
	}
}

static int
rule_cuda_oom(struct ctx *x)
{
	static const char *const m[] = { "CUDA out of memory",
		"CUDA error: out of memory", "OutOfMemoryError: CUDA",
		"torch.cuda.OutOfMemoryError", "CUDA_ERROR_OUT_OF_MEMORY",
		"cudaErrorMemoryAllocation", "HIP out of memory",
		"hipErrorOutOfMemory", "RESOURCE_EXHAUSTED: Out of memory",
		NULL };
	struct line l;

	if (!(x->c.gpus > 0) || !find_marker(x->d->logs, m, 1, &l))
		return 0;
	ev(x, "The GPU ran out of its own memory: ");
	say_line(&x->dr.ev, l);
	act(x, "Raising --mem changes nothing; that is host memory. "
	    "Use a smaller batch, activation checkpointing or lower "
	    "precision, or a card with more memory.");
	add(x, "cuda-oom", SP_SEV_CRITICAL);
	return 1;
}

static int
rule_nccl(struct ctx *x)
{
	/* Fault signatures only: "NCCL version" or backend=nccl are not. */
	static const char *const m[] = { "ncclInternalError",
		"ncclUnhandledCudaError", "ncclSystemError", "ncclRemoteError",
		"ncclInvalidUsage", "DistBackendError", "NCCL error",
		"NCCL timeout", "NCCL WARN",
		"Watchdog caught collective operation timeout", NULL };
	struct line l;
	int parallel = x->c.gpus > 1 || x->c.tasks > 1 || x->c.nodes > 1;

	if (!(x->c.gpus > 0) || !parallel ||
	    !find_marker(x->d->logs, m, 1, &l))
		return 0;
	ev(x, "A collective between ranks failed: ");
	say_line(&x->dr.ev, l);
	act(x, "This rank may be the victim, not the cause: find the "
	    "first rank that failed (its own log, its node). Rerun with "
	    "NCCL_DEBUG=INFO if the logs do not say.");
	add(x, "nccl", SP_SEV_CRITICAL);
	return 1;
}

static int
rule_import(struct ctx *x)
{
	static const char *const m[] = { "ModuleNotFoundError",
		"ImportError", "No module named", NULL };
	struct line l;

	if (!find_marker(x->d->logs, m, 0, &l))
		return 0;
	ev(x, "A module could not be imported: ");
	say_line(&x->dr.ev, l);
	act(x, "The job's environment is not the one it was "
	    "installed in: load the modules and activate the environment in "
	    "the script before the program starts, and check which python "
	    "runs.");
	add(x, "import-error", SP_SEV_CRITICAL);
	return 1;
}

/* "[rank3]: Traceback ..." -> "Traceback ...": torchrun's prefixes. */
static struct line
strip_rank(struct line l)
{
	size_t i;

	if (l.n < 7 || strncmp(l.p, "[rank", 5) != 0)
		return l;
	for (i = 5; i < l.n && l.p[i] >= '0' && l.p[i] <= '9'; i++)
		;
	if (i == 5 || i + 1 >= l.n || l.p[i] != ']' || l.p[i + 1] != ':')
		return l;
	i += 2;
	if (i < l.n && l.p[i] == ' ')
		i++;
	l.p += i;
	l.n -= i;
	return l;
}

static int
blank(struct line l)
{
	for (size_t i = 0; i < l.n; i++)
		if (l.p[i] != ' ' && l.p[i] != '\t')
			return 0;
	return 1;
}

static void
add_tb_line(struct sp_buf *b, struct line l)
{
	if (b->len > 0)
		sp_buf_addc(b, '\n');
	sp_buf_add(b, l.p, l.n);
}

/*
 * The last Python traceback of one file, from its header to the line
 * naming the exception (not to the end of the file).
 */
static int
traceback_in(const struct sp_log *log, struct sp_buf *out)
{
	struct sp_logs one = { 0 };
	struct logscan s;
	struct line l, *tb = NULL;
	size_t n = 0, cap = 0, best_n = 0;
	struct line *best = NULL;
	int in = 0;

	one.v = (struct sp_log *)log;
	one.n = 1;
	s = (struct logscan){ &one, 0, 0 };
	while (next_line(&s, &l)) {
		l = strip_rank(l);
		if (line_has(l, "Traceback (most recent call last)", 0)) {
			in = 1;
			n = 0;
		} else if (!in || blank(l)) {
			continue;
		}
		tb = sp_xgrow(tb, &cap, n + 1, sizeof *tb);
		tb[n++] = l;
		if (n > 1 && l.p[0] != ' ' && l.p[0] != '\t') {
			/* The exception line: this traceback is complete. */
			free(best);
			best = sp_xmalloc(n * sizeof *best);
			memcpy(best, tb, n * sizeof *tb);
			best_n = n;
			in = 0;
		}
	}
	if (in) {
		/* Cut off before its exception line: show what there is. */
		free(best);
		best = tb;
		best_n = n;
		tb = NULL;
	}
	free(tb);
	if (best_n == 0) {
		free(best);
		return 0;
	}
	if (best_n > SP_FIND_TRACEBACK_MAX_LINES) {
		add_tb_line(out, best[0]);
		sp_buf_adds(out, "\n...");
		for (size_t i = best_n - SP_FIND_TRACEBACK_TAIL; i < best_n; i++)
			add_tb_line(out, best[i]);
	} else {
		for (size_t i = 0; i < best_n; i++)
			add_tb_line(out, best[i]);
	}
	free(best);
	return 1;
}

static int
rule_traceback(struct ctx *x)
{
	struct sp_buf tb = { 0 };
	int found = 0;

	for (size_t i = 0; i < x->d->logs->n && !found; i++)
		found = traceback_in(&x->d->logs->v[i], &tb);
	if (!found)
		return 0;
	ev(x, "The last Python traceback in the log:\n%s", tb.p);
	act(x, "Start from the exception line, then the innermost "
	    "frame in your own code.");
	add(x, "traceback", SP_SEV_INFO);
	sp_buf_free(&tb);
	return 1;
}

static int
rule_log_tail(struct ctx *x)
{
	struct line lines[SP_FIND_LOG_TAIL_LINES];
	size_t n = 0, first = 0;
	const struct sp_log *log = NULL;
	struct sp_logs one = { 0 };
	struct logscan s;
	struct line l;

	/* The error stream explains a failure; else whatever was found. */
	for (size_t i = 0; i < x->d->logs->n && log == NULL; i++)
		for (size_t k = 0; k < x->d->logs->v[i].tail.len; k++)
			if (x->d->logs->v[i].tail.p[k] > ' ') {
				log = &x->d->logs->v[i];
				break;
			}
	if (log == NULL)
		return 0;
	one.v = (struct sp_log *)log;
	one.n = 1;
	s = (struct logscan){ &one, 0, 0 };
	while (next_line(&s, &l)) {
		if (blank(l))
			continue;
		lines[(first + n) % SP_FIND_LOG_TAIL_LINES] = l;
		if (n < SP_FIND_LOG_TAIL_LINES)
			n++;
		else
			first = (first + 1) % SP_FIND_LOG_TAIL_LINES;
	}
	ev(x, "The last lines of %s:", log->path);
	for (size_t i = 0; i < n; i++) {
		sp_buf_addc(&x->dr.ev, '\n');
		say_line(&x->dr.ev, lines[(first + i) % SP_FIND_LOG_TAIL_LINES]);
	}
	add(x, "log-tail", SP_SEV_INFO);
	return 1;
}

static int
logs_read(const struct ctx *x)
{
	return x->d->logs != NULL && x->d->logs->looked && x->d->logs->n > 0;
}

/* Whether a rule before the exit's already said how the job ended. */
static int
end_explained(const struct ctx *x)
{
	static const char *const ends[] = { "timeout-hang", "timeout-real",
		"timeout", "host-oom", NULL };

	for (size_t i = x->from; i < x->out->n; i++)
		for (const char *const *e = ends; *e; e++)
			if (strcmp(x->out->v[i].code, *e) == 0)
				return 1;
	return 0;
}

/* Whether every log found holds only white space. */
static int
logs_blank(const struct ctx *x)
{
	for (size_t i = 0; i < x->d->logs->n; i++)
		for (size_t k = 0; k < x->d->logs->v[i].tail.len; k++)
			if ((unsigned char)x->d->logs->v[i].tail.p[k] > ' ')
				return 0;
	return 1;
}

static void
rule_exit(struct ctx *x)
{
	const struct sp_job *j = x->j;
	size_t before = x->out->n;
	int explained = state_rules(x), sig = 0, named = 0;
	double code = j->exit_code;
	int succeeded = state_is(x, "COMPLETED") && !(code != 0);

	if (code == 127) {
		ev(x, "Exit code 127: the shell could not find a "
		   "command.");
		act(x, "Check the order of module load, conda "
		    "activate or source before the command, and the PATH the "
		    "job inherits (sbatch --export).");
		add(x, "command-not-found", SP_SEV_CRITICAL);
		named = 1;
	}
	if (j->signal > 0)
		sig = (int)j->signal;
	else if (shell_signal(code))
		sig = shell_signal(code);
	if (sig > 0 && !explained && !state_is(x, "OUT_OF_MEMORY") &&
	    !state_is(x, "TIMEOUT")) {
		const char *name = sp_signal_name(sig);

		if (j->state.n == 0)
			ev(x, "Ended by signal %d; its state is not recorded "
			   "(state), and a timeout or a kill for memory ends a "
			   "job by a signal too.", sig);
		else if (j->signal > 0 && name)
			ev(x, "Killed by %s (signal %d).", name, sig);
		else if (j->signal > 0)
			ev(x, "Killed by signal %d.", sig);
		else
			ev(x, "Exit code %.0f is 128 + %d: the shell's "
			   "report of a process killed by %s.", code, sig,
			   name);
		act(x, "%s", signal_advice(sig));
		add(x, sig == 9 ? "sigkill" : "signal-kill",
		    SP_SEV_CRITICAL);
		named = 1;
	}
	if (logs_read(x) && !succeeded) {
		int told = rule_cuda_oom(x);

		told |= rule_nccl(x);
		told |= rule_import(x);
		told |= rule_traceback(x);
		if (!told && sp_job_failed(j))
			rule_log_tail(x);
	}
	if (state_is(x, "FAILED") && sp_known(code) && code != 0 &&
	    !logs_read(x)) {
		const char *why = x->d->logs != NULL && x->d->logs->looked ?
				  "no log was found" : "no log was read";

		if (named)
			ev(x, "Exited %.0f, and %s to confirm it.",
			   code, why);
		else if (code == 1 && sp_positive(sp_job_gpus(j)))
			ev(x, "Exited 1, and %s to explain it. 1 is "
			   "what an uncaught exception gives (Python), and a "
			   "GPU out of memory looks the same from here.", why);
		else if (code == 1)
			/* No GPU held: no GPU to run out of memory. */
			ev(x, "Exited 1, and %s to explain it. 1 is "
			   "what an uncaught exception gives (Python).", why);
		else
			ev(x, "Exited %.0f, but %s to explain it.",
			   code, why);
		act(x, "Point sp-show at the logs with --log-dir, or "
		    "submit with a predictable --error=logs/%%x-%%j.err.");
		add(x, "exit-nonzero-nolog", SP_SEV_WARNING);
	}
	if (sp_known(code) && code != 0 && x->out->n == before &&
	    !end_explained(x)) {
		/* A non-zero exit is never "nothing needs attention". */
		if (x->j->state.n == 0)
			ev(x, "Exited %.0f; its state is not recorded (state), "
			   "and nothing else in this record explains it.",
			   code);
		else if (!logs_read(x))
			ev(x, "Exited %.0f, and nothing in this record "
			   "explains it.", code);
		else if (logs_blank(x))
			ev(x, "Exited %.0f, and its log (%s) is empty.",
			   code, x->d->logs->v[0].path);
		else
			ev(x, "Exited %.0f, and nothing in its log "
			   "explains it.", code);
		act(x, "Run it again by hand, or make it say why "
		    "before it exits (set -x in a shell script; a message on "
		    "stderr).");
		add(x, "exit-nonzero", SP_SEV_WARNING);
	}
}

static void
rule_gpu(struct ctx *x)
{
	const struct sp_job *j = x->j;
	const struct sp_site *site = x->d->site;

	/* An allocation that computed nothing has its own finding; one
	 * that may have is not judged here either. */
	if (!(x->c.gpus > 0) || x->c.open || x->c.noop || !x->c.noop_known)
		return;
	if (sp_known(j->gpu_util)) {
		if (j->gpu_util < SP_FIND_GPU_IDLE) {
			ev(x, "The GPUs were %s busy on average over %s "
			   "(%.0f GPU%s, %.1f GPU-hours).",
			   sp_pct(&x->w, j->gpu_util),
			   sp_dur(&x->w, j->elapsed_s), x->c.gpus,
			   x->c.gpus == 1 ? "" : "s", x->c.gpu_hours);
			act(x, "Check the work reaches the GPU at all: "
			    "device placement, CUDA_VISIBLE_DEVICES, a "
			    "CPU-only build of the framework.");
			add(x, "gpu-idle", SP_SEV_CRITICAL);
		} else if (j->gpu_util < SP_FIND_GPU_UNDERUSED) {
			ev(x, "The GPUs were %s busy on average.",
			   sp_pct(&x->w, j->gpu_util));
			act(x, "The GPU waits for input: more "
			    "dataloader workers, larger batches, or fewer "
			    "GPUs.");
			add(x, "gpu-underused", SP_SEV_WARNING);
		}
		return;
	}
	if (!(x->c.cpu_util < SP_FIND_GPU_SUSPECT_CPU))
		return;
	ev(x, "GPU utilisation was %s; the CPU was %s busy, which "
	   "suggests the GPUs idled too.",
	   site == NULL || !site->known ? "not recorded by Slurm" :
	   site->gpuutil_tracked ? "not recorded for this job" :
	   "not gathered by this cluster (needs AutoDetect=nvml)",
	   sp_pct(&x->w, x->c.cpu_util));
	act(x, "Confirm with live telemetry (nvidia-smi, or "
	    "slurmwatch) before drawing conclusions.");
	add(x, "gpu-suspect-idle", SP_SEV_WARNING);
}

static void
rule_node_history(struct ctx *x)
{
	if (x->d->node_note == NULL || *x->d->node_note == '\0')
		return;
	ev(x, "%s.", x->d->node_note);
	act(x, "Consider #SBATCH --exclude for that node if it "
	    "fails this work again; sp-nodes shows the whole table.");
	add(x, "node-history", SP_SEV_INFO);
}

/* Findings made once for many jobs (a workload's), each job its copy. */
static void
copy_findings(const struct sp_findings *from, struct sp_findings *out)
{
	struct sp_draft d = { 0 };

	for (size_t i = 0; i < from->n; i++) {
		const struct sp_finding *f = &from->v[i];

		sp_buf_adds(&d.ev, f->evidence);
		if (f->action != NULL)
			sp_buf_adds(&d.act, f->action);
		sp_findings_add(out, f->code, f->severity, &d);
	}
	sp_draft_free(&d);
}

void
sp_rules_job(const struct sp_diag *d, struct sp_findings *out)
{
	struct ctx x;
	size_t from = out->n;

	memset(&x, 0, sizeof x);
	x.d = d;
	x.j = d->job;
	x.out = out;
	x.from = from;
	x.state = text(d->job->state);
	sp_jobcalc(&x.c, d->job, d->steps, d->nsteps, d->site);

	if (x.c.open) {
		/* Every figure of an unfinished record is partial. */
		rule_open(&x);
	} else {
		struct sp_run r;

		view_run(&r, d->job, &x.c);
		sp_hist_one(&x.one, &x.pool, &r);
		sp_size_site_of(d->site, d->workload ? d->workload : &x.one,
				&x.wsite);
		x.wsite.missing = d->missing;
		x.wsite.empty = d->empty;
		rule_walltime(&x);
		rule_memory(&x);
		rule_cpu(&x);
		rule_kernel(&x);
		rule_io(&x);
		rule_parallel(&x);
		rule_paging(&x);
		rule_exit(&x);
		rule_gpu(&x);
		rule_node_history(&x);
		/* The workload's rule wins: its advice, as every screen
		 * gives it. */
		if (d->verdict != NULL)
			copy_findings(d->verdict, out);
		else if (d->workload != NULL)
			sp_wl_verdict_finding(d->workload, &x.wsite, NULL,
					      d->risks,
					      out);
	}
	sp_findings_sort(out, from);
	sp_draft_free(&x.dr);
	sp_words_free(&x.w);
	for (int f = 0; f < SP_FLAG_N; f++)
		sp_pick_free(&x.picks[f]);
	sp_buf_free(&x.src);
	sp_pool_free(&x.pool);
	free(x.state);
}
