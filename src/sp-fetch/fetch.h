/*
 * fetch.h - the parts of sp-fetch kept in files of their own
 * (src/sp-fetch/): what it says about the input it read.
 */
#ifndef SP_FETCH_H
#define SP_FETCH_H

#include <stdio.h>
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

#endif
