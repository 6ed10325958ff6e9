#ifndef SP_SPOOL_H
#define SP_SPOOL_H

#include <stdio.h>

/*
 * A temporary file for a program to read back what it wrote: opened
 * "w+", already unlinked, in $TMPDIR (tmpfile() would ignore it), where
 * a cluster's login nodes keep the room that /tmp lacks.  Dies (exit 2)
 * when none can be made.
 */
FILE *sp_spool_open(void);

#endif
