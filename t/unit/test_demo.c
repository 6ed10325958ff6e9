/*
 * test_demo.c - the demo history.  Every row must be what sacct would
 * print and agree with itself (checked with parsers written here, not
 * the library's, so the two can catch each other); the bytes must be the
 * same on every run; and every named case must be there with the numbers
 * the article and the original tool's demo give it.  The invariants are
 * checked at the default size and at a million jobs, streamed through a
 * pipe so the big history is never held in memory.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sp-fetch/demo.h"
#include "sp_util.h"
#include "tap.h"

#define NFIELDS		59
#define KIB_PER_GIB	1048576.0
#define REF_NOW		"2026-03-16T09:30:00"
#define REF_FIRST	"2026-01-05T00:00:00"

static const char *const field_names[NFIELDS] = {
	"JobID", "JobIDRaw", "JobName", "User", "UID", "Account", "Cluster",
	"Partition", "QOS", "State", "ExitCode", "DerivedExitCode", "Reason",
	"Flags", "Submit", "Eligible", "Start", "End", "Elapsed",
	"ElapsedRaw", "Timelimit", "TimelimitRaw", "ReqMem", "ReqCPUS",
	"ReqNodes", "ReqTRES", "AllocTRES", "AllocCPUS", "NCPUS", "NNodes",
	"NTasks", "NodeList", "TotalCPU", "UserCPU", "SystemCPU", "CPUTime",
	"CPUTimeRAW", "AveCPU", "MinCPU", "MinCPUNode", "MinCPUTask",
	"MaxRSS", "MaxRSSNode", "MaxRSSTask", "AveRSS", "MaxVMSize",
	"MaxPages", "MaxDiskRead", "MaxDiskWrite", "TRESUsageInTot",
	"TRESUsageOutTot", "TRESUsageInAve", "TRESUsageInMax", "Constraints",
	"WorkDir", "Comment", "SubmitLine", "StdOut", "StdErr",
};

enum {
	F_JOBID, F_RAW, F_NAME, F_USER, F_UID, F_ACCOUNT, F_CLUSTER, F_PART,
	F_QOS, F_STATE, F_EXIT, F_DERIVED, F_REASON, F_FLAGS, F_SUBMIT,
	F_ELIGIBLE, F_START, F_END, F_ELAPSED, F_ELAPSED_RAW, F_LIMIT,
	F_LIMIT_RAW, F_REQMEM, F_REQCPUS, F_REQNODES, F_REQTRES, F_ALLOCTRES,
	F_ALLOCCPUS, F_NCPUS, F_NNODES, F_NTASKS, F_NODELIST, F_TOTALCPU,
	F_USERCPU, F_SYSCPU, F_CPUTIME, F_CPUTIME_RAW, F_AVECPU, F_MINCPU,
	F_MINCPUNODE, F_MINCPUTASK, F_MAXRSS, F_MAXRSSNODE, F_MAXRSSTASK,
	F_AVERSS, F_MAXVM, F_MAXPAGES, F_DISKREAD, F_DISKWRITE, F_INTOT,
	F_OUTTOT, F_INAVE, F_INMAX, F_CONSTRAINTS, F_WORKDIR, F_COMMENT,
	F_SUBMITLINE, F_STDOUT, F_STDERR
};

/* ------------------------------------------------------------------ */
/* Minimal parsers of sacct's text.                                    */

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

static int
digits(const char *s, int n, int64_t *out)
{
	int64_t v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/* "2026-03-14T21:03:11" -> seconds; -1 when it is anything else. */
static int64_t
parse_ts(const char *s, size_t n)
{
	int64_t y, mo, d, h, mi, se;

	if (n != 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
	    s[13] != ':' || s[16] != ':' || digits(s, 4, &y) ||
	    digits(s + 5, 2, &mo) || digits(s + 8, 2, &d) ||
	    digits(s + 11, 2, &h) || digits(s + 14, 2, &mi) ||
	    digits(s + 17, 2, &se) || mo < 1 || mo > 12 || d < 1 || d > 31 ||
	    h > 23 || mi > 59 || se > 59)
		return -1;
	return days_from_civil(y, (int)mo, (int)d) * 86400 + h * 3600 +
	    mi * 60 + se;
}

/* D-HH:MM:SS, HH:MM:SS, MM:SS.mmm -> milliseconds; -1 otherwise. */
static int64_t
parse_dur_ms(const char *s, size_t n)
{
	int64_t part[3], days = 0, ms = 0;
	int np = 0;
	size_t i = 0;

	if (n == 0)
		return -1;
	for (size_t k = 0; k < n; k++) {
		if (s[k] == '-') {
			if (digits(s, (int)k, &days))
				return -1;
			i = k + 1;
			break;
		}
	}
	while (i < n && np < 3) {
		size_t j = i;

		while (j < n && isdigit((unsigned char)s[j]))
			j++;
		if (j == i || digits(s + i, (int)(j - i), &part[np]))
			return -1;
		np++;
		if (j < n && s[j] == '.') {
			int64_t f;

			if (n - j - 1 != 3 || digits(s + j + 1, 3, &f))
				return -1;
			ms = f;
			j = n;
		}
		i = j < n && s[j] == ':' ? j + 1 : j;
		if (j < n && s[j] != ':')
			return -1;
	}
	if (i != n)
		return -1;
	if (np == 3)
		return ((days * 24 + part[0]) * 3600 + part[1] * 60 + part[2]) *
		    1000 + ms;
	if (np == 2 && days == 0)
		return (part[0] * 60 + part[1]) * 1000 + ms;
	return -1;
}

/* "1956K", "32G", "6144M", "417.00M" -> KiB; -1 for anything else. */
static double
parse_kib(const char *s, size_t n)
{
	char buf[64], *end;
	double v, unit;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	v = strtod(buf, &end);
	switch (*end) {
	case 0:
		unit = 1.0 / 1024;	/* bytes */
		break;
	case 'K':
		unit = 1;
		break;
	case 'M':
		unit = 1024;
		break;
	case 'G':
		unit = 1024.0 * 1024;
		break;
	case 'T':
		unit = 1024.0 * 1024 * 1024;
		break;
	default:
		return -1;
	}
	if (*end && end[1])
		return -1;
	return v * unit;
}

struct fld {
	const char *p;
	size_t n;
};

static int
is(const struct fld *f, const char *s)
{
	return f->n == strlen(s) && memcmp(f->p, s, f->n) == 0;
}

static int
has_prefix(const struct fld *f, const char *s)
{
	return f->n >= strlen(s) && memcmp(f->p, s, strlen(s)) == 0;
}

static long long
num(const struct fld *f)
{
	int64_t v;

	if (f->n == 0 || f->n > 18 || digits(f->p, (int)f->n, &v))
		return -1;
	return v;
}

/* The value of key= in a TRES list, as a slice; n 0 when absent. */
static struct fld
tres(const struct fld *f, const char *key)
{
	struct fld out = { NULL, 0 };
	size_t kl = strlen(key), i = 0;

	while (i < f->n) {
		size_t j = i;

		while (j < f->n && f->p[j] != ',')
			j++;
		if (j - i > kl && memcmp(f->p + i, key, kl) == 0 &&
		    f->p[i + kl] == '=') {
			out.p = f->p + i + kl + 1;
			out.n = j - i - kl - 1;
			return out;
		}
		i = j + 1;
	}
	return out;
}

/* Number of nodes in "g003", "g[012-013]", "None assigned". */
static long
count_nodes(const struct fld *f)
{
	const char *lb = memchr(f->p, '[', f->n);
	int64_t a, b;

	if (is(f, "None assigned"))
		return 0;
	if (!lb)
		return 1;
	if (f->n < (size_t)(lb - f->p) + 9 || digits(lb + 1, 3, &a) ||
	    lb[4] != '-' || digits(lb + 5, 3, &b))
		return -1;
	return (long)(b - a + 1);
}

/* ------------------------------------------------------------------ */
/* What the checker keeps.                                             */

/* One allocation, for the case checks at the default size. */
struct arec {
	char jobid[32], name[64], user[16], part[8], state[40], exit[16];
	char nodes[24], reqmem[16], limit[16];
	long long raw, uid, cpus, gpus, elapsed, limit_s, nnodes;
	int64_t submit, start, end;
	int64_t cpu_ms, user_ms, sys_ms;
	int64_t work_cpu_ms;		/* every step but .extern */
	double reqmem_k, max_rss_k;	/* -1: no step sampled */
	long long max_pages, read_b, steps_ave_cpu_s, steps_min_cpu_s;
	int open, pending;
};

struct checker {
	int64_t now, first;
	/* violations per invariant, and the first row that broke it */
	long bad[32];
	char why[32][160];
	long rows, allocs, steps, continuations;
	/* the allocation the following steps belong to */
	struct fld a[NFIELDS];
	struct sp_buf arow;
	int have_alloc;
	int64_t a_start, a_end, a_cpu_ms, a_steps_cpu_ms;
	long long a_cpus;
	/* id reuse: the previous allocation's id and user */
	char prev_id[32], prev_user[16];
	long requeues, recycles;
	long long max_raw;
	/* kept at the default size only */
	int keep;
	struct arec *rec;
	size_t nrec, caprec;
	uint64_t hash;
};

enum {
	C_FIELDS, C_ELAPSED, C_END_START, C_OPEN, C_ORDER, C_CPU_SUM,
	C_CPU_CAP, C_CPUTIME, C_LIMIT, C_IN_LIMIT, C_STEP_TIME, C_ALLOC_CPU,
	C_MEM, C_TRES, C_NODES, C_PARENT, C_DATES, C_STATE, C_EXIT, C_IDS,
	C_TIMES, C_PENDING, C_STEP_STATS, C_DISK, NCHECKS
};

static const char *const check_names[NCHECKS] = {
	"every row has the header's 59 fields",
	"Elapsed is ElapsedRaw",
	"End - Start = Elapsed on closed records",
	"open records end Unknown and run until the reference now",
	"Submit <= Eligible <= Start",
	"TotalCPU = UserCPU + SystemCPU",
	"CPU <= cores x elapsed",
	"CPUTimeRAW = elapsed x cores, and CPUTime says the same",
	"Timelimit is TimelimitRaw minutes",
	"only a timeout reaches its limit, and passes it by under 2 min",
	"steps lie within their allocation's time",
	"the allocation's CPU is the sum of its steps'",
	"MaxVMSize >= MaxRSS >= AveRSS, and ReqMem is AllocTRES mem",
	"AllocTRES agrees with AllocCPUS, NNodes and GPUs requested",
	"NodeList holds NNodes nodes",
	"every step follows its own allocation",
	"every date lies between the first day and the reference now",
	"states are sacct's words",
	"ExitCode is code:signal",
	"a repeated JobID is a requeue (same user) or recycled (another)",
	"timestamps, durations and memory figures parse",
	"a pending record has no start, no nodes and no steps",
	"AveCPU and MinCPU lie within the step's TotalCPU",
	"MaxDiskRead and the TRES fs/disk agree",
};

static void
fail(struct checker *c, int check, const char *row, const char *what)
{
	if (c->bad[check]++ == 0)
		snprintf(c->why[check], sizeof(c->why[check]), "%s: %.100s",
			 what, row);
}

static int
valid_state(const struct fld *f, int alloc)
{
	static const char *const words[] = {
		"COMPLETED", "FAILED", "TIMEOUT", "OUT_OF_MEMORY", "CANCELLED",
		"NODE_FAIL", "RUNNING", "PENDING", NULL
	};

	for (int i = 0; words[i]; i++)
		if (is(f, words[i]))
			return 1;
	if (alloc && has_prefix(f, "CANCELLED by ")) {
		struct fld uid = { f->p + 13, f->n - 13 };

		return num(&uid) >= 0;
	}
	return 0;
}

static int
valid_exit(const struct fld *f)
{
	const char *colon = memchr(f->p, ':', f->n);
	struct fld a, b;

	if (!colon)
		return 0;
	a.p = f->p;
	a.n = (size_t)(colon - f->p);
	b.p = colon + 1;
	b.n = f->n - a.n - 1;
	return num(&a) >= 0 && num(&b) >= 0;
}

static void
copy_fld(char *dst, size_t cap, const struct fld *f)
{
	size_t n = f->n < cap - 1 ? f->n : cap - 1;

	memcpy(dst, f->p, n);
	dst[n] = 0;
}

static int
split(const char *rec, size_t n, struct fld *f)
{
	int k = 0;
	size_t i = 0;

	f[0].p = rec;
	while (i <= n) {
		if (i == n || rec[i] == '|') {
			if (k >= NFIELDS)
				return -1;
			f[k].n = (size_t)(rec + i - f[k].p);
			k++;
			if (i < n && k < NFIELDS)
				f[k].p = rec + i + 1;
			else if (i < n)
				return -1;
		}
		i++;
	}
	return k == NFIELDS ? 0 : -1;
}

/* Checks common to allocation and step rows; returns elapsed seconds. */
static int64_t
check_times(struct checker *c, const struct fld *f, const char *row,
	    int64_t *start, int64_t *end)
{
	int64_t submit = parse_ts(f[F_SUBMIT].p, f[F_SUBMIT].n);
	int64_t elig = parse_ts(f[F_ELIGIBLE].p, f[F_ELIGIBLE].n);
	int64_t el_ms = parse_dur_ms(f[F_ELAPSED].p, f[F_ELAPSED].n);
	long long el = num(&f[F_ELAPSED_RAW]);

	*start = is(&f[F_START], "Unknown") ? -1 :
	    parse_ts(f[F_START].p, f[F_START].n);
	*end = is(&f[F_END], "Unknown") ? -1 :
	    parse_ts(f[F_END].p, f[F_END].n);
	if (submit < 0 || elig < 0 || el_ms < 0 || el < 0 ||
	    (*start < 0 && !is(&f[F_START], "Unknown")) ||
	    (*end < 0 && !is(&f[F_END], "Unknown"))) {
		fail(c, C_TIMES, row, "unparsable time");
		return 0;
	}
	if (el_ms != el * 1000)
		fail(c, C_ELAPSED, row, "Elapsed differs from ElapsedRaw");
	if (*start >= 0 && *end >= 0 && *end - *start != el)
		fail(c, C_END_START, row, "End - Start != Elapsed");
	if (*start >= 0 && *end < 0 && c->now - *start != el)
		fail(c, C_OPEN, row, "open record's elapsed is not now - start");
	if (submit > elig || (*start >= 0 && elig > *start))
		fail(c, C_ORDER, row, "Submit/Eligible/Start out of order");
	if (submit < c->first || submit > c->now ||
	    (*start >= 0 && *start > c->now) || (*end >= 0 && *end > c->now))
		fail(c, C_DATES, row, "date outside the history");
	return el;
}

static void
check_cpu(struct checker *c, const struct fld *f, const char *row,
	  int64_t el, long long cpus, int64_t *total_ms)
{
	int64_t tot = parse_dur_ms(f[F_TOTALCPU].p, f[F_TOTALCPU].n);
	int64_t usr = parse_dur_ms(f[F_USERCPU].p, f[F_USERCPU].n);
	int64_t sys = parse_dur_ms(f[F_SYSCPU].p, f[F_SYSCPU].n);
	int64_t ct = parse_dur_ms(f[F_CPUTIME].p, f[F_CPUTIME].n);
	long long ctraw = num(&f[F_CPUTIME_RAW]);

	*total_ms = tot;
	if (tot < 0 || usr < 0 || sys < 0 || ct < 0 || ctraw < 0) {
		fail(c, C_TIMES, row, "unparsable CPU figure");
		return;
	}
	if (tot != usr + sys)
		fail(c, C_CPU_SUM, row, "TotalCPU != UserCPU + SystemCPU");
	if (tot > cpus * el * 1000)
		fail(c, C_CPU_CAP, row, "more CPU than cores x elapsed");
	if (ctraw != el * cpus || ct != ctraw * 1000)
		fail(c, C_CPUTIME, row, "CPUTime is not elapsed x cores");
}

static void
finish_alloc(struct checker *c)
{
	if (c->have_alloc && c->a_cpu_ms != c->a_steps_cpu_ms)
		fail(c, C_ALLOC_CPU, sp_buf_str(&c->arow),
		     "allocation CPU is not the steps' sum");
	c->have_alloc = 0;
}

static void
check_alloc(struct checker *c, const struct fld *f, const char *row)
{
	int64_t start, end, el, tot;
	long long cpus = num(&f[F_ALLOCCPUS]), nn = num(&f[F_NNODES]);
	long long limit_raw = num(&f[F_LIMIT_RAW]);
	int64_t limit_ms = parse_dur_ms(f[F_LIMIT].p, f[F_LIMIT].n);
	struct fld st = f[F_STATE], m;
	int pending = is(&st, "PENDING");
	double reqmem = parse_kib(f[F_REQMEM].p, f[F_REQMEM].n);
	struct fld alloc_cpu, alloc_node, req_gpu, alloc_gpu;
	char id[32];

	finish_alloc(c);
	c->allocs++;
	el = check_times(c, f, row, &start, &end);
	if (!valid_state(&st, 1))
		fail(c, C_STATE, row, "not a state");
	if (!valid_exit(&f[F_EXIT]) || !valid_exit(&f[F_DERIVED]))
		fail(c, C_EXIT, row, "exit code");
	if (limit_raw <= 0 || limit_ms != limit_raw * 60000)
		fail(c, C_LIMIT, row, "Timelimit != TimelimitRaw minutes");
	else if ((el > limit_raw * 60 && !is(&st, "TIMEOUT")) ||
		 el > limit_raw * 60 + 120 ||
		 (is(&st, "TIMEOUT") && el < limit_raw * 60))
		fail(c, C_IN_LIMIT, row, "ran past its limit");
	if (pending) {
		if (start >= 0 || cpus != 0 || !is(&f[F_NODELIST],
		    "None assigned") || f[F_ALLOCTRES].n != 0)
			fail(c, C_PENDING, row, "pending with resources");
		cpus = num(&f[F_NCPUS]);
	}
	check_cpu(c, f, row, el, cpus < 0 ? 0 : cpus, &tot);

	/* The request and the allocation say the same thing. */
	m = tres(&f[F_REQTRES], "mem");
	req_gpu = tres(&f[F_REQTRES], "gres/gpu");
	if (reqmem < 0 || m.n == 0 || parse_kib(m.p, m.n) != reqmem)
		fail(c, C_MEM, row, "ReqMem differs from ReqTRES mem");
	if (cpus > 0 && !pending) {
		alloc_cpu = tres(&f[F_ALLOCTRES], "cpu");
		alloc_node = tres(&f[F_ALLOCTRES], "node");
		alloc_gpu = tres(&f[F_ALLOCTRES], "gres/gpu");
		m = tres(&f[F_ALLOCTRES], "mem");
		if (num(&alloc_cpu) != cpus || num(&alloc_node) != nn ||
		    num(&alloc_gpu) != num(&req_gpu) ||
		    parse_kib(m.p, m.n) != reqmem)
			fail(c, C_TRES, row, "AllocTRES disagrees");
		if (count_nodes(&f[F_NODELIST]) != nn)
			fail(c, C_NODES, row, "NodeList size != NNodes");
	}

	/* A repeated id is a requeue or a recycled id, nothing else. */
	copy_fld(id, sizeof(id), &f[F_JOBID]);
	if (strcmp(id, c->prev_id) == 0) {
		char user[16];

		copy_fld(user, sizeof(user), &f[F_USER]);
		if (strcmp(user, c->prev_user) == 0)
			c->requeues++;
		else
			c->recycles++;
	} else {
		long long raw = num(&f[F_RAW]);

		if (raw < 0)
			fail(c, C_IDS, row, "JobIDRaw is not a number");
		else if (!strchr(id, '_') && raw <= c->max_raw)
			fail(c, C_IDS, row, "job id not increasing");
		if (raw > c->max_raw)
			c->max_raw = raw;
	}
	snprintf(c->prev_id, sizeof(c->prev_id), "%s", id);
	copy_fld(c->prev_user, sizeof(c->prev_user), &f[F_USER]);

	sp_buf_clear(&c->arow);
	sp_buf_adds(&c->arow, row);
	c->have_alloc = !pending;
	c->a_start = start;
	c->a_end = end;
	c->a_cpu_ms = tot;
	c->a_steps_cpu_ms = 0;
	c->a_cpus = cpus;
	memcpy(c->a, f, sizeof(c->a));

	if (c->keep) {
		struct arec *r;

		c->rec = sp_xgrow(c->rec, &c->caprec, c->nrec + 1,
				  sizeof(*c->rec));
		r = &c->rec[c->nrec++];
		memset(r, 0, sizeof(*r));
		copy_fld(r->jobid, sizeof(r->jobid), &f[F_JOBID]);
		copy_fld(r->name, sizeof(r->name), &f[F_NAME]);
		copy_fld(r->user, sizeof(r->user), &f[F_USER]);
		copy_fld(r->part, sizeof(r->part), &f[F_PART]);
		copy_fld(r->state, sizeof(r->state), &st);
		copy_fld(r->exit, sizeof(r->exit), &f[F_EXIT]);
		copy_fld(r->nodes, sizeof(r->nodes), &f[F_NODELIST]);
		copy_fld(r->reqmem, sizeof(r->reqmem), &f[F_REQMEM]);
		copy_fld(r->limit, sizeof(r->limit), &f[F_LIMIT]);
		r->raw = num(&f[F_RAW]);
		r->uid = num(&f[F_UID]);
		r->cpus = cpus;
		r->gpus = num(&req_gpu) > 0 ? num(&req_gpu) : 0;
		r->nnodes = nn;
		r->elapsed = el;
		r->limit_s = limit_raw * 60;
		r->submit = parse_ts(f[F_SUBMIT].p, f[F_SUBMIT].n);
		r->start = start;
		r->end = end;
		r->cpu_ms = tot;
		r->user_ms = parse_dur_ms(f[F_USERCPU].p, f[F_USERCPU].n);
		r->sys_ms = parse_dur_ms(f[F_SYSCPU].p, f[F_SYSCPU].n);
		r->reqmem_k = reqmem;
		r->max_rss_k = -1;
		r->open = end < 0;
		r->pending = pending;
	}
}

static void
check_step(struct checker *c, const struct fld *f, const char *row)
{
	int64_t start, end, el, tot;
	long long cpus = num(&f[F_ALLOCCPUS]);
	size_t idlen = c->a[F_JOBID].n;
	struct arec *r = c->keep && c->nrec ? &c->rec[c->nrec - 1] : NULL;
	int is_extern;

	c->steps++;
	if (!c->have_alloc || f[F_JOBID].n <= idlen + 1 ||
	    memcmp(f[F_JOBID].p, c->a[F_JOBID].p, idlen) != 0 ||
	    f[F_JOBID].p[idlen] != '.') {
		fail(c, C_PARENT, row, "step without its allocation");
		return;
	}
	is_extern = is(&f[F_NAME], "extern");
	el = check_times(c, f, row, &start, &end);
	if (!valid_state(&f[F_STATE], 0))
		fail(c, C_STATE, row, "not a step state");
	if (!valid_exit(&f[F_EXIT]))
		fail(c, C_EXIT, row, "exit code");
	if (start < c->a_start || (c->a_end >= 0 &&
	    (end < 0 || end > c->a_end)) || (c->a_end < 0 && end >= 0))
		fail(c, C_STEP_TIME, row, "step outside its allocation");
	if (cpus > c->a_cpus)
		fail(c, C_STEP_TIME, row, "step holds more cores than the job");
	check_cpu(c, f, row, el, cpus, &tot);
	c->a_steps_cpu_ms += tot;
	if (r && !is_extern)
		r->work_cpu_ms += tot;

	if (f[F_AVECPU].n > 0) {
		int64_t ave = parse_dur_ms(f[F_AVECPU].p, f[F_AVECPU].n);
		int64_t min = parse_dur_ms(f[F_MINCPU].p, f[F_MINCPU].n);

		if (ave < 0 || min < 0 || min > ave || ave > tot + 999)
			fail(c, C_STEP_STATS, row, "AveCPU/MinCPU");
		if (r && num(&f[F_NTASKS]) > 1) {
			r->steps_ave_cpu_s = ave / 1000;
			r->steps_min_cpu_s = min / 1000;
		}
	}
	if (f[F_MAXRSS].n > 0) {
		double rss = parse_kib(f[F_MAXRSS].p, f[F_MAXRSS].n);
		double ave = parse_kib(f[F_AVERSS].p, f[F_AVERSS].n);
		double vm = parse_kib(f[F_MAXVM].p, f[F_MAXVM].n);
		struct fld disk = tres(&f[F_INTOT], "fs/disk");
		struct fld mem = tres(&f[F_INTOT], "mem");
		double per_task = parse_kib(f[F_DISKREAD].p, f[F_DISKREAD].n);
		long long tasks = num(&f[F_NTASKS]), total = num(&disk);

		if (rss < 0 || ave < 0 || vm < 0 || ave > rss || rss > vm ||
		    parse_kib(mem.p, mem.n) != rss)
			fail(c, C_MEM, row, "step memory figures");
		/* Two decimals in the unit: within half a hundredth. */
		if (total < 0 || tasks <= 0 ||
		    fabs(per_task * 1024 - (double)total / (double)tasks) >
		    0.006 * (double)total / (double)tasks + 11)
			fail(c, C_DISK, row, "MaxDiskRead vs fs/disk");
		if (r) {
			if (rss > r->max_rss_k)
				r->max_rss_k = rss;
			if (num(&f[F_MAXPAGES]) > r->max_pages)
				r->max_pages = num(&f[F_MAXPAGES]);
			if (!is_extern && total > 0)
				r->read_b += total;
		}
	}
}

static void
check_record(struct checker *c, const char *row, size_t n)
{
	struct fld f[NFIELDS];

	c->rows++;
	if (split(row, n, f) != 0) {
		fail(c, C_FIELDS, row, "wrong number of fields");
		return;
	}
	if (memchr(f[F_JOBID].p, '.', f[F_JOBID].n))
		check_step(c, f, row);
	else
		check_alloc(c, f, row);
}

/* A physical line starts a record when the text before its first '|'
 * starts with a digit and holds no white space (sacct's own rule). */
static int
starts_record(const char *line, size_t n)
{
	const char *bar = memchr(line, '|', n);

	if (!bar || bar == line || !isdigit((unsigned char)line[0]))
		return 0;
	for (const char *p = line; p < bar; p++)
		if (isspace((unsigned char)*p))
			return 0;
	return 1;
}

static uint64_t
fnv(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Reads the whole history from f: header, records, invariants. */
static int
check_stream(struct checker *c, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	struct sp_buf rec = { 0 };
	int have = 0, header_ok = 0;

	c->hash = 0xcbf29ce484222325ULL;
	c->now = parse_ts(REF_NOW, 19);
	c->first = parse_ts(REF_FIRST, 19);
	while ((len = getline(&line, &cap, f)) > 0) {
		if (c->keep)
			c->hash = fnv(c->hash, line, (size_t)len);
		if (line[len - 1] == '\n')
			line[--len] = 0;
		if (!header_ok) {
			struct sp_buf h = { 0 };

			for (int i = 0; i < NFIELDS; i++) {
				if (i)
					sp_buf_addc(&h, '|');
				sp_buf_adds(&h, field_names[i]);
			}
			header_ok = strcmp(line, sp_buf_str(&h)) == 0 ? 1 : -1;
			sp_buf_free(&h);
			continue;
		}
		if (starts_record(line, (size_t)len)) {
			if (have)
				check_record(c, rec.p, rec.len);
			sp_buf_clear(&rec);
			sp_buf_add(&rec, line, (size_t)len);
			have = 1;
		} else {
			c->continuations++;
			sp_buf_addc(&rec, '\n');
			sp_buf_add(&rec, line, (size_t)len);
		}
	}
	if (have)
		check_record(c, rec.p, rec.len);
	finish_alloc(c);
	free(line);
	sp_buf_free(&rec);
	return header_ok == 1;
}

/* The demo through a pipe: the child writes, this process checks. */
static int
check_demo(struct checker *c, long njobs, int *child_ok)
{
	int fd[2], status, header_ok;
	pid_t pid;
	FILE *in;

	fflush(stdout);
	if (pipe(fd) != 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		FILE *out;

		close(fd[0]);
		out = fdopen(fd[1], "w");
		_exit(out && sp_demo_write(out, njobs) == 0 &&
		      fclose(out) == 0 ? 0 : 1);
	}
	close(fd[1]);
	in = fdopen(fd[0], "r");
	header_ok = check_stream(c, in);
	fclose(in);
	waitpid(pid, &status, 0);
	*child_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	return header_ok;
}

static void
report(const struct checker *c, const char *size)
{
	for (int i = 0; i < NCHECKS; i++) {
		if (!ok(c->bad[i] == 0, "%s: %s", size, check_names[i]))
			diag("%ld rows; first: %s", c->bad[i], c->why[i]);
	}
}

static void
checker_free(struct checker *c)
{
	sp_buf_free(&c->arow);
	free(c->rec);
}

/* ------------------------------------------------------------------ */
/* The named cases, at the default size.                               */

static void
fold(const char *name, char *out, size_t cap)
{
	size_t n = 0;

	for (const char *p = name; *p && n + 1 < cap; ) {
		if (isdigit((unsigned char)*p)) {
			out[n++] = '#';
			while (isdigit((unsigned char)*p))
				p++;
		} else {
			out[n++] = *p++;
		}
	}
	out[n] = 0;
}

static int
in_workload(const struct arec *r, const char *user, const char *fname)
{
	char f[64];

	fold(r->name, f, sizeof(f));
	return strcmp(r->user, user) == 0 && strcmp(f, fname) == 0;
}

/* Runs of one workload in output (job id) order; closed ones only
 * unless open is set. */
static size_t
runs_of(const struct checker *c, const char *user, const char *fname,
	const struct arec **out, size_t cap, int open)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nrec; i++) {
		const struct arec *r = &c->rec[i];

		if (in_workload(r, user, fname) && (open || !r->open) &&
		    n < cap)
			out[n++] = r;
	}
	return n;
}

static const struct arec *
job_named(const struct checker *c, const char *name)
{
	for (size_t i = 0; i < c->nrec; i++)
		if (strcmp(c->rec[i].name, name) == 0)
			return &c->rec[i];
	return NULL;
}

/* Computed nothing: closed, over 300 s, under 10 s of work-step CPU,
 * in a state that does not already explain it. */
static int
hung(const struct arec *r)
{
	return !r->open && r->elapsed > 300 && r->work_cpu_ms < 10000 &&
	    strcmp(r->state, "OUT_OF_MEMORY") != 0 &&
	    strcmp(r->state, "NODE_FAIL") != 0;
}

static int
state_is(const struct arec *r, const char *s)
{
	return strcmp(r->state, s) == 0;
}

static double
gib(double kib)
{
	return kib / KIB_PER_GIB;
}

#define MAXRUNS 2048

static void
test_tokenizer(const struct checker *c)
{
	static const char *const want_mem =
	    "48G 32G 32G 17G 12G 12G 14G 16G 18G 32G";
	const struct arec *r[MAXRUNS];
	size_t n = runs_of(c, "alice", "rc-tok-github_code", r, MAXRUNS, 0);
	struct sp_buf walk = { 0 };
	int oom = 0, over = 0;
	int64_t el = 0;

	is_int(10, (long long)n, "tokenizer: ten submissions");
	if (n != 10)
		return;
	for (size_t i = 0; i < n; i++) {
		sp_buf_printf(&walk, "%s%s", i ? " " : "", r[i]->reqmem);
		oom += state_is(r[i], "OUT_OF_MEMORY") &&
		    strcmp(r[i]->exit, "0:125") == 0;
		over += r[i]->max_rss_k > r[i]->reqmem_k;
		el += r[i]->elapsed;
	}
	is_string(want_mem, sp_buf_str(&walk),
		  "tokenizer: --mem walks 48G down to 12G and back to 32G");
	is_string("CANCELLED by 41203", r[0]->state,
		  "tokenizer: the 48G run was cancelled by its owner");
	is_int(8, oom, "tokenizer: eight memory kills (0:125)");
	ok(r[1]->max_rss_k < 0 && r[2]->max_rss_k < 0,
	   "tokenizer: runs two and three died before any sample");
	is_int(6, over, "tokenizer: the other six kills read above the limit");
	is_string("COMPLETED", r[9]->state, "tokenizer: the last completes");
	is_double(24.0, gib(r[9]->max_rss_k), 1e-9,
		  "tokenizer: ... at 32G, peaking at 24 GiB");
	is_int(16, r[9]->cpus, "tokenizer: a sixteen-core allocation");
	ok(el >= 3400 && el <= 3700,
	   "tokenizer: an hour of allocation (%" PRId64 " s)", el);
	ok(r[9]->end - r[0]->submit >= 8 * 3600 + 1800 &&
	   r[9]->end - r[0]->submit <= 9 * 3600 + 1800,
	   "tokenizer: nine hours of wall clock, one evening");
	sp_buf_free(&walk);
}

static int
array_task(const struct arec *r, long long *master)
{
	const char *u = strchr(r->jobid, '_');

	if (!u)
		return -1;
	*master = atoll(r->jobid);
	return atoi(u + 1);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
test_corpus(const struct checker *c)
{
	const struct arec *r[MAXRUNS];
	size_t n = runs_of(c, "alice", "scan-corpus", r, MAXRUNS, 0);
	double probe[2] = { 0, 0 }, rerun[142] = { 0 };
	int killed[142] = { 0 };
	long long masters[2] = { -1, -1 };
	int nprobe = 0, ntask[2] = { 0, 0 }, oom[2] = { 0, 0 }, over6 = 0;
	int killed_low = 0, below[2] = { 0, 0 }, complete[2] = { 0, 0 };
	int64_t lost = 0, rerun_submit = -1, rerun_end = 0;
	const char *mem[2] = { "", "" };

	for (size_t i = 0; i < n; i++) {
		long long m;
		int t = array_task(r[i], &m), a;

		if (t < 0) {
			if (nprobe < 2 && strcmp(r[i]->reqmem, "8G") == 0)
				probe[nprobe] = gib(r[i]->max_rss_k);
			nprobe++;
			continue;
		}
		a = masters[0] < 0 || masters[0] == m ? 0 : 1;
		masters[a] = m;
		if (t < 0 || t >= 142)
			continue;
		ntask[a]++;
		mem[a] = r[i]->reqmem;
		complete[a] += state_is(r[i], "COMPLETED");
		if (a == 0) {
			killed[t] = state_is(r[i], "OUT_OF_MEMORY");
			if (state_is(r[i], "OUT_OF_MEMORY")) {
				oom[0]++;
				lost += r[i]->elapsed;
			}
		} else {
			rerun[t] = gib(r[i]->max_rss_k);
			rerun_submit = r[i]->submit;
			if (r[i]->end > rerun_end)
				rerun_end = r[i]->end;
		}
	}
	is_int(2, nprobe, "corpus: two single-task probes");
	is_double(1.00, probe[0], 0.0005, "corpus: probe one peaks 1.00 GiB");
	is_double(0.72, probe[1], 0.0005, "corpus: probe two peaks 0.72 GiB");
	ok(ntask[0] == 142 && strcmp(mem[0], "6G") == 0,
	   "corpus: a 142-task array at --mem=6G");
	is_int(71, oom[0], "corpus: 71 of its tasks killed for memory");
	is_int(0, oom[1], "corpus: none killed in the rerun");
	is_double(37.0, (double)lost / 3600, 1e-9,
		  "corpus: 37 hours of task time destroyed");
	ok(ntask[1] == 142 && complete[1] == 142 &&
	   strcmp(mem[1], "12G") == 0,
	   "corpus: the rerun at 12G completes every task");
	ok(rerun_end - rerun_submit <= 41 * 60,
	   "corpus: ... within 41 minutes (%" PRId64 " s)",
	   rerun_end - rerun_submit);
	for (int t = 0; t < 142; t++) {
		over6 += rerun[t] > 6.0;
		killed_low += killed[t] && rerun[t] <= 6.0;
		below[0] += rerun[t] < probe[0];
		below[1] += rerun[t] < probe[1];
	}
	is_int(59, over6, "corpus: 59 shards peak above 6 GiB");
	is_int(12, killed_low, "corpus: 12 more were killed by a brief spike");
	ok(below[0] + 1 <= 142 / 5 && below[1] + 1 <= 142 / 5,
	   "corpus: both probes sit in the smallest fifth (ranks %d, %d)",
	   below[0] + 1, below[1] + 1);
	qsort(rerun, 142, sizeof(rerun[0]), cmp_double);
	ok(rerun[141] / probe[0] > 6.5 && rerun[141] / probe[0] < 7.5,
	   "corpus: the probes read about a seventh of the largest shard");
}

static void
test_reasoning(const struct checker *c)
{
	const struct arec *r[MAXRUNS];
	size_t n = runs_of(c, "alice", "reasoning-exp", r, MAXRUNS, 0);
	int to = 0, blocked = 0, done = 0, same_limit = 1;
	double el = 0;

	for (size_t i = 0; i < n; i++) {
		if (state_is(r[i], "TIMEOUT")) {
			to++;
			blocked += hung(r[i]);
			same_limit &= r[i]->limit_s == 1800;
			el += (double)r[i]->elapsed;
		}
		done += state_is(r[i], "COMPLETED");
	}
	is_int(99, to, "reasoning: 99 timeouts");
	is_int(99, blocked, "reasoning: every one blocked (under 10 CPU-s)");
	ok(same_limit, "reasoning: all at the same 30-minute limit");
	is_int(38, done, "reasoning: among 38 runs that completed");
	is_double(50.0, el / 3600, 1e-9, "reasoning: 50 GPU-hours timed out");
	is_double(300.0, el * 6 / 3600, 1e-9, "reasoning: 300 core-hours");
}

static const struct arec *
newest(const struct arec **r, size_t n)
{
	const struct arec *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (!best || r[i]->submit > best->submit)
			best = r[i];
	return best;
}

static void
test_increases(const struct checker *c)
{
	const struct arec *r[MAXRUNS], *peak = NULL;
	size_t n;
	long long longest = 0;
	int done = 0;

	n = runs_of(c, "bob", "moe-gating-r#", r, MAXRUNS, 0);
	for (size_t i = 0; i < n; i++) {
		done += state_is(r[i], "COMPLETED");
		if (!peak || r[i]->max_rss_k > peak->max_rss_k)
			peak = r[i];
	}
	ok(n == 5 && done == 5, "gating: five runs, none failed");
	if (n == 5) {
		is_string("24G", newest(r, n)->reqmem,
			  "gating: the newest run asks 24G");
		is_double(34.56, gib(peak->max_rss_k), 0.0005,
			  "gating: an earlier run peaked at 34.56 GiB");
		is_string("48G", peak->reqmem, "gating: ... under a 48G limit");
	}

	n = runs_of(c, "carol", "ablate-warmup-#", r, MAXRUNS, 0);
	done = 0;
	for (size_t i = 0; i < n; i++) {
		done += state_is(r[i], "COMPLETED");
		if (r[i]->elapsed > longest)
			longest = r[i]->elapsed;
	}
	ok(n == 8 && done == 8, "warmup family: eight runs, none failed");
	if (n == 8)
		is_string("00:35:00", newest(r, n)->limit,
			  "warmup family: recent runs ask 35 minutes");
	is_int(4 * 3600 + 600, longest,
	       "warmup family: its longest completed run took 4:10:00");

	n = runs_of(c, "alice", "pretrain-slice-#", r, MAXRUNS, 0);
	done = 0;
	longest = 0;
	for (size_t i = 0; i < n; i++) {
		done += state_is(r[i], "COMPLETED") && r[i]->limit_s == 28800;
		if (r[i]->elapsed > longest)
			longest = r[i]->elapsed;
	}
	ok(n == 4 && done == 4, "pretraining slice: four runs at 8 hours");
	is_int(28800 - 76, longest,
	       "pretraining slice: finished 1:16 inside the limit");
}

static void
test_figure3(const struct checker *c)
{
	const struct arec *r = job_named(c, "eval-ckpt-4000");
	const struct arec *p = job_named(c, "eval-ckpt-7000");

	ok(r != NULL, "figure 3: eval-ckpt-4000 is there");
	if (!r)
		return;
	is_string("COMPLETED", r->state, "figure 3: it completed");
	is_int(1, r->gpus, "figure 3: on a single card");
	ok((double)r->elapsed / (double)r->limit_s < 0.05,
	   "figure 3: the time limit is far above need (%lld of %lld s)",
	   r->elapsed, r->limit_s);
	ok(r->max_rss_k > r->reqmem_k,
	   "figure 3: MaxRSS (%.1f GiB) above the limit without a kill",
	   gib(r->max_rss_k));
	is_double(0.487, (double)r->sys_ms / (double)r->cpu_ms, 1e-9,
		  "figure 3: 48.7 %% of its CPU in the kernel");
	ok(p && p->pending, "eval-ckpt-7000 is still pending");
}

static void
test_idle(const struct checker *c)
{
	const struct arec *ne = job_named(c, "node-evaluation");
	const struct arec *io = job_named(c, "stage-shards");
	int longs = 0, shorts = 0, cancelled = 0;

	ok(ne && hung(ne), "node-evaluation computed nothing");
	if (ne) {
		is_string("CANCELLED by 41203", ne->state,
			  "node-evaluation: cancelled by its owner");
		is_double(84.0, (double)(ne->elapsed * ne->gpus) / 3600, 1e-9,
			  "node-evaluation: 84 GPU-hours held");
		is_int(540, ne->work_cpu_ms, "node-evaluation: 0.54 s of CPU");
	}
	for (size_t i = 0; i < c->nrec; i++) {
		const struct arec *r = &c->rec[i];

		if (!hung(r) || r->gpus == 0 ||
		    (strcmp(r->name, "interactive") != 0 &&
		     strcmp(r->name, "jupyter") != 0 &&
		     strcmp(r->name, "debug-gpu") != 0 &&
		     strcmp(r->name, "node-evaluation") != 0))
			continue;
		longs += r->elapsed >= 8 * 3600;
		shorts += r->elapsed <= 900;
		cancelled += strncmp(r->state, "CANCELLED", 9) == 0;
	}
	ok(longs >= 3, "idle GPUs: long allocations that computed nothing");
	ok(shorts >= 3, "idle GPUs: short ones, already noticed");
	is_int(1, cancelled, "idle GPUs: one of them cancelled");
	ok(io && io->work_cpu_ms < 10000 && io->elapsed > 300 &&
	   (double)io->read_b >= 10.0 * (1 << 30) &&
	   (double)io->read_b / (double)io->elapsed >= 100.0 * (1 << 20),
	   "stage-shards: idle CPU explained by 300 GiB of I/O");
}

/* Wilson, one-sided Fisher doubled, Benjamini-Hochberg: the node
 * table's statistics, written out here to judge the demo's numbers. */
static void
wilson(long k, long n, double *lo, double *hi)
{
	double z = 1.959963984540054, p = (double)k / (double)n;
	double d = 1 + z * z / (double)n;
	double mid = (p + z * z / (2.0 * (double)n)) / d;
	double h = z * sqrt(p * (1 - p) / (double)n +
	    z * z / (4.0 * (double)n * (double)n)) / d;

	*lo = mid - h;
	*hi = mid + h;
}

static double
lchoose(long n, long k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) -
	    lgamma((double)(n - k) + 1);
}

static double
fisher_doubled(long a, long b, long c, long d, int greater)
{
	long row = a + b, col = a + c, n = a + b + c + d;
	long lo = col - (n - row) > 0 ? col - (n - row) : 0;
	long hi = row < col ? row : col;
	double p = 0;

	for (long x = greater ? a : lo; x <= (greater ? hi : a); x++)
		p += exp(lchoose(row, x) + lchoose(n - row, col - x) -
			 lchoose(n, col));
	return 2 * p < 1 ? 2 * p : 1;
}

struct noderow {
	char node[24];
	long trials, bad;
	double gpu_h_bad, p, lo, hi, comp;
	int tested, reject;
};

static void
test_nodes(const struct checker *c)
{
	struct noderow row[64];
	int nrow = 0, ntested = 0, untested = 0;
	long trials = 0, bad = 0, most_other = 0;
	double ps[64], thr = -1, base;
	struct sp_buf worse = { 0 }, better = { 0 }, held = { 0 };
	long worse_hangs = 0;
	double worse_gpu_h = 0;

	memset(row, 0, sizeof(row));
	for (size_t i = 0; i < c->nrec; i++) {
		const struct arec *r = &c->rec[i];
		int k;

		if (r->open || !in_workload(r, "alice", "rollout-gen"))
			continue;
		for (k = 0; k < nrow && strcmp(row[k].node, r->nodes); k++)
			;
		if (k == nrow && nrow < 64)
			snprintf(row[nrow++].node, sizeof(row[0].node), "%s",
				 r->nodes);
		row[k].trials++;
		trials++;
		if (hung(r)) {
			row[k].bad++;
			bad++;
			row[k].gpu_h_bad += (double)(r->elapsed * r->gpus) / 3600;
		}
	}
	is_int(1098, trials, "nodes: rollout-gen has 1,098 placements");
	is_int(19, nrow, "nodes: ... over 19 nodes");
	base = (double)bad / (double)trials;
	for (int k = 0; k < nrow; k++) {
		struct noderow *x = &row[k];
		long ob = bad - x->bad, ot = trials - x->trials;

		if (x->trials < 10) {
			untested++;
			continue;
		}
		x->tested = 1;
		x->comp = (double)ob / (double)ot;
		wilson(x->bad, x->trials, &x->lo, &x->hi);
		x->p = fisher_doubled(x->bad, x->trials - x->bad, ob, ot - ob,
		    (double)x->bad / (double)x->trials > x->comp);
		ps[ntested++] = x->p;
	}
	qsort(ps, (size_t)ntested, sizeof(ps[0]), cmp_double);
	for (int i = 0; i < ntested; i++)
		if (ps[i] <= 0.05 * (i + 1) / ntested)
			thr = ps[i];
	for (int k = 0; k < nrow; k++) {
		struct noderow *x = &row[k];
		double rate = (double)x->bad / (double)x->trials;

		if (!x->tested)
			continue;
		x->reject = x->p <= thr;
		if (x->reject && rate > x->comp && x->lo > x->comp) {
			sp_buf_printf(&worse, " %s", x->node);
			worse_hangs += x->bad;
			worse_gpu_h += x->gpu_h_bad;
		} else if (x->reject && rate < x->comp && x->hi < x->comp) {
			sp_buf_printf(&better, " %s/%ld", x->node, x->trials);
		} else if (x->lo > base || x->hi < base) {
			sp_buf_printf(&held, " %s", x->node);
		}
	}
	is_int(11, ntested, "nodes: eleven nodes tested");
	is_int(8, untested, "nodes: eight too thin to test");
	/* Rows in first-seen order; sort-free comparison by content. */
	ok(strstr(sp_buf_str(&worse), "g003") &&
	   strstr(sp_buf_str(&worse), "g011") &&
	   strstr(sp_buf_str(&worse), "g017") && worse.len == 15,
	   "nodes: g003, g011, g017 are worse after Benjamini-Hochberg "
	   "(got%s)", sp_buf_str(&worse));
	is_string(" g041/403", sp_buf_str(&better),
		  "nodes: the large node g041, 403 placements, is better");
	is_string(" g005", sp_buf_str(&held),
		  "nodes: g005 clears the baseline but not the correction");
	is_int(45, worse_hangs, "nodes: 45 hangs on the three nodes");
	is_double(689.0, worse_gpu_h, 0.001, "nodes: ... holding 689 GPU-hours");

	/* It is the workload a node table picks: the most hangs. */
	for (size_t i = 0; i < c->nrec; i++) {
		const struct arec *r = &c->rec[i];
		char f[64];
		long n = 0;

		if (!hung(r) || in_workload(r, "alice", "rollout-gen"))
			continue;
		fold(r->name, f, sizeof(f));
		for (size_t j = 0; j < c->nrec; j++)
			n += hung(&c->rec[j]) &&
			    in_workload(&c->rec[j], r->user, f);
		if (n > most_other)
			most_other = n;
	}
	ok(bad > most_other, "nodes: rollout-gen has the most hangs "
	   "(%ld against %ld)", bad, most_other);
	sp_buf_free(&worse);
	sp_buf_free(&better);
	sp_buf_free(&held);
}

static void
test_reference(const struct checker *c)
{
	const struct arec *r[MAXRUNS], *x;
	size_t n;
	int hung_bad = 0, on_bad = 0, hung_good = 0, on_good = 0, done = 0;
	int ok_all = 1;

	/* cot-exp */
	n = runs_of(c, "alice", "cot-exp", r, MAXRUNS, 0);
	for (size_t i = 0; i < n; i++) {
		int bad_node = strcmp(r[i]->nodes, "g027") == 0;

		on_bad += bad_node;
		on_good += !bad_node;
		hung_bad += bad_node && hung(r[i]) &&
		    state_is(r[i], "TIMEOUT");
		hung_good += !bad_node && hung(r[i]) &&
		    state_is(r[i], "TIMEOUT");
		if (state_is(r[i], "COMPLETED"))
			done += r[i]->cpu_ms == 1780000;
		ok_all &= r[i]->limit_s == 1800 && r[i]->gpus == 1 &&
		    r[i]->cpus == 6 && strcmp(r[i]->reqmem, "80G") == 0;
	}
	ok(n == 20 && ok_all, "cot-exp: 20 runs, 6 CPU, 1 GPU, 80G, 30 min");
	ok(on_bad == 12 && hung_bad == 12,
	   "cot-exp: 12 runs on g027, every one a hung timeout");
	ok(on_good == 8 && hung_good == 2,
	   "cot-exp: 8 on g031, two of them hung");
	is_int(6, done, "cot-exp: six completed with 00:29:40 of CPU");

	/* midtrain */
	n = runs_of(c, "alice", "midtrain", r, MAXRUNS, 0);
	done = 0;
	for (size_t i = 0; i < n; i++)
		done += state_is(r[i], "COMPLETED") &&
		    r[i]->limit_s == 7200 && r[i]->gpus == 3 &&
		    strcmp(r[i]->nodes, "g033") == 0;
	is_int(14, done, "midtrain: 14 clean runs, 3 GPUs, 2 hours, g033");
	if (n == 14) {
		x = newest(r, n);
		is_int(6769, x->elapsed, "midtrain: longest run 6769 s");
		is_int(19899000, x->work_cpu_ms, "midtrain: CPU 05:31:39");
		is_int(936000, x->sys_ms, "midtrain: system 15:36");
		is_double(184.55, gib(x->max_rss_k), 0.01,
			  "midtrain: MaxRSS 184.6 GiB");
		is_double(112.7, (double)x->read_b / (1 << 30), 0.0001,
			  "midtrain: read 112.7 GiB");
	}

	/* att-speed-# */
	n = runs_of(c, "alice", "att-speed-#", r, MAXRUNS, 0);
	done = 0;
	for (size_t i = 0; i < n; i++)
		done += state_is(r[i], "COMPLETED") &&
		    r[i]->elapsed == 2400 && r[i]->limit_s == 3600 &&
		    r[i]->work_cpu_ms == 18000000 &&
		    gib(r[i]->max_rss_k) == 38.0;
	is_int(7, done, "att-speed-#: seven names, one workload, all clean");

	/* tokenize-shards */
	n = runs_of(c, "alice", "tokenize-shards", r, MAXRUNS, 0);
	done = 0;
	for (size_t i = 0; i < n; i++)
		done += r[i]->elapsed == 3600 && r[i]->limit_s == 7200 &&
		    r[i]->cpu_ms == 7200000 && r[i]->sys_ms == 4800000 &&
		    r[i]->read_b == 340LL << 30 && r[i]->cpus == 16;
	is_int(4, done, "tokenize-shards: 4 runs, 2/3 of CPU in the kernel, "
	       "340 GiB read");

	x = job_named(c, "ddp-pretrain");
	ok(x && state_is(x, "FAILED") && strcmp(x->exit, "1:0") == 0 &&
	   x->elapsed == 5400 && x->limit_s == 10800 && x->gpus == 4,
	   "ddp-pretrain: FAILED 1:0 after 5400 s of 3 hours");
	ok(x && x->steps_ave_cpu_s == 3600 && x->steps_min_cpu_s == 720,
	   "ddp-pretrain: AveCPU 1 h, MinCPU 12 min (an 80 %% straggler)");

	x = job_named(c, "soup-merge");
	ok(x && x->max_pages == 820000 && x->elapsed == 4200 &&
	   x->work_cpu_ms == 3900000,
	   "soup-merge: 820,000 major faults, 01:05:00 of CPU in 4200 s");
}

static void
test_habits(const struct checker *c)
{
	int running = 0, pending = 0, root = 0, tests = 0, users = 0;
	int saturated = 0, gpu = 0, cpu = 0;
	const char *names[3] = { "alice", "bob", "carol" };
	static const char *const testw[] = {
		"test", "test-ddp", "quick_test", "test#", "mytest"
	};

	is_int(5, c->requeues, "requeues: five attempts before the final one");
	is_int(1, c->recycles, "a recycled job id: same JobID, another user");
	for (size_t i = 0; i < c->nrec; i++) {
		const struct arec *r = &c->rec[i];

		running += r->open && state_is(r, "RUNNING");
		pending += r->pending;
		root += state_is(r, "CANCELLED by 0");
		gpu += strcmp(r->part, "gpu") == 0;
		cpu += strcmp(r->part, "cpu") == 0;
	}
	is_int(3, running, "three records still RUNNING, End Unknown");
	is_int(1, pending, "one still pending");
	is_int(1, root, "one cancelled by root");
	ok(gpu > 0 && cpu > 0, "GPU and CPU partitions");
	for (int u = 0; u < 3; u++) {
		int seen = 0;

		for (size_t i = 0; i < c->nrec && !seen; i++)
			seen = strcmp(c->rec[i].user, names[u]) == 0;
		users += seen;
	}
	is_int(3, users, "three users");
	for (size_t k = 0; k < sizeof(testw) / sizeof(testw[0]); k++) {
		const struct arec *r[MAXRUNS];
		size_t n = 0;
		int failed = 0;

		for (int u = 0; u < 3 && n == 0; u++)
			n = runs_of(c, names[u], testw[k], r, MAXRUNS, 0);
		for (size_t i = 0; i < n; i++)
			failed += state_is(r[i], "FAILED");
		tests += n >= 5 && failed * 2 >= (int)n;
	}
	is_int(5, tests, "five exploratory test workloads fail half the time");
	for (size_t k = 0; k < 2; k++) {
		const struct arec *r[MAXRUNS];
		size_t n = runs_of(c, k ? "alice" : "carol",
				   k ? "json-to-arrow" : "dedup-shards", r,
				   MAXRUNS, 0);
		int busy = n >= 3;

		for (size_t i = 0; i < n; i++)
			busy &= r[i]->cpus == 1 &&
			    (double)r[i]->cpu_ms >= 950.0 * (double)r[i]->elapsed;
		saturated += busy;
	}
	is_int(2, saturated, "two single-core workloads saturate their core");
}

/* The whole record's shape: names, workloads, where the compute is. */
struct wl {
	char key[96];
	double compute;
	int runs;
};

static int
cmp_wl(const void *a, const void *b)
{
	const struct wl *x = a, *y = b;

	return x->compute > y->compute ? -1 : x->compute < y->compute;
}

static void
test_mix(const struct checker *c)
{
	struct wl *w = sp_xcalloc(c->nrec, sizeof(*w));
	char **names = sp_xcalloc(c->nrec, sizeof(*names));
	size_t nw = 0, nn = 0;
	double total = 0, bottom = 0;
	int small = 0;

	for (size_t i = 0; i < c->nrec; i++) {
		const struct arec *r = &c->rec[i];
		char f[64], key[96];
		size_t k;

		if (r->open)
			continue;
		for (k = 0; k < nn && strcmp(names[k], r->name); k++)
			;
		if (k == nn)
			names[nn++] = sp_xstrdup(r->name);
		fold(r->name, f, sizeof(f));
		snprintf(key, sizeof(key), "%s/%s/%s/%s", r->user, r->part,
			 r->gpus ? "gpu" : "cpu", f);
		for (k = 0; k < nw && strcmp(w[k].key, key); k++)
			;
		if (k == nw)
			snprintf(w[nw++].key, sizeof(w[0].key), "%s", key);
		w[k].compute += (double)r->elapsed *
		    (double)(r->gpus * 16 + r->cpus) / 3600;
		w[k].runs++;
		total += (double)r->elapsed *
		    (double)(r->gpus * 16 + r->cpus) / 3600;
	}
	qsort(w, nw, sizeof(*w), cmp_wl);
	for (size_t k = 0; k < nw; k++) {
		if (k + 270 >= nw)
			bottom += w[k].compute;
		small += w[k].runs <= 2;
	}
	is_int(523, (long long)nn, "523 distinct job names");
	is_int(470, (long long)nw, "... fold into 470 workloads");
	ok(w[0].compute / total > 0.15 && w[0].compute / total < 0.18,
	   "the costliest workload is about a sixth of the compute (%.3f, %s)",
	   w[0].compute / total, w[0].key);
	ok(bottom / total > 0.055 && bottom / total < 0.08,
	   "the bottom 270 workloads hold about 7 %% of it (%.3f)",
	   bottom / total);
	ok(small >= 250, "most workloads ran once or twice (%d)", small);
	for (size_t k = 0; k < nn; k++)
		free(names[k]);
	free(names);
	free(w);
}

/* ------------------------------------------------------------------ */

static uint64_t
hash_of(long njobs)
{
	struct checker c;
	int child_ok;
	uint64_t h;

	memset(&c, 0, sizeof(c));
	c.keep = 1;
	check_demo(&c, njobs, &child_ok);
	h = c.hash;
	checker_free(&c);
	return h;
}

int
main(void)
{
	struct checker c, big;
	int child_ok = 0;
	FILE *full;

	plan_lazy();
	memset(&c, 0, sizeof(c));
	c.keep = 1;
	ok(check_demo(&c, SP_DEMO_DEFAULT_JOBS, &child_ok) == 1,
	   "the header names sacct's fields, in order");
	ok(child_ok, "the default history is written without error");
	report(&c, "default");
	ok(c.allocs > 3000 && c.allocs < 5000,
	   "a few thousand allocations (%ld)", c.allocs);
	ok(c.steps >= 2 * c.allocs - 10, "each with its steps (%ld)", c.steps);
	is_int(1, c.continuations, "one submit line holds a newline");
	test_tokenizer(&c);
	test_corpus(&c);
	test_reasoning(&c);
	test_increases(&c);
	test_figure3(&c);
	test_idle(&c);
	test_nodes(&c);
	test_reference(&c);
	test_habits(&c);
	test_mix(&c);
	ok(hash_of(SP_DEMO_DEFAULT_JOBS) == c.hash,
	   "the same bytes on a second run");
	checker_free(&c);

	full = fopen("/dev/full", "w");
	if (full) {
		ok(sp_demo_write(full, 0) == -1, "a failed write is reported");
		fclose(full);
	}

	memset(&big, 0, sizeof(big));
	ok(check_demo(&big, 1000000, &child_ok) == 1 && child_ok,
	   "1,000,000 jobs: written and read back");
	report(&big, "1,000,000 jobs");
	ok(big.allocs >= 1000000 && big.allocs < 1000100,
	   "1,000,000 jobs: about that many allocations (%ld)", big.allocs);
	checker_free(&big);
	return done_testing();
}
