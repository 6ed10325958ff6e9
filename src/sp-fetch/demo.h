/*
 * demo.h - the synthetic accounting history behind sp-fetch --demo
 * (its files: demo.c, demo_rows.c, demo_cases.c; demo_int.h).
 *
 * It writes what "sacct --parsable2 -D" would print (a header line of
 * sacct field names, then allocation and step rows, '|' delimited), so
 * the demo goes through the same parser as a real cluster's record.
 * Deterministic: the same bytes every run, dates from a fixed reference.
 */
#ifndef SP_FETCH_DEMO_H
#define SP_FETCH_DEMO_H

#include <stdint.h>
#include <stdio.h>

/* The default size: a few thousand allocations. */
#define SP_DEMO_DEFAULT_JOBS 0

/*
 * Writes the history.  njobs 0 means the default mix; a larger number
 * scales the long tail (the named cases stay as they are) to about that
 * many allocations.  Returns 0, or -1 when a write failed.
 */
int sp_demo_write(FILE *out, long njobs);

/*
 * The moment the demo's record was read, in civil seconds (as
 * sp_parse_time): its jobs still running are running then, and a relative
 * time given with --demo (now-7days, today) counts back from it, not from
 * this machine's clock, which is past the demo's history.
 */
int64_t sp_demo_now(void);

#endif
