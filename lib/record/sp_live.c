/*
 * sp_live.c - sstat's answer read, and the live columns read back from
 * records (sp_live.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_util.h"
#include "sp_const.h"
#include "sp_units.h"
#include "sp_hostlist.h"
#include "sp_stats.h"
#include "sp_record.h"
#include "sp_state.h"
#include "sp_job.h"
#include "sp_live.h"

const char *const sp_live_column_names[] = {
#define SP_X(name) #name,
	SP_LIVE_COLUMNS(SP_X)
#undef SP_X
	NULL
};

/* ------------------------------------------------ reading the records */

void
sp_livecols_resolve(struct sp_livecols *c, const struct sp_reader *r)
{
#define SP_X(name) c->name = sp_reader_col(r, #name);
	SP_LIVE_COLUMNS(SP_X)
#undef SP_X
}

int
sp_livecols_present(const struct sp_livecols *c)
{
	return c->live_rss_b >= 0 && c->live_rss_step >= 0 &&
	       c->live_cpu_s >= 0 && c->live_at >= 0 && c->live_why >= 0;
}

static int
number(struct sp_reader *r, int i, const char *name, double *out)
{
	struct sp_slice s = sp_reader_field(r, i);

	*out = NAN;
	if (s.n == 0 || sp_field_num(s, out) == 1)
		return 0;
	*out = NAN;
	return sp_reader_bad_field(r, name, s, "a number");
}

int
sp_live_parse(struct sp_live *l, const struct sp_livecols *c,
	      struct sp_reader *r)
{
	memset(l, 0, sizeof *l);
	l->rss_b = l->cpu_s = NAN;
	l->fetched = sp_livecols_present(c);
	if (!l->fetched)
		return 0;
	if (number(r, c->live_rss_b, "live_rss_b", &l->rss_b) < 0 ||
	    number(r, c->live_cpu_s, "live_cpu_s", &l->cpu_s) < 0)
		return -1;
	l->step = sp_reader_field(r, c->live_rss_step);
	l->at = sp_reader_field(r, c->live_at);
	l->why = sp_reader_field(r, c->live_why);
	if (l->at.n > 0) {
		if (sp_parse_time(l->at.p, l->at.n, &l->at_t) != SP_VAL_OK)
			return sp_reader_bad_field(r, "live_at", l->at,
						   "a timestamp");
		l->at_known = 1;
	}
	l->known = l->at_known && l->why.n == 0;
	return 0;
}

int
sp_live_from_fields(struct sp_live *l, char *const *cols,
		    const struct sp_slice *f, size_t nf)
{
	int seen = 0;

	memset(l, 0, sizeof *l);
	l->rss_b = l->cpu_s = NAN;
	for (size_t i = 0; cols != NULL && i < nf; i++) {
		if (strcmp(cols[i], "live_rss_b") == 0) {
			if (sp_field_num(f[i], &l->rss_b) != 1)
				l->rss_b = NAN;
		} else if (strcmp(cols[i], "live_cpu_s") == 0) {
			if (sp_field_num(f[i], &l->cpu_s) != 1)
				l->cpu_s = NAN;
		} else if (strcmp(cols[i], "live_rss_step") == 0) {
			l->step = f[i];
		} else if (strcmp(cols[i], "live_at") == 0) {
			l->at = f[i];
		} else if (strcmp(cols[i], "live_why") == 0) {
			l->why = f[i];
		} else {
			continue;
		}
		seen++;
	}
	l->fetched = seen == 5;
	if (l->at.n > 0 &&
	    sp_parse_time(l->at.p, l->at.n, &l->at_t) == SP_VAL_OK)
		l->at_known = 1;
	l->known = l->fetched && l->at_known && l->why.n == 0;
	return l->fetched;
}

int
sp_live_running(const struct sp_job *j)
{
	return !sp_job_is_step(j) && sp_job_is_open(j) &&
	       sp_job_state_is(j, "RUNNING");
}

/* ------------------------------------------------ sstat's answer */

static const char *const why_text[SP_LW_N] = {
	"",
	"no step of it is running yet",
	"sstat answers only a job's owner, or root",
	"sstat could not get its steps (it may have just ended)",
	("its steps have no sample yet (JobAcctGatherFrequency), or this "
	 "cluster's gatherer takes none"),
	"sstat said nothing of it",
};

const char *
sp_live_why_text(enum sp_live_why w)
{
	return w < SP_LW_N ? why_text[w] : "";
}

static struct sp_sstat_job *
job_of(struct sp_sstat *s, const char *id, size_t n)
{
	size_t before = s->ids.n, i = sp_intern(&s->ids, id, n);

	if (i >= s->cap)
		s->job = sp_xgrow(s->job, &s->cap, i + 1, sizeof *s->job);
	if (s->ids.n > before) {
		/* A new job: unknown until a row says, never zero. */
		memset(&s->job[i], 0, sizeof s->job[i]);
		s->job[i].rss_b = NAN;
	}
	return &s->job[i];
}

/*
 * A step's CPU: TRESUsageInTot's cpu=, the sum over its tasks, else
 * AveCPU x NTasks.  Per task beyond SP_LIVE_CPU_MAX_S is an overflow
 * some versions print: no figure.
 */
static double
step_cpu(struct sp_slice tres, struct sp_slice ave, struct sp_slice ntasks)
{
	double cpu = NAN, tasks = 0, v;

	for (size_t i = 0; i < ntasks.n; i++) {
		unsigned d = (unsigned char)ntasks.p[i] - '0';

		if (d > 9 || tasks > 1e9) {
			tasks = 0;
			break;
		}
		tasks = tasks * 10 + d;
	}
	if (tres.n > 0 && sp_parse_tres_cpu(tres.p, tres.n, &v) == SP_VAL_OK)
		cpu = v;
	else if (ave.n > 0 && tasks > 0 &&
		 sp_parse_duration(ave.p, ave.n, &v) == SP_VAL_OK)
		cpu = v * tasks;
	if (!sp_known(cpu) || cpu < 0 ||
	    cpu / (tasks > 0 ? tasks : 1) > SP_LIVE_CPU_MAX_S)
		return NAN;
	return cpu;
}

/* Splits one row at '|' into at most n slices; returns how many. */
static size_t
split(const char *p, size_t len, struct sp_slice *f, size_t n)
{
	size_t k = 0;
	const char *end = p + len;

	while (k < n) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		const char *e = bar ? bar : end;

		f[k].p = p;
		f[k].n = (size_t)(e - p);
		k++;
		if (bar == NULL)
			break;
		p = bar + 1;
	}
	return k;
}

static void
read_row(struct sp_sstat *s, const char *p, size_t n)
{
	/* JobID, MaxRSS, AveCPU, NTasks[, TRESUsageInTot] */
	struct sp_slice f[6];
	size_t want = s->with_tres ? 5 : 4;
	size_t k = split(p, n, f, 6);
	const char *dot;
	struct sp_sstat_job *j;
	struct sp_slice step, none = { "", 0 };
	double rss, cpu;
	char scope;
	int extern_step;

	dot = k > 0 ? memchr(f[0].p, '.', f[0].n) : NULL;
	if (k != want || dot == NULL || dot == f[0].p) {
		s->bad++;
		return;
	}
	step.p = dot + 1;
	step.n = (size_t)(f[0].p + f[0].n - step.p);
	j = job_of(s, f[0].p, (size_t)(dot - f[0].p));
	j->rows++;
	extern_step = sp_slice_eq(step, "extern");
	if (sp_parse_mem(f[1].p, f[1].n, 1, 0, &rss, &scope) == SP_VAL_OK &&
	    rss > 0) {
		j->sampled = 1;
		if (!(rss <= j->rss_b)) {
			j->rss_b = rss;
			free(j->rss_step);
			j->rss_step = sp_xstrndup(step.p, step.n);
		}
	}
	cpu = step_cpu(s->with_tres ? f[4] : none, f[2], f[3]);
	if (cpu > 0)
		j->sampled = 1;
	/* sacct's totals leave the extern step out; so does this one. */
	if (extern_step)
		return;
	if (sp_known(cpu))
		j->cpu_s += cpu;
	else
		j->cpu_gap = 1;	/* one step without a figure: no sum */
}

/* The job id in "... for job 123" or "StepId=123.batch", into id. */
static int
error_job(const char *line, size_t n, struct sp_slice *id)
{
	static const char *const marks[] = { "for job ", "StepId=", NULL };
	const char *end = line + n;

	for (int m = 0; marks[m]; m++) {
		size_t ml = strlen(marks[m]);

		for (const char *p = line; p + ml <= end; p++) {
			const char *q;

			if (memcmp(p, marks[m], ml) != 0)
				continue;
			q = p + ml;
			id->p = q;
			while (q < end && *q != '.' && *q != ':' &&
			       *q != ' ' && *q != ',')
				q++;
			id->n = (size_t)(q - id->p);
			if (id->n > 0)
				return 1;
		}
	}
	return 0;
}

static int
has(const char *line, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(line + i, needle, k) == 0)
			return 1;
	return 0;
}

static void
read_error(struct sp_sstat *s, const char *line, size_t n)
{
	enum sp_live_why w;
	struct sp_slice id;

	if (has(line, n, "Invalid user id") ||
	    has(line, n, "Access/permission denied"))
		w = SP_LW_NOT_OWNER;
	else if (has(line, n, "No steps running"))
		w = SP_LW_NO_STEPS;
	else if (has(line, n, "couldn't get steps"))
		w = SP_LW_LOST;
	else
		return;
	if (error_job(line, n, &id)) {
		struct sp_sstat_job *j = job_of(s, id.p, id.n);

		if (j->err == SP_LW_NONE)
			j->err = w;
	} else if (s->all_err == SP_LW_NONE) {
		s->all_err = w;
	}
}

/* Calls fn for every line of text (without its LF). */
static void
each_line(struct sp_sstat *s, const char *text, size_t n,
	  void (*fn)(struct sp_sstat *, const char *, size_t))
{
	const char *p = text, *end = text + n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		size_t len = (size_t)(e - p);

		if (len > 0 && p[len - 1] == '\r')
			len--;
		if (len > 0)
			fn(s, p, len);
		p = nl ? nl + 1 : end;
	}
}

void
sp_sstat_read(struct sp_sstat *s, const char *fields, const char *out,
	      size_t outlen, const char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->with_tres = strcmp(fields, SP_SSTAT_FIELDS) == 0;
	each_line(s, out, outlen, read_row);
	each_line(s, err, errlen, read_error);
}

const struct sp_sstat_job *
sp_sstat_find(const struct sp_sstat *s, const char *id, size_t n)
{
	long i = n > 0 ? sp_intern_find(&s->ids, id, n) : -1;

	return i < 0 ? NULL : &s->job[i];
}

enum sp_live_why
sp_sstat_figures(const struct sp_sstat *s, const struct sp_sstat_job *j,
		 double *rss_b, const char **step, double *cpu_s)
{
	*rss_b = *cpu_s = NAN;
	*step = NULL;
	if (j == NULL || j->rows == 0) {
		if (j != NULL && j->err != SP_LW_NONE)
			return j->err;
		return s->all_err != SP_LW_NONE ? s->all_err : SP_LW_SILENT;
	}
	/* Steps, and not one reading: the gatherer has not sampled. */
	if (!j->sampled)
		return SP_LW_UNSAMPLED;
	*rss_b = j->rss_b;
	*step = j->rss_step;
	*cpu_s = j->cpu_gap ? NAN : j->cpu_s;
	return SP_LW_NONE;
}

void
sp_sstat_free(struct sp_sstat *s)
{
	for (size_t i = 0; i < s->ids.n; i++)
		free(s->job[i].rss_step);
	free(s->job);
	sp_intern_free(&s->ids);
	memset(s, 0, sizeof *s);
}
