/*
 * fetch.h - the parts of sp-fetch kept in files of their own
 * (src/sp-fetch/): what it says about the input it read.
 */
#ifndef SP_FETCH_H
#define SP_FETCH_H

#include <stdio.h>
#include "sp_exec.h"
#include "sp_sacct.h"

/*
 * Everything the parser counted, each kind one line on standard error
 * when it happened ("sp-fetch: read 846 rows short of ..."), and, with
 * stats not NULL, every kind as a row of a small record file (key,
 * count, message: sp-fetch(1), --stats).  records is the number of job
 * records written.  Returns 0, or -1 when writing stats failed.
 */
int fetch_report(const struct sp_sacct *ps, unsigned long records,
		 FILE *stats);

/* --site FILE: the site facts, asked beside sacct (site.c). */
struct fetch_site {
	const char *path;	/* NULL: no --site */
	const char *cluster;	/* -M, NULL: this one */
	struct sp_exec x;	/* the child asking */
	int running;
};

/*
 * Starts asking (ask 0: nothing to ask, every fact written unknown).
 * Dies (exit 2) when it cannot start.
 */
void fetch_site_start(struct fetch_site *fs, const char *path,
		      const char *cluster, int ask);
/*
 * Waits for the answer: FILE is written; one line on stderr names the
 * facts not had.  Dies (exit 2) when FILE could not be written.
 */
void fetch_site_finish(struct fetch_site *fs);

#endif
