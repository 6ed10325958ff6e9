/*
 * sp_demo.c - the synthetic accounting history behind --demo.
 *
 * Two parts are merged.  The named cases -- every story the article and
 * the original tool's demo tell, with their numbers -- are hand-placed
 * jobs kept in one array.  The long tail is drawn from a fixed-seed
 * generator: only a 16-byte (time, workload, run) entry is kept per job,
 * so a million jobs cost 16 MB, and each is expanded into rows as it is
 * written.  Both streams are merged by submit time, job ids are handed
 * out in that order, and every allocation is printed with its steps as
 * "sacct --parsable2 -D" prints it.
 *
 * Everything derives from a fixed seed and fixed dates, and no libm
 * function is called, so the bytes are the same on every run.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp_demo.h"
#include "sp_util.h"

/* ------------------------------------------------------------------ */
/* Fixed reference: the history and the moment it was read.           */

#define DEMO_SEED	0x5eed51a7c0ffee11ULL
#define CLUSTER		"tessera"
/* Job ids follow submit time: one id every ID_SECONDS from T0. */
#define ID_BASE		51000000L
#define ID_SECONDS	2
#define MAX_NODES	4
#define MAX_STEPS	4
#define GIB_K		1048576LL	/* KiB in a GiB */
#define GIB_M		1024LL		/* MiB in a GiB */
/* Rows are flushed to the stream in blocks of this size. */
#define OUT_CAP		(1 << 20)

static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void
civil_from_days(int64_t z, int *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

static int64_t
at(int mo, int d, int h, int mi, int s)
{
	return days_from_civil(2026, mo, d) * 86400 + h * 3600 + mi * 60 + s;
}

#define T0		at(1, 5, 0, 0, 0)
#define NOW		at(3, 16, 9, 30, 0)
/* Tail jobs end well before the record was read. */
#define TAIL_END	(NOW - 3 * 86400)

/* ------------------------------------------------------------------ */
/* splitmix64: small, fast, and the same everywhere.                  */

static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct rng {
	uint64_t s;
};

static uint64_t
rnext(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return mix64(r->s);
}

static void
rseed(struct rng *r, uint64_t a, uint64_t b)
{
	r->s = mix64(DEMO_SEED ^ mix64(a * 0x9e3779b97f4a7c15ULL + b));
}

/* Uniform in [0, 1). */
static double
runit(struct rng *r)
{
	return (double)(rnext(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform integer in [lo, hi]. */
static int64_t
rint_in(struct rng *r, int64_t lo, int64_t hi)
{
	if (hi <= lo)
		return lo;
	return lo + (int64_t)(rnext(r) % (uint64_t)(hi - lo + 1));
}

static double
rdbl(struct rng *r, double lo, double hi)
{
	return lo + (hi - lo) * runit(r);
}

/* 1 with probability permille/1000. */
static int
rchance(struct rng *r, int permille)
{
	return (int)(rnext(r) % 1000) < permille;
}

/* ------------------------------------------------------------------ */
/* The cluster: users, partitions, nodes.                             */

struct duser {
	const char *name;
	long uid;
	const char *account;
};

enum { ALICE, BOB, CAROL, NUSERS };

static const struct duser users[NUSERS] = {
	{ "alice", 41203, "nlp-lab" },
	{ "bob", 41877, "vision-lab" },
	{ "carol", 42310, "nlp-lab" },
};

enum { P_GPU, P_CPU };
static const char *const partitions[] = { "gpu", "cpu" };

/*
 * Nodes by global index: g001-g040 (64 cores, 4 GPUs, 512 GiB),
 * g041-g044 (128 cores, 8 GPUs, 1 TiB), c001-c120 (48 cores, 384 GiB).
 */
#define NG_SMALL	40
#define NG		44
#define NC		120

static int
G(int n)
{
	return n - 1;
}

static int
C(int n)
{
	return NG + n - 1;
}

static char
node_prefix(int idx)
{
	return idx < NG ? 'g' : 'c';
}

static int
node_number(int idx)
{
	return idx < NG ? idx + 1 : idx - NG + 1;
}

/* ------------------------------------------------------------------ */
/* The model: one allocation attempt and its steps.                   */

enum state {
	ST_COMPLETED, ST_FAILED, ST_TIMEOUT, ST_OOM, ST_CANCELLED,
	ST_NODE_FAIL, ST_RUNNING, ST_PENDING
};

static const char *const state_names[] = {
	"COMPLETED", "FAILED", "TIMEOUT", "OUT_OF_MEMORY", "CANCELLED",
	"NODE_FAIL", "RUNNING", "PENDING"
};

/* What slurmctld records as the reason a job is where it is. */
static const char *const state_reasons[] = {
	"None", "NonZeroExitCode", "TimeLimit", "OutOfMemory", "None",
	"NodeDown", "None", "Priority"
};

enum { STEP_BATCH, STEP_EXTERN, STEP_INTERACTIVE, STEP_SRUN };
enum { LINK_NEW, LINK_SAME_ID };
enum { LOG_DEFAULT, LOG_NAMED, LOG_NONE };
enum { FL_MAIN, FL_BACKFILL, FL_SUBMIT, FL_NONE };
/* How the scheduler started the job; nothing for one that never ran. */
static const char *const flag_names[] = {
	"SchedMain", "SchedBackfill", "SchedSubmit", ""
};

struct dstep {
	int kind, index;
	int state, code, sig;
	int cpus, tasks, nnodes;	/* on the job's first nnodes nodes */
	int gpus;
	int64_t start, end;		/* end < 0: still running */
	int64_t user_ms, sys_ms;
	int64_t ave_cpu_s, min_cpu_s, max_cpu_s;
	int min_task, min_node;
	int stats;			/* 0: no usage recorded at all */
	int64_t rss_k;			/* < 0: never sampled */
	int64_t ave_rss_k, vm_k, pages, read_b, write_b;
	int rss_task, rss_node;
	int gpu_util;
	int64_t gpu_mem_m;
	const char *cmd;		/* srun's program */
};

struct djob {
	int64_t key;		/* merge order: the first attempt's submit */
	int seq;		/* order among entries sharing a key */
	size_t ord;		/* order of creation, the last tie-break */
	int link;
	int array_n, array_i;	/* array size and task; 0 when not one */
	long id, raw, master;
	int user, part;
	size_t name, script, dir;	/* offsets in a string arena */
	int cpus, nnodes, gpus;
	int64_t mem_m;		/* per node */
	int limit_min;
	int64_t submit, eligible, start, end;	/* start < 0 pending */
	int state, code, sig;
	long cancelled_by;	/* -1: not cancelled */
	int flags, log, constraint, wrap;
	int placed;		/* 0: never ran (pending, or cancelled first) */
	int node[MAX_NODES];
	int nsteps;
	struct dstep step[MAX_STEPS];
};

/* What a case asks for; build() turns it into a job and its steps. */
struct jspec {
	const char *name, *script, *dir;
	int user, part, cpus, gpus, nnodes;
	int64_t mem_m;
	int limit_min;
	int64_t submit, wait, elapsed;	/* elapsed < 0: still running */
	int state, code, sig;
	long cancelled_by;
	int64_t cpu_ms;		/* work CPU; < 0: util x cores x elapsed */
	double util;
	int64_t sys_ms;		/* < 0: sys_frac of the work CPU */
	double sys_frac;
	int64_t rss_k;		/* work-step peak; < 0: never sampled */
	int64_t ave_rss_k;	/* 0: the peak (one task) */
	int64_t read_b, write_b, pages;
	int gpu_util;
	int node;		/* first node; the others follow it */
	int srun_tasks;		/* 0: the work runs in the batch step */
	const char *srun_cmd;
	int64_t ave_cpu_s, min_cpu_s;	/* > 0: the srun step's spread */
	int min_task;
	int interactive, log, constraint, wrap;
	int array_n, array_i;
	int link;
	int64_t key;
	int seq;
	int pending;		/* still waiting to start */
	int unplaced;		/* cancelled before it started */
	uint64_t salt;		/* varies the small details */
};

static void
spec_init(struct jspec *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu_ms = -1;
	s->sys_ms = -1;
	s->sys_frac = 0.05;
	s->util = 0.5;
	s->rss_k = 4 * GIB_K;
	s->cancelled_by = -1;
	s->nnodes = 1;
	s->key = -1;
	s->wait = 30;
	s->gpu_util = 80;
}

struct demo {
	struct djob *named;
	size_t nnamed, capnamed;
	struct sp_buf strs;	/* names of the named jobs */
	struct sp_buf scratch;	/* names of the tail job being written */
	struct tailent *tail;
	size_t ntail, captail;
	long ntailwl;
	struct sp_buf namebuf;	/* a tail name being composed */
	/* output */
	FILE *f;
	char *buf;
	size_t len;
	int err;
	int64_t day;
	char date[12];
	/* id assignment */
	long last_id, prev_id, prev_raw, prev_master;
};

/* ------------------------------------------------------------------ */
/* Output: one block buffer, hand-rolled formatting (no printf).       */

static void
flush_out(struct demo *d)
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
		flush_out(d);
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
		flush_out(d);
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

/* Elapsed, Timelimit, CPUTime: HH:MM:SS, or D-HH:MM:SS from a day. */
static void
put_hms(struct demo *d, int64_t s)
{
	if (s >= 86400) {
		put_i(d, s / 86400);
		put_c(d, '-');
		s %= 86400;
	}
	put_2(d, s / 3600);
	put_c(d, ':');
	put_2(d, s / 60 % 60);
	put_c(d, ':');
	put_2(d, s % 60);
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
		int y, m, dd;

		civil_from_days(day, &y, &m, &dd);
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
	put_2(d, s / 3600);
	put_c(d, ':');
	put_2(d, s / 60 % 60);
	put_c(d, ':');
	put_2(d, s % 60);
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
	put_s(d, partitions[j->part]);
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

static int64_t
job_cpu_ms(const struct djob *j, int which)
{
	int64_t t = 0;

	for (int i = 0; i < j->nsteps; i++) {
		const struct dstep *s = &j->step[i];

		if (which != 2)
			t += s->user_ms;
		if (which != 1)
			t += s->sys_ms;
	}
	return t;
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
	put_s(d, users[j->user].name);
	SEP(d);
	put_i(d, users[j->user].uid);
	SEP(d);
	put_s(d, users[j->user].account);
	SEP(d);
	put_s(d, CLUSTER "|");
	put_s(d, partitions[j->part]);
	put_s(d, "|normal|");
	put_s(d, state_names[j->state]);
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
	put_s(d, state_reasons[j->state]);
	SEP(d);
	put_s(d, flag_names[j->flags]);
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
	put_cpu(d, job_cpu_ms(j, 0));
	SEP(d);
	put_cpu(d, job_cpu_ms(j, 1));
	SEP(d);
	put_cpu(d, job_cpu_ms(j, 2));
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
	put_s(d, users[j->user].account);
	put_s(d, "|" CLUSTER "|||");	/* Partition, QOS: allocation only */
	put_s(d, state_names[s->state]);
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

static void
write_job(struct demo *d, const struct djob *j, const char *sb)
{
	write_alloc(d, j, sb);
	for (int i = 0; i < j->nsteps; i++)
		write_step(d, j, &j->step[i]);
}

/* ------------------------------------------------------------------ */
/* Building a job from its spec: every figure agrees with the others.  */

static size_t
arena_add(struct sp_buf *a, const char *s)
{
	size_t off = a->len;

	sp_buf_add(a, s, strlen(s) + 1);
	return off;
}

static void
step_init(struct dstep *st, const struct djob *j, int kind, int cpus,
	  int tasks, int nnodes, int gpus)
{
	memset(st, 0, sizeof(*st));
	st->kind = kind;
	st->cpus = cpus;
	st->tasks = tasks;
	st->nnodes = nnodes;
	st->gpus = gpus;
	st->start = j->start;
	st->end = j->end;
	st->stats = j->state != ST_RUNNING && j->state != ST_NODE_FAIL;
}

/* How each step of a job ends, given how the job ended. */
static void
step_outcome(struct dstep *st, const struct djob *j)
{
	if (st->kind == STEP_EXTERN) {
		st->state = j->state == ST_RUNNING ? ST_RUNNING :
		    j->state == ST_NODE_FAIL ? ST_CANCELLED : ST_COMPLETED;
		return;
	}
	switch (j->state) {
	case ST_FAILED:
		st->state = ST_FAILED;
		st->code = j->code;
		st->sig = j->sig;
		break;
	case ST_OOM:
		st->state = ST_OOM;
		st->sig = 125;
		break;
	case ST_TIMEOUT:
	case ST_CANCELLED:
		st->state = ST_CANCELLED;
		st->sig = 15;
		break;
	case ST_NODE_FAIL:
		st->state = ST_CANCELLED;
		st->sig = 9;
		break;
	default:
		st->state = j->state;
		break;
	}
}

/* CPU seconds per task for AveCPU, MinCPU and the TRES maximum. */
static void
step_task_cpu(struct dstep *st, const struct jspec *s, struct rng *r)
{
	int64_t total = (st->user_ms + st->sys_ms) / 1000;

	st->min_task = 0;
	st->min_node = 0;
	if (st->tasks <= 1) {
		st->ave_cpu_s = st->min_cpu_s = st->max_cpu_s = total;
		return;
	}
	if (s->ave_cpu_s > 0) {
		st->ave_cpu_s = s->ave_cpu_s;
		st->min_cpu_s = s->min_cpu_s;
		st->min_task = s->min_task;
		/* The others share what the slowest did not use. */
		st->max_cpu_s = (total - st->min_cpu_s + st->tasks - 2) /
		    (st->tasks - 1);
	} else {
		st->ave_cpu_s = total / st->tasks;
		st->min_cpu_s = (int64_t)((double)st->ave_cpu_s *
		    rdbl(r, 0.86, 0.98));
		st->max_cpu_s = (int64_t)((double)st->ave_cpu_s *
		    rdbl(r, 1.01, 1.08)) + 1;
		st->min_task = (int)rint_in(r, 0, st->tasks - 1);
	}
	st->min_node = st->min_task * st->nnodes / st->tasks;
}

/* Memory, disk and GPU figures of a step that did the work. */
static void
step_work_usage(struct dstep *st, const struct jspec *s, struct rng *r,
		int gpu_job)
{
	/* A step that barely ran read little, unless it says otherwise. */
	int busy = st->user_ms + st->sys_ms >= 60000;

	st->rss_k = s->rss_k;
	if (s->rss_k < 0)
		return;
	st->ave_rss_k = s->ave_rss_k > 0 ? s->ave_rss_k :
	    st->tasks == 1 ? s->rss_k :
	    (int64_t)((double)s->rss_k * rdbl(r, 0.82, 0.95));
	st->rss_task = (int)rint_in(r, 0, st->tasks - 1);
	st->rss_node = st->rss_task * st->nnodes / st->tasks;
	/* CUDA maps a huge address space; CPU programs a modest one. */
	st->vm_k = gpu_job ? 1690000000LL + rint_in(r, 0, 90000000) +
	    s->rss_k : s->rss_k + s->rss_k / 4 + rint_in(r, 200000, 900000);
	st->pages = s->pages;
	st->read_b = s->read_b > 0 ? s->read_b :
	    rint_in(r, busy ? 20 : 1, busy ? 4000 : 40) << 20;
	st->write_b = s->write_b > 0 ? s->write_b :
	    rint_in(r, 1, busy ? 600 : 4) << 20;
	st->gpu_util = gpu_job ? s->gpu_util : 0;
	st->gpu_mem_m = !gpu_job ? 0 : s->gpu_util > 0 ?
	    rint_in(r, 9000, 70000) : rint_in(r, 0, 600);
}

static void
step_small_usage(struct dstep *st, struct rng *r, int extern_step)
{
	if (extern_step) {
		st->rss_k = rint_in(r, 1812, 2104);
		st->vm_k = rint_in(r, 4300, 4420);
		st->read_b = rint_in(r, 1900, 2100);
		st->write_b = 0;
	} else {
		st->rss_k = rint_in(r, 9000, 42000);
		st->vm_k = rint_in(r, 210000, 380000);
		st->read_b = rint_in(r, 1, 30) << 20;
		st->write_b = rint_in(r, 100, 5000) << 10;
	}
	st->ave_rss_k = st->rss_k;
}

/* Whole seconds once a figure reaches an hour: sacct drops the
 * milliseconds there, and the sums must still add up exactly. */
static void
round_cpu(struct djob *j)
{
	int64_t total = job_cpu_ms(j, 0);

	if (total < 3600000)
		return;
	for (int i = 0; i < j->nsteps; i++) {
		j->step[i].user_ms = (j->step[i].user_ms + 500) / 1000 * 1000;
		j->step[i].sys_ms = (j->step[i].sys_ms + 500) / 1000 * 1000;
	}
}

static void
build_steps(struct djob *j, const struct jspec *s, struct rng *r)
{
	int64_t el = j->end - j->start, work_ms, sys_ms, cap;
	int per_node_cpus = j->cpus / j->nnodes, gpu_job = j->gpus > 0;
	struct dstep *work, *ext, *sr = NULL;

	work = &j->step[j->nsteps++];
	step_init(work, j, s->interactive ? STEP_INTERACTIVE : STEP_BATCH,
		  per_node_cpus, 1, 1, j->gpus / j->nnodes);
	ext = &j->step[j->nsteps++];
	step_init(ext, j, STEP_EXTERN, j->cpus, j->nnodes, j->nnodes,
		  j->gpus);
	if (s->srun_tasks > 0) {
		int64_t lead = rint_in(r, 2, 11), tail = 0;

		sr = &j->step[j->nsteps++];
		step_init(sr, j, STEP_SRUN, j->cpus, s->srun_tasks, j->nnodes,
			  j->gpus);
		sr->cmd = s->srun_cmd ? s->srun_cmd : "python";
		if (j->end >= 0) {
			if (j->state == ST_COMPLETED)
				tail = rint_in(r, 0, 3);
			if (lead + tail > el / 4)
				lead = tail = 0;
			sr->end = j->end - tail;
		}
		sr->start = j->start + lead;
	}
	for (int i = 0; i < j->nsteps; i++)
		step_outcome(&j->step[i], j);
	if (j->end < 0 || j->state == ST_NODE_FAIL)
		return;		/* nothing recorded yet, or ever */

	work_ms = s->cpu_ms >= 0 ? s->cpu_ms :
	    (int64_t)(s->util * j->cpus * (double)el * 1000.0);
	{
		struct dstep *w = sr ? sr : work;
		int64_t wel = w->end - w->start;

		cap = (int64_t)w->cpus * wel * 998;
		if (work_ms > cap)
			work_ms = cap;
	}
	sys_ms = s->sys_ms >= 0 ? s->sys_ms :
	    (int64_t)((double)work_ms * s->sys_frac);
	if (sys_ms > work_ms)
		sys_ms = work_ms;
	if (sr) {
		int64_t launch = rint_in(r, 300, 2500);

		if (launch > el * 200)
			launch = el * 200;
		if (work_ms + launch > (int64_t)j->cpus * el * 1000)
			launch = 0;
		sr->user_ms = work_ms - sys_ms;
		sr->sys_ms = sys_ms;
		work->sys_ms = launch * 2 / 5;
		work->user_ms = launch - work->sys_ms;
	} else {
		work->user_ms = work_ms - sys_ms;
		work->sys_ms = sys_ms;
	}
	round_cpu(j);
	for (int i = 0; i < j->nsteps; i++)
		step_task_cpu(&j->step[i], s, r);

	if (s->rss_k < 0) {
		/* Dead before the first sample: no step has a figure. */
		for (int i = 0; i < j->nsteps; i++)
			j->step[i].rss_k = -1;
		return;
	}
	step_small_usage(ext, r, 1);
	if (sr) {
		step_small_usage(work, r, 0);
		step_work_usage(sr, s, r, gpu_job);
	} else {
		step_work_usage(work, s, r, gpu_job);
	}
}

static void
build(struct djob *j, const struct jspec *s, struct sp_buf *arena)
{
	struct rng r;
	char buf[256];

	memset(j, 0, sizeof(*j));
	rseed(&r, s->salt, (uint64_t)s->submit);
	j->key = s->key >= 0 ? s->key : s->submit;
	j->seq = s->seq;
	j->link = s->link;
	j->array_n = s->array_n;
	j->array_i = s->array_i;
	j->user = s->user;
	j->part = s->part;
	j->cpus = s->cpus;
	j->nnodes = s->nnodes;
	j->gpus = s->gpus;
	j->mem_m = s->mem_m;
	j->limit_min = s->limit_min;
	j->name = arena_add(arena, s->name);
	if (s->script) {
		j->script = arena_add(arena, s->script);
	} else {
		snprintf(buf, sizeof(buf), "%s.sh", s->name);
		j->script = arena_add(arena, buf);
	}
	if (s->dir) {
		j->dir = arena_add(arena, s->dir);
	} else {
		snprintf(buf, sizeof(buf), "/home/%s/%s",
			 users[s->user].name, s->name);
		j->dir = arena_add(arena, buf);
	}
	j->submit = s->submit;
	j->eligible = s->submit;
	j->state = s->state;
	j->code = s->code;
	j->sig = s->sig;
	if (s->state == ST_OOM)
		j->sig = 125;
	j->cancelled_by = s->cancelled_by;
	j->log = s->interactive ? LOG_NONE : s->log;
	j->constraint = s->constraint;
	j->wrap = s->wrap;
	j->flags = s->wait <= 1 ? FL_SUBMIT :
	    rchance(&r, 250) ? FL_BACKFILL : FL_MAIN;
	for (int i = 0; i < s->nnodes && i < MAX_NODES; i++)
		j->node[i] = s->node + i;
	if (s->pending) {
		j->state = ST_PENDING;
		j->start = j->end = -1;
		j->flags = FL_NONE;
		return;
	}
	j->start = s->submit + s->wait;
	if (s->unplaced) {
		j->end = j->start;
		j->flags = FL_NONE;
		return;
	}
	j->placed = 1;
	j->end = s->elapsed < 0 ? -1 : j->start + s->elapsed;
	build_steps(j, s, &r);
}

/* ------------------------------------------------------------------ */
/* The named cases.                                                    */

static void
add(struct demo *d, const struct jspec *s)
{
	d->named = sp_xgrow(d->named, &d->capnamed, d->nnamed + 1,
			    sizeof(*d->named));
	build(&d->named[d->nnamed], s, &d->strs);
	d->named[d->nnamed].ord = d->nnamed;
	d->nnamed++;
}

static struct jspec
base(const char *name, int user, int part, int cpus, int gpus,
     int64_t mem_g, int limit_min)
{
	struct jspec s;

	spec_init(&s);
	s.name = name;
	s.user = user;
	s.part = part;
	s.cpus = cpus;
	s.gpus = gpus;
	s.mem_m = mem_g * GIB_M;
	s.limit_min = limit_min;
	s.state = ST_COMPLETED;
	return s;
}

/*
 * The tokenizer (article, figure 4; reference rc-tok-github_code): ten
 * submissions in one evening, --mem walking 48G down to 12G and back up;
 * eight memory kills, the first two (both at 32G) before any sample; the
 * last completes at 32G -- a size already killed twice -- peaking at 24G.
 */
static void
case_tokenizer(struct demo *d)
{
	static const struct {
		int mem_g, state, mo, day, h, mi;
		int64_t elapsed;
		int rss_permille;	/* of the limit; 0 none */
	} run[10] = {
		{ 48, ST_CANCELLED, 3, 3, 18, 41, 212, 0 },
		{ 32, ST_OOM, 3, 3, 19, 2, 27, 0 },
		{ 32, ST_OOM, 3, 3, 19, 9, 41, 0 },
		{ 17, ST_OOM, 3, 3, 19, 31, 344, 1021 },
		{ 12, ST_OOM, 3, 3, 20, 14, 298, 1034 },
		{ 12, ST_OOM, 3, 3, 21, 5, 317, 1012 },
		{ 14, ST_OOM, 3, 3, 22, 20, 352, 1027 },
		{ 16, ST_OOM, 3, 3, 23, 48, 371, 1018 },
		{ 18, ST_OOM, 3, 4, 1, 37, 389, 1009 },
		{ 32, ST_COMPLETED, 3, 4, 3, 21, 1200, 0 },
	};

	for (int i = 0; i < 10; i++) {
		struct jspec s = base("rc-tok-github_code", ALICE, P_CPU, 16,
				      0, run[i].mem_g, 480);

		s.script = "tok_github.sh";
		s.dir = "/home/alice/rc-tok";
		s.node = C(17);
		s.submit = at(run[i].mo, run[i].day, run[i].h, run[i].mi,
			      11 + i * 5);
		s.wait = 6 + i * 3;
		s.elapsed = run[i].elapsed;
		s.state = run[i].state;
		s.util = 0.62;
		s.sys_frac = 0.09;
		s.log = LOG_NAMED;
		s.salt = 0x70c0 + (uint64_t)i;
		if (i == 0) {
			s.cancelled_by = users[ALICE].uid;
			s.util = 0.55;
			s.rss_k = 23488102;	/* 22.4 GiB */
		} else if (i == 9) {
			s.util = 0.71;
			s.rss_k = 24 * GIB_K;
		} else if (run[i].rss_permille == 0) {
			s.rss_k = -1;
		} else {
			s.rss_k = run[i].mem_g * GIB_K *
			    run[i].rss_permille / 1000;
		}
		add(d, &s);
	}
}

static void
shuffle_ints(int *v, int n, struct rng *r)
{
	for (int i = n - 1; i > 0; i--) {
		int k = (int)rint_in(r, 0, i), t = v[i];

		v[i] = v[k];
		v[k] = t;
	}
}

/*
 * The corpus array (article, figure 5): two single-task probes at 8G
 * peak at 1.00 and 0.72 GiB; the 142-task array sized from them at 6G
 * loses 71 tasks (37 hours) to memory; the rerun at 12G completes within
 * 41 minutes, and its per-task peaks put both probes in the smallest
 * fifth (59 shards above 6 GiB, 12 more killed by a brief spike).
 */
#define CORPUS_TASKS	142
#define CORPUS_LOST_S	133200		/* 37 hours of task time */

static void
corpus_peaks(int64_t *peak_k)
{
	static const struct {
		int n;
		double lo, hi;		/* GiB */
	} band[] = {
		{ 14, 0.38, 0.715 }, { 9, 0.73, 0.99 }, { 48, 1.05, 5.55 },
		{ 12, 5.62, 5.98 }, { 59, 6.03, 7.29 },
	};
	int order[CORPUS_TASKS], k = 0;
	int64_t sorted[CORPUS_TASKS];
	struct rng r;

	rseed(&r, 0xc0de, 142);
	for (size_t b = 0; b < sizeof(band) / sizeof(band[0]); b++)
		for (int i = 0; i < band[b].n; i++)
			sorted[k++] = (int64_t)(rdbl(&r, band[b].lo,
			    band[b].hi) * (double)GIB_K);
	sorted[CORPUS_TASKS - 1] = (int64_t)(7.30 * (double)GIB_K);
	for (int i = 0; i < CORPUS_TASKS; i++)
		order[i] = i;
	shuffle_ints(order, CORPUS_TASKS, &r);
	for (int i = 0; i < CORPUS_TASKS; i++)
		peak_k[i] = sorted[order[i]];
}

static void
case_corpus(struct demo *d)
{
	int64_t peak[CORPUS_TASKS], full[CORPUS_TASKS], lost = 0;
	int64_t killed_el[CORPUS_TASKS];
	int last_killed = -1;
	struct rng r;
	struct jspec s;

	corpus_peaks(peak);
	rseed(&r, 0xc0de, 6);
	/* The probes, a morning before the array. */
	for (int i = 0; i < 2; i++) {
		s = base("scan-corpus", ALICE, P_CPU, 2, 0, 8, 120);
		s.script = "scan_shard.sh";
		s.dir = "/scratch/alice/corpus-scan";
		s.submit = i == 0 ? at(2, 10, 10, 5, 12) : at(2, 10, 10, 48, 40);
		s.wait = 4;
		s.elapsed = i == 0 ? 1480 : 1320;
		s.rss_k = i == 0 ? GIB_K : 754975;	/* 1.00, 0.72 GiB */
		s.util = 0.9;
		s.sys_frac = 0.08;
		s.node = C(50 + i);
		s.salt = 0xb0be + (uint64_t)i;
		add(d, &s);
	}
	/* Who dies at 6G: every shard above it, and a dozen just under. */
	for (int i = 0; i < CORPUS_TASKS; i++) {
		double gib = (double)peak[i] / (double)GIB_K;

		full[i] = 1500 + (int64_t)(gib * 130.0) + rint_in(&r, 0, 200);
		killed_el[i] = 0;
		if (gib > 5.6) {
			killed_el[i] = (int64_t)((double)full[i] *
			    rdbl(&r, 0.66, 0.87));
			lost += killed_el[i];
			last_killed = i;
		}
	}
	/* Pin the destroyed task time to the article's 37 hours. */
	killed_el[last_killed] += CORPUS_LOST_S - lost;
	for (int i = 0; i < CORPUS_TASKS; i++) {
		s = base("scan-corpus", ALICE, P_CPU, 2, 0, 6, 120);
		s.script = "scan_shard.sh";
		s.dir = "/scratch/alice/corpus-scan";
		s.submit = at(2, 10, 14, 20, 7);
		s.array_n = CORPUS_TASKS;
		s.array_i = i;
		s.seq = i;
		s.wait = 3 + i * 3 / 2;
		s.util = 0.9;
		s.sys_frac = 0.08;
		s.node = C(50 + i % 22);
		s.salt = 0xa11a + (uint64_t)i;
		if (killed_el[i] > 0) {
			s.state = ST_OOM;
			s.elapsed = killed_el[i];
			s.rss_k = (int64_t)(6.0 * (double)GIB_K *
			    rdbl(&r, 0.90, 0.995));
		} else {
			s.elapsed = full[i];
			s.rss_k = peak[i];
		}
		add(d, &s);
	}
	/* The rerun, sized from the population: done in 41 minutes. */
	for (int i = 0; i < CORPUS_TASKS; i++) {
		double gib = (double)peak[i] / (double)GIB_K;

		s = base("scan-corpus", ALICE, P_CPU, 2, 0, 12, 120);
		s.script = "scan_shard.sh";
		s.dir = "/scratch/alice/corpus-scan";
		s.submit = at(2, 10, 16, 2, 30);
		s.array_n = CORPUS_TASKS;
		s.array_i = i;
		s.seq = i;
		s.wait = 2 + i / 4;
		s.elapsed = 1400 + (int64_t)(gib * 125.0) + rint_in(&r, 0, 100);
		s.rss_k = peak[i];
		s.util = 0.9;
		s.sys_frac = 0.08;
		s.node = C(72 + i % 22);
		s.salt = 0x2e2a + (uint64_t)i;
		add(d, &s);
	}
}

/*
 * The reasoning experiment (article, figure 6, third row): 99 timeouts
 * at an unchanged 30-minute limit, each blocked with almost no CPU
 * (50 GPU-hours, 300 core-hours between them), among 38 runs that
 * completed.
 */
#define REASON_RUNS	137
#define REASON_TIMEOUTS	99
#define REASON_TIMEOUT_S 180000		/* 50 GPU-h at one GPU */

static void
case_reasoning(struct demo *d)
{
	int outcome[REASON_RUNS], done = 0;
	int64_t sum = 0, span = 44LL * 86400 / REASON_RUNS;
	struct rng r;

	rseed(&r, 0x4ea5, 99);
	for (int i = 0; i < REASON_RUNS; i++)
		outcome[i] = i < REASON_TIMEOUTS;
	shuffle_ints(outcome, REASON_RUNS, &r);
	for (int i = 0; i < REASON_RUNS; i++) {
		struct jspec s = base("reasoning-exp", ALICE, P_GPU, 6, 1, 80,
				      30);

		s.script = "run_reasoning.sh";
		s.submit = at(1, 26, 9, 0, 0) + i * span +
		    rint_in(&r, 0, 10800);
		s.wait = rint_in(&r, 5, 900);
		s.node = G((int)rint_in(&r, 1, NG_SMALL));
		s.log = LOG_NAMED;
		s.salt = 0x4ea50000 + (uint64_t)i;
		if (outcome[i]) {
			s.state = ST_TIMEOUT;
			s.elapsed = 1800 + rint_in(&r, 5, 31);
			if (++done == REASON_TIMEOUTS)
				s.elapsed = REASON_TIMEOUT_S - sum;
			sum += s.elapsed;
			s.cpu_ms = rint_in(&r, 1200, 7900);
			s.gpu_util = 0;
			s.rss_k = rint_in(&r, 3250000, 3560000);
		} else {
			s.elapsed = rint_in(&r, 540, 1620);
			s.util = rdbl(&r, 0.5, 0.6);
			s.gpu_util = (int)rint_in(&r, 70, 90);
			s.rss_k = rint_in(&r, 3400000, 3900000);
		}
		add(d, &s);
	}
}

/*
 * Increases before any failure (article, figure 8 and after): the gating
 * experiment whose newest run asks 24G though an earlier one peaked at
 * 34.56G; a family whose recent runs ask 35 minutes though its longest
 * completed run took 4:10:00; a pretraining slice that finished 1:16
 * inside its 8-hour limit.
 */
static void
case_increases(struct demo *d)
{
	static const struct {
		int mem_g, day, mo;
		int64_t rss_k, elapsed;
	} gate[5] = {
		{ 48, 28, 1, 31582863, 3310 },	/* 30.12 GiB */
		{ 48, 30, 1, 36238787, 4790 },	/* 34.56 GiB */
		{ 48, 3, 2, 32547143, 4120 },	/* 31.04 GiB */
		{ 24, 6, 3, 20268974, 3650 },	/* 19.33 GiB */
		{ 24, 11, 3, 22932208, 3980 },	/* 21.87 GiB */
	};
	static const struct {
		int tag, mo, day, limit_min;
		int64_t elapsed;
	} warm[8] = {
		{ 100, 2, 2, 360, 12130 }, { 200, 2, 4, 360, 15000 },
		{ 400, 2, 6, 360, 13720 }, { 50, 3, 9, 35, 1092 },
		{ 25, 3, 10, 35, 1480 }, { 10, 3, 11, 35, 1865 },
		{ 5, 3, 12, 35, 1653 }, { 1, 3, 13, 35, 1310 },
	};
	static const struct {
		int mo, day;
		int64_t elapsed;
	} slice[4] = {
		{ 2, 15, 24072 }, { 2, 22, 25353 }, { 3, 1, 28724 },
		{ 3, 8, 24920 },
	};
	char name[64];

	for (int i = 0; i < 5; i++) {
		struct jspec s;

		snprintf(name, sizeof(name), "moe-gating-r%d", i + 1);
		s = base(name, BOB, P_GPU, 8, 1, gate[i].mem_g, 180);
		s.script = "gating.sh";
		s.dir = "/home/bob/moe-gating";
		s.submit = at(gate[i].mo, gate[i].day, 14, 10 + i, 3);
		s.wait = 40 + i * 17;
		s.elapsed = gate[i].elapsed;
		s.rss_k = gate[i].rss_k;
		s.node = G(4 + i * 5);
		s.salt = 0x9a7e + (uint64_t)i;
		add(d, &s);
	}
	for (int i = 0; i < 8; i++) {
		struct jspec s;

		snprintf(name, sizeof(name), "ablate-warmup-%d", warm[i].tag);
		s = base(name, CAROL, P_GPU, 8, 1, 40, warm[i].limit_min);
		s.script = "ablate.sh";
		s.dir = "/home/carol/ablate";
		s.submit = at(warm[i].mo, warm[i].day, 10, 2 + i, 30);
		s.wait = 25 + i * 11;
		s.elapsed = warm[i].elapsed;
		s.rss_k = (int64_t)(11.5 * (double)GIB_K) + i * 40961;
		s.util = 0.6;
		s.node = G(6 + i * 4);
		s.log = LOG_NAMED;
		s.salt = 0x3a3a + (uint64_t)i;
		add(d, &s);
	}
	for (int i = 0; i < 4; i++) {
		struct jspec s;

		snprintf(name, sizeof(name), "pretrain-slice-%d", i + 1);
		s = base(name, ALICE, P_GPU, 32, 4, 256, 480);
		s.script = "slice.sh";
		s.dir = "/scratch/alice/pretrain";
		s.submit = at(slice[i].mo, slice[i].day, 21, 30, 0);
		s.wait = 310 + i * 45;
		s.elapsed = slice[i].elapsed;
		s.rss_k = 188 * GIB_K + i * 1048577;
		s.util = 0.8;
		s.gpu_util = 93;
		s.srun_tasks = 4;
		s.node = G(10 + i * 7);
		s.log = LOG_NAMED;
		s.salt = 0x511c + (uint64_t)i;
		add(d, &s);
	}
}

/*
 * The evaluation of the article's figure 3 (eval-ckpt-4000): a day's
 * limit for a 42-minute run, MaxRSS of 46.3 GiB over a 32G limit without
 * a kill, 48.7 % of its CPU in the kernel.  Its siblings are ordinary;
 * one more is still pending.
 */
static void
case_eval(struct demo *d)
{
	static const struct {
		int tag, mo, day;
		int64_t elapsed;
	} run[6] = {
		{ 1000, 2, 20, 2311 }, { 2000, 2, 23, 2598 },
		{ 3000, 2, 26, 2450 }, { 4000, 3, 2, 2497 },
		{ 5000, 3, 5, 2660 }, { 6000, 3, 9, 2380 },
	};
	char name[64];
	struct jspec s;

	for (int i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "eval-ckpt-%d", run[i].tag);
		s = base(name, ALICE, P_GPU, 8, 1, 32, 1440);
		s.script = "eval_ckpt.sh";
		s.dir = "/home/alice/eval";
		s.submit = at(run[i].mo, run[i].day, 16, 40, 9 + i);
		s.wait = 12 + i * 9;
		s.elapsed = run[i].elapsed;
		s.node = G(21 + i);
		s.salt = 0xe7a1 + (uint64_t)i;
		if (run[i].tag == 4000) {
			s.cpu_ms = 10000000;
			s.sys_ms = 4870000;		/* 48.7 % */
			s.rss_k = 48548659;		/* 46.3 GiB */
			s.gpu_util = 61;
		} else {
			s.util = 0.35;
			s.sys_frac = 0.12;
			s.rss_k = (int64_t)((17.0 + i * 0.8) * (double)GIB_K);
			s.gpu_util = 64 + i;
		}
		add(d, &s);
	}
	s = base("eval-ckpt-7000", ALICE, P_GPU, 8, 1, 32, 1440);
	s.script = "eval_ckpt.sh";
	s.dir = "/home/alice/eval";
	s.submit = NOW - 2400;
	s.pending = 1;
	s.salt = 0xe7a7;
	add(d, &s);
}

/*
 * Allocations that held GPUs and computed nothing (article, figure 10),
 * long and short, one of them cancelled (the reference's node-evaluation:
 * 42 hours on two GPUs with 0.54 s of CPU).  One CPU job moved 600 GiB
 * with almost no CPU: I/O explains it, so it is no hang.
 */
static void
case_idle(struct demo *d)
{
	static const struct {
		const char *name;
		int user, cpus, gpus, state, limit_min, mo, day, h, mi;
		int64_t elapsed, cpu_ms;
	} run[] = {
		{ "interactive", BOB, 4, 1, ST_TIMEOUT, 480, 1, 21, 17, 5,
		  28831, 1900 },
		{ "interactive", BOB, 8, 2, ST_TIMEOUT, 720, 2, 11, 18, 40,
		  43227, 3400 },
		{ "interactive", BOB, 4, 1, ST_COMPLETED, 480, 2, 25, 10, 12,
		  540, 620 },
		{ "interactive", BOB, 4, 1, ST_COMPLETED, 480, 3, 3, 15, 33,
		  370, 1100 },
		{ "jupyter", BOB, 4, 1, ST_TIMEOUT, 1440, 2, 13, 9, 20,
		  86442, 4200 },
		{ "debug-gpu", CAROL, 4, 1, ST_COMPLETED, 60, 3, 4, 11, 2,
		  780, 400 },
	};
	struct jspec s;

	for (size_t i = 0; i < sizeof(run) / sizeof(run[0]); i++) {
		s = base(run[i].name, run[i].user, P_GPU, run[i].cpus,
			 run[i].gpus, 32 * run[i].gpus, run[i].limit_min);
		s.submit = at(run[i].mo, run[i].day, run[i].h, run[i].mi, 44);
		s.wait = 20 + (int64_t)i * 31;
		s.state = run[i].state;
		s.elapsed = run[i].elapsed;
		s.cpu_ms = run[i].cpu_ms;
		s.rss_k = 310000 + (int64_t)i * 23117;
		s.gpu_util = 0;
		s.interactive = strcmp(run[i].name, "interactive") == 0;
		s.node = G(12 + (int)i * 5);
		s.salt = 0x1d1e + (uint64_t)i;
		add(d, &s);
	}
	s = base("node-evaluation", ALICE, P_GPU, 8, 2, 64, 2880);
	s.script = "node_eval.sh";
	s.submit = at(3, 5, 8, 11, 30);
	s.wait = 42;
	s.state = ST_CANCELLED;
	s.cancelled_by = users[ALICE].uid;
	s.elapsed = 151200;
	s.cpu_ms = 540;
	s.rss_k = 2411724;
	s.gpu_util = 0;
	s.node = G(27);
	s.salt = 0x90de;
	add(d, &s);

	s = base("stage-shards", CAROL, P_CPU, 4, 0, 16, 120);
	s.submit = at(2, 9, 7, 40, 0);
	s.wait = 8;
	s.elapsed = 2640;
	s.cpu_ms = 7500;
	s.rss_k = 1300000;
	s.read_b = 300LL << 30;
	s.write_b = 298LL << 30;
	s.node = C(101);
	s.salt = 0x57a6;
	add(d, &s);
}

/*
 * Node trouble inside one workload (article, figure 11): 1,098
 * placements of rollout-gen over 19 nodes.  Three nodes hang it far more
 * often (45 hangs holding 689 GPU-hours); the large node g041 takes 403
 * placements and is significantly better; g005 clears the baseline on its
 * own but not after correcting for eleven rows; eight nodes are too thin
 * to test.  It has more hangs than any other workload, so it is the one a
 * node table picks by default.
 */
#define NODE_BAD_GPU_S	1240200		/* 689 GPU-hours at two GPUs */

static const struct {
	int node, trials, hangs, bad;
} rollout_nodes[] = {
	{ 3, 52, 16, 1 }, { 11, 49, 15, 1 }, { 17, 47, 14, 1 },
	{ 41, 403, 8, 0 },
	{ 1, 71, 5, 0 }, { 2, 74, 6, 0 }, { 5, 69, 12, 0 }, { 7, 73, 6, 0 },
	{ 8, 72, 6, 0 }, { 9, 70, 6, 0 }, { 12, 74, 7, 0 },
	{ 13, 9, 1, 0 }, { 14, 8, 1, 0 }, { 15, 7, 0, 0 }, { 16, 6, 1, 0 },
	{ 18, 5, 0, 0 }, { 19, 4, 1, 0 }, { 20, 3, 0, 0 }, { 21, 2, 0, 0 },
};
#define ROLLOUT_RUNS	1098

static void
case_nodes(struct demo *d)
{
	int slot[ROLLOUT_RUNS], n = 0, nbad = 0;
	int64_t el[ROLLOUT_RUNS], sum = 0;
	int last_cancel = -1;
	int64_t span = 65LL * 86400 / ROLLOUT_RUNS;
	struct rng r;

	/* slot = node row * 2 + hung */
	for (size_t i = 0; i < sizeof(rollout_nodes) /
	     sizeof(rollout_nodes[0]); i++)
		for (int k = 0; k < rollout_nodes[i].trials; k++)
			slot[n++] = (int)i * 2 + (k < rollout_nodes[i].hangs);
	rseed(&r, 0x0de5, 1098);
	shuffle_ints(slot, n, &r);
	/* The hangs on the three bad nodes: mostly timeouts at 8 h, one in
	 * six cancelled by hand; their total is pinned to 689 GPU-hours. */
	for (int i = 0; i < n; i++) {
		el[i] = 0;
		if (!(slot[i] & 1) || !rollout_nodes[slot[i] / 2].bad)
			continue;
		if (nbad++ % 6 == 0) {
			el[i] = -rint_in(&r, 14400, 27000);
			last_cancel = i;
		} else {
			el[i] = 28800 + rint_in(&r, 10, 55);
		}
		sum += el[i] < 0 ? -el[i] : el[i];
	}
	sum -= -el[last_cancel];
	el[last_cancel] = -(NODE_BAD_GPU_S - sum);

	for (int i = 0; i < n; i++) {
		int row = slot[i] / 2, hung = slot[i] & 1;
		struct jspec s = base("rollout-gen", ALICE, P_GPU, 16, 2, 128,
				      480);

		s.script = "rollout.sh";
		s.dir = "/scratch/alice/rollouts";
		s.submit = at(1, 7, 8, 0, 0) + i * span + rint_in(&r, 0, 3600);
		s.wait = rint_in(&r, 3, 1800);
		s.node = G(rollout_nodes[row].node);
		s.log = LOG_NAMED;
		s.salt = 0x7011000 + (uint64_t)i;
		if (hung) {
			s.cpu_ms = rint_in(&r, 300, 8000);
			s.gpu_util = 0;
			s.rss_k = rint_in(&r, 9 * GIB_K, 12 * GIB_K);
			if (rollout_nodes[row].bad && el[i] > 0) {
				s.state = ST_TIMEOUT;
				s.elapsed = el[i];
			} else if (rollout_nodes[row].bad) {
				s.state = ST_CANCELLED;
				s.elapsed = -el[i];
			} else if (rchance(&r, 500)) {
				s.state = ST_CANCELLED;
				s.elapsed = rint_in(&r, 360, 880);
			} else {
				s.state = ST_TIMEOUT;
				s.elapsed = 28800 + rint_in(&r, 10, 55);
			}
			if (s.state == ST_CANCELLED)
				s.cancelled_by = users[ALICE].uid;
		} else if (rchance(&r, 20)) {
			s.state = ST_FAILED;
			s.code = 1;
			s.elapsed = rint_in(&r, 300, 2400);
			s.util = 0.5;
			s.rss_k = rint_in(&r, 20 * GIB_K, 40 * GIB_K);
		} else {
			s.elapsed = rint_in(&r, 1200, 5400);
			s.util = rdbl(&r, 0.45, 0.85);
			s.gpu_util = (int)rint_in(&r, 75, 95);
			s.rss_k = rint_in(&r, 40 * GIB_K, 72 * GIB_K);
		}
		add(d, &s);
	}
}

/*
 * The original tool's demo workloads (reference §3), with its numbers.
 * node-evaluation is with the idle allocations above, rc-tok-github_code
 * is the tokenizer.
 */
static void
case_reference(struct demo *d)
{
	static const int att[7] = { 11, 17, 23, 28, 34, 40, 51 };
	char name[64];
	struct jspec s;
	struct rng r;

	rseed(&r, 0x3ef, 3);
	/* cot-exp: 12 runs hung on g027, 2 more hung and 6 completed on g031. */
	for (int i = 0; i < 20; i++) {
		int on_bad = i % 5 != 0 && i % 5 != 4;

		s = base("cot-exp", ALICE, P_GPU, 6, 1, 80, 30);
		s.script = "cot.sh";
		s.submit = at(2, 23, 9, 0, 0) + i * 35 * 60;
		s.wait = 15 + i;
		s.node = on_bad ? G(27) : G(31);
		s.rss_k = 1992294;		/* 1.9 GiB */
		s.salt = 0xc07 + (uint64_t)i;
		if (on_bad || i == 0 || i == 5) {
			s.state = ST_TIMEOUT;
			s.elapsed = 1826;
			s.cpu_ms = rint_in(&r, 420, 580);
			s.gpu_util = 0;
		} else {
			s.elapsed = 1785;
			s.cpu_ms = 1780000;		/* 00:29:40 */
			s.gpu_util = 71;
		}
		add(d, &s);
	}
	/* midtrain: 14 clean runs; the newest is the longest. */
	for (int i = 0; i < 14; i++) {
		s = base("midtrain", ALICE, P_GPU, 4, 3, 200, 120);
		s.script = "midtrain.sh";
		s.submit = at(1, 26, 10, 0, 0) + i * 164160;
		s.wait = 60 + i * 7;
		s.node = G(33);
		s.gpu_util = 85;
		s.salt = 0x111d + (uint64_t)i;
		if (i == 13) {
			s.elapsed = 6769;
			s.cpu_ms = 19899000;		/* 05:31:39 */
			s.sys_ms = 936000;		/* 00:15:36 */
			s.rss_k = 193517740;		/* 184.6 GiB */
			s.read_b = 121010703565LL;	/* 112.7 GiB */
			s.write_b = 149894358630LL;	/* 139.6 GiB */
		} else {
			s.elapsed = 6300 + (i * 31) % 400;
			s.util = rdbl(&r, 0.72, 0.73);
			s.sys_frac = 0.047;
			s.rss_k = rint_in(&r, 180 * GIB_K, 184 * GIB_K);
			s.read_b = rint_in(&r, 105, 112) << 30;
			s.write_b = rint_in(&r, 130, 139) << 30;
		}
		add(d, &s);
	}
	/* att-speed-#: seven names, one workload, nothing to say. */
	for (int i = 0; i < 7; i++) {
		snprintf(name, sizeof(name), "att-speed-%d", att[i]);
		s = base(name, ALICE, P_GPU, 12, 1, 96, 60);
		s.script = "att_speed.sh";
		s.dir = "/home/alice/att-speed";
		s.submit = at(2, 17, 13, 0, 0) + i * 50 * 60;
		s.wait = 30;
		s.elapsed = 2400;
		s.cpu_ms = 18000000;			/* 05:00:00 */
		s.sys_ms = 1080000;
		s.rss_k = 38 * GIB_K;
		s.node = G(22 + i);
		s.gpu_util = 88;
		s.salt = 0xa77 + (uint64_t)i;
		add(d, &s);
	}
	/* tokenize-shards: kernel-heavy, I/O-heavy, over-requested cores. */
	for (int i = 0; i < 4; i++) {
		s = base("tokenize-shards", ALICE, P_CPU, 16, 0, 32, 120);
		s.script = "tokenize.sh";
		s.submit = at(2, 24, 9, 0, 0) + i * 14 * 3600;
		s.wait = 9;
		s.elapsed = 3600;
		s.cpu_ms = 7200000;			/* 02:00:00 */
		s.sys_ms = 4800000;			/* 01:20:00 */
		s.read_b = 340LL << 30;
		s.write_b = 90LL << 30;
		s.rss_k = 9961472;			/* 9.5 GiB */
		s.node = C(44);
		s.salt = 0x70c5 + (uint64_t)i;
		add(d, &s);
	}
	/* ddp-pretrain: eight ranks, one of them a straggler, exit 1. */
	s = base("ddp-pretrain", ALICE, P_GPU, 32, 4, 160, 180);
	s.script = "ddp.sh";
	s.submit = at(2, 12, 11, 20, 0);
	s.wait = 75;
	s.state = ST_FAILED;
	s.code = 1;
	s.elapsed = 5400;
	s.srun_tasks = 8;
	s.cpu_ms = 28800000;				/* 08:00:00 */
	s.sys_ms = 1440000;
	s.ave_cpu_s = 3600;
	s.min_cpu_s = 720;
	s.min_task = 5;
	s.rss_k = 21 * GIB_K;
	s.ave_rss_k = 19 * GIB_K;
	s.node = G(42);
	s.gpu_util = 58;
	s.salt = 0xdd9;
	add(d, &s);
	/* soup-merge: paging, and more cores than it used. */
	s = base("soup-merge", ALICE, P_CPU, 8, 0, 48, 120);
	s.script = "soup.sh";
	s.submit = at(2, 19, 15, 4, 0);
	s.wait = 14;
	s.elapsed = 4200;
	s.cpu_ms = 3900000;				/* 01:05:00 */
	s.sys_frac = 0.08;
	s.pages = 820000;
	s.rss_k = 47290777;				/* 45.1 GiB */
	s.node = C(9);
	s.salt = 0x50a;
	add(d, &s);
}

/*
 * Habits of a real history: single-core jobs that saturate their core
 * (the CPU-advice trap), multi-threaded ones, exploratory "test" runs
 * that fail often, requeues after NODE_FAIL, a recycled job id, records
 * still open, a cancel by root, a submit line with a newline in it.
 */
static void
case_cpu_shapes(struct demo *d)
{
	static const struct {
		const char *name;
		int user, cpus, mem_g, limit_min, runs;
		int64_t el_lo, el_hi;
		double util_lo, util_hi;
		int first_day;		/* days after Jan 5 */
	} w[] = {
		{ "json-to-arrow", ALICE, 1, 8, 120, 8, 1200, 3000,
		  0.98, 0.99, 12 },
		{ "kmeans-embed", BOB, 16, 64, 360, 9, 7200, 14400,
		  0.78, 0.84, 20 },
		{ "compress-ckpt", CAROL, 8, 16, 120, 6, 1800, 3600,
		  0.93, 0.97, 33 },
		{ "render-plots", ALICE, 32, 64, 60, 5, 600, 1200,
		  0.05, 0.08, 41 },
	};
	struct rng r;
	struct jspec s;

	rseed(&r, 0xc9u, 1);
	for (int i = 0; i < 12; i++) {
		s = base("dedup-shards", CAROL, P_CPU, 1, 0, 4, 240);
		s.script = "dedup.sh";
		s.dir = "/scratch/carol/dedup";
		s.submit = at(2, 3, 8, 15, 0) + i * 243000 +
		    rint_in(&r, 0, 3600);
		s.wait = rint_in(&r, 2, 120);
		s.elapsed = rint_in(&r, 5400, 10800);
		s.util = rdbl(&r, 0.96, 0.995);
		s.sys_frac = 0.02;
		s.rss_k = rint_in(&r, 2200000, 3560000);
		s.node = C(60 + i);
		s.salt = 0xded0 + (uint64_t)i;
		add(d, &s);
	}
	for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
		for (int i = 0; i < w[k].runs; i++) {
			s = base(w[k].name, w[k].user, P_CPU, w[k].cpus, 0,
				 w[k].mem_g, w[k].limit_min);
			s.submit = T0 + w[k].first_day * 86400LL +
			    i * 2 * 86400LL + rint_in(&r, 28800, 64800);
			s.wait = rint_in(&r, 2, 300);
			s.elapsed = rint_in(&r, w[k].el_lo, w[k].el_hi);
			s.util = rdbl(&r, w[k].util_lo, w[k].util_hi);
			s.sys_frac = 0.03;
			s.rss_k = (int64_t)((double)w[k].mem_g * (double)GIB_K *
			    rdbl(&r, 0.35, 0.7));
			s.node = C(20 + (int)k * 7 + i % 5);
			s.salt = 0xc9c9 + k * 64 + (uint64_t)i;
			add(d, &s);
		}
	}
}

static void
case_tests(struct demo *d)
{
	static const struct {
		const char *name;
		int user, part, cpus, gpus, mem_g, limit_min, runs, fails;
		int first_day;
	} w[] = {
		{ "test", ALICE, P_CPU, 2, 0, 4, 10, 14, 9, 9 },
		{ "test-ddp", ALICE, P_GPU, 16, 2, 64, 30, 11, 7, 23 },
		{ "quick_test", BOB, P_GPU, 8, 1, 32, 20, 8, 6, 30 },
		{ "test#", CAROL, P_CPU, 4, 0, 8, 15, 12, 8, 15 },
		{ "mytest", ALICE, P_GPU, 4, 1, 16, 15, 7, 5, 50 },
	};
	/* Exit codes of the failures, in turn: an exception, a typo'd
	 * command, a usage error, a segfault. */
	static const int codes[][2] = {
		{ 1, 0 }, { 1, 0 }, { 127, 0 }, { 1, 0 }, { 2, 0 }, { 0, 11 },
	};
	char name[64];
	struct rng r;
	struct jspec s;

	rseed(&r, 0x7e57, 5);
	for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
		int fail[16];

		for (int i = 0; i < w[k].runs; i++)
			fail[i] = i < w[k].fails;
		shuffle_ints(fail, w[k].runs, &r);
		for (int i = 0; i < w[k].runs; i++) {
			const char *nm = w[k].name;

			if (strcmp(nm, "test#") == 0) {
				snprintf(name, sizeof(name), "test%d", i / 2 + 1);
				nm = name;
			}
			s = base(nm, w[k].user, w[k].part, w[k].cpus,
				 w[k].gpus, w[k].mem_g, w[k].limit_min);
			s.script = w[k].part == P_GPU ? "try_gpu.sh" : "try.sh";
			s.dir = w[k].user == BOB ? "/home/bob/scratchpad" :
			    w[k].user == CAROL ? "/home/carol/scratchpad" :
			    "/home/alice/scratchpad";
			s.submit = T0 + w[k].first_day * 86400LL +
			    i * 3 * 3600 + rint_in(&r, 0, 3000);
			s.wait = rint_in(&r, 1, 40);
			s.node = w[k].part == P_GPU ?
			    G((int)rint_in(&r, 1, NG_SMALL)) :
			    C((int)rint_in(&r, 1, NC));
			s.rss_k = rint_in(&r, 150000, 2500000);
			s.salt = 0x7e570 + k * 64 + (uint64_t)i;
			if (fail[i]) {
				int c = (i + (int)k) % 6;

				s.state = ST_FAILED;
				s.code = codes[c][0];
				s.sig = codes[c][1];
				s.elapsed = rint_in(&r, 3, 150);
				s.util = 0.4;
			} else {
				s.elapsed = rint_in(&r, 60, 280);
				s.util = 0.7;
			}
			if (w[k].part == P_GPU)
				s.gpu_util = (int)rint_in(&r, 20, 60);
			add(d, &s);
		}
	}
	/* A test run cancelled while it was still pending. */
	s = base("test", ALICE, P_CPU, 2, 0, 4, 10);
	s.script = "try.sh";
	s.dir = "/home/alice/scratchpad";
	s.submit = at(2, 26, 17, 2, 0);
	s.wait = 95;
	s.state = ST_CANCELLED;
	s.cancelled_by = users[ALICE].uid;
	s.unplaced = 1;
	s.salt = 0x7e5e;
	add(d, &s);
}

/* finetune-vit-s#: four of twelve runs lost a node and were requeued
 * (s7 twice); sacct -D shows every attempt under the same id. */
static void
case_requeue(struct demo *d)
{
	static const int fails[12] = { 0, 0, 1, 0, 0, 1, 2, 0, 0, 1, 0, 0 };
	char name[64];
	struct rng r;

	rseed(&r, 0x4e9, 12);
	for (int i = 0; i < 12; i++) {
		int64_t submit = at(1, 13, 19, 0, 0) + i * 4 * 86400LL +
		    rint_in(&r, 0, 7200), key = submit;

		snprintf(name, sizeof(name), "finetune-vit-s%d", i % 3 + 1);
		for (int a = 0; a <= fails[i]; a++) {
			struct jspec s = base(name, BOB, P_GPU, 32, 4, 192,
					      720);

			s.script = "finetune.sh";
			s.dir = "/home/bob/vit";
			s.submit = submit;
			s.key = key;
			s.seq = a;
			s.link = a > 0 ? LINK_SAME_ID : LINK_NEW;
			s.wait = rint_in(&r, 60, 900);
			s.srun_tasks = 4;
			s.rss_k = rint_in(&r, 120 * GIB_K, 150 * GIB_K);
			s.gpu_util = 90;
			s.util = 0.6;
			s.salt = 0xf17e + (uint64_t)(i * 4 + a);
			if (a < fails[i]) {
				s.state = ST_NODE_FAIL;
				s.elapsed = rint_in(&r, 3600, 18000);
				s.node = (i + a) % 2 ? G(36) : G(38);
			} else {
				s.elapsed = rint_in(&r, 21600, 32400);
				s.node = G(29 + i % 4 * 2);
			}
			add(d, &s);
			/* Requeued: the next attempt is submitted as this
			 * one ends. */
			submit += s.wait + s.elapsed + rint_in(&r, 5, 60);
		}
	}
}

static void
case_odd_records(struct demo *d)
{
	struct jspec s;

	/* A recycled id: carol's January job and bob's March job share
	 * it (the controller's counter was reset in between). */
	s = base("plot-loss", CAROL, P_CPU, 1, 0, 2, 10);
	s.submit = at(1, 9, 16, 2, 0);
	s.wait = 3;
	s.elapsed = 95;
	s.util = 0.9;
	s.rss_k = 412000;
	s.node = C(3);
	s.salt = 0x9107;
	add(d, &s);
	s = base("resize-images", BOB, P_CPU, 4, 0, 8, 60);
	s.submit = at(3, 10, 11, 15, 0);
	s.key = at(1, 9, 16, 2, 0);
	s.seq = 1;
	s.link = LINK_SAME_ID;
	s.wait = 12;
	s.elapsed = 1710;
	s.util = 0.8;
	s.rss_k = 2900000;
	s.node = C(88);
	s.salt = 0x4e51;
	add(d, &s);

	/* Open records: still running when the history was read. */
	s = base("rollout-gen", ALICE, P_GPU, 16, 2, 128, 480);
	s.script = "rollout.sh";
	s.dir = "/scratch/alice/rollouts";
	s.log = LOG_NAMED;
	s.submit = NOW - 7980 - 140;
	s.wait = 140;
	s.elapsed = -1;
	s.state = ST_RUNNING;
	s.node = G(41);
	s.salt = 0x0be1;
	add(d, &s);
	s = base("interactive", BOB, P_GPU, 4, 1, 32, 480);
	s.interactive = 1;
	s.submit = NOW - 11100 - 35;
	s.wait = 35;
	s.elapsed = -1;
	s.state = ST_RUNNING;
	s.node = G(15);
	s.salt = 0x0be2;
	add(d, &s);
	s = base("dedup-shards", CAROL, P_CPU, 1, 0, 4, 240);
	s.script = "dedup.sh";
	s.dir = "/scratch/carol/dedup";
	s.submit = NOW - 2820 - 4;
	s.wait = 4;
	s.elapsed = -1;
	s.state = ST_RUNNING;
	s.node = C(72);
	s.salt = 0x0be3;
	add(d, &s);

	/* Cancelled by root during a maintenance window. */
	s = base("index-build", CAROL, P_CPU, 8, 0, 32, 360);
	s.submit = at(2, 28, 22, 15, 0);
	s.wait = 30;
	s.state = ST_CANCELLED;
	s.cancelled_by = 0;
	s.elapsed = 7340;
	s.util = 0.7;
	s.rss_k = 21 * GIB_K;
	s.node = C(95);
	s.salt = 0x4007;
	add(d, &s);

	/* The article's own example of a fold: s1e20 and s2e47 -> s#e#. */
	for (int i = 0; i < 2; i++) {
		s = base(i == 0 ? "s1e20" : "s2e47", BOB, P_GPU, 8, 1, 48, 240);
		s.script = "episode.sh";
		s.dir = "/home/bob/episodes";
		s.submit = at(2, 5 + 2 * i, 20, 30, 0);
		s.wait = 50;
		s.elapsed = i == 0 ? 8000 : 9100;
		s.util = 0.4;
		s.rss_k = 30 * GIB_K + i * 777777;
		s.node = G(30 + i);
		s.salt = 0x5e20 + (uint64_t)i;
		add(d, &s);
	}

	/* sbatch --wrap with a line break inside the command. */
	s = base("wrap", CAROL, P_CPU, 4, 0, 8, 60);
	s.dir = "/scratch/carol/shards";
	s.submit = at(3, 2, 10, 3, 0);
	s.wait = 7;
	s.elapsed = 1432;
	s.util = 0.85;
	s.rss_k = 5100000;
	s.wrap = 1;
	s.node = C(33);
	s.salt = 0x3a9;
	add(d, &s);
}

/* ------------------------------------------------------------------ */
/* The long tail: hundreds of workloads, most run once or twice.        */

struct tailent {
	int64_t t;
	uint32_t w, r;
};

/*
 * One period of the tail is the default mix: a dozen heavy workloads
 * that hold most of the compute, mid-sized ones run a few to a couple of
 * dozen times, and small ones run once or twice.  Larger histories repeat
 * the mix with fresh names.
 */
#define TAIL_PERIOD	435
#define TAIL_HEAVY	12
/* The partitions' MaxTime, two days. */
#define TAIL_MAX_LIMIT_MIN 2880
/* The longest a tail job waits in the queue. */
#define TAIL_MAX_WAIT	21610
#define TAIL_MID	140

static const char *const tail_verbs[30] = {
	"eval", "train", "prep", "bench", "sweep", "ft", "infer", "embed",
	"tok", "dedup", "filter", "sample", "score", "convert", "merge",
	"shard", "probe", "index", "plot", "check", "distill", "align",
	"rerank", "parse", "export", "quant", "prune", "render", "mine",
	"label",
};

static const char *const tail_nouns[32] = {
	"gsm8k", "mmlu", "wiki", "c4", "code", "math", "arxiv", "books",
	"web", "reddit", "pubmed", "github", "stack", "news", "dialog", "vqa",
	"coco", "imnet", "audio", "speech", "proteins", "mol", "graph",
	"tables", "law", "patents", "forum", "qa", "docs", "slides", "tiles",
	"maps",
};

static const int heavy_runs[TAIL_HEAVY] = {
	22, 18, 12, 10, 9, 8, 8, 7, 6, 6, 5, 4
};

struct tailwl {
	long w, period;
	int combo, tier, user, part, cpus, gpus, nnodes, node_lo, node_n;
	int64_t mem_m;
	int limit_min, runs, variants, style, array, srun, log;
	int64_t el_lo, el_hi;
	double util_lo, util_hi, sys_frac, rss_lo, rss_hi;
	int p_fail, p_timeout, p_oom, p_cancel, p_hang;
	int64_t first, gap;
};

static int
pick(struct rng *r, const int *v, int n)
{
	return v[rint_in(r, 0, n - 1)];
}

/* Rounded up to a step of minutes, never under one step. */
static int
limit_for(int64_t seconds, int step_min)
{
	int64_t m = (seconds + 59) / 60;

	m = (m + step_min - 1) / step_min * step_min;
	return (int)(m < step_min ? step_min : m);
}

static void
tail_heavy(struct tailwl *t, long local, struct rng *r)
{
	t->part = P_GPU;
	t->runs = heavy_runs[local];
	t->srun = 1;
	t->sys_frac = 0.04;
	t->rss_lo = 0.45;
	t->rss_hi = 0.8;
	t->p_fail = 50;
	t->p_cancel = 40;
	if (local == 0) {
		/* The costliest workload: two 8-GPU nodes for a day. */
		t->gpus = 16;
		t->nnodes = 2;
		t->cpus = 192;
		t->mem_m = 800 * GIB_M;
		t->node_lo = G(41);
		t->node_n = 4;
		t->limit_min = 2880;
		t->el_lo = 30000;
		t->el_hi = 60000;
		t->util_lo = 0.25;
		t->util_hi = 0.4;
		t->user = ALICE;
	} else {
		switch (local % 3) {
		case 0:
			t->gpus = 8;
			t->cpus = 64;
			t->mem_m = 600 * GIB_M;
			t->node_lo = G(41);
			t->node_n = 4;
			break;
		case 1:
			t->gpus = 4;
			t->cpus = 32;
			t->mem_m = 256 * GIB_M;
			t->node_lo = G(1);
			t->node_n = NG_SMALL;
			break;
		default:
			t->gpus = 8;
			t->nnodes = 2;
			t->cpus = 64;
			t->mem_m = 256 * GIB_M;
			t->node_lo = G(1);
			t->node_n = NG_SMALL;
			break;
		}
		t->el_hi = rint_in(r, 6 * 3600, 24 * 3600);
		t->el_lo = t->el_hi / 2;
		t->limit_min = limit_for((int64_t)((double)t->el_hi *
		    rdbl(r, 1.1, 2.0)), 60);
		t->util_lo = 0.3;
		t->util_hi = 0.7;
		t->user = local < 6 ? ALICE : local < 9 ? BOB : CAROL;
	}
	if (t->nnodes == 0)
		t->nnodes = 1;
	t->gap = rint_in(r, 36, 72) * 3600;
	t->variants = rchance(r, 900) ? 1 : (int)rint_in(r, 2, 4);
}

static void
tail_sized(struct tailwl *t, struct rng *r, int mid)
{
	static const int gpus[] = { 1, 1, 1, 1, 2, 2, 4 };
	static const int per_gpu[] = { 4, 8, 16 };
	static const int gpu_mem[] = { 32, 48, 64, 96 };
	static const int cpus[] = { 1, 2, 4, 8, 16, 32 };
	static const int cpu_mem[] = { 2, 4, 8 };
	double u = runit(r);

	t->nnodes = 1;
	if (rchance(r, mid ? 650 : 700)) {
		t->part = P_GPU;
		t->gpus = mid ? pick(r, gpus, 7) : rchance(r, 600) ? 1 : 2;
		t->cpus = t->gpus * pick(r, per_gpu, 3);
		t->mem_m = t->gpus * pick(r, gpu_mem, 4) * GIB_M;
		t->node_lo = G(1);
		t->node_n = NG_SMALL;
		t->util_lo = rdbl(r, 0.15, 0.4);
		t->util_hi = t->util_lo + 0.25;
		t->srun = t->gpus > 1 && rchance(r, 500);
	} else {
		t->part = P_CPU;
		t->cpus = mid ? pick(r, cpus, 6) : pick(r, cpus + 3, 3);
		t->mem_m = (t->cpus < 2 ? 2 : t->cpus) *
		    pick(r, cpu_mem, 3) * GIB_M;
		t->node_lo = C(1);
		t->node_n = NC;
		t->util_lo = t->cpus == 1 ? 0.9 : rdbl(r, 0.2, 0.8);
		t->util_hi = t->cpus == 1 ? 0.99 : t->util_lo + 0.15;
	}
	t->sys_frac = rchance(r, 50) ? rdbl(r, 0.3, 0.5) : rdbl(r, 0.02, 0.15);
	t->rss_lo = rdbl(r, 0.1, 0.7);
	t->rss_hi = t->rss_lo + 0.15;
	if (rchance(r, 40)) {
		/* MaxRSS above the limit without a kill: shared pages. */
		t->rss_lo = 1.1;
		t->rss_hi = 1.5;
	}
	if (mid) {
		t->runs = 3 + (int)(u * u * 23.0);
		t->el_hi = 3600 + (int64_t)(u * u * 54000.0 * runit(r));
		t->gap = rint_in(r, 2, 72) * 3600;
		if (t->part == P_CPU && t->runs >= 4 && rchance(r, 150))
			t->array = t->runs;
		t->variants = t->array || !rchance(r, 30) ? 1 :
		    (int)(t->runs < 4 ? t->runs : rint_in(r, 2, 6));
		if (t->variants > 4)
			t->variants = 4;
	} else {
		double v = runit(r);

		t->runs = rchance(r, 700) ? 1 : 2;
		t->el_hi = 9000 + (int64_t)(v * 97200.0);
		t->gap = rint_in(r, 1, 120) * 3600;
		t->variants = t->runs == 2 && rchance(r, 20) ? 2 : 1;
	}
	t->el_lo = (int64_t)((double)t->el_hi * rdbl(r, 0.3, 0.9));
	t->limit_min = limit_for((int64_t)((double)t->el_hi *
	    rdbl(r, 1.05, 4.0)), 30);
	if (t->limit_min > TAIL_MAX_LIMIT_MIN)
		t->limit_min = TAIL_MAX_LIMIT_MIN;
	if (rchance(r, 200)) {
		t->p_fail = 250;
		t->p_timeout = 100;
		t->p_oom = 25;
		t->p_cancel = 50;
	} else {
		t->p_fail = 25;
		t->p_timeout = 15;
		t->p_oom = 4;
		t->p_cancel = 30;
	}
	t->p_hang = t->part == P_GPU ? 150 : 0;
}

static void
tail_params(struct tailwl *t, long w)
{
	struct rng r;
	long local = w % TAIL_PERIOD;
	double u;
	int64_t window = TAIL_END - T0 - 86400, span;

	memset(t, 0, sizeof(*t));
	rseed(&r, 0x7a11, (uint64_t)w);
	t->w = w;
	t->period = w / TAIL_PERIOD;
	t->combo = (int)((local * 389 + 241) % 960);
	t->tier = local < TAIL_HEAVY ? 0 : local < TAIL_HEAVY + TAIL_MID ? 1 : 2;
	u = runit(&r);
	t->user = u < 0.6 ? ALICE : u < 0.85 ? BOB : CAROL;
	t->log = rchance(&r, 400) ? LOG_NAMED : LOG_DEFAULT;
	t->style = (int)rint_in(&r, 0, 4);
	if (t->tier == 0)
		tail_heavy(t, local, &r);
	else
		tail_sized(t, &r, t->tier == 1);
	span = (t->array ? 0 : t->runs - 1) * t->gap;
	if (span > window / 2) {
		t->gap = window / 2 / (t->runs > 1 ? t->runs - 1 : 1);
		span = (t->array ? 0 : t->runs - 1) * t->gap;
	}
	/* Room after the last submit for its jitter, queue wait and a run
	 * to the limit, so that every tail job ends before TAIL_END. */
	span += t->gap / 3 + TAIL_MAX_WAIT + (int64_t)t->limit_min * 60 + 120;
	t->first = T0 + 21600 + rint_in(&r, 0, TAIL_END - T0 - span - 21600);
}

static void
put_letters(struct sp_buf *b, long v)
{
	char t[16];
	int n = 0;

	do {
		t[n++] = (char)('a' + v % 26);
		v /= 26;
	} while (v > 0);
	while (n > 0)
		sp_buf_addc(b, t[--n]);
}

/* verb-noun[-period letters][variant digits]: folds apart by design. */
static const char *
tail_name(struct sp_buf *b, const struct tailwl *t, int variant)
{
	sp_buf_clear(b);
	sp_buf_adds(b, tail_verbs[t->combo % 30]);
	sp_buf_addc(b, '-');
	sp_buf_adds(b, tail_nouns[t->combo / 30]);
	if (t->period > 0) {
		sp_buf_addc(b, '-');
		put_letters(b, t->period);
	}
	if (t->variants > 1) {
		switch (t->style) {
		case 0:
			sp_buf_printf(b, "-%d", variant + 1);
			break;
		case 1:
			sp_buf_printf(b, "_v%d", variant + 2);
			break;
		case 2:
			sp_buf_printf(b, "-s%de%d", variant + 1,
				      10 + variant * 37 % 90);
			break;
		case 3:
			sp_buf_printf(b, "-lr%de-4", variant + 1);
			break;
		default:
			sp_buf_printf(b, "-2026-0%d-%02d", 1 + variant / 28,
				      1 + variant % 28);
			break;
		}
	}
	return sp_buf_str(b);
}

static void
tail_push(struct demo *d, int64_t t, long w, int r)
{
	d->tail = sp_xgrow(d->tail, &d->captail, d->ntail + 1,
			   sizeof(*d->tail));
	d->tail[d->ntail].t = t;
	d->tail[d->ntail].w = (uint32_t)w;
	d->tail[d->ntail].r = (uint32_t)r;
	d->ntail++;
}

static int
cmp_tail(const void *a, const void *b)
{
	const struct tailent *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->w != y->w)
		return x->w < y->w ? -1 : 1;
	return x->r < y->r ? -1 : x->r > y->r;
}

/* budget < 0: the default tail, one period; else about that many jobs. */
static void
tail_plan(struct demo *d, long budget)
{
	struct tailwl t;
	long w, total = 0;

	for (w = 0; budget < 0 ? w < TAIL_PERIOD : total < budget; w++) {
		tail_params(&t, w);
		for (int r = 0; r < t.runs; r++) {
			struct rng jr;
			int64_t when;

			rseed(&jr, 0x7a3e, (uint64_t)w * 4096 + (uint64_t)r);
			when = t.first + (t.array ? r / t.array : r) * t.gap;
			if (!t.array)
				when += rint_in(&jr, 0, t.gap / 3);
			tail_push(d, when, w, r);
		}
		total += t.runs;
	}
	d->ntailwl = w;
	sp_sort(d->tail, d->ntail, sizeof(*d->tail), cmp_tail);
}

static void
tail_job(struct demo *d, const struct tailent *e, const struct tailwl *t,
	 struct djob *j)
{
	struct rng r;
	struct jspec s;
	int roll, gpu = t->part == P_GPU;
	int64_t limit_s = (int64_t)t->limit_min * 60;

	rseed(&r, 0x7a110000 + (uint64_t)t->w, e->r);
	spec_init(&s);
	s.name = tail_name(&d->namebuf, t, (int)(e->r % (uint32_t)t->variants));
	s.user = t->user;
	s.part = t->part;
	s.cpus = t->cpus;
	s.gpus = t->gpus;
	s.nnodes = t->nnodes;
	s.mem_m = t->mem_m;
	s.limit_min = t->limit_min;
	s.log = t->log;
	s.submit = e->t;
	s.seq = (int)e->r;
	s.salt = (uint64_t)t->w * 4096 + e->r;
	if (t->array) {
		s.array_n = t->array;
		s.array_i = (int)(e->r % (uint32_t)t->array);
		s.wait = 2 + s.array_i * rint_in(&r, 1, 4);
	} else {
		double u = runit(&r);

		s.wait = gpu ? 10 + (int64_t)(u * u * u * 21600.0) :
		    1 + (int64_t)(u * u * u * 3600.0);
	}
	s.node = t->node_lo + (int)rint_in(&r, 0, t->node_n - t->nnodes);
	s.util = rdbl(&r, t->util_lo, t->util_hi);
	s.sys_frac = t->sys_frac;
	s.gpu_util = (int)rint_in(&r, 40, 95);
	s.rss_k = (int64_t)((double)t->mem_m * 1024.0 *
	    rdbl(&r, t->rss_lo, t->rss_hi));
	s.srun_tasks = t->srun ? (gpu ? t->gpus : t->nnodes) : 0;
	roll = (int)rint_in(&r, 0, 999);
	if (roll < t->p_fail) {
		static const int codes[] = { 1, 1, 1, 2, 127, 1 };

		s.state = ST_FAILED;
		s.code = codes[rint_in(&r, 0, 5)];
		s.elapsed = rint_in(&r, 5, 5 + t->el_hi / 3);
	} else if ((roll -= t->p_fail) < t->p_timeout) {
		s.state = ST_TIMEOUT;
		s.elapsed = limit_s + rint_in(&r, 5, 60);
		if (rchance(&r, t->p_hang)) {
			s.cpu_ms = rint_in(&r, 200, 9000);
			s.gpu_util = 0;
		}
	} else if ((roll -= t->p_timeout) < t->p_oom) {
		s.state = ST_OOM;
		s.elapsed = rint_in(&r, 30, t->el_hi);
		s.rss_k = (int64_t)((double)t->mem_m * 1024.0 *
		    rdbl(&r, 0.95, 1.04));
	} else if ((roll -= t->p_oom) < t->p_cancel) {
		s.state = ST_CANCELLED;
		s.cancelled_by = users[t->user].uid;
		s.elapsed = rint_in(&r, 30, t->el_hi);
	} else {
		s.elapsed = rint_in(&r, t->el_lo, t->el_hi);
	}
	if (s.state != ST_TIMEOUT && s.elapsed >= limit_s)
		s.elapsed = limit_s - rint_in(&r, 1, 120);
	if (s.elapsed < 1)
		s.elapsed = 1;
	sp_buf_clear(&d->scratch);
	build(j, &s, &d->scratch);
}

/* ------------------------------------------------------------------ */
/* Merging, job ids, and the whole history.                            */

static int
cmp_named(const void *a, const void *b)
{
	const struct djob *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/*
 * Ids follow submit time (one every ID_SECONDS, other users' jobs in the
 * gaps).  An array takes one id per task: the first task gets the next
 * one, the last task keeps the array's own, as slurmctld splits them.
 * A requeued attempt or a recycled id repeats the one before it.
 */
static void
assign_id(struct demo *d, struct djob *j)
{
	if (j->link == LINK_SAME_ID) {
		j->id = d->prev_id;
		j->raw = d->prev_raw;
		j->master = d->prev_master;
	} else if (j->array_n > 0 && j->array_i > 0) {
		j->master = d->prev_master;
		j->raw = j->array_i == j->array_n - 1 ? j->master :
		    j->master + 1 + j->array_i;
		j->id = j->raw;
	} else {
		long t = ID_BASE + (long)((j->key - T0) / ID_SECONDS);
		long id = t > d->last_id ? t : d->last_id + 1;

		j->master = id;
		j->id = j->raw = id;
		if (j->array_n > 1)
			j->raw = id + 1;
		d->last_id = id + (j->array_n > 1 ? j->array_n - 1 : 0);
	}
	d->prev_id = j->id;
	d->prev_raw = j->raw;
	d->prev_master = j->master;
}

static void
emit(struct demo *d)
{
	struct djob job;
	struct tailwl t;
	size_t i = 0, k = 0;

	t.w = -1;
	put_n(d, header, sizeof(header) - 1);
	while ((i < d->nnamed || k < d->ntail) && !d->err) {
		if (k >= d->ntail ||
		    (i < d->nnamed && d->named[i].key <= d->tail[k].t)) {
			assign_id(d, &d->named[i]);
			write_job(d, &d->named[i], d->strs.p);
			i++;
		} else {
			if (t.w != (long)d->tail[k].w)
				tail_params(&t, (long)d->tail[k].w);
			tail_job(d, &d->tail[k], &t, &job);
			assign_id(d, &job);
			write_job(d, &job, d->scratch.p);
			k++;
		}
	}
	flush_out(d);
}

int
sp_demo_write(FILE *out, long njobs)
{
	struct demo d;
	int rc;

	memset(&d, 0, sizeof(d));
	d.f = out;
	d.buf = sp_xmalloc(OUT_CAP);
	d.day = -1;
	d.last_id = ID_BASE - 1;

	case_tokenizer(&d);
	case_corpus(&d);
	case_reasoning(&d);
	case_increases(&d);
	case_eval(&d);
	case_idle(&d);
	case_nodes(&d);
	case_reference(&d);
	case_cpu_shapes(&d);
	case_tests(&d);
	case_requeue(&d);
	case_odd_records(&d);
	sp_sort(d.named, d.nnamed, sizeof(*d.named), cmp_named);

	tail_plan(&d, njobs <= 0 ? -1 :
	    njobs > (long)d.nnamed ? njobs - (long)d.nnamed : 0);
	emit(&d);

	rc = d.err || fflush(out) != 0 || ferror(out) ? -1 : 0;
	free(d.buf);
	free(d.named);
	free(d.tail);
	sp_buf_free(&d.strs);
	sp_buf_free(&d.scratch);
	sp_buf_free(&d.namebuf);
	return rc;
}
