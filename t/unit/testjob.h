/*
 * testjob.h - hand-written job records for the unit tests of sp_logs and
 * sp_findings: every column unknown, then set by name.
 *
 *	struct sp_job j;
 *	tj_init(&j);
 *	tj_set(&j, "state", "TIMEOUT");
 *	tj_num(&j, "elapsed_s", 1826);
 *
 * Text is kept in record form (the caller escapes, as sp-fetch would);
 * strings given to tj_set must outlive the job (literals do).
 */
#ifndef TESTJOB_H
#define TESTJOB_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"

static inline void
tj_init(struct sp_job *j)
{
	memset(j, 0, sizeof *j);
#define TJ_S(name) j->name.p = ""; j->name.n = 0;
#define TJ_N(name) j->name = NAN;
#define TJ_T(name) j->name.p = ""; j->name.n = 0; j->name##_known = 0;
#define SP_X(name, kind) TJ_##kind(name)
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
#undef TJ_S
#undef TJ_N
#undef TJ_T
	j->workload.p = j->workload_key.p = "";
}

static inline void
tj_set(struct sp_job *j, const char *col, const char *value)
{
	struct sp_slice v = { value, strlen(value) };

#define TJ_S(name) if (strcmp(col, #name) == 0) { j->name = v; return; }
#define TJ_N(name)
#define TJ_T(name) if (strcmp(col, #name) == 0) { \
		j->name = v; \
		j->name##_known = sp_parse_time(value, v.n, \
						&j->name##_t) == SP_VAL_OK; \
		return; }
#define SP_X(name, kind) TJ_##kind(name)
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
#undef TJ_S
#undef TJ_N
#undef TJ_T
	fprintf(stderr, "testjob: no text column '%s'\n", col);
	abort();
}

static inline void
tj_num(struct sp_job *j, const char *col, double value)
{
#define TJ_S(name)
#define TJ_N(name) if (strcmp(col, #name) == 0) { j->name = value; return; }
#define TJ_T(name)
#define SP_X(name, kind) TJ_##kind(name)
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
#undef TJ_S
#undef TJ_N
#undef TJ_T
	fprintf(stderr, "testjob: no number column '%s'\n", col);
	abort();
}

#endif
