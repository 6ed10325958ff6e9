/*
 * sp_job.c - one job record, parsed, and the predicates every analysis
 * stage must agree on (what counts as failed, open, or computing nothing).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "sp_util.h"
#include "sp_const.h"
#include "sp_units.h"
#include "sp_hostlist.h"
#include "sp_stats.h"
#include "sp_record.h"
#include "sp_state.h"
#include "sp_job.h"
#include "sp_state.h"

const char *const sp_job_column_names[] = {
#define SP_X(name, kind) #name,
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
	NULL
};

void
sp_jobcols_resolve(struct sp_jobcols *c, const struct sp_reader *r)
{
#define SP_X(name, kind) c->name = sp_reader_col(r, #name);
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
	c->workload = sp_reader_col(r, "workload");
	c->workload_key = sp_reader_col(r, "workload_key");
}

/* Where each column's index lives in struct sp_jobcols, by name. */
static const struct {
	const char *name;
	size_t off;
} jobcol_at[] = {
#define SP_X(name, kind) { #name, offsetof(struct sp_jobcols, name) },
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
	{ "workload", offsetof(struct sp_jobcols, workload) },
	{ "workload_key", offsetof(struct sp_jobcols, workload_key) },
};

void
sp_jobcols_only(struct sp_jobcols *c, const struct sp_reader *r, ...)
{
	va_list ap;
	const char *name;

	memset(c, 0xff, sizeof *c);	/* every index -1: absent */
	va_start(ap, r);
	while ((name = va_arg(ap, const char *)) != NULL) {
		size_t i = 0;

		while (i < sizeof jobcol_at / sizeof jobcol_at[0] &&
		       strcmp(jobcol_at[i].name, name) != 0)
			i++;
		if (i == sizeof jobcol_at / sizeof jobcol_at[0])
			sp_die(SP_EXIT_USAGE, "internal error: no job column "
			       "'%s'", name);
		*(int *)(void *)((char *)c + jobcol_at[i].off) =
		    sp_reader_col(r, name);
	}
	va_end(ap);
}

void
sp_jobcols_want(struct sp_reader *r, const struct sp_jobcols *c)
{
	for (size_t i = 0; i < sizeof jobcol_at / sizeof jobcol_at[0]; i++)
		sp_reader_want(r, *(const int *)(const void *)
		    ((const char *)c + jobcol_at[i].off));
}

void
sp_jobcols_need(const struct sp_reader *r, const char *added_by, ...)
{
	va_list ap;
	const char *name;

	va_start(ap, added_by);
	while ((name = va_arg(ap, const char *)) != NULL)
		sp_reader_need(r, name, added_by);
	va_end(ap);
}

/*
 * The common number field, plain digits with at most one point inside
 * and at most 15 of them, as sp_field_num reads it: the integer they
 * form over a power of ten, both exact, so one correctly rounded
 * division.  0, or -1 for anything else (sp_field_num decides).
 */
/* Reads digits from p on into *mant; returns where they stop. */
static const unsigned char *
digits(const unsigned char *p, const unsigned char *end, uint64_t *mant)
{
	uint64_t m = *mant;

	for (; p < end; p++) {
		unsigned d = (unsigned)*p - '0';

		if (d >= 10)
			break;
		m = m * 10 + d;
	}
	*mant = m;
	return p;
}

static int
plain_decimal(struct sp_slice s, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
		1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	const unsigned char *p = (const unsigned char *)s.p, *end = p + s.n;
	const unsigned char *stop;
	uint64_t mant = 0;
	size_t decimals = 0;

	if (s.n == 0 || s.n > 16)
		return -1;
	/* The whole part, then at most one point with digits both sides:
	 * a loop that only tests for a digit, most fields being whole. */
	stop = digits(p, end, &mant);
	if (stop < end) {
		if (*stop != '.' || stop == p || stop + 1 == end ||
		    digits(stop + 1, end, &mant) != end)
			return -1;
		decimals = (size_t)(end - stop - 1);
	} else if (s.n > 15) {
		return -1;
	}
	*out = (double)mant / pow10[decimals];
	return 0;
}

/* 0, or -1 with r->err set naming the field. */
static int
number(struct sp_reader *r, int col, const char *name, double *out)
{
	struct sp_slice s;
	int rc;

	/* Most stages resolve a few columns: the rest are unknown. */
	if (col < 0) {
		*out = NAN;
		return 0;
	}
	s = r->f[col];
	if (plain_decimal(s, out) == 0)
		return 0;
	rc = sp_field_num(s, out);

	if (rc == 1)
		return 0;
	*out = NAN;
	if (rc == 0)
		return 0;
	return sp_reader_bad_field(r, name, s, "a number");
}

/*
 * Records of one day follow each other, and the day is most of what
 * sp_parse_time works out: the last date it accepted is remembered, and
 * a timestamp on that date needs only its clock read.  Anything else,
 * and every clock out of range, goes to sp_parse_time.
 */
#define DAY_SLOTS 4		/* submit, eligible, start, end */

static struct day {
	char date[11];		/* "YYYY-MM-DDT" */
	int64_t epoch;		/* its midnight */
	int known;
} last_day[DAY_SLOTS];

static int
two(const char *p)
{
	unsigned a = (unsigned char)p[0] - '0', b = (unsigned char)p[1] - '0';

	return a < 10 && b < 10 ? (int)(a * 10 + b) : -1;
}

static int
same_day(const struct day *day, const char *p, size_t n, int64_t *t)
{
	int h, mi, se;

	if (!day->known || n != 19 || memcmp(p, day->date, 11) != 0 ||
	    p[13] != ':' || p[16] != ':')
		return 0;
	h = two(p + 11);
	mi = two(p + 14);
	se = two(p + 17);
	if (h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59)
		return 0;
	*t = day->epoch + h * 3600 + mi * 60 + se;
	return 1;
}

static void
remember_day(struct day *day, const char *p, int64_t t)
{
	int h = two(p + 11), mi = two(p + 14), se = two(p + 17);

	memcpy(day->date, p, 11);
	day->epoch = t - (h * 3600 + mi * 60 + se);
	day->known = 1;
}

static int
timestamp(struct sp_reader *r, int col, const char *name,
	  struct sp_slice *s, int64_t *t, int *known)
{
	/* One memory per column: a run's submit and end can be days apart. */
	struct day *day = &last_day[(unsigned)col % DAY_SLOTS];

	*s = sp_reader_field(r, col);
	*t = 0;
	*known = 0;
	if (s->n == 0)
		return 0;
	if (same_day(day, s->p, s->n, t)) {
		*known = 1;
		return 0;
	}
	switch (sp_parse_time(s->p, s->n, t)) {
	case SP_VAL_OK:
		*known = 1;
		remember_day(day, s->p, *t);
		return 0;
	case SP_VAL_UNKNOWN:
		return 0;
	default:
		return sp_reader_bad_field(r, name, *s, "a timestamp");
	}
}

int
sp_job_parse_checked(struct sp_job *j, const struct sp_jobcols *c,
		     struct sp_reader *r)
{
#define SP_XP_S(name) j->name = sp_reader_field(r, c->name);
/* The common cases in line: an absent column, a plain decimal. */
#define SP_XP_N(name) \
	if (c->name < 0) \
		j->name = NAN; \
	else if (plain_decimal(r->f[c->name], &j->name) < 0 && \
		 number(r, c->name, #name, &j->name) < 0) \
		return -1;
/* An absent time in line too: most stages read one or two of four. */
#define SP_XP_T(name) \
	if (c->name < 0) { \
		j->name = (struct sp_slice){ "", 0 }; \
		j->name##_t = 0; \
		j->name##_known = 0; \
	} else if (timestamp(r, c->name, #name, &j->name, &j->name##_t, \
			     &j->name##_known) < 0) { \
		return -1; \
	}
#define SP_X(name, kind) SP_XP_##kind(name)
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
#undef SP_XP_S
#undef SP_XP_N
#undef SP_XP_T
	j->workload = sp_reader_field(r, c->workload);
	j->workload_key = sp_reader_field(r, c->workload_key);
	return 0;
}

void
sp_job_parse(struct sp_job *j, const struct sp_jobcols *c,
	     const struct sp_reader *r)
{
	/* The reader is only written to for its error message. */
	struct sp_reader *rw = (struct sp_reader *)r;

	if (sp_job_parse_checked(j, c, rw) < 0)
		sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&rw->err));
}

int
sp_job_is_step(const struct sp_job *j)
{
	return j->step.n > 0;
}

int
sp_job_state_is(const struct sp_job *j, const char *state)
{
	return sp_slice_eq(j->state, state);
}

static int
state_in(const struct sp_job *j, const char *const *states)
{
	for (; *states; states++)
		if (sp_slice_eq(j->state, *states))
			return 1;
	return 0;
}

int
sp_job_ran(const struct sp_job *j)
{
	if (sp_job_state_is(j, "PENDING") || j->alloc_cpus == 0)
		return 0;
	return !(j->elapsed_s == 0 && j->nodelist.n == 0);
}

int
sp_job_is_open(const struct sp_job *j)
{
	static const char *const running[] = { "RUNNING", "PENDING",
		"SUSPENDED", "CONFIGURING", "COMPLETING", "RESIZING",
		"REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "SIGNALING",
		"STAGE_OUT", "STOPPED", NULL };

	if (!isnan(j->open))
		return j->open != 0;
	/* A record without the column: judge from the state and the end. */
	return j->end.n == 0 && state_in(j, running);
}

int
sp_job_usable(const struct sp_job *j)
{
	return !sp_job_is_step(j) && !sp_job_is_open(j) &&
	       !isnan(j->elapsed_s);
}

int
sp_job_failed(const struct sp_job *j)
{
	return sp_state_failed(sp_state_of(j->state));
}

void
sp_job_drop_text(struct sp_job *j)
{
	static const struct sp_slice none = { "", 0 };

#define SP_XS_S(name) j->name = none;
#define SP_XS_N(name)
#define SP_XS_T(name) j->name = none;
#define SP_X(name, kind) SP_XS_##kind(name)
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
#undef SP_XS_S
#undef SP_XS_N
#undef SP_XS_T
	j->workload = none;
	j->workload_key = none;
}

int
sp_noop(double elapsed_s, double cpu_s)
{
	if (isnan(elapsed_s) || isnan(cpu_s))
		return 0;
	return elapsed_s > SP_NOOP_MIN_ELAPSED_S && cpu_s < SP_NOOP_MAX_CPU_S;
}

int
sp_noop_known(double elapsed_s, double cpu_s)
{
	return elapsed_s <= SP_NOOP_MIN_ELAPSED_S || !isnan(cpu_s);
}

int
sp_job_noop(const struct sp_job *j)
{
	if (sp_job_is_step(j) || sp_job_is_open(j))
		return 0;
	return sp_noop(j->elapsed_s, j->total_cpu_s);
}

int
sp_job_hang(const struct sp_job *j)
{
	/* With no state, whether one explains the idle CPU is unknown. */
	return sp_job_noop(j) && j->state.n > 0 &&
	       !sp_state_explains_idle(sp_state_of(j->state));
}

enum sp_timeout
sp_timeout_cause(double elapsed_s, double total_cpu_s)
{
	if (isnan(total_cpu_s))
		return SP_TO_UNKNOWN;
	if (total_cpu_s >= SP_NOOP_MAX_CPU_S)
		return SP_TO_COMPUTING;
	if (isnan(elapsed_s))
		return SP_TO_UNKNOWN;	/* hung or short, it cannot say */
	return elapsed_s > SP_NOOP_MIN_ELAPSED_S ? SP_TO_HUNG : SP_TO_SHORT;
}

int
sp_job_noop_known(const struct sp_job *j)
{
	return sp_job_usable(j) && sp_noop_known(j->elapsed_s, j->total_cpu_s);
}

int
sp_job_hang_known(const struct sp_job *j)
{
	if (!sp_job_usable(j))
		return 0;
	if (j->elapsed_s <= SP_NOOP_MIN_ELAPSED_S)
		return 1;
	if (j->state.n == 0)
		return !isnan(j->total_cpu_s) && !sp_job_noop(j);
	return !isnan(j->total_cpu_s) ||
	       sp_state_explains_idle(sp_state_of(j->state));
}

int
sp_job_io_explains(const struct sp_job *j)
{
	double moved = 0;

	if (isnan(j->read_b) && isnan(j->write_b))
		return 0;
	if (!isnan(j->read_b))
		moved += j->read_b;
	if (!isnan(j->write_b))
		moved += j->write_b;
	if (isnan(j->elapsed_s) || j->elapsed_s <= 0)
		return 0;
	return moved >= SP_IO_MIN_BYTES &&
	       moved / j->elapsed_s >= SP_IO_MIN_RATE;
}

enum sp_hang_kind
sp_job_hang_kind(const struct sp_job *j)
{
	if (!sp_job_noop(j))
		return SP_HANG_NONE;
	if (!sp_job_hang(j))
		return SP_HANG_EXPLAINED;
	if (sp_job_io_explains(j))
		return SP_HANG_MOVING;
	if (sp_job_state_is(j, "TIMEOUT"))
		return SP_HANG_BLOCKED;
	return SP_HANG_HUNG;
}

void
sp_hang_tally_init(struct sp_hang_tally *t)
{
	t->count = 0;
	t->gpu_h = t->core_h = NAN;
}

void
sp_hang_tally_add(struct sp_hang_tally *t, double gpu_h, double core_h)
{
	t->count++;
	if (!isnan(gpu_h))
		t->gpu_h = isnan(t->gpu_h) ? gpu_h : t->gpu_h + gpu_h;
	if (!isnan(core_h))
		t->core_h = isnan(t->core_h) ? core_h : t->core_h + core_h;
}

int
sp_hang_tally_cmp(const struct sp_hang_tally *a, const char *key_a,
		  const struct sp_hang_tally *b, const char *key_b)
{
	double ga = isnan(a->gpu_h) ? 0 : a->gpu_h;
	double gb = isnan(b->gpu_h) ? 0 : b->gpu_h;
	double ca = isnan(a->core_h) ? 0 : a->core_h;
	double cb = isnan(b->core_h) ? 0 : b->core_h;

	if (ga != gb)
		return ga < gb ? 1 : -1;
	if (ca != cb)
		return ca < cb ? 1 : -1;
	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return strcmp(key_a, key_b);
}

double
sp_job_cores(const struct sp_job *j)
{
	if (!isnan(j->alloc_cpus) && j->alloc_cpus > 0)
		return j->alloc_cpus;
	if (!isnan(j->req_cpus) && j->req_cpus > 0)
		return j->req_cpus;
	return NAN;
}

double
sp_job_mem_limit_node(const struct sp_job *j)
{
	double b = j->mem_limit_node_b;

	if (!(b > 0) && j->mem_limit_total_b > 0)
		b = j->mem_limit_total_b / (j->nnodes > 0 ? j->nnodes : 1);
	return b > 0 ? b : NAN;
}

double
sp_job_gpus(const struct sp_job *j)
{
	return j->alloc_gpus;
}

int
sp_job_gpu_kind(const struct sp_job *j)
{
	if (isnan(j->alloc_gpus))
		return -1;
	return j->alloc_gpus > 0;
}

double
sp_job_core_hours(const struct sp_job *j)
{
	return j->elapsed_s * sp_job_cores(j) / 3600.0;
}

double
sp_job_gpu_hours(const struct sp_job *j)
{
	return j->elapsed_s * sp_job_gpus(j) / 3600.0;
}

double
sp_compute(double gpu_h, double core_h)
{
	return (isnan(gpu_h) ? 0 : gpu_h) * SP_GPU_CORE_RATIO +
	       (isnan(core_h) ? 0 : core_h);
}
