/*
 * sp_live.h - what a running job is doing now: sstat's answer read, and
 * the live columns sp-fetch --live writes beside the accounting record.
 *
 * sacct records a step's memory and CPU only once the step ends; sstat
 * asks the nodes about the steps still running.  sp-fetch --live asks it
 * once for every running job and appends to every record:
 *
 *   live_rss_b     the largest MaxRSS of the job's running steps, bytes
 *   live_rss_step  the step that holds it (batch, 0, extern ...)
 *   live_cpu_s     the CPU the job has used so far, seconds: its running
 *                  steps' as sstat reads them (TRESUsageInTot's cpu=, the
 *                  sum over a step's tasks; where sstat has no such field,
 *                  AveCPU x NTasks), the extern step left out as sacct's
 *                  totals leave it, plus the CPU of its ended steps as
 *                  sacct recorded it (total_cpu_s: sacct counts a step's
 *                  CPU only once it ended)
 *   live_at        when sstat was asked (ISO 8601, the cluster's time)
 *   live_why       for a running job sstat gave no figures for, why; the
 *                  other four are then empty
 *
 * A record that is not running (finished, pending, a step) has all five
 * empty.  Nothing here is ever stored: the figures are of a moment.
 */
#ifndef SP_LIVE_H
#define SP_LIVE_H

#include <stddef.h>
#include <stdint.h>
#include "sp_intern.h"
#include "sp_job.h"
#include "sp_record.h"
#include "sp_util.h"

#define SP_LIVE_COLUMNS(X) \
	X(live_rss_b) X(live_rss_step) X(live_cpu_s) X(live_at) X(live_why)

/* The column names, in order, NULL-terminated. */
extern const char *const sp_live_column_names[];

/* ------------------------------------------------ reading the records */

/* Column indices in a reader; -1 where the input lacks the column. */
struct sp_livecols {
#define SP_X(name) int name;
	SP_LIVE_COLUMNS(SP_X)
#undef SP_X
};

/* One record's live columns.  Slices point into the reader's buffer. */
struct sp_live {
	int fetched;		/* the input has live columns (--live) */
	int known;		/* sstat gave figures for this job */
	double rss_b;		/* NaN unknown */
	double cpu_s;		/* NaN unknown */
	struct sp_slice step;	/* record form */
	struct sp_slice at;	/* ISO 8601, record form */
	int64_t at_t;		/* at, as sp_parse_time reads it */
	int at_known;
	struct sp_slice why;	/* record form; empty when known */
};

void sp_livecols_resolve(struct sp_livecols *c, const struct sp_reader *r);
/* 1 when the reader has every live column. */
int sp_livecols_present(const struct sp_livecols *c);
/*
 * The current record's live columns.  A number that is not one is bad
 * input: 0, or -1 with the message in r's err buffer.
 */
int sp_live_parse(struct sp_live *l, const struct sp_livecols *c,
		  struct sp_reader *r);
/*
 * The same from a record kept apart from its reader, its fields by
 * column name: 1 when every live column is there (l->fetched), else 0.
 * A figure that is not a number is read as unknown.
 */
int sp_live_from_fields(struct sp_live *l, char *const *cols,
			const struct sp_slice *f, size_t nf);
/*
 * Whether a record is one the live columns speak of: an open allocation
 * in state RUNNING (a pending job has nothing running to read).
 */
int sp_live_running(const struct sp_job *j);

/* ------------------------------------------------ sstat's answer */

/* The fields sp-fetch --live asks sstat for, in this order; where sstat
 * refuses TRESUsageInTot (an old one), the same without it. */
#define SP_SSTAT_FIELDS "JobID,MaxRSS,AveCPU,NTasks,TRESUsageInTot"
#define SP_SSTAT_FIELDS_OLD "JobID,MaxRSS,AveCPU,NTasks"

/* Why sstat gave no figures for a job. */
enum sp_live_why {
	SP_LW_NONE,		/* it gave some */
	SP_LW_NO_STEPS,		/* "No steps running for job N" */
	SP_LW_NOT_OWNER,	/* "Invalid user id": owner-only */
	SP_LW_LOST,		/* "couldn't get steps for job N" */
	SP_LW_UNSAMPLED,	/* steps, every reading zero or empty */
	SP_LW_SILENT,		/* no row and no word about it */
	SP_LW_N
};

/* The reason in words, for live_why and messages. */
const char *sp_live_why_text(enum sp_live_why w);

/* What sstat said of one job (by the id it printed). */
struct sp_sstat_job {
	int rows;		/* step rows read */
	int sampled;		/* a step showed a reading above zero */
	double rss_b;		/* the largest MaxRSS, NaN none */
	char *rss_step;		/* its step, NULL none */
	double cpu_s;		/* the work steps' CPU, summed */
	int cpu_gap;		/* a work step had no CPU figure */
	enum sp_live_why err;	/* what its error lines said, NONE none */
};

struct sp_sstat {
	struct sp_intern ids;	/* job ids as sstat printed them */
	struct sp_sstat_job *job;	/* by number in ids */
	size_t cap;
	int with_tres;		/* the answer has TRESUsageInTot */
	unsigned long bad;	/* rows that were not of the grammar */
	enum sp_live_why all_err;	/* a line about no job in particular */
};

/*
 * Reads sstat's --parsable2 --noheader answer to the fields fields
 * (SP_SSTAT_FIELDS or SP_SSTAT_FIELDS_OLD) into s (zeroed first), and
 * its standard error, whose lines name the jobs it could not read.
 */
void sp_sstat_read(struct sp_sstat *s, const char *fields, const char *out,
		   size_t outlen, const char *err, size_t errlen);
/* The job of id (as its record prints jobid or jobid_raw), or NULL. */
const struct sp_sstat_job *sp_sstat_find(const struct sp_sstat *s,
					 const char *id, size_t n);
/*
 * What a job's figures are, or why there are none: SP_LW_NONE with
 * *rss_b, *step and *cpu_s set (cpu_s the running steps' alone), else
 * the reason (the figures NaN).  j may be NULL (no row, no word).
 */
enum sp_live_why sp_sstat_figures(const struct sp_sstat *s,
				  const struct sp_sstat_job *j,
				  double *rss_b, const char **step,
				  double *cpu_s);
void sp_sstat_free(struct sp_sstat *s);

#endif
