/*
 * demo_rows.c - the demo's rows, printed as "sacct --parsable2 -D"
 * prints them, by hand into one block buffer (no printf).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo_int.h"

void
demo_flush(struct demo *d)
{
	if (d->len > 0 && !d->err &&
	    fwrite(d->buf, 1, d->len, d->f) != d->len)
		d->err = 1;
	d->len = 0;
}

static inline void
room(struct demo *d, size_t n)
{
	if (d->len + n > OUT_CAP)
		demo_flush(d);
}

static void
put_n(struct demo *d, const char *s, size_t n)
{
	while (n > 0) {
		size_t k;

		room(d, n < OUT_CAP ? n : OUT_CAP);
		k = OUT_CAP - d->len < n ? OUT_CAP - d->len : n;
		memcpy(d->buf + d->len, s, k);
		d->len += k;
		s += k;
		n -= k;
	}
}

static void
put_s(struct demo *d, const char *s)
{
	put_n(d, s, strlen(s));
}

static inline void
put_c(struct demo *d, char c)
{
	if (d->len >= OUT_CAP)
		demo_flush(d);
	d->buf[d->len++] = c;
}

#define SEP(d) put_c((d), '|')

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/* Numbers are most of the text: two digits per division. */
static inline void
put_u(struct demo *d, uint64_t v)
{
	char t[24];
	int n = 24;

	while (v >= 4294967296ULL) {
		unsigned k = (unsigned)(v % 100) * 2;

		v /= 100;
		t[--n] = digit_pairs[k + 1];
		t[--n] = digit_pairs[k];
	}
	/* 32-bit division is several times cheaper. */
	for (uint32_t w = (uint32_t)v; ; ) {
		if (w < 100) {
			v = w;
			break;
		}
		unsigned k = (w % 100) * 2;

		w /= 100;
		t[--n] = digit_pairs[k + 1];
		t[--n] = digit_pairs[k];
	}
	if (v >= 10) {
		t[--n] = digit_pairs[v * 2 + 1];
		t[--n] = digit_pairs[v * 2];
	} else {
		t[--n] = (char)('0' + v);
	}
	room(d, (size_t)(24 - n));
	memcpy(d->buf + d->len, t + n, (size_t)(24 - n));
	d->len += (size_t)(24 - n);
}

static void
put_i(struct demo *d, int64_t v)
{
	if (v < 0) {
		put_c(d, '-');
		put_u(d, (uint64_t)(-v));
	} else {
		put_u(d, (uint64_t)v);
	}
}

static inline void
put_2(struct demo *d, int64_t v)
{
	unsigned k = (unsigned)(v % 100) * 2;

	room(d, 2);
	d->buf[d->len++] = digit_pairs[k];
	d->buf[d->len++] = digit_pairs[k + 1];
}

static void
put_3(struct demo *d, int64_t v)
{
	room(d, 3);
	d->buf[d->len++] = (char)('0' + v / 100 % 10);
	put_2(d, v % 100);
}

/* The time of day of s seconds (under a day): HH:MM:SS. */
static void
put_clock(struct demo *d, int64_t s)
{
	put_2(d, s / 3600);
	put_c(d, ':');
	put_2(d, s / 60 % 60);
	put_c(d, ':');
	put_2(d, s % 60);
}

/* Elapsed, Timelimit, CPUTime: HH:MM:SS, or D-HH:MM:SS from a day. */
static void
put_hms(struct demo *d, int64_t s)
{
	if (s >= 86400) {
		put_i(d, s / 86400);
		put_c(d, '-');
		s %= 86400;
	}
	put_clock(d, s);
}

/*
 * TotalCPU and friends as sacct prints them: MM:SS.mmm below an hour
 * when there are milliseconds, else as put_hms ("00:00:00" for none).
 */
static void
put_cpu(struct demo *d, int64_t ms)
{
	if (ms >= 3600000 || ms % 1000 == 0) {
		put_hms(d, ms / 1000);
		return;
	}
	put_2(d, ms / 60000);
	put_c(d, ':');
	put_2(d, ms / 1000 % 60);
	put_c(d, '.');
	put_3(d, ms % 1000);
}

static void
put_ts(struct demo *d, int64_t t)
{
	int64_t day = t / 86400, s = t % 86400;

	if (day != d->day) {
		int64_t y;
		int m, dd;

		sp_civil_from_days(day, &y, &m, &dd);
		d->date[0] = (char)('0' + y / 1000 % 10);
		d->date[1] = (char)('0' + y / 100 % 10);
		d->date[2] = (char)('0' + y / 10 % 10);
		d->date[3] = (char)('0' + y % 10);
		d->date[4] = '-';
		d->date[5] = (char)('0' + m / 10);
		d->date[6] = (char)('0' + m % 10);
		d->date[7] = '-';
		d->date[8] = (char)('0' + dd / 10);
		d->date[9] = (char)('0' + dd % 10);
		d->date[10] = 'T';
		d->day = day;
	}
	put_n(d, d->date, 11);
	put_clock(d, s);
}

/* Memory as TRES and ReqMem print it: whole GiB as "32G", else MiB. */
static void
put_mem_m(struct demo *d, int64_t mib)
{
	if (mib % GIB_M == 0) {
		put_i(d, mib / GIB_M);
		put_c(d, 'G');
	} else {
		put_i(d, mib);
		put_c(d, 'M');
	}
}

static void
put_kib(struct demo *d, int64_t k)
{
	put_i(d, k);
	put_c(d, 'K');
}

/* MaxDiskRead and friends: two decimals in the largest unit below 1024. */
static void
put_scaled(struct demo *d, int64_t bytes)
{
	static const char units[] = "KMGT";
	uint64_t unit = 1024, hundredths;
	int u = 0;

	if (bytes <= 0) {
		put_c(d, '0');
		return;
	}
	while (u < 3 && (uint64_t)bytes >= unit * 1024) {
		unit *= 1024;
		u++;
	}
	hundredths = ((uint64_t)bytes * 100 + unit / 2) / unit;
	put_u(d, hundredths / 100);
	put_c(d, '.');
	put_2(d, (int64_t)(hundredths % 100));
	put_c(d, units[u]);
}

static void
put_nodes(struct demo *d, const struct djob *j, int n)
{
	int first = j->node[0];

	put_c(d, node_prefix(first));
	if (n == 1) {
		put_3(d, node_number(first));
		return;
	}
	put_c(d, '[');
	put_3(d, node_number(first));
	put_c(d, '-');
	put_3(d, node_number(j->node[n - 1]));
	put_c(d, ']');
}

static void
put_node(struct demo *d, int idx)
{
	put_c(d, node_prefix(idx));
	put_3(d, node_number(idx));
}

/* n empty fields, each closed by its delimiter. */
static void
put_skip(struct demo *d, int n)
{
	while (n-- > 0)
		put_c(d, '|');
}

/* ------------------------------------------------------------------ */
/* Rows.                                                              */

static const char header[] =
	"JobID|JobIDRaw|JobName|User|UID|Account|Cluster|Partition|QOS|"
	"State|ExitCode|DerivedExitCode|Reason|Flags|Submit|Eligible|Start|"
	"End|Elapsed|ElapsedRaw|Timelimit|TimelimitRaw|ReqMem|ReqCPUS|"
	"ReqNodes|ReqTRES|AllocTRES|AllocCPUS|NCPUS|NNodes|NTasks|NodeList|"
	"TotalCPU|UserCPU|SystemCPU|CPUTime|CPUTimeRAW|AveCPU|MinCPU|"
	"MinCPUNode|MinCPUTask|MaxRSS|MaxRSSNode|MaxRSSTask|AveRSS|"
	"MaxVMSize|MaxPages|MaxDiskRead|MaxDiskWrite|TRESUsageInTot|"
	"TRESUsageOutTot|TRESUsageInAve|TRESUsageInMax|Constraints|WorkDir|"
	"Comment|SubmitLine|StdOut|StdErr\n";

void
demo_write_header(struct demo *d)
{
	put_n(d, header, sizeof header - 1);
}

static void
put_jobid(struct demo *d, const struct djob *j)
{
	if (j->array_n > 0) {
		put_i(d, j->master);
		put_c(d, '_');
		put_i(d, j->array_i);
	} else {
		put_i(d, j->id);
	}
}

static int64_t
job_elapsed(const struct djob *j)
{
	if (j->start < 0)
		return 0;
	return (j->end < 0 ? NOW : j->end) - j->start;
}

static void
put_exit(struct demo *d, int code, int sig)
{
	put_i(d, code);
	put_c(d, ':');
	put_i(d, sig);
}

/* "billing=16,cpu=16,gres/gpu=1,mem=32G,node=1": names in order. */
static void
put_tres(struct demo *d, int billing, int cpus, int gpus, int64_t mem_m,
	 int nodes)
{
	if (billing) {
		put_s(d, "billing=");
		put_i(d, cpus);
		put_c(d, ',');
	}
	put_s(d, "cpu=");
	put_i(d, cpus);
	if (gpus > 0) {
		put_s(d, ",gres/gpu=");
		put_i(d, gpus);
	}
	put_s(d, ",mem=");
	put_mem_m(d, mem_m);
	put_s(d, ",node=");
	put_i(d, nodes);
}

static void
put_time_flag(struct demo *d, int64_t minutes)
{
	put_hms(d, minutes * 60);
}

/* The log file patterns, as sbatch recorded them (unexpanded). */
static void
put_log(struct demo *d, const struct djob *j, const char *dir, int err)
{
	if (j->log == LOG_NONE)
		return;
	put_s(d, dir);
	if (j->log == LOG_NAMED) {
		put_s(d, err ? "/logs/%x-%j.err" : "/logs/%x-%j.out");
	} else if (j->array_n > 0) {
		put_s(d, "/slurm-%A_%a.out");
	} else {
		put_s(d, "/slurm-%j.out");
	}
}

static void
put_submit_line(struct demo *d, const struct djob *j, const char *name,
		const char *script)
{
	put_s(d, j->log == LOG_NONE ? "salloc" : "sbatch");
	if (j->array_n > 0) {
		put_s(d, " --array=0-");
		put_i(d, j->array_n - 1);
	}
	if (!j->wrap && j->log != LOG_NONE) {
		put_s(d, " -J ");
		put_s(d, name);
	}
	put_s(d, " -p ");
	put_s(d, demo_partitions[j->part]);
	if (j->nnodes > 1) {
		put_s(d, " -N ");
		put_i(d, j->nnodes);
	}
	put_s(d, " -c ");
	put_i(d, j->cpus / j->nnodes);
	if (j->gpus > 0) {
		put_s(d, " --gres=gpu:");
		put_i(d, j->gpus / j->nnodes);
	}
	put_s(d, " --mem=");
	put_mem_m(d, j->mem_m);
	put_s(d, " --time=");
	put_time_flag(d, j->limit_min);
	if (j->constraint)
		put_s(d, " -C h100");
	if (j->log == LOG_NAMED)
		put_s(d, " -o logs/%x-%j.out -e logs/%x-%j.err");
	if (j->wrap) {
		/* The one submit line that holds a newline. */
		put_s(d, " --wrap=\"python prep.py \\\n    --shards 64 "
		      "--out /scratch/carol/shards\"");
	} else if (j->log != LOG_NONE) {
		put_c(d, ' ');
		put_s(d, script);
	}
}

static void
write_alloc(struct demo *d, const struct djob *j, const char *sb)
{
	const char *name = sb + j->name, *dir = sb + j->dir;
	int64_t el = job_elapsed(j);
	int pending = j->start < 0, placed = j->placed;

	put_jobid(d, j);
	SEP(d);
	put_i(d, j->raw);
	SEP(d);
	put_s(d, name);
	SEP(d);
	put_s(d, demo_users[j->user].name);
	SEP(d);
	put_i(d, demo_users[j->user].uid);
	SEP(d);
	put_s(d, demo_users[j->user].account);
	SEP(d);
	put_s(d, CLUSTER "|");
	put_s(d, demo_partitions[j->part]);
	put_s(d, "|normal|");
	put_s(d, demo_state_names[j->state]);
	if (j->state == ST_CANCELLED && j->cancelled_by >= 0) {
		put_s(d, " by ");
		put_i(d, j->cancelled_by);
	}
	SEP(d);
	put_exit(d, j->code, j->sig);
	SEP(d);
	if (j->state == ST_FAILED || j->state == ST_OOM)
		put_exit(d, j->code, j->sig);
	else
		put_s(d, "0:0");
	SEP(d);
	put_s(d, demo_state_reasons[j->state]);
	SEP(d);
	put_s(d, demo_flag_names[j->flags]);
	SEP(d);
	put_ts(d, j->submit);
	SEP(d);
	put_ts(d, j->eligible);
	SEP(d);
	if (pending)
		put_s(d, "Unknown");
	else
		put_ts(d, j->start);
	SEP(d);
	if (j->end < 0)
		put_s(d, "Unknown");
	else
		put_ts(d, j->end);
	SEP(d);
	put_hms(d, el);
	SEP(d);
	put_i(d, el);
	SEP(d);
	put_time_flag(d, j->limit_min);
	SEP(d);
	put_i(d, j->limit_min);
	SEP(d);
	put_mem_m(d, j->mem_m * j->nnodes);
	SEP(d);
	put_i(d, j->cpus);
	SEP(d);
	put_i(d, j->nnodes);
	SEP(d);
	put_tres(d, 1, j->cpus, j->gpus, j->mem_m * j->nnodes, j->nnodes);
	SEP(d);
	if (placed)
		put_tres(d, 1, j->cpus, j->gpus, j->mem_m * j->nnodes,
			 j->nnodes);
	SEP(d);
	put_i(d, placed ? j->cpus : 0);
	SEP(d);
	put_i(d, j->cpus);
	SEP(d);
	put_i(d, j->nnodes);
	SEP(d);
	SEP(d);			/* NTasks: steps only */
	if (placed)
		put_nodes(d, j, j->nnodes);
	else
		put_s(d, "None assigned");
	SEP(d);
	put_cpu(d, demo_job_cpu_ms(j, 0));
	SEP(d);
	put_cpu(d, demo_job_cpu_ms(j, 1));
	SEP(d);
	put_cpu(d, demo_job_cpu_ms(j, 2));
	SEP(d);
	put_hms(d, pending ? 0 : el * j->cpus);
	SEP(d);
	put_i(d, pending ? 0 : el * j->cpus);
	SEP(d);
	put_skip(d, 16);	/* AveCPU .. TRESUsageInMax: steps only */
	if (j->constraint)
		put_s(d, "h100");
	SEP(d);
	put_s(d, dir);
	SEP(d);
	SEP(d);			/* Comment */
	put_submit_line(d, j, name, sb + j->script);
	SEP(d);
	put_log(d, j, dir, 0);
	SEP(d);
	put_log(d, j, dir, 1);
	put_c(d, '\n');
}

static void
put_step_name(struct demo *d, const struct dstep *s)
{
	switch (s->kind) {
	case STEP_BATCH:
		put_s(d, "batch");
		break;
	case STEP_EXTERN:
		put_s(d, "extern");
		break;
	case STEP_INTERACTIVE:
		put_s(d, "interactive");
		break;
	default:
		put_i(d, s->index);
		break;
	}
}

/* "cpu=..,energy=0,fs/disk=..[,gres/gpumem=..,gres/gpuutil=..],mem=..,
 * pages=..,vmem=.." for one of total, average or maximum. */
static void
put_usage(struct demo *d, const struct dstep *s, int gpu_job,
	  int64_t cpu_s, int64_t disk, int64_t mem_k, int64_t pages,
	  int64_t vm_k)
{
	put_s(d, "cpu=");
	put_hms(d, cpu_s);
	put_s(d, ",energy=0,fs/disk=");
	put_i(d, disk);
	if (gpu_job) {
		put_s(d, ",gres/gpumem=");
		put_i(d, s->gpu_mem_m);
		put_s(d, "M,gres/gpuutil=");
		put_i(d, s->gpu_util);
	}
	put_s(d, ",mem=");
	put_kib(d, mem_k);
	put_s(d, ",pages=");
	put_i(d, pages);
	put_s(d, ",vmem=");
	put_kib(d, vm_k);
}

static void
put_step_cpu(struct demo *d, const struct djob *j, const struct dstep *s)
{
	put_hms(d, s->ave_cpu_s);
	SEP(d);
	put_hms(d, s->min_cpu_s);
	SEP(d);
	put_node(d, j->node[s->min_node]);
	SEP(d);
	put_i(d, s->min_task);
	SEP(d);
}

static void
put_step_usage(struct demo *d, const struct djob *j, const struct dstep *s,
	       int64_t cpu_ms)
{
	int gpu_job = j->gpus > 0;
	int64_t per_task_read = (s->read_b + s->tasks - 1) / s->tasks;

	put_kib(d, s->rss_k);
	SEP(d);
	put_node(d, j->node[s->rss_node]);
	SEP(d);
	put_i(d, s->rss_task);
	SEP(d);
	put_kib(d, s->ave_rss_k);
	SEP(d);
	put_kib(d, s->vm_k);
	SEP(d);
	put_i(d, s->pages);
	SEP(d);
	put_scaled(d, per_task_read);
	SEP(d);
	put_scaled(d, (s->write_b + s->tasks - 1) / s->tasks);
	SEP(d);
	put_usage(d, s, gpu_job, cpu_ms / 1000, s->read_b, s->rss_k,
		  s->pages, s->vm_k);
	SEP(d);
	put_s(d, "energy=0,fs/disk=");
	put_i(d, s->write_b);
	SEP(d);
	put_usage(d, s, gpu_job, s->ave_cpu_s, s->read_b / s->tasks,
		  s->ave_rss_k, s->pages / s->tasks, s->vm_k * 9 / 10);
	SEP(d);
	put_usage(d, s, gpu_job, s->max_cpu_s, per_task_read, s->rss_k,
		  s->pages, s->vm_k);
	SEP(d);
}

static void
write_step(struct demo *d, const struct djob *j, const struct dstep *s)
{
	int64_t el = (s->end < 0 ? NOW : s->end) - s->start;
	int64_t cpu_ms = s->user_ms + s->sys_ms;
	int64_t mem_m = j->mem_m * s->nnodes;

	put_jobid(d, j);
	put_c(d, '.');
	put_step_name(d, s);
	SEP(d);
	put_i(d, j->raw);
	put_c(d, '.');
	put_step_name(d, s);
	SEP(d);
	if (s->kind == STEP_SRUN)
		put_s(d, s->cmd);
	else
		put_step_name(d, s);
	put_s(d, "|||");	/* User, UID: allocation only */
	put_s(d, demo_users[j->user].account);
	put_s(d, "|" CLUSTER "|||");	/* Partition, QOS: allocation only */
	put_s(d, demo_state_names[s->state]);
	SEP(d);
	put_exit(d, s->code, s->sig);
	put_s(d, "||||");	/* DerivedExitCode, Reason, Flags */
	put_ts(d, s->start);
	SEP(d);
	put_ts(d, s->start);
	SEP(d);
	put_ts(d, s->start);
	SEP(d);
	if (s->end < 0)
		put_s(d, "Unknown");
	else
		put_ts(d, s->end);
	SEP(d);
	put_hms(d, el);
	SEP(d);
	put_i(d, el);
	put_s(d, "|||");	/* Timelimit, TimelimitRaw */
	put_mem_m(d, j->mem_m * j->nnodes);
	SEP(d);
	put_i(d, s->cpus);
	SEP(d);
	put_i(d, s->nnodes);
	put_s(d, "||");		/* ReqTRES */
	put_tres(d, 0, s->cpus, s->gpus, mem_m, s->nnodes);
	SEP(d);
	put_i(d, s->cpus);
	SEP(d);
	put_i(d, s->cpus);
	SEP(d);
	put_i(d, s->nnodes);
	SEP(d);
	put_i(d, s->tasks);
	SEP(d);
	put_nodes(d, j, s->nnodes);
	SEP(d);
	put_cpu(d, cpu_ms);
	SEP(d);
	put_cpu(d, s->user_ms);
	SEP(d);
	put_cpu(d, s->sys_ms);
	SEP(d);
	put_hms(d, el * s->cpus);
	SEP(d);
	put_i(d, el * s->cpus);
	SEP(d);
	if (!s->stats) {
		put_skip(d, 16);	/* AveCPU .. TRESUsageInMax */
	} else {
		put_step_cpu(d, j, s);
		if (s->rss_k < 0)
			put_skip(d, 12);	/* killed before a sample */
		else
			put_step_usage(d, j, s, cpu_ms);
	}
	put_skip(d, 3);		/* Constraints, WorkDir, Comment */
	if (s->kind == STEP_SRUN) {
		put_s(d, "srun ");
		put_s(d, s->cmd);
		put_s(d, " run.py");
	}
	put_s(d, "||\n");	/* StdOut, StdErr: allocation only */
}

void
demo_write_job(struct demo *d, const struct djob *j, const char *sb)
{
	write_alloc(d, j, sb);
	for (int i = 0; i < j->nsteps; i++)
		write_step(d, j, &j->step[i]);
}
