/*
 * sp_sacct_fold.c - one row's values, and an allocation folded with its
 * steps into one record (reference-rules.md 1.4 has every rule).
 */
#include <string.h>

#include "sp_sacct_int.h"

/* ------------------------------------------------------------ columns */

static const char col_kind[SP_JC_COUNT] = {
#define SP_X(name, kind) #kind[0],
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
};

int
sp_sacct_col_is_num(int jc)
{
	return jc >= 0 && jc < SP_JC_COUNT && col_kind[jc] == 'N';
}


/* ------------------------------------------------------ one row's values */

/*
 * The fields row_measures reads, and a step's JobID: all the fold views
 * of a step (the reader's step view).  A field read there and missing here
 * would read as empty.
 */
const int sp_sacct_measured[] = {
	SP_SF_JOBID, SP_SF_NTASKS, SP_SF_MAXRSS, SP_SF_MAXRSSNODE,
	SP_SF_AVERSS, SP_SF_MAXVMSIZE, SP_SF_TOTALCPU, SP_SF_USERCPU,
	SP_SF_SYSTEMCPU, SP_SF_CPUTIMERAW, SP_SF_CPUTIME, SP_SF_AVECPU,
	SP_SF_MINCPU, SP_SF_MINCPUNODE, SP_SF_MINCPUTASK, SP_SF_AVECPUFREQ,
	SP_SF_TRESUSAGEINTOT, SP_SF_MAXDISKREAD, SP_SF_TRESUSAGEOUTTOT,
	SP_SF_MAXDISKWRITE, SP_SF_MAXPAGES, SP_SF_TRESUSAGEINAVE,
	SP_SF_TRESUSAGEINMAX, SP_SF_NONE
};

/*
 * A row's CPU time, from the three places Slurm writes it.  TotalCPU is
 * the reference.  Where it is 0 or empty while UserCPU + SystemCPU, or
 * else TRESUsageInTot's cpu=, holds more, that figure is the row's: a
 * Slurm habit, not a job that computed nothing (Slurm 25.05 wrote 0 in
 * TotalCPU, UserCPU and SystemCPU of job steps and the right figure in
 * cpu=).  Zeros contradicted so are no reading of user and system time:
 * unknown.  When no figure is above zero, the first known one stands.
 */
static void
row_cpu(const struct sp_slice *v, struct sp_sacct_rec *r)
{
	double total = duration(v[SP_SF_TOTALCPU]);
	double user = duration(v[SP_SF_USERCPU]);
	double sys = duration(v[SP_SF_SYSTEMCPU]);
	double both = isnan(user) ? sys : isnan(sys) ? user : user + sys;
	double tres = NAN;
	struct sp_slice t = v[SP_SF_TRESUSAGEINTOT];

	r->cpu_from = 0;
	if (!(total > 0)) {
		if (t.n > 0)
			(void)sp_parse_tres_cpu(t.p, t.n, &tres);
		if (both > 0) {
			total = both;
			r->cpu_from = SP_CPU_FROM_USERSYS;
		} else if (tres > 0) {
			total = tres;
			user = sys = NAN;
			r->cpu_from = SP_CPU_FROM_TRES;
		} else if (isnan(total))
			total = isnan(both) ? tres : both;
	}
	r->num[SP_JC_total_cpu_s] = total;
	r->num[SP_JC_user_cpu_s] = user;
	r->num[SP_JC_sys_cpu_s] = sys;
}

/*
 * What a row measured: all the fold reads from a step, so steps are not
 * parsed for identity and times nobody asks for.
 */
static void
row_measures(const struct sp_slice *v, struct sp_sacct_rec *r)
{
	double d;

	r->num[SP_JC_ntasks] = count(v[SP_SF_NTASKS]);
	r->num[SP_JC_max_rss_b] = bytes(v[SP_SF_MAXRSS]);
	r->text[SP_JC_max_rss_node] = known_text(v[SP_SF_MAXRSSNODE]);
	r->num[SP_JC_ave_rss_b] = bytes(v[SP_SF_AVERSS]);
	r->num[SP_JC_rss_imbalance] = r->num[SP_JC_ave_rss_b] > 0 ?
	    r->num[SP_JC_max_rss_b] / r->num[SP_JC_ave_rss_b] : NAN;
	r->num[SP_JC_max_vmsize_b] = bytes(v[SP_SF_MAXVMSIZE]);

	row_cpu(v, r);
	d = count(v[SP_SF_CPUTIMERAW]);
	r->num[SP_JC_cpu_time_s] = isnan(d) ? duration(v[SP_SF_CPUTIME]) : d;
	r->num[SP_JC_ave_cpu_s] = duration(v[SP_SF_AVECPU]);
	r->num[SP_JC_min_cpu_s] = duration(v[SP_SF_MINCPU]);
	r->text[SP_JC_min_cpu_node] = known_text(v[SP_SF_MINCPUNODE]);
	/* 65534 is Slurm's 16-bit "no task". */
	d = count(v[SP_SF_MINCPUTASK]);
	r->text[SP_JC_min_cpu_task] = isnan(d) || d >= 65534 ? empty_slice :
	    v[SP_SF_MINCPUTASK];
	r->num[SP_JC_ave_cpu_freq_hz] = sp_sacct_cpu_freq(v[SP_SF_AVECPUFREQ]);

	d = sp_sacct_tres_amount(v[SP_SF_TRESUSAGEINTOT], "fs/disk", 1.0);
	r->num[SP_JC_read_b] = isnan(d) ? bytes(v[SP_SF_MAXDISKREAD]) : d;
	d = sp_sacct_tres_amount(v[SP_SF_TRESUSAGEOUTTOT], "fs/disk", 1.0);
	r->num[SP_JC_write_b] = isnan(d) ? bytes(v[SP_SF_MAXDISKWRITE]) : d;
	r->num[SP_JC_max_pages] = bytes(v[SP_SF_MAXPAGES]);
	d = sp_sacct_tres_amount(v[SP_SF_TRESUSAGEINAVE], "gres/gpuutil", 1.0);
	if (isnan(d))
		d = sp_sacct_tres_amount(v[SP_SF_TRESUSAGEINMAX], "gres/gpuutil", 1.0);
	r->num[SP_JC_gpu_util] = d / 100;
	d = sp_sacct_tres_amount(v[SP_SF_TRESUSAGEINMAX], "gres/gpumem", 1.0);
	if (isnan(d))
		d = sp_sacct_tres_amount(v[SP_SF_TRESUSAGEINAVE], "gres/gpumem", 1.0);
	r->num[SP_JC_gpu_mem_b] = d;
}

void
sp_sacct_row_values(const struct sp_slice *v, struct sp_sacct_rec *r)
{
	struct sp_slice state, by, t;
	double d;
	int i;

	for (i = 0; i < SP_JC_COUNT; i++) {
		r->text[i] = empty_slice;
		r->num[i] = NAN;
	}
	r->mem_update = 0;
	r->text[SP_JC_jobid] = v[SP_SF_JOBID];
	r->text[SP_JC_jobid_raw] = v[SP_SF_JOBIDRAW];
	r->text[SP_JC_name] = v[SP_SF_JOBNAME];
	r->text[SP_JC_user] = v[SP_SF_USER];
	r->num[SP_JC_uid] = count(v[SP_SF_UID]);
	r->text[SP_JC_account] = v[SP_SF_ACCOUNT];
	r->text[SP_JC_partition] = v[SP_SF_PARTITION];
	r->text[SP_JC_qos] = v[SP_SF_QOS];
	r->text[SP_JC_cluster] = v[SP_SF_CLUSTER];

	sp_sacct_state(known_text(v[SP_SF_STATE]), &state, &by);
	r->text[SP_JC_state] = state;
	r->text[SP_JC_cancelled_by] = by;
	exit_pair(v[SP_SF_EXITCODE], &r->num[SP_JC_exit_code],
	    &r->num[SP_JC_signal]);
	exit_pair(v[SP_SF_DERIVEDEXITCODE], &r->num[SP_JC_derived_exit_code],
	    &d);
	r->text[SP_JC_reason] = known_text(v[SP_SF_REASON]);

	r->text[SP_JC_submit] = known_time(v[SP_SF_SUBMIT]);
	r->text[SP_JC_eligible] = known_time(v[SP_SF_ELIGIBLE]);
	r->text[SP_JC_start] = known_time(v[SP_SF_START]);
	r->text[SP_JC_end] = known_time(v[SP_SF_END]);
	/*
	 * Open: the record never ended.  A RUNNING or PENDING row is open
	 * even with an End, which then is the query's window, not an ending.
	 */
	if (state.n == 0)
		r->num[SP_JC_open] = 0;
	else if (sp_sacct_state_final(state))
		r->num[SP_JC_open] = 0;
	else if (r->text[SP_JC_end].n == 0)
		r->num[SP_JC_open] = 1;
	else
		r->num[SP_JC_open] = eq(state, sl("RUNNING", 7)) ||
		    eq(state, sl("PENDING", 7));

	d = count(v[SP_SF_ELAPSEDRAW]);
	r->num[SP_JC_elapsed_s] = isnan(d) ? duration(v[SP_SF_ELAPSED]) : d;
	d = count(v[SP_SF_TIMELIMITRAW]);
	r->num[SP_JC_timelimit_s] = isnan(d) ? duration(v[SP_SF_TIMELIMIT]) :
	    d * 60;
	r->num[SP_JC_wait_s] = duration(v[SP_SF_PLANNED]);

	r->num[SP_JC_req_cpus] = count(v[SP_SF_REQCPUS]);
	d = count(v[SP_SF_ALLOCCPUS]);
	if (isnan(d))
		d = count(v[SP_SF_NCPUS]);
	if (isnan(d))
		d = sp_sacct_tres_amount(v[SP_SF_ALLOCTRES], "cpu", 1.0);
	r->num[SP_JC_alloc_cpus] = d;
	r->num[SP_JC_alloc_gpus] = sp_sacct_gpus(v[SP_SF_ALLOCTRES],
	    v[SP_SF_REQTRES], v[SP_SF_ALLOCGRES], v[SP_SF_REQGRES]);
	d = count(v[SP_SF_NNODES]);
	if (isnan(d))
		d = count(v[SP_SF_ALLOCNODES]);
	if (isnan(d))
		d = sp_sacct_tres_amount(v[SP_SF_ALLOCTRES], "node", 1.0);
	r->num[SP_JC_nnodes] = d;
	t = known_text(v[SP_SF_NODELIST]);
	if (t.n == 13 && memcmp(t.p, "None assigned", 13) == 0)
		t = empty_slice;
	r->text[SP_JC_nodelist] = t;
	r->text[SP_JC_req_mem] = known_text(v[SP_SF_REQMEM]);

	row_measures(v, r);
	d = count(v[SP_SF_CONSUMEDENERGYRAW]);
	if (isnan(d))
		d = count(v[SP_SF_CONSUMEDENERGY]);
	r->num[SP_JC_energy_j] = d;

	r->text[SP_JC_req_tres] = known_text(v[SP_SF_REQTRES]);
	r->text[SP_JC_alloc_tres] = known_text(v[SP_SF_ALLOCTRES]);
	r->text[SP_JC_constraints] = v[SP_SF_CONSTRAINTS];
	r->text[SP_JC_workdir] = v[SP_SF_WORKDIR];
	r->text[SP_JC_stdout] = v[SP_SF_STDOUT];
	r->text[SP_JC_stderr] = v[SP_SF_STDERR];
	r->text[SP_JC_submit_line] = v[SP_SF_SUBMITLINE];
	r->text[SP_JC_comment] = v[SP_SF_COMMENT];
	r->text[SP_JC_flags] = known_text(v[SP_SF_FLAGS]);
}

/* "123_4" -> array job 123, task 4; "123_[1-3]" -> task "[1-3]". */
static void
array_parts(struct sp_slice id, struct sp_sacct_rec *r)
{
	const char *u = id.n ? memchr(id.p, '_', id.n) : NULL;

	if (u == NULL)
		return;
	r->text[SP_JC_array_job] = sl(id.p, (size_t)(u - id.p));
	r->text[SP_JC_array_task] = sl(u + 1, id.n - (size_t)(u - id.p) - 1);
}

/*
 * The memory limits of an allocation.  AllocTRES mem= is the total;
 * ReqMem is per node ('n'), per CPU ('c') or, unsuffixed (Slurm 21.08
 * and later), the total; 0 is no value.  Slurm before 17.02 wrote the
 * raw request (per node or per CPU) into AllocTRES: a "total" below what
 * ReqMem implies for the allocation cannot be the total, so the implied
 * one stands.
 */
static void
mem_limits(const struct sp_slice *v, struct sp_sacct_rec *r)
{
	double req = NAN, alloc, implied = NAN, total, node = NAN;
	double nodes = r->num[SP_JC_nnodes];
	double cpus = r->num[SP_JC_alloc_cpus];
	char scope = 0;

	if (isnan(cpus))
		cpus = r->num[SP_JC_req_cpus];
	if (sp_parse_mem(v[SP_SF_REQMEM].p, v[SP_SF_REQMEM].n, SP_MIB, 1, &req,
	    &scope) != SP_VAL_OK)
		req = NAN;
	if (scope == 'n') {
		node = req;
		implied = nodes > 0 ? req * nodes : NAN;
	} else if (scope == 'c')
		implied = cpus > 0 ? req * cpus : NAN;
	else
		implied = req;
	alloc = sp_sacct_tres_amount(v[SP_SF_ALLOCTRES], "mem", SP_MIB);
	if (alloc == 0)
		alloc = NAN;
	total = sp_nan_max(alloc, implied);
	if (isnan(total)) {
		total = sp_sacct_tres_amount(v[SP_SF_REQTRES], "mem", SP_MIB);
		if (total == 0)
			total = NAN;
	}
	if (isnan(node) && nodes > 0)
		node = total / nodes;
	r->num[SP_JC_mem_limit_node_b] = node;
	r->num[SP_JC_mem_limit_total_b] = total;
}

/*
 * Whether the command line asked for --mem-update (Slurm 26.05), which
 * lowers a running job's memory limit to its usage plus a margin, once:
 * the limit in such a job's record need not be the one it ran, or was
 * killed, under.  The option in a batch script's #SBATCH lines is not in
 * the record, and cannot be seen.
 */
static int
asks_mem_update(struct sp_slice line)
{
	static const char opt[] = "--mem-update";
	const size_t k = sizeof opt - 1;
	const char *p = line.p, *end = line.p + line.n;

	while (p != NULL && (size_t)(end - p) >= k) {
		p = memchr(p, '-', (size_t)(end - p));
		if (p == NULL || (size_t)(end - p) < k)
			break;
		if (memcmp(p, opt, k) == 0 && (p + k == end || p[k] == '=' ||
		    is_space((unsigned char)p[k])) &&
		    (p == line.p || is_space((unsigned char)p[-1]) ||
		    p[-1] == '\'' || p[-1] == '"'))
			return 1;
		p++;
	}
	return 0;
}

static int
is_extern(struct sp_slice step)
{
	return step.n == 6 && memcmp(step.p, "extern", 6) == 0;
}

static struct sp_slice
step_name(struct sp_slice id)
{
	const char *dot = memchr(id.p, '.', id.n);

	return dot ? sl(dot + 1, id.n - (size_t)(dot - id.p) - 1) :
	    empty_slice;
}


/* ------------------------------------------------------------- folding */

/* What the steps of one allocation add up to; NaN until a step says. */
struct agg {
	double peak, work_peak, peak_ave, work_ave;
	struct sp_slice peak_step, peak_node, work_step, work_node;
	int work_over;
	double total, user, sys, cpu_den;
	int user_gap, sys_gap;	/* a step with CPU time lacks that part */
	unsigned cpu_from;	/* the work steps' SP_CPU_FROM_* */
	double read_sum, write_sum, read_max, write_max;
	double vmsize, pages, gpu_mem, gpu_util, imbalance, ntasks;
	double freq, freq_cpu;
	int straggler;
	double ave_cpu, min_cpu;
	struct sp_slice min_node, min_task;
};

static void
add_to(double *acc, double v)
{
	if (!isnan(v))
		*acc = isnan(*acc) ? v : *acc + v;
}

static void
max_to(double *acc, double v)
{
	*acc = sp_nan_max(*acc, v);
}

static void
agg_init(struct agg *a)
{
	memset(a, 0, sizeof *a);
	a->peak = a->work_peak = a->peak_ave = a->work_ave = NAN;
	a->total = a->user = a->sys = a->cpu_den = NAN;
	a->read_sum = a->write_sum = a->read_max = a->write_max = NAN;
	a->vmsize = a->pages = a->gpu_mem = a->gpu_util = NAN;
	a->imbalance = a->ntasks = a->freq = a->freq_cpu = NAN;
	a->ave_cpu = a->min_cpu = NAN;
	a->peak_step = a->peak_node = a->work_step = a->work_node =
	    empty_slice;
	a->min_node = a->min_task = empty_slice;
}

static void
agg_step(struct agg *a, struct sp_slice name, const struct sp_sacct_rec *s,
	 double limit, int open)
{
	int work = !is_extern(name);
	double v = s->num[SP_JC_max_rss_b];

	if (!isnan(v)) {
		if (isnan(a->peak) || v > a->peak) {
			a->peak = v;
			a->peak_step = name;
			a->peak_node = s->text[SP_JC_max_rss_node];
			a->peak_ave = s->num[SP_JC_ave_rss_b];
		}
		if (work && (isnan(a->work_peak) || v > a->work_peak)) {
			a->work_peak = v;
			a->work_step = name;
			a->work_node = s->text[SP_JC_max_rss_node];
			a->work_ave = s->num[SP_JC_ave_rss_b];
		}
		if (work && v > limit)
			a->work_over = 1;
	}
	max_to(&a->vmsize, s->num[SP_JC_max_vmsize_b]);
	max_to(&a->pages, s->num[SP_JC_max_pages]);
	max_to(&a->gpu_mem, s->num[SP_JC_gpu_mem_b]);
	max_to(&a->ntasks, s->num[SP_JC_ntasks]);
	max_to(&a->read_max, s->num[SP_JC_read_b]);
	max_to(&a->write_max, s->num[SP_JC_write_b]);
	if (!work)
		return;
	/* A running job's steps read zero until they are sampled. */
	v = s->num[SP_JC_total_cpu_s];
	if (!isnan(v) && !(open && v == 0)) {
		add_to(&a->total, v);
		add_to(&a->user, s->num[SP_JC_user_cpu_s]);
		add_to(&a->sys, s->num[SP_JC_sys_cpu_s]);
		/* A sum over some steps is no job's figure. */
		a->user_gap |= isnan(s->num[SP_JC_user_cpu_s]);
		a->sys_gap |= isnan(s->num[SP_JC_sys_cpu_s]);
		a->cpu_from |= s->cpu_from;
	}
	max_to(&a->cpu_den, s->num[SP_JC_cpu_time_s]);
	add_to(&a->read_sum, s->num[SP_JC_read_b]);
	add_to(&a->write_sum, s->num[SP_JC_write_b]);
	max_to(&a->imbalance, s->num[SP_JC_rss_imbalance]);
	max_to(&a->gpu_util, s->num[SP_JC_gpu_util]);
	if (!a->straggler && s->num[SP_JC_ntasks] > 1) {
		a->straggler = 1;
		a->ave_cpu = s->num[SP_JC_ave_cpu_s];
		a->min_cpu = s->num[SP_JC_min_cpu_s];
		a->min_node = s->text[SP_JC_min_cpu_node];
		a->min_task = s->text[SP_JC_min_cpu_task];
	}
	/* The frequency of the step that did the most work. */
	v = sp_nan_max(s->num[SP_JC_total_cpu_s], 0);
	if (!isnan(s->num[SP_JC_ave_cpu_freq_hz]) &&
	    (isnan(a->freq) || v > a->freq_cpu)) {
		a->freq = s->num[SP_JC_ave_cpu_freq_hz];
		a->freq_cpu = v;
	}
}

static void
prefer(double *field, double from_steps)
{
	if (!isnan(from_steps))
		*field = from_steps;
}

/*
 * CPU is summed over work steps (never .extern); memory peaks are
 * maxima, with the step that reached them.
 */
void
sp_sacct_fold(struct sp_sacct *p, sp_sacct_step_view *view_step,
	      const struct sp_slice *av, size_t first, size_t nsteps,
	      struct sp_sacct_rec *r)
{
	struct sp_slice sv[SP_SF_COUNT];
	struct sp_sacct_rec sr;
	struct agg a;
	double limit, cpus;
	int open = r->num[SP_JC_open] == 1;
	size_t i;

	array_parts(r->text[SP_JC_jobid], r);
	mem_limits(av, r);
	r->mem_update = asks_mem_update(r->text[SP_JC_submit_line]);
	if (r->mem_update) {
		r->num[SP_JC_mem_limit_node_b] = NAN;
		r->num[SP_JC_mem_limit_total_b] = NAN;
	}
	limit = r->num[SP_JC_mem_limit_node_b];
	agg_init(&a);
	for (i = 0; i < SP_SF_COUNT; i++)
		sv[i] = empty_slice;
	for (i = 0; i < nsteps; i++) {
		view_step(p, first + i, sv);
		row_measures(sv, &sr);
		agg_step(&a, step_name(sv[SP_SF_JOBID]), &sr, limit, open);
		p->st.steps++;
	}

	if (isnan(r->num[SP_JC_ntasks]))
		r->num[SP_JC_ntasks] = a.ntasks;
	if (!isnan(a.peak)) {
		/*
		 * The extern-phantom rule: a peak over the limit that only
		 * .extern shows, while every work step stayed within it, is
		 * not the job's; the work steps' peak is.
		 */
		if (a.peak > limit && is_extern(a.peak_step) && !a.work_over) {
			a.peak = a.work_peak;
			a.peak_step = a.work_step;
			a.peak_node = a.work_node;
			a.peak_ave = a.work_ave;
		}
		r->num[SP_JC_max_rss_b] = a.peak;
		r->text[SP_JC_max_rss_step] = a.peak_step;
		r->text[SP_JC_max_rss_node] = a.peak_node;
		r->num[SP_JC_ave_rss_b] = a.peak_ave;
	}
	if (!isnan(a.total)) {
		r->num[SP_JC_total_cpu_s] = a.total;
		r->num[SP_JC_user_cpu_s] = a.user_gap ? NAN : a.user;
		r->num[SP_JC_sys_cpu_s] = a.sys_gap ? NAN : a.sys;
		r->cpu_from = a.cpu_from;
	} else if (open && r->num[SP_JC_total_cpu_s] == 0) {
		r->num[SP_JC_total_cpu_s] = NAN;
		r->num[SP_JC_user_cpu_s] = NAN;
		r->num[SP_JC_sys_cpu_s] = NAN;
	}
	/* The widest span any row accounts for: the utilisation's denominator. */
	cpus = r->num[SP_JC_alloc_cpus];
	if (isnan(cpus))
		cpus = r->num[SP_JC_req_cpus];
	max_to(&r->num[SP_JC_cpu_time_s], r->num[SP_JC_elapsed_s] * cpus);
	max_to(&r->num[SP_JC_cpu_time_s], a.cpu_den);
	if (!isnan(a.read_sum) || !isnan(a.write_sum)) {
		r->num[SP_JC_read_b] = a.read_sum;
		r->num[SP_JC_write_b] = a.write_sum;
	} else if (!isnan(a.read_max) || !isnan(a.write_max)) {
		r->num[SP_JC_read_b] = a.read_max;
		r->num[SP_JC_write_b] = a.write_max;
	}
	prefer(&r->num[SP_JC_max_vmsize_b], a.vmsize);
	prefer(&r->num[SP_JC_max_pages], a.pages);
	prefer(&r->num[SP_JC_gpu_mem_b], a.gpu_mem);
	prefer(&r->num[SP_JC_gpu_util], a.gpu_util);
	prefer(&r->num[SP_JC_rss_imbalance], a.imbalance);
	prefer(&r->num[SP_JC_ave_cpu_freq_hz], a.freq);
	if (a.straggler) {
		r->num[SP_JC_ave_cpu_s] = a.ave_cpu;
		r->num[SP_JC_min_cpu_s] = a.min_cpu;
		r->text[SP_JC_min_cpu_node] = a.min_node;
		r->text[SP_JC_min_cpu_task] = a.min_task;
	} else if (nsteps > 0 || !(r->num[SP_JC_ntasks] > 1)) {
		r->num[SP_JC_ave_cpu_s] = NAN;
		r->num[SP_JC_min_cpu_s] = NAN;
		r->text[SP_JC_min_cpu_node] = empty_slice;
		r->text[SP_JC_min_cpu_task] = empty_slice;
	}
}

void
sp_sacct_step_record(const struct sp_slice *sv, const struct sp_sacct_rec *alloc,
	    struct sp_sacct_rec *r)
{
	static const int inherit[] = { SP_JC_user, SP_JC_account,
		SP_JC_partition, SP_JC_qos, SP_JC_cluster };
	size_t i;

	sp_sacct_row_values(sv, r);
	r->text[SP_JC_step] = step_name(sv[SP_SF_JOBID]);
	r->text[SP_JC_jobid] = alloc->text[SP_JC_jobid];
	r->text[SP_JC_jobid_raw] = alloc->text[SP_JC_jobid_raw];
	r->text[SP_JC_array_job] = alloc->text[SP_JC_array_job];
	r->text[SP_JC_array_task] = alloc->text[SP_JC_array_task];
	r->num[SP_JC_attempt] = alloc->num[SP_JC_attempt];
	for (i = 0; i < sizeof inherit / sizeof inherit[0]; i++)
		if (r->text[inherit[i]].n == 0)
			r->text[inherit[i]] = alloc->text[inherit[i]];
	if (isnan(r->num[SP_JC_uid]))
		r->num[SP_JC_uid] = alloc->num[SP_JC_uid];
	r->num[SP_JC_mem_limit_node_b] = alloc->num[SP_JC_mem_limit_node_b];
	r->num[SP_JC_mem_limit_total_b] = alloc->num[SP_JC_mem_limit_total_b];
	if (!isnan(r->num[SP_JC_max_rss_b]))
		r->text[SP_JC_max_rss_step] = r->text[SP_JC_step];
}

