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
#include "demo/check.h"

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
