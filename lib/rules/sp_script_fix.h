/*
 * sp_script_fix.h - the advice of a workload's history applied to the
 * batch script that will submit its next run (sp-size --script).
 *
 * The script names its workload as sbatch would submit it: the job name
 * (-J, else the script's file name), the partition (-p) and whether it
 * asks for GPUs, with the user, make the key sp-group gives its runs
 * (sp_workload_of).  The advice is sp_size_advise's, over that history.
 *
 * Applied, the advice rewrites the value of each sizing option in the
 * script's first #SBATCH block -- --time, --mem (or --mem-per-cpu, per
 * CPU), --cpus-per-task, the GPU count of --gpus, --gres=gpu or
 * --gpus-per-node, and --exclude (the node rule's machines added to
 * the script's) -- where the verdict is raise or lower, in the
 * spelling the script used, with a comment above the line saying what
 * changed and why.  A hold, a refusal or a capped request leaves the
 * line as it is, with a comment giving the reason.  A flag the script
 * does not set is added after its last directive only when asked
 * (add), with the advice's own line.  Comments an earlier run wrote
 * ("# slurmpast: ...", directly above a line this one comments on) are
 * replaced, so running it again does not pile them up.  Nothing else
 * changes: the shebang, every other line, the line ends, the file's
 * last byte.
 */
#ifndef SP_SCRIPT_FIX_H
#define SP_SCRIPT_FIX_H

#include "sp_advice.h"
#include "sp_histset.h"
#include "sp_rewrite.h"
#include "sp_script.h"

/* The prefix of every comment written into a script. */
#define SP_SCRIPT_MARK "# slurmpast: "

/* The workload a script names. */
struct sp_script_who {
	char *name;		/* -J, else the file's base name */
	int name_from_file;
	char *partition;	/* -p as written (a list, maybe); NULL none */
	int gpu;		/* it asks for GPUs */
};

/* What the script at path (for its name) names. */
void sp_script_who(const struct sp_script *s, const char *path,
		   struct sp_script_who *w);
void sp_script_who_free(struct sp_script_who *w);

/*
 * The workload of set (finished) a script's runs belong to, for user.
 * Without a partition in the script, or with a list, the workload is
 * chosen among the partitions the name ran in (with the script's list,
 * among those), the one with the newest run; note says which, and the
 * others, when there was a choice.  Returns its index, or -1 with one
 * line in why: the job name, partition and user looked for, and the
 * nearest names that do have history (the same name elsewhere, then
 * the user's workloads within SP_NEAR_MAX_EDITS edits).
 */
long sp_script_find(struct sp_histset *set, const struct sp_script_who *w,
		    const char *user, struct sp_buf *note, struct sp_buf *why);

struct sp_script_fix {
	struct sp_rewrite rw;
	struct sp_buf notes;	/* lines for standard error, each ending
				 * in a newline */
	size_t changed;		/* options rewritten */
	size_t commented;	/* left as they are, with the reason */
	size_t added;		/* added (add) */
};

/*
 * The advice applied to s: adv[f] for each flag asked for and advised
 * (NULL for the others), and the node rule's --exclude advice (NULL:
 * none), whose machines join those an --exclude (-x) of the script
 * already names.  fx is zeroed first; sp_script_fix_free after.
 */
void sp_script_fix(struct sp_script_fix *fx, const struct sp_script *s,
		   const struct sp_advice *const adv[SP_FLAG_N],
		   const struct sp_advice *exclude, int add);
void sp_script_fix_free(struct sp_script_fix *fx);

#endif
