#include <stdlib.h>
#include <string.h>

#include "sp_jobspec.h"

static const char forms[] = "(123, 123_4, 123_[1-3,7], 123+1)";

/* Digits at *p (at least one, no overflow): 0 and *v set, else -1. */
static int
number(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t n = 0;

	if (s >= end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (n > (UINT64_MAX - d) / 10)
			return -1;
		n = n * 10 + d;
	}
	*p = s;
	*v = n;
	return 0;
}

/*
 * The next range of a task set "[1-3,7%2]" (p just past '[' or a comma),
 * or of a lone task "4".  Returns 1 with r set, 0 at the set's end (the
 * throttle skipped, p past ']'), -1 when the text is not a set.
 */
static int
next_range(const char **p, const char *end, struct sp_task_range *r)
{
	const char *s = *p;

	if (s < end && *s == '%') {
		uint64_t throttle;

		s++;
		if (number(&s, end, &throttle) != 0 || s >= end || *s != ']')
			return -1;
		*p = s + 1;
		return 0;
	}
	if (s < end && *s == ']') {
		*p = s + 1;
		return 0;
	}
	if (number(&s, end, &r->lo) != 0)
		return -1;
	r->hi = r->lo;
	if (s < end && *s == '-') {
		s++;
		if (number(&s, end, &r->hi) != 0 || r->hi < r->lo)
			return -1;
	}
	if (s < end && *s == ',') {
		s++;
		if (s >= end || *s == ']' || *s == '%')
			return -1;
	} else if (s >= end || (*s != ']' && *s != '%')) {
		return -1;
	}
	*p = s;
	return 1;
}

static int
range_cmp(const void *a, const void *b)
{
	const struct sp_task_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The task part after '_': a set in brackets, or one task. */
static int
parse_tasks(const char **p, const char *end, struct sp_jobid *id)
{
	struct sp_task_range r;
	size_t cap = 0;
	int rc;

	if (*p < end && **p != '[') {
		if (number(p, end, &r.lo) != 0)
			return -1;
		r.hi = r.lo;
		id->tasks = sp_xgrow(id->tasks, &cap, 1, sizeof *id->tasks);
		id->tasks[id->ntasks++] = r;
		return 0;
	}
	(*p)++;
	if (*p < end && (**p == ']' || **p == '%'))
		return -1;	/* no task named */
	while ((rc = next_range(p, end, &r)) == 1) {
		id->tasks = sp_xgrow(id->tasks, &cap, id->ntasks + 1,
				     sizeof *id->tasks);
		id->tasks[id->ntasks++] = r;
	}
	if (rc != 0)
		return -1;
	sp_sort(id->tasks, id->ntasks, sizeof *id->tasks, range_cmp);
	return 0;
}

static int
step_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_' || c == '-';
}

static void
jobid_free(struct sp_jobid *id)
{
	free(id->text);
	free(id->tasks);
	free(id->step);
	memset(id, 0, sizeof *id);
}

/* One id, s[0..n): 0, or -1 (id left freed). */
static int
parse_one(struct sp_jobid *id, const char *s, size_t n)
{
	const char *p = s, *end = s + n;

	memset(id, 0, sizeof *id);
	id->text = sp_xstrndup(s, n);
	id->kind = SP_JOBID_JOB;
	if (number(&p, end, &id->job) != 0)
		goto bad;
	if (p < end && *p == '_') {
		p++;
		id->kind = SP_JOBID_TASKS;
		if (parse_tasks(&p, end, id) != 0)
			goto bad;
	} else if (p < end && *p == '+') {
		p++;
		id->kind = SP_JOBID_HET;
		if (number(&p, end, &id->het) != 0)
			goto bad;
	}
	if (p < end && *p == '.') {
		const char *from = ++p;

		while (p < end && step_char(*p))
			p++;
		if (p == from)
			goto bad;
		id->step = sp_xstrndup(from, (size_t)(p - from));
	}
	if (p != end)
		goto bad;
	return 0;
bad:
	jobid_free(id);
	return -1;
}

/* The index: job number and place in v, sorted by both. */
static int
by_job_cmp(const void *a, const void *b)
{
	const struct sp_jobspec_key *x = a, *y = b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Built when ids are added (options, one thread), read by any thread. */
static void
index_ids(struct sp_jobspec *s)
{
	s->by_job = sp_xrealloc(s->by_job, (s->n ? s->n : 1) *
				sizeof *s->by_job);
	for (size_t i = 0; i < s->n; i++) {
		s->by_job[i].job = s->v[i].job;
		s->by_job[i].i = i;
	}
	qsort(s->by_job, s->n, sizeof *s->by_job, by_job_cmp);
}

static int
add_list(struct sp_jobspec *s, const char *list, struct sp_buf *err)
{
	const char *p = list;

	for (;;) {
		const char *from = p;
		int depth = 0;

		while (*p && (depth > 0 || *p != ',')) {
			if (*p == '[')
				depth++;
			else if (*p == ']' && depth > 0)
				depth--;
			p++;
		}
		s->v = sp_xgrow(s->v, &s->cap, s->n + 1, sizeof *s->v);
		if (parse_one(&s->v[s->n], from, (size_t)(p - from)) != 0) {
			if (p == from)
				sp_buf_printf(err, "an empty job id in '%s'",
					      list);
			else
				sp_buf_printf(err, "'%.*s' is not a job id %s",
					      (int)(p - from), from, forms);
			return -1;
		}
		s->n++;
		if (*p == '\0')
			return 0;
		p++;
	}
}

int
sp_jobspec_add(struct sp_jobspec *s, const char *list, struct sp_buf *err)
{
	int rc = add_list(s, list, err);

	index_ids(s);
	return rc;
}

void
sp_jobspec_free(struct sp_jobspec *s)
{
	for (size_t i = 0; i < s->n; i++)
		jobid_free(&s->v[i]);
	free(s->v);
	free(s->by_job);
	memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------------- */
/* A record's identity, read in place (no allocation per record)      */

struct recid {
	int has_job;
	uint64_t job;		/* the number the jobid starts with */
	int has_array;
	uint64_t array;		/* array_job, else the jobid's for a task */
	const char *task;	/* "4" or "[1-3,7]": the task text, or NULL */
	size_t ntask;
	int has_het;
	uint64_t het;
	int has_raw;
	uint64_t raw;
};

static void
record_id(const struct sp_job *j, struct recid *r)
{
	const char *p = j->jobid.p, *end = j->jobid.p + j->jobid.n;

	memset(r, 0, sizeof *r);
	if (j->jobid.n > 0 && number(&p, end, &r->job) == 0) {
		r->has_job = 1;
		if (p < end && *p == '_') {
			const char *from = ++p;

			if (p < end && *p == '[') {
				while (p < end && *p != ']')
					p++;
				if (p < end)
					p++;
			} else {
				while (p < end && *p >= '0' && *p <= '9')
					p++;
			}
			r->task = from;
			r->ntask = (size_t)(p - from);
			r->has_array = 1;
			r->array = r->job;
		} else if (p < end && *p == '+') {
			p++;
			r->has_het = number(&p, end, &r->het) == 0;
		}
	}
	if (j->array_job.n > 0) {
		p = j->array_job.p;
		end = p + j->array_job.n;
		if (number(&p, end, &r->array) == 0 && p == end) {
			r->has_array = 1;
			if (r->task == NULL && j->array_task.n > 0) {
				r->task = j->array_task.p;
				r->ntask = j->array_task.n;
			}
		}
	}
	p = j->jobid_raw.p;
	end = p + j->jobid_raw.n;
	r->has_raw = j->jobid_raw.n > 0 && number(&p, end, &r->raw) == 0;
}

static int
overlaps(const struct sp_jobid *id, struct sp_task_range r)
{
	for (size_t i = 0; i < id->ntasks; i++)
		if (id->tasks[i].lo <= r.hi && r.lo <= id->tasks[i].hi)
			return 1;
	return 0;
}

/* Whether the record's task (one, or a set not yet started) is asked for. */
static int
task_asked(const struct sp_jobid *id, const char *t, size_t n)
{
	const char *p = t, *end = t + n;
	struct sp_task_range r;
	int rc;

	if (n == 0)
		return 0;
	if (*p != '[') {
		if (number(&p, end, &r.lo) != 0 || p != end)
			return 0;
		r.hi = r.lo;
		return overlaps(id, r);
	}
	p++;
	while ((rc = next_range(&p, end, &r)) == 1)
		if (overlaps(id, r))
			return 1;
	return 0;
}

static int
step_ok(const struct sp_jobid *id, const struct sp_job *j)
{
	/* A step names its job; among step records, only itself. */
	return id->step == NULL || j->step.n == 0 ||
	       (j->step.n == strlen(id->step) &&
		memcmp(j->step.p, id->step, j->step.n) == 0);
}

int
sp_jobid_match(const struct sp_jobid *id, const struct sp_job *j)
{
	struct recid r;
	int hit = 0;

	record_id(j, &r);
	switch (id->kind) {
	case SP_JOBID_JOB:
		hit = (r.has_job && r.job == id->job) ||
		      (r.has_array && r.array == id->job) ||
		      (r.has_raw && r.raw == id->job);
		break;
	case SP_JOBID_TASKS:
		hit = r.has_array && r.array == id->job &&
		      task_asked(id, r.task, r.ntask);
		break;
	case SP_JOBID_HET:
		hit = r.has_job && r.job == id->job && r.has_het &&
		      r.het == id->het;
		break;
	}
	return hit && step_ok(id, j);
}

/* The ids whose job number is job, tried against j; *first the lowest. */
static void
find_by(const struct sp_jobspec *s, uint64_t job, const struct sp_job *j,
	unsigned char *seen, long *first)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->by_job[mid].job < job)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->n && s->by_job[lo].job == job; lo++) {
		size_t i = s->by_job[lo].i;

		if (!sp_jobid_match(&s->v[i], j))
			continue;
		if (seen != NULL)
			seen[i] = 1;
		if (*first < 0 || (long)i < *first)
			*first = (long)i;
	}
}

long
sp_jobspec_find(const struct sp_jobspec *s, const struct sp_job *j,
		unsigned char *seen)
{
	struct recid r;
	long first = -1;

	record_id(j, &r);
	/* An id names j only through one of these numbers (sp_jobid_match). */
	if (r.has_job)
		find_by(s, r.job, j, seen, &first);
	if (r.has_array && !(r.has_job && r.array == r.job))
		find_by(s, r.array, j, seen, &first);
	if (r.has_raw && !(r.has_job && r.raw == r.job) &&
	    !(r.has_array && r.raw == r.array))
		find_by(s, r.raw, j, seen, &first);
	return first;
}

int
sp_jobspec_match(const struct sp_jobspec *s, const struct sp_job *j,
		 unsigned char *seen)
{
	return s->n == 0 || sp_jobspec_find(s, j, seen) >= 0;
}
