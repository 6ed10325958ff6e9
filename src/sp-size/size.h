/*
 * size.h - sp-size's own parts beside its main: --script.
 */
#ifndef SIZE_H
#define SIZE_H

#include "sp.h"
#include "sp_histset.h"
#include "sp_nodes.h"
#include "sp_script_fix.h"
#include "sp_site.h"

enum script_out { SCRIPT_TEXT, SCRIPT_DIFF, SCRIPT_IN_PLACE };

struct script_opts {
	const char *path;		/* NULL: not --script */
	enum script_out out;
	const char *backup;		/* --in-place's suffix */
	const char *user;		/* -u; NULL: $USER */
	int add;
	const int *flags;		/* SP_FLAG_N: the flags asked for */
};

/* A batch script, read whole before the history. */
struct script_job {
	struct sp_buf text;
	struct sp_script s;
};

/* Reads the script (one line and exit 2 when it cannot be read, or
 * sbatch would stop at it). */
void script_read(struct script_job *j, const char *path);
/* The advice of set (finished) applied to the script, written as asked,
 * the node rule's --exclude from nodes (every record of set; NULL: not
 * asked); returns the exit status. */
int script_run(struct script_job *j, const struct script_opts *o,
	       struct sp_histset *set, const struct sp_site *site,
	       const struct sp_nodes *nodes);
void script_free(struct script_job *j);

#endif
