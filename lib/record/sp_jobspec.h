/*
 * sp_jobspec.h - job ids as sacct prints them and as -j takes them, and
 * whether a record is one of the jobs named.
 *
 * Every form sacct prints is an id: 123 (a job, or every task of array
 * 123, or every component of heterogeneous job 123), 123_4 (one array
 * task), 123_[1-3,7] and 123_[1-9%2] (a set of tasks; %2 is the
 * throttle, which names no task), 123+1 (one heterogeneous component),
 * each optionally with a step (123.batch, 123_4.0), which names the job
 * the step belongs to.  A list separates ids with commas outside the
 * brackets only: "4103947_[1,5],77" is two ids.
 */
#ifndef SP_JOBSPEC_H
#define SP_JOBSPEC_H

#include <stddef.h>
#include <stdint.h>
#include "sp_job.h"
#include "sp_util.h"

/* A closed range of array task ids. */
struct sp_task_range {
	uint64_t lo;
	uint64_t hi;
};

enum sp_jobid_kind {
	SP_JOBID_JOB,		/* 123: the job, its tasks, its components */
	SP_JOBID_TASKS,		/* 123_4, 123_[1-3]: tasks of array 123 */
	SP_JOBID_HET		/* 123+1: one component of job 123 */
};

struct sp_jobid {
	char *text;		/* as it was written, for messages */
	enum sp_jobid_kind kind;
	uint64_t job;		/* the job, the array's or the het leader's */
	struct sp_task_range *tasks;	/* SP_JOBID_TASKS, ascending */
	size_t ntasks;
	uint64_t het;		/* SP_JOBID_HET: the component's offset */
	char *step;		/* "batch", "0", ... or NULL */
};

struct sp_jobspec {
	struct sp_jobid *v;
	size_t n;
	size_t cap;
	/* v by job number, kept by each add: a record is looked up, not
	 * compared with every id */
	struct sp_jobspec_key {
		uint64_t job;
		size_t i;
	} *by_job;
};

/*
 * Adds the ids of a comma list to s (call again for each -j).  Returns
 * 0, or -1 with one line in err naming the id that is not one, e.g.
 * "'12_[3' is not a job id (123, 123_4, 123_[1-3,7], 123+1)".  On error s
 * keeps the ids before the bad one.
 */
int sp_jobspec_add(struct sp_jobspec *s, const char *list, struct sp_buf *err);
void sp_jobspec_free(struct sp_jobspec *s);

/* Whether id names the record j (an allocation or one of its steps). */
int sp_jobid_match(const struct sp_jobid *id, const struct sp_job *j);
/*
 * The first id of s (in the order given) that names j, or -1; each id
 * that does gets seen[i] = 1 (seen may be NULL).  Time logarithmic in
 * the ids, so a list of thousands costs each record little.
 */
long sp_jobspec_find(const struct sp_jobspec *s, const struct sp_job *j,
		     unsigned char *seen);
/* Whether any id of s names j (sp_jobspec_find); an empty spec matches
 * every record. */
int sp_jobspec_match(const struct sp_jobspec *s, const struct sp_job *j,
		     unsigned char *seen);

#endif
